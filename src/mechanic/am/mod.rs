//! Abbey & Mayor (exp. 5; RULES-MORE.md §2): the mayor, whose strength in a city is the
//! city's pennants (AM-7..AM-9, [`mayor`]), the wagon, which moves on to an adjacent feature
//! after its own is scored (AM-10..AM-14, [`wagon`]), and the barn, put on a field corner
//! instead of a follower, which scores the field's farmers and, at the end, its cities
//! (AM-15..AM-20, [`barn`]). Their figures are rows of the shipped figure table (`mayor`,
//! `wagon`, `barn`) that the presets `rulesets/hig-am.toml` and `rulesets/zman-am.toml` give
//! each player one of; the mayor and the wagon are deployed with the base game's deployment,
//! the barn answers it instead. Every P&D interaction of RULES-MORE.md §5 that concerns them
//! follows from their rows (their follower classes and tags, which the dragon's menu, the
//! princess, the portal and the fairy read) and from the barn standing at a corner, on no
//! feature. Each player's abbey tile (AM-1..AM-6, [`abbey`]) is laid into a hole instead of
//! drawing, through the engine's offer of a tile of a mechanic's own.

pub mod abbey;
pub mod barn;
pub mod mayor;
pub mod rules;
pub mod show;
pub mod vocabulary;
pub mod wagon;

use crate::data::ruleset::Ruleset;
use crate::data::section::{FamilyRules, Reader, Switch};
use crate::engine::family::{Descriptor, Lineup};
use crate::mechanic::Family;
use rules::AmRules;

/// Abbey & Mayor as the registry lists it: `[mechanics] abbey_mayor`, the `[am]` section, the
/// wagon's and the barn's vocabulary and the mayor's, wagon's and barn's figures.
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
        figures: &["mayor", "wagon", "barn"],
        build,
    },
    show: Some(&show::Show),
    script: None,
};

/// The `[am]` section of `rules` (its defaults when the ruleset has none).
pub fn rules_of(rules: &Ruleset) -> AmRules {
    rules.section::<AmRules>().copied().unwrap_or_default()
}

/// Puts the mayor's strength, the wagon's move and the barns (after the base game, whose
/// deployment they answer) into the game's list when `[mechanics] abbey_mayor` is on.
fn build(rules: &Ruleset, list: &mut Lineup) {
    if rules.switched_on("abbey_mayor") {
        let am = rules_of(rules);
        if let Some(abbeys) = abbey::Abbeys::new(rules, am.abbey) {
            list.push(abbeys);
        }
        list.push(mayor::Mayors::new(rules, am.mayor));
        list.push(wagon::Wagons::new(rules, list.next(), am.wagon));
        let base = list.index_of("base");
        if let Some(barns) = base.and_then(|base| barn::Barns::new(rules, base, am.barn)) {
            list.push(barns);
        }
    }
}
