//! K+P v K settled exactly without tablebases: a bitbase of every position
//! with White's pawn on files a–d, built once at first use by iterating to
//! a fixpoint. Black's pawn and files e–h are read through symmetry.
//!
//! A win here is a real win under the 50-move rule: every pawn move resets
//! the count, and the K+Q v K or K+R v K reached on promotion mates within
//! 16 moves; so unlike Syzygy there is no cursed win (the test asserts it).

use std::sync::OnceLock;

use shakmaty::{Chess, Color, File, Position, Rank};

/// Pawn squares: files a–d, ranks 2–7.
const PAWN_SQUARES: usize = 24;
/// Side to move × pawn side's king × lone king × pawn.
const SIZE: usize = 2 * 64 * 64 * PAWN_SQUARES;

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const DRAW: u8 = 2;

const KING: [u64; 64] = king_attacks();

const fn king_attacks() -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (f, r) = (file + df, rank + dr);
                if (df != 0 || dr != 0) && f >= 0 && f < 8 && r >= 0 && r < 8 {
                    table[sq] |= 1 << (r * 8 + f);
                }
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    table
}

const fn bit(sq: usize) -> u64 {
    1 << sq
}

/// Squares a White pawn on `p` (ranks 2–7) attacks.
fn pawn_attacks(p: usize) -> u64 {
    let mut bb = 0;
    if !p.is_multiple_of(8) {
        bb |= bit(p + 7);
    }
    if p % 8 < 7 {
        bb |= bit(p + 9);
    }
    bb
}

/// `p` is on files a–d, ranks 2–7 (the caller normalises).
fn index(pawn_to_move: bool, k: usize, lone: usize, p: usize) -> usize {
    let pawn = (p / 8 - 1) * 4 + p % 8;
    ((usize::from(!pawn_to_move) * 64 + k) * 64 + lone) * PAWN_SQUARES + pawn
}

/// Does the side with the pawn win? `None` unless `pos` is exactly K+P v K:
/// otherwise the pawn's colour and the answer, exact.
pub(crate) fn probe(pos: &Chess) -> Option<(Color, bool)> {
    let board = pos.board();
    if board.occupied().count() != 3 {
        return None;
    }
    let pawn = board.pawns().single_square()?;
    let strong = board.color_at(pawn)?;
    let (k, lone) = (board.king_of(strong)?, board.king_of(!strong)?);
    if matches!(pawn.rank(), Rank::First | Rank::Eighth) {
        return None;
    }
    // Seen from White, with the pawn on files a–d.
    let flip = (if strong == Color::Black { 56 } else { 0 })
        | (if pawn.file() >= File::E { 7 } else { 0 });
    let at = |sq: shakmaty::Square| sq.to_usize() ^ flip;
    let i = index(pos.turn() == strong, at(k), at(lone), at(pawn));
    let word = table().get(i / 64)?;
    Some((strong, word & bit(i % 64) != 0))
}

/// The wins, one bit per index (24 KiB).
fn table() -> &'static [u64] {
    static TABLE: OnceLock<Box<[u64]>> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// Rates every position until nothing changes; what is still unknown then
/// is a draw (the pawn's side cannot force its way out of the cycle).
/// Illegal placements are rated draws and never reached.
fn build() -> Box<[u64]> {
    let mut state = vec![UNKNOWN; SIZE];
    let legal = |k: usize, lone: usize, p: usize| {
        k != lone && k != p && lone != p && KING[k] & bit(lone) == 0
    };
    // A pawn's move only climbs: settle the ranks from the seventh down,
    // each to a fixpoint, revisiting only what is still unknown.
    for rank in (1..7).rev() {
        let mut open = Vec::new();
        for pawn_to_move in [true, false] {
            for k in 0..64 {
                for lone in 0..64 {
                    for p in rank * 8..rank * 8 + 4 {
                        // Also illegal: the lone king in check out of turn.
                        let illegal = !legal(k, lone, p)
                            || (pawn_to_move && pawn_attacks(p) & bit(lone) != 0);
                        if illegal {
                            state[index(pawn_to_move, k, lone, p)] = DRAW;
                        } else {
                            open.push((pawn_to_move, k, lone, p));
                        }
                    }
                }
            }
        }
        loop {
            let before = open.len();
            open.retain(|&(pawn_to_move, k, lone, p)| {
                let rating = rate(&state, pawn_to_move, k, lone, p);
                state[index(pawn_to_move, k, lone, p)] = rating;
                rating == UNKNOWN
            });
            if open.len() == before {
                break;
            }
        }
        for &(pawn_to_move, k, lone, p) in &open {
            state[index(pawn_to_move, k, lone, p)] = DRAW;
        }
    }
    let mut bits = vec![0u64; SIZE / 64];
    for (i, s) in state.iter().enumerate() {
        if *s == WIN {
            bits[i / 64] |= bit(i % 64);
        }
    }
    bits.into_boxed_slice()
}

/// One position, from what its successors are rated so far.
fn rate(state: &[u8], pawn_to_move: bool, k: usize, lone: usize, p: usize) -> u8 {
    let mut unknown = false;
    if pawn_to_move {
        // A win if any move wins, a draw if none can.
        let mut after = |k: usize, p: usize| match state[index(false, k, lone, p)] {
            WIN => true,
            UNKNOWN => {
                unknown = true;
                false
            }
            _ => false,
        };
        let to = p + 8;
        let free = |sq: usize| sq != k && sq != lone;
        if free(to) {
            let wins = if to >= 56 {
                promotion_wins(k, lone, to)
            } else {
                after(k, to) || (p < 16 && free(to + 8) && after(k, to + 8))
            };
            if wins {
                return WIN;
            }
        }
        let mut moves = KING[k] & !KING[lone] & !bit(p);
        while moves != 0 {
            let t = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            if after(t, p) {
                return WIN;
            }
        }
        if unknown {
            UNKNOWN
        } else {
            DRAW
        }
    } else {
        // A draw if any move draws, a win if all lose; mate or stalemate.
        let mut moves = KING[lone] & !KING[k] & !pawn_attacks(p);
        if moves == 0 {
            return if pawn_attacks(p) & bit(lone) != 0 {
                WIN
            } else {
                DRAW
            };
        }
        if moves & bit(p) != 0 {
            return DRAW; // takes the undefended pawn
        }
        while moves != 0 {
            let t = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            match state[index(true, k, t, p)] {
                DRAW => return DRAW,
                UNKNOWN => unknown = true,
                _ => {}
            }
        }
        if unknown {
            UNKNOWN
        } else {
            WIN
        }
    }
}

/// Promoting on `q` wins when a queen or rook there cannot be taken at
/// once and the lone king is not stalemated: K+Q v K and K+R v K win from
/// every position with the strong side to move.
fn promotion_wins(k: usize, lone: usize, q: usize) -> bool {
    [true, false].into_iter().any(|queen| {
        // The lone king does not block: it cannot step back along the line.
        let covered = slides(q, bit(k), queen) | KING[k];
        if KING[lone] & bit(q) & !KING[k] != 0 {
            return false;
        }
        // A move (each one loses), or mate; else stalemate.
        KING[lone] & !covered != 0 || covered & bit(lone) != 0
    })
}

/// Squares a rook (or queen) on `from` attacks, stopped by `blockers`.
fn slides(from: usize, blockers: u64, queen: bool) -> u64 {
    let rook = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let bishop = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let dirs = rook.iter().chain(if queen { &bishop[..] } else { &[] });
    let mut bb = 0;
    for (df, dr) in dirs {
        let (mut f, mut r) = ((from % 8) as i32, (from / 8) as i32);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let sq = (r * 8 + f) as usize;
            bb |= bit(sq);
            if blockers & bit(sq) != 0 {
                break;
            }
        }
    }
    bb
}

#[cfg(test)]
mod tests {
    use shakmaty::{fen::Fen, CastlingMode, EnPassantMode, FromSetup, Piece, Role, Setup, Square};
    use shakmaty_syzygy::{Tablebase, Wdl};

    use super::*;

    #[test]
    fn kpk_agrees_with_syzygy_on_every_legal_position() {
        let mut tb = Tablebase::<Chess>::new();
        let dir = crate::analysis::test_syzygy_dir();
        for ext in ["rtbw", "rtbz"] {
            tb.add_file(dir.join(format!("KPvK.{ext}")))
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        let mut compared = 0usize;
        let mut wins = 0usize;
        for strong in Color::ALL {
            for turn in Color::ALL {
                for k in Square::ALL {
                    for lone in Square::ALL {
                        for pawn in Square::ALL {
                            if matches!(pawn.rank(), Rank::First | Rank::Eighth)
                                || k == lone
                                || k == pawn
                                || lone == pawn
                            {
                                continue;
                            }
                            let mut setup = Setup::empty();
                            setup.board.set_piece_at(k, strong.king());
                            setup.board.set_piece_at(lone, (!strong).king());
                            setup.board.set_piece_at(
                                pawn,
                                Piece {
                                    color: strong,
                                    role: Role::Pawn,
                                },
                            );
                            setup.turn = turn;
                            let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard) else {
                                continue; // kings touching, or the side not to move in check
                            };
                            let fen = Fen::from_position(&pos, EnPassantMode::Legal);
                            let wdl = tb
                                .probe_wdl_after_zeroing(&pos)
                                .unwrap_or_else(|e| panic!("{fen}: {e}"));
                            let for_strong = if turn == strong { wdl } else { -wdl };
                            assert!(
                                matches!(for_strong, Wdl::Win | Wdl::Draw),
                                "{fen}: {for_strong:?} for the pawn's side"
                            );
                            assert_eq!(
                                probe(&pos),
                                Some((strong, for_strong == Wdl::Win)),
                                "{fen}: Syzygy says {for_strong:?} for the pawn's side"
                            );
                            compared += 1;
                            wins += usize::from(for_strong == Wdl::Win);
                        }
                    }
                }
            }
        }
        // Every placement but touching kings and checks out of turn.
        assert_eq!(compared, 662_704, "positions compared");
        assert!(wins > compared / 2 && wins < compared, "{wins} wins");
    }

    #[test]
    fn kpk_ignores_other_material() {
        let pos = crate::analysis::test_position;
        assert_eq!(probe(&pos("8/8/8/4k3/8/8/4PP2/4K3 w - - 0 1")), None);
        assert_eq!(probe(&pos("8/8/8/4k3/8/8/4N3/4K3 w - - 0 1")), None);
        assert_eq!(probe(&pos("8/8/8/4k3/8/8/8/4K3 w - - 0 1")), None);
    }
}
