//! How a claim's own statements are weighed against the scoresheet: which
//! clock was running when the claim was made, and when a stated clock
//! agrees with the last figure the scoresheet records. The numbers are the
//! ruleset's (`[claims.evidence]`).

use crate::{
    model::{Clock, Side},
    rules::EvidenceRules,
};

/// The clock that was running when the claim was made: the side that made
/// the last move written (an illegal move included) pressed its clock, so
/// the other side's ran; with no move written, the side to move's.
pub(crate) fn running_clock(last_mover: Option<Side>, to_move: Side) -> Side {
    last_mover.map_or(to_move, Side::other)
}

/// Whether a stated clock agrees with the scoresheet's last figure for
/// that side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum StatedClock {
    Agrees,
    /// More time than the sheet showed (and than the increments since
    /// explain): a clock only runs down.
    GainedTime,
    /// A clock that was not running changed.
    MovedWhileStopped,
    /// The running clock lost more than one move's believable time.
    LostTooMuch,
}

impl StatedClock {
    pub(crate) fn words(self) -> &'static str {
        match self {
            StatedClock::Agrees => "agrees",
            StatedClock::GainedTime => {
                "more than the scoresheet showed, though a clock only runs down"
            }
            StatedClock::MovedWhileStopped => "a change on a clock that was not running",
            StatedClock::LostTooMuch => "more time gone than one move explains",
        }
    }
}

/// What a side's clock did between the scoresheet's last figure for it and
/// the claim.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct SinceFigure {
    /// The side's clock was running at the claim.
    pub(crate) running: bool,
    /// Moves the side wrote after that figure (its clock ran for each, and
    /// gained an increment each).
    pub(crate) moves: usize,
}

/// `stated` at the claim against `sheet`, the scoresheet's last figure for
/// that side.
pub(crate) fn stated_clock(
    rules: &EvidenceRules,
    since: SinceFigure,
    stated: Clock,
    sheet: Clock,
    increment: u32,
) -> StatedClock {
    // The increment of each move since, and of the move the figure is
    // after where the record wrote the time before adding it.
    let moves = u32::try_from(since.moves).unwrap_or(u32::MAX);
    let increments = increment.saturating_mul(moves.saturating_add(1));
    let slack = increments
        .saturating_add(rules.tolerance_seconds)
        .saturating_mul(10);
    let (s, w) = (stated.tenths, sheet.tenths);
    if s > w.saturating_add(slack) {
        StatedClock::GainedTime
    } else if since.moves > 0 {
        // The clock ran for moves the scoresheet gives no time for: any
        // lower figure is what the record allows.
        StatedClock::Agrees
    } else if since.running {
        // A flag down: whatever was left may have gone on that move.
        if !stated.is_zero() && w > s.saturating_add(rules.one_move_seconds.saturating_mul(10)) {
            StatedClock::LostTooMuch
        } else {
            StatedClock::Agrees
        }
    } else if w > s.saturating_add(slack) {
        StatedClock::MovedWhileStopped
    } else {
        StatedClock::Agrees
    }
}

/// What the scoresheet says of a side's clock at the claim.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Recorded {
    /// The clock stood still since its figure: the figure.
    Exactly(Clock),
    /// It ran since (or its side moved since): at most this, the figure
    /// and the increments since; any lower figure is what the record allows.
    AtMost(Clock),
}

/// The record's word on a side's clock at the claim, from `sheet`, its
/// last figure. A stated clock within the tolerance of it (`stated_clock`)
/// still differs from it, by a second, say; where a ruling turns on a limit
/// (BCF RP 12's five minutes), the judge tries the record's reading too.
pub(crate) fn recorded(since: SinceFigure, sheet: Clock, increment: u32) -> Recorded {
    if !since.running && since.moves == 0 {
        return Recorded::Exactly(sheet);
    }
    let moves = u32::try_from(since.moves).unwrap_or(u32::MAX);
    let most = sheet.tenths.saturating_add(
        increment
            .saturating_mul(moves.saturating_add(1))
            .saturating_mul(10),
    );
    Recorded::AtMost(Clock {
        tenths: most,
        ..sheet
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_clock_only_runs_down_and_a_stopped_one_stays() {
        let r = EvidenceRules::default();
        let c = Clock::secs;
        let running = SinceFigure {
            running: true,
            moves: 0,
        };
        let stopped = SinceFigure {
            running: false,
            moves: 0,
        };
        // The claimant's clock ran from the opponent's move to the claim.
        assert_eq!(
            stated_clock(&r, running, c(95), c(110), 0),
            StatedClock::Agrees
        );
        assert_eq!(
            stated_clock(&r, running, c(113), c(110), 0),
            StatedClock::GainedTime
        );
        assert_eq!(
            stated_clock(&r, running, c(112), c(110), 0),
            StatedClock::Agrees
        );
        assert_eq!(
            stated_clock(&r, running, c(10), c(400), 0),
            StatedClock::LostTooMuch
        );
        assert_eq!(
            stated_clock(&r, stopped, c(95), c(110), 0),
            StatedClock::MovedWhileStopped
        );
        assert_eq!(
            stated_clock(&r, stopped, c(108), c(110), 0),
            StatedClock::Agrees
        );
        assert_eq!(
            stated_clock(&r, stopped, c(100), c(110), 10),
            StatedClock::Agrees
        );
        // Three moves written since the last figure (players may stop
        // recording times): any lower figure, and three increments more.
        let unrecorded = SinceFigure {
            running: false,
            moves: 3,
        };
        assert_eq!(
            stated_clock(&r, unrecorded, c(20), c(338), 0),
            StatedClock::Agrees
        );
        assert_eq!(
            stated_clock(&r, unrecorded, c(345), c(338), 2),
            StatedClock::Agrees
        );
        assert_eq!(
            stated_clock(&r, unrecorded, c(349), c(338), 2),
            StatedClock::GainedTime
        );
        assert_eq!(running_clock(Some(Side::Black), Side::Black), Side::White);
        assert_eq!(running_clock(None, Side::Black), Side::Black);
        // What the record says of the clock at the claim.
        assert_eq!(recorded(running, c(299), 0), Recorded::AtMost(c(299)));
        assert_eq!(recorded(running, c(299), 2), Recorded::AtMost(c(301)));
        assert_eq!(recorded(stopped, c(300), 0), Recorded::Exactly(c(300)));
        assert_eq!(recorded(unrecorded, c(290), 2), Recorded::AtMost(c(298)));
    }
}
