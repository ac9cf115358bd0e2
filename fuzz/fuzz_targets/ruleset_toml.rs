//! A user's ruleset file: an error or a ruleset, never a panic.
#![no_main]

use arbiter::rules::Ruleset;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = Ruleset::from_toml("fuzz.toml", s);
    }
});
