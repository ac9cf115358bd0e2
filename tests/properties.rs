//! Invariants over random legal games: one row per game; `confirmed` exactly
//! when the result is the recorded one; every verdict cites a rule; clocks are
//! well-formed and never negative; the final position is the one reached by
//! replaying the moves written.

use crate::common;

use std::io::Write;

use proptest::prelude::*;
use shakmaty::{fen::Fen, san::SanPlus, Chess, EnPassantMode, Position};

/// A tiny deterministic generator, so a failing seed replays exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random legal game: its PGN and the FEN after its last move.
fn random_game(
    seed: u64,
    plies: usize,
    result: &str,
    clocks: bool,
    forfeit: bool,
) -> (String, String) {
    let mut rng = Rng(seed | 1);
    let mut pos = Chess::default();
    let mut text = String::new();
    let mut clock = [600u32, 600u32];
    for ply in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(rng.next() % moves.len() as u64) as usize];
        let side = ply % 2;
        if side == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        text.push_str(&san.to_string());
        if clocks {
            clock[side] = clock[side].saturating_sub((rng.next() % 20) as u32);
            text.push_str(&format!(
                " {{[%clk 0:{:02}:{:02}]}}",
                clock[side] / 60,
                clock[side] % 60
            ));
        }
        text.push(' ');
    }
    let termination = if forfeit {
        "[Termination \"Time forfeit\"]\n"
    } else {
        ""
    };
    let pgn = format!("[Event \"prop\"]\n[Result \"{result}\"]\n[TimeControl \"600\"]\n{termination}\n{text}{result}\n\n");
    (
        pgn,
        Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
    )
}

fn clock_ok(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    let (main, tenths) = s.split_once('.').map_or((s, None), |(a, b)| (a, Some(b)));
    let parts: Vec<&str> = main.split(':').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && tenths.is_none_or(|t| t.len() == 1 && t.bytes().all(|b| b.is_ascii_digit()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn judged_games_keep_their_invariants(
        games in prop::collection::vec((any::<u64>(), 0usize..160, 0usize..4, any::<bool>(), any::<bool>()), 1..5),
        rules in prop::sample::select(vec!["fide-rapid", "uscf", "sabah-active30", "bcf-rapid"]),
    ) {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        let mut finals = Vec::new();
        for &(seed, plies, result, clocks, forfeit) in &games {
            let result = ["1-0", "0-1", "1/2-1/2", "*"][result];
            let (pgn, fen) = random_game(seed, plies, result, clocks, forfeit);
            file.write_all(pgn.as_bytes()).unwrap();
            finals.push(fen);
        }
        let (rows, _) = common::run_paths(rules, &[file.path().to_path_buf()]);
        prop_assert_eq!(rows.len(), games.len());
        for (row, fen) in rows.iter().zip(&finals) {
            prop_assert!(!row["rule"].is_empty(), "no citation: {:?}", row);
            // Status follows from result against record, except that a
            // result that cannot be decided (`*`) is never confirmed.
            if row["status"] == "unreadable" {
            } else if row["result"] == "*" {
                prop_assert_eq!(&row["status"], "review", "{:?}", row);
            } else {
                prop_assert_eq!(row["status"] == "confirmed", row["result"] == row["recorded_result"], "{:?}", row);
            }
            prop_assert!(clock_ok(&row["white_clock"]) && clock_ok(&row["black_clock"]), "{:?}", row);
            let ends_early = ["dead-position", "fivefold-repetition", "seventy-five-moves"].contains(&row["reason"].as_str());
            if !ends_early {
                prop_assert_eq!(&row["final_fen"], fen, "{:?}", row);
            }
        }
    }
}
