//! The Princess & the Dragon's vocabulary: the actions, decisions and events of the volcano,
//! the dragon, the fairy and the princess, as typed values ([`PdAction`], [`PdDecision`],
//! [`PdEvent`]) that convert to and from the engine's mechanic arms, with their names, words,
//! record keys and JSON form ([`Vocabulary`]).

use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::vocabulary::{
    Field, MechanicAction, MechanicDecision, MechanicEvent, MechanicId, RecordKey, Vocabulary, arm,
    name_at, record_array, record_at, record_pos, record_spot, seat, spot_field, text_field,
};
use crate::model::geometry::{Pos, Spot};
use std::fmt;
use std::sync::Arc;

/// The P&D family's id.
pub const ID: MechanicId = MechanicId(2);

/// An action of the P&D mechanics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PdAction {
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
}

const FAIRY: u8 = 0;
const DRAGON: u8 = 1;
const REMOVE: u8 = 2;
const CLAIM: u8 = 3;

impl From<PdAction> for Action {
    fn from(a: PdAction) -> Action {
        let at = |verb, pos, spot| MechanicAction::at_spot(&WORDS, verb, pos, spot);
        Action::Mechanic(match a {
            PdAction::Fairy { pos, spot } => at(FAIRY, pos, spot),
            PdAction::Dragon { pos } => at(DRAGON, pos, None),
            PdAction::Remove { pos, spot } => at(REMOVE, pos, Some(spot)),
            PdAction::Claim => at(CLAIM, Pos::new(0, 0), None),
        })
    }
}

impl PdAction {
    /// The P&D action `action` is, if it is one.
    pub fn of(action: &Action) -> Option<PdAction> {
        match action {
            Action::Mechanic(a) if a.mechanic == ID => PdAction::decode(a),
            _ => None,
        }
    }

    fn decode(a: &MechanicAction) -> Option<PdAction> {
        let pos = a.pos;
        Some(match a.verb {
            FAIRY => PdAction::Fairy {
                pos,
                spot: a.spot(),
            },
            DRAGON => PdAction::Dragon { pos },
            REMOVE => PdAction::Remove {
                pos,
                spot: a.spot()?,
            },
            CLAIM => PdAction::Claim,
            _ => return None,
        })
    }
}

/// A decision of the P&D mechanics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdDecision {
    /// Claim the fairy's turn point, or pass and lose it (house rule A23).
    ClaimFairyPoint,
    /// The princess may (or must) send a knight of the city home (PR3).
    Princess,
    /// Take the next step of the dragon's journey (D4).
    DragonStep {
        /// Step number, from 1.
        step: u32,
    },
    /// Move the fairy, or pass, after deploying a builder or pig: under
    /// `pd.fairy.move_condition = "no_follower_placed"` only a follower blocks the move (FA2, A7).
    FairyMove,
}

const DECISIONS: [&str; 4] = ["claim", "princess", "dragon_step", "fairy_move"];

impl From<PdDecision> for DecisionKind {
    fn from(d: PdDecision) -> DecisionKind {
        let (kind, n) = match d {
            PdDecision::ClaimFairyPoint => (0, 0),
            PdDecision::Princess => (1, 0),
            PdDecision::DragonStep { step } => (2, step),
            PdDecision::FairyMove => (3, 0),
        };
        DecisionKind::Mechanic(MechanicDecision::new(
            &WORDS,
            kind,
            n,
            Pos::new(0, 0),
            [0; 2],
        ))
    }
}

impl PdDecision {
    /// The P&D decision `kind` is, if it is one.
    pub fn of(kind: &DecisionKind) -> Option<PdDecision> {
        match kind {
            DecisionKind::Mechanic(d) if d.mechanic == ID => Some(match d.kind {
                0 => PdDecision::ClaimFairyPoint,
                1 => PdDecision::Princess,
                2 => PdDecision::DragonStep { step: d.n },
                3 => PdDecision::FairyMove,
                _ => return None,
            }),
            _ => None,
        }
    }
}

/// An event of the P&D mechanics. Seats are indices into the game's player list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdEvent {
    /// A dragon tile drawn before the dragon is in play was set aside (D0.1).
    TileSetAside {
        /// Seat.
        player: usize,
        /// Tile id.
        tile: Arc<str>,
    },
    /// A dragon tile drawn before the dragon is in play went back into the bag (house rule D0).
    TileReturned {
        /// Seat.
        player: usize,
        /// Tile id.
        tile: Arc<str>,
    },
    /// The set-aside dragon tiles were shuffled back into the bag (V6, D0.2).
    TilesReshuffled {
        /// How many.
        count: u32,
    },
    /// The dragon moved: flew to a volcano (V2) or took a journey step (D4).
    DragonMoved {
        /// Seat of the player who moved it (the placer, for a volcano).
        player: usize,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// Step number within the journey, or 0 for a flight to a volcano.
        step: u32,
    },
    /// The dragon's journey ended.
    JourneyEnded {
        /// Steps taken.
        steps: u32,
        /// `dead_end` (D6), `steps_done` (D3) or `script` (a script ended it).
        reason: &'static str,
    },
    /// The fairy moved (FA2–FA5).
    FairyMoved {
        /// Seat.
        player: usize,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// The follower's spot it stands next to (follower mode), or none (tile mode).
        spot: Option<Spot>,
    },
    /// The fairy's point at the start of a turn (FA7).
    FairyPoint {
        /// Seat.
        player: usize,
        /// Points.
        points: u32,
    },
    /// The fairy's turn point was not claimed in time (house rule A23).
    FairyPointForfeited {
        /// Seat.
        player: usize,
    },
    /// A script took the dragon off the board (it stays in play).
    DragonHidden {
        /// The script's name.
        script: Arc<str>,
    },
    /// A script put the dragon on a tile (nothing eaten by that alone).
    DragonPlaced {
        /// The script's name.
        script: Arc<str>,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// A script took the fairy off the board (it stays in play; a fairy move brings it back).
    FairyHidden {
        /// The script's name.
        script: Arc<str>,
    },
}

/// The events' names, by kind code.
const EVENTS: [&str; 11] = [
    "tile_set_aside",
    "tile_returned",
    "tiles_reshuffled",
    "dragon_moved",
    "journey_ended",
    "fairy_moved",
    "fairy_point",
    "fairy_point_forfeited",
    "dragon_hidden",
    "dragon_placed",
    "fairy_hidden",
];

/// Why a journey ends, by code.
const REASONS: [&str; 3] = ["dead_end", "steps_done", "script"];

impl From<PdEvent> for Event {
    // Inlined where an event is made (always: left to itself the compiler keeps one copy, and
    // every event pays for the whole match), only its own arm is left.
    #[inline(always)]
    fn from(e: PdEvent) -> Event {
        let mut m = MechanicEvent::new(&WORDS, 0);
        match e {
            PdEvent::TileSetAside { player, tile } => {
                m.player = player;
                m.text = Some(tile);
            }
            PdEvent::TileReturned { player, tile } => {
                m.kind = 1;
                m.player = player;
                m.text = Some(tile);
            }
            PdEvent::TilesReshuffled { count } => {
                m.kind = 2;
                m.n = count;
            }
            PdEvent::DragonMoved { player, x, y, step } => {
                m.kind = 3;
                m.player = player;
                m.pos = Pos::new(x, y);
                m.n = step;
            }
            PdEvent::JourneyEnded { steps, reason } => {
                m.kind = 4;
                m.n = steps;
                m.args[0] = REASONS.iter().position(|r| *r == reason).unwrap_or(0) as u8;
            }
            PdEvent::FairyMoved { player, x, y, spot } => {
                m.kind = 5;
                m.player = player;
                m.pos = Pos::new(x, y);
                m.spot = spot;
            }
            PdEvent::FairyPoint { player, points } => {
                m.kind = 6;
                m.player = player;
                m.n = points;
            }
            PdEvent::FairyPointForfeited { player } => {
                m.kind = 7;
                m.player = player;
            }
            PdEvent::DragonHidden { script } => {
                m.kind = 8;
                m.text = Some(script);
            }
            PdEvent::DragonPlaced { script, x, y } => {
                m.kind = 9;
                m.text = Some(script);
                m.pos = Pos::new(x, y);
            }
            PdEvent::FairyHidden { script } => {
                m.kind = 10;
                m.text = Some(script);
            }
        }
        Event::Mechanic(m)
    }
}

impl PdEvent {
    /// The P&D event `event` is, if it is one.
    pub fn of(event: &Event) -> Option<PdEvent> {
        match event {
            Event::Mechanic(m) if m.mechanic == ID => PdEvent::decode(m),
            _ => None,
        }
    }

    fn decode(m: &MechanicEvent) -> Option<PdEvent> {
        let (player, x, y) = (m.player, m.pos.x, m.pos.y);
        let text = || m.text.clone().unwrap_or_else(|| Arc::from(""));
        Some(match m.kind {
            0 => PdEvent::TileSetAside {
                player,
                tile: text(),
            },
            1 => PdEvent::TileReturned {
                player,
                tile: text(),
            },
            2 => PdEvent::TilesReshuffled { count: m.n },
            3 => PdEvent::DragonMoved {
                player,
                x,
                y,
                step: m.n,
            },
            4 => PdEvent::JourneyEnded {
                steps: m.n,
                reason: REASONS.get(usize::from(m.args[0]))?,
            },
            5 => PdEvent::FairyMoved {
                player,
                x,
                y,
                spot: m.spot,
            },
            6 => PdEvent::FairyPoint {
                player,
                points: m.n,
            },
            7 => PdEvent::FairyPointForfeited { player },
            8 => PdEvent::DragonHidden { script: text() },
            9 => PdEvent::DragonPlaced {
                script: text(),
                x,
                y,
            },
            10 => PdEvent::FairyHidden { script: text() },
            _ => return None,
        })
    }
}

/// The P&D family's vocabulary.
struct Words;

static WORDS: Words = Words;

/// The P&D family's vocabulary, for the registry's list.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

const KEYS: [RecordKey; 4] = [
    RecordKey {
        key: "fairy",
        arity: &[2, 3],
    },
    RecordKey {
        key: "dragon",
        arity: &[2],
    },
    RecordKey {
        key: "remove",
        arity: &[3],
    },
    RecordKey {
        key: "claim",
        arity: &[],
    },
];

impl Vocabulary for Words {
    fn id(&self) -> MechanicId {
        ID
    }

    fn decision_name(&self, decision: &MechanicDecision) -> &'static str {
        name_at(&DECISIONS, decision.kind)
    }

    fn action_words(&self, action: &MechanicAction) -> String {
        match PdAction::decode(action) {
            Some(PdAction::Fairy { pos, spot: Some(s) }) => {
                format!("fairy to the follower at {pos} {s}")
            }
            Some(PdAction::Fairy { pos, spot: None }) => format!("fairy to {pos}"),
            Some(PdAction::Dragon { pos }) => format!("dragon to {pos}"),
            Some(PdAction::Remove { pos, spot }) => format!("remove the knight at {pos} {spot}"),
            Some(PdAction::Claim) => "claim".to_string(),
            None => "?".to_string(),
        }
    }

    fn record_keys(&self) -> &'static [RecordKey] {
        &KEYS
    }

    fn record(&self, action: &MechanicAction) -> (&'static str, toml::Value) {
        match PdAction::decode(action) {
            Some(PdAction::Fairy { pos, spot }) => ("fairy", record_at(pos, spot)),
            Some(PdAction::Dragon { pos }) => ("dragon", record_at(pos, None)),
            Some(PdAction::Remove { pos, spot }) => ("remove", record_at(pos, Some(spot))),
            Some(PdAction::Claim) | None => ("claim", toml::Value::Boolean(true)),
        }
    }

    fn parse(&self, key: &str, value: &toml::Value) -> Result<MechanicAction, String> {
        let action = match key {
            "claim" => match value.as_bool() {
                Some(true) => PdAction::Claim,
                _ => {
                    return Err(
                        "`claim = false` says nothing: leave the action out or write `claim = true`"
                            .into(),
                    );
                }
            },
            _ => {
                let values = record_array(value)?;
                let pos = record_pos(values)?;
                match key {
                    "fairy" if values.len() == 2 => PdAction::Fairy { pos, spot: None },
                    "fairy" => PdAction::Fairy {
                        pos,
                        spot: Some(record_spot(values.get(2))?),
                    },
                    "dragon" => PdAction::Dragon { pos },
                    _ => PdAction::Remove {
                        pos,
                        spot: record_spot(values.get(2))?,
                    },
                }
            }
        };
        arm(action.into())
    }

    fn event_json(&self, event: &MechanicEvent) -> (&'static str, Vec<(&'static str, Field)>) {
        let name = name_at(&EVENTS, event.kind);
        let int = |n: i64| Field::Int(n);
        let player = ("player", int(event.player as i64));
        let (x, y) = (
            ("x", int(event.pos.x.into())),
            ("y", int(event.pos.y.into())),
        );
        let n = int(event.n.into());
        let text = text_field(&event.text);
        let fields = match PdEvent::decode(event) {
            Some(PdEvent::TileSetAside { .. } | PdEvent::TileReturned { .. }) => {
                vec![player, ("tile", text)]
            }
            Some(PdEvent::TilesReshuffled { .. }) => vec![("count", n)],
            Some(PdEvent::DragonMoved { .. }) => vec![player, x, y, ("step", n)],
            Some(PdEvent::JourneyEnded { reason, .. }) => {
                vec![("steps", n), ("reason", Field::Name(reason))]
            }
            Some(PdEvent::FairyMoved { spot, .. }) => {
                vec![player, x, y, ("spot", spot_field(spot))]
            }
            Some(PdEvent::FairyPoint { .. }) => vec![player, ("points", n)],
            Some(PdEvent::FairyPointForfeited { .. }) => vec![player],
            Some(PdEvent::DragonHidden { .. } | PdEvent::FairyHidden { .. }) => {
                vec![("script", text)]
            }
            Some(PdEvent::DragonPlaced { .. }) => vec![("script", text), x, y],
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
        match PdEvent::decode(event) {
            Some(PdEvent::TileSetAside { player, tile }) => write!(
                f,
                "{} draws {tile}: the dragon is not in play yet, so it is set aside (D0)",
                who(player)
            ),
            Some(PdEvent::TileReturned { player, tile }) => write!(
                f,
                "{} draws {tile}: the dragon is not in play yet, so it goes back into the bag (house rule D0)",
                who(player)
            ),
            Some(PdEvent::TilesReshuffled { count }) => write!(
                f,
                "the first volcano: {count} set-aside dragon tiles are shuffled back in (V6)"
            ),
            Some(PdEvent::DragonMoved {
                player,
                x,
                y,
                step: 0,
            }) => write!(
                f,
                "the dragon flies to {}'s volcano at ({x},{y}) (V2)",
                who(player)
            ),
            Some(PdEvent::DragonMoved { player, x, y, step }) => write!(
                f,
                "dragon step {step}: {} moves the dragon to ({x},{y}) (D4)",
                who(player)
            ),
            Some(PdEvent::JourneyEnded { steps, reason }) => write!(
                f,
                "the dragon's journey ends after {steps} steps ({reason})"
            ),
            Some(PdEvent::FairyMoved { player, x, y, spot }) => match spot {
                Some(s) => write!(
                    f,
                    "{} moves the fairy next to the follower at ({x},{y}) {s}",
                    who(player)
                ),
                None => write!(f, "{} moves the fairy to ({x},{y})", who(player)),
            },
            Some(PdEvent::FairyPoint { player, points }) => write!(
                f,
                "the fairy: +{points} for {} at the start of the turn (FA7)",
                who(player)
            ),
            Some(PdEvent::FairyPointForfeited { player }) => write!(
                f,
                "{} does not claim the fairy's point (house rule A23)",
                who(player)
            ),
            Some(PdEvent::DragonHidden { script }) => {
                write!(f, "{script}: the dragon leaves the board")
            }
            Some(PdEvent::DragonPlaced { script, x, y }) => {
                write!(f, "{script}: the dragon is put on ({x},{y})")
            }
            Some(PdEvent::FairyHidden { script }) => {
                write!(f, "{script}: the fairy leaves the board")
            }
            None => write!(f, "?"),
        }
    }
}
