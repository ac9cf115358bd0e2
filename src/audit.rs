//! Auditing a rated Active-30 list (Sabah rules): every game really 30
//! minutes each without increment (Sabah i.1), no player more than six rounds
//! in a day (Sabah v.11), every result right under `sabah-active30`.

use std::collections::{BTreeMap, BTreeSet};

use crate::{
    model::{Clock, Status},
    pgn::time_control::{Period, TimeControl},
    pipeline::GameOutcome,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub source: String,
    pub game: u64,
    pub date: String,
    pub round: String,
    pub white: String,
    pub black: String,
    pub finding: &'static str,
    pub rule: String,
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

/// Collects findings game by game; the rounds-per-day check needs the whole list.
#[derive(Default)]
pub struct Audit {
    pub games: u64,
    pub findings: Vec<Finding>,
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
                "TimeControl \"{tag}\" is not 30 minutes each without increment"
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
    pub fn add(&mut self, o: &GameOutcome) {
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
    pub fn finish(mut self) -> (u64, Vec<Finding>) {
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
        (self.games, self.findings)
    }
}
