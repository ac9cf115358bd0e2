use std::time::Instant;
use arbiter::{analysis::mate::can_mate, analysis::position::{parse_position, read_fens}, model::Side};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let fens = read_fens(&std::fs::read_to_string(&path).unwrap());
    let mut rows = vec![];
    for f in &fens {
        let Ok(p) = parse_position(f) else { continue };
        for side in [Side::White, Side::Black] {
            let mut best = f64::MAX; let mut ans = None;
            for _ in 0..3 { let t = Instant::now(); let a = can_mate(&p, side); best = best.min(t.elapsed().as_secs_f64()*1e6); ans = Some(a); }
            let a = ans.unwrap();
            rows.push((best, format!("{:?} {} {:?} len={} {}", side, f, a.verdict, a.line.len(), a.method)));
        }
    }
    let total: f64 = rows.iter().map(|r| r.0).sum();
    rows.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    println!("total {:.1} ms", total / 1e3);
    for r in rows.iter().take(40) { println!("{:8.0} us {}", r.0, r.1); }
}
