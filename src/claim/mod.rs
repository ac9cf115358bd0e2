//! Claims and appeals: a claim file (`file`) and its scoresheet
//! (`evidence`) are checked against the ruleset, and the checks give a
//! recommended ruling (`judge`). `report::packet` draws the appeal packet.

pub mod evidence;
pub mod file;
pub mod judge;

use std::fmt;

pub use file::{load_claim, Claim, ClaimError, LoadOptions};
pub use judge::{judge_claim, Ruling};

/// What is claimed (PRODUCT.md's `kind`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ClaimKind {
    DrawLastTwoMinutes,
    InsufficientLosingChances,
    ClearDrawAppeal,
    WinOnTime,
    IllegalMove,
}

impl ClaimKind {
    pub const ALL: [ClaimKind; 5] = [
        ClaimKind::DrawLastTwoMinutes,
        ClaimKind::InsufficientLosingChances,
        ClaimKind::ClearDrawAppeal,
        ClaimKind::WinOnTime,
        ClaimKind::IllegalMove,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ClaimKind::DrawLastTwoMinutes => "draw-last-two-minutes",
            ClaimKind::InsufficientLosingChances => "insufficient-losing-chances",
            ClaimKind::ClearDrawAppeal => "clear-draw-appeal",
            ClaimKind::WinOnTime => "win-on-time",
            ClaimKind::IllegalMove => "illegal-move",
        }
    }

    pub fn parse(s: &str) -> Option<ClaimKind> {
        ClaimKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// Draw claims, judged on whether the opponent can still win.
    pub fn is_draw_claim(self) -> bool {
        matches!(
            self,
            ClaimKind::DrawLastTwoMinutes
                | ClaimKind::InsufficientLosingChances
                | ClaimKind::ClearDrawAppeal
        )
    }
}

impl fmt::Display for ClaimKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The grounds of a last-two-minutes claim (ECF QPF 11, BCF RP NA-2, FIDE III.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ground {
    /// (a) the opponent cannot win by normal means.
    CannotWin,
    /// (b) the opponent has been making no effort to win by normal means.
    NoEffort,
}

impl Ground {
    pub fn as_str(self) -> &'static str {
        match self {
            Ground::CannotWin => "cannot-win-by-normal-means",
            Ground::NoEffort => "no-effort",
        }
    }

    pub fn parse(s: &str) -> Option<Ground> {
        [Ground::CannotWin, Ground::NoEffort]
            .into_iter()
            .find(|g| g.as_str() == s)
    }
}

/// The outcome of one check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail,
    /// The check does not apply to this claim or ruleset.
    NotApplicable,
    /// The evidence cannot settle it: someone has to judge.
    Unknown,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::NotApplicable => "n/a",
            Outcome::Unknown => "unknown",
        }
    }
}

/// One check in the findings: its name, outcome, rule and what was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub name: &'static str,
    pub outcome: Outcome,
    pub rule: String,
    pub detail: String,
}

/// The recommended ruling.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Recommendation {
    Uphold,
    Reject,
    Refer,
}

impl Recommendation {
    pub fn as_str(self) -> &'static str {
        match self {
            Recommendation::Uphold => "uphold",
            Recommendation::Reject => "reject",
            Recommendation::Refer => "refer",
        }
    }
}
