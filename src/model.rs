//! Shared value types that flow from replay to the writers: clocks in tenths,
//! results, statuses, reason codes and the verdict that carries its citation.

use std::fmt;

pub(crate) use crate::citation::Citation;

/// A clock reading in tenths of a second. `precise` is true when the source
/// wrote tenths (chess.com, DGT), which matters: a whole-second `0:00:00`
/// means "under one second left", not a fallen flag.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Clock {
    /// Tenths of a second left.
    pub tenths: u32,
    pub precise: bool,
}

impl Clock {
    pub(crate) const fn secs(s: u32) -> Clock {
        Clock {
            tenths: s * 10,
            precise: false,
        }
    }

    pub(crate) fn is_zero(self) -> bool {
        self.tenths == 0
    }

    /// Zero on a clock that shows tenths: the flag has really fallen.
    pub(crate) fn is_fallen(self) -> bool {
        self.tenths == 0 && self.precise
    }

    /// `h:mm:ss`, and `.t` where the source wrote tenths, written into
    /// `buf`: two a CSV row, where the formatter's machinery cost more than
    /// the rest of the row's numbers.
    pub(crate) fn ascii(self, buf: &mut [u8; 16]) -> &[u8] {
        let t = self.tenths;
        let s = t / 10;
        let mut hours = itoa::Buffer::new();
        let hours = hours.format(s / 3600).as_bytes();
        // At most six digits: a u32 of tenths is under 120,000 hours.
        let n = hours.len();
        buf[..n].copy_from_slice(hours);
        let two = |v: u32| [b'0' + (v / 10) as u8, b'0' + (v % 10) as u8];
        let [m1, m2] = two((s / 60) % 60);
        let [s1, s2] = two(s % 60);
        buf[n..n + 6].copy_from_slice(&[b':', m1, m2, b':', s1, s2]);
        if self.precise {
            buf[n + 6..n + 8].copy_from_slice(&[b'.', b'0' + (t % 10) as u8]);
            &buf[..n + 8]
        } else {
            &buf[..n + 6]
        }
    }

    /// The reading as text (`ascii`, as a `str`).
    fn text(self, buf: &mut [u8; 16]) -> &str {
        // ASCII digits and punctuation only.
        std::str::from_utf8(self.ascii(buf)).unwrap_or_default()
    }

    /// The reading, onto the end of `out`.
    pub(crate) fn push_to(self, out: &mut String) {
        out.push_str(self.text(&mut [0; 16]));
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text(&mut [0; 16]))
    }
}

/// A calendar date, `YYYY-MM-DD` (claims' dates, season fixtures).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Date {
    pub(crate) year: u16,
    pub(crate) month: u8,
    pub(crate) day: u8,
}

impl Date {
    /// `2025-02-28`; also `.` or `/` between the parts. A day the month
    /// does not have (`2025-02-30`) is no date.
    pub(crate) fn parse(s: &str) -> Option<Date> {
        let mut it = s.trim().splitn(3, ['-', '.', '/']);
        let year = it.next()?.parse().ok()?;
        let month: u8 = it.next()?.parse().ok()?;
        let day: u8 = it.next()?.parse().ok()?;
        ((1..=12).contains(&month) && (1..=days_in_month(year, month)).contains(&day))
            .then_some(Date { year, month, day })
    }

    /// `dd/mm/yyyy`, as the ECF file writes dates.
    pub(crate) fn ecf(&self) -> String {
        format!("{:02}/{:02}/{:04}", self.day, self.month, self.year)
    }

    /// Days since 1970-01-01 (proleptic Gregorian), for deadlines.
    pub(crate) fn day_number(self) -> i64 {
        let (y, m, day) = (
            i64::from(self.year),
            i64::from(self.month),
            i64::from(self.day),
        );
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + day - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The date `day_number` days after 1970-01-01 (its inverse).
    pub(crate) fn from_day_number(n: i64) -> Date {
        let z = n + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as u16;
        Date { year, month, day }
    }

    /// Today (UTC), from the system clock.
    pub(crate) fn today() -> Date {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Date::from_day_number((secs / 86_400) as i64)
    }
}

pub(crate) fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        _ => 31,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// A game result as written in PGN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    Unknown,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads the Result tag, tolerating the unicode forms seen in real files
    /// (`½-½`, en and em dashes) and surrounding blanks.
    pub(crate) fn parse(s: &str) -> Option<GameResult> {
        let s = s.trim();
        // Dashes other than the hyphen-minus only in the rare result typed
        // in a word processor: the common case is read without a copy.
        if s.contains(['–', '—', '‐', '‑']) {
            let norm: String = s
                .chars()
                .map(|c| match c {
                    '–' | '—' | '‐' | '‑' => '-',
                    c => c,
                })
                .collect();
            return Self::parse_plain(&norm);
        }
        Self::parse_plain(s)
    }

    fn parse_plain(s: &str) -> Option<GameResult> {
        match s {
            // `+--` / `--+`: a win by forfeit, as lichess broadcasts write it.
            "1-0" | "+--" | "+/-" | "1-0 ff" | "1.0-0.0" => Some(GameResult::WhiteWins),
            "0-1" | "--+" | "-/+" | "0-1 ff" | "0.0-1.0" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" | "1/2" | "½" | "=" | "0.5-0.5" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    pub(crate) fn win_for(side: Side) -> GameResult {
        match side {
            Side::White => GameResult::WhiteWins,
            Side::Black => GameResult::BlackWins,
        }
    }

    /// The side credited with the win, if decisive.
    pub(crate) fn winner(self) -> Option<Side> {
        match self {
            GameResult::WhiteWins => Some(Side::White),
            GameResult::BlackWins => Some(Side::Black),
            _ => None,
        }
    }
}

/// A player, by colour. Kept apart from `shakmaty::Color` so the model does
/// not leak the chess library into the writers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub(crate) const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// 0 for White, 1 for Black: where a side's entry sits in a pair.
    pub(crate) fn index(self) -> usize {
        usize::from(self == Side::Black)
    }

    pub(crate) fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    /// Side that made the given 1-based ply from a start position with
    /// `first` to move.
    /// The move number ply `ply` (from 1) is played under, in a record
    /// whose first ply is `first`'s, at move `start`.
    pub(crate) fn fullmove_of_ply(first: Side, start: u32, ply: usize) -> u32 {
        let idx = ply.saturating_sub(1) + usize::from(first == Side::Black);
        start + (idx / 2) as u32
    }

    pub(crate) fn of_ply(first: Side, ply: usize) -> Side {
        if ply % 2 == 1 {
            first
        } else {
            first.other()
        }
    }
}

impl From<shakmaty::Color> for Side {
    fn from(c: shakmaty::Color) -> Side {
        match c {
            shakmaty::Color::White => Side::White,
            shakmaty::Color::Black => Side::Black,
        }
    }
}

impl From<Side> for shakmaty::Color {
    fn from(s: Side) -> shakmaty::Color {
        match s {
            Side::White => shakmaty::Color::White,
            Side::Black => shakmaty::Color::Black,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Confirmed,
    Corrected,
    Review,
    Unreadable,
    /// An arbiter's recorded decision (`--decisions`).
    Decided,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Confirmed => "confirmed",
            Status::Corrected => "corrected",
            Status::Review => "review",
            Status::Unreadable => "unreadable",
            Status::Decided => "decided",
        }
    }
}

/// Reason codes of the results CSV (PRODUCT.md); `as_str` is the CSV text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    Checkmate,
    Stalemate,
    DeadPosition,
    FivefoldRepetition,
    SeventyFiveMoves,
    FlagFall,
    FlagFallCannotMate,
    BothFlagsDown,
    FlagUnclaimed,
    IllegalMove,
    IllegalMoveStands,
    ResignationOrAgreement,
    Unterminated,
    NoMoves,
    ParseError,
    Unsupported,
    RulesetMismatch,
    /// A second copy of a game read earlier in the run: judged there, once.
    Duplicate,
}

impl Reason {
    pub const ALL: [Reason; 18] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::DeadPosition,
        Reason::FivefoldRepetition,
        Reason::SeventyFiveMoves,
        Reason::FlagFall,
        Reason::FlagFallCannotMate,
        Reason::BothFlagsDown,
        Reason::FlagUnclaimed,
        Reason::IllegalMove,
        Reason::IllegalMoveStands,
        Reason::ResignationOrAgreement,
        Reason::Unterminated,
        Reason::NoMoves,
        Reason::ParseError,
        Reason::Unsupported,
        Reason::RulesetMismatch,
        Reason::Duplicate,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::DeadPosition => "dead-position",
            Reason::FivefoldRepetition => "fivefold-repetition",
            Reason::SeventyFiveMoves => "seventy-five-moves",
            Reason::FlagFall => "flag-fall",
            Reason::FlagFallCannotMate => "flag-fall-cannot-mate",
            Reason::BothFlagsDown => "both-flags-down",
            Reason::FlagUnclaimed => "flag-unclaimed",
            Reason::IllegalMove => "illegal-move",
            Reason::IllegalMoveStands => "illegal-move-stands",
            Reason::ResignationOrAgreement => "resignation-or-agreement",
            Reason::Unterminated => "unterminated",
            Reason::NoMoves => "no-moves",
            Reason::ParseError => "parse-error",
            Reason::Unsupported => "unsupported",
            Reason::RulesetMismatch => "ruleset-mismatch",
            Reason::Duplicate => "duplicate",
        }
    }
}

/// The outcome of judging one game. It cannot be built without a citation:
/// every printed decision names the rule it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub result: GameResult,
    pub status: Status,
    pub reason: Reason,
    /// The rule the verdict rests on.
    pub rule: Citation,
}

impl Verdict {
    pub(crate) fn new(
        result: GameResult,
        status: Status,
        reason: Reason,
        rule: Citation,
    ) -> Verdict {
        Verdict {
            result,
            status,
            reason,
            rule,
        }
    }

    /// Status follows from comparing with the recorded result. A result
    /// that cannot be decided is `review` even where the record has none
    /// either: `*` against `*` confirms nothing.
    pub(crate) fn against(
        recorded: GameResult,
        result: GameResult,
        reason: Reason,
        rule: Citation,
    ) -> Verdict {
        let status = if result == GameResult::Unknown {
            Status::Review
        } else if result == recorded {
            Status::Confirmed
        } else {
            Status::Corrected
        };
        Verdict::new(result, status, reason, rule)
    }
}

/// Everything the results CSV says about one game beyond its tags: the
/// game judge's finished model, which the writers render.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub verdict: Verdict,
    /// The ply the verdict turns on (a flag fall, an illegal move), 1-based.
    pub ply: Option<usize>,
    /// The move at `ply`, in SAN as written.
    pub mv: String,
    /// The move at `ply` as a person reads it, by number and side
    /// (`51. Ke3`, `51... Kd7`); empty where there is none.
    pub numbered: String,
    /// Each side's clock at the end, where the record says.
    pub white_clock: Option<Clock>,
    pub black_clock: Option<Clock>,
    /// Plies replayed.
    pub plies: usize,
    /// The position the replay ended in, as FEN.
    pub final_fen: String,
    /// The reasons in words, as the `detail` column gives them.
    pub detail: String,
    /// The ruleset the game was judged under (`None`: not judged).
    pub ruleset: Option<std::sync::Arc<str>>,
    /// The game's `TimeControl` is not one its ruleset is for.
    pub control_mismatch: bool,
    /// The control the game was judged at: its tag as read (minutes
    /// written as seconds mended from the clocks), or the ruleset's own
    /// where the tag gives none, written as a PGN `TimeControl`; `None`
    /// where nothing was replayed.
    pub(crate) control: Option<String>,
    /// The game's key, for recording a decision on it (`None`: not read).
    pub key: Option<GameKey>,
    /// The board ended the game after this ply, and the record goes on
    /// past it (moves, or a token that is not one): what follows does not
    /// count, and the corrected PGN keeps it as a comment.
    pub(crate) ended_at: Option<usize>,
    /// A second copy of a game whose recorded result differs from the
    /// first copy's: the first row is in doubt too.
    pub(crate) conflicting_copy: bool,
}

impl Judgement {
    /// A game that could not be read at all, and why.
    pub(crate) fn unreadable(detail: String) -> Judgement {
        Judgement::bare(
            Verdict::new(
                GameResult::Unknown,
                Status::Unreadable,
                Reason::ParseError,
                Citation::fixed("PGN 8.2"),
            ),
            detail,
        )
    }

    /// A verdict with nothing replayed.
    pub(crate) fn bare(verdict: Verdict, detail: String) -> Judgement {
        Judgement {
            verdict,
            ply: None,
            mv: String::new(),
            numbered: String::new(),
            white_clock: None,
            black_clock: None,
            plies: 0,
            final_fen: String::new(),
            detail,
            ruleset: None,
            control_mismatch: false,
            control: None,
            key: None,
            ended_at: None,
            conflicting_copy: false,
        }
    }
}

/// Of `known`, the word `word` is likeliest a slip for (a letter or two
/// wrong, any case), for a "did you mean" in a message. A name the word
/// is another form of (`grading`, `teams`: the name, less a final `e`, and
/// an ending of up to three letters) comes first, where only one name is:
/// `grading` is `grade` (three letters off), not a slip for `rating` (two).
pub(crate) fn nearest<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    let known: Vec<&str> = known.into_iter().collect();
    let inflected = |n: &str| {
        let lower = n.to_lowercase();
        let stem = lower.strip_suffix('e').unwrap_or(&lower);
        stem.chars().count() >= 4
            && word.starts_with(stem)
            && (1..=3).contains(&(word.len() - stem.len()))
    };
    if let [one] = known.iter().filter(|n| inflected(n)).collect::<Vec<_>>()[..] {
        return Some(one);
    }
    known
        .into_iter()
        .map(|n| (n, strsim::damerau_levenshtein(&word, &n.to_lowercase())))
        .filter(|(n, d)| *d <= 2.max(n.len() / 4))
        .min_by_key(|(_, d)| *d)
        .map(|(n, _)| n)
}

/// At most `max` bytes of a value quoted in a message (cut at a character
/// boundary), saying how long it was: a 600 KB value in a file gives a
/// message of a line, not 600 KB.
pub(crate) fn excerpt(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if s.len() <= max {
        return s.into();
    }
    let cut = (0..=max)
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}… ({} bytes in all)", &s[..cut], s.len()).into()
}

/// `s` fit for one line of a line-based file (TRF, the ECF submission
/// file): every control character (a CR or LF in a name included) becomes
/// a space, one for one, so fixed columns stay where they are and no value
/// starts a line of its own.
pub(crate) fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A game's key for recorded decisions: its tags (event, round, date,
/// players) and its moves, each part a 64-bit digest, so that a key survives
/// a re-export (other comments, clocks, line breaks, check signs) and tells
/// "this game, moves changed" from "another game".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameKey {
    pub tags: u64,
    pub moves: u64,
}

impl GameKey {
    /// `tttttttttttttttt-mmmmmmmmmmmmmmmm`.
    pub fn parse(s: &str) -> Option<GameKey> {
        let (t, m) = s.trim().split_once('-')?;
        let hex = |x: &str| {
            (x.len() == 16)
                .then(|| u64::from_str_radix(x, 16).ok())
                .flatten()
        };
        Some(GameKey {
            tags: hex(t)?,
            moves: hex(m)?,
        })
    }
}

impl std::fmt::Display for GameKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:016x}-{:016x}", self.tags, self.moves)
    }
}

#[cfg(test)]
mod tests {
    use super::Date;

    #[test]
    fn day_numbers_and_dates_are_inverse() {
        for n in [-700_000i64, -1, 0, 1, 59, 60, 11_016, 20_789, 2_932_896] {
            let d = Date::from_day_number(n);
            assert_eq!(d.day_number(), n, "{n} {d}");
        }
        assert_eq!(Date::from_day_number(0).to_string(), "1970-01-01");
        assert_eq!(Date::from_day_number(20_789).to_string(), "2026-12-02");
        assert!(Date::today().year >= 2026);
    }

    #[test]
    fn nearest_prefers_another_form_of_a_word_to_a_slip() {
        let known = ["name", "team", "grade", "estimated_grade", "rating"];
        assert_eq!(super::nearest("grading", known), Some("grade"));
        assert_eq!(super::nearest("Grade", known), Some("grade"));
        assert_eq!(super::nearest("ratng", known), Some("rating"));
        assert_eq!(super::nearest("teams", known), Some("team"));
        assert_eq!(super::nearest("elo", known), None);
        assert_eq!(super::nearest("ddcl", ["ddcl-cup", "uscf"]), None);
        // Names sharing a beginning are not forms of one another.
        let players = ["Walsh, Fiona", "Lowe, Stuart", "Lowther, Sam", "Carr, Jim"];
        assert_eq!(super::nearest("Walsh, Fred", players), None);
        assert_eq!(super::nearest("Lowe, Sam", players), Some("Lowther, Sam"));
        assert_eq!(super::nearest("Carrick, Jim", players), None);
        let rulesets = ["fide-standard", "fide-rapid", "fide-blitz"];
        assert_eq!(super::nearest("fide-std", rulesets), None);
    }

    #[test]
    fn one_line_replaces_control_characters_one_for_one() {
        assert_eq!(super::one_line("Tan,\rMei\nLing\u{1b}"), "Tan, Mei Ling ");
        assert_eq!(super::one_line("Müller"), "Müller");
    }

    use super::*;

    #[test]
    fn clock_display_keeps_tenths_only_when_written() {
        assert_eq!(Clock::secs(3725).to_string(), "1:02:05");
        let c = Clock {
            tenths: 9,
            precise: true,
        };
        assert_eq!(c.to_string(), "0:00:00.9");
        assert!(!Clock::secs(0).is_fallen());
        assert!(Clock {
            tenths: 0,
            precise: true
        }
        .is_fallen());
        // Every field's width, up to the largest reading a u32 holds.
        for (tenths, precise) in [(0, false), (599, true), (36_000, false), (u32::MAX, true)] {
            let s = tenths / 10;
            let mut want = format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
            if precise {
                want.push_str(&format!(".{}", tenths % 10));
            }
            assert_eq!(Clock { tenths, precise }.to_string(), want);
        }
        assert_eq!(Clock::secs(36_000).to_string(), "10:00:00");
    }

    #[test]
    fn dates_the_calendar_does_not_have_are_refused() {
        assert_eq!(
            Date::parse("2024-02-29"),
            Some(Date {
                year: 2024,
                month: 2,
                day: 29
            })
        );
        assert_eq!(Date::parse("2025-02-29"), None);
        assert_eq!(Date::parse("2025-02-30"), None);
        assert_eq!(Date::parse("2025-04-31"), None);
        assert_eq!(Date::parse("2025-13-01"), None);
        let d = |s| Date::parse(s).map(Date::day_number);
        assert_eq!(d("1970-01-01"), Some(0));
        assert_eq!(d("2000-03-01"), Some(11_017));
    }

    #[test]
    fn result_parse_tolerates_unicode_forms() {
        assert_eq!(GameResult::parse("½-½"), Some(GameResult::Draw));
        assert_eq!(GameResult::parse("1–0"), Some(GameResult::WhiteWins));
        assert_eq!(GameResult::parse(" 0-1 "), Some(GameResult::BlackWins));
        assert_eq!(GameResult::parse("+--"), Some(GameResult::WhiteWins));
        assert_eq!(GameResult::parse("draw"), None);
    }
}
