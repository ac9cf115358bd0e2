//! Citations as a type: the rule a decision rests on, as printed in the
//! results (`FIDE 6.9`, `ECF QPF 10; FIDE 5.1.2`). A `Citation` is never
//! empty: a ruleset whose citation is blank fails to load, naming the key,
//! and a `Verdict` or a claim `Check` cannot be built without one.

use std::fmt;

use serde::{de, Deserialize, Deserializer, Serialize};

/// One or more rule references, `;`-separated when several.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Citation(String);

/// What a loader says when a citation is blank.
pub(crate) const EMPTY_CITATION: &str = "is empty: every policy needs its citation";

impl Citation {
    /// A citation from text; `None` when blank.
    pub(crate) fn new(text: impl Into<String>) -> Option<Citation> {
        let text = text.into();
        let trimmed = text.trim();
        if trimmed.is_empty() {
            None
        } else if trimmed.len() == text.len() {
            Some(Citation(text))
        } else {
            Some(Citation(trimmed.to_string()))
        }
    }

    /// A citation written in the code (PGN standard, a built-in USCF
    /// paragraph). Blank text is a programming error, caught by the tests.
    pub(crate) fn fixed(text: &str) -> Citation {
        debug_assert!(!text.trim().is_empty(), "a citation cannot be empty");
        Citation(text.trim().to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `self; other`, without repeating a rule already cited.
    pub(crate) fn and(&self, other: &Citation) -> Citation {
        self.joined(other, "; ")
    }

    /// `self, other` (claims.csv's older separator), without repeats.
    pub(crate) fn joined(&self, other: &Citation, sep: &str) -> Citation {
        // A paragraph already cited by one of its items ("HSL SD-ILC"
        // beside "HSL SD-ILC (1)") is not cited again.
        let has = |c: &Citation, part: &str| {
            let part = part.trim();
            c.0.split([';', ',']).any(|p| {
                let p = p.trim();
                p == part || p.starts_with(&format!("{part} ("))
            })
        };
        let mut out = self.clone();
        for part in other.0.split(';') {
            if !has(&out, part) {
                out.0.push_str(sep);
                out.0.push_str(part.trim());
            }
        }
        out
    }

    /// The individual rules, in order.
    pub fn parts(&self) -> impl Iterator<Item = &str> {
        self.0.split(';').map(str::trim)
    }
}

impl fmt::Display for Citation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Citation {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for Citation {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Citation {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl<'de> Deserialize<'de> for Citation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Citation, D::Error> {
        let s = String::deserialize(d)?;
        Citation::new(s).ok_or_else(|| de::Error::custom(EMPTY_CITATION))
    }
}

/// A policy value and the rule it comes from, kept together so that no
/// decision can be printed without its rule.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Cited<T> {
    pub(crate) value: T,
    pub(crate) rule: Citation,
}

impl<T> Cited<T> {
    pub(crate) fn new(value: T, rule: &Citation) -> Cited<T> {
        Cited {
            value,
            rule: rule.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_is_refused_and_text_is_trimmed() {
        assert_eq!(Citation::new("  "), None);
        assert_eq!(Citation::new(" FIDE 6.9 ").unwrap().as_str(), "FIDE 6.9");
    }

    #[test]
    fn joining_does_not_repeat_a_rule() {
        let a = Citation::fixed("BCF RP 13");
        let b = Citation::fixed("FIDE 5.1.2");
        assert_eq!(a.and(&b).as_str(), "BCF RP 13; FIDE 5.1.2");
        assert_eq!(a.and(&a).as_str(), "BCF RP 13");
        // A paragraph beside one of its own items: the item says it.
        let item = Citation::fixed("HSL SD-ILC (1)");
        let whole = Citation::fixed("HSL SD-ILC");
        assert_eq!(item.and(&whole).as_str(), "HSL SD-ILC (1)");
        assert_eq!(whole.and(&item).as_str(), "HSL SD-ILC; HSL SD-ILC (1)");
        assert_eq!(a.joined(&b, ", ").as_str(), "BCF RP 13, FIDE 5.1.2");
        assert_eq!(
            a.and(&b).parts().collect::<Vec<_>>(),
            ["BCF RP 13", "FIDE 5.1.2"]
        );
    }
}
