//! Times `can_mate` for one side per position: a TSV of FEN and side
//! (`white`/`black`), one thread; the distribution of times and methods,
//! and then the proof check alone: replaying and writing the mating lines
//! found (best of five).
//!
//! `cargo run --release --example side_timing -- FILE.tsv`

use std::{collections::BTreeMap, time::Instant};

use arbiter::{
    analysis::mate::{can_mate, numbered_line},
    analysis::position::parse_position,
    model::Side,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: side_timing FILE")?;
    let text = std::fs::read_to_string(&path)?;
    let mut times = Vec::new();
    let mut lines = Vec::new();
    let mut methods: BTreeMap<String, (usize, f64)> = BTreeMap::new();
    for line in text.lines() {
        let mut f = line.split('\t');
        let (Some(fen), Some(side)) = (f.next(), f.next()) else {
            continue;
        };
        let Ok(pos) = parse_position(fen) else {
            continue;
        };
        let side = if side == "white" {
            Side::White
        } else {
            Side::Black
        };
        let t = Instant::now();
        let a = can_mate(&pos, side);
        let us = t.elapsed().as_secs_f64() * 1e6;
        if !a.line.is_empty() {
            lines.push((pos.clone(), a.line.clone()));
        }
        times.push(us);
        let e = methods
            .entry(format!("{:?} {}", a.verdict, a.method))
            .or_default();
        e.0 += 1;
        e.1 += us;
    }
    times.sort_by(f64::total_cmp);
    let total: f64 = times.iter().sum();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize];
    println!(
        "{} sides, {:.1} ms in all; median {:.0} us, p90 {:.0} us, p99 {:.0} us, max {:.0} us",
        times.len(),
        total / 1e3,
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
    for (m, (n, us)) in methods {
        println!("{n:>7} {:>9.1} ms  {m}", us / 1e3);
    }
    let plies: usize = lines.iter().map(|(_, l)| l.len()).sum();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for (pos, line) in &lines {
            std::hint::black_box(numbered_line(pos, line));
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    let mut lengths: Vec<usize> = lines.iter().map(|(_, l)| l.len()).collect();
    lengths.sort_unstable();
    println!(
        "{} lines, {} plies (median {}): replayed and written alone in {:.1} ms, {:.0} ns a ply",
        lines.len(),
        plies,
        lengths.get(lengths.len() / 2).copied().unwrap_or(0),
        best * 1e3,
        best * 1e9 / plies.max(1) as f64
    );
    Ok(())
}
