//! The toggles of Bridges, Castles & Bazaars (`[bcb]`, RULES-MORE.md §4.5): plain data read from
//! TOML. No game logic.

use crate::data::ruleset::Ruleset;
use crate::data::section::{Problem, Section, Switches};
use serde::Deserialize;
use std::sync::LazyLock;
use std::sync::atomic::AtomicUsize;

/// `[bcb]`: the toggles of Bridges, Castles & Bazaars (RULES-MORE.md §4.5). The family is
/// switched on by `[mechanics] bridges_castles_bazaars = true`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BcbRules {
    /// `[bcb.castle]`: the castles (BCB-7 to BCB-15).
    pub castle: CastleRules,
    /// `[bcb.bridge]`: the bridges (BCB-1 to BCB-6).
    pub bridge: BridgeRules,
    /// `[bcb.bazaar]`: the bazaars (BCB-16 to BCB-22).
    pub bazaar: BazaarRules,
}

/// `[bcb.bazaar]`: the bazaars' toggles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BazaarRules {
    /// `bcb.bazaar.auction` (BCB-18..BCB-20; false: BCB-22, each player just chooses a tile,
    /// \[JCZ-C en.json "bazaar-no-auction"\]).
    pub auction: bool,
}

impl Default for BazaarRules {
    fn default() -> Self {
        BazaarRules { auction: true }
    }
}

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

/// `[bcb.bridge]`: the bridges' toggles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BridgeRules {
    /// When in his turn a player lays his bridge (BCB-6, `bcb.bridge.timing`; \[WC-OOP\]).
    pub timing: BridgeTiming,
    /// Each player's bridges by player count, for 2, 3, 4, 5 and 6 players (BCB-C2,
    /// `bcb.bridge.by_players`; \[WC-BCB1\]\[WC-BCB2\]: 3 each for 2–4 players, 2 for 5–6).
    /// One player gets the two-player number, seven or eight the six-player one.
    pub by_players: [u8; 5],
}

impl Default for BridgeRules {
    fn default() -> Self {
        BridgeRules {
            timing: BridgeTiming::WithTile,
            by_players: [3, 3, 3, 2, 2],
        }
    }
}

impl BridgeRules {
    /// Each player's bridges in a game of `players` (BCB-C2).
    pub fn bridges(&self, players: usize) -> u8 {
        self.by_players[players.clamp(2, 6) - 2]
    }
}

/// When a bridge is laid (BCB-6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BridgeTiming {
    /// With the tile placement, chosen together with it (C2; the default).
    #[default]
    WithTile,
    /// At any time during the turn (C1): with the tile placement as in the 2nd edition, or,
    /// when none was laid with it, later in the turn, after the deploy action.
    AnyTimeInTurn,
}

/// The largest `bcb.castle.farm_points` accepted.
pub const MAX_FARM_POINTS: u32 = 20;

/// The most bridges one player may be given (the box has 12).
pub const MAX_BRIDGES: u8 = 12;

impl Section for BcbRules {
    const KEY: &'static str = "bcb";

    fn check(&self, _switches: &Switches) -> Result<(), Problem> {
        if self.castle.farm_points > MAX_FARM_POINTS {
            return Err(Problem::at(
                &["bcb", "castle", "farm_points"],
                format!("farm_points must be between 0 and {MAX_FARM_POINTS}"),
            ));
        }
        let bridge = &self.bridge;
        if let Some(n) = bridge.by_players.iter().find(|n| **n > MAX_BRIDGES) {
            return Err(Problem::at(
                &["bcb", "bridge", "by_players"],
                format!("a player gets at most {MAX_BRIDGES} bridges (the box has 12), not {n}"),
            ));
        }
        Ok(())
    }
}

impl BcbRules {
    /// The ruleset's `[bcb]` section (its defaults for a ruleset read without the family).
    #[inline]
    pub fn of(rules: &Ruleset) -> &BcbRules {
        static DEFAULT: LazyLock<BcbRules> = LazyLock::new(BcbRules::default);
        static AT: AtomicUsize = AtomicUsize::new(0);
        (rules.sections.get_cached::<BcbRules>(&AT)).unwrap_or_else(|| &DEFAULT)
    }
}
