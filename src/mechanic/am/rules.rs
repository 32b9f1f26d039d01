//! Abbey & Mayor's toggles (`[am]`, RULES-MORE.md §2.6): plain data read from TOML. No game
//! logic.

use crate::data::section::Section;
use serde::Deserialize;

/// `am.wagon.move` (AM-11): which features count as "adjacent" for a wagon's move after its
/// feature is scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum WagonMove {
    /// The 1st edition's reading \[MJH p11\]: features connected to the one the wagon left, on
    /// one of its tiles: a road and the city it runs into (the tiles' `leads_to`), a road stub
    /// and the cloister it ends at, the stubs of one crossing; never two cities.
    C1,
    /// The new edition's reading: any road, city or cloister on the tile the wagon stood on or
    /// on one of the eight tiles around it \[PG-WG\]\[JCZ `WagonPhase.getAdjacentFeatures`\].
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

/// `am.barn.pig_bonus` (AM-20, Q-AM4): whether a pig adds to the farmers' scorings a barn
/// causes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PigBonus {
    /// JCZ \[JCZ `Field.getBarnPoints`\]: the farmers' majority player with his pig in the
    /// field scores 1 more per city when a barn is placed (4) or joined (2); the barns' own
    /// end-game scoring has no pig bonus.
    #[default]
    FarmerScoringsOnly,
    /// No pig bonus in any scoring a barn causes (the rule pages name none).
    None,
}

/// `[am.barn]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BarnRules {
    /// AM-17: whether a barn may go into a field that already has one (`false`, \[FW-AM\];
    /// `true`, JCZ's variant "barn-placement").
    pub allow_second: bool,
    /// AM-20, Q-AM4: the pig's bonus in the scorings a barn causes.
    pub pig_bonus: PigBonus,
}

/// `am.abbey.endgame` (AM-5): what happens to the abbeys still held when the last tile was
/// drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbbeyEndgame {
    /// \[WC-AM1\]\[WC-AM2\]: after the last land tile, each player who still holds an abbey
    /// may lay it into a hole, once each, clockwise from the player after the one who laid the
    /// last tile; then the game ends.
    #[default]
    AfterLastTileClockwise,
    /// A house rule: no last round; abbeys still held stay unplayed.
    None,
}

/// `[am.abbey]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AbbeyRules {
    /// AM-C1: the abbey tiles each player gets (1 in the box; 0 plays A&M without them).
    pub per_player: u8,
    /// AM-5: the last round of abbeys.
    pub endgame: AbbeyEndgame,
}

impl Default for AbbeyRules {
    fn default() -> AbbeyRules {
        AbbeyRules {
            per_player: 1,
            endgame: AbbeyEndgame::default(),
        }
    }
}

/// `[am]`: the toggles of Abbey & Mayor (RULES-MORE.md §2.6). The family is switched on by
/// `[mechanics] abbey_mayor = true`; its figures are handed out by `[figures.mayor]` and
/// `[figures.wagon]` and `[figures.barn]` `per_player`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AmRules {
    /// `[am.abbey]`.
    pub abbey: AbbeyRules,
    /// `[am.wagon]`.
    pub wagon: WagonRules,
    /// `[am.mayor]`.
    pub mayor: MayorRules,
    /// `[am.barn]`.
    pub barn: BarnRules,
}

impl Section for AmRules {
    const KEY: &'static str = "am";
}
