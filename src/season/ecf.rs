//! The ECF results-submission ("grading") file, rules.md §10.1: `#NAME=value`
//! fields, EVENT DETAILS, PLAYER LIST, one MATCH RESULTS part per match, FINISH.

use std::collections::BTreeMap;

use super::{model::Season, GradingRow};
use crate::{
    model::{one_line, GameResult},
    pgn::time_control::{Period, TimeControl},
};

/// `Surname, Forename` as the ECF writes names (season files already use it).
fn ecf_name(name: &str) -> String {
    name.trim().to_string()
}

/// The games of `rows` the file holds: league games within its dates.
fn in_file<'r>(season: &Season, rows: &'r [GradingRow]) -> Vec<&'r GradingRow> {
    rows.iter()
        .filter(|r| r.league)
        .filter(|r| {
            season
                .ecf
                .as_ref()
                .is_none_or(|e| outside(e, &r.date).is_none())
        })
        .collect()
}

/// Players of the games the file holds who have no ECF code, in order of
/// first appearance: the grading office must match them by name.
pub(crate) fn missing_codes(season: &Season, rows: &[GradingRow]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in in_file(season, rows) {
        for p in [r.white, r.black] {
            let player = season.player(p);
            if player.ecf_code.trim().is_empty() && !out.contains(&player.name) {
                out.push(player.name.clone());
            }
        }
    }
    out
}

/// Players in the file whose names are not written `Surname, Forename`,
/// the form the ECF's NAME field takes (no comma: `Tom Evans`): matched
/// by name, they would not be found.
pub(crate) fn names_not_surname_first(season: &Season, rows: &[GradingRow]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in in_file(season, rows) {
        for p in [r.white, r.black] {
            let name = &season.player(p).name;
            if !name.contains(',') && !out.contains(name) {
                out.push(name.clone());
            }
        }
    }
    out
}

/// Which bound of the submission's dates a game's date passes, if any.
fn outside(ecf: &super::model::RawEcf, date: &str) -> Option<&'static str> {
    let parse = super::model::Date::parse;
    let d = parse(date)?;
    if parse(&ecf.final_result_date).is_some_and(|l| d > l) {
        Some("after final_result_date")
    } else if parse(&ecf.event_date).is_some_and(|f| d < f) {
        Some("before event_date")
    } else {
        None
    }
}

/// The fixtures (id and date) whose league games fall outside the
/// submission's dates, before `event_date` or after `final_result_date`
/// (the last result the file says it holds), with which bound they pass.
pub(crate) fn outside_dates(season: &Season, rows: &[GradingRow]) -> Vec<String> {
    let Some(ecf) = season.ecf.as_ref() else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for r in rows.iter().filter(|r| r.league) {
        let Some(why) = outside(ecf, &r.date) else {
            continue;
        };
        let line = format!("{} ({}, {why})", r.fixture_id, r.date);
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

/// The file for the league games of `rows` (cup games are another event).
/// The ECF's time-limit fields for a control: one of its combinations
/// (minutes for the game; or moves and minutes for one or two sessions,
/// and minutes for the rest), with `SECONDS PER MOVE` for an increment the
/// whole game has; none where the control has no such form.
fn time_fields(tc: &TimeControl) -> Option<Vec<(&'static str, String)>> {
    let minutes = |secs: u32| secs.is_multiple_of(60).then(|| (secs / 60).to_string());
    let mut out = Vec::new();
    let periods = tc.periods();
    // One increment for every period, or none: the ECF has one field.
    let inc = |p: &Period| match *p {
        Period::SuddenDeath { inc, .. } | Period::Moves { inc, .. } => inc,
        Period::Sandclock { .. } => 0,
    };
    let increment = periods.first().map_or(0, inc);
    if periods.iter().any(|p| inc(p) != increment) {
        return None;
    }
    let names = [
        ("MOVES FIRST SESSION", "MINUTES FIRST SESSION"),
        ("MOVES SECOND SESSION", "MINUTES SECOND SESSION"),
    ];
    for (i, p) in periods.iter().enumerate() {
        match *p {
            Period::SuddenDeath { secs, .. } if i + 1 == periods.len() => {
                let name = if i == 0 {
                    "MINUTES FOR GAME"
                } else {
                    "MINUTES REST OF GAME"
                };
                out.push((name, minutes(secs)?));
            }
            Period::Moves { moves, secs, .. } if i < 2 => {
                out.push((names[i].0, moves.to_string()));
                out.push((names[i].1, minutes(secs)?));
            }
            _ => return None,
        }
    }
    // One session of moves and nothing after is no ECF combination.
    let single_session = matches!(periods, [Period::Moves { .. }]);
    if increment > 0 {
        out.push(("SECONDS PER MOVE", increment.to_string()));
    }
    (!out.is_empty() && !single_session).then_some(out)
}

pub(crate) fn submission(season: &Season, rows: &[GradingRow]) -> Result<String, String> {
    let ecf = season
        .ecf
        .as_ref()
        .ok_or("the season file has no [ecf] table")?;
    let date = |s: &str, what: &str| {
        super::model::Date::parse(s)
            .map(|d| d.ecf())
            .ok_or(format!("ecf.{what} {s:?} is not a date (YYYY-MM-DD)"))
    };
    let mut out = String::new();
    let mut field = |name: &str, value: &str| {
        out.push('#');
        out.push_str(name);
        if !value.is_empty() || name.contains("=") {
            out.push('=');
            out.push_str(&one_line(value));
        }
        out.push('\n');
    };
    field("EVENT DETAILS", "");
    field("EVENT CODE", &ecf.event_code);
    field("SUBMISSION INDEX", &ecf.submission_index.to_string());
    field("EVENT NAME", &ecf.event_name);
    field("EVENT DATE", &date(&ecf.event_date, "event_date")?);
    field(
        "FINAL RESULT DATE",
        &date(&ecf.final_result_date, "final_result_date")?,
    );
    field("RESULTS OFFICER", &ecf.results_officer);
    field("RESULTS OFFICER ADDRESS", &ecf.results_officer_address);
    field("TREASURER", &ecf.treasurer);
    field("TREASURER ADDRESS", &ecf.treasurer_address);
    // The time limit is the season's games' control, the ruleset's.
    for (name, value) in time_fields(&season.control.1).ok_or_else(|| {
        format!(
            "the ECF file's time limit: {}'s control has no form in the ECF's fields (whole minutes, one increment for the whole game, at most two sessions before the rest)",
            season.control.0
        )
    })? {
        field(name, &value);
    }
    // Games outside the file's dates are for another file (`outside_dates`
    // names them): not sent twice.
    let league = in_file(season, rows);
    // PINs in order of first appearance.
    let mut pins: BTreeMap<usize, u32> = BTreeMap::new();
    let mut order = Vec::new();
    for r in &league {
        for p in [r.white, r.black] {
            if let std::collections::btree_map::Entry::Vacant(e) = pins.entry(p) {
                e.insert(order.len() as u32 + 1);
                order.push(p);
            }
        }
    }
    field("PLAYER LIST", "");
    for &p in &order {
        let pl = season.player(p);
        let club = &season.team(pl.team).club;
        let mut line = format!("#PIN={}", pins[&p]);
        if !pl.ecf_code.is_empty() {
            line.push_str(&format!("#ECF CODE={}", pl.ecf_code));
        }
        line.push_str(&format!("#NAME={}#CLUB NAME={club}", ecf_name(&pl.name)));
        out.push_str(&one_line(&line));
        out.push('\n');
    }
    // One part a fixture, by its id: two matches of the same teams are two
    // parts, each named with its date, and with its id where the same teams
    // met twice that day.
    let mut named: BTreeMap<(&str, &str), std::collections::BTreeSet<&str>> = BTreeMap::new();
    for r in &league {
        named
            .entry((r.fixture.as_str(), r.date.as_str()))
            .or_default()
            .insert(r.fixture_id.as_str());
    }
    let mut current = None;
    for r in &league {
        if current != Some(&r.fixture_id) {
            let on = super::model::Date::parse(&r.date).map_or(r.date.clone(), |d| d.ecf());
            let id = if named[&(r.fixture.as_str(), r.date.as_str())].len() > 1 {
                format!(" ({})", r.fixture_id)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "#MATCH RESULTS={}, {on}{id}\n",
                one_line(&r.fixture)
            ));
            current = Some(&r.fixture_id);
        }
        // PIN1 is the home player; SCORE is PIN1's, in the ECF's codes.
        let (home, away, home_white) = if r.home_colour == "white" {
            (r.white, r.black, true)
        } else {
            (r.black, r.white, false)
        };
        let home_won = match (r.score, home_white) {
            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => Some(true),
            (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => Some(false),
            _ => None,
        };
        let score = match home_won {
            Some(true) => "10",
            Some(false) => "01",
            None => "55",
        };
        let game_date = super::model::Date::parse(&r.date)
            .map(|d| d.ecf())
            .unwrap_or_default();
        out.push_str(&format!(
            "#PIN1={}#SCORE={score}#PIN2={}#BOARD={}#COLOUR={}#GAME DATE={game_date}\n",
            pins[&home],
            pins[&away],
            r.board,
            if home_white { "WHITE" } else { "BLACK" }
        ));
    }
    out.push_str("#FINISH\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(tag: &str) -> Option<Vec<String>> {
        let tc = TimeControl::parse(tag).ok()?;
        time_fields(&tc).map(|v| v.into_iter().map(|(n, x)| format!("{n}={x}")).collect())
    }

    #[test]
    fn the_ecf_time_limit_is_the_games_control() {
        assert_eq!(
            fields("36/4500:900").unwrap(),
            [
                "MOVES FIRST SESSION=36",
                "MINUTES FIRST SESSION=75",
                "MINUTES REST OF GAME=15"
            ]
        );
        assert_eq!(fields("1800").unwrap(), ["MINUTES FOR GAME=30"]);
        assert_eq!(
            fields("40/7200:20/3600:1800").unwrap(),
            [
                "MOVES FIRST SESSION=40",
                "MINUTES FIRST SESSION=120",
                "MOVES SECOND SESSION=20",
                "MINUTES SECOND SESSION=60",
                "MINUTES REST OF GAME=30"
            ]
        );
        // An increment for the whole game is the ECF's SECONDS PER MOVE.
        assert_eq!(
            fields("900+10").unwrap(),
            ["MINUTES FOR GAME=15", "SECONDS PER MOVE=10"]
        );
        assert_eq!(
            fields("40/5400+30:1800+30").unwrap(),
            [
                "MOVES FIRST SESSION=40",
                "MINUTES FIRST SESSION=90",
                "MINUTES REST OF GAME=30",
                "SECONDS PER MOVE=30"
            ]
        );
        // Increments that differ by period, odd seconds and one session
        // alone have no ECF form.
        for tag in ["40/5400:1800+30", "1830", "40/7200", "*180"] {
            assert_eq!(fields(tag), None, "{tag}");
        }
    }
}
