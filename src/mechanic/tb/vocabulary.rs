//! Traders & Builders' vocabulary: its events as typed values ([`TbEvent`]) that convert to and
//! from the engine's mechanic arm, with their names, words and JSON form ([`Vocabulary`]). The
//! builder and the pig are deployed with the base game's `deploy` (`figure = "builder"`), and
//! the double turn's second tile is an ordinary `place`, so the family has no actions or
//! decisions of its own.

use crate::engine::event::Event;
use crate::engine::vocabulary::{
    Field, MechanicAction, MechanicDecision, MechanicEvent, MechanicId, RecordKey, Vocabulary,
    name_at, seat,
};
use crate::model::geometry::Pos;
use crate::model::tile::Good;
use std::fmt;

/// Traders & Builders' family id.
pub const ID: MechanicId = MechanicId(3);

/// Something Traders & Builders made happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TbEvent {
    /// The tile extended the road or city of the player's builder: he plays a second tile
    /// after this one (RULES.md §1.10).
    DoubleTurn {
        /// Seat.
        player: usize,
        /// Where the tile lies.
        x: i32,
        /// Where the tile lies.
        y: i32,
    },
    /// The player who completed a city took its goods tokens of one kind (RULES.md §1.10,
    /// \[ext:X2\]).
    GoodsTaken {
        /// Seat.
        player: usize,
        /// The good.
        good: Good,
        /// How many tokens.
        count: u32,
    },
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
    },
}

const DOUBLE_TURN: u8 = 0;
const GOODS_TAKEN: u8 = 1;
const GOODS_MAJORITY: u8 = 2;
const EVENTS: [&str; 3] = ["double_turn", "goods_taken", "goods_majority"];

impl From<TbEvent> for Event {
    fn from(e: TbEvent) -> Event {
        let mut m = MechanicEvent::new(&WORDS, DOUBLE_TURN);
        match e {
            TbEvent::DoubleTurn { player, x, y } => {
                m.player = player;
                m.pos = Pos::new(x, y);
            }
            TbEvent::GoodsTaken {
                player,
                good,
                count,
            } => {
                m.kind = GOODS_TAKEN;
                m.player = player;
                m.args = [good as u8, 0];
                m.n = count;
            }
            TbEvent::GoodsMajority {
                player,
                good,
                held,
                points,
            } => {
                m.kind = GOODS_MAJORITY;
                m.player = player;
                // A box holds at most 9 tokens of a good: the count fits a byte (saturated
                // beyond, for tile sets of a ruleset's own).
                m.args = [good as u8, u8::try_from(held).unwrap_or(u8::MAX)];
                m.n = points;
            }
        }
        Event::Mechanic(m)
    }
}

impl TbEvent {
    /// The Traders & Builders event `event` is, if it is one.
    pub fn of(event: &Event) -> Option<TbEvent> {
        match event {
            Event::Mechanic(m) => TbEvent::decode(m),
            _ => None,
        }
    }

    fn decode(m: &MechanicEvent) -> Option<TbEvent> {
        if m.mechanic != ID {
            return None;
        }
        match m.kind {
            DOUBLE_TURN => Some(TbEvent::DoubleTurn {
                player: m.player,
                x: m.pos.x,
                y: m.pos.y,
            }),
            GOODS_TAKEN => Some(TbEvent::GoodsTaken {
                player: m.player,
                good: *Good::ALL.get(usize::from(m.args[0]))?,
                count: m.n,
            }),
            GOODS_MAJORITY => Some(TbEvent::GoodsMajority {
                player: m.player,
                good: *Good::ALL.get(usize::from(m.args[0]))?,
                held: m.args[1].into(),
                points: m.n,
            }),
            _ => None,
        }
    }
}

/// Traders & Builders' vocabulary.
struct Words;

static WORDS: Words = Words;

/// Traders & Builders' vocabulary, for the registry.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

impl Vocabulary for Words {
    fn id(&self) -> MechanicId {
        ID
    }

    fn decision_name(&self, _decision: &MechanicDecision) -> &'static str {
        "?"
    }

    fn action_words(&self, _action: &MechanicAction) -> String {
        "?".into()
    }

    fn record_keys(&self) -> &'static [RecordKey] {
        &[]
    }

    fn record(&self, _action: &MechanicAction) -> (&'static str, toml::Value) {
        ("?", toml::Value::Boolean(false))
    }

    fn parse(&self, key: &str, _value: &toml::Value) -> Result<MechanicAction, String> {
        Err(format!("Traders & Builders has no action `{key}`"))
    }

    fn event_json(&self, event: &MechanicEvent) -> (&'static str, Vec<(&'static str, Field)>) {
        let name = name_at(&EVENTS, event.kind);
        let player = ("player", Field::Int(event.player as i64));
        let fields = match TbEvent::decode(event) {
            Some(TbEvent::DoubleTurn { x, y, .. }) => vec![
                player,
                ("x", Field::Int(x.into())),
                ("y", Field::Int(y.into())),
            ],
            Some(TbEvent::GoodsTaken { good, count, .. }) => vec![
                player,
                ("good", Field::Name(good.name())),
                ("count", Field::Int(count.into())),
            ],
            Some(TbEvent::GoodsMajority {
                good, held, points, ..
            }) => vec![
                player,
                ("good", Field::Name(good.name())),
                ("held", Field::Int(held.into())),
                ("points", Field::Int(points.into())),
            ],
            None => Vec::new(),
        };
        (name, fields)
    }

    fn event_words(
        &self,
        event: &MechanicEvent,
        names: &[String],
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result {
        match TbEvent::decode(event) {
            Some(TbEvent::DoubleTurn { player, x, y }) => write!(
                f,
                "the tile at ({x},{y}) extends {}'s builder's feature: {} plays a second tile",
                seat(names, player),
                seat(names, player)
            ),
            Some(TbEvent::GoodsTaken {
                player,
                good,
                count,
            }) => write!(
                f,
                "{} takes {count} {} token{}",
                seat(names, player),
                good.name(),
                if count == 1 { "" } else { "s" }
            ),
            Some(TbEvent::GoodsMajority {
                player,
                good,
                held,
                points,
            }) => write!(
                f,
                "{} scores {points} for the most {} tokens ({held}; T&B goods majority, B-E2)",
                seat(names, player),
                good.name()
            ),
            None => write!(f, "?"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
