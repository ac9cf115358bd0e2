//! Iterative-deepening helpmate search: both sides cooperate so that the
//! intended winner mates. A mate found is a proof of "winnable" (the line is
//! returned); a depth searched to the end with nothing cut short is a proof
//! of "unwinnable", since then every position reachable from the root has
//! been visited. Budgets are counted in nodes, never in time, so the same
//! position gets the same verdict however loaded the machine is.

use std::{
    collections::HashMap,
    hash::{BuildHasherDefault, Hasher},
};

use shakmaty::{
    attacks, zobrist::Zobrist128, Bitboard, Chess, EnPassantMode, Move, Position, Square,
};

use super::heuristics::{Cost, Plan};
use crate::analysis::key::key_after;

/// The longest line searched, in plies.
const MAX_LINE: usize = 128;
/// Positions the transposition table holds at most (32 bytes a slot in
/// hashbrown: about 4 MB), kept per worker between queries. Half as many
/// leaves 36 more of the analyzer's 3,606 test sides undetermined.
const TABLE_CAP: usize = 1 << 16;

/// Zobrist keys are already uniform: the hasher takes their low bits.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u128(&mut self, i: u128) {
        self.0 = i as u64;
    }
}

pub type KeyMap<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;
pub type KeySet = std::collections::HashSet<u128, BuildHasherDefault<KeyHasher>>;

/// The position's identity for transpositions: board, side to move,
/// castling rights and a capturable en passant square.
pub fn key(pos: &Chess) -> u128 {
    let z: Zobrist128 = pos.zobrist_hash(EnPassantMode::Legal);
    z.0
}

#[derive(Copy, Clone, Debug)]
pub struct Budget {
    /// Nodes per ply of depth in one iteration (`u64::MAX`: no limit).
    pub per_depth: u64,
    /// Nodes over the whole run.
    pub total: u64,
    /// Remember positions already searched as deep.
    pub table: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A mating line from the root.
    Mate(Vec<Move>),
    /// Every reachable position was searched: no mate.
    NoMate,
    /// The budget ran out first.
    Unknown,
}

/// One worker's search state, reused from query to query.
#[derive(Default)]
pub struct Search {
    table: KeyMap<u8>,
    line: Vec<Move>,
    plan: Option<Plan>,
    max_depth: u8,
    nodes: u64,
    limit: u64,
    cut: bool,
    use_table: bool,
}

impl Search {
    pub fn run(
        &mut self,
        pos: &Chess,
        plan: Plan,
        depths: impl IntoIterator<Item = u8>,
        budget: Budget,
    ) -> Outcome {
        self.plan = Some(plan);
        self.use_table = budget.table;
        // Kept, not freed: growing a table of this size again, rehashing
        // at every doubling, cost more than the search that filled it.
        if !self.table.is_empty() {
            self.table.clear();
        }
        self.nodes = 0;
        let mut outcome = Outcome::Unknown;
        for depth in depths {
            self.max_depth = depth;
            self.cut = false;
            self.line.clear();
            self.limit = budget
                .per_depth
                .saturating_mul(u64::from(depth))
                .saturating_add(self.nodes)
                .min(budget.total);
            let root = self.use_table.then(|| key(pos));
            let mated = self.helpmate(pos, root, 0, false);
            if mated {
                outcome = Outcome::Mate(self.line.clone());
                break;
            }
            if !self.cut {
                outcome = Outcome::NoMate;
                break;
            }
            if self.nodes >= budget.total {
                break;
            }
        }
        outcome
    }

    /// Can the winner mate from `pos` within the depth left? On `true`,
    /// `self.line` holds the moves from the root.
    /// `k` is the position's key where the table is used, kept up to date
    /// move by move rather than computed afresh.
    fn helpmate(&mut self, pos: &Chess, k: Option<u128>, depth: u8, after_progress: bool) -> bool {
        let Some(winner) = self.plan.as_ref().map(|p| p.winner) else {
            return false;
        };
        let left = self.max_depth.saturating_sub(depth);
        if let Some(k) = k {
            if self.table.get(&k).is_some_and(|&seen| seen >= left) {
                // Searched already at least as deep (or on the path now):
                // whatever it holds is found or ruled out there.
                return false;
            }
        }
        if pos.has_insufficient_material(winner) {
            return false;
        }
        let leaf = depth >= self.max_depth || self.line.len() >= MAX_LINE;
        if leaf && !pos.is_check() {
            // Not mate; whether it is stalemate does not matter at a cut.
            self.cut = true;
            return false;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return pos.turn() != winner && pos.is_check();
        }
        if leaf {
            self.cut = true;
            return false;
        }
        if let Some(k) = k {
            if self.table.len() < TABLE_CAP || self.table.contains_key(&k) {
                self.table.insert(k, left);
            }
        }
        let winner_moves = pos.turn() == winner;
        let Some(loser_king) = pos.board().king_of(!winner) else {
            return false;
        };
        for &m in &moves {
            self.nodes += 1;
            if self.nodes > self.limit {
                self.cut = true;
                return false;
            }
            let cost = self.plan.as_ref().map_or(Cost::Normal, |p| p.cost(pos, m));
            let child_depth = depth.saturating_add(cost.plies(after_progress));
            if child_depth >= self.max_depth && !(winner_moves && may_check(pos, m, loser_king)) {
                // The child is a leaf and cannot be mate: the loser has just
                // moved, or the winner's move gives no check.
                self.cut = true;
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(m);
            self.line.push(m);
            let progress = cost == Cost::Free;
            let child_key = k.map(|k| key_after(pos, Zobrist128(k), m, &next).0);
            if self.helpmate(&next, child_key, child_depth, progress) {
                return true;
            }
            self.line.pop();
        }
        false
    }
}

/// `false` only when `m` certainly gives no check to the king on `king`:
/// the moved (or promoted) man does not attack it and the move leaves no
/// line to it open.
fn may_check(pos: &Chess, m: Move, king: Square) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        return true;
    };
    let occupied =
        (pos.board().occupied() & !Bitboard::from_square(from)) | Bitboard::from_square(to);
    let piece = promotion.unwrap_or(role).of(pos.turn());
    attacks::attacks(to, piece, occupied).contains(king)
        || attacks::queen_attacks(king, Bitboard::EMPTY).contains(from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_kept_up_to_date_match_keys_computed_afresh() {
        // Every move of two plies from a position with castling rights and
        // an en passant capture available.
        let pos = crate::analysis::test_position(
            "r3k2r/ppp1qppp/8/3pP3/8/8/PPPQ1PPP/R3K2R w KQkq d6 0 1",
        );
        let mut checked = 0;
        for m in pos.legal_moves() {
            let mut next = pos.clone();
            next.play_unchecked(m);
            let kept = key_after(&pos, Zobrist128(key(&pos)), m, &next).0;
            assert_eq!(kept, key(&next), "{m}");
            for r in next.legal_moves() {
                let mut after = next.clone();
                after.play_unchecked(r);
                let kept = key_after(&next, Zobrist128(key(&next)), r, &after).0;
                assert_eq!(kept, key(&after), "{m} {r}");
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
