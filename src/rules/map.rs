//! Which ruleset judges which game (`rules-map.toml` beside the inputs, or
//! `adjudicate --rules-map FILE`): file globs, `Event` patterns and time
//! controls to rulesets, first match wins, `-r` for the rest; and the paths
//! under the map's folder that hold no games to judge (claims' scoresheets,
//! a season's board files).

use std::{
    path::{Path, PathBuf},
    sync::atomic::{AtomicBool, Ordering},
};

use glob::{MatchOptions, Pattern};
use serde::Deserialize;

use super::Ruleset;
use crate::pgn::Tags;

/// The file name a folder's map has.
pub const MAP_FILE: &str = "rules-map.toml";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(default)]
    map: Vec<RawEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    path: Option<String>,
    event: Option<String>,
    time_control: Option<String>,
    rules: String,
}

struct Entry {
    path: Option<Pattern>,
    event: Option<Pattern>,
    time_control: Option<String>,
    rules: usize,
    /// How the file writes it, for a message.
    shown: String,
    /// A game has matched it (a map entry that matches nothing is most
    /// often a misspelt name, and is said).
    used: AtomicBool,
}

/// A read rules map, its rulesets loaded.
pub struct RulesMap {
    /// The map file, and the folder its paths are relative to.
    pub file: PathBuf,
    base: PathBuf,
    ignore: Vec<Pattern>,
    entries: Vec<Entry>,
    rulesets: Vec<Ruleset>,
}

/// A path with `.`, `..` and links resolved, where it exists.
fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

const CASE: MatchOptions = MatchOptions {
    case_sensitive: false,
    require_literal_separator: false,
    require_literal_leading_dot: false,
};

impl RulesMap {
    /// Reads a map; an error names the file and the entry.
    pub fn load(file: &Path) -> Result<RulesMap, String> {
        let shown = file.display();
        let bytes = crate::read::contained::read_regular(file, 1 << 20)
            .map_err(|e| format!("{shown}: {e}"))?;
        let text = crate::read::text::decode(&shown.to_string(), bytes);
        let raw: RawMap = toml::from_str(&text).map_err(|e| format!("{shown}: {e}"))?;
        let pattern = |what: &str, p: &str| {
            Pattern::new(p).map_err(|e| format!("{shown}: {what} {p:?}: {e}"))
        };
        let mut rulesets: Vec<Ruleset> = Vec::new();
        let mut entries = Vec::new();
        for (i, e) in raw.map.iter().enumerate() {
            let at = format!("{shown}: map entry {}", i + 1);
            if e.path.is_none() && e.event.is_none() && e.time_control.is_none() {
                return Err(format!("{at}: needs path, event or time_control to match"));
            }
            let rules = match rulesets.iter().position(|r| r.name == e.rules) {
                Some(k) => k,
                None => {
                    let r = Ruleset::load_beside(&e.rules, file)
                        .map_err(|err| format!("{at}: rules: {err}"))?;
                    rulesets.push(r);
                    rulesets.len() - 1
                }
            };
            let shown = [
                ("path", &e.path),
                ("event", &e.event),
                ("time_control", &e.time_control),
            ]
            .into_iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k} = {v:?}")))
            .collect::<Vec<_>>()
            .join(", ");
            entries.push(Entry {
                shown,
                used: AtomicBool::new(false),
                path: e.path.as_deref().map(|p| pattern("path", p)).transpose()?,
                event: e
                    .event
                    .as_deref()
                    .map(|p| pattern("event", p))
                    .transpose()?,
                time_control: e.time_control.as_ref().map(|t| t.trim().to_string()),
                rules,
            });
        }
        let ignore = raw
            .ignore
            .iter()
            .map(|p| pattern("ignore", p))
            .collect::<Result<_, _>>()?;
        Ok(RulesMap {
            file: file.to_path_buf(),
            base: canonical(file.parent().unwrap_or(Path::new("."))),
            ignore,
            entries,
            rulesets,
        })
    }

    /// The files under the map's folder, relative to it as its globs see
    /// them; `None` where the folder is past a bounded walk's reach (more
    /// than 8 levels, 10,000 entries in a folder or 100,000 files).
    fn files_below(&self) -> Option<Vec<String>> {
        let mut files = Vec::new();
        let mut dirs = vec![(self.base.clone(), 0)];
        while let Some((dir, depth)) = dirs.pop() {
            let Ok(read) = std::fs::read_dir(&dir) else {
                continue;
            };
            for (n, entry) in read.flatten().enumerate() {
                let path = entry.path();
                match entry.file_type() {
                    _ if n >= 10_000 => return None,
                    Ok(t) if t.is_dir() && depth >= 8 => return None,
                    Ok(t) if t.is_dir() => dirs.push((path, depth + 1)),
                    Ok(_) => files.push(self.relative(&path)),
                    Err(_) => return None,
                }
            }
            if files.len() > 100_000 {
                return None;
            }
        }
        Some(files)
    }

    /// `path` relative to the map's folder, as its globs see it
    /// (`/`-separated): both resolved first, so that `./samples` and an
    /// absolute path name the same files.
    fn relative(&self, path: &Path) -> String {
        let full = canonical(path);
        let rel = full.strip_prefix(&self.base).unwrap_or(&full);
        rel.to_string_lossy().replace('\\', "/")
    }

    /// Whether a file under the map's folder holds no games to judge.
    pub fn ignores(&self, path: &Path) -> bool {
        let rel = self.relative(path);
        self.ignore.iter().any(|p| p.matches_with(&rel, CASE))
    }

    /// The ruleset of the first entry a game matches (every key an entry
    /// gives must match), or `None` for the fallback.
    pub fn choose(&self, source: &str, tags: &Tags) -> Option<&Ruleset> {
        // The games of a batch share a source: its path is resolved once.
        thread_local! {
            static LAST: std::cell::RefCell<(String, PathBuf, String)> =
                const { std::cell::RefCell::new((String::new(), PathBuf::new(), String::new())) };
        }
        let rel = LAST.with_borrow_mut(|(src, base, rel)| {
            if src != source || *base != self.base || src.is_empty() {
                *rel = self.relative(Path::new(source));
                source.clone_into(src);
                base.clone_from(&self.base);
            }
            rel.clone()
        });
        let tc = tags.time_control.trim();
        self.entries
            .iter()
            .find(|e| {
                e.path.as_ref().is_none_or(|p| p.matches_with(&rel, CASE))
                    && e.event
                        .as_ref()
                        .is_none_or(|p| p.matches_with(tags.event.trim(), CASE))
                    && e.time_control.as_deref().is_none_or(|t| t == tc)
            })
            .map(|e| {
                if !e.used.load(Ordering::Relaxed) {
                    e.used.store(true, Ordering::Relaxed);
                }
                &self.rulesets[e.rules]
            })
    }

    /// A line for each entry no game has matched whose `path` names no
    /// file in the map's folder either, as the file writes it
    /// (`map entry 2 (path = "hs-legue.pgn")`): most often a misspelt
    /// name. An entry for a file that is there but was not given this
    /// time, or for an event or control alone, is not said.
    pub fn unmatched(&self) -> Vec<String> {
        let unused: Vec<_> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.used.load(Ordering::Relaxed) && e.path.is_some())
            .collect();
        if unused.is_empty() {
            return Vec::new();
        }
        // A folder too large to list whole: a file past the walk's bounds
        // may be the one named, so nothing is said.
        let Some(files) = self.files_below() else {
            return Vec::new();
        };
        unused
            .into_iter()
            .filter(|(_, e)| {
                e.path
                    .as_ref()
                    .is_some_and(|p| !files.iter().any(|f| p.matches_with(f, CASE)))
            })
            .map(|(i, e)| {
                format!(
                    "{}: map entry {} ({}) matched no game: is a name misspelt?",
                    self.file.display(),
                    i + 1,
                    e.shown
                )
            })
            .collect()
    }
}
