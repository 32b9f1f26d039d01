//! The magic portal (RULES.md §2.5, MP1–MP10): after laying a portal tile the player may deploy
//! on any unoccupied, uncompleted feature of any tile.

use crate::engine::game::Game;
use crate::engine::mechanic::{Hooks, Mechanic};
use crate::engine::refusal::Refusal;
use crate::model::feature::SegId;
use crate::model::figure::FigureKind;
use crate::model::tile::{FeatureKind, Symbol};

/// The magic portal.
#[derive(Debug)]
pub struct Portal;

impl Mechanic for Portal {
    fn name(&self) -> &'static str {
        "portal"
    }

    fn hooks(&self) -> Hooks {
        Hooks::DEPLOY | Hooks::ANYWHERE
    }

    fn deploy_anywhere(&self, g: &Game) -> bool {
        g.placed_symbol(Symbol::Portal)
    }

    fn vetoes_deploy(&self, g: &Game) -> bool {
        g.placed_symbol(Symbol::Portal)
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
        let rules = &g.rules.pd.portal;
        if !g.placed_symbol(Symbol::Portal) || (own_tile && rules.own_tile_base_rules) {
            return None;
        }
        if !g.rules.figures.row(figure).is_some_and(|r| r.portal) {
            return Some(Refusal::new(
                "pd.portal.figures",
                "this figure may not use the portal",
            ));
        }
        let segment = g.features.segment(seg);
        if rules.dragon_tile_forbidden && g.dragon == Some(g.board.placed(segment.placed).pos) {
            return Some(Refusal::new("MP6", "the dragon stands on that tile"));
        }
        if segment.kind == FeatureKind::Field {
            // Whether the farm is enclosed matters only when enclosed farms are closed.
            let enclosed = || g.features.closed(seg);
            return (!rules.farm_always_open && enclosed()).then_some(Refusal::new(
                "pd.portal.farm_always_open",
                "that farm is fully enclosed",
            ));
        }
        if !g.is_complete(seg) {
            return None;
        }
        let unscored = rules.allow_completed_unscored
            && g.now
                .placed
                .is_some_and(|p| g.completed_by(p).iter().any(|d| g.features.same(*d, seg)));
        (!unscored).then_some(Refusal::new("MP3", "that feature is completed"))
    }
}
