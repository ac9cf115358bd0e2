//! Claims and appeals, as data: a claim file (`file`), the checks made on
//! it and the ruling they lead to (`Ruling`, the finished model the packet
//! and claims.csv render). `judge::claim` does the judging.

pub(crate) mod file;

use std::fmt;

use shakmaty::Chess;

pub use file::{load_claim, Claim, ClaimError, LoadOptions};

use crate::{
    citation::Citation,
    model::{Clock, Side},
    replay::record::{Record, Row},
    rules::DrawClaimRules,
};

/// What is claimed (PRODUCT.md's `kind`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ClaimKind {
    DrawLastTwoMinutes,
    InsufficientLosingChances,
    ClearDrawAppeal,
    WinOnTime,
    IllegalMove,
}

impl ClaimKind {
    pub(crate) const ALL: [ClaimKind; 5] = [
        ClaimKind::DrawLastTwoMinutes,
        ClaimKind::InsufficientLosingChances,
        ClaimKind::ClearDrawAppeal,
        ClaimKind::WinOnTime,
        ClaimKind::IllegalMove,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ClaimKind::DrawLastTwoMinutes => "draw-last-two-minutes",
            ClaimKind::InsufficientLosingChances => "insufficient-losing-chances",
            ClaimKind::ClearDrawAppeal => "clear-draw-appeal",
            ClaimKind::WinOnTime => "win-on-time",
            ClaimKind::IllegalMove => "illegal-move",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<ClaimKind> {
        ClaimKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

impl fmt::Display for ClaimKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The grounds of a last-two-minutes claim (ECF QPF 11, BCF RP NA-2, FIDE III.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ground {
    /// (a) the opponent cannot win by normal means.
    CannotWin,
    /// (b) the opponent has been making no effort to win by normal means.
    NoEffort,
}

impl Ground {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Ground::CannotWin => "cannot-win-by-normal-means",
            Ground::NoEffort => "no-effort",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Ground> {
        [Ground::CannotWin, Ground::NoEffort]
            .into_iter()
            .find(|g| g.as_str() == s)
    }
}

/// The outcome of one check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    Pass,
    Fail,
    /// The check does not apply to this claim or ruleset.
    NotApplicable,
    /// The evidence cannot settle it: someone has to judge.
    Unknown,
}

impl CheckOutcome {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CheckOutcome::Pass => "pass",
            CheckOutcome::Fail => "fail",
            CheckOutcome::NotApplicable => "n/a",
            CheckOutcome::Unknown => "unknown",
        }
    }
}

/// Which check: one variant per check any claim kind makes. The CSV and
/// the packet print `as_str`; code asks by variant, never by name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CheckId {
    KindAllowed,
    Scoresheet,
    FinalPosition,
    Clocks,
    ClockWindow,
    OnMove,
    Increment,
    Deadline,
    Submissions,
    Fees,
    NormalMeans,
    NoEffort,
    ClaimantFlagUp,
    OpponentFlagDown,
    BothFlagsDown,
    ClaimantCanMate,
    IllegalMoveFound,
    ClaimedInTime,
    ClockLimit,
    SecondIllegal,
    /// The game ended on the board before the moves the claim is about.
    GameOver,
}

/// What a check bears on, which decides what its failure does
/// (`judge::claim::decide`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum CheckClass {
    /// The claim itself: the grounds, the flags, the illegal move.
    Merits,
    /// The way the claim was made: window, on move, no increment.
    Procedure,
    /// What the claimant had to send or pay afterwards: the deadline, the
    /// papers, the fee. The texts that ask for them (ECF QPF 13, BCF RP
    /// NA-5) state no consequence, so a failure refers.
    Papers,
    /// The record the claim is judged on: scoresheet, position, clocks.
    Evidence,
}

impl CheckId {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CheckId::KindAllowed => "kind-allowed",
            CheckId::Scoresheet => "scoresheet",
            CheckId::FinalPosition => "final-position",
            CheckId::Clocks => "clocks",
            CheckId::ClockWindow => "clock-window",
            CheckId::OnMove => "on-move",
            CheckId::Increment => "increment",
            CheckId::Deadline => "deadline",
            CheckId::Submissions => "submissions",
            CheckId::Fees => "fees",
            CheckId::NormalMeans => "normal-means",
            CheckId::NoEffort => "no-effort",
            CheckId::ClaimantFlagUp => "claimant-flag-up",
            CheckId::OpponentFlagDown => "opponent-flag-down",
            CheckId::BothFlagsDown => "both-flags-down",
            CheckId::ClaimantCanMate => "claimant-can-mate",
            CheckId::IllegalMoveFound => "illegal-move-found",
            CheckId::ClaimedInTime => "claimed-in-time",
            CheckId::ClockLimit => "clock-limit",
            CheckId::SecondIllegal => "second-illegal",
            CheckId::GameOver => "game-over",
        }
    }

    pub(crate) fn class(self) -> CheckClass {
        match self {
            CheckId::Scoresheet | CheckId::FinalPosition | CheckId::Clocks => CheckClass::Evidence,
            CheckId::KindAllowed | CheckId::ClockWindow | CheckId::OnMove | CheckId::Increment => {
                CheckClass::Procedure
            }
            CheckId::Deadline | CheckId::Submissions | CheckId::Fees => CheckClass::Papers,
            CheckId::NormalMeans
            | CheckId::NoEffort
            | CheckId::ClaimantFlagUp
            | CheckId::OpponentFlagDown
            | CheckId::BothFlagsDown
            | CheckId::ClaimantCanMate
            | CheckId::IllegalMoveFound
            | CheckId::GameOver
            | CheckId::ClaimedInTime
            | CheckId::ClockLimit
            | CheckId::SecondIllegal => CheckClass::Merits,
        }
    }
}

impl fmt::Display for CheckId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One check in the findings: which, its outcome, rule and what was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub(crate) id: CheckId,
    pub outcome: CheckOutcome,
    pub(crate) rule: Citation,
    pub detail: String,
}

impl Check {
    /// The rule the check rests on, as the packet and claims.csv cite it.
    pub fn rule(&self) -> String {
        self.rule.to_string()
    }

    pub(crate) fn new(
        id: CheckId,
        outcome: CheckOutcome,
        rule: &Citation,
        detail: impl Into<String>,
    ) -> Check {
        Check {
            id,
            outcome,
            rule: rule.clone(),
            detail: detail.into(),
        }
    }
}

/// The recommended ruling.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Recommendation {
    Uphold,
    Reject,
    Refer,
}

impl Recommendation {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Recommendation::Uphold => "uphold",
            Recommendation::Reject => "reject",
            Recommendation::Refer => "refer",
        }
    }
}

/// What ground (b) rests on: the moves over the period and what they show.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Progress {
    /// Which moves were looked at, and why those.
    pub(crate) period: String,
    pub(crate) rows: Vec<Row>,
    pub(crate) captures: usize,
    pub(crate) pawn_moves: usize,
    pub(crate) checks: usize,
    pub(crate) repeats: usize,
    pub(crate) king_squares: usize,
    pub(crate) opponent_moves: usize,
}

impl Progress {
    /// "in 6 moves: 0 captures, 3 pawn moves, 1 check; 0 repeated positions; king on 3 squares"
    pub(crate) fn summary(&self) -> String {
        format!(
            "in {}: {}, {}, {}; {}; king on {}",
            plural(self.opponent_moves, "move"),
            plural(self.captures, "capture"),
            plural(self.pawn_moves, "pawn move"),
            plural(self.checks, "check"),
            plural(self.repeats, "repeated position"),
            plural(self.king_squares, "square")
        )
    }
}

/// A claim judged: the checks, the recommendation and the result either way.
#[derive(Clone, Debug)]
pub struct Ruling {
    pub(crate) claim: Claim,
    pub evidence: Record,
    pub(crate) white: String,
    pub(crate) black: String,
    pub checks: Vec<Check>,
    pub recommendation: Recommendation,
    pub result_if_upheld: String,
    pub result_if_rejected: String,
    pub rule: Citation,
    /// Why, in a sentence or two (the CSV's `detail`).
    pub detail: String,
    /// The position the analysis used, and its FEN.
    pub(crate) position: Option<Chess>,
    pub(crate) fen: String,
    /// A mating line for the side whose mating chances matter, where one exists.
    pub mate_line: Option<String>,
    pub(crate) progress: Option<Progress>,
    /// The clocks at the claim (from the claim, else the scoresheet's last).
    pub(crate) clocks: [Option<Clock>; 2],
    /// The ply the packet marks (the illegal move).
    pub marked_ply: Option<usize>,
    /// The draw-claim procedure applied, if the kind is a draw claim the ruleset has.
    pub(crate) procedure: Option<DrawClaimRules>,
}

impl Ruling {
    pub fn failed(&self) -> Vec<CheckId> {
        self.checks
            .iter()
            .filter(|c| c.outcome == CheckOutcome::Fail)
            .map(|c| c.id)
            .collect()
    }

    /// White's and Black's names as the packet gives them.
    pub fn players(&self) -> (&str, &str) {
        (&self.white, &self.black)
    }

    pub fn check(&self, id: CheckId) -> Option<&Check> {
        self.checks.iter().find(|c| c.id == id)
    }

    /// Who signs the decision, and under which rule they decide.
    pub(crate) fn decided_by(&self) -> String {
        let claims = &self.claim.ruleset.claims;
        match &self.procedure {
            Some(p) => format!(
                "{} ({})",
                p.decided_by.as_deref().unwrap_or(&claims.decided_by),
                p.decided_by_rule.as_ref().unwrap_or(&p.refer_rule)
            ),
            None => claims.decided_by.clone(),
        }
    }

    /// The result column if the claim is upheld: `1-0`, `0-1`, `1/2-1/2`,
    /// or `*` when play continues (the words are in `result_if_upheld`).
    pub fn upheld_result(&self) -> &'static str {
        result_column(&self.result_if_upheld)
    }

    pub(crate) fn rejected_result(&self) -> &'static str {
        result_column(&self.result_if_rejected)
    }

    pub(crate) fn name_of(&self, side: Side) -> &str {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }
}

/// A consequence as a result column: the result it names, else `*`.
fn result_column(words: &str) -> &'static str {
    crate::model::GameResult::parse(words).map_or("*", |r| r.as_str())
}

/// A consequence worth words in `detail`: play continuing, a time penalty,
/// an option of the one who decides.
pub(crate) fn consequence_words(words: &str) -> Option<&str> {
    let w = words.trim();
    (!w.is_empty() && w != "-" && crate::model::GameResult::parse(w).is_none()).then_some(w)
}

pub(crate) fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
