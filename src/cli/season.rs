//! `arbiter season SEASON.toml --out DIR`.

use std::path::PathBuf;

use super::ExitStatus;
use crate::{
    report::{self, write::atomic_write},
    season::{self, ecf, load_with},
};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The season file (TOML; schema in docs/seasons.md).
    pub(crate) season: PathBuf,
    /// Folder for standings.csv, violations.csv, grading.csv, player-of-year.csv,
    /// cup.csv, ratings.csv and ecf-submission.txt.
    #[arg(short, long, default_value = "season-out")]
    pub(crate) out: PathBuf,
    /// No summary.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Let the season file name a ruleset or PGN outside its own folder.
    #[arg(long)]
    pub(crate) allow_outside: bool,
    /// Recorded decisions (as for adjudicate): a board judged from PGN that the record cannot settle counts once a decision names its game.
    #[arg(long, value_name = "FILE")]
    pub(crate) decisions: Option<PathBuf>,
}

pub(crate) fn run(a: Args) -> ExitStatus {
    let decisions = match a.decisions.as_deref().map(super::read_decisions) {
        None => None,
        Some(Ok(d)) => Some(d),
        Some(Err(e)) => {
            eprintln!("arbiter: --decisions: {e}");
            return ExitStatus::Error;
        }
    };
    let season = match load_with(&a.season, a.allow_outside, decisions) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitStatus::Error;
        }
    };
    let rep = season::process(&season);
    let outputs: Vec<PathBuf> = report::season::OWNED
        .iter()
        .map(|n| a.out.join(n))
        .collect();
    if let Err(e) = super::refuse_inputs_as_outputs(&outputs, &season.inputs) {
        eprintln!("arbiter: {e}");
        return ExitStatus::Error;
    }
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        eprintln!("arbiter: {}: {e}", a.out.display());
        return ExitStatus::Error;
    }
    let mut files = report::season::files(&season, &rep);
    if season.ecf.is_some() {
        let missing = ecf::missing_codes(&season, &rep.grading);
        if !missing.is_empty() {
            eprintln!(
                "arbiter: ecf-submission.txt: {} without an ECF code, to be matched by name: {}",
                crate::claim::plural(missing.len(), "player"),
                missing.join("; ")
            );
        }
        match ecf::submission(&season, &rep.grading) {
            Ok(text) => files.push(("ecf-submission.txt", text.into_bytes())),
            Err(e) => {
                eprintln!("arbiter: {}: {e}", season.file);
                return ExitStatus::Error;
            }
        }
    }
    // The outputs of an earlier run go first: a folder never mixes two runs.
    for name in report::season::OWNED {
        let path = a.out.join(name);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                eprintln!("arbiter: {}: {e}", path.display());
                return ExitStatus::Error;
            }
            _ => {}
        }
    }
    for (name, bytes) in &files {
        if let Err(e) = atomic_write(&a.out.join(name), bytes) {
            eprintln!("arbiter: {}: {e}", a.out.join(name).display());
            return ExitStatus::Error;
        }
    }
    // A season with boards still undecided is written, and needs attention.
    let status = if rep.pending.is_empty() {
        ExitStatus::Ok
    } else {
        eprintln!(
            "arbiter: {}: {} pending (listed in {}): record decisions and run with --decisions",
            season.file,
            crate::claim::plural(rep.pending.len(), "board"),
            a.out.join("pending.csv").display()
        );
        ExitStatus::NeedsReview
    };
    if a.quiet {
        return status;
    }
    let grades = match (&season.grading_list, season.grading_date) {
        (l, _) if l.is_empty() => String::new(),
        (l, Some(d)) => format!("; grades from {l} ({d})"),
        (l, None) => format!("; grades from {l}"),
    };
    eprintln!(
        "arbiter: {}: {} fixtures, {} rated games, {} violations{grades}; wrote {} files to {}",
        season.file,
        season.fixtures.len(),
        rep.grading.len(),
        rep.violations.len(),
        files.len(),
        a.out.display()
    );
    status
}
