//! Judging a claim: the checks a secretary makes, each with its outcome and
//! rule, and the ruling they lead to, with the result either way. One file
//! per kind of claim; every rule decision is asked of `judge::policy`.

mod draw;
mod illegal_move;
mod procedure;
mod win_on_time;

use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

use super::evidence::{self, StatedClock};
use crate::{
    analysis::{forced::Syzygy, mate::numbered_line},
    citation::Citation,
    claim::{
        file::Scoresheet, plural, Check, CheckClass, CheckId, CheckOutcome, Claim, ClaimKind,
        Progress, Recommendation, Ruling,
    },
    model::{Clock, GameResult, Side},
    replay::record::{self, Record},
    rules::DrawClaimRules,
};

fn check(id: CheckId, outcome: CheckOutcome, rule: &Citation, detail: impl Into<String>) -> Check {
    Check::new(id, outcome, rule, detail)
}

fn side_name(s: Side) -> &'static str {
    s.name()
}

fn win(side: Side) -> String {
    GameResult::win_for(side).as_str().to_string()
}

const DRAW: &str = "1/2-1/2";

/// A claim being judged: the facts and the checks made so far. The
/// decision is not here: `decide` makes it from the checks and the kind's
/// `Outcome`, and the `Ruling` is built once from both.
struct Draft {
    claim: Claim,
    evidence: Record,
    checks: Vec<Check>,
    /// The position the analysis used, and its FEN.
    position: Option<Chess>,
    fen: String,
    mate_line: Option<String>,
    progress: Option<Progress>,
    clocks: [Option<Clock>; 2],
    /// Readings of a clock at the claim the record allows besides the one
    /// taken: where a ruling turns on a clock limit, the judge tries them.
    clock_doubts: Vec<ClockDoubt>,
    marked_ply: Option<usize>,
    procedure: Option<DrawClaimRules>,
}

/// Another reading of one side's clock at the claim, and why.
struct ClockDoubt {
    side: Side,
    clock: Clock,
    /// The stated and recorded figures, in words.
    words: String,
    /// The claim states a figure the record contradicts on that reading
    /// (a conflict); else the claim states none (the record is incomplete).
    stated: bool,
}

impl Draft {
    fn check(&self, id: CheckId) -> Option<&Check> {
        self.checks.iter().find(|c| c.id == id)
    }

    fn push(
        &mut self,
        id: CheckId,
        outcome: CheckOutcome,
        rule: &Citation,
        detail: impl Into<String>,
    ) {
        self.checks.push(check(id, outcome, rule, detail));
    }

    /// Puts a check in place of one of the same kind (a first failure
    /// found stays), or adds it.
    fn set_check(
        &mut self,
        id: CheckId,
        outcome: CheckOutcome,
        rule: &Citation,
        detail: impl Into<String>,
    ) {
        match self.checks.iter_mut().find(|c| c.id == id) {
            Some(c) if c.outcome == CheckOutcome::Fail => {}
            Some(c) => *c = check(id, outcome, rule, detail),
            None => self.push(id, outcome, rule, detail),
        }
    }
}

/// Where the game ended on the board before the moves the claim is about
/// (`ended_on_board`): the `game-over` check failed, and the board's
/// result either way, whatever the claim's merits. `true` if so.
fn game_over(d: &mut Draft, out: &mut Outcome) -> bool {
    let Some((result, rule, ended, after)) = ended_on_board(d) else {
        return false;
    };
    // The flag claimed showed 0:00:00.0 on the very move that ended the
    // game: which came first decides it, and the record does not say.
    if let Some(words) = flag_on_the_ending_move(d) {
        let rule = rule.and(&d.claim.ruleset.flag.rule);
        let why = format!("{ended}, but {words}");
        d.push(CheckId::GameOver, CheckOutcome::Unknown, &rule, why.clone());
        out.if_not_in_order = None;
        out.merits_need_clocks = false;
        out.merits = Merits::Open(rule, why);
        return true;
    }
    let why = format!("{ended}, {after}");
    // Upheld where the board gives what the claim asks (a draw claimed in
    // a game drawn dead, a win claimed after the claimant's own mate),
    // else rejected; the result is the board's either way, and no clock
    // can change it.
    let asked = match d.claim.kind {
        ClaimKind::WinOnTime => win(d.claim.claimant) == result.as_str(),
        // A penalty for the move: nothing the board's end gives.
        ClaimKind::IllegalMove => false,
        _ => result == GameResult::Draw,
    };
    d.push(
        CheckId::GameOver,
        if asked {
            CheckOutcome::Pass
        } else {
            CheckOutcome::Fail
        },
        &rule,
        why.clone(),
    );
    out.if_upheld = result.as_str().into();
    out.if_rejected = result.as_str().into();
    out.if_not_in_order = None;
    out.merits_need_clocks = false;
    out.merits = if asked {
        Merits::Holds(rule, why)
    } else {
        Merits::Fails(rule, why)
    };
    true
}

/// A win on time claimed against the side whose move ended the game on the
/// board, its clock at 0:00:00.0 on that very move (`policy::
/// end_or_flag_undecided`, as `adjudicate` asks it): the words, if so.
fn flag_on_the_ending_move(d: &Draft) -> Option<String> {
    let e = d.evidence.replay.as_ref()?.ending?;
    if d.claim.kind != ClaimKind::WinOnTime || e.ply == 0 {
        return None;
    }
    let mover = d.evidence.side_of(e.ply);
    let fell_on_it = d.evidence.clocks.fallen(mover) == Some(e.ply);
    let claimed = d.claim.claimant == mover.other();
    crate::judge::policy::end_or_flag_undecided(fell_on_it, claimed).then(|| {
        format!(
            "{}'s clock shows 0:00:00.0 on that move, and the flag is claimed: whether it fell before the move was made decides the game, and the record does not say",
            mover.name()
        )
    })
}

/// The game ended on the board (mate, stalemate, a dead position, the
/// fifth repetition, the 75-move rule) by the last move recorded or before
/// it: the moves after it, and a claim, come after the end (a flag is
/// fallen when claimed, FIDE 6.8, and these endings come before a flag,
/// FIDE 6.9). The result, the rule that ended it, the words, and what
/// that leaves of the moves after it and the claim.
fn ended_on_board(d: &Draft) -> Option<(GameResult, Citation, String, &'static str)> {
    let e = d.evidence.replay.as_ref()?.ending?;
    let after = if d.evidence.unreplayed.is_empty() {
        "a claim after it changes nothing"
    } else {
        "whatever the moves after it and a claim on them say"
    };
    // Ply 0: the position an extract starts from is over already.
    let (mover, at) = match e.ply.checked_sub(1) {
        Some(i) => {
            let row = d.evidence.rows.get(i)?;
            let at = format!("at {}{}", d.evidence.move_number(e.ply), row.san);
            (row.side, at)
        }
        None => (
            d.evidence.first.other(),
            "before the scoresheet's first move, in the position it starts from".to_string(),
        ),
    };
    let (result, rule) = crate::judge::policy::board_end(&d.claim.ruleset, e.kind, mover);
    let what = match e.kind {
        crate::replay::BoardEnd::Checkmate => "checkmate",
        crate::replay::BoardEnd::Stalemate => "stalemate",
        crate::replay::BoardEnd::DeadPosition => "a dead position",
        crate::replay::BoardEnd::Fivefold => "the fifth repetition",
        crate::replay::BoardEnd::SeventyFive => "the 75-move rule",
    };
    let ended = format!("the game ended {at} ({what}, {rule}): {}", result.as_str());
    Some((result, rule, ended, after))
}

/// What a claim comes to on its merits, with the rule and the words.
#[derive(Clone, Debug, PartialEq)]
enum Merits {
    /// The claim is good.
    Holds(Citation, String),
    /// The claim fails.
    Fails(Citation, String),
    /// The record cannot settle it: someone must judge.
    Open(Citation, String),
}

/// A kind's conclusion: the merits, the results either way, and the rule
/// a referral cites (who decides when the record cannot).
struct Outcome {
    merits: Merits,
    if_upheld: String,
    if_rejected: String,
    /// What follows a claim rejected as not in order, where that is not
    /// what a rejection on the merits brings (HSL SD-ILC (2)'s minute is
    /// for a claim "clearly incorrect", not one made at the wrong time).
    if_not_in_order: Option<String>,
    refer_rule: Citation,
    /// The ruleset's word to whoever decides a referral.
    refer_note: String,
    /// A helpmate line decides nothing once the claim is upheld.
    line_only_if_rejected: bool,
    /// The merits rest on the stated clocks (a flag, a clock limit): a
    /// contradiction there refers before the merits are looked at.
    merits_need_clocks: bool,
}

/// The decision, from the checks and the merits, in this order (the
/// precedence is written here and nowhere else):
///
/// 0. a game over on the board before the claim gets the board's result:
///    upheld where that is what the claim asks, else rejected;
/// 1. a claim the ruleset does not provide is rejected;
/// 2. a contradiction in the position (the scoresheet, the written final
///    position) refers, naming both: nothing is decided on a record at
///    odds with itself; so does a contradiction in the stated clocks where
///    the merits rest on the clocks (a flag, a clock limit), or where a
///    claim not in order ends otherwise than one that fails (HSL);
/// 3. a claim that fails on its merits is rejected, whatever the papers;
///    but where a claim not in order ends otherwise than one that fails
///    (HSL SD-ILC: no minute lost), a claim not made as the rules require
///    (4, 6) is rejected as such first, its merits said beside it, unless
///    the clocks conflict (5 refers);
/// 4. a claim not made as the rules require (not on move, with an
///    increment) is rejected;
/// 5. a contradiction in the stated clocks refers;
/// 6. a claim outside its clock window (the clocks stand now) is rejected;
/// 7. the claimant's own papers not in order (late, not sent, the fee
///    unpaid) refer, saying what the merits would give: the texts that ask
///    for them (ECF QPF 13, BCF RP NA-5) state no consequence, so whoever
///    decides the claim decides that too. What the opponent failed to send
///    never counts against the claimant (those checks never fail on the
///    opponent's account);
/// 8. a record missing or incomplete where that could change the outcome
///    refers, said as incomplete and naming what is missing;
/// 9. merits the record cannot settle refer;
/// 10. otherwise the claim is upheld.
fn decide(checks: &[Check], out: &Outcome) -> (Recommendation, Citation, String) {
    let with_note = |d: String| {
        if out.refer_note.is_empty() {
            d
        } else {
            format!("{d}; {}", out.refer_note)
        }
    };
    let failed = |wanted: &dyn Fn(CheckId) -> bool| {
        checks
            .iter()
            .find(|c| wanted(c.id) && c.outcome == CheckOutcome::Fail)
    };
    let conflict = |c: &Check| {
        (
            Recommendation::Refer,
            out.refer_rule.clone(),
            with_note(format!("the evidence conflicts: {}", c.detail)),
        )
    };
    // The game over on the board before the claim: the board's result,
    // whatever the papers, clocks or the way the claim was made.
    if checks.iter().any(|c| c.id == CheckId::GameOver) {
        match &out.merits {
            Merits::Holds(rule, detail) => {
                return (Recommendation::Uphold, rule.clone(), detail.clone())
            }
            Merits::Fails(rule, detail) => {
                return (Recommendation::Reject, rule.clone(), detail.clone())
            }
            // Which came first, the end or the flag: for whoever decides.
            Merits::Open(rule, detail) => {
                return (
                    Recommendation::Refer,
                    rule.clone(),
                    with_note(detail.clone()),
                )
            }
        }
    }
    if let (Some(_), Merits::Fails(rule, detail)) =
        (failed(&|id| id == CheckId::KindAllowed), &out.merits)
    {
        return (Recommendation::Reject, rule.clone(), detail.clone());
    }
    if let Some(c) = failed(&|id| matches!(id, CheckId::Scoresheet | CheckId::FinalPosition)) {
        return conflict(c);
    }
    let clocks = failed(&|id| id == CheckId::Clocks);
    // Also where a claim not in order ends otherwise (HSL): which clock is
    // right then decides between the two endings.
    if let (Some(c), true) = (
        clocks,
        out.merits_need_clocks || out.if_not_in_order.is_some(),
    ) {
        return conflict(c);
    }
    let not_in_order = |c: &Check| {
        (
            Recommendation::Reject,
            c.rule.clone(),
            format!("the claim is not in order: {}", c.detail),
        )
    };
    // Where a claim not in order ends otherwise than one that fails on its
    // merits (HSL SD-ILC: no claim, no minute lost), the order decides the
    // result, so the ruling cites it; the merits are said beside it.
    // (A clock the record contradicts has referred above.)
    if let (Some(_), Some(c)) = (
        &out.if_not_in_order,
        failed(&|id| id.class() == CheckClass::Procedure),
    ) {
        let (recommendation, rule, detail) = not_in_order(c);
        let merits = match &out.merits {
            Merits::Fails(_, d) => format!("; on its merits it would fail too: {d}"),
            Merits::Holds(_, d) => format!("; on its merits it would hold: {d}"),
            Merits::Open(_, d) => format!("; on its merits: {d}"),
        };
        return (recommendation, rule, format!("{detail}{merits}"));
    }
    if let Merits::Fails(rule, detail) = &out.merits {
        return (Recommendation::Reject, rule.clone(), detail.clone());
    }
    if let Some(c) = failed(&|id| id.class() == CheckClass::Procedure && id != CheckId::ClockWindow)
    {
        return not_in_order(c);
    }
    if let Some(c) = clocks {
        return conflict(c);
    }
    if let Some(c) = failed(&|id| id == CheckId::ClockWindow) {
        return not_in_order(c);
    }
    let missing: Vec<&str> = checks
        .iter()
        .filter(|c| c.id.class() != CheckClass::Merits && c.outcome == CheckOutcome::Unknown)
        .map(|c| c.detail.as_str())
        .collect();
    if let Some(c) = failed(&|id| id.class() == CheckClass::Papers) {
        // What the merits give, said only as far as the record goes.
        let merits = match (&out.merits, missing.is_empty()) {
            (Merits::Holds(_, d), true) => format!("on its merits the claim would be upheld: {d}"),
            (Merits::Holds(_, d) | Merits::Open(_, d) | Merits::Fails(_, d), _) => {
                format!("on its merits: {d}")
            }
        };
        let incomplete = if missing.is_empty() {
            String::new()
        } else {
            format!("; the record is also incomplete: {}", missing.join("; "))
        };
        return (
            Recommendation::Refer,
            c.rule.clone(),
            with_note(format!(
                "the claimant's papers are not in order: {}; {} states no consequence for that, so it is for whoever decides the claim; {merits}{incomplete}",
                c.detail, c.rule
            )),
        );
    }
    if !missing.is_empty() {
        // What the record there is gives, for whoever decides.
        let merits = match &out.merits {
            Merits::Holds(_, d) => {
                format!("; on the record there is, the claim would be upheld: {d}")
            }
            Merits::Open(..) | Merits::Fails(..) => String::new(),
        };
        return (
            Recommendation::Refer,
            out.refer_rule.clone(),
            with_note(format!(
                "the record is incomplete: {}{merits}",
                missing.join("; ")
            )),
        );
    }
    match &out.merits {
        Merits::Open(rule, detail) => (
            Recommendation::Refer,
            rule.clone(),
            with_note(detail.clone()),
        ),
        Merits::Holds(rule, detail) => (Recommendation::Uphold, rule.clone(), detail.clone()),
        // Rejected above; kept whole so that the match needs no panic.
        Merits::Fails(rule, detail) => (Recommendation::Reject, rule.clone(), detail.clone()),
    }
}

/// Reads and replays the claim's scoresheet through the one replay.
fn gather(claim: &Claim) -> Record {
    let (source, text) = match &claim.scoresheet {
        Scoresheet::Inline(m) => (
            "the moves in the claim".to_string(),
            format!("{m}\n").into_bytes(),
        ),
        // A record of no moves from the written position (a FEN checked
        // when the claim was read, so the tag holds no quote).
        Scoresheet::Position(fen) => (
            "the final position in the claim".to_string(),
            format!("[SetUp \"1\"]\n[FEN \"{}\"]\n\n*\n", fen.trim()).into_bytes(),
        ),
        Scoresheet::File(path, bytes) => {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string());
            (name, bytes.clone())
        }
    };
    let mut record = record::from_text(source, &text, &claim.ruleset, claim.scoresheet_game);
    // A position alone is no game: no key to record a ruling under (every
    // such claim would share the key of an empty game).
    if matches!(claim.scoresheet, Scoresheet::Position(_)) {
        record.key = None;
    }
    record
}

/// Judges a claim. `syzygy` settles small positions exactly.
pub fn judge_claim(claim: Claim, syzygy: Option<&Syzygy>) -> Ruling {
    let evidence = gather(&claim);
    let name = |given: &Option<String>, tag: &str, side: Side| {
        given
            .clone()
            .filter(|s| !s.trim().is_empty())
            .or_else(|| crate::pgn::tags::given(tag).map(str::to_string))
            .unwrap_or_else(|| side_name(side).to_string())
    };
    let white = name(&claim.white, &evidence.tags.white, Side::White);
    let black = name(&claim.black, &evidence.tags.black, Side::Black);
    let clocks = [Side::White, Side::Black].map(|s| {
        claim
            .clock(s)
            .or_else(|| evidence.clocks.last(s).map(|(_, c)| c))
    });
    let mut d = Draft {
        claim,
        evidence,
        checks: Vec::new(),
        position: None,
        fen: String::new(),
        mate_line: None,
        progress: None,
        clocks,
        clock_doubts: Vec::new(),
        marked_ply: None,
        procedure: None,
    };
    let mut out = match d.claim.kind {
        ClaimKind::WinOnTime => win_on_time::judge(&mut d, syzygy),
        ClaimKind::IllegalMove => illegal_move::judge(&mut d),
        _ => draw::judge(&mut d, syzygy),
    };
    // A game over on the board before the claim: whatever the claim's
    // merits, the result is the board's (an illegal-move claim asks this
    // first, where its offending move would be looked for).
    if d.claim.kind != ClaimKind::IllegalMove {
        game_over(&mut d, &mut out);
    }
    let (recommendation, rule, detail) = decide(&d.checks, &out);
    // A claim not made as the rules require, whatever its merits.
    let not_in_order = d
        .checks
        .iter()
        .any(|c| c.id.class() == CheckClass::Procedure && c.outcome == CheckOutcome::Fail);
    let result_if_rejected = match out.if_not_in_order {
        Some(words) if not_in_order => words,
        _ => out.if_rejected,
    };
    let mate_line = d
        .mate_line
        .filter(|_| !(out.line_only_if_rejected && recommendation == Recommendation::Uphold));
    Ruling {
        claim: d.claim,
        evidence: d.evidence,
        white,
        black,
        checks: d.checks,
        recommendation,
        result_if_upheld: out.if_upheld,
        result_if_rejected,
        rule,
        detail,
        position: d.position,
        fen: d.fen,
        mate_line,
        progress: d.progress,
        clocks: d.clocks,
        marked_ply: d.marked_ply,
        procedure: d.procedure,
    }
}

fn clock_of(d: &Draft, side: Side) -> Option<Clock> {
    d.clocks[side.index()]
}

/// The clocks stated in the claim against the scoresheet's last recorded
/// clocks, by the evidence rules (`judge::evidence`).
fn clock_evidence(d: &mut Draft, rule: &Citation) {
    let ev = &d.evidence;
    let written = ev.plies_written();
    let last_mover = (written > 0).then(|| ev.side_of(written));
    let running = evidence::running_clock(last_mover, Side::from(ev.position.turn()));
    let inc = ev.time_control.uniform_increment().unwrap_or(0);
    let ev_rules = &d.claim.ruleset.claims.evidence;
    let mut compared = Vec::new();
    let mut conflicts = Vec::new();
    let mut doubts = Vec::new();
    for side in [Side::White, Side::Black] {
        let Some((ply, sheet)) = ev.clocks.last(side) else {
            continue;
        };
        let at = format!("{}{}", ev.move_number(ply), ev.written(ply));
        let since = evidence::SinceFigure {
            running: side == running,
            moves: ev.moves_after(side, ply),
        };
        let recorded = evidence::recorded(since, sheet, inc);
        let Some(stated) = d.claim.clock(side) else {
            // Not stated: the sheet's figure is taken, but where the clock
            // ran since it is only the most it can have been.
            if let evidence::Recorded::AtMost(_) = recorded {
                doubts.push(ClockDoubt {
                    side,
                    clock: Clock::secs(0),
                    words: format!(
                        "{}'s clock is not stated in the claim, and {sheet} on the scoresheet after {at} is only the most it can have been (it ran since)",
                        side.name()
                    ),
                    stated: false,
                });
            }
            continue;
        };
        let verdict = evidence::stated_clock(ev_rules, since, stated, sheet, inc);
        let words = format!(
            "{} {stated} in the claim, {sheet} on the scoresheet after {at}",
            side.name()
        );
        if verdict != StatedClock::Agrees {
            conflicts.push(format!("{words}: {}", verdict.words()));
            continue;
        }
        // Within the tolerance, yet not the record's own reading: tried
        // where a ruling turns on a limit.
        let other = match recorded {
            evidence::Recorded::Exactly(r) if r != stated => Some((
                r,
                "the scoresheet's figure, for a clock that was not running",
            )),
            evidence::Recorded::AtMost(m) if stated.tenths > m.tenths => Some((
                m,
                "the most the scoresheet allows, as a clock only runs down",
            )),
            _ => None,
        };
        if let Some((clock, why)) = other {
            doubts.push(ClockDoubt {
                side,
                clock,
                words: format!("{words}: {clock} is {why}"),
                stated: true,
            });
        }
        compared.push(words);
    }
    d.clock_doubts = doubts;
    if compared.is_empty() && conflicts.is_empty() {
        return;
    }
    if conflicts.is_empty() {
        d.push(
            CheckId::Clocks,
            CheckOutcome::Pass,
            rule,
            format!("the clocks agree: {}", compared.join("; ")),
        );
    } else {
        d.push(
            CheckId::Clocks,
            CheckOutcome::Fail,
            rule,
            format!("the clocks conflict: {}", conflicts.join("; ")),
        );
    }
}

/// The scoresheet check and the final-position check; sets the position used.
/// `complete`: the procedure requires the whole game's scoresheet (ECF QPF 14).
fn position_checks(r: &mut Draft, position_rule: &Citation, complete: bool) {
    let ev = &r.evidence;
    let unreadable = ev.problem.is_some() && ev.rows.is_empty() && ev.illegal.is_empty();
    let sheet = scoresheet_check(r, position_rule, complete, unreadable);
    let sheet_ok = !unreadable && sheet.outcome != CheckOutcome::Fail;
    r.checks.push(sheet);
    let sheet_fen = r.evidence.fen();
    let claimed = r.claim.final_fen.clone();
    let claimed_pos = claimed.as_deref().and_then(|f| {
        f.parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok())
    });
    let (outcome, detail) = final_position_check(
        r,
        claimed.as_deref(),
        claimed_pos.as_ref(),
        sheet_ok,
        &sheet_fen,
    );
    r.push(CheckId::FinalPosition, outcome, position_rule, detail);
    // The scoresheet's position when it stands; else what the claimant
    // wrote. A scoresheet read only in part (a word that is no move) ends
    // where the reading stopped, not where the game did: never taken for
    // the final position.
    let read_whole = r.evidence.problem.is_none();
    let (pos, fen) = if sheet_ok && read_whole && outcome != CheckOutcome::Fail {
        (Some(r.evidence.position.clone()), sheet_fen)
    } else if let (Some(p), Some(f)) = (claimed_pos, claimed) {
        (Some(p), f)
    } else if sheet_ok && read_whole {
        (Some(r.evidence.position.clone()), sheet_fen)
    } else {
        (None, String::new())
    };
    r.position = pos;
    r.fen = fen;
    match (&r.evidence.problem, sheet_ok) {
        // Its last clock figures are where the reading stopped.
        (Some(_), true) => {
            // The last move read, an illegal one or one after it included.
            let ev = &r.evidence;
            let upto = match ev.plies_written() {
                0 => "its first move".to_string(),
                n => format!("{}{}", ev.move_number(n), ev.written(n)),
            };
            let why = format!(
                "the scoresheet is read only up to {upto}: the clocks it records after that are not known, and the claim's cannot be checked against them"
            );
            r.push(CheckId::Clocks, CheckOutcome::Unknown, position_rule, why);
        }
        _ => clock_evidence(r, position_rule),
    }
}

/// What the scoresheet is and how far it replays: the whole game or an
/// extract, with or without clocks, up to an illegal move or not.
fn scoresheet_check(
    r: &Draft,
    position_rule: &Citation,
    complete: bool,
    unreadable: bool,
) -> Check {
    let ev = &r.evidence;
    // An illegal move that stood once answered is part of the game as played.
    let stopped = ev.last_illegal().filter(|i| !i.stood);
    match (&ev.problem, stopped) {
        (Some(p), _) if unreadable => check(
            CheckId::Scoresheet,
            CheckOutcome::Unknown,
            position_rule,
            format!("no moves could be read from the scoresheet ({p})"),
        ),
        (_, Some(im)) if r.claim.kind != ClaimKind::IllegalMove => check(
            CheckId::Scoresheet,
            CheckOutcome::Fail,
            position_rule,
            format!(
                "{}{} by {} is illegal; the scoresheet is replayed up to the move before it",
                ev.move_number(im.ply),
                im.san,
                side_name(im.side)
            ),
        ),
        (Some(p), _) => check(
            CheckId::Scoresheet,
            CheckOutcome::Unknown,
            position_rule,
            format!(
                "{p}; replayed {} by White and {} by Black",
                plural(ev.moves_by(Side::White), "move"),
                ev.moves_by(Side::Black)
            ),
        ),
        (_, Some(im)) => check(
            CheckId::Scoresheet,
            CheckOutcome::Pass,
            position_rule,
            format!(
                "{}: replayed up to the move claimed, {}{}",
                ev.source,
                ev.move_number(im.ply),
                im.san
            ),
        ),
        _ if matches!(r.claim.scoresheet, Scoresheet::Position(_)) => {
            // Ground (b) is judged on the scoresheet (BCF RP NA-4: "submit
            // an up-to-date score sheet"); ground (a) beside it asks no
            // more than the position, and may hold the claim alone.
            let grounds = &r.claim.grounds;
            let effort_rule = r
                .procedure
                .as_ref()
                .filter(|_| grounds.contains(&crate::claim::Ground::NoEffort))
                .filter(|_| !grounds.contains(&crate::claim::Ground::CannotWin))
                .map(|p| &p.no_effort_rule);
            if complete {
                check(
                    CheckId::Scoresheet,
                    CheckOutcome::Unknown,
                    position_rule,
                    "no scoresheet was sent, only the final position: the whole game's scoresheet is required",
                )
            } else if let Some(rule) = effort_rule {
                check(
                    CheckId::Scoresheet,
                    CheckOutcome::Unknown,
                    rule,
                    "no scoresheet was sent, only the final position: ground (b) is judged on the scoresheet, which is required",
                )
            } else {
                check(
                    CheckId::Scoresheet,
                    CheckOutcome::Pass,
                    position_rule,
                    "no scoresheet was sent: the final position written in the claim is judged, as the rule asks no more",
                )
            }
        }
        _ => replayed_scoresheet_check(ev, position_rule, complete),
    }
}

/// A scoresheet that replayed to its end, said plainly: the whole game or
/// an extract, with or without clock times, its moves counted per side as
/// the progress table counts them; an extract where the whole game is
/// required is not enough.
fn replayed_scoresheet_check(ev: &Record, position_rule: &Citation, complete: bool) -> Check {
    let extract = !ev.tags.fen.trim().is_empty();
    let what = if extract {
        format!(
            "an extract from move {}, not the whole game",
            ev.start_fullmove
        )
    } else {
        "the whole game".to_string()
    };
    let clocks = if ev.clocks.any {
        "with clock times"
    } else {
        "with no clock times"
    };
    // Counted per side, as the progress table counts them.
    let moves = format!(
        "{} by White and {} by Black",
        plural(ev.moves_by(Side::White), "move"),
        ev.moves_by(Side::Black)
    );
    // An illegal move that stood once answered is part of the
    // game as played, and said so.
    let legal = match ev.last_illegal() {
        Some(im) => format!(
            "; {}{} is illegal, and play went on after it",
            ev.move_number(im.ply),
            im.san
        ),
        None => ", all legal".to_string(),
    };
    if extract && complete {
        check(
            CheckId::Scoresheet,
            CheckOutcome::Unknown,
            position_rule,
            format!(
                "{}: {what}, {clocks} ({moves}); the whole game's scoresheet is required and was not sent",
                ev.source
            ),
        )
    } else {
        let extra = match ev.extra_games {
            0 => String::new(),
            n => format!(
                " (game {} of the {} the file holds, the one the claim's board and players name)",
                ev.game_index + 1,
                n + 1
            ),
        };
        check(
            CheckId::Scoresheet,
            CheckOutcome::Pass,
            position_rule,
            format!(
                "{}: {what}, {clocks}; {moves} replayed{legal}{extra}",
                ev.source
            ),
        )
    }
}

/// The final position the claimant wrote, against the scoresheet's.
fn final_position_check(
    r: &Draft,
    claimed: Option<&str>,
    claimed_pos: Option<&Chess>,
    sheet_ok: bool,
    sheet_fen: &str,
) -> (CheckOutcome, String) {
    if matches!(r.claim.scoresheet, Scoresheet::Position(_)) {
        return (
            CheckOutcome::NotApplicable,
            "no scoresheet to compare it with: the position written is the one judged".to_string(),
        );
    }
    match (claimed, sheet_ok) {
        (None, true) => (
            CheckOutcome::NotApplicable,
            "no final position written in the claim; the scoresheet's is used".to_string(),
        ),
        (None, false) => (
            CheckOutcome::Unknown,
            "no final position written and the scoresheet cannot give one".to_string(),
        ),
        (Some(f), false) => (
            CheckOutcome::Unknown,
            format!("the claimant wrote {f}; the scoresheet cannot confirm it"),
        ),
        (Some(f), true) => {
            let same = claimed_pos.is_some_and(|p| {
                p.board() == r.evidence.position.board() && p.turn() == r.evidence.position.turn()
            });
            let at_last_recorded = match (claimed_pos, &r.evidence.last_recorded) {
                (Some(p), Some(last)) => p.board() == last.board() && p.turn() == last.turn(),
                _ => false,
            };
            // After a move into check the written position is illegal by
            // nature: compare it with the board the illegal move left.
            let written = f.parse::<Fen>().ok().map(|x| x.as_setup().board.clone());
            let after_illegal = (r.claim.kind == ClaimKind::IllegalMove)
                .then(|| r.evidence.last_illegal().filter(|i| !i.stood))
                .flatten()
                .and_then(|i| i.as_moved.map(|m| (i.san.clone(), m)))
                .map(|(san, m)| {
                    let mut p = r.evidence.position.clone();
                    p.play_unchecked(m);
                    (san, p.board().clone())
                });
            let as_played = matches!((&written, &after_illegal), (Some(w), Some((_, b))) if w == b);
            if same {
                (
                    CheckOutcome::Pass,
                    "the position written by the claimant is the scoresheet's last position"
                        .to_string(),
                )
            } else if as_played {
                let san = after_illegal.map(|(s, _)| s).unwrap_or_default();
                (
                    CheckOutcome::Pass,
                    format!("the position written by the claimant is the one {san} left on the board, as played (illegal, as the claim says)"),
                )
            } else if claimed_pos.is_none() {
                (
                    CheckOutcome::Fail,
                    format!("the written position {f} is not a legal position"),
                )
            } else if at_last_recorded {
                (
                    CheckOutcome::Pass,
                    "the position written by the claimant is the last one the scoresheet records (the moves after the replay stopped, played as written)".to_string(),
                )
            } else if r.evidence.problem.is_some() {
                // A scoresheet read only in part cannot contradict it.
                (
                    CheckOutcome::Unknown,
                    format!("the claimant wrote {f}; the scoresheet, read only in part, cannot confirm it"),
                )
            } else {
                (
                    CheckOutcome::Fail,
                    format!(
                        "the claimant wrote {f} but the scoresheet ends in {sheet_fen}: {}",
                        claimed_pos.map_or_else(String::new, |p| positions_differ(
                            p,
                            &r.evidence.position
                        ))
                    ),
                )
            }
        }
    }
}

/// How the claimant's written position differs from the scoresheet's, man
/// by man, as a secretary compares two diagrams: "Black's king on f8 in
/// the claim, f7 on the scoresheet".
fn positions_differ(claimed: &Chess, sheet: &Chess) -> String {
    use shakmaty::{Color, Role};
    let (a, b) = (claimed.board(), sheet.board());
    let squares = |bb: shakmaty::Bitboard| -> String {
        let v: Vec<String> = bb.into_iter().map(|q| q.to_string()).collect();
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let mut parts = Vec::new();
    for color in [Color::White, Color::Black] {
        for role in Role::ALL.into_iter().rev() {
            let (x, y) = (a.by_piece(role.of(color)), b.by_piece(role.of(color)));
            if x != y {
                parts.push(format!(
                    "{}'s {}{} on {} in the claim, {} on the scoresheet",
                    Side::from(color).name(),
                    crate::analysis::illegal::name(role),
                    if x.count().max(y.count()) > 1 {
                        "s"
                    } else {
                        ""
                    },
                    squares(x),
                    squares(y)
                ));
            }
        }
    }
    if claimed.turn() != sheet.turn() {
        parts.push(format!(
            "{} to move in the claim, {} on the scoresheet",
            Side::from(claimed.turn()).name(),
            Side::from(sheet.turn()).name()
        ));
    }
    parts.join("; ")
}

/// A "can this side mate?" answer as a finding: pass, fail or unknown, with
/// the words; the mating line kept for the packet.
fn answer_finding(
    r: &mut Draft,
    pos: &Chess,
    side: Side,
    a: &crate::analysis::mate::MateAnswer,
) -> (CheckOutcome, String) {
    use crate::analysis::mate::{material_label, Mateability};
    let who = side_name(side);
    match a.verdict {
        Mateability::Winnable => {
            if !a.line.is_empty() {
                r.mate_line = Some(mate_line(pos, who, "can mate", &a.line));
            }
            (
                CheckOutcome::Pass,
                format!(
                    "{who} can checkmate by a series of legal moves ({})",
                    a.method
                ),
            )
        }
        Mateability::Unwinnable => (
            CheckOutcome::Fail,
            format!(
                "{who} ({}) cannot checkmate by any series of legal moves ({})",
                material_label(pos, side),
                a.method
            ),
        ),
        Mateability::Undetermined => (
            CheckOutcome::Unknown,
            format!("whether {who} can mate is undetermined ({})", a.method),
        ),
    }
}

/// A helpmate line as the packet prints it: the whole line, however long,
/// because the check it stands under rests on it (the packet wraps it).
fn mate_line(pos: &Chess, who: &str, verb: &str, line: &[shakmaty::Move]) -> String {
    format!("{who} {verb}, for example {}", numbered_line(pos, line))
}

/// The decision's precedence as a table: the kind allowed or not x merits
/// x the position's evidence x the clocks' evidence (with merits resting
/// on the clocks or not) x the claimant's procedure x whose papers are
/// missing (through the real papers check).
#[cfg(test)]
mod precedence {
    use super::*;

    #[derive(Copy, Clone, Debug, PartialEq)]
    enum Ev {
        Sound,
        Conflicting,
        Incomplete,
    }

    fn outcome(ev: Ev) -> CheckOutcome {
        match ev {
            Ev::Sound => CheckOutcome::Pass,
            Ev::Conflicting => CheckOutcome::Fail,
            Ev::Incomplete => CheckOutcome::Unknown,
        }
    }

    #[test]
    fn the_decision_follows_one_written_order() {
        use CheckOutcome::{Fail, Pass, Unknown};
        let rule = Citation::fixed("R 1");
        let merits_all = [
            Merits::Holds(Citation::fixed("R holds"), "holds".into()),
            Merits::Fails(Citation::fixed("R fails"), "fails".into()),
            Merits::Open(Citation::fixed("R open"), "open".into()),
        ];
        let mut cases = 0;
        for allowed in [true, false] {
            for merits in &merits_all {
                for sheet in [Ev::Sound, Ev::Conflicting, Ev::Incomplete] {
                    for clocks in [Ev::Sound, Ev::Conflicting] {
                        for need_clocks in [false, true] {
                            for window in [Pass, Fail, Unknown] {
                                // Who sent nothing: nobody, the opponent, the claimant.
                                for (silent, on_move) in
                                    [None, Some(Side::White), Some(Side::Black)]
                                        .into_iter()
                                        .flat_map(|s| [(s, Pass), (s, Fail)])
                                {
                                    // A game over on the board (upheld or not as
                                    // it asks), and a claim not in order that
                                    // ends otherwise than one that fails (HSL).
                                    for (over, differs) in [
                                        (None, false),
                                        (None, true),
                                        (Some(true), false),
                                        (Some(false), false),
                                    ] {
                                        let missing: Vec<Side> = silent.into_iter().collect();
                                        let papers = procedure::papers_check(
                                            CheckId::Submissions,
                                            &rule,
                                            Side::Black,
                                            None,
                                            &missing,
                                            "both sent",
                                            "no submission from",
                                        );
                                        let checks = vec![
                                            Check::new(
                                                CheckId::KindAllowed,
                                                if allowed { Pass } else { Fail },
                                                &rule,
                                                "kind",
                                            ),
                                            Check::new(
                                                CheckId::Scoresheet,
                                                outcome(sheet),
                                                &rule,
                                                "sheet",
                                            ),
                                            Check::new(
                                                CheckId::Clocks,
                                                outcome(clocks),
                                                &rule,
                                                "clocks",
                                            ),
                                            Check::new(
                                                CheckId::ClockWindow,
                                                window,
                                                &rule,
                                                "window",
                                            ),
                                            Check::new(CheckId::OnMove, on_move, &rule, "on move"),
                                            papers,
                                        ];
                                        let mut checks = checks;
                                        // A kind the ruleset lacks fails on its merits.
                                        let merits = match over {
                                            Some(asked) => {
                                                checks.push(Check::new(
                                                    CheckId::GameOver,
                                                    if asked { Pass } else { Fail },
                                                    &rule,
                                                    "over",
                                                ));
                                                let r = Citation::fixed("R over");
                                                if asked {
                                                    Merits::Holds(r, "over".into())
                                                } else {
                                                    Merits::Fails(r, "over".into())
                                                }
                                            }
                                            None if allowed => merits.clone(),
                                            None => Merits::Fails(
                                                Citation::fixed("R fails"),
                                                "fails".into(),
                                            ),
                                        };
                                        let out = Outcome {
                                            merits: merits.clone(),
                                            if_upheld: DRAW.into(),
                                            if_rejected: "1-0".into(),
                                            if_not_in_order: differs.then(|| "no penalty".into()),
                                            refer_rule: Citation::fixed("R refer"),
                                            refer_note: String::new(),
                                            line_only_if_rejected: false,
                                            merits_need_clocks: need_clocks,
                                        };
                                        let (rec, cited, detail) = decide(&checks, &out);
                                        let claimant_silent = silent == Some(Side::Black);
                                        let fails = matches!(merits, Merits::Fails(..));
                                        let refer = (Recommendation::Refer, "R refer");
                                        let out_of_order = on_move == Fail || window == Fail;
                                        let want = if let Some(asked) = over {
                                            if asked {
                                                (Recommendation::Uphold, "R over")
                                            } else {
                                                (Recommendation::Reject, "R over")
                                            }
                                        } else if !allowed {
                                            (Recommendation::Reject, "R fails")
                                        } else if sheet == Ev::Conflicting
                                            || (clocks == Ev::Conflicting
                                                && (need_clocks || differs))
                                        {
                                            refer
                                        } else if differs && out_of_order {
                                            (Recommendation::Reject, "R 1")
                                        } else if fails {
                                            (Recommendation::Reject, "R fails")
                                        } else if on_move == Fail {
                                            (Recommendation::Reject, "R 1")
                                        } else if clocks == Ev::Conflicting {
                                            refer
                                        } else if window == Fail {
                                            (Recommendation::Reject, "R 1")
                                        } else if claimant_silent {
                                            (Recommendation::Refer, "R 1")
                                        } else if sheet == Ev::Incomplete || window == Unknown {
                                            refer
                                        } else if matches!(merits, Merits::Open(..)) {
                                            (Recommendation::Refer, "R open")
                                        } else {
                                            (Recommendation::Uphold, "R holds")
                                        };
                                        let case = format!(
                                        "allowed {allowed}, {merits:?}, sheet {sheet:?}, clocks {clocks:?} (needed {need_clocks}), window {window:?}, on move {on_move:?}, silent {silent:?}, over {over:?}, differs {differs}"
                                    );
                                        if over.is_none()
                                            && differs
                                            && out_of_order
                                            && want.1 == "R 1"
                                            && allowed
                                        {
                                            assert!(
                                                detail.starts_with("the claim is not in order: "),
                                                "{case}: {detail}"
                                            );
                                        }
                                        assert_eq!((rec, cited.as_str()), want, "{case}");
                                        if want == (Recommendation::Refer, "R 1") {
                                            assert!(
                                            detail.starts_with("the claimant's papers are not in order: no submission from Black (the claimant); R 1 states no consequence"),
                                            "{case}: {detail}"
                                        );
                                            // What else is missing is said too;
                                            // "would be upheld" only on a whole record.
                                            let incomplete =
                                                sheet == Ev::Incomplete || window == Unknown;
                                            assert_eq!(
                                                detail
                                                    .contains("; the record is also incomplete: "),
                                                incomplete,
                                                "{case}: {detail}"
                                            );
                                            assert_eq!(
                                                detail.contains("would be upheld"),
                                                !incomplete && matches!(merits, Merits::Holds(..)),
                                                "{case}: {detail}"
                                            );
                                        }
                                        if want == refer
                                            && sheet != Ev::Conflicting
                                            && clocks != Ev::Conflicting
                                        {
                                            assert!(
                                                detail.starts_with("the record is incomplete: "),
                                                "{case}: {detail}"
                                            );
                                        }
                                        if want == refer && sheet == Ev::Conflicting {
                                            assert_eq!(
                                                detail, "the evidence conflicts: sheet",
                                                "{case}"
                                            );
                                        }
                                        cases += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(cases, 2 * 3 * 3 * 2 * 2 * 3 * 3 * 2 * 4);
    }
}

/// Claims for the unit tests of each kind: a claim file's text and its
/// scoresheet's, judged without touching the disk.
#[cfg(test)]
pub(super) mod testing {
    use std::path::{Path, PathBuf};

    use super::judge_claim;
    use crate::claim::{
        file::{parse_claim, Scoresheet},
        CheckId, CheckOutcome, LoadOptions, Ruling,
    };

    pub(crate) fn ruling(claim: &str, pgn: &str) -> Ruling {
        let mut c = parse_claim(
            "t.toml",
            "t",
            &format!("{claim}\nmoves = \"1. e4\""),
            Path::new("."),
            LoadOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        c.scoresheet = Scoresheet::File(PathBuf::from("s.pgn"), pgn.as_bytes().to_vec());
        judge_claim(c, None)
    }

    pub(crate) fn outcome(r: &Ruling, id: CheckId) -> CheckOutcome {
        r.check(id)
            .unwrap_or_else(|| panic!("no check {id} in {:?}", r.checks))
            .outcome
    }
}
