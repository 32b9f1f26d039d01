//! Simulation: many seeded games between bots, with summary statistics.

use crate::bot::{self, Bot, RandomBot};
use crate::data::ruleset::Ruleset;
use crate::engine::budget::{GameClock, OverTime};
use crate::engine::event::Event;
use crate::engine::game::{Game, RuleError, Setup, SetupError};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Summary of a batch of games.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Games played.
    pub games: u64,
    /// The bot in each seat, by name.
    pub bots: Vec<String>,
    /// Mean final score per seat.
    pub mean_scores: Vec<f64>,
    /// Games each seat won outright (the highest score, not shared).
    pub wins: Vec<u64>,
    /// Games whose highest score was shared.
    pub ties: u64,
    /// Mean number of turns per game.
    pub mean_turns: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
}

/// Why a batch of games could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimulateError {
    /// A seat names no known bot.
    #[error("unknown bot `{0}` (known bots: {known})", known = bot::FORMS)]
    UnknownBot(String),
    /// The game could not be set up (e.g. the wrong number of players).
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// A game stopped: an action the bot chose was refused (a script failed while it was
    /// applied).
    #[error("the game with seed {seed} stopped: {error}")]
    Action {
        /// The game's seed.
        seed: u64,
        /// Why the action was refused.
        error: RuleError,
    },
    /// A game stopped: its scripts spent the time a whole game may spend.
    #[error("the game with seed {seed} stopped: {error}")]
    OverTime {
        /// The game's seed.
        seed: u64,
        /// What the scripts spent.
        error: OverTime,
    },
}

/// Lets `bot` choose an action and applies it (legal, as the bot chose among the legal ones),
/// charging the time of both to the game's `clock` (scripts may filter the bot's options):
/// `started` is when the step began, and becomes when it ended (the next step's start, so the
/// clock is read once a step).
fn bot_step<B: Bot + ?Sized>(
    game: &mut Game,
    bot: &mut B,
    clock: &mut GameClock,
    started: &mut Option<Instant>,
    events: &mut Vec<Event>,
) -> Result<(), SimulateError> {
    let seed = game.setup().seed;
    let action = bot.choose(game);
    events.clear();
    // A bot picks legal actions, so only a failing script can refuse one.
    game.apply_legal(&action, events)
        .map_err(|error| SimulateError::Action { seed, error })?;
    // Reading the clock costs 2% of a random game: only scripted games are timed.
    let Some(began) = *started else {
        return Ok(());
    };
    let ended = Instant::now();
    *started = Some(ended);
    clock
        .charge_until(began, ended)
        .map_err(|error| SimulateError::OverTime { seed, error })
}

/// When a game timed by `clock` starts its first step (none for a game that is not timed).
fn first_step(clock: &GameClock) -> Option<Instant> {
    clock.limited().then(Instant::now)
}

/// Plays one game to the end with random bots; game `seed` shuffles the bag and seeds the bots.
pub fn play_random(rules: &Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, SimulateError> {
    let names = (1..=players).map(|i| format!("P{i}")).collect();
    let (mut game, _) = Game::new(Arc::clone(rules), Setup::new(names, seed))?;
    let mut bot = RandomBot::for_game(seed);
    let mut clock = GameClock::new(rules);
    let mut started = first_step(&clock);
    let mut events = Vec::new();
    while !game.is_over() {
        bot_step(&mut game, &mut bot, &mut clock, &mut started, &mut events)?;
    }
    Ok(game)
}

/// The seed of the bot in `seat` for the game with `seed`: different for every seat and game.
pub fn bot_seed(seed: u64, seat: usize) -> u64 {
    // SplitMix64's finaliser spreads neighbouring seeds apart.
    let mut z = seed
        .wrapping_add((seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of the bot in `seat` for the game's pending decision: from the game's seed, the
/// seat and the number of actions so far, so a game continued from a saved record goes on
/// exactly as it would have without the save.
pub fn decision_seed(game: &Game, seat: usize) -> u64 {
    bot_seed(
        game.setup()
            .seed
            .wrapping_add((game.history().len() as u64) << 32),
        seat,
    )
}

/// Plays one game to the end with one bot per seat (by name, see [`bot::by_name`]); game `seed`
/// shuffles the bag, and each seat's bot is seeded with [`bot_seed`].
pub fn play_bots(rules: &Arc<Ruleset>, bots: &[&str], seed: u64) -> Result<Game, SimulateError> {
    play_bots_watched(rules, bots, seed, |_, _| {})
}

/// Like [`play_bots`], showing `watch` the game and the events after every action.
pub fn play_bots_watched(
    rules: &Arc<Ruleset>,
    bots: &[&str],
    seed: u64,
    mut watch: impl FnMut(&Game, &[Event]),
) -> Result<Game, SimulateError> {
    let mut seats: Vec<Box<dyn Bot>> = bots
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            bot::by_name(name, bot_seed(seed, seat))
                .ok_or_else(|| SimulateError::UnknownBot(name.to_string()))
        })
        .collect::<Result<_, _>>()?;
    let names = bots
        .iter()
        .enumerate()
        .map(|(i, b)| format!("P{} {b}", i + 1))
        .collect();
    let (mut game, _) = Game::new(Arc::clone(rules), Setup::new(names, seed))?;
    let mut clock = GameClock::new(rules);
    let mut events = Vec::new();
    while !game.is_over() {
        let seat = game.decision().player;
        // What the watcher does between two steps is not the scripts' time.
        let mut started = first_step(&clock);
        bot_step(
            &mut game,
            seats[seat].as_mut(),
            &mut clock,
            &mut started,
            &mut events,
        )?;
        watch(&game, &events);
    }
    Ok(game)
}

/// The number of threads that uses every core.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `job(0) … job(count - 1)` on up to `threads` threads (0: [`all_cores`]) and returns
/// the results in index order, so the outcome does not depend on the number of threads as long
/// as each job depends only on its index. On failure: the error of the lowest failing index
/// (every lower index has run by then, since indices are handed out in order).
pub fn in_parallel<T: Send, E: Send>(
    count: u64,
    threads: usize,
    job: impl Fn(u64) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E> {
    let done = per_thread(count, threads, Vec::new, |done: &mut Vec<(u64, T)>, i| {
        done.push((i, job(i)?));
        Ok(())
    })?;
    let mut all: Vec<(u64, T)> = done.into_iter().flatten().collect();
    all.sort_unstable_by_key(|(i, _)| *i);
    Ok(all.into_iter().map(|(_, r)| r).collect())
}

/// Runs `job(state, 0) … job(state, count - 1)` on up to `threads` threads (0: [`all_cores`]),
/// each thread with a `state` of its own made by `start` (what it keeps of its games, and what
/// it must not share with other threads), and returns the states. Indices are handed out in
/// order; on failure, the error of the lowest failing index (every lower index has run).
/// Whatever the states keep must not depend on which thread played which index (sums, counts,
/// rows by index) for the outcome not to depend on the number of threads.
pub fn per_thread<S: Send, E: Send>(
    count: u64,
    threads: usize,
    start: impl Fn() -> S + Sync,
    job: impl Fn(&mut S, u64) -> Result<(), E> + Sync,
) -> Result<Vec<S>, E> {
    let threads = if threads == 0 { all_cores() } else { threads };
    let threads = threads.clamp(1, count.clamp(1, 1024) as usize);
    let next = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let work = || {
        let mut state = start();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= count || failed.load(Ordering::Relaxed) {
                return (state, None);
            }
            if let Err(e) = job(&mut state, i) {
                failed.store(true, Ordering::Relaxed);
                return (state, Some((i, e)));
            }
        }
    };
    let ends: Vec<(S, Option<(u64, E)>)> = if threads == 1 {
        vec![work()]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    };
    let mut states = Vec::with_capacity(ends.len());
    let mut first: Option<(u64, E)> = None;
    for (state, error) in ends {
        states.push(state);
        if let Some((i, e)) = error
            && first.as_ref().is_none_or(|(f, _)| i < *f)
        {
            first = Some((i, e));
        }
    }
    match first {
        Some((_, e)) => Err(e),
        None => Ok(states),
    }
}

/// A copy of `rules` that shares no reference count with the original: its own tile names, its
/// own slot for the mechanics the engine derives and its own compiled scripts. Games clone and
/// drop `Arc`s of their ruleset, its mechanics and its tile names many times a turn; on a
/// ruleset shared between threads every one of those counts is one cache line that the cores
/// pass back and forth, and compiled scripts run one hook at a time, so each thread plays on a
/// copy of its own.
pub fn private_copy(rules: &Ruleset) -> Arc<Ruleset> {
    let mut copy = rules.clone();
    copy.derived = Default::default();
    copy.own_scripts();
    for t in &mut copy.tiles {
        t.id = Arc::from(&*t.id);
    }
    Arc::new(copy)
}

/// Plays `games` games of random bots with seeds `seed, seed+1, …` (each game as
/// [`play_random`]) on every core, calling `progress` with the number of games finished.
pub fn run(
    rules: &Arc<Ruleset>,
    players: usize,
    games: u64,
    seed: u64,
    progress: impl Fn(u64) + Sync,
) -> Result<Stats, SimulateError> {
    run_on(rules, players, games, seed, 0, progress)
}

/// Like [`run`], on `threads` threads (0: every core); the result is the same for any number.
pub fn run_on(
    rules: &Arc<Ruleset>,
    players: usize,
    games: u64,
    seed: u64,
    threads: usize,
    progress: impl Fn(u64) + Sync,
) -> Result<Stats, SimulateError> {
    let bots = vec!["random".to_string(); players];
    batch(rules, bots, games, threads, progress, |rules, i| {
        play_random(rules, players, seed.wrapping_add(i))
    })
}

/// Plays `games` games with one bot per seat (each game as [`play_bots`]) and seeds
/// `seed, seed+1, …` on every core, calling `progress` with the number of games finished.
pub fn run_bots(
    rules: &Arc<Ruleset>,
    bots: &[&str],
    games: u64,
    seed: u64,
    progress: impl Fn(u64) + Sync,
) -> Result<Stats, SimulateError> {
    run_bots_on(rules, bots, games, seed, 0, progress)
}

/// Like [`run_bots`], on `threads` threads (0: every core); the result is the same for any
/// number.
pub fn run_bots_on(
    rules: &Arc<Ruleset>,
    bots: &[&str],
    games: u64,
    seed: u64,
    threads: usize,
    progress: impl Fn(u64) + Sync,
) -> Result<Stats, SimulateError> {
    if let Some(unknown) = bots.iter().find(|b| !bot::is_bot_name(b)) {
        return Err(SimulateError::UnknownBot(unknown.to_string()));
    }
    let names = bots.iter().map(|b| b.to_string()).collect();
    batch(rules, names, games, threads, progress, |rules, i| {
        play_bots(rules, bots, seed.wrapping_add(i))
    })
}

/// The games shared by [`run_on`] and [`run_bots_on`]: game `i` is `play(rules, i)`, with
/// each thread on its own copy of the ruleset ([`private_copy`]). Only sums are kept, so the
/// memory does not grow with the number of games.
fn batch(
    rules: &Arc<Ruleset>,
    bots: Vec<String>,
    games: u64,
    threads: usize,
    progress: impl Fn(u64) + Sync,
    play: impl Fn(&Arc<Ruleset>, u64) -> Result<Game, SimulateError> + Sync,
) -> Result<Stats, SimulateError> {
    let start = Instant::now();
    let players = bots.len();
    let finished = AtomicU64::new(0);
    let sums = per_thread(
        games,
        threads,
        || (private_copy(rules), Sums::new(players)),
        |(rules, sums), i| {
            let game = play(rules, i)?;
            sums.add(game.scores(), game.turn());
            progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
            Ok::<(), SimulateError>(())
        },
    )?;
    let mut total = Sums::new(players);
    for (_, s) in &sums {
        total.merge(s);
    }
    let seconds = start.elapsed().as_secs_f64();
    let n = games.max(1) as f64;
    Ok(Stats {
        games,
        bots,
        mean_scores: total.scores.iter().map(|t| *t as f64 / n).collect(),
        wins: total.wins,
        ties: total.ties,
        mean_turns: total.turns as f64 / n,
        seconds,
        games_per_second: if seconds > 0.0 {
            games as f64 / seconds
        } else {
            0.0
        },
    })
}

/// What [`batch`] keeps of its games: integer sums, the same in any order.
struct Sums {
    scores: Vec<u64>,
    wins: Vec<u64>,
    ties: u64,
    turns: u64,
}

impl Sums {
    fn new(players: usize) -> Sums {
        Sums {
            scores: vec![0; players],
            wins: vec![0; players],
            ties: 0,
            turns: 0,
        }
    }

    fn add(&mut self, scores: &[u32], turns: u32) {
        for (t, s) in self.scores.iter_mut().zip(scores) {
            *t += *s as u64;
        }
        let best = scores.iter().copied().max().unwrap_or(0);
        let mut top = (0..scores.len()).filter(|p| scores[*p] == best);
        match (top.next(), top.next()) {
            (Some(one), None) => self.wins[one] += 1,
            _ => self.ties += 1,
        }
        self.turns += turns as u64;
    }

    fn merge(&mut self, other: &Sums) {
        for (a, b) in self.scores.iter_mut().zip(&other.scores) {
            *a += b;
        }
        for (a, b) in self.wins.iter_mut().zip(&other.wins) {
            *a += b;
        }
        self.ties += other.ties;
        self.turns += other.turns;
    }
}

/// A rate of play for people: `13,900 games/s`, `1.5 games/s` or, below one game a second,
/// `2.5 s a game` (never "0 games per second").
pub fn rate_words(games: u64, seconds: f64) -> String {
    if games == 0 || seconds <= 0.0 {
        return "no rate measured".to_string();
    }
    let rate = games as f64 / seconds;
    if rate >= 100.0 {
        format!("{} games/s", thousands(rate.round() as u64))
    } else if rate >= 10.0 {
        format!("{rate:.0} games/s")
    } else if rate >= 1.0 {
        format!("{rate:.1} games/s")
    } else {
        format!("{:.1} s a game", 1.0 / rate)
    }
}

/// A duration for people: `45 s`, `12 min`, `2.5 h`.
pub fn duration_words(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// `13900` as `13,900`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each thread's copy of a scripted ruleset compiles the scripts for itself (they run one
    /// hook at a time: shared, two threads' games waited for each other), and its games are
    /// the same.
    #[test]
    fn a_private_copy_has_scripts_of_its_own() {
        let rules = Ruleset::load("hig-hs").expect("a shipped ruleset");
        let copy = private_copy(&rules);
        let scripts = |r: &Ruleset| r.compiled.shared::<crate::script::Scripts>();
        let (mine, theirs) = (scripts(&copy), scripts(&rules));
        assert!(mine.is_some() && theirs.is_some());
        assert!(!Arc::ptr_eq(&mine.unwrap(), &theirs.unwrap()));
        let played = |r: &Arc<Ruleset>| {
            let s = run_on(r, 2, 4, 1, 1, |_| {}).expect("plays");
            (s.mean_scores, s.wins, s.ties, s.mean_turns)
        };
        assert_eq!(played(&rules), played(&copy));
    }

    #[test]
    fn rates_read_well_at_any_speed() {
        assert_eq!(rate_words(13_900, 1.0), "13,900 games/s");
        assert_eq!(rate_words(1_234_567, 1.0), "1,234,567 games/s");
        assert_eq!(rate_words(42, 1.0), "42 games/s");
        assert_eq!(rate_words(4, 10.0), "2.5 s a game");
        assert_eq!(rate_words(3, 2.0), "1.5 games/s");
        assert_eq!(rate_words(1, 0.0), "no rate measured");
        assert_eq!(duration_words(45.0), "45 s");
        assert_eq!(duration_words(720.0), "12 min");
        assert_eq!(duration_words(9000.0), "2.5 h");
    }
}
