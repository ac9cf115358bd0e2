//! The Darlington & District Chess League rules (DDCL 3–15) applied to a season.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{
    colours, empty_table, home_score, match_name, model::*, rank, seats, CupRow, GradingRow,
    PoyRow, Report, Standing, Violation,
};
use crate::model::GameResult;

use super::params::DDCL;

fn grade_text(g: Option<u32>) -> String {
    g.map_or_else(|| "u/g".to_string(), |g| g.to_string())
}

/// The first board a side fielded out of order (DDCL 7, 8), with why.
pub(crate) fn out_of_order(
    season: &Season,
    f: &Fixture,
    seats: &[(u32, usize)],
    tolerance: u32,
) -> Option<(u32, String)> {
    let grades: Vec<(u32, &str, Option<u32>)> = seats
        .iter()
        .map(|&(b, p)| {
            (
                b,
                season.player(p).name.as_str(),
                season.player(p).grade_on(f.date),
            )
        })
        .collect();
    for (i, &(bi, ni, gi)) in grades.iter().enumerate() {
        for &(bj, nj, gj) in &grades[i + 1..] {
            match (gi, gj) {
                (None, Some(g)) => {
                    return Some((
                        bi,
                        format!("ungraded {ni} on board {bi} above {nj} ({g}) on board {bj}"),
                    ));
                }
                (Some(a), Some(b)) if b > a + tolerance => {
                    return Some((bi, format!("{ni} ({a}) on board {bi} above {nj} ({b}) on board {bj}: more than {tolerance} points apart")));
                }
                _ => {}
            }
        }
    }
    None
}

struct MatchScore {
    home: f64,
    away: f64,
}

pub(crate) fn process(season: &Season) -> Report {
    let mut report = Report::default();
    let mut table = empty_table(season);
    let mut fixtures: Vec<&Fixture> = season.fixtures.iter().collect();
    fixtures.sort_by_key(|f| f.date);
    for f in fixtures
        .iter()
        .filter(|f| f.competition == Competition::League)
    {
        league_match(season, f, &mut table, &mut report);
    }
    for f in fixtures
        .iter()
        .filter(|f| f.competition == Competition::Cup)
    {
        cup_match(season, f, &mut report);
    }
    report.standings = table
        .into_values()
        .filter(|s| s.played > 0 || !s.division.is_empty())
        .collect();
    rank(
        &mut report.standings,
        "DDCL 12",
        super::TieBreak::GamePoints,
    );
    report.poy = player_of_year(season);
    report
}

fn league_match(
    season: &Season,
    f: &Fixture,
    table: &mut BTreeMap<usize, Standing>,
    report: &mut Report,
) {
    let name = match_name(season, f);
    let score = match f.status {
        FixtureStatus::Postponed => return,
        FixtureStatus::Defaulted => {
            let by = f.defaulted_by.unwrap_or(f.away);
            // DDCL 3: a default only with less than 72 hours' notice; with
            // more, the fixture is rearranged and not scored until it is.
            if f.notice_hours.is_some_and(|h| h >= DDCL.notice_hours) {
                report.notes.push(Violation::new(
                    f,
                    None,
                    "DDCL 3",
                    format!(
                        "{} could not play ({} h notice, at least {} h): the fixture is to be rearranged",
                        season.team(by).name,
                        f.notice_hours.unwrap_or(0),
                        DDCL.notice_hours
                    ),
                    "not scored until it is played",
                ));
                return;
            }
            let notice = f
                .notice_hours
                .map_or("no notice".to_string(), |h| format!("{h} h notice"));
            report.violations.push(Violation::new(
                f,
                None,
                "DDCL 3",
                format!(
                    "{} could not play ({notice}, under {} h)",
                    season.team(by).name,
                    DDCL.notice_hours
                ),
                "match lost by default, 0-5",
            ));
            if f.without_warning {
                table.entry(by).or_default().penalty += 1.0;
                report.violations.push(Violation::new(
                    f,
                    None,
                    "DDCL 4",
                    format!("{} defaulted without warning", season.team(by).name),
                    "1 match point deducted",
                ));
            }
            if by == f.home {
                MatchScore {
                    home: 0.0,
                    away: f64::from(DDCL.league_boards),
                }
            } else {
                MatchScore {
                    home: f64::from(DDCL.league_boards),
                    away: 0.0,
                }
            }
        }
        FixtureStatus::Played => played_match(season, f, table, report, &name),
    };
    let (h, a) = (f.home, f.away);
    for (team, ours, theirs) in [(h, score.home, score.away), (a, score.away, score.home)] {
        let s = table.entry(team).or_default();
        s.played += 1;
        s.game_points += ours;
        if ours > theirs {
            s.won += 1;
            s.match_points += DDCL.win_points;
        } else if ours == theirs {
            s.drawn += 1;
            s.match_points += DDCL.draw_points;
        } else {
            s.lost += 1;
        }
    }
    // Penalties come off after the result.
    for s in table.values_mut() {
        s.match_points =
            s.won as f64 * DDCL.win_points + s.drawn as f64 * DDCL.draw_points - s.penalty;
    }
}

fn played_match(
    season: &Season,
    f: &Fixture,
    table: &mut BTreeMap<usize, Standing>,
    report: &mut Report,
    name: &str,
) -> MatchScore {
    let mut scores = Scores::new();
    for b in &f.boards {
        if let Some(h) = home_score(b) {
            scores.insert(b.board, (h, 1.0 - h, true));
        }
    }
    empty_seats(season, f, &mut scores, report);
    out_of_order_boards(season, f, &mut scores, table, report);
    substitutes(season, f, report);
    // Rated games: only games actually played.
    for b in &f.boards {
        if let Some((w, bl)) = colours(b) {
            report
                .grading
                .push(grading_row(season, f, b, w, bl, name, true));
        }
    }
    let home: f64 = scores.values().map(|s| s.0).sum();
    let away: f64 = scores.values().map(|s| s.1).sum();
    MatchScore { home, away }
}

/// Board -> (home, away, rated): each board's score in a league match.
type Scores = HashMap<u32, (f64, f64, bool)>;

/// DDCL 5: an empty seat is board 5 tied (a four-player team with notice),
/// or a default otherwise.
fn empty_seats(season: &Season, f: &Fixture, scores: &mut Scores, report: &mut Report) {
    for board in 1..=DDCL.league_boards {
        let b = f.boards.iter().find(|b| b.board == board);
        let (hp, ap) = b.map_or((None, None), |b| (b.home, b.away));
        if hp.is_some() && ap.is_some() {
            continue;
        }
        // An empty seat: DDCL 5 for board 5 of a four-player team, a default otherwise.
        let short_home = hp.is_none();
        let short_away = ap.is_none();
        let tie = board == DDCL.league_boards
            && f.short_notice_hours.is_some_and(|h| h >= DDCL.notice_hours)
            && short_home != short_away;
        if tie {
            scores.insert(board, (0.5, 0.5, false));
            let team = if short_home { f.home } else { f.away };
            report.notes.push(Violation::new(
                f,
                Some(board),
                "DDCL 5",
                format!(
                    "{} fielded four players with {} h notice",
                    season.team(team).name,
                    f.short_notice_hours.unwrap_or(0)
                ),
                "board 5 classed as a tie, not graded",
            ));
        } else {
            let (h, a) = match (short_home, short_away) {
                (true, true) => (0.0, 0.0),
                (true, false) => (0.0, 1.0),
                _ => (1.0, 0.0),
            };
            scores.insert(board, (h, a, false));
            for (short, team) in [(short_home, f.home), (short_away, f.away)] {
                if short {
                    let notice = f
                        .short_notice_hours
                        .map_or("no notice".to_string(), |h| format!("{h} h notice"));
                    report.violations.push(Violation::new(
                        f,
                        Some(board),
                        "DDCL 5",
                        format!(
                            "{} had no player on board {board} ({notice})",
                            season.team(team).name
                        ),
                        "board lost by default",
                    ));
                }
            }
        }
    }
}

/// DDCL 7–9: a side out of order forfeits that board and all below, and a point.
fn out_of_order_boards(
    season: &Season,
    f: &Fixture,
    scores: &mut Scores,
    table: &mut BTreeMap<usize, Standing>,
    report: &mut Report,
) {
    for (home, team) in [(true, f.home), (false, f.away)] {
        if let Some((from, why)) = out_of_order(season, f, &seats(f, home), DDCL.order_tolerance) {
            for board in from..=DDCL.league_boards {
                let e = scores.entry(board).or_insert((0.0, 0.0, false));
                if home {
                    e.0 = 0.0;
                    if e.1 == 0.5 || e.2 {
                        e.1 = 1.0;
                    }
                } else {
                    e.1 = 0.0;
                    if e.0 == 0.5 || e.2 {
                        e.0 = 1.0;
                    }
                }
            }
            table.entry(team).or_default().penalty += 1.0;
            report.violations.push(Violation::new(
                f,
                Some(from),
                "DDCL 9",
                format!("{} out of order: {why}", season.team(team).name),
                &format!(
                    "boards {from}-{} forfeited and 1 point deducted",
                    DDCL.league_boards
                ),
            ));
        }
    }
}

/// DDCL 10: late substitutes are noted; a stronger one needs both captains' consent.
fn substitutes(season: &Season, f: &Fixture, report: &mut Report) {
    for b in &f.boards {
        if let Some((side, replaced)) = &b.substitute {
            let sub = if *side == MatchSide::Home {
                b.home
            } else {
                b.away
            };
            let sub_grade = sub.and_then(|p| season.player(p).grade_on(f.date));
            let orig = season
                .players
                .iter()
                .find(|p| &p.name == replaced)
                .and_then(|p| p.grade_on(f.date));
            let mut what = format!("late substitute for {replaced}: the clock was not restarted, so 30 minutes were already used");
            let mut breach = false;
            if let (Some(s), Some(o)) = (sub_grade, orig) {
                if s > o + DDCL.order_tolerance {
                    breach = true;
                    what.push_str(&format!("; graded {s}, more than {} above {replaced} ({o}): allowed only if both captains agreed", DDCL.order_tolerance));
                }
            }
            // A substitute is what DDCL 10 provides for; a stronger one
            // without both captains' agreement is a breach of it.
            if breach {
                report.violations.push(Violation::new(
                    f,
                    Some(b.board),
                    "DDCL 10",
                    what,
                    "none stated (unless both captains agreed)",
                ));
            } else {
                report
                    .notes
                    .push(Violation::new(f, Some(b.board), "DDCL 10", what, "none"));
            }
        }
    }
}

fn grading_row(
    season: &Season,
    f: &Fixture,
    b: &Board,
    w: usize,
    bl: usize,
    name: &str,
    league: bool,
) -> GradingRow {
    GradingRow {
        date: f.date.to_string(),
        event: if league {
            format!(
                "{} {} Division {}",
                season.league, season.season, f.division
            )
        } else {
            format!("{} {} Knockout Cup", season.league, season.season)
        },
        fixture: name.to_string(),
        board: b.board,
        white: w,
        black: bl,
        score: b.result.unwrap_or(GameResult::Unknown),
        home_colour: if b.home_white { "white" } else { "black" },
        white_grade: grade_text(season.player(w).grade_on(f.date)),
        black_grade: grade_text(season.player(bl).grade_on(f.date)),
        league,
    }
}

/// DDCL 14(i): handicap in board points for a grade-total difference.
pub fn cup_handicap(difference: f64) -> f64 {
    DDCL.cup_handicap(difference)
}

/// A side's grade total for the handicap: an ungraded player counts as the
/// average of the other three (14(m)), a forfeited board as the average of
/// the others (14(j)).
pub fn cup_grade_total(grades: &[Option<u32>]) -> f64 {
    let known: Vec<f64> = grades.iter().flatten().map(|&g| f64::from(g)).collect();
    if known.is_empty() {
        return 0.0;
    }
    let avg = known.iter().sum::<f64>() / known.len() as f64;
    known.iter().sum::<f64>() + avg * (DDCL.cup_boards as usize - known.len()) as f64
}

fn cup_match(season: &Season, f: &Fixture, report: &mut Report) {
    // DDCL 14(h): a team that cannot play the tie forfeits the match; the
    // other goes through. Nothing is played, so nothing is graded.
    if f.status == FixtureStatus::Defaulted {
        cup_default(season, f, report);
        return;
    }
    if f.status == FixtureStatus::Postponed {
        return;
    }
    let name = match_name(season, f);
    let mut home_boards = 0.0;
    let mut away_boards = 0.0;
    let mut grades: [Vec<Option<u32>>; 2] = [Vec::new(), Vec::new()];
    for (side, home) in [(0, true), (1, false)] {
        let (side_grades, missing) = cup_side(season, f, home, report);
        grades[side] = side_grades;
        if home {
            away_boards += missing as f64;
        } else {
            home_boards += missing as f64;
        }
    }
    for b in &f.boards {
        if let Some(h) = home_score(b) {
            home_boards += h;
            away_boards += 1.0 - h;
        }
        if let Some((w, bl)) = colours(b) {
            report
                .grading
                .push(grading_row(season, f, b, w, bl, &name, false));
        }
    }
    // Ungraded players without an estimate count as the average of the others: grades holds None for them.
    let home_total = cup_grade_total(&grades[0]);
    let away_total = cup_grade_total(&grades[1]);
    let difference = (home_total - away_total).abs();
    let handicap = cup_handicap(difference);
    let (mut home_sum, mut away_sum) = (home_boards, away_boards);
    let handicap_to = if handicap == 0.0 {
        String::new()
    } else if home_total < away_total {
        home_sum += handicap;
        season.team(f.home).name.clone()
    } else {
        away_sum += handicap;
        season.team(f.away).name.clone()
    };
    let (tiebreak, winner) = if home_sum > away_sum {
        (String::new(), season.team(f.home).name.clone())
    } else if away_sum > home_sum {
        (String::new(), season.team(f.away).name.clone())
    } else {
        cup_tiebreak(season, f)
    };
    report.cup.push(CupRow {
        fixture: f.id.clone(),
        round: f.round.clone(),
        date: f.date.to_string(),
        home: season.team(f.home).name.clone(),
        away: season.team(f.away).name.clone(),
        home_grade_total: home_total,
        away_grade_total: away_total,
        difference,
        handicap,
        handicap_to,
        home_boards,
        away_boards,
        home_total: home_sum,
        away_total: away_sum,
        tiebreak,
        winner,
    });
}

/// One side of a cup tie (DDCL 14(c), 14(k), 14(d)): its violations added
/// to `report`; the grades of its players, and the boards it left empty.
fn cup_side(
    season: &Season,
    f: &Fixture,
    home: bool,
    report: &mut Report,
) -> (Vec<Option<u32>>, usize) {
    let mut grades = Vec::new();
    let seated = seats(f, home);
    for &(_, p) in &seated {
        grades.push(season.player(p).grade_on(f.date));
    }
    let missing = DDCL.cup_boards as usize - seated.len().min(DDCL.cup_boards as usize);
    if missing > 0 {
        let team = if home { f.home } else { f.away };
        let from = DDCL.cup_boards as usize - missing + 1;
        let penalty = if from as u32 == DDCL.cup_boards {
            format!("board {} forfeited", DDCL.cup_boards)
        } else {
            format!("boards {from}-{} forfeited", DDCL.cup_boards)
        };
        report.violations.push(Violation::new(
            f,
            Some(from as u32),
            "DDCL 14(c)",
            format!(
                "{} fielded {} players",
                season.team(team).name,
                seated.len()
            ),
            &penalty,
        ));
    }
    // 14(k): DDCL grade order, no tolerance; 14(p): referred to the organiser.
    if let Some((from, why)) = out_of_order(season, f, &seated, 0) {
        let team = if home { f.home } else { f.away };
        report.violations.push(Violation::new(
            f,
            Some(from),
            "DDCL 14(k)",
            format!("{} not in grade order: {why}", season.team(team).name),
            "referred to the competition organiser (DDCL 14(p))",
        ));
    }
    // 14(d): in the final every player must have played a league game for the club.
    if f.final_round {
        let club = &season.team(if home { f.home } else { f.away }).club;
        for &(board, p) in &seated {
            let played_league = season.fixtures.iter().any(|g| {
                g.competition == Competition::League
                    && g.status == FixtureStatus::Played
                    && g.boards.iter().any(|b| {
                        (b.home == Some(p) && &season.team(g.home).club == club)
                            || (b.away == Some(p) && &season.team(g.away).club == club)
                    })
            });
            if !played_league {
                report.violations.push(Violation::new(
                    f,
                    Some(board),
                    "DDCL 14(d)",
                    format!(
                        "{} has played no league game for {club} this season",
                        season.player(p).name
                    ),
                    "not eligible for the final: referred to the competition organiser",
                ));
            }
        }
    }
    (grades, missing)
}

/// DDCL 14(h): the tie forfeited by the team that could not play it.
fn cup_default(season: &Season, f: &Fixture, report: &mut Report) {
    let by = f.defaulted_by.unwrap_or(f.away);
    let other = if by == f.home { f.away } else { f.home };
    report.violations.push(Violation::new(
        f,
        None,
        "DDCL 14(h)",
        format!("{} could not play the tie", season.team(by).name),
        &format!("match forfeited: {} goes through", season.team(other).name),
    ));
    let n = f64::from(DDCL.cup_boards);
    let (home_boards, away_boards) = if by == f.home { (0.0, n) } else { (n, 0.0) };
    report.cup.push(CupRow {
        fixture: f.id.clone(),
        round: f.round.clone(),
        date: f.date.to_string(),
        home: season.team(f.home).name.clone(),
        away: season.team(f.away).name.clone(),
        home_grade_total: 0.0,
        away_grade_total: 0.0,
        difference: 0.0,
        handicap: 0.0,
        handicap_to: String::new(),
        home_boards,
        away_boards,
        home_total: home_boards,
        away_total: away_boards,
        tiebreak: format!("{} forfeited the match (DDCL 14(h))", season.team(by).name),
        winner: season.team(other).name.clone(),
    });
}

/// DDCL 14(l): a tie level after the handicap is replayed by the same
/// pairs with colours reversed (boards 1-4), then single games. What
/// decided it, and the winner (empty while it is still tied).
fn cup_tiebreak(season: &Season, f: &Fixture) -> (String, String) {
    // DDCL 14(l): the same pairs with colours reversed (boards 1-4), then single games.
    let replay: Vec<&Board> = f.tiebreaks.iter().take(DDCL.cup_boards as usize).collect();
    let h: f64 = replay.iter().filter_map(|b| home_score(b)).sum();
    let a = replay.iter().filter(|b| b.result.is_some()).count() as f64 - h;
    let mut tiebreak = format!("replay {h}-{a}");
    let winner = if h != a && !replay.is_empty() {
        if h > a {
            season.team(f.home).name.clone()
        } else {
            season.team(f.away).name.clone()
        }
    } else {
        let mut decided = String::new();
        for b in f.tiebreaks.iter().skip(DDCL.cup_boards as usize) {
            match home_score(b) {
                Some(x) if x > 0.5 => {
                    decided = season.team(f.home).name.clone();
                    tiebreak.push_str(&format!(", single game {}", b.board));
                    break;
                }
                Some(x) if x < 0.5 => {
                    decided = season.team(f.away).name.clone();
                    tiebreak.push_str(&format!(", single game {}", b.board));
                    break;
                }
                _ => {}
            }
        }
        if decided.is_empty() {
            tiebreak.push_str("; still tied: tie-break games (DDCL 14(l)) to be played");
        }
        decided
    };
    (tiebreak, winner)
}

/// DDCL 15: league games only, conceded games excluded, at least 75% of the
/// matches available, best points per game, tie broken by % grade increase.
fn player_of_year(season: &Season) -> Vec<PoyRow> {
    let league: Vec<&Fixture> = season
        .fixtures
        .iter()
        .filter(|f| f.competition == Competition::League && f.status != FixtureStatus::Postponed)
        .collect();
    let settings = season.player_of_year;
    // Boards forfeited under DDCL 9, by fixture: (fixture id, side is home, first board).
    let forfeited = |f: &Fixture, home: bool| -> Option<u32> {
        out_of_order(season, f, &seats(f, home), DDCL.order_tolerance).map(|(b, _)| b)
    };
    let mut rows = Vec::new();
    for (i, p) in season.players.iter().enumerate() {
        let available = league
            .iter()
            .filter(|f| f.home == p.team || f.away == p.team)
            .filter(|f| {
                settings.defaulted_matches_available
                    || !(f.status == FixtureStatus::Defaulted && f.defaulted_by != Some(p.team))
            })
            .count() as u32;
        let mut games = 0u32;
        let mut points = 0.0;
        let mut matches = BTreeSet::new();
        for f in league.iter().filter(|f| f.status == FixtureStatus::Played) {
            let cut = [forfeited(f, true), forfeited(f, false)];
            for b in &f.boards {
                let Some(h) = home_score(b) else { continue };
                let side_cut = if b.home == Some(i) { cut[0] } else { cut[1] };
                if !settings.count_forfeited_boards && side_cut.is_some_and(|from| b.board >= from)
                {
                    continue;
                }
                if b.home == Some(i) {
                    games += 1;
                    points += h;
                    matches.insert(f.id.clone());
                } else if b.away == Some(i) {
                    games += 1;
                    points += 1.0 - h;
                    matches.insert(f.id.clone());
                }
            }
        }
        if games == 0 {
            continue;
        }
        let played = matches.len() as u32;
        let increase = match (p.grade, p.end_grade) {
            (Some(a), Some(b)) if a > 0 => {
                Some((f64::from(b) - f64::from(a)) * 100.0 / f64::from(a))
            }
            _ => None,
        };
        rows.push(PoyRow {
            player: p.name.clone(),
            team: season.team(p.team).name.clone(),
            games,
            points,
            ratio: points / f64::from(games),
            matches_played: played,
            matches_available: available,
            eligible: f64::from(played) >= DDCL.poy_min_share * f64::from(available),
            grade_increase_pct: increase,
            rank: None,
        });
    }
    rows.sort_by(|a, b| {
        (
            !a.eligible,
            -a.ratio,
            -a.grade_increase_pct.unwrap_or(f64::MIN),
            a.player.clone(),
        )
            .partial_cmp(&(
                !b.eligible,
                -b.ratio,
                -b.grade_increase_pct.unwrap_or(f64::MIN),
                b.player.clone(),
            ))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    // Ties are ties: the same ratio and the same grade increase (or none
    // for either) share a rank.
    let mut rank = 0;
    let mut seen = 0;
    let mut prev: Option<(f64, Option<f64>)> = None;
    for r in rows.iter_mut().filter(|r| r.eligible) {
        seen += 1;
        let key = (r.ratio, r.grade_increase_pct);
        if prev != Some(key) {
            rank = seen;
        }
        r.rank = Some(rank);
        prev = Some(key);
    }
    rows
}
