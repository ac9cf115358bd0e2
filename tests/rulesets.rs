//! Every built-in ruleset's flag, both-flags and illegal-move policy on the
//! same hand-built games, with the exact result, reason and citation each
//! ruleset prints.

use crate::common;

use common::{assert_cells, assert_detail_contains, judge_one, parse_csv};

/// PRODUCT.md's built-in rulesets, in its order.
const ALL: [&str; 9] = [
    "fide-standard",
    "fide-rapid",
    "fide-blitz",
    "sabah-active30",
    "bcf-rapid",
    "ecf-quickplay",
    "ddcl-cup",
    "uscf",
    "hs-league",
];

/// The expected cells of one table of `tables/rulesets.tsv`: (ruleset,
/// result, status, reason, rule), one row per built-in ruleset.
fn table(name: &str) -> Vec<[&'static str; 5]> {
    include_str!("tables/rulesets.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c[0] == name).then(|| [c[1], c[2], c[3], c[4], c[5]])
        })
        .collect()
}

/// Runs `pgn` under each ruleset and checks the cells its table expects.
fn matrix(pgn: &str, name: &str) {
    let expected = table(name);
    assert_eq!(
        expected.len(),
        ALL.len(),
        "{name}: one expectation per ruleset"
    );
    for (i, [rules, result, status, reason, rule]) in expected.into_iter().enumerate() {
        assert_eq!(rules, ALL[i], "{name}: rulesets in PRODUCT.md's order");
        let row = judge_one(rules, pgn);
        let ctx = format!("ruleset {rules}: {}", row["detail"]);
        assert_eq!(row["result"], *result, "result, {ctx}");
        assert_eq!(row["status"], *status, "status, {ctx}");
        assert_eq!(row["reason"], *reason, "reason, {ctx}");
        assert_eq!(row["rule"], *rule, "rule, {ctx}");
    }
}

const FLAG_WITH_MATING_MATERIAL: &str =
    "[TimeControl \"300\"]\n[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n\
1. e4 {[%clk 0:04:50]} 1... e5 {[%clk 0:00:05]} 2. Nf3 {[%clk 0:04:40]} 1-0\n";

#[test]
fn flag_fall_loses_when_the_opponent_can_mate() {
    matrix(
        FLAG_WITH_MATING_MATERIAL,
        "flag_fall_loses_when_the_opponent_can_mate",
    );
    let row = judge_one("fide-rapid", FLAG_WITH_MATING_MATERIAL);
    assert_cells(
        &row,
        &[
            ("ply", "3"),
            ("move", "Nf3"),
            ("white_clock", "0:04:40"),
            ("black_clock", "0:00:05"),
        ],
    );
    assert_detail_contains(&row, "Black's flag fell after 2. Nf3 (last recorded clock 0:00:05), shown by the Termination tag");
}

#[test]
fn flag_fall_against_a_bare_king_is_a_draw() {
    // Black (K+P) flags; White has only a king and cannot mate.
    let pgn = "[TimeControl \"1800\"]\n[FEN \"8/8/4k3/4p3/8/4K3/8/8 w - - 0 50\"]\n[SetUp \"1\"]\n[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n\
50. Kd3 {[%clk 0:01:00]} 50... Kd5 {[%clk 0:00:02]} 51. Ke3 {[%clk 0:00:58]} 1-0\n";
    matrix(pgn, "flag_fall_against_a_bare_king_is_a_draw");
}

fn both_flags(tc: &str) -> String {
    format!(
        "[TimeControl \"{tc}\"]\n[Result \"0-1\"]\n\n\
1. d4 {{[%clk 0:00:10.0]}} 1... d5 {{[%clk 0:00:09.5]}} 2. c4 {{[%clk 0:00:00.0]}} 2... e6 {{[%clk 0:00:00.0]}} 0-1\n"
    )
}

#[test]
fn both_flags_down_in_the_final_period() {
    matrix(&both_flags("1800"), "both_flags_down_in_the_final_period");
}

#[test]
fn both_flags_down_before_the_final_period() {
    // 40 moves in 90 minutes then 30 for the rest: both fell in the first period.
    matrix(
        &both_flags("40/5400:1800"),
        "both_flags_down_before_the_final_period",
    );
    // FIDE III.3.1 applies only when the order cannot be told: with clocks
    // in whole seconds it cannot, and the game should have continued.
    let unordered = both_flags("40/5400:1800").replace(":00.0]", ":00]");
    let row = judge_one(
        "fide-standard",
        &unordered.replace(
            "[Result \"0-1\"]",
            "[Result \"0-1\"]\n[Termination \"both flags fell\"]",
        ),
    );
    assert_detail_contains(&row, "the game should have continued");
    // With tenths, White's 0:00:00.0 on 2. c4 came while Black still had 9.5 s.
    let row = judge_one("fide-standard", &both_flags("40/5400:1800"));
    assert_cells(&row, &[("ply", "3"), ("move", "c4")]);
    assert_detail_contains(&row, "White's flag fell on 2. c4");
}

#[test]
fn both_flags_down_with_an_increment() {
    matrix(&both_flags("900+10"), "both_flags_down_with_an_increment");
}

/// 2... Kd7 keeps the king on the bishop's diagonal: illegal only by check.
fn illegal_last_move(white: &str, black: &str) -> String {
    format!(
        "[TimeControl \"1800\"]\n[Result \"1-0\"]\n\n\
1. e4 {{[%clk 0:20:00]}} 1... d5 {{[%clk 0:20:00]}} 2. Bb5+ {{[%clk {white}]}} 2... Kd7 {{[%clk {black}]}} 1-0\n"
    )
}

#[test]
fn first_illegal_move_claimed_at_once_both_clocks_over_five_minutes() {
    matrix(
        &illegal_last_move("0:19:00", "0:18:00"),
        "first_illegal_move_claimed_at_once_both_clocks_over_five_minutes",
    );
    let row = judge_one("fide-rapid", &illegal_last_move("0:19:00", "0:18:00"));
    assert_cells(&row, &[("ply", "4"), ("move", "Kd7"), ("plies", "3")]);
    assert_detail_contains(&row, "60 s added to White's clock");
}

#[test]
fn bcf_rp_12_illegal_move_loses_under_five_minutes() {
    let pgn = illegal_last_move("0:04:59", "0:18:00");
    let row = judge_one("bcf-rapid", &pgn);
    assert_cells(
        &row,
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "illegal-move"),
            ("rule", "BCF RP 12"),
            ("ply", "4"),
        ],
    );
    assert_detail_contains(&row, "White has 0:04:59, under 5:00: the move loses");
    assert_detail_contains(
        &row,
        "2... Kd7 by Black is illegal: the king would stand on d7, attacked by the bishop on b5",
    );
    // Exactly five minutes is not "less than five minutes".
    let row = judge_one("bcf-rapid", &illegal_last_move("0:05:00", "0:05:00"));
    assert_cells(
        &row,
        &[
            ("result", "*"),
            ("status", "review"),
            ("rule", "BCF RP 12; FIDE 7.5.5"),
        ],
    );
    // Elsewhere the clock does not decide.
    let row = judge_one("fide-rapid", &pgn);
    assert_cells(&row, &[("result", "*"), ("status", "review")]);
}

/// 2... Kd7 stands once White replies; 4... Kf5 walks into the queen's line.
const SECOND_ILLEGAL: &str = "[TimeControl \"1800\"]\n[Result \"1-0\"]\n\n\
1. e4 {[%clk 0:20:00]} 1... d5 {[%clk 0:20:00]} 2. Bb5+ {[%clk 0:19:00]} 2... Kd7 {[%clk 0:18:00]} \
3. a3 {[%clk 0:18:30]} 3... Ke6 {[%clk 0:17:30]} 4. Qg4+ {[%clk 0:18:00]} 4... Kf5 {[%clk 0:17:00]} 1-0\n";

#[test]
fn second_illegal_move() {
    matrix(SECOND_ILLEGAL, "second_illegal_move");
    let row = judge_one("fide-rapid", SECOND_ILLEGAL);
    assert_cells(&row, &[("ply", "8"), ("move", "Kf5")]);
    assert_detail_contains(
        &row,
        "60 s added to White's clock and the position reinstated",
    );
    assert_detail_contains(
        &row,
        "2... Kd7 by Black was illegal and stood once White replied (FIDE A.5.2)",
    );
}

#[test]
fn illegal_move_noticed_after_the_reply() {
    let pgn = "[TimeControl \"1800\"]\n[Result \"1-0\"]\n\n\
1. e4 d5 2. Bb5+ Kd7 3. a3 Ke6 4. Nf3 Kf6 1-0\n";
    matrix(pgn, "illegal_move_noticed_after_the_reply");
    let row = judge_one("bcf-rapid", pgn);
    assert_cells(&row, &[("ply", "4"), ("move", "Kd7"), ("plies", "8")]);
    // Nobody noticed and the game is over: FIDE 7.5.1 reinstates only
    // during the game; afterwards the result stands, and the detail says so.
    let row = judge_one("fide-standard", pgn);
    assert_cells(&row, &[("ply", "4"), ("plies", "8")]);
    assert_detail_contains(&row, "2... Kd7 by Black was illegal and stood unnoticed");
    // An unfinished record (`*`) is not a game over: the arbiter reinstates.
    let row = judge_one("fide-standard", &pgn.replace("1-0", "*"));
    assert_cells(
        &row,
        &[
            ("result", "*"),
            ("reason", "illegal-move"),
            ("rule", "FIDE 7.5.1"),
        ],
    );
}

#[test]
fn an_unnoticed_illegal_move_before_a_mate_leaves_the_mate_standing() {
    // 5. O-O?? castles out of the bishop's check; nobody noticed, and Black
    // was later mated: under the standard Laws the mate stands.
    let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Nc6 4. d4 Bb4+ 5. O-O Ke7 6. Nh4 Kd6 7. Nf5#\n";
    let row = judge_one("fide-standard", pgn);
    assert_cells(
        &row,
        &[
            ("result", "1-0"),
            ("status", "confirmed"),
            ("reason", "checkmate"),
            ("rule", "FIDE 5.1.1"),
        ],
    );
    assert_detail_contains(&row, "5. O-O by White was illegal and stood unnoticed");
    // The same record ending on a second illegal move was claimed during the
    // game: the first one is found then too, and reinstated (FIDE 7.5.1).
    let claimed = "[Result \"1-0\"]\n\n1. e4 d5 2. Bb5+ Kd7 3. a3 Ke6 4. Qg4+ Kf5 1-0\n";
    let row = judge_one("fide-standard", claimed);
    assert_cells(
        &row,
        &[
            ("result", "*"),
            ("reason", "illegal-move"),
            ("rule", "FIDE 7.5.1"),
            ("ply", "4"),
        ],
    );
}

#[test]
fn a_move_no_piece_can_make_stops_the_replay_under_every_ruleset() {
    let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf6 Nc6 1-0\n";
    for rules in ALL {
        let row = judge_one(rules, pgn);
        assert_cells(
            &row,
            &[
                ("result", "*"),
                ("status", "review"),
                ("reason", "illegal-move"),
                ("ply", "3"),
                ("move", "Nf6"),
                ("plies", "2"),
            ],
        );
        assert_detail_contains(&row, "no piece can make this move");
    }
}

#[test]
fn automatic_draws_follow_the_ruleset() {
    // Knights out and back: the start position stands for the fifth time at ply 16.
    let pgn = "[Result \"*\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4 *\n";
    let fide = judge_one("fide-rapid", pgn);
    assert_cells(
        &fide,
        &[
            ("result", "1/2-1/2"),
            ("status", "corrected"),
            ("reason", "fivefold-repetition"),
            ("rule", "FIDE 9.6.1"),
            ("ply", "16"),
            ("move", "Ng8"),
        ],
    );
    // USCF has no automatic fivefold: the game is simply unfinished.
    let uscf = judge_one("uscf", pgn);
    assert_cells(
        &uscf,
        &[("result", "*"), ("reason", "unterminated"), ("plies", "17")],
    );
}

#[test]
fn the_builtins_are_product_mds_nine() {
    let names: Vec<&str> = arbiter::rules::BUILTINS.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ALL);
}

/// A mixed folder (the samples beside real online exports) under a rules
/// map: each game under its own rules, the map's ignored folders not read,
/// a game under a control its rules are not for noted and counted, and
/// under `--strict-rules` sent to review.
#[test]
fn a_rules_map_judges_each_game_under_its_own_rules() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for f in [
        "bcf-rapid-club-night.pgn",
        "hs-league.pgn",
        "active30-rated-list.pgn",
    ] {
        std::fs::copy(common::sample(f), root.join(f)).unwrap();
    }
    std::fs::create_dir(root.join("online")).unwrap();
    std::fs::copy(
        common::data("games-with-clocks/chesscom_mixed-incl-daily.pgn"),
        root.join("online/chesscom.pgn"),
    )
    .unwrap();
    std::fs::create_dir(root.join("claims")).unwrap();
    std::fs::copy(
        common::sample("claims/bcf-krkn.pgn"),
        root.join("claims/bcf-krkn.pgn"),
    )
    .unwrap();
    std::fs::write(
        root.join("rules-map.toml"),
        "ignore = [\"claims/*\"]\n\
         [[map]]\npath = \"bcf-*.pgn\"\nrules = \"bcf-rapid\"\n\
         [[map]]\npath = \"hs-league.pgn\"\nrules = \"hs-league\"\n\
         [[map]]\nevent = \"*active-30*\"\nrules = \"sabah-active30\"\n\
         [[map]]\npath = \"online/*\"\ntime_control = \"180\"\nrules = \"fide-blitz\"\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["adjudicate", root.to_str().unwrap(), "-r", "fide-rapid"];
        args.extend_from_slice(extra);
        let o = common::arbiter(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (
            parse_csv(&o.stdout),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (rows, err) = run(&[]);
    // 11 + 3 + 2 + 29 games; the claim's scoresheet is not among them.
    assert_eq!(rows.len(), 45);
    assert!(rows.iter().all(|r| !r["source"].contains("claims")));
    assert!(err.contains("1 file not read as games"), "{err}");
    let under = |file: &str| -> std::collections::BTreeMap<String, usize> {
        let mut m = std::collections::BTreeMap::new();
        for r in rows.iter().filter(|r| r["source"].ends_with(file)) {
            *m.entry(r["ruleset"].clone()).or_default() += 1;
        }
        m
    };
    let one = |name: &str, n: usize| {
        [(name.to_string(), n)]
            .into_iter()
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    assert_eq!(under("bcf-rapid-club-night.pgn"), one("bcf-rapid", 3));
    assert_eq!(under("hs-league.pgn"), one("hs-league", 2));
    // Matched by the Event tag, whatever the file is called.
    assert_eq!(under("active30-rated-list.pgn"), one("sabah-active30", 11));
    // The blitz games by their control; the 10-minute and daily games fall
    // to -r.
    let online = under("chesscom.pgn");
    assert_eq!(online.get("fide-blitz"), Some(&21));
    assert_eq!(online.get("fide-rapid"), Some(&8));
    // 900+10 is not Active-30; 600 is 10 minutes, not more (FIDE A.1); the
    // daily games are correspondence.
    let noted: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| r["detail"].contains("; note: TimeControl"))
        .map(|r| (r["time_control"].as_str(), r["ruleset"].as_str()))
        .collect();
    assert_eq!(
        noted
            .iter()
            .filter(|n| **n == ("900+10", "sabah-active30"))
            .count(),
        1
    );
    assert_eq!(
        noted
            .iter()
            .filter(|n| **n == ("600", "fide-rapid"))
            .count(),
        6
    );
    assert_eq!(
        noted
            .iter()
            .filter(|n| **n == ("1/259200", "fide-rapid"))
            .count(),
        2
    );
    assert_eq!(noted.len(), 9);
    let a30 = rows.iter().find(|r| r["time_control"] == "900+10").unwrap();
    assert!(a30["detail"].ends_with("; note: TimeControl \"900+10\" is not a control sabah-active30 is for (30 minutes each without increment, Sabah i.1)"), "{}", a30["detail"]);
    let daily = rows
        .iter()
        .find(|r| r["time_control"] == "1/259200")
        .unwrap();
    assert!(
        daily["detail"].contains(
            "is a daily (correspondence) control; fide-rapid is for games over the board"
        ),
        "{}",
        daily["detail"]
    );
    assert!(
        err.contains("(9 games under a control its ruleset is not for: see detail)"),
        "{err}"
    );

    // --strict-rules: those nine go to review, citing the control's rule.
    let (strict, _) = run(&["--strict-rules"]);
    let review: Vec<&common::Row> = strict
        .iter()
        .filter(|r| r["reason"] == "ruleset-mismatch")
        .collect();
    assert_eq!(review.len(), 9);
    assert!(review
        .iter()
        .all(|r| r["status"] == "review" && r["result"] == "*"));
    let a30 = review
        .iter()
        .find(|r| r["time_control"] == "900+10")
        .unwrap();
    assert_eq!(a30["rule"], "Sabah i.1");
    assert!(
        a30["detail"].starts_with("TimeControl \"900+10\" is not a control sabah-active30 is for"),
        "{}",
        a30["detail"]
    );
    // Every other row as without it.
    let same = strict
        .iter()
        .zip(&rows)
        .filter(|(s, r)| s["reason"] != "ruleset-mismatch" && s == r)
        .count();
    assert_eq!(same, 45 - 9);

    // --no-rules-map: one ruleset for all, every file read.
    let (all, _) = run(&["--no-rules-map"]);
    assert_eq!(all.len(), 46);
    assert!(all.iter().all(|r| r["ruleset"] == "fide-rapid"));
}

/// A map entry naming a ruleset that does not exist is refused, naming the
/// file and the entry.
#[test]
fn a_rules_map_with_a_wrong_ruleset_is_refused_by_entry() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("map.toml");
    std::fs::write(&map, "[[map]]\npath = \"*.pgn\"\nrules = \"fide-rapid\"\n[[map]]\nevent = \"x\"\nrules = \"ddcl\"\n").unwrap();
    let o = common::arbiter(&[
        "adjudicate",
        "--rules-map",
        map.to_str().unwrap(),
        common::sample("hs-league.pgn").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("map.toml: map entry 2: rules: "), "{err}");
}

#[test]
fn a_map_entry_for_a_file_that_is_not_there_is_said() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        common::sample("hs-league.pgn"),
        dir.path().join("hs-league.pgn"),
    )
    .unwrap();
    // Entry 1 is misspelt; entry 2 names the file but no game of it (its
    // event is another), which a run on part of a folder meets too.
    std::fs::write(
        dir.path().join("rules-map.toml"),
        "[[map]]\npath = \"hs-legue.pgn\"\nrules = \"hs-league\"\n\n\
         [[map]]\npath = \"hs-league.pgn\"\nevent = \"Other\"\nrules = \"hs-league\"\n",
    )
    .unwrap();
    let o = common::arbiter(&["adjudicate", "-q", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    let map = dir.path().join("rules-map.toml");
    assert_eq!(
        err.trim(),
        format!(
            "arbiter: {}: map entry 1 (path = \"hs-legue.pgn\") matched no game: is a name misspelt?",
            map.display()
        )
    );
    let rows = parse_csv(&o.stdout);
    assert!(
        rows.iter().all(|r| r["ruleset"] == "fide-rapid"),
        "{rows:?}"
    );
    // Spelt right, it is used and nothing is said.
    std::fs::write(
        &map,
        "[[map]]\npath = \"hs-league.pgn\"\nrules = \"hs-league\"\n",
    )
    .unwrap();
    let o = common::arbiter(&["adjudicate", "-q", dir.path().to_str().unwrap()]);
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(parse_csv(&o.stdout)
        .iter()
        .all(|r| r["ruleset"] == "hs-league"));
}

/// A win credited to a side with a bare king against a queen: drawn under
/// FIDE 5.1.2, but USCF 13B has no such exception; under USCF, a record
/// that does not say it was a resignation could as well be a flag, which
/// 14E1 draws: review.
#[test]
fn resigned_against_a_bare_king() {
    let pgn = "[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/3k1K2/8/8/8/6q1 b - - 0 70\"]\n\n70... Qg2 71. Kf6 1-0\n";
    let resigned = pgn.replace("[SetUp", "[Termination \"Black resigned\"]\n[SetUp");
    matrix(&resigned, "resigned_against_a_bare_king");
    assert_detail_contains(
        &judge_one("uscf", &resigned),
        "White cannot mate with K v K+Q: no helpmate exists (insufficient material), which does not void a resignation under these rules",
    );
    matrix(pgn, "won_against_a_bare_king_how_unsaid");
    assert_detail_contains(
        &judge_one("uscf", pgn),
        "the record does not say how the game ended: a resignation stands (USCF 13B), but a fallen flag would not certainly give this win (USCF 14E1)",
    );
}

/// The high-school league's controls are its text's: game 30 or 60 (HSL
/// I.2), and game 5 for a tied championship's sudden-victory games (XV.4.1).
/// US forms are read (a delay adds no time); a tag read no way is said, and
/// the game judged as at the league's own control.
#[test]
fn the_hs_leagues_controls_and_us_forms() {
    let game = |tc: &str| {
        format!("[TimeControl \"{tc}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n")
    };
    for tc in ["1800", "3600", "300", "G/30", "G/30;d5", "G/60 d5", "G/5"] {
        let row = judge_one("hs-league", &game(tc));
        assert!(!row["detail"].contains("note:"), "{tc}: {}", row["detail"]);
    }
    let row = judge_one("hs-league", &game("600"));
    assert!(row["detail"].ends_with("; note: TimeControl \"600\" is not a control hs-league is for (30 minutes each without increment or 60 minutes each without increment or 5 minutes each without increment, HSL I.2; HSL XV.4.1)"), "{}", row["detail"]);
    let row = judge_one("hs-league", &game("1800+5"));
    assert!(
        row["detail"].contains("; note: TimeControl \"1800+5\" is not a control"),
        "{}",
        row["detail"]
    );
    // Read in words as a tournament file's is; a tag read no way is said
    // once, by the clocks, and is no control "not for" the ruleset: under
    // --strict-rules (and under uscf, which is for any) the mate stands.
    let row = judge_one("hs-league", &game("30 min"));
    assert!(
        row["detail"].ends_with("; TimeControl \"30 min\" read as words: 1800"),
        "{}",
        row["detail"]
    );
    // Words say their units: a first clock above 30 minutes does not turn
    // them into minutes written as seconds (as lichess's `90+30` is).
    let late = game("30 min").replace("1. e4 e5", "1. e4 {[%clk 0:45:00]} e5");
    let row = judge_one("hs-league", &late);
    assert!(
        !row["detail"].contains("read as minutes"),
        "{}",
        row["detail"]
    );
    for rules in ["hs-league", "uscf"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.pgn");
        std::fs::write(&path, game("Game in 30")).unwrap();
        let o = common::arbiter(&[
            "adjudicate",
            "-q",
            "--strict-rules",
            "--no-rules-map",
            "-r",
            rules,
            path.to_str().unwrap(),
        ]);
        let rows = parse_csv(&o.stdout);
        assert_eq!(
            (rows[0]["status"].as_str(), rows[0]["reason"].as_str()),
            ("confirmed", "checkmate"),
            "{rules}"
        );
        assert_eq!(
            rows[0]["detail"].matches("Game in 30").count(),
            1,
            "{}",
            rows[0]["detail"]
        );
        assert!(
            rows[0]["detail"].contains("TimeControl \"Game in 30\" is not PGN; the ruleset's"),
            "{}",
            rows[0]["detail"]
        );
    }
}
