//! The movetext tokenizer. pgn-reader skips a token it cannot read as SAN
//! without telling anyone (`3. Xq9 Bb5` plays on as if `Xq9` were not there)
//! and ends a game at a blank line; reading the movetext here instead sees
//! every token, keeps its place in the text (the CSV's move "as written", the
//! line of an error), and reads each comment whole, however long.

use super::clock;
use crate::model::Clock;
use crate::read::find;

/// A byte range inside the game's text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Token {
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Token {
    pub fn text<'a>(&self, game: &'a [u8]) -> &'a [u8] {
        game.get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }

    /// 1-based line of the token within the game (counted only when an
    /// error needs it, to keep the scan itself cheap).
    pub(crate) fn line(&self, game: &[u8]) -> u32 {
        let upto = (self.start as usize).min(game.len());
        1 + memchr::memchr_iter(b'\n', &game[..upto]).count() as u32
    }
}

/// Byte classes for the movetext loop, one table lookup per byte.
const TOKEN: u8 = 0;
const SPACE: u8 = 1;
const NEWLINE: u8 = 2;
const BRACE: u8 = 3;
const SEMICOLON: u8 = 4;
const OPEN: u8 = 5;
const CLOSE: u8 = 6;
const BRACKET: u8 = 7;
/// `}` `!` `?` `.` `*`: passed over one by one.
const PASS: u8 = 8;
const PERCENT: u8 = 9;
const DIGIT: u8 = 10;
/// `$`: starts a NAG, and ends a token like the terminators.
const DOLLAR: u8 = 11;

const CLASS: [u8; 256] = {
    let mut c = [TOKEN; 256];
    c[b' ' as usize] = SPACE;
    c[b'\t' as usize] = SPACE;
    c[b'\r' as usize] = SPACE;
    c[b'\n' as usize] = NEWLINE;
    c[b'{' as usize] = BRACE;
    c[b';' as usize] = SEMICOLON;
    c[b'(' as usize] = OPEN;
    c[b')' as usize] = CLOSE;
    c[b'[' as usize] = BRACKET;
    c[b'}' as usize] = PASS;
    c[b'!' as usize] = PASS;
    c[b'?' as usize] = PASS;
    c[b'.' as usize] = PASS;
    c[b'*' as usize] = PASS;
    c[b'%' as usize] = PERCENT;
    c[b'$' as usize] = DOLLAR;
    let mut d = b'0';
    while d <= b'9' {
        c[d as usize] = DIGIT;
        d += 1;
    }
    c
};

/// Same set of token terminators as pgn-reader's, so both split alike.
#[inline]
fn is_token_end(b: u8) -> bool {
    matches!(
        CLASS[b as usize],
        SPACE | NEWLINE | BRACE | PASS | OPEN | CLOSE | SEMICOLON | DOLLAR
    )
}

/// A comment passed on the way to the next move: lichess's clock comment
/// read in place, or any other comment's text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Comment<'a> {
    Clock(Clock),
    Text(&'a [u8]),
}

pub(crate) struct Scanner<'a> {
    text: &'a [u8],
    pos: usize,
    depth: u32,
    /// A move token has been returned (blank lines before it are not inside movetext).
    started: bool,
    blank_pending: bool,
    /// Blank lines between two moves.
    pub(crate) blank_lines: usize,
    /// Where a `{` with no closing `}` before the end of the game is.
    pub(crate) unterminated_comment: Option<usize>,
    pub(crate) variations: bool,
    /// A `)` that closes no variation.
    pub(crate) stray_close: bool,
}

/// Where the movetext begins: after the tag pairs (and any `%` escape lines,
/// byte-order mark or blank lines among them).
pub fn tags_end(text: &[u8]) -> usize {
    let mut s = Scanner::new(text);
    loop {
        match text.get(s.pos) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => s.pos += 1,
            Some(b'%') if s.at_line_start() => s.skip_to_eol(),
            Some(b'[') => s.skip_bracket(),
            _ => return s.pos,
        }
    }
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(text: &'a [u8]) -> Scanner<'a> {
        Scanner {
            text,
            pos: if text.starts_with(b"\xef\xbb\xbf") {
                3
            } else {
                0
            },
            depth: 0,
            started: false,
            blank_pending: false,
            blank_lines: 0,
            unterminated_comment: None,
            variations: false,
            stray_close: false,
        }
    }

    /// A variation is still open: a `(` was never closed.
    pub(crate) fn unclosed_variation(&self) -> bool {
        self.depth > 0
    }

    /// Starts reading at `pos` (after the tags).
    pub(crate) fn at(text: &'a [u8], pos: usize) -> Scanner<'a> {
        let mut s = Scanner::new(text);
        s.pos = s.pos.max(pos.min(text.len()));
        s
    }

    /// After a newline: is the next line blank?
    fn blank_line_follows(&self) -> bool {
        for &b in &self.text[self.pos..] {
            match b {
                b' ' | b'\t' | b'\r' => {}
                b'\n' => return true,
                _ => return false,
            }
        }
        false
    }

    fn skip_past(&mut self, needle: u8) {
        let from = self.pos;
        self.pos = find(needle, &self.text[from..]).map_or(self.text.len(), |i| from + i + 1);
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.text[self.pos - 1] == b'\n'
    }

    fn skip_to_eol(&mut self) {
        self.pos = find(b'\n', &self.text[self.pos..]).map_or(self.text.len(), |i| self.pos + i);
    }

    /// Tag pair `[Name "value"]` (the value may hold `]`), or wrapper noise
    /// such as `[pgn]` / `[/pgn]`.
    fn skip_bracket(&mut self) {
        let rest = &self.text[self.pos..];
        let eol = find(b'\n', rest).unwrap_or(rest.len());
        let line = &rest[..eol];
        let name = line[1..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let quote = 1
            + name
            + line[1 + name..]
                .iter()
                .take_while(|b| **b == b' ' || **b == b'\t')
                .count();
        let end = if name > 0 && line.get(quote) == Some(&b'"') {
            let mut i = quote + 1;
            let mut close = None;
            while i < line.len() {
                match line[i] {
                    b'\\' => i += 2,
                    b'"' => {
                        close = Some(i);
                        break;
                    }
                    _ => i += 1,
                }
            }
            match close {
                Some(c) => find(b']', &line[c..]).map_or(c + 1, |k| c + k + 1),
                None => eol,
            }
        } else {
            find(b']', line).map_or(eol, |k| k + 1)
        };
        self.pos += end.max(1);
    }

    /// The next mainline token meant as a move; `comment` gets every
    /// mainline comment passed on the way (they belong to the move before
    /// the token). Inlined into the movetext loop for sure: left to the
    /// compiler, a change elsewhere in the crate could tip it into a call
    /// per move, 110 M instructions more on the lichess file.
    #[inline(always)]
    pub(crate) fn next_move_with(&mut self, mut comment: impl FnMut(Comment<'a>)) -> Option<Token> {
        let t = self.text;
        while let Some(&b) = t.get(self.pos) {
            match CLASS[b as usize] {
                SPACE => self.pos += 1,
                NEWLINE => {
                    self.pos += 1;
                    if self.started && self.depth == 0 && self.blank_line_follows() {
                        self.blank_pending = true;
                    }
                }
                PERCENT if self.at_line_start() => self.skip_to_eol(),
                BRACE => {
                    if self.depth == 0 {
                        if let Some((c, n)) = clock::braced_clk(&t[self.pos..]) {
                            self.pos += n;
                            // The space after it too, without a turn of the loop.
                            if t.get(self.pos) == Some(&b' ') {
                                self.pos += 1;
                            }
                            comment(Comment::Clock(c));
                            continue;
                        }
                    }
                    let from = self.pos + 1;
                    self.pos = from;
                    self.skip_past(b'}');
                    let closed = self.pos > from && self.text[self.pos - 1] == b'}';
                    if !closed {
                        self.unterminated_comment = Some(from - 1);
                    }
                    if self.depth == 0 {
                        let end = if closed { self.pos - 1 } else { self.pos };
                        comment(Comment::Text(&self.text[from..end.max(from)]));
                    }
                }
                SEMICOLON => self.skip_to_eol(),
                OPEN => {
                    self.depth += 1;
                    self.variations = true;
                    self.pos += 1;
                }
                CLOSE => {
                    if self.depth == 0 {
                        self.stray_close = true;
                    }
                    self.depth = self.depth.saturating_sub(1);
                    self.pos += 1;
                }
                BRACKET => self.skip_bracket(),
                PASS => self.pos += 1,
                DIGIT => {
                    // A move number (`12.`, `12...`): all digits, never a move.
                    let mut end = self.pos + 1;
                    while end < t.len() && t[end].is_ascii_digit() {
                        end += 1;
                    }
                    if end == t.len() || is_token_end(t[end]) {
                        // `12. ` and `12... `: the dots and a space at once.
                        while t.get(end) == Some(&b'.') {
                            end += 1;
                        }
                        if t.get(end) == Some(&b' ') {
                            end += 1;
                        } else if t.get(end).is_some_and(u8::is_ascii_digit) {
                            // A digit after the point: `0.5-0.5` perhaps.
                            if let Some(word) = decimal_result(t, self.pos) {
                                end = word;
                            }
                        }
                        self.pos = end;
                    } else if let Some(tok) = self.token() {
                        return Some(tok);
                    }
                }
                _ => {
                    if let Some(tok) = self.token() {
                        return Some(tok);
                    }
                }
            }
        }
        None
    }

    /// The token at `pos`, when it is meant as a move; moves past it either way.
    /// Inlined into both arms of the movetext loop: a call per token cost
    /// more than the token.
    #[inline(always)]
    fn token(&mut self) -> Option<Token> {
        let t = self.text;
        let start = self.pos;
        let mut end = start + 1;
        while end < t.len() && !is_token_end(t[end]) {
            end += 1;
        }
        self.pos = end;
        let tok = &t[start..end];
        if self.depth > 0 || tok[0] == b'$' || !is_move_like(tok) {
            return None;
        }
        self.started = true;
        if std::mem::take(&mut self.blank_pending) {
            self.blank_lines += 1;
        }
        Some(Token {
            start: start as u32,
            end: end as u32,
        })
    }
}

/// A token that starts like SAN (`e4`, `Nf3`, `O-O`) is one to read, bar
/// the `ep` of an `e.p.` marker; anything else goes through the full test.
#[inline]
fn is_move_like(tok: &[u8]) -> bool {
    match tok {
        b"ep" => false,
        [b'a'..=b'h' | b'K' | b'Q' | b'R' | b'B' | b'N' | b'O', _, ..] => true,
        _ => !is_number_or_result(tok),
    }
}

/// Move numbers, results, annotation glyphs (`±`, `⩱`, `+--`) and the `e.p.`
/// marker: tokens that are never moves.
fn is_number_or_result(tok: &[u8]) -> bool {
    if tok.iter().all(u8::is_ascii_digit) {
        return true;
    }
    if tok != b"--" && !tok.iter().any(u8::is_ascii_alphanumeric) {
        return true;
    }
    if matches!(tok, b"e" | b"p" | b"ep" | b"E" | b"P") {
        return true;
    }
    // Only a token starting with 1, 0 or ½ can be a result.
    if !matches!(tok.first(), Some(b'0' | b'1' | 0xc2)) {
        return false;
    }
    RESULTS.contains(&tok)
}

/// Where a result written in decimals (`0.5-0.5`) that starts at `start`
/// ends. Asked only where a digit follows the point after the first
/// digits, and only a whole word in the list is one, so a move number
/// (`12.`, `10.0-0` castling written with zeros) is never taken for one.
#[cold]
#[inline(never)]
fn decimal_result(t: &[u8], start: usize) -> Option<usize> {
    let end = t[start..]
        .iter()
        .position(|&b| b.is_ascii_whitespace() || matches!(b, b'{' | b'(' | b')' | b';'))
        .map_or(t.len(), |n| start + n);
    DECIMAL_RESULTS.contains(&&t[start..end]).then_some(end)
}

/// Results as some club software writes them, in points.
const DECIMAL_RESULTS: [&[u8]; 3] = [b"0.5-0.5", b"1.0-0.0", b"0.0-1.0"];

/// The results a movetext may end with, as written in the wild.
const RESULTS: [&[u8]; 19] = [
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    // A draw as a scoresheet writes it by hand: never a move.
    b"1/2",
    "½".as_bytes(),
    "½-½".as_bytes(),
    "½–½".as_bytes(),
    "½—½".as_bytes(),
    "1–0".as_bytes(),
    "0–1".as_bytes(),
    "1—0".as_bytes(),
    "0—1".as_bytes(),
    "1/2–1/2".as_bytes(),
    "1/2—1/2".as_bytes(),
    b"1-0ff",
    b"0-1ff",
    DECIMAL_RESULTS[0],
    DECIMAL_RESULTS[1],
    DECIMAL_RESULTS[2],
];

/// The game termination marker the game's text ends with (a result or
/// `*`, PGN 8.2.6), as a whole record does: without one it may be cut
/// short.
pub(crate) fn termination_marker(text: &[u8]) -> Option<&[u8]> {
    let mut t = text.trim_ascii_end();
    // A forum's `[pgn] ... [/pgn]` wrapper closes after the marker.
    if t.len() >= 6 && t[t.len() - 6..].eq_ignore_ascii_case(b"[/pgn]") {
        t = t[..t.len() - 6].trim_ascii_end();
    }
    let last = t
        .rsplit(|b| b.is_ascii_whitespace() || matches!(b, b'}' | b')'))
        .next()
        .unwrap_or_default();
    (last == b"*" || RESULTS.contains(&last)).then_some(last)
}

/// The marker as written and the result it gives (`1-0ff` is a win by
/// forfeit, `½–½` a draw); `None` for `*`, which gives none.
pub(crate) fn marker_result(marker: &[u8]) -> Option<(&str, crate::model::GameResult)> {
    let written = std::str::from_utf8(marker).ok()?;
    crate::model::GameResult::parse(written.trim_end_matches("ff"))
        .filter(|r| *r != crate::model::GameResult::Unknown)
        .map(|r| (written, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_termination_marker_ends_a_whole_record() {
        for (text, marker) in [
            ("1. e4 e5 1-0\n", Some("1-0")),
            ("1. e4 e5 *", Some("*")),
            ("1. e4 {end} 1/2-1/2 \r\n\n", Some("1/2-1/2")),
            ("1. e4 e5 {a comment}0-1", Some("0-1")),
            ("1. e4 e5 ½-½", Some("½-½")),
            ("1. e4 e5 1/2", Some("1/2")),
            ("1. e4 e5 ½", Some("½")),
            ("[pgn]1. e4 e5 1-0 [/pgn]\n", Some("1-0")),
            ("[Result \"1-0\"]\n", None),
            ("[pgn]1. e4 e5 [/PGN]", None),
            ("1. e4 e5 2. Nf3", None),
            ("1. e4 e5 {1-0}", None),
            ("1. e4 e5 21-0", None),
            ("", None),
        ] {
            assert_eq!(
                termination_marker(text.as_bytes()),
                marker.map(str::as_bytes),
                "{text:?}"
            );
        }
    }

    fn moves(text: &str) -> Vec<(String, u32)> {
        let mut s = Scanner::new(text.as_bytes());
        let mut out = vec![];
        while let Some(t) = s.next_move_with(|_| {}) {
            out.push((
                String::from_utf8_lossy(t.text(text.as_bytes())).into_owned(),
                t.line(text.as_bytes()),
            ));
        }
        out
    }

    #[test]
    fn finds_mainline_moves_with_lines() {
        let got = moves("[Event \"a]b\"]\n[White \"x\"]\n\n1. e4 {c [%clk 0:01:00]\n more} e5 (1... c5 2. Nf3) 2. Nf3!? $1 Nc6\n% escaped line\n3... Xq9 1-0");
        let want: Vec<(String, u32)> = [("e4", 4), ("e5", 5), ("Nf3", 5), ("Nc6", 5), ("Xq9", 7)]
            .iter()
            .map(|(m, l)| (m.to_string(), *l))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn wrapper_and_results_are_not_moves() {
        assert_eq!(moves("[pgn][Event \"x\"]\n1. d4 ½-½ [/pgn]").len(), 1);
        assert_eq!(moves("1.e4 e5 2.Nf3 1–0").len(), 3);
    }

    #[test]
    fn results_in_points_are_not_moves_and_castling_in_zeros_is() {
        let names =
            |text: &str| -> Vec<String> { moves(text).into_iter().map(|(m, _)| m).collect() };
        assert_eq!(names("1. e4 e5 2. Nf3 0.5-0.5"), ["e4", "e5", "Nf3"]);
        assert_eq!(names("1. e4 e5 1.0-0.0\n"), ["e4", "e5"]);
        assert_eq!(names("1. e4 e5 {x} 0.0-1.0"), ["e4", "e5"]);
        assert_eq!(names("9. e4 e5 10.0-0 0-0-0"), ["e4", "e5", "0-0", "0-0-0"]);
        assert_eq!(names("1. e4 0.5-0.5x"), ["e4", "5-0", "5x"]);
        for (text, marker) in [
            ("1. e4 e5 0.5-0.5", "0.5-0.5"),
            ("1. e4 1.0-0.0\n", "1.0-0.0"),
        ] {
            assert_eq!(termination_marker(text.as_bytes()), Some(marker.as_bytes()));
        }
        assert_eq!(
            marker_result(b"0.0-1.0"),
            Some(("0.0-1.0", crate::model::GameResult::BlackWins))
        );
    }
}
