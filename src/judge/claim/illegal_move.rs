//! A claim of an illegal move: found on the scoresheet, claimed in time,
//! and what it costs, by the ladder in `judge::policy`.

use super::{answer_finding, position_checks, side_name, win, Draft, Merits, Outcome, DRAW};
use crate::{
    analysis::{illegal::why_illegal, mate::Mateability},
    citation::Cited,
    claim::{plural, CheckId, CheckOutcome},
    judge::policy::{self, mmss, Board, Found, IllegalFacts, IllegalMove, LossGround},
    model::{Clock, Side},
    replay::record::IllegalAt,
};

pub(super) fn judge(d: &mut Draft) -> Outcome {
    let rules = d.claim.ruleset.clone();
    let im_rules = &rules.illegal_move;
    let reinstate = &im_rules.reinstate_rule;
    let claimant = d.claim.claimant;
    let offender = claimant.other();
    let ow = side_name(offender);
    d.push(
        CheckId::KindAllowed,
        CheckOutcome::Pass,
        reinstate,
        "a completed illegal move may be claimed by the opponent",
    );
    position_checks(d, reinstate, false);
    let mut out = Outcome {
        merits: Merits::Open(reinstate.clone(), String::new()),
        if_upheld: "-".into(),
        if_rejected: "play continues; the move stands".into(),
        if_not_in_order: None,
        // Where a clock limit decides (BCF RP 12), a referral turns on it.
        refer_rule: im_rules
            .loses_under_rule
            .as_ref()
            .map_or_else(|| reinstate.clone(), |limit| limit.and(reinstate)),
        refer_note: String::new(),
        line_only_if_rejected: false,
        // Set below where the ruling turns on the clocks (BCF RP 12).
        merits_need_clocks: false,
    };
    let Some((im, named)) = offending_move(d, &mut out) else {
        return out;
    };
    // Completed illegal moves before this one: those the claim states, and
    // any earlier one on the scoresheet by the same player that counts
    // (`policy::counts_as_prior`); those that stood are said below.
    let (on_sheet, stood_before): (Vec<_>, Vec<_>) = d
        .evidence
        .illegal
        .iter()
        .filter(|i| i.side == offender && i.ply < im.ply)
        .partition(|i| policy::counts_as_prior(i.stood));
    let on_sheet = on_sheet.len();
    let stood_before: Vec<String> = stood_before
        .iter()
        .map(|i| format!("{}{}", d.evidence.move_number(i.ply), i.san))
        .collect();
    let prior = (d.claim.previous_illegal as usize).max(on_sheet);
    // The ladder is the policy's, as for a game; here it is worded as checks.
    let facts = |replies, clocks| IllegalFacts {
        mover: offender,
        replies,
        found: Found::Claimed,
        prior_by_mover: prior,
        clocks,
    };
    let ruling = policy::illegal_move(&rules, facts(im.replies, d.clocks));
    let stands = ruling.value == IllegalMove::Stands;
    // A reading of the clocks under which the move loses where the one
    // taken does not: the doubtful clock's side, in words.
    let mut loses_if: Option<String> = None;
    // Another reading of a clock the record allows, where the ladder then
    // gives another answer (BCF RP 12's five minutes): the clocks decide,
    // and the evidence conflicts, or is incomplete.
    if !stands {
        let loses = |v: &IllegalMove| matches!(v, IllegalMove::Loses(_));
        let turning: Vec<(String, bool, Side)> = d
            .clock_doubts
            .iter()
            .filter(|doubt| {
                let mut clocks = d.clocks;
                clocks[doubt.side.index()] = Some(doubt.clock);
                loses(&policy::illegal_move(&rules, facts(im.replies, clocks)).value)
                    != loses(&ruling.value)
            })
            .map(|doubt| (doubt.words.clone(), doubt.stated, doubt.side))
            .collect();
        let limit = im_rules.loses_under_seconds.map(mmss).unwrap_or_default();
        if !loses(&ruling.value) && !turning.is_empty() {
            // Either clock under the limit makes the move lose (RP 12).
            let mut sides: Vec<&str> = turning.iter().map(|(_, _, s)| side_name(*s)).collect();
            sides.dedup();
            loses_if = Some(format!(
                "{}'s clock was under {limit}",
                sides.join("'s or ")
            ));
        }
        for (words, stated, _) in turning {
            let (outcome, detail) = if stated {
                (
                    CheckOutcome::Fail,
                    format!("the clocks conflict: {words}; either side of {limit}, on which the ruling turns"),
                )
            } else {
                (
                    CheckOutcome::Unknown,
                    format!("{words}; whether it was under {limit} decides the ruling: the clocks at the claim are to be stated"),
                )
            };
            d.set_check(CheckId::Clocks, outcome, &im_rules.reinstate_rule, detail);
        }
    }
    in_time_check(d, &im, &named, stands);
    // What upholding gives: the ladder as it stands, or, for a claim that
    // came too late, as it would have stood had it come before the reply,
    // with the clocks the scoresheet shows then.
    let clocks = if stands {
        d.evidence.clocks_before(im.ply)
    } else {
        d.clocks
    };
    let applied = if stands {
        policy::illegal_move(&rules, facts(0, clocks))
    } else {
        ruling.clone()
    };
    out.merits_need_clocks = !stands
        && matches!(
            applied.value,
            IllegalMove::Loses(LossGround::ClockUnder(..))
                | IllegalMove::ClocksUnknown { .. }
                | IllegalMove::NotUnderLimit { .. }
        );
    clock_limit_check(d, &applied, clocks, loses_if.as_deref());
    if prior > 0
        && !matches!(
            applied.value,
            IllegalMove::Loses(LossGround::ClockUnder(..) | LossGround::FirstLoses)
                | IllegalMove::ClocksUnknown { .. }
        )
    {
        d.push(
            CheckId::SecondIllegal,
            if im_rules.second_loses {
                CheckOutcome::Pass
            } else {
                CheckOutcome::NotApplicable
            },
            &im_rules.second_rule,
            format!(
                "{ow} had already completed {} this game",
                plural(prior, "illegal move")
            ),
        );
    }
    // An earlier one that stood, discounted: said, so the packet shows it.
    if prior == 0 && im_rules.second_loses && !stood_before.is_empty() {
        d.push(
            CheckId::SecondIllegal,
            CheckOutcome::NotApplicable,
            &im_rules.second_rule,
            format!(
                "{ow}'s earlier illegal {} ({}) stood and was never acted on: not counted, as 7.5.5 counts after the action taken under 7.5.1",
                if stood_before.len() == 1 { "move" } else { "moves" },
                stood_before.join(", ")
            ),
        );
    }
    let (merits, if_upheld) = upheld(d, applied, &named, prior, (stands, clocks));
    out.if_upheld = if_upheld;
    // Upheld under the other reading, the move loses (BCF RP 12), unless
    // the claimant cannot mate (FIDE 7.5.5).
    if let (Some(when), Some(limit_rule)) = (&loses_if, &im_rules.loses_under_rule) {
        let mut board = Board::new(d.evidence.position.clone(), &rules);
        // A loss the claimant cannot mate to is a draw, under the rule
        // that says so (FIDE 7.5.5), cited with the limit's.
        let (loss, rule) = match policy::loss_stands(&mut board, claimant).verdict {
            Mateability::Winnable => (win(claimant), limit_rule.clone()),
            Mateability::Unwinnable => (DRAW.to_string(), limit_rule.and(im_rules.cannot_mate())),
            Mateability::Undetermined => (
                format!(
                    "{}, or a draw if {} cannot mate",
                    win(claimant),
                    side_name(claimant)
                ),
                limit_rule.and(im_rules.cannot_mate()),
            ),
        };
        out.if_upheld = format!("{}; {loss} if {when} ({rule})", out.if_upheld);
    }
    out.merits = if stands {
        let why = match im_rules.window() {
            Some(k) => format!(
                "{named} was found only after {} more moves by {}, not among the last {k}: it stands",
                crate::rules::own_moves_after(im.replies),
                side_name(im.side)
            ),
            None => format!("{named} was not claimed before the reply: it stands"),
        };
        Merits::Fails(ruling.rule, why)
    } else {
        merits
    };
    out
}

/// The illegal move claimed: the last one on the scoresheet, played by the
/// opponent, and why it is illegal; `None` (with the merits set in `out`)
/// where there is none, or it is the claimant's own.
fn offending_move(d: &mut Draft, out: &mut Outcome) -> Option<(IllegalAt, String)> {
    let rule = d.claim.ruleset.illegal_move.reinstate_rule.clone();
    let reinstate = &rule;
    let claimant = d.claim.claimant;
    let offender = claimant.other();
    let (cw, ow) = (side_name(claimant), side_name(offender));
    let Some(im) = d.evidence.last_illegal().cloned() else {
        if super::game_over(d, out) {
            return None;
        }
        if matches!(
            d.claim.scoresheet,
            crate::claim::file::Scoresheet::Position(_)
        ) {
            let why = "no scoresheet was sent: the illegal move cannot be checked";
            d.push(
                CheckId::IllegalMoveFound,
                CheckOutcome::Unknown,
                reinstate,
                why,
            );
            out.merits = Merits::Open(reinstate.clone(), why.to_string());
            return None;
        }
        let none = !d.evidence.rows.is_empty();
        d.push(
            CheckId::IllegalMoveFound,
            if none {
                CheckOutcome::Fail
            } else {
                CheckOutcome::Unknown
            },
            reinstate,
            if none {
                "every move on the scoresheet is legal"
            } else {
                "no moves to check"
            },
        );
        let why = "the scoresheet shows no illegal move".to_string();
        out.merits = if none {
            Merits::Fails(reinstate.clone(), why)
        } else {
            Merits::Open(reinstate.clone(), why)
        };
        return None;
    };
    d.marked_ply = Some(im.ply);
    let named = format!("{}{}", d.evidence.move_number(im.ply), im.san);
    // The position before the illegal move is the one reinstated (FIDE 7.5.1).
    d.position = Some(d.evidence.position.clone());
    d.fen = d.evidence.fen();
    if im.side != offender {
        d.push(
            CheckId::IllegalMoveFound,
            CheckOutcome::Fail,
            reinstate,
            format!("{named} is illegal but was played by the claimant, {cw}"),
        );
        out.merits = Merits::Fails(
            reinstate.clone(),
            format!("the illegal move {named} is the claimant's own"),
        );
        return None;
    }
    let why = match why_illegal(&d.evidence.position, im.as_moved) {
        Some(why) if !im.stood => format!("{named} by {ow} is illegal: {why}"),
        _ => format!("{named} by {ow} is illegal"),
    };
    d.push(
        CheckId::IllegalMoveFound,
        CheckOutcome::Pass,
        reinstate,
        why,
    );
    Some((im, named))
}

/// Whether the claim came before the offender's opponent replied (the
/// move stands otherwise).
fn in_time_check(d: &mut Draft, im: &IllegalAt, named: &str, stands: bool) {
    let rules = &d.claim.ruleset.illegal_move;
    // The rule for what happens: it stands (after the reply, or before the
    // last moves a ruleset reinstates), or the position is reinstated.
    let rule = if stands {
        rules.stands_rule.clone()
    } else {
        rules.reinstate_rule.clone()
    };
    let window = rules.window();
    let cw = side_name(d.claim.claimant);
    // The offender's own moves after it, which a window counts.
    let later = crate::rules::own_moves_after(im.replies);
    if im.replies > 0 {
        let words = match (stands, window) {
            (true, Some(k)) => format!(
                "{} made {} after {named}, so it is not among the last {k}: the move stands, no penalty",
                side_name(im.side),
                plural(later, "move")
            ),
            (true, None) => format!(
                "{} played after {named}: the move stands, no penalty",
                if im.replies == 1 {
                    "1 more move was".to_string()
                } else {
                    format!("{} more moves were", im.replies)
                }
            ),
            (false, Some(k)) => format!(
                "found during the game among {}'s last {k} moves ({} after it): the position is reinstated",
                side_name(im.side),
                plural(later, "move")
            ),
            (false, None) => format!(
                "found {} later, still during the game: the position is reinstated",
                plural(im.replies, "move")
            ),
        };
        d.push(
            CheckId::ClaimedInTime,
            if stands {
                CheckOutcome::Fail
            } else {
                CheckOutcome::Pass
            },
            &rule,
            words,
        );
    } else {
        d.push(
            CheckId::ClaimedInTime,
            CheckOutcome::Pass,
            &rule,
            format!("claimed before {cw} replied"),
        );
    }
}

/// The clock-limit check (BCF RP 12), where the ruleset has one.
/// `loses_if`: another reading of the clocks the record allows, under
/// which the move loses.
fn clock_limit_check(
    d: &mut Draft,
    applied: &Cited<IllegalMove>,
    clocks: [Option<Clock>; 2],
    loses_if: Option<&str>,
) {
    let im_rules = &d.claim.ruleset.illegal_move;
    let (Some(limit), Some(limit_rule)) = (
        im_rules.loses_under_seconds,
        im_rules.loses_under_rule.clone(),
    ) else {
        return;
    };
    let (outcome, detail) = match &applied.value {
        IllegalMove::Loses(LossGround::ClockUnder(..)) => {
            let under: Vec<String> = [Side::White, Side::Black]
                .into_iter()
                .filter_map(|s| {
                    clocks[s.index()]
                        .filter(|c| c.tenths < limit * 10)
                        .map(|c| format!("{} {c}", side_name(s)))
                })
                .collect();
            (
                CheckOutcome::Pass,
                format!(
                    "{} under {}: the illegal move loses",
                    under.join(", "),
                    mmss(limit)
                ),
            )
        }
        IllegalMove::ClocksUnknown { .. } => (
            CheckOutcome::Unknown,
            "the clocks at the claim are not known".to_string(),
        ),
        _ if loses_if.is_some() => (
            CheckOutcome::Unknown,
            format!(
                "the move loses if {}, and not otherwise: the record does not show which",
                loses_if.unwrap_or_default()
            ),
        ),
        // Not a failed claim: the loss ground does not apply, and the move
        // is penalised otherwise (a FAIL beside UPHOLD reads as a contradiction).
        _ => (
            CheckOutcome::NotApplicable,
            format!(
                "both players had {} or more: the move does not lose on the clock",
                mmss(limit)
            ),
        ),
    };
    d.push(CheckId::ClockLimit, outcome, &limit_rule, detail);
}

/// The merits of a claim made in time, and the result upholding gives.
/// `hypothetical`: the claim came too late, and this is what it would have
/// given in time, with `clocks` as they were then; the mating chances then
/// are not on record (the position before the move is not kept once play
/// went on), so they are not asked.
fn upheld(
    d: &mut Draft,
    applied: Cited<IllegalMove>,
    named: &str,
    prior: usize,
    (hypothetical, clocks): (bool, [Option<Clock>; 2]),
) -> (Merits, String) {
    let rules = d.claim.ruleset.clone();
    let im_rules = &rules.illegal_move;
    let claimant = d.claim.claimant;
    let (cw, ow) = (side_name(claimant), side_name(claimant.other()));
    let rule = applied.rule;
    match applied.value {
        IllegalMove::Loses(ground) => {
            let why = match &ground {
                LossGround::ClockUnder(..) => d
                    .check(CheckId::ClockLimit)
                    .map_or_else(|| ground.why(), |c| c.detail.clone()),
                LossGround::FirstLoses => "an illegal move loses on a claim".to_string(),
                LossGround::Second(..) => {
                    format!(
                        "{ow} had already completed {} this game",
                        plural(prior, "illegal move")
                    )
                }
            };
            if hypothetical {
                return (
                    Merits::Holds(rule, format!("{named} is illegal and {why}")),
                    win(claimant),
                );
            }
            let pos = d.evidence.position.clone();
            let mut board = Board::new(pos.clone(), &rules);
            let answer = policy::loss_stands(&mut board, claimant);
            let (o, text) = answer_finding(d, &pos, claimant, &answer);
            d.push(
                CheckId::ClaimantCanMate,
                o,
                im_rules.cannot_mate(),
                text.clone(),
            );
            match o {
                CheckOutcome::Fail => (
                    Merits::Holds(
                        rule.and(im_rules.cannot_mate()),
                        format!("{named} is illegal and {why}, but {text}: drawn"),
                    ),
                    DRAW.into(),
                ),
                CheckOutcome::Unknown => (
                    Merits::Open(rule, format!("{named} is illegal and {why}; {text}")),
                    win(claimant),
                ),
                _ => (
                    Merits::Holds(rule, format!("{named} is illegal and {why}")),
                    win(claimant),
                ),
            }
        }
        IllegalMove::ClocksUnknown { limit } => (
            Merits::Open(
                rule,
                format!(
                    "{named} is illegal; whether either clock was under {} is not known",
                    mmss(limit)
                ),
            ),
            win(claimant),
        ),
        // A claim is never unnoticed, and a late claim is asked as if in time.
        IllegalMove::Stands | IllegalMove::Unnoticed => (
            Merits::Holds(rule, format!("{named} is illegal")),
            "-".into(),
        ),
        value @ (IllegalMove::NotUnderLimit { .. } | IllegalMove::Reinstated { .. }) => {
            let (pen, rule, time, added) = match &value {
                // The limit's rule decides; the time's, then the taking back.
                IllegalMove::NotUnderLimit { time, .. } => (
                    time.seconds,
                    rule.and(&time.rule()).and(&im_rules.reinstate_rule),
                    time.words(cw),
                    time.added(),
                ),
                _ => (
                    im_rules.penalty_seconds,
                    im_rules.reinstate_rule.and(&im_rules.penalty_rule),
                    format!("{cw} gets {}", mmss(im_rules.penalty_seconds)),
                    format!("+{}", mmss(im_rules.penalty_seconds)),
                ),
            };
            // The claimant's clock when the time would have been added:
            // for a claim after the reply, at the illegal move.
            let clock = clocks[claimant.index()]
                .map(|c| format!(" ({} to {})", c, Clock::secs(c.tenths / 10 + pen)))
                .unwrap_or_default();
            (
                Merits::Holds(
                    rule,
                    format!("{named} is illegal: the position before it is reinstated; {time}"),
                ),
                format!("play continues from the position before {named}; {cw} {added}{clock}"),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{outcome, ruling};
    use crate::claim::{CheckId::*, CheckOutcome::*, Recommendation, Ruling};

    fn claim(rules: &str, claimant: &str, pgn: &str, extra: &str) -> Ruling {
        ruling(
            &format!("kind = \"illegal-move\"\nruleset = \"{rules}\"\nclaimant = \"{claimant}\"\n{extra}"),
            pgn,
        )
    }

    fn sheet(w: &str, b: &str, tail: &str) -> String {
        format!(
            "[TimeControl \"1800\"]\n\n1. e4 {{[%clk 0:20:00]}} d5 {{[%clk 0:20:00]}} 2. Bb5+ {{[%clk {w}]}} Kd7 {{[%clk {b}]}} {tail}*\n"
        )
    }

    #[test]
    fn found_claimed_in_time_and_whose() {
        let legal = "1. e4 e5 2. Nf3 *\n";
        let r = claim("fide-standard", "white", legal, "");
        assert_eq!(outcome(&r, IllegalMoveFound), Fail);
        assert_eq!(r.recommendation, Recommendation::Reject);
        // Black's 2... Kd7 is illegal; Black cannot claim his own move.
        let r = claim(
            "fide-standard",
            "black",
            &sheet("0:19:00", "0:18:00", ""),
            "",
        );
        assert_eq!(outcome(&r, IllegalMoveFound), Fail);
        // Under FIDE A.5.2 it stands once White has replied.
        let r = claim(
            "fide-rapid",
            "white",
            &sheet("0:19:00", "0:18:00", "3. a3 "),
            "",
        );
        assert_eq!(outcome(&r, ClaimedInTime), Fail);
        assert_eq!(r.rule, "FIDE A.5.2");
    }

    #[test]
    fn the_written_position_after_a_move_into_check_is_expected_to_be_illegal() {
        let pgn = sheet("0:19:00", "0:18:00", "");
        // After 2... Kd7?? as played: Black's king stands in the bishop's check.
        let fen = "final_fen = \"rnbq1bnr/pppkpppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR w KQ - 2 3\"";
        let r = claim("fide-standard", "white", &pgn, fen);
        let c = r.check(FinalPosition).expect("check");
        assert_eq!(c.outcome, Pass, "{}", c.detail);
        assert!(
            c.detail.contains("Kd7 left on the board, as played"),
            "{}",
            c.detail
        );
        // A position that is neither: still a failed check.
        let wrong = fen.replace("pppkpppp", "pppp1ppp");
        let r = claim("fide-standard", "white", &pgn, &wrong);
        assert_eq!(outcome(&r, FinalPosition), Fail);
    }

    #[test]
    fn claimed_clocks_that_the_scoresheet_contradicts_are_referred() {
        // The scoresheet shows White 0:19:00 after 2. Bb5+; a claim that White
        // had 0:04:45 on Black's move contradicts it: both figures, refer.
        let pgn = sheet("0:19:00", "0:18:00", "");
        let r = claim(
            "bcf-rapid",
            "white",
            &pgn,
            "clock_white = \"0:04:45\"\nclock_black = \"0:18:00\"",
        );
        let c = r.check(Clocks).expect("check");
        assert_eq!(c.outcome, Fail);
        assert_eq!(
            c.detail,
            "the clocks conflict: White 0:04:45 in the claim, 0:19:00 on the scoresheet after 2. Bb5+: more time gone than one move explains"
        );
        assert_eq!(r.recommendation, Recommendation::Refer);
        // White's clock ran from 2... Kd7 to the claim: some seconds less
        // than after 2. Bb5+ is what the record predicts (issue 29).
        let r = claim(
            "bcf-rapid",
            "white",
            &pgn,
            "clock_white = \"0:18:50\"\nclock_black = \"0:18:00\"",
        );
        assert_eq!(outcome(&r, Clocks), Pass);
        // Black's clock stopped when Black moved: a change there conflicts.
        let r = claim(
            "bcf-rapid",
            "white",
            &pgn,
            "clock_white = \"0:18:50\"\nclock_black = \"0:17:55\"",
        );
        assert_eq!(outcome(&r, Clocks), Fail);
        assert!(
            r.detail.contains("Black 0:17:55 in the claim, 0:18:00 on the scoresheet after 2... Kd7: a change on a clock that was not running"),
            "{}",
            r.detail
        );
    }

    #[test]
    fn the_bcf_clock_limit() {
        let r = claim("bcf-rapid", "white", &sheet("0:04:59", "0:18:00", ""), "");
        assert_eq!(outcome(&r, ClockLimit), Pass);
        assert_eq!(r.result_if_upheld, "1-0");
        // White's clock ran from 2... Kd7 to the claim: 5:00 on the sheet
        // is only its most, and under 5:00 the move would lose. Not
        // stated: the record is incomplete.
        let on_limit = sheet("0:05:00", "0:05:00", "");
        let r = claim("bcf-rapid", "white", &on_limit, "");
        assert_eq!(outcome(&r, Clocks), Unknown);
        assert_eq!(r.recommendation, Recommendation::Refer);
        assert!(
            r.detail.contains("White's clock is not stated in the claim, and 0:05:00 on the scoresheet after 2. Bb5+ is only the most it can have been (it ran since); whether it was under 5:00 decides the ruling"),
            "{}",
            r.detail
        );
        // Both readings said: the clock limit not settled (it said "both
        // players had 5:00 or more"), and what upholding gives under each.
        assert_eq!(outcome(&r, ClockLimit), Unknown);
        assert_eq!(
            r.check(ClockLimit).map(|c| c.detail.as_str()),
            Some("the move loses if White's clock was under 5:00, and not otherwise: the record does not show which")
        );
        assert!(
            r.result_if_upheld.starts_with("play continues")
                && r.result_if_upheld
                    .ends_with("; 1-0 if White's clock was under 5:00 (BCF RP 12)"),
            "{}",
            r.result_if_upheld
        );
        // Stated, and at the figure: no loss.
        let r = claim(
            "bcf-rapid",
            "white",
            &on_limit,
            "clock_white = \"0:05:00\"\nclock_black = \"0:05:00\"",
        );
        assert_eq!(outcome(&r, ClockLimit), NotApplicable);
        assert_eq!(r.recommendation, Recommendation::Uphold);
        assert!(r.result_if_upheld.starts_with("play continues"));
        // A claimant with a bare king: the loss would be a draw, cited with
        // the rule that makes it one.
        let bare = "[SetUp \"1\"]\n[FEN \"q7/8/8/8/8/5k2/8/7K w - - 0 50\"]\n\n50. Kg1 {[%clk 0:05:00]} Kf2 {[%clk 0:10:00]} *\n";
        let r = claim("bcf-rapid", "white", bare, "");
        assert!(
            r.result_if_upheld
                .ends_with("; 1/2-1/2 if White's clock was under 5:00 (BCF RP 12; FIDE 7.5.5)"),
            "{}",
            r.result_if_upheld
        );
        let no_clocks = "1. e4 d5 2. Bb5+ Kd7 *\n";
        let r = claim("bcf-rapid", "white", no_clocks, "");
        assert_eq!(outcome(&r, ClockLimit), Unknown);
        assert_eq!(r.recommendation, Recommendation::Refer);
    }

    #[test]
    fn a_second_illegal_move_loses_under_fide() {
        let pgn = sheet("0:19:00", "0:18:00", "");
        let r = claim("fide-standard", "white", &pgn, "previous_illegal = 1");
        assert_eq!(outcome(&r, SecondIllegal), Pass);
        assert_eq!(r.result_if_upheld, "1-0");
        assert_eq!(r.rule, "FIDE 7.5.5");
        let r = claim("fide-standard", "white", &pgn, "");
        assert!(r.check(SecondIllegal).is_none());
        assert!(r.result_if_upheld.starts_with("play continues"));
    }
}
