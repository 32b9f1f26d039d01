//! Bridges, Castles & Bazaars (exp. 8; RULES-MORE.md §4): bridges laid with a tile (or, with
//! the 1st edition's timing, later in the turn), a road across a tile that may let a placement
//! fit ([`bridge`], BCB-1..BCB-6), and castles built from
//! completed small cities, which score the next feature completed near them ([`castle`],
//! BCB-7..BCB-15), and bazaars, the auction of tiles after a bazaar tile's turn ([`bazaar`],
//! BCB-16..BCB-22). Its
//! tiles are `tiles/bridges-castles.toml` (the bazaar is their own mark); the presets
//! `rulesets/hig-bcb.toml` and `rulesets/zman-bcb.toml` play it. Every P&D interaction of
//! RULES-MORE.md §5 that concerns castles follows from the follower standing on the side two
//! tiles share, on no feature and on no tile: the dragon does not eat it, the
//! princess does not remove it (Q-X1); the dragon does not eat a bridge, which stays for
//! good.

pub mod bazaar;
pub mod bridge;
pub mod castle;
pub mod rules;
pub mod show;
pub mod vocabulary;

use crate::data::ruleset::Ruleset;
use crate::data::section::{FamilyRules, Reader, Switch};
use crate::engine::family::{Descriptor, Lineup};
use crate::engine::mechanic::Asked;
use crate::mechanic::Family;
use crate::mechanic::base::PLACE;
use rules::BcbRules;

/// Bridges, Castles & Bazaars as the registry lists it: `[mechanics] bridges_castles_bazaars`,
/// the `[bcb]` section, the bridges' and castles' vocabulary.
pub const FAMILY: Family = Family {
    core: Descriptor {
        name: "bcb",
        rules: FamilyRules {
            switches: &[Switch {
                name: "bridges_castles_bazaars",
                default: false,
            }],
            section: Some(&Reader::<BcbRules>::NEW),
        },
        vocabulary: Some(vocabulary::words),
        figures: &[],
        build,
    },
    show: Some(&show::Show),
    script: None,
};

/// The `[bcb]` section of `rules` (its defaults when the ruleset has none).
pub fn rules_of(rules: &Ruleset) -> BcbRules {
    *BcbRules::of(rules)
}

/// Puts the bridges (they answer the base game's placement) and the castles into the game's
/// list when `[mechanics] bridges_castles_bazaars` is on.
fn build(rules: &Ruleset, list: &mut Lineup) {
    if rules.switched_on("bridges_castles_bazaars") {
        let bcb = rules_of(rules);
        if let Some(base) = list.index_of("base") {
            let place = Asked {
                by: base,
                kind: PLACE,
            };
            list.push(bridge::Bridges::new(place, list.next(), bcb.bridge.timing));
        }
        list.push(castle::CastleMechanic::new(rules, list.next(), bcb.castle));
        // The bazaars play where the tiles carry the mark.
        if let Some(bazaar) = rules.prints.symbol_named("bazaar") {
            list.push(bazaar::Bazaars::new(
                list.next(),
                bazaar,
                bcb.bazaar.auction,
            ));
        }
    }
}
