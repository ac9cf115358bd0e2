//! The baseline `benches/compare.sh` measures arbiter against: a plain
//! pgn-reader + shakmaty loop that replays every mainline move of a file and
//! counts the games and illegal moves, on one thread, nothing else.
//!
//! `cargo run --release --example validate -- FILE.pgn`

use std::{fs::File, ops::ControlFlow};

use pgn_reader::{Reader, SanPlus, Skip, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

#[derive(Default)]
struct Validate {
    games: u64,
    illegal: u64,
}

struct Game {
    pos: Option<Chess>,
    fen: Option<String>,
}

impl Visitor for Validate {
    type Tags = Option<String>;
    type Movetext = Game;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: pgn_reader::RawTag<'_>,
    ) -> ControlFlow<()> {
        if name == b"FEN" {
            *tags = Some(String::from_utf8_lossy(value.as_bytes()).into_owned());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, fen: Self::Tags) -> ControlFlow<(), Game> {
        let pos = match &fen {
            None => Some(Chess::default()),
            Some(f) => f
                .parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok()),
        };
        ControlFlow::Continue(Game { pos, fen })
    }

    fn begin_variation(&mut self, _: &mut Game) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn san(&mut self, g: &mut Game, san: SanPlus) -> ControlFlow<()> {
        if let Some(pos) = g.pos.as_mut() {
            match san.san.to_move(pos) {
                Ok(m) => pos.play_unchecked(m),
                Err(_) => {
                    self.illegal += 1;
                    g.pos = None;
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, g: Game) {
        let _ = g.fen;
        self.games += 1;
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: validate FILE.pgn")?;
    let mut reader = Reader::new(File::open(&path)?);
    let mut v = Validate::default();
    while reader.read_game(&mut v)?.is_some() {}
    println!("{} games, {} with an illegal move", v.games, v.illegal);
    Ok(())
}
