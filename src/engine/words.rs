//! The one way from actions and events to words. Error messages, the terminal game (`play`),
//! `replay` and scripts' labels all read actions and events through here: [`action`] says an
//! action on its own, [`event`] an event with the players' names. The terminal game's list of
//! choices (`ui::describe`) builds on these with what the pending decision shows (which
//! feature lies where, what the dragon would eat).

use crate::engine::action::Action;
use crate::engine::event::Event;
use crate::model::geometry::{Pos, Rotation};
use std::fmt;

/// A placement in words: "place at (1,0) turned 90°".
pub fn placement(pos: Pos, rotation: Rotation) -> String {
    format!("place at {pos} turned {}°", rotation.degrees())
}

/// An action on its own in words ("dragon to (1,0)"), for messages and logs; a script's
/// action reads as its label.
pub fn action(action: &Action) -> String {
    match action {
        Action::Place { pos, rotation } => placement(*pos, *rotation),
        Action::Deploy { pos, spot, figure } => format!("{} on {pos} {spot}", figure.name()),
        Action::Fairy { pos, spot: Some(s) } => format!("fairy to the follower at {pos} {s}"),
        Action::Fairy { pos, spot: None } => format!("fairy to {pos}"),
        Action::Dragon { pos } => format!("dragon to {pos}"),
        Action::Remove { pos, spot } => format!("remove the knight at {pos} {spot}"),
        Action::Quarter { quarter } => format!("follower into the {quarter} quarter"),
        Action::Count { quarter } => format!("the Count to the {quarter} quarter"),
        Action::Leave { quarter, count } => {
            format!("{count} out of the {quarter} quarter")
        }
        Action::Score { pos, spot } => format!("score the feature at {pos} {spot} next"),
        Action::Claim => "claim".to_string(),
        Action::Script(id) => {
            let a = crate::engine::named::action(*id);
            if a.label.is_empty() {
                format!("script action {}", a.name)
            } else {
                a.label
            }
        }
        Action::Pass => "pass".to_string(),
    }
}

/// An event in words, with the players' names by seat (`names`).
pub fn event<'a>(event: &'a Event, names: &'a [String]) -> Described<'a> {
    Described { event, names }
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
            Event::TileSetAside { player, tile } => write!(
                f,
                "{} draws {tile}: the dragon is not in play yet, so it is set aside (D0)",
                who(player)
            ),
            Event::TileReturned { player, tile } => write!(
                f,
                "{} draws {tile}: the dragon is not in play yet, so it goes back into the bag (house rule D0)",
                who(player)
            ),
            Event::TilesReshuffled { count } => {
                write!(
                    f,
                    "the first volcano: {count} set-aside dragon tiles are shuffled back in (V6)"
                )
            }
            Event::DragonMoved {
                player,
                x,
                y,
                step: 0,
            } => {
                write!(
                    f,
                    "the dragon flies to {}'s volcano at ({x},{y}) (V2)",
                    who(player)
                )
            }
            Event::DragonMoved { player, x, y, step } => {
                write!(
                    f,
                    "dragon step {step}: {} moves the dragon to ({x},{y}) (D4)",
                    who(player)
                )
            }
            Event::JourneyEnded { steps, reason } => {
                write!(
                    f,
                    "the dragon's journey ends after {steps} steps ({reason})"
                )
            }
            Event::FairyMoved { player, x, y, spot } => match spot {
                Some(s) => write!(
                    f,
                    "{} moves the fairy next to the follower at ({x},{y}) {s}",
                    who(player)
                ),
                None => write!(f, "{} moves the fairy to ({x},{y})", who(player)),
            },
            Event::FairyPoint { player, points } => {
                write!(
                    f,
                    "the fairy: +{points} for {} at the start of the turn (FA7)",
                    who(player)
                )
            }
            Event::FairyPointForfeited { player } => {
                write!(
                    f,
                    "{} does not claim the fairy's point (house rule A23)",
                    who(player)
                )
            }
            Event::FollowerIntoQuarter { player, quarter } => write!(
                f,
                "{} puts a follower into the {quarter} quarter of the City of Carcassonne (CO-1)",
                who(player)
            ),
            Event::CountMoved { player, quarter } => {
                write!(
                    f,
                    "{} moves the Count to the {quarter} quarter (CO-2)",
                    who(player)
                )
            }
            Event::FollowersLeftQuarter {
                player,
                quarter,
                count,
                feature,
                x,
                y,
            } => write!(
                f,
                "{} moves {count} follower{} from the {quarter} quarter into the {} at ({x},{y}) (CO-5)",
                who(player),
                if *count == 1 { "" } else { "s" },
                feature.name()
            ),
            Event::ScriptScored {
                script,
                player,
                points,
                why,
            } => {
                write!(f, "{}: +{points} for {} ({why})", script, who(player))
            }
            Event::FollowerHeld { script, player } => {
                write!(
                    f,
                    "{script}: one of {}'s followers leaves the board",
                    who(player)
                )
            }
            Event::FollowerReleased { script, player } => {
                write!(
                    f,
                    "{script}: one of {}'s followers returns to supply",
                    who(player)
                )
            }
            Event::DragonHidden { script } => write!(f, "{script}: the dragon leaves the board"),
            Event::DragonPlaced { script, x, y } => {
                write!(f, "{script}: the dragon is put on ({x},{y})")
            }
            Event::FairyHidden { script } => write!(f, "{script}: the fairy leaves the board"),
            Event::ScriptLog { script, text } => write!(f, "{script}: {text}"),
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
