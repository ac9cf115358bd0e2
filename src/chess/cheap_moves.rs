//! The side to move's legal moves, cheaply: facts about them found without
//! generating them all (the king can step; at least two moves; a line of
//! quiet king steps), which the search, the fast check and the replay's
//! last position ask where a few attack lookups answer, and the whole list for the
//! plain positions the search spends its time in. Each answer is tested
//! against shakmaty's full generation, which stays the authority and the
//! fallback.

use shakmaty::{attacks, Bitboard, Chess, Color, Move, MoveList, Position, Role, Square};

use crate::chess::attacks::{in_check, pins_and_checkers};

/// The squares the side to move's king may step to (never castling).
pub(crate) fn king_steps(pos: &Chess) -> impl Iterator<Item = Square> + '_ {
    let board = pos.board();
    let us = pos.turn();
    let king = board.king_of(us);
    let steps = king.map_or(Bitboard::EMPTY, attacks::king_attacks) & !board.by_color(us);
    // One map of the enemy's attacks costs less than asking square by
    // square once the king has a few squares to look at.
    let safe = if steps.more_than_one() {
        let occupied = board.occupied() ^ king.map_or(Bitboard::EMPTY, Bitboard::from_square);
        steps & !attacked_by(board, !us, occupied)
    } else {
        king_steps_among(pos, steps).collect()
    };
    safe.into_iter()
}

/// Every square a man of `color` attacks, with `occupied` as the board's
/// men (the defending king lifted, so that a slider's line through it counts).
fn attacked_by(board: &shakmaty::Board, color: Color, occupied: Bitboard) -> Bitboard {
    let theirs = board.by_color(color);
    let [west, east] = pawn_attack_sides(color, theirs & board.pawns());
    let mut hit = west | east;
    for sq in theirs & board.knights() {
        hit |= attacks::knight_attacks(sq);
    }
    for sq in theirs & board.bishops_and_queens() {
        hit |= attacks::bishop_attacks(sq, occupied);
    }
    for sq in theirs & board.rooks_and_queens() {
        hit |= attacks::rook_attacks(sq, occupied);
    }
    for sq in theirs & board.kings() {
        hit |= attacks::king_attacks(sq);
    }
    hit
}

/// The squares `color`'s `pawns` attack towards the a-file, then towards
/// the h-file (the order shakmaty lists pawn captures in).
pub(crate) fn pawn_attack_sides(color: Color, pawns: Bitboard) -> [Bitboard; 2] {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let p = pawns.0;
    match color {
        Color::White => [Bitboard((p & !FILE_A) << 7), Bitboard((p & !FILE_H) << 9)],
        Color::Black => [Bitboard((p & !FILE_A) >> 9), Bitboard((p & !FILE_H) >> 7)],
    }
}

/// The king's steps onto `squares` only: the cheap filter first, the
/// attack test (the dear one) on what is left. shakmaty's test, not
/// `resolve::attacked`: in the search the sliders' tables are warm, and
/// the line walk, tried for the search's check test, cost 2 % more
/// instructions there.
pub(crate) fn king_steps_among(
    pos: &Chess,
    squares: Bitboard,
) -> impl Iterator<Item = Square> + '_ {
    let board = pos.board();
    let us = pos.turn();
    let king = board.king_of(us);
    // Judged with the king lifted, so that a slider's line through it counts.
    let occupied = board.occupied() ^ king.map_or(Bitboard::EMPTY, Bitboard::from_square);
    king.map_or(Bitboard::EMPTY, attacks::king_attacks)
        .intersect(!board.by_color(us) & squares)
        .into_iter()
        .filter(move |&sq| board.attacks_to(sq, !us, occupied).is_empty())
}

/// The king may step somewhere: in check, the position is not mate.
pub(crate) fn king_can_step(pos: &Chess) -> bool {
    king_steps(pos).next().is_some()
}

/// Every legal move, in the order `Position::legal_moves` gives them, in
/// place of `out`'s contents, where no en passant square is set and (out of
/// check) the side to move cannot castle (`false` otherwise, `out` left
/// empty): the search's common case, in check or not,
/// listed from the attack tables straight into the caller's list (shakmaty's
/// own list is returned by value, and the copy cost a fifth of the call).
pub(crate) fn plain_legal_moves(pos: &Chess, out: &mut MoveList) -> bool {
    list(pos, out, &mut All).is_some()
}

/// Of the moves `plain_legal_moves` lists, out of check only: every pawn
/// move and king step, and of the other men's moves those onto
/// `wanted(role, from, destinations)`. Each move kept comes with its place
/// in the full list (`places[i]` for `out[i]`), and the full list's length
/// is returned, so that a caller that counts moves counts as if it had
/// listed them all, in the same order. `None` where the side to move is in
/// check or `plain_legal_moves` would not list.
pub(crate) fn plain_moves_kept(
    pos: &Chess,
    out: &mut MoveList,
    places: &mut [u8; 256],
    wanted: impl FnMut(Role, Square, Bitboard) -> Bitboard,
) -> Option<usize> {
    list(pos, out, &mut Kept { places, wanted })
}

/// Which of a man's legal moves a listing keeps, and where it notes their
/// places in the full list.
trait Keep {
    /// Whether it lists in check too.
    const IN_CHECK: bool;
    /// Of `targets`, the legal destinations of the man on `from`, those to list.
    fn keep(&mut self, role: Role, from: Square, targets: Bitboard) -> Bitboard;
    /// The move listed as `out[at]` is the full list's `place`-th.
    fn place(&mut self, at: usize, place: usize);
}

/// The full list: generic code with nothing to keep or note.
struct All;

impl Keep for All {
    const IN_CHECK: bool = true;
    #[inline(always)]
    fn keep(&mut self, _: Role, _: Square, targets: Bitboard) -> Bitboard {
        targets
    }
    #[inline(always)]
    fn place(&mut self, _: usize, _: usize) {}
}

struct Kept<'a, F> {
    places: &'a mut [u8; 256],
    wanted: F,
}

impl<F: FnMut(Role, Square, Bitboard) -> Bitboard> Keep for Kept<'_, F> {
    const IN_CHECK: bool = false;
    #[inline(always)]
    fn keep(&mut self, role: Role, from: Square, targets: Bitboard) -> Bitboard {
        (self.wanted)(role, from, targets)
    }
    #[inline(always)]
    fn place(&mut self, at: usize, place: usize) {
        // At most 218 legal moves: both fit.
        if let Some(slot) = self.places.get_mut(at) {
            *slot = place as u8;
        }
    }
}

/// The listing itself; the full list's length, or `None` (with `out`
/// empty) where shakmaty must list.
#[inline(always)]
fn list<K: Keep>(pos: &Chess, out: &mut MoveList, keep: &mut K) -> Option<usize> {
    out.clear();
    let us = pos.turn();
    if pos.maybe_ep_square().is_some() {
        return None;
    }
    let board = pos.board();
    let king = board.king_of(us)?;
    let ours = board.by_color(us);
    let theirs = board.by_color(!us);
    let occupied = board.occupied();
    // Men between the king and an enemy slider move only along that line;
    // out of check, a side that may castle goes to shakmaty.
    let (pinned, checkers) = pins_and_checkers(pos, king, ours, theirs, occupied);
    if checkers.is_empty() && pos.castles().has_color(us) || checkers.any() && !K::IN_CHECK {
        return None;
    }
    // In check, shakmaty lists the king's steps first, then the moves of
    // men that take a lone checker or step between; a pinned man has none
    // (its line and the checker's meet only at the king).
    let (target, movers) = if checkers.is_empty() {
        (!ours, ours)
    } else if checkers.more_than_one() {
        (Bitboard::EMPTY, Bitboard::EMPTY)
    } else {
        let lone = checkers.first().unwrap_or(king);
        (
            attacks::between(king, lone) | Bitboard::from_square(lone),
            ours & !pinned,
        )
    };
    let normal = |role: Role, from: Square, to: Square, promotion: Option<Role>| Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    };
    let promote = |out: &mut MoveList, from, to| {
        for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
            out.push(normal(Role::Pawn, from, to, Some(role)));
        }
    };
    if checkers.any() {
        for to in king_steps(pos) {
            out.push(normal(Role::King, king, to, None));
        }
    }
    // Pawns: captures towards the a-file side, then the h-file side; then
    // single steps, promotions, double steps (shakmaty's order).
    let pawns = movers & board.pawns();
    let [west, east] = pawn_attack_sides(us, pawns);
    let step: i32 = if us == Color::White { 8 } else { -8 };
    for (captures, back) in [
        (west & theirs & target, if step > 0 { 7 } else { -9 }),
        (east & theirs & target, if step > 0 { 9 } else { -7 }),
    ] {
        for to in captures & !Bitboard::BACKRANKS {
            out.push(normal(Role::Pawn, to.offset(-back).unwrap_or(to), to, None));
        }
        for to in captures & Bitboard::BACKRANKS {
            promote(out, to.offset(-back).unwrap_or(to), to);
        }
    }
    let single = pawns.shift(step) & !occupied;
    for to in single & target & !Bitboard::BACKRANKS {
        out.push(normal(Role::Pawn, to.offset(-step).unwrap_or(to), to, None));
    }
    for to in single & target & Bitboard::BACKRANKS {
        promote(out, to.offset(-step).unwrap_or(to), to);
    }
    let home_half = if step > 0 {
        Bitboard::SOUTH
    } else {
        Bitboard::NORTH
    };
    for to in single.shift(step) & home_half & !occupied & target {
        out.push(normal(
            Role::Pawn,
            to.offset(-2 * step).unwrap_or(to),
            to,
            None,
        ));
    }
    // A pinned pawn's moves off its line go, as shakmaty drops them: after
    // the listing, since pins are rare and a test per move is not. (In
    // check no pinned man is listed.)
    if checkers.is_empty() && (pinned & pawns).any() {
        out.retain(|m| match *m {
            Move::Normal { from, to, .. } => {
                !pinned.contains(from) || attacks::aligned(from, to, king)
            }
            _ => true,
        });
    }
    for at in 0..out.len() {
        keep.place(at, at);
    }
    let mut listed = out.len();
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in movers & board.by_role(role) {
            let mut targets = attacks::attacks(from, role.of(us), occupied) & target;
            if pinned.contains(from) {
                targets &= attacks::ray(from, king);
            }
            for to in keep.keep(role, from, targets) {
                let before = Bitboard(targets.0 & ((1u64 << u32::from(to)) - 1));
                keep.place(out.len(), listed + before.count());
                out.push(normal(role, from, to, None));
            }
            listed += targets.count();
        }
    }
    if checkers.is_empty() {
        for to in king_steps(pos) {
            keep.place(out.len(), listed);
            listed += 1;
            out.push(normal(Role::King, king, to, None));
        }
    }
    Some(listed)
}

/// `plies` moves can be played by the kings alone, onto empty squares: a
/// line in which no man is lost and no position ends the game.
pub(crate) fn quiet_king_line(pos: &Chess, plies: u8) -> bool {
    let mut pos = pos.clone();
    for _ in 0..plies {
        let board = pos.board();
        let (Some(from), Some(to)) = (
            board.king_of(pos.turn()),
            king_steps(&pos).find(|&sq| !board.occupied().contains(sq)),
        ) else {
            return false;
        };
        pos.play_unchecked(Move::Normal {
            role: Role::King,
            from,
            capture: None,
            to,
            promotion: None,
        });
    }
    true
}

/// `true` only when the side to move has at least two legal moves: king
/// steps, then (out of check) moves of men on no line through their king,
/// which no pin can hold.
pub(crate) fn two_legal_moves(pos: &Chess) -> bool {
    let mut found = king_steps(pos).take(2).count();
    if found >= 2 {
        return true;
    }
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    if in_check(pos) {
        return false;
    }
    let free = board.by_color(us) & !attacks::queen_attacks(king, Bitboard::EMPTY);
    let occupied = board.occupied();
    let ours = board.by_color(us);
    for sq in free & !board.kings() & !board.pawns() {
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        found += (attacks::attacks(sq, piece, occupied) & !ours).count();
        if found >= 2 {
            return true;
        }
    }
    // Single pushes onto empty squares.
    let pawns = free & board.pawns();
    let pushed = match us {
        Color::White => pawns.shift(8),
        Color::Black => pawns.shift(-8),
    };
    found + (pushed & !occupied).count() >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cheap_answers_agree_with_full_generation() {
        let positions = crate::chess::random_positions(300);
        let (mut two, mut stepping, mut checks) = (0, 0, 0);
        for pos in &positions {
            let moves = pos.legal_moves();
            let king_moves = moves
                .iter()
                .filter(|m| {
                    matches!(
                        m,
                        Move::Normal {
                            role: Role::King,
                            ..
                        }
                    )
                })
                .count();
            assert_eq!(king_can_step(pos), king_moves > 0, "{pos:?}");
            if two_legal_moves(pos) {
                assert!(moves.len() >= 2, "{pos:?}");
                two += 1;
            }
            if pos.is_check() {
                checks += 1;
                stepping += usize::from(king_can_step(pos));
            }
        }
        // The cheap test answers for most positions, and checks were met.
        assert!(
            two * 10 >= positions.len() * 9,
            "{two} of {}",
            positions.len()
        );
        assert!(
            checks > 200 && stepping > 100,
            "{checks} checks, {stepping} with a step"
        );
    }

    #[test]
    fn quiet_king_lines_are_legal_and_take_nothing() {
        let mut found = 0;
        for pos in crate::chess::random_positions(40) {
            if !quiet_king_line(&pos, 4) {
                continue;
            }
            found += 1;
            // Replayed with full generation: each step is a legal king move
            // onto an empty square.
            let mut p = pos.clone();
            for _ in 0..4 {
                let m = p
                    .legal_moves()
                    .into_iter()
                    .find(|m| {
                        m.role() == Role::King
                            && !m.is_capture()
                            && !m.is_castle()
                            && Some(m.to())
                                == king_steps(&p).find(|&sq| !p.board().occupied().contains(sq))
                    })
                    .expect("the step is legal");
                p.play_unchecked(m);
            }
            assert_eq!(p.board().occupied().count(), pos.board().occupied().count());
        }
        assert!(found > 100, "{found}");
        // A king with nowhere to go: no line; one that may only go to g1
        // and back: a line.
        let boxed = crate::chess::test_position("4r1k1/8/8/8/8/8/3P1P2/3NKN2 w - - 0 1");
        assert!(!quiet_king_line(&boxed, 4));
        let shuttle = crate::chess::test_position("k7/8/8/8/8/8/r7/q3N2K w - - 0 1");
        assert!(quiet_king_line(&shuttle, 4));
    }

    #[test]
    fn plain_lists_are_shakmatys_lists_in_the_same_order() {
        let (mut listed, mut pinned, mut checks) = (0, 0, 0);
        for pos in crate::chess::random_positions(300) {
            let mut out = MoveList::new();
            if !plain_legal_moves(&pos, &mut out) {
                assert!(out.is_empty());
                continue;
            }
            let full = pos.legal_moves();
            assert_eq!(out.as_slice(), full.as_slice(), "{pos:?}");
            listed += 1;
            if pos.is_check() {
                checks += 1;
                continue;
            }
            // A pinned man: some move of its off the line is missing.
            let board = pos.board();
            let ours = board.by_color(pos.turn());
            pinned += usize::from(
                (ours & !board.kings() & !board.pawns())
                    .into_iter()
                    .any(|sq| {
                        let piece = board.piece_at(sq).expect("a man");
                        (attacks::attacks(sq, piece, board.occupied()) & !ours)
                            .into_iter()
                            .any(|to| !full.iter().any(|m| m.from() == Some(sq) && m.to() == to))
                    }),
            );
        }
        assert!(
            listed > 20_000 && pinned > 100 && checks > 1_000,
            "{listed} listed, {pinned} with a pin, {checks} in check"
        );
    }

    #[test]
    fn kept_moves_keep_their_places_in_the_full_list() {
        let (mut listed, mut skipped) = (0, 0);
        for pos in crate::chess::random_positions(300) {
            let mut full = MoveList::new();
            let mut kept = MoveList::new();
            let mut places = [0u8; 256];
            // Keep the destinations on every third square, by number.
            let thirds: Bitboard = Square::ALL
                .into_iter()
                .filter(|sq| u32::from(*sq) % 3 == 0)
                .collect();
            let len = plain_moves_kept(&pos, &mut kept, &mut places, |_, _, to| to & thirds);
            if !plain_legal_moves(&pos, &mut full) || pos.is_check() {
                assert_eq!(len, None, "{pos:?}");
                continue;
            }
            assert_eq!(len, Some(full.len()), "{pos:?}");
            for (i, m) in kept.iter().enumerate() {
                assert_eq!(Some(m), full.get(usize::from(places[i])), "{pos:?}");
                assert!(i == 0 || places[i] > places[i - 1]);
            }
            // Every pawn move and king step is kept; of the rest, those
            // onto the kept squares.
            let wanted = full
                .iter()
                .filter(|m| matches!(m.role(), Role::Pawn | Role::King) || thirds.contains(m.to()))
                .count();
            assert_eq!(kept.len(), wanted, "{pos:?}");
            listed += 1;
            skipped += full.len() - kept.len();
        }
        assert!(listed > 15_000 && skipped > 100_000, "{listed} {skipped}");
    }

    #[test]
    fn pinned_men_and_checks_are_not_counted() {
        // The knight is pinned and the rook covers the second rank: Kg1 is
        // the only legal move, though the knight looks mobile.
        let pos = crate::chess::test_position("k7/8/8/8/8/8/r7/q3N2K w - - 0 1");
        assert_eq!(pos.legal_moves().len(), 1);
        assert!(king_can_step(&pos));
        assert!(!two_legal_moves(&pos));
        // In check with no step for the king: the blocks are left to full
        // generation.
        let pos = crate::chess::test_position("4r1k1/8/8/8/8/8/3P1P2/3NKN2 w - - 0 1");
        assert!(pos.legal_moves().len() >= 2);
        assert!(!king_can_step(&pos));
        assert!(!two_legal_moves(&pos));
    }
}
