//! How the Count of Carcassonne shows itself (`engine::show`): its actions and decisions in
//! words and the City of Carcassonne in a game's JSON.

use super::rules::Quarter;
use super::vocabulary::{CountAction, CountDecision, how_many};
use super::{Count, state};
use crate::engine::action::{Action, DecisionKind};
use crate::engine::game::Game;
use crate::engine::show::{Phrases, Presenter};
use crate::model::geometry::Spot;
use serde_json::{Map, Value, json};

/// The Count's presentation.
pub struct Show;

impl Presenter for Show {
    fn action_words(&self, action: &Action, say: &dyn Phrases) -> Option<String> {
        Some(match CountAction::of(action)? {
            CountAction::Quarter { quarter, figure } => format!(
                "put {} into the {} of Carcassonne",
                figure.words(),
                quarter.name()
            ),
            CountAction::Count { quarter } => format!("move the Count to the {}", quarter.name()),
            CountAction::Leave {
                quarter,
                count,
                figure,
            } => {
                let into = match CountDecision::of(&say.game().decision().kind) {
                    Some(CountDecision::Leave { x, y, .. }) => {
                        format!(" into the feature at ({x},{y})")
                    }
                    _ => String::new(),
                };
                format!(
                    "move {} out of the {}{into}",
                    how_many(count, figure),
                    quarter.name()
                )
            }
            CountAction::Score { pos, spot } => {
                format!("score {} at {pos} next", say.feature(pos, spot))
            }
        })
    }

    fn action_spot(&self, action: &Action) -> Option<Spot> {
        match CountAction::of(action)? {
            CountAction::Score { spot, .. } => Some(spot),
            _ => None,
        }
    }

    fn decision_words(&self, decision: &DecisionKind) -> Option<String> {
        Some(
            match CountDecision::of(decision)? {
                CountDecision::Quarter => {
                    "only others scored: a follower may go into the City of Carcassonne"
                }
                CountDecision::Move => "the Count may move to another quarter",
                CountDecision::Leave { .. } => {
                    "followers may leave the City for the feature being scored"
                }
                CountDecision::Order => "choose the feature scored next",
            }
            .to_string(),
        )
    }

    fn state_json(&self, game: &Game, names: &[String]) -> Vec<(&'static str, Value)> {
        vec![("count", json!(state(game).map(|c| count_json(c, names))))]
    }
}

/// The City of Carcassonne: `{"at": "castle", "quarters": {"castle": {"Ann": 1, …}, …},
/// "kinds": {"castle": {"Ann": {"follower": 1}, …}, …}, "moving": {"Ann": 0, …}}` (`quarters`
/// counts every kind, `kinds` names them).
fn count_json(count: &Count, names: &[String]) -> Value {
    let by_name = |n: &dyn Fn(usize) -> u32| -> Map<String, Value> {
        names
            .iter()
            .enumerate()
            .map(|(seat, name)| (name.clone(), json!(n(seat))))
            .collect()
    };
    let quarters: Map<String, Value> = Quarter::ALL
        .iter()
        .map(|q| {
            let followers = by_name(&|seat| count.in_quarter(seat, *q) as u32);
            (q.name().to_string(), Value::Object(followers))
        })
        .collect();
    let kinds: Map<String, Value> = Quarter::ALL
        .iter()
        .map(|q| {
            let seats: Map<String, Value> = names
                .iter()
                .enumerate()
                .map(|(seat, name)| {
                    let held: Map<String, Value> = count
                        .kinds_in_quarter(seat, *q)
                        .into_iter()
                        .map(|(k, n)| (k.name().to_string(), json!(n)))
                        .collect();
                    (name.clone(), Value::Object(held))
                })
                .collect();
            (q.name().to_string(), Value::Object(seats))
        })
        .collect();
    json!({
        "at": count.at().name(),
        "quarters": quarters,
        "kinds": kinds,
        "moving": by_name(&|seat| count.moving(seat) as u32),
    })
}
