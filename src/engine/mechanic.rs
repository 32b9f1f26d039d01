//! The one way in for every rule: the [`Mechanic`] trait.
//!
//! A game is shared state plus the mechanics its ruleset switches on, in a fixed order (the
//! registry in `src/registry.rs` builds the list). The stage loop in [`super::game`] names no
//! mechanic: at each point of the turn it calls the hook of every mechanic that has one. Every
//! hook has a no-op default, so a mechanic implements only the points it needs, and declares
//! them in [`Mechanic::hooks`] so that a turn calls nothing else (a ruleset with only the base
//! game makes no call into the P&D or Count code at all).
//!
//! Hooks receive the game. A mechanic reads and changes the shared state through the game's
//! state operations (lay, deploy, score, return figures, award points, …); it never calls
//! another mechanic by name: questions one mechanic asks about another are hooks too
//! ([`Mechanic::bars_roamer`], [`Mechanic::strength`], [`Mechanic::deploy_problem`], …).
//! Built-in mechanics and rhai scripts implement the same trait (`script::ScriptMechanic`).

use super::action::{Action, Decision};
use super::event::Event;
use super::event::ReturnReason;
pub use super::family::Route;
use super::game::{Game, RuleError, Size};
use super::opening::Opening;
use super::refusal::Refusal;
use super::vocabulary::MAX_FAMILIES;
use crate::model::board::PlacedId;
use crate::model::feature::SegId;
use crate::model::figure::{Departure, FigureKind};
use crate::model::geometry::{Pos, Rotation};
use crate::model::tile::{FeatureKind, TileId};
use std::fmt;

/// The points of the turn where stages run (RULES.md §2.1). A mechanic lists the points where
/// it has a stage ([`Mechanic::phases`]); at each point the stages run in registry order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// A turn begins (or the game ends when nothing is left to draw).
    TurnStart,
    /// A tile is drawn.
    Draw,
    /// The drawn tile is laid.
    Place,
    /// Right after the tile is laid (the princess, the dragon under `after_tile`).
    AfterPlace,
    /// A figure is deployed, the fairy moved, or the player passes.
    Deploy,
    /// After deployment, before scoring (the dragon under `before_scoring`).
    AfterDeploy,
    /// What the tile completed is scored.
    Score,
    /// After scoring (the dragon under `after_scoring`).
    AfterScore,
    /// The turn ends.
    TurnEnd,
}

impl Phase {
    /// Every point, in turn order.
    pub const ALL: [Phase; 9] = [
        Phase::TurnStart,
        Phase::Draw,
        Phase::Place,
        Phase::AfterPlace,
        Phase::Deploy,
        Phase::AfterDeploy,
        Phase::Score,
        Phase::AfterScore,
        Phase::TurnEnd,
    ];
}

/// Which hooks a mechanic implements (so the game keeps a call list per hook).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hooks(u32);

macro_rules! hooks {
    ($($(#[$doc:meta])* $name:ident = $bit:expr;)*) => {
        impl Hooks {
            $($(#[$doc])* pub const $name: Hooks = Hooks(1 << $bit);)*
            /// Every hook, for tables and tests.
            pub const ALL: &[(&'static str, Hooks)] = &[$((stringify!($name), Hooks::$name)),*];
        }
    };
}

hooks! {
    /// [`Mechanic::setup`].
    SETUP = 0;
    /// [`Mechanic::stage`].
    STAGE = 1;
    /// [`Mechanic::drawn`], [`Mechanic::draw_over`], [`Mechanic::held_tiles`] and
    /// [`Mechanic::fits_otherwise`].
    DRAW = 2;
    /// [`Mechanic::placement_allowed`].
    PLACEMENT = 3;
    /// [`Mechanic::placed`].
    PLACED = 4;
    /// [`Mechanic::actions`], [`Mechanic::check`], [`Mechanic::apply`], [`Mechanic::decision`].
    ACTIONS = 5;
    /// [`Mechanic::deploy_problem`] and [`Shortcuts::vetoes_deploy`].
    DEPLOY = 6;
    /// [`Mechanic::strength`].
    STRENGTH = 7;
    /// [`Mechanic::feature_scored`].
    SCORED = 8;
    /// [`Mechanic::figure_left`].
    FIGURE_LEFT = 9;
    /// [`Mechanic::bars_roamer`], [`Mechanic::protects`], [`Mechanic::filter_eaten`]: the
    /// questions a roamer (a neutral figure that moves and takes figures) or another rule that
    /// takes figures (a capture) asks the others.
    ROAMER = 10;
    /// [`Mechanic::farm_cities`] and [`Mechanic::farm_points`].
    FARM = 11;
    /// [`Mechanic::final_scoring`] and [`Mechanic::game_end`].
    FINAL = 12;
    /// [`Mechanic::extra_turn`] and [`Mechanic::gives_extra_turn`].
    EXTRA_TURN = 13;
    /// [`Mechanic::decision_ready`] and [`Mechanic::interject`].
    OFFER = 14;
    /// [`Mechanic::answered`].
    ANSWERED = 15;
    /// [`Mechanic::turn_begun`].
    TURN_BEGUN = 16;
    /// [`Mechanic::actions`], [`Mechanic::check`] and [`Mechanic::apply`] for other mechanics'
    /// decisions (the fairy's moves at deployment, scripts' offers).
    ADDS = 17;
    /// [`Mechanic::feature_points`].
    POINTS = 18;
    /// [`Mechanic::opening`] (asked whenever deployments are listed or checked, so a
    /// call list of its own keeps the mechanics that never open the board out of it).
    ANYWHERE = 19;
    /// [`Mechanic::deploy_closed`] (asked whenever a figure may move at deployment, so a
    /// call list of its own keeps it short).
    CLOSES = 20;
    /// [`Mechanic::own_tile`] and [`Mechanic::own_tile_laid`]: a tile of the mechanic's own
    /// that a player may lay instead of drawing.
    OWN_TILE = 21;
    /// [`Mechanic::inserted_turn`] and [`Mechanic::dealt_tile`]: turns a mechanic inserts into
    /// the turn order, each with a tile it deals.
    INSERTED = 22;
}

impl Hooks {
    /// No hook.
    pub const NONE: Hooks = Hooks(0);

    /// Whether every hook of `other` is in `self`.
    pub fn has(self, other: Hooks) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    /// The position of a single hook's bit.
    pub(crate) fn index(self) -> usize {
        self.0.trailing_zeros() as usize
    }
}

impl std::ops::BitOr for Hooks {
    type Output = Hooks;
    fn bitor(self, rhs: Hooks) -> Hooks {
        Hooks(self.0 | rhs.0)
    }
}

/// A decision a mechanic asks for: which mechanic (its index in the game's list) and which of
/// its own kinds of decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The mechanic's index in the game's list.
    pub by: u8,
    /// The mechanic's own code for the kind of decision.
    pub kind: u8,
}

/// What happens after a mechanic carried out an answer to its decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    /// The stage that asked is done: go on with the next one.
    Next,
    /// Run the stage that asked again (it goes on from its own state: the next dragon step,
    /// the next Count round, final scoring after a question).
    Again,
    /// The decision interrupted the turn (a mechanic's question): go back to what was pending,
    /// without any stage moving on.
    Resume,
}

/// What a mechanic makes of a drawn tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// The tile stays drawn.
    Keep,
    /// The tile was taken out of play (set aside, put back): draw again.
    Out,
}

/// How a rule of one family takes figures off the board, as it asks the others whether a
/// figure is safe ([`Mechanic::protects`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taking {
    /// A roamer stops on the tile and takes what is there (P&D's dragon eats).
    Roamer,
    /// A figure is captured (The Tower).
    Capture,
}

/// One rule of the game, built in or scripted. Every hook defaults to doing nothing.
///
/// A mechanic also implements [`Shortcuts`], the hooks that only make bots faster; every one
/// of them has a default that is always right, so a new rule writes `impl Shortcuts for X {}`.
pub trait Mechanic: Shortcuts + Send + Sync + fmt::Debug {
    /// The mechanic's name (as in `[mechanics]`, or `script`).
    fn name(&self) -> &'static str;

    /// The hooks this mechanic implements.
    fn hooks(&self) -> Hooks;

    /// The points of the turn where it has a stage ([`Mechanic::stage`]).
    fn phases(&self) -> &[Phase] {
        &[]
    }

    /// Set-up: its state, before the first turn.
    fn setup(&self, _g: &mut Game, _events: &mut Vec<Event>) {}

    /// Its stage at `phase`: may ask a decision. A stage asked again after its decision was
    /// answered ([`Then::Again`]) goes on from its own state.
    fn stage(&self, _g: &mut Game, _phase: Phase, _events: &mut Vec<Event>) -> Option<Asked> {
        None
    }

    /// Whether drawing must stop and the game end now (before a tile is taken from the bag).
    fn draw_over(&self, _g: &Game) -> bool {
        false
    }

    /// The tiles this mechanic holds out of the bag for now, still to be laid (counted with
    /// the bag's by [`Game::count_to_come`]).
    fn held_tiles<'g>(&self, _g: &'g Game) -> &'g [TileId] {
        &[]
    }

    /// A tile was taken from the bag: keep it, or take it out of play and draw again.
    fn drawn(&self, _g: &mut Game, _tile: TileId, _events: &mut Vec<Event>) -> Drawn {
        Drawn::Keep
    }

    /// Whether this mechanic can have `tile` laid though no placement fits the edge rules alone
    /// (it offers placements of its own that make the edges match, as an overlay road laid
    /// with the tile does), so that the tile is not discarded (B-P5).
    fn fits_otherwise(&self, _g: &Game, _tile: TileId) -> bool {
        false
    }

    /// Whether the drawn tile may lie at `pos` turned `rotation` (a placement filter; the edge
    /// rules are checked already). Answer with the reason when it may not.
    fn placement_allowed(
        &self,
        _g: &Game,
        _tile: TileId,
        _pos: Pos,
        _rotation: Rotation,
    ) -> Option<Refusal> {
        None
    }

    /// The tile of this turn was laid.
    fn placed(&self, _g: &mut Game, _events: &mut Vec<Event>) {}

    /// The legal answers to this mechanic's decision `kind`; for the base game's deploy
    /// decision every mechanic may add its own (the fairy's moves).
    fn actions(&self, _g: &Game, _asked: Asked, _out: &mut Vec<Action>) {}

    /// Whether this mechanic's decision `kind` may be declined (`pass`).
    fn may_pass(&self, _g: &Game, _asked: Asked) -> bool {
        false
    }

    /// What this mechanic's decision `kind` wants, for an answer of the wrong kind.
    fn hint(&self, _asked: Asked) -> &'static str {
        "a different answer"
    }

    /// The canonical form of an action this mechanic owns (`None`: not one of its actions).
    fn canonical(&self, _g: &Game, _action: &Action) -> Option<Action> {
        None
    }

    /// Checks an answer this mechanic recognises (`None`: not one of its actions).
    fn check(&self, _g: &Game, _asked: Asked, _action: &Action) -> Option<Result<(), RuleError>> {
        None
    }

    /// Carries out a checked answer this mechanic recognises (`None`: not one of its actions).
    fn apply(
        &self,
        _g: &mut Game,
        _asked: Asked,
        _action: &Action,
        _events: &mut Vec<Event>,
    ) -> Option<Then> {
        None
    }

    /// The public form of this mechanic's decision `kind`.
    fn decision(&self, _g: &Game, _asked: Asked) -> Option<Decision> {
        None
    }

    /// A decision was answered (any mechanic's): `decision` is what was asked.
    fn answered(&self, _g: &mut Game, _decision: Decision, _events: &mut Vec<Event>) {}

    /// A decision became pending (a chance to compute the legal list once, with filters).
    fn decision_ready(&self, _g: &mut Game) {}

    /// A decision of this mechanic's own that must come before whatever is pending.
    fn interject(&self, _g: &Game) -> Option<Asked> {
        None
    }

    /// Why `figure` may not be deployed on segment `seg` now (`own_tile`: the segment lies on
    /// the tile just laid).
    fn deploy_problem(
        &self,
        _g: &Game,
        _seg: SegId,
        _figure: FigureKind,
        _own_tile: bool,
    ) -> Option<Refusal> {
        None
    }

    /// Whether this mechanic closes the whole deployment of this turn: no figure may be
    /// deployed, moved or recalled (the rules of other mechanics that move figures at
    /// deployment ask this rather than read the closing mechanic's state).
    fn deploy_closed(&self, _g: &Game) -> bool {
        false
    }

    /// Whether figures may be deployed on other tiles than the one just laid this turn, and
    /// what stays closed there (the magic portal). A mechanic that opens the board names its
    /// refusals in its [`Mechanic::deploy_problem`] from [`Opening::shut`], which the listing
    /// of deployments applies to the other tiles without calling it.
    fn opening(&self, _g: &Game) -> Option<Opening> {
        None
    }

    /// Adds to each player's strength in the feature `key` (its root segment, or a mechanic's
    /// own key for what is not on the board) of kind `kind`.
    fn strength(&self, _g: &mut Game, _key: SegId, _kind: FeatureKind, _strength: &mut [u32]) {}

    /// A notification that the turn of `g.active()` began (before any stage of the turn).
    fn turn_begun(&self, _g: &mut Game, _events: &mut Vec<Event>) {}

    /// Changes the `points` that the road, city, cloister or garden of `seg` (of `kind`, `size`
    /// big, `completed` or scored at the end) is worth, before its majority is paid: an inn or
    /// a cathedral changes the value of its whole feature. 0 points pay nobody, but the feature
    /// still counts as scored ([`Mechanic::feature_scored`] is called).
    fn feature_points(
        &self,
        _g: &mut Game,
        _seg: SegId,
        _kind: FeatureKind,
        _completed: bool,
        _size: Size,
        _points: &mut u32,
    ) {
    }

    /// A feature was scored (its majority paid): bonuses, notes.
    fn feature_scored(
        &self,
        _g: &mut Game,
        _seg: SegId,
        _completed: bool,
        _events: &mut Vec<Event>,
    ) {
    }

    /// A figure left the board for `reason`: one that stood on a feature (no longer in the
    /// game's list) or at a place that is no feature (a tile, a corner).
    fn figure_left(&self, _g: &mut Game, _left: &Departure, _reason: ReturnReason) {}

    /// Whether a roamer — a neutral figure that moves over the board and takes the figures
    /// where it stops (P&D's dragon) — may not enter the tile at `pos`.
    fn bars_roamer(&self, _g: &Game, _pos: Pos) -> bool {
        false
    }

    /// Whether figures on the tile at `pos` are safe from `taking`: `figure` is the id of one
    /// standing on a feature there, or `None` for the tile as a whole (a roamer asks once per
    /// tile) or for the figure standing on the tile itself (a capture of a tower's top).
    fn protects(&self, _g: &Game, _taking: Taking, _pos: Pos, _figure: Option<u32>) -> bool {
        false
    }

    /// Keeps, of the figures a roamer is about to take on `pos`, those it really takes.
    fn filter_eaten(&self, _g: &mut Game, _pos: Pos, _figures: &mut Vec<u32>) {}

    /// A key (and a tile's position) standing for a completed city that a farm segment on the
    /// tile `placed` borders although no city feature joins it (the City of Carcassonne).
    fn farm_cities(&self, _g: &Game, _placed: PlacedId) -> Option<(SegId, Pos)> {
        None
    }

    /// Final scoring, before the base game's: may ask decisions (it is asked again after each).
    fn final_scoring(&self, _g: &mut Game, _events: &mut Vec<Event>) -> Option<Asked> {
        None
    }

    /// After all final scoring.
    fn game_end(&self, _g: &mut Game, _events: &mut Vec<Event>) {}

    /// Whether the active player plays again after this turn (asked as the next turn begins,
    /// before anything of it is reset).
    fn extra_turn(&self, _g: &mut Game) -> bool {
        false
    }

    /// Whether this turn has already earned its player another turn right after it (the
    /// first half of a double turn), as far as this mechanic can tell without being asked
    /// [`Mechanic::extra_turn`].
    fn gives_extra_turn(&self, _g: &Game) -> bool {
        false
    }

    /// A turn this mechanic inserts before normal play goes on (a player laying a tile the
    /// mechanic gave him): the seat that plays it. Asked as each turn begins, after
    /// [`Mechanic::extra_turn`] and before the turn passes to the next seat, even when nothing
    /// is left to draw. Once no mechanic inserts a turn, normal play resumes after the seat
    /// whose turn it was before the first inserted one.
    fn inserted_turn(&self, _g: &mut Game) -> Option<usize> {
        None
    }

    /// The tile this mechanic deals the active player for this turn instead of a draw from
    /// the bag (the tile of a turn it inserted), given up as it is dealt. A dealt tile that
    /// fits nowhere is discarded like a drawn one, and the player draws from the bag.
    fn dealt_tile(&self, _g: &mut Game) -> Option<TileId> {
        None
    }

    /// A tile of this mechanic's own (not in the bag) that `player` may lay at the start of his
    /// turn instead of drawing, if he holds one and it fits somewhere now; also asked for each
    /// seat in the last round after the bag is empty ([`Game::in_last_round`]).
    fn own_tile(&self, _g: &Game, _player: usize) -> Option<TileId> {
        None
    }

    /// The active player laid `tile`, which [`Mechanic::own_tile`] offered: it leaves his
    /// holding. The tile then goes through the turn as a drawn one would (deploy, score).
    fn own_tile_laid(&self, _g: &mut Game, _tile: TileId, _events: &mut Vec<Event>) {}

    /// Changes the `points` that `player`, who has the majority of farmers in the farm `farm`
    /// (its root), scores for it at the end under farm-centric scoring (RULES.md §1.9), from
    /// the `cities` completed cities it supplies (the pig's 4 per city).
    fn farm_points(
        &self,
        _g: &mut Game,
        _farm: SegId,
        _player: usize,
        _cities: u32,
        _points: &mut u32,
    ) {
    }
}

/// The hooks that only make the engine and the bots faster: what a mechanic may tell so that
/// the engine need not ask it, list all its answers, or call it. Each default is right for
/// every mechanic (it asks, lists or calls everything), so a rule that takes no shortcut
/// writes `impl Shortcuts for X {}`; a shortcut must give the same games as the default.
pub trait Shortcuts {
    /// For a mechanic with [`Hooks::ADDS`]: whether it adds to the decisions of the mechanic
    /// number `owner` (by default to every other mechanic's). Asked once, when the game's call
    /// lists are built: the others' decisions then pass it by (their answers of its family
    /// are not routed to it either).
    fn adds_to(&self, _owner: u8) -> bool {
        true
    }

    /// For a mechanic that adds to the decisions of `asked.by` ([`Shortcuts::adds_to`]):
    /// whether it may add anything to the decisions of kind `asked.kind` (by default to every
    /// kind). `false` only where its [`Mechanic::actions`] lists nothing: the legal list of
    /// such a decision then passes it by without asking. Asked for every kind when the game's
    /// call lists are built.
    fn adds_at(&self, _asked: Asked) -> bool {
        true
    }

    /// Lists the answers of [`Mechanic::actions`] that matter around the tile at `pos`, for a
    /// look-ahead that weighs only those ([`Game::legal_actions_near`]): answers `actions`
    /// lists, in its order, but that the mechanic may leave out deployments on other tiles
    /// and moves of the fairy. `false` (the default): it lists nothing here, and all its
    /// answers are listed.
    fn actions_near(&self, _g: &Game, _asked: Asked, _pos: Pos, _out: &mut Vec<Action>) -> bool {
        false
    }

    /// How many answers [`Mechanic::actions`] lists for `asked` (its own decision, or one it
    /// adds to), where the mechanic can tell without listing them (`None`: it cannot, and its
    /// part is listed). A bot that picks one answer at random ([`Game::pick_legal`]) then
    /// builds only the one it picks.
    fn count_actions(&self, _g: &Game, _asked: Asked) -> Option<usize> {
        None
    }

    /// The `n`-th answer [`Mechanic::actions`] lists for `asked`, for a mechanic that counts
    /// them: `n` is below `count`, the number [`Shortcuts::count_actions`] gave.
    fn nth_action(&self, _g: &Game, _asked: Asked, _n: usize, _count: usize) -> Option<Action> {
        None
    }

    /// Whether [`Mechanic::deploy_problem`] can object to anything now (asked once before the
    /// deployments of a turn are listed, so that the list skips mechanics with nothing to say).
    fn vetoes_deploy(&self, _g: &Game) -> bool {
        true
    }
}

/// The mechanics of one game, in registry order, with a call list per hook.
#[derive(Debug)]
pub struct Mechanics {
    list: Vec<Box<dyn Mechanic>>,
    /// For each hook, the set of mechanics (by index) that implement it.
    by_hook: [u32; 32],
    stages: Vec<(u8, Phase)>,
    /// For each mechanic and each remainder of its kinds of decision divided by
    /// [`Mechanics::KINDS`] (the kinds of one remainder share a list), the mechanics whose
    /// answers such a decision lists, in the legal list's order: itself, then those that add
    /// to one of those kinds.
    listing: Vec<Box<[u8]>>,
    /// For each mechanic, the set of those that add to its decisions.
    adding: Vec<u32>,
    /// The mechanics that answer every action (bit `i` for mechanic `i`; [`Route::Any`]).
    any: u32,
    /// For each family id, the mechanics that answer its actions.
    family: [u32; MAX_FAMILIES],
    /// The mechanics that answer scripts' actions.
    script: u32,
}

/// The indices in a set of mechanics, in order.
fn members(mut set: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as u8;
            set &= set - 1;
            i
        })
    })
}

impl Mechanics {
    /// How many mechanics the call lists hold (one bit each); any further ones get no hook.
    pub const MAX: usize = 32;

    /// How many lists of the mechanics that add to its decisions each mechanic has
    /// ([`Shortcuts::adds_at`]), one for each remainder of its kinds of decision divided by
    /// this number (a power of two).
    pub const KINDS: u8 = 8;

    /// Builds the lists from the mechanics in their fixed order, each asked about every
    /// action (a list made by hand; the registry's families say which actions each mechanic
    /// answers: [`Mechanics::routed`]).
    pub fn new(list: Vec<Box<dyn Mechanic>>) -> Mechanics {
        let routes = vec![Route::Any; list.len()];
        Mechanics::routed(list, routes)
    }

    /// Builds the lists from the mechanics in their fixed order, each answering the actions of
    /// its route (`routes`, one per mechanic).
    pub fn routed(list: Vec<Box<dyn Mechanic>>, mut routes: Vec<Route>) -> Mechanics {
        routes.resize(list.len(), Route::Any);
        let (mut any, mut family, mut script) = (0u32, [0u32; MAX_FAMILIES], 0u32);
        for (i, route) in routes.iter().enumerate().take(Mechanics::MAX) {
            match route {
                Route::Any => any |= 1 << i,
                Route::Family(id) => {
                    if let Some(set) = family.get_mut(usize::from(id.0)) {
                        *set |= 1 << i;
                    }
                }
                Route::Script => script |= 1 << i,
                Route::Core => {}
            }
        }
        let mut by_hook = [0u32; 32];
        for (i, m) in list.iter().enumerate().take(Mechanics::MAX) {
            for (_, h) in Hooks::ALL {
                if m.hooks().has(*h) {
                    by_hook[h.index()] |= 1 << i;
                }
            }
        }
        let mut stages = Vec::new();
        for phase in Phase::ALL {
            for (i, m) in list.iter().enumerate() {
                if m.phases().contains(&phase) {
                    stages.push((i as u8, phase));
                }
            }
        }
        let adds = by_hook[Hooks::ADDS.index()];
        let adding: Vec<u32> = (0..list.len() as u8)
            .map(|owner| {
                let others = adds & !(1u32.checked_shl(owner.into()).unwrap_or(0));
                members(others)
                    .filter(|i| list[usize::from(*i)].adds_to(owner))
                    .fold(0, |set, i| set | 1 << i)
            })
            .collect();
        let listing = (adding.iter().enumerate())
            .flat_map(|(owner, others)| {
                let list = &list;
                (0..Mechanics::KINDS).map(move |slot| {
                    // The kinds that share this list: it holds those that add to any of them.
                    let kinds = (u16::from(slot)..256).step_by(Mechanics::KINDS.into());
                    let adds = |i: &u8| {
                        kinds.clone().any(|kind| {
                            list[usize::from(*i)].adds_at(Asked {
                                by: owner as u8,
                                kind: kind as u8,
                            })
                        })
                    };
                    std::iter::once(owner as u8)
                        .chain(members(*others).filter(adds))
                        .collect()
                })
            })
            .collect();
        Mechanics {
            list,
            by_hook,
            stages,
            listing,
            adding,
            any,
            family,
            script,
        }
    }

    /// The mechanics that implement `hook`, in order.
    pub fn on(&self, hook: Hooks) -> impl Iterator<Item = &dyn Mechanic> + '_ {
        members(self.by_hook[hook.index()]).map(|i| self.listed(i))
    }

    /// The mechanic at index `i` of one of the call lists or stages, which hold indices of
    /// `list` only.
    #[inline]
    fn listed(&self, i: u8) -> &dyn Mechanic {
        debug_assert!(usize::from(i) < self.list.len());
        // SAFETY: `routed` builds `by_hook`, `listing` and `stages` from the indices of `list`, and
        // nothing changes them or `list` afterwards (no method takes `&mut self`).
        unsafe { self.list.get_unchecked(usize::from(i)) }.as_ref()
    }

    /// The mechanics of a set (bit `i` for mechanic `i`), in order.
    pub fn among(&self, set: u32) -> impl Iterator<Item = &dyn Mechanic> + '_ {
        members(set).map(|i| self.list[i as usize].as_ref())
    }

    /// The set of the mechanics that implement `hook` and for which `keep` holds.
    pub fn select(&self, hook: Hooks, keep: impl Fn(&dyn Mechanic) -> bool) -> u32 {
        members(self.by_hook[hook.index()])
            .filter(|i| keep(self.list[*i as usize].as_ref()))
            .fold(0, |set, i| set | 1 << i)
    }

    /// The first mechanic implementing `hook` for which `find` gives something: its set (its
    /// bit alone) and what it gave.
    pub fn find_map<T>(
        &self,
        hook: Hooks,
        find: impl Fn(&dyn Mechanic) -> Option<T>,
    ) -> Option<(u32, T)> {
        members(self.by_hook[hook.index()])
            .find_map(|i| find(self.list[i as usize].as_ref()).map(|found| (1 << i, found)))
    }

    /// Whether any mechanic implements `hook`.
    pub fn any(&self, hook: Hooks) -> bool {
        self.by_hook[hook.index()] != 0
    }

    /// The mechanic at index `i`.
    pub fn get(&self, i: u8) -> Option<&dyn Mechanic> {
        self.list.get(i as usize).map(|m| m.as_ref())
    }

    /// The index of the mechanic called `name`, if it is in play.
    pub fn index_of(&self, name: &str) -> Option<u8> {
        self.list
            .iter()
            .position(|m| m.name() == name)
            .map(|i| i as u8)
    }

    /// The mechanics that `action` is routed to as an answer to a decision of mechanic
    /// `owner`: of those that add to its decisions (as the fairy adds to deployment), then of
    /// the asking one, those that answer actions of its kind ([`Route`]). An action of the
    /// engine's own kinds (placing, deploying, passing) goes to the asking mechanic alone.
    pub fn answerers(
        &self,
        owner: u8,
        action: &Action,
    ) -> impl Iterator<Item = &dyn Mechanic> + '_ {
        let route = Route::of(action);
        let answering = self.answering(route);
        let owner_bit = 1u32.checked_shl(owner.into()).unwrap_or(0);
        let adding = self.adding.get(usize::from(owner)).copied().unwrap_or(0);
        let owner_answers = route == Route::Core || answering & owner_bit != 0;
        members(adding & answering)
            .chain(owner_answers.then_some(owner))
            .filter_map(|i| self.get(i))
    }

    /// The set of the mechanics that answer actions of `route` (those of the engine's own
    /// kinds: the mechanics that answer everything; the asking one answers them too).
    #[inline]
    fn answering(&self, route: Route) -> u32 {
        self.any
            | match route {
                Route::Family(id) => self.family.get(usize::from(id.0)).copied().unwrap_or(0),
                Route::Script => self.script,
                Route::Core | Route::Any => 0,
            }
    }

    /// Whether any mechanic in play answers actions of `route` (an action of a family that is
    /// not in the game has none).
    pub fn routes_to(&self, route: Route) -> bool {
        route == Route::Core || self.answering(route) != 0
    }

    /// The mechanics whose answers the decision `asked` lists, in the legal list's order: the
    /// asking mechanic itself, then those that add to its decisions of that kind (as the fairy
    /// adds to deployment, not to tile laying).
    pub fn listing(&self, asked: Asked) -> impl Iterator<Item = &dyn Mechanic> + '_ {
        let kind = asked.kind & (Mechanics::KINDS - 1);
        let at = usize::from(asked.by) * usize::from(Mechanics::KINDS) + usize::from(kind);
        let listing = self.listing.get(at).map_or(&[][..], |l| &l[..]);
        listing.iter().map(|i| self.listed(*i))
    }

    /// How many mechanics are in play.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether no mechanic is in play.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The stages of a turn: (mechanic, phase), in turn order.
    pub fn stages(&self) -> &[(u8, Phase)] {
        &self.stages
    }

    /// Stage `n` of a turn ([`Mechanics::stages`]): its mechanic and phase.
    #[inline]
    pub fn stage(&self, n: usize) -> Option<(&dyn Mechanic, Phase)> {
        let &(by, phase) = self.stages.get(n)?;
        Some((self.listed(by), phase))
    }

    /// The names of the mechanics in play, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.list.iter().map(|m| m.name()).collect()
    }
}

/// A mechanic's own state, kept with the game (copied with it): a typed value the mechanic
/// owns ([`Slots`]). A type becomes one with [`own_state!`](crate::own_state), which gives it
/// its slot.
pub trait State: std::any::Any + Send + Sync + fmt::Debug {
    /// A boxed copy.
    fn boxed(&self) -> Box<dyn State>;
    /// Copies `self` onto `to` in place, reusing its memory.
    ///
    /// # Safety
    ///
    /// `to` must hold a value of `self`'s type (in [`Slots`], a slot holds one type in every
    /// game, so the same slot of two games does). Bots copy games for every candidate they
    /// try: the copy asks no type through the vtable.
    unsafe fn copy_onto(&self, to: &mut (dyn State + 'static));
}

impl<T: std::any::Any + Send + Sync + fmt::Debug + Clone> State for T {
    fn boxed(&self) -> Box<dyn State> {
        Box::new(self.clone())
    }
    unsafe fn copy_onto(&self, to: &mut (dyn State + 'static)) {
        // SAFETY: the caller promises that `to` holds a `T`; the pointer's data part is its
        // address.
        let to = unsafe { &mut *(to as *mut dyn State).cast::<T>() };
        to.clone_from(self);
    }
}

/// A type of mechanic state with a slot of its own in every game's [`Slots`]: made by
/// [`own_state!`](crate::own_state), never by hand.
///
/// # Safety
///
/// [`Owned::cell`] must be a static of the type's own, which no other type's `cell` gives:
/// [`slot_of`] on it then gives the type a slot no other type is given, and [`Slots`] reads a
/// slot's state as the type without asking again.
pub unsafe trait Owned: State + Sized {
    /// Where its slot is kept: `usize::MAX` until the type is first given one ([`slot_of`]).
    fn cell() -> &'static std::sync::atomic::AtomicUsize;

    /// Its slot: the same for every game of the process, no other type's.
    #[inline]
    fn slot() -> usize {
        slot_of(Self::cell())
    }

    /// Its slot if it was given one, else `usize::MAX`, which no game's slots reach: a type
    /// never given a slot has no state in any game, so a read need not give it one.
    #[inline]
    fn given_slot() -> usize {
        Self::cell().load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The next slot to give a type of state ([`Owned::slot`]).
static NEXT_SLOT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A type's slot, `slot` (`usize::MAX` until the type first asks): given out once, from
/// [`NEXT_SLOT`], whichever thread asks first.
#[doc(hidden)]
#[inline]
pub fn slot_of(slot: &std::sync::atomic::AtomicUsize) -> usize {
    use std::sync::atomic::Ordering::Relaxed;
    match slot.load(Relaxed) {
        usize::MAX => claim_slot(slot),
        known => known,
    }
}

/// [`slot_of`] the first time: the type gets the next slot, unless another thread gave it one.
#[cold]
fn claim_slot(slot: &std::sync::atomic::AtomicUsize) -> usize {
    use std::sync::atomic::Ordering::Relaxed;
    let next = NEXT_SLOT.fetch_add(1, Relaxed);
    match slot.compare_exchange(usize::MAX, next, Relaxed, Relaxed) {
        Ok(_) => next,
        Err(given) => given,
    }
}

/// Makes a type (`Clone + Debug + Send + Sync`) a mechanic's state: it gets a slot of its own
/// in every game's [`Slots`], the first time one is asked for.
#[macro_export]
macro_rules! own_state {
    ($t:ty) => {
        // SAFETY: the cell is a static of this impl's own.
        unsafe impl $crate::engine::mechanic::Owned for $t {
            #[inline]
            fn cell() -> &'static std::sync::atomic::AtomicUsize {
                static SLOT: std::sync::atomic::AtomicUsize =
                    std::sync::atomic::AtomicUsize::new(usize::MAX);
                &SLOT
            }
        }
    };
}

/// The mechanics' own states, each in its type's slot ([`Owned::slot`]): a mechanic finds its
/// state by its type (no index to keep), makes it when it first needs it, and other rules
/// read it only through the owner's public readers. Finding one is an index; copying a game
/// copies each state in place ([`Clone::clone_from`]).
#[derive(Debug, Default)]
pub struct Slots(Vec<Option<Box<dyn State>>>);

impl Clone for Slots {
    fn clone(&self) -> Self {
        Slots(
            (self.0.iter())
                .map(|s| s.as_ref().map(|s| s.as_ref().boxed()))
                .collect(),
        )
    }

    fn clone_from(&mut self, source: &Self) {
        self.0.truncate(source.0.len());
        for (i, from) in source.0.iter().enumerate() {
            let copied = match (self.0.get_mut(i), from) {
                (Some(Some(to)), Some(from)) => {
                    // SAFETY: slot `i` holds the one type given slot `i` ([`Owned`]), in this
                    // game as in `source`.
                    unsafe { from.as_ref().copy_onto(to.as_mut()) };
                    true
                }
                (Some(None), None) => true,
                _ => false,
            };
            if copied {
                continue;
            }
            let fresh = from.as_ref().map(|s| s.as_ref().boxed());
            match self.0.get_mut(i) {
                Some(slot) => *slot = fresh,
                None => self.0.push(fresh),
            }
        }
    }
}

impl Slots {
    /// The state of type `T`, if there is one.
    #[inline]
    pub fn get<T: Owned>(&self) -> Option<&T> {
        let s: &dyn State = self.0.get(T::given_slot())?.as_deref()?;
        // SAFETY: slot `T::slot()` is `T`'s alone (`given_slot` is it, or no slot at all),
        // and only `entry` and `set` (with a `T`)
        // and `clone_from` (from the same slot) fill it, so it holds a `T`; the pointer's data
        // part is its address. (A checked downcast would ask the type through the vtable on
        // every read of a mechanic's state.)
        Some(unsafe { &*(s as *const dyn State).cast::<T>() })
    }

    /// The state of type `T` to change, if there is one.
    #[inline]
    pub fn get_mut<T: Owned>(&mut self) -> Option<&mut T> {
        let s: &mut dyn State = self.0.get_mut(T::given_slot())?.as_deref_mut()?;
        // SAFETY: as in `get`: the slot holds a `T`, borrowed mutably through `self`.
        Some(unsafe { &mut *(s as *mut dyn State).cast::<T>() })
    }

    /// The state of type `T` to change, made (its default) if there is none yet.
    #[inline]
    pub fn entry<T: Owned + Default>(&mut self) -> &mut T {
        let slot = self.slot(T::slot());
        let s: &mut dyn State = slot.get_or_insert_with(|| Box::new(T::default())).as_mut();
        // SAFETY: as in `get`: the slot holds a `T` (made just now if it was empty).
        unsafe { &mut *(s as *mut dyn State).cast::<T>() }
    }

    /// Puts `state` in place of any state of its type.
    pub fn set<T: Owned>(&mut self, state: T) {
        *self.slot(T::slot()) = Some(Box::new(state));
    }

    /// Slot `i`, made (empty) if there is none yet.
    #[inline]
    fn slot(&mut self, i: usize) -> &mut Option<Box<dyn State>> {
        if self.0.len() <= i {
            self.grow(i + 1);
        }
        &mut self.0[i]
    }

    /// Room for `len` slots. Out of line: a game's slots are all made early.
    #[cold]
    fn grow(&mut self, len: usize) {
        self.0.resize_with(len, || None);
    }
}
