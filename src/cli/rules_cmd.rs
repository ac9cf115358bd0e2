//! `arbiter rules [NAME]`.

use std::io::Write;

use super::ExitStatus;
use crate::rules::{Ruleset, BUILTINS};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// A built-in ruleset to print as TOML (the format `--rules FILE` reads),
    /// with what each cited rule says beside it.
    pub(crate) name: Option<String>,
}

pub(crate) fn run(a: Args) -> ExitStatus {
    let mut out = std::io::stdout().lock();
    let r = match a.name {
        None => BUILTINS.iter().try_for_each(|(name, text)| {
            let title = Ruleset::from_toml(name, text)
                .map(|r| r.title.clone())
                .unwrap_or_default();
            writeln!(out, "{name:<16} {title}")
        }),
        Some(name) => match Ruleset::builtin_text(&name).and_then(|text| {
            Ruleset::from_toml(&name, text)
                .ok()
                .map(|r| r.annotated(text))
        }) {
            Some(text) => out.write_all(text.as_bytes()),
            None => {
                let names: Vec<&str> = BUILTINS.iter().map(|(n, _)| *n).collect();
                let unknown = crate::rules::RulesetError::Unknown(name, names.join(", "));
                eprintln!("arbiter: {unknown}");
                return ExitStatus::Error;
            }
        },
    };
    match r {
        Ok(()) => ExitStatus::Ok,
        Err(e) if super::is_broken_pipe(&e) => ExitStatus::Ok,
        Err(e) => {
            eprintln!("arbiter: {e}");
            ExitStatus::Error
        }
    }
}
