//! `arbiter season SEASON.toml --out DIR`.

use std::path::PathBuf;

use super::ExitStatus;
use crate::{
    report::{self, write::atomic_write},
    season::{self, ecf, load_with},
};

#[derive(clap::Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Exit status: 0 the season is written and scored; 1 it is written but needs attention \
(boards pending a result, colours or the right PGN; a default, or a team one short, whose notice \
is not recorded; \
fixtures with no boards dated before matches already in; ECF games outside the submission's dates; \
fixtures dated outside the season; grades that look like ratings); \
2 a usage error, a season file or spreadsheet that cannot be read, or a file that cannot be written."
)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub(crate) init: Option<Init>,
    /// The season file (TOML; schema in docs/seasons.md).
    #[arg(required = true)]
    pub(crate) season: Option<PathBuf>,
    /// Folder for standings.csv, violations.csv, grading.csv, player-of-year.csv,
    /// cup.csv, ratings.csv, notes.csv, pending.csv (boards still undecided) and
    /// ecf-submission.txt, as the league has them.
    #[arg(short, long, default_value = "season-out")]
    pub(crate) out: PathBuf,
    /// No summary.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Let the season file name a ruleset or PGN outside its own folder.
    #[arg(long)]
    pub(crate) allow_outside: bool,
    /// Recorded decisions (as for adjudicate): a board judged from PGN that the record cannot settle counts once a decision names its game.
    #[arg(long, value_name = "FILE")]
    pub(crate) decisions: Option<PathBuf>,
    /// Also season.xlsx: every table in one Excel workbook, a sheet each (dates as dates, numbers as numbers).
    #[arg(long)]
    pub(crate) xlsx: bool,
    /// The CSV files made for Excel: a UTF-8 byte-order mark and dates in ISO form.
    #[arg(long)]
    pub(crate) excel: bool,
}

#[derive(clap::Subcommand, Debug)]
pub(crate) enum Init {
    /// Write a commented season file and empty spreadsheets (teams, players,
    /// fixtures, boards) for a league, to fill in.
    Init {
        /// The league: ddcl, hs-league, or a league file (docs/leagues.md).
        #[arg(long)]
        league: String,
        /// The folder to write them to (created; no file there is replaced).
        #[arg(short, long, default_value = ".")]
        out: PathBuf,
    },
}

/// After a run that wrote nothing: says so where an earlier run's files
/// are in the folder, lest they be taken for this one's.
fn earlier_outputs(out: &std::path::Path) {
    let found: Vec<&str> = report::season::OWNED
        .iter()
        .copied()
        .filter(|n| out.join(n).is_file())
        .collect();
    if !found.is_empty() {
        eprintln!(
            "arbiter: nothing was written: {} in {} {} from an earlier run, not this one",
            found.join(", "),
            out.display(),
            if found.len() == 1 { "is" } else { "are" }
        );
    }
}

pub(crate) fn run(a: Args) -> ExitStatus {
    if let Some(Init::Init { league, out }) = &a.init {
        return init(league, out);
    }
    let Some(season_file) = a.season.clone() else {
        eprintln!("arbiter: season: give a season file, or `season init --league NAME`");
        return ExitStatus::Error;
    };
    let decisions = match super::decisions_option(a.decisions.as_deref()) {
        Ok(d) => d,
        Err(e) => return e,
    };
    let season = match load_with(&season_file, a.allow_outside, decisions.clone()) {
        Ok(s) => s,
        Err(e) => {
            // Each error on its line: there may be several.
            for line in e.lines() {
                eprintln!("arbiter: {line}");
            }
            earlier_outputs(&a.out);
            return ExitStatus::Error;
        }
    };
    // A decision no board's game took is said, never dropped silently.
    if let Some(d) = &decisions {
        for line in d.unmet() {
            eprintln!("arbiter: {line}");
        }
    }
    let rep = season::process(&season);
    let outputs: Vec<PathBuf> = report::season::OWNED
        .iter()
        .map(|n| a.out.join(n))
        .collect();
    let mut inputs = season.inputs.clone();
    inputs.extend(a.decisions.clone());
    if let Err(e) = super::refuse_inputs_as_outputs(&outputs, &inputs) {
        eprintln!("arbiter: {e}");
        return ExitStatus::Error;
    }
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        eprintln!("arbiter: {}: {e}", a.out.display());
        return ExitStatus::Error;
    }
    let mut files = report::season::files(&season, &rep);
    let mut ecf_failed = false;
    let mut ecf_outside = false;
    if season.ecf.is_some() {
        let missing = ecf::missing_codes(&season, &rep.grading);
        if !missing.is_empty() {
            eprintln!(
                "arbiter: ecf-submission.txt: {} without an ECF code, to be matched by name: {}",
                crate::claim::plural(missing.len(), "player"),
                missing.join("; ")
            );
        }
        // The file is the league's event; the cup's games, in grading.csv,
        // are another event the grader sends on its own.
        let cup_games = rep.grading.iter().filter(|r| !r.league).count();
        if cup_games > 0 {
            eprintln!(
                "arbiter: ecf-submission.txt: the league's games only: {} of the cup (in grading.csv) are another ECF event, not in this file",
                crate::claim::plural(cup_games, "game")
            );
        }
        let unordered = ecf::names_not_surname_first(&season, &rep.grading);
        if !unordered.is_empty() {
            eprintln!(
                "arbiter: ecf-submission.txt: {} with a name not written \"Surname, Forename\", as the ECF's NAME field takes it: {}",
                crate::claim::plural(unordered.len(), "player"),
                unordered.join("; ")
            );
        }
        let outside = ecf::outside_dates(&season, &rep.grading);
        if !outside.is_empty() {
            eprintln!(
                "arbiter: ecf-submission.txt: games outside the submission's dates ([ecf] event_date to final_result_date): {}; left out of this file: put the dates right, or submit those games with the next file",
                outside.join("; ")
            );
            ecf_outside = true;
        }
        // The other files are written all the same: a grader keeps the
        // standings while the ECF file's fields are put right.
        match ecf::submission(&season, &rep.grading) {
            Ok(text) => files.push(("ecf-submission.txt", text.into_bytes())),
            Err(e) => {
                eprintln!(
                    "arbiter: {}: ecf-submission.txt not written: {e}",
                    season.file
                );
                ecf_failed = true;
            }
        }
    }
    if let Err(e) = spreadsheets(&a, &mut files) {
        eprintln!("arbiter: {}: {e}", a.out.display());
        return ExitStatus::Error;
    }
    // The outputs of an earlier run go first: a folder never mixes two runs.
    for name in report::season::OWNED {
        let path = a.out.join(name);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                eprintln!("arbiter: {}: {e}", path.display());
                return ExitStatus::Error;
            }
            _ => {}
        }
    }
    for (name, bytes) in &files {
        if let Err(e) = atomic_write(&a.out.join(name), bytes) {
            eprintln!("arbiter: {}: {e}", a.out.join(name).display());
            return ExitStatus::Error;
        }
    }
    // A season with boards still undecided is written, and needs attention;
    // a file that could not be written (exit 2) is said as well.
    if !rep.pending.is_empty() {
        // A game under review is settled by a recorded decision; anything
        // else (a result, colours, the right PGN) by the season's files.
        let decidable = rep
            .pending
            .iter()
            .filter(|p| !p.game_key.is_empty())
            .count();
        let what = match (decidable, rep.pending.len() - decidable) {
            (0, _) => "each waits for what its reason names, given in the season's files".to_string(),
            (_, 0) => "record decisions and run with --decisions".to_string(),
            (d, _) => format!(
                "record decisions for the {} with a game_key and run with --decisions; the others wait for what their reasons name, given in the season's files",
                crate::claim::plural(d, "game")
            ),
        };
        eprintln!(
            "arbiter: {}: {} pending (listed in {}): {what}",
            season.file,
            crate::claim::plural(rep.pending.len(), "board"),
            a.out.join("pending.csv").display()
        );
    }
    let unscored: Vec<&str> = crate::season::unscored_defaults(&season)
        .map(|f| f.id.as_str())
        .collect();
    if !unscored.is_empty() {
        eprintln!(
            "arbiter: {}: {} not scored: a default whose notice is not recorded (notes.csv); give notice_hours, or without_warning = true",
            season.file,
            unscored.join(", ")
        );
    }
    let short: Vec<String> = crate::season::unscored_short_boards(&season)
        .into_iter()
        .map(|(f, board)| format!("{} board {board}", f.id))
        .collect();
    if !short.is_empty() {
        eprintln!(
            "arbiter: {}: {} not scored: a team one short with its notice not recorded (notes.csv); give short_notice_hours",
            season.file,
            short.join(", ")
        );
    }
    // Fixtures with no boards yet; those dated before a match whose boards
    // are in are likelier a result forgotten than a match to come: the
    // season needs attention.
    let awaiting: Vec<&str> = season
        .fixtures
        .iter()
        .filter(|f| f.awaiting)
        .map(|f| f.id.as_str())
        .collect();
    let overdue: Vec<&str> = crate::season::overdue(&season)
        .into_iter()
        .map(|f| f.id.as_str())
        .collect();
    for (list, words) in [
        (awaiting, "with no boards yet, not scored (notes.csv):"),
        (
            overdue.clone(),
            "with no boards, dated before matches already in: results may be missing:",
        ),
    ] {
        if !list.is_empty() {
            eprintln!(
                "arbiter: {}: {} {words} {}",
                season.file,
                crate::claim::plural(list.len(), "fixture"),
                list.join(", ")
            );
        }
    }
    // A date outside the season it is named for is likelier a slip (a
    // year typed wrong) than a match: scored as written, and said.
    let strays = crate::season::outside_season(&season);
    if !strays.is_empty() {
        eprintln!(
            "arbiter: {}: {} dated outside the season {:?} ({}): {}; check the dates",
            season.file,
            crate::claim::plural(strays.len(), "fixture"),
            season.season,
            crate::season::season_span(&season.season)
                .map_or(String::new(), |(a, b)| format!("{a} to {b}")),
            strays.join(", ")
        );
    }
    let ratings = crate::season::grades_like_ratings(&season);
    if !ratings.is_empty() {
        eprintln!(
            "arbiter: {}: {} with a grade over 400 ({}): the league ranks by grade, and grades ran to about 300, so these look like ratings; a rating beside a grade breaks the board order and the grade increases: give every player the same kind of figure",
            season.file,
            crate::claim::plural(ratings.len(), "player"),
            first_few(ratings.iter().map(String::as_str))
        );
    }
    // A player of the year the tie-break cannot name: the league decides.
    let first: Vec<&crate::season::PoyRow> = rep.poy.iter().filter(|p| p.rank == Some(1)).collect();
    // Said, as a standings tie's play-off is, not counted as needing
    // attention: a season under way has its leaders level often.
    if first.len() > 1 {
        let why = if first.iter().any(|p| p.grade_increase_pct.is_none()) {
            "a grade increase is not known (each needs a grade and an end_grade)"
        } else {
            "their grade increases are the same"
        };
        eprintln!(
            "arbiter: {}: player of the year not decided: {} are level on points a game, and the tie-break by grade increase cannot part them: {why}",
            season.file,
            first_few(first.iter().map(|p| p.player.as_str()))
        );
    }
    // A cup tie the organiser is to decide (DDCL 14(p)): said, as a
    // standings play-off is; the league's tables stand without it.
    let organiser: Vec<&str> = rep
        .cup
        .iter()
        .filter(|c| c.organiser)
        .map(|c| c.fixture.as_str())
        .collect();
    if !organiser.is_empty() {
        eprintln!(
            "arbiter: {}: {} for the competition organiser to decide (cup.csv says why): {}",
            season.file,
            crate::claim::plural(organiser.len(), "cup tie"),
            organiser.join(", ")
        );
    }
    let status = if ecf_failed {
        ExitStatus::Error
    } else if rep.pending.is_empty()
        && unscored.is_empty()
        && short.is_empty()
        && !ecf_outside
        && overdue.is_empty()
        && strays.is_empty()
        && ratings.is_empty()
    {
        ExitStatus::Ok
    } else {
        ExitStatus::NeedsReview
    };
    if a.quiet {
        return status;
    }
    let grades = match (&season.grading_list, season.grading_date) {
        (l, _) if l.is_empty() => String::new(),
        (l, Some(d)) => format!("; grades from {l} ({d})"),
        (l, None) => format!("; grades from {l}"),
    };
    eprintln!(
        "arbiter: {}: {}, {}, {}{grades}; wrote {} to {}",
        season.file,
        crate::claim::plural(season.fixtures.len(), "fixture"),
        crate::claim::plural(rep.grading.len(), "rated game"),
        crate::claim::plural(rep.violations.len(), "violation"),
        crate::claim::plural(files.len(), "file"),
        a.out.display()
    );
    status
}

/// `season init`: the files a grader fills in for a new season.
fn init(league: &str, out: &std::path::Path) -> ExitStatus {
    let (files, rules, name) = match season::sheets::template(league) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("arbiter: season init: {e}");
            return ExitStatus::Error;
        }
    };
    if let Some((name, _)) = files.iter().find(|(n, _)| out.join(n).exists()) {
        eprintln!(
            "arbiter: season init: {} exists; nothing was written (choose another --out)",
            out.join(name).display()
        );
        return ExitStatus::Error;
    }
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("arbiter: {}: {e}", out.display());
        return ExitStatus::Error;
    }
    for (name, text) in &files {
        if let Err(e) = atomic_write(&out.join(name), text.as_bytes()) {
            eprintln!("arbiter: {}: {e}", out.join(name).display());
            return ExitStatus::Error;
        }
    }
    eprintln!(
        "arbiter: wrote {} to {} for {rules}, season {name} (to set up another, change `season` and the dates in season.toml): fill them in, then `arbiter season {}`",
        files
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        out.display(),
        out.join("season.toml").display()
    );
    ExitStatus::Ok
}

/// The tables as spreadsheets, where asked: season.xlsx beside them (a
/// sheet a table, in their order), and each CSV made for Excel.
fn spreadsheets(a: &Args, files: &mut Vec<(&'static str, Vec<u8>)>) -> std::io::Result<()> {
    use crate::report::sheet;
    let tables = || files.iter().filter(|(n, _)| n.ends_with(".csv"));
    if a.xlsx {
        let sheets = tables()
            .map(|(n, b)| (n.trim_end_matches(".csv"), b.as_slice()))
            .collect();
        let mut book = Vec::new();
        sheet::xlsx(sheets, &mut book)?;
        files.push(("season.xlsx", book));
    }
    if a.excel {
        for (name, bytes) in files.iter_mut().filter(|(n, _)| n.ends_with(".csv")) {
            *bytes = sheet::render(sheet::Table::Excel, name, bytes)?;
        }
    }
    Ok(())
}

/// The first four names, then how many more.
fn first_few<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    let n = names.len();
    let mut shown: Vec<String> = names.take(4).map(str::to_string).collect();
    if n > 4 {
        shown.push(format!("{} more", n - 4));
    }
    shown.join("; ")
}
