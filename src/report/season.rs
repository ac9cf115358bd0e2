//! The season's CSV files: standings, violations, grading, player of the
//! year, cup ties and ratings, rendered from the processed season.

use crate::{
    report::write::csv_bytes,
    season::{model::Season, Report, Violation},
};

/// Points and grades: whole numbers plainly, fractions to two places.
fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Every file `arbiter season` may write: removed from `--out` before a
/// run writes its own, so a folder never mixes two runs.
pub(crate) const OWNED: [&str; 10] = [
    "pending.csv",
    "standings.csv",
    "violations.csv",
    "notes.csv",
    "grading.csv",
    "player-of-year.csv",
    "cup.csv",
    "ratings.csv",
    "ecf-submission.txt",
    "season.xlsx",
];

/// Every CSV file the season writes, by name.
pub(crate) fn files(season: &Season, rep: &Report) -> Vec<(&'static str, Vec<u8>)> {
    let mut files = vec![
        ("standings.csv", standings(rep)),
        (
            "violations.csv",
            violations(
                &["fixture", "board", "rule", "what", "penalty"],
                &rep.violations,
            ),
        ),
        (
            "notes.csv",
            violations(&["fixture", "board", "rule", "note", "effect"], &rep.notes),
        ),
        ("grading.csv", grading(season, rep)),
    ];
    if !rep.pending.is_empty() {
        files.push(("pending.csv", pending(rep)));
    }
    // A file for each part of the season the league's rules have.
    let league = &season.rules;
    if league.player_of_year.is_some() {
        files.push(("player-of-year.csv", player_of_year(rep)));
    }
    if league.cup.is_some() {
        files.push(("cup.csv", cup(rep)));
    }
    if league.ratings.is_some() {
        files.push(("ratings.csv", ratings(rep)));
    }
    files
}

/// The boards waiting for a decision, with why and the key to record it under.
fn pending(rep: &Report) -> Vec<u8> {
    csv_bytes(
        &[
            "fixture", "date", "board", "home", "away", "reason", "game_key",
        ],
        rep.pending.iter().map(|p| {
            vec![
                p.fixture.clone(),
                p.date.clone(),
                p.board.to_string(),
                p.home.clone(),
                p.away.clone(),
                p.reason.clone(),
                p.game_key.clone(),
            ]
        }),
    )
}

fn standings(rep: &Report) -> Vec<u8> {
    csv_bytes(
        &[
            "division",
            "position",
            "team",
            "played",
            "won",
            "drawn",
            "lost",
            "game_points",
            "penalty",
            "match_points",
            "note",
        ],
        rep.standings.iter().map(|s| {
            vec![
                s.division.clone(),
                s.position.to_string(),
                s.team.clone(),
                s.played.to_string(),
                s.won.to_string(),
                s.drawn.to_string(),
                s.lost.to_string(),
                num(s.game_points),
                num(s.penalty),
                num(s.match_points),
                s.note.clone(),
            ]
        }),
    )
}

/// Breaches and notes share a shape: what happened, under which rule, and
/// what follows (a penalty, or the effect the rule provides for).
fn violations(header: &[&str], list: &[Violation]) -> Vec<u8> {
    csv_bytes(
        header,
        list.iter().map(|v| {
            vec![
                v.fixture.clone(),
                v.board.map(|b| b.to_string()).unwrap_or_default(),
                v.rule.clone(),
                v.what.clone(),
                v.penalty.clone(),
            ]
        }),
    )
}

fn grading(season: &Season, rep: &Report) -> Vec<u8> {
    csv_bytes(
        &[
            "date",
            "event",
            "match",
            "board",
            "white",
            "white_grade",
            "black",
            "black_grade",
            "score",
            "colour",
        ],
        rep.grading.iter().map(|g| {
            vec![
                g.date.clone(),
                g.event.clone(),
                g.fixture.clone(),
                g.board.to_string(),
                season.player(g.white).name.clone(),
                g.white_grade.clone(),
                season.player(g.black).name.clone(),
                g.black_grade.clone(),
                g.score.as_str().to_string(),
                g.home_colour.to_string(),
            ]
        }),
    )
}

fn player_of_year(rep: &Report) -> Vec<u8> {
    csv_bytes(
        &[
            "rank",
            "player",
            "team",
            "games",
            "points",
            "ratio",
            "matches_played",
            "matches_available",
            "eligible",
            "grade_increase_pct",
        ],
        rep.poy.iter().map(|p| {
            vec![
                p.rank.map(|r| r.to_string()).unwrap_or_default(),
                p.player.clone(),
                p.team.clone(),
                p.games.to_string(),
                num(p.points),
                format!("{:.3}", p.ratio),
                p.matches_played.to_string(),
                p.matches_available.to_string(),
                if p.eligible { "yes" } else { "no" }.to_string(),
                p.grade_increase_pct
                    .map(|x| format!("{x:.1}"))
                    .unwrap_or_default(),
            ]
        }),
    )
}

fn cup(rep: &Report) -> Vec<u8> {
    csv_bytes(
        &[
            "fixture",
            "round",
            "date",
            "home",
            "away",
            "home_grade_total",
            "away_grade_total",
            "difference",
            "handicap",
            "handicap_to",
            "home_boards",
            "away_boards",
            "home_total",
            "away_total",
            "tiebreak",
            "winner",
        ],
        rep.cup.iter().map(|c| {
            vec![
                c.fixture.clone(),
                c.round.clone(),
                c.date.clone(),
                c.home.clone(),
                c.away.clone(),
                num(c.home_grade_total),
                num(c.away_grade_total),
                num(c.difference),
                num(c.handicap),
                c.handicap_to.clone(),
                num(c.home_boards),
                num(c.away_boards),
                num(c.home_total),
                num(c.away_total),
                c.tiebreak.clone(),
                c.winner.clone(),
            ]
        }),
    )
}

fn ratings(rep: &Report) -> Vec<u8> {
    csv_bytes(
        &[
            "player",
            "team",
            "start_rating",
            "games",
            "forfeit_wins",
            "rating",
        ],
        rep.ratings.iter().map(|r| {
            vec![
                r.player.clone(),
                r.team.clone(),
                num(r.start),
                r.games.to_string(),
                r.forfeit_wins.to_string(),
                format!("{:.0}", r.rating),
            ]
        }),
    )
}
