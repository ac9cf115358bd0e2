//! "Can this side still checkmate?" — the one question most rules turn on
//! (FIDE 6.9, 5.1.2, 5.2.2, 7.5.5; BCF RP 14; ECF QPF 9; Sabah iv.1). The
//! rest of the code asks it here and never sees how it was answered (the
//! search itself is in `analysis::helpmate`).

use shakmaty::{Chess, Color, Move, Position, Role};

use super::{
    forced::{forced_win, ForcedWin, Syzygy},
    helpmate::{self, Verdict},
};
use crate::{chess::legal, model::Side, pgn::ParsedGame, replay};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mateability {
    /// A mate exists for this side by some series of legal moves.
    Winnable,
    /// No series of legal moves ends with this side giving mate.
    Unwinnable,
    /// The analysis ran out of budget: an arbiter decides.
    Undetermined,
}

impl Mateability {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Mateability::Winnable => "winnable",
            Mateability::Unwinnable => "unwinnable",
            Mateability::Undetermined => "undetermined",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateAnswer {
    pub verdict: Mateability,
    /// How the answer was reached, for the `detail` column.
    pub method: &'static str,
    /// For `Winnable`: a mating line from the position (may be empty when
    /// the position is already mate).
    pub line: Vec<Move>,
    /// `line` in SAN with move numbers, written as it was replayed to mate
    /// (the proof check and the row's words need the same legal moves).
    pub written: String,
}

impl MateAnswer {
    /// `side` cannot mate, by the proof named.
    pub(crate) fn cannot(how: &'static str) -> MateAnswer {
        MateAnswer::new(Mateability::Unwinnable, how)
    }

    fn new(verdict: Mateability, method: &'static str) -> MateAnswer {
        MateAnswer {
            verdict,
            method,
            line: Vec::new(),
            written: String::new(),
        }
    }
}

/// The material rule alone (a ruleset may choose it, with its citation):
/// a side with mating material counts as able to mate. The ruleset's own
/// rule, named as such; never the default.
pub(crate) fn material_answer(pos: &Chess, side: Side) -> MateAnswer {
    if pos.has_insufficient_material(Color::from(side)) {
        MateAnswer::new(Mateability::Unwinnable, "insufficient material")
    } else {
        MateAnswer::new(
            Mateability::Winnable,
            "the ruleset's material rule: mating material on the board",
        )
    }
}

/// Can `side` checkmate from `pos` by any possible series of legal moves?
/// The one answer games, claims, `analyse` and `audit` ask for: *cannot*
/// with its proof (the material rule, forced moves, every short line, a
/// pawn-wall certificate, an exhausted search), *can* with a mating line
/// that has been replayed to mate here, or *undetermined* when the budget
/// ran out. Nothing is presumed.
pub fn can_mate(pos: &Chess, side: Side) -> MateAnswer {
    match cannot_mate_proof(pos, side, false) {
        Some(how) => MateAnswer::new(Mateability::Unwinnable, how),
        None => search_answer(pos, side),
    }
}

/// `can_mate` past the fast check, for a caller that has already asked
/// `cannot_mate_proof` and been told nothing (`policy::Board` keeps that
/// answer per side).
pub(crate) fn search_answer(pos: &Chess, side: Side) -> MateAnswer {
    let color = Color::from(side);
    if pos.is_checkmate() && pos.turn() != color {
        return MateAnswer::new(Mateability::Winnable, "the position is mate");
    }
    match helpmate::winnability(pos, color) {
        Verdict::Winnable(line) => {
            let mut written = String::new();
            match write_line(pos, &line, &mut written) {
                Some(end) if end.is_checkmate() && end.turn() != color => MateAnswer {
                    verdict: Mateability::Winnable,
                    method: "helpmate line",
                    line,
                    written,
                },
                // A line that does not replay to mate proves nothing: a
                // defect in the search, never a verdict.
                _ => MateAnswer::new(
                    Mateability::Undetermined,
                    "the search's line did not replay to mate",
                ),
            }
        }
        Verdict::Unwinnable(how) => MateAnswer::new(Mateability::Unwinnable, how),
        Verdict::Undetermined => MateAnswer::new(Mateability::Undetermined, "search budget spent"),
    }
}

/// `line` is legal from `pos` and ends with `winner` giving mate, asked
/// of shakmaty move by move: the slow path the written line's own check
/// (`write_line`) is tested against.
pub fn line_mates(pos: &Chess, line: &[Move], winner: Color) -> bool {
    let mut p = pos.clone();
    for &m in line {
        if !p.is_legal(m) {
            return false;
        }
        p.play_unchecked(m);
    }
    p.is_checkmate() && p.turn() != winner
}

/// The fast, sound but incomplete check: the proof's words if `side`
/// provably cannot mate, `None` when it proves nothing.
/// `choice`: the side to move is known to have two legal moves or more.
pub fn cannot_mate_proof(pos: &Chess, side: Side, choice: bool) -> Option<&'static str> {
    helpmate::unwinnable_fast(pos, Color::from(side), choice)
}

/// `cannot_mate_proof` as a yes or no.
pub fn cannot_mate_fast(pos: &Chess, side: Side, choice: bool) -> bool {
    cannot_mate_proof(pos, side, choice).is_some()
}

/// Dead position (FIDE 5.2.2): neither side can mate. The fast check runs
/// first; the full search confirms the second side only when the first
/// side is already known unable to mate.
pub(crate) fn is_dead(pos: &Chess) -> bool {
    if pos.is_insufficient_material() {
        return true;
    }
    // The side with less material is likelier to be unable to mate: ask it first.
    let material = |c: Color| pos.board().by_color(c).count();
    let (first, second) = if material(Color::White) <= material(Color::Black) {
        (Side::White, Side::Black)
    } else {
        (Side::Black, Side::White)
    };
    cannot_mate_fast(pos, first, false) && can_mate(pos, second).verdict == Mateability::Unwinnable
}

/// A mating line in SAN with move numbers from `pos`, e.g. `61... Kf8 62. Qg7#`.
pub fn numbered_line(pos: &Chess, line: &[Move]) -> String {
    let mut out = String::new();
    push_numbered_line(pos, line, &mut out);
    out
}

/// `numbered_line`, onto the end of `out` (a row's sentence is built in
/// one buffer).
pub(crate) fn push_numbered_line(pos: &Chess, line: &[Move], out: &mut String) {
    write_line(pos, line, out);
}

/// Writes `line` from `pos` up to its first illegal move; the position at
/// its end if every move was legal.
fn write_line(pos: &Chess, line: &[Move], out: &mut String) -> Option<Chess> {
    let mut p = pos.clone();
    let mut n = pos.fullmoves().get();
    // Whether the move written last gives check, its sign not yet written:
    // `+` when a legal move follows (a position with one is not mate),
    // else whatever the position is. shakmaty's `SanPlus` asks for the
    // game's outcome, every legal move, after each ply instead.
    let mut check = false;
    let mut legal = true;
    for (i, &m) in line.iter().enumerate() {
        if !legal::is_legal(&p, m) {
            legal = false;
            break;
        }
        if check {
            out.push('+');
        }
        if i > 0 {
            out.push(' ');
        }
        let white = p.turn() == Color::White;
        if white || i == 0 {
            out.push_str(itoa::Buffer::new().format(n));
            out.push_str(if white { ". " } else { "... " });
        }
        // Written in place: a `format!` and a `to_string` a move cost more
        // than the SAN itself.
        legal::san(&p, m).append_to_string(out);
        p.play_unchecked(m);
        check = p.checkers().any();
        if !white {
            n += 1;
        }
    }
    if check {
        out.push(if p.is_checkmate() { '#' } else { '+' });
    }
    legal.then_some(p)
}

/// The material of one side, as a rule text would list it (`K+B`, `K+R+2P`).
pub(crate) fn material_label(pos: &Chess, side: Side) -> MaterialLabel {
    let board = pos.board();
    let ours = board.by_color(Color::from(side));
    MaterialLabel(
        [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ]
        .map(|role| (ours & board.by_role(role)).count() as u8),
    )
}

/// A side's men by kind (queens, rooks, bishops, knights, pawns), written
/// where it is formatted rather than into a string of its own.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct MaterialLabel([u8; 5]);

impl MaterialLabel {
    /// Writes the label onto `out`: byte by byte, since a sentence naming
    /// both sides' material is in every flag-fall row, and going through
    /// the formatter for each man cost more than judging the flag.
    pub(crate) fn push_to(&self, out: &mut String) {
        out.push('K');
        for (n, letter) in self.0.into_iter().zip(['Q', 'R', 'B', 'N', 'P']) {
            // `K+R+2P` rather than `K+R+P+P`, so a middlegame stays readable.
            if n == 0 {
                continue;
            }
            out.push('+');
            if n >= 10 {
                out.push(char::from(b'0' + n / 10));
            }
            if n > 1 {
                out.push(char::from(b'0' + n % 10));
            }
            out.push(letter);
        }
    }
}

impl std::fmt::Display for MaterialLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::with_capacity(24);
        self.push_to(&mut s);
        f.write_str(&s)
    }
}

/// USCF 14E: when does a flag fall *not* lose?
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Uscf14e {
    /// The flag loses; why.
    Win(String),
    /// Drawn under the paragraph (`14E1`, `14E2`, `14E3`); why.
    Draw(&'static str, String),
    /// The paragraph applies unless a forced win exists, and that is unsettled.
    Review(&'static str, String),
}

/// `flagger` ran out of time; may the opponent have the win under 14E?
pub(crate) fn uscf_14e(pos: &Chess, flagger: Side, syzygy: Option<&Syzygy>) -> Uscf14e {
    let board = pos.board();
    let opp = Color::from(flagger.other());
    let them = Color::from(flagger);
    let count = |c: Color, r: Role| (board.by_color(c) & board.by_role(r)).count();
    let opp_men = board.by_color(opp).count();
    let flagger_bare = board.by_color(them).count() == 1;
    let minors_only =
        count(opp, Role::Queen) + count(opp, Role::Rook) + count(opp, Role::Pawn) == 0;
    let paragraph = if opp_men == 1 {
        return Uscf14e::Draw("14E1", "a lone king".into());
    } else if opp_men == 2 && minors_only {
        "14E2"
    } else if opp_men == 3
        && minors_only
        && count(opp, Role::Knight) == 2
        && count(them, Role::Pawn) == 0
    {
        "14E3"
    } else {
        return Uscf14e::Win("not on the USCF 14E list".into());
    };
    if flagger_bare {
        // A lone minor piece, or two knights, cannot force mate on a bare king.
        return Uscf14e::Draw(paragraph, "no forced win against a bare king".into());
    }
    match forced_win(pos, flagger.other(), syzygy) {
        ForcedWin::Yes { how, .. } => Uscf14e::Win(format!("{how}, so {paragraph} does not apply")),
        ForcedWin::No(how) => Uscf14e::Draw(paragraph, how),
        // 14E2/E3 draw only where the opponent "does not have a forced
        // win": a search that finds no forced mate within some moves has
        // not shown that, since a longer one may exist (K+N v K+P has
        // forced wins the short search misses). Only a table settles it.
        // A side that cannot mate at all, even helped, has no forced win.
        ForcedWin::NoneWithin(_) | ForcedWin::Unknown
            if can_mate(pos, flagger.other()).verdict == Mateability::Unwinnable =>
        {
            Uscf14e::Draw(
                paragraph,
                format!(
                    "{} cannot mate by any series of legal moves, so has no forced win",
                    flagger.other().name()
                ),
            )
        }
        ForcedWin::NoneWithin(n) => Uscf14e::Review(
            paragraph,
            format!("no forced mate within {n} moves, and a longer forced win is not ruled out: endgame tables (--syzygy) settle it where they reach"),
        ),
        ForcedWin::Unknown => Uscf14e::Review(
            paragraph,
            "no forced mate found within 5 moves and no tablebase covers it".into(),
        ),
    }
}

/// The first position of the game that is dead (FIDE 5.2.2), given that the
/// position after `upto` plies is. Dead-ness is monotone (a dead position
/// only leads to dead positions) and changes only with an irreversible move,
/// so only those positions are tried, in order.
pub(crate) fn first_dead_ply(
    game: &ParsedGame,
    start: Chess,
    upto: usize,
) -> Option<(usize, Chess)> {
    let mut pos = start;
    if is_dead(&pos) {
        return Some((0, pos));
    }
    for (i, ply) in game.plies.iter().take(upto).enumerate() {
        let m = replay::resolve(&pos, ply).or_else(|| replay::as_moved(&pos, ply))?;
        let irreversible = replay::irreversible(&pos, &m);
        pos.play_unchecked(m);
        if (irreversible || i + 1 == upto) && is_dead(&pos) {
            return Some((i + 1, pos));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::analysis::test_position as pos;

    #[test]
    fn bare_king_and_minor_cannot_mate() {
        let p = pos("8/8/4k3/8/8/4K3/4B3/8 w - - 0 1");
        assert_eq!(can_mate(&p, Side::White).verdict, Mateability::Unwinnable);
        assert_eq!(can_mate(&p, Side::Black).verdict, Mateability::Unwinnable);
        assert!(is_dead(&p));
        assert_eq!(material_label(&p, Side::White).to_string(), "K+B");
        let p = pos("4k3/pppp4/8/8/8/8/5PP1/Q1RRK3 w - - 0 1");
        assert_eq!(material_label(&p, Side::White).to_string(), "K+Q+2R+2P");
        assert_eq!(material_label(&p, Side::Black).to_string(), "K+4P");
        // Ten knights (two and eight promoted): a count of two digits.
        let p = pos("N6k/N7/N7/N7/N7/N7/NN6/NN5K w - - 0 1");
        assert_eq!(material_label(&p, Side::White).to_string(), "K+10N");
        let mut pushed = String::from("White has ");
        material_label(&p, Side::White).push_to(&mut pushed);
        assert_eq!(pushed, "White has K+10N");
    }

    #[test]
    fn uscf_14e_material_list() {
        // Black flags; White has K+N v K+P: 14E2. The search rules out a
        // forced mate within five moves, which leaves a longer one open:
        // review, not a draw.
        let p = pos("8/8/4k3/4p3/8/4K3/4N3/8 w - - 0 1");
        assert!(matches!(
            uscf_14e(&p, Side::Black, None),
            Uscf14e::Review("14E2", why) if why.starts_with("no forced mate within 5 moves, and a longer forced win is not ruled out")
        ));
        // Where the short search misses a forced win the tables find (the
        // pawn boxes its own king in): never a draw without the tables.
        let boxed = pos("8/8/8/7N/8/7p/8/4K2k w - - 0 1");
        assert!(matches!(
            uscf_14e(&boxed, Side::Black, None),
            Uscf14e::Review("14E2", _)
        ));
        // White flags: Black has K+P, not on the list.
        assert!(matches!(uscf_14e(&p, Side::White, None), Uscf14e::Win(_)));
        let bare = pos("8/8/4k3/8/8/4K3/4N3/8 w - - 0 1");
        assert!(matches!(
            uscf_14e(&bare, Side::White, None),
            Uscf14e::Draw("14E1", _)
        ));
        assert!(matches!(
            uscf_14e(&bare, Side::Black, None),
            Uscf14e::Draw("14E2", _)
        ));
        let nn = pos("8/8/4k3/8/8/4K3/3NN3/8 w - - 0 1");
        assert!(matches!(
            uscf_14e(&nn, Side::Black, None),
            Uscf14e::Draw("14E3", _)
        ));
        let nnp = pos("8/4p3/4k3/8/8/4K3/3NN3/8 w - - 0 1");
        assert!(matches!(uscf_14e(&nnp, Side::Black, None), Uscf14e::Win(_)));
    }
}
