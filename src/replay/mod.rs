//! Replays a parsed game with shakmaty: finds the first board ending, the
//! illegal moves (and whether each is one a piece could make), repetitions
//! and the move counters. No judging here: the facts only.
//!
//! This is the one replay: the game judge reads `Replay`; the claim
//! evidence, the packets and the clock chart read the same replay's per-ply
//! facts (`PlyFact`, gathered only when asked) through `record::Record`.

pub(crate) mod clocks;
pub(crate) mod record;
pub mod resolve;

use shakmaty::{
    attacks,
    fen::Fen,
    san::{San, SanPlus, Suffix},
    zobrist::Zobrist64,
    CastlingMode, Chess, EnPassantMode, Move, Position, Role, Square,
};

use crate::{
    chess::{cheap_moves::two_legal_moves, key},
    model::Side,
    pgn::{is_null, ParsedGame, Ply, Tags},
};

/// How the game may be replayed, from the tags.
#[derive(Debug)]
pub enum Start {
    Position(Chess, CastlingMode),
    /// A variant the tool does not judge (only standard chess and
    /// Chess960 are), with why.
    Variant(String),
    /// A `FEN` tag that cannot be read or is no legal position, with why.
    BadSetup(String),
}

/// Builds the start position from `Variant`, `SetUp` and `FEN`.
pub fn start_position(tags: &Tags) -> Start {
    const STANDARD: [&str; 4] = ["", "standard", "from position", "normal"];
    const CHESS960: [&str; 5] = [
        "chess960",
        "chess 960",
        "fischerandom",
        "fischer random",
        "freestyle",
    ];
    let variant = tags.variant.trim();
    let one_of = |names: &[&str]| names.iter().any(|n| variant.eq_ignore_ascii_case(n));
    let mode = if one_of(&STANDARD) {
        CastlingMode::Standard
    } else if one_of(&CHESS960) {
        CastlingMode::Chess960
    } else {
        return Start::Variant(format!(
            "variant {variant:?} is not judged (only standard chess and Chess960 are)"
        ));
    };
    let fen = tags.fen.trim();
    if fen.is_empty() {
        return Start::Position(Chess::default(), mode);
    }
    let parsed: Fen = match fen.parse() {
        Ok(f) => f,
        Err(e) => return Start::BadSetup(format!("FEN tag {fen:?} cannot be read: {e}")),
    };
    match parsed.into_position::<Chess>(mode) {
        Ok(p) => Start::Position(p, mode),
        Err(e) => Start::BadSetup(format!("FEN tag {fen:?} is not a legal position: {e}")),
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum BoardEnd {
    Checkmate,
    Stalemate,
    DeadPosition,
    Fivefold,
    SeventyFive,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ending {
    pub(crate) kind: BoardEnd,
    /// The ply that produced the position (0 = the start position).
    pub(crate) ply: usize,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum IllegalKind {
    /// A piece can make the move; only the check, pin or castling rules forbid it.
    Geometric,
    /// No piece of that side could make it at all.
    Impossible,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IllegalMove {
    pub(crate) ply: usize,
    pub(crate) side: Side,
    pub(crate) kind: IllegalKind,
    /// Replayed as played because the ruleset lets it stand after the reply,
    /// or because nobody noticed it before the game was over.
    pub(crate) stood: bool,
    /// It stood only because it went unnoticed until the game was over.
    pub(crate) unnoticed: bool,
    /// The move as the man moved it, when it moved as such a man moves.
    pub(crate) as_moved: Option<Move>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// At an illegal move that did not stand (index into `illegal`).
    Illegal,
    /// At a token that is not a move (see `ParsedGame::garbled`).
    Garbled(usize),
    /// At a null move.
    NullMove(usize),
}

#[derive(Clone, Debug)]
pub struct Replay {
    pub(crate) first: Side,
    pub(crate) start_fullmove: u32,
    /// Last position reached (legally, or as played where illegal moves stood).
    pub(crate) pos: Chess,
    /// Plies replayed.
    pub plies: usize,
    pub(crate) ending: Option<Ending>,
    pub(crate) illegal: Vec<IllegalMove>,
    pub(crate) stop: Option<Stop>,
    /// Wrong `+`/`#` suffixes: (ply, what was written, what it is).
    pub(crate) wrong_suffixes: Vec<(usize, &'static str, &'static str)>,
    pub(crate) threefold_at: Option<usize>,
    pub(crate) fifty_at: Option<usize>,
    /// The side to move in `pos` has two legal moves or more: found where
    /// the game ran to its end (`false` where it stopped early or has
    /// fewer), and passed on to the fast check, which asks the same.
    pub(crate) choice: bool,
}

impl Replay {
    pub(crate) fn side_of_ply(&self, ply: usize) -> Side {
        Side::of_ply(self.first, ply)
    }

    /// `move_number`, onto the end of `out` (a flag-fall row names a move
    /// or two: digits pushed, not formatted).
    pub(crate) fn write_move_number(&self, ply: usize, out: &mut String) {
        let n = Side::fullmove_of_ply(self.first, self.start_fullmove, ply);
        out.push_str(itoa::Buffer::new().format(n));
        let white = Side::of_ply(self.first, ply.max(1)) == Side::White;
        out.push_str(if white { "." } else { "..." });
    }

    pub(crate) fn side_to_move(&self) -> Side {
        self.pos.turn().into()
    }
}

/// Reusable buffers, one per worker, so replaying allocates nothing per move.
#[derive(Default)]
pub struct Scratch {
    /// The keys of the positions since the last irreversible move: the only
    /// ones a position can repeat. Few in real games, so a scan beats a
    /// hash map; past `SCAN_LIMIT` of them (a long shuffle under rules
    /// without the 75-move rule) they are counted in `counts`, so a ply
    /// costs O(1) whatever the game's length.
    seen: Vec<u64>,
    counts: std::collections::HashMap<
        u64,
        u8,
        std::hash::BuildHasherDefault<crate::chess::key::KeyHasher>,
    >,
}

/// Positions since the last irreversible move kept in a list to scan.
const SCAN_LIMIT: usize = 128;

impl Scratch {
    fn clear(&mut self) {
        self.seen.clear();
        // Cleared only when used: clearing writes over all its capacity.
        if !self.counts.is_empty() {
            self.counts.clear();
        }
    }

    /// Records the position `h` and says how often it has now stood.
    fn record(&mut self, h: u64) -> u8 {
        if self.seen.len() < SCAN_LIMIT {
            let count = 1 + self.seen.iter().filter(|&&k| k == h).count();
            self.seen.push(h);
            if self.seen.len() == SCAN_LIMIT {
                for &k in &self.seen {
                    let c = self.counts.entry(k).or_insert(0);
                    *c = c.saturating_add(1);
                }
            }
            return count.min(255) as u8;
        }
        let c = self.counts.entry(h).or_insert(0);
        *c = c.saturating_add(1);
        *c
    }
}

/// One ply as replayed: what a secretary weighs on a scoresheet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct PlyFact {
    /// 1-based ply.
    pub(crate) ply: usize,
    pub(crate) side: Side,
    /// The move as played, in standard SAN with its check suffix.
    pub(crate) san: SanPlus,
    pub(crate) capture: bool,
    pub(crate) pawn: bool,
    pub(crate) check: bool,
    /// How often the position after the move has now stood on the board
    /// (since the last irreversible move, FIDE 9.2.3).
    pub(crate) occurrence: u8,
    /// Where the king went, when the move was a king move.
    pub(crate) king_to: Option<shakmaty::Square>,
    /// From and to (the king's own squares when castling), for a diagram.
    pub(crate) squares: Option<(Square, Square)>,
    /// An illegal move that stood once the opponent replied.
    pub(crate) illegal: bool,
}

/// What the replay needs from the ruleset.
#[derive(Copy, Clone, Debug)]
pub struct ReplayRules {
    pub(crate) fivefold: bool,
    pub(crate) seventy_five: bool,
    pub(crate) stands_after_reply: bool,
    /// An illegal move stands once its player has made this many more
    /// (`IllegalMoveRules::stands_by_age`).
    pub(crate) stands_after_moves: Option<u32>,
    /// The game is over and an unnoticed illegal move stands as played
    /// (`judge::policy::unnoticed_stands`).
    pub(crate) unnoticed_stands: bool,
}

impl ReplayRules {
    pub fn of(rules: &crate::rules::Ruleset) -> ReplayRules {
        ReplayRules {
            fivefold: rules.automatic_draws.fivefold,
            seventy_five: rules.automatic_draws.seventy_five_moves,
            stands_after_reply: rules.illegal_move.stands_after_reply,
            stands_after_moves: rules.illegal_move.stands_after_moves,
            unnoticed_stands: false,
        }
    }
}

/// Finds the move a piece could make for this SAN if the check, pin and
/// castling-through-check rules were ignored, when exactly one piece fits.
pub(crate) fn geometric_move(pos: &Chess, san: &San) -> Option<Move> {
    let board = pos.board();
    let turn = pos.turn();
    let us = board.by_color(turn);
    match *san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            if us.contains(to) || board.kings().contains(to) {
                return None;
            }
            // A pawn promotes on the last rank, to a piece other than a king.
            let last_rank =
                to.rank() == turn.fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First);
            let promotes = matches!(
                promotion,
                Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen)
            );
            if promotion.is_some() && (role != Role::Pawn || !promotes || !last_rank) {
                return None;
            }
            if role == Role::Pawn && last_rank && promotion.is_none() {
                return None;
            }
            let ep = pos.ep_square(EnPassantMode::Always);
            let mut found = None;
            for from in board.by_piece(role.of(turn)) {
                if file.is_some_and(|f| from.file() != f) || rank.is_some_and(|r| from.rank() != r)
                {
                    continue;
                }
                let reaches = if role == Role::Pawn {
                    let diagonal = attacks::pawn_attacks(turn, from).contains(to);
                    if diagonal {
                        board.by_color(!turn).contains(to) || Some(to) == ep
                    } else {
                        !capture && pawn_push(pos, from, to)
                    }
                } else {
                    attacks::attacks(from, role.of(turn), board.occupied()).contains(to)
                };
                if reaches {
                    if found.is_some() {
                        return None; // ambiguous even ignoring check
                    }
                    found = Some(from);
                }
            }
            let from = found?;
            if role == Role::Pawn && Some(to) == ep && !board.occupied().contains(to) {
                return Some(Move::EnPassant { from, to });
            }
            Some(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion,
            })
        }
        San::Castle(side) => {
            let king = board.king_of(turn)?;
            let rook = pos.castles().rook(turn, side)?;
            let path = pos.castles().path(turn, side);
            if (path & board.occupied()).without(king).without(rook).any() {
                return None;
            }
            Some(Move::Castle { king, rook })
        }
        _ => None,
    }
}

fn pawn_push(pos: &Chess, from: shakmaty::Square, to: shakmaty::Square) -> bool {
    let occ = pos.board().occupied();
    let dir: i32 = if pos.turn().is_white() { 8 } else { -8 };
    let one = from.offset(dir);
    if one == Some(to) {
        return !occ.contains(to);
    }
    let start_rank = if pos.turn().is_white() {
        shakmaty::Rank::Second
    } else {
        shakmaty::Rank::Seventh
    };
    match one {
        Some(mid) if from.rank() == start_rank && mid.offset(dir) == Some(to) => {
            !occ.contains(mid) && !occ.contains(to)
        }
        _ => false,
    }
}

fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The legal move a ply names in `pos`, read as leniently as the replay reads it.
pub fn resolve(pos: &Chess, ply: &Ply) -> Option<Move> {
    match ply.uci {
        Some(u) => u.to_move(pos).ok(),
        None => resolve::quick(pos, &ply.san.san)
            .or_else(|| ply.san.san.to_move(pos).ok())
            .or_else(|| resolve_lax(pos, &ply.san.san)),
    }
}

/// The move a ply names if only the men's movement counts (for an illegal
/// move: a man moved as it moves, but leaving its king in check, say).
pub(crate) fn as_moved(pos: &Chess, ply: &Ply) -> Option<Move> {
    match ply.uci {
        Some(u) => geometric_move(pos, &u_to_san(pos, u)),
        None => geometric_move(pos, &ply.san.san),
    }
}

/// Replays `game` from `start`. Stops at the first board ending (later moves
/// are counted by the caller from `plies`), at a garbled token, a null move,
/// or an illegal move that does not stand.
pub fn replay(
    game: &ParsedGame,
    start: Chess,
    rules: ReplayRules,
    scratch: &mut Scratch,
) -> Replay {
    replay_into(game, start, rules, scratch, None)
}

/// `replay`, also gathering each ply's facts into `facts` (cleared first).
/// Only claims and packets ask: SAN costs a move generation per ply.
pub(crate) fn replay_into(
    game: &ParsedGame,
    start: Chess,
    rules: ReplayRules,
    scratch: &mut Scratch,
    mut facts: Option<&mut Vec<PlyFact>>,
) -> Replay {
    if let Some(f) = facts.as_deref_mut() {
        f.clear();
    }
    let first = Side::from(start.turn());
    let start_fullmove = start.fullmoves().get();
    let mut r = Replay {
        first,
        start_fullmove,
        pos: start,
        plies: 0,
        ending: None,
        illegal: Vec::new(),
        stop: None,
        wrong_suffixes: Vec::new(),
        threefold_at: None,
        fifty_at: None,
        choice: false,
    };
    scratch.clear();
    let mut h = hash(&r.pos);
    scratch.record(h);
    if r.pos.is_insufficient_material() {
        r.ending = Some(Ending {
            kind: BoardEnd::DeadPosition,
            ply: 0,
        });
        return r;
    }
    let limit = game
        .garbled
        .as_ref()
        .map_or(game.plies.len(), |g| g.ply - 1)
        .min(game.plies.len());
    for (i, ply) in game.plies[..limit].iter().enumerate() {
        let n = i + 1;
        if is_null(ply) {
            r.stop = Some(Stop::NullMove(n));
            return r;
        }
        let Some(m) = resolve(&r.pos, ply).or_else(|| unresolved(&mut r, game, n, limit, rules))
        else {
            return r;
        };
        let irreversible = irreversible(&r.pos, &m);
        let material_changed = m.is_capture() || m.is_promotion();
        let legal = r.illegal.last().is_none_or(|i| i.ply != n);
        let fact_san = facts.as_ref().map(|_| San::from_move(&r.pos, m));
        let pending = legal.then(|| key::before_move(&r.pos, Zobrist64(h), m));
        r.pos.play_unchecked(m);
        h = match pending {
            Some(p) => p.after(&r.pos).0,
            None => hash(&r.pos),
        };
        r.plies = n;
        check_suffix(&mut r, ply, n);
        if irreversible {
            scratch.clear();
        }
        let count = scratch.record(h);
        if let (Some(f), Some(san)) = (facts.as_deref_mut(), fact_san) {
            f.push(ply_fact(&r, n, m, san, count, legal));
        }
        if let Some(ending) = ending_after(&mut r, rules, n, count, material_changed) {
            r.ending = Some(ending);
            return r;
        }
    }
    if r.stop.is_none() {
        r.choice = two_legal_moves(&r.pos);
        if !r.choice {
            r.ending = no_move_listed(&r.pos).map(|kind| Ending { kind, ply: r.plies });
        }
    }
    // A token that is not a move stops the record; a mate or stalemate
    // before it (`r.ending`) ended the game first, and the judge says so.
    if let Some(g) = &game.garbled {
        if g.ply <= game.plies.len() + 1 && r.stop.is_none() {
            r.stop = Some(Stop::Garbled(g.ply));
        }
    }
    r
}

/// Ply `n` names no legal move in `r.pos`. Records why and returns the move
/// to play on where the illegal move stands under `rules`; `None` where the
/// replay stops here (`r.ending` or `r.stop` then says why).
#[cold]
fn unresolved(
    r: &mut Replay,
    game: &ParsedGame,
    n: usize,
    limit: usize,
    rules: ReplayRules,
) -> Option<Move> {
    // A position with no legal moves ended the game before this move.
    if let Some(kind) = no_legal_move(&r.pos) {
        r.ending = Some(Ending { kind, ply: n - 1 });
        return None;
    }
    let side = Side::from(r.pos.turn());
    let geo = as_moved(&r.pos, &game.plies[n - 1]);
    let replied = n < limit;
    let kind = if geo.is_some() {
        IllegalKind::Geometric
    } else {
        IllegalKind::Impossible
    };
    // Found at the record's end: the plies after it to there.
    let by_age = crate::rules::stands_by_age(rules.stands_after_moves, limit.saturating_sub(n));
    let stands = (rules.stands_after_reply || rules.unnoticed_stands || by_age)
        && replied
        && geo.is_some()
        && !captures_king_next(&r.pos, game, n, geo);
    r.illegal.push(IllegalMove {
        ply: n,
        side,
        kind,
        stood: stands,
        unnoticed: stands && !rules.stands_after_reply && !by_age,
        as_moved: geo,
    });
    // Played as it stood, each side must still have its one king.
    let kings_intact = geo.is_some_and(|m| {
        let mut after = r.pos.clone();
        after.play_unchecked(m);
        let b = after.board();
        (b.kings() & b.white()).count() == 1 && (b.kings() & b.black()).count() == 1
    });
    match geo {
        Some(m) if stands && kings_intact => Some(m),
        _ => {
            r.stop = Some(Stop::Illegal);
            None
        }
    }
}

/// What ply `n` (move `m`, written `san`) did, for claims and packets.
fn ply_fact(r: &Replay, n: usize, m: Move, san: San, occurrence: u8, legal: bool) -> PlyFact {
    let check = r.pos.is_check();
    let suffix = if check && r.pos.is_checkmate() {
        Some(Suffix::Checkmate)
    } else if check {
        Some(Suffix::Check)
    } else {
        None
    };
    PlyFact {
        ply: n,
        side: Side::of_ply(r.first, n),
        san: SanPlus { san, suffix },
        capture: m.is_capture(),
        pawn: m.role() == Role::Pawn,
        check,
        occurrence,
        king_to: (m.role() == Role::King).then(|| m.to()),
        squares: from_to(&m),
        illegal: !legal,
    }
}

/// The board ending ply `n` reached, if any, noting the first threefold
/// and fifty-move plies on the way (`count`: occurrences of this position).
#[inline]
fn ending_after(
    r: &mut Replay,
    rules: ReplayRules,
    n: usize,
    count: u8,
    material_changed: bool,
) -> Option<Ending> {
    if count >= 3 && r.threefold_at.is_none() {
        r.threefold_at = Some(n);
    }
    if count >= 5 && rules.fivefold {
        return Some(Ending {
            kind: BoardEnd::Fivefold,
            ply: n,
        });
    }
    let halfmoves = r.pos.halfmoves();
    if halfmoves >= 100 && r.fifty_at.is_none() {
        r.fifty_at = Some(n);
    }
    // Bare material is checked on every capture; the helpmate analysis of
    // the harder dead positions is the judge's (see `first_dead_ply`).
    if material_changed && r.pos.is_insufficient_material() {
        return Some(Ending {
            kind: BoardEnd::DeadPosition,
            ply: n,
        });
    }
    if rules.seventy_five && halfmoves >= 150 {
        // A mate on the 75th move takes precedence (FIDE 9.6.2).
        let kind = if r.pos.is_checkmate() {
            BoardEnd::Checkmate
        } else {
            BoardEnd::SeventyFive
        };
        return Some(Ending { kind, ply: n });
    }
    None
}

/// Checkmate or stalemate: the side to move has no legal move. Two moves
/// found cheaply say "neither" without listing every move, which
/// `is_stalemate` did for every game's last position.
fn no_legal_move(pos: &Chess) -> Option<BoardEnd> {
    if two_legal_moves(pos) {
        return None;
    }
    no_move_listed(pos)
}

/// `no_legal_move` by the full list.
fn no_move_listed(pos: &Chess) -> Option<BoardEnd> {
    if !pos.legal_moves().is_empty() {
        return None;
    }
    Some(if crate::chess::attacks::in_check(pos) {
        BoardEnd::Checkmate
    } else {
        BoardEnd::Stalemate
    })
}

/// Notation that names a legal move without strict SAN: a capture written
/// without `x` (`Be2c4`), or a from-square that SAN reads as a pawn (`g1f3`).
fn resolve_lax(pos: &Chess, san: &San) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = *san
    else {
        return None;
    };
    let toggled = San::Normal {
        role,
        file,
        rank,
        capture: !capture,
        to,
        promotion,
    };
    if let Ok(m) = toggled.to_move(pos) {
        return Some(m);
    }
    let (Some(f), Some(r)) = (file, rank) else {
        return None;
    };
    let from = shakmaty::Square::from_coords(f, r);
    shakmaty::uci::UciMove::Normal {
        from,
        to,
        promotion,
    }
    .to_move(pos)
    .ok()
}

/// A coordinate move as SAN with both from-coordinates, for the geometry test.
fn u_to_san(pos: &Chess, u: shakmaty::uci::UciMove) -> San {
    match u {
        shakmaty::uci::UciMove::Normal {
            from,
            to,
            promotion,
        } => San::Normal {
            role: pos.board().role_at(from).unwrap_or(Role::Pawn),
            file: Some(from.file()),
            rank: Some(from.rank()),
            capture: false,
            to,
            promotion,
        },
        _ => San::Null,
    }
}

/// After this move no earlier position can stand again (FIDE 9.2.3): a
/// capture, a pawn move, castling, or a move that loses a castling right.
pub(crate) fn irreversible(pos: &Chess, m: &Move) -> bool {
    let rights = pos.castles().castling_rights();
    match *m {
        // Nearly every move: read once rather than through five accessors.
        Move::Normal {
            role,
            from,
            capture,
            to,
            ..
        } => {
            role == Role::Pawn
                || capture.is_some()
                || rights.contains(from)
                || rights.contains(to)
                || (role == Role::King && rights.any())
        }
        _ => {
            m.is_zeroing()
                || m.is_castle()
                || rights.contains(m.from().unwrap_or(m.to()))
                || rights.contains(m.to())
        }
    }
}

/// A reply that takes the king cannot be replayed: stop before the illegal move.
fn captures_king_next(pos: &Chess, game: &ParsedGame, n: usize, geo: Option<Move>) -> bool {
    let (Some(m), Some(next)) = (geo, game.plies.get(n)) else {
        return false;
    };
    let mut after = pos.clone();
    after.play_unchecked(m);
    match next.san.san {
        San::Normal { to, .. } => after.board().kings().contains(to),
        _ => false,
    }
}

fn check_suffix(r: &mut Replay, ply: &Ply, n: usize) {
    let written = match ply.san.suffix {
        Some(Suffix::Check) => "+",
        Some(Suffix::Checkmate) => "#",
        None => return,
    };
    let actual = if !crate::chess::attacks::in_check(&r.pos) {
        ""
    } else if written == "#" && !r.pos.is_checkmate() {
        "+"
    } else {
        return;
    };
    if r.wrong_suffixes.len() < 8 {
        r.wrong_suffixes.push((n, written, actual));
    }
}

/// The start position and the first `plies` plies as the replay played
/// them (an illegal move that stood, as the man moved it): the review page
/// draws every position of the game from these. `None` for a start the tool
/// does not judge; the list stops early at a ply no man can make.
pub(crate) fn played_moves(game: &ParsedGame, plies: usize) -> Option<(Chess, Vec<Move>)> {
    let Start::Position(start, _) = start_position(&game.tags) else {
        return None;
    };
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(plies.min(game.plies.len()));
    for ply in game.plies.iter().take(plies) {
        let Some(m) = resolve(&pos, ply).or_else(|| as_moved(&pos, ply)) else {
            break;
        };
        pos.play_unchecked(m);
        moves.push(m);
    }
    Some((start, moves))
}

/// A move's from and to squares: the king's own for castling (e1g1), not
/// the rook's.
fn from_to(m: &Move) -> Option<(Square, Square)> {
    match m.to_uci(CastlingMode::Standard) {
        shakmaty::uci::UciMove::Normal { from, to, .. } => Some((from, to)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts past `SCAN_LIMIT` agree with a scan of every key, across
    /// the switch and after a clear.
    #[test]
    fn repetition_counts_agree_with_a_scan_at_any_length() {
        let mut scratch = Scratch::default();
        let mut all: Vec<u64> = Vec::new();
        let mut seed = 7u64;
        for i in 0..2_000 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            if i == 900 {
                scratch.clear();
                all.clear();
            }
            let key = (seed >> 33) % 40;
            let want = (1 + all.iter().filter(|&&k| k == key).count()).min(255) as u8;
            all.push(key);
            assert_eq!(scratch.record(key), want, "ply {i}");
        }
    }
    use crate::pgn::parse_game;

    fn run(pgn: &str, stands: bool) -> Replay {
        let g = parse_game(pgn.as_bytes());
        let Start::Position(p, _) = start_position(&g.tags) else {
            panic!("unsupported")
        };
        let rules = ReplayRules {
            fivefold: true,
            seventy_five: true,
            stands_after_reply: stands,
            stands_after_moves: None,
            unnoticed_stands: false,
        };
        replay(&g, p, rules, &mut Scratch::default())
    }

    #[test]
    fn fools_mate_is_checkmate_at_ply_4() {
        let r = run("1. f3 e5 2. g4 Qh4# 0-1", false);
        assert_eq!(
            r.ending,
            Some(Ending {
                kind: BoardEnd::Checkmate,
                ply: 4
            })
        );
    }

    #[test]
    fn the_choice_is_known_only_where_the_game_ran_to_its_end_with_moves_left() {
        assert!(!run("1. f3 e5 2. g4 Qh4# 0-1", false).choice);
        assert!(run("1. e4 e5 2. Nf3 1-0", false).choice);
        // Stopped by a null move: nothing asked.
        assert!(!run("1. e4 -- 2. d4 *", false).choice);
        // One legal move left (Ka7): not two, and no ending either.
        let one = "[FEN \"k7/2K5/8/8/8/8/P7/8 b - - 0 1\"]\n[SetUp \"1\"]\n\n*";
        let r = run(one, false);
        assert!(!r.choice);
        assert_eq!(r.ending, None);
    }

    #[test]
    fn moves_after_mate_do_not_replay() {
        let r = run("1. f3 e5 2. g4 Qh4# 3. a3 a6 0-1", false);
        assert_eq!(
            r.ending,
            Some(Ending {
                kind: BoardEnd::Checkmate,
                ply: 4
            })
        );
        assert_eq!(r.plies, 4);
    }

    #[test]
    fn move_into_check_stands_after_reply_when_allowed() {
        // 2... Kd7?? stays on the bishop's diagonal: a king move, illegal only by check.
        let pgn = "1. e4 d5 2. Bb5+ Kd7 3. a3 Ke6 *";
        let r = run(pgn, true);
        assert_eq!(r.illegal.len(), 1);
        assert_eq!(r.illegal[0].ply, 4);
        assert_eq!(r.illegal[0].side, Side::Black);
        assert_eq!(r.illegal[0].kind, IllegalKind::Geometric);
        assert!(r.illegal[0].stood);
        assert_eq!(r.plies, 6);
        let r = run(pgn, false);
        assert!(!r.illegal[0].stood);
        assert_eq!(r.stop, Some(Stop::Illegal));
        assert_eq!(r.plies, 3);
    }

    #[test]
    fn impossible_move_stops_the_replay() {
        let r = run("1. e4 e5 2. Nf6 Nc6 *", true);
        assert_eq!(r.illegal[0].kind, IllegalKind::Impossible);
        assert_eq!(r.stop, Some(Stop::Illegal));
    }

    #[test]
    fn wrong_check_suffix_is_noted() {
        let r = run("1. e4+ e5 *", false);
        assert_eq!(r.wrong_suffixes, vec![(1, "+", "")]);
    }

    #[test]
    fn dead_position_after_capture() {
        let r = run(
            "[FEN \"8/8/4k3/8/8/4K3/4B3/5r2 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Bxf1 Kd6 2. Kd2 *",
            false,
        );
        assert_eq!(
            r.ending,
            Some(Ending {
                kind: BoardEnd::DeadPosition,
                ply: 1
            })
        );
    }

    #[test]
    fn fivefold_repetition() {
        let r = run("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4 *", false);
        assert_eq!(r.threefold_at, Some(8));
        assert_eq!(
            r.ending,
            Some(Ending {
                kind: BoardEnd::Fivefold,
                ply: 16
            })
        );
    }
}
