#![no_main]

use std::sync::OnceLock;

use arbiter::rules::Ruleset;
use libfuzzer_sys::fuzz_target;

static RULES: OnceLock<[Ruleset; 2]> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let rules = RULES.get_or_init(|| [Ruleset::load("fide-rapid").unwrap(), Ruleset::load("uscf").unwrap()]);
    arbiter::fuzzing::pgn_game(data, rules);
});
