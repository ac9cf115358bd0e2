//! Auditing a rated list (`arbiter audit --list NAME|FILE`): every game at
//! the list's control, no tournament (and no player) over the list's rounds
//! a day, every result
//! right under the list's ruleset, no player twice in one round. A game a
//! finding excludes is not rated in the TRF report (`report`).

use std::collections::{BTreeMap, BTreeSet};

use crate::{
    model::{Clock, GameResult, Side, Status},
    pipeline::GameOutcome,
};

pub mod list;
pub(crate) mod report;
pub(crate) mod trf_in;

pub use list::RatedList;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) source: String,
    pub(crate) game: u64,
    pub(crate) date: String,
    pub(crate) round: String,
    pub(crate) white: String,
    pub(crate) black: String,
    pub(crate) finding: &'static str,
    pub(crate) rule: String,
    pub detail: String,
}

impl Finding {
    fn of(
        g: &ListedGame,
        finding: &'static str,
        rule: impl Into<String>,
        detail: String,
    ) -> Finding {
        Finding {
            source: g.source.clone(),
            game: g.game,
            date: g.date.clone(),
            round: g.round.clone(),
            white: g.white.name.clone(),
            black: g.black.name.clone(),
            finding,
            rule: rule.into(),
            detail,
        }
    }
}

/// One player of a game, as its tags give them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Player {
    pub(crate) name: String,
    pub(crate) elo: Option<u32>,
    pub(crate) fide_id: String,
    pub(crate) title: String,
    pub(crate) federation: String,
    /// A tournament file's sex (column 10) and birth date (70-79), kept as
    /// written: PGN has no tags for them, and nothing here checks them.
    pub(crate) sex: String,
    pub(crate) birth: String,
}

/// One game of the list as the TRF reports it.
#[derive(Clone, Debug)]
pub(crate) struct ListedGame {
    pub(crate) source: String,
    pub(crate) game: u64,
    pub(crate) event: String,
    pub(crate) site: String,
    pub(crate) date: String,
    /// The date is the `UTCDate` tag's, the game having no whole `Date`.
    pub(crate) utc_dated: bool,
    /// The `Round` tag as written, and the round it gives.
    pub(crate) round: String,
    pub(crate) round_number: Option<u32>,
    pub(crate) time_control: String,
    pub(crate) white: Player,
    pub(crate) black: Player,
    /// The result the audit stands by: as recorded when confirmed, the
    /// judged one when corrected, the recorded one under review.
    pub(crate) result: GameResult,
    /// The `Result` tag as written (empty for a game of a TRF).
    pub(crate) result_tag: String,
    /// The rule the result stands on, as judged (empty for a game of a TRF).
    pub(crate) rule: String,
    /// The findings that keep this game off the rating (`not_rated`).
    pub(crate) excluded: BTreeSet<&'static str>,
    /// A decisive result with no more moves than the list's forfeit allows.
    pub(crate) forfeit: bool,
    /// A bye's TRF-16 code as a tournament file wrote it (`F`, `U`, `H`...),
    /// kept in the report; `None` for a game read, whose code follows its
    /// score.
    pub(crate) bye_code: Option<char>,
}

impl ListedGame {
    /// Two players, each named: not a side unnamed (empty or `?`), not one
    /// name twice.
    pub(crate) fn two_players(&self) -> bool {
        let named = |n: &str| !n.is_empty() && n != "?";
        let (w, b) = (self.white.name.as_str(), self.black.name.as_str());
        named(w) && named(b) && !w.eq_ignore_ascii_case(b)
    }

    pub(crate) fn rated(&self) -> bool {
        self.excluded.is_empty() && !self.forfeit
    }

    /// The side whose "opponent" is a bye, and so the player who had it.
    pub(crate) fn bye(&self) -> Option<Side> {
        match (is_bye(&self.white.name), is_bye(&self.black.name)) {
            (false, true) => Some(Side::White),
            (true, false) => Some(Side::Black),
            _ => None,
        }
    }

    /// A bye's score for its player, in half points (`None`: not a bye,
    /// or no result).
    pub(crate) fn bye_half_points(&self) -> Option<u32> {
        let side = self.bye()?;
        match self.result {
            GameResult::Unknown => None,
            GameResult::Draw => Some(1),
            r if r.winner() == Some(side) => Some(2),
            _ => Some(0),
        }
    }

    /// A `Round` tag that names no round: `?`, `-` or nothing (PGN 8.1.1).
    pub(crate) fn round_unknown(&self) -> bool {
        self.round_number.is_none() && matches!(self.round.trim(), "" | "?" | "-")
    }
}

/// A name as its letters: case, spaces, punctuation and accents set
/// aside ("Müller, Hans" and "Muller Hans" alike), for telling whether two
/// spellings may be one player.
fn name_letters(name: &str) -> String {
    name_words(name).concat()
}

/// A name's words, accents set aside and case folded ("Müller, Hans":
/// `muller`, `hans`).
fn name_words(name: &str) -> Vec<String> {
    deunicode::deunicode(name)
        .to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// A bye written as a player, as pairing programs export one (`BYE`).
fn is_bye(name: &str) -> bool {
    name.trim().eq_ignore_ascii_case("bye")
}

/// Which games of a day past the list's limit go unrated:
/// the rule says how many rounds a day, not which game breaks it, so the
/// officer chooses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OverLimit {
    /// The games of the rounds past the limit (the seventh of seven).
    #[default]
    Past,
    /// Every game of that day.
    Day,
}

/// The round a game is in, for the TRF: its round number where each number
/// was played on one date (a Swiss over several days), else its date and
/// number (a list whose rounds start again at 1 each day); a game with no
/// round number apart by its `Round` text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct RoundKey {
    date: String,
    number: u32,
    text: String,
}

/// Collects findings game by game; the rounds checks need the whole list.
pub(crate) struct Audit {
    list: RatedList,
    over_limit: OverLimit,
    pub(crate) games: u64,
    pub(crate) findings: Vec<Finding>,
    /// Every readable game, for the TRF report.
    pub(crate) listed: Vec<ListedGame>,
    /// A tournament file's players, those without a game included.
    pub(crate) registered: Vec<Player>,
    /// What the report keeps of a tournament file as the file has it.
    pub(crate) kept: Option<trf_in::Kept>,
    /// The games are one tournament's whatever their `Event` tags say
    /// (`--trf-event` names it: a broadcast names each game): a player's
    /// games in one round clash across them.
    pub(crate) one_tournament: bool,
}

/// What an audit found, and the list as the TRF report takes it.
pub(crate) struct Audited {
    pub(crate) games: u64,
    pub(crate) findings: Vec<Finding>,
    pub(crate) listed: Vec<ListedGame>,
    /// A tournament file's players, those without a game included.
    pub(crate) registered: Vec<Player>,
    pub(crate) kept: Option<trf_in::Kept>,
    /// Each listed game's TRF round (`None`: no result, or a player already
    /// in that round), and the rounds in order.
    pub(crate) rounds: Vec<Option<usize>>,
    pub(crate) round_count: usize,
    /// How the rounds were told apart, in words.
    pub(crate) rounds_by: &'static str,
}

fn time_control_problem(list: &RatedList, o: &GameOutcome) -> Option<String> {
    let tag = o.tags.time_control.trim();
    let want = list.control_words();
    if !tag.is_empty() && tag != "?" {
        let shown = crate::model::excerpt(tag, 200);
        // The control as the game was judged at it (lichess's `90+30` in
        // minutes mended from the clocks), where the tag can be read.
        return match crate::pgn::time_control::read(tag) {
            Some(r) => {
                let judged = o.judgement.control.as_deref();
                let judged = judged.and_then(|t| crate::pgn::time_control::TimeControl::parse(t).ok());
                let tc = judged.as_ref().unwrap_or(r.control());
                (!list.fits(tc)).then(|| format!("TimeControl \"{shown}\" is not {want}"))
            }
            None => Some(format!(
                "TimeControl \"{shown}\" cannot be read as a control (a PGN TimeControl writes 30 minutes each as \"1800\"): it cannot be shown to be {want}"
            )),
        };
    }
    // No tag: the clocks must tell.
    let top = o
        .first_clocks
        .iter()
        .flatten()
        .map(|c: &Clock| c.tenths)
        .max();
    let Some(top) = top else {
        return Some(format!(
            "no TimeControl tag and no clock readings: the control cannot be shown to be {want}"
        ));
    };
    list.clocks_fit(top / 10, o.clock_rises).err().map(|why| {
        format!("no TimeControl tag, and {why}: the control cannot be shown to be {want}")
    })
}

/// A FIDE id as TRF-16's columns 58-68 hold one: digits, eleven at
/// most, not all zero (PGN's `?` or `0` is none).
pub(crate) fn fide_id_valid(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 11
        && id.bytes().all(|c| c.is_ascii_digit())
        && !id.trim_start_matches('0').is_empty()
}

/// What of a player's tags does not fit the TRF report, in words, each
/// such field cleared; "none" values (`?`, `-`, `0`) are not said.
fn unfit_tags(side: Side, p: &mut Player, fed: &str) -> Vec<String> {
    let who = side.name();
    let mut bad = Vec::new();
    if let Some(e) = p.elo.filter(|&e| e > 9999) {
        bad.push(format!(
            "{who}Elo {e} is not a rating (four digits at most)"
        ));
        p.elo = None;
    }
    let none = |v: &str| matches!(v.trim(), "" | "?" | "-" | "0");
    if none(&p.fide_id) {
        p.fide_id.clear();
    } else if !fide_id_valid(&p.fide_id) {
        bad.push(format!(
            "{who}FideId {:?} is not a FIDE id (digits, eleven at most)",
            crate::model::excerpt(&p.fide_id, 40)
        ));
        p.fide_id.clear();
    }
    let f = fed.trim();
    if none(f) {
        p.federation.clear();
    } else if f.len() == 3 && f.bytes().all(|c| c.is_ascii_alphabetic()) {
        p.federation = f.to_ascii_uppercase();
    } else {
        bad.push(format!(
            "{who}Fed {:?} is not a three-letter federation code",
            crate::model::excerpt(f, 40)
        ));
        p.federation.clear();
    }
    bad
}

impl Audit {
    pub(crate) fn new(list: RatedList, over_limit: OverLimit) -> Audit {
        Audit {
            list,
            over_limit,
            games: 0,
            findings: Vec::new(),
            listed: Vec::new(),
            registered: Vec::new(),
            kept: None,
            one_tournament: false,
        }
    }

    pub(crate) fn add(&mut self, o: &GameOutcome) {
        self.games += 1;
        let j = &o.judgement;
        let t = &o.tags;
        let player = |name: &str, elo: &str, id: &str, title: &str, fed: &str| Player {
            name: name.trim().to_string(),
            elo: crate::pgn::Tags::elo(elo).filter(|&e| e > 0),
            fide_id: id.trim().to_string(),
            title: title.trim().to_string(),
            federation: fed.trim().to_string(),
            ..Player::default()
        };
        let (round_number, _) = t.round_parts();
        // A game with no whole Date is dated by its UTCDate where that is
        // whole (a broadcast's, lichess's), said in the report.
        let dated_by_utc = !report::complete(&t.date) && report::complete(&t.utc_date);
        let dated = if dated_by_utc { &t.utc_date } else { &t.date };
        let mut g = ListedGame {
            source: o.source.to_string(),
            game: o.index,
            event: t.event.clone(),
            site: t.site.clone(),
            date: dated.trim().to_string(),
            utc_dated: dated_by_utc,
            round: t.round.trim().to_string(),
            round_number,
            time_control: t.time_control.trim().to_string(),
            white: player(
                &t.white,
                &t.white_elo,
                &t.white_fide_id,
                &t.white_title,
                &t.white_fed,
            ),
            black: player(
                &t.black,
                &t.black_elo,
                &t.black_fide_id,
                &t.black_title,
                &t.black_fed,
            ),
            result: match j.verdict.status {
                Status::Corrected | Status::Decided => j.verdict.result,
                _ => t.recorded_result(),
            },
            result_tag: t.result.trim().to_string(),
            rule: j.verdict.rule.to_string(),
            excluded: BTreeSet::new(),
            forfeit: false,
            bye_code: None,
        };
        // Tags that do not fit their TRF-16 columns are left out of the
        // report, said: a rating of five digits, an id that is no FIDE id,
        // a federation that is no three-letter code.
        let raw = [(Side::White, &t.white_fed), (Side::Black, &t.black_fed)];
        let mut bad = Vec::new();
        for (side, fed) in raw {
            let p = match side {
                Side::White => &mut g.white,
                Side::Black => &mut g.black,
            };
            bad.extend(unfit_tags(side, p, fed));
        }
        if !bad.is_empty() {
            let detail = format!(
                "{}: left empty in the TRF report; put the tags right",
                bad.join("; ")
            );
            self.findings
                .push(Finding::of(&g, "player-tags", "FIDE C.04 Annex 2", detail));
        }
        if j.verdict.status == Status::Unreadable {
            self.findings.push(Finding::of(
                &g,
                "unreadable",
                j.verdict.rule.to_string(),
                j.detail.clone(),
            ));
            // Its tags still say who met in which round, and with what
            // result: in the report, not rated (as a result under review
            // is), rather than a pairing and a player gone from it.
            if g.result != GameResult::Unknown && g.two_players() && g.bye().is_none() {
                g.excluded.insert("unreadable");
                self.listed.push(g);
            }
            return;
        }
        // Two players are needed for a line each in the report: not one
        // name twice, a game with a side unnamed, or a bye against a bye.
        let (w, b) = (g.white.name.as_str(), g.black.name.as_str());
        if !g.two_players() {
            let detail = format!(
                "the game's players are {:?} and {:?}: the report needs two players, each named (White and Black tags); left out",
                w, b
            );
            self.findings
                .push(Finding::of(&g, "players", "FIDE C.04 Annex 2", detail));
            return;
        }
        // A bye is not a game: no control, no moves to count.
        if g.bye().is_some() {
            self.listed.push(g);
            return;
        }
        let moves = j.plies.div_ceil(2) as u32;
        if let Some(f) = &self.list.forfeit {
            // A result in doubt (review) is no forfeit the record shows.
            g.forfeit = j.verdict.status != Status::Review
                && g.result.winner().is_some()
                && moves <= f.moves;
        }
        // A draw of less than one move is TRF-16's `D`: not rated.
        if g.result == GameResult::Draw && j.plies == 0 {
            g.excluded.insert("no-moves");
            self.findings.push(Finding::of(
                &g,
                "no-moves",
                "FIDE C.04 Annex 2",
                "a draw with no moves played: a game of less than one move is not rated (TRF code D)".into(),
            ));
        }
        if let Some(problem) = time_control_problem(&self.list, o) {
            g.excluded.insert("time-control");
            self.findings.push(Finding::of(
                &g,
                "time-control",
                self.list.control_rule.clone(),
                problem,
            ));
        }
        if let Some((min, rule)) = &self.list.min_moves {
            if moves < *min && !g.forfeit {
                g.excluded.insert("min-moves");
                let detail = format!("{moves} moves played; a rated game has at least {min}");
                self.findings
                    .push(Finding::of(&g, "min-moves", rule.clone(), detail));
            }
        }
        // A recorded decision is rated as decided; said where it is not
        // the result the game was rated with.
        let decided_other = j.verdict.status == Status::Decided
            && Some(j.verdict.result) != GameResult::parse(&t.result);
        // Unfinished and judged so (`*` against `*`): no result to rate or
        // to question; the game is left out for want of one, as ever.
        let both_unfinished = j.verdict.result == GameResult::Unknown
            && matches!(
                GameResult::parse(&t.result),
                None | Some(GameResult::Unknown)
            );
        if !both_unfinished
            && (matches!(j.verdict.status, Status::Corrected | Status::Review) || decided_other)
        {
            if j.verdict.status == Status::Review {
                g.excluded.insert("result");
            }
            let recorded = if t.result.is_empty() {
                "*"
            } else {
                t.result.as_str()
            };
            let detail = format!(
                "rated as {recorded}, judged {} under {} ({}): {}",
                j.verdict.result.as_str(),
                self.list.ruleset,
                j.verdict.reason.as_str(),
                j.detail
            );
            self.findings.push(Finding::of(
                &g,
                "result",
                j.verdict.rule.to_string(),
                detail,
            ));
        }
        self.listed.push(g);
    }

    /// A tournament file (TRF-16) as the list: its games replace the
    /// games read, each checked against the game read for it where there
    /// is one (same round and names): a result the game contradicts is a
    /// finding, and the game's own findings go with it. A game read that the
    /// file does not have is a finding; the file's `122` control is checked
    /// once for all its games.
    pub(crate) fn take_trf(&mut self, trf: trf_in::TrfList) {
        // Names as their letters, cut as the report cuts them: "Lim Wei
        // Ming" in a game is the file's "Lim, Wei Ming".
        let cut = |n: &str| name_letters(&n.chars().take(report::NAME_COLUMNS).collect::<String>());
        // A bye by its player, whichever side the list wrote `BYE` on.
        let key = |round: Option<u32>, g: &ListedGame| {
            let (first, second) = match g.bye() {
                Some(Side::Black) => (&g.black.name, &g.white.name),
                _ => (&g.white.name, &g.black.name),
            };
            (round, cut(first), cut(second))
        };
        // The games read, by the round the report would give them: their
        // number, or where numbers start again each day, their place among
        // the days' rounds (as a TRF written from them numbers them).
        let (keys, by) = round_keys(&self.listed);
        let daily = by.contains("date");
        let order: BTreeMap<&RoundKey, u32> = keys
            .iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .enumerate()
            .map(|(i, k)| (k, i as u32 + 1))
            .collect();
        let mut read: BTreeMap<_, usize> = BTreeMap::new();
        for (i, g) in self.listed.iter().enumerate() {
            let round = if daily {
                Some(order[&keys[i]])
            } else {
                g.round_number
            };
            read.entry(key(round, g)).or_insert(i);
        }
        let control = self.trf_control_problem(&trf.time_control);
        let mut games = trf.games;
        if let (Some(problem), Some(first)) = (&control, games.first()) {
            let mut f = Finding::of(
                first,
                "time-control",
                self.list.control_rule.clone(),
                problem.clone(),
            );
            (f.game, f.round, f.white, f.black, f.date) = (
                0,
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            );
            self.findings.push(f);
        }
        let mut matched = BTreeSet::new();
        for g in &mut games {
            if control.is_some() {
                g.excluded.insert("time-control");
            }
            let Some(&i) = read.get(&key(g.round_number, g)) else {
                continue;
            };
            matched.insert(i);
            let game = &self.listed[i];
            g.excluded.extend(game.excluded.iter().copied());
            let differ = match (g.bye(), game.bye()) {
                (Some(_), Some(_)) => g.bye_half_points() != game.bye_half_points(),
                _ => game.result != g.result,
            };
            if differ && game.result != GameResult::Unknown {
                g.excluded.insert("trf-result");
                let (detail, rule) = match (g.bye(), g.bye_half_points(), game.bye_half_points()) {
                    // A bye by its player's score on each side.
                    (Some(side), Some(file), Some(read)) => {
                        let who = if side == Side::White { &g.white.name } else { &g.black.name };
                        let points = |h: u32| match h {
                            2 => "1 point",
                            1 => "a half point",
                            _ => "no point",
                        };
                        (
                            format!(
                                "the tournament file gives {who} {} for his bye in round {}; the game read ({}, game {}) gives {}: not rated until the officer decides",
                                points(file), g.round, game.source, game.game, points(read)
                            ),
                            "FIDE C.04 Annex 2".to_string(),
                        )
                    }
                    _ => (
                        format!(
                            "the tournament file has {} for round {} ({} v {}); the game ({}, game {}) is {} under {}: not rated until the officer decides",
                            g.result.as_str(), g.round, g.white.name, g.black.name, game.source, game.game, game.result.as_str(), self.list.ruleset
                        ),
                        game.rule.clone(),
                    ),
                };
                let mut f = Finding::of(g, "trf-result", rule, detail);
                f.date.clone_from(&game.date);
                self.findings.push(f);
            }
        }
        for (i, g) in self.listed.iter().enumerate() {
            if !matched.contains(&i) {
                let detail = format!(
                    "no game of round {} between {} and {} in the tournament file {}",
                    g.round_number.map_or(g.round.clone(), |r| r.to_string()),
                    g.white.name,
                    g.black.name,
                    games.first().map_or("", |t| t.source.as_str())
                );
                self.findings
                    .push(Finding::of(g, "not-in-trf", "FIDE C.04 Annex 2", detail));
            }
        }
        self.listed = games;
        self.registered = trf.players;
        self.kept = Some(trf.kept);
    }

    /// The `122` line against the list's control: `None` where it is the
    /// list's; written as a PGN `TimeControl` (`1800`, `5400+30`) or in
    /// minutes and seconds (`30 min`, `90 min + 30 sec`).
    fn trf_control_problem(&self, text: &str) -> Option<String> {
        let want = self.list.control_words();
        match trf_in::control(text) {
            Some(tc) if self.list.fits(&tc) => None,
            Some(_) => Some(format!("the tournament file's 122 line {text:?} is not {want}")),
            None => Some(format!(
                "the tournament file's 122 line {text:?} cannot be read as a control: it cannot be shown to be {want}"
            )),
        }
    }

    /// The checks that need the whole list: rounds a day, and the TRF's
    /// rounds (a player twice in one round is a finding).
    pub(crate) fn finish(mut self) -> Audited {
        if let Some((max, rule)) = self.list.rounds_per_day.clone() {
            self.rounds_per_day(max, &rule);
        }
        self.name_variants();
        self.homonyms();
        let (keys, rounds_by) = round_keys(&self.listed);
        let daily = rounds_by.contains("date");
        // A game the TRF report has no place for is said, and not rated:
        // one without a result, one whose round is unknown (`?`, `-`,
        // empty), and where round numbers start again each day, one
        // without a whole date.
        for g in &mut self.listed {
            let why = if g.result == GameResult::Unknown {
                let tag = g.result_tag.as_str();
                let words = if tag.is_empty() || GameResult::parse(tag).is_some() {
                    "no result is recorded or judged: it has no place in the TRF report".to_string()
                } else {
                    // `0-0`, a double forfeit, has no PGN result.
                    let forfeit = if tag == "0-0" {
                        "; a double forfeit has no PGN result: give it in a tournament file, where it is - against -"
                    } else {
                        ""
                    };
                    format!("the Result tag {tag:?} is not a result (1-0, 0-1, 1/2-1/2 or *), and none was judged: it has no place in the TRF report{forfeit}")
                };
                ("no-result", words)
            } else if g.round_unknown() {
                ("round-unknown", format!("its round is unknown (Round tag {:?}): it has no round to go in; give it a round number", g.round.trim()))
            } else if daily && !report::complete(&g.date) {
                ("no-date", "round numbers start again each day in this list, and it has no whole date: its round cannot be told; give its date".to_string())
            } else {
                continue;
            };
            g.excluded.insert(why.0);
            if !self
                .findings
                .iter()
                .any(|f| f.finding == why.0 && f.source == g.source && f.game == g.game)
            {
                self.findings
                    .push(Finding::of(g, why.0, "FIDE C.04 Annex 2", why.1));
            }
        }
        let placeable = |g: &ListedGame| {
            g.result != GameResult::Unknown
                && !g.round_unknown()
                && (!daily || report::complete(&g.date))
        };
        let order: BTreeSet<&RoundKey> = keys
            .iter()
            .zip(&self.listed)
            .filter(|(_, g)| placeable(g))
            .map(|(k, _)| k)
            .collect();
        let index: BTreeMap<&RoundKey, usize> =
            order.iter().enumerate().map(|(i, k)| (*k, i)).collect();
        // Two events' round 1 are two rounds, unless the games are known
        // to be one tournament's.
        let one = self.one_tournament;
        fn event_of(g: &ListedGame, one: bool) -> &str {
            if one {
                ""
            } else {
                g.event.as_str()
            }
        }
        let mut seated: BTreeMap<(usize, &str, &str), usize> = BTreeMap::new();
        let mut rounds = vec![None; self.listed.len()];
        // Games read whole take their seats first: an unreadable copy of a
        // game (both players sent one, one garbled) never keeps the good
        // one out of its round.
        let mut seating: Vec<usize> = (0..self.listed.len()).collect();
        seating.sort_by_key(|&i| self.listed[i].excluded.contains("unreadable"));
        for i in seating {
            let g = &self.listed[i];
            if !placeable(g) {
                continue;
            }
            let r = index[&keys[i]];
            // A bye is no player: two byes in a round do not clash.
            let players: Vec<&String> = [&g.white.name, &g.black.name]
                .into_iter()
                .filter(|n| !is_bye(n))
                .collect();
            let clash = players.iter().find_map(|n| {
                seated
                    .get(&(r, event_of(g, one), n.as_str()))
                    .map(|&first| (*n, first))
            });
            if let Some((name, first)) = clash {
                let other = &self.listed[first];
                let round = match g.round_number {
                    Some(n) => format!("round {n}"),
                    None => format!("round {:?}", g.round),
                };
                let detail = format!(
                    "{name} already has a game in {round} ({}, game {}: {} v {}): this game is left out of the TRF report",
                    other.source, other.game, other.white.name, other.black.name
                );
                self.findings
                    .push(Finding::of(g, "round-clash", "FIDE C.04 Annex 2", detail));
                continue;
            }
            for n in players {
                seated.insert((r, event_of(g, one), n.as_str()), i);
            }
            rounds[i] = Some(r);
        }
        Audited {
            games: self.games,
            findings: self.findings,
            round_count: order.len(),
            listed: self.listed,
            registered: self.registered,
            kept: self.kept,
            rounds,
            rounds_by,
        }
    }

    /// More rounds on one day than the list allows. Sabah v.11 limits "such
    /// a tournament" (its `Event`) to six rounds a day, whoever played in
    /// them; the list also holds each player to it across the list
    /// (PRODUCT's "no player played more than six rounds in a day"), where
    /// no tournament of his already broke it that day (and where the
    /// `Event` tags name each game, as a broadcast's do). One finding per
    /// tournament (or player) and day, on the first game past the limit;
    /// the games of the rounds past it (or, under `OverLimit::Day`, every
    /// game of that day) not rated.
    ///
    /// A game without a whole date is on its round's date where the other
    /// boards of that round all give one; where they do not, it cannot be
    /// shown within the limit (a finding, not rated until its date is
    /// given), unless its tournament has too few rounds to break it.
    fn rounds_per_day(&mut self, max: u32, rule: &str) {
        // Boards of one round share its number ("3.1", "3.2").
        let round_of = |g: &ListedGame| match g.round_number {
            Some(n) => (n, String::new()),
            None => (u32::MAX, g.round.clone()),
        };
        type Round = (u32, String);
        /// A player's day: (tournament, round) -> the games.
        type PlayerDay = BTreeMap<(String, Round), Vec<usize>>;
        let mut round_dates: BTreeMap<(String, Round), BTreeSet<String>> = BTreeMap::new();
        let mut event_rounds: BTreeMap<String, BTreeSet<Round>> = BTreeMap::new();
        for g in self.listed.iter().filter(|g| !g.round_unknown()) {
            let event = g.event.trim().to_string();
            event_rounds
                .entry(event.clone())
                .or_default()
                .insert(round_of(g));
            if day_of_play(g) {
                round_dates
                    .entry((event, round_of(g)))
                    .or_default()
                    .insert(g.date.clone());
            }
        }
        // The rounds each player sat in, across the list: a player held to
        // the limit player by player (a broadcast names each game's event)
        // can break it only with more rounds than a day allows.
        let mut player_rounds: BTreeMap<&str, BTreeSet<(String, Round)>> = BTreeMap::new();
        for g in self.listed.iter().filter(|g| !g.round_unknown()) {
            for p in [&g.white.name, &g.black.name] {
                if !is_bye(p) {
                    player_rounds
                        .entry(p.as_str())
                        .or_default()
                        .insert((g.event.trim().to_string(), round_of(g)));
                }
            }
        }
        let many = |name: &str| {
            player_rounds
                .get(name)
                .is_some_and(|r| r.len() > max as usize)
        };
        // Each game's day: its date, or its round's where that is one date.
        let mut dated: Vec<Option<String>> = Vec::with_capacity(self.listed.len());
        let mut undated = Vec::new();
        for (i, g) in self.listed.iter().enumerate() {
            if g.round_unknown() {
                dated.push(None);
                continue;
            }
            if day_of_play(g) {
                dated.push(Some(g.date.clone()));
                continue;
            }
            let event = g.event.trim().to_string();
            let dates = round_dates.get(&(event.clone(), round_of(g)));
            match dates.filter(|d| d.len() == 1).and_then(|d| d.first()) {
                Some(d) => dated.push(Some(d.clone())),
                None => {
                    dated.push(None);
                    if event_rounds
                        .get(&event)
                        .is_some_and(|r| r.len() > max as usize)
                        || many(&g.white.name)
                        || many(&g.black.name)
                    {
                        undated.push(i);
                    }
                }
            }
        }
        let mut days: BTreeMap<(String, String), BTreeMap<Round, Vec<usize>>> = BTreeMap::new();
        let mut players: BTreeMap<(String, &str), PlayerDay> = BTreeMap::new();
        for (i, g) in self.listed.iter().enumerate() {
            let Some(date) = &dated[i] else { continue };
            // A round written without a number ("R1.1") cannot be told
            // from its boards: it is not counted.
            if g.round_number.is_none() {
                continue;
            }
            let event = g.event.trim().to_string();
            days.entry((event.clone(), date.clone()))
                .or_default()
                .entry(round_of(g))
                .or_default()
                .push(i);
            // A bye is a round of the tournament, not one its player played.
            if g.bye().is_some() {
                continue;
            }
            for p in [&g.white.name, &g.black.name] {
                {
                    players
                        .entry((date.clone(), p.as_str()))
                        .or_default()
                        .entry((event.clone(), round_of(g)))
                        .or_default()
                        .push(i);
                }
            }
        }
        let round_name = |(n, text): &Round| match *n {
            u32::MAX => text.clone(),
            n => n.to_string(),
        };
        let mut excluded = Vec::new();
        let mut findings = Vec::new();
        let mut broken: BTreeSet<(String, String)> = BTreeSet::new();
        for ((event, date), rounds) in &days {
            if rounds.len() <= max as usize {
                continue;
            }
            broken.insert((event.clone(), date.clone()));
            let by_round: Vec<&Vec<usize>> = rounds.values().collect();
            let past: Vec<usize> = by_round[max as usize..]
                .iter()
                .flat_map(|g| g.iter().copied())
                .collect();
            let names: Vec<String> = rounds.keys().map(round_name).collect();
            let who = if event.is_empty() {
                "the tournament".to_string()
            } else {
                format!("the tournament {event:?}")
            };
            let detail = format!(
                "{who} had {} rounds on {date} (rounds {}); not more than {max} a day: {} not rated",
                rounds.len(),
                names.join(", "),
                self.unrated_words(&names[max as usize..])
            );
            findings.push(self.first_of(&past, "rounds-per-day", rule, detail));
            excluded.extend(match self.over_limit {
                OverLimit::Past => past,
                OverLimit::Day => by_round.iter().flat_map(|g| g.iter().copied()).collect(),
            });
        }
        for ((date, player), rounds) in &players {
            // A tournament of his that broke the limit that day has its
            // finding, and its rounds past the limit are not rated.
            let any_broken = rounds
                .keys()
                .any(|(event, _)| broken.contains(&(event.clone(), date.clone())));
            if rounds.len() <= max as usize || any_broken {
                continue;
            }
            // In the order played, as the file gives it.
            let mut order: Vec<(&(String, Round), &Vec<usize>)> = rounds.iter().collect();
            order.sort_by_key(|(_, games)| {
                games
                    .iter()
                    .map(|&i| (&self.listed[i].source, self.listed[i].game))
                    .min()
            });
            let past: Vec<usize> = order[max as usize..]
                .iter()
                .flat_map(|(_, g)| g.iter().copied())
                .collect();
            // A round by its tournament where the player had several.
            let events: BTreeSet<&String> = order.iter().map(|((e, _), _)| e).collect();
            let names: Vec<String> = order
                .iter()
                .map(|((event, r), _)| match events.len() {
                    1 => round_name(r),
                    _ => format!("{event} {}", round_name(r)).trim().to_string(),
                })
                .collect();
            let detail = format!(
                "{player} played {} rounds on {date} ({}); not more than {max} a day: {} not rated",
                rounds.len(),
                names.join(", "),
                match self.over_limit {
                    OverLimit::Past => format!("the games of {}", names[max as usize..].join(", ")),
                    OverLimit::Day => "that player's games of the day".to_string(),
                }
            );
            findings.push(self.first_of(&past, "rounds-per-day", rule, detail));
            excluded.extend(match self.over_limit {
                OverLimit::Past => past,
                OverLimit::Day => order.iter().flat_map(|(_, g)| g.iter().copied()).collect(),
            });
        }
        for i in excluded {
            self.listed[i].excluded.insert("rounds-per-day");
        }
        for i in undated {
            let g = &mut self.listed[i];
            g.excluded.insert("no-date");
            let shown = if g.utc_dated {
                format!("no Date tag, only a UTCDate ({}), which says when the record was made, not the day of play (a broadcast's is when its chapter was created)", g.date)
            } else if g.date.is_empty() {
                "no Date tag".to_string()
            } else {
                format!("the Date tag {:?} is not a whole date", g.date)
            };
            let detail = format!(
                "{shown}, and no other board of its round gives one: whether its round kept to {max} rounds a day cannot be checked; not rated until its date is given"
            );
            findings.push(Finding::of(g, "no-date", rule, detail));
        }
        self.findings.extend(findings);
    }

    /// "the games of round 7", or of the whole day.
    fn unrated_words(&self, past: &[String]) -> String {
        match self.over_limit {
            OverLimit::Past => format!(
                "the games of round{} {}",
                if past.len() == 1 { "" } else { "s" },
                past.join(", ")
            ),
            OverLimit::Day => "every game of the day".to_string(),
        }
    }

    /// A finding on the first (in file order) of `games`, which is never
    /// empty (a day past the limit has games past it).
    fn first_of(
        &self,
        games: &[usize],
        finding: &'static str,
        rule: &str,
        detail: String,
    ) -> Finding {
        let first = games
            .iter()
            .min_by_key(|&&i| (&self.listed[i].source, self.listed[i].game))
            .map_or(0, |&i| i);
        Finding::of(&self.listed[first], finding, rule, detail)
    }
}

impl Audit {
    /// Names that may be one player written two ways: the same letters
    /// once case, spaces, punctuation and accents are set aside ("Lim Wei
    /// Ming", "Lim, Wei Ming"; "Müller", "Muller"), the same names in
    /// another order ("Hans Muller", "Muller, Hans"), the same FIDE id, or the same rating and one letter
    /// apart ("Das, Ravi", "Dass, Ravi"). The report would give each its own
    /// line, splitting the player's games (and a rounds check with them):
    /// a finding on the first game of the rarer spelling, which rates
    /// nothing differently until the officer writes one spelling.
    /// One name with two FIDE ids: two players the report would merge
    /// into one line (`report::players_of` refuses to).
    fn homonyms(&mut self) {
        let mut ids: BTreeMap<&str, BTreeMap<&str, (usize, usize)>> = BTreeMap::new();
        for (i, g) in self.listed.iter().enumerate() {
            for p in [&g.white, &g.black] {
                if fide_id_valid(&p.fide_id) {
                    // `0123` and `123` are one id.
                    let e = ids
                        .entry(p.name.as_str())
                        .or_default()
                        .entry(p.fide_id.trim_start_matches('0'))
                        .or_insert((i, 0));
                    e.1 += 1;
                }
            }
        }
        for (name, by_id) in ids.iter().filter(|(_, m)| m.len() > 1) {
            let each: Vec<String> = by_id
                .iter()
                .map(|(id, (_, n))| format!("{id} ({})", crate::claim::plural(*n, "game")))
                .collect();
            let last = by_id.values().map(|v| v.0).max().unwrap_or(0);
            let detail = format!(
                "{name:?} has {} FIDE ids, {}: two players under one name, whom the TRF report would give one line; write their names apart in the games' tags (a middle name or initial)",
                by_id.len(),
                each.join(" and ")
            );
            let f = Finding::of(&self.listed[last], "homonym", "FIDE C.04 Annex 2", detail);
            self.findings.push(f);
        }
    }

    fn name_variants(&mut self) {
        struct Seen<'a> {
            first: usize,
            games: usize,
            elo: Option<u32>,
            fide_id: &'a str,
            /// Where the name sat: (event, date, round) of each game.
            rounds: BTreeSet<(&'a str, &'a str, &'a str)>,
            opponents: BTreeSet<&'a str>,
        }
        let mut names: BTreeMap<&str, Seen<'_>> = BTreeMap::new();
        for (i, g) in self.listed.iter().enumerate() {
            for (p, opp) in [(&g.white, &g.black), (&g.black, &g.white)] {
                let name = p.name.as_str();
                if name.is_empty() || name == "?" || is_bye(name) {
                    continue;
                }
                let e = names.entry(name).or_insert(Seen {
                    first: i,
                    games: 0,
                    elo: p.elo,
                    fide_id: p.fide_id.as_str(),
                    rounds: BTreeSet::new(),
                    opponents: BTreeSet::new(),
                });
                e.games += 1;
                // The first id given, as the report takes it.
                if e.fide_id.is_empty() {
                    e.fide_id = p.fide_id.as_str();
                }
                if !g.round_unknown() {
                    e.rounds
                        .insert((g.event.as_str(), g.date.as_str(), g.round.as_str()));
                }
                e.opponents.insert(opp.name.as_str());
            }
        }
        // Two names that met, or sat in one round, are two players.
        let apart = |a: &Seen<'_>, b: &str, sb: &Seen<'_>| {
            a.opponents.contains(b) || !a.rounds.is_disjoint(&sb.rounds)
        };
        // Candidates meet in a bucket: their letters, their FIDE id, or
        // their rating (only there are names one letter apart compared).
        let mut buckets: BTreeMap<(u8, String), Vec<&str>> = BTreeMap::new();
        for (name, seen) in &names {
            let mut words = name_words(name);
            if !words.is_empty() {
                buckets.entry((0, words.concat())).or_default().push(name);
            }
            // The same names in another order ("Hans Muller", "Muller, Hans").
            if words.len() > 1 {
                words.sort();
                buckets.entry((3, words.join(" "))).or_default().push(name);
            }
            // Only an id that is one: digits, not 0 (PGN's `?` is none).
            // `0123` and `123` are one id, as the report reads them.
            let id = seen.fide_id;
            if fide_id_valid(id) && !id.trim_start_matches('0').is_empty() {
                buckets
                    .entry((1, id.trim_start_matches('0').to_string()))
                    .or_default()
                    .push(name);
            }
            if let Some(elo) = seen.elo {
                buckets.entry((2, elo.to_string())).or_default().push(name);
            }
        }
        // (name, name, why, two people who met under one id)
        let mut pairs: BTreeSet<(&str, &str, &'static str, bool)> = BTreeSet::new();
        for ((kind, _), group) in &buckets {
            if group.len() < 2 || group.len() > 64 {
                continue;
            }
            for (k, a) in group.iter().enumerate() {
                for b in &group[k + 1..] {
                    let why = match kind {
                        0 => "may be one player (the same letters)",
                        1 => "may be one player (the same FIDE id)",
                        3 => "may be one player (the same names in another order)",
                        _ if strsim::damerau_levenshtein(&name_letters(a), &name_letters(b))
                            == 1 =>
                        {
                            "may be one player (the same rating, one letter apart)"
                        }
                        _ => continue,
                    };
                    let (a, b) = if a < b { (*a, *b) } else { (*b, *a) };
                    let met = apart(&names[a], b, &names[b]);
                    // Letters or a rating alone do not make one player of
                    // two who met; one FIDE id for two who met is wrong.
                    let why = match (kind, met) {
                        (1, true) => "share one FIDE id, though they met or sat in one round: one of the ids is wrong",
                        (_, true) => continue,
                        _ => why,
                    };

                    if !pairs.iter().any(|&(x, y, _, _)| (x, y) == (a, b)) {
                        pairs.insert((a, b, why, *kind == 1 && met));
                    }
                }
            }
        }
        for (a, b, why, met_one_id) in pairs {
            let (sa, sb) = (&names[a], &names[b]);
            // One id under two names: the report is refused until they
            // agree (`report::players_of`).
            let one_id = fide_id_valid(sa.fide_id)
                && sa.fide_id.trim_start_matches('0') == sb.fide_id.trim_start_matches('0');
            let then = if met_one_id {
                "the TRF report is not written until the wrong id is put right"
            } else if one_id {
                "the TRF report is not written until one player has one name and one id"
            } else {
                "the TRF report gives each its own line; if they are one, write one spelling in every game"
            };
            let rarer = if (sb.games, sa.first) < (sa.games, sb.first) {
                sb
            } else {
                sa
            };
            let detail = format!(
                "{a:?} ({}) and {b:?} ({}) {why}: {then}",
                crate::claim::plural(sa.games, "game"),
                crate::claim::plural(sb.games, "game"),
            );
            let g = &self.listed[rarer.first];
            self.findings
                .push(Finding::of(g, "name-variant", "FIDE C.04 Annex 2", detail));
        }
    }
}

pub(crate) const BY_ROUND_NUMBER: &str = "by round number";

/// The game's day of play is on record: a whole `Date`. A `UTCDate`
/// standing in for one dates the report's lines, but is not taken to show
/// how many rounds a day were played.
fn day_of_play(g: &ListedGame) -> bool {
    report::complete(&g.date) && !g.utc_dated
}

/// Each game's round key, and how the rounds were told apart.
fn round_keys(listed: &[ListedGame]) -> (Vec<RoundKey>, &'static str) {
    // Only complete dates tell: a game with `????.??.??` is in its round
    // by number.
    let mut dates: BTreeMap<u32, BTreeSet<&str>> = BTreeMap::new();
    for g in listed.iter().filter(|g| report::complete(&g.date)) {
        if let Some(n) = g.round_number {
            dates.entry(n).or_default().insert(g.date.as_str());
        }
    }
    let daily = dates.values().any(|d| d.len() > 1);
    let keys = listed
        .iter()
        .map(|g| match g.round_number {
            Some(n) => RoundKey {
                date: if daily && report::complete(&g.date) {
                    g.date.clone()
                } else {
                    String::new()
                },
                number: n,
                text: String::new(),
            },
            None => RoundKey {
                date: g.date.clone(),
                number: u32::MAX,
                text: g.round.clone(),
            },
        })
        .collect();
    let by = if daily {
        "by date and round number (a round number is played on more than one date)"
    } else {
        BY_ROUND_NUMBER
    };
    (keys, by)
}
