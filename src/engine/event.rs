//! Events: every change to a game, in order. The event log is what replays, user interfaces,
//! statistics and tests read.

use crate::engine::vocabulary::{self, MechanicEvent, MechanicId};
use crate::model::figure::FigureKind;
use crate::model::geometry::Spot;
use crate::model::tile::FeatureKind;
use serde::Serialize;
use std::sync::Arc;

/// Why a figure went back to its owner: the engine's own reasons, or a family's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReturnReason {
    /// Its feature was completed and scored (B-M3).
    Scored,
    /// A script sent it home.
    Script,
    /// A mechanic family sent it home for a reason of its own, which its vocabulary names
    /// and words ([`Vocabulary::reason`](crate::engine::vocabulary::Vocabulary::reason)).
    Mechanic(MechanicReason),
}

/// A family's own reason for sending a figure home: the family and the reason's code in its
/// vocabulary's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MechanicReason {
    /// The family.
    pub mechanic: MechanicId,
    /// The reason's place in the family's list.
    pub code: u8,
}

/// How a family's reason reads: its JSON name, its words in the log and in a narration, and
/// the rule it follows. `{}` in the words stands for the figure ("Anna's follower at (1,0)").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reason {
    /// Its name in the JSON form (`"reason": NAME`).
    pub name: &'static str,
    /// The log's words, without the rule.
    pub words: &'static str,
    /// A narration's words, without the rule.
    pub told: &'static str,
    /// The rule id written after the words.
    pub rule: &'static str,
}

impl ReturnReason {
    /// A family's reason as its vocabulary words it (none for the engine's own reasons or a
    /// family whose vocabulary is not enlisted).
    pub fn family_reason(self) -> Option<&'static Reason> {
        match self {
            ReturnReason::Mechanic(r) => vocabulary::of(r.mechanic)?.reason(r.code),
            ReturnReason::Scored | ReturnReason::Script => None,
        }
    }

    /// Its name in the JSON form: `scored`, `script` or the family's own.
    pub fn name(self) -> &'static str {
        match self {
            ReturnReason::Scored => "scored",
            ReturnReason::Script => "script",
            ReturnReason::Mechanic(_) => self.family_reason().map_or("?", |r| r.name),
        }
    }
}

impl Serialize for ReturnReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// One thing that happened. Seats are indices into the game's player list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A tile was laid before the first turn.
    StartTile {
        /// Tile id.
        tile: Arc<str>,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// Clockwise degrees.
        rotation: u32,
    },
    /// A player's turn began.
    TurnStarted {
        /// Turn number, from 1.
        turn: u32,
        /// Seat.
        player: usize,
    },
    /// A tile was drawn.
    TileDrawn {
        /// Seat.
        player: usize,
        /// Tile id.
        tile: Arc<str>,
    },
    /// A mechanic dealt the player this turn's tile instead of a draw from the bag (a tile won
    /// at a bazaar: [`crate::engine::mechanic::Mechanic::dealt_tile`]).
    TileDealt {
        /// Seat.
        player: usize,
        /// Tile id.
        tile: Arc<str>,
    },
    /// A drawn tile fits nowhere and leaves the game (B-P5).
    TileDiscarded {
        /// Seat.
        player: usize,
        /// Tile id.
        tile: Arc<str>,
    },
    /// A tile was laid.
    TilePlaced {
        /// Seat.
        player: usize,
        /// Tile id.
        tile: Arc<str>,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// Clockwise degrees.
        rotation: u32,
    },
    /// A figure went from supply onto a feature.
    FigureDeployed {
        /// Owner's seat.
        player: usize,
        /// Which figure.
        figure: FigureKind,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// Feature kind.
        feature: FeatureKind,
        /// Spot on the tile.
        spot: Spot,
    },
    /// A road, city or cloister was completed.
    FeatureCompleted {
        /// Feature kind.
        feature: FeatureKind,
        /// Distinct tiles (for a cloister: 9).
        tiles: u32,
        /// Column of a tile of the feature.
        x: i32,
        /// Row of a tile of the feature.
        y: i32,
    },
    /// A player scored.
    Scored {
        /// Seat.
        player: usize,
        /// Points.
        points: u32,
        /// The kind of feature that paid.
        feature: FeatureKind,
        /// The rule that paid, with its RULES.md id.
        rule: &'static str,
        /// Column of a tile of the feature.
        x: i32,
        /// Row of a tile of the feature.
        y: i32,
    },
    /// A figure went back to its owner's supply.
    FigureReturned {
        /// Owner's seat.
        player: usize,
        /// Which figure.
        figure: FigureKind,
        /// Column it stood on.
        x: i32,
        /// Row it stood on.
        y: i32,
        /// Why.
        reason: ReturnReason,
    },
    /// A script gave points.
    ScriptScored {
        /// The script's name.
        script: Arc<str>,
        /// Seat.
        player: usize,
        /// Points.
        points: u32,
        /// The script's reason.
        why: String,
    },
    /// A script took a figure (a follower or another kind) from its owner's supply and
    /// holds it off the board.
    FollowerHeld {
        /// The script's name.
        script: Arc<str>,
        /// Owner's seat.
        player: usize,
        /// Its kind (written to JSON only when it is not the normal follower, as before kinds).
        #[serde(skip_serializing_if = "plain_follower")]
        figure: FigureKind,
    },
    /// A script gave a figure it held back to its owner's supply.
    FollowerReleased {
        /// The script's name.
        script: Arc<str>,
        /// Owner's seat.
        player: usize,
        /// Its kind (written to JSON only when it is not the normal follower, as before kinds).
        #[serde(skip_serializing_if = "plain_follower")]
        figure: FigureKind,
    },
    /// A script gave or took points under a rule of its own (negative points are taken away;
    /// a score never goes below 0, so `points` is what really changed).
    ScriptPoints {
        /// The script's name.
        script: Arc<str>,
        /// Seat.
        player: usize,
        /// The change of the score.
        points: i64,
        /// The rule's id (`TW-8`).
        rule: String,
        /// The script's reason.
        why: String,
    },
    /// A script moved points from one player to another under a rule of its own (at most
    /// what the payer had).
    ScriptTransfer {
        /// The script's name.
        script: Arc<str>,
        /// The payer's seat.
        from: usize,
        /// The payee's seat.
        to: usize,
        /// The points moved.
        points: u32,
        /// The rule's id.
        rule: String,
        /// The script's reason.
        why: String,
    },
    /// A script put a figure into another player's custody (a prisoner), off the board and
    /// out of its owner's supply.
    FigureInCustody {
        /// The script's name.
        script: Arc<str>,
        /// Owner's seat.
        player: usize,
        /// The seat that holds it.
        holder: usize,
        /// Its kind.
        figure: FigureKind,
    },
    /// A figure in a player's custody went back to its owner's supply.
    FigureFreed {
        /// The script's name.
        script: Arc<str>,
        /// Owner's seat.
        player: usize,
        /// The seat that held it.
        holder: usize,
        /// Its kind.
        figure: FigureKind,
    },
    /// A script took the next tile of the supply out of the game, seen by nobody (its name is
    /// not logged).
    TileTakenUnseen {
        /// The script's name.
        script: Arc<str>,
        /// The active seat.
        player: usize,
    },
    /// A script put a figure from its owner's supply on a tile or at a corner where four
    /// tiles meet (a place that is no feature).
    FigurePlaced {
        /// The script's name.
        script: Arc<str>,
        /// Owner's seat.
        player: usize,
        /// Its kind.
        figure: FigureKind,
        /// Column of the tile (of the tile south-west of the corner).
        x: i32,
        /// Row of the tile.
        y: i32,
        /// At the tile's north-east corner, not on the tile.
        corner: bool,
    },
    /// A script took a figure from a tile or a corner back to its owner's supply.
    FigureLifted {
        /// The script's name.
        script: Arc<str>,
        /// Owner's seat.
        player: usize,
        /// Its kind.
        figure: FigureKind,
        /// Column of the tile.
        x: i32,
        /// Row of the tile.
        y: i32,
        /// At the tile's north-east corner, not on the tile.
        corner: bool,
    },
    /// A script explains what it did.
    ScriptLog {
        /// The script's name.
        script: Arc<str>,
        /// The explanation.
        text: String,
    },
    /// Final scoring is done; the game is over.
    GameEnded {
        /// Final scores by seat.
        scores: Vec<u32>,
    },
    /// Something a mechanic owns happened (a neutral figure moved, a follower went somewhere
    /// off the board, …); its JSON form is the mechanic's own (`{"event": NAME, …}`).
    #[serde(untagged)]
    Mechanic(MechanicEvent),
}

/// Whether `kind` is the normal follower (left out of the JSON of a script's held figures, so
/// that logs written before figure kinds stay the same).
fn plain_follower(kind: &FigureKind) -> bool {
    *kind == FigureKind::Follower
}
