//! How The Princess & the Dragon shows itself (`engine::show`): its actions, decisions and the
//! fairy's move in words, the fairy's points in a tally, the dragon's threat in a log, the
//! dragon and the fairy in a game's JSON and as pieces on the board.

use super::vocabulary::{EATEN, PdAction, PdDecision, PdEvent};
use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::show::{Phrases, Piece, Presenter, Tone, and_list, direction};
use crate::model::geometry::{Pos, Spot};
use serde_json::{Value, json};

/// The P&D family's presentation.
pub struct Show;

/// The dragon's character on the text board.
const DRAGON_LETTER: char = '&';
/// The fairy's character on the text board.
const FAIRY_LETTER: char = 'F';

/// The dragon on the board: red wings, body and head with yellow eyes.
const DRAGON: &str = concat!(
    r##"<path d="M-4,-4 L-19,-14 L-15,2 L-6,4 Z M4,-4 L19,-14 L15,2 L6,4 Z" fill="#7d1010" stroke="#2a0505" stroke-width="1.2"/>"##,
    r##"<ellipse cx="0" cy="3" rx="7" ry="11" fill="#c0201a" stroke="#2a0505" stroke-width="1.5"/>"##,
    r##"<circle cx="0" cy="-10" r="5.5" fill="#c0201a" stroke="#2a0505" stroke-width="1.5"/>"##,
    r##"<circle cx="-2" cy="-11" r="1.2" fill="#ffd400"/><circle cx="2" cy="-11" r="1.2" fill="#ffd400"/>"##
);

/// The fairy on the board: two pale wings and a pink body.
const FAIRY: &str = concat!(
    r##"<ellipse cx="-5" cy="-3" rx="5" ry="7" transform="rotate(-30 -5 -3)" fill="#e8f4ff" fill-opacity="0.9" stroke="#6a4c93" stroke-width="1"/>"##,
    r##"<ellipse cx="5" cy="-3" rx="5" ry="7" transform="rotate(30 5 -3)" fill="#e8f4ff" fill-opacity="0.9" stroke="#6a4c93" stroke-width="1"/>"##,
    r##"<circle cx="0" cy="0" r="4.5" fill="#f06bb0" stroke="#6a4c93" stroke-width="1.2"/>"##
);

impl Presenter for Show {
    fn action_words(&self, action: &Action, say: &dyn Phrases) -> Option<String> {
        Some(match PdAction::of(action)? {
            PdAction::Fairy {
                pos,
                spot: Some(spot),
            } => {
                let who = say
                    .figure_at(pos, spot)
                    .unwrap_or_else(|| format!("your follower {spot}"));
                if say.detailed() {
                    let on = say.feature_exactly(pos, spot);
                    format!("move the fairy next to {who} on {on} at {pos}")
                } else {
                    format!("move the fairy next to {who} at {pos}")
                }
            }
            PdAction::Fairy { pos, spot: None } => format!("move the fairy to {pos}"),
            PdAction::Dragon { pos } => dragon_step(action, pos, say),
            PdAction::Remove { pos, spot } => {
                let who = say
                    .figure_at(pos, spot)
                    .unwrap_or_else(|| "the knight".to_string());
                if say.detailed() {
                    let on = say.feature_exactly(pos, spot);
                    format!("the princess sends {who} on {on} at {pos} home")
                } else {
                    format!("the princess sends {who} at {pos} home")
                }
            }
            PdAction::Claim => "claim the fairy's point".to_string(),
        })
    }

    fn action_spot(&self, action: &Action) -> Option<Spot> {
        match PdAction::of(action)? {
            PdAction::Remove { spot, .. } => Some(spot),
            PdAction::Fairy { spot, .. } => spot,
            _ => None,
        }
    }

    fn pass_words(&self, decision: &DecisionKind) -> Option<&'static str> {
        Some(match PdDecision::of(decision)? {
            PdDecision::Princess => "pass (the knights stay)",
            PdDecision::ClaimFairyPoint => "pass (give up the fairy's point)",
            PdDecision::FairyMove => "pass (the fairy stays)",
            PdDecision::DragonStep { .. } => return None,
        })
    }

    fn decision_words(&self, decision: &DecisionKind) -> Option<String> {
        Some(match PdDecision::of(decision)? {
            PdDecision::Princess => "the princess".to_string(),
            PdDecision::DragonStep { step } => format!("move the dragon (step {step})"),
            PdDecision::ClaimFairyPoint => "the fairy's point".to_string(),
            PdDecision::FairyMove => "the fairy may move too".to_string(),
        })
    }

    fn narrate(&self, event: &Event, say: &dyn Phrases) -> Option<String> {
        let PdEvent::FairyMoved {
            player,
            x,
            y,
            spot: Some(spot),
        } = PdEvent::of(event)?
        else {
            return None;
        };
        let game = say.game();
        let seg = game.seg_at(Pos::new(x, y), spot);
        let kind = seg.map(|s| game.features().segment(s).kind);
        let figure = seg
            .and_then(|s| game.figures().iter().find(|f| f.seg == s).map(|f| f.kind))
            .unwrap_or(crate::model::figure::FigureKind::Follower);
        Some(format!(
            "{} moves the fairy next to the {} at ({x},{y})",
            say.name(player),
            say.role(figure, kind)
        ))
    }

    fn payment(&self, event: &Event) -> Option<(usize, u32, &'static str)> {
        match event {
            // The fairy's bonus on a scored feature (FA8) is the fairy's, not the feature's.
            Event::Scored {
                player,
                points,
                rule,
                ..
            } if rule.contains("fairy") => Some((*player, *points, "fairy")),
            _ => match PdEvent::of(event)? {
                PdEvent::FairyPoint { player, points } => Some((player, points, "fairy")),
                _ => None,
            },
        }
    }

    fn tone(&self, event: &Event) -> Option<Tone> {
        if matches!(event, Event::FigureReturned { reason: EATEN, .. }) {
            return Some(Tone::Loss);
        }
        match PdEvent::of(event)? {
            PdEvent::FairyPoint { .. } => Some(Tone::Gain),
            PdEvent::DragonMoved { .. } => Some(Tone::Loss),
            _ => None,
        }
    }

    fn state_json(&self, game: &Game, names: &[String]) -> Vec<(&'static str, Value)> {
        let dragon = game.dragon().map(|p| json!({ "x": p.x, "y": p.y }));
        let fairy = game.fairy().map(|f| {
            let follower = f
                .follower
                .and_then(|id| game.figures().iter().find(|g| g.id == id))
                .map(|g| {
                    let (pos, spot) = game.figure_spot(g);
                    json!({ "player": names[g.owner], "x": pos.x, "y": pos.y, "spot": spot.name() })
                });
            json!({ "x": f.pos.x, "y": f.pos.y, "follower": follower })
        });
        vec![
            ("dragon", json!(dragon)),
            ("fairy", json!(fairy)),
            ("set_aside", json!(game.set_aside())),
        ]
    }

    fn pieces(&self, game: &Game) -> Vec<Piece> {
        let dragon = game.dragon().map(|pos| Piece {
            name: "dragon",
            pos,
            beside: None,
            letter: DRAGON_LETTER,
            ansi: "\x1b[0;1;91;40m",
            svg: DRAGON,
        });
        let fairy = game.fairy().map(|f| Piece {
            name: "fairy",
            pos: f.pos,
            beside: f.follower,
            letter: FAIRY_LETTER,
            ansi: "\x1b[0;1;30;105m",
            svg: FAIRY,
        });
        dragon.into_iter().chain(fairy).collect()
    }

    fn key(&self, game: &Game) -> Vec<(char, &'static str)> {
        let rules = game.rules();
        let dragon = rules
            .switched_on("dragon")
            .then_some((DRAGON_LETTER, "dragon"));
        let fairy = rules
            .switched_on("fairy")
            .then_some((FAIRY_LETTER, "fairy"));
        dragon.into_iter().chain(fairy).collect()
    }
}

/// A dragon step in words, with the figures it would eat: "move the dragon east to (3,0) —
/// eats Bob's farmer".
fn dragon_step(action: &Action, pos: Pos, say: &dyn Phrases) -> String {
    let way = say.game().dragon().map_or("", |from| direction(from, pos));
    let eaten = dragon_eats(action, pos, say);
    let step = format!("move the dragon {way} to {pos}").replace("  ", " ");
    if eaten.is_empty() {
        step
    } else {
        format!("{step} — eats {}", and_list(&eaten))
    }
}

/// The figures a dragon step onto `pos` would eat, in words, found by trying the step on a
/// copy of the game.
fn dragon_eats(step: &Action, pos: Pos, say: &dyn Phrases) -> Vec<String> {
    let game = say.game();
    let mut copy = game.clone();
    let Ok(events) = copy.apply(step) else {
        return Vec::new();
    };
    let eaten = |e: &&Event| matches!(e, Event::FigureReturned { reason: EATEN, .. });
    let count = events.iter().filter(eaten).count();
    let on_tile: Vec<_> = game
        .figures()
        .iter()
        .filter(|f| game.figure_spot(f).0 == pos)
        .collect();
    if count == 0 {
        return Vec::new();
    }
    if count == on_tile.len() {
        return on_tile
            .iter()
            .map(|f| {
                let kind = game.features().segment(f.seg).kind;
                say.figure(f.owner, f.kind, Some(kind))
            })
            .collect();
    }
    events
        .iter()
        .filter(eaten)
        .filter_map(|e| match e {
            Event::FigureReturned { player, figure, .. } => {
                Some(say.figure(*player, *figure, None))
            }
            _ => None,
        })
        .collect()
}
