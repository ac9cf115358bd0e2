//! Spreadsheets: the `.xlsx` workbooks of results, summaries, claims,
//! findings and seasons read back with openpyxl, cell by cell and type by
//! type (a date is a date, a clock a duration, a count a number, Müller
//! Müller), and CSV made for Excel (`--excel`) read byte by byte.

use crate::common;

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use common::{arbiter, parse_csv, sample};
use serde_json::{json, Value};

/// Every sheet of a workbook as openpyxl reads it: sheet name to rows of
/// `[type, value]` cells (`str`, `int`, `float`, `datetime`, `timedelta`,
/// `NoneType`), the values as text (a duration in seconds).
fn workbook(path: &Path) -> Value {
    let script = r#"
import json, sys, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
def cell(v):
    if isinstance(v, datetime.timedelta):
        return ["timedelta", str(v.total_seconds())]
    if isinstance(v, datetime.datetime):
        return ["datetime", v.isoformat()]
    return [type(v).__name__, "" if v is None else str(v)]
out = {ws.title: [[cell(v) for v in row] for row in ws.iter_rows(values_only=True)] for ws in wb.worksheets}
out["_frozen"] = {ws.title: ws.freeze_panes for ws in wb.worksheets}
print(json.dumps(out))
"#;
    let o = Command::new("python3")
        .args(["-c", script])
        .arg(path)
        .output()
        .expect("python3");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The row of a sheet whose column `col` (by header) holds `value`.
fn row_where<'a>(sheet: &'a Value, col: &str, value: &str) -> (Vec<String>, &'a Vec<Value>) {
    let rows = sheet.as_array().unwrap();
    let header: Vec<String> = rows[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c[1].as_str().unwrap().to_string())
        .collect();
    let i = header.iter().position(|h| h == col).unwrap();
    let row = rows[1..]
        .iter()
        .map(|r| r.as_array().unwrap())
        .find(|r| r[i][1] == value)
        .unwrap_or_else(|| panic!("no row with {col} = {value}"));
    (header, row)
}

fn cell<'a>(header: &[String], row: &'a [Value], col: &str) -> &'a Value {
    &row[header.iter().position(|h| h == col).unwrap()]
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A game with a name Excel on Windows used to show as `MÃ¼ller`, a
/// complete date, clocks with tenths, a rating and a `Round` like `1.10`.
const GAME: &str = "[Event \"Club night\"]\n[Date \"2024.03.05\"]\n[Round \"1.10\"]\n[White \"Müller, Jürgen\"]\n[Black \"Dvořák, Antonín\"]\n[WhiteElo \"1850\"]\n[BlackElo \"?\"]\n[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n1. e4 { [%clk 0:04:58.5] } e5 { [%clk 0:04:59.0] } 2. Qh5 { [%clk 0:04:50.2] } Nc6 { [%clk 0:00:00.0] } 1-0\n\n[Event \"Club night\"]\n[Date \"2024.??.??\"]\n[Round \"2\"]\n[White \"Ødegaard\"]\n[Black \"Smith\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";

#[test]
fn results_and_summary_as_workbooks_keep_their_types() {
    if !common::tools(
        "results_and_summary_as_workbooks_keep_their_types",
        &[common::Tool::PythonOpenpyxl],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "club.pgn", GAME);
    let xlsx = dir.path().join("results.xlsx");
    let summary = dir.path().join("summary.xlsx");
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "-r",
        "bcf-rapid",
        pgn.to_str().unwrap(),
        "-o",
        xlsx.to_str().unwrap(),
        "--summary",
        summary.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The same run's CSV, for the values.
    let csv =
        parse_csv(&arbiter(&["adjudicate", "-q", "-r", "bcf-rapid", pgn.to_str().unwrap()]).stdout);
    let book = workbook(&xlsx);
    let sheet = &book["results"];
    assert_eq!(sheet.as_array().unwrap().len(), 3, "a header and two games");
    assert_eq!(book["_frozen"]["results"], "A2", "the header stays in view");
    let (h, first) = row_where(sheet, "white", "Müller, Jürgen");
    for (col, want) in [
        ("game", json!(["int", "1"])),
        ("offset", json!(["int", "0"])),
        ("date", json!(["datetime", "2024-03-05T00:00:00"])),
        ("round", json!(["str", "1.10"])),
        ("round_number", json!(["int", "1"])),
        ("board", json!(["int", "10"])),
        ("black", json!(["str", "Dvořák, Antonín"])),
        ("white_elo", json!(["int", "1850"])),
        ("black_elo", json!(["NoneType", ""])),
        ("result", json!(["str", "1-0"])),
        ("status", json!(["str", "confirmed"])),
        ("ply", json!(["int", "4"])),
        ("white_clock", json!(["timedelta", "290.2"])),
        ("black_clock", json!(["timedelta", "0.0"])),
        ("plies", json!(["int", "4"])),
        ("detail", json!(["str", csv[0]["detail"]])),
        ("final_fen", json!(["str", csv[0]["final_fen"]])),
    ] {
        assert_eq!(cell(&h, first, col), &want, "{col}");
    }
    let (h, second) = row_where(sheet, "white", "Ødegaard");
    // A partial PGN date is no date: kept as written.
    assert_eq!(cell(&h, second, "date"), &json!(["str", "2024.??.??"]));
    // A confirmed game has no key to record a decision under: an empty cell.
    assert_eq!(csv[1]["game_key"], "");
    assert_eq!(cell(&h, second, "game_key"), &json!(["NoneType", ""]));

    let summary = workbook(&summary);
    let (h, event) = row_where(&summary["summary"], "name", "Club night");
    assert_eq!(cell(&h, event, "games"), &json!(["int", "2"]));
    assert_eq!(cell(&h, event, "scope"), &json!(["str", "event"]));
}

#[test]
fn csv_for_excel_has_a_byte_order_mark_and_iso_dates() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "club.pgn", GAME);
    let plain = arbiter(&["adjudicate", "-q", "-r", "bcf-rapid", pgn.to_str().unwrap()]).stdout;
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "-r",
        "bcf-rapid",
        pgn.to_str().unwrap(),
        "--excel",
    ]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let body = text
        .strip_prefix('\u{feff}')
        .expect("a UTF-8 byte-order mark");
    let rows = parse_csv(body.as_bytes());
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["date"], "2024-03-05");
    assert_eq!(rows[1]["date"], "2024.??.??");
    assert_eq!(rows[0]["white"], "Müller, Jürgen");
    // Nothing else changes: the rest is the plain CSV's.
    let plain = parse_csv(&plain);
    for (a, b) in rows.iter().zip(&plain) {
        for (k, v) in a {
            if k != "date" {
                assert_eq!(v, &b[k], "{k}");
            }
        }
    }
    // The same into a file, and the summary too.
    let out = dir.path().join("r.csv");
    let summary = dir.path().join("s.csv");
    let o = arbiter(&[
        "adjudicate",
        "-q",
        pgn.to_str().unwrap(),
        "--excel",
        "-o",
        out.to_str().unwrap(),
        "--summary",
        summary.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    for f in [&out, &summary] {
        assert!(
            std::fs::read(f).unwrap().starts_with("\u{feff}".as_bytes()),
            "{f:?}"
        );
    }
}

#[test]
fn a_spreadsheet_is_refused_where_it_cannot_be_made() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "club.pgn", GAME);
    let xlsx = dir.path().join("r.xlsx");
    for (args, says) in [
        (
            vec!["--format", "json", "-o", xlsx.to_str().unwrap()],
            "arbiter: a spreadsheet is made of the CSV results, not --format json",
        ),
        (
            vec!["--excel", "--format", "ndjson"],
            "arbiter: a spreadsheet is made of the CSV results, not --format ndjson",
        ),
        (
            vec!["--shard", "1/2", "-o", xlsx.to_str().unwrap()],
            "arbiter: --shard writes parts to be joined: make the spreadsheet from the joined CSV",
        ),
    ] {
        let mut all = vec!["adjudicate", "-q", pgn.to_str().unwrap()];
        all.extend(args);
        let o = arbiter(&all);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&o.stderr).trim(), says);
        assert!(!xlsx.exists());
    }
}

#[test]
fn claims_findings_and_seasons_as_workbooks() {
    if !common::tools(
        "claims_findings_and_seasons_as_workbooks",
        &[common::Tool::PythonOpenpyxl],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Claims: claims.xlsx holds claims.csv's cells.
    let (csv_dir, xlsx_dir) = (dir.path().join("c1"), dir.path().join("c2"));
    let claims = sample("claims");
    for (out, extra) in [(&csv_dir, None), (&xlsx_dir, Some("--xlsx"))] {
        let mut args = vec![
            "claim",
            "-q",
            claims.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        assert!(arbiter(&args).status.success());
    }
    assert!(!xlsx_dir.join("claims.csv").exists());
    let rows = parse_csv(&std::fs::read(csv_dir.join("claims.csv")).unwrap());
    let book = workbook(&xlsx_dir.join("claims.xlsx"));
    let sheet = book["claims"].as_array().unwrap();
    assert_eq!(sheet.len(), rows.len() + 1);
    let header: Vec<&str> = sheet[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c[1].as_str().unwrap())
        .collect();
    for (got, want) in sheet[1..].iter().zip(&rows) {
        for (c, h) in header.iter().enumerate() {
            let v = &got[c];
            let text = if v[0] == "NoneType" {
                ""
            } else {
                v[1].as_str().unwrap()
            };
            assert_eq!(text, want[*h], "{h}");
        }
    }

    // Findings: dates as dates, game numbers as numbers.
    let findings = dir.path().join("findings.xlsx");
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        sample("active30-rated-list.pgn").to_str().unwrap(),
        "-o",
        findings.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let book = workbook(&findings);
    let (h, row) = row_where(&book["findings"], "finding", "rounds-per-day");
    assert_eq!(cell(&h, row, "game"), &json!(["int", "7"]));
    assert_eq!(
        cell(&h, row, "date"),
        &json!(["datetime", "2023-08-12T00:00:00"])
    );
    assert_eq!(cell(&h, row, "round"), &json!(["str", "7"]));

    // A season: season.xlsx beside the CSV files, a sheet each.
    let out = dir.path().join("season");
    let o = arbiter(&[
        "season",
        "-q",
        sample("season/ddcl-2009-10.toml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--xlsx",
        "--excel",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let book = workbook(&out.join("season.xlsx"));
    let names: Vec<&str> = book
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for n in [
        "standings",
        "violations",
        "notes",
        "grading",
        "player-of-year",
        "cup",
    ] {
        assert!(names.contains(&n), "{n}: {names:?}");
    }
    let (h, row) = row_where(&book["standings"], "team", "Middlesbrough B");
    assert_eq!(cell(&h, row, "position"), &json!(["int", "1"]));
    assert_eq!(cell(&h, row, "match_points"), &json!(["int", "5"]));
    let grading = book["grading"].as_array().unwrap();
    assert_eq!(grading[1][0][0], "datetime");
    // --excel: each CSV file with a byte-order mark, its cells the workbook's.
    let csv = std::fs::read(out.join("grading.csv")).unwrap();
    assert!(csv.starts_with("\u{feff}".as_bytes()));
    let rows = parse_csv(&csv[3..]);
    assert_eq!(rows.len() + 1, grading.len());
}

#[test]
fn format_xlsx_writes_the_workbook_that_a_xlsx_name_does() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "club.pgn", GAME);
    let pgn = pgn.to_str().unwrap();
    // Results: `--format xlsx` writes the workbook a name ending .xlsx
    // asks for.
    let (named, asked) = (dir.path().join("r.xlsx"), dir.path().join("asked.xlsx"));
    for args in [
        vec!["adjudicate", "-q", pgn, "-o", named.to_str().unwrap()],
        vec![
            "adjudicate",
            "-q",
            pgn,
            "--format",
            "xlsx",
            "-o",
            asked.to_str().unwrap(),
        ],
    ] {
        let o = arbiter(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for path in [&named, &asked] {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(
            &bytes[..2],
            b"PK",
            "{}: a zip, as every xlsx is",
            path.display()
        );
    }
    if common::tools(
        "format_xlsx_writes_the_workbook_that_a_xlsx_name_does",
        &[common::Tool::PythonOpenpyxl],
    ) {
        let (a, b) = (workbook(&named), workbook(&asked));
        assert_eq!(a, b);
        let results = a["results"].as_array().unwrap();
        assert_eq!(results[0][0], json!(["str", "source"]));
        assert_eq!(results.len(), 3);
    }
    // No file named: a workbook is not written to the screen, nor into a
    // file named for CSV.
    let csv = dir.path().join("r.csv");
    for extra in [vec![], vec!["-o", csv.to_str().unwrap()]] {
        let mut args = vec!["adjudicate", "-q", pgn, "--format", "xlsx"];
        args.extend(extra);
        let o = arbiter(&args);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&o.stderr).trim(),
            "arbiter: --format xlsx writes a workbook: name it with -o FILE.xlsx"
        );
        assert!(o.stdout.is_empty());
    }
    assert!(!csv.exists());
    let list = sample("active30-rated-list.pgn");
    let o = arbiter(&[
        "audit",
        "-q",
        "--list",
        "active30",
        list.to_str().unwrap(),
        "--format",
        "xlsx",
    ]);
    assert_eq!(o.status.code(), Some(2));
    // Claims: claims.xlsx in place of claims.csv, as with --xlsx.
    let out = dir.path().join("claims");
    let claims = sample("claims");
    let o = arbiter(&[
        "claim",
        "-q",
        claims.to_str().unwrap(),
        "--format",
        "xlsx",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.join("claims.xlsx").exists() && !out.join("claims.csv").exists());
}

/// A workbook's text cells are never formulas: a name the CSV writes with
/// its guarding apostrophe (`'=1+2`) is the name as written there.
#[test]
fn a_formula_like_name_is_plain_text_in_a_workbook() {
    if !common::tools(
        "a_formula_like_name_is_plain_text_in_a_workbook",
        &[common::Tool::PythonOpenpyxl],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(
        &pgn,
        "[White \"=1+2\"]\n[Black \"-inf\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let xlsx = dir.path().join("r.xlsx");
    let o = arbiter(&[
        "adjudicate",
        "-q",
        pgn.to_str().unwrap(),
        "-o",
        xlsx.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let book = workbook(&xlsx);
    let sheet = book.as_object().unwrap().values().next().unwrap();
    let (header, row) = row_where(sheet, "white", "=1+2");
    assert_eq!(cell(&header, row, "black"), &json!(["str", "-inf"]));
    let csv = dir.path().join("r.csv");
    let o = arbiter(&[
        "adjudicate",
        "-q",
        pgn.to_str().unwrap(),
        "-o",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let rows = parse_csv(&std::fs::read(&csv).unwrap());
    assert_eq!(
        (rows[0]["white"].as_str(), rows[0]["black"].as_str()),
        ("'=1+2", "'-inf")
    );
}

/// `-o results.xls` (or `.ods`): a workbook arbiter does not write. It
/// wrote CSV text under the name, which Excel opens with a warning; now
/// refused, exit 2, nothing written.
#[test]
fn a_workbook_name_arbiter_does_not_write_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["old.xls", "book.ODS"] {
        let out = dir.path().join(name);
        let o = common::arbiter(&[
            "adjudicate",
            "-q",
            "--no-rules-map",
            common::sample("fide-rapid-open.pgn").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        let ext = name.rsplit('.').next().unwrap().to_ascii_lowercase();
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(&format!("-o names a .{ext} workbook: arbiter writes .xlsx workbooks (which Excel and LibreOffice open) or CSV: name it .xlsx or .csv")),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!out.exists(), "{name}");
    }
}
