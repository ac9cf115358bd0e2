//! Hostile input and interrupted runs: every bound finishes in bounded time
//! and memory with a clear message, and an interrupted run leaves no
//! finished-looking output.

use crate::common;

use std::{
    io::Write,
    path::Path,
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

use common::{assert_cells, parse_csv};

/// Runs arbiter on a file under `/usr/bin/time` when available, returning the
/// output and the peak RSS in KiB (0 when it cannot be measured).
fn run_measured(args: &[&str]) -> (Output, u64) {
    let time = Path::new("/usr/bin/time");
    if time.exists() {
        let o = Command::new(time)
            .args(["-f", "RSS %M"])
            .arg(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        let rss = err
            .lines()
            .filter_map(|l| l.strip_prefix("RSS "))
            .filter_map(|n| n.trim().parse().ok())
            .next_back()
            .unwrap_or(0);
        (o, rss)
    } else {
        (
            Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .args(args)
                .output()
                .unwrap(),
            0,
        )
    }
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

const NEXT: &str = "[Event \"after\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";

#[test]
fn hundred_megabyte_comment_is_skipped_in_flat_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = b"[Event \"huge\"]\n[Result \"1-0\"]\n\n1. e4 { ".to_vec();
    text.extend(std::iter::repeat_n(b'x', 100 << 20));
    text.extend_from_slice(b" } e5 1-0\n\n");
    text.extend_from_slice(NEXT.as_bytes());
    let f = write(dir.path(), "huge.pgn", &text);
    drop(text);
    let started = Instant::now();
    let (o, rss) = run_measured(&["adjudicate", "-j1", &f]);
    assert!(started.elapsed() < Duration::from_secs(30));
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 2);
    assert_cells(
        &rows[0],
        &[("status", "unreadable"), ("reason", "parse-error")],
    );
    assert!(
        rows[0]["detail"].contains("over the 16 MiB limit for one game"),
        "{}",
        rows[0]["detail"]
    );
    assert_cells(&rows[1], &[("event", "after"), ("reason", "checkmate")]);
    assert!(rss == 0 || rss < 96 * 1024, "peak RSS {rss} KiB");
}

#[test]
fn fifty_megabyte_line_without_newline() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = b"[Event \"line\"]\n\n1. e4 ".to_vec();
    text.extend(std::iter::repeat_n(b'a', 50 << 20));
    let f = write(dir.path(), "line.pgn", &text);
    drop(text);
    let (o, rss) = run_measured(&["adjudicate", &f]);
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 1);
    assert_cells(&rows[0], &[("status", "unreadable")]);
    assert!(rss == 0 || rss < 96 * 1024, "peak RSS {rss} KiB");
}

#[test]
fn hundred_thousand_plies() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("[Result \"*\"]\n\n");
    for n in 1..=50_000 {
        let (w, b) = if n % 2 == 1 {
            ("Nf3", "Nf6")
        } else {
            ("Ng1", "Ng8")
        };
        text.push_str(&format!("{n}. {w} {b} "));
    }
    text.push_str("*\n");
    let f = write(dir.path(), "long.pgn", text.as_bytes());
    let started = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-r", "uscf", &f])
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_cells(
        &parse_csv(&o.stdout)[0],
        &[("reason", "unterminated"), ("plies", "100000")],
    );
}

#[test]
fn ten_thousand_tags_and_deep_variations() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..10_000 {
        text.push_str(&format!("[Tag{i} \"value {i}\"]\n"));
    }
    text.push_str("[White \"W\"]\n[Result \"0-1\"]\n\n1. f3 ");
    text.push_str(&"( 1. e4 ".repeat(20_000));
    text.push_str(&")".repeat(20_000));
    text.push_str(" e5 2. g4 Qh4# 0-1\n");
    let f = write(dir.path(), "deep.pgn", text.as_bytes());
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", &f])
        .output()
        .unwrap();
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 1);
    assert_cells(
        &rows[0],
        &[("white", "W"), ("reason", "checkmate"), ("ply", "4")],
    );
}

#[test]
fn decompression_bomb_streams_in_flat_memory() {
    let dir = tempfile::tempdir().unwrap();
    let plain = NEXT.repeat((200 << 20) / NEXT.len());
    let zst = zstd::encode_all(plain.as_bytes(), 19).unwrap();
    assert!(
        plain.len() / zst.len() > 1000,
        "ratio {}",
        plain.len() / zst.len()
    );
    let games = plain.len() / NEXT.len();
    drop(plain);
    let f = write(dir.path(), "bomb.pgn.zst", &zst);
    let started = Instant::now();
    let (o, rss) = run_measured(&[
        "adjudicate",
        "-q",
        &f,
        "-o",
        dir.path().join("out.csv").to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(started.elapsed() < Duration::from_secs(120));
    let rows = std::fs::read_to_string(dir.path().join("out.csv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    assert_eq!(rows, games);
    assert!(rss == 0 || rss < 96 * 1024, "peak RSS {rss} KiB");
}

#[test]
fn an_interrupted_run_leaves_no_finished_looking_csv() {
    let dir = tempfile::tempdir().unwrap();
    let big = NEXT.repeat(400_000);
    let f = write(dir.path(), "big.pgn", big.as_bytes());
    let out = dir.path().join("results.csv");
    std::fs::write(&out, "previous results\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", "-j1", &f, "-o", out.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    // The old file is untouched; at most a hidden .part file remains beside it.
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "previous results\n");
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            name == "big.pgn"
                || name == "results.csv"
                || (name.starts_with(".results.csv.") && name.ends_with(".part")),
            "{name}"
        );
    }
    // Run to completion: replaced.
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", &f, "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 400_001);
}

#[test]
fn unwritable_output_is_an_io_error() {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-", "-o", "/nonexistent-dir/results.csv"])
        .stdin(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent-dir/results.csv"));
    let _ = std::io::stdout().flush();
}

/// Inputs the fuzzers found; each once crashed or broke the output.
#[test]
fn fuzz_regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    // A pawn "promoted" to a king, let stand after the reply, left a side without a king.
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "adjudicate",
            dir.join("fuzz-pgn-promotion-to-king.pgn").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rows = parse_csv(&o.stdout);
    let last = rows.last().unwrap();
    assert_cells(last, &[("reason", "illegal-move"), ("move", "fxe8=K")]);
    assert!(last["detail"].contains("no piece can make this move"));
    // Control characters in a FEN must not break the TSV.
    let fen = std::fs::read(dir.join("fuzz-fen-control-characters.txt")).unwrap();
    let row = arbiter::report::tsv::analyse_row(&String::from_utf8_lossy(&fen), None);
    assert_eq!(row.split('\t').count(), 8, "{row:?}");
    assert!(!row.contains('\n'));
}

#[cfg(unix)]
#[test]
fn outputs_are_ordinary_files_not_private_temporaries() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("out.csv");
    let pgn = write(dir.path(), "g.pgn", b"1. e4 e5 *\n");
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", &pgn, "-o", csv.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success());
    // What a plain `File::create` gets under this process's umask.
    let plain = dir.path().join("plain");
    std::fs::File::create(&plain).unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&csv), mode(&plain));
    let pdf = dir.path().join("d.pdf");
    arbiter::report::write::atomic_write(&pdf, b"%PDF").unwrap();
    assert_eq!(mode(&pdf), mode(&plain));
}

/// An unclosed `(` would swallow the rest of the main line, and a stray `)`
/// is no PGN: both are a parse-error, never a verdict on a cut-off record.
#[test]
fn unbalanced_variations_are_parse_errors() {
    let rows = crate::common::judge(
        "fide-rapid",
        "[Result \"0-1\"]\n\n1. f3 (1. e4 e5 2. f3 e5 2. g4 Qh4# 0-1\n\n[Result \"0-1\"]\n\n1. f3 e5 ) 2. g4 Qh4# 0-1\n\n[Result \"0-1\"]\n\n1. f3 (1. e4) e5 2. g4 Qh4# 0-1\n",
    );
    assert_eq!(rows.len(), 3);
    assert_cells(
        &rows[0],
        &[("status", "unreadable"), ("reason", "parse-error")],
    );
    assert!(
        rows[0]["detail"].contains("a variation opened with `(` is never closed"),
        "{}",
        rows[0]["detail"]
    );
    assert_cells(
        &rows[1],
        &[("status", "unreadable"), ("reason", "parse-error")],
    );
    assert!(
        rows[1]["detail"].contains("a `)` closes no variation"),
        "{}",
        rows[1]["detail"]
    );
    // A balanced variation is read past, as ever: the mate stands.
    assert_cells(
        &rows[2],
        &[
            ("result", "0-1"),
            ("status", "confirmed"),
            ("reason", "checkmate"),
            ("ply", "4"),
        ],
    );
}

/// Waits (at most 10 s) until `dir` holds a hidden `.part` file.
fn wait_for_part(dir: &Path) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        let found = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".part"));
        if found {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// Every catchable signal that ends the process removes the hidden
/// `.part` file during a run, and the exit status is the shell's
/// 128 + signal.
#[cfg(unix)]
#[test]
fn signals_leave_no_part_file() {
    for (signal, code) in [
        ("INT", 130),
        ("TERM", 143),
        ("HUP", 129),
        ("QUIT", 131),
        ("USR1", 138),
        ("USR2", 140),
        ("ALRM", 142),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("results.csv");
        // Input from a pipe held open: the run is mid-way when the signal comes.
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["adjudicate", "-q", "-", "-o", out.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(NEXT.repeat(1000).as_bytes()).unwrap();
        assert!(wait_for_part(dir.path()), "no .part file appeared");
        let killed = Command::new("kill")
            .args(["-s", signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        drop(stdin);
        assert_eq!(status.code(), Some(code), "SIG{signal}");
        let left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(left.is_empty(), "SIG{signal} left {left:?}");
    }
}

/// A write error names the target (not the temporary file), removes the
/// unfinished file, and stops the run at once: the input is not read on.
#[cfg(unix)]
#[test]
fn write_errors_name_the_target_and_stop_the_run() {
    // stdout on a full disk: arbiter stops reading, so feeding its stdin
    // fails long before 200 MB have gone in.
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", "-"])
        .stdin(Stdio::piped())
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let chunk = NEXT.repeat(20_000);
    let mut fed = 0usize;
    while fed < 200 << 20 {
        if stdin.write_all(chunk.as_bytes()).is_err() {
            break;
        }
        fed += chunk.len();
    }
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert!(
        fed < 200 << 20,
        "arbiter read all {fed} bytes after the write error"
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("arbiter: stdout: No space left on device"),
        "{err}"
    );

    // A file target over the file-size limit: the error names results.csv.
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "big.pgn", NEXT.repeat(50_000).as_bytes());
    let out = dir.path().join("results.csv");
    let o = Command::new("sh")
        .args(["-c", "ulimit -f 64; trap '' XFSZ; exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", &f, "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("arbiter: {}: File too large", out.display())),
        "{err}"
    );
    assert!(!err.contains(".part"), "{err}");
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["big.pgn"]);
}

/// NULs are judged game by game: a game holding one is unreadable, naming
/// the line; the games around it are judged, wherever the NUL lies.
#[test]
fn nul_bytes_are_judged_per_game() {
    let good = "[Event \"good\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n";
    let mut text = String::new();
    text.push_str("[Event \"first\"]\n[Result \"1-0\"]\n\n1. e4 e5 \u{0} 2. Qh5 1-0\n\n");
    // Two hundred games, each its own (a copy would not be judged again).
    for i in 0..200 {
        text.push_str(&good.replace("good", &format!("good {i}")));
    }
    // The late game starts on the next line; its NUL is on its fifth.
    let late_line = text.lines().count() + 5;
    text.push_str("[Event \"late\"]\n[Result \"1-0\"]\n\n1. e4 e5\n2. Qh5 \u{0} 1-0\n\n");
    text.push_str(good);
    assert!(text.find("[Event \"late\"]").unwrap() > 8192);
    let rows = crate::common::judge("fide-rapid", &text);
    assert_eq!(rows.len(), 203);
    assert_cells(&rows[0], &[("status", "unreadable"), ("event", "first")]);
    assert!(
        rows[0]["detail"].contains("line 4: a NUL byte"),
        "{}",
        rows[0]["detail"]
    );
    assert_cells(&rows[201], &[("status", "unreadable"), ("event", "late")]);
    assert!(
        rows[201]["detail"].contains(&format!("line {late_line}: a NUL byte")),
        "{}",
        rows[201]["detail"]
    );
    for r in rows[1..201].iter().chain(&rows[202..]) {
        assert_cells(r, &[("status", "confirmed"), ("reason", "checkmate")]);
    }
    // Not judged, but keyed (it was empty), so that a grader can decide it.
    let key = rows[0]["game_key"].clone();
    assert_eq!(key.len(), 33, "{key:?}");
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "nul.pgn", text.as_bytes());
    let decisions = write(
        dir.path(),
        "d.csv",
        format!("game_key,result,rule,decided_by\n{key},1-0,FIDE 5.1.2,Chief Arbiter\n").as_bytes(),
    );
    let o = crate::common::arbiter(&["adjudicate", "-q", &pgn, "--decisions", &decisions]);
    let decided = crate::common::parse_csv(&o.stdout);
    assert_cells(&decided[0], &[("status", "decided"), ("result", "1-0")]);
    // Binary data is still refused whole, in one row.
    let dir = tempfile::tempdir().unwrap();
    let png = write(
        dir.path(),
        "photo.pgn",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",
    );
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", &png])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 1);
    assert!(
        rows[0]["detail"].contains("binary data"),
        "{}",
        rows[0]["detail"]
    );
}

/// Tag text in Windows-1252 is decoded as such and said in `detail`; UTF-16
/// files with a byte-order mark are read; xz input is refused by name.
#[test]
fn windows_1252_utf16_and_xz() {
    let mut cp1252 = b"[Event \"club\"]\n[White \"\x8aa\x9ami\x9e, J\xfcrgen\"]\n[Black \"Smith\"]\n[Result \"0-1\"]\n\n".to_vec();
    cp1252.extend_from_slice(b"1. f3 e5 2. g4 Qh4# 0-1\n");
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "cp1252.pgn", &cp1252);
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", &f])
        .output()
        .unwrap();
    assert!(o.status.success());
    let rows = parse_csv(&o.stdout);
    assert_cells(
        &rows[0],
        &[
            ("white", "Šašmiž, Jürgen"),
            ("black", "Smith"),
            ("status", "confirmed"),
        ],
    );
    assert!(
        rows[0]["detail"].contains("the White tag is not UTF-8: read as Windows-1252"),
        "{}",
        rows[0]["detail"]
    );

    let text = "[Event \"u16\"]\n[White \"Šašmiž\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    let le: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let be: Vec<u8> = [0xfe, 0xff]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    for (name, bytes) in [("le.pgn", le), ("be.pgn", be)] {
        let f = write(dir.path(), name, &bytes);
        let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["adjudicate", "-q", &f])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let rows = parse_csv(&o.stdout);
        assert_eq!(rows.len(), 1, "{name}");
        assert_cells(
            &rows[0],
            &[
                ("white", "Šašmiž"),
                ("status", "confirmed"),
                ("reason", "checkmate"),
                ("ply", "4"),
            ],
        );
    }

    // The magic bytes of an xz stream, under any name.
    let xz = write(
        dir.path(),
        "games.pgn",
        b"\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46",
    );
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", &xz])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("games.pgn: xz-compressed, which arbiter does not read"),
        "{err}"
    );
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 1);
    assert_cells(&rows[0], &[("status", "unreadable")]);
    assert!(
        rows[0]["detail"].contains("xz-compressed"),
        "{}",
        rows[0]["detail"]
    );
    // A ZIP archive (a local file header), named as the mail brought it.
    let zip = write(
        dir.path(),
        "round3.zip",
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00games.pgn",
    );
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", &zip])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("round3.zip: a ZIP archive, which arbiter does not open: extract it (Windows: right-click, Extract All; elsewhere: unzip) and give the folder it makes"),
        "{err}"
    );
    // A workbook is a ZIP archive too: said as what it is (it was told to
    // extract it).
    let xlsx = write(
        dir.path(),
        "Results.XLSX",
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00[Content_Types].xml",
    );
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", &xlsx])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("Results.XLSX: a spreadsheet workbook, not games: give the games as PGN files (a results sheet is no record of the moves)"),
        "{err}"
    );
}

/// `-o /dev/null`, a FIFO: an output that exists and is not a regular file
/// is written in place. Renaming a finished file over it (as for a regular
/// file) would replace the device itself: run as root, `-o /dev/null` once
/// turned /dev/null into a regular file.
#[cfg(unix)]
#[test]
fn devices_and_fifos_are_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "g.pgn", NEXT.as_bytes());
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "adjudicate",
            "-q",
            &pgn,
            "-o",
            "/dev/null",
            "--summary",
            "/dev/null",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    let fifo = dir.path().join("results.fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", &pgn, "-o", fifo.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = reader.join().unwrap();
    let rows = parse_csv(text.as_bytes());
    assert_eq!(rows.len(), 1);
    assert_cells(
        &rows[0],
        &[("reason", "checkmate"), ("status", "confirmed")],
    );
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".part"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A file-size limit (`ulimit -f`): the write fails, the message names the
/// target, no `.part` is left, exit 2 (SIGXFSZ no longer kills the run).
#[cfg(unix)]
#[test]
fn a_file_size_limit_is_a_write_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results.csv");
    let games = dir.path().join("games.pgn");
    std::fs::write(&games, NEXT.repeat(3000)).unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 8; exec {} adjudicate -q {} -o {}",
            env!("CARGO_BIN_EXE_arbiter"),
            games.display(),
            out.display()
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("results.csv"), "{err}");
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "games.pgn")
        .collect();
    assert!(left.is_empty(), "left {left:?}");
}

/// Linear time under rulesets without the fivefold and 75-move rules: a
/// legal game of knights shuffling, four times as long, takes about four
/// times as long (it took sixteen when repetitions were scanned in full).
#[test]
fn a_long_shuffle_takes_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let time = |plies: usize| {
        let mut pgn = String::from("[Event \"shuffle\"]\n[Result \"*\"]\n\n");
        let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
        for i in 0..plies {
            if i % 2 == 0 {
                pgn.push_str(&format!("{}. ", i / 2 + 1));
            }
            pgn.push_str(cycle[i % 4]);
            pgn.push(' ');
        }
        pgn.push_str("*\n");
        let path = dir.path().join(format!("{plies}.pgn"));
        std::fs::write(&path, pgn).unwrap();
        let started = std::time::Instant::now();
        let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args([
                "adjudicate",
                "-q",
                "-r",
                "uscf",
                path.to_str().unwrap(),
                "-o",
                "/dev/null",
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        started.elapsed().as_secs_f64()
    };
    let short = time(50_000);
    let long = time(200_000);
    assert!(
        long < 8.0 * short.max(0.05),
        "50k plies {short:.3} s, 200k plies {long:.3} s"
    );
}

/// No output of any command is written over one of its inputs, whatever
/// the names: claim packets and claims.csv against scoresheets and claim
/// files, season outputs against the season file and its board PGN,
/// adjudicate's packets against the games. Refused before anything is
/// written, naming both.
#[test]
fn no_output_replaces_an_input() {
    let arbiter = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .output()
            .unwrap()
    };
    let err = |o: &Output| String::from_utf8_lossy(&o.stderr).into_owned();
    let sheet = "[FEN \"8/8/3k4/3n3R/8/3K4/8/8 w - - 0 64\"]\n[SetUp \"1\"]\n\n64. Rh6+ { [%clk 0:05:10] } Ke5 { [%clk 0:01:15] } 65. Rh5+ { [%clk 0:05:00] } *\n";
    let claim = |scoresheet: &str| {
        format!("kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\nscoresheet = \"{scoresheet}\"\nclock_white = \"0:05:00\"\nclock_black = \"0:01:15\"\nfees_paid = [\"black\"]\n")
    };
    // A scoresheet named like the claim's packet, and one named claims.csv,
    // with the packets asked into the claims' own folder.
    for (stem, sheet_name) in [("appeal", "appeal.pdf"), ("other", "claims.csv")] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        write(d, sheet_name, sheet.as_bytes());
        let file = write(d, &format!("{stem}.toml"), claim(sheet_name).as_bytes());
        let o = arbiter(&["claim", &file, "-o", d.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", err(&o));
        assert!(
            err(&o).contains(&format!("{sheet_name}: that is the input")),
            "{}",
            err(&o)
        );
        assert_eq!(std::fs::read(d.join(sheet_name)).unwrap(), sheet.as_bytes());
        let written: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(written.len(), 2, "nothing written: {written:?}");
    }
    // A claim file given by a name its packet would have.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "s.pgn", sheet.as_bytes());
    let file = write(d, "odd.pdf", claim("s.pgn").as_bytes());
    let o = arbiter(&["claim", &file, "-o", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("odd.pdf: that is the input"),
        "{}",
        err(&o)
    );
    // A season's board PGN named like a season output, --out its folder.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/season");
    let board = std::fs::read(samples.join("f1-board1.pgn")).unwrap();
    write(d, "notes.csv", &board);
    let season = std::fs::read_to_string(samples.join("ddcl-2009-10.toml"))
        .unwrap()
        .replace("f1-board1.pgn", "notes.csv");
    let file = write(d, "season.toml", season.as_bytes());
    let o = arbiter(&["season", &file, "--out", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("notes.csv: that is the input"),
        "{}",
        err(&o)
    );
    assert_eq!(std::fs::read(d.join("notes.csv")).unwrap(), board);
    assert!(!d.join("standings.csv").exists());
    // adjudicate's packet for a game, where a file of that name is another
    // input (games kept as `g-game1.pdf`, say).
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "g.pgn",
        b"[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1\n",
    );
    let other = b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    write(d, "g-game1.pdf", other);
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "adjudicate",
            "-q",
            "g.pgn",
            "g-game1.pdf",
            "--packets",
            ".",
            "-o",
            "-",
        ])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("g-game1.pdf: that is the input"),
        "{}",
        err(&o)
    );
    assert_eq!(std::fs::read(d.join("g-game1.pdf")).unwrap(), other);
}

/// A packet whose event, player and notes are each one unbroken word of
/// 20,000 letters is laid out in time linear in the text (it took two
/// minutes when each line was measured afresh).
#[test]
fn a_packet_with_a_very_long_word_is_laid_out_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "s.pgn", b"[FEN \"8/8/3k4/3n3R/8/3K4/8/8 w - - 0 64\"]\n[SetUp \"1\"]\n\n64. Rh6+ { [%clk 0:05:10] } Ke5 { [%clk 0:01:15] } 65. Rh5+ { [%clk 0:05:00] } *\n");
    let word = "x".repeat(20_000);
    let claim = format!("kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:05:00\"\nclock_black = \"0:01:15\"\nfees_paid = [\"black\"]\nevent = \"{word}\"\nwhite = \"{word}\"\nnotes = \"{word}\"\n");
    let file = write(d, "long.toml", claim.as_bytes());
    let out = d.join("out");
    let t = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["claim", "-q", &file, "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert!(std::fs::metadata(out.join("long.pdf")).unwrap().len() > 1000);
}

/// A packet for a game of a million plies shows the opening, the end and
/// the marked move, in a few pages and bounded memory (2.2 GB and 12 MB
/// of PDF when every move was drawn).
#[test]
fn a_million_ply_packet_stays_small() {
    let dir = tempfile::tempdir().unwrap();
    let n = 250_000;
    let mut text = String::from("[Event \"long\"]\n[Result \"1-0\"]\n\n");
    for i in 0..n {
        text.push_str(&format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2));
    }
    // An illegal move at the end: the game goes to review, with a packet.
    text.push_str(&format!("{}. Qh5 1-0\n", 2 * n + 1));
    let pgn = write(dir.path(), "long.pgn", text.as_bytes());
    let packets = dir.path().join("packets");
    let csv = dir.path().join("r.csv");
    let (o, rss_kb) = run_measured(&[
        "adjudicate",
        "-q",
        "-r",
        "uscf",
        &pgn,
        "--packets",
        packets.to_str().unwrap(),
        "-o",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = parse_csv(&std::fs::read(&csv).unwrap());
    assert_cells(
        &rows[0],
        &[("status", "review"), ("reason", "illegal-move")],
    );
    let pdfs: Vec<_> = std::fs::read_dir(&packets).unwrap().flatten().collect();
    assert_eq!(pdfs.len(), 1);
    let pdf = pdfs[0].metadata().unwrap().len();
    assert!(pdf < 200_000, "{pdf} bytes");
    assert!(rss_kb < 600_000, "peak RSS {rss_kb} KiB");
}

/// The review page is written as the games come, its sections spooled to
/// a temporary file: memory does not grow with the games needing
/// attention (50,000 of them took 450 MB when the page was built in
/// memory).
#[test]
fn the_review_page_is_written_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let games: String = (0..50_000)
        .map(|i| {
            format!(
                "[Event \"e{}\"]\n[White \"w{i}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh6 1-0\n\n",
                i % 50
            )
        })
        .collect();
    let pgn = write(dir.path(), "many.pgn", games.as_bytes());
    let html = dir.path().join("review.html");
    let csv = dir.path().join("r.csv");
    let (o, rss_kb) = run_measured(&[
        "adjudicate",
        "-q",
        &pgn,
        "--html",
        html.to_str().unwrap(),
        "-o",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(
        common::review_data(&page)["items"]
            .as_array()
            .unwrap()
            .len(),
        50_000
    );
    assert!(page.contains("<span id=\"shown\">50000</span> of 50000 shown"));
    assert!(page.ends_with("</body></html>\n"));
    assert!(rss_kb < 250_000, "peak RSS {rss_kb} KiB");
}

/// A huge value in a file is quoted by its start and length in every
/// message: a season file's, and a game's detail (the CSV cell of the tag
/// itself stays exact).
#[test]
fn messages_quote_a_huge_value_in_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let big = "x".repeat(600_000);
    let season = format!("league = \"L\"\nseason = \"2009\"\nrules = \"ddcl\"\n[[teams]]\nname = \"A\"\nclub = \"A\"\ndivision = \"1\"\n[[players]]\nname = \"P\"\nteam = \"{big}\"\n");
    let file = write(dir.path(), "s.toml", season.as_bytes());
    let out = dir.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["season", &file, "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.len() < 1_000 && err.contains("bytes in all"),
        "{} bytes",
        err.len()
    );
    let pgn = write(
        dir.path(),
        "g.pgn",
        format!("[TimeControl \"{big}\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n").as_bytes(),
    );
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", &pgn])
        .output()
        .unwrap();
    let csv = String::from_utf8_lossy(&o.stdout);
    let detail = csv.lines().last().unwrap().rsplit(',').next().unwrap();
    assert!(detail.len() < 1_000, "{} bytes", detail.len());
    assert!(csv.contains(&big), "the time_control cell stays exact");
}

/// A plain file cut after a whole move: the last game has no termination
/// marker, and a result resting on how it ended (here a flag) is not
/// confirmed; a mate on the board stands, whatever followed.
#[test]
fn a_record_without_its_termination_marker_is_not_confirmed() {
    let dir = tempfile::tempdir().unwrap();
    let flag = "[Event \"a\"]\n[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4";
    let mate = "[Event \"b\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4#\n";
    for (text, status, rule) in [
        (flag.to_string(), "review", "PGN 8.2.6"),
        (format!("{flag} 1-0\n"), "confirmed", "FIDE 6.9"),
        (mate.to_string(), "confirmed", "FIDE 5.1.1"),
    ] {
        let pgn = write(dir.path(), "g.pgn", text.as_bytes());
        let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["adjudicate", "-q", "-r", "fide-blitz", &pgn])
            .output()
            .unwrap();
        let rows = parse_csv(&o.stdout);
        assert_cells(&rows[0], &[("status", status), ("rule", rule)]);
    }
}

/// The four games of `a_comment_never_closed_swallows_no_game`, the second's
/// `{` never closed (on line 9).
const OPEN_COMMENT_GAMES: [&str; 4] = [
    "[Event \"one\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n",
    "[Event \"two\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 {unterminated 3. Nc3 0-1\n\n",
    "[Event \"three\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n",
    "[Event \"four\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n",
];

/// A row's cells that do not depend on where in its file the game lies.
fn judged_cells(row: &common::Row) -> Vec<(String, String)> {
    let mut cells: Vec<(String, String)> = row
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "source" | "game" | "offset"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    cells.sort();
    cells
}

/// A `{` never closed ends its game where the next game's tags begin: that
/// game is unreadable, naming the line of the `{`, and each game after it
/// gets its row, judged as if alone: plain, gzip, zstd and on stdin.
#[test]
fn a_comment_never_closed_swallows_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let text = OPEN_COMMENT_GAMES.concat();
    let alone: Vec<common::Row> = OPEN_COMMENT_GAMES[2..]
        .iter()
        .map(|g| common::judge_one("fide-rapid", g))
        .collect();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let inputs = [
        write(dir.path(), "four.pgn", text.as_bytes()),
        write(dir.path(), "four.pgn.gz", &gz.finish().unwrap()),
        write(
            dir.path(),
            "four.pgn.zst",
            &zstd::encode_all(text.as_bytes(), 3).unwrap(),
        ),
    ];
    let runs = inputs
        .iter()
        .map(|f| {
            Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .args(["adjudicate", f])
                .output()
                .unwrap()
        })
        .chain(std::iter::once({
            let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .args(["adjudicate", "-"])
                .stdin(Stdio::piped())
                .stderr(Stdio::null())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
            child.wait_with_output().unwrap()
        }));
    for o in runs {
        let rows = parse_csv(&o.stdout);
        let events: Vec<&str> = rows.iter().map(|r| r["event"].as_str()).collect();
        assert_eq!(events, ["one", "two", "three", "four"]);
        assert_cells(
            &rows[1],
            &[
                ("game", "2"),
                ("status", "unreadable"),
                ("reason", "parse-error"),
                ("result", "*"),
                ("plies", "3"),
            ],
        );
        assert!(
            rows[1]["detail"].ends_with("unterminated comment (the `{` on line 9 is never closed)"),
            "{}",
            rows[1]["detail"]
        );
        for (row, alone) in rows[2..].iter().zip(&alone) {
            assert_eq!(judged_cells(row), judged_cells(alone));
        }
        assert_cells(&rows[2], &[("game", "3"), ("reason", "checkmate")]);
        assert_eq!(
            rows[2]["offset"],
            text.find("[Event \"three\"]").unwrap().to_string()
        );
    }
}

/// A comment over lines that holds clocks, arrows, a diagram mark and a
/// quoted game's tags at line starts is one comment: nothing is cut.
#[test]
fn a_comment_over_lines_with_brackets_is_not_cut() {
    let text = "[Event \"annotated\"]\n[Result \"0-1\"]\n\n1. f3 {White weakens\n[%clk 0:01:00]\n\
                [%cal Gd8h4]\n[#]\n\n[Event \"an older game\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\
                } e5 2. g4 Qh4# 0-1\n\n"
        .to_string()
        + OPEN_COMMENT_GAMES[2];
    let rows = common::judge("fide-rapid", &text);
    let events: Vec<&str> = rows.iter().map(|r| r["event"].as_str()).collect();
    assert_eq!(events, ["annotated", "three"]);
    assert_cells(
        &rows[0],
        &[
            ("status", "confirmed"),
            ("reason", "checkmate"),
            ("plies", "4"),
        ],
    );
}
