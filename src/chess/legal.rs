//! Whether one given move is legal, and its SAN: what a proof check needs
//! while it replays a mating line. Built on shakmaty's board and attack
//! tables alone, not on the search's move generator (`cheap_moves`), so
//! that a line is checked by other code than the code that found it.
//! Asking shakmaty (`Position::is_legal`, `San::from_move`) lists every
//! legal move of the moved man's kind to the square, after working out the
//! checkers and pins: several times the cost, once a ply of every line.

use shakmaty::{attacks, san::San, Bitboard, Chess, Move, Position, Rank, Role};

/// `m` is a legal move in `pos`. Castling and en passant, which no fast
/// path is worth writing for, are asked of shakmaty.
pub(crate) fn is_legal(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = m
    else {
        return !matches!(m, Move::Put { .. }) && pos.is_legal(m);
    };
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    let theirs = board.by_color(!us);
    if board.piece_at(from) != Some(role.of(us)) || board.role_at(to) != capture {
        return false;
    }
    if ours.contains(to) || capture == Some(Role::King) {
        return false;
    }
    let occupied = board.occupied();
    let reaches = if role == Role::Pawn {
        let last = to.rank() == us.relative_rank(Rank::Eighth);
        let promotes_right = match promotion {
            None => !last,
            Some(p) => last && !matches!(p, Role::Pawn | Role::King),
        };
        let forward = if us.is_white() { 8 } else { -8 };
        let pushed = if capture.is_some() {
            attacks::pawn_attacks(us, from).contains(to)
        } else if from.offset(forward) == Some(to) {
            true
        } else {
            // A double step from the pawn's own second rank, over an
            // empty square.
            from.rank() == us.relative_rank(Rank::Second)
                && from.offset(2 * forward) == Some(to)
                && from
                    .offset(forward)
                    .is_some_and(|over| !occupied.contains(over))
        };
        promotes_right && pushed
    } else {
        promotion.is_none() && attacks::attacks(from, role.of(us), occupied).contains(to)
    };
    if !reaches {
        return false;
    }
    // Our king is not attacked once the man stands on `to`: no enemy man
    // but the one taken there, the board's lines opened at `from`.
    let after = (occupied ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let king = if role == Role::King {
        to
    } else {
        match board.king_of(us) {
            Some(k) => k,
            None => return false,
        }
    };
    let attackers = board.attacks_to(king, !us, after) & theirs & !Bitboard::from_square(to);
    attackers.is_empty()
}

/// `m` (legal in `pos`) in SAN, told apart from every other legal move of
/// a man of its kind to its square as shakmaty's `San::disambiguate` does,
/// without listing moves: only a knight, bishop, rook or queen can have a
/// rival, and a pawn's capture is always written with its file.
pub(crate) fn san(pos: &Chess, m: Move) -> San {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = m
    else {
        return San::from_move(pos, m);
    };
    let (mut file, mut rank) = (None, None);
    if role == Role::Pawn {
        file = capture.is_some().then(|| from.file());
    } else if role != Role::King {
        let board = pos.board();
        let piece = role.of(pos.turn());
        let others = attacks::attacks(to, piece, board.occupied())
            & board.by_piece(piece)
            & !Bitboard::from_square(from);
        let (mut ambiguous, mut same_file, mut same_rank) = (false, false, false);
        for other in others {
            let rival = Move::Normal {
                role,
                from: other,
                capture,
                to,
                promotion,
            };
            if is_legal(pos, rival) {
                ambiguous = true;
                same_rank |= other.rank() == from.rank();
                same_file |= other.file() == from.file();
            }
        }
        file = (ambiguous && (!same_file || same_rank)).then(|| from.file());
        rank = same_file.then(|| from.rank());
    }
    San::Normal {
        role,
        file,
        rank,
        capture: capture.is_some(),
        to,
        promotion,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{random_positions, test_position};
    use shakmaty::Square;

    /// Every move of the kinds a line holds: each man of the side to move
    /// to every square, with the capture the board gives and every
    /// promotion piece (and none) for pawns; castling and en passant as
    /// listed. Legal and illegal alike.
    fn every_move(pos: &Chess) -> Vec<Move> {
        let board = pos.board();
        let mut out = Vec::new();
        for from in board.by_color(pos.turn()) {
            let role = board.role_at(from).expect("a man");
            for to in Square::ALL {
                let capture = board.role_at(to);
                for promotion in [
                    None,
                    Some(Role::Queen),
                    Some(Role::Knight),
                    Some(Role::King),
                    Some(Role::Pawn),
                ] {
                    out.push(Move::Normal {
                        role,
                        from,
                        capture,
                        to,
                        promotion,
                    });
                }
                // A wrong capture field, and a wrong role.
                out.push(Move::Normal {
                    role,
                    from,
                    capture: Some(Role::Pawn).filter(|_| capture.is_none()),
                    to,
                    promotion: None,
                });
                out.push(Move::Normal {
                    role: if role == Role::Rook {
                        Role::Queen
                    } else {
                        Role::Rook
                    },
                    from,
                    capture,
                    to,
                    promotion: None,
                });
            }
        }
        out.extend(pos.legal_moves());
        out
    }

    /// The positions of 60 seeded games, and `fens`.
    fn games_and(fens: &[&str]) -> Vec<Chess> {
        let mut positions = random_positions(60);
        positions.extend(fens.iter().map(|f| test_position(f)));
        positions
    }

    #[test]
    fn agrees_with_shakmaty_on_every_move_of_random_games() {
        // Pins, checks, double steps over a man, promotions by capture,
        // en passant and castling through check.
        let positions = games_and(&[
            "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/5b2/8/R3K2R w KQkq - 0 1",
            "1n2k3/P7/8/8/8/8/1p6/R3K3 b Q - 0 1",
            "4k3/8/8/8/8/2n5/3P4/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/3P4/3rK3 w - - 0 1",
            "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
            "4k3/8/8/8/4q3/8/8/R3K2R w KQ - 0 1",
        ]);
        let (mut legal, mut checked) = (0, 0);
        for pos in &positions {
            for m in every_move(pos) {
                let want = pos.is_legal(m);
                assert_eq!(is_legal(pos, m), want, "{:?} {m:?}", pos.board());
                legal += usize::from(want);
                checked += 1;
            }
        }
        assert!(legal > 100_000 && checked > 5_000_000, "{legal} {checked}");
    }

    #[test]
    fn san_is_what_shakmaty_writes() {
        // Two knights, rooks and queens to one square; a pinned rival.
        let positions = games_and(&[
            "4k3/8/8/8/8/8/8/NR2K1RN w - - 0 1",
            "7k/8/8/1Q3Q2/8/1Q6/8/4K3 w - - 0 1",
            "4k3/8/8/8/4r3/8/4N3/2N1K3 w - - 0 1",
        ]);
        let mut rivalled = 0;
        for pos in &positions {
            for m in pos.legal_moves() {
                let written = san(pos, m);
                rivalled += usize::from(matches!(
                    written,
                    San::Normal { role, file, rank, .. }
                        if role != Role::Pawn && (file.is_some() || rank.is_some())
                ));
                assert_eq!(written, San::from_move(pos, m), "{:?} {m:?}", pos.board());
            }
        }
        assert!(rivalled > 500, "{rivalled}");
    }
}
