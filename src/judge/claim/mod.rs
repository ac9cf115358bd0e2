//! Judging a claim: the checks a secretary makes, each with its outcome and
//! rule, and the ruling they lead to, with the result either way. One file
//! per kind of claim; every rule decision is asked of `judge::policy`.

mod draw;
mod illegal_move;
mod procedure;
mod win_on_time;

use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

pub use draw::{penalised, PROGRESS_MOVES};

use crate::{
    analysis::{forced::Syzygy, mate::numbered_line},
    citation::Citation,
    claim::{
        file::Scoresheet, plural, Check, CheckOutcome, Claim, ClaimKind, Recommendation, Ruling,
    },
    model::{Clock, GameResult, Side},
    replay::record::{self, Record},
};

fn check(
    name: &'static str,
    outcome: CheckOutcome,
    rule: &Citation,
    detail: impl Into<String>,
) -> Check {
    Check::new(name, outcome, rule, detail)
}

fn side_name(s: Side) -> &'static str {
    s.name()
}

fn win(side: Side) -> String {
    GameResult::win_for(side).as_str().to_string()
}

const DRAW: &str = "1/2-1/2";

/// Reads and replays the claim's scoresheet through the one replay.
fn gather(claim: &Claim) -> Record {
    let (source, text) = match &claim.scoresheet {
        Scoresheet::Inline(m) => (
            "the moves in the claim".to_string(),
            format!("{m}\n").into_bytes(),
        ),
        Scoresheet::File(path, bytes) => {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string());
            match bytes {
                Ok(b) => (name, b.clone()),
                Err(e) => return Record::empty(name.clone(), format!("scoresheet {name}: {e}")),
            }
        }
    };
    record::from_text(source, &text, &claim.ruleset)
}

/// Judges a claim. `syzygy` settles small positions exactly.
pub fn judge_claim(claim: Claim, syzygy: Option<&Syzygy>) -> Ruling {
    let evidence = gather(&claim);
    let name = |given: &Option<String>, tag: &str, side: Side| {
        given
            .clone()
            .filter(|s| !s.trim().is_empty())
            .or_else(|| Some(tag.trim().to_string()).filter(|t| !t.is_empty() && t != "?"))
            .unwrap_or_else(|| side_name(side).to_string())
    };
    let white = name(&claim.white, &evidence.tags.white, Side::White);
    let black = name(&claim.black, &evidence.tags.black, Side::Black);
    let clocks = [Side::White, Side::Black].map(|s| {
        claim
            .clock(s)
            .or_else(|| evidence.clocks.last(s).map(|(_, c)| c))
    });
    let mut r = Ruling {
        claim,
        evidence,
        white,
        black,
        checks: Vec::new(),
        recommendation: Recommendation::Refer,
        result_if_upheld: String::new(),
        result_if_rejected: String::new(),
        rule: Citation::fixed("?"),
        detail: String::new(),
        position: None,
        fen: String::new(),
        mate_line: None,
        progress: None,
        clocks,
        marked_ply: None,
        procedure: None,
    };
    match r.claim.kind {
        ClaimKind::WinOnTime => win_on_time::judge(&mut r, syzygy),
        ClaimKind::IllegalMove => illegal_move::judge(&mut r),
        _ => draw::judge(&mut r, syzygy),
    }
    r
}

fn clock_of(r: &Ruling, side: Side) -> Option<Clock> {
    r.clocks[usize::from(side == Side::Black)]
}

/// More than this on one move, between the scoresheet's last clock and the
/// clock stated at the claim, is not believed without a look.
const ONE_MOVE_SECONDS: u32 = 300;

/// The clocks stated in the claim against the scoresheet's last recorded
/// clocks. A clock only runs down: the side not on move shows what the
/// sheet shows (give or take the increment and rounding); the side on move
/// shows no more, and not five minutes less, than at its last move.
fn clock_evidence(r: &mut Ruling, rule: &Citation) {
    let to_move = Side::from(r.evidence.position.turn());
    let inc = r.evidence.time_control.uniform_increment().unwrap_or(0);
    let slack = (inc + 2) * 10;
    let mut compared = Vec::new();
    let mut conflicts = Vec::new();
    for side in [Side::White, Side::Black] {
        let (Some(stated), Some((ply, sheet))) =
            (r.claim.clock(side), r.evidence.clocks.last(side))
        else {
            continue;
        };
        let at = format!(
            "{}{}",
            r.evidence.move_number(ply),
            r.evidence.rows.get(ply - 1).map_or("", |x| x.san.as_str())
        );
        let (s, w) = (stated.tenths, sheet.tenths);
        let bad = if side == to_move {
            s > w + slack || w > s + ONE_MOVE_SECONDS * 10
        } else {
            s.abs_diff(w) > slack
        };
        let words = format!(
            "{} {stated} in the claim, {sheet} on the scoresheet after {at}",
            side.name()
        );
        if bad {
            conflicts.push(words);
        } else {
            compared.push(words);
        }
    }
    if compared.is_empty() && conflicts.is_empty() {
        return;
    }
    r.checks.push(if conflicts.is_empty() {
        check(
            "clocks",
            CheckOutcome::Pass,
            rule,
            format!("the clocks agree: {}", compared.join("; ")),
        )
    } else {
        check(
            "clocks",
            CheckOutcome::Fail,
            rule,
            format!("the clocks conflict: {}", conflicts.join("; ")),
        )
    });
}

/// A failed check on the evidence itself (the scoresheet, the written
/// position, the clocks): someone must look before anything is decided.
fn conflicting_evidence(r: &Ruling) -> Option<Check> {
    r.checks
        .iter()
        .find(|c| {
            matches!(c.name, "scoresheet" | "final-position" | "clocks")
                && c.outcome == CheckOutcome::Fail
        })
        .cloned()
}

/// The scoresheet check and the final-position check; sets the position used.
/// `complete`: the procedure requires the whole game's scoresheet (ECF QPF 14).
fn position_checks(r: &mut Ruling, position_rule: &Citation, complete: bool) {
    let ev = &r.evidence;
    // An illegal move that stood once answered is part of the game as played.
    let stopped = ev.last_illegal().filter(|i| !i.stood);
    let sheet = match (&ev.problem, stopped) {
        (Some(p), _) if ev.rows.is_empty() && ev.illegal.is_empty() => {
            check("scoresheet", CheckOutcome::Fail, position_rule, p.clone())
        }
        (_, Some(im)) if r.claim.kind != ClaimKind::IllegalMove => check(
            "scoresheet",
            CheckOutcome::Fail,
            position_rule,
            format!(
                "{}{} by {} is illegal; the scoresheet is replayed up to the move before it",
                ev.move_number(im.ply),
                im.san,
                side_name(im.side)
            ),
        ),
        (Some(p), _) => check(
            "scoresheet",
            CheckOutcome::Unknown,
            position_rule,
            format!(
                "{p}; replayed {} by White and {} by Black",
                plural(ev.moves_by(Side::White), "move"),
                ev.moves_by(Side::Black)
            ),
        ),
        (_, Some(im)) => check(
            "scoresheet",
            CheckOutcome::Pass,
            position_rule,
            format!(
                "{}: replayed up to the move claimed, {}{}",
                ev.source,
                ev.move_number(im.ply),
                im.san
            ),
        ),
        _ => {
            // Say plainly what the scoresheet is: the whole game or an
            // extract, with or without clock times.
            let extract = !ev.tags.fen.trim().is_empty();
            let what = if extract {
                format!(
                    "an extract from move {}, not the whole game",
                    ev.start_fullmove
                )
            } else {
                "the whole game".to_string()
            };
            let clocks = if ev.clocks.any {
                "with clock times"
            } else {
                "with no clock times"
            };
            // Counted per side, as the progress table counts them.
            let moves = format!(
                "{} by White and {} by Black",
                plural(ev.moves_by(Side::White), "move"),
                ev.moves_by(Side::Black)
            );
            if extract && complete {
                check(
                    "scoresheet",
                    CheckOutcome::Fail,
                    position_rule,
                    format!(
                        "{}: {what}, {clocks} ({moves}): a complete scoresheet is required",
                        ev.source
                    ),
                )
            } else {
                check(
                    "scoresheet",
                    CheckOutcome::Pass,
                    position_rule,
                    format!(
                        "{}: {what}, {clocks}; {moves} replayed, all legal",
                        ev.source
                    ),
                )
            }
        }
    };
    let sheet_ok = sheet.outcome != CheckOutcome::Fail;
    r.checks.push(sheet);
    let sheet_fen = r.evidence.fen();
    let claimed = r.claim.final_fen.clone();
    let claimed_pos = claimed.as_deref().and_then(|f| {
        f.parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok())
    });
    let (outcome, detail) = match (&claimed, sheet_ok) {
        (None, true) => (
            CheckOutcome::Unknown,
            "no final position written in the claim; the scoresheet's is used".to_string(),
        ),
        (None, false) => (
            CheckOutcome::Unknown,
            "no final position written and the scoresheet cannot give one".to_string(),
        ),
        (Some(f), false) => (
            CheckOutcome::Unknown,
            format!("the claimant wrote {f}; the scoresheet cannot confirm it"),
        ),
        (Some(f), true) => {
            let same = claimed_pos.as_ref().is_some_and(|p| {
                p.board() == r.evidence.position.board() && p.turn() == r.evidence.position.turn()
            });
            // After a move into check the written position is illegal by
            // nature: compare it with the board the illegal move left.
            let written = f.parse::<Fen>().ok().map(|x| x.as_setup().board.clone());
            let after_illegal = (r.claim.kind == ClaimKind::IllegalMove)
                .then(|| r.evidence.last_illegal().filter(|i| !i.stood))
                .flatten()
                .and_then(|i| i.as_moved.map(|m| (i.san.clone(), m)))
                .map(|(san, m)| {
                    let mut p = r.evidence.position.clone();
                    p.play_unchecked(m);
                    (san, p.board().clone())
                });
            let as_played = matches!((&written, &after_illegal), (Some(w), Some((_, b))) if w == b);
            if same {
                (
                    CheckOutcome::Pass,
                    "the position written by the claimant is the scoresheet's last position"
                        .to_string(),
                )
            } else if as_played {
                let san = after_illegal.map(|(s, _)| s).unwrap_or_default();
                (
                    CheckOutcome::Pass,
                    format!("the position written by the claimant is the one {san} left on the board, as played (illegal, as the claim says)"),
                )
            } else if claimed_pos.is_none() {
                (
                    CheckOutcome::Fail,
                    format!("the written position {f} is not a legal position"),
                )
            } else {
                (
                    CheckOutcome::Fail,
                    format!("the claimant wrote {f} but the scoresheet ends in {sheet_fen}"),
                )
            }
        }
    };
    r.checks
        .push(check("final-position", outcome, position_rule, detail));
    // The scoresheet's position when it stands; else what the claimant wrote.
    let (pos, fen) = if sheet_ok && outcome != CheckOutcome::Fail {
        (Some(r.evidence.position.clone()), sheet_fen)
    } else if let (Some(p), Some(f)) = (claimed_pos, claimed) {
        (Some(p), f)
    } else if sheet_ok {
        (Some(r.evidence.position.clone()), sheet_fen)
    } else {
        (None, String::new())
    };
    r.position = pos;
    r.fen = fen;
    clock_evidence(r, position_rule);
}

/// A "can this side mate?" answer as a finding: pass, fail or unknown, with
/// the words; the mating line kept for the packet.
fn answer_finding(
    r: &mut Ruling,
    pos: &Chess,
    side: Side,
    a: &crate::analysis::mate::MateAnswer,
) -> (CheckOutcome, String) {
    use crate::analysis::mate::{material_label, Mateability};
    let who = side_name(side);
    match a.verdict {
        Mateability::Winnable => {
            if !a.line.is_empty() {
                r.mate_line = Some(mate_line(pos, who, "can mate", &a.line));
            }
            (
                CheckOutcome::Pass,
                format!(
                    "{who} can checkmate by a series of legal moves ({})",
                    a.method
                ),
            )
        }
        Mateability::Unwinnable => (
            CheckOutcome::Fail,
            format!(
                "{who} ({}) cannot checkmate by any series of legal moves ({})",
                material_label(pos, side),
                a.method
            ),
        ),
        Mateability::Undetermined => (
            CheckOutcome::Unknown,
            format!("whether {who} can mate is undetermined ({})", a.method),
        ),
    }
}

/// Plies of a helpmate line worth printing: beyond that it only shows that
/// a mate exists, which the finding already says.
const SHOWN_LINE_PLIES: usize = 16;

fn mate_line(pos: &Chess, who: &str, verb: &str, line: &[shakmaty::Move]) -> String {
    if line.len() <= SHOWN_LINE_PLIES {
        format!("{who} {verb}, for example {}", numbered_line(pos, line))
    } else {
        format!(
            "{who} {verb}: a helpmate of {} moves was found (not printed)",
            line.len().div_ceil(2)
        )
    }
}

/// Claims for the unit tests of each kind: a claim file's text and its
/// scoresheet's, judged without touching the disk.
#[cfg(test)]
pub(super) mod testing {
    use std::path::{Path, PathBuf};

    use super::judge_claim;
    use crate::claim::{
        file::{parse_claim, Scoresheet},
        CheckOutcome, LoadOptions, Ruling,
    };

    pub fn ruling(claim: &str, pgn: &str) -> Ruling {
        let mut c = parse_claim(
            "t.toml",
            "t",
            &format!("{claim}\nmoves = \"1. e4\""),
            Path::new("."),
            LoadOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        c.scoresheet = Scoresheet::File(PathBuf::from("s.pgn"), Ok(pgn.as_bytes().to_vec()));
        judge_claim(c, None)
    }

    pub fn outcome(r: &Ruling, name: &str) -> CheckOutcome {
        r.check(name)
            .unwrap_or_else(|| panic!("no check {name} in {:?}", r.checks))
            .outcome
    }
}
