//! The SAN forms nearly every move is written in (`e4`, `exd5`, `Nbd7`,
//! `Qh4xe1+`, `e8=Q#`, `O-O`), read straight from the token; anything else
//! goes to shakmaty's general reader, which this agrees with wherever it
//! answers (a test compares both on every token of the shared files and on
//! every form built from the grammar).

use shakmaty::{
    san::{San, SanPlus, Suffix},
    CastlingSide, File, Rank, Role, Square,
};

/// The move in `tok`, or `None` for shakmaty's reader to decide.
#[inline]
pub fn quick(tok: &[u8]) -> Option<SanPlus> {
    let (body, suffix) = match tok.split_last()? {
        (b'+', body) => (body, Some(Suffix::Check)),
        (b'#', body) => (body, Some(Suffix::Checkmate)),
        _ => (tok, None),
    };
    let san = match body {
        b"O-O" => San::Castle(CastlingSide::KingSide),
        b"O-O-O" => San::Castle(CastlingSide::QueenSide),
        _ => normal(body)?,
    };
    Some(SanPlus { san, suffix })
}

fn normal(body: &[u8]) -> Option<San> {
    let (role, rest) = match body.first()? {
        b'N' => (Role::Knight, &body[1..]),
        b'B' => (Role::Bishop, &body[1..]),
        b'R' => (Role::Rook, &body[1..]),
        b'Q' => (Role::Queen, &body[1..]),
        b'K' => (Role::King, &body[1..]),
        b'a'..=b'h' => (Role::Pawn, body),
        _ => return None,
    };
    let (rest, promotion) = match rest {
        [rest @ .., b'=', p] => (
            rest,
            Some(match p {
                b'Q' => Role::Queen,
                b'R' => Role::Rook,
                b'B' => Role::Bishop,
                b'N' => Role::Knight,
                _ => return None,
            }),
        ),
        _ => (rest, None),
    };
    let [rest @ .., to_file, to_rank] = rest else {
        return None;
    };
    let to = Square::from_coords(file(*to_file)?, rank(*to_rank)?);
    let (rest, capture) = match rest {
        [rest @ .., b'x'] => (rest, true),
        _ => (rest, false),
    };
    let (file, rank) = match rest {
        [] => (None, None),
        [f @ b'a'..=b'h'] => (file(*f), None),
        [r @ b'1'..=b'8'] => (None, rank(*r)),
        [f, r] => (Some(file(*f)?), Some(rank(*r)?)),
        _ => return None,
    };
    Some(San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    })
}

fn file(b: u8) -> Option<File> {
    matches!(b, b'a'..=b'h').then(|| File::new(u32::from(b - b'a')))
}

fn rank(b: u8) -> Option<Rank> {
    matches!(b, b'1'..=b'8').then(|| Rank::new(u32::from(b - b'1')))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every token the grammar's pieces make, up to seven bytes, with every
    /// suffix: where `quick` answers, shakmaty answers the same.
    #[test]
    fn agrees_with_shakmaty_on_every_built_form() {
        let roles = ["", "N", "B", "R", "Q", "K", "P", "a", "Z"];
        let from = ["", "e", "h", "1", "8", "e4", "a9", "i", "x"];
        let captures = ["", "x", "X"];
        let to = ["e4", "a1", "h8", "e9", "i4", "4e", "e"];
        let promotions = ["", "=Q", "=R", "=B", "=N", "=K", "=q", "Q", "="];
        let suffixes = ["", "+", "#", "++", "+#", "!"];
        let (mut answered, mut total) = (0, 0);
        for r in roles {
            for f in from {
                for c in captures {
                    for t in to {
                        for p in promotions {
                            for s in suffixes {
                                let tok = format!("{r}{f}{c}{t}{p}{s}");
                                total += 1;
                                if let Some(ours) = quick(tok.as_bytes()) {
                                    answered += 1;
                                    assert_eq!(
                                        Some(ours),
                                        SanPlus::from_ascii(tok.as_bytes()).ok(),
                                        "{tok}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        for tok in [
            "O-O", "O-O-O", "O-O+", "O-O-O#", "O-O-O-O", "0-0", "--", "Z0", "N@f3",
        ] {
            if let Some(ours) = quick(tok.as_bytes()) {
                assert_eq!(
                    Some(ours),
                    SanPlus::from_ascii(tok.as_bytes()).ok(),
                    "{tok}"
                );
            }
        }
        assert!(answered > 3_000, "{answered} of {total}");
        assert_eq!(
            quick(b"O-O-O+").map(|s| s.to_string()).as_deref(),
            Some("O-O-O+")
        );
        assert_eq!(
            quick(b"Nbd7").map(|s| s.to_string()).as_deref(),
            Some("Nbd7")
        );
        assert_eq!(
            quick(b"exd8=Q#").map(|s| s.to_string()).as_deref(),
            Some("exd8=Q#")
        );
    }
}
