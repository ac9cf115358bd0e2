//! The README's commands run as written: every `arbiter ...` line of its
//! `sh` blocks, in a fresh folder, on the shipped samples, exits as the
//! README says (0, or 1 under `--fail-on-review`), and the summary line it
//! quotes for the first command is the one printed.

use crate::common;

use std::path::Path;

/// The `sh` blocks' commands that start with `arbiter`, continuation
/// lines joined, comments and redirections dropped.
fn readme_commands(readme: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line.trim() == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let line = line.split(" #").next().unwrap_or("").trim_end();
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head.trim());
            pending.push(' ');
            continue;
        }
        pending.push_str(line.trim());
        let cmd = std::mem::take(&mut pending);
        let cmd = cmd.split(" > ").next().unwrap_or("").trim().to_string();
        if cmd.starts_with("arbiter ") {
            out.push(cmd);
        }
    }
    out
}

/// Words as a shell splits them, double quotes kept together.
fn words(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in cmd.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

#[test]
fn the_readme_commands_run_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let commands = readme_commands(&readme);
    assert!(commands.len() >= 9, "{commands:?}");
    let samples = root.join("samples");
    for cmd in &commands {
        let dir = tempfile::tempdir().unwrap();
        let args: Vec<String> = words(cmd)
            .into_iter()
            .skip(1)
            .map(|w| match w.strip_prefix("samples") {
                Some(rest) => format!("{}{rest}", samples.display()),
                None => w,
            })
            .collect();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(&args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let want = if cmd.contains("--fail-on-review") {
            1
        } else {
            0
        };
        assert_eq!(
            o.status.code(),
            Some(want),
            "{cmd}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // The summary the README quotes for its first command.
    let quoted = readme
        .split("(`")
        .nth(1)
        .and_then(|s| s.split("`)").next())
        .unwrap();
    assert!(quoted.starts_with("30 games: "), "{quoted}");
    let o = common::arbiter(&["adjudicate", samples.to_str().unwrap(), "-o", "/dev/null"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(quoted), "{err}");
    // The map and the files it ignores are not listed again as skipped.
    assert!(!err.contains("skipped"), "{err}");
    assert!(
        err.contains("8 files not read as games (")
            && err.contains("rules-map.toml's ignore list)"),
        "{err}"
    );
}
