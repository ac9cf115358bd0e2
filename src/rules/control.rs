//! Which time controls a set of rules is for: a ruleset's `[controls]`
//! (a game under another control gets a note) and a rated list's
//! `[control]` (a game under another is not rated).

use serde::{Deserialize, Serialize};

use crate::pgn::time_control::{Period, TimeControl};

/// The controls as a file writes them: exact controls (`minutes` with
/// `increment_seconds`, or `exact` PGN `TimeControl`s), or bounds on the
/// base plus 60 times the increment, in minutes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawControl {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) minutes: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) increment_seconds: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) exact: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) more_than_minutes: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) at_least_minutes: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) less_than_minutes: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) at_most_minutes: Option<u32>,
    pub(crate) rule: crate::citation::Citation,
}

/// The controls a set of rules is for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Control {
    /// Exactly one of these.
    Exact(Vec<TimeControl>),
    /// One period whose base plus 60 times its increment (seconds) is at
    /// least `min` and at most `max`.
    Between { min: u32, max: Option<u32> },
}

impl RawControl {
    /// The control it writes, or what is wrong with it.
    pub(crate) fn control(&self) -> Result<Control, String> {
        let too_long = "a control of more than a year".to_string();
        let secs = |m: u32| {
            m.checked_mul(60)
                .filter(|s| *s <= 366 * 86_400)
                .ok_or(too_long.clone())
        };
        let exact_given = self.minutes.is_some() || !self.exact.is_empty();
        let lower = match (self.more_than_minutes, self.at_least_minutes) {
            (Some(_), Some(_)) => {
                return Err("more_than_minutes or at_least_minutes, not both".into())
            }
            (Some(m), None) => Some(secs(m)? + 1),
            (None, Some(m)) => Some(secs(m)?),
            (None, None) => None,
        };
        let upper = match (self.less_than_minutes, self.at_most_minutes) {
            (Some(_), Some(_)) => {
                return Err("less_than_minutes or at_most_minutes, not both".into())
            }
            (Some(m), None) => Some(secs(m)?.saturating_sub(1)),
            (None, Some(m)) => Some(secs(m)?),
            (None, None) => None,
        };
        if exact_given && (lower.is_some() || upper.is_some()) {
            return Err("exact controls (minutes, exact) or bounds, not both".into());
        }
        if self.increment_seconds.is_some() && self.minutes.is_none() {
            return Err("increment_seconds goes with minutes".into());
        }
        if exact_given {
            let mut all = Vec::new();
            if let Some(m) = self.minutes {
                all.push(TimeControl::Periods(vec![Period::SuddenDeath {
                    secs: secs(m)?,
                    inc: self.increment_seconds.unwrap_or(0),
                }]));
            }
            for e in &self.exact {
                all.push(TimeControl::parse(e).map_err(|err| format!("exact {e:?}: {err}"))?);
            }
            return Ok(Control::Exact(all));
        }
        match (lower, upper) {
            (None, None) => Err("needs minutes, exact, or a bound (more_than_minutes, at_least_minutes, less_than_minutes, at_most_minutes)".into()),
            (min, max) if max.is_some_and(|x| x < min.unwrap_or(0)) => Err("the lower bound is above the upper one".into()),
            (min, max) => Ok(Control::Between { min: min.unwrap_or(0), max }),
        }
    }
}

/// `secs` in minutes, for a sentence.
pub(crate) fn minutes(secs: u32) -> String {
    match (secs / 60, secs % 60) {
        (1, 0) => "1 minute".into(),
        (m, 0) => format!("{m} minutes"),
        _ => format!("{secs} seconds"),
    }
}

impl Control {
    /// Whether a game's control is one of these.
    pub(crate) fn fits(&self, tc: &TimeControl) -> bool {
        match self {
            Control::Exact(all) => all.contains(tc),
            Control::Between { min, max } => {
                let TimeControl::Periods(p) = tc else {
                    return false;
                };
                let [Period::SuddenDeath { secs, inc }] = p.as_slice() else {
                    return false;
                };
                let total = secs + 60 * inc;
                *min <= total && max.is_none_or(|m| total <= m)
            }
        }
    }

    /// The controls in words.
    pub(crate) fn words(&self) -> String {
        match self {
            Control::Exact(all) => {
                let each: Vec<String> = all.iter().map(exact_words).collect();
                each.join(" or ")
            }
            Control::Between { min: 0, max: None } => "all moves in one period".into(),
            Control::Between { min, max } => {
                let low = (*min > 0).then(|| bound(*min, true));
                let high = max.map(|m| bound(m, false));
                let both: Vec<String> = [low, high].into_iter().flatten().collect();
                format!(
                    "{} for each player (base plus 60 times the increment)",
                    both.join(" and ")
                )
            }
        }
    }
}

/// A bound in the words its file used: `more than 10 minutes` for 601 s.
fn bound(secs: u32, lower: bool) -> String {
    match (lower, secs % 60) {
        (true, 1) => format!("more than {}", minutes(secs - 1)),
        (true, _) => format!("at least {}", minutes(secs)),
        (false, 59) => format!("less than {}", minutes(secs + 1)),
        (false, _) => format!("at most {}", minutes(secs)),
    }
}

fn exact_words(tc: &TimeControl) -> String {
    match tc {
        TimeControl::Periods(p) => match p.as_slice() {
            [Period::SuddenDeath { secs, inc: 0 }] => {
                format!("{} each without increment", minutes(*secs))
            }
            [Period::SuddenDeath { secs, inc }] => {
                format!("{} each with {inc} s a move", minutes(*secs))
            }
            _ => format!("{tc}"),
        },
        _ => format!("{tc}"),
    }
}

/// A daily or correspondence control: a day or more for a move.
pub(crate) fn correspondence(tc: &TimeControl) -> bool {
    let TimeControl::Periods(p) = tc else {
        return false;
    };
    p.iter().any(
        |p| matches!(p, Period::Moves { moves, secs, .. } if *secs / (*moves).max(1) >= 86_400),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> RawControl {
        toml::from_str(&format!("{text}\nrule = \"X\"")).unwrap()
    }

    #[test]
    fn bounds_read_as_their_words_say() {
        let tc = |s: &str| TimeControl::parse(s).unwrap();
        let rapid = raw("more_than_minutes = 10\nless_than_minutes = 60")
            .control()
            .unwrap();
        assert!(!rapid.fits(&tc("600")) && rapid.fits(&tc("601")) && rapid.fits(&tc("900+10")));
        assert!(rapid.fits(&tc("3599")) && !rapid.fits(&tc("3600")));
        assert_eq!(rapid.words(), "more than 10 minutes and less than 60 minutes for each player (base plus 60 times the increment)");
        let blitz = raw("at_most_minutes = 10").control().unwrap();
        assert!(blitz.fits(&tc("600")) && blitz.fits(&tc("180+2")) && !blitz.fits(&tc("601")));
        let standard = raw("at_least_minutes = 60").control().unwrap();
        assert!(
            standard.fits(&tc("3600"))
                && standard.fits(&tc("5400+30"))
                && !standard.fits(&tc("3599"))
        );
        let qpf = raw("exact = [\"36/4500:900\"]").control().unwrap();
        assert!(qpf.fits(&tc("36/4500:900")) && !qpf.fits(&tc("1800")));
        assert!(raw("minutes = 30\nmore_than_minutes = 10")
            .control()
            .is_err());
        assert!(correspondence(&tc("1/86400")) && !correspondence(&tc("40/7200:1800")));
    }
}
