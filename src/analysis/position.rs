//! Positions without games (`arbiter analyse`, `arbiter diagram`): a FEN read
//! leniently, and what the rules say of the position itself: can each side
//! mate, is it dead, and what USCF 14E says if either side's opponent flags.

use shakmaty::{fen::Fen, CastlingMode, Chess};

use super::{
    forced::Syzygy,
    mate::{can_mate, uscf_14e, MateAnswer, Mateability, Uscf14e},
};
use crate::model::Side;

/// Reads a FEN leniently: the clocks (and castling and en passant fields) may be missing.
pub fn parse_position(fen: &str) -> Result<Chess, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err("empty FEN".into());
    }
    let defaults = ["w", "-", "-", "0", "1"];
    let mut full: Vec<&str> = fields.clone();
    for d in defaults.iter().skip(fields.len().saturating_sub(1)) {
        if full.len() >= 6 {
            break;
        }
        full.push(d);
    }
    let text = full.join(" ");
    let parsed: Fen = text.parse().map_err(|e| format!("cannot read FEN: {e}"))?;
    // Composed positions need not be reachable: more than eight pawns' worth
    // of promoted pieces or an odd check still have a helpmate question.
    let e = match parsed.into_position::<Chess>(CastlingMode::Chess960) {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    let e = match e.ignore_invalid_castling_rights() {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    let e = match e.ignore_invalid_ep_square() {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    let e = match e.ignore_too_much_material() {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    e.ignore_impossible_check()
        .map_err(|e| format!("not a legal position: {e}"))
}

/// FENs from a file, each with its 1-based line: one a line, or the first
/// TSV column (`#` lines skipped, a `fen` header allowed).
pub fn read_fens(text: &str) -> Vec<(usize, String)> {
    // Excel's "CSV UTF-8" and "Unicode text" start with a byte-order mark,
    // and may quote the header.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .enumerate()
        // A FEN holds no comma or semicolon: a CSV's first cell (Excel
        // writes `;` where the decimal mark is a comma) is read as a TSV's.
        .map(|(i, l)| {
            let cell = l.split(['\t', ',', ';']).next().unwrap_or("").trim();
            (i + 1, cell.trim_matches('"').trim())
        })
        .filter(|(_, f)| !f.is_empty() && !f.starts_with('#'))
        .enumerate()
        .filter(|(i, (_, f))| !(*i == 0 && f.eq_ignore_ascii_case("fen")))
        .map(|(_, (line, f))| (line, f.to_string()))
        .collect()
}

/// Dead (FIDE 5.2.2): neither side can mate, by the full search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dead {
    Yes,
    No,
    Undetermined,
}

impl Dead {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Dead::Yes => "yes",
            Dead::No => "no",
            Dead::Undetermined => "undetermined",
        }
    }
}

/// What USCF 14E says if a side's opponent flags.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum OnFlag {
    Win,
    Draw,
    Review,
}

impl OnFlag {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            OnFlag::Win => "win-on-flag",
            OnFlag::Draw => "draw-on-flag",
            OnFlag::Review => "review",
        }
    }
}

/// Everything `analyse` says of one position.
#[derive(Clone, Debug)]
pub struct PositionAnalysis {
    pub white: MateAnswer,
    pub black: MateAnswer,
    pub(crate) dead: Dead,
    /// USCF 14E for White (Black flagged) and for Black (White flagged).
    pub(crate) uscf: [OnFlag; 2],
}

pub fn analyse(pos: &Chess, syzygy: Option<&Syzygy>) -> PositionAnalysis {
    let white = can_mate(pos, Side::White);
    let black = can_mate(pos, Side::Black);
    let dead = match (white.verdict, black.verdict) {
        (Mateability::Unwinnable, Mateability::Unwinnable) => Dead::Yes,
        (Mateability::Winnable, _) | (_, Mateability::Winnable) => Dead::No,
        _ => Dead::Undetermined,
    };
    let on_flag = |side: Side| {
        if dead == Dead::Yes {
            return OnFlag::Draw;
        }
        match uscf_14e(pos, side.other(), syzygy) {
            Uscf14e::Win(_) => OnFlag::Win,
            Uscf14e::Draw(..) => OnFlag::Draw,
            Uscf14e::Review(..) => OnFlag::Review,
        }
    };
    let uscf = [on_flag(Side::White), on_flag(Side::Black)];
    PositionAnalysis {
        white,
        black,
        dead,
        uscf,
    }
}
