//! How a claim's own statements are weighed against the scoresheet: which
//! clock was running when the claim was made, and when a stated clock
//! agrees with the last figure the scoresheet records. The numbers are the
//! ruleset's (`[claims.evidence]`).

use crate::{
    claim::ClaimKind,
    model::{Clock, Side},
    rules::EvidenceRules,
};

/// The clock that was running when the claim was made. After an illegal
/// move the offender pressed his clock, so the claimant's was running;
/// otherwise it is the side to move in the final position's (a draw claim
/// on the move, a flag down with that side to move).
pub fn running_clock(kind: ClaimKind, to_move: Side, claimant: Side) -> Side {
    match kind {
        ClaimKind::IllegalMove => claimant,
        _ => to_move,
    }
}

/// Whether a stated clock agrees with the scoresheet's last figure for
/// that side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StatedClock {
    Agrees,
    /// More time than the sheet showed: a clock only runs down.
    GainedTime,
    /// A clock that was not running changed.
    MovedWhileStopped,
    /// The running clock lost more than one move's believable time.
    LostTooMuch,
}

impl StatedClock {
    pub fn words(self) -> &'static str {
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

/// `stated` at the claim against `sheet`, the scoresheet's last figure for
/// that side; `running`: this side's clock ran since that figure.
pub fn stated_clock(
    rules: &EvidenceRules,
    running: bool,
    stated: Clock,
    sheet: Clock,
    increment: u32,
) -> StatedClock {
    let slack = (increment + rules.tolerance_seconds) * 10;
    let (s, w) = (stated.tenths, sheet.tenths);
    if running {
        if s > w + slack {
            StatedClock::GainedTime
        } else if w > s + rules.one_move_seconds * 10 {
            StatedClock::LostTooMuch
        } else {
            StatedClock::Agrees
        }
    } else if s.abs_diff(w) > slack {
        StatedClock::MovedWhileStopped
    } else {
        StatedClock::Agrees
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_clock_only_runs_down_and_a_stopped_one_stays() {
        let r = EvidenceRules::default();
        let c = Clock::secs;
        // The claimant's clock ran from the opponent's move to the claim.
        assert_eq!(
            stated_clock(&r, true, c(95), c(110), 0),
            StatedClock::Agrees
        );
        assert_eq!(
            stated_clock(&r, true, c(113), c(110), 0),
            StatedClock::GainedTime
        );
        assert_eq!(
            stated_clock(&r, true, c(112), c(110), 0),
            StatedClock::Agrees
        );
        assert_eq!(
            stated_clock(&r, true, c(10), c(400), 0),
            StatedClock::LostTooMuch
        );
        assert_eq!(
            stated_clock(&r, false, c(95), c(110), 0),
            StatedClock::MovedWhileStopped
        );
        assert_eq!(
            stated_clock(&r, false, c(108), c(110), 0),
            StatedClock::Agrees
        );
        assert_eq!(
            stated_clock(&r, false, c(100), c(110), 10),
            StatedClock::Agrees
        );
        assert_eq!(
            running_clock(ClaimKind::IllegalMove, Side::Black, Side::White),
            Side::White
        );
        assert_eq!(
            running_clock(ClaimKind::DrawLastTwoMinutes, Side::Black, Side::White),
            Side::Black
        );
    }
}
