//! What the clock comments say: each side's remaining time after every ply
//! (from `%clk`, or worked out from `%emt`/`%egt` and the time control), the
//! effective time control, and rises no increment or new period explains.

use crate::{
    model::{Clock, Side},
    pgn::{time_control::TimeControl, ParsedGame},
};

#[derive(Clone, Debug, Default)]
pub(crate) struct ClockFacts {
    /// `after[n]` = (White, Black) remaining after ply `n`, the last known
    /// value carried forward; `after[0]` is the start.
    pub(crate) after: Vec<[Option<Clock>; 2]>,
    /// The ply at which each side's last clock was written.
    pub(crate) last_written: [Option<(usize, Clock)>; 2],
    /// Zero on a clock that shows tenths (a fallen flag), first per side.
    pub(crate) fallen_at: [Option<usize>; 2],
    pub(crate) notes: Vec<String>,
    /// The last ply whose `[%clk]` command could not be read.
    pub(crate) unreadable_at: Option<usize>,
    pub(crate) any: bool,
    /// A delay the tag names (US notation), in seconds.
    pub(crate) delay: u32,
}

impl ClockFacts {
    /// Remaining time of `side` after ply `n` (clamped to the plies known).
    pub(crate) fn at(&self, n: usize, side: Side) -> Option<Clock> {
        if !self.any {
            return None;
        }
        let n = n.min(self.after.len().saturating_sub(1));
        self.after.get(n).and_then(|c| c[side.index()])
    }

    pub(crate) fn last(&self, side: Side) -> Option<(usize, Clock)> {
        self.last_written[side.index()]
    }

    pub(crate) fn fallen(&self, side: Side) -> Option<usize> {
        self.fallen_at[side.index()]
    }

    /// When both flags fell, the side whose clock the record shows at
    /// `0:00:00.0` first (on its own move, the other's still running), and
    /// at which ply.
    pub(crate) fn first_fell(&self) -> Option<(Side, usize)> {
        let w = self.fallen(Side::White)?;
        let b = self.fallen(Side::Black)?;
        match w.cmp(&b) {
            std::cmp::Ordering::Less => Some((Side::White, w)),
            std::cmp::Ordering::Greater => Some((Side::Black, b)),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// The time control a game is judged under: its own tag when that is PGN
/// or US notation (`G/30;d5`, whose delay goes to `delay`), otherwise the
/// ruleset's, with a note saying so.
pub(crate) fn effective_tc(
    tag: &str,
    default: &TimeControl,
    notes: &mut Vec<String>,
    delay: &mut u32,
) -> TimeControl {
    let tag = tag.trim();
    if tag.is_empty() || tag == "?" {
        return default.clone();
    }
    use crate::pgn::time_control::{read, Reading};
    let shown = crate::model::excerpt(tag, 200);
    match read(tag) {
        Some(Reading::Pgn(tc)) => tc,
        Some(Reading::Us(tc, d)) => {
            *delay = d;
            let with = if d > 0 {
                format!(" with a {d} s delay")
            } else {
                String::new()
            };
            notes.push(format!(
                "TimeControl {shown:?} read as US notation: {tc}{with}"
            ));
            tc
        }
        Some(Reading::Words(tc)) => {
            notes.push(format!("TimeControl {shown:?} read as words: {tc}"));
            tc
        }
        None => {
            notes.push(format!(
                "TimeControl {shown:?} is not PGN; the ruleset's {default} is used"
            ));
            default.clone()
        }
    }
}

/// lichess broadcasts write `90+30` meaning 90 *minutes*: when the first
/// clocks are far above the base in seconds but fit it in minutes, read it so.
fn fix_minutes(
    tc: TimeControl,
    first_clock: Option<Clock>,
    notes: &mut Vec<String>,
) -> TimeControl {
    let (Some(base), Some(first)) = (tc.base_secs(), first_clock) else {
        return tc;
    };
    let inc = tc.increment(1);
    let secs = first.tenths / 10;
    if secs > base + 2 * inc + 10 && secs <= base * 66 + 2 * inc {
        if let TimeControl::Periods(ps) = &tc {
            use crate::pgn::time_control::Period;
            let scaled: Vec<Period> = ps
                .iter()
                .map(|p| match *p {
                    Period::Moves { moves, secs, inc } => Period::Moves {
                        moves,
                        secs: secs * 60,
                        inc,
                    },
                    Period::SuddenDeath { secs, inc } => Period::SuddenDeath {
                        secs: secs * 60,
                        inc,
                    },
                    Period::Sandclock { secs } => Period::Sandclock { secs: secs * 60 },
                })
                .collect();
            let fixed = TimeControl::Periods(scaled);
            notes.push(format!(
                "TimeControl \"{tc}\" read as minutes ({fixed}): the first clock shows {first}"
            ));
            return fixed;
        }
    }
    tc
}

/// The control the clocks are read under: the tag's (minutes written for
/// seconds mended), or with no tag the ruleset's, unless the clocks plainly
/// do not fit it.
fn control_of(
    game: &ParsedGame,
    tc_tag: &str,
    default: &TimeControl,
    f: &mut ClockFacts,
) -> TimeControl {
    let first_clock = game.plies.iter().find_map(|p| p.clocks.clk);
    let tag = tc_tag.trim();
    if !(tag.is_empty() || tag == "?") {
        let tc = effective_tc(tc_tag, default, &mut f.notes, &mut f.delay);
        // Only a PGN control can be minutes written as seconds (`90+30`):
        // words and US notation already say their units.
        let pgn = matches!(
            crate::pgn::time_control::read(tag),
            Some(crate::pgn::time_control::Reading::Pgn(_))
        );
        return if pgn {
            fix_minutes(tc, first_clock, &mut f.notes)
        } else {
            tc
        };
    }
    match (default.base_secs(), first_clock) {
        (Some(base), Some(first)) if first.tenths / 10 > base + 2 * default.increment(1) + 10 => {
            f.notes.push(format!(
                "no TimeControl tag and the clocks (first {first}) do not fit the ruleset's {default}: clock arithmetic skipped"
            ));
            TimeControl::Unknown
        }
        _ => default.clone(),
    }
}

/// A clock from `%egt` (the side's total time used after its `k`-th move),
/// from the control's base and what its `k` moves earned.
fn from_elapsed(tc: &TimeControl, base: Clock, egt: Clock, k: u32) -> Clock {
    let granted: u32 = (1..=k).map(|j| tc.increment(j) + tc.added_after(j)).sum();
    Clock {
        tenths: (base.tenths + granted * 10).saturating_sub(egt.tenths),
        precise: egt.precise,
    }
}

/// Works out every side's clock after every ply. Move numbers, and so the
/// periods of the control, count from `start_fullmove` (a game taken up from
/// a `FEN` at move 33 plays move 33 first, in the first period's last moves).
pub(crate) fn clock_facts(
    game: &ParsedGame,
    first: Side,
    start_fullmove: u32,
    tc_tag: &str,
    default: &TimeControl,
    plies: usize,
) -> (ClockFacts, TimeControl) {
    // A game taken up from a FEN position did not start with full clocks.
    let from_start = game.tags.fen.trim().is_empty();
    let mut f = ClockFacts::default();
    let tc = control_of(game, tc_tag, default, &mut f);
    let base = tc.base_secs().map(Clock::secs);
    f.after.reserve(plies + 1);
    // The start value feeds `%emt` arithmetic but is not reported as a reading.
    let start = if from_start { base } else { None };
    f.after.push([None, None]);
    let uniform = tc.uniform_increment();
    // Moves each side had made before the record starts.
    let before = start_fullmove.max(1) - 1;
    let mut moves_made = [
        moves_made_start(before, first, Side::White),
        moves_made_start(before, first, Side::Black),
    ];
    let mut anomaly_count = 0usize;
    let timed = tc.is_timed();
    // The clocks after the ply before, in two locals rather than read back
    // from `after` (see docs/performance.md, "clock facts").
    let (mut cur_w, mut cur_b): (Option<Clock>, Option<Clock>) = (None, None);
    let mut s = first.index();
    for (i, ply) in game.plies.iter().take(plies).enumerate() {
        let n = i + 1;
        moves_made[s] += 1;
        let k = moves_made[s];
        let prev = match if s == 0 { cur_w } else { cur_b } {
            None if k == 1 => start,
            p => p,
        };
        // What this move may add: its increment, and a period completed by
        // the move before (DDCL's setback), for the rise check and `%emt`.
        let allowance = || match uniform {
            Some(inc) => (inc, 0),
            None => (
                tc.increment(k) + tc.added_after(k),
                tc.added_after(k.saturating_sub(1)),
            ),
        };
        let c = ply.clocks;
        if c.bad_clk {
            if f.unreadable_at.is_none() {
                f.notes.push(format!(
                    "{}'s clock command at move {} cannot be read (a [%clk h:mm:ss] with a mistake in it): that reading is missing",
                    Side::BOTH[s].name(),
                    Side::fullmove_of_ply(first, start_fullmove.max(1), n)
                ));
            }
            f.unreadable_at = Some(n);
        }
        let value = match c.clk {
            Some(clk) => {
                if let Some(p) = prev {
                    // A rise must be paid for by an increment or a new period.
                    let (allowance, added_before) = allowance();
                    let allowed = (allowance + added_before + 1) * 10;
                    if clk.tenths > p.tenths + allowed && timed {
                        if anomaly_count == 0 {
                            f.notes.push(format!(
                                "clock anomaly: {}'s clock rose from {p} to {clk} at move {} with no increment or new period to explain it",
                                Side::BOTH[s].name(),
                                k
                            ));
                        }
                        anomaly_count += 1;
                    }
                }
                Some(clk)
            }
            None => match (c.emt, prev, c.egt, base) {
                (Some(emt), Some(p), ..) => Some(Clock {
                    tenths: (p.tenths + allowance().0 * 10).saturating_sub(emt.tenths),
                    precise: emt.precise,
                }),
                (_, _, Some(egt), Some(b)) if from_start => Some(from_elapsed(&tc, b, egt, k)),
                _ => None,
            },
        };
        if let Some(v) = value {
            f.any = true;
            if v.is_fallen() && f.fallen_at[s].is_none() {
                f.fallen_at[s] = Some(n);
            }
            f.last_written[s] = Some((n, v));
            if s == 0 {
                cur_w = Some(v);
            } else {
                cur_b = Some(v);
            }
        }
        f.after.push([cur_w, cur_b]);
        s ^= 1;
    }
    if anomaly_count > 1 {
        f.notes
            .push(format!("{} clock anomalies in all", anomaly_count));
    }
    (f, tc)
}

/// Moves `side` had made before the record's first ply.
fn moves_made_start(before: u32, first: Side, side: Side) -> u32 {
    before + u32::from(first == Side::Black && side == Side::White)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::parse_game;

    fn facts(pgn: &str, default: &str) -> (ClockFacts, TimeControl) {
        let g = parse_game(pgn.as_bytes());
        let d = TimeControl::parse(default).unwrap();
        clock_facts(&g, Side::White, 1, &g.tags.time_control, &d, g.plies.len())
    }

    #[test]
    fn clocks_carry_forward_per_side() {
        let (f, _) = facts(
            "[TimeControl \"60+0\"]\n\n1. e4 {[%clk 0:00:58]} e5 {[%clk 0:00:59]} 2. Nf3 *",
            "600",
        );
        assert_eq!(f.at(1, Side::White), Some(Clock::secs(58)));
        assert_eq!(f.at(1, Side::Black), None);
        assert_eq!(f.at(3, Side::White), Some(Clock::secs(58)));
        assert_eq!(f.last(Side::Black), Some((2, Clock::secs(59))));
        assert!(f.notes.is_empty());
    }

    #[test]
    fn a_record_that_starts_with_black_gives_each_side_its_own_clocks() {
        let g = parse_game(
            b"[TimeControl \"60+0\"]\n\n1... e5 {[%clk 0:00:57]} 2. Nf3 {[%clk 0:00:58]} Nc6 {[%clk 0:00:50]} *",
        );
        let d = TimeControl::parse("600").unwrap();
        let (f, _) = clock_facts(&g, Side::Black, 1, &g.tags.time_control, &d, g.plies.len());
        assert_eq!(f.at(1, Side::Black), Some(Clock::secs(57)));
        assert_eq!(f.at(1, Side::White), None);
        assert_eq!(f.at(2, Side::White), Some(Clock::secs(58)));
        assert_eq!(f.at(3, Side::Black), Some(Clock::secs(50)));
        assert_eq!(f.at(3, Side::White), Some(Clock::secs(58)));
        assert_eq!(f.last(Side::Black), Some((3, Clock::secs(50))));
        assert_eq!(f.last(Side::White), Some((2, Clock::secs(58))));
    }

    #[test]
    fn emt_is_turned_into_remaining_time() {
        let (f, _) = facts(
            "[TimeControl \"300+2\"]\n\n1. e4 {[%emt 0:00:10]} e5 {[%emt 0:00:30]} *",
            "600",
        );
        assert_eq!(f.at(2, Side::White), Some(Clock::secs(292)));
        assert_eq!(f.at(2, Side::Black), Some(Clock::secs(272)));
    }

    #[test]
    fn unexplained_rise_is_an_anomaly_but_ddcl_setback_is_not() {
        let (f, _) = facts("[TimeControl \"300\"]\n\n1. e4 {[%clk 0:04:00]} e5 {[%clk 0:04:00]} 2. Nf3 {[%clk 0:04:30]} *", "600");
        assert_eq!(f.notes.len(), 1, "{:?}", f.notes);
        assert!(f.notes[0].contains("White's clock rose from 0:04:00 to 0:04:30 at move 2"));
        let mut pgn = String::from("[TimeControl \"36/4500:900\"]\n\n");
        for m in 1..=37 {
            let w = if m <= 36 {
                4500 - m * 100
            } else {
                4500 - 36 * 100 + 900 - 100
            };
            let (mv_w, mv_b) = if m % 2 == 1 {
                ("Nf3", "Nf6")
            } else {
                ("Ng1", "Ng8")
            };
            pgn.push_str(&format!(
                "{m}. {mv_w} {{[%clk {}]}} {mv_b} {{[%clk {}]}} ",
                Clock::secs(w),
                Clock::secs(w)
            ));
        }
        pgn.push('*');
        let (f, _) = facts(&pgn, "600");
        assert!(f.notes.is_empty(), "{:?}", f.notes);
    }

    #[test]
    fn broadcast_minutes_are_recognised() {
        let (f, tc) = facts("[TimeControl \"90+30\"]\n\n1. e4 {[%clk 1:30:56]} *", "600");
        assert_eq!(tc.base_secs(), Some(5400));
        assert!(f.notes[0].contains("read as minutes"));
    }

    #[test]
    fn free_text_falls_back_with_a_note() {
        let (f, tc) = facts(
            "[TimeControl \"Rapid, see the event's rules\"]\n\n1. e4 *",
            "900+10",
        );
        assert_eq!(tc.to_string(), "900+10");
        assert!(f.notes[0].contains("is not PGN"));
    }
}
