//! What a family gives the scripts: its own queries and commands, the hooks that follow its
//! decisions, the filters of its actions and how a script's answer to its decision goes on.
//!
//! `script/` names no family. Each family that scripts can reach has one registration
//! function, `pub fn commands(api: &mut ScriptApi)` (the P&D's is
//! `mechanic::pd::script::commands`), named by its `FAMILY` (`mechanic::Family`); every
//! ruleset's scripts are compiled with all of them.

use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::mechanic::Then;
use crate::engine::vocabulary::Vocabulary;
use crate::script::{Command, lock};
use rhai::{Engine, NativeCallContext, Position};
use std::sync::{Arc, Mutex};

/// The game while a hook runs (moved in and out, so queries see the real game).
pub(crate) type Slot = Arc<Mutex<Option<Game>>>;

/// `f` of the game in the slot, for a script function that changes it; outside a hook call
/// (no game in the slot) the script's error `outside`.
pub(crate) fn with_game<T>(
    slot: &Slot,
    outside: &'static str,
    f: impl FnOnce(&mut Game) -> Result<T, Box<rhai::EvalAltResult>>,
) -> Result<T, Box<rhai::EvalAltResult>> {
    match crate::script::lock(slot).as_mut() {
        Some(g) => f(g),
        None => Err(outside.into()),
    }
}

/// The commands a hook gave, with where in the script each was given.
pub(crate) type Out = Arc<Mutex<Vec<(Command, Position)>>>;

/// A family's command, applied by the host after the hook returns: it changes the game
/// (checked as a move would be) or says what is wrong. It gets the script's name and the
/// events of the action.
pub(crate) type FamilyCommand =
    Box<dyn FnOnce(&mut Game, &Arc<str>, &mut Vec<Event>) -> Result<(), String> + Send + Sync>;

/// What a filter hook compares: x, y, the spot and the rotation in degrees.
pub(crate) type FilterKey = (i64, i64, Option<String>, Option<i64>);

/// A filter hook over one kind of a family's decision (`filter_dragon_steps`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Filter {
    /// The hook's name.
    pub(crate) hook: &'static str,
    /// Whether the pending decision is the one it filters.
    pub(crate) applies: fn(&DecisionKind) -> bool,
    /// What the hook is given of one of the family's actions (`None`: not filtered).
    pub(crate) key: fn(&Action) -> Option<FilterKey>,
}

/// What the families told the scripts' host, kept with the compiled scripts.
#[derive(Debug, Default)]
pub(crate) struct Bridge {
    /// Run after any decision was answered, with its kind (the family picks its own).
    pub(crate) answered: Vec<fn(&mut Game, DecisionKind, &mut Vec<Event>)>,
    /// The families' filter hooks.
    pub(crate) filters: Vec<Filter>,
    /// How the turn goes on after a script's action answered a family's decision.
    pub(crate) then: Vec<fn(&DecisionKind) -> Option<Then>>,
    /// The families' vocabularies by family name, whose events and reasons scripts use
    /// (`event`, `credit`, `return_figure(id, family, reason)`).
    pub(crate) vocabularies: Vec<(&'static str, &'static dyn Vocabulary)>,
}

impl std::fmt::Debug for dyn Vocabulary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "vocabulary {}", self.id().0)
    }
}

/// Where a family registers what scripts can do with it (see the module's header).
pub struct ScriptApi<'e> {
    engine: &'e mut Engine,
    slot: Slot,
    out: Out,
    bridge: Bridge,
}

impl<'e> ScriptApi<'e> {
    pub(crate) fn new(engine: &'e mut Engine, slot: &Slot, out: &Out) -> ScriptApi<'e> {
        ScriptApi {
            engine,
            slot: Arc::clone(slot),
            out: Arc::clone(out),
            bridge: Bridge::default(),
        }
    }

    /// The sandboxed rhai engine, to register the family's functions on.
    pub fn engine(&mut self) -> &mut Engine {
        self.engine
    }

    /// A handle with which a registered query reads the game.
    pub fn reader(&self) -> Reader {
        Reader(Arc::clone(&self.slot))
    }

    /// A handle with which a registered command is given.
    pub fn giver(&self) -> Giver {
        Giver(Arc::clone(&self.out))
    }

    /// Runs `hook` after every answered decision (it picks the kinds of its family).
    pub fn on_answered(&mut self, hook: fn(&mut Game, DecisionKind, &mut Vec<Event>)) {
        self.bridge.answered.push(hook);
    }

    /// Adds a filter hook over one of the family's decisions.
    pub(crate) fn filter(&mut self, filter: Filter) {
        self.bridge.filters.push(filter);
    }

    /// Lets scripts log the events of the family called `family` and send figures home for
    /// its reasons, worded as the family words them (`event`, `credit`, `return_figure`).
    pub fn vocabulary(&mut self, family: &'static str, vocabulary: &'static dyn Vocabulary) {
        self.bridge.vocabularies.push((family, vocabulary));
    }

    /// Says how the turn goes on after a script's action answered one of the family's
    /// decisions (`None`: not the family's; the default is the next stage).
    pub fn then(&mut self, then: fn(&DecisionKind) -> Option<Then>) {
        self.bridge.then.push(then);
    }

    pub(crate) fn into_bridge(self) -> Bridge {
        self.bridge
    }
}

/// Reads the game from a registered function (see [`ScriptApi::reader`]).
#[derive(Clone, Debug)]
pub struct Reader(Slot);

impl Reader {
    /// `f` of the game; `None` outside a hook call (then queries answer `()`).
    pub fn read<T>(&self, f: impl FnOnce(&Game) -> T) -> Option<T> {
        lock(&self.0).as_ref().map(f)
    }
}

/// Gives commands from a registered function (see [`ScriptApi::giver`]).
#[derive(Clone)]
pub struct Giver(Out);

impl Giver {
    /// Gives `command`, kept with the place in the script that gave it (for its error).
    pub(crate) fn give(&self, ctx: &NativeCallContext, command: Command) {
        lock(&self.0).push((command, ctx.call_position()));
    }

    /// Gives a family's command: `apply` changes the game after the hook returns, or says
    /// what is wrong (a script error at this call).
    pub fn family(
        &self,
        ctx: &NativeCallContext,
        apply: impl FnOnce(&mut Game, &Arc<str>, &mut Vec<Event>) -> Result<(), String>
        + Send
        + Sync
        + 'static,
    ) {
        self.give(ctx, Command::Family(Box::new(apply)));
    }
}
