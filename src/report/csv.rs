//! The results CSV of `arbiter adjudicate`, exactly as PRODUCT.md names it.

use crate::{
    pgn::Tags,
    rules::judge::{recorded_result_of, Judgement},
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

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
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
    let recorded = recorded_result_of(tags);
    w.write_record([
        g.source,
        &g.index.to_string(),
        &g.offset.to_string(),
        &tags.event,
        &tags.site,
        &tags.date,
        &tags.round,
        &tags.white,
        &tags.black,
        &tags.white_elo,
        &tags.black_elo,
        &tags.time_control,
        recorded.as_str(),
        j.verdict.result.as_str(),
        j.verdict.status.as_str(),
        j.verdict.reason.as_str(),
        &j.verdict.rule,
        &opt(j.ply),
        &j.mv,
        &opt(j.white_clock),
        &opt(j.black_clock),
        &j.plies.to_string(),
        &j.final_fen,
        &j.detail,
    ])
}
