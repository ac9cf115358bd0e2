//! What a packet shows, built from a finished model: a claim's `Ruling`, or
//! a game's `Judgement` with its replayed `Record`. `layout` draws it.

use shakmaty::{Board, Position};

use crate::{
    claim::{CheckOutcome, Ground, Progress, Ruling},
    model::{Clock, Date, Judgement, Reason, Side, Status},
    pgn::time_control::{Period, TimeControl},
    replay::record::Record,
    rules::Ruleset,
};

/// One move on the scoresheet.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SheetMove {
    pub(crate) san: String,
    pub(crate) clock: Option<Clock>,
    /// Marked moves (the illegal one) are starred and explained under the sheet.
    pub(crate) marked: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SheetLine {
    pub(crate) number: u32,
    pub(crate) white: Option<SheetMove>,
    pub(crate) black: Option<SheetMove>,
}

/// A row of the packet's scoresheet: a move line, or the moves of a very
/// long game left out between the opening and the end.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SheetRow {
    Line(SheetLine),
    /// Move numbers `first` to `last`, not shown.
    Gap {
        first: u32,
        last: u32,
    },
}

/// The scoresheet shows every move of a game up to this many move lines;
/// a longer one shows its first `SHEET_HEAD` and last `SHEET_TAIL` lines
/// and every marked move (so a packet stays a few pages, and its memory
/// bounded, for a game of a million plies).
const SHEET_HEAD: u32 = 30;
const SHEET_TAIL: u32 = 270;

/// One row of a packet's findings table: a claim's check, or a game's
/// ruling on its review sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub name: &'static str,
    pub(crate) outcome: CheckOutcome,
    pub(crate) rule: crate::citation::Citation,
    pub detail: String,
}

/// Everything a packet shows, whatever it was made from.
#[derive(Clone, Debug)]
pub struct Packet {
    pub(crate) title: String,
    pub(crate) subtitle: String,
    pub header: Vec<(String, String)>,
    pub(crate) board: Option<Board>,
    /// Squares framed on the diagram: an illegal move and what makes it illegal.
    pub(crate) marks: Vec<shakmaty::Square>,
    pub(crate) white_to_move: bool,
    pub(crate) fen: String,
    /// "Final position (ECF QPF 15)" where the ruleset has that rule, or the
    /// position an illegal move leaves behind.
    pub position_title: String,
    pub(crate) recommendation: String,
    pub(crate) ruling: Vec<(String, String)>,
    pub findings: Vec<Finding>,
    pub notes: Vec<String>,
    /// Every rule cited on the page, once, with its one-line statement.
    pub(crate) rules_cited: Vec<(String, String)>,
    pub(crate) progress: Option<Progress>,
    pub(crate) progress_numbers: Vec<String>,
    pub(crate) sheet: Vec<SheetRow>,
    pub(crate) sheet_source: String,
    /// What the scoresheet section says when it has no moves.
    pub(crate) sheet_empty: &'static str,
    pub(crate) mark_note: String,
    /// (side, move number, seconds left) for the chart.
    pub(crate) chart: Vec<(Side, f32, u32)>,
    /// Move numbers where a time control ends.
    pub(crate) controls: Vec<u32>,
    /// A horizontal line at this many seconds (the claim window).
    pub(crate) window: Option<u32>,
    /// A clock limit the ruleset's rules turn on (BCF RP 12's five minutes), and its rule.
    pub(crate) limit: Option<(u32, String)>,
    /// Unusually long single moves: (side, move number, seconds used).
    pub(crate) long_moves: Vec<(Side, f32, u32)>,
    pub(crate) decided_by: String,
    /// "Recommended ruling" on an appeal, "Adjudication" on a review sheet.
    pub(crate) ruling_heading: String,
    /// The boxes the one who decides ticks.
    pub(crate) decision_options: Vec<String>,
    pub(crate) footer: String,
    /// The paper it is laid out for: the ruleset's, unless `--paper` says.
    pub paper: crate::rules::Paper,
    /// The position the ruling rests on, drawn as a second diagram where
    /// it is not the one the first shows.
    pub(crate) ruling_position: Option<SecondDiagram>,
}

/// A diagram of its own below the first: the position a ruling rests on.
#[derive(Clone, Debug)]
pub(crate) struct SecondDiagram {
    /// "Position the ruling rests on, after 55. Bxg7".
    pub(crate) title: String,
    pub(crate) board: Board,
    pub(crate) white_to_move: bool,
    pub(crate) fen: String,
    /// Beside the diagram: why this position, and not the last one.
    pub(crate) note: String,
}

pub(super) fn clock_text(c: Option<Clock>) -> String {
    c.map(|c| c.to_string()).unwrap_or_default()
}

fn sheet_move(r: &crate::replay::record::Row, marked: bool) -> SheetMove {
    SheetMove {
        san: r.san.clone(),
        clock: r.clock,
        marked,
    }
}

/// The scoresheet lines from replayed evidence; `marked` is a ply to star,
/// and illegal moves are starred too. A game longer than
/// `SHEET_HEAD + SHEET_TAIL` move lines shows its opening and its end, the
/// marked moves, and a gap row for the rest.
pub(crate) fn sheet_lines(ev: &Record, marked: Option<usize>) -> Vec<SheetRow> {
    let stopped = ev.last_illegal().filter(|i| !i.stood).cloned();
    let plies = [
        ev.rows.first().map(|r| r.ply),
        ev.rows.last().map(|r| r.ply),
        stopped.as_ref().map(|i| i.ply),
        ev.unreplayed.first().map(|r| r.ply),
        ev.unreplayed.last().map(|r| r.ply),
    ];
    let first = plies.iter().flatten().min().map_or(1, |&p| ev.fullmove(p));
    let last = plies.iter().flatten().max().map_or(1, |&p| ev.fullmove(p));
    let shown = |n: u32| {
        last - first < SHEET_HEAD + SHEET_TAIL || n < first + SHEET_HEAD || n + SHEET_TAIL > last
    };
    let mut rows: Vec<SheetRow> = Vec::new();
    let mut put = |ply: usize, side: Side, mv: SheetMove| {
        let n = ev.fullmove(ply);
        if !shown(n) && !mv.marked {
            match rows.last_mut() {
                Some(SheetRow::Gap { last, .. }) => *last = n,
                _ => rows.push(SheetRow::Gap { first: n, last: n }),
            }
            return;
        }
        if !matches!(rows.last(), Some(SheetRow::Line(l)) if l.number == n) {
            rows.push(SheetRow::Line(SheetLine {
                number: n,
                white: None,
                black: None,
            }));
        }
        if let Some(SheetRow::Line(l)) = rows.last_mut() {
            match side {
                Side::White => l.white = Some(mv),
                Side::Black => l.black = Some(mv),
            }
        }
    };
    // Illegal moves that stood are rows of their own, starred; one that
    // stopped the replay is written after the last row.
    let stood = |ply: usize| ev.illegal.iter().any(|i| i.stood && i.ply == ply);
    for r in &ev.rows {
        put(
            r.ply,
            r.side,
            sheet_move(r, marked == Some(r.ply) || stood(r.ply)),
        );
    }
    if let Some(im) = &stopped {
        put(
            im.ply,
            im.side,
            SheetMove {
                san: im.san.clone(),
                clock: None,
                marked: true,
            },
        );
    }
    // What the scoresheet says after the replay stopped, as written.
    for r in &ev.unreplayed {
        put(r.ply, r.side, sheet_move(r, false));
    }
    rows
}

/// Move numbers at which each time control of `tc` ends, up to `last`.
fn control_moves(tc: &TimeControl, last: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = 0;
    for p in tc.periods() {
        if let Period::Moves { moves, .. } = p {
            at += moves;
            if at <= last {
                out.push(at);
            }
        }
    }
    out
}

/// Moves of the chart: the end of the game is where claims and flags are
/// decided, so the chart shows the last of them, and none below this many.
const CHART_MOVES: f32 = 20.0;
const MIN_CHART_MOVES: usize = 10;

/// Both clocks against move number over the last `CHART_MOVES` moves; empty
/// when the scoresheet has clocks for fewer than `MIN_CHART_MOVES` moves.
fn chart_points(ev: &Record) -> Vec<(Side, f32, u32)> {
    let all: Vec<(Side, f32, u32)> = ev
        .rows
        .iter()
        .filter_map(|r| {
            let n = ev.fullmove(r.ply) as f32;
            r.clock.map(|c| (r.side, n, c.tenths / 10))
        })
        .collect();
    let moves = all.iter().filter(|c| c.0 == Side::White).count();
    if moves < MIN_CHART_MOVES {
        return Vec::new();
    }
    let last = all.iter().map(|c| c.1).fold(0.0, f32::max);
    all.into_iter()
        .filter(|c| c.1 > last - CHART_MOVES)
        .collect()
}

/// Single moves that took far longer than the player's usual: at least a
/// minute and five times the median over the chart.
fn long_moves(chart: &[(Side, f32, u32)]) -> Vec<(Side, f32, u32)> {
    let mut out = Vec::new();
    for side in [Side::White, Side::Black] {
        let pts: Vec<&(Side, f32, u32)> = chart.iter().filter(|c| c.0 == side).collect();
        // A move after which the clock reads nothing is the flag falling,
        // not a long move: the time it "took" is the time that was left.
        let used: Vec<(f32, u32)> = pts
            .windows(2)
            .filter(|w| w[1].2 > 0)
            .map(|w| (w[1].1, w[0].2.saturating_sub(w[1].2)))
            .collect();
        let mut sorted: Vec<u32> = used.iter().map(|u| u.1).collect();
        sorted.sort_unstable();
        let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0);
        for (m, u) in used {
            if u >= 60 && u >= 5 * median.max(1) {
                out.push((side, m, u));
            }
        }
    }
    out
}

/// The clock limit the ruleset's illegal-move rule turns on, for the chart.
fn limit_line(rules: &Ruleset) -> Option<(u32, String)> {
    let im = &rules.illegal_move;
    match (im.loses_under_seconds, &im.loses_under_rule) {
        (Some(s), Some(rule)) => Some((s, rule.to_string())),
        _ => None,
    }
}

/// ` (ECF QPF 15)` where the ruleset prescribes the diagram; nothing elsewhere.
fn diagram_note(rules: &Ruleset, what: &str) -> String {
    rules
        .claims
        .diagram_rule
        .as_ref()
        .map_or_else(String::new, |r| format!(" ({r}{what})"))
}

/// Each rule of these citations once, in order, with what it says.
fn cited<'a>(
    rules: &Ruleset,
    citations: impl Iterator<Item = &'a crate::citation::Citation>,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for c in citations {
        for (rule, says) in rules.explain(c) {
            if !out.iter().any(|(r, _)| *r == rule) {
                out.push((rule, says));
            }
        }
    }
    out
}

/// The diagram's title names the position it shows: before an illegal
/// move the replay stopped at, the claimant's written position where the
/// scoresheet's was not used, else the last position and the move to it.
fn position_title(r: &Ruling) -> String {
    let c = &r.claim;
    let ev = &r.evidence;
    let note = diagram_note(&c.ruleset, "");
    match ev.last_illegal() {
        Some(im) if c.kind == crate::claim::ClaimKind::IllegalMove && !im.stood => {
            return format!(
                "Position before {}{}{}",
                ev.move_number(im.ply),
                im.san,
                diagram_note(&c.ruleset, " diagram")
            );
        }
        _ => {}
    }
    let written_only = matches!(c.scoresheet, crate::claim::file::Scoresheet::Position(_));
    if written_only || (!r.fen.is_empty() && r.fen != ev.fen()) {
        return format!("Position as written by the claimant{note}");
    }
    // Moves written past where the replay stopped: the position shown is
    // not the last one recorded.
    let stopped = !ev.unreplayed.is_empty();
    // Where the judge found the game over on the board before the claim.
    let ended = r.check(crate::claim::CheckId::GameOver).is_some();
    let after =
        |row: &crate::replay::record::Row| format!("{}{}", ev.move_number(row.ply), row.san);
    match (ev.rows.last(), stopped) {
        (Some(row), false) => format!("Final position, after {}{note}", after(row)),
        (Some(row), true) if ended => {
            format!("Position where the game ended, after {}{note}", after(row))
        }
        (Some(row), true) => format!(
            "Position after {}, where the replay stopped{note}",
            after(row)
        ),
        (None, true) if ended => {
            format!("Position the scoresheet starts from, where the game had ended{note}")
        }
        (None, true) => format!("Position the scoresheet starts from{note}"),
        (None, false) => format!("Final position{note}"),
    }
}

/// The packet for a judged claim.
pub fn claim_packet(r: &Ruling) -> Packet {
    let c = &r.claim;
    let ev = &r.evidence;
    let header = claim_header(r);
    let mut notes = Vec::new();
    if let Some(l) = &r.mate_line {
        notes.push(format!("Helpmate line: {l}"));
    }
    if let Some(p) = ev.problem.as_ref().or(ev.note.as_ref()) {
        notes.push(format!("Scoresheet: {p}"));
    }
    let ruling = vec![
        ("If upheld".to_string(), r.result_if_upheld.clone()),
        ("If rejected".to_string(), r.result_if_rejected.clone()),
        ("Rule".to_string(), r.rule.to_string()),
        ("Why".to_string(), r.detail.clone()),
    ];
    let marks = match ev.last_illegal() {
        Some(im) if c.kind == crate::claim::ClaimKind::IllegalMove && !im.stood => {
            crate::analysis::illegal::marked_squares(&ev.position, im.as_moved)
        }
        _ => Vec::new(),
    };
    if let (false, Some(im)) = (marks.is_empty(), ev.last_illegal()) {
        let squares: Vec<String> = marks.iter().map(|s| s.to_string()).collect();
        notes.push(format!(
            "The diagram frames {}{} and the men that make it illegal ({}).",
            ev.move_number(im.ply),
            im.san,
            squares.join(", ")
        ));
    }
    let window = r.procedure.as_ref().and_then(|p| p.window_seconds);
    let decided_by = r.decided_by();
    let last_move = ev.rows.last().map_or(0, |row| ev.fullmove(row.ply));
    let board = r.position.as_ref().map(|p| p.board().clone());
    let chart = chart_points(ev);
    Packet {
        title: "Appeal packet".into(),
        subtitle: format!("{} claim · {}", c.kind, c.id),
        header,
        white_to_move: r
            .position
            .as_ref()
            .is_none_or(|p| p.turn() == shakmaty::Color::White),
        marks,
        board,
        fen: r.fen.clone(),
        position_title: position_title(r),
        recommendation: r.recommendation.as_str().to_uppercase(),
        ruling,
        findings: r
            .checks
            .iter()
            .map(|c| Finding {
                name: c.id.as_str(),
                outcome: c.outcome,
                rule: c.rule.clone(),
                detail: c.detail.clone(),
            })
            .collect(),
        notes,
        rules_cited: cited(
            &c.ruleset,
            std::iter::once(&r.rule).chain(r.checks.iter().map(|k| &k.rule)),
        ),
        progress_numbers: r
            .progress
            .as_ref()
            .map(|p| p.rows.iter().map(|x| ev.move_number(x.ply)).collect())
            .unwrap_or_default(),
        progress: r.progress.clone(),
        sheet: sheet_lines(ev, r.marked_ply),
        sheet_source: ev.source.clone(),
        sheet_empty: match r.claim.scoresheet {
            crate::claim::file::Scoresheet::Position(_) => {
                "No scoresheet was sent: the claim gives the final position only."
            }
            _ => "No moves could be read.",
        },
        mark_note: match ev.last_illegal() {
            Some(im) => format!(
                "* {}{} is illegal (written as played)",
                ev.move_number(im.ply),
                im.san
            ),
            None => String::new(),
        },
        long_moves: long_moves(&chart),
        chart,
        controls: control_moves(&ev.time_control, last_move),
        window,
        // The illegal-move rule's limit means nothing to another claim.
        limit: limit_line(&c.ruleset).filter(|_| c.kind == crate::claim::ClaimKind::IllegalMove),
        decided_by,
        ruling_heading: "Recommended ruling".into(),
        decision_options: vec!["Uphold".into(), "Reject".into(), "Other".into()],
        footer: format!("arbiter appeal packet · {}", c.id),
        paper: c.ruleset.paper,
        ruling_position: None,
    }
}

/// The appeal packet's header rows: the event, the players, the claim,
/// the clocks, the grounds as the procedure numbers them.
fn claim_header(r: &Ruling) -> Vec<(String, String)> {
    let c = &r.claim;
    let ev = &r.evidence;
    let opt = |o: &Option<String>| o.clone().unwrap_or_else(|| "not given".into());
    let tags = &ev.tags;
    let event = c
        .event
        .clone()
        .or_else(|| crate::pgn::tags::given(&tags.event).map(str::to_string));
    // Written as the claim's dates are (2009-11-12), whatever the tag's form.
    let date = c.date.map(|d| d.to_string()).or_else(|| {
        Some(tags.date.clone())
            .filter(|d| !d.is_empty() && !d.contains('?'))
            .map(|d| Date::parse(&d).map_or(d, |d| d.to_string()))
    });
    let claimant = c.claimant;
    let opponent = claimant.other();
    // A player by name and colour; by colour alone where no name is known
    // (not "Black (Black)").
    let who = |side: Side| match r.name_of(side) {
        name if name == side.name() => name.to_string(),
        name => format!("{name} ({})", side.name()),
    };
    // Said where a clock is the scoresheet's last reading, not one the
    // claim states: the packet must not present it as the claimant's.
    let stated = [Side::White, Side::Black].map(|s| c.clock(s).is_some());
    let clock = |side: Side| match (c.clock(side), r.clocks[side.index()]) {
        (Some(stated), _) => stated.to_string(),
        (None, Some(read)) if stated.iter().any(|&s| s) => {
            format!("{read} (the scoresheet's last reading)")
        }
        (None, Some(read)) => read.to_string(),
        (None, None) => "not known".to_string(),
    };
    let mut clocks = format!("White {}, Black {}", clock(Side::White), clock(Side::Black));
    if !stated.iter().any(|&s| s) && r.clocks.iter().any(Option::is_some) {
        clocks.push_str(": the scoresheet's last readings, the claim states none");
    }
    // Each ground as the procedure's text numbers it (ECF QPF 11(a)).
    let grounds = c
        .grounds
        .iter()
        .map(|g| match (&r.procedure, g) {
            (Some(p), Ground::CannotWin) => format!("{} ({})", g.as_str(), p.normal_means_rule),
            (Some(p), Ground::NoEffort) => format!("{} ({})", g.as_str(), p.no_effort_rule),
            (None, _) => g.as_str().to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mut header = vec![
        ("Event".to_string(), opt(&event)),
        ("Match".to_string(), opt(&c.match_name)),
        ("Board".to_string(), opt(&c.board)),
        ("Date of play".to_string(), opt(&date)),
        (
            "Received".to_string(),
            c.received.map_or("not given".into(), |d| d.to_string()),
        ),
        (
            "Ruleset".to_string(),
            format!("{} ({})", c.ruleset.title, c.ruleset.name),
        ),
        ("Claim".to_string(), c.kind.as_str().to_string()),
        ("Claimant".to_string(), who(claimant)),
        ("Opponent".to_string(), who(opponent)),
        ("Clocks at the claim".to_string(), clocks),
    ];
    if !grounds.is_empty() {
        header.push(("Grounds".to_string(), grounds));
    }
    if let Some(n) = &c.notes {
        header.push(("Notes".to_string(), n.clone()));
    }
    header
}

/// A review sheet's header rows: where the game is, its tags, the ruleset
/// and the clocks at the end.
fn game_header(
    source: &str,
    index: u64,
    ev: &Record,
    j: &Judgement,
    rules: &Ruleset,
) -> Vec<(String, String)> {
    let t = &ev.tags;
    let shown = |v: &str| {
        if v.trim().is_empty() {
            "not given".to_string()
        } else {
            v.to_string()
        }
    };
    let recorded = t.recorded_result();
    let mut header = vec![
        ("Source".to_string(), format!("{source}, game {index}")),
        ("Event".to_string(), shown(&t.event)),
        ("Round".to_string(), shown(&t.round)),
        ("Date".to_string(), shown(&t.date)),
        ("White".to_string(), shown(&t.white)),
        ("Black".to_string(), shown(&t.black)),
        (
            "Ruleset".to_string(),
            format!("{} ({})", rules.title, rules.name),
        ),
        ("Time control".to_string(), shown(&t.time_control)),
        ("Recorded result".to_string(), recorded.as_str().to_string()),
        (
            "Clocks at the end".to_string(),
            clocks_words(sheet_clocks(ev, usize::MAX)),
        ),
    ];
    // Where the ruling rests on an earlier move than the last recorded,
    // the clocks at that move too, as the scoresheet shows them.
    let last = ev.rows.iter().chain(&ev.unreplayed).map(|r| r.ply).max();
    if let (Some(p), Some(last)) = (j.ply, last) {
        if p < last && p >= 1 && p <= ev.rows.len() {
            header.push((
                "Ruling rests on".to_string(),
                format!("{}{}", ev.move_number(p), ev.rows[p - 1].san),
            ));
            header.push(("Clocks then".to_string(), clocks_words(sheet_clocks(ev, p))));
        }
    }
    header
}

/// Each side's last clock written on the scoresheet up to ply `upto`
/// (White, Black): what the sheet's clock columns show there.
fn sheet_clocks(ev: &Record, upto: usize) -> [Option<Clock>; 2] {
    let mut clocks = [None, None];
    for r in ev.rows.iter().chain(&ev.unreplayed) {
        if let (true, Some(c)) = (r.ply <= upto, r.clock) {
            clocks[r.side.index()] = Some(c);
        }
    }
    clocks
}

/// "White 0:00:28, Black 0:00:00"; a side with no clock written yet says so.
fn clocks_words([w, b]: [Option<Clock>; 2]) -> String {
    let one = |c: Option<Clock>| c.map_or("none written".to_string(), |c| c.to_string());
    format!("White {}, Black {}", one(w), one(b))
}

/// A review sheet's notes: why the diagram shows what it shows, where the
/// ruling rests on a position that cannot be drawn, the scoresheet's
/// problem.
fn game_notes(ev: &Record, j: &Judgement, fen: &str, drawn: bool) -> Vec<String> {
    let mut notes = Vec::new();
    if ev.last_recorded.is_none() {
        notes.push("The moves after the illegal one cannot be played on the board: the diagram shows the position before it.".to_string());
    }
    if !drawn && !j.final_fen.is_empty() && j.final_fen != fen {
        notes.push(format!(
            "The ruling rests on an earlier position{}: {}",
            after_words(ev, j.ply),
            j.final_fen
        ));
    }
    if let Some(p) = &ev.problem {
        notes.push(format!("Scoresheet: {p}"));
    }
    notes
}

/// " (after 55. Bxg7)" for a ply of the replayed rows; nothing otherwise.
fn after_words(ev: &Record, ply: Option<usize>) -> String {
    match ply {
        Some(p) if p >= 1 && p <= ev.rows.len() => {
            format!(" (after {}{})", ev.move_number(p), ev.rows[p - 1].san)
        }
        _ => String::new(),
    }
}

/// The position the ruling rests on, as a diagram of its own, where it is
/// not the last position recorded (a dead position, a mate or a repetition
/// that ended the game before the moves written after it).
fn ruling_diagram(ev: &Record, j: &Judgement, fen: &str) -> Option<SecondDiagram> {
    if j.final_fen.is_empty() || j.final_fen == fen {
        return None;
    }
    let setup = j.final_fen.parse::<shakmaty::fen::Fen>().ok()?;
    let white_to_move = setup.as_setup().turn == shakmaty::Color::White;
    let board = setup.as_setup().board.clone();
    let after = after_words(ev, j.ply);
    let after = after.trim().trim_start_matches('(').trim_end_matches(')');
    let title = match after {
        "" => "Position the ruling rests on".to_string(),
        a => format!("Position the ruling rests on, {a}"),
    };
    Some(SecondDiagram {
        title,
        board,
        white_to_move,
        fen: j.final_fen.clone(),
        note: match j.verdict.reason {
            Reason::Checkmate
            | Reason::Stalemate
            | Reason::DeadPosition
            | Reason::FivefoldRepetition
            | Reason::SeventyFiveMoves => {
                "The ruling rests on this position, not on the last one \
                recorded (above): the game ended here, and the moves written after it do not count."
            }
            _ => "The ruling rests on this position, not on the last one recorded (above).",
        }
        .to_string(),
    })
}

/// The line under the scoresheet naming its marked move: the illegal one,
/// else the move the verdict rests on.
fn game_mark_note(ev: &Record, ply: Option<usize>) -> String {
    match (ev.last_illegal(), ply) {
        (Some(im), _) => format!(
            "* {}{} is illegal (written as played)",
            ev.move_number(im.ply),
            im.san
        ),
        (None, Some(ply)) if ply >= 1 && ply <= ev.rows.len() => format!(
            "* {}{}: the move the verdict rests on",
            ev.move_number(ply),
            ev.rows[ply - 1].san
        ),
        _ => String::new(),
    }
}

/// The packet for a game `adjudicate` did not confirm: the same layout,
/// with the verdict in place of a claim's ruling.
pub fn game_packet(
    source: &str,
    index: u64,
    ev: &Record,
    j: &Judgement,
    rules: &Ruleset,
) -> Packet {
    let recorded = ev.tags.recorded_result();
    let header = game_header(source, index, ev, j, rules);
    let v = &j.verdict;
    let outcome = match v.status {
        Status::Confirmed => CheckOutcome::Pass,
        Status::Corrected => CheckOutcome::Fail,
        _ => CheckOutcome::Unknown,
    };
    // The recorded result is what is checked; the reason is in the ruling
    // beside the diagram, and the detail says it in words.
    let findings = vec![Finding {
        name: "recorded result",
        outcome,
        rule: v.rule.clone(),
        detail: j.detail.clone(),
    }];
    // The last position recorded; the one the ruling rests on is named
    // beside it when it differs.
    let pos = ev
        .last_recorded
        .clone()
        .unwrap_or_else(|| ev.position.clone());
    let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string();
    let ruling_position = ruling_diagram(ev, j, &fen);
    let notes = game_notes(ev, j, &fen, ruling_position.is_some());
    let last_move = ev.rows.last().map_or(0, |row| ev.fullmove(row.ply));
    let safe = crate::report::write::safe_stem(source, 120, "stdin");
    let chart = chart_points(ev);
    Packet {
        title: "Review sheet".into(),
        subtitle: format!("{source}, game {index} · {}", v.reason.as_str()),
        header,
        board: Some(pos.board().clone()),
        marks: Vec::new(),
        white_to_move: pos.turn() == shakmaty::Color::White,
        fen,
        position_title: format!("Last position recorded{}", diagram_note(rules, "")),
        recommendation: v.status.as_str().to_uppercase(),
        ruling: vec![
            ("Result".to_string(), v.result.as_str().to_string()),
            ("Recorded".to_string(), recorded.as_str().to_string()),
            ("Reason".to_string(), v.reason.as_str().to_string()),
            ("Rule".to_string(), v.rule.to_string()),
            ("Why".to_string(), j.detail.clone()),
        ],
        rules_cited: cited(rules, std::iter::once(&v.rule)),
        findings,
        notes,
        progress: None,
        progress_numbers: Vec::new(),
        sheet: sheet_lines(ev, j.ply),
        sheet_source: source.to_string(),
        sheet_empty: "No moves could be read.",
        mark_note: game_mark_note(ev, j.ply),
        long_moves: long_moves(&chart),
        chart,
        controls: control_moves(&ev.time_control, last_move),
        window: None,
        limit: limit_line(rules),
        decided_by: rules.claims.decided_by.clone(),
        ruling_heading: "Adjudication".into(),
        decision_options: vec![
            format!("Confirm {}", v.result.as_str()),
            format!("Keep {}", recorded.as_str()),
            "Other".into(),
        ],
        footer: format!("arbiter review sheet · {safe} game {index}"),
        paper: rules.paper,
        ruling_position,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_falling_is_no_long_move() {
        // White thinks three minutes over move 30; both flags fall at 41.
        let mut chart = Vec::new();
        for m in 20..=40u32 {
            let extra = if m >= 30 { 180 } else { 0 };
            chart.push((Side::White, m as f32, 4000 - 10 * m - extra));
            chart.push((Side::Black, m as f32 + 0.5, 4100 - 10 * m));
        }
        chart.push((Side::White, 41.0, 0));
        chart.push((Side::Black, 41.5, 0));
        assert_eq!(long_moves(&chart), [(Side::White, 30.0, 190)]);
    }
}
