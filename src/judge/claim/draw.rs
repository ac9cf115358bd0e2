//! Draw claims: the last two minutes (grounds (a) and (b)), insufficient
//! losing chances, and Sabah's clear-draw appeal.

use shakmaty::{Chess, Color, Position, Role};

use super::procedure::{procedural_checks, procedure};
use super::{clock_of, mate_line, position_checks, side_name, win, Draft, Merits, Outcome, DRAW};
use crate::{
    analysis::{
        forced::{forced_win, settled, ForcedWin, Syzygy},
        mate::{can_mate, material_label, Mateability},
    },
    claim::{Check, CheckId, CheckOutcome, ClaimKind, Ground, Progress},
    judge::policy::mmss,
    model::{Clock, Side},
    replay::record::Row,
    rules::{DrawClaimRules, OnReject},
};

/// Moves of each side looked at for ground (b) when the clocks cannot say
/// when the claimant's last two minutes began.
pub(crate) const PROGRESS_MOVES: usize = 20;

/// The fewest moves of the opponent's that can show no effort: two
/// positions repeated need four moves (a king's step and back, twice).
/// The tool's own number (no text gives one): below it the ground is
/// referred, never decided.
const FEWEST_MOVES_TO_JUDGE: usize = 4;

pub(super) fn judge(d: &mut Draft, syzygy: Option<&Syzygy>) -> Outcome {
    let chosen = procedure(d);
    let how = chosen.how.clone();
    let unstated_other = chosen.unstated_other.cloned();
    let Some(p) = chosen.rules.cloned() else {
        let absent = d.claim.ruleset.claims.absent_rule.clone();
        let rule = absent.unwrap_or_else(|| d.claim.ruleset.scoring.rule.clone());
        let title = d.claim.ruleset.title.clone();
        let kind = d.claim.kind;
        d.push(
            CheckId::KindAllowed,
            CheckOutcome::Fail,
            &rule,
            format!("{title} has no {kind} claim"),
        );
        position_checks(d, &rule, false);
        return Outcome {
            merits: Merits::Fails(
                rule.clone(),
                format!("{title} does not provide this claim ({kind})"),
            ),
            if_upheld: "-".into(),
            if_rejected: "no such claim: play continues".into(),
            if_not_in_order: None,
            refer_rule: rule,
            refer_note: String::new(),
            line_only_if_rejected: false,
            merits_need_clocks: false,
        };
    };
    let title = d.claim.ruleset.title.clone();
    // Where the claim does not say whether an arbiter was present, the
    // check that the claim exists is written once the grounds show whether
    // that matters.
    let allowed_at = d.checks.len();
    let both_rules = unstated_other
        .as_ref()
        .map(|other| p.window_rule.and(&other.window_rule));
    if unstated_other.is_none() {
        d.push(
            CheckId::KindAllowed,
            CheckOutcome::Pass,
            &p.window_rule,
            format!("{title} provides this claim {how}")
                .trim_end()
                .to_string(),
        );
    }
    d.procedure = Some(p.clone());
    position_checks(d, &p.position_rule, p.complete_scoresheet);
    procedural_checks(d, &p);

    let first = d.checks.len();
    let clearly_winning = judge_grounds(d, &p, syzygy);
    let mut merits = grounds_merits(&d.checks[first..], &p, clearly_winning);
    let mut rejected = rejected_result(d, &p, clearly_winning);
    if let (Some(other), Some(rules)) = (&unstated_other, &both_rules) {
        // The other procedure's grounds, asked aside: where both give the
        // same answer, whether an arbiter was there does not change it.
        let kept = (d.checks.len(), d.mate_line.clone(), d.progress.clone());
        let winning = judge_grounds(d, other, syzygy);
        let alt = grounds_merits(&d.checks[kept.0..], other, winning);
        d.checks.truncate(kept.0);
        (d.mate_line, d.progress) = (kept.1, kept.2);
        let (this, that) = procedures(d.claim.ruleset.claims.arbiter_by_default);
        let (outcome, detail) = if std::mem::discriminant(&merits) == std::mem::discriminant(&alt) {
            (
                CheckOutcome::Pass,
                format!("{title} provides this claim with an arbiter present and with none; the claim does not say whether one was, and its grounds are judged alike under both"),
            )
        } else {
            let both = format!(
                "{this}, {}; {that}, {}",
                merits_words(&merits),
                merits_words(&alt)
            );
            merits = Merits::Open(
                rules.clone(),
                format!("whether an arbiter was present decides it: {both}"),
            );
            (
                CheckOutcome::Unknown,
                format!("{title} provides this claim with an arbiter present and with none, and the claim does not say whether one was (arbiter = true or false), which decides it: {both}"),
            )
        };
        d.checks.insert(
            allowed_at,
            Check::new(CheckId::KindAllowed, outcome, rules, detail),
        );
        // Each result with the paragraph that gives it (BCF RP NA-6's "the
        // claimant will lose", not NA-1's window).
        rejected = format!(
            "{rejected} {this} ({}); {} {that} ({})",
            p.reject_rule,
            rejected_result(d, other, clearly_winning),
            other.reject_rule
        );
    }
    let increment_failed = d
        .checks
        .iter()
        .any(|c| c.id == CheckId::Increment && c.outcome == CheckOutcome::Fail);
    // A referral for want of the arbiter's presence cites the two
    // procedures, not one of them.
    let refer_rule = both_rules.unwrap_or_else(|| p.refer_rule.clone());
    Outcome {
        merits,
        if_upheld: DRAW.into(),
        if_rejected: rejected,
        // With an increment the claim does not exist (FIDE III.2.2): no
        // rejection's penalty attaches to it.
        if_not_in_order: (p.penalty_on_merits_only || increment_failed)
            .then(|| "play continues, no penalty".to_string()),
        refer_rule,
        refer_note: p.refer_note.clone(),
        line_only_if_rejected: true,
        merits_need_clocks: false,
    }
}

/// The grounds under procedure `p`: (a) can the opponent win by normal
/// means, (b) effort; their checks pushed. Whether the opponent is plainly
/// winning (for a frivolous appeal).
fn judge_grounds(d: &mut Draft, p: &DrawClaimRules, syzygy: Option<&Syzygy>) -> bool {
    let claimant = d.claim.claimant;
    let opponent = claimant.other();
    let grounds: Vec<Ground> = match d.claim.kind {
        ClaimKind::DrawLastTwoMinutes if p.grounds_named => d.claim.grounds.clone(),
        ClaimKind::DrawLastTwoMinutes => vec![Ground::CannotWin, Ground::NoEffort],
        _ => vec![Ground::CannotWin],
    };
    // Sabah v.8 asks for "a clear drawn position": drawn for both sides,
    // the appellant's own winning chances included.
    let both_sides = d.claim.kind == ClaimKind::ClearDrawAppeal;
    let mut clearly_winning = false;
    if let Some(pos) = d.position.clone() {
        // The appellant's own chances first: the line kept for the packet
        // is then the opponent's.
        let own = both_sides.then(|| normal_means(d, &pos, claimant, p, syzygy).0);
        let (mut a, winning) = normal_means(d, &pos, opponent, p, syzygy);
        clearly_winning = winning;
        if let Some(own) = own {
            a = both_drawn(a, own);
        }
        if !grounds.contains(&Ground::CannotWin) {
            a.outcome = CheckOutcome::NotApplicable;
            a.detail = format!(
                "ground {} not claimed; for the record: {}",
                p.normal_means_rule, a.detail
            );
            // Nobody asked whether anyone can mate: no line under the ruling.
            d.mate_line = None;
        }
        d.checks.push(a);
        if grounds.contains(&Ground::NoEffort) {
            let (c, progress) = no_effort(d, p);
            d.checks.push(c);
            d.progress = progress;
        }
    } else {
        d.push(
            CheckId::NormalMeans,
            CheckOutcome::Unknown,
            &p.normal_means_rule,
            "no position to analyse",
        );
    }
    clearly_winning
}

/// "with no arbiter" and "with one", in the order of the ruleset's usual
/// case (`arbiter_by_default`) and the other.
fn procedures(arbiter_by_default: bool) -> (&'static str, &'static str) {
    if arbiter_by_default {
        ("with an arbiter", "with none")
    } else {
        ("with no arbiter", "with one")
    }
}

/// A claim's merits in a few words, for a referral that names two.
fn merits_words(m: &Merits) -> String {
    match m {
        Merits::Holds(rule, detail) => format!("upheld ({rule}: {detail})"),
        Merits::Fails(rule, detail) => format!("rejected ({rule}: {detail})"),
        Merits::Open(rule, detail) => format!("for a judgement ({rule}: {detail})"),
    }
}

/// The two sides' normal-means findings as one: drawn only if drawn for
/// both; a win for either side fails the appeal.
fn both_drawn(opp: Check, own: Check) -> Check {
    let outcome = match (opp.outcome, own.outcome) {
        (CheckOutcome::Fail, _) | (_, CheckOutcome::Fail) => CheckOutcome::Fail,
        (CheckOutcome::Pass, CheckOutcome::Pass) => CheckOutcome::Pass,
        _ => CheckOutcome::Unknown,
    };
    let detail = if opp.detail == own.detail {
        format!("{}, for either side", opp.detail)
    } else if own.outcome == CheckOutcome::Fail && opp.outcome != CheckOutcome::Fail {
        // What fails the appeal first: the appellant's own win.
        format!(
            "not a clear drawn position: the appellant can win: {}; the opponent: {}",
            own.detail, opp.detail
        )
    } else {
        format!("{}; and for the appellant: {}", opp.detail, own.detail)
    };
    Check {
        outcome,
        detail,
        ..opp
    }
}

/// The claim on its grounds: a ground that passes holds it; one the record
/// cannot settle leaves it open; otherwise it fails.
fn grounds_merits(checks: &[Check], p: &DrawClaimRules, clearly_winning: bool) -> Merits {
    let grounds: Vec<&Check> = checks
        .iter()
        .filter(|c| matches!(c.id, CheckId::NormalMeans | CheckId::NoEffort))
        .filter(|c| c.outcome != CheckOutcome::NotApplicable)
        .collect();
    if let Some(g) = grounds.iter().find(|c| c.outcome == CheckOutcome::Pass) {
        let rule = if g.rule != p.upheld_rule {
            p.upheld_rule.and(&g.rule)
        } else {
            p.upheld_rule.clone()
        };
        return Merits::Holds(rule, g.detail.clone());
    }
    if let Some(g) = grounds.iter().find(|c| c.outcome == CheckOutcome::Unknown) {
        return Merits::Open(
            p.refer_rule.clone(),
            format!("needs a judgement: {}", g.detail),
        );
    }
    let detail = grounds
        .iter()
        .map(|c| c.detail.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    // The paragraph the ruling follows: a plainly lost position appealed
    // is the frivolous case where the ruleset has one.
    let rule = match (&p.frivolous_rule, clearly_winning) {
        (Some(frivolous), true) => p.reject_rule.and(frivolous),
        _ => p.reject_rule.clone(),
    };
    // With the ground that failed, as an upheld claim cites the one that held.
    let rule = grounds
        .iter()
        .filter(|g| g.rule != rule)
        .fold(rule.clone(), |r, g| r.and(&g.rule));
    Merits::Fails(rule, detail)
}

fn count(pos: &Chess, side: Side, role: Role) -> usize {
    let b = pos.board();
    (b.by_color(Color::from(side)) & b.by_role(role)).count()
}

/// Ground (a): can `opponent` win by normal means? The check, and whether
/// the opponent is plainly winning (for a frivolous appeal).
fn normal_means(
    r: &mut Draft,
    pos: &Chess,
    opponent: Side,
    p: &DrawClaimRules,
    syzygy: Option<&Syzygy>,
) -> (Check, bool) {
    let who = side_name(opponent);
    let (outcome, detail) = normal_means_finding(r, pos, opponent, syzygy);
    let winning = outcome == CheckOutcome::Fail;
    let detail =
        match outcome {
            CheckOutcome::Unknown => {
                format!(
            "{detail}: whether {who} can win by normal means needs an arbiter's judgement{}",
            if syzygy.is_none() { " (no tablebase given)" } else { "" }
        )
            }
            _ => detail,
        };
    (
        Check::new(CheckId::NormalMeans, outcome, &p.normal_means_rule, detail),
        winning,
    )
}

/// The evidence on ground (a), strongest first: no mate at all, the
/// tablebase, a forced mate found, then known drawn or won material.
fn normal_means_finding(
    r: &mut Draft,
    pos: &Chess,
    opponent: Side,
    syzygy: Option<&Syzygy>,
) -> (CheckOutcome, String) {
    let who = side_name(opponent);
    let mate = can_mate(pos, opponent);
    match mate.verdict {
        Mateability::Unwinnable => {
            return (
                CheckOutcome::Pass,
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
    // A table (Syzygy, or K+P v K computed) is exact either way; the
    // search after it proves wins only and is dear.
    match settled(pos, opponent, syzygy) {
        Some(ForcedWin::No(how)) => {
            return (CheckOutcome::Pass, format!("{matter}: {how} for {who}"))
        }
        Some(ForcedWin::Yes { how, exact: true }) => {
            return (CheckOutcome::Fail, format!("{matter}: {how} for {who}"))
        }
        _ => {}
    }
    // A forced mate found is a proof, and outweighs what the material
    // alone suggests: a lone minor piece can mate a king its own men box in.
    if let ForcedWin::Yes { how, .. } = forced_win(pos, opponent, None) {
        return (CheckOutcome::Fail, format!("{matter}: {how} for {who}"));
    }
    if let Some(why) = known_draw(pos, opponent) {
        return (CheckOutcome::Pass, format!("{matter}: {why}"));
    }
    if let Some(why) = known_win(pos, opponent) {
        return (CheckOutcome::Fail, format!("{matter}: {why}"));
    }
    (CheckOutcome::Unknown, matter)
}

/// Material the opponent cannot beat by normal means, pawnless: a lone
/// king, or one minor piece (two knights) against anything, as in BCF RP
/// GAA's example of K+R claiming against K+N. Level material (K+R v K+R)
/// is no such case: its wins are rare but real, and only a table or an
/// arbiter settles it.
fn known_draw(pos: &Chess, opponent: Side) -> Option<String> {
    let me = opponent.other();
    if count(pos, opponent, Role::Pawn) + count(pos, me, Role::Pawn) > 0 {
        return None;
    }
    let pieces = |s: Side| -> [usize; 4] {
        [Role::Queen, Role::Rook, Role::Bishop, Role::Knight].map(|r| count(pos, s, r))
    };
    let o = pieces(opponent);
    let total = |x: [usize; 4]| x.iter().sum::<usize>();
    let minors = |x: [usize; 4]| x[0] + x[1] == 0;
    if total(o) == 0 {
        return Some("a lone king cannot win".into());
    }
    if minors(o) && (total(o) == 1 || (o[3] == 2 && o[2] == 0)) {
        return Some("a single minor piece, or two knights, cannot force mate".into());
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

/// Ground (b): what the opponent did over the claimant's last minutes;
/// no period at all where the scoresheet cannot be replayed to the claim.
fn no_effort(r: &Draft, p: &DrawClaimRules) -> (Check, Option<Progress>) {
    let claimant = r.claim.claimant;
    let opponent = claimant.other();
    let rows = &r.evidence.rows;
    if matches!(
        r.claim.scoresheet,
        crate::claim::file::Scoresheet::Position(_)
    ) {
        let c = Check::new(
            CheckId::NoEffort,
            CheckOutcome::Unknown,
            &p.no_effort_rule,
            "no scoresheet was sent, only the final position: ground (b) is judged on the scoresheet, which is required",
        );
        return (c, None);
    }
    // Moves written past where the replay stopped (an illegal move, a
    // word that is no move): the moves before the claim are not known as
    // played, and the opening's would stand in for them.
    if !r.evidence.unreplayed.is_empty() {
        let upto = rows.last().map_or_else(
            || "its first move".to_string(),
            |x| format!("{}{}", r.evidence.move_number(x.ply), x.san),
        );
        let c = Check::new(
            CheckId::NoEffort,
            CheckOutcome::Unknown,
            &p.no_effort_rule,
            format!(
                "the scoresheet replays only up to {upto}, short of the claim: what {} did in {}'s last minutes cannot be read from it",
                side_name(opponent),
                side_name(claimant)
            ),
        );
        return (c, None);
    }
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
    let placed = from.is_some_and(|ply| rows.iter().any(|x| x.ply >= ply && x.side == opponent));
    let (start, period) = match from {
        Some(ply) if placed => (
            ply,
            format!(
                "from {}{}, when {}'s clock went under {}",
                r.evidence.move_number(ply),
                rows[ply - 1].san,
                side_name(claimant),
                mmss(window.tenths / 10)
            ),
        ),
        // The text names no period ("has been making no effort"): the
        // last moves stand for it where the clocks do not place one.
        _ => {
            let n = PROGRESS_MOVES * 2;
            let ply = rows.len().saturating_sub(n) + 1;
            let why = match from {
                Some(late) => format!(
                    "{}'s clock went under {} only at {}{}, with no move of {}'s after it",
                    side_name(claimant),
                    mmss(window.tenths / 10),
                    r.evidence.move_number(late),
                    rows[late - 1].san,
                    side_name(opponent)
                ),
                None => "the clocks do not show when the last two minutes began".to_string(),
            };
            (ply, format!("the last {PROGRESS_MOVES} moves ({why})"))
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
        // The opponent's own moves to a position seen before: the count
        // sits beside "in N moves", which are the opponent's.
        repeats: theirs.iter().filter(|x| x.occurrence >= 2).count(),
        king_squares: squares.len(),
        opponent_moves: theirs.len(),
        rows: period_rows,
    };
    let who = side_name(opponent);
    let summary = format!("{who} {}", pr.summary());
    let c = if pr.opponent_moves == 0 {
        Check::new(
            CheckId::NoEffort,
            CheckOutcome::Unknown,
            &p.no_effort_rule,
            "no moves by the opponent to judge",
        )
    } else if pr.captures + pr.pawn_moves > 0 {
        // Name the moves that are progress: a pawn pushed, a man taken.
        let named = |f: fn(&Row) -> bool| -> Vec<String> {
            pr.rows
                .iter()
                .filter(|x| x.side == opponent && f(x))
                .map(|x| format!("{}{}", r.evidence.move_number(x.ply), x.san))
                .collect()
        };
        let pushed = named(|x| x.pawn && !x.capture);
        let took = named(|x| x.capture);
        let mut what = Vec::new();
        if !pushed.is_empty() {
            what.push(format!("pushed {}", pushed.join(", ")));
        }
        if !took.is_empty() {
            what.push(format!("captured with {}", took.join(", ")));
        }
        Check::new(
            CheckId::NoEffort,
            CheckOutcome::Fail,
            &p.no_effort_rule,
            format!(
                "{who} was making progress: {who} {}, and that is progress ({summary})",
                what.join(" and ")
            ),
        )
    } else if pr.opponent_moves < FEWEST_MOVES_TO_JUDGE {
        // No progress, but too few moves for the repetition no effort is
        // shown by: neither "no effort" nor a doubt to weigh.
        Check::new(
            CheckId::NoEffort,
            CheckOutcome::Unknown,
            &p.no_effort_rule,
            format!(
                "too few moves to judge whether {who} was making an effort: {summary} ({})",
                pr.period
            ),
        )
    } else if pr.repeats >= 2 && pr.checks == 0 {
        Check::new(
            CheckId::NoEffort,
            CheckOutcome::Pass,
            &p.no_effort_rule,
            format!("{who} made no effort to win: {summary}"),
        )
    } else if p.doubt_to_opponent {
        Check::new(
            CheckId::NoEffort,
            CheckOutcome::Fail,
            &p.doubt_rule,
            format!("mixed evidence, the benefit of the doubt goes to the opponent of the claimant: {summary}"),
        )
    } else {
        Check::new(
            CheckId::NoEffort,
            CheckOutcome::Unknown,
            &p.doubt_rule,
            format!("mixed evidence, for whoever decides to weigh: {summary}"),
        )
    };
    (c, Some(pr))
}

fn rejected_result(r: &Draft, p: &DrawClaimRules, clearly_winning: bool) -> String {
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
                    let mut s = if new == t {
                        format!(
                            "play continues; {}'s clock stays at {}",
                            side_name(claimant),
                            Clock::secs(t)
                        )
                    } else {
                        format!(
                            "play continues; {}'s clock {} to {}",
                            side_name(claimant),
                            Clock::secs(t),
                            Clock::secs(new)
                        )
                    };
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
    if let (true, Some(frivolous)) = (clearly_winning, &p.frivolous_rule) {
        format!(
            "{base}; or {} if the appeal is frivolous ({frivolous})",
            win(opponent),
        )
    } else {
        base
    }
}

/// A time penalty that leaves at least `keep` seconds and never adds time
/// (Sabah v.8(b); with `keep` 0, HSL SD-ILC (2)).
pub(crate) fn penalised(t: u32, penalty: u32, keep: u32) -> u32 {
    if t >= keep + penalty {
        t - penalty
    } else if t >= keep {
        keep
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{outcome, ruling};
    use super::*;
    use crate::claim::{CheckOutcome::*, Recommendation, Ruling};

    fn two_minutes(grounds: &str, pgn: &str) -> Ruling {
        ruling(
            &format!("kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\narbiter = false\nclaimant = \"black\"\ngrounds = [{grounds}]\nclock_black = \"0:01:00\"\nclock_white = \"0:10:00\"\nfees_paid = [\"black\"]"),
            pgn,
        )
    }

    /// BCF RP GAA: "a player with king and rook claiming a draw against an
    /// opponent with king and knight would be awarded a draw". The knight's
    /// side claiming against the rook is another matter: for a table.
    #[test]
    fn ground_a_the_rook_claiming_against_a_knight_is_drawn() {
        let pgn = "[FEN \"8/8/3K4/3N3r/8/3k4/8/8 w - - 0 64\"]\n[SetUp \"1\"]\n\n64. Ne7 Rh6+ 65. Kd7 *\n";
        let r = two_minutes("\"cannot-win-by-normal-means\"", pgn);
        assert_eq!(outcome(&r, CheckId::NormalMeans), Pass);
        assert_eq!(r.recommendation, Recommendation::Uphold);
        assert_eq!(r.result_if_upheld, "1/2-1/2");
        let pgn = "[FEN \"8/8/3k4/3n3R/8/3K4/8/8 w - - 0 64\"]\n[SetUp \"1\"]\n\n64. Rh6+ Ke5 65. Rh5+ *\n";
        let r = two_minutes("\"cannot-win-by-normal-means\"", pgn);
        assert_eq!(outcome(&r, CheckId::NormalMeans), Unknown);
        assert_eq!(r.recommendation, Recommendation::Refer);
    }

    #[test]
    fn ground_a_a_queen_against_a_bare_king_wins() {
        let pgn = "[FEN \"8/8/3k4/8/8/3K4/8/7Q w - - 0 64\"]\n[SetUp \"1\"]\n\n64. Qh6+ Ke5 *\n";
        let r = two_minutes("\"cannot-win-by-normal-means\"", pgn);
        assert_eq!(outcome(&r, CheckId::NormalMeans), Fail);
        assert_eq!(r.recommendation, Recommendation::Reject);
        // BCF RP NA-6: with no arbiter, a failed claim loses.
        assert_eq!(r.result_if_rejected, "1-0");
    }

    #[test]
    fn ground_a_king_and_pawn_is_settled_without_a_tablebase() {
        // A rook's pawn with the black king in the corner: a draw.
        let pgn = "[FEN \"k7/8/8/8/P7/8/8/K7 w - - 0 64\"]\n[SetUp \"1\"]\n\n64. a5 Kb7 *\n";
        let r = two_minutes("\"cannot-win-by-normal-means\"", pgn);
        assert_eq!(outcome(&r, CheckId::NormalMeans), Pass);
        assert_eq!(r.recommendation, Recommendation::Uphold);
        // King on the sixth ahead of its pawn: a win.
        let pgn = "[FEN \"4k3/8/4K3/4P3/8/8/8/8 w - - 0 64\"]\n[SetUp \"1\"]\n\n64. Kd6 Kd8 65. e6 Ke8 *\n";
        let r = two_minutes("\"cannot-win-by-normal-means\"", pgn);
        assert_eq!(outcome(&r, CheckId::NormalMeans), Fail);
        let detail = &r.check(CheckId::NormalMeans).expect("normal-means").detail;
        assert!(
            detail.contains("K+P v K: computed exactly: a win for White"),
            "{detail}"
        );
    }

    #[test]
    fn a_referred_claim_names_the_directors_other_options() {
        // Two pawns against a bare king: no table without `--syzygy`.
        let claim = "kind = \"insufficient-losing-chances\"\nruleset = \"hs-league\"\nclaimant = \"black\"\nclock_white = \"0:05:05\"\nclock_black = \"0:04:08\"";
        let pgn = "[FEN \"8/8/2P5/k7/2PK4/8/8/8 w - - 0 76\"]\n[SetUp \"1\"]\n\n76. Kd5 Kb6 *\n";
        let r = ruling(claim, pgn);
        assert_eq!(r.recommendation, Recommendation::Refer, "{}", r.detail);
        assert_eq!(r.rule, "HSL SD-ILC (3)");
        assert!(r.detail.contains("claim again later (4)"), "{}", r.detail);
    }

    /// HSL SD-ILC (2)'s minute is for a claim "clearly incorrect": one made
    /// with five minutes left is not in order, and costs nothing; a claim
    /// wrong on the merits loses the minute.
    #[test]
    fn a_claim_out_of_the_window_keeps_its_minute() {
        let claim = |black: &str| {
            format!("kind = \"insufficient-losing-chances\"\nruleset = \"hs-league\"\nclaimant = \"black\"\nclock_white = \"0:05:05\"\nclock_black = \"{black}\"")
        };
        let pgn = "[FEN \"8/8/2P5/k7/2PK4/8/8/8 w - - 0 76\"]\n[SetUp \"1\"]\n\n76. Kd5 Kb6 *\n";
        let r = ruling(&claim("0:05:00"), pgn);
        assert_eq!(outcome(&r, CheckId::ClockWindow), Fail);
        assert_eq!(r.recommendation, Recommendation::Reject);
        assert_eq!(r.result_if_rejected, "play continues, no penalty");
        // K+P on the sixth against a bare king: clearly incorrect.
        let kpk = "[FEN \"8/8/4P3/4K3/8/8/8/1k6 w - - 0 76\"]\n[SetUp \"1\"]\n\n76. Kd5 Kc2 *\n";
        let r = ruling(&claim("0:04:00"), kpk);
        assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
        assert_eq!(
            r.result_if_rejected,
            "play continues; Black's clock 0:04:00 to 0:03:00"
        );
        // Clearly incorrect and made with five minutes: not in order first.
        let r = ruling(&claim("0:05:00"), kpk);
        assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
        assert_eq!(outcome(&r, CheckId::ClockWindow), Fail);
        assert_eq!(r.result_if_rejected, "play continues, no penalty");
    }

    #[test]
    fn ground_b_shuffling_is_no_effort_and_pawn_moves_are_progress() {
        let start = "[FEN \"8/4k3/8/8/8/8/4P3/4K3 w - - 0 50\"]\n[SetUp \"1\"]\n\n";
        let shuffle = format!("{start}50. Kd1 Kd7 51. Ke1 Ke7 52. Kd1 Kd7 53. Ke1 Ke7 *\n");
        let r = two_minutes("\"no-effort\"", &shuffle);
        assert_eq!(outcome(&r, CheckId::NoEffort), Pass);
        let p = r.progress.as_ref().expect("progress");
        assert_eq!((p.captures, p.pawn_moves, p.opponent_moves), (0, 0, 4));
        // Pushes in Black's last two minutes, the clocks show: progress.
        let pushing = format!("{start}50. Kd2 Kd7 {{ [%clk 0:01:55] }} 51. e4 Ke7 {{ [%clk 0:01:30] }} 52. e5 Kd7 {{ [%clk 0:01:10] }} 53. Kd3 Ke7 {{ [%clk 0:01:00] }} *\n");
        let r = two_minutes("\"no-effort\"", &pushing);
        assert_eq!(outcome(&r, CheckId::NoEffort), Fail);
        assert!(r.progress.as_ref().is_some_and(|p| p.pawn_moves == 2));
        // No clocks: the last 20 moves stand for the period.
        let unplaced = format!("{start}50. e4 Kd7 51. e5 Ke7 52. Kd2 Kd7 53. Kd3 Ke7 *\n");
        let r = two_minutes("\"no-effort\"", &unplaced);
        assert_eq!(outcome(&r, CheckId::NoEffort), Fail);
        let p = r.progress.as_ref().expect("progress");
        assert_eq!(
            p.period,
            "the last 20 moves (the clocks do not show when the last two minutes began)"
        );
        // The claimant's clock under two minutes only at his last move,
        // with no move of White's after it: said so.
        let late = format!(
            "{start}50. e4 Kd7 51. e5 Ke7 52. Kd2 Kd7 53. Kd3 Ke7 {{ [%clk 0:01:30] }} *\n"
        );
        let r = two_minutes("\"no-effort\"", &late);
        let p = r.progress.as_ref().expect("progress");
        assert_eq!(p.period, "the last 20 moves (Black's clock went under 2:00 only at 53... Ke7, with no move of White's after it)");
    }

    #[test]
    fn ecf_qpf_14_wants_the_whole_game() {
        let extract = "[FEN \"8/8/3k4/3n3R/8/3K4/8/8 w - - 0 64\"]\n[SetUp \"1\"]\n\n64. Rh6+ Ke5 65. Rh5+ *\n";
        let claim = "kind = \"draw-last-two-minutes\"\nruleset = \"ecf-quickplay\"\nclaimant = \"black\"\ngrounds = [\"cannot-win-by-normal-means\"]\nclock_black = \"0:01:00\"\nclock_white = \"0:10:00\"";
        let r = ruling(claim, extract);
        let c = r.check(CheckId::Scoresheet).expect("check");
        assert_eq!(c.outcome, Unknown);
        assert_eq!(
            c.detail,
            "s.pgn: an extract from move 64, not the whole game, with no clock times (2 moves by White and 1 by Black); the whole game's scoresheet is required and was not sent"
        );
        // Incomplete, not conflicting: the claim would hold on the extract,
        // so the missing papers could change the outcome.
        assert_eq!(r.recommendation, Recommendation::Refer);
        assert!(
            r.detail
                .starts_with("the record is incomplete: s.pgn: an extract"),
            "{}",
            r.detail
        );
        // A bare king against a queen fails on its merits: rejected,
        // whatever the papers (issue 29).
        let queen = "[FEN \"8/8/3k4/8/8/3K4/8/7Q w - - 0 64\"]\n[SetUp \"1\"]\n\n64. Qh6+ Ke5 *\n";
        let r = ruling(claim, queen);
        assert_eq!(outcome(&r, CheckId::Scoresheet), Unknown);
        assert_eq!(outcome(&r, CheckId::NormalMeans), Fail);
        assert_eq!(r.recommendation, Recommendation::Reject);
        assert_eq!(r.rule, "BCF RP NA-6; ECF QPF 11(a)");
        // BCF RP NA-2(a) asks for the final position only: the extract is said for what it is.
        let r = ruling(&claim.replace("ecf-quickplay", "bcf-rapid"), extract);
        let c = r.check(CheckId::Scoresheet).expect("check");
        assert_eq!(c.outcome, Pass);
        assert!(
            c.detail.starts_with(
                "s.pgn: an extract from move 64, not the whole game, with no clock times"
            ),
            "{}",
            c.detail
        );
    }

    #[test]
    fn a_ruleset_without_the_claim_rejects_it() {
        let pgn = "[FEN \"8/8/3k4/3n3R/8/3K4/8/8 w - - 0 64\"]\n[SetUp \"1\"]\n\n64. Rh6+ Ke5 *\n";
        let r = ruling(
            "kind = \"clear-draw-appeal\"\nruleset = \"fide-rapid\"\nclaimant = \"black\"",
            pgn,
        );
        assert_eq!(outcome(&r, CheckId::KindAllowed), Fail);
        assert_eq!(r.recommendation, Recommendation::Reject);
    }

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
