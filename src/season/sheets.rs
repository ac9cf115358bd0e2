//! A season's tables from spreadsheet files: `[csv]` in the season file names
//! CSV files of teams, players, fixtures and boards, whose columns are the
//! keys of the TOML tables of the same names (docs/seasons.md). Their rows
//! join the season file's own; every error names the file, row and column.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::model::{Origin, RawBoard, RawFixture, RawPlayer, RawSeason, RawTeam};
use crate::read::contained::{contained, read_regular};

/// Largest CSV file read.
const MAX_CSV_BYTES: u64 = 16 << 20;

/// Reads the CSV files `raw` names (relative to `base`) into its tables;
/// returns the files read.
pub(crate) fn read_into(
    raw: &mut RawSeason,
    base: &Path,
    allow_outside: bool,
) -> Result<Vec<PathBuf>, String> {
    let mut read = Vec::new();
    let files = std::mem::take(&mut raw.csv);
    // Every file's errors, file by file: a grader puts them all right in
    // one pass.
    let mut errors: Vec<String> = Vec::new();
    // Each file in turn, named as the user finds it: the season file's
    // folder joined with the name the season file gives.
    let mut sheet = |name: &Option<String>, errors: &mut Vec<String>| {
        let name = name.as_deref()?;
        let at = base.join(name).display().to_string();
        let bytes = contained(base, name, allow_outside).and_then(|full| {
            let bytes = read_regular(&full, MAX_CSV_BYTES)?;
            read.push(full);
            Ok(bytes)
        });
        match bytes {
            Ok(bytes) => Some((at, bytes)),
            Err(e) => {
                errors.push(format!("{at}: {e}"));
                None
            }
        }
    };
    let teams: Vec<(Origin, RawTeam)> = parsed(
        sheet(&files.teams, &mut errors),
        &["name", "club"],
        &mut errors,
    );
    let players: Vec<(Origin, RawPlayer)> = parsed(
        sheet(&files.players, &mut errors),
        &["name", "team"],
        &mut errors,
    );
    let fixtures: Vec<(Origin, RawFixture)> = parsed(
        sheet(&files.fixtures, &mut errors),
        &["id", "date", "home", "away"],
        &mut errors,
    );
    let boards = sheet(&files.boards, &mut errors);
    let board_file = boards.as_ref().map(|(file, _)| file.clone());
    let boards: Vec<(Origin, RawBoard)> = parsed(boards, &["fixture", "board"], &mut errors);
    raw.teams.extend(teams.into_iter().map(|(origin, mut t)| {
        t.origin = Some(origin);
        t
    }));
    raw.players
        .extend(players.into_iter().map(|(origin, mut p)| {
            p.origin = Some(origin);
            p
        }));
    raw.fixtures
        .extend(fixtures.into_iter().map(|(origin, mut f)| {
            f.origin = Some(origin);
            f
        }));
    // Boards find their fixture by id: each id must name one.
    let mut ids = std::collections::HashSet::new();
    for f in &raw.fixtures {
        let Some(id) = f.id.as_deref() else { continue };
        if !ids.insert(id) {
            let at = f.origin.as_ref().map_or(String::new(), |o| {
                format!("{}: row {}, column id: ", o.file, o.row)
            });
            errors.push(format!(
                "{at}the fixture id {:?} is given twice: an id names one fixture",
                crate::model::excerpt(id, 120)
            ));
        }
    }
    // With a fixture in error, each of its boards would be one too.
    if !errors.is_empty() {
        return Err(super::all_errors(errors));
    }
    if let Some(file) = board_file {
        attach_all(raw, &file, boards)?;
    }
    // A board written in the season file's own tables has its fixture
    // around it: the boards.csv columns do not belong there.
    for f in &raw.fixtures {
        if let Some(b) = f
            .boards
            .iter()
            .chain(&f.tiebreaks)
            .find(|b| b.origin.is_none() && (b.fixture.is_some() || b.tiebreak.is_some()))
        {
            let id = f.id.clone().unwrap_or_default();
            return Err(format!(
                "fixture {id}, board {}: `fixture` and `tiebreak` are boards.csv columns; in the season file a board sits in its fixture's `boards` or `tiebreaks`",
                b.board
            ));
        }
    }
    Ok(read)
}

/// A CSV file's rows that read as `T` (none where it could not be read),
/// its errors added to `errors`.
fn parsed<T: DeserializeOwned>(
    sheet: Option<(String, Vec<u8>)>,
    required: &[&str],
    errors: &mut Vec<String>,
) -> Vec<(Origin, T)> {
    let Some((file, bytes)) = sheet else {
        return Vec::new();
    };
    let (good, bad) = rows(&file, &bytes, required);
    errors.extend(bad);
    good
}

/// The boards.csv rows onto their fixtures. An id no fixture has is said
/// once, with every row that gives it: a slip in fixtures.csv shows as one
/// line, not one a board.
fn attach_all(
    raw: &mut RawSeason,
    file: &str,
    rows: Vec<(Origin, RawBoard)>,
) -> Result<(), String> {
    let mut errors = Vec::new();
    let mut unknown: Vec<(String, Vec<u64>)> = Vec::new();
    for (origin, mut b) in rows {
        let row = origin.row;
        match attach(raw, file, origin, &mut b) {
            Ok(()) => {}
            Err(Attach::NoSuchFixture(id)) => match unknown.iter_mut().find(|(u, _)| *u == id) {
                Some((_, rows)) => rows.push(row),
                None => unknown.push((id, vec![row])),
            },
            Err(Attach::Error(e)) => errors.push(e),
        }
    }
    for (id, rows) in unknown {
        let shown: Vec<String> = rows.iter().take(10).map(u64::to_string).collect();
        let more = rows.len().saturating_sub(10);
        let (word, list) = if rows.len() == 1 {
            ("row", shown.join(""))
        } else if more > 0 {
            ("rows", format!("{} and {more} more", shown.join(", ")))
        } else {
            ("rows", shown.join(", "))
        };
        errors.push(format!(
            "{file}: {word} {list}, column fixture: no fixture has the id {:?}",
            crate::model::excerpt(&id, 120)
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(super::all_errors(errors))
    }
}

/// Why a boards.csv row found no fixture.
enum Attach {
    NoSuchFixture(String),
    Error(String),
}

/// A boards.csv row onto its fixture, by id.
fn attach(raw: &mut RawSeason, file: &str, origin: Origin, b: &mut RawBoard) -> Result<(), Attach> {
    let at = format!("{file}: row {}", origin.row);
    let Some(id) = b.fixture.clone().filter(|s| !s.trim().is_empty()) else {
        return Err(Attach::Error(format!(
            "{at}, column fixture: the fixture's id is missing"
        )));
    };
    let Some(f) = raw
        .fixtures
        .iter_mut()
        .find(|f| f.id.as_deref() == Some(id.as_str()))
    else {
        return Err(Attach::NoSuchFixture(id));
    };
    let tiebreak = b.tiebreak == Some(true);
    b.origin = Some(origin);
    if tiebreak {
        f.tiebreaks.push(b.clone());
    } else {
        f.boards.push(b.clone());
    }
    Ok(())
}

/// Every row of a CSV file as `T`, with where it came from; `required`
/// are the columns it must have. Cells left empty are keys left out.
fn rows<T: DeserializeOwned>(
    file: &str,
    bytes: &[u8],
    required: &[&str],
) -> (Vec<(Origin, T)>, Vec<String>) {
    // As Excel saves it: any of its encodings, commas or semicolons.
    let text = crate::read::text::decode(file, bytes.to_vec());
    let mut r = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .delimiter(crate::read::text::delimiter(&text))
        .from_reader(text.as_bytes());
    // Column names in any case (`Name`, `TEAM`); a column with no name
    // (the separator Excel leaves at the end of each line) is no column,
    // and must stay empty.
    let raw_header = match r.headers() {
        Ok(h) => h.clone(),
        Err(e) => return (Vec::new(), vec![format!("{file}: {e}")]),
    };
    let unnamed: Vec<usize> = (0..raw_header.len())
        .filter(|&i| raw_header.get(i).is_some_and(str::is_empty))
        .collect();
    let header: csv::StringRecord = raw_header
        .iter()
        .filter(|h| !h.is_empty())
        .map(str::to_lowercase)
        .collect();
    if let Some(c) = required.iter().find(|c| !header.iter().any(|h| h == **c)) {
        return (
            Vec::new(),
            vec![format!(
                "{file}: row 1: no column {c} (this file needs {})",
                required.join(", ")
            )],
        );
    }
    let mut out = Vec::new();
    // A record's row, as a spreadsheet or text editor numbers it: the line
    // breaks before its first cell. The csv crate ends a record at the CR
    // of the CR LF lines Excel writes and places the next at the LF, so its
    // own line count runs one short there. Records come in order: the
    // count goes on from the one before.
    let counted = std::cell::Cell::new((0usize, 1u64));
    let row_at = |pos: Option<&csv::Position>| {
        pos.map_or(0, |p| {
            let (from, line) = counted.get();
            let bytes = text.as_bytes();
            let mut upto = usize::try_from(p.byte())
                .unwrap_or(usize::MAX)
                .min(text.len());
            while bytes.get(upto).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
                upto += 1;
            }
            let lines = bytes[from.min(upto)..upto]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64;
            counted.set((upto.max(from), line + lines));
            line + lines
        })
    };
    // Every row's error is reported, not only the first: a grader puts a
    // sheet right in one pass.
    let mut errors = Vec::new();
    for rec in r.records() {
        let rec = match rec.map_err(|e| match e.kind() {
            csv::ErrorKind::UnequalLengths {
                pos, expected_len, len,
            } => format!(
                "{file}: row {}: {} (the header has {expected_len}): a row cut short or a stray separator",
                row_at(pos.as_ref()),
                crate::claim::plural(*len as usize, "cell"),
            ),
            _ => format!("{file}: {e}"),
        }) {
            Ok(rec) => rec,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let row = row_at(rec.position());
        if rec.iter().all(str::is_empty) {
            continue;
        }
        if let Some(&i) = unnamed
            .iter()
            .find(|&&i| rec.get(i).is_some_and(|c| !c.is_empty()))
        {
            errors.push(format!(
                "{file}: row {row}, column {}: {:?} is under a column with no name: give the column its name in row 1",
                i + 1,
                crate::model::excerpt(rec.get(i).unwrap_or(""), 120)
            ));
            continue;
        }
        let rec = if unnamed.is_empty() {
            rec
        } else {
            let mut named: csv::StringRecord = rec
                .iter()
                .enumerate()
                .filter(|(i, _)| !unnamed.contains(i))
                .map(|(_, c)| c)
                .collect();
            named.set_position(rec.position().cloned());
            named
        };
        let rec = excel_cells(&header, rec);
        let value: Result<T, _> = rec.deserialize(Some(&header)).map_err(|e| {
            let field = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => err.field().map(|i| i as usize),
                _ => None,
            };
            let column = field
                .and_then(|i| header.get(i))
                .map(|c| format!(", column {c}"))
                .unwrap_or_default();
            let (why, kind) = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => {
                    (err.kind().to_string(), Some(err.kind()))
                }
                _ => (e.to_string(), None),
            };
            // A column no table has is the header's fault, not the row's.
            if let Some(name) = why
                .strip_prefix("unknown field `")
                .and_then(|w| w.split('`').next())
            {
                // Serde names the columns it knows: "expected one of `a`, `b`".
                let known: Vec<&str> = why
                    .split_once("expected")
                    .map(|(_, list)| list.split('`').skip(1).step_by(2).collect())
                    .unwrap_or_default();
                let meant = crate::model::nearest(name, known.iter().copied())
                    .map_or(String::new(), |n| format!("did you mean {n:?}? "));
                return Err(format!(
                    "{file}: row 1, column {name}: not a column of this file; {meant}(known: {})",
                    known.join(", ")
                ));
            }
            let why = kind.map_or(why, |k| cell_error(k, field.and_then(|i| rec.get(i))));
            Ok(format!("{file}: row {row}{column}: {why}"))
        });
        let value = match value {
            Ok(v) => v,
            // The header's fault: every row would say it again.
            Err(Err(header)) => return (Vec::new(), vec![header]),
            Err(Ok(row_error)) => {
                errors.push(row_error);
                continue;
            }
        };
        out.push((
            Origin {
                file: file.to_string(),
                row,
            },
            value,
        ));
    }
    (out, errors)
}

/// Columns of yes or no, which Excel saves as TRUE and FALSE.
const BOOLEAN_COLUMNS: [&str; 5] = [
    "ungraded",
    "final_round",
    "without_warning",
    "tiebreak",
    "captains_agreed",
];
/// Columns of grades, where a grader writes "u/g" for ungraded (DDCL 8's
/// word, and the one grading.csv writes) as readily as leaving it empty.
const GRADE_COLUMNS: [&str; 3] = ["grade", "estimated_grade", "end_grade"];

/// A record with Excel's own ways of writing a value read as the season
/// file's: TRUE and FALSE in any case in a yes-or-no column, "u/g" in a
/// grade column as no grade.
fn excel_cells(header: &csv::StringRecord, rec: csv::StringRecord) -> csv::StringRecord {
    let fixed = |column: &str, cell: &str| -> Option<&'static str> {
        if BOOLEAN_COLUMNS.contains(&column) {
            let word = cell.trim().to_ascii_lowercase();
            if matches!(word.as_str(), "true" | "yes" | "y" | "1") {
                return Some("true");
            }
            if matches!(word.as_str(), "false" | "no" | "n" | "0") {
                return Some("false");
            }
        }
        (GRADE_COLUMNS.contains(&column) && cell.eq_ignore_ascii_case("u/g")).then_some("")
    };
    let needs = header
        .iter()
        .zip(rec.iter())
        .any(|(h, c)| fixed(h, c).is_some_and(|f| f != c));
    if !needs {
        return rec;
    }
    let mut out = csv::StringRecord::new();
    for (i, cell) in rec.iter().enumerate() {
        let column = header.get(i).unwrap_or("");
        out.push_field(fixed(column, cell).unwrap_or(cell));
    }
    out.set_position(rec.position().cloned());
    out
}

/// Why a cell does not read as its column's type, with the value quoted
/// (bounded, so a huge cell gives a line).
fn cell_error(kind: &csv::DeserializeErrorKind, value: Option<&str>) -> String {
    use csv::DeserializeErrorKind as K;
    use std::num::IntErrorKind;
    let Some(value) = value else {
        return kind.to_string();
    };
    let quoted = format!("{:?}", crate::model::excerpt(value, 120));
    match kind {
        K::ParseInt(e) => match e.kind() {
            IntErrorKind::Empty => "the cell is empty: a whole number is wanted".into(),
            IntErrorKind::PosOverflow => format!("{quoted} is too large a number"),
            _ if value.len() > 1
                && value.starts_with('-')
                && value[1..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                format!("{quoted} is below 0: a whole number of 0 or more is wanted")
            }
            _ => format!("{quoted} is not a whole number"),
        },
        K::ParseFloat(_) => format!("{quoted} is not a number"),
        K::ParseBool(_) => format!("{quoted} is not true or false"),
        K::InvalidUtf8(_) => "the cell is not UTF-8 text".into(),
        // Serde's own words (an unknown field, a value of the wrong kind).
        K::Message(_) | K::Unsupported(_) | K::UnexpectedEndOfRow => {
            format!("{quoted}: {kind}")
        }
    }
}

/// A new season's files for `league`: the files (name, text), the
/// league's title and the season named.
pub(crate) type Template = (Vec<(String, String)>, String, String);

/// `season init`: a commented season file naming four spreadsheets, and
/// the spreadsheets with the columns the league's rules need; and the
/// league's name in full.
pub(crate) fn template(league: &str) -> Result<Template, String> {
    template_on(league, crate::model::Date::today())
}

/// The season `season init` names on `today`, as `2026-27`.
fn season_name(today: crate::model::Date) -> String {
    let start = season_start(today);
    format!("{start}-{:02}", (start + 1) % 100)
}

/// The season a league starting in the autumn is in on `today`: its first
/// year (from July, the one now; before, the one before).
fn season_start(today: crate::model::Date) -> i32 {
    let year = i32::from(today.year);
    if today.month >= super::SEASON_FIRST_MONTH {
        year
    } else {
        year - 1
    }
}

/// `template`, for the season current on `today`.
fn template_on(league: &str, today: crate::model::Date) -> Result<Template, String> {
    let l = if crate::rules::league_name(league).is_some() {
        super::League::builtin(league)
    } else {
        None
    };
    let mut copy = None;
    let l = match l {
        Some(l) => l,
        None if league.ends_with(".toml") => {
            let text = std::fs::read_to_string(league).map_err(|e| format!("{league}: {e}"))?;
            let l = super::League::parse(league, &text)?;
            copy = Some(text);
            l
        }
        None => {
            return Err(format!(
                "unknown league {league:?}: give ddcl, hs-league or a league file (docs/leagues.md)"
            ))
        }
    };
    let rules = if league.ends_with(".toml") {
        // The season file names the league file beside it.
        Path::new(league)
            .file_name()
            .map_or(league.to_string(), |n| n.to_string_lossy().into_owned())
    } else {
        l.name.clone()
    };
    if [
        "season.toml",
        "teams.csv",
        "players.csv",
        "fixtures.csv",
        "boards.csv",
    ]
    .contains(&rules.as_str())
    {
        return Err(format!(
            "{league}: a league file named {rules} would be written over by the template's own {rules}: rename it"
        ));
    }
    let mut players = vec!["name", "team"];
    match l.board_order.as_ref().map(|o| o.by) {
        Some(super::league::Strength::Rating) => players.push("rating"),
        Some(super::league::Strength::Grade) => {
            players.extend(["grade", "estimated_grade", "estimated_on"])
        }
        None if l.cup.is_some() => players.push("grade"),
        None => {}
    }
    if l.player_of_year.is_some() {
        players.push("end_grade");
    }
    if l.needs_school_grade() {
        players.push("school_grade");
    }
    if l.needs_preseason_board() {
        players.push("preseason_board");
    }
    if l.ratings.is_none() {
        players.push("ecf_code");
    }
    let mut fixtures = vec![
        "id",
        "date",
        "competition",
        "division",
        "round",
        "home",
        "away",
        "status",
        "defaulted_by",
        "notice_hours",
    ];
    if l.default
        .as_ref()
        .is_some_and(|d| d.without_warning_deduct > 0.0)
    {
        fixtures.push("without_warning");
    }
    if l.empty_board.short_tie_notice_hours.is_some() {
        fixtures.extend(["short_notice_hours", "short_notice_by"]);
    }
    if l.cup.is_some() {
        fixtures.extend(["final_round", "home_colour_board1"]);
    }
    let mut boards = vec![
        "fixture",
        "board",
        "home",
        "away",
        "result",
        "score",
        "pgn",
        "home_colour",
    ];
    if l.substitutes.is_some() {
        boards.extend(["substitute", "replaces", "captains_agreed"]);
    }
    if l.lineup.is_some() {
        boards.push("no_show");
    }
    if l.cup.is_some() {
        boards.push("tiebreak");
    }
    let start = season_start(today);
    let season = format!(
        r#"# A season of the {title_line}. Fill in the four spreadsheets beside this file
# (one row a team, a player, a fixture, a board; the columns are described in
# docs/seasons.md), then run: arbiter season season.toml --out season-out
# In boards.csv, `result` is White's first, as in PGN (1-0: White won), and `score` the home
# player's first, as on a match card (0-1: the home player lost): give one of the two. With
# the home player on Black (every even board unless `home_colour` says), the two differ.
league = {title}
season = "{name}"
rules = {rules_q}
# The rules games given as PGN are judged under ({games_cite}): uncomment to change.
# ruleset = {ruleset}
# The grading list the grades come from, and its date.
grading_list = ""
# grading_date = "{start}-09-01"

[csv]
teams = "teams.csv"
players = "players.csv"
fixtures = "fixtures.csv"
boards = "boards.csv"

# For the ECF's results-submission file (ecf-submission.txt): uncomment and fill in.
# [ecf]
# event_code = ""
# submission_index = 1
# event_name = ""
# event_date = "{start}-09-01"
# final_result_date = "{end}-05-31"
# results_officer = ""
# results_officer_address = ""
# treasurer = ""
# treasurer_address = ""
"#,
        // Quoted as TOML quotes them, so any name reads back as written.
        title = toml::Value::String(l.title.clone()),
        title_line = l.title.replace(['\n', '\r'], " "),
        rules_q = toml::Value::String(rules.clone()),
        games_cite = l.games.cite.replace(['\n', '\r'], " "),
        ruleset = toml::Value::String(l.games.ruleset.clone()),
        name = season_name(today),
        end = start + 1,
    );
    let line = |cols: &[&str]| cols.join(",") + "\n";
    let mut files = vec![
        ("season.toml".to_string(), season),
        ("teams.csv".to_string(), line(&["name", "club", "division"])),
        ("players.csv".to_string(), line(&players)),
        ("fixtures.csv".to_string(), line(&fixtures)),
        ("boards.csv".to_string(), line(&boards)),
    ];
    // A league of the grader's own goes beside the season that names it.
    if let Some(text) = copy {
        files.push((rules, text));
    }
    Ok((files, l.title, season_name(today)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Date;

    /// `season init` names the season current on the day it runs, and
    /// dates the ECF fields within it.
    #[test]
    fn a_new_season_is_the_one_current_on_the_day() {
        for (today, season, first, last) in [
            ("2027-03-10", "2026-27", "2026-09-01", "2027-05-31"),
            ("2027-06-30", "2026-27", "2026-09-01", "2027-05-31"),
            ("2027-07-01", "2027-28", "2027-09-01", "2028-05-31"),
            ("2099-12-31", "2099-00", "2099-09-01", "2100-05-31"),
        ] {
            let day = Date::parse(today).expect("date");
            let (files, _, name) = template_on("ddcl", day).expect("template");
            assert_eq!(name, season);
            let toml = &files
                .iter()
                .find(|(n, _)| n == "season.toml")
                .expect("season")
                .1;
            assert!(
                toml.contains(&format!("\nseason = \"{season}\"\n")),
                "{today}: {toml}"
            );
            assert!(
                toml.contains(&format!("# grading_date = \"{first}\"")),
                "{toml}"
            );
            assert!(
                toml.contains(&format!("# event_date = \"{first}\"")),
                "{toml}"
            );
            assert!(
                toml.contains(&format!("# final_result_date = \"{last}\"")),
                "{toml}"
            );
        }
    }
}
