//! A tournament file in FIDE TRF-16 (a Swiss-Manager or Vega export) read
//! as the list to audit: its header lines, its players, and its games,
//! rebuilt from the players' round columns.

use std::collections::{BTreeMap, BTreeSet};

use super::{ListedGame, Player};
use crate::model::GameResult;

/// A TRF-16 tournament as `audit` uses it.
#[derive(Clone, Debug, Default)]
pub(crate) struct TrfList {
    pub(crate) event: String,
    pub(crate) site: String,
    /// The `122` line as written.
    pub(crate) time_control: String,
    /// The `032` (federation) and `102` (chief arbiter) lines as written.
    pub(crate) federation: String,
    pub(crate) arbiter: String,
    /// Per round, its date from `132` (`YYYY.MM.DD`), empty where none.
    pub(crate) round_dates: Vec<String>,
    /// The games, White's player line first, in round order; a bye (`0000`
    /// with a code that scores or is not a zero-point bye) as a game against
    /// `BYE`, its code kept.
    pub(crate) games: Vec<ListedGame>,
    /// Every player line, a player with no game in any round included.
    pub(crate) players: Vec<Player>,
    pub(crate) kept: Kept,
}

/// What the audit does not check, for the report to write as the file has
/// it: a pairing program reading the report reads these too.
#[derive(Clone, Debug, Default)]
pub(crate) struct Kept {
    /// Lines of codes the report does not write itself (`082`, `112`,
    /// `XXC`, `XXS`, team lines…), as written, before and after the
    /// player lines.
    pub(crate) before_players: Vec<String>,
    pub(crate) after_players: Vec<String>,
    /// The `092` line (the type of tournament), and `042`/`052` (first
    /// and last dates, `YYYY/MM/DD`).
    pub(crate) kind: String,
    pub(crate) start: String,
    pub(crate) end: String,
    /// `XXR`: the rounds in all.
    pub(crate) rounds: Option<usize>,
    /// By player name: starting rank, rank, and points twice over.
    pub(crate) players: BTreeMap<String, FilePlace>,
}

/// A player's place in the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FilePlace {
    pub(crate) number: usize,
    /// 0 where the file gives none.
    pub(crate) rank: usize,
    pub(crate) half_points: Option<u32>,
}

/// The header lines the report writes itself (from the games, the
/// options, or the kept lines above).
const WRITTEN: [&str; 13] = [
    "001", "012", "022", "032", "042", "052", "062", "072", "092", "102", "122", "132", "XXR",
];

/// The text of 1-based columns `a..=b` of a line, trimmed. Columns are
/// characters, as the report writes them: a name with accents shifts no
/// column.
fn col(l: &[char], a: usize, b: usize) -> String {
    let end = b.min(l.len());
    if a > end {
        return String::new();
    }
    l[a - 1..end].iter().collect::<String>().trim().to_string()
}

/// `YY/MM/DD` or `YYYY/MM/DD` as a PGN date (`YYYY.MM.DD`).
fn pgn_date(d: &str) -> String {
    let parts: Vec<&str> = d.trim().split(['/', '.', '-']).collect();
    match parts.as_slice() {
        [y, m, d] if y.len() == 2 => format!("20{y}.{m}.{d}"),
        [y, m, d] if y.len() == 4 => format!("{y}.{m}.{d}"),
        _ => String::new(),
    }
}

/// One player's round column: opponent, colour, result code.
struct Cell {
    opponent: usize,
    colour: char,
    code: char,
}

/// A player line: starting rank, the player, the round columns, and the
/// rank and points the file gives.
type PlayerLine = (usize, Player, Vec<Option<Cell>>, FilePlace);

/// Reads a TRF-16 file's text; an error names the file, line and column.
pub(crate) fn parse(name: &str, text: &str) -> Result<TrfList, String> {
    let mut list = TrfList::default();
    let mut players: Vec<PlayerLine> = Vec::new();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // TRF-16 ends each line with CR alone; others write CR LF or LF.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    for (i, line) in text.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let code: String = chars.iter().take(3).collect();
        let rest: String = chars.iter().skip(4).collect();
        let (code, rest) = (code.as_str(), rest.as_str());
        match code {
            "012" => list.event = rest.trim().to_string(),
            "022" => list.site = rest.trim().to_string(),
            "122" => list.time_control = rest.trim().to_string(),
            "032" => list.federation = rest.trim().to_string(),
            "102" => list.arbiter = rest.trim().to_string(),
            "092" => list.kept.kind = rest.trim().to_string(),
            "042" => list.kept.start = rest.trim().to_string(),
            "052" => list.kept.end = rest.trim().to_string(),
            "XXR" => {
                list.kept.rounds = Some(rest.trim().parse().map_err(|_| {
                    format!(
                        "{name} line {} column 5: the rounds (XXR) are not a number",
                        i + 1
                    )
                })?)
            }
            "132" => {
                let mut c = 92;
                while c <= chars.len() {
                    list.round_dates.push(pgn_date(&col(&chars, c, c + 7)));
                    c += 10;
                }
            }
            "001" => players.push(
                player_line(&chars)
                    .map_err(|(c, m)| format!("{name} line {} column {c}: {m}", i + 1))?,
            ),
            _ if line.trim().is_empty() || WRITTEN.contains(&code) => {}
            _ => {
                let at = if players.is_empty() {
                    &mut list.kept.before_players
                } else {
                    &mut list.kept.after_players
                };
                at.push(line.trim_end().to_string());
            }
        }
    }
    if players.is_empty() {
        return Err(format!("{name}: no player lines (001): not a TRF-16 file"));
    }
    list.games = games_of(name, &list, &players)?;
    list.kept.players = players
        .iter()
        .map(|(number, p, _, place)| {
            (
                p.name.clone(),
                FilePlace {
                    number: *number,
                    ..*place
                },
            )
        })
        .collect();
    list.players = players.into_iter().map(|(_, p, ..)| p).collect();
    Ok(list)
}

/// One `001` line; an error gives the column and what is wrong there.
fn player_line(line: &[char]) -> Result<PlayerLine, (usize, String)> {
    let number: usize = col(line, 5, 8).parse().map_err(|_| {
        (
            5,
            "the starting rank (columns 5-8) is not a number".to_string(),
        )
    })?;
    let points = col(line, 81, 84);
    if !points.is_empty() && points.parse::<f64>().is_err() {
        return Err((81, "the points (columns 81-84) are not a number".into()));
    }
    let player = Player {
        name: col(line, 15, 47),
        elo: col(line, 49, 52).parse().ok().filter(|&e: &u32| e > 0),
        fide_id: col(line, 58, 68),
        title: col(line, 11, 13),
        federation: col(line, 54, 56),
        sex: col(line, 10, 10),
        birth: col(line, 70, 79),
    };
    let place = FilePlace {
        number,
        rank: col(line, 86, 89).parse().unwrap_or(0),
        half_points: points
            .parse::<f64>()
            .ok()
            .filter(|p| *p >= 0.0 && (p * 2.0).fract() == 0.0)
            .map(|p| (p * 2.0) as u32),
    };
    let mut rounds = Vec::new();
    let mut c = 92;
    while c <= line.len() {
        let opp = col(line, c, c + 3);
        let colour = col(line, c + 5, c + 5).chars().next().unwrap_or('-');
        let code = col(line, c + 7, c + 7).chars().next().unwrap_or(' ');
        let opponent = match opp.as_str() {
            "" | "0000" => 0,
            o => o
                .parse()
                .map_err(|_| (c, format!("the opponent {o:?} is not a starting rank")))?,
        };
        if !"wb-".contains(colour) {
            return Err((c + 5, format!("the colour {colour:?} is not w, b or -")));
        }
        if !"10=WDL+-HFUZ ".contains(code) {
            return Err((
                c + 7,
                format!("the result {code:?} is not a TRF-16 result code"),
            ));
        }
        // `0000` with a code that scores nothing (a zero-point bye, none,
        // or a forfeit with no one to forfeit to, as an absence is often
        // written): not paired, as a round left out reads; a code that
        // scores is a bye to keep.
        let paired = opponent > 0 || !matches!(code, 'Z' | ' ' | '-');
        rounds.push(paired.then_some(Cell {
            opponent,
            colour,
            code,
        }));
        c += 10;
    }
    Ok((number, player, rounds, place))
}

/// The games, round by round, from the White player's line, each checked
/// against the Black player's line.
fn games_of(name: &str, list: &TrfList, players: &[PlayerLine]) -> Result<Vec<ListedGame>, String> {
    let by_number = |n: usize| players.iter().find(|(k, ..)| *k == n);
    let rounds = players.iter().map(|p| p.2.len()).max().unwrap_or(0);
    let mut games = Vec::new();
    for r in 0..rounds {
        for (number, white, cells, _) in players {
            let Some(Some(cell)) = cells.get(r) else {
                continue;
            };
            if cell.opponent == 0 {
                games.push(bye(name, list, r, white, cell.code, games.len()));
                continue;
            }
            if cell.colour != 'w' {
                continue;
            }
            let Some((_, black, theirs, _)) = by_number(cell.opponent) else {
                return Err(format!(
                    "{name}: player {number} meets player {} in round {}, who is not listed",
                    cell.opponent,
                    r + 1
                ));
            };
            let back = theirs.get(r).and_then(Option::as_ref);
            let Some(back) = back.filter(|b| b.opponent == *number && b.colour == 'b') else {
                return Err(format!(
                    "{name}: round {}: player {number} has White against {}, whose line does not say so",
                    r + 1,
                    cell.opponent
                ));
            };
            let agree = matches!(
                (cell.code, back.code),
                ('1', '0')
                    | ('0', '1')
                    | ('=', '=')
                    | ('W', 'L')
                    | ('L', 'W')
                    | ('D', 'D')
                    | ('+', '-')
                    | ('-', '+')
            );
            if !agree {
                return Err(format!(
                    "{name}: round {}: player {number} ({}) and player {} ({}) disagree on their game's result",
                    r + 1,
                    cell.code,
                    cell.opponent,
                    back.code
                ));
            }
            let (result, forfeit, unrated) = match cell.code {
                '1' => (GameResult::WhiteWins, false, false),
                '0' => (GameResult::BlackWins, false, false),
                '=' => (GameResult::Draw, false, false),
                'W' => (GameResult::WhiteWins, false, true),
                'L' => (GameResult::BlackWins, false, true),
                'D' => (GameResult::Draw, false, true),
                '+' => (GameResult::WhiteWins, true, false),
                '-' => (GameResult::BlackWins, true, false),
                _ => (GameResult::Unknown, false, false),
            };
            let mut g = listed(name, list, r, games.len(), white, black, result);
            if unrated {
                g.excluded.insert("not rated in the TRF read");
            }
            g.forfeit = forfeit;
            games.push(g);
        }
    }
    // Every Black cell has its White one.
    for (number, _, cells, _) in players {
        for (r, cell) in cells.iter().enumerate() {
            let Some(cell) = cell.as_ref().filter(|c| c.colour == 'b') else {
                continue;
            };
            let white = by_number(cell.opponent)
                .and_then(|(_, _, w, _)| w.get(r))
                .and_then(Option::as_ref);
            if !white.is_some_and(|w| w.opponent == *number && w.colour == 'w') {
                return Err(format!(
                    "{name}: round {}: player {number} has Black against {}, whose line does not say so",
                    r + 1,
                    cell.opponent
                ));
            }
        }
    }
    Ok(games)
}

/// A bye of round `r + 1` (`0000` and a code) as the audit lists one: a
/// game of `player` against `BYE`, scored as the code scores it (TRF-16:
/// `U`, `F` and `+` a point, `H` a half), the code kept for the report.
fn bye(name: &str, list: &TrfList, r: usize, player: &Player, code: char, n: usize) -> ListedGame {
    let result = match code {
        'U' | 'F' | '+' | '1' | 'W' => GameResult::WhiteWins,
        'H' | '=' | 'D' => GameResult::Draw,
        _ => GameResult::BlackWins,
    };
    let bye = Player {
        name: "BYE".into(),
        ..Player::default()
    };
    let mut g = listed(name, list, r, n, player, &bye, result);
    g.bye_code = Some(code);
    g
}

/// Game `n + 1` of the file, in round `r + 1`, as the audit lists it.
fn listed(
    name: &str,
    list: &TrfList,
    r: usize,
    n: usize,
    white: &Player,
    black: &Player,
    result: GameResult,
) -> ListedGame {
    ListedGame {
        source: name.to_string(),
        game: n as u64 + 1,
        event: list.event.clone(),
        site: list.site.clone(),
        date: list.round_dates.get(r).cloned().unwrap_or_default(),
        utc_dated: false,
        round: (r + 1).to_string(),
        round_number: Some(r as u32 + 1),
        time_control: list.time_control.clone(),
        white: white.clone(),
        black: black.clone(),
        result,
        result_tag: String::new(),
        rule: String::new(),
        excluded: BTreeSet::new(),
        forfeit: false,
        bye_code: None,
    }
}

/// A `122` line as a control: a PGN `TimeControl` (`1800`, `5400+30`), or
/// minutes with seconds a move (`30 min`, `90 min + 30 sec`, `90'+30"`).
pub(crate) fn control(text: &str) -> Option<crate::pgn::time_control::TimeControl> {
    crate::pgn::time_control::read(text).map(|r| r.control().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_and_dates_read_as_trf_16_places_them() {
        assert_eq!(pgn_date("23/08/12"), "2023.08.12");
        assert_eq!(pgn_date("2023/08/12"), "2023.08.12");
        let chars = |s: &str| s.chars().collect::<Vec<char>>();
        assert_eq!(col(&chars("001    1"), 5, 8), "1");
        assert_eq!(col(&chars("001"), 5, 8), "");
        assert_eq!(
            col(&chars("001    1      Pérez, Ana"), 15, 47),
            "Pérez, Ana"
        );
    }

    #[test]
    fn a_122_line_reads_as_a_control_in_its_common_forms() {
        let c = |t: &str| control(t).map(|tc| tc.to_string());
        assert_eq!(c("1800").as_deref(), Some("1800"));
        assert_eq!(c("5400+30").as_deref(), Some("5400+30"));
        assert_eq!(c("30 min").as_deref(), Some("1800"));
        assert_eq!(c("90 min + 30 sec").as_deref(), Some("5400+30"));
        assert_eq!(c("90'+30\"").as_deref(), Some("5400+30"));
        assert_eq!(c("game in half an hour"), None);
    }
}
