//! `arbiter diagram FEN --out FILE.pdf`: the block-capital diagram alone.

use std::path::PathBuf;

use shakmaty::{Color, Position};

use super::ExitStatus;
use crate::analysis::position::parse_position;
use crate::report::{
    diagram::diagram_pdf,
    pdf::{Made, Paper},
    write::atomic_write,
};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The position, in FEN.
    pub(crate) fen: String,
    /// The PDF to write.
    #[arg(short, long)]
    pub(crate) out: PathBuf,
    /// The paper: a4 (default) or letter.
    #[arg(long, value_enum, default_value_t = Paper::A4)]
    pub(crate) paper: Paper,
}

pub(crate) fn run(a: Args) -> ExitStatus {
    let named_other = a
        .out
        .extension()
        .is_some_and(|e| !e.eq_ignore_ascii_case("pdf"));
    if named_other {
        eprintln!(
            "arbiter: {}: the diagram is written as a PDF: give a name ending .pdf",
            a.out.display()
        );
        return ExitStatus::Error;
    }
    let pos = match parse_position(&a.fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("arbiter: {:?}: {e}", a.fen);
            return ExitStatus::Error;
        }
    };
    let pdf = diagram_pdf(
        pos.board(),
        a.fen.trim(),
        pos.turn() == Color::White,
        a.paper,
        Made::now(),
    );
    match atomic_write(&a.out, &pdf) {
        Ok(()) => ExitStatus::Ok,
        Err(e) => {
            eprintln!("arbiter: {}: {e}", a.out.display());
            ExitStatus::Error
        }
    }
}
