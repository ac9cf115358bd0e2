//! How much search depth a move costs. A helpmate is a cooperation: the
//! intended winner brings king and knights towards a mating corner and pushes
//! pawns to promote; the loser walks its king into that corner, brings its
//! pieces beside it, pushes its pawns against minor pieces (blockers on the
//! way, new pieces at the end) and keeps the men that could block its own
//! king. Moves of that kind cost nothing, moves that throw the loser's
//! material away cost more, the rest one ply. The costs only order the work;
//! the verdict never depends on them.

use std::sync::LazyLock;

use shakmaty::{attacks, Bitboard, Board, Chess, Color, Move, Position, Role, Square};

use crate::chess::cheap_moves::king_steps_among;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cost {
    /// Progress: searched without using depth.
    Free,
    Normal,
    /// Searched only when depth is left over.
    Dear,
}

impl Cost {
    pub(crate) fn plies(self, after_progress: bool) -> u8 {
        match self {
            Cost::Free => 0,
            // A move right after progress is free too, so that the other
            // side's reply does not cancel the gain at once.
            Cost::Normal => u8::from(!after_progress),
            Cost::Dear => 4,
        }
    }
}

/// Where the search drives the loser's king: the corner its mate is
/// likeliest in, fixed for one query.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Plan {
    pub(crate) winner: Color,
    /// From every square, in moves: the winner's king to its post (two
    /// squares in from the mating corner on its file, h6 for h8; diagonally
    /// in, g7, where the winner's force is pawns without a rook or queen),
    /// a winner's knight to a square checking the corner, the loser's king
    /// to the corner, a loser's knight to the square beside the corner (g8
    /// for h8) where it blocks its own king in. Tables, because the search
    /// asks for every move it tries; the corner and the post are where they
    /// count to zero.
    to_king_post: [u8; 64],
    to_knight_posts: [u8; 64],
    to_corner: [u8; 64],
    to_blocking_post: [u8; 64],
    /// By a number of knight moves `d` (up to 7): the squares fewer than
    /// `d` moves from a knight post, where a knight's move is progress.
    knight_within: [Bitboard; 8],
    /// The same for king steps to the corner.
    corner_within: [Bitboard; 8],
    /// The squares beside the corner, where the loser's own men wall its
    /// king in.
    corner_ring: Bitboard,
    /// The winner has only minor pieces: its mates need the loser's men as
    /// blockers, and the loser's pawns marching on make them. Only where the
    /// loser has one or two (with more, free pushes multiply the lines), or
    /// where its mates want a piece the loser can only get by promoting
    /// (`wants_promotion`).
    loser_pawns_help: bool,
}

impl Plan {
    /// A corner on the loser's back rank: of the colour of the winner's
    /// bishops (a lone bishop mates only there), else of the loser's
    /// bishops' other colour, else the one nearer the loser's king.
    pub(crate) fn new(pos: &Chess, winner: Color) -> Plan {
        let board = pos.board();
        let ours = board.bishops() & board.by_color(winner);
        let theirs = board.bishops() & board.by_color(!winner);
        // `Some(true)`: a dark corner; `None` where bishops of both colours
        // leave the choice open.
        let on_dark = |b: Bitboard| match (
            (b & Bitboard::DARK_SQUARES).any(),
            (b & Bitboard::LIGHT_SQUARES).any(),
        ) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        };
        let dark = if ours.any() {
            on_dark(ours)
        } else {
            on_dark(theirs).map(|d| !d)
        };
        let loser_king = board.king_of(!winner).unwrap_or(Square::E8);
        // On the loser's back rank, where the winner's pawns promote.
        let corners = match winner {
            Color::White => [Square::A8, Square::H8],
            Color::Black => [Square::A1, Square::H1],
        };
        let corner = corners
            .into_iter()
            .filter(|c| dark.is_none_or(|d| c.is_dark() == d))
            .min_by_key(|c| c.distance(loser_king))
            .unwrap_or(Square::H8);
        // The winner's king post, `files` and `ranks` in from the corner.
        // h6 for h8, covering the squares a king in the corner flees to:
        // for rooks, queens and minor pieces the search visited a third
        // fewer positions than with g7 on the lichess file's flag falls,
        // 15 % fewer on its final positions, and about as many on the CHA
        // vectors. With pawns and no rook or queen, g7 took 46 % fewer on
        // the final positions.
        let ours = board.by_color(winner);
        let pawns_only =
            (board.rooks_and_queens() & ours).is_empty() && (board.pawns() & ours).any();
        let (files, ranks) = if pawns_only { (1, 1) } else { (0, 2) };
        let inward = |sq: Square| {
            let file = if sq.file() == shakmaty::File::A {
                files
            } else {
                7 - files
            };
            let rank = if sq.rank() == shakmaty::Rank::First {
                ranks
            } else {
                7 - ranks
            };
            Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank))
        };
        let beside = if corner.file() == shakmaty::File::A {
            corner.offset(1)
        } else {
            corner.offset(-1)
        };
        let king_post = inward(corner);
        let knight_posts = attacks::knight_attacks(corner);
        let blocking_post = beside.map_or(Bitboard::EMPTY, Bitboard::from_square);
        let to_knight_posts = knight_distances_to(knight_posts);
        let to_corner = table(|sq| sq.distance(corner) as u8);
        Plan {
            winner,
            to_king_post: table(|sq| sq.distance(king_post) as u8),
            to_knight_posts,
            knight_within: within(&to_knight_posts),
            to_corner,
            corner_within: within(&to_corner),
            to_blocking_post: knight_distances_to(blocking_post),
            corner_ring: attacks::king_attacks(corner),
            loser_pawns_help: crate::analysis::minor_pieces_only(board, winner)
                && ((board.pawns() & board.by_color(!winner)).count() <= 2
                    || wants_promotion(board, winner)),
        }
    }

    /// The cost of `m`, played by the winner or (`winner_moves` false) the
    /// loser. Asked for every move the search tries, so it reads the move's
    /// fields once rather than through its accessors.
    #[inline(always)]
    pub(crate) fn cost(&self, winner_moves: bool, m: Move) -> Cost {
        let (role, from, to, capture) = match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                ..
            } => (role, from, to, capture),
            Move::EnPassant { from, to } => (Role::Pawn, from, to, Some(Role::Pawn)),
            Move::Castle { king, rook } => (Role::King, king, rook, None),
            Move::Put { .. } => return Cost::Normal,
        };
        let nearer = |t: &[u8; 64]| t[usize::from(to)] < t[usize::from(from)];
        if winner_moves {
            // `winner_maybe_free` picks these rules' free moves from the
            // attack sets: a rule added here is added there.
            let progress = match role {
                Role::Pawn => true,
                Role::King => nearer(&self.to_king_post),
                Role::Knight => nearer(&self.to_knight_posts),
                _ => false,
            };
            if progress || capture.is_some() {
                Cost::Free
            } else {
                Cost::Normal
            }
        } else {
            // `loser_free_king_steps` lists these rules' free moves where
            // they are all king steps: a rule added here is added there.
            let closer = match role {
                Role::King => nearer(&self.to_corner),
                Role::Knight => nearer(&self.to_blocking_post),
                // Against minor pieces, a pawn marching on: a blocker beside
                // its king on the way, or a new piece to wall it in.
                Role::Pawn => self.loser_pawns_help && capture.is_none(),
                _ => self.corner_ring.contains(to) && !self.corner_ring.contains(from),
            };
            if closer {
                return Cost::Free;
            }
            // Pawn captures open blocked files; other captures give away
            // the loser's own blockers.
            match capture {
                Some(taken) if role != Role::Pawn && taken != Role::Pawn => Cost::Dear,
                _ => Cost::Normal,
            }
        }
    }

    /// Of `targets`, the destinations of a winner's man (not a pawn or a
    /// king) on `from`, those where `cost` may say `Free`: captures, and a
    /// knight's moves nearer its posts. For a search that wants the free
    /// moves without listing the others.
    #[inline(always)]
    pub(crate) fn winner_maybe_free(
        &self,
        role: Role,
        from: Square,
        targets: Bitboard,
        theirs: Bitboard,
    ) -> Bitboard {
        if role == Role::Knight {
            let d = self.to_knight_posts[usize::from(from)];
            targets & (theirs | self.knight_within[usize::from(d.min(7))])
        } else {
            targets & theirs
        }
    }

    /// Where a loser's node searches only the moves that cost nothing
    /// (every other move would end the line at the depth): the squares of
    /// those moves, when they are all the king's steps towards the corner
    /// and can be found without generating every legal move. `None` when
    /// another man might have a free move (a knight, a pawn that helps, a
    /// piece that might enter the corner's ring), or the loser may castle
    /// or is in check.
    pub(crate) fn loser_free_king_steps(&self, pos: &Chess) -> Option<Bitboard> {
        let board = pos.board();
        let loser = !self.winner;
        let ours = board.by_color(loser);
        // The check test last: it costs the most.
        if pos.turn() != loser
            || pos.castles().has_color(loser)
            || (ours & board.knights()).any()
            || self.loser_pawns_help && (ours & board.pawns()).any()
        {
            return None;
        }
        let open_ring = self.corner_ring & !ours;
        let occupied = board.occupied();
        for sq in ours & (board.bishops() | board.rooks_and_queens()) & !self.corner_ring {
            let piece = board.piece_at(sq)?;
            if (attacks::attacks(sq, piece, occupied) & open_ring).any() {
                return None;
            }
        }
        if pos.is_check() {
            return None;
        }
        let king = board.king_of(loser)?;
        let nearer = self.corner_within[usize::from(self.to_corner[usize::from(king)])];
        Some(king_steps_among(pos, attacks::king_attacks(king) & !ours & nearer).collect())
    }
}

/// A lone knight against no minor piece or rook, or bishops of one colour
/// where nobody has a bishop of the other colour and the loser no knight:
/// the mates these allow want blockers the loser's men on the board seldom
/// make, and the Chess Unwinnability Analyzer rewards the loser's pawn
/// moves here, whatever their number. On the lichess file's flag falls the
/// search took 14 % fewer instructions for it (the same verdicts; 9 of
/// 41,723 rows print a longer line, with a promotion).
fn wants_promotion(board: &Board, winner: Color) -> bool {
    let ours = board.by_color(winner);
    let theirs = board.by_color(!winner);
    let lone_knight = ours.count() == 2
        && (ours & board.knights()).any()
        && (theirs & (board.knights() | board.bishops() | board.rooks())).is_empty();
    let bishops = ours & board.bishops();
    let one_colour = (board.bishops() & Bitboard::DARK_SQUARES).is_empty()
        || (board.bishops() & Bitboard::LIGHT_SQUARES).is_empty();
    let lone_bishops = bishops.any()
        && ours.count() == bishops.count() + 1
        && one_colour
        && (theirs & board.knights()).is_empty();
    lone_knight || lone_bishops
}

/// By a number of moves `d` (up to 7): the squares fewer than `d` moves
/// away by `distances`.
fn within(distances: &[u8; 64]) -> [Bitboard; 8] {
    let mut within = [Bitboard::EMPTY; 8];
    for sq in Square::ALL {
        if let Some(at) = within.get_mut(usize::from(distances[usize::from(sq)]) + 1) {
            at.add(sq);
        }
    }
    for d in 1..within.len() {
        within[d] |= within[d - 1];
    }
    within
}

/// `f` of every square, by square (a generic, not a `dyn` closure: built
/// four times a query, and an indirect call per square showed).
fn table(f: impl Fn(Square) -> u8) -> [u8; 64] {
    let mut t = [0u8; 64];
    for sq in Square::ALL {
        t[usize::from(sq)] = f(sq);
    }
    t
}

/// Knight moves from every square to the nearest of `targets` (`u8::MAX`
/// where there are none).
fn knight_distances_to(targets: Bitboard) -> [u8; 64] {
    let distance = &*KNIGHT_DISTANCE;
    let mut t = [u8::MAX; 64];
    for target in targets {
        // The table is symmetric: a target's row holds every square's distance.
        for (nearest, d) in t.iter_mut().zip(distance[usize::from(target)]) {
            *nearest = (*nearest).min(d);
        }
    }
    t
}

/// Knight moves between any two squares on an empty board (breadth-first).
static KNIGHT_DISTANCE: LazyLock<Box<[[u8; 64]; 64]>> = LazyLock::new(|| {
    let mut table = Box::new([[u8::MAX; 64]; 64]);
    for from in Square::ALL {
        let row = &mut table[usize::from(from)];
        row[usize::from(from)] = 0;
        let mut frontier = Bitboard::from_square(from);
        let mut seen = frontier;
        let mut d = 0;
        while frontier.any() {
            d += 1;
            let mut next = Bitboard::EMPTY;
            for sq in frontier {
                next |= attacks::knight_attacks(sq);
            }
            next &= !seen;
            for sq in next {
                row[usize::from(sq)] = d;
            }
            seen |= next;
            frontier = next;
        }
    }
    table
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_position as pos;

    #[test]
    fn the_losers_free_king_steps_head_for_the_corner() {
        // A lone king on e5 against K+R: h8 is the nearer corner, and f6 the
        // only step that gets nearer.
        let p = pos("8/8/8/4k3/8/K7/8/R7 b - - 0 1");
        let plan = Plan::new(&p, Color::White);
        assert_eq!(
            plan.loser_free_king_steps(&p),
            Some(Bitboard::from_square(Square::F6))
        );
        // Not where another man may have a free move (a knight; a bishop
        // that reaches h7, beside the corner), nor with the winner to move.
        for fen in [
            "8/8/8/4k3/8/K7/8/R1n5 b - - 0 1",
            "8/8/8/4k3/8/K7/8/Rb6 b - - 0 1",
            "8/8/8/4k3/8/K7/8/R7 w - - 0 1",
        ] {
            let p = pos(fen);
            assert_eq!(
                Plan::new(&p, Color::White).loser_free_king_steps(&p),
                None,
                "{fen}"
            );
        }
    }

    #[test]
    fn the_losers_pawns_help_where_the_winner_needs_blockers() {
        for (fen, winner, helps) in [
            // Two pawns or fewer against minor pieces: always.
            ("8/6pk/7p/8/8/2B5/2K5/8 w - - 0 1", Color::White, true),
            // Three or more: where the mates want a promoted piece.
            ("8/p5pk/1p1q3p/8/8/2B5/2K5/8 b - - 1 46", Color::White, true),
            ("8/p5pk/1p1q3p/8/8/2N5/2K5/8 b - - 0 1", Color::White, true),
            // Not where the loser's rook or knight (or a bishop of the
            // other colour) already makes a blocker.
            ("8/p5pk/1p1r3p/8/8/2N5/2K5/8 b - - 0 1", Color::White, false),
            ("8/p5pk/1p1n3p/8/8/2B5/2K5/8 b - - 0 1", Color::White, false),
            ("8/p5pk/1p2b2p/8/8/2B5/2K5/8 b - - 0 1", Color::White, false),
            // Nor for a winner with two knights, or a rook.
            (
                "8/p5pk/1p1q3p/8/8/2NN4/2K5/8 b - - 0 1",
                Color::White,
                false,
            ),
            ("8/p5pk/1p1q3p/8/8/2R5/2K5/8 b - - 0 1", Color::White, false),
        ] {
            let p = pos(fen);
            assert_eq!(Plan::new(&p, winner).loser_pawns_help, helps, "{fen}");
        }
    }

    #[test]
    fn knight_distances() {
        assert_eq!(KNIGHT_DISTANCE[0][0], 0);
        assert_eq!(
            KNIGHT_DISTANCE[usize::from(Square::B1)][usize::from(Square::C3)],
            1
        );
        // The corner's diagonal neighbour is four knight moves away.
        assert_eq!(
            KNIGHT_DISTANCE[usize::from(Square::A1)][usize::from(Square::B2)],
            4
        );
        assert_eq!(
            KNIGHT_DISTANCE[usize::from(Square::A1)][usize::from(Square::H8)],
            6
        );
        // Symmetric, which `knight_distances_to` reads rows by.
        for a in Square::ALL {
            for b in Square::ALL {
                assert_eq!(
                    KNIGHT_DISTANCE[usize::from(a)][usize::from(b)],
                    KNIGHT_DISTANCE[usize::from(b)][usize::from(a)]
                );
            }
        }
        // A corner's knight posts: 0 on them, 1 from a square a knight's
        // move away from one, and the nearer post counts.
        let posts = attacks::knight_attacks(Square::H8);
        let t = knight_distances_to(posts);
        assert_eq!(
            (t[usize::from(Square::G6)], t[usize::from(Square::F7)]),
            (0, 0)
        );
        assert_eq!(t[usize::from(Square::E5)], 1);
        assert_eq!(
            (t[usize::from(Square::H8)], t[usize::from(Square::H7)]),
            (1, 2)
        );
        assert_eq!(knight_distances_to(Bitboard::EMPTY)[0], u8::MAX);
    }

    impl Plan {
        /// The square a table counts its moves to.
        fn target(table: &[u8; 64]) -> Square {
            Square::ALL
                .into_iter()
                .find(|sq| table[usize::from(*sq)] == 0)
                .expect("a table counts to a square")
        }
        fn corner(&self) -> Square {
            Plan::target(&self.to_corner)
        }
        fn king_post(&self) -> Square {
            Plan::target(&self.to_king_post)
        }
    }

    #[test]
    fn the_corner_follows_the_bishop() {
        // A dark-squared bishop mates in a1 or h8; the loser's king is nearer
        // h8, and the winner's king heads for h6.
        let p = pos("8/8/5k2/8/8/2K5/3B4/8 w - - 0 1");
        let plan = Plan::new(&p, Color::White);
        assert_eq!(plan.corner(), Square::H8);
        assert_eq!(plan.king_post(), Square::H6);
        // With a pawn and no rook or queen: g7, diagonally in.
        let p = pos("8/8/5k2/8/8/2K5/3B2P1/8 w - - 0 1");
        assert_eq!(Plan::new(&p, Color::White).king_post(), Square::G7);
        // Black's rook mates on White's back rank: a3 or h3.
        let p = pos("8/8/5k2/8/8/2K5/8/r7 w - - 0 1");
        let plan = Plan::new(&p, Color::Black);
        assert!(
            matches!(
                (plan.corner(), plan.king_post()),
                (Square::A1, Square::A3) | (Square::H1, Square::H3)
            ),
            "{:?} {:?}",
            plan.corner(),
            plan.king_post()
        );
        // A light-squared one: a8 (h1 is on White's own back rank).
        let p = pos("8/8/5k2/8/8/2K5/4B3/8 w - - 0 1");
        assert_eq!(Plan::new(&p, Color::White).corner(), Square::A8);
        // Black mates on White's back rank, in the corner White's bishop
        // does not guard.
        assert_eq!(Plan::new(&p, Color::Black).corner(), Square::A1);
    }
}
