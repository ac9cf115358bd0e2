//! The `TimeControl` tag (PGN standard §9.6.1): `?`, `-`, `moves/secs`,
//! `secs`, `secs+inc`, `*secs`, several periods joined by `:` (the last one
//! repeats), plus the increment-from-move-one extension `40/5400+30:1800+30`.

use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Period {
    /// `moves/secs[+inc]`: this many moves in this many seconds.
    Moves { moves: u32, secs: u32, inc: u32 },
    /// `secs[+inc]`: all remaining moves.
    SuddenDeath { secs: u32, inc: u32 },
    /// `*secs`: sandclock.
    Sandclock { secs: u32 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `?`
    Unknown,
    /// `-`
    Untimed,
    Periods(Vec<Period>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TcError(pub String);

impl fmt::Display for TcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a PGN time control: {:?}", self.0)
    }
}

impl std::error::Error for TcError {}

fn num(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn secs_inc(s: &str) -> Option<(u32, u32)> {
    match s.split_once('+') {
        Some((a, b)) => Some((num(a)?, num(b)?)),
        None => Some((num(s)?, 0)),
    }
}

impl TimeControl {
    pub fn parse(tag: &str) -> Result<TimeControl, TcError> {
        let t = tag.trim();
        match t {
            "?" | "" => return Ok(TimeControl::Unknown),
            "-" => return Ok(TimeControl::Untimed),
            _ => {}
        }
        let err = || TcError(tag.to_string());
        let mut periods = Vec::with_capacity(1);
        let mut descriptors = t.split(':').peekable();
        while let Some(d) = descriptors.next() {
            let last = descriptors.peek().is_none();
            let p = if let Some(s) = d.strip_prefix('*') {
                Period::Sandclock {
                    secs: num(s).ok_or_else(err)?,
                }
            } else if let Some((m, rest)) = d.split_once('/') {
                let (secs, inc) = secs_inc(rest).ok_or_else(err)?;
                let moves = num(m).filter(|&m| m > 0).ok_or_else(err)?;
                Period::Moves { moves, secs, inc }
            } else {
                let (secs, inc) = secs_inc(d).ok_or_else(err)?;
                Period::SuddenDeath { secs, inc }
            };
            // Sudden death and sandclock end the list (PGN §9.6.1).
            if !last && !matches!(p, Period::Moves { .. }) {
                return Err(err());
            }
            periods.push(p);
        }
        Ok(TimeControl::Periods(periods))
    }

    pub(crate) fn periods(&self) -> &[Period] {
        match self {
            TimeControl::Periods(p) => p,
            _ => &[],
        }
    }

    pub(crate) fn is_timed(&self) -> bool {
        !self.periods().is_empty()
    }

    /// Seconds on each clock at the start.
    pub(crate) fn base_secs(&self) -> Option<u32> {
        self.periods().first().map(|p| match *p {
            Period::Moves { secs, .. }
            | Period::SuddenDeath { secs, .. }
            | Period::Sandclock { secs } => secs,
        })
    }

    /// Index of the period that the side's `n`th move (1-based) is played in.
    pub(crate) fn period_index(&self, n: u32) -> Option<usize> {
        let ps = self.periods();
        let mut done = 0u32;
        for (i, p) in ps.iter().enumerate() {
            match *p {
                Period::Moves { moves, .. } => {
                    if n <= done.saturating_add(moves) {
                        return Some(i);
                    }
                    done = done.saturating_add(moves);
                    if i + 1 == ps.len() {
                        return Some(i); // the last descriptor repeats
                    }
                }
                _ => return Some(i),
            }
        }
        None
    }

    /// Increment earned by the side's `n`th move.
    pub(crate) fn increment(&self, n: u32) -> u32 {
        match self.period_index(n).map(|i| self.periods()[i]) {
            Some(Period::Moves { inc, .. }) | Some(Period::SuddenDeath { inc, .. }) => inc,
            _ => 0,
        }
    }

    /// The increment when it is the same for every move and no period ever
    /// adds time (one sudden-death period): the common case, kept cheap.
    pub(crate) fn uniform_increment(&self) -> Option<u32> {
        match self.periods() {
            [Period::SuddenDeath { inc, .. }] => Some(*inc),
            [Period::Sandclock { .. }] => Some(0),
            _ => None,
        }
    }

    /// Seconds added to the clock when the side's `n`th move completes a
    /// `moves/secs` period (the next period's allotment).
    pub(crate) fn added_after(&self, n: u32) -> u32 {
        let ps = self.periods();
        let mut done = 0u32;
        for (i, p) in ps.iter().enumerate() {
            let Period::Moves { moves, .. } = *p else {
                return 0;
            };
            let next = |j: usize| match ps.get(j).copied().unwrap_or(*p) {
                Period::Moves { secs, .. }
                | Period::SuddenDeath { secs, .. }
                | Period::Sandclock { secs } => secs,
            };
            if i + 1 == ps.len() {
                // Repeating last descriptor.
                return if n > done && (n - done).is_multiple_of(moves) {
                    next(i + 1)
                } else {
                    0
                };
            }
            done = done.saturating_add(moves);
            if n == done {
                return next(i + 1);
            }
            if n < done {
                return 0;
            }
        }
        0
    }

    /// True when the side's `n`th move is in a period where all remaining
    /// moves must be completed (a quickplay finish, FIDE III.1).
    pub(crate) fn is_final_period(&self, n: u32) -> bool {
        match self.period_index(n).map(|i| self.periods()[i]) {
            Some(Period::SuddenDeath { .. }) | Some(Period::Sandclock { .. }) => true,
            Some(Period::Moves { .. }) | None => false,
        }
    }

    /// Sudden death with no increment anywhere: the controls that the
    /// quickplay-finish rules (FIDE III.2.1, ECF QPF) are written for.
    pub(crate) fn has_increment(&self) -> bool {
        self.periods().iter().any(|p| {
            matches!(p, Period::Moves { inc, .. } | Period::SuddenDeath { inc, .. } if *inc > 0)
        })
    }
}

/// A control written the US way, as on US Chess scoresheets and TD sheets:
/// `G/30`, `G/30;d5`, `G/30 d/5`, `G/30 d5`, `G/25;inc5`, `G/30+5`,
/// `40/90;SD/30;d5`, or `30+5 d` (the `d` saying the 5 is a delay). Minutes
/// for the periods, seconds for delay and increment. Returns the control and
/// the delay in seconds (0 when none); `None` when it is not such a control.
pub(crate) fn parse_us(tag: &str) -> Option<(TimeControl, u32)> {
    let t = tag.trim().to_ascii_lowercase();
    if !t
        .bytes()
        .any(|b| b.is_ascii_alphabetic() || b == b';' || b == b' ' || b == b',')
    {
        return None;
    }
    let parts: Vec<&str> = t
        .split([';', ' ', ','])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let (mut delay, mut inc) = (0u32, 0u32);
    let mut periods: Vec<Period> = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        if *p == "d" || *p == "delay" {
            // `30+5 d`: the +5 just read was a delay, not an increment.
            match parts.get(i + 1).and_then(|n| num(n)) {
                Some(n) => delay = n,
                None => {
                    let last = periods.last_mut()?;
                    if let Period::SuddenDeath { inc: i2, .. } | Period::Moves { inc: i2, .. } =
                        last
                    {
                        delay = std::mem::take(i2);
                    }
                }
            }
        } else if let Some(d) = p.strip_prefix("d/").or_else(|| p.strip_prefix('d')) {
            delay = num(d)?;
        } else if let Some(n) = p.strip_prefix("inc/").or_else(|| p.strip_prefix("inc")) {
            inc = num(n)?;
        } else if let Some(rest) = p.strip_prefix("g/").or_else(|| p.strip_prefix("sd/")) {
            let (m, i2) = secs_inc(rest)?;
            periods.push(Period::SuddenDeath {
                secs: m.checked_mul(60)?,
                inc: i2,
            });
        } else if let Some((m, rest)) = p.split_once('/') {
            let (min, i2) = secs_inc(rest)?;
            periods.push(Period::Moves {
                moves: num(m).filter(|&m| m > 0)?,
                secs: min.checked_mul(60)?,
                inc: i2,
            });
        } else if num(p).is_some() && i > 0 && matches!(parts[i - 1], "d" | "delay") {
            // the delay's number, read above
        } else {
            let (m, i2) = secs_inc(p)?;
            periods.push(Period::SuddenDeath {
                secs: m.checked_mul(60)?,
                inc: i2,
            });
        }
    }
    // A US control has one sudden-death period, last, of at most ten
    // hours: `90 30` or `1800 d5` (seconds taken for minutes) are no such
    // control, and are not read as one.
    let sudden: Vec<bool> = periods
        .iter()
        .map(|p| matches!(p, Period::SuddenDeath { .. }))
        .collect();
    let too_long = periods.iter().any(|p| match p {
        Period::SuddenDeath { secs, .. } | Period::Moves { secs, .. } => *secs > 10 * 3600,
        _ => false,
    });
    if periods.is_empty()
        || too_long
        || sudden.iter().filter(|&&s| s).count() > 1
        || sudden.iter().rev().skip(1).any(|&s| s)
    {
        return None;
    }
    if inc > 0 {
        for p in &mut periods {
            if let Period::SuddenDeath { inc: i2, .. } | Period::Moves { inc: i2, .. } = p {
                *i2 = inc;
            }
        }
    }
    Some((TimeControl::Periods(periods), delay))
}

/// How a `TimeControl` text was read.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Reading {
    /// As the PGN standard writes it (`1800`, `40/5400+30:1800+30`).
    Pgn(TimeControl),
    /// US notation (`G/30;d5`), with its delay in seconds.
    Us(TimeControl, u32),
    /// In words (`30 min`, `90 min + 30 sec`), as tournament files and
    /// people write it: one period, minutes and an increment in seconds.
    Words(TimeControl),
}

impl Reading {
    pub(crate) fn control(&self) -> &TimeControl {
        match self {
            Reading::Pgn(tc) | Reading::Us(tc, _) | Reading::Words(tc) => tc,
        }
    }
}

/// The one reading of a control as written, for every command: PGN
/// first, then US notation, then words; `None` where it is none of them.
pub(crate) fn read(text: &str) -> Option<Reading> {
    let t = text.trim();
    if let Ok(tc) = TimeControl::parse(t) {
        return Some(Reading::Pgn(tc));
    }
    if let Some((tc, delay)) = parse_us(t) {
        return Some(Reading::Us(tc, delay));
    }
    in_words(t).map(Reading::Words)
}

/// `30 min`, `90 min + 30 sec`, `15' + 10"`, and FIDE's own wording,
/// `15 min. + 10 s. per move` or `15 minutes + 10 seconds increment per
/// move, starting from move 1`.
fn in_words(t: &str) -> Option<TimeControl> {
    let (base, inc) = match t.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (t, None),
    };
    // A number, its unit (a full stop after it is an abbreviation's) and
    // words after it that say no more than one of `tails` does.
    let number = |s: &str, units: &[&str], tails: &[&str]| -> Option<u32> {
        let s = s.trim().to_ascii_lowercase().replace(',', " ");
        let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
        let mut words = s[digits.len()..].split_whitespace();
        let unit = words
            .next()
            .map_or("", |u| u.strip_suffix('.').unwrap_or(u));
        let tail = words.collect::<Vec<_>>().join(" ");
        (!digits.is_empty() && units.contains(&unit) && tails.contains(&tail.as_str()))
            .then(|| digits.parse().ok())
            .flatten()
    };
    let minutes = number(base, &["min", "mins", "minute", "minutes", "'", "m"], &[""])?;
    let inc = match inc {
        Some(i) => number(
            i,
            &["sec", "secs", "second", "seconds", "s", "\"", "''"],
            &[
                "",
                "per move",
                "a move",
                "increment",
                "increment per move",
                "per move starting from move 1",
                "increment per move starting from move 1",
                "per move from move 1",
                "increment per move from move 1",
            ],
        )?,
        None => 0,
    };
    Some(TimeControl::Periods(vec![Period::SuddenDeath {
        secs: minutes.checked_mul(60)?,
        inc,
    }]))
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unknown => f.write_str("?"),
            TimeControl::Untimed => f.write_str("-"),
            TimeControl::Periods(ps) => {
                for (i, p) in ps.iter().enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    match *p {
                        Period::Moves { moves, secs, inc } => {
                            write!(f, "{moves}/{secs}")?;
                            if inc > 0 {
                                write!(f, "+{inc}")?;
                            }
                        }
                        Period::SuddenDeath { secs, inc } => {
                            write!(f, "{secs}")?;
                            if inc > 0 {
                                write!(f, "+{inc}")?;
                            }
                        }
                        Period::Sandclock { secs } => write!(f, "*{secs}")?,
                    }
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A judgement keeps its control as text (`Judgement::control`): every
    /// form read writes back to the same control.
    #[test]
    fn every_control_read_writes_back_to_itself() {
        for tag in [
            "1800",
            "900+10",
            "40/5400+30:1800+30",
            "36/4500:900",
            "*180",
            "1/259200",
            "G/30;d5",
            "30 min",
            "90 min + 30 sec",
            "15 min. + 10 s. per move",
            "15 minutes + 10 seconds increment per move, starting from move 1",
            "40/7200:20/3600:900+30",
        ] {
            let tc = read(tag)
                .unwrap_or_else(|| panic!("{tag}"))
                .control()
                .clone();
            assert_eq!(
                TimeControl::parse(&tc.to_string()),
                Ok(tc.clone()),
                "{tag} -> {tc}"
            );
        }
    }

    fn tc(s: &str) -> TimeControl {
        TimeControl::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn us_forms_with_delay_and_increment() {
        let sd = |secs, inc| TimeControl::Periods(vec![Period::SuddenDeath { secs, inc }]);
        assert_eq!(parse_us("G/30;d5"), Some((sd(1800, 0), 5)));
        assert_eq!(parse_us("G/30 d/5"), Some((sd(1800, 0), 5)));
        assert_eq!(parse_us("G/30 d5"), Some((sd(1800, 0), 5)));
        assert_eq!(parse_us("30+5 d"), Some((sd(1800, 0), 5)));
        assert_eq!(parse_us("G/25;inc5"), Some((sd(1500, 5), 0)));
        assert_eq!(parse_us("G/30"), Some((sd(1800, 0), 0)));
        assert_eq!(
            parse_us("40/90;SD/30;d5"),
            Some((
                TimeControl::Periods(vec![
                    Period::Moves {
                        moves: 40,
                        secs: 5400,
                        inc: 0
                    },
                    Period::SuddenDeath { secs: 1800, inc: 0 }
                ]),
                5
            ))
        );
        // PGN forms are not US forms; free text is neither.
        assert_eq!(parse_us("300+2"), None);
        assert_eq!(parse_us("15 min. + 10 s. per move"), None);
        // Seconds taken for minutes, or two sudden-death periods: no control.
        assert_eq!(parse_us("1800 d5"), None);
        assert_eq!(parse_us("90 30"), None);
        assert_eq!(parse_us("30, 5"), None);
    }

    #[test]
    fn pgn_9_6_1_forms() {
        assert_eq!(tc("?"), TimeControl::Unknown);
        assert_eq!(tc("-"), TimeControl::Untimed);
        assert_eq!(
            tc("40/9000"),
            TimeControl::Periods(vec![Period::Moves {
                moves: 40,
                secs: 9000,
                inc: 0
            }])
        );
        assert_eq!(
            tc("300"),
            TimeControl::Periods(vec![Period::SuddenDeath { secs: 300, inc: 0 }])
        );
        assert_eq!(
            tc("5400+60"),
            TimeControl::Periods(vec![Period::SuddenDeath {
                secs: 5400,
                inc: 60
            }])
        );
        assert_eq!(
            tc("*180"),
            TimeControl::Periods(vec![Period::Sandclock { secs: 180 }])
        );
        assert_eq!(
            tc("40/7200:20/3600:900+30"),
            TimeControl::Periods(vec![
                Period::Moves {
                    moves: 40,
                    secs: 7200,
                    inc: 0
                },
                Period::Moves {
                    moves: 20,
                    secs: 3600,
                    inc: 0
                },
                Period::SuddenDeath { secs: 900, inc: 30 },
            ])
        );
        assert_eq!(tc("40/5400+30:1800+30").increment(1), 30);
        for s in [
            "36/4500:900",
            "40/7200:20/3600:900+30",
            "1/259200",
            "180+2",
            "*180",
            "-",
            "?",
        ] {
            assert_eq!(tc(s).to_string(), s);
        }
    }

    #[test]
    fn rejects_free_text_and_misplaced_sudden_death() {
        for bad in [
            "15 min. + 10 s. per move",
            "300:40/7200",
            "G/30;d5",
            "1 in 1 day",
            "40/",
            "+5",
            "0/300",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ddcl_period_arithmetic() {
        let t = tc("36/4500:900");
        assert_eq!(t.base_secs(), Some(4500));
        assert_eq!(t.added_after(35), 0);
        assert_eq!(t.added_after(36), 900);
        assert_eq!(t.added_after(37), 0);
        assert!(!t.is_final_period(36));
        assert!(t.is_final_period(37));
        assert!(!t.has_increment());
    }

    /// FIDE's own wording of a rapid control (the World Rapid's PGN) reads
    /// as 900+10; an increment that starts later, or words that say more,
    /// are not read at all rather than read wrong.
    #[test]
    fn fides_wording_of_a_control() {
        for text in [
            "15 min. + 10 s. per move",
            "15 minutes + 10 seconds increment per move, starting from move 1",
            "15 min + 10 sec",
            "15' + 10\"",
        ] {
            assert_eq!(
                read(text).map(|r| r.control().clone()),
                Some(tc("900+10")),
                "{text}"
            );
        }
        for text in [
            "90 min + 30 s per move, starting from move 41",
            "15 min. + 10 s. per move for each player and more",
            "15 min. each + 10 s.",
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }

    #[test]
    fn repeating_last_descriptor() {
        let t = tc("40/7200");
        assert_eq!(t.added_after(40), 7200);
        assert_eq!(t.added_after(80), 7200);
        assert_eq!(t.added_after(41), 0);
        assert!(!t.is_final_period(100));
        let daily = tc("1/259200");
        assert_eq!(daily.added_after(1), 259200);
        assert_eq!(daily.added_after(7), 259200);
    }
}
