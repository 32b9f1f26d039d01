//! The base game's toggles (`[base]`, RULES.md §3.2): plain data read from TOML, the family's
//! own section of a ruleset. No game logic.

use crate::data::ruleset::Ruleset;
use crate::data::section::{FigureDefaults, Problem, Section, Switches};
use crate::model::figure::FigureTable;
use serde::Deserialize;
use std::sync::LazyLock;
use std::sync::atomic::AtomicUsize;

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

impl Section for BaseRules {
    const KEY: &'static str = "base";

    fn check(&self, _switches: &Switches) -> Result<(), Problem> {
        if !(1..=30).contains(&self.followers_per_player) {
            return Err(Problem::at(
                &["base", "followers_per_player"],
                "followers_per_player must be between 1 and 30",
            ));
        }
        Ok(())
    }

    fn figure_defaults(&self, defaults: &mut FigureDefaults) {
        defaults.followers_per_player = self.followers_per_player;
    }

    /// `base.followers_per_player` is the follower row's count, whichever key set it.
    fn figures_made(&mut self, table: &FigureTable) {
        self.followers_per_player = table.rows()[0].per_player;
    }
}

impl BaseRules {
    /// The ruleset's `[base]` section (its defaults for a ruleset read without the family).
    #[inline]
    pub fn of(rules: &Ruleset) -> &BaseRules {
        static DEFAULT: LazyLock<BaseRules> = LazyLock::new(BaseRules::default);
        static AT: AtomicUsize = AtomicUsize::new(0);
        (rules.sections.get_cached::<BaseRules>(&AT)).unwrap_or_else(|| &DEFAULT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::ruleset::tests::{MINI, parse};

    #[test]
    fn defaults_are_the_current_base_game() {
        let r = parse(MINI).unwrap();
        let base = r.section::<BaseRules>().unwrap();
        assert_eq!(base.followers_per_player, 7);
        assert_eq!(base.farm_scoring, FarmScoring::FarmCentric3);
        assert_eq!(base.small_city_two_tiles, SmallCity::Normal);
        assert!(r.switched_on("farmers"));
        assert_eq!(r.tiles.iter().map(|t| t.count).sum::<u32>(), 72);
        assert_eq!(r.players, (2, 5));
    }
}
