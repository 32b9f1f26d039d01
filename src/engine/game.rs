//! The game: a state machine that always exposes one pending decision.
//!
//! A turn is a pipeline of stages built from the ruleset ([`Stage`]; e.g. the dragon's stage
//! sits before or after scoring depending on `pd.dragon.timing`). [`Game::apply`] checks an
//! action against the pending decision before changing anything, so an illegal action returns
//! an error and leaves the game exactly as it was. A legal action returns the events it caused,
//! including everything that follows automatically (scoring, the next draw, final scoring) up
//! to the next decision.

use crate::data::ruleset::{Ruleset, StartTile};
use crate::engine::action::{Action, Decision, DecisionKind};
use crate::engine::event::{Event, ReturnReason};
use crate::mechanic::base::scoring;
use crate::mechanic::pd::rules::Timing;
use crate::model::board::{Board, PlacedId};
use crate::model::feature::{Features, SegId, Segment};
use crate::model::figure::{Figure, FigureKind};
use crate::model::geometry::{Edge, Pos, Rotation, Spot, facing_half};
use crate::model::tile::TileId;
use crate::model::tile::{FeatureKind, NO_FEATURE, Symbol};
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
        /// Why not.
        why: &'static str,
    },
    /// The action is not among the legal ones.
    #[error("{0}")]
    Illegal(String),
    /// A script failed while the action was applied; the action is undone.
    #[error("{0}")]
    Script(crate::script::ScriptError),
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
    Script(crate::script::ScriptError),
}

/// A stage of the turn pipeline (RULES.md §2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The fairy's turn point (FA7).
    TurnStart,
    /// Draw a tile: set-aside dragon tiles (D0), unplaceable tiles (B-P5).
    Draw,
    /// Lay the tile; a volcano calls the dragon (V2).
    Place,
    /// The princess decision (PR3).
    Princess,
    /// The dragon's journey (D1–D12), wherever `pd.dragon.timing` puts it.
    Dragon,
    /// Deploy a figure, use the portal, move the fairy, or pass.
    Deploy,
    /// Score what the tile completed.
    Score,
    /// End of the turn.
    TurnEnd,
}

/// The stages of one turn under `rules`, in order.
pub fn pipeline(rules: &Ruleset) -> Vec<Stage> {
    use Stage::*;
    let mut stages = vec![TurnStart, Draw, Place, Princess];
    let timing = rules.pd.dragon.timing;
    if timing == Timing::AfterTile {
        stages.push(Dragon);
    }
    stages.push(Deploy);
    if timing == Timing::BeforeScoring {
        stages.push(Dragon);
    }
    stages.push(Score);
    if timing == Timing::AfterScoring {
        stages.push(Dragon);
    }
    stages.push(TurnEnd);
    stages
}

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    Claim,
    Place,
    Princess,
    DragonStep,
    Deploy,
    Script,
    CountQuarter,
    CountMove,
    CountLeave,
    CountOrder,
    Over,
}

/// Where the fairy stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fairy {
    /// Its tile.
    pub pos: Pos,
    /// The follower (by [`Figure::id`]) it stands next to, in follower mode.
    pub follower: Option<u32>,
}

/// A dragon journey in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Journey {
    /// Steps taken so far.
    pub steps: u32,
    /// Tiles the dragon may not enter again.
    pub visited: Vec<Pos>,
}

/// What happened so far in the current turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TurnState {
    /// The tile laid this turn.
    pub placed: Option<PlacedId>,
    /// A knight was removed by the princess (PR5).
    pub princess_removed: bool,
    /// A dragon journey is due this turn (D2).
    pub journey_due: bool,
    /// The journey under way.
    pub journey: Option<Journey>,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) rules: Arc<Ruleset>,
    pub(crate) setup: Setup,
    pub(crate) stages: Arc<[Stage]>,
    pub(crate) stage: usize,
    pub(crate) pending: Pending,
    pub(crate) scores: Vec<u32>,
    pub(crate) supply: Vec<[u8; FigureKind::ALL.len()]>,
    pub(crate) board: Board,
    pub(crate) features: Features,
    pub(crate) figures: Vec<Figure>,
    pub(crate) next_figure: u32,
    /// Tiles still to draw; the next one is at the end.
    pub(crate) bag: Vec<TileId>,
    pub(crate) set_aside: Vec<TileId>,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) draws: u32,
    pub(crate) turn: u32,
    /// The seat whose turn it is.
    pub(crate) active: usize,
    /// The drawn tile.
    pub(crate) tile: Option<TileId>,
    pub(crate) now: TurnState,
    pub(crate) dragon: Option<Pos>,
    pub(crate) fairy: Option<Fairy>,
    /// The City of Carcassonne, when the Count is in play.
    pub(crate) count: Option<crate::mechanic::count::Count>,
    pub(crate) history: Vec<Action>,
    pub(crate) scratch: Vec<SegId>,
    /// The dragon has entered play (it may be off the board, hidden by a script).
    pub(crate) dragon_in_play: bool,
    /// Followers scripts hold off the board, by seat.
    pub(crate) held: Vec<u32>,
    /// The scripts' own state.
    pub(crate) script_state: serde_json::Value,
    /// The same state as the scripts see it (kept so that reading it converts nothing).
    pub(crate) script_value: rhai::Dynamic,
    /// Decisions scripts asked for: the player and the offered script actions.
    pub(crate) asked: std::collections::VecDeque<(usize, Vec<u32>)>,
    /// The decision that waits behind the scripts' questions.
    pub(crate) resume: Option<Pending>,
    /// With scripts: the legal actions of the pending decision, computed once.
    pub(crate) offer: Option<Vec<Action>>,
    /// The first script failure of the action being applied.
    pub(crate) fault: Option<crate::script::ScriptError>,
}

impl Game {
    /// Starts a game: lays the start tiles and runs up to the first decision. Returns the game
    /// and the events of the set-up.
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
        let bag: Vec<TileId> = match &setup.draw {
            Some(order) => order.iter().rev().copied().collect(),
            None => {
                let mut bag = full_bag(&rules, &start);
                bag.shuffle(&mut rng);
                bag
            }
        };
        if let Some(t) = bag.iter().find(|t| rules.tile(**t).has_inner_edge()) {
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
            stages: pipeline(&rules).into(),
            stage: 0,
            pending: Pending::Place,
            scores: vec![0; n],
            supply: vec![[rules.base.followers_per_player]; n],
            board: Board::new(tiles),
            features: Features::with_capacity(tiles * max_features),
            figures: Vec::new(),
            next_figure: 0,
            bag,
            set_aside: Vec::new(),
            rng,
            draws: 0,
            turn: 0,
            active: n - 1,
            tile: None,
            now: TurnState::default(),
            dragon: None,
            fairy: None,
            count: rules
                .mechanics
                .count
                .then(|| crate::mechanic::count::Count::new(n)),
            history: Vec::new(),
            scratch: Vec::new(),
            dragon_in_play: false,
            held: vec![0; n],
            script_state: serde_json::Value::Null,
            script_value: rhai::Dynamic::UNIT,
            asked: std::collections::VecDeque::new(),
            resume: None,
            offer: None,
            fault: None,
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
        game.advance(&mut events);
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

    /// Dragon tiles set aside while the dragon is not in play (D0).
    pub fn set_aside(&self) -> usize {
        self.set_aside.len()
    }

    /// Where the dragon is, if it is on the board.
    pub fn dragon(&self) -> Option<Pos> {
        self.dragon
    }

    /// Where the fairy is, if it is on the board.
    pub fn fairy(&self) -> Option<Fairy> {
        self.fairy
    }

    /// Whether the dragon has entered play (it may be off the board, hidden by a script).
    pub fn dragon_in_play(&self) -> bool {
        self.dragon_in_play
    }

    /// The tile laid this turn, if it is laid.
    pub fn placed_this_turn(&self) -> Option<PlacedId> {
        self.now.placed
    }

    /// An empty stand-in with no board, used while a script hook borrows the real game.
    pub(crate) fn placeholder(&self) -> Game {
        Game {
            rules: Arc::clone(&self.rules),
            setup: Setup::new(Vec::new(), 0),
            stages: Arc::clone(&self.stages),
            stage: 0,
            pending: Pending::Over,
            scores: Vec::new(),
            supply: Vec::new(),
            board: Board::empty(),
            features: Features::default(),
            figures: Vec::new(),
            next_figure: 0,
            bag: Vec::new(),
            set_aside: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(0),
            draws: 0,
            turn: 0,
            active: 0,
            tile: None,
            now: TurnState::default(),
            dragon: None,
            fairy: None,
            count: None,
            history: Vec::new(),
            scratch: Vec::new(),
            dragon_in_play: false,
            held: Vec::new(),
            script_state: serde_json::Value::Null,
            script_value: rhai::Dynamic::UNIT,
            asked: std::collections::VecDeque::new(),
            resume: None,
            offer: None,
            fault: None,
        }
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
    pub fn seg_spot(&self, seg: SegId) -> (Pos, Spot) {
        let s = self.features.segment(seg);
        let pos = self.board.placed(s.placed).pos;
        let spot =
            self.board.oriented(&self.rules.tiles, s.placed).features[s.feature as usize].spot();
        (pos, spot)
    }

    /// The segment at `spot` of the tile at `pos`, if there is one.
    pub fn seg_at(&self, pos: Pos, spot: Spot) -> Option<SegId> {
        let placed = self.board.at(pos)?;
        let f = self
            .board
            .oriented(&self.rules.tiles, placed)
            .feature_at(spot)?;
        Some(self.board.placed(placed).seg_base + f as u32)
    }

    /// The pending decision.
    pub fn decision(&self) -> Decision {
        let (player, kind) = match self.pending {
            Pending::Over => (self.active, DecisionKind::GameOver),
            Pending::Claim => (self.active, DecisionKind::ClaimFairyPoint),
            Pending::Place => (
                self.active,
                DecisionKind::PlaceTile {
                    tile: self.tile.unwrap_or_default(),
                },
            ),
            Pending::Princess => (self.active, DecisionKind::Princess),
            Pending::Deploy => (self.active, DecisionKind::Deploy),
            Pending::Script => self.script_decision(),
            Pending::CountQuarter
            | Pending::CountMove
            | Pending::CountLeave
            | Pending::CountOrder => self.count_decision(),
            Pending::DragonStep => {
                let step = self.now.journey.as_ref().map_or(0, |j| j.steps) + 1;
                (self.dragon_mover(step), DecisionKind::DragonStep { step })
            }
        };
        Decision { player, kind }
    }

    /// Appends every legal answer to the pending decision to `out`.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        if let Some(offer) = &self.offer {
            out.extend_from_slice(offer);
            return;
        }
        match self.pending {
            Pending::Script => {}
            Pending::Over => {}
            Pending::Claim => out.extend([Action::Claim, Action::Pass]),
            Pending::Place => {
                if let Some(tile) = self.tile {
                    self.board.each_placement(&self.rules.tiles, tile, |p| {
                        out.push(Action::Place {
                            pos: p.pos,
                            rotation: p.rotation,
                        });
                        true
                    });
                }
            }
            Pending::Princess => self.princess_actions(out),
            Pending::DragonStep => out.extend(
                self.dragon_steps()
                    .into_iter()
                    .map(|pos| Action::Dragon { pos }),
            ),
            Pending::Deploy => {
                self.deploy_actions(out);
                self.fairy_actions(out);
                out.push(Action::Pass);
            }
            Pending::CountQuarter
            | Pending::CountMove
            | Pending::CountLeave
            | Pending::CountOrder => self.count_actions(out),
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
        self.check(action)?;
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
        let answered = self.pending;
        if let Action::Script(id) = *action {
            self.apply_script_action(id, events);
            match answered {
                Pending::Script => return self.after_script_decision(events),
                // A script's answer to a dragon step lets the journey stage look again.
                Pending::DragonStep => self.stage -= 1,
                _ => {}
            }
        }
        match (answered, *action) {
            (Pending::Claim, Action::Claim) => self.pay_fairy_turn_point(events),
            (Pending::Claim, _) => events.push(Event::FairyPointForfeited {
                player: self.active,
            }),
            (Pending::Place, Action::Place { pos, rotation }) => self.place(pos, rotation, events),
            (Pending::Princess, Action::Remove { pos, spot }) => {
                self.remove_knight(pos, spot, events)
            }
            (Pending::DragonStep, Action::Dragon { pos }) => {
                self.dragon_step(pos, events);
                // The journey goes on within the same stage.
                self.stage -= 1;
            }
            (Pending::Deploy, Action::Deploy { pos, spot, figure }) => {
                self.deploy(pos, spot, figure, events)
            }
            (Pending::Deploy, Action::Fairy { pos, spot }) => self.move_fairy(pos, spot, events),
            (
                Pending::CountQuarter
                | Pending::CountMove
                | Pending::CountLeave
                | Pending::CountOrder,
                action,
            ) => {
                self.count_apply(&action, events);
                // The Count's decisions continue the stage that asked for them (which may be
                // stage 0, when final scoring asks).
                self.stage = self.stage.wrapping_sub(1);
            }
            _ => {}
        }
        self.decision_hook(answered, events);
        self.stage = self.stage.wrapping_add(1);
        self.advance(events);
    }

    /// After a script decision: the next question, the decision that waited, or onwards.
    fn after_script_decision(&mut self, events: &mut Vec<Event>) {
        if !self.asked.is_empty() {
            self.pending = Pending::Script;
            self.prepare_offer();
        } else if let Some(p) = self.resume.take() {
            self.pending = p;
            self.prepare_offer();
        } else {
            self.advance(events);
        }
    }

    /// Checks an action against the pending decision without changing anything.
    fn check(&self, action: &Action) -> Result<(), RuleError> {
        if self.pending == Pending::Over {
            return Err(RuleError::GameOver);
        }
        if let Some(offer) = &self.offer {
            // With scripts the legal list was computed (and filtered) once: it decides.
            return if offer.contains(&self.canonical(action)) {
                Ok(())
            } else {
                Err(RuleError::Illegal(format!(
                    "{} is not among the legal choices",
                    describe(action)
                )))
            };
        }
        match (self.pending, action) {
            (Pending::Over, _) => Err(RuleError::GameOver),
            (
                Pending::CountQuarter
                | Pending::CountMove
                | Pending::CountLeave
                | Pending::CountOrder,
                _,
            ) => self.check_count(action),
            (Pending::Place, Action::Place { pos, rotation }) => self.check_place(*pos, *rotation),
            (Pending::Deploy, Action::Deploy { pos, spot, figure }) => {
                self.check_deploy(*pos, *spot, *figure)
            }
            (Pending::Deploy, Action::Fairy { pos, spot }) => self.check_fairy(*pos, *spot),
            (Pending::Deploy, Action::Pass) | (Pending::Claim, Action::Claim | Action::Pass) => {
                Ok(())
            }
            (Pending::Princess, Action::Remove { .. } | Action::Pass)
            | (Pending::DragonStep, Action::Dragon { .. }) => {
                if self.legal().contains(&self.canonical(action)) {
                    Ok(())
                } else {
                    Err(RuleError::Illegal(format!(
                        "{} is not among the legal choices: {}",
                        describe(action),
                        self.legal()
                            .iter()
                            .map(describe)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )))
                }
            }
            (pending, _) => Err(RuleError::WrongDecision(
                match pending {
                    Pending::Claim => "claim the fairy's point (`claim = true`) or `pass = true`",
                    Pending::Place => "the drawn tile must be placed first (`place = [x, y, rotation]`)",
                    Pending::Princess => {
                        "the princess: remove a knight (`remove = [x, y, \"N\"]`) or `pass = true` if allowed"
                    }
                    Pending::DragonStep => "the dragon must move (`dragon = [x, y]`)",
                    Pending::Deploy => {
                        "deploy (`deploy = [x, y, \"N\"]`), move the fairy (`fairy = [x, y, \"N\"]`) or `pass = true`"
                    }
                    Pending::Over => "the game is over",
                    Pending::Script => "a script's question: `script = [\"name\", …]`",
                    Pending::CountQuarter
                    | Pending::CountMove
                    | Pending::CountLeave
                    | Pending::CountOrder => "the Count's decision",
                }
                .to_string(),
            )),
        }
    }

    /// The action with its spot replaced by the canonical name of the feature there.
    fn canonical(&self, action: &Action) -> Action {
        match *action {
            Action::Remove { pos, spot } => Action::Remove {
                pos,
                spot: self.seg_at(pos, spot).map_or(spot, |s| self.seg_spot(s).1),
            },
            Action::Deploy { pos, spot, figure } => Action::Deploy {
                pos,
                spot: self.seg_at(pos, spot).map_or(spot, |s| self.seg_spot(s).1),
                figure,
            },
            Action::Fairy { pos, spot } => self.fairy_canonical(pos, spot),
            other => other,
        }
    }

    /// Runs automatic stages until one needs a decision.
    fn advance(&mut self, events: &mut Vec<Event>) {
        loop {
            if self.fault.is_some() {
                return;
            }
            if self.script_decision_first() {
                self.prepare_offer();
                return;
            }
            if self.stage >= self.stages.len() {
                self.stage = 0;
            }
            let stage = self.stages[self.stage];
            let pending = match stage {
                Stage::TurnStart => self.turn_start(events),
                Stage::Draw => self.draw_stage(events),
                Stage::Place => Some(Pending::Place),
                Stage::Princess => self.princess_stage(),
                Stage::Dragon => self.dragon_stage(events),
                Stage::Deploy => Some(Pending::Deploy),
                Stage::Score => self.score_stage(events),
                Stage::TurnEnd => self.count_turn_end(),
            };
            match pending {
                Some(p) if !self.asked.is_empty() && p != Pending::Over => {
                    // Hooks of this stage asked questions: they come first.
                    self.resume = Some(p);
                    self.pending = Pending::Script;
                    self.prepare_offer();
                    return;
                }
                Some(p) => {
                    self.pending = p;
                    self.prepare_offer();
                    return;
                }
                None if matches!(stage, Stage::Score | Stage::TurnEnd) => {
                    self.stage_hook(stage, events)
                }
                None => {}
            }
            self.stage += 1;
        }
    }

    /// Begins a turn: the next seat, the fairy's point; or the end of the game.
    fn turn_start(&mut self, events: &mut Vec<Event>) -> Option<Pending> {
        if self.bag.is_empty() || self.draw_limit_reached() {
            return Some(self.final_scoring(events));
        }
        self.active = (self.active + 1) % self.scores.len();
        self.turn += 1;
        self.now = TurnState::default();
        events.push(Event::TurnStarted {
            turn: self.turn,
            player: self.active,
        });
        self.stage_hook(Stage::TurnStart, events);
        self.fairy_turn_start(events)
    }

    fn draw_limit_reached(&self) -> bool {
        self.setup.end_after.is_some_and(|n| self.draws >= n)
    }

    /// Draws until a tile can be placed; ends the game when the bag runs out.
    fn draw_stage(&mut self, events: &mut Vec<Event>) -> Option<Pending> {
        loop {
            if self.draw_limit_reached() || self.dragon_tiles_only_left() {
                return Some(self.final_scoring(events));
            }
            let Some(tile) = self.bag.pop() else {
                return Some(self.final_scoring(events));
            };
            self.draws += 1;
            if self.keep_dragon_tile_out(tile, events) {
                continue;
            }
            if !self.board.fits_somewhere(&self.rules.tiles, tile) {
                events.push(Event::TileDiscarded {
                    player: self.active,
                    tile: self.tile_name(tile),
                });
                continue;
            }
            events.push(Event::TileDrawn {
                player: self.active,
                tile: self.tile_name(tile),
            });
            self.stage_hook(Stage::Draw, events);
            self.tile = Some(tile);
            return None;
        }
    }

    fn check_place(&self, pos: Pos, rotation: Rotation) -> Result<(), RuleError> {
        if let Some(tile) = self.tile
            && self.board.fits(&self.rules.tiles, tile, pos, rotation)
        {
            return Ok(());
        }
        let why = if self.board.at(pos).is_some() {
            "that position is taken"
        } else if !self.board.is_open(pos) {
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

    /// Lays a tile: board, segments, joins with the neighbours.
    pub(crate) fn lay(&mut self, tile: TileId, pos: Pos, rotation: Rotation) -> PlacedId {
        let rules = Arc::clone(&self.rules);
        let oriented = rules.tile(tile).at(rotation);
        let seg_base = self.features.len() as u32;
        let placed = self
            .board
            .put(tile, pos, rotation, seg_base, oriented.edge_code);
        for (i, f) in oriented.features.iter().enumerate() {
            let open = f.edges.count_ones() + f.halves.count_ones();
            self.features.add(
                Segment {
                    placed,
                    feature: i as u8,
                    kind: f.kind,
                },
                open,
                f.pennants as u32,
            );
        }
        for e in Edge::ALL {
            let Some(other) = self.board.at(pos.step(e)) else {
                continue;
            };
            let theirs = self.board.oriented(&rules.tiles, other);
            let their_base = self.board.placed(other).seg_base;
            let mine = oriented.edge_feature[e as usize];
            let their = theirs.edge_feature[e.opposite() as usize];
            if mine != NO_FEATURE && their != NO_FEATURE {
                self.features
                    .join(seg_base + mine as u32, their_base + their as u32);
            }
            for h in [2 * e as usize, 2 * e as usize + 1] {
                let (a, b) = (
                    oriented.half_feature[h],
                    theirs.half_feature[facing_half(h)],
                );
                if a != NO_FEATURE && b != NO_FEATURE {
                    self.features
                        .join(seg_base + a as u32, their_base + b as u32);
                }
            }
        }
        placed
    }

    fn place(&mut self, pos: Pos, rotation: Rotation, events: &mut Vec<Event>) {
        let tile = self.tile.take().unwrap_or_default();
        let placed = self.lay(tile, pos, rotation);
        self.now.placed = Some(placed);
        events.push(Event::TilePlaced {
            player: self.active,
            tile: self.tile_name(tile),
            x: pos.x,
            y: pos.y,
            rotation: rotation.degrees(),
        });
        match self.rules.tile(tile).symbol {
            Some(Symbol::Volcano) if self.rules.mechanics.volcano => {
                self.volcano_placed(pos, events)
            }
            Some(Symbol::Dragon) if self.rules.mechanics.dragon && self.dragon.is_some() => {
                self.now.journey_due = true
            }
            _ => {}
        }
    }

    /// Whether the tile laid this turn carries `symbol` and its mechanic is on.
    pub(crate) fn placed_symbol(&self, symbol: Symbol) -> bool {
        let Some(placed) = self.now.placed else {
            return false;
        };
        let on = match symbol {
            Symbol::Volcano => self.rules.mechanics.volcano,
            Symbol::Dragon => self.rules.mechanics.dragon,
            Symbol::Portal => self.rules.mechanics.portal,
        };
        on && self.rules.tile(self.board.placed(placed).tile).symbol == Some(symbol)
    }

    // -----------------------------------------------------------------------------------------
    // Deployment.

    /// Every legal deployment (on the new tile, or through a portal on any tile).
    fn deploy_actions(&self, out: &mut Vec<Action>) {
        let Some(placed) = self.now.placed else {
            return;
        };
        let portal = self.placed_symbol(Symbol::Portal);
        let tiles: Vec<PlacedId> = if portal {
            (0..self.board.tiles().len() as PlacedId).collect()
        } else {
            vec![placed]
        };
        for t in tiles {
            let p = self.board.placed(t);
            for f in 0..self.board.oriented(&self.rules.tiles, t).features.len() {
                let seg = p.seg_base + f as u32;
                if self.deploy_problem(seg, FigureKind::Follower).is_none() {
                    out.push(Action::Deploy {
                        pos: p.pos,
                        spot: self.seg_spot(seg).1,
                        figure: FigureKind::Follower,
                    });
                }
            }
        }
    }

    fn check_deploy(&self, pos: Pos, spot: Spot, figure: FigureKind) -> Result<(), RuleError> {
        let err = |why: &str| RuleError::Illegal(format!("cannot deploy at {pos} {spot}: {why}"));
        let seg = self
            .seg_at(pos, spot)
            .ok_or_else(|| err("there is no tile with a feature there"))?;
        match self.deploy_problem(seg, figure) {
            Some(why) => Err(err(why)),
            None => Ok(()),
        }
    }

    /// Why `figure` may not go on segment `seg` now, if it may not.
    fn deploy_problem(&self, seg: SegId, figure: FigureKind) -> Option<&'static str> {
        let placed = self.now.placed?;
        if self.supply[self.active][figure as usize] == 0 {
            return Some("no follower left in supply (B-F4)");
        }
        let s = *self.features.segment(seg);
        let own_tile = s.placed == placed;
        if self.now.princess_removed {
            if let Some(why) = self.princess_blocks_deploy(own_tile) {
                return Some(why);
            }
        }
        if s.kind == FeatureKind::Field && !self.rules.mechanics.farmers {
            return Some("farmers are switched off in this ruleset");
        }
        if self.features.totals(seg).followers > 0 {
            return Some("the feature already has a follower (B-F3)");
        }
        let pos = self.board.placed(s.placed).pos;
        if let Some(why) = self.count_deploy_problem(pos) {
            return Some(why);
        }
        if own_tile {
            if self.placed_symbol(Symbol::Volcano) {
                return Some("no follower may stand on the volcano tile (V3)");
            }
            if self.dragon == Some(pos) {
                return Some("no follower may share the dragon's tile (V8)");
            }
            if self.rules.pd.portal.own_tile_base_rules || !self.placed_symbol(Symbol::Portal) {
                return None;
            }
        } else if !self.placed_symbol(Symbol::Portal) {
            return Some("figures go on the tile just placed (B-F2)");
        }
        self.portal_problem(seg, pos, figure)
    }

    fn deploy(&mut self, pos: Pos, spot: Spot, figure: FigureKind, events: &mut Vec<Event>) {
        let Some(seg) = self.seg_at(pos, spot) else {
            return;
        };
        self.supply[self.active][figure as usize] -= 1;
        self.figures.push(Figure {
            id: self.next_figure,
            owner: self.active,
            kind: figure,
            seg,
        });
        self.next_figure += 1;
        self.features.add_followers(seg, 1);
        events.push(Event::FigureDeployed {
            player: self.active,
            figure,
            x: pos.x,
            y: pos.y,
            feature: self.features.segment(seg).kind,
            spot: self.seg_spot(seg).1,
        });
    }

    // -----------------------------------------------------------------------------------------
    // Scoring.

    /// Scores what the tile laid this turn completed.
    fn score_stage(&mut self, events: &mut Vec<Event>) -> Option<Pending> {
        let placed = self.now.placed?;
        if self.count.is_some() {
            // Followers may leave the City's quarters for each feature first (CO-4, CO-5).
            return self.count_score_stage(placed, events);
        }
        for seg in self.completed_by(placed) {
            self.score_feature(seg, true, events);
        }
        None
    }

    /// Whether the feature of `seg` is complete: a closed road or city, or a surrounded
    /// cloister (RULES.md §1.5). Fields are complete when enclosed (used by the portal only).
    pub fn is_complete(&self, seg: SegId) -> bool {
        let s = self.features.segment(seg);
        match s.kind {
            FeatureKind::Cloister => self.board.neighbours(self.board.placed(s.placed).pos) == 8,
            _ => self.features.closed(seg),
        }
    }

    /// Roads, cities and cloisters completed by laying `placed`, in a fixed order: the tile's
    /// own features first, then the cloisters around it clockwise from north (B-M5).
    pub(crate) fn completed_by(&self, placed: PlacedId) -> Vec<SegId> {
        let mut done: Vec<SegId> = Vec::new();
        let p = *self.board.placed(placed);
        let oriented = self.board.oriented(&self.rules.tiles, placed);
        for (i, f) in oriented.features.iter().enumerate() {
            let seg = p.seg_base + i as u32;
            if f.kind != FeatureKind::Field
                && self.is_complete(seg)
                && !done.iter().any(|d| self.features.same(*d, seg))
            {
                done.push(seg);
            }
        }
        for q in p.pos.ring() {
            if let Some(n) = self.board.at(q)
                && let Some(c) = self.cloister_segment(n)
                && self.is_complete(c)
            {
                done.push(c);
            }
        }
        done
    }

    fn cloister_segment(&self, placed: PlacedId) -> Option<SegId> {
        let o = self.board.oriented(&self.rules.tiles, placed);
        o.feature_at(Spot::Cloister)
            .map(|f| self.board.placed(placed).seg_base + f as u32)
    }

    /// Scores one road, city or cloister (RULES.md §1.6–§1.7) and the fairy's bonus; returns
    /// its followers when it is complete (B-M3).
    pub(crate) fn score_feature(&mut self, seg: SegId, completed: bool, events: &mut Vec<Event>) {
        let kind = self.features.segment(seg).kind;
        let at = self.root_pos(seg);
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
        let strength = self.strength(seg);
        let rule = match (kind, completed) {
            (FeatureKind::Road, true) => "§1.6 completed road",
            (FeatureKind::City, true) => "§1.6 completed city",
            (FeatureKind::Cloister, true) => "§1.6 completed cloister",
            (FeatureKind::Road, false) => "§1.8 incomplete road",
            (FeatureKind::City, false) => "§1.8 incomplete city",
            _ => "§1.8 incomplete cloister",
        };
        self.pay(&strength, points, kind, rule, at, events);
        self.fairy_scoring_bonus(seg, completed, events);
        self.feature_hook(seg, completed, events);
        if completed {
            self.return_figures(|f, g| f.same(g.seg, seg), ReturnReason::Scored, events);
        }
    }

    /// Each player's strength in the feature of `seg` (B-M1).
    pub(crate) fn strength(&self, seg: SegId) -> Vec<u32> {
        let mut strength = vec![0u32; self.scores.len()];
        for f in &self.figures {
            if self.features.same(f.seg, seg) {
                strength[f.owner] += f.kind.weight();
            }
        }
        self.count_strength(seg, &mut strength);
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

    /// Sends home every figure that `which` selects.
    pub(crate) fn return_figures(
        &mut self,
        which: impl Fn(&Features, &Figure) -> bool,
        reason: ReturnReason,
        events: &mut Vec<Event>,
    ) {
        let mut i = 0;
        while i < self.figures.len() {
            let f = self.figures[i];
            if which(&self.features, &f) {
                let pos = self.root_pos(f.seg);
                self.figures.remove(i);
                self.supply[f.owner][f.kind as usize] += 1;
                self.features.add_followers(f.seg, -1);
                self.fairy_follower_left(f.id);
                events.push(Event::FigureReturned {
                    player: f.owner,
                    figure: f.kind,
                    x: pos.x,
                    y: pos.y,
                    reason,
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
        for m in members.iter_mut() {
            *m = self.features.segment(*m).placed as SegId;
        }
        members.sort_unstable();
        members.dedup();
        let tiles = members.len() as u32;
        self.scratch = members;
        scoring::Size {
            tiles,
            pennants: self.features.totals(seg).pennants,
        }
    }

    /// Final scoring (RULES.md §1.8): incomplete roads, cities and cloisters, then farms.
    fn final_scoring(&mut self, events: &mut Vec<Event>) -> Pending {
        // The Count's rounds come first (RULES.md §5.2); asking re-enters final scoring.
        if let Some(pending) = self.count_final_rounds() {
            return pending;
        }
        let mut scored: Vec<SegId> = Vec::new();
        for i in 0..self.figures.len() {
            let seg = self.figures[i].seg;
            let root = self.features.root(seg);
            if self.features.segment(seg).kind != FeatureKind::Field && !scored.contains(&root) {
                scored.push(root);
                self.score_feature(seg, false, events);
            }
        }
        if self.rules.mechanics.farmers {
            crate::mechanic::base::farm::score(self, events);
        }
        self.count_return_moving(events);
        self.tile = None;
        if self.scripted() {
            self.run_hook("game_end", Vec::new(), events);
        }
        events.push(Event::GameEnded {
            scores: self.scores.clone(),
        });
        Pending::Over
    }

    /// The position of the tile holding segment `seg`.
    pub(crate) fn root_pos(&self, seg: SegId) -> Pos {
        self.board.placed(self.features.segment(seg).placed).pos
    }

    pub(crate) fn tile_name(&self, tile: TileId) -> Arc<str> {
        Arc::clone(&self.rules.tile(tile).id)
    }
}

/// A short description of an action for messages.
pub fn describe(action: &Action) -> String {
    match action {
        Action::Place { pos, rotation } => format!("place at {pos} turned {}°", rotation.degrees()),
        Action::Deploy { pos, spot, figure } => format!("{} on {pos} {spot}", figure.name()),
        Action::Fairy { pos, spot: Some(s) } => format!("fairy to the follower at {pos} {s}"),
        Action::Fairy { pos, spot: None } => format!("fairy to {pos}"),
        Action::Dragon { pos } => format!("dragon to {pos}"),
        Action::Remove { pos, spot } => format!("remove the knight at {pos} {spot}"),
        Action::Quarter { quarter } => format!("follower into the {quarter} quarter"),
        Action::Count { quarter } => format!("the Count to the {quarter} quarter"),
        Action::Leave { quarter, count } => {
            format!("{count} out of the {quarter} quarter")
        }
        Action::Score { pos, spot } => format!("score the feature at {pos} {spot} next"),
        Action::Claim => "claim".to_string(),
        Action::Script(id) => {
            let a = crate::script::action(*id);
            if a.label.is_empty() {
                format!("script action {}", a.name)
            } else {
                a.label
            }
        }
        Action::Pass => "pass".to_string(),
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
