//! Which draw-claim procedure applies, and the procedural checks: the clock
//! window, on move, no increment, the deadline, both submissions, fees.

use shakmaty::Position;

use super::{check, clock_of, side_name, Draft};
use crate::{
    citation::Citation,
    claim::{Check, CheckId, CheckOutcome, ClaimKind},
    judge::policy::mmss,
    model::{Clock, Side},
    rules::{DrawClaimRules, FeePayers},
};

/// The draw-claim procedure for this claim, and how it was chosen.
pub(super) struct Chosen<'a> {
    pub(super) rules: Option<&'a DrawClaimRules>,
    pub(super) how: String,
    /// The claim does not say whether an arbiter was present, and the
    /// ruleset has a procedure for each: the one not chosen (`rules` is the
    /// ruleset's default). Which applies is then a fact missing, not
    /// presumed.
    pub(super) unstated_other: Option<&'a DrawClaimRules>,
}

pub(super) fn procedure(r: &Draft) -> Chosen<'_> {
    let c = &r.claim.ruleset.claims;
    fn plain(rules: Option<&DrawClaimRules>) -> Chosen<'_> {
        Chosen {
            rules,
            how: String::new(),
            unstated_other: None,
        }
    }
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
                ((Some(p), how), (other, _)) => Chosen {
                    rules: Some(p),
                    how: how.to_string(),
                    unstated_other: other.as_ref().filter(|_| r.claim.arbiter.is_none()),
                },
                (_, (Some(p), how)) => Chosen {
                    rules: Some(p),
                    how: format!("{how} (the only procedure the ruleset has)"),
                    unstated_other: None,
                },
                _ => plain(None),
            }
        }
        ClaimKind::InsufficientLosingChances => plain(c.insufficient_losing_chances.as_ref()),
        ClaimKind::ClearDrawAppeal => plain(c.clear_draw_appeal.as_ref()),
        _ => plain(None),
    }
}

pub(super) fn procedural_checks(r: &mut Draft, p: &DrawClaimRules) {
    let claimant = r.claim.claimant;
    let window = window_check(r, p);
    r.checks.push(window);
    if p.on_move {
        let on_move = on_move_check(r, p);
        r.checks.push(on_move);
    }
    if let (false, Some(increment_rule)) = (p.increment_allowed, &p.increment_rule) {
        let increment = increment_check(r, increment_rule);
        r.checks.push(increment);
    }
    if let (Some(days), Some(deadline_rule)) = (p.deadline_days, &p.deadline_rule) {
        let deadline = deadline_check(r, days, deadline_rule);
        r.checks.push(deadline);
    }
    if let (true, Some(submissions_rule)) = (p.both_submit, &p.submissions_rule) {
        let given = &r.claim.submitted_by;
        let missing: Vec<Side> = [Side::White, Side::Black]
            .into_iter()
            .filter(|s| !given.contains(s))
            .collect();
        r.checks.push(papers_check(
            CheckId::Submissions,
            submissions_rule,
            claimant,
            given.is_empty().then_some("not stated who submitted"),
            &missing,
            "both players submitted their papers, as the claim states",
            "no submission from",
        ));
    }
    if let (true, Some(fee_rule)) = (p.fee_payers != FeePayers::None, &p.fee_rule) {
        let paid = &r.claim.fees_paid;
        let owed: Vec<Side> = match p.fee_payers {
            FeePayers::Both => vec![Side::White, Side::Black],
            _ => vec![claimant],
        };
        let unpaid: Vec<Side> = owed.into_iter().filter(|s| !paid.contains(s)).collect();
        let fee = if p.fee.is_empty() {
            "the fee".to_string()
        } else {
            format!("the fee ({})", p.fee)
        };
        let unstated = format!("not stated whether {fee} was paid");
        r.checks.push(papers_check(
            CheckId::Fees,
            fee_rule,
            claimant,
            paid.is_empty().then_some(unstated.as_str()),
            &unpaid,
            &format!("{fee} paid"),
            &format!("{fee} not paid by"),
        ));
    }
}

/// The claimant's clock inside the window the rule allows, flag up.
fn window_check(r: &Draft, p: &DrawClaimRules) -> Check {
    let claimant = r.claim.claimant;
    let clock = clock_of(r, claimant);
    let who = side_name(claimant);
    match (p.window_seconds, clock) {
        (None, _) => check(
            CheckId::ClockWindow,
            CheckOutcome::NotApplicable,
            &p.window_rule,
            "the claim may be made at any time",
        ),
        (Some(_), None) => check(
            CheckId::ClockWindow,
            CheckOutcome::Unknown,
            &p.window_rule,
            format!("{who}'s clock at the claim is not known"),
        ),
        (Some(_), Some(c)) if c.is_zero() => check(
            CheckId::ClockWindow,
            CheckOutcome::Fail,
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
                CheckId::ClockWindow,
                if inside {
                    CheckOutcome::Pass
                } else {
                    CheckOutcome::Fail
                },
                &p.window_rule,
                if inside {
                    format!("{who} had {c} left: {bound} {} with the flag up", mmss(w))
                } else {
                    format!("{who} had {c} left: not {bound} {}", mmss(w))
                },
            )
        }
    }
}

/// The claimant on move, with the clock running.
fn on_move_check(r: &Draft, p: &DrawClaimRules) -> Check {
    let claimant = r.claim.claimant;
    let who = side_name(claimant);
    match &r.position {
        Some(pos) => {
            let to_move = Side::from(pos.turn());
            check(
                CheckId::OnMove,
                if to_move == claimant {
                    CheckOutcome::Pass
                } else {
                    CheckOutcome::Fail
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
            CheckId::OnMove,
            CheckOutcome::Unknown,
            &p.window_rule,
            "no final position",
        ),
    }
}

/// No increment or delay, by the tag or what the claim states.
fn increment_check(r: &Draft, increment_rule: &Citation) -> Check {
    // The tag's increment or delay (US notation), or what the claim states.
    let tc = &r.evidence.time_control;
    let delay = r.claim.delay.unwrap_or(r.evidence.clocks.delay);
    let stated_inc = r.claim.increment.unwrap_or(0);
    let (outcome, detail) = if tc.has_increment() {
        (
            CheckOutcome::Fail,
            format!("the time control {tc} has an increment"),
        )
    } else if stated_inc > 0 {
        (
            CheckOutcome::Fail,
            format!("the clock had a {stated_inc} s increment"),
        )
    } else if delay > 0 {
        (
            CheckOutcome::Fail,
            format!("the clock had a {delay} s delay ({tc})"),
        )
    } else {
        (CheckOutcome::Pass, format!("no increment or delay ({tc})"))
    };
    check(CheckId::Increment, outcome, increment_rule, detail)
}

/// The claim received within the days the rule allows.
fn deadline_check(r: &Draft, days: u32, deadline_rule: &Citation) -> Check {
    // The date of play as the claim gives it, else as the scoresheet's
    // Date tag does; two that differ leave the count undone.
    let sheet = crate::model::Date::parse(&r.evidence.tags.date);
    let (played, from_sheet) = match (r.claim.date, sheet) {
        (Some(d), Some(s)) if d != s => {
            return check(
                CheckId::Deadline,
                CheckOutcome::Unknown,
                deadline_rule,
                format!("the claim gives the date of play as {d} and the scoresheet's Date tag as {s}: the papers disagree, so the days to receipt cannot be counted (limit {days})"),
            )
        }
        (Some(d), _) => (Some(d), false),
        (None, s) => (s, s.is_some()),
    };
    match (played, r.claim.received) {
        (Some(d), Some(rec)) => {
            let took = rec.day_number() - d.day_number();
            let whose = if from_sheet {
                " (the scoresheet's Date tag)"
            } else {
                ""
            };
            check(
                CheckId::Deadline,
                if took <= i64::from(days) {
                    CheckOutcome::Pass
                } else {
                    CheckOutcome::Fail
                },
                deadline_rule,
                format!("received {rec}, {took} days after the match on {d}{whose} (limit {days})"),
            )
        }
        _ => check(
            CheckId::Deadline,
            CheckOutcome::Unknown,
            deadline_rule,
            format!("the date of play or of receipt is not given (limit {days} days)"),
        ),
    }
}

/// A check on what each player had to send or pay: failed only for the
/// claimant's own default; the opponent's is said and never held against
/// the claim (the side that gains from a failed claim cannot sink it by
/// staying silent).
pub(super) fn papers_check(
    id: CheckId,
    rule: &crate::citation::Citation,
    claimant: Side,
    unstated: Option<&str>,
    missing: &[Side],
    all_in: &str,
    not_in: &str,
) -> crate::claim::Check {
    if let Some(words) = unstated {
        return check(id, CheckOutcome::Unknown, rule, words);
    }
    let whose = |s: Side| {
        let role = if s == claimant {
            "the claimant"
        } else {
            "the opponent"
        };
        format!("{} ({role})", side_name(s))
    };
    if missing.contains(&claimant) {
        let who: Vec<String> = missing.iter().map(|s| whose(*s)).collect();
        return check(
            id,
            CheckOutcome::Fail,
            rule,
            format!("{not_in} {}", who.join(" or ")),
        );
    }
    match missing.first() {
        Some(&opp) => check(
            id,
            CheckOutcome::Pass,
            rule,
            format!(
                "{not_in} {}: not held against the claim, which is judged on the papers sent",
                whose(opp)
            ),
        ),
        None => check(id, CheckOutcome::Pass, rule, all_in),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{outcome, ruling};
    use crate::claim::{
        CheckId,
        CheckOutcome::{self, *},
    };

    const SHEET: &str = "[FEN \"8/8/3k4/3n3R/8/3K4/8/8 w - - 0 64\"]\n[SetUp \"1\"]\n[TimeControl \"5400\"]\n\n64. Rh6+ Ke5 65. Rh5+ *\n";

    fn window(rules: &str, clock: &str) -> CheckOutcome {
        let r = ruling(
            &format!("kind = \"draw-last-two-minutes\"\nruleset = \"{rules}\"\nclaimant = \"black\"\ngrounds = [\"cannot-win-by-normal-means\"]\nclock_black = \"{clock}\"\nclock_white = \"0:10:00\""),
            SHEET,
        );
        outcome(&r, CheckId::ClockWindow)
    }

    #[test]
    fn the_clock_window_is_under_two_minutes_with_the_flag_up() {
        assert_eq!(window("ecf-quickplay", "0:01:59"), Pass);
        assert_eq!(window("ecf-quickplay", "0:02:00"), Fail);
        assert_eq!(window("ecf-quickplay", "0:00:00"), Fail);
        assert_eq!(window("bcf-rapid", "0:01:00"), Pass);
    }

    #[test]
    fn a_clear_draw_appeal_may_be_made_at_any_time() {
        let r = ruling(
            "kind = \"clear-draw-appeal\"\nruleset = \"sabah-active30\"\nclaimant = \"black\"\nclock_black = \"0:06:30\"",
            SHEET,
        );
        assert_eq!(outcome(&r, CheckId::ClockWindow), NotApplicable);
    }

    #[test]
    fn guidelines_iii_need_a_control_without_increment() {
        let inc = SHEET.replace("5400", "5400+30");
        let claim = "kind = \"draw-last-two-minutes\"\nruleset = \"fide-standard\"\nclaimant = \"black\"\ngrounds = [\"cannot-win-by-normal-means\"]\nclock_black = \"0:01:00\"\nclock_white = \"0:10:00\"";
        let r = ruling(claim, &inc);
        assert_eq!(outcome(&r, CheckId::Increment), Fail);
        // No claim, so no rejection's two minutes (III.5.3) for the opponent.
        assert_eq!(r.result_if_rejected, "play continues, no penalty");
        let r = ruling(claim, SHEET);
        assert_eq!(outcome(&r, CheckId::Increment), Pass);
        assert!(
            r.result_if_rejected
                .starts_with("play continues; White +2:00"),
            "{}",
            r.result_if_rejected
        );
    }

    #[test]
    fn uscf_14h_is_not_available_with_a_delay_clock() {
        let claim = "kind = \"insufficient-losing-chances\"\nruleset = \"uscf\"\nclaimant = \"black\"\nclock_black = \"0:01:30\"\nclock_white = \"0:10:00\"";
        let delay = SHEET.replace("[TimeControl \"5400\"]", "[TimeControl \"G/30;d5\"]");
        let r = ruling(claim, &delay);
        let c = r.check(CheckId::Increment).expect("check");
        assert_eq!(c.outcome, Fail);
        assert_eq!(c.detail, "the clock had a 5 s delay (1800)");
        assert_eq!(r.recommendation, crate::claim::Recommendation::Reject);
        assert_eq!(r.rule, "USCF 14H1");
        // A claim may state the clock's delay or increment itself.
        let r = ruling(&format!("{claim}\ndelay = 5"), SHEET);
        assert_eq!(outcome(&r, CheckId::Increment), Fail);
        let r = ruling(&format!("{claim}\nincrement = 2"), SHEET);
        assert_eq!(outcome(&r, CheckId::Increment), Fail);
        let r = ruling(claim, SHEET);
        assert_eq!(outcome(&r, CheckId::Increment), Pass);
    }

    #[test]
    fn deadline_submissions_and_fees_of_ecf_qpf_13() {
        let claim = |received: &str, extra: &str| {
            ruling(
                &format!("kind = \"draw-last-two-minutes\"\nruleset = \"ecf-quickplay\"\nclaimant = \"black\"\ngrounds = [\"cannot-win-by-normal-means\"]\nclock_black = \"0:01:00\"\nclock_white = \"0:10:00\"\ndate = 2009-11-12\nreceived = {received}\n{extra}"),
                SHEET,
            )
        };
        assert_eq!(outcome(&claim("2009-11-24", ""), CheckId::Deadline), Pass);
        assert_eq!(outcome(&claim("2009-11-25", ""), CheckId::Deadline), Fail);
        // The opponent (White) sent nothing: said, never held against the
        // claimant (issue 29).
        let r = claim(
            "2009-11-24",
            "submitted_by = [\"black\"]\nfees_paid = [\"black\", \"white\"]",
        );
        let c = r.check(CheckId::Submissions).expect("check");
        assert_eq!(c.outcome, Pass);
        assert_eq!(
            c.detail,
            "no submission from White (the opponent): not held against the claim, which is judged on the papers sent"
        );
        assert_eq!(outcome(&r, CheckId::Fees), Pass);
        // Referred for the extract alone (ECF QPF 14 wants the whole game).
        assert_eq!(r.recommendation, crate::claim::Recommendation::Refer);
        assert!(!r.detail.contains("submission"), "{}", r.detail);
        // The claimant's own papers missing: not in order, and QPF 13 says
        // no more, so referred (not a loss), with what the merits give.
        let r = claim(
            "2009-11-24",
            "submitted_by = [\"white\"]\nfees_paid = [\"black\"]",
        );
        let c = r.check(CheckId::Submissions).expect("check");
        assert_eq!(c.outcome, Fail);
        assert_eq!(c.detail, "no submission from Black (the claimant)");
        assert_eq!(r.recommendation, crate::claim::Recommendation::Refer);
        assert_eq!(r.rule, "ECF QPF 13");
        assert!(
            r.detail.starts_with("the claimant's papers are not in order: no submission from Black (the claimant); ECF QPF 13 states no consequence for that, so it is for whoever decides the claim; on its merits"),
            "{}",
            r.detail
        );
        // Late, the same.
        let r = claim(
            "2009-11-25",
            "submitted_by = [\"white\", \"black\"]\nfees_paid = [\"black\", \"white\"]",
        );
        assert_eq!(outcome(&r, CheckId::Deadline), Fail);
        assert_eq!(r.recommendation, crate::claim::Recommendation::Refer);
        assert_eq!(r.rule, "ECF QPF 13");
        let r = claim("2009-11-24", "");
        assert_eq!(outcome(&r, CheckId::Submissions), Unknown);
        assert_eq!(outcome(&r, CheckId::Fees), Unknown);
    }
}
