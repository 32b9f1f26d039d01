//! Events: every change to a game, in order. The event log is what replays, user interfaces,
//! statistics and tests read.

use crate::figure::FigureKind;
use crate::geometry::Spot;
use crate::tile::FeatureKind;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// Why a figure went back to its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnReason {
    /// Its feature was completed and scored (B-M3).
    Scored,
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
    /// Final scoring is done; the game is over.
    GameEnded {
        /// Final scores by seat.
        scores: Vec<u32>,
    },
}

/// An event with the players' names, for people to read.
pub struct Described<'a> {
    /// The event.
    pub event: &'a Event,
    /// Names by seat.
    pub names: &'a [String],
}

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = |p: &usize| self.names.get(*p).map_or("?", String::as_str);
        match self.event {
            Event::StartTile {
                tile,
                x,
                y,
                rotation,
            } => {
                write!(f, "start tile {tile} at ({x},{y}) turned {rotation}°")
            }
            Event::TurnStarted { turn, player } => write!(f, "turn {turn}: {}", who(player)),
            Event::TileDrawn { player, tile } => write!(f, "{} draws {tile}", who(player)),
            Event::TileDiscarded { player, tile } => {
                write!(
                    f,
                    "{tile} fits nowhere and leaves the game; {} draws again (B-P5)",
                    who(player)
                )
            }
            Event::TilePlaced {
                player,
                tile,
                x,
                y,
                rotation,
            } => {
                write!(
                    f,
                    "{} places {tile} at ({x},{y}) turned {rotation}°",
                    who(player)
                )
            }
            Event::FigureDeployed {
                player,
                figure,
                x,
                y,
                feature,
                spot,
            } => write!(
                f,
                "{} puts a {} on the {} at ({x},{y}) {spot}",
                who(player),
                figure.name(),
                feature.name()
            ),
            Event::FeatureCompleted {
                feature,
                tiles,
                x,
                y,
            } => {
                write!(
                    f,
                    "a {} of {tiles} tiles is completed at ({x},{y})",
                    feature.name()
                )
            }
            Event::Scored {
                player,
                points,
                feature,
                rule,
                ..
            } => {
                write!(
                    f,
                    "{} scores {points} for a {} ({rule})",
                    who(player),
                    feature.name()
                )
            }
            Event::FigureReturned {
                player,
                figure,
                x,
                y,
                ..
            } => {
                write!(
                    f,
                    "{}'s {} at ({x},{y}) returns to supply",
                    who(player),
                    figure.name()
                )
            }
            Event::GameEnded { scores } => {
                write!(f, "game over:")?;
                for (p, s) in scores.iter().enumerate() {
                    write!(f, " {} {s}", who(&p))?;
                }
                Ok(())
            }
        }
    }
}
