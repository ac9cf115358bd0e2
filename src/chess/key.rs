//! Zobrist keys kept up to date move by move. shakmaty's own update gives up
//! on king moves, castling, double pushes and the move after one (about a
//! quarter of a game's plies), and a key computed afresh walks the board and
//! looks for a legal en passant capture; the replay and the helpmate search
//! both ask for a key on every ply.

use shakmaty::{
    zobrist::ZobristValue, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role, Square,
};

/// A hasher for Zobrist keys, which are uniform already: it takes their
/// low bits as they are (the replay's repetition table, the search's sets).
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }
    fn write_u128(&mut self, i: u128) {
        self.0 = i as u64;
    }
}

/// The key of `after`, the position `m` leads to from `before`, given the
/// key of `before`. Equal to `after.zobrist_hash(EnPassantMode::Legal)`.
#[inline]
pub(crate) fn key_after<V: ZobristValue>(before: &Chess, key: V, m: Move, after: &Chess) -> V {
    before_move(before, key, m).after(after)
}

/// `key_after` without the position after the move, where that position
/// adds nothing to the key: no castling rights before the move, and not a
/// double pawn push (the only move after which an en passant capture can be
/// legal). `None` otherwise. Lets a search skip playing a move whose
/// position it has already seen.
#[inline]
pub(crate) fn key_after_plain<V: ZobristValue>(before: &Chess, key: V, m: Move) -> Option<V> {
    if rights_bits(before) != 0 {
        return None;
    }
    if let Move::Normal {
        role: Role::Pawn,
        from,
        to,
        ..
    } = m
    {
        if from.rank().distance(to.rank()) == 2 {
            return None;
        }
    }
    Some(before_move(before, key, m).k)
}

/// A key half brought up to date: what the position before the move
/// tells. The replay plays the move in place and finishes the key from the
/// position after it, without keeping a copy of the one before.
pub(crate) struct Pending<V> {
    k: V,
    /// Castling rights before the move, one bit per colour and side.
    rights: u8,
}

fn rights_bits(pos: &Chess) -> u8 {
    let c = pos.castles();
    if c.castling_rights().is_empty() {
        return 0;
    }
    let mut bits = 0;
    for (i, (color, side)) in RIGHTS.iter().enumerate() {
        if c.has(*color, *side) {
            bits |= 1 << i;
        }
    }
    bits
}

const RIGHTS: [(Color, CastlingSide); 4] = [
    (Color::White, CastlingSide::KingSide),
    (Color::White, CastlingSide::QueenSide),
    (Color::Black, CastlingSide::KingSide),
    (Color::Black, CastlingSide::QueenSide),
];

/// The first half of `key_after`, from the position before `m` is played.
#[inline]
pub(crate) fn before_move<V: ZobristValue>(before: &Chess, key: V, m: Move) -> Pending<V> {
    let mut k = key;
    k ^= V::zobrist_for_white_turn();
    let turn = before.turn();
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            k ^= V::zobrist_for_piece(from, role.of(turn));
            k ^= V::zobrist_for_piece(to, promotion.unwrap_or(role).of(turn));
            if let Some(c) = capture {
                k ^= V::zobrist_for_piece(to, c.of(!turn));
            }
        }
        Move::EnPassant { from, to } => {
            k ^= V::zobrist_for_piece(from, Role::Pawn.of(turn));
            k ^= V::zobrist_for_piece(to, Role::Pawn.of(turn));
            let taken = Square::from_coords(to.file(), from.rank());
            k ^= V::zobrist_for_piece(taken, Role::Pawn.of(!turn));
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            k ^= V::zobrist_for_piece(king, Role::King.of(turn));
            k ^= V::zobrist_for_piece(rook, Role::Rook.of(turn));
            k ^= V::zobrist_for_piece(
                Square::from_coords(side.king_to_file(), king.rank()),
                Role::King.of(turn),
            );
            k ^= V::zobrist_for_piece(
                Square::from_coords(side.rook_to_file(), king.rank()),
                Role::Rook.of(turn),
            );
        }
        Move::Put { role, to } => k ^= V::zobrist_for_piece(to, role.of(turn)),
    }
    // The en passant file counts only where a capture there is legal; the
    // full test runs only where a pawn stands ready to capture.
    if let Some(ep) = before.ep_square(EnPassantMode::Legal) {
        k ^= V::zobrist_for_en_passant_file(ep.file());
    }
    Pending {
        k,
        rights: rights_bits(before),
    }
}

impl<V: ZobristValue> Pending<V> {
    /// The key, from the position after the move.
    #[inline]
    pub(crate) fn after(self, after: &Chess) -> V {
        let mut k = self.k;
        let changed = self.rights ^ rights_bits(after);
        if changed != 0 {
            for (i, (color, side)) in RIGHTS.iter().enumerate() {
                if changed & (1 << i) != 0 {
                    k ^= V::zobrist_for_castling_right(*color, *side);
                }
            }
        }
        if let Some(ep) = after.ep_square(EnPassantMode::Legal) {
            k ^= V::zobrist_for_en_passant_file(ep.file());
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, zobrist::Zobrist64, CastlingMode};

    /// Moves checked, and how many of them `key_after_plain` answered.
    fn walk(fen: &str, depth: u32) -> (usize, usize) {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("test FEN")
            .into_position(CastlingMode::Chess960)
            .expect("legal test position");
        let (mut checked, mut plain_checked) = (0, 0);
        let mut stack = vec![(pos, depth)];
        while let Some((pos, d)) = stack.pop() {
            let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
            for m in pos.legal_moves() {
                let mut next = pos.clone();
                next.play_unchecked(m);
                let fresh: Zobrist64 = next.zobrist_hash(EnPassantMode::Legal);
                assert_eq!(key_after(&pos, key, m, &next), fresh, "{fen}: {m}");
                if let Some(plain) = key_after_plain(&pos, key, m) {
                    assert_eq!(plain, fresh, "plain: {fen}: {m}");
                    plain_checked += 1;
                }
                checked += 1;
                if d > 1 {
                    stack.push((next, d - 1));
                }
            }
        }
        (checked, plain_checked)
    }

    #[test]
    fn kept_keys_equal_fresh_keys() {
        // Castling both ways, rights lost by king and rook moves and by a
        // rook taken, double pushes with and without a legal capture after,
        // en passant (one pinned), promotions with capture, Chess960.
        let positions = [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                3,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                3,
            ),
            ("8/8/8/K2pP2q/8/8/8/7k w - d6 0 1", 3),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                3,
            ),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                3,
            ),
        ];
        let (checked, plain) = positions
            .iter()
            .map(|(f, d)| walk(f, *d))
            .fold((0, 0), |(a, b), (c, d)| (a + c, b + d));
        assert!(checked > 50_000, "{checked}");
        // The positions without castling rights (the en passant ones
        // among them) exercise the answer without the position after.
        assert!(plain > 10_000 && plain < checked, "{plain} of {checked}");
    }
}
