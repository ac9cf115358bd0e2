//! A smoke run of every fuzz target (see `fuzz/`) over the seed corpus and
//! some mutations of it, in seconds: the long runs happen with `cargo fuzz`.

use crate::common;

use arbiter::{fuzzing, rules::Ruleset};

/// Mutations in the libFuzzer spirit: flip, cut, repeat, splice.
fn mutations(seed: &[u8], n: usize) -> Vec<Vec<u8>> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ seed.len() as u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..n)
        .map(|_| {
            let mut v = seed.to_vec();
            if v.is_empty() {
                return vec![b'{'];
            }
            for _ in 0..1 + next() % 4 {
                let i = (next() % v.len() as u64) as usize;
                match next() % 4 {
                    0 => v[i] = (next() % 256) as u8,
                    1 => v.truncate(i),
                    2 => {
                        let chunk: Vec<u8> = v[i..v.len().min(i + 16)].to_vec();
                        v.splice(i..i, chunk);
                    }
                    _ => {
                        let specials = b"{}()[]\"%;\n01-/";
                        v.insert(i, specials[(next() % specials.len() as u64) as usize]);
                    }
                }
                if v.is_empty() {
                    break;
                }
            }
            v
        })
        .collect()
}

fn files(dir: &std::path::Path, ext: &str) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext)
                && p.metadata().map(|m| m.len() < 64 << 10).unwrap_or(false)
            {
                out.push(std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

#[test]
fn pgn_game_target() {
    let rules = [
        Ruleset::load("fide-rapid").unwrap(),
        Ruleset::load("uscf").unwrap(),
    ];
    let mut seeds = files(&common::data("parser-edge-cases"), "pgn");
    seeds.extend(files(&common::sample(""), "pgn"));
    seeds.extend(files(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/regressions")),
        "pgn",
    ));
    assert!(seeds.len() > 150);
    for s in &seeds {
        fuzzing::pgn_game(s, &rules);
        for m in mutations(s, 3) {
            fuzzing::pgn_game(&m, &rules);
        }
    }
}

#[test]
fn clock_time_control_fen_and_toml_targets() {
    for s in [
        " [%clk 0:01:30] ",
        "[%clk 0:00:07][%eval -6.05]",
        "[%emt 102.34]",
        "40/7200:20/3600:900+30",
        "36/4500:900",
        "1/259200",
        "*180",
        "15 min. + 10 s.",
        "?",
        "-",
    ] {
        for m in mutations(s.as_bytes(), 50) {
            fuzzing::clock_and_time_control(&m);
        }
    }
    let fens = std::fs::read_to_string(common::data(
        "positions/insufficient_material_library_tests.tsv",
    ))
    .unwrap();
    for line in fens.lines().skip(1) {
        let fen = line.split('\t').next().unwrap_or("");
        for m in mutations(fen.as_bytes(), 5) {
            fuzzing::fen(&m);
        }
    }
    fuzzing::fen(
        &std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/regressions/fuzz-fen-control-characters.txt"
        ))
        .unwrap(),
    );
    for (_, text) in arbiter::rules::BUILTINS {
        for m in mutations(text.as_bytes(), 20) {
            fuzzing::ruleset_toml(&m);
        }
    }
    for s in files(&common::sample("season"), "toml") {
        fuzzing::season_toml(&s);
        for m in mutations(&s, 30) {
            fuzzing::season_toml(&m);
        }
    }
    // Claims, with their scoresheets inlined so the moves are fuzzed too.
    for s in files(&common::sample("claims"), "toml") {
        let text = String::from_utf8(s).unwrap();
        let inlined = match text.lines().find_map(|l| l.strip_prefix("scoresheet = ")) {
            Some(name) => {
                let pgn =
                    std::fs::read_to_string(common::sample("claims").join(name.trim_matches('"')))
                        .unwrap();
                let moves: String = pgn
                    .lines()
                    .filter(|l| !l.starts_with('['))
                    .collect::<Vec<_>>()
                    .join(" ");
                text.replace(
                    &format!("scoresheet = {name}"),
                    &format!("moves = {moves:?}"),
                )
            }
            None => text,
        };
        fuzzing::claim_toml(inlined.as_bytes());
        for m in mutations(inlined.as_bytes(), 20) {
            fuzzing::claim_toml(&m);
        }
    }
}

/// The containment rule over hostile paths and their mutations; the target
/// asserts that whatever it accepts stays inside the folder.
#[test]
fn contained_path_target() {
    for s in [
        "game.pgn",
        "sub/../game.pgn",
        "../etc/passwd",
        "/etc/passwd",
        "up/game.pgn",
        "sub/root/etc/shadow",
        "./sub/./game.pgn",
        "sub//game.pgn",
        "",
        "..",
        "sub/..",
        "\u{0}",
    ] {
        fuzzing::contained_path(s.as_bytes());
        for m in mutations(s.as_bytes(), 200) {
            fuzzing::contained_path(&m);
        }
    }
}

/// The packet layout and the review page over the samples, the parser
/// edge cases and their mutations, and games with the shapes that once
/// cost time or memory (a long word, a long game, many scripts).
#[test]
fn packet_layout_and_review_page_targets() {
    let mut seeds = files(&common::sample(""), "pgn");
    seeds.extend(
        files(&common::data("parser-edge-cases"), "pgn")
            .into_iter()
            .take(60),
    );
    let word = "x".repeat(5_000);
    let long: String = (0..2_000)
        .map(|i| format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2))
        .collect();
    seeds.push(format!("[Event \"{word}\"]\n[White \"Dvořák Ж 名人 \u{202e}\"]\n[Result \"1-0\"]\n\n{long}4001. Qh5 1-0\n").into_bytes());
    for s in &seeds {
        fuzzing::packet_layout(s);
        fuzzing::review_page(s);
        for m in mutations(s, 2) {
            fuzzing::packet_layout(&m);
            fuzzing::review_page(&m);
        }
    }
}
