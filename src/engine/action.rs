//! Decisions the game asks for and the actions that answer them.

use crate::engine::vocabulary::{MechanicAction, MechanicDecision};
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
    /// Deploy a figure (on the tile just laid, or anywhere through a portal), move the fairy,
    /// or pass.
    Deploy,
    /// A decision a mechanic owns (the dragon's step, the Count's quarters, …).
    Mechanic(MechanicDecision),
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
            DecisionKind::Deploy => "deploy",
            DecisionKind::Mechanic(d) => d.name(),
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
    /// An action a mechanic owns (the fairy's move, the dragon's step, the Count's quarters,
    /// …), made by the constructor functions the mechanic exports.
    Mechanic(MechanicAction),
    /// One of the actions a script offers (its name and arguments: [`crate::engine::named::action`]).
    Script(u32),
    /// Decline an optional decision.
    Pass,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_stay_small() {
        // Bots clone games and compare actions constantly. A mechanic's payload holds two
        // positions and six small values (24 bytes with its family and kind).
        assert_eq!(
            std::mem::size_of::<crate::engine::vocabulary::MechanicAction>(),
            24
        );
        assert_eq!(std::mem::size_of::<Action>(), 28);
        assert!(std::mem::size_of::<DecisionKind>() <= 28);
    }
}
