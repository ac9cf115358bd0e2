//! Clock comments and TimeControl tags: never a panic, and a parsed control prints back the same.
#![no_main]

use arbiter::pgn::{clock::parse_comment, time_control::TimeControl};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = parse_comment(data);
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(tc) = TimeControl::parse(s) {
            let again = TimeControl::parse(&tc.to_string()).expect("printed control parses");
            assert_eq!(again, tc);
            for n in [1, 2, 36, 40, 41, 1000] {
                let _ = (tc.increment(n), tc.added_after(n), tc.is_final_period(n));
            }
        }
    }
});
