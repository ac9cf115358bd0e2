//! The whole path for one input: split, parse, replay, judge, under two rulesets.
#![no_main]

use arbiter::{pipeline::judge_text, read::split::Splitter, rules::Ruleset};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let rules = [Ruleset::load("fide-rapid").unwrap(), Ruleset::load("uscf").unwrap()];
    let mut sp = Splitter::new(data);
    while let Ok(Some(batch)) = sp.next_batch(1 << 16) {
        for g in &batch.games {
            for r in &rules {
                let (_, j) = judge_text(&batch.data[g.start..g.end], r);
                assert!(!j.verdict.rule.is_empty());
            }
        }
    }
});
