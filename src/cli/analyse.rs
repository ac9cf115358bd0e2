//! `arbiter analyse`: for positions without games, can each side still mate
//! (helpmate test, with the line), is the position dead, and what USCF 14E
//! says if either side's opponent flagged. TSV on stdout, in input order.

use std::{io::Write, path::PathBuf};

use rayon::prelude::*;
use shakmaty::{fen::Fen, CastlingMode, Chess};

use super::Outcome;
use crate::{
    analysis::{
        forced::Syzygy,
        mate::{can_mate, numbered_line, uscf_14e, Mateability, Uscf14e},
    },
    model::Side,
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

pub const HEADER: &str = "fen\twhite\tblack\tdead\twhite_line\tblack_line\tuscf_white\tuscf_black";

/// Reads a FEN leniently: the clocks (and castling and en passant fields) may be missing.
pub fn parse_position(fen: &str) -> Result<Chess, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err("empty FEN".into());
    }
    let defaults = ["w", "-", "-", "0", "1"];
    let mut full: Vec<&str> = fields.clone();
    for d in defaults.iter().skip(fields.len().saturating_sub(1)) {
        if full.len() >= 6 {
            break;
        }
        full.push(d);
    }
    let text = full.join(" ");
    let parsed: Fen = text.parse().map_err(|e| format!("cannot read FEN: {e}"))?;
    // Composed positions need not be reachable: more than eight pawns' worth
    // of promoted pieces or an odd check still have a helpmate question.
    let e = match parsed.into_position::<Chess>(CastlingMode::Chess960) {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    let e = match e.ignore_invalid_castling_rights() {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    let e = match e.ignore_invalid_ep_square() {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    let e = match e.ignore_too_much_material() {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    e.ignore_impossible_check()
        .map_err(|e| format!("not a legal position: {e}"))
}

/// What USCF 14E says if `side`'s opponent flags.
fn uscf(pos: &Chess, side: Side, dead: bool, syzygy: Option<&Syzygy>) -> &'static str {
    if dead {
        return "draw-on-flag";
    }
    match uscf_14e(pos, side.other(), syzygy) {
        Uscf14e::Win(_) => "win-on-flag",
        Uscf14e::Draw(..) => "draw-on-flag",
        Uscf14e::Review(..) => "review",
    }
}

/// One TSV row for a FEN, or the row that says why it could not be read.
pub fn analyse_row(fen: &str, syzygy: Option<&Syzygy>) -> String {
    // The FEN is echoed into a TSV cell: no tabs or line breaks in it.
    let cleaned: String = fen
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let fen = cleaned.as_str();
    let pos = match parse_position(fen) {
        Ok(p) => p,
        Err(e) => return format!("{fen}\terror\terror\terror\t{e}\t\t\t"),
    };
    let w = can_mate(&pos, Side::White);
    let b = can_mate(&pos, Side::Black);
    let dead = match (w.verdict, b.verdict) {
        (Mateability::Unwinnable, Mateability::Unwinnable) => "yes",
        (Mateability::Winnable, _) | (_, Mateability::Winnable) => "no",
        _ => "undetermined",
    };
    let line = |a: &crate::analysis::mate::MateAnswer| {
        if a.verdict == Mateability::Winnable {
            numbered_line(&pos, &a.line)
        } else {
            String::new()
        }
    };
    format!(
        "{fen}\t{}\t{}\t{dead}\t{}\t{}\t{}\t{}",
        w.verdict.as_str(),
        b.verdict.as_str(),
        line(&w),
        line(&b),
        uscf(&pos, Side::White, dead == "yes", syzygy),
        uscf(&pos, Side::Black, dead == "yes", syzygy),
    )
}

/// FENs from a file: one a line, or the first TSV column.
pub fn read_fens(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('\t').next().unwrap_or("").trim())
        .filter(|f| !f.is_empty() && !f.starts_with('#'))
        .enumerate()
        .filter(|(i, f)| !(*i == 0 && f.eq_ignore_ascii_case("fen")))
        .map(|(_, f)| f.to_string())
        .collect()
}

pub fn run(a: Args) -> Outcome {
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
                return Outcome::Error;
            }
        },
        None => a.fens.clone(),
    };
    if fens.is_empty() {
        eprintln!("arbiter: analyse needs FENs or --file");
        return Outcome::Error;
    }
    let syzygy = match &a.syzygy {
        Some(dir) => match Syzygy::open(dir) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("arbiter: --syzygy: {e}");
                return Outcome::Error;
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
            return Outcome::Error;
        }
    };
    let rows: Vec<String> = pool.install(|| {
        fens.par_iter()
            .map(|f| analyse_row(f, syzygy.as_ref()))
            .collect()
    });
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = writeln!(out, "{HEADER}")
        .and_then(|_| rows.iter().try_for_each(|r| writeln!(out, "{r}")))
        .and_then(|_| out.flush());
    match written {
        Ok(()) => Outcome::Ok,
        Err(e) if super::is_broken_pipe(&e) => Outcome::Ok,
        Err(e) => {
            eprintln!("arbiter: {e}");
            Outcome::Error
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
