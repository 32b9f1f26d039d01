//! The greedy bot's estimate of a position: each seat's score plus what its figures on the
//! board and in supply are likely still to bring (see [`super::GreedyBot`] for the terms).
//!
//! An [`Estimator`] keeps its working memory between estimates, so that estimating allocates
//! nothing once it has grown, and it splits the work in two: [`Estimator::prepare`] walks the
//! features that hold figures (the costly part), [`Estimator::values`] pays them out, as if one
//! more figure stood on the board if asked. A bot that weighs every deployment on one tile
//! prepares once and pays out once per deployment.

use crate::data::ruleset::Ruleset;
use crate::engine::game::Game;
use crate::model::board::{Placed, PlacedId};
use crate::model::feature::SegId;
use crate::model::figure::Figure;
use crate::model::geometry::{Edge, Pos, facing_half};
use crate::model::tile::{FeatureKind, NO_FEATURE, Needs};
use std::sync::Arc;

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
    /// Strength by seat (of the first `players` of the estimator).
    strength: [u32; MAX_SEATS],
    /// What the feature pays its majority.
    worth: f64,
    /// The chance that it is completed (its followers come back).
    chance: f64,
    /// Where its payouts to the seats holding its majority (without an extra figure) lie in
    /// the estimator's `payouts`.
    payouts: (usize, usize),
}

/// The estimate's working memory (see the module's text). Estimates made with it equal those
/// of [`evaluate`] and [`values`], to the last bit.
#[derive(Clone, Debug, Default)]
pub struct Estimator {
    /// The groups in use come first: `prepared` of the game's figures, then those of the extra
    /// figures asked about on features without figures.
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
    /// Each seat's followers in supply, in the prepared state.
    supply: Vec<u32>,
    /// The seats in the prepared state (up to [`MAX_SEATS`]).
    players: usize,
    /// Whether the prepared state's ruleset plays the fairy (asked once per preparation, not
    /// by name at every evaluation).
    fairy: bool,
    /// What each prepared group pays each seat holding its majority (seat, worth), group
    /// after group.
    payouts: Vec<(usize, f64)>,
    /// For each of the prepared state's figures, in the order of its figure list: its owner
    /// and the chance that its feature is completed.
    returns: Vec<(usize, f64)>,
    /// For each segment that is a group's root: the number of the preparation that took the
    /// group, and the group (see [`Estimator::group_of`]).
    group_at: Vec<(u32, u32)>,
    /// The number of the current preparation.
    preparations: u32,
    /// Walks of the features of the state given to [`Estimator::remember`].
    memory: Memory,
    /// Working memory for putting a feature together from remembered walks.
    compose: Compose,
    /// Whether the estimate sees dead ends (see [`Estimator::seeing_dead_ends`]).
    dead_ends: bool,
    /// How many of each tile type are still to come, in the state prepared.
    to_come: Vec<u16>,
    /// The counts of tiles to come that `fillable` was worked out for.
    fillable_for: Vec<u16>,
    /// For each [`Needs`] (by [`Needs::index`]): unknown yet, or whether a tile to come
    /// meets them.
    fillable: Vec<Option<bool>>,
    /// Open positions that no tile still to come fits, in the state prepared.
    dead: Vec<Pos>,
    /// Roots of the roads and cities with an edge on a dead position, in the state prepared.
    doomed: Vec<SegId>,
}

/// Walks of a remembered state's features, made when first needed, for the states that
/// descend from it (see [`Estimator::remember`]). Features only grow, by joining segments laid
/// later, so a feature of a later state is some segments laid since plus whole features of the
/// remembered state: its walk is put together from theirs ([`Estimator::composed`]).
#[derive(Clone, Debug, Default)]
struct Memory {
    /// Segments and tiles of the remembered state (`None`: nothing remembered).
    base: Option<(usize, usize)>,
    /// For each segment of the remembered state: the index of its feature's walk in `walks`,
    /// or [`UNWALKED`].
    walk_of: Vec<u32>,
    /// For each segment of the remembered state: its feature's root there.
    roots: Vec<SegId>,
    /// The remembered state's tiles and ruleset (to tell whether a later state descends from
    /// it).
    placed: Vec<Placed>,
    rules: Option<Arc<Ruleset>>,
    /// Each walk: where its distinct tiles lie in `tiles`, and its bordering cities in `cities`
    /// (one segment per city of the remembered state).
    walks: Vec<Walk>,
    tiles: Vec<PlacedId>,
    cities: Vec<SegId>,
    /// For each segment of the remembered state that is a feature's root there: what that
    /// feature was found to be worth in a later state that left it untouched (see
    /// [`Estimator::kept_group`]).
    worths: Vec<Worth>,
}

/// A feature's worth and chance of completion, found with `left` tiles left to draw.
#[derive(Clone, Copy, Debug)]
struct Worth {
    left: usize,
    worth: f64,
    chance: f64,
}

impl Worth {
    /// Not found yet.
    const NONE: Worth = Worth {
        left: usize::MAX,
        worth: 0.0,
        chance: 0.0,
    };
}

/// A remembered walk, as ranges of [`Memory`]'s lists.
#[derive(Clone, Copy, Debug)]
struct Walk {
    tiles: (usize, usize),
    cities: (usize, usize),
}

/// The most seats a game has (a ruleset allows at most 8 players).
const MAX_SEATS: usize = 8;

/// How likely a missing neighbour of a cloister is to come, with the whole game still to play
/// (scaled by the time left).
const NEIGHBOUR_CHANCE: f64 = 0.6;

/// A segment of the remembered state whose feature has not been walked yet.
const UNWALKED: u32 = u32::MAX;

/// The working memory of [`Estimator::composed`].
#[derive(Clone, Debug, Default)]
struct Compose {
    /// Each segment laid since the remembered state, with a neighbouring segment across a
    /// border (both directions between two new segments).
    links: Vec<(SegId, SegId)>,
    /// Which segments laid since belong to the feature (by segment minus the first new one).
    new_in: Vec<bool>,
    /// The remembered walks that belong to the feature.
    walks_in: Vec<u32>,
    /// The features of the remembered state (by their root there) that segments laid since
    /// join, in the state last prepared.
    touched: Vec<SegId>,
    /// For each segment of the remembered state: the number of the linking (by
    /// [`Estimator::link_new`]) that found its feature among `touched`, so that whether a
    /// feature is touched is read at once.
    touched_at: Vec<u32>,
    linkings: u32,
    /// Tiles counted, by the number of the count that counted them last.
    counted: Vec<u32>,
    counts: u32,
}

impl Estimator {
    /// An estimator that also sees dead ends: an open position that no tile still to come fits
    /// (counted from the tiles every player has seen, not from the order of the draw) never
    /// gets a tile, so a road or city with an edge there is never completed, and a cloister
    /// beside it never gets that neighbour.
    pub fn seeing_dead_ends() -> Estimator {
        Estimator {
            dead_ends: true,
            ..Estimator::default()
        }
    }

    /// Remembers `game` so that the estimates that follow walk each of its features at most
    /// once, as long as the states estimated descend from `game` (by actions applied to copies
    /// of it); forgets it for a game that is over. A bot calls this once per decision, before
    /// trying candidates.
    ///
    /// When `game` descends from the state remembered before (a bot's next decision in the same
    /// game), the walks of that state's features that no segment laid since has joined are
    /// kept: they are the same in `game`.
    pub fn remember(&mut self, game: &Game) {
        match self.descendant(game).filter(|_| !game.is_over()) {
            Some(segments) => self.forget_joined(game, segments),
            None => {
                let memory = &mut self.memory;
                memory.walks.clear();
                memory.tiles.clear();
                memory.cities.clear();
                memory.walk_of.clear();
            }
        }
        let memory = &mut self.memory;
        memory.base = None;
        if game.is_over() {
            return;
        }
        let segments = game.features().len();
        memory.walk_of.resize(segments, UNWALKED);
        memory.placed.clear();
        memory.placed.extend_from_slice(game.board().tiles());
        if !memory
            .rules
            .as_ref()
            .is_some_and(|r| Arc::ptr_eq(r, game.rules()))
        {
            memory.rules = Some(Arc::clone(game.rules()));
        }
        memory.roots.clear();
        memory
            .roots
            .extend((0..segments as SegId).map(|s| game.features().root(s)));
        memory.worths.clear();
        memory.worths.resize(segments, Worth::NONE);
        memory.base = Some((segments, game.board().tiles().len()));
    }

    /// The remembered state's segment count, if `game` (of the same ruleset) has the same
    /// tiles first, so that it descends from it.
    fn descendant(&self, game: &Game) -> Option<usize> {
        let (segments, tiles) = self.memory.base?;
        let placed = game.board().tiles();
        let same = self
            .memory
            .rules
            .as_ref()
            .is_some_and(|r| Arc::ptr_eq(r, game.rules()))
            && game.features().len() >= segments
            && placed.len() >= tiles
            && placed[..tiles] == self.memory.placed[..];
        same.then_some(segments)
    }

    /// Forgets the walks of the remembered state's features (its first `segments`) that the
    /// segments laid since in `game` join.
    fn forget_joined(&mut self, game: &Game, segments: usize) {
        let memory = &mut self.memory;
        let features = game.features();
        let joined = &mut self.compose.touched;
        joined.clear();
        for s in segments..features.len() {
            let part = features.segment(s as SegId);
            across(game, part.placed, part.feature, usize::MAX, |other, f| {
                let b = game.board().placed(other).seg_base + f as u32;
                if let Some(root) = memory
                    .roots
                    .get(b as usize)
                    .filter(|_| (b as usize) < segments)
                {
                    joined.push(*root);
                }
            });
        }
        for (w, root) in memory.walk_of.iter_mut().zip(&memory.roots) {
            if *w != UNWALKED && joined.contains(root) {
                *w = UNWALKED;
            }
        }
    }

    /// Walks the features holding `game`'s figures (for [`Estimator::values`] on this state).
    pub fn prepare(&mut self, game: &Game) {
        self.used = 0;
        self.prepared = 0;
        self.returns.clear();
        self.link_new(game);
        self.fairy = game.rules().switched_on("fairy");
        if game.is_over() {
            return;
        }
        let features = game.features();
        if self.seen.len() < features.len() {
            self.seen.resize(features.len(), 0);
        }
        self.next_preparation(features.len());
        self.players = game.scores().len().min(MAX_SEATS);
        self.count_supply(game);
        self.find_dead_ends(game);
        let base = self.descends(game).map(|(segments, _)| segments);
        for f in game.figures() {
            let untouched = base.and_then(|segments| self.untouched_root(segments, f.seg));
            let root = untouched.unwrap_or_else(|| features.root(f.seg));
            let i = match self.group_of(root) {
                Some(i) => i,
                None if untouched.is_some() => self.kept_group(game, f.seg, root),
                None => self.new_group(game, f.seg),
            };
            self.add_strength(game, i, f);
            self.returns.push((f.owner, self.groups[i].chance));
        }
        self.payouts.clear();
        for g in &mut self.groups[..self.used] {
            let strength = &g.strength[..self.players];
            let best = strength.iter().copied().max().unwrap_or(0);
            let from = self.payouts.len();
            if best > 0 {
                let seats = strength.iter().enumerate().filter(|(_, s)| **s == best);
                self.payouts.extend(seats.map(|(p, _)| (p, g.worth)));
            }
            g.payouts = (from, self.payouts.len());
        }
        self.prepared = self.used;
    }

    /// Starts a new preparation: groups taken before are no longer found by
    /// [`Estimator::group_of`]; room for `segments` segments.
    fn next_preparation(&mut self, segments: usize) {
        self.preparations = self.preparations.wrapping_add(1);
        if self.preparations == 0 {
            self.group_at.iter_mut().for_each(|g| g.0 = 0);
            self.preparations = 1;
        }
        if self.group_at.len() < segments {
            self.group_at.resize(segments, (0, 0));
        }
    }

    /// Counts each seat's followers in supply: every kind of follower the players were given
    /// (a big follower, an abbot) counts.
    fn count_supply(&mut self, game: &Game) {
        // The supply is kept in the figure table's order: each row's count read by its index.
        let rows = game.rules().figures.rows();
        let kinds = (rows.iter().enumerate())
            .filter(|(_, r)| r.per_player > 0 && r.follower.is_some())
            .map(|(i, _)| i);
        self.supply.clear();
        self.supply.extend(game.supply.iter().map(|held| {
            (kinds.clone())
                .filter_map(|i| held.get(i))
                .map(|n| u32::from(*n))
                .sum::<u32>()
        }));
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
        self.group_at
            .get(root as usize)
            .filter(|(preparation, _)| *preparation == self.preparations)
            .map(|(_, i)| *i as usize)
    }

    /// Takes a new group for the feature of `seg`: walks it and works out its worth.
    fn new_group(&mut self, game: &Game, seg: SegId) -> usize {
        let i = self.walked_group(game, seg);
        self.face_dead_ends(game, i, seg);
        i
    }

    /// Takes a new group for the feature of `seg` and works out its worth as if there were no
    /// dead ends.
    fn walked_group(&mut self, game: &Game, seg: SegId) -> usize {
        let i = self.take_group(game.features().root(seg));
        self.worth(game, i, seg);
        i
    }

    /// Lists the open positions that no tile still to come fits, and the roads and cities
    /// with an edge on one (when the estimate sees dead ends).
    fn find_dead_ends(&mut self, game: &Game) {
        self.dead.clear();
        self.doomed.clear();
        if !self.dead_ends {
            return;
        }
        game.count_to_come(&mut self.to_come);
        if self.to_come != self.fillable_for {
            self.fillable_for.clone_from(&self.to_come);
            self.fillable.clear();
            self.fillable.resize(Needs::COUNT, None);
        }
        let tiles = &game.rules().tiles;
        let board = game.board();
        for (pos, needs) in board.frontier_needs() {
            let known = &mut self.fillable[needs.index()];
            let fillable = *known.get_or_insert_with(|| {
                self.to_come
                    .iter()
                    .zip(tiles)
                    .any(|(n, t)| *n > 0 && t.fits.rotations(needs) != 0)
            });
            if fillable {
                continue;
            }
            self.dead.push(pos);
            for edge in Edge::ALL {
                let Some(id) = board.at(pos.step(edge)) else {
                    continue;
                };
                let feature = board.oriented(tiles, id).edge_feature[edge.opposite() as usize];
                if feature != NO_FEATURE {
                    let seg = board.placed(id).seg_base + u32::from(feature);
                    self.doomed.push(game.features().root(seg));
                }
            }
        }
    }

    /// Takes dead ends into group `i`'s worth (the feature of `seg`): a doomed road or city
    /// is never completed; a cloister never gets the neighbours that lie on dead ends.
    fn face_dead_ends(&mut self, game: &Game, i: usize, seg: SegId) {
        if self.dead.is_empty() {
            return;
        }
        let g = &mut self.groups[i];
        match game.features().segment(seg).kind {
            FeatureKind::Road if self.doomed.contains(&g.root) => {
                g.worth -= g.chance;
                g.chance = 0.0;
            }
            FeatureKind::City if self.doomed.contains(&g.root) => {
                g.worth /= 1.0 + g.chance;
                g.chance = 0.0;
            }
            FeatureKind::Cloister | FeatureKind::Garden => {
                let board = game.board();
                let pos = board.placed(game.features().segment(seg).placed).pos;
                let dead = pos.ring().iter().filter(|p| self.dead.contains(p)).count();
                if dead > 0 {
                    g.worth -= dead as f64 * NEIGHBOUR_CHANCE * time_left(game);
                    g.chance = 0.0;
                }
            }
            _ => {}
        }
    }

    /// Takes a new group for the feature whose root is `root`, without strength (its worth is
    /// left to be set).
    fn take_group(&mut self, root: SegId) -> usize {
        let i = self.used;
        if self.groups.len() == i {
            self.groups.push(Group::default());
        }
        self.used += 1;
        self.groups[i].root = root;
        if let Some(at) = self.group_at.get_mut(root as usize) {
            *at = (self.preparations, i as u32);
        }
        self.groups[i].strength = [0; MAX_SEATS];
        i
    }

    /// The root of the feature of `seg` if it is a feature of the remembered state (of
    /// `segments` segments, from which the state prepared descends) that no segment laid since
    /// has joined (its root then is the same in the state prepared), else `None`.
    fn untouched_root(&self, segments: usize, seg: SegId) -> Option<SegId> {
        let root = *self.memory.roots.get(seg as usize)?;
        ((seg as usize) < segments && !self.is_touched(root)).then_some(root)
    }

    /// [`Estimator::new_group`] for a feature of the remembered state that no segment laid
    /// since has joined (`root` is its root): a road, city or field is worth what it was in
    /// the last state that left it (and, for a field, the cities it borders) untouched with as
    /// many tiles left, so that worth is kept for the next state.
    fn kept_group(&mut self, game: &Game, seg: SegId, root: SegId) -> usize {
        let kind = game.features().segment(seg).kind;
        // A cloister's worth depends on its neighbours, which need not join it.
        if matches!(kind, FeatureKind::Cloister | FeatureKind::Garden) {
            return self.new_group(game, seg);
        }
        let left = game.tiles_left();
        let kept = self.memory.worths[root as usize];
        if kept.left == left && self.borders_untouched(seg, kind) {
            let i = self.take_group(root);
            (self.groups[i].worth, self.groups[i].chance) = (kept.worth, kept.chance);
            self.face_dead_ends(game, i, seg);
            return i;
        }
        let i = self.walked_group(game, seg);
        if self.borders_untouched(seg, kind) {
            let g = &self.groups[i];
            self.memory.worths[root as usize] = Worth {
                left,
                worth: g.worth,
                chance: g.chance,
            };
        }
        self.face_dead_ends(game, i, seg);
        i
    }

    /// Whether none of the cities that the feature of `seg` borders, if it is a field, have
    /// been joined by segments laid since the remembered state (whose walk of the feature
    /// lists them).
    fn borders_untouched(&self, seg: SegId, kind: FeatureKind) -> bool {
        if kind != FeatureKind::Field {
            return true;
        }
        let memory = &self.memory;
        let Some(walk) = memory
            .walk_of
            .get(seg as usize)
            .and_then(|w| memory.walks.get(*w as usize))
        else {
            return false;
        };
        memory.cities[walk.cities.0..walk.cities.1]
            .iter()
            .all(|c| !self.is_touched(memory.roots[*c as usize]))
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
        self.cities.clear();
        let tiles = if matches!(kind, FeatureKind::Cloister | FeatureKind::Garden) {
            0.0
        } else {
            f64::from(self.tiles_of(game, seg))
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
                (
                    1.0 + around + (8.0 - around) * NEIGHBOUR_CHANCE * time,
                    chance,
                )
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
        for (v, supply) in self.value.iter_mut().zip(&self.supply) {
            *v += follower * f64::from(*supply);
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
        // The extra figure joins its feature's group, or one of its own after the others (kept
        // for the next extra figure on the same feature).
        let extra_group = extra.map(|f| {
            let i = match self.group_of(game.features().root(f.seg)) {
                Some(i) => i,
                None => self.new_group(game, f.seg),
            };
            (i, f)
        });
        // The groups pay in order, the extra figure's where it stands (its own group last),
        // the others as worked out when prepared.
        let all = self.payouts.len();
        let (before, after) = match extra_group {
            Some((e, _)) if e < self.prepared => self.groups[e].payouts,
            _ => (all, all),
        };
        for (p, worth) in &self.payouts[..before] {
            self.value[*p] += *worth;
        }
        if let Some((e, f)) = extra_group.filter(|(e, _)| *e < self.prepared) {
            self.pay_with(game, e, f);
        }
        for (p, worth) in &self.payouts[after..] {
            self.value[*p] += *worth;
        }
        if let Some((e, f)) = extra_group.filter(|(e, _)| *e >= self.prepared) {
            self.pay_with(game, e, f);
        }
        // A follower comes back to supply when its feature is completed.
        for (owner, chance) in &self.returns {
            self.value[*owner] += chance * follower;
        }
        if let Some((i, f)) = extra_group {
            self.value[f.owner] += self.groups[i].chance * follower;
        }
        // The fairy: a point per turn and a bonus when its follower's feature scores.
        if self.fairy
            && let Some(fairy) = game.fairy()
            && let Some(f) = fairy
                .follower
                .and_then(|id| figures.iter().find(|f| f.id == id))
        {
            self.value[f.owner] += 2.0 * time_left(game);
        }
    }

    /// Pays group `i`'s worth to the seats holding its majority once `extra` joins it.
    fn pay_with(&mut self, game: &Game, i: usize, extra: Figure) {
        let added = game.rules().figures.strength(extra.kind);
        let strength = &self.groups[i].strength[..self.players];
        let with = |p: usize| strength[p] + if extra.owner == p { added } else { 0 };
        let best = (0..strength.len()).map(with).max().unwrap_or(0);
        if best > 0 {
            let worth = self.groups[i].worth;
            for p in 0..strength.len() {
                if with(p) == best {
                    self.value[p] += worth;
                }
            }
        }
    }

    /// How many tiles the feature of `seg` covers; leaves in `cities` the city segments that
    /// its field parts border (at least one segment of each city they border). Put together from remembered walks when `game` descends from
    /// the remembered state, else walked.
    fn tiles_of(&mut self, game: &Game, seg: SegId) -> u32 {
        match self.descends(game) {
            Some(base) => self.composed(game, seg, base),
            None => self.walk_tiles(game, seg, usize::MAX),
        }
    }

    /// The remembered state's segments and tiles, if `game` descends from it.
    fn descends(&self, game: &Game) -> Option<(usize, usize)> {
        self.memory.base.filter(|(segments, tiles)| {
            game.features().len() >= *segments && game.board().tiles().len() >= *tiles
        })
    }

    /// Lists the links across borders of the segments laid since the remembered state, if
    /// `game` descends from it (for [`Estimator::composed`] on this state).
    fn link_new(&mut self, game: &Game) {
        let c = &mut self.compose;
        c.links.clear();
        c.touched.clear();
        let Some((segments, _)) = self.memory.base else {
            return;
        };
        let features = game.features();
        for s in segments..features.len() {
            let s = s as SegId;
            let part = features.segment(s);
            across(game, part.placed, part.feature, usize::MAX, |other, f| {
                c.links
                    .push((s, game.board().placed(other).seg_base + f as u32));
            });
        }
        let roots = &self.memory.roots;
        c.touched.extend(
            c.links
                .iter()
                .filter_map(|(_, b)| roots.get(*b as usize).copied()),
        );
        c.linkings = c.linkings.wrapping_add(1);
        if c.linkings == 0 {
            c.touched_at.iter_mut().for_each(|t| *t = 0);
            c.linkings = 1;
        }
        if c.touched_at.len() < roots.len() {
            c.touched_at.resize(roots.len(), 0);
        }
        for root in &c.touched {
            c.touched_at[*root as usize] = c.linkings;
        }
    }

    /// Whether segments laid since the remembered state join the feature whose root there is
    /// `root`, in the state last prepared.
    fn is_touched(&self, root: SegId) -> bool {
        let c = &self.compose;
        c.touched_at.get(root as usize) == Some(&c.linkings)
    }

    /// [`Estimator::tiles_of`] from the remembered walks (the segments laid since must have
    /// been linked by [`Estimator::link_new`]): the feature of `seg` is the segments
    /// laid since the remembered state (the first `segments`) that are linked to it across
    /// borders, plus the remembered features linked to those.
    fn composed(&mut self, game: &Game, seg: SegId, base: (usize, usize)) -> u32 {
        let (segments, tiles) = base;
        self.compose.new_in.clear();
        self.compose
            .new_in
            .resize(game.features().len() - segments, false);
        self.compose.walks_in.clear();
        if seg as usize >= segments {
            self.compose.new_in[seg as usize - segments] = true;
        } else {
            let w = self.remembered_walk(game, seg, tiles);
            if !self
                .compose
                .links
                .iter()
                .any(|(_, b)| (*b as usize) < segments && self.memory.walk_of[*b as usize] == w)
            {
                // No segment laid since has joined it: the remembered walk as it is.
                let walk = self.memory.walks[w as usize];
                self.cities.clear();
                self.cities
                    .extend_from_slice(&self.memory.cities[walk.cities.0..walk.cities.1]);
                return (walk.tiles.1 - walk.tiles.0) as u32;
            }
            self.compose.walks_in.push(w);
        }
        // Spread along the links until nothing changes (a handful of segments).
        let mut changed = true;
        while changed {
            changed = false;
            for l in 0..self.compose.links.len() {
                let (a, b) = self.compose.links[l];
                let a_in = self.compose.new_in[a as usize - segments];
                let b_in = if b as usize >= segments {
                    self.compose.new_in[b as usize - segments]
                } else {
                    let w = self.memory.walk_of[b as usize];
                    w != UNWALKED && self.compose.walks_in.contains(&w)
                };
                if a_in == b_in {
                    continue;
                }
                changed = true;
                if !a_in {
                    self.compose.new_in[a as usize - segments] = true;
                } else if b as usize >= segments {
                    self.compose.new_in[b as usize - segments] = true;
                } else {
                    let w = self.remembered_walk(game, b, tiles);
                    self.compose.walks_in.push(w);
                }
            }
        }
        self.count_composed(game, segments)
    }

    /// Counts the distinct tiles of the feature found by [`Estimator::composed`] and gathers
    /// its bordering cities into `cities`.
    fn count_composed(&mut self, game: &Game, segments: usize) -> u32 {
        let board = game.board();
        let (c, memory) = (&mut self.compose, &self.memory);
        c.counts = c.counts.wrapping_add(1);
        if c.counts == 0 {
            c.counted.iter_mut().for_each(|m| *m = 0);
            c.counts = 1;
        }
        if c.counted.len() < board.tiles().len() {
            c.counted.resize(board.tiles().len(), 0);
        }
        let mut count = 0;
        let mut mark = |t: PlacedId| {
            if c.counted[t as usize] != c.counts {
                c.counted[t as usize] = c.counts;
                count += 1;
            }
        };
        self.cities.clear();
        for w in &c.walks_in {
            let walk = memory.walks[*w as usize];
            memory.tiles[walk.tiles.0..walk.tiles.1]
                .iter()
                .for_each(|t| mark(*t));
            self.cities
                .extend_from_slice(&memory.cities[walk.cities.0..walk.cities.1]);
        }
        for (i, _) in c.new_in.iter().enumerate().filter(|(_, inside)| **inside) {
            let part = game.features().segment((segments + i) as SegId);
            mark(part.placed);
            if part.kind == FeatureKind::Field {
                push_borders(game, part.placed, part.feature, &mut self.cities);
            }
        }
        count
    }

    /// The index of the remembered walk of the feature that `seg` (a segment of the remembered
    /// state) belonged to there, walking it (on the remembered state's first `tiles` tiles) if
    /// not done yet.
    fn remembered_walk(&mut self, game: &Game, seg: SegId, tiles: usize) -> u32 {
        let w = self.memory.walk_of[seg as usize];
        if w != UNWALKED {
            return w;
        }
        self.walk_tiles(game, seg, tiles);
        let memory = &mut self.memory;
        let w = memory.walks.len() as u32;
        let board = game.board();
        for (placed, feature) in &self.parts {
            let part = board.placed(*placed).seg_base + *feature as u32;
            if let Some(slot) = memory.walk_of.get_mut(part as usize) {
                *slot = w;
            }
        }
        let from = (memory.tiles.len(), memory.cities.len());
        memory.tiles.extend_from_slice(&self.tiles);
        for c in &self.cities {
            let root = memory.roots.get(*c as usize);
            if !memory.cities[from.1..]
                .iter()
                .any(|d| memory.roots.get(*d as usize) == root)
            {
                memory.cities.push(*c);
            }
        }
        memory.walks.push(Walk {
            tiles: (from.0, memory.tiles.len()),
            cities: (from.1, memory.cities.len()),
        });
        w
    }

    /// Walks the feature of `seg` over the first `limit` tiles laid: returns how many tiles it
    /// covers (leaving them, sorted, in `tiles`) and leaves in `cities` the city segments that
    /// its field parts border.
    fn walk_tiles(&mut self, game: &Game, seg: SegId, limit: usize) -> u32 {
        let field = game.features().segment(seg).kind == FeatureKind::Field;
        self.walk(game, seg, limit);
        self.cities.clear();
        self.tiles.clear();
        for (placed, feature) in &self.parts {
            self.tiles.push(*placed);
            if field {
                push_borders(game, *placed, *feature, &mut self.cities);
            }
        }
        self.tiles.sort_unstable();
        self.tiles.dedup();
        self.tiles.len() as u32
    }

    /// Finds the parts (tile, feature index) of the feature of `seg` by walking across tile
    /// borders (edges for roads and cities, half-edges for fields) among the first `limit`
    /// tiles laid.
    fn walk(&mut self, game: &Game, seg: SegId, limit: usize) {
        self.walks = self.walks.wrapping_add(1);
        if self.walks == 0 {
            self.seen.iter_mut().for_each(|m| *m = 0);
            self.walks = 1;
        }
        let board = game.board();
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
            across(game, placed, feature, limit, |other, f| {
                let base = board.placed(other).seg_base;
                if let Some(m) = seen.get_mut((base + f as u32) as usize)
                    && *m != mark
                {
                    *m = mark;
                    parts.push((other, f));
                }
            });
        }
    }
}

/// Calls `visit` with each part (tile, feature index) that the part `feature` of tile `placed`
/// touches across its borders (edges for roads and cities, half-edges for fields), among the
/// first `limit` tiles laid.
fn across(
    game: &Game,
    placed: PlacedId,
    feature: u8,
    limit: usize,
    mut visit: impl FnMut(PlacedId, u8),
) {
    let board = game.board();
    let rules = game.rules();
    let pos: Pos = board.placed(placed).pos;
    // An overlay road (laid across the tile, not printed on it) is not followed: the
    // estimate sees the roads it joins as ending there.
    let Some(def) = board
        .oriented(&rules.tiles, placed)
        .features
        .get(usize::from(feature))
    else {
        return;
    };
    for e in Edge::ALL {
        let edge = def.edges & (1 << e as u8) != 0;
        let halves = (def.halves >> (2 * e as u8)) & 3;
        if !edge && halves == 0 {
            continue;
        }
        let Some(other) = board.at(pos.step(e)).filter(|o| (*o as usize) < limit) else {
            continue;
        };
        let theirs = board.oriented(&rules.tiles, other);
        let mut next = |f: u8| {
            if f != NO_FEATURE {
                visit(other, f);
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

/// Appends the city segments that the field part `feature` of tile `placed` borders.
fn push_borders(game: &Game, placed: PlacedId, feature: u8, cities: &mut Vec<SegId>) {
    let board = game.board();
    let base = board.placed(placed).seg_base;
    let mut borders =
        board.oriented(&game.rules().tiles, placed).features[feature as usize].borders;
    while borders != 0 {
        cities.push(base + borders.trailing_zeros());
        borders &= borders - 1;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Bot, RandomBot};
    use crate::data::ruleset::Ruleset;
    use crate::engine::game::Setup;
    use crate::model::tile::TileId;

    /// Plays `turns` turns of `game` at random.
    fn play(game: &mut Game, bot: &mut RandomBot, turns: u32) {
        let end = game.turn() + turns;
        let mut events = Vec::new();
        while !game.is_over() && game.turn() < end {
            let action = bot.choose(game);
            events.clear();
            game.apply_legal(&action, &mut events)
                .expect("a legal action");
        }
    }

    /// The cities (by root) that `segments` belong to in `game`.
    fn cities_of(game: &Game, segments: &[SegId]) -> Vec<SegId> {
        let mut roots: Vec<SegId> = segments.iter().map(|s| game.features().root(*s)).collect();
        roots.sort_unstable();
        roots.dedup();
        roots
    }

    /// Each seat's value in `later`, with `extra` (bit patterns, to compare to the last bit).
    fn bits(e: &mut Estimator, later: &Game, extra: Option<Figure>) -> Vec<u64> {
        e.values(later, extra).iter().map(|v| v.to_bits()).collect()
    }

    /// The worths kept across the states that descend from a remembered one (issue 11, item 5:
    /// greedy speed) give the estimates of a fresh estimator, to the last bit: several states
    /// one or two turns after each remembered one (as a bot tries candidates), each also with
    /// a follower added on every segment laid since, in rulesets with portals, the City of
    /// Carcassonne, big boxes and every figure of issue 10.
    #[test]
    fn kept_worths_equal_fresh_estimates() {
        let makers: [fn() -> Estimator; 2] = [Estimator::default, Estimator::seeing_dead_ends];
        for (name, make) in ["hig", "count", "base", "rgg-bigbox1", "hig-full"]
            .into_iter()
            .flat_map(|name| makers.map(|make| (name, make)))
        {
            let rules = Ruleset::load(name).expect("the ruleset loads");
            let players = vec!["A".to_string(), "B".to_string()];
            let (mut game, _) = Game::new(rules, Setup::new(players, 5)).expect("a game");
            let mut bot = RandomBot::new(5);
            let mut memo = make();
            let mut compared = 0;
            while !game.is_over() {
                memo.remember(&game);
                for turns in [1, 2, 1, 1, 2] {
                    let mut later = game.clone();
                    play(&mut later, &mut bot, turns);
                    let mut fresh = make();
                    memo.prepare(&later);
                    fresh.prepare(&later);
                    assert_eq!(
                        bits(&mut memo, &later, None),
                        bits(&mut fresh, &later, None)
                    );
                    let segments = later.features().len() as SegId;
                    let since = memo.memory.base.map_or(segments, |(s, _)| s as SegId);
                    for seg in since..segments {
                        let extra = Some(Figure {
                            id: u32::MAX,
                            owner: (seg % 2) as usize,
                            kind: crate::model::figure::FigureKind::Follower,
                            seg,
                        });
                        let (a, b) = (
                            bits(&mut memo, &later, extra),
                            bits(&mut fresh, &later, extra),
                        );
                        assert_eq!(a, b, "{name}");
                        compared += 1;
                    }
                }
                play(&mut game, &mut bot, 2);
            }
            assert!(compared > 500, "{name}: {compared}");
        }
    }

    /// Dead ends (issue 11, item 1): a position is dead exactly when no tile still to be laid
    /// fits there in any turn (B-P2, asked of the board tile by tile), and a road or city found
    /// doomed by one is never completed for the rest of the game, nor does a tile ever come to
    /// a dead position. Random games of several rulesets; dead ends must be met.
    #[test]
    fn doomed_features_are_never_completed() {
        let mut met = 0;
        for (name, seed) in [("hig", 1), ("hig", 2), ("base", 3), ("count", 4)] {
            let rules = Ruleset::load(name).expect("the ruleset loads");
            let players = vec!["A".to_string(), "B".to_string()];
            let (mut game, _) = Game::new(rules, Setup::new(players, seed)).expect("a game");
            let mut bot = RandomBot::new(seed);
            let mut e = Estimator::seeing_dead_ends();
            let mut doomed: Vec<SegId> = Vec::new();
            let mut dead: Vec<Pos> = Vec::new();
            while !game.is_over() {
                e.prepare(&game);
                let mut to_come = Vec::new();
                game.count_to_come(&mut to_come);
                let tiles = &game.rules().tiles;
                for pos in game.board().frontier() {
                    let fits = (0..tiles.len()).any(|t| {
                        to_come[t] > 0
                            && crate::model::geometry::Rotation::ALL
                                .into_iter()
                                .any(|r| game.board().fits(tiles, t as TileId, pos, r))
                    });
                    assert_eq!(e.dead.contains(&pos), !fits, "{name} turn {}", game.turn());
                }
                dead.extend(&e.dead);
                doomed.extend(&e.doomed);
                play(&mut game, &mut bot, 1);
                for seg in &doomed {
                    assert!(
                        !game.features().closed(*seg),
                        "{name}: a doomed feature closed"
                    );
                }
                for pos in &dead {
                    assert!(
                        game.board().at(*pos).is_none(),
                        "{name}: a tile on a dead end"
                    );
                }
            }
            doomed.sort_unstable();
            doomed.dedup();
            met += doomed.len();
        }
        assert!(met > 10, "{met} doomed features");
    }

    /// What a dead end does to a feature's worth (issue 11, item 1): next to the plain
    /// estimate of the same state, a doomed city holding figures has no chance of completion
    /// and is worth its tiles and pennants once (not doubled in part), a doomed road its tiles
    /// without the chance, and a cloister loses `NEIGHBOUR_CHANCE` × time left for each dead
    /// position around it; every other feature is worth the same. Random games of `hig` and
    /// `base`.
    #[test]
    fn dead_ends_take_the_completion_out_of_a_worth() {
        let mut doomed_seen = [0; 3];
        for (name, seed) in [("hig", 11), ("hig", 12), ("base", 13), ("base", 14)] {
            let rules = Ruleset::load(name).expect("the ruleset loads");
            let players = vec!["A".to_string(), "B".to_string()];
            let (mut game, _) = Game::new(rules, Setup::new(players, seed)).expect("a game");
            let mut bot = RandomBot::new(seed);
            let (mut plain, mut seeing) = (Estimator::default(), Estimator::seeing_dead_ends());
            while !game.is_over() {
                plain.prepare(&game);
                seeing.prepare(&game);
                let time = time_left(&game);
                for g in &seeing.groups[..seeing.used] {
                    let p = plain.group_of(g.root).map(|i| &plain.groups[i]);
                    let p = p.expect("both estimates hold the same features");
                    let segment = game.features().segment(g.root);
                    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
                    let doomed = seeing.doomed.contains(&g.root);
                    let at = game.board().placed(segment.placed).pos;
                    let dead = at.ring().iter().filter(|q| seeing.dead.contains(q)).count();
                    match segment.kind {
                        FeatureKind::City if doomed => {
                            assert!(close(g.worth, p.worth / (1.0 + p.chance)) && g.chance == 0.0);
                            doomed_seen[0] += 1;
                        }
                        FeatureKind::Road if doomed => {
                            assert!(close(g.worth, p.worth - p.chance) && g.chance == 0.0);
                            doomed_seen[1] += 1;
                        }
                        FeatureKind::Cloister if dead > 0 => {
                            let lost = dead as f64 * NEIGHBOUR_CHANCE * time;
                            assert!(close(g.worth, p.worth - lost) && g.chance == 0.0);
                            doomed_seen[2] += 1;
                        }
                        _ => assert!(close(g.worth, p.worth) && close(g.chance, p.chance)),
                    }
                }
                play(&mut game, &mut bot, 1);
            }
        }
        assert!(doomed_seen.iter().all(|n| *n > 0), "{doomed_seen:?}");
    }

    /// The composed walks (issue 11, item 5: greedy speed) equal fresh walks of every feature
    /// of states one and two turns after the remembered one, in rulesets with portals, the
    /// City of Carcassonne and big boxes: same tile count, same bordering cities. The memory
    /// goes from one remembered state to the next of the game (keeping walks), then on to a
    /// game of another seed (keeping none).
    #[test]
    fn composed_walks_equal_fresh_walks() {
        for name in ["hig", "count", "base", "rgg-bigbox1"] {
            let rules = Ruleset::load(name).expect("the ruleset loads");
            let (mut memo, mut fresh) = (Estimator::default(), Estimator::default());
            for seed in [7, 8] {
                composed_walks_in_a_game(&rules, seed, &mut memo, &mut fresh);
            }
        }
    }

    /// [`composed_walks_equal_fresh_walks`] in one game of `rules`.
    fn composed_walks_in_a_game(
        rules: &Arc<Ruleset>,
        seed: u64,
        memo: &mut Estimator,
        fresh: &mut Estimator,
    ) {
        let name = &rules.name;
        let players = vec!["A".to_string(), "B".to_string()];
        let setup = Setup::new(players, seed);
        let (mut game, _) = Game::new(Arc::clone(rules), setup).expect("a game");
        let mut bot = RandomBot::new(seed);
        let mut compared = 0;
        while !game.is_over() {
            memo.remember(&game);
            for turns in [1, 2] {
                let mut later = game.clone();
                play(&mut later, &mut bot, turns);
                memo.prepare(&later);
                fresh.seen.resize(later.features().len(), 0);
                for seg in 0..later.features().len() as SegId {
                    let tiles = memo.tiles_of(&later, seg);
                    let cities = cities_of(&later, &memo.cities);
                    assert_eq!(tiles, fresh.walk_tiles(&later, seg, usize::MAX), "{name}");
                    assert_eq!(cities, cities_of(&later, &fresh.cities), "{name}");
                    compared += 1;
                }
            }
            play(&mut game, &mut bot, 3);
        }
        assert!(compared > 1000, "{name}: {compared}");
    }
}
