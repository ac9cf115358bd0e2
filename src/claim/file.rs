//! Reading a claim file (TOML, PRODUCT.md's schema plus `arbiter`, `white`,
//! `black`, `previous_illegal` and `notes`). Every field is checked here, so
//! an error names the file, the field and the value; the scoresheet's own
//! problems (missing, illegal moves) are findings in the packet instead.

use std::{
    fmt,
    path::{Path, PathBuf},
};

use toml::{Table, Value};

use super::{ClaimKind, Ground};
use crate::{
    model::Date,
    model::{Clock, Side},
    pgn::clock::parse_duration,
    read::{
        contained::{contained, read_regular},
        split::MAX_GAME_BYTES,
    },
    rules::Ruleset,
};

/// Why a scoresheet file is no PGN game at all: it holds no game, or
/// nothing in it reads as one (no tag, and its first word no move). A game
/// with a slip in it is a scoresheet, its slip a finding.
fn not_a_scoresheet(bytes: &[u8]) -> Option<String> {
    let mut splitter = crate::read::split::Splitter::new(bytes);
    let batch = match splitter.next_batch(usize::MAX) {
        Ok(Some(b)) if !b.games.is_empty() => b,
        Ok(_) => return Some("holds no game: give the game's PGN file".into()),
        Err(e) => return Some(format!("cannot be read as PGN: {e}")),
    };
    let mut parser = crate::pgn::BatchParser::new(&batch.data);
    let mut first = None;
    // Any one game that reads as a game makes the file a scoresheet (the
    // claim picks its game from them).
    for span in &batch.games {
        let game = parser.parse(span.start, span.end);
        match &game.garbled {
            Some(g) if g.ply == 1 && game.tags.count == 0 => {
                first.get_or_insert_with(|| {
                    format!(
                        "line {}: {:?} is not a move, and no tag names a game: this is not a PGN scoresheet",
                        span.line + u64::from(g.line) - 1,
                        crate::model::excerpt(&g.text, 40)
                    )
                });
            }
            _ => return None,
        }
    }
    first
}

/// A scoresheet saved as UTF-16 with its mark (Notepad's "Unicode"), as
/// UTF-8, as `adjudicate` reads it.
fn utf16_as_utf8(bytes: Vec<u8>) -> Vec<u8> {
    match encoding_rs::Encoding::for_bom(&bytes) {
        Some((enc, bom)) if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE => enc
            .decode_without_bom_handling(&bytes[bom..])
            .0
            .into_owned()
            .into_bytes(),
        _ => bytes,
    }
}

/// A claim file that cannot be judged: the file, the field and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimError {
    pub(crate) file: String,
    pub field: Option<String>,
    pub(crate) message: String,
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = crate::model::excerpt(&self.message, 300);
        match &self.field {
            Some(field) => write!(
                f,
                "{}: field `{}`: {message}",
                self.file,
                crate::model::excerpt(field, 60)
            ),
            None => write!(f, "{}: {message}", self.file),
        }
    }
}

impl std::error::Error for ClaimError {}

/// Where the moves come from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Scoresheet {
    /// A PGN file (already checked to lie beside the claim) and its bytes.
    File(PathBuf, Vec<u8>),
    /// `moves = "1. e4 e5 ..."` written in the claim.
    Inline(String),
    /// No scoresheet and no moves: the claim's `final_fen` alone.
    Position(String),
}

/// A claim file, every field checked.
#[derive(Clone, Debug)]
pub struct Claim {
    /// The files the claim was read from: the claim file (when there is
    /// one), its scoresheet and its ruleset file. No output may replace them.
    pub(crate) inputs: Vec<PathBuf>,
    /// The file's stem: the packet's name and the `claim` column.
    pub(crate) id: String,
    pub(crate) kind: ClaimKind,
    pub(crate) ruleset: Ruleset,
    pub(crate) grounds: Vec<Ground>,
    pub(crate) claimant: Side,
    pub(crate) event: Option<String>,
    pub(crate) match_name: Option<String>,
    pub(crate) board: Option<String>,
    pub(crate) date: Option<Date>,
    pub(crate) received: Option<Date>,
    pub(crate) scoresheet: Scoresheet,
    /// Which game of the scoresheet file (from 0): the one the claim's
    /// board and players name, where it holds several.
    pub(crate) scoresheet_game: usize,
    pub(crate) final_fen: Option<String>,
    pub(crate) clock_white: Option<Clock>,
    pub(crate) clock_black: Option<Clock>,
    pub(crate) submitted_by: Vec<Side>,
    pub(crate) fees_paid: Vec<Side>,
    /// Was an arbiter present? None: the ruleset's default.
    pub(crate) arbiter: Option<bool>,
    pub(crate) white: Option<String>,
    pub(crate) black: Option<String>,
    /// Illegal moves the offender had already completed in this game (FIDE 7.5.5's "second").
    pub(crate) previous_illegal: u32,
    /// The clock's delay and increment as the claim states them, in seconds
    /// (USCF 14H is not available with either).
    pub(crate) delay: Option<u32>,
    pub(crate) increment: Option<u32>,
    pub(crate) notes: Option<String>,
}

impl Claim {
    pub(crate) fn clock(&self, side: Side) -> Option<Clock> {
        match side {
            Side::White => self.clock_white,
            Side::Black => self.clock_black,
        }
    }
}

/// How far a claim may reach for its scoresheet and ruleset.
#[derive(Copy, Clone, Debug, Default)]
pub struct LoadOptions {
    /// Accept absolute paths, `..` and symlinks leading out of the claim's folder.
    pub allow_outside: bool,
}

const FIELDS: &[&str] = &[
    "kind",
    "ruleset",
    "grounds",
    "claimant",
    "event",
    "match",
    "board",
    "date",
    "received",
    "scoresheet",
    "moves",
    "final_fen",
    "clock_white",
    "clock_black",
    "submitted_by",
    "fees_paid",
    "arbiter",
    "white",
    "black",
    "previous_illegal",
    "delay",
    "increment",
    "notes",
];

/// Largest claim file read (a claim is a page of TOML).
const MAX_CLAIM_BYTES: u64 = 1 << 20;

/// Reads and checks a claim file.
pub fn load_claim(path: &Path, opts: LoadOptions) -> Result<Claim, ClaimError> {
    let name = path.display().to_string();
    let err = |field: Option<&str>, message: String| ClaimError {
        file: name.clone(),
        field: field.map(str::to_string),
        message,
    };
    let bytes = read_regular(path, MAX_CLAIM_BYTES).map_err(|e| err(None, e))?;
    let text = crate::read::text::decode(&name, bytes);
    let base = path.parent().unwrap_or(Path::new("."));
    let id = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "claim".into());
    let mut claim = parse_claim(&name, &id, &text, base, opts)?;
    claim.inputs.insert(0, path.to_path_buf());
    Ok(claim)
}

/// Checks a claim's text; `base` is the folder its paths are relative to.
pub(crate) fn parse_claim(
    name: &str,
    id: &str,
    text: &str,
    base: &Path,
    opts: LoadOptions,
) -> Result<Claim, ClaimError> {
    let table: Table = text
        .parse()
        .map_err(|e: toml::de::Error| toml_error(name, text, &e))?;
    let f = Fields {
        name,
        table: &table,
    };
    f.known_keys()?;
    let kind_text = f.required_str("kind")?;
    let kind = ClaimKind::parse(&kind_text).ok_or_else(|| {
        let kinds: Vec<&str> = ClaimKind::ALL.iter().map(|k| k.as_str()).collect();
        f.err(
            "kind",
            format!("{kind_text:?} is not a claim kind ({})", kinds.join(", ")),
        )
    })?;
    let ruleset_text = f.required_str("ruleset")?;
    // A built-in name, or a ruleset file beside the claim: the one
    // containment rule for every path a claim names.
    let ruleset = Ruleset::load_contained(&ruleset_text, base, opts.allow_outside)
        .map_err(|e| f.err("ruleset", e.to_string()))?;
    let grounds = f.grounds(kind)?;
    let claimant = f.side("claimant")?.ok_or_else(|| f.missing("claimant"))?;
    let scoresheet = f.scoresheet(base, opts)?;
    let final_fen = f.str("final_fen")?;
    if let Some(fen) = &final_fen {
        if fen.parse::<shakmaty::fen::Fen>().is_err() {
            return Err(f.err("final_fen", format!("{fen:?} is not a FEN")));
        }
    }
    let board = match table.get("board") {
        None => None,
        Some(Value::Integer(n)) if *n > 0 => Some(n.to_string()),
        Some(Value::String(s)) => Some(s.clone()),
        Some(v) => return Err(f.err("board", format!("{v} is not a board number"))),
    };
    let previous_illegal = match table.get("previous_illegal") {
        None => 0,
        Some(Value::Integer(n)) if (0..=100).contains(n) => *n as u32,
        Some(v) => {
            return Err(f.err(
                "previous_illegal",
                format!("{v} is not a count of earlier illegal moves"),
            ))
        }
    };
    let seconds = |field: &str| match table.get(field) {
        None => Ok(None),
        Some(Value::Integer(n)) if (0..=3600).contains(n) => Ok(Some(*n as u32)),
        Some(v) => Err(f.err(field, format!("{v} is not a number of seconds (0 to 3600)"))),
    };
    let delay = seconds("delay")?;
    let increment = seconds("increment")?;
    let arbiter = match table.get("arbiter") {
        None => None,
        Some(Value::Boolean(b)) => Some(*b),
        Some(v) => return Err(f.err("arbiter", format!("{v} is not true or false"))),
    };
    let scoresheet_game = match &scoresheet {
        Scoresheet::File(path, bytes) => f.choose_game(
            path,
            bytes,
            board.as_deref(),
            f.str("white")?.as_deref(),
            f.str("black")?.as_deref(),
        )?,
        Scoresheet::Inline(_) | Scoresheet::Position(_) => 0,
    };
    let date = f.date("date")?;
    let received = f.date("received")?;
    if let (Some(d), Some(r)) = (date, received) {
        if r < d {
            return Err(f.err("received", format!("{r} is before the date of play {d}")));
        }
    }
    let mut inputs: Vec<PathBuf> = Ruleset::file_of(&ruleset_text, base, opts.allow_outside)
        .into_iter()
        .collect();
    if let Scoresheet::File(path, _) = &scoresheet {
        inputs.push(path.clone());
    }
    Ok(Claim {
        inputs,
        id: id.to_string(),
        kind,
        ruleset,
        grounds,
        claimant,
        event: f.str("event")?,
        match_name: f.str("match")?,
        board,
        date,
        received,
        scoresheet,
        scoresheet_game,
        final_fen,
        clock_white: f.clock("clock_white")?,
        clock_black: f.clock("clock_black")?,
        submitted_by: f.sides("submitted_by")?,
        fees_paid: f.sides("fees_paid")?,
        arbiter,
        white: f.str("white")?,
        black: f.str("black")?,
        previous_illegal,
        delay,
        increment,
        notes: f.str("notes")?,
    })
}

/// A TOML syntax error, named by the field on its line where there is one.
fn toml_error(name: &str, text: &str, e: &toml::de::Error) -> ClaimError {
    let message = e.message().trim().replace('\n', " ");
    let line = e.span().map(|span| {
        // A span may point inside a multi-byte character: step back to a boundary.
        let at = (0..=span.start.min(text.len()))
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line_no = text[..start].matches('\n').count() + 1;
        (line_no, &text[start..end])
    });
    match line.and_then(|(n, l)| l.split_once('=').map(|(k, v)| (n, k.trim(), v.trim()))) {
        Some((n, key, value)) if !key.is_empty() && !key.contains(['[', '"', ' ']) => ClaimError {
            file: name.to_string(),
            field: Some(key.to_string()),
            message: format!("{value} (line {n}): {message}"),
        },
        _ => ClaimError {
            file: name.to_string(),
            field: None,
            message: format!(
                "not valid TOML{}: {message}",
                line.map(|(n, _)| format!(" (line {n})"))
                    .unwrap_or_default()
            ),
        },
    }
}

struct Fields<'a> {
    name: &'a str,
    table: &'a Table,
}

impl Fields<'_> {
    /// Every key is a claim field; a misspelt one gets "did you mean".
    fn known_keys(&self) -> Result<(), ClaimError> {
        let f = self;
        for key in f.table.keys() {
            if !FIELDS.contains(&key.as_str()) {
                let meant = crate::model::nearest(key, FIELDS.iter().copied())
                    .map_or(String::new(), |n| format!("did you mean {n:?}? "));
                return Err(f.err(
                    key,
                    format!("not a claim field; {meant}(known: {})", FIELDS.join(", ")),
                ));
            }
        }
        Ok(())
    }

    /// The grounds named, each once; a last-two-minutes claim needs one.
    fn grounds(&self, kind: ClaimKind) -> Result<Vec<Ground>, ClaimError> {
        let f = self;
        let mut grounds = Vec::new();
        for g in f.str_list("grounds")? {
            let ground = Ground::parse(&g).ok_or_else(|| {
                f.err(
                    "grounds",
                    format!("{g:?} is not a ground (cannot-win-by-normal-means, no-effort)"),
                )
            })?;
            if !grounds.contains(&ground) {
                grounds.push(ground);
            }
        }
        if kind == ClaimKind::DrawLastTwoMinutes && grounds.is_empty() {
            return Err(f.err(
                "grounds",
                "a last-two-minutes claim names its grounds: cannot-win-by-normal-means and/or no-effort"
                    .into(),
            ));
        }
        Ok(grounds)
    }

    /// Which game of a scoresheet file the claim is about: the only one,
    /// or the one its board (the board of `Round "3.4"`) and players name.
    /// A file of several games that the claim does not pick one from is an
    /// error, never a guess.
    fn choose_game(
        &self,
        path: &Path,
        bytes: &[u8],
        board: Option<&str>,
        white: Option<&str>,
        black: Option<&str>,
    ) -> Result<usize, ClaimError> {
        let mut splitter = crate::read::split::Splitter::new(bytes);
        let Ok(Some(batch)) = splitter.next_batch(usize::MAX) else {
            return Ok(0);
        };
        if batch.games.len() < 2 {
            return Ok(0);
        }
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let n = batch.games.len();
        if board.is_none() && white.is_none() && black.is_none() {
            return Err(self.err(
                "scoresheet",
                format!("{name:?} holds {n} games: give the claim's board (or white and black) to say which"),
            ));
        }
        let mut parser = crate::pgn::BatchParser::new(&batch.data);
        let same = |a: &str, b: &str| a.trim().eq_ignore_ascii_case(b.trim());
        let matching: Vec<usize> = batch
            .games
            .iter()
            .enumerate()
            .filter(|(_, span)| {
                let tags = parser.parse(span.start, span.end).tags;
                let on_board = board.is_none_or(|b| b.trim().parse().ok() == tags.round_parts().1);
                // A tag that names nobody (`?`) is no answer: the claim's
                // name stands in for it.
                let fits = |tag: &str, given: Option<&str>| {
                    crate::pgn::tags::given(tag).is_none() || given.is_none_or(|g| same(tag, g))
                };
                on_board && fits(&tags.white, white) && fits(&tags.black, black)
            })
            .map(|(i, _)| i)
            .collect();
        match matching.as_slice() {
            [one] => Ok(*one),
            [] => Err(self.err(
                "scoresheet",
                format!("{name:?} holds {n} games, and none is the claim's (its board and players as the claim gives them)"),
            )),
            more => Err(self.err(
                "scoresheet",
                format!("{name:?} holds {n} games, and {} of them fit the claim's board and players: give white and black to say which", more.len()),
            )),
        }
    }

    /// The moves: a PGN file beside the claim, or written in it.
    fn scoresheet(&self, base: &Path, opts: LoadOptions) -> Result<Scoresheet, ClaimError> {
        let f = self;
        let scoresheet = match (f.str("scoresheet")?, f.str("moves")?) {
            (Some(_), Some(_)) => {
                return Err(f.err(
                    "moves",
                    "give either `scoresheet` (a PGN file) or `moves`, not both".into(),
                ))
            }
            (Some(p), None) => {
                let path = contained(base, &p, opts.allow_outside)
                    .map_err(|m| f.err("scoresheet", format!("{p:?}: {m}")))?;
                // Missing or unreadable, the scoresheet is an error in the
                // claim's papers, never a ruling on them.
                let bytes = read_regular(&path, MAX_GAME_BYTES as u64)
                    .map_err(|m| f.err("scoresheet", format!("{p:?}: {m}")))?;
                let bytes = utf16_as_utf8(bytes);
                if let Some(why) = not_a_scoresheet(&bytes) {
                    return Err(f.err("scoresheet", format!("{p:?}: {why}")));
                }
                Scoresheet::File(path, bytes)
            }
            // Written but empty: no moves to judge, as an empty file.
            (None, Some(m)) if m.trim().is_empty() => {
                return Err(f.err(
                    "moves",
                    "is empty: write the moves (\"1. e4 e5 ...\"), or leave the field out and give `final_fen`".into(),
                ))
            }
            (None, Some(m)) => Scoresheet::Inline(m),
            // The final position alone (BCF RP NA-3 asks no more under
            // ground (a)): a record of no moves from it; a rule that wants
            // the scoresheet finds the record incomplete.
            (None, None) => match f.str("final_fen")? {
                Some(fen) => Scoresheet::Position(fen),
                _ => {
                    return Err(f.err(
                        "scoresheet",
                        "missing: give `scoresheet` (a PGN file beside the claim), `moves`, or at least `final_fen`".into(),
                    ))
                }
            },
        };
        Ok(scoresheet)
    }
    fn err(&self, field: &str, message: String) -> ClaimError {
        ClaimError {
            file: self.name.to_string(),
            field: Some(field.to_string()),
            message,
        }
    }

    fn missing(&self, field: &str) -> ClaimError {
        self.err(field, "missing".into())
    }

    fn str(&self, field: &str) -> Result<Option<String>, ClaimError> {
        match self.table.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(self.err(field, format!("{v} is not a string"))),
        }
    }

    fn required_str(&self, field: &str) -> Result<String, ClaimError> {
        self.str(field)?.ok_or_else(|| self.missing(field))
    }

    fn str_list(&self, field: &str) -> Result<Vec<String>, ClaimError> {
        match self.table.get(field) {
            None => Ok(Vec::new()),
            Some(Value::String(s)) => Ok(vec![s.clone()]),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    v => Err(self.err(field, format!("{v} is not a string"))),
                })
                .collect(),
            Some(v) => Err(self.err(field, format!("{v} is not a list of strings"))),
        }
    }

    fn side(&self, field: &str) -> Result<Option<Side>, ClaimError> {
        self.str(field)?
            .map(|s| self.parse_side(field, &s))
            .transpose()
    }

    fn parse_side(&self, field: &str, s: &str) -> Result<Side, ClaimError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "white" => Ok(Side::White),
            "black" => Ok(Side::Black),
            _ => Err(self.err(field, format!("{s:?} is not white or black"))),
        }
    }

    fn sides(&self, field: &str) -> Result<Vec<Side>, ClaimError> {
        let mut out = Vec::new();
        for s in self.str_list(field)? {
            let side = self.parse_side(field, &s)?;
            if !out.contains(&side) {
                out.push(side);
            }
        }
        Ok(out)
    }

    fn clock(&self, field: &str) -> Result<Option<Clock>, ClaimError> {
        let Some(s) = self.str(field)? else {
            return Ok(None);
        };
        let c = claim_clock(s.trim())
            .ok_or_else(|| self.err(field, format!("{s:?} is not a clock (h:mm:ss or m:ss)")))?;
        // The claim's clocks are read off a stopped clock: "0:00:00" is a fallen flag.
        Ok(Some(Clock {
            tenths: c.tenths,
            precise: c.precise || c.tenths == 0,
        }))
    }

    fn date(&self, field: &str) -> Result<Option<Date>, ClaimError> {
        let text = match self.table.get(field) {
            None => return Ok(None),
            Some(Value::Datetime(d)) => d.to_string(),
            Some(Value::String(s)) => s.clone(),
            Some(v) => return Err(self.err(field, format!("{v} is not a date (YYYY-MM-DD)"))),
        };
        Date::parse(&text)
            .filter(|_| text.trim().len() == 10)
            .map(Some)
            .ok_or_else(|| self.err(field, format!("{text:?} is not a date (YYYY-MM-DD)")))
    }
}

/// A clock as a claim states it: `h:mm:ss` or `m:ss`, the seconds
/// optionally with a fraction (`0:00:03.5`). Stricter than the scoresheet's
/// `%clk` reader: a bare number (`352`, `3.52`) is a mistyped clock, not
/// seconds, and `3:5` could mean 3:05 or 3:50.
fn claim_clock(s: &str) -> Option<Clock> {
    let (whole, fraction) = match s.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (s, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let fields: Vec<&str> = whole.split(':').collect();
    let shaped = matches!(fields.len(), 2 | 3)
        && digits(fields[0])
        && fields[1..].iter().all(|f| f.len() == 2 && digits(f))
        && fraction.is_none_or(digits);
    if !shaped {
        return None;
    }
    parse_duration(s.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Claim, ClaimError> {
        parse_claim("c.toml", "c", text, Path::new("."), LoadOptions::default())
    }

    const OK: &str = r#"
kind = "draw-last-two-minutes"
ruleset = "ecf-quickplay"
grounds = ["cannot-win-by-normal-means"]
claimant = "black"
date = 2009-11-12
received = "2009-11-20"
moves = "1. e4 e5"
clock_white = "0:04:12"
clock_black = "0:01:40"
"#;

    #[test]
    fn a_good_claim_reads() {
        let c = parse(OK).unwrap();
        assert_eq!(c.kind, ClaimKind::DrawLastTwoMinutes);
        assert_eq!(c.claimant, Side::Black);
        assert_eq!(c.clock_black, Some(Clock::secs(100)));
        assert_eq!(
            c.received.unwrap().day_number() - c.date.unwrap().day_number(),
            8
        );
    }

    #[test]
    fn a_claim_clock_is_h_mm_ss_or_m_ss_never_a_bare_number() {
        for (text, want) in [
            ("0:04:12", Some(2520)),
            ("1:05:23", Some(39_230)),
            ("01:05:23", Some(39_230)),
            ("4:12", Some(2520)),
            ("0:00", Some(0)),
            ("0:00:00", Some(0)),
            ("0:00:03.5", Some(35)),
            ("3:52.75", Some(2327)),
        ] {
            assert_eq!(claim_clock(text).map(|c| c.tenths), want, "{text}");
        }
        for text in [
            "3.52",
            "352",
            "3",
            "0.5",
            "3:5",
            "3:5.2",
            "0:4:12",
            "0:04:1",
            "0:60:00",
            "0:04:60",
            "1:2:3:4",
            ":04:12",
            "0:04:",
            "0:04:12.",
            "0:04.5:12",
            "0:04:12.5.1",
            "3.52:00",
            "-0:04:12",
            "0:04:12 ",
            "",
            "h:mm:ss",
        ] {
            assert_eq!(claim_clock(text), None, "{text}");
        }
    }

    #[test]
    fn a_mistyped_clock_is_an_error_naming_the_field_and_value() {
        for bad in ["3.52", "352"] {
            let e = parse(&OK.replace("\"0:04:12\"", &format!("{bad:?}"))).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("c.toml: field `clock_white`: \"{bad}\" is not a clock (h:mm:ss or m:ss)")
            );
        }
    }

    #[test]
    fn bad_fields_are_named_with_their_values() {
        let cases = [
            (
                "claimant = \"black\"",
                "claimant = \"blak\"",
                "claimant",
                "\"blak\"",
            ),
            (
                "clock_black = \"0:01:40\"",
                "clock_black = \"1:4o\"",
                "clock_black",
                "1:4o",
            ),
            (
                "date = 2009-11-12",
                "date = 2009-02-30",
                "date",
                "2009-02-30",
            ),
            (
                "kind = \"draw-last-two-minutes\"",
                "kind = \"draw\"",
                "kind",
                "\"draw\"",
            ),
            (
                "ruleset = \"ecf-quickplay\"",
                "ruleset = \"ecf\"",
                "ruleset",
                "ecf",
            ),
            (
                "grounds = [\"cannot-win-by-normal-means\"]",
                "grounds = [\"luck\"]",
                "grounds",
                "luck",
            ),
            (
                "moves = \"1. e4 e5\"",
                "moves = \"1. e4\"\nfees = 5",
                "fees",
                "not a claim field",
            ),
        ];
        for (from, to, field, value) in cases {
            let text = OK.replace(from, to);
            let e = parse(&text).unwrap_err();
            assert_eq!(e.field.as_deref(), Some(field), "{e}");
            let shown = e.to_string();
            assert!(shown.starts_with("c.toml: field `"), "{shown}");
            assert!(shown.contains(value), "{shown}");
        }
    }

    #[test]
    fn ways_out_of_the_claim_folder_are_refused() {
        let opts = LoadOptions::default();
        assert!(contained(Path::new("x"), "/etc/passwd", opts.allow_outside).is_err());
        assert!(contained(Path::new("x"), "../y.pgn", opts.allow_outside).is_err());
        assert!(contained(Path::new("x"), "a/../../y.pgn", opts.allow_outside).is_err());
        assert!(contained(Path::new("x"), "a/y.pgn", opts.allow_outside).is_ok());
        let open = LoadOptions {
            allow_outside: true,
        };
        assert!(contained(Path::new("x"), "../y.pgn", open.allow_outside).is_ok());
    }

    #[test]
    fn day_numbers_count_days() {
        let d = |s| Date::parse(s).unwrap().day_number();
        assert_eq!(d("1970-01-01"), 0);
        assert_eq!(d("2000-03-01") - d("2000-02-28"), 2);
        assert_eq!(d("2009-11-24") - d("2009-11-12"), 12);
    }
}
