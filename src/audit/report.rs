//! The audited list as a FIDE TRF-16 report model (FIDE Handbook C.04
//! Annex 2): its header from the games' own tags, players numbered by
//! rating, one round per tournament round, and a game a finding excludes
//! written as not rated, or left out.

use std::collections::BTreeMap;

use super::{Audited, ListedGame, Player};
use crate::model::{GameResult, Side};

/// What becomes of a game a finding keeps off the rating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum NotRated {
    /// Written with TRF-16's not-rated codes (`W`, `D`, `L`): the points
    /// count in the tournament, the game is not rated.
    #[default]
    Codes,
    /// Left out of the report.
    Omit,
}

/// What the officer gives for the report: the lines no tag holds, and the
/// ones to set where the tags disagree.
#[derive(Clone, Debug, Default)]
pub(crate) struct TrfOptions {
    pub(crate) event: Option<String>,
    pub(crate) site: Option<String>,
    pub(crate) time_control: Option<String>,
    pub(crate) federation: String,
    pub(crate) arbiter: String,
    pub(crate) not_rated: NotRated,
    /// The rounds the tournament has in all (`XXR`), where more are to be
    /// paired than have been played.
    pub(crate) rounds: Option<usize>,
}

/// A player of the TRF report.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TrfPlayer {
    /// Starting rank: by rating, highest first, then by name.
    pub(crate) number: usize,
    pub(crate) name: String,
    pub(crate) title: String,
    pub(crate) federation: String,
    pub(crate) fide_id: String,
    pub(crate) rating: Option<u32>,
    /// A tournament file's sex and birth date, as written.
    pub(crate) sex: String,
    pub(crate) birth: String,
    /// Points, twice over (whole numbers: 9 is 4.5).
    pub(crate) half_points: u32,
    pub(crate) rank: usize,
    /// Per round: opponent's number, colour, TRF result code.
    pub(crate) rounds: Vec<Option<(usize, char, char)>>,
}

/// The report: each header line's text, the players, and what the officer
/// is told on the screen.
pub(crate) struct TrfReport {
    pub(crate) event: String,
    pub(crate) site: String,
    pub(crate) federation: String,
    /// `YYYY/MM/DD`.
    pub(crate) start: String,
    pub(crate) end: String,
    /// The `092` line: the list and that it was audited.
    pub(crate) kind: String,
    pub(crate) arbiter: String,
    pub(crate) time_control: String,
    /// Per round, its date (`YY/MM/DD`), empty where no game of it has one.
    pub(crate) round_dates: Vec<String>,
    /// `XXR`: the rounds in all.
    pub(crate) rounds: usize,
    pub(crate) players: Vec<TrfPlayer>,
    /// A tournament file's lines the report does not write itself, as
    /// the file has them, before and after its player lines.
    pub(crate) kept_before: Vec<String>,
    pub(crate) kept_after: Vec<String>,
    /// Where a line was chosen among disagreeing tags, or left empty, or a
    /// name cut to its 33 columns.
    pub(crate) notes: Vec<String>,
    /// Games not in the report, and why.
    pub(crate) left_out: Vec<String>,
    /// Games written as not rated, and why.
    pub(crate) not_rated: Vec<String>,
}

/// The most common given value (ties: the first seen), how many games
/// give it, and how many different values there are.
fn most_common<'v>(values: &[&'v str]) -> Option<(&'v str, usize, usize)> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for v in values
        .iter()
        .map(|v| v.trim())
        .filter(|v| !v.is_empty() && *v != "?")
    {
        match counts.iter_mut().find(|(c, _)| *c == v) {
            Some((_, n)) => *n += 1,
            None => counts.push((v, 1)),
        }
    }
    let distinct = counts.len();
    counts
        .into_iter()
        .fold(None, |m: Option<(&str, usize)>, c| match m {
            Some(m) if m.1 >= c.1 => Some(m),
            _ => Some(c),
        })
        .map(|(best, n)| (best, n, distinct))
}

/// A header line from the games' tags: `given` where the officer set it,
/// else the most common value, with a note where the games disagree or
/// none gives one.
fn common(
    what: &str,
    line: &str,
    flag: &str,
    values: &[&str],
    given: Option<&String>,
    notes: &mut Vec<String>,
) -> String {
    if let Some(g) = given {
        return g.clone();
    }
    let Some((best, n, distinct)) = most_common(values) else {
        notes.push(format!(
            "no game has a {what} tag: the {line} line is empty; give {flag}"
        ));
        return String::new();
    };
    if distinct > 1 {
        notes.push(format!(
            "the games disagree on {what} ({distinct} values): the {line} line has the most common, {best:?} ({n} of {} games); give {flag} to set it",
            values.len()
        ));
    }
    best.to_string()
}

/// Header fields of a player, from the first game that gives each.
fn merge(into: &mut Player, p: &Player) {
    for (to, from) in [
        (&mut into.fide_id, &p.fide_id),
        (&mut into.title, &p.title),
        (&mut into.federation, &p.federation),
        (&mut into.sex, &p.sex),
        (&mut into.birth, &p.birth),
    ] {
        if to.is_empty() {
            to.clone_from(from);
        }
    }
    into.elo = into.elo.max(p.elo);
}

pub(crate) const NAME_COLUMNS: usize = 33;

/// The most players a report can number (starting ranks are four columns).
const MAX_PLAYERS: usize = 9999;

/// The titles TRF-16 writes in columns 11-13; others (a site's `BOT`, a
/// national `NM`) are not FIDE titles and are left blank.
const FIDE_TITLES: [&str; 8] = ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"];

fn fide_title(t: &str) -> String {
    let t = t.trim().to_ascii_uppercase();
    if FIDE_TITLES.contains(&t.as_str()) {
        t
    } else {
        String::new()
    }
}

pub(crate) fn trf_report(
    a: &Audited,
    list: &super::RatedList,
    opts: &TrfOptions,
) -> Result<TrfReport, String> {
    // Said only where the rounds are not simply the round numbers.
    let mut notes = Vec::new();
    if a.rounds_by != super::BY_ROUND_NUMBER {
        notes.push(format!("rounds told apart {}", a.rounds_by));
    }
    let mut players = players_of(a, &mut notes)?;
    let placed = place_games(a, opts, &mut players);
    if placed.byes > 0 {
        notes.push(format!(
            "{} against BYE: a point written as a pairing-allocated bye (U), a half as a half-point bye (H), none as a zero-point bye (Z)",
            crate::claim::plural(placed.byes, "game")
        ));
    }
    if a.round_count == 0 {
        return Err("no game could be placed in a round (the findings say why)".into());
    }
    if let Some(p) = players.iter().find(|p| p.half_points >= 200) {
        return Err(format!(
            "{} has {} points, which TRF-16's four columns (81-84) cannot hold",
            p.name,
            f64::from(p.half_points) / 2.0
        ));
    }
    rank(&mut players, a.kept.as_ref(), &mut notes);
    let all: Vec<&str> = a
        .listed
        .iter()
        .map(|g| g.date.as_str())
        .filter(|d| complete(d))
        .collect();
    if all.is_empty() {
        notes.push(
            "no game has a complete Date tag: the 042, 052 and 132 lines have no dates".into(),
        );
    }
    let utc = a.listed.iter().filter(|g| g.utc_dated).count();
    if utc > 0 {
        let (n, have) = if utc == 1 {
            ("1 game".to_string(), "has")
        } else {
            (format!("{utc} games"), "have")
        };
        notes.push(format!(
            "{n} {have} no complete Date tag: dated by UTCDate, the day in UTC"
        ));
    }
    let round_dates = round_dates(&placed.dates, &mut notes);
    let kept = a.kept.clone().unwrap_or_default();
    let rounds = match opts.rounds {
        Some(n) if n < round_dates.len() => {
            return Err(format!(
                "--trf-rounds {n} is fewer than the {} rounds the report has",
                round_dates.len()
            ))
        }
        Some(n) => n,
        // The tournament file's rounds in all, where rounds are still to
        // be paired.
        None => match kept.rounds {
            Some(n) if n < round_dates.len() => {
                notes.push(format!(
                    "the tournament file's XXR {n} is fewer than the {} rounds it has: XXR {}",
                    round_dates.len(),
                    round_dates.len()
                ));
                round_dates.len()
            }
            Some(n) => n,
            None => round_dates.len(),
        },
    };
    let tags = |f: fn(&ListedGame) -> &str| a.listed.iter().map(f).collect::<Vec<&str>>();
    let (events, sites) = (tags(|g| &g.event), tags(|g| &g.site));
    // One report is one tournament's: games of several events are not
    // made one unless the officer names the tournament they are.
    if opts.event.is_none() {
        if let Some((_, _, distinct)) = most_common(&events).filter(|m| m.2 > 1) {
            let mut named: Vec<&str> = events
                .iter()
                .map(|e| e.trim())
                .filter(|e| !e.is_empty() && *e != "?")
                .collect();
            named.sort_unstable();
            named.dedup();
            let shown: Vec<String> = named.iter().take(3).map(|e| format!("{e:?}")).collect();
            return Err(format!(
                "the games are of {distinct} events ({}{}): a TRF report is one tournament's; audit each event's games on their own, or give --trf-event to name the one tournament they are (a broadcast names each game)",
                shown.join(", "),
                if distinct > 3 { ", …" } else { "" }
            ));
        }
    }
    let controls = tags(|g| &g.time_control);
    Ok(TrfReport {
        event: common(
            "Event",
            "012",
            "--trf-event",
            &events,
            opts.event.as_ref(),
            &mut notes,
        ),
        site: common(
            "Site",
            "022",
            "--trf-site",
            &sites,
            opts.site.as_ref(),
            &mut notes,
        ),
        federation: opts.federation.clone(),
        // A tournament file's own dates: its last may be a round still to
        // be played.
        start: Some(kept.start)
            .filter(|d| !d.is_empty())
            .or_else(|| all.iter().min().map(|d| slash(d)))
            .unwrap_or_default(),
        end: Some(kept.end)
            .filter(|d| !d.is_empty())
            .or_else(|| all.iter().max().map(|d| slash(d)))
            .unwrap_or_default(),
        // The file's type of tournament, and the list it was audited
        // against (once: a report read back already says it).
        kind: if kept.kind.is_empty() {
            format!("{}, audited", list.title)
        } else if kept.kind.contains(&list.title) {
            kept.kind.clone()
        } else {
            format!("{}; audited: {}", kept.kind, list.title)
        },
        arbiter: opts.arbiter.clone(),
        time_control: common(
            "TimeControl",
            "122",
            "--trf-time-control",
            &controls,
            opts.time_control.as_ref(),
            &mut notes,
        ),
        round_dates,
        rounds,
        players,
        kept_before: kept.before_players,
        kept_after: kept.after_players,
        notes,
        left_out: placed.left_out,
        not_rated: placed.not_rated,
    })
}

/// `2023.08.12` as TRF writes dates, `2023/08/12`.
fn slash(d: &str) -> String {
    d.trim().replace(['.', '-'], "/")
}

/// The players, numbered by rating (highest first) then name, their header
/// fields from the first game that gives each. A name over its 33 columns
/// is cut, and said; two cut alike cannot be told apart in the file.
fn players_of(a: &Audited, notes: &mut Vec<String>) -> Result<Vec<TrfPlayer>, String> {
    let mut people: BTreeMap<&str, Player> = BTreeMap::new();
    // Two FIDE ids under one name are two players (`Audit::homonyms`
    // finds them): never one line.
    if let Some(f) = a.findings.iter().find(|f| f.finding == "homonym") {
        return Err(format!("{} (the homonym finding)", f.detail));
    }
    for p in &a.registered {
        merge(people.entry(p.name.as_str()).or_default(), p);
    }
    for g in &a.listed {
        let bye = g.bye();
        for (side, p) in [(Side::White, &g.white), (Side::Black, &g.black)] {
            // A bye is no player: it is a code on its player's line.
            if bye.is_some_and(|b| b != side) {
                continue;
            }
            merge(people.entry(p.name.as_str()).or_default(), p);
        }
    }
    // One FIDE id under two names is one player the report would give two
    // lines (or an id written wrong): never two lines for one id.
    let mut by_id: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (name, p) in &people {
        if super::fide_id_valid(&p.fide_id) {
            by_id
                .entry(p.fide_id.trim_start_matches('0'))
                .or_default()
                .push(name);
        }
    }
    if let Some((id, names)) = by_id.iter().find(|(_, n)| n.len() > 1) {
        let names: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
        return Err(format!(
            "the FIDE id {id} is under {} names, {}: the report would give one player {} lines; write one spelling in every game, or put the wrong id right (the name-variant finding)",
            names.len(),
            names.join(" and "),
            names.len()
        ));
    }
    if people.len() > MAX_PLAYERS {
        return Err(format!(
            "{} players: a TRF-16 report numbers its players in four columns, {MAX_PLAYERS} at most; audit the tournament's own games",
            people.len()
        ));
    }
    let mut order: Vec<(&str, &Player)> = people.iter().map(|(n, p)| (*n, p)).collect();
    order.sort_by(|a, b| b.1.elo.cmp(&a.1.elo).then(a.0.cmp(b.0)));
    // A tournament file's starting ranks are the pairing numbers its other
    // lines and a pairing program go by: kept where they number its
    // players 1 to N.
    if let Some(kept) = &a.kept {
        let numbered: Option<Vec<usize>> = order
            .iter()
            .map(|(n, _)| kept.players.get(*n).map(|p| p.number))
            .collect();
        let fits = numbered.as_ref().is_some_and(|ns| one_to_n(ns, ns.len()));
        match numbered {
            Some(ns) if fits => {
                let mut by: Vec<(usize, (&str, &Player))> = ns.into_iter().zip(order).collect();
                by.sort_by_key(|(n, _)| *n);
                order = by.into_iter().map(|(_, p)| p).collect();
            }
            _ => {
                if let Some(line) = kept
                    .before_players
                    .iter()
                    .chain(&kept.after_players)
                    .find(|l| l.starts_with("013") || l.starts_with("XXA"))
                {
                    return Err(format!(
                        "the tournament file's starting ranks are not 1 to {}, and its line {:?} names players by them: number them 1 to {} in the file",
                        order.len(),
                        line.chars().take(12).collect::<String>(),
                        order.len()
                    ));
                }
                notes.push(format!(
                    "the tournament file's starting ranks are not 1 to {}: numbered by rating, then name",
                    order.len()
                ));
            }
        }
    }
    let mut cut: BTreeMap<String, &str> = BTreeMap::new();
    for (n, _) in &order {
        let short: String = n.chars().take(NAME_COLUMNS).collect();
        if short.chars().count() < n.chars().count() {
            notes.push(format!(
                "the name {n:?} is cut to its {NAME_COLUMNS} columns: {short:?}"
            ));
        }
        if let Some(other) = cut.insert(short.clone(), n) {
            return Err(format!(
                "{other:?} and {n:?} are both {short:?} when cut to the TRF's {NAME_COLUMNS} columns: shorten one in the games' tags"
            ));
        }
    }
    Ok(order
        .iter()
        .enumerate()
        .map(|(i, (n, p))| TrfPlayer {
            number: i + 1,
            name: n.chars().take(NAME_COLUMNS).collect(),
            title: fide_title(&p.title),
            federation: p.federation.clone(),
            fide_id: p.fide_id.clone(),
            rating: p.elo,
            sex: p.sex.clone(),
            birth: p.birth.clone(),
            half_points: 0,
            rank: 0,
            rounds: vec![None; a.round_count],
        })
        .collect())
}

/// Where the games went: each round's dates, and the games left out or
/// written as not rated, in words.
struct Placed<'a> {
    dates: Vec<Vec<&'a str>>,
    left_out: Vec<String>,
    not_rated: Vec<String>,
    /// Games read against a player named `BYE`, written as byes (a
    /// tournament file's byes keep their codes).
    byes: usize,
}

/// Each game into its round on both players' lines, with its codes and
/// points; a game with no result or no round is left out, one a finding
/// excludes written as not rated (or left out under `NotRated::Omit`).
fn place_games<'a>(a: &'a Audited, opts: &TrfOptions, players: &mut [TrfPlayer]) -> Placed<'a> {
    let number: BTreeMap<String, usize> =
        players.iter().map(|p| (p.name.clone(), p.number)).collect();
    let number_of = |n: &str| number[&n.chars().take(NAME_COLUMNS).collect::<String>()];
    let mut placed = Placed {
        dates: vec![Vec::new(); a.round_count],
        left_out: Vec::new(),
        not_rated: Vec::new(),
        byes: 0,
    };
    let name = |g: &ListedGame| {
        format!(
            "{}, game {} ({} v {}, round {})",
            g.source, g.game, g.white.name, g.black.name, g.round
        )
    };
    for (g, r) in a.listed.iter().zip(&a.rounds) {
        let Some(r) = *r else {
            let why = if g.result == GameResult::Unknown {
                "no result".to_string()
            } else if g.round_unknown() {
                format!(
                    "its round is unknown (Round tag {:?}): give it a round number",
                    g.round.trim()
                )
            } else if g.excluded.contains("no-date") && !complete(&g.date) {
                "no whole date, in a list whose round numbers start again each day: give its date"
                    .to_string()
            } else {
                "a player already has a game in that round".to_string()
            };
            placed.left_out.push(format!("{}: {why}", name(g)));
            continue;
        };
        if let Some(side) = g.bye() {
            // TRF-16: `0000`, no colour, and the bye's code: a point is a
            // pairing-allocated bye (U), a half a half-point bye (H),
            // none a zero-point bye (Z).
            let half = g.bye_half_points().unwrap_or(0);
            let code = g.bye_code.unwrap_or(match half {
                2 => 'U',
                1 => 'H',
                _ => 'Z',
            });
            let n = number_of(match side {
                Side::White => &g.white.name,
                Side::Black => &g.black.name,
            });
            players[n - 1].rounds[r] = Some((0, '-', code));
            players[n - 1].half_points += half;
            placed.dates[r].push(&g.date);
            if g.bye_code.is_none() {
                placed.byes += 1;
            }
            continue;
        }
        let why: Vec<&str> = g.excluded.iter().copied().collect();
        if !why.is_empty() && opts.not_rated == NotRated::Omit {
            placed
                .left_out
                .push(format!("{}: not rated ({})", name(g), why.join(", ")));
            continue;
        }
        let Some((w_code, b_code, w_half, b_half)) = codes(g.result, g.forfeit, !why.is_empty())
        else {
            continue;
        };
        if g.forfeit {
            placed.not_rated.push(format!("{}: a forfeit", name(g)));
        } else if !why.is_empty() {
            placed
                .not_rated
                .push(format!("{}: {}", name(g), why.join(", ")));
        }
        let (w, b) = (number_of(&g.white.name), number_of(&g.black.name));
        players[w - 1].rounds[r] = Some((b, 'w', w_code));
        players[b - 1].rounds[r] = Some((w, 'b', b_code));
        players[w - 1].half_points += w_half;
        players[b - 1].half_points += b_half;
        placed.dates[r].push(&g.date);
    }
    placed
}

/// `ns` are 1 to `n`, each once (a file's starting ranks, or its ranks).
fn one_to_n(ns: &[usize], n: usize) -> bool {
    let set: std::collections::BTreeSet<&usize> = ns.iter().collect();
    ns.len() == n && set.len() == n && ns.iter().all(|k| (1..=n).contains(k))
}

/// A tournament file's ranks where every player's points are the file's
/// (its tie-breaks ranked them); else ranks by points, then starting
/// number, said on the screen.
fn rank(players: &mut [TrfPlayer], kept: Option<&super::trf_in::Kept>, notes: &mut Vec<String>) {
    if let Some(kept) = kept {
        let changed: Vec<String> = players
            .iter()
            .filter_map(|p| {
                let file = kept.players.get(&p.name)?.half_points;
                (file != Some(p.half_points)).then(|| {
                    let points = |h: u32| format!("{:.1}", f64::from(h) / 2.0);
                    format!(
                        "{} {} in the file, {} now",
                        p.name,
                        file.map_or("no points".to_string(), points),
                        points(p.half_points)
                    )
                })
            })
            .collect();
        let ranks: Option<Vec<usize>> = players
            .iter()
            .map(|p| kept.players.get(&p.name).map(|f| f.rank))
            .collect();
        let whole = ranks.is_some_and(|r| one_to_n(&r, players.len()));
        if changed.is_empty() && whole {
            for p in players.iter_mut() {
                p.rank = kept.players.get(&p.name).map_or(0, |f| f.rank);
            }
            return;
        }
        if changed.is_empty() {
            notes.push(
                "the tournament file's ranks are not 1 to N: ranked by points, then starting rank"
                    .into(),
            );
        } else {
            notes.push(format!(
                "ranked by points, then starting rank (the file's tie-breaks are not applied): the points differ from the file's for {} ({}{})",
                crate::claim::plural(changed.len(), "player"),
                changed.iter().take(3).cloned().collect::<Vec<_>>().join("; "),
                if changed.len() > 3 { "; …" } else { "" }
            ));
        }
    }
    let mut by_points: Vec<(u32, usize)> =
        players.iter().map(|p| (p.half_points, p.number)).collect();
    by_points.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (rank, (_, n)) in by_points.into_iter().enumerate() {
        players[n - 1].rank = rank + 1;
    }
}

/// Each round's date for `132` (`YY/MM/DD`): the most common complete one
/// among its games, with a note where they differ.
/// A PGN date with every part given: `2023.08.12` (`-` and `/` too).
pub(crate) fn complete(d: &str) -> bool {
    let b = d.as_bytes();
    b.len() == 10
        && [4, 7].iter().all(|&i| matches!(b[i], b'.' | b'-' | b'/'))
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

fn round_dates(dates: &[Vec<&str>], notes: &mut Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    for (r, ds) in dates.iter().enumerate() {
        let ds: Vec<&str> = ds.iter().copied().filter(|d| complete(d)).collect();
        let d = most_common(&ds).map_or(String::new(), |(d, ..)| d.to_string());
        if ds.iter().any(|x| *x != d) {
            notes.push(format!(
                "the games of round {} are on more than one date: the 132 line has {d}",
                r + 1
            ));
        }
        out.push(if d.is_empty() { d } else { slash(&d[2..]) });
    }
    out
}

/// TRF-16's result codes for White and Black, and their half points: `1`,
/// `=`, `0` rated; `W`, `D`, `L` not rated; `+`, `-` a forfeit. `None` for
/// no result.
fn codes(result: GameResult, forfeit: bool, unrated: bool) -> Option<(char, char, u32, u32)> {
    Some(match (result, forfeit, unrated) {
        (GameResult::WhiteWins, true, _) => ('+', '-', 2, 0),
        (GameResult::BlackWins, true, _) => ('-', '+', 0, 2),
        (GameResult::WhiteWins, false, false) => ('1', '0', 2, 0),
        (GameResult::BlackWins, false, false) => ('0', '1', 0, 2),
        (GameResult::Draw, _, false) => ('=', '=', 1, 1),
        (GameResult::WhiteWins, false, true) => ('W', 'L', 2, 0),
        (GameResult::BlackWins, false, true) => ('L', 'W', 0, 2),
        (GameResult::Draw, _, true) => ('D', 'D', 1, 1),
        (GameResult::Unknown, ..) => return None,
    })
}
