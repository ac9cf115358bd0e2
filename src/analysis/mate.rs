//! "Can this side still checkmate?" — the one question most rules turn on.
//! The rest of the code asks it here and never sees which method answered.
//!
//! For now the answer comes from shakmaty's material rule, which is sound
//! (a side it says cannot mate really cannot) but incomplete (pawn walls and
//! locked bishops are reported as able to mate). The helpmate search replaces
//! the body of `can_mate` without changing its callers.

use shakmaty::{Chess, Color, Position, Role};

use crate::model::Side;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mateability {
    /// A mate exists for this side by some series of legal moves.
    Winnable,
    /// No series of legal moves ends with this side giving mate.
    Unwinnable,
    /// The analysis ran out of budget: an arbiter decides.
    Undetermined,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateAnswer {
    pub verdict: Mateability,
    /// How the answer was reached, for the `detail` column.
    pub method: &'static str,
}

/// Can `side` checkmate from `pos` by any possible series of legal moves?
pub fn can_mate(pos: &Chess, side: Side) -> MateAnswer {
    if pos.has_insufficient_material(Color::from(side)) {
        MateAnswer {
            verdict: Mateability::Unwinnable,
            method: "insufficient material",
        }
    } else {
        MateAnswer {
            verdict: Mateability::Winnable,
            method: "mating material on the board",
        }
    }
}

/// Dead position (FIDE 5.2.2): neither side can mate.
pub fn is_dead(pos: &Chess) -> bool {
    pos.is_insufficient_material()
}

/// The material of one side, as a rule text would list it (`K+B`, `K+N+N`).
pub fn material_label(pos: &Chess, side: Side) -> String {
    let board = pos.board();
    let color = Color::from(side);
    let mut s = String::from("K");
    for (role, letter) in [
        (Role::Queen, "Q"),
        (Role::Rook, "R"),
        (Role::Bishop, "B"),
        (Role::Knight, "N"),
        (Role::Pawn, "P"),
    ] {
        // `K+R+2P` rather than `K+R+P+P`, so a middlegame stays readable.
        match (board.by_color(color) & board.by_role(role)).count() {
            0 => {}
            1 => {
                s.push('+');
                s.push_str(letter);
            }
            n => s.push_str(&format!("+{n}{letter}")),
        }
    }
    s
}

/// USCF 14E: when does a flag fall *not* lose?
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uscf14e {
    /// The flag loses.
    Win,
    /// Drawn under the given paragraph (`14E1`, `14E2`, `14E3`).
    Draw(&'static str),
    /// 14E2/14E3 apply unless the non-flagger has a forced win that this
    /// analysis cannot settle.
    Review(&'static str),
}

/// `flagger` ran out of time; may the opponent have the win under 14E?
pub fn uscf_14e(pos: &Chess, flagger: Side) -> Uscf14e {
    let board = pos.board();
    let opp = Color::from(flagger.other());
    let them = Color::from(flagger);
    let count = |c: Color, r: Role| (board.by_color(c) & board.by_role(r)).count();
    let opp_men = board.by_color(opp).count();
    let flagger_bare = board.by_color(them).count() == 1;
    let flagger_pawns = count(them, Role::Pawn);
    if opp_men == 1 {
        return Uscf14e::Draw("14E1");
    }
    let minors_only =
        count(opp, Role::Queen) + count(opp, Role::Rook) + count(opp, Role::Pawn) == 0;
    if opp_men == 2 && minors_only {
        // K+B or K+N cannot even mate a bare king, let alone force it.
        return if flagger_bare {
            Uscf14e::Draw("14E2")
        } else {
            Uscf14e::Review("14E2")
        };
    }
    if opp_men == 3 && minors_only && count(opp, Role::Knight) == 2 && flagger_pawns == 0 {
        // K+N+N cannot force mate against a bare king.
        return if flagger_bare {
            Uscf14e::Draw("14E3")
        } else {
            Uscf14e::Review("14E3")
        };
    }
    Uscf14e::Win
}

#[cfg(test)]
mod tests {
    use shakmaty::{fen::Fen, CastlingMode};

    use super::*;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn bare_king_and_minor_cannot_mate() {
        let p = pos("8/8/4k3/8/8/4K3/4B3/8 w - - 0 1");
        assert_eq!(can_mate(&p, Side::White).verdict, Mateability::Unwinnable);
        assert_eq!(can_mate(&p, Side::Black).verdict, Mateability::Unwinnable);
        assert!(is_dead(&p));
        assert_eq!(material_label(&p, Side::White), "K+B");
    }

    #[test]
    fn uscf_14e_material_list() {
        // Black flags; White has K+N v K+P: 14E2, forced win unsettled.
        let p = pos("8/8/4k3/4p3/8/4K3/4N3/8 w - - 0 1");
        assert_eq!(uscf_14e(&p, Side::Black), Uscf14e::Review("14E2"));
        // White flags: Black has K+P, not on the list.
        assert_eq!(uscf_14e(&p, Side::White), Uscf14e::Win);
        let bare = pos("8/8/4k3/8/8/4K3/4N3/8 w - - 0 1");
        assert_eq!(uscf_14e(&bare, Side::White), Uscf14e::Draw("14E1"));
        assert_eq!(uscf_14e(&bare, Side::Black), Uscf14e::Draw("14E2"));
        let nn = pos("8/8/4k3/8/8/4K3/3NN3/8 w - - 0 1");
        assert_eq!(uscf_14e(&nn, Side::Black), Uscf14e::Draw("14E3"));
        let nnp = pos("8/4p3/4k3/8/8/4K3/3NN3/8 w - - 0 1");
        assert_eq!(uscf_14e(&nnp, Side::Black), Uscf14e::Win);
    }
}
