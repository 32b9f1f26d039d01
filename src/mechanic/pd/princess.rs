//! The princess (RULES.md §2.6, PR1–PR8): a princess tile that continues an occupied city lets
//! its placer send one knight of that city home, after which his deployment is restricted.

use super::rules::{Removal, RemovalBlocks};

use crate::engine::action::Action;
use crate::engine::event::{Event, ReturnReason};
use crate::engine::game::{Game, Pending};
use crate::model::figure::Figure;
use crate::model::geometry::{Pos, Spot};
use crate::model::tile::FeatureKind;

impl Game {
    /// The knights in the city of the princess on the tile just laid (PR2).
    fn princess_knights(&self) -> Vec<Figure> {
        let Some(placed) = self.now.placed else {
            return Vec::new();
        };
        if !self.rules.mechanics.princess {
            return Vec::new();
        }
        let base = self.board.placed(placed).seg_base;
        let features = &self.board.oriented(&self.rules.tiles, placed).features;
        let princess: Vec<u32> = features
            .iter()
            .enumerate()
            .filter(|(_, f)| f.princess && f.kind == FeatureKind::City)
            .map(|(i, _)| base + i as u32)
            .collect();
        let knights = &self.rules.pd.princess.knight_kinds;
        self.figures
            .iter()
            .filter(|f| princess.iter().any(|p| self.features.same(*p, f.seg)))
            .filter(|f| knights.contains(&f.kind.follower_kind()))
            .copied()
            .collect()
    }

    /// PR2–PR3: the princess asks for a decision when her city holds a knight.
    pub(crate) fn princess_stage(&self) -> Option<Pending> {
        (!self.princess_knights().is_empty()).then_some(Pending::Princess)
    }

    /// The princess's choices: any knight of the city, and `pass` when removal is optional.
    pub(crate) fn princess_actions(&self, out: &mut Vec<Action>) {
        for f in self.princess_knights() {
            let (pos, spot) = self.figure_spot(&f);
            out.push(Action::Remove { pos, spot });
        }
        if self.rules.pd.princess.removal == Removal::May {
            out.push(Action::Pass);
        }
    }

    /// Sends the knight at (`pos`, `spot`) home (already checked).
    pub(crate) fn remove_knight(&mut self, pos: Pos, spot: Spot, events: &mut Vec<Event>) {
        let Some(seg) = self.seg_at(pos, spot) else {
            return;
        };
        let Some(id) = self.figures.iter().find(|f| f.seg == seg).map(|f| f.id) else {
            return;
        };
        self.return_figures(|_, f| f.id == id, ReturnReason::Princess, events);
        self.now.princess_removed = true;
    }

    /// PR5: what a removal forbids for the deployment on `own_tile` or elsewhere.
    pub(crate) fn princess_blocks_deploy(&self, own_tile: bool) -> Option<&'static str> {
        match self.rules.pd.princess.removal_blocks {
            RemovalBlocks::AllFiguresAndFairy => {
                Some("the princess removed a knight this turn, so nothing may be deployed (PR5)")
            }
            RemovalBlocks::FollowerOnTile if own_tile => Some(
                "the princess removed a knight this turn, so no follower may go on her tile (PR5)",
            ),
            RemovalBlocks::FollowerOnTile => None,
        }
    }

    /// PR5: whether the removal also forbids the fairy move.
    pub(crate) fn princess_blocks_fairy(&self) -> bool {
        self.now.princess_removed
            && self.rules.pd.princess.removal_blocks == RemovalBlocks::AllFiguresAndFairy
    }
}
