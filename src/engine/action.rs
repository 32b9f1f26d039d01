//! Decisions the game asks for and the actions that answer them.

use crate::mechanic::count::rules::Quarter;
use crate::model::figure::FigureKind;
use crate::model::geometry::{Pos, Rotation, Spot};
use crate::model::tile::TileId;

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
    /// The Count (CO-1): the tile made only opponents score, so its placer may put one
    /// follower from supply into a quarter of the City of Carcassonne, or pass.
    CountQuarter,
    /// The Count (CO-2): a follower went into the City, so its owner may move the Count to
    /// another quarter, or pass.
    CountMove,
    /// The Count (CO-4, CO-5): move followers out of `quarter` into the feature at (`x`, `y`)
    /// that is about to be scored, or pass.
    CountLeave {
        /// The quarter.
        quarter: Quarter,
        /// The deciding player's followers in it.
        available: u8,
        /// Column of a tile of the feature.
        x: i32,
        /// Row of a tile of the feature.
        y: i32,
    },
    /// The Count (`count.feature_order`): the tile completed several features that draw on the
    /// same quarter; choose the one scored next.
    CountOrder,
    /// A decision a script asked for; its actions are the script's offers.
    Script,
    /// The game is over; no action is legal.
    GameOver,
}

impl DecisionKind {
    /// A short name for the kind of decision (as scripts and reports see it).
    pub fn name(&self) -> &'static str {
        match self {
            DecisionKind::PlaceTile { .. } => "place",
            DecisionKind::ClaimFairyPoint => "claim",
            DecisionKind::Princess => "princess",
            DecisionKind::Deploy => "deploy",
            DecisionKind::DragonStep { .. } => "dragon_step",
            DecisionKind::CountQuarter => "count_quarter",
            DecisionKind::CountMove => "count_move",
            DecisionKind::CountLeave { .. } => "count_leave",
            DecisionKind::CountOrder => "count_order",
            DecisionKind::Script => "script",
            DecisionKind::GameOver => "game_over",
        }
    }
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
    /// Put a follower from supply into a quarter of the City of Carcassonne (CO-1).
    Quarter {
        /// The quarter.
        quarter: Quarter,
    },
    /// Move the Count to a quarter (CO-2).
    Count {
        /// The quarter.
        quarter: Quarter,
    },
    /// Move followers out of a quarter into the feature about to be scored (CO-5).
    Leave {
        /// The quarter.
        quarter: Quarter,
        /// How many followers.
        count: u8,
    },
    /// Score next the feature at `spot` of the tile at `pos` (`count.feature_order`).
    Score {
        /// A tile of the feature.
        pos: Pos,
        /// The feature on it.
        spot: Spot,
    },
    /// Claim the fairy's turn point.
    Claim,
    /// One of the actions a script offers (its name and arguments: [`crate::engine::named::action`]).
    Script(u32),
    /// Decline an optional decision.
    Pass,
}
