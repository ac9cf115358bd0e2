//! Clock commands inside PGN comments (`[%clk]`, `[%emt]`, `[%egt]`), as the
//! PGN supplement defines them and as real exports write them: one or two digit
//! hours, optional tenths, anywhere in a comment beside other commands.

use crate::model::Clock;

/// The time commands found in one comment. A later command of the same kind
/// wins, as it would on a board reading the comment left to right.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockCommands {
    pub clk: Option<Clock>,
    pub emt: Option<Clock>,
    pub egt: Option<Clock>,
}

impl ClockCommands {
    pub fn is_empty(&self) -> bool {
        self.clk.is_none() && self.emt.is_none() && self.egt.is_none()
    }

    pub fn merge(&mut self, other: ClockCommands) {
        self.clk = other.clk.or(self.clk);
        self.emt = other.emt.or(self.emt);
        self.egt = other.egt.or(self.egt);
    }
}

/// Scans a comment for time commands. Never fails: a malformed command is
/// simply not a clock reading.
pub fn parse_comment(comment: &[u8]) -> ClockCommands {
    let mut out = ClockCommands::default();
    let mut rest = comment;
    while let Some(at) = memchr::memchr(b'[', rest) {
        if rest.get(at + 1) != Some(&b'%') {
            rest = &rest[at + 1..];
            continue;
        }
        rest = &rest[at + 2..];
        let name_len = rest
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(name_len);
        let end = match memchr::memchr(b']', after) {
            Some(e) => e,
            None => break,
        };
        let value = trim(&after[..end]);
        match name {
            b"clk" => out.clk = parse_duration(value).or(out.clk),
            b"emt" => out.emt = parse_duration(value).or(out.emt),
            b"egt" => out.egt = parse_duration(value).or(out.egt),
            _ => {}
        }
        rest = &after[end..];
    }
    out
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
pub fn parse_duration(s: &[u8]) -> Option<Clock> {
    if s.is_empty() || s.len() > 24 {
        return None;
    }
    let (whole, frac) = match memchr::memchr(b'.', s) {
        Some(dot) => (&s[..dot], Some(&s[dot + 1..])),
        None => (s, None),
    };
    let mut parts = [0u32; 3];
    let mut n = 0;
    for field in whole.split(|&b| b == b':') {
        if n == 3 || field.is_empty() || field.len() > 6 || !field.iter().all(u8::is_ascii_digit)
        {
            return None;
        }
        parts[n] = field.iter().fold(0u32, |a, &d| a * 10 + u32::from(d - b'0'));
        n += 1;
    }
    let secs = match n {
        1 => parts[0],
        2 if parts[1] < 60 => parts[0] * 60 + parts[1],
        3 if parts[1] < 60 && parts[2] < 60 => parts[0] * 3600 + parts[1] * 60 + parts[2],
        _ => return None,
    };
    let tenth = match frac {
        None => None,
        Some(f) if !f.is_empty() && f.iter().all(u8::is_ascii_digit) => Some(u32::from(f[0] - b'0')),
        Some(_) => return None,
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
    fn clock_comment_table() {
        let cases: &[(&str, Option<Clock>)] = &[
            (" [%clk 0:01:30] ", c(90)),
            ("[%clk 1:05:23]", c(3923)),
            ("[%clk 01:14:46]", c(4486)),
            ("[%eval 0.3] [%clk 0:01:00]", c(60)),
            ("[%clk 0:00:07][%eval -6.05] White is toast", c(7)),
            ("Optional leading [%clk 1:55:21] trailing", c(6921)),
            ("[%ts 1754850615931][%clk 01:14:46][%emt 00:15:43]", c(4486)),
            ("[%clk 0:02:00.9]", Some(Clock { tenths: 1209, precise: true })),
            ("[%clk 0:00:00.0]", Some(Clock { tenths: 0, precise: true })),
            ("[%clk 0:00:00]", c(0)),
            ("[%clk 12:00:00]", c(43200)),
            ("[%clk 0:61:00]", None),
            ("[%clk garbage]", None),
            ("[%clk 0:01:00", None),
            ("no commands here", None),
            ("[%eval #-4]", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_comment(text.as_bytes()).clk, *want, "comment {text:?}");
        }
    }

    #[test]
    fn elapsed_commands() {
        let cc = parse_comment(b"[%clk 01:14:46][%emt 00:15:43][%egt 00:15:43]");
        assert_eq!(cc.emt, c(943));
        assert_eq!(cc.egt, c(943));
        assert_eq!(parse_comment(b"[%emt 102.34]").emt, Some(Clock { tenths: 1023, precise: true }));
        assert_eq!(parse_comment(b"[%emt 0:05]").emt, c(5));
    }
}
