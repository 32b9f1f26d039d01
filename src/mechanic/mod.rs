//! The rules, one module per mechanic. Each mechanic owns its toggles (read from the ruleset's
//! TOML) and the phase hooks it needs; the game state machine in [`crate::game`] calls them.

pub mod farm;
pub mod scoring;

use serde::Deserialize;

/// Which mechanics a ruleset switches on. Tiles and rules are independent: a tile set with
/// volcanoes can be played with the dragon switched off ("the tiles without their rules").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mechanics {
    /// Followers may be deployed on fields and farms are scored at the end.
    pub farmers: bool,
}

impl Default for Mechanics {
    fn default() -> Self {
        Mechanics { farmers: true }
    }
}

/// `[mechanics]` as written: every key optional, merged along an `extends` chain.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MechanicsFile {
    pub farmers: Option<bool>,
}

impl MechanicsFile {
    pub fn resolve(&self) -> Mechanics {
        let d = Mechanics::default();
        Mechanics {
            farmers: self.farmers.unwrap_or(d.farmers),
        }
    }
}
