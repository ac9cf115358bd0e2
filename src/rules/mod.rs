//! Rulesets as data: the TOML schema, the built-ins embedded from
//! `templates/rulesets/`, and validation into a `Ruleset` the judge trusts.
//! Every policy carries the citation string printed with a decision.

pub mod judge;

use serde::{Deserialize, Serialize};

use crate::pgn::time_control::TimeControl;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlagCallers {
    /// FIDE 6.8: the arbiter calls a flag he sees, or a player claims.
    ArbiterOrPlayer,
    /// Sabah v.5, USCF 13C1: only the opponent can claim.
    PlayerOnly,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MateTest {
    /// "by any possible series of legal moves" (FIDE 6.9).
    Helpmate,
    /// USCF 14E: material list with the forced-win exception.
    #[serde(rename = "uscf-14e")]
    Uscf14e,
    /// A bare material count (the alternative Sabah iv.1(f) allows).
    Material,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BothFlagsPolicy {
    Draw,
    /// The game goes on (FIDE III.3.1.1); a record that ends there needs review.
    Continue,
    Review,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnclaimedFlag {
    /// Nobody claimed: the board result stands.
    ResultStands,
    /// The arbiter should have called it.
    Review,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scoring {
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
    pub rule: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRules {
    pub checkmate: String,
    pub stalemate: String,
    pub dead_position: String,
    /// A won result credited to a side that cannot mate is a draw (FIDE 5.1.2).
    pub resignation: String,
    pub agreement: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlagRules {
    pub callers: FlagCallers,
    pub callers_rule: String,
    pub test: MateTest,
    pub rule: String,
    pub cannot_mate_rule: String,
    pub unclaimed: UnclaimedFlag,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BothFlagsRules {
    /// Both flags down in the period where all remaining moves must be played.
    pub final_period: BothFlagsPolicy,
    pub final_rule: String,
    /// Both flags down in an earlier period (e.g. before move 36 in the DDCL).
    pub earlier_period: BothFlagsPolicy,
    pub earlier_rule: String,
    /// Policy when the control has an increment (FIDE III applies only without).
    pub with_increment: BothFlagsPolicy,
    pub with_increment_rule: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IllegalMoveRules {
    /// Time added to the opponent's clock for a completed illegal move.
    pub penalty_seconds: u32,
    pub penalty_rule: String,
    /// Position reinstated when the illegal move is found (FIDE 7.5.1).
    pub reinstate_rule: String,
    pub second_loses: bool,
    pub second_rule: String,
    /// The old Active-play practice: an illegal move loses on claim.
    #[serde(default)]
    pub first_loses: bool,
    /// BCF RP 12: loses if either player has less than this many seconds.
    #[serde(default)]
    pub loses_under_seconds: Option<u32>,
    #[serde(default)]
    pub loses_under_rule: String,
    /// The move stands once the opponent has replied (FIDE A.5.2, Sabah v.7, BCF RP 13).
    pub stands_after_reply: bool,
    pub stands_rule: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AutomaticDraws {
    pub fivefold: bool,
    pub fivefold_rule: String,
    pub seventy_five_moves: bool,
    pub seventy_five_rule: String,
}

/// A ruleset as written in TOML: checked by `Ruleset::from_toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetFile {
    pub name: String,
    pub title: String,
    /// Used when a game has no usable `TimeControl` tag.
    pub default_time_control: String,
    pub default_time_control_rule: String,
    pub scoring: Scoring,
    pub board: BoardRules,
    pub flag: FlagRules,
    pub both_flags: BothFlagsRules,
    pub illegal_move: IllegalMoveRules,
    pub automatic_draws: AutomaticDraws,
}

/// A validated ruleset: the default time control is parsed.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub file: RulesetFile,
    pub default_tc: TimeControl,
}

impl std::ops::Deref for Ruleset {
    type Target = RulesetFile;
    fn deref(&self) -> &RulesetFile {
        &self.file
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RulesetError {
    #[error("unknown ruleset {0:?} (built-ins: {1})")]
    Unknown(String, String),
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("{0}: {1}")]
    Toml(String, String),
    #[error("{0}: default_time_control: {1}")]
    TimeControl(String, String),
    #[error("{0}: {1} is empty: every policy needs its citation")]
    MissingCitation(String, &'static str),
}

macro_rules! builtin {
    ($($name:literal),* $(,)?) => {
        /// The built-in rulesets, embedded from `templates/rulesets/`.
        pub const BUILTINS: &[(&str, &str)] = &[
            $(($name, include_str!(concat!("../../templates/rulesets/", $name, ".toml")))),*
        ];
    };
}

builtin!(
    "fide-standard",
    "fide-rapid",
    "fide-blitz",
    "sabah-active30",
    "bcf-rapid",
    "ecf-quickplay",
    "ddcl-cup",
    "uscf",
    "hs-league",
);

impl Ruleset {
    pub fn from_toml(origin: &str, text: &str) -> Result<Ruleset, RulesetError> {
        let file: RulesetFile = toml::from_str(text)
            .map_err(|e| RulesetError::Toml(origin.to_string(), e.to_string()))?;
        let default_tc = TimeControl::parse(&file.default_time_control)
            .map_err(|e| RulesetError::TimeControl(origin.to_string(), e.to_string()))?;
        let citations: [(&str, &'static str); 15] = [
            (&file.scoring.rule, "scoring.rule"),
            (&file.board.checkmate, "board.checkmate"),
            (&file.board.stalemate, "board.stalemate"),
            (&file.board.dead_position, "board.dead_position"),
            (&file.board.resignation, "board.resignation"),
            (&file.board.agreement, "board.agreement"),
            (&file.flag.rule, "flag.rule"),
            (&file.flag.cannot_mate_rule, "flag.cannot_mate_rule"),
            (&file.flag.callers_rule, "flag.callers_rule"),
            (&file.both_flags.final_rule, "both_flags.final_rule"),
            (&file.both_flags.earlier_rule, "both_flags.earlier_rule"),
            (&file.illegal_move.penalty_rule, "illegal_move.penalty_rule"),
            (&file.illegal_move.stands_rule, "illegal_move.stands_rule"),
            (
                &file.automatic_draws.fivefold_rule,
                "automatic_draws.fivefold_rule",
            ),
            (
                &file.automatic_draws.seventy_five_rule,
                "automatic_draws.seventy_five_rule",
            ),
        ];
        for (value, field) in citations {
            if value.trim().is_empty() {
                return Err(RulesetError::MissingCitation(origin.to_string(), field));
            }
        }
        if file.illegal_move.loses_under_seconds.is_some()
            && file.illegal_move.loses_under_rule.is_empty()
        {
            return Err(RulesetError::MissingCitation(
                origin.to_string(),
                "illegal_move.loses_under_rule",
            ));
        }
        Ok(Ruleset { file, default_tc })
    }

    pub fn builtin_text(name: &str) -> Option<&'static str> {
        BUILTINS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
    }

    /// A built-in name, or a path to a TOML file.
    pub fn load(name_or_path: &str) -> Result<Ruleset, RulesetError> {
        if let Some(text) = Ruleset::builtin_text(name_or_path) {
            return Ruleset::from_toml(name_or_path, text);
        }
        let path = std::path::Path::new(name_or_path);
        if path.exists() || name_or_path.ends_with(".toml") {
            let text = std::fs::read_to_string(path)
                .map_err(|e| RulesetError::Io(name_or_path.to_string(), e))?;
            return Ruleset::from_toml(name_or_path, &text);
        }
        let names: Vec<&str> = BUILTINS.iter().map(|(n, _)| *n).collect();
        Err(RulesetError::Unknown(
            name_or_path.to_string(),
            names.join(", "),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_loads_and_is_named_after_its_file() {
        for (name, text) in BUILTINS {
            let r = Ruleset::from_toml(name, text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(&r.name, name);
            assert!(r.default_tc.is_timed(), "{name}");
        }
    }

    #[test]
    fn unknown_key_is_an_error_naming_the_key() {
        let text = Ruleset::builtin_text("fide-rapid")
            .unwrap()
            .replace("[flag]", "[flag]\nwho_calls = \"x\"");
        let err = Ruleset::from_toml("mine.toml", &text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("who_calls"), "{err}");
        assert!(err.contains("mine.toml"), "{err}");
    }

    #[test]
    fn empty_citation_is_refused() {
        let text = Ruleset::builtin_text("bcf-rapid")
            .unwrap()
            .replace("rule = \"BCF RP 14\"", "rule = \"\"");
        let err = Ruleset::from_toml("x", &text).unwrap_err().to_string();
        assert!(err.contains("flag.rule"), "{err}");
    }
}
