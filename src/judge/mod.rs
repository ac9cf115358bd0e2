//! Judging: one decision layer (`policy`) asked by the game judge (`game`)
//! and by every kind of claim (`claim`). A rule is decided in `policy` and
//! nowhere else; the judges gather facts and word the findings.

pub mod claim;
pub mod decisions;
pub(crate) mod evidence;
pub mod game;
pub mod policy;

pub(crate) use game::{judge, Env};
