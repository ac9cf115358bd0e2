//! Questions asked of positions and clocks: can a side still mate, what the
//! clocks say about flags, and how the USCF material list reads a position.

pub mod cheap_moves;
pub mod clocks;
pub mod forced;
pub mod helpmate;
pub mod illegal;
pub mod key;
pub(crate) mod kpk;
pub mod mate;
pub mod position;

/// `color` has no queen, rook or pawn: minor pieces at most, whose mates
/// want the other side's men as blockers and are what disputes about
/// mating chances are about.
pub fn minor_pieces_only(board: &shakmaty::Board, color: shakmaty::Color) -> bool {
    ((board.rooks_and_queens() | board.pawns()) & board.by_color(color)).is_empty()
}

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

/// The shared Syzygy tables: `../shared` beside the crate, as the
/// integration tests find it, or `$ARBITER_SHARED`.
#[cfg(test)]
pub(crate) fn test_syzygy_dir() -> std::path::PathBuf {
    std::env::var_os("ARBITER_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../shared").into())
        .join("data/syzygy")
}

/// Positions from seeded random games, so that pins, checks and
/// crowded kings all turn up.
#[cfg(test)]
pub(crate) fn random_positions(games: usize) -> Vec<shakmaty::Chess> {
    use shakmaty::Position;
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    };
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = shakmaty::Chess::default();
        for _ in 0..160 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[next(moves.len())];
            pos.play_unchecked(m);
            out.push(pos.clone());
        }
    }
    out
}
