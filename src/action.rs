//! Decisions the game asks for and the actions that answer them.

use crate::figure::FigureKind;
use crate::geometry::{Pos, Rotation, Spot};
use crate::ruleset::TileId;

/// What the game is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    /// Lay the drawn tile.
    PlaceTile {
        /// The drawn tile.
        tile: TileId,
    },
    /// Deploy a figure on the tile just laid, or pass.
    Deploy,
    /// The game is over; no action is legal.
    GameOver,
}

/// The one pending decision: who must choose and what kind of choice it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The seat that chooses.
    pub player: usize,
    /// The kind of choice.
    pub kind: DecisionKind,
}

/// An answer to a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Lay the drawn tile at `pos`, turned `rotation`.
    Place {
        /// Where.
        pos: Pos,
        /// How it is turned.
        rotation: Rotation,
    },
    /// Put a figure from supply on the feature at `spot` of the tile at `pos`.
    Deploy {
        /// The tile.
        pos: Pos,
        /// The feature on it, in board orientation.
        spot: Spot,
        /// Which figure.
        figure: FigureKind,
    },
    /// Decline an optional decision.
    Pass,
}
