//! The record as evidence: the one replay's per-ply facts as a secretary
//! weighs them (captures, pawn moves, checks, repetitions, the king's walk,
//! both clocks), and every illegal move with where it stands. Claims, the
//! packets and the clock chart read this; none replays the game again.

use shakmaty::{fen::Fen, Chess, EnPassantMode, Move, Position, Square};

use crate::{
    model::{Clock, Side},
    pgn::{self, time_control::TimeControl, Tags},
    read::split::Splitter,
    replay::{
        self,
        clocks::{clock_facts, ClockFacts},
        Replay, Start,
    },
    rules::Ruleset,
};

/// One move of the scoresheet, as replayed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Row {
    /// 1-based ply.
    pub(crate) ply: usize,
    pub(crate) side: Side,
    pub(crate) san: String,
    /// The mover's clock after the move, when the scoresheet has clocks.
    pub(crate) clock: Option<Clock>,
    pub(crate) capture: bool,
    pub(crate) pawn: bool,
    pub(crate) check: bool,
    /// How often the position after the move has now stood on the board.
    pub(crate) occurrence: u8,
    /// Where the king went, when the move was a king move.
    pub(crate) king_to: Option<Square>,
    /// From and to, for a diagram (none for a move not replayed).
    pub(crate) squares: Option<(Square, Square)>,
}

/// The illegal move the scoresheet records.
#[derive(Clone, Debug, PartialEq)]
pub struct IllegalAt {
    pub(crate) ply: usize,
    pub(crate) side: Side,
    pub(crate) san: String,
    /// Plies written after it (a reply means it was not claimed at once).
    pub(crate) replies: usize,
    /// The move as the man moved it, if it moved as such a man moves.
    pub(crate) as_moved: Option<Move>,
    /// It stood once the opponent replied, and the replay went on.
    pub stood: bool,
}

#[derive(Clone, Debug)]
pub struct Record {
    /// "board3.pgn", or "the moves in the claim".
    pub(crate) source: String,
    /// Why the scoresheet could not be used (in full).
    pub(crate) problem: Option<String>,
    pub(crate) tags: Tags,
    pub(crate) first: Side,
    pub(crate) start_fullmove: u32,
    pub(crate) rows: Vec<Row>,
    /// The last position reached: before an illegal move that stopped the
    /// replay, or the end (illegal moves that stood played as they stood).
    pub(crate) position: Chess,
    /// Every illegal move, in order.
    pub illegal: Vec<IllegalAt>,
    pub(crate) time_control: TimeControl,
    pub(crate) clocks: ClockFacts,
    /// The replay itself (absent when the record could not be replayed).
    pub(crate) replay: Option<Replay>,
    /// Moves written after the replay stopped (after an illegal move, a
    /// board ending or a garbled token), as written, with their clocks.
    pub(crate) unreplayed: Vec<Row>,
    /// The last position recorded, the moves after the stop played as the
    /// men moved where they can be; `None` when they cannot.
    pub(crate) last_recorded: Option<Chess>,
    /// Something on the sheet passed over that cuts nothing short (a word
    /// after the last move), for the packet to say.
    pub(crate) note: Option<String>,
    /// Games in the file after the first (which is the scoresheet).
    pub(crate) extra_games: usize,
    /// The game's place in its file, from 0.
    pub(crate) game_index: usize,
    /// The scoresheet's game key (`adjudicate`'s `game_key`), to record a
    /// ruling under.
    pub(crate) key: Option<crate::model::GameKey>,
}

impl Record {
    /// The last move of the replayed rows (from, to; the king's squares
    /// when castling), to mark on a diagram.
    pub(crate) fn last_move(&self) -> Option<(Square, Square)> {
        self.rows.last().and_then(|r| r.squares)
    }

    pub(crate) fn empty(source: String, problem: String) -> Record {
        Record {
            source,
            problem: Some(problem),
            tags: Tags::default(),
            first: Side::White,
            start_fullmove: 1,
            rows: Vec::new(),
            position: Chess::default(),
            illegal: Vec::new(),
            time_control: TimeControl::Unknown,
            clocks: ClockFacts::default(),
            replay: None,
            extra_games: 0,
            game_index: 0,
            unreplayed: Vec::new(),
            last_recorded: None,
            note: None,
            key: None,
        }
    }

    /// The illegal move a claim is about: the last one recorded.
    pub(crate) fn last_illegal(&self) -> Option<&IllegalAt> {
        self.illegal.last()
    }

    /// The real move number the side to move at the end was about to play.
    pub(crate) fn next_move(&self) -> u32 {
        self.position.fullmoves().get()
    }

    /// The move number a ply belongs to.
    pub(crate) fn fullmove(&self, ply: usize) -> u32 {
        Side::fullmove_of_ply(self.first, self.start_fullmove, ply)
    }

    /// "12. " or "12... " before a ply's move.
    pub(crate) fn move_number(&self, ply: usize) -> String {
        let n = self.fullmove(ply);
        if Side::of_ply(self.first, ply) == Side::White {
            format!("{n}. ")
        } else {
            format!("{n}... ")
        }
    }

    pub(crate) fn fen(&self) -> String {
        Fen::from_position(&self.position, EnPassantMode::Legal).to_string()
    }

    /// Moves made by `side` in the scoresheet.
    pub(crate) fn moves_by(&self, side: Side) -> usize {
        self.rows.iter().filter(|r| r.side == side).count()
    }

    /// The side that made ply `ply`.
    pub(crate) fn side_of(&self, ply: usize) -> Side {
        if ply % 2 == 1 {
            self.first
        } else {
            self.first.other()
        }
    }

    /// Plies written on the scoresheet: replayed, illegal, or written after
    /// the replay stopped.
    pub(crate) fn plies_written(&self) -> usize {
        let last = |p: Option<usize>| p.unwrap_or(0);
        last(self.rows.last().map(|r| r.ply))
            .max(last(self.illegal.last().map(|i| i.ply)))
            .max(last(self.unreplayed.last().map(|r| r.ply)))
    }

    /// The moves `side` wrote after ply `ply`.
    pub(crate) fn moves_after(&self, side: Side, ply: usize) -> usize {
        (ply + 1..=self.plies_written())
            .filter(|&p| self.side_of(p) == side)
            .count()
    }

    /// Each side's last clock written before ply `ply` (White, Black).
    pub(crate) fn clocks_before(&self, ply: usize) -> [Option<Clock>; 2] {
        [Side::White, Side::Black].map(|side| {
            self.rows
                .iter()
                .rev()
                .filter(|r| r.ply < ply && r.side == side)
                .find_map(|r| r.clock)
        })
    }

    /// Ply `ply`'s move as written: replayed, illegal, or after the stop.
    pub(crate) fn written(&self, ply: usize) -> &str {
        fn row(rows: &[Row], ply: usize) -> Option<&str> {
            rows.iter().find(|r| r.ply == ply).map(|r| r.san.as_str())
        }
        row(&self.rows, ply)
            .or_else(|| {
                self.illegal
                    .iter()
                    .find(|i| i.ply == ply)
                    .map(|i| i.san.as_str())
            })
            .or_else(|| row(&self.unreplayed, ply))
            .unwrap_or("")
    }
}

/// Reads and replays a scoresheet's text: its game number `index` (from
/// 0; the claim chose it where the file holds several). Never fails: what
/// went wrong is in `problem`.
pub(crate) fn from_text(source: String, text: &[u8], rules: &Ruleset, index: usize) -> Record {
    let mut splitter = Splitter::new(text);
    let batch = match splitter.next_batch(usize::MAX) {
        Ok(Some(b)) if !b.games.is_empty() => b,
        _ => return Record::empty(source.clone(), format!("{source}: no game in it")),
    };
    let Some(&span) = batch.games.get(index) else {
        return Record::empty(
            source.clone(),
            format!("{source}: no game {} in it", index + 1),
        );
    };
    let mut game = pgn::BatchParser::new(&batch.data).parse(span.start, span.end);
    if game.open_comment_line > 0 {
        // The line in the file, not in the game.
        game.error = Some(pgn::unterminated_comment(
            span.line + u64::from(game.open_comment_line) - 1,
        ));
    }
    let mut ev = from_game(&source, &game, span.line, rules);
    ev.extra_games = batch.games.len() - 1;
    ev.game_index = index;
    ev
}

/// A parsed game as evidence (also used for `adjudicate --packets`): the
/// one replay, under the ruleset's replay rules, with its per-ply facts.
/// `first_line`: the line of the file the game starts on, so that a line
/// named is the file's.
pub(crate) fn from_game(
    source: &str,
    game: &pgn::ParsedGame,
    first_line: u64,
    rules: &Ruleset,
) -> Record {
    let start = match replay::start_position(&game.tags) {
        Start::Position(p, _) => p,
        Start::Variant(why) | Start::BadSetup(why) => {
            return Record::empty(source.to_string(), format!("{source}: {why}"))
        }
    };
    let first = Side::from(start.turn());
    let mut ev = Record::empty(source.to_string(), String::new());
    ev.problem = None;
    ev.key = Some(game.key());
    ev.tags = game.tags.clone();
    ev.first = first;
    ev.start_fullmove = start.fullmoves().get();
    if let Some(err) = &game.error {
        ev.problem = Some(format!("{source}: {err}"));
    }
    let limit = match &game.garbled {
        // A word after the last move ("claimed"): the sheet is whole, the
        // word said beside it.
        Some(g) if g.trailing && g.ply > game.plies.len() => {
            ev.note = Some(format!(
                "{source} line {}: {:?} after the last move is no move, and is passed over",
                first_line + u64::from(g.line) - 1,
                g.text
            ));
            game.plies.len()
        }
        Some(g) => {
            ev.problem = Some(format!(
                "{source} line {}: {:?} is not a move",
                first_line + u64::from(g.line) - 1,
                g.text
            ));
            (g.ply - 1).min(game.plies.len())
        }
        None => game.plies.len(),
    };
    let mut facts = Vec::with_capacity(limit);
    let r = replay::replay_into(
        game,
        start,
        replay::ReplayRules::of(rules),
        &mut replay::Scratch::default(),
        Some(&mut facts),
    );
    // Every illegal move the replay met, as written.
    for im in &r.illegal {
        ev.illegal.push(IllegalAt {
            ply: im.ply,
            side: im.side,
            san: written_san(&game.plies[im.ply - 1]),
            replies: limit.saturating_sub(im.ply),
            as_moved: im.as_moved,
            stood: im.stood,
        });
    }
    if r.stop == Some(replay::Stop::NullMove(r.plies + 1)) {
        let at = ev.move_number(r.plies + 1);
        ev.problem
            .get_or_insert_with(|| format!("{source}: {at}-- is a null move"));
    }
    ev.position = r.pos.clone();
    let (clocks, tc) = clock_facts(
        game,
        first,
        ev.start_fullmove,
        &game.tags.time_control,
        &rules.default_tc,
        game.plies.len(),
    );
    ev.rows = facts
        .iter()
        .map(|f| Row {
            ply: f.ply,
            side: f.side,
            san: f.san.to_string(),
            clock: game.plies[f.ply - 1]
                .clocks
                .clk
                .or_else(|| clocks.at(f.ply, f.side)),
            capture: f.capture,
            pawn: f.pawn,
            check: f.check,
            occurrence: f.occurrence,
            king_to: f.king_to,
            squares: f.squares,
        })
        .collect();
    ev.time_control = tc;
    ev.clocks = clocks;
    ev.last_recorded = after_the_replay(&mut ev, game, &r, limit);
    ev.replay = Some(r);
    ev
}

/// What the scoresheet goes on to say after the replay stopped: every
/// recorded move and clock stays on the sheet (`ev.unreplayed`). Returns
/// the last position recorded, where the moves can be played on as they
/// stood; `None` where one cannot.
fn after_the_replay(
    ev: &mut Record,
    game: &pgn::ParsedGame,
    r: &replay::Replay,
    limit: usize,
) -> Option<shakmaty::Chess> {
    let stop_at = r.plies
        + usize::from(
            ev.illegal
                .last()
                .is_some_and(|i| !i.stood && i.ply == r.plies + 1),
        );
    let mut pos = r.pos.clone();
    let mut playable = true;
    for (i, ply) in game.plies.iter().enumerate().take(limit).skip(r.plies) {
        let n = i + 1;
        let side = Side::of_ply(ev.first, n);
        if playable {
            match replay::resolve(&pos, ply).or_else(|| replay::as_moved(&pos, ply)) {
                Some(m) => pos.play_unchecked(m),
                None => playable = false,
            }
        }
        if n > stop_at {
            ev.unreplayed.push(Row {
                ply: n,
                side,
                san: written_san(ply),
                clock: ply.clocks.clk.or_else(|| ev.clocks.at(n, side)),
                capture: false,
                pawn: false,
                check: false,
                occurrence: 0,
                king_to: None,
                squares: None,
            });
        }
    }
    playable.then_some(pos)
}

fn written_san(ply: &pgn::Ply) -> String {
    match ply.uci {
        Some(u) => u.to_string(),
        None => ply.san.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scoresheet's lines are the file's: blank lines and comments
    /// before the tags count.
    #[test]
    fn lines_named_are_the_files() {
        let rules = Ruleset::load("fide-rapid").unwrap();
        let head = "\n\n; a note\n[White \"A\"]\n[Black \"B\"]\n\n";
        let garbled = format!("{head}1. e4 e5\n2. Xq9 Nc6 *\n");
        let r = from_text("s.pgn".into(), garbled.as_bytes(), &rules, 0);
        assert_eq!(
            r.problem.as_deref(),
            Some("s.pgn line 8: \"Xq9\" is not a move")
        );
        let open = format!("{head}1. e4 e5\n2. Nf3 {{ never closed\n2... Nc6 *\n");
        let r = from_text("s.pgn".into(), open.as_bytes(), &rules, 0);
        assert!(
            r.problem
                .as_deref()
                .is_some_and(|p| p.contains("the `{` on line 8 is never closed")),
            "{:?}",
            r.problem
        );
    }
}
