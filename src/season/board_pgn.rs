//! A board's PGN file checked against its board, as a grader would: the
//! file holds one game, and that game's White and Black are the board's
//! players as the season gives them their colours. Names compare tolerantly
//! (case, spaces, "Surname, Forename" or "Forename Surname"); a tag left
//! empty or `?` names nobody, and is noted rather than held against the game.

use super::model::Pending;
use crate::model::{Date, GameResult};

/// One game of a board's PGN file, as judged.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PgnGame {
    /// The `White` and `Black` tags as written (empty where absent).
    pub(crate) white: String,
    pub(crate) black: String,
    /// The `Date` tag as written.
    pub(crate) date: String,
    /// The adjudicated result, or why the record cannot give one.
    pub(crate) result: Result<GameResult, Pending>,
    /// Where that result is not the one the game records: why.
    pub(crate) correction: Option<PgnNote>,
}

/// What a board's PGN gave that is said in `notes.csv`: the rule (empty
/// where none is applied), the note, and its effect.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PgnNote {
    pub(crate) rule: String,
    pub(crate) text: String,
    pub(crate) effect: &'static str,
}

impl PgnNote {
    /// A player the game's tag does not name, or names in part.
    fn unchecked(text: String) -> PgnNote {
        PgnNote {
            rule: String::new(),
            text,
            effect: "the game is taken as the board's",
        }
    }
}

/// What a board takes from its PGN file.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Checked {
    /// The board's game: its result (or why it is pending), and what was
    /// not checked because a tag names nobody.
    Game {
        result: Result<GameResult, Pending>,
        notes: Vec<PgnNote>,
    },
    /// Not the board's game (another pair's, or several games): why, in
    /// words naming the game's players and the board's.
    NotTheBoards(String),
}

/// Games listed in a reason before the rest are counted.
const LISTED: usize = 3;

/// Checks the games of a board's PGN file against the board's players
/// (White, Black); `None` where a seat is empty and the players are not
/// both known, when only the count of games is checked. A game dated
/// another day than the fixture (`date`) is noted, not refused: a match
/// played on a rearranged date, or a file typed up later, dates it so too.
pub(crate) fn check(
    mut games: Vec<PgnGame>,
    board: Option<(&str, &str)>,
    date: Option<Date>,
) -> Checked {
    let pair = |w: &str, b: &str| format!("{} v {}", shown(w), shown(b));
    let board_pair = board.map(|(w, b)| pair(w, b));
    if games.len() != 1 {
        let mut list: Vec<String> = games
            .iter()
            .take(LISTED)
            .map(|g| pair(&g.white, &g.black))
            .collect();
        if games.len() > LISTED {
            list.push(format!("{} more", games.len() - LISTED));
        }
        let board = board_pair.map_or(String::new(), |p| format!(" ({p}, White first)"));
        return Checked::NotTheBoards(format!(
            "the file holds {} games ({}), not the board's one game{board}",
            games.len(),
            list.join("; ")
        ));
    }
    let game = games.remove(0);
    let dated = date.and_then(|d| other_day(&game.date, d));
    let Some((white, black)) = board else {
        return Checked::Game {
            result: game.result,
            notes: dated.into_iter().chain(game.correction).collect(),
        };
    };
    // A tag that abbreviates a name both players fit ("Thompson, K." on a
    // board of Karen and Kevin Thompson) does not say who had which colour.
    for tag in [&game.white, &game.black] {
        if !unknown(tag)
            && name_match(tag, white) == Match::Partial
            && name_match(tag, black) == Match::Partial
        {
            return Checked::NotTheBoards(format!(
                "its game names {:?}, which could be either of the board's {} (White first): the colours cannot be told",
                tag.trim(),
                pair(white, black)
            ));
        }
    }
    let same = |tag: &str, name: &str| unknown(tag) || name_match(tag, name) != Match::No;
    if !same(&game.white, white) || !same(&game.black, black) {
        let swapped = !unknown(&game.white)
            && !unknown(&game.black)
            && same(&game.white, black)
            && same(&game.black, white);
        let hint = if swapped {
            ": the colours are the other way round (`home_colour` sets a board's colours)"
        } else {
            ""
        };
        return Checked::NotTheBoards(format!(
            "its game is {}, not the board's {} (White first){hint}",
            pair(&game.white, &game.black),
            pair(white, black)
        ));
    }
    let mut notes: Vec<PgnNote> = [("White", &game.white, white), ("Black", &game.black, black)]
        .into_iter()
        .filter_map(|(side, tag, name)| {
            if unknown(tag) {
                let written = if tag.trim().is_empty() {
                    format!("no {side} tag")
                } else {
                    format!("{side} {:?}", tag.trim())
                };
                Some(PgnNote::unchecked(format!(
                    "the game does not name its {side} player ({written}): taken to be {name}"
                )))
            } else if name_match(tag, name) == Match::Partial {
                Some(PgnNote::unchecked(format!(
                    "the game names its {side} player {:?}: taken to be {name}",
                    tag.trim()
                )))
            } else {
                None
            }
        })
        .collect();
    notes.extend(dated);
    notes.extend(game.correction);
    Checked::Game {
        result: game.result,
        notes,
    }
}

/// The note for a game whose `Date` tag is a whole date other than the
/// fixture's; a date in part (`2009.??.??`) or none says nothing.
fn other_day(tag: &str, fixture: Date) -> Option<PgnNote> {
    let dated = Date::parse(tag)?;
    (dated != fixture).then(|| {
        PgnNote::unchecked(format!(
            "the game is dated {}, the fixture {}: if it is not this match's game, name the right file; if the match was played that day, give the fixture that date",
            tag.trim(),
            fixture
        ))
    })
}

/// A tag that names nobody: empty, or PGN's `?`.
fn unknown(tag: &str) -> bool {
    matches!(tag.trim(), "" | "?")
}

/// A player's name as a reason shows it: `?` for nobody.
fn shown(name: &str) -> String {
    if unknown(name) {
        "?".into()
    } else {
        crate::model::excerpt(name.trim(), 80).into_owned()
    }
}

/// How a game's tag names a board's player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Match {
    /// The same name, whatever its case, spacing or order.
    Exact,
    /// The same surname, and forenames given as initials or left out
    /// ("Thompson, K." for Thompson, Karen): the player, noted.
    Partial,
    No,
}

/// Compares a tag with a board's name: the same words in the same order
/// (a "Surname, Forenames" turned round) are exact; otherwise each way the
/// two can be read as surname and forenames is tried.
fn name_match(tag: &str, name: &str) -> Match {
    if comparable(tag) == comparable(name) {
        return Match::Exact;
    }
    let mut best = Match::No;
    for t in readings(tag, true) {
        for n in readings(name, false) {
            match compare(&t, &n) {
                Match::Exact => return Match::Exact,
                Match::Partial => best = Match::Partial,
                Match::No => {}
            }
        }
    }
    best
}

/// A name as compared whole: "Surname, Forenames" turned "Forenames
/// Surname", spaces single, case folded.
fn comparable(name: &str) -> String {
    let name = match name.split_once(',') {
        Some((surname, forenames)) => format!("{forenames} {surname}"),
        None => name.to_string(),
    };
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A name as (surname, forenames), case folded. "Surname, Forenames" has
/// one reading. Without a comma, every split is a reading: forenames then
/// surname ("Jan van der Berg"), and, where the words after the surname
/// are all initials, surname first ("Thompson K J"), and for a game's tag
/// (`tag`) a two-word name surname first. Initials run together with dots
/// ("K.J.") are split.
fn readings(name: &str, tag: bool) -> Vec<(String, Vec<String>)> {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| c.is_whitespace() || c == '.')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    if let Some((surname, forenames)) = name.split_once(',') {
        return vec![(words(surname).join(" "), words(forenames))];
    }
    let w = words(name);
    let initial = |x: &String| x.chars().count() == 1;
    let mut r = Vec::new();
    for k in 0..w.len() {
        r.push((w[k..].join(" "), w[..k].to_vec()));
        // Surname first without a comma: with initials after it, or, in a
        // game's tag, a two-word name as FIDE lists write it ("THOMPSON
        // Karen"): the tag is compared with one board's players, so the
        // reading cannot take another player's name.
        if k > 0 && (w[k..].iter().all(initial) || (tag && w.len() == 2)) {
            r.push((w[..k].join(" "), w[k..].to_vec()));
        }
    }
    r
}

/// Same surname and forenames word for word is exact; same surname with
/// forenames that agree as far as both go, a word or its initial, is
/// partial (either side may be the one abbreviated).
fn compare(tag: &(String, Vec<String>), name: &(String, Vec<String>)) -> Match {
    if tag.0.is_empty() || tag.0 != name.0 {
        return Match::No;
    }
    if tag.1 == name.1 {
        return Match::Exact;
    }
    let initial = |w: &str, of: &str| w.chars().count() == 1 && of.starts_with(w);
    let fits = tag
        .1
        .iter()
        .zip(&name.1)
        .all(|(t, n)| t == n || initial(t, n) || initial(n, t));
    if fits {
        Match::Partial
    } else {
        Match::No
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: &str, black: &str) -> PgnGame {
        PgnGame {
            white: white.into(),
            black: black.into(),
            date: String::new(),
            result: Ok(GameResult::WhiteWins),
            correction: None,
        }
    }

    /// Checked on no date.
    fn check(games: Vec<PgnGame>, board: Option<(&str, &str)>) -> Checked {
        super::check(games, board, None)
    }

    fn graded(notes: &[&str]) -> Checked {
        Checked::Game {
            result: Ok(GameResult::WhiteWins),
            notes: notes
                .iter()
                .map(|n| PgnNote::unchecked(n.to_string()))
                .collect(),
        }
    }

    #[test]
    fn names_compare_in_either_order_case_and_spacing() {
        for (tag, name) in [
            ("Thompson, Karen", "Thompson, Karen"),
            ("Karen Thompson", "Thompson, Karen"),
            ("Thompson, Karen", "Karen Thompson"),
            ("  THOMPSON,KAREN ", "Thompson, Karen"),
            ("Karen   Thompson", "thompson,  karen"),
            // Surname first without a comma, as FIDE lists write it.
            ("THOMPSON KAREN", "Thompson, Karen"),
            ("Thompson Karen", "Thompson, Karen"),
        ] {
            assert_eq!(
                check(
                    vec![game(tag, "Hewitt, Mark")],
                    Some((name, "Hewitt, Mark"))
                ),
                graded(&[]),
                "{tag:?} against {name:?}"
            );
        }
    }

    #[test]
    fn initials_or_a_surname_alone_are_the_player_noted() {
        for (tag, name) in [
            ("Thompson, K.", "Thompson, Karen"),
            ("Thompson, K", "Karen Thompson"),
            ("K. Thompson", "Thompson, Karen"),
            ("Thompson K", "Thompson, Karen"),
            ("THOMPSON", "Thompson, Karen"),
            ("Thompson, K.J.", "Thompson, Karen Jane"),
            ("Thompson, Karen J", "Thompson, Karen Jane"),
            ("Thompson, Karen", "Thompson, K."),
        ] {
            assert_eq!(
                check(
                    vec![game(tag, "Hewitt, Mark")],
                    Some((name, "Hewitt, Mark"))
                ),
                graded(&[&format!(
                    "the game names its White player {tag:?}: taken to be {name}"
                )]),
                "{tag:?} against {name:?}"
            );
        }
        // Another initial, another forename or another surname is another
        // player.
        for (tag, name) in [
            ("Thompson, M.", "Thompson, Karen"),
            ("Thompson, Kate", "Thompson, Karen"),
            ("Thomson, K.", "Thompson, Karen"),
            ("Thompson, K. M.", "Thompson, Karen Jane"),
            ("Karen", "Karen Thompson"),
            ("Karen", "Thompson, Karen"),
        ] {
            assert!(
                matches!(
                    check(
                        vec![game(tag, "Hewitt, Mark")],
                        Some((name, "Hewitt, Mark"))
                    ),
                    Checked::NotTheBoards(_)
                ),
                "{tag:?} against {name:?}"
            );
        }
    }

    #[test]
    fn surnames_of_several_words_match_either_way_round() {
        for (tag, name) in [
            ("Jan van der Berg", "van der Berg, Jan"),
            ("Ana García López", "García López, Ana"),
            ("Ana De Silva", "De Silva, Ana"),
        ] {
            assert_eq!(name_match(tag, name), Match::Exact, "{tag:?} {name:?}");
        }
        assert_eq!(
            name_match("J. van der Berg", "van der Berg, Jan"),
            Match::Partial
        );
        assert_eq!(name_match("Ana Silva", "De Silva, Ana"), Match::No);
    }

    #[test]
    fn a_tag_either_player_fits_does_not_say_the_colours() {
        let board = Some(("Thompson, Karen", "Thompson, Kevin"));
        for tag in ["Thompson, K.", "Thompson"] {
            let Checked::NotTheBoards(why) = check(vec![game(tag, tag)], board) else {
                panic!("graded with {tag:?}");
            };
            assert_eq!(
                why,
                format!("its game names {tag:?}, which could be either of the board's Thompson, Karen v Thompson, Kevin (White first): the colours cannot be told")
            );
        }
        // Whole names tell them apart.
        assert_eq!(
            check(vec![game("Karen Thompson", "Kevin Thompson")], board),
            graded(&[])
        );
    }

    #[test]
    fn another_pairs_game_is_not_the_boards() {
        assert_eq!(
            check(
                vec![game("Walker, Ben", "Osei, Daniel")],
                Some(("Thompson, Karen", "Hewitt, Mark"))
            ),
            Checked::NotTheBoards(
                "its game is Walker, Ben v Osei, Daniel, not the board's Thompson, Karen v Hewitt, Mark (White first)".into()
            )
        );
        // One player right is still another game.
        assert!(matches!(
            check(
                vec![game("Thompson, Karen", "Osei, Daniel")],
                Some(("Thompson, Karen", "Hewitt, Mark"))
            ),
            Checked::NotTheBoards(_)
        ));
    }

    #[test]
    fn colours_the_other_way_round_are_said() {
        let Checked::NotTheBoards(why) = check(
            vec![game("Hewitt, Mark", "Karen Thompson")],
            Some(("Thompson, Karen", "Hewitt, Mark")),
        ) else {
            panic!("graded");
        };
        assert!(
            why.ends_with(
                ": the colours are the other way round (`home_colour` sets a board's colours)"
            ),
            "{why}"
        );
    }

    #[test]
    fn several_games_are_not_the_boards_even_with_a_seat_empty() {
        let games: Vec<PgnGame> = (1..=5).map(|i| game(&format!("W{i}"), "?")).collect();
        assert_eq!(
            check(games, Some(("W1", "B1"))),
            Checked::NotTheBoards(
                "the file holds 5 games (W1 v ?; W2 v ?; W3 v ?; 2 more), not the board's one game (W1 v B1, White first)".into()
            )
        );
        assert!(matches!(
            check(vec![game("A", "B"); 2], None),
            Checked::NotTheBoards(_)
        ));
    }

    #[test]
    fn a_tag_naming_nobody_is_noted_not_held_against_the_game() {
        assert_eq!(
            check(vec![game("?", "")], Some(("A1", "B1"))),
            graded(&[
                "the game does not name its White player (White \"?\"): taken to be A1",
                "the game does not name its Black player (no Black tag): taken to be B1",
            ])
        );
        // With a seat empty only the count is checked.
        assert_eq!(check(vec![game("X", "Y")], None), graded(&[]));
    }

    #[test]
    fn a_game_dated_another_day_is_noted() {
        let fixture = Date::parse("2009-10-08");
        let dated = |date: &str| PgnGame {
            date: date.into(),
            ..game("A1", "B1")
        };
        let note = "the game is dated 2010.03.04, the fixture 2009-10-08: if it is not this match's game, name the right file; if the match was played that day, give the fixture that date";
        assert_eq!(
            super::check(vec![dated("2010.03.04")], Some(("A1", "B1")), fixture),
            graded(&[note])
        );
        // With a seat empty too.
        assert_eq!(
            super::check(vec![dated("2010.03.04")], None, fixture),
            graded(&[note])
        );
        for same_or_unknown in ["2009.10.08", "2009-10-08", "2009.??.??", "????.??.??", ""] {
            assert_eq!(
                super::check(vec![dated(same_or_unknown)], Some(("A1", "B1")), fixture),
                graded(&[]),
                "{same_or_unknown:?}"
            );
        }
    }
}
