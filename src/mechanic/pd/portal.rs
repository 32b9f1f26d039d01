//! The magic portal (RULES.md §2.5, MP1–MP10): after laying a portal tile the player may deploy
//! on any unoccupied, uncompleted feature of any tile.

use crate::engine::game::Game;
use crate::model::feature::SegId;
use crate::model::figure::FigureKind;
use crate::model::geometry::Pos;
use crate::model::tile::FeatureKind;

impl Game {
    /// Why a portal deployment onto segment `seg` on the tile at `pos` is illegal, if it is
    /// (MP2–MP6; occupancy and supply are checked by the caller).
    pub(crate) fn portal_problem(
        &self,
        seg: SegId,
        pos: Pos,
        figure: FigureKind,
    ) -> Option<&'static str> {
        let rules = &self.rules.pd.portal;
        if !rules.figures.contains(&figure.follower_kind()) {
            return Some("this figure may not use the portal (pd.portal.figures)");
        }
        if rules.dragon_tile_forbidden && self.dragon == Some(pos) {
            return Some("the dragon stands on that tile (MP6)");
        }
        if self.features.segment(seg).kind == FeatureKind::Field {
            let enclosed = self.features.closed(seg);
            return (enclosed && !rules.farm_always_open)
                .then_some("that farm is fully enclosed (pd.portal.farm_always_open = false)");
        }
        if !self.is_complete(seg) {
            return None;
        }
        let unscored = rules.allow_completed_unscored
            && self.now.placed.is_some_and(|p| {
                self.completed_by(p)
                    .iter()
                    .any(|d| self.features.same(*d, seg))
            });
        (!unscored).then_some("that feature is completed (MP3)")
    }
}
