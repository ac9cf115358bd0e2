//! `arbiter claim <CLAIM>... -o DIR`: judge claim files, write one appeal
//! packet each and `claims.csv`. A claim (or its scoresheet) that cannot be
//! read gets an `error` row saying why, the batch goes on, and the run exits 2.

use std::{
    collections::HashSet,
    panic::{catch_unwind, AssertUnwindSafe},
    path::{Path, PathBuf},
};

use super::ExitStatus;
use crate::{
    analysis::forced::Syzygy,
    claim::{load_claim, LoadOptions},
    judge::claim::judge_claim,
    report::{
        csv::{claims_row, CLAIMS_HEADER},
        json::{claim_json, document, Format},
        packet::{claim_packet, render, Made, Paper},
        review::{self, ReviewItem},
        sheet::{self, Table},
        write::{atomic_write, csv_bytes},
    },
};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Claim files (TOML); a directory takes every `*.toml` in it, sorted.
    #[arg(required = true)]
    pub(crate) claims: Vec<PathBuf>,
    /// Folder for the packets and claims.csv (created if missing).
    #[arg(short, long, default_value = "packets")]
    pub(crate) out: PathBuf,
    /// Syzygy tablebase folder: settles "can the opponent win" exactly for small positions.
    #[arg(long)]
    pub(crate) syzygy: Option<PathBuf>,
    /// Let a claim name a scoresheet or ruleset outside its own folder (absolute, `..`, symlinks).
    #[arg(long)]
    pub(crate) allow_outside: bool,
    /// Exit 1 if any claim is referred (needs a judgement).
    #[arg(long)]
    pub(crate) fail_on_review: bool,
    /// claims.csv (default), claims.json (one array) / claims.ndjson (one object a line) with every check, or claims.xlsx (as --xlsx).
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub(crate) format: Format,
    /// Also write a self-contained HTML review page of the claims (positions, rulings, links to the packets).
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
    /// The packets' paper: a4 or letter (default: each claim's ruleset's, Letter for uscf and hs-league).
    #[arg(long, value_enum)]
    pub(crate) paper: Option<crate::report::packet::Paper>,
    /// claims.xlsx, an Excel workbook, in place of claims.csv.
    #[arg(long, conflicts_with = "excel")]
    pub(crate) xlsx: bool,
    /// claims.csv made for Excel: a UTF-8 byte-order mark, so names like Müller show as written.
    #[arg(long)]
    pub(crate) excel: bool,
    /// No summary on stderr.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Record each upheld or rejected claim's ruling, as signed, in this
    /// decisions file (created, or added to): adjudicate, season and audit
    /// then apply it to the claim's game. Referred claims are not recorded.
    #[arg(long, value_name = "FILE", requires = "decided_by")]
    pub(crate) record_ruling: Option<PathBuf>,
    /// Who signs the rulings recorded (with --record-ruling).
    #[arg(long, value_name = "NAME", requires = "record_ruling")]
    pub(crate) decided_by: Option<String>,
    /// The date of the signature (YYYY-MM-DD; default today).
    #[arg(long, value_name = "DATE", requires = "record_ruling")]
    pub(crate) decided_on: Option<String>,
}

/// A packet's file name from a claim's name: letters, digits, `-` and `_`
/// only, never hidden, never empty, unique in the batch.
pub(crate) fn packet_name(id: &str, taken: &mut HashSet<String>) -> String {
    let s = crate::report::write::safe_stem(id, 100, "claim");
    crate::report::write::unique_name(s, taken)
}

/// Claim files named on the command line, folders expanded (sorted).
fn expand(inputs: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for p in inputs {
        if p.is_dir() {
            match std::fs::read_dir(p) {
                Ok(rd) => {
                    let mut v: Vec<PathBuf> = rd
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|f| f.extension().is_some_and(|x| x == "toml") && f.is_file())
                        .collect();
                    v.sort();
                    if v.is_empty() {
                        errors.push(format!("{}: no *.toml claim files", p.display()));
                    }
                    files.extend(v);
                }
                Err(e) => errors.push(format!("{}: {e}", p.display())),
            }
        } else {
            files.push(p.clone());
        }
    }
    (files, errors)
}

pub(crate) fn run(a: Args) -> ExitStatus {
    let syzygy = match a.syzygy.as_deref().map(Syzygy::open).transpose() {
        Ok(tb) => tb,
        Err(e) => {
            eprintln!("arbiter: --syzygy: {e}");
            return ExitStatus::Error;
        }
    };
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        eprintln!("arbiter: {}: {e}", a.out.display());
        return ExitStatus::Error;
    }
    let (files, mut errors) = expand(&a.claims);
    for e in &errors {
        eprintln!("arbiter: {e}");
    }
    let opts = LoadOptions {
        allow_outside: a.allow_outside,
    };
    // Every claim read first, so that no output is written over a file any
    // of them was read from: claim files, scoresheets, rulesets.
    let loaded: Vec<_> = files.iter().map(|f| (f, load_claim(f, opts))).collect();
    let (names, table_name) = match plan_outputs(&a, &files, &loaded) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitStatus::Error;
        }
    };
    // The decisions file to add to, checked before anything is written.
    if let Err(e) = read_record(&a).and_then(|_| signing_date(&a)) {
        eprintln!("arbiter: --record-ruling: {e}");
        return ExitStatus::Error;
    }
    let mut rows = Vec::new();
    let mut json = Vec::new();
    let mut items = Vec::new();
    let mut rulings = Vec::new();
    let mut counts = [0usize; 3];
    let mut not_judged = 0usize;
    let made = crate::report::packet::Made::now();
    for ((file, loaded), name) in loaded.into_iter().zip(names) {
        let id = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let claim = match loaded {
            Ok(c) => c,
            Err(e) => {
                eprintln!("arbiter: {e}");
                errors.push(e.to_string());
                let mut row = error_row(
                    id,
                    "claim-file",
                    &format!("not judged: the claim cannot be read: {e}"),
                );
                // A claim file that reads as TOML says what it claims, though
                // a paper it names is missing: the row keeps those cells.
                row[1..4].clone_from_slice(&as_written(file));
                rows.push(row);
                not_judged += 1;
                continue;
            }
        };
        let (r, pdf) = match judge_and_render(file, claim, syzygy.as_ref(), (a.paper, made)) {
            Ok(x) => x,
            Err(msg) => {
                eprintln!("arbiter: {msg}");
                errors.push(msg.clone());
                rows.push(error_row(id, "internal-error", &msg));
                not_judged += 1;
                continue;
            }
        };
        let name = name.unwrap_or_default();
        let path = a.out.join(&name);
        let packet = write_packet(&path, &pdf, name, &mut errors);
        counts[match r.recommendation {
            crate::claim::Recommendation::Uphold => 0,
            crate::claim::Recommendation::Reject => 1,
            crate::claim::Recommendation::Refer => 2,
        }] += 1;
        let row = claims_row(&r, &packet);
        if matches!(a.format, Format::Json | Format::Ndjson) {
            json.push(claim_json(&r, &row));
        }
        if let Some(page) = &a.html {
            let written = !packet.starts_with("not written");
            items.push(review_item(
                &r,
                &row,
                written.then(|| super::link_from(page, &path)),
            ));
        }
        rows.push(row);
        if a.record_ruling.is_some() {
            rulings.push((id, signed(&r)));
        }
    }
    let name = table_name;
    let totals = tally(files.len(), counts, not_judged);
    if let Err(e) = write_table_and_page(&a, name, rows, &json, &totals, &items) {
        eprintln!("arbiter: {e}");
        return ExitStatus::Error;
    }
    if !a.quiet {
        eprintln!(
            "arbiter: {}; packets and {name} in {}",
            tally(files.len(), counts, not_judged),
            display(&a.out)
        );
    }
    let mut conflict = false;
    if let Some(file) = &a.record_ruling {
        match record_rulings(&a, file, rulings) {
            Ok(c) => conflict = c,
            Err(e) => {
                eprintln!("arbiter: --record-ruling: {e}");
                return ExitStatus::Error;
            }
        }
    }
    if !errors.is_empty() {
        ExitStatus::Error
    } else if conflict || (a.fail_on_review && counts[2] > 0) {
        ExitStatus::NeedsReview
    } else {
        ExitStatus::Ok
    }
}

/// What a signed ruling settles: the game, its result and the rule; or
/// why there is nothing to record.
type Signed = Result<(crate::model::GameKey, crate::model::GameResult, String), &'static str>;

/// The result a ruling settles, as signed: the claim's game, the result
/// and rule; or why there is nothing to record.
fn signed(r: &crate::claim::Ruling) -> Signed {
    use crate::claim::Recommendation;
    let result = match r.recommendation {
        Recommendation::Uphold => r.upheld_result(),
        Recommendation::Reject => r.rejected_result(),
        Recommendation::Refer => return Err("referred: record the decision once it is made"),
    };
    let result = crate::model::GameResult::parse(result)
        .filter(|r| *r != crate::model::GameResult::Unknown)
        .ok_or("play goes on: no result to record")?;
    let key = r
        .evidence
        .key
        .ok_or("no scoresheet game to record the ruling under")?;
    Ok((key, result, r.rule.to_string()))
}

/// The date the rulings are signed on: `--decided-on`, else today.
fn signing_date(a: &Args) -> Result<String, String> {
    match &a.decided_on {
        Some(d) => crate::model::Date::parse(d)
            .map(|d| d.to_string())
            .ok_or_else(|| format!("--decided-on {d:?} is not a date (YYYY-MM-DD)")),
        None => Ok(crate::model::Date::today().to_string()),
    }
}

/// The decisions file `--record-ruling` adds to, read and checked as a
/// decisions file (`None`: there is none yet, or it is empty).
fn read_record(a: &Args) -> Result<Option<Vec<u8>>, String> {
    let Some(file) = &a.record_ruling else {
        return Ok(None);
    };
    let name = file.display().to_string();
    let bytes = match std::fs::read(file) {
        Ok(b) if b.iter().all(u8::is_ascii_whitespace) => return Ok(None),
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{name}: {e}")),
    };
    crate::judge::decisions::Decisions::parse(&name, &bytes)?;
    Ok(Some(bytes))
}

/// Appends the signed rulings to the decisions file; `true` when one
/// contradicts a decision already there (not replaced).
fn record_rulings(a: &Args, file: &Path, rulings: Vec<(String, Signed)>) -> Result<bool, String> {
    use crate::judge::decisions::{append, NewDecision};
    let on = signing_date(a)?;
    let by = a.decided_by.clone().unwrap_or_default();
    let mut new = Vec::new();
    for (id, s) in rulings {
        match s {
            Ok((key, result, rule)) => new.push(NewDecision {
                key,
                result,
                rule,
                by: by.clone(),
                on: on.clone(),
                note: format!("claim {id}"),
            }),
            Err(why) => eprintln!("arbiter: claim {id}: not recorded: {why}"),
        }
    }
    let name = file.display().to_string();
    let existing = read_record(a)?;
    let (bytes, left_out, conflict) = append(&name, existing.as_deref(), &new)?;
    for l in &left_out {
        eprintln!("arbiter: {name}: {l}");
    }
    let added = new.len() - left_out.len();
    atomic_write(file, &bytes).map_err(|e| format!("{name}: {e}"))?;
    if !a.quiet {
        eprintln!(
            "arbiter: {name}: {} recorded, signed by {by} on {on}",
            crate::claim::plural(added, "ruling")
        );
    }
    Ok(conflict)
}

/// One claim judged and its packet drawn; a panic in either is an
/// internal error naming the file, and the other claims go on.
fn judge_and_render(
    file: &Path,
    claim: crate::claim::Claim,
    syzygy: Option<&Syzygy>,
    (paper, made): (Option<Paper>, Made),
) -> Result<(crate::claim::Ruling, Vec<u8>), String> {
    catch_unwind(AssertUnwindSafe(|| {
        let r = judge_claim(claim, syzygy);
        let mut p = claim_packet(&r);
        if let Some(paper) = paper {
            p.paper = paper;
        }
        let pdf = render(&p, made);
        (r, pdf)
    }))
    .map_err(|_| {
        format!(
            "{}: internal error while judging; please report it",
            file.display()
        )
    })
}

/// The packet written; its name for the row, or why it was not written:
/// the secretary reading claims.csv must see which is missing, not only
/// stderr.
fn write_packet(path: &Path, pdf: &[u8], name: String, errors: &mut Vec<String>) -> String {
    match atomic_write(path, pdf) {
        Ok(()) => name,
        Err(e) => {
            eprintln!("arbiter: {}: {e}", path.display());
            errors.push(e.to_string());
            format!("not written: {e}")
        }
    }
}

/// Each loaded claim's packet name, and the table's name: refused where
/// any output is one of the files the claims were read from.
fn plan_outputs(
    a: &Args,
    files: &[PathBuf],
    loaded: &[(
        &PathBuf,
        Result<crate::claim::Claim, crate::claim::ClaimError>,
    )],
) -> Result<(Vec<Option<String>>, &'static str), String> {
    let mut taken = HashSet::new();
    let names: Vec<Option<String>> = loaded
        .iter()
        .map(|(_, c)| {
            c.as_ref()
                .ok()
                .map(|c| format!("{}.pdf", packet_name(&c.id, &mut taken)))
        })
        .collect();
    if (a.xlsx || a.excel) && !matches!(a.format, Format::Csv | Format::Xlsx) {
        return Err(
            "--xlsx and --excel make claims.csv a spreadsheet: not with --format json or ndjson"
                .into(),
        );
    }
    let table_name = match a.format {
        Format::Xlsx => "claims.xlsx",
        Format::Csv if a.xlsx => "claims.xlsx",
        Format::Csv => "claims.csv",
        Format::Json => "claims.json",
        Format::Ndjson => "claims.ndjson",
    };
    let mut outputs: Vec<PathBuf> = names.iter().flatten().map(|n| a.out.join(n)).collect();
    outputs.push(a.out.join(table_name));
    // The review page is not to land on a packet or the table.
    if let Some(page) = &a.html {
        if let Some(o) = outputs.iter().find(|o| super::same_place(o, page)) {
            return Err(format!(
                "--html {}: that is where {} is written (choose another file)",
                page.display(),
                o.display()
            ));
        }
    }
    outputs.extend(a.html.clone());
    let mut inputs: Vec<PathBuf> = files.to_vec();
    for (_, c) in loaded {
        if let Ok(c) = c {
            inputs.extend(c.inputs.iter().cloned());
        }
    }
    if let Some(record) = &a.record_ruling {
        // Added to, not replaced: never one of the files read or written besides.
        super::refuse_inputs_as_outputs(std::slice::from_ref(record), &inputs)?;
        // The outputs may not exist yet: compared by where they would be.
        if let Some(o) = outputs.iter().find(|o| super::same_place(o, record)) {
            return Err(format!(
                "--record-ruling {}: that is where {} is written (choose another file)",
                record.display(),
                o.display()
            ));
        }
        inputs.push(record.clone());
    }
    super::refuse_inputs_as_outputs(&outputs, &inputs)?;
    Ok((names, table_name))
}

/// claims.csv (or .json, .ndjson) and the review page, when asked.
fn write_table_and_page(
    a: &Args,
    name: &str,
    rows: Vec<Vec<String>>,
    json: &[crate::report::json::ClaimJson],
    totals: &str,
    items: &[ReviewItem],
) -> Result<(), String> {
    let table = a.out.join(name);
    let bytes = match a.format {
        Format::Csv | Format::Xlsx => {
            let sheet = Table::for_path(Some(&table), a.excel);
            sheet::render(sheet, "claims", &csv_bytes(&CLAIMS_HEADER, rows))
                .map_err(|e| format!("{}: {e}", table.display()))?
        }
        Format::Json => document(Format::Json, json),
        Format::Ndjson => document(Format::Ndjson, json),
    };
    atomic_write(&table, &bytes).map_err(|e| format!("{}: {e}", table.display()))?;
    if let Some(page) = &a.html {
        atomic_write(
            page,
            // A claim's recommendation, and its kind: a claim, not a reason.
            review::page_labelled("arbiter claims", totals, items, ["recommendation", "claim"])
                .as_bytes(),
        )
        .map_err(|e| format!("{}: {e}", page.display()))?;
    }
    Ok(())
}

/// The review page's entry for a judged claim.
fn review_item(r: &crate::claim::Ruling, row: &[String], packet: Option<String>) -> ReviewItem {
    let clock = |c: Option<crate::model::Clock>| c.map(|c| c.to_string()).unwrap_or_default();
    ReviewItem {
        title: format!("claim {}: {}", r.claim.id, r.claim.kind.as_str()),
        event: r.evidence.tags.event.clone(),
        date: r.evidence.tags.date.clone(),
        white: r.white.clone(),
        black: r.black.clone(),
        status: r.recommendation.as_str().into(),
        reason: r.claim.kind.as_str().into(),
        recorded: String::new(),
        result: format!(
            "if upheld {}, if rejected {}",
            r.upheld_result(),
            r.rejected_result()
        ),
        rules: r.claim.ruleset.explain(&r.rule),
        detail: row.get(9).cloned().unwrap_or_default(),
        at: format!("claimant: {}", r.claim.claimant.name()),
        white_clock: clock(r.clocks[0]),
        black_clock: clock(r.clocks[1]),
        fen: (!r.fen.is_empty()).then(|| r.fen.clone()),
        last_move: r.evidence.last_move(),
        packet,
        url: review::game_url(&r.evidence.tags.site, &r.evidence.tags.link),
        // The scoresheet's game: a decision on it is what --record-ruling writes.
        game_key: r.evidence.key.map(|k| k.to_string()),
        // A claim is no game's result: nothing to export as a decision.
        ..ReviewItem::default()
    }
}

/// The row of a claim that could not be judged: `error`, saying why (an
/// I/O failure or a broken claim is never a ruling).
/// `kind`, `ruleset` and `claimant` as the claim file writes them; empty
/// where it does not, or cannot be read as TOML.
fn as_written(file: &Path) -> [String; 3] {
    let table: Option<toml::Table> = std::fs::read_to_string(file)
        .ok()
        .and_then(|t| t.parse().ok());
    ["kind", "ruleset", "claimant"].map(|k| {
        table
            .as_ref()
            .and_then(|t| t.get(k))
            .and_then(|v| v.as_str())
            .map(|v| {
                // A cell, not the file: one line, and short.
                let v = crate::model::one_line(v);
                match v.char_indices().nth(60) {
                    Some((at, _)) => format!("{}…", &v[..at]),
                    None => v,
                }
            })
            .unwrap_or_default()
    })
}

fn error_row(id: String, failed: &str, detail: &str) -> Vec<String> {
    let mut row = vec![String::new(); CLAIMS_HEADER.len()];
    row[0] = id;
    row[4] = "error".into();
    row[8] = failed.into();
    row[9] = detail.into();
    row
}

/// "3 claims: 1 uphold, 1 reject, 0 refer", and the claims not judged.
fn tally(files: usize, counts: [usize; 3], not_judged: usize) -> String {
    let mut s = format!(
        "{}: {} uphold, {} reject, {} refer",
        crate::claim::plural(files, "claim"),
        counts[0],
        counts[1],
        counts[2]
    );
    if not_judged > 0 {
        s.push_str(&format!(", {not_judged} not judged (errors)"));
    }
    s
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packet_names_are_safe_and_unique() {
        let mut taken = HashSet::new();
        assert_eq!(packet_name("board3", &mut taken), "board3");
        assert_eq!(packet_name("board3", &mut taken), "board3-2");
        assert_eq!(packet_name("../../etc/x", &mut taken), "etc_x");
        assert_eq!(packet_name("..", &mut taken), "claim");
        // Letters of any script are kept; a name Windows keeps for a
        // device is not given.
        assert_eq!(packet_name("Müller v Ø", &mut taken), "Müller_v_Ø");
        assert_eq!(packet_name("BOARD3", &mut taken), "BOARD3-3");
        assert_eq!(packet_name("nul", &mut taken), "nul_");
        assert_eq!(packet_name("COM1", &mut taken), "COM1_");
        assert_eq!(packet_name("com10", &mut taken), "com10");
        assert_eq!(packet_name("LPT²", &mut taken), "LPT²_");
        // Letters of any script in either case are one name on Windows.
        assert_eq!(packet_name("Ärger", &mut taken), "Ärger");
        assert_eq!(packet_name("ärger", &mut taken), "ärger-2");
        // At most 200 bytes: a file name has 255.
        let long = "語".repeat(100);
        let name = packet_name(&long, &mut taken);
        assert!(
            name.len() <= 200 && name.chars().all(|c| c == '語'),
            "{name}"
        );
    }
}
