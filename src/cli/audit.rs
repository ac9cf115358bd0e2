//! `arbiter audit --list NAME|FILE`: a rated list, checked game by game.

use std::path::PathBuf;

use super::ExitStatus;
use crate::{
    audit::{
        report::{trf_report, NotRated, TrfOptions},
        Audit, Audited, Finding, OverLimit, RatedList,
    },
    model::Judgement,
    pipeline,
    report::{
        csv::{finding_row, FINDINGS_HEADER},
        json::{document, finding_json, Format},
        review::{self, ReviewItem},
        trf::trf,
    },
    rules::Ruleset,
};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// PGN files, directories or - for stdin (as for adjudicate); a .trf file (TRF-16, as Swiss-Manager or Vega export it) is the list itself, the PGN games beside it the evidence.
    #[arg(required = true)]
    pub(crate) inputs: Vec<String>,
    /// The rated list's rules: a built-in list (active30: Sabah Active-30; fide-rapid: FIDE A.1's rapid) or a list TOML file (docs/audit.md).
    #[arg(long, value_name = "NAME|FILE")]
    pub(crate) list: String,
    /// Which games of a day over the list's rounds-a-day limit are not rated: the rounds past it (default) or the whole day.
    #[arg(long, value_enum, default_value_t = OverLimit::Past)]
    pub(crate) over_limit: OverLimit,
    /// Findings CSV (default stdout).
    #[arg(short, long)]
    pub(crate) out: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(short, long)]
    pub(crate) jobs: Option<usize>,
    /// Findings format: csv (default), json (one array), ndjson (one object a line) or xlsx (an Excel workbook, into -o FILE).
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub(crate) format: Format,
    /// Write the audited list as a FIDE TRF-16 report (corrected results used; a game a finding excludes not rated).
    #[arg(long, value_name = "FILE")]
    pub(crate) trf: Option<PathBuf>,
    /// In the TRF, a game a finding excludes: written with the not-rated codes W, D, L (default), or left out.
    #[arg(long, value_enum, default_value_t = NotRated::Codes)]
    pub(crate) not_rated: NotRated,
    /// The TRF's 012 line (tournament name), where the games' Event tags do not give it; needed where they name several events (a broadcast names each game) and the games are one tournament.
    #[arg(long, value_name = "NAME")]
    pub(crate) trf_event: Option<String>,
    /// The TRF's XXR line: the rounds the tournament has in all, so that a pairing engine can pair the next (default: the rounds played).
    #[arg(long, value_name = "N")]
    pub(crate) trf_rounds: Option<usize>,
    /// The TRF's 022 line (city), where the games' Site tags do not give it.
    #[arg(long, value_name = "NAME")]
    pub(crate) trf_site: Option<String>,
    /// The TRF's 122 line (time control), where the games' TimeControl tags do not give it.
    #[arg(long, value_name = "TEXT")]
    pub(crate) trf_time_control: Option<String>,
    /// The FIDE federation for the TRF's 032 line (e.g. MAS).
    #[arg(long, value_name = "CODE", default_value = "")]
    pub(crate) trf_federation: String,
    /// The chief arbiter for the TRF's 102 line.
    #[arg(long, value_name = "NAME", default_value = "")]
    pub(crate) trf_arbiter: String,
    /// Write a self-contained HTML review page of the findings.
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
    /// Recorded decisions (as for adjudicate): a decided game is rated with the decision's result, in the findings and the TRF.
    #[arg(long, value_name = "FILE")]
    pub(crate) decisions: Option<PathBuf>,
    /// The findings CSV made for Excel: a UTF-8 byte-order mark and dates in ISO form (-o FILE.xlsx writes a workbook instead).
    #[arg(long)]
    pub(crate) excel: bool,
    /// Exit 1 if there is any finding (2 still means a usage or I/O error).
    #[arg(long)]
    pub(crate) fail_on_findings: bool,
    /// No summary.
    #[arg(short, long)]
    pub(crate) quiet: bool,
}

pub(crate) fn run(mut a: Args) -> ExitStatus {
    let list = match RatedList::load(&a.list) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("arbiter: --list: {e}");
            return ExitStatus::Error;
        }
    };
    let rules = match Ruleset::load(&list.ruleset) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("arbiter: {}: ruleset: {e}", a.list);
            return ExitStatus::Error;
        }
    };
    let (trf_inputs, pgn_inputs): (Vec<String>, Vec<String>) = a
        .inputs
        .iter()
        .cloned()
        .partition(|i| i.to_ascii_lowercase().ends_with(".trf"));
    let tournament = match read_tournament(&trf_inputs, a.trf.as_deref()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitStatus::Error;
        }
    };
    let super::Inputs {
        sources,
        mut errors,
        opts,
        skipped,
    } = match super::inputs_and_options(&pgn_inputs, a.jobs, a.decisions.as_deref()) {
        Ok(x) => x,
        Err(o) => return o,
    };
    for line in skipped.iter().filter_map(|s| s.line(|_| true)) {
        eprintln!("arbiter: {line}");
    }
    let out = match super::output_path(a.out.as_deref(), &sources) {
        Ok(o) => o,
        Err(e) => return e,
    };
    if a.format == Format::Xlsx && !out.as_deref().is_some_and(crate::report::sheet::is_xlsx) {
        eprintln!("arbiter: --format xlsx writes a workbook: name it with -o FILE.xlsx");
        return ExitStatus::Error;
    }
    let spreadsheet = a.excel || out.as_deref().is_some_and(crate::report::sheet::is_xlsx);
    if spreadsheet && !matches!(a.format, Format::Csv | Format::Xlsx) {
        eprintln!(
            "arbiter: a spreadsheet is made of the CSV findings, not --format json or ndjson"
        );
        return ExitStatus::Error;
    }
    let Some([trf_path, html_path]) = side_outputs(&a, &sources) else {
        return ExitStatus::Error;
    };
    if let Err(e) = super::refuse_one_path_twice(&[
        ("-o", out.as_deref()),
        ("--trf", trf_path.as_deref()),
        ("--html", html_path.as_deref()),
    ]) {
        return e;
    }
    if let Err(e) =
        super::refuse_decisions_as_output(&[&out, &trf_path, &html_path], a.decisions.as_deref())
    {
        return e;
    }
    let mut audit = Audit::new(list.clone(), a.over_limit);
    audit.one_tournament = a.trf_event.is_some();
    let (summary, boards) =
        match read_games(&sources, &rules, &opts, &mut audit, html_path.is_some()) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("arbiter: {e}");
                return ExitStatus::Error;
            }
        };
    for e in &summary.errors {
        eprintln!("arbiter: {e}");
    }
    if let Some(d) = &opts.decisions {
        for line in d.unmet() {
            eprintln!("arbiter: {line}");
        }
    }
    errors.extend(summary.errors.iter().cloned());
    // The tournament file's federation and chief arbiter, where the command
    // line does not give them.
    if let Some(t) = &tournament {
        for (opt, line) in [
            (&mut a.trf_federation, &t.federation),
            (&mut a.trf_arbiter, &t.arbiter),
        ] {
            if opt.is_empty() {
                opt.clone_from(line);
            }
        }
    }
    if let Some(t) = tournament {
        audit.take_trf(t);
    }
    let audited = audit.finish();
    let (games, findings) = (audited.games, &audited.findings);
    let bytes = match a.format {
        Format::Csv | Format::Xlsx => {
            let csv =
                crate::report::write::csv_bytes(&FINDINGS_HEADER, findings.iter().map(finding_row));
            // `--format xlsx` has made sure the name ends .xlsx.
            let table = crate::report::sheet::Table::for_path(out.as_deref(), a.excel);
            match crate::report::sheet::render(table, "findings", &csv) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("arbiter: {e}");
                    return ExitStatus::Error;
                }
            }
        }
        f => document(f, &findings.iter().map(finding_json).collect::<Vec<_>>()),
    };
    // A report is not written from part of the input, nor one that cannot
    // be written whole; the findings are written either way.
    let trf_failed = trf_path.as_ref().and_then(|path| {
        let why = if errors.is_empty() {
            write_trf(&a, path, &audited, &list).err()?
        } else {
            format!(
                "{} reading the input (said above), and a report from part of the games would be wrong",
                crate::claim::plural(errors.len(), "error")
            )
        };
        // No report is better than an earlier run's taken for this one.
        let stale = match std::fs::remove_file(path) {
            Ok(()) => "; the file an earlier run left there is removed",
            Err(_) => "",
        };
        Some(format!(
            "arbiter: {}: {why}: no TRF report written{stale}",
            path.display()
        ))
    });
    if let Some(path) = &html_path {
        let totals = format!(
            "{} audited against the {}: {}",
            crate::claim::plural(games as usize, "game"),
            list.title,
            crate::claim::plural(findings.len(), "finding")
        );
        let items: Vec<ReviewItem> = findings
            .iter()
            .map(|f| finding_item(f, &boards, &rules))
            .collect();
        let page = review::page_labelled(
            &format!("arbiter audit: {}", list.title),
            &totals,
            &items,
            ["finding", "reason"],
        );
        if let Err(e) = crate::report::write::atomic_write(path, page.as_bytes()) {
            eprintln!("arbiter: {}: {e}", path.display());
            return ExitStatus::Error;
        }
    }
    let written = match &out {
        Some(p) => crate::report::write::atomic_write(p, &bytes),
        None => std::io::Write::write_all(&mut std::io::stdout().lock(), &bytes),
    };
    if let Err(e) = written {
        if super::is_broken_pipe(&e) {
            return ExitStatus::Ok;
        }
        let target = out
            .as_deref()
            .map_or("stdout".into(), |p| p.display().to_string());
        eprintln!("arbiter: {target}: {e}");
        return ExitStatus::Error;
    }
    if !a.quiet {
        let unread = match errors.len() {
            0 => String::new(),
            n => format!(
                "; {} reading the input, said above: the findings lack what could not be read",
                crate::claim::plural(n, "error")
            ),
        };
        eprintln!(
            "arbiter: {}{unread}",
            summary_line(&audited, &list, trf_inputs.first().map(String::as_str))
        );
    }
    if let Some(e) = &trf_failed {
        eprintln!("{e}");
    }
    if !errors.is_empty() || trf_failed.is_some() {
        ExitStatus::Error
    } else if a.fail_on_findings && !audited.findings.is_empty() {
        ExitStatus::NeedsReview
    } else {
        ExitStatus::Ok
    }
}

/// Every game read, judged and added to the audit; with `keep` (for the
/// review page, which shows the position of a game with a finding), each
/// game's event and judgement by source and number.
fn read_games(
    sources: &[crate::read::Source],
    rules: &Ruleset,
    opts: &pipeline::Options,
    audit: &mut Audit,
    keep: bool,
) -> Result<(pipeline::Summary, Boards), String> {
    let mut boards = Boards::new();
    let summary = pipeline::for_each_game(sources, rules, opts, |o| {
        if keep {
            boards.insert(
                (o.source.to_string(), o.index),
                (o.tags.event.clone(), o.judgement.clone()),
            );
        }
        audit.add(&o)
    })
    .map_err(|e| e.to_string())?;
    Ok((summary, boards))
}

/// `--trf` and `--html`, each refused where it is one of the inputs.
fn side_outputs(a: &Args, sources: &[crate::read::Source]) -> Option<[Option<PathBuf>; 2]> {
    let mut out = [None, None];
    for (slot, (flag, path)) in out.iter_mut().zip([("--trf", &a.trf), ("--html", &a.html)]) {
        match super::output_path(path.as_deref(), sources) {
            Ok(p) => *slot = p,
            Err(_) => {
                eprintln!("arbiter: {flag} is refused");
                return None;
            }
        }
    }
    Some(out)
}

/// The tournament file, where one is given: at most one, read whole, and
/// never the `--trf` report's own path.
fn read_tournament(
    inputs: &[String],
    report: Option<&std::path::Path>,
) -> Result<Option<crate::audit::trf_in::TrfList>, String> {
    let same = |a: &std::path::Path, b: &str| {
        std::path::Path::new(b).exists()
            && std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok()
    };
    if let Some(out) = report.filter(|o| inputs.iter().any(|i| same(o, i))) {
        return Err(format!(
            "--trf {} is the tournament file read: refused",
            out.display()
        ));
    }
    match inputs {
        [] => Ok(None),
        [one] => {
            let bytes = crate::read::contained::read_regular(std::path::Path::new(one), 64 << 20)
                .map_err(|e| format!("{one}: {e}"))?;
            // TRF files from Windows programs are often Windows-1252.
            let text = crate::read::text::decode(one, bytes);
            crate::audit::trf_in::parse(one, &text).map(Some)
        }
        more => Err(format!(
            "one tournament file at a time: {} given ({})",
            more.len(),
            more.join(", ")
        )),
    }
}

/// The TRF report of the list, saying on the screen which games are not
/// rated or left out and which header lines FIDE rating needs are empty.
fn write_trf(
    a: &Args,
    path: &std::path::Path,
    audited: &Audited,
    list: &RatedList,
) -> Result<(), String> {
    let opts = TrfOptions {
        event: a.trf_event.clone(),
        site: a.trf_site.clone(),
        time_control: a.trf_time_control.clone(),
        federation: a.trf_federation.clone(),
        arbiter: a.trf_arbiter.clone(),
        not_rated: a.not_rated,
        rounds: a.trf_rounds,
    };
    let report = trf_report(audited, list, &opts)?;
    let shown = path.display();
    for n in &report.notes {
        eprintln!("arbiter: {shown}: {n}");
    }
    for l in &report.not_rated {
        eprintln!("arbiter: {shown}: not rated: {l}");
    }
    for l in &report.left_out {
        eprintln!("arbiter: {shown}: left out: {l}");
    }
    if a.trf_federation.is_empty() || a.trf_arbiter.is_empty() {
        eprintln!(
            "arbiter: {shown}: the federation (032) and chief arbiter (102) lines, which FIDE rating needs, are empty: give --trf-federation and --trf-arbiter"
        );
    }
    crate::report::write::atomic_write(path, trf(&report).as_bytes()).map_err(|e| e.to_string())
}

/// The summary: games, findings by kind, and how many games are not rated.
fn summary_line(audited: &Audited, list: &RatedList, tournament: Option<&str>) -> String {
    let mut kinds: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for f in &audited.findings {
        *kinds.entry(f.finding).or_default() += 1;
    }
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
    // Games with a place in the report but not rated, and games with no
    // place at all: no round, a player twice, a game that cannot be read
    // (these last never listed).
    let placed = audited.listed.iter().zip(&audited.rounds);
    let unrated = placed
        .clone()
        .filter(|(g, r)| r.is_some() && !g.rated() && g.bye().is_none())
        .count();
    let never_listed = match tournament {
        Some(_) => 0,
        None => (audited.games as usize).saturating_sub(audited.listed.len()),
    };
    let left_out = placed.filter(|(_, r)| r.is_none()).count() + never_listed;
    let left_out = if left_out > 0 {
        format!(
            "; {} left out of the TRF report",
            crate::claim::plural(left_out, "game")
        )
    } else {
        String::new()
    };
    let what = match tournament {
        Some(t) => {
            let byes = audited.listed.iter().filter(|g| g.bye().is_some()).count();
            let games = audited.listed.len() - byes;
            let byes = if byes > 0 {
                format!(" and {}", crate::claim::plural(byes, "bye"))
            } else {
                String::new()
            };
            format!(
                "audited the {}{byes} of {t} ({} read beside it)",
                crate::claim::plural(games, "game"),
                crate::claim::plural(audited.games as usize, "game")
            )
        }
        None => format!(
            "audited {}",
            crate::claim::plural(audited.games as usize, "game")
        ),
    };
    format!(
        "{what} against the {}: {}{}; {} not rated{left_out}",
        list.title,
        crate::claim::plural(audited.findings.len(), "finding"),
        if kinds.is_empty() {
            String::new()
        } else {
            format!(" ({})", kinds.join(", "))
        },
        crate::claim::plural(unrated, "game")
    )
}

/// Each game's event and judgement, by source and number, for the page.
type Boards = std::collections::HashMap<(String, u64), (String, Judgement)>;

/// The review page's entry for a finding, with the game's position and
/// clocks where the run kept them.
fn finding_item(f: &Finding, boards: &Boards, rules: &Ruleset) -> ReviewItem {
    let (event, j) = match boards.get(&(f.source.clone(), f.game)) {
        Some((e, j)) => (e.clone(), Some(j)),
        None => (String::new(), None),
    };
    ReviewItem {
        title: format!("{}, game {}", f.source, f.game),
        event,
        date: f.date.clone(),
        white: f.white.clone(),
        black: f.black.clone(),
        status: f.finding.into(),
        // A finding is grouped under its own kind; a result finding under
        // the reason the game was judged for.
        reason: match (f.finding, j) {
            ("result", Some(j)) => j.verdict.reason.as_str().into(),
            (kind, _) => kind.into(),
        },
        recorded: String::new(),
        result: j
            .map(|j| j.verdict.result.as_str().into())
            .unwrap_or_default(),
        rules: crate::citation::Citation::new(f.rule.as_str())
            .map(|c| rules.explain(&c))
            .unwrap_or_default(),
        detail: f.detail.clone(),
        at: format!("round {}", f.round),
        white_clock: j
            .and_then(|j| j.white_clock)
            .map(|c| c.to_string())
            .unwrap_or_default(),
        black_clock: j
            .and_then(|j| j.black_clock)
            .map(|c| c.to_string())
            .unwrap_or_default(),
        fen: j.map(|j| j.final_fen.clone()).filter(|f| !f.is_empty()),
        last_move: None,
        packet: None,
        // A result finding is a game's result to decide (`audit
        // --decisions` rates it as decided); other findings are not.
        game_key: j
            .filter(|_| f.finding == "result")
            .and_then(|j| j.key)
            .map(|k| k.to_string()),
        ..ReviewItem::default()
    }
}
