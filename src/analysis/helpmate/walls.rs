//! The static check: pawns locked for good wall the board into regions; if
//! no man of the intended winner can ever reach a square from which it
//! checks the loser's king in that king's region, no mate can happen.
//!
//! Everything here over-estimates where men can go (other men are treated
//! as if they could always step aside), so "no check possible" is a proof.
//! Each pawn is in one of three states, and only ever drops to a lower one:
//! - *locked*: the square in front holds a locked pawn (or a king that can
//!   never move), nothing can ever capture it and it can never capture;
//! - *bound*: it may advance, but never leaves its file and is never
//!   captured, so an enemy pawn in front on its file can never pass it;
//! - *free*: anything its pushes and captures allow.
//!
//! Starting with every pawn locked, pawns failing their state's test drop a
//! state until none does: what is left holds in every continuation.

use shakmaty::{
    attacks, Bitboard, Board, Chess, Color, EnPassantMode, File, Position, Rank, Square,
};

use crate::chess::cheap_moves::pawn_attack_sides;

/// Where the men of one side can ever stand and what they can ever attack.
#[derive(Default, Clone, Copy)]
struct Side {
    /// Squares its men other than the king can stand on.
    stand: Bitboard,
    /// Squares those men can attack.
    hit: Bitboard,
    /// Squares its king can stand on.
    king: Bitboard,
    /// Squares attacked for good by its locked pawns.
    guard: Bitboard,
    /// Squares the other king can never enter: the guard, and the
    /// neighbours of this side's king if it can never move.
    fence: Bitboard,
}

struct Reach {
    sides: [Side; 2],
    /// Squares each pawn that is not locked may stand on, by its square.
    cones: [Bitboard; 64],
    /// Squares of kings that can never move.
    stuck_kings: Bitboard,
    /// Squares each man other than a king or a locked pawn may stand on,
    /// by its square.
    men: [Bitboard; 64],
}

/// `true` only if `winner` can never mate, whatever both sides play.
pub(crate) fn walls_forbid_mate(pos: &Chess, winner: Color) -> bool {
    !a_pawn_runs_free(pos.board()) && walls_hold(pos, winner)
}

/// `walls_forbid_mate` by the fixpoint alone.
fn walls_hold(pos: &Chess, winner: Color) -> bool {
    if pos.ep_square(EnPassantMode::Legal).is_some() {
        return false;
    }
    let board = pos.board();
    let mut locked = board.pawns();
    let mut bound = Bitboard::EMPTY;
    let mut stuck = board.occupied() & !board.pawns() & !board.kings();
    let r = loop {
        let Some(r) = reach(pos, locked, stuck, bound) else {
            return false;
        };
        let stay = still_locked(board, locked, &r);
        let keep = still_bound(board, bound, &r);
        let still = still_stuck(board, stuck, &r);
        if stay == locked && keep == bound && still == stuck {
            break r;
        }
        bound = keep | (locked & !stay);
        locked = stay;
        stuck = still;
    };
    let us = &r.sides[winner as usize];
    let them = &r.sides[!winner as usize];
    let blockers = board.by_color(!winner) & !board.kings() & !locked;
    let checks = them.king & (us.hit | us.guard);
    for m in checks {
        // The king on `m`, in check: every flight square must be covered by
        // a man or the winner's king, or blocked by one of the loser's own
        // men, each man on one square.
        let flights = attacks::king_attacks(m) & them.king & !us.hit;
        let posts = us.king & !attacks::king_attacks(m) & !Bitboard::from_square(m);
        let mut covers = posts
            .into_iter()
            .map(attacks::king_attacks)
            .chain([Bitboard::EMPTY]);
        let possible = covers.any(|cover| {
            let open = flights & !cover;
            let men = blockers
                .into_iter()
                .filter(|&b| r.men[usize::from(b)].intersects(open))
                .count();
            men >= open.count()
        });
        if possible {
            return false;
        }
    }
    true
}

/// A pawn with no pawn and no king ahead on its file: however the others
/// are locked, it promotes (the pieces in its way can step aside), which
/// `walls_hold` finds only after a pass that drops it from locked. On the
/// lichess file this answers 8 in 10 of the wall checks, at a fifth of
/// their cost.
fn a_pawn_runs_free(board: &Board) -> bool {
    let blockers = board.pawns() | board.kings();
    board.pawns().into_iter().any(|sq| {
        let file = Bitboard::from_file(sq.file());
        let ahead = match board.color_at(sq) {
            Some(Color::White) => Bitboard(u64::MAX << u32::from(sq)),
            _ => Bitboard(!(u64::MAX << u32::from(sq))),
        };
        (file & ahead & blockers).without(sq).is_empty()
    })
}

/// Can a man of the side opposed to `own` ever capture on `sq`?
fn capturable(sq: Square, own: &Side, foe: &Side) -> bool {
    foe.hit.contains(sq)
        || foe.guard.contains(sq)
        || ((attacks::king_attacks(sq) & foe.king).any() && !own.fence.contains(sq))
}

/// The men among `set` that pass `test` (given the man's square and
/// colour, its side's reach and the other side's).
fn keep(
    board: &Board,
    set: Bitboard,
    r: &Reach,
    test: impl Fn(Square, Color, &Side, &Side) -> bool,
) -> Bitboard {
    let mut kept = Bitboard::EMPTY;
    for sq in set {
        if let Some(color) = board.color_at(sq) {
            if test(
                sq,
                color,
                &r.sides[color as usize],
                &r.sides[!color as usize],
            ) {
                kept.add(sq);
            }
        }
    }
    kept
}

/// The pawns among `locked` that still pass the locked test.
fn still_locked(board: &Board, locked: Bitboard, r: &Reach) -> Bitboard {
    keep(board, locked, r, |sq, color, own, foe| {
        let Some(ahead) = forward(color, Bitboard::from_square(sq)).first() else {
            return false;
        };
        let blocked = (locked | r.stuck_kings).contains(ahead);
        // Kings are never captured: a pawn attacking one only guards.
        let targets = foe.stand | (locked & board.by_color(!color));
        let can_capture = attacks::pawn_attacks(color, sq).intersects(targets);
        blocked && !can_capture && !capturable(sq, own, foe)
    })
}

/// The pawns among `bound` that still never leave their file and are
/// never captured.
fn still_bound(board: &Board, bound: Bitboard, r: &Reach) -> Bitboard {
    keep(board, bound, r, |sq, _, own, foe| {
        let cone = r.cones[usize::from(sq)];
        cone.is_subset(Bitboard::from_file(sq.file()))
            && !cone.into_iter().any(|s| capturable(s, own, foe))
    })
}

/// The pieces among `stuck` that still can never move and never be
/// captured: they guard their squares for good, like a locked pawn.
fn still_stuck(board: &Board, stuck: Bitboard, r: &Reach) -> Bitboard {
    keep(board, stuck, r, |sq, _, own, foe| {
        r.men[usize::from(sq)] == Bitboard::from_square(sq) && !capturable(sq, own, foe)
    })
}

/// Where each side's men can go with `locked` pawns fixed, `stuck` pieces
/// in place and `bound` pawns on their files; `None` when a pawn might
/// promote (then anything might happen).
fn reach(pos: &Chess, locked: Bitboard, stuck: Bitboard, bound: Bitboard) -> Option<Reach> {
    let board = pos.board();
    let mut sides = [Side::default(); 2];
    let mut stuck_kings = Bitboard::EMPTY;
    let mut men = [Bitboard::EMPTY; 64];
    for color in Color::ALL {
        for sq in locked & board.by_color(color) {
            sides[color as usize].guard |= attacks::pawn_attacks(color, sq);
        }
        sides[color as usize].fence = sides[color as usize].guard;
    }
    // Pieces first: their reach depends only on the walls. One that can
    // never move nor be taken guards its squares for good.
    for color in Color::ALL {
        let side = &mut sides[color as usize];
        for sq in board.by_color(color) & !locked & !board.pawns() & !board.kings() {
            let Some(piece) = board.piece_at(sq) else {
                continue;
            };
            let stand = flood(Bitboard::from_square(sq), !locked, |s| {
                attacks::attacks(s, piece, locked)
            });
            men[usize::from(sq)] = stand;
            if stuck.contains(sq) && stand == Bitboard::from_square(sq) {
                side.fence |= attacks::attacks(sq, piece, locked);
            }
            side.stand |= stand;
            for s in stand {
                side.hit |= attacks::attacks(s, piece, locked);
            }
        }
    }
    // Then kings: a king that can never move guards its neighbours for
    // good, which may shut the other king in too.
    loop {
        let mut regions = [Bitboard::EMPTY; 2];
        for color in Color::ALL {
            if let Some(sq) = board.king_of(color) {
                regions[color as usize] =
                    king_region(pos, sq, locked, sides[!color as usize].fence);
            }
        }
        let stuck = Color::ALL
            .into_iter()
            .filter_map(|c| {
                board
                    .king_of(c)
                    .filter(|&k| regions[c as usize] == Bitboard::from_square(k))
            })
            .fold(Bitboard::EMPTY, |acc, k| acc | k);
        for color in Color::ALL {
            sides[color as usize].king = regions[color as usize];
        }
        if stuck == stuck_kings {
            break;
        }
        for k in stuck & !stuck_kings {
            if let Some(c) = board.color_at(k) {
                sides[c as usize].fence |= attacks::king_attacks(k);
            }
        }
        stuck_kings = stuck;
    }
    // Pawns capture only onto squares an enemy man other than the king may
    // stand on, which the other side's pawns widen in turn.
    let moving = board.pawns() & !locked;
    let mut cones = [Bitboard::EMPTY; 64];
    for sq in moving {
        cones[usize::from(sq)] = Bitboard::from_square(sq);
    }
    let union = |cones: &[Bitboard; 64], color: Color| {
        let mut all = Bitboard::EMPTY;
        for sq in moving & board.by_color(color) {
            all |= cones[usize::from(sq)];
        }
        all
    };
    loop {
        let mut grown = false;
        for color in Color::ALL {
            let prey = sides[!color as usize].stand
                | union(&cones, !color)
                | (locked & board.by_color(!color));
            // No push reaches a locked pawn, a king that never moves, or an
            // enemy pawn bound to the file.
            let no_push = locked | stuck_kings | (bound & board.by_color(!color));
            for sq in moving & board.by_color(color) {
                let cone = pawn_cone(color, Bitboard::from_square(sq), no_push, prey);
                if cone.intersects(Bitboard::from_rank(color.relative_rank(Rank::Eighth))) {
                    return None;
                }
                if cone != cones[usize::from(sq)] {
                    cones[usize::from(sq)] = cone;
                    grown = true;
                }
            }
        }
        if !grown {
            break;
        }
    }
    for color in Color::ALL {
        let side = &mut sides[color as usize];
        let cone = union(&cones, color);
        side.stand |= cone;
        for s in cone {
            side.hit |= attacks::pawn_attacks(color, s);
        }
    }
    for sq in moving {
        men[usize::from(sq)] = cones[usize::from(sq)];
    }
    Some(Reach {
        sides,
        cones,
        stuck_kings,
        men,
    })
}

/// Where the king on `sq` can ever stand: never on a locked pawn or a
/// square the other side guards for good.
fn king_region(pos: &Chess, sq: Square, locked: Bitboard, foe_fence: Bitboard) -> Bitboard {
    let start = Bitboard::from_square(sq);
    let allowed = !locked & !foe_fence;
    if foe_fence.contains(sq) {
        // In check from a locked pawn: the king leaves by a move legal now
        // and can never come back to this square.
        let mut first = Bitboard::EMPTY;
        for m in pos.legal_moves() {
            if m.from() == Some(sq) {
                first.add(m.to());
            }
        }
        start | flood(first & allowed, allowed, attacks::king_attacks)
    } else {
        flood(start, allowed, attacks::king_attacks)
    }
}

/// Room for the two kings: the squares each can reach by steps that avoid
/// its own pawns and the squares the other side's pawns attack, multiplied.
/// A rough size of the world the exhaustive check would list.
pub(crate) fn kings_room(board: &Board) -> usize {
    Color::ALL
        .into_iter()
        .map(|color| {
            let Some(king) = board.king_of(color) else {
                return 0;
            };
            let [west, east] = pawn_attack_sides(!color, board.pawns() & board.by_color(!color));
            let guarded = west | east;
            let allowed = !(board.pawns() & board.by_color(color)) & !guarded;
            flood(Bitboard::from_square(king), allowed, attacks::king_attacks).count()
        })
        .product()
}

/// Every square reachable from `start` in steps of `step`, landing only on
/// `allowed` squares.
fn flood(start: Bitboard, allowed: Bitboard, step: impl Fn(Square) -> Bitboard) -> Bitboard {
    let mut seen = start;
    let mut frontier = start;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for s in frontier {
            next |= step(s);
        }
        frontier = next & allowed & !seen;
        seen |= frontier;
    }
    seen
}

/// One rank forward for `color`.
fn forward(color: Color, b: Bitboard) -> Bitboard {
    match color {
        Color::White => b.shift(8),
        Color::Black => b.shift(-8),
    }
}

/// Squares a pawn may ever stand on: pushes onto squares not in
/// `no_push`, captures onto `prey`, until the cone stops growing.
fn pawn_cone(color: Color, start: Bitboard, no_push: Bitboard, prey: Bitboard) -> Bitboard {
    let mut cone = start;
    loop {
        let ahead = forward(color, cone);
        let diagonal = (ahead.shift(1) & !Bitboard::from_file(File::A))
            | (ahead.shift(-1) & !Bitboard::from_file(File::H));
        let next = cone | (ahead & !no_push) | (diagonal & prey);
        if next == cone {
            return cone;
        }
        cone = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_position as pos;

    #[test]
    fn a_locked_wall_keeps_the_kings_apart() {
        // A full wall of rammed pawns: neither king can cross it.
        let p = pos("4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K3 w - - 0 1");
        assert!(walls_forbid_mate(&p, Color::White));
        assert!(walls_forbid_mate(&p, Color::Black));
        // Without the h-pawns the g-pawns still guard h4 and h5.
        let p = pos("4k3/8/1p1p1p2/pPpPpPp1/P1P1P1P1/8/8/4K3 w - - 0 1");
        assert!(walls_forbid_mate(&p, Color::White));
    }

    #[test]
    fn a_pawn_that_runs_free_is_what_the_fixpoint_finds() {
        // A full wall, and the same with a black pawn free behind it.
        let walled = pos("4k3/8/1p1p1p2/pPpPpPp1/P1P1P1P1/8/8/4K3 w - - 0 1");
        assert!(!a_pawn_runs_free(walled.board()));
        let free = pos("4k3/8/1p1p1p2/pPpPpPp1/P1P1P1P1/8/6p1/4K3 w - - 0 1");
        assert!(a_pawn_runs_free(free.board()));
        assert!(!walls_hold(&free, Color::White));
        assert!(!walls_hold(&free, Color::Black));
        // Wherever the shortcut answers, the fixpoint answers the same.
        let mut answered = 0;
        for p in crate::analysis::random_positions(200) {
            if a_pawn_runs_free(p.board()) {
                answered += 1;
                for winner in Color::ALL {
                    assert!(
                        !walls_hold(&p, winner),
                        "{}",
                        shakmaty::fen::Fen::from_position(&p, EnPassantMode::Legal)
                    );
                }
            }
        }
        assert!(answered > 1_000, "{answered}");
    }

    #[test]
    fn the_kings_room_multiplies_their_squares() {
        // Each king has its back rank: the pawns in front of it are its own.
        assert_eq!(
            kings_room(pos(shakmaty::fen::Fen::default().to_string().as_str()).board()),
            64
        );
        // The tests' wall: Black's king has a6 and a5 (b5 and a7 are
        // guarded), White's 43 squares behind its pawns.
        let p = pos("8/1p6/kPp3p1/2P3p1/1pP3Pb/1P4p1/6P1/7K w - - 0 1");
        assert_eq!(kings_room(p.board()), 43 * 2);
        // Kings that roam behind a wall with gaps: 53 squares each.
        let p = pos("8/2k5/2p5/K1Pp2p1/3P2Pp/7P/8/8 w - - 4 55");
        assert_eq!(kings_room(p.board()), 53 * 53);
    }

    #[test]
    fn a_gap_or_a_free_pawn_is_not_a_proof() {
        // Without the g- and h-pawns the black king walks round and takes e4.
        let p = pos("4k3/8/1p1p1p2/pPpPpP2/P1P1P3/8/8/4K3 w - - 0 1");
        assert!(!walls_forbid_mate(&p, Color::White));
        // A pawn behind the wall can capture its way into it.
        let p = pos("4k3/8/1p1p1p1p/pPpPpPpP/2P1P1P1/8/P7/4K3 w - - 0 1");
        assert!(!walls_forbid_mate(&p, Color::White));
        // A knight can reach the rammed pawns and take one.
        let p = pos("4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/4K1N1 w - - 0 1");
        assert!(!walls_forbid_mate(&p, Color::White));
    }

    #[test]
    fn the_readme_pawn_wall() {
        // The analyzer's README position: White's bishop can reach the
        // black king's side through f5-e6; Black's bishop cannot help mate.
        let p = pos("5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - -");
        assert!(!walls_forbid_mate(&p, Color::White));
        assert!(walls_forbid_mate(&p, Color::Black));
    }

    #[test]
    fn a_king_that_can_never_move_guards_its_pawn() {
        // White's king is shut in on h1 for good and guards g2: Black's king
        // can never take it, and Black's dark bishops never check h1.
        let p = pos("1b5k/b7/8/3B4/8/6p1/6Pp/7K w - - 0 1");
        assert!(walls_forbid_mate(&p, Color::Black));
    }

    #[test]
    fn pawns_bound_to_their_files_never_pass() {
        // The a/c/e/g pawns facing each other can never leave their files
        // (nothing to capture), so none promotes, and the kings stay apart.
        let p = pos("1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1");
        assert!(walls_forbid_mate(&p, Color::White));
        assert!(walls_forbid_mate(&p, Color::Black));
    }

    #[test]
    fn a_king_in_check_from_a_locked_pawn_never_comes_back() {
        // Black's king on a6 must leave by a7 or b7 and can never return to
        // a6, the only way round to White's side.
        let p = pos("8/2b5/kp1p1p2/1PpP1Pp1/K1P3P1/3B4/8/8 b - - 0 1");
        assert!(walls_forbid_mate(&p, Color::White));
        assert!(walls_forbid_mate(&p, Color::Black));
    }
}
