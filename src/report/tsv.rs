//! The TSV of `arbiter analyse`: one row a position, in input order.

use crate::analysis::{
    forced::Syzygy,
    mate::{MateAnswer, Mateability},
    position::{analyse, parse_position},
};

pub const ANALYSE_HEADER: &str =
    "fen\twhite\tblack\tdead\twhite_line\tblack_line\tuscf_white\tuscf_black";

/// One TSV row for a FEN, or the row that says why it could not be read.
pub fn analyse_row(fen: &str, syzygy: Option<&Syzygy>) -> String {
    analyse_row_at(fen, None, syzygy)
}

/// `analyse_row` for a FEN read from line `line` of a file, which the
/// row's error names.
pub fn analyse_row_at(fen: &str, line: Option<usize>, syzygy: Option<&Syzygy>) -> String {
    // The FEN is echoed into a TSV cell: no tabs or line breaks in it.
    let cleaned: String = fen
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let fen = cleaned.as_str();
    let a = match parse_position(fen) {
        Ok(p) => analyse(&p, syzygy),
        Err(e) => {
            let at = line.map(|l| format!("line {l}: ")).unwrap_or_default();
            return format!("{fen}\terror\terror\terror\t{at}{e}\t\t\t");
        }
    };
    let line = |m: &MateAnswer| {
        if m.verdict == Mateability::Winnable {
            m.written.clone()
        } else {
            String::new()
        }
    };
    format!(
        "{fen}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        a.white.verdict.as_str(),
        a.black.verdict.as_str(),
        a.dead.as_str(),
        line(&a.white),
        line(&a.black),
        a.uscf[0].as_str(),
        a.uscf[1].as_str(),
    )
}
