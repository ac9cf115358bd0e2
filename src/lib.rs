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

#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod analysis;
pub mod audit;
pub mod chess;
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
