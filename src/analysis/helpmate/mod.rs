//! "Can this side checkmate by any series of legal moves?" answered on
//! shakmaty's own types: the Chess Unwinnability Analyzer's method (Ambrona,
//! FUN 2022) written afresh: cheap proofs first (material, forced moves,
//! every short line, pawn walls), then a helpmate search in which the
//! intended winner heads for a mating corner and the loser helps, then the
//! exhaustive set of reachable positions where it is small, then a deep
//! search. Every answer is a proof: a mating line, or a search that ran out
//! of positions rather than budget. Budgets are node counts, so verdicts do
//! not depend on the machine's load.
//!
//! Each worker thread keeps one search table and reuses it.

mod closure;
mod heuristics;
mod search;
mod walls;

use std::cell::RefCell;

use shakmaty::{Chess, Color, Move, Position};

use crate::chess::cheap_moves;

use closure::{closure, Closure};
use heuristics::Plan;
use search::{Budget, Outcome, Search};
pub(crate) use walls::walls_forbid_mate;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// A mating line from the position (empty when it is mate already).
    Winnable(Vec<Move>),
    /// No series of legal moves mates; how that was shown.
    Unwinnable(&'static str),
    /// Every budget spent without an answer.
    Undetermined,
}

/// Depth in plies of the cheap full-width proof (every line that short ends
/// without the winner mating).
const SHORT_LINES: u8 = 4;
/// Positions the exhaustive check may visit before it gives up.
const CLOSURE_CAP: usize = 10_000;
/// The same, in the cheap check: kept small, since the positions that
/// reach it in real games are mostly larger than any cap worth paying for.
const FAST_CLOSURE_CAP: usize = 600;

thread_local! {
    static SEARCH: RefCell<Search> = RefCell::new(Search::default());
}

/// The full analysis for `winner`.
pub(crate) fn winnability(pos: &Chess, winner: Color) -> Verdict {
    if pos.has_insufficient_material(winner) {
        return Verdict::Unwinnable("insufficient material");
    }
    let (pos, prefix) = match forced(pos, winner, false) {
        Forced::Ends(v) => return v,
        Forced::At(p, prefix) => (p, prefix),
    };
    let found = |line: Vec<Move>| Verdict::Winnable(prefix.iter().copied().chain(line).collect());
    // A search's outcome, if it settles the question.
    let settle = |o: Outcome| match o {
        Outcome::Mate(line) => Some(found(line)),
        Outcome::NoMate => Some(Verdict::Unwinnable("every line searched")),
        Outcome::Unknown => None,
    };
    let plan = Plan::new(&pos, winner);
    SEARCH.with_borrow_mut(|s| {
        // A short pass first where the winner has a queen, a rook or a
        // pawn: it settles most positions games end in. Not for minor
        // pieces alone, whose mates want the loser's men as blockers and
        // need the deeper passes anyway (docs/performance.md).
        let board = pos.board();
        let minor_only = crate::analysis::minor_pieces_only(board, winner);
        if !minor_only {
            let quick = Budget {
                per_iteration: 1_500,
                total: 1_500,
                table: None,
            };
            if let Some(v) = settle(s.run(&pos, &plan, 2..=2, quick)) {
                return v;
            }
        }
        if walls_forbid_mate(&pos, winner) {
            return Verdict::Unwinnable(WALL_PROOF);
        }
        // The wide passes start where the short ones would only repeat
        // their work, and each gets a larger budget than the last; with
        // few men a table small enough to stay in the first-level cache
        // (the figures behind these numbers: docs/performance.md).
        let slots = if board.occupied().count() <= 8 {
            search::TABLE_SLOTS / 32
        } else {
            search::TABLE_SLOTS / 4
        };
        let wide = Budget {
            per_iteration: 6_000,
            total: 1_000_000,
            table: Some(slots),
        };
        let first = if minor_only { 6 } else { 5 };
        if let Some(v) = settle(s.run(&pos, &plan, first..=64, wide)) {
            return v;
        }
        match closure(&pos, winner, CLOSURE_CAP) {
            Closure::Mate(line) => return found(line),
            Closure::NoMate => return Verdict::Unwinnable(CLOSURE_PROOF),
            Closure::TooBig => {}
        }
        let deep = Budget {
            per_iteration: u64::MAX,
            total: 1 << 22,
            table: Some(search::TABLE_SLOTS),
        };
        settle(s.run(&pos, &plan, 2..=96, deep)).unwrap_or(Verdict::Undetermined)
    })
}

/// The cheap check: the proof's words when `winner` provably cannot mate,
/// `None` when it proves nothing. `choice`: the side to move is known to
/// have two legal moves or more (a replay found so), which spares the
/// forced-move test its count.
pub(crate) fn unwinnable_fast(pos: &Chess, winner: Color, choice: bool) -> Option<&'static str> {
    if pos.has_insufficient_material(winner) {
        return Some("insufficient material");
    }
    let pos = match forced(pos, winner, choice) {
        Forced::Ends(Verdict::Unwinnable(how)) => return Some(how),
        Forced::Ends(_) => return None,
        Forced::At(p, _) => p,
    };
    let board = pos.board();
    // Every short line ends in insufficient material only where the winner
    // has little to lose.
    let men = (board.by_color(winner) & !board.kings()).count();
    if men <= 3 && no_mate_within(&pos, winner, SHORT_LINES) {
        return Some("every line of four plies ends without mate");
    }
    // The wall check only where nearly every pawn is blocked, by a pawn of
    // either colour: a pawn behind its own pawn is as stuck as a rammed one.
    let pawns = board.pawns().count();
    let blocked = blocked_pawns(board);
    if blocked == 0 || blocked + 2 < pawns {
        return None;
    }
    if walls_forbid_mate(&pos, winner) {
        return Some(WALL_PROOF);
    }
    // A blocked structure with only bishops besides and few moves: the
    // positions reachable are few (kings shuffling behind the wall), and a
    // tempo or a stalemate the wall check cannot see is found by listing
    // them all; not where the kings have room for more placements than
    // half the cap (the listing would pass it anyway).
    let only_bishops = (board.knights() | board.rooks_and_queens()).is_empty();
    let listed = only_bishops
        && blocked >= 6
        && blocked + 4 >= pawns
        && pos.legal_moves().len() <= 8
        && walls::kings_room(board) <= FAST_CLOSURE_CAP / 2
        && matches!(closure(&pos, winner, FAST_CLOSURE_CAP), Closure::NoMate);
    listed.then_some(CLOSURE_PROOF)
}

const WALL_PROOF: &str = "locked pawns keep every checking man away";
const CLOSURE_PROOF: &str = "every reachable position searched";

/// Pawns whose square ahead holds a pawn of either colour (a rammed pair
/// counts two).
fn blocked_pawns(board: &shakmaty::Board) -> usize {
    let pawns = board.pawns();
    let white = (board.white() & pawns).shift(8) & pawns;
    let black = (board.black() & pawns).shift(-8) & pawns;
    (white.count()) + (black.count())
}

enum Forced {
    /// The forced moves settle it.
    Ends(Verdict),
    /// The first position with a choice, and the moves to it.
    At(Chess, Vec<Move>),
}

/// Plays while there is exactly one legal move: a mate, a stalemate or a
/// repetition on the way settles the question. `choice` as for
/// `unwinnable_fast`.
fn forced(pos: &Chess, winner: Color, choice: bool) -> Forced {
    if choice || cheap_moves::two_legal_moves(pos) {
        return Forced::At(pos.clone(), Vec::new());
    }
    let mut pos = pos.clone();
    let mut line = Vec::new();
    let mut seen: Vec<u128> = Vec::new();
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Forced::Ends(if pos.turn() != winner && pos.is_check() {
                Verdict::Winnable(line)
            } else {
                Verdict::Unwinnable("the only legal moves end the game without mate")
            });
        }
        if moves.len() > 1 || line.len() >= 32 {
            return Forced::At(pos, line);
        }
        if seen.is_empty() {
            seen.push(search::key(&pos));
        }
        pos.play_unchecked(moves[0]);
        line.push(moves[0]);
        let k = search::key(&pos);
        if seen.contains(&k) {
            return Forced::Ends(Verdict::Unwinnable(
                "the only legal moves repeat the position",
            ));
        }
        seen.push(k);
    }
}

/// Every line of `depth` plies ends without the winner mating: with
/// insufficient material, stalemate or the winner mated.
fn no_mate_within(pos: &Chess, winner: Color, depth: u8) -> bool {
    if pos.has_insufficient_material(winner) {
        return true;
    }
    // Whether a line's last position is a stalemate does not matter enough
    // to generate its moves: at depth 0, or at the end of a line of quiet
    // king steps (which keeps every man), nothing is proven.
    if depth == 0 || cheap_moves::quiet_king_line(pos, depth) {
        return false;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return !(pos.turn() != winner && pos.is_check());
    }
    moves.iter().all(|&m| {
        let mut next = pos.clone();
        next.play_unchecked(m);
        no_mate_within(&next, winner, depth - 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{mate::line_mates, test_position as pos};

    #[test]
    fn lines_found_really_mate() {
        for (fen, winner) in [
            ("8/8/8/8/8/5k2/8/4K2R w K - 0 1", Color::White),
            ("8/8/4k3/8/8/4K3/3NN3/8 w - - 0 1", Color::White),
            ("6RK/5n2/7k/8/8/8/8/8 w - - 0 1", Color::Black),
            ("5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - -", Color::White),
        ] {
            let p = pos(fen);
            match winnability(&p, winner) {
                Verdict::Winnable(line) => {
                    assert!(line_mates(&p, &line, winner), "{fen}: {line:?}")
                }
                v => panic!("{fen}: {v:?}"),
            }
        }
    }

    #[test]
    fn proofs_of_no_mate() {
        // Knight against rook's pawn walls: K+N v K cannot mate.
        assert_eq!(
            winnability(&pos("8/8/4k3/8/8/4K3/4N3/8 w - - 0 1"), Color::White),
            Verdict::Unwinnable("insufficient material")
        );
        // The README's wall: Black's bishop is on the wrong side for good.
        let p = pos("5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - -");
        assert!(matches!(
            winnability(&p, Color::Black),
            Verdict::Unwinnable(_)
        ));
        assert!(unwinnable_fast(&p, Color::Black, false).is_some());
        assert!(unwinnable_fast(&p, Color::White, false).is_none());
        // Forced moves only, repeating: the bishops shuffle for ever.
        let p = pos("k1b5/1p1p4/1P1P4/8/8/4p1p1/4P1P1/5B1K w - - 0 1");
        assert!(matches!(
            winnability(&p, Color::White),
            Verdict::Unwinnable(_)
        ));
    }
}
