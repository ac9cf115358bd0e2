//! The results, claims, findings and analyses as JSON: one object per row
//! with typed fields (numbers as numbers, clocks in seconds beside
//! `h:mm:ss`, complete dates in ISO form, citations as a list). `--format
//! ndjson` writes one object a line; `--format json` one array of them.
//! The field names are the CSV's, so a column and a field mean one thing.

use serde::{Deserialize, Serialize};

use super::csv::GameRef;
use crate::{
    model::{Clock, Judgement},
    pgn::Tags,
};

/// The output format a command was asked for.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Comma-separated values with a header (tab-separated for `analyse`).
    #[default]
    Csv,
    /// One JSON array of objects.
    Json,
    /// One JSON object a line.
    Ndjson,
    /// An Excel workbook of the CSV's table (written to the file `-o`
    /// names, or beside the command's other outputs).
    Xlsx,
}

/// One game of the results, as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameJson {
    pub source: String,
    pub game: u64,
    pub offset: u64,
    /// The text tags are null where absent or empty, as the CSV's cells
    /// are empty.
    pub(crate) event: Option<String>,
    pub(crate) site: Option<String>,
    /// `YYYY-MM-DD` when the PGN date is complete; otherwise null.
    pub(crate) date: Option<String>,
    /// The `Date` tag as written (`2009.??.??`).
    pub date_pgn: Option<String>,
    /// The `Round` tag as written (text: `1.10` is not `1.1`).
    pub(crate) round: Option<String>,
    /// The tournament round and board the `Round` tag gives (`1.38`: 1, 38).
    pub(crate) round_number: Option<u32>,
    pub(crate) board: Option<u32>,
    pub white: Option<String>,
    pub(crate) black: Option<String>,
    pub(crate) white_elo: Option<u32>,
    pub(crate) black_elo: Option<u32>,
    pub(crate) time_control: Option<String>,
    pub(crate) recorded_result: String,
    pub result: String,
    pub status: String,
    pub reason: String,
    /// Each citation on its own (`["BCF RP 13", "FIDE 5.1.2"]`).
    pub rule: Vec<String>,
    pub ply: Option<usize>,
    #[serde(rename = "move")]
    pub(crate) mv: Option<String>,
    pub white_clock: Option<String>,
    pub(crate) white_clock_seconds: Option<f64>,
    pub black_clock: Option<String>,
    pub black_clock_seconds: Option<f64>,
    pub plies: usize,
    pub final_fen: String,
    pub detail: String,
    /// The ruleset the game was judged under (null: not judged).
    pub ruleset: Option<String>,
    /// The key a decision on this game is recorded under (null: not read).
    pub game_key: Option<String>,
}

/// A PGN date (`2009.10.08`) as ISO (`2009-10-08`) when it is complete.
pub(crate) fn iso_date(pgn: &str) -> Option<String> {
    let parts: Vec<&str> = pgn.trim().split(['.', '-', '/']).collect();
    let [y, m, d] = parts.as_slice() else {
        return None;
    };
    let digits = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| b.is_ascii_digit());
    if !(digits(y, 4) && digits(m, 2) && digits(d, 2)) {
        return None;
    }
    let iso = format!("{y}-{m}-{d}");
    crate::model::Date::parse(&iso).map(|_| iso)
}

fn seconds(c: Option<Clock>) -> Option<f64> {
    c.map(|c| f64::from(c.tenths) / 10.0)
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

pub(crate) fn game_json(g: &GameRef<'_>, tags: &Tags, j: &Judgement) -> GameJson {
    let (round_number, board) = tags.round_parts();
    GameJson {
        source: g.source.to_string(),
        game: g.index,
        offset: g.offset,
        event: non_empty(&tags.event),
        site: non_empty(&tags.site),
        date: iso_date(&tags.date),
        date_pgn: non_empty(&tags.date),
        round: non_empty(&tags.round),
        round_number,
        board,
        white: non_empty(&tags.white),
        black: non_empty(&tags.black),
        white_elo: Tags::elo(&tags.white_elo),
        black_elo: Tags::elo(&tags.black_elo),
        time_control: non_empty(&tags.time_control),
        recorded_result: tags.recorded_result().as_str().to_string(),
        result: j.verdict.result.as_str().to_string(),
        status: j.verdict.status.as_str().to_string(),
        reason: j.verdict.reason.as_str().to_string(),
        rule: j.verdict.rule.parts().map(str::to_string).collect(),
        ply: j.ply,
        mv: non_empty(&j.mv),
        white_clock: j.white_clock.map(|c| c.to_string()),
        white_clock_seconds: seconds(j.white_clock),
        black_clock: j.black_clock.map(|c| c.to_string()),
        black_clock_seconds: seconds(j.black_clock),
        plies: j.plies,
        final_fen: j.final_fen.clone(),
        detail: j.detail.clone(),
        ruleset: j.ruleset.as_deref().map(str::to_string),
        game_key: j.key.map(|k| k.to_string()),
    }
}

/// One claim's check, as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckJson {
    pub(crate) name: String,
    /// `pass`, `fail`, `n/a` or `unknown`.
    pub outcome: String,
    pub(crate) rule: Vec<String>,
    pub(crate) detail: String,
}

/// One claim of claims.csv, as JSON, with every check beside the verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimJson {
    pub claim: String,
    pub kind: String,
    pub(crate) ruleset: String,
    pub(crate) claimant: String,
    pub recommendation: String,
    pub result_if_upheld: String,
    pub(crate) result_if_rejected: String,
    pub rule: Vec<String>,
    pub(crate) checks_failed: Vec<String>,
    pub(crate) detail: String,
    /// The packet's file name, or why it is missing (as the CSV's column).
    pub packet: String,
    pub(crate) white_clock: Option<String>,
    pub white_clock_seconds: Option<f64>,
    pub(crate) black_clock: Option<String>,
    pub(crate) black_clock_seconds: Option<f64>,
    pub(crate) final_fen: String,
    /// The mating line a "can mate" check rests on ("White can mate, for
    /// example 61. ..."), as the packet prints it; null where none was asked.
    pub mate_line: Option<String>,
    pub checks: Vec<CheckJson>,
}

/// The claims.csv row (`super::csv::claims_row`) with types and the checks.
pub(crate) fn claim_json(r: &crate::claim::Ruling, row: &[String]) -> ClaimJson {
    let cell = |i: usize| row.get(i).cloned().unwrap_or_default();
    let list = |s: String| -> Vec<String> {
        s.split(';')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect()
    };
    ClaimJson {
        claim: cell(0),
        kind: cell(1),
        ruleset: cell(2),
        claimant: cell(3),
        recommendation: cell(4),
        result_if_upheld: cell(5),
        result_if_rejected: cell(6),
        rule: list(cell(7)),
        checks_failed: list(cell(8)),
        detail: cell(9),
        packet: cell(10),
        white_clock: r.clocks[0].map(|c| c.to_string()),
        white_clock_seconds: seconds(r.clocks[0]),
        black_clock: r.clocks[1].map(|c| c.to_string()),
        black_clock_seconds: seconds(r.clocks[1]),
        final_fen: r.fen.clone(),
        mate_line: r.mate_line.clone(),
        checks: r
            .checks
            .iter()
            .map(|c| CheckJson {
                name: c.id.as_str().to_string(),
                outcome: c.outcome.as_str().to_string(),
                rule: c.rule.parts().map(str::to_string).collect(),
                detail: c.detail.clone(),
            })
            .collect(),
    }
}

/// One finding of the Active-30 audit, as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingJson {
    pub(crate) source: String,
    pub(crate) game: u64,
    /// `YYYY-MM-DD` when the PGN date is complete; otherwise null.
    pub date: Option<String>,
    pub(crate) date_pgn: Option<String>,
    pub(crate) round: Option<String>,
    pub(crate) white: Option<String>,
    pub(crate) black: Option<String>,
    pub finding: String,
    pub rule: Vec<String>,
    pub(crate) detail: String,
}

pub(crate) fn finding_json(f: &crate::audit::Finding) -> FindingJson {
    FindingJson {
        source: f.source.clone(),
        game: f.game,
        date: iso_date(&f.date),
        date_pgn: non_empty(&f.date),
        round: non_empty(&f.round),
        white: non_empty(&f.white),
        black: non_empty(&f.black),
        finding: f.finding.to_string(),
        rule: f
            .rule
            .split(';')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect(),
        detail: f.detail.clone(),
    }
}

/// A row of a CSV document with its header, as a JSON object of strings
/// (numbers where a column is numeric), for the schemas that are flat.
pub(crate) fn record_json(header: &[&str], row: &[String], numeric: &[&str]) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (k, v) in header.iter().zip(row) {
        let value = if numeric.contains(k) {
            v.parse::<u64>()
                .map(serde_json::Value::from)
                .unwrap_or(serde_json::Value::Null)
        } else {
            serde_json::Value::from(v.as_str())
        };
        m.insert((*k).to_string(), value);
    }
    serde_json::Value::Object(m)
}

/// Appends one object and a newline (ndjson); a JSON string never holds a
/// raw newline, so the lines are the objects.
pub(crate) fn push_line<T: Serialize>(out: &mut Vec<u8>, value: &T) {
    // Serialising plain structs of strings and numbers into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, value);
    out.push(b'\n');
}

/// Turns ndjson lines into the body of a JSON array as they stream past:
/// `[` before the first object, `,` between, and `]` at `finish`.
#[derive(Default)]
pub(crate) struct ArrayWriter {
    started: bool,
}

impl ArrayWriter {
    pub(crate) fn write<W: std::io::Write>(
        &mut self,
        w: &mut W,
        ndjson: &[u8],
    ) -> std::io::Result<()> {
        for line in ndjson.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            w.write_all(if self.started { b",\n" } else { b"[\n" })?;
            self.started = true;
            w.write_all(line)?;
        }
        Ok(())
    }

    pub(crate) fn finish<W: std::io::Write>(self, w: &mut W) -> std::io::Result<()> {
        w.write_all(if self.started { b"\n]\n" } else { b"[]\n" })
    }
}

/// A whole document of `rows` in `format` (json or ndjson).
pub(crate) fn document<T: Serialize>(format: Format, rows: &[T]) -> Vec<u8> {
    let mut lines = Vec::new();
    for r in rows {
        push_line(&mut lines, r);
    }
    if format == Format::Ndjson {
        return lines;
    }
    let mut out = Vec::new();
    let mut array = ArrayWriter::default();
    // Writing into a Vec cannot fail.
    let _ = array.write(&mut out, &lines);
    let _ = array.finish(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_dates_only_become_iso() {
        assert_eq!(iso_date("2009.10.08").as_deref(), Some("2009-10-08"));
        assert_eq!(iso_date("2009.??.??"), None);
        assert_eq!(iso_date("2009.02.30"), None);
        assert_eq!(iso_date(""), None);
    }

    #[test]
    fn arrays_are_valid_json_however_the_lines_arrive() {
        let mut out = Vec::new();
        let mut a = ArrayWriter::default();
        a.write(&mut out, b"{\"a\":1}\n{\"a\":2}\n").unwrap();
        a.write(&mut out, b"").unwrap();
        a.write(&mut out, b"{\"a\":3}\n").unwrap();
        a.finish(&mut out).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v, serde_json::json!([{"a":1},{"a":2},{"a":3}]));
        let mut empty = Vec::new();
        ArrayWriter::default().finish(&mut empty).unwrap();
        assert_eq!(empty, b"[]\n");
    }
}
