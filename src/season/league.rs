//! A league's rules as data (`templates/leagues/*.toml`, or a league file
//! of the grader's own): each rule a section, each with the citation the
//! outputs give. A section left out is a rule the league does not have; the
//! season engine (`engine`) applies what is there and knows no league by name.
//! The schema, with its defaults, is in docs/leagues.md.

use serde::Deserialize;

/// A league's rules, read and checked.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct League {
    /// The short name a season file's `rules` gives (`ddcl`).
    pub name: String,
    /// The league's name in full.
    pub title: String,
    /// The rules its games are judged under when a season file names none.
    pub games: Games,
    pub colours: Colours,
    #[serde(rename = "match")]
    pub team_match: TeamMatch,
    pub standings: Standings,
    pub default: Option<MatchDefault>,
    pub empty_board: EmptyBoard,
    pub board_order: Option<BoardOrder>,
    pub substitutes: Option<Substitutes>,
    pub lineup: Option<Lineup>,
    pub ratings: Option<Ratings>,
    pub cup: Option<Cup>,
    pub player_of_year: Option<PlayerOfYear>,
    #[serde(default)]
    pub grading: Grading,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Games {
    pub ruleset: String,
    pub cite: String,
}

/// Which boards the home side has White on, when a fixture does not say.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Colours {
    pub home_white_on: Parity,
    pub cite: String,
}

#[derive(Copy, Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Parity {
    Odd,
    Even,
}

/// A league match: its boards and what a result is worth.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamMatch {
    pub boards: u32,
    pub boards_cite: String,
    /// Boards past `boards` are refused, or rated but not scored (a junior
    /// varsity).
    #[serde(default)]
    pub extra_boards: ExtraBoards,
    #[serde(default)]
    pub extra_boards_cite: String,
    pub win: f64,
    pub draw: f64,
    #[serde(default)]
    pub loss: f64,
    pub points_cite: String,
}

#[derive(Copy, Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ExtraBoards {
    #[default]
    Refused,
    Rated,
}

/// How teams level on match points are ranked.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Standings {
    /// In order, before a play-off: `game_points` is the only one known.
    #[serde(default)]
    pub tie_breaks: Vec<TieBreak>,
    /// Which ties the play-off settles: any place (DDCL 12: "ties for all
    /// places"), or first place only (HSL XIV: "tied for the League
    /// Championship"); teams level below it rank equal, with no note.
    #[serde(default)]
    pub play_off: PlayOff,
    pub cite: String,
}

#[derive(Copy, Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum PlayOff {
    #[default]
    AnyPlace,
    FirstPlace,
}

#[derive(Copy, Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    GamePoints,
}

/// A team that cannot play a whole match.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchDefault {
    /// With at least this many hours' notice the fixture is rearranged;
    /// with less the match is lost by default, every board to the other side.
    pub notice_hours: u32,
    pub cite: String,
    /// Match points taken off a team that defaulted without any warning.
    #[serde(default)]
    pub without_warning_deduct: f64,
    #[serde(default)]
    pub without_warning_cite: String,
}

/// A seat left empty in a match that was played.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmptyBoard {
    /// The side present wins the board; the empty seat is a breach
    /// (`violation`) or what the rules provide for (`note`).
    pub record: Record,
    pub cite: String,
    /// A team one player short with at least this many hours' notice has
    /// its last board classed as a tie, not rated.
    pub short_tie_notice_hours: Option<u32>,
}

#[derive(Copy, Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Record {
    Violation,
    Note,
}

/// Players in order of strength.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardOrder {
    /// `grade` (with estimates) or `rating`, from the players' table.
    pub by: Strength,
    /// A weaker player may sit above a stronger one by at most this.
    pub tolerance: u32,
    pub cite: String,
    /// An ungraded (unrated) player must sit below every graded one.
    #[serde(default)]
    pub ungraded_below: bool,
    #[serde(default)]
    pub ungraded_cite: String,
    /// The board out of order and every board below it are forfeited.
    #[serde(default)]
    pub forfeit_from: bool,
    /// Only the boards played are (DDCL 9 "all lower boards played during
    /// the match"): a board won by default or tied for an empty seat keeps
    /// its score. Off, every board from there is lost by the side out of
    /// order, whatever was on it.
    #[serde(default)]
    pub forfeit_played_only: bool,
    /// Match points taken off the side out of order.
    #[serde(default)]
    pub deduct: f64,
    pub penalty_cite: String,
}

#[derive(Copy, Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Strength {
    Grade,
    Rating,
}

impl BoardOrder {
    /// What the order is by, and where ungraded players go.
    pub(crate) fn rank(&self) -> (Strength, bool) {
        (self.by, self.ungraded_below)
    }
}

impl Strength {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Strength::Grade => "graded",
            Strength::Rating => "rated",
        }
    }
}

/// A late substitute for a player who did not come.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Substitutes {
    /// What the rules say of a substitute's clock, written in every note.
    pub note: String,
    /// A substitute stronger than the player replaced by more than this
    /// needs both captains' consent.
    pub stronger_by: Option<u32>,
    pub cite: String,
}

/// Who may play, and how far a player may move between matches.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lineup {
    /// School grades that may play; a grade in `conditional_school_grades`
    /// may play only when the team lacks others (noted, no penalty).
    #[serde(default)]
    pub eligible_school_grades: Vec<u32>,
    #[serde(default)]
    pub conditional_school_grades: Vec<u32>,
    #[serde(default)]
    pub conditional_note: String,
    #[serde(default)]
    pub eligibility_cite: String,
    /// At most this many boards from the player's board in the team's
    /// previous match.
    pub max_board_move: Option<u32>,
    #[serde(default)]
    pub move_cite: String,
    /// A player's first match is measured from the board assigned before
    /// the season.
    #[serde(default)]
    pub first_match_on_preseason_board: bool,
    /// How far from that board a first match may be (default:
    /// `max_board_move`, the preseason lineup taken as the previous one;
    /// 0: exactly that board).
    pub first_match_board_move: Option<u32>,
    #[serde(default)]
    pub first_match_cite: String,
    /// Empty boards must be the bottom ones.
    #[serde(default)]
    pub empty_boards_at_bottom: bool,
    #[serde(default)]
    pub bottom_cite: String,
    /// An illegal lineup forfeits the match.
    pub illegal_cite: String,
}

/// Individual ratings kept by the league (Elo).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ratings {
    pub k: f64,
    /// Rating points for a win by forfeit; the player absent loses none.
    pub forfeit_bonus: f64,
    pub cite: String,
    /// Starting ratings by the board assigned before the season.
    pub start: Vec<Band<u32>>,
    pub start_cite: String,
}

/// A band of a table read top down: up to and including `up_to`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band<T> {
    #[serde(default)]
    pub up_to: Option<T>,
    /// The text's own lower bound, where it leaves a gap below the band
    /// before (DDCL 14(i): "30 or less", then "between 31 and 40").
    #[serde(default)]
    pub from: Option<T>,
    #[serde(alias = "rating")]
    pub points: f64,
}

/// The first band whose bound `x` does not exceed (the open last band otherwise).
pub(crate) fn band<T: PartialOrd + Copy>(bands: &[Band<T>], x: T) -> f64 {
    bands
        .iter()
        .find(|b| b.up_to.is_none_or(|u| x <= u))
        .map_or(0.0, |b| b.points)
}

/// A handicapped knockout cup.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cup {
    pub boards: u32,
    pub boards_cite: String,
    /// Handicap in board points by the difference of the grade totals.
    pub handicap: Vec<Band<f64>>,
    pub handicap_cite: String,
    /// Players in grade order with no tolerance; a breach is referred.
    pub order_cite: String,
    pub referred_cite: String,
    /// In the final every player has played a league game for the club.
    pub final_cite: String,
    pub default_cite: String,
    /// A level tie is replayed with colours reversed, then single games.
    pub tiebreak_cite: String,
    /// Colours go by a toss at the match (DDCL 14(n)), not by the league's
    /// rule: a cup fixture says how it fell, or its boards' PGNs show it.
    #[serde(default)]
    pub colours_cite: Option<String>,
    /// An ungraded player with no estimate agreed before the match counts
    /// as the average of the others (DDCL 14(m)): said, with this cite.
    #[serde(default)]
    pub ungraded_cite: Option<String>,
}

impl Cup {
    pub fn handicap(&self, difference: f64) -> f64 {
        band(&self.handicap, difference)
    }

    /// Where `difference` falls in a gap the text's bands leave (over 30,
    /// under 31, say: averages give fractions): the handicap of the band
    /// below, which the text does not rule out either, and the two bands'
    /// bounds in words.
    pub(crate) fn handicap_gap(&self, difference: f64) -> Option<(f64, String)> {
        let i = self
            .handicap
            .iter()
            .position(|b| b.up_to.is_none_or(|u| difference <= u))?;
        let from = self.handicap[i].from?;
        if difference >= from || i == 0 {
            return None;
        }
        let below = &self.handicap[i - 1];
        let words = format!(
            "up to {}: {}; from {from}: {}",
            below.up_to.unwrap_or_default(),
            below.points,
            self.handicap[i].points
        );
        Some((below.points, words))
    }

    /// A side's grade total: a forfeited board or an ungraded player
    /// counts as the average of the others.
    pub fn grade_total(&self, grades: &[Option<u32>]) -> f64 {
        let known: Vec<f64> = grades.iter().flatten().map(|&g| f64::from(g)).collect();
        if known.is_empty() {
            return 0.0;
        }
        let avg = known.iter().sum::<f64>() / known.len() as f64;
        known.iter().sum::<f64>() + avg * (self.boards as usize).saturating_sub(known.len()) as f64
    }
}

/// The player of the year: league games, points per game.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerOfYear {
    /// The share of the matches available a player must have played.
    pub min_share: f64,
    pub cite: String,
}

/// The grading file's event names: `{league}`, `{season}`, `{division}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Grading {
    pub league_event: String,
    pub cup_event: String,
}

impl Default for Grading {
    fn default() -> Grading {
        Grading {
            league_event: "{league} {season}".into(),
            cup_event: "{league} {season} Cup".into(),
        }
    }
}

/// The leagues that ship with `arbiter`.
pub(crate) const BUILTIN: [(&str, &str); 2] = [
    ("ddcl", include_str!("../../templates/leagues/ddcl.toml")),
    (
        "hs-league",
        include_str!("../../templates/leagues/hs-league.toml"),
    ),
];

impl League {
    /// Reads a league file's text; an error names the line.
    pub fn parse(file: &str, text: &str) -> Result<League, String> {
        let l: League = toml::from_str(text).map_err(|e: toml::de::Error| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].lines().count().max(1));
            let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
            format!("{file}{at}: {}", e.message())
        })?;
        l.check().map_err(|e| format!("{file}: {e}"))?;
        Ok(l)
    }

    /// A built-in league by name (or alias).
    pub fn builtin(name: &str) -> Option<League> {
        let name = crate::rules::league_name(name)?;
        let (_, text) = BUILTIN.iter().find(|(n, _)| *n == name)?;
        // The embedded files are checked by the tests: a malformed one cannot ship.
        League::parse(name, text).ok()
    }

    /// What serde cannot say: numbers that make sense together.
    fn check(&self) -> Result<(), String> {
        if self.team_match.boards == 0 {
            return Err("[match] boards must be at least 1".into());
        }
        if self.cup.as_ref().is_some_and(|c| c.boards == 0) {
            return Err("[cup] boards must be at least 1".into());
        }
        if self
            .player_of_year
            .as_ref()
            .is_some_and(|p| !(0.0..=1.0).contains(&p.min_share))
        {
            return Err("[player_of_year] min_share is a share, from 0 to 1".into());
        }
        if self.team_match.extra_boards == ExtraBoards::Rated
            && self.team_match.extra_boards_cite.is_empty()
        {
            return Err("[match] extra_boards = \"rated\" needs extra_boards_cite".into());
        }
        Ok(())
    }

    /// Whether the players' table must give each player's school grade
    /// and preseason board.
    pub(crate) fn needs_school_grade(&self) -> bool {
        self.lineup
            .as_ref()
            .is_some_and(|l| !l.eligible_school_grades.is_empty())
    }

    pub(crate) fn needs_preseason_board(&self) -> bool {
        self.lineup
            .as_ref()
            .is_some_and(|l| l.first_match_on_preseason_board)
            || self.ratings.is_some()
    }

    /// What players' strength is read as: the board order's, else grades.
    pub(crate) fn strength(&self) -> Strength {
        self.board_order.as_ref().map_or(Strength::Grade, |o| o.by)
    }

    /// The starting rating of a preseason board.
    pub fn starting_rating(&self, board: u32) -> f64 {
        self.ratings.as_ref().map_or(0.0, |r| band(&r.start, board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_leagues_load_and_read_as_the_texts_say() {
        let d = League::builtin("ddcl").expect("templates/leagues/ddcl.toml");
        let cup = d.cup.as_ref().expect("DDCL 14");
        assert_eq!((d.team_match.boards, cup.boards), (5, 4));
        assert_eq!(d.default.as_ref().map(|x| x.notice_hours), Some(72));
        // DDCL 14(i): up to 30 nothing, 31-40 half, 41-60 one, over 60 one and a half.
        let h: Vec<f64> = [0.0, 30.0, 30.5, 40.0, 41.0, 60.0, 61.0, 200.0]
            .iter()
            .map(|&x| cup.handicap(x))
            .collect();
        assert_eq!(h, [0.0, 0.0, 0.5, 0.5, 1.0, 1.0, 1.5, 1.5]);
        let s = League::builtin("hs-league").expect("templates/leagues/hs-league.toml");
        let r: Vec<f64> = (1..=10).map(|b| s.starting_rating(b)).collect();
        assert_eq!(
            r,
            [1600.0, 1500.0, 1400.0, 1300.0, 1200.0, 1100.0, 1000.0, 1000.0, 900.0, 900.0]
        );
        for (name, text) in BUILTIN {
            assert!(League::parse(name, text).is_ok(), "{name}");
        }
    }

    #[test]
    fn a_league_file_with_an_unknown_key_or_a_bad_number_says_where() {
        let (_, ddcl) = BUILTIN[0];
        let e =
            League::parse("l.toml", &ddcl.replace("tolerance = 10", "tolerence = 10")).unwrap_err();
        assert!(e.starts_with("l.toml (line "), "{e}");
        assert!(e.contains("unknown field `tolerence`"), "{e}");
        let e = League::parse("l.toml", &ddcl.replace("boards = 5\n", "boards = 0\n")).unwrap_err();
        assert_eq!(e, "l.toml: [match] boards must be at least 1");
    }
}
