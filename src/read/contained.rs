//! The one containment rule for every path read from a claim, season or
//! ruleset file: resolved relative to the file that names it; refused when
//! absolute, when it leaves that file's folder (`..`, symlinks) unless
//! `--allow-outside`; regular files only (no folders, FIFOs or devices),
//! with a size cap. Errors name the path, never the file's content.

use std::{
    io::Read,
    path::{Component, Path, PathBuf},
};

/// `rel` resolved against the folder of the file that names it, refusing a
/// way out of it (absolute paths, `..`, symlinks) unless allowed.
pub(crate) fn contained(base: &Path, rel: &str, allow_outside: bool) -> Result<PathBuf, String> {
    if rel.trim().is_empty() {
        return Err("is empty".into());
    }
    let p = Path::new(rel);
    if allow_outside {
        return Ok(if p.is_absolute() {
            p.to_path_buf()
        } else {
            base.join(p)
        });
    }
    if p.is_absolute() {
        return Err(
            "an absolute path; name a file beside the one that names it (or pass --allow-outside)"
                .into(),
        );
    }
    if p.components()
        .any(|c| matches!(c, Component::ParentDir | Component::Prefix(_)))
    {
        return Err("leads out of the folder with `..` (pass --allow-outside to allow it)".into());
    }
    let full = base.join(p);
    // Every existing component must be a real folder or file, not a symlink.
    let mut at = base.to_path_buf();
    for c in p.components() {
        at.push(c);
        if let Ok(meta) = std::fs::symlink_metadata(&at) {
            if meta.file_type().is_symlink() {
                return Err(format!(
                    "{} is a symbolic link (pass --allow-outside to follow it)",
                    at.display()
                ));
            }
        }
    }
    Ok(full)
}

/// The file beside a missing `path` it was likely meant for: the same
/// name in other case (which Windows would have opened), else the one name
/// one or two letters away with the same numbers in it; `None` where no one
/// name stands out.
fn near_name(path: &Path) -> Option<String> {
    let want = path.file_name()?.to_str()?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .take(10_000)
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    if let Some(n) = names.iter().find(|n| n.eq_ignore_ascii_case(want)) {
        return Some(n.clone());
    }
    // Never another number: `board3.pgn` is not `board2.pgn` misspelt, but
    // another board's game.
    let digits = |n: &str| n.chars().filter(char::is_ascii_digit).collect::<String>();
    let lower = want.to_lowercase();
    let close: Vec<&String> = names
        .iter()
        .filter(|n| {
            want.chars().count() >= 5
                && digits(n) == digits(want)
                && strsim::damerau_levenshtein(&n.to_lowercase(), &lower) <= 2
        })
        .collect();
    match close.as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
}

/// Reads a regular file of at most `limit` bytes; a folder, pipe or device
/// is refused before it is opened, so nothing blocks.
pub(crate) fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => match near_name(path) {
            Some(near) => format!("no such file (did you mean {near:?}, beside it?)"),
            None => "no such file".to_string(),
        },
        _ => e.to_string(),
    })?;
    if !meta.is_file() {
        return Err(if meta.is_dir() {
            "is a folder, not a file".into()
        } else {
            "is not a regular file".into()
        });
    }
    if meta.len() > limit {
        return Err(format!("is larger than {limit} bytes"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!("is larger than {limit} bytes"));
    }
    Ok(bytes)
}
