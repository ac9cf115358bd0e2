//! The bodies of the fuzz targets in `fuzz/`, kept in the library so the test
//! suite can run them over a seed corpus too (a smoke run in seconds).
//! Each panics only on a broken invariant.

use crate::{
    pgn::{clock::parse_comment, time_control::TimeControl},
    pipeline::judge_text,
    read::split::Splitter,
    report::tsv::analyse_row,
    rules::Ruleset,
    season::{model, process},
};

/// Split, parse, replay and judge every game of `data`, under two rulesets.
pub fn pgn_game(data: &[u8], rules: &[Ruleset]) {
    let mut sp = Splitter::new(data);
    while let Ok(Some(batch)) = sp.next_batch(1 << 16) {
        for g in &batch.games {
            for r in rules {
                let (_, j) = judge_text(&batch.data[g.start..g.end], r);
                assert!(
                    !j.verdict.rule.as_str().is_empty(),
                    "a verdict without a citation"
                );
            }
        }
    }
}

/// Clock comments and TimeControl tags: a parsed control prints back the same.
pub fn clock_and_time_control(data: &[u8]) {
    let _ = parse_comment(data);
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(tc) = TimeControl::parse(s) {
            let again = TimeControl::parse(&tc.to_string()).expect("a printed control parses");
            assert_eq!(again, tc);
            for n in [1, 2, 36, 40, 41, 1000] {
                let _ = (tc.increment(n), tc.added_after(n), tc.is_final_period(n));
            }
        }
    }
}

/// `arbiter analyse` on any text: one eight-column row.
pub fn fen(data: &[u8]) {
    if data.len() > 200 {
        return;
    }
    let row = analyse_row(&String::from_utf8_lossy(data), None);
    assert_eq!(row.split('\t').count(), 8, "{row:?}");
}

/// A user's ruleset file: a ruleset or an error.
pub fn ruleset_toml(data: &[u8]) {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = Ruleset::from_toml("fuzz.toml", s);
    }
}

/// A season file: refused with an error, or checked and processed.
pub fn season_toml(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(raw) = toml::from_str::<model::RawSeason>(s) else {
        return;
    };
    let judge = |_: &std::path::Path| -> Result<Vec<model::PgnGame>, String> {
        Err("no PGN when fuzzing".into())
    };
    let Some(league) = crate::season::League::builtin(&raw.rules.0) else {
        return;
    };
    if let Ok(season) = model::validate("fuzz.toml", raw, league, &judge) {
        let _ = process(&season);
    }
}

/// A claim file with its moves inline: refused with an error naming the
/// field, or judged and drawn as a packet. Paths resolve inside a folder
/// that does not exist, so nothing outside is read.
pub fn claim_toml(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let base = std::path::Path::new("/nonexistent/arbiter-fuzz");
    let opts = crate::claim::LoadOptions::default();
    if let Ok(claim) = crate::claim::file::parse_claim("fuzz.toml", "fuzz", s, base, opts) {
        let ruling = crate::judge::claim::judge_claim(claim, None);
        let _ = crate::report::packet::render(
            &crate::report::packet::claim_packet(&ruling),
            crate::report::packet::Made(0),
        );
    }
}

/// A folder to resolve fuzzed paths against, with a file, a sub-folder and
/// symbolic links out of it (to its parent and to `/`).
fn containment_base() -> &'static std::path::Path {
    static BASE: std::sync::OnceLock<Option<tempfile::TempDir>> = std::sync::OnceLock::new();
    let dir = BASE.get_or_init(|| {
        let d = tempfile::tempdir().ok()?;
        let root = d.path();
        std::fs::create_dir_all(root.join("sub")).ok()?;
        std::fs::write(root.join("game.pgn"), "1. e4 *\n").ok()?;
        #[cfg(unix)]
        {
            let _ = std::os::unix::fs::symlink("..", root.join("up"));
            let _ = std::os::unix::fs::symlink("/", root.join("sub/root"));
        }
        Some(d)
    });
    dir.as_ref()
        .map_or(std::path::Path::new("/nonexistent"), |d| d.path())
}

/// The containment rule for paths a claim or season file names: whatever
/// the text, an accepted path lies inside the folder, reached through real
/// folders only (no `..`, no root, no symbolic link on the way).
pub fn contained_path(data: &[u8]) {
    use std::path::Component;
    let Ok(rel) = std::str::from_utf8(data) else {
        return;
    };
    let base = containment_base();
    let Ok(path) = crate::read::contained::contained(base, rel, false) else {
        return;
    };
    let rest = path
        .strip_prefix(base)
        .expect("an accepted path lies inside the folder");
    let mut at = base.to_path_buf();
    for c in rest.components() {
        assert!(
            matches!(c, Component::Normal(_) | Component::CurDir),
            "{rel:?} reached {path:?} through {c:?}"
        );
        at.push(c);
        if let Ok(meta) = std::fs::symlink_metadata(&at) {
            assert!(
                !meta.file_type().is_symlink(),
                "{rel:?} follows a link at {at:?}"
            );
        }
    }
}

/// A ruleset for the targets that need one, loaded once.
fn fide_rapid() -> &'static Ruleset {
    static RULES: std::sync::OnceLock<Ruleset> = std::sync::OnceLock::new();
    RULES.get_or_init(|| Ruleset::load("fide-rapid").expect("a built-in ruleset"))
}

/// Every game of `data`, whatever its tags and moves (long words, any
/// script, a game of any length), drawn as a review sheet: the layout
/// never panics and gives a PDF.
pub fn packet_layout(data: &[u8]) {
    let rules = fide_rapid();
    let mut sp = Splitter::new(data);
    while let Ok(Some(batch)) = sp.next_batch(1 << 16) {
        for g in &batch.games {
            let (game, j) = judge_text(&batch.data[g.start..g.end], rules);
            let record = crate::replay::record::from_game("fuzz.pgn", &game, 1, rules);
            let packet =
                crate::report::packet::game_packet("fuzz.pgn", g.index, &record, &j, rules);
            let pdf = crate::report::packet::render(&packet, crate::report::packet::Made(0));
            assert!(pdf.starts_with(b"%PDF"), "not a PDF");
        }
    }
}

/// The review page of every game of `data`: written as the games come
/// (sections spooled to a temporary file) it is the page built in memory,
/// one section an item, and it ends as a page does.
pub fn review_page(data: &[u8]) {
    use crate::report::review::{page, PageWriter};
    let rules = fide_rapid();
    let mut items = Vec::new();
    let mut sp = Splitter::new(data);
    while let Ok(Some(batch)) = sp.next_batch(1 << 16) {
        for g in &batch.games {
            let text = &batch.data[g.start..g.end];
            let (game, j) = judge_text(text, rules);
            let judged = crate::pipeline::Judged {
                source: "fuzz.pgn",
                index: g.index,
                offset: g.offset,
                text: Some(text),
                game: &game,
                judgement: &j,
                packet: g.index % 2 == 0,
            };
            items.push(crate::report::batch::review_item(
                &judged,
                &j,
                rules,
                &Default::default(),
            ));
        }
    }
    let memory = page("fuzz", "totals", &items);
    let Ok(mut w) = PageWriter::spooled() else {
        return;
    };
    for it in &items {
        w.add(it).expect("a temporary file takes the section");
    }
    let mut spooled = Vec::new();
    w.finish("fuzz", "totals", &mut spooled)
        .expect("the page is written");
    assert_eq!(
        spooled,
        memory.as_bytes(),
        "spooled and in-memory pages differ"
    );
    assert!(memory.ends_with("</body></html>\n"));
    // One entry an item, each title as it was: no value ends the data
    // element early.
    let data = crate::report::review::page_data(&memory).expect("the page's data reads back");
    let titles: Vec<&str> = data["items"]
        .as_array()
        .map(|a| a.iter().filter_map(|i| i["t"].as_str()).collect())
        .unwrap_or_default();
    let want: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(titles, want, "one entry an item");
}
