//! Abbey & Mayor's toggles (`[am]`, RULES-MORE.md §2.6): plain data read from TOML. No game
//! logic.

use crate::data::section::Section;
use serde::Deserialize;

/// `am.wagon.move` (AM-11): which features count as "adjacent" for a wagon's move after its
/// feature is scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum WagonMove {
    /// The new edition's reading: any road, city or cloister on the tile the wagon stood on or
    /// on one of the eight tiles around it \[PG-WG\]\[JCZ `WagonPhase.getAdjacentFeatures`\].
    /// (The 1st edition's "connected" reading, `"C1"`, needs the tiles' wagon links, which the
    /// tile format does not carry yet: the loader refuses it with its location.)
    #[default]
    C2,
}

/// `[am.wagon]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WagonRules {
    /// Where a wagon may move after its feature is scored (AM-11).
    #[serde(rename = "move")]
    pub moves: WagonMove,
}

/// `[am.mayor]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MayorRules {
    /// AM-8: whether a mayor of strength 0 (a city without pennants) still scores when no
    /// figure in the city has any strength (`false`, \[FW-AM\] AM-E2: nobody scores; `true`,
    /// a house rule: the mayors' owners share the city as if each had strength 1).
    pub zero_strength_scores: bool,
}

/// `[am]`: the toggles of Abbey & Mayor (RULES-MORE.md §2.6). The family is switched on by
/// `[mechanics] abbey_mayor = true`; its figures are handed out by `[figures.mayor]` and
/// `[figures.wagon]` `per_player`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AmRules {
    /// `[am.wagon]`.
    pub wagon: WagonRules,
    /// `[am.mayor]`.
    pub mayor: MayorRules,
}

impl Section for AmRules {
    const KEY: &'static str = "am";
}
