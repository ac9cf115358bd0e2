//! The exhaustive check for small worlds: every position reachable from the
//! root, breadth first, until the set stops growing (no mate anywhere:
//! unwinnable) or passes a cap (no answer). Blocked pawn structures where
//! only kings and a bishop can move close after a few thousand positions.

use shakmaty::{zobrist::Zobrist128, Chess, Color, Move, MoveList, Position};

use super::search::{key, KeySet};
use crate::chess::cheap_moves::plain_legal_moves;
use crate::chess::key::{key_after, key_after_plain};

pub(crate) enum Closure {
    /// A mate reached, with the moves from the root (a shortest line).
    Mate(Vec<Move>),
    /// Every reachable position seen; none is mate.
    NoMate,
    /// More than the cap: no answer.
    TooBig,
}

pub(crate) fn closure(root: &Chess, winner: Color, cap: usize) -> Closure {
    let root_key = key(root);
    // Sized for the cap at once: the sets that reach it would otherwise
    // grow and rehash several times on the way.
    let mut seen = KeySet::with_capacity_and_hasher(cap + 1, Default::default());
    seen.insert(root_key);
    // (position, its key, index of the position it came from, the move played)
    let mut nodes: Vec<(Chess, u128, usize, Option<Move>)> = Vec::with_capacity(cap + 1);
    nodes.push((root.clone(), root_key, 0, None));
    let mut moves = MoveList::new();
    let mut next = 0;
    while let Some((pos, k, _, _)) = nodes.get(next) {
        let at = next;
        next += 1;
        if pos.has_insufficient_material(winner) {
            continue;
        }
        if !plain_legal_moves(pos, &mut moves) {
            moves = pos.legal_moves();
        }
        if moves.is_empty() {
            if pos.turn() != winner && pos.is_check() {
                return Closure::Mate(line_to(&nodes, at));
            }
            continue;
        }
        let (pos, k) = (pos.clone(), Zobrist128(*k));
        for &m in &moves {
            // Most moves of a closing world lead back to positions seen:
            // those are not played.
            let plain_key = key_after_plain(&pos, k, m).map(|z| z.0);
            if plain_key.is_some_and(|key| seen.contains(&key)) {
                continue;
            }
            let mut after = pos.clone();
            after.play_unchecked(m);
            let after_key = plain_key.unwrap_or_else(|| key_after(&pos, k, m, &after).0);
            if seen.insert(after_key) {
                if seen.len() > cap {
                    return Closure::TooBig;
                }
                nodes.push((after, after_key, at, Some(m)));
            }
        }
    }
    Closure::NoMate
}

fn line_to(nodes: &[(Chess, u128, usize, Option<Move>)], mut at: usize) -> Vec<Move> {
    let mut line = Vec::new();
    while let Some((_, _, parent, Some(m))) = nodes.get(at) {
        line.push(*m);
        at = *parent;
    }
    line.reverse();
    line
}
