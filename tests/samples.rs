//! The shipped samples, judged under the ruleset each was written for, cell
//! by cell. These are the cases a new user sees first.

use crate::common;

use common::{assert_cells, assert_detail_contains, run_paths, sample, Row};

fn rows(rules: &str, file: &str) -> Vec<Row> {
    let (rows, summary) = run_paths(rules, &[sample(file)]);
    assert!(summary.errors.is_empty(), "{:?}", summary.errors);
    rows
}

#[test]
fn ddcl_league_match_under_ecf_quickplay() {
    let r = rows("ecf-quickplay", "ddcl-league-match.pgn");
    assert_eq!(r.len(), 5);
    // Board 1: through the time control; the +15 minute setback after move 36 is no anomaly.
    assert_cells(
        &r[0],
        &[
            ("game", "1"),
            ("white", "Hartley, Ian"),
            ("time_control", "36/4500:900"),
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "resignation-or-agreement"),
            ("rule", "FIDE 5.1.2"),
            ("white_clock", "1:18:14"),
            ("black_clock", "1:18:15"),
            ("plies", "93"),
        ],
    );
    assert!(!r[0]["detail"].contains("anomaly"), "{}", r[0]["detail"]);
    // Board 2: both flags down after move 36: ECF QPF 10.
    assert_cells(
        &r[1],
        &[
            ("recorded_result", "0-1"),
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "both-flags-down"),
            ("rule", "ECF QPF 10"),
            ("ply", "82"),
            ("move", "g5"),
            ("white_clock", "0:00:00.0"),
            ("black_clock", "0:00:00.0"),
        ],
    );
    assert_detail_contains(&r[1], "in the final period (36/4500:900): drawn");
    // Board 3: White flags against a lone knight; a helpmate exists with the pawn, so Black wins.
    assert_cells(
        &r[2],
        &[
            ("result", "0-1"),
            ("status", "confirmed"),
            ("reason", "flag-fall"),
            ("rule", "ECF QPF 9"),
            ("ply", "8"),
            ("move", "Kc6"),
            ("white_clock", "0:00:00"),
            ("black_clock", "0:02:12"),
            ("plies", "8"),
        ],
    );
    assert_detail_contains(&r[2], "Black can mate with K+N v K+P");
    // Board 4: a dead position was reached before the flag: FIDE 5.2.2 overrides it.
    assert_cells(
        &r[3],
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "dead-position"),
            ("rule", "FIDE 5.2.2"),
            ("ply", "1"),
            ("move", "Bxg7"),
            ("white_clock", "0:00:30"),
            ("black_clock", ""),
            ("plies", "1"),
            ("final_fen", "8/6B1/4k3/8/8/4K3/8/8 b - - 0 55"),
        ],
    );
    assert_detail_contains(
        &r[3],
        "after 55. Bxg7; the moves recorded after it (55... Kf5 to 57... Kf5) came after the game had ended",
    );
    assert_cells(
        &r[4],
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "checkmate"),
            ("rule", "FIDE 5.1.1"),
            ("ply", "49"),
            ("move", "Qg7#"),
        ],
    );
}

#[test]
fn bcf_rapid_club_night() {
    let r = rows("bcf-rapid", "bcf-rapid-club-night.pgn");
    assert_eq!(r.len(), 3);
    assert_cells(
        &r[0],
        &[
            ("result", "0-1"),
            ("status", "confirmed"),
            ("reason", "illegal-move"),
            ("rule", "BCF RP 12"),
            ("ply", "41"),
            ("move", "Kf2"),
            ("white_clock", "0:04:18"),
            ("black_clock", "0:04:30"),
            ("plies", "40"),
        ],
    );
    assert_detail_contains(&r[0], "White has 0:04:18, under 5:00: the move loses");
    assert_cells(
        &r[1],
        &[
            ("result", "*"),
            ("status", "review"),
            ("reason", "illegal-move"),
            ("rule", "BCF RP 12; FIDE 7.5.5"),
            ("ply", "63"),
            ("move", "Kg4"),
        ],
    );
    assert_detail_contains(&r[1], "both clocks at 0:05:00 or more");
    assert_cells(
        &r[2],
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "illegal-move-stands"),
            ("rule", "BCF RP 13; FIDE 5.1.2"),
            ("ply", "38"),
            ("move", "Kd7"),
            ("plies", "45"),
        ],
    );
    assert_detail_contains(
        &r[2],
        "19... Kd7 by Black was illegal and stood once White replied (BCF RP 13)",
    );
}

#[test]
fn fide_rapid_open() {
    let r = rows("fide-rapid", "fide-rapid-open.pgn");
    assert_eq!(r.len(), 5);
    // Resignation against a bare king: FIDE 5.1.2.
    assert_cells(
        &r[0],
        &[
            ("recorded_result", "1-0"),
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "resignation-or-agreement"),
            ("rule", "FIDE 5.1.2"),
            ("ply", ""),
            ("plies", "3"),
        ],
    );
    assert_detail_contains(&r[0], "White cannot mate with K");
    assert_cells(
        &r[1],
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "stalemate"),
            ("rule", "FIDE 5.2.1"),
            ("ply", "1"),
            ("move", "Kf7"),
        ],
    );
    assert_cells(
        &r[2],
        &[
            ("result", "1/2-1/2"),
            ("status", "confirmed"),
            ("reason", "fivefold-repetition"),
            ("rule", "FIDE 9.6.1"),
            ("ply", "16"),
            ("move", "Ra8"),
            ("plies", "16"),
        ],
    );
    assert_detail_contains(
        &r[2],
        "the moves recorded after it (48. Re1 to 48... Re8) came after the game had ended",
    );
    assert_cells(
        &r[3],
        &[
            ("result", "0-1"),
            ("status", "confirmed"),
            ("reason", "checkmate"),
            ("ply", "40"),
            ("move", "Bh4#"),
        ],
    );
    assert_cells(
        &r[4],
        &[
            ("result", "*"),
            ("status", "review"),
            ("reason", "unterminated"),
            ("plies", "30"),
        ],
    );
}

#[test]
fn sabah_active30() {
    let r = rows("sabah-active30", "sabah-active30.pgn");
    assert_eq!(r.len(), 4);
    assert_cells(
        &r[0],
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "flag-fall"),
            ("rule", "Sabah iii.1(c)"),
            ("ply", "61"),
            ("black_clock", "0:00:09"),
        ],
    );
    assert_cells(
        &r[1],
        &[
            ("recorded_result", "1-0"),
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "both-flags-down"),
            ("rule", "Sabah iii.2"),
            ("ply", "70"),
        ],
    );
    assert_cells(
        &r[2],
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "illegal-move-stands"),
            ("rule", "Sabah v.7; Sabah iii.1(b)"),
            ("ply", "84"),
            ("move", "Kf5"),
        ],
    );
    assert_cells(
        &r[3],
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "flag-unclaimed"),
            ("rule", "Sabah v.5; Sabah iii.1(a)"),
            ("ply", "117"),
            ("move", "Bf6#"),
            ("black_clock", "0:00:00.0"),
        ],
    );
    assert_detail_contains(
        &r[3],
        "Black's flag fell at 56... Kh8 (0:00:00.0) and play went on",
    );
}

#[test]
fn hs_league() {
    let r = rows("hs-league", "hs-league.pgn");
    assert_eq!(r.len(), 2);
    // USCF 14E2: K+N v K+P is a draw unless a forced win. The search rules
    // out a forced mate within five moves, not a longer one: without the
    // tables nothing shows there is none, so review.
    assert_cells(
        &r[0],
        &[
            ("result", "*"),
            ("status", "review"),
            ("reason", "flag-fall-cannot-mate"),
            ("rule", "USCF 14E2"),
            ("ply", "6"),
        ],
    );
    assert_detail_contains(
        &r[0],
        "no forced mate within 5 moves, and a longer forced win is not ruled out",
    );
    assert_cells(
        &r[1],
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "both-flags-down"),
            ("rule", "USCF 14G"),
            ("ply", "60"),
        ],
    );
}

#[test]
fn same_lone_knight_flag_differs_between_fide_and_uscf() {
    let (fide, _) = run_paths("fide-rapid", &[sample("hs-league.pgn")]);
    assert_cells(
        &fide[0],
        &[
            ("result", "0-1"),
            ("reason", "flag-fall"),
            ("rule", "FIDE 6.9"),
        ],
    );
    // USCF 14E2 draws it only without a forced win, which takes the tables.
    let (uscf, _) = run_paths("uscf", &[sample("hs-league.pgn")]);
    assert_cells(
        &uscf[0],
        &[("result", "*"), ("status", "review"), ("rule", "USCF 14E2")],
    );
}

#[test]
fn whole_samples_folder_reads_every_game() {
    let (rows, summary) = run_paths("fide-rapid", &[sample("")]);
    // 31 games in the sample collections, 7 claim scoresheets.
    assert_eq!(rows.len(), 38);
    assert_eq!(summary.games, 38);
    // Sorted by path, so the order is stable.
    assert!(rows[0]["source"].ends_with("active30-rated-list.pgn"));
    assert!(rows[14]["source"].ends_with("claims/bcf-illegal.pgn"));
    assert!(rows[37]["source"].ends_with("season/f1-board1.pgn"));
}
