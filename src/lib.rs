//! `arbiter`: an arbiter's and a league grader's paperwork from recorded
//! chess games. Data flows one way: `chess` (attack tests, keys: the
//! primitives below everything) and `model`; `read` (files, decompression,
//! splitting into games) → `pgn` (tags, moves, clocks) → `replay` (the one
//! replay, what the clocks say, its per-ply record) → `analysis` (can a
//! side mate, forced wins) → `judge` (one decision layer, `judge::policy`,
//! asked by games and claims; `rules` is the rulesets it reads) →
//! `pipeline` (games in parallel, rendered by what the caller gives it) →
//! `report` (CSV, JSON, PDF), which renders finished models and decides
//! nothing. `cli` is the binary's edge. `tests/layers.rs` holds the order.

//!
//! # The library
//!
//! The command line is the main way in; the same work is open to a Rust
//! program through the items re-exported here (the modules themselves are
//! the binary's and the tests', not an API):
//!
//! - rulesets: [`Ruleset::load`] (a built-in name or a TOML file);
//! - one game: [`judge_text`] gives its [`Judgement`] (result, status,
//!   reason, the rule cited, the detail);
//! - many games: [`expand_inputs`] turns paths into [`Source`]s, and
//!   [`adjudicate`] writes the results CSV for them, in parallel;
//! - a claim: [`load_claim`] reads a claim file, [`judge_claim`] gives its
//!   [`Ruling`];
//! - a season: [`load_season`] and [`process_season`] give the standings,
//!   the grading rows and the violations ([`SeasonReport`]);
//! - a position: [`parse_position`] and [`can_mate`], the one answer to
//!   "can this side still checkmate", with its proof.
//!
//! ```
//! use arbiter::{judge_text, Ruleset, Status};
//!
//! let rules = Ruleset::load("fide-blitz").expect("a built-in ruleset");
//! let pgn = b"[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
//!             1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! let (_game, judgement) = judge_text(pgn, &rules);
//! assert_eq!(judgement.verdict.status, Status::Confirmed);
//! assert_eq!(judgement.verdict.rule.as_str(), "FIDE 5.1.1");
//! assert_eq!(judgement.mv, "Qxf7#");
//! ```

#![cfg_attr(test, allow(clippy::unwrap_used))]

#[doc(hidden)]
pub mod analysis;
#[doc(hidden)]
pub mod audit;
#[doc(hidden)]
pub mod chess;
#[doc(hidden)]
pub mod citation;
#[doc(hidden)]
pub mod claim;
#[doc(hidden)]
pub mod cli;
#[doc(hidden)]
pub mod fuzzing;
#[doc(hidden)]
pub mod judge;
#[doc(hidden)]
pub mod model;
#[doc(hidden)]
pub mod pgn;
#[doc(hidden)]
pub mod pipeline;
#[doc(hidden)]
pub mod read;
#[doc(hidden)]
pub mod replay;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod rules;
#[doc(hidden)]
pub mod season;

pub use crate::{
    analysis::{
        mate::{can_mate, MateAnswer, Mateability},
        position::parse_position,
    },
    citation::Citation,
    claim::{load_claim, Claim, ClaimError, LoadOptions, Recommendation, Ruling},
    judge::claim::judge_claim,
    model::{Clock, GameResult, Judgement, Reason, Side, Status, Verdict},
    pipeline::{judge_text, Options, Summary},
    read::{expand_inputs, Source},
    report::batch::adjudicate,
    rules::Ruleset,
    season::{
        load as load_season, model::Season, process as process_season, Report as SeasonReport,
    },
};
