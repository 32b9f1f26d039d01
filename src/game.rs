//! The game: a state machine that always exposes one pending decision.
//!
//! [`Game::apply`] checks an action against the pending decision before changing anything, so
//! an illegal action returns an error and leaves the game exactly as it was. A legal action
//! returns the events it caused, including everything that follows automatically (scoring, the
//! next draw, final scoring) up to the next decision.

use crate::action::{Action, Decision, DecisionKind};
use crate::board::{Board, PlacedId, Placement};
use crate::event::Event;
use crate::feature::{Features, SegId, Segment};
use crate::figure::{Figure, FigureKind};
use crate::geometry::{Edge, Pos, Rotation, Spot, facing_half};
use crate::mechanic::scoring;
use crate::ruleset::{Ruleset, StartTile, TileId};
use crate::tile::{FeatureKind, NO_FEATURE};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// How a game is set up: everything a record says before its actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Player names in seat (turn) order.
    pub players: Vec<String>,
    /// Seed for shuffling the bag.
    pub seed: u64,
    /// A forced draw order; the game ends when it runs out.
    pub draw: Option<Vec<TileId>>,
    /// End the game after this many draws.
    pub end_after: Option<u32>,
    /// Start tiles replacing the ruleset's.
    pub start: Option<Vec<StartTile>>,
}

impl Setup {
    /// A plain setup: these players, this seed, the ruleset's bag and start.
    pub fn new(players: Vec<String>, seed: u64) -> Setup {
        Setup {
            players,
            seed,
            draw: None,
            end_after: None,
            start: None,
        }
    }
}

/// Why an action was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The action answers a different kind of decision.
    #[error("{0}")]
    WrongDecision(String),
    /// The tile cannot lie there turned that way.
    #[error("the tile cannot be placed at {pos} turned {degrees}°: {why}")]
    IllegalPlacement {
        /// Where.
        pos: Pos,
        /// Rotation in degrees.
        degrees: u32,
        /// Why not.
        why: &'static str,
    },
    /// The deployment breaks a rule.
    #[error("cannot deploy at {pos} {spot}: {why}")]
    IllegalDeploy {
        /// The tile.
        pos: Pos,
        /// The spot.
        spot: Spot,
        /// Why not.
        why: String,
    },
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Wrong number of players for the ruleset.
    #[error("this ruleset is for {min} to {max} players, not {got}")]
    Players {
        /// Minimum.
        min: usize,
        /// Maximum.
        max: usize,
        /// Asked for.
        got: usize,
    },
    /// Two start tiles on one position, or no start tile.
    #[error("{0}")]
    Start(String),
}

/// Where the turn is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Place,
    Deploy,
    Over,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) rules: Arc<Ruleset>,
    pub(crate) setup: Setup,
    pub(crate) scores: Vec<u32>,
    pub(crate) supply: Vec<[u8; FigureKind::ALL.len()]>,
    pub(crate) board: Board,
    pub(crate) features: Features,
    pub(crate) figures: Vec<Figure>,
    /// Tiles still to draw; the next one is at the end.
    pub(crate) bag: Vec<TileId>,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) draws: u32,
    pub(crate) turn: u32,
    pub(crate) player: usize,
    pub(crate) step: Step,
    /// The drawn tile and its legal placements.
    pub(crate) tile: Option<TileId>,
    pub(crate) placements: Vec<Placement>,
    /// The tile laid this turn.
    pub(crate) placed: Option<PlacedId>,
    pub(crate) history: Vec<Action>,
    pub(crate) scratch: Vec<SegId>,
}

impl Game {
    /// Starts a game: lays the start tiles and draws the first tile. Returns the game and the
    /// events of the set-up.
    pub fn new(rules: Arc<Ruleset>, setup: Setup) -> Result<(Game, Vec<Event>), SetupError> {
        let (min, max) = rules.players;
        let n = setup.players.len();
        if !(min..=max).contains(&n) {
            return Err(SetupError::Players { min, max, got: n });
        }
        let start = setup.start.clone().unwrap_or_else(|| rules.start.clone());
        if start.is_empty() {
            return Err(SetupError::Start("there is no start tile".into()));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let bag = match &setup.draw {
            Some(order) => order.iter().rev().copied().collect(),
            None => {
                let mut bag = full_bag(&rules, &start);
                bag.shuffle(&mut rng);
                bag
            }
        };
        let max_features = rules
            .tiles
            .iter()
            .map(|t| t.features().len())
            .max()
            .unwrap_or(0);
        let tiles = bag.len() + start.len();
        let reach = start
            .iter()
            .map(|s| s.pos.x.abs().max(s.pos.y.abs()))
            .max()
            .unwrap_or(0);
        let mut game = Game {
            scores: vec![0; n],
            supply: vec![[rules.base.followers_per_player]; n],
            board: Board::new(tiles, reach),
            features: Features::with_capacity(tiles * max_features),
            figures: Vec::new(),
            bag,
            rng,
            draws: 0,
            turn: 0,
            player: n - 1,
            step: Step::Place,
            tile: None,
            placements: Vec::new(),
            placed: None,
            history: Vec::new(),
            scratch: Vec::new(),
            rules,
            setup,
        };
        let mut events = Vec::new();
        for s in &start {
            if game.board.at(s.pos).is_some() {
                return Err(SetupError::Start(format!("two start tiles at {}", s.pos)));
            }
            game.lay(s.tile, s.pos, s.rotation);
            events.push(Event::StartTile {
                tile: game.tile_name(s.tile),
                x: s.pos.x,
                y: s.pos.y,
                rotation: s.rotation.degrees(),
            });
        }
        game.next_turn(&mut events);
        Ok((game, events))
    }

    // -----------------------------------------------------------------------------------------
    // Reading the state.

    /// The ruleset.
    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }

    /// The set-up the game started from.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The actions applied so far, in order.
    pub fn history(&self) -> &[Action] {
        &self.history
    }

    /// Scores by seat.
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// Figures of `kind` in `player`'s supply.
    pub fn supply(&self, player: usize, kind: FigureKind) -> u8 {
        self.supply[player][kind as usize]
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The feature graph.
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// Figures on the board, in deployment order.
    pub fn figures(&self) -> &[Figure] {
        &self.figures
    }

    /// Tiles left to draw.
    pub fn tiles_left(&self) -> usize {
        self.bag.len()
    }

    /// Whether final scoring has happened.
    pub fn is_over(&self) -> bool {
        self.step == Step::Over
    }

    /// Turns begun so far.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Where a figure stands: its tile position and spot.
    pub fn figure_spot(&self, f: &Figure) -> (Pos, Spot) {
        let seg = self.features.segment(f.seg);
        let pos = self.board.placed(seg.placed).pos;
        let spot =
            self.board.oriented(&self.rules, seg.placed).features[seg.feature as usize].spot();
        (pos, spot)
    }

    /// The pending decision.
    pub fn decision(&self) -> Decision {
        let kind = match self.step {
            Step::Over => DecisionKind::GameOver,
            Step::Place => DecisionKind::PlaceTile {
                tile: self.tile.unwrap_or_default(),
            },
            Step::Deploy => DecisionKind::Deploy,
        };
        Decision {
            player: self.player,
            kind,
        }
    }

    /// Appends every legal answer to the pending decision to `out`.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        match self.step {
            Step::Over => {}
            Step::Place => out.extend(self.placements.iter().map(|p| Action::Place {
                pos: p.pos,
                rotation: p.rotation,
            })),
            Step::Deploy => {
                if let Some(placed) = self.placed {
                    let pos = self.board.placed(placed).pos;
                    for f in 0..self.board.oriented(&self.rules, placed).features.len() {
                        if self
                            .deploy_problem(placed, f as u8, FigureKind::Follower)
                            .is_none()
                        {
                            let spot = self.board.oriented(&self.rules, placed).features[f].spot();
                            out.push(Action::Deploy {
                                pos,
                                spot,
                                figure: FigureKind::Follower,
                            });
                        }
                    }
                }
                out.push(Action::Pass);
            }
        }
    }

    /// The legal answers as a new vector.
    pub fn legal(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v
    }

    // -----------------------------------------------------------------------------------------
    // Changing the state.

    /// Answers the pending decision. On error nothing has changed.
    pub fn apply(&mut self, action: &Action) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.apply_into(action, &mut events)?;
        Ok(events)
    }

    /// Like [`Game::apply`], appending the events to a caller's buffer.
    pub fn apply_into(
        &mut self,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        match (self.step, action) {
            (Step::Over, _) => Err(RuleError::GameOver),
            (Step::Place, Action::Place { pos, rotation }) => {
                self.check_place(*pos, *rotation)?;
                self.history.push(*action);
                self.place(*pos, *rotation, events);
                Ok(())
            }
            (Step::Deploy, Action::Deploy { pos, spot, figure }) => {
                let (placed, feature) = self.check_deploy(*pos, *spot, *figure)?;
                self.history.push(*action);
                self.deploy(placed, feature, *figure, events);
                self.finish_turn(events);
                Ok(())
            }
            (Step::Deploy, Action::Pass) => {
                self.history.push(*action);
                self.finish_turn(events);
                Ok(())
            }
            (Step::Place, _) => Err(RuleError::WrongDecision(
                "the drawn tile must be placed first (`place = [x, y, rotation]`)".into(),
            )),
            (Step::Deploy, _) => Err(RuleError::WrongDecision(
                "a figure may be deployed now (`deploy = [x, y, \"N\"]`) or `pass = true`".into(),
            )),
        }
    }

    fn check_place(&self, pos: Pos, rotation: Rotation) -> Result<(), RuleError> {
        if self.placements.contains(&Placement { pos, rotation }) {
            return Ok(());
        }
        let why = if self.board.at(pos).is_some() {
            "that position is taken"
        } else if !self.board.frontier().contains(&pos) {
            "it must share an edge with a placed tile (B-P1)"
        } else {
            "an edge does not match its neighbour (B-P2)"
        };
        Err(RuleError::IllegalPlacement {
            pos,
            degrees: rotation.degrees(),
            why,
        })
    }

    fn check_deploy(
        &self,
        pos: Pos,
        spot: Spot,
        figure: FigureKind,
    ) -> Result<(PlacedId, u8), RuleError> {
        let err = |why: String| RuleError::IllegalDeploy { pos, spot, why };
        let placed = self
            .placed
            .filter(|p| self.board.placed(*p).pos == pos)
            .ok_or_else(|| err("figures go on the tile just placed (B-F2)".to_string()))?;
        let feature = self
            .board
            .oriented(&self.rules, placed)
            .feature_at(spot)
            .ok_or_else(|| err("that tile has no feature there".to_string()))?;
        match self.deploy_problem(placed, feature, figure) {
            Some(why) => Err(err(why.to_string())),
            None => Ok((placed, feature)),
        }
    }

    /// Why `figure` may not go on `feature` of tile `placed`, if it may not.
    fn deploy_problem(
        &self,
        placed: PlacedId,
        feature: u8,
        figure: FigureKind,
    ) -> Option<&'static str> {
        if self.supply[self.player][figure as usize] == 0 {
            return Some("no follower left in supply (B-F4)");
        }
        let seg = self.board.placed(placed).seg_base + feature as u32;
        let kind = self.features.segment(seg).kind;
        if kind == FeatureKind::Field && !self.rules.mechanics.farmers {
            return Some("farmers are switched off in this ruleset");
        }
        if self.features.totals(seg).followers > 0 {
            return Some("the feature already has a follower (B-F3)");
        }
        None
    }

    /// Lays a tile: board, segments, joins with the neighbours.
    fn lay(&mut self, tile: TileId, pos: Pos, rotation: Rotation) -> PlacedId {
        let rules = Arc::clone(&self.rules);
        let oriented = rules.tile(tile).at(rotation);
        let seg_base = self.features.len() as u32;
        let placed = self.board.put(tile, pos, rotation, seg_base);
        for (i, f) in oriented.features.iter().enumerate() {
            self.features.add(
                Segment {
                    placed,
                    feature: i as u8,
                    kind: f.kind,
                },
                f.edges.count_ones() as u16,
                f.pennants as u16,
            );
        }
        for e in Edge::ALL {
            let Some(other) = self.board.at(pos.step(e)) else {
                continue;
            };
            let theirs = self.board.oriented(&rules, other);
            let their_base = self.board.placed(other).seg_base;
            let (mine_f, their_f) = (
                oriented.edge_feature[e as usize],
                theirs.edge_feature[e.opposite() as usize],
            );
            if mine_f != NO_FEATURE && their_f != NO_FEATURE {
                self.features
                    .join(seg_base + mine_f as u32, their_base + their_f as u32, true);
            }
            for h in [2 * e as usize, 2 * e as usize + 1] {
                let (a, b) = (
                    oriented.half_feature[h],
                    theirs.half_feature[facing_half(h)],
                );
                if a != NO_FEATURE && b != NO_FEATURE {
                    self.features
                        .join(seg_base + a as u32, their_base + b as u32, false);
                }
            }
        }
        placed
    }

    fn place(&mut self, pos: Pos, rotation: Rotation, events: &mut Vec<Event>) {
        let tile = self.tile.take().unwrap_or_default();
        let placed = self.lay(tile, pos, rotation);
        self.placed = Some(placed);
        self.placements.clear();
        events.push(Event::TilePlaced {
            player: self.player,
            tile: self.tile_name(tile),
            x: pos.x,
            y: pos.y,
            rotation: rotation.degrees(),
        });
        self.step = Step::Deploy;
    }

    fn deploy(
        &mut self,
        placed: PlacedId,
        feature: u8,
        figure: FigureKind,
        events: &mut Vec<Event>,
    ) {
        let seg = self.board.placed(placed).seg_base + feature as u32;
        self.supply[self.player][figure as usize] -= 1;
        self.figures.push(Figure {
            owner: self.player,
            kind: figure,
            seg,
        });
        self.features.add_followers(seg, 1);
        let pos = self.board.placed(placed).pos;
        let spot = self.board.oriented(&self.rules, placed).features[feature as usize].spot();
        events.push(Event::FigureDeployed {
            player: self.player,
            figure,
            x: pos.x,
            y: pos.y,
            feature: self.features.segment(seg).kind,
            spot,
        });
    }

    /// Scores what the tile completed, then moves on to the next turn.
    fn finish_turn(&mut self, events: &mut Vec<Event>) {
        if let Some(placed) = self.placed.take() {
            for seg in self.completed_by(placed) {
                self.score_feature(seg, true, events);
            }
        }
        self.next_turn(events);
    }

    /// Roads, cities and cloisters completed by laying `placed`, in a fixed order: the tile's
    /// own features first, then the cloisters around it clockwise from north (B-M5).
    fn completed_by(&self, placed: PlacedId) -> Vec<SegId> {
        let mut done: Vec<SegId> = Vec::new();
        let p = *self.board.placed(placed);
        let oriented = self.board.oriented(&self.rules, placed);
        for (i, f) in oriented.features.iter().enumerate() {
            let seg = p.seg_base + i as u32;
            let complete = match f.kind {
                FeatureKind::Road | FeatureKind::City => self.features.closed(seg),
                FeatureKind::Cloister => self.board.neighbours(p.pos) == 8,
                FeatureKind::Field => false,
            };
            if complete && !done.iter().any(|d| self.features.same(*d, seg)) {
                done.push(seg);
            }
        }
        for q in p.pos.ring() {
            if let Some(n) = self.board.at(q)
                && let Some(c) = self.cloister_segment(n)
                && self.board.neighbours(q) == 8
            {
                done.push(c);
            }
        }
        done
    }

    fn cloister_segment(&self, placed: PlacedId) -> Option<SegId> {
        let o = self.board.oriented(&self.rules, placed);
        o.feature_at(Spot::Cloister)
            .map(|f| self.board.placed(placed).seg_base + f as u32)
    }

    /// Scores one road, city or cloister (RULES.md §1.6–§1.7); returns its followers when it is
    /// complete (B-M3).
    fn score_feature(&mut self, seg: SegId, completed: bool, events: &mut Vec<Event>) {
        let kind = self.features.segment(seg).kind;
        let at = self.board.placed(self.features.segment(seg).placed).pos;
        let size = self.size(seg);
        if completed {
            events.push(Event::FeatureCompleted {
                feature: kind,
                tiles: size.tiles,
                x: at.x,
                y: at.y,
            });
        }
        let points = scoring::value(kind, size, completed, self.rules.base.small_city_two_tiles);
        let strength = self.strength(|f, g| f.same(g.seg, seg));
        let rule = match (kind, completed) {
            (FeatureKind::Road, true) => "§1.6 completed road",
            (FeatureKind::City, true) => "§1.6 completed city",
            (FeatureKind::Cloister, true) => "§1.6 completed cloister",
            (FeatureKind::Road, false) => "§1.8 incomplete road",
            (FeatureKind::City, false) => "§1.8 incomplete city",
            _ => "§1.8 incomplete cloister",
        };
        self.pay(&strength, points, kind, rule, at, events);
        if completed {
            self.return_figures(seg, events);
        }
    }

    /// Each player's strength among the figures that `member` selects (B-M1).
    pub(crate) fn strength(&self, member: impl Fn(&Features, &Figure) -> bool) -> Vec<u32> {
        let mut strength = vec![0u32; self.scores.len()];
        for f in &self.figures {
            if member(&self.features, f) {
                strength[f.owner] += f.kind.weight();
            }
        }
        strength
    }

    /// Pays `points` to every player with the highest strength above zero (B-M2).
    pub(crate) fn pay(
        &mut self,
        strength: &[u32],
        points: u32,
        feature: FeatureKind,
        rule: &'static str,
        at: Pos,
        events: &mut Vec<Event>,
    ) {
        let best = strength.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return;
        }
        for (player, s) in strength.iter().enumerate() {
            if *s == best {
                self.scores[player] += points;
                events.push(Event::Scored {
                    player,
                    points,
                    feature,
                    rule,
                    x: at.x,
                    y: at.y,
                });
            }
        }
    }

    fn return_figures(&mut self, seg: SegId, events: &mut Vec<Event>) {
        let mut i = 0;
        while i < self.figures.len() {
            let f = self.figures[i];
            if self.features.same(f.seg, seg) {
                let pos = self.board.placed(self.features.segment(f.seg).placed).pos;
                self.figures.remove(i);
                self.supply[f.owner][f.kind as usize] += 1;
                self.features.add_followers(f.seg, -1);
                events.push(Event::FigureReturned {
                    player: f.owner,
                    figure: f.kind,
                    x: pos.x,
                    y: pos.y,
                    reason: crate::event::ReturnReason::Scored,
                });
            } else {
                i += 1;
            }
        }
    }

    /// Tiles and pennants of the feature of `seg` (a cloister counts itself and its neighbours).
    fn size(&mut self, seg: SegId) -> scoring::Size {
        let s = *self.features.segment(seg);
        if s.kind == FeatureKind::Cloister {
            let pos = self.board.placed(s.placed).pos;
            return scoring::Size {
                tiles: 1 + self.board.neighbours(pos),
                pennants: 0,
            };
        }
        let mut members = std::mem::take(&mut self.scratch);
        members.clear();
        self.features.members(seg, &mut members);
        let mut tiles: Vec<PlacedId> = members
            .iter()
            .map(|m| self.features.segment(*m).placed)
            .collect();
        tiles.sort_unstable();
        tiles.dedup();
        self.scratch = members;
        scoring::Size {
            tiles: tiles.len() as u32,
            pennants: self.features.totals(seg).pennants as u32,
        }
    }

    /// Begins the next player's turn: draws until a tile fits, or ends the game when the bag
    /// (or the record's draw list or `end_after`) runs out.
    fn next_turn(&mut self, events: &mut Vec<Event>) {
        self.player = (self.player + 1) % self.scores.len();
        self.placements.clear();
        let mut started = false;
        while let Some(tile) = self.draw() {
            if !started {
                started = true;
                self.turn += 1;
                events.push(Event::TurnStarted {
                    turn: self.turn,
                    player: self.player,
                });
            }
            self.board
                .placements(&self.rules, tile, &mut self.placements);
            if self.placements.is_empty() {
                events.push(Event::TileDiscarded {
                    player: self.player,
                    tile: self.tile_name(tile),
                });
                continue;
            }
            events.push(Event::TileDrawn {
                player: self.player,
                tile: self.tile_name(tile),
            });
            self.tile = Some(tile);
            self.step = Step::Place;
            return;
        }
        self.final_scoring(events);
    }

    /// The next tile from the bag, unless the game's draw limit is reached.
    fn draw(&mut self) -> Option<TileId> {
        if self.setup.end_after.is_some_and(|n| self.draws >= n) {
            return None;
        }
        let tile = self.bag.pop()?;
        self.draws += 1;
        Some(tile)
    }

    /// Final scoring (RULES.md §1.8): incomplete roads, cities and cloisters, then farms.
    fn final_scoring(&mut self, events: &mut Vec<Event>) {
        let mut scored: Vec<SegId> = Vec::new();
        for i in 0..self.figures.len() {
            let seg = self.figures[i].seg;
            let kind = self.features.segment(seg).kind;
            let root = self.features.root(seg);
            if kind != FeatureKind::Field && !scored.contains(&root) {
                scored.push(root);
                self.score_feature(seg, false, events);
            }
        }
        if self.rules.mechanics.farmers {
            crate::mechanic::farm::score(self, events);
        }
        self.step = Step::Over;
        self.tile = None;
        events.push(Event::GameEnded {
            scores: self.scores.clone(),
        });
    }

    /// The position of the tile holding segment `seg`.
    pub(crate) fn root_pos(&self, seg: SegId) -> Pos {
        self.board.placed(self.features.segment(seg).placed).pos
    }

    fn tile_name(&self, tile: TileId) -> Arc<str> {
        Arc::clone(&self.rules.tile(tile).id)
    }
}

/// The ruleset's tiles, less one copy of each start tile.
fn full_bag(rules: &Ruleset, start: &[StartTile]) -> Vec<TileId> {
    let mut counts: Vec<u32> = rules.tiles.iter().map(|t| t.count).collect();
    for s in start {
        counts[s.tile as usize] = counts[s.tile as usize].saturating_sub(1);
    }
    counts
        .iter()
        .enumerate()
        .flat_map(|(i, c)| std::iter::repeat_n(i as TileId, *c as usize))
        .collect()
}
