//! The corrected PGN (`adjudicate --pgn-out FILE`): every game as read, its
//! movetext byte for byte, with the `Result` tag (and the termination marker
//! that must match it, PGN 8.2.6) set to the adjudicated result where it was
//! `corrected`, to `*` where the game is under `review` or `unreadable`, and
//! two tags that say why: `[Adjudication "corrected: flag-fall-cannot-mate,
//! FIDE 6.9"]` and `[RecordedResult "1-0"]`. A confirmed game is written as
//! it was read. One game out for every game in, so the file lines up with
//! the results row by row.

use crate::{
    model::{Judgement, Status},
    pgn::Tags,
};

/// PGN string escaping (PGN 7: `\` and `"` are escaped with `\`).
fn tag_value(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// The markers as PGN 8.2.6 writes them; a marker written otherwise
/// (`½–½`, `1-0ff`, which the reader takes) is replaced by its standard form.
const STANDARD: [&[u8]; 4] = [b"1-0", b"0-1", b"1/2-1/2", b"*"];

/// Where the game's tag section ends (after the last tag line's newline);
/// 0 for a game without tags.
fn tags_end(text: &[u8]) -> usize {
    let mut end = 0;
    let mut at = 0;
    while at < text.len() {
        let line_end = memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |k| at + k + 1);
        let line = text[at..line_end].trim_ascii();
        if line.starts_with(b"[") && line.ends_with(b"]") {
            end = line_end;
        } else if !line.is_empty() && !line.starts_with(b"%") {
            break;
        }
        at = line_end;
    }
    end
}

/// Does the movetext end with a termination marker?
fn last_word_start(body: &[u8]) -> usize {
    body.iter()
        .rposition(|b| b.is_ascii_whitespace() || *b == b'}' || *b == b')')
        .map_or(0, |k| k + 1)
}

/// Appends the game `text` to `out`, corrected as `j` says.
///
/// So that every PGN reader sees one game for every results row, a game
/// that lacks a tag section or a termination marker gets them (its moves
/// untouched), and an unreadable game — whose text may hold an unclosed
/// comment or variation that would swallow the games after it in another
/// reader — is written as its tags with no moves.
///
/// `ended`: where in `text` the game ended on the board, the record going on
/// past it (`Judgement::ended_at`'s ply): what follows is written as a
/// comment, so that no reader takes moves played after a mate, or a token
/// that is no move, for the game.
pub(crate) fn write_game(
    out: &mut Vec<u8>,
    text: &[u8],
    tags: &Tags,
    j: &Judgement,
    ended: Option<usize>,
) {
    // A byte-order mark opening the file is not written again: it would
    // stand before the tags and hide them from a reader.
    let bom = if text.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    let raw = text[bom..].trim_ascii_end();
    // The same place in the text as written out (its encoding and line
    // ends made one): a SAN token ends on a character boundary.
    let cut = ended
        .map(|e| past_comments(raw, e.saturating_sub(bom)))
        .and_then(|e| raw.get(..e))
        .map(|head| one_encoding(head).len());
    let text = one_encoding(raw);
    let text = text.as_ref();
    let status = j.verdict.status;
    let recorded = tags.recorded_result().as_str();
    if status == Status::Unreadable {
        return write_tags_only(out, tags, j);
    }
    let end = tags_end(text);
    let (tag_text, movetext) = text.split_at(end);
    let body = movetext.trim_ascii();
    let last = last_word_start(body);
    let has_marker = crate::pgn::scan::termination_marker(&body[last..]).is_some();
    let standard = STANDARD.contains(&&body[last..]);
    let moves_end = if has_marker { last } else { body.len() };
    // The body's own offset of the game's end, where words follow it.
    let body_at = end + (movetext.len() - movetext.trim_ascii_start().len());
    let past = cut
        .and_then(|c| c.checked_sub(body_at))
        .filter(|&c| c < moves_end && !body[c..moves_end].trim_ascii().is_empty());
    if status == Status::Confirmed && end > 0 && standard && past.is_none() {
        out.extend_from_slice(text);
        out.extend_from_slice(b"\n\n");
        return;
    }
    let result = match status {
        Status::Corrected => j.verdict.result.as_str(),
        Status::Confirmed => recorded,
        _ => "*",
    };
    // The tag section with the Result tag's value replaced (or added). A
    // file written by an earlier run keeps its RecordedResult (the result
    // first written down) and gets a fresh Adjudication.
    let mut had_result = false;
    let mut had_recorded = false;
    for line in tag_text.split_inclusive(|&b| b == b'\n') {
        let t = line.trim_ascii_start();
        if t.starts_with(b"[Result ") || t.starts_with(b"[Result\t") {
            out.extend_from_slice(format!("[Result \"{result}\"]\n").as_bytes());
            had_result = true;
        } else if t.starts_with(b"[Adjudication ") {
            continue;
        } else {
            had_recorded |= t.starts_with(b"[RecordedResult ");
            out.extend_from_slice(line);
            if !line.ends_with(b"\n") {
                out.push(b'\n');
            }
        }
    }
    if !had_result {
        out.extend_from_slice(format!("[Result \"{result}\"]\n").as_bytes());
    }
    if status != Status::Confirmed {
        if !had_recorded {
            out.extend_from_slice(
                format!("[RecordedResult \"{}\"]\n", tag_value(recorded)).as_bytes(),
            );
        }
        out.extend_from_slice(format!("[Adjudication \"{}\"]\n", tag_value(&why(j))).as_bytes());
    }
    // The movetext as read, its termination marker made to agree.
    out.push(b'\n');
    match past {
        Some(c) => {
            let head = body[..c].trim_ascii_end();
            out.extend_from_slice(head);
            // A `;` comment runs to the end of its line: the tail starts
            // on the next.
            let last_line = head.rsplit(|&b| b == b'\n').next().unwrap_or_default();
            if !head.is_empty() {
                out.push(if last_line.contains(&b';') {
                    b'\n'
                } else {
                    b' '
                });
            }
            out.extend_from_slice(b"{recorded after the game ended: ");
            // A comment cannot hold braces (PGN 8.2.5): the tail's own
            // comments keep their words without them, and their commands
            // without the `%` that would make a reader take a clock in
            // the tail for the last move's.
            let tail: Vec<u8> = body[c..moves_end]
                .iter()
                .copied()
                .filter(|&b| b != b'{' && b != b'}' && b != b'%')
                .collect();
            for (i, word) in tail
                .split(u8::is_ascii_whitespace)
                .filter(|w| !w.is_empty())
                .enumerate()
            {
                if i > 0 {
                    out.push(b' ');
                }
                out.extend_from_slice(word);
            }
            out.extend_from_slice(b"} ");
        }
        None if has_marker => out.extend_from_slice(&body[..last]),
        None => {
            out.extend_from_slice(body);
            if !body.is_empty() {
                out.push(b' ');
            }
        }
    }
    out.extend_from_slice(result.as_bytes());
    out.extend_from_slice(b"\n\n");
}

/// From `at` in `text`, past the whitespace, comments, NAGs and
/// variations that belong to the move before (its clock, its
/// alternatives): where the next word starts.
fn past_comments(text: &[u8], mut at: usize) -> usize {
    while let Some(&b) = text.get(at) {
        match b {
            b'{' => match memchr::memchr(b'}', &text[at..]) {
                Some(k) => at += k + 1,
                None => return at,
            },
            b'$' => {
                at += 1 + text[at + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count()
            }
            b'!' | b'?' => at += 1,
            // A rest-of-line comment, and a variation (other moves in
            // place of the last one, not played after it).
            b';' => match memchr::memchr(b'\n', &text[at..]) {
                Some(k) => at += k + 1,
                None => return text.len(),
            },
            b'(' => match variation_end(text, at) {
                Some(end) => at = end,
                None => return at,
            },
            b if b.is_ascii_whitespace() => at += 1,
            _ => return at,
        }
    }
    at
}

/// Just past the variation opening at `at` (nested ones and comments in
/// it included); `None` where it is never closed.
fn variation_end(text: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut k = at;
    while let Some(&c) = text.get(k) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(k + 1);
                }
            }
            b'{' => k += memchr::memchr(b'}', &text[k..])?,
            _ => {}
        }
        k += 1;
    }
    None
}

/// The game's text as the file written is: UTF-8 with LF line ends, so
/// that one corrected file never mixes encodings or line ends from its
/// inputs. Bytes that are not UTF-8 are read as Windows-1252 where they
/// stand, and every UTF-8 run beside them is kept, so a UTF-8 name stays
/// as the results row has it.
fn one_encoding(text: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    use std::borrow::Cow;
    let text: Cow<'_, [u8]> = match std::str::from_utf8(text) {
        Ok(_) => Cow::Borrowed(text),
        Err(_) => {
            let mut utf8 = Vec::with_capacity(text.len() + text.len() / 8);
            for chunk in text.utf8_chunks() {
                utf8.extend_from_slice(chunk.valid().as_bytes());
                let odd = encoding_rs::WINDOWS_1252.decode_without_bom_handling(chunk.invalid());
                utf8.extend_from_slice(odd.0.as_bytes());
            }
            Cow::Owned(utf8)
        }
    };
    if memchr::memchr(b'\r', &text).is_none() {
        return text;
    }
    let mut lf = Vec::with_capacity(text.len());
    let mut rest: &[u8] = &text;
    while let Some(i) = memchr::memchr(b'\r', rest) {
        lf.extend_from_slice(&rest[..i]);
        // A run of CRs before an LF is that one line end (CR CR LF, as a
        // file saved twice over has it); a lone CR (an old Mac's) is one.
        let run = rest[i..].iter().take_while(|&&b| b == b'\r').count();
        if rest.get(i + run) != Some(&b'\n') {
            lf.push(b'\n');
        }
        rest = &rest[i + run..];
    }
    lf.extend_from_slice(rest);
    Cow::Owned(lf)
}

fn why(j: &Judgement) -> String {
    format!(
        "{}: {}, {}",
        j.verdict.status.as_str(),
        j.verdict.reason.as_str(),
        j.verdict.rule.as_str()
    )
}

/// An unreadable game: the tags that could be read, `*`, and why.
fn write_tags_only(out: &mut Vec<u8>, tags: &Tags, j: &Judgement) {
    // Every tag read, the roster first: a grader's sheet keeps the ratings
    // and the control of a game it could not judge. Not `FEN`: with no
    // moves it is no use, and one that cannot be set up stops a reader.
    let roster = [
        ("Event", &tags.event),
        ("Site", &tags.site),
        ("Date", &tags.date),
        ("Round", &tags.round),
        ("White", &tags.white),
        ("Black", &tags.black),
    ];
    let rest = [
        ("UTCDate", &tags.utc_date),
        ("WhiteElo", &tags.white_elo),
        ("BlackElo", &tags.black_elo),
        ("WhiteTitle", &tags.white_title),
        ("BlackTitle", &tags.black_title),
        ("WhiteFideId", &tags.white_fide_id),
        ("BlackFideId", &tags.black_fide_id),
        ("WhiteFed", &tags.white_fed),
        ("BlackFed", &tags.black_fed),
        ("TimeControl", &tags.time_control),
        ("Termination", &tags.termination),
        ("Variant", &tags.variant),
        ("WhiteClock", &tags.white_clock),
        ("BlackClock", &tags.black_clock),
        ("Link", &tags.link),
    ];
    let mut rest_out = Vec::new();
    for (into, list) in [(&mut *out, &roster[..]), (&mut rest_out, &rest[..])] {
        for (name, value) in list {
            if !value.is_empty() {
                into.extend_from_slice(format!("[{name} \"{}\"]\n", tag_value(value)).as_bytes());
            }
        }
    }
    let recorded = tags.recorded_result().as_str();
    out.extend_from_slice(b"[Result \"*\"]\n");
    out.extend_from_slice(&rest_out);
    out.extend_from_slice(
        format!(
            "[RecordedResult \"{recorded}\"]\n[Adjudication \"{}\"]\n\n*\n\n",
            tag_value(&format!(
                "{}; the moves are not repeated: {}",
                why(j),
                j.detail
            ))
        )
        .as_bytes(),
    );
}

/// The stand-in for a game whose text was not kept (over the size limit)
/// or a source that was no PGN at all: its tags say why, so the corrected
/// file still has one game for every results row.
pub(crate) fn write_placeholder(out: &mut Vec<u8>, source: &str, j: &Judgement) {
    let why = format!("{}: {}", j.verdict.status.as_str(), j.detail);
    out.extend_from_slice(
        format!(
            "[Event \"?\"]\n[Site \"{}\"]\n[Result \"*\"]\n[Adjudication \"{}\"]\n\n*\n\n",
            tag_value(source),
            tag_value(&why)
        )
        .as_bytes(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{model::Judgement, rules::Ruleset};

    fn judged(text: &str, rules: &str) -> (Tags, Judgement) {
        let r = Ruleset::load(rules).unwrap();
        let (g, j) = crate::pipeline::judge_text(text.as_bytes(), &r);
        (g.tags, j)
    }

    #[test]
    fn a_corrected_game_keeps_its_movetext_and_says_why() {
        // Mate on the board, the wrong result written.
        let text = "[Event \"e\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. f3 {a} e5 2. g4 Qh4# 1-0\n";
        let (rec, j) = judged(text, "fide-rapid");
        assert_eq!(j.verdict.status, Status::Corrected);
        let mut out = Vec::new();
        write_game(&mut out, text.as_bytes(), &rec, &j, None);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "[Event \"e\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[RecordedResult \"1-0\"]\n[Adjudication \"corrected: checkmate, FIDE 5.1.1\"]\n\n1. f3 {a} e5 2. g4 Qh4# 0-1\n\n"
        );
    }

    #[test]
    fn a_second_run_keeps_the_first_recorded_result() {
        let text = "[Event \"e\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n";
        let (rec, j) = judged(text, "fide-rapid");
        let mut once = Vec::new();
        write_game(&mut once, text.as_bytes(), &rec, &j, None);
        // Judged again from the corrected file, under a ruleset that would
        // leave it for review: one RecordedResult, the first; one Adjudication.
        let mut review = j.clone();
        review.verdict.status = Status::Review;
        let mut twice = Vec::new();
        let later = Tags {
            result: "0-1".into(),
            ..Tags::default()
        };
        write_game(&mut twice, &once, &later, &review, None);
        let s = String::from_utf8(twice).unwrap();
        assert_eq!(s.matches("[RecordedResult ").count(), 1, "{s}");
        assert!(s.contains("[RecordedResult \"1-0\"]"), "{s}");
        assert_eq!(s.matches("[Adjudication ").count(), 1, "{s}");
        assert!(s.contains("[Adjudication \"review: checkmate"), "{s}");
    }

    #[test]
    fn confirmed_games_are_written_as_read() {
        let text = "[Event \"e\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
        let (rec, j) = judged(text, "fide-rapid");
        assert_eq!(j.verdict.status, Status::Confirmed);
        let mut out = Vec::new();
        write_game(&mut out, text.as_bytes(), &rec, &j, None);
        assert_eq!(String::from_utf8(out).unwrap(), format!("{text}\n"));
    }

    /// A marker the reader takes but other programs may not (`½–½`,
    /// `0-1ff`) is written as PGN 8.2.6 writes it, not kept beside a
    /// second marker.
    #[test]
    fn a_marker_written_otherwise_is_written_as_the_standard_writes_it() {
        // Black mates: 0-1 is written, whatever the tag said.
        for (marker, tag) in [("½–½", "1/2-1/2"), ("0-1ff", "0-1")] {
            let text =
                format!("[Event \"e\"]\n[Result \"{tag}\"]\n\n1. f3 e5 2. g4 Qh4# {marker}\n");
            let (rec, j) = judged(&text, "fide-rapid");
            let mut out = Vec::new();
            write_game(&mut out, text.as_bytes(), &rec, &j, None);
            let s = String::from_utf8(out).unwrap();
            assert!(s.ends_with("2. g4 Qh4# 0-1\n\n"), "{s}");
            assert!(!s.contains(marker), "{s}");
        }
    }

    #[test]
    fn a_game_without_tags_gets_them_and_its_marker_agrees() {
        let text = "1. f3 e5 2. g4 Qh4# 1-0";
        let (rec, j) = judged(text, "fide-rapid");
        let mut out = Vec::new();
        write_game(&mut out, text.as_bytes(), &rec, &j, None);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!(
                "[Result \"{r}\"]\n[RecordedResult \"1-0\"]\n[Adjudication \"{}: checkmate, FIDE 5.1.1\"]\n\n1. f3 e5 2. g4 Qh4# {r}\n\n",
                j.verdict.status.as_str(),
                r = if j.verdict.status == Status::Corrected { "0-1" } else { "*" }
            )
        );
        assert_ne!(j.verdict.status, Status::Confirmed);
    }
}
