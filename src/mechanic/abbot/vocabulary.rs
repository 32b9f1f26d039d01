//! The Abbot's vocabulary: its one action (the recall, `recall = [x, y]` in records) and its one
//! event (`abbot_recalled`) as typed values ([`AbbotAction`], [`AbbotEvent`]) that convert to
//! and from the engine's mechanic arms, with their words, record key and JSON form.

use crate::engine::action::Action;
use crate::engine::event::Event;
use crate::engine::vocabulary::{
    Field, MechanicAction, MechanicDecision, MechanicEvent, MechanicId, RecordKey, Vocabulary, arm,
    record_array, record_at, record_pos, seat,
};
use crate::model::geometry::Pos;
use std::fmt;

/// The Abbot's family id (the Count has 1, the Princess & the Dragon 2).
pub const ID: MechanicId = MechanicId(4);

/// The code of the recall, as action and as event.
const RECALL: u8 = 0;

/// An action of the Abbot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbbotAction {
    /// Take the active player's abbot back from the cloister or garden of the tile at `pos`,
    /// scoring it at once as at the end of the game (RULES.md §1.10; \[ext:B8\]).
    Recall {
        /// The tile of the cloister or garden.
        pos: Pos,
    },
}

impl From<AbbotAction> for Action {
    fn from(a: AbbotAction) -> Action {
        let AbbotAction::Recall { pos } = a;
        Action::Mechanic(MechanicAction::new(&WORDS, RECALL, pos, [0; 2]))
    }
}

impl AbbotAction {
    /// The Abbot's action `action` is, if it is one.
    pub fn of(action: &Action) -> Option<AbbotAction> {
        match action {
            Action::Mechanic(a) if a.mechanic == ID && a.verb == RECALL => {
                Some(AbbotAction::Recall { pos: a.pos })
            }
            _ => None,
        }
    }
}

/// An event of the Abbot. Seats are indices into the game's player list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbbotEvent {
    /// A player took his abbot back from the cloister or garden of the tile at (`x`, `y`); the
    /// scoring and the figure's return follow as their own events.
    Recalled {
        /// Seat.
        player: usize,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
}

impl From<AbbotEvent> for Event {
    fn from(e: AbbotEvent) -> Event {
        let AbbotEvent::Recalled { player, x, y } = e;
        let mut m = MechanicEvent::new(&WORDS, RECALL);
        m.player = player;
        m.pos = Pos::new(x, y);
        Event::Mechanic(m)
    }
}

impl AbbotEvent {
    /// The Abbot's event `event` is, if it is one.
    pub fn of(event: &Event) -> Option<AbbotEvent> {
        match event {
            Event::Mechanic(m) if m.mechanic == ID => AbbotEvent::decode(m),
            _ => None,
        }
    }

    fn decode(m: &MechanicEvent) -> Option<AbbotEvent> {
        (m.kind == RECALL).then_some(AbbotEvent::Recalled {
            player: m.player,
            x: m.pos.x,
            y: m.pos.y,
        })
    }
}

/// The Abbot's vocabulary.
struct Words;

static WORDS: Words = Words;

/// The Abbot's vocabulary, for the registry's list.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

const KEYS: [RecordKey; 1] = [RecordKey {
    key: "recall",
    arity: &[2],
}];

impl Vocabulary for Words {
    fn id(&self) -> MechanicId {
        ID
    }

    /// The Abbot asks no decision of its own (the recall answers the base game's deployment).
    fn decision_name(&self, _decision: &MechanicDecision) -> &'static str {
        "abbot"
    }

    fn action_words(&self, action: &MechanicAction) -> String {
        format!("recall the abbot from {}", action.pos)
    }

    fn record_keys(&self) -> &'static [RecordKey] {
        &KEYS
    }

    fn record(&self, action: &MechanicAction) -> (&'static str, toml::Value) {
        ("recall", record_at(action.pos, None))
    }

    fn parse(&self, _key: &str, value: &toml::Value) -> Result<MechanicAction, String> {
        let pos = record_pos(record_array(value)?)?;
        arm(AbbotAction::Recall { pos }.into())
    }

    fn event_json(&self, event: &MechanicEvent) -> (&'static str, Vec<(&'static str, Field)>) {
        let fields = vec![
            ("player", Field::Int(event.player as i64)),
            ("x", Field::Int(event.pos.x.into())),
            ("y", Field::Int(event.pos.y.into())),
        ];
        ("abbot_recalled", fields)
    }

    fn event_words(
        &self,
        event: &MechanicEvent,
        names: &[String],
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result {
        write!(
            f,
            "{} recalls the abbot from {} and scores it at once",
            seat(names, event.player),
            event.pos
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recall_round_trips() {
        let action = Action::from(AbbotAction::Recall {
            pos: Pos::new(2, -1),
        });
        let Action::Mechanic(m) = action else {
            panic!("a mechanic action")
        };
        let (key, value) = WORDS.record(&m);
        assert_eq!(key, "recall");
        let back = WORDS.parse(key, &value).expect("parses");
        assert_eq!(Action::Mechanic(back), action);
        assert!(WORDS.action_words(&m).contains("(2,-1)"));
        let event: Event = AbbotEvent::Recalled {
            player: 1,
            x: 2,
            y: -1,
        }
        .into();
        assert_eq!(
            AbbotEvent::of(&event),
            Some(AbbotEvent::Recalled {
                player: 1,
                x: 2,
                y: -1
            })
        );
    }
}
