//! The game: a state machine that always exposes one pending decision.
//!
//! A game is shared state plus the mechanics its ruleset switches on ([`Mechanics`], built by
//! the registry in `registry.rs`). A turn is the mechanics' stages at the points of the turn
//! ([`Phase`](crate::engine::mechanic::Phase)): the stage loop here names no mechanic, it only calls their hooks (see
//! [`crate::engine::mechanic`]). [`Game::apply`] checks an
//! action against the pending decision before changing anything, so an illegal action returns
//! an error and leaves the game exactly as it was. A legal action returns the events it caused,
//! including everything that follows automatically (scoring, the next draw, final scoring) up
//! to the next decision.

use crate::data::ruleset::{Ruleset, StartTile};
use crate::engine::action::{Action, Decision, DecisionKind};
use crate::engine::event::{Event, ReturnReason};
use crate::engine::history::History;
use crate::engine::mechanic::{Asked, Drawn, Hooks, Mechanics, Route, Slots, Then};
use crate::engine::refusal::{Refusal, RuleId};
use crate::engine::words;
use crate::model::board::{Board, PlacedId};
use crate::model::feature::{Features, OVERLAY, SegId, Segment, Totals};
use crate::model::figure::{Departure, Figure, FigureKind, MAX_FIGURES, MAX_PLAYERS};
use crate::model::geometry::{Edge, Pos, Rotation, Spot, facing_half};
use crate::model::tile::{EdgeKind, TileId, TileType};
use crate::model::tile::{FeatureKind, Lies, MAX_TILE_FEATURES, NO_FEATURE, Oriented, Symbol};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// How a game is set up: everything a record says before its actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Player names in seat (turn) order.
    pub players: Vec<String>,
    /// Seed for shuffling the bag (and later reshuffles).
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
        /// Which rule refuses, and why.
        why: Refusal,
    },
    /// The action breaks a rule (or is not among the legal ones).
    #[error("{reason}")]
    IllegalAction {
        /// The rule that refuses it.
        rule: RuleId,
        /// The refusal in words.
        reason: String,
    },
    /// A script failed while the action was applied; the action is undone.
    #[error("{0}")]
    Script(crate::engine::fault::ScriptError),
}

impl RuleError {
    /// The rule that refused the action, if a rule did (not for a game that is over, an answer
    /// to another decision or a failing script).
    pub fn rule(&self) -> Option<RuleId> {
        match self {
            RuleError::IllegalPlacement { why, .. } => Some(why.rule),
            RuleError::IllegalAction { rule, .. } => Some(*rule),
            RuleError::GameOver | RuleError::WrongDecision(_) | RuleError::Script(_) => None,
        }
    }

    /// `action` is not among the `legal` answers that `rule` allows; the words list them.
    pub(crate) fn not_listed(action: &Action, legal: &[Action], rule: RuleId) -> RuleError {
        RuleError::IllegalAction {
            rule,
            reason: format!(
                "{} is not among the legal choices: {}",
                words::action(action),
                legal
                    .iter()
                    .map(words::action)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
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
    /// A script failed while the game was set up.
    #[error("{0}")]
    Script(crate::engine::fault::ScriptError),
}

/// The decision the game waits for: a mechanic's, or none when the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    /// Nothing yet: the set-up runs up to the first decision.
    Starting,
    /// A mechanic asked.
    Asked(Asked),
    /// Final scoring is done.
    Over,
}

/// What happened so far in the current turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TurnState {
    /// The tile laid this turn.
    pub placed: Option<PlacedId>,
    /// The figure the player deployed from supply this turn, if any (the fairy's FA2 reads
    /// whether it was a follower).
    pub deployed: Option<FigureKind>,
    /// What the tile completed has been scored (by a mechanic that scores it its own way).
    pub scored: bool,
    /// The symbol of the tile laid this turn.
    pub symbol: Option<Symbol>,
    /// This turn is one a mechanic gave the player who just played (the second half of a
    /// double turn).
    pub extra: bool,
    /// Features the tile completed that a mechanic took out of this turn's scoring
    /// ([`Game::withhold_from_scoring`]).
    pub withheld: Vec<SegId>,
    /// The player was offered a tile of a mechanic's own instead of drawing this turn
    /// ([`Mechanic::own_tile`]).
    ///
    /// [`Mechanic::own_tile`]: crate::engine::mechanic::Mechanic::own_tile
    pub offered: bool,
}

/// How many legal answers the pending decision has, part by part ([`Game::tally_legal`]), for
/// building only the one picked ([`Game::nth_legal`]); valid, with the scratch list it was
/// counted with, as long as the state does not change.
#[derive(Clone, Copy, Debug)]
pub struct Tally {
    /// Each part's size: the asking mechanic's answers, then each other mechanic's additions
    /// (at most one more part than the call lists hold); only the decision's parts are set.
    sizes: [u32; Mechanics::MAX + 1],
    /// Which parts are listed in the scratch list (bit `i` for part `i`), in order.
    listed: u64,
    /// Whether `pass` ends the list.
    pass: bool,
    /// The number of answers, `pass` included.
    total: usize,
}

impl Default for Tally {
    /// Nothing legal.
    fn default() -> Tally {
        Tally {
            sizes: [0; Mechanics::MAX + 1],
            listed: 0,
            pass: false,
            total: 0,
        }
    }
}

impl Tally {
    /// The number of legal answers, `pass` included.
    pub fn len(&self) -> usize {
        self.total
    }

    /// Whether nothing is legal (as once the game is over).
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }
}

/// A game in progress.
#[derive(Debug)]
pub struct Game {
    pub(crate) rules: Arc<Ruleset>,
    pub(crate) setup: Arc<Setup>,
    /// The mechanics in play, in registry order, with their call lists.
    pub(crate) mechanics: Arc<Mechanics>,
    pub(crate) stage: usize,
    pub(crate) pending: Pending,
    pub(crate) scores: Vec<u32>,
    pub(crate) supply: Vec<[u8; MAX_FIGURES]>,
    /// The figures of `figures` counted by seat, in the figure table's order (as `supply`);
    /// kept inline (no allocation of its own to copy).
    pub(crate) on_board: [[u8; MAX_FIGURES]; MAX_PLAYERS],
    pub(crate) board: Board,
    pub(crate) features: Features,
    /// The figures on the board, in the order of their ids (a new one gets the next id and
    /// goes at the end; moving one keeps its place).
    pub(crate) figures: Vec<Figure>,
    pub(crate) next_figure: u32,
    /// Tiles still to draw; the next one is at the end.
    pub(crate) bag: Vec<TileId>,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) draws: u32,
    pub(crate) turn: u32,
    /// The seat whose turn it is.
    pub(crate) active: usize,
    /// The drawn tile.
    pub(crate) tile: Option<TileId>,
    pub(crate) now: TurnState,
    /// The mechanics' own state, one slot per mechanic.
    pub(crate) slots: Slots,
    pub(crate) history: History,
    pub(crate) scratch: Vec<SegId>,
    /// The decision that waits behind the mechanics' questions ([`Mechanic::interject`]).
    ///
    /// [`Mechanic::interject`]: crate::engine::mechanic::Mechanic::interject
    pub(crate) resume: Option<Pending>,
    /// With scripts: the legal actions of the pending decision, computed once.
    pub(crate) offer: Option<Vec<Action>>,
    /// The first script failure of the action being applied.
    pub(crate) fault: Option<crate::engine::fault::ScriptError>,
    /// In the last round, after the last tile was drawn, in which players may still lay a
    /// tile of a mechanic's own: how many seats are still to be offered one.
    pub(crate) last_round: Option<u8>,
}

/// Copying a game: `clone_from` reuses the copy's memory (a bot that tries many candidates on
/// one scratch copy allocates almost nothing).
impl Clone for Game {
    fn clone(&self) -> Game {
        let mut copy = self.placeholder();
        copy.clone_from(self);
        // A fresh copy is seldom copied onto again: its board and features log no changes.
        copy.board.forget_source();
        copy.features.forget_source();
        copy
    }

    fn clone_from(&mut self, source: &Game) {
        // Every field is named, so a new field cannot be forgotten here.
        let Game {
            rules,
            setup,
            mechanics,
            stage,
            pending,
            scores,
            supply,
            on_board,
            board,
            features,
            figures,
            next_figure,
            bag,
            rng,
            draws,
            turn,
            active,
            tile,
            now,
            slots,
            history,
            scratch,
            resume,
            offer,
            fault,
            last_round,
        } = source;
        // Copies of one game share these: sharing them anew would cost two atomic operations.
        share(&mut self.rules, rules);
        share(&mut self.setup, setup);
        share(&mut self.mechanics, mechanics);
        self.stage = *stage;
        self.pending = *pending;
        self.scores.clone_from(scores);
        self.supply.clone_from(supply);
        self.on_board = *on_board;
        self.board.clone_from(board);
        self.features.clone_from(features);
        self.figures.clone_from(figures);
        self.next_figure = *next_figure;
        self.bag.clone_from(bag);
        self.rng.clone_from(rng);
        self.draws = *draws;
        self.turn = *turn;
        self.active = *active;
        self.tile = *tile;
        self.now.clone_from(now);
        self.slots.clone_from(slots);
        self.history.clone_from(history);
        self.scratch.clone_from(scratch);
        self.resume = *resume;
        self.offer.clone_from(offer);
        self.fault.clone_from(fault);
        self.last_round = *last_round;
    }
}

impl Game {
    /// Starts a game with these mechanics: lays the start tiles, sets up each mechanic and runs
    /// up to the first decision. Returns the game and the events of the set-up.
    /// ([`Game::new`] takes the mechanics the ruleset switches on.)
    pub fn with_mechanics(
        rules: Arc<Ruleset>,
        setup: Setup,
        mechanics: Arc<Mechanics>,
    ) -> Result<(Game, Vec<Event>), SetupError> {
        // A ruleset built in code may ask for more seats than a game has room for.
        let (min, max) = (rules.players.0, rules.players.1.min(MAX_PLAYERS));
        let n = setup.players.len();
        if !(min..=max).contains(&n) {
            return Err(SetupError::Players { min, max, got: n });
        }
        let start = setup.start.clone().unwrap_or_else(|| rules.start.clone());
        if start.is_empty() {
            return Err(SetupError::Start("there is no start tile".into()));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let bag: Vec<TileId> = match &setup.draw {
            Some(order) => order.iter().rev().copied().collect(),
            None => {
                let mut bag = full_bag(&rules, &start);
                bag.shuffle(&mut rng);
                bag
            }
        };
        // Only a ruleset with tiles of inner edges (start tiles only) has its bag searched.
        let searched = rules.tiles.iter().any(|t| t.has_inner_edge());
        let inner = searched.then(|| bag.iter().find(|t| rules.tile(**t).has_inner_edge()));
        if let Some(t) = inner.flatten() {
            return Err(SetupError::Start(format!(
                "tile `{}` has inner edges, so it can only be a start tile: lay every copy at the start",
                rules.tile(*t).id
            )));
        }
        let max_features = rules
            .tiles
            .iter()
            .map(|t| t.features().len())
            .max()
            .unwrap_or(0);
        let tiles = bag.len() + start.len();
        let mut game = Game {
            slots: Slots::default(),
            mechanics,
            stage: 0,
            pending: Pending::Starting,
            scores: vec![0; n],
            supply: vec![rules.figures.supply(); n],
            on_board: [[0; MAX_FIGURES]; MAX_PLAYERS],
            board: Board::new(tiles),
            features: Features::with_capacity(tiles * max_features),
            figures: Vec::new(),
            next_figure: 0,
            bag,
            rng,
            draws: 0,
            turn: 0,
            active: n - 1,
            tile: None,
            now: TurnState::default(),
            // Room for a placement and a deployment per tile (more actions are rare).
            history: History::from(Vec::with_capacity(2 * tiles)),
            scratch: Vec::new(),
            resume: None,
            offer: None,
            fault: None,
            last_round: None,
            rules,
            setup: Arc::new(setup),
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
        let mechanics = Arc::clone(&game.mechanics);
        for m in mechanics.on(Hooks::SETUP) {
            m.setup(&mut game, &mut events);
        }
        game.advance(&mechanics, &mut events);
        if let Some(e) = game.take_fault() {
            return Err(SetupError::Script(e));
        }
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
        self.rules
            .figures
            .find(kind)
            .map_or(0, |(i, _)| self.supply[player][i])
    }

    /// Figures of `kind` in `player`'s supply, to change (none for a kind the ruleset lacks).
    pub(crate) fn supply_mut(&mut self, player: usize, kind: FigureKind) -> Option<&mut u8> {
        let (i, _) = self.rules.figures.find(kind)?;
        self.supply.get_mut(player)?.get_mut(i)
    }

    /// Figures of `kind` of `player`'s on the board, to change with [`Game::figures`].
    fn on_board_mut(&mut self, player: usize, kind: FigureKind) -> Option<&mut u8> {
        let (i, _) = self.rules.figures.find(kind)?;
        self.on_board.get_mut(player)?.get_mut(i)
    }

    /// How many figures `player` has on the board of the kinds at `slots` of the figure table
    /// (its indices, as in `supply`).
    pub(crate) fn on_board(&self, player: usize, slots: &[usize]) -> usize {
        let counts = self.on_board.get(player);
        slots
            .iter()
            .filter_map(|i| counts?.get(*i))
            .map(|n| usize::from(*n))
            .sum()
    }

    /// Puts a figure of `owner`'s of `kind` on the segment `seg` (taken from wherever the
    /// caller took it) and returns its id.
    pub(crate) fn put_figure(&mut self, owner: usize, kind: FigureKind, seg: SegId) -> u32 {
        let id = self.next_figure;
        self.figures.push(Figure {
            id,
            owner,
            kind,
            seg,
        });
        self.next_figure += 1;
        if let Some(n) = self.on_board_mut(owner, kind) {
            *n += 1;
        }
        self.features.add_followers(seg, 1);
        id
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

    /// How many of each tile type are still to be laid (in the bag, held out of it by a
    /// mechanic, or drawn and waiting to be laid), by tile id: what every player can count, without the order of the
    /// draw.
    pub fn count_to_come(&self, counts: &mut Vec<u16>) {
        counts.clear();
        counts.resize(self.rules.tiles.len(), 0);
        let drawn = match self.decision().kind {
            DecisionKind::PlaceTile { tile } if self.tile == Some(tile) => Some(tile),
            _ => None,
        };
        let held = self
            .mechanics
            .on(Hooks::DRAW)
            .flat_map(|m| m.held_tiles(self));
        for t in self.bag.iter().chain(held).chain(&drawn) {
            if let Some(c) = counts.get_mut(*t as usize) {
                *c = c.saturating_add(1);
            }
        }
    }

    /// The tile laid this turn, if it is laid.
    pub fn placed_this_turn(&self) -> Option<PlacedId> {
        self.now.placed
    }

    /// Whether this turn is one a mechanic gave the player who just played (the second half of
    /// a builder's double turn, RULES.md §1.10).
    pub fn is_extra_turn(&self) -> bool {
        self.now.extra
    }

    /// Whether this turn is one half of a double turn: it is a turn a mechanic gave, or a
    /// mechanic says it earned another turn right after it (RULES.md §1.10, §7 A13).
    pub fn is_half_turn(&self) -> bool {
        self.now.extra
            || (self.mechanics)
                .on(Hooks::EXTRA_TURN)
                .any(|m| m.gives_extra_turn(self))
    }

    /// Whether a mechanic closes the whole deployment of this turn
    /// ([`Mechanic::deploy_closed`](crate::engine::mechanic::Mechanic::deploy_closed)).
    pub fn deploy_closed(&self) -> bool {
        (self.mechanics)
            .on(Hooks::CLOSES)
            .any(|m| m.deploy_closed(self))
    }

    /// Re-samples what no player can know, for a search bot's copy of a game: the order of
    /// the tiles still in the bag is shuffled anew and later reshuffles draw from a new
    /// generator, both from `seed`. The tiles themselves (and the drawn tile) stay; the result
    /// depends only on which tiles are left and `seed`, not on the copy's old order.
    pub fn resample_hidden(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.bag.sort_unstable();
        self.bag.shuffle(&mut self.rng);
    }

    /// A stand-in with no board that allocates nothing (the rules, set-up and mechanics are
    /// shared), used while a script hook borrows the real game and as the start of a copy.
    pub(crate) fn placeholder(&self) -> Game {
        Game {
            rules: Arc::clone(&self.rules),
            setup: Arc::clone(&self.setup),
            mechanics: Arc::clone(&self.mechanics),
            slots: Slots::default(),
            stage: 0,
            pending: Pending::Starting,
            scores: Vec::new(),
            supply: Vec::new(),
            on_board: [[0; MAX_FIGURES]; MAX_PLAYERS],
            board: Board::empty(),
            features: Features::default(),
            figures: Vec::new(),
            next_figure: 0,
            bag: Vec::new(),
            rng: self.rng.clone(),
            draws: 0,
            turn: 0,
            active: 0,
            tile: None,
            now: TurnState::default(),
            history: History::default(),
            scratch: Vec::new(),
            resume: None,
            offer: None,
            fault: None,
            last_round: None,
        }
    }

    /// Whether the game is in its last round: the bag is empty and players are offered, in
    /// turn, to lay a tile of a mechanic's own ([`Mechanic::own_tile`]).
    ///
    /// [`Mechanic::own_tile`]: crate::engine::mechanic::Mechanic::own_tile
    pub fn in_last_round(&self) -> bool {
        self.last_round.is_some()
    }

    /// The tile of a mechanic's own that `player` may lay now instead of drawing, if any.
    pub(crate) fn own_tile(&self, player: usize) -> Option<TileId> {
        self.mechanics
            .on(Hooks::OWN_TILE)
            .find_map(|m| m.own_tile(self, player))
    }

    /// Whether final scoring has happened.
    pub fn is_over(&self) -> bool {
        self.pending == Pending::Over
    }

    /// Turns begun so far.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The seat whose turn it is.
    pub fn active(&self) -> usize {
        self.active
    }

    /// Where a figure stands: its tile position and spot.
    pub fn figure_spot(&self, f: &Figure) -> (Pos, Spot) {
        self.seg_spot(f.seg)
    }

    /// The tile position and canonical spot of a segment.
    #[inline]
    pub fn seg_spot(&self, seg: SegId) -> (Pos, Spot) {
        let s = self.features.segment(seg);
        let pos = self.board.placed(s.placed).pos;
        let spots = &self.board.oriented(&self.rules.tiles, s.placed).spots;
        let spot = match spots.get(usize::from(s.feature)) {
            Some(spot) => *spot,
            None => overlay_spot(s.feature),
        };
        (pos, spot)
    }

    /// The segment at `spot` of the tile at `pos`, if there is one.
    #[inline]
    pub fn seg_at(&self, pos: Pos, spot: Spot) -> Option<SegId> {
        self.seg_spot_at(pos, spot).map(|(seg, _)| seg)
    }

    /// The segment at `spot` of the tile at `pos` and the canonical spot of its feature, if
    /// there is one: [`Game::seg_at`] and [`Game::seg_spot`] with one look at the tile.
    #[inline]
    pub fn seg_spot_at(&self, pos: Pos, spot: Spot) -> Option<(SegId, Spot)> {
        let placed = self.board.at(pos)?;
        let oriented = self.board.oriented(&self.rules.tiles, placed);
        let Some(f) = oriented.feature_at(spot) else {
            return self.overlay_at(placed, spot);
        };
        let seg = self.board.placed(placed).seg_base + u32::from(f);
        Some((seg, oriented.spots[usize::from(f)]))
    }

    /// The overlay road of the tile `placed` at `spot` (an edge it reaches, where nothing is
    /// printed) and its canonical spot, if it has one there.
    #[cold]
    #[inline(never)]
    fn overlay_at(&self, placed: PlacedId, spot: Spot) -> Option<(SegId, Spot)> {
        let Spot::Edge(e) = spot else { return None };
        let edges = self.board.overlay(placed);
        if edges & (1 << e as u8) == 0 {
            return None;
        }
        let seg = self.board.overlay_seg(placed)?;
        Some((seg, overlay_spot(OVERLAY | edges)))
    }

    /// Lays a road across the placed tile `placed`, reaching its edges `edges` (bit `i` = edge
    /// `i`), over whatever is printed there: a segment of its own (printed fields and cities
    /// under it stay whole), joined to the roads of the tiles across those edges, and from
    /// now on those edges are road edges for the tiles laid beside them. The caller checks
    /// that the edges are field edges and that the tile has no overlay yet. Returns the new
    /// segment.
    pub(crate) fn add_overlay_road(&mut self, placed: PlacedId, edges: u8) -> SegId {
        let segment = Segment {
            placed,
            feature: OVERLAY | (edges & 0x0F),
            kind: FeatureKind::Road,
        };
        let totals = Totals {
            open: edges.count_ones(),
            ..Totals::default()
        };
        let seg = self.features.add_overlay(segment, totals);
        let tiles = &self.rules.tiles;
        self.board.add_overlay(tiles, placed, edges, seg);
        let (board, features) = (&self.board, &mut self.features);
        board.each_beside(placed, |e, other| {
            if edges & (1 << e as u8) == 0 {
                return;
            }
            if let Some(theirs) = road_across(board, tiles, other, e.opposite()) {
                features.join(seg, theirs, 1);
            }
        });
        seg
    }

    /// The mechanic at index `by` (the list is fixed for the game).
    fn mechanic(&self, by: u8) -> Option<&dyn crate::engine::mechanic::Mechanic> {
        self.mechanics.get(by)
    }

    /// The mechanic's decision that is pending, if one is (not when the game is over).
    pub(crate) fn asked(&self) -> Option<Asked> {
        match self.pending {
            Pending::Asked(a) => Some(a),
            Pending::Over | Pending::Starting => None,
        }
    }

    /// The pending decision.
    pub fn decision(&self) -> Decision {
        let over = Decision {
            player: self.active,
            kind: DecisionKind::GameOver,
        };
        match self.pending {
            Pending::Over | Pending::Starting => over,
            Pending::Asked(a) => self
                .mechanic(a.by)
                .and_then(|m| m.decision(self, a))
                .unwrap_or(over),
        }
    }

    /// Appends every legal answer to the pending decision to `out`: the asking mechanic's, the
    /// other mechanics' additions (the fairy's moves at deployment), then `pass` where the
    /// decision may be declined.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        self.list_actions(out, |m, a, out| m.actions(self, a, out));
    }

    /// Appends the legal answers that matter around the tile at `pos` to `out`: those of
    /// [`Game::legal_actions`], in its order, less some or all of the deployments on other
    /// tiles and of the fairy's moves ([`Shortcuts::actions_near`]); for a look-ahead that
    /// leaves those out anyway (the greedy bot's).
    ///
    /// [`Shortcuts::actions_near`]: crate::engine::mechanic::Shortcuts::actions_near
    pub fn legal_actions_near(&self, pos: Pos, out: &mut Vec<Action>) {
        self.list_actions(out, |m, a, out| {
            if !m.actions_near(self, a, pos, out) {
                m.actions(self, a, out);
            }
        });
    }

    /// The legal list, with each mechanic's part listed by `part`.
    fn list_actions(
        &self,
        out: &mut Vec<Action>,
        part: impl Fn(&dyn crate::engine::mechanic::Mechanic, Asked, &mut Vec<Action>),
    ) {
        let Pending::Asked(a) = self.pending else {
            return;
        };
        if let Some(offer) = &self.offer {
            out.extend_from_slice(offer);
            return;
        }
        for m in self.mechanics.listing(a) {
            part(m, a, out);
        }
        if self.mechanic(a.by).is_some_and(|m| m.may_pass(self, a)) {
            out.push(Action::Pass);
        }
    }

    /// One legal answer to the pending decision, as `pick(n)` chooses among the `n` that
    /// [`Game::legal_actions`] lists (its index in that list), or `None` when there is none
    /// (`pick` is not called): [`Game::tally_legal`], then [`Game::nth_legal`]. The same `pick`
    /// gives the same answer as indexing the legal list.
    pub fn pick_legal(
        &self,
        scratch: &mut Vec<Action>,
        pick: impl FnOnce(usize) -> usize,
    ) -> Option<Action> {
        let mut tally = Tally::default();
        self.tally_legal(&mut tally, scratch);
        if tally.is_empty() {
            return None;
        }
        self.nth_legal(&tally, scratch, pick(tally.len()))
    }

    /// Counts the legal answers to the pending decision into `tally`, without building them
    /// where the rules can. The answers come in the same parts as in [`Game::legal_actions`]:
    /// the asking mechanic's, each other mechanic's additions, then `pass`. A mechanic that can
    /// count its part ([`Shortcuts::count_actions`]) is only counted; the others' parts are
    /// listed in `scratch` (cleared first), which [`Game::nth_legal`] reads with the tally.
    /// (The tally is filled in place: it is too big to be returned without a copy.)
    ///
    /// [`Shortcuts::count_actions`]: crate::engine::mechanic::Shortcuts::count_actions
    #[inline]
    pub fn tally_legal(&self, tally: &mut Tally, scratch: &mut Vec<Action>) {
        scratch.clear();
        (tally.listed, tally.pass, tally.total) = (0, false, 0);
        let Pending::Asked(a) = self.pending else {
            return;
        };
        if let Some(offer) = &self.offer {
            tally.total = offer.len();
            return;
        }
        for (i, m) in self.mechanics.listing(a).enumerate() {
            let size = m.count_actions(self, a).unwrap_or_else(|| {
                tally.listed |= 1 << i;
                let before = scratch.len();
                m.actions(self, a, scratch);
                scratch.len() - before
            });
            // No decision has four billion answers.
            tally.sizes[i] = u32::try_from(size).unwrap_or(u32::MAX);
            tally.total += size;
        }
        tally.pass = self.mechanic(a.by).is_some_and(|m| m.may_pass(self, a));
        tally.total += usize::from(tally.pass);
    }

    /// The `k`-th answer of [`Game::legal_actions`] (`None` past the end), from the `tally` and
    /// the `scratch` list that [`Game::tally_legal`] gave for this very state: a counted part
    /// builds only the answer picked from it ([`Shortcuts::nth_action`]).
    ///
    /// [`Shortcuts::nth_action`]: crate::engine::mechanic::Shortcuts::nth_action
    #[inline]
    pub fn nth_legal(&self, tally: &Tally, scratch: &[Action], k: usize) -> Option<Action> {
        let Pending::Asked(a) = self.pending else {
            return None;
        };
        if let Some(offer) = &self.offer {
            return offer.get(k).copied();
        }
        let (mut k, mut start) = (k, 0);
        for (i, m) in self.mechanics.listing(a).enumerate() {
            let size = tally.sizes[i] as usize;
            let listed = tally.listed & 1 << i != 0;
            if k < size {
                return if listed {
                    scratch.get(start + k).copied()
                } else {
                    m.nth_action(self, a, k, size)
                };
            }
            k -= size;
            if listed {
                start += size;
            }
        }
        (tally.pass && k == 0).then_some(Action::Pass)
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
        self.check(action)?;
        self.carry_out(action, events)
    }

    /// Like [`Game::apply_into`] for an action taken from [`Game::legal_actions`] of this very
    /// state, as bots and searches take theirs: the rules are not checked a second time (debug
    /// builds still check). Anything else must go through [`Game::apply`]: an unchecked action
    /// that is not legal would lead the game where no rule goes. A failing script still undoes
    /// the action and returns its error; a game that is over refuses every action.
    pub fn apply_legal(
        &mut self,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.pending == Pending::Over {
            return Err(RuleError::GameOver);
        }
        debug_assert_eq!(self.check(action), Ok(()), "{action:?} is not legal here");
        self.carry_out(action, events)
    }

    /// Carries out a checked action: the history, the answer and what follows up to the next
    /// decision, undone if a script fails.
    fn carry_out(&mut self, action: &Action, events: &mut Vec<Event>) -> Result<(), RuleError> {
        // Scripts get a fresh time and memory budget for each action.
        let _budget = self.scripted().then(crate::engine::budget::Budget::action);
        let (kept, len) = (self.history.len(), events.len());
        self.history.push(*action);
        self.answer(action, events);
        if let Some(e) = self.take_fault() {
            // A failing script hook leaves the game as it was before the action.
            self.roll_back(kept);
            events.truncate(len);
            return Err(RuleError::Script(e));
        }
        Ok(())
    }

    /// Carries out a checked action and runs on to the next decision.
    fn answer(&mut self, action: &Action, events: &mut Vec<Event>) {
        let Pending::Asked(a) = self.pending else {
            return;
        };
        let mechanics = Arc::clone(&self.mechanics);
        let decision = mechanics.any(Hooks::ANSWERED).then(|| self.decision());
        let then = mechanics
            .answerers(a.by, action)
            .find_map(|m| m.apply(self, a, action, events))
            .unwrap_or(Then::Next);
        if then == Then::Resume {
            return self.resume(&mechanics, events);
        }
        if let Some(decision) = decision {
            for m in mechanics.on(Hooks::ANSWERED) {
                m.answered(self, decision, events);
            }
        }
        if then == Then::Next {
            self.stage += 1;
        }
        self.advance(&mechanics, events);
    }

    /// After a decision that interrupted the turn: the next interjection, the decision that
    /// waited, or onwards from the stage where the turn stands.
    fn resume(&mut self, mechanics: &Mechanics, events: &mut Vec<Event>) {
        if let Some(a) = self.interjection() {
            self.wait(mechanics, Pending::Asked(a));
        } else if let Some(p) = self.resume.take() {
            self.wait(mechanics, p);
        } else {
            self.advance(mechanics, events);
        }
    }

    /// Checks an action against the pending decision without changing anything.
    fn check(&self, action: &Action) -> Result<(), RuleError> {
        let Pending::Asked(a) = self.pending else {
            return Err(RuleError::GameOver);
        };
        if let Some(offer) = &self.offer {
            // With scripts the legal list was computed (and filtered) once: it decides.
            if offer.contains(&self.canonical(action)) {
                return Ok(());
            }
            // A rule of the mechanics names itself; otherwise a script left the action out.
            return match self.check_asked(a, action) {
                Err(e @ (RuleError::IllegalAction { .. } | RuleError::IllegalPlacement { .. })) => {
                    Err(e)
                }
                _ => Err(RuleError::IllegalAction {
                    rule: RuleId("script"),
                    reason: format!("{} is not among the legal choices", words::action(action)),
                }),
            };
        }
        self.check_asked(a, action)
    }

    /// Checks an action against the mechanics' rules for the pending decision `a`.
    fn check_asked(&self, a: Asked, action: &Action) -> Result<(), RuleError> {
        if *action == Action::Pass && self.mechanic(a.by).is_some_and(|m| m.may_pass(self, a)) {
            return Ok(());
        }
        if !self.mechanics.routes_to(Route::of(action)) {
            return Err(RuleError::WrongDecision(format!(
                "{} belongs to rules this game does not play; wanted: {}",
                words::action(action),
                self.hint(a)
            )));
        }
        self.mechanics
            .answerers(a.by, action)
            .find_map(|m| m.check(self, a, action))
            .unwrap_or_else(|| Err(RuleError::WrongDecision(self.hint(a))))
    }

    /// What the pending decision `a` wants, for a wrong kind of answer.
    fn hint(&self, a: Asked) -> String {
        self.mechanic(a.by)
            .map_or("the game is over", |m| m.hint(a))
            .to_string()
    }

    /// An action checked against a legal list generically: it must be among the legal
    /// answers (with its spot made canonical); the error names `rule` and lists them.
    pub(crate) fn check_listed(&self, action: &Action, rule: RuleId) -> Result<(), RuleError> {
        let legal = self.legal();
        if legal.contains(&self.canonical(action)) {
            return Ok(());
        }
        Err(RuleError::not_listed(action, &legal, rule))
    }

    /// The action with its spot replaced by the canonical name of the feature there (a
    /// mechanic may have its own canonical form, as the fairy and the Count have).
    pub(crate) fn canonical(&self, action: &Action) -> Action {
        if let Some(own) = self
            .mechanics
            .on(Hooks::ACTIONS)
            .find_map(|m| m.canonical(self, action))
        {
            return own;
        }
        match *action {
            Action::Deploy { pos, spot, figure } => Action::Deploy {
                pos,
                spot: self.canonical_spot(pos, spot),
                figure,
            },
            other => other,
        }
    }

    /// The canonical spot of the feature at `spot` of the tile at `pos` (`spot` itself when
    /// there is none).
    pub(crate) fn canonical_spot(&self, pos: Pos, spot: Spot) -> Spot {
        self.seg_spot_at(pos, spot)
            .map_or(spot, |(_, canonical)| canonical)
    }

    /// A decision some mechanic wants answered before anything else.
    fn interjection(&self) -> Option<Asked> {
        self.mechanics
            .on(Hooks::OFFER)
            .find_map(|m| m.interject(self))
    }

    /// Waits for `pending`; `mechanics` (the game's) may prepare its legal list once.
    fn wait(&mut self, mechanics: &Mechanics, pending: Pending) {
        self.pending = pending;
        self.offer = None;
        if pending == Pending::Over {
            return;
        }
        for m in mechanics.on(Hooks::OFFER) {
            m.decision_ready(self);
        }
    }

    /// Runs the stages of `mechanics` (the game's) until one needs a decision.
    fn advance(&mut self, mechanics: &Mechanics, events: &mut Vec<Event>) {
        let stages = mechanics.stages();
        loop {
            if self.fault.is_some() {
                return;
            }
            if let Some(a) = self.interjection() {
                self.wait(mechanics, Pending::Asked(a));
                return;
            }
            if self.stage >= stages.len() {
                self.stage = 0;
            }
            let asked =
                (mechanics.stage(self.stage)).and_then(|(m, phase)| m.stage(self, phase, events));
            if self.pending == Pending::Over {
                return;
            }
            if let Some(a) = asked {
                match self.interjection() {
                    // Hooks of this stage asked questions: they come first.
                    Some(q) => {
                        self.resume = Some(Pending::Asked(a));
                        self.wait(mechanics, Pending::Asked(q));
                    }
                    None => self.wait(mechanics, Pending::Asked(a)),
                }
                return;
            }
            self.stage += 1;
        }
    }

    /// Ends the game: the mechanics' final scoring in order (any may ask decisions first, and
    /// is asked again after each), then their end-of-game hooks and [`Event::GameEnded`].
    /// Returns the decision asked, if any.
    pub(crate) fn finish(&mut self, events: &mut Vec<Event>) -> Option<Asked> {
        let mechanics = Arc::clone(&self.mechanics);
        for m in mechanics.on(Hooks::FINAL) {
            if let Some(a) = m.final_scoring(self, events) {
                return Some(a);
            }
        }
        self.tile = None;
        for m in mechanics.on(Hooks::FINAL) {
            m.game_end(self, events);
        }
        events.push(Event::GameEnded {
            scores: self.scores.clone(),
        });
        self.pending = Pending::Over;
        // The last decision's list (scripts') is no answer to anything now.
        self.offer = None;
        None
    }

    /// The game's mechanics, shared anew so that their `hook` may change the game, or `None`
    /// (nothing is shared) when no mechanic implements `hook`.
    pub(crate) fn implementing(&self, hook: Hooks) -> Option<Arc<Mechanics>> {
        self.mechanics
            .any(hook)
            .then(|| Arc::clone(&self.mechanics))
    }

    /// Whether the draw limit of the set-up (`end_after`) is reached.
    pub(crate) fn draw_limit_reached(&self) -> bool {
        self.setup.end_after.is_some_and(|n| self.draws >= n)
    }

    /// Draws until a tile can be placed, asking the mechanics about each tile; returns `false`
    /// when nothing is left to draw (the game must end). A tile a mechanic deals the player
    /// ([`Mechanic::dealt_tile`]) comes before the bag.
    ///
    /// [`Mechanic::dealt_tile`]: crate::engine::mechanic::Mechanic::dealt_tile
    pub(crate) fn draw(&mut self, events: &mut Vec<Event>) -> bool {
        loop {
            let dealt = self.dealt_tile();
            let Some(tile) = dealt.or_else(|| self.take_from_bag(events)) else {
                return false;
            };
            let (player, name) = (self.active, self.tile_name(tile));
            // A dealt tile is told as such even when it then fits nowhere: it left no bag.
            if dealt.is_some() {
                events.push(Event::TileDealt {
                    player,
                    tile: name.clone(),
                });
            }
            if !self.board.fits_somewhere(&self.rules.tiles, tile) && !self.fits_otherwise(tile) {
                events.push(Event::TileDiscarded { player, tile: name });
                continue;
            }
            if dealt.is_none() {
                events.push(Event::TileDrawn { player, tile: name });
            }
            self.tile = Some(tile);
            return true;
        }
    }

    /// Takes the next tile from the bag as a draw, asking the mechanics about it (one may set
    /// it aside: then the next); `None` when nothing can be drawn. Whether it fits is not
    /// asked: a mechanic that reveals tiles takes them so. (Inline: every turn's draw comes
    /// here.)
    #[inline(always)]
    pub(crate) fn take_from_bag(&mut self, events: &mut Vec<Event>) -> Option<TileId> {
        let mechanics = self.implementing(Hooks::DRAW);
        let hooked = || mechanics.iter().flat_map(|m| m.on(Hooks::DRAW));
        loop {
            if self.draw_limit_reached() || hooked().any(|m| m.draw_over(self)) {
                return None;
            }
            let tile = self.bag.pop()?;
            self.draws += 1;
            if !hooked().any(|m| m.drawn(self, tile, events) == Drawn::Out) {
                return Some(tile);
            }
        }
    }

    /// The tile a mechanic deals the active player for this turn, if one does.
    fn dealt_tile(&mut self) -> Option<TileId> {
        let mechanics = self.implementing(Hooks::INSERTED)?;
        mechanics
            .on(Hooks::INSERTED)
            .find_map(|m| m.dealt_tile(self))
    }

    /// Whether a mechanic can have `tile` laid though no placement fits the edge rules alone.
    fn fits_otherwise(&self, tile: TileId) -> bool {
        (self.mechanics)
            .on(Hooks::DRAW)
            .any(|m| m.fits_otherwise(self, tile))
    }

    /// Why the drawn tile may not lie at `pos` turned `rotation`, if it may not (B-P1, B-P2, and
    /// the mechanics' placement filters).
    pub(crate) fn placement_problem(&self, pos: Pos, rotation: Rotation) -> Option<Refusal> {
        self.tile_placement_problem(self.tile, pos, rotation)
    }

    /// Why `tile` (the drawn one, or a mechanic's own) may not lie at `pos` turned `rotation`,
    /// if it may not ([`Game::placement_problem`]).
    pub(crate) fn tile_placement_problem(
        &self,
        tile: Option<TileId>,
        pos: Pos,
        rotation: Rotation,
    ) -> Option<Refusal> {
        let fits = tile.is_some_and(|tile| self.board.fits(&self.rules.tiles, tile, pos, rotation));
        if !fits {
            return Some(if self.board.at(pos).is_some() {
                Refusal::new("B-P1", "that position is taken")
            } else if !self.board.is_open(pos) {
                Refusal::new("B-P1", "it must share an edge with a placed tile")
            } else if tile.is_some_and(|t| self.rules.tile(t).lies == Lies::InHoles) {
                Refusal::new(
                    "tiles.holes_only",
                    "this tile goes only into a hole, an empty place with all four neighbours placed",
                )
            } else {
                Refusal::new("B-P2", "an edge does not match its neighbour")
            });
        }
        let tile = tile?;
        self.mechanics
            .on(Hooks::PLACEMENT)
            .find_map(|m| m.placement_allowed(self, tile, pos, rotation))
    }

    /// Lays a tile: board, segments, joins with the neighbours.
    pub(crate) fn lay(&mut self, tile: TileId, pos: Pos, rotation: Rotation) -> PlacedId {
        let tiles = &self.rules.tiles;
        let oriented = tiles[tile as usize].at(rotation);
        let seg_base = self.features.len() as u32;
        let placed = self.board.put(tile, pos, rotation, seg_base, oriented);
        let parts = oriented.features.iter().zip(&oriented.sides).enumerate();
        self.features.add(parts.map(|(i, (f, &sides))| {
            let segment = Segment {
                placed,
                feature: i as u8,
                kind: f.kind,
            };
            let totals = Totals {
                open: sides.into(),
                pennants: f.pennants.into(),
                counters: f.counters,
                followers: 0,
            };
            (segment, totals)
        }));
        let (board, features) = (&self.board, &mut self.features);
        board.each_beside(placed, |e, other| {
            let theirs = board.oriented(tiles, other);
            let their_base = board.placed(other).seg_base;
            // A wild edge joins nothing: it ends what the other side has there.
            if (oriented.wild | theirs.wild) != 0
                && seal_across(features, e, (oriented, seg_base), (theirs, their_base))
            {
                return;
            }
            let mut join = |(mine, their): (u8, u8), borders| {
                if mine != NO_FEATURE && their != NO_FEATURE {
                    features.join(seg_base + mine as u32, their_base + their as u32, borders);
                }
            };
            join(
                (
                    oriented.edge_feature[e as usize],
                    theirs.edge_feature[e.opposite() as usize],
                ),
                1,
            );
            let [first, second] = [2 * e as usize, 2 * e as usize + 1].map(|h| {
                (
                    oriented.half_feature[h],
                    theirs.half_feature[facing_half(h)],
                )
            });
            // A field on both halves of the edge, on both sides: one joint of two borders.
            if first == second {
                join(first, 2);
            } else {
                join(first, 1);
                join(second, 1);
            }
        });
        if self.board.has_overlays() {
            self.join_overlays_beside(placed);
        }
        placed
    }

    /// Joins the roads of the tile `placed`, just laid, to the overlay roads crossing the
    /// edges of the tiles beside it (edges match, so a road meets nothing printed only there).
    #[cold]
    #[inline(never)]
    fn join_overlays_beside(&mut self, placed: PlacedId) {
        let tiles = &self.rules.tiles;
        let (board, features) = (&self.board, &mut self.features);
        let oriented = board.oriented(tiles, placed);
        let seg_base = board.placed(placed).seg_base;
        board.each_beside(placed, |e, other| {
            let mine = oriented.edge_feature[e as usize];
            let theirs = board.oriented(tiles, other).edge_feature[e.opposite() as usize];
            if mine == NO_FEATURE || theirs != NO_FEATURE {
                return;
            }
            if let Some(road) = road_across(board, tiles, other, e.opposite()) {
                features.join(seg_base + u32::from(mine), road, 1);
            }
        });
    }

    /// Whether the tile laid this turn carries `symbol` (the mechanic that gives the symbol
    /// its rule checks that it is on).
    pub(crate) fn placed_symbol(&self, symbol: Symbol) -> bool {
        self.now.symbol == Some(symbol)
    }

    // -----------------------------------------------------------------------------------------
    // Features and scoring: the shared operations every mechanic uses.

    /// Whether the feature of `seg` is complete: a closed road or city, or a surrounded
    /// cloister or garden (RULES.md §1.5). Fields are complete when enclosed (used by the
    /// portal only).
    pub fn is_complete(&self, seg: SegId) -> bool {
        let s = self.features.segment(seg);
        self.complete_at(seg, s.kind, self.board.placed(s.placed).pos)
    }

    /// Whether the feature of `seg`, of `kind` on the tile at `pos`, is complete
    /// ([`Game::is_complete`]).
    #[inline]
    fn complete_at(&self, seg: SegId, kind: FeatureKind, pos: Pos) -> bool {
        // Only the facts its kind is judged by are read.
        let (totals, neighbours) = match kind {
            FeatureKind::Cloister | FeatureKind::Garden => {
                (Totals::default(), self.board.neighbours(pos))
            }
            _ => (self.features.totals(seg), 0),
        };
        is_complete_by(kind, &totals, neighbours)
    }

    /// Roads, cities, cloisters and gardens completed by laying `placed`, in a fixed order: the
    /// tile's own features first, then the cloisters and gardens around it clockwise from north
    /// (B-M5). Every feature of the tile and every cloister or garden around it is looked at:
    /// [`Game::completes_nothing`] tells most tiles apart without this look.
    pub(crate) fn completed_by(&self, placed: PlacedId) -> Completed {
        let mut done = Completed::default();
        let p = *self.board.placed(placed);
        let oriented = self.board.oriented(&self.rules.tiles, placed);
        for (i, f) in oriented.features.iter().enumerate() {
            let seg = p.seg_base + i as u32;
            if f.kind != FeatureKind::Field
                && self.complete_at(seg, f.kind, p.pos)
                && !done.iter().any(|d| self.features.same(*d, seg))
                && !self.is_withheld(seg)
            {
                done.push(seg);
            }
        }
        // An overlay road laid across the tile this turn.
        if let Some(seg) = self.board.overlay_seg(placed)
            && self.features.closed(seg)
            && !done.iter().any(|d| self.features.same(*d, seg))
        {
            done.push(seg);
        }
        // The roads and cities of the neighbours its wild edges ended.
        if oriented.wild != 0 {
            self.board.each_beside(placed, |e, other| {
                let f = self.board.oriented(&self.rules.tiles, other).edge_feature
                    [e.opposite() as usize];
                let seg = self.board.placed(other).seg_base + u32::from(f);
                if oriented.wild & (1 << e as u8) != 0
                    && f != NO_FEATURE
                    && self.is_complete(seg)
                    && !done.iter().any(|d| self.features.same(*d, seg))
                    && !self.is_withheld(seg)
                {
                    done.push(seg);
                }
            });
        }
        // A cloister or garden is complete when its 8 neighbours are there.
        self.board.each_surrounded_around(placed, |n| {
            if let Some(c) = self.cloister_segment(n)
                && self.is_complete(c)
            {
                done.push(c);
            }
        });
        done
    }

    /// Takes the feature of `seg`, which the tile laid this turn completed, out of this turn's
    /// scoring: a mechanic turned it into something else before it was scored, so neither the
    /// base game nor a mechanic that scores in its place pays it ([`Game::completed_by`] leaves
    /// it out). It stays a completed feature of the board.
    pub(crate) fn withhold_from_scoring(&mut self, seg: SegId) {
        if !self.is_withheld(seg) {
            self.now.withheld.push(seg);
        }
    }

    /// Whether the feature of `seg` was taken out of this turn's scoring.
    fn is_withheld(&self, seg: SegId) -> bool {
        (self.now.withheld.iter()).any(|w| self.features.same(*w, seg))
    }

    /// Whether laying `placed` surely completed nothing ([`Game::completed_by`] finds none), as
    /// the newest tile tells cheaply (most tiles): its roads and cities close by its own joins
    /// only (the features tell whether any closed a feature), its cloister or garden only if it
    /// lies surrounded, and those around it only if it surrounded them (the board tells).
    pub(crate) fn completes_nothing(&self, placed: PlacedId) -> bool {
        usize::from(placed) + 1 == self.board.tiles().len()
            && !self.features.closed_lately()
            && !self.board.newest_surrounded_any()
            && self.board.neighbours(self.board.placed(placed).pos) < 8
    }

    fn cloister_segment(&self, placed: PlacedId) -> Option<SegId> {
        let o = self.board.oriented(&self.rules.tiles, placed);
        o.feature_at(Spot::Cloister)
            .map(|f| self.board.placed(placed).seg_base + f as u32)
    }

    /// Each player's strength in the feature of `seg` (B-M1).
    pub(crate) fn strength(&mut self, seg: SegId) -> Strength {
        let mut strength = Strength::new(self.scores.len());
        let (key, totals) = self.features.root_totals(seg);
        // The totals count every figure in the feature: most features have none to look for.
        if totals.followers > 0 {
            for f in &self.figures {
                if self.features.root(f.seg) == key {
                    strength[f.owner] += self.rules.figures.strength(f.kind);
                }
            }
        }
        let kind = self.features.segment(seg).kind;
        self.add_strength(key, kind, &mut strength);
        strength
    }

    /// Adds the mechanics' strength (figures that stand on no tile, such as the Count's
    /// followers) in the feature `key` of kind `kind` to `strength`.
    pub(crate) fn add_strength(&mut self, key: SegId, kind: FeatureKind, strength: &mut [u32]) {
        let Some(mechanics) = self.implementing(Hooks::STRENGTH) else {
            return;
        };
        for m in mechanics.on(Hooks::STRENGTH) {
            m.strength(self, key, kind, strength);
        }
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
        if best == 0 || points == 0 {
            return;
        }
        for (player, s) in strength.iter().enumerate() {
            if *s == best {
                self.award(player, points, feature, rule, at, events);
            }
        }
    }

    /// Gives `points` to one player.
    pub(crate) fn award(
        &mut self,
        player: usize,
        points: u32,
        feature: FeatureKind,
        rule: &'static str,
        at: Pos,
        events: &mut Vec<Event>,
    ) {
        let scored = Event::Scored {
            player,
            points,
            feature,
            rule,
            x: at.x,
            y: at.y,
        };
        self.credit(player, points, scored, events);
    }

    /// Gives `points` to one player and logs `event`, the event that says what paid them (the
    /// base game's `Scored`, or a mechanic's own scoring event such as the fairy's point or a
    /// goods majority).
    pub(crate) fn credit(
        &mut self,
        player: usize,
        points: u32,
        event: Event,
        events: &mut Vec<Event>,
    ) {
        self.scores[player] += points;
        events.push(event);
    }

    /// Sends home every figure that `which` selects.
    pub(crate) fn return_figures(
        &mut self,
        which: impl Fn(&Features, &Figure) -> bool,
        reason: ReturnReason,
        events: &mut Vec<Event>,
    ) {
        let mut i = 0;
        while let Some(&f) = self.figures.get(i) {
            if which(&self.features, &f) {
                let pos = self.seg_pos(f.seg);
                self.figures.remove(i);
                if let Some(s) = self.supply_mut(f.owner, f.kind) {
                    *s += 1;
                }
                if let Some(n) = self.on_board_mut(f.owner, f.kind) {
                    *n -= 1;
                }
                self.features.add_followers(f.seg, -1);
                self.departed(&Departure::Feature(f), reason);
                events.push(Event::FigureReturned {
                    player: f.owner,
                    figure: f.kind,
                    x: pos.x,
                    y: pos.y,
                    reason,
                });
                // A `figure_left` hook may send other figures home at once, before `f` too
                // (Traders & Builders defers its orphaned builders and pigs, but a mechanic
                // need not): go on with the first figure after `f`, wherever it now stands.
                i = self.figures.partition_point(|g| g.id < f.id);
            } else {
                i += 1;
            }
        }
    }

    /// Tells the mechanics that hear it ([`Mechanic::figure_left`]) that a figure left the
    /// board.
    ///
    /// [`Mechanic::figure_left`]: crate::engine::mechanic::Mechanic::figure_left
    pub(crate) fn departed(&mut self, left: &Departure, reason: ReturnReason) {
        let mechanics = self.implementing(Hooks::FIGURE_LEFT);
        for m in mechanics.iter().flat_map(|m| m.on(Hooks::FIGURE_LEFT)) {
            m.figure_left(self, left, reason);
        }
    }

    /// Tiles and pennants of the feature of `seg` (a cloister or garden counts itself and its
    /// neighbours).
    pub(crate) fn size(&mut self, seg: SegId) -> Size {
        let s = *self.features.segment(seg);
        if matches!(s.kind, FeatureKind::Cloister | FeatureKind::Garden) {
            let pos = self.board.placed(s.placed).pos;
            return Size {
                tiles: 1 + self.board.neighbours(pos),
                pennants: 0,
            };
        }
        let mut members = std::mem::take(&mut self.scratch);
        members.clear();
        self.features.members(seg, &mut members);
        for m in members.iter_mut() {
            *m = self.features.segment(*m).placed as SegId;
        }
        members.sort_unstable();
        members.dedup();
        let tiles = members.len() as u32;
        self.scratch = members;
        Size {
            tiles,
            pennants: self.features.totals(seg).pennants,
        }
    }

    /// Puts a tile into the bag at a random place, keeping the order of the others (so a
    /// record's forced draw order stays as written).
    pub(crate) fn insert_at_random(&mut self, tile: TileId) {
        use rand::RngExt;
        let at = self.rng.random_range(0..=self.bag.len());
        self.bag.insert(at, tile);
    }

    /// The position of the tile holding segment `seg`.
    pub(crate) fn seg_pos(&self, seg: SegId) -> Pos {
        self.board.placed(self.features.segment(seg).placed).pos
    }

    /// The segments of the tile `placed`: its printed features (numbered together), then the
    /// road laid across it, if any ([`Game::add_overlay_road`]).
    #[inline(always)]
    pub(crate) fn tile_segs(&self, placed: PlacedId) -> TileSegs {
        let base = self.board.placed(placed).seg_base;
        let n = self
            .board
            .oriented(&self.rules.tiles, placed)
            .features
            .len() as SegId;
        TileSegs {
            printed: base..base + n,
            overlay: self.board.overlay_seg(placed),
        }
    }

    pub(crate) fn tile_name(&self, tile: TileId) -> Arc<str> {
        Arc::clone(&self.rules.tile(tile).id)
    }
}

/// The segments of one placed tile (`Game::tile_segs`), in order: its printed features,
/// then the road laid across it, if any.
#[derive(Clone, Debug)]
pub struct TileSegs {
    printed: std::ops::Range<SegId>,
    overlay: Option<SegId>,
}

impl TileSegs {
    /// Whether `seg` lies on the tile.
    #[inline]
    pub fn contains(&self, seg: &SegId) -> bool {
        self.printed.contains(seg) || self.overlay == Some(*seg)
    }
}

impl Iterator for TileSegs {
    type Item = SegId;

    fn next(&mut self) -> Option<SegId> {
        self.printed.next().or_else(|| self.overlay.take())
    }
}

/// The canonical spot of an overlay segment whose [`Segment::feature`] is `feature`: its first
/// edge.
#[cold]
#[inline(never)]
fn overlay_spot(feature: u8) -> Spot {
    let edges = feature & 0x0F;
    Spot::Edge(Edge::from_index((edges.trailing_zeros() as usize).min(3)))
}

/// The road segment of the placed tile `id` that reaches its edge `e`: the printed road there,
/// or an overlay road crossing it.
#[cold]
#[inline(never)]
fn road_across(board: &Board, tiles: &[TileType], id: PlacedId, e: Edge) -> Option<SegId> {
    let f = board.oriented(tiles, id).edge_feature[e as usize];
    if f != NO_FEATURE {
        let printed = board.oriented(tiles, id).edge_kind(e) == EdgeKind::Road;
        return printed.then(|| board.placed(id).seg_base + u32::from(f));
    }
    if board.overlay(id) & (1 << e as u8) != 0 {
        return board.overlay_seg(id);
    }
    None
}

/// Whether a feature of `kind` is complete (RULES.md §1.5), from its `totals` (a road, city or
/// field: no open edge) or the `neighbours` of its tile (a cloister or garden: all 8).
#[inline]
pub(crate) fn is_complete_by(kind: FeatureKind, totals: &Totals, neighbours: u32) -> bool {
    match kind {
        FeatureKind::Cloister | FeatureKind::Garden => neighbours == 8,
        _ => totals.open == 0,
    }
}

/// How big a feature is: what its value is computed from (RULES.md §1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Distinct tiles the feature covers (for a cloister: 1 + neighbouring tiles).
    pub tiles: u32,
    /// Pennants in a city.
    pub pennants: u32,
}

/// Each player's strength in a feature (B-M1), by seat, kept without the heap.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Strength {
    by_seat: [u32; MAX_PLAYERS],
    seats: usize,
}

impl Strength {
    /// No strength for any of `seats` players (at most [`MAX_PLAYERS`], as every game has).
    pub(crate) fn new(seats: usize) -> Strength {
        Strength {
            by_seat: [0; MAX_PLAYERS],
            seats: seats.min(MAX_PLAYERS),
        }
    }
}

impl std::ops::Deref for Strength {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        &self.by_seat[..self.seats]
    }
}

impl std::ops::DerefMut for Strength {
    fn deref_mut(&mut self) -> &mut [u32] {
        &mut self.by_seat[..self.seats]
    }
}

/// The features a laid tile completed ([`Game::completed_by`]), kept without the heap: at most
/// one per feature of the tile and one per cloister or garden around it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Completed {
    segs: [SegId; MAX_TILE_FEATURES + 8],
    len: usize,
}

impl Completed {
    fn push(&mut self, seg: SegId) {
        // Room for every feature of a tile and the 8 tiles around it.
        if let Some(slot) = self.segs.get_mut(self.len) {
            *slot = seg;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Completed {
    type Target = [SegId];

    fn deref(&self) -> &[SegId] {
        &self.segs[..self.len]
    }
}

/// Makes `to` share what `from` shares, unless it already does.
fn share<T>(to: &mut Arc<T>, from: &Arc<T>) {
    if !Arc::ptr_eq(to, from) {
        to.clone_from(from);
    }
}

/// Ends, across the edge `e` of the tile just laid (`mine`, with its first segment), what lies
/// at that edge on the side that is not wild: its road or city loses that open edge, its
/// fields the half-edges there (`theirs` is the tile beyond). Returns whether either side is
/// wild there (then nothing is joined; two wild edges end nothing).
#[cold]
fn seal_across(
    features: &mut Features,
    e: Edge,
    mine: (&Oriented, u32),
    theirs: (&Oriented, u32),
) -> bool {
    let my_wild = mine.0.wild & (1 << e as u8) != 0;
    let their_wild = theirs.0.wild & (1 << e.opposite() as u8) != 0;
    let ((tile, base), edge) = match (my_wild, their_wild) {
        (true, false) => (theirs, e.opposite()),
        (false, true) => (mine, e),
        (true, true) => return true,
        (false, false) => return false,
    };
    let h = 2 * edge as usize;
    for f in [
        tile.edge_feature[edge as usize],
        tile.half_feature[h],
        tile.half_feature[h + 1],
    ] {
        if f != NO_FEATURE {
            features.close(base + u32::from(f), 1);
        }
    }
    true
}

/// The ruleset's tiles, less one copy of each start tile.
fn full_bag(rules: &Ruleset, start: &[StartTile]) -> Vec<TileId> {
    let mut counts: Vec<u32> = rules.tiles.iter().map(|t| t.count).collect();
    for s in start {
        counts[s.tile as usize] = counts[s.tile as usize].saturating_sub(1);
    }
    let mut bag = Vec::with_capacity(counts.iter().map(|c| *c as usize).sum());
    for (i, c) in counts.iter().enumerate() {
        if rules.tiles[i].in_bag {
            bag.extend(std::iter::repeat_n(i as TileId, *c as usize));
        }
    }
    bag
}

#[cfg(test)]
mod tests {
    use super::*;

    /// B-M5 (issue 11): a tile that the cheap facts say completed nothing
    /// ([`Game::completes_nothing`]) is one the full look ([`Game::completed_by`]) finds nothing
    /// for, over every tile of random games; and they say so of most tiles.
    #[test]
    fn a_tile_said_to_complete_nothing_completes_nothing() {
        let rules = Ruleset::load("hig").expect("hig loads");
        let (mut quiet, mut laid) = (0, 0);
        for seed in 0..20u64 {
            let players = vec!["A".to_string(), "B".to_string()];
            let (mut game, _) =
                Game::new(Arc::clone(&rules), Setup::new(players, seed)).expect("the game starts");
            let (mut legal, mut events) = (Vec::new(), Vec::new());
            let mut pick = seed;
            while !game.is_over() {
                legal.clear();
                game.legal_actions(&mut legal);
                pick = pick
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let action = legal[(pick >> 33) as usize % legal.len()];
                game.apply_legal(&action, &mut events)
                    .expect("a legal action");
                let (Action::Place { .. }, Some(placed)) = (action, game.now.placed) else {
                    continue;
                };
                laid += 1;
                if game.completes_nothing(placed) {
                    quiet += 1;
                    assert!(game.completed_by(placed).is_empty(), "seed {seed}");
                }
            }
        }
        assert!(quiet * 2 > laid, "{quiet} of {laid} tiles told at once");
    }
}
