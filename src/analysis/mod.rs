//! Questions asked of positions and clocks: can a side still mate, what the
//! clocks say about flags, and how the USCF material list reads a position.

pub mod clocks;
pub mod forced;
pub mod helpmate;
pub mod illegal;
pub mod key;
pub mod mate;
pub mod position;

/// A position from FEN, for the unit tests of this module's parts.
#[cfg(test)]
pub(crate) fn test_position(fen: &str) -> shakmaty::Chess {
    use shakmaty::{fen::Fen, CastlingMode};
    let setup: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("test FEN {fen:?}: {e}"));
    setup
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("test FEN {fen:?}: {e}"))
}
