//! The PDF appeal packet (PRODUCT.md): header, the ECF QPF 15 diagram,
//! findings with citations, the recommended ruling, a progress table for
//! ground (b), a clock chart, the scoresheet with both clocks, and a
//! decision box. One renderer serves `claim` and `adjudicate --packets`.

use shakmaty::{Board, Position};

use super::{
    diagram::{diagram_ops, men},
    pdf::{pt, wrap, Doc, Weight, LEFT, RIGHT},
};
use crate::{
    claim::{evidence::Evidence, judge::Progress, Check, Outcome, Ruling},
    model::{Clock, Side},
    pgn::time_control::{Period, TimeControl},
};

/// One move on the scoresheet.
#[derive(Clone, Debug, PartialEq)]
pub struct SheetMove {
    pub san: String,
    pub clock: Option<Clock>,
    /// Marked moves (the illegal one) are starred and explained under the sheet.
    pub marked: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SheetLine {
    pub number: u32,
    pub white: Option<SheetMove>,
    pub black: Option<SheetMove>,
}

/// Everything a packet shows, whatever it was made from.
#[derive(Clone, Debug)]
pub struct Packet {
    pub title: String,
    pub subtitle: String,
    pub header: Vec<(String, String)>,
    pub board: Option<Board>,
    pub white_to_move: bool,
    pub fen: String,
    /// "Final position (ECF QPF 15)", or the position an illegal move leaves behind.
    pub position_title: String,
    pub recommendation: String,
    pub ruling: Vec<(String, String)>,
    pub findings: Vec<Check>,
    pub notes: Vec<String>,
    pub progress: Option<Progress>,
    pub progress_numbers: Vec<String>,
    pub sheet: Vec<SheetLine>,
    pub sheet_source: String,
    pub mark_note: String,
    /// (side, move number, seconds left) for the chart.
    pub chart: Vec<(Side, f32, u32)>,
    /// Move numbers where a time control ends.
    pub controls: Vec<u32>,
    /// A horizontal line at this many seconds (the claim window).
    pub window: Option<u32>,
    pub decided_by: String,
    pub footer: String,
}

fn clock_text(c: Option<Clock>) -> String {
    c.map(|c| c.to_string()).unwrap_or_default()
}

/// The scoresheet lines from replayed evidence; `marked` is a ply to star,
/// `illegal` the illegal move written after the last legal one.
pub fn sheet_lines(ev: &Evidence, marked: Option<usize>) -> Vec<SheetLine> {
    let mut lines: Vec<SheetLine> = Vec::new();
    let mut put = |ply: usize, side: Side, mv: SheetMove| {
        let n = ev.fullmove(ply);
        if lines.last().is_none_or(|l| l.number != n) {
            lines.push(SheetLine {
                number: n,
                white: None,
                black: None,
            });
        }
        if let Some(l) = lines.last_mut() {
            match side {
                Side::White => l.white = Some(mv),
                Side::Black => l.black = Some(mv),
            }
        }
    };
    for r in &ev.rows {
        put(
            r.ply,
            r.side,
            SheetMove {
                san: r.san.clone(),
                clock: r.clock,
                marked: marked == Some(r.ply),
            },
        );
    }
    if let Some(im) = &ev.illegal {
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
    lines
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

fn chart_points(ev: &Evidence) -> Vec<(Side, f32, u32)> {
    ev.rows
        .iter()
        .filter_map(|r| {
            let n = ev.fullmove(r.ply) as f32;
            r.clock.map(|c| (r.side, n, c.tenths / 10))
        })
        .collect()
}

/// The packet for a judged claim.
pub fn claim_packet(r: &Ruling) -> Packet {
    let c = &r.claim;
    let ev = &r.evidence;
    let opt = |o: &Option<String>| o.clone().unwrap_or_else(|| "not given".into());
    let tags = &ev.tags;
    let event = c
        .event
        .clone()
        .or_else(|| Some(tags.event.clone()).filter(|e| !e.is_empty() && e != "?"));
    let date = c
        .date
        .map(|d| d.to_string())
        .or_else(|| Some(tags.date.clone()).filter(|d| !d.is_empty() && !d.contains('?')));
    let claimant = c.claimant;
    let opponent = claimant.other();
    let clocks = format!(
        "White {}, Black {}",
        r.clocks[0].map_or("not known".into(), |c| c.to_string()),
        r.clocks[1].map_or("not known".into(), |c| c.to_string())
    );
    let grounds = if c.grounds.is_empty() {
        String::new()
    } else {
        c.grounds
            .iter()
            .map(|g| g.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
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
        (
            "Claimant".to_string(),
            format!("{} ({})", r.name_of(claimant), claimant.name()),
        ),
        (
            "Opponent".to_string(),
            format!("{} ({})", r.name_of(opponent), opponent.name()),
        ),
        ("Clocks at the claim".to_string(), clocks),
    ];
    if !grounds.is_empty() {
        header.push(("Grounds".to_string(), grounds));
    }
    if let Some(n) = &c.notes {
        header.push(("Notes".to_string(), n.clone()));
    }
    let mut notes = Vec::new();
    if let Some(l) = &r.mate_line {
        notes.push(format!("Helpmate line: {l}"));
    }
    if let Some(p) = &ev.problem {
        notes.push(format!("Scoresheet: {p}"));
    }
    let ruling = vec![
        ("If upheld".to_string(), r.result_if_upheld.clone()),
        ("If rejected".to_string(), r.result_if_rejected.clone()),
        ("Rule".to_string(), r.rule.clone()),
        ("Why".to_string(), r.detail.clone()),
    ];
    let window = r.procedure.as_ref().and_then(|p| p.window_seconds);
    let decided_by = r.decided_by();
    let last_move = ev.rows.last().map_or(0, |row| ev.fullmove(row.ply));
    let board = r.position.as_ref().map(|p| p.board().clone());
    Packet {
        title: "Appeal packet".into(),
        subtitle: format!("{} claim · {}", c.kind, c.id),
        header,
        white_to_move: r
            .position
            .as_ref()
            .is_none_or(|p| p.turn() == shakmaty::Color::White),
        board,
        fen: r.fen.clone(),
        position_title: match &ev.illegal {
            Some(im) if c.kind == crate::claim::ClaimKind::IllegalMove => format!(
                "Position before {}{} (ECF QPF 15 diagram)",
                ev.move_number(im.ply),
                im.san
            ),
            _ => "Final position (ECF QPF 15)".into(),
        },
        recommendation: r.recommendation.as_str().to_uppercase(),
        ruling,
        findings: r.checks.clone(),
        notes,
        progress_numbers: r
            .progress
            .as_ref()
            .map(|p| p.rows.iter().map(|x| ev.move_number(x.ply)).collect())
            .unwrap_or_default(),
        progress: r.progress.clone(),
        sheet: sheet_lines(ev, r.marked_ply),
        sheet_source: ev.source.clone(),
        mark_note: match &ev.illegal {
            Some(im) => format!(
                "* {}{} is illegal (written as played)",
                ev.move_number(im.ply),
                im.san
            ),
            None => String::new(),
        },
        chart: chart_points(ev),
        controls: control_moves(&ev.time_control, last_move),
        window,
        decided_by,
        footer: format!("arbiter appeal packet · {}", c.id),
    }
}

/// The packet for a game `adjudicate` did not confirm: the same layout,
/// with the verdict in place of a claim's ruling.
pub fn game_packet(
    source: &str,
    index: u64,
    game: &crate::pgn::ParsedGame,
    j: &crate::rules::judge::Judgement,
    rules: &crate::rules::Ruleset,
) -> Packet {
    let ev = crate::claim::evidence::from_game(source, game, rules);
    let t = &game.tags;
    let shown = |v: &str| {
        if v.trim().is_empty() {
            "not given".to_string()
        } else {
            v.to_string()
        }
    };
    let recorded = crate::rules::judge::recorded_result_of(t);
    let header = vec![
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
            format!(
                "White {}, Black {}",
                j.white_clock.map_or("not known".into(), |c| c.to_string()),
                j.black_clock.map_or("not known".into(), |c| c.to_string())
            ),
        ),
    ];
    let v = &j.verdict;
    let outcome = match v.status {
        crate::model::Status::Confirmed => Outcome::Pass,
        crate::model::Status::Corrected => Outcome::Fail,
        _ => Outcome::Unknown,
    };
    let findings = vec![Check {
        name: "result",
        outcome,
        rule: v.rule.clone(),
        detail: format!("{}: {}", v.reason.as_str(), j.detail),
    }];
    let pos = j
        .final_fen
        .parse::<shakmaty::fen::Fen>()
        .ok()
        .and_then(|f| {
            f.into_position::<shakmaty::Chess>(shakmaty::CastlingMode::Chess960)
                .ok()
        })
        .unwrap_or_else(|| ev.position.clone());
    let fen = if j.final_fen.is_empty() {
        ev.fen()
    } else {
        j.final_fen.clone()
    };
    let mut notes = Vec::new();
    if let Some(p) = &ev.problem {
        notes.push(format!("Scoresheet: {p}"));
    }
    let last_move = ev.rows.last().map_or(0, |row| ev.fullmove(row.ply));
    let safe = crate::report::write::safe_stem(source, 120, "stdin");
    Packet {
        title: "Adjudication packet".into(),
        subtitle: format!("{source}, game {index} · {}", v.reason.as_str()),
        header,
        board: Some(pos.board().clone()),
        white_to_move: pos.turn() == shakmaty::Color::White,
        fen,
        position_title: "Final position (ECF QPF 15)".into(),
        recommendation: v.status.as_str().to_uppercase(),
        ruling: vec![
            ("Result".to_string(), v.result.as_str().to_string()),
            ("Recorded".to_string(), recorded.as_str().to_string()),
            ("Reason".to_string(), v.reason.as_str().to_string()),
            ("Rule".to_string(), v.rule.clone()),
            ("Why".to_string(), j.detail.clone()),
        ],
        findings,
        notes,
        progress: None,
        progress_numbers: Vec::new(),
        sheet: sheet_lines(&ev, j.ply),
        sheet_source: source.to_string(),
        mark_note: match (&ev.illegal, j.ply) {
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
        },
        chart: chart_points(&ev),
        controls: control_moves(&ev.time_control, last_move),
        window: None,
        decided_by: "Arbiter".into(),
        footer: format!("arbiter adjudication packet · {safe} game {index}"),
    }
}

/// Renders a packet to PDF bytes.
pub fn render(p: &Packet) -> Vec<u8> {
    let mut d = Doc::new(&format!("{}: {}", p.title, p.subtitle));
    let top = d.y;
    d.text_at(LEFT, top, 18.0, Weight::Bold, &p.title);
    d.text_at(LEFT, top - 16.0, 10.0, Weight::Regular, &p.subtitle);
    d.y = top - 24.0;
    header(&mut d, &p.header);
    position_and_ruling(&mut d, p);
    findings(&mut d, &p.findings, &p.notes);
    if let Some(pr) = &p.progress {
        progress(&mut d, pr, &p.progress_numbers);
    }
    chart(&mut d, p);
    scoresheet(&mut d, p);
    decision_box(&mut d, &p.decided_by);
    d.save(&p.footer)
}

fn header(d: &mut Doc, rows: &[(String, String)]) {
    let half = rows.len().div_ceil(2);
    let y0 = d.y;
    let mut low = y0;
    for (col, chunk) in rows.chunks(half.max(1)).enumerate() {
        let x = LEFT + col as f32 * 250.0;
        let mut y = y0;
        for (label, value) in chunk {
            let lines = wrap(value, 160.0, 9.0, Weight::Regular);
            y -= 12.0;
            d.text_at(x, y, 8.0, Weight::Bold, label);
            for (i, l) in lines.iter().enumerate() {
                if i > 0 {
                    y -= 11.0;
                }
                d.text_at(x + 85.0, y, 9.0, Weight::Regular, l);
            }
        }
        low = low.min(y);
    }
    d.y = low - 6.0;
    let y = d.y;
    d.rule(y, 0.6);
}

fn position_and_ruling(d: &mut Doc, p: &Packet) {
    let sq = 25.0;
    let top = d.y - 22.0;
    d.text_at(LEFT, top + 6.0, 11.0, Weight::Bold, &p.position_title);
    let (x0, y0) = (LEFT + 18.0, top - 8.0 * sq - 8.0);
    match &p.board {
        Some(b) => {
            let ops = diagram_ops(b, x0, y0, sq);
            d.ops().extend(ops);
            let (w, bl) = men(b);
            d.text_at(
                x0,
                y0 - 30.0,
                10.0,
                Weight::Bold,
                &format!("Men: White {w}, Black {bl}"),
            );
            let to_move = if p.white_to_move {
                "White to move"
            } else {
                "Black to move"
            };
            d.text_at(
                x0,
                y0 - 42.0,
                8.0,
                Weight::Regular,
                &format!("{to_move}. White at the bottom; Black's men ringed."),
            );
            let fen = wrap(&p.fen, 8.0 * sq + 10.0, 6.5, Weight::Regular);
            for (i, l) in fen.iter().enumerate() {
                d.text_at(x0, y0 - 53.0 - i as f32 * 8.0, 6.5, Weight::Regular, l);
            }
        }
        None => d.text_at(
            x0,
            top - 40.0,
            10.0,
            Weight::Regular,
            "No position: see the findings.",
        ),
    }
    // The recommendation beside the diagram.
    let bx = LEFT + 8.0 * sq + 45.0;
    let bw = RIGHT - bx;
    let mut y = top + 6.0;
    d.text_at(bx, y, 11.0, Weight::Bold, "Recommended ruling");
    y -= 26.0;
    d.text_at(bx, y, 22.0, Weight::Bold, &p.recommendation);
    y -= 10.0;
    for (label, value) in &p.ruling {
        y -= 13.0;
        d.text_at(bx, y, 8.0, Weight::Bold, label);
        for (i, l) in wrap(value, bw - 62.0, 9.0, Weight::Regular)
            .iter()
            .enumerate()
        {
            if i > 0 {
                y -= 11.0;
            }
            d.text_at(bx + 62.0, y, 9.0, Weight::Regular, l);
        }
    }
    d.y = (y0 - 62.0).min(y - 10.0);
}

fn findings(d: &mut Doc, checks: &[Check], notes: &[String]) {
    d.heading("Findings");
    let cols = [LEFT, LEFT + 92.0, LEFT + 142.0, LEFT + 228.0];
    let dw = RIGHT - cols[3];
    d.need(14.0);
    d.y -= 11.0;
    let y = d.y;
    for (x, h) in cols.iter().zip(["Check", "Result", "Rule", "Finding"]) {
        d.text_at(*x, y, 8.0, Weight::Bold, h);
    }
    for c in checks {
        let lines = wrap(&c.detail, dw, 8.5, Weight::Regular);
        let rule = wrap(&c.rule, 86.0, 8.5, Weight::Regular);
        let h = 11.0 * lines.len().max(rule.len()) as f32 + 3.0;
        d.need(h);
        d.y -= 13.0;
        let y = d.y;
        let weight = if c.outcome == Outcome::Fail {
            Weight::Bold
        } else {
            Weight::Regular
        };
        d.text_at(cols[0], y, 8.5, Weight::Regular, c.name);
        d.text_at(cols[1], y, 8.5, weight, &c.outcome.as_str().to_uppercase());
        for (i, l) in rule.iter().enumerate() {
            d.text_at(cols[2], y - 11.0 * i as f32, 8.5, Weight::Regular, l);
        }
        for (i, l) in lines.iter().enumerate() {
            d.text_at(cols[3], y - 11.0 * i as f32, 8.5, Weight::Regular, l);
        }
        d.y -= 11.0 * (lines.len().max(rule.len()) - 1) as f32;
    }
    for n in notes {
        d.y -= 4.0;
        d.paragraph(LEFT, RIGHT - LEFT, 8.5, Weight::Regular, n);
    }
}

fn progress(d: &mut Doc, p: &Progress, numbers: &[String]) {
    d.heading("Progress over the period (ground b)");
    d.paragraph(
        LEFT,
        RIGHT - LEFT,
        8.5,
        Weight::Regular,
        &format!("Moves {}.", p.period),
    );
    let cols = [
        LEFT,
        LEFT + 45.0,
        LEFT + 100.0,
        LEFT + 160.0,
        LEFT + 205.0,
        LEFT + 250.0,
        LEFT + 295.0,
        LEFT + 350.0,
    ];
    let heads = [
        "Move", "", "Clock", "Capture", "Pawn", "Check", "Repeat", "King to",
    ];
    let head = |d: &mut Doc| {
        d.y -= 12.0;
        let y = d.y;
        for (x, h) in cols.iter().zip(heads) {
            d.text_at(*x, y, 8.0, Weight::Bold, h);
        }
    };
    d.need(26.0);
    head(d);
    for (row, num) in p.rows.iter().zip(numbers) {
        if d.need(11.0) {
            head(d);
        }
        d.y -= 10.5;
        let y = d.y;
        let yes = |b: bool| if b { "yes" } else { "" };
        let cells = [
            num.clone(),
            row.san.clone(),
            clock_text(row.clock),
            yes(row.capture).to_string(),
            yes(row.pawn).to_string(),
            yes(row.check).to_string(),
            if row.occurrence >= 2 {
                format!("{}x", row.occurrence)
            } else {
                String::new()
            },
            row.king_to.map(|s| s.to_string()).unwrap_or_default(),
        ];
        for (x, c) in cols.iter().zip(cells) {
            d.text_at(*x, y, 8.0, Weight::Regular, &c);
        }
    }
    d.y -= 4.0;
    d.paragraph(
        LEFT,
        RIGHT - LEFT,
        8.5,
        Weight::Bold,
        &format!("The opponent {}.", p.summary()),
    );
}

fn chart(d: &mut Doc, p: &Packet) {
    let h = 150.0;
    d.need(h + 70.0);
    d.heading("Clock chart (time left against move number)");
    if p.chart.is_empty() {
        d.paragraph(
            LEFT,
            RIGHT - LEFT,
            9.0,
            Weight::Regular,
            "The scoresheet has no clock times.",
        );
        return;
    }
    let (x0, x1) = (LEFT + 40.0, RIGHT - 10.0);
    let y0 = d.y - h - 14.0;
    // From the first move with a clock (a game taken up from a position starts late).
    let min_move = p
        .chart
        .iter()
        .map(|c| c.1)
        .fold(f32::MAX, f32::min)
        .max(1.0);
    let max_move = p.chart.iter().map(|c| c.1).fold(min_move + 1.0, f32::max);
    let max_secs = p.chart.iter().map(|c| c.2).max().unwrap_or(60).max(60);
    // A tidy top: the next multiple of five minutes.
    let top = (max_secs.div_ceil(300) * 300) as f32;
    let sx = |m: f32| x0 + (m - min_move).max(0.0) / (max_move - min_move) * (x1 - x0);
    let sy = |s: f32| y0 + s / top * h;
    d.line(vec![pt(x0, y0), pt(x1, y0)], 0.6, 0.0, &[]);
    d.line(vec![pt(x0, y0), pt(x0, y0 + h)], 0.6, 0.0, &[]);
    let step = if top > 3600.0 {
        900
    } else if top > 1200.0 {
        600
    } else {
        300
    };
    let mut s = 0;
    while s as f32 <= top {
        let y = sy(s as f32);
        d.line(vec![pt(x0, y), pt(x1, y)], 0.2, 0.8, &[]);
        d.text_at(
            x0 - 34.0,
            y - 3.0,
            7.0,
            Weight::Regular,
            &format!("{}:{:02}", s / 3600, (s / 60) % 60),
        );
        s += step;
    }
    let span = max_move - min_move;
    let mstep = if span > 60.0 {
        10
    } else if span > 20.0 {
        5
    } else {
        1
    };
    let first = min_move as u32;
    d.text_at(
        sx(min_move) - 2.0,
        y0 - 10.0,
        7.0,
        Weight::Regular,
        &first.to_string(),
    );
    let mut m = (first / mstep + 1) * mstep;
    while m as f32 <= max_move {
        d.text_at(
            sx(m as f32) - 4.0,
            y0 - 10.0,
            7.0,
            Weight::Regular,
            &m.to_string(),
        );
        m += mstep;
    }
    for c in p.controls.iter().filter(|c| **c as f32 >= min_move) {
        let x = sx(*c as f32);
        d.line(vec![pt(x, y0), pt(x, y0 + h)], 0.8, 0.3, &[2.0, 2.0]);
        let label = format!("time control at move {c}");
        let lx = if x + 90.0 > x1 { x - 88.0 } else { x + 3.0 };
        d.text_at(lx, y0 + 4.0, 7.0, Weight::Regular, &label);
    }
    if let Some(w) = p.window {
        let y = sy(w as f32);
        d.line(vec![pt(x0, y), pt(x1, y)], 0.8, 0.3, &[1.0, 2.0]);
        d.text_at(
            x0 + 4.0,
            y + 2.0,
            7.0,
            Weight::Regular,
            &format!("{}:{:02} claim window", w / 60, w % 60),
        );
    }
    for (side, dash, shade) in [
        (Side::White, vec![], 0.0),
        (Side::Black, vec![4.0, 2.0], 0.45),
    ] {
        let pts: Vec<_> = p
            .chart
            .iter()
            .filter(|c| c.0 == side)
            .map(|c| pt(sx(c.1), sy(c.2 as f32)))
            .collect();
        if pts.len() >= 2 {
            d.line(pts, 1.4, shade, &dash);
        }
    }
    let ly = y0 + h + 6.0;
    d.line(vec![pt(x0, ly), pt(x0 + 24.0, ly)], 1.4, 0.0, &[]);
    d.text_at(x0 + 28.0, ly - 3.0, 8.0, Weight::Regular, "White");
    d.line(
        vec![pt(x0 + 70.0, ly), pt(x0 + 94.0, ly)],
        1.4,
        0.45,
        &[4.0, 2.0],
    );
    d.text_at(x0 + 98.0, ly - 3.0, 8.0, Weight::Regular, "Black");
    d.y = y0 - 16.0;
}

fn scoresheet(d: &mut Doc, p: &Packet) {
    // The heading never sits alone at the foot of a page.
    d.need(90.0);
    d.heading(&format!(
        "Scoresheet ({}), with the clock after each move",
        p.sheet_source
    ));
    if p.sheet.is_empty() {
        d.paragraph(
            LEFT,
            RIGHT - LEFT,
            9.0,
            Weight::Regular,
            "No moves could be read.",
        );
        return;
    }
    let row_h = 11.0;
    let col_w = (RIGHT - LEFT) / 2.0;
    let mut i = 0;
    while i < p.sheet.len() {
        d.need(row_h * 3.0);
        let rows_fit = ((d.room() / row_h) as usize).saturating_sub(2).max(1);
        let remaining = p.sheet.len() - i;
        // Two balanced columns when the rest fits on this page.
        let per_col = if remaining <= 2 * rows_fit {
            remaining.div_ceil(2).max(1)
        } else {
            rows_fit
        };
        let columns = if remaining > per_col { 2 } else { 1 };
        let y_head = d.y - row_h;
        for col in 0..columns {
            let x = LEFT + col as f32 * col_w;
            for (dx, h) in [
                (0.0, "No."),
                (24.0, "White"),
                (82.0, "Clock"),
                (128.0, "Black"),
                (186.0, "Clock"),
            ] {
                d.text_at(x + dx, y_head, 7.5, Weight::Bold, h);
            }
        }
        for col in 0..columns {
            let x = LEFT + col as f32 * col_w;
            for k in 0..per_col {
                let Some(line) = p.sheet.get(i) else { break };
                let y = y_head - row_h * (k as f32 + 1.0);
                d.text_at(x, y, 8.5, Weight::Regular, &format!("{}.", line.number));
                for (dx, mv) in [(24.0, &line.white), (128.0, &line.black)] {
                    if let Some(mv) = mv {
                        let (san, w) = if mv.marked {
                            (format!("{}*", mv.san), Weight::Bold)
                        } else {
                            (mv.san.clone(), Weight::Regular)
                        };
                        d.text_at(x + dx, y, 8.5, w, &san);
                        d.text_at(
                            x + dx + 58.0,
                            y,
                            8.0,
                            Weight::Regular,
                            &clock_text(mv.clock),
                        );
                    }
                }
                i += 1;
            }
        }
        d.y = y_head - row_h * (per_col as f32 + 0.5);
        if i < p.sheet.len() {
            d.new_page();
        }
    }
    if !p.mark_note.is_empty() {
        d.paragraph(LEFT, RIGHT - LEFT, 8.5, Weight::Bold, &p.mark_note);
    }
}

fn decision_box(d: &mut Doc, decided_by: &str) {
    let h = 120.0;
    d.need(h + 30.0);
    d.heading(&format!("Decision of the {decided_by}"));
    let top = d.y - 6.0;
    let y0 = top - h;
    d.rect(LEFT, y0, RIGHT - LEFT, h, 1.0);
    let mut y = top - 22.0;
    let mut x = LEFT + 12.0;
    for label in ["Uphold", "Reject", "Other"] {
        d.rect(x, y - 1.0, 9.0, 9.0, 0.8);
        d.text_at(x + 14.0, y, 10.0, Weight::Regular, label);
        x += 90.0;
    }
    for label in ["Result:", "Penalty or fee:", "Signed:"] {
        y -= 26.0;
        d.text_at(LEFT + 12.0, y, 10.0, Weight::Regular, label);
        d.line(
            vec![pt(LEFT + 100.0, y - 2.0), pt(RIGHT - 150.0, y - 2.0)],
            0.5,
            0.0,
            &[],
        );
    }
    d.text_at(RIGHT - 135.0, y, 10.0, Weight::Regular, "Date:");
    d.line(
        vec![pt(RIGHT - 102.0, y - 2.0), pt(RIGHT - 12.0, y - 2.0)],
        0.5,
        0.0,
        &[],
    );
    d.y = y0 - 10.0;
}
