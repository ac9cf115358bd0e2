//! The review page (`--html FILE`): one self-contained HTML file — no
//! server, no network, no external file — listing what needs a person's
//! eye, each with its decisive position drawn as SVG (the last move
//! marked), both clocks, the ruling, the rule with its one-line statement,
//! the detail and a link to the packet. Filters by status, reason, event and
//! player run in the page itself; `?status=review&player=smith` in the
//! address sets them on opening.

use std::{
    collections::BTreeMap,
    io::{Seek, Write},
};

use shakmaty::{fen::Fen, Board, Color, Role, Square};

/// One entry of the page: a game, a claim or an audit finding, finished.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReviewItem {
    /// "lichess.pgn, game 12", "claim board3".
    pub(crate) title: String,
    pub(crate) event: String,
    pub(crate) date: String,
    pub(crate) white: String,
    pub(crate) black: String,
    /// `review`, `corrected`, `unreadable`; `uphold`, `reject`, `refer`; a
    /// finding's kind.
    pub(crate) status: String,
    pub(crate) reason: String,
    pub(crate) recorded: String,
    pub(crate) result: String,
    /// Each rule cited, with what it says (empty when unknown).
    pub(crate) rules: Vec<(String, String)>,
    pub(crate) detail: String,
    /// "41. Qxh7 (ply 81)".
    pub(crate) at: String,
    pub(crate) white_clock: String,
    pub(crate) black_clock: String,
    /// The decisive position.
    pub(crate) fen: Option<String>,
    pub(crate) last_move: Option<(Square, Square)>,
    /// The packet's address relative to the page.
    pub(crate) packet: Option<String>,
}

fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn glyph(role: Role, color: Color) -> char {
    match (color, role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// The board as SVG, White at the bottom, files and ranks labelled, the
/// last move's squares tinted. A FEN that cannot be read draws nothing.
pub(crate) fn board_svg(fen: &str, last: Option<(Square, Square)>) -> String {
    let Ok(f) = fen.parse::<Fen>() else {
        return String::new();
    };
    let board: &Board = &f.as_setup().board;
    let sq = 40;
    let mut s = format!(
        "<svg class=\"board\" viewBox=\"0 0 {w} {w}\" width=\"{w}\" height=\"{w}\" role=\"img\" aria-label=\"{}\">",
        esc(fen),
        w = sq * 8 + 16
    );
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let square = Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            let (x, y) = (16 + file * sq, (7 - rank) * sq);
            let light = (file + rank) % 2 == 1;
            let marked = last.is_some_and(|(a, b)| a == square || b == square);
            let fill = match (marked, light) {
                (true, true) => "#f6eb72",
                (true, false) => "#d8c84a",
                (false, true) => "#f0d9b5",
                (false, false) => "#b58863",
            };
            s.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{sq}\" height=\"{sq}\" fill=\"{fill}\"{}/>",
                if marked { " class=\"last\"" } else { "" }
            ));
            if let Some(p) = board.piece_at(square) {
                s.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" class=\"piece\" data-square=\"{square}\">{}</text>",
                    x + sq / 2,
                    y + sq / 2 + 12,
                    glyph(p.role, p.color)
                ));
            }
        }
    }
    for i in 0..8u32 {
        s.push_str(&format!(
            "<text x=\"8\" y=\"{}\" class=\"coord\">{}</text><text x=\"{}\" y=\"{}\" class=\"coord\">{}</text>",
            (7 - i) * sq + sq / 2 + 4,
            i + 1,
            16 + i * sq + sq / 2,
            sq * 8 + 13,
            char::from(b'a' + i as u8)
        ));
    }
    s.push_str("</svg>");
    s
}

fn options(label: &str, id: &str, values: impl Iterator<Item = String>) -> String {
    let mut s = format!("<label>{label} <select id=\"{id}\"><option value=\"\">all</option>");
    for v in values {
        s.push_str(&format!("<option>{}</option>", esc(&v)));
    }
    s.push_str("</select></label>");
    s
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\
h1{font-size:1.4em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}\
.summary{display:flex;gap:2em;flex-wrap:wrap;align-items:flex-start;margin-bottom:1em}.filters{margin:1em 0;display:flex;gap:1em;flex-wrap:wrap}\
.item{display:flex;gap:1.5em;align-items:flex-start;border-top:2px solid #888;padding:1em 0}.board{flex:none}.item[hidden]{display:none}\
.board .piece{font-size:32px;text-anchor:middle;font-family:'DejaVu Sans','Segoe UI Symbol',serif}\
.board .coord{font-size:11px;text-anchor:middle;fill:#555}.status{font-weight:bold;text-transform:uppercase}\
.status-review,.status-refer{color:#a60}.status-corrected,.status-uphold{color:#060}.status-unreadable,.status-reject{color:#a00}\
.rule dt{font-weight:bold}.detail{max-width:60em}";

const SCRIPT: &str = "const f={status:document.getElementById('f-status'),reason:document.getElementById('f-reason'),event:document.getElementById('f-event'),player:document.getElementById('f-player')};\
function apply(){let n=0;for(const it of document.querySelectorAll('.item')){\
const ok=(!f.status.value||it.dataset.status===f.status.value)&&(!f.reason.value||it.dataset.reason===f.reason.value)\
&&(!f.event.value||it.dataset.event===f.event.value)&&(!f.player.value||it.dataset.players.toLowerCase().includes(f.player.value.toLowerCase()));\
it.hidden=!ok;if(ok)n++;}document.getElementById('shown').textContent=n;}\
const q=new URLSearchParams(location.search);for(const k in f){if(q.has(k))f[k].value=q.get(k);f[k].addEventListener('input',apply);}apply();";

/// The whole page. `totals` is the line on top (games read, by status),
/// as the command printed it.
/// The whole page for `items`, in memory (claims and audits, whose items
/// are few).
pub(crate) fn page(heading: &str, totals: &str, items: &[ReviewItem]) -> String {
    let mut w = PageWriter::in_memory();
    for it in items {
        // Writing into memory cannot fail.
        let _ = w.add(it);
    }
    let mut out = Vec::new();
    let _ = w.finish(heading, totals, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The review page written as its items come: each item's section goes to
/// a temporary file (or memory) at once and only the counts the summary
/// tables need are kept, so memory stays flat however many games need
/// attention; `finish` writes the head, the summary, the sections and the
/// script, in that order.
pub(crate) struct PageWriter {
    sections: Spool,
    items: u64,
    by_status: BTreeMap<String, u64>,
    by_reason: BTreeMap<String, u64>,
    by_event: BTreeMap<String, BTreeMap<String, u64>>,
}

enum Spool {
    Memory(Vec<u8>),
    File(std::io::BufWriter<std::fs::File>),
}

impl PageWriter {
    pub(crate) fn in_memory() -> PageWriter {
        PageWriter::with(Spool::Memory(Vec::new()))
    }

    /// Sections spooled to an unnamed temporary file, gone when closed.
    pub(crate) fn spooled() -> std::io::Result<PageWriter> {
        let file = tempfile::tempfile()?;
        Ok(PageWriter::with(Spool::File(std::io::BufWriter::new(file))))
    }

    fn with(sections: Spool) -> PageWriter {
        PageWriter {
            sections,
            items: 0,
            by_status: BTreeMap::new(),
            by_reason: BTreeMap::new(),
            by_event: BTreeMap::new(),
        }
    }

    pub(crate) fn add(&mut self, it: &ReviewItem) -> std::io::Result<()> {
        self.items += 1;
        *self.by_status.entry(it.status.clone()).or_default() += 1;
        *self.by_reason.entry(it.reason.clone()).or_default() += 1;
        *self
            .by_event
            .entry(it.event.clone())
            .or_default()
            .entry(it.status.clone())
            .or_default() += 1;
        let h = section(it);
        match &mut self.sections {
            Spool::Memory(v) => v.extend_from_slice(h.as_bytes()),
            Spool::File(f) => f.write_all(h.as_bytes())?,
        }
        Ok(())
    }

    pub(crate) fn finish(
        self,
        heading: &str,
        totals: &str,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let table = |title: &str, m: &BTreeMap<String, u64>| {
            let mut s = format!("<table><tr><th>{title}</th><th>items</th></tr>");
            for (k, n) in m {
                s.push_str(&format!("<tr><td>{}</td><td>{n}</td></tr>", esc(k)));
            }
            s.push_str("</table>");
            s
        };
        let mut h = String::with_capacity(4096);
        h.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
        h.push_str(&format!(
            "<title>{}</title><style>{STYLE}</style></head><body>\n",
            esc(heading)
        ));
        h.push_str(&format!(
            "<h1>{}</h1>\n<p id=\"totals\">{}</p>\n",
            esc(heading),
            esc(totals)
        ));
        h.push_str("<div class=\"summary\">");
        h.push_str(&table("status", &self.by_status));
        h.push_str(&table("reason", &self.by_reason));
        h.push_str("<table><tr><th>event</th><th>by status</th></tr>");
        for (e, m) in &self.by_event {
            let parts: Vec<String> = m.iter().map(|(s, n)| format!("{s} {n}")).collect();
            h.push_str(&format!(
                "<tr><td>{}</td><td>{}</td></tr>",
                esc(if e.is_empty() { "(no event)" } else { e }),
                esc(&parts.join(", "))
            ));
        }
        h.push_str("</table></div>\n<div class=\"filters\">");
        h.push_str(&options(
            "Status",
            "f-status",
            self.by_status.keys().cloned(),
        ));
        h.push_str(&options(
            "Reason",
            "f-reason",
            self.by_reason.keys().cloned(),
        ));
        h.push_str(&options("Event", "f-event", self.by_event.keys().cloned()));
        h.push_str("<label>Player <input id=\"f-player\" type=\"search\"></label>");
        h.push_str(&format!(
            "<span><span id=\"shown\">{n}</span> of {n} shown</span></div>\n",
            n = self.items
        ));
        out.write_all(h.as_bytes())?;
        match self.sections {
            Spool::Memory(v) => out.write_all(&v)?,
            Spool::File(f) => {
                let mut f = f.into_inner().map_err(|e| e.into_error())?;
                f.seek(std::io::SeekFrom::Start(0))?;
                std::io::copy(&mut f, out)?;
            }
        }
        out.write_all(format!("<script>{SCRIPT}</script>\n</body></html>\n").as_bytes())
    }
}

/// One item's section of the page.
fn section(it: &ReviewItem) -> String {
    let mut h = String::with_capacity(6000);
    h.push_str(&format!(
        "<section class=\"item\" data-status=\"{}\" data-reason=\"{}\" data-event=\"{}\" data-players=\"{}\">",
        esc(&it.status),
        esc(&it.reason),
        esc(&it.event),
        esc(&format!("{} | {}", it.white, it.black))
    ));
    if let Some(fen) = &it.fen {
        h.push_str(&board_svg(fen, it.last_move));
    }
    h.push_str(&format!(
        "<div><h2>{}</h2><p><span class=\"status status-{s}\">{s}</span> · {}</p>",
        esc(&it.title),
        esc(&it.reason),
        s = esc(&it.status)
    ));
    h.push_str("<table>");
    let mut row = |k: &str, v: &str| {
        if !v.is_empty() {
            h.push_str(&format!(
                "<tr><th>{k}</th><td class=\"{k}\">{}</td></tr>",
                esc(v)
            ));
        }
    };
    row("event", &it.event);
    row("date", &it.date);
    row("white", &it.white);
    row("black", &it.black);
    row("recorded", &it.recorded);
    row("result", &it.result);
    row("at", &it.at);
    row(
        "clocks",
        &match (it.white_clock.as_str(), it.black_clock.as_str()) {
            ("", "") => String::new(),
            (w, b) => format!("White {w} · Black {b}"),
        },
    );
    h.push_str("</table>");
    if !it.rules.is_empty() {
        h.push_str("<dl class=\"rule\">");
        for (r, says) in &it.rules {
            h.push_str(&format!("<dt>{}</dt><dd>{}</dd>", esc(r), esc(says)));
        }
        h.push_str("</dl>");
    }
    h.push_str(&format!("<p class=\"detail\">{}</p>", esc(&it.detail)));
    if let Some(p) = &it.packet {
        h.push_str(&format!(
            "<p><a class=\"packet\" href=\"{}\">packet (PDF)</a></p>",
            esc(p)
        ));
    }
    h.push_str("</div></section>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_marks_the_last_move_and_escapes_text() {
        let svg = board_svg(
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            Some((Square::D8, Square::H4)),
        );
        assert_eq!(svg.matches("class=\"last\"").count(), 2);
        assert_eq!(svg.matches("class=\"piece\"").count(), 32);
        assert!(svg.contains("data-square=\"d8\">♛"));
        let page = page(
            "t",
            "1 game",
            &[ReviewItem {
                title: "<script>x</script>".into(),
                ..Default::default()
            }],
        );
        assert!(page.contains("&lt;script&gt;x&lt;/script&gt;"));
        // Self-contained: nothing fetched from anywhere.
        assert!(!page.contains("http") && !page.contains(" src="), "{page}");
    }

    #[test]
    fn a_spooled_page_is_the_page_built_in_memory() {
        let items: Vec<ReviewItem> = (0..300)
            .map(|i| ReviewItem {
                title: format!("g{i}"),
                event: format!("event {}", i % 7),
                status: ["review", "corrected"][i % 2].into(),
                reason: ["illegal-move", "flag-fall", "checkmate"][i % 3].into(),
                fen: (i % 5 == 0).then(|| {
                    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2".into()
                }),
                ..Default::default()
            })
            .collect();
        let mut w = PageWriter::spooled().unwrap();
        for it in &items {
            w.add(it).unwrap();
        }
        let mut spooled = Vec::new();
        w.finish("t", "300 games", &mut spooled).unwrap();
        let memory = page("t", "300 games", &items);
        assert_eq!(String::from_utf8(spooled).unwrap(), memory);
        assert_eq!(memory.matches("<section class=\"item\"").count(), 300);
    }
}
