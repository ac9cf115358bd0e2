//! Times the helpmate analysis on a file of positions (one FEN per line or a
//! TSV whose first column is a FEN), one thread: the full search and the fast
//! check, positions per second, and the slowest position of each.
//!
//! `cargo run --release --example helpmate_timing -- ../shared/data/positions/cha_unwinnability_test_vectors.tsv`

use std::time::{Duration, Instant};

use arbiter::{
    analysis::mate::{can_mate, cannot_mate_fast},
    analysis::position::{parse_position, read_fens},
    model::Side,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: helpmate_timing FILE")?;
    let fens: Vec<String> = read_fens(&std::fs::read_to_string(&path)?)
        .into_iter()
        .map(|(_, fen)| fen)
        .collect();
    let positions: Vec<_> = fens
        .iter()
        .filter_map(|f| parse_position(f).ok().map(|p| (f, p)))
        .collect();
    for (name, full) in [("full", true), ("fast", false)] {
        let mut slowest = (Duration::ZERO, "");
        let started = Instant::now();
        for (fen, pos) in &positions {
            let t = Instant::now();
            for side in [Side::White, Side::Black] {
                if full {
                    std::hint::black_box(can_mate(pos, side));
                } else {
                    std::hint::black_box(cannot_mate_fast(pos, side, false));
                }
            }
            let took = t.elapsed();
            if took > slowest.0 {
                slowest = (took, fen.as_str());
            }
        }
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{name}: {} positions (both sides) in {secs:.2} s = {:.0} positions/s; slowest {:.1} ms: {}",
            positions.len(),
            positions.len() as f64 / secs,
            slowest.0.as_secs_f64() * 1e3,
            slowest.1
        );
    }
    Ok(())
}
