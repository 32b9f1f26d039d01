//! The registry: which mechanics a ruleset switches on, in their fixed order. This is the one
//! place that names every mechanic; adding one is one line here (see
//! `docs/adding-a-mechanic.md`).
//!
//! The order is the order of every hook call: the Count first (it scores what a tile completes
//! with its quarters' rounds, in place of the base game), then the base game, inns and
//! cathedrals (they change what the base game pays), the volcano, the
//! princess (before the dragon when both act right after the tile), the dragon, the fairy, the
//! portal, the abbot's recall, Traders & Builders (its builders and pigs follow the P&D figures'
//! moves), and the ruleset's scripts last (their hooks see what the built-in rules did).

use crate::data::diagnostic::Diagnostic;
use crate::data::files::Named;
use crate::data::library::{self, Kind};
use crate::data::ruleset::Ruleset;
use crate::engine::event::Event;
use crate::engine::game::{Game, Setup, SetupError};
use crate::engine::mechanic::{Asked, Mechanic, Mechanics};
use crate::engine::vocabulary::Vocabulary;
use crate::mechanic::abbot::Abbot;
use crate::mechanic::base::Base;
use crate::mechanic::count::CountOfCarcassonne;
use crate::mechanic::ic::InnsCathedrals;
use crate::mechanic::pd::dragon::Dragon;
use crate::mechanic::pd::fairy::FairyMechanic;
use crate::mechanic::pd::portal::Portal;
use crate::mechanic::pd::princess::Princess;
use crate::mechanic::pd::volcano::Volcano;
use crate::mechanic::tb::TradersBuilders;
use crate::script::mechanic::ScriptMechanic;
use std::path::Path;
use std::sync::Arc;

/// The vocabularies of the built-in mechanic families: their actions', decisions' and events'
/// names, words, record keys and JSON form (`engine::vocabulary`).
pub fn vocabularies() -> [&'static dyn Vocabulary; 4] {
    [
        crate::mechanic::pd::vocabulary::words(),
        crate::mechanic::count::vocabulary::words(),
        crate::mechanic::abbot::vocabulary::words(),
        crate::mechanic::tb::vocabulary::words(),
    ]
}

/// The vocabularies of the families whose mechanics `rules` switches on (a subset of
/// [`vocabularies`], in its order): the families whose actions its games can ask for.
pub fn vocabularies_in(rules: &Ruleset) -> Vec<&'static dyn Vocabulary> {
    let on = rules.mechanics;
    let pd = on.princess || on.dragon || on.fairy || on.portal || on.volcano;
    let [pd_words, count, abbot, tb] = vocabularies();
    [
        (pd, pd_words),
        (on.count, count),
        (on.abbot, abbot),
        (on.traders_builders, tb),
    ]
    .into_iter()
    .filter_map(|(used, v)| used.then_some(v))
    .collect()
}

/// The families' script commands and queries: each family that scripts can reach registers
/// its own (`script::family`), one line per family.
pub(crate) fn script_families() -> [fn(&mut crate::script::family::ScriptApi); 1] {
    [crate::mechanic::pd::script::commands]
}

/// The mechanics `rules` switches on, in registry order.
pub fn mechanics(rules: &Ruleset) -> Mechanics {
    let on = rules.mechanics;
    let mut list: Vec<Box<dyn Mechanic>> = Vec::new();
    let next = |list: &Vec<Box<dyn Mechanic>>| list.len() as u8;
    if on.count {
        list.push(Box::new(CountOfCarcassonne::new(next(&list))));
    }
    let base = next(&list);
    list.push(Box::new(Base::new(base)));
    if on.inns_cathedrals {
        list.push(Box::new(InnsCathedrals));
    }
    if on.volcano {
        list.push(Box::new(Volcano));
    }
    if on.princess {
        list.push(Box::new(Princess::new(next(&list), &rules.figures)));
    }
    if on.dragon {
        list.push(Box::new(Dragon::new(next(&list), rules.pd.dragon.timing)));
    }
    if on.fairy {
        let deploy = Asked {
            by: base,
            kind: crate::mechanic::base::DEPLOY,
        };
        list.push(Box::new(FairyMechanic::new(
            next(&list),
            deploy,
            rules.pd.fairy.move_condition,
            &rules.figures,
        )));
    }
    if on.portal {
        list.push(Box::new(Portal));
    }
    if on.abbot {
        list.push(Box::new(Abbot::new(Asked {
            by: base,
            kind: crate::mechanic::base::DEPLOY,
        })));
    }
    // Traders & Builders after the P&D figures: its stages send builders and pigs home after
    // the princess's and the dragon's at the same point of the turn (PR7, D8).
    if on.traders_builders {
        list.push(Box::new(TradersBuilders));
    }
    if let Some(scripts) = rules.compiled_scripts() {
        list.push(Box::new(ScriptMechanic::new(next(&list), scripts)));
    }
    Mechanics::new(list)
}

impl Ruleset {
    /// Loads a ruleset the user names: by name (`rulesets/NAME.toml` or built in) or by path.
    pub fn load(reference: &str) -> Result<Arc<Ruleset>, Diagnostic> {
        let source = library::find(Kind::Ruleset, reference, Named::ByUser)
            .map_err(|msg| Diagnostic::new(Path::new(reference), &Arc::from(""), None, msg))?;
        Ruleset::from_source(source).map(Arc::new)
    }

    /// Loads a ruleset from a file's text and compiles its scripts with every family's script
    /// commands.
    pub fn from_source(source: library::Source) -> Result<Ruleset, Diagnostic> {
        let rules = Ruleset::read(source)?;
        rules.compile_scripts(&script_families())?;
        Ok(rules)
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
