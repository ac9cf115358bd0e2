//! `arbiter`: an arbiter's and a league grader's paperwork from recorded
//! chess games. Data flows one way: `read` (files, decompression, splitting
//! into games) → `pgn` (tags, moves, clocks) → `replay` → `analysis`
//! (can a side mate, what the clocks say) → `rules` (rulesets, judging) →
//! `report` (CSV). `pipeline` runs it in parallel; `cli` is the binary's edge.

pub mod analysis;
pub mod audit;
pub mod claim;
pub mod cli;
pub mod fuzzing;
pub mod model;
pub mod pgn;
pub mod pipeline;
pub mod read;
pub mod replay;
pub mod report;
pub mod rules;
pub mod season;
