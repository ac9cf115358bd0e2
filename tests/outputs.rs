//! What graders and secretaries do next with the results: JSON, the
//! corrected PGN (read back by pgn-extract and python-chess), the summary,
//! the review page (in headless Chromium), the TRF report, completions.

use crate::common;

use std::{
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
};

use arbiter::report::json::{ClaimJson, FindingJson, GameJson};
use common::{arbiter, parse_csv, sample, Row};

/// `adjudicate -r ecf-quickplay samples/` with `extra` flags, in `dir`.
fn samples_run(dir: &Path, extra: &[&str]) -> Output {
    let samples = sample("");
    // Every sample under one ruleset, claims' and season's files included:
    // these tests are of the output formats, not of the rules map.
    let mut args = vec![
        "adjudicate",
        "-q",
        "--no-rules-map",
        "-r",
        "ecf-quickplay",
        // The claims' scoresheets and the season's boards repeat three
        // games of the other samples: judged each time, as ever, here.
        "--keep-duplicates",
        samples.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(dir)
        .args(&args)
        .output()
        .expect("run arbiter");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn csv_rows(dir: &Path) -> Vec<Row> {
    let o = samples_run(dir, &[]);
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 38);
    rows
}

fn seconds(hms: &str) -> f64 {
    let parts: Vec<f64> = hms.split(':').map(|p| p.parse().unwrap()).collect();
    parts[0] * 3600.0 + parts[1] * 60.0 + parts[2]
}

#[test]
fn json_and_ndjson_carry_the_csv_rows_with_types() {
    let dir = tempfile::tempdir().unwrap();
    let rows = csv_rows(dir.path());
    let json = samples_run(dir.path(), &["--format", "json"]).stdout;
    let ndjson = samples_run(dir.path(), &["--format", "ndjson"]).stdout;
    let values: Vec<serde_json::Value> = serde_json::from_slice(&json).unwrap();
    let games: Vec<GameJson> = serde_json::from_slice(&json).unwrap();
    let lines: Vec<GameJson> = ndjson
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(games.len(), 38);
    assert_eq!(games, lines);
    for ((g, v), r) in games.iter().zip(&values).zip(&rows) {
        // A serde round trip loses nothing: the schema is the whole object.
        assert_eq!(&serde_json::to_value(g).unwrap(), v);
        assert_eq!(g.game.to_string(), r["game"]);
        assert_eq!(g.offset.to_string(), r["offset"]);
        assert_eq!(g.white.as_deref().unwrap_or(""), r["white"]);
        assert_eq!(g.date_pgn.as_deref().unwrap_or(""), r["date"]);
        for (field, cell) in [
            (&g.source, "source"),
            (&g.result, "result"),
            (&g.status, "status"),
            (&g.reason, "reason"),
            (&g.final_fen, "final_fen"),
            (&g.detail, "detail"),
        ] {
            assert_eq!(field, &r[cell], "{cell}");
        }
        assert_eq!(g.rule.join("; "), r["rule"]);
        assert_eq!(g.ply.map(|p| p.to_string()).unwrap_or_default(), r["ply"]);
        assert_eq!(g.plies.to_string(), r["plies"]);
        assert_eq!(g.white_clock.clone().unwrap_or_default(), r["white_clock"]);
        if let Some(c) = &g.black_clock {
            assert_eq!(g.black_clock_seconds, Some(seconds(c)));
        }
    }
    // The Active-30 game whose flag fell on a side that cannot mate.
    let g = games
        .iter()
        .find(|g| g.source.ends_with("active30-rated-list.pgn") && g.game == 11)
        .unwrap();
    let v = serde_json::to_value(g).unwrap();
    assert_eq!(v["date"], "2023-08-13");
    assert_eq!(v["date_pgn"], "2023.08.13");
    assert_eq!(v["white_elo"], serde_json::Value::Null);
    assert_eq!(v["status"], "corrected");
    assert_eq!(v["reason"], "flag-fall-cannot-mate");
    assert_eq!(v["rule"], serde_json::json!(["ECF QPF 9"]));
    assert_eq!(v["recorded_result"], "1-0");
    assert_eq!(v["result"], "1/2-1/2");
    assert_eq!(v["ply"], 3);
    assert_eq!(v["move"], "Ke3");
    assert_eq!(v["black_clock"], "0:00:02");
    assert_eq!(v["black_clock_seconds"], 2.0);
    assert_eq!(v["white_clock_seconds"], 59.0);
    assert_eq!(v["plies"], 3);
}

fn pgn_extract() -> PathBuf {
    common::installed(
        &["/usr/bin/pgn-extract", "/usr/games/pgn-extract"],
        "pgn-extract is not installed (apt-get install pgn-extract; .ci/run does)",
    )
}

#[test]
fn corrected_pgn_is_read_back_by_pgn_extract_and_python_chess() {
    if !common::tools(
        "corrected_pgn_is_read_back_by_pgn_extract_and_python_chess",
        &[common::Tool::PgnExtract, common::Tool::PythonChess],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rows = parse_csv(&samples_run(dir.path(), &["--pgn-out", "fixed.pgn"]).stdout);
    let fixed = dir.path().join("fixed.pgn");
    // The rows whose record holds an illegal move: no PGN reader replays
    // those to the end, and the corrected file keeps the moves as written.
    let illegal: Vec<bool> = rows
        .iter()
        .map(|r| r["detail"].contains(" is illegal") || r["detail"].contains(" was illegal"))
        .collect();
    assert_eq!(illegal.iter().filter(|&&i| i).count(), 5);

    // pgn-extract: every game without an illegal move comes out whole.
    let out = dir.path().join("extracted.pgn");
    let o = Command::new(pgn_extract())
        .args(["-s", "-o"])
        .arg(&out)
        .arg(&fixed)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let extracted = std::fs::read_to_string(&out).unwrap();
    let results: Vec<&str> = extracted
        .lines()
        .filter_map(|l| l.strip_prefix("[Result \"")?.strip_suffix("\"]"))
        .collect();
    let expected: Vec<String> = rows
        .iter()
        .zip(&illegal)
        .filter(|(_, i)| !**i)
        .map(|(r, _)| expected_result(r))
        .collect();
    assert_eq!(results, expected);
    assert_eq!(
        extracted.matches("[Adjudication \"").count(),
        rows.iter()
            .zip(&illegal)
            .filter(|(r, i)| !**i && r["status"] != "confirmed")
            .count()
    );

    // python-chess reads all 38, headers as written.
    let games = python_chess_games(&fixed);
    assert_eq!(games.len(), rows.len());
    for ((g, r), bad) in games.iter().zip(&rows).zip(&illegal) {
        assert_eq!(g["result"], expected_result(r).as_str(), "{r:?}");
        assert_eq!(g["errors"].as_u64().unwrap() > 0, *bad, "{r:?}");
        if r["status"] == "confirmed" {
            assert!(g["adjudication"].is_null());
        } else {
            assert_eq!(
                g["adjudication"],
                format!("{}: {}, {}", r["status"], r["reason"], r["rule"]).as_str()
            );
            assert_eq!(g["recorded"], r["recorded_result"].as_str());
        }
    }
}

/// Runs a Python `script` on `file` and reads the JSON it prints; `needs`
/// names what must be installed when it fails.
fn python_json(script: &str, file: &Path, needs: &str) -> serde_json::Value {
    let o = Command::new("python3")
        .args(["-c", script])
        .arg(file)
        .output()
        .expect("python3");
    assert!(
        o.status.success(),
        "{needs}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Real exports (chess.com, lichess): python-chess reads the corrected file
/// as exactly one game per results row, each with the expected Result.
#[test]
fn corrected_pgn_of_real_exports_lines_up_with_the_rows() {
    if !common::tools(
        "corrected_pgn_of_real_exports_lines_up_with_the_rows",
        &[common::Tool::PythonChess],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fixed = dir.path().join("fixed.pgn");
    let files = [
        common::data("games-with-clocks/chesscom_mixed-incl-daily.pgn"),
        common::data("games-with-clocks/chesscom_MagnusCarlsen_2014-2019.pgn"),
        common::data("games-with-clocks/lichess_DannyTheDonkey_2019-01-29_no-clocks.pgn"),
    ];
    let mut args = vec![
        "adjudicate".to_string(),
        "-q".into(),
        "--pgn-out".into(),
        fixed.display().to_string(),
    ];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(&args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = parse_csv(&o.stdout);
    assert!(rows.len() > 300, "{}", rows.len());
    let games = python_chess_games(&fixed);
    let results: Vec<&str> = games
        .iter()
        .map(|g| g["result"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = rows.iter().map(expected_result).collect();
    assert_eq!(results.len(), expected.len());
    assert_eq!(results, expected);
}

/// An unreadable game is written to the corrected PGN as its tags (all
/// those read: ratings, control, termination), `*`, and why; no moves, no
/// FEN. It kept the seven roster tags alone, the ratings lost.
#[test]
fn an_unreadable_game_keeps_its_tags_in_the_corrected_pgn() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("u.pgn");
    std::fs::write(
        &input,
        "[Event \"League\"]\n[Site \"Hall\"]\n[Date \"2024.02.01\"]\n[Round \"2.4\"]\n[White \"Smith, A\"]\n[Black \"Jones, B\"]\n[Result \"1-0\"]\n[WhiteElo \"1850\"]\n[BlackElo \"1790\"]\n[TimeControl \"1800\"]\n[Termination \"Normal\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 zz 4. O-O 1-0\n",
    )
    .unwrap();
    let fixed = dir.path().join("fixed.pgn");
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", "-o", "/dev/null", "--pgn-out"])
        .arg(&fixed)
        .arg(&input)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(&fixed).unwrap(),
        "[Event \"League\"]\n[Site \"Hall\"]\n[Date \"2024.02.01\"]\n[Round \"2.4\"]\n[White \"Smith, A\"]\n[Black \"Jones, B\"]\n[Result \"*\"]\n[WhiteElo \"1850\"]\n[BlackElo \"1790\"]\n[TimeControl \"1800\"]\n[Termination \"Normal\"]\n[RecordedResult \"1-0\"]\n[Adjudication \"unreadable: parse-error, PGN 8.2.3; the moves are not repeated: line 13: 3... \\\"zz\\\" is not a move; the game was replayed up to it\"]\n\n*\n\n"
    );
}

/// What was recorded after the board ended a game (a mistyped result after
/// a mate, moves after it) goes into a comment in the corrected PGN, the
/// mate's own clock kept on it and the tail's clock no longer a command:
/// other readers read each game to its mate without an error, and a second
/// run writes the file unchanged.
#[test]
fn moves_after_the_end_are_a_comment_in_the_corrected_pgn() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("after.pgn");
    let mate = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#";
    let game = |event: &str, result: &str, moves: &str| {
        format!("[Event \"{event}\"]\r\n[White \"a\"]\r\n[Black \"b\"]\r\n[Result \"{result}\"]\r\n\r\n{moves}\r\n\r\n")
    };
    let text = [
        game("typo", "1-0", &format!("{mate} 1-O")),
        game("after", "1-0", &format!("{mate} Kxf7 1-0")),
        game(
            "variation",
            "1-0",
            &format!("{mate} {{[%clk 0:00:10]}} (4. d3 d6) ; a note\r\n Kxf7 1-0"),
        ),
        game(
            "clocks",
            "1/2-1/2",
            "1. e4 { [%clk 0:01:00] } e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# { [%clk 0:00:50] } Kxf7 { [%clk 0:00:40] }\r\n5. Bd5 1/2-1/2",
        ),
    ]
    .concat();
    std::fs::write(&input, text).unwrap();
    let fixed = dir.path().join("fixed.pgn");
    let run = |from: &Path, to: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["adjudicate", "-q", "-o", "/dev/null", "--pgn-out"])
            .arg(to)
            .arg(from)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(to).unwrap()
    };
    let out = run(&input, &fixed);
    let movetexts: Vec<&str> = out.lines().filter(|l| l.starts_with("1. ")).collect();
    assert_eq!(
        movetexts,
        [
            format!("{mate} {{recorded after the game ended: 1-O}} 1-0"),
            format!("{mate} {{recorded after the game ended: Kxf7}} 1-0"),
            format!("{mate} {{[%clk 0:00:10]}} (4. d3 d6) ; a note"),
            "1. e4 { [%clk 0:01:00] } e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# { [%clk 0:00:50] } {recorded after the game ended: Kxf7 [clk 0:00:40] 5. Bd5} 1-0".to_string(),
        ]
    );
    assert!(
        out.contains(
            "[RecordedResult \"1/2-1/2\"]\n[Adjudication \"corrected: checkmate, FIDE 5.1.1\"]"
        ),
        "{out}"
    );
    assert_eq!(run(&fixed, &dir.path().join("again.pgn")), out);
    // A dead position (FIDE 5.2.2) ends the game as a mate does: set up
    // dead, or reached by a move the search finds it after.
    let dead = dir.path().join("dead.pgn");
    let set_up = |fen: &str, moves: &str| {
        format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Result \"1-0\"]\n\n{moves} 1-0\n\n")
    };
    std::fs::write(
        &dead,
        [
            set_up(
                "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 40",
                "40. Kd2 Kd7 41. Kc3 Kc7",
            ),
            set_up(
                "4k3/8/8/p1p1p1p1/P1P1P3/6P1/8/4K3 w - - 0 40",
                "40. g4 Kd7 41. Kd2 Kc7",
            ),
            // Set up mated: the move recorded after it is the tail.
            set_up("7k/6Q1/6K1/8/8/8/8/8 b - - 0 50", "50... Kh7"),
        ]
        .concat(),
    )
    .unwrap();
    let out = run(&dead, &dir.path().join("dead-fixed.pgn"));
    let movetexts: Vec<&str> = out
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('['))
        .collect();
    assert_eq!(
        movetexts,
        [
            "{recorded after the game ended: 40. Kd2 Kd7 41. Kc3 Kc7} 1/2-1/2",
            "40. g4 {recorded after the game ended: Kd7 41. Kd2 Kc7} 1/2-1/2",
            "{recorded after the game ended: 50... Kh7} 1-0",
        ],
        "{out}"
    );
    // A file from Windows: a byte-order mark before the first tag, CRLF
    // lines, a note before the first move. The tags stay tags.
    let bom = dir.path().join("bom.pgn");
    std::fs::write(
        &bom,
        "\u{feff}[SetUp \"1\"]\r\n[FEN \"4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 40\"]\r\n[Result \"1-0\"]\r\n\r\n{a note} 40. Kd2 Kd7 1-0\r\n",
    )
    .unwrap();
    let out = run(&bom, &dir.path().join("bom-fixed.pgn"));
    assert_eq!(
        out,
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 40\"]\n[Result \"1/2-1/2\"]\n[RecordedResult \"1-0\"]\n[Adjudication \"corrected: dead-position, FIDE 5.2.2\"]\n\n{a note} {recorded after the game ended: 40. Kd2 Kd7} 1/2-1/2\n\n"
    );
    if common::tools(
        "moves_after_the_end_are_a_comment_in_the_corrected_pgn",
        &[common::Tool::PythonChess],
    ) {
        let games = python_chess_games(&fixed);
        let errors: Vec<u64> = games
            .iter()
            .map(|g| g["errors"].as_u64().unwrap())
            .collect();
        assert_eq!(errors, [0, 0, 0, 0]);
    }
}

/// Every game of a PGN file as python-chess reads it: its Result,
/// Adjudication and RecordedResult tags, and how many errors it met.
fn python_chess_games(pgn: &Path) -> Vec<serde_json::Value> {
    let script = r#"
import sys, json, chess.pgn
out = []
with open(sys.argv[1], encoding="utf-8") as f:
    while (g := chess.pgn.read_game(f)) is not None:
        out.append({"result": g.headers.get("Result"), "adjudication": g.headers.get("Adjudication"),
                    "recorded": g.headers.get("RecordedResult"), "errors": len(g.errors)})
print(json.dumps(out))
"#;
    let v = python_json(
        script,
        pgn,
        "python-chess (pip install chess; .ci/run does)",
    );
    v.as_array().unwrap().clone()
}

/// The Result the corrected PGN must carry for a results row.
fn expected_result(r: &Row) -> String {
    match r["status"].as_str() {
        "confirmed" => r["recorded_result"].clone(),
        "corrected" => r["result"].clone(),
        _ => "*".into(),
    }
}

#[test]
fn summary_by_event_and_player() {
    let dir = tempfile::tempdir().unwrap();
    samples_run(
        dir.path(),
        &["--summary", "summary.csv", "-o", "results.csv"],
    );
    let rows = parse_csv(&std::fs::read(dir.path().join("summary.csv")).unwrap());
    let find = |scope: &str, name: &str| {
        rows.iter()
            .find(|r| r["scope"] == scope && r["name"] == name)
            .unwrap_or_else(|| panic!("{scope} {name}"))
            .clone()
    };
    let e = find("event", "DDCL Division 1");
    common::assert_cells(
        &e,
        &[
            ("games", "9"),
            // Two board files end `*`, unfinished: nothing decides them.
            ("confirmed", "4"),
            ("corrected", "3"),
            ("review", "2"),
            (
                "reasons",
                "both-flags-down=2; dead-position=1; unterminated=2",
            ),
        ],
    );
    let e = find("event", "Club Rapidplay");
    common::assert_cells(
        &e,
        &[
            ("games", "4"),
            ("review", "3"),
            ("reasons", "illegal-move=3"),
        ],
    );
    common::assert_cells(
        &find("player", "Whitfield, Colin"),
        &[
            ("corrected", "2"),
            ("corrected_for", "0"),
            ("corrected_against", "2"),
        ],
    );
    common::assert_cells(
        &find("player", "Pearson, Alan"),
        &[
            ("corrected", "2"),
            ("corrected_for", "2"),
            ("corrected_against", "0"),
        ],
    );
    let events: u64 = rows
        .iter()
        .filter(|r| r["scope"] == "event")
        .map(|r| r["games"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(events, 38);
}

/// Chromium, headless, as the machine's own browser (Debian's package).
fn chromium() -> PathBuf {
    common::installed(
        &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
        "chromium is not installed (apt-get install chromium; .ci/run does)",
    )
}

fn dump_dom(url: &str, profile: &Path) -> String {
    let o = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--dump-dom", url])
        .stdin(Stdio::null())
        .output()
        .expect("chromium");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn review_page_in_headless_chromium() {
    if !common::tools(
        "review_page_in_headless_chromium",
        &[common::Tool::Chromium],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rows = parse_csv(
        &samples_run(
            dir.path(),
            &["--html", "review.html", "--packets", "packets"],
        )
        .stdout,
    );
    let page = dir.path().join("review.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing is fetched; an address is only ever a game's,
    // in the data, shown as a link.
    let outside = common::review_without_data(&html);
    for fetch in [" src=", "<link", "url(", "@import", "http://", "https://"] {
        assert!(!outside.contains(fetch), "{fetch}");
    }
    let unconfirmed: Vec<&Row> = rows.iter().filter(|r| r["status"] != "confirmed").collect();
    assert_eq!(unconfirmed.len(), 17);
    let url = format!("file://{}", page.display());
    let profile = dir.path().join("profile");

    let dom = dump_dom(&url, &profile);
    assert!(
        dom.contains("<span id=\"shown\">17</span> of 17 shown"),
        "{dom}"
    );
    // One section an item (the first selected: `item sel`), each with its
    // board, drawn into the list (the script's own text is not counted).
    let list = |dom: &str| {
        let start = dom.find("<main id=\"items\">").unwrap();
        dom[start..start + dom[start..].find("</main>").unwrap()].to_string()
    };
    assert_eq!(list(&dom).matches("<section class=\"item").count(), 17);
    assert_eq!(list(&dom).matches("<svg class=\"board\"").count(), 17);
    assert!(dom.contains(
        "38 games: 21 confirmed, 8 corrected, 9 review, 0 unreadable under ecf-quickplay"
    ));
    // Each entry links its packet, and the packet is there.
    let shown = list(&dom);
    let links: Vec<&str> = shown
        .split("<a class=\"packet\" href=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert_eq!(links.len(), 17);
    for l in &links {
        assert!(dir.path().join(l).is_file(), "{l}");
    }
    // The rule and what it says.
    assert!(
        dom.contains("<dt>ECF QPF 9</dt><dd>A player wins by showing"),
        "{dom}"
    );

    // The filters, set from the address as a user would set them.
    let dom = dump_dom(&format!("{url}?status=review"), &profile);
    assert!(
        dom.contains("<span id=\"shown\">9</span> of 17 shown"),
        "{dom}"
    );
    assert_eq!(list(&dom).matches("<section class=\"item").count(), 9);
    let dom = dump_dom(&format!("{url}?player=whitfield"), &profile);
    let whitfield = unconfirmed
        .iter()
        .filter(|r| {
            format!("{} {}", r["white"], r["black"])
                .to_lowercase()
                .contains("whitfield")
        })
        .count();
    assert_eq!(whitfield, 2);
    assert!(
        dom.contains(&format!("<span id=\"shown\">{whitfield}</span>")),
        "{dom}"
    );
    let dom = dump_dom(
        &format!("{url}?event=DDCL%20Division%201&reason=both-flags-down"),
        &profile,
    );
    assert!(dom.contains("<span id=\"shown\">2</span>"), "{dom}");
}

/// One `001` line read back by its columns (FIDE TRF-16).
struct TrfLine {
    number: usize,
    name: String,
    points: f64,
    rank: usize,
    rounds: Vec<(usize, char, char)>,
}

fn read_trf(text: &str) -> Vec<TrfLine> {
    common::trf_players(text)
        .into_iter()
        .map(|(number, _, name, _, _, _, points, rounds)| {
            let rank = text
                .lines()
                .filter(|l| l.starts_with("001"))
                .nth(number - 1)
                .and_then(|l| l.get(85..89))
                .and_then(|r| r.trim().parse().ok())
                .unwrap();
            TrfLine {
                number,
                name,
                points,
                rank,
                rounds,
            }
        })
        .collect()
}

#[test]
fn trf_report_field_by_field() {
    if !common::tools("trf_report_field_by_field", &[common::Tool::PythonTrf]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let trf = dir.path().join("list.trf");
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        sample("active30-rated-list.pgn").to_str().unwrap(),
        "-o",
        dir.path().join("findings.csv").to_str().unwrap(),
        "--trf",
        trf.to_str().unwrap(),
        "--trf-federation",
        "MAS",
        "--trf-arbiter",
        "Ahmad, Ismail",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&trf).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        &lines[..10],
        [
            "012 Sabah Active-30 Rated",
            "022 Kota Kinabalu",
            "032 MAS",
            "042 2023/08/12",
            "052 2023/08/13",
            "062 9",
            "072 0",
            "092 Sabah Active-30 rated list, audited",
            "102 Ahmad, Ismail",
            // The control the games were played at (8 of 11 say 1800).
            "122 1800",
        ]
    );
    // Round dates at 92-99, 102-109, ...: seven rounds on the 12th, four on
    // the 13th (each day's rounds numbered from 1), and the rounds counted.
    let dates = lines[10];
    assert!(dates.starts_with("132"));
    assert_eq!(&dates[91..99], "23/08/12");
    assert_eq!(&dates[151..159], "23/08/12");
    assert_eq!(&dates[161..169], "23/08/13");
    assert_eq!(lines[11], "XXR 11");
    let players = read_trf(&text);
    assert_eq!(players.len(), 9);
    // Players numbered by rating (none given), then by name.
    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names[..4],
        [
            "Chong, Daniel",
            "Gomez, Roberto",
            "Jaafar, Azman",
            "Lim, Wei Ming"
        ]
    );
    let lim = &players[3];
    assert_eq!((lim.number, lim.points, lim.rank), (4, 3.0, 2));
    // Round 1 on the 12th: Lim (White) lost to Chong.
    assert_eq!(lim.rounds[0], (1, 'w', '0'));
    assert_eq!(players[0].rounds[0], (4, 'b', '1'));
    // The corrected game (Jaafar v Tan, round 4 on the 13th, recorded 1-0,
    // judged drawn under Sabah iv.1(f)) goes in with the judged result.
    let jaafar = &players[2];
    let tan = players.iter().find(|p| p.name == "Tan, Mei Ling").unwrap();
    assert_eq!(jaafar.rounds[10], (tan.number, 'w', '='));
    assert_eq!(tan.rounds[10], (3, 'b', '='));
    // The games the findings exclude are not rated (TRF-16's W / D / L):
    // Lim's seventh round of the 12th (Sabah v.11), the 900+10 game and the
    // game whose clock rises (Sabah i.1); their points still count.
    let ong = players.iter().find(|p| p.name == "Ong, Boon Keat").unwrap();
    let rahman = players.iter().find(|p| p.name == "Rahman, Siti").unwrap();
    assert_eq!(lim.rounds[6], (ong.number, 'w', 'L'));
    assert_eq!(ong.rounds[6], (4, 'b', 'W'));
    assert_eq!(jaafar.rounds[7], (ong.number, 'w', 'W'));
    assert_eq!(jaafar.rounds[9], (rahman.number, 'w', 'W'));
    assert_eq!(rahman.rounds[9], (3, 'b', 'L'));
    // Every other game is rated.
    let unrated = players
        .iter()
        .flat_map(|p| &p.rounds)
        .filter(|g| "WDL".contains(g.2))
        .count();
    assert_eq!(unrated, 6);
    // Read back, the report holds together: pairings are mutual, and the
    // points are the results'.
    let mut total = 0.0;
    for p in &players {
        let mut points = 0.0;
        for (r, &(opp, colour, code)) in p.rounds.iter().enumerate() {
            if opp == 0 {
                assert_eq!((colour, code), ('-', 'Z'));
                continue;
            }
            let back = players[opp - 1].rounds[r];
            assert_eq!(back.0, p.number);
            assert_ne!(back.1, colour);
            points += match code {
                '1' | 'W' => 1.0,
                '=' | 'D' => 0.5,
                _ => 0.0,
            };
        }
        assert_eq!(points, p.points, "{}", p.name);
        total += points;
    }
    assert_eq!(total, 11.0);

    // The `trf` package (PyPI; a TRF-16 parser and dumper) reads it back to
    // the same players, points, ranks and games, and its own dump of what it
    // read reads back the same again.
    let script = r#"
import sys, json, trf
def view(t):
    return {"name": t.name, "players": [[p.startrank, p.name, p.points, p.rank,
            [[g.startrank, g.color, g.result] for g in p.games]] for p in t.players]}
with open(sys.argv[1]) as f:
    t = trf.load(f)
again = trf.loads(trf.dumps(t))
assert view(again)["players"] == view(t)["players"], "the dump does not read back"
print(json.dumps(view(t)))
"#;
    let v = python_json(
        script,
        &trf,
        "the trf package (pip install trf; .ci/run does)",
    );
    assert_eq!(v["name"], "Sabah Active-30 Rated");
    let theirs = v["players"].as_array().unwrap();
    assert_eq!(theirs.len(), players.len());
    for (t, p) in theirs.iter().zip(&players) {
        assert_eq!(t[0], p.number);
        assert_eq!(t[1], p.name.as_str());
        assert_eq!(t[2], p.points);
        assert_eq!(t[3], p.rank);
        let games: Vec<(usize, char, char)> = t[4]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let ch = |v: &serde_json::Value| v.as_str().unwrap().chars().next().unwrap();
                (g[0].as_u64().unwrap_or(0) as usize, ch(&g[1]), ch(&g[2]))
            })
            .collect();
        assert_eq!(games, p.rounds, "{}", p.name);
    }
}

#[test]
fn claims_and_audit_as_json_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("packets");
    let page = dir.path().join("claims.html");
    let o = arbiter(&[
        "claim",
        "-q",
        sample("claims").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--format",
        "json",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!out.join("claims.csv").exists());
    let claims: Vec<ClaimJson> =
        serde_json::from_slice(&std::fs::read(out.join("claims.json")).unwrap()).unwrap();
    assert_eq!(claims.len(), 7);
    let appeal = claims.iter().find(|c| c.claim == "sabah-appeal").unwrap();
    assert_eq!(appeal.kind, "clear-draw-appeal");
    assert_eq!(appeal.recommendation, "refer");
    assert_eq!(appeal.rule, ["Sabah v.8"]);
    assert_eq!(appeal.result_if_upheld, "1/2-1/2");
    assert_eq!(appeal.packet, "sabah-appeal.pdf");
    assert_eq!(appeal.white_clock_seconds, Some(390.0));
    assert!(appeal
        .checks
        .iter()
        .all(|c| ["pass", "fail", "n/a", "unknown"].contains(&c.outcome.as_str())));
    assert!(!appeal.checks.is_empty());
    // The mating line a "can mate" check rests on, as the packet prints
    // it: a referred appeal may still be rejected as frivolous, a loss
    // that needs the opponent able to mate (Sabah v.8(c)).
    assert!(
        appeal.mate_line.as_deref().is_some_and(|l| l
            .starts_with("Black could still mate, for example 58... Ra1 ")
            && l.ends_with('#')),
        "{:?}",
        appeal.mate_line
    );
    let illegal = claims.iter().find(|c| c.claim == "bcf-illegal").unwrap();
    assert!(
        illegal.mate_line.as_deref().is_some_and(|l| l
            .starts_with("Black can mate, for example 21. dxc5 ")
            && l.ends_with('#')),
        "{:?}",
        illegal.mate_line
    );
    let html = std::fs::read_to_string(&page).unwrap();
    let data = common::review_data(&html);
    let items = data["items"].as_array().unwrap();
    assert_eq!(items.len(), 7);
    assert!(
        items.iter().any(|i| i["pk"] == "packets/sabah-appeal.pdf"),
        "{html}"
    );
    // Each claim carries its scoresheet game's key: a decision on it is
    // what `claim --record-ruling` writes.
    assert!(items
        .iter()
        .all(|i| i["key"].as_str().is_some_and(|k| k.len() == 33)));

    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        sample("active30-rated-list.pgn").to_str().unwrap(),
        "--format",
        "ndjson",
    ]);
    assert!(o.status.success());
    let findings: Vec<FindingJson> = o
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    let kinds: Vec<&str> = findings.iter().map(|f| f.finding.as_str()).collect();
    assert_eq!(
        kinds,
        ["time-control", "time-control", "result", "rounds-per-day"]
    );
    assert_eq!(findings[0].date.as_deref(), Some("2023-08-13"));
    assert_eq!(findings[0].rule, ["Sabah i.1"]);

    // The audit's review page: every finding with its game's event, board
    // and rule statement.
    let page = dir.path().join("audit.html");
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        sample("active30-rated-list.pgn").to_str().unwrap(),
        "-o",
        dir.path().join("f.csv").to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let html = std::fs::read_to_string(&page).unwrap();
    let data = common::review_data(&html);
    let items = data["items"].as_array().unwrap();
    assert_eq!(items.len(), 4);
    // Each with its board's position and its game's event.
    assert!(items.iter().all(|i| i["fen"].is_string()), "{html}");
    assert!(items.iter().all(|i| i["e"] == "Sabah Active-30 Rated"));
    let rules = data["rules"].as_array().unwrap();
    let v11 = rules.iter().position(|r| r[0] == "Sabah v.11").unwrap();
    assert!(rules[v11][1]
        .as_str()
        .unwrap()
        .starts_with("Games under these rules may be rated"));
    assert!(items.iter().any(|i| i["ru"]
        .as_array()
        .is_some_and(|r| r.contains(&serde_json::json!(v11)))));
}

#[test]
fn completions_man_suggestions_and_analyse_from_stdin() {
    for (shell, marker) in [
        ("bash", "complete -F _arbiter"),
        ("zsh", "#compdef arbiter"),
        ("fish", "complete -c arbiter"),
    ] {
        let o = arbiter(&["completions", shell]);
        assert!(o.status.success());
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains(marker), "{shell}");
        for sub in ["adjudicate", "claim", "season", "audit", "analyse"] {
            assert!(text.contains(sub), "{shell}: {sub}");
        }
    }
    let man = String::from_utf8(arbiter(&["man"]).stdout).unwrap();
    assert!(man.contains(".TH arbiter 1"));
    // One page: each command a section with its options, and no reference
    // to a page of its own, which is never installed.
    for section in [
        "ARBITER ADJUDICATE",
        "ARBITER CLAIM",
        "ARBITER SEASON INIT",
        "ARBITER AUDIT",
    ] {
        assert!(man.contains(&format!(".SH \"{section}\"")), "{section}");
    }
    for option in [
        "\\-\\-fail\\-on\\-review",
        "\\-\\-record\\-ruling",
        "\\-\\-league",
    ] {
        assert!(man.contains(option), "{option}");
    }
    assert!(!man.contains("arbiter\\-adjudicate(1)") && !man.contains("arbiter-adjudicate(1)"));

    for flag in ["--pgn-out", "--summary", "--html"] {
        let o = arbiter(&["adjudicate", flag, "-", "x.pgn"]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(&format!("{flag} needs a file name")));
    }
    for typed in ["FIDE-RAPID", "fide-rpaid"] {
        let o = arbiter(&["adjudicate", "-r", typed, "-"]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("did you mean \"fide-rapid\"?"), "{err}");
    }

    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["analyse", "-q", "--file", "-", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"fen\n8/8/4k3/8/8/4K3/8/8 w - - 0 1\n# a comment\n8/8/4k3/8/8/4K3/4Q3/8 w - - 0 1\n",
        )
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    assert!(
        o.stderr.is_empty(),
        "-q: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
    assert_eq!(v[0]["dead"], "yes");
    assert_eq!(v[0]["white"], "unwinnable");
    assert_eq!(v[1]["white"], "winnable");
    let keys: Vec<&str> = v[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    // The TSV's columns, in its order.
    let columns: Vec<&str> = arbiter::report::tsv::ANALYSE_HEADER.split('\t').collect();
    assert_eq!(keys, columns);
}

/// On a terminal (here `script`'s pseudo-terminal): a bar with bytes,
/// percentage and ETA for a plain file, a spinner with the count and rate
/// for stdin; rates as whole numbers.
#[test]
fn progress_bar_on_a_terminal() {
    if !Path::new("/usr/bin/script").exists() {
        panic!("script (util-linux) is needed to give arbiter a terminal");
    }
    let dir = tempfile::tempdir().unwrap();
    let input =
        common::data("games-with-clocks/lichess_DrDrunkenstein_2018-2021_with-clocks-evals.pgn");
    let out = dir.path().join("out.csv");
    let bin = env!("CARGO_BIN_EXE_arbiter");
    let run = |cmd: String| {
        let o = Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{cmd}");
        String::from_utf8_lossy(&o.stdout).replace('\r', "\n")
    };
    let tty = run(format!(
        "{bin} adjudicate -j1 {} -o {}",
        input.display(),
        out.display()
    ));
    assert!(tty.contains("3.56 MiB/3.56 MiB 100% ETA"), "{tty}");
    assert!(tty.contains("989 games, "), "{tty}");
    let stdin = run(format!(
        "cat {} | {bin} adjudicate -j1 - -o {}",
        input.display(),
        out.display()
    ));
    assert!(!stdin.contains("ETA"), "{stdin}");
    assert!(stdin.contains(" games/s, "), "{stdin}");
    for text in [&tty, &stdin] {
        for (i, _) in text.match_indices(" games/s") {
            let before = &text[..i];
            let number = before.rsplit(' ').next().unwrap();
            assert!(
                number.chars().all(|c| c.is_ascii_digit()),
                "rate {number:?} in {text}"
            );
        }
    }
}

/// Elo cells are numbers or empty, and `round` stays text beside the
/// round and board it gives, on a real broadcast export (`Round "1.1"`).
#[test]
fn elo_cells_are_numbers_and_rounds_keep_their_boards() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("rounds.pgn");
    std::fs::write(
        &pgn,
        "[Round \"1.10\"]\n[White \"A\"]\n[Black \"B\"]\n[WhiteElo \"?\"]\n[BlackElo \"2100\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
         [Round \"1.1\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n\n\
         [Round \"3\"]\n[White \"E\"]\n[Black \"F\"]\n[WhiteElo \"0\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n\
         [Round \"?\"]\n[White \"G\"]\n[Black \"H\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n",
    )
    .unwrap();
    let o = arbiter(&["adjudicate", "-q", pgn.to_str().unwrap()]);
    let rows = parse_csv(&o.stdout);
    let cells = |k: &str| rows.iter().map(|r| r[k].as_str()).collect::<Vec<_>>();
    assert_eq!(cells("round"), ["1.10", "1.1", "3", "?"]);
    assert_eq!(cells("round_number"), ["1", "1", "3", ""]);
    assert_eq!(cells("board"), ["10", "1", "", ""]);
    assert_eq!(cells("white_elo"), ["", "", "0", ""]);
    assert_eq!(cells("black_elo"), ["2100", "", "", ""]);
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "--format",
        "json",
        pgn.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["round"], "1.10");
    assert_eq!(v[0]["round_number"], 1);
    assert_eq!(v[0]["board"], 10);
    assert_eq!(v[0]["white_elo"], serde_json::Value::Null);
    assert_eq!(v[0]["black_elo"], 2100);
    assert_eq!(v[3]["round_number"], serde_json::Value::Null);
    // The real broadcast: 45 games, rounds 1 to 9, boards 1 to 5.
    let f = common::data("games-with-clocks/lichess-broadcast-study_BBDDNRR_2025_OTB.pgn");
    let rows = parse_csv(&arbiter(&["adjudicate", "-q", f.to_str().unwrap()]).stdout);
    assert_eq!(rows.len(), 45);
    let rounds: std::collections::BTreeSet<u32> = rows
        .iter()
        .map(|r| r["round_number"].parse().unwrap())
        .collect();
    assert_eq!(rounds, (1..=9).collect());
    assert!(rows
        .iter()
        .all(|r| (1..=5).contains(&r["board"].parse::<u32>().unwrap())));
    assert!(rows.iter().all(|r| r["white_elo"].parse::<u32>().is_ok()));
}

/// Decisions recorded once: a game under review gets the secretary's
/// result from the decisions file (status `decided`, the decision's rule),
/// a re-export of the same game keeps its key, a decision for a game whose
/// moves changed, or for no game read, is reported and not applied, and a
/// malformed file is refused by row and column.
#[test]
fn decisions_round_trip_through_adjudicate() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("club.pgn");
    std::fs::copy(sample("bcf-rapid-club-night.pgn"), &pgn).unwrap();
    let judge = |extra: &[&str]| {
        let mut args = vec!["adjudicate", "-r", "bcf-rapid", pgn.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = arbiter(&args);
        (
            o.status.code(),
            parse_csv(&o.stdout),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (_, rows, _) = judge(&[]);
    let review = rows.iter().find(|r| r["status"] == "review").unwrap();
    assert_eq!(review["game"], "2");
    let key = review["game_key"].clone();
    assert_eq!(key.len(), 33, "{key}");
    // Confirmed games need no key without a decisions file.
    assert_eq!(rows.iter().filter(|r| r["game_key"].is_empty()).count(), 2);
    let decisions = dir.path().join("decisions.csv");
    std::fs::write(
        &decisions,
        format!(
            "game_key,event,white,black,result,rule,decided_by,decided_on,note\n\
             {key},Club night,A,B,1-0,BCF RP 12,League secretary,2024-03-05,both clocks over five minutes: the arbiter ruled play on\n\
             0000000000000001-0000000000000002,,,,0-1,BCF RP 13,League secretary,,\n"
        ),
    )
    .unwrap();
    let (code, rows, err) = judge(&["--decisions", decisions.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let decided = &rows[1];
    assert_eq!(
        (
            decided["status"].as_str(),
            decided["result"].as_str(),
            decided["rule"].as_str(),
            decided["game_key"].as_str()
        ),
        ("decided", "1-0", "BCF RP 12", key.as_str())
    );
    assert!(decided["detail"].starts_with("decided 1-0 by League secretary on 2024-03-05: both clocks over five minutes: the arbiter ruled play on ("), "{}", decided["detail"]);
    assert!(
        decided["detail"].contains("row 2); as judged: review *, "),
        "{}",
        decided["detail"]
    );
    assert!(err.contains("decisions.csv row 3: no game read has the key 0000000000000001-0000000000000002 (not applied)"), "{err}");
    assert!(
        err.contains("3 games: 2 confirmed, 0 corrected, 0 review, 0 unreadable, 1 decided"),
        "{err}"
    );
    // The other games are as they were.
    assert!(rows
        .iter()
        .filter(|r| r["game"] != "2")
        .all(|r| r["status"] == "confirmed"));

    // Re-exported (comments, clocks and line breaks gone, check signs
    // dropped): the same key, still decided.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let bare: String = text
        .split('\n')
        .map(|l| {
            if l.starts_with('[') {
                format!("{l}\n")
            } else {
                format!("{} ", l.replace('+', ""))
            }
        })
        .collect();
    let mut plain = String::new();
    let mut depth = 0;
    for c in bare.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let plain = plain.replace("] 1.", "]\n\n1.").replace(" [", "\n\n[");
    std::fs::write(&pgn, &plain).unwrap();
    let (_, rows, err) = judge(&["--decisions", decisions.to_str().unwrap()]);
    assert_eq!(rows.len(), 3, "{err}\n{plain}");
    assert_eq!(rows[1]["status"], "decided", "{}", rows[1]["detail"]);
    assert_eq!(rows[1]["game_key"], key);

    // The moves changed since (a move more before game 2's result): not
    // decided, and said.
    let third = text.match_indices("[Event").nth(2).map(|(i, _)| i).unwrap();
    let upto = text[..third].trim_end();
    let result_at = upto.rfind(' ').unwrap();
    let with_move = format!(
        "{} a4{}\n\n{}",
        &upto[..result_at],
        &upto[result_at..],
        &text[third..]
    );
    std::fs::write(&pgn, with_move).unwrap();
    let (_, rows, err) = judge(&["--decisions", decisions.to_str().unwrap()]);
    let r = &rows[1];
    assert_ne!(r["status"], "decided");
    assert_ne!(r["game_key"], key);
    assert_eq!(r["game_key"][..16], key[..16]);
    assert!(
        err.contains("decisions.csv row 2: a game with the event, round, date and players of "),
        "{err}"
    );
    assert!(err.contains("was read, but with other moves (its record changed since, or another game of the pairing): not applied"), "{err}");
    // No other game's ruling changes for a near miss.
    assert!(rows
        .iter()
        .filter(|r| r["game"] != "2")
        .all(|r| r["status"] == "confirmed"));

    // A file without a required column, or with a result that is none,
    // is refused naming the row and column.
    std::fs::write(&decisions, "game_key,result,rule\nx,1-0,BCF RP 12\n").unwrap();
    let (code, _, err) = judge(&["--decisions", decisions.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("decisions.csv: no decided_by column"), "{err}");
    std::fs::write(
        &decisions,
        format!("game_key,result,rule,decided_by\n{key},1:0,BCF RP 12,Me\n"),
    )
    .unwrap();
    let (code, _, err) = judge(&["--decisions", decisions.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("decisions.csv row 2 column result: \"1:0\" is not 1-0, 0-1 or 1/2-1/2"),
        "{err}"
    );
    // A date written day or month first is not guessed at (it was taken
    // as written, and said in detail as such).
    std::fs::write(
        &decisions,
        format!("game_key,result,rule,decided_by,decided_on\n{key},1-0,BCF RP 12,Me,05/03/2024\n"),
    )
    .unwrap();
    let (code, _, err) = judge(&["--decisions", decisions.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(
            "decisions.csv row 2 column decided_on: \"05/03/2024\" is not a date (YYYY-MM-DD)"
        ),
        "{err}"
    );
}

/// The items of a review page, as its data holds them.
fn page_items(html: &str) -> Vec<serde_json::Value> {
    let start = html
        .find("<script type=\"application/json\" id=\"data\">")
        .unwrap();
    let rest = &html[start..];
    let data = &rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()];
    let v: serde_json::Value = serde_json::from_str(data).unwrap();
    v["items"].as_array().unwrap().clone()
}

/// The review pages say what each thing is: a game's decisive move by
/// number and side (it was "Ke3 (ply 3)"), an audit finding grouped under
/// its own kind (a time-control finding was grouped under the game's
/// `resignation-or-agreement`), a claim's kind labelled a claim.
#[test]
fn review_pages_name_things_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("review.html");
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", "samples/", "-o", "/dev/null", "--html"])
        .arg(&page)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let items = page_items(&std::fs::read_to_string(&page).unwrap());
    let at = |title: &str| {
        items
            .iter()
            .find(|i| i["t"] == title)
            .map(|i| i["at"].as_str().unwrap_or("").to_string())
    };
    assert_eq!(
        at("samples/ddcl-league-match.pgn, game 4").as_deref(),
        Some("55. Bxg7")
    );
    assert_eq!(
        at("samples/active30-rated-list.pgn, game 11").as_deref(),
        Some("51. Ke3")
    );
    assert!(items
        .iter()
        .all(|i| !i["at"].as_str().unwrap_or("").contains("ply")));

    let page = dir.path().join("audit.html");
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        sample("active30-rated-list.pgn").to_str().unwrap(),
        "-o",
        "/dev/null",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let html = std::fs::read_to_string(&page).unwrap();
    let kinds: Vec<(String, String)> = page_items(&html)
        .iter()
        .map(|i| {
            (
                i["s"].as_str().unwrap().into(),
                i["r"].as_str().unwrap().into(),
            )
        })
        .collect();
    let pair = |s: &str, r: &str| (s.to_string(), r.to_string());
    assert_eq!(
        kinds,
        [
            pair("time-control", "time-control"),
            pair("time-control", "time-control"),
            pair("result", "flag-fall-cannot-mate"),
            pair("rounds-per-day", "rounds-per-day"),
        ]
    );
    assert!(html.contains("<th>finding</th><th>items</th>"), "{html}");

    let out = dir.path().join("packets");
    let page = dir.path().join("claims.html");
    let o = arbiter(&[
        "claim",
        "-q",
        sample("claims").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<th>claim</th><th>items</th>"), "{html}");
    assert!(
        html.contains("<label>Claim <select id=\"f-reason\">"),
        "{html}"
    );
    assert!(
        html.contains("<th>recommendation</th><th>items</th>"),
        "{html}"
    );
    assert!(!html.contains("<th>reason</th>"), "{html}");
}

#[test]
fn json_text_tags_are_null_where_absent() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("bare.pgn");
    std::fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
    )
    .unwrap();
    let o = common::arbiter(&[
        "adjudicate",
        "-q",
        "--no-rules-map",
        "--format",
        "ndjson",
        pgn.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for absent in ["event", "site", "date", "date_pgn", "round", "time_control"] {
        assert_eq!(v[absent], serde_json::Value::Null, "{absent}");
    }
    assert_eq!(
        (v["white"].as_str(), v["black"].as_str()),
        (Some("A"), Some("B"))
    );
}

/// The review page's title names what judged the games: the ruleset, or,
/// where a rules map chose each game's, the map.
#[test]
fn the_review_page_title_names_the_rules_used() {
    let dir = tempfile::tempdir().unwrap();
    let o = samples_run(dir.path(), &["--html", "one.html"]);
    assert!(o.status.success());
    let one = std::fs::read_to_string(dir.path().join("one.html")).unwrap();
    assert!(one.contains("<title>arbiter review: ecf-quickplay</title>"));
    let page = dir.path().join("map.html");
    let o = arbiter(&[
        "adjudicate",
        "-q",
        sample("").to_str().unwrap(),
        "-o",
        dir.path().join("r.csv").to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let map = std::fs::read_to_string(&page).unwrap();
    assert!(map.contains("<title>arbiter review: rulesets by rules-map.toml</title>"));
    assert!(map.contains("<h1>arbiter review: rulesets by rules-map.toml</h1>"));
}

/// Seven players, a round robin of seven rounds played on one day: each
/// sits one round out against `BYE`, so no player plays more than six,
/// but the tournament plays seven (Sabah v.11: "in such a tournament not
/// more than six rounds a day may be played"). The seventh round's games
/// are not rated; the byes are TRF-16's `0000 - U`; a GM's and a WGM's
/// titles stand in columns 11-13 as FIDE writes them, and the `trf`
/// package reads the file (its two-letter titles, GM, in 12-13).
#[test]
fn a_round_robin_with_byes_played_in_one_day() {
    let players = [
        ("Ali, A", "GM"),
        ("Bee, B", ""),
        ("Cee, C", ""),
        ("Dee, D", ""),
        ("Eee, E", ""),
        ("Eff, F", ""),
        ("Gee, G", ""),
    ];
    // The circle method on eight seats, the eighth a bye.
    let mut pgn = String::new();
    for round in 0..7 {
        let seat = |i: usize| if i == 7 { 7 } else { (i + round) % 7 };
        for board in 0..4 {
            let (w, b) = (seat(board), seat(7 - board));
            let name = |i: usize| if i == 7 { ("BYE", "") } else { players[i] };
            let ((white, wt), (black, bt)) = (name(w), name(b));
            let moves = if w == 7 || b == 7 {
                ""
            } else {
                "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# "
            };
            let result = if b == 7 {
                "1-0"
            } else if w == 7 {
                "0-1"
            } else {
                "1-0"
            };
            pgn.push_str(&format!(
                "[Event \"Marathon\"]\n[Site \"KK\"]\n[Date \"2024.05.01\"]\n[Round \"{}.{}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[WhiteTitle \"{wt}\"]\n[BlackTitle \"{bt}\"]\n[Result \"{result}\"]\n[TimeControl \"1800\"]\n\n{moves}{result}\n\n",
                round + 1,
                board + 1
            ));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rr.pgn");
    std::fs::write(&path, &pgn).unwrap();
    let trf = dir.path().join("rr.trf");
    let o = arbiter(&[
        "audit",
        "--list",
        "active30",
        path.to_str().unwrap(),
        "--trf",
        trf.to_str().unwrap(),
        "--fail-on-findings",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    // A finding, asked for: exit 1.
    assert_eq!(o.status.code(), Some(1), "{err}");
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["finding"], "rounds-per-day");
    assert_eq!(rows[0]["round"], "7.1");
    assert_eq!(
        rows[0]["detail"],
        "the tournament \"Marathon\" had 7 rounds on 2024.05.01 (rounds 1, 2, 3, 4, 5, 6, 7); not more than 6 a day: the games of round 7 not rated"
    );
    assert!(
        err.contains("7 games against BYE: a point written as a pairing-allocated bye (U)"),
        "{err}"
    );
    let text = std::fs::read_to_string(&trf).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("001")).collect();
    // Seven players: no line for BYE.
    assert_eq!(lines.len(), 7, "{text}");
    assert!(text.lines().any(|l| l == "062 7"), "{text}");
    let ali = lines.iter().find(|l| l.contains("Ali, A")).unwrap();
    assert_eq!(&ali[10..13], " GM", "{ali}");
    for p in common::trf_players(&text) {
        let byes: Vec<_> = p.7.iter().filter(|g| g.0 == 0).collect();
        assert_eq!(byes, [&(0, '-', 'U')], "{}", p.2);
        // Round 7's games are written not rated (W, L), its bye as a bye.
        let seventh = p.7[6];
        assert!(
            seventh.0 == 0 || "WL".contains(seventh.2),
            "{}: {seventh:?}",
            p.2
        );
        assert!(
            p.7[..6].iter().all(|g| g.0 == 0 || "10".contains(g.2)),
            "{}",
            p.2
        );
    }
    let script = r#"
import sys, json, trf
with open(sys.argv[1]) as f:
    t = trf.load(f)
print(json.dumps([[p.name, p.title, p.points] for p in t.players]))
"#;
    let v = python_json(
        script,
        &trf,
        "the trf package (pip install trf; .ci/run does)",
    );
    let ali = v
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p[0] == "Ali, A")
        .unwrap();
    assert_eq!(ali[1], "GM");
    // A WGM takes all three columns, as TRF-16 lists the titles.
    let wgm = pgn
        .replace("[WhiteTitle \"GM\"]", "[WhiteTitle \"wgm\"]")
        .replace("[BlackTitle \"GM\"]", "[BlackTitle \"wgm\"]");
    std::fs::write(&path, wgm).unwrap();
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        path.to_str().unwrap(),
        "--trf",
        trf.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = std::fs::read_to_string(&trf).unwrap();
    let ali = text.lines().find(|l| l.contains("Ali, A")).unwrap();
    assert_eq!(&ali[10..13], "WGM", "{ali}");
}

/// A copy of a game read before has no packet (it is not judged): its
/// review item links none, and every link the page has is to a packet
/// that was written.
#[test]
fn a_copys_review_item_links_no_packet() {
    let dir = tempfile::tempdir().unwrap();
    let game = std::fs::read_to_string(sample("hs-league.pgn")).unwrap();
    std::fs::write(dir.path().join("a.pgn"), &game).unwrap();
    std::fs::write(dir.path().join("b.pgn"), &game).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(dir.path())
        .args([
            "adjudicate",
            "-q",
            "--no-rules-map",
            "-r",
            "hs-league",
            "a.pgn",
            "b.pgn",
            "-o",
            "r.csv",
            "--html",
            "review.html",
            "--packets",
            "packets",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = parse_csv(&std::fs::read(dir.path().join("r.csv")).unwrap());
    let copies = rows.iter().filter(|r| r["reason"] == "duplicate").count();
    assert!(copies > 0);
    let html = std::fs::read_to_string(dir.path().join("review.html")).unwrap();
    let data = common::review_data(&html);
    let items = data["items"].as_array().unwrap();
    let linked: Vec<&str> = items.iter().filter_map(|i| i["pk"].as_str()).collect();
    let unconfirmed = rows
        .iter()
        .filter(|r| r["status"] != "confirmed" && r["reason"] != "duplicate")
        .count();
    assert_eq!(linked.len(), unconfirmed);
    assert_eq!(items.len(), unconfirmed + copies);
    for l in linked {
        assert!(dir.path().join(l).is_file(), "{l}");
    }
}

/// A corrected PGN from inputs saved differently (Windows-1252 with CR LF,
/// UTF-8 with LF) is one file in one encoding: UTF-8, LF line ends, each
/// name as written.
#[test]
fn a_corrected_pgn_is_utf8_with_lf_whatever_its_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let game = |white: &str, result: &str| {
        format!("[Event \"League\"]\n[White \"{white}\"]\n[Black \"Peña, José\"]\n[Result \"{result}\"]\n\n1. f3 e5 2. g4 Qh4# {result}\n\n")
    };
    let ansi = encoding_rs::WINDOWS_1252
        .encode(&game("Müller, Jörg", "1-0").replace('\n', "\r\n"))
        .0
        .into_owned();
    assert!(std::str::from_utf8(&ansi).is_err());
    std::fs::write(dir.path().join("a.pgn"), &ansi).unwrap();
    std::fs::write(dir.path().join("b.pgn"), game("Ødegaard, Ola", "0-1")).unwrap();
    // One game with a Windows-1252 tag beside UTF-8 ones: each line as
    // the tags were read.
    let mixed = [
        b"[Event \"Caf\xe9 Open\"]\r\n".as_slice(),
        "[White \"Müller, Hans\"]\r\n[Black \"Novák, Jan\"]\r\n[Result \"0-1\"]\r\n\r\n1. f3 e5 2. g4 Qh4# 0-1\r\n".as_bytes(),
    ]
    .concat();
    std::fs::write(dir.path().join("c.pgn"), mixed).unwrap();
    // Two tags on one line, one UTF-8 and one not; CR CR LF line ends.
    let one_line = [
        "[Event \"Cup\"] [White \"Müller, Ida\"] ".as_bytes(),
        b"[Black \"Caf\xe9, Jo\"]\r\r\n[Result \"0-1\"]\r\r\n\r\r\n1. f3 e5 2. g4 Qh4# 0-1\r\r\n"
            .as_slice(),
    ]
    .concat();
    std::fs::write(dir.path().join("d.pgn"), one_line).unwrap();
    let out = dir.path().join("out.pgn");
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(dir.path())
        .args([
            "adjudicate",
            "-q",
            "--no-rules-map",
            "a.pgn",
            "b.pgn",
            "c.pgn",
            "d.pgn",
            "-o",
            "r.csv",
            "--pgn-out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&out).unwrap();
    let text = String::from_utf8(bytes).expect("one encoding: UTF-8");
    assert!(!text.contains('\r'), "{text:?}");
    assert!(text.contains("[White \"Müller, Jörg\"]"), "{text}");
    assert!(text.contains("[White \"Ødegaard, Ola\"]"), "{text}");
    assert_eq!(text.matches("[Black \"Peña, José\"]").count(), 2, "{text}");
    assert!(
        text.contains("[Event \"Café Open\"]\n[White \"Müller, Hans\"]\n[Black \"Novák, Jan\"]"),
        "{text}"
    );
    assert!(
        text.contains("[Event \"Cup\"] [White \"Müller, Ida\"] [Black \"Café, Jo\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1"),
        "{text}"
    );
    let rows = parse_csv(&std::fs::read(dir.path().join("r.csv")).unwrap());
    assert_eq!(
        (rows[2]["event"].as_str(), rows[2]["white"].as_str()),
        ("Café Open", "Müller, Hans")
    );
    // The first game was recorded 1-0 over Black's mate: corrected.
    assert!(
        text.contains("[Event \"Cup\"] [White \"Müller, Ida\"] [Black \"Café, Jo\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1"),
        "{text}"
    );
    assert!(text.contains("[RecordedResult \"1-0\"]"), "{text}");
}

/// Names and events from a submitted PGN that a spreadsheet would run as a
/// formula are written as text (a leading apostrophe, OWASP's advice) in
/// the results CSV, as a season's tables write player names; a lone `-`
/// and numbers are left as they are.
#[test]
fn formula_cells_from_outside_text_are_written_as_text() {
    let row = common::judge_one(
        "fide-rapid",
        "[Event \"=HYPERLINK(\\\"http://x\\\",\\\"y\\\")\"]\n[White \"=1+2\"]\n[Black \"+SUM(A1)\"]\n[Site \"@cmd\"]\n[Round \"-\"]\n[TimeControl \"-1+2\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    );
    common::assert_cells(
        &row,
        &[
            ("event", "'=HYPERLINK(\"http://x\",\"y\")"),
            ("white", "'=1+2"),
            ("black", "'+SUM(A1)"),
            ("site", "'@cmd"),
            ("round", "-"),
            ("time_control", "'-1+2"),
            ("status", "confirmed"),
        ],
    );
    // A token that is not a move is quoted in `move`; a source's name
    // begins `source` and may begin `detail`.
    let row = common::judge_one(
        "fide-rapid",
        "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. =HYPERLINK(\"x\") 1-0\n",
    );
    common::assert_cells(&row, &[("move", "'=HYPERLINK"), ("status", "unreadable")]);
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("=1+1.pgn");
    std::fs::write(&zip, b"PK\x03\x04rest of a zip").unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", "=1+1.pgn", "-o", "r.csv"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let rows = common::parse_csv(&std::fs::read(dir.path().join("r.csv")).unwrap());
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["source"], "'=1+1.pgn");
    assert!(
        rows[0]["detail"].starts_with("'=1+1.pgn: "),
        "{:?}",
        rows[0]
    );
}
