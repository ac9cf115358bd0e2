//! Helpers shared by the integration tests: run the library's pipeline on
//! text or files and read the results CSV back as rows keyed by column.

#![allow(dead_code)]

use std::{collections::HashMap, io::Write, path::PathBuf};

use arbiter::{
    pipeline::{Options, Summary},
    read::{expand_inputs, Source},
    report::batch::adjudicate,
    rules::Ruleset,
};

pub mod oracle;

pub type Row = HashMap<String, String>;

pub fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(rel)
}

pub fn sample(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(rel)
}

pub fn parse_csv(bytes: &[u8]) -> Vec<Row> {
    let mut r = csv::Reader::from_reader(bytes);
    let headers = r.headers().expect("header").clone();
    r.records()
        .map(|rec| {
            let rec = rec.expect("record");
            headers
                .iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

pub fn run_sources(rules: &str, sources: &[Source], jobs: usize) -> (Vec<Row>, Summary, Vec<u8>) {
    let rules = Ruleset::load(rules).expect("ruleset");
    let opts = Options {
        jobs,
        batch_bytes: 1 << 16,
        ..Options::default()
    };
    let mut out = Vec::new();
    let summary = adjudicate(sources, &rules, &opts, &mut out).expect("adjudicate");
    (parse_csv(&out), summary, out)
}

pub fn run_paths(rules: &str, paths: &[PathBuf]) -> (Vec<Row>, Summary) {
    let inputs: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let (sources, errors) = expand_inputs(&inputs);
    assert!(errors.is_empty(), "{errors:?}");
    let (rows, summary, _) = run_sources(rules, &sources, 2);
    (rows, summary)
}

/// Judges PGN text under a ruleset; one row per game.
pub fn judge(rules: &str, pgn: &str) -> Vec<Row> {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(pgn.as_bytes()).expect("write");
    let path = f.path().to_path_buf();
    let (rows, _) = run_paths(rules, &[path]);
    rows
}

/// Judges one game and returns its row.
pub fn judge_one(rules: &str, pgn: &str) -> Row {
    let rows = judge(rules, pgn);
    assert_eq!(rows.len(), 1, "expected one game in {pgn}");
    rows.into_iter().next().unwrap_or_default()
}

/// Asserts the given cells of a row, naming the cell that differs.
#[track_caller]
pub fn assert_cells(row: &Row, expected: &[(&str, &str)]) {
    for (col, want) in expected {
        let got = row
            .get(*col)
            .map(String::as_str)
            .unwrap_or("<missing column>");
        assert_eq!(
            got,
            *want,
            "column {col}; row detail: {}",
            row.get("detail").map(String::as_str).unwrap_or("")
        );
    }
}

#[track_caller]
pub fn assert_detail_contains(row: &Row, needle: &str) {
    let d = row.get("detail").map(String::as_str).unwrap_or("");
    assert!(d.contains(needle), "detail {d:?} should contain {needle:?}");
}

/// The words of a PDF as `pdftotext -bbox` reads them: (word, x centre,
/// y centre from the top of the page), on the pages given by `args`.
pub fn pdf_words(pdf: &std::path::Path, args: &[&str]) -> Vec<(String, f32, f32)> {
    let o = std::process::Command::new("pdftotext")
        .arg("-bbox")
        .args(args)
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils)");
    let html = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut words = Vec::new();
    for line in html.lines().filter(|l| l.contains("<word")) {
        let num = |key: &str| -> f32 {
            let start = line
                .find(&format!("{key}=\""))
                .map_or(0, |i| i + key.len() + 2);
            line[start..]
                .split('"')
                .next()
                .unwrap_or("0")
                .parse()
                .unwrap_or(-1.0)
        };
        let word = line
            .split('>')
            .nth(1)
            .and_then(|w| w.split('<').next())
            .unwrap_or("");
        words.push((
            word.to_string(),
            (num("xMin") + num("xMax")) / 2.0,
            (num("yMin") + num("yMax")) / 2.0,
        ));
    }
    words
}

/// The review page's data (`rules`, `items`), read from the page's JSON
/// element as the page's script reads it.
pub fn review_data(html: &str) -> serde_json::Value {
    let open = "<script type=\"application/json\" id=\"data\">";
    let start = html.find(open).expect("the page's data element") + open.len();
    let end = start + html[start..].find("</script>").expect("its end");
    serde_json::from_str(&html[start..end]).expect("the page's data is JSON")
}

/// The review page less its data element: what must hold no address.
pub fn review_without_data(html: &str) -> String {
    let open = "<script type=\"application/json\" id=\"data\">";
    let start = html.find(open).expect("the page's data element");
    let end = start + html[start..].find("</script>").expect("its end");
    format!("{}{}", &html[..start], &html[end..])
}

/// Runs the `arbiter` binary with `args`.
pub fn arbiter(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("run arbiter")
}

/// The first of `paths` that exists: a program the tests read outputs back
/// with; `hint` says how to install it.
pub fn installed(paths: &[&str], hint: &str) -> PathBuf {
    paths
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("{hint}"))
}

/// An outside program the tests read our outputs back with.
#[derive(Copy, Clone, Debug)]
pub enum Tool {
    /// pdftotext, pdftoppm, pdfinfo.
    Poppler,
    PgnExtract,
    Chromium,
    Parallel,
    /// The `chess` package for python3.
    PythonChess,
    /// The `trf` package for python3.
    PythonTrf,
    /// The `openpyxl` package for python3, to read the workbooks back.
    PythonOpenpyxl,
    /// g++ and make, to build bbpPairings from ../shared/tools.
    Cpp,
    /// node, with tests/browser's packages installed (puppeteer-core), to
    /// drive Chromium by script.
    Node,
    /// util-linux's `script`, to run a command on a pseudo-terminal.
    Script,
}

impl Tool {
    fn present(self) -> bool {
        let any = |paths: &[&str]| paths.iter().any(|p| std::path::Path::new(p).exists());
        let module = |m: &str| {
            std::process::Command::new("python3")
                .args(["-c", &format!("import {m}")])
                .output()
                .is_ok_and(|o| o.status.success())
        };
        match self {
            Tool::Poppler => any(&["/usr/bin/pdftotext"]) && any(&["/usr/bin/pdftoppm"]),
            Tool::PgnExtract => any(&["/usr/bin/pgn-extract", "/usr/games/pgn-extract"]),
            Tool::Chromium => any(&["/usr/bin/chromium", "/usr/bin/chromium-browser"]),
            Tool::Parallel => any(&["/usr/bin/parallel"]),
            Tool::PythonChess => module("chess"),
            Tool::PythonTrf => module("trf"),
            Tool::PythonOpenpyxl => module("openpyxl"),
            Tool::Cpp => any(&["/usr/bin/g++"]) && any(&["/usr/bin/make"]),
            Tool::Script => any(&["/usr/bin/script"]),
            Tool::Node => {
                std::process::Command::new("node")
                    .arg("--version")
                    .output()
                    .is_ok_and(|o| o.status.success())
                    && PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                        .join("tests/browser/node_modules/puppeteer-core/package.json")
                        .is_file()
            }
        }
    }

    fn install(self) -> &'static str {
        match self {
            Tool::Poppler => "apt-get install poppler-utils",
            Tool::PgnExtract => "apt-get install pgn-extract",
            Tool::Chromium => "apt-get install chromium",
            Tool::Parallel => "apt-get install parallel",
            Tool::PythonChess => "pip install chess",
            Tool::PythonTrf => "pip install trf==1.1.1",
            Tool::PythonOpenpyxl => "pip install openpyxl==3.1.5",
            Tool::Cpp => "apt-get install g++ make",
            Tool::Node => "apt-get install nodejs npm; npm ci --prefix tests/browser",
            Tool::Script => "apt-get install bsdutils",
        }
    }
}

/// Whether every program `test` reads its outputs back with is here. One
/// missing: the test says on stderr that it was skipped and how to install
/// the program, and passes. Under `ARBITER_REQUIRE_TOOLS=1` (which `.ci/run`
/// sets after installing them all) a missing program fails the test, so CI
/// never skips in silence.
pub fn tools(test: &str, needed: &[Tool]) -> bool {
    let missing: Vec<Tool> = needed.iter().copied().filter(|t| !t.present()).collect();
    if missing.is_empty() {
        return true;
    }
    let words: Vec<String> = missing
        .iter()
        .map(|t| format!("{t:?} ({})", t.install()))
        .collect();
    let required = std::env::var("ARBITER_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "{test}: missing {} (ARBITER_REQUIRE_TOOLS=1)",
        words.join(", ")
    );
    eprintln!("skipped {test}: missing {}", words.join(", "));
    false
}

/// bbpPairings (a real Swiss pairing engine that reads TRF), built once per
/// test run from its source in ../shared/tools into cargo's test folder.
pub fn bbp_pairings() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bbpPairings");
            let exe = dir.join("bbpPairings.exe");
            if !exe.exists() {
                let _ = std::fs::remove_dir_all(&dir);
                let src =
                    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/tools/bbpPairings");
                let ok = std::process::Command::new("cp")
                    .arg("-r")
                    .arg(&src)
                    .arg(&dir)
                    .status()
                    .is_ok_and(|s| s.success());
                assert!(ok, "copy {}", src.display());
                let _ = std::process::Command::new("chmod")
                    .arg("-R")
                    .arg("u+w")
                    .arg(&dir)
                    .status();
                let o = std::process::Command::new("make")
                    .arg("-C")
                    .arg(&dir)
                    .arg("-j2")
                    .output()
                    .expect("run make");
                assert!(
                    o.status.success(),
                    "make bbpPairings: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
            }
            exe
        })
        .clone()
}

/// TRF-16 player lines read back by their columns: number, title, name,
/// rating, federation, FIDE id, points, and per round (opponent, colour,
/// result).
pub type TrfPlayer = (
    usize,
    String,
    String,
    String,
    String,
    String,
    f64,
    Vec<(usize, char, char)>,
);

pub fn trf_players(text: &str) -> Vec<TrfPlayer> {
    // Columns are characters: a name with accents shifts none.
    let col = |l: &[char], a: usize, b: usize| {
        l.get(a - 1..b.min(l.len()))
            .unwrap_or(&[])
            .iter()
            .collect::<String>()
            .trim()
            .to_string()
    };
    text.lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| l.chars().collect::<Vec<char>>())
        .map(|l| {
            let l = l.as_slice();
            let mut rounds = Vec::new();
            let mut at = 92;
            while l.len() >= at + 7 {
                rounds.push((col(l, at, at + 3).parse().unwrap(), l[at + 4], l[at + 6]));
                at += 10;
            }
            (
                col(l, 5, 8).parse().unwrap(),
                col(l, 11, 13),
                col(l, 15, 47),
                col(l, 49, 52),
                col(l, 54, 56),
                col(l, 58, 68),
                col(l, 81, 84).parse().unwrap(),
                rounds,
            )
        })
        .collect()
}
