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
use crate::model::figure::FigureKind;
use crate::model::geometry::{Pos, Spot};
use crate::model::tile::FeatureKind;
use std::fmt;

/// The Count's family id.
pub const ID: MechanicId = MechanicId(1);

/// An action of the Count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CountAction {
    /// Put a follower from supply into a quarter of the City of Carcassonne (CO-1; a big
    /// follower too, seed 001 "Casos especiales").
    Quarter {
        /// The quarter.
        quarter: Quarter,
        /// Which follower.
        figure: FigureKind,
    },
    /// Move the Count to a quarter (CO-2).
    Count {
        /// The quarter.
        quarter: Quarter,
    },
    /// Move followers of one kind out of a quarter into the feature about to be scored (CO-5).
    Leave {
        /// The quarter.
        quarter: Quarter,
        /// How many followers.
        count: u8,
        /// Which kind of follower.
        figure: FigureKind,
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
const SCORE: u8 = 3;
/// `Leave` from the quarter `q` is verb `LEAVE + q` (its two arguments are the count and the
/// figure kind).
const LEAVE: u8 = 4;

fn quarter_of(code: u8) -> Option<Quarter> {
    Quarter::ALL.get(usize::from(code)).copied()
}

impl From<CountAction> for Action {
    fn from(a: CountAction) -> Action {
        let origin = Pos::new(0, 0);
        Action::Mechanic(match a {
            CountAction::Quarter { quarter, figure } => {
                MechanicAction::new(&WORDS, QUARTER, origin, [quarter as u8, figure.code()])
            }
            CountAction::Count { quarter } => {
                MechanicAction::new(&WORDS, COUNT, origin, [quarter as u8, 0])
            }
            CountAction::Leave {
                quarter,
                count,
                figure,
            } => MechanicAction::new(
                &WORDS,
                LEAVE + quarter as u8,
                origin,
                [count, figure.code()],
            ),
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
                figure: FigureKind::of_code(a.args[1])?,
            },
            COUNT => CountAction::Count {
                quarter: quarter_of(a.args[0])?,
            },
            verb if verb >= LEAVE => CountAction::Leave {
                quarter: quarter_of(verb - LEAVE)?,
                count: a.args[0],
                figure: FigureKind::of_code(a.args[1])?,
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
        /// Which follower.
        figure: FigureKind,
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
        /// Their kind.
        figure: FigureKind,
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
            CountEvent::FollowerIntoQuarter {
                player,
                quarter,
                figure,
            } => {
                m.player = player;
                m.args = [quarter as u8, figure.code()];
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
                figure,
                feature,
                x,
                y,
            } => {
                m.kind = 2;
                m.player = player;
                m.args = [quarter as u8, count];
                m.n = figure.code().into();
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
            0 => CountEvent::FollowerIntoQuarter {
                player,
                quarter,
                figure: FigureKind::of_code(m.args[1])?,
            },
            1 => CountEvent::CountMoved { player, quarter },
            2 => CountEvent::FollowersLeftQuarter {
                player,
                quarter,
                count: m.args[1],
                figure: FigureKind::of_code(u8::try_from(m.n).ok()?)?,
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

/// `count` figures of a kind in words: "1 follower", "2 followers", "1 big follower".
pub fn how_many(count: u8, figure: FigureKind) -> String {
    let plural = if count == 1 { "" } else { "s" };
    format!("{count} {}{plural}", figure.noun())
}

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
            Some(CountAction::Quarter { quarter, figure }) => {
                format!("{} into the {} quarter", figure.noun(), quarter.name())
            }
            Some(CountAction::Count { quarter }) => {
                format!("the Count to the {} quarter", quarter.name())
            }
            Some(CountAction::Leave {
                quarter,
                count,
                figure,
            }) => format!(
                "{} out of the {} quarter",
                how_many(count, figure),
                quarter.name()
            ),
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
            Some(CountAction::Quarter { quarter, .. }) => ("quarter", name(quarter)),
            Some(CountAction::Count { quarter }) => ("count", name(quarter)),
            Some(CountAction::Leave { quarter, count, .. }) => (
                "leave",
                toml::Value::Array(vec![name(quarter), toml::Value::Integer(count.into())]),
            ),
            Some(CountAction::Score { pos, spot }) => ("score", record_at(pos, Some(spot))),
            None => ("score", toml::Value::Boolean(false)),
        }
    }

    fn parse(&self, key: &str, value: &toml::Value) -> Result<MechanicAction, String> {
        self.parse_figure(key, value, FigureKind::Follower)
    }

    fn parse_figure(
        &self,
        key: &str,
        value: &toml::Value,
        figure: FigureKind,
    ) -> Result<MechanicAction, String> {
        let action = match key {
            "quarter" => CountAction::Quarter {
                quarter: parse_quarter(Some(value))?,
                figure,
            },
            "count" if figure == FigureKind::Follower => CountAction::Count {
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
                CountAction::Leave {
                    quarter,
                    count,
                    figure,
                }
            }
            "count" | "score" if figure != FigureKind::Follower => {
                return Err(format!(
                    "`figure` goes with `quarter` and `leave`, not with `{key}`"
                ));
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

    fn record_figure(&self, action: &MechanicAction) -> Option<FigureKind> {
        match CountAction::decode(action)? {
            CountAction::Quarter { figure, .. } | CountAction::Leave { figure, .. } => Some(figure),
            _ => None,
        }
    }

    fn event_json(&self, event: &MechanicEvent) -> (&'static str, Vec<(&'static str, Field)>) {
        let name = name_at(&EVENTS, event.kind);
        let player = ("player", Field::Int(event.player as i64));
        let fields = match CountEvent::decode(event) {
            Some(CountEvent::FollowerIntoQuarter {
                quarter, figure, ..
            }) => vec![
                player,
                ("quarter", Field::Name(quarter.name())),
                ("figure", Field::Name(figure.name())),
            ],
            Some(CountEvent::CountMoved { quarter, .. }) => {
                vec![player, ("quarter", Field::Name(quarter.name()))]
            }
            Some(CountEvent::FollowersLeftQuarter {
                quarter,
                count,
                figure,
                feature,
                x,
                y,
                ..
            }) => vec![
                player,
                ("quarter", Field::Name(quarter.name())),
                ("count", Field::Int(count.into())),
                ("figure", Field::Name(figure.name())),
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
            Some(CountEvent::FollowerIntoQuarter {
                player,
                quarter,
                figure,
            }) => write!(
                f,
                "{} puts {} into the {} quarter of the City of Carcassonne (CO-1)",
                who(player),
                figure.words(),
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
                figure,
                feature,
                x,
                y,
            }) => write!(
                f,
                "{} moves {} from the {} quarter into the {} at ({x},{y}) (CO-5)",
                who(player),
                how_many(count, figure),
                quarter.name(),
                feature.name()
            ),
            None => write!(f, "?"),
        }
    }
}
