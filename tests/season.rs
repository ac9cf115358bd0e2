//! League seasons: the DDCL and HSL rules one by one on hand-built seasons,
//! the shipped sample seasons cell by cell, and the ECF submission file.

use crate::common;

use std::{path::Path, process::Command};

use arbiter::{
    season::load,
    season::{expected, process, League, Report},
};
use common::{parse_csv, sample, Row};

/// Writes a season file and processes it.
fn run(toml: &str) -> Result<Report, String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("season.toml");
    std::fs::write(&path, toml).unwrap();
    load(&path, false).map(|s| process(&s))
}

const DDCL_HEAD: &str = r#"
league = "Test League"
season = "2009/10"
rules = "ddcl"
[[teams]]
name = "A"
club = "A"
division = "1"
[[teams]]
name = "B"
club = "B"
division = "1"
"#;

/// Five players a side; grades for A's boards 1-5 as given ("u" = ungraded).
fn ddcl_season(a_grades: &[&str], extra_fixture: &str, boards: &str) -> String {
    let mut s = DDCL_HEAD.to_string();
    for (i, g) in a_grades.iter().enumerate() {
        let grade = if *g == "u" {
            String::new()
        } else {
            format!("grade = {g}\n")
        };
        s.push_str(&format!(
            "[[players]]\nname = \"A{}\"\nteam = \"A\"\n{grade}",
            i + 1
        ));
    }
    for i in 1..=5 {
        s.push_str(&format!(
            "[[players]]\nname = \"B{i}\"\nteam = \"B\"\ngrade = {}\n",
            160 - i * 10
        ));
    }
    s.push_str(&format!("[[fixtures]]\nid = \"M1\"\ndate = \"2009-10-08\"\nhome = \"A\"\naway = \"B\"\n{extra_fixture}\nboards = [\n{boards}]\n"));
    s
}

/// Team A's grades in board order (A1 strongest), as most tests field it.
const GRADED: [&str; 5] = ["150", "140", "130", "120", "110"];

/// `ddcl_season` with team A in grade order and no more to the fixture.
fn in_order(boards: &str) -> String {
    ddcl_season(&GRADED, "", boards)
}

fn all_draws() -> String {
    (1..=5)
        .map(|b| {
            format!(
                "  {{ board = {b}, home = \"A{b}\", away = \"B{b}\", result = \"1/2-1/2\" }},\n"
            )
        })
        .collect()
}

/// The DDCL sample season and its board PGN, copied to a folder of their
/// own to be changed: the folder (kept while it lives) and the season file.
fn sample_season_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    for f in ["ddcl-2009-10.toml", "f1-board1.pgn"] {
        std::fs::copy(sample(&format!("season/{f}")), dir.path().join(f)).unwrap();
    }
    let path = dir.path().join("ddcl-2009-10.toml");
    (dir, path)
}

fn standing(r: &Report, team: &str) -> (f64, f64, f64) {
    let s = r.standings.iter().find(|s| s.team == team).expect("team");
    (s.game_points, s.penalty, s.match_points)
}

#[test]
fn ddcl_12_match_points_two_one_nothing() {
    let mut boards = all_draws();
    boards = boards.replacen("result = \"1/2-1/2\"", "result = \"1-0\"", 1);
    let r = run(&in_order(&boards)).unwrap();
    assert_eq!(standing(&r, "A"), (3.0, 0.0, 2.0));
    assert_eq!(standing(&r, "B"), (2.0, 0.0, 0.0));
    assert_eq!(r.grading.len(), 5);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

#[test]
fn ddcl_7_board_order_within_ten_points() {
    // 130 above 140: exactly 10 apart is allowed.
    let r = run(&ddcl_season(
        &["150", "130", "140", "120", "110"],
        "",
        &all_draws(),
    ))
    .unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    // 129 above 140: 11 apart, out of order from board 2 (DDCL 9).
    let r = run(&ddcl_season(
        &["150", "129", "140", "120", "110"],
        "",
        &all_draws(),
    ))
    .unwrap();
    assert_eq!(r.violations.len(), 1);
    let v = &r.violations[0];
    assert_eq!(
        (v.rule.as_str(), v.board, v.penalty.as_str()),
        (
            "DDCL 7; DDCL 9",
            Some(2),
            "boards 2-5 forfeited and 1 point deducted"
        )
    );
    // Board 1 drawn; boards 2-5 lost: ½-4½, less a point.
    assert_eq!(standing(&r, "A"), (0.5, 1.0, -1.0));
    assert_eq!(standing(&r, "B"), (4.5, 0.0, 2.0));
}

/// A rating given where the league orders boards by grade (DDCL 7) is an
/// error naming the player: it was passed over, every such player counted
/// ungraded, and the standings changed without a word.
#[test]
fn a_rating_where_the_league_orders_by_grade_is_refused() {
    let s = in_order(&all_draws()).replace("grade = 150", "rating = 150");
    let err = run(&s).unwrap_err();
    assert!(
        err.contains("player \"A1\": a rating is given, but the ddcl rules order boards by grade (DDCL 7): give it as grade"),
        "{err}"
    );
    // The players' spreadsheet: a `grading` column is taken for `grade`.
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "ddcl-csv.toml",
        "ddcl-teams.csv",
        "ddcl-fixtures.csv",
        "ddcl-boards.csv",
        "f1-board1.pgn",
    ] {
        std::fs::copy(common::sample(&format!("season/{f}")), dir.path().join(f)).unwrap();
    }
    let players = std::fs::read_to_string(common::sample("season/ddcl-players.csv")).unwrap();
    let (head, rest) = players.split_once('\n').unwrap();
    assert!(head.contains("grade"), "{head}");
    let renamed = head.replacen("grade", "grading", 1);
    std::fs::write(
        dir.path().join("ddcl-players.csv"),
        format!("{renamed}\n{rest}"),
    )
    .unwrap();
    let err = load(&dir.path().join("ddcl-csv.toml"), false).unwrap_err();
    assert!(
        err.contains("column grading: not a column of this file; did you mean \"grade\"?"),
        "{err}"
    );
}

#[test]
fn ddcl_8_ungraded_below_all_graded_and_estimates_set_before_use() {
    let r = run(&ddcl_season(
        &["150", "u", "140", "120", "110"],
        "",
        &all_draws(),
    ))
    .unwrap();
    // The rule broken, then the one that sets the penalty.
    assert_eq!(r.violations[0].rule, "DDCL 8; DDCL 9");
    assert_eq!(r.violations[0].board, Some(2));
    assert!(r.violations[0]
        .what
        .contains("ungraded A2 on board 2 above A3 (140)"));
    // An estimate set before the match counts; one set after does not.
    let before = ddcl_season(&["150", "u", "140", "120", "110"], "", &all_draws()).replace(
        "name = \"A2\"\nteam = \"A\"\n",
        "name = \"A2\"\nteam = \"A\"\nestimated_grade = 145\nestimated_on = \"2009-10-01\"\n",
    );
    assert!(run(&before).unwrap().violations.is_empty());
    let after = before.replace(
        "estimated_on = \"2009-10-01\"",
        "estimated_on = \"2009-10-09\"",
    );
    assert_eq!(run(&after).unwrap().violations[0].rule, "DDCL 8; DDCL 9");
}

#[test]
fn ddcl_5_four_players_with_and_without_notice() {
    let four: String = all_draws()
        .lines()
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + "  { board = 5, away = \"B5\" },\n";
    let r = run(&ddcl_season(&GRADED, "short_notice_hours = 72", &four)).unwrap();
    assert_eq!(standing(&r, "A"), (2.5, 0.0, 1.0));
    // DDCL 5 allows it: a note, not a breach.
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(r.notes[0].penalty, "board 5 classed as a tie, not graded");
    assert_eq!(r.grading.len(), 4);
    let r = run(&ddcl_season(&GRADED, "short_notice_hours = 71", &four)).unwrap();
    assert_eq!(standing(&r, "A"), (2.0, 0.0, 0.0));
    assert_eq!(standing(&r, "B"), (3.0, 0.0, 2.0));
    assert_eq!(r.violations[0].penalty, "board lost by default");
    // Both teams four: the fixture must say whose notice it records.
    let both = four.replace("  { board = 5, away = \"B5\" },\n", "  { board = 5 },\n");
    let season = |extra: &str| ddcl_season(&GRADED, extra, &both);
    let err = run(&season("short_notice_hours = 96")).unwrap_err();
    assert!(
        err.contains("board 5: both teams have no player on this board and the fixture records one short notice (short_notice_hours): say which team gave it, short_notice_by = \"home\", \"away\" or \"both\" (DDCL 5)"),
        "{err}"
    );
    // Both gave it: each one's fifth board a tie, no breach.
    let r = run(&season(
        "short_notice_hours = 96\nshort_notice_by = \"both\"",
    ))
    .unwrap();
    assert_eq!(
        (standing(&r, "A"), standing(&r, "B")),
        ((2.5, 0.0, 1.0), (2.5, 0.0, 1.0))
    );
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(
        r.notes
            .iter()
            .filter(|n| n.penalty == "board 5 classed as a tie, not graded")
            .count(),
        2
    );
    // Only the home team gave it: its board a tie, the away team's lost.
    let r = run(&season(
        "short_notice_hours = 96\nshort_notice_by = \"Home\"",
    ))
    .unwrap();
    assert_eq!((standing(&r, "A").0, standing(&r, "B").0), (2.5, 2.0));
    let lost: Vec<&str> = r.violations.iter().map(|v| v.what.as_str()).collect();
    assert_eq!(lost, ["B had no player on board 5 (no notice)"]);
    // With too little notice for a tie, or none (0 h), both lose it, and
    // whose notice it was is not asked.
    for short in ["short_notice_hours = 0", "short_notice_hours = 24"] {
        let r = run(&season(short)).unwrap();
        assert_eq!(
            (standing(&r, "A").0, standing(&r, "B").0),
            (2.0, 2.0),
            "{short}"
        );
        assert_eq!(r.violations.len(), 2, "{short}");
    }
    // With the notice not recorded, a tie or a loss cannot be told: the
    // board counts for neither side until it is, said. It was lost by
    // default on the guess that none was given.
    for boards in [&four, &both] {
        let r = run(&ddcl_season(&GRADED, "", boards)).unwrap();
        assert!(r.violations.is_empty(), "{:?}", r.violations);
        assert_eq!((standing(&r, "A").0, standing(&r, "B").0), (2.0, 2.0));
        let note = r.notes.iter().find(|n| n.board == Some(5)).unwrap();
        assert_eq!(note.penalty, "not scored until the notice is recorded");
        assert!(
            note.what.ends_with("had no player on board 5, and the notice given is not recorded: whether it is a tie (72 h or more) or lost by default cannot be told (give short_notice_hours)"),
            "{}",
            note.what
        );
        let a = r.standings.iter().find(|s| s.team == "A").unwrap();
        assert!(
            a.note
                .contains("M1 board 5 not scored, the short notice not recorded"),
            "{}",
            a.note
        );
    }
    // Notice given, but board 3 left empty: lost, and said why.
    let third = all_draws().replacen(
        "  { board = 3, home = \"A3\", away = \"B3\", result = \"1/2-1/2\" },\n",
        "  { board = 3, away = \"B3\" },\n",
        1,
    );
    assert_ne!(third, all_draws());
    let r = run(&ddcl_season(&GRADED, "short_notice_hours = 96", &third)).unwrap();
    let lost: Vec<&str> = r.violations.iter().map(|v| v.what.as_str()).collect();
    assert_eq!(
        lost,
        ["A had no player on board 3 (96 h notice); the notice makes board 5 a tie, no other board"]
    );
    // A player named for board 5 who did not come: no team fielded one
    // short with notice (DDCL 10), so the board is lost as before.
    let no_show = all_draws()
        .lines()
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + "  { board = 5, home = \"A5\", away = \"B5\", no_show = \"away\" },\n";
    let r = run(&ddcl_season(&GRADED, "", &no_show)).unwrap();
    assert!(!r
        .notes
        .iter()
        .any(|n| n.penalty == "not scored until the notice is recorded"));
    assert_eq!((standing(&r, "A").0, standing(&r, "B").0), (3.0, 2.0));
    // On the command line: written, and needs attention (exit 1).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("season.toml");
    std::fs::write(&path, ddcl_season(&GRADED, "", &four)).unwrap();
    let (_out, o) = season_run(&path);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("M1 board 5 not scored: a team one short with its notice not recorded (notes.csv); give short_notice_hours"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = run(&season("short_notice_hours = 96\nshort_notice_by = \"us\"")).unwrap_err();
    assert!(
        err.contains("short_notice_by \"us\" is not home, away or both"),
        "{err}"
    );
}

/// A date the calendar does not have is an error naming it, not a fixture.
#[test]
fn impossible_dates_are_refused() {
    let s = in_order(&all_draws()).replacen("date = \"2009-10-08\"", "date = \"2009-02-30\"", 1);
    assert!(s.contains("2009-02-30"), "the fixture date to spoil");
    let err = run(&s).unwrap_err();
    assert!(err.contains("2009-02-30"), "{err}");
}

/// A date written as a TOML date (`date = 2009-10-08`, no quotes: TOML
/// reads it as a date, not text) is the same date; it was refused,
/// "invalid type: map, expected a string". One with a time is no date.
#[test]
fn dates_written_as_toml_dates_are_read() {
    let quoted = in_order(&all_draws());
    let bare = quoted.replacen("date = \"2009-10-08\"", "date = 2009-10-08", 1);
    assert_ne!(bare, quoted);
    let (a, b) = (run(&quoted).unwrap(), run(&bare).unwrap());
    assert_eq!(standing(&a, "A"), standing(&b, "A"));
    assert_eq!(a.grading.len(), b.grading.len());
    let timed = quoted.replacen("date = \"2009-10-08\"", "date = 2009-10-08T19:30:00", 1);
    let err = run(&timed).unwrap_err();
    assert!(
        err.contains("\"2009-10-08T19:30:00\" is not a date (YYYY-MM-DD)"),
        "{err}"
    );
}

/// DDCL 3: a default only with less than 72 hours' notice. With 72 or more
/// the fixture is to be rearranged: a note, and not scored until played.
#[test]
fn ddcl_3_notice_boundary() {
    let with = |hours: u32| {
        in_order(&all_draws())
            + &format!("[[fixtures]]\nid = \"M2\"\ndate = \"2009-10-22\"\nhome = \"B\"\naway = \"A\"\nstatus = \"defaulted\"\ndefaulted_by = \"A\"\nnotice_hours = {hours}\n")
    };
    let r = run(&with(71)).unwrap();
    let v = r
        .violations
        .iter()
        .find(|v| v.fixture == "M2")
        .expect("default");
    assert_eq!(v.rule, "DDCL 3");
    assert_eq!(v.what, "A could not play (71 h notice, under 72 h)");
    assert_eq!(v.penalty, "match lost by default, 0-5");
    for hours in [72, 100] {
        let r = run(&with(hours)).unwrap();
        assert!(
            r.violations.iter().all(|v| v.fixture != "M2"),
            "{hours}: {:?}",
            r.violations
        );
        let n = r.notes.iter().find(|n| n.fixture == "M2").expect("note");
        assert_eq!(
            n.what,
            format!("A could not play ({hours} h notice, at least 72 h): the fixture is to be rearranged")
        );
        assert_eq!(n.penalty, "not scored until it is played");
        // Only the one match played counts.
        assert_eq!(standing(&r, "A").0, 2.5);
    }
}

#[test]
fn ddcl_3_and_4_defaults() {
    let s = in_order(&all_draws())
        + "[[fixtures]]\nid = \"M2\"\ndate = \"2009-10-22\"\nhome = \"B\"\naway = \"A\"\nstatus = \"defaulted\"\ndefaulted_by = \"A\"\nnotice_hours = 48\n"
        + "[[fixtures]]\nid = \"M3\"\ndate = \"2009-11-05\"\nhome = \"A\"\naway = \"B\"\nstatus = \"defaulted\"\ndefaulted_by = \"B\"\nwithout_warning = true\n";
    let r = run(&s).unwrap();
    // A: drew M1 (1), lost M2 by default (0), won M3 by default (2).
    assert_eq!(standing(&r, "A"), (7.5, 0.0, 3.0));
    // B: drew M1, won M2, lost M3 and a point for no warning: 1 + 2 + 0 - 1.
    assert_eq!(standing(&r, "B"), (7.5, 1.0, 2.0));
    let rules: Vec<&str> = r.violations.iter().map(|v| v.rule.as_str()).collect();
    assert_eq!(rules, ["DDCL 3", "DDCL 3", "DDCL 4"]);
    assert_eq!(r.grading.len(), 5, "defaults are not graded");
    // The side, as short_notice_by names it, names the team too.
    let sides = s
        .replace(
            "away = \"A\"\nstatus = \"defaulted\"\ndefaulted_by = \"A\"",
            "away = \"A\"\nstatus = \"defaulted\"\ndefaulted_by = \"away\"",
        )
        .replace(
            "away = \"B\"\nstatus = \"defaulted\"\ndefaulted_by = \"B\"",
            "away = \"B\"\nstatus = \"defaulted\"\ndefaulted_by = \"Away\"",
        );
    assert_eq!(sides.matches("defaulted_by = \"").count(), 2);
    assert!(!sides.contains("defaulted_by = \"A\"") && !sides.contains("defaulted_by = \"B\""));
    let by_side = run(&sides).unwrap();
    assert_eq!(standing(&by_side, "A"), standing(&r, "A"));
    assert_eq!(standing(&by_side, "B"), standing(&r, "B"));
    // Notice given is warning given: both at once is refused, not a
    // warning dropped in silence.
    let err = run(&s.replace(
        "without_warning = true\n",
        "without_warning = true\nnotice_hours = 100\n",
    ))
    .unwrap_err();
    assert!(
        err.contains("M3")
            && err.contains("without_warning = true and notice_hours = 100 contradict each other"),
        "{err}"
    );
    // A default whose notice is not recorded: lost (under 72 h) or to be
    // rearranged (72 h or more) cannot be told, nor DDCL 4's warning. Not
    // scored on a guess, and said.
    for unknown in ["", "without_warning = false\n"] {
        let r = run(&s.replace("without_warning = true\n", unknown)).unwrap();
        assert!(r.notes.iter().any(|n| n.fixture == "M3"), "{unknown}");
    }
    let r = run(&s.replace("without_warning = true\n", "")).unwrap();
    assert_eq!(
        standing(&r, "B"),
        (2.5 + 5.0, 0.0, 3.0),
        "M3 not scored: B drew M1, won M2"
    );
    let rules: Vec<&str> = r.violations.iter().map(|v| v.rule.as_str()).collect();
    assert_eq!(rules, ["DDCL 3"]);
    // Nor is it a match available for player of the year until then.
    let available = |r: &Report| {
        r.poy
            .iter()
            .find(|p| p.player == "B1")
            .map(|p| p.matches_available)
    };
    let known = run(&s).unwrap();
    assert_eq!((available(&known), available(&r)), (Some(2), Some(1)));
    // The run says so and needs attention (exit 1).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("season.toml");
    std::fs::write(&path, s.replace("without_warning = true\n", "")).unwrap();
    let (_out, o) = season_run(&path);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("M3 not scored: a default whose notice is not recorded (notes.csv)"),
        "{err}"
    );
    // Both teams' standings wait on it.
    for team in ["A", "B"] {
        let s = r.standings.iter().find(|s| s.team == team).unwrap();
        assert!(
            s.note
                .contains("provisional: M3 not scored, the default's notice not recorded"),
            "{team}: {}",
            s.note
        );
    }
    let note = r.notes.iter().find(|n| n.fixture == "M3").unwrap();
    assert_eq!(
        (note.rule.as_str(), note.what.as_str(), note.penalty.as_str()),
        (
            "DDCL 3",
            "B could not play, and the notice given is not recorded: whether it was under 72 h cannot be told (give notice_hours, or without_warning = true)",
            "not scored until the notice is recorded"
        )
    );
}

#[test]
fn ddcl_10_late_substitute_is_noted() {
    // A6 (150) stands in on board 5 for A5 (110).
    let boards = all_draws().replacen("home = \"A5\", away = \"B5\", result = \"1/2-1/2\"", "home = \"A6\", away = \"B5\", result = \"1/2-1/2\", substitute = \"home\", replaces = \"A5\"", 1);
    let in_order = |b: &str| ddcl_season(&["150", "140", "130", "120", "110", "150"], "", b);
    let r = run(&in_order(&boards)).unwrap();
    assert_eq!(r.violations.len(), 1);
    assert_eq!(r.violations[0].rule, "DDCL 10");
    assert!(r.violations[0]
        .what
        .contains("graded 150, more than 10 above A5 (110)"));
    // "Unless both captains agree": agreed, a note and no breach.
    let agreed = boards.replacen(
        "replaces = \"A5\"",
        "replaces = \"A5\", captains_agreed = true",
        1,
    );
    let r = run(&in_order(&agreed)).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    let note = r.notes.iter().find(|n| n.rule == "DDCL 10").unwrap();
    assert!(
        note.what
            .ends_with("graded 150, more than 10 above A5 (110): both captains agreed"),
        "{}",
        note.what
    );
    // The player replaced is the substitute's side's own.
    let other = boards.replacen("replaces = \"A5\"", "replaces = \"B5\"", 1);
    let err = run(&in_order(&other)).unwrap_err();
    assert!(
        err.contains("board 5: player \"B5\" is registered with B (club B), not with A"),
        "{err}"
    );
    let stray = all_draws().replacen(
        "result = \"1/2-1/2\"",
        "result = \"1/2-1/2\", captains_agreed = true",
        1,
    );
    let err = run(&in_order(&stray)).unwrap_err();
    assert!(err.contains("captains_agreed is for a substitute"), "{err}");
}

/// DDCL 9 forfeits "that board and all lower boards played during the
/// match", for each team that broke the order: a board both teams
/// forfeit is lost by both, and a board not played (won by default) keeps
/// its score.
#[test]
fn ddcl_9_forfeits_only_boards_played_and_both_teams_alike() {
    // A out of order from board 2 (129 above 140); B from board 3 (B5,
    // 110, on board 3 above B3, 130, on board 5).
    let boards = all_draws()
        .replace("away = \"B3\"", "away = \"BX\"")
        .replace("away = \"B5\"", "away = \"B3\"")
        .replace("away = \"BX\"", "away = \"B5\"");
    let r = run(&ddcl_season(
        &["150", "129", "140", "120", "110"],
        "",
        &boards,
    ))
    .unwrap();
    let penalties: Vec<(&str, Option<u32>, &str)> = r
        .violations
        .iter()
        .map(|v| (v.rule.as_str(), v.board, v.penalty.as_str()))
        .collect();
    assert_eq!(
        penalties,
        [
            (
                "DDCL 7; DDCL 9",
                Some(2),
                "boards 2-5 forfeited and 1 point deducted"
            ),
            (
                "DDCL 7; DDCL 9",
                Some(3),
                "boards 3-5 forfeited and 1 point deducted"
            ),
        ]
    );
    // Board 1 drawn, board 2 to B, boards 3-5 lost by both: ½-1½, and
    // each team a point off.
    assert_eq!(standing(&r, "A"), (0.5, 1.0, -1.0));
    assert_eq!(standing(&r, "B"), (1.5, 1.0, 1.0));
    // B's board 5 empty without notice: A's win by default there was not
    // played, and stays A's.
    let boards: String = all_draws()
        .lines()
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + "  { board = 5, home = \"A5\" },\n";
    // B gave no notice (0 h): its board 5 is lost, not a tie.
    let r = run(&ddcl_season(
        &["150", "129", "140", "120", "110"],
        "short_notice_hours = 0",
        &boards,
    ))
    .unwrap();
    let out_of_order = r
        .violations
        .iter()
        .find(|v| v.rule == "DDCL 7; DDCL 9")
        .unwrap();
    assert_eq!(
        out_of_order.penalty,
        "boards 2-4 forfeited and 1 point deducted"
    );
    assert_eq!(standing(&r, "A"), (1.5, 1.0, -1.0));
    assert_eq!(standing(&r, "B"), (3.5, 0.0, 2.0));
    // A league whose text forfeits "all below", played or not (no
    // `forfeit_played_only`): board 5 goes too, and B, with nobody there,
    // does not win it.
    let dir = tempfile::tempdir().unwrap();
    let ddcl = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/leagues/ddcl.toml"),
    )
    .unwrap()
    .replace("forfeit_played_only = true\n", "");
    std::fs::write(dir.path().join("all-below.toml"), ddcl).unwrap();
    let season = ddcl_season(
        &["150", "129", "140", "120", "110"],
        "short_notice_hours = 0",
        &boards,
    )
    .replace("rules = \"ddcl\"", "rules = \"all-below.toml\"");
    std::fs::write(dir.path().join("season.toml"), season).unwrap();
    let r = process(&load(&dir.path().join("season.toml"), false).unwrap());
    let all_below = r
        .violations
        .iter()
        .find(|v| v.rule == "DDCL 7; DDCL 9")
        .unwrap();
    assert_eq!(
        all_below.penalty,
        "boards 2-5 forfeited and 1 point deducted"
    );
    assert_eq!(standing(&r, "A"), (0.5, 1.0, -1.0));
    assert_eq!(standing(&r, "B"), (3.5, 0.0, 2.0));
    // A's board 5 empty with notice (DDCL 5, a tie): it stays a tie.
    let boards = boards.replace(
        "{ board = 5, home = \"A5\" }",
        "{ board = 5, away = \"B5\" }",
    );
    let r = run(&ddcl_season(
        &["150", "129", "140", "120", "110"],
        "short_notice_hours = 72",
        &boards,
    ))
    .unwrap();
    assert_eq!(standing(&r, "A"), (1.0, 1.0, -1.0));
    assert_eq!(standing(&r, "B"), (4.0, 0.0, 2.0));
}

/// DDCL 10 lets a late substitute be weaker than the player nominated, and
/// DDCL 7's order is the team list's: a weaker substitute on the
/// nominated player's board breaks no order. One standing in for a player
/// who plays another board is refused.
#[test]
fn ddcl_10_a_weaker_substitute_keeps_the_nominated_players_place() {
    let boards = all_draws().replacen(
        "home = \"A2\", away = \"B2\", result = \"1/2-1/2\"",
        "home = \"A6\", away = \"B2\", result = \"1/2-1/2\", substitute = \"home\", replaces = \"A2\"",
        1,
    );
    let grades = ["150", "140", "130", "120", "110", "100"];
    let r = run(&ddcl_season(&grades, "", &boards)).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(standing(&r, "A"), (2.5, 0.0, 1.0));
    assert!(r
        .notes
        .iter()
        .any(|n| n.rule == "DDCL 10" && n.board == Some(2)));
    let twice = boards.replacen("replaces = \"A2\"", "replaces = \"A3\"", 1);
    let err = run(&ddcl_season(&grades, "", &twice)).unwrap_err();
    assert!(
        err.contains("board 2: the substitute replaces A3, who plays board 3 of this match"),
        "{err}"
    );
    // One absent player replaced on two boards, and a substitute named on
    // an empty seat: refused.
    let two = boards.replacen(
        "home = \"A5\", away = \"B5\", result = \"1/2-1/2\"",
        "home = \"A7\", away = \"B5\", result = \"1/2-1/2\", substitute = \"home\", replaces = \"A2\"",
        1,
    );
    let seven = ["150", "140", "130", "120", "110", "100", "90"];
    let err = run(&ddcl_season(&seven, "", &two)).unwrap_err();
    assert!(
        err.contains(
            "board 5: A2 is replaced on board 2 already: one absent player has one substitute"
        ),
        "{err}"
    );
    let empty = boards.replacen(
        "home = \"A6\", away = \"B2\", result = \"1/2-1/2\"",
        "away = \"B2\"",
        1,
    );
    let err = run(&ddcl_season(&grades, "", &empty)).unwrap_err();
    assert!(
        err.contains("board 2: a substitute is named, but that side's seat is empty"),
        "{err}"
    );
}

/// A match played for another team of the club was available to the
/// player: it counts on both sides of DDCL 15's three quarters, so played
/// never exceeds available.
#[test]
fn ddcl_15_matches_for_another_team_of_the_club_are_available_too() {
    let mut s = in_order(&all_draws()).replacen(
        "[[teams]]\nname = \"B\"",
        "[[teams]]\nname = \"A II\"\nclub = \"A\"\ndivision = \"1\"\n[[teams]]\nname = \"B\"",
        1,
    );
    s.push_str("[[fixtures]]\nid = \"M2\"\ndate = \"2009-10-22\"\nhome = \"A II\"\naway = \"B\"\nboards = [\n  { board = 1, home = \"A1\", away = \"B1\", result = \"1-0\" },\n  { board = 2, away = \"B2\" },\n  { board = 3, away = \"B3\" },\n  { board = 4, away = \"B4\" },\n  { board = 5, away = \"B5\" },\n]\n");
    let r = run(&s).unwrap();
    let a1 = r.poy.iter().find(|p| p.player == "A1").unwrap();
    assert_eq!((a1.matches_played, a1.matches_available), (2, 2));
    let a2 = r.poy.iter().find(|p| p.player == "A2").unwrap();
    assert_eq!((a2.matches_played, a2.matches_available), (1, 1));
}

#[test]
fn ddcl_14_cup_handicap_bands() {
    let ddcl = League::builtin("ddcl").unwrap();
    let cup = ddcl.cup.as_ref().unwrap();
    for (diff, handicap) in [
        (0.0, 0.0),
        (30.0, 0.0),
        (31.0, 0.5),
        (40.0, 0.5),
        (41.0, 1.0),
        (60.0, 1.0),
        (61.0, 1.5),
        (200.0, 1.5),
    ] {
        assert_eq!(cup.handicap(diff), handicap, "difference {diff}");
    }
    // A forfeited board or an ungraded player counts as the average of the others.
    assert_eq!(cup.grade_total(&[Some(150), Some(140), Some(130)]), 560.0);
    assert_eq!(
        cup.grade_total(&[Some(150), None, Some(140), Some(130)]),
        560.0
    );
}

#[test]
fn ddcl_15_player_of_the_year_needs_three_quarters_of_the_matches() {
    let mut s = in_order(&all_draws());
    let mut extra = String::new();
    for (n, date) in ["2009-10-22", "2009-11-05", "2009-11-19"]
        .iter()
        .enumerate()
    {
        extra.push_str(&format!("[[fixtures]]\nid = \"X{n}\"\ndate = \"{date}\"\nhome = \"A\"\naway = \"B\"\nboards = [\n"));
        for b in 1..=5 {
            // A1 sits out the last match, A2 the last two.
            let home = if (b == 1 && n == 2) || (b == 2 && n >= 1) {
                String::new()
            } else {
                format!("home = \"A{b}\", ")
            };
            let result = if home.is_empty() {
                String::new()
            } else {
                ", result = \"1-0\"".to_string()
            };
            extra.push_str(&format!(
                "  {{ board = {b}, {home}away = \"B{b}\"{result} }},\n"
            ));
        }
        extra.push_str("]\n");
    }
    s.push_str(&extra);
    let r = run(&s).unwrap();
    let a1 = r.poy.iter().find(|p| p.player == "A1").unwrap();
    assert_eq!(
        (a1.matches_played, a1.matches_available, a1.eligible),
        (3, 4, true)
    );
    let a2 = r.poy.iter().find(|p| p.player == "A2").unwrap();
    assert_eq!(
        (a2.matches_played, a2.matches_available, a2.eligible),
        (2, 4, false)
    );
    assert_eq!(a2.rank, None);
}

#[test]
fn bad_season_data_names_file_fixture_and_board() {
    let s = ddcl_season(
        &GRADED,
        "",
        &all_draws().replace("away = \"B3\"", "away = \"Nobody\""),
    );
    let e = run(&s).unwrap_err();
    assert!(
        e.contains("season.toml: fixture M1, board 3: unknown player \"Nobody\""),
        "{e}"
    );
    let s = ddcl_season(
        &GRADED,
        "",
        &all_draws().replace("away = \"B3\"", "away = \"B2\""),
    );
    let e = run(&s).unwrap_err();
    assert!(
        e.contains("board 3: player \"B2\" also plays board 2 of this match"),
        "{e}"
    );
    let s = ddcl_season(
        &GRADED,
        "",
        &all_draws().replace("result = \"1/2-1/2\" }", "result = \"win\" }"),
    );
    let e = run(&s).unwrap_err();
    assert!(
        e.contains("board 1: result \"win\" is not 1-0, 0-1 or 1/2-1/2"),
        "{e}"
    );
    let s = ddcl_season(&["150"], "", "").replace(
        "team = \"A\"\ngrade = 150",
        "team = \"A\"\ngrade = 150\ncolour = \"red\"",
    );
    let e = run(&s).unwrap_err();
    assert!(e.contains("colour"), "{e}");
}

fn csv_rows(dir: &Path, file: &str) -> Vec<Row> {
    parse_csv(&std::fs::read(dir.join(file)).unwrap())
}

/// The (fixture, board, rule) of each row of violations.csv or notes.csv.
fn fixture_board_rule(rows: &[Row]) -> Vec<(&str, &str, &str)> {
    rows.iter()
        .map(|r| {
            (
                r["fixture"].as_str(),
                r["board"].as_str(),
                r["rule"].as_str(),
            )
        })
        .collect()
}

#[test]
fn ddcl_sample_season_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "season",
            sample("season/ddcl-2009-10.toml").to_str().unwrap(),
            "--out",
            dir.path().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // The final is referred (Carr, 14(d)): said on the screen; the first
    // round's ties, decided, are not.
    assert!(
        err.contains("ddcl-2009-10.toml: 1 cup tie for the competition organiser to decide (cup.csv says why): KO-F\n"),
        "{err}"
    );
    let st = csv_rows(dir.path(), "standings.csv");
    let table: Vec<(String, String, String, String)> = st
        .iter()
        .map(|r| {
            (
                r["position"].clone(),
                r["team"].clone(),
                r["game_points"].clone(),
                r["match_points"].clone(),
            )
        })
        .collect();
    let s = |a: &str, b: &str, c: &str, d: &str| {
        (a.to_string(), b.to_string(), c.to_string(), d.to_string())
    };
    assert_eq!(
        table,
        vec![
            s("1", "Middlesbrough B", "13", "5"),
            s("2", "Guisborough", "10", "4"),
            s("3", "Darlington A", "9", "3"),
            s("4", "Stockton A", "8", "1"),
        ]
    );
    let v = csv_rows(dir.path(), "violations.csv");
    let rules = fixture_board_rule(&v);
    // Breaches only; DDCL 5 ties and DDCL 10 substitutes are notes.
    let n = csv_rows(dir.path(), "notes.csv");
    let noted = fixture_board_rule(&n);
    // The cup's ungraded player with no estimate agreed: the average
    // stands in, and is said (14(m)).
    assert_eq!(
        noted,
        vec![
            ("D1-2", "5", "DDCL 5"),
            ("D1-7", "2", "DDCL 10"),
            ("KO-2", "4", "DDCL 14(m)"),
            ("", "", "DDCL 12")
        ]
    );
    assert_eq!(n[0]["effect"], "board 5 classed as a tie, not graded");
    assert_eq!(
        n[2]["effect"],
        "counted as the average of the team's other graded players"
    );
    assert_eq!(
        rules,
        vec![
            ("D1-3", "5", "DDCL 5"),
            ("D1-4", "2", "DDCL 7; DDCL 9"),
            ("D1-5", "4", "DDCL 8; DDCL 9"),
            ("D1-6", "", "DDCL 3"),
            ("D1-8", "", "DDCL 3"),
            ("D1-8", "", "DDCL 4"),
            ("KO-1", "4", "DDCL 14(c)"),
            ("KO-F", "4", "DDCL 14(d)"),
        ]
    );
    let cup = csv_rows(dir.path(), "cup.csv");
    assert_eq!(
        (
            cup[1]["home_grade_total"].as_str(),
            cup[1]["away_grade_total"].as_str(),
            cup[1]["handicap"].as_str(),
            cup[1]["handicap_to"].as_str()
        ),
        ("576", "536", "0.5", "Guisborough")
    );
    assert_eq!(
        (
            cup[1]["home_total"].as_str(),
            cup[1]["away_total"].as_str(),
            cup[1]["winner"].as_str()
        ),
        ("2.5", "2", "Stockton A")
    );
    assert_eq!(
        (
            cup[0]["away_grade_total"].as_str(),
            cup[0]["away_boards"].as_str()
        ),
        ("597.33", "1.5")
    );
    assert_eq!(
        (
            cup[2]["handicap"].as_str(),
            cup[2]["home_total"].as_str(),
            cup[2]["away_total"].as_str(),
            cup[2]["tiebreak"].as_str(),
            cup[2]["winner"].as_str()
        ),
        // Carr has played no league game for Darlington: referred (14(d),
        // (p)), what the games give said, no winner named meanwhile.
        ("1", "2.5", "2.5", "referred to the competition organiser (DDCL 14(p)): Carr, Jim not eligible for the final (DDCL 14(d)); as played: replay 2.5-1.5, Stockton A", "")
    );
    let grading = csv_rows(dir.path(), "grading.csv");
    assert_eq!(grading.len(), 39);
    assert_eq!(
        (
            grading[0]["white"].as_str(),
            grading[0]["white_grade"].as_str(),
            grading[0]["black"].as_str(),
            grading[0]["score"].as_str(),
            grading[0]["colour"].as_str()
        ),
        ("Thompson, Karen", "168", "Hewitt, Mark", "1-0", "white")
    );
    assert!(
        grading
            .iter()
            .all(|g| !(g["match"] == "Stockton A v Guisborough" && g["board"] == "5")),
        "board-5 tie is not graded"
    );
    let poy = csv_rows(dir.path(), "player-of-year.csv");
    assert_eq!(
        (
            poy[0]["rank"].as_str(),
            poy[0]["player"].as_str(),
            poy[0]["ratio"].as_str()
        ),
        ("1", "Reid, Tom", "1.000")
    );
}

#[test]
fn ecf_submission_file_field_by_field() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "season",
            sample("season/ddcl-2009-10.toml").to_str().unwrap(),
            "-o",
            dir.path().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = std::fs::read_to_string(dir.path().join("ecf-submission.txt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        &lines[..15],
        [
            "#EVENT DETAILS",
            "#EVENT CODE=DDCL0910",
            "#SUBMISSION INDEX=1",
            "#EVENT NAME=Darlington & District League 2009-10 Division 1",
            "#EVENT DATE=08/10/2009",
            "#FINAL RESULT DATE=30/04/2010",
            "#RESULTS OFFICER=Ian Hartley",
            "#RESULTS OFFICER ADDRESS=12 Grange Road, Darlington DL1 5NA",
            "#TREASURER=Colin Whitfield",
            "#TREASURER ADDRESS=4 Coniscliffe Road, Darlington DL3 7RG",
            "#MOVES FIRST SESSION=36",
            "#MINUTES FIRST SESSION=75",
            "#MINUTES REST OF GAME=15",
            "#PLAYER LIST",
            "#PIN=1#ECF CODE=123456A#NAME=Thompson, Karen#CLUB NAME=Darlington",
        ]
    );
    let first_match = lines
        .iter()
        .position(|l| l.starts_with("#MATCH RESULTS="))
        .unwrap();
    assert_eq!(
        lines[first_match],
        "#MATCH RESULTS=Darlington A v Middlesbrough B, 08/10/2009"
    );
    // One part a fixture, each named apart (teams meet more than once).
    let parts: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("#MATCH RESULTS="))
        .collect();
    let distinct: std::collections::BTreeSet<&&&str> = parts.iter().collect();
    assert_eq!(distinct.len(), parts.len(), "{parts:?}");
    // Guisborough and Darlington A meet again (the sample's postponed D1-9
    // played): two parts, told apart by date; on one day, by id too.
    let sample_text = std::fs::read_to_string(sample("season/ddcl-2009-10.toml")).unwrap();
    let d14 = &sample_text[sample_text.find("id = \"D1-4\"").unwrap()..];
    let boards = &d14[d14.find("boards = [").unwrap()..];
    let boards = &boards[..boards.find("]\n").unwrap() + 2];
    for (date, want) in [
        (
            "2009-12-03",
            [
                "#MATCH RESULTS=Guisborough v Darlington A, 22/10/2009",
                "#MATCH RESULTS=Guisborough v Darlington A, 03/12/2009",
            ],
        ),
        (
            "2009-10-22",
            [
                "#MATCH RESULTS=Guisborough v Darlington A, 22/10/2009 (D1-4)",
                "#MATCH RESULTS=Guisborough v Darlington A, 22/10/2009 (D1-9)",
            ],
        ),
    ] {
        let again = dir.path().join(format!("again-{date}"));
        std::fs::create_dir_all(&again).unwrap();
        for f in std::fs::read_dir(sample("season")).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, again.join(f.file_name().unwrap())).unwrap();
        }
        let text = sample_text.replace(
            "date = \"2009-12-03\"\nround = \"5\"\nhome = \"Guisborough\"\naway = \"Darlington A\"\nstatus = \"postponed\"\n",
            &format!("date = \"{date}\"\nround = \"5\"\nhome = \"Guisborough\"\naway = \"Darlington A\"\n{boards}"),
        );
        assert_ne!(text, sample_text);
        std::fs::write(again.join("ddcl-2009-10.toml"), text).unwrap();
        let out = again.join("out");
        let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["season", "-q"])
            .arg(again.join("ddcl-2009-10.toml"))
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            o.status.code().is_some_and(|c| c < 2),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let file = std::fs::read_to_string(out.join("ecf-submission.txt")).unwrap();
        let parts: Vec<&str> = file
            .lines()
            .filter(|l| l.starts_with("#MATCH RESULTS=Guisborough v Darlington A"))
            .collect();
        assert_eq!(parts, want, "{date}");
    }
    assert_eq!(
        lines[first_match + 1],
        "#PIN1=1#SCORE=10#PIN2=2#BOARD=1#COLOUR=WHITE#GAME DATE=08/10/2009"
    );
    assert_eq!(
        lines[first_match + 2],
        "#PIN1=4#SCORE=55#PIN2=3#BOARD=2#COLOUR=BLACK#GAME DATE=08/10/2009"
    );
    assert_eq!(*lines.last().unwrap(), "#FINISH");
    // League games only: 5 + 4 + 4 + 5 + 5 + 5 (board-5 tie, default and cup games left out).
    assert_eq!(lines.iter().filter(|l| l.starts_with("#PIN1=")).count(), 28);
    assert!(
        !text.contains("Carr, Jim"),
        "cup-only players are not in the league file"
    );
}

const HSL_HEAD: &str = r#"
league = "HS"
season = "2021-22"
rules = "hs-league"
[[teams]]
name = "H"
club = "H"
[[teams]]
name = "V"
club = "V"
"#;

fn hsl_season(fixtures: &str) -> String {
    let mut s = HSL_HEAD.to_string();
    for t in ["H", "V"] {
        for b in 1..=7 {
            s.push_str(&format!("[[players]]\nname = \"{t}{b}\"\nteam = \"{t}\"\nschool_grade = 10\npreseason_board = {b}\n"));
        }
    }
    s + fixtures
}

fn hsl_match(id: &str, date: &str, order: [u32; 7]) -> String {
    let mut s = format!(
        "[[fixtures]]\nid = \"{id}\"\ndate = \"{date}\"\nhome = \"H\"\naway = \"V\"\nboards = [\n"
    );
    for (i, p) in order.iter().enumerate() {
        s.push_str(&format!(
            "  {{ board = {}, home = \"H{p}\", away = \"V{}\", result = \"1/2-1/2\" }},\n",
            i + 1,
            i + 1
        ));
    }
    s + "]\n"
}

#[test]
fn hsl_ii_starting_ratings_and_k() {
    let hsl = League::builtin("hs-league").unwrap();
    assert_eq!(
        (1..=10).map(|b| hsl.starting_rating(b)).collect::<Vec<_>>(),
        [1600.0, 1500.0, 1400.0, 1300.0, 1200.0, 1100.0, 1000.0, 1000.0, 900.0, 900.0]
    );
    // An even game is worth 16 points: K = 32.
    assert_eq!(
        hsl.ratings.as_ref().unwrap().k * (1.0 - expected(1500.0, 1500.0)),
        16.0
    );
}

#[test]
fn hsl_vi_lineup_moves_and_the_first_match_exception() {
    // VI.1 and VI.2: in a first match the lineup before the season is the
    // previous one, so a player moves at most one board from the board
    // assigned there ("may play" that board, not must). H1 and H3 swapping
    // moves each two: illegal, and the match is forfeited (VII).
    let r = run(&hsl_season(&hsl_match(
        "M1",
        "2022-01-12",
        [3, 2, 1, 4, 5, 6, 7],
    )))
    .unwrap();
    let v: Vec<(&str, Option<u32>, &str)> = r
        .violations
        .iter()
        .map(|v| (v.rule.as_str(), v.board, v.what.as_str()))
        .collect();
    assert_eq!(
        v,
        [
            (
                "HSL VI.1; HSL VI.2",
                Some(1),
                "H3 played board 1 in a first match: more than one board from board 3, assigned before the season"
            ),
            (
                "HSL VI.1; HSL VI.2",
                Some(3),
                "H1 played board 3 in a first match: more than one board from board 1, assigned before the season"
            ),
        ]
    );
    let h = r.standings.iter().find(|s| s.team == "H").unwrap();
    assert_eq!((h.lost, h.match_points), (1, 0.0));
    // H1 and H2 swapping moves each one board: legal.
    let swap = hsl_season(&hsl_match("M1", "2022-01-12", [2, 1, 3, 4, 5, 6, 7]));
    let r = run(&swap).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    // A league that reads VI.2 as "must" says so: first_match_board_move = 0.
    let dir = tempfile::tempdir().unwrap();
    let league = std::fs::read_to_string("templates/leagues/hs-league.toml")
        .unwrap()
        .replace("first_match_board_move = 1", "first_match_board_move = 0");
    assert!(league.contains("first_match_board_move = 0"));
    std::fs::write(dir.path().join("strict.toml"), league).unwrap();
    let season = dir.path().join("season.toml");
    std::fs::write(
        &season,
        swap.replace("rules = \"hs-league\"", "rules = \"strict.toml\""),
    )
    .unwrap();
    let r = process(&load(&season, false).unwrap());
    let v: Vec<(&str, &str)> = r
        .violations
        .iter()
        .map(|v| (v.rule.as_str(), v.what.as_str()))
        .collect();
    assert_eq!(
        v,
        [
            (
                "HSL VI.2",
                "H2 played board 1 in a first match; the board assigned before the season is 2"
            ),
            (
                "HSL VI.2",
                "H1 played board 2 in a first match; the board assigned before the season is 1"
            ),
        ]
    );
    // On the assigned boards: legal.
    let r = run(&hsl_season(&hsl_match(
        "M1",
        "2022-01-12",
        [1, 2, 3, 4, 5, 6, 7],
    )))
    .unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    // VI.1: later matches compare with the previous lineup, one board either way.
    let two = hsl_match("M1", "2022-01-12", [1, 2, 3, 4, 5, 6, 7])
        + &hsl_match("M2", "2022-01-19", [2, 3, 1, 4, 5, 6, 7]);
    let r = run(&hsl_season(&two)).unwrap();
    let v: Vec<(&str, &str, Option<u32>)> = r
        .violations
        .iter()
        .map(|v| (v.fixture.as_str(), v.rule.as_str(), v.board))
        .collect();
    // H2 (2, then 1) and H3 (3, then 2) moved one; H1 (1, then 3) two.
    assert_eq!(v, [("M2", "HSL VI.1", Some(3))]);
}

/// A player without a field the HS league's rules need is an error naming
/// the player and the field, not dozens of ineligible boards.
#[test]
fn hsl_players_need_their_school_grade_and_board() {
    let s = hsl_season(&hsl_match("M1", "2022-01-12", [1, 2, 3, 4, 5, 6, 7])).replacen(
        "name = \"H3\"\nteam = \"H\"\nschool_grade = 10\n",
        "name = \"H3\"\nteam = \"H\"\n",
        1,
    );
    let err = run(&s).unwrap_err();
    assert!(
        err.contains("player \"H3\": school_grade is missing"),
        "{err}"
    );
}

#[test]
fn hsl_iv_and_xiii_forfeits() {
    let mut m = hsl_match("M1", "2022-01-12", [1, 2, 3, 4, 5, 6, 7]);
    m = m.replace(
        "{ board = 7, home = \"H7\", away = \"V7\", result = \"1/2-1/2\" }",
        "{ board = 7, home = \"H7\" }",
    );
    let r = run(&hsl_season(&m)).unwrap();
    // A forfeit rating is what XIII provides for: a note.
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(r.notes.len(), 2);
    assert_eq!(r.notes[0].rule, "HSL XIII");
    // The league sets no match-point scale: the table's is said as the
    // arbiter's default.
    assert_eq!(
        (r.notes[1].rule.as_str(), r.notes[1].what.as_str()),
        (
            "arbiter default (the HSL rules set no match-point scale)",
            "match points in the standings: 1 a match won, 0.5 drawn, 0 lost"
        )
    );
    let h7 = r.ratings.iter().find(|p| p.player == "H7").unwrap();
    assert_eq!((h7.forfeit_wins, h7.rating), (1, 1016.0));
    let v7 = r.ratings.iter().find(|p| p.player == "V7").unwrap();
    assert_eq!(v7.rating, 1000.0, "the no-show loses nothing");
    // An empty board above a played one is an illegal lineup.
    let gap = hsl_match("M1", "2022-01-12", [1, 2, 3, 4, 5, 6, 7]).replace(
        "{ board = 4, home = \"H4\", away = \"V4\", result = \"1/2-1/2\" }",
        "{ board = 4, home = \"H4\" }",
    );
    let r = run(&hsl_season(&gap)).unwrap();
    assert_eq!(
        r.notes.iter().map(|v| v.rule.as_str()).collect::<Vec<_>>(),
        [
            "HSL XIII",
            "arbiter default (the HSL rules set no match-point scale)"
        ]
    );
    assert_eq!(
        r.violations
            .iter()
            .map(|v| v.rule.as_str())
            .collect::<Vec<_>>(),
        ["HSL IV"]
    );
    let v = r.standings.iter().find(|s| s.team == "V").unwrap();
    assert_eq!((v.lost, v.match_points), (1, 0.0));
}

#[test]
fn hsl_sample_season() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "season",
            sample("season/hs-league-2021-22.toml").to_str().unwrap(),
            "-o",
            dir.path().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let st = csv_rows(dir.path(), "standings.csv");
    assert_eq!(
        (
            st[0]["team"].as_str(),
            st[0]["won"].as_str(),
            st[0]["match_points"].as_str()
        ),
        ("North HS", "2", "2")
    );
    let v = csv_rows(dir.path(), "violations.csv");
    let rules: Vec<&str> = v.iter().map(|r| r["rule"].as_str()).collect();
    // Clark and Lee swapped boards 4 and 5 in their first match: one board
    // from those assigned before the season, which VI.1 allows.
    assert_eq!(rules, ["HSL VI.1", "HSL IV"]);
    // Two grade-8 players (HSL II: eligible on conditions the record does
    // not show) are noted, not breaches.
    let notes = csv_rows(dir.path(), "notes.csv");
    let noted: Vec<&str> = notes.iter().map(|r| r["rule"].as_str()).collect();
    assert_eq!(
        noted,
        [
            "HSL XIII",
            "HSL II",
            "HSL II",
            "HSL XIII",
            "arbiter default (the HSL rules set no match-point scale)"
        ]
    );
    let ratings = csv_rows(dir.path(), "ratings.csv");
    let garcia = ratings
        .iter()
        .find(|r| r["player"] == "Garcia, Luis")
        .unwrap();
    assert_eq!(
        (
            garcia["start_rating"].as_str(),
            garcia["forfeit_wins"].as_str()
        ),
        ("1000", "1")
    );
    // HSL III: the visiting team has White on odd boards.
    let grading = csv_rows(dir.path(), "grading.csv");
    assert_eq!(
        (
            grading[0]["board"].as_str(),
            grading[0]["colour"].as_str(),
            grading[0]["white"].as_str()
        ),
        ("1", "black", "Miller, Jack")
    );
    assert_eq!(
        (grading[1]["board"].as_str(), grading[1]["colour"].as_str()),
        ("2", "white")
    );
}

#[test]
fn level_teams_get_a_play_off_note() {
    // One drawn match: both teams on 1 match point and 2½ game points (DDCL 12).
    let r = run(&in_order(&all_draws())).unwrap();
    assert!(
        r.standings
            .iter()
            .all(|s| s.note.contains("play-off (DDCL 12)")),
        "{:?}",
        r.standings
    );
    assert_eq!(
        r.standings.iter().map(|s| s.position).collect::<Vec<_>>(),
        [1, 1]
    );
}

/// The two DDCL teams with four graded players each, for a cup tie.
fn cup_teams() -> String {
    let mut s = DDCL_HEAD.to_string();
    for t in ["A", "B"] {
        for b in 1..=4 {
            s.push_str(&format!(
                "[[players]]\nname = \"{t}{b}\"\nteam = \"{t}\"\ngrade = {}\n",
                150 - b * 10
            ));
        }
    }
    s
}

/// DDCL 14(m) counts an ungraded player as "the average of the grades of
/// the 3 other players": with no graded player on a side there is none
/// to take. Where the handicap could turn the tie, it goes to the
/// organiser (14(p)), no winner named; where the boards decide it whatever
/// the handicap (at most 1½), the winner stands, said. It was given a
/// total of 0, the handicap on it, and a winner.
#[test]
fn ddcl_14_a_cup_side_with_no_graded_player_is_referred() {
    let s = cup_teams()
        .replace("team = \"B\"\ngrade = 140\n", "team = \"B\"\n")
        .replace("team = \"B\"\ngrade = 130\n", "team = \"B\"\n")
        .replace("team = \"B\"\ngrade = 120\n", "team = \"B\"\n")
        .replace("team = \"B\"\ngrade = 110\n", "team = \"B\"\n");
    assert!(!s.contains("team = \"B\"\ngrade"), "{s}");
    let tie = |results: [&str; 4]| {
        let mut t = s.clone();
        t.push_str("[[fixtures]]\nid = \"KO\"\ndate = \"2010-01-07\"\ncompetition = \"cup\"\nhome = \"A\"\naway = \"B\"\nhome_colour_board1 = \"white\"\nboards = [\n");
        for (b, result) in (1..=4).zip(results) {
            t.push_str(&format!(
                "  {{ board = {b}, home = \"A{b}\", away = \"B{b}\", result = \"{result}\" }},\n"
            ));
        }
        t.push_str("]\n");
        run(&t).unwrap()
    };
    // 2½-1½ on the boards (colours alternate): a handicap of 1½ turns it.
    let r = tie(["0-1", "1/2-1/2", "1-0", "0-1"]);
    let cup = &r.cup[0];
    assert_eq!(cup.winner, "");
    assert!(cup.organiser);
    assert_eq!(
        cup.tiebreak,
        "referred to the competition organiser (DDCL 14(p)): B has no graded player, so its grade total cannot be taken (DDCL 14(m)); as played: B"
    );
    let note = r.notes.iter().find(|n| n.board == Some(1)).unwrap();
    assert_eq!(
        note.penalty,
        "the team has no graded player to average: its grade total cannot be taken (cup.csv)"
    );
    // 0-4: no handicap turns it.
    let r = tie(["0-1", "1-0", "0-1", "1-0"]);
    let cup = &r.cup[0];
    assert_eq!(cup.winner, "B", "{cup:?}");
    assert!(!cup.organiser);
    assert_eq!(
        cup.tiebreak,
        "B has no graded player, so its grade total cannot be taken (DDCL 14(m)): 0-4 on the boards decides the tie whatever the handicap (at most 1.5)"
    );
}

#[test]
fn ddcl_14_cup_tie_without_tie_break_games_is_left_open() {
    let mut s = cup_teams();
    s.push_str("[[fixtures]]\nid = \"KO\"\ndate = \"2010-01-07\"\ncompetition = \"cup\"\nhome = \"A\"\naway = \"B\"\nhome_colour_board1 = \"white\"\nboards = [\n");
    for b in 1..=4 {
        s.push_str(&format!(
            "  {{ board = {b}, home = \"A{b}\", away = \"B{b}\", result = \"1/2-1/2\" }},\n"
        ));
    }
    s.push_str("]\n");
    let r = run(&s).unwrap();
    let cup = &r.cup[0];
    assert_eq!(
        (cup.difference, cup.handicap, cup.home_total, cup.away_total),
        (0.0, 0.0, 2.0, 2.0)
    );
    assert_eq!(cup.winner, "");
    assert_eq!(
        cup.tiebreak,
        "tied: the replay with colours reversed (DDCL 14(l)) to be played"
    );
    // DDCL 14(l): "each team member shall play the same opponent, with
    // different colours". A replay decides only when all of it is played
    // so; short of that, what is missing is said and nobody wins.
    let replay = |games: &[(u32, &str, &str, &str)]| {
        let mut t = s.clone();
        t.push_str("tiebreaks = [\n");
        for (b, away, result, colour) in games {
            t.push_str(&format!(
                "  {{ board = {b}, home = \"A{b}\", away = \"{away}\", result = \"{result}\", home_colour = \"{colour}\" }},\n"
            ));
        }
        t.push_str("]\n");
        let c = run(&t.replacen("]\ntiebreaks", "]\n\ntiebreaks", 1))
            .unwrap()
            .cup
            .remove(0);
        (c.tiebreak, c.winner)
    };
    // Board 1 had White at home: the replay gives it Black, and so on.
    let full = [
        (1, "B1", "0-1", "black"),
        (2, "B2", "1/2-1/2", "white"),
        (3, "B3", "1/2-1/2", "black"),
        (4, "B4", "1/2-1/2", "white"),
    ];
    assert_eq!(replay(&full), ("replay 2.5-1.5".into(), "A".into()));
    assert_eq!(
        replay(&full[..1]),
        (
            "tied: the replay (DDCL 14(l)) does not decide it yet: not yet replayed: board 2 (A2 v B2), board 3 (A3 v B3), board 4 (A4 v B4)".into(),
            String::new()
        )
    );
    // A board listed twice is not the fourth pair replayed.
    let mut twice = full;
    twice[3] = (1, "B1", "0-1", "black");
    assert_eq!(
        replay(&twice).0,
        "tied: the replay (DDCL 14(l)) does not decide it yet: replay board 1 listed twice; not yet replayed: board 4 (A4 v B4)"
    );
    let mut other = full;
    other[0].1 = "B2";
    assert_eq!(
        replay(&other).0,
        "tied: the replay (DDCL 14(l)) does not decide it yet: replay board 1: A1 v B2, not the match's pair A1 v B1 (the same opponent)"
    );
    let mut same = full;
    same[0].3 = "white";
    assert_eq!(
        replay(&same).0,
        "tied: the replay (DDCL 14(l)) does not decide it yet: replay board 1: the same colours as in the match, not different ones"
    );
    // A player who did not come to the replay: referred, not scored.
    let mut absent = s.clone() + "tiebreaks = [\n";
    for (b, away, result, colour) in &full[..3] {
        absent.push_str(&format!("  {{ board = {b}, home = \"A{b}\", away = \"{away}\", result = \"{result}\", home_colour = \"{colour}\" }},\n"));
    }
    absent.push_str("  { board = 4, home = \"A4\", home_colour = \"white\" },\n]\n");
    let c = run(&absent).unwrap().cup.remove(0);
    assert_eq!(
        (c.tiebreak.as_str(), c.winner.as_str(), c.organiser),
        (
            "tied: the replay (DDCL 14(l)) does not decide it yet: replay board 4: B4 did not play the replay: referred to the competition organiser (DDCL 14(p))",
            "",
            true
        )
    );
    // Colours not written are not known to differ.
    let t = s.clone()
        + "tiebreaks = [\n"
        + &full
            .iter()
            .map(|(b, away, result, _)| {
                format!("  {{ board = {b}, home = \"A{b}\", away = \"{away}\", result = \"{result}\" }},\n")
            })
            .collect::<String>()
        + "]\n";
    let c = run(&t).unwrap().cup.remove(0);
    assert!(
        c.tiebreak
            .contains("replay board 1: its colours are not recorded (home_colour)")
            && c.winner.is_empty(),
        "{}",
        c.tiebreak
    );
    // A level replay goes to single games.
    let level = [
        (1, "B1", "1/2-1/2", "black"),
        (2, "B2", "1/2-1/2", "white"),
        (3, "B3", "1/2-1/2", "black"),
        (4, "B4", "1/2-1/2", "white"),
    ];
    assert_eq!(
        replay(&level),
        (
            "replay 2-2; still tied: single games (DDCL 14(l)) to be played".into(),
            String::new()
        )
    );
    // Single games: one nominated player a team, then "1 other player
    // from each team" while they are drawn; colours tossed, so written.
    let tie = |games: &[&str]| {
        // B5 plays for B's club but not in this tie.
        let mut t = s.replacen(
            "[[players]]",
            "[[players]]\nname = \"B5\"\nteam = \"B\"\ngrade = 100\n[[players]]",
            1,
        ) + "tiebreaks = [\n";
        for (b, away, result, colour) in &level {
            t.push_str(&format!("  {{ board = {b}, home = \"A{b}\", away = \"{away}\", result = \"{result}\", home_colour = \"{colour}\" }},\n"));
        }
        for g in games {
            t.push_str(&format!("  {{ {g} }},\n"));
        }
        run(&(t + "]\n")).unwrap().cup.remove(0)
    };
    let singles = |games: &[&str]| {
        let c = tie(games);
        (c.tiebreak, c.winner)
    };
    let game = |b: u32, home: &str, away: &str, rest: &str| {
        format!("board = {b}, home = \"{home}\", away = \"{away}\", {rest}")
    };
    let drawn = game(1, "A1", "B1", "result = \"1/2-1/2\"");
    assert_eq!(
        singles(&[
            &drawn,
            &game(2, "A2", "B3", "result = \"0-1\", home_colour = \"white\"")
        ]),
        ("replay 2-2, single game 2".into(), "B".into())
    );
    assert_eq!(
        singles(&[&drawn, &game(2, "A2", "B3", "score = \"1-0\"")]),
        ("replay 2-2, single game 2".into(), "A".into())
    );
    // For the organiser where a player is referred, not where a game's
    // record is short.
    assert!(
        tie(&[
            &drawn,
            &game(2, "A1", "B3", "result = \"1-0\", home_colour = \"white\"")
        ])
        .organiser
    );
    assert!(!tie(&[&drawn, &game(2, "A2", "B3", "result = \"1-0\"")]).organiser);
    assert!(!tie(&[&drawn]).organiser);
    assert_eq!(
        singles(&[&drawn, &game(2, "A1", "B3", "result = \"1-0\", home_colour = \"white\"")]),
        (
            "replay 2-2; single game 2: A1 played an earlier single game, where DDCL 14(l) nominates 1 other player from each team: referred to the competition organiser (DDCL 14(p))".into(),
            String::new()
        )
    );
    assert_eq!(
        singles(&[&drawn, &game(2, "A2", "B3", "result = \"1-0\"")]),
        (
            "replay 2-2; single game 2: its colours are not recorded (home_colour), so who won is not known".into(),
            String::new()
        )
    );
    assert_eq!(
        singles(&[&drawn]),
        (
            "replay 2-2; still tied: single games (DDCL 14(l)) to be played".into(),
            String::new()
        )
    );
    // "This shall continue until a winner emerges": once all four of a
    // team have played a single game, a player may be nominated again.
    let four: Vec<String> = (1..=4)
        .map(|i| {
            game(
                i,
                &format!("A{i}"),
                &format!("B{i}"),
                "result = \"1/2-1/2\"",
            )
        })
        .collect();
    let fifth = game(5, "A2", "B3", "result = \"1-0\", home_colour = \"black\"");
    let mut five: Vec<&str> = four.iter().map(String::as_str).collect();
    five.push(&fifth);
    assert_eq!(
        singles(&five),
        ("replay 2-2, single game 5".into(), "B".into())
    );
    // A player who did not play in the tie is not the captain's to
    // nominate; a game listed after the deciding one is not counted.
    assert_eq!(
        singles(&[&drawn, &game(2, "A2", "B5", "result = \"0-1\", home_colour = \"white\"")]),
        (
            "replay 2-2; single game 2: B5 did not play in the tie, where DDCL 14(l) has each captain nominate a team member: referred to the competition organiser (DDCL 14(p))".into(),
            String::new()
        )
    );
    assert_eq!(
        singles(&[&game(1, "A1", "B1", "result = \"1-0\", home_colour = \"white\""), &game(2, "A2", "B2", "result = \"0-1\", home_colour = \"white\"")]),
        (
            "replay 2-2; single game 1 decided the tie, yet single game 2 is listed after it: which games were played is for the competition organiser (DDCL 14(p))".into(),
            String::new()
        )
    );
    // A seat not yet filled is a nomination to come, not a no-show.
    assert_eq!(
        singles(&[&drawn, "board = 2, home = \"A2\""]),
        (
            "replay 2-2; single game 2: a player is still to be nominated".into(),
            String::new()
        )
    );
}

/// DDCL 14(c): a team short of players forfeits "commencing with board 4".
/// A seat left empty higher up is said as such (not as board 4), the
/// boards scored as played, and referred to the organiser.
#[test]
fn ddcl_14_c_an_empty_seat_above_board_4_is_said_and_referred() {
    let mut s = cup_teams();
    s.push_str("[[fixtures]]\nid = \"KO\"\ndate = \"2010-01-07\"\ncompetition = \"cup\"\nhome = \"A\"\naway = \"B\"\nhome_colour_board1 = \"white\"\nboards = [\n");
    for b in 1..=4 {
        let away = if b == 2 {
            String::new()
        } else {
            format!(", away = \"B{b}\", result = \"1/2-1/2\"")
        };
        s.push_str(&format!("  {{ board = {b}, home = \"A{b}\"{away} }},\n"));
    }
    s.push_str("]\n");
    let r = run(&s).unwrap();
    let v: Vec<(Option<u32>, &str, &str)> = r
        .violations
        .iter()
        .filter(|v| v.rule == "DDCL 14(c)")
        .map(|v| (v.board, v.what.as_str(), v.penalty.as_str()))
        .collect();
    assert_eq!(
        v,
        [(
            Some(2),
            "B fielded 3 players and left board 2 empty, where the forfeits commence with board 4",
            "scored as played, board 2 to A; referred to the competition organiser (DDCL 14(p))"
        )]
    );
    // Board 2 to A, the three games drawn: 2.5-1.5 on the boards, but the
    // organiser decides: no winner named meanwhile.
    assert_eq!((r.cup[0].home_total, r.cup[0].away_total), (2.5, 1.5));
    assert_eq!(
        (r.cup[0].tiebreak.as_str(), r.cup[0].winner.as_str()),
        (
            "referred to the competition organiser (DDCL 14(p)): B left a seat empty above the bottom board (DDCL 14(c)); as played: A",
            ""
        )
    );
}

/// A board left out is an error, not a double default; a board beyond the
/// league's five is an error, not a sixth game.
#[test]
fn missing_and_extra_boards_are_refused() {
    let four: String = all_draws()
        .lines()
        .take(4)
        .map(|l| format!("{l}\n"))
        .collect();
    let err = run(&in_order(&four)).unwrap_err();
    assert!(
        err.contains("fixture M1, board 5: board 5 is missing"),
        "{err}"
    );
    // Written as an empty board it is a default, as before.
    let empty = four.clone() + "  { board = 5 },\n";
    let r = run(&in_order(&empty)).unwrap();
    assert_eq!(standing(&r, "A").0, 2.0);
    let six = all_draws() + "  { board = 6 },\n";
    let err = run(&in_order(&six)).unwrap_err();
    assert!(err.contains("board 6: this match has 5 boards"), "{err}");
}

/// A match card's score, home player first, beside or instead of the
/// White-first result; the two must agree.
#[test]
fn home_first_scores() {
    // DDCL 6: the away team has Black on odd boards, so A (home) has Black on board 2.
    let card = all_draws().replace(
        "{ board = 2, home = \"A2\", away = \"B2\", result = \"1/2-1/2\" }",
        "{ board = 2, home = \"A2\", away = \"B2\", score = \"1-0\" }",
    );
    let r = run(&in_order(&card)).unwrap();
    // A2 won with Black: 0-1 White first; A scores 2 draws x 4 + 1 = 3.
    assert_eq!(standing(&r, "A").0, 3.0);
    let g = r.grading.iter().find(|g| g.board == 2).unwrap();
    assert_eq!(g.score.as_str(), "0-1");
    let both = all_draws().replace(
        "{ board = 2, home = \"A2\", away = \"B2\", result = \"1/2-1/2\" }",
        "{ board = 2, home = \"A2\", away = \"B2\", result = \"1-0\", score = \"1-0\" }",
    );
    let err = run(&in_order(&both)).unwrap_err();
    assert!(
        err.contains("board 2: result 1-0 (White first) and score 1-0 (home first, the home player Black) disagree"),
        "{err}"
    );
}

/// HSL XIV: teams level on match points go to a play-off; the HS league has
/// no game-point tie-break (that is DDCL 12's), so they rank equal.
#[test]
fn hsl_xiv_ties_rank_equal_for_a_play_off() {
    let m1 = hsl_match("M1", "2022-01-12", [1, 2, 3, 4, 5, 6, 7]).replacen(
        "{ board = 1, home = \"H1\", away = \"V1\", result = \"1/2-1/2\" }",
        "{ board = 1, home = \"H1\", away = \"V1\", score = \"1-0\" }",
        1,
    );
    let m2 = hsl_match("M2", "2022-01-19", [1, 2, 3, 4, 5, 6, 7])
        .replacen(
            "{ board = 1, home = \"H1\", away = \"V1\", result = \"1/2-1/2\" }",
            "{ board = 1, home = \"H1\", away = \"V1\", score = \"0-1\" }",
            1,
        )
        .replacen(
            "{ board = 2, home = \"H2\", away = \"V2\", result = \"1/2-1/2\" }",
            "{ board = 2, home = \"H2\", away = \"V2\", score = \"0-1\" }",
            1,
        );
    let r = run(&hsl_season(&format!("{m1}{m2}"))).unwrap();
    let rows: Vec<(u32, &str, f64, &str)> = r
        .standings
        .iter()
        .map(|s| (s.position, s.team.as_str(), s.game_points, s.note.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            (
                1,
                "V",
                7.5,
                "level with H on match points: play-off (HSL XIV)"
            ),
            (
                1,
                "H",
                6.5,
                "level with V on match points: play-off (HSL XIV)"
            ),
        ]
    );
}

/// A folder written by one season and then another holds the second's
/// files only: the DDCL's player-of-year.csv and cup.csv do not linger
/// beside an HS league's outputs.
#[test]
fn an_out_folder_never_mixes_two_runs() {
    let dir = tempfile::tempdir().unwrap();
    let run_season = |file: &str| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["season", "-q", sample(file).to_str().unwrap(), "-o"])
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let ddcl = run_season("season/ddcl-2009-10.toml");
    assert!(ddcl.contains(&"cup.csv".to_string()), "{ddcl:?}");
    std::fs::write(dir.path().join("mine.txt"), "a grader's own file").unwrap();
    let hsl = run_season("season/hs-league-2021-22.toml");
    assert_eq!(
        hsl,
        [
            "grading.csv",
            "mine.txt",
            "notes.csv",
            "ratings.csv",
            "standings.csv",
            "violations.csv"
        ]
    );
}

/// DDCL 14(h): a team that cannot play a cup tie forfeits the match and the
/// other goes through; cup.csv names the winner.
#[test]
fn ddcl_14h_a_defaulted_cup_tie_is_forfeited() {
    let mut s = cup_teams();
    s.push_str("[[fixtures]]\nid = \"KO\"\ndate = \"2010-01-07\"\ncompetition = \"cup\"\nhome = \"A\"\naway = \"B\"\nstatus = \"defaulted\"\ndefaulted_by = \"B\"\n");
    let r = run(&s).unwrap();
    let cup = &r.cup[0];
    assert_eq!(
        (
            cup.home_total,
            cup.away_total,
            cup.winner.as_str(),
            cup.tiebreak.as_str()
        ),
        (4.0, 0.0, "A", "B forfeited the match (DDCL 14(h))")
    );
    let v: Vec<(&str, &str, &str)> = r
        .violations
        .iter()
        .map(|v| (v.rule.as_str(), v.what.as_str(), v.penalty.as_str()))
        .collect();
    assert_eq!(
        v,
        [(
            "DDCL 14(h)",
            "B could not play the tie",
            "match forfeited: A goes through"
        )]
    );
    assert!(r.grading.is_empty());
}

/// DDCL 15's open questions are settings: a match the opponent defaulted is
/// not "available" unless the league says so; players level on ratio and
/// grade increase share a rank.
#[test]
fn ddcl_15_player_of_the_year_settings_and_ties() {
    let base = in_order(&all_draws())
        + "[[fixtures]]\nid = \"M2\"\ndate = \"2009-10-22\"\nhome = \"B\"\naway = \"A\"\nstatus = \"defaulted\"\ndefaulted_by = \"B\"\nnotice_hours = 24\n";
    let r = run(&base).unwrap();
    let a1 = r.poy.iter().find(|p| p.player == "A1").unwrap();
    assert_eq!(
        (a1.matches_played, a1.matches_available, a1.eligible),
        (1, 1, true)
    );
    // Every eligible player drew his one game: all level, all first.
    assert!(
        r.poy
            .iter()
            .filter(|p| p.eligible)
            .all(|p| p.rank == Some(1)),
        "{:?}",
        r.poy
    );
    let counted = base.replacen(
        "[[fixtures]]",
        "[player_of_year]\ndefaulted_matches_available = true\n\n[[fixtures]]",
        1,
    );
    let r = run(&counted).unwrap();
    let a1 = r.poy.iter().find(|p| p.player == "A1").unwrap();
    assert_eq!(
        (a1.matches_played, a1.matches_available, a1.eligible),
        (1, 2, false)
    );
    // With 72 hours' notice the match is to be rearranged (DDCL 3): no
    // match anyone missed, whatever the setting, for either side.
    let r = run(&counted.replace("notice_hours = 24", "notice_hours = 72")).unwrap();
    for p in ["A1", "B1"] {
        let row = r.poy.iter().find(|x| x.player == p).unwrap();
        assert_eq!(
            (row.matches_played, row.matches_available, row.eligible),
            (1, 1, true),
            "{p}"
        );
    }
}

/// DDCL 15's tie-break, "the highest % increase in grading points", parts
/// players level on points a game only where each increase is known: a
/// grade that fell is not above one not known.
#[test]
fn ddcl_15_tie_break_needs_every_increase() {
    let base = in_order(&all_draws());
    let with_end = |s: &str, who: &str, grade: u32, end: u32| {
        s.replacen(
            &format!(
                "name = \"{who}\"\nteam = \"{}\"\ngrade = {grade}\n",
                &who[..1]
            ),
            &format!(
                "name = \"{who}\"\nteam = \"{}\"\ngrade = {grade}\nend_grade = {end}\n",
                &who[..1]
            ),
            1,
        )
    };
    let some = with_end(&with_end(&base, "A1", 150, 165), "A2", 140, 126);
    let ranks = |text: &str| -> Vec<(String, Option<u32>)> {
        let r = run(text).unwrap();
        r.poy.iter().map(|p| (p.player.clone(), p.rank)).collect()
    };
    let got = ranks(&some);
    assert!(got.iter().all(|(_, r)| *r == Some(1)), "{got:?}");
    // Every increase known: A1 (+10 %) first, the unchanged level second,
    // A2 (-10 %) last.
    let mut all = some.clone();
    for (who, g) in [
        ("A3", 130),
        ("A4", 120),
        ("A5", 110),
        ("B1", 150),
        ("B2", 140),
        ("B3", 130),
        ("B4", 120),
        ("B5", 110),
    ] {
        all = with_end(&all, who, g, g);
    }
    let got = ranks(&all);
    assert_eq!(got.first(), Some(&("A1".to_string(), Some(1))), "{got:?}");
    assert_eq!(got.last(), Some(&("A2".to_string(), Some(10))), "{got:?}");
    assert!(got[1..9].iter().all(|(_, r)| *r == Some(2)), "{got:?}");
    // The run says the first place is not decided.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("season.toml");
    std::fs::write(&path, &some).unwrap();
    let (_out, o) = season_run(&path);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("player of the year not decided: A1; A2; A3; A4; 6 more are level on points a game, and the tie-break by grade increase cannot part them: a grade increase is not known (each needs a grade and an end_grade)"),
        "{err}"
    );
}

/// A game on a board later forfeited under DDCL 9 counts for the player of
/// the year unless the league says otherwise.
#[test]
fn ddcl_15_games_on_forfeited_boards() {
    // A1 (110) above A2 (150): boards 1-5 forfeited under DDCL 9.
    let base = ddcl_season(&["110", "150", "130", "120", "140"], "", &all_draws());
    let r = run(&base).unwrap();
    assert!(r.violations.iter().any(|v| v.rule == "DDCL 7; DDCL 9"));
    assert_eq!(
        r.poy.iter().find(|p| p.player == "A1").map(|p| p.games),
        Some(1)
    );
    let excluded = base.replacen(
        "[[fixtures]]",
        "[player_of_year]\ncount_forfeited_boards = false\n\n[[fixtures]]",
        1,
    );
    let r = run(&excluded).unwrap();
    assert!(
        r.poy.iter().all(|p| !p.player.starts_with('A')),
        "{:?}",
        r.poy
    );
    // B's games stand: B fielded its team in order.
    assert_eq!(
        r.poy.iter().find(|p| p.player == "B1").map(|p| p.games),
        Some(1)
    );
}

/// HSL IV: a forfeited board must be a bottom one. A no-show is recorded as
/// such (the lineup keeps the name): on a middle board it is a breach and
/// the match is forfeited; the opponent's win is rated under XIII.
#[test]
fn hsl_iv_a_no_show_on_a_middle_board() {
    let m = hsl_match("M1", "2022-01-12", [1, 2, 3, 4, 5, 6, 7]).replace(
        "{ board = 4, home = \"H4\", away = \"V4\", result = \"1/2-1/2\" }",
        "{ board = 4, home = \"H4\", away = \"V4\", no_show = \"home\" }",
    );
    let r = run(&hsl_season(&m)).unwrap();
    let v: Vec<(&str, Option<u32>, &str)> = r
        .violations
        .iter()
        .map(|v| (v.rule.as_str(), v.board, v.what.as_str()))
        .collect();
    assert_eq!(
        v,
        [(
            "HSL IV",
            Some(4),
            "H4 of H did not show on board 4, above a played board: a forfeited board must be a bottom one"
        )]
    );
    assert_eq!(r.notes[0].what, "V4 wins by forfeit: H4 did not show");
    let h = r.standings.iter().find(|s| s.team == "H").unwrap();
    assert_eq!(h.lost, 1);
    // The same no-show on the bottom board breaks no rule.
    let bottom = hsl_match("M1", "2022-01-12", [1, 2, 3, 4, 5, 6, 7]).replace(
        "{ board = 7, home = \"H7\", away = \"V7\", result = \"1/2-1/2\" }",
        "{ board = 7, home = \"H7\", away = \"V7\", no_show = \"home\" }",
    );
    let r = run(&hsl_season(&bottom)).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

/// The ECF's results-submission layout (its field definitions, as recorded in
/// rules.md §10.1 from ecfrating.org.uk/doc/spec/field_def.html, 15 Apr 2022):
/// field names are compared without spaces; EVENT DETAILS holds the nine
/// mandatory fields in order and one time-limit combination; PLAYER LIST holds
/// PIN sets; each MATCH RESULTS part holds PIN1 sets whose first three fields
/// are PIN1, SCORE, PIN2, with only the match fields after them; every PIN1 and
/// PIN2 is a PIN of the list; FINISH ends the file. Returns what breaks it.
fn ecf_layout_errors(text: &str) -> Vec<String> {
    let key = |n: &str| n.replace(' ', "").to_ascii_uppercase();
    let fields: Vec<(String, Option<String>)> = text
        .split('#')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(|f| match f.split_once('=') {
            Some((n, v)) => (key(n), Some(v.to_string())),
            None => (key(f), None),
        })
        .collect();
    let mut errors = Vec::new();
    let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
    if names.first() != Some(&"EVENTDETAILS") {
        errors.push("the file does not start with EVENT DETAILS".into());
    }
    if names.last() != Some(&"FINISH") {
        errors.push("the file does not end with FINISH".into());
    }
    let list = names.iter().position(|n| *n == "PLAYERLIST");
    let Some(list) = list else {
        errors.push("no PLAYER LIST".into());
        return errors;
    };
    let details = &fields[1..list];
    let mandatory = [
        "EVENTCODE",
        "SUBMISSIONINDEX",
        "EVENTNAME",
        "EVENTDATE",
        "FINALRESULTDATE",
        "RESULTSOFFICER",
        "RESULTSOFFICERADDRESS",
        "TREASURER",
        "TREASURERADDRESS",
    ];
    let got: Vec<&str> = details
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| mandatory.contains(n))
        .collect();
    if got != mandatory {
        errors.push(format!("EVENT DETAILS mandatory fields are {got:?}"));
    }
    for (n, v) in details {
        if mandatory.contains(&n.as_str()) && v.as_deref().is_none_or(|v| v.trim().is_empty()) {
            errors.push(format!("{n} has no value"));
        }
    }
    let time: Vec<&str> = details
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| n.starts_with("MINUTES") || n.starts_with("MOVES"))
        .collect();
    let combinations: [&[&str]; 4] = [
        &["MINUTESFORGAME"],
        &[
            "MOVESFIRSTSESSION",
            "MINUTESFIRSTSESSION",
            "MINUTESRESTOFGAME",
        ],
        &[
            "MOVESFIRSTSESSION",
            "MINUTESFIRSTSESSION",
            "MOVESSECONDSESSION",
            "MINUTESSECONDSESSION",
        ],
        &[
            "MOVESFIRSTSESSION",
            "MINUTESFIRSTSESSION",
            "MOVESSECONDSESSION",
            "MINUTESSECONDSESSION",
            "MINUTESRESTOFGAME",
        ],
    ];
    if !combinations.contains(&time.as_slice()) {
        errors.push(format!("time limit fields {time:?} are no ECF combination"));
    }
    let player_fields = [
        "PIN",
        "ECFCODE",
        "NAME",
        "SURNAME",
        "FORENAME",
        "INITIALS",
        "GENDER",
        "TITLE",
        "DATEOFBIRTH",
        "CLUBCODE",
        "CLUBNAME",
        "CLUBCOUNTY",
        "ECFNO",
        "FIDENO",
        "COMMENT",
    ];
    let match_fields = [
        "PIN1", "PIN2", "SCORE", "COLOUR", "BOARD", "GAMEDATE", "COMMENT",
    ];
    let mut pins = std::collections::HashSet::new();
    let mut i = list + 1;
    while i < fields.len() && fields[i].0 == "PIN" {
        let pin = fields[i].1.clone().unwrap_or_default();
        if !pins.insert(pin.clone()) {
            errors.push(format!("PIN {pin} is listed twice"));
        }
        i += 1;
        while i < fields.len()
            && fields[i].0 != "PIN"
            && player_fields.contains(&fields[i].0.as_str())
        {
            if fields[i].0 == "ECFCODE" {
                let c = fields[i].1.clone().unwrap_or_default();
                let b = c.as_bytes();
                if !(b.len() == 7
                    && b[..6].iter().all(u8::is_ascii_digit)
                    && b"ABCDEFGHJKL".contains(&b[6]))
                {
                    errors.push(format!("ECF CODE {c:?} has not the ECF's shape"));
                }
            }
            i += 1;
        }
    }
    let mut parts = 0;
    while i < fields.len() && fields[i].0 == "MATCHRESULTS" {
        parts += 1;
        i += 1;
        while i < fields.len() && fields[i].0 == "PIN1" {
            let set: Vec<&(String, Option<String>)> = std::iter::once(&fields[i])
                .chain(
                    fields[i + 1..]
                        .iter()
                        .take_while(|(n, _)| n != "PIN1" && match_fields.contains(&n.as_str())),
                )
                .collect();
            let order: Vec<&str> = set.iter().take(3).map(|(n, _)| n.as_str()).collect();
            if order != ["PIN1", "SCORE", "PIN2"] {
                errors.push(format!("a game's fields start {order:?}"));
            }
            for (n, v) in &set {
                let v = v.clone().unwrap_or_default();
                if (n == "PIN1" || n == "PIN2") && !pins.contains(&v) {
                    errors.push(format!("{n}={v} is not in the PLAYER LIST"));
                }
                if n == "SCORE" && !["10", "01", "55"].contains(&v.as_str()) {
                    errors.push(format!("SCORE={v}"));
                }
                if n == "GAMEDATE"
                    && !(v.len() == 10 && v.as_bytes()[2] == b'/' && v.as_bytes()[5] == b'/')
                {
                    errors.push(format!("GAME DATE={v} is not dd/mm/yyyy"));
                }
            }
            i += set.len();
        }
    }
    if parts == 0 {
        errors.push("no MATCH RESULTS part".into());
    }
    if i != fields.len() - 1 {
        errors.push(format!("unexpected field {:?} at field {i}", fields.get(i)));
    }
    errors
}

/// `arbiter season -q` on the DDCL sample, its outputs in a new folder.
fn ddcl_sample_season() -> (tempfile::TempDir, std::process::Output) {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "season",
            "-q",
            sample("season/ddcl-2009-10.toml").to_str().unwrap(),
            "-o",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    (dir, o)
}

/// The sample season's ECF file follows the ECF's layout, and the checker
/// itself finds a broken one.
#[test]
fn ecf_submission_file_follows_the_published_layout() {
    let (dir, o) = ddcl_sample_season();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(dir.path().join("ecf-submission.txt")).unwrap();
    assert_eq!(ecf_layout_errors(&text), Vec::<String>::new());
    let swapped = text.replacen("#SCORE=10#PIN2=2", "#PIN2=2#SCORE=10", 1);
    assert_eq!(
        ecf_layout_errors(&swapped),
        ["a game's fields start [\"PIN1\", \"PIN2\", \"SCORE\"]"]
    );
    let no_treasurer = text.replace("#TREASURER=Colin Whitfield\n", "");
    assert_eq!(ecf_layout_errors(&no_treasurer).len(), 1);
    let unknown_pin = text.replacen("#PIN2=2#", "#PIN2=999#", 1);
    assert_eq!(
        ecf_layout_errors(&unknown_pin),
        ["PIN2=999 is not in the PLAYER LIST"]
    );
}

/// An ECF code that has not the ECF's shape (six digits, a check letter from
/// ABCDEFGHJKL) is refused, naming the player and the field.
#[test]
fn malformed_ecf_codes_are_refused() {
    let text = std::fs::read_to_string(sample("season/ddcl-2009-10.toml")).unwrap();
    for bad in ["12345A", "123456I", "1234567", "ABCDEFG"] {
        let season = text.replacen(
            "ecf_code = \"123456A\"",
            &format!("ecf_code = \"{bad}\""),
            1,
        );
        assert_ne!(season, text);
        let err = run(&season).map(|_| ()).unwrap_err();
        assert!(
            err.contains(&format!(
                "player \"Thompson, Karen\": ecf_code \"{bad}\" is not an ECF code"
            )),
            "{err}"
        );
    }
}

/// Players without an ECF code are named in a warning when the ECF file is
/// written: the grading office has to match them by name.
#[test]
fn ecf_file_warns_of_players_without_codes() {
    let (dir, o) = ddcl_sample_season();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("ecf-submission.txt: 18 players without an ECF code, to be matched by name: Middleton, Gordon; Whitfield, Colin;"),
        "{err}"
    );
    assert!(dir.path().join("ecf-submission.txt").exists());
}

/// The one containment rule for the paths a season file names, and no file
/// content quoted in an error.
#[test]
fn season_paths_are_contained() {
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("league");
    std::fs::create_dir(&inner).unwrap();
    let base = in_order(&all_draws());
    let load_with = |extra: &str| {
        let path = inner.join("season.toml");
        std::fs::write(
            &path,
            base.replacen("rules = \"ddcl\"", &format!("rules = \"ddcl\"\n{extra}"), 1),
        )
        .unwrap();
        load(&path, false).map(|_| ())
    };
    // Not a built-in and not a ruleset file: refused without opening it.
    let err = load_with("ruleset = \"/etc/passwd\"").unwrap_err();
    assert!(err.contains("unknown ruleset \"/etc/passwd\""), "{err}");
    assert!(!err.contains("root:"), "{err}");
    // A ruleset file outside the season's folder.
    std::fs::write(dir.path().join("r.toml"), "x").unwrap();
    let err = load_with("ruleset = \"../r.toml\"").unwrap_err();
    assert!(err.contains("leads out of the folder"), "{err}");
    let err = load_with("ruleset = \"/tmp/r.toml\"").unwrap_err();
    assert!(err.contains("an absolute path"), "{err}");
    // A board's PGN outside the folder.
    let pgn = all_draws().replacen("result = \"1/2-1/2\" }", "pgn = \"../../etc/passwd\" }", 1);
    let path = inner.join("season.toml");
    std::fs::write(&path, in_order(&pgn)).unwrap();
    let err = load(&path, false).unwrap_err();
    assert!(err.contains("leads out of the folder"), "{err}");
    // A TOML error names the line, not the text on it.
    std::fs::write(&path, "league = \"x\"\nsecret = \"hunter2\" = 3\n").unwrap();
    let err = load(&path, false).unwrap_err();
    assert!(
        err.contains("(line 2)") && !err.contains("hunter2"),
        "{err}"
    );
    // A device is not a season file: refused at once, memory untouched.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["season", "/dev/zero", "-o"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/dev/zero: is not a regular file"));
}

/// A season's `rules` names the league; a ruleset's name there, and a
/// league's name given to `-r`, each get a message saying which key takes
/// what.
#[test]
fn league_and_ruleset_names_say_which_key_takes_what() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sample("season/ddcl-2009-10.toml"))
        .unwrap()
        .replacen("rules = \"ddcl\"", "rules = \"ecf-quickplay\"", 1);
    let file = dir.path().join("season.toml");
    std::fs::write(&file, text).unwrap();
    let o = common::arbiter(&[
        "season",
        file.to_str().unwrap(),
        "--out",
        dir.path().join("out").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("season.toml (line 5): \"ecf-quickplay\" is a ruleset: `rules` names the league (\"ddcl\", \"hs-league\" or a league file), and `ruleset = \"ecf-quickplay\"` the rules its games are judged under"),
        "{err}"
    );
    let o = common::arbiter(&[
        "adjudicate",
        "-r",
        "ddcl",
        sample("ddcl-league-match.pgn").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown ruleset \"ddcl\"; it could mean:\n  ecf-quickplay   DDCL league, ECF Quickplay Finish\n  ddcl-cup "), "{err}");
    assert!(err.contains("\"ddcl\" is also a league"), "{err}");
}

/// A board judged from PGN that the record cannot settle says why and how
/// to settle it (its game key); the same decisions file `adjudicate` takes
/// then finishes the season.
#[test]
fn an_undecided_board_is_finished_by_a_recorded_decision() {
    let dir = tempfile::tempdir().unwrap();
    // An illegal move under BCF-style rules with no clocks: review.
    std::fs::write(
        dir.path().join("g.pgn"),
        "[Event \"Test League\"]\n[White \"A1\"]\n[Black \"B1\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n",
    )
    .unwrap();
    let boards = all_draws().replacen("result = \"1/2-1/2\" },\n", "pgn = \"g.pgn\" },\n", 1);
    let season = dir.path().join("season.toml");
    std::fs::write(&season, in_order(&boards)).unwrap();
    let out = dir.path().join("out");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "season",
            season.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = common::arbiter(&args);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // Undecided: everything else is written, the board is listed, exit 1.
    let (code, err) = run(&[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("1 board pending"), "{err}");
    assert!(
        err.contains("record decisions and run with --decisions"),
        "{err}"
    );
    let pending = parse_csv(&std::fs::read(out.join("pending.csv")).unwrap());
    assert_eq!(pending.len(), 1);
    let p = &pending[0];
    assert_eq!(
        (p["board"].as_str(), p["home"].as_str(), p["away"].as_str()),
        ("1", "A1", "B1")
    );
    assert_eq!(
        p["reason"],
        "pgn \"g.pgn\": the game's result cannot be decided under ecf-quickplay: the game is unfinished after 2. Nf3"
    );
    let key = p["game_key"].clone();
    assert_eq!(key.len(), 33);
    // The match is not scored meanwhile (its other games are graded), and
    // the table and the notes say so.
    let standings = parse_csv(&std::fs::read(out.join("standings.csv")).unwrap());
    let a = standings.iter().find(|r| r["team"] == "A").unwrap();
    assert_eq!(
        (a["played"].as_str(), a["game_points"].as_str()),
        ("0", "0")
    );
    assert_eq!(
        parse_csv(&std::fs::read(out.join("grading.csv")).unwrap()).len(),
        4
    );
    let notes = parse_csv(&std::fs::read(out.join("notes.csv")).unwrap());
    assert!(
        notes
            .iter()
            .any(|n| n["note"] == "board 1 is not decided yet (pending.csv)"
                && n["effect"] == "the match is not scored until then"),
        "{notes:?}"
    );
    assert!(
        a["note"].ends_with("; provisional: 1 board pending (M1 board 1)"),
        "{}",
        a["note"]
    );
    let decisions = dir.path().join("decisions.csv");
    std::fs::write(
        &decisions,
        format!("game_key,result,rule,decided_by\n{key},1-0,DDCL 13,League secretary\n0000000000000001-0000000000000002,1-0,DDCL 13,League secretary\n"),
    )
    .unwrap();
    let (code, err) = run(&["--decisions", decisions.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    // The decision for a game no board has is said.
    assert!(err.contains("decisions.csv row 3: no game read has the key 0000000000000001-0000000000000002 (not applied)"), "{err}");
    assert!(!err.contains("row 2"), "{err}");
    let standings = parse_csv(&std::fs::read(out.join("standings.csv")).unwrap());
    let a = standings.iter().find(|r| r["team"] == "A").unwrap();
    assert_eq!(a["game_points"], "3");
    assert_eq!(a["note"], "");
    assert!(
        !out.join("pending.csv").exists(),
        "a finished season lists nothing pending"
    );
}

/// A board with both players and no result is pending, not an error that
/// stops the season; a side's empty seat still decides its board.
#[test]
fn a_board_without_a_result_is_pending() {
    let boards = all_draws().replacen(", result = \"1/2-1/2\" }", " }", 1);
    let toml = in_order(&boards);
    let r = run(&toml).unwrap();
    assert_eq!(r.pending.len(), 1);
    assert_eq!(
        (
            r.pending[0].board,
            r.pending[0].reason.as_str(),
            r.pending[0].game_key.as_str()
        ),
        (1, "both players present but no result recorded", "")
    );
    // Not scored until it is decided: no draw for a match half known.
    let a = r.standings.iter().find(|s| s.team == "A").unwrap();
    assert_eq!((a.lost, a.game_points, a.match_points), (0, 0.0, 0.0));
    // No decision settles a missing result: the hint says where it goes.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("season.toml");
    std::fs::write(&path, &toml).unwrap();
    let (_out, o) = season_run(&path);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("1 board pending")
            && err.contains("each waits for what its reason names, given in the season's files")
            && !err.contains("--decisions"),
        "{err}"
    );
}

/// A checkmate in PGN between `white` and `black` (1-0 however judged).
fn mate(white: &str, black: &str) -> String {
    format!(
        "[Event \"Test League\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n"
    )
}

/// Runs `arbiter season` on the hand-built DDCL season whose board 1 (A1
/// White, B1 Black: DDCL 6) is judged from `pgn`, with `board1` the rest of
/// its entry: exit code, stderr, the out folder.
fn season_with_board1_pgn(
    pgn: &str,
    board1: &str,
    rename: &[(&str, &str)],
) -> (Option<i32>, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.pgn"), pgn).unwrap();
    let boards = all_draws().replacen(
        "result = \"1/2-1/2\" },\n",
        &format!("pgn = \"g.pgn\"{board1} }},\n"),
        1,
    );
    let mut toml = in_order(&boards);
    for (from, to) in rename {
        toml = toml.replace(&format!("\"{from}\""), &format!("\"{to}\""));
    }
    let season = dir.path().join("season.toml");
    std::fs::write(&season, toml).unwrap();
    let o = common::arbiter(&[
        "season",
        "-q",
        season.to_str().unwrap(),
        "-o",
        dir.path().join("out").to_str().unwrap(),
    ]);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        dir,
    )
}

/// The one pending row of a run, as its cells.
fn the_pending_row(out: &Path) -> Vec<String> {
    let rows = csv_rows(out, "pending.csv");
    assert_eq!(rows.len(), 1, "{rows:?}");
    [
        "fixture", "date", "board", "home", "away", "reason", "game_key",
    ]
    .iter()
    .map(|c| rows[0][*c].clone())
    .collect()
}

/// A board's PGN holding another pair's game is not that board's game: the
/// board waits in pending.csv (naming the file, the game's players and the
/// board's), its match is not scored, and the season exits 1; a match
/// card's score does not settle it either.
#[test]
fn a_boards_pgn_of_another_pairs_game_is_pending_not_graded() {
    for board1 in ["", ", score = \"1-0\""] {
        let (code, err, dir) =
            season_with_board1_pgn(&mate("Walker, Ben", "Osei, Daniel"), board1, &[]);
        let out = dir.path().join("out");
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains("1 board pending"), "{err}");
        assert_eq!(
            the_pending_row(&out),
            [
                "M1",
                "2009-10-08",
                "1",
                "A1",
                "B1",
                "pgn \"g.pgn\": its game is Walker, Ben v Osei, Daniel, not the board's A1 v B1 (White first)",
                "",
            ]
        );
        // Boards 2-5 are graded, board 1 is not; the match waits.
        let grading = csv_rows(&out, "grading.csv");
        assert_eq!(
            grading
                .iter()
                .map(|r| r["board"].as_str())
                .collect::<Vec<_>>(),
            ["2", "3", "4", "5"]
        );
        let standings = csv_rows(&out, "standings.csv");
        let a = standings.iter().find(|r| r["team"] == "A").unwrap();
        assert_eq!(
            (
                a["played"].as_str(),
                a["game_points"].as_str(),
                a["note"].as_str()
            ),
            (
                "0",
                "0",
                "level with B on match and game points: play-off (DDCL 12); provisional: 1 board pending (M1 board 1)"
            )
        );
        let notes = csv_rows(&out, "notes.csv");
        assert!(
            notes
                .iter()
                .any(|n| n["note"] == "board 1 is not decided yet (pending.csv)"),
            "{notes:?}"
        );
    }
    // The board's own players with the colours reversed: said so.
    let (code, _, dir) = season_with_board1_pgn(&mate("B1", "A1"), "", &[]);
    assert_eq!(code, Some(1));
    assert_eq!(
        the_pending_row(&dir.path().join("out"))[5],
        "pgn \"g.pgn\": its game is B1 v A1, not the board's A1 v B1 (White first): the colours are the other way round (`home_colour` sets a board's colours)"
    );
    // Which `home_colour` puts right.
    let (code, err, dir) =
        season_with_board1_pgn(&mate("B1", "A1"), ", home_colour = \"black\"", &[]);
    assert_eq!(code, Some(0), "{err}");
    let grading = csv_rows(&dir.path().join("out"), "grading.csv");
    assert_eq!(
        (
            grading[0]["white"].as_str(),
            grading[0]["black"].as_str(),
            grading[0]["score"].as_str()
        ),
        ("B1", "A1", "1-0")
    );
}

/// A board's file holds its one game: two games (the board's first among
/// them) are not taken for it.
#[test]
fn a_boards_pgn_with_two_games_is_pending_not_graded() {
    let (code, err, dir) = season_with_board1_pgn(
        &format!("{}{}", mate("A1", "B1"), mate("A2", "B2")),
        "",
        &[],
    );
    let out = dir.path().join("out");
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        the_pending_row(&out),
        [
            "M1",
            "2009-10-08",
            "1",
            "A1",
            "B1",
            "pgn \"g.pgn\": the file holds 2 games (A1 v B1; A2 v B2), not the board's one game (A1 v B1, White first)",
            "",
        ]
    );
    assert_eq!(csv_rows(&out, "grading.csv").len(), 4);
    // A file with no game at all stays an error, as a missing file does.
    let (code, err, _dir) = season_with_board1_pgn("", "", &[]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("fixture M1, board 1: pgn \"g.pgn\": no game in the file"),
        "{err}"
    );
    let (code, err, dir) = season_with_board1_pgn(&mate("A1", "B1"), "", &[]);
    assert_eq!(code, Some(0), "{err}");
    std::fs::remove_file(dir.path().join("g.pgn")).unwrap();
    let o = common::arbiter(&[
        "season",
        dir.path().join("season.toml").to_str().unwrap(),
        "-o",
        dir.path().join("out2").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("pgn \"g.pgn\": no such file"));
}

/// Names compare as a grader reads them: "Surname, Forename" in the PGN is
/// the season's "Forename Surname", whatever the case and spacing; a tag
/// that names nobody (`?`, or none) is noted, not held against the game.
#[test]
fn a_boards_pgn_names_its_players_either_way_round() {
    let rename = [("A1", "Karen Thompson"), ("B1", "Hewitt, Mark")];
    let (code, err, dir) =
        season_with_board1_pgn(&mate("Thompson, Karen", "  mark   HEWITT "), "", &rename);
    let out = dir.path().join("out");
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.join("pending.csv").exists());
    let grading = csv_rows(&out, "grading.csv");
    assert_eq!(grading.len(), 5);
    assert_eq!(
        (
            grading[0]["board"].as_str(),
            grading[0]["white"].as_str(),
            grading[0]["black"].as_str(),
            grading[0]["score"].as_str()
        ),
        ("1", "Karen Thompson", "Hewitt, Mark", "1-0")
    );
    // Nothing noted but the match-point scale the standings rest on.
    let notes = csv_rows(&out, "notes.csv");
    assert_eq!(
        notes.iter().map(|r| r["rule"].as_str()).collect::<Vec<_>>(),
        ["DDCL 12"]
    );
    // `?` and a missing tag: graded, and noted.
    let pgn = mate("?", "B1").replace("[Black \"B1\"]\n", "");
    let (code, err, dir) = season_with_board1_pgn(&pgn, "", &[]);
    let out = dir.path().join("out");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(csv_rows(&out, "grading.csv").len(), 5);
    let notes = csv_rows(&out, "notes.csv");
    let notes: Vec<[&str; 5]> = notes
        .iter()
        .map(|n| {
            [
                n["fixture"].as_str(),
                n["board"].as_str(),
                n["rule"].as_str(),
                n["note"].as_str(),
                n["effect"].as_str(),
            ]
        })
        .collect();
    assert_eq!(
        notes,
        [
            [
                "M1",
                "1",
                "",
                "pgn \"g.pgn\": the game does not name its White player (White \"?\"): taken to be A1",
                "the game is taken as the board's"
            ],
            [
                "M1",
                "1",
                "",
                "pgn \"g.pgn\": the game does not name its Black player (no Black tag): taken to be B1",
                "the game is taken as the board's"
            ],
            [
                "",
                "",
                "DDCL 12",
                "match points in the standings: 2 a match won, 1 drawn, 0 lost",
                "standings"
            ],
        ]
    );
    // Initials: graded as the board's players, each noted.
    let (code, err, dir) = season_with_board1_pgn(&mate("Thompson, K.", "M Hewitt"), "", &rename);
    let out = dir.path().join("out");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(csv_rows(&out, "grading.csv")[0]["score"], "1-0");
    let notes: Vec<String> = csv_rows(&out, "notes.csv")
        .iter()
        .map(|n| n["note"].clone())
        .collect();
    assert_eq!(
        notes,
        [
            "pgn \"g.pgn\": the game names its White player \"Thompson, K.\": taken to be Karen Thompson",
            "pgn \"g.pgn\": the game names its Black player \"M Hewitt\": taken to be Hewitt, Mark",
            "match points in the standings: 2 a match won, 1 drawn, 0 lost",
        ]
    );
    // Another initial is another player.
    let (code, _, dir) = season_with_board1_pgn(&mate("Thompson, J.", "M Hewitt"), "", &rename);
    assert_eq!(code, Some(1));
    assert!(dir.path().join("out/pending.csv").exists());
}

/// The sample season's board-1 PGN with its names written the other way
/// round and in capitals grades exactly as the sample does.
#[test]
fn the_sample_boards_pgn_with_names_written_otherwise_grades_as_before() {
    let (sample_out, o) = ddcl_sample_season();
    assert_eq!(o.status.code(), Some(0));
    let dir = tempfile::tempdir().unwrap();
    for f in std::fs::read_dir(sample("season")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.path().join(f.file_name().unwrap())).unwrap();
    }
    let pgn = dir.path().join("f1-board1.pgn");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let renamed = text
        .replacen(
            "[White \"Thompson, Karen\"]",
            "[White \"Karen Thompson\"]",
            1,
        )
        .replacen("[Black \"Hewitt, Mark\"]", "[Black \"HEWITT,MARK\"]", 1);
    assert_ne!(renamed, text);
    std::fs::write(&pgn, renamed).unwrap();
    let (out, o) = season_run(&dir.path().join("ddcl-2009-10.toml"));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut names: Vec<_> = std::fs::read_dir(sample_out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names.len(), 7, "{names:?}");
    for n in &names {
        assert_eq!(
            std::fs::read(out.path().join(n)).unwrap(),
            std::fs::read(sample_out.path().join(n)).unwrap(),
            "{n:?}"
        );
    }
}

/// Runs `arbiter season` on a season file into a fresh folder.
/// A copy of the DDCL sample season kept in spreadsheets
/// (`ddcl-csv.toml` and its four CSV files), to break one cell of.
fn ddcl_csv_season() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "ddcl-csv.toml",
        "ddcl-teams.csv",
        "ddcl-players.csv",
        "ddcl-fixtures.csv",
        "ddcl-boards.csv",
        "f1-board1.pgn",
    ] {
        std::fs::copy(sample(&format!("season/{f}")), dir.path().join(f)).unwrap();
    }
    dir
}

fn season_run(path: &Path) -> (tempfile::TempDir, std::process::Output) {
    let dir = tempfile::tempdir().unwrap();
    let o = common::arbiter(&[
        "season",
        "-q",
        path.to_str().unwrap(),
        "-o",
        dir.path().to_str().unwrap(),
    ]);
    (dir, o)
}

/// A third league, written only as a file (board order by rating within
/// 150 points, 3/1/0 match points, defaults on 48 hours' notice), runs and
/// cites its own rules.
#[test]
fn a_league_written_only_as_a_file_runs() {
    let (dir, o) = season_run(&sample("season/county-2025-26.toml"));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let standings = csv_rows(dir.path(), "standings.csv");
    let table: Vec<Vec<&str>> = standings
        .iter()
        .map(|r| {
            [
                "position",
                "team",
                "played",
                "won",
                "lost",
                "game_points",
                "match_points",
            ]
            .iter()
            .map(|c| r[*c].as_str())
            .collect()
        })
        .collect();
    assert_eq!(
        table,
        [
            ["1", "Ashford", "2", "2", "0", "6.5", "6"],
            ["2", "Bramley", "3", "1", "2", "7", "3"],
            ["3", "Carlton", "3", "1", "2", "2.5", "3"],
        ]
    );
    let v = csv_rows(dir.path(), "violations.csv");
    assert_eq!(
        fixture_board_rule(&v),
        [("F2", "1", "ECL 6"), ("F3", "", "ECL 4")]
    );
    assert_eq!(v[0]["what"], "Carlton out of order: Carr, Ian (1600) on board 1 above Cole, Jan (1760) on board 2: more than 150 rating points apart");
    assert_eq!(v[0]["penalty"], "boards 1-4 forfeited");
    assert_eq!(v[1]["penalty"], "match lost by default, 0-4");
    let notes = csv_rows(dir.path(), "notes.csv");
    assert_eq!(
        fixture_board_rule(&notes),
        [("F4", "", "ECL 4"), ("", "", "ECL 8")]
    );
    assert_eq!(
        notes[1]["note"],
        "match points in the standings: 3 a match won, 1 drawn, 0 lost"
    );
    let grading = csv_rows(dir.path(), "grading.csv");
    assert_eq!(grading.len(), 12);
    assert_eq!(
        (
            grading[0]["event"].as_str(),
            grading[0]["white_grade"].as_str()
        ),
        ("Example County League 2025-26", "2000")
    );
    // Only what the league's rules have is written.
    for absent in ["player-of-year.csv", "cup.csv", "ratings.csv"] {
        assert!(!dir.path().join(absent).exists(), "{absent}");
    }
}

/// A league file is read like a ruleset file: beside the season file, and
/// an error in it names the file and the line.
#[test]
fn league_files_are_contained_and_their_errors_say_where() {
    let dir = tempfile::tempdir().unwrap();
    let league = std::fs::read_to_string(sample("season/county-league.toml")).unwrap();
    std::fs::write(
        dir.path().join("bad-league.toml"),
        league.replace("tolerance = 150", "tolerance = \"150\""),
    )
    .unwrap();
    let season = std::fs::read_to_string(sample("season/county-2025-26.toml")).unwrap();
    let path = dir.path().join("s.toml");
    std::fs::write(
        &path,
        season.replace("county-league.toml", "bad-league.toml"),
    )
    .unwrap();
    let (_out, o) = season_run(&path);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "s.toml: rules: bad-league.toml (line 49): invalid type: string \"150\", expected u32"
        ),
        "{err}"
    );
    std::fs::write(
        &path,
        season.replace("county-league.toml", "../county-league.toml"),
    )
    .unwrap();
    let (_out, o) = season_run(&path);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("s.toml: rules: "), "{err}");
    assert!(err.contains("--allow-outside"), "{err}");
}

/// The sample season kept in spreadsheets gives the same files as the same
/// season written in TOML, byte for byte.
#[test]
fn a_season_from_csv_files_gives_the_toml_seasons_outputs() {
    let (csv_dir, o) = season_run(&sample("season/ddcl-csv.toml"));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (toml_dir, o) = ddcl_sample_season();
    assert_eq!(o.status.code(), Some(0));
    let mut names: Vec<String> = std::fs::read_dir(toml_dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 7, "{names:?}");
    for n in &names {
        assert_eq!(
            std::fs::read(csv_dir.path().join(n)).unwrap(),
            std::fs::read(toml_dir.path().join(n)).unwrap(),
            "{n}"
        );
    }
}

/// The sample season's spreadsheets as Excel saves them on a European
/// Windows: semicolons between the columns, Windows-1252 text, CRLF. With a
/// player renamed "Thömpson" (in every file), the season grades exactly as
/// the same files saved as UTF-8 with commas do, the name as written.
#[test]
fn a_season_saved_by_excel_on_windows_reads_the_same() {
    let sheets = [
        "ddcl-teams.csv",
        "ddcl-players.csv",
        "ddcl-fixtures.csv",
        "ddcl-boards.csv",
    ];
    let copy = |excel: bool| {
        let dir = tempfile::tempdir().unwrap();
        for f in ["ddcl-csv.toml", "f1-board1.pgn"].iter().chain(&sheets) {
            let text = std::fs::read_to_string(sample(&format!("season/{f}")))
                .unwrap()
                .replace("Thompson", "Thömpson");
            let bytes = if excel && f.ends_with(".csv") {
                let mut r = csv::Reader::from_reader(text.as_bytes());
                let mut w = csv::WriterBuilder::new()
                    .delimiter(b';')
                    .terminator(csv::Terminator::CRLF)
                    .from_writer(Vec::new());
                let header = r.headers().unwrap().clone();
                w.write_record(&header).unwrap();
                // Excel's own values: TRUE and FALSE, and a grader's "u/g".
                for rec in r.records() {
                    let rec = rec.unwrap();
                    let cells: Vec<&str> = rec
                        .iter()
                        .zip(&header)
                        .map(|(c, h)| match (c, h) {
                            ("true", _) => "TRUE",
                            ("false", _) => "FALSE",
                            ("", "grade") => "u/g",
                            ("white", h) if h.starts_with("home_colour") => "White",
                            ("black", h) if h.starts_with("home_colour") => "BLACK",
                            (c, _) => c,
                        })
                        .collect();
                    w.write_record(&cells).unwrap();
                }
                let semicolons = String::from_utf8(w.into_inner().unwrap()).unwrap();
                let ansi = encoding_rs::WINDOWS_1252.encode(&semicolons).0.into_owned();
                assert!(std::str::from_utf8(&ansi).is_err() || !text.contains('ö'));
                ansi
            } else {
                text.into_bytes()
            };
            std::fs::write(dir.path().join(f), bytes).unwrap();
        }
        let (out, o) = season_run(&dir.path().join("ddcl-csv.toml"));
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        (dir, out, String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let ((_a, plain, quiet), (b, excel, noted)) = (copy(false), copy(true));
    // The Windows-1252 reading is said, once a file, where it was a guess
    // (the files with the accented name; the others are plain ASCII).
    assert!(!quiet.contains("note:"), "{quiet}");
    assert_eq!(noted.matches("arbiter: note: ").count(), 2, "{noted}");
    for f in ["ddcl-players.csv", "ddcl-boards.csv"] {
        assert!(
            noted.contains(&format!("/{f} is not UTF-8: read as Windows-1252 (Western European); if any name reads wrong, save it as UTF-8 (Excel: \"CSV UTF-8\"; Notepad: Encoding \"UTF-8\")\n")),
            "{noted}"
        );
    }
    for (f, word) in [
        ("ddcl-players.csv", "u/g"),
        ("ddcl-boards.csv", "TRUE"),
        ("ddcl-boards.csv", "White"),
        ("ddcl-fixtures.csv", "BLACK"),
    ] {
        let bytes = std::fs::read(b.path().join(f)).unwrap();
        assert!(String::from_utf8_lossy(&bytes).contains(word), "{f}");
    }
    assert!(std::fs::read_to_string(excel.path().join("grading.csv"))
        .unwrap()
        .contains("Thömpson, Karen"));
    for f in std::fs::read_dir(plain.path()).unwrap() {
        let n = f.unwrap().file_name();
        assert_eq!(
            std::fs::read(excel.path().join(&n)).unwrap(),
            std::fs::read(plain.path().join(&n)).unwrap(),
            "{n:?}"
        );
    }
}

/// Every error in a season's spreadsheet names the file, the row and the
/// column.
#[test]
fn spreadsheet_errors_name_file_row_and_column() {
    let dir = ddcl_csv_season();
    let players = std::fs::read_to_string(sample("season/ddcl-players.csv")).unwrap();
    let boards = std::fs::read_to_string(sample("season/ddcl-boards.csv")).unwrap();
    let fixtures = std::fs::read_to_string(sample("season/ddcl-fixtures.csv")).unwrap();
    let header_without_team = players.replacen("name,team,grade", "name,side,grade", 1);
    let cases = [
        (
            "ddcl-players.csv",
            header_without_team,
            "ddcl-players.csv: row 1: no column team (this file needs name, team)",
        ),
        (
            "ddcl-players.csv",
            players.replacen("Darlington A,168", "Nowhere FC,168", 1),
            "ddcl-players.csv: row 2, column team: player \"Thompson, Karen\": unknown team \"Nowhere FC\"",
        ),
        (
            "ddcl-players.csv",
            players.replacen("Darlington A,168", "Darlington A,1x8", 1),
            "ddcl-players.csv: row 2, column grade: \"1x8\" is not a whole number",
        ),
        (
            "ddcl-boards.csv",
            boards.replacen("D1-1,2,", "D9-9,2,", 1),
            "ddcl-boards.csv: row 3, column fixture: no fixture has the id \"D9-9\"",
        ),
        (
            "ddcl-boards.csv",
            boards.replacen("\"Hartley, Ian\"", "\"Nobody, X\"", 1),
            "ddcl-boards.csv: row 3, column home: fixture D1-1, board 2: unknown player \"Nobody, X\"",
        ),
        (
            "ddcl-boards.csv",
            boards.replacen("D1-1,2,", "D1-1,1,", 1),
            "ddcl-boards.csv: row 3, column board: fixture D1-1, board 1: board listed twice",
        ),
        (
            "ddcl-boards.csv",
            boards.replacen("D1-1,2,", "D1-1,6,", 1),
            "ddcl-boards.csv: row 3, column board: fixture D1-1, board 6: this match has 5 boards",
        ),
        (
            "ddcl-fixtures.csv",
            fixtures.replacen("\nD1-2,", "\nD1-1,", 1),
            "ddcl-fixtures.csv: row 3, column id: the fixture id \"D1-1\" is given twice",
        ),
        (
            "ddcl-fixtures.csv",
            fixtures.replacen("D1-1,2009-10-08,", "D1-1,08/10/2009,", 1),
            "ddcl-fixtures.csv: row 2, column date: fixture D1-1: date \"08/10/2009\" is not a date (YYYY-MM-DD) (a date written with / or . may have the day or the month first, so none is guessed: in Excel, format the column as Custom yyyy-mm-dd before saving)",
        ),
        (
            "ddcl-fixtures.csv",
            fixtures.replacen(",postponed,", ",put off,", 1),
            "ddcl-fixtures.csv: row 10, column status: fixture D1-9: status \"put off\" is not played, postponed or defaulted",
        ),
        (
            "ddcl-players.csv",
            players.replacen("name,team,grade", "name,team,grad", 1),
            "ddcl-players.csv: row 1, column grad: not a column of this file; did you mean \"grade\"?",
        ),
        // A result entered under a match still marked postponed: not
        // dropped, refused with what to do.
        (
            "ddcl-boards.csv",
            format!("{}\nD1-9,1,\"Novak, Eva\",\"Thompson, Karen\",1/2-1/2,,,,,\n", boards.trim_end()),
            format!("ddcl-boards.csv: row {}, column result: fixture D1-9, board 1: the fixture's status is postponed, but a result is written for this board: if the match was played, set its status to played (and its date); if not, remove the results", boards.trim_end().lines().count() + 1).leak() as &str,
        ),
        // A board left out of a match whose other boards are written.
        (
            "ddcl-boards.csv",
            boards.lines().filter(|l| !l.starts_with("D1-7,1,")).collect::<Vec<_>>().join("\n"),
            "ddcl-fixtures.csv: row 8: fixture D1-7, board 1: board 1 is missing: add a row for board 1 with the player who was there, if any; a match not played yet has no boards, or status postponed",
        ),
        (
            "ddcl-boards.csv",
            boards.replacen("1/2-1/2", "draw", 1),
            "ddcl-boards.csv: row 3, column result: fixture D1-1, board 2: result \"draw\" is not 1-0, 0-1 or 1/2-1/2",
        ),
        // A player row with no name (a half-filled row).
        (
            "ddcl-players.csv",
            format!("{}\n,Darlington A,150,,,,,\n", players.trim_end()),
            format!("ddcl-players.csv: row {}, column name: a player of \"Darlington A\" has no name: give it, or remove the row", players.trim_end().lines().count() + 1).leak() as &str,
        ),
        // A name no player has, but one near it: suggested.
        (
            "ddcl-boards.csv",
            boards.replacen("\"Hartley, Ian\"", "\"Hartly, Ian\"", 1),
            "column home: fixture D1-1, board 2: unknown player \"Hartly, Ian\"; did you mean \"Hartley, Ian\"?",
        ),
        // A surname alone, and a surname with an initial: the one player
        // whose name holds them, suggested.
        (
            "ddcl-boards.csv",
            boards.replacen("\"Hartley, Ian\"", "Hartley", 1),
            "column home: fixture D1-1, board 2: unknown player \"Hartley\"; did you mean \"Hartley, Ian\"?",
        ),
        (
            "ddcl-boards.csv",
            boards.replacen("\"Hartley, Ian\"", "\"Hartley, I.\"", 1),
            "column home: fixture D1-1, board 2: unknown player \"Hartley, I.\"; did you mean \"Hartley, Ian\"?",
        ),
        // A team misspelt, and a team cell left empty.
        (
            "ddcl-fixtures.csv",
            fixtures.replacen(",Darlington A,", ",Darlingtn A,", 1),
            "unknown team \"Darlingtn A\"; did you mean \"Darlington A\"?",
        ),
        (
            "ddcl-fixtures.csv",
            fixtures.replacen(",Darlington A,", ",,", 1),
            ": no team given",
        ),
        // A win by default written as a result would be graded as played.
        (
            "ddcl-boards.csv",
            boards.replacen("1/2-1/2", "+/-", 1),
            "ddcl-boards.csv: row 3, column result: fixture D1-1, board 2: result \"+/-\" is a win by default, which is not a game played: leave the seat of the side that defaulted empty (its player not named), or give no_show for a named player who did not come",
        ),
    ];
    // A row cut short (a file truncated, a cell lost in an edit).
    let short = format!("{}\n\"Short, Row\"\n", players.trim_end());
    let short_row = short.lines().count();
    let cases = cases.into_iter().chain([(
        "ddcl-players.csv",
        short,
        format!("ddcl-players.csv: row {short_row}: 1 cell (the header has 8): a row cut short or a stray separator").leak() as &str,
    )]);
    // Each as Excel on Windows saves it too, lines ending CR LF: the same
    // rows (the csv crate's own count ran one short there).
    for (file, text, want) in cases {
        for text in [
            text.clone(),
            text.replace("\r\n", "\n").replace('\n', "\r\n"),
        ] {
            std::fs::write(dir.path().join(file), &text).unwrap();
            let (_out, o) = season_run(&dir.path().join("ddcl-csv.toml"));
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert!(err.contains(want), "want {want}\ngot {err}");
        }
        std::fs::copy(sample(&format!("season/{file}")), dir.path().join(file)).unwrap();
    }
}

/// A run that fails writes nothing, and says that the files left in the
/// folder are an earlier run's, lest they be taken for this one's.
#[test]
fn a_failed_run_says_the_outputs_left_are_an_earlier_runs() {
    let dir = ddcl_csv_season();
    let csv = dir.path().join("ddcl-csv.toml");
    let out = dir.path().join("out");
    let run = || {
        common::arbiter(&[
            "season",
            "-q",
            csv.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
    };
    let o = run();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let standings = std::fs::read(out.join("standings.csv")).unwrap();
    let players = std::fs::read_to_string(sample("season/ddcl-players.csv")).unwrap();
    std::fs::write(
        dir.path().join("ddcl-players.csv"),
        players.replacen("Darlington A,168", "Darlington A,1x8", 1),
    )
    .unwrap();
    let o = run();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let last = err.lines().last().unwrap();
    assert_eq!(last, format!("arbiter: nothing was written: standings.csv, violations.csv, notes.csv, grading.csv, player-of-year.csv, cup.csv, ecf-submission.txt in {} are from an earlier run, not this one", out.display()), "{err}");
    assert_eq!(std::fs::read(out.join("standings.csv")).unwrap(), standings);
}

/// Spreadsheets with several mistakes have them all said in one run, file
/// by file, each naming its row and column; past thirty, how many more.
#[test]
fn every_spreadsheet_error_is_said_in_one_run() {
    let sheet = |f: &str| std::fs::read_to_string(sample(&format!("season/{f}"))).unwrap();
    let (players, boards, fixtures) = (
        sheet("ddcl-players.csv"),
        sheet("ddcl-boards.csv"),
        sheet("ddcl-fixtures.csv"),
    );
    // The sample season with `edits` written over its files: the lines
    // a run that stops on them says.
    let errors = |edits: &[(&str, &str)]| -> Vec<String> {
        let dir = ddcl_csv_season();
        for (file, text) in edits {
            std::fs::write(dir.path().join(file), text).unwrap();
        }
        let (_out, o) = season_run(&dir.path().join("ddcl-csv.toml"));
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{err}");
        err.lines().map(str::to_string).collect()
    };
    let bad_players = players
        .replacen("Darlington A,168", "Darlington A,1x8", 1)
        .replacen("Darlington A,140", "Nowhere FC,140", 1)
        + "\"Short, Row\"\n";
    let last = bad_players.lines().count();
    let lines = errors(&[("ddcl-players.csv", &bad_players)]);
    let want = [
        "ddcl-players.csv: row 2, column grade: \"1x8\" is not a whole number".to_string(),
        format!("ddcl-players.csv: row {last}: 1 cell (the header has 8): a row cut short or a stray separator"),
    ];
    assert_eq!(lines.len(), want.len(), "{lines:#?}");
    for (line, want) in lines.iter().zip(&want) {
        assert!(
            line.starts_with("arbiter: ") && line.ends_with(want.as_str()),
            "want {want}\ngot {lines:#?}"
        );
    }
    // The cells read, the rows are checked: every player's error, and the
    // boards wait for a players table without them.
    let lines = errors(&[
        (
            "ddcl-players.csv",
            &players
                .replacen("Darlington A,140", "Nowhere FC,140", 1)
                .replacen("234567B", "234567", 1),
        ),
        (
            "ddcl-boards.csv",
            &boards.replacen("\"Hartley, Ian\"", "\"Nobody, X\"", 1),
        ),
    ]);
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(lines[0].ends_with("ddcl-players.csv: row 3, column ecf_code: player \"Hartley, Ian\": ecf_code \"234567\" is not an ECF code (six digits and a check letter, one of ABCDEFGHJKL)"), "{lines:#?}");
    assert!(lines[1].ends_with("ddcl-players.csv: row 4, column team: player \"Pearson, Alan\": unknown team \"Nowhere FC\""), "{lines:#?}");
    // Boards: two in one match and one in another, each said.
    let bad_boards = boards
        .replacen("\"Hartley, Ian\"", "\"Nobody, X\"", 1)
        .replacen("\"Pearson, Alan\"", "\"Nobody, Y\"", 1)
        .replacen("D1-1,4,", "D1-1,2,", 1);
    let lines = errors(&[("ddcl-boards.csv", &bad_boards)]);
    let want = [
        "ddcl-boards.csv: row 3, column home: fixture D1-1, board 2: unknown player \"Nobody, X\"",
        "ddcl-boards.csv: row 4, column home: fixture D1-1, board 3: unknown player \"Nobody, Y\"",
        "ddcl-boards.csv: row 5, column board: fixture D1-1, board 2: board listed twice",
    ];
    assert_eq!(lines.len(), want.len(), "{lines:#?}");
    for (line, want) in lines.iter().zip(want) {
        assert!(
            line.starts_with("arbiter: ") && line.contains(want),
            "want {want}\ngot {lines:#?}"
        );
    }
    // Errors in two files are said in one run, file by file.
    let short_notice = fixtures.replacen(
        "D1-1,2009-10-08,,Darlington A,Middlesbrough B,1,,",
        "D1-1,2009-10-08,,Darlington A,Middlesbrough B,1,3h,",
        1,
    );
    let lines = errors(&[
        (
            "ddcl-players.csv",
            &players.replacen("Darlington A,168", "Darlington A,1x8", 1),
        ),
        ("ddcl-fixtures.csv", &short_notice),
    ]);
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(
        lines[0].ends_with("ddcl-players.csv: row 2, column grade: \"1x8\" is not a whole number"),
        "{lines:#?}"
    );
    assert!(
        lines[1].contains("ddcl-fixtures.csv: row 2, column short_notice_hours: \"3h\""),
        "{lines:#?}"
    );
    // A cell in error leaves the rest of its file checked: a fixture id
    // given twice is said beside it.
    let lines = errors(&[(
        "ddcl-fixtures.csv",
        &short_notice.replacen("\nD1-3,", "\nD1-2,", 1),
    )]);
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(
        lines[0].contains("ddcl-fixtures.csv: row 2, column short_notice_hours: \"3h\""),
        "{lines:#?}"
    );
    assert!(lines[1].ends_with("ddcl-fixtures.csv: row 4, column id: the fixture id \"D1-2\" is given twice: an id names one fixture"), "{lines:#?}");
    // A slip in a fixture's id: one line for the boards that name the
    // id, not one a board.
    let lines = errors(&[(
        "ddcl-fixtures.csv",
        &fixtures.replacen("\nD1-1,", "\nD1-I,", 1),
    )]);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(
        lines[0].ends_with(
            "ddcl-boards.csv: rows 2, 3, 4, 5, 6, column fixture: no fixture has the id \"D1-1\""
        ),
        "{lines:#?}"
    );
    // Forty rows with a grade that is no number: thirty said, then a count.
    let mut many = players.trim_end().to_string();
    for i in 0..40 {
        many.push_str(&format!("\n\"Extra, P{i}\",Darlington A,x{i},,,,,"));
    }
    many.push('\n');
    let lines = errors(&[("ddcl-players.csv", &many)]);
    assert_eq!(lines.len(), 31, "{lines:#?}");
    assert!(
        lines[29].ends_with("column grade: \"x29\" is not a whole number"),
        "{lines:#?}"
    );
    assert_eq!(
        lines[30],
        "arbiter: ... and 10 more errors: put these right and run again"
    );
}

/// In a season file as in its spreadsheets, a fixture written with no
/// status and no boards is a match not played yet: noted, not scored; one
/// written `status = "played"` with no boards is an error.
#[test]
fn a_season_file_fixture_with_no_boards_is_not_played_yet() {
    let season = format!(
        "{}[[fixtures]]\nid = \"M2\"\ndate = \"2009-11-08\"\nhome = \"B\"\naway = \"A\"\n",
        ddcl_season(&["160", "150", "140", "130", "120"], "", &all_draws())
    );
    let r = run(&season).unwrap();
    let notes: Vec<(&str, &str)> = r
        .notes
        .iter()
        .filter(|n| n.fixture == "M2")
        .map(|n| (n.what.as_str(), n.penalty.as_str()))
        .collect();
    assert_eq!(
        notes,
        [(
            "no boards given: not played yet, or its result not in",
            "not scored"
        )]
    );
    let e =
        run(&season.replace("away = \"A\"\n", "away = \"A\"\nstatus = \"played\"\n")).unwrap_err();
    assert!(e.contains("fixture M2, board 1: board 1 is missing"), "{e}");
}

/// A grader's mid-season run on spreadsheets as Excel saves them: a
/// fixture with no boards yet is not scored and is said (exit 0); column
/// names in capitals and the empty column a trailing separator makes are
/// read; a game after the ECF file's final result date is said, exit 1.
#[test]
fn a_mid_season_run_from_excel_sheets() {
    let dir = ddcl_csv_season();
    let boards = std::fs::read_to_string(sample("season/ddcl-boards.csv")).unwrap();
    // D1-7 not played yet; every line ending in a separator, the header
    // in capitals.
    let excel: Vec<String> = boards
        .lines()
        .filter(|l| !l.starts_with("D1-7,"))
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                format!("{},\r\n", l.to_uppercase())
            } else {
                format!("{l},\r\n")
            }
        })
        .collect();
    std::fs::write(dir.path().join("ddcl-boards.csv"), excel.concat()).unwrap();
    let (out, o) = season_run(&dir.path().join("ddcl-csv.toml"));
    let err = String::from_utf8_lossy(&o.stderr);
    // Cup ties later in the season have their boards: D1-7's result may be
    // missing, so the season needs attention.
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("ddcl-csv.toml: 1 fixture with no boards yet, not scored (notes.csv): D1-7")
            && err.contains("ddcl-csv.toml: 1 fixture with no boards, dated before matches already in: results may be missing: D1-7"),
        "{err}"
    );
    // The two teams' standings say so, as for a board pending.
    let standings = csv_rows(out.path(), "standings.csv");
    let provisional: Vec<(&str, &str)> = standings
        .iter()
        .filter(|r| r["note"].contains("D1-7"))
        .map(|r| (r["team"].as_str(), r["note"].as_str()))
        .collect();
    assert_eq!(provisional.len(), 2, "{standings:?}");
    assert!(provisional
        .iter()
        .all(|(_, n)| n
            .ends_with("provisional: D1-7 no result yet, dated before matches already in")));
    let notes = csv_rows(out.path(), "notes.csv");
    let d17: Vec<(&str, &str)> = notes
        .iter()
        .filter(|r| r["fixture"] == "D1-7")
        .map(|r| (r["note"].as_str(), r["effect"].as_str()))
        .collect();
    assert_eq!(
        d17,
        [(
            "no boards given: not played yet, or its result not in",
            "not scored"
        )]
    );
    // Nothing of D1-7 (Middlesbrough B v Darlington A, 2009-11-19) is graded.
    let graded = csv_rows(out.path(), "grading.csv");
    assert_eq!(graded.len(), 34);
    assert!(
        !graded.iter().any(|r| r["date"] == "2009-11-19"),
        "{graded:?}"
    );
    // The cup final not played yet, the last fixture: a match to come.
    let d17: String = boards
        .lines()
        .filter(|l| l.starts_with("D1-7,"))
        .map(|l| format!("{l},\r\n"))
        .collect();
    let to_come: String = excel
        .iter()
        .filter(|l| !l.starts_with("KO-F,"))
        .cloned()
        .collect();
    std::fs::write(
        dir.path().join("ddcl-boards.csv"),
        format!("{to_come}{d17}"),
    )
    .unwrap();
    let (_out, o) = season_run(&dir.path().join("ddcl-csv.toml"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("1 fixture with no boards yet, not scored (notes.csv): KO-F"),
        "{err}"
    );
    assert!(!err.contains("results may be missing"), "{err}");

    // A match dated after the submission's final result date.
    let fixtures = std::fs::read_to_string(sample("season/ddcl-fixtures.csv")).unwrap();
    std::fs::write(
        dir.path().join("ddcl-fixtures.csv"),
        fixtures.replacen("D1-1,2009-10-08,", "D1-1,2010-05-20,", 1),
    )
    .unwrap();
    let (out, o) = season_run(&dir.path().join("ddcl-csv.toml"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("games outside the submission's dates ([ecf] event_date to final_result_date): D1-1 (2010-05-20, after final_result_date); left out of this file"),
        "{err}"
    );
    // Left out of this file, as said, so that the next file does not send
    // them twice; the others are there.
    let ecf = std::fs::read_to_string(out.path().join("ecf-submission.txt")).unwrap();
    assert!(!ecf.contains("20/05/2010"), "{ecf}");
    assert_eq!(ecf.matches("#MATCH RESULTS=").count(), 5, "{ecf}");
    assert!(!err.contains("outside the season"), "{err}");

    // A year typed wrong: scored as written, said, exit 1.
    std::fs::write(
        dir.path().join("ddcl-fixtures.csv"),
        fixtures.replacen("D1-1,2009-10-08,", "D1-1,2019-10-08,", 1),
    )
    .unwrap();
    let (_out, o) = season_run(&dir.path().join("ddcl-csv.toml"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("1 fixture dated outside the season \"2009/10\" (2009-07-01 to 2010-06-30): D1-1 (2019-10-08); check the dates"),
        "{err}"
    );
    std::fs::write(dir.path().join("ddcl-fixtures.csv"), &fixtures).unwrap();

    // A final result date before D1-7: its games are left out, and so is
    // Lowther, whose one game it is, from the players to match by name.
    let toml = std::fs::read_to_string(dir.path().join("ddcl-csv.toml")).unwrap();
    let cut = toml.replace(
        "final_result_date = \"2010-04-30\"",
        "final_result_date = \"2009-11-10\"",
    );
    assert_ne!(cut, toml);
    std::fs::write(dir.path().join("ddcl-csv.toml"), &cut).unwrap();
    let (_out, o) = season_run(&dir.path().join("ddcl-csv.toml"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("17 players without an ECF code"), "{err}");
    assert!(!err.contains("Lowther"), "{err}");
    std::fs::write(dir.path().join("ddcl-csv.toml"), &toml).unwrap();

    // A rating typed in the grade column, beside grades.
    let players = std::fs::read_to_string(sample("season/ddcl-players.csv")).unwrap();
    std::fs::write(
        dir.path().join("ddcl-players.csv"),
        players.replacen(
            "\"Hartley, Ian\",Darlington A,152,",
            "\"Hartley, Ian\",Darlington A,1960,",
            1,
        ),
    )
    .unwrap();
    let (_out, o) = season_run(&dir.path().join("ddcl-csv.toml"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("1 player with a grade over 400 (Hartley, Ian 1960): the league ranks by grade, and grades ran to about 300, so these look like ratings"),
        "{err}"
    );
}

/// A cell that does not read as its column's type is quoted, in a message
/// that names the file as the user finds it: the season file's folder
/// joined with the name the season file gives.
#[test]
fn a_bad_cell_is_quoted_and_its_file_named_with_its_folder() {
    let dir = ddcl_csv_season();
    let players = std::fs::read_to_string(sample("season/ddcl-players.csv")).unwrap();
    let run_from = |cwd: &Path, season: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .current_dir(cwd)
            .args(["season", "-q", season, "-o"])
            .arg(dir.path().join("out"))
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let season = dir.path().join("ddcl-csv.toml");
    let players_csv = dir.path().join("ddcl-players.csv");
    for (cell, why) in [
        ("abc", "\"abc\" is not a whole number"),
        (
            "-5",
            "\"-5\" is below 0: a whole number of 0 or more is wanted",
        ),
        ("99999999999", "\"99999999999\" is too large a number"),
    ] {
        std::fs::write(
            &players_csv,
            players.replacen("Darlington A,168", &format!("Darlington A,{cell}"), 1),
        )
        .unwrap();
        let (code, err) = run_from(dir.path(), season.to_str().unwrap());
        assert_eq!(code, Some(2), "{err}");
        assert_eq!(
            err,
            format!(
                "arbiter: {}: row 2, column grade: {why}\n",
                players_csv.display()
            )
        );
    }
    // A season file named from its own folder: the spreadsheet likewise.
    let (code, err) = run_from(dir.path(), "ddcl-csv.toml");
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err,
        "arbiter: ddcl-players.csv: row 2, column grade: \"99999999999\" is too large a number\n"
    );
    let (code, err) = run_from(
        dir.path().parent().unwrap(),
        &format!(
            "{}/ddcl-csv.toml",
            dir.path().file_name().unwrap().to_str().unwrap()
        ),
    );
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err,
        format!(
            "arbiter: {}/ddcl-players.csv: row 2, column grade: \"99999999999\" is too large a number\n",
            dir.path().file_name().unwrap().to_str().unwrap()
        )
    );
    // A yes-or-no column.
    std::fs::write(
        &players_csv,
        players.replacen("123456A,,,", "123456A,,,maybe", 1),
    )
    .unwrap();
    let (code, err) = run_from(dir.path(), season.to_str().unwrap());
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        err,
        format!(
            "arbiter: {}: row 2, column ungraded: \"maybe\" is not true or false\n",
            players_csv.display()
        )
    );
    // A grader's own words for yes and no are read: a graded player
    // marked ungraded is refused for what it says, not for its word.
    for (word, yes) in [
        ("yes", true),
        ("No", false),
        ("Y", true),
        ("n", false),
        ("1", true),
        ("0", false),
    ] {
        std::fs::write(
            &players_csv,
            players.replacen("123456A,,,", &format!("123456A,,,{word}"), 1),
        )
        .unwrap();
        let (_, err) = run_from(dir.path(), season.to_str().unwrap());
        assert!(!err.contains("is not true or false"), "{word:?}: {err}");
        assert_eq!(
            err.contains("has a grade and is marked ungraded"),
            yes,
            "{word:?}: {err}"
        );
    }
}

/// `season init` writes a season file and spreadsheets with the columns the
/// league needs; filled in, they run; it never replaces a file.
#[test]
fn season_init_writes_a_template_that_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("new");
    let league = sample("season/county-league.toml");
    let init =
        |l: &str| common::arbiter(&["season", "init", "--league", l, "-o", out.to_str().unwrap()]);
    let o = init(league.to_str().unwrap());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let read = |n: &str| std::fs::read_to_string(out.join(n)).unwrap();
    assert!(read("season.toml").contains("\nrules = \"county-league.toml\"\n"));
    // The season named in the file is the one the screen says.
    let toml = read("season.toml");
    let season = toml
        .lines()
        .find_map(|l| l.strip_prefix("season = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap();
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&format!(
            ", season {season} (to set up another, change `season` and the dates in season.toml): "
        )),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(read("players.csv"), "name,team,rating,ecf_code\n");
    assert_eq!(
        read("boards.csv"),
        "fixture,board,home,away,result,score,pgn,home_colour\n"
    );
    assert_eq!(
        read("county-league.toml"),
        std::fs::read_to_string(&league).unwrap()
    );
    // Filled in, it runs.
    std::fs::write(out.join("teams.csv"), "name,club,division\nA,A,1\nB,B,1\n").unwrap();
    let mut players = read("players.csv");
    for t in ["A", "B"] {
        for b in 1..=4 {
            players.push_str(&format!("{t}{b},{t},{},\n", 2000 - b * 100));
        }
    }
    std::fs::write(out.join("players.csv"), players).unwrap();
    let mut fixtures = read("fixtures.csv");
    fixtures.push_str("M1,2026-10-01,,,1,A,B,,,\n");
    std::fs::write(out.join("fixtures.csv"), fixtures).unwrap();
    let mut boards = read("boards.csv");
    for b in 1..=4 {
        boards.push_str(&format!("M1,{b},A{b},B{b},1-0,,,\n"));
    }
    std::fs::write(out.join("boards.csv"), boards).unwrap();
    let (res, o) = season_run(&out.join("season.toml"));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let standings = csv_rows(res.path(), "standings.csv");
    assert_eq!(
        (
            standings[0]["team"].as_str(),
            standings[0]["match_points"].as_str(),
            standings[0]["game_points"].as_str()
        ),
        // 1-0 is White first: A has White on the odd boards (ECL 5), 2-2.
        ("A", "1", "2")
    );
    // A second init into the same folder replaces nothing.
    let before = read("teams.csv");
    let o = init("ddcl");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("season.toml exists; nothing was written"));
    assert_eq!(read("teams.csv"), before);
    let o = init("nowhere");
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown league \"nowhere\""));
    // A league's name with quotes reads back as written; a league file
    // named like one of the template's files is refused, not overwritten.
    let quoted = dir.path().join("q.toml");
    let text = std::fs::read_to_string(&league).unwrap();
    std::fs::write(
        &quoted,
        text.replace(
            "title = \"Example County League\"",
            "title = \"The \\\"Bridge\\\" League\"",
        ),
    )
    .unwrap();
    let out2 = dir.path().join("q");
    let o = common::arbiter(&[
        "season",
        "init",
        "--league",
        quoted.to_str().unwrap(),
        "-o",
        out2.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let written = std::fs::read_to_string(out2.join("season.toml")).unwrap();
    assert!(
        written.contains("\nleague = 'The \"Bridge\" League'\n"),
        "{written}"
    );
    let (_r, o) = season_run(&out2.join("season.toml"));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let named = dir.path().join("season.toml");
    std::fs::write(&named, &text).unwrap();
    let o = common::arbiter(&[
        "season",
        "init",
        "--league",
        named.to_str().unwrap(),
        "-o",
        dir.path().join("n").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("a league file named season.toml would be written over"));
}

/// The ECF file's time limit is the league's games' control: 900+10 is 15
/// minutes with 10 seconds a move. A control with no ECF form is said,
/// and the season's other files are written all the same.
#[test]
fn the_ecf_time_limit_comes_from_the_games_control() {
    let dir = tempfile::tempdir().unwrap();
    let league = std::fs::read_to_string(sample("season/county-league.toml")).unwrap();
    std::fs::write(dir.path().join("county-league.toml"), &league).unwrap();
    let season = std::fs::read_to_string(sample("season/county-2025-26.toml")).unwrap();
    let ecf = "\n[ecf]\nevent_code = \"X\"\nsubmission_index = 1\nevent_name = \"X\"\nevent_date = \"2025-10-01\"\nfinal_result_date = \"2026-04-30\"\nresults_officer = \"R\"\nresults_officer_address = \"A\"\ntreasurer = \"T\"\ntreasurer_address = \"A\"\n";
    let path = dir.path().join("s.toml");
    let at = season.find("\n[[teams]]").unwrap();
    std::fs::write(&path, format!("{}{ecf}{}", &season[..at], &season[at..])).unwrap();
    let (out, o) = season_run(&path);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let file = std::fs::read_to_string(out.path().join("ecf-submission.txt")).unwrap();
    assert!(
        file.contains("#MINUTES FOR GAME=15\n#SECONDS PER MOVE=10\n"),
        "{file}"
    );
    // A control of odd seconds has no ECF form: said, exit 2, and the
    // standings and the rest written all the same.
    let rules = common::arbiter(&["rules", "fide-rapid"]);
    let rules = String::from_utf8_lossy(&rules.stdout).replace(
        "default_time_control = \"900+10\"",
        "default_time_control = \"1830\"",
    );
    std::fs::write(dir.path().join("odd.toml"), rules).unwrap();
    std::fs::write(
        dir.path().join("county-league.toml"),
        league.replace("ruleset = \"fide-rapid\"", "ruleset = \"odd.toml\""),
    )
    .unwrap();
    let (out, o) = season_run(&path);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("ecf-submission.txt not written: the ECF file's time limit: fide-rapid's control has no form in the ECF's fields"),
        "{err}"
    );
    assert!(!out.path().join("ecf-submission.txt").exists());
    assert!(out.path().join("standings.csv").exists());
}

/// DDCL 14(n): cup colours go by a toss at the match, not by DDCL 6. A
/// fixture that does not say how it fell, and whose boards do not show it,
/// waits (pending, saying what to give): results given White first are
/// not credited by a guess. One board's colours, given or shown by its
/// PGN, set them all; two boards that disagree are said.
#[test]
fn ddcl_14_n_cup_colours_come_from_the_toss_not_the_league_rule() {
    let mut s = cup_teams();
    s.push_str("[[fixtures]]\nid = \"KO\"\ndate = \"2010-01-07\"\ncompetition = \"cup\"\nhome = \"A\"\naway = \"B\"\nboards = [\n");
    for b in 1..=4 {
        s.push_str(&format!(
            "  {{ board = {b}, home = \"A{b}\", away = \"B{b}\", result = \"1-0\"BOARD{b} }},\n"
        ));
    }
    s.push_str("]\n");
    let clean = |t: &str| (1..=4).fold(t.to_string(), |t, b| t.replace(&format!("BOARD{b}"), ""));
    let r = run(&clean(&s)).unwrap();
    assert!(r.cup.is_empty());
    let reasons: Vec<(u32, &str)> = r
        .pending
        .iter()
        .map(|p| (p.board, p.reason.as_str()))
        .collect();
    let unknown = "colours not known: in the cup they go by the toss of a coin (DDCL 14(n)), and neither the fixture nor its boards say how it fell: give home_colour_board1 (\"white\" or \"black\") for the fixture";
    assert_eq!(reasons, (1..=4).map(|b| (b, unknown)).collect::<Vec<_>>());
    // The cup leaves the league table as it is.
    assert!(
        r.standings.iter().all(|s| !s.note.contains("KO")),
        "{:?}",
        r.standings
    );
    // Board 3's home player had Black: the toss gave the away side White
    // on board 1, so A wins boards 2 and 4 only.
    let r = run(&clean(&s.replace("BOARD3", ", home_colour = \"black\""))).unwrap();
    let cup = &r.cup[0];
    assert_eq!((cup.home_total, cup.away_total), (2.0, 2.0));
    // Two boards that disagree: said, and nothing credited.
    let both = s
        .replace("BOARD3", ", home_colour = \"black\"")
        .replace("BOARD2", ", home_colour = \"black\"");
    let r = run(&clean(&both)).unwrap();
    assert!(r.cup.is_empty());
    assert_eq!(
        r.pending.iter().map(|p| (p.board, p.reason.as_str())).collect::<Vec<_>>(),
        [1, 4].map(|b| (b, "colours not known: in the cup they go by the toss of a coin (DDCL 14(n)), and board 2 (home_colour black) and board 3 (home_colour black) disagree on how the toss fell, colours alternating from board 1: give home_colour_board1 for the fixture"))
    );
    // Board 1's PGN shows the same: B1 had White and won.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b1.pgn"), mate("B1", "A1")).unwrap();
    let with_pgn = clean(&s).replacen("result = \"1-0\"", "pgn = \"b1.pgn\"", 1);
    let path = dir.path().join("season.toml");
    std::fs::write(&path, &with_pgn).unwrap();
    let r = load(&path, false).map(|s| process(&s)).unwrap();
    let cup = &r.cup[0];
    assert_eq!((cup.home_total, cup.away_total), (2.0, 2.0));
    // A PGN that names nobody shows nothing: still pending.
    std::fs::write(dir.path().join("b1.pgn"), mate("?", "?")).unwrap();
    let r = load(&path, false).map(|s| process(&s)).unwrap();
    assert!(r.cup.is_empty() && r.pending.len() == 4, "{:?}", r.pending);
    // With a home-first score beside it, nothing is read against guessed
    // colours (the two agree only with the home player Black): it waits.
    std::fs::write(
        &path,
        with_pgn.replacen("pgn = \"b1.pgn\"", "pgn = \"b1.pgn\", score = \"0-1\"", 1),
    )
    .unwrap();
    let r = load(&path, false).map(|s| process(&s)).unwrap();
    assert!(r.cup.is_empty() && r.pending.len() == 4, "{:?}", r.pending);
    // A postponed tie with its lineup needs no colours.
    let postponed = clean(&s).replace(
        "competition = \"cup\"\n",
        "competition = \"cup\"\nstatus = \"postponed\"\n",
    );
    let postponed = postponed.replace(", result = \"1-0\"", "");
    let r = run(&postponed).unwrap();
    assert!(r.pending.is_empty(), "{:?}", r.pending);
}

/// A cup single game given as a PGN: its tags show who had White (the
/// colours were tossed for it, DDCL 14(l)), so its win counts.
#[test]
fn ddcl_14_l_a_single_game_pgn_shows_its_colours() {
    let mut s = cup_teams();
    s.push_str("[[fixtures]]\nid = \"KO\"\ndate = \"2010-01-07\"\ncompetition = \"cup\"\nhome = \"A\"\naway = \"B\"\nhome_colour_board1 = \"white\"\nboards = [\n");
    for b in 1..=4 {
        s.push_str(&format!(
            "  {{ board = {b}, home = \"A{b}\", away = \"B{b}\", result = \"1/2-1/2\" }},\n"
        ));
    }
    s.push_str("]\ntiebreaks = [\n");
    for (b, colour) in [(1, "black"), (2, "white"), (3, "black"), (4, "white")] {
        s.push_str(&format!("  {{ board = {b}, home = \"A{b}\", away = \"B{b}\", result = \"1/2-1/2\", home_colour = \"{colour}\" }},\n"));
    }
    s.push_str("  { board = 1, home = \"A2\", away = \"B3\", pgn = \"single.pgn\" },\n]\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("season.toml");
    std::fs::write(&path, &s).unwrap();
    for (white, black, winner) in [("B3", "A2", "B"), ("A2", "B3", "A")] {
        std::fs::write(dir.path().join("single.pgn"), mate(white, black)).unwrap();
        let r = load(&path, false).map(|s| process(&s)).unwrap();
        let cup = &r.cup[0];
        assert_eq!(
            (cup.tiebreak.as_str(), cup.winner.as_str()),
            ("replay 2-2, single game 1", winner)
        );
    }
}

/// DDCL 14(i) writes its bands "30 or less" and "between 31 and 40": an
/// average (14(j)) can fall between them. Said; and where the tie turns
/// on the reading, left to the organiser with no winner named.
#[test]
fn ddcl_14_i_a_difference_between_the_bands_is_said() {
    let mut s = DDCL_HEAD.to_string();
    for (name, team, grade) in [
        ("A1", "A", 140),
        ("A2", "A", 130),
        ("A3", "A", 120),
        ("A4", "A", 110),
        ("B1", "B", 133),
        ("B2", "B", 133),
        ("B3", "B", 132),
    ] {
        s.push_str(&format!(
            "[[players]]\nname = \"{name}\"\nteam = \"{team}\"\ngrade = {grade}\n"
        ));
    }
    // B fields three: board 4 to A, counted at B's average (14(j)):
    // 398 * 4 / 3 = 530.67 against A's 500, a difference of 30.67.
    let tie = |b3: &str| {
        format!("{s}[[fixtures]]\nid = \"KO\"\ndate = \"2010-01-07\"\ncompetition = \"cup\"\nhome = \"A\"\naway = \"B\"\nhome_colour_board1 = \"white\"\nboards = [\n  {{ board = 1, home = \"A1\", away = \"B1\", result = \"1/2-1/2\" }},\n  {{ board = 2, home = \"A2\", away = \"B2\", result = \"1/2-1/2\" }},\n  {{ board = 3, home = \"A3\", away = \"B3\", result = \"{b3}\" }},\n  {{ board = 4, home = \"A4\" }},\n]\n")
    };
    // Board 3 to B: 2-2 on the boards, A's with the half point.
    let c = run(&tie("0-1")).unwrap().cup.remove(0);
    assert_eq!((c.home_total, c.away_total, c.handicap), (2.5, 2.0, 0.5));
    assert!(c.organiser);
    assert_eq!(
        (c.tiebreak.as_str(), c.winner.as_str()),
        (
            "the grade difference 30.67 falls between the bands DDCL 14(i) writes (up to 30: 0; from 31: 0.5), and the tie turns on it (with 0.5: A; with 0: undecided): for the competition organiser to decide (DDCL 14(p))",
            ""
        )
    );
    // Board 3 to A: A wins either way; the gap is said.
    let c = run(&tie("1-0")).unwrap().cup.remove(0);
    assert!(!c.organiser);
    assert_eq!(
        (c.tiebreak.as_str(), c.winner.as_str()),
        (
            "the grade difference 30.67 falls between the bands DDCL 14(i) writes (up to 30: 0; from 31: 0.5): the same either way",
            "A"
        )
    );
}

/// HSL II: grade 8 plays "by coaches' consensus" and "only when there are
/// insufficient board players from grades 9-12": a condition the record
/// cannot show, so a note, not a breach; grade 7 is not eligible at all.
#[test]
fn hsl_ii_a_grade_8_player_is_noted_not_a_breach() {
    let s = hsl_season(&hsl_match("M1", "2022-01-12", [1, 2, 3, 4, 5, 6, 7])).replacen(
        "name = \"H7\"\nteam = \"H\"\nschool_grade = 10\n",
        "name = \"H7\"\nteam = \"H\"\nschool_grade = 8\n",
        1,
    );
    let r = run(&s).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    let notes: Vec<(&str, Option<u32>, &str, &str)> = r
        .notes
        .iter()
        .map(|v| {
            (
                v.rule.as_str(),
                v.board,
                v.what.as_str(),
                v.penalty.as_str(),
            )
        })
        .collect();
    assert!(
        notes.contains(&(
            "HSL II",
            Some(7),
            "H7 is in grade 8: eligible by the coaches' consensus, and only when a team lacks players from grades 9-12",
            "none"
        )),
        "{notes:?}"
    );
    let r = run(&s.replace("school_grade = 8\n", "school_grade = 7\n")).unwrap();
    let v: Vec<&str> = r.violations.iter().map(|v| v.what.as_str()).collect();
    assert_eq!(v, ["H7 is not eligible (school grade 7)"]);
}

/// A spreadsheet given where the season file goes is answered with which
/// file is wanted, not a TOML parser's complaint about its first line.
#[test]
fn a_spreadsheet_given_as_the_season_says_which_file_is_wanted() {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["season", sample("season/ddcl-boards.csv").to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("ddcl-boards.csv: a season is run from its TOML file, the one that names its teams, players, fixtures and boards"),
        "{err}"
    );
}

/// A board graded from its PGN with a result the game's record does not
/// give (a mate by the side recorded as losing) says so in notes.csv,
/// with the rule the game was judged by.
#[test]
fn a_board_graded_otherwise_than_its_game_records_is_noted() {
    let pgn = "[Event \"Test League\"]\n[White \"A1\"]\n[Black \"B1\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n";
    let (code, err, dir) = season_with_board1_pgn(pgn, "", &[]);
    let out = dir.path().join("out");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(csv_rows(&out, "grading.csv")[0]["score"], "0-1");
    let notes = csv_rows(&out, "notes.csv");
    let row = notes
        .iter()
        .find(|r| r["board"] == "1")
        .expect("a note on board 1");
    assert_eq!(
        (
            row["rule"].as_str(),
            row["note"].as_str(),
            row["effect"].as_str()
        ),
        (
            "FIDE 5.1.1",
            "pgn \"g.pgn\": the game records 1-0, judged 0-1 (checkmate)",
            "graded as judged"
        )
    );
    // A game graded as it records has no such note.
    let (_, _, dir) = season_with_board1_pgn(&mate("A1", "B1"), "", &[]);
    let notes = csv_rows(&dir.path().join("out"), "notes.csv");
    assert!(!notes.iter().any(|r| r["board"] == "1"), "{notes:?}");
}

/// DDCL 14(d): "must have played at least one league game" for the club,
/// by the final: a league game dated after it does not make a player
/// eligible. The sample's final moved before the league's first matches:
/// every finalist is referred, not Carr alone.
#[test]
fn ddcl_14d_league_games_after_the_final_do_not_count() {
    let (_dir, path) = sample_season_copy();
    let text = std::fs::read_to_string(&path).unwrap();
    let early = text.replacen(
        "id = \"KO-F\"\ndate = \"2010-03-04\"",
        "id = \"KO-F\"\ndate = \"2009-10-01\"",
        1,
    );
    assert_ne!(early, text, "the final's date to move");
    std::fs::write(&path, early).unwrap();
    let (out, o) = season_run(&path);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = csv_rows(out.path(), "violations.csv");
    let referred: Vec<&str> = v
        .iter()
        .filter(|r| r["fixture"] == "KO-F" && r["rule"] == "DDCL 14(d)")
        .map(|r| r["what"].as_str())
        .collect();
    assert_eq!(referred.len(), 8, "{referred:?}");
    assert!(
        referred
            .contains(&"Reid, Tom has played no league game for Stockton this season by the final"),
        "{referred:?}"
    );
}

/// The ECF's NAME field is "Surname, Forename": a player written otherwise
/// (`Tom Reid`) is named on the screen, since the ECF matches a player
/// without a code by name. It went into the file with no word.
#[test]
fn an_ecf_name_not_surname_first_is_said() {
    let (_dir, path) = sample_season_copy();
    let text = std::fs::read_to_string(&path).unwrap();
    let (_, o) = season_run(&path);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("Surname, Forename"));
    // The cup's games are graded (grading.csv) but another ECF event: said.
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("arbiter: ecf-submission.txt: the league's games only: 11 games of the cup (in grading.csv) are another ECF event, not in this file"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::write(&path, text.replace("Reid, Tom", "Tom Reid")).unwrap();
    let (_, o) = season_run(&path);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("arbiter: ecf-submission.txt: 1 player with a name not written \"Surname, Forename\", as the ECF's NAME field takes it: Tom Reid"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// DDCL 14(d) "must have *played*": a seat with no opponent (a board won by
/// default, or a fifth board with no one against it) is no league game
/// played. Walsh's only league board, her opponent's seat empty, made her
/// eligible for the final.
#[test]
fn ddcl_14d_a_board_won_by_default_is_no_game_played() {
    let (_dir, path) = sample_season_copy();
    let referred = |text: &str| {
        std::fs::write(&path, text).unwrap();
        let (out, o) = season_run(&path);
        assert_ne!(
            o.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        csv_rows(out.path(), "violations.csv")
            .into_iter()
            .filter(|r| r["fixture"] == "KO-F" && r["rule"] == "DDCL 14(d)")
            .map(|r| r["what"].clone())
            .collect::<Vec<String>>()
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let walsh = "Walsh, Fiona has played no league game for Darlington this season by the final";
    assert!(!referred(&text).iter().any(|w| w == walsh));
    let default = text.replacen(
        "{ board = 5, home = \"Irving, Paul\", away = \"Walsh, Fiona\", result = \"1/2-1/2\" }",
        "{ board = 5, away = \"Walsh, Fiona\" }",
        1,
    );
    assert_ne!(default, text, "Walsh's league board to change");
    assert!(referred(&default).iter().any(|w| w == walsh));
}

/// Two players of different clubs with the same words in their names: a
/// board's side tells them apart.
#[test]
fn the_same_words_in_two_clubs_go_by_the_side() {
    let boards = all_draws().replacen("home = \"A1\"", "home = \"jo smith\"", 1);
    let s = in_order(&boards)
        + "[[players]]\nname = \"Smith, Jo\"\nteam = \"A\"\ngrade = 160\n[[players]]\nname = \"Jo Smith\"\nteam = \"B\"\ngrade = 100\n";
    let r = run(&s).unwrap();
    let games = |who: &str| r.poy.iter().find(|p| p.player == who).map(|p| p.games);
    assert_eq!(
        (games("Smith, Jo"), games("Jo Smith")),
        (Some(1), None),
        "{:?}",
        r.poy
    );
}

/// A player's name in the boards as a spreadsheet may have it (another
/// case, spacing or order) is the registered player's; the outputs use the
/// registered name.
#[test]
fn board_names_in_another_case_spacing_or_order_are_the_players() {
    let dir = ddcl_csv_season();
    let (plain, o) = season_run(&dir.path().join("ddcl-csv.toml"));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let boards = std::fs::read_to_string(dir.path().join("ddcl-boards.csv")).unwrap();
    let written = boards
        .replacen("\"Hartley, Ian\"", "\"Ian Hartley\"", 1)
        .replacen("\"Pearson, Alan\"", "\"pearson,alan\"", 1)
        .replacen("\"Thompson, Karen\"", "\"THOMPSON Karen\"", 1);
    assert_ne!(written, boards);
    std::fs::write(dir.path().join("ddcl-boards.csv"), written).unwrap();
    let (loose, o) = season_run(&dir.path().join("ddcl-csv.toml"));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for f in [
        "standings.csv",
        "grading.csv",
        "violations.csv",
        "player-of-year.csv",
    ] {
        assert_eq!(
            std::fs::read_to_string(loose.path().join(f)).unwrap(),
            std::fs::read_to_string(plain.path().join(f)).unwrap(),
            "{f}"
        );
    }
}
