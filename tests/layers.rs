//! The stages import one way: read → pgn → replay → analysis → judge →
//! report, with the chess primitives and the shared models below them and
//! the command line above. Each module of `src/` has a rank; a module may
//! use only modules of a lower rank. Read from the `use` lines and the
//! `crate::` paths of the code (comments and unit tests left out).

use std::{collections::BTreeSet, path::Path};

/// (module, rank). Equal ranks do not import each other.
const RANKS: &[(&str, u8)] = &[
    ("citation", 0),
    ("model", 1),
    ("chess", 1),
    ("read", 2),
    ("pgn", 3),
    ("rules", 4),
    ("replay", 5),
    ("analysis", 6),
    ("claim", 7),
    ("judge", 8),
    ("pipeline", 9),
    ("audit", 10),
    ("season", 10),
    ("report", 11),
    ("cli", 12),
    ("fuzzing", 12),
];

fn rank(module: &str) -> Option<u8> {
    RANKS.iter().find(|(m, _)| *m == module).map(|&(_, r)| r)
}

/// The code of a file without comments and without its unit tests.
fn code(text: &str) -> String {
    let text = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |i| &text[..i]);
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The crate's top-level modules a file's code names.
fn uses(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            // `crate::{a::b, c, d::{e, f}}`: the names at the first level.
            let mut depth = 0;
            let mut start = true;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_alphanumeric() || c == '_') => {
                        out.insert(ident(&group[k..]));
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident(after));
        }
        rest = after;
    }
    out
}

/// "from -> to (file)" for every import against the ranks, and for every
/// module the table does not know.
fn back_edges(files: &[(String, String)]) -> Vec<String> {
    let mut bad = Vec::new();
    for (path, text) in files {
        let from = path
            .split('/')
            .next()
            .unwrap_or_default()
            .trim_end_matches(".rs");
        if from == "lib" || from == "main" {
            continue;
        }
        let Some(r) = rank(from) else {
            bad.push(format!("{from} ({path}) has no rank in RANKS"));
            continue;
        };
        for to in uses(&code(text)) {
            if to == from {
                continue;
            }
            match rank(&to) {
                Some(t) if t < r => {}
                Some(_) => bad.push(format!("{from} -> {to} ({path})")),
                None => bad.push(format!("{from} -> {to} ({path}): {to} has no rank")),
            }
        }
    }
    bad
}

fn sources(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        panic!("cannot read {}", dir.display())
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, root, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p.strip_prefix(root).unwrap_or(&p);
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            out.push((rel.to_string_lossy().replace('\\', "/"), text));
        }
    }
}

#[test]
fn stages_import_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    assert!(files.len() > 50, "{} files", files.len());
    let bad = back_edges(&files);
    assert!(
        bad.is_empty(),
        "imports against the stage order:\n{}",
        bad.join("\n")
    );
}

#[test]
fn a_planted_back_edge_is_found() {
    let file = |p: &str, t: &str| (p.to_string(), t.to_string());
    let files = vec![
        file("read/split.rs", "use crate::pgn::scan::find;\n"),
        file("pipeline/mod.rs", "use crate::{\n    judge::Env,\n    report::{csv, json},\n};\n"),
        file("replay/mod.rs", "fn f() { crate::analysis::mate::is_dead(p) }\n"),
        // Comments, unit tests and lower stages are not edges.
        file("analysis/mate.rs", "// crate::report\nuse crate::{chess::key, replay};\n#[cfg(test)]\nmod tests { use crate::report; }\n"),
        file("newstage/mod.rs", "use crate::model;\n"),
    ];
    assert_eq!(
        back_edges(&files),
        [
            "read -> pgn (read/split.rs)",
            "pipeline -> report (pipeline/mod.rs)",
            "replay -> analysis (replay/mod.rs)",
            "newstage (newstage/mod.rs) has no rank in RANKS",
        ]
    );
}
