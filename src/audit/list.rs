//! A rated list's rules as data (`templates/lists/*.toml`): the control its
//! games must have, how many rounds a day, what a forfeit is, each with
//! the citation a finding names.

use serde::Deserialize;

use crate::pgn::time_control::{Period, TimeControl};

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

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawControl {
    minutes: Option<u32>,
    increment_seconds: Option<u32>,
    more_than_minutes: Option<u32>,
    less_than_minutes: Option<u32>,
    rule: String,
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

/// The control a rated game must have.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Control {
    /// Exactly this: base and increment, in seconds.
    Exact { secs: u32, inc: u32 },
    /// One period whose base plus 60 times its increment lies strictly
    /// between these, in seconds (FIDE A.1's rapid); no upper bound where
    /// `below` is `None`.
    Between { above: u32, below: Option<u32> },
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
            return Err(format!(
                "unknown list {name_or_path:?}: the built-in lists are {}, or give a list TOML file (see docs/audit.md)",
                RatedList::builtins().join(", ")
            ));
        }
        let bytes = crate::read::contained::read_regular(path, MAX_LIST_BYTES)
            .map_err(|e| format!("{name_or_path}: {e}"))?;
        let text =
            String::from_utf8(bytes).map_err(|_| format!("{name_or_path}: is not UTF-8 text"))?;
        RatedList::from_toml(name_or_path, &text)
    }

    pub(crate) fn from_toml(origin: &str, text: &str) -> Result<RatedList, String> {
        let raw: RawList = toml::from_str(text).map_err(|e| format!("{origin}: {e}"))?;
        let bad = |m: &str| Err(format!("{origin}: {m}"));
        let c = &raw.control;
        let control = match (c.minutes, c.more_than_minutes, c.less_than_minutes) {
            (Some(m), None, None) => Control::Exact {
                secs: m * 60,
                inc: c.increment_seconds.unwrap_or(0),
            },
            (None, Some(_), _) if c.increment_seconds.is_some() => {
                return bad("[control] increment_seconds goes with minutes, not with a range")
            }
            (None, Some(a), b) if b.is_none_or(|b| a < b) => Control::Between {
                above: a * 60,
                below: b.map(|b| b * 60),
            },
            (None, Some(_), Some(_)) => {
                return bad("[control] more_than_minutes must be less than less_than_minutes")
            }
            _ => {
                return bad("[control] needs minutes (and increment_seconds), or more_than_minutes (and less_than_minutes)")
            }
        };
        let limit = |l: &Option<Limit>, key: &str, field: fn(&Limit) -> Option<u32>| match l {
            None => Ok(None),
            Some(l) => match field(l) {
                Some(n) => Ok(Some((n, l.rule.clone()))),
                None => Err(format!("{origin}: [{key}] needs its number")),
            },
        };
        Ok(RatedList {
            rounds_per_day: limit(&raw.rounds_per_day, "rounds_per_day", |l| l.max)?,
            min_moves: limit(&raw.min_moves, "min_moves", |l| l.moves)?,
            name: raw.name,
            title: raw.title,
            ruleset: raw.ruleset,
            control,
            control_rule: raw.control.rule,
            forfeit: raw.forfeit,
        })
    }

    /// The control in words, for a finding and the TRF's `092` line.
    pub(crate) fn control_words(&self) -> String {
        match self.control {
            Control::Exact { secs, inc: 0 } => {
                format!("{} each without increment", minutes(secs))
            }
            Control::Exact { secs, inc } => {
                format!("{} each with {inc} s a move", minutes(secs))
            }
            Control::Between { above, below } => format!(
                "more than {}{} for each player (base plus 60 times the increment)",
                minutes(above),
                below
                    .map(|b| format!(" and less than {}", minutes(b)))
                    .unwrap_or_default()
            ),
        }
    }

    /// Whether a `TimeControl` tag's control is the list's.
    pub(crate) fn fits(&self, tc: &TimeControl) -> bool {
        let TimeControl::Periods(p) = tc else {
            return false;
        };
        let [Period::SuddenDeath { secs, inc }] = p.as_slice() else {
            return false;
        };
        match self.control {
            Control::Exact { secs: s, inc: i } => (*secs, *inc) == (s, i),
            Control::Between { above, below } => {
                let total = secs + 60 * inc;
                above < total && below.is_none_or(|b| total < b)
            }
        }
    }

    /// Whether a first clock reading (seconds) can start the list's control,
    /// for a game with no `TimeControl` tag; `rises`: a clock went up.
    pub(crate) fn clocks_fit(&self, top_secs: u32, rises: bool) -> Result<(), String> {
        match self.control {
            Control::Exact { secs, inc } => {
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
            // so at most base plus 60 increments: above the lower bound, it
            // shows the control is; only the upper bound needs the increment.
            Control::Between { above, below } => {
                let words = || match below {
                    Some(b) => format!("more than {} and less than {}", minutes(above), minutes(b)),
                    None => format!("more than {}", minutes(above)),
                };
                if top_secs <= above {
                    Err(format!(
                        "a first clock of {} does not show {}",
                        clock(top_secs),
                        words()
                    ))
                } else if below.is_some_and(|b| top_secs >= b) {
                    Err(format!(
                        "a first clock of {} is not {}",
                        clock(top_secs),
                        words()
                    ))
                } else if rises && below.is_some() {
                    Err("a clock rises between moves (an increment, of a size the readings do not give)".into())
                } else {
                    Ok(())
                }
            }
        }
    }
}

fn minutes(secs: u32) -> String {
    match (secs / 60, secs % 60) {
        (1, 0) => "1 minute".into(),
        (m, 0) => format!("{m} minutes"),
        _ => format!("{secs} seconds"),
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
        assert_eq!(a.control, Control::Exact { secs: 1800, inc: 0 });
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
