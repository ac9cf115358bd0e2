//! Our helpmate analysis against chasolver (the oracle) on a file of
//! positions, both sides: disagreements, what each leaves undetermined, the
//! time each takes, and our slowest position.
//!
//! `cargo run --release --example helpmate_diff -- ../shared/data/positions/cha_unwinnability_test_vectors.tsv`

#[path = "../tests/common/oracle.rs"]
mod oracle;

use std::time::{Duration, Instant};

use arbiter::{
    analysis::mate::{can_mate, Mateability},
    analysis::position::{parse_position, read_fens},
    model::Side,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: helpmate_diff FILE")?;
    let fens: Vec<String> = read_fens(&std::fs::read_to_string(&path)?)
        .into_iter()
        .map(|(_, fen)| fen)
        .collect();
    let (mut ours_t, mut theirs_t) = (Duration::ZERO, Duration::ZERO);
    let (mut ours_u, mut theirs_u, mut agree, mut differ) = (0, 0, 0, 0);
    let mut slowest = (Duration::ZERO, String::new());
    for fen in &fens {
        let Ok(pos) = parse_position(fen) else {
            continue;
        };
        for side in [Side::White, Side::Black] {
            let t = Instant::now();
            let ours = can_mate(&pos, side).verdict;
            let took = t.elapsed();
            ours_t += took;
            if took > slowest.0 {
                slowest = (took, format!("{fen} {side:?}"));
            }
            let t = Instant::now();
            let Some(theirs) = oracle::verdict(&pos, side.into()) else {
                continue;
            };
            theirs_t += t.elapsed();
            ours_u += usize::from(ours == Mateability::Undetermined);
            if ours == Mateability::Undetermined && std::env::var_os("SHOW_UNDETERMINED").is_some()
            {
                println!(
                    "UNDETERMINED {fen} {side:?} (chasolver {theirs:?}, {:.0} ms)",
                    took.as_secs_f64() * 1e3
                );
            }
            theirs_u += usize::from(theirs == Mateability::Undetermined);
            if ours == Mateability::Undetermined || theirs == Mateability::Undetermined {
                continue;
            }
            if ours == theirs {
                agree += 1;
            } else {
                differ += 1;
                println!("DIFFER {fen} {side:?}: ours {ours:?}, chasolver {theirs:?}");
            }
        }
    }
    println!(
        "{} positions: {agree} sides agree, {differ} differ; undetermined: ours {ours_u}, chasolver {theirs_u}; time ours {:.2} s, chasolver {:.2} s; our slowest {:.1} ms: {}",
        fens.len(),
        ours_t.as_secs_f64(),
        theirs_t.as_secs_f64(),
        slowest.0.as_secs_f64() * 1e3,
        slowest.1
    );
    Ok(())
}
