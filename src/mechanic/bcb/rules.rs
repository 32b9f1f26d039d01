//! The toggles of Bridges, Castles & Bazaars (`[bcb]`, RULES-MORE.md §4.5): plain data read from
//! TOML. No game logic. The bridges' keys (`[bcb.bridge]`) are the bridges' own.

use crate::data::section::{Problem, Section, Switches};
use serde::Deserialize;

/// `bcb.castle.multi` (BCB-11, Q-BCB1): which feature a castle scores when one tile completes
/// several in its vicinity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CastleMulti {
    /// The castle's owner chooses one (the 1st edition's text \[WC-BCB1\]).
    #[default]
    OwnerChooses,
    /// The one worth most (JCloisterZone sorts them by points \[JCZ `scoreCastles`\]).
    Highest,
}

/// `[bcb.castle]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CastleRules {
    /// BCB-11: several features completed at once in a castle's vicinity.
    pub multi: CastleMulti,
    /// BCB-14: what farmers score for each castle their farm borders at the end, under
    /// farm-centric scoring (4 \[FW-BCB\]\[JCZ `Field.getCityPoints`\]; a completed city pays 3).
    pub farm_points: u32,
}

impl Default for CastleRules {
    fn default() -> CastleRules {
        CastleRules {
            multi: CastleMulti::OwnerChooses,
            farm_points: 4,
        }
    }
}

/// `[bcb]`: the toggles of Bridges, Castles & Bazaars (RULES-MORE.md §4.5). The family is
/// switched on by `[mechanics] bridges_castles_bazaars = true`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BcbRules {
    /// `[bcb.castle]`.
    pub castle: CastleRules,
}

/// The largest `bcb.castle.farm_points` accepted.
pub const MAX_FARM_POINTS: u32 = 20;

impl Section for BcbRules {
    const KEY: &'static str = "bcb";

    fn check(&self, _switches: &Switches) -> Result<(), Problem> {
        if self.castle.farm_points > MAX_FARM_POINTS {
            return Err(Problem::at(
                &["bcb", "castle", "farm_points"],
                format!("farm_points must be between 0 and {MAX_FARM_POINTS}"),
            ));
        }
        Ok(())
    }
}
