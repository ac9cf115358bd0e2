//! `arbiter diagram`: every man's letter in its square (read back with
//! `pdftotext -bbox`), the men counted, and the page rasterises.

use crate::common;

use std::{collections::BTreeSet, process::Command};

use shakmaty::{Position, Square};

/// (square, letter) pairs read back from the PDF's text boxes.
fn letters_on_squares(pdf: &std::path::Path) -> BTreeSet<(String, char)> {
    // The diagram: squares of 40 pt from (137.5, 380) on an A4 page (842 pt high).
    let (x0, y0, sq, height) = (137.5f32, 380.0f32, 40.0f32, 842.0f32);
    let mut out = BTreeSet::new();
    for (word, x, y) in common::pdf_words(pdf, &[]) {
        if word.len() != 1 || !"KQRBNP".contains(&word) {
            continue;
        }
        let file = ((x - x0) / sq).floor() as u32;
        let rank = ((height - y - y0) / sq).floor() as u32;
        if file < 8 && rank < 8 {
            out.insert((
                Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank))
                    .to_string(),
                word.chars().next().unwrap(),
            ));
        }
    }
    out
}

#[test]
fn diagram_letters_sit_on_their_squares() {
    if !common::tools(
        "diagram_letters_sit_on_their_squares",
        &[common::Tool::Poppler],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for fen in [
        "5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ] {
        let pdf = dir.path().join("d.pdf");
        let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["diagram", fen, "-o", pdf.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let pos = arbiter::analysis::position::parse_position(fen).unwrap();
        let want: BTreeSet<(String, char)> = pos
            .board()
            .iter()
            .map(|(sq, p)| (sq.to_string(), arbiter::report::diagram::letter(p.role)))
            .collect();
        assert_eq!(letters_on_squares(&pdf), want, "{fen}");
        let text = String::from_utf8_lossy(
            &Command::new("pdftotext")
                .args(["-layout"])
                .arg(&pdf)
                .arg("-")
                .output()
                .unwrap()
                .stdout,
        )
        .into_owned();
        let (w, b) = (pos.board().white().count(), pos.board().black().count());
        assert!(
            text.contains(&format!("Men: White {w}, Black {b}")),
            "{text}"
        );
        assert!(text.contains("Black's men are ringed"));
        // Titled for any position, not as a game's final one.
        assert!(text.trim_start().starts_with("Position"), "{text}");
        assert!(!text.contains("Final position"), "{text}");
        for label in ["a", "b", "c", "d", "e", "f", "g", "h"] {
            assert!(text.contains(label));
        }
        let png = dir.path().join("page");
        let r = Command::new("pdftoppm")
            .args(["-png", "-r", "40"])
            .arg(&pdf)
            .arg(&png)
            .status()
            .unwrap();
        assert!(r.success());
    }
}

#[test]
fn a_bad_fen_is_a_clear_error() {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["diagram", "not a position", "-o", "/tmp/never.pdf"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read FEN"));
}
