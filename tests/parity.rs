//! One judge: the same facts go down the game path (`adjudicate`) and the
//! claim path (`claim`) for every built-in ruleset and every decision of
//! `judge::policy`, and the answers agree. Then one test for each drift the
//! two copies had before they were one (move numbers from a `FEN`, the
//! tablebase on the claim side, every illegal move on the scoresheet).

use crate::common;

use std::sync::Arc;

use arbiter::{
    analysis::forced::Syzygy,
    claim::{load_claim, CheckId, CheckOutcome, LoadOptions, Recommendation, Ruling},
    judge::claim::judge_claim,
    pipeline::Options,
    read::Source,
    report::batch::adjudicate,
    rules::{Ruleset, BUILTINS},
};
use common::{assert_cells, assert_detail_contains, data, judge_one, parse_csv, Row};

fn claim(toml: &str, sheet: &str, syzygy: Option<&Syzygy>) -> Ruling {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("s.pgn"), sheet).expect("write");
    let path = dir.path().join("c.toml");
    std::fs::write(&path, format!("{toml}\nscoresheet = \"s.pgn\"\n")).expect("write");
    let c = load_claim(&path, LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    judge_claim(c, syzygy)
}

fn game_with_syzygy(rules: &str, pgn: &str, tb: Arc<Syzygy>) -> Row {
    let rules = Ruleset::load(rules).expect("ruleset");
    let opts = Options {
        jobs: 1,
        syzygy: Some(tb),
        ..Options::default()
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("game.pgn");
    std::fs::write(&path, pgn).expect("write");
    let src = Source::File {
        path,
        name: "game.pgn".into(),
    };
    let mut out = Vec::new();
    adjudicate(&[src], &rules, &opts, &mut out).expect("adjudicate");
    parse_csv(&out).remove(0)
}

fn names() -> Vec<&'static str> {
    BUILTINS.iter().map(|(n, _)| *n).collect()
}

/// The first citation of a `;`- or `,`-separated list.
fn first_rule(s: &str) -> &str {
    s.split([';', ',']).next().unwrap_or("").trim()
}

/// Both flags down, White's at 0:00:00.0 on move `n`, Black's on his reply:
/// as a game (Black claimed, recorded 0-1) and as a win-on-time claim.
fn both_flags_sheet(tc: &str, fen_move: Option<u32>) -> String {
    let (head, n) = match fen_move {
        Some(n) => (
            format!(
                "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 {n}\"]\n[SetUp \"1\"]\n"
            ),
            n,
        ),
        None => (String::new(), 1),
    };
    format!(
        "{head}[TimeControl \"{tc}\"]\n[Result \"0-1\"]\n\n\
{n}. Nf3 {{[%clk 0:00:00.0]}} {n}... Nf6 {{[%clk 0:00:00.0]}} 0-1\n"
    )
}

/// Game and claim agree on both flags down: a draw both ways, play going on
/// both ways, or a referral both ways, under the same rule.
#[track_caller]
fn both_flags_agree(rules: &str, sheet: &str) {
    let row = judge_one(rules, sheet);
    let r = claim(
        &format!(
            "kind = \"win-on-time\"\nruleset = \"{rules}\"\nclaimant = \"black\"\nclock_white = \"0:00:00\"\nclock_black = \"0:00:00\""
        ),
        sheet,
        None,
    );
    let ctx = format!(
        "{rules}: game {row:?}\nclaim {:?} {}",
        r.recommendation, r.detail
    );
    match (row["result"].as_str(), row["reason"].as_str()) {
        ("1/2-1/2", "both-flags-down") => {
            assert_eq!(r.recommendation, Recommendation::Reject, "{ctx}");
            assert_eq!(r.result_if_rejected, "1/2-1/2", "{ctx}");
        }
        ("*", "both-flags-down") if row["detail"].contains("should have continued") => {
            assert_eq!(r.recommendation, Recommendation::Reject, "{ctx}");
            assert!(r.result_if_rejected.starts_with("play continues"), "{ctx}");
        }
        ("*", "both-flags-down") => {
            assert_eq!(r.recommendation, Recommendation::Refer, "{ctx}");
        }
        // The record shows White's flag fell first, and the ruleset judges it alone.
        ("0-1", "flag-fall") => {
            assert_eq!(r.recommendation, Recommendation::Uphold, "{ctx}");
            assert_eq!(r.result_if_upheld, "0-1", "{ctx}");
        }
        (result, reason) => panic!("unexpected {result} {reason}: {ctx}"),
    }
    assert_eq!(
        first_rule(&row["rule"]),
        first_rule(r.rule.as_str()),
        "{ctx}"
    );
}

#[test]
fn both_flags_agree_for_every_ruleset_and_period() {
    for rules in names() {
        for tc in ["1800", "40/5400:1800", "900+10", "36/4500:900"] {
            both_flags_agree(rules, &both_flags_sheet(tc, None));
            // Taken up from a FEN at move 40: past the first control.
            both_flags_agree(rules, &both_flags_sheet(tc, Some(40)));
        }
    }
}

/// The illegal-move ladder: a record that ends on the illegal move (claimed
/// at once) and the same scoresheet as an illegal-move claim.
#[test]
fn the_illegal_move_ladder_agrees_for_every_ruleset() {
    let sheet = |w: &str, b: &str| {
        format!(
            "[TimeControl \"1800\"]\n[Result \"1-0\"]\n\n\
1. e4 {{[%clk 0:20:00]}} 1... d5 {{[%clk 0:20:00]}} 2. Bb5+ {{[%clk {w}]}} 2... Kd7 {{[%clk {b}]}} 1-0\n"
        )
    };
    for rules in names() {
        for (w, b) in [
            ("0:19:00", "0:18:00"),
            ("0:04:59", "0:18:00"),
            ("0:05:00", "0:05:00"),
        ] {
            let pgn = sheet(w, b);
            let row = judge_one(rules, &pgn);
            let r = claim(
                &format!("kind = \"illegal-move\"\nruleset = \"{rules}\"\nclaimant = \"white\""),
                &pgn,
                None,
            );
            let ctx = format!(
                "{rules} {w}/{b}: game {} {} {}\nclaim {:?} {} {} {}",
                row["result"],
                row["rule"],
                row["detail"],
                r.recommendation,
                r.result_if_upheld,
                r.rule,
                r.detail
            );
            assert_eq!(row["reason"], "illegal-move", "{ctx}");
            if row["result"] == "1-0" {
                // The move loses: the claim is upheld with the same result.
                assert_eq!(r.recommendation, Recommendation::Uphold, "{ctx}");
                assert_eq!(r.result_if_upheld, "1-0", "{ctx}");
            } else {
                // Play goes on from the reinstated position: the record ends.
                assert_eq!(row["result"], "*", "{ctx}");
                assert!(r.result_if_upheld.starts_with("play continues"), "{ctx}");
            }
            // The decisive rule is the same; a claim may cite the reinstatement too.
            assert!(
                r.rule
                    .parts()
                    .any(|p| p.split(", ").any(|q| q == first_rule(&row["rule"]))),
                "{ctx}"
            );
        }
    }
}

/// A single flag down: the flag test for the claimant (helpmate, material,
/// USCF 14E) gives the game and the win-on-time claim the same result.
#[test]
fn a_single_flag_agrees_for_every_ruleset() {
    let positions = [
        // K+N v K+P: the knight can mate with help; not under USCF 14E2 without a forced win.
        "8/5k2/8/3n4/8/2P5/1K6/8 w - - 0 60",
        // A bare king against K+P: Black cannot mate.
        "8/5k2/8/8/8/2P5/1K6/8 w - - 0 60",
        // K+R v K+P: a win.
        "8/5k2/8/3r4/8/2P5/1K6/8 w - - 0 60",
    ];
    for rules in names() {
        for fen in positions {
            let pgn = format!(
                "[FEN \"{fen}\"]\n[SetUp \"1\"]\n[TimeControl \"1800\"]\n[Result \"0-1\"]\n[Termination \"Black won on time\"]\n\n\
60. Kb3 {{[%clk 0:00:00]}} Ke6 {{[%clk 0:04:00]}} 0-1\n"
            );
            let row = judge_one(rules, &pgn);
            let r = claim(
                &format!(
                    "kind = \"win-on-time\"\nruleset = \"{rules}\"\nclaimant = \"black\"\nclock_white = \"0:00:00\"\nclock_black = \"0:04:00\""
                ),
                &pgn,
                None,
            );
            let ctx = format!(
                "{rules} {fen}: game {} {} {}\nclaim {:?} {} {}",
                row["result"], row["rule"], row["detail"], r.recommendation, r.rule, r.detail
            );
            match row["result"].as_str() {
                "0-1" => assert_eq!(r.recommendation, Recommendation::Uphold, "{ctx}"),
                "1/2-1/2" => {
                    assert_eq!(r.recommendation, Recommendation::Reject, "{ctx}");
                    assert_eq!(r.result_if_rejected, "1/2-1/2", "{ctx}");
                }
                _ => assert_eq!(r.recommendation, Recommendation::Refer, "{ctx}"),
            }
            assert_eq!(row["rule"], r.rule.as_str(), "{ctx}");
        }
    }
}

/// A DDCL game taken up at move 33 (36 moves in 75 minutes, then 15 more):
/// both flags down after move 36 is in the quickplay finish, drawn under
/// ECF QPF 10, and the 15-minute setback after move 36 is no anomaly.
#[test]
fn a_game_from_a_fen_at_move_33_counts_its_real_moves() {
    let pgn = "[FEN \"r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 33\"]\n[SetUp \"1\"]\n\
[TimeControl \"36/4500:900\"]\n[Result \"1-0\"]\n\n\
33. a3 {[%clk 0:03:00.0]} a6 {[%clk 0:02:00.0]} 34. h3 {[%clk 0:02:00.0]} h6 {[%clk 0:01:00.0]} \
35. b3 {[%clk 0:01:00.0]} b6 {[%clk 0:00:30.0]} 36. Rc1 {[%clk 0:00:10.0]} Rb8 {[%clk 0:00:05.0]} \
37. Qe2 {[%clk 0:00:00.0]} Qc7 {[%clk 0:00:00.0]} 1-0\n";
    let row = judge_one("ecf-quickplay", pgn);
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "both-flags-down"),
            ("rule", "ECF QPF 10"),
        ],
    );
    assert_detail_contains(&row, "in the final period");
    // The setback: 0:00:05 after move 36, then 0:15:00 more would be no
    // anomaly; a rise inside the first period (from move 33) still is one.
    let setback = "[FEN \"r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 33\"]\n[SetUp \"1\"]\n\
[TimeControl \"36/4500:900\"]\n[Result \"*\"]\n\n\
33. a3 {[%clk 0:03:00]} a6 {[%clk 0:02:00]} 34. h3 {[%clk 0:02:00]} h6 {[%clk 0:01:00]} \
35. b3 {[%clk 0:01:00]} b6 {[%clk 0:00:30]} 36. Rc1 {[%clk 0:00:10]} Rb8 {[%clk 0:00:05]} \
37. Qe2 {[%clk 0:15:00]} Qc7 {[%clk 0:14:55]} *\n";
    let row = judge_one("ecf-quickplay", setback);
    assert!(
        !row["detail"].contains("anomaly"),
        "the setback after move 36 is not an anomaly: {}",
        row["detail"]
    );
    let early = setback.replace("34. h3 {[%clk 0:02:00]}", "34. h3 {[%clk 0:12:00]}");
    let row = judge_one("ecf-quickplay", &early);
    assert_detail_contains(
        &row,
        "White's clock rose from 0:03:00 to 0:12:00 at move 34",
    );
}

/// The same from the claim side: a scoresheet that starts at move 40, both
/// flags down in the quickplay finish.
#[test]
fn a_claim_whose_scoresheet_starts_at_move_40() {
    let sheet = both_flags_sheet("36/4500:900", Some(40));
    let r = claim(
        "kind = \"win-on-time\"\nruleset = \"ecf-quickplay\"\nclaimant = \"black\"\nclock_white = \"0:00:00\"\nclock_black = \"0:00:00\"",
        &sheet,
        None,
    );
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(r.result_if_rejected, "1/2-1/2");
    assert_eq!(r.rule, "ECF QPF 10");
    let check = r.check(CheckId::BothFlagsDown).expect("check");
    assert!(
        check.detail.contains("in the final period"),
        "{}",
        check.detail
    );
    // Under FIDE III.3.1 the period decides when the order is not known
    // (whole-second clocks): from move 40 the final period draws, the same
    // two moves from move 1 are in the first period and play goes on.
    let fide = "kind = \"win-on-time\"\nruleset = \"fide-standard\"\nclaimant = \"black\"\nclock_white = \"0:00:00\"\nclock_black = \"0:00:00\"";
    let unordered = |fen_move| both_flags_sheet("36/4500:900", fen_move).replace(":00.0]", ":00]");
    let r = claim(fide, &unordered(Some(40)), None);
    assert_eq!(r.result_if_rejected, "1/2-1/2", "{}", r.detail);
    assert_eq!(r.rule, "FIDE III.3.1.2");
    let r = claim(fide, &unordered(None), None);
    assert!(
        r.result_if_rejected.starts_with("play continues"),
        "{}",
        r.detail
    );
    assert_eq!(r.rule, "FIDE III.3.1.1");
}

/// The claim side asks USCF 14E with the tablebase it was given, as the
/// game side does: K+N v K+P is a draw by 14E2, settled by the table for a
/// claim and for a game alike (without it, by the search).
#[test]
fn uscf_14e_uses_the_tablebase_on_both_paths() {
    let tb = Arc::new(Syzygy::open(&data("syzygy")).expect("syzygy tables"));
    let pgn = "[FEN \"8/5k2/8/3n4/8/2P5/1K6/8 w - - 0 60\"]\n[SetUp \"1\"]\n[TimeControl \"1800\"]\n[Result \"0-1\"]\n[Termination \"Black won on time\"]\n\n\
60. Kb3 {[%clk 0:00:00]} Ke6 {[%clk 0:04:00]} 0-1\n";
    let toml = "kind = \"win-on-time\"\nruleset = \"uscf\"\nclaimant = \"black\"\nclock_white = \"0:00:00\"\nclock_black = \"0:04:00\"";
    let without = claim(toml, pgn, None);
    let searched = without.check(CheckId::ClaimantCanMate).expect("check");
    assert!(
        searched.detail.contains("no forced mate within"),
        "{}",
        searched.detail
    );
    let with = claim(toml, pgn, Some(&tb));
    let settled = with.check(CheckId::ClaimantCanMate).expect("check");
    assert!(
        settled.detail.contains("Syzygy tablebase: no win"),
        "{}",
        settled.detail
    );
    assert_eq!(
        with.recommendation,
        Recommendation::Reject,
        "{}",
        with.detail
    );
    assert_eq!(with.result_if_rejected, "1/2-1/2");
    assert_eq!(with.rule, "USCF 14E2");
    assert_eq!(
        with.check(CheckId::ClaimantCanMate).map(|c| c.outcome),
        Some(CheckOutcome::Fail)
    );
    let row = game_with_syzygy("uscf", pgn, tb);
    assert_cells(
        &row,
        &[
            ("result", "1/2-1/2"),
            ("reason", "flag-fall-cannot-mate"),
            ("rule", "USCF 14E2"),
        ],
    );
}

/// The claim's scoresheet is the one replay. An earlier illegal move that
/// stood (FIDE A.5.2) was never acted on, so it is no first illegal move for
/// FIDE 7.5.5 ("after the action taken under 7.5.1"): the one claimed is
/// penalised, in `adjudicate` and in a claim alike. A first one the claim
/// says was penalised does count.
#[test]
fn an_illegal_move_that_stood_is_no_first_for_7_5_5() {
    let pgn = "[TimeControl \"1800\"]\n[Result \"1-0\"]\n\n\
1. e4 {[%clk 0:20:00]} 1... d5 {[%clk 0:20:00]} 2. Bb5+ {[%clk 0:19:00]} 2... Kd7 {[%clk 0:18:00]} \
3. a3 {[%clk 0:18:30]} 3... Ke6 {[%clk 0:17:30]} 4. Qg4+ {[%clk 0:18:00]} 4... Kf5 {[%clk 0:17:00]} 1-0\n";
    let row = judge_one("fide-rapid", pgn);
    assert_cells(&row, &[("result", "*"), ("rule", "FIDE A.3")]);
    assert_detail_contains(
        &row,
        "60 s added to White's clock and the position reinstated",
    );
    let r = claim(
        "kind = \"illegal-move\"\nruleset = \"fide-rapid\"\nclaimant = \"white\"",
        pgn,
        None,
    );
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
    assert_eq!(
        r.result_if_upheld,
        "play continues from the position before 4... Kf5; White +1:00 (0:18:00 to 0:19:00)"
    );
    assert_eq!(r.rule, "FIDE 7.5.1; FIDE A.3");
    assert_eq!(r.evidence.illegal.len(), 2);
    assert!(r.evidence.illegal[0].stood);
    assert_eq!(r.marked_ply, Some(8));
    // The packet says which was discounted, and why.
    let second = r
        .check(CheckId::SecondIllegal)
        .expect("the second-move check");
    assert_eq!(second.outcome, CheckOutcome::NotApplicable);
    assert_eq!(
        second.detail,
        "Black's earlier illegal move (2... Kd7) stood and was never acted on: not counted, as 7.5.5 counts after the action taken under 7.5.1"
    );
    let r = claim(
        "kind = \"illegal-move\"\nruleset = \"fide-rapid\"\nclaimant = \"white\"\nprevious_illegal = 1",
        pgn,
        None,
    );
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
    assert_eq!(r.result_if_upheld, "1-0");
    assert_eq!(r.rule, "FIDE 7.5.5");
}
