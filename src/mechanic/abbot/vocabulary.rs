//! The Abbot's vocabulary: its one action (the recall, `recall = [x, y]` in records) and its one
//! event (`abbot_recalled`) as typed values ([`AbbotAction`], [`AbbotEvent`]) declared with the
//! engine's generators (`engine::vocabulary`), which convert them to and from the engine's
//! mechanic arms and give their record key and JSON form; this file writes their words.

use crate::engine::vocabulary::{
    ActionWords, EventWords, Family, MechanicId, Nothing, Vocabulary, seat,
};
use crate::model::geometry::Pos;
use std::fmt;

/// The Abbot's family id (the Count has 1, P&D 2, Traders & Builders 3).
pub const ID: MechanicId = MechanicId(4);

/// The Abbot's vocabulary.
static WORDS: Family<AbbotAction, Nothing, AbbotEvent> = Family::new(ID);

/// The Abbot's vocabulary, for the registry's list.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

crate::mechanic_actions! {
    /// An action of the Abbot.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum AbbotAction for WORDS {
        /// Take the active player's abbot back from the cloister or garden of the tile at `pos`,
        /// scoring it at once as at the end of the game (RULES.md §1.10; \[ext:B8\]).
        Recall {
            /// The tile of the cloister or garden.
            pos: Pos,
        } = "recall",
    }
}

crate::mechanic_events! {
    /// An event of the Abbot. Seats are indices into the game's player list.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum AbbotEvent for WORDS {
        /// A player took his abbot back from the cloister or garden of the tile at (`x`, `y`); the
        /// scoring and the figure's return follow as their own events.
        Recalled {
            /// Seat.
            player: usize,
            /// Column.
            x: i32,
            /// Row.
            y: i32,
        } = "abbot_recalled",
    }
}

impl ActionWords for AbbotAction {
    fn words(&self) -> String {
        let AbbotAction::Recall { pos } = self;
        format!("recall the abbot from {pos}")
    }
}

impl EventWords for AbbotEvent {
    fn words(&self, names: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let AbbotEvent::Recalled { player, x, y } = *self;
        write!(
            f,
            "{} recalls the abbot from {} and scores it at once",
            seat(names, player),
            Pos::new(x, y)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::action::Action;
    use crate::engine::event::Event;

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
        assert_eq!(value.to_string(), "[2, -1]");
        let back = WORDS.parse(key, &value, None).expect("parses");
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
