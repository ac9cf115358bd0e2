//! `arbiter`: an arbiter's and a league grader's paperwork from recorded
//! chess games. Data flows one way: `read` (files, decompression, splitting
//! into games) → `pgn` (tags, moves, clocks) → `replay` (the one replay and
//! its per-ply record) → `analysis` (can a side mate, what the clocks say)
//! → `judge` (one decision layer, `judge::policy`, asked by games and
//! claims; `rules` is the rulesets it reads) → `report` (CSV, PDF), which
//! renders finished models (`model`, `claim`) and decides nothing.
//! `pipeline` runs games in parallel; `cli` is the binary's edge.

#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod analysis;
pub mod audit;
pub mod citation;
pub mod claim;
pub mod cli;
pub mod fuzzing;
pub mod judge;
pub mod model;
pub mod pgn;
pub mod pipeline;
pub mod read;
pub mod replay;
pub mod report;
pub mod rules;
pub mod season;
