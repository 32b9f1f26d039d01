//! The greedy bot's estimate of a position: each seat's score plus what its figures on the
//! board and in supply are likely still to bring (see [`super::GreedyBot`] for the terms).
//!
//! An [`Estimator`] keeps its working memory between estimates, so that estimating allocates
//! nothing once it has grown, and it splits the work in two: [`Estimator::prepare`] walks the
//! features that hold figures (the costly part), [`Estimator::values`] pays them out, as if one
//! more figure stood on the board if asked. A bot that weighs every deployment on one tile
//! prepares once and pays out once per deployment.

use crate::engine::game::Game;
use crate::model::board::PlacedId;
use crate::model::feature::SegId;
use crate::model::figure::Figure;
use crate::model::geometry::{Edge, Pos, facing_half};
use crate::model::tile::{FeatureKind, NO_FEATURE};

/// How `me` stands in `game`: own value minus the best opponent's (see [`super::GreedyBot`]).
pub fn evaluate(game: &Game, me: usize) -> f64 {
    let mut estimator = Estimator::default();
    estimator.prepare(game);
    estimator.evaluate(game, me, None)
}

/// Each seat's score plus what its figures on the board and in supply are likely still to
/// bring (the estimate of [`super::GreedyBot`]); the plain scores once the game is over.
pub fn values(game: &Game) -> Vec<f64> {
    let mut estimator = Estimator::default();
    estimator.prepare(game);
    estimator.values(game, None).to_vec()
}

/// One feature that holds figures, as the estimate sees it.
#[derive(Clone, Debug, Default)]
struct Group {
    root: SegId,
    /// Strength by seat.
    strength: Vec<u32>,
    /// What the feature pays its majority.
    worth: f64,
    /// The chance that it is completed (its followers come back).
    chance: f64,
}

/// The estimate's working memory (see the module's text). Estimates made with it equal those
/// of [`evaluate`] and [`values`], to the last bit.
#[derive(Clone, Debug, Default)]
pub struct Estimator {
    /// The groups in use come first: `prepared` of the game's figures, then the extra one's.
    groups: Vec<Group>,
    /// Groups of the game's own figures.
    prepared: usize,
    /// Groups in use.
    used: usize,
    /// The parts of the feature being walked, and the tiles they lie on.
    parts: Vec<(PlacedId, u8)>,
    tiles: Vec<PlacedId>,
    /// City segments a field borders, and the closed and open cities among them.
    cities: Vec<SegId>,
    done: Vec<SegId>,
    open: Vec<SegId>,
    /// Segments visited, by the number of the walk that visited them last.
    seen: Vec<u32>,
    walks: u32,
    /// Each seat's value.
    value: Vec<f64>,
    /// Walks remembered from the state given to [`Estimator::remember`].
    memory: Memory,
}

/// Walks of a state's features, for the states that descend from it (see
/// [`Estimator::remember`]). A feature is the same in a later state as long as no segment laid
/// since has joined it, since features only grow by joining new segments.
#[derive(Clone, Debug, Default)]
struct Memory {
    /// Segments of the remembered state (`None`: nothing remembered).
    segments: Option<usize>,
    /// For each remembered feature (by root): the tiles it covers, and where its bordering
    /// cities start and end in `cities`.
    walks: Vec<(SegId, u32, usize, usize)>,
    cities: Vec<SegId>,
    /// The features that segments laid since have joined, in the state being prepared.
    touched: Vec<SegId>,
}

impl Memory {
    /// The remembered walk of the feature `root` in `game`, if it still holds there.
    fn recall(&self, game: &Game, root: SegId) -> Option<(u32, &[SegId])> {
        let segments = self.segments?;
        if game.features().len() < segments || self.touched.contains(&root) {
            return None;
        }
        let (_, tiles, from, to) = self.walks.iter().find(|w| w.0 == root)?;
        Some((*tiles, &self.cities[*from..*to]))
    }
}

impl Estimator {
    /// Remembers the walks of `game`'s features for the estimates that follow, as long as the
    /// states estimated descend from `game` (by actions applied to copies of it); forgets them
    /// for a game that is over. A bot calls this once per decision, before trying candidates.
    pub fn remember(&mut self, game: &Game) {
        self.memory.segments = None;
        self.memory.walks.clear();
        self.memory.cities.clear();
        if game.is_over() {
            return;
        }
        if self.seen.len() < game.features().len() {
            self.seen.resize(game.features().len(), 0);
        }
        let mut memory = std::mem::take(&mut self.memory);
        for f in game.figures() {
            let root = game.features().root(f.seg);
            let kind = game.features().segment(root).kind;
            if matches!(kind, FeatureKind::Cloister | FeatureKind::Garden)
                || memory.walks.iter().any(|w| w.0 == root)
            {
                continue;
            }
            let tiles = self.walk_tiles(game, root);
            let from = memory.cities.len();
            memory.cities.extend_from_slice(&self.cities);
            memory.walks.push((root, tiles, from, memory.cities.len()));
        }
        memory.segments = Some(game.features().len());
        self.memory = memory;
    }

    /// Walks the features holding `game`'s figures (for [`Estimator::values`] on this state).
    pub fn prepare(&mut self, game: &Game) {
        self.used = 0;
        self.prepared = 0;
        if game.is_over() {
            return;
        }
        let features = game.features();
        if self.seen.len() < features.len() {
            self.seen.resize(features.len(), 0);
        }
        self.memory.touched.clear();
        if let Some(old) = self.memory.segments {
            for s in old..features.len() {
                self.memory.touched.push(features.root(s as SegId));
            }
        }
        for f in game.figures() {
            let root = features.root(f.seg);
            let i = match self.group_of(root) {
                Some(i) => i,
                None => self.new_group(game, f.seg),
            };
            self.add_strength(game, i, f);
        }
        self.prepared = self.used;
    }

    /// Each seat's value in the prepared state, as if `extra` also stood on the board (taken
    /// from its owner's supply). `game` must be the state last prepared.
    pub fn values(&mut self, game: &Game, extra: Option<Figure>) -> &[f64] {
        self.value.clear();
        self.value
            .extend(game.scores().iter().map(|s| f64::from(*s)));
        if !game.is_over() {
            self.estimate(game, extra);
        }
        &self.value
    }

    /// Like [`evaluate`] in the prepared state, as if `extra` also stood on the board.
    pub fn evaluate(&mut self, game: &Game, me: usize, extra: Option<Figure>) -> f64 {
        let value = self.values(game, extra);
        let mine = value.get(me).copied().unwrap_or(0.0);
        let best_other = value
            .iter()
            .enumerate()
            .filter(|(p, _)| *p != me)
            .map(|(_, v)| *v)
            .fold(f64::NEG_INFINITY, f64::max);
        if best_other == f64::NEG_INFINITY {
            mine
        } else {
            mine - best_other
        }
    }

    /// The group in use whose feature is `root`.
    fn group_of(&self, root: SegId) -> Option<usize> {
        self.groups[..self.used].iter().position(|g| g.root == root)
    }

    /// Takes a new group for the feature of `seg`: walks it and works out its worth.
    fn new_group(&mut self, game: &Game, seg: SegId) -> usize {
        let i = self.used;
        if self.groups.len() == i {
            self.groups.push(Group::default());
        }
        self.used += 1;
        let players = game.scores().len();
        let g = &mut self.groups[i];
        g.root = game.features().root(seg);
        g.strength.clear();
        g.strength.resize(players, 0);
        self.worth(game, i, seg);
        i
    }

    /// Adds the strength of figure `f` to group `i`.
    fn add_strength(&mut self, game: &Game, i: usize, f: &Figure) {
        if let Some(s) = self.groups[i].strength.get_mut(f.owner) {
            *s += game.rules().figures.strength(f.kind);
        }
    }

    /// What the feature of `seg` (group `i`) pays its majority, and its chance of completion.
    fn worth(&mut self, game: &Game, i: usize, seg: SegId) {
        let features = game.features();
        let board = game.board();
        let s = features.segment(seg);
        let kind = s.kind;
        let time = time_left(game);
        let root = self.groups[i].root;
        self.cities.clear();
        let tiles = if matches!(kind, FeatureKind::Cloister | FeatureKind::Garden) {
            0.0
        } else if let Some((tiles, cities)) = self.memory.recall(game, root) {
            self.cities.extend_from_slice(cities);
            f64::from(tiles)
        } else {
            f64::from(self.walk_tiles(game, seg))
        };
        let g = &mut self.groups[i];
        let totals = features.totals(g.root);
        (g.worth, g.chance) = match kind {
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
                let around = board.neighbours(board.placed(s.placed).pos) as f64;
                let chance = if around >= 8.0 {
                    1.0
                } else {
                    time * (around / 8.0)
                };
                (1.0 + around + (8.0 - around) * 0.6 * time, chance)
            }
            FeatureKind::Field => {
                self.done.clear();
                self.open.clear();
                for c in &self.cities {
                    let root = features.root(*c);
                    let list = if features.closed(root) {
                        &mut self.done
                    } else {
                        &mut self.open
                    };
                    if !list.contains(&root) {
                        list.push(root);
                    }
                }
                (
                    3.0 * self.done.len() as f64 + 1.5 * time * self.open.len() as f64,
                    0.0,
                )
            }
        };
    }

    /// Adds to each seat's value what its figures on the board (and `extra`) are likely to
    /// bring, and what its followers in supply are worth.
    fn estimate(&mut self, game: &Game, extra: Option<Figure>) {
        let left = game.tiles_left() as f64;
        // A follower is worth more while there are tiles left to use it on.
        let follower = 2.0 * (left / 30.0).min(1.0);
        // Every kind of follower the players were given (a big follower, an abbot) counts.
        let kinds = game.rules().figures.rows().iter();
        let kinds = kinds.filter(|r| r.per_player > 0 && r.follower.is_some());
        for (p, v) in self.value.iter_mut().enumerate() {
            let supply: u32 = kinds
                .clone()
                .map(|r| u32::from(game.supply(p, r.kind)))
                .sum();
            *v += follower * f64::from(supply);
        }
        if let Some(f) = extra
            && let Some(v) = self.value.get_mut(f.owner)
        {
            *v -= follower;
        }
        let figures = game.figures();
        if figures.is_empty() && extra.is_none() {
            return;
        }
        // The extra figure joins its feature's group, or makes a new one after the others.
        self.used = self.prepared;
        let extra_group = extra.map(|f| {
            let i = match self.group_of(game.features().root(f.seg)) {
                Some(i) => i,
                None => self.new_group(game, f.seg),
            };
            (i, f)
        });
        for (i, g) in self.groups[..self.used].iter().enumerate() {
            let with_extra = extra_group.filter(|(e, _)| *e == i).map(|(_, f)| f);
            let bonus = |p: usize| {
                with_extra
                    .filter(|f| f.owner == p)
                    .map_or(0, |f| game.rules().figures.strength(f.kind))
            };
            let best = (0..g.strength.len())
                .map(|p| g.strength[p] + bonus(p))
                .max()
                .unwrap_or(0);
            if best > 0 {
                for p in 0..g.strength.len() {
                    if g.strength[p] + bonus(p) == best {
                        self.value[p] += g.worth;
                    }
                }
            }
        }
        // A follower comes back to supply when its feature is completed.
        for f in figures.iter().chain(extra.iter()) {
            let root = game.features().root(f.seg);
            if let Some(i) = self.group_of(root) {
                self.value[f.owner] += self.groups[i].chance * follower;
            }
        }
        // The fairy: a point per turn and a bonus when its follower's feature scores.
        if game.rules().mechanics.fairy
            && let Some(fairy) = game.fairy()
            && let Some(f) = fairy
                .follower
                .and_then(|id| figures.iter().find(|f| f.id == id))
        {
            self.value[f.owner] += 2.0 * time_left(game);
        }
    }

    /// Walks the feature of `seg`: returns how many tiles it covers and leaves in `cities` the
    /// city segments that its field parts border.
    fn walk_tiles(&mut self, game: &Game, seg: SegId) -> u32 {
        let board = game.board();
        let field = game.features().segment(seg).kind == FeatureKind::Field;
        self.walk(game, seg);
        self.cities.clear();
        self.tiles.clear();
        for (placed, feature) in &self.parts {
            self.tiles.push(*placed);
            if field {
                let base = board.placed(*placed).seg_base;
                let mut borders = board.oriented(&game.rules().tiles, *placed).features
                    [*feature as usize]
                    .borders;
                while borders != 0 {
                    self.cities.push(base + borders.trailing_zeros());
                    borders &= borders - 1;
                }
            }
        }
        self.tiles.sort_unstable();
        self.tiles.dedup();
        self.tiles.len() as u32
    }

    /// Finds the parts (tile, feature index) of the feature of `seg` by walking across tile
    /// borders: edges for roads and cities, half-edges for fields.
    fn walk(&mut self, game: &Game, seg: SegId) {
        let board = game.board();
        let rules = game.rules();
        self.walks = self.walks.wrapping_add(1);
        if self.walks == 0 {
            self.seen.iter_mut().for_each(|m| *m = 0);
            self.walks = 1;
        }
        let (mark, seen, parts) = (self.walks, &mut self.seen, &mut self.parts);
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
            let pos: Pos = board.placed(placed).pos;
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
}

/// How much of the game is left, as a weight: chances shrink as the bag empties.
fn time_left(game: &Game) -> f64 {
    let left = game.tiles_left() as f64;
    left / (left + 6.0)
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
