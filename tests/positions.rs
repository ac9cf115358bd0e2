//! "Cannot possibly checkmate": positions from the rule documents, and
//! those where FIDE (helpmate) and USCF 14E (material list) differ. The
//! analyzer's test vectors and the real games are in `differential`.

use crate::common;

use std::{io::Write, sync::Arc};

use arbiter::{
    analysis::position::{parse_position, read_fens},
    analysis::{
        forced::Syzygy,
        mate::{can_mate, Mateability},
    },
    model::Side,
    pipeline::Options,
    read::Source,
    report::batch::adjudicate,
    report::tsv::analyse_row,
    rules::Ruleset,
};
use common::{assert_cells, assert_detail_contains, data, parse_csv, Row};

#[test]
fn helpmate_lines_really_mate() {
    // The pawn-wall position from the analyzer's README: White can mate, Black cannot.
    let pos = parse_position("5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - -").unwrap();
    let white = can_mate(&pos, Side::White);
    assert_eq!(white.verdict, Mateability::Winnable);
    let mut p = pos.clone();
    for m in &white.line {
        assert!(
            shakmaty::Position::is_legal(&p, *m),
            "{m:?} in {:?}",
            white.line
        );
        shakmaty::Position::play_unchecked(&mut p, *m);
    }
    assert!(
        shakmaty::Position::is_checkmate(&p),
        "line {:?}",
        white.line
    );
    assert_eq!(can_mate(&pos, Side::Black).verdict, Mateability::Unwinnable);
}

#[test]
fn analyse_prints_the_tsv_contract() {
    let row = analyse_row("6RK/5n2/7k/8/8/8/8/8 w - - 0 1", None);
    assert_eq!(
        row,
        "6RK/5n2/7k/8/8/8/8/8 w - - 0 1\tunwinnable\twinnable\tno\t\t\twin-on-flag\twin-on-flag"
    );
    let bad = analyse_row("not a fen", None);
    assert!(
        bad.starts_with("not a fen\terror\terror\terror\tcannot read FEN"),
        "{bad}"
    );
    assert_eq!(
        read_fens("fen\texpected\n# a comment\n8/8/8/8/8/8/8/K1k5 w - -\tx\n\n"),
        vec![(3, "8/8/8/8/8/8/8/K1k5 w - -".to_string())]
    );
    // As Excel saves it: a byte-order mark, a quoted header, CRLF.
    assert_eq!(
        read_fens("\u{feff}\"fen\"\texpected\r\n8/8/8/8/8/8/8/K1k5 w - -\tx\r\n"),
        vec![(2, "8/8/8/8/8/8/8/K1k5 w - -".to_string())]
    );
    // A CSV from a spreadsheet, commas or semicolons, quoted or not: the
    // header was taken for a FEN, and every row failed.
    for text in [
        "fen,note\n4k3/8/8/8/2b5/8/8/4KB2 w - - 0 1,same bishops\n",
        "\"fen\";\"note\"\r\n\"4k3/8/8/8/2b5/8/8/4KB2 w - - 0 1\";\"same bishops\"\r\n",
    ] {
        assert_eq!(
            read_fens(text),
            vec![(2, "4k3/8/8/8/2b5/8/8/4KB2 w - - 0 1".to_string())],
            "{text}"
        );
    }
}

#[test]
fn analyse_command_end_to_end() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "analyse",
            "--syzygy",
            data("syzygy").to_str().unwrap(),
            "8/8/4k3/4p3/8/4K3/4N3/8 b - - 0 1",
            "8/8/4k3/8/8/4K3/4B3/8 w - - 0 1",
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(
        lines[0],
        [
            "fen",
            "white",
            "black",
            "dead",
            "white_line",
            "black_line",
            "uscf_white",
            "uscf_black"
        ]
    );
    // K+N v K+P: both can mate with help; USCF 14E2 draws the knight's flag win (no forced win in the tables).
    assert_eq!(&lines[1][1..4], ["winnable", "winnable", "no"]);
    assert!(lines[1][4].ends_with('#'));
    assert_eq!(&lines[1][6..8], ["draw-on-flag", "win-on-flag"]);
    assert_eq!(&lines[2][1..4], ["unwinnable", "unwinnable", "yes"]);
    assert_eq!(&lines[2][6..8], ["draw-on-flag", "draw-on-flag"]);

    // From a file saved as Excel's "Unicode text": a bad FEN names its line.
    let text = "fen\tnote\n8/8/4k3/8/8/4K3/4B3/8 w - - 0 1\tok\n# skipped\nnot a fen\tbad\n";
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), utf16).unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["analyse", "--file"])
        .arg(file.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[1][3], "yes");
    assert_eq!(lines[2][1], "error");
    assert!(lines[2][4].starts_with("line 4: cannot read FEN"), "{text}");
}

/// A flag fall in `fen` (the side to move flagged; `result` scores it), judged under `rules`.
fn flag(rules: &str, fen: &str, result: &str, syzygy: Option<Arc<Syzygy>>) -> Row {
    let pgn = format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n[Result \"{result}\"]\n[Termination \"time forfeit\"]\n\n{result}\n");
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(pgn.as_bytes()).unwrap();
    let rules = Ruleset::load(rules).unwrap();
    let opts = Options {
        jobs: 1,
        syzygy,
        ..Options::default()
    };
    let mut out = Vec::new();
    let src = [Source::File {
        path: f.path().to_path_buf(),
        name: "t.pgn".into(),
    }];
    adjudicate(&src, &rules, &opts, &mut out).unwrap();
    parse_csv(&out).remove(0)
}

fn tables() -> Option<Arc<Syzygy>> {
    Some(Arc::new(
        Syzygy::open(&data("syzygy")).expect("syzygy tables"),
    ))
}

#[test]
fn bishop_against_bare_king_is_dead_everywhere() {
    for rules in ["fide-rapid", "uscf"] {
        let row = flag(rules, "8/8/4k3/8/8/4K3/4B3/8 b - - 0 1", "1-0", None);
        assert_cells(
            &row,
            &[
                ("result", "1/2-1/2"),
                ("status", "corrected"),
                ("reason", "dead-position"),
            ],
        );
    }
}

#[test]
fn knight_against_queen_cannot_mate() {
    let fen = "8/8/4k3/8/3q4/8/4N3/4K3 b - - 0 1";
    let fide = flag("fide-rapid", fen, "1-0", None);
    assert_cells(
        &fide,
        &[
            ("result", "1/2-1/2"),
            ("reason", "flag-fall-cannot-mate"),
            ("rule", "FIDE 6.9"),
        ],
    );
    assert_detail_contains(
        &fide,
        "White cannot mate with K+N v K+Q: no helpmate exists",
    );
    // USCF 14E2: drawn unless White has a forced win; the tables settle it,
    // and without them so does White's want of any mate at all.
    let with = flag("uscf", fen, "1-0", tables());
    assert_cells(&with, &[("result", "1/2-1/2"), ("rule", "USCF 14E2")]);
    assert_detail_contains(&with, "Syzygy tablebase: no win");
    let without = flag("uscf", fen, "1-0", None);
    assert_cells(
        &without,
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("rule", "USCF 14E2"),
        ],
    );
    assert_detail_contains(
        &without,
        "White cannot mate by any series of legal moves, so has no forced win",
    );
}

#[test]
fn bishop_against_rook_cannot_mate() {
    let fen = "8/8/4k3/8/3r4/8/4B3/4K3 b - - 0 1";
    assert_cells(
        &flag("fide-rapid", fen, "1-0", None),
        &[
            ("result", "1/2-1/2"),
            ("reason", "flag-fall-cannot-mate"),
            ("rule", "FIDE 6.9"),
        ],
    );
    assert_cells(
        &flag("uscf", fen, "1-0", tables()),
        &[
            ("result", "1/2-1/2"),
            ("reason", "flag-fall-cannot-mate"),
            ("rule", "USCF 14E2"),
        ],
    );
}

#[test]
fn knight_against_rook_can_mate_under_fide_but_draws_under_uscf() {
    let fen = "8/8/4k3/8/3r4/8/4N3/4K3 b - - 0 1";
    let fide = flag("fide-rapid", fen, "1-0", None);
    assert_cells(
        &fide,
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "flag-fall"),
            ("rule", "FIDE 6.9"),
        ],
    );
    assert_detail_contains(&fide, "White can mate with K+N v K+R: helpmate line 1... ");
    let uscf = flag("uscf", fen, "1-0", tables());
    assert_cells(
        &uscf,
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "flag-fall-cannot-mate"),
            ("rule", "USCF 14E2"),
        ],
    );
    assert_detail_contains(&uscf, "Syzygy tablebase: no win");
}

#[test]
fn knight_against_pawn_and_two_knights() {
    // K+N v K+P: FIDE gives the knight the win (a helpmate exists); USCF 14E2 a draw.
    let fen = "8/8/4k3/4p3/8/4K3/4N3/8 b - - 0 1";
    assert_cells(
        &flag("fide-rapid", fen, "1-0", None),
        &[("result", "1-0"), ("reason", "flag-fall")],
    );
    assert_cells(
        &flag("uscf", fen, "1-0", tables()),
        &[("result", "1/2-1/2"), ("rule", "USCF 14E2")],
    );
    // K+N+N v bare K: 14E3 draws; with a pawn for the flagger 14E3 does not apply.
    assert_cells(
        &flag("uscf", "8/8/4k3/8/8/4K3/3NN3/8 b - - 0 1", "1-0", None),
        &[("result", "1/2-1/2"), ("rule", "USCF 14E3")],
    );
    assert_cells(
        &flag("uscf", "8/4p3/4k3/8/8/4K3/3NN3/8 b - - 0 1", "1-0", None),
        &[("result", "1-0"), ("rule", "USCF 13C1")],
    );
    // FIDE: K+N+N v K cannot be mated by force but a helpmate exists.
    assert_cells(
        &flag(
            "fide-rapid",
            "8/8/4k3/8/8/4K3/3NN3/8 b - - 0 1",
            "1-0",
            None,
        ),
        &[("result", "1-0"), ("reason", "flag-fall")],
    );
}

#[test]
fn same_and_opposite_coloured_bishops() {
    // Same colour: dead, whatever the clocks say.
    for rules in ["fide-rapid", "uscf"] {
        assert_cells(
            &flag(rules, "5b2/8/4k3/8/8/8/8/2B1K3 b - - 0 1", "1-0", None),
            &[("result", "1/2-1/2"), ("reason", "dead-position")],
        );
    }
    // Opposite colours: a helpmate exists (FIDE win); USCF 14E2 with the tables: no forced win.
    let fen = "5b2/8/4k3/8/8/8/8/3BK3 b - - 0 1";
    assert_cells(
        &flag("fide-rapid", fen, "1-0", None),
        &[("result", "1-0"), ("reason", "flag-fall")],
    );
    assert_cells(
        &flag("uscf", fen, "1-0", tables()),
        &[("result", "1/2-1/2"), ("rule", "USCF 14E2")],
    );
}

#[test]
fn locked_pawn_wall() {
    // White flags; Black's bishop can never reach White's king: FIDE draws,
    // USCF 14E has no list entry for a wall, so Black wins.
    let fen = "5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 1";
    let fide = flag("fide-rapid", fen, "0-1", None);
    assert_cells(
        &fide,
        &[
            ("result", "1/2-1/2"),
            ("reason", "flag-fall-cannot-mate"),
            ("rule", "FIDE 6.9"),
        ],
    );
    assert_detail_contains(&fide, "Black cannot mate");
    assert_cells(
        &flag("uscf", fen, "0-1", None),
        &[("result", "0-1"), ("reason", "flag-fall")],
    );
}

#[test]
fn forced_moves_into_a_dead_position() {
    // White's only move leads on to a blocked, dead structure.
    let fen = "8/1p6/kPp5/2P3p1/1pP3Pb/1P4p1/6P1/7K w - - 0 1";
    for rules in ["fide-rapid", "uscf", "sabah-active30"] {
        assert_cells(
            &flag(rules, fen, "0-1", None),
            &[
                ("result", "1/2-1/2"),
                ("status", "corrected"),
                ("reason", "dead-position"),
                ("ply", ""),
            ],
        );
    }
}

#[test]
fn one_forced_move_into_stalemate() {
    // White's only legal move, Kxb6, stalemates Black: neither side can ever mate.
    let fen = "k7/P7/Kp6/1P6/8/8/8/8 w - - 0 1";
    let pos = parse_position(fen).unwrap();
    assert_eq!(can_mate(&pos, Side::White).verdict, Mateability::Unwinnable);
    assert_eq!(can_mate(&pos, Side::Black).verdict, Mateability::Unwinnable);
    for rules in ["fide-rapid", "uscf"] {
        // Recorded as a win for White on Black's flag: drawn, the forced move stalemates.
        let pgn = format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n1. Kxb6 1-0\n");
        let row = common::judge_one(rules, &pgn);
        assert_cells(&row, &[("result", "1/2-1/2"), ("status", "corrected")]);
        assert!(
            ["dead-position", "stalemate"].contains(&row["reason"].as_str()),
            "{rules}: {:?}",
            row
        );
    }
}

#[test]
fn resignation_in_a_dead_pawn_wall_is_a_draw() {
    // Recorded as a win for Black, who cannot mate; nor can White: dead.
    let pgn = "[FEN \"8/1p6/kPp3p1/2P3p1/1pP3Pb/1P4p1/6P1/7K w - - 0 1\"]\n[SetUp \"1\"]\n[Result \"0-1\"]\n\n0-1\n";
    let row = common::judge_one("fide-rapid", pgn);
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("reason", "dead-position"),
            ("rule", "FIDE 5.2.2"),
        ],
    );
}
