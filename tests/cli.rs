//! The `arbiter` binary end to end: help, rulesets, exit codes, bad input,
//! compressed input, stdin, and byte-identical output whatever `--jobs` is.

use crate::common;

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
};

use common::{arbiter, assert_cells, parse_csv, sample};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write");
    p
}

const GAME: &str = "[Event \"e\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n";

#[test]
fn help_for_every_command() {
    for args in [
        &["--help"][..],
        &["adjudicate", "--help"],
        &["rules", "--help"],
    ] {
        let o = arbiter(args);
        assert!(o.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("Usage"),
            "{args:?}"
        );
    }
    assert_eq!(arbiter(&["adjudicate"]).status.code(), Some(2));
    assert_eq!(arbiter(&["no-such-command"]).status.code(), Some(2));
}

#[test]
fn rules_lists_and_prints_the_builtins() {
    let o = arbiter(&["rules"]);
    let text = String::from_utf8_lossy(&o.stdout);
    // tests/rulesets.rs pins the names themselves to PRODUCT.md's list.
    for (name, _) in arbiter::rules::BUILTINS {
        assert!(
            text.lines().any(|l| l.starts_with(name)),
            "{name} missing from {text}"
        );
    }
    let o = arbiter(&["rules", "ecf-quickplay"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("default_time_control = \"36/4500:900\""));
    // Every citation with what the rule says beside it.
    assert!(
        text.contains("final_rule = \"ECF QPF 10\"  # If both flags are down the game is drawn, whichever fell first."),
        "{text}"
    );
    for line in text.lines().filter(|l| l.contains("_rule = \"")) {
        assert!(line.contains("  # "), "no statement: {line}");
    }
    assert_eq!(arbiter(&["rules", "nonesuch"]).status.code(), Some(2));
}

#[test]
fn a_printed_ruleset_read_back_as_a_file_judges_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let toml = arbiter(&["rules", "bcf-rapid"]).stdout;
    let file = write(dir.path(), "club.toml", &toml);
    let pgn = sample("bcf-rapid-club-night.pgn");
    let a = arbiter(&["adjudicate", "-q", "-r", "bcf-rapid", pgn.to_str().unwrap()]);
    let b = arbiter(&[
        "adjudicate",
        "-q",
        "-r",
        file.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert!(a.status.success() && b.status.success());
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn unknown_key_in_a_ruleset_file_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let text = String::from_utf8_lossy(&arbiter(&["rules", "fide-rapid"]).stdout)
        .replace("[flag]", "[flag]\nwho_may_call = \"anyone\"");
    let file = write(dir.path(), "bad.toml", text.as_bytes());
    let pgn = write(dir.path(), "g.pgn", GAME.as_bytes());
    let o = arbiter(&[
        "adjudicate",
        "-r",
        file.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("who_may_call"), "{}", stderr(&o));
}

#[test]
fn missing_file_in_a_list_of_three() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.pgn", GAME.as_bytes());
    let c = write(dir.path(), "c.pgn", GAME.repeat(2).as_bytes());
    let missing = dir.path().join("b.pgn");
    let o = arbiter(&[
        "adjudicate",
        a.to_str().unwrap(),
        missing.to_str().unwrap(),
        c.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    // Said as a person reads it, and counted on the summary line.
    assert!(
        err.contains(&format!(
            "arbiter: {}: no such file or folder\n",
            missing.display()
        )),
        "{err}"
    );
    assert!(!err.contains("os error"), "{err}");
    let summary = err.lines().last().unwrap_or("");
    assert!(
        summary.starts_with("arbiter: 3 games: ")
            && summary.ends_with(
                "; 1 error reading the input, said above: the results lack what could not be read"
            ),
        "{err}"
    );
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 3);
    assert!(rows[0]["source"].ends_with("a.pgn") && rows[2]["source"].ends_with("c.pgn"));
}

#[test]
fn binary_file_gets_a_row_and_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let bin = write(
        dir.path(),
        "photo.pgn",
        &[0x89, b'P', b'N', b'G', 0, 0, 0, 13, 0xff, 0xfe],
    );
    let ok = write(dir.path(), "ok.pgn", GAME.as_bytes());
    let o = arbiter(&["adjudicate", bin.to_str().unwrap(), ok.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("photo.pgn") && stderr(&o).contains("binary data"),
        "{}",
        stderr(&o)
    );
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 2);
    assert_cells(
        &rows[0],
        &[("status", "unreadable"), ("reason", "parse-error")],
    );
    assert_cells(
        &rows[1],
        &[("status", "confirmed"), ("reason", "checkmate")],
    );
}

#[test]
fn truncated_file_keeps_every_game_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{GAME}[Event \"cut\"]\n[Result \"1-0\"]\n\n1. e4 {{ [%clk 0:01:00] }} 1... e5 {{ [%clk 0:0");
    let f = write(dir.path(), "cut.pgn", text.as_bytes());
    let o = arbiter(&["adjudicate", "--fail-on-review", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 2);
    assert_cells(
        &rows[1],
        &[
            ("status", "unreadable"),
            ("reason", "parse-error"),
            ("plies", "2"),
        ],
    );
    assert!(
        rows[1]["detail"].contains("unterminated comment"),
        "{}",
        rows[1]["detail"]
    );
    // A compressed stream cut short is an I/O error, named, after the games read.
    let zst = zstd::encode_all(GAME.repeat(20_000).as_bytes(), 3).unwrap();
    let f = write(dir.path(), "cut.pgn.zst", &zst[..zst.len() / 2]);
    let o = arbiter(&["adjudicate", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cut.pgn.zst: read error after"),
        "{}",
        stderr(&o)
    );
    assert!(!parse_csv(&o.stdout).is_empty());
}

/// A gzip stream cut inside a game, in a folder: the game cut short is
/// never confirmed, and the message counts the rows written.
#[test]
fn a_game_cut_by_a_read_error_is_not_judged() {
    use std::io::Read;
    let game = |event: &str| {
        format!(
            "[Event \"{event}\"]\n[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n\
             1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 1-0\n\n"
        )
    };
    let text = format!("{}{}{}", game("one"), game("two"), game("three"));
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut enc, text.as_bytes()).unwrap();
    let gz = enc.finish().unwrap();
    // The shortest prefix of the stream that decodes past `4. Ba4` of the
    // third game: the text breaks off after a whole move.
    let third = text.rfind("[Event").unwrap();
    let want = third + text[third..].find("4. Ba4").unwrap() + "4. Ba4".len();
    let cut = (1..gz.len())
        .find(|&n| {
            let mut out = Vec::new();
            let _ = flate2::read::GzDecoder::new(&gz[..n]).read_to_end(&mut out);
            out.len() >= want
        })
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("games");
    std::fs::create_dir(&inner).unwrap();
    write(&inner, "cut.pgn.gz", &gz[..cut]);
    let o = arbiter(&["adjudicate", "-r", "fide-blitz", inner.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 3);
    for row in &rows[..2] {
        assert_cells(row, &[("status", "confirmed"), ("reason", "flag-fall")]);
    }
    assert_cells(
        &rows[2],
        &[
            ("event", ""),
            ("status", "unreadable"),
            ("reason", "parse-error"),
        ],
    );
    assert!(
        rows[2]["detail"].contains("breaks off at a read error"),
        "{}",
        rows[2]["detail"]
    );
    assert!(
        stderr(&o).contains("cut.pgn.gz: read error after 3 games (the last one cut short"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn ten_megabyte_comment_and_five_thousand_move_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut big = String::from("[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n1. e4 { ");
    big.push_str(&"a comment that goes on ".repeat(10 << 20 >> 4));
    big.push_str(" [%clk 0:00:42] } 1... e5 { [%clk 0:00:00] } 2. Nf3 1-0\n");
    let f = write(dir.path(), "big.pgn", big.as_bytes());
    let o = arbiter(&["adjudicate", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = parse_csv(&o.stdout);
    assert_cells(
        &rows[0],
        &[
            ("reason", "flag-fall"),
            ("white_clock", "0:00:42"),
            ("plies", "3"),
        ],
    );

    let mut long = String::from("[Result \"*\"]\n\n");
    for n in 1..=5000 {
        let (w, b) = if n % 2 == 1 {
            ("Nf3", "Nf6")
        } else {
            ("Ng1", "Ng8")
        };
        long.push_str(&format!("{n}. {w} {b} "));
    }
    long.push_str("*\n");
    let f = write(dir.path(), "long.pgn", long.as_bytes());
    let o = arbiter(&["adjudicate", "-r", "uscf", f.to_str().unwrap()]);
    let rows = parse_csv(&o.stdout);
    assert_cells(&rows[0], &[("reason", "unterminated"), ("plies", "10000")]);
    let o = arbiter(&["adjudicate", "-r", "fide-rapid", f.to_str().unwrap()]);
    let rows = parse_csv(&o.stdout);
    assert_cells(
        &rows[0],
        &[("reason", "fivefold-repetition"), ("ply", "16")],
    );
    assert!(
        rows[0]["detail"].contains("the moves recorded after it (9. Nf3 to 5000... Ng8)"),
        "{}",
        rows[0]["detail"]
    );
}

#[test]
fn compressed_inputs_and_stdin_give_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(sample("ddcl-league-match.pgn")).unwrap();
    let plain = arbiter(&[
        "adjudicate",
        "-q",
        "-r",
        "ecf-quickplay",
        sample("ddcl-league-match.pgn").to_str().unwrap(),
    ]);
    let strip_source = |o: &Output| -> Vec<String> {
        parse_csv(&o.stdout)
            .iter()
            .map(|r| {
                format!(
                    "{} {} {} {} {}",
                    r["game"], r["offset"], r["result"], r["rule"], r["detail"]
                )
            })
            .collect()
    };
    let want = strip_source(&plain);
    assert_eq!(want.len(), 5);
    let zst = write(
        dir.path(),
        "m.pgn.zst",
        &zstd::encode_all(&text[..], 3).unwrap(),
    );
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).unwrap();
    let gz = write(dir.path(), "m.pgn.gz", &gz.finish().unwrap());
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(&text).unwrap();
    let bz = write(dir.path(), "m.pgn.bz2", &bz.finish().unwrap());
    for f in [zst, gz, bz] {
        let o = arbiter(&[
            "adjudicate",
            "-q",
            "-r",
            "ecf-quickplay",
            f.to_str().unwrap(),
        ]);
        assert_eq!(strip_source(&o), want, "{}", f.display());
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", "-r", "ecf-quickplay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(strip_source(&o), want);
    assert_eq!(parse_csv(&o.stdout)[0]["source"], "-");
}

#[test]
fn output_is_identical_whatever_the_job_count_or_file_split() {
    let path = common::data("games-with-clocks/lichess_jishanshaikh4_all-games_to-2022-05.pgn");
    let p = path.to_str().unwrap();
    let one = arbiter(&["adjudicate", "-q", "-j1", p]).stdout;
    assert!(one.len() > 1 << 20);
    // At -j8 the 93 MB file is read in two parts at once (pipeline/feed.rs).
    for j in ["2", "8"] {
        assert!(
            arbiter(&["adjudicate", "-q", "-j", j, p]).stdout == one,
            "-j{j} differs from -j1"
        );
    }
    // The same games split over two files: the same verdicts, row for row.
    let text = std::fs::read(&path).unwrap();
    let cut = text.len() / 2
        + text[text.len() / 2..]
            .windows(8)
            .position(|w| w == b"\n[Event ")
            .unwrap()
        + 1;
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.pgn", &text[..cut]);
    let b = write(dir.path(), "b.pgn", &text[cut..]);
    let split = arbiter(&[
        "adjudicate",
        "-q",
        "-j2",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ])
    .stdout;
    let verdicts = |bytes: &[u8]| -> Vec<String> {
        parse_csv(bytes)
            .iter()
            .map(|r| {
                format!(
                    "{}|{}|{}|{}|{}|{}|{}",
                    r["site"],
                    r["result"],
                    r["status"],
                    r["reason"],
                    r["rule"],
                    r["ply"],
                    r["detail"]
                )
            })
            .collect()
    };
    assert!(
        verdicts(&split) == verdicts(&one),
        "splitting the input changed a verdict"
    );
}

#[test]
fn summary_exit_codes_and_out_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results.csv");
    let pgn = sample("fide-rapid-open.pgn");
    let o = arbiter(&[
        "adjudicate",
        "-r",
        "fide-rapid",
        "-o",
        out.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    assert!(
        err.contains("5 games: 2 confirmed, 2 corrected, 1 review, 0 unreadable"),
        "{err}"
    );
    let rows = parse_csv(&std::fs::read(&out).unwrap());
    assert_eq!(rows.len(), 5);
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "--fail-on-review",
        "-o",
        out.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stderr.is_empty(), "quiet means quiet");
    let clean = write(dir.path(), "clean.pgn", GAME.as_bytes());
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "--fail-on-review",
        clean.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn header_is_the_contract() {
    let o = arbiter(&[
        "adjudicate",
        "-q",
        sample("hs-league.pgn").to_str().unwrap(),
    ]);
    let first = String::from_utf8_lossy(&o.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert_eq!(
        first,
        "source,game,offset,event,site,date,round,white,black,white_elo,black_elo,time_control,recorded_result,result,status,reason,rule,ply,move,white_clock,black_clock,plies,final_fen,detail,ruleset,game_key,round_number,board"
    );
}

#[test]
fn syzygy_folder_without_tables_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "g.pgn", GAME.as_bytes());
    let o = arbiter(&[
        "adjudicate",
        "--syzygy",
        dir.path().to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no Syzygy table files"),
        "{}",
        stderr(&o)
    );
    // With the real tables the run goes through.
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "--syzygy",
        common::data("syzygy").to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `-o -` is stdout, as everywhere on the command line; `-o` naming an input
/// (the same file, by device and inode) is refused before anything is read.
#[test]
fn output_to_stdout_and_never_over_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(
        dir.path(),
        "games.pgn",
        b"[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    let o = arbiter(&["adjudicate", "-q", "-o", "-", pgn.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("source,game,"));
    assert!(!std::path::Path::new("-").exists() && !dir.path().join("-").exists());
    // The same file under another name (a hard link) is still the input.
    let link = dir.path().join("results.csv");
    std::fs::hard_link(&pgn, &link).unwrap();
    let before = std::fs::read(&pgn).unwrap();
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "-o",
        link.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("that is the input"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&pgn).unwrap(),
        before,
        "the games are untouched"
    );
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        pgn.to_str().unwrap(),
        "-o",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // Standard input redirected from the games is the games too
    // (`adjudicate - -o games.pgn < games.pgn`), for -o and --pgn-out.
    for flag in ["-o", "--pgn-out"] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["adjudicate", "-q", "-", flag, pgn.to_str().unwrap()])
            .stdin(std::fs::File::open(&pgn).unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{flag}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("that is the input on standard input"),
            "{}",
            stderr(&o)
        );
        assert_eq!(
            std::fs::read(&pgn).unwrap(),
            before,
            "{flag}: the games are untouched"
        );
    }
}

/// A run of tags with no movetext and no result is never `confirmed`.
#[test]
fn no_moves_and_no_result_is_not_confirmed() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(
        dir.path(),
        "tags.pgn",
        b"[Event \"a\"]\n[Result \"*\"]\n\n[Event \"b\"]\n[Result \"*\"]\n\n*\n",
    );
    let o = arbiter(&["adjudicate", "-q", pgn.to_str().unwrap()]);
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_cells(
            r,
            &[
                ("result", "*"),
                ("status", "review"),
                ("reason", "no-moves"),
            ],
        );
    }
}

/// A folder with no PGN is an error (exit 2), and what a folder held that is
/// not PGN is named, not passed over in silence.
#[test]
fn folders_say_what_they_skipped() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "readme.txt", b"not a game");
    let o = arbiter(&["adjudicate", "-q", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("skipped 1 file not named .pgn"), "{err}");
    assert!(err.contains("readme.txt"), "{err}");
    assert!(err.contains("no PGN file in this folder"), "{err}");
    write(
        dir.path(),
        "g.pgn",
        b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    let o = arbiter(&["adjudicate", "-q", dir.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("skipped 1 file"));
    // What Notepad saves a .pgn as is read, not skipped.
    write(
        dir.path(),
        "round3.pgn.txt",
        b"[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    );
    let o = arbiter(&["adjudicate", "-q", dir.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows[1]["source"].ends_with("round3.pgn.txt"), "{rows:?}");
    assert_eq!(rows[1]["reason"], "checkmate");
}

/// An output into a folder that does not exist names the folder, never the
/// temporary file it would have been written through.
#[test]
fn an_output_into_a_missing_folder_names_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "g.pgn", GAME.as_bytes());
    let missing = dir.path().join("no-such-folder");
    for flag in ["-o", "--pgn-out", "--summary", "--html"] {
        let target = missing.join("out.file");
        let mut args = vec!["adjudicate", "-q", game.to_str().unwrap()];
        if flag != "-o" {
            args.extend(["-o", "/dev/null"]);
        }
        args.extend([flag, target.to_str().unwrap()]);
        let o = arbiter(&args);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert_eq!(
            stderr(&o).trim(),
            format!(
                "arbiter: {}: the folder {} does not exist",
                target.display(),
                missing.display()
            ),
            "{flag}"
        );
    }
    let file = write(dir.path(), "plain", b"x");
    let target = file.join("out.csv");
    let o = arbiter(&[
        "adjudicate",
        "-q",
        game.to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
    ]);
    assert!(
        stderr(&o).contains(&format!("{} is not a folder", file.display())),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains(".part"), "{}", stderr(&o));
}

#[test]
fn misspelt_names_get_a_suggestion_and_missing_folders_their_path() {
    let o = arbiter(&["rules", "FIDE-rapid"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .starts_with("arbiter: unknown ruleset \"FIDE-rapid\"; did you mean \"fide-rapid\"?"),
        "{}",
        stderr(&o)
    );
    let list = sample("active30-rated-list.pgn");
    let o = arbiter(&["audit", "-q", "--list", "Active30", list.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown list \"Active30\": did you mean \"active30\"?"),
        "{}",
        stderr(&o)
    );
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("tables");
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "--syzygy",
        missing.to_str().unwrap(),
        sample("hs-league.pgn").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with(&format!("arbiter: --syzygy: {}: ", missing.display())),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_empty_file_is_said_and_a_diagram_is_named_pdf() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "--no-rules-map",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stderr(&o).trim(),
        format!(
            "arbiter: {}: the file is empty: no games read from it",
            empty.display()
        )
    );
    assert_eq!(parse_csv(&o.stdout).len(), 0);
    // It needs a look: a script asking to be told of one is.
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "--no-rules-map",
        "--fail-on-review",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let png = dir.path().join("d.png");
    let o = arbiter(&[
        "diagram",
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the diagram is written as a PDF"),
        "{}",
        stderr(&o)
    );
    assert!(!png.exists());
}

/// The summary line counts in words: one game is "1 game".
#[test]
fn the_summary_line_says_one_game() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(
        dir.path(),
        "one.pgn",
        b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    let o = arbiter(&["adjudicate", pgn.to_str().unwrap(), "-o", "/dev/null"]);
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(
        err.contains("arbiter: 1 game: 1 confirmed, 0 corrected, 0 review, 0 unreadable; "),
        "{err}"
    );
}

/// Two outputs given one name (`-o x --pgn-out x`, audit's `-o x --trf
/// x`): refused, exit 2, naming both, before anything is written. The
/// second replaced the first without a word, exit 0.
#[test]
fn two_outputs_of_one_name_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let same = dir.path().join("same.csv");
    let s = same.to_str().unwrap();
    let o = common::arbiter(&[
        "adjudicate",
        "-q",
        "samples/fide-rapid-open.pgn",
        "-o",
        s,
        "--pgn-out",
        s,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim(),
        format!("arbiter: -o and --pgn-out both name {s}: one would replace the other (give each its own file)")
    );
    assert!(!same.exists());
    let o = common::arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        "samples/active30-rated-list.pgn",
        "-o",
        s,
        "--trf",
        s,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("-o and --trf both name"));
    assert!(!same.exists());
    // Named two ways (`sub/../same.csv`), before either exists.
    let round = dir.path().join("sub/../same.csv");
    let o = common::arbiter(&[
        "adjudicate",
        "-q",
        "samples/fide-rapid-open.pgn",
        "-o",
        s,
        "--summary",
        round.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!same.exists());
    // The claim command's review page on its own table.
    let out = dir.path().join("o");
    let table = out.join("claims.csv");
    let o = common::arbiter(&[
        "claim",
        "samples/claims/bcf-krkn.toml",
        "-o",
        out.to_str().unwrap(),
        "--html",
        table.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("that is where"));
    assert!(!table.exists());
}

/// A file named twice, or inside a folder also named, is read once, and
/// said: read twice, its games with no moves (which no copy check can
/// match) counted twice.
#[test]
fn a_file_named_twice_is_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("a.pgn");
    std::fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1-0\n\n[White \"C\"]\n[Black \"D\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    )
    .unwrap();
    let p = pgn.to_str().unwrap();
    let d = dir.path().to_str().unwrap();
    let o = common::arbiter(&["adjudicate", p, p, d]);
    assert!(o.status.success());
    let rows = common::parse_csv(&o.stdout);
    assert_eq!(rows.len(), 2);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("arbiter: {p} is named twice: read once; ")),
        "{err}"
    );
    assert!(err.contains("2 games: 2 confirmed"), "{err}");
}

/// Results written to the screen get no progress bar on that screen: its
/// redraws ("cursor up, clear line") wiped the rows written under it.
#[test]
fn no_progress_bar_over_results_on_the_screen() {
    if !common::tools(
        "no_progress_bar_over_results_on_the_screen",
        &[common::Tool::Script],
    ) {
        return;
    }
    let big = common::data("games-with-clocks/lichess_jishanshaikh4_all-games_to-2022-05.pgn");
    let dir = tempfile::tempdir().unwrap();
    let on_tty = |args: &str| {
        let o = std::process::Command::new("script")
            .args([
                "-qec",
                &format!(
                    "{} adjudicate {} {args}",
                    env!("CARGO_BIN_EXE_arbiter"),
                    big.display()
                ),
                "/dev/null",
            ])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{o:?}");
        o.stdout
    };
    for args in ["", "-o -"] {
        let screen = on_tty(args);
        let rows = screen.split(|&b| b == b'\n').count();
        assert!(rows > 37_000, "{args}: {rows}");
        assert!(
            !screen.windows(2).any(|w| w == b"\x1b["),
            "{args}: a bar drawn over the rows"
        );
    }
}
