//! The Princess & the Dragon: the volcano, the dragon, the fairy, the princess and the magic
//! portal (RULES.md §2).

pub mod dragon;
pub mod fairy;
pub mod portal;
pub mod princess;
pub mod rules;
pub(crate) mod script;
pub mod show;
pub mod vocabulary;
pub mod volcano;

use crate::data::ruleset::Ruleset;
use crate::data::section::{FamilyRules, Reader, Switch};
use crate::engine::family::{Descriptor, Lineup};
use crate::engine::game::Game;
use crate::engine::mechanic::Asked;
use crate::mechanic::Family;
use crate::model::geometry::Pos;
pub use fairy::Fairy;

/// The Princess & the Dragon as the registry lists it: its five switches, the `[pd]` section,
/// its actions, decisions and events.
pub const FAMILY: Family = Family {
    core: Descriptor {
        name: "pd",
        rules: FamilyRules {
            switches: &[
                off("volcano"),
                off("dragon"),
                off("fairy"),
                off("princess"),
                off("portal"),
            ],
            section: Some(&Reader::<rules::PdRules>::NEW),
        },
        vocabulary: Some(vocabulary::words),
        figures: &[],
        build,
    },
    show: Some(&show::Show),
    script: Some(script::commands),
};

/// A switch that is off unless a ruleset switches it on.
const fn off(name: &'static str) -> Switch {
    Switch {
        name,
        default: false,
    }
}

/// Puts the P&D mechanics the ruleset switches on into the game's list, in their order: the
/// volcano, the princess (before the dragon when both act right after the tile), the dragon,
/// the fairy (which adds its moves to the base game's deployment) and the portal.
fn build(rules: &Ruleset, list: &mut Lineup) {
    let pd = rules::PdRules::of(rules);
    if rules.switched_on("volcano") {
        list.push(volcano::Volcano);
    }
    if rules.switched_on("princess") {
        list.push(princess::Princess::new(list.next(), &rules.figures));
    }
    if rules.switched_on("dragon") {
        list.push(dragon::Dragon::new(list.next(), &pd.dragon));
    }
    if let Some(base) = list.index_of("base").filter(|_| rules.switched_on("fairy")) {
        let deploy = Asked {
            by: base,
            kind: crate::mechanic::base::DEPLOY,
        };
        list.push(fairy::FairyMechanic::new(
            list.next(),
            deploy,
            pd,
            &rules.figures,
        ));
    }
    if rules.switched_on("portal") {
        list.push(portal::Portal::new(&rules.figures));
    }
}

/// The P&D figures as every reader sees them (the renderers, the bots, the scripts): the
/// owner's public readers of its state.
impl Game {
    /// Where the dragon is, if it is on the board.
    pub fn dragon(&self) -> Option<Pos> {
        dragon::at(self)
    }

    /// Whether the dragon has entered play (it may be off the board, hidden by a script).
    pub fn dragon_in_play(&self) -> bool {
        dragon::in_play(self)
    }

    /// Dragon tiles set aside while the dragon is not in play (D0).
    pub fn set_aside(&self) -> usize {
        dragon::state(self).map_or(0, |s| s.set_aside.len())
    }

    /// Where the fairy is, if it is on the board.
    pub fn fairy(&self) -> Option<Fairy> {
        fairy::at(self)
    }
}
