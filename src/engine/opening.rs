//! Opening the board: a mechanic that lets this turn's figure go on any tile, not only the one
//! just laid (RULES.md §2.5), says as data which figures may go and which features it keeps
//! closed.
//!
//! The mechanic answers [`Mechanic::opening`] with an [`Opening`], and names its refusals in
//! its [`Mechanic::deploy_problem`] from [`Opening::shut`]. The listing of deployments reads
//! the same facts once for the whole board: whether a tile is barred once per tile
//! (`Opening::shut_tile`), the feature's totals once per segment (`Opening::shut_feature`),
//! with no call into the mechanic for each of the board's features.
//!
//! [`Mechanic::opening`]: crate::engine::mechanic::Mechanic::opening
//! [`Mechanic::deploy_problem`]: crate::engine::mechanic::Mechanic::deploy_problem

use super::game::{Game, is_complete_by};
use crate::model::feature::{SegId, Totals};
use crate::model::figure::{FigureKind, Kinds};
use crate::model::geometry::Pos;
use crate::model::tile::FeatureKind;

/// What a mechanic that opens the whole board to this turn's deployment keeps closed. The base
/// game's rules of deployment (supply, occupancy, the figure table) hold everywhere as well.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// The tile just laid keeps the base rules: the opening limits nothing there.
    pub own_tile_base_rules: bool,
    /// A tile none of whose features is open.
    pub barred: Option<Pos>,
    /// Fully enclosed farms are open too.
    pub enclosed_farms_open: bool,
    /// A feature the tile just laid completed stays open until it is scored.
    pub completed_unscored_open: bool,
    /// The kinds of figure that may go through.
    pub lets_through: Kinds,
}

/// Why an [`Opening`] keeps a figure off a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shut {
    /// The figure may not go through ([`Opening::lets_through`]).
    Figure,
    /// The feature lies on the barred tile.
    Tile,
    /// The farm is fully enclosed.
    EnclosedFarm,
    /// The feature is complete.
    Completed,
}

impl Opening {
    /// Why the opening keeps `figure` off segment `seg` (on the tile just laid if
    /// `own_tile`), if it does.
    pub fn shut(&self, g: &Game, seg: SegId, figure: FigureKind, own_tile: bool) -> Option<Shut> {
        if own_tile && self.own_tile_base_rules {
            return None;
        }
        if !self.lets_through.contains(figure) {
            return Some(Shut::Figure);
        }
        let kind = g.features.segment(seg).kind;
        let pos = g.seg_pos(seg);
        let totals = g.features.totals(seg);
        self.shut_tile(pos)
            .or_else(|| self.shut_feature(g, seg, kind, &totals, pos))
    }

    /// Why the opening keeps every figure off the tile at `pos`, if it does ([`Opening::shut`]
    /// on a tile the opening limits, for a figure that may go through).
    #[inline]
    pub(crate) fn shut_tile(&self, pos: Pos) -> Option<Shut> {
        (self.barred == Some(pos)).then_some(Shut::Tile)
    }

    /// The rest of [`Opening::shut`] for a figure that may go through, on a tile the opening
    /// limits and does not bar ([`Opening::shut_tile`]): segment `seg` of `kind`, with its
    /// feature's `totals`, on the tile at `pos`.
    #[inline]
    pub(crate) fn shut_feature(
        &self,
        g: &Game,
        seg: SegId,
        kind: FeatureKind,
        totals: &Totals,
        pos: Pos,
    ) -> Option<Shut> {
        if kind == FeatureKind::Field {
            return (!self.enclosed_farms_open && totals.open == 0).then_some(Shut::EnclosedFarm);
        }
        // Only a cloister or garden is judged by its tile's neighbours: most features are not.
        let neighbours = match kind {
            FeatureKind::Cloister | FeatureKind::Garden => g.board.neighbours(pos),
            _ => 0,
        };
        if !is_complete_by(kind, totals, neighbours) {
            return None;
        }
        let unscored = self.completed_unscored_open
            && g.now
                .placed
                .is_some_and(|p| g.completed_by(p).iter().any(|d| g.features.same(*d, seg)));
        (!unscored).then_some(Shut::Completed)
    }
}
