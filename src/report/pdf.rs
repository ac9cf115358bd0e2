//! A small page-layout layer over printpdf's op lists: text in the
//! built-in Helvetica where WinAnsi can say it, in embedded DejaVu Sans
//! where it cannot (Dvořák, Łódź), word wrapping, rules and boxes, and a
//! cursor that starts a new page when the next block does not fit.

use printpdf::{
    BuiltinFont, Color, CurTransMat, FontId, Greyscale, Line, LineDashPattern, LinePoint, Mm, Op,
    ParsedFont, PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point, Pt,
};

pub use crate::rules::Paper;

/// The text block is A4's on any paper, 495 points wide, centred across
/// the page; its top is 50 points below the page's.
pub(crate) const LEFT: f32 = 50.0;
pub(crate) const RIGHT: f32 = 545.0;
const BOTTOM: f32 = 60.0;

/// When a PDF was made, in seconds since 1970 (UTC): its creation date.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Made(pub i64);

impl Made {
    /// Now; or `SOURCE_DATE_EPOCH` where it is set, so that a reproducible
    /// build or test run gives the same file twice.
    pub fn now() -> Made {
        let epoch = std::env::var("SOURCE_DATE_EPOCH")
            .ok()
            .and_then(|s| s.trim().parse().ok());
        Made(epoch.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64)
        }))
    }
}

/// The document information every PDF carries: its title (what it is), the
/// program that made it and when.
pub(crate) fn stamp(pdf: &mut PdfDocument, title: &str, made: Made) {
    let when = printpdf::DateTime::from_unix_timestamp(made.0)
        .or_else(|_| printpdf::DateTime::from_unix_timestamp(0));
    let info = &mut pdf.metadata.info;
    info.document_title = title.to_string();
    info.creator = format!("arbiter {}", env!("CARGO_PKG_VERSION"));
    if let Ok(when) = when {
        info.creation_date = when;
        info.modification_date = when;
        info.metadata_date = when;
    }
}

const DEJAVU: &[u8] = include_bytes!("../../templates/fonts/DejaVuSans-subset.ttf");

/// Helvetica advance widths (thousandths of an em) for ASCII 32..=126.
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/// Can the built-in fonts (WinAnsiEncoding) show this character?
fn win_ansi(c: char) -> bool {
    matches!(c, ' '..='~' | '\u{a0}'..='\u{ff}') || "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ".contains(c)
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Weight {
    Regular,
    Bold,
}

pub(crate) fn grey(percent: f32) -> Color {
    Color::Greyscale(Greyscale {
        percent,
        icc_profile: None,
    })
}

pub(crate) fn pt(x: f32, y: f32) -> LinePoint {
    LinePoint {
        p: Point { x: Pt(x), y: Pt(y) },
        bezier: false,
    }
}

/// A character's advance in thousandths of an em.
fn em(c: char) -> u64 {
    match c {
        ' '..='~' => u64::from(HELVETICA[c as usize - 32]),
        _ => 600,
    }
}

fn ems(s: &str) -> u64 {
    s.chars().map(em).sum()
}

/// Thousandths of an em as points (Helvetica metrics; bold a little
/// wider): widths add up exactly, so a line's
/// width is kept as it grows instead of measured again.
fn points(ems: u64, size: f32, weight: Weight) -> f32 {
    let bold = if weight == Weight::Bold { 1.06 } else { 1.0 };
    ems as f32 * size / 1000.0 * bold
}

/// Breaks `s` into lines no wider than `max` points, in time linear in
/// its length (a 20,000-letter word included).
pub(crate) fn wrap(s: &str, max: f32, size: f32, weight: Weight) -> Vec<String> {
    let fits = |e: u64| points(e, size, weight) <= max;
    let space = em(' ');
    let mut lines = Vec::new();
    for para in s.split('\n') {
        let mut cur = String::new();
        let mut cur_em = 0;
        for word in para.split(' ') {
            let word_em = ems(word);
            if cur.is_empty() {
                cur.push_str(word);
                cur_em = word_em;
            } else if fits(cur_em + space + word_em) {
                cur.push(' ');
                cur.push_str(word);
                cur_em += space + word_em;
            } else {
                lines.push(std::mem::take(&mut cur));
                cur.push_str(word);
                cur_em = word_em;
            }
            // A single word wider than the line (a FEN, say) is cut: the
            // longest parts that fit go on lines of their own, in one pass.
            if !fits(cur_em) {
                let (mut start, mut part_em) = (0, 0);
                for (i, c) in cur.char_indices() {
                    if i > start && !fits(part_em + em(c)) {
                        lines.push(cur[start..i].to_string());
                        start = i;
                        part_em = 0;
                    }
                    part_em += em(c);
                }
                cur.drain(..start);
                cur_em = part_em;
            }
        }
        lines.push(cur);
    }
    lines
}

/// `wrap` for text that carries a line of moves (a helpmate line): a move
/// number (`37.`, `37...`) is never left at the end of a line but goes down
/// with the move it numbers.
pub(crate) fn wrap_moves(s: &str, max: f32, size: f32, weight: Weight) -> Vec<String> {
    let fits = |e: u64| points(e, size, weight) <= max;
    let numbered = |w: &str| {
        let digits = w.trim_end_matches('.');
        digits.len() < w.len()
            && matches!(w.len() - digits.len(), 1 | 3)
            && !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
    };
    let mut lines = Vec::new();
    for para in s.split('\n') {
        // Words, each move number joined to the word after it.
        let mut units: Vec<String> = Vec::new();
        let mut glue = false;
        for word in para.split(' ') {
            match units.last_mut() {
                Some(u) if glue => {
                    u.push(' ');
                    u.push_str(word);
                }
                _ => units.push(word.to_string()),
            }
            glue = numbered(word);
        }
        let (mut cur, mut cur_em) = (String::new(), 0);
        for u in units {
            let u_em = ems(&u);
            if cur.is_empty() {
                (cur, cur_em) = (u, u_em);
            } else if fits(cur_em + em(' ') + u_em) {
                cur.push(' ');
                cur.push_str(&u);
                cur_em += em(' ') + u_em;
            } else {
                lines.push(std::mem::replace(&mut cur, u));
                cur_em = u_em;
            }
        }
        lines.push(cur);
    }
    // A unit wider than a line on its own is cut as `wrap` cuts it.
    lines
        .into_iter()
        .flat_map(|l| {
            if fits(ems(&l)) {
                vec![l]
            } else {
                wrap(&l, max, size, weight)
            }
        })
        .collect()
}

/// printpdf writes an empty `GTS_PDFXVersion` into every document's
/// information, which readers take for a claim of PDF/X conformance
/// (pdfinfo's "PDF subtype"), and the file is not PDF/X: the key is
/// blanked with spaces of the same length, so every offset holds.
pub(crate) fn no_pdfx_claim(pdf: &mut [u8]) {
    const KEY: &[u8] = b"/GTS_PDFXVersion()";
    if let Some(at) = memchr::memmem::find(pdf, KEY) {
        pdf[at..at + KEY.len()].fill(b' ');
    }
}

/// A document being laid out top to bottom.
pub(crate) struct Doc {
    pdf: PdfDocument,
    pages: Vec<Vec<Op>>,
    /// The baseline of the next line on the current page.
    pub(crate) y: f32,
    unicode: Option<FontId>,
    paper: Paper,
    /// The first baseline of a page.
    top: f32,
}

impl Doc {
    pub(crate) fn new(title: &str, paper: Paper, made: Made) -> Doc {
        let mut pdf = PdfDocument::new(title);
        stamp(&mut pdf, title, made);
        let top = paper.points().1 - 50.0;
        Doc {
            pdf,
            pages: vec![Vec::new()],
            y: top,
            unicode: None,
            paper,
            top,
        }
    }

    pub(crate) fn ops(&mut self) -> &mut Vec<Op> {
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    pub(crate) fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = self.top;
    }

    /// Makes room for a block `h` points tall, starting a page if needed
    /// (and saying so, for tables that repeat their heading).
    pub(crate) fn need(&mut self, h: f32) -> bool {
        if self.y - h < BOTTOM {
            self.new_page();
            return true;
        }
        false
    }

    /// Room left on the page below the cursor.
    pub(crate) fn room(&self) -> f32 {
        self.y - BOTTOM
    }

    fn font(&mut self, s: &str, weight: Weight) -> PdfFontHandle {
        if s.chars().all(win_ansi) {
            return PdfFontHandle::Builtin(match weight {
                Weight::Regular => BuiltinFont::Helvetica,
                Weight::Bold => BuiltinFont::HelveticaBold,
            });
        }
        let id = match &self.unicode {
            Some(id) => id.clone(),
            None => {
                let font = ParsedFont::from_bytes(DEJAVU, 0, &mut Vec::new());
                match font {
                    Some(f) => {
                        let id = self.pdf.add_font(&f);
                        self.unicode = Some(id.clone());
                        id
                    }
                    // Cannot happen with the embedded font; fall back rather than fail.
                    None => return PdfFontHandle::Builtin(BuiltinFont::Helvetica),
                }
            }
        };
        PdfFontHandle::External(id)
    }

    /// Text with its baseline at (`x`, `y`).
    pub(crate) fn text_at(&mut self, x: f32, y: f32, size: f32, weight: Weight, s: &str) {
        let font = self.font(s, weight);
        super::diagram::text_in(self.ops(), x, y, size, font, s);
    }

    /// Wrapped text at `x` within `w` points from the cursor down; returns the lines used.
    pub(crate) fn paragraph(
        &mut self,
        x: f32,
        w: f32,
        size: f32,
        weight: Weight,
        s: &str,
    ) -> usize {
        let lines = wrap(s, w, size, weight);
        self.lines_down(x, size, weight, &lines)
    }

    /// `paragraph` for text with a line of moves in it: a move number is
    /// kept on the line of its move (`wrap_moves`).
    pub(crate) fn paragraph_of_moves(
        &mut self,
        x: f32,
        w: f32,
        size: f32,
        weight: Weight,
        s: &str,
    ) -> usize {
        let lines = wrap_moves(s, w, size, weight);
        self.lines_down(x, size, weight, &lines)
    }

    /// Lines already wrapped, one under another from the cursor down.
    fn lines_down(&mut self, x: f32, size: f32, weight: Weight, lines: &[String]) -> usize {
        let lead = size * 1.3;
        for l in lines {
            self.need(lead);
            self.y -= lead;
            let y = self.y;
            self.text_at(x, y, size, weight, l);
        }
        lines.len()
    }

    pub(crate) fn heading(&mut self, s: &str) {
        // A heading never ends a page: room for it and two lines under it.
        self.need(62.0);
        self.y -= 22.0;
        let y = self.y;
        self.text_at(LEFT, y, 12.0, Weight::Bold, s);
        self.rule(y - 4.0, 0.6);
        self.y -= 8.0;
    }

    pub(crate) fn rule(&mut self, y: f32, thickness: f32) {
        let ops = self.ops();
        ops.push(Op::SetOutlineColor { col: grey(0.0) });
        ops.push(Op::SetOutlineThickness { pt: Pt(thickness) });
        ops.push(Op::DrawLine {
            line: Line {
                points: vec![pt(LEFT, y), pt(RIGHT, y)],
                is_closed: false,
            },
        });
    }

    pub(crate) fn line(
        &mut self,
        points: Vec<LinePoint>,
        thickness: f32,
        shade: f32,
        dash: &[f32],
    ) {
        let ops = self.ops();
        ops.push(Op::SetOutlineColor { col: grey(shade) });
        ops.push(Op::SetOutlineThickness { pt: Pt(thickness) });
        ops.push(Op::SetLineDashPattern {
            dash: LineDashPattern::new(0.0, dash),
        });
        ops.push(Op::DrawLine {
            line: Line {
                points,
                is_closed: false,
            },
        });
        ops.push(Op::SetLineDashPattern {
            dash: LineDashPattern::solid(),
        });
        ops.push(Op::SetOutlineColor { col: grey(0.0) });
    }

    pub(crate) fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, thickness: f32) {
        let ops = self.ops();
        ops.push(Op::SetOutlineColor { col: grey(0.0) });
        ops.push(Op::SetOutlineThickness { pt: Pt(thickness) });
        ops.push(Op::DrawLine {
            line: Line {
                points: vec![pt(x, y), pt(x + w, y), pt(x + w, y + h), pt(x, y + h)],
                is_closed: true,
            },
        });
    }

    /// Finishes the document with "page N of M" footers.
    pub(crate) fn save(mut self, footer: &str) -> Vec<u8> {
        let total = self.pages.len();
        let pages = std::mem::take(&mut self.pages);
        let mut out = Vec::with_capacity(total);
        let (w, h) = self.paper.mm();
        // The text block centred across a page wider than A4 (Letter).
        let dx = (self.paper.points().0 - (LEFT + RIGHT)) / 2.0;
        for (i, ops) in pages.into_iter().enumerate() {
            self.pages = vec![ops];
            let label = format!("{footer} · page {} of {total}", i + 1);
            self.text_at(LEFT, 30.0, 8.0, Weight::Regular, &label);
            let mut ops = self.pages.pop().unwrap_or_default();
            if dx.abs() > 0.01 {
                ops.insert(
                    0,
                    Op::SetTransformationMatrix {
                        matrix: CurTransMat::Translate(Pt(dx), Pt(0.0)),
                    },
                );
                ops.insert(0, Op::SaveGraphicsState);
                ops.push(Op::RestoreGraphicsState);
            }
            out.push(PdfPage::new(Mm(w), Mm(h), ops));
        }
        self.pdf.with_pages(out);
        let mut bytes = self.pdf.save(&PdfSaveOptions::default(), &mut Vec::new());
        no_pdfx_claim(&mut bytes);
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Width of `s` at `size` points.
    fn width(s: &str, size: f32, weight: Weight) -> f32 {
        points(ems(s), size, weight)
    }

    #[test]
    fn wrapping_keeps_every_word_and_the_width() {
        let s = "White was making progress: 3 pawn moves, 1 capture, and the king walked to the seventh rank";
        let lines = wrap(s, 150.0, 9.0, Weight::Regular);
        assert!(lines.len() > 2);
        assert!(lines
            .iter()
            .all(|l| width(l, 9.0, Weight::Regular) <= 150.0));
        assert_eq!(lines.join(" "), s);
    }

    /// The wrapping this replaced: every candidate line measured afresh,
    /// a long word cut a character at a time (cubic in the word's length).
    fn wrap_by_measuring(s: &str, max: f32, size: f32, weight: Weight) -> Vec<String> {
        let mut lines = Vec::new();
        for para in s.split('\n') {
            let mut cur = String::new();
            for word in para.split(' ') {
                let candidate = if cur.is_empty() {
                    word.to_string()
                } else {
                    format!("{cur} {word}")
                };
                if width(&candidate, size, weight) <= max || cur.is_empty() {
                    cur = candidate;
                } else {
                    lines.push(std::mem::take(&mut cur));
                    cur = word.to_string();
                }
                while width(&cur, size, weight) > max && cur.chars().count() > 1 {
                    let mut cut = cur.len();
                    while cut > 0 && width(&cur[..cut], size, weight) > max {
                        cut = cur[..cut].char_indices().last().map_or(0, |(i, _)| i);
                    }
                    if cut == 0 {
                        break;
                    }
                    lines.push(cur[..cut].to_string());
                    cur = cur[cut..].to_string();
                }
            }
            lines.push(cur);
        }
        lines
    }

    #[test]
    fn wrapping_agrees_with_measuring_every_line() {
        // Generated text: words of every length (some wider than a line),
        // spaces doubled, newlines, letters outside the Helvetica table.
        let alphabet: Vec<char> = "aiMW.l-1 \n é—ŽЖ".chars().collect();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for case in 0..3_000 {
            let len = next(400);
            let s: String = (0..len)
                .map(|_| match next(4) {
                    0 => alphabet[next(alphabet.len())],
                    _ => alphabet[next(3)],
                })
                .collect();
            let (size, max) = ([7.0, 9.0, 12.0][case % 3], [40.0, 150.0, 480.0][case % 3]);
            for weight in [Weight::Regular, Weight::Bold] {
                assert_eq!(
                    wrap(&s, max, size, weight),
                    wrap_by_measuring(&s, max, size, weight),
                    "{s:?} at {size} in {max}"
                );
            }
        }
    }

    #[test]
    fn a_line_of_moves_keeps_each_number_with_its_move() {
        let s = "Helpmate line: Black can mate, for example 21. dxc5 bxc5 22. h3 a4 23. bxa4 c4 \
                 24. e4 fxe4 25. fxe4 dxe4 26. g4 c3 27. h4 cxb2 28. a5 bxc1=Q 29. a4 e3 30. g5 \
                 exd2 31. gxf6 gxf6 32. h5 fxe5 33. a6 e4 34. axb7 e3 35. bxc8=Q e2 36. a5 \
                 exd1=Q+ 37. Bf1 h6 38. a6 Nf2 39. a7 Rxc8 40. a8=Q Rxa8 41. Kg2 Qxf1+ 42. Kf3 d1=Q#";
        for max in [60.0, 95.0, 150.0, 200.0, 320.0, 495.0] {
            let lines = wrap_moves(s, max, 9.0, Weight::Regular);
            assert_eq!(lines.join(" "), s, "{max}");
            for l in &lines {
                assert!(width(l, 9.0, Weight::Regular) <= max, "{l:?} in {max}");
                let last = l.rsplit(' ').next().unwrap();
                assert!(!last.ends_with('.'), "{l:?} ends in a move number");
            }
        }
        // Black's move numbers too, and the numbered move stays whole.
        let lines = wrap_moves("x 77... Ka4 78. c7", 40.0, 9.0, Weight::Regular);
        assert_eq!(lines, ["x", "77... Ka4", "78. c7"]);
        // A word wider than a line is cut, as `wrap` cuts it.
        let word = "x".repeat(20_000);
        let lines = wrap_moves(&word, 480.0, 9.0, Weight::Regular);
        assert_eq!(lines.concat(), word);
        assert!(lines
            .iter()
            .all(|l| width(l, 9.0, Weight::Regular) <= 480.0));
        // Text without moves wraps as `wrap` wraps it.
        let plain = "White was making progress: 3 pawn moves, 1 capture, and the king walked on";
        assert_eq!(
            wrap_moves(plain, 150.0, 9.0, Weight::Regular),
            wrap(plain, 150.0, 9.0, Weight::Regular)
        );
    }

    #[test]
    fn a_long_word_wraps_in_linear_time() {
        let time = |n: usize| {
            let word = "x".repeat(n);
            let t = std::time::Instant::now();
            let lines = wrap(&word, 480.0, 9.0, Weight::Regular);
            assert_eq!(lines.concat(), word);
            assert!(lines
                .iter()
                .all(|l| width(l, 9.0, Weight::Regular) <= 480.0));
            t.elapsed().as_secs_f64()
        };
        time(20_000);
        let (small, large) = (time(100_000), time(1_000_000));
        // Ten times the word, well under a hundred times the time.
        assert!(large < 30.0 * small.max(1e-4), "{small} s, then {large} s");
    }

    #[test]
    fn only_text_winansi_cannot_show_needs_the_embedded_font() {
        assert!("Müller Øystein Lezcano – ½ £5".chars().all(win_ansi));
        assert!(!"Dvořák".chars().all(win_ansi));
    }
}
