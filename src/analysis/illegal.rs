//! Why an illegal move is illegal, in words a club captain follows: the
//! square the king would stand on and who attacks it, the piece that pins,
//! the square castling passes through.

use shakmaty::{attacks, Board, Chess, Color, Move, Position, Role, Square};

/// A man's name in words: `knight`.
pub(crate) fn name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The men of `by` that attack `sq` on `board`, as `the bishop on b5`.
fn attackers(board: &Board, sq: Square, by: Color) -> Vec<String> {
    let mut out: Vec<String> = board
        .attacks_to(sq, by, board.occupied())
        .into_iter()
        .filter_map(|s| board.role_at(s).map(|r| format!("the {} on {s}", name(r))))
        .collect();
    out.sort();
    out
}

/// The squares a diagram marks for an illegal move: where the man went
/// from and to, and the men that make it illegal.
pub(crate) fn marked_squares(pos: &Chess, m: Option<Move>) -> Vec<Square> {
    let Some(m) = m else { return Vec::new() };
    let us = pos.turn();
    let mut out: Vec<Square> = m.from().into_iter().chain([m.to()]).collect();
    let mut after = pos.clone();
    after.play_unchecked(m);
    let board = after.board();
    let king = match m {
        Move::Castle { king, .. } => Some(king),
        _ => board.king_of(us),
    };
    if let Some(k) = king {
        let b = if matches!(m, Move::Castle { .. }) {
            pos.board()
        } else {
            board
        };
        out.extend(b.attacks_to(k, !us, b.occupied()));
    }
    out.sort();
    out.dedup();
    out
}

/// Why `m` (the move as the man moved it, if it moved as such a man
/// moves) is illegal in `pos`. `None` when no reason can be given.
pub(crate) fn why_illegal(pos: &Chess, m: Option<Move>) -> Option<String> {
    let us = pos.turn();
    let Some(m) = m else {
        return Some("no man of the side to move can make that move from this position".into());
    };
    if let Move::Castle { king, rook } = m {
        let board = pos.board();
        if pos.is_check() {
            let by = attackers(board, king, !us);
            return Some(format!(
                "the king may not castle out of check (given by {})",
                by.join(" and ")
            ));
        }
        // The squares the king crosses, up to where it lands.
        let to = if rook.file() > king.file() {
            Square::from_coords(shakmaty::File::G, king.rank())
        } else {
            Square::from_coords(shakmaty::File::C, king.rank())
        };
        let path = attacks::between(king, to).with(to);
        for sq in path {
            let by = attackers(board, sq, !us);
            if !by.is_empty() {
                return Some(format!(
                    "the king may not castle through or onto {sq}, attacked by {}",
                    by.join(" and ")
                ));
            }
        }
        return None;
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    let board = after.board();
    let king = board.king_of(us)?;
    let by = attackers(board, king, !us);
    if by.is_empty() {
        return None;
    }
    if m.role() == Role::King {
        return Some(format!(
            "the king would stand on {king}, attacked by {}",
            by.join(" and ")
        ));
    }
    if pos.is_check() {
        return Some(format!(
            "it leaves the king on {king} in check from {}",
            by.join(" and ")
        ));
    }
    Some(format!(
        "the {} on {} is pinned: moving it exposes the king on {king} to {}",
        name(m.role()),
        m.from().map_or_else(String::new, |s| s.to_string()),
        by.join(" and ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::test_position as pos;
    use shakmaty::uci::UciMove;

    fn why(fen: &str, uci: &str) -> Option<String> {
        let p = pos(fen);
        let u: UciMove = uci.parse().unwrap();
        let m = match u {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => Move::Normal {
                role: p.board().role_at(from).unwrap(),
                from,
                capture: p.board().role_at(to),
                to,
                promotion,
            },
            _ => unreachable!(),
        };
        why_illegal(&p, Some(m))
    }

    #[test]
    fn the_king_walks_into_a_bishop() {
        // After 1. e4 d5 2. Bb5+: 2... Kd7 stands on the bishop's diagonal.
        let fen = "rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2";
        assert_eq!(
            why(fen, "e8d7").as_deref(),
            Some("the king would stand on d7, attacked by the bishop on b5")
        );
    }

    #[test]
    fn a_pinned_knight() {
        let fen = "4k3/3n4/8/1B6/8/8/8/4K3 b - - 0 1";
        assert_eq!(
            why(fen, "d7f6").as_deref(),
            Some(
                "the knight on d7 is pinned: moving it exposes the king on e8 to the bishop on b5"
            )
        );
    }

    #[test]
    fn castling_out_of_check() {
        let p = pos("r1bqk2r/pppp1ppp/2n2n2/4p3/1bBPP3/5N2/PPP2PPP/RNBQK2R w KQkq - 2 5");
        let m = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(
            why_illegal(&p, Some(m)).as_deref(),
            Some("the king may not castle out of check (given by the bishop on b4)")
        );
    }
}
