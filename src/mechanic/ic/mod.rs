//! Inns & Cathedrals: what inns and cathedrals make a road or a city worth (RULES.md §1.6, the
//! I&C line; \[ext:X1\] in RULES.md's sources). An inn beside a road makes the whole road worth 2
//! per tile when it is completed and nothing when it is still open at the end; a cathedral does
//! the same to its city: 3 per tile and per pennant when completed, nothing at the end
//! (RULES.md T-B3). The markers come from the tile files (`inn`, `cathedral`) and are summed per
//! feature by the board, so the rule reads them in O(1).
//!
//! The big follower is a figure table row (`figures.big` in `src/data/figures.toml`), given to
//! the players by the I&C presets; the sixth player is the presets' `players` range.

use crate::data::printed::{CATHEDRAL, INN};
use crate::data::ruleset::Ruleset;
use crate::data::section::{FamilyRules, Switch};
use crate::engine::family::{Descriptor, Lineup};
use crate::engine::game::{Game, Size};
use crate::engine::mechanic::{Hooks, Mechanic, Shortcuts};
use crate::mechanic::Family;
use crate::model::feature::SegId;
use crate::model::tile::{Counters, FeatureKind};

/// Inns & Cathedrals as the registry lists it: `[mechanics] inns_cathedrals` and the big
/// follower.
pub const FAMILY: Family = Family {
    core: Descriptor {
        name: "ic",
        rules: FamilyRules {
            switches: &[Switch {
                name: "inns_cathedrals",
                default: false,
            }],
            section: None,
        },
        vocabulary: None,
        figures: &["big"],
        build,
    },
    show: None,
    script: None,
};

/// Puts the inns and cathedrals into the game's list when they are switched on.
fn build(rules: &Ruleset, list: &mut Lineup) {
    if rules.switched_on("inns_cathedrals") {
        list.push(InnsCathedrals);
    }
}

/// The inns and cathedrals of Inns & Cathedrals (`[mechanics] inns_cathedrals`).
#[derive(Debug)]
pub struct InnsCathedrals;

/// The value of a road or city with the counters `marks`, or `None` when no inn or cathedral
/// changes the base value.
pub fn value(kind: FeatureKind, marks: Counters, size: Size, completed: bool) -> Option<u32> {
    let worth = |per: u32, units: u32| if completed { per * units } else { 0 };
    match kind {
        FeatureKind::Road if marks.get(INN) > 0 => Some(worth(2, size.tiles)),
        FeatureKind::City if marks.get(CATHEDRAL) > 0 => Some(worth(3, size.tiles + size.pennants)),
        _ => None,
    }
}

impl Mechanic for InnsCathedrals {
    fn name(&self) -> &'static str {
        "inns_cathedrals"
    }

    fn hooks(&self) -> Hooks {
        Hooks::POINTS
    }

    fn feature_points(
        &self,
        g: &mut Game,
        seg: SegId,
        kind: FeatureKind,
        completed: bool,
        size: Size,
        points: &mut u32,
    ) {
        let marks = g.features().totals(seg).counters;
        if let Some(v) = value(kind, marks, size, completed) {
            *points = v;
        }
    }
}

impl Shortcuts for InnsCathedrals {}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(tiles: u32, pennants: u32) -> Size {
        Size { tiles, pennants }
    }

    #[test]
    fn inns_and_cathedrals_follow_rules_1_6() {
        // RULES.md §1.6 (I&C line) and T-B3 (cathedral city incomplete → 0).
        let inn = Counters::default().with(INN, 1);
        let cathedral = Counters::default().with(CATHEDRAL, 1);
        let road = FeatureKind::Road;
        let city = FeatureKind::City;
        assert_eq!(value(road, inn, size(4, 0), true), Some(8));
        assert_eq!(value(road, inn, size(4, 0), false), Some(0));
        assert_eq!(value(city, cathedral, size(6, 2), true), Some(24));
        assert_eq!(value(city, cathedral, size(6, 2), false), Some(0));
        // No marker, or a marker on the other kind: the base value stands.
        assert_eq!(value(road, Counters::default(), size(4, 0), true), None);
        assert_eq!(value(road, cathedral, size(4, 0), true), None);
        assert_eq!(value(FeatureKind::Cloister, inn, size(9, 0), true), None);
    }
}
