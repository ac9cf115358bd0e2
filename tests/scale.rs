//! Beyond one machine: `--shard K/N` runs whose outputs, concatenated in
//! order, are one run's output byte for byte, with GNU parallel as the
//! README's recipe runs them.

use crate::common;
use common::arbiter;

use std::process::Command;

/// Two plain exports and a gzip file between them: plain files are cut by
/// byte ranges, the compressed one goes whole to one shard.
fn inputs(dir: &std::path::Path) -> Vec<String> {
    let gz = dir.join("hs.pgn.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(
        &mut enc,
        &std::fs::read(common::sample("hs-league.pgn")).unwrap(),
    )
    .unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    vec![
        common::data("games-with-clocks/lichess_DrDrunkenstein_2018-2021_with-clocks-evals.pgn")
            .display()
            .to_string(),
        gz.display().to_string(),
        common::data("games-with-clocks/chesscom_mixed-incl-daily.pgn")
            .display()
            .to_string(),
    ]
}

#[test]
fn shards_concatenate_to_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let files = inputs(dir.path());
    for format in ["csv", "ndjson"] {
        let mut args = vec!["adjudicate", "-q", "-j2", "--format", format];
        args.extend(files.iter().map(String::as_str));
        let whole = arbiter(&args);
        assert!(whole.status.success());
        let games = whole.stdout.iter().filter(|&&b| b == b'\n').count();
        assert!(games > 1000, "{games}");
        for n in [2u32, 5, 7] {
            let mut merged = Vec::new();
            for k in 1..=n {
                let shard = format!("{k}/{n}");
                let mut a = vec![
                    "adjudicate",
                    "-q",
                    "-j1",
                    "--format",
                    format,
                    "--shard",
                    &shard,
                ];
                a.extend(files.iter().map(String::as_str));
                let o = arbiter(&a);
                assert!(
                    o.status.success(),
                    "{shard}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                merged.extend_from_slice(&o.stdout);
            }
            assert!(
                merged == whole.stdout,
                "{format}, {n} shards differ from one run"
            );
        }
    }
}

#[test]
fn gnu_parallel_recipe() {
    if !common::tools("gnu_parallel_recipe", &[common::Tool::Parallel]) {
        return;
    }
    let parallel = std::path::Path::new("/usr/bin/parallel");
    assert!(
        parallel.exists(),
        "GNU parallel is not installed (apt-get install parallel; .ci/run does)"
    );
    let dir = tempfile::tempdir().unwrap();
    let files = inputs(dir.path());
    let mut args = vec!["adjudicate", "-q"];
    args.extend(files.iter().map(String::as_str));
    let whole = arbiter(&args);
    // The README's recipe: one job per shard, output kept in order.
    let o = Command::new(parallel)
        .args(["--will-cite", "-k", "-j4"])
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", "-j1", "--shard", "{}/4"])
        .args(&files)
        .args([":::", "1", "2", "3", "4"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stdout == whole.stdout,
        "the merged shards differ from one run"
    );
}

#[test]
fn shard_needs_files_and_a_valid_range() {
    let o = arbiter(&["adjudicate", "-q", "--shard", "1/2", "-"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--shard needs files"));
    for bad in ["0/3", "4/3", "1/0", "x"] {
        let o = arbiter(&["adjudicate", "--shard", bad, "x.pgn"]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
    }
    let o = arbiter(&["adjudicate", "--shard", "1/2", "--format", "json", "x.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("use --format ndjson"));
}

#[test]
fn several_inputs_read_at_once_keep_input_order() {
    // Nine inputs, plain and compressed three ways, of different sizes (so
    // the readers running ahead finish out of order), an xz file (refused
    // in one row) and a missing one (an error, no row).
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..9usize {
        let mut text = String::new();
        for g in 0..(1 + (8 - i) * 300) {
            text.push_str(&format!(
                "[Event \"input {i}\"]\n[Round \"{g}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
            ));
        }
        let path = dir.path().join(format!("in{i}.pgn"));
        let bytes = text.into_bytes();
        let (path, data) = match i % 4 {
            1 => {
                let mut enc =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                std::io::Write::write_all(&mut enc, &bytes).unwrap();
                (path.with_extension("pgn.gz"), enc.finish().unwrap())
            }
            2 => (
                path.with_extension("pgn.zst"),
                zstd::encode_all(&bytes[..], 3).unwrap(),
            ),
            3 => {
                let mut enc =
                    bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
                std::io::Write::write_all(&mut enc, &bytes).unwrap();
                (path.with_extension("pgn.bz2"), enc.finish().unwrap())
            }
            _ => (path, bytes),
        };
        std::fs::write(&path, data).unwrap();
        files.push(path.display().to_string());
        if i == 4 {
            let xz = dir.path().join("broken.pgn.xz");
            std::fs::write(&xz, b"\xfd7zXZ\x00\x00\x04rest").unwrap();
            files.push(xz.display().to_string());
            files.push(dir.path().join("missing.pgn").display().to_string());
        }
    }
    let run = |jobs: &str| {
        let mut args = vec!["adjudicate", "-q", "-j", jobs];
        args.extend(files.iter().map(String::as_str));
        arbiter(&args)
    };
    let two = run("2");
    assert_eq!(
        two.status.code(),
        Some(2),
        "the missing file is an I/O error"
    );
    let rows = common::parse_csv(&two.stdout);
    // Every game of every readable input, then the xz row: in input order,
    // and each input's games in file order.
    let mut want = Vec::new();
    for i in 0..9usize {
        for g in 0..(1 + (8 - i) * 300) {
            want.push((format!("input {i}"), g.to_string()));
        }
        if i == 4 {
            want.push((String::new(), String::new()));
        }
    }
    let got: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r["event"].clone(), r["round"].clone()))
        .collect();
    assert_eq!(got.len(), want.len());
    assert!(got == want, "rows out of input order");
    let xz_row = &rows[(0..5).map(|i| 1 + (8 - i) * 300).sum::<usize>()];
    assert!(xz_row["source"].ends_with("broken.pgn.xz"), "{xz_row:?}");
    assert_eq!(xz_row["status"], "unreadable");
    let err = String::from_utf8_lossy(&two.stderr);
    assert!(err.contains("missing.pgn"), "{err}");
    // One worker writes the same bytes.
    assert_eq!(run("1").stdout, two.stdout);
}

/// The pipeline's rows for `sources` under fide-blitz, with `parts`
/// readers for each large plain file.
fn rows_read_in_parts(sources: &[arbiter::read::Source], parts: usize) -> Vec<u8> {
    let rules = arbiter::rules::Ruleset::load("fide-blitz").unwrap();
    let opts = arbiter::pipeline::Options {
        jobs: 2,
        read_parts: Some(parts),
        ..arbiter::pipeline::Options::default()
    };
    let mut out = Vec::new();
    arbiter::report::batch::adjudicate(sources, &rules, &opts, &mut out).unwrap();
    out
}

/// Each count of parts gives `one` reader's rows byte for byte.
fn same_rows_in_parts(sources: &[arbiter::read::Source], one: &[u8], counts: &[usize]) {
    for &parts in counts {
        let got = rows_read_in_parts(sources, parts);
        assert!(got == one, "{parts} parts give other rows than one reader");
    }
}

/// A file whose middle is one game's comment over thousands of lines, many
/// of them a blank line and a line that looks like a game's first tag.
fn comment_trap() -> String {
    let mut text = String::new();
    let game = |text: &mut String, i: usize| {
        text.push_str(&format!(
            "[Event \"g{i}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
        ))
    };
    (0..40).for_each(|i| game(&mut text, i));
    text.push_str("[Event \"long\"]\n[Result \"*\"]\n\n1. d4 {");
    for i in 0..3000 {
        text.push_str(&format!("note {i}\n\n[Event \"fake {i}\"]\n"));
    }
    // A garbled move after the comment: its row names the line.
    text.push_str("} d5 2. Xq9 *\n\n");
    (40..80).for_each(|i| game(&mut text, i));
    text
}

#[test]
fn parts_of_one_file_read_at_once_give_one_readers_rows() {
    let dir = tempfile::tempdir().unwrap();
    let trap = dir.path().join("trap.pgn");
    let text = comment_trap();
    std::fs::write(&trap, &text).unwrap();
    let lichess =
        common::data("games-with-clocks/lichess_DrDrunkenstein_2018-2021_with-clocks-evals.pgn");
    let inputs: Vec<String> = [
        lichess.clone(),
        common::data("games-with-clocks/chesscom_mixed-incl-daily.pgn"),
        common::data("games-with-clocks/chesscom_blitz180_2024_partial-clocks.pgn"),
        trap.clone(),
        common::data("parser-edge-cases"),
    ]
    .iter()
    .map(|p| p.display().to_string())
    .collect();
    let (sources, errors) = arbiter::read::expand_inputs(&inputs);
    assert!(errors.is_empty(), "{errors:?}");

    // The guesses: the real export is cut where asked, at a game's first
    // tag; the trap's one guess lands in the comment, so the reader of the
    // first part reads on past it to the true start.
    let len = std::fs::metadata(&lichess).unwrap().len();
    let starts = arbiter::read::part_starts(&lichess, len, 4);
    assert_eq!(starts.len(), 4);
    let bytes = std::fs::read(&lichess).unwrap();
    for &s in &starts[1..] {
        assert!(bytes[s as usize..].starts_with(b"[Event "), "{s}");
        assert_eq!(bytes[s as usize - 1], b'\n');
    }
    let starts = arbiter::read::part_starts(&trap, text.len() as u64, 2);
    assert_eq!(starts.len(), 2);
    assert!(text[starts[1] as usize..].starts_with("[Event \"fake "));

    let one = rows_read_in_parts(&sources, 1);
    let rows = common::parse_csv(&one);
    assert!(rows.len() > 3000, "{}", rows.len());
    let long = rows.iter().find(|r| r["event"] == "long").unwrap();
    assert_eq!(long["game"], "41");
    assert!(long["detail"].starts_with("line 9204: "), "{long:?}");
    assert_eq!(
        rows.iter()
            .filter(|r| r["source"].ends_with("trap.pgn"))
            .count(),
        81
    );
    same_rows_in_parts(&sources, &one, &[2, 3, 4, 7, 16]);
}

/// Comments never closed, each swallowing games up to the next `{` or the
/// file's end, read in parts: the rows of one reader, which gives every
/// game its row.
#[test]
fn parts_over_comments_never_closed_give_one_readers_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("open.pgn");
    let game = |i: usize| {
        format!(
            "[Event \"g{i}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
        )
    };
    let clocks = |i: usize| {
        format!("[Event \"c{i}\"]\n[Result \"*\"]\n\n1. e4 {{ [%clk 0:03:00] }} 1... e5 {{ [%clk 0:03:00] }} *\n\n")
    };
    let mut text = String::new();
    let mut games = 0;
    for round in 0..30 {
        text.push_str(&format!(
            "[Event \"open{round}\"]\n[Result \"*\"]\n\n1. d4 {{never closed\n\n"
        ));
        (0..100).for_each(|i| text.push_str(&game(round * 100 + i)));
        // The last comment is open at the file's end.
        if round < 29 {
            text.push_str(&clocks(round));
            games += 1;
        }
        games += 101;
    }
    std::fs::write(&path, &text).unwrap();
    let sources = [arbiter::read::Source::File {
        path: path.clone(),
        name: "open.pgn".into(),
    }];
    let one = rows_read_in_parts(&sources, 1);
    let rows = common::parse_csv(&one);
    assert_eq!(rows.len(), games);
    for (k, r) in rows.iter().enumerate() {
        let open = k % 102 == 0;
        assert_eq!(r["event"].starts_with("open"), open, "{r:?}");
        if open {
            assert!(r["detail"].contains("unterminated comment"), "{r:?}");
        }
    }
    same_rows_in_parts(&sources, &one, &[2, 3, 5, 16]);
}

#[test]
fn a_part_over_an_oversize_game_gives_one_readers_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.pgn");
    let game = |i: usize| format!("[Event \"g{i}\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n");
    let mut text: String = (0..30).map(game).collect();
    // Enough small games before it for a part of their own.
    text.extend((0..200_000).map(|i| format!("[Event \"pre{i}\"]\n[Result \"*\"]\n\n1. e4 *\n\n")));
    // 17 MiB of one comment on one line: over the limit for one game.
    text.push_str("[Event \"huge\"]\n[Result \"*\"]\n\n1. d4 {");
    text.push_str(&"x".repeat(17 << 20));
    text.push_str("} d5 *\n\n");
    text.extend((30..60).map(game));
    std::fs::write(&path, &text).unwrap();
    let sources = [arbiter::read::Source::File {
        path: path.clone(),
        name: "big.pgn".into(),
    }];
    let one = rows_read_in_parts(&sources, 1);
    let rows = common::parse_csv(&one);
    assert_eq!(rows.len(), 200_061);
    let huge = rows.iter().find(|r| r["game"] == "200031").unwrap();
    assert_eq!(huge["status"], "unreadable");
    assert!(huge["detail"].contains("over the 16 MiB limit"), "{huge:?}");
    assert_eq!(rows[200_060]["event"], "g59");
    // Before the oversize game, and after it: a part starts at g30.
    let len = text.len() as u64;
    let starts = arbiter::read::part_starts(&path, len, 5);
    let g30 = text.find("[Event \"g30\"]").unwrap() as u64;
    assert!(starts.contains(&g30), "{starts:?}");
    assert!(starts.len() >= 3, "{starts:?}");
    same_rows_in_parts(&sources, &one, &[2, 3, 5]);
}

#[test]
fn parts_of_the_parser_edge_cases_end_to_end_give_one_readers_rows() {
    // Every odd file of the edge-case corpus in one: comments over lines,
    // variations, escapes, byte-order marks, CRLF, games without tags; cut
    // into 2 to 40 parts, the guesses land in all of them.
    let dir = common::data("parser-edge-cases").display().to_string();
    let (files, _) = arbiter::read::expand_inputs(&[dir]);
    let mut text = Vec::new();
    for f in &files {
        if let arbiter::read::Source::File { path, .. } = f {
            text.extend(std::fs::read(path).unwrap());
            text.push(b'\n');
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edge.pgn");
    std::fs::write(&path, &text).unwrap();
    let sources = [arbiter::read::Source::File {
        path: path.clone(),
        name: "edge.pgn".into(),
    }];
    let one = rows_read_in_parts(&sources, 1);
    assert!(common::parse_csv(&one).len() > 1000);
    let starts = arbiter::read::part_starts(&path, text.len() as u64, 40);
    assert!(starts.len() >= 30, "{}", starts.len());
    let counts: Vec<usize> = (2..=40).collect();
    same_rows_in_parts(&sources, &one, &counts);
}
