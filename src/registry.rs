//! The registry: the one list of mechanic families ([`FAMILIES`], one [`Family`] per folder of
//! `src/mechanic/`: its engine [`Descriptor`], its presentation and its script commands), in
//! their fixed order. This is the one place that names every
//! family; adding one is one line here (see `docs/adding-a-mechanic.md`).
//!
//! The order is the order of every hook call: the Count first (it scores what a tile completes
//! with its quarters' rounds, in place of the base game), then the base game, inns and
//! cathedrals (they change what the base game pays), The Princess & the Dragon (the volcano,
//! the princess before the dragon when both act right after the tile, the dragon, the fairy,
//! the portal), the abbot's recall, Traders & Builders (its builders and pigs follow the P&D
//! figures' moves), Abbey & Mayor, The Tower, and the ruleset's scripts last (their hooks see
//! what the built-in rules did).
//!
//! Loading a ruleset reads every family's switches and section ([`Ruleset::load`]); starting a
//! game asks each family for its mechanics ([`mechanics`]), each kept with the family whose
//! actions it answers.

use crate::data::diagnostic::Diagnostic;
use crate::data::files::Named;
use crate::data::library::{self, Kind};
use crate::data::ruleset::Ruleset;
use crate::data::section::FamilyRules;
use crate::engine::event::Event;
#[cfg(doc)]
use crate::engine::family::Descriptor;
use crate::engine::family::{Lineup, Route};
use crate::engine::game::{Game, Setup, SetupError};
use crate::engine::mechanic::Mechanics;
use crate::engine::show::Presenter;
use crate::engine::vocabulary::Vocabulary;
use crate::mechanic::{Family, abbot, am, base, bcb, count, ic, pd, tb, tower};
use crate::script::mechanic::ScriptMechanic;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Every built-in family, in registry order.
pub const FAMILIES: &[Family] = &[
    count::FAMILY,
    base::FAMILY,
    ic::FAMILY,
    pd::FAMILY,
    abbot::FAMILY,
    tb::FAMILY,
    am::FAMILY,
    tower::FAMILY,
    bcb::FAMILY,
];

/// The families' parts of a ruleset (switches and sections), for the ruleset loader.
pub fn family_rules() -> Vec<FamilyRules> {
    FAMILIES.iter().map(|f| f.core.rules).collect()
}

/// The presentations of the built-in mechanic families (`engine::show`): their words, tallies,
/// JSON and pictures, which the user interfaces ask in registry order; the scripts' last (the
/// tokens they say players hold).
pub fn presenters() -> &'static [&'static dyn Presenter] {
    static LIST: OnceLock<Vec<&'static dyn Presenter>> = OnceLock::new();
    LIST.get_or_init(|| {
        let scripts: &'static dyn Presenter = &crate::script::tokens::Show;
        (FAMILIES.iter().filter_map(|f| f.show))
            .chain([scripts])
            .collect()
    })
}

/// The vocabularies of the built-in families: their actions', decisions' and events' names,
/// words, record keys and JSON form (`engine::vocabulary`).
pub fn vocabularies() -> Vec<&'static dyn Vocabulary> {
    FAMILIES
        .iter()
        .filter_map(|f| f.core.vocabulary)
        .map(|v| v())
        .collect()
}

/// The vocabularies of the families `rules` puts in play (a subset of [`vocabularies`], in its
/// order): the families whose actions its games can ask for.
pub fn vocabularies_in(rules: &Ruleset) -> Vec<&'static dyn Vocabulary> {
    (FAMILIES.iter())
        .filter(|f| f.core.in_play(rules))
        .filter_map(|f| f.core.vocabulary)
        .map(|v| v())
        .collect()
}

/// The families' script commands and queries (`script::family`), in registry order, and
/// every family's vocabulary by name.
fn script_families() -> Vec<fn(&mut crate::script::family::ScriptApi)> {
    let mut list: Vec<fn(&mut crate::script::family::ScriptApi)> =
        FAMILIES.iter().filter_map(|f| f.script).collect();
    list.push(family_words);
    list
}

/// Every family's vocabulary, for scripts that log a family's events or send figures home for
/// its reasons (whether or not the ruleset switches the family on: a script may play its part).
fn family_words(api: &mut crate::script::family::ScriptApi) {
    for family in FAMILIES {
        if let Some(vocabulary) = family.core.vocabulary {
            api.vocabulary(family.core.name, vocabulary());
        }
    }
}

/// The mechanics `rules` switches on, in registry order, each answering its family's actions.
pub fn mechanics(rules: &Ruleset) -> Mechanics {
    let mut list = Lineup::default();
    for family in FAMILIES {
        let core = &family.core;
        list.family(core.id().map_or(Route::Core, Route::Family));
        (core.build)(rules, &mut list);
    }
    if let Some(scripts) = rules.compiled_scripts() {
        list.family(Route::Script);
        // The standing offers (`offer_deploy`) answer the base game's deployment.
        let deploy = list
            .index_of("base")
            .map(|by| crate::engine::mechanic::Asked {
                by,
                kind: crate::mechanic::base::DEPLOY,
            });
        list.push(ScriptMechanic::new(list.next(), scripts, deploy));
    }
    list.finish()
}

impl Ruleset {
    /// Loads a ruleset the user names: by name (`rulesets/NAME.toml` or built in) or by path.
    pub fn load(reference: &str) -> Result<Arc<Ruleset>, Diagnostic> {
        let source = library::find(Kind::Ruleset, reference, Named::ByUser)
            .map_err(|msg| Diagnostic::new(Path::new(reference), &Arc::from(""), None, msg))?;
        Ruleset::from_source(source).map(Arc::new)
    }

    /// Loads a ruleset from a file's text with every family's switches and section, and
    /// compiles its scripts with every family's script commands.
    pub fn from_source(source: library::Source) -> Result<Ruleset, Diagnostic> {
        let rules = Ruleset::read(source, &family_rules())?;
        rules.compile_scripts(&script_families())?;
        Ok(rules)
    }

    /// Gives a copy of a ruleset scripts compiled for it alone, so that the games of one
    /// thread never wait for another thread's hook (the compiled scripts run one hook at a
    /// time). Keeps the shared ones should compiling fail, which the same sources, compiled
    /// before, cannot.
    pub fn own_scripts(&mut self) {
        if self.scripts.is_none() {
            return;
        }
        let shared = std::mem::take(&mut self.compiled);
        if self.compile_scripts(&script_families()).is_err() {
            self.compiled = shared;
        }
    }
}

impl Game {
    /// Starts a game under `rules` with the mechanics it switches on: lays the start tiles and
    /// runs up to the first decision. Returns the game and the events of the set-up.
    pub fn new(rules: Arc<Ruleset>, setup: Setup) -> Result<(Game, Vec<Event>), SetupError> {
        // The list is built once per ruleset and shared by its games.
        let mechanics = rules
            .derived
            .get_or_init(|| mechanics(&rules))
            .unwrap_or_else(|| Arc::new(mechanics(&rules)));
        Game::with_mechanics(rules, setup, mechanics)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabularies_have_their_own_ids_and_record_keys() {
        let list = vocabularies();
        let mut ids: Vec<u8> = list.iter().map(|v| v.id().0).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), list.len());
        let core = ["place", "deploy", "figure", "script", "pass"];
        let mut keys: Vec<&str> = list
            .iter()
            .flat_map(|v| v.record_keys().iter().map(|k| k.key))
            .collect();
        assert!(keys.iter().all(|k| !core.contains(k)), "{keys:?}");
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
        assert!(
            list.iter()
                .all(|v| usize::from(v.id().0) < crate::engine::vocabulary::MAX_FAMILIES)
        );
    }
}
