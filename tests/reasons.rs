//! One hand-built game per reason code, with the exact cells it produces,
//! and the reading traps real files set (pgn-reader's among them).

use crate::common;

use std::collections::HashSet;

use arbiter::model::Reason;
use common::{assert_cells, assert_detail_contains, judge, judge_one, Row};

#[test]
fn checkmate() {
    let row = judge_one(
        "fide-rapid",
        "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    assert_cells(
        &row,
        &[
            ("result", "0-1"),
            ("status", "confirmed"),
            ("reason", "checkmate"),
            ("rule", "FIDE 5.1.1"),
            ("ply", "4"),
            ("move", "Qh4#"),
            ("plies", "4"),
            (
                "final_fen",
                "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            ),
        ],
    );
}

#[test]
fn checkmate_beats_a_recorded_draw() {
    let row = judge_one(
        "fide-rapid",
        "[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n",
    );
    assert_cells(
        &row,
        &[
            ("recorded_result", "1/2-1/2"),
            ("result", "0-1"),
            ("status", "corrected"),
            ("reason", "checkmate"),
        ],
    );
}

/// PGN 8.2.6: the termination marker must match the Result tag. Where
/// they differ and nothing on the board decides, the record contradicts
/// itself: review, naming both. A mate decides whatever either says.
#[test]
fn a_result_tag_and_a_termination_marker_that_differ() {
    let row = judge_one("hs-league", "[Result \"1-0\"]\n\n1. d4 d5 2. c4 e6 0-1\n");
    assert_cells(
        &row,
        &[
            ("recorded_result", "1-0"),
            ("result", "*"),
            ("status", "review"),
            ("reason", "resignation-or-agreement"),
            ("rule", "PGN 8.2.6"),
        ],
    );
    // Why first, where a review page's short view shows it.
    assert_eq!(
        row["detail"],
        "the Result tag says 1-0 and the moves end 0-1: the record contradicts itself on how the game ended, so its result is not confirmed; as recorded: Black loses by resignation or agreement; no board or clock evidence against it",
    );
    let row = judge_one("hs-league", "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
    assert_cells(
        &row,
        &[
            ("result", "0-1"),
            ("status", "corrected"),
            ("reason", "checkmate"),
            ("rule", "USCF 13A"),
        ],
    );
    assert_detail_contains(&row, "; the Result tag says 1-0 and the moves end 0-1");
    // A drawn tag and a drawn marker written differently agree.
    let row = judge_one(
        "hs-league",
        "[Result \"1/2-1/2\"]\n\n1. d4 d5 2. c4 e6 ½-½\n",
    );
    assert_cells(&row, &[("result", "1/2-1/2"), ("status", "confirmed")]);
    // A tag not a result beside a marker that is one: the record does not
    // say plainly how the game ended.
    let row = judge_one("hs-league", "[Result \"1:0\"]\n\n1. d4 d5 2. c4 e6 1-0\n");
    assert_cells(
        &row,
        &[
            ("recorded_result", "*"),
            ("result", "*"),
            ("status", "review"),
        ],
    );
    assert_detail_contains(
        &row,
        "the Result tag \"1:0\" is not a result (1-0, 0-1, 1/2-1/2 or *), though the moves end 1-0 after 2... e6: the record does not say plainly how the game ended",
    );
    // A tag written but not as a result is said as written.
    let row = judge_one("hs-league", "[Result \"1:0\"]\n\n1. d4 d5 2. c4 e6 *\n");
    assert_cells(&row, &[("recorded_result", "*"), ("status", "review")]);
    assert_detail_contains(
        &row,
        "the Result tag \"1:0\" is not a result (1-0, 0-1, 1/2-1/2 or *), so none is recorded; the game is unfinished after 2... e6",
    );
}

/// An illegal move that would stand unnoticed once the game is over
/// (USCF 11D1d) is reinstated where the record ends on a second illegal
/// move: that one was claimed, so both were found during the game. The
/// detail names the last one, which is why the first does not stand.
#[test]
fn an_unnoticed_illegal_move_before_a_claimed_one_is_reinstated_saying_why() {
    let game = "[Result \"1-0\"]\n\n1. e4 f5 2. Qh5+ Kf7 3. exf5 g6 4. fxg6+ hxg6 5. Qxh8 Nf6 6. d3 Kg8 1-0\n";
    let row = judge_one("hs-league", game);
    assert_cells(
        &row,
        &[
            ("result", "*"),
            ("status", "review"),
            ("reason", "illegal-move"),
            ("rule", "USCF 11A"),
            ("ply", "4"),
        ],
    );
    assert_detail_contains(
        &row,
        "2... Kf7 by Black is illegal: the king would stand on f7, attacked by the queen on h5; the position must be reinstated and the moves recorded after it cannot be judged; 6... Kg8 by Black, the record's last move, is illegal too: the record ends on it, so the illegal moves were found during the game",
    );
    // Without the last one, the first stood unnoticed and the game is over.
    let row = judge_one("hs-league", &game.replace(" Kg8", " Ke8"));
    assert_cells(
        &row,
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "illegal-move-stands"),
            ("rule", "USCF 11D1d; USCF 13B"),
        ],
    );
}

/// USCF 11A reinstates an illegal move among either player's last ten
/// moves; one found before them stands (11B). A game stopped at a claim
/// (`*`) on 15... Kf7, with 2... Kf7 illegal thirteen Black moves before:
/// the whole record went back to move 2, and the move claimed was not
/// named. With 2... Kf7 nine Black moves before the claim, it is within
/// the window and reinstated.
#[test]
fn uscf_reinstates_an_illegal_move_only_within_the_last_ten() {
    let game = "[Result \"*\"]\n\n1. e4 f5 2. Qh5+ Kf7 3. Qh3 Nf6 4. Nc3 Nc6 5. Nf3 e6 6. Be2 Be7 7. O-O Rf8 8. d3 a6 9. a3 b6 10. Rb1 Bb7 11. Re1 Qe8 12. Bd2 Rd8 13. Bf1 Rc8 14. Qh4 Kg8 15. Ng5 Kf7 *\n";
    for ruleset in ["hs-league", "uscf"] {
        let row = judge_one(ruleset, game);
        assert_cells(
            &row,
            &[
                ("result", "*"),
                ("status", "review"),
                ("reason", "illegal-move"),
                ("ply", "30"),
                ("move", "Kf7"),
            ],
        );
        assert_detail_contains(
            &row,
            "15... Kf7 by Black is illegal: the king would stand on f7, attacked by the knight on g5; 120 s added to White's clock and the position reinstated; the record ends here; 2... Kf7 by Black was illegal and stands: Black made 13 moves after it, so it is not among the last 10 (USCF 11B)",
        );
    }
    // Nine Black moves after it: among the last ten, reinstated.
    let recent = "[Result \"*\"]\n\n1. e4 f5 2. Qh5+ Kf7 3. Qh3 Nf6 4. Nc3 Nc6 5. Nf3 e6 6. Be2 Be7 7. O-O Rf8 8. d3 a6 9. a3 b6 10. Rb1 Bb7 11. Re1 Qe8 *\n";
    let row = judge_one("hs-league", recent);
    assert_cells(
        &row,
        &[
            ("status", "review"),
            ("reason", "illegal-move"),
            ("rule", "USCF 11A"),
            ("ply", "4"),
        ],
    );
    // Ten: before the last ten, it stands and the game is judged on.
    let old = recent.replace("Qe8 *", "Qe8 12. Bd2 Rd8 *");
    let row = judge_one("hs-league", &old);
    assert_cells(&row, &[("result", "*"), ("reason", "unterminated")]);
    assert_detail_contains(&row, "2... Kf7 by Black was illegal and stands: Black made 10 moves after it, so it is not among the last 10 (USCF 11B)");
}

#[test]
fn stalemate() {
    let row = judge_one("fide-rapid", "[FEN \"7k/8/5KQ1/8/8/8/8/8 w - - 0 61\"]\n[SetUp \"1\"]\n[Result \"1-0\"]\n\n61. Kf7 1-0\n");
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "stalemate"),
            ("rule", "FIDE 5.2.1"),
            ("ply", "1"),
            ("move", "Kf7"),
        ],
    );
}

#[test]
fn dead_position_ends_the_game_whatever_follows() {
    let row = judge_one("fide-rapid", "[FEN \"8/8/4k3/8/8/4K3/4B3/5r2 w - - 0 1\"]\n[SetUp \"1\"]\n[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n1. Bxf1 Kd6 2. Kd2 1-0\n");
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "dead-position"),
            ("rule", "FIDE 5.2.2"),
            ("ply", "1"),
            ("move", "Bxf1"),
            ("plies", "1"),
        ],
    );
    assert_detail_contains(&row, "(K+B v K)");
    assert_detail_contains(
        &row,
        "the moves recorded after it (1... Kd6 to 2. Kd2) came after the game had ended",
    );
    // Dead as set up: the position set up, not the start position.
    let row = judge_one(
        "fide-rapid",
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 40\"]\n[Result \"1-0\"]\n\n40. Kd2 Kd7 1-0\n",
    );
    assert_cells(&row, &[("result", "1/2-1/2"), ("reason", "dead-position")]);
    assert_detail_contains(
        &row,
        "dead position: neither side can mate (K+4P v K+4P) in the position set up (FEN); the moves recorded after it (40. Kd2 to 40... Kd7)",
    );
}

#[test]
fn fivefold_repetition() {
    let row = judge_one("fide-rapid", "[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 1/2-1/2\n");
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("status", "confirmed"),
            ("reason", "fivefold-repetition"),
            ("rule", "FIDE 9.6.1"),
            ("ply", "16"),
        ],
    );
}

#[test]
fn seventy_five_moves() {
    let row = judge_one("fide-rapid", "[FEN \"8/8/4k3/8/8/4K3/R7/r7 w - - 145 100\"]\n[SetUp \"1\"]\n[Result \"1-0\"]\n\n100. Ra3 Rb1 101. Ra4 Rb2 102. Ra5 Rb3+ 1-0\n");
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "seventy-five-moves"),
            ("rule", "FIDE 9.6.2"),
            ("ply", "5"),
            ("move", "Ra5"),
            ("plies", "5"),
        ],
    );
    let uscf = judge_one("uscf", "[FEN \"8/8/4k3/8/8/4K3/R7/r7 w - - 145 100\"]\n[SetUp \"1\"]\n[Result \"1-0\"]\n\n100. Ra3 Rb1 101. Ra4 Rb2 102. Ra5 Rb3+ 1-0\n");
    assert_cells(
        &uscf,
        &[("result", "1-0"), ("reason", "resignation-or-agreement")],
    );
}

#[test]
fn flag_fall_and_flag_fall_cannot_mate() {
    let win = judge_one("fide-blitz", "[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"60+0\"]\n\n1. e4 { [%clk 0:00:58] } 1... e5 { [%clk 0:00:59] } 2. Nf3 { [%clk 0:00:00] } 2... Nc6 { [%clk 0:00:57] } 0-1\n");
    assert_cells(
        &win,
        &[
            ("result", "0-1"),
            ("status", "confirmed"),
            ("reason", "flag-fall"),
            ("rule", "FIDE 6.9"),
            ("ply", "4"),
            ("white_clock", "0:00:00"),
            ("black_clock", "0:00:57"),
        ],
    );
    let draw = judge_one("fide-blitz", "[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n[FEN \"8/8/4k3/8/8/4K3/4P3/8 w - - 0 60\"]\n[SetUp \"1\"]\n\n60. Kd3 { [%clk 0:00:01] } 60... Kd5 { [%clk 0:00:30] } 0-1\n");
    assert_cells(
        &draw,
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "flag-fall-cannot-mate"),
            ("rule", "FIDE 6.9"),
            ("ply", "2"),
        ],
    );
    assert_detail_contains(&draw, "Black cannot mate with K");
}

#[test]
fn zero_clock_alone_is_not_a_flag() {
    // Whole-second exports write 0:00:00 for "under a second": play went on, resigned later.
    let row = judge_one("fide-blitz", "[Result \"1-0\"]\n[TimeControl \"60+1\"]\n\n1. e4 { [%clk 0:00:00] } 1... e5 { [%clk 0:00:50] } 2. Nf3 { [%clk 0:00:01] } 1-0\n");
    assert_cells(
        &row,
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "resignation-or-agreement"),
        ],
    );
    // Both last clocks at whole-second zero and one time forfeit: a single flag.
    let row = judge_one("fide-blitz", "[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"60+0\"]\n\n1. e4 { [%clk 0:00:00] } 1... e5 { [%clk 0:00:00] } 1-0\n");
    assert_cells(&row, &[("result", "1-0"), ("reason", "flag-fall")]);
}

#[test]
fn flag_evidenced_by_the_clock_alone() {
    // No Termination tag: Black to move with 0:00:00 and the result scored against Black.
    let row = judge_one("fide-rapid", "[Result \"1-0\"]\n[FEN \"8/8/4k3/8/8/4K3/4P3/8 w - - 0 60\"]\n[SetUp \"1\"]\n\n60. Kd3 { [%clk 0:01:00] } 60... Kd5 { [%clk 0:00:00] } 61. Kc3 { [%clk 0:00:59] } 1-0\n");
    assert_cells(
        &row,
        &[
            ("result", "1-0"),
            ("reason", "flag-fall"),
            ("rule", "FIDE 6.9"),
            ("ply", "3"),
        ],
    );
    assert_detail_contains(&row, "shown by the clock");
}

#[test]
fn both_flags_down() {
    let row = judge_one("sabah-active30", "[Result \"1-0\"]\n[Termination \"Both flags down\"]\n[TimeControl \"1800\"]\n\n1. d4 d5 2. c4 e6 1-0\n");
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "both-flags-down"),
            ("rule", "Sabah iii.2"),
            ("ply", "4"),
        ],
    );
    assert_detail_contains(&row, "shown by the Termination tag");
}

#[test]
fn flag_unclaimed() {
    let pgn = "[Result \"0-1\"]\n[TimeControl \"300\"]\n\n1. f3 { [%clk 0:00:00.0] } 1... e5 { [%clk 0:04:00.0] } 2. g4 { [%clk 0:00:00.0] } 2... Qh4# { [%clk 0:03:55.0] } 0-1\n";
    let sabah = judge_one("sabah-active30", pgn);
    assert_cells(
        &sabah,
        &[
            ("result", "0-1"),
            ("status", "confirmed"),
            ("reason", "flag-unclaimed"),
            ("rule", "Sabah v.5; Sabah iii.1(a)"),
            ("ply", "4"),
        ],
    );
    // Under FIDE the arbiter calls flags he sees (6.8): an arbiter decides.
    let fide = judge_one("fide-rapid", pgn);
    assert_cells(
        &fide,
        &[
            ("result", "*"),
            ("status", "review"),
            ("reason", "flag-unclaimed"),
            ("rule", "FIDE 6.8"),
            ("ply", "1"),
        ],
    );
}

/// A flag at 0:00:00.0 on the last move, by a side the result does not
/// score as losing (a win or a draw recorded): it fell before the game
/// ended, and was not called; as a flag that fell with play going on.
/// Both were confirmed, "no board or clock evidence against it".
#[test]
fn a_flag_down_on_the_last_move_of_a_side_not_scored_as_losing() {
    let game = |result: &str| {
        format!("[Result \"{result}\"]\n[TimeControl \"900\"]\n\n1. e4 {{ [%clk 0:09:59] }} e5 {{ [%clk 0:09:59] }} 2. Nf3 {{ [%clk 0:09:58] }} Nc6 {{ [%clk 0:00:00.0] }} {result}\n")
    };
    for result in ["0-1", "1/2-1/2"] {
        let fide = judge_one("fide-rapid", &game(result));
        assert_cells(
            &fide,
            &[
                ("result", "*"),
                ("status", "review"),
                ("reason", "flag-unclaimed"),
                ("rule", "FIDE 6.8"),
                ("ply", "4"),
            ],
        );
        assert_eq!(
            fide["detail"],
            format!("Black's flag fell at 2... Nc6 (0:00:00.0), the last move recorded, and the result ({result}) does not score it as lost: it fell before the game ended by resignation or agreement")
        );
        // Where a flag must be claimed, the result stands, said so.
        let sabah = judge_one("sabah-active30", &game(result));
        assert_cells(&sabah, &[("result", result), ("reason", "flag-unclaimed")]);
        assert_detail_contains(&sabah, "not claimed, so it does not count");
    }
    // Scored as lost: a flag fall, as before.
    let row = judge_one("fide-rapid", &game("1-0"));
    assert_cells(&row, &[("result", "1-0"), ("status", "confirmed")]);
    // No result recorded: the game is unfinished, as before.
    let row = judge_one("fide-rapid", &game("*"));
    assert_cells(&row, &[("reason", "unterminated")]);
    // A draw the flag would give too (a bare king cannot mate): it stands.
    let row = judge_one(
        "fide-rapid",
        "[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K2R w - - 0 1\"]\n[TimeControl \"900\"]\n\n1. Rh2 { [%clk 0:01:00] } Kd7 { [%clk 0:01:00] } 2. Rh3 { [%clk 0:00:00.0] } 1/2-1/2\n",
    );
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("status", "confirmed"),
            ("reason", "resignation-or-agreement"),
        ],
    );
    assert_detail_contains(&row, "White's flag fell at 2. Rh3 (0:00:00.0), the last move recorded, and gives the draw recorded all the same: Black cannot mate");
}

/// A mate by a side whose clock shows 0:00:00.0 on the mating move, with
/// another result recorded (a time forfeit): which came first decides,
/// and the record does not say. It was corrected to the mate. With the
/// mate's result recorded, nothing conflicts.
#[test]
fn a_mate_on_a_move_whose_clock_shows_the_flag_down() {
    let game = |result: &str| {
        format!("[Result \"{result}\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"900+10\"]\n\n1. e4 {{ [%clk 0:15:00] }} e5 {{ [%clk 0:15:00] }} 2. Bc4 {{ [%clk 0:15:05] }} Nc6 {{ [%clk 0:15:05] }} 3. Qh5 {{ [%clk 0:15:10] }} Nf6 {{ [%clk 0:15:10] }} 4. Qxf7# {{ [%clk 0:00:00.0] }} {result}\n")
    };
    let row = judge_one("fide-rapid", &game("0-1"));
    assert_cells(
        &row,
        &[
            ("result", "*"),
            ("status", "review"),
            ("reason", "checkmate"),
            ("rule", "FIDE 5.1.1; FIDE 6.9"),
            ("ply", "7"),
        ],
    );
    assert_eq!(
        row["detail"],
        "Black mated after 4. Qxf7#, but White's clock shows 0:00:00.0 on that move and the result recorded is 0-1: whether the flag fell before the move was made decides the game, and the record does not say"
    );
    let row = judge_one("fide-rapid", &game("1-0"));
    assert_cells(
        &row,
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "checkmate"),
        ],
    );
    // Nothing on the record gives the flag (a draw recorded, no time
    // Termination): the mate, corrected, as before.
    let row = judge_one(
        "fide-rapid",
        &game("1/2-1/2").replace("[Termination \"Time forfeit\"]\n", ""),
    );
    assert_cells(
        &row,
        &[
            ("result", "1-0"),
            ("status", "corrected"),
            ("reason", "checkmate"),
        ],
    );
}

#[test]
fn resignation_or_agreement() {
    let row = judge_one(
        "fide-rapid",
        "[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n",
    );
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("status", "confirmed"),
            ("reason", "resignation-or-agreement"),
            ("rule", "FIDE 5.2.3"),
            ("ply", ""),
        ],
    );
    let row = judge_one(
        "fide-rapid",
        "[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nc6 0-1\n",
    );
    assert_cells(
        &row,
        &[
            ("result", "0-1"),
            ("status", "confirmed"),
            ("reason", "resignation-or-agreement"),
            ("rule", "FIDE 5.1.2"),
        ],
    );
}

/// FIDE 5.2.3: a draw is agreed "provided both players have made at least
/// one move". A draw after White's first move alone is no agreed draw; a
/// record of no moves is a result, standing as results do (FIDE 10.1). The
/// USCF has no such condition.
#[test]
fn a_draw_agreed_before_black_moved() {
    let one = "[Result \"1/2-1/2\"]\n\n1. e4 1/2-1/2\n";
    let row = judge_one("fide-rapid", one);
    assert_cells(
        &row,
        &[
            ("result", "*"),
            ("status", "review"),
            ("reason", "resignation-or-agreement"),
            ("rule", "FIDE 5.2.3"),
            ("plies", "1"),
            (
                "detail",
                "drawn after 1. e4 alone: a draw is agreed only once both players have made a move, so the record does not show how the game was drawn",
            ),
        ],
    );
    let row = judge_one("uscf", one);
    assert_cells(&row, &[("result", "1/2-1/2"), ("status", "confirmed")]);
    // From a set-up position the moves before it are not on the record.
    let row = judge_one(
        "fide-rapid",
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K2R w K - 0 30\"]\n[Result \"1/2-1/2\"]\n\n30. Kf1 1/2-1/2\n",
    );
    assert_cells(&row, &[("result", "1/2-1/2"), ("status", "confirmed")]);
    // Chess960 starts at move 1 from a FEN: White's first move alone.
    let row = judge_one(
        "fide-rapid",
        "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n[Result \"1/2-1/2\"]\n\n1. e4 1/2-1/2\n",
    );
    assert_cells(&row, &[("result", "*"), ("status", "review")]);
    // Set up with Black to move at move 1: White has moved already.
    let row = judge_one(
        "fide-rapid",
        "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n[Result \"1/2-1/2\"]\n\n1... e5 1/2-1/2\n",
    );
    assert_cells(&row, &[("result", "1/2-1/2"), ("status", "confirmed")]);
    let row = judge_one("fide-rapid", "[Result \"1/2-1/2\"]\n\n1/2-1/2\n");
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("status", "confirmed"),
            ("reason", "no-moves"),
            ("rule", "FIDE 10.1"),
        ],
    );
}

/// Moves with no termination marker at a file's end: the record may be
/// cut, so the result it gives goes to review, the doubt said first; a
/// tag with no closing quote is read to its line's end and said.
#[test]
fn a_record_cut_after_its_moves_says_so_first() {
    let row = judge_one(
        "fide-rapid",
        "[White \"Quote, E]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3\n",
    );
    assert_cells(
        &row,
        &[
            ("white", "Quote, E"),
            ("result", "*"),
            ("status", "review"),
            ("reason", "unterminated"),
            ("rule", "PGN 8.2.6"),
            (
                "detail",
                "the moves end without a game termination marker (1-0, 0-1, 1/2-1/2 or *): the record may be cut short, so how the game ended is not confirmed; as recorded: Black loses by resignation or agreement; no board or clock evidence against it; the White tag's value has no closing quote: read to the end of its line",
            ),
        ],
    );
}

#[test]
fn unterminated_and_no_moves() {
    // Recorded as unfinished, and nothing decides it: `*` against `*`
    // confirms nothing, and an arbiter must say.
    let row = judge_one("fide-rapid", "[Result \"*\"]\n\n1. e4 e5 *\n");
    assert_cells(
        &row,
        &[
            ("result", "*"),
            ("status", "review"),
            ("reason", "unterminated"),
            ("plies", "2"),
        ],
    );
    let row = judge_one(
        "fide-rapid",
        "[Event \"Default\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1-0\n",
    );
    assert_cells(
        &row,
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "no-moves"),
            ("plies", "0"),
        ],
    );
}

#[test]
fn garbled_move_is_a_parse_error_with_its_line() {
    // pgn-reader would skip `Xq9` and play Bb5 as White's third move.
    let rows = judge("fide-rapid", "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Xq9 Bb5 1-0\n");
    assert_eq!(rows.len(), 2);
    assert_cells(
        &rows[1],
        &[
            ("game", "2"),
            ("result", "*"),
            ("status", "unreadable"),
            ("reason", "parse-error"),
            // PGN 8.2.3: moves are written in SAN.
            ("rule", "PGN 8.2.3"),
            ("ply", "5"),
            ("move", "Xq9"),
            ("plies", "4"),
        ],
    );
    assert_detail_contains(&rows[1], "line 10: 3. \"Xq9\" is not a move");
}

/// A mate ends the game: a result mistyped after it ("1-O") is read past,
/// and said, rather than making the game unreadable.
#[test]
fn a_mistyped_result_after_mate_leaves_the_mate_standing() {
    let row = judge_one(
        "hs-league",
        "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-O\n",
    );
    assert_cells(
        &row,
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "checkmate"),
            ("rule", "USCF 13A"),
            ("plies", "7"),
        ],
    );
    assert_detail_contains(
        &row,
        "Black mated after 4. Qxf7#; after the game ended on the board, line 3: \"1-O\" is not a move (nor a result): it is read past",
    );
    // Before the mate, the same token stops the record.
    let row = judge_one(
        "hs-league",
        "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 1-O Nf6 4. Qxf7#\n",
    );
    assert_cells(&row, &[("status", "unreadable"), ("reason", "parse-error")]);
}

/// A flag ruling needs a record that agrees with itself on whose flag
/// fell: a Termination naming the other side, or a loser who had just
/// moved with time on his stopped clock, goes to review; a draw on time
/// that one flag would not give goes to review (both flags down would give
/// it); the winner's own clock at zero on the record makes both flags down.
#[test]
fn a_flag_ruling_rests_on_a_record_that_agrees_with_itself() {
    let game = |tags: &str, moves: &str| {
        format!(
            "[TimeControl \"36/4500:900\"]\n{tags}[SetUp \"1\"]\n[FEN \"r3k3/8/8/8/8/8/8/R3K3 w - - 0 50\"]\n\n{moves}\n"
        )
    };
    let cells = |r: &common::Row| {
        (
            r["status"].clone(),
            r["result"].clone(),
            r["reason"].clone(),
            r["rule"].clone(),
        )
    };
    let own = |a: &str, b: &str, c: &str, d: &str| {
        (a.to_string(), b.to_string(), c.to_string(), d.to_string())
    };
    // The Termination says Black won on time; the result says Black lost.
    let row = judge_one(
        "ecf-quickplay",
        &game(
            "[Termination \"Black won on time\"]\n[Result \"1-0\"]\n",
            "50. Kd2 Kd7 51. Kd3 Kd6 1-0",
        ),
    );
    assert_eq!(cells(&row), own("review", "*", "flag-fall", "ECF QPF 9"));
    assert_detail_contains(
        &row,
        "the Termination tag (\"Black won on time\") has White losing on time, and the result 1-0 has Black losing: the record contradicts itself",
    );
    // Black had just moved with 1:09:00 on his clock: it was stopped.
    let row = judge_one(
        "ecf-quickplay",
        &game(
            "[Termination \"time forfeit\"]\n[Result \"1-0\"]\n",
            "50. Kd2 { [%clk 0:00:05] } Kd7 { [%clk 1:09:10] } 51. Kd3 { [%clk 0:00:02] } Kd6 { [%clk 1:09:00] } 1-0",
        ),
    );
    assert_eq!(cells(&row), own("review", "*", "flag-fall", "ECF QPF 9"));
    assert_detail_contains(
        &row,
        "the result says Black's flag fell, but 51... Kd6 left 1:09:00 on Black's clock, which then stopped: White's was the one running",
    );
    // A draw on time, Black able to mate: not a loss for White on it.
    let row = judge_one(
        "ecf-quickplay",
        &game(
            "[Termination \"time forfeit\"]\n[Result \"1/2-1/2\"]\n",
            "50. Kd2 Kd7 51. Kd3 Kd6 1/2-1/2",
        ),
    );
    assert_eq!(cells(&row), own("review", "*", "flag-fall", "ECF QPF 9"));
    assert_detail_contains(
        &row,
        "but the result recorded is a draw, which one fallen flag does not give here",
    );
    // A site's "timeout vs insufficient material" says why it drew: the
    // ruleset's test replaces the site's.
    let row = judge_one(
        "ecf-quickplay",
        &game(
            "[Termination \"Game drawn by timeout vs insufficient material\"]\n[Result \"1/2-1/2\"]\n",
            "50. Kd2 Kd7 51. Kd3 Kd6 1/2-1/2",
        ),
    );
    assert_eq!(
        cells(&row),
        own("corrected", "0-1", "flag-fall", "ECF QPF 9")
    );
    // Black's clock at 0:00:00.0 on his own move, then White's flag: both
    // down. The DDCL draws (QPF 10); FIDE judges the first (III.3.1).
    let moves = "50. Kd2 { [%clk 0:02:00] } Kd7 { [%clk 0:00:10] } 51. Kd3 { [%clk 0:01:50] } Kd6 { [%clk 0:00:00.0] } 0-1";
    let tags = "[Termination \"time forfeit\"]\n[Result \"0-1\"]\n";
    let row = judge_one("ecf-quickplay", &game(tags, moves));
    assert_eq!(
        cells(&row),
        own("corrected", "1/2-1/2", "both-flags-down", "ECF QPF 10")
    );
    assert_detail_contains(
        &row,
        "both flags are down, shown by Black's clock at 0:00:00.0 and White's flag after it, in the final period (36/4500:900): drawn",
    );
    let row = judge_one("fide-rapid", &game(tags, moves));
    assert_eq!(
        cells(&row),
        own("corrected", "1-0", "flag-fall", "FIDE III.3.1; FIDE 6.9")
    );
    assert_detail_contains(
        &row,
        "Black's flag fell on 51... Kd6 (last recorded clock 0:00:00.0)",
    );
    // Black's clock at 0:00:00.0 once, then reading time again: an
    // anomaly, not a flag; White's flag alone, as the record says.
    let stale = "50. Kd2 { [%clk 0:02:00] } Kd7 { [%clk 0:00:00.0] } 51. Kd3 { [%clk 0:01:50] } Kd6 { [%clk 0:00:40] } 0-1";
    let row = judge_one("ecf-quickplay", &game(tags, stale));
    assert_eq!(
        cells(&row),
        own("confirmed", "0-1", "flag-fall", "ECF QPF 9")
    );
    // A player's name is a whole word: "Tim" is not in "time", so "Bob
    // won on time" names Black only, against a result for White.
    let row = judge_one(
        "ecf-quickplay",
        &game(
            "[White \"Tim\"]\n[Black \"Bob\"]\n[Termination \"Bob won on time\"]\n[Result \"1-0\"]\n",
            "50. Kd2 Kd7 51. Kd3 Kd6 1-0",
        ),
    );
    assert_eq!(cells(&row), own("review", "*", "flag-fall", "ECF QPF 9"));
    // The same with Black's last clock command broken (no closing `]`):
    // the clocks the ruling turns on are not all on record.
    let broken = moves.replace("[%clk 0:00:00.0]", "[%clk 0:00:00.0");
    let row = judge_one("ecf-quickplay", &game(tags, &broken));
    assert_eq!(cells(&row), own("review", "*", "flag-fall", "ECF QPF 9"));
    assert_detail_contains(
        &row,
        "the clock command after 51... Kd6 cannot be read, and a flag ruling rests on the clocks at the end: the record is incomplete, so no flag ruling is made on it; Black's clock command at move 51 cannot be read",
    );
}

/// A double default written `0-0`, in the Result tag and at the end of
/// the moves, is that score, not castling: review, the tag quoted as no
/// result (it was an illegal move, castling through the knight).
#[test]
fn a_score_of_0_0_is_not_castling() {
    let row = judge_one(
        "fide-rapid",
        "[Result \"0-0\"]\n\n1. e4 e5 2. Nf3 Nc6 0-0\n",
    );
    assert_cells(
        &row,
        &[
            ("status", "review"),
            ("result", "*"),
            ("reason", "unterminated"),
            ("plies", "4"),
            (
                "detail",
                "the Result tag \"0-0\" is not a result (1-0, 0-1, 1/2-1/2 or *), so none is recorded; the game is unfinished after 2... Nc6",
            ),
        ],
    );
    // Castling written with zeros before a real marker stays castling.
    let row = judge_one(
        "fide-rapid",
        "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 1-0\n",
    );
    assert_cells(&row, &[("status", "confirmed"), ("plies", "7")]);
}

/// A draw written as a scoresheet has it, `1/2` or `½`, or in points as
/// some club software writes it, `0.5-0.5`, ends the record as `1/2-1/2`
/// does; each was a token that is not a move (unreadable).
#[test]
fn a_draw_written_by_hand_ends_the_record() {
    for marker in ["1/2", "½", "0.5-0.5"] {
        let row = judge_one(
            "fide-rapid",
            &format!("[Result \"{marker}\"]\n\n1. e4 e5 2. Nf3 Nc6 {marker}\n"),
        );
        assert_cells(
            &row,
            &[
                ("recorded_result", "1/2-1/2"),
                ("status", "confirmed"),
                ("result", "1/2-1/2"),
                ("reason", "resignation-or-agreement"),
                ("plies", "4"),
            ],
        );
    }
}

/// Without a Result tag, the termination marker is the recorded result
/// (PGN 8.2.6); the game was "unfinished", its result lost.
#[test]
fn a_marker_without_a_result_tag_is_the_recorded_result() {
    let row = judge_one("fide-rapid", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 0-1\n");
    assert_cells(
        &row,
        &[
            ("recorded_result", "0-1"),
            ("result", "0-1"),
            ("status", "confirmed"),
            ("reason", "resignation-or-agreement"),
        ],
    );
    let row = judge_one(
        "fide-rapid",
        "[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    );
    assert_cells(
        &row,
        &[
            ("recorded_result", "1-0"),
            ("status", "confirmed"),
            ("reason", "checkmate"),
        ],
    );
    // `*` gives none.
    let row = judge_one("fide-rapid", "1. e4 e5 *\n");
    assert_cells(&row, &[("recorded_result", "*"), ("status", "review")]);
}

/// A record cut off after its tags (no moves, no marker) is not a default
/// that stands, and Black's flag cannot fall before White has moved; a
/// default written whole, with its marker, stands.
#[test]
fn a_record_cut_after_its_tags_is_not_confirmed() {
    let tags = "[White \"Khan, Imran\"]\n[Black \"Lowe, Stuart\"]\n[Result \"1-0\"]\n";
    let row = judge_one("bcf-rapid", tags);
    assert_cells(
        &row,
        &[
            ("result", "*"),
            ("status", "review"),
            ("reason", "unterminated"),
        ],
    );
    assert_eq!(
        row["detail"],
        "the record has tags and neither moves nor a game termination marker (1-0, 0-1, 1/2-1/2 or *): it may be cut short after its tags, so its result is not confirmed; as recorded: no moves recorded; the recorded win for White would stand",
    );
    let flagged = format!("{tags}[Termination \"time forfeit\"]\n");
    for text in [flagged.clone(), format!("{flagged}\n1-0\n")] {
        let row = judge_one("bcf-rapid", &text);
        assert_cells(
            &row,
            &[
                ("result", "*"),
                ("status", "review"),
                ("reason", "flag-fall"),
            ],
        );
        assert!(
            row["detail"].starts_with(
                "the result says Black's flag fell, but no move is recorded, so only White's clock had been started"
            ),
            "{}",
            row["detail"]
        );
    }
    let row = judge_one("bcf-rapid", &format!("{tags}\n1-0\n"));
    assert_cells(
        &row,
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "no-moves"),
        ],
    );
    // Tags alone with a game after them: a results list, as a broadcast's
    // tags-only export writes it; only the file's end may be a cut.
    let rows = judge("bcf-rapid", &format!("{tags}\n{tags}"));
    assert_cells(
        &rows[0],
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "no-moves"),
        ],
    );
    assert_cells(
        &rows[1],
        &[
            ("result", "*"),
            ("status", "review"),
            ("reason", "unterminated"),
        ],
    );
    // A file cut inside a tag: unreadable, naming the tag's line.
    let rows = judge(
        "bcf-rapid",
        &format!("{tags}\n1. e4 e5 1-0\n\n[White \"Reid, Tom\"]\n[Black \"Fenwick, Jo"),
    );
    assert_cells(&rows[0], &[("status", "confirmed")]);
    assert_cells(
        &rows[1],
        &[
            ("status", "unreadable"),
            (
                "detail",
                "cannot read the game: line 8: the file ends inside a tag, which is never closed: the record is cut short",
            ),
        ],
    );
    // Whole games that end a file with no line end, their last line
    // starting with `[`: a tag with the moves after it, a forum wrapper,
    // a clock comment run onto the line.
    for text in [
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"] 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        "[pgn][White \"A\"][Result \"1-0\"] 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {\n[%clk 0:00:50] } 1-0",
    ] {
        let row = judge_one("bcf-rapid", text);
        assert_cells(&row, &[("status", "confirmed"), ("reason", "checkmate")]);
    }
}

/// A win in points, `1.0-0.0`, is a termination marker: its `0-0` was read
/// as castling played after the mate.
#[test]
fn a_win_written_in_points_ends_the_record() {
    let row = judge_one(
        "fide-rapid",
        "[Result \"1.0-0.0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1.0-0.0\n",
    );
    assert_cells(
        &row,
        &[
            ("recorded_result", "1-0"),
            ("status", "confirmed"),
            ("reason", "checkmate"),
            ("plies", "7"),
            ("detail", "Black mated after 4. Qxf7#"),
        ],
    );
}

#[test]
fn unsupported_variant_and_null_move() {
    let row = judge_one(
        "fide-rapid",
        "[Variant \"Atomic\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
    );
    // Not judged, so no rule of play or scoring is cited (it was FIDE 10.1).
    assert_cells(
        &row,
        &[
            ("result", "*"),
            ("status", "review"),
            ("reason", "unsupported"),
            ("rule", "not judged (variant)"),
            (
                "detail",
                "variant \"Atomic\" is not judged (only standard chess and Chess960 are); \
                 the recorded result 1-0 is not checked",
            ),
        ],
    );
    let row = judge_one(
        "ecf-quickplay",
        "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n",
    );
    assert_cells(&row, &[("reason", "unsupported"), ("rule", "PGN 16.1")]);
    let row = judge_one("fide-rapid", "[Result \"*\"]\n\n1. e4 -- 2. d4 *\n");
    assert_cells(
        &row,
        &[("reason", "unsupported"), ("ply", "2"), ("move", "--")],
    );
    assert_detail_contains(&row, "null move");
}

#[test]
fn chess960_castling_is_replayed() {
    let row = judge_one("fide-rapid", "[Variant \"Chess960\"]\n[FEN \"nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w FBfb - 0 1\"]\n[SetUp \"1\"]\n[Result \"*\"]\n\n1. a3 g6 2. a4 a5 3. b4 h6 4. c3 c5 5. Bc2 f5 6. O-O-O *\n");
    assert_cells(
        &row,
        &[
            ("reason", "unterminated"),
            ("plies", "11"),
            (
                "final_fen",
                "nrkbqrbn/1p1pp3/6pp/p1p2p2/PP6/2P5/2BPPPPP/N1KRQRBN b kq - 1 6",
            ),
        ],
    );
}

/// One small game per reason code.
const ONE_PER_REASON: &[(&str, &str, &str)] = &[
    ("checkmate", "fide-rapid", "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"),
    ("stalemate", "fide-rapid", "[FEN \"7k/8/5KQ1/8/8/8/8/8 w - - 0 61\"]\n[Result \"1-0\"]\n\n61. Kf7 1-0\n"),
    ("dead-position", "fide-rapid", "[FEN \"8/8/4k3/8/8/4K3/4B3/5r2 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. Bxf1 1-0\n"),
    ("fivefold-repetition", "fide-rapid", "[Result \"*\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 *\n"),
    ("seventy-five-moves", "fide-rapid", "[FEN \"8/8/4k3/8/8/4K3/R7/r7 w - - 145 100\"]\n[Result \"*\"]\n\n100. Ra3 Rb1 101. Ra4 Rb2 102. Ra5 *\n"),
    ("flag-fall", "fide-rapid", "[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n1. e4 e5 2. Nf3 1-0\n"),
    ("flag-fall-cannot-mate", "fide-rapid", "[FEN \"8/8/4k3/4p3/8/4K3/8/8 w - - 0 50\"]\n[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n50. Kd3 Kd5 51. Ke3 1-0\n"),
    ("both-flags-down", "sabah-active30", "[Result \"1-0\"]\n[Termination \"both flags down\"]\n\n1. d4 d5 1-0\n"),
    ("flag-unclaimed", "sabah-active30", "[Result \"0-1\"]\n\n1. f3 { [%clk 0:00:00.0] } e5 2. g4 Qh4# 0-1\n"),
    ("illegal-move", "fide-rapid", "[Result \"1-0\"]\n\n1. e4 e5 2. Nf6 1-0\n"),
    ("illegal-move-stands", "bcf-rapid", "[Result \"1-0\"]\n\n1. e4 d5 2. Bb5+ Kd7 3. a3 Ke6 1-0\n"),
    ("resignation-or-agreement", "fide-rapid", "[Result \"1-0\"]\n\n1. e4 e5 1-0\n"),
    ("unterminated", "fide-rapid", "[Result \"*\"]\n\n1. e4 e5 *\n"),
    ("no-moves", "fide-rapid", "[Result \"1-0\"]\n\n1-0\n"),
    ("parse-error", "fide-rapid", "[Result \"1-0\"]\n\n1. e4 Xq9 1-0\n"),
    ("unsupported", "fide-rapid", "[Variant \"Atomic\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n"),
];

#[test]
fn every_reason_code_has_a_game_that_produces_it() {
    for (reason, rules, pgn) in ONE_PER_REASON {
        let row = judge_one(rules, pgn);
        assert_eq!(row["reason"], *reason, "{pgn}: {}", row["detail"]);
        assert!(!row["rule"].is_empty(), "{reason}: no citation");
    }
    // ruleset-mismatch needs --strict-rules: tests/rulesets.rs,
    // a_rules_map_judges_each_game_under_its_own_rules; duplicate needs two
    // games: a_second_copy_of_a_game_is_flagged_and_judged_once.
    let covered: HashSet<&str> = ONE_PER_REASON
        .iter()
        .map(|(r, _, _)| *r)
        .chain(["ruleset-mismatch", "duplicate"])
        .collect();
    let all: HashSet<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
    assert_eq!(covered, all);
}

#[test]
fn messy_real_world_text() {
    // BOM, CRLF, Latin-1 name, `1...`, unicode draw, forum wrapper, no blank line between games.
    let text = b"\xef\xbb\xbf[Event \"a\"]\r\n[White \"M\xfcller\"]\r\n[Result \"\xc2\xbd-\xc2\xbd\"]\r\n\r\n1. e4 1... e5 \xc2\xbd-\xc2\xbd\r\n[Event \"b\"]\r\n[Result \"1-0\"]\r\n1. d4 d5 1-0\r\n\r\n[pgn][Event \"c\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0 [/pgn]\n";
    let mut f = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut f, text).unwrap();
    let (rows, _) = common::run_paths("fide-rapid", &[f.path().to_path_buf()]);
    assert_eq!(rows.len(), 3);
    assert_cells(
        &rows[0],
        &[
            ("white", "Müller"),
            ("recorded_result", "1/2-1/2"),
            ("reason", "resignation-or-agreement"),
            ("plies", "2"),
            ("offset", "0"),
        ],
    );
    assert_cells(
        &rows[1],
        &[
            ("event", "b"),
            ("recorded_result", "1-0"),
            ("plies", "2"),
            ("status", "confirmed"),
        ],
    );
    assert_cells(
        &rows[2],
        &[("event", "c"), ("plies", "2"), ("status", "confirmed")],
    );
}

#[test]
fn wrong_check_suffix_is_reported() {
    let row = judge_one("fide-rapid", "[Result \"*\"]\n\n1. e4+ e5 2. Nf3# Nc6 *\n");
    assert_detail_contains(&row, "1. e4+ is written + but gives no check");
    assert_detail_contains(&row, "2. Nf3# is written # but gives no check");
}

#[test]
fn variations_and_long_comments_are_handled() {
    let long = "x".repeat(5000);
    let pgn = format!("[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n1. e4 {{ {long} [%clk 0:00:30] }} (1. d4 d5 2. c4) 1... e5 {{ [%clk 0:00:00] }} 2. Nf3 {{ [%clk 0:00:29] }} 1-0\n");
    let row = judge_one("fide-rapid", &pgn);
    assert_cells(
        &row,
        &[
            ("plies", "3"),
            ("white_clock", "0:00:29"),
            ("black_clock", "0:00:00"),
            ("reason", "flag-fall"),
        ],
    );
}

#[test]
fn blank_line_inside_movetext_does_not_end_the_game() {
    let rows = judge(
        "fide-rapid",
        "[Result \"0-1\"]\n\n1. f3 e5\n\n2. g4 Qh4# 0-1\n",
    );
    assert_eq!(rows.len(), 1);
    assert_cells(&rows[0], &[("reason", "checkmate"), ("ply", "4")]);
    assert_detail_contains(
        &rows[0],
        "1 blank line(s) inside the movetext were read through",
    );
}

/// Two captains' records of one game that disagree on its result: the
/// second copy goes to review naming both results and the first copy, the
/// summary says the game's result is in doubt, with any number of jobs.
#[test]
fn copies_of_a_game_that_record_different_results_are_in_doubt() {
    let game = |result: &str| {
        format!("[Event \"DDCL\"]\n[Round \"3.4\"]\n[White \"Dunn, A\"]\n[Black \"Kell, P\"]\n[Result \"{result}\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {result}\n\n")
    };
    let dir = tempfile::tempdir().unwrap();
    let (away, home) = (dir.path().join("away.pgn"), dir.path().join("home.pgn"));
    std::fs::write(&away, game("0-1")).unwrap();
    std::fs::write(&home, game("1-0")).unwrap();
    for jobs in ["-j1", "-j2"] {
        let o = common::arbiter(&[
            "adjudicate",
            jobs,
            away.to_str().unwrap(),
            home.to_str().unwrap(),
        ]);
        let rows = common::parse_csv(&o.stdout);
        assert_cells(
            &rows[1],
            &[
                ("status", "review"),
                ("result", "*"),
                ("reason", "duplicate"),
                (
                    "detail",
                    &format!(
                        "the same game (tags and moves) as game 1 in {}, which records 0-1 where this copy records 1-0: the two records contradict each other, so that game's result is in doubt too; this copy is not judged, and a grader decides which record is right",
                        away.display()
                    ),
                ),
            ],
        );
        let line = String::from_utf8_lossy(&o.stderr);
        assert!(
            line.contains("2 games: 1 confirmed, 0 corrected, 1 review, 0 unreadable (1 copy of a game read before records another result: the game's result is in doubt: see detail)"),
            "{line}"
        );
    }
    // A first copy with no result (`*`): the next with one is the fuller
    // record, judged; a third is held to it.
    let unfinished = dir.path().join("unfinished.pgn");
    std::fs::write(&unfinished, game("*")).unwrap();
    for jobs in ["-j1", "-j2"] {
        let o = common::arbiter(&[
            "adjudicate",
            jobs,
            unfinished.to_str().unwrap(),
            home.to_str().unwrap(),
            away.to_str().unwrap(),
        ]);
        let rows = common::parse_csv(&o.stdout);
        let got: Vec<(&str, &str, &str)> = rows
            .iter()
            .map(|r| {
                (
                    r["status"].as_str(),
                    r["result"].as_str(),
                    r["reason"].as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("review", "*", "unterminated"),
                ("confirmed", "1-0", "resignation-or-agreement"),
                ("review", "*", "duplicate"),
            ]
        );
        assert!(rows[2]["detail"].contains("which records 1-0 where this copy records 0-1"));
    }
}

/// Two copies of one game in a submission (the same tags and moves, as
/// pgn-extract -D finds them) counted twice: the second copy is now
/// flagged, not judged, and counted in the summary line. A re-export of
/// the game with other comments and clocks is the same game; another
/// round or other moves is not.
#[test]
fn a_second_copy_of_a_game_is_flagged_and_judged_once() {
    let game = "[Event \"League\"]\n[Round \"3\"]\n[White \"Müller\"]\n[Black \"Dvořák\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n";
    let reexport = "[Event \"League\"]\n[Round \"3\"]\n[White \"Müller\"]\n[Black \"Dvořák\"]\n[Result \"1-0\"]\n\n1. f3 { [%clk 0:29:00] } e5 2. g4 Qh4 1-0\n\n";
    let other_round = game.replace("[Round \"3\"]", "[Round \"4\"]");
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.pgn");
    let b = dir.path().join("b.pgn");
    std::fs::write(&a, format!("{game}{other_round}")).unwrap();
    std::fs::write(&b, format!("{reexport}{game}")).unwrap();
    let (rows, summary) = common::run_paths("fide-rapid", &[a.clone(), b.clone()]);
    assert_eq!(rows.len(), 4, "every game read keeps its row");
    // The first copy is judged (a mate, recorded as a win for White).
    assert_cells(
        &rows[0],
        &[
            ("status", "corrected"),
            ("reason", "checkmate"),
            ("result", "0-1"),
        ],
    );
    assert_cells(
        &rows[1],
        &[("status", "corrected"), ("reason", "checkmate")],
    );
    for (row, game) in [(&rows[2], 1), (&rows[3], 2)] {
        assert_cells(
            row,
            &[
                ("game", &game.to_string()),
                ("result", "*"),
                ("status", "review"),
                ("reason", "duplicate"),
                ("rule", "not judged (duplicate)"),
                ("ply", ""),
                ("plies", "0"),
                ("game_key", &rows[0]["game_key"]),
                (
                    "detail",
                    &format!(
                        "duplicate of game 1 in {} (the same tags and moves): judged there, once; \
                         this copy is not judged and its recorded result 1-0 does not count again",
                        a.display()
                    ),
                ),
            ],
        );
    }
    assert_eq!(summary.duplicates, 2);
    assert_eq!(summary.review, 2);
    assert_eq!(summary.corrected, 2);
    // The same rows whatever the jobs, and the summary line counts them.
    let out = common::arbiter(&[
        "adjudicate",
        "-j4",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(common::parse_csv(&out.stdout), rows);
    let line = String::from_utf8_lossy(&out.stderr);
    assert!(
        line.contains("4 games: 0 confirmed, 2 corrected, 2 review, 0 unreadable (2 copies of games read before, judged once: see detail)"),
        "{line}"
    );
    // No packet for a copy: it was not judged.
    let packets = dir.path().join("p");
    let o = common::arbiter(&[
        "adjudicate",
        "-q",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--packets",
        packets.to_str().unwrap(),
        "-o",
        "/dev/null",
    ]);
    assert!(o.status.success());
    assert_eq!(std::fs::read_dir(&packets).unwrap().count(), 2);
    // --keep-duplicates judges every copy.
    let o = common::arbiter(&[
        "adjudicate",
        "--keep-duplicates",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    let rows = common::parse_csv(&o.stdout);
    assert!(rows.iter().all(|r| r["reason"] == "checkmate"), "{rows:?}");
}

/// One worker registers each game as it reads it and judges it at once;
/// several read a batch whole first. Both find the same copies: a real
/// export given twice (every game of the second a copy, across many
/// batches) and a file with copies inside it give the same rows at -j1,
/// -j2 and -j4.
#[test]
fn copies_are_found_alike_by_one_worker_and_by_several() {
    let file =
        common::data("games-with-clocks/lichess_DrDrunkenstein_2018-2021_with-clocks-evals.pgn");
    let dir = tempfile::tempdir().unwrap();
    // The same export with each of its first 40 games written again at the end.
    let text = std::fs::read_to_string(&file).unwrap();
    let first: Vec<&str> = text.split("\n\n[Event").take(40).collect();
    let again = dir.path().join("again.pgn");
    std::fs::write(
        &again,
        format!("{text}\n\n[Event{}\n", first[1..].join("\n\n[Event")),
    )
    .unwrap();
    // The export again under another name (the same file named twice is
    // read once).
    let copy = dir.path().join("copy.pgn");
    std::fs::copy(&file, &copy).unwrap();
    let run = |jobs: &str| {
        let o = common::arbiter(&[
            "adjudicate",
            jobs,
            file.to_str().unwrap(),
            again.to_str().unwrap(),
            copy.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        common::parse_csv(&o.stdout)
    };
    let one = run("-j1");
    let of = |p: &std::path::Path| -> Vec<&Row> {
        let name = p.display().to_string();
        one.iter().filter(|r| r["source"] == name).collect()
    };
    let (orig, third) = (of(&file), of(&copy));
    assert_eq!(orig.len(), third.len());
    // Every game of the file given again is a copy of the first reading,
    // but for one with no moves (a copy of nothing), judged again alike.
    for (a, b) in orig.iter().zip(third) {
        assert_eq!(a["game"], b["game"]);
        let alike = a["plies"] == "0" && b["reason"] == a["reason"];
        assert!(
            b["reason"] == "duplicate" || alike,
            "game {}: {}",
            b["game"],
            b["reason"]
        );
    }
    let copies = one.iter().filter(|r| r["reason"] == "duplicate").count();
    assert!(
        copies > 2 * orig.len() * 9 / 10,
        "{copies} copies of {} games",
        orig.len()
    );
    assert_eq!(run("-j2"), one);
    assert_eq!(run("-j4"), one);
}

/// BCF RP 12's loss has no "unless the opponent cannot mate": the draw
/// comes from FIDE 7.5.5 (through RP 2), and the row cites it, as a
/// claim's check does; where the opponent can mate, RP 12 alone.
#[test]
fn a_bcf_illegal_move_loss_drawn_for_want_of_mate_cites_fide() {
    let game = |fen: &str, mv: &str| {
        format!("[FEN \"{fen}\"]\n[Result \"*\"]\n\n1. Ka1 {{ [%clk 0:10:00] }} {mv} {{ [%clk 0:04:00] }} *\n")
    };
    let row = judge_one("bcf-rapid", &game("8/7q/8/8/8/2k5/8/1K6 w - - 0 1", "Kb2"));
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("reason", "illegal-move"),
            ("rule", "BCF RP 12; FIDE 7.5.5"),
        ],
    );
    let row = judge_one(
        "bcf-rapid",
        &game("1R6/7q/8/8/8/2k5/8/1K6 w - - 0 1", "Kb2"),
    );
    assert_cells(
        &row,
        &[
            ("result", "1-0"),
            ("reason", "illegal-move"),
            ("rule", "BCF RP 12"),
        ],
    );
}

/// BCF RP 12 gives extra time "when both players have more than five
/// minutes" and a loss under five: a clock on 5:00 exactly is in neither
/// clause, so the time comes from FIDE 7.5.5 (rules.md's reading), cited.
#[test]
fn a_bcf_illegal_move_on_five_minutes_exactly_cites_fide_for_the_time() {
    let game = |w: &str, b: &str| {
        format!("[Result \"*\"]\n\n1. f3 {{ [%clk 0:{w}] }} e5 {{ [%clk 0:{b}] }} 2. Kf2 {{ [%clk 0:{w}] }} Qh4+ {{ [%clk 0:{b}] }} 3. Kg3 {{ [%clk 0:{w}] }} *\n")
    };
    let row = judge_one("bcf-rapid", &game("05:00", "20:00"));
    assert_cells(
        &row,
        &[
            ("status", "review"),
            ("reason", "illegal-move"),
            ("rule", "BCF RP 12; FIDE 7.5.5"),
        ],
    );
    assert_detail_contains(
        &row,
        "with both clocks at 0:05:00 or more (0:05:00 / 0:20:00): a clock on 5:00 exactly is neither under nor over it, so the move does not lose, and BCF RP 12 gives extra time only when both are over it; any time Black is given is the arbiter's to decide, 2:00 by default (FIDE 7.5.5's amount); play goes on",
    );
    let row = judge_one("bcf-rapid", &game("06:00", "20:00"));
    assert_cells(
        &row,
        &[("status", "review"), ("rule", "BCF RP 12; FIDE 7.5.5")],
    );
    assert_detail_contains(
        &row,
        "Black may be given extra time (BCF RP 12; 2:00 by default, FIDE 7.5.5's amount)",
    );
    // A ruleset that names no document for the amount: its own rule,
    // and nothing said of FIDE.
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/rulesets/bcf-rapid.toml"),
    )
    .unwrap();
    let own = text.replace("penalty_amount_rule = \"FIDE 7.5.5\"\n", "");
    assert_ne!(own, text);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("own.toml");
    std::fs::write(&path, own).unwrap();
    let row = judge_one(path.to_str().unwrap(), &game("05:00", "20:00"));
    assert_cells(&row, &[("rule", "BCF RP 12")]);
    assert_detail_contains(&row, "(0:05:00 / 0:20:00): Black gets 2:00; play goes on");
    let row = judge_one("bcf-rapid", &game("04:59", "20:00"));
    assert_cells(&row, &[("rule", "BCF RP 12")]);
    assert_detail_contains(&row, "White has 0:04:59, under 5:00");
}

/// A Termination tag that names one winner and a Result tag that gives
/// the other (or a draw) contradict each other: review, saying so. Each
/// was confirmed from the Result tag, the Termination quoted beside it.
#[test]
fn a_termination_that_contradicts_the_result_is_reviewed() {
    // Each its own round, so that none is a copy of another.
    let round = std::cell::Cell::new(0);
    let game = |result: &str, term: &str| {
        round.set(round.get() + 1);
        let r = round.get();
        format!("[Event \"Live Chess\"]\n[Round \"{r}\"]\n[White \"alice\"]\n[Black \"bob\"]\n[Result \"{result}\"]\n[Termination \"{term}\"]\n\n1. e4 e5 2. Nf3 Nc6 {result}\n\n")
    };
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.pgn");
    std::fs::write(
        &a,
        [
            game("1-0", "bob won by resignation"),
            game("1/2-1/2", "alice won by resignation"),
            game("0-1", "Game drawn by agreement"),
            game("0-1", "bob won by resignation"),
            game("1/2-1/2", "Game drawn by agreement"),
            game("1-0", "Normal"),
            // Consistent records that name a draw or resign otherwise.
            game("1-0", "Black resigned after his draw claim was rejected"),
            game("0-1", "White resigned in a drawn position"),
        ]
        .concat(),
    )
    .unwrap();
    let (rows, _) = common::run_paths("fide-blitz", std::slice::from_ref(&a));
    let cells: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["status"].as_str(), r["result"].as_str()))
        .collect();
    assert_eq!(
        cells,
        [
            ("review", "*"),
            ("review", "*"),
            ("review", "*"),
            ("confirmed", "0-1"),
            ("confirmed", "1/2-1/2"),
            ("confirmed", "1-0"),
            ("confirmed", "1-0"),
            ("confirmed", "0-1"),
        ]
    );
    assert_eq!(rows[0]["reason"], "resignation-or-agreement");
    assert_eq!(
        rows[0]["detail"],
        "the Termination tag (bob won by resignation) and the Result tag (1-0) disagree: the record contradicts itself, so its result is not confirmed"
    );
    assert_eq!(rows[0]["rule"], "FIDE 5.1.2");
}

/// A Termination tag that names a mate or a stalemate the recorded moves
/// do not reach: the moves that ended the game are missing, or the tag is
/// wrong; review, saying which ending and after which move. Each was
/// confirmed as a resignation or an agreement.
#[test]
fn a_termination_naming_a_board_ending_not_on_the_board_is_reviewed() {
    let round = std::cell::Cell::new(0);
    let game = |result: &str, term: &str, moves: &str| {
        round.set(round.get() + 1);
        let r = round.get();
        format!("[Event \"Live Chess\"]\n[Round \"{r}\"]\n[White \"alice\"]\n[Black \"bob\"]\n[Result \"{result}\"]\n[Termination \"{term}\"]\n\n{moves} {result}\n\n")
    };
    let short = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6";
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.pgn");
    std::fs::write(
        &a,
        [
            game("1-0", "alice won by checkmate", short),
            game("1/2-1/2", "Game drawn by stalemate", short),
            // The mate on the board: confirmed as the mate it is.
            game(
                "1-0",
                "alice won by checkmate",
                &format!("{short} 4. Qxf7#"),
            ),
            // Other endings named are judged as before.
            game("1/2-1/2", "Game drawn by repetition", short),
            game("1-0", "bob resigned", short),
            // A mention, or a player's name, is not the ending.
            game("1-0", "bob resigned (checkmate unavoidable)", short),
            game("1-0", "alice won by resignation", short).replace("alice", "CheckmateKing"),
        ]
        .concat(),
    )
    .unwrap();
    let (rows, _) = common::run_paths("fide-blitz", std::slice::from_ref(&a));
    let cells: Vec<(&str, &str, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["status"].as_str(),
                r["result"].as_str(),
                r["reason"].as_str(),
                r["rule"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        cells,
        [
            ("review", "*", "checkmate", "FIDE 5.1.1"),
            ("review", "*", "stalemate", "FIDE 5.2.1"),
            ("confirmed", "1-0", "checkmate", "FIDE 5.1.1"),
            (
                "confirmed",
                "1/2-1/2",
                "resignation-or-agreement",
                "FIDE 5.2.3"
            ),
            ("confirmed", "1-0", "resignation-or-agreement", "FIDE 5.1.2"),
            ("confirmed", "1-0", "resignation-or-agreement", "FIDE 5.1.2"),
            ("confirmed", "1-0", "resignation-or-agreement", "FIDE 5.1.2"),
        ]
    );
    assert_eq!(
        rows[0]["detail"],
        "the Termination tag (alice won by checkmate) says the game ended in checkmate, but the recorded moves end after 3... Nf6 with no checkmate on the board: the moves that ended the game are missing or the tag is wrong, so the result (1-0) is not confirmed"
    );
}
