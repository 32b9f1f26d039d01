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
    /// Claim the fairy's turn point, or pass and lose it (house rule A23).
    ClaimFairyPoint,
    /// The princess may (or must) send a knight of the city home (PR3).
    Princess,
    /// Deploy a figure (on the tile just laid, or anywhere through a portal), move the fairy,
    /// or pass.
    Deploy,
    /// Take the next step of the dragon's journey (D4).
    DragonStep {
        /// Step number, from 1.
        step: u32,
    },
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
    /// Move the fairy next to the follower at `spot` of the tile at `pos` (follower mode) or
    /// onto the tile at `pos` (tile mode, `spot` is `None`).
    Fairy {
        /// The tile.
        pos: Pos,
        /// The follower's spot.
        spot: Option<Spot>,
    },
    /// Move the dragon onto the tile at `pos`.
    Dragon {
        /// The tile.
        pos: Pos,
    },
    /// Send home the knight at `spot` of the tile at `pos` (the princess).
    Remove {
        /// The tile.
        pos: Pos,
        /// The knight's spot.
        spot: Spot,
    },
    /// Claim the fairy's turn point.
    Claim,
    /// Decline an optional decision.
    Pass,
}
