//! The legal move a SAN names, found without a move list for the moves that
//! make up nearly every game: a piece or pawn move when the king is not in
//! check or one man gives it, and any king move that is not castling.
//! shakmaty's `San::to_move` generates (and copies) a list of candidates for
//! every ply, which was a fifth of a whole run; everything this does not
//! settle for sure (a double check, en passant, castling, an ambiguous or
//! impossible SAN) goes to `San::to_move` as before, so the two always agree
//! (tested move by move over the shared games). The attack tests it rests
//! on are in `chess::attacks`.

use shakmaty::{attacks, san::San, Bitboard, Chess, Move, Position, Rank, Role, Square};

use crate::chess::attacks::{attacked, pins_and_checkers};

/// `Some(m)` when `san` names exactly one legal move `m` in `pos` and the
/// quick test can tell; `None` means "ask `San::to_move`", never "illegal".
#[inline]
pub fn quick(pos: &Chess, san: &San) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = *san
    else {
        return None;
    };
    let board = pos.board();
    let turn = pos.turn();
    let us = board.by_color(turn);
    let them = board.by_color(!turn);
    if us.contains(to) || capture != them.contains(to) {
        return None;
    }
    let king = (board.kings() & us).single_square()?;
    let occupied = board.occupied();
    let mut from = match role {
        Role::King => {
            if promotion.is_some() || !attacks::king_attacks(king).contains(to) {
                return None;
            }
            // Safe once the king has left its square (a slider's ray runs on).
            if attacked(board, to, !turn, occupied.without(king)) {
                return None;
            }
            Bitboard::from_square(king)
        }
        Role::Pawn => {
            let last = to.rank() == turn.fold_wb(Rank::Eighth, Rank::First);
            if last != promotion.is_some() || matches!(promotion, Some(Role::Pawn | Role::King)) {
                return None;
            }
            let pawns = board.pawns() & us;
            if capture {
                attacks::pawn_attacks(!turn, to) & pawns
            } else {
                let back = to.offset(turn.fold_wb(-8, 8))?;
                if pawns.contains(back) {
                    Bitboard::from_square(back)
                } else if !occupied.contains(back)
                    && to.rank() == turn.fold_wb(Rank::Fourth, Rank::Fifth)
                {
                    Bitboard::from_square(back.offset(turn.fold_wb(-8, 8))?) & pawns
                } else {
                    return None;
                }
            }
        }
        _ => {
            if promotion.is_some() {
                return None;
            }
            // The men of that kind on a line to `to` with nothing between:
            // from the empty-board rays and the between table, which stay
            // in the cache where the sliders' occupancy tables do not.
            let ours = board.by_piece(role.of(turn));
            let lines = match role {
                Role::Knight => attacks::knight_attacks(to),
                Role::Bishop => attacks::bishop_attacks(to, Bitboard::EMPTY),
                Role::Rook => attacks::rook_attacks(to, Bitboard::EMPTY),
                // The queen (king and pawn moves are read above).
                _ => attacks::queen_attacks(to, Bitboard::EMPTY),
            };
            let mut from = lines & ours;
            if role != Role::Knight {
                for sq in from {
                    if (attacks::between(sq, to) & occupied).any() {
                        from.discard(sq);
                    }
                }
            }
            from
        }
    };
    if let Some(f) = file {
        from &= Bitboard::from_file(f);
    }
    if let Some(r) = rank {
        from &= Bitboard::from_rank(r);
    }
    if role != Role::King {
        let (pinned, checkers) = pins_and_checkers(pos, king, us, them, occupied);
        // In check from one man: only taking it or stepping between helps.
        if checkers.any() {
            let checker = checkers.single_square()?;
            if !(attacks::between(king, checker) | checkers).contains(to) {
                return None;
            }
        }
        let pinned = pinned & from;
        // A pinned candidate stays only moving along its pin (seldom asked).
        for sq in pinned {
            if !attacks::aligned(sq, to, king) {
                from.discard(sq);
            }
        }
    }
    let from: Square = from.single_square()?;
    Some(Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, CastlingMode};

    /// Every SAN of every legal move, and SANs that name nothing legal,
    /// agree with `San::to_move` wherever the quick path answers.
    fn agree(fen: &str) -> usize {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("test FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal test position");
        let mut answered = 0;
        let mut sans: Vec<San> = pos
            .legal_moves()
            .iter()
            .map(|m| San::from_move(&pos, *m))
            .collect();
        // Unqualified, wrongly captured and pseudo-legal SANs too.
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ] {
            for to in Square::ALL {
                for capture in [false, true] {
                    sans.push(San::Normal {
                        role,
                        file: None,
                        rank: None,
                        capture,
                        to,
                        promotion: None,
                    });
                }
            }
        }
        for san in sans {
            if let Some(m) = quick(&pos, &san) {
                answered += 1;
                assert_eq!(san.to_move(&pos), Ok(m), "{fen}: {san}");
            }
        }
        answered
    }

    #[test]
    fn quick_answers_agree_with_shakmaty() {
        let n: usize = [
            // Pins on files, ranks and diagonals; a pinned knight; a pinned
            // pawn that may capture the pinner; promotion with capture.
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
            "4k3/4r3/8/8/8/4N3/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1",
            "3qk3/2P5/8/8/8/8/8/4K3 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            // Two knights to one square; a king beside a rook's ray.
            "4k3/8/8/8/8/1N3N2/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/r7/4K3 w - - 0 1",
            // In check (the quick path must stand aside), en passant.
            "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ]
        .iter()
        .map(|f| agree(f))
        .sum();
        assert!(n > 100, "{n}");
    }

    #[test]
    fn stands_aside_where_it_cannot_tell() {
        let at = |fen: &str| -> Chess {
            fen.parse::<Fen>()
                .expect("FEN")
                .into_position(CastlingMode::Standard)
                .expect("legal")
        };
        let san = |s: &str| s.parse::<San>().expect("SAN");
        // En passant is left to shakmaty.
        let ep = at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(quick(&ep, &san("exd6")), None);
        assert!(san("exd6").to_move(&ep).is_ok());
        // In check from one man: taking it or stepping between is answered
        // here and agrees; a move that leaves the check is left to shakmaty,
        // which finds nothing legal.
        let pos = at("4k3/8/8/8/8/2N5/4q3/4K3 w - - 0 1");
        let nxe2 = quick(&pos, &san("Nxe2"));
        assert!(nxe2.is_some());
        assert_eq!(nxe2, san("Nxe2").to_move(&pos).ok());
        assert_eq!(quick(&pos, &san("Nb5")), None);
        assert!(san("Nb5").to_move(&pos).is_err());
        let file = at("4r1k1/8/8/8/8/2N5/8/4K3 w - - 0 1");
        for between in ["Ne4", "Ne2"] {
            let m = quick(&file, &san(between));
            assert!(m.is_some(), "{between}");
            assert_eq!(m, san(between).to_move(&file).ok(), "{between}");
        }
        assert_eq!(quick(&file, &san("Nd5")), None);
        // Double check: only the king may move.
        let double = at("4k3/8/8/8/8/2Nn4/4q3/4K3 w - - 0 1");
        assert_eq!(quick(&double, &san("Nxe2")), None);
        assert!(san("Nxe2").to_move(&double).is_err());
        // A king move into the queen's reach names nothing legal.
        assert_eq!(quick(&pos, &san("Kd1")), None);
        assert!(san("Kd1").to_move(&pos).is_err());
        // Taking the queen is answered here, and agrees.
        let kxe2 = quick(&pos, &san("Kxe2"));
        assert!(kxe2.is_some());
        assert_eq!(kxe2, san("Kxe2").to_move(&pos).ok());
    }
}
