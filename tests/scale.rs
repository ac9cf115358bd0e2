//! Beyond one machine: `--shard K/N` runs whose outputs, concatenated in
//! order, are one run's output byte for byte, with GNU parallel as the
//! README's recipe runs them.

use crate::common;
use common::arbiter;

use std::process::Command;

/// Two plain exports and a gzip file between them: plain files are cut by
/// byte ranges, the compressed one goes whole to one shard.
fn inputs(dir: &std::path::Path) -> Vec<String> {
    let gz = dir.join("hs.pgn.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(
        &mut enc,
        &std::fs::read(common::sample("hs-league.pgn")).unwrap(),
    )
    .unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    vec![
        common::data("games-with-clocks/lichess_DrDrunkenstein_2018-2021_with-clocks-evals.pgn")
            .display()
            .to_string(),
        gz.display().to_string(),
        common::data("games-with-clocks/chesscom_mixed-incl-daily.pgn")
            .display()
            .to_string(),
    ]
}

#[test]
fn shards_concatenate_to_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let files = inputs(dir.path());
    for format in ["csv", "ndjson"] {
        let mut args = vec!["adjudicate", "-q", "-j2", "--format", format];
        args.extend(files.iter().map(String::as_str));
        let whole = arbiter(&args);
        assert!(whole.status.success());
        let games = whole.stdout.iter().filter(|&&b| b == b'\n').count();
        assert!(games > 1000, "{games}");
        for n in [2u32, 5, 7] {
            let mut merged = Vec::new();
            for k in 1..=n {
                let shard = format!("{k}/{n}");
                let mut a = vec![
                    "adjudicate",
                    "-q",
                    "-j1",
                    "--format",
                    format,
                    "--shard",
                    &shard,
                ];
                a.extend(files.iter().map(String::as_str));
                let o = arbiter(&a);
                assert!(
                    o.status.success(),
                    "{shard}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                merged.extend_from_slice(&o.stdout);
            }
            assert!(
                merged == whole.stdout,
                "{format}, {n} shards differ from one run"
            );
        }
    }
}

#[test]
fn gnu_parallel_recipe() {
    let parallel = std::path::Path::new("/usr/bin/parallel");
    assert!(
        parallel.exists(),
        "GNU parallel is not installed (apt-get install parallel; .ci/run does)"
    );
    let dir = tempfile::tempdir().unwrap();
    let files = inputs(dir.path());
    let mut args = vec!["adjudicate", "-q"];
    args.extend(files.iter().map(String::as_str));
    let whole = arbiter(&args);
    // The README's recipe: one job per shard, output kept in order.
    let o = Command::new(parallel)
        .args(["--will-cite", "-k", "-j4"])
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .args(["adjudicate", "-q", "-j1", "--shard", "{}/4"])
        .args(&files)
        .args([":::", "1", "2", "3", "4"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stdout == whole.stdout,
        "the merged shards differ from one run"
    );
}

#[test]
fn shard_needs_files_and_a_valid_range() {
    let o = arbiter(&["adjudicate", "-q", "--shard", "1/2", "-"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--shard needs files"));
    for bad in ["0/3", "4/3", "1/0", "x"] {
        let o = arbiter(&["adjudicate", "--shard", bad, "x.pgn"]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
    }
    let o = arbiter(&["adjudicate", "--shard", "1/2", "--format", "json", "x.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("use --format ndjson"));
}
