//! `arbiter adjudicate`: arguments → validated config → the pipeline.

use std::{
    io::IsTerminal,
    panic::{catch_unwind, AssertUnwindSafe},
    path::{Path, PathBuf},
};

use super::ExitStatus;
use crate::{
    pipeline,
    report::{
        packet,
        write::{atomic_write, packet_file_name, Pending},
    },
    rules::Ruleset,
};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// PGN files (.pgn, .pgn.zst, .pgn.gz, .pgn.bz2), directories (read recursively, sorted), or - for stdin.
    #[arg(required = true)]
    pub inputs: Vec<String>,
    /// A built-in ruleset (see `arbiter rules`) or a ruleset TOML file.
    #[arg(short, long, default_value = "fide-rapid")]
    pub rules: String,
    /// Results CSV (default: stdout).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(short, long)]
    pub jobs: Option<usize>,
    /// Exit 1 if any game is corrected, review or unreadable.
    #[arg(long)]
    pub fail_on_review: bool,
    /// Syzygy tablebase folder: settles USCF 14E's "forced win" exactly where it reaches.
    #[arg(long)]
    pub syzygy: Option<PathBuf>,
    /// Write a PDF packet (diagram, scoresheet, clock chart, verdict) into this folder for every game not confirmed.
    #[arg(long, value_name = "DIR")]
    pub packets: Option<PathBuf>,
    /// No progress bar and no summary.
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn run(a: Args) -> ExitStatus {
    let rules = match Ruleset::load(&a.rules) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("arbiter: --rules: {e}");
            return ExitStatus::Error;
        }
    };
    let (sources, mut errors, mut opts) = match super::inputs_and_options(&a.inputs, a.jobs) {
        Ok(x) => x,
        Err(o) => return o,
    };
    let bar = (!a.quiet && std::io::stderr().is_terminal()).then(super::progress_bar);
    if let Some(pb) = &bar {
        let pb = pb.clone();
        opts.on_progress = Some(std::sync::Arc::new(move |s: &pipeline::Summary| {
            pb.set_position(s.games);
            pb.set_message(format!("{:.1} MB", s.bytes as f64 / 1e6));
        }));
    }
    if let Some(dir) = &a.syzygy {
        match crate::analysis::forced::Syzygy::open(dir) {
            Ok(tb) => opts.syzygy = Some(std::sync::Arc::new(tb)),
            Err(e) => {
                eprintln!("arbiter: --syzygy: {e}");
                return ExitStatus::Error;
            }
        }
    }
    if let Some(dir) = &a.packets {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("arbiter: --packets {}: {e}", dir.display());
            return ExitStatus::Error;
        }
        let (dir, packet_rules) = (dir.clone(), rules.clone());
        opts.on_unconfirmed = Some(std::sync::Arc::new(move |u: pipeline::Unconfirmed<'_>| {
            write_packet(&dir, &u, &packet_rules)
        }));
    }
    let out = match super::output_path(a.out.as_deref(), &sources) {
        Ok(o) => o,
        Err(e) => return e,
    };
    let result = match &out {
        // Written beside the target and renamed when complete: an interrupted
        // run never leaves a truncated CSV that looks finished.
        Some(path) => match Pending::create(path) {
            Ok(mut pending) => {
                let r = pipeline::adjudicate(
                    &sources,
                    &rules,
                    &opts,
                    std::io::BufWriter::new(pending.file()),
                );
                match r {
                    Ok(s) => pending.commit().map(|_| s),
                    Err(e) => Err(e),
                }
            }
            Err(e) => {
                eprintln!("arbiter: {}: {e}", path.display());
                return ExitStatus::Error;
            }
        },
        None => pipeline::adjudicate(
            &sources,
            &rules,
            &opts,
            std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
        ),
    };
    if let Some(pb) = bar {
        pb.finish_and_clear();
    }
    let summary = match result {
        Ok(s) => s,
        Err(e) if super::is_broken_pipe(&e) => return ExitStatus::Ok,
        Err(e) => {
            // The target, never the hidden file it was being written to.
            let target = out
                .as_deref()
                .map_or("stdout".into(), |p| p.display().to_string());
            eprintln!("arbiter: {target}: {e}");
            return ExitStatus::Error;
        }
    };
    for e in &summary.errors {
        eprintln!("arbiter: {e}");
    }
    errors.extend(summary.errors.iter().cloned());
    if !a.quiet {
        eprintln!("arbiter: {} under {}", summary.line(), rules.name);
    }
    if !errors.is_empty() {
        ExitStatus::Error
    } else if a.fail_on_review && summary.needs_attention() {
        ExitStatus::NeedsReview
    } else {
        ExitStatus::Ok
    }
}

/// Draws and writes the packet of a game `adjudicate` did not confirm.
fn write_packet(dir: &Path, u: &pipeline::Unconfirmed<'_>, rules: &Ruleset) -> Result<(), String> {
    let (source, index) = (u.source, u.index);
    let pdf = catch_unwind(AssertUnwindSafe(|| {
        let record = crate::replay::record::from_game(source, u.game, rules);
        packet::render(&packet::game_packet(
            source,
            index,
            &record,
            u.judgement,
            rules,
        ))
    }))
    .map_err(|_| format!("{source}: game {index}: the packet could not be drawn"))?;
    let path = dir.join(packet_file_name(source, index));
    atomic_write(&path, &pdf).map_err(|e| format!("{}: {e}", path.display()))
}
