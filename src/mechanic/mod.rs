//! The rules, one module per mechanic. Each mechanic owns its toggles (read from the ruleset's
//! TOML, with the current Hans im Glück rules as defaults) and the functions the game's turn
//! pipeline calls at the phases it hooks.

pub mod base;
pub mod count;
pub mod pd;

use serde::Deserialize;

/// `[mechanics]`: which rules are switched on. Tiles and rules are independent: volcano tiles
/// played with `volcano = false` are ordinary tiles ("the tiles without their rules").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Mechanics {
    /// Followers may be deployed on fields; farms are scored at the end (§1.9).
    pub farmers: bool,
    /// Volcano tiles attract the dragon and forbid deployment on themselves (§2.2).
    pub volcano: bool,
    /// Dragon tiles set aside before the first volcano, then dragon journeys (§2.3–§2.4).
    pub dragon: bool,
    /// The fairy (§2.7).
    pub fairy: bool,
    /// The princess (§2.6).
    pub princess: bool,
    /// The magic portal (§2.5).
    pub portal: bool,
    /// The Count of Carcassonne: the quarters of the City and the Count (§5; `count.enabled`,
    /// §3.3 #46). Needs the City's tiles (`tiles/count.toml`) as the start block.
    pub count: bool,
}

impl Default for Mechanics {
    fn default() -> Self {
        Mechanics {
            farmers: true,
            volcano: false,
            dragon: false,
            fairy: false,
            princess: false,
            portal: false,
            count: false,
        }
    }
}

/// `pd.tunnel.fields` (§3.1 #39): how the fields beside the tunnel road are split.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TunnelFields {
    /// As the tile set draws them (the shipped tunnel tile: the road does not cut the north
    /// field nor the south field, which are separate from each other; TU2).
    #[default]
    TileData,
}

/// `[pd.tunnel]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TunnelRules {
    /// Field split.
    pub fields: TunnelFields,
}

/// `[pd]`: every toggle of The Princess & the Dragon (RULES.md §3.1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PdRules {
    /// `[pd.princess]`.
    pub princess: pd::princess::PrincessRules,
    /// `[pd.dragon]`.
    pub dragon: pd::dragon::DragonRules,
    /// `[pd.volcano]`.
    pub volcano: pd::volcano::VolcanoRules,
    /// `[pd.fairy]`.
    pub fairy: pd::fairy::FairyRules,
    /// `[pd.portal]`.
    pub portal: pd::portal::PortalRules,
    /// `[pd.tunnel]`.
    pub tunnel: TunnelRules,
}
