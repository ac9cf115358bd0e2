//! `arbiter season SEASON.toml --out DIR`.

use std::path::{Path, PathBuf};

use super::Outcome;
use crate::{
    model::GameResult,
    pipeline::{self, Options},
    read::Source,
    report::write::{atomic_write, csv_bytes},
    rules::Ruleset,
    season::{self, ecf, model},
};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The season file (TOML; schema in the README).
    pub season: PathBuf,
    /// Folder for standings.csv, violations.csv, grading.csv, player-of-year.csv,
    /// cup.csv, ratings.csv and ecf-submission.txt.
    #[arg(short, long, default_value = "season-out")]
    pub out: PathBuf,
    /// No summary.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Points and grades: whole numbers plainly, fractions to two places.
fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Reads and checks a season file, judging any per-board PGN under its ruleset.
pub fn load(path: &Path) -> Result<model::Season, String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let raw: model::RawSeason = toml::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
    let ruleset_name = raw.ruleset.clone().unwrap_or_else(|| match raw.rules {
        model::League::Ddcl => "ecf-quickplay".into(),
        model::League::HsLeague => "hs-league".into(),
    });
    let rules = Ruleset::load(&ruleset_name).map_err(|e| format!("{name}: ruleset: {e}"))?;
    let judge = |pgn: &Path| -> Result<GameResult, String> {
        if !pgn.is_file() {
            return Err("no such file".into());
        }
        let src = [Source::File {
            path: pgn.to_path_buf(),
            name: pgn.display().to_string(),
        }];
        let mut result = None;
        let opts = Options {
            jobs: 1,
            ..Options::default()
        };
        let summary = pipeline::for_each_game(&src, &rules, &opts, |o| {
            result.get_or_insert(o.judgement.verdict.result);
        })
        .map_err(|e| e.to_string())?;
        if let Some(e) = summary.errors.first() {
            return Err(e.clone());
        }
        result.ok_or_else(|| "no game in the file".to_string())
    };
    let base = path.parent().unwrap_or(Path::new("."));
    model::validate(&name, raw, base, &judge).map_err(|e| e.to_string())
}

pub fn run(a: Args) -> Outcome {
    let season = match load(&a.season) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return Outcome::Error;
        }
    };
    let report = season::process(&season);
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        eprintln!("arbiter: {}: {e}", a.out.display());
        return Outcome::Error;
    }
    let mut files: Vec<(&str, Vec<u8>)> = Vec::new();
    files.push((
        "standings.csv",
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
            report.standings.iter().map(|s| {
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
        ),
    ));
    files.push((
        "violations.csv",
        csv_bytes(
            &["fixture", "board", "rule", "what", "penalty"],
            report.violations.iter().map(|v| {
                vec![
                    v.fixture.clone(),
                    v.board.map(|b| b.to_string()).unwrap_or_default(),
                    v.rule.clone(),
                    v.what.clone(),
                    v.penalty.clone(),
                ]
            }),
        ),
    ));
    files.push((
        "grading.csv",
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
            report.grading.iter().map(|g| {
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
        ),
    ));
    match season.rules {
        model::League::Ddcl => {
            files.push((
                "player-of-year.csv",
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
                    report.poy.iter().map(|p| {
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
                ),
            ));
            files.push((
                "cup.csv",
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
                    report.cup.iter().map(|c| {
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
                ),
            ));
            if season.ecf.is_some() {
                match ecf::submission(&season, &report.grading) {
                    Ok(text) => files.push(("ecf-submission.txt", text.into_bytes())),
                    Err(e) => {
                        eprintln!("arbiter: {}: {e}", season.file);
                        return Outcome::Error;
                    }
                }
            }
        }
        model::League::HsLeague => {
            files.push((
                "ratings.csv",
                csv_bytes(
                    &[
                        "player",
                        "team",
                        "start_rating",
                        "games",
                        "forfeit_wins",
                        "rating",
                    ],
                    report.ratings.iter().map(|r| {
                        vec![
                            r.player.clone(),
                            r.team.clone(),
                            num(r.start),
                            r.games.to_string(),
                            r.forfeit_wins.to_string(),
                            format!("{:.0}", r.rating),
                        ]
                    }),
                ),
            ));
        }
    }
    for (name, bytes) in &files {
        if let Err(e) = atomic_write(&a.out.join(name), bytes) {
            eprintln!("arbiter: {}: {e}", a.out.join(name).display());
            return Outcome::Error;
        }
    }
    if a.quiet {
        return Outcome::Ok;
    }
    eprintln!(
        "arbiter: {}: {} fixtures, {} rated games, {} violations; wrote {} files to {}",
        season.file,
        season.fixtures.len(),
        report.grading.len(),
        report.violations.len(),
        files.len(),
        a.out.display()
    );
    Outcome::Ok
}
