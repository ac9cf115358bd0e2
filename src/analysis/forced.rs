//! "Does this side have a forced win?" — the exception in USCF 14E2/14E3.
//! Syzygy tablebases settle it exactly where they reach (`--syzygy DIR`),
//! and K+P v K is settled exactly without them (`kpk`); otherwise a bounded
//! forced-mate search can prove a win, never its absence.

use std::path::Path;

use shakmaty::{Chess, Color, Position};
use shakmaty_syzygy::{Tablebase, Wdl};

use crate::{analysis::kpk, model::Side};

/// Syzygy tables loaded from a folder.
pub struct Syzygy {
    tb: Tablebase<Chess>,
    pub(crate) files: usize,
}

impl std::fmt::Debug for Syzygy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Syzygy({} files, up to {} pieces)",
            self.files,
            self.tb.max_pieces()
        )
    }
}

impl Syzygy {
    pub fn open(dir: &Path) -> std::io::Result<Syzygy> {
        let mut tb = Tablebase::new();
        let files = tb
            .add_directory(dir)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        if files == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("{}: no Syzygy table files", dir.display()),
            ));
        }
        Ok(Syzygy { tb, files })
    }

    /// Win/draw/loss for the side to move, with the 50-move rule as a claim:
    /// a cursed win is no forced win.
    fn wdl(&self, pos: &Chess) -> Option<Wdl> {
        if pos.board().occupied().count() > self.tb.max_pieces() || pos.castles().any() {
            return None;
        }
        self.tb.probe_wdl_after_zeroing(pos).ok()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ForcedWin {
    /// Proved: `how` says by what. `exact` when a table settled the whole
    /// position (Syzygy, or the K+P v K bitbase), not a search finding a mate.
    Yes { how: String, exact: bool },
    /// Proved absent, by a table: always exact.
    No(String),
    /// The search ran to the end and found no forced mate within this many
    /// moves; a longer one is not ruled out.
    NoneWithin(u32),
    /// Neither proved nor disproved within the budget.
    Unknown,
}

/// Plies of the forced-mate search, and its node budget.
const MATE_PLIES: u32 = 9;
const NODE_BUDGET: u64 = 200_000;

/// Has `attacker` a forced win from `pos` (with whoever is to move)? The
/// tables first, then a bounded search for mate.
pub(crate) fn forced_win(pos: &Chess, attacker: Side, syzygy: Option<&Syzygy>) -> ForcedWin {
    settled(pos, attacker, syzygy).unwrap_or_else(|| search(pos, Color::from(attacker)))
}

/// The exact answer of a table, where one reaches: Syzygy when given, else
/// the K+P v K bitbase (the same answer there). No search: cheap.
pub(crate) fn settled(pos: &Chess, attacker: Side, syzygy: Option<&Syzygy>) -> Option<ForcedWin> {
    let color = Color::from(attacker);
    let yes = |how: &str| ForcedWin::Yes {
        how: how.into(),
        exact: true,
    };
    if let Some(wdl) = syzygy.and_then(|tb| tb.wdl(pos)) {
        let for_attacker = if pos.turn() == color { wdl } else { -wdl };
        return Some(match for_attacker {
            Wdl::Win => yes("Syzygy tablebase: a win"),
            Wdl::CursedWin => {
                ForcedWin::No("Syzygy tablebase: a win only past the 50-move rule".into())
            }
            _ => ForcedWin::No("Syzygy tablebase: no win".into()),
        });
    }
    let (strong, wins) = kpk::probe(pos)?;
    // Worded like Syzygy's: callers put the material first.
    Some(if strong != color {
        ForcedWin::No("a lone king cannot win".into())
    } else if wins {
        yes("computed exactly: a win")
    } else {
        ForcedWin::No("computed exactly: no win".into())
    })
}

/// Iterative deepening of the forced-mate search, within the node budget.
fn search(pos: &Chess, color: Color) -> ForcedWin {
    let mut nodes = 0u64;
    let mut proved = 0;
    for plies in (1..=MATE_PLIES).step_by(2) {
        // Odd depths for the attacker to move, even for the defender.
        let depth = if pos.turn() == color {
            plies
        } else {
            plies + 1
        };
        match mates(pos, color, depth, &mut nodes) {
            Some(true) => {
                return ForcedWin::Yes {
                    how: format!("forced mate in {} found", depth.div_ceil(2)),
                    exact: false,
                }
            }
            Some(false) => proved = plies.div_ceil(2),
            None => break,
        }
    }
    if proved > 0 {
        ForcedWin::NoneWithin(proved)
    } else {
        ForcedWin::Unknown
    }
}

/// Can `attacker` force mate within `depth` plies? `None` when the node
/// budget runs out.
fn mates(pos: &Chess, attacker: Color, depth: u32, nodes: &mut u64) -> Option<bool> {
    *nodes += 1;
    if *nodes > NODE_BUDGET {
        return None;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(pos.is_check() && pos.turn() != attacker);
    }
    if depth == 0 || pos.has_insufficient_material(attacker) {
        return Some(false);
    }
    let attacking = pos.turn() == attacker;
    for m in moves {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let r = mates(&after, attacker, depth - 1, nodes)?;
        if attacking && r {
            return Some(true);
        }
        if !attacking && !r {
            return Some(false);
        }
    }
    Some(!attacking)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::analysis::test_position as pos;

    #[test]
    fn finds_a_short_forced_mate() {
        let p = pos("k7/8/1K6/8/8/8/8/7R w - - 0 1"); // Rh8#
        assert!(matches!(
            forced_win(&p, Side::White, None),
            ForcedWin::Yes { exact: false, .. }
        ));
        // A bare king: no mate at any depth the search reaches.
        assert_eq!(forced_win(&p, Side::Black, None), ForcedWin::NoneWithin(5));
    }

    #[test]
    fn knight_against_pawn_without_tables_has_no_short_mate() {
        let p = pos("8/8/4k3/4p3/8/4K3/4N3/8 b - - 0 1");
        assert_eq!(forced_win(&p, Side::White, None), ForcedWin::NoneWithin(5));
    }

    #[test]
    fn king_and_pawn_against_king_is_settled_without_tables() {
        let tb = Syzygy::open(&crate::analysis::test_syzygy_dir()).expect("shared Syzygy tables");
        let yes = |how: &str| ForcedWin::Yes {
            how: how.into(),
            exact: true,
        };
        let no = |how: &str| ForcedWin::No(how.into());
        // (position, side with the pawn, does it win)
        let cases = [
            ("8/8/8/8/8/4K3/4P3/4k3 w - - 0 1", Side::White, true),
            ("4K3/4p3/4k3/8/8/8/8/8 b - - 0 1", Side::Black, true),
            ("k7/8/8/8/P7/8/8/K7 w - - 0 1", Side::White, false),
            ("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1", Side::White, false), // stalemate
        ];
        for (fen, strong, wins) in cases {
            let p = pos(fen);
            let (table, exact) = if wins {
                (
                    yes("Syzygy tablebase: a win"),
                    yes("computed exactly: a win"),
                )
            } else {
                (
                    no("Syzygy tablebase: no win"),
                    no("computed exactly: no win"),
                )
            };
            assert_eq!(forced_win(&p, strong, Some(&tb)), table, "{fen}");
            assert_eq!(forced_win(&p, strong, None), exact, "{fen}");
            assert_eq!(
                forced_win(&p, strong.other(), None),
                no("a lone king cannot win"),
                "{fen}"
            );
        }
    }
}
