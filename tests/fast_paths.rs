//! Our fast paths against the crates they stand in for, on every game of
//! the shared files: the tag reader against pgn-reader's, and the quick SAN
//! resolver against shakmaty's `San::to_move`, ply by ply.

use crate::common::data;

use std::{borrow::Cow, io::Read, ops::ControlFlow};

use arbiter::{
    pgn::{self, scan, ParsedGame, Tags},
    read::{expand_inputs, open, split::Splitter},
    replay::{self, Start},
};
use pgn_reader::{RawTag, Reader, Visitor};
use shakmaty::Position;

/// Every game's text in a shared folder, read as the CLI reads a folder.
fn games(folder: &str, each: &mut dyn FnMut(&str, usize, &[u8])) -> usize {
    let (sources, errors) = expand_inputs(&[data(folder).display().to_string()]);
    assert!(errors.is_empty(), "{errors:?}");
    let mut n = 0;
    for source in sources {
        let name = source.name().to_string();
        let Ok(reader) = open(&source) else { continue };
        let mut sp = Splitter::new(reader);
        while let Ok(Some(batch)) = sp.next_batch(1 << 20) {
            for g in &batch.games {
                n += 1;
                each(&name, g.index as usize, &batch.data[g.start..g.end]);
            }
        }
    }
    n
}

/// The tag reading this crate did through pgn-reader before it had its own.
struct PgnReaderTags(Tags);

impl Visitor for PgnReaderTags {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        let t = &mut self.0;
        t.count += 1;
        let Some(slot) = t.slot_mut(name) else {
            return ControlFlow::Continue(());
        };
        let v = value.decode();
        let text = pgn::decode_text(&v);
        let redecoded = matches!(text, Cow::Owned(_));
        *slot = text.into_owned();
        if redecoded {
            t.redecoded.push(String::from_utf8_lossy(name).into_owned());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) {}
}

fn pgn_reader_tags(text: &[u8]) -> (Tags, bool) {
    let section = &text[..scan::tags_end(text)];
    let mut v = PgnReaderTags(Tags::default());
    if section.is_empty() {
        return (v.0, false);
    }
    let mut reader = Reader::new(section.chain(&b"\n"[..]));
    let mut failed = false;
    loop {
        match reader.read_game(&mut v) {
            Ok(Some(())) => {}
            Ok(None) => break,
            Err(_) => {
                failed = true;
                break;
            }
        }
    }
    (v.0, failed)
}

#[test]
fn tags_read_as_pgn_reader_reads_them() {
    let mut compared = 0;
    for folder in ["games-with-clocks", "parser-edge-cases"] {
        compared += games(folder, &mut |file, index, text| {
            let ours: ParsedGame = pgn::parse_game(text);
            let (theirs, failed) = pgn_reader_tags(text);
            let (mut ours, mut theirs) = (ours, theirs);
            let ours_result = ours.tags.slot_mut(b"Result").map(std::mem::take);
            let theirs_result = theirs.slot_mut(b"Result").cloned();
            match (ours_result, theirs_result) {
                (Some(ours), Some(theirs)) if theirs.is_empty() && !ours.is_empty() => {
                    // No Result tag: the record's result is its termination
                    // marker, the last word of the text.
                    let text = String::from_utf8_lossy(text);
                    let last = text.split_whitespace().last().unwrap_or_default();
                    let marker = last.replace(['–', '—'], "-");
                    let want = match marker.trim_end_matches("ff") {
                        "1-0" | "1.0-0.0" => "1-0",
                        "0-1" | "0.0-1.0" => "0-1",
                        "1/2-1/2" | "½-½" | "1/2" | "½" | "0.5-0.5" => "1/2-1/2",
                        other => other,
                    };
                    assert_eq!(ours, want, "{file} game {index}: from {last:?}");
                }
                (ours, theirs) => assert_eq!(ours, theirs, "{file} game {index}"),
            }
            if let Some(slot) = theirs.slot_mut(b"Result") {
                slot.clear();
            }
            // A value with no closing quote: pgn-reader keeps the line's
            // `]` in it, we leave it out and say so.
            for name in std::mem::take(&mut ours.tags.unclosed) {
                if let Some(slot) = theirs.slot_mut(name.as_bytes()) {
                    let cut = slot.trim_end().trim_end_matches(']').trim_end().to_string();
                    *slot = cut;
                }
            }
            assert_eq!(ours.tags, theirs, "{file} game {index}");
            if failed {
                assert!(ours.error.is_some(), "{file} game {index}");
            }
        });
    }
    assert!(compared > 41_000, "{compared}");
}

#[test]
fn quick_san_resolver_agrees_with_shakmaty_on_every_ply() {
    let (mut plies, mut quick) = (0u64, 0u64);
    games("games-with-clocks", &mut |file, index, text| {
        let game = pgn::parse_game(text);
        let Start::Position(mut pos, _) = replay::start_position(&game.tags) else {
            return;
        };
        for (i, ply) in game.plies.iter().enumerate() {
            if ply.uci.is_some() {
                return;
            }
            let strict = ply.san.san.to_move(&pos).ok();
            if let Some(m) = replay::resolve::quick(&pos, &ply.san.san) {
                quick += 1;
                assert_eq!(Some(m), strict, "{file} game {index} ply {}", i + 1);
            }
            plies += 1;
            let Some(m) = replay::resolve(&pos, ply) else {
                return;
            };
            pos.play_unchecked(m);
        }
    });
    eprintln!("quick resolver: {quick} of {plies} plies");
    // Nearly every ply is settled by the quick path.
    assert!(plies > 3_000_000, "{plies}");
    assert!(quick * 100 > plies * 95, "{quick} of {plies}");
}

#[test]
fn plain_tag_sections_read_in_one_pass_as_the_general_way_reads_them() {
    let (mut plain, mut general) = (0, 0);
    for folder in ["games-with-clocks", "parser-edge-cases"] {
        games(folder, &mut |file, index, text| {
            let mut fast = Tags::default();
            let Some(start) = pgn::tags::read_plain_tags(text, &mut fast) else {
                general += 1;
                return;
            };
            plain += 1;
            let movetext = scan::tags_end(text);
            assert_eq!(start, movetext, "{file} game {index}");
            let mut slow = Tags::default();
            if movetext > 0 {
                assert_eq!(
                    pgn::tags::read_tags(&text[..movetext], &mut slow),
                    Ok(()),
                    "{file} game {index}"
                );
            }
            assert_eq!(fast, slow, "{file} game {index}");
        });
    }
    eprintln!("tag sections: {plain} plain, {general} read the general way");
    // The exports are plain; the parser test files exercise the general way.
    assert!(plain > 40_000, "{plain}");
    assert!(general > 20, "{general}");
}

#[test]
fn quick_san_reader_agrees_with_shakmaty_on_every_token() {
    let (mut tokens, mut quick) = (0u64, 0u64);
    for folder in ["games-with-clocks", "parser-edge-cases"] {
        games(folder, &mut |file, index, text| {
            let game = pgn::parse_game(text);
            for (i, ply) in game.plies.iter().enumerate() {
                let tok = ply.token.text(text);
                tokens += 1;
                if let Some(ours) = pgn::san::quick(tok) {
                    quick += 1;
                    let theirs = shakmaty::san::SanPlus::from_ascii(tok).ok();
                    assert_eq!(Some(ours), theirs, "{file} game {index} ply {}", i + 1);
                }
            }
        });
    }
    eprintln!("quick SAN reader: {quick} of {tokens} tokens");
    assert!(quick * 100 > tokens * 99, "{quick} of {tokens}");
}

/// A line as shakmaty writes it: each move tested with `is_legal`, written
/// with `SanPlus` (which asks for the game's outcome after every ply).
fn shakmaty_numbered_line(pos: &shakmaty::Chess, line: &[shakmaty::Move]) -> String {
    let mut p = pos.clone();
    let mut n = pos.fullmoves().get();
    let mut words = Vec::new();
    for (i, &m) in line.iter().enumerate() {
        if !p.is_legal(m) {
            break;
        }
        let white = p.turn() == shakmaty::Color::White;
        let san = shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut p, m);
        words.push(match (white, i) {
            (true, _) => format!("{n}. {san}"),
            (false, 0) => format!("{n}... {san}"),
            (false, _) => san.to_string(),
        });
        if !white {
            n += 1;
        }
    }
    words.join(" ")
}

#[test]
fn mating_lines_are_written_as_shakmaty_writes_them() {
    use arbiter::analysis::mate::{line_mates, numbered_line};
    let (mut lines, mut mates) = (0u64, 0u64);
    games("games-with-clocks", &mut |file, index, text| {
        let game = pgn::parse_game(text);
        let Start::Position(start, _) = replay::start_position(&game.tags) else {
            return;
        };
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for ply in &game.plies {
            let Some(m) = replay::resolve(&pos, ply) else {
                break;
            };
            pos.play_unchecked(m);
            moves.push(m);
        }
        // The whole game, and the game from its middle with the opening's
        // first move put back in, where it is illegal and the line stops.
        let ours = numbered_line(&start, &moves);
        assert_eq!(
            ours,
            shakmaty_numbered_line(&start, &moves),
            "{file} game {index}"
        );
        let mut mid = start.clone();
        let half = moves.len() / 2;
        for &m in &moves[..half] {
            mid.play_unchecked(m);
        }
        let mut cut: Vec<_> = moves[half..].to_vec();
        if let Some(&first) = moves.first() {
            cut.insert(cut.len() / 2, first);
        }
        assert_eq!(
            numbered_line(&mid, &cut),
            shakmaty_numbered_line(&mid, &cut),
            "{file} game {index} from ply {half}"
        );
        let white = start.turn();
        for winner in [white, !white] {
            let mated = line_mates(&start, &moves, winner);
            assert_eq!(
                mated,
                pos.is_checkmate() && pos.turn() != winner,
                "{file} game {index}"
            );
            mates += u64::from(mated);
        }
        lines += 2;
    });
    eprintln!("mating lines: {lines} lines compared, {mates} ending in mate");
    assert!(lines > 80_000 && mates > 1_000, "{lines} {mates}");
}
