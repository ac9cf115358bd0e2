//! The one decision layer: pure functions from facts to a cited decision.
//! The game judge (`judge::game`) and every claim kind (`judge::claim`)
//! ask these and re-implement none of them:
//!
//! - `both_flags`: both flags down, by the period the game was really in
//!   (move numbers from the `FEN`'s fullmove number) and by whether the
//!   record shows whose flag fell first;
//! - `win_test`: can a side still win (the flag test: FIDE 6.9 helpmate,
//!   the material count, or USCF 14E with its forced-win exception and the
//!   tablebase when one is given);
//! - `flag_fall`: what a fallen flag decides, the dead position first;
//! - `illegal_move`: the illegal-move ladder (stands after the reply,
//!   unnoticed, the clock limit, first loses, second loses, reinstated);
//! - `loss_stands`: whether a loss the rules award can stand, or the
//!   opponent cannot mate (FIDE 7.5.5's exception).

use shakmaty::{Chess, Position};

use crate::{
    analysis::{
        forced::Syzygy,
        mate::{self, MateAnswer, Mateability, Uscf14e},
    },
    citation::{Citation, Cited},
    model::{Clock, Side},
    pgn::time_control::TimeControl,
    rules::{AfterGame, BothFlagsPolicy, FlagCallers, MateTest, Ruleset, UnclaimedFlag},
};

/// The final position under judgement, with the "can this side mate?"
/// answers asked at most once per side (the search is the costly part).
/// Every answer is `mate::can_mate`'s (or the material rule where the
/// ruleset chose it): the recorded result presumes nothing.
pub struct Board {
    pub(crate) pos: Chess,
    material_only: bool,
    answers: [Option<MateAnswer>; 2],
    /// The fast check's answers (`Some(None)`: asked, proved nothing).
    fast: [std::cell::Cell<Option<Option<&'static str>>>; 2],
    /// The side to move is known to have two legal moves or more.
    choice: bool,
}

impl Board {
    pub fn new(pos: Chess, rules: &Ruleset) -> Board {
        Board {
            pos,
            material_only: rules.flag.test == MateTest::Material,
            answers: [None, None],
            fast: Default::default(),
            choice: false,
        }
    }

    /// A board whose side to move is known to have two legal moves or more
    /// (`Replay::choice`): the fast check need not count them again.
    pub(crate) fn with_choice(mut self, choice: bool) -> Board {
        self.choice = choice;
        self
    }

    /// The ruleset's answer for `side`: `mate::can_mate` (the fast check's
    /// proof, else the search with a line that replays to mate), or the
    /// material rule alone where the ruleset chose it.
    pub fn mate(&mut self, side: Side) -> MateAnswer {
        let i = side.index();
        if let Some(a) = &self.answers[i] {
            return a.clone();
        }
        let a = if self.material_only {
            mate::material_answer(&self.pos, side)
        } else {
            match self.fast_proof(side) {
                Some(how) => MateAnswer::cannot(how),
                None => mate::search_answer(&self.pos, side),
            }
        };
        self.answers[i] = Some(a.clone());
        a
    }

    fn fast_proof(&self, side: Side) -> Option<&'static str> {
        let cell = &self.fast[side.index()];
        if let Some(known) = cell.get() {
            return known;
        }
        let answer = if self.material_only {
            self.pos
                .has_insufficient_material(side.into())
                .then_some("insufficient material")
        } else {
            mate::cannot_mate_proof(&self.pos, side, self.choice)
        };
        cell.set(Some(answer));
        answer
    }

    /// Sound and cheap: `true` only when `side` provably cannot mate.
    pub(crate) fn cannot_mate_fast(&self, side: Side) -> bool {
        self.fast_proof(side).is_some()
    }

    /// Neither side can mate, by the fast check alone.
    pub(crate) fn dead_fast(&self) -> bool {
        self.cannot_mate_fast(Side::White) && self.cannot_mate_fast(Side::Black)
    }

    /// Is the position dead, given that `known` cannot mate? The other side
    /// gets the fast check first, the full search only if that fails.
    pub(crate) fn dead_given(&mut self, known: Side) -> bool {
        self.mate(known.other()).verdict == Mateability::Unwinnable
    }
}

/// What a game ended on the board gives, and the rule that gives it:
/// `mover` made the last move (the mating side, for a mate). Games and
/// claims both ask here.
pub(crate) fn board_end(
    rules: &Ruleset,
    kind: crate::replay::BoardEnd,
    mover: Side,
) -> (crate::model::GameResult, Citation) {
    use crate::{model::GameResult, replay::BoardEnd};
    let b = &rules.board;
    match kind {
        BoardEnd::Checkmate => (GameResult::win_for(mover), b.checkmate.clone()),
        BoardEnd::Stalemate => (GameResult::Draw, b.stalemate.clone()),
        BoardEnd::DeadPosition => (GameResult::Draw, b.dead_position.clone()),
        BoardEnd::Fivefold => (
            GameResult::Draw,
            rules.automatic_draws.fivefold_rule.clone(),
        ),
        BoardEnd::SeventyFive => (
            GameResult::Draw,
            rules.automatic_draws.seventy_five_rule.clone(),
        ),
    }
}

/// Which part of the game a both-flags fall happened in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Period {
    /// The control has an increment (FIDE III applies only without).
    WithIncrement,
    /// The period in which all remaining moves must be played.
    Final,
    Earlier,
}

impl Period {
    pub(crate) fn words(self) -> &'static str {
        match self {
            Period::WithIncrement => "with increment",
            Period::Final => "in the final period",
            Period::Earlier => "before the final period",
        }
    }

    /// The period of a game whose side to move is about to play move
    /// `next_move` (the real move number: a game taken up from a `FEN` at
    /// move 33 is at move 33, not 1).
    pub(crate) fn of(tc: &TimeControl, next_move: u32) -> Period {
        if tc.has_increment() {
            Period::WithIncrement
        } else if tc.is_final_period(next_move) || !tc.is_timed() {
            Period::Final
        } else {
            Period::Earlier
        }
    }
}

/// What both flags down decides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum BothFlags {
    Draw,
    /// Play should have gone on (FIDE III.3.1.1).
    Continue,
    /// Which fell first decides, and the record cannot say.
    Review,
    /// The record shows whose flag fell first, and the ruleset judges that
    /// flag alone (FIDE 6.9, where III.3.1 does not apply).
    FirstFell(Side),
}

/// The facts a both-flags ruling rests on.
#[derive(Copy, Clone, Debug)]
pub(crate) struct BothFlagsFacts<'a> {
    pub(crate) tc: &'a TimeControl,
    /// The real move number the side to move was about to play.
    pub(crate) next_move: u32,
    /// The side whose flag the record shows falling first, if it does.
    pub(crate) first_fell: Option<Side>,
}

pub(crate) fn both_flags(rules: &Ruleset, f: BothFlagsFacts<'_>) -> (Cited<BothFlags>, Period) {
    let bf = &rules.both_flags;
    let period = Period::of(f.tc, f.next_move);
    if let (Some(side), Some(rule)) = (f.first_fell, &bf.first_fell_rule) {
        if bf.first_fell_decides {
            return (Cited::new(BothFlags::FirstFell(side), rule), period);
        }
    }
    let (policy, rule) = match period {
        Period::WithIncrement => (bf.with_increment, &bf.with_increment_rule),
        Period::Final => (bf.final_period, &bf.final_rule),
        Period::Earlier => (bf.earlier_period, &bf.earlier_rule),
    };
    let value = match policy {
        BothFlagsPolicy::Draw => BothFlags::Draw,
        BothFlagsPolicy::Continue => BothFlags::Continue,
        BothFlagsPolicy::Review => BothFlags::Review,
    };
    (Cited::new(value, rule), period)
}

/// The answer to "can `side` still win?" under the ruleset's flag test.
#[derive(Clone, Debug, PartialEq)]
pub struct WinTest {
    pub verdict: Mateability,
    /// `flag.rule` when the side can win; the rule that draws otherwise
    /// (`flag.cannot_mate_rule`, or the USCF 14E paragraph).
    pub(crate) rule: Citation,
    /// The helpmate (or material) answer, when that test was run.
    pub(crate) answer: Option<MateAnswer>,
    /// USCF 14E: the paragraph and why, when that test was run.
    pub(crate) uscf: Option<(&'static str, String)>,
}

/// Can `side` still win, by the ruleset's test? USCF 14E uses the
/// tablebase when one is given, for games and claims alike.
pub fn win_test(
    rules: &Ruleset,
    board: &mut Board,
    side: Side,
    syzygy: Option<&Syzygy>,
) -> WinTest {
    match rules.flag.test {
        MateTest::Uscf14e => {
            let (verdict, rule, par, why) = match mate::uscf_14e(&board.pos, side.other(), syzygy) {
                Uscf14e::Win(why) => (Mateability::Winnable, rules.flag.rule.clone(), "", why),
                Uscf14e::Draw(p, why) => (
                    Mateability::Unwinnable,
                    Citation::fixed(&format!("USCF {p}")),
                    p,
                    why,
                ),
                Uscf14e::Review(p, why) => (
                    Mateability::Undetermined,
                    Citation::fixed(&format!("USCF {p}")),
                    p,
                    why,
                ),
            };
            WinTest {
                verdict,
                rule,
                answer: None,
                uscf: Some((par, why)),
            }
        }
        MateTest::Helpmate | MateTest::Material => {
            let answer = board.mate(side);
            let rule = match answer.verdict {
                Mateability::Winnable => rules.flag.rule.clone(),
                _ => rules.flag.cannot_mate_rule.clone(),
            };
            WinTest {
                verdict: answer.verdict,
                rule,
                answer: Some(answer),
                uscf: None,
            }
        }
    }
}

/// What a fallen flag decides.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum FlagFall {
    /// Neither side could mate: the game ended earlier, dead (FIDE 5.2.2).
    Dead,
    /// The flag decides by the opponent's chances: win, draw or review.
    Decided(WinTest),
}

/// `flagger`'s flag fell: the dead position first, then the flag test for
/// the opponent.
pub(crate) fn flag_fall(
    rules: &Ruleset,
    board: &mut Board,
    flagger: Side,
    syzygy: Option<&Syzygy>,
) -> FlagFall {
    let opp = flagger.other();
    if rules.flag.test == MateTest::Uscf14e {
        // A dead position is drawn before 14E is asked (USCF 14D4).
        if board.cannot_mate_fast(opp) && board.dead_given(opp) {
            return FlagFall::Dead;
        }
        return FlagFall::Decided(win_test(rules, board, opp, syzygy));
    }
    let t = win_test(rules, board, opp, syzygy);
    if t.verdict == Mateability::Unwinnable && board.dead_given(opp) {
        return FlagFall::Dead;
    }
    FlagFall::Decided(t)
}

/// A loss the rules award (an illegal move, a failed claim) stands unless
/// the opponent cannot mate by any series of legal moves (FIDE 7.5.5): the
/// helpmate test, or the material count where the ruleset chose it. The
/// USCF 14E list is about flags, not illegal moves, and is not asked here.
pub(crate) fn loss_stands(board: &mut Board, winner: Side) -> MateAnswer {
    board.mate(winner)
}

/// How an illegal move was found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// Claimed or seen at once, or later during the game.
    Claimed,
    /// Nobody noticed: the record plays on past it.
    Unnoticed,
}

/// The facts an illegal-move ruling rests on.
#[derive(Copy, Clone, Debug)]
pub(crate) struct IllegalFacts {
    pub(crate) mover: Side,
    /// Moves written after it.
    pub(crate) replies: usize,
    pub(crate) found: Found,
    /// Illegal moves the mover completed earlier in the game.
    pub(crate) prior_by_mover: usize,
    /// Both clocks at the claim (White, Black).
    pub(crate) clocks: [Option<Clock>; 2],
}

/// The illegal-move ladder's answer.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum IllegalMove {
    /// Not claimed before the reply: the move stands, no penalty.
    Stands,
    /// Nobody noticed and the record plays on from a position that should
    /// have been reinstated.
    Unnoticed,
    /// The move loses (subject to `loss_stands`), on this ground.
    Loses(LossGround),
    /// The clock limit decides, and the clocks are not known.
    ClocksUnknown { limit: u32 },
    /// Both clocks at or over the limit: no loss; the position before it
    /// is reinstated and time may be added.
    NotUnderLimit {
        limit: u32,
        clocks: [Clock; 2],
        time: ExtraTime,
    },
    /// The position before it is reinstated, the opponent gets time.
    Reinstated { penalty_seconds: u32 },
}

/// The time an illegal move that does not lose on the clock may cost
/// (BCF RP 12), and the rules it rests on.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ExtraTime {
    pub(crate) seconds: u32,
    /// The ruleset's own rule for it.
    own: Citation,
    /// The document the default amount comes from, where the text leaves
    /// it to the arbiter (`penalty_amount_rule`).
    default_from: Option<Citation>,
    /// A clock on the limit exactly, which the text's "less than" and
    /// "more than" both leave out: the limit.
    on_limit: Option<u32>,
}

impl ExtraTime {
    /// The rules the time rests on: on the limit exactly, where the text
    /// gives none, only the document the default comes from.
    pub(crate) fn rule(&self) -> Citation {
        match (&self.default_from, self.on_limit) {
            (Some(from), Some(_)) => from.clone(),
            (Some(from), None) => self.own.and(from),
            (None, _) => self.own.clone(),
        }
    }

    /// The time in words, for the opponent `who`.
    pub(crate) fn words(&self, who: &str) -> String {
        let amount = mmss(self.seconds);
        match (&self.default_from, self.on_limit) {
            (Some(from), Some(limit)) => format!(
                "a clock on {} exactly is neither under nor over it, so the move does not lose, and {} gives extra time only when both are over it; any time {who} is given is the arbiter's to decide, {amount} by default ({from}'s amount)",
                mmss(limit),
                self.own
            ),
            (Some(from), None) => format!(
                "{who} may be given extra time ({}; {amount} by default, {from}'s amount)",
                self.own
            ),
            (None, _) => format!("{who} gets {amount}"),
        }
    }

    /// The time as a result line shows it: "+2:00", or "+2:00 by default".
    pub(crate) fn added(&self) -> String {
        let by_default = if self.default_from.is_some() {
            " by default"
        } else {
            ""
        };
        format!("+{}{by_default}", mmss(self.seconds))
    }
}

/// Why an illegal move loses.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum LossGround {
    /// A clock under the limit (BCF RP 12): which side, its clock, the limit.
    ClockUnder(Side, Clock, u32),
    /// The ruleset's old Active-play practice: any illegal move loses.
    FirstLoses,
    /// The mover's second (or later) completed illegal move (FIDE 7.5.5):
    /// the mover, and how many came before.
    Second(Side, usize),
}

impl LossGround {
    /// The ground in a sentence, as `detail` prints it.
    pub(crate) fn why(&self) -> String {
        match self {
            LossGround::ClockUnder(side, clock, limit) => format!(
                "{} has {clock}, under {}: the move loses",
                side.name(),
                mmss(*limit)
            ),
            LossGround::FirstLoses => "an illegal move loses on claim under this ruleset".into(),
            LossGround::Second(side, 1) => format!("{}'s second illegal move", side.name()),
            LossGround::Second(side, prior) => format!(
                "{}'s illegal move after {prior} earlier ones (the second loses)",
                side.name()
            ),
        }
    }
}

/// Whether an earlier illegal move by the same player counts toward
/// 7.5.5's "second completed illegal move". One that stood was never acted
/// on: 7.5.5 counts "after the action taken under Article 7.5.1" (FIDE A.5.2
/// lets it stand once answered; Sabah v.7: it cannot "lead to a claim of a
/// won game").
pub(crate) fn counts_as_prior(stood: bool) -> bool {
    !stood
}

/// The mover's clock shows 0:00:00.0 on the very move that ended the game
/// on the board (a mate, a stalemate), and the flag is asserted (recorded
/// as the result or the Termination, or claimed): the end stands only if
/// it came first (FIDE 6.9: "except where 5.1.1 ... applies"), and a clock
/// at zero on that move does not say which did. Undecided where so.
pub(crate) fn end_or_flag_undecided(fell_on_ending_move: bool, flag_asserted: bool) -> bool {
    fell_on_ending_move && flag_asserted
}

pub(crate) fn illegal_move(rules: &Ruleset, f: IllegalFacts) -> Cited<IllegalMove> {
    let im = &rules.illegal_move;
    if f.replies > 0 && (im.stands_after_reply || im.stands_by_age(f.replies)) {
        return Cited::new(IllegalMove::Stands, &im.stands_rule);
    }
    if f.found == Found::Unnoticed {
        return Cited::new(IllegalMove::Unnoticed, &im.reinstate_rule);
    }
    let mut not_under = None;
    if let (Some(limit), Some(rule)) = (im.loses_under_seconds, &im.loses_under_rule) {
        match f.clocks {
            [Some(w), Some(b)] => {
                let lim = limit * 10;
                if w.tenths < lim || b.tenths < lim {
                    let (side, clock) = if w.tenths < lim {
                        (Side::White, w)
                    } else {
                        (Side::Black, b)
                    };
                    return Cited::new(
                        IllegalMove::Loses(LossGround::ClockUnder(side, clock, limit)),
                        rule,
                    );
                }
                not_under = Some((limit, [w, b], rule));
            }
            _ => return Cited::new(IllegalMove::ClocksUnknown { limit }, rule),
        }
    }
    if im.first_loses {
        return Cited::new(IllegalMove::Loses(LossGround::FirstLoses), &im.penalty_rule);
    }
    if im.second_loses && f.prior_by_mover >= 1 {
        return Cited::new(
            IllegalMove::Loses(LossGround::Second(f.mover, f.prior_by_mover)),
            &im.second_rule,
        );
    }
    match not_under {
        Some((limit, clocks, rule)) => {
            let on_limit = clocks.iter().any(|c| c.tenths == limit * 10);
            let time = ExtraTime {
                seconds: im.penalty_seconds,
                own: im.penalty_rule.clone(),
                default_from: im.penalty_amount_rule.clone(),
                on_limit: on_limit.then_some(limit),
            };
            Cited::new(
                IllegalMove::NotUnderLimit {
                    limit,
                    clocks,
                    time,
                },
                rule,
            )
        }
        None => Cited::new(
            IllegalMove::Reinstated {
                penalty_seconds: im.penalty_seconds,
            },
            &im.penalty_rule,
        ),
    }
}

/// An illegal move nobody noticed, in a game that is over (a result was
/// recorded): does it stand as played, with the result, and under which
/// rule? Only where the ruleset's text says so.
pub(crate) fn unnoticed_stands(rules: &Ruleset, game_over: bool) -> Option<&Citation> {
    let im = &rules.illegal_move;
    match (game_over, im.after_game, &im.after_game_rule) {
        (true, AfterGame::ResultStands, Some(rule)) => Some(rule),
        _ => None,
    }
}

/// A flag fell, play went on and nobody claimed: does the board (or the
/// recorded) result stand, or should the arbiter have called it (FIDE 6.8)?
pub(crate) fn unclaimed_flag(rules: &Ruleset) -> Cited<UnclaimedFlag> {
    let f = &rules.flag;
    let value = if f.unclaimed == UnclaimedFlag::Review || f.callers == FlagCallers::ArbiterOrPlayer
    {
        UnclaimedFlag::Review
    } else {
        UnclaimedFlag::ResultStands
    };
    Cited::new(value, &f.callers_rule)
}

pub(crate) fn mmss(secs: u32) -> String {
    format!("{}:{:02}", secs / 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(name: &str) -> Ruleset {
        Ruleset::load(name).unwrap()
    }

    fn tc(s: &str) -> TimeControl {
        TimeControl::parse(s).unwrap()
    }

    /// The board's answers are `can_mate`'s, whatever the record says, and
    /// a "can" always carries a line that mates.
    #[test]
    fn the_board_answers_as_the_full_analysis_does() {
        for fen in [
            "8/8/8/8/8/5k2/8/4K2R w K - 0 1",
            "8/8/4k3/8/8/4K3/3NN3/8 w - - 0 1",
            "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -",
            // Pawns blocked by their own pawns: dead for both (issue 29).
            "8/1k6/2p2p2/p1P2p1p/P1P2P1P/5P2/2K5/8 b - - 52 58",
            "8/1k6/2p2p2/p1P2p1p/P1P2P1P/5P2/3K4/8 b - - 0 59",
        ] {
            let pos = crate::analysis::position::parse_position(fen).unwrap();
            for side in [Side::White, Side::Black] {
                let mut b = Board::new(pos.clone(), &rules("fide-blitz"));
                let ours = b.mate(side);
                let full = mate::can_mate(&pos, side);
                assert_eq!(ours.verdict, full.verdict, "{fen} {side:?}");
                // The search alone, without the fast check's proofs, never
                // contradicts them.
                let search = match crate::analysis::helpmate::winnability(&pos, side.into()) {
                    crate::analysis::helpmate::Verdict::Winnable(_) => Mateability::Winnable,
                    crate::analysis::helpmate::Verdict::Unwinnable(_) => Mateability::Unwinnable,
                    crate::analysis::helpmate::Verdict::Undetermined => Mateability::Undetermined,
                };
                if search != Mateability::Undetermined {
                    assert_eq!(ours.verdict, search, "{fen} {side:?}: the search alone");
                }
                if ours.verdict == Mateability::Winnable {
                    assert!(
                        mate::line_mates(&pos, &ours.line, side.into()),
                        "{fen} {side:?}"
                    );
                }
            }
        }
        let dead = "8/1k6/2p2p2/p1P2p1p/P1P2P1P/5P2/3K4/8 b - - 0 59";
        let pos = crate::analysis::position::parse_position(dead).unwrap();
        let mut b = Board::new(pos, &rules("fide-blitz"));
        assert!(b.dead_given(Side::Black));
        assert!(b.dead_fast());
    }

    #[test]
    fn the_period_counts_real_move_numbers() {
        let ddcl = tc("36/4500:900");
        assert_eq!(Period::of(&ddcl, 36), Period::Earlier);
        assert_eq!(Period::of(&ddcl, 37), Period::Final);
        assert_eq!(Period::of(&tc("900+10"), 5), Period::WithIncrement);
        assert_eq!(Period::of(&tc("1800"), 1), Period::Final);
        assert_eq!(Period::of(&TimeControl::Unknown, 1), Period::Final);
    }

    #[test]
    fn both_flags_by_ruleset_and_period() {
        fn facts(tc: &TimeControl, next_move: u32) -> BothFlagsFacts<'_> {
            BothFlagsFacts {
                tc,
                next_move,
                first_fell: None,
            }
        }
        let ddcl = tc("36/4500:900");
        let (r, p) = both_flags(&rules("ecf-quickplay"), facts(&ddcl, 37));
        assert_eq!(
            (r.value, r.rule.as_str(), p),
            (BothFlags::Draw, "ECF QPF 10", Period::Final)
        );
        let (r, _) = both_flags(&rules("fide-standard"), facts(&tc("40/5400:1800"), 30));
        assert_eq!(
            (r.value, r.rule.as_str()),
            (BothFlags::Continue, "FIDE III.3.1.1")
        );
    }

    #[test]
    fn the_illegal_move_ladder() {
        let facts = |replies, prior, w: u32, b: u32| IllegalFacts {
            mover: Side::Black,
            replies,
            found: if replies > 0 {
                Found::Unnoticed
            } else {
                Found::Claimed
            },
            prior_by_mover: prior,
            clocks: [Some(Clock::secs(w)), Some(Clock::secs(b))],
        };
        let bcf = rules("bcf-rapid");
        let r = illegal_move(&bcf, facts(0, 0, 299, 1000));
        assert_eq!(
            r.value,
            IllegalMove::Loses(LossGround::ClockUnder(Side::White, Clock::secs(299), 300))
        );
        assert_eq!(r.rule, "BCF RP 12");
        assert!(matches!(
            illegal_move(&bcf, facts(0, 0, 300, 300)).value,
            IllegalMove::NotUnderLimit { .. }
        ));
        assert_eq!(
            illegal_move(&bcf, facts(1, 0, 300, 300)).value,
            IllegalMove::Stands
        );
        let fide = rules("fide-standard");
        assert_eq!(
            illegal_move(&fide, facts(0, 1, 900, 900)).value,
            IllegalMove::Loses(LossGround::Second(Side::Black, 1))
        );
        assert_eq!(
            IllegalMove::Loses(LossGround::Second(Side::Black, 2)).clone(),
            illegal_move(&fide, facts(0, 2, 900, 900)).value
        );
        assert_eq!(
            LossGround::Second(Side::White, 2).why(),
            "White's illegal move after 2 earlier ones (the second loses)"
        );
        let r = illegal_move(&fide, facts(0, 0, 900, 900));
        assert_eq!(
            (r.value, r.rule.as_str()),
            (
                IllegalMove::Reinstated {
                    penalty_seconds: 120
                },
                "FIDE 7.5.5"
            )
        );
        let r = illegal_move(&fide, facts(2, 0, 900, 900));
        assert_eq!(
            (r.value, r.rule.as_str()),
            (IllegalMove::Unnoticed, "FIDE 7.5.1")
        );
        let mut none = facts(0, 0, 0, 0);
        none.clocks = [None, None];
        assert_eq!(
            illegal_move(&bcf, none).value,
            IllegalMove::ClocksUnknown { limit: 300 }
        );
    }
}
