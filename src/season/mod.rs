//! A league season: standings, rule checks with their penalties, grading
//! export, player of the year, a handicapped cup and ratings, as the
//! league's file (`league`) provides. `model` reads and checks the season
//! file (`board_pgn`: a board's PGN holds that board's game); `engine`
//! applies the league's rules; `ecf` writes the ECF results-submission file.

pub(crate) mod board_pgn;
pub(crate) mod ecf;
pub(crate) mod engine;
pub mod league;
pub(crate) mod model;
pub(crate) mod sheets;

pub use engine::expected;
pub use league::League;

pub use model::Pending;
use model::{Board, Fixture, MatchSide, Season};

use std::path::Path;

use crate::{
    model::GameResult,
    pipeline::{self, Options},
    read::Source,
    rules::Ruleset,
};

/// A rule broken (or a note a grader must see), with its penalty.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub fixture: String,
    pub board: Option<u32>,
    pub rule: String,
    pub what: String,
    pub penalty: String,
}

impl Violation {
    pub(crate) fn new(
        f: &Fixture,
        board: Option<u32>,
        rule: &str,
        what: String,
        penalty: &str,
    ) -> Violation {
        Violation {
            fixture: f.id.clone(),
            board,
            rule: rule.into(),
            what,
            penalty: penalty.into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Standing {
    pub(crate) division: String,
    pub team: String,
    pub(crate) played: u32,
    pub(crate) won: u32,
    pub(crate) drawn: u32,
    pub lost: u32,
    pub game_points: f64,
    pub penalty: f64,
    pub match_points: f64,
    pub position: u32,
    pub note: String,
}

/// One rated game for the grader.
#[derive(Clone, Debug, PartialEq)]
pub struct GradingRow {
    pub(crate) date: String,
    pub(crate) event: String,
    /// The match as named ("Home v Away"), and the fixture's id.
    pub(crate) fixture: String,
    pub(crate) fixture_id: String,
    pub board: u32,
    pub(crate) white: usize,
    pub(crate) black: usize,
    /// `1-0`, `0-1`, `1/2-1/2`, White first.
    pub score: GameResult,
    /// The home player's colour.
    pub(crate) home_colour: &'static str,
    pub(crate) white_grade: String,
    pub(crate) black_grade: String,
    pub(crate) league: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PoyRow {
    pub player: String,
    pub(crate) team: String,
    pub games: u32,
    pub(crate) points: f64,
    pub(crate) ratio: f64,
    pub matches_played: u32,
    pub matches_available: u32,
    pub eligible: bool,
    pub(crate) grade_increase_pct: Option<f64>,
    pub rank: Option<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CupRow {
    pub(crate) fixture: String,
    pub(crate) round: String,
    pub(crate) date: String,
    pub(crate) home: String,
    pub(crate) away: String,
    pub(crate) home_grade_total: f64,
    pub(crate) away_grade_total: f64,
    pub difference: f64,
    pub handicap: f64,
    pub(crate) handicap_to: String,
    pub(crate) home_boards: f64,
    pub(crate) away_boards: f64,
    pub home_total: f64,
    pub away_total: f64,
    pub tiebreak: String,
    pub winner: String,
    /// The tie is the competition organiser's to decide (DDCL 14(p)).
    pub organiser: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub player: String,
    pub(crate) team: String,
    pub(crate) start: f64,
    pub(crate) games: u32,
    pub forfeit_wins: u32,
    pub rating: f64,
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub standings: Vec<Standing>,
    /// Breaches of the league's rules, each with its penalty.
    pub violations: Vec<Violation>,
    /// What a rule provides for without anything being wrong (a DDCL 5
    /// tie, a DDCL 10 substitute, an HSL XIII forfeit rating, a fixture to
    /// be rearranged under DDCL 3), each with its effect.
    pub notes: Vec<Violation>,
    pub grading: Vec<GradingRow>,
    pub poy: Vec<PoyRow>,
    pub cup: Vec<CupRow>,
    pub ratings: Vec<RatingRow>,
    /// Boards whose result is not known yet: they count for neither side,
    /// and their matches' standings are provisional.
    pub pending: Vec<PendingRow>,
}

/// A board waiting for a decision.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingRow {
    pub fixture: String,
    pub(crate) date: String,
    pub board: u32,
    pub(crate) home: String,
    pub(crate) away: String,
    pub reason: String,
    pub game_key: String,
}

/// Lists the pending boards and marks the standings of the teams whose
/// matches they belong to as provisional.
fn pending(season: &Season, report: &mut Report) {
    let mut per_team: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    for f in &season.fixtures {
        for b in f.boards.iter().chain(&f.tiebreaks) {
            let Some(p) = &b.pending else { continue };
            let name =
                |p: Option<usize>| p.map(|p| season.player(p).name.clone()).unwrap_or_default();
            report.pending.push(PendingRow {
                fixture: f.id.clone(),
                date: f.date.to_string(),
                board: b.board,
                home: name(b.home),
                away: name(b.away),
                reason: p.reason.clone(),
                game_key: p.game_key.clone(),
            });
            // A cup tie's boards leave the league table as it is.
            if f.competition != model::Competition::League {
                continue;
            }
            for t in [f.home, f.away] {
                per_team
                    .entry(t)
                    .or_default()
                    .push(format!("{} board {}", f.id, b.board));
            }
        }
    }
    // A league default whose notice is not recorded is not scored yet
    // (DDCL 3): the two teams' standings wait on it too.
    let mut defaults: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    let mut short: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    for f in unscored_defaults(season) {
        for t in [f.home, f.away] {
            defaults.entry(t).or_default().push(f.id.clone());
        }
    }
    for (f, board) in unscored_short_boards(season) {
        for t in [f.home, f.away] {
            short
                .entry(t)
                .or_default()
                .push(format!("{} board {board}", f.id));
        }
    }
    // A league result likely missing: both teams' standings wait on it.
    let mut missing: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    for f in overdue(season)
        .into_iter()
        .filter(|f| f.competition == model::Competition::League)
    {
        for t in [f.home, f.away] {
            missing.entry(t).or_default().push(f.id.clone());
        }
    }
    for s in &mut report.standings {
        let Some(i) = season.teams.iter().position(|t| t.name == s.team) else {
            continue;
        };
        let mut parts = Vec::new();
        if let Some(boards) = per_team.get(&i) {
            parts.push(format!(
                "{} pending ({})",
                plural_boards(boards.len()),
                boards.join(", ")
            ));
        }
        if let Some(ids) = defaults.get(&i) {
            parts.push(format!(
                "{} not scored, the default's notice not recorded",
                ids.join(", ")
            ));
        }
        if let Some(ids) = short.get(&i) {
            parts.push(format!(
                "{} not scored, the short notice not recorded",
                ids.join(", ")
            ));
        }
        if let Some(ids) = missing.get(&i) {
            parts.push(format!(
                "{} no result yet, dated before matches already in",
                ids.join(", ")
            ));
        }
        if !parts.is_empty() {
            let note = format!("provisional: {}", parts.join("; "));
            s.note = if s.note.is_empty() {
                note
            } else {
                format!("{}; {note}", s.note)
            };
        }
    }
}

/// Fixtures with no boards yet dated before a match whose boards are in:
/// likelier a result forgotten than a match to come.
pub(crate) fn overdue(season: &Season) -> Vec<&Fixture> {
    let last_played = season
        .fixtures
        .iter()
        .filter(|f| !f.boards.is_empty())
        .map(|f| f.date)
        .max();
    season
        .fixtures
        .iter()
        .filter(|f| f.awaiting && last_played.is_some_and(|d| f.date < d))
        .collect()
}

/// A team that fielded one player fewer than the match's `boards`.
pub(crate) fn one_short(f: &Fixture, home: bool, boards: u32) -> bool {
    seats(f, home).iter().filter(|s| s.0 <= boards).count() + 1 == boards as usize
}

/// The notice hours that make the last board of league match `f` a tie,
/// where one team left it empty, one player short, the league makes that
/// board a tie with notice (DDCL 5), and the fixture records no notice:
/// whether it is a tie or lost by default cannot be told.
pub(crate) fn short_notice_unknown(league: &league::League, f: &Fixture) -> Option<u32> {
    let boards = league.team_match.boards;
    let hours = league.empty_board.short_tie_notice_hours?;
    // A player named for the board who did not come is no team fielded
    // one short with notice: that board is lost as before (DDCL 10).
    let last = f.boards.iter().find(|b| b.board == boards);
    if f.competition != model::Competition::League
        || f.short_notice_hours.is_some()
        || last.is_some_and(|b| b.no_show.is_some())
    {
        return None;
    }
    let empty = |home: bool| last.is_none_or(|b| b.seat(MatchSide::of(home)).is_none());
    let short = |home: bool| empty(home) && one_short(f, home, boards);
    (short(true) || short(false)).then_some(hours)
}

/// League boards not scored for want of the short notice's hours, by
/// fixture: `(fixture, board)`.
pub(crate) fn unscored_short_boards(season: &Season) -> Vec<(&Fixture, u32)> {
    let boards = season.rules.team_match.boards;
    season
        .fixtures
        .iter()
        .filter(|f| f.status == model::FixtureStatus::Played)
        .filter(|f| short_notice_unknown(&season.rules, f).is_some())
        .map(|f| (f, boards))
        .collect()
}

/// League defaults not scored because their notice is not recorded
/// (the engine notes each): the season needs attention until it is.
pub(crate) fn unscored_defaults(season: &Season) -> impl Iterator<Item = &Fixture> {
    season.fixtures.iter().filter(|f| {
        f.competition == model::Competition::League
            && f.default_notice_unknown()
            && season.rules.default.is_some()
    })
}

/// Notes what a board's PGN left unchecked: a player its tags do not name.
fn pgn_notes(season: &Season, report: &mut Report) {
    for f in &season.fixtures {
        for b in f.boards.iter().chain(&f.tiebreaks) {
            for note in &b.pgn_notes {
                report.notes.push(Violation::new(
                    f,
                    Some(b.board),
                    &note.rule,
                    note.text.clone(),
                    note.effect,
                ));
            }
        }
    }
}

fn plural_boards(n: usize) -> String {
    crate::claim::plural(n, "board")
}

/// Points for the home side on one board that was played.
pub(crate) fn home_score(b: &Board) -> Option<f64> {
    let r = b.result?;
    Some(match (r, b.home_white) {
        (GameResult::Draw, _) => 0.5,
        (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 1.0,
        (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => 0.0,
        (GameResult::Unknown, _) => return None,
    })
}

/// The players of a played board, White first.
pub(crate) fn colours(b: &Board) -> Option<(usize, usize)> {
    match (b.home, b.away) {
        (Some(h), Some(a)) if b.result.is_some() => {
            Some(if b.home_white { (h, a) } else { (a, h) })
        }
        _ => None,
    }
}

/// The boards a side filled, with its player on each: (board, player).
pub(crate) fn seats(f: &Fixture, home: bool) -> Vec<(u32, usize)> {
    let side = MatchSide::of(home);
    f.boards
        .iter()
        .filter_map(|b| b.seat(side).map(|p| (b.board, p)))
        .collect()
}

/// The boards a side filled as its team list had them, for the
/// board-order rules: a late substitute's board holds the nominated player
/// it replaced. DDCL 7's order is the list's, exchanged before play, and
/// DDCL 10 judges a substitute against the player replaced only.
pub(crate) fn listed_seats(f: &Fixture, home: bool) -> Vec<(u32, usize)> {
    let side = MatchSide::of(home);
    f.boards
        .iter()
        .filter_map(|b| {
            let listed = match b.substitute {
                Some((s, nominated)) if s == side => Some(nominated),
                _ => b.seat(side),
            };
            b.seat(side).and(listed).map(|p| (b.board, p))
        })
        .collect()
}

/// The month a season named by two years starts in (July): `season init`
/// names seasons by it, and a season's span is reckoned from it.
pub(crate) const SEASON_FIRST_MONTH: u8 = 7;

/// The days a season named `2026-27` (or `2026/27`, `2026/2027`) spans as
/// `season init` reckons a season, July to June; one named by a single
/// year, that year. `None` where the name gives no year.
pub(crate) fn season_span(name: &str) -> Option<(model::Date, model::Date)> {
    let digits: Vec<&str> = name
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .collect();
    let year = |s: &str| s.parse::<u16>().ok().filter(|y| (1900..=2999).contains(y));
    // The first year in it ("Division 1 2026-27" is 2026-27).
    let at = digits
        .iter()
        .position(|d| d.len() == 4 && year(d).is_some())?;
    let first = year(digits[at])?;
    let date = |year, month, day| model::Date { year, month, day };
    match digits.get(at + 1) {
        Some(next) if next.len() == 2 || next.len() == 4 => {
            let second = first + 1;
            let ends = next.parse::<u16>().ok()? % 100 == second % 100;
            let last = SEASON_FIRST_MONTH - 1;
            let end = date(second, last, crate::model::days_in_month(second, last));
            ends.then(|| (date(first, SEASON_FIRST_MONTH, 1), end))
        }
        None => Some((date(first, 1, 1), date(first, 12, 31))),
        _ => None,
    }
}

/// Players whose grade looks like a rating (over 400: the ECF's grades
/// ran to about 300) in a league that ranks by grade, in words: mixed with
/// grades, such figures break the board order and the grade increases.
pub(crate) fn grades_like_ratings(season: &Season) -> Vec<String> {
    if season.rules.strength() != league::Strength::Grade {
        return Vec::new();
    }
    season
        .players
        .iter()
        .filter_map(|p| {
            let high = [p.grade, p.end_grade, p.estimated.map(|e| e.0)]
                .into_iter()
                .flatten()
                .find(|&g| g > 400)?;
            Some(format!("{} {high}", p.name))
        })
        .collect()
}

/// Fixtures dated outside the season's span (`season_span`), in words.
pub(crate) fn outside_season(season: &Season) -> Vec<String> {
    let Some((first, last)) = season_span(&season.season) else {
        return Vec::new();
    };
    season
        .fixtures
        .iter()
        .filter(|f| f.date < first || f.date > last)
        .map(|f| format!("{} ({})", f.id, f.date))
        .collect()
}

/// A standings row for every team, all at zero.
pub(crate) fn empty_table(season: &Season) -> std::collections::BTreeMap<usize, Standing> {
    season
        .teams
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (
                i,
                Standing {
                    division: t.division.clone(),
                    team: t.name.clone(),
                    ..Standing::default()
                },
            )
        })
        .collect()
}

pub(crate) fn match_name(season: &Season, f: &Fixture) -> String {
    format!(
        "{} v {}",
        season.team(f.home).name,
        season.team(f.away).name
    )
}

/// "A", "A and B", "A, B and C".
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Sorts each division's standings and numbers them, as the league's
/// `[standings]` says: by match points, then game points where they break
/// ties; teams level on what ranks them share a place, and where the
/// league plays off that tie, get a note saying so.
pub(crate) fn rank(rows: &mut [Standing], rules: &league::Standings) {
    let game_points_break = rules.tie_breaks.contains(&league::TieBreak::GamePoints);
    // What ranks a team, best first: (match points, tie-break).
    let key_of = |r: &Standing| -> (f64, f64) {
        if game_points_break {
            (r.match_points, r.game_points)
        } else {
            (r.match_points, 0.0)
        }
    };
    rows.sort_by(|a, b| {
        let (ka, kb) = (key_of(a), key_of(b));
        a.division
            .cmp(&b.division)
            .then(kb.0.total_cmp(&ka.0))
            .then(kb.1.total_cmp(&ka.1))
            .then(b.game_points.total_cmp(&a.game_points))
            .then(a.team.cmp(&b.team))
    });
    let level = if game_points_break {
        "on match and game points"
    } else {
        "on match points"
    };
    let tie_rule = &rules.cite;
    let mut pos = 0;
    let mut prev: Option<(String, (f64, f64))> = None;
    let mut in_div = 0;
    // The rows of each run of teams level on what ranks them.
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, row) in rows.iter_mut().enumerate() {
        let key = (row.division.clone(), key_of(row));
        if prev.as_ref().is_none_or(|p| p.0 != key.0) {
            in_div = 0;
        }
        in_div += 1;
        if prev.as_ref() != Some(&key) {
            pos = in_div;
            runs.push(i..i + 1);
        } else if let Some(run) = runs.last_mut() {
            run.end = i + 1;
        }
        row.position = pos;
        prev = Some(key);
    }
    // Each team of a tie the league plays off names every other in it.
    for run in runs.into_iter().filter(|r| r.len() > 1) {
        let settled = rules.play_off == league::PlayOff::AnyPlace || rows[run.start].position == 1;
        if !settled {
            continue;
        }
        let names: Vec<String> = rows[run.clone()].iter().map(|r| r.team.clone()).collect();
        for (k, i) in run.enumerate() {
            let others: Vec<&str> = names
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, n)| n.as_str())
                .collect();
            rows[i].note = format!(
                "level with {} {level}: play-off ({tie_rule})",
                and_list(&others)
            );
        }
    }
}

/// Runs the season's league rules.
pub fn process(season: &Season) -> Report {
    let mut report = engine::process(season);
    pgn_notes(season, &mut report);
    pending(season, &mut report);
    engine::scale_note(&season.rules, &mut report);
    report
}

/// Largest season file read.
const MAX_SEASON_BYTES: u64 = 4 << 20;

/// Largest league file read.
const MAX_LEAGUE_BYTES: u64 = 1 << 20;

/// Most errors said at once: a season's files with more are put right a
/// part at a time.
const MAX_ERRORS_SAID: usize = 30;

/// Errors as one message, a line each (the first `MAX_ERRORS_SAID`, then
/// how many more).
pub(crate) fn all_errors(errors: Vec<String>) -> String {
    let more = errors.len().saturating_sub(MAX_ERRORS_SAID);
    let mut lines: Vec<String> = errors.into_iter().take(MAX_ERRORS_SAID).collect();
    if more > 0 {
        let noun = if more == 1 { "error" } else { "errors" };
        lines.push(format!(
            "... and {more} more {noun}: put these right and run again"
        ));
    }
    lines.join("\n")
}

/// A built-in league by name, or a league file beside the season file.
fn load_league(name: &str, base: &Path, allow_outside: bool) -> Result<League, String> {
    use crate::read::contained::{contained, read_regular};
    if crate::rules::league_name(name).is_some() {
        return League::builtin(name).ok_or_else(|| format!("league {name:?} does not load"));
    }
    let full = contained(base, name, allow_outside)?;
    let bytes = read_regular(&full, MAX_LEAGUE_BYTES).map_err(|e| format!("{name}: {e}"))?;
    let text = crate::read::text::decode(name, bytes);
    League::parse(name, &text)
}

/// Reads and checks a season file, judging any per-board PGN under its
/// ruleset. The paths it names (ruleset, PGN) follow the one containment
/// rule (`read::contained`): beside the season file unless `allow_outside`.
pub fn load(path: &Path, allow_outside: bool) -> Result<model::Season, String> {
    load_with(path, allow_outside, None)
}

/// `load`, with recorded decisions applied to the boards judged from PGN
/// (a board the record cannot settle counts once a decision names it).
pub fn load_with(
    path: &Path,
    allow_outside: bool,
    decisions: Option<std::sync::Arc<crate::judge::decisions::Decisions>>,
) -> Result<model::Season, String> {
    use crate::read::contained::{contained, read_regular};
    let name = path.display().to_string();
    // A spreadsheet given where the season file goes: say which file is wanted.
    let ext = path.extension().map(|e| e.to_ascii_lowercase());
    if ext
        .as_ref()
        .is_some_and(|e| ["csv", "xlsx", "xls", "ods", "tsv"].iter().any(|x| e == *x))
    {
        return Err(format!(
            "{name}: a season is run from its TOML file, the one that names its teams, players, fixtures and boards (and any spreadsheets of them): give that file (docs/seasons.md; `arbiter season init` writes one)"
        ));
    }
    let bytes = read_regular(path, MAX_SEASON_BYTES).map_err(|e| format!("{name}: {e}"))?;
    let text = crate::read::text::decode(&name, bytes);
    // The key and line of a TOML error, never the text of the file.
    let mut raw: model::RawSeason = toml::from_str(&text).map_err(|e: toml::de::Error| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].lines().count().max(1));
        let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
        format!("{name}{at}: {}", e.message())
    })?;
    let base = path.parent().unwrap_or(Path::new("."));
    let league = load_league(&raw.rules.0, base, allow_outside)
        .map_err(|e| format!("{name}: rules: {e}"))?;
    let ruleset_name = raw
        .ruleset
        .clone()
        .unwrap_or_else(|| league.games.ruleset.clone());
    let rules = Ruleset::load_contained(&ruleset_name, base, allow_outside)
        .map_err(|e| format!("{name}: ruleset: {e}"))?;
    // Every file the season is read from, which no output may replace.
    let mut read = vec![path.to_path_buf()];
    read.extend(sheets::read_into(&mut raw, base, allow_outside)?);
    if crate::rules::league_name(&raw.rules.0).is_none() {
        read.extend(contained(base, &raw.rules.0, allow_outside).ok());
    }
    let inputs = std::cell::RefCell::new(read);
    inputs
        .borrow_mut()
        .extend(Ruleset::file_of(&ruleset_name, base, allow_outside));
    let judge = |pgn: &Path| -> Result<Vec<model::PgnGame>, String> {
        let rel = pgn.to_string_lossy();
        let full = contained(base, &rel, allow_outside)?;
        inputs.borrow_mut().push(full.clone());
        let meta = std::fs::metadata(&full).map_err(|_| "no such file".to_string())?;
        if !meta.is_file() {
            return Err("is not a regular file".into());
        }
        let src = [Source::File {
            path: full.clone(),
            name: full.display().to_string(),
        }];
        let mut games = Vec::new();
        let opts = Options {
            jobs: 1,
            decisions: decisions.clone(),
            ..Options::default()
        };
        // Every game of the file: the board checks it holds its one game.
        let summary = pipeline::for_each_game(&src, &rules, &opts, |o| {
            let j = o.judgement;
            let result = if j.verdict.result == GameResult::Unknown {
                // Why, and the way back: a decision recorded under the game's key.
                Err(model::Pending {
                    reason: format!(
                        "the game's result cannot be decided under {}: {}",
                        rules.name, j.detail
                    ),
                    game_key: j.key.map(|k| k.to_string()).unwrap_or_default(),
                })
            } else {
                Ok(j.verdict.result)
            };
            // A result the game's record does not give is said where the
            // board is graded from it.
            let recorded = o.tags.recorded_result();
            let correction =
                (result.is_ok() && j.verdict.result != recorded).then(|| board_pgn::PgnNote {
                    rule: j.verdict.rule.to_string(),
                    text: format!(
                        "the game records {}, judged {} ({})",
                        recorded.as_str(),
                        j.verdict.result.as_str(),
                        j.verdict.reason.as_str()
                    ),
                    effect: "graded as judged",
                });
            games.push(model::PgnGame {
                white: o.tags.white,
                black: o.tags.black,
                date: o.tags.date,
                result,
                correction,
            });
        })
        .map_err(|e| e.to_string())?;
        if let Some(e) = summary.errors.first() {
            return Err(e.clone());
        }
        if games.is_empty() {
            return Err("no game in the file".into());
        }
        Ok(games)
    };
    let mut season = model::validate(&name, raw, league, &judge)
        .map_err(|es| all_errors(es.iter().map(ToString::to_string).collect()))?;
    season.inputs = inputs.into_inner();
    season.control = (rules.name.clone(), rules.default_tc.clone());
    Ok(season)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standings(points: &[(&str, f64)]) -> Vec<Standing> {
        points
            .iter()
            .map(|(team, mp)| Standing {
                team: team.to_string(),
                match_points: *mp,
                ..Standing::default()
            })
            .collect()
    }

    fn ranked(play_off: league::PlayOff) -> Vec<(u32, String, String)> {
        let mut rows = standings(&[("A", 3.0), ("B", 3.0), ("C", 1.0), ("D", 1.0)]);
        let rules = league::Standings {
            tie_breaks: Vec::new(),
            play_off,
            cite: "X 1".into(),
        };
        rank(&mut rows, &rules);
        rows.into_iter()
            .map(|r| (r.position, r.team, r.note))
            .collect()
    }

    /// DDCL 12 plays off ties for all places; HSL XIV only ties for the
    /// championship: teams level lower down rank equal, with no note.
    #[test]
    fn play_offs_for_any_place_or_first_place_only() {
        let note = |other: &str| format!("level with {other} on match points: play-off (X 1)");
        assert_eq!(
            ranked(league::PlayOff::AnyPlace),
            [
                (1, "A".into(), note("B")),
                (1, "B".into(), note("A")),
                (3, "C".into(), note("D")),
                (3, "D".into(), note("C")),
            ]
        );
        assert_eq!(
            ranked(league::PlayOff::FirstPlace),
            [
                (1, "A".into(), note("B")),
                (1, "B".into(), note("A")),
                (3, "C".into(), String::new()),
                (3, "D".into(), String::new()),
            ]
        );
    }

    /// A tie of three names both others in each team's note.
    #[test]
    fn a_three_way_tie_names_every_other_team() {
        let mut rows = standings(&[("A", 1.0), ("B", 1.0), ("C", 1.0), ("D", 0.0)]);
        let rules = league::Standings {
            tie_breaks: Vec::new(),
            play_off: league::PlayOff::FirstPlace,
            cite: "X 1".into(),
        };
        rank(&mut rows, &rules);
        let notes: Vec<(u32, &str)> = rows.iter().map(|r| (r.position, r.note.as_str())).collect();
        assert_eq!(
            notes,
            [
                (1, "level with B and C on match points: play-off (X 1)"),
                (1, "level with A and C on match points: play-off (X 1)"),
                (1, "level with A and B on match points: play-off (X 1)"),
                (4, ""),
            ]
        );
        assert_eq!(and_list(&["A", "B", "C"]), "A, B and C");
    }
}

#[cfg(test)]
mod span_tests {
    #[test]
    fn a_seasons_name_gives_its_span() {
        let d = |s: &str| super::model::Date::parse(s);
        for (name, want) in [
            ("2009/10", d("2009-07-01").zip(d("2010-06-30"))),
            ("2026-27", d("2026-07-01").zip(d("2027-06-30"))),
            ("Season 2026/2027", d("2026-07-01").zip(d("2027-06-30"))),
            ("1999-00", d("1999-07-01").zip(d("2000-06-30"))),
            ("2026", d("2026-01-01").zip(d("2026-12-31"))),
            ("Division 1 2026-27", d("2026-07-01").zip(d("2027-06-30"))),
            ("2026-28", None),
            ("Autumn", None),
            ("26/27", None),
        ] {
            assert_eq!(super::season_span(name), want, "{name}");
        }
    }
}
