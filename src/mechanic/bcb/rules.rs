//! The toggles of Bridges, Castles & Bazaars (`[bcb]`, RULES-MORE.md §4.5): plain data read from
//! TOML. No game logic. This file holds the bridges' part (`[bcb.bridge]`).

use crate::data::ruleset::Ruleset;
use crate::data::section::{Problem, Section, Switches};
use serde::Deserialize;
use std::sync::LazyLock;
use std::sync::atomic::AtomicUsize;

/// `[bcb]`: the toggles of Bridges, Castles & Bazaars (RULES-MORE.md §4). The family is
/// switched on by `[mechanics] bridges_castles_bazaars = true`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BcbRules {
    /// `[bcb.bridge]`: the bridges (BCB-1 to BCB-6).
    pub bridge: BridgeRules,
}

/// `[bcb.bridge]`: the bridges' toggles.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
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

/// When a bridge is laid (BCB-6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BridgeTiming {
    /// With the tile placement, chosen together with it (C2; the default).
    #[default]
    WithTile,
    /// At any time during the turn (C1). Not supported: a ruleset asking for it is refused
    /// with a located error.
    AnyTimeInTurn,
}

/// The most bridges one player may be given (the box has 12).
pub const MAX_BRIDGES: u8 = 12;

impl Section for BcbRules {
    const KEY: &'static str = "bcb";

    fn check(&self, _switches: &Switches) -> Result<(), Problem> {
        let bridge = &self.bridge;
        if bridge.timing == BridgeTiming::AnyTimeInTurn {
            return Err(Problem::at(
                &["bcb", "bridge", "timing"],
                "\"any_time_in_turn\" (BCB-6, 1st edition) is not supported yet: a bridge is \
                 laid with the tile placement, \"with_tile\"",
            ));
        }
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

impl BridgeRules {
    /// Each player's bridges in a game of `players` (BCB-C2).
    pub fn bridges(&self, players: usize) -> u8 {
        self.by_players[players.clamp(2, 6) - 2]
    }
}
