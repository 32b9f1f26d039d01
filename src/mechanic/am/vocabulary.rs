//! Abbey & Mayor's vocabulary: the wagon's move (its action `wagon = [x, y, "N"]` in records,
//! its decision and its event) and the barn's placement (`barn = [x, y]`, its event) as typed values ([`AmAction`], [`AmDecision`], [`AmEvent`])
//! declared with the engine's generators (`engine::vocabulary`), which convert them to and
//! from the engine's mechanic arms and give their record keys and JSON form; this file writes
//! their words. The mayor and the wagon are deployed with the base game's `deploy`
//! (`figure = "mayor"`), so deployment needs nothing here.

use crate::engine::vocabulary::{ActionWords, EventWords, Family, MechanicId, Vocabulary, seat};
use crate::model::geometry::{Pos, Spot};
use crate::model::tile::FeatureKind;
use std::fmt;

/// Abbey & Mayor's family id (the Count has 1, P&D 2, Traders & Builders 3, the Abbot 4, The
/// Tower 5).
pub const ID: MechanicId = MechanicId(6);

/// Abbey & Mayor's vocabulary.
static WORDS: Family<AmAction, AmDecision, AmEvent> = Family::new(ID);

/// Abbey & Mayor's vocabulary, for the registry's list.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

crate::mechanic_actions! {
    /// An action of Abbey & Mayor.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum AmAction for WORDS {
        /// Move the wagon whose feature was just scored onto the feature at `spot` of the tile
        /// at `pos` (RULES-MORE.md AM-11).
        Wagon {
            /// The tile of the feature.
            pos: Pos,
            /// The feature on it.
            spot: Spot,
        } = "wagon",
        /// Put a barn at the north-east corner of the tile at `pos` (a corner of the tile just
        /// laid where four tiles meet in one field), instead of deploying (RULES-MORE.md AM-15);
        /// `barn = [x, y]` in records.
        Barn {
            /// The tile whose north-east corner it is.
            pos: Pos,
        } = "barn",
    }
}

crate::mechanic_decisions! {
    /// A decision of Abbey & Mayor.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum AmDecision for WORDS {
        /// The wagon that stood on the tile at (`x`, `y`) was scored: its owner may move it to
        /// an adjacent unoccupied, incomplete feature, or pass and keep it (AM-11, AM-12).
        Wagon {
            /// Column of the tile the wagon stood on.
            x: i32,
            /// Row of the tile the wagon stood on.
            y: i32,
        } = "wagon_move",
    }
}

crate::mechanic_events! {
    /// An event of Abbey & Mayor. Seats are indices into the game's player list.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum AmEvent for WORDS {
        /// A scored wagon moved on to the feature at `spot` of the tile at (`x`, `y`) (AM-11).
        WagonMoved {
            /// Seat.
            player: usize,
            /// The kind of feature it moved onto.
            feature: FeatureKind,
            /// Column.
            x: i32,
            /// Row.
            y: i32,
            /// The feature on the tile.
            spot: Spot,
        } = "wagon_moved" => "AM-11 wagon moved on",
        /// A barn was put at the north-east corner of the tile at (`x`, `y`) (AM-15).
        BarnPlaced {
            /// Seat.
            player: usize,
            /// Column.
            x: i32,
            /// Row.
            y: i32,
        } = "barn_placed" => "AM-15 barn placed",
    }
}

impl ActionWords for AmAction {
    fn words(&self) -> String {
        match self {
            AmAction::Wagon { pos, spot } => format!("move the wagon to {pos} {spot}"),
            AmAction::Barn { pos } => format!("put a barn at the north-east corner of {pos}"),
        }
    }
}

impl EventWords for AmEvent {
    fn words(&self, names: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AmEvent::WagonMoved {
                player,
                feature,
                x,
                y,
                spot,
            } => write!(
                f,
                "{}'s wagon moves on to the {} at {} {spot} (AM-11)",
                seat(names, player),
                feature.name(),
                Pos::new(x, y)
            ),
            AmEvent::BarnPlaced { player, x, y } => write!(
                f,
                "{} puts a barn at the north-east corner of {} (AM-15)",
                seat(names, player),
                Pos::new(x, y)
            ),
        }
    }
}
