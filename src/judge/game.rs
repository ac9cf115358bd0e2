//! Judging one game in the order PRODUCT.md gives: board endings, illegal
//! moves, flags, then the recorded result with the FIDE 5.1.2 check. The
//! decisions themselves are `policy`'s; this file gathers the facts from
//! the replay and the clocks, and words the `detail`.

use std::fmt::Write as _;

use shakmaty::{fen::Fen, Chess, EnPassantMode, Position};

use super::policy::{self, BothFlags, BothFlagsFacts, FlagFall, Found, IllegalFacts, IllegalMove};
use crate::{
    analysis::{
        forced::Syzygy,
        mate::{self, material_label, MateAnswer, Mateability},
    },
    citation::Citation,
    model::{Clock, GameResult, Judgement, Reason, Side, Status, Verdict},
    pgn::{time_control::TimeControl, ParsedGame},
    replay::{
        self,
        clocks::{clock_facts, ClockFacts},
        BoardEnd, IllegalKind, Replay, ReplayRules, Scratch, Start, Stop,
    },
    rules::{map::RulesMap, ResignedWin, Ruleset, UnclaimedFlag},
};

struct Ctx<'a> {
    syzygy: Option<&'a Syzygy>,
    game: &'a ParsedGame,
    text: &'a [u8],
    rules: &'a Ruleset,
    start: Chess,
    r: Replay,
    /// The final position, with "can this side mate?" asked once per side.
    board: policy::Board,
    clocks: ClockFacts,
    tc: TimeControl,
    recorded: GameResult,
    notes: Vec<String>,
}

impl Ctx<'_> {
    fn mate(&mut self, side: Side) -> MateAnswer {
        self.board.mate(side)
    }

    fn dead_given(&mut self, known: Side) -> bool {
        self.board.dead_given(known)
    }

    fn dead_fast(&self) -> bool {
        self.board.dead_fast()
    }

    /// The move of ply `n` as written, e.g. `Qxe4`.
    fn written(&self, n: usize) -> String {
        let mut s = String::new();
        self.write_written(n, &mut s);
        s
    }

    fn write_written(&self, n: usize, out: &mut String) {
        let Some(p) = self.game.plies.get(n.wrapping_sub(1)) else {
            return;
        };
        match String::from_utf8_lossy(p.token.text(self.text)) {
            t if t.is_empty() => p.san.append_to_string(out),
            t => out.push_str(&t),
        }
    }

    /// `before`, then ply `n` numbered and as written, onto `out`.
    fn write_named(&self, before: &str, n: usize, out: &mut String) {
        out.push_str(before);
        self.r.write_move_number(n, out);
        out.push(' ');
        self.write_written(n, out);
    }

    /// The number ply `n` is written under, e.g. `41...`.
    fn number(&self, n: usize) -> String {
        let mut s = String::new();
        self.r.write_move_number(n, &mut s);
        s
    }

    /// Ply `n` numbered and as written, e.g. `41... Qxe4`.
    fn named(&self, n: usize) -> String {
        let mut s = String::new();
        self.write_named("", n, &mut s);
        s
    }

    fn finish(mut self, verdict: Verdict, ply: Option<usize>, main: String) -> Judgement {
        let at = ply.unwrap_or(self.r.plies);
        let mut detail = main;
        for w in &self.r.wrong_suffixes {
            self.notes.push(format!(
                "{} is written {} but {}",
                self.named(w.0),
                w.1,
                if w.2.is_empty() {
                    "gives no check".to_string()
                } else {
                    format!("is only {}", w.2)
                }
            ));
        }
        if self.game.blank_line_splits > 0 {
            self.notes.push(format!(
                "{} blank line(s) inside the movetext were read through",
                self.game.blank_line_splits
            ));
        }
        let tags = &self.game.tags;
        for (names, [one, many], how) in [
            (
                &tags.unclosed,
                ["tag's value has", "tags' values have"],
                "no closing quote: read to the end of its line",
            ),
            (
                &tags.inner_quotes,
                ["tag's value holds", "tags' values hold"],
                "quotes not written as \\\": read to the quote its ] follows",
            ),
        ] {
            if !names.is_empty() {
                let verb = if names.len() == 1 { one } else { many };
                self.notes
                    .push(format!("the {} {verb} {how}", names.join(", ")));
            }
        }
        if !self.game.tags.redecoded.is_empty() {
            self.notes.push(format!(
                "the {} tag{} not UTF-8: read as Windows-1252",
                self.game.tags.redecoded.join(", "),
                if self.game.tags.redecoded.len() == 1 {
                    " is"
                } else {
                    "s are"
                }
            ));
        }
        self.notes.extend(self.clocks.notes.iter().cloned());
        for n in &self.notes {
            detail.push_str("; ");
            detail.push_str(n);
        }
        Judgement {
            verdict,
            mv: ply.map(|p| self.written(p)).unwrap_or_default(),
            numbered: ply.map(|p| self.named(p)).unwrap_or_default(),
            ply,
            white_clock: self.clocks.at(at, Side::White),
            black_clock: self.clocks.at(at, Side::Black),
            plies: self.r.plies,
            final_fen: {
                // Straight into the string: `to_string` goes through the
                // formatter a character at a time.
                let mut fen = String::with_capacity(96);
                Fen::from_position(&self.r.pos, EnPassantMode::Legal).append_to_string(&mut fen);
                fen
            },
            detail,
            ruleset: None,
            control_mismatch: false,
            control: Some(self.tc.to_string()),
            key: None,
            ended_at: None,
            conflicting_copy: false,
        }
    }
}

fn can_mate_sentence(side: Side, answer: &MateAnswer, pos: &Chess) -> String {
    let mut s = String::with_capacity(96);
    write_can_mate_sentence(&mut s, side, answer, pos);
    s
}

/// `can_mate_sentence`, written onto the end of `out`.
fn write_can_mate_sentence(out: &mut String, side: Side, answer: &MateAnswer, pos: &Chess) {
    // Pushed piece by piece rather than through `write!`: this sentence is
    // in every flag-fall row.
    if answer.verdict == Mateability::Undetermined {
        out.push_str("whether ");
    }
    out.push_str(side.name());
    out.push_str(if answer.verdict == Mateability::Unwinnable {
        " cannot mate with "
    } else {
        " can mate with "
    });
    material_label(pos, side).push_to(out);
    out.push_str(" v ");
    material_label(pos, side.other()).push_to(out);
    match answer.verdict {
        Mateability::Unwinnable => {
            out.push_str(": no helpmate exists (");
            out.push_str(answer.method);
            out.push(')');
        }
        Mateability::Winnable if !answer.line.is_empty() => {
            out.push_str(": helpmate line ");
            out.push_str(&answer.written);
        }
        Mateability::Winnable => {
            out.push_str(" (");
            out.push_str(answer.method);
            out.push(')');
        }
        Mateability::Undetermined => {
            out.push_str(" is undetermined (");
            out.push_str(answer.method);
            out.push(')');
        }
    }
}

/// The game reached a dead position at or before its end: find where, and
/// judge it as ended there (FIDE 5.2.2 overrides what was played after).
fn judge_dead(mut c: Ctx<'_>) -> Judgement {
    let upto = c.r.plies;
    match mate::first_dead_ply(c.game, c.start.clone(), upto) {
        Some((ply, pos)) => {
            c.r.pos = pos;
            c.r.plies = ply;
            judge_board_ended(
                c,
                replay::Ending {
                    kind: BoardEnd::DeadPosition,
                    ply,
                },
            )
        }
        None => judge_board_ended(
            c,
            replay::Ending {
                kind: BoardEnd::DeadPosition,
                ply: upto,
            },
        ),
    }
}

/// What judging needs beside the game: the ruleset (or a rules map, with
/// the ruleset for the games it does not name), the game's source for the
/// map, whether a game under another control goes to review, and
/// tablebases if given.
#[derive(Clone, Copy)]
pub struct Env<'a> {
    pub(crate) rules: &'a Ruleset,
    pub(crate) syzygy: Option<&'a Syzygy>,
    pub(crate) map: Option<&'a RulesMap>,
    pub(crate) source: &'a str,
    pub(crate) strict: bool,
    pub(crate) decisions: Option<&'a super::decisions::Decisions>,
}

impl<'a> Env<'a> {
    pub fn new(rules: &'a Ruleset) -> Env<'a> {
        Env {
            rules,
            syzygy: None,
            map: None,
            source: "",
            strict: false,
            decisions: None,
        }
    }
}

/// Judges one parsed game. `text` is the game's own text (for moves as written).
pub fn judge(game: &ParsedGame, text: &[u8], env: Env<'_>, scratch: &mut Scratch) -> Judgement {
    let rules = env
        .map
        .and_then(|m| m.choose(env.source, &game.tags))
        .unwrap_or(env.rules);
    let env = Env { rules, ..env };
    let mut j = judge_game(game, text, env, scratch);
    match crate::pgn::scan::termination_marker(text) {
        // A record of tags alone is a result list's way (a default, a
        // tournament's results), unless the file ends there.
        None if !game.plies.is_empty() || game.ends_source => {
            j = unterminated(j, game.plies.is_empty())
        }
        None => {}
        Some(marker) => j = two_results(j, &game.tags.result, marker),
    }
    j.ruleset = Some(rules.name_shared.clone());
    control_fit(&mut j, rules, &game.tags, env.strict);
    // The key is what a grader records a decision under: given for every
    // game not confirmed or without a result, and for all under a
    // decisions file.
    let open = j.verdict.status != Status::Confirmed || j.verdict.result == GameResult::Unknown;
    if env.decisions.is_some() || open {
        give_key(&mut j, game, env);
    }
    j
}

/// The game's key on its row, and the decision recorded under it (if any)
/// applied: also for a game not judged at all (binary data in its text).
pub(crate) fn give_key(j: &mut Judgement, game: &ParsedGame, env: Env<'_>) {
    let key = game.key();
    j.key = Some(key);
    if let Some(d) = env.decisions {
        d.apply(key, j);
    }
}

/// A game whose `TimeControl` is not one its ruleset is for (or is a daily,
/// correspondence control, which no over-the-board rules are for) gets a
/// note; under `strict` it goes to review, since the rules may not be its
/// rules. A game without the tag is taken to be at the ruleset's control.
fn control_fit(j: &mut Judgement, rules: &Ruleset, tags: &crate::pgn::Tags, strict: bool) {
    let tag = tags.time_control.trim();
    if tag.is_empty() || tag == "?" || tag == "-" || j.verdict.status == Status::Unreadable {
        return;
    }
    // The control as the game was judged at it (lichess's `90+30` in
    // minutes mended); a tag read no way was judged at the ruleset's own,
    // said by the clocks' note, and is no control "not for" the ruleset.
    let Some(control) = j.control.clone() else {
        return;
    };
    // The games of a file mostly share one control: its answer is kept.
    thread_local! {
        static LAST: std::cell::RefCell<Option<LastControl>> =
            const { std::cell::RefCell::new(None) };
    }
    let off = LAST.with_borrow_mut(|last| {
        let same = last.as_ref().is_some_and(|l| {
            l.tag == tag
                && l.control == control
                && *l.name == *rules.name
                && l.controls == rules.controls
                && l.default_rule == rules.default_time_control_rule
        });
        if !same {
            *last = Some(LastControl {
                name: rules.name_shared.clone(),
                controls: rules.controls.clone(),
                default_rule: rules.default_time_control_rule.clone(),
                tag: tag.to_string(),
                off: TimeControl::parse(&control)
                    .ok()
                    .and_then(|tc| off_control(rules, tag, &tc)),
                control,
            });
        }
        last.as_ref().and_then(|l| l.off.clone())
    });
    let Some((why, rule)) = off else {
        return;
    };
    j.control_mismatch = true;
    if strict {
        j.verdict = Verdict::new(
            GameResult::Unknown,
            Status::Review,
            Reason::RulesetMismatch,
            rule,
        );
        j.detail = format!(
            "{why}: under review (--strict-rules); under {} it would be: {}",
            rules.name, j.detail
        );
    } else {
        j.detail.push_str("; note: ");
        j.detail.push_str(&why);
    }
}

/// The last ruleset and tag a worker asked about (all the answer rests on),
/// and the answer.
struct LastControl {
    name: std::sync::Arc<str>,
    controls: Option<(crate::rules::control::Control, Citation)>,
    default_rule: Citation,
    tag: String,
    control: String,
    off: Option<(String, Citation)>,
}

/// Why the control `tc` a game's tag gave (as `time_control::read` reads
/// it, mended from the clocks) is not one `rules` is for, and the rule;
/// `None` where it is. A delay adds no time to the control.
fn off_control(rules: &Ruleset, tag: &str, tc: &TimeControl) -> Option<(String, Citation)> {
    if crate::rules::control::correspondence(tc) {
        let why = format!("TimeControl {tag:?} is a daily (correspondence) control; {} is for games over the board", rules.name);
        return Some((why, rules.default_time_control_rule.clone()));
    }
    match &rules.controls {
        Some((c, rule)) if !c.fits(tc) => Some((
            format!(
                "TimeControl {tag:?} is not a control {} is for ({}, {rule})",
                rules.name,
                c.words()
            ),
            rule.clone(),
        )),
        _ => None,
    }
}

/// The verdict was proved by the position on the board, whatever the
/// record says of how the game ended.
fn proved_on_the_board(j: &Judgement) -> bool {
    matches!(
        j.verdict.reason,
        Reason::Checkmate
            | Reason::Stalemate
            | Reason::DeadPosition
            | Reason::FivefoldRepetition
            | Reason::SeventyFiveMoves
    )
}

/// A Result tag and a termination marker that give different results
/// (PGN 8.2.6: they must match): the record contradicts itself on how the
/// game ended, so a result taken from it goes to review naming both; one
/// the board proved stands, with the contradiction said. A tag that is
/// absent or not a result is not a second result.
fn two_results(mut j: Judgement, tag: &str, marker: &[u8]) -> Judgement {
    let tag = tag.trim();
    let Some(tagged) = GameResult::parse(tag) else {
        return j;
    };
    // A `*` marker beside a `*` tag agrees; beside a result, it differs.
    let (written, ended) =
        crate::pgn::scan::marker_result(marker).unwrap_or(("*", GameResult::Unknown));
    if tagged == ended || j.verdict.status == Status::Unreadable {
        return j;
    }
    let both = format!("the Result tag says {tag} and the moves end {written}");
    if proved_on_the_board(&j) || j.verdict.status == Status::Review {
        j.detail.push_str(&format!("; {both}"));
        return j;
    }
    let reason = j.verdict.reason;
    record_in_doubt(
        j,
        reason,
        &format!("{both}: the record contradicts itself on how the game ended, so its result is not confirmed"),
    )
}

/// A result the record leaves in doubt (PGN 8.2.6): review, saying why
/// first (a review page shows a detail's start), then what the record
/// would give were it whole.
fn record_in_doubt(mut j: Judgement, reason: Reason, why: &str) -> Judgement {
    j.verdict = Verdict::new(
        GameResult::Unknown,
        Status::Review,
        reason,
        Citation::fixed("PGN 8.2.6"),
    );
    j.detail = format!("{why}; as recorded: {}", j.detail);
    j
}

/// A record without its game termination marker (PGN 8.2.6) may be cut
/// short: a verdict that rests on how the game ended (a flag, a
/// resignation, the recorded result) is not confirmed on it, and goes to
/// review saying why. What the moves on record prove stands: a mate, a
/// stalemate, a dead position, or an automatic draw by repetition or the
/// 75-move rule ended the game there, whatever followed.
fn unterminated(mut j: Judgement, no_moves: bool) -> Judgement {
    let a_result = j.verdict.result != GameResult::Unknown
        && matches!(j.verdict.status, Status::Confirmed | Status::Corrected);
    if proved_on_the_board(&j) || !a_result {
        return j;
    }
    if no_moves && j.detail.starts_with("no moves recorded;") {
        j.detail = j.detail.replacen(" stands", " would stand", 1);
    }
    let why = if no_moves {
        "the record has tags and neither moves nor a game termination marker \
         (1-0, 0-1, 1/2-1/2 or *): it may be cut short after its tags, so its result is not confirmed"
    } else {
        "the moves end without a game termination marker (1-0, 0-1, 1/2-1/2 or *): \
         the record may be cut short, so how the game ended is not confirmed"
    };
    record_in_doubt(j, Reason::Unterminated, why)
}

/// The citation of a game in a variant `arbiter` does not judge: not a
/// rule of play or scoring, which would say the game was judged by it.
pub(crate) const NOT_JUDGED_VARIANT: &str = "not judged (variant)";

/// The citation of a second copy of a game: it is not judged, its first
/// copy is.
pub(crate) const NOT_JUDGED_DUPLICATE: &str = "not judged (duplicate)";

/// A second copy of a game read earlier in the run (the same tags and
/// moves, its `GameKey`): not judged again, so that it counts once. It
/// goes to `review` with `*`, so that a grader takes the copy out and a
/// rating program reading the corrected PGN does not rate it twice.
pub(crate) fn duplicate(
    game: &ParsedGame,
    env: Env<'_>,
    first: (&str, u64, GameResult),
) -> Judgement {
    let rules = env
        .map
        .and_then(|m| m.choose(env.source, &game.tags))
        .unwrap_or(env.rules);
    let recorded = game.tags.recorded_result();
    // `*` records no result: a copy without one repeats the first.
    let detail = if recorded == first.2 || recorded == GameResult::Unknown {
        format!(
            "duplicate of game {} in {} (the same tags and moves): judged there, once; \
             this copy is not judged and its recorded result {} does not count again",
            first.1,
            first.0,
            recorded.as_str()
        )
    } else {
        // Two records of one game that disagree (two captains' sheets):
        // the first copy's row was written before this one was read.
        format!(
            "the same game (tags and moves) as game {} in {}, which records {} where this copy records {}: \
             the two records contradict each other, so that game's result is in doubt too; \
             this copy is not judged, and a grader decides which record is right",
            first.1,
            first.0,
            first.2.as_str(),
            recorded.as_str()
        )
    };
    let mut j = Judgement::bare(
        Verdict::new(
            GameResult::Unknown,
            Status::Review,
            Reason::Duplicate,
            Citation::fixed(NOT_JUDGED_DUPLICATE),
        ),
        detail,
    );
    j.conflicting_copy = recorded != first.2 && recorded != GameResult::Unknown;
    j.ruleset = Some(rules.name_shared.clone());
    j.key = Some(game.key());
    j
}

/// A game that cannot be set up to judge: `review`, its recorded result
/// not checked.
fn not_judged(why: String, rule: Citation, recorded: GameResult) -> Judgement {
    Judgement::bare(
        Verdict::against(recorded, GameResult::Unknown, Reason::Unsupported, rule),
        format!(
            "{why}; the recorded result {} is not checked",
            recorded.as_str()
        ),
    )
}

fn judge_game(game: &ParsedGame, text: &[u8], env: Env<'_>, scratch: &mut Scratch) -> Judgement {
    let rules = env.rules;
    let recorded = game.tags.recorded_result();
    if let Some(err) = &game.error {
        if game.plies.is_empty() {
            return Judgement::unreadable(format!("cannot read the game: {err}"));
        }
    }
    let (start, _mode) = match replay::start_position(&game.tags) {
        Start::Position(p, m) => (p, m),
        // Nothing is judged, so no rule of play or scoring is cited: a
        // variant says it is not judged, a broken FEN names the standard.
        Start::Variant(why) => {
            return not_judged(why, Citation::fixed(NOT_JUDGED_VARIANT), recorded)
        }
        Start::BadSetup(why) => return not_judged(why, Citation::fixed("PGN 16.1"), recorded),
    };
    let start_pos = start.clone();
    let mut rr = ReplayRules::of(rules);
    rr.unnoticed_stands =
        policy::unnoticed_stands(rules, recorded != GameResult::Unknown).is_some();
    let mut r = replay::replay(game, start.clone(), rr, scratch);
    // A record that ends on an illegal move was claimed during the game:
    // an earlier one is then found during the game too, and reinstated.
    let mut claimed_last = None;
    if rr.unnoticed_stands && r.stop == Some(Stop::Illegal) && r.illegal.iter().any(|i| i.unnoticed)
    {
        claimed_last = r.illegal.last().map(|i| (i.ply, i.side));
        rr.unnoticed_stands = false;
        r = replay::replay(game, start, rr, scratch);
    }
    let (clocks, tc) = clock_facts(
        game,
        r.first,
        r.start_fullmove,
        &game.tags.time_control,
        &rules.default_tc,
        game.plies.len(),
    );
    let mut c = Ctx {
        syzygy: env.syzygy,
        game,
        text,
        rules,
        start: start_pos,
        board: policy::Board::new(r.pos.clone(), rules).with_choice(r.choice),
        r,
        clocks,
        tc,
        recorded,
        notes: Vec::new(),
    };
    if let Some((n, side)) = claimed_last.filter(|&(n, _)| c.r.illegal.iter().all(|i| i.ply != n)) {
        let note = format!(
            "{} by {}, the record's last move, is illegal too: the record ends on it, so the illegal moves were found during the game",
            c.named(n),
            side.name()
        );
        c.notes.push(note);
    }
    if let Some(err) = &game.error {
        let at = match c.r.plies {
            0 => "before the first move".to_string(),
            n => format!("after {}", c.named(n)),
        };
        return c.finish(
            Verdict::new(
                GameResult::Unknown,
                Status::Unreadable,
                Reason::ParseError,
                Citation::fixed("PGN 8.2"),
            ),
            None,
            format!("the movetext breaks off {at}: {err}"),
        );
    }
    judge_replayed(c)
}

fn judge_replayed(mut c: Ctx<'_>) -> Judgement {
    let rules = c.rules;
    let unnoticed_rule = policy::unnoticed_stands(rules, true).cloned();
    for im in c.r.illegal.iter().filter(|i| i.stood) {
        let n = im.ply;
        let note = match (&unnoticed_rule, im.unnoticed) {
            (Some(rule), true) => format!(
                "{} by {} was illegal and stood unnoticed; the game is over, so the moves and the result stand ({rule})",
                c.named(n),
                im.side.name(),
            ),
            _ if rules.illegal_move.stands_after_reply => format!(
                "{} by {} was illegal and stood once {} replied ({})",
                c.named(n),
                im.side.name(),
                im.side.other().name(),
                rules.illegal_move.stands_rule
            ),
            // Stood for its age: made before the last moves a finding
            // reinstates.
            _ => format!(
                "{} by {} was illegal and stands: {} made {} after it, so it is not among the last {} ({})",
                c.named(n),
                im.side.name(),
                im.side.name(),
                crate::claim::plural(
                    crate::rules::own_moves_after(c.game.plies.len().saturating_sub(n)),
                    "move"
                ),
                rules.illegal_move.window().unwrap_or(0),
                rules.illegal_move.stands_rule
            ),
        };
        c.notes.push(note);
    }
    match c.r.stop.clone() {
        // A board ending before the token (a mate, then a result typed
        // "1-O") ended the game there: what follows cannot change it.
        Some(Stop::Garbled(n)) if c.r.ending.is_some_and(|e| e.ply < n) => {
            let written = c
                .game
                .garbled
                .as_ref()
                .map_or(String::new(), |g| format!("line {}: {:?}", g.line, g.text));
            let note = format!(
                "after the game ended on the board, {written} is not a move (nor a result): it is read past"
            );
            c.notes.push(note);
        }
        Some(Stop::Garbled(n)) => {
            let g = c
                .game
                .garbled
                .clone()
                .unwrap_or_else(|| crate::pgn::Garbled {
                    ply: n,
                    text: String::new(),
                    line: 0,
                    trailing: false,
                });
            let c_number = c.number(n);
            let mut j = c.finish(
                Verdict::new(
                    GameResult::Unknown,
                    Status::Unreadable,
                    Reason::ParseError,
                    Citation::fixed("PGN 8.2.3"),
                ),
                Some(n),
                format!(
                    "line {}: {c_number} {:?} is not a move; the game was replayed up to it",
                    g.line, g.text
                ),
            );
            j.numbered = format!("{c_number} {}", g.text);
            j.mv = g.text;
            return j;
        }
        Some(Stop::NullMove(n)) => {
            let main = format!(
                "{} is a null move (analysis notation, not a move under the Laws)",
                c.named(n)
            );
            let v = Verdict::against(
                c.recorded,
                GameResult::Unknown,
                Reason::Unsupported,
                rules.scoring.rule.clone(),
            );
            return c.finish(v, Some(n), main);
        }
        _ => {}
    }
    if let Some(e) = c.r.ending {
        return judge_board_ended(c, e);
    }
    if c.r.stop == Some(Stop::Illegal) {
        return judge_illegal(c);
    }
    judge_flags_or_record(c)
}

/// `judge_board_ending`, marking where the game ended when the record goes
/// on past it (moves, or a token that is none): what follows did not count.
fn judge_board_ended(c: Ctx<'_>, e: replay::Ending) -> Judgement {
    let past = c.game.plies.len() > e.ply || c.game.garbled.as_ref().is_some_and(|g| g.ply > e.ply);
    let mut j = judge_board_ending(c, e);
    j.ended_at = past.then_some(e.ply);
    j
}

fn judge_board_ending(c: Ctx<'_>, e: replay::Ending) -> Judgement {
    let rules = c.rules;
    // One buffer for the sentence: this runs for every game that ends on
    // the board.
    let mut main = String::with_capacity(160);
    let mover = c.r.side_of_ply(e.ply);
    let (result, rule) = policy::board_end(rules, e.kind, mover);
    let reason = match e.kind {
        BoardEnd::Checkmate => {
            let _ = write!(main, "{} mated", mover.other().name());
            Reason::Checkmate
        }
        BoardEnd::Stalemate => {
            let _ = write!(main, "{} is stalemated", c.r.side_to_move().name());
            Reason::Stalemate
        }
        BoardEnd::DeadPosition => {
            let _ = write!(
                main,
                "dead position: neither side can mate ({} v {})",
                material_label(&c.r.pos, Side::White),
                material_label(&c.r.pos, Side::Black)
            );
            Reason::DeadPosition
        }
        BoardEnd::Fivefold => {
            main.push_str("the position stood for the fifth time");
            Reason::FivefoldRepetition
        }
        BoardEnd::SeventyFive => {
            main.push_str("75 moves each without a capture or pawn move");
            Reason::SeventyFiveMoves
        }
    };
    if e.ply == 0 {
        main.push_str(if c.game.tags.fen.trim().is_empty() {
            " in the start position"
        } else {
            " in the position set up (FEN)"
        });
    } else {
        c.write_named(" after ", e.ply, &mut main);
    }
    let recorded = c.game.plies.len();
    if recorded > e.ply && c.game.garbled.is_none() {
        // Named by move number, as the scoresheet shows them.
        let (first, last) = (c.named(e.ply + 1), c.named(recorded));
        let _ = match recorded - e.ply {
            1 => write!(main, "; {first} was recorded after the game had ended and does not count"),
            _ => write!(
                main,
                "; the moves recorded after it ({first} to {last}) came after the game had ended and do not count"
            ),
        };
    }
    // A flag that fell before the board ending and was not called.
    let early_flag = [Side::White, Side::Black]
        .into_iter()
        .filter_map(|s| c.clocks.fallen(s).filter(|&p| p < e.ply).map(|p| (s, p)))
        .min_by_key(|&(_, p)| p);
    if let Some((side, p)) = early_flag {
        let main = format!(
            "{}'s flag fell at {} (0:00:00.0) and play went on: {main}",
            side.name(),
            c.named(p)
        );
        let unclaimed = policy::unclaimed_flag(rules);
        return match unclaimed.value {
            UnclaimedFlag::ResultStands => {
                let rule = unclaimed.rule.and(&rule);
                let v = Verdict::against(c.recorded, result, Reason::FlagUnclaimed, rule);
                c.finish(v, Some(e.ply), main)
            }
            UnclaimedFlag::Review => {
                let v = Verdict::against(
                    c.recorded,
                    GameResult::Unknown,
                    Reason::FlagUnclaimed,
                    unclaimed.rule,
                );
                c.finish(v, Some(p), main)
            }
        };
    }
    // The mover's clock at 0:00:00.0 on the very move that ended the game,
    // and the record giving the flag (the opponent's win, or a Termination
    // saying time): the flag may have fallen before the move was made, and
    // the record does not say which came first.
    let flag_on_it = e.ply > 0 && c.clocks.fallen(mover) == Some(e.ply);
    let flag_recorded = || {
        c.recorded.winner() == Some(mover.other())
            || termination_says_time(&c.game.tags.termination.to_ascii_lowercase())
    };
    if policy::end_or_flag_undecided(flag_on_it, result != c.recorded && flag_recorded()) {
        let _ = write!(
            main,
            ", but {}'s clock shows 0:00:00.0 on that move and the result recorded is {}: whether the flag fell before the move was made decides the game, and the record does not say",
            mover.name(),
            c.recorded.as_str()
        );
        let rule = rule.and(&rules.flag.rule);
        let v = Verdict::against(c.recorded, GameResult::Unknown, reason, rule);
        return c.finish(v, Some(e.ply), main);
    }
    if result != c.recorded {
        let _ = write!(main, "; recorded {}", c.recorded.as_str());
    }
    let v = Verdict::against(c.recorded, result, reason, rule);
    c.finish(v, (e.ply > 0).then_some(e.ply), main)
}

fn judge_illegal(c: Ctx<'_>) -> Judgement {
    let rules = c.rules;
    let Some(last) = c.r.illegal.last().cloned() else {
        return judge_flags_or_record(c);
    };
    let n = last.ply;
    let mover = last.side;
    let opp = mover.other();
    let written = c.named(n);
    let review = |c: Ctx<'_>, rule: Citation, main: String| {
        let v = Verdict::against(c.recorded, GameResult::Unknown, Reason::IllegalMove, rule);
        c.finish(v, Some(n), main)
    };
    // Why, in words: the position is the one before the illegal move.
    let why = last
        .as_moved
        .and_then(|m| crate::analysis::illegal::why_illegal(&c.r.pos, Some(m)));
    let because = why.map(|w| format!(": {w}")).unwrap_or_default();
    if last.kind == IllegalKind::Impossible {
        let main = format!(
            "{written} by {}: no piece can make this move; the record cannot be replayed past it",
            mover.name()
        );
        return review(c, rules.illegal_move.reinstate_rule.clone(), main);
    }
    // A record that ends on the illegal move: the opponent claimed at once.
    // One that goes on: nobody noticed, or the move stood after the reply.
    let replies = c.game.plies.len().saturating_sub(n);
    let facts = IllegalFacts {
        mover,
        replies,
        found: if replies > 0 {
            Found::Unnoticed
        } else {
            Found::Claimed
        },
        prior_by_mover: c
            .r
            .illegal
            .iter()
            .filter(|i| i.side == mover && i.ply < n && policy::counts_as_prior(i.stood))
            .count(),
        clocks: [c.clocks.at(n, Side::White), c.clocks.at(n, Side::Black)],
    };
    let ruling = policy::illegal_move(rules, facts);
    let main = format!("{written} by {} is illegal{because}", mover.name());
    match ruling.value {
        IllegalMove::Loses(ground) => illegal_move_loses(c, &ground, ruling.rule, (n, opp), main),
        // It would stand, but the replay could not play it as it stood (the
        // reply takes a king, or a king is lost): the record breaks here.
        IllegalMove::Stands => {
            let main = format!(
                "{written} by {} is illegal and cannot be played as it stood; the moves recorded after it cannot be judged",
                mover.name()
            );
            review(c, rules.illegal_move.reinstate_rule.clone(), main)
        }
        value => {
            let main = format!("{main}{}", illegal_move_sequel(&value, opp));
            let rule = match &value {
                IllegalMove::NotUnderLimit { time, .. } => ruling.rule.and(&time.rule()),
                _ => ruling.rule,
            };
            review(c, rule, main)
        }
    }
}

/// What follows "X by Y is illegal: why" where play would go on from the
/// position before it, and the record cannot be judged past it.
fn illegal_move_sequel(value: &IllegalMove, opp: Side) -> String {
    match value {
        IllegalMove::Unnoticed => "; the position must be reinstated and the moves recorded after it cannot be judged".to_string(),
        IllegalMove::ClocksUnknown { limit } => format!(
            "; the clocks are not recorded, so whether either was under {} cannot be told",
            Clock::secs(*limit)
        ),
        IllegalMove::NotUnderLimit {
            limit,
            clocks: [w, b],
            time,
        } => format!(
            "; with both clocks at {} or more ({w} / {b}): {}; play goes on, but the record ends here",
            Clock::secs(*limit),
            time.words(opp.name())
        ),
        IllegalMove::Reinstated { penalty_seconds } => format!(
            "; {penalty_seconds} s added to {}'s clock and the position reinstated; the record ends here",
            opp.name()
        ),
        IllegalMove::Stands | IllegalMove::Loses(_) => String::new(),
    }
}

/// The illegal move at ply `n` loses on `ground`, where the opponent `opp` can mate
/// (`policy::loss_stands`); drawn where he cannot, referred where that is
/// not settled.
fn illegal_move_loses(
    mut c: Ctx<'_>,
    ground: &policy::LossGround,
    rule: Citation,
    (n, opp): (usize, Side),
    main: String,
) -> Judgement {
    let answer = policy::loss_stands(&mut c.board, opp);
    let exception = c.rules.illegal_move.cannot_mate();
    let rule = match answer.verdict {
        Mateability::Winnable => rule,
        _ => rule.and(exception),
    };
    let (result, extra) = match answer.verdict {
        Mateability::Unwinnable => (
            GameResult::Draw,
            format!("; {}: drawn", can_mate_sentence(opp, &answer, &c.r.pos)),
        ),
        Mateability::Undetermined => (
            GameResult::Unknown,
            format!("; {}", can_mate_sentence(opp, &answer, &c.r.pos)),
        ),
        Mateability::Winnable => (GameResult::win_for(opp), String::new()),
    };
    c.notes.insert(0, format!("{}{extra}", ground.why()));
    let v = Verdict::against(c.recorded, result, Reason::IllegalMove, rule);
    c.finish(v, Some(n), main)
}

/// Flag evidence, in PRODUCT.md's terms.
enum FlagEvidence {
    None,
    Both(&'static str),
    /// Both flags down, the record showing which first: that side's
    /// clock at 0:00:00.0 on its own move, the other's flag after.
    BothFirst {
        first: Side,
        at: usize,
    },
    One {
        flagger: Side,
        how: &'static str,
    },
    /// The record says a flag fell, and contradicts itself on whose, or
    /// lacks a clock reading the ruling needs: why, in words.
    Conflict(String),
}

const CONTRADICTS: &str = ": the record contradicts itself, so no flag ruling is made on it";

/// The side a Termination tag names as having lost on time, by colour
/// (`Black won on time`, `White forfeits on time`) or by the player's
/// name as the tags give it (`MagnusCarlsen won on time`); `None` where it
/// names no one, or both.
fn termination_loser(term: &str, white: &str, black: &str) -> Option<Side> {
    let words: Vec<&str> = term
        .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    let has = |w: &str| words.contains(&w);
    // A player's name as whole words in a row ("Tim" is not in "time").
    let name = |n: &str| {
        let n = n.to_lowercase();
        let name: Vec<&str> = n
            .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '-')
            .filter(|w| !w.is_empty())
            .collect();
        !name.is_empty()
            && n.trim() != "?"
            && words.windows(name.len()).any(|w| w == name.as_slice())
    };
    let named = match (has("white") || name(white), has("black") || name(black)) {
        (true, false) => Side::White,
        (false, true) => Side::Black,
        _ => return None,
    };
    if ["won", "wins", "win"].iter().any(|w| has(w)) {
        Some(named.other())
    } else if [
        "lost", "loses", "lose", "forfeits", "flagged", "resigned", "resigns",
    ]
    .iter()
    .any(|w| has(w))
    {
        Some(named)
    } else {
        None
    }
}

/// The result a Termination tag states in words: a win, by the player or
/// colour it names as winning or losing (`bob won by resignation`), or a
/// draw (`Game drawn by agreement`); `None` where it states neither
/// (lichess's `Normal`, `Abandoned`).
fn termination_result(term: &str, white: &str, black: &str) -> Option<GameResult> {
    let lower = term.to_lowercase();
    // Asked of every game with a result: most say "Normal" or nothing, and
    // are passed over before any word is split out.
    const WORDS: [&str; 7] = ["won", "win", "los", "forfeit", "flag", "resign", "draw"];
    if !WORDS.iter().any(|w| lower.contains(w)) {
        return None;
    }
    if let Some(loser) = termination_loser(&lower, white, black) {
        return Some(GameResult::win_for(loser.other()));
    }
    // A draw only where the words say the game was drawn ("Game drawn by
    // agreement", "Draw"), not where a draw is only mentioned ("resigned
    // after his draw claim was rejected").
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let drawn = words
        .windows(2)
        .any(|w| w == ["game", "drawn"] || w == ["drawn", "by"])
        || words.as_slice() == ["draw"]
        || words.as_slice() == ["drawn"];
    drawn.then_some(GameResult::Draw)
}

/// The board ending a Termination tag names as how the game ended
/// (`alice won by checkmate`, `Game drawn by stalemate`, `Checkmate`), if
/// it names one; the players' names are taken out first (a player called
/// `CheckmateKing`), and a mention is not an ending (`bob resigned
/// (checkmate unavoidable)`).
fn termination_board_end(term: &str, white: &str, black: &str) -> Option<BoardEnd> {
    // Asked of every game the record decides; most say "Normal".
    if !term
        .as_bytes()
        .windows(4)
        .any(|w| w.eq_ignore_ascii_case(b"mate"))
    {
        return None;
    }
    let mut lower = term.to_lowercase();
    for name in [white, black] {
        let name = name.trim().to_lowercase();
        if !name.is_empty() && name != "?" {
            lower = lower.replace(&name, " ");
        }
    }
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let ended_by = |what: &str| {
        words.as_slice() == [what]
            || words.windows(2).any(|w| w == ["by", what])
            || words.contains(&format!("{what}d").as_str())
    };
    if ended_by("checkmate") {
        Some(BoardEnd::Checkmate)
    } else if ended_by("stalemate") {
        Some(BoardEnd::Stalemate)
    } else {
        None
    }
}

/// `term`: the Termination tag, lowercased.
fn termination_says_time(term: &str) -> bool {
    ["time forfeit", "on time", "timeout", "time-forfeit"]
        .iter()
        .any(|w| term.contains(w))
}

/// What the record shows of fallen flags; a flag shown where a clock
/// reading at the end cannot be read is not shown whole (the clocks a flag
/// ruling turns on are not all on record).
fn flag_evidence(c: &Ctx<'_>) -> FlagEvidence {
    let evidence = recorded_flags(c);
    let unreadable = c.clocks.unreadable_at.filter(|&p| p + 2 > c.r.plies);
    match unreadable {
        Some(p) if !matches!(evidence, FlagEvidence::None) => {
            let mut why = String::from("the clock command after ");
            c.write_named("", p, &mut why);
            why.push_str(" cannot be read, and a flag ruling rests on the clocks at the end: the record is incomplete, so no flag ruling is made on it");
            FlagEvidence::Conflict(why)
        }
        _ => evidence,
    }
}

/// The flags the record shows: the Termination tag, the clocks, and
/// whether they agree with the result.
fn recorded_flags(c: &Ctx<'_>) -> FlagEvidence {
    let term = c.game.tags.termination.to_ascii_lowercase();
    if term.contains("both flags") {
        return FlagEvidence::Both("the Termination tag");
    }
    let wl = c.clocks.last(Side::White);
    let bl = c.clocks.last(Side::Black);
    if let (Some((_, w)), Some((_, b))) = (wl, bl) {
        if w.is_fallen() && b.is_fallen() {
            return FlagEvidence::Both("both clocks at 0:00:00.0");
        }
    }
    let to_move = c.r.side_to_move();
    let flagger = if termination_says_time(&term) {
        let Some(winner) = c.recorded.winner() else {
            // A draw on time: the flag of the side whose clock ran
            // (`judge_one_flag` says where the draw needs more than that).
            return FlagEvidence::One {
                flagger: to_move,
                how: "the Termination tag",
            };
        };
        let flagger = winner.other();
        let tags = &c.game.tags;
        if let Some(named) = termination_loser(&term, &tags.white, &tags.black) {
            if named != flagger {
                return FlagEvidence::Conflict(format!(
                    "the Termination tag ({:?}) has {} losing on time, and the result {} has {} losing{CONTRADICTS}",
                    crate::model::excerpt(tags.termination.trim(), 80),
                    named.name(),
                    c.recorded.as_str(),
                    flagger.name()
                ));
            }
        }
        // No move recorded: only the side with the first move had a
        // clock running.
        if c.r.plies == 0 && flagger != to_move {
            return FlagEvidence::Conflict(format!(
                "the result says {}'s flag fell, but no move is recorded, so only {}'s clock had been started{CONTRADICTS}",
                flagger.name(),
                to_move.name()
            ));
        }
        // The flagger had just moved, and his clock then read time left:
        // it was stopped, and could not run out after.
        if flagger != to_move && c.r.plies > 0 {
            if let Some((p, clk)) = c.clocks.last(flagger) {
                if p == c.r.plies && !clk.is_zero() {
                    let mut why = format!("the result says {}'s flag fell, but ", flagger.name());
                    c.write_named("", p, &mut why);
                    why.push_str(" left ");
                    clk.push_to(&mut why);
                    let _ = write!(
                        why,
                        " on {}'s clock, which then stopped: {}'s was the one running",
                        flagger.name(),
                        to_move.name()
                    );
                    why.push_str(CONTRADICTS);
                    return FlagEvidence::Conflict(why);
                }
            }
        }
        Some((flagger, "the Termination tag"))
    } else {
        c.clocks
            .last(to_move)
            .filter(|(_, clk)| clk.is_zero() && c.recorded == GameResult::win_for(to_move.other()))
            .map(|_| (to_move, "the clock"))
    };
    let Some((flagger, how)) = flagger else {
        return FlagEvidence::None;
    };
    // The winner's own flag already down on the record, on his own move:
    // both fell, his first (the flagger's ran on after it).
    // Only where his last reading is that zero: a clock that reads time
    // again after it is an anomaly, not a flag.
    let winner_last = c.clocks.last(flagger.other());
    if let (Some(at), Some((_, clk))) = (c.clocks.fallen(flagger.other()), winner_last) {
        if clk.is_fallen() {
            return FlagEvidence::BothFirst {
                first: flagger.other(),
                at,
            };
        }
    }
    FlagEvidence::One { flagger, how }
}

fn judge_flags_or_record(c: Ctx<'_>) -> Judgement {
    match flag_evidence(&c) {
        FlagEvidence::Both(_) if c.dead_fast() => judge_dead(c),
        FlagEvidence::Both(how) => {
            let first = c.clocks.first_fell();
            judge_both_flags(c, how, first)
        }
        FlagEvidence::BothFirst { .. } if c.dead_fast() => judge_dead(c),
        FlagEvidence::BothFirst { first, at } => {
            let how = format!(
                "{}'s clock at 0:00:00.0 and {}'s flag after it",
                first.name(),
                first.other().name()
            );
            judge_both_flags(c, &how, Some((first, at)))
        }
        FlagEvidence::One { flagger, how } => judge_one_flag(c, flagger, how, None),
        FlagEvidence::Conflict(why) => {
            let rule = c.rules.flag.rule.clone();
            let v = Verdict::against(c.recorded, GameResult::Unknown, Reason::FlagFall, rule);
            let ply = c.r.plies;
            c.finish(v, (ply > 0).then_some(ply), why)
        }
        FlagEvidence::None => judge_unclaimed_or_record(c),
    }
}

fn judge_both_flags(c: Ctx<'_>, how: &str, first: Option<(Side, usize)>) -> Judgement {
    let facts = BothFlagsFacts {
        tc: &c.tc,
        next_move: c.r.pos.fullmoves().get(),
        first_fell: first.map(|(s, _)| s),
    };
    let (ruling, period) = policy::both_flags(c.rules, facts);
    let main = format!(
        "both flags are down, shown by {how}, {} ({})",
        period.words(),
        c.tc
    );
    let (result, extra) = match ruling.value {
        BothFlags::FirstFell(side) => {
            let at = first.map(|(_, p)| p);
            let how = if c.clocks.first_fell().is_some() {
                format!(
                    "the clocks (both at 0:00:00.0, {}'s first, {}'s still running then)",
                    side.name(),
                    side.other().name()
                )
            } else {
                how.to_string()
            };
            return judge_one_flag(c, side, &how, Some((ruling.rule, at)));
        }
        BothFlags::Draw => (GameResult::Draw, ": drawn"),
        BothFlags::Continue => (
            GameResult::Unknown,
            ": the game should have continued and the record ends here",
        ),
        BothFlags::Review => (
            GameResult::Unknown,
            ": which fell first cannot be told from the record",
        ),
    };
    let v = Verdict::against(c.recorded, result, Reason::BothFlagsDown, ruling.rule);
    let ply = c.r.plies;
    c.finish(v, (ply > 0).then_some(ply), format!("{main}{extra}"))
}

/// `flagger`'s flag fell; `first` is the both-flags rule and the ply of the
/// fall when the record showed it falling first.
fn judge_one_flag(
    mut c: Ctx<'_>,
    flagger: Side,
    how: &str,
    first: Option<(Citation, Option<usize>)>,
) -> Judgement {
    let opp = flagger.other();
    // The flag fell while the flagger was to move after the last move played,
    // or on the flagger's own move where both clocks show the order.
    let flag_ply = match &first {
        Some((_, Some(p))) => Some(*p),
        _ => (c.r.plies > 0).then_some(c.r.plies),
    };
    // One buffer for the whole sentence: this runs for every flag fall.
    let mut main = String::with_capacity(192);
    main.push_str(flagger.name());
    main.push_str("'s flag fell");
    match (&first, flag_ply) {
        (Some((_, Some(p))), _) => c.write_named(" on ", *p, &mut main),
        (_, Some(p)) => c.write_named(" after ", p, &mut main),
        _ => {}
    }
    if let Some((_, clk)) = c.clocks.last(flagger) {
        main.push_str(" (last recorded clock ");
        clk.push_to(&mut main);
        main.push(')');
    }
    main.push_str(", shown by ");
    main.push_str(how);
    let t = match policy::flag_fall(c.rules, &mut c.board, flagger, c.syzygy) {
        FlagFall::Dead => return judge_dead(c),
        FlagFall::Decided(t) => t,
    };
    let (result, reason) = match t.verdict {
        Mateability::Winnable => (GameResult::win_for(opp), Reason::FlagFall),
        Mateability::Unwinnable => (GameResult::Draw, Reason::FlagFallCannotMate),
        Mateability::Undetermined => (GameResult::Unknown, Reason::FlagFallCannotMate),
    };
    main.push_str("; ");
    match (&t.uscf, &t.answer) {
        (Some((p, why)), _) => {
            let (mo, mf) = (
                material_label(&c.r.pos, opp),
                material_label(&c.r.pos, flagger),
            );
            let o = opp.name();
            let _ = match t.verdict {
                Mateability::Winnable => write!(main, "{o} has {mo} v {mf}: {why}"),
                Mateability::Unwinnable => write!(
                    main,
                    "{o} has only {mo} v {mf}, {why}: drawn under USCF {p}"
                ),
                Mateability::Undetermined => write!(
                    main,
                    "{o} has only {mo} v {mf}: a draw under USCF {p} unless {o} has a forced win; {why}"
                ),
            };
        }
        (None, Some(answer)) => {
            write_can_mate_sentence(&mut main, opp, answer, &c.r.pos);
            if t.verdict == Mateability::Unwinnable {
                main.push_str(": drawn");
            }
        }
        (None, None) => {}
    }
    // A draw on record with one flag down that would lose: the draw must
    // rest on what the record does not show (both flags down, a draw
    // agreed first), so the loss is not given on it; unless the record
    // says why (a site's "timeout vs insufficient material", its own
    // mating-material rule, which the ruleset's test replaces).
    let explained = || {
        let term = &c.game.tags.termination;
        term.to_ascii_lowercase().contains("insufficient")
    };
    if c.recorded == GameResult::Draw
        && first.is_none()
        && result.winner().is_some()
        && !explained()
    {
        let _ = write!(
            main,
            "; but the result recorded is a draw, which one fallen flag does not give here: both flags down, or a draw agreed first, would, and the record does not show which"
        );
        let v = Verdict::against(c.recorded, GameResult::Unknown, Reason::FlagFall, t.rule);
        return c.finish(v, flag_ply, main);
    }
    let rule = match first {
        Some((f, _)) => f.and(&t.rule),
        None => t.rule,
    };
    let v = Verdict::against(c.recorded, result, reason, rule);
    if result != c.recorded {
        let _ = write!(main, "; recorded {}", c.recorded.as_str());
    }
    c.finish(v, flag_ply, main)
}

fn judge_unclaimed_or_record(mut c: Ctx<'_>) -> Judgement {
    let rules = c.rules;
    // A flag that fell with play going on, then no claim.
    // Or on the last move, by a side the result does not score as losing
    // (a win or a draw recorded with its clock at 0:00:00.0): it fell
    // before the resignation or agreement, and was not called either.
    let last = c.r.plies;
    let early = [Side::White, Side::Black]
        .into_iter()
        .filter_map(|s| {
            c.clocks
                .fallen(s)
                .filter(|&p| {
                    p < last
                        || (p == last
                            && c.recorded != GameResult::Unknown
                            && c.recorded.winner() != Some(s.other()))
                })
                .map(|p| (s, p))
        })
        .min_by_key(|&(_, p)| p);
    // A draw recorded where the flag down on the last move would give a
    // draw too (its opponent cannot mate): the result is the same either
    // way, and is said so.
    if let Some((side, p)) = early.filter(|&(_, p)| p == last && c.recorded == GameResult::Draw) {
        let t = policy::win_test(rules, &mut c.board, side.other(), c.syzygy);
        if t.verdict == Mateability::Unwinnable {
            let note = format!(
                "{}'s flag fell at {} (0:00:00.0), the last move recorded, and gives the draw recorded all the same: {} cannot mate ({})",
                side.name(),
                c.named(p),
                side.other().name(),
                t.rule
            );
            c.notes.insert(0, note);
            return judge_record(c);
        }
    }
    if let Some((side, p)) = early {
        let main = if p < last {
            format!(
                "{}'s flag fell at {} (0:00:00.0) and play went on",
                side.name(),
                c.named(p)
            )
        } else {
            format!(
                "{}'s flag fell at {} (0:00:00.0), the last move recorded, and the result ({}) does not score it as lost: it fell before the game ended by resignation or agreement",
                side.name(),
                c.named(p),
                c.recorded.as_str()
            )
        };
        let unclaimed = policy::unclaimed_flag(rules);
        if unclaimed.value == UnclaimedFlag::Review {
            let v = Verdict::against(
                c.recorded,
                GameResult::Unknown,
                Reason::FlagUnclaimed,
                unclaimed.rule,
            );
            return c.finish(v, Some(p), main);
        }
        c.notes.insert(
            0,
            format!("not claimed, so it does not count ({})", unclaimed.rule),
        );
        let v = Verdict::against(
            c.recorded,
            c.recorded,
            Reason::FlagUnclaimed,
            unclaimed.rule,
        );
        return c.finish(v, Some(p), main);
    }
    judge_record(c)
}

/// Have both players made a move, counting those before the record's
/// start position (its move number and side to move say how many)?
fn both_have_moved(start: &Chess, plies: usize) -> bool {
    let before = start.fullmoves().get() as usize - 1;
    let white_first = start.turn() == shakmaty::Color::White;
    // Moves each side made before the start, then in the record.
    let white = before + usize::from(!white_first) + (plies + usize::from(white_first)) / 2;
    let black = before + (plies + usize::from(!white_first)) / 2;
    white > 0 && black > 0
}

fn judge_record(c: Ctx<'_>) -> Judgement {
    let term = c.game.tags.termination.trim();
    // The board ending the tag names, where moves were recorded.
    let said_end = (c.r.plies > 0)
        .then(|| termination_board_end(term, &c.game.tags.white, &c.game.tags.black))
        .flatten();
    let term_note = if term.is_empty() {
        String::new()
    } else {
        format!(" (Termination: {term})")
    };
    match c.recorded {
        GameResult::Draw | GameResult::Unknown if c.r.plies > 0 && c.dead_fast() => judge_dead(c),
        GameResult::Unknown => judge_unfinished(c, &term_note),
        recorded
            if termination_result(term, &c.game.tags.white, &c.game.tags.black)
                .is_some_and(|said| said != recorded) =>
        {
            // The record names one ending in Termination and another in
            // Result: which is wrong cannot be told from it.
            let main = format!(
                "the Termination tag ({term}) and the Result tag ({}) disagree: the record contradicts itself, so its result is not confirmed",
                recorded.as_str()
            );
            let rule = if recorded == GameResult::Draw {
                c.rules.board.agreement.clone()
            } else {
                c.rules.board.resignation.clone()
            };
            let v = Verdict::against(
                recorded,
                GameResult::Unknown,
                Reason::ResignationOrAgreement,
                rule,
            );
            c.finish(v, None, main)
        }
        // The tag names a mate or a stalemate the moves do not reach: the
        // moves that ended the game are not on the record, or the tag is
        // wrong; either way the ending is not known (a record of no moves
        // is a result alone, below).
        recorded if said_end.is_some() => {
            let end = said_end.unwrap_or(BoardEnd::Checkmate);
            let (_, rule) = policy::board_end(c.rules, end, Side::White);
            let (kind, reason) = match end {
                BoardEnd::Stalemate => ("stalemate", Reason::Stalemate),
                _ => ("checkmate", Reason::Checkmate),
            };
            let main = format!(
                "the Termination tag ({term}) says the game ended in {kind}, but the recorded moves end after {} with no {kind} on the board: the moves that ended the game are missing or the tag is wrong, so the result ({}) is not confirmed",
                c.named(c.r.plies),
                recorded.as_str()
            );
            let v = Verdict::against(recorded, GameResult::Unknown, reason, rule);
            c.finish(v, None, main)
        }
        // A record of no moves is a result, not a game: it stands as any
        // result does, under the scoring rule.
        GameResult::Draw if c.r.plies == 0 => {
            let main = format!("no moves recorded; the recorded draw stands{term_note}");
            let rule = c.rules.scoring.rule.clone();
            let v = Verdict::against(c.recorded, GameResult::Draw, Reason::NoMoves, rule);
            finish_naming_stood(c, v, main)
        }
        // One side has yet to make a move (from the opening, or a
        // Chess960 start: White's first move alone).
        GameResult::Draw
            if c.rules.board.agreement_after_both_moved
                && !both_have_moved(&c.start, c.r.plies) =>
        {
            let main = format!(
                "drawn after {} alone: a draw is agreed only once both players have made a move, so the record does not show how the game was drawn{term_note}",
                c.named(1)
            );
            let rule = c.rules.board.agreement.clone();
            let v = Verdict::new(
                GameResult::Unknown,
                Status::Review,
                Reason::ResignationOrAgreement,
                rule,
            );
            c.finish(v, None, main)
        }
        GameResult::Draw => {
            let main = format!(
                "drawn by agreement or claim, no board or clock evidence against it{term_note}"
            );
            let rule = c.rules.board.agreement.clone();
            let v = Verdict::against(
                c.recorded,
                GameResult::Draw,
                Reason::ResignationOrAgreement,
                rule,
            );
            finish_naming_stood(c, v, main)
        }
        GameResult::WhiteWins | GameResult::BlackWins => judge_recorded_win(c, &term_note),
    }
}

/// A game with no result recorded: unfinished, or with no moves either
/// (a run of tags with no movetext, say), which is nothing to confirm.
fn judge_unfinished(c: Ctx<'_>, term_note: &str) -> Judgement {
    let rule = c.rules.scoring.rule.clone();
    // A tag written but not as a result ("1:0", "10") is said as written.
    let tag = c.game.tags.result.trim();
    let unread = if tag.is_empty() || tag == "*" || tag == "?" {
        String::new()
    } else {
        // The moves' own marker, where it gives one, is said beside it:
        // the record then holds a result, but not as its tag.
        let marker = crate::pgn::scan::termination_marker(c.text)
            .and_then(crate::pgn::scan::marker_result)
            .map(|(m, _)| m);
        let not = format!("the Result tag {tag:?} is not a result (1-0, 0-1, 1/2-1/2 or *)");
        match marker {
            Some(m) if c.r.plies > 0 => {
                let main = format!(
                    "{not}, though the moves end {m} after {}: the record does not say plainly how the game ended{term_note}",
                    c.named(c.r.plies)
                );
                let v =
                    Verdict::against(c.recorded, GameResult::Unknown, Reason::Unterminated, rule);
                return c.finish(v, None, main);
            }
            _ => format!("{not}, so none is recorded; "),
        }
    };
    let (v, main) = if c.r.plies == 0 {
        let v = Verdict::new(GameResult::Unknown, Status::Review, Reason::NoMoves, rule);
        (v, format!("{unread}no moves and no result"))
    } else {
        let reason = Reason::Unterminated;
        let v = Verdict::against(c.recorded, GameResult::Unknown, reason, rule);
        let main = format!(
            "{unread}the game is unfinished after {}{term_note}",
            c.named(c.r.plies)
        );
        (v, main)
    };
    c.finish(v, None, main)
}

/// A recorded win with no board or clock ending: it stands where the
/// winner can mate, shown by a line (`mate::can_mate`); a win without moves
/// from the initial position is a default and stands.
fn judge_recorded_win(mut c: Ctx<'_>, term_note: &str) -> Judgement {
    let rules = c.rules;
    let winner = c.recorded.winner().unwrap_or(Side::White);
    if c.r.plies == 0 && c.game.plies.is_empty() && c.game.tags.fen.trim().is_empty() {
        let main = format!(
            "no moves recorded; the recorded win for {} stands{term_note}",
            winner.name()
        );
        let rule = rules.scoring.rule.clone();
        let v = Verdict::against(c.recorded, c.recorded, Reason::NoMoves, rule);
        return c.finish(v, None, main);
    }
    let answer = c.mate(winner);
    if answer.verdict == Mateability::Unwinnable && c.dead_given(winner) {
        return judge_dead(c);
    }
    // Under `Stands` a resignation stands, but a flag that fell is judged
    // by the flag test: where that would not give this win, the record must
    // say it was a resignation, or the ending is not known (review).
    let unknown_ending = if rules.board.resigned_win == ResignedWin::Stands
        && !c
            .game
            .tags
            .termination
            .to_ascii_lowercase()
            .contains("resign")
    {
        let t = policy::win_test(rules, &mut c.board, winner, c.syzygy);
        (t.verdict != Mateability::Winnable).then_some(t.rule)
    } else {
        None
    };
    if let Some(flag_rule) = unknown_ending {
        let main = format!(
            "{} is credited with the win, and the record does not say how the game ended: a resignation stands ({}), but a fallen flag would not certainly give this win ({flag_rule}){term_note}",
            winner.name(),
            rules.board.resignation,
        );
        let rule = rules.board.resignation.and(&flag_rule);
        let v = Verdict::against(
            c.recorded,
            GameResult::Unknown,
            Reason::ResignationOrAgreement,
            rule,
        );
        return finish_naming_stood(c, v, main);
    }
    // Under `Stands`, a win the winner cannot show stands where the loser
    // could mate: the position was not dead.
    let loser_mates = rules.board.resigned_win == ResignedWin::Stands
        && answer.verdict != Mateability::Winnable
        && c.mate(winner.other()).verdict == Mateability::Winnable;
    // The sentence only where the row prints it.
    let s = || can_mate_sentence(winner, &answer, &c.r.pos);
    let stands = || {
        format!("{} loses by resignation or agreement; no board or clock evidence against it{term_note}", winner.other().name())
    };
    let (result, main) = match (answer.verdict, rules.board.resigned_win) {
        (Mateability::Winnable, _) => (c.recorded, stands()),
        (Mateability::Unwinnable, ResignedWin::IfWinnerCanMate) => (
            GameResult::Draw,
            format!(
                "{} is credited with the win, but {}: drawn{term_note}",
                winner.name(),
                s()
            ),
        ),
        (Mateability::Undetermined, ResignedWin::IfWinnerCanMate) => (
            GameResult::Unknown,
            format!(
                "{} is credited with the win; {}{term_note}",
                winner.name(),
                s()
            ),
        ),
        // The win stands unless the position was dead: shown not dead by
        // the loser's mate, else whether it was is undetermined (review).
        (_, ResignedWin::Stands) => {
            if loser_mates {
                (
                    c.recorded,
                    format!(
                        "{}; {}, which does not void a resignation under these rules",
                        stands(),
                        s()
                    ),
                )
            } else {
                (GameResult::Unknown, format!("{} is credited with the win; {}, and whether the position was dead (a draw) is undetermined{term_note}", winner.name(), s()))
            }
        }
    };
    let rule = rules.board.resignation.clone();
    let v = Verdict::against(c.recorded, result, Reason::ResignationOrAgreement, rule);
    finish_naming_stood(c, v, main)
}

/// A resignation or agreement ruling finished; an illegal move that stood
/// is the one event on the board worth naming in it.
fn finish_naming_stood(c: Ctx<'_>, verdict: Verdict, main: String) -> Judgement {
    let rules = c.rules;
    let stood = c.r.illegal.iter().find(|i| i.stood).cloned();
    match stood {
        Some(im) if verdict.reason == Reason::ResignationOrAgreement => {
            let why = match policy::unnoticed_stands(rules, true) {
                Some(rule) if im.unnoticed => rule,
                _ => &rules.illegal_move.stands_rule,
            };
            let v = Verdict::new(
                verdict.result,
                verdict.status,
                Reason::IllegalMoveStands,
                why.and(&verdict.rule),
            );
            c.finish(v, Some(im.ply), main)
        }
        _ => c.finish(verdict, None, main),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Move, Role, Square};

    #[test]
    fn the_can_mate_sentence_in_each_of_its_forms() {
        let pos = crate::analysis::test_position("8/8/4k3/8/8/2K5/1PN5/8 w - - 0 1");
        let answer = |verdict, method, line: Vec<Move>| MateAnswer {
            verdict,
            method,
            written: crate::analysis::mate::numbered_line(&pos, &line),
            line,
        };
        let m = Move::Normal {
            role: Role::Knight,
            from: Square::C2,
            capture: None,
            to: Square::D4,
            promotion: None,
        };
        for (a, side, want) in [
            (
                answer(Mateability::Unwinnable, "insufficient material", vec![]),
                Side::Black,
                "Black cannot mate with K v K+N+P: no helpmate exists (insufficient material)",
            ),
            (
                answer(Mateability::Winnable, "helpmate line", vec![m]),
                Side::White,
                "White can mate with K+N+P v K: helpmate line 1. Nd4+",
            ),
            (
                answer(Mateability::Winnable, "the position is mate", vec![]),
                Side::White,
                "White can mate with K+N+P v K (the position is mate)",
            ),
            (
                answer(Mateability::Undetermined, "search budget spent", vec![]),
                Side::White,
                "whether White can mate with K+N+P v K is undetermined (search budget spent)",
            ),
        ] {
            assert_eq!(can_mate_sentence(side, &a, &pos), want);
        }
    }
}
