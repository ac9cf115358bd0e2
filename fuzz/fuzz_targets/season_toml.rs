//! A season file: checked or refused with an error, then processed without a panic.
#![no_main]

use arbiter::season::{model, process};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    let Ok(raw) = toml::from_str::<model::RawSeason>(s) else { return };
    let judge = |_: &std::path::Path| -> Result<arbiter::model::GameResult, String> { Err("no PGN in fuzzing".into()) };
    if let Ok(season) = model::validate("fuzz.toml", raw, std::path::Path::new("."), &judge) {
        let _ = process(&season);
    }
});
