//! A rated list's rules as data (`templates/lists/*.toml`): the control its
//! games must have, how many rounds a day, what a forfeit is, each with
//! the citation a finding names.

use serde::Deserialize;

use crate::{
    pgn::time_control::{Period, TimeControl},
    rules::control::{minutes, Control, RawControl},
};

/// The built-in lists, embedded from `templates/lists/`.
const BUILTINS: &[(&str, &str)] = &[
    (
        "active30",
        include_str!("../../templates/lists/active30.toml"),
    ),
    (
        "fide-rapid",
        include_str!("../../templates/lists/fide-rapid.toml"),
    ),
];

/// A list file's largest size: a list is a page of settings.
const MAX_LIST_BYTES: u64 = 1 << 20;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawList {
    name: String,
    title: String,
    ruleset: String,
    control: RawControl,
    rounds_per_day: Option<Limit>,
    min_moves: Option<Limit>,
    forfeit: Option<Forfeit>,
}

/// A number with the rule that sets it.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct Limit {
    pub(crate) max: Option<u32>,
    pub(crate) moves: Option<u32>,
    pub(crate) rule: String,
}

/// A decisive result with at most `moves` moves played is a forfeit.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct Forfeit {
    pub(crate) moves: u32,
    pub(crate) rule: String,
}

/// A rated list's rules.
#[derive(Clone, Debug)]
pub struct RatedList {
    pub name: String,
    pub title: String,
    /// The ruleset each game's result is judged under.
    pub ruleset: String,
    pub(crate) control: Control,
    pub(crate) control_rule: String,
    /// At most this many rounds a day, and the rule.
    pub(crate) rounds_per_day: Option<(u32, String)>,
    /// A rated game has at least this many moves, and the rule.
    pub(crate) min_moves: Option<(u32, String)>,
    pub(crate) forfeit: Option<Forfeit>,
}

impl RatedList {
    /// The built-in lists' names.
    pub fn builtins() -> Vec<&'static str> {
        BUILTINS.iter().map(|(n, _)| *n).collect()
    }

    /// A built-in list by name, or a list TOML file.
    pub fn load(name_or_path: &str) -> Result<RatedList, String> {
        if let Some((_, text)) = BUILTINS.iter().find(|(n, _)| *n == name_or_path) {
            return RatedList::from_toml(name_or_path, text);
        }
        let path = std::path::Path::new(name_or_path);
        if !path.exists() && !name_or_path.ends_with(".toml") {
            let meant = crate::model::nearest(name_or_path, BUILTINS.iter().map(|(n, _)| *n))
                .map_or(String::new(), |n| format!(" did you mean {n:?}?"));
            return Err(format!(
                "unknown list {name_or_path:?}:{meant} the built-in lists are {}, or give a list TOML file (see docs/audit.md)",
                RatedList::builtins().join(", ")
            ));
        }
        let bytes = crate::read::contained::read_regular(path, MAX_LIST_BYTES)
            .map_err(|e| format!("{name_or_path}: {e}"))?;
        let text = crate::read::text::decode(name_or_path, bytes);
        RatedList::from_toml(name_or_path, &text)
    }

    pub(crate) fn from_toml(origin: &str, text: &str) -> Result<RatedList, String> {
        let raw: RawList = toml::from_str(text).map_err(|e| format!("{origin}: {e}"))?;
        let control = raw
            .control
            .control()
            .map_err(|m| format!("{origin}: [control] {m}"))?;
        let limit = |l: &Option<Limit>, key: &str, field: fn(&Limit) -> Option<u32>| match l {
            None => Ok(None),
            Some(l) => match field(l) {
                Some(n) => Ok(Some((n, l.rule.clone()))),
                None => Err(format!(
                    "{origin}: [{key}] needs its number ({})",
                    if key == "min_moves" {
                        "moves = N"
                    } else {
                        "max = N"
                    }
                )),
            },
        };
        Ok(RatedList {
            rounds_per_day: limit(&raw.rounds_per_day, "rounds_per_day", |l| l.max)?,
            min_moves: limit(&raw.min_moves, "min_moves", |l| l.moves)?,
            name: raw.name,
            title: raw.title,
            ruleset: raw.ruleset,
            control,
            control_rule: raw.control.rule.to_string(),
            forfeit: raw.forfeit,
        })
    }

    /// The control in words, for a finding.
    pub(crate) fn control_words(&self) -> String {
        self.control.words()
    }

    /// Whether a `TimeControl` tag's control is the list's.
    pub(crate) fn fits(&self, tc: &TimeControl) -> bool {
        self.control.fits(tc)
    }

    /// Whether a first clock reading (seconds) can start the list's control,
    /// for a game with no `TimeControl` tag; `rises`: a clock went up.
    pub(crate) fn clocks_fit(&self, top_secs: u32, rises: bool) -> Result<(), String> {
        match &self.control {
            Control::Exact(all) => {
                // One control without a tag: the readings can show only a
                // single sudden-death period.
                let [TimeControl::Periods(p)] = all.as_slice() else {
                    return Err("the list allows more than one control, and a game's clocks cannot tell which".into());
                };
                let [Period::SuddenDeath { secs, inc }] = p.as_slice() else {
                    return Err("the list's control has more than one period, which clock readings cannot show".into());
                };
                let (secs, inc) = (*secs, *inc);
                if top_secs > secs + inc {
                    Err(format!(
                        "a first clock of {} is over {}",
                        clock(top_secs),
                        minutes(secs)
                    ))
                } else if top_secs + 120 < secs {
                    Err(format!(
                        "the first clocks (at most {}) do not start from {}",
                        clock(top_secs),
                        minutes(secs)
                    ))
                } else if rises && inc == 0 {
                    Err("a clock rises between moves (an increment)".into())
                } else if inc > 0 {
                    Err("an increment cannot be read from clock readings".into())
                } else {
                    Ok(())
                }
            }
            // The first reading is at most the base plus one increment, and
            // so at most base plus 60 increments: at or above the lower
            // bound, it shows the control is; only an upper bound needs the
            // increment.
            Control::Between { min, max } => {
                let words = self.control.words();
                if top_secs < *min {
                    Err(format!(
                        "a first clock of {} does not show {words}",
                        clock(top_secs)
                    ))
                } else if max.is_some_and(|m| top_secs > m) {
                    Err(format!(
                        "a first clock of {} is over the bound",
                        clock(top_secs)
                    ))
                } else if rises && max.is_some() {
                    Err("a clock rises between moves (an increment, of a size the readings do not give)".into())
                } else {
                    Ok(())
                }
            }
        }
    }
}

fn clock(secs: u32) -> crate::model::Clock {
    crate::model::Clock::secs(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_lists_read_and_say_their_controls() {
        let a = RatedList::load("active30").unwrap();
        assert!(matches!(&a.control, Control::Exact(c) if c.len() == 1));
        assert_eq!(a.rounds_per_day, Some((6, "Sabah v.11".into())));
        assert_eq!(a.control_words(), "30 minutes each without increment");
        let f = RatedList::load("fide-rapid").unwrap();
        let tc = |s: &str| TimeControl::parse(s).unwrap();
        // FIDE A.1: more than 10 and less than 60 minutes, increments counted 60 times.
        assert!(f.fits(&tc("900+10")));
        assert!(f.fits(&tc("1500+10")));
        assert!(!f.fits(&tc("600")));
        assert!(f.fits(&tc("601")));
        assert!(!f.fits(&tc("3000+10")));
        assert!(!f.fits(&tc("40/5400:1800")));
        assert!(a.fits(&tc("1800")));
        assert!(!a.fits(&tc("1800+5")));
    }

    #[test]
    fn a_list_file_with_a_wrong_key_is_refused_by_name() {
        let text = include_str!("../../templates/lists/active30.toml")
            .replace("[rounds_per_day]", "[rounds_a_day]");
        let e = RatedList::from_toml("mine.toml", &text).unwrap_err();
        assert!(
            e.contains("mine.toml") && e.contains("rounds_a_day") && e.contains("rounds_per_day"),
            "{e}"
        );
        let e = RatedList::load("active-30").unwrap_err();
        assert!(e.contains("active30, fide-rapid"), "{e}");
    }
}
