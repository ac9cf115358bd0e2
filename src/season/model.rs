//! The season file (TOML) as written by a grader, and its validation into a
//! `Season` whose names, dates and results have all been checked. Every error
//! names the file, the fixture and the board.

use std::{collections::HashMap, fmt, path::Path};

use serde::Deserialize;

use super::board_pgn::Checked;
pub(crate) use super::board_pgn::PgnGame;
pub(crate) use crate::model::Date;
use crate::model::GameResult;

/// A season's `rules`: a built-in league's name, or a league file (`.toml`,
/// beside the season file). A ruleset's name there (which belongs under
/// `ruleset`) gets a message that says which key takes what.
#[derive(Clone, Debug)]
pub(crate) struct LeagueName(pub(crate) String);

impl<'de> Deserialize<'de> for LeagueName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LeagueName, D::Error> {
        let name = String::deserialize(d)?;
        if name.ends_with(".toml") || crate::rules::league_name(&name).is_some() {
            return Ok(LeagueName(name));
        }
        if crate::rules::Ruleset::builtin_text(&name).is_some() {
            return Err(serde::de::Error::custom(format!(
                "{name:?} is a ruleset: `rules` names the league (\"ddcl\", \"hs-league\" or a league file), and `ruleset = {name:?}` the rules its games are judged under"
            )));
        }
        Err(serde::de::Error::custom(format!(
            "unknown league {name:?}: `rules` is \"ddcl\" (Darlington & District), \"hs-league\" (the US high-school league) or a league file such as \"my-league.toml\" (docs/leagues.md)"
        )))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSeason {
    pub(crate) league: String,
    pub(crate) season: String,
    pub(crate) rules: LeagueName,
    /// Ruleset for boards judged from PGN (default: the league's).
    pub(crate) ruleset: Option<String>,
    #[serde(default)]
    pub(crate) grading_list: String,
    #[serde(default, deserialize_with = "date_text_opt")]
    pub(crate) grading_date: Option<String>,
    pub(crate) ecf: Option<RawEcf>,
    #[serde(default)]
    pub(crate) teams: Vec<RawTeam>,
    #[serde(default)]
    pub(crate) players: Vec<RawPlayer>,
    #[serde(default)]
    pub(crate) fixtures: Vec<RawFixture>,
    /// DDCL 15's open questions, as the league decides them.
    #[serde(default)]
    pub(crate) player_of_year: PoySettings,
    /// Spreadsheet files with more teams, players, fixtures and boards.
    #[serde(default)]
    pub(crate) csv: CsvFiles,
}

/// The CSV files a season file names (relative to it), read as if their
/// rows were written as the TOML tables of the same names (docs/seasons.md).
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct CsvFiles {
    pub(crate) teams: Option<String>,
    pub(crate) players: Option<String>,
    pub(crate) fixtures: Option<String>,
    pub(crate) boards: Option<String>,
}

/// The spreadsheet row a table's entry came from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Origin {
    pub(crate) file: String,
    /// The line in the file (the header is line 1).
    pub(crate) row: u64,
}

/// What DDCL 15 leaves open about the player of the year.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct PoySettings {
    /// A game won (or lost) on a board later forfeited under DDCL 9 counts
    /// as played (default) or is left out.
    pub(crate) count_forfeited_boards: bool,
    /// A match the opponent defaulted counts among the matches "available"
    /// (default: no, the player could not play it).
    pub(crate) defaulted_matches_available: bool,
}

impl Default for PoySettings {
    fn default() -> PoySettings {
        PoySettings {
            count_forfeited_boards: true,
            defaulted_matches_available: false,
        }
    }
}

#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEcf {
    pub(crate) event_code: String,
    pub(crate) submission_index: u32,
    pub(crate) event_name: String,
    #[serde(deserialize_with = "date_text")]
    pub(crate) event_date: String,
    #[serde(deserialize_with = "date_text")]
    pub(crate) final_result_date: String,
    pub(crate) results_officer: String,
    pub(crate) results_officer_address: String,
    pub(crate) treasurer: String,
    pub(crate) treasurer_address: String,
}

#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTeam {
    #[serde(skip)]
    pub(crate) origin: Option<Origin>,
    pub(crate) name: String,
    pub(crate) club: String,
    #[serde(default)]
    pub(crate) division: String,
}

#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPlayer {
    #[serde(skip)]
    pub(crate) origin: Option<Origin>,
    pub(crate) name: String,
    pub(crate) team: String,
    pub(crate) grade: Option<u32>,
    pub(crate) ungraded: Option<bool>,
    pub(crate) estimated_grade: Option<u32>,
    #[serde(default, deserialize_with = "date_text_opt")]
    pub(crate) estimated_on: Option<String>,
    /// Grade at the end of the season (player of the year tie-break).
    pub(crate) end_grade: Option<u32>,
    #[serde(default)]
    pub(crate) ecf_code: String,
    /// HSL: school grade (8–12).
    pub(crate) school_grade: Option<u32>,
    /// HSL: the board the coach assigned before the season.
    pub(crate) preseason_board: Option<u32>,
    /// A rating, where the league orders boards by rating.
    pub(crate) rating: Option<u32>,
}

#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFixture {
    #[serde(skip)]
    pub(crate) origin: Option<Origin>,
    pub(crate) id: Option<String>,
    #[serde(deserialize_with = "date_text")]
    pub(crate) date: String,
    #[serde(default = "league_competition")]
    pub(crate) competition: String,
    #[serde(default)]
    pub(crate) division: String,
    #[serde(default)]
    pub(crate) round: String,
    pub(crate) final_round: Option<bool>,
    pub(crate) home: String,
    pub(crate) away: String,
    /// Empty where not written: played, or with no boards not played yet.
    #[serde(default)]
    pub(crate) status: String,
    pub(crate) defaulted_by: Option<String>,
    pub(crate) notice_hours: Option<u32>,
    pub(crate) without_warning: Option<bool>,
    /// Hours of notice a team gave that it would field one player short.
    pub(crate) short_notice_hours: Option<u32>,
    /// Which team gave that notice ("home", "away" or "both"): needed
    /// where both were one short.
    pub(crate) short_notice_by: Option<String>,
    /// Cup: the home team's colour on board 1 (colours alternate), from the toss.
    pub(crate) home_colour_board1: Option<String>,
    #[serde(default)]
    pub(crate) boards: Vec<RawBoard>,
    /// Cup tie-break games, in order (DDCL 14(l)).
    #[serde(default)]
    pub(crate) tiebreaks: Vec<RawBoard>,
}

fn league_competition() -> String {
    "league".into()
}

#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBoard {
    #[serde(skip)]
    pub(crate) origin: Option<Origin>,
    /// boards.csv: the fixture (by id) the board belongs to.
    pub(crate) fixture: Option<String>,
    /// boards.csv: a cup tie-break game rather than a board of the match.
    pub(crate) tiebreak: Option<bool>,
    pub(crate) board: u32,
    #[serde(default)]
    pub(crate) home: String,
    #[serde(default)]
    pub(crate) away: String,
    /// PGN result, White first; absent when a side had no player.
    pub(crate) result: Option<String>,
    /// The score as a match card writes it, home player first (`1-0`: the
    /// home player won), whatever the colours.
    pub(crate) score: Option<String>,
    /// A PGN file (relative to the season file) whose adjudicated result is used.
    pub(crate) pgn: Option<String>,
    /// The home player's colour, when not the league's rule.
    pub(crate) home_colour: Option<String>,
    /// DDCL 10: this side's player came as a late substitute for the named player.
    pub(crate) substitute: Option<String>,
    pub(crate) replaces: Option<String>,
    /// DDCL 10: both captains agreed to the substitute ("unless both
    /// captains agree", a stronger one is a breach).
    pub(crate) captains_agreed: Option<bool>,
    /// The named player of this side ("home" or "away") did not show: the
    /// board is forfeited (HSL IV, XIII), as an empty seat is, but the
    /// lineup keeps the name.
    pub(crate) no_show: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SeasonError {
    pub(crate) file: String,
    /// A spreadsheet's row (and column), where the entry came from one.
    pub(crate) at: Option<Box<(Origin, Option<&'static str>)>>,
    pub(crate) fixture: String,
    pub(crate) board: Option<u32>,
    pub(crate) message: String,
}

impl fmt::Display for SeasonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Values from the file are quoted in the message: bounded, so a
        // huge one gives a line, not the value.
        match self.at.as_deref() {
            Some((o, column)) => {
                write!(f, "{}: row {}", o.file, o.row)?;
                if let Some(c) = column {
                    write!(f, ", column {c}")?;
                }
            }
            None => write!(f, "{}", self.file)?,
        }
        if !self.fixture.is_empty() {
            write!(f, ": fixture {}", crate::model::excerpt(&self.fixture, 120))?;
        }
        if let Some(b) = self.board {
            write!(f, ", board {b}")?;
        }
        write!(f, ": {}", crate::model::excerpt(&self.message, 300))
    }
}

impl std::error::Error for SeasonError {}

/// One error where a check gathers them all.
impl From<SeasonError> for Vec<SeasonError> {
    fn from(e: SeasonError) -> Self {
        vec![e]
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Competition {
    League,
    Cup,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum FixtureStatus {
    Played,
    Postponed,
    /// A team defaulted the whole match.
    Defaulted,
}

/// One board as validated: player indexes, or `None` for an empty seat.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Board {
    pub(crate) board: u32,
    pub(crate) home: Option<usize>,
    pub(crate) away: Option<usize>,
    /// The game's result, White first (absent for a default).
    pub(crate) result: Option<GameResult>,
    pub(crate) home_white: bool,
    /// The board's own colours are known: written (`home_colour`), or,
    /// for a tie-break game in a cup whose colours are tossed, shown by its
    /// PGN; not taken from the fixture's or the league's rule.
    pub(crate) colour_given: bool,
    /// The result was given home first (`score`), so who won is known
    /// whatever the colours.
    pub(crate) scored_home_first: bool,
    /// DDCL 10: a late substitute on this side, and the nominated player
    /// replaced.
    pub(crate) substitute: Option<(MatchSide, usize)>,
    /// Both captains agreed to the substitute.
    pub(crate) captains_agreed: bool,
    /// A player in the lineup who did not show; that side's seat is empty.
    pub(crate) no_show: Option<(MatchSide, usize)>,
    /// Both players sat down but no result can be counted yet: the board
    /// waits for a decision and counts for neither side meanwhile.
    pub(crate) pending: Option<Pending>,
    /// What the board's PGN left unchecked (a player it does not name),
    /// or gave otherwise than it records (a result corrected).
    pub(crate) pgn_notes: Vec<super::board_pgn::PgnNote>,
}

impl Board {
    /// The player on `side`'s seat, if any.
    pub(crate) fn seat(&self, side: MatchSide) -> Option<usize> {
        match side {
            MatchSide::Home => self.home,
            MatchSide::Away => self.away,
        }
    }
}

/// Why a board's result is not known, and the key to record a decision under.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    pub reason: String,
    /// The game's key (`adjudicate`'s `game_key`), when the board has a PGN.
    pub game_key: String,
}

/// Home or away.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum MatchSide {
    Home,
    Away,
}

impl MatchSide {
    pub(crate) fn of(home: bool) -> MatchSide {
        if home {
            MatchSide::Home
        } else {
            MatchSide::Away
        }
    }
}

/// The teams a short-notice (DDCL 5) covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoticeBy {
    Home,
    Away,
    Both,
}

impl NoticeBy {
    pub(crate) fn covers(self, home: bool) -> bool {
        match self {
            NoticeBy::Both => true,
            NoticeBy::Home => home,
            NoticeBy::Away => !home,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Fixture {
    pub(crate) id: String,
    pub(crate) date: Date,
    pub(crate) competition: Competition,
    pub(crate) division: String,
    pub(crate) round: String,
    pub(crate) final_round: bool,
    pub(crate) home: usize,
    pub(crate) away: usize,
    pub(crate) status: FixtureStatus,
    pub(crate) defaulted_by: Option<usize>,
    pub(crate) notice_hours: Option<u32>,
    pub(crate) without_warning: bool,
    /// The fixture says what notice a default had (`notice_hours`, or
    /// `without_warning = true`: none at all): without it the notice rule
    /// (DDCL 3) cannot be applied. `without_warning = false` says a
    /// warning was given, not how long before.
    pub(crate) notice_recorded: bool,
    pub(crate) short_notice_hours: Option<u32>,
    /// The teams that notice covers; `None`: the one team short.
    pub(crate) short_notice_by: Option<NoticeBy>,
    pub(crate) boards: Vec<Board>,
    pub(crate) tiebreaks: Vec<Board>,
    /// No status and no boards: not played yet, or its result not in. It
    /// is held as postponed (not scored) and said.
    pub(crate) awaiting: bool,
}

impl Fixture {
    /// A default whose notice is not on record: neither lost nor to be
    /// rearranged can be told (DDCL 3), so it is not scored yet.
    pub(crate) fn default_notice_unknown(&self) -> bool {
        self.status == FixtureStatus::Defaulted && !self.notice_recorded
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Team {
    pub(crate) name: String,
    pub(crate) club: String,
    pub(crate) division: String,
}

#[derive(Clone, Debug)]
pub(crate) struct Player {
    pub(crate) name: String,
    pub(crate) team: usize,
    pub(crate) grade: Option<u32>,
    pub(crate) estimated: Option<(u32, Date)>,
    pub(crate) end_grade: Option<u32>,
    pub(crate) ecf_code: String,
    pub(crate) school_grade: Option<u32>,
    pub(crate) preseason_board: Option<u32>,
    pub(crate) rating: Option<u32>,
}

impl Player {
    /// The grade that counts on `date`: the published one, else an estimate
    /// set before that date (DDCL 8), else none (ungraded).
    pub(crate) fn grade_on(&self, date: Date) -> Option<u32> {
        self.grade
            .or(self.estimated.filter(|(_, on)| *on <= date).map(|(g, _)| g))
    }
}

#[derive(Clone, Debug)]
pub struct Season {
    pub(crate) file: String,
    pub(crate) league: String,
    pub(crate) season: String,
    pub(crate) rules: super::league::League,
    pub(crate) grading_list: String,
    pub(crate) grading_date: Option<Date>,
    pub(crate) ecf: Option<RawEcf>,
    pub(crate) teams: Vec<Team>,
    pub(crate) players: Vec<Player>,
    pub(crate) fixtures: Vec<Fixture>,
    pub(crate) player_of_year: PoySettings,
    /// The files the season was read from (itself, its ruleset file, the
    /// boards' PGN): no output may replace them.
    pub(crate) inputs: Vec<std::path::PathBuf>,
    /// The ruleset the games are played under, and its control (the ECF
    /// file's time limit).
    pub(crate) control: (String, crate::pgn::time_control::TimeControl),
}

impl Season {
    pub(crate) fn team(&self, i: usize) -> &Team {
        &self.teams[i]
    }

    pub(crate) fn player(&self, i: usize) -> &Player {
        &self.players[i]
    }
}

/// Judges the games of a PGN file: each with its players and its
/// adjudicated result, or why that is still pending; an error is a file
/// that cannot be read as games (or holds none).
pub(crate) type PgnJudge<'a> = dyn Fn(&Path) -> Result<Vec<PgnGame>, String> + 'a;

/// Validates a season read from `file`; `judge_pgn` judges a board's PGN
/// path (relative to the season file), whose one game must be the board's.
pub(crate) fn validate(
    file: &str,
    raw: RawSeason,
    league: super::league::League,
    judge_pgn: &PgnJudge<'_>,
) -> Result<Season, Vec<SeasonError>> {
    let mut c = Checker {
        file,
        rules: &league,
        team_index: HashMap::new(),
        teams: Vec::new(),
        player_index: HashMap::new(),
        players: Vec::new(),
        judge_pgn,
        at: std::cell::RefCell::new(None),
        ids: Default::default(),
        judged: Default::default(),
    };
    // Every entry's error is said, each table's in one pass; a table with
    // errors stops the check there, since the next names its entries (a
    // player left out would make each of his boards an error too).
    let mut errors: Vec<SeasonError> = raw.teams.iter().filter_map(|t| c.team(t).err()).collect();
    if errors.is_empty() {
        errors.extend(raw.players.iter().filter_map(|p| c.player(p).err()));
    }
    let mut fixtures = Vec::new();
    if errors.is_empty() {
        for f in &raw.fixtures {
            match c.fixture(f) {
                Ok(f) => fixtures.push(f),
                Err(es) => errors.extend(es),
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let (teams, players) = (c.teams, c.players);
    Ok(Season {
        file: file.to_string(),
        league: raw.league,
        season: raw.season,
        rules: league,
        grading_list: raw.grading_list,
        grading_date: raw.grading_date.as_deref().and_then(Date::parse),
        ecf: raw.ecf,
        teams,
        players,
        fixtures,
        player_of_year: raw.player_of_year,
        inputs: Vec::new(),
        control: (
            String::new(),
            crate::pgn::time_control::TimeControl::Unknown,
        ),
    })
}

/// A season file being checked: the teams and players read so far, what
/// the messages name, and the judge of a board's PGN.
struct Checker<'a, 'j> {
    file: &'a str,
    rules: &'a super::league::League,
    team_index: HashMap<String, usize>,
    teams: Vec<Team>,
    player_index: HashMap<String, usize>,
    players: Vec<Player>,
    judge_pgn: &'a PgnJudge<'j>,
    /// The spreadsheet row being checked, if it came from one.
    at: std::cell::RefCell<Option<Origin>>,
    /// The fixture ids given so far: each names one fixture.
    ids: std::cell::RefCell<std::collections::HashSet<String>>,
    /// Board PGNs judged so far, by path: a cup's toss may be read from a
    /// PGN before its board's result is.
    judged: std::cell::RefCell<HashMap<String, Vec<PgnGame>>>,
}

/// A colour as a season writes it, in any case ("White" as a spreadsheet
/// capitalises it): whether it is white, `None` where it is neither.
fn is_white(word: &str) -> Option<bool> {
    match word.to_ascii_lowercase().as_str() {
        "white" => Some(true),
        "black" => Some(false),
        _ => None,
    }
}

/// A board's result as its entry gives it, or why it waits; and what its
/// PGN left unchecked.
struct Given {
    result: Option<GameResult>,
    pending: Option<Pending>,
    pgn_notes: Vec<super::board_pgn::PgnNote>,
}

/// The match a board belongs to, as its boards are checked.
struct Match {
    id: String,
    home: usize,
    away: usize,
    status: FixtureStatus,
    home_white_on_1: Option<bool>,
    /// Colours went by a toss (a cup under DDCL 14(n)): the rule's cite,
    /// where no board's colour may come from the league's rule.
    tossed: Option<String>,
    /// The boards disagree on how the toss fell: how, in words.
    toss_conflict: Option<String>,
    /// The fixture's date, which a board's PGN game should bear.
    date: Date,
}

/// A played board's result as a match card or a spreadsheet writes it
/// (`1-0`, `1 - 0`, `½-½`, `0.5-0.5`, `=`); a win by default (`+/-`,
/// `1-0 ff`) is refused, since a board not played is not graded and is
/// given by its seat: why, in words after the value.
fn played_result(written: &str) -> Result<GameResult, String> {
    let compact: String = written.split_whitespace().collect();
    let forfeit = compact.contains('+') || compact.to_ascii_lowercase().ends_with("ff");
    if forfeit {
        return Err("is a win by default, which is not a game played: leave the seat of the side that defaulted empty (its player not named), or give no_show for a named player who did not come".into());
    }
    if compact == "0.5" {
        return Ok(GameResult::Draw);
    }
    GameResult::parse(&compact)
        .filter(|r| *r != GameResult::Unknown)
        .ok_or_else(|| {
            // `1/2` typed into a cell Excel reads as a date: `02-Jan`,
            // `01/02/2026`.
            let month = ["jan", "feb", "01/02", "02/01", "1/2/", "2/1/"];
            let lower = compact.to_ascii_lowercase();
            if month.iter().any(|m| lower.contains(m)) {
                "is not 1-0, 0-1 or 1/2-1/2: it looks like a date, as Excel turns 1/2 typed into a cell: format the column as Text and type 1/2-1/2".into()
            } else {
                "is not 1-0, 0-1 or 1/2-1/2".into()
            }
        })
}

impl Checker<'_, '_> {
    fn err(&self, fixture: &str, board: Option<u32>, message: String) -> SeasonError {
        SeasonError {
            file: self.file.to_string(),
            at: self.at.borrow().clone().map(|o| Box::new((o, None))),
            fixture: fixture.to_string(),
            board,
            message,
        }
    }

    /// `err`, naming the spreadsheet column the value came from.
    fn err_in(
        &self,
        column: &'static str,
        fixture: &str,
        board: Option<u32>,
        message: String,
    ) -> SeasonError {
        let mut e = self.err(fixture, board, message);
        if let Some(at) = &mut e.at {
            at.1 = Some(column);
        }
        e
    }

    fn date(
        &self,
        fixture: &str,
        s: &str,
        what: &str,
        column: &'static str,
    ) -> Result<Date, SeasonError> {
        Date::parse(s).ok_or_else(|| {
            // Excel writes a date as the machine's locale shows it, where
            // 08/10/2026 is August or October: not guessed, but said how
            // to have it written unambiguously.
            let hint = if s.contains('/') || s.contains('.') {
                " (a date written with / or . may have the day or the month first, so none is guessed: in Excel, format the column as Custom yyyy-mm-dd before saving)"
            } else {
                ""
            };
            self.err_in(
                column,
                fixture,
                None,
                format!("{what} {s:?} is not a date (YYYY-MM-DD){hint}"),
            )
        })
    }

    fn team(&mut self, t: &RawTeam) -> Result<(), SeasonError> {
        self.at.replace(t.origin.clone());
        if self.team_index.contains_key(&t.name) {
            let message = format!("team {:?} is listed twice", t.name);
            return Err(self.err_in("name", "", None, message));
        }
        self.team_index.insert(t.name.clone(), self.teams.len());
        self.teams.push(Team {
            name: t.name.clone(),
            club: t.club.clone(),
            division: t.division.clone(),
        });
        Ok(())
    }

    /// Why a team name is not found: none given, or none of that name,
    /// with the nearest one's.
    fn unknown_team(&self, name: &str) -> String {
        if name.trim().is_empty() {
            return "no team given".to_string();
        }
        let hint = crate::model::nearest(name, self.teams.iter().map(|t| t.name.as_str()))
            .map(|n| format!("; did you mean {n:?}?"))
            .unwrap_or_default();
        format!("unknown team {name:?}{hint}")
    }

    fn player(&mut self, p: &RawPlayer) -> Result<(), SeasonError> {
        self.at.replace(p.origin.clone());
        let err = |column: &'static str, message: String| self.err_in(column, "", None, message);
        let team = *self.team_index.get(&p.team).ok_or_else(|| {
            self.err_in(
                "team",
                "",
                None,
                format!("player {:?}: {}", p.name, self.unknown_team(&p.team)),
            )
        })?;
        if p.name.trim().is_empty() {
            return Err(err(
                "name",
                format!(
                    "a player of {:?} has no name: give it, or remove the row",
                    p.team
                ),
            ));
        }
        if self.player_index.contains_key(&p.name) {
            return Err(err("name", format!("player {:?} is listed twice", p.name)));
        }
        if p.ungraded == Some(true) && p.grade.is_some() {
            let message = format!("player {:?} has a grade and is marked ungraded", p.name);
            return Err(err("ungraded", message));
        }
        // A rating where the league orders by grade (or by nothing) would
        // be passed over, the player counted ungraded: a standings figure
        // changed without a word.
        let by_rating =
            self.rules.board_order.as_ref().map(|o| o.by) == Some(super::league::Strength::Rating);
        if p.rating.is_some() && !by_rating {
            let why = match &self.rules.board_order {
                Some(o) => format!("order boards by grade ({})", o.cite),
                None => "use no rating".to_string(),
            };
            let message = format!(
                "player {:?}: a rating is given, but the {} rules {why}: give it as grade",
                p.name, self.rules.name
            );
            return Err(err("rating", message));
        }
        let code = p.ecf_code.trim();
        if !code.is_empty() && !is_ecf_code(code) {
            return Err(err(
                "ecf_code",
                format!(
                    "player {:?}: ecf_code {code:?} is not an ECF code (six digits and a check letter, one of {ECF_CHECK_LETTERS})",
                    p.name
                ),
            ));
        }
        let estimated = match (p.estimated_grade, &p.estimated_on) {
            (Some(g), Some(on)) => Some((
                g,
                self.date(
                    "",
                    on,
                    &format!("player {:?}: estimated_on", p.name),
                    "estimated_on",
                )?,
            )),
            (Some(_), None) => {
                return Err(err(
                    "estimated_on",
                    format!(
                        "player {:?}: an estimated grade needs the date it was set (estimated_on)",
                        p.name
                    ),
                ))
            }
            (None, _) => None,
        };
        // Eligibility by school grade, and lineups or ratings from the
        // board assigned before the season, need these.
        for (field, missing) in [
            (
                "school_grade",
                self.rules.needs_school_grade() && p.school_grade.is_none(),
            ),
            (
                "preseason_board",
                self.rules.needs_preseason_board() && p.preseason_board.is_none(),
            ),
        ] {
            if missing {
                return Err(err(
                    field,
                    format!(
                        "player {:?}: {field} is missing (the {} rules need it)",
                        p.name, self.rules.name
                    ),
                ));
            }
        }
        self.player_index.insert(p.name.clone(), self.players.len());
        self.players.push(Player {
            name: p.name.clone(),
            team,
            grade: p.grade,
            estimated,
            end_grade: p.end_grade,
            ecf_code: code.to_string(),
            school_grade: p.school_grade,
            preseason_board: p.preseason_board,
            rating: p.rating,
        });
        Ok(())
    }

    fn fixture(&self, f: &RawFixture) -> Result<Fixture, Vec<SeasonError>> {
        self.at.replace(f.origin.clone());
        let err =
            |fixture: &str, board: Option<u32>, message: String| self.err(fixture, board, message);
        if let Some(id) = &f.id {
            if !self.ids.borrow_mut().insert(id.clone()) {
                let message =
                    format!("the fixture id {id:?} is given twice: an id names one fixture");
                return Err(self.err_in("id", id, None, message).into());
            }
        }
        let id =
            f.id.clone()
                .unwrap_or_else(|| format!("{} v {} ({})", f.home, f.away, f.date));
        let when = self.date(&id, &f.date, "date", "date")?;
        let team = |name: &str, column: &'static str| {
            self.team_index
                .get(name)
                .copied()
                .ok_or_else(|| self.err_in(column, &id, None, self.unknown_team(name)))
        };
        let home = team(&f.home, "home")?;
        let away = team(&f.away, "away")?;
        if home == away {
            let message = "a team cannot play itself".to_string();
            return Err(self.err_in("away", &id, None, message).into());
        }
        let (competition, status) = self.fixture_kind(&id, f)?;
        let defaulted_by = match &f.defaulted_by {
            Some(t) => {
                // The side, as `short_notice_by` takes it, or the team's name.
                let i = match t.trim().to_ascii_lowercase().as_str() {
                    "home" if !self.team_index.contains_key(t) => home,
                    "away" if !self.team_index.contains_key(t) => away,
                    _ => team(t, "defaulted_by")?,
                };
                if i != home && i != away {
                    let message = format!("defaulted_by {t:?} is not in this match");
                    return Err(self.err_in("defaulted_by", &id, None, message).into());
                }
                Some(i)
            }
            None if status == FixtureStatus::Defaulted => {
                let message = "a defaulted match needs defaulted_by".to_string();
                return Err(self.err_in("defaulted_by", &id, None, message).into());
            }
            None => None,
        };
        // Notice given is warning given (DDCL 3, 4): both at once say two
        // different things of one default.
        if let (Some(true), Some(h)) = (f.without_warning, f.notice_hours) {
            if h > 0 {
                return Err(err(
                    &id,
                    None,
                    format!("without_warning = true and notice_hours = {h} contradict each other: a team that gave notice gave warning"),
                ).into());
            }
        }
        let home_white_on_1 = match f.home_colour_board1.as_deref() {
            Some(word) => Some(is_white(word).ok_or_else(|| {
                err(
                    &id,
                    None,
                    format!("home_colour_board1 {word:?} is not white or black"),
                )
            })?),
            None => None,
        };
        let tossed = match competition {
            Competition::Cup => self.rules.cup.as_ref().and_then(|c| c.colours_cite.clone()),
            Competition::League => None,
        };
        // Tossed colours alternate from board 1 (DDCL 14(n)): one board
        // whose colours are known shows how the toss fell.
        let (home_white_on_1, toss_conflict) = match (home_white_on_1, &tossed) {
            (None, Some(_)) => match self.toss_shown(&id, &f.boards)? {
                Ok(shown) => (shown, None),
                Err(conflict) => (None, Some(conflict)),
            },
            (given, _) => (given, None),
        };
        let m = Match {
            id,
            home,
            away,
            status,
            home_white_on_1,
            tossed,
            toss_conflict,
            date: when,
        };
        let (boards, tiebreaks) = match (
            self.boards(&m, &f.boards, false),
            self.boards(&m, &f.tiebreaks, true),
        ) {
            (Ok(b), Ok(t)) => (b, t),
            (b, t) => return Err(b.err().into_iter().chain(t.err()).flatten().collect()),
        };
        self.at.replace(f.origin.clone());
        let id = m.id;
        let awaiting = status == FixtureStatus::Played
            && f.status.trim().is_empty()
            && f.boards.is_empty()
            && f.tiebreaks.is_empty();
        let status = if awaiting {
            FixtureStatus::Postponed
        } else {
            status
        };
        self.check_board_count(&id, competition, status, &boards, &f.boards)?;
        let short_notice_by = self.short_notice_by(&id, f, competition, &boards)?;
        Ok(Fixture {
            id,
            date: when,
            competition,
            division: if f.division.is_empty() {
                self.teams[home].division.clone()
            } else {
                f.division.clone()
            },
            round: f.round.clone(),
            final_round: f.final_round == Some(true),
            home,
            away,
            status,
            defaulted_by,
            notice_hours: f.notice_hours,
            without_warning: f.without_warning == Some(true),
            notice_recorded: f.notice_hours.is_some() || f.without_warning == Some(true),
            short_notice_hours: f.short_notice_hours,
            short_notice_by,
            boards,
            tiebreaks,
            awaiting,
        })
    }

    /// A fixture's competition and status, read from their words.
    fn fixture_kind(
        &self,
        id: &str,
        f: &RawFixture,
    ) -> Result<(Competition, FixtureStatus), SeasonError> {
        // An empty spreadsheet cell is the default, as a key left out is.
        let competition = match f.competition.trim().to_ascii_lowercase().as_str() {
            "league" | "" => Competition::League,
            "cup" => Competition::Cup,
            other => {
                let message = format!("competition {other:?} is not league or cup");
                return Err(self.err_in("competition", id, None, message));
            }
        };
        let status = match f.status.trim().to_ascii_lowercase().as_str() {
            "played" | "" => FixtureStatus::Played,
            "postponed" => FixtureStatus::Postponed,
            "defaulted" => FixtureStatus::Defaulted,
            other => {
                let message = format!("status {other:?} is not played, postponed or defaulted");
                return Err(self.err_in("status", id, None, message));
            }
        };
        Ok((competition, status))
    }

    /// Which team a short notice (DDCL 5) covers: read where given, and
    /// required where both teams left the last board empty with a notice
    /// recorded, since the fixture's one notice does not say whose it was.
    fn short_notice_by(
        &self,
        id: &str,
        f: &RawFixture,
        competition: Competition,
        boards: &[Board],
    ) -> Result<Option<NoticeBy>, SeasonError> {
        self.at.replace(f.origin.clone());
        if let Some(word) = &f.short_notice_by {
            return match word.trim().to_ascii_lowercase().as_str() {
                "home" => Ok(Some(NoticeBy::Home)),
                "away" => Ok(Some(NoticeBy::Away)),
                "both" => Ok(Some(NoticeBy::Both)),
                _ => Err(self.err_in(
                    "short_notice_by",
                    id,
                    None,
                    format!("short_notice_by {word:?} is not home, away or both"),
                )),
            };
        }
        let last = self.rules.team_match.boards;
        let both_short = boards
            .iter()
            .find(|b| b.board == last)
            .is_some_and(|b| b.home.is_none() && b.away.is_none());
        // Asked only where the notice is enough for a tie: short of it,
        // both lose the board whoever gave it.
        let enough = match (
            f.short_notice_hours,
            self.rules.empty_board.short_tie_notice_hours,
        ) {
            (Some(h), Some(n)) => h >= n,
            _ => false,
        };
        if competition == Competition::League && enough && both_short {
            return Err(self.err_in(
                "short_notice_by",
                id,
                Some(last),
                "both teams have no player on this board and the fixture records one short notice (short_notice_hours): say which team gave it, short_notice_by = \"home\", \"away\" or \"both\" (DDCL 5)".into(),
            ));
        }
        Ok(None)
    }

    /// Every board of a played match is written down, an empty one as
    /// such; none beyond the league's count (the HS league's JV boards
    /// apart).
    fn check_board_count(
        &self,
        id: &str,
        competition: Competition,
        status: FixtureStatus,
        boards: &[Board],
        raw: &[RawBoard],
    ) -> Result<(), SeasonError> {
        use super::league::ExtraBoards;
        let m = &self.rules.team_match;
        let (count, extra) = match (competition, &self.rules.cup) {
            (Competition::League, _) => (m.boards, m.extra_boards),
            (Competition::Cup, Some(cup)) => (cup.boards, ExtraBoards::Refused),
            (Competition::Cup, None) => {
                let message = format!("a cup match, but the {} rules have no cup", self.rules.name);
                return Err(self.err(id, None, message));
            }
        };
        if extra == ExtraBoards::Refused {
            if let Some(b) = boards.iter().find(|b| b.board > count) {
                // Named where the board was written (a boards.csv row).
                if let Some(o) = raw
                    .iter()
                    .find(|r| r.board == b.board)
                    .and_then(|r| r.origin.clone())
                {
                    self.at.replace(Some(o));
                }
                let message = format!("this match has {count} boards");
                return Err(self.err_in("board", id, Some(b.board), message));
            }
        }
        // A result under a fixture not played is a match entered and its
        // status left as it was: refused, never dropped unsaid (a lineup
        // alone may stand under a postponed tie).
        let not_played = match status {
            FixtureStatus::Played => None,
            FixtureStatus::Postponed => Some("postponed"),
            FixtureStatus::Defaulted => Some("defaulted"),
        };
        let scored = |r: &&RawBoard| {
            [&r.result, &r.score, &r.pgn]
                .iter()
                .any(|v| v.as_deref().is_some_and(|v| !v.trim().is_empty()))
        };
        if let (Some(word), Some(r)) = (not_played, raw.iter().find(scored)) {
            if let Some(o) = r.origin.clone() {
                self.at.replace(Some(o));
            }
            let message = format!(
                "the fixture's status is {word}, but a result is written for this board: if the match was played, set its status to played (and its date); if not, remove the results"
            );
            let column = match (&r.result, &r.score) {
                (Some(_), _) => "result",
                (None, Some(_)) => "score",
                _ => "pgn",
            };
            return Err(self.err_in(column, id, Some(r.board), message));
        }
        if status == FixtureStatus::Played {
            if let Some(n) = (1..=count).find(|n| boards.iter().all(|b| b.board != *n)) {
                // Said in the form the boards are written in.
                let how = if raw.iter().any(|r| r.origin.is_some()) {
                    format!("add a row for board {n} with the player who was there, if any")
                } else {
                    format!("write an empty board as {{ board = {n} }} with the player who was there, if any")
                };
                return Err(self.err(
                    id,
                    Some(n),
                    format!("board {n} is missing: {how}; a match not played yet has no boards, or status postponed"),
                ));
            }
        }
        Ok(())
    }

    /// A match's boards (or its tie-break games), sorted by board.
    fn boards(
        &self,
        m: &Match,
        list: &[RawBoard],
        tiebreak: bool,
    ) -> Result<Vec<Board>, Vec<SeasonError>> {
        let mut out: Vec<Board> = Vec::new();
        let mut errors = Vec::new();
        let mut numbers = std::collections::HashSet::new();
        let mut seen_players: HashMap<usize, (usize, u32)> = HashMap::new();
        for b in list {
            if !tiebreak && b.board != 0 && !numbers.insert(b.board) {
                self.at.replace(b.origin.clone());
                errors.push(self.err_in(
                    "board",
                    &m.id,
                    Some(b.board),
                    "board listed twice".into(),
                ));
                continue;
            }
            match self.board(m, b, tiebreak, &mut seen_players) {
                Ok(board) => out.push(board),
                Err(e) => errors.push(e),
            }
        }
        // A substitute replaces a player who is absent: not one who plays
        // another board of the same match (DDCL 10 "absence of a player").
        if errors.is_empty() {
            let mut replaced_on: HashMap<(MatchSide, usize), u32> = HashMap::new();
            for (raw, b) in list.iter().zip(&out) {
                let Some((side, replaced)) = b.substitute else {
                    continue;
                };
                let seated = b.seat(side);
                let twice = replaced_on.insert((side, replaced), b.board);
                let wrong = if seated.is_none() {
                    Some("a substitute is named, but that side's seat is empty: name the substitute who played, or leave substitute and replaces out".to_string())
                } else {
                    twice.map(|other| {
                        format!(
                            "{} is replaced on board {other} already: one absent player has one substitute",
                            self.players[replaced].name
                        )
                    })
                };
                if let Some(message) = wrong {
                    self.at.replace(raw.origin.clone());
                    errors.push(self.err_in("replaces", &m.id, Some(b.board), message));
                    continue;
                }
                let playing = out.iter().find(|o| o.seat(side) == Some(replaced));
                if let Some(o) = playing {
                    self.at.replace(raw.origin.clone());
                    errors.push(self.err_in(
                        "replaces",
                        &m.id,
                        Some(b.board),
                        format!(
                            "the substitute replaces {}, who plays board {} of this match: a substitute stands in for a player who is absent",
                            self.players[replaced].name, o.board
                        ),
                    ));
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        if !tiebreak {
            out.sort_by_key(|b| b.board);
        }
        Ok(out)
    }

    /// One board of a match; `seen_players` holds who has played which
    /// board of it so far.
    fn board(
        &self,
        m: &Match,
        b: &RawBoard,
        tiebreak: bool,
        seen_players: &mut HashMap<usize, (usize, u32)>,
    ) -> Result<Board, SeasonError> {
        let err =
            |fixture: &str, board: Option<u32>, message: String| self.err(fixture, board, message);
        let (id, home, away, status, home_white_on_1) =
            (m.id.as_str(), m.home, m.away, m.status, m.home_white_on_1);
        let players = &self.players;
        let bd = Some(b.board);
        self.at.replace(b.origin.clone());
        if b.board == 0 {
            return Err(self.err_in("board", id, bd, "boards are numbered from 1".into()));
        }
        let mut hp = self.board_player(id, bd, &b.home, home, "home")?;
        let mut ap = self.board_player(id, bd, &b.away, away, "away")?;
        let no_show = match b.no_show.as_deref() {
            None => None,
            Some(side) => {
                let which = self.match_side(id, bd, "no_show", side)?;
                let slot = match which {
                    MatchSide::Home => &mut hp,
                    MatchSide::Away => &mut ap,
                };
                let p = slot.take().ok_or_else(|| {
                    err(
                        id,
                        bd,
                        format!("no_show = {side:?} needs that side's player named"),
                    )
                })?;
                Some((which, p))
            }
        };
        for (p, side) in [(hp, home), (ap, away)] {
            if let Some(p) = p {
                if let Some((other_side, other_board)) = seen_players.insert(p, (side, b.board)) {
                    if !tiebreak || other_side != side {
                        return Err(err(
                            id,
                            bd,
                            format!(
                                "player {:?} also plays board {other_board} of this match",
                                players[p].name
                            ),
                        ));
                    }
                }
            }
        }
        // A tie-break game's colours are its own (reversed for the
        // replay, tossed again for a single game): never the match's toss.
        let own_toss = tiebreak && m.tossed.is_some() && b.home_colour.is_none();
        let known = if own_toss {
            self.pgn_shows(id, b)?
        } else {
            self.home_white(id, b, home_white_on_1, m.tossed.is_some())?
        };
        let colours_known = b.home_colour.is_some() || (own_toss && known.is_some());
        // Unknown colours read a result White first as if the home player
        // had White: such a result is held back below, never counted.
        let home_white = known.unwrap_or(true);
        // The board's players, White first, where both sat down.
        let names = match (hp, ap) {
            (Some(h), Some(a)) => {
                let (white, black) = if home_white { (h, a) } else { (a, h) };
                Some((players[white].name.as_str(), players[black].name.as_str()))
            }
            _ => None,
        };
        // A match board whose colours the toss left unknown: its result is
        // not read against guessed colours, nor credited or graded, until
        // they are given (DDCL 14(n)); a score given home first waits too,
        // for the grading file needs who had White.
        let given = b.result.is_some() || b.score.is_some() || b.pgn.is_some();
        let Given {
            result,
            mut pending,
            pgn_notes,
        } = if known.is_none() && !tiebreak && given && hp.is_some() && ap.is_some() {
            let cite = m.tossed.as_deref().unwrap_or_default();
            let why = match &m.toss_conflict {
                Some(conflict) => format!("{conflict}: give home_colour_board1 for the fixture"),
                None => "neither the fixture nor its boards say how it fell: give home_colour_board1 (\"white\" or \"black\") for the fixture".to_string(),
            };
            Given {
                result: None,
                pending: Some(Pending {
                    reason: format!(
                        "colours not known: in the cup they go by the toss of a coin ({cite}), and {why}"
                    ),
                    game_key: String::new(),
                }),
                pgn_notes: Vec::new(),
            }
        } else {
            self.result(id, b, home_white, names, Some(m.date))?
        };
        if result.is_some() && (hp.is_none() || ap.is_none()) {
            let column = if hp.is_none() { "home" } else { "away" };
            return Err(self.err_in(
                column,
                id,
                bd,
                "a result needs both players; leave the result out for a default".into(),
            ));
        }
        if result.is_none() && hp.is_some() && ap.is_some() && status == FixtureStatus::Played {
            pending.get_or_insert(Pending {
                reason: "both players present but no result recorded".into(),
                game_key: String::new(),
            });
        }
        if hp.is_none() || ap.is_none() {
            // A PGN for a board a side left empty: the seat decides it.
            pending = None;
        }
        let substitute = match (&b.substitute, &b.replaces) {
            (Some(s), Some(r)) => {
                let side = self.match_side(id, bd, "substitute", s)?;
                // The player replaced is the substitute's side's own.
                let team = match side {
                    MatchSide::Home => home,
                    MatchSide::Away => away,
                };
                let replaced =
                    self.board_player(id, bd, r, team, "replaces")?
                        .ok_or_else(|| {
                            self.err_in("replaces", id, bd, "replaces names nobody".into())
                        })?;
                Some((side, replaced))
            }
            (None, None) => None,
            _ => return Err(err(id, bd, "substitute and replaces go together".into())),
        };
        let captains_agreed = b.captains_agreed == Some(true);
        if captains_agreed && substitute.is_none() {
            return Err(self.err_in(
                "captains_agreed",
                id,
                bd,
                "captains_agreed is for a substitute (give substitute and replaces)".into(),
            ));
        }
        Ok(Board {
            board: b.board,
            home: hp,
            away: ap,
            result,
            home_white,
            colour_given: colours_known,
            scored_home_first: b.score.is_some(),
            substitute,
            captains_agreed,
            no_show,
            pending,
            pgn_notes,
        })
    }

    /// A registered player by name as a spreadsheet may write it: exactly,
    /// or the same words whatever their case, spacing and order ("Hartley,
    /// Ian", "Ian Hartley", "HARTLEY Ian") where one player has them; else
    /// why not, with the nearest name.
    fn find_player(&self, name: &str, club: Option<&str>) -> Result<usize, String> {
        if let Some(&p) = self.player_index.get(name) {
            return Ok(p);
        }
        let words = |n: &str| -> Vec<String> {
            let mut w: Vec<String> = n
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect();
            w.sort_unstable();
            w
        };
        let want = words(name);
        let mut same: Vec<usize> = (0..self.players.len())
            .filter(|&i| words(&self.players[i].name) == want)
            .collect();
        // Where the side's club is known, its own player among several.
        if let (Some(club), true) = (club, same.len() > 1) {
            let own: Vec<usize> = same
                .iter()
                .copied()
                .filter(|&i| self.teams[self.players[i].team].club == club)
                .collect();
            if own.len() == 1 {
                same = own;
            }
        }
        match same.as_slice() {
            [p] => Ok(*p),
            [] => {
                // A surname alone, or with initials: the one player whose
                // name holds those words, else the nearest spelling.
                let given: Vec<String> = words(name)
                    .into_iter()
                    .map(|w| w.trim_end_matches('.').to_string())
                    .filter(|w| !w.is_empty())
                    .collect();
                let holds = |full: &str| {
                    let have = words(full);
                    given.iter().all(|g| {
                        have.iter().any(|h| {
                            h == g || (g.chars().count() == 1 && h.starts_with(g.as_str()))
                        })
                    })
                };
                let partial: Vec<&str> = self
                    .players
                    .iter()
                    .map(|p| p.name.as_str())
                    .filter(|n| !given.is_empty() && holds(n))
                    .collect();
                let hint = match partial.as_slice() {
                    [one] => Some(*one),
                    _ => crate::model::nearest(name, self.players.iter().map(|p| p.name.as_str())),
                }
                .map(|n| format!("; did you mean {n:?}?"))
                .unwrap_or_default();
                Err(format!("unknown player {name:?}{hint}"))
            }
            several => Err(format!(
                "player {name:?} could be any of {}: write the name as the players' table has it",
                several
                    .iter()
                    .map(|&i| format!("{:?}", self.players[i].name))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// The player named on one side of a board (`None` where the name is
    /// blank), who must be registered with that side's club.
    fn board_player(
        &self,
        id: &str,
        bd: Option<u32>,
        name: &str,
        side_team: usize,
        column: &'static str,
    ) -> Result<Option<usize>, SeasonError> {
        if name.trim().is_empty() {
            return Ok(None);
        }
        let p = self
            .find_player(name, Some(&self.teams[side_team].club))
            .map_err(|why| self.err_in(column, id, bd, why))?;
        let (registered, side) = (&self.teams[self.players[p].team], &self.teams[side_team]);
        if registered.club != side.club {
            return Err(self.err_in(
                column,
                id,
                bd,
                format!(
                    "player {name:?} is registered with {} (club {}), not with {}",
                    registered.name, registered.club, side.name
                ),
            ));
        }
        Ok(Some(p))
    }

    /// `"home"` or `"away"`, as the field `key` gives it.
    fn match_side(
        &self,
        id: &str,
        bd: Option<u32>,
        key: &str,
        value: &str,
    ) -> Result<MatchSide, SeasonError> {
        match value {
            "home" => Ok(MatchSide::Home),
            "away" => Ok(MatchSide::Away),
            other => Err(self.err(id, bd, format!("{key} {other:?} is not home or away"))),
        }
    }

    /// Whether the home player had White on this board: as given, else
    /// from board 1's colour, else by the league's rule; `None` where the
    /// colours were `tossed` and neither is given.
    fn home_white(
        &self,
        id: &str,
        b: &RawBoard,
        home_white_on_1: Option<bool>,
        tossed: bool,
    ) -> Result<Option<bool>, SeasonError> {
        Ok(Some(match b.home_colour.as_deref() {
            Some(word) => is_white(word).ok_or_else(|| {
                self.err(
                    id,
                    Some(b.board),
                    format!("home_colour {word:?} is not white or black"),
                )
            })?,
            None => match home_white_on_1 {
                Some(w1) => (b.board % 2 == 1) == w1,
                None if tossed => return Ok(None),
                None => match self.rules.colours.home_white_on {
                    super::league::Parity::Odd => b.board % 2 == 1,
                    super::league::Parity::Even => b.board.is_multiple_of(2),
                },
            },
        }))
    }

    /// The games of a board's PGN file (relative to the season file; the
    /// judge contains it), judged once however often asked for.
    fn board_games(&self, id: &str, b: &RawBoard, path: &str) -> Result<Vec<PgnGame>, SeasonError> {
        if let Some(games) = self.judged.borrow().get(path) {
            return Ok(games.clone());
        }
        let games = (self.judge_pgn)(Path::new(path))
            .map_err(|e| self.err_in("pgn", id, Some(b.board), format!("pgn {path:?}: {e}")))?;
        self.judged
            .borrow_mut()
            .insert(path.to_string(), games.clone());
        Ok(games)
    }

    /// How a toss fell (whether the home player had White on board 1),
    /// as the boards show it: a board's own `home_colour`, or its PGN whose
    /// tags name its players one way round only. `Ok(None)` where no board
    /// shows it; `Err` (in words) where two boards disagree, since the toss
    /// gives alternate colours from board 1. A result given White first is
    /// never credited by a guess.
    fn toss_shown(
        &self,
        id: &str,
        boards: &[RawBoard],
    ) -> Result<Result<Option<bool>, String>, SeasonError> {
        let odd = |b: &RawBoard| b.board % 2 == 1;
        let mut shown: Vec<(u32, bool, String)> = Vec::new();
        for b in boards {
            let (home_white, how) = match b.home_colour.as_deref() {
                Some(word) => match is_white(word) {
                    Some(true) => (true, "home_colour white"),
                    Some(false) => (false, "home_colour black"),
                    // Refused with its board, where it is read.
                    None => continue,
                },
                None => match self.pgn_shows(id, b)? {
                    Some(true) => (true, "its PGN: the home player White"),
                    Some(false) => (false, "its PGN: the home player Black"),
                    None => continue,
                },
            };
            shown.push((b.board, home_white == odd(b), how.to_string()));
        }
        let Some((first, w1, how)) = shown.first() else {
            return Ok(Ok(None));
        };
        match shown.iter().find(|(_, w, _)| w != w1) {
            None => Ok(Ok(Some(*w1))),
            Some((other, _, other_how)) => Ok(Err(format!(
                "board {first} ({how}) and board {other} ({other_how}) disagree on how the toss fell, colours alternating from board 1"
            ))),
        }
    }

    /// Whether the home player had White, where the board's PGN shows it:
    /// its tags name the board's two players one way round only.
    fn pgn_shows(&self, id: &str, b: &RawBoard) -> Result<Option<bool>, SeasonError> {
        let (Some(path), Ok(h), Ok(a)) = (
            &b.pgn,
            self.find_player(&b.home, None),
            self.find_player(&b.away, None),
        ) else {
            return Ok(None);
        };
        self.at.replace(b.origin.clone());
        let games = self.board_games(id, b, path)?;
        let (hn, an) = (self.players[h].name.as_str(), self.players[a].name.as_str());
        let fits = |names: (&str, &str)| {
            matches!(
                super::board_pgn::check(games.clone(), Some(names), None),
                Checked::Game { .. }
            )
        };
        Ok(match (fits((hn, an)), fits((an, hn))) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        })
    }

    /// A board's result, White first: as given, from its PGN, or from a
    /// match card's home-first score (which must agree with a result
    /// given beside it); or why its PGN cannot give one yet (not the
    /// board's game among the reasons: `names`, White first, are the
    /// board's players); and what its PGN left unchecked.
    fn result(
        &self,
        id: &str,
        b: &RawBoard,
        home_white: bool,
        names: Option<(&str, &str)>,
        date: Option<Date>,
    ) -> Result<Given, SeasonError> {
        let err =
            |fixture: &str, board: Option<u32>, message: String| self.err(fixture, board, message);
        let bd = Some(b.board);
        let mut pending = None;
        let mut notes = Vec::new();
        // A PGN that is not the board's game waits, whatever the match
        // card says: the file named is to be put right.
        let mut wrong_game = false;
        let result = match (&b.result, &b.pgn) {
            (Some(_), Some(_)) => {
                return Err(self.err_in("pgn", id, bd, "give result or pgn, not both".into()))
            }
            (Some(r), None) => Some(
                played_result(r)
                    .map_err(|why| self.err_in("result", id, bd, format!("result {r:?} {why}")))?,
            ),
            (None, Some(path)) => {
                match super::board_pgn::check(self.board_games(id, b, path)?, names, date) {
                    Checked::Game { result, notes: n } => {
                        notes = n
                            .into_iter()
                            .map(|n| super::board_pgn::PgnNote {
                                text: format!("pgn {path:?}: {}", n.text),
                                ..n
                            })
                            .collect();
                        match result {
                            Ok(r) => Some(r),
                            Err(p) => {
                                pending = Some(Pending {
                                    reason: format!("pgn {path:?}: {}", p.reason),
                                    ..p
                                });
                                None
                            }
                        }
                    }
                    Checked::NotTheBoards(why) => {
                        wrong_game = true;
                        pending = Some(Pending {
                            reason: format!("pgn {path:?}: {why}"),
                            game_key: String::new(),
                        });
                        None
                    }
                }
            }
            (None, None) => None,
        };
        let result = match &b.score {
            None => result,
            Some(sc) => {
                let home_first = played_result(sc)
                    .map_err(|why| self.err_in("score", id, bd, format!("score {sc:?} {why}")))?;
                let white_first = if home_white {
                    home_first
                } else {
                    match home_first {
                        GameResult::WhiteWins => GameResult::BlackWins,
                        GameResult::BlackWins => GameResult::WhiteWins,
                        other => other,
                    }
                };
                match result {
                    None if wrong_game => None,
                    // A match card's score settles a game its PGN cannot.
                    None if pending.is_some() => {
                        pending = None;
                        Some(white_first)
                    }
                    Some(r) if r != white_first => {
                        return Err(err(
                            id,
                            bd,
                            format!(
                                "result {} (White first) and score {sc} (home first, the home player {}) disagree",
                                r.as_str(),
                                if home_white { "White" } else { "Black" }
                            ),
                        ))
                    }
                    _ => Some(white_first),
                }
            }
        };
        Ok(Given {
            result,
            pending,
            pgn_notes: notes,
        })
    }
}

/// The check letters of an ECF code (the ECF's field definitions: seven
/// characters, the last one of these; no `I`).
const ECF_CHECK_LETTERS: &str = "ABCDEFGHJKL";

/// The shape of an ECF code, `123456A`: the check letter's arithmetic is the
/// ECF's, not published with the field definitions, so only the shape is checked.
fn is_ecf_code(code: &str) -> bool {
    let b = code.as_bytes();
    b.len() == 7
        && b[..6].iter().all(u8::is_ascii_digit)
        && ECF_CHECK_LETTERS
            .as_bytes()
            .contains(&b[6].to_ascii_uppercase())
}

/// A date as text, written as a TOML date (`date = 2025-09-25`, which TOML
/// reads as a date, not a string) or as text (`"2025-09-25"`, a
/// spreadsheet's cell): checked later as any date is.
fn date_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Text(String),
        Date(toml::value::Datetime),
        // A spreadsheet's `20250925`, read as a number: said as written
        // when it is found to be no date.
        Other(toml::Value),
    }
    Ok(match Written::deserialize(d)? {
        Written::Text(s) => s,
        Written::Date(dt) => dt.to_string(),
        Written::Other(v) => v.to_string(),
    })
}

/// `date_text` for a date that may be left out (an empty cell).
fn date_text_opt<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    date_text(d).map(|s| (!s.trim().is_empty()).then_some(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_played_result_as_cards_write_it_and_a_default_refused() {
        for (written, want) in [
            ("1-0", GameResult::WhiteWins),
            (" 1 - 0 ", GameResult::WhiteWins),
            ("0 – 1", GameResult::BlackWins),
            ("½-½", GameResult::Draw),
            ("0.5-0.5", GameResult::Draw),
            ("1/2 - 1/2", GameResult::Draw),
        ] {
            assert_eq!(played_result(written), Ok(want), "{written:?}");
        }
        for default in ["+/-", "-/+", "+--", "1-0 ff", "0-1ff", "1-0FF"] {
            let why = played_result(default).unwrap_err();
            assert!(why.starts_with("is a win by default"), "{default:?}: {why}");
        }
        for bad in ["*", "win", "1:0", ""] {
            assert_eq!(
                played_result(bad),
                Err("is not 1-0, 0-1 or 1/2-1/2".to_string()),
                "{bad:?}"
            );
        }
        // A half point alone is a draw, as `1/2` is.
        assert_eq!(played_result("0.5"), Ok(GameResult::Draw));
        // What Excel makes of 1/2 typed into a cell is said so.
        for date in ["02-Jan", "01/02/2026", "1/2/2026"] {
            let why = played_result(date).unwrap_err();
            assert!(
                why.contains("it looks like a date, as Excel turns 1/2"),
                "{date}: {why}"
            );
        }
    }
}
