//! Every CSV schema the tool writes for games and claims: the results CSV
//! of `arbiter adjudicate` and claims.csv, exactly as PRODUCT.md names them,
//! and the audit's findings. Rows are rendered from finished models.

use crate::{
    audit::Finding,
    claim::{consequence_words, Ruling},
    model::{Clock, Judgement},
    pgn::Tags,
};

pub(crate) const RESULTS_HEADER: [&str; 28] = [
    "source",
    "game",
    "offset",
    "event",
    "site",
    "date",
    "round",
    "white",
    "black",
    "white_elo",
    "black_elo",
    "time_control",
    "recorded_result",
    "result",
    "status",
    "reason",
    "rule",
    "ply",
    "move",
    "white_clock",
    "black_clock",
    "plies",
    "final_fen",
    "detail",
    "ruleset",
    "game_key",
    "round_number",
    "board",
];

/// Where a game came from.
#[derive(Clone, Debug)]
pub(crate) struct GameRef<'a> {
    pub(crate) source: &'a str,
    pub(crate) index: u64,
    pub(crate) offset: u64,
}

/// A number or clock written into a buffer on the stack: a row's six
/// were six allocations per game, then six trips through the formatter.
struct Cell {
    buf: [u8; 20],
    len: usize,
}

impl Cell {
    fn of(text: Option<&[u8]>) -> Cell {
        let mut cell = Cell {
            buf: [0; 20],
            len: 0,
        };
        if let Some(t) = text {
            // A u64 has at most 20 digits, a clock 14 bytes.
            cell.len = t.len().min(20);
            cell.buf[..cell.len].copy_from_slice(&t[..cell.len]);
        }
        cell
    }

    fn number(v: Option<impl itoa::Integer>) -> Cell {
        let mut digits = itoa::Buffer::new();
        Cell::of(v.map(|v| digits.format(v).as_bytes()))
    }

    fn clock(v: Option<Clock>) -> Cell {
        let mut buf = [0; 16];
        Cell::of(v.map(|c| c.ascii(&mut buf)))
    }

    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// A cell from outside text (a player's name, an event) that a
/// spreadsheet would run as a formula (`=HYPERLINK(...)`, `+SUM(A1)`,
/// `@cmd`, `-1+2`): written with a leading apostrophe, as OWASP advises,
/// so that it is shown as text. A number (`-11.8`) and a lone `-` (PGN's
/// "unknown") are left as they are.
pub(crate) fn text_cell(cell: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if formula_like(cell) {
        let mut out = Vec::with_capacity(cell.len() + 1);
        out.push(b'\'');
        out.extend_from_slice(cell);
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(cell)
    }
}

/// A cell a spreadsheet would take for a formula: one starting with `=`,
/// `+`, `@`, a tab or a carriage return, or `-` and anything but a plain
/// number or more dashes (`-11.8`, `--`; `-inf` and `-1+2` are formulas).
fn formula_like(cell: &[u8]) -> bool {
    match cell.first() {
        Some(b'=' | b'+' | b'@' | b'\t' | b'\r') => true,
        Some(b'-') => {
            let rest = &cell[1..];
            let number = rest.iter().all(|b| b.is_ascii_digit() || *b == b'.')
                && rest.iter().any(u8::is_ascii_digit);
            // `--`, a null move: dashes alone carry no formula.
            let dashes = rest.iter().all(|&b| b == b'-');
            !dashes && !number
        }
        _ => false,
    }
}

/// A cell as `text_cell` guarded it, the guard taken off (for a workbook,
/// whose text cells are never formulas).
pub(crate) fn unguarded(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if formula_like(rest.as_bytes()) => rest,
        _ => cell,
    }
}

pub(crate) fn write_header<W: std::io::Write>(w: &mut csv::Writer<W>) -> csv::Result<()> {
    w.write_record(RESULTS_HEADER)
}

pub(crate) fn write_row<W: std::io::Write>(
    w: &mut csv::Writer<W>,
    g: &GameRef<'_>,
    tags: &Tags,
    j: &Judgement,
) -> csv::Result<()> {
    let recorded = tags.recorded_result();
    let (round_number, board) = tags.round_parts();
    w.write_record([
        &text_cell(g.source.as_bytes()),
        Cell::number(Some(g.index)).bytes(),
        Cell::number(Some(g.offset)).bytes(),
        &text_cell(tags.event.as_bytes()),
        &text_cell(tags.site.as_bytes()),
        &text_cell(tags.date.as_bytes()),
        &text_cell(tags.round.as_bytes()),
        &text_cell(tags.white.as_bytes()),
        &text_cell(tags.black.as_bytes()),
        Cell::number(Tags::elo(&tags.white_elo)).bytes(),
        Cell::number(Tags::elo(&tags.black_elo)).bytes(),
        &text_cell(tags.time_control.as_bytes()),
        recorded.as_str().as_bytes(),
        j.verdict.result.as_str().as_bytes(),
        j.verdict.status.as_str().as_bytes(),
        j.verdict.reason.as_str().as_bytes(),
        j.verdict.rule.as_str().as_bytes(),
        Cell::number(j.ply).bytes(),
        // The token as written where it is not a move (`=HYPERLINK(…)`).
        &text_cell(j.mv.as_bytes()),
        Cell::clock(j.white_clock).bytes(),
        Cell::clock(j.black_clock).bytes(),
        Cell::number(Some(j.plies)).bytes(),
        j.final_fen.as_bytes(),
        // It may begin with a source's name.
        &text_cell(j.detail.as_bytes()),
        j.ruleset.as_deref().unwrap_or("").as_bytes(),
        j.key.map(|k| k.to_string()).unwrap_or_default().as_bytes(),
        Cell::number(round_number).bytes(),
        Cell::number(board).bytes(),
    ])
}

pub(crate) const CLAIMS_HEADER: [&str; 12] = [
    "claim",
    "kind",
    "ruleset",
    "claimant",
    "recommendation",
    "result_if_upheld",
    "result_if_rejected",
    "rule",
    "checks_failed",
    "detail",
    "packet",
    "game_key",
];

/// One claims.csv row: results as result columns (`*` when play goes on),
/// and what follows either way, in words, at the end of `detail`. `packet`
/// is the packet's file name, or why it is missing.
pub(crate) fn claims_row(r: &Ruling, packet: &str) -> Vec<String> {
    let mut detail = r.detail.clone();
    for (when, words) in [
        ("if upheld", &r.result_if_upheld),
        ("if rejected", &r.result_if_rejected),
    ] {
        if let Some(w) = consequence_words(words) {
            detail.push_str(&format!("; {when}: {w}"));
        }
    }
    vec![
        r.claim.id.clone(),
        r.claim.kind.as_str().into(),
        r.claim.ruleset.name.clone(),
        r.claim.claimant.name().to_ascii_lowercase(),
        r.recommendation.as_str().into(),
        r.upheld_result().into(),
        r.rejected_result().into(),
        r.rule.to_string(),
        r.failed()
            .iter()
            .map(|id| id.as_str())
            .collect::<Vec<_>>()
            .join(";"),
        detail,
        packet.into(),
        r.evidence.key.map(|k| k.to_string()).unwrap_or_default(),
    ]
}

pub(crate) const FINDINGS_HEADER: [&str; 9] = [
    "source", "game", "date", "round", "white", "black", "finding", "rule", "detail",
];

/// One row of the Active-30 audit's findings.csv.
pub(crate) fn finding_row(f: &Finding) -> [String; 9] {
    [
        f.source.clone(),
        f.game.to_string(),
        f.date.clone(),
        f.round.clone(),
        f.white.clone(),
        f.black.clone(),
        f.finding.to_string(),
        f.rule.clone(),
        f.detail.clone(),
    ]
}
