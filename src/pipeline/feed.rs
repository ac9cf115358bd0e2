//! The pipeline's input side: every source read, several at once, and
//! their batches handed to the workers in input order, numbered. A shard
//! (`--shard K/N`) reads its byte range of the inputs; where the workers
//! outnumber what one reader feeds, a large plain file is read in parts at
//! once, each split by a reader of its own from a guessed game start that
//! the part before checks.

use std::sync::{
    atomic::{AtomicBool, Ordering},
    mpsc, Arc,
};

use super::{Options, Work};
use crate::read::{
    open,
    split::{Batch, GameSpan, Splitter},
    Source,
};

/// The K-th of N byte ranges of the inputs taken end to end (their sizes on
/// disk): a game belongs to the shard its first byte lies in; a compressed
/// file, whose offsets are not the file's, belongs whole to the shard its
/// first byte lies in. The N shards' rows, concatenated in order, are one
/// run's rows byte for byte (game numbers and offsets count from each
/// file's start, so a shard still reads the part of a file before it),
/// but for a second copy of a game in another shard, which each shard
/// judges (copies are found within a shard; docs/scale-out.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub(crate) k: u64,
    pub(crate) n: u64,
}

impl Shard {
    /// `K/N` with 1 <= K <= N.
    pub(crate) fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?} is not K/N (e.g. 2/8)"))?;
        let (k, n): (u64, u64) = (
            k.trim()
                .parse()
                .map_err(|_| format!("{s:?}: K is not a number"))?,
            n.trim()
                .parse()
                .map_err(|_| format!("{s:?}: N is not a number"))?,
        );
        if n == 0 || k == 0 || k > n {
            return Err(format!("{s:?}: K must be 1 to N, and N at least 1"));
        }
        Ok(Shard { k, n })
    }

    /// The byte range `[lo, hi)` of `total` this shard judges.
    pub(crate) fn range(self, total: u64) -> (u64, u64) {
        let at = |i: u64| (u128::from(total) * u128::from(i) / u128::from(self.n)) as u64;
        (at(self.k - 1), at(self.k))
    }
}

/// Where a source lies in the inputs taken end to end, and whether its
/// offsets are the file's own (plain text).
#[derive(Copy, Clone, Debug)]
struct SourceSpan {
    base: u64,
    len: u64,
    plain: bool,
}

/// Each source's span and the total; `Err` for a source that has no size
/// (stdin).
fn shard_layout(sources: &[Source]) -> Result<(Vec<SourceSpan>, u64), String> {
    let mut at = 0;
    let mut out = Vec::with_capacity(sources.len());
    for s in sources {
        let Source::File { path, name } = s else {
            return Err("--shard needs files: stdin has no size to divide".into());
        };
        let len = std::fs::metadata(path)
            .map_err(|e| format!("{name}: {e}"))?
            .len();
        let plain = crate::read::is_plain_file(path);
        out.push(SourceSpan {
            base: at,
            len,
            plain,
        });
        at += len;
    }
    Ok((out, at))
}

/// Inputs read at once: each opens, decompresses and splits on a thread of
/// its own, ahead of the one being handed to the workers. The parts of a
/// large plain file count as inputs here.
const READ_AHEAD: usize = 4;
/// Batches an input read ahead may hold ready before its reader waits (each
/// is up to a batch size of memory).
const READY_BATCHES: usize = 1;
/// Workers one reader keeps busy: it splits 430,000 to 760,000 games a
/// second of the lichess file, where a worker judges about 110,000. With
/// more workers a large plain file is read in parts, several at once.
const WORKERS_PER_READER: usize = 4;
/// The size of those parts: a part's reader runs to its end ahead of the
/// workers, keeping only where its games lie (48 bytes a game, about 0.6 MB
/// for a part), and `READ_AHEAD` parts are read at once.
const PART_BYTES: u64 = 32 << 20;

/// A part of a plain file read on a thread of its own: the games whose
/// first byte lies in `[start, stop)`. `start` is the file's start or a
/// guessed game start, which the part before checks. Its reader hands on
/// where the games lie, and `PartBatcher` makes batches of them whose text
/// each worker reads itself; a `fallback` part, read on from the true start
/// where the guess was wrong, hands on batches as one reader does.
#[derive(Copy, Clone, Debug)]
struct Part {
    start: u64,
    stop: Option<u64>,
    fallback: bool,
}

/// What a reader hands on.
enum Item {
    Work(Work),
    /// A part's games, without their text.
    Spans(Vec<GameSpan>),
}

/// One reader's work: a source, with a shard's window of it or a part.
#[derive(Copy, Clone)]
struct Planned<'a> {
    source: &'a Source,
    /// The source's place among the inputs.
    id: usize,
    window: Option<(u64, u64)>,
    part: Option<Part>,
}

/// What a reader reports besides its batches.
#[derive(Default)]
struct ReadEnd {
    errors: Vec<String>,
    /// Games handed on.
    games: u64,
    /// The first game at or past the window's end: its offset, and its
    /// line counted from where this reader started.
    next: Option<(u64, u64)>,
}

/// Where a part's reader stopped, which the part after it is checked against.
#[derive(Copy, Clone, Debug)]
struct PartEnd {
    /// The source's place among the inputs.
    id: usize,
    /// The source's games before the next part.
    games: u64,
    /// The first game past the part: its offset and line in the source.
    next: Option<(u64, u64)>,
}

enum PartCheck {
    /// The part starts where the one before stopped, on a game's first
    /// byte: its games and lines come after that part's.
    Follows(Shift),
    /// The guessed start was not a game's (a comment over lines held a
    /// line like a first tag): the source is read on from the true one, in
    /// place of its parts left.
    ReadOnFrom(u64),
    /// The part before reached the source's end, or failed: nothing here.
    Skip,
}

/// Checks `part` of source `id` against where the part before it ended.
fn check_part(part: Part, id: usize, ended: Option<PartEnd>) -> PartCheck {
    if part.start == 0 {
        return PartCheck::Follows(Shift::default());
    }
    match ended {
        Some(PartEnd {
            id: before,
            games,
            next: Some((at, line)),
        }) if before == id => {
            if at == part.start {
                PartCheck::Follows(Shift {
                    games,
                    lines: line - 1,
                })
            } else if part.fallback {
                PartCheck::Skip
            } else {
                PartCheck::ReadOnFrom(at)
            }
        }
        _ => PartCheck::Skip,
    }
}

/// Added to the game numbers and lines of a part that starts inside its
/// file, whose splitter counts from the part's start.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Shift {
    games: u64,
    lines: u64,
}

impl Work {
    fn number(&mut self, n: u64) {
        match self {
            Work::Batch { seq, .. } | Work::Text { seq, .. } | Work::Broken { seq, .. } => *seq = n,
        }
    }

    fn shift(&mut self, by: Shift) {
        let games = match self {
            Work::Batch { batch, .. } => &mut batch.games,
            Work::Text { games, .. } => games,
            Work::Broken { .. } => return,
        };
        for g in games {
            g.index += by.games;
            g.line += by.lines;
        }
    }
}

/// The part starts of a plain file read by several readers at once: where
/// the workers outnumber what one reader feeds, parts of `PART_BYTES`
/// (`Options::read_parts` asks for so many equal ones instead); `None`
/// for one reader.
fn parts_of(source: &Source, opts: &Options) -> Option<Vec<u64>> {
    let Source::File { path, .. } = source else {
        return None;
    };
    if opts.read_parts.is_none() && opts.jobs <= WORKERS_PER_READER {
        return None;
    }
    let len = crate::read::plain_text_len(path)?;
    let parts = match opts.read_parts {
        Some(n) => n,
        None => usize::try_from(len / PART_BYTES).unwrap_or(usize::MAX),
    };
    if parts < 2 {
        return None;
    }
    let starts = crate::read::part_starts(path, len, parts);
    (starts.len() > 1).then_some(starts)
}

/// Builds a part's batches from where its reader found the games: each
/// names the text the worker is to read (`Work::Text`).
struct PartBatcher {
    path: Arc<std::path::Path>,
    source: Arc<str>,
    target: usize,
    games: Vec<GameSpan>,
    bytes: usize,
}

impl PartBatcher {
    fn new(source: &Source, target: usize) -> Option<PartBatcher> {
        let Source::File { path, name } = source else {
            return None;
        };
        Some(PartBatcher {
            path: Arc::from(path.as_path()),
            source: Arc::from(name.as_str()),
            target,
            games: Vec::new(),
            bytes: 0,
        })
    }

    /// Takes `spans` in; hands each batch completed to `out` (`false`:
    /// the workers have stopped).
    fn push(&mut self, spans: Vec<GameSpan>, out: &mut impl FnMut(Work) -> bool) -> bool {
        for g in spans {
            if g.oversize > 0 {
                // Its text was never kept: a batch of its own, without it.
                if !self.flush(out) {
                    return false;
                }
                let batch = Batch {
                    data: Vec::new(),
                    games: vec![GameSpan {
                        start: 0,
                        end: 0,
                        ..g
                    }],
                };
                let work = Work::Batch {
                    seq: 0,
                    source: self.source.clone(),
                    batch,
                };
                if !out(work) {
                    return false;
                }
                continue;
            }
            self.bytes += g.end - g.start;
            self.games.push(g);
            if self.bytes >= self.target && !self.flush(out) {
                return false;
            }
        }
        true
    }

    /// The games taken in, as one batch.
    fn flush(&mut self, out: &mut impl FnMut(Work) -> bool) -> bool {
        let (Some(first), Some(last)) = (self.games.first(), self.games.last()) else {
            return true;
        };
        let at = first.offset;
        let len = (last.offset - at) as usize + (last.end - last.start);
        let mut games = std::mem::take(&mut self.games);
        for g in &mut games {
            let n = g.end - g.start;
            g.start = (g.offset - at) as usize;
            g.end = g.start + n;
        }
        self.bytes = 0;
        out(Work::Text {
            seq: 0,
            source: self.source.clone(),
            path: self.path.clone(),
            at,
            len,
            games,
        })
    }
}

/// The readers a run needs, in input order: a shard's window of each file
/// it touches, or each file's parts, or each source whole.
fn plan_reads<'a>(sources: &'a [Source], opts: &Options) -> Result<Vec<Planned<'a>>, String> {
    let layout = match opts.shard.map(|_| shard_layout(sources)) {
        Some(Err(e)) => return Err(e),
        Some(Ok((layout, total))) => opts.shard.map(|sh| (layout, sh.range(total))),
        None => None,
    };
    // The readers this run needs, in input order.
    let mut plan = Vec::new();
    for (id, source) in sources.iter().enumerate() {
        let mut window = None;
        if let Some((layout, (lo, hi))) = &layout {
            let SourceSpan { base, len, plain } = layout[id];
            let ours = if plain {
                base + len > *lo && base < *hi
            } else {
                (*lo..*hi).contains(&base)
            };
            if !ours {
                continue;
            }
            if plain {
                window = Some((lo.saturating_sub(base), hi - base));
            }
        } else if let Some(starts) = parts_of(source, opts) {
            for (k, &start) in starts.iter().enumerate() {
                let stop = starts.get(k + 1).copied();
                let part = Part {
                    start,
                    stop,
                    fallback: false,
                };
                plan.push(Planned {
                    source,
                    id,
                    window: None,
                    part: Some(part),
                });
            }
            continue;
        }
        plan.push(Planned {
            source,
            id,
            window,
            part: None,
        });
    }
    Ok(plan)
}

/// Reads every source, several at once, and hands their batches on in
/// input order, numbered.
pub(super) fn read_all<'a>(
    sources: &'a [Source],
    opts: &Options,
    tx: mpsc::SyncSender<Work>,
    stop: &AtomicBool,
    errors: &mut Vec<String>,
) {
    let plan = match plan_reads(sources, opts) {
        Ok(plan) => plan,
        Err(e) => {
            errors.push(e);
            return;
        }
    };
    let mut seq = 0u64;
    std::thread::scope(|s| {
        let spawn = |p: Planned<'a>| {
            // A part's reader runs to its part's end: room for all of it.
            let room = match p.part {
                Some(Part {
                    start,
                    stop: Some(stop),
                    fallback: false,
                }) => usize::try_from((stop - start) / opts.batch_bytes.max(1) as u64 + 2)
                    .unwrap_or(READY_BATCHES),
                _ => READY_BATCHES,
            };
            let (out, ready) = mpsc::sync_channel(room);
            let reader = s.spawn(move || read_source(p, opts, &out, stop));
            (p, ready, reader)
        };
        let mut plan = plan.into_iter();
        let mut running: std::collections::VecDeque<_> =
            plan.by_ref().take(READ_AHEAD).map(spawn).collect();
        let mut ended: Option<PartEnd> = None;
        while let Some((p, ready, reader)) = running.pop_front() {
            let shift = match p.part.map(|part| (part, check_part(part, p.id, ended))) {
                None => Shift::default(),
                Some((_, PartCheck::Follows(shift))) => shift,
                Some((part, check)) => {
                    // This part's reader stops at its next send.
                    drop(ready);
                    let _ = reader.join();
                    if let PartCheck::ReadOnFrom(start) = check {
                        let fallback = Part {
                            start,
                            stop: None,
                            fallback: true,
                        };
                        running.push_front(spawn(Planned {
                            part: Some(fallback),
                            ..p
                        }));
                    } else if !part.fallback {
                        // The parts after it are checked against its end: none.
                        ended = Some(PartEnd {
                            id: p.id,
                            games: 0,
                            next: None,
                        });
                    }
                    if let Some(next) = plan.next() {
                        running.push_back(spawn(next));
                    }
                    continue;
                }
            };
            let mut send = |mut work: Work| {
                work.number(seq);
                if shift != Shift::default() {
                    work.shift(shift);
                }
                seq += 1;
                let sent = tx.send(work).is_ok();
                if !sent {
                    stop.store(true, Ordering::Relaxed);
                }
                sent
            };
            let batcher = p
                .part
                .and_then(|_| PartBatcher::new(p.source, opts.batch_bytes));
            if !forward(ready, batcher, &mut send) {
                return;
            }
            ended = match reader.join() {
                Ok(mut end) => {
                    errors.append(&mut end.errors);
                    p.part.map(|_| PartEnd {
                        id: p.id,
                        games: shift.games + end.games,
                        next: end.next.map(|(at, line)| (at, line + shift.lines)),
                    })
                }
                // Where a reader stopped is unknown: the parts after it go unread.
                Err(_) => Some(PartEnd {
                    id: p.id,
                    games: 0,
                    next: None,
                }),
            };
            if stop.load(Ordering::Relaxed) {
                return;
            }
            if let Some(next) = plan.next() {
                running.push_back(spawn(next));
            }
        }
    });
}

/// Hands one reader's items on as numbered work, a part's spans batched
/// again from the file; `false` once the receiving end is gone.
fn forward(
    ready: mpsc::Receiver<Item>,
    mut batcher: Option<PartBatcher>,
    send: &mut impl FnMut(Work) -> bool,
) -> bool {
    for item in ready {
        let sent = match (item, batcher.as_mut()) {
            (Item::Work(work), _) => send(work),
            (Item::Spans(spans), Some(b)) => b.push(spans, send),
            // (Parts are of files only.)
            (Item::Spans(_), None) => true,
        };
        if !sent {
            return false;
        }
    }
    batcher.as_mut().is_none_or(|b| b.flush(send))
}

/// Reads one source, or its window or part, into batches (numbered later by
/// `read_all`): a shard's window, or a part, hands on only the games whose
/// first byte lies in it.
fn read_source(
    planned: Planned<'_>,
    opts: &Options,
    tx: &mpsc::SyncSender<Item>,
    stop: &AtomicBool,
) -> ReadEnd {
    let Planned {
        source,
        window,
        part,
        ..
    } = planned;
    let mut end = ReadEnd::default();
    let seq = 0;
    let name: Arc<str> = Arc::from(source.name());
    // A part hands on where its games lie; `PartBatcher` reads them again.
    let spans_only = part.is_some_and(|p| !p.fallback);
    let hand_on = |batch: Batch| {
        if spans_only {
            Item::Spans(batch.games)
        } else {
            Item::Work(Work::Batch {
                seq,
                source: name.clone(),
                batch,
            })
        }
    };
    let window = part.map_or(window, |p| Some((p.start, p.stop.unwrap_or(u64::MAX))));
    let resumed = match (part, source) {
        (Some(p), Source::File { path, .. }) if p.start > 0 => Some((p.start, path)),
        _ => None,
    };
    let resumed_at = resumed.map(|(at, _)| at);
    let mut sp = match splitter(source, resumed) {
        Ok(sp) => sp,
        Err(e) => {
            let detail = format!("{}: {e}", source.name());
            // A file opened but not readable as PGN (xz) gets its row,
            // like binary data; a file that cannot be opened does not.
            if e.kind() == std::io::ErrorKind::InvalidData {
                let _ = tx.send(Item::Work(Work::Broken {
                    seq,
                    source: name.clone(),
                    detail: detail.clone(),
                }));
            }
            end.errors.push(detail);
            return end;
        }
    };
    loop {
        if stop.load(Ordering::Relaxed) {
            return end;
        }
        match sp.next_batch(opts.batch_bytes) {
            Ok(Some(mut batch)) => {
                let mut past = false;
                if let Some((lo, hi)) = window {
                    past = batch.games.last().is_some_and(|g| g.offset >= hi);
                    if past {
                        let first = batch.games.iter().find(|g| g.offset >= hi);
                        end.next = first.map(|g| (g.offset, g.line));
                    }
                    batch.games.retain(|g| (lo..hi).contains(&g.offset));
                    if batch.games.is_empty() {
                        if past {
                            return end;
                        }
                        continue;
                    }
                }
                end.games += batch.games.len() as u64;
                if tx.send(hand_on(batch)).is_err() || past {
                    return end;
                }
            }
            Ok(None) => return end,
            Err(e) => {
                let at = ReadAt {
                    source,
                    name: &name,
                    window,
                    resumed_at,
                };
                read_error(e, &mut sp, &mut end, &at, tx, &hand_on);
                return end;
            }
        }
    }
}

/// Where a reader is: its source and name, its window, the byte a part
/// resumed from.
struct ReadAt<'a> {
    source: &'a Source,
    name: &'a Arc<str>,
    window: Option<(u64, u64)>,
    resumed_at: Option<u64>,
}

/// The source opened, at a part's first byte where it resumes.
fn splitter(
    source: &Source,
    resumed: Option<(u64, &std::path::PathBuf)>,
) -> std::io::Result<Splitter<Box<dyn std::io::Read + Send>>> {
    Ok(match resumed {
        Some((at, path)) => Splitter::resume(Box::new(crate::read::open_at(path, at)?), at),
        None => Splitter::new(open(source)?),
    })
}

/// A read error part-way: the games read before it, whole, and the one it
/// cut short are handed on (each gets its row, that one unreadable), or one
/// row for a file unreadable from its first byte; the error is noted.
fn read_error(
    e: std::io::Error,
    sp: &mut Splitter<Box<dyn std::io::Read + Send>>,
    end: &mut ReadEnd,
    at: &ReadAt<'_>,
    tx: &mpsc::SyncSender<Item>,
    hand_on: &impl Fn(Batch) -> Item,
) {
    let read = sp.games();
    let in_window = |offset: u64| at.window.is_none_or(|(lo, hi)| (lo..hi).contains(&offset));
    let broken =
        read == 0 && at.resumed_at.is_none() && e.kind() == std::io::ErrorKind::InvalidData;
    // The games read before the error, whole, and the one it
    // cut short: each gets its row (that one unreadable).
    let rest = if broken { None } else { sp.take_rest() }.map(|mut b| {
        b.games.retain(|g| in_window(g.offset));
        b
    });
    let rows = end.games + rest.as_ref().map_or(0, |b| b.games.len() as u64);
    let games = match rest.as_ref().is_some_and(|b| !b.games.is_empty()) {
        true => format!(
            "{} (the last one cut short, its row unreadable)",
            crate::claim::plural(rows as usize, "game")
        ),
        false => crate::claim::plural(rows as usize, "game"),
    };
    end.errors.push(match at.resumed_at {
        Some(from) => format!(
            "{}: read error in the part from byte {from}, after {games} of it: {e}",
            at.source.name()
        ),
        None => format!("{}: read error after {games}: {e}", at.source.name()),
    });
    if broken {
        // One row for the file, in the shard its first byte is in.
        if in_window(0) {
            let detail = format!("{}: {e}", at.source.name());
            let _ = tx.send(Item::Work(Work::Broken {
                seq: 0,
                source: at.name.clone(),
                detail,
            }));
        }
    } else if let Some(batch) = rest {
        if !batch.games.is_empty() {
            end.games += batch.games.len() as u64;
            let _ = tx.send(hand_on(batch));
        }
    }
}
