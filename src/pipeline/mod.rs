//! The batch driver: reader threads (`feed`) split the inputs into batches
//! of whole games, a rayon pool parses, replays and judges each batch, and
//! the calling thread hands the batches back in input order. Memory stays
//! flat: at most a few batches per worker are in flight. The pipeline
//! writes no file and renders nothing: the caller gives it a `Render` (the
//! CSV rows, the corrected PGN, ...) and sinks (unconfirmed games,
//! progress).

use std::{
    collections::BTreeMap,
    panic::{catch_unwind, AssertUnwindSafe},
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc, Arc,
    },
    time::{Duration, Instant},
};

use rayon::prelude::*;

mod feed;
use feed::read_all;
pub(crate) use feed::Shard;

use crate::{
    analysis::forced::Syzygy,
    judge::{judge, Env},
    model::Judgement,
    model::Status,
    pgn::{self, ParsedGame},
    read::{
        split::{Batch, GameSpan},
        Source,
    },
    replay::Scratch,
    rules::Ruleset,
};

/// A game `adjudicate` did not confirm, handed to the packet sink.
pub struct Unconfirmed<'a> {
    pub(crate) source: &'a str,
    pub(crate) index: u64,
    /// The line of the source the game starts on.
    pub(crate) line: u64,
    pub(crate) game: &'a ParsedGame,
    pub(crate) judgement: &'a Judgement,
}

/// Called on a worker thread for every game not confirmed; an error is
/// reported in the summary and the batch goes on.
pub(crate) type PacketSink = Arc<dyn Fn(Unconfirmed<'_>) -> Result<(), String> + Send + Sync>;
/// Called on the calling thread with the running totals, in input order.
pub(crate) type ProgressSink = Arc<dyn Fn(&Summary) + Send + Sync>;

#[derive(Clone)]
pub struct Options {
    pub jobs: usize,
    /// Target size of one batch of games.
    pub batch_bytes: usize,
    /// Syzygy tables for the USCF 14E forced-win question.
    pub syzygy: Option<Arc<Syzygy>>,
    pub on_unconfirmed: Option<PacketSink>,
    pub on_progress: Option<ProgressSink>,
    /// Judge only the K-th of N shards (1-based): see `Shard`.
    pub shard: Option<Shard>,
    /// Parts a plain file is read in, each split by a reader of its own,
    /// up to four at once (the rows the same as one reader's); `None`:
    /// parts of 32 MiB where the jobs are more than one reader feeds (4).
    /// A part's reader holds where its games lie until the part's turn
    /// (48 bytes a game), so many small parts keep memory flat.
    pub read_parts: Option<usize>,
    /// Which ruleset judges which game; the run's ruleset judges the rest.
    pub rules_map: Option<Arc<crate::rules::map::RulesMap>>,
    /// A second copy of a game (the same tags and moves) is not judged
    /// again: its row says whose copy it is (`adjudicate`; an audit and a
    /// season look at every game they are given).
    pub duplicates: bool,
    /// A game whose control is not its ruleset's goes to review.
    pub strict_rules: bool,
    /// Recorded decisions, applied to the games they name.
    pub decisions: Option<Arc<crate::judge::decisions::Decisions>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            // Half a MiB: about 200 games, enough to keep the queue cheap.
            batch_bytes: 1 << 19,
            syzygy: None,
            on_unconfirmed: None,
            on_progress: None,
            shard: None,
            read_parts: None,
            rules_map: None,
            duplicates: true,
            strict_rules: false,
            decisions: None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub games: u64,
    pub(crate) confirmed: u64,
    pub corrected: u64,
    pub review: u64,
    pub unreadable: u64,
    /// Games an arbiter's recorded decision settled (`--decisions`).
    pub decided: u64,
    /// Games whose `TimeControl` is not one their ruleset is for.
    pub off_control: u64,
    /// Second copies of a game read earlier (`review`, reason `duplicate`).
    pub duplicates: u64,
    /// Of those, copies whose recorded result differs from the first's.
    pub conflicting_copies: u64,
    /// Duplicates were looked for among the first `MAX_SEEN` games only.
    pub(crate) duplicates_capped: bool,
    pub(crate) bytes: u64,
    /// I/O problems, each naming its file: the batch went on past them.
    pub errors: Vec<String>,
    pub(crate) elapsed: Duration,
}

impl Summary {
    fn count(&mut self, s: Status) {
        self.games += 1;
        match s {
            Status::Confirmed => self.confirmed += 1,
            Status::Corrected => self.corrected += 1,
            Status::Review => self.review += 1,
            Status::Unreadable => self.unreadable += 1,
            Status::Decided => self.decided += 1,
        }
    }

    fn add(&mut self, o: &Summary) {
        self.games += o.games;
        self.confirmed += o.confirmed;
        self.corrected += o.corrected;
        self.review += o.review;
        self.unreadable += o.unreadable;
        self.decided += o.decided;
        self.off_control += o.off_control;
        self.duplicates += o.duplicates;
        self.conflicting_copies += o.conflicting_copies;
        self.bytes += o.bytes;
        self.errors.extend(o.errors.iter().cloned());
    }

    pub(crate) fn needs_attention(&self) -> bool {
        self.corrected + self.review + self.unreadable > 0
    }

    /// "38 games: 28 confirmed, 8 corrected, 2 review, 0 unreadable"
    /// (", 1 decided" where decisions settled any).
    pub(crate) fn counts(&self) -> String {
        format!(
            "{}: {} confirmed, {} corrected, {} review, {} unreadable{}",
            crate::claim::plural(self.games as usize, "game"),
            self.confirmed,
            self.corrected,
            self.review,
            self.unreadable,
            self.decided_words()
        )
    }

    fn decided_words(&self) -> String {
        match self.decided {
            0 => String::new(),
            n => format!(", {n} decided"),
        }
    }

    pub(crate) fn line(&self) -> String {
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        let mut notes = Vec::new();
        if self.off_control > 0 {
            notes.push(format!(
                "{} under a control its ruleset is not for",
                crate::claim::plural(self.off_control as usize, "game")
            ));
        }
        let same = self.duplicates.saturating_sub(self.conflicting_copies);
        if same > 0 {
            notes.push(match same {
                1 => "1 copy of a game read before, judged once".to_string(),
                n => format!("{n} copies of games read before, judged once"),
            });
        }
        if self.conflicting_copies > 0 {
            notes.push(match self.conflicting_copies {
                1 => "1 copy of a game read before records another result: the game's result is in doubt".to_string(),
                n => format!("{n} copies of games read before record other results: those games' results are in doubt"),
            });
        }
        if self.duplicates_capped {
            notes.push(format!(
                "duplicates looked for among the first {MAX_SEEN} games only"
            ));
        }
        let off = match notes.is_empty() {
            true => String::new(),
            false => format!(" ({}: see detail)", notes.join("; ")),
        };
        format!(
            "{}: {} confirmed, {} corrected, {} review, {} unreadable{}{off}; {:.2} s, {:.0} games/s, {:.1} MB/s",
            crate::claim::plural(self.games as usize, "game"),
            self.confirmed,
            self.corrected,
            self.review,
            self.unreadable,
            self.decided_words(),
            secs,
            self.games as f64 / secs,
            self.bytes as f64 / 1e6 / secs
        )
    }
}

/// A game's first copy: its source, its number there, and the result it
/// records.
type FirstCopy = (Arc<str>, u64, crate::model::GameResult);

/// A game as the copy search compares it: its key, and the result it
/// records (two copies that differ there contradict each other).
type CopyKey = (crate::model::GameKey, crate::model::GameResult);

/// Games a run keeps keys of, at most, for finding duplicates: 32 bytes
/// a game, so 64 MB at most, whatever the input's size.
pub(crate) const MAX_SEEN: usize = 2_000_000;

/// The games read so far, by key, for finding a second copy of one. Each
/// batch registers its games in its turn, in input order, before it is
/// judged: so the first copy is the first in the input whatever the jobs,
/// and a second copy is never judged. A batch only waits for the batches
/// before it to be read, not judged.
struct Seen {
    state: std::sync::Mutex<SeenState>,
    turn: std::sync::Condvar,
    /// One worker: each batch's turn has come when it starts, so its
    /// games are registered as read and judged at once. With more, a batch
    /// that held the turn while judging would keep the next one waiting.
    streaming: bool,
}

#[derive(Default)]
struct SeenState {
    /// The batch whose turn it is.
    next: u64,
    /// Each key's first copy: its source (in `sources`) and game number.
    first: std::collections::HashMap<crate::model::GameKey, (u32, u32, crate::model::GameResult)>,
    sources: Vec<Arc<str>>,
    /// `MAX_SEEN` keys are kept: later games are looked up, not added.
    full: bool,
}

impl Seen {
    fn new(jobs: usize) -> Seen {
        Seen {
            state: std::sync::Mutex::new(SeenState::default()),
            turn: std::sync::Condvar::new(),
            streaming: jobs == 1,
        }
    }

    /// Waits for batch `seq`'s turn, then runs `f` and hands the turn on.
    fn in_turn<T>(&self, seq: u64, f: impl FnOnce(&mut SeenState) -> T) -> T {
        // A worker that panicked while holding the lock left the map whole.
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while st.next < seq {
            st = self.turn.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        let out = f(&mut st);
        st.next = st.next.max(seq + 1);
        drop(st);
        self.turn.notify_all();
        out
    }

    /// For each game of batch `seq` (its key, where it has one, and its
    /// number), the first copy (source, game number) where one was read
    /// before; otherwise the game is kept as a first copy.
    fn register(
        &self,
        seq: u64,
        source: &Arc<str>,
        games: &[(Option<CopyKey>, u64)],
    ) -> Vec<Option<FirstCopy>> {
        self.in_turn(seq, |st| {
            games
                .iter()
                .map(|(key, index)| {
                    let (key, result) = (*key)?;
                    st.check(source, key, *index, result)
                })
                .collect()
        })
    }

    /// Batch `seq`'s turn, if it has come already (every batch before it
    /// registered) and there is one worker: the batch can then register
    /// each game as it reads it and judge it straight away, holding the
    /// turn to its end.
    fn turn_now(&self, seq: u64) -> Option<std::sync::MutexGuard<'_, SeenState>> {
        if !self.streaming {
            return None;
        }
        // Held by another batch (reading its games into the map): not this
        // batch's turn to stream, whatever `next` says in a moment.
        let st = match self.state.try_lock() {
            Ok(st) => st,
            Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return None,
        };
        (st.next == seq).then_some(st)
    }

    /// The turn taken with `turn_now`, handed on.
    fn hand_on(&self, mut st: std::sync::MutexGuard<'_, SeenState>, seq: u64) {
        st.next = st.next.max(seq + 1);
        drop(st);
        self.turn.notify_all();
    }

    /// Batch `seq` has no games to register (a source with none, or work
    /// dropped after a write error): its turn is handed on.
    fn pass(&self, seq: u64) {
        self.in_turn(seq, |_| ());
    }

    fn full(&self) -> bool {
        self.state.lock().is_ok_and(|st| st.full)
    }
}

impl SeenState {
    /// The first copy (source, game number) of the game with `key`, read
    /// before; otherwise the game is kept as a first copy.
    fn check(
        &mut self,
        source: &Arc<str>,
        key: crate::model::GameKey,
        index: u64,
        result: crate::model::GameResult,
    ) -> Option<FirstCopy> {
        let known = |r: crate::model::GameResult| r != crate::model::GameResult::Unknown;
        match self.first.get(&key) {
            // A first copy with no result (`*`) and this one with one:
            // this is the fuller record, judged, and the copy later ones
            // are held to.
            Some(&(_, _, first)) if !known(first) && known(result) => {}
            Some(&(s, n, first)) => {
                return Some((self.sources[s as usize].clone(), u64::from(n), first));
            }
            None => {}
        }
        if !self.first.contains_key(&key) && self.first.len() >= MAX_SEEN {
            self.full = true;
            return None;
        }
        if self.sources.last().is_none_or(|l| **l != **source) {
            self.sources.push(source.clone());
        }
        let s = (self.sources.len() - 1) as u32;
        // A game number past u32 (four billion games in one file) is not
        // kept: it could not be named right.
        if let Ok(n) = u32::try_from(index) {
            self.first.insert(key, (s, n, result));
        }
        None
    }
}

/// A batch's turn at `Seen`, handed on when dropped if it was not taken,
/// so that a batch that panicked leaves no later batch waiting forever.
struct Turn<'a> {
    seen: Option<&'a Seen>,
    seq: u64,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        if let Some(seen) = self.seen.take() {
            seen.pass(self.seq);
        }
    }
}

enum Work {
    Batch {
        seq: u64,
        source: Arc<str>,
        batch: Batch,
    },
    /// Games of a part of a plain file, whose text (`len` bytes from byte
    /// `at`) the worker reads itself: so the queue holds no text, and the
    /// reading is spread over the workers.
    Text {
        seq: u64,
        source: Arc<str>,
        path: Arc<std::path::Path>,
        at: u64,
        len: usize,
        games: Vec<GameSpan>,
    },
    /// A source that yields no game text at all (binary data): one row.
    Broken {
        seq: u64,
        source: Arc<str>,
        detail: String,
    },
}

impl Work {
    fn seq(&self) -> u64 {
        match self {
            Work::Batch { seq, .. } | Work::Text { seq, .. } | Work::Broken { seq, .. } => *seq,
        }
    }
}

struct Done<B> {
    seq: u64,
    /// The batch's games as the renderer rendered them.
    batch: B,
    summary: Summary,
}

/// One judged game, as a worker hands it to the renderer.
pub(crate) struct Judged<'a> {
    pub(crate) source: &'a str,
    pub(crate) index: u64,
    /// Byte offset of the game in its source.
    pub(crate) offset: u64,
    /// The game as read; `None` where the text was not kept or not read.
    pub(crate) text: Option<&'a [u8]>,
    pub(crate) game: &'a ParsedGame,
    pub(crate) judgement: &'a Judgement,
    /// A packet was drawn for this game: a packet sink is set and the
    /// game is judged and not confirmed (a copy of a game read before has
    /// none).
    pub(crate) packet: bool,
}

/// Renders judged games on the worker threads, a batch at a time; the
/// batches come back to the caller in input order. The caller chooses what
/// a batch holds (CSV rows, judged games for an audit), so the pipeline
/// knows no output format.
pub(crate) trait Render: Sync {
    type Batch: Send;
    fn batch(&self) -> Self::Batch;
    fn game(&self, batch: &mut Self::Batch, game: &Judged<'_>);
}

/// One judged game with what an audit needs besides the CSV row.
#[derive(Clone, Debug)]
pub(crate) struct GameOutcome {
    pub(crate) source: Arc<str>,
    pub(crate) index: u64,
    pub(crate) tags: pgn::Tags,
    pub(crate) judgement: Judgement,
    /// Each side's first clock reading (White, Black), as written.
    pub(crate) first_clocks: [Option<crate::model::Clock>; 2],
    /// A clock went up between two moves of the same side (an increment or added time).
    pub(crate) clock_rises: bool,
}

fn clock_summary(
    game: &ParsedGame,
    first: crate::model::Side,
) -> ([Option<crate::model::Clock>; 2], bool) {
    let mut firsts = [None, None];
    let mut last = [None::<u32>, None];
    let mut rises = false;
    for (i, p) in game.plies.iter().enumerate() {
        let side = crate::model::Side::of_ply(first, i + 1) as usize;
        if let Some(c) = p.clocks.clk {
            firsts[side].get_or_insert(c);
            if last[side].is_some_and(|l| c.tenths > l + 10) {
                rises = true;
            }
            last[side] = Some(c.tenths);
        }
    }
    (firsts, rises)
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Parses and judges one game; a panic anywhere inside becomes an
/// `unreadable` row instead of taking the batch down.
pub fn judge_text(text: &[u8], rules: &Ruleset) -> (ParsedGame, Judgement) {
    let mut game = ParsedGame::default();
    let j = judge_in_batch(
        &mut pgn::BatchParser::new(text),
        0,
        text.len(),
        1,
        Env::new(rules),
        &mut game,
    );
    (game, j)
}

/// `first_line`: the line of the source the game starts on, for messages.
/// `game` is recycled from the game before and holds this one after.
fn judge_in_batch(
    parser: &mut pgn::BatchParser<'_>,
    start: usize,
    end: usize,
    first_line: u64,
    env: Env<'_>,
    game: &mut ParsedGame,
) -> Judgement {
    match parse_in_batch(parser, start, end, first_line, game) {
        Some(j) => not_judged(j, game, env),
        None => judge_parsed(game, parser.text(start, end), env),
    }
}

/// Parses one game of a batch into `game`; `Some` where it is not to be
/// judged (a NUL in its text, a panic while reading it), saying why.
fn parse_in_batch(
    parser: &mut pgn::BatchParser<'_>,
    start: usize,
    end: usize,
    first_line: u64,
    game: &mut ParsedGame,
) -> Option<Judgement> {
    let mut run = || {
        parser.parse_into(start, end, game);
        if game.open_comment_line > 0 {
            // The line in the file, not in the game.
            let line = first_line + u64::from(game.open_comment_line) - 1;
            game.error = Some(pgn::unterminated_comment(line));
        }
        let text = parser.text(start, end);
        // Text never holds a NUL: this game was damaged (a bad copy, a disk
        // error), and what it says cannot be trusted. Its neighbours can.
        memchr::memchr(0, text).map(|k| {
            let line = first_line + memchr::memchr_iter(b'\n', &text[..k]).count() as u64;
            Judgement::unreadable(format!(
                "line {line}: a NUL byte (binary data) in the game's text: not judged"
            ))
        })
    };
    catch_unwind(AssertUnwindSafe(&mut run)).unwrap_or_else(|panic| {
        *game = ParsedGame::default();
        Some(internal_error(&*panic))
    })
}

/// A game read but not judged (binary data in its text) gets its key, so
/// that a grader can still record a decision for it; one never read (too
/// large, cut short) has nothing to key.
fn not_judged(mut j: Judgement, game: &ParsedGame, env: Env<'_>) -> Judgement {
    if game.tags.count > 0 || !game.plies.is_empty() {
        crate::judge::game::give_key(&mut j, game, env);
    }
    j
}

/// Judges a parsed game; a panic inside becomes an `unreadable` row.
fn judge_parsed(game: &mut ParsedGame, text: &[u8], env: Env<'_>) -> Judgement {
    let run = || SCRATCH.with(|s| judge(game, text, env, &mut s.borrow_mut()));
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(j) => j,
        Err(panic) => {
            *game = ParsedGame::default();
            internal_error(&*panic)
        }
    }
}

fn internal_error(panic: &(dyn std::any::Any + Send)) -> Judgement {
    let msg = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".into());
    Judgement::unreadable(format!(
        "internal error while judging this game ({msg}); please report it"
    ))
}

/// `len` bytes of the file at `path`, from byte `at`.
fn read_text(path: &std::path::Path, at: u64, len: usize) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut data = Vec::with_capacity(len);
    crate::read::open_at(path, at)?
        .take(len as u64)
        .read_to_end(&mut data)?;
    if data.len() < len {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            format!("the file ends {} bytes short of it", len - data.len()),
        ));
    }
    // The same line ends the splitter saw (a part ends on a game's end).
    crate::read::split::lone_cr_to_lf(&mut data, true);
    Ok(data)
}

/// The detail of a game whose source broke off at a read error.
const CUT_SHORT: &str = "the source breaks off at a read error inside this game (the error is \
     named in the run's messages): the record may be cut short, so it is not judged";

fn oversize_judgement(bytes: u64) -> Judgement {
    Judgement::unreadable(format!(
        "the game is {bytes} bytes, over the {} MiB limit for one game: not read",
        crate::read::split::MAX_GAME_BYTES >> 20
    ))
}

/// A part's text read into a batch; where that fails, the batch is empty
/// of text and the error is returned, for each game's row to say so.
fn with_text(work: Work) -> (Work, Option<String>) {
    let Work::Text {
        seq,
        source,
        path,
        at,
        len,
        games,
    } = work
    else {
        return (work, None);
    };
    let (data, unread) = match read_text(&path, at, len) {
        Ok(data) => (data, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let batch = Batch { data, games };
    (Work::Batch { seq, source, batch }, unread)
}

/// One game of a batch judged (or found unreadable: too large, cut short,
/// its text not read), its error lines numbered in the file.
fn judge_span(
    span: &crate::read::split::GameSpan,
    parser: &mut pgn::BatchParser<'_>,
    unread: Option<&str>,
    env: Env<'_>,
    game: &mut ParsedGame,
) -> Judgement {
    let j = match read_span(span, parser, unread, game) {
        Some(j) => not_judged(j, game, env),
        None => judge_parsed(game, parser.text(span.start, span.end), env),
    };
    number_lines(span, game, j)
}

/// One game of a batch read into `game`; `Some` where it cannot be judged
/// (too large, cut short, its text not read or damaged), saying why.
fn read_span(
    span: &crate::read::split::GameSpan,
    parser: &mut pgn::BatchParser<'_>,
    unread: Option<&str>,
    game: &mut ParsedGame,
) -> Option<Judgement> {
    let not_read = if span.oversize > 0 {
        oversize_judgement(span.oversize)
    } else if span.cut {
        Judgement::unreadable(CUT_SHORT.into())
    } else if let Some(e) = unread {
        Judgement::unreadable(format!("the game's text could not be read: {e}"))
    } else {
        let j = parse_in_batch(parser, span.start, span.end, span.line, game);
        game.ends_source = span.ends_source;
        if span.ends_source && game.error.is_none() {
            game.error = ends_inside_a_tag(parser.text(span.start, span.end), span.line);
        }
        return j;
    };
    *game = ParsedGame::default();
    Some(not_read)
}

/// The error for a file that ends inside a tag (`[Black "Fenwick, Jo`,
/// the rest cut off), naming the tag's line in the file; a tag a line end
/// closes is read as pgn-reader reads it.
fn ends_inside_a_tag(text: &[u8], first_line: u64) -> Option<String> {
    if text.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
        return None;
    }
    let start = memchr::memrchr(b'\n', text).map_or(0, |k| k + 1);
    let last = text[start..].trim_ascii();
    // A tag opened on the last line and never closed there; one closed
    // with moves after it (`[Result "1-0"] 1. e4 ...`) is whole.
    let open = memchr::memrchr(b'[', last);
    let closed = memchr::memrchr(b']', last);
    (last.starts_with(b"[") && open > closed).then(|| {
        let line = first_line + memchr::memchr_iter(b'\n', &text[..start]).count() as u64;
        format!("line {line}: the file ends inside a tag, which is never closed: the record is cut short")
    })
}

/// A game's messages with lines numbered in its file, not in the game.
fn number_lines(
    span: &crate::read::split::GameSpan,
    game: &ParsedGame,
    mut j: Judgement,
) -> Judgement {
    if j.verdict.status == Status::Unreadable && !j.detail.contains("line ") {
        j.detail = format!("game starting at line {}: {}", span.line, j.detail);
    } else if let Some(g) = &game.garbled {
        // Line numbers in the file, not in the game.
        let file_line = span.line + u64::from(g.line) - 1;
        j.detail = j.detail.replacen(
            &format!("line {}:", g.line),
            &format!("line {file_line}:"),
            1,
        );
    }
    j
}

thread_local! {
    /// The parsed games of a batch, kept while its keys are registered
    /// (`Seen`) and recycled from batch to batch.
    static GAMES: std::cell::RefCell<Vec<ParsedGame>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What a worker hands each judged game to: the summary, the packet sink
/// and the renderer.
struct Emit<'a, R: Render> {
    render: &'a R,
    packets: Option<&'a PacketSink>,
    source: &'a str,
    data: &'a [u8],
    unread: bool,
}

impl<R: Render> Emit<'_, R> {
    fn game(
        &self,
        out: &mut R::Batch,
        summary: &mut Summary,
        span: &GameSpan,
        game: &ParsedGame,
        j: &Judgement,
    ) {
        summary.count(j.verdict.status);
        summary.off_control += u64::from(j.control_mismatch);
        summary.duplicates += u64::from(j.verdict.reason == crate::model::Reason::Duplicate);
        summary.conflicting_copies += u64::from(j.conflicting_copy);
        // A copy is not judged, so there is no ruling to draw.
        let drawn = j.verdict.status != Status::Confirmed
            && j.verdict.reason != crate::model::Reason::Duplicate;
        if let Some(sink) = self.packets.filter(|_| drawn) {
            let u = Unconfirmed {
                source: self.source,
                index: span.index,
                line: span.line,
                game,
                judgement: j,
            };
            if let Err(e) = sink(u) {
                summary.errors.push(e);
            }
        }
        // None for a game whose text was not kept or not read.
        let text = self
            .data
            .get(span.start..span.end)
            .filter(|_| span.oversize == 0 && !self.unread);
        let judged = Judged {
            source: self.source,
            index: span.index,
            offset: span.offset,
            text,
            game,
            judgement: j,
            packet: self.packets.is_some() && drawn,
        };
        self.render.game(out, &judged);
    }
}

/// A game read for the copy search, judged: the row its reading gave (a
/// game that cannot be judged), a copy's row, or its judgement.
fn judge_read(
    span: &GameSpan,
    game: &mut ParsedGame,
    text: &[u8],
    read: Option<Judgement>,
    first: Option<FirstCopy>,
    env: Env<'_>,
) -> Judgement {
    let j = match (read, first) {
        (Some(j), _) => not_judged(j, game, env),
        (None, Some((s, n, result))) => crate::judge::game::duplicate(game, env, (&s, n, result)),
        (None, None) => judge_parsed(game, text, env),
    };
    number_lines(span, game, j)
}

/// A game that cannot be read, or has no moves, is a copy of nothing.
fn comparable(g: &ParsedGame) -> bool {
    g.error.is_none() && g.garbled.is_none() && !g.plies.is_empty()
}

/// Parsed games a worker keeps while their batch's keys are registered:
/// a batch of half a MiB of ordinary games fits, and a batch of thousands
/// of tiny ones reads the rest again rather than hold them all.
const KEPT_GAMES: usize = 512;

/// Reads every game of a batch, for its key: the first `KEPT_GAMES` into
/// `kept` (judged from there), the rest into `spare` and dropped. Each
/// game's key (none where it cannot be compared) with its number, and the
/// row of a game that cannot be judged.
#[allow(clippy::type_complexity)]
fn read_batch(
    spans: &[GameSpan],
    parser: &mut pgn::BatchParser<'_>,
    unread: Option<&str>,
    kept: &mut Vec<ParsedGame>,
    spare: &mut ParsedGame,
) -> (Vec<(Option<CopyKey>, u64)>, Vec<Option<Judgement>>) {
    let want = spans.len().min(KEPT_GAMES);
    if kept.len() < want {
        kept.resize_with(want, ParsedGame::default);
    }
    let mut keys = Vec::with_capacity(spans.len());
    let mut read = Vec::with_capacity(spans.len());
    for (i, span) in spans.iter().enumerate() {
        let g = match kept.get_mut(i).filter(|_| i < want) {
            Some(g) => g,
            None => &mut *spare,
        };
        let r = read_span(span, parser, unread, g);
        let key = (r.is_none() && comparable(g)).then(|| (g.key(), g.tags.recorded_result()));
        keys.push((key, span.index));
        if i < want {
            // Held until the batch is judged: no more room than it needs.
            g.plies.shrink_to_fit();
        }
        read.push(r);
    }
    kept.truncate(want);
    (keys, read)
}

fn process<R: Render>(
    work: Work,
    env: Env<'_>,
    render: &R,
    packets: Option<&PacketSink>,
    seen: Option<&Seen>,
) -> Done<R::Batch> {
    let mut out = render.batch();
    let mut summary = Summary::default();
    // Handed on however this batch ends, a panic included.
    let mut turn = Turn {
        seen,
        seq: work.seq(),
    };
    let (work, unread) = with_text(work);
    let seq = match work {
        // Read into a batch above.
        Work::Text { seq, .. } => seq,
        Work::Batch { seq, source, batch } => {
            summary.bytes = batch.data.len() as u64;
            let env = Env {
                source: &source,
                ..env
            };
            let emit = Emit {
                render,
                packets,
                source: &source,
                data: &batch.data,
                unread: unread.is_some(),
            };
            let mut parser = pgn::BatchParser::new(&batch.data);
            match turn.seen {
                None => {
                    let mut game = ParsedGame::default();
                    for span in &batch.games {
                        let j = judge_span(span, &mut parser, unread.as_deref(), env, &mut game);
                        emit.game(&mut out, &mut summary, span, &game, &j);
                    }
                }
                Some(seen) => match seen.turn_now(seq) {
                    Some(mut st) => {
                        // Every batch before this one has registered its games:
                        // each game is registered as it is read and judged at
                        // once (as without the search), the turn held to the end.
                        let mut game = ParsedGame::default();
                        for span in &batch.games {
                            let r = read_span(span, &mut parser, unread.as_deref(), &mut game);
                            let first = (r.is_none() && comparable(&game))
                                .then(|| {
                                    let result = game.tags.recorded_result();
                                    st.check(&source, game.key(), span.index, result)
                                })
                                .flatten();
                            let text = parser.text(span.start, span.end);
                            let j = judge_read(span, &mut game, text, r, first, env);
                            emit.game(&mut out, &mut summary, span, &game, &j);
                        }
                        seen.hand_on(st, seq);
                        turn.seen = None;
                    }
                    None => {
                        // Batches before this one are still being read: every
                        // game's key is registered in input order before any is
                        // judged, so a second copy is not judged.
                        GAMES.with_borrow_mut(|kept| {
                            let mut spare = ParsedGame::default();
                            let (keys, read) = read_batch(
                                &batch.games,
                                &mut parser,
                                unread.as_deref(),
                                kept,
                                &mut spare,
                            );
                            let firsts = seen.register(seq, &source, &keys);
                            turn.seen = None;
                            for (i, ((span, r), first)) in
                                batch.games.iter().zip(read).zip(firsts).enumerate()
                            {
                                // The games past those kept are read again.
                                let g = match kept.get_mut(i) {
                                    Some(g) => g,
                                    None => {
                                        let again = read_span(
                                            span,
                                            &mut parser,
                                            unread.as_deref(),
                                            &mut spare,
                                        );
                                        debug_assert_eq!(again.is_some(), r.is_some());
                                        &mut spare
                                    }
                                };
                                let text = parser.text(span.start, span.end);
                                let j = judge_read(span, g, text, r, first, env);
                                emit.game(&mut out, &mut summary, span, g, &j);
                            }
                        });
                    }
                },
            }
            seq
        }
        Work::Broken {
            seq,
            source,
            detail,
        } => {
            let j = Judgement::unreadable(detail);
            summary.count(j.verdict.status);
            let judged = Judged {
                source: &source,
                index: 1,
                offset: 0,
                text: None,
                game: &ParsedGame::default(),
                judgement: &j,
                packet: false,
            };
            render.game(&mut out, &judged);
            seq
        }
    };
    Done {
        seq,
        batch: out,
        summary,
    }
}

/// The judged games themselves, for an audit or a season.
struct Outcomes;

impl Render for Outcomes {
    type Batch = Vec<GameOutcome>;

    fn batch(&self) -> Vec<GameOutcome> {
        Vec::new()
    }

    fn game(&self, batch: &mut Vec<GameOutcome>, g: &Judged<'_>) {
        // Who moved first: White, unless a FEN tag says otherwise.
        let first = g
            .game
            .tags
            .fen
            .parse::<shakmaty::fen::Fen>()
            .map_or(crate::model::Side::White, |f| f.as_setup().turn.into());
        let (first_clocks, clock_rises) = clock_summary(g.game, first);
        batch.push(GameOutcome {
            source: Arc::from(g.source),
            index: g.index,
            tags: g.game.tags.clone(),
            judgement: g.judgement.clone(),
            first_clocks,
            clock_rises,
        });
    }
}

/// Judges every game of every source and hands each, in input order, to `f`.
pub(crate) fn for_each_game(
    sources: &[Source],
    rules: &Ruleset,
    opts: &Options,
    mut f: impl FnMut(GameOutcome),
) -> std::io::Result<Summary> {
    // An audit and a season weigh every game they are given: a rated list
    // finds its own doubles (round clashes), a season reads one game a board.
    let opts = Options {
        duplicates: false,
        ..opts.clone()
    };
    drive(sources, rules, &opts, &Outcomes, |games| {
        games.into_iter().for_each(&mut f);
        Ok(())
    })
}

/// Judges every game of every source, `render`s them on the workers and
/// hands the rendered batches to `consume` in input order. A `consume`
/// error (a full disk, a closed pipe) stops the run and is returned.
pub(crate) fn drive<R: Render>(
    sources: &[Source],
    rules: &Ruleset,
    opts: &Options,
    render: &R,
    mut consume: impl FnMut(R::Batch) -> std::io::Result<()>,
) -> std::io::Result<Summary> {
    let started = Instant::now();
    let jobs = opts.jobs.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(std::io::Error::other)?;
    // One batch queued a worker: more only held memory (each worker's share
    // of peak RSS was 8 MB with two queued and 1 MiB batches, 3 MB now).
    let (work_tx, work_rx) = mpsc::sync_channel::<Work>(jobs);
    let env = Env {
        rules,
        syzygy: opts.syzygy.as_deref(),
        map: opts.rules_map.as_deref(),
        source: "",
        strict: opts.strict_rules,
        decisions: opts.decisions.as_deref(),
    };
    // Bounded too: where the caller writes slower than the workers judge
    // (a review page of every game), they wait instead of queueing batches.
    let (done_tx, done_rx) = mpsc::sync_channel::<Done<R::Batch>>(2 * jobs);
    let mut total = Summary::default();
    let mut read_errors = Vec::new();
    let mut write_error = None;
    // Set on a write error (a full disk, a closed pipe): the reader stops at
    // the next batch and the workers drop what is queued, instead of reading
    // the rest of a large input for nothing.
    let stop = AtomicBool::new(false);
    let seen = opts.duplicates.then(|| Seen::new(jobs));
    std::thread::scope(|s| {
        let reader = s.spawn(|| {
            let mut errs = Vec::new();
            read_all(sources, opts, work_tx, &stop, &mut errs);
            errs
        });
        let stop = &stop;
        let seen = &seen;
        s.spawn(move || {
            pool.install(|| {
                work_rx
                    .into_iter()
                    .par_bridge()
                    .for_each_with(done_tx, |tx, w| {
                        if !stop.load(Ordering::Relaxed) {
                            let _ = tx.send(process(
                                w,
                                env,
                                render,
                                opts.on_unconfirmed.as_ref(),
                                seen.as_ref(),
                            ));
                        } else if let Some(seen) = &seen {
                            // Dropped after a write error: later batches
                            // must not wait for its turn.
                            seen.pass(w.seq());
                        }
                    })
            })
        });
        let mut pending = BTreeMap::new();
        let mut next = 0u64;
        for done in done_rx {
            pending.insert(done.seq, done);
            while let Some(d) = pending.remove(&next) {
                total.add(&d.summary);
                if let Some(report) = &opts.on_progress {
                    report(&total);
                }
                if write_error.is_none() {
                    if let Err(e) = consume(d.batch) {
                        write_error = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                next += 1;
            }
        }
        read_errors = reader.join().unwrap_or_default();
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    total.duplicates_capped = seen.as_ref().is_some_and(Seen::full);
    read_errors.append(&mut total.errors);
    total.errors = read_errors;
    total.elapsed = started.elapsed();
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_whose_text_cannot_be_read_again_still_gives_each_game_a_row() {
        let text = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        let b = text.find("[Event \"b\"]").unwrap_or(0);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.pgn");
        let span = |start: usize, end: usize, line: u64, index: u64| GameSpan {
            start,
            end,
            offset: start as u64,
            line,
            index,
            oversize: 0,
            cut: false,
            ends_source: false,
        };
        let games = vec![span(0, b, 1, 1), span(b, text.len(), 5, 2)];
        let work = |path: &std::path::Path| Work::Text {
            seq: 7,
            source: Arc::from("t.pgn"),
            path: Arc::from(path),
            at: 0,
            len: text.len(),
            games: games.clone(),
        };
        let rules = Ruleset::load("fide-rapid").unwrap();
        let env = Env::new(&rules);
        // Each game's status and detail, a line apiece.
        struct Lines;
        impl Render for Lines {
            type Batch = String;
            fn batch(&self) -> String {
                String::new()
            }
            fn game(&self, out: &mut String, g: &Judged<'_>) {
                let j = g.judgement;
                let status = j.verdict.status.as_str();
                out.push_str(&format!("{},{},{status},{}\n", g.source, g.index, j.detail));
            }
        }
        let rows = |work| {
            let done = process(work, env, &Lines, None, None);
            assert_eq!(done.seq, 7);
            done.batch
        };
        // Read whole: both games judged.
        std::fs::write(&path, text).unwrap();
        let whole = rows(work(&path));
        assert_eq!(whole.lines().count(), 2);
        // Each unfinished (`*`): review, with the replay's words.
        assert!(
            whole
                .lines()
                .all(|r| r.contains(",review,the game is unfinished after 1. ")),
            "{whole}"
        );
        // Cut short since it was split: each game a row that says why.
        std::fs::write(&path, &text[..20]).unwrap();
        let cut = rows(work(&path));
        assert_eq!(cut.lines().count(), 2, "{cut}");
        assert!(cut.lines().all(|r| r.contains(",unreadable,")
            && r.contains("the game's text could not be read: the file ends")));
        assert!(
            cut.lines()
                .nth(1)
                .is_some_and(|r| r.starts_with("t.pgn,2,")),
            "{cut}"
        );
    }
}
