//! Players that choose actions: every bot sees only the decision API.

pub mod mcts;
pub mod simulate;

use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::mechanic::pd::vocabulary::PdAction;
use crate::model::board::PlacedId;
use crate::model::feature::SegId;
use crate::model::figure::{Figure, FigureKind};
use crate::model::geometry::{Edge, Pos, facing_half};
use crate::model::tile::{FeatureKind, NO_FEATURE};
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
/// next to a follower adds a little.
///
/// Looking ahead, a deployment on the new tile is judged by adding the follower to the estimate
/// rather than by playing it out, and fairy moves and portal deployments are left out; the
/// deploy decision itself plays out every legal action. Ties are broken by the bot's own seeded
/// generator, so it is deterministic given its seed.
#[derive(Clone, Debug)]
pub struct GreedyBot {
    rng: ChaCha8Rng,
    events: Vec<Event>,
}

impl GreedyBot {
    /// A greedy bot with its own seed (used only to break ties).
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            events: Vec::new(),
        }
    }

    /// The best value `me` can reach from `game` by answering up to `depth` more of its own
    /// decisions; other players' decisions are not looked into.
    fn reach(&mut self, game: &Game, me: usize, depth: u32) -> f64 {
        let decision = game.decision();
        if depth == 0 || game.is_over() || decision.player != me {
            return evaluate(game, me);
        }
        // Looking ahead, fairy moves and deployments through a portal onto other tiles are left
        // out (there can be hundreds); the decision itself still weighs them all.
        let placed = game.history().iter().rev().find_map(|a| match a {
            Action::Place { pos, .. } => Some(*pos),
            _ => None,
        });
        let mut best = f64::NEG_INFINITY;
        for action in game.legal() {
            match action {
                Action::Deploy { pos, .. } if Some(pos) != placed => continue,
                a if matches!(PdAction::of(&a), Some(PdAction::Fairy { .. })) => continue,
                // A deployment on the new tile is judged without playing it out: the follower
                // is added to the estimate (completed features count at their completed value).
                Action::Deploy {
                    pos, spot, figure, ..
                } => {
                    if let Some(seg) = game.seg_at(pos, spot) {
                        let extra = Figure {
                            id: u32::MAX,
                            owner: me,
                            kind: figure,
                            seg,
                        };
                        best = best.max(evaluate_with(game, me, Some(extra)));
                    }
                    continue;
                }
                Action::Pass if decision.kind == DecisionKind::Deploy => {
                    best = best.max(evaluate(game, me));
                    continue;
                }
                _ => {}
            }
            let mut next = game.clone();
            self.events.clear();
            if next.apply_into(&action, &mut self.events).is_ok() {
                best = best.max(self.reach(&next, me, depth - 1));
            }
        }
        if best == f64::NEG_INFINITY {
            evaluate(game, me)
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
        let legal = game.legal();
        match legal.len() {
            0 => return Action::Pass,
            1 => return legal[0],
            _ => {}
        }
        let me = game.decision().player;
        let mut best = f64::NEG_INFINITY;
        let mut ties: Vec<Action> = Vec::new();
        for action in &legal {
            let mut next = game.clone();
            self.events.clear();
            if next.apply_into(action, &mut self.events).is_err() {
                continue;
            }
            let value = self.reach(&next, me, LOOKAHEAD);
            if value > best + EPSILON {
                best = value;
                ties.clear();
                ties.push(*action);
            } else if value > best - EPSILON {
                ties.push(*action);
            }
        }
        match ties.len() {
            0 => legal[0],
            n => ties[self.rng.random_range(0..n)],
        }
    }
}

/// How many more of its own decisions the greedy bot follows after the one it answers.
const LOOKAHEAD: u32 = 2;

/// Values closer than this are a tie.
const EPSILON: f64 = 1e-9;

/// How `me` stands in `game`: own value minus the best opponent's (see [`GreedyBot`]).
pub fn evaluate(game: &Game, me: usize) -> f64 {
    evaluate_with(game, me, None)
}

/// Each seat's score plus what its figures on the board and in supply are likely still to
/// bring (the estimate of [`GreedyBot`]); the plain scores once the game is over.
pub fn values(game: &Game) -> Vec<f64> {
    values_with(game, None)
}

/// Like [`values`], as if `extra` also stood on the board (taken from its owner's supply).
fn values_with(game: &Game, extra: Option<Figure>) -> Vec<f64> {
    let mut value: Vec<f64> = game.scores().iter().map(|s| *s as f64).collect();
    if !game.is_over() {
        estimate(game, extra, &mut value);
    }
    value
}

/// Like [`evaluate`], as if `extra` also stood on the board (taken from its owner's supply).
fn evaluate_with(game: &Game, me: usize, extra: Option<Figure>) -> f64 {
    let players = game.scores().len();
    let value = values_with(game, extra);
    let mine = value.get(me).copied().unwrap_or(0.0);
    let best_other = (0..players)
        .filter(|p| *p != me)
        .map(|p| value[p])
        .fold(f64::NEG_INFINITY, f64::max);
    if best_other == f64::NEG_INFINITY {
        mine
    } else {
        mine - best_other
    }
}

/// One feature that holds figures, as the estimate sees it.
struct Group {
    root: SegId,
    /// A segment of it to walk from.
    seed: SegId,
    kind: FeatureKind,
    /// Strength by seat.
    strength: Vec<u32>,
    /// Tiles the feature covers (may repeat until sorted).
    tiles: Vec<PlacedId>,
    /// City segments a field borders.
    cities: Vec<SegId>,
    /// Where a cloister is.
    at: Pos,
}

/// Adds to each seat's value what its figures on the board are likely to bring, and what its
/// followers in supply are worth.
fn estimate(game: &Game, extra: Option<Figure>, value: &mut [f64]) {
    let rules = game.rules();
    let features = game.features();
    let board = game.board();
    let left = game.tiles_left() as f64;
    // A follower is worth more while there are tiles left to use it on.
    let follower = 2.0 * (left / 30.0).min(1.0);
    // Chances shrink as the bag empties.
    let time = left / (left + 6.0);
    for (p, v) in value.iter_mut().enumerate() {
        *v += follower * game.supply(p, FigureKind::Follower) as f64;
    }
    if let Some(f) = extra
        && let Some(v) = value.get_mut(f.owner)
    {
        *v -= follower;
    }
    let figures = game.figures();
    if figures.is_empty() && extra.is_none() {
        return;
    }
    let mut groups: Vec<Group> = Vec::new();
    for f in figures.iter().chain(extra.iter()) {
        let root = features.root(f.seg);
        let i = match groups.iter().position(|g| g.root == root) {
            Some(i) => i,
            None => {
                let s = features.segment(f.seg);
                groups.push(Group {
                    root,
                    seed: f.seg,
                    kind: s.kind,
                    strength: vec![0; value.len()],
                    tiles: Vec::new(),
                    cities: Vec::new(),
                    at: board.placed(s.placed).pos,
                });
                groups.len() - 1
            }
        };
        if let Some(s) = groups[i].strength.get_mut(f.owner) {
            *s += game.rules().figures.strength(f.kind);
        }
    }
    let mut parts: Vec<(PlacedId, u8)> = Vec::new();
    let mut seen: Vec<u16> = vec![0; features.len()];
    for (i, g) in groups.iter_mut().enumerate() {
        if matches!(g.kind, FeatureKind::Cloister | FeatureKind::Garden) {
            continue;
        }
        walk(game, g.seed, i as u16 + 1, &mut seen, &mut parts);
        for (placed, feature) in &parts {
            g.tiles.push(*placed);
            if g.kind == FeatureKind::Field {
                let base = board.placed(*placed).seg_base;
                let mut borders =
                    board.oriented(&rules.tiles, *placed).features[*feature as usize].borders;
                while borders != 0 {
                    g.cities.push(base + borders.trailing_zeros());
                    borders &= borders - 1;
                }
            }
        }
    }
    let mut completes = vec![0.0; groups.len()];
    for (i, g) in groups.iter_mut().enumerate() {
        g.tiles.sort_unstable();
        g.tiles.dedup();
        let tiles = g.tiles.len() as f64;
        let totals = features.totals(g.root);
        let (worth, chance) = match g.kind {
            FeatureKind::Road => {
                let chance = completion(totals.open, time);
                (tiles + chance, chance)
            }
            FeatureKind::City => {
                let now = tiles + totals.pennants as f64;
                let chance = completion(totals.open, time);
                (now * (1.0 + chance), chance)
            }
            FeatureKind::Cloister | FeatureKind::Garden => {
                let around = board.neighbours(g.at) as f64;
                let chance = if around >= 8.0 {
                    1.0
                } else {
                    time * (around / 8.0)
                };
                (1.0 + around + (8.0 - around) * 0.6 * time, chance)
            }
            FeatureKind::Field => {
                let mut done: Vec<SegId> = Vec::new();
                let mut open: Vec<SegId> = Vec::new();
                for c in &g.cities {
                    let root = features.root(*c);
                    let list = if features.closed(root) {
                        &mut done
                    } else {
                        &mut open
                    };
                    if !list.contains(&root) {
                        list.push(root);
                    }
                }
                (
                    3.0 * done.len() as f64 + 1.5 * time * open.len() as f64,
                    0.0,
                )
            }
        };
        completes[i] = chance;
        let best = g.strength.iter().copied().max().unwrap_or(0);
        if best > 0 {
            for (p, s) in g.strength.iter().enumerate() {
                if *s == best {
                    value[p] += worth;
                }
            }
        }
    }
    // A follower comes back to supply when its feature is completed.
    for f in figures.iter().chain(extra.iter()) {
        let root = features.root(f.seg);
        if let Some(i) = groups.iter().position(|g| g.root == root) {
            value[f.owner] += completes[i] * follower;
        }
    }
    // The fairy: a point per turn and a bonus when its follower's feature scores.
    if rules.mechanics.fairy
        && let Some(fairy) = game.fairy()
        && let Some(f) = fairy
            .follower
            .and_then(|id| figures.iter().find(|f| f.id == id))
    {
        value[f.owner] += 2.0 * time;
    }
}

/// The parts (tile, feature index) of the feature of `seg`, found by walking across tile
/// borders: edges for roads and cities, half-edges for fields. `seen` marks the segments
/// visited with `mark` (a new mark for every walk).
fn walk(game: &Game, seg: SegId, mark: u16, seen: &mut [u16], parts: &mut Vec<(PlacedId, u8)>) {
    let board = game.board();
    let rules = game.rules();
    let s = game.features().segment(seg);
    parts.clear();
    parts.push((s.placed, s.feature));
    if let Some(m) = seen.get_mut(seg as usize) {
        *m = mark;
    }
    let mut i = 0;
    while i < parts.len() {
        let (placed, feature) = parts[i];
        i += 1;
        let pos = board.placed(placed).pos;
        let def = &board.oriented(&rules.tiles, placed).features[feature as usize];
        for e in Edge::ALL {
            let edge = def.edges & (1 << e as u8) != 0;
            let halves = (def.halves >> (2 * e as u8)) & 3;
            if !edge && halves == 0 {
                continue;
            }
            let Some(other) = board.at(pos.step(e)) else {
                continue;
            };
            let theirs = board.oriented(&rules.tiles, other);
            let base = board.placed(other).seg_base;
            let mut next = |f: u8| {
                if f == NO_FEATURE {
                    return;
                }
                if let Some(m) = seen.get_mut((base + f as u32) as usize)
                    && *m != mark
                {
                    *m = mark;
                    parts.push((other, f));
                }
            };
            if edge {
                next(theirs.edge_feature[e.opposite() as usize]);
            }
            for side in 0..2 {
                if halves & (1 << side) != 0 {
                    next(theirs.half_feature[facing_half(2 * e as usize + side)]);
                }
            }
        }
    }
}

/// The chance that a road or city with `open` open edges is completed before the end.
fn completion(open: u32, time: f64) -> f64 {
    let base = match open {
        0 => return 1.0,
        1 => 0.75,
        2 => 0.5,
        3 => 0.3,
        4 => 0.2,
        _ => 0.1,
    };
    base * time
}
