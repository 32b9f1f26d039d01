//! Abbey & Mayor (exp. 5; RULES-MORE.md §2): the mayor, whose strength in a city is the
//! city's pennants (AM-7..AM-9, [`mayor`]), and the wagon, which moves on to an adjacent
//! feature after its own is scored (AM-10..AM-14, [`wagon`]). Both are followers of the figure
//! table (rows `mayor` and `wagon`, written by its presets `rulesets/hig-am.toml` and
//! `rulesets/zman-am.toml`), deployed with the base game's
//! deployment; every P&D interaction of RULES-MORE.md §5 that concerns them follows from
//! their rows (their follower classes and tags, which the dragon's menu, the princess, the
//! portal and the fairy read). The abbey tile and the barn are not built yet (see
//! `rulesets/README.md`, `[am]`).

pub mod mayor;
pub mod rules;
pub mod vocabulary;
pub mod wagon;

use crate::data::ruleset::Ruleset;
use crate::data::section::{FamilyRules, Reader, Switch};
use crate::engine::family::{Descriptor, Lineup};
use crate::mechanic::Family;
use rules::AmRules;

/// Abbey & Mayor as the registry lists it: `[mechanics] abbey_mayor`, the `[am]` section, the
/// wagon's vocabulary and the mayor's and wagon's figures.
pub const FAMILY: Family = Family {
    core: Descriptor {
        name: "abbey_mayor",
        rules: FamilyRules {
            switches: &[Switch {
                name: "abbey_mayor",
                default: false,
            }],
            section: Some(&Reader::<AmRules>::NEW),
        },
        vocabulary: Some(vocabulary::words),
        // Its figures are rows its presets write (`rulesets/hig-am.toml`): the shipped table is full.
        figures: &[],
        build,
    },
    show: None,
    script: None,
};

/// The `[am]` section of `rules` (its defaults when the ruleset has none).
pub fn rules_of(rules: &Ruleset) -> AmRules {
    rules.section::<AmRules>().copied().unwrap_or_default()
}

/// Puts the mayor's strength and the wagon's move into the game's list when
/// `[mechanics] abbey_mayor` is on.
fn build(rules: &Ruleset, list: &mut Lineup) {
    if rules.switched_on("abbey_mayor") {
        let am = rules_of(rules);
        list.push(mayor::Mayors::new(rules, am.mayor));
        list.push(wagon::Wagons::new(rules, list.next(), am.wagon));
    }
}
