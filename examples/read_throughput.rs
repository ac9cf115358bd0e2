//! How fast one input reader feeds the workers: open (decompressing by
//! content), split into games and batches — everything the pipeline's
//! reader thread does, nothing the workers do. Compare its MB/s with the
//! workers' demand (games/s per worker × the number of workers).
//!
//! `cargo run --release --example read_throughput -- FILE.pgn[.zst|.gz|.bz2] [PARTS]`
//!
//! With `PARTS` (a plain file only), that many readers split a part each at
//! once, as the pipeline does for one large plain file when the workers
//! outnumber what one reader feeds.

use std::time::Instant;

use arbiter::read::{open, open_at, part_starts, plain_text_len, split::Splitter, Source};

/// Splits `[start, stop)` of the file (all of it from the start without a
/// stop): bytes and games of the batches it hands on.
fn split_part(path: &str, start: u64, stop: Option<u64>) -> Result<(u64, u64), String> {
    let fail = |e: std::io::Error| format!("{path}: {e}");
    let mut sp = if start == 0 {
        let source = Source::File {
            path: path.into(),
            name: path.to_string(),
        };
        Splitter::new(open(&source).map_err(fail)?)
    } else {
        let file = open_at(std::path::Path::new(path), start).map_err(fail)?;
        Splitter::resume(Box::new(file) as Box<dyn std::io::Read + Send>, start)
    };
    let (mut bytes, mut games) = (0u64, 0u64);
    while let Some(b) = sp.next_batch(1 << 19).map_err(fail)? {
        let past = b
            .games
            .last()
            .is_some_and(|g| stop.is_some_and(|s| g.offset >= s));
        let ours = b.games.iter().filter(|g| stop.is_none_or(|s| g.offset < s));
        for g in ours {
            bytes += (g.end - g.start) as u64;
            games += 1;
        }
        if past {
            break;
        }
    }
    Ok((bytes, games))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: read_throughput FILE [PARTS]");
        std::process::exit(2);
    };
    let parts: usize = args.next().and_then(|p| p.parse().ok()).unwrap_or(1);
    let started = Instant::now();
    let starts = match plain_text_len(std::path::Path::new(&path)) {
        Some(len) if parts > 1 => part_starts(std::path::Path::new(&path), len, parts),
        _ => vec![0],
    };
    let results: Vec<Result<(u64, u64), String>> = std::thread::scope(|s| {
        let handles: Vec<_> = starts
            .iter()
            .enumerate()
            .map(|(k, &start)| {
                let stop = starts.get(k + 1).copied();
                let path = &path;
                s.spawn(move || split_part(path, start, stop))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("a reader panicked".into())))
            .collect()
    });
    let (mut bytes, mut games) = (0u64, 0u64);
    for r in results {
        match r {
            Ok((b, g)) => {
                bytes += b;
                games += g;
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{games} games, {:.1} MB of text in {secs:.3} s with {} reader(s): {:.0} MB/s, {:.0} games/s",
        bytes as f64 / 1e6,
        starts.len(),
        bytes as f64 / 1e6 / secs,
        games as f64 / secs
    );
}
