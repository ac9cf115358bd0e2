//! The checks a secretary makes on a claim, each with its outcome and rule,
//! and the ruling they lead to, with the result either way.

use shakmaty::{fen::Fen, CastlingMode, Chess, Color, Position, Role};

use super::{
    evidence::{gather, Evidence, Row},
    file::{day_number, Claim},
    Check, ClaimKind, Ground, Outcome, Recommendation,
};
use crate::{
    analysis::{
        forced::{forced_win, ForcedWin, Syzygy},
        mate::{
            can_mate, material_answer, material_label, numbered_line, uscf_14e, Mateability,
            Uscf14e,
        },
    },
    model::{Clock, GameResult, Side},
    rules::{BothFlagsPolicy, DrawClaimRules, FeePayers, MateTest, OnReject},
};

/// Moves of each side looked at for ground (b) when the clocks cannot say
/// when the claimant's last two minutes began.
pub const PROGRESS_MOVES: usize = 20;

/// What ground (b) rests on: the moves over the period and what they show.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Which moves were looked at, and why those.
    pub period: String,
    pub rows: Vec<Row>,
    pub captures: usize,
    pub pawn_moves: usize,
    pub checks: usize,
    pub repeats: usize,
    pub king_squares: usize,
    pub opponent_moves: usize,
}

impl Progress {
    /// "in 6 moves: 0 captures, 3 pawn moves, 1 check; 0 repeated positions; king on 3 squares"
    pub fn summary(&self) -> String {
        format!(
            "in {}: {}, {}, {}; {}; king on {}",
            plural(self.opponent_moves, "move"),
            plural(self.captures, "capture"),
            plural(self.pawn_moves, "pawn move"),
            plural(self.checks, "check"),
            plural(self.repeats, "repeated position"),
            plural(self.king_squares, "square")
        )
    }
}

/// A claim judged: the checks, the recommendation and the result either way.
#[derive(Clone, Debug)]
pub struct Ruling {
    pub claim: Claim,
    pub evidence: Evidence,
    pub white: String,
    pub black: String,
    pub checks: Vec<Check>,
    pub recommendation: Recommendation,
    pub result_if_upheld: String,
    pub result_if_rejected: String,
    pub rule: String,
    /// Why, in a sentence or two (the CSV's `detail`).
    pub detail: String,
    /// The position the analysis used, and its FEN.
    pub position: Option<Chess>,
    pub fen: String,
    /// A mating line for the side whose mating chances matter, where one exists.
    pub mate_line: Option<String>,
    pub progress: Option<Progress>,
    /// The clocks at the claim (from the claim, else the scoresheet's last).
    pub clocks: [Option<Clock>; 2],
    /// The ply the packet marks (the illegal move).
    pub marked_ply: Option<usize>,
    /// The draw-claim procedure applied, if the kind is a draw claim the ruleset has.
    pub procedure: Option<DrawClaimRules>,
}

impl Ruling {
    pub fn failed(&self) -> Vec<&'static str> {
        self.checks
            .iter()
            .filter(|c| c.outcome == Outcome::Fail)
            .map(|c| c.name)
            .collect()
    }

    pub fn check(&self, name: &str) -> Option<&Check> {
        self.checks.iter().find(|c| c.name == name)
    }

    pub fn opponent(&self) -> Side {
        self.claim.claimant.other()
    }

    /// Who signs the decision, and under which rule they decide.
    pub fn decided_by(&self) -> String {
        let claims = &self.claim.ruleset.claims;
        match &self.procedure {
            Some(p) => format!(
                "{} ({})",
                p.decided_by.as_deref().unwrap_or(&claims.decided_by),
                p.refer_rule
            ),
            None => claims.decided_by.clone(),
        }
    }

    pub fn name_of(&self, side: Side) -> &str {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }
}

fn check(name: &'static str, outcome: Outcome, rule: &str, detail: impl Into<String>) -> Check {
    Check {
        name,
        outcome,
        rule: rule.to_string(),
        detail: detail.into(),
    }
}

fn side_name(s: Side) -> &'static str {
    s.name()
}

fn win(side: Side) -> String {
    GameResult::win_for(side).as_str().to_string()
}

const DRAW: &str = "1/2-1/2";

/// Judges a claim. `syzygy` settles small positions exactly.
pub fn judge_claim(claim: Claim, syzygy: Option<&Syzygy>) -> Ruling {
    let evidence = gather(&claim);
    let name = |given: &Option<String>, tag: &str, side: Side| {
        given
            .clone()
            .filter(|s| !s.trim().is_empty())
            .or_else(|| Some(tag.trim().to_string()).filter(|t| !t.is_empty() && t != "?"))
            .unwrap_or_else(|| side_name(side).to_string())
    };
    let white = name(&claim.white, &evidence.tags.white, Side::White);
    let black = name(&claim.black, &evidence.tags.black, Side::Black);
    let clocks = [Side::White, Side::Black].map(|s| {
        claim
            .clock(s)
            .or_else(|| evidence.clocks.last(s).map(|(_, c)| c))
    });
    let mut r = Ruling {
        claim,
        evidence,
        white,
        black,
        checks: Vec::new(),
        recommendation: Recommendation::Refer,
        result_if_upheld: String::new(),
        result_if_rejected: String::new(),
        rule: String::new(),
        detail: String::new(),
        position: None,
        fen: String::new(),
        mate_line: None,
        progress: None,
        clocks,
        marked_ply: None,
        procedure: None,
    };
    match r.claim.kind {
        ClaimKind::WinOnTime => judge_win_on_time(&mut r),
        ClaimKind::IllegalMove => judge_illegal_move(&mut r),
        _ => judge_draw_claim(&mut r, syzygy),
    }
    r
}

fn clock_of(r: &Ruling, side: Side) -> Option<Clock> {
    r.clocks[usize::from(side == Side::Black)]
}

/// The scoresheet check and the final-position check; sets the position used.
fn position_checks(r: &mut Ruling, position_rule: &str) {
    let ev = &r.evidence;
    let sheet = match (&ev.problem, &ev.illegal) {
        (Some(p), _) if ev.rows.is_empty() && ev.illegal.is_none() => {
            check("scoresheet", Outcome::Fail, position_rule, p.clone())
        }
        (_, Some(im)) if r.claim.kind != ClaimKind::IllegalMove => check(
            "scoresheet",
            Outcome::Fail,
            position_rule,
            format!(
                "{}{} by {} is illegal; the scoresheet is replayed up to the move before it",
                ev.move_number(im.ply),
                im.san,
                side_name(im.side)
            ),
        ),
        (Some(p), _) => check(
            "scoresheet",
            Outcome::Unknown,
            position_rule,
            format!("{p}; {} moves replayed", ev.rows.len()),
        ),
        (_, Some(im)) => check(
            "scoresheet",
            Outcome::Pass,
            position_rule,
            format!(
                "{}: replayed up to the move claimed, {}{}",
                ev.source,
                ev.move_number(im.ply),
                im.san
            ),
        ),
        _ => check(
            "scoresheet",
            Outcome::Pass,
            position_rule,
            format!(
                "{}: {} moves replayed, all legal",
                ev.source,
                ev.rows.len().div_ceil(2)
            ),
        ),
    };
    let sheet_ok = sheet.outcome != Outcome::Fail;
    r.checks.push(sheet);
    let sheet_fen = r.evidence.fen();
    let claimed = r.claim.final_fen.clone();
    let claimed_pos = claimed.as_deref().and_then(|f| {
        f.parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok())
    });
    let (outcome, detail) = match (&claimed, sheet_ok) {
        (None, true) => (
            Outcome::Unknown,
            "no final position written in the claim; the scoresheet's is used".to_string(),
        ),
        (None, false) => (
            Outcome::Unknown,
            "no final position written and the scoresheet cannot give one".to_string(),
        ),
        (Some(f), false) => (
            Outcome::Unknown,
            format!("the claimant wrote {f}; the scoresheet cannot confirm it"),
        ),
        (Some(f), true) => {
            let same = claimed_pos.as_ref().is_some_and(|p| {
                p.board() == r.evidence.position.board() && p.turn() == r.evidence.position.turn()
            });
            if same {
                (
                    Outcome::Pass,
                    "the position written by the claimant is the scoresheet's last position"
                        .to_string(),
                )
            } else if claimed_pos.is_none() {
                (
                    Outcome::Fail,
                    format!("the written position {f} is not a legal position"),
                )
            } else {
                (
                    Outcome::Fail,
                    format!("the claimant wrote {f} but the scoresheet ends in {sheet_fen}"),
                )
            }
        }
    };
    r.checks
        .push(check("final-position", outcome, position_rule, detail));
    // The scoresheet's position when it stands; else what the claimant wrote.
    let (pos, fen) = if sheet_ok && outcome != Outcome::Fail {
        (Some(r.evidence.position.clone()), sheet_fen)
    } else if let (Some(p), Some(f)) = (claimed_pos, claimed) {
        (Some(p), f)
    } else if sheet_ok {
        (Some(r.evidence.position.clone()), sheet_fen)
    } else {
        (None, String::new())
    };
    r.position = pos;
    r.fen = fen;
}

/// The draw-claim procedure for this claim, and how it was chosen.
fn procedure(r: &Ruling) -> (Option<&DrawClaimRules>, String) {
    let c = &r.claim.ruleset.claims;
    match r.claim.kind {
        ClaimKind::DrawLastTwoMinutes => {
            let arbiter = r.claim.arbiter.unwrap_or(c.arbiter_by_default);
            let table = |present: bool| {
                if present {
                    (&c.last_two_minutes_arbiter, "with an arbiter present")
                } else {
                    (&c.last_two_minutes, "with no arbiter present")
                }
            };
            match (table(arbiter), table(!arbiter)) {
                ((Some(p), how), _) => (Some(p), how.to_string()),
                (_, (Some(p), how)) => (
                    Some(p),
                    format!("{how} (the only procedure the ruleset has)"),
                ),
                _ => (None, String::new()),
            }
        }
        ClaimKind::InsufficientLosingChances => {
            (c.insufficient_losing_chances.as_ref(), String::new())
        }
        ClaimKind::ClearDrawAppeal => (c.clear_draw_appeal.as_ref(), String::new()),
        _ => (None, String::new()),
    }
}

fn judge_draw_claim(r: &mut Ruling, syzygy: Option<&Syzygy>) {
    let claimant = r.claim.claimant;
    let opponent = claimant.other();
    let (proc_rules, how) = procedure(r);
    let Some(p) = proc_rules.cloned() else {
        let absent = r.claim.ruleset.claims.absent_rule.clone();
        let rule = if absent.is_empty() {
            r.claim.ruleset.scoring.rule.clone()
        } else {
            absent
        };
        r.checks.push(check(
            "kind-allowed",
            Outcome::Fail,
            &rule,
            format!("{} has no {} claim", r.claim.ruleset.title, r.claim.kind),
        ));
        position_checks(r, &rule);
        r.recommendation = Recommendation::Reject;
        r.result_if_upheld = "-".into();
        r.result_if_rejected = "no such claim: play continues".into();
        r.rule = rule;
        r.detail = format!(
            "{} does not provide a {} claim",
            r.claim.ruleset.title, r.claim.kind
        );
        return;
    };
    r.checks.push(check(
        "kind-allowed",
        Outcome::Pass,
        &p.window_rule,
        format!("{} provides this claim {how}", r.claim.ruleset.title)
            .trim_end()
            .to_string(),
    ));
    r.procedure = Some(p.clone());
    position_checks(r, &p.position_rule);
    procedural_checks(r, &p);

    // The grounds: (a) can the opponent win by normal means, (b) effort.
    let grounds: Vec<Ground> = if r.claim.kind == ClaimKind::DrawLastTwoMinutes {
        r.claim.grounds.clone()
    } else {
        vec![Ground::CannotWin]
    };
    let mut ground_outcomes = Vec::new();
    let mut clearly_winning = false;
    if let Some(pos) = r.position.clone() {
        let (mut a, winning) = normal_means(r, &pos, opponent, &p, syzygy);
        clearly_winning = winning;
        if grounds.contains(&Ground::CannotWin) {
            ground_outcomes.push(a.outcome);
        } else {
            a.outcome = Outcome::NotApplicable;
            a.detail = format!("ground (a) not claimed; for the record: {}", a.detail);
        }
        r.checks.push(a);
        if grounds.contains(&Ground::NoEffort) {
            let (c, progress) = no_effort(r, &p);
            ground_outcomes.push(c.outcome);
            r.checks.push(c);
            r.progress = Some(progress);
        }
    } else {
        r.checks.push(check(
            "normal-means",
            Outcome::Unknown,
            &p.normal_means_rule,
            "no position to analyse",
        ));
        ground_outcomes.push(Outcome::Unknown);
    }

    // The results either way.
    r.result_if_upheld = DRAW.into();
    r.result_if_rejected = rejected_result(r, &p, clearly_winning);

    let failed = |names: &[&str]| {
        r.checks
            .iter()
            .find(|c| names.contains(&c.name) && c.outcome == Outcome::Fail)
            .cloned()
    };
    let procedural = failed(&[
        "clock-window",
        "on-move",
        "increment",
        "deadline",
        "submissions",
        "fees",
    ]);
    let evidential = failed(&["scoresheet", "final-position"]);
    let window_unknown = r
        .check("clock-window")
        .is_some_and(|c| c.outcome == Outcome::Unknown);
    if let Some(c) = procedural {
        r.recommendation = Recommendation::Reject;
        r.rule = c.rule.clone();
        r.detail = format!("the claim is not in order: {}", c.detail);
    } else if let Some(c) = evidential {
        r.recommendation = Recommendation::Refer;
        r.rule = p.refer_rule.clone();
        r.detail = format!("the evidence conflicts: {}", c.detail);
    } else if ground_outcomes.contains(&Outcome::Pass) && !window_unknown {
        let ground = r
            .checks
            .iter()
            .find(|c| matches!(c.name, "normal-means" | "no-effort") && c.outcome == Outcome::Pass)
            .cloned();
        r.recommendation = Recommendation::Uphold;
        r.rule = match &ground {
            Some(g) if g.rule != p.upheld_rule => format!("{}, {}", p.upheld_rule, g.rule),
            _ => p.upheld_rule.clone(),
        };
        r.detail = ground.map_or_else(String::new, |g| g.detail);
    } else if ground_outcomes.contains(&Outcome::Unknown) || window_unknown {
        r.recommendation = Recommendation::Refer;
        r.rule = p.refer_rule.clone();
        r.detail = r
            .checks
            .iter()
            .find(|c| c.outcome == Outcome::Unknown && c.name != "final-position")
            .map_or_else(String::new, |c| format!("needs a judgement: {}", c.detail));
        if !p.refer_note.is_empty() {
            r.detail = format!("{}; {}", r.detail, p.refer_note);
        }
    } else {
        r.recommendation = Recommendation::Reject;
        r.rule = p.reject_rule.clone();
        r.detail = r
            .checks
            .iter()
            .filter(|c| {
                matches!(c.name, "normal-means" | "no-effort")
                    && c.outcome != Outcome::NotApplicable
            })
            .map(|c| c.detail.clone())
            .collect::<Vec<_>>()
            .join("; ");
    }
}

fn procedural_checks(r: &mut Ruling, p: &DrawClaimRules) {
    let claimant = r.claim.claimant;
    let clock = clock_of(r, claimant);
    let who = side_name(claimant);
    r.checks.push(match (p.window_seconds, clock) {
        (None, _) => check(
            "clock-window",
            Outcome::NotApplicable,
            &p.window_rule,
            "the claim may be made at any time",
        ),
        (Some(_), None) => check(
            "clock-window",
            Outcome::Unknown,
            &p.window_rule,
            format!("{who}'s clock at the claim is not known"),
        ),
        (Some(_), Some(c)) if c.is_zero() => check(
            "clock-window",
            Outcome::Fail,
            &p.window_rule,
            format!("{who}'s flag was already down ({c}): the claim comes too late"),
        ),
        (Some(w), Some(c)) => {
            let limit = Clock::secs(w);
            let inside = if p.window_inclusive {
                c.tenths <= limit.tenths
            } else {
                c.tenths < limit.tenths
            };
            let bound = if p.window_inclusive {
                "at most"
            } else {
                "under"
            };
            check(
                "clock-window",
                if inside { Outcome::Pass } else { Outcome::Fail },
                &p.window_rule,
                if inside {
                    format!("{who} had {c} left: {bound} {} with the flag up", mmss(w))
                } else {
                    format!("{who} had {c} left: not {bound} {}", mmss(w))
                },
            )
        }
    });
    if p.on_move {
        r.checks.push(match &r.position {
            Some(pos) => {
                let to_move = Side::from(pos.turn());
                check(
                    "on-move",
                    if to_move == claimant {
                        Outcome::Pass
                    } else {
                        Outcome::Fail
                    },
                    &p.window_rule,
                    if to_move == claimant {
                        format!("{who} was on move, with the clock running")
                    } else {
                        format!(
                            "{who} was not on move: the final position has {} to move",
                            side_name(to_move)
                        )
                    },
                )
            }
            None => check(
                "on-move",
                Outcome::Unknown,
                &p.window_rule,
                "no final position",
            ),
        });
    }
    if !p.increment_allowed {
        let tc = &r.evidence.time_control;
        r.checks.push(if tc.has_increment() {
            check(
                "increment",
                Outcome::Fail,
                &p.increment_rule,
                format!("the time control {tc} has an increment"),
            )
        } else {
            check(
                "increment",
                Outcome::Pass,
                &p.increment_rule,
                format!("no increment ({tc})"),
            )
        });
    }
    if let Some(days) = p.deadline_days {
        r.checks.push(match (r.claim.date, r.claim.received) {
            (Some(d), Some(rec)) => {
                let took = day_number(rec) - day_number(d);
                check(
                    "deadline",
                    if took <= i64::from(days) {
                        Outcome::Pass
                    } else {
                        Outcome::Fail
                    },
                    &p.deadline_rule,
                    format!("received {rec}, {took} days after the match on {d} (limit {days})"),
                )
            }
            _ => check(
                "deadline",
                Outcome::Unknown,
                &p.deadline_rule,
                format!("the date of play or of receipt is not given (limit {days} days)"),
            ),
        });
    }
    if p.both_submit {
        let given = &r.claim.submitted_by;
        let missing: Vec<&str> = [Side::White, Side::Black]
            .into_iter()
            .filter(|s| !given.contains(s))
            .map(side_name)
            .collect();
        r.checks.push(if given.is_empty() {
            check(
                "submissions",
                Outcome::Unknown,
                &p.submissions_rule,
                "not stated who submitted",
            )
        } else if missing.is_empty() {
            check(
                "submissions",
                Outcome::Pass,
                &p.submissions_rule,
                "both players submitted scoresheet, diagram and clock times",
            )
        } else {
            check(
                "submissions",
                Outcome::Fail,
                &p.submissions_rule,
                format!("no submission from {}", missing.join(" or ")),
            )
        });
    }
    if p.fee_payers != FeePayers::None {
        let paid = &r.claim.fees_paid;
        let owed: Vec<Side> = match p.fee_payers {
            FeePayers::Both => vec![Side::White, Side::Black],
            _ => vec![claimant],
        };
        let unpaid: Vec<&str> = owed
            .iter()
            .filter(|s| !paid.contains(s))
            .map(|s| side_name(*s))
            .collect();
        let fee = if p.fee.is_empty() {
            "the fee".to_string()
        } else {
            format!("the fee ({})", p.fee)
        };
        r.checks.push(if paid.is_empty() {
            check(
                "fees",
                Outcome::Unknown,
                &p.fee_rule,
                format!("not stated whether {fee} was paid"),
            )
        } else if unpaid.is_empty() {
            check("fees", Outcome::Pass, &p.fee_rule, format!("{fee} paid"))
        } else {
            check(
                "fees",
                Outcome::Fail,
                &p.fee_rule,
                format!("{fee} not paid by {}", unpaid.join(" or ")),
            )
        });
    }
}

fn mmss(secs: u32) -> String {
    format!("{}:{:02}", secs / 60, secs % 60)
}

fn count(pos: &Chess, side: Side, role: Role) -> usize {
    let b = pos.board();
    (b.by_color(Color::from(side)) & b.by_role(role)).count()
}

/// Ground (a): can `opponent` win by normal means? The check, and whether
/// the opponent is plainly winning (for a frivolous appeal).
fn normal_means(
    r: &mut Ruling,
    pos: &Chess,
    opponent: Side,
    p: &DrawClaimRules,
    syzygy: Option<&Syzygy>,
) -> (Check, bool) {
    let who = side_name(opponent);
    let (outcome, detail) = normal_means_finding(r, pos, opponent, syzygy);
    let winning = outcome == Outcome::Fail;
    let detail =
        match outcome {
            Outcome::Unknown => {
                format!(
            "{detail}: whether {who} can win by normal means needs an arbiter's judgement{}",
            if syzygy.is_none() { " (no tablebase given)" } else { "" }
        )
            }
            _ => detail,
        };
    (
        check("normal-means", outcome, &p.normal_means_rule, detail),
        winning,
    )
}

/// The evidence on ground (a), strongest first: no mate at all, the
/// tablebase, known drawn or won material, a forced mate found.
fn normal_means_finding(
    r: &mut Ruling,
    pos: &Chess,
    opponent: Side,
    syzygy: Option<&Syzygy>,
) -> (Outcome, String) {
    let who = side_name(opponent);
    let mate = can_mate(pos, opponent);
    match mate.verdict {
        Mateability::Unwinnable => {
            return (
                Outcome::Pass,
                format!(
                    "{who} cannot checkmate by any series of legal moves ({}), so cannot win by normal means",
                    mate.method
                ),
            )
        }
        Mateability::Winnable if !mate.line.is_empty() => {
            r.mate_line = Some(mate_line(pos, who, "could still mate", &mate.line));
        }
        _ => {}
    }
    let matter = format!(
        "{} v {}",
        material_label(pos, opponent),
        material_label(pos, opponent.other())
    );
    match syzygy.map(|tb| forced_win(pos, opponent, Some(tb))) {
        Some(ForcedWin::No(how)) => return (Outcome::Pass, format!("{matter}: {how} for {who}")),
        Some(ForcedWin::Yes(how)) if how.contains("tablebase") => {
            return (Outcome::Fail, format!("{matter}: {how} for {who}"))
        }
        _ => {}
    }
    if let Some(why) = known_draw(pos, opponent) {
        return (Outcome::Pass, format!("{matter}: {why}"));
    }
    if let Some(why) = known_win(pos, opponent) {
        return (Outcome::Fail, format!("{matter}: {why}"));
    }
    if let ForcedWin::Yes(how) = forced_win(pos, opponent, None) {
        return (Outcome::Fail, format!("{matter}: {how} for {who}"));
    }
    (Outcome::Unknown, matter)
}

/// Material the opponent cannot beat by normal means, pawnless.
fn known_draw(pos: &Chess, opponent: Side) -> Option<String> {
    let me = opponent.other();
    if count(pos, opponent, Role::Pawn) + count(pos, me, Role::Pawn) > 0 {
        return None;
    }
    let pieces = |s: Side| -> [usize; 4] {
        [Role::Queen, Role::Rook, Role::Bishop, Role::Knight].map(|r| count(pos, s, r))
    };
    let (o, m) = (pieces(opponent), pieces(me));
    let total = |x: [usize; 4]| x.iter().sum::<usize>();
    let minors = |x: [usize; 4]| x[0] + x[1] == 0;
    if total(o) == 0 {
        return Some("a lone king cannot win".into());
    }
    if minors(o) && (total(o) == 1 || (o[3] == 2 && o[2] == 0)) {
        return Some("a single minor piece, or two knights, cannot force mate".into());
    }
    if total(o) == 1 && total(m) == 1 {
        let same = o == m;
        let minor_v_minor = minors(o) && minors(m);
        let rook_v_minor = o[1] == 1 && minors(m);
        if same || minor_v_minor || rook_v_minor {
            return Some("known drawn material: a win by normal means cannot be expected".into());
        }
    }
    None
}

/// Material that wins against a bare king by technique anyone is expected to know.
fn known_win(pos: &Chess, opponent: Side) -> Option<String> {
    let me = opponent.other();
    let bare = pos.board().by_color(Color::from(me)).count() == 1;
    if !bare {
        return None;
    }
    let (q, rk, b, n) = (
        count(pos, opponent, Role::Queen),
        count(pos, opponent, Role::Rook),
        count(pos, opponent, Role::Bishop),
        count(pos, opponent, Role::Knight),
    );
    (q + rk > 0 || b >= 2 || (b >= 1 && n >= 1))
        .then(|| "a standard mate against a bare king: a win by normal means".into())
}

/// Ground (b): what the opponent did over the claimant's last minutes.
fn no_effort(r: &Ruling, p: &DrawClaimRules) -> (Check, Progress) {
    let claimant = r.claim.claimant;
    let opponent = claimant.other();
    let rows = &r.evidence.rows;
    let window = Clock::secs(p.window_seconds.unwrap_or(120));
    // The claimant's last stretch under the window, when the clocks show it.
    let mut from = None;
    for row in rows.iter().rev() {
        if row.side != claimant {
            continue;
        }
        match row.clock {
            Some(c) if c.tenths < window.tenths => from = Some(row.ply),
            _ => break,
        }
    }
    let (start, period) = match from {
        Some(ply) if rows.iter().any(|x| x.ply >= ply && x.side == opponent) => (
            ply,
            format!(
                "from {}{}, when {}'s clock went under {}",
                r.evidence.move_number(ply),
                rows[ply - 1].san,
                side_name(claimant),
                mmss(window.tenths / 10)
            ),
        ),
        _ => {
            let n = PROGRESS_MOVES * 2;
            let ply = rows.len().saturating_sub(n) + 1;
            (ply, format!("the last {PROGRESS_MOVES} moves (the clocks do not show when the last two minutes began)"))
        }
    };
    let period_rows: Vec<Row> = rows.iter().filter(|x| x.ply >= start).cloned().collect();
    let theirs: Vec<&Row> = period_rows.iter().filter(|x| x.side == opponent).collect();
    let mut squares: Vec<_> = theirs.iter().filter_map(|x| x.king_to).collect();
    squares.sort_unstable();
    squares.dedup();
    let pr = Progress {
        period,
        captures: theirs.iter().filter(|x| x.capture).count(),
        pawn_moves: theirs.iter().filter(|x| x.pawn).count(),
        checks: theirs.iter().filter(|x| x.check).count(),
        repeats: period_rows.iter().filter(|x| x.occurrence >= 2).count(),
        king_squares: squares.len(),
        opponent_moves: theirs.len(),
        rows: period_rows,
    };
    let who = side_name(opponent);
    let summary = format!("{who} {}", pr.summary());
    let c = if pr.opponent_moves == 0 {
        check(
            "no-effort",
            Outcome::Unknown,
            &p.no_effort_rule,
            "no moves by the opponent to judge",
        )
    } else if pr.captures + pr.pawn_moves > 0 {
        check(
            "no-effort",
            Outcome::Fail,
            &p.no_effort_rule,
            format!("{who} was making progress: {summary}"),
        )
    } else if pr.repeats >= 2 && pr.checks == 0 {
        check(
            "no-effort",
            Outcome::Pass,
            &p.no_effort_rule,
            format!("{who} made no effort to win: {summary}"),
        )
    } else {
        check(
            "no-effort",
            Outcome::Fail,
            &p.doubt_rule,
            format!("mixed evidence, the benefit of the doubt goes to the opponent of the claimant: {summary}"),
        )
    };
    (c, pr)
}

/// Plies of a helpmate line worth printing: beyond that it only shows that
/// a mate exists, which the finding already says.
const SHOWN_LINE_PLIES: usize = 16;

fn mate_line(pos: &Chess, who: &str, verb: &str, line: &[String]) -> String {
    if line.len() <= SHOWN_LINE_PLIES {
        format!("{who} {verb}, for example {}", numbered_line(pos, line))
    } else {
        format!(
            "{who} {verb}: a helpmate of {} moves was found (not printed)",
            line.len().div_ceil(2)
        )
    }
}

pub fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn rejected_result(r: &Ruling, p: &DrawClaimRules, clearly_winning: bool) -> String {
    let claimant = r.claim.claimant;
    let opponent = claimant.other();
    let base = match p.on_reject {
        OnReject::ClaimantLoses => win(opponent),
        OnReject::ArbiterDecides => "the designated arbiter decides the result".into(),
        OnReject::PlayContinues => "play continues, no penalty".into(),
        OnReject::OpponentTime => match clock_of(r, opponent) {
            Some(c) => format!(
                "play continues; {} +{} ({} to {})",
                side_name(opponent),
                mmss(p.penalty_seconds),
                c,
                Clock::secs(c.tenths / 10 + p.penalty_seconds)
            ),
            None => format!(
                "play continues; {} +{}",
                side_name(opponent),
                mmss(p.penalty_seconds)
            ),
        },
        OnReject::ClaimantTime => {
            match clock_of(r, claimant) {
                Some(c) => {
                    let (t, pen, keep) = (c.tenths / 10, p.penalty_seconds, p.keep_seconds);
                    let new = penalised(t, pen, keep);
                    let mut s = format!(
                        "play continues; {}'s clock {} to {}",
                        side_name(claimant),
                        Clock::secs(t),
                        Clock::secs(new)
                    );
                    if new == 0 {
                        s.push_str(" (the flag is down at the restart; it falls when the opponent claims it)");
                    }
                    s
                }
                None => format!(
                    "play continues; {} -{}",
                    side_name(claimant),
                    mmss(p.penalty_seconds)
                ),
            }
        }
    };
    if clearly_winning && !p.frivolous_rule.is_empty() {
        format!(
            "{base}; or {} if the appeal is frivolous ({})",
            win(opponent),
            p.frivolous_rule
        )
    } else {
        base
    }
}

/// A time penalty that leaves at least `keep` seconds and never adds time
/// (Sabah v.8(b); with `keep` 0, HSL SD-ILC (2)).
pub fn penalised(t: u32, penalty: u32, keep: u32) -> u32 {
    if t >= keep + penalty {
        t - penalty
    } else if t >= keep {
        keep
    } else {
        t
    }
}

fn mate_test(r: &mut Ruling, pos: &Chess, side: Side) -> (Outcome, String) {
    let rules = &r.claim.ruleset;
    let who = side_name(side);
    match rules.flag.test {
        MateTest::Uscf14e => match uscf_14e(pos, side.other(), None) {
            Uscf14e::Win(why) => (Outcome::Pass, format!("{who} keeps the win: {why}")),
            Uscf14e::Draw(par, why) => (Outcome::Fail, format!("USCF {par}: {why}")),
            Uscf14e::Review(par, why) => (Outcome::Unknown, format!("USCF {par}: {why}")),
        },
        test => {
            let a = if test == MateTest::Material {
                material_answer(pos, side)
            } else {
                can_mate(pos, side)
            };
            match a.verdict {
                Mateability::Winnable => {
                    if !a.line.is_empty() {
                        r.mate_line = Some(mate_line(pos, who, "can mate", &a.line));
                    }
                    (
                        Outcome::Pass,
                        format!(
                            "{who} can checkmate by a series of legal moves ({})",
                            a.method
                        ),
                    )
                }
                Mateability::Unwinnable => (
                    Outcome::Fail,
                    format!(
                        "{who} ({}) cannot checkmate by any series of legal moves ({})",
                        material_label(pos, side),
                        a.method
                    ),
                ),
                Mateability::Undetermined => (
                    Outcome::Unknown,
                    format!("whether {who} can mate is undetermined ({})", a.method),
                ),
            }
        }
    }
}

fn judge_win_on_time(r: &mut Ruling) {
    let rules = r.claim.ruleset.clone();
    let claimant = r.claim.claimant;
    let opponent = claimant.other();
    r.checks.push(check(
        "kind-allowed",
        Outcome::Pass,
        &rules.flag.rule,
        format!(
            "a player may claim a win when the opponent's flag falls ({})",
            rules.flag.callers_rule
        ),
    ));
    position_checks(r, &rules.flag.rule);
    let own = clock_of(r, claimant);
    let theirs = clock_of(r, opponent);
    let (cw, ow) = (side_name(claimant), side_name(opponent));
    r.checks.push(match own {
        Some(c) if c.is_zero() => check(
            "claimant-flag-up",
            Outcome::Fail,
            &rules.flag.rule,
            format!("{cw}'s own flag is down too ({c})"),
        ),
        Some(c) => check(
            "claimant-flag-up",
            Outcome::Pass,
            &rules.flag.rule,
            format!("{cw}'s flag is up ({c})"),
        ),
        None => check(
            "claimant-flag-up",
            Outcome::Unknown,
            &rules.flag.rule,
            format!("{cw}'s clock is not known"),
        ),
    });
    r.checks.push(match theirs {
        Some(c) if c.is_zero() => check(
            "opponent-flag-down",
            Outcome::Pass,
            &rules.flag.rule,
            format!("{ow}'s flag is down ({c})"),
        ),
        Some(c) => check(
            "opponent-flag-down",
            Outcome::Fail,
            &rules.flag.rule,
            format!("{ow}'s flag is not down ({c} left)"),
        ),
        None => check(
            "opponent-flag-down",
            Outcome::Unknown,
            &rules.flag.rule,
            format!("{ow}'s clock is not known"),
        ),
    });
    let both_down = own.is_some_and(Clock::is_zero) && theirs.is_some_and(Clock::is_zero);
    if both_down {
        // Which period the game was in decides under FIDE III.3.1; the
        // quickplay rules draw it regardless.
        let n = (r.evidence.moves_by(opponent) + 1) as u32;
        let tc = &r.evidence.time_control;
        let (policy, rule) = if tc.has_increment() {
            (
                rules.both_flags.with_increment,
                rules.both_flags.with_increment_rule.clone(),
            )
        } else if tc.is_final_period(n) || !tc.is_timed() {
            (
                rules.both_flags.final_period,
                rules.both_flags.final_rule.clone(),
            )
        } else {
            (
                rules.both_flags.earlier_period,
                rules.both_flags.earlier_rule.clone(),
            )
        };
        r.checks.push(check(
            "both-flags-down",
            Outcome::Fail,
            &rule,
            "both flags are down: no win on time can be claimed",
        ));
        r.result_if_upheld = win(claimant);
        match policy {
            BothFlagsPolicy::Draw => {
                r.recommendation = Recommendation::Reject;
                r.result_if_rejected = DRAW.into();
                r.detail = format!("both flags are down: the game is drawn ({rule})");
            }
            BothFlagsPolicy::Continue => {
                r.recommendation = Recommendation::Reject;
                r.result_if_rejected =
                    "play continues (both flags down before the last period)".into();
                r.detail =
                    format!("both flags fell before the last period: play continues ({rule})");
            }
            BothFlagsPolicy::Review => {
                r.recommendation = Recommendation::Refer;
                r.result_if_rejected = DRAW.into();
                r.detail =
                    format!("both flags fell before the last period: an arbiter decides ({rule})");
            }
        }
        r.rule = rule;
        return;
    }
    r.result_if_upheld = win(claimant);
    r.result_if_rejected = "play continues".into();
    let pos = r.position.clone();
    let mate = pos.as_ref().map(|p| mate_test(r, p, claimant));
    if let Some((o, d)) = &mate {
        let rule = if *o == Outcome::Fail {
            &rules.flag.cannot_mate_rule
        } else {
            &rules.flag.rule
        };
        r.checks
            .push(check("claimant-can-mate", *o, rule, d.clone()));
    }
    let get = |r: &Ruling, n: &str| r.check(n).map(|c| c.outcome);
    if get(r, "claimant-flag-up") == Some(Outcome::Fail) {
        r.recommendation = Recommendation::Reject;
        r.rule = rules.flag.rule.clone();
        r.detail = format!("{cw}'s own flag is down: no claim");
        return;
    }
    if get(r, "opponent-flag-down") == Some(Outcome::Fail) {
        r.recommendation = Recommendation::Reject;
        r.rule = rules.flag.rule.clone();
        r.detail = format!("{ow}'s flag had not fallen");
        return;
    }
    if [get(r, "claimant-flag-up"), get(r, "opponent-flag-down")].contains(&Some(Outcome::Unknown))
    {
        r.recommendation = Recommendation::Refer;
        r.rule = rules.flag.rule.clone();
        r.detail = "the clocks at the claim are not known".into();
        return;
    }
    match mate {
        Some((Outcome::Pass, d)) => {
            r.recommendation = Recommendation::Uphold;
            r.rule = rules.flag.rule.clone();
            r.detail = format!("{ow}'s flag fell with {cw}'s up; {d}");
        }
        Some((Outcome::Fail, d)) => {
            r.recommendation = Recommendation::Reject;
            r.result_if_rejected = DRAW.into();
            r.rule = rules.flag.cannot_mate_rule.clone();
            r.detail = format!("{ow}'s flag fell but {d}: drawn");
        }
        _ => {
            r.recommendation = Recommendation::Refer;
            r.rule = rules.flag.rule.clone();
            r.detail = "whether the claimant can mate is not settled".into();
        }
    }
}

fn judge_illegal_move(r: &mut Ruling) {
    let rules = r.claim.ruleset.clone();
    let im_rules = &rules.illegal_move;
    let claimant = r.claim.claimant;
    let offender = claimant.other();
    let (cw, ow) = (side_name(claimant), side_name(offender));
    r.checks.push(check(
        "kind-allowed",
        Outcome::Pass,
        &im_rules.reinstate_rule,
        "a completed illegal move may be claimed by the opponent",
    ));
    position_checks(r, &im_rules.reinstate_rule);
    r.result_if_rejected = "play continues; the move stands".into();
    let Some(im) = r.evidence.illegal.clone() else {
        r.checks.push(check(
            "illegal-move-found",
            if r.evidence.rows.is_empty() {
                Outcome::Unknown
            } else {
                Outcome::Fail
            },
            &im_rules.reinstate_rule,
            if r.evidence.rows.is_empty() {
                "no moves to check".to_string()
            } else {
                "every move on the scoresheet is legal".to_string()
            },
        ));
        r.recommendation = if r.evidence.rows.is_empty() {
            Recommendation::Refer
        } else {
            Recommendation::Reject
        };
        r.rule = im_rules.reinstate_rule.clone();
        r.result_if_upheld = "-".into();
        r.detail = "the scoresheet shows no illegal move".into();
        return;
    };
    r.marked_ply = Some(im.ply);
    let named = format!("{}{}", r.evidence.move_number(im.ply), im.san);
    // The position before the illegal move is the one reinstated (FIDE 7.5.1).
    r.position = Some(r.evidence.position.clone());
    r.fen = r.evidence.fen();
    if im.side != offender {
        r.checks.push(check(
            "illegal-move-found",
            Outcome::Fail,
            &im_rules.reinstate_rule,
            format!("{named} is illegal but was played by the claimant, {cw}"),
        ));
        r.recommendation = Recommendation::Reject;
        r.rule = im_rules.reinstate_rule.clone();
        r.result_if_upheld = "-".into();
        r.detail = format!("the illegal move {named} is the claimant's own");
        return;
    }
    r.checks.push(check(
        "illegal-move-found",
        Outcome::Pass,
        &im_rules.reinstate_rule,
        format!(
            "{named} by {ow} is illegal{}",
            if im.as_moved.is_some() {
                " (the man moved as it may, but the move is not legal here)"
            } else {
                ""
            }
        ),
    ));
    if im.replies > 0 {
        let stands = im_rules.stands_after_reply;
        r.checks.push(check(
            "claimed-in-time",
            if stands { Outcome::Fail } else { Outcome::Pass },
            &im_rules.stands_rule,
            if stands {
                format!(
                    "{} more moves were played after {named}: the move stands, no penalty",
                    im.replies
                )
            } else {
                format!(
                    "found {} moves later, still during the game: the position is reinstated",
                    im.replies
                )
            },
        ));
        if stands {
            r.recommendation = Recommendation::Reject;
            r.rule = im_rules.stands_rule.clone();
            r.result_if_upheld = "-".into();
            r.detail = format!("{named} was not claimed before the reply: it stands");
            return;
        }
    } else {
        r.checks.push(check(
            "claimed-in-time",
            Outcome::Pass,
            &im_rules.stands_rule,
            format!("claimed before {cw} replied"),
        ));
    }
    // Does it lose? BCF RP 12 (either clock under the limit), the first-loses
    // practice, or a second illegal move (FIDE 7.5.5).
    let mut loses: Option<(String, String)> = None;
    if let Some(limit) = im_rules.loses_under_seconds {
        let (w, b) = (r.clocks[0], r.clocks[1]);
        let under: Vec<String> = [(Side::White, w), (Side::Black, b)]
            .into_iter()
            .filter_map(|(s, c)| {
                c.filter(|c| c.tenths < limit * 10)
                    .map(|c| format!("{} {c}", side_name(s)))
            })
            .collect();
        let known = w.is_some() && b.is_some();
        let c = if !under.is_empty() {
            check(
                "clock-limit",
                Outcome::Pass,
                &im_rules.loses_under_rule,
                format!(
                    "{} under {}: the illegal move loses",
                    under.join(", "),
                    mmss(limit)
                ),
            )
        } else if known {
            check(
                "clock-limit",
                Outcome::Fail,
                &im_rules.loses_under_rule,
                format!("both players had {} or more", mmss(limit)),
            )
        } else {
            check(
                "clock-limit",
                Outcome::Unknown,
                &im_rules.loses_under_rule,
                "the clocks at the claim are not known",
            )
        };
        if c.outcome == Outcome::Pass {
            loses = Some((im_rules.loses_under_rule.clone(), c.detail.clone()));
        }
        r.checks.push(c);
    }
    if loses.is_none() && im_rules.first_loses {
        loses = Some((
            im_rules.penalty_rule.clone(),
            "an illegal move loses on a claim".into(),
        ));
    }
    if loses.is_none() && r.claim.previous_illegal > 0 {
        let c = check(
            "second-illegal",
            if im_rules.second_loses {
                Outcome::Pass
            } else {
                Outcome::NotApplicable
            },
            &im_rules.second_rule,
            format!(
                "{ow} had already completed {} illegal move(s) this game",
                r.claim.previous_illegal
            ),
        );
        if im_rules.second_loses {
            loses = Some((im_rules.second_rule.clone(), c.detail.clone()));
        }
        r.checks.push(c);
    }
    r.recommendation = Recommendation::Uphold;
    match loses {
        Some((rule, why)) => {
            let pos = r.evidence.position.clone();
            let (o, d) = mate_test(r, &pos, claimant);
            r.checks.push(check(
                "claimant-can-mate",
                o,
                &im_rules.second_rule,
                d.clone(),
            ));
            match o {
                Outcome::Fail => {
                    r.result_if_upheld = DRAW.into();
                    r.rule = format!("{rule}, {}", im_rules.second_rule);
                    r.detail = format!("{named} is illegal and {why}, but {d}: drawn");
                }
                Outcome::Unknown => {
                    r.recommendation = Recommendation::Refer;
                    r.result_if_upheld = win(claimant);
                    r.rule = rule;
                    r.detail = format!("{named} is illegal and {why}; {d}");
                }
                _ => {
                    r.result_if_upheld = win(claimant);
                    r.rule = rule;
                    r.detail = format!("{named} is illegal and {why}");
                }
            }
        }
        None => {
            let pen = im_rules.penalty_seconds;
            let clock = clock_of(r, claimant)
                .map(|c| format!(" ({} to {})", c, Clock::secs(c.tenths / 10 + pen)))
                .unwrap_or_default();
            r.result_if_upheld = format!(
                "play continues from the position before {named}; {cw} +{}{clock}",
                mmss(pen)
            );
            r.rule = format!("{}, {}", im_rules.reinstate_rule, im_rules.penalty_rule);
            r.detail = format!(
                "{named} is illegal: the position before it is reinstated and {cw} gets {}",
                mmss(pen)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sabah_penalty_arithmetic() {
        // Sabah v.8(b): t-5:00 from 7:00 up, 2:00 between 2:00 and 7:00, never an increase.
        assert_eq!(penalised(600, 300, 120), 300);
        assert_eq!(penalised(420, 300, 120), 120);
        assert_eq!(penalised(419, 300, 120), 120);
        assert_eq!(penalised(120, 300, 120), 120);
        assert_eq!(penalised(100, 300, 120), 100);
        // HSL SD-ILC (2): a minute off, down to zero.
        assert_eq!(penalised(200, 60, 0), 140);
        assert_eq!(penalised(40, 60, 0), 0);
    }
}
