//! The review page in a real browser, driven by script: tests/browser/
//! review.mjs (puppeteer-core over the system Chromium) opens the samples'
//! page and a 5,000-item page, times the opening, checks every board the
//! page draws against the FENs written here, filters, pages, moves with the
//! keys, records two decisions and downloads the decisions file. This side
//! checks that file cell by cell and gives it back to `adjudicate
//! --decisions`: the two games come out `decided`.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::Command,
};

use crate::common::{self, data, parse_csv, Row};

/// The most the 5,000-item page may take to open (issue 33).
const OPEN_MS: u64 = 3_000;

const BY: &str = "A. Arbiter, IA";

fn arbiter_in(dir: &Path, args: &[&str]) -> std::process::Output {
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run arbiter");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// A page to drive: where `adjudicate` ran and what it was given besides
/// the outputs (run beside the inputs, so the items' titles name them as a
/// user would), the results it wrote, and the folder the page and the
/// download go to.
struct Page {
    name: &'static str,
    cwd: PathBuf,
    dir: PathBuf,
    inputs: Vec<String>,
    rows: Vec<Row>,
}

impl Page {
    fn build(name: &'static str, root: &Path, cwd: &Path, inputs: &[&str]) -> Page {
        let dir = root.join(name);
        std::fs::create_dir_all(dir.join("downloads")).unwrap();
        let (results, page) = (dir.join("results.csv"), dir.join("review.html"));
        let mut args = vec!["adjudicate", "-q"];
        args.extend_from_slice(inputs);
        args.extend_from_slice(&[
            "-o",
            results.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
        ]);
        arbiter_in(cwd, &args);
        let rows = parse_csv(&std::fs::read(results).unwrap());
        Page {
            name,
            cwd: cwd.to_path_buf(),
            dir,
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            rows,
        }
    }

    fn unconfirmed(&self) -> Vec<&Row> {
        self.rows
            .iter()
            .filter(|r| r["status"] != "confirmed")
            .collect()
    }

    fn title(r: &Row) -> String {
        format!("{}, game {}", r["source"], r["game"])
    }

    /// How many items the page's player filter finds for `who`.
    fn with_player(&self, who: &str, status: Option<&str>) -> usize {
        self.unconfirmed()
            .iter()
            .filter(|r| status.is_none_or(|s| r["status"] == s))
            .filter(|r| {
                format!("{} | {}", r["white"], r["black"])
                    .to_lowercase()
                    .contains(&who.to_lowercase())
            })
            .count()
    }

    /// What the script is told: the counts the page must show, a player to
    /// find, the boards it must draw, the two decisions to record.
    fn spec(&self, player: &str, decide: serde_json::Value) -> serde_json::Value {
        let items = self.unconfirmed();
        let mut statuses: BTreeMap<&str, usize> = BTreeMap::new();
        let mut events: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for r in &items {
            *statuses.entry(&r["status"]).or_default() += 1;
            *events.entry((&r["event"], &r["status"])).or_default() += 1;
        }
        let ((event, estatus), en) = events
            .iter()
            .max_by_key(|(_, &n)| n)
            .map(|(k, &n)| (*k, n))
            .unwrap();
        let status = *statuses.keys().next().unwrap();
        serde_json::json!({
            "name": self.name,
            "path": self.dir.join("review.html"),
            "downloads": self.dir.join("downloads"),
            "items": items.len(),
            "statuses": statuses,
            "event": [event, estatus, en],
            "player": [player, self.with_player(player, None)],
            "query": [
                format!("?status={status}&player={}", player.to_uppercase()),
                self.with_player(player, Some(status)),
            ],
            "finals": items
                .iter()
                .map(|r| [Self::title(r), r["final_fen"].clone()])
                .collect::<Vec<_>>(),
            "decide": decide,
        })
    }

    /// The results again with the downloaded decisions.
    fn with_decisions(&self, decisions: &Path) -> (Vec<Row>, String) {
        let mut args: Vec<&str> = vec!["adjudicate", "-q"];
        args.extend(self.inputs.iter().map(String::as_str));
        let d = decisions.to_str().unwrap();
        args.extend_from_slice(&["--decisions", d]);
        let o = arbiter_in(&self.cwd, &args);
        (
            parse_csv(&o.stdout),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }
}

fn today() -> String {
    let o = Command::new("date").arg("+%F").output().expect("date");
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

#[test]
fn review_page_driven_in_chromium() {
    if !common::tools(
        "review_page_driven_in_chromium",
        &[common::Tool::Chromium, common::Tool::Node],
    ) {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let samples_page = Page::build(
        "samples",
        root.path(),
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["samples"],
    );
    // 5,094 lichess games under review: a seventh of one player's export,
    // judged under rules not for bullet and blitz, with --strict-rules.
    let big = Page::build(
        "big",
        root.path(),
        &data("games-with-clocks"),
        &[
            "--strict-rules",
            "-r",
            "fide-rapid",
            "--shard",
            "1/7",
            "lichess_jishanshaikh4_all-games_to-2022-05.pgn",
        ],
    );
    assert_eq!(samples_page.unconfirmed().len(), 10);
    assert_eq!(big.unconfirmed().len(), 5_094);

    let decide = serde_json::json!([
        { "result": "1-0", "note": "both clocks seen; \"flag\" down" },
        { "result": "1/2-1/2", "ground": "FIDE 9.1.2, by agreement", "note": "agreed, both present" },
    ]);
    // A player of a few of the big page's games (not the export's owner).
    let player = big.unconfirmed()[2]["white"].clone();
    assert_ne!(player, "jishanshaikh4");
    let config = serde_json::json!({
        "chromium": common::installed(&["/usr/bin/chromium", "/usr/bin/chromium-browser"], "chromium"),
        "by": BY,
        "screenshots": std::env::var("ARBITER_SCREENSHOTS").ok(),
        "pages": [samples_page.spec("whitfield", decide.clone()), big.spec(&player, decide.clone())],
    });
    let config_path = root.path().join("config.json");
    std::fs::write(&config_path, config.to_string()).unwrap();
    let o = Command::new("node")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("tests/browser/review.mjs")
        .arg(&config_path)
        .output()
        .expect("run node");
    assert!(
        o.status.success(),
        "tests/browser/review.mjs failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let stdout = String::from_utf8(o.stdout).unwrap();
    let results: Vec<serde_json::Value> =
        serde_json::from_str(stdout.lines().last().unwrap()).unwrap();

    for (page, got) in [&samples_page, &big].into_iter().zip(&results) {
        assert_eq!(got["name"], page.name);
        let size = std::fs::metadata(page.dir.join("review.html"))
            .unwrap()
            .len();
        let ms = got["loadMs"].as_u64().unwrap();
        eprintln!(
            "review page {}: {} items, {:.1} MB, opened in {ms} ms",
            page.name,
            page.unconfirmed().len(),
            size as f64 / 1e6
        );
        if page.name == "big" {
            assert!(ms <= OPEN_MS, "the 5,094-item page took {ms} ms to open");
            assert!(size < 10_000_000, "{size} bytes");
        }

        // The decisions file, cell by cell: in the page's order, each game
        // by its key, the typed ground or else the rule of the ruling.
        let decided: Vec<&str> = got["decided"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        let items = page.unconfirmed();
        let mut expected: Vec<(usize, Vec<String>)> = decided
            .iter()
            .zip(decide.as_array().unwrap())
            .map(|(title, d)| {
                let at = items
                    .iter()
                    .position(|r| Page::title(r) == *title)
                    .unwrap_or_else(|| panic!("{title} is no item"));
                let r = items[at];
                (
                    at,
                    vec![
                        r["game_key"].clone(),
                        d["result"].as_str().unwrap().to_string(),
                        d.get("ground")
                            .map_or(r["rule"].clone(), |g| g.as_str().unwrap().to_string()),
                        BY.to_string(),
                        today(),
                        d["note"].as_str().unwrap().to_string(),
                    ],
                )
            })
            .collect();
        expected.sort();
        let csv = got["csv"].as_str().unwrap();
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        assert_eq!(
            reader.headers().unwrap().iter().collect::<Vec<_>>(),
            [
                "game_key",
                "result",
                "rule",
                "decided_by",
                "decided_on",
                "note"
            ]
        );
        let cells: Vec<Vec<String>> = reader
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect();
        let want: Vec<Vec<String>> = expected.into_iter().map(|(_, v)| v).collect();
        assert_eq!(cells, want, "{csv}");

        // Given back to adjudicate: those two games are decided, as
        // decided; every other game as it was.
        let file = page.dir.join("downloads/decisions.csv");
        let (after, stderr) = page.with_decisions(&file);
        assert!(!stderr.contains("not applied"), "{stderr}");
        assert_eq!(after.len(), page.rows.len());
        let mut n = 0;
        for (before, now) in page.rows.iter().zip(&after) {
            match want.iter().find(|w| w[0] == before["game_key"]) {
                Some(w) => {
                    n += 1;
                    common::assert_cells(
                        now,
                        &[("status", "decided"), ("result", &w[1]), ("rule", &w[2])],
                    );
                    let on = format!("decided {} by {BY} on {}: {}", w[1], w[4], w[5]);
                    assert!(now["detail"].starts_with(&on), "{}", now["detail"]);
                }
                None => assert_eq!(now["status"], before["status"]),
            }
        }
        assert_eq!(n, 2);
    }
}
