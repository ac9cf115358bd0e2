//! The oracle for the differential tests: the Chess Unwinnability Analyzer
//! (`chasolver`, a dev-dependency only) on the same position, crossed over
//! to the `chess` crate's board square by square.

use arbiter::analysis::mate::Mateability;
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, Position, Role};

fn color(c: Color) -> chess::Color {
    match c {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    }
}

fn piece(r: Role) -> chess::Piece {
    match r {
        Role::Pawn => chess::Piece::Pawn,
        Role::Knight => chess::Piece::Knight,
        Role::Bishop => chess::Piece::Bishop,
        Role::Rook => chess::Piece::Rook,
        Role::Queen => chess::Piece::Queen,
        Role::King => chess::Piece::King,
    }
}

/// The position on the `chess` crate's board; `None` where that crate
/// refuses it (Chess960 castling rights are dropped first).
pub fn board(pos: &Chess) -> Option<chess::Board> {
    let mut b = chess::BoardBuilder::new();
    for (sq, p) in pos.board().iter() {
        b.piece(
            chess::Square::make_square(
                chess::Rank::from_index(sq.rank() as usize),
                chess::File::from_index(sq.file() as usize),
            ),
            piece(p.role),
            color(p.color),
        );
    }
    b.side_to_move(color(pos.turn()));
    for c in [Color::White, Color::Black] {
        let back = if c == Color::White { 0u32 } else { 7 };
        let king_home = pos
            .board()
            .king_of(c)
            .is_some_and(|k| u32::from(k) == back * 8 + 4);
        let rook_at = |side: CastlingSide, file: u32| {
            pos.castles()
                .rook(c, side)
                .is_some_and(|r| u32::from(r) == back * 8 + file)
        };
        let k = king_home && rook_at(CastlingSide::KingSide, 7);
        let q = king_home && rook_at(CastlingSide::QueenSide, 0);
        let rights = match (k, q) {
            (true, true) => chess::CastleRights::Both,
            (true, false) => chess::CastleRights::KingSide,
            (false, true) => chess::CastleRights::QueenSide,
            (false, false) => chess::CastleRights::NoRights,
        };
        b.castle_rights(color(c), rights);
    }
    if let Some(ep) = pos.ep_square(EnPassantMode::Legal) {
        b.en_passant(Some(chess::File::from_index(ep.file() as usize)));
    }
    chess::Board::try_from(&b).ok()
}

/// chasolver's full verdict for `side` (`None`: the board would not cross).
pub fn verdict(pos: &Chess, side: Color) -> Option<Mateability> {
    let b = board(pos)?;
    Some(match chasolver::winnability(&b, color(side)) {
        Some(chasolver::Winnability::Winnable { .. }) => Mateability::Winnable,
        Some(chasolver::Winnability::Unwinnable) => Mateability::Unwinnable,
        None => Mateability::Undetermined,
    })
}
