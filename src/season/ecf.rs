//! The ECF results-submission ("grading") file, rules.md §10.1: `#NAME=value`
//! fields, EVENT DETAILS, PLAYER LIST, one MATCH RESULTS part per match, FINISH.

use std::collections::BTreeMap;

use super::{model::Season, GradingRow};
use crate::model::{one_line, GameResult};

/// `Surname, Forename` as the ECF writes names (season files already use it).
fn ecf_name(name: &str) -> String {
    name.trim().to_string()
}

/// Players of the league games in `rows` who have no ECF code, in order of
/// first appearance: the grading office must match them by name.
pub(crate) fn missing_codes(season: &Season, rows: &[GradingRow]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in rows.iter().filter(|r| r.league) {
        for p in [r.white, r.black] {
            let player = season.player(p);
            if player.ecf_code.trim().is_empty() && !out.contains(&player.name) {
                out.push(player.name.clone());
            }
        }
    }
    out
}

/// The file for the league games of `rows` (cup games are another event).
pub(crate) fn submission(season: &Season, rows: &[GradingRow]) -> Result<String, String> {
    let ecf = season
        .ecf
        .as_ref()
        .ok_or("the season file has no [ecf] table")?;
    let date = |s: &str, what: &str| {
        super::model::Date::parse(s)
            .map(|d| d.ecf())
            .ok_or(format!("ecf.{what} {s:?} is not a date"))
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
    // DDCL 6: 36 moves in 75 minutes, then 15 minutes for the rest.
    field("MOVES FIRST SESSION", "36");
    field("MINUTES FIRST SESSION", "75");
    field("MINUTES REST OF GAME", "15");
    let league: Vec<&GradingRow> = rows.iter().filter(|r| r.league).collect();
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
    let mut current = String::new();
    for r in &league {
        if r.fixture != current {
            out.push_str(&format!("#MATCH RESULTS={}\n", one_line(&r.fixture)));
            current = r.fixture.clone();
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
