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

/// What a rejected draw claim costs the claimant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnReject {
    /// BCF RP NA-6 (and ECF QPF 12 by extension): the claim ended the game; the claimant loses.
    ClaimantLoses,
    /// FIDE III.5.3: play goes on and the opponent gets `penalty_seconds`.
    OpponentTime,
    /// Sabah v.8(b), HSL SD-ILC (2): play goes on with time off the claimant's clock.
    ClaimantTime,
    /// BCF RP 16, USCF 14H: play goes on, no penalty.
    PlayContinues,
    /// FIDE III.6.2: the claim ended the game and the designated arbiter decides.
    ArbiterDecides,
}

/// Who pays a fee to have a claim heard.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FeePayers {
    #[default]
    None,
    Claimant,
    Both,
}

/// One draw-claim procedure: when it may be made, what evidence it needs,
/// and what follows either way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawClaimRules {
    /// The claimant's clock must be under this many seconds (at most, with
    /// `window_inclusive`); none = any time (Sabah v.8).
    #[serde(default)]
    pub window_seconds: Option<u32>,
    #[serde(default)]
    pub window_inclusive: bool,
    pub window_rule: String,
    /// The claim is made on the claimant's own move, with his clock running.
    #[serde(default)]
    pub on_move: bool,
    /// FIDE III.2.1 and USCF 14H: not in a game with an increment or delay.
    #[serde(default = "yes")]
    pub increment_allowed: bool,
    #[serde(default)]
    pub increment_rule: String,
    /// The written final position (FIDE III.6.1.1, BCF RP NA-3, ECF QPF 14).
    pub position_rule: String,
    /// Ground (a), and the standard the appeal arbiter applies to it.
    pub normal_means_rule: String,
    /// Ground (b): the scoresheet decides.
    pub no_effort_rule: String,
    /// Mixed evidence falls to the claimant's opponent (BCF RP GAA).
    pub doubt_rule: String,
    pub upheld_rule: String,
    pub on_reject: OnReject,
    #[serde(default)]
    pub penalty_seconds: u32,
    /// Sabah v.8(b): the claimant keeps at least this much after the penalty.
    #[serde(default)]
    pub keep_seconds: u32,
    pub reject_rule: String,
    /// Sabah v.8(c): a frivolous appeal may be ruled lost.
    #[serde(default)]
    pub frivolous_rule: String,
    /// Who rules when the evidence does not settle it (ECF QPF 12, HSL SD-ILC (3)).
    pub refer_rule: String,
    /// What the one who decides may do when referred (HSL SD-ILC (3)/(4), FIDE III.5.2).
    #[serde(default)]
    pub refer_note: String,
    /// Who signs the decision, when not the ruleset's `claims.decided_by`.
    #[serde(default)]
    pub decided_by: Option<String>,
    #[serde(default)]
    pub deadline_days: Option<u32>,
    #[serde(default)]
    pub deadline_rule: String,
    /// Both players send their scoresheet and diagram (ECF QPF 13).
    #[serde(default)]
    pub both_submit: bool,
    #[serde(default)]
    pub submissions_rule: String,
    #[serde(default)]
    pub fee: String,
    #[serde(default)]
    pub fee_payers: FeePayers,
    #[serde(default)]
    pub fee_rule: String,
}

fn yes() -> bool {
    true
}

/// Which draw claims a ruleset provides. A missing table means the claim
/// does not exist there (`absent_rule` says why).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRules {
    /// Used by a last-two-minutes claim that does not say whether an arbiter was present.
    #[serde(default)]
    pub arbiter_by_default: bool,
    /// With no arbiter present: the claim ends the game (FIDE III.6, BCF RP NA-1, ECF QPF 11).
    #[serde(default)]
    pub last_two_minutes: Option<DrawClaimRules>,
    /// With an arbiter present (FIDE III.5, BCF RP 16).
    #[serde(default)]
    pub last_two_minutes_arbiter: Option<DrawClaimRules>,
    /// USCF 14H, HSL SD-ILC.
    #[serde(default)]
    pub insufficient_losing_chances: Option<DrawClaimRules>,
    /// Sabah v.8.
    #[serde(default)]
    pub clear_draw_appeal: Option<DrawClaimRules>,
    #[serde(default)]
    pub absent_rule: String,
    /// Who signs a ruling on a claim (the packet's decision box).
    #[serde(default = "arbiter_title")]
    pub decided_by: String,
}

fn arbiter_title() -> String {
    "Arbiter".into()
}

impl Default for ClaimRules {
    fn default() -> ClaimRules {
        ClaimRules {
            arbiter_by_default: false,
            last_two_minutes: None,
            last_two_minutes_arbiter: None,
            insufficient_losing_chances: None,
            clear_draw_appeal: None,
            absent_rule: String::new(),
            decided_by: arbiter_title(),
        }
    }
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
    /// Draw claims and appeals; a ruleset without the table has none.
    #[serde(default)]
    pub claims: ClaimRules,
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
        for (name, c) in [
            ("last_two_minutes", &file.claims.last_two_minutes),
            (
                "last_two_minutes_arbiter",
                &file.claims.last_two_minutes_arbiter,
            ),
            (
                "insufficient_losing_chances",
                &file.claims.insufficient_losing_chances,
            ),
            ("clear_draw_appeal", &file.claims.clear_draw_appeal),
        ] {
            let Some(c) = c else { continue };
            for (value, field) in [
                (&c.window_rule, "window_rule"),
                (&c.position_rule, "position_rule"),
                (&c.normal_means_rule, "normal_means_rule"),
                (&c.no_effort_rule, "no_effort_rule"),
                (&c.doubt_rule, "doubt_rule"),
                (&c.upheld_rule, "upheld_rule"),
                (&c.reject_rule, "reject_rule"),
                (&c.refer_rule, "refer_rule"),
            ] {
                if value.trim().is_empty() {
                    return Err(RulesetError::Toml(
                        origin.to_string(),
                        format!("claims.{name}.{field} is empty: every policy needs its citation"),
                    ));
                }
            }
            let needs = [
                (c.deadline_days.is_some(), &c.deadline_rule, "deadline_rule"),
                (c.both_submit, &c.submissions_rule, "submissions_rule"),
                (c.fee_payers != FeePayers::None, &c.fee_rule, "fee_rule"),
                (!c.increment_allowed, &c.increment_rule, "increment_rule"),
            ];
            for (used, value, field) in needs {
                if used && value.trim().is_empty() {
                    return Err(RulesetError::Toml(
                        origin.to_string(),
                        format!("claims.{name}.{field} is empty: every policy needs its citation"),
                    ));
                }
            }
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
