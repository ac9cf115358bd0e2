//! Chess primitives below every stage: attack tests, position keys and
//! cheap facts about the moves of a position. The replay and the analysis
//! both build on them; they import nothing of the crate's.

pub(crate) mod attacks;
pub(crate) mod cheap_moves;
pub(crate) mod key;
pub(crate) mod legal;

/// A position from FEN, for the unit tests.
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
