//! The final-position diagram as ECF QPF 15 asks for it: White at the
//! bottom, files and ranks labelled, every man a BLOCK CAPITAL, Black's men
//! ringed, the number of men of each side written below. Drawn as vectors.

use printpdf::{
    BuiltinFont, Color, Greyscale, Line, LinePoint, Op, PaintMode, PdfDocument, PdfFontHandle,
    PdfPage, PdfSaveOptions, Point, Polygon, PolygonRing, Pt, TextItem, WindingOrder,
};
use shakmaty::{Board, Color as Side, File, Rank, Role, Square};

fn grey(percent: f32) -> Color {
    Color::Greyscale(Greyscale {
        percent,
        icc_profile: None,
    })
}

fn pt(x: f32, y: f32) -> LinePoint {
    LinePoint {
        p: Point { x: Pt(x), y: Pt(y) },
        bezier: false,
    }
}

fn line(points: Vec<LinePoint>, closed: bool) -> Op {
    Op::DrawLine {
        line: Line {
            points,
            is_closed: closed,
        },
    }
}

/// Text at a point, in a built-in font.
pub(crate) fn text(ops: &mut Vec<Op>, x: f32, y: f32, size: f32, font: BuiltinFont, s: &str) {
    text_in(ops, x, y, size, PdfFontHandle::Builtin(font), s);
}

/// Text at a point, in any font the document has.
pub(crate) fn text_in(ops: &mut Vec<Op>, x: f32, y: f32, size: f32, font: PdfFontHandle, s: &str) {
    ops.push(Op::StartTextSection);
    ops.push(Op::SetFont {
        font,
        size: Pt(size),
    });
    ops.push(Op::SetTextCursor {
        pos: Point { x: Pt(x), y: Pt(y) },
    });
    ops.push(Op::ShowText {
        items: vec![TextItem::Text(s.to_string())],
    });
    ops.push(Op::EndTextSection);
}

/// Helvetica-Bold advance widths of the capitals used, in thousandths of an em.
fn capital_width(c: char) -> f32 {
    match c {
        'K' | 'R' | 'B' | 'N' => 722.0,
        'Q' => 778.0,
        _ => 667.0,
    }
}

pub fn letter(role: Role) -> char {
    match role {
        Role::King => 'K',
        Role::Queen => 'Q',
        Role::Rook => 'R',
        Role::Bishop => 'B',
        Role::Knight => 'N',
        Role::Pawn => 'P',
    }
}

/// The men of each side (White, Black).
pub(crate) fn men(board: &Board) -> (usize, usize) {
    (board.white().count(), board.black().count())
}

/// Draw the diagram with its lower-left corner at (`x0`, `y0`), squares of `sq` points.
/// A thick frame inside each of `squares` (the illegal move and the men
/// that make it illegal), on a diagram drawn at (`x0`, `y0`).
pub(crate) fn mark_ops(squares: &[Square], x0: f32, y0: f32, sq: f32) -> Vec<Op> {
    let mut ops = vec![
        Op::SetOutlineColor { col: grey(0.0) },
        Op::SetOutlineThickness { pt: Pt(2.2) },
    ];
    for s in squares {
        let (f, r) = (u32::from(s.file()) as f32, u32::from(s.rank()) as f32);
        let (x, y) = (x0 + f * sq + 2.0, y0 + r * sq + 2.0);
        let w = sq - 4.0;
        ops.push(line(
            vec![pt(x, y), pt(x + w, y), pt(x + w, y + w), pt(x, y + w)],
            true,
        ));
    }
    ops
}

pub(crate) fn diagram_ops(board: &Board, x0: f32, y0: f32, sq: f32) -> Vec<Op> {
    let mut ops = Vec::new();
    // Dark squares lightly shaded so the letters stay the strongest marks.
    ops.push(Op::SetFillColor { col: grey(0.85) });
    for rank in 0..8u32 {
        for file in 0..8u32 {
            if (rank + file) % 2 == 0 {
                let (x, y) = (x0 + file as f32 * sq, y0 + rank as f32 * sq);
                ops.push(Op::DrawPolygon {
                    polygon: Polygon {
                        rings: vec![PolygonRing {
                            points: vec![
                                pt(x, y),
                                pt(x + sq, y),
                                pt(x + sq, y + sq),
                                pt(x, y + sq),
                            ],
                        }],
                        mode: PaintMode::Fill,
                        winding_order: WindingOrder::NonZero,
                    },
                });
            }
        }
    }
    ops.push(Op::SetOutlineColor { col: grey(0.0) });
    ops.push(Op::SetOutlineThickness { pt: Pt(0.6) });
    for i in 0..=8 {
        let d = i as f32 * sq;
        ops.push(line(vec![pt(x0, y0 + d), pt(x0 + 8.0 * sq, y0 + d)], false));
        ops.push(line(vec![pt(x0 + d, y0), pt(x0 + d, y0 + 8.0 * sq)], false));
    }
    ops.push(Op::SetOutlineThickness { pt: Pt(1.6) });
    ops.push(line(
        vec![
            pt(x0, y0),
            pt(x0 + 8.0 * sq, y0),
            pt(x0 + 8.0 * sq, y0 + 8.0 * sq),
            pt(x0, y0 + 8.0 * sq),
        ],
        true,
    ));
    ops.push(Op::SetFillColor { col: grey(0.0) });
    let size = sq * 0.55;
    for (square, piece) in board.iter() {
        let (file, rank) = (
            u32::from(square.file()) as f32,
            u32::from(square.rank()) as f32,
        );
        let (cx, cy) = (x0 + (file + 0.5) * sq, y0 + (rank + 0.5) * sq);
        let c = letter(piece.role);
        let w = capital_width(c) * size / 1000.0;
        text(
            &mut ops,
            cx - w / 2.0,
            cy - size * 0.36,
            size,
            BuiltinFont::HelveticaBold,
            &c.to_string(),
        );
        if piece.color == Side::Black {
            ops.push(Op::SetOutlineThickness { pt: Pt(1.2) });
            let r = sq * 0.40;
            let ring: Vec<LinePoint> = (0..40)
                .map(|k| {
                    let a = k as f32 / 40.0 * std::f32::consts::TAU;
                    pt(cx + r * a.cos(), cy + r * a.sin())
                })
                .collect();
            ops.push(line(ring, true));
        }
    }
    for i in 0..8u32 {
        let f = File::new(i).char();
        text(
            &mut ops,
            x0 + (i as f32 + 0.5) * sq - 3.0,
            y0 - 14.0,
            11.0,
            BuiltinFont::Helvetica,
            &f.to_string(),
        );
        let r = Rank::new(i).char();
        text(
            &mut ops,
            x0 - 14.0,
            y0 + (i as f32 + 0.5) * sq - 4.0,
            11.0,
            BuiltinFont::Helvetica,
            &r.to_string(),
        );
    }
    ops
}

/// A one-page PDF with the diagram of `board`, for `arbiter diagram`.
pub(crate) fn diagram_pdf(
    board: &Board,
    fen: &str,
    white_to_move: bool,
    paper: super::pdf::Paper,
    made: super::pdf::Made,
) -> Vec<u8> {
    let (page_w, page_h) = paper.points();
    let mut ops = Vec::new();
    text(
        &mut ops,
        72.0,
        page_h - 62.0,
        16.0,
        BuiltinFont::HelveticaBold,
        // Any position a FEN gives, not only a game's last.
        "Position",
    );
    text(
        &mut ops,
        72.0,
        page_h - 82.0,
        9.0,
        BuiltinFont::Courier,
        fen,
    );
    let sq = 40.0;
    let (x0, y0) = ((page_w - 8.0 * sq) / 2.0, page_h - 462.0);
    ops.extend(diagram_ops(board, x0, y0, sq));
    let (w, b) = men(board);
    text(
        &mut ops,
        x0,
        y0 - 40.0,
        12.0,
        BuiltinFont::HelveticaBold,
        &format!("Men: White {w}, Black {b}"),
    );
    let to_move = if white_to_move {
        "White to move"
    } else {
        "Black to move"
    };
    text(
        &mut ops,
        x0,
        y0 - 58.0,
        10.0,
        BuiltinFont::Helvetica,
        &format!("{to_move}. White at the bottom; Black's men are ringed (ECF QPF 15)."),
    );
    let title = format!("Position diagram: {fen}");
    let mut doc = PdfDocument::new(&title);
    super::pdf::stamp(&mut doc, &title, made);
    let (w, h) = paper.mm();
    doc.with_pages(vec![PdfPage::new(printpdf::Mm(w), printpdf::Mm(h), ops)]);
    let mut bytes = doc.save(&PdfSaveOptions::default(), &mut Vec::new());
    super::pdf::no_pdfx_claim(&mut bytes);
    bytes
}
