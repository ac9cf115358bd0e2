//! The tag pairs of one game, read straight from its text. The movetext has
//! its own scanner (`scan.rs`); reading the tags here as well, in the same
//! buffer, spares a second pass through pgn-reader and the copy into its
//! buffer (a sixth of the parse). The reading follows pgn-reader's rules to
//! the byte — the name is what stands before the opening quote less one
//! space, `\` escapes the next byte, a value ends at its closing quote or
//! the end of the line, a line without a quote is skipped — and a test reads
//! every game of the shared files both ways and compares. Sections of plain
//! `[Name "value"]` lines (every export's) are read in one pass that also
//! finds where the movetext starts; the rest go the general way.

use std::borrow::Cow;

use super::{decode_text, Tags};

/// The text as pgn-reader sees it here: the tag section, then one newline.
struct Cursor<'a> {
    d: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        match self.d.get(i) {
            Some(&b) => Some(b),
            None if i == self.d.len() => Some(b'\n'),
            None => None,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.at(self.i)
    }

    fn end(&self) -> usize {
        self.d.len() + 1
    }

    /// First of `a`, `b`, `c` from `from` on.
    fn find3(&self, from: usize, a: u8, b: u8, c: u8) -> Option<usize> {
        let hay = self.d.get(from..).unwrap_or_default();
        match memchr::memchr3(a, b, c, hay) {
            Some(k) => Some(from + k),
            // The closing newline is one of the three in every use.
            None if from <= self.d.len() => Some(self.d.len()),
            None => None,
        }
    }

    fn skip_past(&mut self, needle: u8) {
        self.i = match memchr::memchr(needle, self.d.get(self.i..).unwrap_or_default()) {
            Some(k) => self.i + k + 1,
            None => self.end(),
        };
    }

    fn skip_whitespace(&mut self, mut new_line: bool) {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\n' => {
                    new_line = true;
                    self.i += 1;
                }
                b'%' if new_line => {
                    self.i += 1;
                    self.skip_past(b'\n');
                }
                _ => return,
            }
        }
    }

    /// After a tag: blanks, then the `]` or the end of the line.
    fn skip_ket(&mut self) {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return self.skip_whitespace(false);
                }
                b'\n' => {
                    self.i += 1;
                    return self.skip_whitespace(true);
                }
                _ => return,
            }
        }
    }

    /// What pgn-reader would read as movetext before the next game: up to a
    /// newline followed by `[` or a blank line.
    fn skip_movetext(&mut self) -> Result<(), &'static str> {
        while let Some(b) = self.peek() {
            self.i += 1;
            match b {
                b'{' => {
                    if memchr::memchr(b'}', self.d.get(self.i..).unwrap_or_default()).is_none() {
                        self.i = self.end();
                        return Err("unterminated comment");
                    }
                    self.skip_past(b'}');
                }
                b';' => {
                    self.i = self
                        .find3(self.i, b'\n', b'\n', b'\n')
                        .unwrap_or(self.end())
                }
                b'\n' => match self.peek() {
                    Some(b'%') => {
                        self.i += 1;
                        self.i = self
                            .find3(self.i, b'\n', b'\n', b'\n')
                            .unwrap_or(self.end());
                    }
                    Some(b'[' | b'\n') => return Ok(()),
                    Some(b'\r') => {
                        self.i += 1;
                        if self.peek() == Some(b'\n') {
                            return Ok(());
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        Ok(())
    }
}

/// A tag's value where it says something: trimmed, and not empty or the
/// PGN standard's `?` for "unknown".
pub(crate) fn given(value: &str) -> Option<&str> {
    let v = value.trim();
    (!v.is_empty() && v != "?").then_some(v)
}

/// Reads every tag pair in `section` (a game's text up to its movetext)
/// into `tags`. A later pair of the same name wins. `Err` is pgn-reader's
/// message for a section it cannot read (the tags read before stay).
pub fn read_tags(section: &[u8], tags: &mut Tags) -> Result<(), &'static str> {
    let mut c = Cursor { d: section, i: 0 };
    loop {
        if section
            .get(c.i..)
            .is_some_and(|r| r.starts_with(b"\xef\xbb\xbf"))
        {
            c.i += 3;
        }
        c.skip_whitespace(true);
        if c.peek().is_none() {
            return Ok(());
        }
        while c.peek() == Some(b'[') {
            c.i += 1;
            let open = c.i;
            let Some(quote) = c.find3(open, b'"', b'\n', b']') else {
                return Err("unterminated tag");
            };
            if c.at(quote) != Some(b'"') {
                c.i = quote + 1;
                c.skip_ket();
                continue;
            }
            let name_end = if quote > open && section[quote - 1] == b' ' {
                quote - 1
            } else {
                quote
            };
            let value_start = quote + 1;
            let mut r = value_start;
            let (value_end, next) = loop {
                let Some(k) = c.find3(r, b'\\', b'"', b'\n') else {
                    return Err("unterminated tag");
                };
                match c.at(k) {
                    Some(b'"') => match inner_quote_end(section, k) {
                        // `"Club "Summer" Open"`: quotes typed inside the
                        // value, not escaped; read to the quote the `]` follows.
                        Some(last) => {
                            tags.inner_quotes.push(
                                String::from_utf8_lossy(&section[open..name_end]).into_owned(),
                            );
                            break (last, last + 1);
                        }
                        None => break (k, k + 1),
                    },
                    Some(b'\n') => break (k, k),
                    _ => r = (k + 2).min(c.end()),
                }
            };
            let mut value = section.get(value_start..value_end).unwrap_or_default();
            let name = &section[open..name_end];
            if c.at(value_end) == Some(b'\n') {
                // No closing quote: the value is the line, less its `]`.
                value = value.trim_ascii_end();
                value = value.strip_suffix(b"]").unwrap_or(value).trim_ascii_end();
                tags.unclosed
                    .push(String::from_utf8_lossy(name).into_owned());
            }
            set(tags, name, value);
            c.i = next;
            c.skip_ket();
        }
        c.skip_movetext()?;
    }
}

/// Where a value's closing quote at `quote` is not followed by the tag's
/// `]`, but a later quote on the line is (`"Club "Summer" Open"]`): that
/// quote, the value's true end (the quotes between were typed unescaped).
/// `None` where the quote ends the value as written, or where a `[` comes
/// first (`[Event "A" [Site "S"]`: two tags on the line, the first
/// unclosed).
fn inner_quote_end(section: &[u8], quote: usize) -> Option<usize> {
    let rest = section.get(quote + 1..)?;
    let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
    let closes = |at: usize| line[at + 1..].trim_ascii_start().starts_with(b"]");
    let after = line.trim_ascii_start();
    if after.is_empty() || after.starts_with(b"]") {
        return None;
    }
    let end = memchr::memchr_iter(b'"', line).find(|&q| closes(q))?;
    (!line[..end].contains(&b'[')).then_some(quote + 1 + end)
}

/// The common case in one pass: a tag section of plain lines, each
/// `[Name "value"]` and a line end, with no escapes, `%` lines or other
/// oddities, read as `read_tags` reads it. Returns where the movetext
/// starts (as `scan::tags_end` finds it), or `None` at the first line that
/// is not plain: the caller then reads the section the general way, afresh.
pub fn read_plain_tags(text: &[u8], tags: &mut Tags) -> Option<usize> {
    let mut i = 0;
    loop {
        match text.get(i) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => i += 1,
            Some(b'[') => {
                // Names and values are short (`Event`, a date, `180+0`):
                // a loop over the bytes, one table lookup each, beats a
                // memchr call for each stop.
                let open = i + 1;
                let name_end = open + run_of(NAME, &text[open..]);
                if name_end == open || text.get(name_end..name_end + 2) != Some(b" \"") {
                    return None;
                }
                let value_start = name_end + 2;
                let close = value_start + run_of(VALUE, &text[value_start..]);
                if text.get(close) != Some(&b'"') {
                    return None;
                }
                i = match text.get(close + 1..close + 3)? {
                    [b']', b'\n', ..] => close + 3,
                    [b']', b'\r', ..] if text.get(close + 3) == Some(&b'\n') => close + 4,
                    _ => return None,
                };
                set_unescaped(tags, &text[open..name_end], &text[value_start..close]);
            }
            // A `%` escape line, or a byte-order mark: the general way.
            Some(b'%') => return None,
            Some(0xef) if i == 0 => return None,
            _ => return Some(i),
        }
    }
}

/// Byte classes for `read_plain_tags`: the bytes of a tag name, and the
/// bytes a plain value may hold (all but `"`, `\` and a line end).
const NAME: u8 = 1;
const VALUE: u8 = 2;
const TAG_BYTES: [u8; 256] = {
    let mut t = [VALUE; 256];
    t[b'"' as usize] = 0;
    t[b'\\' as usize] = 0;
    t[b'\n' as usize] = 0;
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || c == b'_' {
            t[b] |= NAME;
        }
        b += 1;
    }
    t
};

/// How many bytes from the start of `text` are of `class`.
#[inline]
fn run_of(class: u8, text: &[u8]) -> usize {
    text.iter()
        .position(|&b| TAG_BYTES[usize::from(b)] & class == 0)
        .unwrap_or(text.len())
}

fn set(t: &mut Tags, name: &[u8], value: &[u8]) {
    set_unescaped(t, name, &unescape(value));
}

/// `set` for a value with no escapes left in it.
fn set_unescaped(t: &mut Tags, name: &[u8], value: &[u8]) {
    t.count += 1;
    let Some(slot) = t.slot_mut(name) else {
        return;
    };
    let text = decode_text(value);
    slot.clear();
    slot.push_str(&text);
    if let Cow::Owned(_) = text {
        if let Ok(name) = std::str::from_utf8(name) {
            t.redecoded.push(name.to_string());
        }
    }
}

/// `\"` and `\\` inside a value stand for `"` and `\`.
fn unescape(v: &[u8]) -> Cow<'_, [u8]> {
    if memchr::memchr(b'\\', v).is_none() {
        return Cow::Borrowed(v);
    }
    let mut out = Vec::with_capacity(v.len());
    let mut i = 0;
    while i < v.len() {
        if v[i] == b'\\' && matches!(v.get(i + 1), Some(b'\\' | b'"')) {
            i += 1;
        }
        out.push(v[i]);
        i += 1;
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &[u8]) -> (Tags, Result<(), &'static str>) {
        let mut t = Tags::default();
        let r = read_tags(s, &mut t);
        (t, r)
    }

    #[test]
    fn names_values_escapes_and_odd_lines() {
        let (t, r) = read(
            b"\xef\xbb\xbf[Event \"a] \\\"b\\\" \\\\c\"]\n% escaped\n[pgn]\n[White  \"two spaces\"]\n[Black \"no close\n[Result \"1-0\"] [Site \"s\"]\n\n[Date \"d\"]\n",
        );
        assert_eq!(r, Ok(()));
        assert_eq!(t.event, "a] \"b\" \\c");
        // Two spaces: the name keeps one and is not `White`.
        assert_eq!(t.white, "");
        assert_eq!(t.black, "no close");
        assert_eq!((t.result.as_str(), t.site.as_str()), ("1-0", "s"));
        // After a blank line pgn-reader starts a "new game": still read.
        assert_eq!(t.date, "d");
        assert_eq!(t.count, 6);
    }

    #[test]
    fn windows_1252_is_noted() {
        let (t, _) = read(b"[White \"\x8aa\x9ami\x9e\"]\n");
        assert_eq!(t.white, "\u{160}a\u{161}mi\u{17e}");
        assert_eq!(t.redecoded, ["White"]);
    }

    #[test]
    fn plain_sections_in_one_pass_others_refused() {
        let text = b"[Event \"a] b\"]\r\n[White \"W\"]\n\n1. e4 *";
        let mut t = Tags::default();
        assert_eq!(read_plain_tags(text, &mut t), Some(16 + 12 + 1));
        assert_eq!(
            (t.event.as_str(), t.white.as_str(), t.count),
            ("a] b", "W", 2)
        );
        // No tags at all: the movetext starts after the blank lines.
        assert_eq!(read_plain_tags(b"\n 1. e4", &mut Tags::default()), Some(2));
        // Digits and `_` in names, UTF-8 and brackets in values.
        let text = "[White_Elo2 \"x\"]\n[Black \"Ørjan [NO]\"]\n1. e4".as_bytes();
        let mut t = Tags::default();
        assert_eq!(read_plain_tags(text, &mut t), Some(text.len() - 5));
        assert_eq!((t.black.as_str(), t.count), ("Ørjan [NO]", 2));
        for odd in [
            &b"[Event \"a\\\"b\"]\n1. e4"[..],
            b"\xef\xbb\xbf[Event \"a\"]\n1. e4",
            b"[Event \"a\"]\n% note\n1. e4",
            b"[Event \"a\"] [Site \"s\"]\n1. e4",
            b"[Event  \"a\"]\n1. e4",
            b"[Event \"a\"\n1. e4",
            b"[Event \"a\nb\"]\n1. e4",
            b"[pgn]\n1. e4",
            b"[Event \"a\"]",
        ] {
            let mut t = Tags::default();
            assert_eq!(
                read_plain_tags(odd, &mut t),
                None,
                "{}",
                String::from_utf8_lossy(odd)
            );
        }
    }

    /// A value with no closing quote is read to its line's end, less the
    /// bracket, and named; the next tag is read whole.
    #[test]
    fn a_value_with_no_closing_quote() {
        let (t, r) = read(b"[White \"Quote, E]\n[Black \"B\"]\n\n1. e4 *");
        assert_eq!(r, Ok(()));
        assert_eq!((t.white.as_str(), t.black.as_str()), ("Quote, E", "B"));
        assert_eq!(t.unclosed, ["White"]);
        let (t, _) = read(b"[White \"A\"]\n");
        assert!(t.unclosed.is_empty());
    }

    /// Quotes typed inside a value, unescaped, are kept: the value runs
    /// to the first quote its `]` follows, and the tag is named. It was
    /// cut at the first quote (`Club `).
    #[test]
    fn quotes_typed_inside_a_value() {
        let (t, r) = read(
            b"[Event \"Club \"Summer\" Open\"]\n[White \"Smith, John \"Jack\"\" ]\n[Black \"B\"] [Site \"S\"]\n[Round \"1\" x]\n\n1. e4 *",
        );
        assert_eq!(r, Ok(()));
        assert_eq!(t.event, "Club \"Summer\" Open");
        assert_eq!(t.white, "Smith, John \"Jack\"");
        assert_eq!((t.black.as_str(), t.site.as_str()), ("B", "S"));
        // Text after the value that ends in no quote: read as before.
        assert_eq!(t.round, "1");
        assert_eq!(t.inner_quotes, ["Event", "White"]);
        // The first quote the tag's `]` follows ends it; a `[` before any
        // such quote is another tag on the line, read as before.
        let (t, _) = read(
            b"[Event \"Club \"Summer\" Open\"] [Site \"S\"]\n[Date \"A\" [Round \"R\"]\n\n1. e4 *",
        );
        assert_eq!(t.event, "Club \"Summer\" Open");
        assert_eq!(
            (t.site.as_str(), t.date.as_str(), t.round.as_str()),
            ("S", "A", "R")
        );
        assert_eq!(t.inner_quotes, ["Event"]);
    }

    #[test]
    fn a_trailing_escape_is_an_unterminated_tag() {
        assert_eq!(read(b"[Event \"x\\").1, Err("unterminated tag"));
    }
}
