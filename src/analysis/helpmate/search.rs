//! Iterative-deepening helpmate search: both sides cooperate so that the
//! intended winner mates. A mate found is a proof of "winnable" (the line is
//! returned); a depth searched to the end with nothing cut short is a proof
//! of "unwinnable", since then every position reachable from the root has
//! been visited. Budgets are counted in nodes, never in time, so the same
//! position gets the same verdict however loaded the machine is.

use std::hash::BuildHasherDefault;

use shakmaty::{
    attacks, zobrist::Zobrist128, Bitboard, Chess, EnPassantMode, Move, MoveList, Position, Role,
    Square,
};

use super::heuristics::{Cost, Plan};
use crate::chess::attacks::pins_and_checkers;
use crate::chess::cheap_moves::{king_can_step, plain_legal_moves, plain_moves_kept};
use crate::chess::key::{key_after, key_after_plain, KeyHasher};

/// The longest line searched, in plies.
const MAX_LINE: usize = 128;
/// Slots in the largest transposition table (8 bytes each: 1 MB), kept per
/// worker between queries. The wide search uses its first quarter only
/// (256 KB, which stays in a core's L2 cache beside the rest of the
/// worker's data; 32 KB with at most 8 men, `winnability`): on the lichess
/// file's flag-fall queries it searched 0.04 % more nodes than with the
/// whole table.
pub(crate) const TABLE_SLOTS: usize = 1 << 17;

/// Positions searched and the depth left when they were, by key. A flat
/// array rather than a hash map: a probe reads one cache line. Each key
/// has two slots; a third position takes the place of the shallower search.
/// A position lost costs a search again, never a wrong answer: a slot keeps
/// the key's upper bits and a mark that it is taken.
#[derive(Default)]
struct Table {
    slots: Vec<u64>,
    /// The slots this run uses, a power of two.
    used: usize,
}

/// Set in every taken slot, so that no key's tag reads as an empty slot.
const TAKEN: u64 = 1 << 8;

impl Table {
    /// Forgets every position (at the start of a run) and uses `used`
    /// slots (a power of two, at most `TABLE_SLOTS`).
    ///
    /// Zeroed in order rather than aged by a generation number: in a run
    /// of games each query finds the table evicted (parsing and replaying
    /// come between), and the search's probes, at random, then missed the
    /// cache one by one. Written in order, the slots come back at memory
    /// speed first: the lichess file's flag-fall searches took a fifth
    /// less time inside a run (8 interleaved runs, timed query by query).
    fn clear(&mut self, used: usize) {
        if self.slots.is_empty() {
            self.slots = vec![0; TABLE_SLOTS];
        }
        self.used = used.clamp(2, TABLE_SLOTS);
        self.slots[..self.used].fill(0);
    }

    /// The first of the key's two slots.
    fn bucket(&self, k: u128) -> usize {
        k as usize & (self.used - 2)
    }

    /// The key's check bits and the taken mark, above the depth left.
    fn tag(&self, k: u128) -> u64 {
        ((k >> 64) as u64 & !0xffff) | TAKEN
    }

    fn get(&self, k: u128) -> Option<u8> {
        let b = self.bucket(k);
        let tag = self.tag(k);
        self.slots
            .get(b..b + 2)?
            .iter()
            .find(|&&e| e & !0xff == tag)
            .map(|&e| e as u8)
    }

    fn insert(&mut self, k: u128, left: u8) {
        let b = self.bucket(k);
        let tag = self.tag(k);
        let Some(pair) = self.slots.get_mut(b..b + 2) else {
            return;
        };
        let i = if pair[0] & !0xff == tag {
            0
        } else if pair[1] & !0xff == tag {
            1
        } else {
            // The shallower search goes; an empty slot counts as depth 0.
            usize::from(pair[1] & 0xff < pair[0] & 0xff)
        };
        pair[i] = tag | u64::from(left);
    }
}

pub(crate) type KeySet = std::collections::HashSet<u128, BuildHasherDefault<KeyHasher>>;

/// The position's identity for transpositions: board, side to move,
/// castling rights and a capturable en passant square.
pub(crate) fn key(pos: &Chess) -> u128 {
    let z: Zobrist128 = pos.zobrist_hash(EnPassantMode::Legal);
    z.0
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Budget {
    /// Nodes the run's k-th iteration may add: k times this (`u64::MAX`:
    /// no limit).
    pub(crate) per_iteration: u64,
    /// Nodes over the whole run.
    pub(crate) total: u64,
    /// Slots of the table that remembers positions already searched as
    /// deep (a power of two, at most `TABLE_SLOTS`); none: no table.
    pub(crate) table: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A mating line from the root.
    Mate(Vec<Move>),
    /// Every reachable position was searched: no mate.
    NoMate,
    /// The budget ran out first.
    Unknown,
}

/// One worker's search state, reused from query to query.
#[derive(Default)]
pub(crate) struct Search {
    table: Table,
    line: Vec<Move>,
    max_depth: u8,
    nodes: u64,
    limit: u64,
    cut: bool,
    use_table: bool,
}

impl Search {
    pub(crate) fn run(
        &mut self,
        pos: &Chess,
        plan: &Plan,
        depths: impl IntoIterator<Item = u8>,
        budget: Budget,
    ) -> Outcome {
        self.use_table = budget.table.is_some();
        if let Some(slots) = budget.table {
            self.table.clear(slots);
        }
        self.nodes = 0;
        let mut outcome = Outcome::Unknown;
        for (k, depth) in (1u64..).zip(depths) {
            self.max_depth = depth;
            self.cut = false;
            self.line.clear();
            self.limit = budget
                .per_iteration
                .saturating_mul(k)
                .saturating_add(self.nodes)
                .min(budget.total);
            let root = self.use_table.then(|| key(pos));
            let mated = self.helpmate(plan, pos, root, 0, false);
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
    /// move by move rather than computed afresh; `try_move` has looked it
    /// up already (the root, in a table cleared for the run, holds nothing
    /// as deep).
    fn helpmate(
        &mut self,
        plan: &Plan,
        pos: &Chess,
        k: Option<u128>,
        depth: u8,
        after_progress: bool,
    ) -> bool {
        let winner = plan.winner;
        let left = self.max_depth.saturating_sub(depth);
        if pos.has_insufficient_material(winner) {
            return false;
        }
        let leaf = depth >= self.max_depth || self.line.len() >= MAX_LINE;
        if leaf && (!pos.is_check() || king_can_step(pos)) {
            // Not mate; whether it is stalemate does not matter at a cut.
            self.cut = true;
            return false;
        }
        let winner_moves = pos.turn() == winner;
        if !winner_moves && !after_progress && left == 1 && !leaf {
            // Only the loser's free moves are searched here: where they are
            // king steps, they are listed without generating every move.
            if let Some(steps) = plan.loser_free_king_steps(pos) {
                if let Some(k) = k {
                    self.table.insert(k, left);
                }
                // Every other move (if any) ends the line at the depth.
                self.cut = true;
                let Some(from) = pos.board().king_of(!winner) else {
                    return false;
                };
                for to in steps {
                    let m = Move::Normal {
                        role: Role::King,
                        from,
                        capture: pos.board().role_at(to),
                        to,
                        promotion: None,
                    };
                    match self.try_move(plan, pos, k, m, depth, true) {
                        Some(true) => return true,
                        Some(false) => {}
                        None => return false,
                    }
                }
                return false;
            }
        }
        if winner_moves && !after_progress && left == 1 && !leaf {
            if let Some(mated) = self.winner_last_ply(plan, pos, k, depth) {
                return mated;
            }
        }
        self.every_move(plan, pos, k, depth, after_progress)
    }

    /// `helpmate` by the general loop: every legal move, each child
    /// searched unless it is a leaf that cannot be mate.
    fn every_move(
        &mut self,
        plan: &Plan,
        pos: &Chess,
        k: Option<u128>,
        depth: u8,
        after_progress: bool,
    ) -> bool {
        let winner = plan.winner;
        let winner_moves = pos.turn() == winner;
        let left = self.max_depth.saturating_sub(depth);
        let leaf = depth >= self.max_depth || self.line.len() >= MAX_LINE;
        let mut moves = MoveList::new();
        if !plain_legal_moves(pos, &mut moves) {
            moves = pos.legal_moves();
        }
        if moves.is_empty() {
            return !winner_moves && pos.is_check();
        }
        if leaf {
            self.cut = true;
            return false;
        }
        if let Some(k) = k {
            self.table.insert(k, left);
        }
        let Some(loser_king) = pos.board().king_of(!winner) else {
            return false;
        };
        for &m in &moves {
            let cost = plan.cost(winner_moves, m);
            let child_depth = depth.saturating_add(cost.plies(after_progress));
            if child_depth >= self.max_depth && !(winner_moves && may_check(pos, m, loser_king)) {
                // The child is a leaf and cannot be mate: the loser has just
                // moved, or the winner's move gives no check.
                self.nodes += 1;
                self.cut = true;
                continue;
            }
            match self.try_move(plan, pos, k, m, child_depth, cost == Cost::Free) {
                Some(true) => return true,
                Some(false) => {}
                None => return false,
            }
        }
        false
    }

    /// The winner to move with one ply of depth left, not just after
    /// progress: a move that costs a ply ends the line, where only a check
    /// can mate, so only free moves and moves that may check are played,
    /// as the general loop plays them. They are picked from the attack sets
    /// without listing every move (the general loop's cost here was the
    /// listing and the tests of moves it then skipped); the moves left out
    /// are counted in the full list's order, so the budget runs out where it
    /// would there. `None` where the winner is in check or shakmaty must
    /// list. (The loser's side of this gained nothing: its lists are short.)
    fn winner_last_ply(
        &mut self,
        plan: &Plan,
        pos: &Chess,
        k: Option<u128>,
        depth: u8,
    ) -> Option<bool> {
        let board = pos.board();
        let loser_king = board.king_of(!plan.winner)?;
        let occupied = board.occupied();
        let ours = board.by_color(plan.winner);
        let theirs = board.by_color(!plan.winner);
        // A man of ours alone between the loser's king and a slider of ours
        // may uncover a check: what the pin test calls pinned, with our men
        // on both sides of the line.
        let (uncovering, _) = pins_and_checkers(pos, loser_king, ours, ours, occupied);
        let mut moves = MoveList::new();
        let mut places = [0u8; 256];
        let listed = plain_moves_kept(pos, &mut moves, &mut places, |role, from, targets| {
            if uncovering.contains(from) {
                return targets;
            }
            let lifted = occupied ^ Bitboard::from_square(from);
            let checking = attacks::attacks(loser_king, role.of(plan.winner), lifted);
            (targets & checking) | plan.winner_maybe_free(role, from, targets, theirs)
        })?;
        if listed == 0 {
            return Some(false);
        }
        if let Some(k) = k {
            self.table.insert(k, 1);
        }
        // The full list's moves before `next` have been counted.
        let mut next = 0;
        for (&m, &place) in moves.iter().zip(&places) {
            let place = usize::from(place);
            self.count_leaves(place.saturating_sub(next));
            next = place + 1;
            let cost = plan.cost(true, m);
            if cost != Cost::Free && !may_check(pos, m, loser_king) {
                self.count_leaves(1);
                continue;
            }
            let child_depth = depth.saturating_add(cost.plies(false));
            match self.try_move(plan, pos, k, m, child_depth, cost == Cost::Free) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => return Some(false),
            }
        }
        self.count_leaves(listed.saturating_sub(next));
        Some(false)
    }

    /// `n` children that end the line at the depth without mate: counted
    /// as nodes, not played.
    fn count_leaves(&mut self, n: usize) {
        if n > 0 {
            self.nodes += n as u64;
            self.cut = true;
        }
    }

    /// Plays `m` and searches on from `child_depth`: `Some(true)` when that
    /// mates (the line is kept), `None` when the budget is spent.
    fn try_move(
        &mut self,
        plan: &Plan,
        pos: &Chess,
        k: Option<u128>,
        m: Move,
        child_depth: u8,
        progress: bool,
    ) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.limit {
            self.cut = true;
            return None;
        }
        // A child searched already at least as deep (or on the path now)
        // holds nothing not found or ruled out there. Where its key comes
        // from the move alone, it is not even played.
        let left = self.max_depth.saturating_sub(child_depth);
        let known = |table: &Table, key: u128| table.get(key).is_some_and(|seen| seen >= left);
        let plain_key = k.and_then(|k| key_after_plain(pos, Zobrist128(k), m).map(|z| z.0));
        if plain_key.is_some_and(|key| known(&self.table, key)) {
            return Some(false);
        }
        let mut next = pos.clone();
        next.play_unchecked(m);
        let child_key = match plain_key {
            Some(key) => Some(key),
            None => {
                let key = k.map(|k| key_after(pos, Zobrist128(k), m, &next).0);
                if key.is_some_and(|key| known(&self.table, key)) {
                    return Some(false);
                }
                key
            }
        };
        self.line.push(m);
        if self.helpmate(plan, &next, child_key, child_depth, progress) {
            return Some(true);
        }
        self.line.pop();
        Some(false)
    }
}

/// `false` only when `m` certainly gives no check to the king on `king`:
/// the moved (or promoted) man does not attack it and no slider of the
/// mover's sees it through the square left. Castling and en passant are
/// taken to check.
#[inline(always)]
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
    let board = pos.board();
    let occupied = (board.occupied() & !Bitboard::from_square(from)) | Bitboard::from_square(to);
    let piece = promotion.unwrap_or(role).of(pos.turn());
    if attacks::attacks(to, piece, occupied).contains(king) {
        return true;
    }
    if !attacks::queen_attacks(king, Bitboard::EMPTY).contains(from) {
        return false;
    }
    // A discovered check: a slider behind the square the man left.
    let ours = board.by_color(pos.turn()) & !Bitboard::from_square(from);
    let diagonal = ours & board.bishops_and_queens();
    let straight = ours & board.rooks_and_queens();
    (attacks::bishop_attacks(king, occupied) & diagonal).any()
        || (attacks::rook_attacks(king, occupied) & straight).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;

    #[test]
    fn the_table_keeps_the_deeper_searches_and_forgets_earlier_runs() {
        let mut t = Table::default();
        t.clear(TABLE_SLOTS);
        // Three keys of one bucket, told apart by their upper bits.
        let k = |n: u128| (n << 80) | 6;
        t.insert(k(1), 5);
        t.insert(k(2), 3);
        assert_eq!(
            (t.get(k(1)), t.get(k(2)), t.get(k(3))),
            (Some(5), Some(3), None)
        );
        // A third takes the shallower search's slot.
        t.insert(k(3), 4);
        assert_eq!(
            (t.get(k(1)), t.get(k(2)), t.get(k(3))),
            (Some(5), None, Some(4))
        );
        // An update keeps its slot.
        t.insert(k(3), 9);
        assert_eq!((t.get(k(1)), t.get(k(3))), (Some(5), Some(9)));
        // The next run sees none of it, whether it uses fewer slots or
        // all of them again after one that used fewer.
        let far = |n: u128| (n << 80) | (TABLE_SLOTS as u128 - 2);
        t.insert(far(1), 7);
        t.clear(TABLE_SLOTS / 32);
        assert_eq!((t.get(k(1)), t.get(k(3))), (None, None));
        t.insert(k(2), 1);
        assert_eq!((t.get(k(1)), t.get(k(2))), (None, Some(1)));
        t.clear(TABLE_SLOTS);
        assert_eq!((t.get(far(1)), t.get(k(2))), (None, None));
        // A key whose check bits are all zero is not read off an empty slot.
        assert_eq!(t.get(6), None);
        t.insert(6, 0);
        assert_eq!(t.get(6), Some(0));
    }

    #[test]
    fn the_last_ply_shortcut_changes_neither_outcome_nor_node_count() {
        // Flag-fall and dead-position shapes from the lichess file: lone
        // minor pieces against men, rooks and queens against a king.
        let cases = [
            ("8/p5pk/1p1q3p/8/8/2B5/2K5/8 b - - 1 46", Color::White),
            ("8/8/2B5/2k4p/3NK1p1/7r/8/8 b - - 3 47", Color::White),
            ("6k1/6p1/8/3K4/3B4/8/8/3r4 b - - 0 44", Color::White),
            ("R7/4R3/8/5PN1/5k1P/3b1P2/3P1K2/8 w - - 3 50", Color::Black),
            ("8/5k2/5b2/Q2K4/8/8/P7/8 w - - 1 61", Color::Black),
            ("8/8/8/8/5kn1/8/3K2b1/8 b - - 28 69", Color::Black),
            ("8/8/2k5/6K1/7B/7P/5P2/8 w - - 3 64", Color::White),
            ("4Q3/8/8/3k4/3N1Q1P/6P1/P5K1/8 w - - 1 49", Color::White),
            (
                "r3k2r/ppp1qppp/8/3pP3/8/8/PPPQ1PPP/R3K2R w KQkq d6 0 1",
                Color::Black,
            ),
        ];
        // Every position up to three plies deep with the winner to move
        // (the first 2,000 at each depth), searched with one ply left, by
        // the shortcut and by the general loop, each with the same node
        // budget.
        let mut compared = 0;
        for (fen, winner) in cases {
            let root = crate::analysis::test_position(fen);
            let plan = Plan::new(&root, winner);
            let mut level = vec![root.clone()];
            let mut nodes = level.clone();
            for _ in 0..3 {
                level = level
                    .iter()
                    .flat_map(|p| {
                        p.legal_moves().into_iter().map(move |m| {
                            let mut q = p.clone();
                            q.play_unchecked(m);
                            q
                        })
                    })
                    .take(2_000)
                    .collect();
                nodes.extend(level.iter().cloned());
            }
            for pos in nodes.iter().filter(|p| p.turn() == winner) {
                let start = |s: &mut Search| {
                    s.max_depth = 1;
                    s.limit = 20_000;
                    s.nodes = 0;
                    s.cut = false;
                    s.line.clear();
                };
                let (mut fast, mut slow) = (Search::default(), Search::default());
                start(&mut fast);
                start(&mut slow);
                let Some(a) = fast.winner_last_ply(&plan, pos, None, 0) else {
                    continue;
                };
                let b = slow.every_move(&plan, pos, None, 0, false);
                assert_eq!(a, b, "{fen} then {pos:?}");
                assert_eq!(fast.nodes, slow.nodes, "{fen} then {pos:?}");
                assert_eq!(fast.cut, slow.cut, "{fen} then {pos:?}");
                assert_eq!(fast.line, slow.line, "{fen} then {pos:?}");
                compared += 1;
            }
        }
        assert!(compared > 3_000, "{compared}");
    }

    #[test]
    fn may_check_is_exact_for_ordinary_moves() {
        // Discovered checks by bishop, rook and queen, a promotion that
        // checks, a man that blocks its own slider, pins and captures.
        let fens = [
            "4k3/8/8/8/4N3/8/8/4R2K w - - 0 1",
            "7k/8/5N2/8/3B4/8/8/K7 w - - 0 1",
            "3k4/1P5R/8/8/8/2Q5/8/4K3 w - - 0 1",
            "r3k2r/pp1n1ppp/2p1b3/q2pP3/3P1B2/2NQ1N2/PPP2PPP/R3K2R w KQkq - 0 1",
            "8/2P4k/8/4B3/8/2R5/8/K7 w - - 0 1",
        ];
        let mut checks = 0;
        let mut moves = 0;
        for fen in fens {
            let pos = crate::analysis::test_position(fen);
            let king = pos.board().king_of(!pos.turn()).expect("a king");
            for m in pos.legal_moves() {
                if !matches!(m, Move::Normal { .. }) {
                    continue;
                }
                let mut next = pos.clone();
                next.play_unchecked(m);
                assert_eq!(may_check(&pos, m, king), next.is_check(), "{fen} {m}");
                checks += usize::from(next.is_check());
                moves += 1;
            }
        }
        assert!(
            checks >= 20 && moves >= 100,
            "{checks} checks in {moves} moves"
        );
    }

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
