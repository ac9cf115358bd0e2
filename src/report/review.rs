//! The review page (`--html FILE`): one self-contained HTML file — no
//! server, no network, no external file — listing what needs a person's
//! eye, each with its decisive position drawn as SVG (the last move
//! marked), both clocks, the ruling, the rule with its one-line statement,
//! the detail and a link to the packet. Filters by status, reason, event and
//! player run in the page itself; `?status=review&player=smith` in the
//! address sets them on opening.

use std::collections::BTreeMap;

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
pub(crate) fn page(heading: &str, totals: &str, items: &[ReviewItem]) -> String {
    let mut by_status: BTreeMap<&str, u64> = BTreeMap::new();
    let mut by_reason: BTreeMap<&str, u64> = BTreeMap::new();
    let mut by_event: BTreeMap<&str, BTreeMap<&str, u64>> = BTreeMap::new();
    for it in items {
        *by_status.entry(&it.status).or_default() += 1;
        *by_reason.entry(&it.reason).or_default() += 1;
        *by_event
            .entry(&it.event)
            .or_default()
            .entry(&it.status)
            .or_default() += 1;
    }
    let table = |title: &str, m: &BTreeMap<&str, u64>| {
        let mut s = format!("<table><tr><th>{title}</th><th>items</th></tr>");
        for (k, n) in m {
            s.push_str(&format!("<tr><td>{}</td><td>{n}</td></tr>", esc(k)));
        }
        s.push_str("</table>");
        s
    };
    let mut h = String::with_capacity(4096 + items.len() * 6000);
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
    h.push_str(&table("status", &by_status));
    h.push_str(&table("reason", &by_reason));
    h.push_str("<table><tr><th>event</th><th>by status</th></tr>");
    for (e, m) in &by_event {
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
        by_status.keys().map(|s| s.to_string()),
    ));
    h.push_str(&options(
        "Reason",
        "f-reason",
        by_reason.keys().map(|s| s.to_string()),
    ));
    h.push_str(&options(
        "Event",
        "f-event",
        by_event.keys().map(|s| s.to_string()),
    ));
    h.push_str("<label>Player <input id=\"f-player\" type=\"search\"></label>");
    h.push_str(&format!(
        "<span><span id=\"shown\">{n}</span> of {n} shown</span></div>\n",
        n = items.len()
    ));
    for it in items {
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
    }
    h.push_str(&format!("<script>{SCRIPT}</script>\n</body></html>\n"));
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
}
