//! What `adjudicate` writes for a batch of games: the results in a format,
//! and on request the corrected PGN, the briefs a summary counts and the
//! review page's entries. The pipeline judges; this renders each batch on
//! the workers (`Renderer`) and writes the batches in input order.

use std::io::Write;

use crate::{
    model::{Judgement, Status},
    pipeline::{self, Judged, Options, Render, Summary},
    read::Source,
    report::{
        csv::{write_header, write_row, GameRef},
        json::{self, Format},
        review::ReviewItem,
        summary::Brief,
    },
    rules::Ruleset,
};

/// What `adjudicate_to` writes: the results in a format, and on request the
/// corrected PGN, the briefs a summary counts, the review page's entries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Outputs {
    /// Write the CSV header (a shard after the first leaves it out), and
    /// for `json` the array's brackets.
    pub(crate) header: bool,
    pub(crate) format: Format,
    pub(crate) pgn: bool,
    pub(crate) briefs: bool,
    pub(crate) reviews: bool,
}

impl Default for Outputs {
    fn default() -> Outputs {
        Outputs {
            header: true,
            format: Format::Csv,
            pgn: false,
            briefs: false,
            reviews: false,
        }
    }
}

/// Where `adjudicate_to` sends what it renders, in input order.
pub(crate) struct Sinks<'a> {
    pub(crate) rows: &'a mut dyn Write,
    pub(crate) pgn: Option<&'a mut dyn Write>,
    pub(crate) brief: Option<&'a mut dyn FnMut(Brief)>,
    pub(crate) review: Option<&'a mut dyn FnMut(ReviewItem)>,
}

/// A write error on the corrected PGN, told apart from one on the results
/// so the message names the right file.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct PgnWriteError(pub std::io::Error);

fn pgn_error(e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), PgnWriteError(e))
}

/// Renders each game of a batch into the outputs asked for.
struct Renderer<'a> {
    outputs: Outputs,
    rules: &'a Ruleset,
    packets: super::write::PacketNames,
}

/// A batch's rendered outputs, filled game by game in input order.
struct Rendered {
    csv: csv::Writer<Vec<u8>>,
    json: Vec<u8>,
    pgn: Vec<u8>,
    briefs: Vec<Brief>,
    reviews: Vec<ReviewItem>,
}

impl Rendered {
    /// The results rows, in the asked format.
    fn rows(self, format: Format) -> Vec<u8> {
        match format {
            Format::Csv | Format::Xlsx => self.csv.into_inner().unwrap_or_default(),
            Format::Json | Format::Ndjson => self.json,
        }
    }
}

impl Render for Renderer<'_> {
    type Batch = Rendered;

    fn batch(&self) -> Rendered {
        Rendered {
            csv: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::with_capacity(1 << 16)),
            json: Vec::new(),
            pgn: Vec::new(),
            briefs: Vec::new(),
            reviews: Vec::new(),
        }
    }

    fn game(&self, out: &mut Rendered, g: &Judged<'_>) {
        let r = GameRef {
            source: g.source,
            index: g.index,
            offset: g.offset,
        };
        let (tags, j) = (&g.game.tags, g.judgement);
        match self.outputs.format {
            // Writing into a Vec cannot fail.
            Format::Csv | Format::Xlsx => {
                let _ = write_row(&mut out.csv, &r, tags, j);
            }
            Format::Json | Format::Ndjson => {
                json::push_line(&mut out.json, &json::game_json(&r, tags, j))
            }
        }
        if self.outputs.pgn {
            match g.text {
                Some(t) => {
                    // Ended before any move (a dead set-up position): at
                    // the movetext's start.
                    let end = j.ended_at.and_then(|n| match n.checked_sub(1) {
                        None => Some(crate::pgn::scan::tags_end(t)),
                        Some(i) => g.game.plies.get(i).map(|p| p.token.end as usize),
                    });
                    super::pgn::write_game(&mut out.pgn, t, tags, j, end)
                }
                None => super::pgn::write_placeholder(&mut out.pgn, g.source, j),
            }
        }
        if self.outputs.briefs {
            out.briefs.push(Brief::of(tags, j));
        }
        if self.outputs.reviews && j.verdict.status != Status::Confirmed {
            out.reviews
                .push(review_item(g, j, self.rules, &self.packets));
        }
    }
}

/// The review page's entry for a game not confirmed: its moves, the board
/// at the ply the ruling turns on, its key for a decision, its address.
pub(crate) fn review_item(
    g: &Judged<'_>,
    j: &Judgement,
    rules: &Ruleset,
    packets: &super::write::PacketNames,
) -> ReviewItem {
    let t = &g.game.tags;
    let clock = |c: Option<crate::model::Clock>| c.map(|c| c.to_string()).unwrap_or_default();
    let (moves, at) = super::review::game_moves(g.game, j.plies, j.ply);
    let (fen, last_move) = match at {
        Some((fen, last)) => (Some(fen), last),
        None => ((!j.final_fen.is_empty()).then(|| j.final_fen.clone()), None),
    };
    ReviewItem {
        title: format!("{}, game {}", g.source, g.index),
        event: t.event.clone(),
        date: t.date.clone(),
        white: t.white.clone(),
        black: t.black.clone(),
        status: j.verdict.status.as_str().into(),
        reason: j.verdict.reason.as_str().into(),
        recorded: t.recorded_result().as_str().into(),
        result: j.verdict.result.as_str().into(),
        rules: rules.explain(&j.verdict.rule),
        detail: j.detail.clone(),
        // By move number and side, as the scoresheet names it.
        at: j.numbered.clone(),
        white_clock: clock(j.white_clock),
        black_clock: clock(j.black_clock),
        fen,
        last_move,
        packet: g.packet.then(|| packets.file(g.source, g.index)),
        game_key: j.key.map(|k| k.to_string()),
        url: super::review::game_url(&t.site, &t.link),
        moves: Some(moves),
    }
}

/// Adjudicates every game of every source, writing the results CSV to `out`.
pub fn adjudicate<W: Write>(
    sources: &[Source],
    rules: &Ruleset,
    opts: &Options,
    mut out: W,
) -> std::io::Result<Summary> {
    let mut sinks = Sinks {
        rows: &mut out,
        pgn: None,
        brief: None,
        review: None,
    };
    adjudicate_to(sources, rules, opts, Outputs::default(), &mut sinks)
}

/// `adjudicate` with every output: the results in `outputs.format` to
/// `sinks.rows`, and what else `outputs` asks for to the other sinks.
pub(crate) fn adjudicate_to(
    sources: &[Source],
    rules: &Ruleset,
    opts: &Options,
    outputs: Outputs,
    sinks: &mut Sinks<'_>,
) -> std::io::Result<Summary> {
    let mut array = json::ArrayWriter::default();
    if matches!(outputs.format, Format::Csv | Format::Xlsx) && outputs.header {
        let mut header = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        write_header(&mut header)?;
        sinks
            .rows
            .write_all(&header.into_inner().map_err(|e| e.into_error())?)?;
    }
    let renderer = Renderer {
        outputs,
        rules,
        packets: super::write::PacketNames::new(sources.iter().map(Source::name)),
    };
    let summary = pipeline::drive(sources, rules, opts, &renderer, |mut d| {
        let pgn = std::mem::take(&mut d.pgn);
        let briefs = std::mem::take(&mut d.briefs);
        let reviews = std::mem::take(&mut d.reviews);
        let rows = d.rows(outputs.format);
        match outputs.format {
            Format::Json => array.write(&mut sinks.rows, &rows)?,
            _ => sinks.rows.write_all(&rows)?,
        }
        if let Some(w) = sinks.pgn.as_mut() {
            w.write_all(&pgn).map_err(pgn_error)?;
        }
        if let Some(f) = sinks.brief.as_mut() {
            briefs.into_iter().for_each(f);
        }
        if let Some(f) = sinks.review.as_mut() {
            reviews.into_iter().for_each(f);
        }
        Ok(())
    })?;
    if outputs.format == Format::Json {
        array.finish(&mut sinks.rows)?;
    }
    sinks.rows.flush()?;
    if let Some(w) = sinks.pgn.as_mut() {
        w.flush().map_err(pgn_error)?;
    }
    Ok(summary)
}
