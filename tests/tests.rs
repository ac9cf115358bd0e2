//! The integration tests, one binary: each module is one area (the CLI,
//! the samples, the rulesets, claims, seasons, the real data, limits...).
//! `common` holds the helpers they share.

#![allow(clippy::unwrap_used)]

mod common;

mod audit;
mod browser;
mod claims;
mod cli;
mod data;
mod diagram;
mod differential;
mod docs;
mod fast_paths;
mod fuzz_smoke;
mod layers;
mod limits;
mod outputs;
mod parity;
mod positions;
mod properties;
mod proven;
mod reasons;
mod rulesets;
mod samples;
mod scale;
mod season;
mod sheets;
