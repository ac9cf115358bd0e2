//! `adjudicate --summary FILE`: per event, the games by status and reason;
//! per player, the games corrected for or against them. Built from one
//! brief per game as the results stream past, so memory grows with the
//! number of events and players, not games.

use std::collections::BTreeMap;

use crate::model::{GameResult, Judgement, Status};

/// What the summary needs of one judged game.
#[derive(Clone, Debug)]
pub(crate) struct Brief {
    pub(crate) event: String,
    pub(crate) white: String,
    pub(crate) black: String,
    pub(crate) status: Status,
    pub(crate) reason: &'static str,
    pub(crate) recorded: GameResult,
    pub(crate) result: GameResult,
}

impl Brief {
    pub(crate) fn of(tags: &crate::pgn::Tags, j: &Judgement) -> Brief {
        Brief {
            event: tags.event.clone(),
            white: tags.white.clone(),
            black: tags.black.clone(),
            status: j.verdict.status,
            reason: j.verdict.reason.as_str(),
            recorded: tags.recorded_result(),
            result: j.verdict.result,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Counts {
    pub(crate) games: u64,
    pub(crate) confirmed: u64,
    pub(crate) corrected: u64,
    pub(crate) review: u64,
    pub(crate) unreadable: u64,
    pub(crate) decided: u64,
    /// Corrected to a better score for this player than the one recorded.
    pub(crate) corrected_for: u64,
    /// Corrected to a worse one.
    pub(crate) corrected_against: u64,
    /// Reasons of the games not confirmed, with how many.
    pub(crate) reasons: BTreeMap<&'static str, u64>,
}

impl Counts {
    fn add(&mut self, b: &Brief) {
        self.games += 1;
        match b.status {
            Status::Confirmed => self.confirmed += 1,
            Status::Corrected => self.corrected += 1,
            Status::Review => self.review += 1,
            Status::Unreadable => self.unreadable += 1,
            Status::Decided => self.decided += 1,
        }
        if b.status != Status::Confirmed {
            *self.reasons.entry(b.reason).or_default() += 1;
        }
    }
}

/// White's points in a result; `None` for `*`.
fn white_points(r: GameResult) -> Option<f64> {
    match r {
        GameResult::WhiteWins => Some(1.0),
        GameResult::BlackWins => Some(0.0),
        GameResult::Draw => Some(0.5),
        GameResult::Unknown => None,
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct SummaryTables {
    pub(crate) events: BTreeMap<String, Counts>,
    pub(crate) players: BTreeMap<String, Counts>,
}

impl SummaryTables {
    pub(crate) fn add(&mut self, b: &Brief) {
        self.events.entry(b.event.clone()).or_default().add(b);
        // A corrected result moves points from one player to the other;
        // corrected from `*`, there was no score to move from.
        let delta = match (white_points(b.recorded), white_points(b.result)) {
            (Some(before), Some(after)) if b.status == Status::Corrected => after - before,
            _ => 0.0,
        };
        for (name, sign) in [(&b.white, 1.0), (&b.black, -1.0)] {
            if name.is_empty() {
                continue;
            }
            let c = self.players.entry(name.clone()).or_default();
            c.add(b);
            if delta * sign > 0.0 {
                c.corrected_for += 1;
            } else if delta * sign < 0.0 {
                c.corrected_against += 1;
            }
        }
    }
}

pub(crate) const SUMMARY_HEADER: [&str; 11] = [
    "scope",
    "name",
    "games",
    "confirmed",
    "corrected",
    "review",
    "unreadable",
    "decided",
    "corrected_for",
    "corrected_against",
    "reasons",
];

/// The summary as CSV: events first, then players, each sorted by name;
/// `reasons` is `reason=count` pairs joined by `; `.
pub(crate) fn summary_csv(t: &SummaryTables) -> Vec<u8> {
    let row = |scope: &str, name: &str, c: &Counts| {
        let reasons: Vec<String> = c.reasons.iter().map(|(r, n)| format!("{r}={n}")).collect();
        vec![
            scope.to_string(),
            name.to_string(),
            c.games.to_string(),
            c.confirmed.to_string(),
            c.corrected.to_string(),
            c.review.to_string(),
            c.unreadable.to_string(),
            c.decided.to_string(),
            c.corrected_for.to_string(),
            c.corrected_against.to_string(),
            reasons.join("; "),
        ]
    };
    let rows = t
        .events
        .iter()
        .map(|(n, c)| row("event", n, c))
        .chain(t.players.iter().map(|(n, c)| row("player", n, c)));
    super::write::csv_bytes(&SUMMARY_HEADER, rows)
}
