//! Drawing a packet model onto PDF pages: where things go, nothing decided.

use super::{
    model::{clock_text, SheetRow},
    Made, Packet,
};
use crate::{
    claim::{CheckOutcome, Progress},
    model::Side,
    report::{
        diagram::{diagram_ops, mark_ops, men},
        pdf::{pt, wrap, Doc, Weight, LEFT, RIGHT},
    },
};

/// Renders a packet to PDF bytes, dated `made`.
pub fn render(p: &Packet, made: Made) -> Vec<u8> {
    let mut d = Doc::new(&format!("{}: {}", p.title, p.subtitle), p.paper, made);
    let top = d.y;
    d.text_at(LEFT, top, 18.0, Weight::Bold, &p.title);
    d.text_at(LEFT, top - 16.0, 10.0, Weight::Regular, &p.subtitle);
    d.y = top - 24.0;
    header(&mut d, &p.header);
    position_and_ruling(&mut d, p);
    if let Some(second) = &p.ruling_position {
        second_diagram(&mut d, second);
    }
    findings(&mut d, &p.findings, &p.notes);
    rules_cited(&mut d, &p.rules_cited);
    if let Some(pr) = &p.progress {
        progress(&mut d, pr, &p.progress_numbers);
    }
    // The decision goes with the ruling it answers; the chart and the
    // scoresheet are the evidence behind, and may run on.
    decision_box(&mut d, &p.decided_by, &p.decision_options);
    chart(&mut d, p);
    scoresheet(&mut d, p);
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
    // The title stays left of the ruling column: smaller where it is long
    // ("Position before 70... Kd5 (ECF QPF 15 diagram)"), on two lines
    // where even that does not fit.
    let room = 8.0 * sq + 35.0;
    let title = &p.position_title;
    if wrap(title, room, 11.0, Weight::Bold).len() == 1 {
        d.text_at(LEFT, top + 6.0, 11.0, Weight::Bold, title);
    } else {
        let lines = wrap(title, room, 9.0, Weight::Bold);
        let first = if lines.len() == 1 {
            top + 6.0
        } else {
            top + 13.0
        };
        for (i, l) in lines.iter().take(2).enumerate() {
            d.text_at(LEFT, first - 10.0 * i as f32, 9.0, Weight::Bold, l);
        }
    }
    let (x0, y0) = (LEFT + 18.0, top - 8.0 * sq - 8.0);
    match &p.board {
        Some(b) => {
            diagram_block(d, (x0, y0, sq), b, &p.marks, p.white_to_move, &p.fen);
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
    d.text_at(bx, y, 11.0, Weight::Bold, &p.ruling_heading);
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

/// A diagram with its lower-left corner at (`x0`, `y0`), squares `sq`
/// points, and under it the men, who is to move and the FEN.
fn diagram_block(
    d: &mut Doc,
    (x0, y0, sq): (f32, f32, f32),
    b: &shakmaty::Board,
    marks: &[shakmaty::Square],
    white_to_move: bool,
    fen: &str,
) {
    let ops = diagram_ops(b, x0, y0, sq);
    d.ops().extend(ops);
    if !marks.is_empty() {
        let marks = mark_ops(marks, x0, y0, sq);
        d.ops().extend(marks);
    }
    let (w, bl) = men(b);
    d.text_at(
        x0,
        y0 - 30.0,
        10.0,
        Weight::Bold,
        &format!("Men: White {w}, Black {bl}"),
    );
    let to_move = if white_to_move {
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
    let fen = wrap(fen, 8.0 * sq + 10.0, 6.5, Weight::Regular);
    for (i, l) in fen.iter().enumerate() {
        d.text_at(x0, y0 - 53.0 - i as f32 * 8.0, 6.5, Weight::Regular, l);
    }
}

/// The position the ruling rests on, where the first diagram shows a later
/// one: as large as the first, with why beside it.
fn second_diagram(d: &mut Doc, s: &super::model::SecondDiagram) {
    let sq = 25.0;
    // The title, the board and the three lines under it never split.
    d.need(8.0 * sq + 100.0);
    d.heading(&s.title);
    let top = d.y - 8.0;
    let (x0, y0) = (LEFT + 18.0, top - 8.0 * sq - 8.0);
    diagram_block(d, (x0, y0, sq), &s.board, &[], s.white_to_move, &s.fen);
    let bx = LEFT + 8.0 * sq + 45.0;
    let mut y = top - 4.0;
    for l in wrap(&s.note, RIGHT - bx, 9.0, Weight::Regular) {
        d.text_at(bx, y, 9.0, Weight::Regular, &l);
        y -= 11.0;
    }
    d.y = y0 - 62.0;
}

/// Every rule cited on the page, with what it says.
fn rules_cited(d: &mut Doc, rules: &[(String, String)]) {
    if rules.is_empty() {
        return;
    }
    d.heading("Rules cited");
    let (key, text) = (LEFT, LEFT + 110.0);
    for (rule, says) in rules {
        let lines = wrap(says, RIGHT - text, 9.0, Weight::Regular);
        d.need(11.0 * lines.len() as f32 + 3.0);
        d.y -= 12.0;
        let y = d.y;
        d.text_at(key, y, 9.0, Weight::Bold, rule);
        for (i, l) in lines.iter().enumerate() {
            d.text_at(text, y - 11.0 * i as f32, 9.0, Weight::Regular, l);
        }
        d.y -= 11.0 * (lines.len().max(1) - 1) as f32;
    }
}

fn findings(d: &mut Doc, checks: &[super::model::Finding], notes: &[String]) {
    d.heading("Findings");
    // "UNKNOWN" in bold fills the result column: the rule starts clear of it.
    let cols = [LEFT, LEFT + 92.0, LEFT + 152.0, LEFT + 234.0];
    let dw = RIGHT - cols[3];
    d.need(14.0);
    d.y -= 11.0;
    let y = d.y;
    for (x, h) in cols.iter().zip(["Check", "Result", "Rule", "Finding"]) {
        d.text_at(*x, y, 8.0, Weight::Bold, h);
    }
    for c in checks {
        let lines = wrap(&c.detail, dw, 9.0, Weight::Regular);
        let rule = wrap(
            c.rule.as_str(),
            cols[3] - cols[2] - 6.0,
            9.0,
            Weight::Regular,
        );
        let h = 11.0 * lines.len().max(rule.len()) as f32 + 3.0;
        d.need(h);
        d.y -= 13.0;
        let y = d.y;
        let weight = if c.outcome == CheckOutcome::Fail {
            Weight::Bold
        } else {
            Weight::Regular
        };
        d.text_at(cols[0], y, 9.0, Weight::Regular, c.name);
        d.text_at(cols[1], y, 9.0, weight, &c.outcome.as_str().to_uppercase());
        for (i, l) in rule.iter().enumerate() {
            d.text_at(cols[2], y - 11.0 * i as f32, 9.0, Weight::Regular, l);
        }
        for (i, l) in lines.iter().enumerate() {
            d.text_at(cols[3], y - 11.0 * i as f32, 9.0, Weight::Regular, l);
        }
        d.y -= 11.0 * (lines.len().max(rule.len()) - 1) as f32;
    }
    for n in notes {
        d.y -= 4.0;
        d.paragraph_of_moves(LEFT, RIGHT - LEFT, 9.0, Weight::Regular, n);
    }
}

fn progress(d: &mut Doc, p: &Progress, numbers: &[String]) {
    d.heading("Progress over the period (the no-effort ground)");
    d.paragraph(
        LEFT,
        RIGHT - LEFT,
        8.5,
        Weight::Regular,
        &format!("The moves looked at: {}.", p.period),
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
            d.text_at(*x, y, 9.0, Weight::Regular, &c);
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

/// Where the chart is drawn and its scales: move numbers across, seconds up.
#[derive(Copy, Clone)]
struct Frame {
    x0: f32,
    x1: f32,
    y0: f32,
    h: f32,
    min_move: f32,
    max_move: f32,
    /// Seconds at the top of the chart.
    top: f32,
}

impl Frame {
    fn sx(&self, m: f32) -> f32 {
        self.x0
            + (m - self.min_move).max(0.0) / (self.max_move - self.min_move) * (self.x1 - self.x0)
    }

    fn sy(&self, s: f32) -> f32 {
        self.y0 + s / self.top * self.h
    }
}

fn chart(d: &mut Doc, p: &Packet) {
    // Too few moves with clocks for a chart: the scoresheet shows them.
    if p.chart.is_empty() {
        return;
    }
    let h = 120.0;
    d.need(h + 70.0);
    d.heading("Clock chart (time left against move number, the last moves)");
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
    // A tidy top: the next line of the grid (`chart_axes` draws one every
    // 5, 10 or 15 minutes), so that no curve rises above the top line.
    let step = grid_step(max_secs);
    let top = (max_secs.div_ceil(step) * step) as f32;
    let f = Frame {
        x0,
        x1,
        y0,
        h,
        min_move,
        max_move,
        top,
    };
    chart_axes(d, &f);
    chart_marks(d, p, &f);
    chart_curves(d, p, &f);
    d.y = y0 - 16.0;
}

/// Seconds between the chart's grid lines, for clocks up to `secs`.
fn grid_step(secs: u32) -> u32 {
    if secs > 3600 {
        900
    } else if secs > 1200 {
        600
    } else {
        300
    }
}

/// The axes, the grid of hours and minutes, the move numbers.
fn chart_axes(d: &mut Doc, f: &Frame) {
    let Frame {
        x0,
        x1,
        y0,
        h,
        min_move,
        max_move,
        top,
        ..
    } = *f;
    let sx = |m: f32| f.sx(m);
    let sy = |s: f32| f.sy(s);
    d.line(vec![pt(x0, y0), pt(x1, y0)], 0.6, 0.0, &[]);
    d.line(vec![pt(x0, y0), pt(x0, y0 + h)], 0.6, 0.0, &[]);
    let step = grid_step(top as u32);
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
}

/// Time controls, the ruleset's limit, long moves and the claim window.
fn chart_marks(d: &mut Doc, p: &Packet, f: &Frame) {
    let Frame {
        x0,
        x1,
        y0,
        h,
        min_move,
        top,
        ..
    } = *f;
    let sx = |m: f32| f.sx(m);
    let sy = |s: f32| f.sy(s);
    for c in p.controls.iter().filter(|c| **c as f32 >= min_move) {
        let x = sx(*c as f32);
        d.line(vec![pt(x, y0), pt(x, y0 + h)], 0.8, 0.3, &[2.0, 2.0]);
        let label = format!("time control at move {c}");
        let lx = if x + 90.0 > x1 { x - 88.0 } else { x + 3.0 };
        d.text_at(lx, y0 + 4.0, 7.0, Weight::Regular, &label);
    }
    if let Some((limit, rule)) = p.limit.as_ref().filter(|(l, _)| (*l as f32) < top) {
        let y = sy(*limit as f32);
        d.line(vec![pt(x0, y), pt(x1, y)], 0.9, 0.2, &[6.0, 3.0]);
        d.text_at(
            x1 - 150.0,
            y + 2.0,
            7.0,
            Weight::Regular,
            &format!("{}:{:02} ({rule})", limit / 60, limit % 60),
        );
    }
    for (side, m, used) in &p.long_moves {
        let at = p.chart.iter().find(|c| c.0 == *side && c.1 == *m);
        if let Some(c) = at {
            let (x, y) = (sx(c.1), sy(c.2 as f32));
            d.line(
                vec![
                    pt(x - 3.0, y + 3.0),
                    pt(x + 3.0, y + 3.0),
                    pt(x, y - 2.0),
                    pt(x - 3.0, y + 3.0),
                ],
                0.8,
                0.0,
                &[],
            );
            d.text_at(
                x - 10.0,
                y + 6.0,
                6.5,
                Weight::Regular,
                &format!("{}:{:02}", used / 60, used % 60),
            );
        }
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
}

/// Each side's clock as a line, and the legend.
fn chart_curves(d: &mut Doc, p: &Packet, f: &Frame) {
    let Frame { x0, y0, h, .. } = *f;
    let sx = |m: f32| f.sx(m);
    let sy = |s: f32| f.sy(s);
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
}

fn scoresheet(d: &mut Doc, p: &Packet) {
    // The heading never sits alone at the foot of a page.
    d.need(90.0);
    d.heading(&format!(
        "Scoresheet ({}), with the clock after each move",
        p.sheet_source
    ));
    if p.sheet.is_empty() {
        d.paragraph(LEFT, RIGHT - LEFT, 9.0, Weight::Regular, p.sheet_empty);
        return;
    }
    let row_h = 11.0;
    let col_w = (RIGHT - LEFT) / 2.0;
    // Move numbers past 999 push the moves right, a digit's width (5 pt
    // at 9 pt) each.
    let widest = p
        .sheet
        .iter()
        .map(|r| match r {
            SheetRow::Line(l) => l.number,
            SheetRow::Gap { last, .. } => *last,
        })
        .max()
        .unwrap_or(0);
    let shift = 5.0 * (widest.to_string().len().saturating_sub(3)) as f32;
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
                (24.0 + shift, "White"),
                (76.0 + shift, "Clock"),
                (130.0 + shift, "Black"),
                (182.0 + shift, "Clock"),
            ] {
                d.text_at(x + dx, y_head, 8.0, Weight::Bold, h);
            }
        }
        for col in 0..columns {
            let x = LEFT + col as f32 * col_w;
            for k in 0..per_col {
                let Some(row) = p.sheet.get(i) else { break };
                let y = y_head - row_h * (k as f32 + 1.0);
                let line = match row {
                    SheetRow::Line(line) => line,
                    SheetRow::Gap { first, last } => {
                        let text = match first == last {
                            true => format!("move {first} not shown here"),
                            false => format!("moves {first} to {last} not shown here"),
                        };
                        d.text_at(
                            x + 24.0 + shift,
                            y,
                            8.0,
                            Weight::Regular,
                            &format!("... {text} ..."),
                        );
                        i += 1;
                        continue;
                    }
                };
                d.text_at(x, y, 9.0, Weight::Regular, &format!("{}.", line.number));
                for (dx, mv) in [(24.0 + shift, &line.white), (130.0 + shift, &line.black)] {
                    if let Some(mv) = mv {
                        let (san, w) = if mv.marked {
                            (format!("{}*", mv.san), Weight::Bold)
                        } else {
                            (mv.san.clone(), Weight::Regular)
                        };
                        d.text_at(x + dx, y, 9.0, w, &san);
                        d.text_at(
                            x + dx + 52.0,
                            y,
                            9.0,
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
    if p.sheet.iter().any(|r| matches!(r, SheetRow::Gap { .. })) {
        d.paragraph(
            LEFT,
            RIGHT - LEFT,
            9.0,
            Weight::Regular,
            "A long game: the sheet shows its opening, its end and every marked move; the moves left out are in the PGN.",
        );
    }
    if !p.mark_note.is_empty() {
        d.paragraph(LEFT, RIGHT - LEFT, 9.0, Weight::Bold, &p.mark_note);
    }
}

fn decision_box(d: &mut Doc, decided_by: &str, options: &[String]) {
    let h = 100.0;
    d.need(h + 30.0);
    d.heading(&format!("Decision of the {decided_by}"));
    let top = d.y - 6.0;
    let y0 = top - h;
    d.rect(LEFT, y0, RIGHT - LEFT, h, 1.0);
    let mut y = top - 22.0;
    let mut x = LEFT + 12.0;
    for label in options {
        d.rect(x, y - 1.0, 9.0, 9.0, 0.8);
        d.text_at(x + 14.0, y, 10.0, Weight::Regular, label);
        x += 110.0;
    }
    for label in ["Result:", "Penalty or fee:", "Signed:"] {
        y -= 22.0;
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
