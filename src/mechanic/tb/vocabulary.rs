//! Traders & Builders' vocabulary: its events as typed values ([`TbEvent`]) declared with the
//! engine's generator (`engine::vocabulary`), which converts them to and from the engine's
//! mechanic arm and gives their names and JSON form; this file writes their words. The builder
//! and the pig are deployed with the base game's `deploy` (`figure = "builder"`), and the double
//! turn's second tile is an ordinary `place`, so the family has no actions or decisions of its
//! own.

use crate::data::printed::Good;
use crate::engine::vocabulary::{
    EventWords, Family, Field, JsonValue, MechanicId, Nothing, Packer, Slot, Unpacker, Vocabulary,
    code_in, name_in, seat,
};
use std::fmt;

/// Traders & Builders' family id.
pub const ID: MechanicId = MechanicId(3);

/// Traders & Builders' vocabulary.
static WORDS: Family<Nothing, Nothing, TbEvent> = Family::new(ID);

/// Traders & Builders' vocabulary, for the registry.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

crate::mechanic_events! {
    /// Something Traders & Builders made happen.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum TbEvent for WORDS {
        /// The tile extended the road or city of the player's builder: he plays a second tile
        /// after this one (RULES.md §1.10).
        DoubleTurn {
            /// Seat.
            player: usize,
            /// Where the tile lies.
            x: i32,
            /// Where the tile lies.
            y: i32,
        } = "double_turn",
        /// The player who completed a city took its goods tokens of one kind (RULES.md §1.10,
        /// \[ext:X2\]).
        GoodsTaken {
            /// Seat.
            player: usize,
            /// The good.
            good: Good,
            /// How many tokens.
            count: u32,
        } = "goods_taken",
        /// At the end of the game the player holds the most tokens of one good (alone or tied)
        /// and scores for it (RULES.md B-E2, \[ext:X2\]).
        GoodsMajority {
            /// Seat.
            player: usize,
            /// The good.
            good: Good,
            /// How many tokens of it the player holds.
            held: u32,
            /// Points (10).
            points: u32,
        } = "goods_majority",
    }
}

/// A good in a payload: its place in [`Good::ALL`].
impl Slot for Good {
    const INTS: usize = 0;
    const BYTES: usize = 1;
    fn put(self, p: &mut Packer<'_>) {
        p.byte(code_in(&Good::ALL, self));
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        Good::ALL.get(usize::from(u.byte()?)).copied()
    }
}

impl JsonValue for Good {
    fn json(&self) -> Field {
        Field::Name(self.name())
    }
    fn from_json(value: &serde_json::Value) -> Option<Self> {
        name_in(&Good::ALL, Good::name, value)
    }
}

impl EventWords for TbEvent {
    fn words(&self, names: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TbEvent::DoubleTurn { player, x, y } => write!(
                f,
                "the tile at ({x},{y}) extends {}'s builder's feature: {} plays a second tile",
                seat(names, player),
                seat(names, player)
            ),
            TbEvent::GoodsTaken {
                player,
                good,
                count,
            } => write!(
                f,
                "{} takes {count} {} token{}",
                seat(names, player),
                good.name(),
                if count == 1 { "" } else { "s" }
            ),
            TbEvent::GoodsMajority {
                player,
                good,
                held,
                points,
            } => write!(
                f,
                "{} scores {points} for the most {} tokens ({held}; T&B goods majority, B-E2)",
                seat(names, player),
                good.name()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::event::Event;

    #[test]
    fn events_convert_both_ways() {
        let list = [
            TbEvent::DoubleTurn {
                player: 1,
                x: -2,
                y: 3,
            },
            TbEvent::GoodsTaken {
                player: 0,
                good: Good::Cloth,
                count: 2,
            },
            TbEvent::GoodsMajority {
                player: 1,
                good: Good::Grain,
                held: 3,
                points: 10,
            },
        ];
        for e in list {
            assert_eq!(TbEvent::of(&Event::from(e)), Some(e));
        }
    }
}
