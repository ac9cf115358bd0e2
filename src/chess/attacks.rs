//! Attack tests the replay and the analysis share (a king's checkers and
//! pins, whether a square is attacked, whether the side to move is in
//! check): they read the empty-board lines and the between table, which
//! stay in the cache, not the sliders' occupancy tables.

use shakmaty::{attacks, Bitboard, Board, Chess, Color, Position, Square};

/// Our men pinned to our `king`, and the enemy men giving it check. Along
/// the lines from the king to the enemy sliders on them, a man of ours that
/// alone stands in between is pinned, and a slider with nothing in between
/// gives check: empty-board rays and the between table only, cheaper than
/// the occupancy lookups of a full attack test. The other checkers come
/// from the short attacks.
pub(crate) fn pins_and_checkers(
    pos: &Chess,
    king: Square,
    us: Bitboard,
    them: Bitboard,
    occupied: Bitboard,
) -> (Bitboard, Bitboard) {
    let board = pos.board();
    let mut pinned = Bitboard::EMPTY;
    let mut checkers = short_attackers(board, king, pos.turn(), them);
    for sniper in snipers(board, king, them) {
        let between = attacks::between(king, sniper) & occupied;
        if between.is_empty() {
            checkers.add(sniper);
        } else if !between.more_than_one() {
            pinned |= between & us;
        }
    }
    (pinned, checkers)
}

/// Whether a man of `by` attacks `sq`, with `occupied` as the board's men:
/// the short attacks, then the sliders on an empty-board line to `sq` with
/// nothing in between. `Board::attacks_to` reads the sliders' occupancy
/// tables, over 700 KB, which miss the cache here once per call.
pub(crate) fn attacked(board: &Board, sq: Square, by: Color, occupied: Bitboard) -> bool {
    let them = board.by_color(by);
    short_attackers(board, sq, !by, them).any()
        || snipers(board, sq, them)
            .into_iter()
            .any(|s| (attacks::between(sq, s) & occupied).is_empty())
}

/// `them`'s knights, pawns and king that attack `sq`, a square of `side`'s
/// (its pawns' captures are the mirror of theirs).
fn short_attackers(board: &Board, sq: Square, side: Color, them: Bitboard) -> Bitboard {
    ((attacks::knight_attacks(sq) & board.knights())
        | (attacks::pawn_attacks(side, sq) & board.pawns())
        | (attacks::king_attacks(sq) & board.kings()))
        & them
}

/// `them`'s sliders on an empty-board line through `sq`, whatever stands
/// between.
fn snipers(board: &Board, sq: Square, them: Bitboard) -> Bitboard {
    ((attacks::rook_attacks(sq, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(sq, Bitboard::EMPTY) & board.bishops_and_queens()))
        & them
}

/// Is the side to move in check? `Position::is_check`, without the
/// occupancy tables (see `attacked`).
pub(crate) fn in_check(pos: &Chess) -> bool {
    let board = pos.board();
    let turn = pos.turn();
    (board.kings() & board.by_color(turn))
        .single_square()
        .is_some_and(|king| attacked(board, king, !turn, board.occupied()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attack_tests_agree_with_shakmaty() {
        let (mut checks, mut hits) = (0, 0);
        for pos in crate::chess::random_positions(200) {
            assert_eq!(in_check(&pos), pos.is_check(), "{pos:?}");
            checks += usize::from(pos.is_check());
            let board = pos.board();
            // With the side to move's king lifted, as a king step is judged.
            let king = board.king_of(pos.turn()).expect("a king");
            let occupied = board.occupied().without(king);
            for sq in Square::ALL {
                for by in Color::ALL {
                    let expected = board.attacks_to(sq, by, occupied).any();
                    assert_eq!(
                        attacked(board, sq, by, occupied),
                        expected,
                        "{pos:?} {sq} {by}"
                    );
                    hits += usize::from(expected);
                }
            }
        }
        assert!(
            checks > 1_000 && hits > 500_000,
            "{checks} checks, {hits} attacked"
        );
    }
}
