//! The US high-school league rules (HSL II–XV) applied to a season: lineups,
//! forfeits, match scores, and ratings.

use std::collections::HashMap;

use super::{
    colours, empty_table, home_score, match_name, model::*, rank, seats, GradingRow, RatingRow,
    Report, Violation,
};
use crate::model::GameResult;

use super::params::HS_LEAGUE;

/// HSL II: 1600 for board 1 down to 1000 for board 7, 1000 for board 8, 900 after.
pub fn starting_rating(board: u32) -> f64 {
    HS_LEAGUE.starting_rating(board)
}

pub fn expected(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

pub(crate) fn process(season: &Season) -> Report {
    let mut report = Report::default();
    let mut ratings: Vec<f64> = season
        .players
        .iter()
        .map(|p| starting_rating(p.preseason_board.unwrap_or(99)))
        .collect();
    let starts = ratings.clone();
    let mut games = vec![0u32; season.players.len()];
    let mut forfeit_wins = vec![0u32; season.players.len()];
    let mut last_board: HashMap<usize, u32> = HashMap::new();
    let mut table = empty_table(season);
    let mut fixtures: Vec<&Fixture> = season
        .fixtures
        .iter()
        .filter(|f| f.status == FixtureStatus::Played)
        .collect();
    fixtures.sort_by_key(|f| f.date);
    for f in fixtures {
        let name = match_name(season, f);
        let mut illegal = [false, false];
        for (side, home) in [(0usize, true), (1usize, false)] {
            illegal[side] = lineup(season, f, home, &last_board, &mut report);
        }
        let (home_pts, away_pts, rated) =
            score_boards(season, f, &mut ratings, &mut forfeit_wins, &mut report);
        // Elo from the ratings at the start of the match.
        let before = ratings.clone();
        for &(h, a, s) in &rated {
            ratings[h] += HS_LEAGUE.k_factor * (s - expected(before[h], before[a]));
            ratings[a] += HS_LEAGUE.k_factor * ((1.0 - s) - expected(before[a], before[h]));
            games[h] += 1;
            games[a] += 1;
        }
        grading_rows(season, f, &name, &before, &mut report);
        for b in &f.boards {
            for p in [b.home, b.away].into_iter().flatten() {
                last_board.insert(p, b.board);
            }
        }
        enter_match(&mut table, f, illegal, home_pts, away_pts);
    }
    report.standings = table.into_values().collect();
    rank(&mut report.standings, "HSL XIV", super::TieBreak::PlayOff);
    report.ratings = season
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| RatingRow {
            player: p.name.clone(),
            team: season.team(p.team).name.clone(),
            start: starts[i],
            games: games[i],
            forfeit_wins: forfeit_wins[i],
            rating: ratings[i],
        })
        .collect();
    report
}

/// Game points over the varsity boards (an empty seat loses that board,
/// its opponent's forfeit bonus added), and every game to rate, junior
/// varsity (board 8 on) included, as (home, away, home's score).
fn score_boards(
    season: &Season,
    f: &Fixture,
    ratings: &mut [f64],
    forfeit_wins: &mut [u32],
    report: &mut Report,
) -> (f64, f64, Vec<(usize, usize, f64)>) {
    let (mut home_pts, mut away_pts) = (0.0, 0.0);
    let mut rated: Vec<(usize, usize, f64)> = Vec::new();
    // Junior-varsity games are rated but not scored.
    for b in f
        .boards
        .iter()
        .filter(|b| b.board > HS_LEAGUE.varsity_boards)
    {
        if let (Some(h), Some(a), Some(s)) = (b.home, b.away, home_score(b)) {
            rated.push((h, a, s));
        }
    }
    for b in f
        .boards
        .iter()
        .filter(|b| b.board <= HS_LEAGUE.varsity_boards)
    {
        let winner = match (b.home, b.away, home_score(b)) {
            (Some(h), Some(a), Some(s)) => {
                home_pts += s;
                away_pts += 1.0 - s;
                rated.push((h, a, s));
                continue;
            }
            (Some(h), None, _) => {
                home_pts += 1.0;
                h
            }
            (None, Some(a), _) => {
                away_pts += 1.0;
                a
            }
            _ => continue,
        };
        forfeit_wins[winner] += 1;
        ratings[winner] += HS_LEAGUE.forfeit_bonus;
        report.notes.push(forfeit_note(season, f, b, winner));
    }
    (home_pts, away_pts, rated)
}

/// The grading file's rows for a match's games, with the ratings the
/// players had at its start.
fn grading_rows(season: &Season, f: &Fixture, name: &str, before: &[f64], report: &mut Report) {
    for b in &f.boards {
        if let Some((w, bl)) = colours(b) {
            report.grading.push(GradingRow {
                date: f.date.to_string(),
                event: format!("{} {}", season.league, season.season),
                fixture: name.to_string(),
                board: b.board,
                white: w,
                black: bl,
                score: b.result.unwrap_or(GameResult::Unknown),
                home_colour: if b.home_white { "white" } else { "black" },
                white_grade: format!("{:.0}", before[w]),
                black_grade: format!("{:.0}", before[bl]),
                league: true,
            });
        }
    }
}

/// A match into the table: VII, an illegal lineup forfeits the match;
/// else the side with more game points wins it.
fn enter_match(
    table: &mut std::collections::BTreeMap<usize, super::Standing>,
    f: &Fixture,
    illegal: [bool; 2],
    home_pts: f64,
    away_pts: f64,
) {
    let (home_match, away_match) = match illegal {
        [true, true] => (0.0, 0.0),
        [true, false] => (0.0, 1.0),
        [false, true] => (1.0, 0.0),
        [false, false] if home_pts > away_pts => (1.0, 0.0),
        [false, false] if away_pts > home_pts => (0.0, 1.0),
        _ => (0.5, 0.5),
    };
    for (team, pts, mp) in [
        (f.home, home_pts, home_match),
        (f.away, away_pts, away_match),
    ] {
        let s = table.entry(team).or_default();
        s.played += 1;
        s.game_points += pts;
        if mp == 1.0 {
            s.won += 1;
        } else if mp == 0.5 {
            s.drawn += 1;
        } else {
            s.lost += 1;
        }
        s.match_points += mp;
    }
}

/// The lineup rules for one side of a played match (HSL II, IV, VI): its
/// violations added to `report`; `true` when the lineup is illegal.
fn lineup(
    season: &Season,
    f: &Fixture,
    home: bool,
    last_board: &HashMap<usize, u32>,
    report: &mut Report,
) -> bool {
    let mut illegal = false;
    let team = if home { f.home } else { f.away };
    let team_name = &season.team(team).name;
    let seats: Vec<(u32, usize)> = seats(f, home)
        .into_iter()
        .filter(|s| s.0 <= HS_LEAGUE.varsity_boards)
        .collect();
    for &(board, p) in &seats {
        let player = season.player(p);
        match player.school_grade {
            Some(9..=12) => {}
            Some(8) => report.violations.push(Violation::new(
                f,
                Some(board),
                "HSL II",
                format!(
                    "{} is in grade 8: eligible only when a team lacks players from grades 9-12",
                    player.name
                ),
                "none (coaches' consensus)",
            )),
            other => {
                illegal = true;
                report.violations.push(Violation::new(
                    f,
                    Some(board),
                    "HSL II",
                    format!(
                        "{} is not eligible (school grade {})",
                        player.name,
                        other.map_or("unknown".to_string(), |g| g.to_string())
                    ),
                    "illegal lineup: match forfeited (HSL VII)",
                ));
            }
        }
        // VI.1: after a match, at most one board from the previous
        // lineup; VI.2: a first match on the board assigned before the
        // season, exactly.
        match last_board.get(&p) {
            Some(&prev) if board.abs_diff(prev) > 1 => {
                illegal = true;
                report.violations.push(Violation::new(f, Some(board), "HSL VI.1", format!("{} moved from board {prev} (previous match) to board {board}, more than one board", player.name), "illegal lineup: match forfeited (HSL VII)"));
            }
            Some(_) => {}
            None => {
                let assigned = player.preseason_board.unwrap_or(board);
                if board != assigned {
                    illegal = true;
                    report.violations.push(Violation::new(f, Some(board), "HSL VI.2", format!("{} played board {board} in a first match; the board assigned before the season is {assigned}", player.name), "illegal lineup: match forfeited (HSL VII)"));
                }
            }
        }
    }
    // IV: forfeited boards must be the bottom ones.
    let filled: Vec<u32> = seats.iter().map(|s| s.0).collect();
    if let Some(&top_empty) = (1..=HS_LEAGUE.varsity_boards)
        .filter(|b| !filled.contains(b))
        .collect::<Vec<_>>()
        .first()
    {
        if filled.iter().any(|&b| b > top_empty) {
            illegal = true;
            let want = if home {
                MatchSide::Home
            } else {
                MatchSide::Away
            };
            let absent = f
                .boards
                .iter()
                .find(|b| b.board == top_empty)
                .and_then(|b| b.no_show)
                .filter(|(s, _)| *s == want);
            let what = match absent {
                Some((_, p)) => format!(
                    "{} of {team_name} did not show on board {top_empty}, above a played board: a forfeited board must be a bottom one",
                    season.player(p).name
                ),
                None => format!("{team_name} left board {top_empty} empty above a played board"),
            };
            report.violations.push(Violation::new(
                f,
                Some(top_empty),
                "HSL IV",
                what,
                "illegal lineup: match forfeited (HSL VII)",
            ));
        }
    }
    illegal
}

/// HSL XIII: the player present on a board wins it by forfeit.
fn forfeit_note(season: &Season, f: &Fixture, b: &super::model::Board, winner: usize) -> Violation {
    Violation::new(
        f,
        Some(b.board),
        "HSL XIII",
        match b.no_show {
            Some((_, ns)) => format!(
                "{} wins by forfeit: {} did not show",
                season.player(winner).name,
                season.player(ns).name
            ),
            None => format!("{} wins by forfeit", season.player(winner).name),
        },
        "+16 rating; the no-show loses none",
    )
}
