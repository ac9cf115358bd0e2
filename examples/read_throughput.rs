//! How fast one input reader feeds the workers: open (decompressing by
//! content), split into games and batches — everything the pipeline's
//! reader thread does, nothing the workers do. Compare its MB/s with the
//! workers' demand (games/s per worker × the number of workers).
//!
//! `cargo run --release --example read_throughput -- FILE.pgn[.zst|.gz|.bz2]`

use std::time::Instant;

use arbiter::read::{open, split::Splitter, Source};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: read_throughput FILE");
        std::process::exit(2);
    };
    let source = Source::File {
        path: path.clone().into(),
        name: path.clone(),
    };
    let started = Instant::now();
    let reader = match open(&source) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut sp = Splitter::new(reader);
    let (mut bytes, mut games) = (0u64, 0u64);
    loop {
        match sp.next_batch(1 << 20) {
            Ok(Some(b)) => {
                bytes += b.data.len() as u64;
                games += b.games.len() as u64;
            }
            Ok(None) => break,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{games} games, {:.1} MB of text in {secs:.3} s: {:.0} MB/s, {:.0} games/s",
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / secs,
        games as f64 / secs
    );
}
