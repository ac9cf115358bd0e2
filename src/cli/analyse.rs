//! `arbiter analyse`: for positions without games, can each side still mate
//! (helpmate test, with the line), is the position dead, and what USCF 14E
//! says if either side's opponent flagged. TSV on stdout, in input order.

use std::{io::Write, path::PathBuf};

use rayon::prelude::*;

use super::ExitStatus;
use crate::{
    analysis::{forced::Syzygy, position::read_fens},
    report::tsv::{analyse_row, ANALYSE_HEADER},
};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Positions in FEN (the last four fields may be left out).
    pub fens: Vec<String>,
    /// One FEN a line, or a TSV whose first column is a FEN (`#` lines skipped, a `fen` header allowed).
    #[arg(long, conflicts_with = "fens")]
    pub file: Option<PathBuf>,
    /// Syzygy tablebase folder, to settle USCF 14E's "forced win" exactly where it reaches.
    #[arg(long)]
    pub syzygy: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(short, long)]
    pub jobs: Option<usize>,
}

pub fn run(a: Args) -> ExitStatus {
    let fens = match &a.file {
        Some(path) => match std::fs::File::open(path).and_then(|f| {
            let mut s = String::new();
            std::io::BufReader::new(f)
                .read_to_string_lossy(&mut s)
                .map(|_| s)
        }) {
            Ok(text) => read_fens(&text),
            Err(e) => {
                eprintln!("arbiter: {}: {e}", path.display());
                return ExitStatus::Error;
            }
        },
        None => a.fens.clone(),
    };
    if fens.is_empty() {
        eprintln!("arbiter: analyse needs FENs or --file");
        return ExitStatus::Error;
    }
    let syzygy = match &a.syzygy {
        Some(dir) => match Syzygy::open(dir) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("arbiter: --syzygy: {e}");
                return ExitStatus::Error;
            }
        },
        None => None,
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitStatus::Error;
        }
    };
    let rows: Vec<String> = pool.install(|| {
        fens.par_iter()
            .map(|f| analyse_row(f, syzygy.as_ref()))
            .collect()
    });
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = writeln!(out, "{ANALYSE_HEADER}")
        .and_then(|_| rows.iter().try_for_each(|r| writeln!(out, "{r}")))
        .and_then(|_| out.flush());
    match written {
        Ok(()) => ExitStatus::Ok,
        Err(e) if super::is_broken_pipe(&e) => ExitStatus::Ok,
        Err(e) => {
            eprintln!("arbiter: {e}");
            ExitStatus::Error
        }
    }
}

trait ReadLossy {
    fn read_to_string_lossy(&mut self, s: &mut String) -> std::io::Result<usize>;
}

impl<R: std::io::Read> ReadLossy for R {
    fn read_to_string_lossy(&mut self, s: &mut String) -> std::io::Result<usize> {
        let mut bytes = Vec::new();
        let n = self.read_to_end(&mut bytes)?;
        s.push_str(&String::from_utf8_lossy(&bytes));
        Ok(n)
    }
}
