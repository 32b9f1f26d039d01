//! The one way from actions and events to words. Error messages, the terminal game (`play`),
//! `replay` and scripts' labels all read actions and events through here: [`action`] says an
//! action on its own, [`event`] an event with the players' names. The terminal game's list of
//! choices (`ui::describe`) builds on these with what the pending decision shows (which
//! feature lies where, what a mechanic's move would do).

use crate::engine::action::Action;
use crate::engine::event::Event;
use crate::engine::vocabulary;
use crate::model::geometry::{Pos, Rotation};
use std::fmt;

/// A placement in words: "place at (1,0) turned 90°".
pub fn placement(pos: Pos, rotation: Rotation) -> String {
    format!("place at {pos} turned {}°", rotation.degrees())
}

/// An action on its own in words ("place at (1,0) turned 90°"), for messages and logs; a script's
/// action reads as its label.
pub fn action(action: &Action) -> String {
    match action {
        Action::Place { pos, rotation } => placement(*pos, *rotation),
        Action::Deploy { pos, spot, figure } => format!("{} on {pos} {spot}", figure.name()),
        Action::Mechanic(a) => vocabulary::of(a.mechanic).map_or_else(
            || "an unknown mechanic's action".to_string(),
            |v| v.action_words(a),
        ),
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
            Event::TileDealt { player, tile } => write!(f, "{} takes {tile} to lay", who(player)),
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
                "{} puts {} on the {} at ({x},{y}) {spot}",
                who(player),
                figure.words(),
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
                reason,
            } => {
                let (who, what) = (who(player), figure.noun());
                let figure = format!("{who}'s {what} at ({x},{y})");
                match reason.family_reason() {
                    Some(r) => write!(f, "{} ({})", r.words.replacen("{}", &figure, 1), r.rule),
                    None => write!(f, "{figure} returns to supply"),
                }
            }
            Event::ScriptScored {
                script,
                player,
                points,
                why,
            } => {
                write!(f, "{}: +{points} for {} ({why})", script, who(player))
            }
            Event::FollowerHeld {
                script,
                player,
                figure,
            } => {
                write!(
                    f,
                    "{script}: one of {}'s {}s is taken from supply",
                    who(player),
                    figure.noun()
                )
            }
            Event::FollowerReleased {
                script,
                player,
                figure,
            } => {
                write!(
                    f,
                    "{script}: one of {}'s {}s returns to supply",
                    who(player),
                    figure.noun()
                )
            }
            Event::ScriptPoints {
                script,
                player,
                points,
                rule,
                why,
            } => {
                let (verb, n) = if *points < 0 {
                    ("loses", points.unsigned_abs())
                } else {
                    ("gains", points.unsigned_abs())
                };
                write!(f, "{script}: {} {verb} {n} ({why}; {rule})", who(player))
            }
            Event::ScriptTransfer {
                script,
                from,
                to,
                points,
                rule,
                why,
            } => write!(
                f,
                "{script}: {} pays {} {points} ({why}; {rule})",
                who(from),
                who(to)
            ),
            Event::FigureInCustody {
                script,
                player,
                holder,
                figure,
            } => write!(
                f,
                "{script}: {} holds one of {}'s {}s",
                who(holder),
                who(player),
                figure.noun()
            ),
            Event::FigureFreed {
                script,
                player,
                holder,
                figure,
            } => write!(
                f,
                "{script}: {} gives one of {}'s {}s back to supply",
                who(holder),
                who(player),
                figure.noun()
            ),
            Event::TileTakenUnseen { script, player } => write!(
                f,
                "{script}: {} takes the next tile out of the game unseen",
                who(player)
            ),
            Event::FigurePlaced {
                script,
                player,
                figure,
                x,
                y,
                corner,
            } => {
                let at = place_words(*x, *y, *corner);
                let what = figure.noun();
                write!(f, "{script}: {}'s {what} is put {at}", who(player))
            }
            Event::FigureLifted {
                script,
                player,
                figure,
                x,
                y,
                corner,
            } => {
                let at = place_words(*x, *y, *corner);
                let what = figure.noun();
                write!(
                    f,
                    "{script}: {}'s {what} {at} returns to supply",
                    who(player)
                )
            }
            Event::ScriptLog { script, text } => write!(f, "{script}: {text}"),
            Event::Mechanic(e) => match vocabulary::of(e.mechanic) {
                Some(v) => v.event_words(e, self.names, f),
                None => write!(f, "an unknown mechanic's event"),
            },
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

/// A place that is no feature in words: "on the tile at (1,0)", "at the north-east corner of
/// (1,0)".
fn place_words(x: i32, y: i32, corner: bool) -> String {
    if corner {
        format!("at the north-east corner of ({x},{y})")
    } else {
        format!("on the tile at ({x},{y})")
    }
}
