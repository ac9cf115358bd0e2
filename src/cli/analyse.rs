//! `arbiter analyse`: for positions without games, can each side still mate
//! (helpmate test, with the line), is the position dead, and what USCF 14E
//! says if either side's opponent flagged. TSV on stdout, in input order.

use std::{io::Write, path::PathBuf};

use rayon::prelude::*;

use super::ExitStatus;
use crate::{
    analysis::{forced::Syzygy, position::read_fens},
    report::{
        json::{document, record_json, Format},
        tsv::{analyse_row_at, ANALYSE_HEADER},
    },
};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Positions in FEN (the last four fields may be left out).
    pub(crate) fens: Vec<String>,
    /// One FEN a line, or a TSV or CSV (`,` or `;`) whose first column is a FEN (`#` lines skipped, a `fen` header allowed); - for stdin.
    #[arg(long, conflicts_with = "fens")]
    pub(crate) file: Option<PathBuf>,
    /// tsv (default), json (one array) or ndjson (one object a line).
    #[arg(long, value_enum, default_value_t = AnalyseFormat::Tsv)]
    pub(crate) format: AnalyseFormat,
    /// No summary on stderr.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Syzygy tablebase folder, to settle USCF 14E's "forced win" exactly where it reaches.
    #[arg(long)]
    pub(crate) syzygy: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(short, long)]
    pub(crate) jobs: Option<usize>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum AnalyseFormat {
    Tsv,
    Json,
    Ndjson,
}

pub(crate) fn run(a: Args) -> ExitStatus {
    let started = std::time::Instant::now();
    // As a person saved it: UTF-16 by its mark, else UTF-8 or Windows-1252.
    let read = |path: &std::path::Path| -> std::io::Result<String> {
        use std::io::Read;
        let mut bytes = Vec::new();
        let name = if path.as_os_str() == "-" {
            std::io::stdin().lock().read_to_end(&mut bytes)?;
            "standard input".to_string()
        } else {
            std::fs::File::open(path)?.read_to_end(&mut bytes)?;
            path.display().to_string()
        };
        Ok(crate::read::text::decode(&name, bytes))
    };
    let fens: Vec<(Option<usize>, String)> = match &a.file {
        Some(path) => match read(path) {
            Ok(text) => read_fens(&text)
                .into_iter()
                .map(|(line, fen)| (Some(line), fen))
                .collect(),
            Err(e) => {
                eprintln!("arbiter: {}: {e}", path.display());
                return ExitStatus::Error;
            }
        },
        None => a.fens.iter().map(|f| (None, f.clone())).collect(),
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
            .map(|(line, f)| analyse_row_at(f, *line, syzygy.as_ref()))
            .collect()
    });
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = match a.format {
        AnalyseFormat::Tsv => writeln!(out, "{ANALYSE_HEADER}")
            .and_then(|_| rows.iter().try_for_each(|r| writeln!(out, "{r}"))),
        f => {
            let header: Vec<&str> = ANALYSE_HEADER.split('\t').collect();
            let objects: Vec<serde_json::Value> = rows
                .iter()
                .map(|r| {
                    let cells: Vec<String> = r.split('\t').map(str::to_string).collect();
                    record_json(&header, &cells, &[])
                })
                .collect();
            let format = if f == AnalyseFormat::Json {
                Format::Json
            } else {
                Format::Ndjson
            };
            out.write_all(&document(format, &objects))
        }
    }
    .and_then(|_| out.flush());
    if !a.quiet && written.is_ok() {
        eprintln!(
            "arbiter: analysed {} in {:.2} s",
            crate::claim::plural(rows.len(), "position"),
            started.elapsed().as_secs_f64()
        );
    }
    match written {
        Ok(()) => ExitStatus::Ok,
        Err(e) if super::is_broken_pipe(&e) => ExitStatus::Ok,
        Err(e) => {
            eprintln!("arbiter: {e}");
            ExitStatus::Error
        }
    }
}
