//! Times `can_mate` for one side per position: a TSV of FEN and side
//! (`white`/`black`), one thread; the distribution of times and methods.
//!
//! `cargo run --release --example side_timing -- FILE.tsv`

use std::{collections::BTreeMap, time::Instant};

use arbiter::{analysis::mate::can_mate, analysis::position::parse_position, model::Side};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: side_timing FILE")?;
    let text = std::fs::read_to_string(&path)?;
    let mut times = Vec::new();
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
    Ok(())
}
