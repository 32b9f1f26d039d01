//! A family of mechanics as the registry lists it: one [`Descriptor`] per family folder
//! (`mechanic/*/mod.rs`, `pub const FAMILY`), declaring in one place its switches and its own
//! ruleset section, its vocabulary, its figures and how it puts its
//! mechanics into a game's list ([`Lineup`]). A family folder's `FAMILY` (`mechanic::Family`)
//! holds this descriptor beside its presentation and its script commands, which need layers
//! above the engine.

use super::action::Action;
use super::mechanic::{Mechanic, Mechanics};
use super::vocabulary::{MechanicId, Vocabulary};
use crate::data::ruleset::Ruleset;
use crate::data::section::FamilyRules;

/// One family of mechanics, all it brings in one place.
#[derive(Debug, Clone, Copy)]
pub struct Descriptor {
    /// The family's name (its folder under `src/mechanic/`).
    pub name: &'static str,
    /// Its switches in `[mechanics]` and its own ruleset section (read and checked by the
    /// ruleset loader, kept under its type: [`Ruleset::section`]).
    pub rules: FamilyRules,
    /// Its vocabulary (actions, decisions, events: names, words, record keys, JSON), if it has
    /// actions, decisions or events of its own. Actions of the family are routed to its
    /// mechanics only.
    pub vocabulary: Option<fn() -> &'static dyn Vocabulary>,
    /// The rows of the shipped figure table (`src/data/figures.toml`) that are its figures.
    pub figures: &'static [&'static str],
    /// Puts the mechanics `rules` switches on into the game's list, in their order.
    pub build: fn(&Ruleset, &mut Lineup),
}

impl Descriptor {
    /// Its vocabulary's family id, if it has a vocabulary.
    pub fn id(&self) -> Option<MechanicId> {
        self.vocabulary.map(|v| v().id())
    }

    /// Whether `rules` switches on any of its switches (a family without switches is always
    /// in play).
    pub fn in_play(&self, rules: &Ruleset) -> bool {
        let switches = self.rules.switches;
        switches.is_empty() || switches.iter().any(|s| rules.switched_on(s.name))
    }
}

/// A game's list of mechanics as the families fill it, in registry order: each mechanic is
/// kept with the family whose actions it answers.
#[derive(Debug, Default)]
pub struct Lineup {
    list: Vec<Box<dyn Mechanic>>,
    families: Vec<Route>,
    family: Route,
}

/// Which actions a mechanic answers besides those of the engine's own kinds (placing,
/// deploying, passing, which only the asking mechanic answers): its family's
/// ([`Action::Mechanic`]), or scripts' ([`Action::Script`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Route {
    /// Only the engine's own kinds.
    #[default]
    Core,
    /// Its family's actions.
    Family(MechanicId),
    /// Scripts' actions.
    Script,
    /// Every action (a mechanic in a list made by hand, [`Mechanics::new`]).
    Any,
}

impl Route {
    /// The route of `action`.
    #[inline]
    pub fn of(action: &Action) -> Route {
        match action {
            Action::Mechanic(m) => Route::Family(m.mechanic),
            Action::Script(_) => Route::Script,
            _ => Route::Core,
        }
    }
}

impl Lineup {
    /// Mechanics pushed from now on answer the actions of `route`.
    pub fn family(&mut self, route: Route) {
        self.family = route;
    }

    /// The index the next mechanic gets.
    pub fn next(&self) -> u8 {
        self.list.len() as u8
    }

    /// Adds a mechanic at the end of the list.
    pub fn push(&mut self, mechanic: impl Mechanic + 'static) {
        self.list.push(Box::new(mechanic));
        self.families.push(self.family);
    }

    /// The index of the mechanic called `name`, if one is in the list already.
    pub fn index_of(&self, name: &str) -> Option<u8> {
        self.list
            .iter()
            .position(|m| m.name() == name)
            .map(|i| i as u8)
    }

    /// The game's mechanics, with their call lists.
    pub fn finish(self) -> Mechanics {
        Mechanics::routed(self.list, self.families)
    }
}
