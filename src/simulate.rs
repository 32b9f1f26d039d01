//! Simulation: many seeded games of random legal play, with summary statistics.

use crate::bot::{Bot, RandomBot};
use crate::game::{Game, Setup, SetupError};
use crate::ruleset::Ruleset;
use std::sync::Arc;
use std::time::Instant;

/// Summary of a batch of games.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Games played.
    pub games: u64,
    /// Mean final score per seat.
    pub mean_scores: Vec<f64>,
    /// Mean number of turns per game.
    pub mean_turns: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
}

/// Plays one game to the end with random bots; game `seed` shuffles the bag and seeds the bots.
pub fn play_random(rules: &Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, SetupError> {
    let names = (1..=players).map(|i| format!("P{i}")).collect();
    let (mut game, _) = Game::new(Arc::clone(rules), Setup::new(names, seed))?;
    let mut bot = RandomBot::new(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut events = Vec::new();
    while !game.is_over() {
        let action = bot.choose(&game);
        events.clear();
        // A bot only picks legal actions, so this cannot fail; if it ever did, stop the game
        // rather than loop.
        if game.apply_into(&action, &mut events).is_err() {
            break;
        }
    }
    Ok(game)
}

/// Plays `games` games with seeds `seed, seed+1, …`, calling `progress` after each.
pub fn run(
    rules: &Arc<Ruleset>,
    players: usize,
    games: u64,
    seed: u64,
    mut progress: impl FnMut(u64),
) -> Result<Stats, SetupError> {
    let start = Instant::now();
    let mut totals = vec![0u64; players];
    let mut turns = 0u64;
    for i in 0..games {
        let game = play_random(rules, players, seed.wrapping_add(i))?;
        for (t, s) in totals.iter_mut().zip(game.scores()) {
            *t += *s as u64;
        }
        turns += game.turn() as u64;
        progress(i + 1);
    }
    let seconds = start.elapsed().as_secs_f64();
    let n = games.max(1) as f64;
    Ok(Stats {
        games,
        mean_scores: totals.iter().map(|t| *t as f64 / n).collect(),
        mean_turns: turns as f64 / n,
        seconds,
        games_per_second: if seconds > 0.0 {
            games as f64 / seconds
        } else {
            0.0
        },
    })
}
