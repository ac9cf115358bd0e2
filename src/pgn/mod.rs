//! Parsing one game's text: tags, mainline moves with their clock commands,
//! and every problem pgn-reader would otherwise pass over in silence.

pub mod clock;
pub mod san;
pub mod scan;
pub mod tags;
pub mod time_control;

use std::borrow::Cow;

use shakmaty::{
    san::{San, SanPlus},
    uci::UciMove,
};

use self::{
    clock::ClockCommands,
    scan::{Comment, Scanner, Token},
};

/// Tags the judge and the CSV use; absent tags are empty strings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags {
    pub(crate) event: String,
    pub(crate) site: String,
    pub(crate) date: String,
    /// `UTCDate`, as lichess and broadcasts write the day alongside (or
    /// instead of) `Date`.
    pub(crate) utc_date: String,
    pub(crate) round: String,
    pub(crate) white: String,
    pub(crate) black: String,
    pub(crate) white_elo: String,
    pub(crate) black_elo: String,
    pub(crate) time_control: String,
    pub(crate) result: String,
    pub(crate) termination: String,
    pub(crate) variant: String,
    pub(crate) fen: String,
    pub(crate) setup: String,
    pub(crate) white_clock: String,
    pub(crate) black_clock: String,
    /// The players' FIDE ids, titles and federations, for the TRF report.
    pub(crate) white_fide_id: String,
    pub(crate) black_fide_id: String,
    pub(crate) white_title: String,
    pub(crate) black_title: String,
    pub(crate) white_fed: String,
    pub(crate) black_fed: String,
    /// The game's address where a site gives it apart from `Site`
    /// (chess.com's `Link`), for the review page.
    pub(crate) link: String,
    /// Number of tag pairs read, known or not.
    pub count: usize,
    /// Tags whose value was not UTF-8 and was read as Windows-1252.
    pub redecoded: Vec<String>,
    /// Tags whose value has no closing quote (`[White "Quote, E]`): read
    /// to the line's end, said in the detail.
    pub unclosed: Vec<String>,
    /// Tags whose values hold quotes not written `\\"` (`"Club "Summer" Open"`),
    /// read to the line's last quote.
    pub inner_quotes: Vec<String>,
}

impl Tags {
    /// Empties every field, keeping the strings' room for the next game.
    pub(crate) fn clear(&mut self) {
        // Every field named, so that a new one cannot be forgotten here.
        let Tags {
            event,
            site,
            date,
            utc_date,
            round,
            white,
            black,
            white_elo,
            black_elo,
            time_control,
            result,
            termination,
            variant,
            fen,
            setup,
            white_clock,
            black_clock,
            white_fide_id,
            black_fide_id,
            white_title,
            black_title,
            white_fed,
            black_fed,
            link,
            count,
            redecoded,
            unclosed,
            inner_quotes,
        } = self;
        for s in [
            event,
            site,
            date,
            utc_date,
            round,
            white,
            black,
            white_elo,
            black_elo,
            time_control,
            result,
            termination,
            variant,
            fen,
            setup,
            white_clock,
            black_clock,
            white_fide_id,
            black_fide_id,
            white_title,
            black_title,
            white_fed,
            black_fed,
            link,
        ] {
            s.clear();
        }
        *count = 0;
        redecoded.clear();
        unclosed.clear();
        inner_quotes.clear();
    }

    /// The field a tag name fills, for the tags the judge and the CSV use.
    pub fn slot_mut(&mut self, name: &[u8]) -> Option<&mut String> {
        Some(match name {
            b"Event" => &mut self.event,
            b"Site" => &mut self.site,
            b"Date" => &mut self.date,
            b"UTCDate" => &mut self.utc_date,
            b"Round" => &mut self.round,
            b"White" => &mut self.white,
            b"Black" => &mut self.black,
            b"WhiteElo" => &mut self.white_elo,
            b"BlackElo" => &mut self.black_elo,
            b"TimeControl" => &mut self.time_control,
            b"Result" => &mut self.result,
            b"Termination" => &mut self.termination,
            b"Variant" => &mut self.variant,
            b"FEN" => &mut self.fen,
            b"SetUp" => &mut self.setup,
            b"WhiteClock" => &mut self.white_clock,
            b"BlackClock" => &mut self.black_clock,
            b"WhiteFideId" => &mut self.white_fide_id,
            b"BlackFideId" => &mut self.black_fide_id,
            b"WhiteTitle" => &mut self.white_title,
            b"BlackTitle" => &mut self.black_title,
            b"WhiteFed" => &mut self.white_fed,
            b"BlackFed" => &mut self.black_fed,
            b"Link" => &mut self.link,
            _ => return None,
        })
    }

    /// The `Round` tag's tournament round and board: `1.38` is round 1,
    /// board 38; `3` is round 3 with no board; `R2.1`, `Rd 2` and
    /// `Round 2.1` as `2.1` and `2`; anything else neither.
    pub(crate) fn round_parts(&self) -> (Option<u32>, Option<u32>) {
        let number = |s: &str| {
            let s = s.trim();
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        // A round written with its word before the number (`R2.1`,
        // `Rd 2`, `Round 2.1`), as pairing programs and hand-typed
        // files have it.
        let t = self.round.trim();
        let lower = t.to_ascii_lowercase();
        let t = ["round", "rnd", "rd", "r"]
            .iter()
            .find_map(|p| {
                let rest = lower.strip_prefix(p)?.trim_start_matches([' ', '.', '-']);
                rest.starts_with(|c: char| c.is_ascii_digit())
                    .then(|| &t[t.len() - rest.len()..])
            })
            .unwrap_or(t);
        match t.split_once('.') {
            Some((r, b)) => match number(r) {
                Some(r) => (Some(r), number(b)),
                None => (None, None),
            },
            None => (number(t), None),
        }
    }

    /// An Elo tag as a number: `None` where it is absent, `?` or not a
    /// whole number.
    pub(crate) fn elo(value: &str) -> Option<u32> {
        value.trim().parse().ok()
    }

    /// The recorded result: the Result tag (`*` when absent or unreadable).
    pub(crate) fn recorded_result(&self) -> crate::model::GameResult {
        crate::model::GameResult::parse(&self.result).unwrap_or(crate::model::GameResult::Unknown)
    }
}

/// One mainline move as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    pub san: SanPlus,
    /// Set for a coordinate move (`g1f3`), which `san` then does not describe.
    pub uci: Option<UciMove>,
    pub token: Token,
    pub(crate) clocks: ClockCommands,
}

/// A token in the movetext that is neither a move pgn-reader accepted nor
/// anything else PGN allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Garbled {
    /// The ply the token stood in place of (1-based).
    pub(crate) ply: usize,
    pub(crate) text: String,
    pub(crate) line: u32,
    /// No token meant as a move follows it: a word written after the last
    /// move ("claimed", "flag"), which cuts nothing short.
    pub(crate) trailing: bool,
}

/// A game as read from the PGN: nothing here has been checked for legality.
#[derive(Clone, Debug, Default)]
pub struct ParsedGame {
    pub tags: Tags,
    pub plies: Vec<Ply>,
    pub(crate) garbled: Option<Garbled>,
    /// Blank lines inside the movetext (pgn-reader would end the game there).
    pub(crate) blank_line_splits: usize,
    /// A syntax error that leaves the game unreadable (an unterminated
    /// comment or tag, a variation never closed).
    pub error: Option<String>,
    pub(crate) has_variations: bool,
    /// The line (in the game, from 1) of a `{` never closed; 0 for none.
    pub(crate) open_comment_line: u32,
    /// Moves read from non-standard notation (`a8Q`, `Rh7++`, `g1f3`, `O‑O`).
    pub(crate) lenient: usize,
    /// The last game of its file (set by the reader): a record there with
    /// no termination marker may be the file cut short.
    pub(crate) ends_source: bool,
}

pub use crate::model::GameKey;

/// A 64-bit mix (splitmix64's finaliser): digests written into a decisions
/// file must not change between versions, so no `std` hasher.
fn mix(h: u64, v: u64) -> u64 {
    let mut z = (h ^ v).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn digest_str(mut h: u64, s: &str) -> u64 {
    for chunk in s.trim().as_bytes().chunks(8) {
        let mut b = [0u8; 8];
        b[..chunk.len()].copy_from_slice(chunk);
        h = mix(h, u64::from_le_bytes(b));
    }
    mix(h, 0xff)
}

/// One ply as numbers: what it says, not how it was written: a piece's
/// disambiguation (`Ngf3`, `Ng1f3` for `Nf3`) and check signs are left out.
/// A coordinate move (`g1f3`) reads differently.
fn ply_word(p: &Ply) -> u64 {
    use shakmaty::san::San;
    if let Some(u) = p.uci {
        return digest_str(1, &u.to_string());
    }
    match p.san.san {
        San::Normal {
            role,
            capture,
            to,
            promotion,
            ..
        } => {
            2 | (role as u64) << 4
                | u64::from(capture) << 16
                | (to as u64) << 20
                | promotion.map_or(0, |r| r as u64) << 28
        }
        San::Castle(side) => 3 | (side as u64) << 4,
        San::Put { role, to } => 4 | (role as u64) << 4 | (to as u64) << 8,
        San::Null => 5,
    }
}

impl ParsedGame {
    /// The game's key for recorded decisions.
    pub fn key(&self) -> GameKey {
        let t = &self.tags;
        let mut tags = 0;
        for s in [&t.event, &t.round, &t.date, &t.white, &t.black] {
            tags = digest_str(tags, s);
        }
        // One multiply a ply, the full mix once at the end.
        let moves = self.plies.iter().fold(7u64, |h, p| {
            (h.rotate_left(5) ^ ply_word(p)).wrapping_mul(0x517c_c1b7_2722_0a95)
        });
        GameKey {
            tags,
            moves: mix(moves, self.plies.len() as u64),
        }
    }

    /// Back to an empty game, keeping the tag strings' and the plies' room:
    /// a worker reads thousands of games into one.
    pub(crate) fn recycle(&mut self) {
        let mut tags = std::mem::take(&mut self.tags);
        let mut plies = std::mem::take(&mut self.plies);
        tags.clear();
        plies.clear();
        *self = ParsedGame {
            tags,
            plies,
            ..ParsedGame::default()
        };
    }
}

/// Decodes a tag value: UTF-8 when valid, otherwise Windows-1252, which is
/// what older club software on Windows writes (`M\xfcller`, `\x8aa\x9ami\x9e`)
/// and which agrees with Latin-1 on every letter Latin-1 has. `Cow::Owned`
/// when it was not UTF-8, so the caller can say so.
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(
            encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(bytes)
                .0
                .into_owned(),
        ),
    }
}

/// Reads the movetext: every token meant as a move becomes a ply, read as
/// SAN, or leniently as a scoresheet's notation; the first token that is
/// neither is reported as garbled and reading stops there.
fn read_movetext(text: &[u8], from: usize, game: &mut ParsedGame) {
    let mut scanner = Scanner::at(text, from);
    loop {
        // Comments passed on the way belong to the move before them.
        let mut last = game.plies.last_mut();
        let tok = scanner.next_move_with(|c| {
            if let Some(last) = last.as_deref_mut() {
                match c {
                    Comment::Clock(clk) => last.clocks.clk = Some(clk),
                    Comment::Text(text) => last.clocks.merge(clock::parse_comment(text)),
                }
            }
        });
        let Some(tok) = tok else { break };
        let written = tok.text(text);
        let parsed = match san::quick(written) {
            Some(san) => Ok(san),
            None => SanPlus::from_ascii(written),
        };
        let (san, uci) = match parsed {
            Ok(san) => (san, None),
            Err(_) => match lenient_move(written) {
                Some(Lenient::San(san)) => {
                    game.lenient += 1;
                    (san, None)
                }
                Some(Lenient::Uci(u)) => {
                    game.lenient += 1;
                    (
                        SanPlus {
                            san: San::Null,
                            suffix: None,
                        },
                        Some(u),
                    )
                }
                None => {
                    let trailing = scanner.next_move_with(|_| {}).is_none();
                    game.garbled = Some(Garbled {
                        ply: game.plies.len() + 1,
                        text: decode_text(written).into_owned(),
                        line: tok.line(text),
                        trailing,
                    });
                    break;
                }
            },
        };
        game.plies.push(Ply {
            san,
            uci,
            token: tok,
            clocks: ClockCommands::default(),
        });
    }
    game.blank_line_splits = scanner.blank_lines;
    game.has_variations = scanner.variations;
    if let Some(at) = scanner.unterminated_comment {
        let line = 1 + memchr::memchr_iter(b'\n', &text[..at]).count() as u32;
        game.open_comment_line = line;
        game.error = Some(unterminated_comment(line.into()));
    } else if scanner.unclosed_variation() {
        // Never a verdict on a cut-off record: the moves after the `(` may be
        // the main line or the variation, and the text cannot say which.
        game.error = Some(
            "a variation opened with `(` is never closed, so the moves after it cannot be told from the main line"
                .to_string(),
        );
    } else if scanner.stray_close && game.garbled.is_none() {
        game.error = Some("a `)` closes no variation".to_string());
    }
}

/// Parses the games of one batch, each cut out by the splitter.
pub struct BatchParser<'a> {
    data: &'a [u8],
}

impl<'a> BatchParser<'a> {
    pub fn new(data: &'a [u8]) -> BatchParser<'a> {
        BatchParser { data }
    }

    pub fn text(&self, start: usize, end: usize) -> &'a [u8] {
        &self.data[start..end]
    }

    /// Parses `data[start..end]`, one game as cut by the splitter.
    pub fn parse(&mut self, start: usize, end: usize) -> ParsedGame {
        let mut game = ParsedGame::default();
        self.parse_into(start, end, &mut game);
        game
    }

    /// `parse`, into a game recycled from the one before.
    pub(crate) fn parse_into(&mut self, start: usize, end: usize, game: &mut ParsedGame) {
        game.recycle();
        let text = &self.data[start..end];
        let movetext = match tags::read_plain_tags(text, &mut game.tags) {
            Some(m) => m,
            None => {
                game.tags.clear();
                let movetext = scan::tags_end(text);
                if movetext > 0 {
                    if let Err(e) = tags::read_tags(&text[..movetext], &mut game.tags) {
                        game.error = Some(e.to_string());
                    }
                }
                movetext
            }
        };
        if game.error.is_none() {
            // About one ply per 8 bytes of movetext (less with clocks): one allocation.
            game.plies.reserve((text.len() - movetext) / 8 + 4);
            read_movetext(text, movetext, game);
            // A record ending `0-0` beside a `Result "0-0"` (a double
            // default, written as a score) ends on that score, not on
            // castling: the Result tag, which is no PGN result, says so.
            let last = game.plies.last().map(|p| p.token.text(text));
            if last == Some(b"0-0".as_slice())
                && game.tags.result.trim() == "0-0"
                && game.garbled.is_none()
                && scan::termination_marker(&text[movetext..]).is_none()
            {
                game.plies.pop();
                game.lenient = game.lenient.saturating_sub(1);
            }
            // Without a Result tag, the termination marker is the result
            // the record gives (PGN 8.2.6).
            if game.tags.result.trim().is_empty() {
                if let Some((_, r)) =
                    scan::termination_marker(&text[movetext..]).and_then(scan::marker_result)
                {
                    game.tags.result = r.as_str().to_string();
                }
            }
        }
    }
}

/// The error for a `{` comment never closed, opened on `line`.
pub(crate) fn unterminated_comment(line: u64) -> String {
    format!("unterminated comment (the `{{` on line {line} is never closed)")
}

/// Parses one game's text on its own.
pub fn parse_game(text: &[u8]) -> ParsedGame {
    BatchParser::new(text).parse(0, text.len())
}

/// Null moves (`--`, `Z0`) belong to analysis, not to a game under the Laws.
pub(crate) fn is_null(ply: &Ply) -> bool {
    ply.uci.is_none() && matches!(ply.san.san, San::Null)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lenient {
    San(SanPlus),
    Uci(UciMove),
}

/// Reads the notation typed scoresheets and other programs use that strict
/// SAN refuses: promotion without `=`, `++` for check, `e.p.` suffixes,
/// castling with zeros or unicode dashes, coordinate moves.
pub(crate) fn lenient_move(tok: &[u8]) -> Option<Lenient> {
    let s = std::str::from_utf8(tok).ok()?;
    if s.len() > 16 {
        return None;
    }
    let mut t: String = s
        .chars()
        .map(|c| match c {
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
            c => c,
        })
        .collect();
    if t.starts_with('0') {
        t = t.replace('0', "O");
    }
    for suffix in ["e.p.", "ep", "e"] {
        if t.len() > suffix.len() + 2 && t.ends_with(suffix) {
            t.truncate(t.len() - suffix.len());
        }
    }
    while t.ends_with("++") {
        t.pop();
    }
    let body_end = t.trim_end_matches(['+', '#']).len();
    let b = t.as_bytes();
    if body_end >= 3
        && b"QRBNqrbn".contains(&b[body_end - 1])
        && matches!(b[body_end - 2], b'1' | b'8')
    {
        let promo = char::from(b[body_end - 1]).to_ascii_uppercase();
        t = format!("{}={}{}", &t[..body_end - 1], promo, &t[body_end..]);
    }
    if let Ok(sp) = SanPlus::from_ascii(t.as_bytes()) {
        return Some(Lenient::San(sp));
    }
    let coord = t
        .replace('=', "")
        .trim_end_matches(['+', '#'])
        .to_ascii_lowercase();
    UciMove::from_ascii(coord.as_bytes()).ok().map(Lenient::Uci)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_reads_with_or_without_its_word() {
        let parts = |round: &str| {
            let tags = Tags {
                round: round.to_string(),
                ..Tags::default()
            };
            tags.round_parts()
        };
        for (round, want) in [
            ("1.38", (Some(1), Some(38))),
            ("3", (Some(3), None)),
            ("R2.1", (Some(2), Some(1))),
            ("r2.2", (Some(2), Some(2))),
            ("Rd 2", (Some(2), None)),
            ("Round 2.1", (Some(2), Some(1))),
            ("Rnd-4", (Some(4), None)),
            ("?", (None, None)),
            ("Final", (None, None)),
            ("A2", (None, None)),
            ("R", (None, None)),
            ("Round two", (None, None)),
        ] {
            assert_eq!(parts(round), want, "{round}");
        }
    }
    use crate::model::Clock;

    #[test]
    fn reads_tags_moves_and_clocks() {
        let g = parse_game(b"[White \"M\xfcller\"]\n[Result \"1-0\"]\n\n1. e4 { [%clk 0:01:00] } 1... e5 {[%eval 0.2] [%clk 0:00:59.5]} 1-0\n");
        assert_eq!(g.tags.white, "Müller");
        assert_eq!(g.plies.len(), 2);
        assert_eq!(g.plies[0].clocks.clk, Some(Clock::secs(60)));
        assert_eq!(
            g.plies[1].clocks.clk,
            Some(Clock {
                tenths: 595,
                precise: true
            })
        );
        assert!(g.garbled.is_none());
    }

    #[test]
    fn garbled_token_is_reported_not_skipped() {
        let g = parse_game(b"[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Xq9 Bb5 *\n");
        let garbled = g.garbled.expect("garbled move must be reported");
        assert_eq!(garbled.ply, 5);
        assert_eq!(garbled.text, "Xq9");
        assert_eq!(garbled.line, 3);
    }

    #[test]
    fn scoresheet_notation_is_read_leniently() {
        for (tok, want) in [
            ("a8Q", "a8=Q"),
            ("Rh7++", "Rh7+"),
            ("exf6ep", "exf6"),
            ("O\u{2011}O", "O-O"),
            ("0-0-0", "O-O-O"),
            ("d7d8R", "d7d8=R"),
        ] {
            match lenient_move(tok.as_bytes()) {
                Some(Lenient::San(sp)) => assert_eq!(sp.to_string(), want, "{tok}"),
                other => panic!("{tok}: {other:?}"),
            }
        }
        assert!(matches!(
            lenient_move(b"g1f3"),
            Some(Lenient::San(_)) | Some(Lenient::Uci(_))
        ));
        assert_eq!(lenient_move(b"Xq9"), None);
        let g = parse_game(b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O\xe2\x80\x91O *");
        assert_eq!(g.plies.len(), 9);
        assert!(g.garbled.is_none());
        assert_eq!(g.lenient, 1);
    }

    #[test]
    fn blank_line_inside_movetext_does_not_end_the_game() {
        let g = parse_game(b"[Result \"*\"]\n\n1. e4 e5\n\n2. Nf3 Nc6 *\n");
        assert_eq!(g.plies.len(), 4);
        assert_eq!(g.blank_line_splits, 1);
    }

    #[test]
    fn long_comment_keeps_its_clock() {
        let mut text = b"1. e4 { ".to_vec();
        text.extend(std::iter::repeat_n(b'x', 10_000));
        text.extend_from_slice(b" [%clk 0:09:59] } e5 *");
        let g = parse_game(&text);
        assert_eq!(g.plies[0].clocks.clk, Some(Clock::secs(599)));
    }
}
