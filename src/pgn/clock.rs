//! Clock commands inside PGN comments (`[%clk]`, `[%emt]`, `[%egt]`), as the
//! PGN supplement defines them and as real exports write them: one or two digit
//! hours, optional tenths, anywhere in a comment beside other commands.

use crate::model::Clock;

/// The time commands found in one comment. A later command of the same kind
/// wins, as it would on a board reading the comment left to right.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockCommands {
    pub(crate) clk: Option<Clock>,
    pub(crate) emt: Option<Clock>,
    pub(crate) egt: Option<Clock>,
    /// A `[%clk` command that cannot be read (no closing `]`, or not a
    /// time: `0:75:00`, `0:00:0O`), with no readable one after it.
    pub(crate) bad_clk: bool,
}

impl ClockCommands {
    pub(crate) fn merge(&mut self, other: ClockCommands) {
        if other.clk.is_some() {
            self.bad_clk = false;
        }
        self.bad_clk |= other.bad_clk;
        self.clk = other.clk.or(self.clk);
        self.emt = other.emt.or(self.emt);
        self.egt = other.egt.or(self.egt);
    }
}

/// Scans a comment for time commands. Never fails: a malformed command is
/// simply not a clock reading.
pub fn parse_comment(comment: &[u8]) -> ClockCommands {
    if let Some(c) = lone_clk(comment) {
        return ClockCommands {
            clk: Some(c),
            ..ClockCommands::default()
        };
    }
    let mut out = ClockCommands::default();
    let mut i = 0;
    while let Some(at) = crate::read::find(b'[', &comment[i..]) {
        let start = i + at + 1;
        i = start;
        let rest = &comment[start..];
        if rest.first() != Some(&b'%') {
            continue;
        }
        let name_len = rest[1..]
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(rest.len() - 1);
        let name = &rest[1..1 + name_len];
        let after = &rest[1 + name_len..];
        let Some(end) = after.iter().position(|&b| b == b']') else {
            out.bad_clk |= name == b"clk";
            break;
        };
        let slot = match name {
            b"clk" => &mut out.clk,
            b"emt" => &mut out.emt,
            b"egt" => &mut out.egt,
            _ => {
                i = start + 1 + name_len + end;
                continue;
            }
        };
        match parse_duration(trim(&after[..end])) {
            Some(c) => {
                *slot = Some(c);
                if name == b"clk" {
                    out.bad_clk = false;
                }
            }
            None => out.bad_clk |= name == b"clk",
        }
        i = start + 1 + name_len + end;
    }
    out
}

/// `H:MM:SS` or `HH:MM:SS`, optionally `.d`: what nearly every export writes.
#[inline]
fn hms_fast(s: &[u8]) -> Option<Clock> {
    let d = |b: u8| b.wrapping_sub(b'0');
    let (h, rest) = match s {
        [a, b':', rest @ ..] if d(*a) < 10 => (u32::from(d(*a)), rest),
        [a, b, b':', rest @ ..] if d(*a) < 10 && d(*b) < 10 => {
            (u32::from(d(*a) * 10 + d(*b)), rest)
        }
        _ => return None,
    };
    let (m1, m2, s1, s2, tail) = match rest {
        [m1, m2, b':', s1, s2, tail @ ..] => (d(*m1), d(*m2), d(*s1), d(*s2), tail),
        _ => return None,
    };
    if m1 > 5 || m2 > 9 || s1 > 5 || s2 > 9 {
        return None;
    }
    let secs = h * 3600 + u32::from(m1 * 10 + m2) * 60 + u32::from(s1 * 10 + s2);
    match tail {
        [] => Some(Clock::secs(secs)),
        [b'.', t, more @ ..] if d(*t) < 10 && more.iter().all(u8::is_ascii_digit) => Some(Clock {
            tenths: secs * 10 + u32::from(d(*t)),
            precise: true,
        }),
        _ => None,
    }
}

/// `{ [%clk H:MM:SS] }` at the start of `text`, exactly as lichess writes
/// it after every move: the clock and the length through the `}`. Anything
/// else (tenths, two-digit hours, other commands) is `None`, for the
/// general reading.
#[inline]
pub(crate) fn braced_clk(text: &[u8]) -> Option<(Clock, usize)> {
    let r: &[u8; 18] = text.get(..18)?.try_into().ok()?;
    if &r[..8] != b"{ [%clk " || r[9] != b':' || r[12] != b':' || &r[15..] != b"] }" {
        return None;
    }
    let d = |i: usize| r[i].wrapping_sub(b'0');
    let (h, m1, m2, s1, s2) = (d(8), d(10), d(11), d(13), d(14));
    if h > 9 || m1 > 5 || m2 > 9 || s1 > 5 || s2 > 9 {
        return None;
    }
    let secs = u32::from(h) * 3600 + u32::from(m1 * 10 + m2) * 60 + u32::from(s1 * 10 + s2);
    Some((Clock::secs(secs), 18))
}

/// The comment most exports write after every move, `{ [%clk 0:01:00] }`,
/// read without the general scan.
#[inline]
fn lone_clk(comment: &[u8]) -> Option<Clock> {
    let c = trim(comment);
    let inner = c.strip_prefix(b"[%clk ")?.strip_suffix(b"]")?;
    parse_duration(inner)
}

fn trim(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &s[start..end]
}

/// `h:mm:ss`, `hh:mm:ss`, `mm:ss`, or plain seconds, each with optional
/// decimals (kept to tenths, truncated like a clock display).
pub(crate) fn parse_duration(s: &[u8]) -> Option<Clock> {
    if let Some(c) = hms_fast(s) {
        return Some(c);
    }
    if s.is_empty() || s.len() > 24 {
        return None;
    }
    let mut fields = [0u32; 3];
    let mut n = 0usize;
    let mut digits = 0usize;
    let mut tenth: Option<u32> = None;
    let mut frac = false;
    for &b in s {
        match b {
            b'0'..=b'9' if frac => {
                if tenth.is_none() {
                    tenth = Some(u32::from(b - b'0'));
                }
                digits += 1;
            }
            b'0'..=b'9' => {
                if digits == 6 {
                    return None;
                }
                fields[n] = fields[n] * 10 + u32::from(b - b'0');
                digits += 1;
            }
            b':' if !frac && digits > 0 && n < 2 => {
                n += 1;
                digits = 0;
            }
            b'.' if !frac && digits > 0 => {
                frac = true;
                digits = 0;
            }
            _ => return None,
        }
    }
    if digits == 0 {
        return None;
    }
    let secs = match n {
        0 => fields[0],
        1 if fields[1] < 60 => fields[0] * 60 + fields[1],
        2 if fields[1] < 60 && fields[2] < 60 => fields[0] * 3600 + fields[1] * 60 + fields[2],
        _ => return None,
    };
    Some(Clock {
        tenths: secs.checked_mul(10)? + tenth.unwrap_or(0),
        precise: tenth.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: u32) -> Option<Clock> {
        Some(Clock::secs(s))
    }

    #[test]
    fn braced_clock_reads_only_the_lichess_form_and_agrees() {
        for text in [
            "{ [%clk 0:02:59] } 2. Nf3",
            "{ [%clk 9:59:59] }",
            "{ [%clk 0:00:00] }",
        ] {
            let (c, n) = braced_clk(text.as_bytes()).expect(text);
            assert_eq!(n, 18, "{text}");
            assert_eq!(
                Some(c),
                parse_comment(&text.as_bytes()[1..n - 1]).clk,
                "{text}"
            );
        }
        for text in [
            "{ [%clk 0:02:59.5] }",
            "{ [%clk 10:02:59] }",
            "{ [%clk 0:62:59] }",
            "{ [%clk 0:02:5x] }",
            "{ [%eval 0.2] [%clk 0:02:59] }",
            "{[%clk 0:02:59]}",
            "{ [%clk 0:02:59] ",
        ] {
            assert_eq!(braced_clk(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn a_clock_command_that_cannot_be_read_is_marked() {
        for (text, bad) in [
            ("[%clk 0:00:00.0 ", true),
            ("[%clk 0:00:0O]", true),
            ("[%clk 0:75:00]", true),
            ("[%clk 0:75:00] [%clk 0:01:00]", false),
            ("[%clk 0:01:00]", false),
            ("[%eval 0.3 and a note", false),
            ("[%emt 0:0x:00]", false),
        ] {
            assert_eq!(parse_comment(text.as_bytes()).bad_clk, bad, "{text}");
        }
        // Comments of one move, in order: a readable reading after a bad
        // one clears it; a bad one after a readable one is the last word.
        let (bad, good) = (
            parse_comment(b"[%clk 0:75:00]"),
            parse_comment(b"[%clk 0:01:00]"),
        );
        let mut a = bad;
        a.merge(good);
        assert!(!a.bad_clk && a.clk == c(60));
        let mut b = good;
        b.merge(bad);
        assert!(b.bad_clk);
    }

    #[test]
    fn clock_comment_table() {
        let cases: &[(&str, Option<Clock>)] = &[
            (" [%clk 0:01:30] ", c(90)),
            ("[%clk 1:05:23]", c(3923)),
            ("[%clk 01:14:46]", c(4486)),
            ("[%eval 0.3] [%clk 0:01:00]", c(60)),
            ("[%clk 0:00:07][%eval -6.05] White is toast", c(7)),
            ("Optional leading [%clk 1:55:21] trailing", c(6921)),
            ("[%ts 1754850615931][%clk 01:14:46][%emt 00:15:43]", c(4486)),
            (
                "[%clk 0:02:00.9]",
                Some(Clock {
                    tenths: 1209,
                    precise: true,
                }),
            ),
            (
                "[%clk 0:00:00.0]",
                Some(Clock {
                    tenths: 0,
                    precise: true,
                }),
            ),
            ("[%clk 0:00:00]", c(0)),
            ("[%clk 12:00:00]", c(43200)),
            ("[%clk 0:61:00]", None),
            ("[%clk garbage]", None),
            ("[%clk 0:01:00", None),
            ("no commands here", None),
            ("[%eval #-4]", None),
        ];
        for (text, want) in cases {
            assert_eq!(
                parse_comment(text.as_bytes()).clk,
                *want,
                "comment {text:?}"
            );
        }
    }

    #[test]
    fn elapsed_commands() {
        let cc = parse_comment(b"[%clk 01:14:46][%emt 00:15:43][%egt 00:15:43]");
        assert_eq!(cc.emt, c(943));
        assert_eq!(cc.egt, c(943));
        assert_eq!(
            parse_comment(b"[%emt 102.34]").emt,
            Some(Clock {
                tenths: 1023,
                precise: true
            })
        );
        assert_eq!(parse_comment(b"[%emt 0:05]").emt, c(5));
    }
}
