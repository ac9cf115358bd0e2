//! Rulesets as data: the TOML schema, the built-ins embedded from
//! `templates/rulesets/`, and validation into a `Ruleset` the judge trusts.
//! Every policy carries the citation string printed with a decision.

use serde::{Deserialize, Serialize};

pub(crate) use crate::citation::Citation;

use crate::pgn::time_control::TimeControl;

pub(crate) mod control;
pub mod map;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum FlagCallers {
    /// FIDE 6.8: the arbiter calls a flag he sees, or a player claims.
    ArbiterOrPlayer,
    /// Sabah v.5, USCF 13C1: only the opponent can claim.
    PlayerOnly,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum MateTest {
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
pub(crate) enum BothFlagsPolicy {
    Draw,
    /// The game goes on (FIDE III.3.1.1); a record that ends there needs review.
    Continue,
    Review,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum UnclaimedFlag {
    /// Nobody claimed: the board result stands.
    ResultStands,
    /// The arbiter should have called it.
    Review,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Scoring {
    pub(crate) win: f64,
    pub(crate) draw: f64,
    pub(crate) loss: f64,
    pub(crate) rule: Citation,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardRules {
    pub(crate) checkmate: Citation,
    pub(crate) stalemate: Citation,
    pub(crate) dead_position: Citation,
    /// A won result credited to a side that cannot mate is a draw (FIDE 5.1.2).
    pub(crate) resignation: Citation,
    pub(crate) agreement: Citation,
    /// A draw is agreed only once both players have made a move (FIDE
    /// 5.2.3: "provided both players have made at least one move").
    #[serde(default)]
    pub(crate) agreement_after_both_moved: bool,
    /// Whether a resignation's win needs a winner who can mate.
    #[serde(default)]
    pub(crate) resigned_win: ResignedWin,
}

/// A win by resignation (or agreed), when the winner cannot mate.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ResignedWin {
    /// Drawn when the winner cannot mate by any series of legal moves
    /// (FIDE 5.1.2).
    #[default]
    IfWinnerCanMate,
    /// The win stands; only a position dead before it (both sides unable
    /// to mate) draws, as every ruleset's dead-position rule does.
    Stands,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FlagRules {
    pub(crate) callers: FlagCallers,
    pub(crate) callers_rule: Citation,
    /// How a win on time is claimed, where another paragraph than
    /// `callers_rule` says it (Sabah iii.2: "A player must claim a win
    /// himself by immediately stopping both clocks").
    #[serde(default)]
    pub(crate) claim_rule: Option<Citation>,
    pub(crate) test: MateTest,
    pub(crate) rule: Citation,
    pub(crate) cannot_mate_rule: Citation,
    pub(crate) unclaimed: UnclaimedFlag,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BothFlagsRules {
    /// Both flags down in the period where all remaining moves must be played.
    pub(crate) final_period: BothFlagsPolicy,
    pub(crate) final_rule: Citation,
    /// Both flags down in an earlier period (e.g. before move 36 in the DDCL).
    pub(crate) earlier_period: BothFlagsPolicy,
    pub(crate) earlier_rule: Citation,
    /// Policy when the control has an increment (FIDE III applies only without).
    pub(crate) with_increment: BothFlagsPolicy,
    pub(crate) with_increment_rule: Citation,
    /// Where the record shows whose flag fell first, that flag is judged
    /// alone (FIDE III.3.1 applies only "if it is impossible to establish
    /// which flag fell first"). Off where the text draws regardless (ECF QPF 10).
    #[serde(default)]
    pub(crate) first_fell_decides: bool,
    #[serde(default)]
    pub(crate) first_fell_rule: Option<Citation>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct IllegalMoveRules {
    /// Time added to the opponent's clock for a completed illegal move.
    pub(crate) penalty_seconds: u32,
    pub(crate) penalty_rule: Citation,
    /// Position reinstated when the illegal move is found (FIDE 7.5.1).
    pub(crate) reinstate_rule: Citation,
    pub(crate) second_loses: bool,
    pub(crate) second_rule: Citation,
    /// The old Active-play practice: an illegal move loses on claim.
    #[serde(default)]
    pub(crate) first_loses: bool,
    /// BCF RP 12: loses if either player has less than this many seconds.
    #[serde(default)]
    pub(crate) loses_under_seconds: Option<u32>,
    #[serde(default)]
    pub(crate) loses_under_rule: Option<Citation>,
    /// Where the ruleset's text leaves the extra time to the arbiter (BCF
    /// RP 12 "may award the opponent extra time"), the document the
    /// default `penalty_seconds` comes from; and, with `loses_under_*`, the
    /// rule time is added under for a clock on the limit exactly, which
    /// the text's "less than" and "more than" both leave out.
    #[serde(default)]
    pub(crate) penalty_amount_rule: Option<Citation>,
    /// Where a loss for an illegal move is drawn because the opponent
    /// cannot checkmate by any series of legal moves: the document that
    /// says so (FIDE 7.5.5), where the ruleset's own loss rule does not
    /// (BCF RP 12 has no such clause; RP 2 brings in the FIDE Laws).
    /// Missing: `second_rule`.
    #[serde(default)]
    pub(crate) cannot_mate_rule: Option<Citation>,
    /// The move stands once the opponent has replied (FIDE A.5.2, Sabah v.7, BCF RP 13).
    pub(crate) stands_after_reply: bool,
    /// The move stands once its player has made this many more (USCF 11B:
    /// one found before the last ten moves stands; 11A reinstates within
    /// them). Cited with `stands_rule`.
    #[serde(default)]
    pub(crate) stands_after_moves: Option<u32>,
    pub(crate) stands_rule: Citation,
    /// An illegal move nobody noticed in a game that then ended: the result
    /// stands ("corrections are not possible", FIDE Arbiters' Manual on 7.5;
    /// USCF 11D1d), or the record still goes to review.
    #[serde(default)]
    pub(crate) after_game: AfterGame,
    #[serde(default)]
    pub(crate) after_game_rule: Option<Citation>,
}

impl IllegalMoveRules {
    /// An illegal move stands for its age: found `plies_after` plies
    /// after it, its player's moves since past the ruleset's window.
    pub(crate) fn stands_by_age(&self, plies_after: usize) -> bool {
        stands_by_age(self.stands_after_moves, plies_after)
    }

    /// The window of moves an illegal move is reinstated within, where the
    /// ruleset counts one (USCF 11A) rather than the reply (FIDE A.5.2).
    pub(crate) fn window(&self) -> Option<u32> {
        self.stands_after_moves.filter(|_| !self.stands_after_reply)
    }

    /// The rule a loss for an illegal move is drawn under where the
    /// opponent cannot mate.
    pub(crate) fn cannot_mate(&self) -> &Citation {
        self.cannot_mate_rule.as_ref().unwrap_or(&self.second_rule)
    }
}

/// An illegal move found `plies_after` plies after it stands where its
/// player's moves since are `window` (`stands_after_moves`) or more: it was
/// made before the last ones the rule reinstates (USCF 11A, 11B).
pub(crate) fn stands_by_age(window: Option<u32>, plies_after: usize) -> bool {
    window.is_some_and(|k| own_moves_after(plies_after) >= k as usize)
}

/// The moves a player made after one of his own, `plies_after` plies on.
pub(crate) fn own_moves_after(plies_after: usize) -> usize {
    plies_after / 2
}

/// What an illegal move found only after the game was over decides.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum AfterGame {
    /// The record cannot be judged past it: an arbiter decides.
    #[default]
    Review,
    /// The game is over; the moves stand as played and so does the result.
    ResultStands,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AutomaticDraws {
    pub(crate) fivefold: bool,
    pub(crate) fivefold_rule: Citation,
    pub(crate) seventy_five_moves: bool,
    pub(crate) seventy_five_rule: Citation,
}

/// What a rejected draw claim costs the claimant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum OnReject {
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
pub(crate) enum FeePayers {
    #[default]
    None,
    Claimant,
    Both,
}

/// One draw-claim procedure: when it may be made, what evidence it needs,
/// and what follows either way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DrawClaimRules {
    /// The claimant's clock must be under this many seconds (at most, with
    /// `window_inclusive`); none = any time (Sabah v.8).
    #[serde(default)]
    pub(crate) window_seconds: Option<u32>,
    #[serde(default)]
    pub(crate) window_inclusive: bool,
    pub(crate) window_rule: Citation,
    /// The claim is made on the claimant's own move, with his clock running.
    #[serde(default)]
    pub(crate) on_move: bool,
    /// FIDE III.2.1 and USCF 14H: not in a game with an increment or delay.
    #[serde(default = "yes")]
    pub(crate) increment_allowed: bool,
    #[serde(default)]
    pub(crate) increment_rule: Option<Citation>,
    /// The written final position (FIDE III.6.1.1, BCF RP NA-3, ECF QPF 14).
    pub(crate) position_rule: Citation,
    /// The whole game's scoresheet is required, not an extract (ECF QPF 14:
    /// "a complete scoresheet of the game").
    #[serde(default)]
    pub(crate) complete_scoresheet: bool,
    /// Ground (a), and the standard the appeal arbiter applies to it.
    pub(crate) normal_means_rule: Citation,
    /// Ground (b): the scoresheet decides.
    pub(crate) no_effort_rule: Citation,
    /// The rule for mixed evidence on ground (b).
    pub(crate) doubt_rule: Citation,
    /// Mixed evidence on ground (b) fails the claim (BCF RP GAA: "the
    /// benefit of any doubt should be given to the opponent of the
    /// claimant"); otherwise it is left to whoever decides, who may watch
    /// on (FIDE III.5.2, BCF RP 16, HSL SD-ILC (3)).
    #[serde(default)]
    pub(crate) doubt_to_opponent: bool,
    /// The claimant must say on which ground he claims (BCF RP NA-2 "He
    /// must claim (a) ... and/or (b)", ECF QPF 11): only those are judged.
    /// Off where the one who decides may draw on either (BCF RP 16).
    #[serde(default = "yes")]
    pub(crate) grounds_named: bool,
    pub(crate) upheld_rule: Citation,
    pub(crate) on_reject: OnReject,
    #[serde(default)]
    pub(crate) penalty_seconds: u32,
    /// The penalty is for a claim wrong on its merits only (HSL SD-ILC (2):
    /// "clearly incorrect"): one not in order costs nothing.
    #[serde(default)]
    pub(crate) penalty_on_merits_only: bool,
    /// Sabah v.8(b): the claimant keeps at least this much after the penalty.
    #[serde(default)]
    pub(crate) keep_seconds: u32,
    pub(crate) reject_rule: Citation,
    /// Sabah v.8(c): a frivolous appeal may be ruled lost.
    #[serde(default)]
    pub(crate) frivolous_rule: Option<Citation>,
    /// Who rules when the evidence does not settle it (ECF QPF 12, HSL SD-ILC (3)).
    pub(crate) refer_rule: Citation,
    /// What the one who decides may do when referred (HSL SD-ILC (3)/(4), FIDE III.5.2).
    #[serde(default)]
    pub(crate) refer_note: String,
    /// Who signs the decision, when not the ruleset's `claims.decided_by`.
    #[serde(default)]
    pub(crate) decided_by: Option<String>,
    /// The paragraph that gives the one who signs the decision, where it
    /// is not `refer_rule` (HSL SD-ILC, whose (3) is only one option).
    #[serde(default)]
    pub(crate) decided_by_rule: Option<Citation>,
    #[serde(default)]
    pub(crate) deadline_days: Option<u32>,
    #[serde(default)]
    pub(crate) deadline_rule: Option<Citation>,
    /// Both players send their scoresheet and diagram (ECF QPF 13).
    #[serde(default)]
    pub(crate) both_submit: bool,
    #[serde(default)]
    pub(crate) submissions_rule: Option<Citation>,
    #[serde(default)]
    pub(crate) fee: String,
    #[serde(default)]
    pub(crate) fee_payers: FeePayers,
    #[serde(default)]
    pub(crate) fee_rule: Option<Citation>,
}

fn yes() -> bool {
    true
}

/// Which draw claims a ruleset provides. A missing table means the claim
/// does not exist there (`absent_rule` says why).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimRules {
    /// Used by a last-two-minutes claim that does not say whether an arbiter was present.
    #[serde(default)]
    pub(crate) arbiter_by_default: bool,
    /// With no arbiter present: the claim ends the game (FIDE III.6, BCF RP NA-1, ECF QPF 11).
    #[serde(default)]
    pub(crate) last_two_minutes: Option<DrawClaimRules>,
    /// With an arbiter present (FIDE III.5, BCF RP 16).
    #[serde(default)]
    pub(crate) last_two_minutes_arbiter: Option<DrawClaimRules>,
    /// USCF 14H, HSL SD-ILC.
    #[serde(default)]
    pub(crate) insufficient_losing_chances: Option<DrawClaimRules>,
    /// Sabah v.8.
    #[serde(default)]
    pub(crate) clear_draw_appeal: Option<DrawClaimRules>,
    #[serde(default)]
    pub(crate) absent_rule: Option<Citation>,
    /// Who signs a ruling on a claim (the packet's decision box).
    #[serde(default = "arbiter_title")]
    pub(crate) decided_by: String,
    /// The rule that prescribes the final-position diagram (ECF QPF 15), where
    /// the ruleset has one: the packet's diagram is titled after it.
    #[serde(default)]
    pub(crate) diagram_rule: Option<Citation>,
    /// How a claim's stated clocks are held against the scoresheet.
    #[serde(default)]
    pub(crate) evidence: EvidenceRules,
}

/// The numbers the clock evidence is weighed with (`judge::evidence`).
/// Arbiters' practice rather than any one text: a ruleset may change them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EvidenceRules {
    /// Seconds a stated clock may differ from the scoresheet's figure on a
    /// clock that was not running (whole-second records, rounding), besides
    /// the increment.
    #[serde(default = "tolerance_seconds")]
    pub(crate) tolerance_seconds: u32,
    /// Seconds the running clock may have lost since the scoresheet's last
    /// figure before the difference is not believed without a look.
    #[serde(default = "one_move_seconds")]
    pub(crate) one_move_seconds: u32,
}

fn tolerance_seconds() -> u32 {
    2
}

fn one_move_seconds() -> u32 {
    300
}

impl Default for EvidenceRules {
    fn default() -> EvidenceRules {
        EvidenceRules {
            tolerance_seconds: tolerance_seconds(),
            one_move_seconds: one_move_seconds(),
        }
    }
}

impl ClaimRules {
    /// The draw-claim procedures the ruleset has, by their table name.
    pub(crate) fn procedures(&self) -> impl Iterator<Item = (&'static str, &DrawClaimRules)> {
        [
            ("last_two_minutes", &self.last_two_minutes),
            ("last_two_minutes_arbiter", &self.last_two_minutes_arbiter),
            (
                "insufficient_losing_chances",
                &self.insufficient_losing_chances,
            ),
            ("clear_draw_appeal", &self.clear_draw_appeal),
        ]
        .into_iter()
        .filter_map(|(n, c)| c.as_ref().map(|c| (n, c)))
    }
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
            absent_rule: None,
            decided_by: arbiter_title(),
            diagram_rule: None,
            evidence: EvidenceRules::default(),
        }
    }
}

/// The paper a PDF is laid out for: A4, or US Letter where the league
/// prints on it (US Chess events, the US high-school league).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Paper {
    #[default]
    A4,
    Letter,
}

impl Paper {
    /// Width and height in points.
    pub(crate) fn points(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.0, 842.0),
            Paper::Letter => (612.0, 792.0),
        }
    }

    /// Width and height in millimetres, as the PDF's page box gives them.
    pub(crate) fn mm(self) -> (f32, f32) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }
}

/// A ruleset as written in TOML: checked by `Ruleset::from_toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetFile {
    pub(crate) name: String,
    pub(crate) title: String,
    /// The paper its packets and review sheets are printed on, unless
    /// `--paper` says otherwise.
    #[serde(default)]
    pub(crate) paper: Paper,
    /// Used when a game has no usable `TimeControl` tag.
    pub(crate) default_time_control: String,
    pub(crate) default_time_control_rule: Citation,
    /// The controls these rules are for; a game under another gets a note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) controls: Option<control::RawControl>,
    pub(crate) scoring: Scoring,
    pub(crate) board: BoardRules,
    pub(crate) flag: FlagRules,
    pub(crate) both_flags: BothFlagsRules,
    pub(crate) illegal_move: IllegalMoveRules,
    pub(crate) automatic_draws: AutomaticDraws,
    /// Draw claims and appeals; a ruleset without the table has none.
    #[serde(default)]
    pub(crate) claims: ClaimRules,
    /// One-line statements of rules, beside (and over) the shared ones in
    /// `templates/statements.toml`.
    #[serde(default)]
    pub(crate) statements: std::collections::BTreeMap<String, String>,
}

/// What each rule says in one line (`templates/statements.toml`).
static STATEMENTS: std::sync::LazyLock<std::collections::BTreeMap<String, String>> =
    std::sync::LazyLock::new(|| {
        toml::from_str(include_str!("../../templates/statements.toml"))
            .expect("templates/statements.toml")
    });

/// Largest ruleset file read (a ruleset is a page or two of TOML).
const MAX_RULESET_BYTES: u64 = 1 << 20;

/// A validated ruleset: the default time control is parsed.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub(crate) file: RulesetFile,
    pub(crate) default_tc: TimeControl,
    /// `controls`, read, with its citation.
    pub(crate) controls: Option<(control::Control, Citation)>,
    /// The name, shared by every judgement made under it.
    pub(crate) name_shared: std::sync::Arc<str>,
}

impl std::ops::Deref for Ruleset {
    type Target = RulesetFile;
    fn deref(&self) -> &RulesetFile {
        &self.file
    }
}

/// The built-in nearest to a misspelled or wrongly cased name, if one is
/// close enough to be what was meant (`FIDE-RAPID`, `fide-rpaid`).
pub(crate) fn nearest_builtin(name: &str) -> Option<&'static str> {
    crate::model::nearest(name, BUILTINS.iter().map(|(n, _)| *n))
}

/// The built-ins a name could mean by what it says rather than how it is
/// spelt: `fide` is three rulesets, `ddcl` a league with two, `ecf` the
/// Quickplay Finish, `uscf-quick` the US Chess rulebook.
pub(crate) fn meanings(name: &str) -> Vec<&'static str> {
    const WORDS: &[(&str, &[&str])] = &[
        ("fide", &["fide-standard", "fide-rapid", "fide-blitz"]),
        ("standard", &["fide-standard"]),
        ("classical", &["fide-standard"]),
        ("rapid", &["fide-rapid", "bcf-rapid"]),
        ("rapidplay", &["bcf-rapid"]),
        ("blitz", &["fide-blitz"]),
        ("bcf", &["bcf-rapid"]),
        ("ecf", &["ecf-quickplay", "ddcl-cup"]),
        ("qpf", &["ecf-quickplay", "ddcl-cup"]),
        ("quickplay", &["ecf-quickplay", "ddcl-cup"]),
        ("ddcl", &["ecf-quickplay", "ddcl-cup"]),
        ("darlington", &["ecf-quickplay", "ddcl-cup"]),
        ("cup", &["ddcl-cup"]),
        ("sabah", &["sabah-active30"]),
        ("active", &["sabah-active30"]),
        ("active30", &["sabah-active30"]),
        ("uscf", &["uscf"]),
        ("us", &["uscf", "hs-league"]),
        ("hsl", &["hs-league"]),
        ("hs", &["hs-league"]),
        ("school", &["hs-league"]),
        ("highschool", &["hs-league"]),
    ];
    let lower = name.to_ascii_lowercase();
    let mut out: Vec<&'static str> = Vec::new();
    for token in lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
    {
        for (_, names) in WORDS.iter().filter(|(w, _)| *w == token) {
            for n in *names {
                if !out.contains(n) {
                    out.push(n);
                }
            }
        }
    }
    out
}

fn nearest_words(name: &str) -> String {
    // A misspelling of a name it could mean, or of any name where it means
    // none: one answer. Otherwise every ruleset it could mean, a line each.
    let meant = meanings(name);
    if let Some(n) = nearest_builtin(name).filter(|n| meant.is_empty() || meant.contains(n)) {
        return format!("; did you mean {n:?}?");
    }
    if meant.is_empty() {
        return String::new();
    }
    let lines: Vec<String> = meant
        .iter()
        .map(|n| {
            let title = Ruleset::builtin_text(n)
                .and_then(|t| Ruleset::from_toml(n, t).ok())
                .map(|r| r.title.clone())
                .unwrap_or_default();
            format!("\n  {n:<15} {title}")
        })
        .collect();
    let league = match league_name(name) {
        Some(l) => format!("\n({name:?} is also a league: a season file's `rules = {l:?}`; its games are judged under the rulesets above)"),
        None => String::new(),
    };
    format!("; it could mean:{}{league}\n", lines.concat())
}

/// The suggestion and a space before the list of built-ins.
fn spaced(s: &str) -> String {
    if s.ends_with('\n') {
        s.to_string()
    } else {
        format!("{s} ")
    }
}

/// A league name as a season file's `rules` takes it, if `name` is one
/// (its aliases too): the one list `-r`'s hints and the season file read.
pub(crate) fn league_name(name: &str) -> Option<&'static str> {
    match name.to_ascii_lowercase().as_str() {
        "ddcl" | "darlington" => Some("ddcl"),
        "hs-league" | "hsl" | "high-school" => Some("hs-league"),
        _ => None,
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RulesetError {
    #[error("unknown ruleset {0:?}{suggestion}(built-ins: {1})", suggestion = spaced(&nearest_words(.0)))]
    Unknown(String, String),
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("{0}: {1}")]
    Toml(String, String),
    #[error("{0}: default_time_control: {1}")]
    TimeControl(String, String),
    #[error("{0}: {1} is missing: the policy it belongs to is switched on and needs its citation")]
    MissingCitation(String, String),
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
    pub(crate) fn from_toml(origin: &str, text: &str) -> Result<Ruleset, RulesetError> {
        // The path of the offending key goes into the error (`flag.rule`), so
        // a blank citation anywhere is refused with its key named.
        let file: RulesetFile = serde_path_to_error::deserialize(toml::Deserializer::new(text))
            .map_err(|e| {
                let key = e.path().to_string();
                let inner = e.into_inner();
                let msg = inner.message().to_string();
                let line = inner
                    .span()
                    .map(|s| text[..s.start.min(text.len())].lines().count().max(1));
                let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
                if key.is_empty() || key == "." {
                    RulesetError::Toml(origin.to_string(), format!("{msg}{at}"))
                } else {
                    RulesetError::Toml(origin.to_string(), format!("{key}{at}: {msg}"))
                }
            })?;
        let default_tc = TimeControl::parse(&file.default_time_control)
            .map_err(|e| RulesetError::TimeControl(origin.to_string(), e.to_string()))?;
        // Citations that are optional in the file but required by a policy
        // that is switched on.
        let missing = |key: String| RulesetError::MissingCitation(origin.to_string(), key);
        let im = &file.illegal_move;
        if im.loses_under_seconds.is_some() && im.loses_under_rule.is_none() {
            return Err(missing("illegal_move.loses_under_rule".into()));
        }
        if im.after_game == AfterGame::ResultStands && im.after_game_rule.is_none() {
            return Err(missing("illegal_move.after_game_rule".into()));
        }
        let bf = &file.both_flags;
        if bf.first_fell_decides && bf.first_fell_rule.is_none() {
            return Err(missing("both_flags.first_fell_rule".into()));
        }
        for (name, c) in file.claims.procedures() {
            let needs = [
                (c.deadline_days.is_some(), &c.deadline_rule, "deadline_rule"),
                (c.both_submit, &c.submissions_rule, "submissions_rule"),
                (c.fee_payers != FeePayers::None, &c.fee_rule, "fee_rule"),
                (!c.increment_allowed, &c.increment_rule, "increment_rule"),
            ];
            for (used, value, field) in needs {
                if used && value.is_none() {
                    return Err(missing(format!("claims.{name}.{field}")));
                }
            }
        }
        let controls = match &file.controls {
            None => None,
            Some(raw) => {
                let c = raw.control().map_err(|m| {
                    RulesetError::Toml(origin.to_string(), format!("controls: {m}"))
                })?;
                Some((c, raw.rule.clone()))
            }
        };
        let name_shared = std::sync::Arc::from(file.name.as_str());
        Ok(Ruleset {
            file,
            default_tc,
            controls,
            name_shared,
        })
    }

    /// What one rule says, in a line: the ruleset's own statement, else the
    /// shared one. `rule` is one citation (`FIDE 6.9`), not a list.
    pub(crate) fn statement(&self, rule: &str) -> Option<&str> {
        let rule = rule.trim();
        self.statements
            .get(rule)
            .or_else(|| STATEMENTS.get(rule))
            .map(String::as_str)
    }

    /// Each rule of a citation with what it says: `FIDE 6.9: A player who...`.
    pub(crate) fn explain(&self, c: &Citation) -> Vec<(String, String)> {
        c.parts()
            .map(|p| {
                (
                    p.to_string(),
                    self.statement(p)
                        .unwrap_or("(no statement in the ruleset)")
                        .to_string(),
                )
            })
            .collect()
    }

    /// The ruleset's TOML with what each cited rule says beside it, as a
    /// comment (`arbiter rules NAME`): still a file `--rules` reads.
    pub(crate) fn annotated(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() * 2);
        let mut section = String::new();
        for line in text.lines() {
            out.push_str(line);
            let t = line.trim();
            if t.starts_with('[') {
                section = t.trim_matches(['[', ']']).to_string();
            } else if let Some((key, value)) = t.split_once(" = ") {
                let cited = key.ends_with("rule") || (section == "board" && key != "resigned_win");
                if let (true, Some(c)) = (
                    cited,
                    value.strip_prefix('"').and_then(|v| v.strip_suffix('"')),
                ) {
                    if let Some(c) = Citation::new(c) {
                        let said: Vec<String> =
                            self.explain(&c).into_iter().map(|(_, s)| s).collect();
                        out.push_str("  # ");
                        out.push_str(&said.join(" / "));
                    }
                }
            }
            out.push('\n');
        }
        out
    }

    /// A built-in name, or a ruleset file named by another file (a claim, a
    /// season) in `base`, its folder: read under the one containment rule.
    /// A built-in name, or a ruleset file named relative to `file`'s folder
    /// (a rules map's).
    pub(crate) fn load_beside(
        name_or_path: &str,
        file: &std::path::Path,
    ) -> Result<Ruleset, RulesetError> {
        let base = file.parent().unwrap_or(std::path::Path::new("."));
        Ruleset::load_contained(name_or_path, base, true)
    }

    pub(crate) fn load_contained(
        name_or_path: &str,
        base: &std::path::Path,
        allow_outside: bool,
    ) -> Result<Ruleset, RulesetError> {
        if let Some(text) = Ruleset::builtin_text(name_or_path) {
            return Ruleset::from_toml(name_or_path, text);
        }
        if !name_or_path.ends_with(".toml") {
            let names: Vec<&str> = BUILTINS.iter().map(|(n, _)| *n).collect();
            return Err(RulesetError::Unknown(
                name_or_path.to_string(),
                names.join(", "),
            ));
        }
        let path = crate::read::contained::contained(base, name_or_path, allow_outside)
            .map_err(|m| RulesetError::Io(name_or_path.to_string(), std::io::Error::other(m)))?;
        Ruleset::read_file(name_or_path, &path)
    }

    /// The file `load_contained` reads for `name_or_path`; `None` for a
    /// built-in (or a name it would refuse).
    pub(crate) fn file_of(
        name_or_path: &str,
        base: &std::path::Path,
        allow_outside: bool,
    ) -> Option<std::path::PathBuf> {
        if Ruleset::builtin_text(name_or_path).is_some() || !name_or_path.ends_with(".toml") {
            return None;
        }
        crate::read::contained::contained(base, name_or_path, allow_outside).ok()
    }

    /// A ruleset file: a regular file under the size cap, UTF-8, then TOML.
    fn read_file(origin: &str, path: &std::path::Path) -> Result<Ruleset, RulesetError> {
        let io = |m: String| RulesetError::Io(origin.to_string(), std::io::Error::other(m));
        let bytes = crate::read::contained::read_regular(path, MAX_RULESET_BYTES).map_err(io)?;
        let text = crate::read::text::decode(origin, bytes);
        Ruleset::from_toml(origin, &text)
    }

    pub(crate) fn builtin_text(name: &str) -> Option<&'static str> {
        BUILTINS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
    }

    /// A built-in name, or a path to a TOML file.
    pub fn load(name_or_path: &str) -> Result<Ruleset, RulesetError> {
        if let Some(text) = Ruleset::builtin_text(name_or_path) {
            return Ruleset::from_toml(name_or_path, text);
        }
        let path = std::path::Path::new(name_or_path);
        if path.exists() || name_or_path.ends_with(".toml") {
            // A path on the command line: the user's own, but still a
            // regular file of a sensible size (not a FIFO, not /dev/zero).
            return Ruleset::read_file(name_or_path, path);
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
    fn misspelled_and_wrongly_cased_names_suggest_the_builtin() {
        for (typed, meant) in [
            ("FIDE-RAPID", "fide-rapid"),
            ("fide-rpaid", "fide-rapid"),
            ("ecf-quikplay", "ecf-quickplay"),
            ("Sabah-Active30", "sabah-active30"),
        ] {
            let e = Ruleset::load(typed).unwrap_err().to_string();
            assert!(e.contains(&format!("did you mean \"{meant}\"?")), "{e}");
        }
        let e = Ruleset::load("chess960").unwrap_err().to_string();
        assert!(!e.contains("did you mean"), "{e}");
        assert!(e.contains("built-ins: "), "{e}");
    }

    #[test]
    fn names_by_meaning_answer_with_the_rulesets_they_could_mean() {
        for (typed, meant) in [
            ("ecf", vec!["ecf-quickplay", "ddcl-cup"]),
            ("FIDE", vec!["fide-standard", "fide-rapid", "fide-blitz"]),
            ("ddcl", vec!["ecf-quickplay", "ddcl-cup"]),
            ("uscf-quick", vec!["uscf"]),
            ("active-30", vec!["sabah-active30"]),
            ("hs", vec!["hs-league"]),
            ("30", vec![]),
            ("hsl", vec!["hs-league"]),
            ("chess960", vec![]),
        ] {
            assert_eq!(meanings(typed), meant, "{typed}");
        }
        let e = Ruleset::load("ecf").unwrap_err().to_string();
        assert!(
            e.contains(
                "it could mean:\n  ecf-quickplay   DDCL league, ECF Quickplay Finish\n  ddcl-cup"
            ),
            "{e}"
        );
        let e = Ruleset::load("ddcl").unwrap_err().to_string();
        assert!(
            e.contains("is also a league: a season file's `rules = \"ddcl\"`"),
            "{e}"
        );
    }

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
            .replace("\nrule = \"BCF RP 14\"", "\nrule = \"\"");
        let err = Ruleset::from_toml("x", &text).unwrap_err().to_string();
        assert!(err.contains("flag.rule"), "{err}");
    }

    /// Every citation of every built-in, blanked in turn, is refused with
    /// its key named: the check is the type's, not a list kept by hand.
    #[test]
    fn every_blank_citation_is_refused_naming_its_key() {
        let mut tried = 0;
        for (name, text) in BUILTINS {
            let mut section = String::new();
            for (i, line) in text.lines().enumerate() {
                let t = line.trim();
                if t.starts_with('[') {
                    section = t.trim_matches(['[', ']']).to_string();
                    continue;
                }
                let Some((key, value)) = t.split_once(" = ") else {
                    continue;
                };
                let citation = key.ends_with("rule") || section == "board";
                if !citation || !value.starts_with('"') {
                    continue;
                }
                let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
                lines[i] = format!("{key} = \"  \"");
                let err = Ruleset::from_toml(name, &lines.join("\n"))
                    .expect_err(&format!("{name}: {section}.{key} blank was accepted"))
                    .to_string();
                let full = if section.is_empty() {
                    key.to_string()
                } else {
                    format!("{section}.{key}")
                };
                assert!(err.contains(&full), "{name}: {err}");
                assert!(err.contains(&format!("line {}", i + 1)), "{name}: {err}");
                tried += 1;
            }
        }
        assert!(tried > 200, "{tried}");
    }

    #[test]
    fn a_switched_on_policy_needs_its_citation() {
        let text = Ruleset::builtin_text("bcf-rapid")
            .unwrap()
            .replace("loses_under_rule = \"BCF RP 12\"\n", "");
        let err = Ruleset::from_toml("x", &text).unwrap_err().to_string();
        assert!(err.contains("illegal_move.loses_under_rule"), "{err}");
    }

    /// Every `Citation::fixed("...")` the code outside tests writes.
    fn fixed_in_source() -> Vec<String> {
        fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).expect("src").flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    let text = std::fs::read_to_string(&p).expect("source");
                    // The code before its tests.
                    let code = text.split("#[cfg(test)]").next().unwrap_or("");
                    for part in code.split("Citation::fixed(\"").skip(1) {
                        if let Some(end) = part.find('"') {
                            out.push(part[..end].to_string());
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut out,
        );
        out.sort();
        out.dedup();
        assert!(out.iter().any(|c| c == "PGN 8.2.6"), "{out:?}");
        out
    }

    /// Every citation of every built-in, and those the code writes itself,
    /// has its one-line statement.
    #[test]
    fn every_builtin_citation_has_a_statement() {
        let mut missing = Vec::new();
        for (name, text) in BUILTINS {
            let r = Ruleset::from_toml(name, text).unwrap();
            for line in r.annotated(text).lines() {
                if line.contains("(no statement") {
                    missing.push(format!("{name}: {line}"));
                }
            }
            for code in [
                "PGN 8.2",
                "PGN 8.2.3",
                "USCF 14E1",
                "USCF 14E2",
                "USCF 14E3",
            ]
            .into_iter()
            .chain(fixed_in_source().iter().map(String::as_str))
            {
                assert!(r.statement(code).is_some(), "{name}: {code}");
            }
        }
        assert!(missing.is_empty(), "{missing:#?}");
        let fide = Ruleset::load("fide-rapid").unwrap();
        let text = fide.annotated(Ruleset::builtin_text("fide-rapid").unwrap());
        assert!(text.contains(
            "rule = \"FIDE 6.9\"  # A player who does not complete the moves in time loses"
        ));
        // Still a ruleset file.
        assert!(Ruleset::from_toml("x", &text).is_ok());
    }
}
