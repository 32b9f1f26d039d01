//! The Tower's vocabulary: its actions (a floor, a follower on top, a capture, a ransom), its
//! decisions (whom to capture, whether to buy a prisoner back) and its events, as typed values
//! declared with the engine's generators (`engine::vocabulary`); this file writes their words.

use crate::engine::event::{MechanicReason, Reason, ReturnReason};
use crate::engine::vocabulary::{
    ActionWords, EventWords, Family, MechanicId, Vocabulary, enlist, seat,
};
use crate::model::figure::FigureKind;
use crate::model::geometry::{Pos, Spot};
use std::fmt;

/// The Tower's family id (the Count has 1, P&D 2, Traders & Builders 3, the Abbot 4, Abbey &
/// Mayor 6).
pub const ID: MechanicId = MechanicId(5);

/// The Tower's vocabulary.
static WORDS: Family<TowerAction, TowerDecision, TowerEvent> =
    Family::new(ID).with_reasons(&SENT_HOME);

/// The Tower's reasons for taking a figure off the board, by code.
const SENT_HOME: [Reason; 1] = [Reason {
    name: "captured",
    words: "{} is taken prisoner",
    told: "{} is taken prisoner from a tower",
    rule: "TW-5",
}];

/// A figure taken off the board by a tower's capture (TW-5); it goes into the captor's
/// custody, or home if it is the captor's own.
pub fn captured() -> ReturnReason {
    enlist(&WORDS);
    ReturnReason::Mechanic(MechanicReason {
        mechanic: ID,
        code: 0,
    })
}

/// The Tower's vocabulary, for the registry's list.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

crate::mechanic_actions! {
    /// An action of the Tower.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum TowerAction for WORDS {
        /// Put one of the player's floors on the tower (or empty foundation) at `pos`, as the
        /// turn's deploy action (TW-2 a, b); `floor = [x, y]` in records.
        Floor {
            /// The tower's tile.
            pos: Pos,
        } = "floor",
        /// Put a follower of kind `figure` on top of the open tower at `pos`, which closes it
        /// (TW-2 c); `tower_top = [x, y]` and `figure = "follower"` in records.
        Top {
            /// The tower's tile.
            pos: Pos,
            /// The figure.
            figure: FigureKind,
        } = "tower_top",
        /// Take the figure of kind `figure` of seat `owner` at `spot` of the tile at `pos`
        /// prisoner (TW-5, TW-6); `capture = [x, y, "N", owner]` in records.
        Capture {
            /// The figure's tile.
            pos: Pos,
            /// Its spot.
            spot: Spot,
            /// Its owner's seat.
            owner: u8,
            /// Its kind.
            figure: FigureKind,
        } = "capture",
        /// Take the follower on top of the tower at `pos` prisoner (TW-6); `capture_top = [x, y]`.
        CaptureTop {
            /// The tower's tile.
            pos: Pos,
        } = "capture_top",
        /// Buy back one of the player's figures of kind `figure` from seat `holder` (TW-8);
        /// `ransom = holder` and `figure = "follower"` in records.
        Ransom {
            /// The captor's seat.
            holder: u8,
            /// The prisoner's kind.
            figure: FigureKind,
        } = "ransom",
    }
}

crate::mechanic_decisions! {
    /// A decision of the Tower.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum TowerDecision for WORDS {
        /// Take one figure in the tower's reach prisoner, or pass (TW-5).
        Capture = "capture",
        /// Buy a prisoner back for points, or pass (TW-8).
        Ransom = "ransom",
    }
}

crate::mechanic_events! {
    /// An event of the Tower. Seats are indices into the game's player list.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum TowerEvent for WORDS {
        /// A player put a floor on the tower at (`x`, `y`), now `height` floors high (TW-2).
        Floor {
            /// Seat.
            player: usize,
            /// Column.
            x: i32,
            /// Row.
            y: i32,
            /// The tower's height with this floor.
            height: u32,
        } = "tower_floor" => "TW-2 floor put on a tower",
        /// A player put a figure on top of the tower at (`x`, `y`), closing it (TW-2 c).
        Closed {
            /// Seat.
            player: usize,
            /// The figure.
            figure: FigureKind,
            /// Column.
            x: i32,
            /// Row.
            y: i32,
        } = "tower_closed" => "TW-2 tower closed with a figure on top",
        /// `player` took a figure of `owner` prisoner (TW-5); the player's own goes home.
        Captured {
            /// The captor's seat.
            player: usize,
            /// The figure's owner.
            owner: usize,
            /// The figure.
            figure: FigureKind,
            /// Column of its tile.
            x: i32,
            /// Row of its tile.
            y: i32,
        } = "captured" => "TW-5 figure taken prisoner",
        /// Two players each held a prisoner of the other: both went home at once (TW-7).
        Exchanged {
            /// One player.
            player: usize,
            /// The figure `player` got back.
            figure: FigureKind,
            /// The other player.
            other: usize,
            /// The figure `other` got back.
            other_figure: FigureKind,
        } = "prisoners_exchanged" => "TW-7 prisoners exchanged",
        /// `player` bought his `figure` back from `holder` for `points` (TW-8).
        Ransomed {
            /// The prisoner's owner, who pays.
            player: usize,
            /// The captor, who is paid.
            holder: usize,
            /// The figure.
            figure: FigureKind,
            /// Points paid.
            points: u32,
        } = "ransomed" => "TW-8 prisoner ransomed",
        /// At the end of the game a prisoner went back to its owner (TW-10).
        Released {
            /// The owner.
            player: usize,
            /// The captor.
            holder: usize,
            /// The figure.
            figure: FigureKind,
        } = "prisoner_released" => "TW-10 prisoner released at the end",
    }
}

impl ActionWords for TowerAction {
    fn words(&self) -> String {
        match *self {
            TowerAction::Floor { pos } => format!("put a tower floor at {pos}"),
            TowerAction::Top { pos, figure } => {
                format!("put {} on top of the tower at {pos}", figure.words())
            }
            TowerAction::Capture {
                pos,
                spot,
                owner,
                figure,
            } => format!(
                "take player {owner}'s {} at {pos} {spot} prisoner",
                figure.noun()
            ),
            TowerAction::CaptureTop { pos } => {
                format!("take the figure on top of the tower at {pos} prisoner")
            }
            TowerAction::Ransom { holder, figure } => {
                format!("buy back a {} from player {holder}", figure.noun())
            }
        }
    }
}

impl EventWords for TowerEvent {
    fn words(&self, names: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = |p: usize| seat(names, p);
        match *self {
            TowerEvent::Floor {
                player,
                x,
                y,
                height,
            } => write!(
                f,
                "{} builds the tower at {} to {height} floors (TW-2)",
                who(player),
                Pos::new(x, y)
            ),
            TowerEvent::Closed {
                player,
                figure,
                x,
                y,
            } => write!(
                f,
                "{} closes the tower at {} with {} (TW-2)",
                who(player),
                Pos::new(x, y),
                figure.words()
            ),
            TowerEvent::Captured {
                player,
                owner,
                figure,
                x,
                y,
            } if player == owner => write!(
                f,
                "{} takes his own {} at {} off the board (TW-6)",
                who(player),
                figure.noun(),
                Pos::new(x, y)
            ),
            TowerEvent::Captured {
                player,
                owner,
                figure,
                x,
                y,
            } => write!(
                f,
                "{} takes {}'s {} at {} prisoner (TW-5)",
                who(player),
                who(owner),
                figure.noun(),
                Pos::new(x, y)
            ),
            TowerEvent::Exchanged {
                player,
                figure,
                other,
                other_figure,
            } => write!(
                f,
                "{} and {} exchange prisoners: {} gets a {} back, {} a {} (TW-7)",
                who(player),
                who(other),
                who(player),
                figure.noun(),
                who(other),
                other_figure.noun()
            ),
            TowerEvent::Ransomed {
                player,
                holder,
                figure,
                points,
            } => write!(
                f,
                "{} buys a {} back from {} for {points} points (TW-8)",
                who(player),
                figure.noun(),
                who(holder)
            ),
            TowerEvent::Released {
                player,
                holder,
                figure,
            } => write!(
                f,
                "{}'s {} held by {} goes home at the end of the game (TW-10)",
                who(player),
                figure.noun(),
                who(holder)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::action::Action;

    #[test]
    fn the_capture_round_trips_through_a_record() {
        let action = Action::from(TowerAction::Capture {
            pos: Pos::new(1, -2),
            spot: Spot::Edge(crate::model::geometry::Edge::N),
            owner: 1,
            figure: FigureKind::Follower,
        });
        let Action::Mechanic(m) = action else {
            panic!("a mechanic action")
        };
        let (key, value) = WORDS.record(&m);
        assert_eq!(key, "capture");
        let back = WORDS
            .parse(key, &value, Some(FigureKind::Follower))
            .expect("parses");
        assert_eq!(Action::Mechanic(back), action);
    }
}
