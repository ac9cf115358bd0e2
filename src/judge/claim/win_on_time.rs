//! A claim of a win on time: the opponent's flag down, the claimant's up,
//! and the claimant able to win, as `judge::policy` decides for games too.

use shakmaty::Position;

use super::{
    answer_finding, check, clock_of, conflicting_evidence, position_checks, side_name, win, DRAW,
};
use crate::{
    analysis::{forced::Syzygy, mate::Mateability},
    citation::Citation,
    claim::{CheckOutcome, Recommendation, Ruling},
    judge::policy::{self, Board, BothFlags, BothFlagsFacts},
    model::{Clock, Side},
};

/// Can the claimant still win, by the ruleset's flag test (the same
/// `policy::win_test` a game's flag fall asks, tablebase included)?
fn claimant_can_win(
    r: &mut Ruling,
    side: Side,
    syzygy: Option<&Syzygy>,
) -> Option<(CheckOutcome, String, Citation)> {
    let pos = r.position.clone()?;
    let rules = r.claim.ruleset.clone();
    let mut board = Board::new(pos.clone(), &rules);
    let t = policy::win_test(&rules, &mut board, side, syzygy);
    let who = side_name(side);
    let (outcome, detail) = match (&t.uscf, &t.answer) {
        (Some((par, why)), _) => match t.verdict {
            Mateability::Winnable => (CheckOutcome::Pass, format!("{who} keeps the win: {why}")),
            Mateability::Unwinnable => (CheckOutcome::Fail, format!("USCF {par}: {why}")),
            Mateability::Undetermined => (CheckOutcome::Unknown, format!("USCF {par}: {why}")),
        },
        (None, Some(a)) => answer_finding(r, &pos, side, a),
        (None, None) => (CheckOutcome::Unknown, String::new()),
    };
    Some((outcome, detail, t.rule))
}

pub(super) fn judge(r: &mut Ruling, syzygy: Option<&Syzygy>) {
    let rules = r.claim.ruleset.clone();
    let claimant = r.claim.claimant;
    let opponent = claimant.other();
    r.checks.push(check(
        "kind-allowed",
        CheckOutcome::Pass,
        &rules.flag.rule,
        format!(
            "a player may claim a win when the opponent's flag falls ({})",
            rules.flag.callers_rule
        ),
    ));
    position_checks(r, &rules.flag.rule, false);
    let own = clock_of(r, claimant);
    let theirs = clock_of(r, opponent);
    let (cw, ow) = (side_name(claimant), side_name(opponent));
    r.checks.push(match own {
        Some(c) if c.is_zero() => check(
            "claimant-flag-up",
            CheckOutcome::Fail,
            &rules.flag.rule,
            format!("{cw}'s own flag is down too ({c})"),
        ),
        Some(c) => check(
            "claimant-flag-up",
            CheckOutcome::Pass,
            &rules.flag.rule,
            format!("{cw}'s flag is up ({c})"),
        ),
        None => check(
            "claimant-flag-up",
            CheckOutcome::Unknown,
            &rules.flag.rule,
            format!("{cw}'s clock is not known"),
        ),
    });
    r.checks.push(match theirs {
        Some(c) if c.is_zero() => check(
            "opponent-flag-down",
            CheckOutcome::Pass,
            &rules.flag.rule,
            format!("{ow}'s flag is down ({c})"),
        ),
        Some(c) => check(
            "opponent-flag-down",
            CheckOutcome::Fail,
            &rules.flag.rule,
            format!("{ow}'s flag is not down ({c} left)"),
        ),
        None => check(
            "opponent-flag-down",
            CheckOutcome::Unknown,
            &rules.flag.rule,
            format!("{ow}'s clock is not known"),
        ),
    });
    if let Some(c) = conflicting_evidence(r) {
        r.recommendation = Recommendation::Refer;
        r.result_if_upheld = win(claimant);
        r.result_if_rejected = "play continues".into();
        r.rule = rules.flag.rule.clone();
        r.detail = format!("the evidence conflicts: {}", c.detail);
        return;
    }
    let both_down = own.is_some_and(Clock::is_zero) && theirs.is_some_and(Clock::is_zero);
    if both_down {
        // The same both-flags decision a game gets: the period from the real
        // move number, and whose flag the record shows falling first.
        let next_move = r
            .position
            .as_ref()
            .map_or_else(|| r.evidence.next_move(), |p| p.fullmoves().get());
        let facts = BothFlagsFacts {
            tc: &r.evidence.time_control,
            next_move,
            first_fell: r.evidence.clocks.first_fell().map(|(s, _)| s),
        };
        let (ruling, period) = policy::both_flags(&rules, facts);
        let rule = ruling.rule;
        r.checks.push(check(
            "both-flags-down",
            CheckOutcome::Fail,
            &rule,
            format!(
                "both flags are down, {} of {}: no win on time can be claimed",
                period.words(),
                r.evidence.time_control
            ),
        ));
        r.result_if_upheld = win(claimant);
        match ruling.value {
            BothFlags::Draw => {
                r.recommendation = Recommendation::Reject;
                r.result_if_rejected = DRAW.into();
                r.detail = format!("both flags are down: the game is drawn ({rule})");
            }
            BothFlags::Continue => {
                r.recommendation = Recommendation::Reject;
                r.result_if_rejected =
                    "play continues (both flags down before the last period)".into();
                r.detail =
                    format!("both flags fell before the last period: play continues ({rule})");
            }
            BothFlags::Review => {
                r.recommendation = Recommendation::Refer;
                r.result_if_rejected = DRAW.into();
                r.detail =
                    format!("both flags fell before the last period: an arbiter decides ({rule})");
            }
            BothFlags::FirstFell(side) => {
                let winner = side.other();
                r.recommendation = if winner == claimant {
                    Recommendation::Uphold
                } else {
                    Recommendation::Reject
                };
                r.result_if_rejected = win(opponent);
                r.detail = format!(
                    "both flags are down, and the record shows {}'s fell first: that flag decides ({rule})",
                    side_name(side)
                );
            }
        }
        r.rule = rule;
        return;
    }
    r.result_if_upheld = win(claimant);
    r.result_if_rejected = "play continues".into();
    let mate = claimant_can_win(r, claimant, syzygy);
    if let Some((o, d, rule)) = &mate {
        r.checks
            .push(check("claimant-can-mate", *o, rule, d.clone()));
    }
    let get = |r: &Ruling, n: &str| r.check(n).map(|c| c.outcome);
    if get(r, "claimant-flag-up") == Some(CheckOutcome::Fail) {
        r.recommendation = Recommendation::Reject;
        r.rule = rules.flag.rule.clone();
        r.detail = format!("{cw}'s own flag is down: no claim");
        return;
    }
    if get(r, "opponent-flag-down") == Some(CheckOutcome::Fail) {
        r.recommendation = Recommendation::Reject;
        r.rule = rules.flag.rule.clone();
        r.detail = format!("{ow}'s flag had not fallen");
        return;
    }
    if [get(r, "claimant-flag-up"), get(r, "opponent-flag-down")]
        .contains(&Some(CheckOutcome::Unknown))
    {
        r.recommendation = Recommendation::Refer;
        r.rule = rules.flag.rule.clone();
        r.detail = "the clocks at the claim are not known".into();
        return;
    }
    match mate {
        Some((CheckOutcome::Pass, d, _)) => {
            r.recommendation = Recommendation::Uphold;
            r.rule = rules.flag.rule.clone();
            r.detail = format!("{ow}'s flag fell with {cw}'s up; {d}");
        }
        Some((CheckOutcome::Fail, d, rule)) => {
            r.recommendation = Recommendation::Reject;
            r.result_if_rejected = DRAW.into();
            r.rule = rule;
            r.detail = format!("{ow}'s flag fell but {d}: drawn");
        }
        Some((_, _, rule)) => {
            r.recommendation = Recommendation::Refer;
            r.rule = rule;
            r.detail = "whether the claimant can mate is not settled".into();
        }
        None => {
            r.recommendation = Recommendation::Refer;
            r.rule = rules.flag.rule.clone();
            r.detail = "whether the claimant can mate is not settled".into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{outcome, ruling};
    use crate::claim::{CheckOutcome::*, Recommendation};

    const KNP: &str =
        "[FEN \"8/5k2/8/3n4/8/2P5/1K6/8 w - - 0 60\"]\n[SetUp \"1\"]\n\n60. Kb3 Ke6 *\n";

    fn claim(rules: &str, w: &str, b: &str, pgn: &str) -> crate::claim::Ruling {
        ruling(
            &format!("kind = \"win-on-time\"\nruleset = \"{rules}\"\nclaimant = \"black\"\nclock_white = \"{w}\"\nclock_black = \"{b}\""),
            pgn,
        )
    }

    #[test]
    fn flags_and_the_claimants_chances() {
        let r = claim("ecf-quickplay", "0:00:00", "0:04:00", KNP);
        assert_eq!(outcome(&r, "claimant-flag-up"), Pass);
        assert_eq!(outcome(&r, "opponent-flag-down"), Pass);
        assert_eq!(outcome(&r, "claimant-can-mate"), Pass);
        assert_eq!(r.recommendation, Recommendation::Uphold);
        let r = claim("ecf-quickplay", "0:00:05", "0:04:00", KNP);
        assert_eq!(outcome(&r, "opponent-flag-down"), Fail);
        assert_eq!(r.recommendation, Recommendation::Reject);
        let bare = KNP.replace("3n4", "8");
        let r = claim("ecf-quickplay", "0:00:00", "0:04:00", &bare);
        assert_eq!(outcome(&r, "claimant-can-mate"), Fail);
        assert_eq!(r.result_if_rejected, "1/2-1/2");
        assert_eq!(r.rule, "ECF QPF 9");
    }

    #[test]
    fn both_flags_down_is_decided_by_the_both_flags_policy() {
        let r = claim("sabah-active30", "0:00:00", "0:00:00", KNP);
        assert_eq!(outcome(&r, "both-flags-down"), Fail);
        assert_eq!(r.recommendation, Recommendation::Reject);
        assert_eq!(r.result_if_rejected, "1/2-1/2");
        assert_eq!(r.rule, "Sabah iii.2");
    }
}
