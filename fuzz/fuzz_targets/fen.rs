//! `arbiter analyse` on any FEN: a row, never a crash.
#![no_main]

use arbiter::cli::analyse::analyse_row;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() > 200 {
        return;
    }
    let fen = String::from_utf8_lossy(data);
    let row = analyse_row(&fen, None);
    assert_eq!(row.split('\t').count(), 8);
});
