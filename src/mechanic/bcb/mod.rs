//! Bridges, Castles & Bazaars (expansion 8; RULES-MORE.md §4): `[mechanics]
//! bridges_castles_bazaars`, its `[bcb]` section. This folder holds the bridges (BCB-1 to
//! BCB-6, [`bridge`]); the castles and bazaars join it in the same family.

pub mod bridge;
pub mod rules;
pub mod show;
pub mod vocabulary;

use crate::data::ruleset::Ruleset;
use crate::data::section::{FamilyRules, Reader, Switch};
use crate::engine::family::{Descriptor, Lineup};
use crate::engine::mechanic::Asked;
use crate::mechanic::Family;
use crate::mechanic::base::PLACE;

/// The switch of Bridges, Castles & Bazaars.
pub const SWITCH: &str = "bridges_castles_bazaars";

/// Bridges, Castles & Bazaars as the registry lists it: `[mechanics] bridges_castles_bazaars`,
/// its `[bcb]` section, its bridges.
pub const FAMILY: Family = Family {
    core: Descriptor {
        name: "bcb",
        rules: FamilyRules {
            switches: &[Switch {
                name: SWITCH,
                default: false,
            }],
            section: Some(&Reader::<rules::BcbRules>::NEW),
        },
        vocabulary: Some(vocabulary::words),
        figures: &[],
        build,
    },
    show: Some(&show::Show),
    script: None,
};

/// Puts the family's mechanics into the game's list when its switch is on: the bridges answer
/// the base game's placement.
fn build(rules: &Ruleset, list: &mut Lineup) {
    if !rules.switched_on(SWITCH) {
        return;
    }
    if let Some(base) = list.index_of("base") {
        list.push(bridge::Bridges::new(Asked {
            by: base,
            kind: PLACE,
        }));
    }
}
