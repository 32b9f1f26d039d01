//! Players that choose actions: every bot sees only the decision API.

pub mod estimate;
pub mod mcts;
pub mod simulate;

pub use estimate::{Estimator, evaluate, values};

use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::{Game, Tally};
use crate::mechanic::pd::vocabulary::PdAction;
use crate::model::figure::Figure;
use crate::model::geometry::Pos;
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
    /// The last decision's tally, filled anew in place at each choice (not made afresh).
    tally: Tally,
}

impl RandomBot {
    /// A random bot with its own seed.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            buffer: Vec::new(),
            tally: Tally::default(),
        }
    }

    /// The random bot of the game with `seed` as `castellan simulate` plays it
    /// ([`simulate::play_random`]): its own seed differs from the bag's.
    pub fn for_game(seed: u64) -> RandomBot {
        RandomBot::new(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// Draws the index of one of `n` legal actions (at least one), as [`Bot::choose`] draws
    /// it: a loop that plays the `index`-th legal action plays the bot's game.
    pub fn index(&mut self, n: usize) -> usize {
        draw(&mut self.rng, n)
    }
}

/// One of `0..n`, uniformly: the random bot's draw.
fn draw(rng: &mut ChaCha8Rng, n: usize) -> usize {
    rng.random_range(0..n)
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    /// [`Game::pick_legal`]'s choice, with the bot's own tally.
    fn choose(&mut self, game: &Game) -> Action {
        game.tally_legal(&mut self.tally, &mut self.buffer);
        if self.tally.is_empty() {
            return Action::Pass;
        }
        let k = draw(&mut self.rng, self.tally.len());
        (game.nth_legal(&self.tally, &self.buffer, k)).unwrap_or(Action::Pass)
    }
}

/// The names that [`by_name`] knows, for help texts and messages (`mcts` also takes a budget:
/// [`mcts::MctsBot::from_spec`]).
pub const NAMES: [&str; 3] = ["random", "greedy", "mcts"];

/// The bot forms, for error messages.
pub const FORMS: &str = "random, greedy, mcts, mcts:ITERATIONS, mcts:MILLISECONDSms, \
                         mcts:ITERATIONS:random";

/// A bot by its command-line name (`random`, `greedy`, `mcts` with an optional budget such as
/// `mcts:1000` or `mcts:200ms`) with its own seed.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Bot>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "greedy" => Some(Box::new(GreedyBot::new(seed))),
        _ => mcts::MctsBot::from_spec(name, seed)
            .map(|b| Box::new(b) as Box<dyn Bot>)
            .ok(),
    }
}

/// Whether `name` is the name (or the spec) of a bot.
pub fn is_bot_name(name: &str) -> bool {
    matches!(name, "random" | "greedy") || mcts::MctsBot::from_spec(name, 0).is_ok()
}

/// Looks one turn ahead: tries every legal action on a copy of the game, follows the same
/// player's next decisions of the turn (such as deploying after placing), and keeps the action
/// whose outcome evaluates best ([`evaluate`]): the player's score plus a cheap estimate of what
/// its figures will still bring, minus the same for the best opponent.
///
/// The estimate counts, for each feature holding figures, what it pays its majority: a road its
/// tiles; a city its tiles and pennants, more the likelier it is to be completed (fewer open
/// edges, more tiles left); a cloister its neighbours and some of the missing ones; a farm 3 per
/// completed city it borders and a little per open one. Followers in supply are worth up to 2
/// points each while tiles remain, and a follower on the board gets that back in proportion to
/// its feature's chance of completion, so followers stuck in big open cities cost. The fairy
/// next to a follower adds a little. The greedy bot's estimate does not look for dead ends (open
/// positions no tile to come fits, [`Estimator::seeing_dead_ends`]): it stays the fast
/// one-turn baseline; the MCTS bot's estimate sees them.
///
/// Looking ahead, a deployment on the new tile is judged by adding the follower to the estimate
/// rather than by playing it out, and fairy moves and portal deployments are left out; the
/// deploy decision itself plays out every legal action. Ties are broken by the bot's own seeded
/// generator, so it is deterministic given its seed.
///
/// The bot keeps its working memory between decisions (copies of the game to try candidates
/// on, one per level of the look-ahead, the legal lists and the estimate's), so that once warm
/// a decision allocates next to nothing. The estimate also keeps, within a decision, what each
/// feature that the candidate's tiles leave alone is worth, and from one decision to the next,
/// the walks of the features that no tile laid since has joined.
#[derive(Clone, Debug)]
pub struct GreedyBot {
    rng: ChaCha8Rng,
    events: Vec<Event>,
    /// A scratch copy of the game for each level of the look-ahead (by `depth`), boxed so that
    /// taking it out and putting it back moves a pointer, not the whole game.
    copies: Vec<Option<Box<Game>>>,
    /// A legal list for each level of the look-ahead (by `depth`).
    lists: Vec<Vec<Action>>,
    ties: Vec<Action>,
    /// The value of each candidate of the decision being answered.
    values: Vec<f64>,
    estimator: Estimator,
}

impl GreedyBot {
    /// A greedy bot with its own seed (used only to break ties).
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            events: Vec::new(),
            copies: Vec::new(),
            lists: Vec::new(),
            ties: Vec::new(),
            values: Vec::new(),
            estimator: Estimator::default(),
        }
    }

    /// The same bot judging with `estimator` (for instance one that sees dead ends).
    pub fn with_estimator(self, estimator: Estimator) -> GreedyBot {
        GreedyBot { estimator, ..self }
    }

    /// The scratch copy for level `depth`, made equal to `game` (reusing its memory).
    fn copy_of(&mut self, depth: u32, game: &Game) -> Box<Game> {
        match self.copies.get_mut(depth as usize).and_then(Option::take) {
            Some(mut copy) => {
                (*copy).clone_from(game);
                copy
            }
            None => Box::new(game.clone()),
        }
    }

    /// Keeps `copy` as the scratch copy of level `depth`.
    fn keep_copy(&mut self, depth: u32, copy: Box<Game>) {
        let d = depth as usize;
        if self.copies.len() <= d {
            self.copies.resize_with(d + 1, || None);
        }
        self.copies[d] = Some(copy);
    }

    /// The legal answers in `game`, in the list of level `depth` (give it back with
    /// [`GreedyBot::keep_list`]).
    /// With `near`, only those that matter around the tile at that position
    /// ([`Game::legal_actions_near`]).
    fn legal_at(&mut self, depth: u32, game: &Game, near: Option<Pos>) -> Vec<Action> {
        let d = depth as usize;
        if self.lists.len() <= d {
            self.lists.resize_with(d + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[d]);
        list.clear();
        match near {
            Some(pos) => game.legal_actions_near(pos, &mut list),
            None => game.legal_actions(&mut list),
        }
        list
    }

    fn keep_list(&mut self, depth: u32, list: Vec<Action>) {
        self.lists[depth as usize] = list;
    }

    /// The value of `game` for `me` ([`evaluate`]).
    fn evaluate(&mut self, game: &Game, me: usize) -> f64 {
        self.estimator.prepare(game);
        self.estimator.evaluate(game, me, None)
    }

    /// Prepares the estimate for `game` unless `prepared` says it is.
    fn prepare_once(&mut self, game: &Game, prepared: &mut bool) {
        if !*prepared {
            self.estimator.prepare(game);
            *prepared = true;
        }
    }

    /// The best value `me` can reach from `game` by answering up to `depth` more of its own
    /// decisions; other players' decisions are not looked into.
    fn reach(&mut self, game: &Game, me: usize, depth: u32) -> f64 {
        let decision = game.decision();
        if depth == 0 || game.is_over() || decision.player != me {
            return self.evaluate(game, me);
        }
        // Looking ahead, fairy moves and deployments through a portal onto other tiles are left
        // out (there can be hundreds); the decision itself still weighs them all.
        let placed = game.history().iter().rev().find_map(|a| match a {
            Action::Place { pos, .. } => Some(*pos),
            _ => None,
        });
        // Deployments and passing are judged on this very state: its features are walked once
        // (again after looking deeper, which prepares other states).
        let mut prepared = false;
        let mut best = f64::NEG_INFINITY;
        let legal = self.legal_at(depth, game, placed);
        for action in &legal {
            match *action {
                Action::Deploy { pos, .. } if Some(pos) != placed => continue,
                a if matches!(PdAction::of(&a), Some(PdAction::Fairy { .. })) => continue,
                // A deployment on the new tile is judged without playing it out: the follower
                // is added to the estimate (completed features count at their completed value).
                Action::Deploy {
                    pos, spot, figure, ..
                } => {
                    if let Some(seg) = game.seg_at(pos, spot) {
                        self.prepare_once(game, &mut prepared);
                        let extra = Figure {
                            id: u32::MAX,
                            owner: me,
                            kind: figure,
                            seg,
                        };
                        best = best.max(self.estimator.evaluate(game, me, Some(extra)));
                    }
                    continue;
                }
                Action::Pass if decision.kind == DecisionKind::Deploy => {
                    self.prepare_once(game, &mut prepared);
                    best = best.max(self.estimator.evaluate(game, me, None));
                    continue;
                }
                _ => {}
            }
            let mut next = self.copy_of(depth, game);
            self.events.clear();
            if next.apply_legal(action, &mut self.events).is_ok() {
                best = best.max(self.reach(&next, me, depth - 1));
                prepared = false;
            }
            self.keep_copy(depth, next);
        }
        self.keep_list(depth, legal);
        if best == f64::NEG_INFINITY {
            self.evaluate(game, me)
        } else {
            best
        }
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, game: &Game) -> Action {
        let legal = self.legal_at(LOOKAHEAD + 1, game, None);
        let chosen = match legal.len() {
            0 => Action::Pass,
            1 => legal[0],
            _ => self.best_of(game, &legal),
        };
        self.keep_list(LOOKAHEAD + 1, legal);
        chosen
    }
}

impl GreedyBot {
    /// How each of `legal` (actions legal in `game`) turns out for the player who decides, as
    /// this bot judges its candidates ([`evaluate`] after the action, the same player's next
    /// decisions of the turn answered at their best), into `values` in the same order; an
    /// action the game refuses (only a failing script does) gets minus infinity.
    pub(crate) fn judge(&mut self, game: &Game, legal: &[Action], values: &mut Vec<f64>) {
        let me = game.decision().player;
        // Every state estimated below descends from this one: walks of its features are kept.
        self.estimator.remember(game);
        values.clear();
        for action in legal {
            let mut next = self.copy_of(LOOKAHEAD + 1, game);
            self.events.clear();
            values.push(match next.apply_legal(action, &mut self.events) {
                Ok(_) => self.reach(&next, me, LOOKAHEAD),
                Err(_) => f64::NEG_INFINITY,
            });
            self.keep_copy(LOOKAHEAD + 1, next);
        }
    }

    /// The legal action (of two or more) whose outcome evaluates best; ties broken at random.
    fn best_of(&mut self, game: &Game, legal: &[Action]) -> Action {
        let mut values = std::mem::take(&mut self.values);
        self.judge(game, legal, &mut values);
        let mut best = f64::NEG_INFINITY;
        self.ties.clear();
        for (action, value) in legal.iter().zip(&values) {
            if *value > best + EPSILON {
                best = *value;
                self.ties.clear();
                self.ties.push(*action);
            } else if *value > best - EPSILON {
                self.ties.push(*action);
            }
        }
        self.values = values;
        match self.ties.len() {
            0 => legal[0],
            n => self.ties[self.rng.random_range(0..n)],
        }
    }
}

/// How many more of its own decisions the greedy bot follows after the one it answers.
const LOOKAHEAD: u32 = 2;

/// Values closer than this are a tie.
const EPSILON: f64 = 1e-9;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::ruleset::Ruleset;
    use crate::engine::budget::allocations;
    use crate::engine::game::Setup;

    /// Issue 11, item 5: once warm, a greedy decision tries its candidates on kept copies and
    /// estimates without allocating: at most a few allocations per candidate are left, where
    /// every copy and estimate allocated before (the union-find, copied anew with each copy
    /// until it had its own `clone_from`, was most of what was left).
    #[test]
    fn a_warm_greedy_decision_allocates_little() {
        let rules = Ruleset::load("hig").expect("hig loads");
        let players = vec!["A".to_string(), "B".to_string()];
        let (mut game, _) = Game::new(rules, Setup::new(players, 3)).expect("the game starts");
        let mut bot = GreedyBot::new(3);
        let mut events = Vec::new();
        let (mut made, mut candidates) = (0, 0);
        while !game.is_over() && game.turn() < 40 {
            let legal = game.legal().len() as u64;
            let before = allocations();
            let action = bot.choose(&game);
            // From turn 10 the bot is warm (its copies and lists have grown).
            if game.turn() > 10 && legal > 1 {
                made += allocations() - before;
                candidates += legal;
            }
            events.clear();
            game.apply_legal(&action, &mut events)
                .expect("a legal action");
        }
        let per_candidate = made as f64 / candidates as f64;
        assert!(
            candidates > 300 && per_candidate <= 6.0,
            "{per_candidate} allocations per candidate"
        );
    }
}
