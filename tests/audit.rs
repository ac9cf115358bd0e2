//! `arbiter audit`: the shipped list (every planted fault found, and
//! nothing else), lists as files, and the TRF report read back by a real
//! pairing engine.

use crate::common;

use std::process::Command;

use common::{arbiter, parse_csv, sample, trf_players, Row};

#[test]
fn active30_audit_finds_the_planted_faults_and_nothing_else() {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "audit",
            "--list",
            "active30",
            sample("active30-rated-list.pgn").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    let rows = parse_csv(&o.stdout);
    let got: Vec<(String, String, String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["game"].clone(),
                r["round"].clone(),
                r["finding"].clone(),
                r["rule"].clone(),
            )
        })
        .collect();
    let want: Vec<(String, String, String, String)> = [
        ("8", "1", "time-control", "Sabah i.1"),
        ("10", "3", "time-control", "Sabah i.1"),
        ("11", "4", "result", "Sabah iv.1(f)"),
        ("7", "7", "rounds-per-day", "Sabah v.11"),
    ]
    .iter()
    .map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string()))
    .collect();
    assert_eq!(got, want);
    assert!(rows[0]["detail"].contains("\"900+10\" is not 30 minutes each without increment"));
    assert!(rows[1]["detail"].contains("a clock rises between moves"));
    assert!(rows[2]["detail"].contains("rated as 1-0, judged 1/2-1/2"));
    assert_eq!(rows[3]["white"], "Lim, Wei Ming");
    assert_eq!(
        rows[3]["detail"],
        "the tournament \"Sabah Active-30 Rated\" had 7 rounds on 2023.08.12 (rounds 1, 2, 3, 4, 5, 6, 7); not more than 6 a day: the games of round 7 not rated"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("audited 11 games against the Sabah Active-30 rated list: 4 findings (1 result, 1 rounds-per-day, 2 time-control); 3 games not rated"),
        "{err}"
    );
}

#[test]
fn six_rounds_a_day_is_allowed_and_missing_clocks_are_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for r in 1..=6 {
        text.push_str(&format!("[Date \"2024.01.06\"]\n[Round \"{r}\"]\n[White \"A\"]\n[Black \"B{r}\"]\n[TimeControl \"1800\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"));
    }
    text.push_str("[Date \"2024.01.07\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"C\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n");
    let f = dir.path().join("list.pgn");
    std::fs::write(&f, text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["audit", "--list", "active30", f.to_str().unwrap()])
        .output()
        .unwrap();
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["game"], "7");
    assert_eq!(rows[0]["finding"], "time-control");
    assert!(rows[0]["detail"].contains("no TimeControl tag and no clock readings"));
}

/// Control characters in a player's name are written as spaces in the TRF,
/// one for one: no line is forged and the columns stay (issue 34).
#[test]
fn control_characters_in_names_stay_out_of_the_trf() {
    let dir = tempfile::tempdir().unwrap();
    let list = std::fs::read_to_string(sample("active30-rated-list.pgn"))
        .unwrap()
        .replace("Lim, Wei Ming", "Lim, Wei\u{b}Ming\u{1b}");
    let pgn = dir.path().join("list.pgn");
    std::fs::write(&pgn, list).unwrap();
    let trf = dir.path().join("list.trf");
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "audit",
            "--list",
            "active30",
            pgn.to_str().unwrap(),
            "-o",
            "/dev/null",
        ])
        .arg("--trf")
        .arg(&trf)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&trf).unwrap();
    assert!(
        !text
            .replace("\r\n", "\n")
            .chars()
            .any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    let clean = {
        let plain = dir.path().join("plain.trf");
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args([
                "audit",
                "--list",
                "active30",
                sample("active30-rated-list.pgn").to_str().unwrap(),
                "-o",
                "/dev/null",
            ])
            .arg("--trf")
            .arg(&plain)
            .output()
            .unwrap();
        std::fs::read_to_string(plain).unwrap()
    };
    assert_eq!(text.lines().count(), clean.lines().count());
    assert!(text.contains("Lim, Wei Ming "), "{text}");
}

/// A FIDE standard list of the test's own (base plus 60 increments over 59
/// minutes): the broadcast's games are 90 minutes plus 30 seconds.
const STANDARD_LIST: &str = r#"
name = "standard"
title = "Standard rated list"
ruleset = "fide-standard"
[control]
more_than_minutes = 59
rule = "FIDE A.1"
"#;

/// A real Swiss-style event (a lichess broadcast: `Round "1.3"` is round 1,
/// board 3; FIDE ids and titles in the tags) becomes a TRF of nine rounds
/// that bbpPairings reads in check mode, with our points.
#[test]
fn a_real_broadcast_is_a_nine_round_trf_a_pairing_engine_reads() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("standard.toml");
    std::fs::write(&list, STANDARD_LIST).unwrap();
    let trf = dir.path().join("event.trf");
    let f = common::data("games-with-clocks/lichess-broadcast-study_BBDDNRR_2025_OTB.pgn");
    let o = arbiter(&[
        "audit",
        "--list",
        list.to_str().unwrap(),
        f.to_str().unwrap(),
        "-o",
        dir.path().join("findings.csv").to_str().unwrap(),
        "--trf",
        trf.to_str().unwrap(),
        "--trf-event",
        "BBDDNRR 2025",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(
            "audited 45 games against the Standard rated list: 0 findings; 0 games not rated"
        ),
        "{err}"
    );
    // The Event tags name each pairing: the given name is used. No Date and
    // no TimeControl tag: said, and the lines left empty.
    assert!(
        err.contains("no game has a TimeControl tag: the 122 line is empty"),
        "{err}"
    );
    // Rounds told apart by their numbers, as ever: not said.
    assert!(!err.contains("rounds told apart"), "{err}");
    // No Date tags, but UTCDate on every game: the dates from it, said.
    assert!(
        err.contains("45 games have no complete Date tag: dated by UTCDate, the day in UTC"),
        "{err}"
    );
    let text = std::fs::read_to_string(&trf).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "012 BBDDNRR 2025");
    assert!(lines.contains(&"042 2025/02/27"), "{text}");
    assert_eq!(lines[5], "062 10");
    assert_eq!(lines[6], "072 10");
    assert!(lines.contains(&"XXR 9"), "{text}");
    let players = trf_players(&text);
    assert_eq!(players.len(), 10);
    // Every player has a FIDE id and a title, from the tags.
    let oro = players.iter().find(|p| p.2 == "Oro, Faustino").unwrap();
    assert_eq!(
        (oro.1.as_str(), oro.3.as_str(), oro.5.as_str()),
        ("FM", "2351", "20000197")
    );
    assert!(players
        .iter()
        .all(|p| !p.1.is_empty() && p.5.parse::<u64>().is_ok()));
    // Nine rounds, everyone paired in each, every game rated.
    for p in &players {
        assert_eq!(p.7.len(), 9, "{}", p.2);
        assert!(
            p.7.iter().all(|g| g.0 > 0 && "10=".contains(g.2)),
            "{:?}",
            p
        );
    }
    // Our points are the games' results: 18 wins for White, 9 for Black, 18 draws.
    let total: f64 = players.iter().map(|p| p.6).sum();
    assert_eq!(total, 45.0);
    // Round 1, board 1: Malka (White) lost to Hernandez.
    let malka = players.iter().find(|p| p.2 == "Malka, Samuel").unwrap();
    let hernandez = players
        .iter()
        .find(|p| p.2 == "Hernandez, Cristian Andres")
        .unwrap();
    assert_eq!(malka.7[0], (hernandez.0, 'w', '0'));
    assert_eq!(hernandez.7[0], (malka.0, 'b', '1'));

    if !common::tools(
        "a_real_broadcast_is_a_nine_round_trf_a_pairing_engine_reads",
        &[common::Tool::Cpp],
    ) {
        return;
    }
    let bbp = common::bbp_pairings();
    for file in [trf.clone(), {
        // The sample list too, with its unrated games.
        let t = dir.path().join("list.trf");
        let o = arbiter(&[
            "audit",
            "-q",
            "--list",
            "active30",
            common::sample("active30-rated-list.pgn").to_str().unwrap(),
            "-o",
            dir.path().join("f.csv").to_str().unwrap(),
            "--trf",
            t.to_str().unwrap(),
        ]);
        assert!(o.status.success());
        t
    }] {
        let o = std::process::Command::new(&bbp)
            .arg("--dutch")
            .arg(&file)
            .arg("-c")
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "bbpPairings -c {}: {}{}",
            file.display(),
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // Check mode recomputes each score from the results and refuses a file
    // where one differs: so its acceptance says our points are right. One
    // point changed, it refuses.
    let text = std::fs::read_to_string(&trf).unwrap();
    let wrong: Vec<String> = text
        .lines()
        .map(|l| match l.strip_prefix("001    1") {
            Some(_) => format!("{} 9.0{}", &l[..80], &l[84..]),
            None => l.to_string(),
        })
        .collect();
    let bad = dir.path().join("wrong.trf");
    std::fs::write(&bad, wrong.join("\n")).unwrap();
    let o = std::process::Command::new(&bbp)
        .arg("--dutch")
        .arg(&bad)
        .arg("-c")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not match the game results"));
    // The next round of a Swiss (six players, two rounds played) paired:
    // XXR must count it (--trf-rounds), as the engine refuses to pair past
    // the rounds the file reports.
    let mut swiss = String::new();
    for (round, pairs) in [
        (1, [("A", "B"), ("C", "D"), ("E", "F")]),
        (2, [("D", "A"), ("B", "E"), ("F", "C")]),
    ] {
        for (w, b) in pairs {
            swiss.push_str(&format!(
                "[Event \"T\"]\n[Site \"S\"]\n[Date \"2025.03.0{round}\"]\n[Round \"{round}\"]\n\
                 [White \"{w}, P\"]\n[Black \"{b}, P\"]\n[TimeControl \"1800\"]\n[Result \"1-0\"]\n\n\
                 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
            ));
        }
    }
    let pgn = dir.path().join("swiss.pgn");
    std::fs::write(&pgn, swiss).unwrap();
    let next = dir.path().join("next.trf");
    let findings = dir.path().join("f2.csv");
    let audit = |rounds: &[&str]| {
        let mut args = vec![
            "audit",
            "-q",
            "--list",
            "active30",
            pgn.to_str().unwrap(),
            "-o",
            findings.to_str().unwrap(),
            "--trf",
            next.to_str().unwrap(),
        ];
        args.extend(rounds);
        arbiter(&args)
    };
    let pair = || {
        std::process::Command::new(&bbp)
            .arg("--dutch")
            .arg(&next)
            .arg("-p")
            .output()
            .unwrap()
    };
    assert!(audit(&[]).status.success());
    let o = pair();
    assert_eq!(o.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("larger than the reported number of rounds")
    );
    assert!(audit(&["--trf-rounds", "5"]).status.success());
    assert!(std::fs::read_to_string(&next)
        .unwrap()
        .lines()
        .any(|l| l == "XXR 5"));
    let o = pair();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).lines().next(),
        Some("3"),
        "three boards"
    );
    let o = audit(&["--trf-rounds", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("--trf-rounds 1 is fewer than the 2 rounds the report has"));
}

/// The second built-in list runs from its file alone, and a game a finding
/// excludes can be left out of the TRF instead of written as not rated.
#[test]
fn a_list_from_its_file_alone_and_excluded_games_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("rapid.toml");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/lists/fide-rapid.toml"),
        &list,
    )
    .unwrap();
    let pgn = dir.path().join("rapid.pgn");
    let game = |round: &str, w: &str, b: &str, tc: &str, result: &str| {
        format!("[Event \"Club Rapid\"]\n[Site \"Leeds\"]\n[Date \"2024.03.02\"]\n[Round \"{round}\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[TimeControl \"{tc}\"]\n[Result \"{result}\"]\n\n1. e4 e5 2. Nf3 Nc6 {result}\n\n")
    };
    let text = [
        game("1.1", "Able, Ann", "Baker, Bob", "900+10", "1-0"),
        game("1.2", "Cole, Cy", "Dunn, Di", "600", "0-1"),
        game("2.1", "Able, Ann", "Cole, Cy", "3600", "1/2-1/2"),
        game("2.2", "Baker, Bob", "Dunn, Di", "1500+10", "1/2-1/2"),
    ]
    .concat();
    std::fs::write(&pgn, text).unwrap();
    let trf = dir.path().join("rapid.trf");
    let o = arbiter(&[
        "audit",
        "--list",
        list.to_str().unwrap(),
        pgn.to_str().unwrap(),
        "--trf",
        trf.to_str().unwrap(),
        "--not-rated",
        "omit",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let rows = common::parse_csv(&o.stdout);
    let got: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["game"].as_str(),
                r["finding"].as_str(),
                r["rule"].as_str(),
            )
        })
        .collect();
    // 600 is 10 minutes, not more than 10; 3600 is not less than 60 (FIDE A.1).
    assert_eq!(
        got,
        [
            ("2", "time-control", "FIDE A.1"),
            ("3", "time-control", "FIDE A.1")
        ]
    );
    assert!(rows[0]["detail"]
        .contains("\"600\" is not more than 10 minutes and less than 60 minutes for each player"));
    assert!(err.contains("2 games not rated"), "{err}");
    assert!(
        err.contains("left out: ")
            && err.contains("game 2 (Cole, Cy v Dunn, Di, round 1.2): not rated (time-control)"),
        "{err}"
    );
    let text = std::fs::read_to_string(&trf).unwrap();
    assert!(text.lines().any(|l| l == "XXR 2"), "{text}");
    assert!(text.lines().any(|l| l == "122 900+10"), "{text}");
    let players = trf_players(&text);
    let cole = players.iter().find(|p| p.2 == "Cole, Cy").unwrap();
    // Cole's two games are both left out: not paired in either round.
    assert_eq!(cole.7, [(0, '-', 'Z'), (0, '-', 'Z')]);
    assert_eq!(cole.6, 0.0);
}

/// A name longer than the TRF's 33 columns is cut and said; two names cut
/// alike stop the report.
#[test]
fn names_cut_to_their_columns_are_said_and_collisions_refused() {
    let dir = tempfile::tempdir().unwrap();
    let long = "Bethencourt Hernandez, Alberto Jose";
    let pgn = dir.path().join("long.pgn");
    let game = |w: &str, b: &str| {
        format!("[Date \"2024.03.02\"]\n[Round \"1\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[TimeControl \"1800\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n")
    };
    std::fs::write(&pgn, game(long, "Short, S")).unwrap();
    let trf = dir.path().join("long.trf");
    let args = |p: &std::path::Path| {
        vec![
            "audit".to_string(),
            "--list".into(),
            "active30".into(),
            p.to_str().unwrap().into(),
            "-o".into(),
            dir.path().join("f.csv").to_str().unwrap().into(),
            "--trf".into(),
            trf.to_str().unwrap().into(),
        ]
    };
    let a = args(&pgn);
    let o = arbiter(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("the name \"Bethencourt Hernandez, Alberto Jose\" is cut to its 33 columns: \"Bethencourt Hernandez, Alberto Jo\""), "{err}");
    let both = dir.path().join("both.pgn");
    std::fs::write(&both, game(long, "Bethencourt Hernandez, Alberto Joaquin")).unwrap();
    std::fs::remove_file(&trf).unwrap();
    let a = args(&both);
    let o = arbiter(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("are both \"Bethencourt Hernandez, Alberto Jo\" when cut"),
        "{err}"
    );
    assert!(!trf.exists());
}

/// A line with `fields` at their 1-based columns, as TRF-16 places them.
fn columns(fields: &[(usize, &str)]) -> String {
    let mut l: Vec<u8> = Vec::new();
    for (c, text) in fields {
        if l.len() < c - 1 + text.len() {
            l.resize(c - 1 + text.len(), b' ');
        }
        l[c - 1..c - 1 + text.len()].copy_from_slice(text.as_bytes());
    }
    String::from_utf8(l).unwrap()
}

/// A tournament file as Swiss-Manager writes one, by hand from TRF-16:
/// three rounds on the 12th of August, Lim's games among them.
fn tournament(control: &str) -> String {
    let player = |n: &str, name: &str, elo: &str, pts: &str, rounds: &[(&str, &str, &str)]| {
        let mut f = vec![(1, "001"), (5, n), (15, name), (49, elo), (81, pts)];
        for (i, (o, c, r)) in rounds.iter().enumerate() {
            f.extend([(92 + 10 * i, *o), (97 + 10 * i, *c), (99 + 10 * i, *r)]);
        }
        columns(&f)
    };
    [
        "012 Sabah Active-30 Rated".to_string(),
        "022 Kota Kinabalu".into(),
        "032 MAS".into(),
        "102 Ahmad, Ismail".into(),
        format!("122 {control}"),
        columns(&[
            (1, "132"),
            (92, "23/08/12"),
            (102, "23/08/12"),
            (112, "23/08/12"),
        ]),
        player(
            "   1",
            "Lim, Wei Ming",
            "1850",
            " 0.0",
            &[("   2", "w", "0"), ("   3", "w", "0"), ("   4", "w", "0")],
        ),
        player(
            "   2",
            "Chong, Daniel",
            "1700",
            " 2.0",
            &[("   1", "b", "1"), ("0000", "-", "Z"), ("   3", "w", "1")],
        ),
        player(
            "   3",
            "Rahman, Siti",
            "1600",
            " 1.5",
            &[("   4", "w", "="), ("   1", "b", "1"), ("   2", "b", "0")],
        ),
        player(
            "   4",
            "Tan, Mei Ling",
            "",
            " 1.5",
            &[("   3", "b", "="), ("0000", "-", "Z"), ("   1", "b", "1")],
        ),
    ]
    .join("\n")
        + "\n"
}

/// A game read beside a tournament file matches its game by the players'
/// letters: "Lim Wei Ming" in the PGN is the file's "Lim, Wei Ming", so the
/// findings are those of the sample as written.
#[test]
fn a_tournament_files_games_match_names_written_without_commas() {
    let dir = tempfile::tempdir().unwrap();
    let trf = dir.path().join("sabah.trf");
    std::fs::write(&trf, tournament("30 min")).unwrap();
    let sample = std::fs::read_to_string(common::sample("active30-rated-list.pgn")).unwrap();
    let plain = dir.path().join("plain.pgn");
    std::fs::write(
        &plain,
        sample.replace("\"Lim, Wei Ming\"", "\"Lim Wei Ming\""),
    )
    .unwrap();
    let findings = |pgn: &std::path::Path| {
        let o = arbiter(&[
            "audit",
            "--list",
            "active30",
            trf.to_str().unwrap(),
            pgn.to_str().unwrap(),
        ]);
        parse_csv(&o.stdout)
            .iter()
            .map(|r| (r["finding"].clone(), r["round"].clone()))
            .collect::<Vec<_>>()
    };
    let written = findings(&common::sample("active30-rated-list.pgn"));
    assert!(
        written.iter().any(|(f, _)| f == "trf-result"),
        "{written:?}"
    );
    assert_eq!(findings(&plain), written);
}

/// Spellings of one name that differ by accents or by the order of the
/// names are each a `name-variant` finding.
#[test]
fn accents_and_word_order_are_name_variants() {
    let dir = tempfile::tempdir().unwrap();
    let game = |round: &str, white: &str, black: &str| {
        format!("[Event \"E\"]\n[Date \"2024.07.07\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"1-0\"]\n[TimeControl \"1800\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 1-0\n\n")
    };
    let pgn = dir.path().join("v.pgn");
    std::fs::write(
        &pgn,
        [
            game("1", "Müller, Hans", "Lim, A"),
            game("2", "Lim, A", "Muller, Hans"),
            game("3", "Hans Müller", "Lim, A"),
        ]
        .concat(),
    )
    .unwrap();
    let o = arbiter(&["audit", "--list", "active30", pgn.to_str().unwrap()]);
    let mut got: Vec<String> = parse_csv(&o.stdout)
        .iter()
        .filter(|r| r["finding"] == "name-variant")
        .map(|r| {
            r["detail"]
                .split(": the TRF")
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            "\"Hans Müller\" (1 game) and \"Muller, Hans\" (1 game) may be one player (the same names in another order)",
            "\"Hans Müller\" (1 game) and \"Müller, Hans\" (1 game) may be one player (the same names in another order)",
            "\"Muller, Hans\" (1 game) and \"Müller, Hans\" (1 game) may be one player (the same letters)",
        ]
    );
}

/// Rounds written with their word (`R2.1`) are rounds like `2.1`; the
/// summary counts every game the report has no place for (a round clash,
/// a round unknown, one player twice) apart from those not rated.
#[test]
fn rounds_with_their_word_and_games_left_out_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let game = |round: &str, white: &str, black: &str| {
        format!("[Event \"E\"]\n[Date \"2024.07.07\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"1-0\"]\n[TimeControl \"1800\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 1-0\n\n")
    };
    let pgn = dir.path().join("r.pgn");
    std::fs::write(
        &pgn,
        [
            game("1.1", "A, A", "B, B"),
            game("1.2", "C, C", "D, D"),
            game("R2.1", "A, A", "C, C"),
            game("R2.2", "B, B", "D, D"),
        ]
        .concat(),
    )
    .unwrap();
    let trf = dir.path().join("r.trf");
    let o = arbiter(&[
        "audit",
        "--list",
        "active30",
        "--trf",
        trf.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let text = std::fs::read_to_string(&trf).unwrap();
    assert!(text.lines().any(|l| l == "XXR 2"), "{text}");
    let players = trf_players(&text);
    let a = players.iter().find(|p| p.2 == "A, A").unwrap();
    assert_eq!(a.7, [(2, 'w', '1'), (3, 'w', '1')]);
    // A clash in round 1, a round unknown, one player twice.
    std::fs::write(
        &pgn,
        [
            game("1.1", "A, A", "B, B"),
            game("1.2", "C, C", "D, D"),
            game("1.3", "A, A", "C, C"),
            game("?", "B, B", "D, D"),
            game("2.1", "B, B", "B, B"),
        ]
        .concat(),
    )
    .unwrap();
    let o = arbiter(&["audit", "--list", "active30", pgn.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("audited 5 games against the Sabah Active-30 rated list: 3 findings (1 players, 1 round-clash, 1 round-unknown); 0 games not rated; 3 games left out of the TRF report"),
        "{err}"
    );
}

/// A tournament file's byes and its players without a game are kept:
/// each bye with its own code and points, a player who never played with
/// his line of zero-point byes; a PGN bye (`BYE` on either side) is the
/// file's bye, not a game the file lacks.
#[test]
fn a_tournament_files_byes_and_absent_players_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let trf = dir.path().join("byes.trf");
    let extra = [
        columns(&[
            (1, "001"),
            (5, "   5"),
            (15, "Wong, Ah Kow"),
            (49, "1500"),
            (81, " 1.5"),
            (92, "0000"),
            (97, "-"),
            (99, "F"),
            (102, "0000"),
            (107, "-"),
            (109, "H"),
            (112, "0000"),
            (117, "-"),
            (119, "Z"),
        ]),
        columns(&[
            (1, "001"),
            (5, "   6"),
            (15, "Yusof, Aminah"),
            (81, " 0.0"),
            // Absent in round 1, as programs often write it: no bye.
            (92, "0000"),
            (97, "-"),
            (99, "-"),
        ]),
    ];
    std::fs::write(&trf, tournament("30 min") + &extra.join("\n") + "\n").unwrap();
    let out = dir.path().join("out.trf");
    let o = arbiter(&[
        "audit",
        "--list",
        "active30",
        "--trf",
        out.to_str().unwrap(),
        trf.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        parse_csv(&o.stdout).is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(
        err.contains("audited the 5 games and 2 byes of ") && err.contains("0 games not rated"),
        "{err}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.lines().any(|l| l.trim_end() == "062 6"), "{text}");
    let players = trf_players(&text);
    let wong = players.iter().find(|p| p.2 == "Wong, Ah Kow").unwrap();
    assert_eq!(
        (wong.6, wong.7.as_slice()),
        (1.5, &[(0, '-', 'F'), (0, '-', 'H'), (0, '-', 'Z')][..])
    );
    let yusof = players.iter().find(|p| p.2 == "Yusof, Aminah").unwrap();
    assert_eq!(
        (yusof.6, yusof.7.as_slice()),
        (0.0, &[(0, '-', 'Z'); 3][..])
    );
    // Chong's zero-point bye in round 2 stays one.
    let chong = players.iter().find(|p| p.2 == "Chong, Daniel").unwrap();
    assert_eq!(chong.7[1], (0, '-', 'Z'));

    // Games read beside it: Wong's bye written as `BYE - Wong` (0-1) is the
    // file's full-point bye; as a loss it contradicts the file.
    let pgn = dir.path().join("byes.pgn");
    let game = |result: &str| {
        format!(
            "[Event \"Sabah Active-30 Rated\"]\n[Date \"2023.08.12\"]\n[Round \"1\"]\n[White \"BYE\"]\n[Black \"Wong, Ah Kow\"]\n[Result \"{result}\"]\n[TimeControl \"1800\"]\n\n{result}\n"
        )
    };
    for (result, findings) in [("0-1", vec![]), ("1-0", vec!["trf-result"])] {
        std::fs::write(&pgn, game(result)).unwrap();
        let o = arbiter(&[
            "audit",
            "--list",
            "active30",
            trf.to_str().unwrap(),
            pgn.to_str().unwrap(),
        ]);
        let rows = parse_csv(&o.stdout);
        let got: Vec<&str> = rows.iter().map(|r| r["finding"].as_str()).collect();
        assert_eq!(got, findings, "{result}: {rows:?}");
        if let Some(r) = rows.first() {
            assert!(
                r["detail"].starts_with("the tournament file gives Wong, Ah Kow 1 point for his bye in round 1; the game read (")
                    && r["detail"].ends_with("game 1) gives no point: not rated until the officer decides"),
                "{}",
                r["detail"]
            );
            assert_eq!(r["rule"], "FIDE C.04 Annex 2");
        }
    }
}

/// A TRF from another program is the list: audited alone (its 122 line
/// against the list's control, its rounds a day from 132), and with the
/// games, each result checked against the game played.
#[test]
fn a_tournament_file_is_audited_with_and_without_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let trf = dir.path().join("sabah.trf");
    std::fs::write(&trf, tournament("30 min")).unwrap();
    let out = dir.path().join("out.trf");
    let run = |inputs: &[&str]| {
        let mut args = vec![
            "audit",
            "--list",
            "active30",
            "--trf",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(inputs);
        let o = arbiter(&args);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{err}");
        (parse_csv(&o.stdout), err)
    };
    // Alone: clean, and written again with the same games and points.
    let (rows, err) = run(&[trf.to_str().unwrap()]);
    assert!(rows.is_empty(), "{rows:?}");
    assert!(
        err.contains("sabah.trf (0 games read beside it) against the Sabah Active-30 rated list: 0 findings; 0 games not rated")
            && err.contains("audited the 5 games of "),
        "{err}"
    );
    let again = std::fs::read_to_string(&out).unwrap();
    // TRF-16: each line ends with CR (and LF, as Swiss-Manager writes).
    assert!(
        again.ends_with("\r\n") && again.matches('\n').count() == again.matches("\r\n").count()
    );
    let players = trf_players(&again);
    let pts: Vec<(&str, f64)> = players.iter().map(|p| (p.2.as_str(), p.6)).collect();
    assert_eq!(
        pts,
        [
            ("Lim, Wei Ming", 0.0),
            ("Chong, Daniel", 2.0),
            ("Rahman, Siti", 1.5),
            ("Tan, Mei Ling", 1.5)
        ]
    );
    assert_eq!(players[0].7, [(2, 'w', '0'), (3, 'w', '0'), (4, 'w', '0')]);
    assert!(again.lines().any(|l| l == "122 30 min"), "{again}");
    assert!(again.lines().any(|l| l == "XXR 3"), "{again}");
    // Its federation and chief arbiter are kept, and not asked for.
    assert!(again.lines().any(|l| l == "032 MAS"), "{again}");
    assert!(again.lines().any(|l| l == "102 Ahmad, Ismail"), "{again}");
    assert!(!err.contains("--trf-federation"), "{err}");

    // With the games: Lim beat Rahman in round 2 (game 2 of the sample),
    // the file says he lost; the other rounds agree. The sample's games the
    // file does not have are findings too.
    let sample = common::sample("active30-rated-list.pgn");
    let (rows, _) = run(&[trf.to_str().unwrap(), sample.to_str().unwrap()]);
    let contradiction: Vec<&common::Row> = rows
        .iter()
        .filter(|r| r["finding"] == "trf-result")
        .collect();
    assert_eq!(contradiction.len(), 1, "{rows:?}");
    let c = contradiction[0];
    assert_eq!(
        (
            c["game"].as_str(),
            c["round"].as_str(),
            c["white"].as_str(),
            c["black"].as_str(),
            c["rule"].as_str()
        ),
        ("3", "2", "Lim, Wei Ming", "Rahman, Siti", "Sabah iii.1(b)")
    );
    // The row names the file's game (its third), the rule the game's result stands on.
    assert!(c["source"].ends_with("sabah.trf"));
    assert_eq!(c["date"], "2023.08.12");
    assert!(
        c["detail"].starts_with(
            "the tournament file has 0-1 for round 2 (Lim, Wei Ming v Rahman, Siti); the game ("
        ),
        "{}",
        c["detail"]
    );
    assert!(
        c["detail"]
            .ends_with("game 2) is 1-0 under sabah-active30: not rated until the officer decides"),
        "{}",
        c["detail"]
    );
    let missing: Vec<&str> = rows
        .iter()
        .filter(|r| r["finding"] == "not-in-trf")
        .map(|r| r["game"].as_str())
        .collect();
    assert_eq!(missing, ["4", "5", "6", "7", "8", "9", "10", "11"]);
    let again = std::fs::read_to_string(&out).unwrap();
    let lim = &trf_players(&again)[0];
    assert_eq!(lim.7[1], (3, 'w', 'L'));
    assert_eq!(lim.7[0], (2, 'w', '0'));

    // A 122 line that is not the list's control: one finding for the file,
    // and none of its games rated.
    std::fs::write(&trf, tournament("15 min + 10 sec")).unwrap();
    let (rows, err) = run(&[trf.to_str().unwrap()]);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        (
            rows[0]["game"].as_str(),
            rows[0]["finding"].as_str(),
            rows[0]["rule"].as_str()
        ),
        ("0", "time-control", "Sabah i.1")
    );
    assert_eq!(rows[0]["detail"], "the tournament file's 122 line \"15 min + 10 sec\" is not 30 minutes each without increment");
    assert!(err.contains("5 games not rated"), "{err}");
    // The report is never written over the file read.
    let o = arbiter(&[
        "audit",
        "--list",
        "active30",
        trf.to_str().unwrap(),
        "--trf",
        trf.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is the tournament file read: refused"));
    assert_eq!(
        std::fs::read_to_string(&trf).unwrap(),
        tournament("15 min + 10 sec")
    );
    // A broken player line is an error naming the file, line and column.
    std::fs::write(&trf, tournament("30 min").replace("001    4", "001    x")).unwrap();
    let o = arbiter(&["audit", "--list", "active30", trf.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("sabah.trf line 10 column 5: the starting rank (columns 5-8) is not a number"),
        "{err}"
    );
}

/// The report read back as a list: names with accents keep every column
/// in place (columns are characters both ways), an odd `Date` is no date,
/// and a file whose two lines of a game disagree is refused.
#[test]
fn the_report_reads_back_with_accents_and_odd_dates() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("acc.pgn");
    let game = |round: &str, date: &str, w: &str, b: &str, r: &str| {
        format!("[Date \"{date}\"]\n[Round \"{round}\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[TimeControl \"1800\"]\n[Result \"{r}\"]\n\n1. e4 e5 {r}\n\n")
    };
    let text = [
        game("1", "2024.03.02", "Pérez, Ana", "Müller, Jörg", "1-0"),
        game("1", "2024.03.02", "Çelik, Ali", "Lee, Bo", "0-1"),
        game("2", "€3.08.12", "Pérez, Ana", "Lee, Bo", "1/2-1/2"),
        game("2", "????.??.??", "Müller, Jörg", "Çelik, Ali", "1-0"),
    ]
    .concat();
    std::fs::write(&pgn, text).unwrap();
    let trf = dir.path().join("acc.trf");
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        pgn.to_str().unwrap(),
        "-o",
        dir.path().join("f.csv").to_str().unwrap(),
        "--trf",
        trf.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let written = std::fs::read_to_string(&trf).unwrap();
    // Two rounds (a game with no full date stays in its round by number).
    assert!(written.lines().any(|l| l == "XXR 2"), "{written}");
    let again = dir.path().join("again.trf");
    let o = arbiter(&[
        "audit",
        "--list",
        "active30",
        trf.to_str().unwrap(),
        "--trf",
        again.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("audited the 4 games of "), "{err}");
    let players = trf_players(&std::fs::read_to_string(&again).unwrap());
    let perez = players.iter().find(|p| p.2 == "Pérez, Ana").unwrap();
    assert_eq!(perez.6, 1.5);
    assert_eq!(perez.7.len(), 2);
    // Both lines claim the win: refused, naming the round and players.
    let broken = written.replacen(" b 0", " b 1", 1);
    std::fs::write(&trf, broken).unwrap();
    let o = arbiter(&["audit", "--list", "active30", trf.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("disagree on their game's result"));
}

/// A round whose only game has no result (`*`) is no round of the report:
/// the sample open's fifth game is unfinished.
#[test]
fn a_round_with_no_result_is_not_counted() {
    let dir = tempfile::tempdir().unwrap();
    let trf = dir.path().join("open.trf");
    let o = arbiter(&[
        "audit",
        "--list",
        "fide-rapid",
        sample("fide-rapid-open.pgn").to_str().unwrap(),
        "-o",
        dir.path().join("f.csv").to_str().unwrap(),
        "--trf",
        trf.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("game 5") && err.contains(": no result"),
        "{err}"
    );
    let text = std::fs::read_to_string(&trf).unwrap();
    assert!(text.lines().any(|l| l == "XXR 4"), "{text}");
    assert!(trf_players(&text).iter().all(|p| p.7.len() <= 4));
}

/// `audit --decisions`: a decided game is rated as decided, in the findings
/// and in the TRF; a decision that is the recorded result leaves no finding.
#[test]
fn decided_games_are_rated_as_decided() {
    let dir = tempfile::tempdir().unwrap();
    let list = sample("active30-rated-list.pgn");
    let run = |decisions: Option<&str>| {
        let trf = dir.path().join("list.trf");
        let mut args = vec![
            "audit".to_string(),
            "-q".into(),
            "--list".into(),
            "active30".into(),
            list.to_str().unwrap().into(),
            "--trf".into(),
            trf.to_str().unwrap().into(),
        ];
        if let Some(d) = decisions {
            let path = dir.path().join("decisions.csv");
            std::fs::write(&path, d).unwrap();
            args.extend(["--decisions".into(), path.to_str().unwrap().into()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = arbiter(&args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let findings = parse_csv(&o.stdout);
        let game11: Vec<Row> = findings.into_iter().filter(|r| r["game"] == "11").collect();
        let players = trf_players(&std::fs::read_to_string(&trf).unwrap());
        let points = |name: &str| players.iter().find(|p| p.2 == name).unwrap().6;
        (game11, points("Jaafar, Azman"), points("Tan, Mei Ling"))
    };
    // Judged: White's 1-0 corrected to a draw (Black's flag, White cannot mate).
    let (f, jaafar, tan) = run(None);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0]["finding"], "result");
    // Game 11's key, as adjudicate gives it.
    let o = arbiter(&[
        "adjudicate",
        "--no-rules-map",
        "-r",
        "sabah-active30",
        list.to_str().unwrap(),
    ]);
    let rows = parse_csv(&o.stdout);
    let key = rows.iter().find(|r| r["game"] == "11").unwrap()["game_key"].clone();
    // Decided as recorded: no finding, rated 1-0.
    let (f, j1, t1) = run(Some(&format!(
        "game_key,result,rule,decided_by\n{key},1-0,Sabah iv.1(f),Chief Arbiter\n"
    )));
    assert!(f.is_empty(), "{f:?}");
    assert_eq!((j1 - jaafar, t1 - tan), (0.5, -0.5));
    // Decided otherwise: a finding that says so, rated as decided.
    let (f, j2, t2) = run(Some(&format!(
        "game_key,result,rule,decided_by\n{key},0-1,Sabah iv.1(f),Chief Arbiter\n"
    )));
    assert_eq!(f.len(), 1);
    assert!(
        f[0]["detail"].starts_with("rated as 1-0, judged 0-1 under sabah-active30"),
        "{}",
        f[0]["detail"]
    );
    assert!(
        f[0]["detail"].contains("decided 0-1 by Chief Arbiter"),
        "{}",
        f[0]["detail"]
    );
    assert_eq!((j2 - jaafar, t2 - tan), (-0.5, 0.5));
}

#[test]
fn an_unfinished_game_beside_a_tournament_file_leaves_its_result_rated() {
    // The tournament file has game 2's result; its PGN is unfinished (`*`).
    // Unfinished and judged so is no contradiction: the file's result is
    // rated as the complete PGN's would be, and no finding is made.
    let dir = tempfile::tempdir().unwrap();
    let game = |white: &str, black: &str, result: &str, moves: &str| {
        format!(
            "[Event \"E\"]\n[Date \"2023.08.12\"]\n[Round \"1\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[TimeControl \"1800\"]\n\n{moves} {result}\n\n"
        )
    };
    let first = game(
        "Alpha, Al",
        "Beta, Bo",
        "1-0",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
    );
    let path = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    std::fs::write(
        path("g.pgn"),
        first.clone() + &game("Gamma, Cy", "Delta, Di", "1-0", "1. d4 d5 2. c4 e6"),
    )
    .unwrap();
    std::fs::write(
        path("g2.pgn"),
        first + &game("Gamma, Cy", "Delta, Di", "*", "1. d4 d5 2. c4 e6"),
    )
    .unwrap();
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        &path("g.pgn"),
        "--trf",
        &path("t.trf"),
        "-o",
        &path("f1.csv"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        &path("t.trf"),
        &path("g2.pgn"),
        "--trf",
        &path("t2.trf"),
        "-o",
        &path("f2.csv"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(path("t.trf")).unwrap(),
        std::fs::read_to_string(path("t2.trf")).unwrap()
    );
    assert!(parse_csv(&std::fs::read(path("f2.csv")).unwrap()).is_empty());
    // A PGN alone that is unfinished: left out, said as having no result
    // (not as a `result` finding: nothing contradicts it).
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "fide-rapid",
        sample("fide-rapid-open.pgn").to_str().unwrap(),
    ]);
    let rows = parse_csv(&o.stdout);
    let five: Vec<&str> = rows
        .iter()
        .filter(|r| r["game"] == "5")
        .map(|r| r["finding"].as_str())
        .collect();
    assert_eq!(five, ["no-result"], "{rows:?}");
}

/// A game whose `Round` is `?` has no round to go in: the TRF report
/// leaves it out, saying so, and counts no round for it.
#[test]
fn a_game_of_unknown_round_is_left_out_of_the_trf_saying_so() {
    let game = |round: &str, black: &str| {
        format!("[Event \"T\"]\n[Site \"KK\"]\n[Date \"2023.08.12\"]\n[Round \"{round}\"]\n[White \"A, A\"]\n[Black \"{black}\"]\n[Result \"1-0\"]\n[TimeControl \"1800\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n")
    };
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("list.pgn");
    std::fs::write(
        &pgn,
        [game("1", "B, B"), game("2", "C, C"), game("?", "D, D")].concat(),
    )
    .unwrap();
    let trf = dir.path().join("list.trf");
    let o = arbiter(&[
        "audit",
        "--list",
        "active30",
        pgn.to_str().unwrap(),
        "-o",
        "/dev/null",
        "--trf",
        trf.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("left out: ") && err.contains("game 3 (A, A v D, D, round ?): its round is unknown (Round tag \"?\"): give it a round number"),
        "{err}"
    );
    let text = std::fs::read_to_string(&trf).unwrap();
    assert!(text.lines().any(|l| l == "XXR 2"), "{text}");
    // A's line has the two rounds placed, and nothing after them.
    let players = trf_players(&text);
    let a = players.iter().find(|p| p.2 == "A, A").unwrap();
    assert_eq!(a.7.len(), 2, "{text}");
}

/// The slips an event's file comes with, each a finding that names the
/// game, and none hiding another: a game with no date (in a list whose
/// round numbers start again each day: left out, the other rounds where
/// they were), a draw with no moves (TRF's `D`), a name written two ways,
/// a `TimeControl` written in words.
#[test]
fn an_events_slips_are_each_a_finding() {
    let game = |date: &str,
                round: &str,
                white: &str,
                black: &str,
                tc: &str,
                result: &str,
                moves: &str| {
        format!("[Event \"T\"]\n[Date \"{date}\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1600\"]\n[Result \"{result}\"]\n[TimeControl \"{tc}\"]\n\n{moves}{result}\n\n")
    };
    let mate = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# ";
    let pgn = [
        game("2023.08.12", "1", "A, A", "B, B", "1800", "1-0", mate),
        game("2023.08.12", "2", "A, A", "C, C", "1800", "1-0", mate),
        game("2023.08.13", "1", "A, A", "D, D", "1800", "1-0", mate),
        // Undated: round 2 of which day?
        game("????.??.??", "2", "A, A", "E, E", "1800", "1-0", mate),
        game("2023.08.13", "3", "B, B", "C, C", "1800", "1/2-1/2", ""),
        game(
            "2023.08.13",
            "4",
            "Dee, Dee",
            "C, C",
            "Game in 30",
            "1-0",
            mate,
        ),
        game("2023.08.13", "5", "Dee,Dee", "B, B", "1800", "1-0", mate),
    ]
    .concat();
    let (rows, text, err) = active30_audit(&pgn);
    let got: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["game"].as_str(),
                r["finding"].as_str(),
                r["detail"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("5", "no-moves", "a draw with no moves played: a game of less than one move is not rated (TRF code D)"),
            ("6", "time-control", "TimeControl \"Game in 30\" cannot be read as a control (a PGN TimeControl writes 30 minutes each as \"1800\"): it cannot be shown to be 30 minutes each without increment"),
            ("7", "name-variant", "\"Dee, Dee\" (1 game) and \"Dee,Dee\" (1 game) may be one player (the same letters): the TRF report gives each its own line; if they are one, write one spelling in every game"),
            // Five rounds cannot break six a day; but round 2 is played on
            // two days here, so the report cannot place the undated one.
            ("4", "no-date", "round numbers start again each day in this list, and it has no whole date: its round cannot be told; give its date"),
        ]
    );
    assert!(
        err.contains("7 games against the Sabah Active-30 rated list: 4 findings (1 name-variant, 1 no-date, 1 no-moves, 1 time-control); 2 games not rated; 1 game left out of the TRF report"),
        "{err}"
    );
    assert!(
        err.contains("left out: ") && err.contains("game 4 (A, A v E, E, round 2): no whole date, in a list whose round numbers start again each day: give its date"),
        "{err}"
    );
    // A's rounds: 12 August's two, then 13 August's first; nothing moved
    // into a round of its own by the undated game.
    let players = trf_players(&text);
    let a = players.iter().find(|p| p.2 == "A, A").unwrap();
    let opponents: Vec<&str> =
        a.7.iter()
            .map(|g| {
                players
                    .iter()
                    .find(|p| p.0 == g.0)
                    .map_or("-", |p| p.2.as_str())
            })
            .collect();
    assert_eq!(opponents[..3], ["B, B", "C, C", "D, D"], "{text}");
    assert!(a.7[3..].iter().all(|g| g.0 == 0), "{text}");
    let b = players.iter().find(|p| p.2 == "B, B").unwrap();
    assert!(
        b.7.contains(&(players.iter().find(|p| p.2 == "C, C").unwrap().0, 'w', 'D')),
        "{text}"
    );
}

/// More players than TRF-16's four columns number: refused, saying why,
/// rather than a file whose columns run into each other.
#[test]
fn a_report_of_more_than_9999_players_is_refused() {
    let mut pgn = String::new();
    for i in 0..4999 {
        pgn.push_str(&format!(
            "[Event \"Big\"]\n[Date \"2023.08.12\"]\n[Round \"1\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"1/2-1/2\"]\n[TimeControl \"1800\"]\n\n1. e4 e5 1/2-1/2\n\n"
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.pgn");
    std::fs::write(&path, &pgn).unwrap();
    let trf = dir.path().join("big.trf");
    let args = [
        "audit",
        "-q",
        "--list",
        "active30",
        path.to_str().unwrap(),
        "-o",
        "/dev/null",
        "--trf",
        trf.to_str().unwrap(),
    ];
    let o = arbiter(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        trf_players(&std::fs::read_to_string(&trf).unwrap()).len(),
        9998
    );
    std::fs::write(&path, pgn + "[Event \"Big\"]\n[Date \"2023.08.12\"]\n[Round \"1\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"1-0\"]\n[TimeControl \"1800\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n").unwrap();
    std::fs::remove_file(&trf).unwrap();
    let o = arbiter(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "10000 players: a TRF-16 report numbers its players in four columns, 9999 at most"
        ),
        "{err}"
    );
    assert!(!trf.exists());
}

/// The rounds-a-day check, case by case: an undated board on its round's
/// date (the other boards give it), an undated game in a tournament too
/// short to break the limit (no finding), a player over the limit across
/// two tournaments of one day (each within it), byes (no game checks), a
/// game with one name twice, and names that met or shared a round (two
/// players, whatever their letters or a `?` id).
#[test]
fn rounds_a_day_byes_and_names_case_by_case() {
    let game = |event: &str, date: &str, round: &str, white: &str, black: &str, extra: &str| {
        format!("[Event \"{event}\"]\n[Date \"{date}\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"1-0\"]\n[TimeControl \"1800\"]\n{extra}\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n")
    };
    let audit = |pgn: String| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.pgn");
        std::fs::write(&path, pgn).unwrap();
        let o = arbiter(&["audit", "-q", "--list", "active30", path.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        parse_csv(&o.stdout)
    };
    let kinds = |rows: &[Row]| -> Vec<(String, String)> {
        rows.iter()
            .map(|r| (r["game"].clone(), r["finding"].clone()))
            .collect()
    };
    // Seven rounds of one event on one day; round 7's second board undated.
    let mut pgn = String::new();
    for r in 1..=7 {
        pgn += &game(
            "Open",
            "2024.05.01",
            &format!("{r}.1"),
            &format!("A{r}"),
            &format!("B{r}"),
            "",
        );
    }
    pgn += &game("Open", "????.??.??", "7.2", "C7", "D7", "");
    let rows = audit(pgn.clone());
    assert_eq!(kinds(&rows), [("7".into(), "rounds-per-day".into())]);
    // Five rounds, one undated: no day can hold more than five.
    let short: String = (1..=5)
        .map(|r| {
            game(
                "Short",
                if r == 3 { "" } else { "2024.05.01" },
                &r.to_string(),
                &format!("A{r}"),
                &format!("B{r}"),
                "",
            )
        })
        .collect();
    assert!(audit(short).is_empty());
    // Lim: four rounds of the morning event, three of the evening's.
    let mut two = String::new();
    for r in 1..=4 {
        two += &game(
            "Morning",
            "2024.05.01",
            &r.to_string(),
            "Lim, W",
            &format!("M{r}"),
            "",
        );
    }
    for r in 1..=3 {
        two += &game(
            "Evening",
            "2024.05.01",
            &r.to_string(),
            "Lim, W",
            &format!("E{r}"),
            "",
        );
    }
    let rows = audit(two.clone());
    // Two events' round 1 are two rounds: no clash (there was one for
    // each evening round, "already has a game in round Round 1").
    assert_eq!(kinds(&rows), [("7".into(), "rounds-per-day".into())]);
    // Named one tournament (--trf-event), the evening's rounds clash with
    // the morning's of the same numbers.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.pgn");
    std::fs::write(&path, &two).unwrap();
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        "--trf-event",
        "Club day",
        path.to_str().unwrap(),
    ]);
    let one = parse_csv(&o.stdout);
    assert_eq!(
        kinds(&one),
        [
            ("7".into(), "rounds-per-day".into()),
            ("5".into(), "round-clash".into()),
            ("6".into(), "round-clash".into()),
            ("7".into(), "round-clash".into())
        ]
    );
    assert_eq!(
        one[1]["detail"],
        format!("Lim, W already has a game in round 1 ({}, game 1: Lim, W v M1): this game is left out of the TRF report", path.display())
    );
    assert_eq!(
        rows[0]["detail"],
        "Lim, W played 7 rounds on 2024.05.01 (Morning 1, Morning 2, Morning 3, Morning 4, Evening 1, Evening 2, Evening 3); not more than 6 a day: the games of Evening 3 not rated"
    );
    // A bye with no TimeControl and no moves: no finding; BYE v BYE and
    // one name twice: no players to report.
    let bye = "[Event \"Open\"]\n[Date \"2024.05.01\"]\n[Round \"1\"]\n[White \"P3\"]\n[Black \"BYE\"]\n[Result \"1-0\"]\n\n1-0\n\n";
    let pgn = [
        game("Open", "2024.05.01", "1", "P1", "P2", ""),
        bye.to_string(),
        bye.replace("P3", "Bye"),
        game("Open", "2024.05.01", "2", "P1", "p1", ""),
    ]
    .concat();
    let rows = audit(pgn);
    assert_eq!(
        kinds(&rows),
        [
            ("3".into(), "players".into()),
            ("4".into(), "players".into())
        ]
    );
    // Names one letter apart at one rating, with `?` ids, who met, or sat
    // in one round: two players each, no finding.
    let ids =
        "[WhiteFideId \"?\"]\n[BlackFideId \"?\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n";
    let pgn = [
        game("Open", "2024.05.01", "1", "Lee, Ann", "Lee, Anna", ids),
        game("Open", "2024.05.01", "2", "Tan, A", "X", ids),
        game("Open", "2024.05.01", "2", "Tan, B", "Y", ids),
    ]
    .concat();
    assert!(audit(pgn).is_empty());
}

/// A broadcast's `90+30` in minutes (its first clocks at 1:30:00) is one
/// control for every command: not a rapid game in the audit, a standard
/// game under `adjudicate --strict-rules -r fide-standard`.
#[test]
fn minutes_written_as_seconds_are_one_control_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.pgn");
    std::fs::write(
        &path,
        "[Event \"B\"]\n[Date \"2024.01.06\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[TimeControl \"90+30\"]\n\n1. e4 {[%clk 1:30:00]} e5 {[%clk 1:30:00]} 2. Qh5 {[%clk 1:29:50]} Nc6 {[%clk 1:29:40]} 3. Bc4 {[%clk 1:29:30]} Nf6 {[%clk 1:29:20]} 4. Qxf7# 1-0\n\n",
    )
    .unwrap();
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "fide-rapid",
        path.to_str().unwrap(),
    ]);
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        (rows[0]["finding"].as_str(), rows[0]["rule"].as_str()),
        ("time-control", "FIDE A.1")
    );
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "--strict-rules",
        "--no-rules-map",
        "-r",
        "fide-standard",
        path.to_str().unwrap(),
    ]);
    let rows = parse_csv(&o.stdout);
    assert_eq!(
        (rows[0]["status"].as_str(), rows[0]["reason"].as_str()),
        ("confirmed", "checkmate"),
        "{}",
        rows[0]["detail"]
    );
    assert!(
        !rows[0]["detail"].contains("is not a control"),
        "{}",
        rows[0]["detail"]
    );
}

/// A game of tags alone with its result written after them is a forfeit
/// (`+`/`-`); the same game cut off at the file's end, with no marker, is a
/// result in doubt: a finding, and not rated (`W`/`L`), never a forfeit.
#[test]
fn a_forfeit_written_whole_and_one_cut_short() {
    let game = |round: u32, white: &str, black: &str| {
        format!(
            "[Event \"Club\"]\n[Site \"KK\"]\n[Date \"2025.03.01\"]\n[Round \"{round}\"]\n\
             [White \"{white}\"]\n[Black \"{black}\"]\n[TimeControl \"1800\"]\n[Result \"1-0\"]\n"
        )
    };
    let (rows, trf, _) = active30_audit(&format!(
        "{}\n1-0\n\n{}",
        game(1, "Khan, Imran", "Lowe, Stuart"),
        game(2, "Lowe, Stuart", "Khan, Imran")
    ));
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        (rows[0]["game"].as_str(), rows[0]["finding"].as_str()),
        ("2", "result")
    );
    assert!(
        rows[0]["detail"].contains("may be cut short after its tags"),
        "{}",
        rows[0]["detail"]
    );
    let players = trf_players(&trf);
    let khan = players.iter().find(|p| p.2 == "Khan, Imran").unwrap();
    assert_eq!(khan.7, [(2, 'w', '+'), (2, 'b', 'L')]);
}

/// `audit --list active30` of PGN text with a TRF report: the findings,
/// the report's text and the screen's; the run must exit 0.
fn active30_audit(pgn: &str) -> (Vec<Row>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("list.pgn");
    std::fs::write(&path, pgn).unwrap();
    let trf = dir.path().join("list.trf");
    let o = arbiter(&[
        "audit",
        "--list",
        "active30",
        path.to_str().unwrap(),
        "--trf",
        trf.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    let text = std::fs::read_to_string(&trf).unwrap();
    (parse_csv(&o.stdout), text, err)
}

/// What a rating officer's files get wrong, and the report never written
/// wrong: one name with two FIDE ids (two players, refused, a finding), or
/// one id under two names (one player twice, refused);
/// tags that do not fit their columns (left empty, a finding); games of
/// two events (refused unless --trf-event names the one tournament); no
/// game with a round (no report); an input missing (no report from part
/// of the games); a tournament file with CR line ends (read).
#[test]
fn an_officers_mistakes_never_make_a_wrong_report() {
    let game = |event: &str, round: u32, white: &str, black: &str, extra: &str| {
        format!("[Event \"{event}\"]\n[Date \"2024.05.0{round}\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"1-0\"]\n[TimeControl \"1800\"]\n{extra}\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n")
    };
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("l.pgn");
    let trf = dir.path().join("l.trf");
    let findings = dir.path().join("f.csv");
    let run = |text: &str, more: &[&str]| {
        std::fs::write(&pgn, text).unwrap();
        let mut args = vec![
            "audit",
            "-q",
            "--list",
            "active30",
            pgn.to_str().unwrap(),
            "-o",
            findings.to_str().unwrap(),
            "--trf",
            trf.to_str().unwrap(),
        ];
        args.extend_from_slice(more);
        let o = arbiter(&args);
        let rows = parse_csv(&std::fs::read(&findings).unwrap_or_default());
        (o, rows)
    };
    let err = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    // One column of the rows of one finding.
    let cells = |rows: &[Row], finding: &str, column: &str| -> Vec<String> {
        rows.iter()
            .filter(|r| r["finding"] == finding)
            .map(|r| r[column].clone())
            .collect()
    };

    // Two players named alike, told apart by their ids; a report an
    // earlier run left at the path is removed, said.
    std::fs::write(&trf, "an earlier run's").unwrap();
    let two = game(
        "Club",
        1,
        "Tan, Mei Ling",
        "Lee, A",
        "[WhiteFideId \"5700003\"]\n[WhiteElo \"1600\"]",
    ) + &game(
        "Club",
        2,
        "Tan, Mei Ling",
        "Ong, B",
        "[WhiteFideId \"5709999\"]\n[WhiteElo \"2100\"]",
    )
    // The first id again, written with a leading zero: the same id.
    + &game("Club", 3, "Tan, Mei Ling", "Yap, C", "[WhiteFideId \"05700003\"]");
    let (o, rows) = run(&two, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("the file an earlier run left there is removed"),
        "{}",
        err(&o)
    );
    assert!(
        err(&o).contains("\"Tan, Mei Ling\" has 2 FIDE ids, 5700003 (2 games) and 5709999 (1 game): two players under one name, whom the TRF report would give one line; write their names apart in the games' tags (a middle name or initial) (the homonym finding): no TRF report written"),
        "{}",
        err(&o)
    );
    assert!(!trf.exists());
    let homonym: Vec<&Row> = rows.iter().filter(|r| r["finding"] == "homonym").collect();
    assert_eq!(homonym.len(), 1, "{rows:?}");
    assert_eq!(
        homonym[0]["detail"],
        "\"Tan, Mei Ling\" has 2 FIDE ids, 5700003 (2 games) and 5709999 (1 game): two players under one name, whom the TRF report would give one line; write their names apart in the games' tags (a middle name or initial)"
    );

    // One FIDE id under two spellings: one player the report would give
    // two lines; refused, as a homonym is.
    let spelt = game(
        "Club",
        1,
        "Müller, Hans",
        "Lee, A",
        "[WhiteFideId \"4600001\"]",
    ) + &game(
        "Club",
        2,
        "Muller, Hans",
        "Ong, B",
        "[WhiteFideId \"4600001\"]",
    ) + &game(
        "Club",
        3,
        "Müller, Hans",
        "Yap, C",
        "[WhiteFideId \"4600001\"]",
    );
    let (o, rows) = run(&spelt, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("the FIDE id 4600001 is under 2 names, \"Muller, Hans\" and \"Müller, Hans\": the report would give one player 2 lines; write one spelling in every game, or put the wrong id right (the name-variant finding): no TRF report written"),
        "{}",
        err(&o)
    );
    assert!(!trf.exists());
    let variant: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| r["finding"] == "name-variant")
        .map(|r| (r["game"].as_str(), r["detail"].as_str()))
        .collect();
    assert_eq!(
        variant,
        [("2", "\"Muller, Hans\" (1 game) and \"Müller, Hans\" (2 games) may be one player (the same letters): the TRF report is not written until one player has one name and one id")]
    );

    // A game that cannot be read ("Qh9" is no move) whose tags name its
    // players, round and result: in the report, not rated, so that its
    // pairing (and a player who played only it) is not lost; it was left
    // out, exit 0, and "Lee, A" gone from the report.
    let unreadable = game("Club", 1, "Tan, B", "Lee, A", "").replace("2. Qh5", "2. Qh9")
        + &game("Club", 2, "Tan, B", "Ong, B", "");
    let (o, rows) = run(&unreadable, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let finding: Vec<&str> = rows.iter().map(|r| r["finding"].as_str()).collect();
    assert_eq!(finding, ["unreadable"]);
    assert!(
        err(&o).contains("not rated: ")
            && err(&o).contains("game 1 (Tan, B v Lee, A, round 1): unreadable"),
        "{}",
        err(&o)
    );
    let players = trf_players(&std::fs::read_to_string(&trf).unwrap());
    let lines: Vec<String> = players
        .iter()
        .map(|p| format!("{}: {:?}", p.2, p.7))
        .collect();
    assert_eq!(
        lines,
        [
            "Lee, A: [(3, 'b', 'L'), (0, '-', 'Z')]",
            "Ong, B: [(0, '-', 'Z'), (3, 'b', '0')]",
            "Tan, B: [(1, 'w', 'W'), (2, 'w', '1')]",
        ]
    );

    // The same game sent twice, the first copy garbled: the good copy is
    // rated in its round (the garbled one had taken the seat, and the
    // good one was left out as a clash).
    let twice = game("Club", 1, "Tan, B", "Lee, A", "").replace("2. Qh5", "2. Qh9")
        + &game("Club", 1, "Tan, B", "Lee, A", "");
    let (o, rows) = run(&twice, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let players = trf_players(&std::fs::read_to_string(&trf).unwrap());
    let lines: Vec<String> = players
        .iter()
        .map(|p| format!("{}: {:?}", p.2, p.7))
        .collect();
    assert_eq!(
        lines,
        ["Lee, A: [(2, 'b', '0')]", "Tan, B: [(1, 'w', '1')]"],
        "{rows:?}"
    );
    assert_eq!(cells(&rows, "round-clash", "game"), ["1"]);

    // One id written with a leading zero under another name: the same id
    // to the report and to the finding (the finding missed it, and the
    // refusal named a finding that was not there).
    let zeros = game("Club", 1, "Tan, B", "Lee, A", "[WhiteFideId \"4600001\"]")
        + &game("Club", 2, "Wong, K", "Ong, B", "[WhiteFideId \"04600001\"]");
    let (o, rows) = run(&zeros, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert_eq!(cells(&rows, "name-variant", "detail"), ["\"Tan, B\" (1 game) and \"Wong, K\" (1 game) may be one player (the same FIDE id): the TRF report is not written until one player has one name and one id"]);

    // A double forfeit written "0-0": no PGN result, said as the tag it
    // is (it was "no result is recorded or judged").
    let both_out = game("Club", 1, "Tan, B", "Lee, A", "")
        .replace("[Result \"1-0\"]", "[Result \"0-0\"]")
        .replace("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", "*");
    let (_, rows) = run(&both_out, &[]);
    assert_eq!(cells(&rows, "no-result", "detail"), ["the Result tag \"0-0\" is not a result (1-0, 0-1, 1/2-1/2 or *), and none was judged: it has no place in the TRF report; a double forfeit has no PGN result: give it in a tournament file, where it is - against -"], "{rows:?}");

    // Tags too wide for their columns: left empty and said.
    let wide = game(
        "Club",
        1,
        "Lim, W",
        "Kok, C",
        "[WhiteElo \"12345\"]\n[WhiteFed \"Malaysia\"]\n[BlackFideId \"MAS-123\"]\n[BlackFed \"mas\"]",
    );
    let (o, rows) = run(&wide, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let tags: Vec<&str> = rows
        .iter()
        .filter(|r| r["finding"] == "player-tags")
        .map(|r| r["detail"].as_str())
        .collect();
    assert_eq!(
        tags,
        ["WhiteElo 12345 is not a rating (four digits at most); WhiteFed \"Malaysia\" is not a three-letter federation code; BlackFideId \"MAS-123\" is not a FIDE id (digits, eleven at most): left empty in the TRF report; put the tags right"]
    );
    let players = trf_players(&std::fs::read_to_string(&trf).unwrap());
    let fields: Vec<(&str, &str, &str, &str)> = players
        .iter()
        .map(|p| (p.2.as_str(), p.3.as_str(), p.4.as_str(), p.5.as_str()))
        .collect();
    assert_eq!(fields, [("Kok, C", "", "MAS", ""), ("Lim, W", "", "", "")]);

    // Two events: one report is one tournament's.
    let events = game("Club", 1, "A, A", "B, B", "") + &game("Other Open", 2, "A, A", "C, C", "");
    let (o, _) = run(&events, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("the games are of 2 events (\"Club\", \"Other Open\"): a TRF report is one tournament's"),
        "{}",
        err(&o)
    );
    assert!(!trf.exists());
    let (o, _) = run(&events, &["--trf-event", "Club"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(trf.exists());

    // No game with a round: no report, the findings written.
    let unrounded = game("Club", 1, "A, A", "B, B", "").replace("[Round \"1\"]", "[Round \"-\"]");
    let (o, rows) = run(&unrounded, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains(
            "no game could be placed in a round (the findings say why): no TRF report written"
        ),
        "{}",
        err(&o)
    );
    assert!(!trf.exists());
    assert_eq!(rows[0]["finding"], "round-unknown");

    // An input missing: the games read are audited, no report written.
    let (o, _) = run(&game("Club", 1, "A, A", "B, B", ""), &["no-such.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("1 error reading the input (said above), and a report from part of the games would be wrong: no TRF report written"),
        "{}",
        err(&o)
    );
    assert!(!trf.exists());

    // A tournament file whose lines end in CR alone, as TRF-16 asks.
    let (o, _) = run(&game("Club", 1, "A, A", "B, B", ""), &[]);
    assert!(o.status.success());
    let cr = std::fs::read_to_string(&trf).unwrap().replace("\r\n", "\r");
    let file = dir.path().join("cr.trf");
    std::fs::write(&file, &cr).unwrap();
    let o = arbiter(&["audit", "-q", "--list", "active30", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
}

/// A UTCDate standing in for a missing Date is when the record was made
/// (a broadcast's: when each chapter was created, one day for all nine
/// rounds): it dates the report's lines but does not decide how many
/// rounds a day were played. The games are `no-date`, not `rounds-per-day`.
#[test]
fn a_utc_date_does_not_decide_the_rounds_a_day() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("two-a-day.toml");
    std::fs::write(
        &list,
        format!("{STANDARD_LIST}[rounds_per_day]\nmax = 2\nrule = \"Two a day\"\n"),
    )
    .unwrap();
    let f = common::data("games-with-clocks/lichess-broadcast-study_BBDDNRR_2025_OTB.pgn");
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        list.to_str().unwrap(),
        f.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = parse_csv(&o.stdout);
    let kinds: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r["finding"].as_str()).collect();
    assert_eq!(kinds, ["no-date"].into_iter().collect());
    assert_eq!(rows.len(), 45);
    assert!(
        rows[0]["detail"].starts_with("no Date tag, only a UTCDate (2025.02.27), which says when the record was made, not the day of play"),
        "{}",
        rows[0]["detail"]
    );
}

/// What the audit does not check comes through a tournament file as the
/// file has it: the starting ranks (pairing numbers, here not in rating
/// order), sex and birth dates, the ranks its tie-breaks gave, its own
/// header and team lines, and XXR with rounds still to play, so that a
/// pairing program pairs the next round from the report. Where the audit
/// changes points, the ranks are recomputed, and said.
#[test]
fn a_tournament_file_comes_through_with_what_the_audit_does_not_check() {
    let dir = tempfile::tempdir().unwrap();
    // Starting ranks against the ratings: Tan (unrated) is 1, Lim 4.
    let player = |n: &str,
                  sex: &str,
                  name: &str,
                  elo: &str,
                  birth: &str,
                  pts: &str,
                  rank: &str,
                  rounds: &[(&str, &str, &str)]| {
        let mut f = vec![
            (1, "001"),
            (5, n),
            (10, sex),
            (15, name),
            (49, elo),
            (70, birth),
            (81, pts),
            (86, rank),
        ];
        for (i, (o, c, r)) in rounds.iter().enumerate() {
            f.extend([(92 + 10 * i, *o), (97 + 10 * i, *c), (99 + 10 * i, *r)]);
        }
        columns(&f)
    };
    let players = [
        player(
            "   1",
            "w",
            "Tan, Mei Ling",
            "",
            "2005/07/08",
            " 1.5",
            "   2",
            &[("   2", "b", "="), ("0000", "-", "Z"), ("   4", "b", "1")],
        ),
        player(
            "   2",
            "w",
            "Rahman, Siti",
            "1600",
            "2001/03/04",
            " 1.5",
            "   3",
            &[("   1", "w", "="), ("   4", "b", "1"), ("   3", "b", "0")],
        ),
        player(
            "   3",
            "m",
            "Chong, Daniel",
            "1700",
            "1985/05/06",
            " 2.0",
            "   1",
            &[("   4", "b", "1"), ("0000", "-", "Z"), ("   2", "w", "1")],
        ),
        player(
            "   4",
            "m",
            "Lim, Wei Ming",
            "1850",
            "1990/01/02",
            " 0.0",
            "   6",
            &[("   3", "w", "0"), ("   2", "w", "0"), ("   1", "w", "0")],
        ),
        // Two players yet to play, absent each round so far.
        player(
            "   5",
            "m",
            "Wong, Ah Kow",
            "1500",
            "1970/02/03",
            " 0.0",
            "   4",
            &[("0000", "-", "Z"); 3],
        ),
        player(
            "   6",
            "w",
            "Yusof, Aminah",
            "",
            "",
            " 0.0",
            "   5",
            &[("0000", "-", "Z"); 3],
        ),
    ];
    let mut lines = vec![
        "012 Sabah Active-30 Rated".to_string(),
        "022 Kota Kinabalu".into(),
        "032 MAS".into(),
        "042 2023/08/12".into(),
        "052 2023/08/13".into(),
        "082 Individual: Swiss-System".into(),
        "092 Individual: Swiss-System".into(),
        "102 Ahmad, Ismail".into(),
        "112 Tan, Boon Hock".into(),
        "122 30 min".into(),
        columns(&[
            (1, "132"),
            (92, "23/08/12"),
            (102, "23/08/12"),
            (112, "23/08/12"),
        ]),
        "XXR 5".into(),
        "XXC white1".into(),
    ];
    lines.extend(players.iter().cloned());
    let trf = dir.path().join("swiss.trf");
    std::fs::write(&trf, lines.join("\r") + "\r").unwrap();
    let out = dir.path().join("out.trf");
    let audit = |extra: &[&str]| {
        let mut args = vec![
            "audit",
            "-q",
            "--list",
            "active30",
            "--trf",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        args.push(trf.to_str().unwrap());
        arbiter(&args)
    };
    let o = audit(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let written: Vec<&str> = text.lines().collect();
    // Every player line as the file has it, to the last column.
    for p in &players {
        assert!(written.contains(&p.as_str()), "{p}\n{text}");
    }
    for l in [
        "082 Individual: Swiss-System",
        "112 Tan, Boon Hock",
        "XXC white1",
        "XXR 5",
        "052 2023/08/13",
    ] {
        assert!(written.contains(&l), "{l}\n{text}");
    }
    assert!(
        written.contains(&"092 Individual: Swiss-System; audited: Sabah Active-30 rated list"),
        "{text}"
    );
    // The header lines in their numbered order, the team line after the players.
    let at = |l: &str| written.iter().position(|w| w.starts_with(l)).unwrap();
    assert!(at("072") < at("082") && at("082") < at("092") && at("102") < at("112"));
    assert!(at("112") < at("122") && at("XXR") < at("XXC") && at("XXC") < at("001"));
    // The next round paired from the report, by its pairing numbers.
    let o = Command::new(common::bbp_pairings())
        .arg("--dutch")
        .arg(&out)
        .arg("-p")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pairs = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(pairs.lines().next(), Some("3"), "{pairs}");

    // Games left out (a control that is not the list's, `--not-rated
    // omit`): the points change, so the ranks are the report's own. A team
    // line after the players stays after them.
    lines.push("013 Kota Kinabalu A    3    4".into());
    let slow = lines.join("\r").replace("122 30 min", "122 15 min");
    std::fs::write(&trf, slow + "\r").unwrap();
    let o = audit(&["--not-rated", "omit"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("ranked by points, then starting rank (the file's tie-breaks are not applied): the points differ from the file's for 3 players (Tan, Mei Ling 1.5 in the file, 0.0 now; Rahman, Siti 1.5 in the file, 0.0 now; Chong, Daniel 2.0 in the file, 0.0 now)"),
        "{err}"
    );
    let ranks: Vec<(usize, String)> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| {
            (
                l[4..8].trim().parse().unwrap(),
                l[85..89].trim().to_string(),
            )
        })
        .collect();
    assert_eq!(
        ranks,
        [
            (1, "1".to_string()),
            (2, "2".into()),
            (3, "3".into()),
            (4, "4".into()),
            (5, "5".into()),
            (6, "6".into())
        ]
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().last(), Some("013 Kota Kinabalu A    3    4"));
}
