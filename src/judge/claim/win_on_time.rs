//! A claim of a win on time: the opponent's flag down, the claimant's up,
//! and the claimant able to win, as `judge::policy` decides for games too.

use shakmaty::Position;

use super::{
    answer_finding, clock_of, position_checks, side_name, win, Draft, Merits, Outcome, DRAW,
};
use crate::{
    analysis::{forced::Syzygy, mate::Mateability},
    citation::Citation,
    claim::{CheckId, CheckOutcome},
    judge::policy::{self, Board, BothFlags, BothFlagsFacts},
    model::{Clock, Side},
};

/// Can the claimant still win, by the ruleset's flag test (the same
/// `policy::win_test` a game's flag fall asks, tablebase included)?
fn claimant_can_win(
    d: &mut Draft,
    side: Side,
    syzygy: Option<&Syzygy>,
) -> Option<(CheckOutcome, String, Citation)> {
    let pos = d.position.clone()?;
    let rules = d.claim.ruleset.clone();
    let mut board = Board::new(pos.clone(), &rules);
    let t = policy::win_test(&rules, &mut board, side, syzygy);
    let who = side_name(side);
    let (outcome, detail) = match (&t.uscf, &t.answer) {
        (Some((par, why)), _) => match t.verdict {
            Mateability::Winnable => (CheckOutcome::Pass, format!("{who} keeps the win: {why}")),
            Mateability::Unwinnable => (CheckOutcome::Fail, format!("USCF {par}: {why}")),
            Mateability::Undetermined => (CheckOutcome::Unknown, format!("USCF {par}: {why}")),
        },
        (None, Some(a)) => answer_finding(d, &pos, side, a),
        (None, None) => (CheckOutcome::Unknown, String::new()),
    };
    Some((outcome, detail, t.rule))
}

/// A flag check: `down` is whether this side's flag should be down for
/// the claim to stand.
fn flag_check(d: &mut Draft, id: CheckId, side: Side, down: bool, rule: &Citation) {
    let who = side_name(side);
    let (outcome, detail) = match clock_of(d, side) {
        Some(c) if c.is_zero() == down => (
            CheckOutcome::Pass,
            if down {
                format!("{who}'s flag is down ({c})")
            } else {
                format!("{who}'s flag is up ({c})")
            },
        ),
        Some(c) => (
            CheckOutcome::Fail,
            if down {
                format!("{who}'s flag is not down ({c} left)")
            } else {
                format!("{who}'s own flag is down too ({c})")
            },
        ),
        None => (CheckOutcome::Unknown, format!("{who}'s clock is not known")),
    };
    d.push(id, outcome, rule, detail);
}

pub(super) fn judge(d: &mut Draft, syzygy: Option<&Syzygy>) -> Outcome {
    let rules = d.claim.ruleset.clone();
    let flag_rule = &rules.flag.rule;
    let claimant = d.claim.claimant;
    let opponent = claimant.other();
    d.push(
        CheckId::KindAllowed,
        CheckOutcome::Pass,
        flag_rule,
        format!(
            "a player may claim a win when the opponent's flag falls ({})",
            rules
                .flag
                .claim_rule
                .as_ref()
                .unwrap_or(&rules.flag.callers_rule)
        ),
    );
    position_checks(d, flag_rule, false);
    flag_check(d, CheckId::ClaimantFlagUp, claimant, false, flag_rule);
    flag_check(d, CheckId::OpponentFlagDown, opponent, true, flag_rule);
    let (cw, ow) = (side_name(claimant), side_name(opponent));
    let mut out = Outcome {
        merits: Merits::Open(flag_rule.clone(), String::new()),
        if_upheld: win(claimant),
        if_rejected: "play continues".into(),
        if_not_in_order: None,
        refer_rule: flag_rule.clone(),
        refer_note: String::new(),
        line_only_if_rejected: false,
        merits_need_clocks: true,
    };
    let own = clock_of(d, claimant);
    let theirs = clock_of(d, opponent);
    if own.is_some_and(Clock::is_zero) && theirs.is_some_and(Clock::is_zero) {
        both_flags(d, &mut out);
        return out;
    }
    let outcome = |d: &Draft, id| d.check(id).map(|c| c.outcome);
    // The claimant's chances, whatever the flags: a claim upheld by a
    // claimant who cannot mate is a draw (FIDE 6.9, ECF QPF 9), so that
    // is what "if upheld" gives.
    let mate = claimant_can_win(d, claimant, syzygy);
    if let Some((o, detail, rule)) = &mate {
        d.push(CheckId::ClaimantCanMate, *o, rule, detail.clone());
        if *o == CheckOutcome::Fail {
            out.if_upheld = DRAW.into();
        }
    }
    out.merits = if outcome(d, CheckId::ClaimantFlagUp) == Some(CheckOutcome::Fail) {
        Merits::Fails(
            flag_rule.clone(),
            format!("{cw}'s own flag is down: no claim"),
        )
    } else if outcome(d, CheckId::OpponentFlagDown) == Some(CheckOutcome::Fail) {
        Merits::Fails(flag_rule.clone(), format!("{ow}'s flag had not fallen"))
    } else {
        let clocks_known = ![CheckId::ClaimantFlagUp, CheckId::OpponentFlagDown]
            .into_iter()
            .any(|id| outcome(d, id) == Some(CheckOutcome::Unknown));
        // Papers at odds refer before the merits: a rejection then may be
        // that the flag never fell, and play goes on.
        let papers_agree = ![CheckId::Clocks, CheckId::Scoresheet, CheckId::FinalPosition]
            .into_iter()
            .any(|id| outcome(d, id) == Some(CheckOutcome::Fail));
        match mate {
            Some((CheckOutcome::Fail, detail, rule)) => {
                out.if_rejected = DRAW.into();
                Merits::Fails(rule, format!("{ow}'s flag fell but {detail}: drawn"))
            }
            _ if !clocks_known => Merits::Open(
                flag_rule.clone(),
                "the clocks at the claim are not known".into(),
            ),
            Some((CheckOutcome::Pass, detail, _)) => Merits::Holds(
                flag_rule.clone(),
                format!("{ow}'s flag fell with {cw}'s up; {detail}"),
            ),
            // The flag is down: a claim that fails on the claimant's
            // chances leaves a draw, not a game to play on.
            open => {
                if papers_agree {
                    out.if_rejected = DRAW.into();
                }
                let rule = open.map_or_else(|| flag_rule.clone(), |(_, _, rule)| rule);
                Merits::Open(rule, "whether the claimant can mate is not settled".into())
            }
        }
    };
    out
}

/// Both flags down: the same both-flags decision a game gets, from the
/// period by the real move number and whose flag the record shows first.
fn both_flags(d: &mut Draft, out: &mut Outcome) {
    let rules = d.claim.ruleset.clone();
    let claimant = d.claim.claimant;
    let next_move = d
        .position
        .as_ref()
        .map_or_else(|| d.evidence.next_move(), |p| p.fullmoves().get());
    let facts = BothFlagsFacts {
        tc: &d.evidence.time_control,
        next_move,
        first_fell: d.evidence.clocks.first_fell().map(|(s, _)| s),
    };
    let (ruling, period) = policy::both_flags(&rules, facts);
    let rule = ruling.rule;
    let detail = format!(
        "both flags are down, {} of {}: no win on time can be claimed",
        period.words(),
        d.evidence.time_control
    );
    d.push(CheckId::BothFlagsDown, CheckOutcome::Fail, &rule, detail);
    out.merits = match ruling.value {
        BothFlags::Draw => {
            out.if_rejected = DRAW.into();
            Merits::Fails(
                rule.clone(),
                format!("both flags are down: the game is drawn ({rule})"),
            )
        }
        BothFlags::Continue => {
            out.if_rejected = "play continues (both flags down before the last period)".into();
            Merits::Fails(
                rule.clone(),
                format!("both flags fell before the last period: play continues ({rule})"),
            )
        }
        BothFlags::Review => {
            out.if_rejected = DRAW.into();
            Merits::Open(
                rule.clone(),
                format!("both flags fell before the last period: an arbiter decides ({rule})"),
            )
        }
        BothFlags::FirstFell(side) => {
            out.if_rejected = win(claimant.other());
            let detail = format!(
                "both flags are down, and the record shows {}'s fell first: that flag decides ({rule})",
                side_name(side)
            );
            if side.other() == claimant {
                Merits::Holds(rule.clone(), detail)
            } else {
                Merits::Fails(rule.clone(), detail)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::super::testing::{outcome, ruling};
    use crate::claim::{CheckId::*, CheckOutcome::*, Recommendation};

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
        assert_eq!(outcome(&r, ClaimantFlagUp), Pass);
        assert_eq!(outcome(&r, OpponentFlagDown), Pass);
        assert_eq!(outcome(&r, ClaimantCanMate), Pass);
        assert_eq!(r.recommendation, Recommendation::Uphold);
        let r = claim("ecf-quickplay", "0:00:05", "0:04:00", KNP);
        assert_eq!(outcome(&r, OpponentFlagDown), Fail);
        assert_eq!(r.recommendation, Recommendation::Reject);
        let bare = KNP.replace("3n4", "8");
        let r = claim("ecf-quickplay", "0:00:00", "0:04:00", &bare);
        assert_eq!(outcome(&r, ClaimantCanMate), Fail);
        assert_eq!(r.result_if_rejected, "1/2-1/2");
        assert_eq!(r.rule, "ECF QPF 9");
    }

    /// USCF 14E2 with no forced win found and no table: referred, and a
    /// rejection leaves the game drawn, the flag being down.
    #[test]
    fn a_referred_flag_claim_is_drawn_if_rejected() {
        let r = ruling(
            "kind = \"win-on-time\"\nruleset = \"uscf\"\nclaimant = \"white\"\nclock_white = \"0:01:00\"\nclock_black = \"0:00:00\"\nfinal_fen = \"8/8/8/8/8/p1k5/4K3/2N5 w - - 6 73\"",
            "[FEN \"8/8/8/8/8/p1k5/4K3/2N5 w - - 6 73\"]\n[SetUp \"1\"]\n\n*\n",
        );
        assert_eq!(outcome(&r, ClaimantCanMate), Unknown);
        assert_eq!(r.recommendation, Recommendation::Refer);
        assert_eq!(r.result_if_upheld, "1-0");
        assert_eq!(r.result_if_rejected, "1/2-1/2");
        // The stated clock at odds with the scoresheet's: referred for
        // that, and a rejection may be that no flag fell.
        let r = ruling(
            "kind = \"win-on-time\"\nruleset = \"uscf\"\nclaimant = \"white\"\nclock_white = \"0:01:00\"\nclock_black = \"0:00:00\"",
            "[FEN \"8/8/8/8/8/p1k5/4K3/2N5 w - - 6 73\"]\n[SetUp \"1\"]\n\n73. Kd1 { [%clk 0:05:00] } *\n",
        );
        assert_eq!(outcome(&r, Clocks), Fail, "{:?}", r.checks);
        assert_eq!(r.recommendation, Recommendation::Refer);
        assert_eq!(r.result_if_rejected, "play continues");
    }

    #[test]
    fn both_flags_down_is_decided_by_the_both_flags_policy() {
        let r = claim("sabah-active30", "0:00:00", "0:00:00", KNP);
        assert_eq!(outcome(&r, BothFlagsDown), Fail);
        assert_eq!(r.recommendation, Recommendation::Reject);
        assert_eq!(r.result_if_rejected, "1/2-1/2");
        assert_eq!(r.rule, "Sabah iii.2");
    }
}
