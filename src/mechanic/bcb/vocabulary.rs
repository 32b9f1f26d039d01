//! The vocabulary of Bridges, Castles & Bazaars: the bridge's action (a tile laid with a bridge,
//! `bridge = [x, y, rotation, bx, by, "N"]` in records) and event (`bridge_placed`) as typed
//! values declared with the engine's generators (`engine::vocabulary`); this file writes their
//! words.

use crate::engine::vocabulary::{
    ActionWords, EventWords, Family, MechanicId, Nothing, Vocabulary, seat,
};
use crate::model::geometry::{Edge, Pos, Rotation, Spot};
use std::fmt;

/// The family id of Bridges, Castles & Bazaars (the Count has 1, P&D 2, Traders & Builders 3,
/// the Abbot 4, The Tower 5, Abbey & Mayor 6).
pub const ID: MechanicId = MechanicId(7);

/// The family's vocabulary.
static WORDS: Family<BcbAction, Nothing, BcbEvent> = Family::new(ID);

/// The family's vocabulary, for the registry's list.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

crate::mechanic_actions! {
    /// An action of Bridges, Castles & Bazaars.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum BcbAction for WORDS {
        /// Lay the drawn tile at `pos` turned `rotation` and, with it, a bridge across the tile
        /// at `at` (the tile just laid or one beside it) from its edge `edge` to the opposite
        /// one (BCB-1, BCB-2, BCB-4, BCB-6 `with_tile`). `edge` is `N` for a bridge running
        /// north–south, `E` for one running east–west.
        Bridge {
            /// Where the tile goes.
            pos: Pos,
            /// How it is turned.
            rotation: Rotation,
            /// The tile the bridge crosses.
            at: Pos,
            /// The bridge's first edge: `N` (north–south) or `E` (east–west).
            edge: Spot,
        } = "bridge",
    }
}

crate::mechanic_events! {
    /// An event of Bridges, Castles & Bazaars. Seats are indices into the game's player list.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum BcbEvent for WORDS {
        /// A player laid a bridge across the tile at (`x`, `y`) from its edge `edge` to the
        /// opposite one.
        BridgePlaced {
            /// Seat.
            player: usize,
            /// Column.
            x: i32,
            /// Row.
            y: i32,
            /// The bridge's first edge: `N` (north–south) or `E` (east–west).
            edge: Spot,
        } = "bridge_placed",
    }
}

/// The words of a bridge's direction from its first edge.
pub fn axis_words(edge: Spot) -> &'static str {
    match edge {
        Spot::Edge(Edge::N | Edge::S) => "north–south",
        _ => "east–west",
    }
}

impl ActionWords for BcbAction {
    fn words(&self) -> String {
        let BcbAction::Bridge {
            pos,
            rotation,
            at,
            edge,
        } = *self;
        format!(
            "place the tile at {pos} turned {}° with a bridge {} across {at}",
            rotation.degrees(),
            axis_words(edge)
        )
    }
}

impl EventWords for BcbEvent {
    fn words(&self, names: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let BcbEvent::BridgePlaced { player, x, y, edge } = *self;
        write!(
            f,
            "{} lays a bridge {} across the tile at {}",
            seat(names, player),
            axis_words(edge),
            Pos::new(x, y)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::action::Action;

    #[test]
    fn the_bridge_round_trips() {
        let action = Action::from(BcbAction::Bridge {
            pos: Pos::new(1, -2),
            rotation: Rotation::ALL[3],
            at: Pos::new(1, -1),
            edge: Spot::Edge(Edge::E),
        });
        let Action::Mechanic(m) = action else {
            panic!("a mechanic action")
        };
        let (key, value) = WORDS.record(&m);
        assert_eq!(key, "bridge");
        assert_eq!(value.to_string(), r#"[1, -2, 270, 1, -1, "E"]"#);
        let back = WORDS.parse(key, &value, None).expect("parses");
        assert_eq!(Action::Mechanic(back), action);
        assert!(WORDS.action_words(&m).contains("east–west"));
    }
}
