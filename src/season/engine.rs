//! The season engine: a league's rules (`league::League`, read from its
//! file) applied to a season. No league is known here by name: each step
//! runs when the league's file has its section, and cites what the file says.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{
    colours, empty_table, home_score, league::*, listed_seats, match_name, model::*, rank, seats,
    CupRow, GradingRow, PoyRow, RatingRow, Report, Standing, Violation,
};
use crate::model::GameResult;

/// Elo's expected score of a player rated `a` against one rated `b`.
pub fn expected(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

/// Whole numbers plainly, fractions as they are.
fn num(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        x.to_string()
    }
}

fn points(x: f64) -> String {
    format!("{} point{}", num(x), if x == 1.0 { "" } else { "s" })
}

fn match_points(x: f64) -> String {
    format!("{} match point{}", num(x), if x == 1.0 { "" } else { "s" })
}

/// Small counts as words, as a rule book writes them.
fn count_word(n: u32) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n as usize)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

/// A player's strength on a date as the league's board order reads it.
fn strength(season: &Season, p: usize, by: Strength, on: Date) -> Option<u32> {
    let player = season.player(p);
    match by {
        Strength::Grade => player.grade_on(on),
        Strength::Rating => player.rating,
    }
}

fn strength_text(s: Option<u32>, by: Strength) -> String {
    match (s, by) {
        (Some(g), _) => g.to_string(),
        (None, Strength::Grade) => "u/g".to_string(),
        (None, Strength::Rating) => "unrated".to_string(),
    }
}

/// Which of the board-order rules a side broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Breach {
    /// A weaker player above a stronger one past the tolerance (DDCL 7).
    Order,
    /// A player without a grade above a graded one (DDCL 8).
    UngradedAbove,
}

/// The first board a side fielded out of order, with why and the rule
/// broken.
pub(crate) fn out_of_order(
    season: &Season,
    f: &Fixture,
    seats: &[(u32, usize)],
    (by, ungraded_below): (Strength, bool),
    tolerance: u32,
) -> Option<(u32, String, Breach)> {
    let list: Vec<(u32, &str, Option<u32>)> = seats
        .iter()
        .map(|&(b, p)| {
            (
                b,
                season.player(p).name.as_str(),
                strength(season, p, by, f.date),
            )
        })
        .collect();
    let unit = match by {
        Strength::Grade => "points",
        Strength::Rating => "rating points",
    };
    for (i, &(bi, ni, gi)) in list.iter().enumerate() {
        for &(bj, nj, gj) in &list[i + 1..] {
            match (gi, gj) {
                (None, Some(g)) if ungraded_below => {
                    let word = if by == Strength::Grade {
                        "ungraded"
                    } else {
                        "unrated"
                    };
                    return Some((
                        bi,
                        format!("{word} {ni} on board {bi} above {nj} ({g}) on board {bj}"),
                        Breach::UngradedAbove,
                    ));
                }
                (Some(a), Some(b)) if b > a + tolerance => {
                    let apart = if tolerance == 0 {
                        String::new()
                    } else {
                        format!(": more than {tolerance} {unit} apart")
                    };
                    return Some((
                        bi,
                        format!("{ni} ({a}) on board {bi} above {nj} ({b}) on board {bj}{apart}"),
                        Breach::Order,
                    ));
                }
                _ => {}
            }
        }
    }
    None
}

/// The state a season carries from match to match.
struct Run<'s> {
    season: &'s Season,
    league: &'s League,
    report: Report,
    table: BTreeMap<usize, Standing>,
    /// Each player's rating now, where the league keeps ratings.
    ratings: Vec<f64>,
    games: Vec<u32>,
    forfeit_wins: Vec<u32>,
    /// The board each player sat at in the team's previous match.
    last_board: HashMap<usize, u32>,
}

pub(crate) fn process(season: &Season) -> Report {
    let league = &season.rules;
    let ratings: Vec<f64> = season
        .players
        .iter()
        .map(|p| league.starting_rating(p.preseason_board.unwrap_or(99)))
        .collect();
    let mut run = Run {
        season,
        league,
        report: Report::default(),
        table: empty_table(season),
        ratings: ratings.clone(),
        games: vec![0; season.players.len()],
        forfeit_wins: vec![0; season.players.len()],
        last_board: HashMap::new(),
    };
    let mut fixtures: Vec<&Fixture> = season.fixtures.iter().collect();
    fixtures.sort_by_key(|f| f.date);
    for f in fixtures
        .iter()
        .filter(|f| f.competition == Competition::League)
    {
        run.league_match(f);
    }
    if let Some(cup) = &league.cup {
        for f in fixtures
            .iter()
            .filter(|f| f.competition == Competition::Cup)
        {
            run.cup_match(cup, f);
        }
    }
    let mut report = std::mem::take(&mut run.report);
    report.standings = std::mem::take(&mut run.table)
        .into_values()
        .filter(|s| s.played > 0 || !s.division.is_empty())
        .collect();
    rank(&mut report.standings, &league.standings);
    if let Some(poy) = &league.player_of_year {
        report.poy = player_of_year(season, league, poy);
    }
    if league.ratings.is_some() {
        report.ratings = season
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| RatingRow {
                player: p.name.clone(),
                team: season.team(p.team).name.clone(),
                start: ratings[i],
                games: run.games[i],
                forfeit_wins: run.forfeit_wins[i],
                rating: run.ratings[i],
            })
            .collect();
    }
    report
}

/// The scale the table stands on, with what it rests on: a rule, or
/// (where the league's text sets none) the arbiter's default, said so.
/// The last note, after the fixtures'.
pub(crate) fn scale_note(league: &League, report: &mut Report) {
    let tm = &league.team_match;
    if report.standings.is_empty() || tm.points_cite.is_empty() {
        return;
    }
    report.notes.push(Violation {
        fixture: String::new(),
        board: None,
        rule: tm.points_cite.clone(),
        what: format!(
            "match points in the standings: {} a match won, {} drawn, {} lost",
            num(tm.win),
            num(tm.draw),
            num(tm.loss)
        ),
        penalty: "standings".to_string(),
    });
}

/// Board -> (home, away, rated): each board's score in a league match.
type Scores = HashMap<u32, (f64, f64, bool)>;

impl Run<'_> {
    fn team_name(&self, t: usize) -> &str {
        &self.season.team(t).name
    }

    fn league_match(&mut self, f: &Fixture) {
        let (home, away, forfeited) = match f.status {
            FixtureStatus::Postponed => return self.note_awaiting(f),
            FixtureStatus::Defaulted => match self.defaulted(f) {
                Some((h, a)) => (h, a, [false, false]),
                None => return,
            },
            FixtureStatus::Played => {
                let played = self.played_match(f);
                if self.wait_for_pending(f) {
                    return;
                }
                played
            }
        };
        // A lineup that forfeits the match loses it whatever the boards say.
        let outcome = match forfeited {
            [true, true] => (0.0, 0.0),
            [true, false] => (0.0, 1.0),
            [false, true] => (1.0, 0.0),
            _ if home > away => (1.0, 0.0),
            _ if away > home => (0.0, 1.0),
            _ => (0.5, 0.5),
        };
        for (team, ours, result) in [(f.home, home, outcome.0), (f.away, away, outcome.1)] {
            let s = self.table.entry(team).or_default();
            s.played += 1;
            s.game_points += ours;
            if result == 1.0 {
                s.won += 1;
            } else if result == 0.5 {
                s.drawn += 1;
            } else {
                s.lost += 1;
            }
        }
        // Penalties come off after the result.
        let m = &self.league.team_match;
        for s in self.table.values_mut() {
            s.match_points =
                f64::from(s.won) * m.win + f64::from(s.drawn) * m.draw + f64::from(s.lost) * m.loss
                    - s.penalty;
        }
    }

    /// A fixture with no status and no boards: not played yet, or its
    /// result not in; said, so that a result forgotten is seen.
    fn note_awaiting(&mut self, f: &Fixture) {
        if f.awaiting {
            self.report.notes.push(Violation::new(
                f,
                None,
                "",
                "no boards given: not played yet, or its result not in".to_string(),
                "not scored",
            ));
        }
    }

    /// A match with a board still undecided is not scored (its games
    /// played are graded) until the board is: `true`, noted, where so.
    fn wait_for_pending(&mut self, f: &Fixture) -> bool {
        let pending: Vec<String> = f
            .boards
            .iter()
            .chain(&f.tiebreaks)
            .filter(|b| b.pending.is_some())
            .map(|b| b.board.to_string())
            .collect();
        if pending.is_empty() {
            return false;
        }
        let boards = match pending.as_slice() {
            [one] => format!("board {one} is"),
            more => format!("boards {} are", more.join(", ")),
        };
        self.report.notes.push(Violation::new(
            f,
            None,
            "",
            format!("{boards} not decided yet (pending.csv)"),
            "the match is not scored until then",
        ));
        true
    }

    /// A match a team could not play: lost by default (every board to the
    /// other side), or rearranged with enough notice (`None`: not scored).
    fn defaulted(&mut self, f: &Fixture) -> Option<(f64, f64)> {
        let by = f.defaulted_by.unwrap_or(f.away);
        let name = self.team_name(by).to_string();
        let Some(d) = &self.league.default else {
            self.report.notes.push(Violation::new(
                f,
                None,
                "",
                format!("{name} defaulted the match: the league's rules say nothing of a defaulted match"),
                "not scored",
            ));
            return None;
        };
        // Whether it is lost or rearranged turns on the notice given: a
        // default whose notice is not on record is not scored on a guess.
        if f.default_notice_unknown() {
            self.report.notes.push(Violation::new(
                f,
                None,
                &d.cite,
                format!(
                    "{name} could not play, and the notice given is not recorded: whether it was under {} h cannot be told (give notice_hours, or without_warning = true)",
                    d.notice_hours
                ),
                "not scored until the notice is recorded",
            ));
            return None;
        }
        if rearranged(self.league, f) {
            self.report.notes.push(Violation::new(
                f,
                None,
                &d.cite,
                format!(
                    "{name} could not play ({} h notice, at least {} h): the fixture is to be rearranged",
                    f.notice_hours.unwrap_or(0),
                    d.notice_hours
                ),
                "not scored until it is played",
            ));
            return None;
        }
        let notice = f
            .notice_hours
            .map_or("no notice".to_string(), |h| format!("{h} h notice"));
        let boards = self.league.team_match.boards;
        self.report.violations.push(Violation::new(
            f,
            None,
            &d.cite,
            format!(
                "{name} could not play ({notice}, under {} h)",
                d.notice_hours
            ),
            &format!("match lost by default, 0-{boards}"),
        ));
        if f.without_warning && d.without_warning_deduct > 0.0 {
            self.table.entry(by).or_default().penalty += d.without_warning_deduct;
            self.report.violations.push(Violation::new(
                f,
                None,
                &d.without_warning_cite,
                format!("{name} defaulted without warning"),
                &format!("{} deducted", match_points(d.without_warning_deduct)),
            ));
        }
        let n = f64::from(boards);
        Some(if by == f.home { (0.0, n) } else { (n, 0.0) })
    }

    /// A match played: the game points of each side, and whether each
    /// side's lineup forfeits the match.
    fn played_match(&mut self, f: &Fixture) -> (f64, f64, [bool; 2]) {
        let season = self.season;
        let name = match_name(season, f);
        let scored = self.league.team_match.boards;
        let mut forfeited = [false, false];
        if let Some(l) = &self.league.lineup {
            for (side, home) in [(0usize, true), (1usize, false)] {
                forfeited[side] = self.lineup(l, f, home);
            }
        }
        let mut scores = Scores::new();
        for b in f.boards.iter().filter(|b| b.board <= scored) {
            if let Some(h) = home_score(b) {
                scores.insert(b.board, (h, 1.0 - h, true));
            }
        }
        self.empty_seats(f, &mut scores);
        if let Some(order) = &self.league.board_order {
            self.out_of_order_boards(order, f, &mut scores);
        }
        if let Some(subs) = &self.league.substitutes {
            self.substitutes(subs, f);
        }
        // Every game played is rated, past the scored boards too.
        let before = self.rate(f);
        for b in &f.boards {
            if let Some((w, bl)) = colours(b) {
                let row = self.grading_row(f, b, w, bl, &name, true, before.as_deref());
                self.report.grading.push(row);
            }
        }
        for b in &f.boards {
            for p in [b.home, b.away].into_iter().flatten() {
                self.last_board.insert(p, b.board);
            }
        }
        let home: f64 = scores.values().map(|s| s.0).sum();
        let away: f64 = scores.values().map(|s| s.1).sum();
        (home, away, forfeited)
    }

    /// Elo over the match's games from the ratings at its start (which
    /// are returned); `None` where the league keeps no ratings.
    fn rate(&mut self, f: &Fixture) -> Option<Vec<f64>> {
        let r = self.league.ratings.as_ref()?;
        let before = self.ratings.clone();
        for b in &f.boards {
            if let (Some(h), Some(a), Some(s)) = (b.home, b.away, home_score(b)) {
                self.ratings[h] += r.k * (s - expected(before[h], before[a]));
                self.ratings[a] += r.k * ((1.0 - s) - expected(before[a], before[h]));
                self.games[h] += 1;
                self.games[a] += 1;
            }
        }
        Some(before)
    }

    /// An empty seat on a scored board: the side present wins it, or, with
    /// notice of one player short, the last board is a tie.
    fn empty_seats(&mut self, f: &Fixture, scores: &mut Scores) {
        let season = self.season;
        let rule = &self.league.empty_board;
        let boards = self.league.team_match.boards;
        for board in 1..=boards {
            let b = f.boards.iter().find(|b| b.board == board);
            let (hp, ap) = b.map_or((None, None), |b| (b.home, b.away));
            if hp.is_some() && ap.is_some() {
                continue;
            }
            let (short_home, short_away) = (hp.is_none(), ap.is_none());
            let short_one = |home: bool| super::one_short(f, home, boards);
            // A team one short on the last board with the notice DDCL 5
            // asks: that board is "classed as a tie" for it.
            let noticed = |home: bool| {
                board == boards
                    && short_one(home)
                    && f.short_notice_by.is_none_or(|by| by.covers(home))
                    && rule
                        .short_tie_notice_hours
                        .is_some_and(|n| f.short_notice_hours.is_some_and(|h| h >= n))
            };
            // One short on the last board where notice makes it a tie,
            // and no notice recorded: a tie or a board lost cannot be
            // told, so it counts for neither side until it is.
            let unknown = (board == boards)
                .then(|| super::short_notice_unknown(self.league, f))
                .flatten();
            if let Some(hours) = unknown {
                let teams = match (short_home, short_away) {
                    (true, true) => format!(
                        "{} and {}",
                        season.team(f.home).name,
                        season.team(f.away).name
                    ),
                    (true, false) => season.team(f.home).name.clone(),
                    _ => season.team(f.away).name.clone(),
                };
                self.report.notes.push(Violation::new(
                    f,
                    Some(board),
                    &rule.cite,
                    format!(
                        "{teams} had no player on board {board}, and the notice given is not recorded: whether it is a tie ({hours} h or more) or lost by default cannot be told (give short_notice_hours)"
                    ),
                    "not scored until the notice is recorded",
                ));
                continue;
            }
            let tie = [
                (short_home && noticed(true), f.home),
                (short_away && noticed(false), f.away),
            ];
            for (_, team) in tie.iter().filter(|(t, _)| *t) {
                self.report.notes.push(Violation::new(
                    f,
                    Some(board),
                    &rule.cite,
                    format!(
                        "{} fielded {} players with {} h notice",
                        season.team(*team).name,
                        count_word(boards - 1),
                        f.short_notice_hours.unwrap_or(0)
                    ),
                    &format!("board {board} classed as a tie, not graded"),
                ));
            }
            // A tie is half a point to each side that has it; a seat
            // left empty without one loses the board.
            let half = |tied: bool| if tied { 0.5 } else { 0.0 };
            let (h, a) = match (short_home, short_away) {
                (true, true) => (half(tie[0].0), half(tie[1].0)),
                (true, false) if tie[0].0 => (0.5, 0.5),
                (false, true) if tie[1].0 => (0.5, 0.5),
                (true, false) => (0.0, 1.0),
                _ => (1.0, 0.0),
            };
            scores.insert(board, (h, a, false));
            if short_home != short_away && (tie[0].0 || tie[1].0) {
                continue;
            }
            match rule.record {
                Record::Violation => {
                    let lost = [
                        (short_home && !tie[0].0, f.home, true),
                        (short_away && !tie[1].0, f.away, false),
                    ];
                    for (short, team, home) in lost {
                        if short {
                            // The notice recorded is this team's unless
                            // the fixture says it was the other's.
                            let notice = f
                                .short_notice_hours
                                .filter(|_| f.short_notice_by.is_none_or(|by| by.covers(home)))
                                .map_or("no notice".to_string(), |h| format!("{h} h notice"));
                            // Notice enough for a tie, on a board it does
                            // not make one: said, so the grader sees why.
                            let only_last = match rule.short_tie_notice_hours {
                                Some(n)
                                    if board != boards
                                        && f.short_notice_hours.is_some_and(|h| h >= n) =>
                                {
                                    format!(
                                        "; the notice makes board {boards} a tie, no other board"
                                    )
                                }
                                _ => String::new(),
                            };
                            self.report.violations.push(Violation::new(
                                f,
                                Some(board),
                                &rule.cite,
                                format!(
                                    "{} had no player on board {board} ({notice}){only_last}",
                                    season.team(team).name
                                ),
                                "board lost by default",
                            ));
                        }
                    }
                }
                Record::Note => {
                    let winner = match (hp, ap) {
                        (Some(w), None) | (None, Some(w)) => w,
                        _ => continue,
                    };
                    self.forfeit_win(f, b, board, winner);
                }
            }
        }
    }

    /// The player present wins the board by forfeit (and the rating bonus
    /// where the league keeps ratings).
    fn forfeit_win(&mut self, f: &Fixture, b: Option<&Board>, board: u32, winner: usize) {
        let season = self.season;
        let effect = match &self.league.ratings {
            Some(r) => {
                self.forfeit_wins[winner] += 1;
                self.ratings[winner] += r.forfeit_bonus;
                format!("rating +{}; the no-show loses none", num(r.forfeit_bonus))
            }
            None => "board won by forfeit".to_string(),
        };
        let what = match b.and_then(|b| b.no_show) {
            Some((_, ns)) => format!(
                "{} wins by forfeit: {} did not show",
                season.player(winner).name,
                season.player(ns).name
            ),
            None => format!("{} wins by forfeit", season.player(winner).name),
        };
        self.report.notes.push(Violation::new(
            f,
            Some(board),
            &self.league.empty_board.cite,
            what,
            &effect,
        ));
    }

    /// A side out of order forfeits that board and all lower boards
    /// played (DDCL 9 "all lower boards played during the match"), and
    /// points. A board won by default or tied for an empty seat was not
    /// played and keeps its score; a board both sides forfeit is lost by
    /// both, 0-0.
    fn out_of_order_boards(&mut self, order: &BoardOrder, f: &Fixture, scores: &mut Scores) {
        let boards = self.league.team_match.boards;
        let mut from = [None, None];
        for (side, home, team) in [(0, true, f.home), (1, false, f.away)] {
            let Some((first, why, breach)) = out_of_order(
                self.season,
                f,
                &listed_seats(f, home),
                order.rank(),
                order.tolerance,
            ) else {
                continue;
            };
            from[side] = Some(first);
            // The rule broken, then the one that sets the penalty.
            let broken = match breach {
                Breach::UngradedAbove if !order.ungraded_cite.is_empty() => &order.ungraded_cite,
                _ => &order.cite,
            };
            let rule = if broken.is_empty() || *broken == order.penalty_cite {
                order.penalty_cite.clone()
            } else {
                format!("{broken}; {}", order.penalty_cite)
            };
            self.table.entry(team).or_default().penalty += order.deduct;
            let played: Vec<u32> = (first..=boards)
                .filter(|b| !order.forfeit_played_only || scores.get(b).is_some_and(|e| e.2))
                .collect();
            let forfeit = match (played.first(), played.last()) {
                (Some(a), Some(b)) if a == b => format!("board {a} forfeited"),
                (Some(a), Some(b)) if played.len() == usize::try_from(b - a + 1).unwrap_or(0) => {
                    format!("boards {a}-{b} forfeited")
                }
                (Some(_), Some(_)) => {
                    let list: Vec<String> = played.iter().map(u32::to_string).collect();
                    format!("boards {} forfeited", list.join(", "))
                }
                _ => "no board played from there to forfeit".to_string(),
            };
            let deduct = format!("{} deducted", points(order.deduct));
            let penalty = match (order.forfeit_from, order.deduct > 0.0) {
                (true, true) => format!("{forfeit} and {deduct}"),
                (true, false) => forfeit,
                (false, true) => deduct,
                (false, false) => "none stated: referred to the league".to_string(),
            };
            self.report.violations.push(Violation::new(
                f,
                Some(first),
                &rule,
                format!("{} out of order: {why}", self.team_name(team)),
                &penalty,
            ));
        }
        if !order.forfeit_from {
            return;
        }
        for board in 1..=boards {
            let e = scores.entry(board).or_insert((0.0, 0.0, false));
            if order.forfeit_played_only && !e.2 {
                continue;
            }
            let lost = |side: usize| from[side].is_some_and(|first| board >= first);
            // The other side wins a board played, or one it tied for an
            // empty seat; one it had no player on it does not win.
            let gains = |theirs: f64| if e.2 || theirs == 0.5 { 1.0 } else { theirs };
            match (lost(0), lost(1)) {
                (true, true) => (e.0, e.1) = (0.0, 0.0),
                (true, false) => (e.0, e.1) = (0.0, gains(e.1)),
                (false, true) => (e.0, e.1) = (gains(e.0), 0.0),
                (false, false) => {}
            }
        }
    }

    /// Late substitutes are noted; a stronger one needs both captains' consent.
    fn substitutes(&mut self, subs: &Substitutes, f: &Fixture) {
        let season = self.season;
        let by = self.league.strength();
        for b in &f.boards {
            let Some((side, replaced)) = &b.substitute else {
                continue;
            };
            let sub = b.seat(*side);
            let sub_strength = sub.and_then(|p| strength(season, p, by, f.date));
            let orig = strength(season, *replaced, by, f.date);
            let replaced = &season.player(*replaced).name;
            let mut what = format!("late substitute for {replaced}: {}", subs.note);
            let mut breach = false;
            if let (Some(s), Some(o), Some(limit)) = (sub_strength, orig, subs.stronger_by) {
                if s > o + limit {
                    if b.captains_agreed {
                        what.push_str(&format!("; {} {s}, more than {limit} above {replaced} ({o}): both captains agreed", by.word()));
                    } else {
                        breach = true;
                        what.push_str(&format!("; {} {s}, more than {limit} above {replaced} ({o}): allowed only if both captains agreed (captains_agreed = true says they did)", by.word()));
                    }
                }
            }
            // A substitute is what the rule provides for; a stronger one
            // without both captains' agreement is a breach of it.
            if breach {
                self.report.violations.push(Violation::new(
                    f,
                    Some(b.board),
                    &subs.cite,
                    what,
                    "none stated (unless both captains agreed)",
                ));
            } else {
                self.report
                    .notes
                    .push(Violation::new(f, Some(b.board), &subs.cite, what, "none"));
            }
        }
    }

    /// The lineup rules for one side of a played match: its violations
    /// reported; `true` when the lineup is illegal (the match is forfeited).
    fn lineup(&mut self, l: &Lineup, f: &Fixture, home: bool) -> bool {
        let season = self.season;
        let scored = self.league.team_match.boards;
        let forfeits = format!("illegal lineup: match forfeited ({})", l.illegal_cite);
        let mut illegal = false;
        let team = if home { f.home } else { f.away };
        let team_name = &season.team(team).name;
        let seats: Vec<(u32, usize)> = seats(f, home)
            .into_iter()
            .filter(|s| s.0 <= scored)
            .collect();
        for &(board, p) in &seats {
            let player = season.player(p);
            if !l.eligible_school_grades.is_empty() {
                match player.school_grade {
                    Some(g) if l.eligible_school_grades.contains(&g) => {}
                    // Eligible on a condition the record cannot show (HSL
                    // II: the coaches' consensus, a shortage): a note, not
                    // a breach.
                    Some(g) if l.conditional_school_grades.contains(&g) => {
                        self.report.notes.push(Violation::new(
                            f,
                            Some(board),
                            &l.eligibility_cite,
                            format!("{} is in grade {g}: {}", player.name, l.conditional_note),
                            "none",
                        ))
                    }
                    other => {
                        illegal = true;
                        self.report.violations.push(Violation::new(
                            f,
                            Some(board),
                            &l.eligibility_cite,
                            format!(
                                "{} is not eligible (school grade {})",
                                player.name,
                                other.map_or("unknown".to_string(), |g| g.to_string())
                            ),
                            &forfeits,
                        ));
                    }
                }
            }
            // The board the player is measured from, how far he may
            // move, and the rule: the previous match's (VI.1), or in a
            // first match the board assigned before the season (VI.2).
            let from = match self.last_board.get(&p) {
                Some(&prev) => l.max_board_move.map(|m| (prev, m, false)),
                None if l.first_match_on_preseason_board => {
                    let m = l.first_match_board_move.or(l.max_board_move).unwrap_or(0);
                    Some((player.preseason_board.unwrap_or(board), m, true))
                }
                None => None,
            };
            if let Some((from, m, first)) = from.filter(|&(from, m, _)| board.abs_diff(from) > m) {
                illegal = true;
                let boards = match m {
                    1 => "one board".to_string(),
                    m => format!("{m} boards"),
                };
                let (what, cite) = match (first, m) {
                    (false, _) => (
                        format!("{} moved from board {from} (previous match) to board {board}, more than {boards}", player.name),
                        l.move_cite.clone(),
                    ),
                    (true, 0) => (
                        format!("{} played board {board} in a first match; the board assigned before the season is {from}", player.name),
                        l.first_match_cite.clone(),
                    ),
                    (true, _) => (
                        format!("{} played board {board} in a first match: more than {boards} from board {from}, assigned before the season", player.name),
                        [l.move_cite.as_str(), l.first_match_cite.as_str()]
                            .into_iter()
                            .filter(|c| !c.is_empty())
                            .collect::<Vec<_>>()
                            .join("; "),
                    ),
                };
                self.report
                    .violations
                    .push(Violation::new(f, Some(board), &cite, what, &forfeits));
            }
        }
        if l.empty_boards_at_bottom {
            illegal |= self.empty_above_played(l, f, home, &seats, team_name, &forfeits);
        }
        illegal
    }

    /// An empty board above a played one, where empty boards must be the
    /// bottom ones.
    fn empty_above_played(
        &mut self,
        l: &Lineup,
        f: &Fixture,
        home: bool,
        seats: &[(u32, usize)],
        team_name: &str,
        forfeits: &str,
    ) -> bool {
        let filled: Vec<u32> = seats.iter().map(|s| s.0).collect();
        let Some(top_empty) = (1..=self.league.team_match.boards).find(|b| !filled.contains(b))
        else {
            return false;
        };
        if !filled.iter().any(|&b| b > top_empty) {
            return false;
        }
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
                self.season.player(p).name
            ),
            None => format!("{team_name} left board {top_empty} empty above a played board"),
        };
        self.report.violations.push(Violation::new(
            f,
            Some(top_empty),
            &l.bottom_cite,
            what,
            forfeits,
        ));
        true
    }

    #[allow(clippy::too_many_arguments)]
    fn grading_row(
        &self,
        f: &Fixture,
        b: &Board,
        w: usize,
        bl: usize,
        name: &str,
        league: bool,
        ratings: Option<&[f64]>,
    ) -> GradingRow {
        let season = self.season;
        let g = &self.league.grading;
        let event = if league {
            &g.league_event
        } else {
            &g.cup_event
        }
        .replace("{league}", &season.league)
        .replace("{season}", &season.season)
        .replace("{division}", &f.division);
        let by = self.league.strength();
        let grade = |p: usize| match ratings {
            Some(r) => format!("{:.0}", r[p]),
            None => strength_text(strength(season, p, by, f.date), by),
        };
        GradingRow {
            date: f.date.to_string(),
            event,
            fixture: name.to_string(),
            fixture_id: f.id.clone(),
            board: b.board,
            white: w,
            black: bl,
            score: b.result.unwrap_or(GameResult::Unknown),
            home_colour: if b.home_white { "white" } else { "black" },
            white_grade: grade(w),
            black_grade: grade(bl),
            league,
        }
    }

    fn cup_match(&mut self, cup: &Cup, f: &Fixture) {
        // A team that cannot play the tie forfeits the match; the other
        // goes through. Nothing is played, so nothing is graded.
        if f.status == FixtureStatus::Defaulted {
            self.cup_default(cup, f);
            return;
        }
        if f.status == FixtureStatus::Postponed {
            return self.note_awaiting(f);
        }
        if self.wait_for_pending(f) {
            return;
        }
        let season = self.season;
        let name = match_name(season, f);
        let mut home_boards = 0.0;
        let mut away_boards = 0.0;
        let mut grades: [Vec<Option<u32>>; 2] = [Vec::new(), Vec::new()];
        // What is referred to the organiser (a seat left empty above the
        // bottom boards, grade order, eligibility for the final) is the
        // organiser's to decide (14(p)): no winner is named meanwhile.
        let mut referred = Vec::new();
        for (side, home) in [(0, true), (1, false)] {
            let (side_grades, missing, side_referred) = self.cup_side(cup, f, home);
            grades[side] = side_grades;
            referred.extend(side_referred);
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
                let row = self.grading_row(f, b, w, bl, &name, false, None);
                self.report.grading.push(row);
            }
        }
        // No graded player on a side: 14(m)'s average of the others'
        // grades cannot be taken, and the handicap rests on the totals.
        // Unless the boards decide it whatever the handicap.
        let most = cup.handicap.iter().map(|b| b.points).fold(0.0, f64::max);
        let decided = (home_boards - away_boards).abs() > most;
        let mut untotalled = Vec::new();
        for (side, team) in [(0, f.home), (1, f.away)] {
            if grades[side].iter().all(Option::is_none) {
                let cite = cup.ungraded_cite.as_deref().unwrap_or(&cup.handicap_cite);
                let why = format!(
                    "{} has no graded player, so its grade total cannot be taken ({cite})",
                    season.team(team).name
                );
                if decided {
                    untotalled.push(format!(
                        "{why}: {}-{} on the boards decides the tie whatever the handicap (at most {})",
                        num(home_boards),
                        num(away_boards),
                        num(most)
                    ));
                } else {
                    referred.push(why);
                }
            }
        }
        let home_total = cup.grade_total(&grades[0]);
        let away_total = cup.grade_total(&grades[1]);
        let difference = (home_total - away_total).abs();
        let handicap = cup.handicap(difference);
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
        // What the board count gives with `given` handicap points to the
        // side with the lower total: the tie-break said, and the winner.
        let decide = |given: f64| {
            let (mut h, mut a) = (home_boards, away_boards);
            if home_total < away_total {
                h += given;
            } else {
                a += given;
            }
            if h > a {
                (String::new(), season.team(f.home).name.clone(), false)
            } else if a > h {
                (String::new(), season.team(f.away).name.clone(), false)
            } else {
                cup_tiebreak(season, cup, f)
            }
        };
        let (tiebreak, winner, mut organiser) = decide(handicap);
        // A difference between the text's bands (14(i): "30 or less", then
        // "between 31 and 40") is said; where the tie turns on which band
        // it is read into, it is left to the organiser.
        let (tiebreak, winner) = match cup.handicap_gap(difference) {
            None => (tiebreak, winner),
            Some((below, bands)) => {
                let other = decide(below).1;
                let gap = format!(
                    "the grade difference {difference:.2} falls between the bands {} writes ({bands})",
                    cup.handicap_cite
                );
                if other == winner {
                    let joined = if tiebreak.is_empty() {
                        format!("{gap}: the same either way")
                    } else {
                        format!("{tiebreak}; {gap}: the same either way")
                    };
                    (joined, winner)
                } else {
                    let named = |w: &str| {
                        if w.is_empty() {
                            "undecided".to_string()
                        } else {
                            w.to_string()
                        }
                    };
                    organiser = true;
                    (
                        format!(
                            "{gap}, and the tie turns on it (with {handicap}: {}; with {below}: {}): for the competition organiser to decide ({})",
                            named(&winner),
                            named(&other),
                            cup.referred_cite
                        ),
                        String::new(),
                    )
                }
            }
        };
        organiser |= !referred.is_empty();
        let tiebreak = match (untotalled.is_empty(), tiebreak.is_empty()) {
            (true, _) => tiebreak,
            (false, true) => untotalled.join("; "),
            (false, false) => format!("{}; {tiebreak}", untotalled.join("; ")),
        };
        // Referred: what the games give is said, and no winner named.
        let (tiebreak, winner) = if referred.is_empty() {
            (tiebreak, winner)
        } else {
            let played = match (tiebreak.is_empty(), winner.is_empty()) {
                (true, _) => winner,
                (false, true) => tiebreak,
                (false, false) => format!("{tiebreak}, {winner}"),
            };
            (
                format!(
                    "referred to the competition organiser ({}): {}; as played: {played}",
                    cup.referred_cite,
                    referred.join("; ")
                ),
                String::new(),
            )
        };
        self.report.cup.push(CupRow {
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
            organiser,
        });
    }

    /// One side of a cup tie: its violations reported; the grades of its
    /// players, the boards it left empty, and whether it left one empty
    /// above the bottom boards (14(c)), which is referred.
    /// One side of a cup tie: its grades, the boards it forfeits, and
    /// what of it is referred to the organiser (14(p)), in words.
    fn cup_side(
        &mut self,
        cup: &Cup,
        f: &Fixture,
        home: bool,
    ) -> (Vec<Option<u32>>, usize, Vec<String>) {
        let season = self.season;
        // Strength order with no tolerance, ungraded players placed as the
        // league's board order places them.
        let by = self.league.strength();
        let ungraded_below = self
            .league
            .board_order
            .as_ref()
            .is_some_and(|o| o.ungraded_below);
        let team = if home { f.home } else { f.away };
        let seated = seats(f, home);
        let grades: Vec<Option<u32>> = seated
            .iter()
            .map(|&(_, p)| strength(season, p, by, f.date))
            .collect();
        // The average stands in for a grade only where none was agreed
        // before the match (14(m)): said, so the grader can check.
        if let Some(cite) = &cup.ungraded_cite {
            let counted = if grades.iter().all(Option::is_none) {
                "the team has no graded player to average: its grade total cannot be taken (cup.csv)"
            } else {
                "counted as the average of the team's other graded players"
            };
            for (&(board, p), g) in seated.iter().zip(&grades) {
                if g.is_none() {
                    self.report.notes.push(Violation::new(
                        f,
                        Some(board),
                        cite,
                        format!(
                            "{} is ungraded, with no grade estimate agreed before the match",
                            season.player(p).name
                        ),
                        counted,
                    ));
                }
            }
        }
        let n = cup.boards as usize;
        let missing = n - seated.len().min(n);
        let misplaced = misplaced_empty_seats(f, home, cup.boards);
        let from = n - missing + 1;
        if missing > 0 && misplaced.is_empty() {
            let penalty = if from == n {
                format!("board {n} forfeited")
            } else {
                format!("boards {from}-{n} forfeited")
            };
            self.report.violations.push(Violation::new(
                f,
                Some(from as u32),
                &cup.boards_cite,
                format!(
                    "{} fielded {} players",
                    season.team(team).name,
                    seated.len()
                ),
                &penalty,
            ));
        } else if let Some(&first) = misplaced.first() {
            // 14(c) forfeits from the bottom board up; a seat left empty
            // higher up is not what the rule provides for. The boards are
            // scored as played, the empty ones to the other side, and the
            // organiser decides.
            let list: Vec<String> = misplaced.iter().map(u32::to_string).collect();
            let other = season.team(if home { f.away } else { f.home }).name.clone();
            self.report.violations.push(Violation::new(
                f,
                Some(first),
                &cup.boards_cite,
                format!(
                    "{} fielded {} players and left board {} empty, where the forfeits commence with board {n}",
                    season.team(team).name,
                    seated.len(),
                    list.join(", ")
                ),
                &format!(
                    "scored as played, board {} to {other}; referred to the competition organiser ({})",
                    list.join(", "),
                    cup.referred_cite
                ),
            ));
        }
        let mut referred = Vec::new();
        if !misplaced.is_empty() {
            referred.push(format!(
                "{} left a seat empty above the bottom board ({})",
                season.team(team).name,
                cup.boards_cite
            ));
        }
        // A breach is referred.
        if let Some((from, why, _)) = out_of_order(season, f, &seated, (by, ungraded_below), 0) {
            referred.push(format!(
                "{} not in grade order ({})",
                season.team(team).name,
                cup.order_cite
            ));
            self.report.violations.push(Violation::new(
                f,
                Some(from),
                &cup.order_cite,
                format!("{} not in grade order: {why}", season.team(team).name),
                &format!(
                    "referred to the competition organiser ({})",
                    cup.referred_cite
                ),
            ));
        }
        if f.final_round {
            referred.extend(self.final_eligibility(cup, f, home, &seated));
        }
        (grades, missing, referred)
    }

    /// In the final every player must have played a league game for the
    /// club: those who have not, in words, each also a violation.
    fn final_eligibility(
        &mut self,
        cup: &Cup,
        f: &Fixture,
        home: bool,
        seated: &[(u32, usize)],
    ) -> Vec<String> {
        let mut ineligible = Vec::new();
        let season = self.season;
        let club = &season.team(if home { f.home } else { f.away }).club;
        for &(board, p) in seated {
            // "Must have played": by the final, so a league game dated
            // after it does not count (one on its day may have come first);
            // and a game, so a seat with no opponent (a board won by
            // default, or tied for want of a fifth player) does not either.
            let played_league = season.fixtures.iter().any(|g| {
                g.competition == Competition::League
                    && g.status == FixtureStatus::Played
                    && g.date <= f.date
                    && g.boards.iter().any(|b| {
                        let game = b.home.is_some() && b.away.is_some();
                        game && ((b.home == Some(p) && &season.team(g.home).club == club)
                            || (b.away == Some(p) && &season.team(g.away).club == club))
                    })
            });
            if !played_league {
                ineligible.push(format!(
                    "{} not eligible for the final ({})",
                    season.player(p).name,
                    cup.final_cite
                ));
                self.report.violations.push(Violation::new(
                    f,
                    Some(board),
                    &cup.final_cite,
                    format!(
                        "{} has played no league game for {club} this season by the final",
                        season.player(p).name
                    ),
                    "not eligible for the final: referred to the competition organiser",
                ));
            }
        }
        ineligible
    }

    /// The tie forfeited by the team that could not play it.
    fn cup_default(&mut self, cup: &Cup, f: &Fixture) {
        let season = self.season;
        let by = f.defaulted_by.unwrap_or(f.away);
        let other = if by == f.home { f.away } else { f.home };
        self.report.violations.push(Violation::new(
            f,
            None,
            &cup.default_cite,
            format!("{} could not play the tie", season.team(by).name),
            &format!("match forfeited: {} goes through", season.team(other).name),
        ));
        let n = f64::from(cup.boards);
        let (home_boards, away_boards) = if by == f.home { (0.0, n) } else { (n, 0.0) };
        self.report.cup.push(CupRow {
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
            tiebreak: format!(
                "{} forfeited the match ({})",
                season.team(by).name,
                cup.default_cite
            ),
            winner: season.team(other).name.clone(),
            organiser: false,
        });
    }
}

/// The seats a cup side left empty, where they are not the bottom boards
/// 14(c) forfeits ("commencing with board 4"); empty where they are.
fn misplaced_empty_seats(f: &Fixture, home: bool, boards: u32) -> Vec<u32> {
    let seated = seats(f, home);
    let empty: Vec<u32> = (1..=boards)
        .filter(|b| !seated.iter().any(|s| s.0 == *b))
        .collect();
    let bottom = boards + 1 - empty.len() as u32;
    if empty.first().is_some_and(|&first| first < bottom) {
        empty
    } else {
        Vec::new()
    }
}

/// A tie level after the handicap is replayed by the same pairs with
/// colours reversed, then single games. What decided it, and the winner
/// (empty while it is not decided). A replay decides only when every pair
/// of the match has played it, each against the same opponent with the
/// other colour (DDCL 14(l)); short of that it is said what is missing.
fn cup_tiebreak(season: &Season, cup: &Cup, f: &Fixture) -> (String, String, bool) {
    let cite = &cup.tiebreak_cite;
    let pairs: Vec<&Board> = f
        .boards
        .iter()
        .filter(|b| b.home.is_some() && b.away.is_some())
        .collect();
    let replay: Vec<&Board> = f.tiebreaks.iter().take(pairs.len()).collect();
    if replay.is_empty() {
        return (
            format!("tied: the replay with colours reversed ({cite}) to be played"),
            String::new(),
            false,
        );
    }
    let name = |p: Option<usize>| p.map_or("?".to_string(), |p| season.player(p).name.clone());
    let mut wrong = Vec::new();
    // A player absent from the replay: for the organiser (14(p)).
    let mut referred = false;
    let mut replayed = BTreeSet::new();
    for b in &replay {
        if !replayed.insert(b.board) {
            wrong.push(format!("replay board {} listed twice", b.board));
            continue;
        }
        match pairs.iter().find(|o| o.board == b.board) {
            None => wrong.push(format!(
                "replay board {}: no such pair in the match",
                b.board
            )),
            // A player who did not come to the replay: an infringement the
            // organiser decides (14(p)), not a result.
            Some(o) if b.home.is_none() || b.away.is_none() => {
                referred = true;
                wrong.push(format!(
                    "replay board {}: {} did not play the replay: referred to the competition organiser ({})",
                    b.board,
                    name(if b.home.is_none() { o.home } else { o.away }),
                    cup.referred_cite
                ))
            }
            Some(o) if (o.home, o.away) != (b.home, b.away) => wrong.push(format!(
                "replay board {}: {} v {}, not the match's pair {} v {} (the same opponent)",
                b.board,
                name(b.home),
                name(b.away),
                name(o.home),
                name(o.away)
            )),
            // "With different colours": a colour not written is not known.
            Some(_) if !b.colour_given => wrong.push(format!(
                "replay board {}: its colours are not recorded (home_colour)",
                b.board
            )),
            Some(o) if o.home_white == b.home_white => wrong.push(format!(
                "replay board {}: the same colours as in the match, not different ones",
                b.board
            )),
            Some(_) if home_score(b).is_none() => {
                wrong.push(format!("replay board {}: no result recorded", b.board))
            }
            Some(_) => {}
        }
    }
    let missing: Vec<String> = pairs
        .iter()
        .filter(|o| !replayed.contains(&o.board))
        .map(|o| format!("board {} ({} v {})", o.board, name(o.home), name(o.away)))
        .collect();
    if !missing.is_empty() {
        wrong.push(format!("not yet replayed: {}", missing.join(", ")));
    }
    let played = replay.iter().filter(|b| home_score(b).is_some()).count();
    if !wrong.is_empty() {
        return (
            format!(
                "tied: the replay ({cite}) does not decide it yet: {}",
                wrong.join("; ")
            ),
            String::new(),
            referred,
        );
    }
    // From +0: an empty float sum is -0, which would print "-0".
    let h: f64 = replay
        .iter()
        .filter_map(|b| home_score(b))
        .fold(0.0, |a, x| a + x);
    let a = played as f64 - h;
    let mut tiebreak = format!("replay {h}-{a}");
    let mut referred = false;
    let winner = if h != a {
        if h > a {
            season.team(f.home).name.clone()
        } else {
            season.team(f.away).name.clone()
        }
    } else {
        match single_games(season, cup, f, &f.tiebreaks[replay.len()..]) {
            Ok((game, winner)) => {
                tiebreak.push_str(&format!(", single game {game}"));
                season.team(winner).name.clone()
            }
            Err(open) => {
                tiebreak.push_str(&format!("; {}", open.why));
                referred = open.referred;
                String::new()
            }
        }
    };
    (tiebreak, winner, referred)
}

/// A tie the games do not decide yet: why, and whether it is the
/// competition organiser's to decide (DDCL 14(p)) rather than games still
/// to be played or recorded.
struct Open {
    referred: bool,
    why: String,
}

impl Open {
    fn new(referred: bool, why: String) -> Open {
        Open { referred, why }
    }
}

/// DDCL 14(l)'s single games after a level replay: one nominated player a
/// team, colours tossed; while drawn, "1 other player from each team", a
/// player nominated again only once all of the team's have played one.
/// The deciding game's board and the winning team, or what stands in the
/// way: games still to play, a player nominated again or absent (an
/// infringement the organiser decides, 14(p)), a game whose winner the
/// record does not show.
fn single_games(
    season: &Season,
    cup: &Cup,
    f: &Fixture,
    games: &[Board],
) -> Result<(u32, usize), Open> {
    let cite = &cup.tiebreak_cite;
    let name = |p: usize| season.player(p).name.clone();
    // Each team's players in the match: once all have played a single
    // game, "this shall continue until a winner emerges" lets them play
    // again, in a new round of nominations.
    let team: [BTreeSet<usize>; 2] = [
        f.boards.iter().filter_map(|b| b.home).collect(),
        f.boards.iter().filter_map(|b| b.away).collect(),
    ];
    let mut nominated: [BTreeSet<usize>; 2] = Default::default();
    for (i, b) in games.iter().enumerate() {
        if let Some((_, p)) = b.no_show {
            return Err(Open::new(
                true,
                format!(
                    "single game {}: {} did not play: referred to the competition organiser ({})",
                    b.board,
                    name(p),
                    cup.referred_cite
                ),
            ));
        }
        let (Some(h), Some(a)) = (b.home, b.away) else {
            return Err(Open::new(
                false,
                format!("single game {}: a player is still to be nominated", b.board),
            ));
        };
        for (side, p) in [(0, h), (1, a)] {
            // "Each team captain shall nominate one player": of the team
            // that played the tie.
            if !team[side].contains(&p) {
                return Err(Open::new(true, format!(
                    "single game {}: {} did not play in the tie, where {cite} has each captain nominate a team member: referred to the competition organiser ({})",
                    b.board,
                    name(p),
                    cup.referred_cite
                )));
            }
            if team[side].is_subset(&nominated[side]) {
                nominated[side].clear();
            }
            if !nominated[side].insert(p) {
                return Err(Open::new(true, format!(
                    "single game {}: {} played an earlier single game, where {cite} nominates 1 other player from each team: referred to the competition organiser ({})",
                    b.board,
                    name(p),
                    cup.referred_cite
                )));
            }
        }
        // "Tossing for colours": a result written White first says who
        // won only with the colours written beside it.
        if b.result.is_some_and(|r| r != GameResult::Draw)
            && !b.colour_given
            && !b.scored_home_first
        {
            return Err(Open::new(false, format!(
                "single game {}: its colours are not recorded (home_colour), so who won is not known",
                b.board
            )));
        }
        let decided = match home_score(b) {
            Some(x) if x > 0.5 => f.home,
            Some(x) if x < 0.5 => f.away,
            Some(_) => continue,
            None => {
                return Err(Open::new(
                    false,
                    format!("single game {}: no result recorded", b.board),
                ))
            }
        };
        // A game listed after the deciding one was not part of the tie.
        if let Some(after) = games.get(i + 1) {
            return Err(Open::new(true, format!(
                "single game {} decided the tie, yet single game {} is listed after it: which games were played is for the competition organiser ({})",
                b.board, after.board, cup.referred_cite
            )));
        }
        return Ok((b.board, decided));
    }
    Err(Open::new(
        false,
        format!("still tied: single games ({cite}) to be played"),
    ))
}

/// A defaulted fixture with the notice the league asks for: to be played
/// on another date (DDCL 3), not a match lost.
fn rearranged(league: &League, f: &Fixture) -> bool {
    f.status == FixtureStatus::Defaulted
        && league
            .default
            .as_ref()
            .is_some_and(|d| f.notice_hours.is_some_and(|h| h >= d.notice_hours))
}

/// League games only, at least the league's share of the matches
/// available, best points per game, tie broken by % grade increase.
fn player_of_year(season: &Season, league: &League, poy: &PlayerOfYear) -> Vec<PoyRow> {
    let fixtures: Vec<&Fixture> = season
        .fixtures
        .iter()
        // A fixture to be played another day (postponed, or a default with
        // notice) is no match anyone was available for yet; nor is a
        // default not scored until its notice is recorded (the season
        // needs attention until then, this table with it).
        .filter(|f| {
            f.competition == Competition::League
                && f.status != FixtureStatus::Postponed
                && !rearranged(league, f)
                && !f.default_notice_unknown()
        })
        .collect();
    let settings = season.player_of_year;
    // The first board a side forfeited for playing out of order.
    let forfeited = |f: &Fixture, home: bool| -> Option<u32> {
        let order = league.board_order.as_ref().filter(|o| o.forfeit_from)?;
        out_of_order(
            season,
            f,
            &listed_seats(f, home),
            order.rank(),
            order.tolerance,
        )
        .map(|(b, ..)| b)
    };
    let mut rows = Vec::new();
    for (i, p) in season.players.iter().enumerate() {
        let own: BTreeSet<&str> = fixtures
            .iter()
            .filter(|f| f.home == p.team || f.away == p.team)
            .filter(|f| {
                settings.defaulted_matches_available
                    || !(f.status == FixtureStatus::Defaulted && f.defaulted_by != Some(p.team))
            })
            .map(|f| f.id.as_str())
            .collect();
        let mut games = 0u32;
        let mut points = 0.0;
        let mut matches = BTreeSet::new();
        for f in fixtures
            .iter()
            .filter(|f| f.status == FixtureStatus::Played)
        {
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
        // A match played for another team of the club was available to
        // the player too: counted, so that played never exceeds available.
        let elsewhere = matches
            .iter()
            .filter(|id| !own.contains(id.as_str()))
            .count();
        let available = (own.len() + elsewhere) as u32;
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
            eligible: f64::from(played) >= poy.min_share * f64::from(available),
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
    // Ties are ties: players level on points a game are parted by their
    // grade increase only where every one of them has one (a grade that
    // fell is not above one not known); else, or level on that too, they
    // share a rank.
    let mut seen = 0;
    let mut eligible: Vec<&mut PoyRow> = rows.iter_mut().filter(|r| r.eligible).collect();
    for group in eligible.chunk_by_mut(|a, b| a.ratio == b.ratio) {
        let first = seen + 1;
        let parted = group.iter().all(|r| r.grade_increase_pct.is_some());
        let mut rank = first;
        let mut prev = None;
        for (k, r) in group.iter_mut().enumerate() {
            if parted && prev != Some(r.grade_increase_pct) {
                rank = first + k as u32;
            }
            r.rank = Some(rank);
            prev = Some(r.grade_increase_pct);
        }
        seen += group.len() as u32;
    }
    rows
}
