//! Proven rulings: one answer to "can this side mate here", whoever asks.
//! The game path (`policy::Board`, which flag falls, resignations and the
//! claims' flag test all use), `analyse` and `can_mate` give the same
//! verdict, a "can" always carries a line that mates, and a "cannot" from
//! the fast check (the wall certificate included) is never contradicted by
//! the Chess Unwinnability Analyzer (`chasolver`), on generated locked pawn
//! structures and on the position of issue 29.

use crate::common::{self, judge_one, oracle};

use arbiter::{
    analysis::{
        mate::{can_mate, cannot_mate_proof, line_mates, Mateability},
        position::{analyse, parse_position},
    },
    judge::policy::{self, Board},
    model::Side,
    rules::Ruleset,
};
use rayon::prelude::*;
use shakmaty::{
    fen::Fen, Bitboard, Board as Squares, CastlingMode, Chess, Color, FromSetup, Piece, Position,
    Role, Setup, Square,
};

/// The position issue 29 was filed on: both sides' pawns locked, White's
/// two pairs of doubled pawns blocked by their own pawns.
const LOCKED: &str = "8/1k6/2p2p2/p1P2p1p/P1P2P1P/5P2/2K5/8 b - - 52 58";

/// Every path's verdict for one side: the same, and a "can" that mates.
fn one_answer(pos: &Chess, side: Side) -> Mateability {
    let full = can_mate(pos, side);
    let rules = Ruleset::load("fide-blitz").unwrap();
    let mut board = Board::new(pos.clone(), &rules);
    let game = board.mate(side);
    let flag = policy::win_test(&rules, &mut Board::new(pos.clone(), &rules), side, None);
    let fen = Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
    assert_eq!(game.verdict, full.verdict, "{fen} {side:?}: game path");
    assert_eq!(flag.verdict, full.verdict, "{fen} {side:?}: flag test");
    let a = analyse(pos, None);
    let shown = if side == Side::White {
        a.white
    } else {
        a.black
    };
    assert_eq!(shown.verdict, full.verdict, "{fen} {side:?}: analyse");
    if full.verdict == Mateability::Winnable {
        assert!(line_mates(pos, &full.line, side.into()), "{fen} {side:?}");
        assert!(line_mates(pos, &game.line, side.into()), "{fen} {side:?}");
    }
    full.verdict
}

#[test]
fn the_locked_position_of_issue_29_is_dead_on_every_path() {
    let pos = parse_position(LOCKED).unwrap();
    for side in [Side::White, Side::Black] {
        assert_eq!(one_answer(&pos, side), Mateability::Unwinnable, "{side:?}");
        assert!(cannot_mate_proof(&pos, side, false).is_some(), "{side:?}");
        assert_ne!(
            oracle::verdict(&pos, side.into()),
            Some(Mateability::Winnable)
        );
    }
    let a = analyse(&pos, None);
    assert_eq!(a.white.verdict, Mateability::Unwinnable);
    assert_eq!(a.black.verdict, Mateability::Unwinnable);

    // The game: Black's flag falls after 59. Kd2. The position is dead, so
    // the game is drawn; no sentence says White can mate.
    let pgn = format!(
        "[Event \"t\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n[TimeControl \"180+0\"]\n[SetUp \"1\"]\n[FEN \"{LOCKED}\"]\n\n58... Kb8 {{ [%clk 0:00:03] }} 59. Kd2 {{ [%clk 0:00:20] }} 1-0\n"
    );
    let row = judge_one("fide-blitz", &pgn);
    assert_eq!(row["result"], "1/2-1/2", "{row:?}");
    assert_eq!(row["status"], "corrected", "{row:?}");
    assert!(
        row["detail"].starts_with("dead position: neither side can mate"),
        "{}",
        row["detail"]
    );
    assert!(
        !row["detail"].contains("White can mate"),
        "{}",
        row["detail"]
    );
}

/// The same position as a win-on-time claim: rejected, drawn, by the same
/// answer.
#[test]
fn the_locked_position_as_a_win_on_time_claim_is_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let sheet = format!("[SetUp \"1\"]\n[FEN \"{LOCKED}\"]\n\n58... Kb8 59. Kd2 *\n");
    std::fs::write(dir.path().join("s.pgn"), sheet).unwrap();
    let path = dir.path().join("c.toml");
    std::fs::write(
        &path,
        "kind = \"win-on-time\"\nruleset = \"fide-blitz\"\nclaimant = \"white\"\nscoresheet = \"s.pgn\"\nclock_white = \"0:00:20\"\nclock_black = \"0:00:00\"\n",
    )
    .unwrap();
    let c = arbiter::claim::load_claim(&path, Default::default()).unwrap();
    let r = arbiter::judge::claim::judge_claim(c, None);
    assert_eq!(r.recommendation, arbiter::claim::Recommendation::Reject);
    assert_eq!(r.result_if_rejected, "1/2-1/2");
    assert!(r.detail.contains("cannot checkmate"), "{}", r.detail);
}

/// A small seeded generator (no crate needed for a linear congruence).
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % u64::from(n)) as u32
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.next(100) < percent
    }
}

/// A locked structure: a chain of rammed pairs whose ranks step by one
/// from file to file (so no pawn attacks another), now and then a file
/// left open (a wall with one gap) or a file skipped, doubled pawns behind
/// their own, kings on their own side of the wall or through the gap, and
/// now and then a bishop or a knight.
fn locked_structure(rng: &mut Rng) -> Option<Chess> {
    let mut board = Squares::empty();
    let mut taken = Bitboard::EMPTY;
    let mut put = |board: &mut Squares, sq: Square, piece: Piece| {
        if taken.contains(sq) {
            return false;
        }
        taken.add(sq);
        board.set_piece_at(sq, piece);
        true
    };
    let gap = rng.chance(30).then(|| rng.next(8));
    // The white pawn's rank (index 1..=4) on each file.
    let mut ranks = [0u32; 8];
    let mut rank = 1 + rng.next(4);
    for (file, slot) in ranks.iter_mut().enumerate() {
        if file > 0 {
            rank = match (rank, rng.chance(50)) {
                (1, _) => 2,
                (4, _) => 3,
                (r, true) => r + 1,
                (r, false) => r - 1,
            };
        }
        *slot = rank;
        if Some(file as u32) == gap || rng.chance(5) {
            continue;
        }
        let sq = |r: u32| Square::new(file as u32 + 8 * r);
        put(&mut board, sq(rank), Color::White.pawn());
        put(&mut board, sq(rank + 1), Color::Black.pawn());
        if rank >= 2 && rng.chance(15) {
            put(&mut board, sq(rank - 1), Color::White.pawn());
        }
        if rank + 2 <= 6 && rng.chance(15) {
            put(&mut board, sq(rank + 2), Color::Black.pawn());
        }
    }
    for color in [Color::White, Color::Black] {
        let through = rng.chance(10);
        for _ in 0..64 {
            let file = rng.next(8);
            let wall = ranks[file as usize];
            let rank = match (color, through) {
                (_, true) => rng.next(8),
                (Color::White, false) => rng.next(wall),
                (Color::Black, false) => wall + 2 + rng.next(6 - wall),
            };
            if put(&mut board, Square::new(file + 8 * rank), color.king()) {
                break;
            }
        }
    }
    if rng.chance(40) {
        let color = if rng.chance(50) {
            Color::White
        } else {
            Color::Black
        };
        let role = if rng.chance(60) {
            Role::Bishop
        } else {
            Role::Knight
        };
        for _ in 0..16 {
            if put(&mut board, Square::new(rng.next(64)), Piece { color, role }) {
                break;
            }
        }
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = if rng.chance(50) {
        Color::White
    } else {
        Color::Black
    };
    let pos = Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .ok()?;
    // A king missing or a game already over is no question to ask.
    (pos.board().kings().count() == 2 && !pos.is_game_over()).then_some(pos)
}

/// 100,000 generated locked structures: wherever the fast check says a
/// side cannot mate (the wall certificate, the forced moves, the short
/// lines), the analyzer must not find a mate; and the game path, the flag
/// test, `analyse` and `can_mate` agree on one in fifty of them, with every "can"
/// carrying a line that mates.
#[test]
fn generated_locked_structures_agree_with_the_analyzer() {
    const POSITIONS: usize = 100_000;
    let mut rng = Rng(0x2900_0000_dead_beef);
    let mut positions = Vec::with_capacity(POSITIONS);
    while positions.len() < POSITIONS {
        if let Some(p) = locked_structure(&mut rng) {
            positions.push(p);
        }
    }
    // (sides the fast check settles, of those the analyzer also settles,
    // sides sampled through every path, contradictions)
    let (fast, confirmed, sampled, wrong) = positions
        .par_iter()
        .enumerate()
        .map(|(i, pos)| {
            let mut t = (0usize, 0usize, 0usize, Vec::new());
            for side in [Side::White, Side::Black] {
                if cannot_mate_proof(pos, side, false).is_some() {
                    t.0 += 1;
                    match oracle::verdict(pos, side.into()) {
                        Some(Mateability::Winnable) => t.3.push(format!(
                            "{} {side:?}: the fast check says cannot, the analyzer finds a mate",
                            Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                        )),
                        Some(Mateability::Unwinnable) => t.1 += 1,
                        _ => {}
                    }
                }
                if i % 50 == 0 {
                    t.2 += 1;
                    one_answer(pos, side);
                }
            }
            t
        })
        .reduce(
            || (0, 0, 0, Vec::new()),
            |mut a, b| {
                a.0 += b.0;
                a.1 += b.1;
                a.2 += b.2;
                a.3.extend(b.3);
                a
            },
        );
    eprintln!(
        "locked structures: {POSITIONS} positions, {fast} sides proved unable to mate by the fast check, \
         {confirmed} of them confirmed by chasolver, {sampled} sides through every path; {} contradictions",
        wrong.len()
    );
    assert!(wrong.is_empty(), "{:#?}", &wrong[..wrong.len().min(10)]);
    // The generator makes real walls: a good share is provably dead.
    assert!(fast > POSITIONS / 4, "{fast}");
    assert!(sampled >= 2 * POSITIONS / 50);
}

/// No row of a real export says a side can mate where `analyse` says it
/// cannot (or leaves it open): every flag fall and resignation on the
/// lichess file under fide-blitz, read back.
#[test]
fn no_row_says_can_mate_where_analyse_cannot() {
    let file = common::data("games-with-clocks/lichess_jishanshaikh4_all-games_to-2022-05.pgn");
    let (rows, _) = common::run_paths("fide-blitz", &[file]);
    let claims: Vec<(String, Side)> = rows
        .iter()
        .filter_map(|r| {
            let d = &r["detail"];
            let side = if d.contains("White can mate with") {
                Side::White
            } else if d.contains("Black can mate with") {
                Side::Black
            } else {
                return None;
            };
            Some((r["final_fen"].clone(), side))
        })
        .collect();
    assert!(claims.len() > 10_000, "{}", claims.len());
    let wrong: Vec<String> = claims
        .par_iter()
        .filter(|(fen, side)| {
            let a = analyse(&parse_position(fen).unwrap(), None);
            let v = if *side == Side::White {
                a.white
            } else {
                a.black
            };
            v.verdict != Mateability::Winnable
        })
        .map(|(fen, side)| format!("{fen} {side:?}"))
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(rows
        .iter()
        .all(|r| !r["detail"].contains("the fast check finds no obstacle")));
}
