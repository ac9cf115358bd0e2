//! Where one worker's time goes, stage by stage, on one thread: the file is
//! split into batches first (not timed), then each stage runs over every game
//! on its own — parse; parse + replay; parse + judge; parse + judge + CSV row.
//! The differences are each stage's cost. Compare with `examples/validate`.
//!
//! `cargo run --release --example stage_costs -- FILE.pgn [RULESET]`

use std::time::Instant;

use arbiter::{
    judge::game::{judge, Env},
    pgn::{BatchParser, ParsedGame},
    read::{open, split::Splitter, Source},
    replay::{self, ReplayRules, Scratch, Start},
    rules::Ruleset,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: stage_costs FILE [RULESET]")?;
    let rules = Ruleset::load(&args.next().unwrap_or_else(|| "fide-blitz".into()))?;
    let source = Source::File {
        path: path.clone().into(),
        name: path.clone(),
    };
    let mut sp = Splitter::new(open(&source)?);
    let mut batches = Vec::new();
    while let Some(b) = sp.next_batch(1 << 20)? {
        batches.push(b);
    }
    let games: usize = batches.iter().map(|b| b.games.len()).sum();
    let env = Env::new(&rules);
    // STAGE=parse|replay|judge runs one stage once (for an instruction count
    // under `valgrind --tool=cachegrind --cache-sim=no`).
    let only = std::env::var("STAGE").ok();
    let runs = if only.is_some() { 1 } else { 3 };
    // Times `stage` over every game (its text and the game as parsed); the
    // sum it returns is printed so the work cannot be optimised away.
    let time = |name: &str, stage: &mut dyn FnMut(&[u8], ParsedGame) -> u64| {
        if only.as_deref().is_some_and(|o| !name.ends_with(o)) {
            return;
        }
        let mut best = f64::MAX;
        let mut check = 0;
        for _ in 0..runs {
            let t = Instant::now();
            check = 0;
            for b in &batches {
                let mut p = BatchParser::new(&b.data);
                for g in &b.games {
                    check += stage(p.text(g.start, g.end), p.parse(g.start, g.end));
                }
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{name:<28} {best:7.3} s  {:8.2} µs/game  ({check})",
            best * 1e6 / games as f64
        );
    };
    time("parse", &mut |_, game| game.plies.len() as u64);
    let rr = ReplayRules::of(&rules);
    let mut scratch = Scratch::default();
    time(
        "parse + replay",
        &mut |_, game| match replay::start_position(&game.tags) {
            Start::Position(pos, _) => replay::replay(&game, pos, rr, &mut scratch).plies as u64,
            Start::Variant(_) | Start::BadSetup(_) => 0,
        },
    );
    time("parse + judge", &mut |text, game| {
        judge(&game, text, env, &mut scratch).plies as u64
    });
    Ok(())
}
