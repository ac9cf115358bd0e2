//! The scoresheet as evidence: every move replayed, with the facts a
//! secretary weighs (captures, pawn moves, checks, repetitions, the king's
//! walk, both clocks) and where an illegal move stands.

use std::collections::HashMap;

use shakmaty::{
    fen::Fen, san::SanPlus, zobrist::Zobrist64, Chess, EnPassantMode, Move, Position, Role, Square,
};

use super::file::{Claim, Scoresheet};
use crate::{
    analysis::clocks::{clock_facts, ClockFacts},
    model::{Clock, Side},
    pgn::{self, time_control::TimeControl, Tags},
    read::split::Splitter,
    replay::{self, Start},
    rules::Ruleset,
};

/// One move of the scoresheet, as replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// 1-based ply.
    pub ply: usize,
    pub side: Side,
    pub san: String,
    /// The mover's clock after the move, when the scoresheet has clocks.
    pub clock: Option<Clock>,
    pub capture: bool,
    pub pawn: bool,
    pub check: bool,
    /// How often the position after the move has now stood on the board.
    pub occurrence: u8,
    /// Where the king went, when the move was a king move.
    pub king_to: Option<Square>,
}

/// The illegal move the scoresheet records.
#[derive(Clone, Debug, PartialEq)]
pub struct IllegalAt {
    pub ply: usize,
    pub side: Side,
    pub san: String,
    /// Plies written after it (a reply means it was not claimed at once).
    pub replies: usize,
    /// The move as the man moved it, if it moved as such a man moves.
    pub as_moved: Option<Move>,
}

#[derive(Clone, Debug)]
pub struct Evidence {
    /// "board3.pgn", or "the moves in the claim".
    pub source: String,
    /// Why the scoresheet could not be used (in full).
    pub problem: Option<String>,
    pub tags: Tags,
    pub first: Side,
    pub start_fullmove: u32,
    pub rows: Vec<Row>,
    /// Position after the last legal move.
    pub position: Chess,
    pub illegal: Option<IllegalAt>,
    pub time_control: TimeControl,
    pub clocks: ClockFacts,
}

impl Evidence {
    fn empty(source: String, problem: String) -> Evidence {
        Evidence {
            source,
            problem: Some(problem),
            tags: Tags::default(),
            first: Side::White,
            start_fullmove: 1,
            rows: Vec::new(),
            position: Chess::default(),
            illegal: None,
            time_control: TimeControl::Unknown,
            clocks: ClockFacts::default(),
        }
    }

    /// The move number a ply belongs to.
    pub fn fullmove(&self, ply: usize) -> u32 {
        let idx = ply - 1 + usize::from(self.first == Side::Black);
        self.start_fullmove + (idx / 2) as u32
    }

    /// "12. " or "12... " before a ply's move.
    pub fn move_number(&self, ply: usize) -> String {
        let first_black = usize::from(self.first == Side::Black);
        let idx = ply - 1 + first_black;
        let n = self.start_fullmove as usize + idx / 2;
        if idx % 2 == 0 {
            format!("{n}. ")
        } else {
            format!("{n}... ")
        }
    }

    pub fn fen(&self) -> String {
        Fen::from_position(&self.position, EnPassantMode::Legal).to_string()
    }

    /// Moves made by `side` in the scoresheet.
    pub fn moves_by(&self, side: Side) -> usize {
        self.rows.iter().filter(|r| r.side == side).count()
    }
}

/// Reads and replays the claim's scoresheet. Never fails: what went wrong
/// is in `problem`.
pub fn gather(claim: &Claim) -> Evidence {
    let (source, text) = match &claim.scoresheet {
        Scoresheet::Inline(m) => (
            "the moves in the claim".to_string(),
            format!("{m}\n").into_bytes(),
        ),
        Scoresheet::File(path, bytes) => {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string());
            match bytes {
                Ok(b) => (name, b.clone()),
                Err(e) => return Evidence::empty(name.clone(), format!("scoresheet {name}: {e}")),
            }
        }
    };
    let mut splitter = Splitter::new(&text[..]);
    let batch = match splitter.next_batch(usize::MAX) {
        Ok(Some(b)) if !b.games.is_empty() => b,
        _ => return Evidence::empty(source.clone(), format!("{source}: no game in it")),
    };
    let span = batch.games[0];
    let game = pgn::BatchParser::new(&batch.data).parse(span.start, span.end);
    let mut ev = from_game(&source, &game, &claim.ruleset);
    if batch.games.len() > 1 && ev.problem.is_none() {
        ev.problem = Some(format!(
            "{source} holds {} games; the first is the scoresheet",
            batch.games.len()
        ));
    }
    ev
}

/// A parsed game as evidence (also used for `adjudicate --packets`).
pub fn from_game(source: &str, game: &pgn::ParsedGame, rules: &Ruleset) -> Evidence {
    let start = match replay::start_position(&game.tags) {
        Start::Position(p, _) => *p,
        Start::Unsupported(why) => {
            return Evidence::empty(source.to_string(), format!("{source}: {why}"))
        }
    };
    let first = Side::from(start.turn());
    let mut ev = Evidence::empty(source.to_string(), String::new());
    ev.problem = None;
    ev.tags = game.tags.clone();
    ev.first = first;
    ev.start_fullmove = start.fullmoves().get();
    if let Some(err) = &game.error {
        ev.problem = Some(format!("{source}: {err}"));
    }
    let limit = match &game.garbled {
        Some(g) => {
            ev.problem = Some(format!(
                "{source} line {}: {:?} is not a move",
                g.line, g.text
            ));
            (g.ply - 1).min(game.plies.len())
        }
        None => game.plies.len(),
    };
    let mut seen: HashMap<u64, u8> = HashMap::new();
    let hash = |p: &Chess| p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
    let mut pos = start;
    seen.insert(hash(&pos), 1);
    for (i, ply) in game.plies[..limit].iter().enumerate() {
        let n = i + 1;
        let side = Side::from(pos.turn());
        let written = written_san(ply);
        let Some(m) = replay::resolve(&pos, ply).filter(|_| !pgn::is_null(ply)) else {
            ev.illegal = Some(IllegalAt {
                ply: n,
                side,
                san: written,
                replies: limit - n,
                as_moved: replay::as_moved(&pos, ply),
            });
            break;
        };
        let san = SanPlus::from_move(pos.clone(), m).to_string();
        let capture = m.is_capture();
        let pawn = m.role() == Role::Pawn;
        let king_to = (m.role() == Role::King).then(|| m.to());
        if m.is_zeroing() {
            seen.clear();
        }
        pos.play_unchecked(m);
        let count = seen.entry(hash(&pos)).or_insert(0);
        *count = count.saturating_add(1);
        ev.rows.push(Row {
            ply: n,
            side,
            san,
            clock: None,
            capture,
            pawn,
            check: pos.is_check(),
            occurrence: *count,
            king_to,
        });
    }
    ev.position = pos;
    let (facts, tc) = clock_facts(
        game,
        first,
        &game.tags.time_control,
        &rules.default_tc,
        game.plies.len(),
    );
    for row in &mut ev.rows {
        row.clock = game.plies[row.ply - 1]
            .clocks
            .clk
            .or_else(|| facts.at(row.ply, row.side));
    }
    ev.time_control = tc;
    ev.clocks = facts;
    ev
}

fn written_san(ply: &pgn::Ply) -> String {
    match ply.uci {
        Some(u) => u.to_string(),
        None => ply.san.to_string(),
    }
}
