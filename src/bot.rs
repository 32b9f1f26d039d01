//! Players that choose actions: every bot sees only the decision API.

use crate::action::Action;
use crate::game::Game;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Something that answers the pending decision of a game.
pub trait Bot {
    /// The bot's name (as used on the command line).
    fn name(&self) -> &str;
    /// Chooses one of the legal actions. Must not be called on a finished game.
    fn choose(&mut self, game: &Game) -> Action;
}

/// Picks uniformly among the legal actions, from its own seeded generator.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
    buffer: Vec<Action>,
}

impl RandomBot {
    /// A random bot with its own seed.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            buffer: Vec::new(),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, game: &Game) -> Action {
        self.buffer.clear();
        game.legal_actions(&mut self.buffer);
        match self.buffer.len() {
            0 => Action::Pass,
            n => self.buffer[self.rng.random_range(0..n)],
        }
    }
}
