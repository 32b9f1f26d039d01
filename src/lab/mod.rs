//! The variant lab: the same seeded games played under several rulesets, one summary line per
//! game ([`GameResult`]), and statistics that compare the rulesets ([`metrics`], [`report`]).
//!
//! Games are spread over threads and may be cut into shards ([`Shard`]) run on other machines:
//! every game depends only on its ruleset, its bots and its index (seed = first seed + index),
//! and results are put in (ruleset, index) order, so one run, any thread count and any set of
//! merged shards give the same results.
//!
//! What happened in a game is read generically from its events, as their JSON view names them
//! (the `event` kind and the `rule`, `reason` or `script` they carry): no rule is named here, so
//! a new mechanic's events are counted without a change.

pub mod changes;
pub mod firings;
pub mod metrics;
pub mod report;

use crate::bot;
use crate::bot::simulate::{self, SimulateError};
use crate::data::ruleset::Ruleset;
use crate::engine::event::Event;
use crate::engine::game::Game;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// One finished game as the lab keeps it (one JSON line of a shard file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The ruleset as given on the command line.
    pub ruleset: String,
    /// Its place in the command's list of rulesets, from 0.
    pub position: usize,
    /// The game's index in the run, from 0.
    pub index: u64,
    /// The game's seed (the run's first seed + index).
    pub seed: u64,
    /// The bot in each seat.
    pub bots: Vec<String>,
    /// Final scores by seat.
    pub scores: Vec<u32>,
    /// Turns played.
    pub turns: u32,
    /// Points by source (the rule that paid, or the kind of event that gave points), by seat.
    pub points: BTreeMap<String, Vec<u32>>,
    /// How often each rule fired, by the rule's RULES.md id and words (and the script that
    /// caused it, if one did): see [`firings`].
    pub firings: BTreeMap<String, u32>,
    /// How often the sole leader changed to another player (at the ends of turns).
    pub lead_changes: u32,
    /// The turn from which the sole winner led for good; none when the game was tied.
    pub decided_turn: Option<u32>,
    /// The run it belongs to (games per ruleset, shards), so that a merge can tell what is
    /// missing; none in files written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<RunSize>,
}

/// How large the run of a game is: games per ruleset and the number of shards it was cut into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSize {
    /// Games per ruleset in the whole run.
    pub games: u64,
    /// Shards the run was cut into (1: none).
    pub shards: u64,
}

impl GameResult {
    /// The sole winner's seat, or none if the highest score is shared.
    pub fn winner(&self) -> Option<usize> {
        sole_leader(&self.scores)
    }
}

/// The seat with the highest score if no other seat has it.
fn sole_leader<T: PartialOrd + Copy>(scores: &[T]) -> Option<usize> {
    let mut best: Option<usize> = None;
    let mut shared = false;
    for (seat, s) in scores.iter().enumerate() {
        match best {
            Some(b) if *s < scores[b] => {}
            Some(b) if *s == scores[b] => shared = true,
            _ => {
                best = Some(seat);
                shared = false;
            }
        }
    }
    if shared { None } else { best }
}

/// Why a lab run could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabError {
    /// No games asked for.
    #[error("--games must be at least 1")]
    NoGames,
    /// No ruleset named.
    #[error("name at least one ruleset")]
    NoRulesets,
    /// A bot spec names no bot.
    #[error("unknown bot `{0}` (known bots: {known})", known = bot::FORMS)]
    UnknownBot(String),
    /// A shard is not K/N with 1 ≤ K ≤ N.
    #[error("bad shard `{0}`: write K/N with 1 ≤ K ≤ N, e.g. --shard 3/8")]
    Shard(String),
    /// A shard holds no games.
    #[error("shard {0} of a run of {1} games holds no games: use fewer shards")]
    EmptyShard(String, u64),
    /// Results that do not belong to one run (when merging shards).
    #[error("these results do not make one run: {0}")]
    Mixed(String),
    /// A line of a results file is not a game result.
    #[error("{file}:{line}: not a game result: {why}")]
    BadLine {
        /// The file.
        file: String,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// A plot could not be drawn.
    #[error("cannot draw the report: {0}")]
    Plot(String),
    /// A game could not be played.
    #[error("{ruleset}: {error}")]
    Game {
        /// The ruleset.
        ruleset: String,
        /// What went wrong.
        error: SimulateError,
    },
}

/// The K-th (from 1) of N equal slices of a run's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl Shard {
    /// The whole run as one shard.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// The indices of this shard's games in a run of `games`: slices differ by at most one
    /// game and together cover the run in order.
    pub fn range(&self, games: u64) -> Range<u64> {
        let at = |k: u64| ((games as u128 * k as u128) / self.count as u128) as u64;
        at(self.index - 1)..at(self.index)
    }
}

impl std::str::FromStr for Shard {
    type Err = LabError;

    fn from_str(text: &str) -> Result<Shard, LabError> {
        let bad = || LabError::Shard(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// What to play: every ruleset with the same bots and the same seeds.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The rulesets, by the name given and loaded.
    pub rulesets: Vec<(String, Arc<Ruleset>)>,
    /// The bot in each seat, by spec.
    pub bots: Vec<String>,
    /// Games per ruleset in the whole run.
    pub games: u64,
    /// The seed of game 0.
    pub seed: u64,
    /// The slice of the run to play.
    pub shard: Shard,
    /// Threads (0: every core).
    pub threads: usize,
}

impl Plan {
    /// Checks the plan before anything is played.
    pub fn check(&self) -> Result<(), LabError> {
        if self.games == 0 {
            return Err(LabError::NoGames);
        }
        if self.rulesets.is_empty() {
            return Err(LabError::NoRulesets);
        }
        if let Some(b) = self.bots.iter().find(|b| !bot::is_bot_name(b)) {
            return Err(LabError::UnknownBot(b.clone()));
        }
        if self.shard.range(self.games).is_empty() {
            return Err(LabError::EmptyShard(
                format!("{}/{}", self.shard.index, self.shard.count),
                self.games,
            ));
        }
        Ok(())
    }

    /// How many games this plan plays (its shard's games under every ruleset).
    pub fn jobs(&self) -> u64 {
        let range = self.shard.range(self.games);
        (range.end - range.start) * self.rulesets.len() as u64
    }
}

/// Plays the plan's games on its threads, calling `progress` with the number finished; the
/// results in (ruleset, index) order.
pub fn run(plan: &Plan, progress: impl Fn(u64) + Sync) -> Result<Vec<GameResult>, LabError> {
    plan.check()?;
    let range = plan.shard.range(plan.games);
    let rulesets = plan.rulesets.len() as u64;
    let finished = AtomicU64::new(0);
    let bots: Vec<&str> = plan.bots.iter().map(String::as_str).collect();
    // Each thread plays on copies of the rulesets of its own (see `simulate::private_copy`).
    let copies = || -> Vec<Arc<Ruleset>> {
        plan.rulesets
            .iter()
            .map(|(_, r)| simulate::private_copy(r))
            .collect()
    };
    let done = simulate::per_thread(
        plan.jobs(),
        plan.threads,
        || (copies(), Vec::new()),
        |(rulesets_here, done): &mut (Vec<Arc<Ruleset>>, Vec<GameResult>), job| {
            // Neighbouring jobs are the same game under each ruleset, so shards stay balanced.
            let position = (job % rulesets) as usize;
            let index = range.start + job / rulesets;
            let name = &plan.rulesets[position].0;
            let result = play(&rulesets_here[position], &bots, plan.seed, index)
                .map(|r| GameResult {
                    ruleset: name.clone(),
                    position,
                    run: Some(RunSize {
                        games: plan.games,
                        shards: plan.shard.count,
                    }),
                    ..r
                })
                .map_err(|error| LabError::Game {
                    ruleset: name.clone(),
                    error,
                })?;
            done.push(result);
            progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
            Ok(())
        },
    )?;
    let mut results: Vec<GameResult> = done.into_iter().flat_map(|(_, d)| d).collect();
    results.sort_by_key(|r| (r.position, r.index));
    Ok(results)
}

/// Plays game `index` (seed `seed + index`) with these bots and sums it up.
pub fn play(
    rules: &Arc<Ruleset>,
    bots: &[&str],
    seed: u64,
    index: u64,
) -> Result<GameResult, SimulateError> {
    let game_seed = seed.wrapping_add(index);
    let players = bots.len();
    let mut tally = Tally::new(players);
    let game = simulate::play_bots_watched(rules, bots, game_seed, |game, events| {
        tally.watch(game, events);
    })?;
    Ok(tally.finish(&game, rules, bots, index, game_seed))
}

/// What a game's events add up to, while it is played.
struct Tally {
    players: usize,
    points: BTreeMap<String, Vec<u32>>,
    firings: BTreeMap<String, u32>,
    /// The sole leader at the end of each turn (index 0: before the first turn).
    leaders: Vec<Option<usize>>,
    /// Whether final scoring is under way.
    final_scoring: bool,
    /// Whether the events being counted are those of the action that ends the game (final
    /// scoring can begin only there).
    ending: bool,
}

/// The RULES.md sections whose rules pay at final scoring (a barn of Abbey & Mayor pays its
/// field's farmers under §1.9 during play too: only in the action that ends the game does a
/// payment under them begin final scoring).
const FINAL_RULES: [&str; 2] = ["§1.8", "§1.9"];

/// Event kinds that happen every turn: not counted as rule firings.
const ROUTINE: [&str; 6] = [
    "start_tile",
    "turn_started",
    "tile_drawn",
    "tile_dealt",
    "tile_placed",
    "game_ended",
];

impl Tally {
    fn new(players: usize) -> Tally {
        Tally {
            players,
            points: BTreeMap::new(),
            firings: BTreeMap::new(),
            leaders: vec![None],
            final_scoring: false,
            ending: false,
        }
    }

    fn watch(&mut self, game: &Game, events: &[Event]) {
        self.ending = game.is_over();
        for e in events {
            self.count(e);
        }
        let turn = game.turn() as usize;
        if self.leaders.len() <= turn {
            self.leaders.resize(turn + 1, None);
        }
        self.leaders[turn] = sole_leader(game.scores());
    }

    /// Counts one event by its JSON view: points by the rule (or script, or kind) that gave
    /// them, and the event as a firing of the rule behind it ([`firings::name`]), the rule it
    /// names if it names one (with the same words as its points).
    fn count(&mut self, event: &Event) {
        let Ok(Value::Object(map)) = serde_json::to_value(event) else {
            return;
        };
        let text = |key: &str| map.get(key).and_then(Value::as_str);
        let Some(kind) = text("event") else {
            return;
        };
        let (rule, script) = (text("rule"), text("script"));
        let family = firings::family_rule(event);
        let family = family.as_deref();
        let paid = rule.map(|_| self.source(kind, rule, script, family));
        if let (Some(points), Some(player)) = (
            map.get("points").and_then(Value::as_u64),
            map.get("player").and_then(Value::as_u64),
        ) {
            let source = paid
                .clone()
                .unwrap_or_else(|| self.source(kind, rule, script, family));
            let seats = self
                .points
                .entry(source)
                .or_insert_with(|| vec![0; self.players]);
            if let Some(p) = seats.get_mut(player as usize) {
                *p = p.saturating_add(points.min(u32::MAX as u64) as u32);
            }
        }
        if !ROUTINE.contains(&kind) {
            let key = paid.unwrap_or_else(|| firings::name(kind, text("reason"), script, family));
            *self.firings.entry(key).or_insert(0) += 1;
        }
    }

    /// The name of a source of points: the rule that paid (its RULES.md id and words), the
    /// script, or the rule behind an event kind or its family's rule ([`firings::name`]).
    /// Points given during final scoring by a rule that also pays during play are told apart
    /// (`… at final scoring`): final scoring is under way from the first points paid by a
    /// final-scoring rule (RULES.md §1.8 and §1.9) in the action that ends the game, which
    /// come after every completion of the last turn.
    fn source(
        &mut self,
        kind: &str,
        rule: Option<&str>,
        script: Option<&str>,
        family: Option<&str>,
    ) -> String {
        let is_final = |r: &str| FINAL_RULES.iter().any(|f| r.starts_with(f));
        if self.ending && rule.is_some_and(is_final) {
            self.final_scoring = true;
        }
        let name = match (rule, script) {
            (Some(rule), _) => rule.to_string(),
            (None, Some(script)) => format!("script {script}"),
            // Each of these happens at one time only: no need to say when.
            (None, None) => {
                return firings::name(kind, None, None, family);
            }
        };
        if self.final_scoring && !rule.is_some_and(is_final) {
            format!("{name} at final scoring")
        } else {
            name
        }
    }

    fn finish(
        self,
        game: &Game,
        rules: &Ruleset,
        bots: &[&str],
        index: u64,
        seed: u64,
    ) -> GameResult {
        let scores = game.scores().to_vec();
        let winner = sole_leader(&scores);
        let mut lead_changes = 0;
        let mut last: Option<usize> = None;
        for leader in self.leaders.iter().flatten() {
            if last.is_some_and(|l| l != *leader) {
                lead_changes += 1;
            }
            last = Some(*leader);
        }
        let decided_turn = winner.map(|w| {
            let from = self
                .leaders
                .iter()
                .rposition(|l| *l != Some(w))
                .map_or(0, |i| i + 1);
            from as u32
        });
        GameResult {
            ruleset: rules.name.clone(),
            position: 0,
            index,
            seed,
            bots: bots.iter().map(|b| b.to_string()).collect(),
            scores,
            turns: game.turn(),
            points: self.points,
            firings: self.firings,
            lead_changes,
            decided_turn,
            run: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_run_in_order() {
        let games = 10;
        let mut next = 0;
        for k in 1..=3 {
            let r = Shard { index: k, count: 3 }.range(games);
            assert_eq!(r.start, next);
            next = r.end;
        }
        assert_eq!(next, games);
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        for bad in ["3/2", "0/2", "1/0", "1", "a/b", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    fn scored(player: usize, points: u32, rule: &'static str) -> Event {
        Event::Scored {
            player,
            points,
            feature: crate::model::tile::FeatureKind::City,
            rule,
            x: 0,
            y: 0,
        }
    }

    /// RULES.md FA8: the fairy's bonus is paid on completion (after a §1.6 scoring) and at final
    /// scoring (after a §1.8 one); the tally keeps them apart, by seat.
    #[test]
    fn the_fairy_bonus_at_final_scoring_is_a_source_of_its_own() {
        let mut t = Tally::new(2);
        // The events of the action that ends the game.
        t.ending = true;
        for e in [
            scored(0, 8, "§1.6 completed city"),
            scored(0, 3, "FA8 fairy bonus"),
            scored(1, 4, "§1.8 incomplete city"),
            scored(1, 3, "FA8 fairy bonus"),
            scored(0, 2, "§1.8 incomplete road"),
        ] {
            t.count(&e);
        }
        let expected: BTreeMap<String, Vec<u32>> = [
            ("§1.6 completed city", vec![8, 0]),
            ("FA8 fairy bonus", vec![3, 0]),
            ("§1.8 incomplete city", vec![0, 4]),
            ("FA8 fairy bonus at final scoring", vec![0, 3]),
            ("§1.8 incomplete road", vec![2, 0]),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(t.points, expected);
    }

    /// RULES-MORE.md AM-16: a barn pays its field's farmers under §1.9 during play; that is no
    /// final scoring, so the points paid after it are not "at final scoring".
    #[test]
    fn farmers_paid_during_play_begin_no_final_scoring() {
        let mut t = Tally::new(2);
        for e in [
            scored(0, 6, "§1.9 farm_centric_3"),
            scored(1, 4, "§1.6 completed city"),
        ] {
            t.count(&e);
        }
        assert!(!t.final_scoring);
        assert_eq!(t.points["§1.6 completed city"], vec![0, 4]);
    }

    #[test]
    fn sole_leader_needs_an_unshared_top() {
        assert_eq!(sole_leader(&[3, 5, 1]), Some(1));
        assert_eq!(sole_leader(&[5, 5, 1]), None);
        assert_eq!(sole_leader(&[5, 3, 5]), None);
        assert_eq!(sole_leader::<u32>(&[]), None);
    }
}
