//! The magic portal (RULES.md §2.5, MP1–MP10): after laying a portal tile the player may deploy
//! on any unoccupied, uncompleted feature of any tile.

use crate::data::printed::PORTAL;
use crate::engine::game::Game;
use crate::engine::mechanic::{Hooks, Mechanic, Shortcuts};
use crate::engine::opening::{Opening, Shut};
use crate::engine::refusal::Refusal;
use crate::mechanic::pd::rules::PdRules;
use crate::model::feature::SegId;
use crate::model::figure::{FigureKind, FigureTable, Kinds};

/// The magic portal.
#[derive(Debug)]
pub struct Portal {
    /// The figure kinds that may go through it (their rows' `portal`), read from the table
    /// once: every deployment asks.
    lets_through: Kinds,
}

impl Portal {
    /// The portal of a game whose figure table is `table`.
    pub fn new(table: &FigureTable) -> Portal {
        Portal {
            lets_through: table.kinds(|r| r.can("portal")),
        }
    }
}

impl Mechanic for Portal {
    fn name(&self) -> &'static str {
        "portal"
    }

    fn hooks(&self) -> Hooks {
        Hooks::DEPLOY | Hooks::ANYWHERE
    }

    fn opening(&self, g: &Game) -> Option<Opening> {
        // Asked at every deployment: most tiles show no portal.
        if !g.placed_symbol(PORTAL) {
            return None;
        }
        let rules = &PdRules::of(&g.rules).portal;
        Some(Opening {
            own_tile_base_rules: rules.own_tile_base_rules,
            barred: super::dragon::at(g).filter(|_| rules.dragon_tile_forbidden),
            enclosed_farms_open: rules.farm_always_open,
            completed_unscored_open: rules.allow_completed_unscored,
            lets_through: self.lets_through,
        })
    }

    /// Why a portal deployment onto segment `seg` is illegal, if it is (MP2–MP6; occupancy
    /// and supply are the base game's checks). On the portal tile itself the base rules apply
    /// under `pd.portal.own_tile_base_rules`.
    fn deploy_problem(
        &self,
        g: &Game,
        seg: SegId,
        figure: FigureKind,
        own_tile: bool,
    ) -> Option<Refusal> {
        let shut = self.opening(g)?.shut(g, seg, figure, own_tile)?;
        Some(match shut {
            Shut::Figure => Refusal::new("pd.portal.figures", "this figure may not use the portal"),
            Shut::Tile => Refusal::new("MP6", "the dragon stands on that tile"),
            Shut::EnclosedFarm => {
                Refusal::new("pd.portal.farm_always_open", "that farm is fully enclosed")
            }
            Shut::Completed => Refusal::new("MP3", "that feature is completed"),
        })
    }
}

impl Shortcuts for Portal {
    fn vetoes_deploy(&self, g: &Game) -> bool {
        g.placed_symbol(PORTAL)
    }
}
