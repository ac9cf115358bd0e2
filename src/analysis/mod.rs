//! Questions asked of positions and clocks: can a side still mate, what the
//! clocks say about flags, and how the USCF material list reads a position.

pub mod forced;
pub(crate) mod helpmate;
pub(crate) mod illegal;
pub(crate) mod kpk;
pub mod mate;
pub mod position;

/// `color` has no queen, rook or pawn: minor pieces at most, whose mates
/// want the other side's men as blockers and are what disputes about
/// mating chances are about.
pub(crate) fn minor_pieces_only(board: &shakmaty::Board, color: shakmaty::Color) -> bool {
    ((board.rooks_and_queens() | board.pawns()) & board.by_color(color)).is_empty()
}

#[cfg(test)]
pub(crate) use crate::chess::{random_positions, test_position};

/// The shared Syzygy tables: `../shared` beside the crate, as the
/// integration tests find it, or `$ARBITER_SHARED`.
#[cfg(test)]
pub(crate) fn test_syzygy_dir() -> std::path::PathBuf {
    std::env::var_os("ARBITER_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../shared").into())
        .join("data/syzygy")
}
