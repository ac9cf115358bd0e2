//! Criterion benchmarks for the hot paths: clock comments, time controls,
//! and judging one game end to end (parse, replay, judge).

use arbiter::{
    pgn::{clock::parse_comment, time_control::TimeControl},
    pipeline::judge_text,
    rules::Ruleset,
};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

fn clocks(c: &mut Criterion) {
    let mut g = c.benchmark_group("clock");
    for (name, text) in [
        ("lichess", &b" [%clk 0:01:00] "[..]),
        ("chesscom", &b"[%clk 0:02:58.9]"[..]),
        ("with-eval", &b" [%eval 0.3] [%clk 0:01:00] "[..]),
        (
            "idchess",
            &b"[%ts 1754850615931][%clk 01:14:46][%emt 00:15:43][%egt 00:15:43]"[..],
        ),
    ] {
        g.bench_function(name, |b| b.iter(|| parse_comment(black_box(text))));
    }
    g.bench_function("time-control", |b| {
        b.iter(|| TimeControl::parse(black_box("40/7200:20/3600:900+30")))
    });
    g.finish();
}

const GAME: &str = include_str!("../samples/fide-rapid-open.pgn");

fn games(c: &mut Criterion) {
    let rules = Ruleset::load("fide-rapid").expect("built-in");
    // The checkmate game of the sample (40 plies with clocks).
    let start = GAME
        .find("[Event \"Open Rapid\"]\n[Site \"Leeds\"]\n[Date \"2024.05.18\"]\n[Round \"4\"]")
        .unwrap_or(0);
    let end = GAME[start..]
        .find("\n\n[Event")
        .map_or(GAME.len(), |e| start + e);
    let one = &GAME.as_bytes()[start..end];
    let mut g = c.benchmark_group("judge");
    g.throughput(Throughput::Bytes(one.len() as u64));
    g.bench_function("one-game-40-plies", |b| {
        b.iter(|| judge_text(black_box(one), &rules))
    });
    g.finish();
}

/// A claim judged and its packet drawn: the cost of one appeal.
fn claims(c: &mut Criterion) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/claims");
    let mut g = c.benchmark_group("claims");
    for name in ["ecf-shuffle", "bcf-illegal"] {
        let path = dir.join(format!("{name}.toml"));
        let claim = arbiter::claim::load_claim(&path, arbiter::claim::LoadOptions::default())
            .expect("sample claim");
        g.bench_function(format!("judge+packet/{name}"), |b| {
            b.iter(|| {
                let r = arbiter::judge::claim::judge_claim(black_box(claim.clone()), None);
                arbiter::report::packet::render(
                    &arbiter::report::packet::claim_packet(&r),
                    arbiter::report::packet::Made(0),
                )
            })
        });
    }
    g.finish();
}

criterion_group!(benches, clocks, games, claims);
criterion_main!(benches);
