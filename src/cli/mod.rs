//! The command line: clap definitions, and the one place exit codes are
//! decided (0 success, 1 some game needs review when asked, 2 usage or I/O).

mod adjudicate;
pub(crate) mod analyse;
mod audit;
mod claim;
mod diagram;
mod rules_cmd;
pub(crate) mod season;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "arbiter",
    version,
    about = "An arbiter's and a league grader's paperwork from recorded chess games"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Replay and judge every game of PGN files under a ruleset; write the results CSV.
    Adjudicate(adjudicate::Args),
    /// Judge claim files (draw claims, appeals, flags, illegal moves); write PDF appeal packets and claims.csv.
    Claim(claim::Args),
    /// The block-capital diagram of a position (ECF QPF 15), as a PDF.
    Diagram(diagram::Args),
    /// Audit a rated list: time controls, rounds per day, results.
    Audit(audit::Args),
    /// Can each side still mate (helpmate test), is the position dead, what USCF 14E says.
    Analyse(analyse::Args),
    /// A league season: standings, rule checks, grading export, cup, player of the year, ratings.
    Season(season::Args),
    /// List the built-in rulesets, or print one as TOML.
    Rules(rules_cmd::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on stdout: `arbiter man > arbiter.1`.
    Man,
}

/// Exit status, decided in one place.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ExitStatus {
    Ok,
    NeedsReview,
    Error,
}

impl From<ExitStatus> for ExitCode {
    fn from(o: ExitStatus) -> ExitCode {
        match o {
            ExitStatus::Ok => ExitCode::SUCCESS,
            ExitStatus::NeedsReview => ExitCode::from(1),
            ExitStatus::Error => ExitCode::from(2),
        }
    }
}

pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    // Outputs are written to hidden temporary files until complete; an
    // interrupted run removes them rather than leave them behind.
    if let Err(e) = crate::report::write::remove_pending_on_signals() {
        eprintln!(
            "arbiter: cannot watch for signals ({e}); an interrupted run may leave a .part file"
        );
    }
    let outcome = match cli.command {
        Command::Adjudicate(a) => adjudicate::run(a),
        Command::Analyse(a) => analyse::run(a),
        Command::Audit(a) => audit::run(a),
        Command::Claim(a) => claim::run(a),
        Command::Diagram(a) => diagram::run(a),
        Command::Rules(a) => rules_cmd::run(a),
        Command::Season(a) => season::run(a),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "arbiter",
                &mut std::io::stdout(),
            );
            ExitStatus::Ok
        }
        Command::Man => {
            use clap::CommandFactory;
            match man_page(Cli::command(), &mut std::io::stdout()) {
                Ok(()) => ExitStatus::Ok,
                Err(e) if is_broken_pipe(&e) => ExitStatus::Ok,
                Err(e) => {
                    eprintln!("arbiter: stdout: {e}");
                    ExitStatus::Error
                }
            }
        }
    };
    for notice in crate::read::text::take_notices() {
        eprintln!("arbiter: note: {notice}");
    }
    outcome.into()
}

/// One manual page for the whole tool: the program's own sections, then
/// a section for each command (and each command's own commands) with its
/// synopsis, description and options, its headings one level down. One
/// page rather than clap_mangen's page a command, whose references to
/// `arbiter-adjudicate(1)` and the like would name pages never installed.
fn man_page(cmd: clap::Command, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    let top = clap_mangen::Man::new(cmd.clone());
    top.render_title(w)?;
    top.render_name_section(w)?;
    top.render_synopsis_section(w)?;
    top.render_description_section(w)?;
    top.render_options_section(w)?;
    let mut stack: Vec<(String, clap::Command)> = cmd
        .get_subcommands()
        .map(|c| (format!("arbiter {}", c.get_name()), c.clone()))
        .collect();
    stack.reverse();
    while let Some((name, sub)) = stack.pop() {
        if sub.is_hide_set() || sub.get_name() == "help" {
            continue;
        }
        let mut text = Vec::new();
        let man = clap_mangen::Man::new(sub.clone().bin_name(name.clone()));
        man.render_synopsis_section(&mut text)?;
        man.render_description_section(&mut text)?;
        man.render_options_section(&mut text)?;
        let text = String::from_utf8_lossy(&text);
        writeln!(w, ".SH \"{}\"", name.to_uppercase())?;
        for line in text.lines() {
            match line.strip_prefix(".SH ") {
                Some(heading) => writeln!(w, ".SS {heading}")?,
                None => writeln!(w, "{line}")?,
            }
        }
        let inner: Vec<_> = sub.get_subcommands().collect();
        for c in inner.into_iter().rev() {
            stack.push((format!("{name} {}", c.get_name()), c.clone()));
        }
    }
    Ok(())
}

/// The inputs named on the command line: the sources, the problems found
/// (already printed), pipeline options for `--jobs`, and the files skipped
/// in folders (for the command to say, knowing what it ignores).
pub(crate) struct Inputs {
    pub(crate) sources: Vec<crate::read::Source>,
    pub(crate) errors: Vec<String>,
    pub(crate) opts: crate::pipeline::Options,
    pub(crate) skipped: Vec<crate::read::Skipped>,
}

/// `Inputs` from the command line, with `--jobs` and `--decisions` in
/// the options; `Err` for a usage error.
pub(crate) fn inputs_and_options(
    inputs: &[String],
    jobs: Option<usize>,
    decisions: Option<&std::path::Path>,
) -> Result<Inputs, ExitStatus> {
    let (sources, errors, skipped) = crate::read::expand_inputs_noting(inputs);
    for e in &errors {
        eprintln!("arbiter: {e}");
    }
    let mut opts = crate::pipeline::Options::default();
    match jobs {
        Some(0) => {
            eprintln!("arbiter: --jobs must be at least 1");
            return Err(ExitStatus::Error);
        }
        Some(j) => opts.jobs = j,
        None => {}
    }
    opts.decisions = decisions_option(decisions)?;
    Ok(Inputs {
        sources,
        errors,
        opts,
        skipped,
    })
}

/// The one same-file rule for every command: an output that is one of the
/// inputs (the same device and inode, whatever the names) is refused
/// before anything is written. The message names both.
pub(crate) fn refuse_inputs_as_outputs(
    outputs: &[std::path::PathBuf],
    inputs: &[std::path::PathBuf],
) -> Result<(), String> {
    for out in outputs {
        // Only a file can be an input read; a FIFO is never opened here
        // (opening one waits for its other end).
        if !std::fs::metadata(out).is_ok_and(|m| m.is_file()) {
            continue;
        }
        for input in inputs {
            if same_place(input, out) {
                let name = match input.as_os_str() == STDIN {
                    true => "on standard input".to_string(),
                    false => input.display().to_string(),
                };
                return Err(format!(
                    "{}: that is the input {name}; writing it would replace that file (choose another output name or folder)",
                    out.display(),
                ));
            }
        }
    }
    Ok(())
}

/// Two outputs named alike (`-o x.csv --pgn-out x.csv`): the second would
/// replace the first without a word. Refused before anything is written,
/// naming both options. `-` (stdout) is not a file.
pub(crate) fn refuse_one_path_twice(
    outputs: &[(&str, Option<&std::path::Path>)],
) -> Result<(), ExitStatus> {
    // A device (`/dev/null`) or FIFO is written in place, and may take
    // several outputs.
    let given: Vec<(&str, &std::path::Path)> = outputs
        .iter()
        .filter_map(|(flag, p)| Some((*flag, (*p)?)))
        .filter(|(_, p)| p.as_os_str() != "-")
        .filter(|(_, p)| std::fs::metadata(p).map_or(true, |m| m.is_file()))
        .collect();
    for (i, (flag, path)) in given.iter().enumerate() {
        if let Some((other, _)) = given[..i].iter().find(|(_, p)| same_place(p, path)) {
            eprintln!(
                "arbiter: {other} and {flag} both name {}: one would replace the other (give each its own file)",
                path.display()
            );
            return Err(ExitStatus::Error);
        }
    }
    Ok(())
}

/// Whether two paths are one file: the same file where both are files
/// (whatever the names: links, another spelling), else the same place by
/// name, for an output not written yet. A FIFO or device is never opened
/// here (opening a FIFO waits for its other end).
pub(crate) fn same_place(a: &std::path::Path, b: &std::path::Path) -> bool {
    let file = |p: &std::path::Path| std::fs::metadata(p).is_ok_and(|m| m.is_file());
    if file(a) && file(b) && same_file::is_same_file(a, b).unwrap_or(false) {
        return true;
    }
    let (x, y) = (place(a), place(b));
    x.is_some() && x == y
}

/// Where a file is or would be written: its folder as the system names it
/// (links followed) where the folder exists, `.` and `..` folded by name.
fn place(p: &std::path::Path) -> Option<std::path::PathBuf> {
    let abs = lexical(p)?;
    let name = abs.file_name()?;
    let dir = abs.parent()?;
    Some(std::fs::canonicalize(dir).map_or_else(|_| abs.clone(), |d| d.join(name)))
}

/// `p` made absolute, `.` and `..` folded away by name (`sub/../x.csv`
/// is `x.csv`), for outputs that do not exist yet.
fn lexical(p: &std::path::Path) -> Option<std::path::PathBuf> {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in std::path::absolute(p).ok()?.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    Some(out)
}

/// The decisions file read (`--decisions`) is an input like the games: no
/// output may replace it.
pub(crate) fn refuse_decisions_as_output(
    outputs: &[&Option<std::path::PathBuf>],
    decisions: Option<&std::path::Path>,
) -> Result<(), ExitStatus> {
    let Some(d) = decisions else { return Ok(()) };
    let outs: Vec<std::path::PathBuf> = outputs.iter().filter_map(|o| (*o).clone()).collect();
    refuse_inputs_as_outputs(&outs, &[d.to_path_buf()]).map_err(|e| {
        eprintln!("arbiter: {e}");
        ExitStatus::Error
    })
}

/// `-o FILE` as given: `-` means stdout, as everywhere on the command line;
/// a path that is one of the inputs (standard input redirected from a file
/// included) is refused by the one same-file rule.
pub(crate) fn output_path(
    out: Option<&std::path::Path>,
    sources: &[crate::read::Source],
) -> Result<Option<std::path::PathBuf>, ExitStatus> {
    let Some(path) = out.filter(|p| p.as_os_str() != "-") else {
        return Ok(None);
    };
    let inputs: Vec<std::path::PathBuf> = sources
        .iter()
        .map(|s| match s {
            crate::read::Source::File { path, .. } => path.clone(),
            crate::read::Source::Stdin => STDIN.into(),
        })
        .collect();
    match refuse_inputs_as_outputs(&[path.to_path_buf()], &inputs) {
        Ok(()) => Ok(Some(path.to_path_buf())),
        Err(e) => {
            eprintln!("arbiter: {e}");
            Err(ExitStatus::Error)
        }
    }
}

/// Standard input redirected from a file is that file: its device and
/// inode, through this path.
const STDIN: &str = "/dev/stdin";

/// A broken pipe (`arbiter … | head`) is not an error worth a message.
pub(crate) fn is_broken_pipe(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::BrokenPipe
}

/// The size of the text to read, when it is known before reading: plain
/// files only (stdin has no size, and a compressed file's text is larger
/// than the file).
pub(crate) fn known_size(sources: &[crate::read::Source]) -> Option<u64> {
    let mut total = 0;
    for s in sources {
        let crate::read::Source::File { path, .. } = s else {
            return None;
        };
        if !crate::read::is_plain_file(path) {
            return None;
        }
        total += std::fs::metadata(path).ok()?.len();
    }
    Some(total)
}

/// The progress shown on a terminal: a bar with bytes, percentage and ETA
/// when the input size is known, a spinner otherwise; rates as integers.
pub(crate) fn progress_bar(total: Option<u64>) -> indicatif::ProgressBar {
    let (pb, template) = match total {
        Some(t) => (
            indicatif::ProgressBar::new(t),
            "{bar:30} {bytes}/{total_bytes} {percent}% ETA {eta} · {msg}",
        ),
        None => (indicatif::ProgressBar::new_spinner(), "{spinner} {msg}"),
    };
    pb.set_style(
        indicatif::ProgressStyle::with_template(template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    pb
}

/// The bar's message: games so far and the rate, whole numbers.
pub(crate) fn progress_message(
    s: &crate::pipeline::Summary,
    elapsed: std::time::Duration,
    sized: bool,
) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let rate = (s.games as f64 / secs).round() as u64;
    if sized {
        format!("{} games, {rate} games/s", s.games)
    } else {
        format!(
            "{} games, {rate} games/s, {} MB",
            s.games,
            s.bytes / 1_000_000
        )
    }
}

/// The address of `target` as a link in the page written to `page`:
/// relative when both are named relative to the same place, otherwise the
/// absolute path (a page opened from a USB stick keeps working either way
/// when the packets travel beside it).
pub(crate) fn link_from(page: &std::path::Path, target: &std::path::Path) -> String {
    let base = page.parent().unwrap_or(std::path::Path::new(""));
    match target.strip_prefix(base) {
        Ok(rel) if target.is_relative() == base.is_relative() => rel.display().to_string(),
        _ => std::path::absolute(target)
            .unwrap_or_else(|_| target.to_path_buf())
            .display()
            .to_string(),
    }
}

/// `--decisions FILE`, read (adjudicate and season take the same file).
/// `--decisions FILE`, read; an error is said and is a usage error.
pub(crate) fn decisions_option(
    path: Option<&std::path::Path>,
) -> Result<Option<std::sync::Arc<crate::judge::decisions::Decisions>>, ExitStatus> {
    path.map(read_decisions).transpose().map_err(|e| {
        eprintln!("arbiter: --decisions: {e}");
        ExitStatus::Error
    })
}

fn read_decisions(
    path: &std::path::Path,
) -> Result<std::sync::Arc<crate::judge::decisions::Decisions>, String> {
    let bytes = crate::read::contained::read_regular(path, 64 << 20)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    crate::judge::decisions::Decisions::parse(&path.display().to_string(), &bytes)
        .map(std::sync::Arc::new)
}
