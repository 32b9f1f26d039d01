//! The base game's toggles (`[base]`, `[mechanics]`, RULES.md §3.2): plain data read from TOML.
//! No game logic.

use serde::Deserialize;

/// `base.small_city_two_tiles` (RULES.md §1.6, toggle #42).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SmallCity {
    /// A completed two-tile city scores like any city: 2 per tile and per pennant.
    #[default]
    Normal,
    /// First-edition rule: a completed two-tile city scores 1 per tile and 1 per pennant.
    Half,
}

/// `base.unplaceable_tile` (RULES.md B-P5, toggle #44).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unplaceable {
    /// The tile leaves the game and the player draws another.
    #[default]
    DiscardAndRedraw,
}

/// `base.farm_scoring`: how farmers score at the end (RULES.md §1.9, toggle #41).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FarmScoring {
    /// Each farm on its own: its majority scores 3 per completed bordering city; a city can pay a
    /// player through several farms (third first-edition rules and every later edition).
    #[default]
    #[serde(rename = "farm_centric_3")]
    FarmCentric3,
    /// Like `farm_centric_3`, but a player collects any one city at most once over all farms
    /// (second first-edition rules).
    #[serde(rename = "farm_centric_3_once")]
    FarmCentric3Once,
    /// Per completed city: the players with the most farmers in all farms bordering it score 4
    /// (the original 2000 rules).
    #[serde(rename = "city_centric_4")]
    CityCentric4,
}

/// Base-game toggles (`[base]`, RULES.md §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BaseRules {
    /// Followers each player has in supply (`base.followers_per_player`, B-C2).
    pub followers_per_player: u8,
    /// Farm scoring variant (`base.farm_scoring`, §1.9).
    pub farm_scoring: FarmScoring,
    /// The two-tile city rule (`base.small_city_two_tiles`, §1.6).
    pub small_city_two_tiles: SmallCity,
    /// What happens to a tile that fits nowhere (`base.unplaceable_tile`, B-P5).
    pub unplaceable_tile: Unplaceable,
}

impl Default for BaseRules {
    fn default() -> Self {
        BaseRules {
            followers_per_player: 7,
            farm_scoring: FarmScoring::FarmCentric3,
            small_city_two_tiles: SmallCity::Normal,
            unplaceable_tile: Unplaceable::DiscardAndRedraw,
        }
    }
}

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
    /// Inns & Cathedrals: inns and cathedrals change what their road or city is worth (§1.6,
    /// I&C). The big follower is a figure table row (`figures.big`).
    pub inns_cathedrals: bool,
    /// The Abbot (new base game): instead of deploying, a player may take his abbot back and
    /// score its cloister or garden at once (§1.10; \[ext:B8\]).
    pub abbot: bool,
    /// Traders & Builders: the builder's double turn, the pig and the goods tokens (§1.10).
    /// The figures come from the figure table (`[figures.builder]`, `[figures.pig]`).
    pub traders_builders: bool,
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
            inns_cathedrals: false,
            abbot: false,
            traders_builders: false,
        }
    }
}
