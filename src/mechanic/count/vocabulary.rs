//! The Count of Carcassonne's vocabulary: its actions, decisions and events as typed values
//! ([`CountAction`], [`CountDecision`], [`CountEvent`]) declared with the engine's generators
//! (`engine::vocabulary`), which convert them to and from the engine's mechanic arms and give
//! their record keys and JSON form; this file writes their words and how a quarter is written.

use super::rules::Quarter;
use crate::engine::vocabulary::{
    ActionWords, EventWords, Family, Field, JsonValue, MechanicId, Packer, RecordReader,
    RecordValue, Slot, Unpacker, Vocabulary, seat,
};
use crate::model::figure::FigureKind;
use crate::model::geometry::{Pos, Spot};
use crate::model::tile::FeatureKind;
use std::fmt;

/// The Count's family id.
pub const ID: MechanicId = MechanicId(1);

/// The Count's vocabulary.
static WORDS: Family<CountAction, CountDecision, CountEvent> = Family::new(ID);

/// The Count's vocabulary, for the registry's list.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

crate::mechanic_actions! {
    /// An action of the Count.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum CountAction for WORDS {
        /// Put a follower from supply into a quarter of the City of Carcassonne (CO-1; a big
        /// follower too, seed 001 "Casos especiales").
        Quarter {
            /// The quarter.
            quarter: Quarter,
            /// Which follower.
            figure: FigureKind,
        } = "quarter",
        /// Move the Count to a quarter (CO-2).
        Count {
            /// The quarter.
            quarter: Quarter,
        } = "count",
        /// Move followers of one kind out of a quarter into the feature about to be scored (CO-5).
        Leave {
            /// The quarter.
            quarter: Quarter,
            /// How many followers.
            count: u8,
            /// Which kind of follower.
            figure: FigureKind,
        } = "leave",
        /// Score next the feature at `spot` of the tile at `pos` (`count.feature_order`).
        Score {
            /// A tile of the feature.
            pos: Pos,
            /// The feature on it.
            spot: Spot,
        } = "score",
    }
}

crate::mechanic_decisions! {
    /// A decision of the Count.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum CountDecision for WORDS {
        /// The Count (CO-1): the tile made only opponents score, so its placer may put one
        /// follower from supply into a quarter of the City of Carcassonne, or pass.
        Quarter = "count_quarter",
        /// The Count (CO-2): a follower went into the City, so its owner may move the Count to
        /// another quarter, or pass.
        Move = "count_move",
        /// The Count (CO-4, CO-5): move followers out of `quarter` into the feature at (`x`, `y`)
        /// that is about to be scored, or pass.
        Leave {
            /// The quarter.
            quarter: Quarter,
            /// The deciding player's followers in it.
            available: u8,
            /// Column of a tile of the feature.
            x: i32,
            /// Row of a tile of the feature.
            y: i32,
        } = "count_leave",
        /// The Count (`count.feature_order`): the tile completed several features that draw on the
        /// same quarter; choose the one scored next.
        Order = "count_order",
    }
}

crate::mechanic_events! {
    /// An event of the Count. Seats are indices into the game's player list.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum CountEvent for WORDS {
        /// A follower went from supply into a quarter of the City of Carcassonne (CO-1).
        FollowerIntoQuarter {
            /// Seat.
            player: usize,
            /// The quarter.
            quarter: Quarter,
            /// Which follower.
            figure: FigureKind,
        } = "follower_into_quarter",
        /// The Count moved to another quarter (CO-2).
        CountMoved {
            /// Seat of the player who moved it.
            player: usize,
            /// The quarter it moved to.
            quarter: Quarter,
        } = "count_moved",
        /// Followers left a quarter for the feature about to be scored (CO-4, CO-5); they go back
        /// to supply after the scoring (`Event::FigureReturned`).
        FollowersLeftQuarter {
            /// Seat.
            player: usize,
            /// The quarter.
            quarter: Quarter,
            /// How many.
            count: u8,
            /// Their kind.
            figure: FigureKind,
            /// The kind of feature they joined.
            feature: FeatureKind,
            /// Column of a tile of the feature.
            x: i32,
            /// Row of a tile of the feature.
            y: i32,
        } = "followers_left_quarter",
    }
}

/// A quarter in a payload: its place in [`Quarter::ALL`].
impl Slot for Quarter {
    const INTS: usize = 0;
    const BYTES: usize = 1;
    fn put(self, p: &mut Packer<'_>) {
        p.byte(self as u8);
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        Quarter::ALL.get(usize::from(u.byte()?)).copied()
    }
}

impl JsonValue for Quarter {
    fn json(&self) -> Field {
        Field::Name(self.name())
    }
    fn from_json(value: &serde_json::Value) -> Option<Self> {
        Quarter::parse(value.as_str()?)
    }
}

/// A quarter in a record: its name (`quarter = "castle"`, `leave = ["castle", 2]`).
impl RecordValue for Quarter {
    const MIN: usize = 1;
    const MAX: usize = 1;
    fn write(&self, out: &mut Vec<toml::Value>) {
        out.push(toml::Value::String(self.name().to_string()));
    }
    fn read(r: &mut RecordReader<'_>) -> Result<Self, String> {
        let name = r
            .next_value()
            .and_then(toml::Value::as_str)
            .ok_or("expected a quarter's name: castle, cathedral, market or blacksmiths")?;
        Quarter::parse(name).ok_or_else(|| {
            format!(
                "`{name}` is no quarter of the City: use castle, cathedral, market or blacksmiths"
            )
        })
    }
}

/// `count` figures of a kind in words: "1 follower", "2 followers", "1 big follower".
pub fn how_many(count: u8, figure: FigureKind) -> String {
    let plural = if count == 1 { "" } else { "s" };
    format!("{count} {}{plural}", figure.noun())
}

impl ActionWords for CountAction {
    fn words(&self) -> String {
        match *self {
            CountAction::Quarter { quarter, figure } => {
                format!("{} into the {} quarter", figure.noun(), quarter.name())
            }
            CountAction::Count { quarter } => {
                format!("the Count to the {} quarter", quarter.name())
            }
            CountAction::Leave {
                quarter,
                count,
                figure,
            } => format!(
                "{} out of the {} quarter",
                how_many(count, figure),
                quarter.name()
            ),
            CountAction::Score { pos, spot } => format!("score the feature at {pos} {spot} next"),
        }
    }

    fn problem(&self) -> Option<String> {
        match self {
            CountAction::Leave { count: 0, .. } => {
                Some("`leave = [\"quarter\", 0]` moves nothing: write `pass = true`".into())
            }
            _ => None,
        }
    }
}

impl EventWords for CountEvent {
    fn words(&self, names: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = |p: usize| seat(names, p);
        match *self {
            CountEvent::FollowerIntoQuarter {
                player,
                quarter,
                figure,
            } => write!(
                f,
                "{} puts {} into the {} quarter of the City of Carcassonne (CO-1)",
                who(player),
                figure.words(),
                quarter.name()
            ),
            CountEvent::CountMoved { player, quarter } => write!(
                f,
                "{} moves the Count to the {} quarter (CO-2)",
                who(player),
                quarter.name()
            ),
            CountEvent::FollowersLeftQuarter {
                player,
                quarter,
                count,
                figure,
                feature,
                x,
                y,
            } => write!(
                f,
                "{} moves {} from the {} quarter into the {} at ({x},{y}) (CO-5)",
                who(player),
                how_many(count, figure),
                quarter.name(),
                feature.name()
            ),
        }
    }
}
