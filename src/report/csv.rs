//! Every CSV schema the tool writes for games and claims: the results CSV
//! of `arbiter adjudicate` and claims.csv, exactly as PRODUCT.md names them,
//! and the audit's findings. Rows are rendered from finished models.

use crate::{
    audit::Finding,
    claim::{consequence_words, Ruling},
    model::Judgement,
    pgn::Tags,
};

pub const RESULTS_HEADER: [&str; 24] = [
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
];

/// Where a game came from.
#[derive(Clone, Debug)]
pub struct GameRef<'a> {
    pub source: &'a str,
    pub index: u64,
    pub offset: u64,
}

/// A number or clock written into a buffer on the stack: a row's six
/// were six allocations per game.
struct Cell([u8; 24], usize);

impl Cell {
    fn of(v: Option<impl std::fmt::Display>) -> Cell {
        use std::io::Write;
        let mut cell = Cell([0; 24], 0);
        if let Some(v) = v {
            let mut rest = &mut cell.0[..];
            // Nothing written here is longer than a u64 (20 digits).
            if write!(rest, "{v}").is_ok() {
                cell.1 = 24 - rest.len();
            }
        }
        cell
    }

    fn bytes(&self) -> &[u8] {
        &self.0[..self.1]
    }
}

pub fn write_header<W: std::io::Write>(w: &mut csv::Writer<W>) -> csv::Result<()> {
    w.write_record(RESULTS_HEADER)
}

pub fn write_row<W: std::io::Write>(
    w: &mut csv::Writer<W>,
    g: &GameRef<'_>,
    tags: &Tags,
    j: &Judgement,
) -> csv::Result<()> {
    let recorded = tags.recorded_result();
    w.write_record([
        g.source.as_bytes(),
        Cell::of(Some(g.index)).bytes(),
        Cell::of(Some(g.offset)).bytes(),
        tags.event.as_bytes(),
        tags.site.as_bytes(),
        tags.date.as_bytes(),
        tags.round.as_bytes(),
        tags.white.as_bytes(),
        tags.black.as_bytes(),
        tags.white_elo.as_bytes(),
        tags.black_elo.as_bytes(),
        tags.time_control.as_bytes(),
        recorded.as_str().as_bytes(),
        j.verdict.result.as_str().as_bytes(),
        j.verdict.status.as_str().as_bytes(),
        j.verdict.reason.as_str().as_bytes(),
        j.verdict.rule.as_str().as_bytes(),
        Cell::of(j.ply).bytes(),
        j.mv.as_bytes(),
        Cell::of(j.white_clock).bytes(),
        Cell::of(j.black_clock).bytes(),
        Cell::of(Some(j.plies)).bytes(),
        j.final_fen.as_bytes(),
        j.detail.as_bytes(),
    ])
}

pub const CLAIMS_HEADER: [&str; 11] = [
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
];

/// One claims.csv row: results as result columns (`*` when play goes on),
/// and what follows either way, in words, at the end of `detail`. `packet`
/// is the packet's file name, or why it is missing.
pub fn claims_row(r: &Ruling, packet: &str) -> Vec<String> {
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
        r.failed().join(";"),
        detail,
        packet.into(),
    ]
}

pub const FINDINGS_HEADER: [&str; 9] = [
    "source", "game", "date", "round", "white", "black", "finding", "rule", "detail",
];

/// One row of the Active-30 audit's findings.csv.
pub fn finding_row(f: &Finding) -> [String; 9] {
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
