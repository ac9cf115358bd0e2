//! `arbiter adjudicate`: arguments → validated config → the pipeline.

use std::{
    io::IsTerminal,
    panic::{catch_unwind, AssertUnwindSafe},
    path::{Path, PathBuf},
};

use super::ExitStatus;
use crate::report::{
    json::Format,
    sheet::{self, Table},
};
use crate::{
    pipeline,
    report::{
        batch, packet,
        write::{atomic_write, PacketNames, Pending},
    },
    report::{
        review::{self, ReviewItem},
        summary::{summary_csv, Brief, SummaryTables},
    },
    rules::Ruleset,
};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each game gets one row, status confirmed, corrected, review or unreadable \
(docs/adjudicate.md lists the columns and reasons).\n\
Exit status: 0 every input was read (whatever the games' statuses); 1 with --fail-on-review, a game \
corrected, review or unreadable, or a file read empty; 2 a usage error, or an input or output that \
could not be read or written (the other inputs are still judged)."
)]
pub(crate) struct Args {
    /// PGN files (.pgn, .pgn.zst, .pgn.gz, .pgn.bz2, .pgn.txt), directories (read recursively, sorted), or - for stdin.
    #[arg(required = true)]
    pub(crate) inputs: Vec<String>,
    /// A built-in ruleset (see `arbiter rules`) or a ruleset TOML file: the rules for every game a rules map does not name.
    #[arg(short, long, default_value = "fide-rapid")]
    pub(crate) rules: String,
    /// Which ruleset judges which game: file globs, Event patterns and time controls to rulesets (docs/rulesets.md). Default: a rules-map.toml in an input folder.
    #[arg(long, value_name = "FILE")]
    pub(crate) rules_map: Option<PathBuf>,
    /// Judge every game under -r alone, even where an input folder has a rules-map.toml.
    #[arg(long, conflicts_with = "rules_map")]
    pub(crate) no_rules_map: bool,
    /// A game whose TimeControl is not one its ruleset is for goes to review (reason ruleset-mismatch), instead of a note in detail.
    #[arg(long)]
    pub(crate) strict_rules: bool,
    /// Recorded decisions (CSV: game_key, result, rule, decided_by, decided_on, note): each decided game's status is decided, with the decision's result and rule (docs/adjudicate.md).
    #[arg(long, value_name = "FILE")]
    pub(crate) decisions: Option<PathBuf>,
    /// Results CSV (default: stdout); a name ending .xlsx writes an Excel workbook instead (dates as dates, clocks as durations).
    #[arg(short, long)]
    pub(crate) out: Option<PathBuf>,
    /// CSV made for Excel: a UTF-8 byte-order mark (so that Excel shows Müller, not MÃ¼ller) and dates in ISO form, for the results and the summary.
    #[arg(long)]
    pub(crate) excel: bool,
    /// Worker threads (default: all cores).
    #[arg(short, long)]
    pub(crate) jobs: Option<usize>,
    /// Judge every copy of a game read twice (the same tags and moves), instead of the first only; keeps no index of the games read.
    #[arg(long)]
    pub(crate) keep_duplicates: bool,
    /// Exit 1 if any game is corrected, review or unreadable, or a file given holds nothing.
    #[arg(long)]
    pub(crate) fail_on_review: bool,
    /// Syzygy tablebase folder: settles USCF 14E's "forced win" exactly where it reaches.
    #[arg(long)]
    pub(crate) syzygy: Option<PathBuf>,
    /// Write a PDF packet (diagram, scoresheet, clock chart, verdict) into this folder for every game not confirmed.
    #[arg(long, value_name = "DIR")]
    pub(crate) packets: Option<PathBuf>,
    /// The packets' paper: a4 or letter (default: each game's ruleset's, Letter for uscf and hs-league).
    #[arg(long, value_enum)]
    pub(crate) paper: Option<crate::report::packet::Paper>,
    /// Results format: csv (default), json (one array), ndjson (one object a line) or xlsx (an Excel workbook, into -o FILE).
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub(crate) format: Format,
    /// Write every game again, with Result set to the adjudicated result where corrected, `*` where under review, and tags saying why.
    #[arg(long, value_name = "FILE")]
    pub(crate) pgn_out: Option<PathBuf>,
    /// Write a summary CSV: per event, games by status and reason; per player, games corrected for or against them.
    #[arg(long, value_name = "FILE")]
    pub(crate) summary: Option<PathBuf>,
    /// Write a self-contained HTML review page of the games not confirmed (boards, clocks, rulings, filters).
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
    /// Judge only the K-th of N equal byte ranges of the inputs (e.g. 3/8), for running one command per machine: the N outputs concatenated in order are one run's output (the header is written by shard 1 only).
    #[arg(long, value_name = "K/N", value_parser = pipeline::Shard::parse)]
    pub(crate) shard: Option<pipeline::Shard>,
    /// No progress bar and no summary.
    #[arg(short, long)]
    pub(crate) quiet: bool,
}

pub(crate) fn run(a: Args) -> ExitStatus {
    let rules = match Ruleset::load(&a.rules) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("arbiter: --rules: {e}");
            return ExitStatus::Error;
        }
    };
    let super::Inputs {
        sources,
        mut errors,
        mut opts,
        skipped,
    } = match super::inputs_and_options(&a.inputs, a.jobs, a.decisions.as_deref()) {
        Ok(x) => x,
        Err(o) => return o,
    };
    let bar = progress(&a, &sources, &mut opts);
    let all_sources = sources.clone();
    let sources = match rules_map(&a, sources, &skipped, &mut opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitStatus::Error;
        }
    };
    // An empty file holds no game and so gets no row: said, so that a file
    // saved empty by mistake is not taken for a clean one.
    let mut empty_files = 0;
    for s in &sources {
        if let crate::read::Source::File { path, name } = s {
            if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0) {
                eprintln!("arbiter: {name}: the file is empty: no games read from it");
                empty_files += 1;
            }
        }
    }
    // After the rules map: each packet is drawn under its game's ruleset.
    if let Err(e) = syzygy_and_packets(&a, &rules, (&all_sources, &sources), &mut opts) {
        return e;
    }
    opts.strict_rules = a.strict_rules;
    opts.duplicates = !a.keep_duplicates;
    let [out, pgn_path, summary_path, html_path] = match output_paths(&a, &sources) {
        Ok(p) => p,
        Err(e) => return e,
    };
    if let Err(e) = super::refuse_decisions_as_output(
        &[&out, &pgn_path, &summary_path, &html_path],
        a.decisions.as_deref(),
    ) {
        return e;
    }
    if a.shard.is_some() && a.format == Format::Json {
        eprintln!("arbiter: --shard with --format json would give N arrays: use --format ndjson, whose shards concatenate");
        return ExitStatus::Error;
    }
    let table = match spreadsheet(&a, out.as_deref()) {
        Ok(t) => t,
        Err(e) => return e,
    };
    // A workbook, or CSV for Excel, is made from the CSV once it is whole.
    let mut spool = match (table != Table::Csv).then(tempfile::tempfile).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("arbiter: a temporary file for the spreadsheet: {e}");
            return ExitStatus::Error;
        }
    };
    opts.shard = a.shard;
    let outputs = batch::Outputs {
        header: a.shard.is_none_or(|s| s.k == 1),
        format: a.format,
        pgn: pgn_path.is_some(),
        briefs: summary_path.is_some(),
        reviews: html_path.is_some(),
    };
    let (Ok(mut pending_rows), Ok(mut pending_pgn)) = (pending(&out), pending(&pgn_path)) else {
        return ExitStatus::Error;
    };
    let mut tables = SummaryTables::default();
    // The review page's sections go to a temporary file as they come.
    let mut page = match html_path
        .as_ref()
        .map(|_| review::PageWriter::spooled())
        .transpose()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("arbiter: --html: a temporary file: {e}");
            return ExitStatus::Error;
        }
    };
    let mut page_error = None;
    let result = {
        let stdout = std::io::stdout();
        let mut rows: Box<dyn std::io::Write> = match (spool.as_mut(), pending_rows.as_mut()) {
            (Some(s), _) => Box::new(std::io::BufWriter::new(s)),
            (None, Some(p)) => Box::new(std::io::BufWriter::new(p.file())),
            (None, None) => Box::new(std::io::BufWriter::with_capacity(1 << 16, stdout.lock())),
        };
        let mut pgn = pending_pgn
            .as_mut()
            .map(|p| std::io::BufWriter::new(p.file()));
        let mut brief = |b: Brief| tables.add(&b);
        let mut review = |mut r: ReviewItem| {
            if let (Some(name), Some(dir), Some(path)) = (&r.packet, &a.packets, &html_path) {
                r.packet = Some(super::link_from(path, &dir.join(name)));
            }
            if let Some(Err(e)) = page.as_mut().map(|w| w.add(&r)) {
                page_error.get_or_insert(e);
            }
        };
        let mut sinks = batch::Sinks {
            rows: &mut rows,
            pgn: pgn.as_mut().map(|w| w as &mut dyn std::io::Write),
            brief: summary_path
                .is_some()
                .then_some(&mut brief as &mut dyn FnMut(Brief)),
            review: html_path
                .is_some()
                .then_some(&mut review as &mut dyn FnMut(ReviewItem)),
        };
        batch::adjudicate_to(&sources, &rules, &opts, outputs, &mut sinks)
            .map_err(|e| (writing_target(&e, &out, &pgn_path), e))
    };
    let result = result.and_then(|s| {
        if let Some(spool) = spool.take() {
            let target = out
                .as_deref()
                .map_or("stdout".into(), |p| p.display().to_string());
            let file = pending_rows.as_mut().map(|p| p.file());
            from_spool(table, spool, file).map_err(|e| (target, e))?;
        }
        for (p, path) in [(pending_rows, &out), (pending_pgn, &pgn_path)] {
            if let (Some(p), Some(path)) = (p, path) {
                p.commit().map_err(|e| (path.display().to_string(), e))?;
            }
        }
        Ok(s)
    });
    if let Some((pb, _)) = bar {
        pb.finish_and_clear();
    }
    let summary = match result {
        Ok(s) => s,
        Err((_, e)) if super::is_broken_pipe(&e) => return ExitStatus::Ok,
        Err((target, e)) => {
            eprintln!("arbiter: {target}: {e}");
            return ExitStatus::Error;
        }
    };
    for line in opts.rules_map.iter().flat_map(|m| m.unmatched()) {
        eprintln!("arbiter: {line}");
    }
    let under = match &opts.rules_map {
        Some(m) => format!(
            "the rulesets {} names ({} for the rest)",
            m.file.display(),
            rules.name
        ),
        None => rules.name.clone(),
    };
    let totals = format!("{} under {under}", summary.counts());
    // The page's title names what judged the games: one ruleset, or a map.
    let title = match &opts.rules_map {
        Some(m) => format!(
            "arbiter review: rulesets by {}",
            m.file.file_name().map_or_else(
                || m.file.display().to_string(),
                |n| n.to_string_lossy().into_owned()
            )
        ),
        None => format!("arbiter review: {}", rules.name),
    };
    let page = html_path.as_deref().zip(page);
    if let Err(e) = write_tables_and_page(
        summary_path.as_deref().map(|p| (p, a.excel)),
        &tables,
        page,
        page_error,
        &title,
        &totals,
    ) {
        return e;
    }
    for e in &summary.errors {
        eprintln!("arbiter: {e}");
    }
    if let Some(d) = &opts.decisions {
        for line in d.unmet() {
            eprintln!("arbiter: {line}");
        }
    }
    errors.extend(summary.errors.iter().cloned());
    if !a.quiet {
        // What was not read is counted beside what was, so that the last
        // line a grader reads does not look like the whole batch.
        let unread = match errors.len() {
            0 => String::new(),
            n => format!(
                "; {} reading the input, said above: the results lack what could not be read",
                crate::claim::plural(n, "error")
            ),
        };
        eprintln!("arbiter: {} under {under}{unread}", summary.line());
    }
    if !errors.is_empty() {
        ExitStatus::Error
    } else if a.fail_on_review && (summary.needs_attention() || empty_files > 0) {
        ExitStatus::NeedsReview
    } else {
        ExitStatus::Ok
    }
}

/// The results as a spreadsheet, where `-o` names a workbook (`.xlsx`) or
/// `--excel` asks for CSV made for Excel; `Err` said on stderr where the
/// rest of the command line does not allow it.
fn spreadsheet(a: &Args, out: Option<&Path>) -> Result<Table, ExitStatus> {
    // `--format xlsx` asks for what a name ending .xlsx gives.
    let table = Table::for_path(out, a.excel);
    // A workbook name arbiter does not write (`.xls`, `.ods`): CSV text
    // under it would open with a warning, or not at all.
    let other_book = out
        .and_then(|p| p.extension())
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .filter(|e| ["xls", "xlsm", "xlsb", "ods"].contains(&e.as_str()));
    let refused = match table {
        _ if other_book.is_some() => Some(format!(
            "-o names a .{} workbook: arbiter writes .xlsx workbooks (which Excel and LibreOffice open) or CSV: name it .xlsx or .csv",
            other_book.unwrap_or_default()
        )),
        _ if a.format == Format::Xlsx && table != Table::Xlsx => {
            Some("--format xlsx writes a workbook: name it with -o FILE.xlsx".into())
        }
        Table::Csv => None,
        _ if !matches!(a.format, Format::Csv | Format::Xlsx) => Some(format!(
            "a spreadsheet is made of the CSV results, not --format {}",
            clap::ValueEnum::to_possible_value(&a.format)
                .map_or_else(String::new, |v| v.get_name().to_string())
        )),
        _ if a.shard.is_some() => Some(
            "--shard writes parts to be joined: make the spreadsheet from the joined CSV".into(),
        ),
        _ => None,
    };
    match refused {
        Some(why) => {
            eprintln!("arbiter: {why}");
            Err(ExitStatus::Error)
        }
        None => Ok(table),
    }
}

/// The spooled CSV results made into `table`, into the results file (or
/// the screen, for CSV made for Excel).
fn from_spool(
    table: Table,
    mut spool: std::fs::File,
    file: Option<&mut std::fs::File>,
) -> std::io::Result<()> {
    use std::io::Seek;
    spool.seek(std::io::SeekFrom::Start(0))?;
    let csv = std::io::BufReader::new(spool);
    match (table, file) {
        (Table::Xlsx, Some(f)) => sheet::xlsx(vec![("results", csv)], std::io::BufWriter::new(f)),
        (Table::Excel, Some(f)) => sheet::excel_csv(csv, f),
        (_, None) => sheet::excel_csv(csv, std::io::stdout().lock()),
        (Table::Csv, Some(f)) => std::io::copy(&mut { csv }, f).map(|_| ()),
    }
}

/// The summary CSV and the review page, once the run is done.
fn write_tables_and_page(
    summary_path: Option<(&Path, bool)>,
    tables: &SummaryTables,
    page: Option<(&Path, review::PageWriter)>,
    page_error: Option<std::io::Error>,
    title: &str,
    totals: &str,
) -> Result<(), ExitStatus> {
    if let Some((path, excel)) = summary_path {
        let table = Table::for_path(Some(path), excel);
        let written = sheet::render(table, "summary", &summary_csv(tables))
            .and_then(|bytes| atomic_write(path, &bytes));
        if let Err(e) = written {
            eprintln!("arbiter: {}: {e}", path.display());
            return Err(ExitStatus::Error);
        }
    }
    if let Some((path, page)) = page {
        let written = match page_error {
            Some(e) => Err(e),
            None => write_page(path, page, title, totals),
        };
        if let Err(e) = written {
            eprintln!("arbiter: {}: {e}", path.display());
            return Err(ExitStatus::Error);
        }
    }
    Ok(())
}

/// The progress bar, on a terminal only, fed by the pipeline's summaries;
/// with whether the inputs' size is known (a bar, or a count).
fn progress(
    a: &Args,
    sources: &[crate::read::Source],
    opts: &mut pipeline::Options,
) -> Option<(indicatif::ProgressBar, bool)> {
    // Nor where the rows go to the same screen: the bar's redraws would
    // wipe the lines written under it.
    let to_screen = a.out.as_deref().is_none_or(|p| p == Path::new("-"));
    let rows_on_screen = to_screen && std::io::stdout().is_terminal();
    if a.quiet || !std::io::stderr().is_terminal() || rows_on_screen {
        return None;
    }
    let size = super::known_size(sources);
    let (pb, sized, started) = (
        super::progress_bar(size),
        size.is_some(),
        std::time::Instant::now(),
    );
    let bar = pb.clone();
    opts.on_progress = Some(std::sync::Arc::new(move |s: &pipeline::Summary| {
        if sized {
            bar.set_position(s.bytes);
        }
        bar.set_message(super::progress_message(s, started.elapsed(), sized));
    }));
    Some((pb, sized))
}

/// A file written beside `path` and renamed when complete, so that an
/// interrupted run never leaves a truncated file that looks finished
/// (`Err` said on stderr).
fn pending(path: &Option<PathBuf>) -> Result<Option<Pending>, ()> {
    path.as_ref()
        .map(|path| {
            Pending::create(path).map_err(|e| eprintln!("arbiter: {}: {e}", path.display()))
        })
        .transpose()
}

/// The rules map: `--rules-map`, else a `rules-map.toml` in the folder of
/// the inputs (one map for all of them); the sources it says hold no games
/// to judge are left out, and said.
/// The rules map in force (`--rules-map`, or one beside the inputs), and
/// the sources it does not ignore. The files skipped as not PGN are said
/// here, less the map and what it ignores.
fn rules_map(
    a: &Args,
    sources: Vec<crate::read::Source>,
    skipped: &[crate::read::Skipped],
    opts: &mut pipeline::Options,
) -> Result<Vec<crate::read::Source>, String> {
    use crate::rules::map::{RulesMap, MAP_FILE};
    let file = match &a.rules_map {
        Some(f) => Some(f.clone()),
        None if a.no_rules_map => None,
        None => {
            let mut found: Vec<PathBuf> = a
                .inputs
                .iter()
                .filter_map(|i| {
                    let p = Path::new(i);
                    let dir = if p.is_dir() { p } else { p.parent()? };
                    let map = dir.join(MAP_FILE);
                    map.is_file().then_some(map)
                })
                .collect();
            found.sort();
            found.dedup();
            match found.as_slice() {
                [] => None,
                [one] => Some(one.clone()),
                more => {
                    let names: Vec<String> = more.iter().map(|m| m.display().to_string()).collect();
                    return Err(format!(
                        "the inputs' folders hold {} rules maps ({}): give one with --rules-map, or --no-rules-map",
                        more.len(),
                        names.join(", ")
                    ));
                }
            }
        }
    };
    let say_skipped = |shown: &dyn Fn(&Path) -> bool| {
        for line in skipped.iter().filter_map(|s| s.line(shown)) {
            eprintln!("arbiter: {line}");
        }
    };
    let Some(file) = file else {
        say_skipped(&|_| true);
        return Ok(sources);
    };
    let map = RulesMap::load(&file)?;
    let same = |p: &Path| std::fs::canonicalize(p).ok() == std::fs::canonicalize(&file).ok();
    say_skipped(&|p| !map.ignores(p) && !same(p));
    if !a.quiet {
        eprintln!(
            "arbiter: rules as {} says; -r {} for the games it does not name",
            file.display(),
            a.rules
        );
    }
    let (kept, ignored): (Vec<_>, Vec<_>) = sources.into_iter().partition(|s| match s {
        crate::read::Source::File { path, .. } => !map.ignores(path),
        crate::read::Source::Stdin => true,
    });
    if !ignored.is_empty() && !a.quiet {
        eprintln!(
            "arbiter: {} not read as games ({}'s ignore list)",
            crate::claim::plural(ignored.len(), "file"),
            file.display()
        );
    }
    opts.rules_map = Some(std::sync::Arc::new(map));
    Ok(kept)
}

/// `--syzygy` opened and `--packets` set up: a packet for every game not
/// confirmed, never over an input (`sources`), named as the sources `read`
/// name them (`PacketNames`, as the review page does).
fn syzygy_and_packets(
    a: &Args,
    rules: &Ruleset,
    (sources, read): (&[crate::read::Source], &[crate::read::Source]),
    opts: &mut pipeline::Options,
) -> Result<(), ExitStatus> {
    if let Some(dir) = &a.syzygy {
        match crate::analysis::forced::Syzygy::open(dir) {
            Ok(tb) => opts.syzygy = Some(std::sync::Arc::new(tb)),
            Err(e) => {
                eprintln!("arbiter: --syzygy: {e}");
                return Err(ExitStatus::Error);
            }
        }
    }
    if let Some(dir) = &a.packets {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("arbiter: --packets {}: {e}", dir.display());
            return Err(ExitStatus::Error);
        }
        let (dir, packet_rules, paper) = (dir.clone(), rules.clone(), a.paper);
        let map = opts.rules_map.clone();
        let inputs: Vec<PathBuf> = sources
            .iter()
            .filter_map(|s| match s {
                crate::read::Source::File { path, .. } => Some(path.clone()),
                crate::read::Source::Stdin => None,
            })
            .collect();
        let made = packet::Made::now();
        let names = PacketNames::new(read.iter().map(crate::read::Source::name));
        opts.on_unconfirmed = Some(std::sync::Arc::new(move |u: pipeline::Unconfirmed<'_>| {
            // The ruleset the game was judged under, as the judge chose it.
            let rules = map
                .as_deref()
                .and_then(|m| m.choose(u.source, &u.game.tags))
                .unwrap_or(&packet_rules);
            write_packet(&dir, &u, rules, &inputs, &names, (paper, made))
        }));
    }
    Ok(())
}

/// `-o`, `--pgn-out`, `--summary` and `--html` as given, each refused where
/// it is one of the inputs; only `-o` may be `-` (stdout).
fn output_paths(
    a: &Args,
    sources: &[crate::read::Source],
) -> Result<[Option<PathBuf>; 4], ExitStatus> {
    let out = super::output_path(a.out.as_deref(), sources)?;
    let mut extra = Vec::new();
    for (flag, path) in [
        ("--pgn-out", &a.pgn_out),
        ("--summary", &a.summary),
        ("--html", &a.html),
    ] {
        if path.as_deref().is_some_and(|p| p.as_os_str() == "-") {
            eprintln!("arbiter: {flag} needs a file name: stdout carries the results");
            return Err(ExitStatus::Error);
        }
        match super::output_path(path.as_deref(), sources) {
            Ok(p) => extra.push(p),
            Err(e) => {
                eprintln!("arbiter: {flag} is refused");
                return Err(e);
            }
        }
    }
    super::refuse_one_path_twice(&[
        ("-o", out.as_deref()),
        ("--pgn-out", extra[0].as_deref()),
        ("--summary", extra[1].as_deref()),
        ("--html", extra[2].as_deref()),
    ])?;
    Ok([out, extra.remove(0), extra.remove(0), extra.remove(0)])
}

/// The review page, its sections spooled as the games came, written and
/// renamed into place.
fn write_page(
    path: &Path,
    page: review::PageWriter,
    heading: &str,
    totals: &str,
) -> std::io::Result<()> {
    let mut p = Pending::create(path)?;
    let mut w = std::io::BufWriter::new(p.file());
    page.finish(heading, totals, &mut w)?;
    std::io::Write::flush(&mut w)?;
    drop(w);
    p.commit()
}

/// Which target a write error hit: the results (a file or stdout) or the
/// corrected PGN — named as the user named it, never the temporary file.
fn writing_target(e: &std::io::Error, out: &Option<PathBuf>, pgn: &Option<PathBuf>) -> String {
    let rows = out
        .as_deref()
        .map_or("stdout".into(), |p| p.display().to_string());
    match (
        pgn,
        e.get_ref()
            .and_then(|i| i.downcast_ref::<batch::PgnWriteError>()),
    ) {
        (Some(p), Some(_)) => p.display().to_string(),
        _ => rows,
    }
}

/// Draws and writes the packet of a game `adjudicate` did not confirm, on
/// the paper asked for (else the ruleset's), dated when the run began.
fn write_packet(
    dir: &Path,
    u: &pipeline::Unconfirmed<'_>,
    rules: &Ruleset,
    inputs: &[PathBuf],
    names: &PacketNames,
    (paper, made): (Option<packet::Paper>, packet::Made),
) -> Result<(), String> {
    let (source, index) = (u.source, u.index);
    let path = dir.join(names.file(source, index));
    super::refuse_inputs_as_outputs(std::slice::from_ref(&path), inputs)?;
    let pdf = catch_unwind(AssertUnwindSafe(|| {
        let record = crate::replay::record::from_game(source, u.game, u.line, rules);
        let mut p = packet::game_packet(source, index, &record, u.judgement, rules);
        if let Some(paper) = paper {
            p.paper = paper;
        }
        packet::render(&p, made)
    }))
    .map_err(|_| format!("{source}: game {index}: the packet could not be drawn"))?;
    atomic_write(&path, &pdf).map_err(|e| format!("{}: {e}", path.display()))
}
