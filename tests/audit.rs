//! `arbiter audit --list active30` on the shipped list: every planted fault
//! found, and nothing else.

use crate::common;

use std::process::Command;

use common::{parse_csv, sample};

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
    assert!(rows[3]["detail"].contains("played 7 rounds on 2023.08.12"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("audited 11 games under sabah-active30: 4 findings"),
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
        !text.chars().any(|c| c.is_control() && c != '\n'),
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
