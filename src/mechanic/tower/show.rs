//! How The Tower shows itself (`engine::show`): its actions and decisions in words, ransoms in a
//! tally, captures in a log, towers (height and the figure on top), floors and prisoners in a
//! game's JSON, the floors and prisoners a player holds, and the towers as pieces on the board.

use super::vocabulary::{TowerAction, TowerDecision, TowerEvent};
use super::{closed, state};
use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::show::{Phrases, Piece, Presenter, Tone};
use crate::model::figure::Place;
use crate::model::geometry::Spot;
use serde_json::{Value, json};

/// The Tower's presentation.
pub struct Show;

/// A tower on the board: a grey keep with battlements.
const TOWER: &str = concat!(
    r##"<path d="M-8,12 L-8,-8 L-10,-8 L-10,-14 L-6,-14 L-6,-10 L-2,-10 L-2,-14 L2,-14 L2,-10 L6,-10 L6,-14 L10,-14 L10,-8 L8,-8 L8,12 Z" fill="#9a9a9a" stroke="#333" stroke-width="1.5"/>"##,
    r##"<path d="M-2,12 L-2,5 A2,2 0 0 1 2,5 L2,12 Z" fill="#333"/>"##
);

/// A tower's height as its letter on the text board: `0`–`9`, `+` for more.
fn height_letter(height: u8) -> char {
    char::from_digit(u32::from(height), 10).unwrap_or('+')
}

impl Presenter for Show {
    fn action_words(&self, action: &Action, say: &dyn Phrases) -> Option<String> {
        Some(match TowerAction::of(action)? {
            TowerAction::Floor { pos } => format!("put one of your tower floors at {pos}"),
            TowerAction::Top { pos, figure } => {
                format!("close the tower at {pos} with {}", figure.words())
            }
            TowerAction::Capture {
                pos, spot, owner, ..
            } => {
                let who = say
                    .figure_at(pos, spot)
                    .unwrap_or_else(|| say.name(usize::from(owner)));
                format!("take {who} at {pos} prisoner")
            }
            TowerAction::CaptureTop { pos } => {
                let top = say.game().figure_at_place(Place::Tile(pos));
                let who = top.map_or("the figure".to_string(), |(owner, kind)| {
                    say.figure(owner, kind, None)
                });
                format!("take {who} on the tower at {pos} prisoner")
            }
            TowerAction::Ransom { holder, figure } => format!(
                "buy your {} back from {}",
                figure.noun(),
                say.name(usize::from(holder))
            ),
        })
    }

    fn action_spot(&self, action: &Action) -> Option<Spot> {
        match TowerAction::of(action)? {
            TowerAction::Capture { spot, .. } => Some(spot),
            _ => None,
        }
    }

    fn pass_words(&self, decision: &DecisionKind) -> Option<&'static str> {
        Some(match TowerDecision::of(decision)? {
            TowerDecision::Capture => "pass (take nobody prisoner)",
            TowerDecision::Ransom => "pass (buy nobody back)",
        })
    }

    fn decision_words(&self, decision: &DecisionKind) -> Option<String> {
        Some(match TowerDecision::of(decision)? {
            TowerDecision::Capture => "take a follower in the tower's reach prisoner".into(),
            TowerDecision::Ransom => "buy a prisoner back".into(),
        })
    }

    fn payment(&self, event: &Event) -> Option<(usize, u32, &'static str)> {
        match TowerEvent::of(event)? {
            TowerEvent::Ransomed { holder, points, .. } => Some((holder, points, "ransom")),
            _ => None,
        }
    }

    fn tone(&self, event: &Event) -> Option<Tone> {
        match TowerEvent::of(event)? {
            TowerEvent::Captured { .. } => Some(Tone::Loss),
            TowerEvent::Ransomed { .. } => Some(Tone::Gain),
            _ => None,
        }
    }

    fn tokens_words(&self, game: &Game, seat: usize) -> Option<String> {
        let floors = state(game)?.floors.get(seat).copied().unwrap_or(0);
        let prisoners: Vec<String> = (game.custody(seat).into_iter())
            .map(|(owner, kind, n)| format!("{n} {} of seat {}", kind.noun(), owner + 1))
            .collect();
        let mut words = format!("tower floors: {floors}");
        if !prisoners.is_empty() {
            words.push_str(&format!("; prisoners: {}", prisoners.join(", ")));
        }
        Some(words)
    }

    fn state_json(&self, game: &Game, _names: &[String]) -> Vec<(&'static str, Value)> {
        let Some(s) = state(game) else {
            return vec![("towers", Value::Null)];
        };
        let towers: Vec<Value> = (s.towers.iter())
            .map(|t| {
                let top = game.figure_at_place(Place::Tile(t.pos));
                json!({
                    "x": t.pos.x,
                    "y": t.pos.y,
                    "height": t.height,
                    "closed": closed(game, t),
                    "top": top.map(|(owner, kind)| json!({"player": owner, "figure": kind})),
                })
            })
            .collect();
        let prisoners: Vec<Value> = (game.prisoners().into_iter())
            .map(|(holder, owner, kind, n)| {
                json!({"holder": holder, "player": owner, "figure": kind, "count": n})
            })
            .collect();
        vec![(
            "towers",
            json!({"towers": towers, "floors": s.floors, "prisoners": prisoners}),
        )]
    }

    fn pieces(&self, game: &Game) -> Vec<Piece> {
        let Some(s) = state(game) else {
            return Vec::new();
        };
        (s.towers.iter())
            .filter(|t| t.height > 0)
            .map(|t| Piece {
                name: "tower",
                pos: t.pos,
                beside: None,
                letter: height_letter(t.height),
                ansi: "\x1b[0;1;97;100m",
                svg: TOWER,
            })
            .collect()
    }

    fn key(&self, game: &Game) -> Vec<(char, &'static str)> {
        let on = game.rules().switched_on("tower");
        on.then_some(('1', "tower (its height)"))
            .into_iter()
            .collect()
    }
}
