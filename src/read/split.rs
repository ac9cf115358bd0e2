//! Cuts a PGN byte stream into games, and games into batches for the workers.
//! It looks only at line starts (plus braces, to know when a line is inside a
//! comment), so it runs far faster than parsing and keeps memory flat: a batch
//! holds whole games and about `target` bytes.
//!
//! A game ends where a tag line follows movetext (chess.com exports put no
//! blank line between games), or where a blank line follows a result token,
//! or a blank line is followed by a fresh `1.`. A blank line anywhere else in
//! movetext does not end the game, unlike pgn-reader's own rule.
//!
//! A `{` never closed would swallow every game after it. Inside a comment
//! that spans lines, the first line of a tag section (`[Name "value"]` alone
//! on its line, after a line that is not one) is noted as where the next
//! game probably starts. It is only noted: a comment may quote a game. If
//! the comment is still open at the end of the input, or when the game
//! grows past `MAX_GAME_BYTES`, or a `{` comes before its `}` (a comment
//! cannot hold a comment; the next game's first clock does this), the
//! comment was never closed: the game ends at the noted line, and the
//! reading starts again there. A comment that closes first keeps all of it.

use std::io::{self, Read};

/// Where one game lies inside its batch, and where it came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameSpan {
    pub start: usize,
    pub end: usize,
    /// Byte offset in the decompressed source.
    pub offset: u64,
    /// 1-based line of the game's first byte in the source.
    pub(crate) line: u64,
    /// 1-based index of the game in its source.
    pub index: u64,
    /// For a game over `MAX_GAME_BYTES`: its size. Its text is not kept
    /// (`start == end`), so one runaway game cannot exhaust memory.
    pub(crate) oversize: u64,
    /// The source broke off at a read error inside (or right after) this
    /// game: its record may be cut short.
    pub(crate) cut: bool,
    /// The last game of its source: nothing after it shows its record
    /// whole.
    pub(crate) ends_source: bool,
}

/// The largest game read; beyond it a game is skipped to the next one and
/// reported. Real games are a few kilobytes; annotated ones rarely 1 MB.
pub(crate) const MAX_GAME_BYTES: usize = 16 << 20;

#[derive(Copy, Clone, Debug)]
struct Oversize {
    offset: u64,
    line: u64,
    bytes: u64,
}

#[derive(Debug, Default)]
pub struct Batch {
    pub data: Vec<u8>,
    pub games: Vec<GameSpan>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum LineKind {
    Blank,
    Tag,
    Movetext,
    /// `%` in the first column: an escape line, ignored (PGN 6).
    Escape,
}

/// What the splitter knows about the game it is inside.
#[derive(Default)]
struct GameState {
    start: Option<(usize, u64)>,
    seen_moves: bool,
    seen_blank: bool,
    /// The last movetext line ended with a result token.
    terminated: bool,
    /// A `{` comment is open at the end of the last line.
    in_comment: bool,
    /// Inside that comment, where a tag section begins, and its line: where
    /// the next game starts if the comment turns out never closed.
    resume_at: Option<(usize, u64)>,
    /// Tag names seen, as hashes: a repeated name starts a new game.
    tag_names: Vec<u64>,
}

fn tag_name_hash(rest: &[u8]) -> u64 {
    let name = rest[1..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_');
    name.fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Kind of line, given whether it starts inside a comment. Returns where the
/// movetext part of the line starts (after a closing brace, or after tags
/// written on the same line as moves).
fn line_kind(line: &[u8], in_comment: bool) -> (LineKind, usize) {
    let mut i = 0;
    if in_comment {
        match memchr::memchr(b'}', line) {
            Some(close) => i = close + 1,
            None => return (LineKind::Movetext, line.len()),
        }
    }
    // A byte-order mark may open any file (and, in concatenated files, a game).
    if line[i..].starts_with(b"\xef\xbb\xbf") {
        i += 3;
    }
    if !in_comment && line.get(i) == Some(&b'%') {
        return (LineKind::Escape, line.len());
    }
    let Some(first) = line[i..].iter().position(|b| !b.is_ascii_whitespace()) else {
        return (
            if in_comment {
                LineKind::Movetext
            } else {
                LineKind::Blank
            },
            line.len(),
        );
    };
    let rest = &line[i + first..];
    if !in_comment && rest[0] == b'[' {
        let is_tag = rest.get(1).is_some_and(|b| b.is_ascii_alphanumeric())
            && memchr::memchr(b'"', rest).is_some();
        let is_wrapper = rest.len() >= 5 && rest[..5].eq_ignore_ascii_case(b"[pgn]");
        if is_tag || is_wrapper {
            // Moves may follow the tags on the same line: `[Result "1-0"] e4 *`.
            let after = memchr::memrchr(b'"', rest)
                .and_then(|q| memchr::memchr(b']', &rest[q..]).map(|k| q + k + 1))
                .unwrap_or(rest.len());
            return (LineKind::Tag, i + first + after);
        }
    }
    (LineKind::Movetext, i + first)
}

/// Does the text hold anything but comments and blanks?
fn has_moves(rest: &[u8]) -> bool {
    let mut j = 0;
    while j < rest.len() {
        match rest[j] {
            b'{' => match memchr::memchr(b'}', &rest[j + 1..]) {
                Some(k) => j += k + 2,
                None => return false,
            },
            b';' => return false,
            b if b.is_ascii_whitespace() => j += 1,
            _ => return true,
        }
    }
    false
}

/// Does the line leave a `{` comment open? `;` comments hide braces after them.
fn leaves_comment_open(rest: &[u8]) -> bool {
    // Comments do not nest, so without `;` comments counting braces decides
    // it, and counting is vectorised: most lines here are whole movetexts.
    if memchr::memchr(b';', rest).is_none() {
        return memchr::memchr_iter(b'{', rest).count() > memchr::memchr_iter(b'}', rest).count();
    }
    let mut j = 0;
    while let Some(k) = memchr::memchr2(b'{', b';', &rest[j..]) {
        let at = j + k;
        if rest[at] == b';' {
            return false;
        }
        match crate::read::find(b'}', &rest[at + 1..]) {
            Some(e) => j = at + e + 2,
            None => return true,
        }
    }
    false
}

/// Is the line one tag pair alone, `[Name "value"]`, spaces around?
fn is_tag_pair_line(line: &[u8]) -> bool {
    let Some(first) = line.iter().position(|b| !b.is_ascii_whitespace()) else {
        return false;
    };
    if line[first] != b'[' {
        return false;
    }
    let last = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .unwrap_or(first);
    let t = &line[first..=last];
    if t.len() < 5 || t[t.len() - 1] != b']' {
        return false;
    }
    let name = t[1..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let value = &t[1 + name..t.len() - 1];
    let value = match value.iter().position(|b| !b.is_ascii_whitespace()) {
        Some(k) => &value[k..],
        None => return false,
    };
    name > 0 && value.len() >= 2 && value[0] == b'"' && value[value.len() - 1] == b'"'
}

fn ends_with_result(line: &[u8]) -> bool {
    let trimmed = match line.iter().rposition(|b| !b.is_ascii_whitespace()) {
        Some(e) => &line[..=e],
        None => return false,
    };
    let word_start = trimmed
        .iter()
        .rposition(|b| b.is_ascii_whitespace() || *b == b'}')
        .map_or(0, |i| i + 1);
    let word = &trimmed[word_start..];
    const RESULTS: [&[u8]; 7] = [
        b"1-0",
        b"0-1",
        b"1/2-1/2",
        b"*",
        "½-½".as_bytes(),
        "1–0".as_bytes(),
        "0–1".as_bytes(),
    ];
    RESULTS.contains(&word) || word.ends_with(b"[/pgn]")
}

/// Turns each CR that ends a line by itself (an old Mac's) into LF, in
/// place. A run of CRs before an LF (CR LF, or CR CR LF as a file saved
/// twice over has it) is that one line end and is left as it is. A run on
/// the last bytes is turned only where `at_end` says nothing follows it.
pub(crate) fn lone_cr_to_lf(buf: &mut [u8], at_end: bool) {
    let mut at = 0;
    while let Some(i) = memchr::memchr(b'\r', &buf[at..]) {
        let i = at + i;
        let end = i + buf[i..].iter().take_while(|&&b| b == b'\r').count();
        let lone = match buf.get(end) {
            Some(b'\n') => false,
            Some(_) => true,
            None => at_end,
        };
        if lone {
            buf[i..end].fill(b'\n');
        }
        at = end;
    }
}

/// More than one byte in eight is a control character other than the
/// whitespace PGN allows: not text.
fn looks_binary(window: &[u8]) -> bool {
    let control = window
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)) || b == 0x7f)
        .count();
    control * 8 > window.len()
}

fn starts_with_move_one(rest: &[u8]) -> bool {
    rest.starts_with(b"1.") || rest.starts_with(b"1 .")
}

/// Where a game probably starts in a plain text, read from `reader`, which
/// starts at byte `from` of it: the first tag line, at or after `from` and
/// within `limit` bytes, whose line before is not a tag line (and was read,
/// so that it is known). Only a guess, since a comment may span lines: the
/// reader of the part before checks it against where its own games start.
pub(crate) fn guess_game_start(
    mut reader: impl Read,
    from: u64,
    limit: u64,
) -> io::Result<Option<u64>> {
    let mut buf = Vec::with_capacity(READ_SIZE);
    // Offset of `buf[0]`; the first line is partial or of unknown kind.
    let mut base = from;
    let mut prev: Option<LineKind> = None;
    let mut skipped_first = false;
    loop {
        let before = buf.len();
        (&mut reader).take(READ_SIZE as u64).read_to_end(&mut buf)?;
        let eof = buf.len() == before;
        let mut at = 0;
        while let Some(nl) = memchr::memchr(b'\n', &buf[at..]) {
            let line = &buf[at..at + nl + 1];
            if !std::mem::replace(&mut skipped_first, true) {
                at += nl + 1;
                continue;
            }
            let kind = line_kind(line, false).0;
            if kind == LineKind::Tag && matches!(prev, Some(LineKind::Blank | LineKind::Movetext)) {
                return Ok(Some(base + at as u64));
            }
            prev = Some(kind);
            at += nl + 1;
        }
        buf.drain(..at);
        base += at as u64;
        if buf.len() >= 4 * READ_SIZE {
            // A line this long is no first tag: skip it unkept.
            base += buf.len() as u64;
            buf.clear();
            prev = None;
            skipped_first = false;
        }
        if eof || base - from > limit {
            return Ok(None);
        }
    }
}

pub struct Splitter<R> {
    reader: R,
    buf: Vec<u8>,
    /// Start of the first line not yet looked at.
    scan: usize,
    eof: bool,
    /// Offset in the source of `buf[0]`.
    base: u64,
    line_no: u64,
    games_done: u64,
    state: GameState,
    spans: Vec<GameSpan>,
    oversize: Option<Oversize>,
    /// The rest of a line whose start was dropped with an oversize game.
    drop_line: bool,
    sniffed: usize,
}

const READ_SIZE: usize = 1 << 16;

impl<R: Read> Splitter<R> {
    pub fn new(reader: R) -> Splitter<R> {
        Splitter {
            reader,
            buf: Vec::with_capacity(1 << 20),
            scan: 0,
            eof: false,
            base: 0,
            line_no: 1,
            games_done: 0,
            state: GameState::default(),
            spans: Vec::new(),
            oversize: None,
            drop_line: false,
            sniffed: 0,
        }
    }

    /// A splitter for `reader`, which starts at byte `offset` of a plain
    /// file, on the first byte of a game (`guess_game_start`, checked by
    /// the reader of the part before). Offsets are the file's; lines and
    /// game numbers count from `offset`, for the caller to shift. The
    /// binary sniff is the file's first part's, so none here. From a
    /// game's first byte the splitter is in the state a splitter that
    /// read the whole file is in there: a new game resets all of it.
    pub fn resume(reader: R, offset: u64) -> Splitter<R> {
        Splitter {
            base: offset,
            sniffed: usize::MAX,
            ..Splitter::new(reader)
        }
    }

    /// Games read so far.
    pub(crate) fn games(&self) -> u64 {
        self.games_done
    }

    fn fill(&mut self) -> io::Result<usize> {
        let len = self.buf.len();
        // Through `read_to_end` rather than `read` into a zeroed tail: a
        // file then reads straight into the spare capacity, and 64 KiB of
        // zeroes per read were a seventh of this thread's instructions.
        // Bytes a failing read delivered before its error are kept.
        (&mut self.reader)
            .take(READ_SIZE as u64)
            .read_to_end(&mut self.buf)?;
        let n = self.buf.len() - len;
        // A CR alone ends a line as LF does (old Mac files, and mixtures):
        // the byte becomes LF, so offsets stay the file's. A CR last in the
        // buffer waits for the next byte, unless the input ends there: the
        // whole run of CRs the last read ended with is looked at again.
        let from = len
            - self.buf[..len]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\r')
                .count();
        lone_cr_to_lf(&mut self.buf[from..], n == 0);
        // A file of binary data (an image, an archive, UTF-16 without its
        // byte-order mark) is refused whole, from its first 8 KiB; a text
        // with a stray NUL is read, and the game that holds it is judged
        // unreadable on its own.
        if self.sniffed < 8192 && n > 0 {
            let from = len.min(self.buf.len());
            let to = (len + n).min(len + 8192 - self.sniffed);
            self.sniffed += n;
            let window = &self.buf[from..to];
            if self.games_done == 0 && memchr::memchr(0, window).is_some() && looks_binary(window) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "binary data, not a PGN text file (UTF-16 is read only with its byte-order mark)",
                ));
            }
        }
        Ok(n)
    }

    fn close_game(&mut self, end: usize) {
        if let Some((start, line)) = self.state.start.take() {
            self.games_done += 1;
            let span = match self.oversize.take() {
                Some(ov) => GameSpan {
                    start: end,
                    end,
                    offset: ov.offset,
                    line: ov.line,
                    index: self.games_done,
                    oversize: ov.bytes + (end - start) as u64,
                    cut: false,
                    ends_source: false,
                },
                // Grown past the limit within the last read: same verdict.
                None if end - start > MAX_GAME_BYTES => GameSpan {
                    start: end,
                    end,
                    offset: self.base + start as u64,
                    line,
                    index: self.games_done,
                    oversize: (end - start) as u64,
                    cut: false,
                    ends_source: false,
                },
                None => GameSpan {
                    start,
                    end,
                    offset: self.base + start as u64,
                    line,
                    index: self.games_done,
                    oversize: 0,
                    cut: false,
                    ends_source: false,
                },
            };
            self.spans.push(span);
        }
        // The tag-name list keeps its allocation from game to game.
        let mut names = std::mem::take(&mut self.state.tag_names);
        names.clear();
        self.state = GameState {
            tag_names: names,
            ..GameState::default()
        };
    }

    /// Keeps memory flat when one game runs past `MAX_GAME_BYTES`: hands out
    /// the games before it, then drops what is buffered of it.
    fn check_oversize(&mut self) -> Option<Batch> {
        let (start, line) = self.state.start?;
        if self.buf.len() - start <= MAX_GAME_BYTES && self.oversize.is_none() {
            return None;
        }
        if self.oversize.is_none() {
            self.oversize = Some(Oversize {
                offset: self.base + start as u64,
                line,
                bytes: 0,
            });
        }
        if !self.spans.is_empty() {
            return self.cut(start);
        }
        let dropped = self.buf.len() - start;
        if let Some(ov) = self.oversize.as_mut() {
            ov.bytes += dropped as u64;
        }
        self.drop_line = self.scan < self.buf.len();
        self.base += self.buf.len() as u64;
        self.buf.clear();
        self.scan = 0;
        self.state.start = Some((0, line));
        self.state.in_comment = false;
        self.state.resume_at = None;
        None
    }

    /// A line that starts inside a comment: notes where a tag section
    /// begins in it, and goes back there (`true`) once the comment is
    /// shown never closed by a `{` before its `}`.
    fn in_open_comment(&mut self, start: usize, end: usize) -> bool {
        let line = &self.buf[start..end];
        let close = crate::read::find(b'}', line);
        if self.state.resume_at.is_some() {
            let inside = &line[..close.unwrap_or(line.len())];
            // A `{` is text inside a comment (PGN 8.2.5): only on a line
            // that opens with a move number, as the next game's first
            // move and its clock comment do, does it show that the comment
            // was never closed.
            let numbered = inside
                .trim_ascii_start()
                .first()
                .is_some_and(u8::is_ascii_digit);
            if numbered && memchr::memchr(b'{', inside).is_some() {
                return self.resume_after_open_comment();
            }
            if close.is_some() {
                // Closed: the tag section noted was the comment's text.
                self.state.resume_at = None;
            }
        } else if close.is_none() && is_tag_pair_line(line) {
            // The first of its section: the line before is no tag pair.
            let before = &self.buf[..start.saturating_sub(1)];
            let prev = memchr::memrchr(b'\n', before).map_or(0, |k| k + 1);
            if start == 0 || !is_tag_pair_line(&self.buf[prev..start]) {
                self.state.resume_at = Some((start, self.line_no));
            }
        }
        false
    }

    /// Where a comment is never closed and a tag section was seen in it:
    /// the game ends before that section, and the reading goes on from it
    /// (`true`); the caller's scan restarts at `self.scan`.
    fn resume_after_open_comment(&mut self) -> bool {
        let Some((at, line)) = self.state.resume_at.take() else {
            return false;
        };
        self.close_game(at);
        self.scan = at;
        self.line_no = line;
        true
    }

    /// Looks at the line `buf[start..end]`, the scan already past it; a
    /// line that shows a comment never closed sets the scan back.
    fn on_line(&mut self, start: usize, end: usize) {
        if self.state.in_comment && self.in_open_comment(start, end) {
            return;
        }
        let line = &self.buf[start..end];
        let (kind, rest_at) = line_kind(line, self.state.in_comment);
        let rest = &line[rest_at..];
        // Comment-only lines (a game's opening remark) are not moves.
        let moves = has_moves(rest);
        let name = match kind {
            LineKind::Tag => line[..rest_at]
                .iter()
                .position(|&b| b == b'[')
                .map(|k| tag_name_hash(&line[k..rest_at])),
            _ => None,
        };
        let s = &self.state;
        let new_game = match kind {
            LineKind::Blank | LineKind::Escape => false,
            LineKind::Tag => s.seen_moves || name.is_some_and(|h| s.tag_names.contains(&h)),
            LineKind::Movetext => {
                moves
                    && s.seen_moves
                    && s.seen_blank
                    && (s.terminated || starts_with_move_one(rest))
            }
        };
        // A line inside a comment that does not close it leaves it open
        // (its rest, past the line's end, is empty).
        let still_open = self.state.in_comment && memchr::memchr(b'}', line).is_none();
        let open = still_open
            || (matches!(kind, LineKind::Tag | LineKind::Movetext) && leaves_comment_open(rest));
        let terminated = moves && ends_with_result(rest);
        if new_game {
            self.close_game(start);
        }
        let s = &mut self.state;
        if let Some(h) = name {
            if s.tag_names.len() < 64 {
                s.tag_names.push(h);
            }
        }
        match kind {
            LineKind::Escape => {}
            LineKind::Blank => s.seen_blank |= s.start.is_some(),
            LineKind::Tag | LineKind::Movetext => {
                s.start.get_or_insert((start, self.line_no));
                if moves {
                    s.seen_moves = true;
                    s.seen_blank = false;
                    // Result tokens inside a comment do not end a game.
                    if !open {
                        s.terminated = terminated;
                    }
                }
                s.in_comment = open;
            }
        }
        self.line_no += 1;
    }

    /// The next batch of whole games, about `target` bytes (more if a game
    /// is larger). `Ok(None)` at the end of input.
    pub fn next_batch(&mut self, target: usize) -> io::Result<Option<Batch>> {
        loop {
            // Look at every complete line in the buffer.
            while let Some(nl) = memchr::memchr(b'\n', &self.buf[self.scan..]) {
                let (s, e) = (self.scan, self.scan + nl + 1);
                self.scan = e;
                if std::mem::take(&mut self.drop_line) {
                    self.line_no += 1;
                } else {
                    self.on_line(s, e);
                }
            }
            // A comment open past the largest game is never closed.
            let over = |(s, _): (usize, u64)| self.buf.len() - s > MAX_GAME_BYTES;
            if self.state.resume_at.is_some()
                && self.state.start.is_some_and(over)
                && self.resume_after_open_comment()
            {
                continue;
            }
            if let Some(batch) = self.check_oversize() {
                return Ok(Some(batch));
            }
            if self.eof {
                if self.scan < self.buf.len() {
                    let (s, e) = (self.scan, self.buf.len());
                    self.scan = e;
                    self.on_line(s, e);
                }
                // A comment still open at the end is never closed.
                if self.scan < self.buf.len() || self.resume_after_open_comment() {
                    continue;
                }
                self.close_game(self.buf.len());
                if let Some(last) = self.spans.last_mut() {
                    last.ends_source = true;
                }
                return Ok(self.cut(self.buf.len()));
            }
            let enough = self.spans.last().is_some_and(|g| g.end >= target);
            if enough {
                let cut_at = self.spans.last().map_or(0, |g| g.end);
                return Ok(self.cut(cut_at));
            }
            if self.fill()? == 0 {
                self.eof = true;
            }
        }
    }

    /// After a read error: everything buffered so far, the unfinished game
    /// included, so a truncated stream still yields a row for it.
    pub(crate) fn take_rest(&mut self) -> Option<Batch> {
        loop {
            while let Some(nl) = memchr::memchr(b'\n', &self.buf[self.scan..]) {
                let (s, e) = (self.scan, self.scan + nl + 1);
                self.scan = e;
                self.on_line(s, e);
            }
            if self.scan < self.buf.len() {
                let (s, e) = (self.scan, self.buf.len());
                self.scan = e;
                self.on_line(s, e);
            }
            if self.scan == self.buf.len() && !self.resume_after_open_comment() {
                break;
            }
        }
        self.close_game(self.buf.len());
        let mut rest = self.cut(self.buf.len());
        // The last game ends where the reading did, whatever it says.
        if let Some(last) = rest.as_mut().and_then(|b| b.games.last_mut()) {
            last.cut = true;
        }
        rest
    }

    /// Hands out the closed games before `at` and keeps the rest.
    fn cut(&mut self, at: usize) -> Option<Batch> {
        if self.spans.is_empty() {
            return None;
        }
        // The next batch's buffer and span list start as large as this
        // one's: grown from empty they were copied again at every doubling.
        let mut rest = Vec::with_capacity(self.buf.capacity());
        rest.extend_from_slice(&self.buf[at..]);
        let mut data = std::mem::replace(&mut self.buf, rest);
        data.truncate(at);
        let spans = Vec::with_capacity(self.spans.len() + self.spans.len() / 4);
        let games = std::mem::replace(&mut self.spans, spans);
        self.base += at as u64;
        self.scan -= at;
        if let Some((s, _)) = self.state.start.as_mut() {
            *s -= at;
        }
        if let Some((s, _)) = self.state.resume_at.as_mut() {
            *s -= at;
        }
        Some(Batch { data, games })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cr_alone_ends_a_line_and_cr_runs_before_lf_are_one_line_end() {
        for (input, at_end, want) in [
            ("a\r\nb", true, "a\r\nb"),
            ("a\r\r\nb", true, "a\r\r\nb"),
            ("a\rb", true, "a\nb"),
            ("a\r\rb", true, "a\n\nb"),
            ("a\r\r", false, "a\r\r"),
            ("a\r\r", true, "a\n\n"),
        ] {
            let mut buf = input.as_bytes().to_vec();
            lone_cr_to_lf(&mut buf, at_end);
            assert_eq!(String::from_utf8(buf).unwrap(), want, "{input:?}");
        }
    }

    #[test]
    fn a_part_starts_at_a_games_first_tag_and_resumes_as_the_whole_read_does() {
        let text = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                    [Event \"b\"]\n[Result \"*\"]\n\n1. d4 {a remark\n\n[Event \"not a game\"]\n} d5 *\n\
                    [Event \"c\"]\n\n1. c4 *\n";
        let b = text.find("[Event \"b\"]").unwrap() as u64;
        let fake = text.find("[Event \"not").unwrap() as u64;
        let c = text.find("[Event \"c\"]").unwrap() as u64;
        let guess =
            |from: u64| guess_game_start(&text.as_bytes()[from as usize..], from, 1 << 20).unwrap();
        // From inside game a (its tags, its movetext): b's first tag.
        assert_eq!(guess(3), Some(b));
        assert_eq!(guess(b - 8), Some(b));
        // From inside b's comment: a tag line after a blank one, which the
        // whole read knows is in the comment; c follows movetext directly.
        assert_eq!(guess(b + 30), Some(fake));
        assert_eq!(guess(fake + 3), Some(c));
        assert_eq!(guess(c + 3), None);
        // Resumed at b, the splitter cuts b and c as the whole read does,
        // with the file's offsets and lines counted from b.
        let whole: Vec<GameSpan> = {
            let mut sp = Splitter::new(text.as_bytes());
            sp.next_batch(1 << 20).unwrap().unwrap().games
        };
        assert_eq!(
            whole.iter().map(|g| g.offset).collect::<Vec<_>>(),
            [0, b, c]
        );
        let mut sp = Splitter::resume(&text.as_bytes()[b as usize..], b);
        let part = sp.next_batch(1 << 20).unwrap().unwrap();
        assert_eq!(part.games.len(), 2);
        for (g, w) in part.games.iter().zip(&whole[1..]) {
            assert_eq!(g.offset, w.offset);
            assert_eq!(g.end - g.start, w.end - w.start);
            assert_eq!(g.index + 1, w.index);
            assert_eq!(g.line + 5, w.line);
        }
    }

    fn split(text: &str) -> Vec<String> {
        let mut sp = Splitter::new(text.as_bytes());
        let mut out = vec![];
        while let Some(b) = sp.next_batch(1 << 20).unwrap() {
            for g in b.games {
                out.push(
                    String::from_utf8_lossy(&b.data[g.start..g.end])
                        .trim()
                        .to_string(),
                );
            }
        }
        out
    }

    #[test]
    fn games_without_blank_lines_between_them() {
        let g = split("[Event \"a\"]\n1. e4 e5 1-0\n[Event \"b\"]\n1. d4 0-1\n");
        assert_eq!(
            g,
            ["[Event \"a\"]\n1. e4 e5 1-0", "[Event \"b\"]\n1. d4 0-1"]
        );
    }

    #[test]
    fn blank_line_in_movetext_stays_in_the_game() {
        let g = split("[Event \"a\"]\n\n1. e4 e5\n\n2. Nf3 1-0\n\n[Event \"b\"]\n\n1. d4 *\n");
        assert_eq!(g.len(), 2);
        assert!(g[0].ends_with("2. Nf3 1-0"));
    }

    #[test]
    fn tagless_and_tag_only_games() {
        assert_eq!(split("1. e4 e5 1-0\n\n1. d4 d5 0-1\n").len(), 2);
        assert_eq!(split("1. e4 e5\n\n1. d4 d5\n").len(), 2);
        assert_eq!(
            split("[Event \"a\"]\n[Result \"1-0\"]\n\n[Event \"b\"]\n[Result \"0-1\"]\n").len(),
            2
        );
    }

    #[test]
    fn tag_like_line_inside_a_comment_is_not_a_new_game() {
        let g = split("[Event \"a\"]\n\n1. e4 {a comment\n[Event \"not a tag\"]\n} e5 1-0\n");
        assert_eq!(g.len(), 1);
        // Over many lines, blank ones among them: the comment stays open
        // to its `}` (it was taken as closed after its second line).
        let g = split(
            "[Event \"a\"]\n\n1. e4 {a long\ncomment\n\n[Event \"not a tag\"]\n\n1. d4 1-0\n} e5 1-0\n\n[Event \"b\"]\n\n1. c4 *\n",
        );
        assert_eq!(g.len(), 2, "{g:?}");
        assert!(g[1].starts_with("[Event \"b\"]"));
    }

    /// Four games, the second's comment never closed: `sep` between games.
    fn four_games(sep: &str, third_moves: &str) -> String {
        format!(
            "[Event \"one\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n{sep}\
             [Event \"two\"]\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 {{unterminated 3. Nc3 0-1\n{sep}\
             [Event \"three\"]\n[Result \"0-1\"]\n\n{third_moves}\n{sep}\
             [Event \"four\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n"
        )
    }

    fn events(games: &[String]) -> Vec<&str> {
        games
            .iter()
            .map(|g| g.split('"').nth(1).unwrap_or(""))
            .collect()
    }

    #[test]
    fn a_comment_never_closed_ends_its_game_where_the_next_ones_tags_begin() {
        let plain = "1. f3 e5 2. g4 Qh4# 0-1";
        let clocks = "1. f3 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. g4 Qh4# 0-1";
        // Blank lines between games or none (chess.com); the next games
        // without braces (the comment is open at the end), or with a clock
        // comment (a `{` inside the open comment).
        for (sep, third) in [("\n", plain), ("", plain), ("\n", clocks), ("", clocks)] {
            let text = four_games(sep, third);
            let g = split(&text);
            assert_eq!(events(&g), ["one", "two", "three", "four"], "{g:?}");
            assert!(g[1].ends_with("{unterminated 3. Nc3 0-1"), "{g:?}");
            assert!(g[2].ends_with(third), "{g:?}");
            // Lines and offsets as for any game.
            let mut sp = Splitter::new(text.as_bytes());
            let spans = sp.next_batch(1 << 20).unwrap().unwrap().games;
            let three = text.find("[Event \"three\"]").unwrap();
            assert_eq!(spans[2].offset, three as u64);
            let line = 1 + text[..three].matches('\n').count() as u64;
            assert_eq!((spans[2].line, spans[2].index), (line, 3));
            assert_eq!(spans[3].line, line + 4 + sep.len() as u64);
        }
    }

    #[test]
    fn comments_over_lines_with_brackets_are_kept_whole() {
        // Clocks, arrows and diagrams at line starts, a quoted game's tags
        // after a blank line: the comment closes, so nothing is cut.
        let text = "[Event \"a\"]\n\n1. e4 {a note\n[%clk 0:01:00]\n[%cal Ge2e4]\n[#]\n\n\
                    [Event \"quoted\"]\n[Site \"x\"]\n\n1. d4 d5 1-0\n} e5 {again\n\n[White \"y\"]\n} 1-0\n\n\
                    [Event \"b\"]\n\n1. c4 *\n";
        assert_eq!(events(&split(text)), ["a", "b"]);
        // Cut into small batches inside the comment: still one game.
        let mut sp = Splitter::new(text.as_bytes());
        let mut spans = vec![];
        while let Some(b) = sp.next_batch(8).unwrap() {
            spans.extend(b.games);
        }
        assert_eq!(spans.len(), 2);
    }

    #[test]
    fn a_comment_never_closed_across_batches_and_parts() {
        let one = four_games("\n", "1. f3 e5 2. g4 Qh4# 0-1");
        let text = one.repeat(50);
        let mut sp = Splitter::new(text.as_bytes());
        let mut spans = vec![];
        while let Some(b) = sp.next_batch(100).unwrap() {
            for g in &b.games {
                assert!(b.data[g.start..g.end].starts_with(b"[Event"));
            }
            spans.extend(b.games);
        }
        assert_eq!(spans.len(), 200);
        let per = one.len() as u64;
        let three = one.find("[Event \"three\"]").unwrap() as u64;
        assert_eq!(spans[198].offset, 49 * per + three);
        // Resumed at a game after a broken one, as a part is: the same cuts.
        let at = per + three;
        let mut sp = Splitter::resume(&text.as_bytes()[at as usize..], at);
        let mut part = vec![];
        while let Some(b) = sp.next_batch(1 << 20).unwrap() {
            part.extend(b.games);
        }
        let offsets = |s: &[GameSpan]| s.iter().map(|g| g.offset).collect::<Vec<_>>();
        assert_eq!(offsets(&part), offsets(&spans[6..]));
    }

    #[test]
    fn a_comment_never_closed_before_a_read_error_still_frees_the_games_after() {
        struct Failing<'a>(&'a [u8]);
        impl Read for Failing<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::other("cut"));
                }
                let n = out.len().min(self.0.len());
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let text = four_games("\n", "1. f3 e5 2. g4 Qh4# 0-1");
        let mut sp = Splitter::new(Failing(text.as_bytes()));
        assert!(sp.next_batch(1 << 20).is_err());
        let rest = sp.take_rest().unwrap();
        assert_eq!(rest.games.len(), 4);
        assert_eq!(
            rest.games.iter().map(|g| g.cut).collect::<Vec<_>>(),
            [false, false, false, true]
        );
    }

    #[test]
    fn a_comment_never_closed_past_the_size_limit_frees_the_games_after() {
        let mut text = String::from("[Event \"a\"]\n\n1. e4 {never closed\n\n");
        let game = "[Event \"g\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n";
        let n = MAX_GAME_BYTES / game.len() + 1000;
        text.push_str(&game.repeat(n));
        let mut sp = Splitter::new(text.as_bytes());
        let mut spans = vec![];
        let mut biggest = 0;
        while let Some(b) = sp.next_batch(1 << 20).unwrap() {
            biggest = biggest.max(b.data.len());
            spans.extend(b.games);
        }
        assert_eq!(spans.len(), n + 1);
        assert_eq!(spans[0].oversize, 0);
        assert!(biggest < MAX_GAME_BYTES + (2 << 20));
    }

    #[test]
    fn tag_pair_lines() {
        for yes in ["[Event \"x\"]\n", "  [White \"a b\"]  \r\n", "[Event\"\"]"] {
            assert!(is_tag_pair_line(yes.as_bytes()), "{yes}");
        }
        for no in [
            "[%clk 0:01:00]\n",
            "[#]\n",
            "[Event \"x\"] e4\n",
            "[Event x]\n",
            "e4 [A \"b\"]",
            "[\"x\"]",
            "",
        ] {
            assert!(!is_tag_pair_line(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn offsets_and_lines_survive_batch_cuts() {
        let one = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n";
        let text = one.repeat(1000);
        let mut sp = Splitter::new(text.as_bytes());
        let mut spans = vec![];
        let mut batches = 0;
        while let Some(b) = sp.next_batch(4096).unwrap() {
            batches += 1;
            for g in &b.games {
                assert!(b.data[g.start..].starts_with(b"[Event"));
            }
            spans.extend(b.games);
        }
        assert!(batches > 1);
        assert_eq!(spans.len(), 1000);
        assert_eq!(spans[999].offset, 999 * one.len() as u64);
        assert_eq!(spans[999].line, 999 * 4 + 1);
        assert_eq!(spans[999].index, 1000);
    }

    #[test]
    fn opening_comment_and_bom_do_not_split_a_game() {
        let g = split("\u{feff}[Event \"a\"]\n[Result \"1-0\"]\n\n{ A remark. }\n\n1. e4 e5 1-0\n");
        assert_eq!(g.len(), 1);
    }

    #[test]
    fn blank_line_between_tags_and_escape_lines() {
        assert_eq!(
            split("[Event \"a\"]\n\n[Date \"x\"]\n\n1. e4 1-0\n").len(),
            1
        );
        assert_eq!(
            split("%escape\n[Event \"a\"]\n\n1. e4\n% more\ne5 1-0\n").len(),
            1
        );
    }

    #[test]
    fn tags_and_moves_on_one_line() {
        assert_eq!(
            split("[Result \"1-0\"] e4 *\n[Result \"0-1\"] e4 *\n").len(),
            2
        );
    }

    #[test]
    fn an_oversize_game_is_skipped_with_memory_flat() {
        let mut text = String::from("[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"big\"]\n\n1. e4 { ");
        text.push_str(&"x".repeat(MAX_GAME_BYTES + 300_000));
        text.push_str(" } e5 1-0\n\n[Event \"c\"]\n\n1. d4 d5 0-1\n");
        let mut sp = Splitter::new(text.as_bytes());
        let mut spans = vec![];
        let mut biggest = 0;
        while let Some(b) = sp.next_batch(1 << 20).unwrap() {
            biggest = biggest.max(b.data.len());
            spans.extend(b.games);
        }
        assert_eq!(spans.len(), 3, "{spans:?}");
        assert_eq!(spans[1].line, 5, "{spans:?}");
        assert!(spans[1].oversize > MAX_GAME_BYTES as u64, "{spans:?}");
        assert_eq!(spans[1].start, spans[1].end);
        assert_eq!(
            spans[2].offset as usize,
            text.find("[Event \"c\"]").unwrap()
        );
        assert_eq!(spans[2].line, 9);
        assert!(biggest < MAX_GAME_BYTES + (1 << 20));
    }

    #[test]
    fn binary_input_is_an_error() {
        let mut sp = Splitter::new(&b"\x00\x01\x02PK"[..]);
        assert!(sp.next_batch(1024).is_err());
        // UTF-16 without a byte-order mark: every other byte is NUL.
        let utf16: Vec<u8> = "[Event \"x\"]\n\n1. e4 *\n"
            .bytes()
            .flat_map(|b| [b, 0])
            .collect();
        assert!(Splitter::new(&utf16[..]).next_batch(1024).is_err());
    }

    #[test]
    fn a_stray_nul_in_the_first_game_does_not_refuse_the_file() {
        let g = split("[Event \"a\"]\n\n1. e4 \u{0} e5 1-0\n\n[Event \"b\"]\n\n1. d4 0-1\n");
        assert_eq!(g.len(), 2);
        assert!(g[0].contains('\u{0}'));
    }

    #[test]
    fn a_brace_in_a_closed_comment_that_quotes_tags_cuts_nothing() {
        // PGN 8.2.5: a `{` inside a brace comment is text. The comment
        // quotes a tag section, then closes: one game, read whole.
        let text = "[Event \"a\"]\n\n1. e4 {compare\n[Event \"old\"]\n[Result \"1-0\"]\nthe { sign} e5 1-0\n";
        assert_eq!(split(text), vec![text.trim_end().to_string()]);
        // The next game's numbered first move with its clock comment still
        // shows a comment never closed.
        let broken = "[Event \"a\"]\n\n1. e4 {never closed\n\n[Event \"b\"]\n\n1. d4 { [%clk 0:01:00] } d5 0-1\n";
        assert_eq!(split(broken).len(), 2);
    }
}
