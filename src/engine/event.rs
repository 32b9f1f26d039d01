//! Events: every change to a game, in order. The event log is what replays, user interfaces,
//! statistics and tests read.

use crate::mechanic::count::rules::Quarter;
use crate::model::figure::FigureKind;
use crate::model::geometry::Spot;
use crate::model::tile::FeatureKind;
use serde::Serialize;
use std::sync::Arc;

/// Why a figure went back to its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnReason {
    /// Its feature was completed and scored (B-M3).
    Scored,
    /// The dragon ate it (D7).
    Eaten,
    /// The princess sent it home (PR3).
    Princess,
    /// A script sent it home.
    Script,
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
    /// The fairy's point at the start of a turn (FA7).
    FairyPoint {
        /// Seat.
        player: usize,
        /// Points.
        points: u32,
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
        /// `dead_end` (D6) or `steps_done` (D3).
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
    /// The fairy's turn point was not claimed in time (house rule A23).
    FairyPointForfeited {
        /// Seat.
        player: usize,
    },
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
    /// to supply after the scoring ([`Event::FigureReturned`]).
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
    /// A script took a follower from its owner's supply and holds it off the board.
    FollowerHeld {
        /// The script's name.
        script: Arc<str>,
        /// Owner's seat.
        player: usize,
    },
    /// A script gave a follower it held back to its owner's supply.
    FollowerReleased {
        /// The script's name.
        script: Arc<str>,
        /// Owner's seat.
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
}
