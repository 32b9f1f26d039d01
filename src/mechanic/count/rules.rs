//! The Count of Carcassonne's toggles (`[count]`, RULES.md §3.3) and its quarters: plain data
//! read from TOML. No game logic.

use crate::data::ruleset::Ruleset;
use crate::data::section::{Problem, Section, Sections, Written};
use crate::mechanic::pd::rules::{CountCity, PdRules};
use crate::model::tile::FeatureKind;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;
use std::sync::atomic::AtomicUsize;

/// `count.placement_timing` (§3.3 #47).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlacementTiming {
    /// At the end of the turn, after scoring and any dragon journey ("al final de su turno").
    #[default]
    EndOfTurn,
}

/// `count.final_scoring_incomplete` (§3.3 #49): which incomplete features of the final scoring
/// may receive followers from a quarter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalIncomplete {
    /// None: castle and blacksmiths need a "completed" city or road, and the cathedral is read
    /// the same way; only the market joins farms at the end.
    #[default]
    None,
    /// The cathedral also joins incomplete cloisters scored at the end (its line in seed 001
    /// lacks the word "completo").
    CloistersToo,
}

/// `count.feature_order` (§3.3 #51): the order in which the features one tile completes are
/// scored, which matters when two of them draw followers from the same quarter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeatureOrder {
    /// The tile's placer chooses the next feature whenever the order matters.
    #[default]
    ActivePlayerChooses,
    /// The engine's fixed order (B-M5): the tile's own features, then the cloisters around it
    /// clockwise from north.
    Deterministic,
}

/// `[count]`: the toggles of the Count of Carcassonne (RULES.md §3.3). The rule itself is
/// switched on by `[mechanics] count = true` (§3.3 #46 `count.enabled`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CountRules {
    /// When the follower goes into a quarter (#47).
    pub placement_timing: PlacementTiming,
    /// The fairy's scoring bonus counts as scoring for the trigger, for the placer and for
    /// his opponents (#48, §7 A19a).
    pub trigger_counts_fairy_points: bool,
    /// Incomplete features at the final scoring that a quarter may join (#49).
    pub final_scoring_incomplete: FinalIncomplete,
    /// A completed feature must hold a follower for quarter followers to join it (#50).
    pub require_follower_in_feature: bool,
    /// Scoring order of the features one tile completes (#51).
    pub feature_order: FeatureOrder,
    /// The dragon and the City's tiles (#52, the same setting as `pd.dragon.count_city`, #15;
    /// a ruleset may set either key, and the loader makes them agree).
    pub dragon_access: CountCity,
    /// A farm with a field on a tile of the block borders the City as one more completed city
    /// (#53).
    pub city_tiles_border_farms: bool,
}

impl Default for CountRules {
    fn default() -> Self {
        CountRules {
            placement_timing: PlacementTiming::EndOfTurn,
            trigger_counts_fairy_points: true,
            final_scoring_incomplete: FinalIncomplete::None,
            require_follower_in_feature: false,
            feature_order: FeatureOrder::ActivePlayerChooses,
            dragon_access: CountCity::OuterLandscapeOnly,
            city_tiles_border_farms: true,
        }
    }
}

impl Section for CountRules {
    const KEY: &'static str = "count";

    /// `count.dragon_access` and `pd.dragon.count_city` are one setting (§3.3 #52 = §3.1
    /// #15): the key written in the file nearest the child wins, and one file must not write
    /// both with different values.
    fn settle(sections: &mut Sections, written: &Written<'_>) -> Result<(), Problem> {
        const COUNT_KEY: [&str; 2] = ["count", "dragon_access"];
        const PD_KEY: [&str; 3] = ["pd", "dragon", "count_city"];
        let pd = sections.get::<PdRules>().map(|p| p.dragon.count_city);
        let count = sections.get::<CountRules>().map(|c| c.dragon_access);
        let value = |i: usize, path: &[&str]| written.value(i, path).and_then(|v| v.as_str());
        let settled = match (written.nearest(&COUNT_KEY), written.nearest(&PD_KEY)) {
            (Some(c), Some(p)) if c == p && value(c, &COUNT_KEY) != value(p, &PD_KEY) => {
                return Err(Problem::at(
                    &COUNT_KEY,
                    "`count.dragon_access` and `pd.dragon.count_city` are the same setting and disagree: write only one",
                ));
            }
            (Some(c), Some(p)) if p < c => pd,
            (Some(_), _) => count,
            (None, _) => pd,
        }
        .unwrap_or_default();
        if let Some(c) = sections.get_mut::<CountRules>() {
            c.dragon_access = settled;
        }
        if let Some(p) = sections.get_mut::<PdRules>() {
            p.dragon.count_city = settled;
        }
        Ok(())
    }
}

/// A quarter of the City of Carcassonne (CO-S2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Quarter {
    /// The castle: its followers join completed cities.
    Castle,
    /// The cathedral: its followers join cloisters.
    Cathedral,
    /// The market: its followers join farms, at the end of the game only.
    Market,
    /// The blacksmiths: their followers join completed roads.
    Blacksmiths,
}

impl Quarter {
    /// The four quarters.
    pub const ALL: [Quarter; 4] = [
        Quarter::Castle,
        Quarter::Cathedral,
        Quarter::Market,
        Quarter::Blacksmiths,
    ];

    /// The name used in records (`quarter = "castle"`).
    pub fn name(self) -> &'static str {
        match self {
            Quarter::Castle => "castle",
            Quarter::Cathedral => "cathedral",
            Quarter::Market => "market",
            Quarter::Blacksmiths => "blacksmiths",
        }
    }

    /// Parses a record name.
    pub fn parse(name: &str) -> Option<Quarter> {
        Quarter::ALL.into_iter().find(|q| q.name() == name)
    }

    /// The kind of feature its followers join (CO-4).
    pub fn feature(self) -> FeatureKind {
        match self {
            Quarter::Castle => FeatureKind::City,
            Quarter::Cathedral => FeatureKind::Cloister,
            Quarter::Market => FeatureKind::Field,
            Quarter::Blacksmiths => FeatureKind::Road,
        }
    }

    /// The quarter whose followers join features of `kind`.
    pub fn serving(kind: FeatureKind) -> Quarter {
        match kind {
            FeatureKind::City => Quarter::Castle,
            FeatureKind::Cloister | FeatureKind::Garden => Quarter::Cathedral,
            FeatureKind::Field => Quarter::Market,
            FeatureKind::Road => Quarter::Blacksmiths,
        }
    }
}

impl std::fmt::Display for Quarter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl CountRules {
    /// The ruleset's `[count]` section (its defaults for a ruleset read without the family).
    #[inline]
    pub fn of(rules: &Ruleset) -> &CountRules {
        static DEFAULT: LazyLock<CountRules> = LazyLock::new(CountRules::default);
        static AT: AtomicUsize = AtomicUsize::new(0);
        (rules.sections.get_cached::<CountRules>(&AT)).unwrap_or_else(|| &DEFAULT)
    }
}
