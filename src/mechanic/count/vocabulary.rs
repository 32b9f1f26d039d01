//! The Count of Carcassonne's vocabulary: its actions, decisions and events as typed values
//! ([`CountAction`], [`CountDecision`], [`CountEvent`]) that convert to and from the engine's
//! mechanic arms, with their names, words, record keys and JSON form ([`Vocabulary`]).

use super::rules::Quarter;
use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::vocabulary::{
    Field, MechanicAction, MechanicDecision, MechanicEvent, MechanicId, RecordKey, Vocabulary, arm,
    name_at, record_array, record_at, record_pos, record_spot, seat,
};
use crate::model::geometry::{Pos, Spot};
use crate::model::tile::FeatureKind;
use std::fmt;

/// The Count's family id.
pub const ID: MechanicId = MechanicId(1);

/// An action of the Count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CountAction {
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
}

const QUARTER: u8 = 0;
const COUNT: u8 = 1;
const LEAVE: u8 = 2;
const SCORE: u8 = 3;

fn quarter_of(code: u8) -> Option<Quarter> {
    Quarter::ALL.get(usize::from(code)).copied()
}

impl From<CountAction> for Action {
    fn from(a: CountAction) -> Action {
        let origin = Pos::new(0, 0);
        Action::Mechanic(match a {
            CountAction::Quarter { quarter } => {
                MechanicAction::new(&WORDS, QUARTER, origin, [quarter as u8, 0])
            }
            CountAction::Count { quarter } => {
                MechanicAction::new(&WORDS, COUNT, origin, [quarter as u8, 0])
            }
            CountAction::Leave { quarter, count } => {
                MechanicAction::new(&WORDS, LEAVE, origin, [quarter as u8, count])
            }
            CountAction::Score { pos, spot } => {
                MechanicAction::at_spot(&WORDS, SCORE, pos, Some(spot))
            }
        })
    }
}

impl CountAction {
    /// The Count's action `action` is, if it is one.
    pub fn of(action: &Action) -> Option<CountAction> {
        match action {
            Action::Mechanic(a) if a.mechanic == ID => CountAction::decode(a),
            _ => None,
        }
    }

    fn decode(a: &MechanicAction) -> Option<CountAction> {
        Some(match a.verb {
            QUARTER => CountAction::Quarter {
                quarter: quarter_of(a.args[0])?,
            },
            COUNT => CountAction::Count {
                quarter: quarter_of(a.args[0])?,
            },
            LEAVE => CountAction::Leave {
                quarter: quarter_of(a.args[0])?,
                count: a.args[1],
            },
            SCORE => CountAction::Score {
                pos: a.pos,
                spot: a.spot()?,
            },
            _ => return None,
        })
    }
}

/// A decision of the Count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountDecision {
    /// The Count (CO-1): the tile made only opponents score, so its placer may put one
    /// follower from supply into a quarter of the City of Carcassonne, or pass.
    Quarter,
    /// The Count (CO-2): a follower went into the City, so its owner may move the Count to
    /// another quarter, or pass.
    Move,
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
    },
    /// The Count (`count.feature_order`): the tile completed several features that draw on the
    /// same quarter; choose the one scored next.
    Order,
}

const DECISIONS: [&str; 4] = ["count_quarter", "count_move", "count_leave", "count_order"];

impl From<CountDecision> for DecisionKind {
    fn from(d: CountDecision) -> DecisionKind {
        let origin = Pos::new(0, 0);
        let (kind, pos, args) = match d {
            CountDecision::Quarter => (0, origin, [0; 2]),
            CountDecision::Move => (1, origin, [0; 2]),
            CountDecision::Leave {
                quarter,
                available,
                x,
                y,
            } => (2, Pos::new(x, y), [quarter as u8, available]),
            CountDecision::Order => (3, origin, [0; 2]),
        };
        DecisionKind::Mechanic(MechanicDecision::new(&WORDS, kind, 0, pos, args))
    }
}

impl CountDecision {
    /// The Count's decision `kind` is, if it is one.
    pub fn of(kind: &DecisionKind) -> Option<CountDecision> {
        match kind {
            DecisionKind::Mechanic(d) if d.mechanic == ID => Some(match d.kind {
                0 => CountDecision::Quarter,
                1 => CountDecision::Move,
                2 => CountDecision::Leave {
                    quarter: quarter_of(d.args[0])?,
                    available: d.args[1],
                    x: d.pos.x,
                    y: d.pos.y,
                },
                3 => CountDecision::Order,
                _ => return None,
            }),
            _ => None,
        }
    }
}

/// An event of the Count. Seats are indices into the game's player list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountEvent {
    /// A follower went from supply into a quarter of the City of Carcassonne (CO-1).
    FollowerIntoQuarter {
        /// Seat.
        player: usize,
        /// The quarter.
        quarter: Quarter,
    },
    /// The Count moved to another quarter (CO-2).
    CountMoved {
        /// Seat of the player who moved it.
        player: usize,
        /// The quarter it moved to.
        quarter: Quarter,
    },
    /// Followers left a quarter for the feature about to be scored (CO-4, CO-5); they go back
    /// to supply after the scoring (`Event::FigureReturned`).
    FollowersLeftQuarter {
        /// Seat.
        player: usize,
        /// The quarter.
        quarter: Quarter,
        /// How many.
        count: u8,
        /// The kind of feature they joined.
        feature: FeatureKind,
        /// Column of a tile of the feature.
        x: i32,
        /// Row of a tile of the feature.
        y: i32,
    },
}

const EVENTS: [&str; 3] = [
    "follower_into_quarter",
    "count_moved",
    "followers_left_quarter",
];

impl From<CountEvent> for Event {
    fn from(e: CountEvent) -> Event {
        let mut m = MechanicEvent::new(&WORDS, 0);
        match e {
            CountEvent::FollowerIntoQuarter { player, quarter } => {
                m.player = player;
                m.args[0] = quarter as u8;
            }
            CountEvent::CountMoved { player, quarter } => {
                m.kind = 1;
                m.player = player;
                m.args[0] = quarter as u8;
            }
            CountEvent::FollowersLeftQuarter {
                player,
                quarter,
                count,
                feature,
                x,
                y,
            } => {
                m.kind = 2;
                m.player = player;
                m.args = [quarter as u8, count];
                m.feature = Some(feature);
                m.pos = Pos::new(x, y);
            }
        }
        Event::Mechanic(m)
    }
}

impl CountEvent {
    /// The Count's event `event` is, if it is one.
    pub fn of(event: &Event) -> Option<CountEvent> {
        match event {
            Event::Mechanic(m) if m.mechanic == ID => CountEvent::decode(m),
            _ => None,
        }
    }

    fn decode(m: &MechanicEvent) -> Option<CountEvent> {
        let (player, quarter) = (m.player, quarter_of(m.args[0])?);
        Some(match m.kind {
            0 => CountEvent::FollowerIntoQuarter { player, quarter },
            1 => CountEvent::CountMoved { player, quarter },
            2 => CountEvent::FollowersLeftQuarter {
                player,
                quarter,
                count: m.args[1],
                feature: m.feature?,
                x: m.pos.x,
                y: m.pos.y,
            },
            _ => return None,
        })
    }
}

/// The Count's vocabulary.
struct Words;

static WORDS: Words = Words;

/// The Count's vocabulary, for the registry's list.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

const KEYS: [RecordKey; 4] = [
    RecordKey {
        key: "quarter",
        arity: &[],
    },
    RecordKey {
        key: "count",
        arity: &[],
    },
    RecordKey {
        key: "leave",
        arity: &[2],
    },
    RecordKey {
        key: "score",
        arity: &[3],
    },
];

/// The quarter a record names.
fn parse_quarter(value: Option<&toml::Value>) -> Result<Quarter, String> {
    let name = value
        .and_then(toml::Value::as_str)
        .ok_or("expected a quarter's name: castle, cathedral, market or blacksmiths")?;
    Quarter::parse(name).ok_or_else(|| {
        format!("`{name}` is no quarter of the City: use castle, cathedral, market or blacksmiths")
    })
}

impl Vocabulary for Words {
    fn id(&self) -> MechanicId {
        ID
    }

    fn decision_name(&self, decision: &MechanicDecision) -> &'static str {
        name_at(&DECISIONS, decision.kind)
    }

    fn action_words(&self, action: &MechanicAction) -> String {
        match CountAction::decode(action) {
            Some(CountAction::Quarter { quarter }) => {
                format!("follower into the {} quarter", quarter.name())
            }
            Some(CountAction::Count { quarter }) => {
                format!("the Count to the {} quarter", quarter.name())
            }
            Some(CountAction::Leave { quarter, count }) => {
                format!("{count} out of the {} quarter", quarter.name())
            }
            Some(CountAction::Score { pos, spot }) => {
                format!("score the feature at {pos} {spot} next")
            }
            None => "?".to_string(),
        }
    }

    fn record_keys(&self) -> &'static [RecordKey] {
        &KEYS
    }

    fn record(&self, action: &MechanicAction) -> (&'static str, toml::Value) {
        let name = |q: Quarter| toml::Value::String(q.name().to_string());
        match CountAction::decode(action) {
            Some(CountAction::Quarter { quarter }) => ("quarter", name(quarter)),
            Some(CountAction::Count { quarter }) => ("count", name(quarter)),
            Some(CountAction::Leave { quarter, count }) => (
                "leave",
                toml::Value::Array(vec![name(quarter), toml::Value::Integer(count.into())]),
            ),
            Some(CountAction::Score { pos, spot }) => ("score", record_at(pos, Some(spot))),
            None => ("score", toml::Value::Boolean(false)),
        }
    }

    fn parse(&self, key: &str, value: &toml::Value) -> Result<MechanicAction, String> {
        let action = match key {
            "quarter" => CountAction::Quarter {
                quarter: parse_quarter(Some(value))?,
            },
            "count" => CountAction::Count {
                quarter: parse_quarter(Some(value))?,
            },
            "leave" => {
                let values = record_array(value)?;
                let quarter = parse_quarter(values.first())?;
                let count = values
                    .get(1)
                    .and_then(toml::Value::as_integer)
                    .and_then(|n| u8::try_from(n).ok())
                    .ok_or("`leave = [\"quarter\", n]` takes a count from 1 to 255")?;
                if count == 0 {
                    return Err(
                        "`leave = [\"quarter\", 0]` moves nothing: write `pass = true`".into(),
                    );
                }
                CountAction::Leave { quarter, count }
            }
            _ => {
                let values = record_array(value)?;
                CountAction::Score {
                    pos: record_pos(values)?,
                    spot: record_spot(values.get(2))?,
                }
            }
        };
        arm(action.into())
    }

    fn event_json(&self, event: &MechanicEvent) -> (&'static str, Vec<(&'static str, Field)>) {
        let name = name_at(&EVENTS, event.kind);
        let player = ("player", Field::Int(event.player as i64));
        let fields = match CountEvent::decode(event) {
            Some(
                CountEvent::FollowerIntoQuarter { quarter, .. }
                | CountEvent::CountMoved { quarter, .. },
            ) => vec![player, ("quarter", Field::Name(quarter.name()))],
            Some(CountEvent::FollowersLeftQuarter {
                quarter,
                count,
                feature,
                x,
                y,
                ..
            }) => vec![
                player,
                ("quarter", Field::Name(quarter.name())),
                ("count", Field::Int(count.into())),
                ("feature", Field::Name(feature.name())),
                ("x", Field::Int(x.into())),
                ("y", Field::Int(y.into())),
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
        let who = |p: usize| seat(names, p);
        match CountEvent::decode(event) {
            Some(CountEvent::FollowerIntoQuarter { player, quarter }) => write!(
                f,
                "{} puts a follower into the {} quarter of the City of Carcassonne (CO-1)",
                who(player),
                quarter.name()
            ),
            Some(CountEvent::CountMoved { player, quarter }) => write!(
                f,
                "{} moves the Count to the {} quarter (CO-2)",
                who(player),
                quarter.name()
            ),
            Some(CountEvent::FollowersLeftQuarter {
                player,
                quarter,
                count,
                feature,
                x,
                y,
            }) => write!(
                f,
                "{} moves {count} follower{} from the {} quarter into the {} at ({x},{y}) (CO-5)",
                who(player),
                if count == 1 { "" } else { "s" },
                quarter.name(),
                feature.name()
            ),
            None => write!(f, "?"),
        }
    }
}
