//! `arbiter audit --list active30`: a rated Active-30 list, checked game by game.

use std::path::PathBuf;

use super::ExitStatus;
use crate::{
    audit::Audit,
    pipeline,
    report::csv::{finding_row, FINDINGS_HEADER},
    rules::Ruleset,
};

#[derive(Copy, Clone, Debug, clap::ValueEnum)]
pub enum List {
    /// Sabah Active-30: 30 minutes each, no increment, at most six rounds a day.
    Active30,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// PGN files, directories or - for stdin (as for adjudicate).
    #[arg(required = true)]
    pub inputs: Vec<String>,
    /// Which rating list's rules to audit against.
    #[arg(long, value_enum)]
    pub list: List,
    /// Findings CSV (default stdout).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(short, long)]
    pub jobs: Option<usize>,
    /// No summary.
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn run(a: Args) -> ExitStatus {
    let List::Active30 = a.list;
    let rules = match Ruleset::load("sabah-active30") {
        Ok(r) => r,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitStatus::Error;
        }
    };
    let (sources, mut errors, opts) = match super::inputs_and_options(&a.inputs, a.jobs) {
        Ok(x) => x,
        Err(o) => return o,
    };
    let out = match super::output_path(a.out.as_deref(), &sources) {
        Ok(o) => o,
        Err(e) => return e,
    };
    let mut audit = Audit::default();
    let summary = match pipeline::for_each_game(&sources, &rules, &opts, |o| audit.add(&o)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitStatus::Error;
        }
    };
    for e in &summary.errors {
        eprintln!("arbiter: {e}");
    }
    errors.extend(summary.errors.iter().cloned());
    let (games, findings) = audit.finish();
    let bytes = crate::report::write::csv_bytes(&FINDINGS_HEADER, findings.iter().map(finding_row));
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
        let count = |k: &str| findings.iter().filter(|f| f.finding == k).count();
        eprintln!(
            "arbiter: audited {games} games under sabah-active30: {} findings ({} time-control, {} rounds-per-day, {} result, {} unreadable)",
            findings.len(),
            count("time-control"),
            count("rounds-per-day"),
            count("result"),
            count("unreadable")
        );
    }
    if errors.is_empty() {
        ExitStatus::Ok
    } else {
        ExitStatus::Error
    }
}
