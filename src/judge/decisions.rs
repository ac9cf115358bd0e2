//! Decisions recorded once (`--decisions FILE`): an arbiter's or a league
//! secretary's result for a game the record could not settle, keyed by the
//! game (`GameKey`), applied wherever the game is judged again. A decision
//! whose game's moves have changed, or whose game is not read, is reported
//! and not applied.

use std::{
    collections::HashMap,
    sync::atomic::{AtomicBool, Ordering},
};

use crate::{
    citation::Citation,
    model::{GameKey, GameResult, Judgement, Status, Verdict},
};

/// One decision: the row it is on, and what was decided.
#[derive(Debug)]
pub struct Decision {
    pub row: usize,
    pub key: GameKey,
    pub result: GameResult,
    pub rule: Citation,
    pub by: String,
    pub on: String,
    pub note: String,
}

/// A decisions file, read.
#[derive(Debug)]
pub struct Decisions {
    pub file: String,
    list: Vec<Decision>,
    /// Tags digest -> the decisions for games with those tags.
    by_tags: HashMap<u64, Vec<usize>>,
    /// Each decision was applied.
    met: Vec<AtomicBool>,
    /// A game with a decision's tags was read, with other moves.
    near: Vec<AtomicBool>,
}

/// The columns a decisions file must have; others (event, round, players,
/// for the person who writes it) are read past.
pub const REQUIRED: [&str; 4] = ["game_key", "result", "rule", "decided_by"];

impl Decisions {
    /// Reads a decisions CSV; an error names the file, row and column.
    pub fn parse(file: &str, bytes: &[u8]) -> Result<Decisions, String> {
        let text = crate::read::text::decode(file, bytes.to_vec());
        let mut r = csv::ReaderBuilder::new()
            .flexible(true)
            .delimiter(crate::read::text::delimiter(&text))
            .from_reader(text.as_bytes());
        let header = r.headers().map_err(|e| format!("{file}: {e}"))?.clone();
        let col = |name: &str| header.iter().position(|h| h.trim() == name);
        for name in REQUIRED {
            if col(name).is_none() {
                return Err(format!(
                    "{file}: no {name} column (a decisions file has {}, and may have decided_on and note)",
                    REQUIRED.join(", ")
                ));
            }
        }
        let mut list = Vec::new();
        for (i, rec) in r.records().enumerate() {
            let row = i + 2;
            let rec = rec.map_err(|e| format!("{file} row {row}: {e}"))?;
            let cell = |name: &str| {
                col(name)
                    .and_then(|c| rec.get(c))
                    .unwrap_or("")
                    .trim()
                    .to_string()
            };
            let at = |name: &str, m: String| format!("{file} row {row} column {name}: {m}");
            let key = GameKey::parse(&cell("game_key")).ok_or_else(|| {
                at(
                    "game_key",
                    format!(
                        "{:?} is not a game key (as the results' game_key column writes it)",
                        cell("game_key")
                    ),
                )
            })?;
            let result = match GameResult::parse(&cell("result")) {
                Some(r) if r != GameResult::Unknown => r,
                _ => {
                    return Err(at(
                        "result",
                        format!("{:?} is not 1-0, 0-1 or 1/2-1/2", cell("result")),
                    ))
                }
            };
            let rule = Citation::new(cell("rule")).ok_or_else(|| {
                at(
                    "rule",
                    "empty: a decision names the rule or ground it rests on".into(),
                )
            })?;
            let by = cell("decided_by");
            if by.is_empty() {
                return Err(at(
                    "decided_by",
                    "empty: a decision says who made it".into(),
                ));
            }
            // A date a grader's sheet may have written day first
            // (`05/03/2024`) is not guessed at.
            let on = cell("decided_on");
            let on = match crate::model::Date::parse(&on) {
                _ if on.is_empty() => on,
                Some(d) => d.to_string(),
                None => {
                    return Err(at(
                        "decided_on",
                        format!("{on:?} is not a date (YYYY-MM-DD)"),
                    ))
                }
            };
            list.push(Decision {
                row,
                key,
                result,
                rule,
                by,
                on,
                note: cell("note"),
            });
        }
        let mut by_tags: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, d) in list.iter().enumerate() {
            if let Some(other) = by_tags
                .get(&d.key.tags)
                .and_then(|v| v.iter().find(|&&k| list[k].key == d.key))
            {
                return Err(format!(
                    "{file} row {}: the same game as row {}: one decision a game",
                    d.row, list[*other].row
                ));
            }
            by_tags.entry(d.key.tags).or_default().push(i);
        }
        let met = list.iter().map(|_| AtomicBool::new(false)).collect();
        let near = list.iter().map(|_| AtomicBool::new(false)).collect();
        Ok(Decisions {
            file: file.to_string(),
            list,
            by_tags,
            met,
            near,
        })
    }

    /// The decision for game `key`, applied to its judgement: status
    /// `decided`, the decided result and rule. A decision for a game with
    /// these tags whose moves differ is not applied (`unmet` says so).
    pub(crate) fn apply(&self, key: GameKey, j: &mut Judgement) {
        let Some(candidates) = self.by_tags.get(&key.tags) else {
            return;
        };
        if let Some(&i) = candidates.iter().find(|&&i| self.list[i].key == key) {
            let d = &self.list[i];
            self.met[i].store(true, Ordering::Relaxed);
            let when = if d.on.is_empty() {
                String::new()
            } else {
                format!(" on {}", d.on)
            };
            let note = if d.note.is_empty() {
                String::new()
            } else {
                format!(": {}", d.note)
            };
            j.detail = format!(
                "decided {} by {}{when}{note} ({} row {}); as judged: {} {}, {}",
                d.result.as_str(),
                d.by,
                self.file,
                d.row,
                j.verdict.status.as_str(),
                j.verdict.result.as_str(),
                j.detail
            );
            j.verdict = Verdict::new(d.result, Status::Decided, j.verdict.reason, d.rule.clone());
            return;
        }
        // Same event, round, date and players, other moves: another game
        // of the same pairing, or this one with its record changed since.
        // Said at the end, never applied, and no game's ruling changed.
        for &i in candidates {
            self.near[i].store(true, Ordering::Relaxed);
        }
    }

    /// The decisions not applied, a line each: no game read had the key,
    /// or games with its tags were read with other moves.
    pub fn unmet(&self) -> Vec<String> {
        (0..self.list.len())
            .filter(|&i| !self.met[i].load(Ordering::Relaxed))
            .map(|i| {
                let d = &self.list[i];
                if self.near[i].load(Ordering::Relaxed) {
                    format!(
                        "{} row {}: a game with the event, round, date and players of {} was read, but with other moves (its record changed since, or another game of the pairing): not applied",
                        self.file, d.row, d.key
                    )
                } else {
                    format!(
                        "{} row {}: no game read has the key {} (not applied)",
                        self.file, d.row, d.key
                    )
                }
            })
            .collect()
    }
}

/// A decision to record (a claim's ruling, signed).
#[derive(Debug, Clone)]
pub(crate) struct NewDecision {
    pub(crate) key: GameKey,
    pub(crate) result: GameResult,
    pub(crate) rule: String,
    pub(crate) by: String,
    pub(crate) on: String,
    pub(crate) note: String,
}

/// The columns a new decisions file is written with.
pub(crate) const COLUMNS: [&str; 6] = [
    "game_key",
    "result",
    "rule",
    "decided_by",
    "decided_on",
    "note",
];

/// A decisions file (`existing`, when there is one) with `new` appended in
/// its own column order; a decision for a game the file already has is
/// left out, with why (and a contrary one is a conflict). Returns the new
/// bytes, what was left out, and whether any was a conflict.
pub(crate) fn append(
    file: &str,
    existing: Option<&[u8]>,
    new: &[NewDecision],
) -> Result<(Vec<u8>, Vec<String>, bool), String> {
    // Rows are written as UTF-8: into a file in another encoding they
    // would not read back as written.
    let text = existing
        .map(|b| std::str::from_utf8(b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b)))
        .transpose()
        .map_err(|_| format!(
            "{file}: not saved as UTF-8 (in Excel: \"CSV UTF-8\"): rulings are not recorded into it, since they would not read back as written; save it as CSV UTF-8 and record again"
        ))?;
    let old = existing.map(|b| Decisions::parse(file, b)).transpose()?;
    // The file's own line ends, and its own columns, with the ones a
    // recorded ruling fills added where it lacks them (its rows rewritten
    // with those cells empty): nothing a ruling says is dropped.
    let crlf = existing.is_some_and(|b| memchr::memmem::find(b, b"\r\n").is_some());
    let terminator = if crlf {
        csv::Terminator::CRLF
    } else {
        csv::Terminator::Any(b'\n')
    };
    // And its own separator: a file Excel saved with semicolons.
    let delimiter = text.map_or(b',', crate::read::text::delimiter);
    let mut w = csv::WriterBuilder::new()
        .terminator(terminator)
        .delimiter(delimiter)
        .from_writer(Vec::new());
    let mut out = Vec::new();
    let header: Vec<String> = match (existing, text) {
        (Some(b), Some(text)) => {
            let mut r = csv::ReaderBuilder::new()
                .flexible(true)
                .delimiter(delimiter)
                .from_reader(text.as_bytes());
            let mut header: Vec<String> = r
                .headers()
                .map_err(|e| format!("{file}: {e}"))?
                .iter()
                .map(|h| h.trim().to_string())
                .collect();
            let missing: Vec<&str> = COLUMNS
                .iter()
                .copied()
                .filter(|c| !header.iter().any(|h| h == c))
                .collect();
            if missing.is_empty() {
                out = b.to_vec();
                if !out.is_empty() && !out.ends_with(b"\n") {
                    out.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
                }
            } else {
                let width = header.len();
                header.extend(missing.iter().map(|m| m.to_string()));
                w.write_record(&header).map_err(|e| e.to_string())?;
                for rec in r.records() {
                    let rec = rec.map_err(|e| format!("{file}: {e}"))?;
                    let mut cells: Vec<&str> = rec.iter().collect();
                    cells.resize(width, "");
                    cells.resize(header.len(), "");
                    w.write_record(&cells).map_err(|e| e.to_string())?;
                }
            }
            header
        }
        _ => {
            let header: Vec<String> = COLUMNS.iter().map(|c| c.to_string()).collect();
            w.write_record(&header).map_err(|e| e.to_string())?;
            header
        }
    };
    let mut left_out = Vec::new();
    let mut conflict = false;
    let mut seen: Vec<GameKey> = Vec::new();
    for d in new {
        let before = old
            .as_ref()
            .and_then(|o| o.list.iter().find(|x| x.key == d.key));
        if let Some(x) = before {
            if x.result == d.result {
                left_out.push(format!(
                    "{}: already recorded ({file} row {})",
                    d.key, x.row
                ));
            } else {
                conflict = true;
                left_out.push(format!(
                    "{}: {file} row {} records {} for this game, not {}: not replaced (correct the file by hand)",
                    d.key,
                    x.row,
                    x.result.as_str(),
                    d.result.as_str()
                ));
            }
            continue;
        }
        if seen.contains(&d.key) {
            left_out.push(format!(
                "{}: a second ruling on the same game: not recorded",
                d.key
            ));
            conflict = true;
            continue;
        }
        seen.push(d.key);
        let row: Vec<String> = header
            .iter()
            .map(|h| match h.as_str() {
                "game_key" => d.key.to_string(),
                "result" => d.result.as_str().to_string(),
                "rule" => d.rule.clone(),
                "decided_by" => d.by.clone(),
                "decided_on" => d.on.clone(),
                "note" => d.note.clone(),
                _ => String::new(),
            })
            .collect();
        w.write_record(&row).map_err(|e| e.to_string())?;
    }
    out.extend(w.into_inner().map_err(|e| e.to_string())?);
    Ok((out, left_out, conflict))
}
