//! The Princess & the Dragon's vocabulary: the actions, decisions and events of the volcano,
//! the dragon, the fairy and the princess, as typed values ([`PdAction`], [`PdDecision`],
//! [`PdEvent`]) declared with the engine's generators (`engine::vocabulary`), which convert
//! them to and from the engine's mechanic arms and give their record keys and JSON form; this
//! file writes their words.

use crate::engine::event::{MechanicReason, Reason, ReturnReason};
use crate::engine::vocabulary::{
    ActionWords, EventWords, Family, MechanicId, Vocabulary, enlist, seat,
};
use crate::model::geometry::{Pos, Spot};
use std::fmt;
use std::sync::Arc;

/// The P&D family's id.
pub const ID: MechanicId = MechanicId(2);

/// The P&D family's vocabulary.
static WORDS: Family<PdAction, PdDecision, PdEvent> = Family::new(ID).with_reasons(&SENT_HOME);

/// The P&D family's reasons for sending a figure home, by code.
const SENT_HOME: [Reason; 3] = [
    Reason {
        name: "eaten",
        words: "the dragon eats {}",
        told: "the dragon eats {}",
        rule: "D7",
    },
    Reason {
        name: "princess",
        words: "the princess sends {} home",
        told: "the princess sends {} home",
        rule: "PR3",
    },
    Reason {
        name: "last_follower",
        words: "{} goes home with the last follower there",
        told: "{} goes home with the last follower the princess sent home",
        rule: "PR7",
    },
];

/// The P&D reason with `code`.
const fn reason(code: u8) -> ReturnReason {
    ReturnReason::Mechanic(MechanicReason { mechanic: ID, code })
}

/// The dragon ate it (D7).
pub const EATEN: ReturnReason = reason(0);
/// The princess sent it home (PR3).
pub const PRINCESS: ReturnReason = reason(1);
/// It went home with its owner's last follower in its feature, which the princess sent home
/// (PR7).
pub const LAST_FOLLOWER: ReturnReason = reason(2);

/// `reason` (one of the P&D reasons), with the family's vocabulary enlisted so that it reads.
pub fn sent_home(reason: ReturnReason) -> ReturnReason {
    enlist(&WORDS);
    reason
}

/// The P&D family's vocabulary, for the registry's list.
pub fn words() -> &'static dyn Vocabulary {
    &WORDS
}

crate::mechanic_actions! {
    /// An action of the P&D mechanics.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum PdAction for WORDS {
        /// Move the fairy next to the follower at `spot` of the tile at `pos` (follower mode) or
        /// onto the tile at `pos` (tile mode, `spot` is `None`).
        Fairy {
            /// The tile.
            pos: Pos,
            /// The follower's spot.
            spot: Option<Spot>,
        } = "fairy",
        /// Move the dragon onto the tile at `pos`.
        Dragon {
            /// The tile.
            pos: Pos,
        } = "dragon",
        /// Send home the knight at `spot` of the tile at `pos` (the princess).
        Remove {
            /// The tile.
            pos: Pos,
            /// The knight's spot.
            spot: Spot,
        } = "remove",
        /// Claim the fairy's turn point.
        Claim = "claim",
    }
}

crate::mechanic_decisions! {
    /// A decision of the P&D mechanics.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum PdDecision for WORDS {
        /// Claim the fairy's turn point, or pass and lose it (house rule A23).
        ClaimFairyPoint = "claim",
        /// The princess may (or must) send a knight of the city home (PR3).
        Princess = "princess",
        /// Take the next step of the dragon's journey (D4).
        DragonStep {
            /// Step number, from 1.
            step: u32,
        } = "dragon_step",
        /// Move the fairy, or pass, after deploying a builder or pig: under
        /// `pd.fairy.move_condition = "no_follower_placed"` only a follower blocks the move (FA2, A7).
        FairyMove = "fairy_move",
    }
}

/// Why a journey ends, by code.
const REASONS: [&str; 3] = ["dead_end", "steps_done", "script"];

crate::mechanic_events! {
    /// An event of the P&D mechanics. Seats are indices into the game's player list.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum PdEvent for WORDS {
        /// A dragon tile drawn before the dragon is in play was set aside (D0.1).
        TileSetAside {
            /// Seat.
            player: usize,
            /// Tile id.
            tile: Arc<str>,
        } = "tile_set_aside",
        /// A dragon tile drawn before the dragon is in play went back into the bag (house rule D0).
        TileReturned {
            /// Seat.
            player: usize,
            /// Tile id.
            tile: Arc<str>,
        } = "tile_returned",
        /// The set-aside dragon tiles were shuffled back into the bag (V6, D0.2).
        TilesReshuffled {
            /// How many.
            count: u32,
        } = "tiles_reshuffled",
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
        } = "dragon_moved",
        /// The dragon's journey ended.
        JourneyEnded {
            /// Steps taken.
            steps: u32,
            /// `dead_end` (D6), `steps_done` (D3) or `script` (a script ended it).
            reason: &'static str [REASONS],
        } = "journey_ended",
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
        } = "fairy_moved",
        /// The fairy's point at the start of a turn (FA7).
        FairyPoint {
            /// Seat.
            player: usize,
            /// Points.
            points: u32,
        } = "fairy_point",
        /// The fairy's turn point was not claimed in time (house rule A23).
        FairyPointForfeited {
            /// Seat.
            player: usize,
        } = "fairy_point_forfeited",
        /// A script took the dragon off the board (it stays in play).
        DragonHidden {
            /// The script's name.
            script: Arc<str>,
        } = "dragon_hidden",
        /// A script put the dragon on a tile (nothing eaten by that alone).
        DragonPlaced {
            /// The script's name.
            script: Arc<str>,
            /// Column.
            x: i32,
            /// Row.
            y: i32,
        } = "dragon_placed",
        /// A script took the fairy off the board (it stays in play; a fairy move brings it back).
        FairyHidden {
            /// The script's name.
            script: Arc<str>,
        } = "fairy_hidden",
    }
}

impl ActionWords for PdAction {
    fn words(&self) -> String {
        match *self {
            PdAction::Fairy { pos, spot: Some(s) } => format!("fairy to the follower at {pos} {s}"),
            PdAction::Fairy { pos, spot: None } => format!("fairy to {pos}"),
            PdAction::Dragon { pos } => format!("dragon to {pos}"),
            PdAction::Remove { pos, spot } => format!("remove the knight at {pos} {spot}"),
            PdAction::Claim => "claim".to_string(),
        }
    }
}

impl EventWords for PdEvent {
    fn words(&self, names: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = |p: usize| seat(names, p);
        match self {
            PdEvent::TileSetAside { player, tile } => write!(
                f,
                "{} draws {tile}: the dragon is not in play yet, so it is set aside (D0)",
                who(*player)
            ),
            PdEvent::TileReturned { player, tile } => write!(
                f,
                "{} draws {tile}: the dragon is not in play yet, so it goes back into the bag (house rule D0)",
                who(*player)
            ),
            PdEvent::TilesReshuffled { count } => write!(
                f,
                "the first volcano: {count} set-aside dragon tiles are shuffled back in (V6)"
            ),
            PdEvent::DragonMoved {
                player,
                x,
                y,
                step: 0,
            } => write!(
                f,
                "the dragon flies to {}'s volcano at ({x},{y}) (V2)",
                who(*player)
            ),
            PdEvent::DragonMoved { player, x, y, step } => write!(
                f,
                "dragon step {step}: {} moves the dragon to ({x},{y}) (D4)",
                who(*player)
            ),
            PdEvent::JourneyEnded { steps, reason } => write!(
                f,
                "the dragon's journey ends after {steps} steps ({reason})"
            ),
            PdEvent::FairyMoved { player, x, y, spot } => match spot {
                Some(s) => write!(
                    f,
                    "{} moves the fairy next to the follower at ({x},{y}) {s}",
                    who(*player)
                ),
                None => write!(f, "{} moves the fairy to ({x},{y})", who(*player)),
            },
            PdEvent::FairyPoint { player, points } => write!(
                f,
                "the fairy: +{points} for {} at the start of the turn (FA7)",
                who(*player)
            ),
            PdEvent::FairyPointForfeited { player } => write!(
                f,
                "{} does not claim the fairy's point (house rule A23)",
                who(*player)
            ),
            PdEvent::DragonHidden { script } => write!(f, "{script}: the dragon leaves the board"),
            PdEvent::DragonPlaced { script, x, y } => {
                write!(f, "{script}: the dragon is put on ({x},{y})")
            }
            PdEvent::FairyHidden { script } => write!(f, "{script}: the fairy leaves the board"),
        }
    }
}
