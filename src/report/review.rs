//! The review page (`--html FILE`): one self-contained HTML file — no
//! server, no network, no external file — listing what needs a person's
//! eye. The items travel as compact JSON inside the page and its script
//! draws them fifty to a page: each with its decisive position drawn from
//! the FEN, both clocks, the ruling, the rule with its one-line statement,
//! the detail, links to the game's own address and to the packet, and,
//! opened, the moves with the board at any ply and a form to record a
//! decision. Decisions stay in the browser (local storage) and download as
//! the decisions file `--decisions` reads. Filters by status, reason,
//! event, player and mark run in the page; `?status=review&player=smith`
//! in the address sets them on opening.
//!
//! Why JSON and not HTML: 5,000 items drawn as inline SVG made a 30 MB page
//! that took 30 s to open; as data, drawn a page at a time, it opens in
//! well under a second.

use std::{
    collections::{BTreeMap, HashMap},
    io::{Seek, Write},
};

use serde::Serialize;
use shakmaty::{
    fen::Fen, san::SanPlus, uci::UciMove, CastlingMode, Chess, EnPassantMode, Move, Square,
};

use crate::pgn::ParsedGame;

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
    /// "41. Qxh7": the decisive move by number and side.
    pub(crate) at: String,
    pub(crate) white_clock: String,
    pub(crate) black_clock: String,
    /// The decisive position (for a game: after `moves.shown` plies).
    pub(crate) fen: Option<String>,
    /// The move into `fen`, where there is no move list to find it in.
    pub(crate) last_move: Option<(Square, Square)>,
    /// The packet's address relative to the page.
    pub(crate) packet: Option<String>,
    /// The game's key (as the results' `game_key` column writes it): a
    /// decision on the item can be exported only with one, so claims and
    /// audit findings, which are no game's result, have none.
    pub(crate) game_key: Option<String>,
    /// The game's own address (lichess, chess.com): http(s) only.
    pub(crate) url: Option<String>,
    /// The moves, for the move list and the board at every ply.
    pub(crate) moves: Option<Moves>,
}

/// A game's moves as the page steps through them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Moves {
    /// The start position where it is not the standard one.
    pub(crate) start: Option<String>,
    /// Every ply in SAN, space-separated: as SAN writes it where the replay
    /// played it, as the record wrote it after.
    pub(crate) san: String,
    /// The plies the replay played, as `squares` writes them; `None` where
    /// the start is one the tool does not judge (no board to step through).
    pub(crate) squares: Option<String>,
    /// The ply the board shows on opening: the decisive one, or the last
    /// replayed (0: the start).
    pub(crate) shown: usize,
    /// The ply the ruling turns on, marked in the list.
    pub(crate) marked: Option<usize>,
}

/// A square as one character: a1 = `A` ... h8 = `/` (base64's alphabet).
const SQUARE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Each move as two characters, from and to (a castling as the king onto
/// its own rook, as Chess960 writes it, so the page needs no castling
/// rights), `=q` after a promotion: 2 bytes a ply against 5 for UCI, and
/// the page needs no move generator of its own.
fn push_squares(out: &mut String, m: Move) {
    if let UciMove::Normal {
        from,
        to,
        promotion,
    } = m.to_uci(CastlingMode::Chess960)
    {
        out.push(char::from(SQUARE[usize::from(from)]));
        out.push(char::from(SQUARE[usize::from(to)]));
        if let Some(r) = promotion {
            out.push('=');
            out.push(r.char());
        }
    }
}

/// A move's from and to squares as the board marks them (the king's own
/// for castling).
fn marked_squares(m: Move) -> Option<(Square, Square)> {
    match m.to_uci(CastlingMode::Standard) {
        UciMove::Normal { from, to, .. } => Some((from, to)),
        _ => None,
    }
}

fn fen_of(pos: &Chess) -> String {
    let mut s = String::with_capacity(96);
    Fen::from_position(pos, EnPassantMode::Legal).append_to_string(&mut s);
    s
}

/// The position a game's board shows on opening (FEN) and the move into
/// it.
pub(crate) type Shown = (String, Option<(Square, Square)>);

/// The moves of `game` for the page, the first `plies` of them replayed
/// (`Judgement::plies`) and `ply` the one the ruling turns on; with the
/// position the board shows on opening and the move into it.
pub(crate) fn game_moves(
    game: &ParsedGame,
    plies: usize,
    ply: Option<usize>,
) -> (Moves, Option<Shown>) {
    let played = crate::replay::played_moves(game, plies);
    let replayed = played.as_ref().map_or(0, |(_, m)| m.len());
    let shown = ply.map_or(replayed, |p| p.min(replayed));
    let mut san = String::with_capacity(game.plies.len() * 5);
    let mut squares = played.as_ref().map(|_| String::with_capacity(replayed * 2));
    let mut pos = played.as_ref().map(|(start, _)| start.clone());
    let mut at = (shown == 0)
        .then(|| pos.as_ref().map(|p| (fen_of(p), None)))
        .flatten();
    for (i, p) in game.plies.iter().enumerate() {
        if i > 0 {
            san.push(' ');
        }
        let m = played.as_ref().and_then(|(_, m)| m.get(i).copied());
        match (m, pos.as_mut()) {
            (Some(m), Some(pos)) => {
                if let Some(s) = squares.as_mut() {
                    push_squares(s, m);
                }
                // SAN as SAN writes it, whatever the record wrote (`e7e8q`,
                // `Ngf3`, a check sign missing): one move generation a ply,
                // for the games on the page only.
                SanPlus::from_move_and_play_unchecked(pos, m).append_to_string(&mut san);
                if i + 1 == shown {
                    at = Some((fen_of(pos), marked_squares(m)));
                }
            }
            _ => match p.uci {
                Some(u) => u.append_to_string(&mut san),
                None => p.san.append_to_string(&mut san),
            },
        }
    }
    let start = played
        .as_ref()
        .filter(|_| !game.tags.fen.trim().is_empty())
        .map(|(start, _)| fen_of(start));
    let moves = Moves {
        start,
        san,
        squares,
        shown,
        marked: ply.filter(|&p| p >= 1 && p <= game.plies.len()),
    };
    (moves, at)
}

/// The game's own address: the `Site` tag, else the `Link` tag, where it is
/// an http(s) URL (lichess writes the game's address in `Site`, chess.com
/// in `Link`). Anything else (`javascript:`, a town) is no link.
pub(crate) fn game_url(site: &str, link: &str) -> Option<String> {
    [site, link]
        .into_iter()
        .map(str::trim)
        .find(|u| {
            let lower = u.get(..8).unwrap_or("").to_ascii_lowercase();
            (lower.starts_with("http://") || lower.starts_with("https://"))
                && u.len() > lower.len()
                && !u.chars().any(|c| c.is_whitespace() || c.is_control())
        })
        .map(String::from)
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

/// A filter's value for an empty field, so "(none)" can be chosen apart
/// from "all"; the script reads it the same way.
const NONE: &str = "(none)";

fn value_of(s: &str) -> &str {
    if s.is_empty() {
        NONE
    } else {
        s
    }
}

fn options(label: &str, id: &str, values: impl Iterator<Item = String>) -> String {
    let mut s = format!("<label>{label} <select id=\"{id}\"><option value=\"\">all</option>");
    for v in values {
        let v = esc(value_of(&v));
        s.push_str(&format!("<option value=\"{v}\">{v}</option>"));
    }
    s.push_str("</select></label>");
    s
}

/// A count that filters the list when clicked: `filters` are the
/// (status|reason|event, value) pairs it stands for.
fn count_button(n: u64, filters: &[(&str, &str)]) -> String {
    let mut s = String::from("<button type=\"button\" class=\"count\"");
    for (k, v) in filters {
        s.push_str(&format!(" data-{k}=\"{}\"", esc(value_of(v))));
    }
    s.push_str(&format!(">{n}</button>"));
    s
}

const STYLE: &str = include_str!("review.css");
const SCRIPT: &str = include_str!("review.js");

/// Items shown on one page of the list; the script reads the same number.
pub(crate) const PER_PAGE: usize = 50;

const KEYS: &str = "<p class=\"keys\"><b>Keys</b>: <kbd>j</kbd> or <kbd>↓</kbd> next item · \
<kbd>k</kbd> or <kbd>↑</kbd> previous item · <kbd>n</kbd> / <kbd>p</kbd> next / previous page · \
<kbd>o</kbd> or <kbd>Enter</kbd> open or close the item · <kbd>←</kbd> / <kbd>→</kbd> \
(or <kbd>h</kbd> / <kbd>l</kbd>) step through its moves · <kbd>r</kbd> mark it reviewed · \
<kbd>/</kbd> find a player · <kbd>Esc</kbd> leave a field</p>\n";

/// The whole page for `items`, in memory (claims and audits, whose items
/// are few).
pub(crate) fn page(heading: &str, totals: &str, items: &[ReviewItem]) -> String {
    page_labelled(heading, totals, items, ["status", "reason"])
}

/// `page`, its two groupings named as what they are (a claim's
/// recommendation and kind, an audit's finding and the game's reason).
pub(crate) fn page_labelled(
    heading: &str,
    totals: &str,
    items: &[ReviewItem],
    labels: [&'static str; 2],
) -> String {
    let mut w = PageWriter::in_memory();
    w.labels = labels;
    for it in items {
        // Writing into memory cannot fail.
        let _ = w.add(it);
    }
    let mut out = Vec::new();
    let _ = w.finish(heading, totals, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The review page written as its items come: each item's JSON goes to a
/// temporary file (or memory) at once and only the counts the summary
/// tables need and the rules cited are kept, so memory stays flat however
/// many games need attention; `finish` writes the head, the summary, the
/// data and the script, in that order.
pub(crate) struct PageWriter {
    /// What `status` and `reason` hold, as the tables and filters name them.
    pub(crate) labels: [&'static str; 2],
    entries: Spool,
    items: u64,
    by_status: BTreeMap<String, u64>,
    by_reason: BTreeMap<String, u64>,
    by_event: BTreeMap<String, BTreeMap<String, u64>>,
    /// Each (rule, statement) once, by its number in the page's table: a
    /// statement is a sentence, and thousands of items cite a few rules.
    rules: HashMap<(String, String), usize>,
}

enum Spool {
    Memory(Vec<u8>),
    File(std::io::BufWriter<std::fs::File>),
}

fn blank(s: &&str) -> bool {
    s.is_empty()
}

/// One item as the page's data holds it: short keys, empty fields left
/// out (the script's `card` reads them).
#[derive(Serialize)]
struct Entry<'a> {
    /// title, status, reason, event, date, white, black
    t: &'a str,
    #[serde(skip_serializing_if = "blank")]
    s: &'a str,
    #[serde(skip_serializing_if = "blank")]
    r: &'a str,
    #[serde(skip_serializing_if = "blank")]
    e: &'a str,
    #[serde(skip_serializing_if = "blank")]
    d: &'a str,
    #[serde(skip_serializing_if = "blank")]
    w: &'a str,
    #[serde(skip_serializing_if = "blank")]
    b: &'a str,
    /// recorded, result, at, White's and Black's clocks, detail
    #[serde(skip_serializing_if = "blank")]
    rec: &'a str,
    #[serde(skip_serializing_if = "blank")]
    res: &'a str,
    #[serde(skip_serializing_if = "blank")]
    at: &'a str,
    #[serde(skip_serializing_if = "blank")]
    wc: &'a str,
    #[serde(skip_serializing_if = "blank")]
    bc: &'a str,
    #[serde(skip_serializing_if = "blank")]
    det: &'a str,
    /// The rules cited, by number in the page's rules table.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ru: Vec<usize>,
    /// The decisive position, and the move into it ("d8h4") where there is
    /// no move list.
    #[serde(skip_serializing_if = "Option::is_none")]
    fen: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lm: Option<String>,
    /// packet, the game's address, its key
    #[serde(skip_serializing_if = "Option::is_none")]
    pk: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<&'a str>,
    /// The moves: start FEN (when not the standard one), SAN, the
    /// replayed plies' squares, the ply shown on opening, the ply marked.
    #[serde(skip_serializing_if = "Option::is_none")]
    sf: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    m: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sq: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dp: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mk: Option<usize>,
}

/// JSON fit to stand inside a `<script>` element: every `<` as `\u003c`,
/// so no value (a player named `</script>`, an `<!--`) can end the
/// element or change how it is read. A `<` occurs only inside strings.
fn push_script_json(out: &mut Vec<u8>, json: &[u8]) {
    let mut rest = json;
    while let Some(i) = memchr::memchr(b'<', rest) {
        out.extend_from_slice(&rest[..i]);
        out.extend_from_slice(b"\\u003c");
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
}

impl PageWriter {
    pub(crate) fn in_memory() -> PageWriter {
        PageWriter::with(Spool::Memory(Vec::new()))
    }

    /// Entries spooled to an unnamed temporary file, gone when closed.
    pub(crate) fn spooled() -> std::io::Result<PageWriter> {
        let file = tempfile::tempfile()?;
        Ok(PageWriter::with(Spool::File(std::io::BufWriter::new(file))))
    }

    fn with(entries: Spool) -> PageWriter {
        PageWriter {
            labels: ["status", "reason"],
            entries,
            items: 0,
            by_status: BTreeMap::new(),
            by_reason: BTreeMap::new(),
            by_event: BTreeMap::new(),
            rules: HashMap::new(),
        }
    }

    pub(crate) fn add(&mut self, it: &ReviewItem) -> std::io::Result<()> {
        *self.by_status.entry(it.status.clone()).or_default() += 1;
        *self.by_reason.entry(it.reason.clone()).or_default() += 1;
        *self
            .by_event
            .entry(it.event.clone())
            .or_default()
            .entry(it.status.clone())
            .or_default() += 1;
        let ru = it
            .rules
            .iter()
            .map(|r| {
                let n = self.rules.len();
                *self.rules.entry(r.clone()).or_insert(n)
            })
            .collect();
        let mv = it.moves.as_ref();
        let entry = Entry {
            t: &it.title,
            s: &it.status,
            r: &it.reason,
            e: &it.event,
            d: &it.date,
            w: &it.white,
            b: &it.black,
            rec: &it.recorded,
            res: &it.result,
            at: &it.at,
            wc: &it.white_clock,
            bc: &it.black_clock,
            det: &it.detail,
            ru,
            fen: it.fen.as_deref(),
            lm: it
                .last_move
                .filter(|_| mv.and_then(|m| m.squares.as_ref()).is_none())
                .map(|(a, b)| format!("{a}{b}")),
            pk: it.packet.as_deref(),
            url: it.url.as_deref(),
            key: it.game_key.as_deref(),
            sf: mv.and_then(|m| m.start.as_deref()),
            m: mv.map(|m| m.san.as_str()).filter(|s| !s.is_empty()),
            sq: mv.and_then(|m| m.squares.as_deref()),
            dp: mv.filter(|m| m.squares.is_some()).map(|m| m.shown),
            mk: mv.and_then(|m| m.marked),
        };
        let json = serde_json::to_vec(&entry).map_err(std::io::Error::other)?;
        let mut line = Vec::with_capacity(json.len() + 16);
        if self.items > 0 {
            line.extend_from_slice(b",\n");
        }
        push_script_json(&mut line, &json);
        self.items += 1;
        match &mut self.entries {
            Spool::Memory(v) => v.extend_from_slice(&line),
            Spool::File(f) => f.write_all(&line)?,
        }
        Ok(())
    }

    pub(crate) fn finish(
        self,
        heading: &str,
        totals: &str,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let table = |title: &str, key: &str, m: &BTreeMap<String, u64>| {
            let mut s = format!("<table><tr><th>{title}</th><th>items</th></tr>");
            for (k, n) in m {
                s.push_str(&format!(
                    "<tr><td>{}</td><td>{}</td></tr>",
                    esc(value_of(k)),
                    count_button(*n, &[(key, k)])
                ));
            }
            s.push_str("</table>");
            s
        };
        let mut h = String::with_capacity(8192);
        h.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
        h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        h.push_str(&format!(
            "<title>{}</title><style>{STYLE}</style></head><body>\n",
            esc(heading)
        ));
        h.push_str(&format!(
            "<header><h1>{}</h1>\n<p id=\"totals\">{}</p>\n",
            esc(heading),
            esc(totals)
        ));
        h.push_str(&format!(
            "<details class=\"summary\"><summary>Counts by {}, {} and event ({} items, {} events): click a count to list those items</summary><div class=\"tables\">",
            self.labels[0],
            self.labels[1],
            self.items,
            self.by_event.len()
        ));
        h.push_str(&table(self.labels[0], "status", &self.by_status));
        h.push_str(&table(self.labels[1], "reason", &self.by_reason));
        h.push_str("<table><tr><th>event</th><th>items</th>");
        for s in self.by_status.keys() {
            h.push_str(&format!("<th>{}</th>", esc(value_of(s))));
        }
        h.push_str("</tr>");
        for (e, m) in &self.by_event {
            h.push_str(&format!(
                "<tr><td>{}</td><td>{}</td>",
                esc(value_of(e)),
                count_button(m.values().sum(), &[("event", e)])
            ));
            for s in self.by_status.keys() {
                h.push_str("<td>");
                if let Some(&n) = m.get(s) {
                    h.push_str(&count_button(n, &[("event", e), ("status", s)]));
                }
                h.push_str("</td>");
            }
            h.push_str("</tr>");
        }
        h.push_str("</table></div></details></header>\n");
        h.push_str("<div class=\"bar\" id=\"bar\"><div class=\"filters\">");
        let capital = |l: &str| l[..1].to_uppercase() + &l[1..];
        h.push_str(&options(
            &capital(self.labels[0]),
            "f-status",
            self.by_status.keys().cloned(),
        ));
        h.push_str(&options(
            &capital(self.labels[1]),
            "f-reason",
            self.by_reason.keys().cloned(),
        ));
        h.push_str(&options("Event", "f-event", self.by_event.keys().cloned()));
        h.push_str("<label>Player <input id=\"f-player\" type=\"search\" size=\"14\"></label>");
        h.push_str("<label>Marked <select id=\"f-marked\"><option value=\"\">all</option><option value=\"open\">not yet reviewed</option><option value=\"reviewed\">reviewed</option><option value=\"decided\">decided</option></select></label>");
        h.push_str(&format!(
            "<span class=\"shown\"><span id=\"shown\">{n}</span> of {n} shown</span></div>\n",
            n = self.items
        ));
        h.push_str(&format!(
            "<div class=\"row\"><nav class=\"pager\"><button type=\"button\" data-page=\"first\" title=\"first page\">«</button><button type=\"button\" data-page=\"prev\" title=\"previous page (p)\">‹ previous</button> page <span id=\"pageno\">1</span> of <span id=\"pages\">{}</span> <button type=\"button\" data-page=\"next\" title=\"next page (n)\">next ›</button><button type=\"button\" data-page=\"last\" title=\"last page\">»</button></nav>",
            (self.items as usize).div_ceil(PER_PAGE).max(1)
        ));
        h.push_str("<div class=\"decide\"><label>Decided by <input id=\"by\" size=\"16\" placeholder=\"your name\"></label> <button type=\"button\" id=\"download\">Download decisions (<span id=\"ndec\">0</span>)</button> <span id=\"msg\" role=\"status\"></span></div></div></div>\n");
        h.push_str(KEYS);
        h.push_str("<main id=\"items\"><noscript>This page lists its items with JavaScript: allow it for this file.</noscript></main>\n");
        h.push_str("<script type=\"application/json\" id=\"data\">{\"rules\":");
        let mut rules: Vec<(&(String, String), &usize)> = self.rules.iter().collect();
        rules.sort_by_key(|(_, &n)| n);
        let rules: Vec<[&str; 2]> = rules
            .into_iter()
            .map(|((name, says), _)| [name.as_str(), says.as_str()])
            .collect();
        let mut head = h.into_bytes();
        let json = serde_json::to_vec(&rules).map_err(std::io::Error::other)?;
        push_script_json(&mut head, &json);
        head.extend_from_slice(format!(",\"perPage\":{PER_PAGE},\"items\":[\n").as_bytes());
        out.write_all(&head)?;
        match self.entries {
            Spool::Memory(v) => out.write_all(&v)?,
            Spool::File(f) => {
                let mut f = f.into_inner().map_err(|e| e.into_error())?;
                f.seek(std::io::SeekFrom::Start(0))?;
                std::io::copy(&mut f, out)?;
            }
        }
        out.write_all(
            format!("\n]}}</script>\n<script>{SCRIPT}</script>\n</body></html>\n").as_bytes(),
        )
    }
}

/// The page's data read back (`rules`, `items`), for the tests and the
/// fuzz target.
pub(crate) fn page_data(page: &str) -> Option<serde_json::Value> {
    let start = page.find("<script type=\"application/json\" id=\"data\">")?;
    let rest = &page[start..];
    let open = rest.find('>')? + 1;
    let close = rest.find("</script>")?;
    serde_json::from_str(rest.get(open..close)?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(pgn: &str) -> ParsedGame {
        crate::pipeline::judge_text(
            pgn.as_bytes(),
            &crate::rules::Ruleset::load("fide-rapid").unwrap(),
        )
        .0
    }

    #[test]
    fn no_value_can_end_the_data_element() {
        let names = [
            "</script><script>alert(1)</script>",
            "<!--<script>",
            "</SCRIPT >",
            "a\u{2028}b \"quoted\" \\ back",
        ];
        let items: Vec<ReviewItem> = names
            .iter()
            .map(|n| ReviewItem {
                title: (*n).into(),
                white: (*n).into(),
                event: (*n).into(),
                ..Default::default()
            })
            .collect();
        let page = page("t </script>", "1 game", &items);
        // The data element and the script: no other element ends.
        assert_eq!(page.to_ascii_lowercase().matches("</script").count(), 2);
        assert!(!page.contains("<!--"));
        let data = page_data(&page).unwrap();
        let back: Vec<&str> = data["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["w"].as_str().unwrap())
            .collect();
        assert_eq!(back, names);
        // In the HTML around the data every name is escaped.
        assert!(page.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
        // Self-contained: nothing fetched from anywhere.
        assert!(!page.contains(" src=") && !page.contains("<link"), "{page}");
    }

    #[test]
    fn a_spooled_page_is_the_page_built_in_memory() {
        let items: Vec<ReviewItem> = (0..300)
            .map(|i| ReviewItem {
                title: format!("g{i}"),
                event: format!("event {}", i % 7),
                status: ["review", "corrected"][i % 2].into(),
                reason: ["illegal-move", "flag-fall", "checkmate"][i % 3].into(),
                rules: vec![(format!("FIDE {}", i % 4), "says".into())],
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
        let data = page_data(&memory).unwrap();
        assert_eq!(data["items"].as_array().unwrap().len(), 300);
        // Four rules, each once, however many items cite them.
        assert_eq!(data["rules"].as_array().unwrap().len(), 4);
        assert_eq!(data["items"][5]["ru"], serde_json::json!([1]));
        assert_eq!(data["rules"][1], serde_json::json!(["FIDE 1", "says"]));
        assert!(memory.contains("<span id=\"pages\">6</span>"));
    }

    #[test]
    fn moves_as_squares_castling_onto_the_rook_and_promotions() {
        let g = game("[Event \"e\"]\n\n1. e4 d5 2. exd5 Nf6 3. Nf3 Nxd5 4. Bc4 Nb6 5. O-O *\n");
        let (m, at) = game_moves(&g, 9, Some(5));
        assert_eq!(m.san, "e4 d5 exd5 Nf6 Nf3 Nxd5 Bc4 Nb6 O-O");
        // e2e4 = M c, d7d5 = z j, ... O-O = e1h1 = E H.
        assert_eq!(m.squares.as_deref(), Some("Mczjcj+tGVtjFajpEH"));
        assert_eq!((m.shown, m.marked, m.start), (5, Some(5), None));
        let (fen, last) = at.unwrap();
        assert_eq!(
            fen,
            "rnbqkb1r/ppp1pppp/5n2/3P4/8/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3"
        );
        assert_eq!(last, Some((Square::G1, Square::F3)));

        let g =
            game("[FEN \"8/4P1k1/8/8/8/8/1K6/8 w - - 0 60\"]\n[SetUp \"1\"]\n\n60. e7e8q Kf6 *\n");
        let (m, at) = game_moves(&g, 2, None);
        assert_eq!(m.san, "e8=Q Kf6");
        assert_eq!(m.squares.as_deref(), Some("08=q2t"));
        assert_eq!(m.start.as_deref(), Some("8/4P1k1/8/8/8/8/1K6/8 w - - 0 60"));
        assert_eq!(at.unwrap().0, "4Q3/8/5k2/8/8/8/1K6/8 w - - 1 61");
    }

    #[test]
    fn only_web_addresses_are_links() {
        assert_eq!(
            game_url("https://lichess.org/p1qmIDzY", "").as_deref(),
            Some("https://lichess.org/p1qmIDzY")
        );
        assert_eq!(
            game_url("Chess.com", " HTTPS://www.chess.com/game/live/1 ").as_deref(),
            Some("HTTPS://www.chess.com/game/live/1")
        );
        for bad in [
            "javascript:alert(1)",
            "London",
            "https://",
            "http://a b",
            "ftp://x.org/g",
        ] {
            assert_eq!(game_url(bad, ""), None, "{bad}");
        }
    }
}
