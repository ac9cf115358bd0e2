//! Auditing a rated Active-30 list (Sabah rules): every game really 30
//! minutes each without increment (Sabah i.1), no player more than six rounds
//! in a day (Sabah v.11), every result right under `sabah-active30`.

use std::collections::{BTreeMap, BTreeSet};

use crate::{
    model::{Clock, GameResult, Status},
    pgn::time_control::{Period, TimeControl},
    pipeline::GameOutcome,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) source: String,
    pub(crate) game: u64,
    pub(crate) date: String,
    pub(crate) round: String,
    pub(crate) white: String,
    pub(crate) black: String,
    pub(crate) finding: &'static str,
    pub(crate) rule: String,
    pub detail: String,
}

impl Finding {
    fn new(
        o: &GameOutcome,
        finding: &'static str,
        rule: impl Into<String>,
        detail: String,
    ) -> Finding {
        Finding {
            source: o.source.to_string(),
            game: o.index,
            date: o.tags.date.clone(),
            round: o.tags.round.clone(),
            white: o.tags.white.clone(),
            black: o.tags.black.clone(),
            finding,
            rule: rule.into(),
            detail,
        }
    }
}

const ACTIVE30: u32 = 1800;
/// More rounds than this in one day break Sabah v.11.
const MAX_ROUNDS_PER_DAY: usize = 6;

/// One game of the list as the TRF reports it.
#[derive(Clone, Debug)]
pub(crate) struct ListedGame {
    pub(crate) event: String,
    pub(crate) site: String,
    pub(crate) date: String,
    pub(crate) round: String,
    pub(crate) white: String,
    pub(crate) black: String,
    pub(crate) white_elo: Option<u32>,
    pub(crate) black_elo: Option<u32>,
    /// The result the audit stands by: as recorded when confirmed, the
    /// judged one when corrected, the recorded one under review.
    pub(crate) result: GameResult,
    pub(crate) under_review: bool,
}

/// Collects findings game by game; the rounds-per-day check needs the whole list.
#[derive(Default)]
pub(crate) struct Audit {
    pub(crate) games: u64,
    pub(crate) findings: Vec<Finding>,
    /// Every readable game, for the TRF report.
    pub(crate) listed: Vec<ListedGame>,
    /// (date, player) → round → the first game of that round.
    rounds: BTreeMap<(String, String), BTreeMap<String, Finding>>,
}

fn time_control_problem(o: &GameOutcome) -> Option<String> {
    let tag = o.tags.time_control.trim();
    if !tag.is_empty() && tag != "?" {
        return match TimeControl::parse(tag) {
            Ok(TimeControl::Periods(p))
                if p == [Period::SuddenDeath {
                    secs: ACTIVE30,
                    inc: 0,
                }] =>
            {
                None
            }
            _ => Some(format!(
                "TimeControl \"{}\" is not 30 minutes each without increment",
                crate::model::excerpt(tag, 200)
            )),
        };
    }
    // No tag: the clocks must tell.
    let firsts: Vec<Clock> = o.first_clocks.iter().flatten().copied().collect();
    if firsts.is_empty() {
        return Some("no TimeControl tag and no clock readings: the control cannot be shown to be 30 minutes".into());
    }
    let top = firsts.iter().map(|c| c.tenths).max().unwrap_or(0);
    if top > ACTIVE30 * 10 {
        return Some(format!(
            "no TimeControl tag, and a first clock of {} is over 30 minutes",
            Clock {
                tenths: top,
                precise: false
            }
        ));
    }
    if top < (ACTIVE30 - 120) * 10 {
        return Some(format!(
            "no TimeControl tag, and the first clocks (at most {}) do not start from 30 minutes",
            Clock {
                tenths: top,
                precise: false
            }
        ));
    }
    if o.clock_rises {
        return Some("no TimeControl tag, and a clock rises between moves: an increment".into());
    }
    None
}

impl Audit {
    pub(crate) fn add(&mut self, o: &GameOutcome) {
        self.games += 1;
        let j = &o.judgement;
        if j.verdict.status == Status::Unreadable {
            self.findings.push(Finding::new(
                o,
                "unreadable",
                j.verdict.rule.to_string(),
                j.detail.clone(),
            ));
            return;
        }
        let elo = |s: &str| s.trim().parse::<u32>().ok().filter(|&e| e > 0);
        self.listed.push(ListedGame {
            event: o.tags.event.clone(),
            site: o.tags.site.clone(),
            date: o.tags.date.clone(),
            round: o.tags.round.clone(),
            white: o.tags.white.clone(),
            black: o.tags.black.clone(),
            white_elo: elo(&o.tags.white_elo),
            black_elo: elo(&o.tags.black_elo),
            result: match j.verdict.status {
                Status::Corrected => j.verdict.result,
                _ => o.tags.recorded_result(),
            },
            under_review: j.verdict.status == Status::Review,
        });
        if let Some(problem) = time_control_problem(o) {
            self.findings
                .push(Finding::new(o, "time-control", "Sabah i.1", problem));
        }
        if matches!(j.verdict.status, Status::Corrected | Status::Review) {
            let recorded = if o.tags.result.is_empty() {
                "*"
            } else {
                o.tags.result.as_str()
            };
            let detail = format!(
                "rated as {recorded}, judged {} under sabah-active30 ({}): {}",
                j.verdict.result.as_str(),
                j.verdict.reason.as_str(),
                j.detail
            );
            self.findings.push(Finding::new(
                o,
                "result",
                j.verdict.rule.to_string(),
                detail,
            ));
        }
        let date = o.tags.date.trim();
        if !date.is_empty() && !date.contains('?') {
            for player in [&o.tags.white, &o.tags.black] {
                let player = player.trim();
                if player.is_empty() || player == "?" {
                    continue;
                }
                let rounds = self
                    .rounds
                    .entry((date.to_string(), player.to_string()))
                    .or_default();
                rounds
                    .entry(o.tags.round.trim().to_string())
                    .or_insert_with(|| {
                        Finding::new(o, "rounds-per-day", "Sabah v.11", String::new())
                    });
            }
        }
    }

    /// Adds the rounds-per-day findings (one per player and day, on the
    /// first game past the sixth round) and returns all findings.
    pub(crate) fn finish(mut self) -> (u64, Vec<Finding>, Vec<ListedGame>) {
        for ((date, player), rounds) in std::mem::take(&mut self.rounds) {
            if rounds.len() > MAX_ROUNDS_PER_DAY {
                let mut by_game: Vec<&Finding> = rounds.values().collect();
                by_game.sort_by(|a, b| (&a.source, a.game).cmp(&(&b.source, b.game)));
                let names: BTreeSet<&str> = rounds.keys().map(String::as_str).collect();
                let mut f = by_game[MAX_ROUNDS_PER_DAY].clone();
                f.detail = format!(
                    "{player} played {} rounds on {date} (rounds {}); not more than six a day",
                    rounds.len(),
                    names.into_iter().collect::<Vec<_>>().join(", ")
                );
                self.findings.push(f);
            }
        }
        (self.games, self.findings, self.listed)
    }
}

/// A player of the TRF report.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TrfPlayer {
    /// Starting rank: by rating, highest first, then by name.
    pub(crate) number: usize,
    pub(crate) name: String,
    pub(crate) rating: Option<u32>,
    /// Points, twice over (whole numbers: 9 is 4.5).
    pub(crate) half_points: u32,
    pub(crate) rank: usize,
    /// Per round: opponent's number, colour, TRF result code.
    pub(crate) rounds: Vec<Option<(usize, char, char)>>,
}

/// The audited list as a FIDE TRF-16 report model: players numbered by
/// rating, rounds numbered in order of the `Round` tags (numbers first),
/// corrected results used, a game under review written with TRF-16's
/// not-rated codes (`W`, `D`, `L`) for its recorded result, so that it is
/// not rated until decided. A game without a result (`*`) is left out.
pub(crate) struct TrfReport {
    pub(crate) event: String,
    /// FIDE federation and chief arbiter, as the officer gives them.
    pub(crate) federation: String,
    pub(crate) arbiter: String,
    pub(crate) site: String,
    /// `YYYY/MM/DD`.
    pub(crate) start: String,
    pub(crate) end: String,
    /// Per round, its date (`YY/MM/DD`) when every game of it has the same one.
    pub(crate) round_dates: Vec<String>,
    pub(crate) players: Vec<TrfPlayer>,
    /// Games that could not be placed (a player twice in one round).
    pub(crate) left_out: Vec<String>,
}

/// Rounds in order of date, then round number: a list whose rounds start
/// again at 1 each day keeps each day's rounds apart.
fn round_key(g: &ListedGame) -> (String, u32, String) {
    let r = g.round.trim();
    let first: String = r.chars().take_while(char::is_ascii_digit).collect();
    (
        g.date.trim().to_string(),
        first.parse().unwrap_or(u32::MAX),
        r.to_string(),
    )
}

pub(crate) fn trf_report(listed: &[ListedGame], federation: &str, arbiter: &str) -> TrfReport {
    let mut ratings: BTreeMap<&str, Option<u32>> = BTreeMap::new();
    for g in listed {
        for (n, e) in [(&g.white, g.white_elo), (&g.black, g.black_elo)] {
            let slot = ratings.entry(n.as_str()).or_default();
            *slot = (*slot).max(e);
        }
    }
    let mut order: Vec<(&str, Option<u32>)> = ratings.into_iter().collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let number: BTreeMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (*n, i + 1))
        .collect();
    let rounds: BTreeSet<(String, u32, String)> = listed.iter().map(round_key).collect();
    let round_index: BTreeMap<&(String, u32, String), usize> =
        rounds.iter().enumerate().map(|(i, k)| (k, i)).collect();
    let mut players: Vec<TrfPlayer> = order
        .iter()
        .map(|(n, r)| TrfPlayer {
            number: number[n],
            name: n.to_string(),
            rating: *r,
            half_points: 0,
            rank: 0,
            rounds: vec![None; rounds.len()],
        })
        .collect();
    let mut dates: Vec<BTreeSet<String>> = vec![BTreeSet::new(); rounds.len()];
    let mut left_out = Vec::new();
    for g in listed {
        let (w_code, b_code, w_half, b_half) = match (g.result, g.under_review) {
            (GameResult::WhiteWins, false) => ('1', '0', 2, 0),
            (GameResult::BlackWins, false) => ('0', '1', 0, 2),
            (GameResult::Draw, false) => ('=', '=', 1, 1),
            (GameResult::WhiteWins, true) => ('W', 'L', 2, 0),
            (GameResult::BlackWins, true) => ('L', 'W', 0, 2),
            (GameResult::Draw, true) => ('D', 'D', 1, 1),
            (GameResult::Unknown, _) => {
                left_out.push(format!(
                    "{} v {} round {}: no result",
                    g.white, g.black, g.round
                ));
                continue;
            }
        };
        let r = round_index[&round_key(g)];
        let (w, b) = (number[g.white.as_str()], number[g.black.as_str()]);
        if players[w - 1].rounds[r].is_some() || players[b - 1].rounds[r].is_some() {
            left_out.push(format!(
                "{} v {} round {}: a player already has a game in that round",
                g.white, g.black, g.round
            ));
            continue;
        }
        players[w - 1].rounds[r] = Some((b, 'w', w_code));
        players[b - 1].rounds[r] = Some((w, 'b', b_code));
        players[w - 1].half_points += w_half;
        players[b - 1].half_points += b_half;
        dates[r].insert(g.date.clone());
    }
    let mut by_points: Vec<(u32, usize)> =
        players.iter().map(|p| (p.half_points, p.number)).collect();
    by_points.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (rank, (_, n)) in by_points.into_iter().enumerate() {
        players[n - 1].rank = rank + 1;
    }
    let slash = |d: &str| d.trim().replace(['.', '-'], "/");
    let complete: Vec<&str> = listed
        .iter()
        .map(|g| g.date.as_str())
        .filter(|d| !d.contains('?') && !d.trim().is_empty())
        .collect();
    TrfReport {
        event: listed.first().map(|g| g.event.clone()).unwrap_or_default(),
        federation: federation.to_string(),
        arbiter: arbiter.to_string(),
        site: listed.first().map(|g| g.site.clone()).unwrap_or_default(),
        start: complete.iter().min().map(|d| slash(d)).unwrap_or_default(),
        end: complete.iter().max().map(|d| slash(d)).unwrap_or_default(),
        round_dates: dates
            .iter()
            .map(|d| match d.iter().collect::<Vec<_>>().as_slice() {
                [one] if !one.contains('?') && one.len() == 10 => slash(&one[2..]),
                _ => String::new(),
            })
            .collect(),
        players,
        left_out,
    }
}
