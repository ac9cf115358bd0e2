//! `arbiter claim`: every sample claim's recommendation asserted exactly,
//! every packet read back (`pdftotext`) for the diagram, names, clocks and
//! ruling and rasterised (`pdftoppm`); broken claims named, the batch going on.

use crate::common;

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    process::Command,
};

use arbiter::claim::{load_claim, CheckId, CheckOutcome, LoadOptions, Recommendation, Ruling};
use arbiter::judge::claim::judge_claim;
use common::{arbiter, data, parse_csv, sample, Row};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position, Square};

fn run_samples(extra: &[&str]) -> (tempfile::TempDir, BTreeMap<String, Row>) {
    let out = tempfile::tempdir().unwrap();
    let claims = sample("claims");
    let mut args = vec![
        "claim",
        claims.to_str().unwrap(),
        "-o",
        out.path().to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = arbiter(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rows = parse_csv(&std::fs::read(out.path().join("claims.csv")).unwrap());
    let by_claim = rows.into_iter().map(|r| (r["claim"].clone(), r)).collect();
    (out, by_claim)
}

#[test]
fn every_sample_claim_gets_its_recommendation() {
    let (_dir, rows) = run_samples(&[]);
    // claim: recommendation, if upheld, if rejected, rule, checks failed
    let want = [
        ("bcf-illegal", "uphold", "0-1", "*", "BCF RP 12", ""),
        (
            "bcf-krkn",
            "uphold",
            "1/2-1/2",
            "0-1",
            "BCF RP NA-6; BCF RP NA-2(a)",
            "",
        ),
        (
            "ecf-both-flags",
            "reject",
            "0-1",
            "1/2-1/2",
            "ECF QPF 10",
            "claimant-flag-up;both-flags-down",
        ),
        (
            "ecf-progress",
            "reject",
            "1/2-1/2",
            "1-0",
            "BCF RP NA-6; ECF QPF 11(b)",
            "no-effort",
        ),
        (
            "ecf-shuffle",
            "uphold",
            "1/2-1/2",
            "1-0",
            "ECF QPF 12; ECF QPF 11(b)",
            "",
        ),
        (
            "hsl-ilc",
            "reject",
            "1/2-1/2",
            "*",
            "HSL SD-ILC (2)",
            "normal-means",
        ),
        // K+R v K+R: a clear draw for a table or an arbiter to say.
        ("sabah-appeal", "refer", "1/2-1/2", "*", "Sabah v.8", ""),
    ];
    assert_eq!(rows.len(), want.len());
    for (claim, rec, up, rej, rule, failed) in want {
        let r = &rows[claim];
        let got = (
            r["recommendation"].as_str(),
            r["result_if_upheld"].as_str(),
            r["result_if_rejected"].as_str(),
            r["rule"].as_str(),
            r["checks_failed"].as_str(),
        );
        assert_eq!(
            got,
            (rec, up, rej, rule, failed),
            "{claim}: {}",
            r["detail"]
        );
    }
    assert!(rows["ecf-progress"]["detail"].contains("3 pawn moves"));
    assert!(rows["ecf-progress"]["detail"]
        .contains("White pushed 66. e4, 67. e5, 69. e6+, and that is progress"));
    // Every count is of White's 6 moves: 5 of them back to a position seen
    // before (it counted 9, Black's moves among them).
    assert_eq!(
        rows["ecf-shuffle"]["detail"],
        "White made no effort to win: White in 6 moves: 0 captures, 0 pawn moves, 0 checks; 5 repeated positions; king on 2 squares"
    );
    assert_eq!(
        rows["bcf-krkn"]["detail"],
        "K+N v K+R: a single minor piece, or two knights, cannot force mate"
    );
    assert!(rows["sabah-appeal"]["detail"].starts_with("needs a judgement: K+R v K+R: whether Black can win by normal means needs an arbiter's judgement (no tablebase given)"));
    // K+P v K needs no tablebase (a referral's wording: judge::claim::draw).
    assert!(rows["hsl-ilc"]["detail"].starts_with("K+P v K: computed exactly: a win for White"));
    // What follows in words, where the result column says `*`.
    assert!(rows["hsl-ilc"]["detail"]
        .ends_with("; if rejected: play continues; Black's clock 0:04:08 to 0:03:08"));
    assert!(rows["sabah-appeal"]["detail"]
        .ends_with("; if rejected: play continues; White's clock 0:06:30 to 0:02:00"));
}

#[test]
fn tablebases_settle_the_pawn_ending() {
    let tb = data("syzygy");
    if !tb.join("KPvK.rtbw").exists() {
        panic!("the Syzygy tables are missing from {}", tb.display());
    }
    let (_dir, rows) = run_samples(&["--syzygy", tb.to_str().unwrap()]);
    let r = &rows["hsl-ilc"];
    // K+P on the sixth with its king beside it wins: the claim is clearly wrong (option 2).
    assert_eq!(r["recommendation"], "reject", "{}", r["detail"]);
    assert_eq!(r["rule"], "HSL SD-ILC (2)");
    assert!(
        r["detail"].contains("Syzygy tablebase: a win"),
        "{}",
        r["detail"]
    );
    assert_eq!(rows["bcf-krkn"]["recommendation"], "uphold");
    // K+R v K+R, drawn for both sides by the tables: a clear draw.
    let r = &rows["sabah-appeal"];
    assert_eq!(r["recommendation"], "uphold", "{}", r["detail"]);
    assert_eq!(r["rule"], "Sabah v.8(a)");
    assert!(r["detail"].starts_with("K+R v K+R: Syzygy tablebase: no win for Black; and for the appellant: K+R v K+R: Syzygy tablebase: no win for White"), "{}", r["detail"]);
}

/// Ground (a) rests on a proof, never on material alone: a forced mate
/// found rejects the claim whatever the men; equal men (K+R v K+R) with no
/// mate found wait for a table or an arbiter; the tables settle them.
#[test]
fn a_forced_mate_outweighs_drawn_looking_material() {
    let claim = |ruleset: &str, claimant: &str, fen: &str| {
        format!("kind = \"draw-last-two-minutes\"\nruleset = \"{ruleset}\"\narbiter = false\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"{claimant}\"\nfinal_fen = \"{fen}\"\nclock_white = \"0:06:00\"\nclock_black = \"0:01:30\"\nfees_paid = [\"{claimant}\"]\n")
    };
    // White to move has Rb8 mate; Black claims that White cannot win.
    let mate_in_one = "7k/8/6K1/8/8/8/r7/1R6 w - - 0 60";
    let r = judge(&claim("bcf-rapid", "black", mate_in_one), &[]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(r.result_if_rejected, "1-0");
    assert_eq!(r.detail, "K+R v K+R: forced mate in 1 found for White");
    // The knight side claims against the rook with its knight stranded.
    let r = judge(
        &claim("bcf-rapid", "black", "7k/8/6K1/8/8/8/1R6/n7 b - - 0 60"),
        &[],
    );
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert!(
        r.detail.starts_with("K+R v K+N: forced mate in "),
        "{}",
        r.detail
    );
    // K+R v K+R with no mate near: what is missing is said.
    let level = "8/8/8/6R1/5K2/r7/5k2/8 w - - 1 58";
    let r = judge(&claim("bcf-rapid", "black", level), &[]);
    assert_eq!(r.recommendation, Recommendation::Refer, "{}", r.detail);
    assert_eq!(r.detail, "needs a judgement: K+R v K+R: whether White can win by normal means needs an arbiter's judgement (no tablebase given)");
    let tb = arbiter::analysis::forced::Syzygy::open(&data("syzygy")).unwrap();
    let r = judge_with(&claim("bcf-rapid", "black", level), &[], Some(&tb));
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
    assert_eq!(r.detail, "K+R v K+R: Syzygy tablebase: no win for White");
}

/// Ground (b) is judged on the moves before the claim as played: a
/// scoresheet that stops at a slip has no such moves (its opening does not
/// stand in for them). Without clock times the last 20 moves stand for
/// the period the text does not name, and pushes there are progress.
#[test]
fn no_effort_needs_the_moves_before_the_claim() {
    let claim = |sheet: &str| {
        let toml = std::fs::read_to_string(sample("claims/ecf-progress.toml"))
            .unwrap()
            .replace("ecf-progress.pgn", "s.pgn");
        judge(&toml, &[("s.pgn", sheet)])
    };
    let progress = std::fs::read_to_string(sample("claims/ecf-progress.pgn")).unwrap();
    let r = claim(&progress);
    assert_eq!(outcome(&r, CheckId::NoEffort), CheckOutcome::Fail);
    assert_eq!(r.recommendation, Recommendation::Reject);
    // One move mistyped (22. Qa4 as Qa5): the replay stops there.
    let typo = progress.replacen("22. Qa4", "22. Qa5", 1);
    assert_ne!(typo, progress);
    let r = claim(&typo);
    let c = r.check(CheckId::NoEffort).unwrap();
    assert_eq!(c.outcome, CheckOutcome::Unknown);
    assert_eq!(c.detail, "the scoresheet replays only up to 21... Bxc8, short of the claim: what White did in Black's last minutes cannot be read from it");
    assert_eq!(r.recommendation, Recommendation::Refer);
    // The same sheet on paper, no clock times: the pushes are in the last
    // twenty moves, and White "was trying to make progress" (BCF RP GAA).
    let mut paper = String::new();
    let mut rest = progress.as_str();
    while let Some(at) = rest.find('{') {
        paper.push_str(&rest[..at]);
        let close = rest[at..].find('}').unwrap();
        rest = &rest[at + close + 1..];
    }
    paper.push_str(rest);
    assert!(!paper.contains("%clk"));
    let r = claim(&paper);
    let c = r.check(CheckId::NoEffort).unwrap();
    assert_eq!(c.outcome, CheckOutcome::Fail, "{}", c.detail);
    assert!(c.detail.starts_with("White was making progress: White pushed 51. h4, 55. g4, 66. e4, 67. e5, 69. e6+ and captured with 53. hxg5, 56. Kxg3, 64. Kxe4"), "{}", c.detail);
    assert_eq!(r.recommendation, Recommendation::Reject);
}

/// The text of the packet for sample claim `name`, its claim file edited
/// by `edit`, judged beside its scoresheet in a folder of its own.
fn edited_sample_packet(name: &str, edit: impl Fn(String) -> String) -> String {
    let dir = tempfile::tempdir().unwrap();
    let claim = edit(std::fs::read_to_string(sample(&format!("claims/{name}.toml"))).unwrap());
    std::fs::write(dir.path().join("c.toml"), claim).unwrap();
    std::fs::copy(
        sample(&format!("claims/{name}.pgn")),
        dir.path().join(format!("{name}.pgn")),
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = arbiter(&[
        "claim",
        dir.path().join("c.toml").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    pdftotext(&out.join("c.pdf"), &["-layout"])
}

fn pdftotext(pdf: &Path, args: &[&str]) -> String {
    let o = Command::new("pdftotext")
        .args(args)
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils)");
    assert!(o.status.success());
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The diagram's (square, letter) pairs on page 1, located by its own file
/// and rank labels.
fn diagram_letters(pdf: &Path) -> BTreeSet<(String, char)> {
    let words = common::pdf_words(pdf, &["-f", "1", "-l", "1"]);
    // The file labels: a..h on one line, evenly spaced.
    let files: Vec<&(String, f32, f32)> = "abcdefgh"
        .chars()
        .filter_map(|c| {
            words.iter().find(|(w, _, y)| {
                w == &c.to_string()
                    && words
                        .iter()
                        .any(|(h, _, y2)| h == "h" && (y - y2).abs() < 1.0)
                    && words
                        .iter()
                        .any(|(a, _, y2)| a == "a" && (y - y2).abs() < 1.0)
            })
        })
        .collect();
    assert_eq!(files.len(), 8, "file labels not found");
    let sq = (files[7].1 - files[0].1) / 7.0;
    let x0 = files[0].1 - sq / 2.0;
    let ranks: Vec<(u32, f32)> = (1..=8)
        .filter_map(|r| {
            words
                .iter()
                .find(|(w, x, _)| w == &r.to_string() && *x < x0 && *x > x0 - 2.0 * sq)
                .map(|(_, _, y)| (r, *y))
        })
        .collect();
    assert_eq!(ranks.len(), 8, "rank labels not found");
    let mut out = BTreeSet::new();
    for (w, x, y) in &words {
        if w.len() != 1 || !"KQRBNP".contains(w.as_str()) {
            continue;
        }
        let file = ((x - x0) / sq).floor();
        if !(0.0..8.0).contains(&file) {
            continue;
        }
        let Some((rank, dy)) = ranks
            .iter()
            .map(|(r, ry)| (*r, (ry - y).abs()))
            .min_by(|a, b| a.1.total_cmp(&b.1))
        else {
            continue;
        };
        if dy < sq / 2.0 {
            let s = Square::from_coords(
                shakmaty::File::new(file as u32),
                shakmaty::Rank::new(rank - 1),
            );
            out.insert((s.to_string(), w.chars().next().unwrap()));
        }
    }
    out
}

fn letters_of(fen: &str) -> BTreeSet<(String, char)> {
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    pos.board()
        .iter()
        .map(|(s, p)| (s.to_string(), arbiter::report::diagram::letter(p.role)))
        .collect()
}

#[test]
fn packets_show_the_diagram_names_clocks_and_ruling() {
    if !common::tools(
        "packets_show_the_diagram_names_clocks_and_ruling",
        &[common::Tool::Poppler],
    ) {
        return;
    }
    let (dir, _rows) = run_samples(&[]);
    // claim: final position shown, names, clocks, ruling, men
    let cases = [
        (
            "bcf-krkn",
            "8/8/3k4/3n3R/8/8/3K4/8 w - - 12 64",
            ["Müller, Jürgen (Black)", "Lezcano, Ramón (White)"],
            "White 0:01:19, Black 0:05:30",
            "UPHOLD",
            "Men: White 2, Black 2",
        ),
        (
            "ecf-shuffle",
            "8/8/3k4/8/4K3/4P3/8/8 b - - 12 70",
            ["Ødegaard, Øystein (Black)", "Hartley, Ian (White)"],
            "White 0:03:52, Black 0:01:09",
            "UPHOLD",
            "Men: White 2, Black 1",
        ),
        (
            "ecf-progress",
            "8/4k3/4P3/4K3/8/8/8/8 b - - 2 70",
            ["Dvořák, Tomáš (Black)", "Pearson, Alan (White)"],
            "White 0:03:25, Black 0:01:10",
            "REJECT",
            "Men: White 2, Black 1",
        ),
        (
            "bcf-illegal",
            "2r1r1k1/1b2q1pp/1p1b1n2/p1ppNp2/3P4/PP1nPPP1/1B1Q2BP/2RR2K1 w - - 0 21",
            ["Osei, Daniel (Black)", "Walker, Ben (White)"],
            "White 0:25:05, Black 0:04:30",
            "UPHOLD",
            "Men: White 14, Black 15",
        ),
        (
            "hsl-ilc",
            "8/3K4/2P5/k7/8/8/8/8 b - - 1 77",
            ["Nguyen, Anh (Black)", "Okafor, Chidi (White)"],
            "White 0:05:05, Black 0:04:08",
            "REJECT",
            "Men: White 2, Black 1",
        ),
        (
            "sabah-appeal",
            "8/8/8/6R1/5K2/r7/5k2/8 b - - 1 58",
            ["Jaafar, Azman (White)", "Lim, Wei Ming (Black)"],
            "White 0:06:30, Black 0:10:25",
            "REFER",
            "Men: White 2, Black 2",
        ),
        (
            "ecf-both-flags",
            "3n4/1p3k2/2p2p2/p1Pp2pP/3P1NP1/1P4K1/P7/8 w - - 0 42",
            ["Whitfield, Colin (Black)", "Pearson, Alan (White)"],
            "White 0:00:00.0, Black 0:00:00.0",
            "REJECT",
            "Men: White 8, Black 8",
        ),
    ];
    assert_eq!(
        cases.len(),
        std::fs::read_dir(sample("claims"))
            .unwrap()
            .filter(|e| e
                .as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "toml"))
            .count()
    );
    for (claim, fen, names, clocks, ruling, men) in cases {
        let pdf = dir.path().join(format!("{claim}.pdf"));
        assert_eq!(diagram_letters(&pdf), letters_of(fen), "{claim}");
        let text = pdftotext(&pdf, &["-layout"]);
        for n in names {
            assert!(text.contains(n), "{claim}: {n} missing");
        }
        for s in [clocks, ruling, men, "Decision of the", "Signed:"] {
            assert!(text.contains(s), "{claim}: {s:?} missing");
        }
        // A chart only where the scoresheet has clocks for ten moves or more:
        // bcf-krkn's sheet is an extract of seven.
        assert_eq!(text.contains("Clock chart"), claim != "bcf-krkn", "{claim}");
        let png = dir.path().join(claim);
        let ok = Command::new("pdftoppm")
            .args(["-png", "-r", "40"])
            .arg(&pdf)
            .arg(&png)
            .status()
            .unwrap();
        assert!(ok.success(), "{claim}: pdftoppm failed");
    }
    // The illegal move is marked on the scoresheet, and its rule cited.
    let text = pdftotext(&dir.path().join("bcf-illegal.pdf"), &["-layout"]);
    assert!(text.contains("Kf2*"), "{text}");
    assert!(text.contains("* 21. Kf2 is illegal"), "{text}");
    assert!(text.contains("BCF RP 12"));
    // Who signs: the League Secretary decides in the DDCL (ECF QPF 12), an
    // independent arbiter in a BCF club match (NA-5), the director in the HSL.
    for (claim, who) in [
        (
            "ecf-shuffle",
            "Decision of the League Secretary (ECF QPF 12)",
        ),
        (
            "bcf-krkn",
            "Decision of the independent arbiter (BCF RP NA-5)",
        ),
        (
            "hsl-ilc",
            "Decision of the Tournament Director (HSL SD-ILC)",
        ),
    ] {
        let text = pdftotext(&dir.path().join(format!("{claim}.pdf")), &["-layout"]);
        assert!(text.contains(who), "{claim}: {who:?} missing");
    }
    // Ground (b)'s progress table, and the benefit-of-the-doubt rule's neighbours.
    let text = pdftotext(&dir.path().join("ecf-progress.pdf"), &["-layout"]);
    assert!(text.contains("Progress over the period"), "{text}");
    assert!(
        text.contains("The moves looked at: from 64... Ke6, when Black's clock went under 2:00."),
        "{text}"
    );
    assert!(text.contains("3 pawn moves"));
    assert!(text.contains("ECF QPF 13"));
    // The loss for a failed claim is BCF's, said as borrowed, without
    // BCF's arbiter and returned fee (the League Secretary decides, QPF 12).
    assert!(
        text.contains("Taken from the BCF Rapid Play rules (no arbiter present), as the ECF Quickplay Finish says"),
        "{text}"
    );
    assert!(
        !text.contains("fee returned") && !text.contains("decision is final: upheld"),
        "{text}"
    );
    // A draw claim's chart has the claim window, not the illegal-move
    // rule's five minutes; the date as the claim's dates are written,
    // though the scoresheet's tag has dots.
    assert!(text.contains("2:00 claim window"), "{text}");
    let bcf = pdftotext(&dir.path().join("bcf-illegal.pdf"), &["-layout"]);
    assert!(bcf.contains("5:00 (BCF RP 12)"), "{bcf}");
    // The same progress claim under the BCF rules, whose RP 12 has a limit.
    let draw = edited_sample_packet("ecf-progress", |t| {
        t.replace("ruleset = \"ecf-quickplay\"", "ruleset = \"bcf-rapid\"")
    });
    assert!(draw.contains("2:00 claim window"), "{draw}");
    assert!(!draw.contains("5:00 (BCF RP 12)"), "{draw}");
    let text = edited_sample_packet("bcf-illegal", |t| t.replace("date = 2011-03-08\n", ""));
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("Date of play") && l.contains(" 2011-03-08 ")),
        "{text}"
    );
    assert!(!text.contains("2011.03.08"), "{text}");
}

#[test]
fn long_scoresheets_flow_onto_more_pages() {
    if !common::tools(
        "long_scoresheets_flow_onto_more_pages",
        &[common::Tool::Poppler],
    ) {
        return;
    }
    let (dir, _rows) = run_samples(&[]);
    let info = Command::new("pdfinfo")
        .arg(dir.path().join("ecf-shuffle.pdf"))
        .output()
        .unwrap();
    let pages: u32 = String::from_utf8_lossy(&info.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("Pages:").map(|p| p.trim().parse().unwrap()))
        .unwrap();
    assert!(pages >= 2, "{pages}");
    let text = pdftotext(&dir.path().join("ecf-shuffle.pdf"), &["-layout"]);
    // Move 1 and move 70 both on the sheet, with clocks.
    assert!(text.contains("1.") && text.contains("70."));
    assert!(text.contains(&format!("page {pages} of {pages}")));
}

/// Writes a claim (and files beside it) into a fresh folder and judges it.
fn judge(claim: &str, files: &[(&str, &str)]) -> Ruling {
    judge_with(claim, files, None)
}

/// `judge`, with tablebases.
fn judge_with(
    claim: &str,
    files: &[(&str, &str)],
    syzygy: Option<&arbiter::analysis::forced::Syzygy>,
) -> Ruling {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let path = dir.path().join("c.toml");
    std::fs::write(&path, claim).unwrap();
    let c = load_claim(&path, LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    judge_claim(c, syzygy)
}

fn outcome(r: &Ruling, check: CheckId) -> CheckOutcome {
    r.check(check)
        .unwrap_or_else(|| panic!("no check {check}"))
        .outcome
}

/// BCF RP GAA's case: Black, with king and rook, claims against White's
/// king and knight.
const KRKN: &str = "[FEN \"8/8/3K4/3N3r/8/3k4/8/8 w - - 0 64\"]\n[SetUp \"1\"]\n\n64. Ne7 { [%clk 0:05:10] } Rh6+ { [%clk 0:01:15] } 65. Kd7 { [%clk 0:05:00] } *\n";
/// The same ending as an extract without clock times.
const KRKN_NO_CLOCKS: &str =
    "[FEN \"8/8/3K4/3N3r/8/3k4/8/8 w - - 0 64\"]\n[SetUp \"1\"]\n\n64. Ne7 Rh6+ 65. Kd7 *\n";
/// A whole game (a lone king shuffled against), as ECF QPF 14 wants the scoresheet.
const SHUFFLE_GAME: &str = include_str!("../samples/claims/ecf-shuffle.pgn");

#[test]
fn the_deadline_fees_and_submissions_of_ecf_qpf_13() {
    let base = "kind = \"draw-last-two-minutes\"\nruleset = \"ecf-quickplay\"\ngrounds = [\"no-effort\"]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\ndate = 2009-11-12\nclock_white = \"0:03:52\"\nclock_black = \"0:01:09\"\n";
    let ok = format!("{base}received = 2009-11-24\nsubmitted_by = [\"white\", \"black\"]\nfees_paid = [\"white\", \"black\"]\n");
    let r = judge(&ok, &[("s.pgn", SHUFFLE_GAME)]);
    assert_eq!(r.recommendation, Recommendation::Uphold, "{:?}", r.checks);
    assert_eq!(outcome(&r, CheckId::Deadline), CheckOutcome::Pass);
    // 13 days: too late (ECF QPF 13), which states no consequence: the
    // League Secretary decides, told what the merits give; a loss for the
    // claimant only if the claim is rejected.
    let late = ok.replace("2009-11-24", "2009-11-25");
    let r = judge(&late, &[("s.pgn", SHUFFLE_GAME)]);
    assert_eq!(r.recommendation, Recommendation::Refer);
    assert_eq!(r.rule, "ECF QPF 13");
    assert!(
        r.detail.starts_with("the claimant's papers are not in order: received 2009-11-25, 13 days after the match on 2009-11-12 (limit 12); ECF QPF 13 states no consequence for that, so it is for whoever decides the claim; on its merits the claim would be upheld: White made no effort to win"),
        "{}",
        r.detail
    );
    assert_eq!(
        (r.result_if_upheld.as_str(), r.result_if_rejected.as_str()),
        ("1/2-1/2", "1-0")
    );
    // No date in the claim: the scoresheet's Date tag counts, and says so.
    let undated = late.replace("date = 2009-11-12\n", "");
    let r = judge(&undated, &[("s.pgn", SHUFFLE_GAME)]);
    assert_eq!(
        r.check(CheckId::Deadline).unwrap().detail,
        "received 2009-11-25, 13 days after the match on 2009-11-12 (the scoresheet's Date tag) (limit 12)"
    );
    assert_eq!(r.recommendation, Recommendation::Refer);
    // A claim and a scoresheet that give different dates: not counted.
    let other_day = SHUFFLE_GAME.replace("[Date \"2009.11.12\"]", "[Date \"2009.11.02\"]");
    let r = judge(&ok, &[("s.pgn", &other_day)]);
    assert_eq!(outcome(&r, CheckId::Deadline), CheckOutcome::Unknown);
    assert_eq!(r.recommendation, Recommendation::Refer, "{}", r.detail);
    assert!(r.detail.contains("the claim gives the date of play as 2009-11-12 and the scoresheet's Date tag as 2009-11-02: the papers disagree"), "{}", r.detail);
    // One side did not submit, one fee unpaid.
    let one = ok
        .replace(
            "submitted_by = [\"white\", \"black\"]",
            "submitted_by = [\"black\"]",
        )
        .replace(
            "fees_paid = [\"white\", \"black\"]",
            "fees_paid = [\"black\"]",
        );
    // The opponent (White) sent nothing and paid nothing: said, and never
    // held against the claimant, who sent all he had to (issue 29).
    let r = judge(&one, &[("s.pgn", SHUFFLE_GAME)]);
    assert_eq!(r.failed(), vec![]);
    assert_eq!(r.recommendation, Recommendation::Uphold, "{:?}", r.checks);
    assert!(r
        .check(CheckId::Submissions)
        .unwrap()
        .detail
        .starts_with("no submission from White (the opponent): not held against the claim"));
    // The claimant's own papers missing: the claim is not in order.
    let own = one.replace("submitted_by = [\"black\"]", "submitted_by = [\"white\"]");
    let r = judge(&own, &[("s.pgn", SHUFFLE_GAME)]);
    assert_eq!(r.failed(), vec![CheckId::Submissions]);
    assert_eq!(r.recommendation, Recommendation::Refer);
    assert!(
        r.detail.starts_with("the claimant's papers are not in order: no submission from Black (the claimant); ECF QPF 13 states no consequence"),
        "{}",
        r.detail
    );
    // An arbiter was present, but the DDCL has only the no-arbiter procedure: it applies, said so.
    let r = judge(&format!("{ok}arbiter = true\n"), &[("s.pgn", SHUFFLE_GAME)]);
    let allowed = r.check(CheckId::KindAllowed).unwrap();
    assert!(
        allowed
            .detail
            .contains("with no arbiter present (the only procedure the ruleset has)"),
        "{}",
        allowed.detail
    );
    // Under BCF RP 16 with an arbiter, a failed claim costs nothing.
    let bcf = ok
        .replace("ecf-quickplay", "bcf-rapid")
        .replace("no-effort", "cannot-win-by-normal-means")
        .replace("clock_white = \"0:03:52\"\nclock_black = \"0:01:09\"\n", "")
        .replace("date = 2009-11-12\n", "");
    let r = judge(&format!("{bcf}arbiter = true\n"), &[("s.pgn", KRKN)]);
    assert_eq!(r.result_if_rejected, "play continues, no penalty");
    assert_eq!(r.rule, "BCF RP 16");
    // Not said whether an arbiter was present: BCF has a procedure for
    // each. On ground (a), K+R v K+N, both uphold: so does the claim, said.
    let r = judge(&bcf, &[("s.pgn", KRKN)]);
    assert_eq!(outcome(&r, CheckId::KindAllowed), CheckOutcome::Pass);
    assert_eq!(r.recommendation, Recommendation::Uphold);
    assert!(r.check(CheckId::KindAllowed).unwrap().detail.ends_with(
        "the claim does not say whether one was, and its grounds are judged alike under both"
    ));
    // Ground (b) alone: without an arbiter (NA-2) only (b) is judged, and
    // mixed moves fail it (GAA); with one (RP 16) ground (a) holds. The
    // presence decides: incomplete, both said, never a presumed loss;
    // each result if rejected cites the paragraph that gives it (NA-6,
    // not NA-1 the window).
    let b_only = bcf.replace("cannot-win-by-normal-means", "no-effort");
    let r = judge(&b_only, &[("s.pgn", KRKN)]);
    assert_eq!(outcome(&r, CheckId::KindAllowed), CheckOutcome::Unknown);
    assert_eq!(r.recommendation, Recommendation::Refer);
    assert_eq!(r.rule, "BCF RP NA-1; BCF RP 16");
    assert!(
        r.detail.starts_with("the record is incomplete: BCF Rapid Play rules provides this claim with an arbiter present and with none, and the claim does not say whether one was (arbiter = true or false), which decides it: with no arbiter, for a judgement (BCF RP NA-5: needs a judgement: too few moves to judge whether White was making an effort: White in 1 move"),
        "{}",
        r.detail
    );
    assert!(
        r.detail.contains("; with one, upheld (BCF RP 16: "),
        "{}",
        r.detail
    );
    assert_eq!(
        r.result_if_rejected,
        "1-0 with no arbiter (BCF RP NA-6); play continues, no penalty with one (BCF RP 16)"
    );
    let r = judge(&format!("{bcf}arbiter = false\n"), &[("s.pgn", KRKN)]);
    assert_eq!(outcome(&r, CheckId::KindAllowed), CheckOutcome::Pass);
    assert_eq!(r.result_if_rejected, "1-0");
    // No received date: the deadline is unknown, not failed.
    let r = judge(
        &format!(
            "{base}submitted_by = [\"white\", \"black\"]\nfees_paid = [\"white\", \"black\"]\n"
        ),
        &[("s.pgn", SHUFFLE_GAME)],
    );
    assert_eq!(outcome(&r, CheckId::Deadline), CheckOutcome::Unknown);
    // The date could change the outcome (a late claim fails): incomplete
    // papers refer, naming what is missing, and what the record there is
    // gives (it said only what was missing).
    assert_eq!(r.recommendation, Recommendation::Refer);
    assert_eq!(
        r.detail,
        "the record is incomplete: the date of play or of receipt is not given (limit 12 days); on the record there is, the claim would be upheld: White made no effort to win: White in 6 moves: 0 captures, 0 pawn moves, 0 checks; 5 repeated positions; king on 2 squares"
    );
}

#[test]
fn the_clock_window_and_who_is_on_move() {
    let claim = |clock: &str| {
        format!("kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\narbiter = false\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:05:00\"\nclock_black = \"{clock}\"\nfees_paid = [\"black\"]\n")
    };
    let r = judge(&claim("0:01:59"), &[("s.pgn", KRKN_NO_CLOCKS)]);
    assert_eq!(outcome(&r, CheckId::ClockWindow), CheckOutcome::Pass);
    assert_eq!(r.recommendation, Recommendation::Uphold);
    for late in ["0:02:00", "0:00:00"] {
        let r = judge(&claim(late), &[("s.pgn", KRKN_NO_CLOCKS)]);
        assert_eq!(
            outcome(&r, CheckId::ClockWindow),
            CheckOutcome::Fail,
            "{late}"
        );
        assert_eq!(r.recommendation, Recommendation::Reject);
        assert_eq!(r.rule, "BCF RP NA-1");
    }
    // Black is to move after 65. Kd7; a White claim is not on move. BCF RP
    // NA-1 has no on-move condition; FIDE III.6 ("having the move") does.
    let white = claim("0:01:00")
        .replace("claimant = \"black\"", "claimant = \"white\"")
        .replace("clock_white = \"0:05:00\"", "clock_white = \"0:01:00\"");
    let r = judge(&white, &[("s.pgn", KRKN_NO_CLOCKS)]);
    assert!(r.check(CheckId::OnMove).is_none(), "{:?}", r.checks);
    let fide = white
        .replace("bcf-rapid", "fide-rapid")
        .replace("fees_paid = [\"black\"]\n", "");
    let r = judge(&fide, &[("s.pgn", KRKN_NO_CLOCKS)]);
    assert_eq!(outcome(&r, CheckId::OnMove), CheckOutcome::Fail);
    assert_eq!(r.recommendation, Recommendation::Reject);
}

/// BCF RP 16 lets the arbiter draw "if he is satisfied that the opponent
/// is making no effort ... or that it is not possible to win by normal
/// means": both grounds, whichever was named; and where the moves are
/// mixed he watches on (GA (a)-(c)): referred. Without an arbiter, GAA
/// gives the benefit of the doubt to the claimant's opponent: rejected.
#[test]
fn bcf_rp_16_judges_both_grounds_and_leaves_mixed_evidence_to_the_arbiter() {
    let pgn = "[FEN \"8/8/3k4/8/8/8/1Q6/K7 w - - 0 60\"]\n[SetUp \"1\"]\n[TimeControl \"1800\"]\n\n60. Ka2 { [%clk 0:04:00] } Ke6 { [%clk 0:01:50] } 61. Kb1 { [%clk 0:03:58] } Kd6 { [%clk 0:01:40] } 62. Kc1 { [%clk 0:03:56] } Ke6 { [%clk 0:01:30] } 63. Kd1 { [%clk 0:03:54] } Kd6 { [%clk 0:01:20] } 64. Ke1 { [%clk 0:03:52] } Ke6 { [%clk 0:01:10] } *\n";
    let claim = |arbiter: bool, grounds: &str| {
        judge(
            &format!("kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\narbiter = {arbiter}\ngrounds = [{grounds}]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:03:52\"\nclock_black = \"0:01:10\"\nfees_paid = [\"black\"]\n"),
            &[("s.pgn", pgn)],
        )
    };
    let r = claim(false, "\"no-effort\"");
    assert_eq!(outcome(&r, CheckId::NoEffort), CheckOutcome::Fail);
    assert_eq!(r.recommendation, Recommendation::Reject);
    // The ground that failed beside the rule that rejects: here the
    // benefit of the doubt (GAA).
    assert_eq!(r.rule, "BCF RP NA-6; BCF RP GAA");
    assert!(r.check(CheckId::NoEffort).unwrap().detail.starts_with(
        "mixed evidence, the benefit of the doubt goes to the opponent of the claimant"
    ));
    assert_eq!(r.result_if_rejected, "1-0");
    // One move of White's since Black's clock went under two minutes:
    // too few to show an effort or none (it was "mixed evidence", the
    // claimant losing on it); referred.
    let one_move = "[FEN \"8/8/3k4/8/8/8/1Q6/K7 w - - 0 60\"]\n[SetUp \"1\"]\n[TimeControl \"1800\"]\n\n60. Ka2 { [%clk 0:04:00] } Ke6 { [%clk 0:02:10] } 61. Kb1 { [%clk 0:03:58] } Kd6 { [%clk 0:01:40] } 62. Kc1 { [%clk 0:03:56] } *\n";
    let r = judge(
        "kind = \"draw-last-two-minutes\"\nruleset = \"ecf-quickplay\"\ngrounds = [\"no-effort\"]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:03:56\"\nclock_black = \"0:01:40\"\ndate = 2009-11-12\nreceived = 2009-11-16\nsubmitted_by = [\"white\", \"black\"]\nfees_paid = [\"white\", \"black\"]\n",
        &[("s.pgn", one_move)],
    );
    let c = r.check(CheckId::NoEffort).unwrap();
    assert_eq!(c.outcome, CheckOutcome::Unknown);
    assert_eq!(c.detail, "too few moves to judge whether White was making an effort: White in 1 move: 0 captures, 0 pawn moves, 0 checks; 0 repeated positions; king on 1 square (from 61... Kd6, when Black's clock went under 2:00)");
    assert_eq!(r.recommendation, Recommendation::Refer);
    let r = claim(true, "\"no-effort\"");
    assert_eq!(outcome(&r, CheckId::NoEffort), CheckOutcome::Unknown);
    assert_eq!(outcome(&r, CheckId::NormalMeans), CheckOutcome::Fail);
    assert_eq!(r.recommendation, Recommendation::Refer);
    assert_eq!(r.rule, "BCF RP GA (a)-(c)");
    assert!(
        r.detail.starts_with(
            "needs a judgement: mixed evidence, for whoever decides to weigh: White in 4 moves"
        ),
        "{}",
        r.detail
    );
    // Ground (a) named alone: (b) is judged as well under RP 16.
    let r = claim(true, "\"cannot-win-by-normal-means\"");
    assert_eq!(outcome(&r, CheckId::NoEffort), CheckOutcome::Unknown);
    assert_eq!(r.recommendation, Recommendation::Refer);
}

#[test]
fn fide_guidelines_iii_need_no_increment_and_never_blitz() {
    let claim = |rules: &str, tc: &str| {
        let pgn = KRKN.replace(
            "[SetUp \"1\"]",
            &format!("[SetUp \"1\"]\n[TimeControl \"{tc}\"]"),
        );
        judge(
            &format!("kind = \"draw-last-two-minutes\"\nruleset = \"{rules}\"\narbiter = true\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:05:00\"\nclock_black = \"0:01:15\"\n"),
            &[("s.pgn", &pgn)],
        )
    };
    let r = claim("fide-rapid", "1500");
    assert_eq!(r.recommendation, Recommendation::Uphold);
    // FIDE III has a procedure with the arbiter present (III.5) and one
    // without (III.6). III.5.1 lets the arbiter draw on either ground, as
    // BCF RP 16: ground (b) named alone is upheld on (a) with him, and
    // without him (III.6.1, only the ground named) mixed moves are for the
    // designated arbiter: the presence decides, and it is not stated.
    let pgn = KRKN.replace("[SetUp \"1\"]", "[SetUp \"1\"]\n[TimeControl \"1500\"]");
    let b_only = |arbiter: &str| {
        judge(
            &format!("kind = \"draw-last-two-minutes\"\nruleset = \"fide-rapid\"\n{arbiter}grounds = [\"no-effort\"]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:05:00\"\nclock_black = \"0:01:15\"\n"),
            &[("s.pgn", &pgn)],
        )
    };
    assert_eq!(
        b_only("arbiter = true\n").recommendation,
        Recommendation::Uphold
    );
    let unsaid = b_only("");
    assert_eq!(unsaid.recommendation, Recommendation::Refer);
    assert_eq!(
        outcome(&unsaid, CheckId::KindAllowed),
        CheckOutcome::Unknown
    );
    assert_eq!(
        r.result_if_rejected,
        "play continues; White +2:00 (0:05:00 to 0:07:00)"
    );
    let r = claim("fide-rapid", "900+10");
    assert_eq!(outcome(&r, CheckId::Increment), CheckOutcome::Fail);
    assert_eq!(r.rule, "FIDE III.2.1");
    let r = claim("fide-blitz", "300");
    assert_eq!(r.failed(), vec![CheckId::KindAllowed]);
    assert_eq!(r.rule, "FIDE III.2.2");
    assert_eq!(r.recommendation, Recommendation::Reject);
}

#[test]
fn win_on_time_needs_a_claimant_who_can_mate() {
    // K+N v K+P: the knight can mate (helpmate), a bare king cannot.
    let pgn = "[FEN \"8/5k2/8/3n4/8/2P5/1K6/8 w - - 0 60\"]\n[SetUp \"1\"]\n\n60. Kb3 { [%clk 0:00:03] } Ke6 { [%clk 0:04:00] } *\n";
    let claim = |who: &str, w: &str, b: &str| {
        judge(
            &format!("kind = \"win-on-time\"\nruleset = \"ecf-quickplay\"\nclaimant = \"{who}\"\nscoresheet = \"s.pgn\"\nclock_white = \"{w}\"\nclock_black = \"{b}\"\n"),
            &[("s.pgn", pgn)],
        )
    };
    let r = claim("black", "0:00:00", "0:04:00");
    assert_eq!(r.recommendation, Recommendation::Uphold);
    assert_eq!(r.result_if_upheld, "0-1");
    assert_eq!(r.rule, "ECF QPF 9");
    assert!(r.mate_line.is_some());
    // Under USCF 14E2 a lone knight wins only with a forced win. The search
    // rules out one within five moves, not a longer one: without tables the
    // claim is referred (with them it fails: `parity.rs`).
    let uscf = judge(
        "kind = \"win-on-time\"\nruleset = \"uscf\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:00:00\"\nclock_black = \"0:04:00\"\n",
        &[("s.pgn", pgn)],
    );
    assert_eq!(
        uscf.recommendation,
        Recommendation::Refer,
        "{:?}",
        uscf.checks
    );
    assert_eq!(
        outcome(&uscf, CheckId::ClaimantCanMate),
        CheckOutcome::Unknown
    );
    let can_mate = uscf.check(CheckId::ClaimantCanMate).unwrap();
    assert!(
        can_mate
            .detail
            .contains("a longer forced win is not ruled out"),
        "{}",
        can_mate.detail
    );
    // The flag is not down: no claim.
    let r = claim("black", "0:00:03", "0:04:00");
    assert_eq!(r.failed(), vec![CheckId::OpponentFlagDown]);
    assert_eq!(r.recommendation, Recommendation::Reject);
    // No clocks anywhere: refer.
    let r = judge(
        "kind = \"win-on-time\"\nruleset = \"ecf-quickplay\"\nclaimant = \"black\"\nmoves = \"1. e4 e5\"\n",
        &[],
    );
    assert_eq!(r.recommendation, Recommendation::Refer);
    // A bare king cannot win on time.
    let bare = "[FEN \"8/5k2/8/8/8/2P5/1K6/8 w - - 0 60\"]\n[SetUp \"1\"]\n\n60. Kb3 Ke6 *\n";
    let r = judge(
        "kind = \"win-on-time\"\nruleset = \"sabah-active30\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:00:00\"\nclock_black = \"0:04:00\"\n",
        &[("s.pgn", bare)],
    );
    assert_eq!(r.recommendation, Recommendation::Reject);
    assert_eq!(r.result_if_rejected, "1/2-1/2");
    assert_eq!(r.rule, "Sabah iv.1(f)");
}

#[test]
fn illegal_move_claims_under_each_rule() {
    // 3. Ke2?? walks into the bishop's check... no: 3. Kf2 is simply not a king move from e1 after 2...Bc5? It is:
    // use a move no man can make: 3. Ke3 (two squares) by White.
    let moves = "1. e4 e5 2. Nf3 Nc6 3. Ke3";
    let claim = |rules: &str, w: &str, b: &str, extra: &str| {
        judge(
            &format!("kind = \"illegal-move\"\nruleset = \"{rules}\"\nclaimant = \"black\"\nmoves = \"{moves}\"\nclock_white = \"{w}\"\nclock_black = \"{b}\"\n{extra}"),
            &[],
        )
    };
    // FIDE standard: reinstate, Black +2:00 (FIDE 7.5.5).
    let r = claim("fide-standard", "1:10:00", "1:05:00", "");
    assert_eq!(r.recommendation, Recommendation::Uphold);
    assert_eq!(
        r.result_if_upheld,
        "play continues from the position before 3. Ke3; Black +2:00 (1:05:00 to 1:07:00)"
    );
    assert_eq!(r.marked_ply, Some(5));
    // A second illegal move loses (FIDE 7.5.5).
    let r = claim(
        "fide-standard",
        "1:10:00",
        "1:05:00",
        "previous_illegal = 1\n",
    );
    assert_eq!(r.result_if_upheld, "0-1");
    // BCF RP 12: loses when either player has under five minutes; 5:00 exactly does not.
    let r = claim("bcf-rapid", "0:04:59", "0:20:00", "");
    assert_eq!(r.result_if_upheld, "0-1");
    assert_eq!(r.rule, "BCF RP 12");
    let r = claim("bcf-rapid", "0:05:00", "0:20:00", "");
    // Not a failed check beside an upheld claim: the loss ground does not apply.
    assert_eq!(
        outcome(&r, CheckId::ClockLimit),
        CheckOutcome::NotApplicable
    );
    assert_eq!(r.recommendation, Recommendation::Uphold);
    assert_eq!(
        r.result_if_upheld,
        "play continues from the position before 3. Ke3; Black +2:00 by default (0:20:00 to 0:22:00)"
    );
    // RP 12 gives time only when both have more than five minutes: on
    // 5:00 exactly the time is FIDE 7.5.5's, and cited so.
    assert_eq!(r.rule, "BCF RP 12; FIDE 7.5.5; FIDE 7.5.1");
    assert_eq!(
        r.detail,
        "3. Ke3 is illegal: the position before it is reinstated; a clock on 5:00 exactly is neither under nor over it, so the move does not lose, and BCF RP 12 gives extra time only when both are over it; any time Black is given is the arbiter's to decide, 2:00 by default (FIDE 7.5.5's amount)"
    );
    // Both over: RP 12's discretion, the amount FIDE's default.
    let r = claim("bcf-rapid", "0:05:01", "0:20:00", "");
    assert_eq!(r.rule, "BCF RP 12; FIDE 7.5.5; FIDE 7.5.1");
    assert_eq!(
        r.detail,
        "3. Ke3 is illegal: the position before it is reinstated; Black may be given extra time (BCF RP 12; 2:00 by default, FIDE 7.5.5's amount)"
    );
    // Under FIDE the text sets the time itself.
    let r = claim("fide-standard", "1:10:00", "1:05:00", "");
    assert_eq!(
        r.detail,
        "3. Ke3 is illegal: the position before it is reinstated; Black gets 2:00"
    );
    // The claimant's own illegal move is no claim.
    let own = judge(
        &format!("kind = \"illegal-move\"\nruleset = \"bcf-rapid\"\nclaimant = \"white\"\nmoves = \"{moves}\"\n"),
        &[],
    );
    assert_eq!(own.recommendation, Recommendation::Reject);
    // A legal last move: nothing to claim.
    let legal = judge(
        "kind = \"illegal-move\"\nruleset = \"bcf-rapid\"\nclaimant = \"black\"\nmoves = \"1. e4 e5 2. Nf3\"\n",
        &[],
    );
    assert_eq!(legal.failed(), vec![CheckId::IllegalMoveFound]);
}

#[test]
fn an_illegal_move_that_was_answered_stands_under_bcf_rp_13() {
    let r = judge(
        "kind = \"illegal-move\"\nruleset = \"bcf-rapid\"\nclaimant = \"black\"\nmoves = \"1. e4 e5 2. Nf3 Nc6 3. Bb6 Nf6 4. Nc3\"\nclock_white = \"0:04:00\"\nclock_black = \"0:04:00\"\n",
        &[],
    );
    assert_eq!(r.failed(), vec![CheckId::ClaimedInTime]);
    assert_eq!(r.rule, "BCF RP 13");
    assert_eq!(r.recommendation, Recommendation::Reject);
}

/// A claim with the final position and no scoresheet: judged on the
/// position where the rule asks no more (BCF RP NA-3, ground (a)); referred
/// where the whole scoresheet is required (ECF QPF 14).
#[test]
fn a_final_position_alone_is_judged_where_the_rule_asks_no_more() {
    let bcf = "kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\narbiter = false\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\nfinal_fen = \"8/8/3K4/3N3r/8/3k4/8/8 b - - 13 64\"\nclock_white = \"0:05:24\"\nclock_black = \"0:01:19\"\nfees_paid = [\"black\"]\n";
    let r = judge(bcf, &[]);
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
    assert_eq!(outcome(&r, CheckId::Scoresheet), CheckOutcome::Pass);
    // No game, so no key to record a ruling under (two such claims would
    // share an empty game's): said, not recorded.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.toml"), bcf).unwrap();
    let out = dir.path().join("out");
    let o = arbiter(&[
        "claim",
        dir.path().join("c.toml").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--record-ruling",
        dir.path().join("d.csv").to_str().unwrap(),
        "--decided-by",
        "Sec",
    ]);
    let rows = parse_csv(&std::fs::read(out.join("claims.csv")).unwrap());
    assert_eq!(rows[0]["game_key"], "");
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("claim c: not recorded: no scoresheet game to record the ruling under"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        outcome(&r, CheckId::FinalPosition),
        CheckOutcome::NotApplicable
    );
    // Ground (b) under the same rules: BCF RP NA-4 asks for "an up-to-date
    // score sheet" as well.
    let r = judge(&bcf.replace("cannot-win-by-normal-means", "no-effort"), &[]);
    let c = r.check(CheckId::Scoresheet).unwrap();
    assert_eq!(c.outcome, CheckOutcome::Unknown);
    assert_eq!(c.detail, "no scoresheet was sent, only the final position: ground (b) is judged on the scoresheet, which is required");
    assert_eq!(r.recommendation, Recommendation::Refer, "{}", r.detail);
    // Both grounds: (a) holds on the position alone ("and/or", NA-2),
    // and (b) waits for a scoresheet it no longer needs.
    let both = bcf.replace(
        "grounds = [\"cannot-win-by-normal-means\"]",
        "grounds = [\"cannot-win-by-normal-means\", \"no-effort\"]",
    );
    let r = judge(&both, &[]);
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
    assert_eq!(outcome(&r, CheckId::Scoresheet), CheckOutcome::Pass);
    assert_eq!(outcome(&r, CheckId::NormalMeans), CheckOutcome::Pass);
    let c = r.check(CheckId::NoEffort).unwrap();
    assert_eq!(c.outcome, CheckOutcome::Unknown);
    assert_eq!(c.detail, "no scoresheet was sent, only the final position: ground (b) is judged on the scoresheet, which is required");
    let ecf = bcf
        .replace("bcf-rapid", "ecf-quickplay")
        .replace("cannot-win-by-normal-means", "no-effort");
    let r = judge(&ecf, &[]);
    assert_eq!(r.recommendation, Recommendation::Refer, "{}", r.detail);
    assert!(
        r.detail.starts_with(
            "the record is incomplete: no scoresheet was sent, only the final position: the whole game's scoresheet is required;"
        ),
        "{}",
        r.detail
    );
    // The diagram shows the claimant's position, titled so (it was "Final
    // position", as though a scoresheet had reached it).
    assert_eq!(
        arbiter::report::packet::claim_packet(&r).position_title,
        "Position as written by the claimant (ECF QPF 15)"
    );
    // An illegal move cannot be checked on a position alone.
    let illegal = "kind = \"illegal-move\"\nruleset = \"bcf-rapid\"\nclaimant = \"black\"\nfinal_fen = \"8/8/3K4/3N3r/8/3k4/8/8 b - - 13 64\"\n";
    let r = judge(illegal, &[]);
    assert_eq!(r.recommendation, Recommendation::Refer, "{}", r.detail);
    assert_eq!(
        r.check(CheckId::IllegalMoveFound).unwrap().detail,
        "no scoresheet was sent: the illegal move cannot be checked"
    );
}

/// An illegal move claimed after the game had ended on the board (a dead
/// position, then moves played on): rejected, the board's result in both
/// columns, citing the rule that ended it; it was "no illegal move" with
/// play to continue.
#[test]
fn an_illegal_move_after_the_end_is_no_claim() {
    let sheet = "[FEN \"8/8/4k3/8/8/8/1Q6/4K3 w - - 0 50\"]\n[SetUp \"1\"]\n\n50. Qb6+ Kf5 51. Qe6+ Kxe6 52. Kf2 Kf5 53. Kg2 Kg4 54. Kh2 Kh3 *\n";
    let claim = "kind = \"illegal-move\"\nruleset = \"ecf-quickplay\"\nclaimant = \"white\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:09:20\"\nclock_black = \"0:09:10\"\n";
    let r = judge(claim, &[("s.pgn", sheet)]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(
        (r.result_if_upheld.as_str(), r.result_if_rejected.as_str()),
        ("1/2-1/2", "1/2-1/2")
    );
    assert_eq!(r.rule, "FIDE 5.2.2");
    assert_eq!(
        r.detail,
        "the game ended at 51... Kxe6 (a dead position, FIDE 5.2.2): 1/2-1/2, whatever the moves after it and a claim on them say"
    );
}

/// A scoresheet with a word that is no move (`Kg9`) four moves before the
/// claim: read only up to it. Its clocks there were compared with the
/// claim's as though the game ended there ("the clocks conflict", a
/// refer for conflicting evidence), and its position there was judged and
/// drawn as the final one; now the clocks are unknown, the position judged
/// is the one the claimant wrote, and the referral says the record is
/// incomplete.
#[test]
fn a_scoresheet_read_only_in_part_is_no_final_position_and_no_clocks() {
    let sheet = "[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/4PK2/8/8 w - - 0 60\"]\n\n60. Kg4 { [%clk 0:04:50] } Kf6 { [%clk 0:02:30] } 61. Kh5 { [%clk 0:04:45] } Kg9 { [%clk 0:02:20] } 62. Kh6 { [%clk 0:04:40] } Kf7 { [%clk 0:02:10] } 63. Kh7 { [%clk 0:04:30] } *\n";
    let claim = "kind = \"draw-last-two-minutes\"\nruleset = \"ecf-quickplay\"\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nfinal_fen = \"8/5k1K/8/8/8/4P3/8/8 b - - 5 63\"\nclock_white = \"0:04:30\"\nclock_black = \"0:01:45\"\ndate = 2009-11-12\nreceived = 2009-11-16\nsubmitted_by = [\"white\", \"black\"]\nfees_paid = [\"white\", \"black\"]\n";
    let r = judge(claim, &[("s.pgn", sheet)]);
    assert_eq!(r.recommendation, Recommendation::Refer, "{}", r.detail);
    let c = r.check(CheckId::Clocks).unwrap();
    assert_eq!(c.outcome, CheckOutcome::Unknown);
    assert_eq!(c.detail, "the scoresheet is read only up to 61. Kh5: the clocks it records after that are not known, and the claim's cannot be checked against them");
    let p = arbiter::report::packet::claim_packet(&r);
    assert_eq!(
        p.position_title,
        "Position as written by the claimant (ECF QPF 15)"
    );
    assert!(
        r.detail
            .starts_with("the record is incomplete: s.pgn line 4: \"Kg9\" is not a move;"),
        "{}",
        r.detail
    );
    assert!(!r.detail.contains("conflict"), "{}", r.detail);
    // A word after the last move ("claimed", as secretaries write) cuts
    // nothing short: the sheet is whole, its clocks compared, its last
    // position judged; the word is said on the packet.
    let whole = sheet
        .replace("Kg9", "Ke7")
        .replace("Kf7 { [%clk 0:02:10] }", "Kf7 { [%clk 0:01:45] }")
        .replace(
            "63. Kh7 { [%clk 0:04:30] } *",
            "63. Kh7 { [%clk 0:04:30] } claimed *",
        );
    let r = judge(claim, &[("s.pgn", &whole)]);
    assert_eq!(
        outcome(&r, CheckId::Clocks),
        CheckOutcome::Pass,
        "{:?}",
        r.checks
    );
    assert_eq!(
        outcome(&r, CheckId::FinalPosition),
        CheckOutcome::Pass,
        "{:?}",
        r.checks
    );
    let p = arbiter::report::packet::claim_packet(&r);
    assert!(
        p.notes.contains(&"Scoresheet: s.pgn line 4: \"claimed\" after the last move is no move, and is passed over".to_string()),
        "{:?}",
        p.notes
    );
}

/// A claim made after a mate or a stalemate by the last move recorded: the
/// game was over before the claim (a flag is fallen when claimed, FIDE
/// 6.8; a mate or stalemate comes before it, 6.9). A win on time claimed
/// by the side mated was referred, "1/2-1/2" either way; a draw claimed by
/// it was rejected for "a forced mate in 1"; a flag claimed after a
/// stalemate was "White (K+Q) cannot checkmate".
#[test]
fn a_claim_after_a_mate_or_stalemate_by_the_last_move_is_too_late() {
    let mated = "[SetUp \"1\"]\n[FEN \"7k/8/5K2/8/8/8/8/6Q1 w - - 0 70\"]\n\n70. Qg5 { [%clk 0:03:20] } Kh7 { [%clk 0:01:59] } 71. Qg6+ { [%clk 0:03:10] } Kh8 { [%clk 0:01:50] } 72. Qg7# { [%clk 0:03:00] } *\n";
    let flag = "kind = \"win-on-time\"\nruleset = \"ecf-quickplay\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:00:00\"\nclock_black = \"0:01:50\"\n";
    let r = judge(flag, &[("s.pgn", mated)]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(
        (
            r.result_if_upheld.as_str(),
            r.result_if_rejected.as_str(),
            r.rule.to_string(),
            r.detail.as_str()
        ),
        (
            "1-0",
            "1-0",
            "FIDE 5.1.1".to_string(),
            "the game ended at 72. Qg7# (checkmate, FIDE 5.1.1): 1-0, a claim after it changes nothing"
        )
    );
    assert_eq!(outcome(&r, CheckId::GameOver), CheckOutcome::Fail);
    let draw = flag.replace("win-on-time", "draw-last-two-minutes")
        + "grounds = [\"cannot-win-by-normal-means\"]\nsubmitted_by = [\"white\", \"black\"]\nfees_paid = [\"white\", \"black\"]\n";
    let r = judge(&draw, &[("s.pgn", mated)]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(
        (r.rule.to_string(), r.result_if_rejected.as_str()),
        ("FIDE 5.1.1".to_string(), "1-0")
    );
    assert!(!r.detail.contains("forced mate"), "{}", r.detail);
    let p = arbiter::report::packet::claim_packet(&r);
    // The final position is where it ended: titled as final.
    assert_eq!(
        p.position_title,
        "Final position, after 72. Qg7# (ECF QPF 15)"
    );

    // White's clock at 0:00:00.0 on the mating move itself, and Black
    // claims the flag: which came first decides, and the record does not
    // say; referred, as `adjudicate` sends such a game to review.
    let zero = mated.replace(
        "72. Qg7# { [%clk 0:03:00] }",
        "72. Qg7# { [%clk 0:00:00.0] }",
    );
    let r = judge(flag, &[("s.pgn", &zero)]);
    assert_eq!(r.recommendation, Recommendation::Refer, "{}", r.detail);
    assert_eq!(outcome(&r, CheckId::GameOver), CheckOutcome::Unknown);
    assert_eq!(r.rule, "FIDE 5.1.1; ECF QPF 9");
    assert!(
        r.detail.starts_with("the game ended at 72. Qg7# (checkmate, FIDE 5.1.1): 1-0, but White's clock shows 0:00:00.0 on that move, and the flag is claimed: whether it fell before the move was made decides the game, and the record does not say"),
        "{}",
        r.detail
    );

    // White stalemates, then claims Black's flag.
    let stalemate = "[SetUp \"1\"]\n[FEN \"7k/8/5K2/8/8/8/8/6Q1 w - - 0 65\"]\n\n65. Qg6 { [%clk 0:03:00] } *\n";
    let flag = "kind = \"win-on-time\"\nruleset = \"ecf-quickplay\"\nclaimant = \"white\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:03:00\"\nclock_black = \"0:00:00\"\n";
    let r = judge(flag, &[("s.pgn", stalemate)]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(
        (r.result_if_rejected.as_str(), r.rule.to_string(), r.detail.as_str()),
        (
            "1/2-1/2",
            "FIDE 5.2.1".to_string(),
            "the game ended at 65. Qg6 (stalemate, FIDE 5.2.1): 1/2-1/2, a claim after it changes nothing"
        )
    );
}

/// Any claim on moves played after the game ended on the board is judged
/// so: a draw claim (it was referred, the scoresheet "short of the claim",
/// with 1-0 if rejected though White could not mate), a win on time (it
/// judged the flags on a game already drawn), and an extract that starts
/// in a dead position. The diagram's title says where the game ended.
#[test]
fn a_claim_after_the_game_ended_on_the_board_gets_the_boards_result() {
    let bcf = "[SetUp \"1\"]\n[FEN \"8/8/4k3/p7/8/2K2B2/8/8 w - - 0 60\"]\n\n60. Kb3 { [%clk 0:06:40] } Kd6 { [%clk 0:01:58] } 61. Ka4 { [%clk 0:06:30] } Kc5 { [%clk 0:01:50] } 62. Kxa5 { [%clk 0:06:20] } Kd4 { [%clk 0:01:40] } 63. Bg4 { [%clk 0:06:10] } *\n";
    let claim = "kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\ngrounds = [\"no-effort\"]\nclaimant = \"black\"\narbiter = false\nscoresheet = \"s.pgn\"\nclock_white = \"0:06:10\"\nclock_black = \"0:01:40\"\nsubmitted_by = [\"white\", \"black\"]\nfees_paid = [\"black\"]\n";
    let r = judge(claim, &[("s.pgn", bcf)]);
    // A draw claimed, and a draw the board gives: upheld.
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
    assert_eq!(
        (
            r.result_if_upheld.as_str(),
            r.result_if_rejected.as_str(),
            r.rule.to_string()
        ),
        ("1/2-1/2", "1/2-1/2", "FIDE 5.2.2".to_string())
    );
    assert_eq!(
        r.detail,
        "the game ended at 62. Kxa5 (a dead position, FIDE 5.2.2): 1/2-1/2, whatever the moves after it and a claim on them say"
    );
    assert_eq!(outcome(&r, CheckId::GameOver), CheckOutcome::Pass);
    let p = arbiter::report::packet::claim_packet(&r);
    assert_eq!(
        p.position_title,
        "Position where the game ended, after 62. Kxa5"
    );

    // A win on time claimed in a game drawn by two bishops of one colour.
    let sabah = "[SetUp \"1\"]\n[FEN \"8/8/4k3/8/1P6/2b5/3B4/4K3 b - - 0 50\"]\n\n50... Bxb4 { [%clk 0:00:40] } 51. Ke2 { [%clk 0:00:05] } Ke5 { [%clk 0:00:35] } 52. Kf3 { [%clk 0:00:00] } *\n";
    let claim = "kind = \"win-on-time\"\nruleset = \"sabah-active30\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:00:00\"\nclock_black = \"0:00:35\"\n";
    let r = judge(claim, &[("s.pgn", sabah)]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(
        (
            r.result_if_upheld.as_str(),
            r.result_if_rejected.as_str(),
            r.rule.to_string()
        ),
        ("1/2-1/2", "1/2-1/2", "Sabah iv.1(e)".to_string())
    );
    // A win on time is claimed as Sabah iii.2 says (v.5 is who may call a flag).
    assert_eq!(
        r.check(CheckId::KindAllowed).map(|c| c.detail.as_str()),
        Some("a player may claim a win when the opponent's flag falls (Sabah iii.2)")
    );
    assert!(
        r.detail
            .starts_with("the game ended at 50... Bxb4 (a dead position"),
        "{}",
        r.detail
    );

    // An extract that starts dead: over before its first move.
    let kn = "[SetUp \"1\"]\n[FEN \"8/8/4k3/8/8/2KN4/8/8 w - - 0 70\"]\n\n70. Kd2 { [%clk 0:03:20] } Kd5 { [%clk 0:02:30] } *\n";
    let claim = "kind = \"clear-draw-appeal\"\nruleset = \"sabah-active30\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\n";
    let r = judge(claim, &[("s.pgn", kn)]);
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
    assert_eq!(r.result_if_rejected, "1/2-1/2");
    assert!(
        r.detail.starts_with("the game ended before the scoresheet's first move, in the position it starts from (a dead position"),
        "{}",
        r.detail
    );
    let p = arbiter::report::packet::claim_packet(&r);
    assert_eq!(
        p.position_title,
        "Position the scoresheet starts from, where the game had ended"
    );

    // A win on time claimed after the claimant's own mate: upheld, 1-0
    // either way, and a clock at odds with the sheet changes nothing.
    let mated = "[SetUp \"1\"]\n[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 40\"]\n\n40. Ra8# { [%clk 0:01:00] } Kh8 { [%clk 0:00:30] } *\n";
    let claim = "kind = \"win-on-time\"\nruleset = \"fide-rapid\"\nclaimant = \"white\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:05:00\"\nclock_black = \"0:00:00\"\n";
    let r = judge(claim, &[("s.pgn", mated)]);
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
    assert_eq!(
        (r.result_if_upheld.as_str(), r.result_if_rejected.as_str()),
        ("1-0", "1-0")
    );
}

/// A claim that states no clock times: the packet's clocks are said to be
/// the scoresheet's last readings, not presented as the claimant's.
#[test]
fn a_packet_says_where_its_clocks_come_from() {
    if !common::tools(
        "a_packet_says_where_its_clocks_come_from",
        &[common::Tool::Poppler],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("s.pgn"), SHUFFLE_GAME).unwrap();
    let claim = "kind = \"draw-last-two-minutes\"\nruleset = \"ecf-quickplay\"\nclaimant = \"black\"\ngrounds = [\"no-effort\"]\nscoresheet = \"s.pgn\"\nsubmitted_by = [\"white\", \"black\"]\n";
    // The packet's text, words single-spaced, for a claim written beside s.pgn.
    let packet_text = |claim: &str| {
        std::fs::write(d.join("c.toml"), claim).unwrap();
        let out = d.join("out");
        let o = arbiter(&[
            "claim",
            d.join("c.toml").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        pdftotext(&out.join("c.pdf"), &[])
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    for (extra, want) in [
        (
            "",
            "White 0:03:52, Black 0:01:09: the scoresheet's last readings, the claim states none",
        ),
        (
            "clock_black = \"0:01:10\"\n",
            "White 0:03:52 (the scoresheet's last reading), Black 0:01:10",
        ),
    ] {
        let text = packet_text(&format!("{claim}{extra}"));
        assert!(text.contains(want), "{want}\n{text}");
    }
    // With no names anywhere, a player is his colour, said once.
    let position = "kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\narbiter = false\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\nfinal_fen = \"8/8/3K4/3N3r/8/3k4/8/8 b - - 13 64\"\n";
    let text = packet_text(position);
    assert!(
        text.contains("draw-last-two-minutes Black White White not known")
            && !text.contains("Black (Black)"),
        "{text}"
    );
}

/// A scoresheet file of a whole match: the claim's board picks its game
/// (`Round "3.3"` is board 3); a board no game has, or no board at all, is
/// an error naming the file, never the first game judged instead.
#[test]
fn a_claim_on_a_match_file_is_judged_on_its_own_board() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(sample("ddcl-league-match.pgn"), d.join("match.pgn")).unwrap();
    let claim = |board: &str| {
        format!("kind = \"win-on-time\"\nruleset = \"ecf-quickplay\"\nclaimant = \"black\"\n{board}scoresheet = \"match.pgn\"\n")
    };
    let load = |text: &str| {
        let path = d.join("c.toml");
        std::fs::write(&path, text).unwrap();
        load_claim(&path, LoadOptions::default())
    };
    let r = judge_claim(load(&claim("board = 3\n")).unwrap(), None);
    assert_eq!(r.players(), ("Robson, Derek", "Atkinson, Shaun"));
    let sheet = r.check(CheckId::Scoresheet).unwrap();
    assert!(
        sheet.detail.contains(
            "(game 3 of the 5 the file holds, the one the claim's board and players name)"
        ),
        "{}",
        sheet.detail
    );
    // Tags that name nobody leave the claim's names to stand in for them.
    let nameless = std::fs::read_to_string(d.join("match.pgn"))
        .unwrap()
        .replace("[White \"Robson, Derek\"]", "[White \"?\"]")
        .replace("[Black \"Atkinson, Shaun\"]", "[Black \"?\"]");
    std::fs::write(d.join("match.pgn"), nameless).unwrap();
    let named = claim("board = 3\nwhite = \"Robson, D\"\nblack = \"Atkinson, S\"\n");
    let r = judge_claim(load(&named).unwrap(), None);
    assert_eq!(r.players(), ("Robson, D", "Atkinson, S"));
    for (board, why) in [
        ("board = 9\n", "\"match.pgn\" holds 5 games, and none is the claim's (its board and players as the claim gives them)"),
        ("", "\"match.pgn\" holds 5 games: give the claim's board (or white and black) to say which"),
    ] {
        let e = load(&claim(board)).map(|_| ()).unwrap_err().to_string();
        assert!(e.ends_with(why), "{e}");
    }
}

#[test]
fn broken_claims_are_named_and_the_batch_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("s.pgn"), KRKN).unwrap();
    let good = "kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\narbiter = false\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:05:00\"\nclock_black = \"0:01:15\"\nfees_paid = [\"black\"]\n";
    std::fs::write(d.join("a-good.toml"), good).unwrap();
    std::fs::write(
        d.join("b-bad-field.toml"),
        good.replace("\"black\"\nscoresheet", "\"blak\"\nscoresheet"),
    )
    .unwrap();
    std::fs::write(d.join("c-missing.toml"), good.replace("s.pgn", "gone.pgn")).unwrap();
    std::fs::write(
        d.join("d-wrong-fen.toml"),
        format!("{good}final_fen = \"8/8/3K4/3N3r/8/8/3k4/8 b - - 0 65\"\n"),
    )
    .unwrap();
    std::fs::write(d.join("e-outside.toml"), good.replace("s.pgn", "../s.pgn")).unwrap();
    std::fs::write(
        d.join("f-illegal-sheet.toml"),
        good.replace("scoresheet = \"s.pgn\"", "moves = \"1. e4 e5 2. Ke3\""),
    )
    .unwrap();
    std::fs::write(d.join("g-dir.toml"), good.replace("s.pgn", "sub")).unwrap();
    std::fs::write(
        d.join("h-typo.toml"),
        good.replace("claimant =", "claimnt ="),
    )
    .unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    // Moves written in the claim, but none.
    std::fs::write(
        d.join("l-empty-moves.toml"),
        good.replace("scoresheet = \"s.pgn\"", "moves = \"  \""),
    )
    .unwrap();
    // A scoresheet with no game in it, or nothing that reads as PGN.
    std::fs::write(d.join("empty.pgn"), "\n").unwrap();
    std::fs::write(
        d.join("i-empty-sheet.toml"),
        good.replace("s.pgn", "empty.pgn"),
    )
    .unwrap();
    std::fs::write(d.join("junk.pgn"), "\ngarbage not pgn {{{\n").unwrap();
    std::fs::write(
        d.join("j-junk-sheet.toml"),
        good.replace("s.pgn", "junk.pgn"),
    )
    .unwrap();
    // Notepad's "Unicode": UTF-16 with its mark, read as adjudicate reads it.
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(KRKN.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    std::fs::write(d.join("u16.pgn"), utf16).unwrap();
    std::fs::write(
        d.join("k-utf16-sheet.toml"),
        good.replace("s.pgn", "u16.pgn"),
    )
    .unwrap();
    let out = d.join("out");
    let o = arbiter(&["claim", d.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("b-bad-field.toml: field `claimant`: \"blak\" is not white or black"),
        "{err}"
    );
    assert!(err.contains("e-outside.toml: field `scoresheet`"), "{err}");
    assert!(
        err.contains("g-dir.toml: field `scoresheet`: \"sub\": is a folder"),
        "{err}"
    );
    // A misspelt scoresheet is an error naming the file, not a ruling.
    assert!(
        err.contains("c-missing.toml: field `scoresheet`: "),
        "{err}"
    );
    assert!(err.contains("gone.pgn"), "{err}");
    assert!(
        err.contains("h-typo.toml: field `claimnt`: not a claim field; did you mean \"claimant\"?"),
        "{err}"
    );
    assert!(
        err.contains("i-empty-sheet.toml: field `scoresheet`: \"empty.pgn\": holds no game: give the game's PGN file"),
        "{err}"
    );
    assert!(
        err.contains("j-junk-sheet.toml: field `scoresheet`: \"junk.pgn\": line 2: \"garbage\" is not a move, and no tag names a game: this is not a PGN scoresheet"),
        "{err}"
    );
    assert!(
        err.contains("12 claims: 2 uphold, 0 reject, 2 refer, 8 not judged"),
        "{err}"
    );
    let rows: BTreeMap<String, Row> = parse_csv(&std::fs::read(out.join("claims.csv")).unwrap())
        .into_iter()
        .map(|r| (r["claim"].clone(), r))
        .collect();
    assert!(
        err.contains("l-empty-moves.toml: field `moves`: is empty: write the moves (\"1. e4 e5 ...\"), or leave the field out and give `final_fen`"),
        "{err}"
    );
    assert_eq!(rows.len(), 12);
    assert_eq!(rows["a-good"]["recommendation"], "uphold");
    assert_eq!(rows["k-utf16-sheet"]["recommendation"], "uphold");
    assert_eq!(rows["k-utf16-sheet"]["detail"], rows["a-good"]["detail"]);
    // An I/O failure or a broken claim is an error row, never a refer.
    for bad in [
        "b-bad-field",
        "c-missing",
        "e-outside",
        "g-dir",
        "h-typo",
        "i-empty-sheet",
        "j-junk-sheet",
        "l-empty-moves",
    ] {
        assert_eq!(rows[bad]["recommendation"], "error");
        assert_eq!(rows[bad]["checks_failed"], "claim-file");
        assert!(!out.join(format!("{bad}.pdf")).exists());
    }
    // A position that does not match, an illegal move in the scoresheet:
    // each gets a packet that says so.
    assert_eq!(rows["d-wrong-fen"]["recommendation"], "refer");
    assert_eq!(rows["d-wrong-fen"]["checks_failed"], "final-position");
    assert_eq!(rows["f-illegal-sheet"]["recommendation"], "refer");
    if common::tools(
        "broken_claims_are_named_and_the_batch_goes_on (packet text)",
        &[common::Tool::Poppler],
    ) {
        let text = pdftotext(&out.join("f-illegal-sheet.pdf"), &["-layout"]);
        assert!(text.contains("2. Ke3 by White is illegal"), "{text}");
    }
    // Nothing was written outside --out.
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "a-good.pdf",
            "claims.csv",
            "d-wrong-fen.pdf",
            "f-illegal-sheet.pdf",
            "k-utf16-sheet.pdf"
        ]
    );
}

#[test]
fn allow_outside_lets_a_claim_reach_a_shared_scoresheet() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("claims")).unwrap();
    std::fs::write(d.join("s.pgn"), KRKN).unwrap();
    let claim = "kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\narbiter = false\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\nscoresheet = \"../s.pgn\"\nclock_white = \"0:05:00\"\nclock_black = \"0:01:15\"\nfees_paid = [\"black\"]\n";
    let path: PathBuf = d.join("claims/x.toml");
    std::fs::write(&path, claim).unwrap();
    assert!(load_claim(&path, LoadOptions::default()).is_err());
    // A symlink beside the claim that leads out of its folder is refused too.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(d.join("s.pgn"), d.join("claims/link.pgn")).unwrap();
        let linked = d.join("claims/y.toml");
        std::fs::write(&linked, claim.replace("../s.pgn", "link.pgn")).unwrap();
        let e = load_claim(&linked, LoadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert!(load_claim(
            &linked,
            LoadOptions {
                allow_outside: true
            }
        )
        .is_ok());
    }
    let c = load_claim(
        &path,
        LoadOptions {
            allow_outside: true,
        },
    )
    .unwrap();
    assert_eq!(judge_claim(c, None).recommendation, Recommendation::Uphold);
}

#[test]
fn adjudicate_writes_a_packet_for_every_game_not_confirmed() {
    if !common::tools(
        "adjudicate_writes_a_packet_for_every_game_not_confirmed",
        &[common::Tool::Poppler],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let packets = dir.path().join("packets");
    let csv = dir.path().join("results.csv");
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "-r",
        "ecf-quickplay",
        sample("ddcl-league-match.pgn").to_str().unwrap(),
        "--packets",
        packets.to_str().unwrap(),
        "-o",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = parse_csv(&std::fs::read(&csv).unwrap());
    let mut want: Vec<String> = rows
        .iter()
        .filter(|r| r["status"] != "confirmed")
        .map(|r| arbiter::report::write::packet_file_name(&r["source"], r["game"].parse().unwrap()))
        .collect();
    want.sort();
    let mut got: Vec<String> = std::fs::read_dir(&packets)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    got.sort();
    assert_eq!(got, want);
    assert_eq!(got.len(), 2, "{got:?}");
    // Board 2: both flags down, drawn under ECF QPF 10.
    let row = rows.iter().find(|r| r["game"] == "2").unwrap();
    let pdf = packets.join(&want[0]);
    assert!(want[0].ends_with("ddcl-league-match-game2.pdf"), "{want:?}");
    assert_eq!(diagram_letters(&pdf), letters_of(&row["final_fen"]));
    let text = pdftotext(&pdf, &["-layout"]);
    for s in [
        "Review sheet",
        "Adjudication",
        "Decision of the League Secretary",
        "Last position recorded (ECF QPF 15)",
        "CORRECTED",
        "ECF QPF 10",
        "Pearson, Alan",
        "Whitfield, Colin",
        "Men: White 8, Black 8",
        "White 0:00:00.0, Black 0:00:00.0",
        "time control at move 36",
    ] {
        assert!(text.contains(s), "{s:?} missing:\n{text}");
    }
    // A review sheet is not an appeal: nothing to uphold or reject.
    assert!(
        !text.contains("Uphold") && !text.contains("Recommended ruling"),
        "{text}"
    );
}

/// A review sheet shows every recorded move and clock, those after an
/// illegal move too, and the last position recorded.
#[test]
fn review_sheets_keep_the_moves_after_an_illegal_one() {
    if !common::tools(
        "review_sheets_keep_the_moves_after_an_illegal_one",
        &[common::Tool::Poppler],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(
        &pgn,
        "[Event \"Club\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 {[%clk 0:29:00]} d5 {[%clk 0:29:00]} 2. Bb5+ {[%clk 0:28:00]} Kd7 {[%clk 0:28:00]} 3. a3 {[%clk 0:27:00]} Ke6 {[%clk 0:27:00]} 4. Qg4+ {[%clk 0:26:00]} Kf5 {[%clk 0:26:10]} 1-0\n",
    )
    .unwrap();
    let packets = dir.path().join("p");
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "-r",
        "fide-standard",
        pgn.to_str().unwrap(),
        "--packets",
        packets.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pdf = packets.join(arbiter::report::write::packet_file_name(
        pgn.to_str().unwrap(),
        1,
    ));
    let text = pdftotext(&pdf, &["-layout"]);
    for s in [
        "Kd7*",
        "a3",
        "Ke6",
        "Qg4+",
        "Kf5",
        "0:26:10",
        "Last position recorded",
        "Decision of the Arbiter",
    ] {
        assert!(text.contains(s), "{s:?} missing:\n{text}");
    }
    assert!(!text.contains("QPF 15"), "{text}");
    // The diagram is the last position recorded, the moves played as made
    // (4... Kf5 walked into the queen's check: no legal position, but the one on the board).
    let letters = diagram_letters(&pdf);
    for (sq, man) in [
        ("f5", 'K'),
        ("g4", 'Q'),
        ("a3", 'P'),
        ("b5", 'B'),
        ("e1", 'K'),
    ] {
        assert!(
            letters.contains(&(sq.to_string(), man)),
            "{sq} {man}: {letters:?}"
        );
    }
    assert_eq!(letters.len(), 32, "{letters:?}");
}

/// Sources whose names differ only in what a file name cannot keep
/// (`a b`, `a_b`) or in case (one file on Windows and macOS) each get
/// their own packets, and the review page links each game to its own;
/// letters of any script are kept (`aüb`). The later packets overwrote
/// the earlier ones, and every link went to the last.
#[test]
fn sources_of_one_safe_name_get_packets_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("col");
    std::fs::create_dir(&games).unwrap();
    // A flag fall the record contradicts (review), one per source, each
    // its own player so that none is a copy of another.
    let names = ["a b", "a_b", "A_B", "aüb"];
    for (i, n) in names.iter().enumerate() {
        let pgn = format!(
            "[Event \"x\"]\n[White \"p{i}\"]\n[Black \"q\"]\n[Result \"1-0\"]\n[Termination \"q won on time\"]\n\n1. e4 e5 1-0\n"
        );
        std::fs::write(games.join(format!("{n}.pgn")), pgn).unwrap();
    }
    let packets = dir.path().join("packets");
    let html = dir.path().join("review.html");
    let csv = dir.path().join("r.csv");
    let o = arbiter(&[
        "adjudicate",
        "-q",
        games.to_str().unwrap(),
        "--packets",
        packets.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
        "-o",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = parse_csv(&std::fs::read(&csv).unwrap());
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r["status"] == "review"), "{rows:?}");
    let mut got: Vec<String> = std::fs::read_dir(&packets)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        // After the temporary folder's own name.
        .map(|n| n[n.find("col_").unwrap()..].to_string())
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            "col_A_B-game1.pdf",
            "col_a_b-2-game1.pdf",
            "col_a_b-3-game1.pdf",
            "col_aüb-game1.pdf"
        ]
    );
    // Each link names one packet, and each packet shows its own game.
    let data = common::review_data(&std::fs::read_to_string(&html).unwrap());
    let items = data["items"].as_array().expect("items");
    let mut linked: Vec<&str> = items.iter().map(|it| it["pk"].as_str().unwrap()).collect();
    linked.sort();
    linked.dedup();
    assert_eq!(linked.len(), 4, "{linked:?}");
    for it in items {
        assert!(
            dir.path().join(it["pk"].as_str().unwrap()).is_file(),
            "{it}"
        );
    }
    if !common::tools(
        "sources_of_one_safe_name_get_packets_of_their_own",
        &[common::Tool::Poppler],
    ) {
        return;
    }
    for it in items {
        let text = pdftotext(&dir.path().join(it["pk"].as_str().unwrap()), &[]);
        let source = it["t"].as_str().unwrap().split(", game").next().unwrap();
        let white = &rows.iter().find(|r| r["source"] == source).unwrap()["white"];
        assert!(text.contains(white.as_str()), "{source}: {text}");
    }
}

#[test]
fn packet_file_names_stay_in_the_folder() {
    use arbiter::report::write::packet_file_name;
    assert_eq!(packet_file_name("samples/a.pgn", 3), "samples_a-game3.pdf");
    assert_eq!(
        packet_file_name("/data/x y.pgn.zst", 1),
        "data_x_y-game1.pdf"
    );
    assert_eq!(
        packet_file_name("../../etc/passwd", 1),
        "etc_passwd-game1.pdf"
    );
    assert_eq!(packet_file_name("-", 2), "stdin-game2.pdf");
}

#[test]
fn a_fifo_scoresheet_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("s.pgn");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        panic!("mkfifo is needed for this test");
    }
    let path = dir.path().join("c.toml");
    std::fs::write(
        &path,
        "kind = \"win-on-time\"\nruleset = \"ecf-quickplay\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\n",
    )
    .unwrap();
    let e = load_claim(&path, LoadOptions::default()).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("scoresheet"));
    assert!(e.to_string().contains("not a regular file"), "{e}");
}

#[test]
fn a_frivolous_sabah_appeal_names_v8c() {
    // White appeals for a draw with a bare king against king and queen.
    let pgn = "[FEN \"8/8/4k3/8/8/3QK3/8/8 b - - 0 50\"]\n[SetUp \"1\"]\n\n50... Kf6 { [%clk 0:10:00] } 51. Qd5 { [%clk 0:12:00] } *\n";
    let r = judge(
        "kind = \"clear-draw-appeal\"\nruleset = \"sabah-active30\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:12:00\"\nclock_black = \"0:10:00\"\n",
        &[("s.pgn", pgn)],
    );
    assert_eq!(r.recommendation, Recommendation::Reject);
    // The rule column names the paragraph a frivolous appeal falls under.
    assert_eq!(r.rule, "Sabah v.8(b); Sabah v.8(c); Sabah v.8(a)");
    assert_eq!(
        r.result_if_rejected,
        "play continues; Black's clock 0:10:00 to 0:05:00; or 1-0 if the appeal is frivolous (Sabah v.8(c))"
    );
    // Under two minutes already, v.8(b) takes nothing: the clock stays (it
    // read "0:01:40 to 0:01:40").
    let r = judge(
        "kind = \"clear-draw-appeal\"\nruleset = \"sabah-active30\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:12:00\"\nclock_black = \"0:01:40\"\n",
        &[("s.pgn", &pgn.replace("0:10:00", "0:01:40"))],
    );
    assert_eq!(
        r.result_if_rejected,
        "play continues; Black's clock stays at 0:01:40; or 1-0 if the appeal is frivolous (Sabah v.8(c))"
    );
}

/// Every citation on a packet comes with what the rule says, and the
/// diagram is titled after ECF QPF 15 only under rulesets that have it.
#[test]
fn packets_say_what_each_cited_rule_says() {
    if !common::tools(
        "packets_say_what_each_cited_rule_says",
        &[common::Tool::Poppler],
    ) {
        return;
    }
    let (dir, _) = run_samples(&[]);
    let text = |name: &str| {
        pdftotext(&dir.path().join(format!("{name}.pdf")), &["-layout"])
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let bcf = text("bcf-krkn");
    assert!(bcf.contains("Rules cited"), "{bcf}");
    assert!(
        bcf.contains("BCF RP NA-6 The arbiter's decision is final"),
        "{bcf}"
    );
    assert!(
        bcf.contains(
            "BCF RP NA-2(a) A ground for the claim: the opponent cannot win by normal means."
        ),
        "{bcf}"
    );
    assert!(!bcf.contains("QPF 15"), "{bcf}");
    // A helpmate decides nothing under an upheld draw: not printed.
    assert!(!bcf.contains("could still mate"), "{bcf}");
    assert!(bcf.contains("Final position"), "{bcf}");
    let ecf = text("ecf-shuffle");
    // The diagram's title names the position it shows.
    assert!(
        ecf.contains("Final position, after 70. Ke4 (ECF QPF 15)"),
        "{ecf}"
    );
    // The chart: the last moves, the BCF RP 12 five-minute line where the
    // ruleset has it, and the decision box with the ruling, before the evidence.
    let illegal = text("bcf-illegal");
    assert!(illegal.contains("5:00 (BCF RP 12)"), "{illegal}");
    // Why the move is illegal, in words and framed on the diagram.
    assert!(
        illegal.contains("the king would stand on f2, attacked by the knight on d3"),
        "{illegal}"
    );
    assert!(
        illegal
            .contains("The diagram frames 21. Kf2 and the men that make it illegal (g1, f2, d3)."),
        "{illegal}"
    );
    assert!(!ecf.contains("(BCF RP 12)"), "{ecf}");
    for t in [&bcf, &ecf, &illegal] {
        let decision = t.find("Decision of the").expect("decision box");
        let sheet = t.find("Scoresheet (").expect("scoresheet");
        assert!(decision < sheet, "{t}");
    }
    assert!(
        ecf.contains(
            "ECF QPF 11(b) A ground for the claim: the opponent has been making no effort"
        ),
        "{ecf}"
    );
}

/// A claim's `ruleset` follows the one containment rule: a built-in name, or
/// a ruleset file beside the claim; nothing else is opened or quoted.
#[test]
fn a_claims_ruleset_path_is_contained() {
    let base = "kind = \"win-on-time\"\nclaimant = \"black\"\nmoves = \"1. e4 e5\"\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    let load = |ruleset: &str| {
        std::fs::write(&path, format!("{base}ruleset = \"{ruleset}\"\n")).unwrap();
        load_claim(&path, LoadOptions::default())
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let err = load("/etc/passwd");
    assert!(err.contains("unknown ruleset \"/etc/passwd\""), "{err}");
    assert!(!err.contains("root:"), "{err}");
    assert!(load("/dev/zero").contains("unknown ruleset"));
    assert!(load("/tmp/x.toml").contains("an absolute path"));
    assert!(load("../x.toml").contains("leads out of the folder"));
    // A FIFO beside the claim is refused without blocking.
    let fifo = dir.path().join("f.toml");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        assert!(load("f.toml").contains("is not a regular file"));
    }
}

/// A packet that cannot be written (here a folder stands where the file
/// would go, as a full disk would refuse it) is marked in claims.csv, the
/// others are written, and the exit status is 2.
#[test]
fn a_packet_that_cannot_be_written_is_marked_in_claims_csv() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir_all(out.join("ecf-shuffle.pdf")).unwrap();
    let o = arbiter(&[
        "claim",
        "-q",
        sample("claims/ecf-shuffle.toml").to_str().unwrap(),
        sample("claims/bcf-krkn.toml").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("{}:", out.join("ecf-shuffle.pdf").display())),
        "{err}"
    );
    assert!(!err.contains(".part"), "{err}");
    let rows: BTreeMap<String, Row> = parse_csv(&std::fs::read(out.join("claims.csv")).unwrap())
        .into_iter()
        .map(|r| (r["claim"].clone(), r))
        .collect();
    assert_eq!(rows["bcf-krkn"]["packet"], "bcf-krkn.pdf");
    assert!(out.join("bcf-krkn.pdf").is_file());
    assert!(
        rows["ecf-shuffle"]["packet"].starts_with("not written: "),
        "{:?}",
        rows["ecf-shuffle"]
    );
    // The ruling itself is still there for the secretary.
    assert!(!rows["ecf-shuffle"]["recommendation"].is_empty());
}

/// The clocks are weighed as the record runs: the clock of the side that
/// did not make the last move written ran; a side that moved again after
/// its last written time may state any lower figure (issue 29's review).
#[test]
fn stated_clocks_are_weighed_by_who_moved_last() {
    let sample = std::fs::read_to_string(sample("claims/bcf-illegal.pgn")).unwrap();
    let claim = |sheet: &str, white: &str, black: &str| {
        judge(
            &format!("kind = \"illegal-move\"\nruleset = \"bcf-rapid\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"{white}\"\nclock_black = \"{black}\"\n"),
            &[("s.pgn", sheet)],
        )
    };
    // Claimed at once: Black's clock ran since 21. Kf2; ten seconds gone.
    let r = claim(&sample, "0:25:05", "0:04:20");
    assert_eq!(
        outcome(&r, CheckId::Clocks),
        CheckOutcome::Pass,
        "{}",
        r.detail
    );
    assert_eq!(r.recommendation, Recommendation::Uphold);
    // Claimed after Black's reply 21... Rc7: White's clock was the one
    // running, Black's stopped at 0:04:20. Too late: the move stands.
    let late = sample.replace(
        "21. Kf2 { [%clk 0:25:05] } *",
        "21. Kf2 { [%clk 0:25:05] } 21... Rc7 { [%clk 0:04:20] } *",
    );
    let r = claim(&late, "0:25:00", "0:04:20");
    assert_eq!(
        outcome(&r, CheckId::Clocks),
        CheckOutcome::Pass,
        "{:?}",
        r.checks
    );
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(r.rule, "BCF RP 13");
    // "If upheld" says what BCF RP 12 gives had it come in time: the loss.
    assert_eq!(r.result_if_upheld, "0-1");
    assert_eq!(r.upheld_result(), "0-1");
    // Over five minutes then, under at the claim: the time it would have
    // given is added to the clock as it was then, not at the claim.
    let over_then = late.replace(
        "20... Nxd3 { [%clk\n0:04:30] }",
        "20... Nxd3 { [%clk\n0:12:00] }",
    );
    assert_ne!(over_then, late);
    let r = claim(&over_then, "0:25:00", "0:04:20");
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(
        r.result_if_upheld,
        "play continues from the position before 21. Kf2; Black +2:00 by default (0:12:00 to 0:14:00)"
    );
    // The packet agrees with itself: the diagram shows the last position
    // (the illegal move stood), the scoresheet is not "all legal", plurals.
    let p = arbiter::report::packet::claim_packet(&r);
    assert_eq!(p.position_title, "Final position, after 21... Rc7+");
    let finding = |name: &str| {
        p.findings
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.detail.clone())
            .unwrap_or_default()
    };
    assert!(
        !finding("scoresheet").contains("all legal"),
        "{}",
        finding("scoresheet")
    );
    assert!(
        finding("scoresheet").contains("21. Kf2 is illegal, and play went on after it"),
        "{}",
        finding("scoresheet")
    );
    assert!(
        finding("claimed-in-time").starts_with("1 more move was played after 21. Kf2"),
        "{}",
        finding("claimed-in-time")
    );
    // Black's stopped clock stated lower: a conflict, said in the check;
    // but the late claim fails whatever the clocks (the move stands), so
    // it is rejected, not referred.
    let r = claim(&late, "0:25:00", "0:04:00");
    let clocks = r.check(CheckId::Clocks).unwrap();
    assert_eq!(clocks.outcome, CheckOutcome::Fail);
    assert!(
        clocks
            .detail
            .contains("a change on a clock that was not running"),
        "{}",
        clocks.detail
    );
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    // Claimed in time, the same contradiction refers: BCF RP 12 turns on
    // the clocks.
    let r = claim(&sample, "0:25:05", "0:09:00");
    assert_eq!(outcome(&r, CheckId::Clocks), CheckOutcome::Fail);
    assert_eq!(r.recommendation, Recommendation::Refer, "{}", r.detail);
    assert!(
        r.detail.starts_with("the evidence conflicts: "),
        "{}",
        r.detail
    );
}

/// A draw claim whose times stop being written (players may stop
/// recording under five minutes): the stale figure is no conflict.
#[test]
fn a_stale_clock_figure_is_no_conflict() {
    let unrecorded = KRKN
        .replace(" { [%clk 0:05:00] }", "")
        .replace(" { [%clk 0:01:15] }", "");
    let r = judge(
        "kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\narbiter = false\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:04:30\"\nclock_black = \"0:01:00\"\nfees_paid = [\"black\"]\n",
        &[("s.pgn", &unrecorded)],
    );
    assert_eq!(
        outcome(&r, CheckId::Clocks),
        CheckOutcome::Pass,
        "{:?}",
        r.checks
    );
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
}

/// A second game in the scoresheet's file: the claim's board picks one,
/// said in the check, and a claim that names none is an error, not the
/// first game guessed; a kind the ruleset lacks is rejected even when the
/// written position does not match.
#[test]
fn notes_that_are_not_conflicts() {
    let claim = "kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\narbiter = false\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:05:00\"\nclock_black = \"0:01:15\"\nfees_paid = [\"black\"]\n";
    let two = format!("[Round \"1.1\"]\n{KRKN}\n[Round \"1.2\"]\n{KRKN}");
    let r = judge(&format!("{claim}board = 2\n"), &[("s.pgn", &two)]);
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
    let sheet = r.check(CheckId::Scoresheet).unwrap();
    assert!(
        sheet.detail.ends_with(
            "(game 2 of the 2 the file holds, the one the claim's board and players name)"
        ),
        "{}",
        sheet.detail
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.pgn"), &two).unwrap();
    std::fs::write(dir.path().join("c.toml"), claim).unwrap();
    let e = load_claim(&dir.path().join("c.toml"), LoadOptions::default())
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with(
            "\"s.pgn\" holds 2 games: give the claim's board (or white and black) to say which"
        ),
        "{e}"
    );
    let none = "kind = \"clear-draw-appeal\"\nruleset = \"fide-rapid\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nfinal_fen = \"8/8/8/8/8/8/8/K6k w - - 0 1\"\n";
    let r = judge(none, &[("s.pgn", KRKN)]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
}

/// Sabah v.8 asks for "a clear drawn position": an appeal by the side that
/// is winning is no clear draw (issue 29).
#[test]
fn a_sabah_appeal_by_the_winning_side_is_no_clear_draw() {
    // White, with king and queen against a bare king, appeals for a draw.
    let pgn = "[FEN \"8/8/4k3/8/8/3QK3/8/8 b - - 0 50\"]\n[SetUp \"1\"]\n\n50... Kf6 { [%clk 0:10:00] } 51. Qd5 { [%clk 0:12:00] } *\n";
    let r = judge(
        "kind = \"clear-draw-appeal\"\nruleset = \"sabah-active30\"\nclaimant = \"white\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:12:00\"\nclock_black = \"0:10:00\"\n",
        &[("s.pgn", pgn)],
    );
    assert_eq!(
        outcome(&r, CheckId::NormalMeans),
        CheckOutcome::Fail,
        "{:?}",
        r.checks
    );
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    // Led by what fails the appeal, the appellant's own win (it led with
    // the opponent's lack of one, a fact for the appeal).
    assert!(
        r.detail.starts_with("not a clear drawn position: the appellant can win: K+Q v K: a standard mate against a bare king: a win by normal means; the opponent: Black cannot checkmate"),
        "{}",
        r.detail
    );
}

/// Ground (b) alone: nobody asked whether anyone can mate, so no helpmate
/// line under the ruling; the grounds are labelled as the text numbers them.
#[test]
fn a_no_effort_claim_prints_no_helpmate_line() {
    let base = "kind = \"draw-last-two-minutes\"\nruleset = \"ecf-quickplay\"\ngrounds = [\"no-effort\"]\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\ndate = 2009-11-12\nreceived = 2009-11-20\nclock_white = \"0:03:52\"\nclock_black = \"0:01:09\"\nsubmitted_by = [\"white\", \"black\"]\nfees_paid = [\"white\", \"black\"]\n";
    let r = judge(base, &[("s.pgn", SHUFFLE_GAME)]);
    assert!(r.mate_line.is_none(), "{:?}", r.mate_line);
    let p = arbiter::report::packet::claim_packet(&r);
    assert!(
        p.notes.iter().all(|n| !n.starts_with("Helpmate line")),
        "{:?}",
        p.notes
    );
    let grounds = p
        .header
        .iter()
        .find(|(k, _)| k == "Grounds")
        .map(|(_, v)| v.as_str());
    assert_eq!(grounds, Some("no-effort (ECF QPF 11(b))"));
}

/// The position a claimant writes may be the board as it now stands, past
/// an illegal move the replay stopped at: that is the last one the
/// scoresheet records, not a contradiction (the second review of issue 29).
#[test]
fn the_written_position_may_be_the_last_one_recorded() {
    let sheet = "[Event \"t\"]\n[Result \"*\"]\n\n1. e4 d5 2. Bb5+ Kd7 3. a3 Ke6 *\n";
    let r = judge(
        "kind = \"illegal-move\"\nruleset = \"fide-standard\"\nclaimant = \"white\"\nscoresheet = \"s.pgn\"\nfinal_fen = \"rnbq1bnr/ppp1pppp/4k3/1B1p4/4P3/P7/1PPP1PPP/RNBQK1NR w KQ - 1 4\"\n",
        &[("s.pgn", sheet)],
    );
    let c = r.check(CheckId::FinalPosition).unwrap();
    assert_eq!(c.outcome, CheckOutcome::Pass, "{}", c.detail);
    assert!(
        c.detail.contains("the last one the scoresheet records"),
        "{}",
        c.detail
    );
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
}

/// A written position the scoresheet contradicts: both FENs, and the
/// difference in words as two diagrams are compared (it gave the two FENs
/// alone, which a secretary cannot read).
#[test]
fn a_written_position_at_odds_says_how_man_by_man() {
    let sheet = "[FEN \"8/8/4k3/8/8/4P3/5K2/8 w - - 0 60\"]\n[SetUp \"1\"]\n\n60. Kf3 { [%clk 0:04:00] } Kf5 { [%clk 0:01:50] } *\n";
    let r = judge(
        "kind = \"draw-last-two-minutes\"\nruleset = \"bcf-rapid\"\ngrounds = [\"cannot-win-by-normal-means\"]\nclaimant = \"black\"\narbiter = false\nscoresheet = \"s.pgn\"\nfinal_fen = \"8/8/8/5k2/4P3/5K2/8/8 b - - 0 60\"\nclock_white = \"0:04:00\"\nclock_black = \"0:01:50\"\n",
        &[("s.pgn", sheet)],
    );
    let c = r.check(CheckId::FinalPosition).unwrap();
    assert_eq!(c.outcome, CheckOutcome::Fail);
    assert_eq!(
        c.detail,
        "the claimant wrote 8/8/8/5k2/4P3/5K2/8/8 b - - 0 60 but the scoresheet ends in 8/8/8/5k2/8/4PK2/8/8 w - - 2 61: White's pawn on e4 in the claim, e3 on the scoresheet; Black to move in the claim, White on the scoresheet"
    );
    assert_eq!(r.recommendation, Recommendation::Refer);
}

/// A flag that fell: the clock stated at zero agrees with any figure the
/// scoresheet showed before that move, however large.
#[test]
fn a_fallen_flag_is_no_clock_conflict() {
    let sheet = "[FEN \"4k3/8/4K3/8/8/8/8/Q7 w - - 0 60\"]\n[SetUp \"1\"]\n\n60. Qa7 { [%clk 0:05:00] } Kf8 { [%clk 0:07:00] } 61. Qb8+ { [%clk 0:04:50] } *\n";
    let r = judge(
        "kind = \"win-on-time\"\nruleset = \"fide-rapid\"\nclaimant = \"white\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:04:50\"\nclock_black = \"0:00:00\"\n",
        &[("s.pgn", sheet)],
    );
    assert_eq!(
        outcome(&r, CheckId::Clocks),
        CheckOutcome::Pass,
        "{:?}",
        r.checks
    );
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
}

/// A claim file with a huge bad value is answered with a short message
/// that quotes its start and its length (issue 34's bounded messages).
#[test]
fn a_huge_bad_value_is_quoted_short() {
    let dir = tempfile::tempdir().unwrap();
    let huge = "b".repeat(600_000);
    std::fs::write(
        dir.path().join("c.toml"),
        format!("kind = \"win-on-time\"\nruleset = \"fide-rapid\"\nclaimant = \"{huge}\"\nmoves = \"1. e4\"\n"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = arbiter(&[
        "claim",
        dir.path().join("c.toml").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.len() < 2_000, "{} bytes on stderr", err.len());
    assert!(err.contains("bytes in all)"), "{err}");
    let csv = std::fs::read(out.join("claims.csv")).unwrap();
    assert!(csv.len() < 2_000, "{} bytes in claims.csv", csv.len());
}

/// A signed ruling recorded once (`--record-ruling`) is applied by
/// `adjudicate` to the claim's game; recording again changes nothing, and a
/// contrary ruling is a conflict that leaves the file's row standing.
#[test]
fn signed_rulings_are_recorded_once_and_applied() {
    let dir = tempfile::tempdir().unwrap();
    let decisions = dir.path().join("decisions.csv");
    let out = dir.path().join("packets");
    let record = || {
        arbiter(&[
            "claim",
            sample("claims/bcf-illegal.toml").to_str().unwrap(),
            sample("claims/ecf-shuffle.toml").to_str().unwrap(),
            sample("claims/hsl-ilc.toml").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--record-ruling",
            decisions.to_str().unwrap(),
            "--decided-by",
            "League Secretary",
            "--decided-on",
            "2026-12-01",
        ])
    };
    let o = record();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("claim hsl-ilc: not recorded: play goes on: no result to record"),
        "{err}"
    );
    assert!(
        err.contains("2 rulings recorded, signed by League Secretary on 2026-12-01"),
        "{err}"
    );
    let claims = parse_csv(&std::fs::read(out.join("claims.csv")).unwrap());
    let key = |c: &str| claims.iter().find(|r| r["claim"] == c).unwrap()["game_key"].clone();
    let written = std::fs::read_to_string(&decisions).unwrap();
    assert_eq!(
        written,
        format!(
            "game_key,result,rule,decided_by,decided_on,note\n\
             {},0-1,BCF RP 12,League Secretary,2026-12-01,claim bcf-illegal\n\
             {},1/2-1/2,ECF QPF 12; ECF QPF 11(b),League Secretary,2026-12-01,claim ecf-shuffle\n",
            key("bcf-illegal"),
            key("ecf-shuffle")
        )
    );
    // Again: nothing new.
    let o = record();
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already recorded"));
    assert_eq!(std::fs::read_to_string(&decisions).unwrap(), written);
    // The file says otherwise for one game: a conflict, the row stands.
    let edited = written.replacen(",0-1,BCF RP 12,", ",1-0,BCF RP 12,", 1);
    std::fs::write(&decisions, &edited).unwrap();
    let o = record();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("records 1-0 for this game, not 0-1: not replaced"));
    assert_eq!(std::fs::read_to_string(&decisions).unwrap(), edited);
    std::fs::write(&decisions, &written).unwrap();
    // adjudicate applies the signed ruling to the scoresheet's game.
    let o = arbiter(&[
        "adjudicate",
        "--no-rules-map",
        "-r",
        "bcf-rapid",
        sample("claims/bcf-illegal.pgn").to_str().unwrap(),
        "--decisions",
        decisions.to_str().unwrap(),
    ]);
    let rows = parse_csv(&o.stdout);
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (
            rows[0]["status"].as_str(),
            rows[0]["result"].as_str(),
            rows[0]["rule"].as_str()
        ),
        ("decided", "0-1", "BCF RP 12")
    );
    assert_eq!(rows[0]["game_key"], key("bcf-illegal"));

    // Saved from Excel with semicolons: read, and added to with them.
    let semicolons = written
        .replace(',', ";")
        .replace("ECF QPF 12; ECF QPF 11(b)", "\"ECF QPF 12; ECF QPF 11(b)\"");
    let first_only: String = semicolons
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&decisions, &first_only).unwrap();
    let o = record();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&decisions).unwrap(), semicolons);
    // Saved as "ANSI" with a name only that code page writes: refused,
    // saying why, and left as it was.
    let ansi = encoding_rs::WINDOWS_1252
        .encode(&first_only.replace("League Secretary", "Secrétaire"))
        .0
        .into_owned();
    std::fs::write(&decisions, &ansi).unwrap();
    let o = record();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("not saved as UTF-8 (in Excel: \"CSV UTF-8\")"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read(&decisions).unwrap(), ansi);
}

/// `pdfinfo -isodates` of a PDF: its fields by name.
fn pdfinfo(pdf: &Path) -> BTreeMap<String, String> {
    let o = Command::new("pdfinfo")
        .arg("-isodates")
        .arg(pdf)
        .output()
        .expect("pdfinfo (poppler-utils)");
    assert!(o.status.success());
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        // The first of a name: a PDF/X subtype's "Title" comes later.
        .fold(BTreeMap::new(), |mut m, (k, v)| {
            m.entry(k).or_insert(v);
            m
        })
}

/// The letters of the diagram whose file labels are the `nth` row of
/// "a b ... h" on page `page` (from 0, top down), by square.
fn nth_diagram_letters(pdf: &Path, page: u32, nth: usize) -> BTreeSet<(String, char)> {
    let p = page.to_string();
    let words = common::pdf_words(pdf, &["-f", &p, "-l", &p]);
    // Rows of file labels: an "a" with an "h" on its line, top down.
    let mut rows: Vec<f32> = words
        .iter()
        .filter(|(w, _, y)| {
            w == "a"
                && words
                    .iter()
                    .any(|(h, _, y2)| h == "h" && (y - y2).abs() < 1.0)
        })
        .map(|(_, _, y)| *y)
        .collect();
    rows.sort_by(f32::total_cmp);
    rows.dedup_by(|a, b| (*a - *b).abs() < 1.0);
    let base = rows[nth];
    let x_of = |c: char| {
        words
            .iter()
            .find(|(w, _, y)| w == &c.to_string() && (y - base).abs() < 1.0)
            .map(|(_, x, _)| *x)
            .unwrap()
    };
    let (xa, xh) = (x_of('a'), x_of('h'));
    let sq = (xh - xa) / 7.0;
    let mut out = BTreeSet::new();
    for (w, x, y) in &words {
        if w.len() != 1 || !"KQRBNP".contains(w.as_str()) {
            continue;
        }
        let file = ((x - xa) / sq + 0.5).floor();
        // Rank 1's centre is about a square above the file labels.
        let rank = ((base - y) / sq + 0.35).floor();
        if (0.0..8.0).contains(&file) && (1.0..=8.0).contains(&rank) {
            let s = Square::from_coords(
                shakmaty::File::new(file as u32),
                shakmaty::Rank::new(rank as u32 - 1),
            );
            out.insert((s.to_string(), w.chars().next().unwrap()));
        }
    }
    out
}

/// The DDCL sample's board 4 (a dead position after 55. Bxg7, five moves
/// written after it): the sheet agrees with itself. Its header clocks are
/// the scoresheet's, the finding does not repeat the reason, the position
/// the ruling rests on is drawn, the ruleset is the one the rules map
/// chose, and the PDF says what it is and when it was made.
#[test]
fn the_ddcl_board_4_review_sheet_agrees_with_itself() {
    if !common::tools(
        "the_ddcl_board_4_review_sheet_agrees_with_itself",
        &[common::Tool::Poppler],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let packets = dir.path().join("p");
    // As the README runs it: the samples folder, under its rules map.
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", "-o", "-", "samples/", "--packets"])
        .arg(&packets)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pdf = packets.join("samples_ddcl-league-match-game4.pdf");
    let text = pdftotext(&pdf, &["-layout"]);
    for s in [
        "Clocks at the end     White 0:00:28, Black 0:00:00",
        "Ruling rests on       55. Bxg7",
        "Clocks then           White 0:00:30, Black none written",
        "(ecf-quickplay)",
        "Position the ruling rests on, after 55. Bxg7",
        "recorded result",
    ] {
        assert!(text.contains(s), "{s:?} missing:\n{text}");
    }
    assert!(!text.contains("Black not known"), "{text}");
    assert!(!text.contains("dead-position: dead position"), "{text}");
    assert!(!text.contains("ply"), "{text}");
    // Both diagrams: the last position recorded, and the one the ruling rests on.
    assert_eq!(
        nth_diagram_letters(&pdf, 1, 0),
        letters_of("5B2/8/8/5k2/8/5K2/8/8 w - - 5 58")
    );
    assert_eq!(
        nth_diagram_letters(&pdf, 1, 1),
        letters_of("8/6B1/4k3/8/8/4K3/8/8 b - - 0 55")
    );
    let info = pdfinfo(&pdf);
    assert_eq!(
        info["Title"],
        "Review sheet: samples/ddcl-league-match.pgn, game 4 · dead-position"
    );
    assert!(
        info["CreationDate"].starts_with("2026-01-01T00:00:00"),
        "{info:?}"
    );
    assert_eq!(
        info["Creator"],
        format!("arbiter {}", env!("CARGO_PKG_VERSION"))
    );
    // Not PDF/X, and not said to be.
    assert!(!info.contains_key("PDF subtype"), "{info:?}");
    assert_eq!(info["Page size"], "595.276 x 841.89 pts (A4)");
    // The high-school league prints on Letter: its ruleset says so.
    let hs = packets.join("samples_hs-league-game1.pdf");
    assert_eq!(pdfinfo(&hs)["Page size"], "612 x 792 pts (letter)");
}

/// `--paper` over the ruleset's paper, for claims and review sheets alike;
/// every PDF dated the day it was made, never 1970.
#[test]
fn paper_follows_the_ruleset_unless_asked() {
    if !common::tools(
        "paper_follows_the_ruleset_unless_asked",
        &[common::Tool::Poppler],
    ) {
        return;
    }
    let (dir, _) = run_samples(&[]);
    let size = |f: &str| pdfinfo(&dir.path().join(f))["Page size"].clone();
    assert_eq!(size("hsl-ilc.pdf"), "612 x 792 pts (letter)");
    assert_eq!(size("ecf-progress.pdf"), "595.276 x 841.89 pts (A4)");
    let today = {
        let days = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
            / 86_400;
        // Days since 1970 to a civil date (proleptic Gregorian).
        let z = days as i64 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        let y = yoe + era * 400 + i64::from(m <= 2);
        format!("{y:04}-{m:02}-{d:02}")
    };
    let made = pdfinfo(&dir.path().join("hsl-ilc.pdf"))["CreationDate"].clone();
    assert!(made.starts_with(&today), "{made} is not {today}");
    assert_eq!(
        pdfinfo(&dir.path().join("hsl-ilc.pdf"))["Title"],
        "Appeal packet: insufficient-losing-chances claim · hsl-ilc"
    );
    let (dir, _) = run_samples(&["--paper", "a4"]);
    assert_eq!(
        pdfinfo(&dir.path().join("hsl-ilc.pdf"))["Page size"],
        "595.276 x 841.89 pts (A4)"
    );
    let out = tempfile::tempdir().unwrap();
    let o = arbiter(&[
        "adjudicate",
        "-q",
        "-r",
        "ecf-quickplay",
        sample("ddcl-league-match.pgn").to_str().unwrap(),
        "--packets",
        out.path().to_str().unwrap(),
        "--paper",
        "letter",
        "-o",
        "/dev/null",
    ]);
    assert!(o.status.success());
    for e in std::fs::read_dir(out.path()).unwrap() {
        let info = pdfinfo(&e.unwrap().path());
        assert_eq!(info["Page size"], "612 x 792 pts (letter)");
    }
}

/// The decisions file `--record-ruling` adds to is never replaced by
/// another output, is checked before anything is written, and keeps what a
/// ruling says even where it lacks the date and note columns.
#[test]
fn the_decisions_file_a_ruling_goes_into_is_kept_whole() {
    let dir = tempfile::tempdir().unwrap();
    let decisions = dir.path().join("d.csv");
    let out = dir.path().join("o");
    let kept = "game_key,result,rule,decided_by\r\n0000000000000001-0000000000000002,1-0,DDCL 13,Secretary\r\n";
    std::fs::write(&decisions, kept).unwrap();
    let claim = sample("claims/bcf-krkn.toml");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "claim",
            claim.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--decided-by",
            "Ann",
            "--decided-on",
            "2026-12-01",
        ];
        args.extend_from_slice(extra);
        arbiter(&args)
    };
    let d = decisions.to_str().unwrap();
    // The review page or the claims table onto the decisions file: refused.
    let o = run(&["--record-ruling", d, "--html", d]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&decisions).unwrap(), kept);
    let table = out.join("claims.csv");
    let o = run(&["--record-ruling", table.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A file that is no decisions file: said before any packet is written.
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "name,score\nx,1\n").unwrap();
    let o = run(&["--record-ruling", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no game_key column"));
    assert!(!out.join("bcf-krkn.pdf").exists());
    // Added to a file without decided_on and note: the columns are added,
    // the row already there kept, its line ends kept.
    let o = run(&["--record-ruling", d]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&decisions).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(lines[0], "game_key,result,rule,decided_by,decided_on,note");
    assert_eq!(
        lines[1],
        "0000000000000001-0000000000000002,1-0,DDCL 13,Secretary,,"
    );
    assert!(
        lines[2].ends_with(",1/2-1/2,BCF RP NA-6; BCF RP NA-2(a),Ann,2026-12-01,claim bcf-krkn"),
        "{text}"
    );
    assert_eq!(lines[3], "");
}

/// The helpmate line a check rests on is printed whole, however long: the
/// `claimant-can-mate` check of BCF RP 12 passes on bcf-illegal's 22-move
/// line, and hsl-ilc's ground (a) is not settled by it. Wrapped over lines,
/// each move number stays with its move.
#[test]
fn the_helpmate_line_a_check_rests_on_is_printed_whole() {
    if !common::tools(
        "the_helpmate_line_a_check_rests_on_is_printed_whole",
        &[common::Tool::Poppler],
    ) {
        return;
    }
    let (dir, _) = run_samples(&[]);
    let cases = [
        (
            "bcf-illegal",
            "Helpmate line: Black can mate, for example 21. dxc5 bxc5 22. h3 a4 23. bxa4 c4 \
             24. e4 fxe4 25. fxe4 dxe4 26. g4 c3 27. h4 cxb2 28. a5 bxc1=Q 29. a4 e3 30. g5 \
             exd2 31. gxf6 gxf6 32. h5 fxe5 33. a6 e4 34. axb7 e3 35. bxc8=Q e2 36. a5 \
             exd1=Q+ 37. Bf1 h6 38. a6 Nf2 39. a7 Rxc8 40. a8=Q Rxa8 41. Kg2 Qxf1+ 42. Kf3 \
             d1=Q# ",
        ),
        (
            "hsl-ilc",
            "Helpmate line: White could still mate, for example 77... Ka4 78. c7 Ka3 79. c8=Q \
             Ka2 80. Kc6 Ka1 81. Kb7 Ka2 82. Qc1 Kb3 83. Qa1 Kb4 84. Qb1+ Ka5 85. Kc6 Ka6 \
             86. Qa1# ",
        ),
    ];
    for (claim, line) in cases {
        let pdf = dir.path().join(format!("{claim}.pdf"));
        let layout = pdftotext(&pdf, &["-layout"]);
        let text = layout.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(text.contains(line), "{claim}: {text}");
        assert!(!text.contains("not printed"), "{claim}: {text}");
        // Over three lines (two for hsl-ilc), none ending in a move number.
        let start = layout.find("Helpmate line:").unwrap();
        let end = layout[start..].find("#").unwrap() + start;
        let lines: Vec<&str> = layout[start..=end].lines().collect();
        assert_eq!(
            lines.len(),
            if claim == "bcf-illegal" { 3 } else { 2 },
            "{lines:?}"
        );
        for l in &lines {
            assert!(!l.trim_end().ends_with('.'), "{claim}: {l:?}");
        }
    }
}

/// A claim clock is `h:mm:ss` or `m:ss` (seconds with a fraction allowed):
/// "3.52", a mistyped 3:52, is not read as three and a half seconds but is
/// an error naming the file, the field and the value; the other claim in
/// the folder is still judged and its packet written, and the run exits 2.
#[test]
fn a_mistyped_claim_clock_is_an_error_and_the_others_are_judged() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in [
        "ecf-shuffle.pgn",
        "ecf-shuffle.toml",
        "bcf-krkn.pgn",
        "bcf-krkn.toml",
    ] {
        std::fs::copy(sample(&format!("claims/{name}")), d.join(name)).unwrap();
    }
    let claim = d.join("ecf-shuffle.toml");
    let good = std::fs::read_to_string(&claim).unwrap();
    let line = good
        .lines()
        .find(|l| l.starts_with("clock_white = "))
        .unwrap();
    for bad in ["3.52", "352"] {
        std::fs::write(
            &claim,
            good.replace(line, &format!("clock_white = \"{bad}\"")),
        )
        .unwrap();
        let out = d.join("out");
        let o = arbiter(&["claim", d.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        let want = format!(
            "arbiter: {}: field `clock_white`: \"{bad}\" is not a clock (h:mm:ss or m:ss)",
            claim.display()
        );
        assert!(err.lines().any(|l| l == want), "{want}\n{err}");
        let rows: BTreeMap<String, Row> =
            parse_csv(&std::fs::read(out.join("claims.csv")).unwrap())
                .into_iter()
                .map(|r| (r["claim"].clone(), r))
                .collect();
        assert_eq!(rows["ecf-shuffle"]["recommendation"], "error");
        assert_eq!(rows["ecf-shuffle"]["checks_failed"], "claim-file");
        // The claim's own cells, as it writes them (they were empty).
        assert_eq!(
            [
                &rows["ecf-shuffle"]["kind"],
                &rows["ecf-shuffle"]["ruleset"],
                &rows["ecf-shuffle"]["claimant"]
            ],
            ["draw-last-two-minutes", "ecf-quickplay", "black"]
        );
        assert!(!out.join("ecf-shuffle.pdf").exists());
        assert_eq!(rows["bcf-krkn"]["recommendation"], "uphold");
        assert_eq!(rows["bcf-krkn"]["packet"], "bcf-krkn.pdf");
        assert!(out.join("bcf-krkn.pdf").is_file());
        std::fs::remove_dir_all(&out).unwrap();
    }
    // With a fraction after whole seconds the clock reads.
    std::fs::write(&claim, good.replace(line, "clock_white = \"0:03:52.5\"")).unwrap();
    let out = d.join("out");
    let o = arbiter(&[
        "claim",
        "-q",
        claim.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rows = parse_csv(&std::fs::read(out.join("claims.csv")).unwrap());
    assert_eq!(rows[0]["recommendation"], "uphold", "{}", rows[0]["detail"]);
}

/// A claim file saved from Notepad as "ANSI" (Windows-1252) or "Unicode"
/// (UTF-16 with its mark), with an accented name in it, is the claim the
/// UTF-8 file is.
#[test]
fn a_claim_saved_by_notepad_in_any_encoding_is_the_same_claim() {
    let text = std::fs::read_to_string(sample("claims/sabah-appeal.toml"))
        .unwrap()
        .replace(
            "Sabah Active-30 Open",
            "Sabah Active-30 Open (Kota Kinabalu, Café Tenom)",
        );
    assert!(text.contains('é'));
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        sample("claims/sabah-krkr.pgn"),
        dir.path().join("sabah-krkr.pgn"),
    )
    .unwrap();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let ansi = encoding_rs::WINDOWS_1252.encode(&text).0.into_owned();
    assert!(std::str::from_utf8(&ansi).is_err());
    let mut rulings = Vec::new();
    for (name, bytes) in [
        ("utf8.toml", text.clone().into_bytes()),
        ("ansi.toml", ansi),
        ("unicode.toml", utf16),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let c = load_claim(&path, LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        let r = judge_claim(c, None);
        rulings.push((r.recommendation, r.rule.to_string(), r.detail));
    }
    assert_eq!(rulings[0].0, Recommendation::Refer);
    assert!(rulings.iter().all(|r| *r == rulings[0]), "{rulings:?}");
}

/// BCF RP 12 turns on five minutes: a stated clock a second the other side
/// of it from the scoresheet is not waved through by the whole-second
/// tolerance. A clock that ran since its figure can only be lower; a
/// stopped one is its figure. Either way the evidence conflicts: refer,
/// naming both figures.
#[test]
fn a_stated_clock_across_the_five_minute_line_from_the_record_is_referred() {
    let sheet = |black_after: &str, white_after: &str| {
        format!("[Result \"*\"]\n\n1. f3 {{ [%clk 0:20:00] }} e5 {{ [%clk 0:{black_after}] }} 2. Kf2 {{ [%clk 0:{white_after}] }} Qh4+ {{ [%clk 0:{black_after}] }} 3. Kg3 {{ [%clk 0:{white_after}] }} *\n")
    };
    let claim = |w: &str, b: &str| {
        format!("kind = \"illegal-move\"\nruleset = \"bcf-rapid\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:{w}\"\nclock_black = \"0:{b}\"\n")
    };
    // Black's clock ran from 3. Kg3 to the claim: under 5:00 on the record.
    let r = judge(
        &claim("10:00", "05:00"),
        &[("s.pgn", &sheet("04:59", "10:00"))],
    );
    assert_eq!(r.recommendation, Recommendation::Refer);
    assert_eq!(r.failed(), vec![CheckId::Clocks]);
    assert_eq!(
        r.check(CheckId::Clocks).unwrap().detail,
        "the clocks conflict: Black 0:05:00 in the claim, 0:04:59 on the scoresheet after 2... Qh4+: 0:04:59 is the most the scoresheet allows, as a clock only runs down; either side of 5:00, on which the ruling turns"
    );
    // White's clock stopped when 3. Kg3 was completed: 5:00 on the record.
    let r = judge(
        &claim("04:59", "10:00"),
        &[("s.pgn", &sheet("10:00", "05:00"))],
    );
    assert_eq!(r.recommendation, Recommendation::Refer);
    assert!(
        r.check(CheckId::Clocks)
            .unwrap()
            .detail
            .ends_with("0:05:00 is the scoresheet's figure, for a clock that was not running; either side of 5:00, on which the ruling turns"),
        "{}",
        r.check(CheckId::Clocks).unwrap().detail
    );
    // Black's clock ran down a second past the line: what the record predicts.
    let r = judge(
        &claim("10:00", "04:59"),
        &[("s.pgn", &sheet("05:00", "10:00"))],
    );
    assert_eq!(r.recommendation, Recommendation::Uphold);
    assert_eq!(r.result_if_upheld, "0-1");
    // The other clock under five minutes: the move loses whichever
    // reading of Black's is taken, so the clocks do not conflict.
    let r = judge(
        &claim("03:00", "05:00"),
        &[("s.pgn", &sheet("04:59", "03:00"))],
    );
    assert_eq!(outcome(&r, CheckId::Clocks), CheckOutcome::Pass);
    assert_eq!(
        (r.recommendation, r.result_if_upheld.as_str()),
        (Recommendation::Uphold, "0-1")
    );
    // Away from the line the tolerance stands.
    let r = judge(
        &claim("10:00", "06:01"),
        &[("s.pgn", &sheet("06:00", "10:00"))],
    );
    assert_eq!(outcome(&r, CheckId::Clocks), CheckOutcome::Pass);
}

/// "If upheld" on a win-on-time claim is what upholding gives: a draw
/// where the claimant cannot mate (ECF QPF 9 "unless the player who makes
/// the claim cannot possibly checkmate"), whichever flag is down. It
/// showed the claimant's win.
#[test]
fn a_win_on_time_claim_upheld_for_a_side_that_cannot_mate_is_a_draw() {
    let sheet = "[SetUp \"1\"]\n[FEN \"8/8/4k3/8/8/2K5/2B5/6q1 w - - 0 60\"]\n\n60. Kd3 { [%clk 0:00:20] } Qd1+ { [%clk 0:05:00] } 61. Ke3 { [%clk 0:00:10] } Qe1+ { [%clk 0:04:50] } *\n";
    let claim = |white: &str, black: &str| {
        format!("kind = \"win-on-time\"\nruleset = \"ddcl-cup\"\nclaimant = \"white\"\nscoresheet = \"s.pgn\"\nclock_white = \"{white}\"\nclock_black = \"{black}\"\n")
    };
    // The claimant's own flag down: no claim, play goes on; upheld, a draw.
    let r = judge(&claim("0:00:00", "0:04:50"), &[("s.pgn", sheet)]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(
        (r.result_if_upheld.as_str(), r.result_if_rejected.as_str()),
        ("1/2-1/2", "play continues")
    );
    assert_eq!(outcome(&r, CheckId::ClaimantCanMate), CheckOutcome::Fail);
    // The flags the right way round (Black's clock running after 61.
    // Ke3): a draw either way.
    let sheet = sheet.replace(" Qe1+ { [%clk 0:04:50] }", "");
    let r = judge(&claim("0:00:10", "0:00:00"), &[("s.pgn", &sheet)]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(
        (r.result_if_upheld.as_str(), r.result_if_rejected.as_str()),
        ("1/2-1/2", "1/2-1/2")
    );
}

/// HSL SD-ILC: a claim made with five minutes or more is not in order,
/// which costs no minute, whatever its merits; the ruling then cites the
/// paragraph and says the order first, the merits beside it. It cited (2),
/// "subtract one minute", beside "no penalty".
#[test]
fn a_claim_not_in_order_cites_the_order_where_that_decides_the_result() {
    let sheet = "[SetUp \"1\"]\n[FEN \"8/3K4/2P5/k7/8/8/8/8 w - - 0 77\"]\n\n77. Kd8 { [%clk 0:05:05] } Ka6 { [%clk 0:05:00] } *\n";
    let claim = |black: &str| {
        format!("kind = \"insufficient-losing-chances\"\nruleset = \"hs-league\"\nclaimant = \"black\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:05:05\"\nclock_black = \"{black}\"\n")
    };
    let r = judge(&claim("0:05:00"), &[("s.pgn", sheet)]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(r.rule, "HSL SD-ILC");
    assert_eq!(r.result_if_rejected, "play continues, no penalty");
    assert!(
        r.detail.starts_with("the claim is not in order: Black had 0:05:00 left: not under 5:00; on its merits it would fail too: K+P v K"),
        "{}",
        r.detail
    );
    // A window failure on a clock the sheet contradicts: the conflict
    // refers, as for any claim.
    let r = judge(&claim("0:06:00"), &[("s.pgn", sheet)]);
    assert_eq!(r.recommendation, Recommendation::Refer, "{}", r.detail);
    assert!(
        r.detail.starts_with("the evidence conflicts"),
        "{}",
        r.detail
    );
    // In order, the merits decide, and (2)'s minute goes with them.
    let sheet = sheet.replace("0:05:00", "0:04:00");
    let r = judge(&claim("0:04:00"), &[("s.pgn", &sheet)]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(r.rule, "HSL SD-ILC (2)");
    assert!(
        r.result_if_rejected.contains("0:04:00 to 0:03:00"),
        "{}",
        r.result_if_rejected
    );
}

/// A scoresheet named in other case ("S.PGN" beside "s.pgn", which Windows
/// would have opened) or a letter off ("s.pgm") is an error that names the
/// file beside it; one that nothing is near, or only a file of another
/// number ("board3.pgn" beside "board2.pgn"), is said plainly.
#[test]
fn a_misspelt_scoresheet_gets_the_file_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("board2.pgn"), KRKN).unwrap();
    let claim = "kind = \"win-on-time\"\nruleset = \"ecf-quickplay\"\nclaimant = \"black\"\nclock_white = \"0:00:00\"\nclock_black = \"0:01:15\"\n";
    for (name, sheet) in [
        ("a", "Board2.PGN"),
        ("b", "board2.pgm"),
        ("c", "other.pgn"),
        ("d", "board3.pgn"),
    ] {
        std::fs::write(
            d.join(format!("{name}.toml")),
            format!("{claim}scoresheet = \"{sheet}\"\n"),
        )
        .unwrap();
    }
    let out = d.join("out");
    let o = arbiter(&["claim", d.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for (name, sheet) in [("a", "Board2.PGN"), ("b", "board2.pgm")] {
        assert!(
            err.contains(&format!("{name}.toml: field `scoresheet`: \"{sheet}\": no such file (did you mean \"board2.pgn\", beside it?)")),
            "{err}"
        );
    }
    assert!(
        err.contains("c.toml: field `scoresheet`: \"other.pgn\": no such file\n"),
        "{err}"
    );
    // Another number is another board's game, never offered.
    assert!(
        err.contains("d.toml: field `scoresheet`: \"board3.pgn\": no such file\n"),
        "{err}"
    );
}

/// USCF's window in a claim: an illegal move found among the offender's
/// last ten moves is reinstated (11A, cited as such: it cited 11B, the
/// rule for one that stands); one found after ten more is no claim, said
/// by the window ("not claimed before the reply" is not USCF's test), the
/// offender's own moves counted (not half-moves).
#[test]
fn a_uscf_illegal_move_claim_counts_the_offenders_last_ten() {
    let claim = "kind = \"illegal-move\"\nruleset = \"uscf\"\nclaimant = \"white\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:10:00\"\nclock_black = \"0:10:00\"\n";
    let recent = "[Event \"x\"]\n[TimeControl \"G/30;d5\"]\n\n1. e4 f5 2. Qh5+ Kf7 3. Qh3 Nf6 4. Nc3 Nc6 *\n";
    let r = judge(claim, &[("s.pgn", recent)]);
    assert_eq!(r.recommendation, Recommendation::Uphold, "{}", r.detail);
    let c = r.check(CheckId::ClaimedInTime).unwrap();
    assert_eq!(
        (c.outcome, c.rule(), c.detail.as_str()),
        (
            CheckOutcome::Pass,
            "USCF 11A".to_string(),
            "found during the game among Black's last 10 moves (2 moves after it): the position is reinstated"
        )
    );
    let old = recent.replace(
        "4. Nc3 Nc6 *",
        "4. Nc3 Nc6 5. Nf3 e6 6. Be2 Be7 7. O-O Rf8 8. d3 a6 9. a3 b6 10. Rb1 Bb7 11. Re1 Qe8 12. Bd2 Rd8 *",
    );
    let r = judge(claim, &[("s.pgn", &old)]);
    assert_eq!(r.recommendation, Recommendation::Reject, "{}", r.detail);
    assert_eq!(r.rule, "USCF 11B");
    assert_eq!(
        r.detail,
        "2... Kf7 was found only after 10 more moves by Black, not among the last 10: it stands"
    );
    let c = r.check(CheckId::ClaimedInTime).unwrap();
    assert_eq!(c.detail, "Black made 10 moves after 2... Kf7, so it is not among the last 10: the move stands, no penalty");
}
