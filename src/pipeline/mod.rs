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
            "{} games: {} confirmed, {} corrected, {} review, {} unreadable{}",
            self.games,
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
        let off = match self.off_control {
            0 => String::new(),
            n => format!(
                " ({} under a control its ruleset is not for: see detail)",
                crate::claim::plural(n as usize, "game")
            ),
        };
        format!(
            "{} games: {} confirmed, {} corrected, {} review, {} unreadable{}{off}; {:.2} s, {:.0} games/s, {:.1} MB/s",
            self.games,
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
    /// A packet sink is set and this is a game (not a source that held
    /// none): an unconfirmed one has a packet.
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
    let mut run = || {
        parser.parse_into(start, end, game);
        let game = &*game;
        let text = parser.text(start, end);
        // Text never holds a NUL: this game was damaged (a bad copy, a disk
        // error), and what it says cannot be trusted. Its neighbours can.
        if let Some(k) = memchr::memchr(0, text) {
            let line = first_line + memchr::memchr_iter(b'\n', &text[..k]).count() as u64;
            return Judgement::unreadable(format!(
                "line {line}: a NUL byte (binary data) in the game's text: not judged"
            ));
        }
        SCRATCH.with(|s| judge(game, text, env, &mut s.borrow_mut()))
    };
    match catch_unwind(AssertUnwindSafe(&mut run)) {
        Ok(j) => j,
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown".into());
            *game = ParsedGame::default();
            Judgement::unreadable(format!(
                "internal error while judging this game ({msg}); please report it"
            ))
        }
    }
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
    let mut j = if span.oversize > 0 {
        *game = ParsedGame::default();
        oversize_judgement(span.oversize)
    } else if span.cut {
        *game = ParsedGame::default();
        Judgement::unreadable(CUT_SHORT.into())
    } else if let Some(e) = unread {
        *game = ParsedGame::default();
        Judgement::unreadable(format!("the game's text could not be read: {e}"))
    } else {
        judge_in_batch(parser, span.start, span.end, span.line, env, game)
    };
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

fn process<R: Render>(
    work: Work,
    env: Env<'_>,
    render: &R,
    packets: Option<&PacketSink>,
) -> Done<R::Batch> {
    let mut out = render.batch();
    let mut summary = Summary::default();
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
            let mut parser = pgn::BatchParser::new(&batch.data);
            let mut game = ParsedGame::default();
            for span in &batch.games {
                let j = judge_span(span, &mut parser, unread.as_deref(), env, &mut game);
                summary.count(j.verdict.status);
                summary.off_control += u64::from(j.control_mismatch);
                if let Some(sink) = packets.filter(|_| j.verdict.status != Status::Confirmed) {
                    let u = Unconfirmed {
                        source: &source,
                        index: span.index,
                        game: &game,
                        judgement: &j,
                    };
                    if let Err(e) = sink(u) {
                        summary.errors.push(e);
                    }
                }
                // None for a game whose text was not kept or not read.
                let text = batch
                    .data
                    .get(span.start..span.end)
                    .filter(|_| span.oversize == 0 && unread.is_none());
                let judged = Judged {
                    source: &source,
                    index: span.index,
                    offset: span.offset,
                    text,
                    game: &game,
                    judgement: &j,
                    packet: packets.is_some(),
                };
                render.game(&mut out, &judged);
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
    drive(sources, rules, opts, &Outcomes, |games| {
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
    std::thread::scope(|s| {
        let reader = s.spawn(|| {
            let mut errs = Vec::new();
            read_all(sources, opts, work_tx, &stop, &mut errs);
            errs
        });
        let stop = &stop;
        s.spawn(move || {
            pool.install(|| {
                work_rx
                    .into_iter()
                    .par_bridge()
                    .for_each_with(done_tx, |tx, w| {
                        if !stop.load(Ordering::Relaxed) {
                            let _ = tx.send(process(w, env, render, opts.on_unconfirmed.as_ref()));
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
            let done = process(work, env, &Lines, None);
            assert_eq!(done.seq, 7);
            done.batch
        };
        // Read whole: both games judged.
        std::fs::write(&path, text).unwrap();
        let whole = rows(work(&path));
        assert_eq!(whole.lines().count(), 2);
        assert!(whole.lines().all(|r| r.contains(",confirmed,")), "{whole}");
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
