//! A claim of an illegal move: found on the scoresheet, claimed in time,
//! and what it costs, by the ladder in `judge::policy`.

use super::{
    answer_finding, check, clock_of, conflicting_evidence, position_checks, side_name, win, DRAW,
};
use crate::{
    analysis::illegal::why_illegal,
    claim::{CheckOutcome, Recommendation, Ruling},
    judge::policy::{self, mmss, Board, Found, IllegalFacts, IllegalMove, LossGround},
    model::{Clock, Side},
};

pub(super) fn judge(r: &mut Ruling) {
    let rules = r.claim.ruleset.clone();
    let im_rules = &rules.illegal_move;
    let claimant = r.claim.claimant;
    let offender = claimant.other();
    let (cw, ow) = (side_name(claimant), side_name(offender));
    r.checks.push(check(
        "kind-allowed",
        CheckOutcome::Pass,
        &im_rules.reinstate_rule,
        "a completed illegal move may be claimed by the opponent",
    ));
    position_checks(r, &im_rules.reinstate_rule, false);
    r.result_if_rejected = "play continues; the move stands".into();
    if let Some(c) = conflicting_evidence(r).filter(|c| c.name == "clocks") {
        r.recommendation = Recommendation::Refer;
        r.rule = im_rules.reinstate_rule.clone();
        r.result_if_upheld = "-".into();
        r.detail = format!("the evidence conflicts: {}", c.detail);
        return;
    }
    let Some(im) = r.evidence.last_illegal().cloned() else {
        r.checks.push(check(
            "illegal-move-found",
            if r.evidence.rows.is_empty() {
                CheckOutcome::Unknown
            } else {
                CheckOutcome::Fail
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
            CheckOutcome::Fail,
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
        CheckOutcome::Pass,
        &im_rules.reinstate_rule,
        match why_illegal(&r.evidence.position, im.as_moved) {
            Some(why) if !im.stood => format!("{named} by {ow} is illegal: {why}"),
            _ => format!("{named} by {ow} is illegal"),
        },
    ));
    // Completed illegal moves before this one: those the claim states, and
    // any earlier one on the scoresheet by the same player.
    let on_sheet = r
        .evidence
        .illegal
        .iter()
        .filter(|i| i.side == offender && i.ply < im.ply)
        .count();
    let prior = (r.claim.previous_illegal as usize).max(on_sheet);
    // The ladder is the policy's, as for a game; here it is worded as checks.
    let ruling = policy::illegal_move(
        &rules,
        IllegalFacts {
            mover: offender,
            replies: im.replies,
            found: Found::Claimed,
            prior_by_mover: prior,
            clocks: r.clocks,
        },
    );
    if im.replies > 0 {
        let stands = ruling.value == IllegalMove::Stands;
        r.checks.push(check(
            "claimed-in-time",
            if stands {
                CheckOutcome::Fail
            } else {
                CheckOutcome::Pass
            },
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
            r.rule = ruling.rule;
            r.result_if_upheld = "-".into();
            r.detail = format!("{named} was not claimed before the reply: it stands");
            return;
        }
    } else {
        r.checks.push(check(
            "claimed-in-time",
            CheckOutcome::Pass,
            &im_rules.stands_rule,
            format!("claimed before {cw} replied"),
        ));
    }
    if let (Some(limit), Some(limit_rule)) =
        (im_rules.loses_under_seconds, &im_rules.loses_under_rule)
    {
        let (outcome, detail) = match &ruling.value {
            IllegalMove::Loses(LossGround::ClockUnder(..)) => {
                let under: Vec<String> = [Side::White, Side::Black]
                    .into_iter()
                    .filter_map(|s| {
                        clock_of(r, s)
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
            _ => (
                CheckOutcome::Fail,
                format!("both players had {} or more", mmss(limit)),
            ),
        };
        r.checks
            .push(check("clock-limit", outcome, limit_rule, detail));
    }
    if prior > 0
        && !matches!(
            ruling.value,
            IllegalMove::Loses(LossGround::ClockUnder(..) | LossGround::FirstLoses)
                | IllegalMove::ClocksUnknown { .. }
        )
    {
        r.checks.push(check(
            "second-illegal",
            if im_rules.second_loses {
                CheckOutcome::Pass
            } else {
                CheckOutcome::NotApplicable
            },
            &im_rules.second_rule,
            format!("{ow} had already completed {prior} illegal move(s) this game"),
        ));
    }
    r.recommendation = Recommendation::Uphold;
    let rule = ruling.rule;
    match ruling.value {
        IllegalMove::Loses(ground) => {
            let why = match &ground {
                LossGround::ClockUnder(..) => r
                    .check("clock-limit")
                    .map_or_else(|| ground.why(), |c| c.detail.clone()),
                LossGround::FirstLoses => "an illegal move loses on a claim".to_string(),
                LossGround::Second(_) => {
                    format!("{ow} had already completed {prior} illegal move(s) this game")
                }
            };
            let pos = r.evidence.position.clone();
            let mut board = Board::new(pos.clone(), &rules);
            let answer = policy::loss_stands(&mut board, claimant);
            let (o, d) = answer_finding(r, &pos, claimant, &answer);
            r.checks.push(check(
                "claimant-can-mate",
                o,
                &im_rules.second_rule,
                d.clone(),
            ));
            match o {
                CheckOutcome::Fail => {
                    r.result_if_upheld = DRAW.into();
                    r.rule = rule.and(&im_rules.second_rule);
                    r.detail = format!("{named} is illegal and {why}, but {d}: drawn");
                }
                CheckOutcome::Unknown => {
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
        IllegalMove::ClocksUnknown { limit } => {
            r.recommendation = Recommendation::Refer;
            r.result_if_upheld = win(claimant);
            r.rule = rule;
            r.detail = format!(
                "{named} is illegal; whether either clock was under {} is not known",
                mmss(limit)
            );
        }
        IllegalMove::Stands | IllegalMove::Unnoticed => {
            // A claim is never unnoticed, and a reply was handled above.
            r.recommendation = Recommendation::Refer;
            r.rule = rule;
            r.result_if_upheld = "-".into();
            r.detail = format!("{named} is illegal");
        }
        IllegalMove::NotUnderLimit {
            penalty_seconds: pen,
            ..
        }
        | IllegalMove::Reinstated {
            penalty_seconds: pen,
        } => {
            let clock = clock_of(r, claimant)
                .map(|c| format!(" ({} to {})", c, Clock::secs(c.tenths / 10 + pen)))
                .unwrap_or_default();
            r.result_if_upheld = format!(
                "play continues from the position before {named}; {cw} +{}{clock}",
                mmss(pen)
            );
            r.rule = im_rules.reinstate_rule.and(&im_rules.penalty_rule);
            r.detail = format!(
                "{named} is illegal: the position before it is reinstated and {cw} gets {}",
                mmss(pen)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{outcome, ruling};
    use crate::claim::{CheckOutcome::*, Recommendation, Ruling};

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
        assert_eq!(outcome(&r, "illegal-move-found"), Fail);
        assert_eq!(r.recommendation, Recommendation::Reject);
        // Black's 2... Kd7 is illegal; Black cannot claim his own move.
        let r = claim(
            "fide-standard",
            "black",
            &sheet("0:19:00", "0:18:00", ""),
            "",
        );
        assert_eq!(outcome(&r, "illegal-move-found"), Fail);
        // Under FIDE A.5.2 it stands once White has replied.
        let r = claim(
            "fide-rapid",
            "white",
            &sheet("0:19:00", "0:18:00", "3. a3 "),
            "",
        );
        assert_eq!(outcome(&r, "claimed-in-time"), Fail);
        assert_eq!(r.rule, "FIDE A.5.2");
    }

    #[test]
    fn the_written_position_after_a_move_into_check_is_expected_to_be_illegal() {
        let pgn = sheet("0:19:00", "0:18:00", "");
        // After 2... Kd7?? as played: Black's king stands in the bishop's check.
        let fen = "final_fen = \"rnbq1bnr/pppkpppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR w KQ - 2 3\"";
        let r = claim("fide-standard", "white", &pgn, fen);
        let c = r.check("final-position").expect("check");
        assert_eq!(c.outcome, Pass, "{}", c.detail);
        assert!(
            c.detail.contains("Kd7 left on the board, as played"),
            "{}",
            c.detail
        );
        // A position that is neither: still a failed check.
        let wrong = fen.replace("pppkpppp", "pppp1ppp");
        let r = claim("fide-standard", "white", &pgn, &wrong);
        assert_eq!(outcome(&r, "final-position"), Fail);
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
        let c = r.check("clocks").expect("check");
        assert_eq!(c.outcome, Fail);
        assert_eq!(
            c.detail,
            "the clocks conflict: White 0:04:45 in the claim, 0:19:00 on the scoresheet after 2. Bb5+"
        );
        assert_eq!(r.recommendation, Recommendation::Refer);
        // The same figures as the sheet agree.
        let r = claim(
            "bcf-rapid",
            "white",
            &pgn,
            "clock_white = \"0:19:00\"\nclock_black = \"0:17:55\"",
        );
        assert_eq!(outcome(&r, "clocks"), Pass);
    }

    #[test]
    fn the_bcf_clock_limit() {
        let r = claim("bcf-rapid", "white", &sheet("0:04:59", "0:18:00", ""), "");
        assert_eq!(outcome(&r, "clock-limit"), Pass);
        assert_eq!(r.result_if_upheld, "1-0");
        let r = claim("bcf-rapid", "white", &sheet("0:05:00", "0:05:00", ""), "");
        assert_eq!(outcome(&r, "clock-limit"), Fail);
        assert!(r.result_if_upheld.starts_with("play continues"));
        let no_clocks = "1. e4 d5 2. Bb5+ Kd7 *\n";
        let r = claim("bcf-rapid", "white", no_clocks, "");
        assert_eq!(outcome(&r, "clock-limit"), Unknown);
        assert_eq!(r.recommendation, Recommendation::Refer);
    }

    #[test]
    fn a_second_illegal_move_loses_under_fide() {
        let pgn = sheet("0:19:00", "0:18:00", "");
        let r = claim("fide-standard", "white", &pgn, "previous_illegal = 1");
        assert_eq!(outcome(&r, "second-illegal"), Pass);
        assert_eq!(r.result_if_upheld, "1-0");
        assert_eq!(r.rule, "FIDE 7.5.5");
        let r = claim("fide-standard", "white", &pgn, "");
        assert!(r.check("second-illegal").is_none());
        assert!(r.result_if_upheld.starts_with("play continues"));
    }
}
