//! Machine-readable reports of a game (the JSON of `castellan replay --json`).

use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::registry;
use serde_json::{Map, Value, json};

/// The game as one JSON object: `finished`, `turn`, `scores` (name → points), `supply`,
/// `figures` on the board, the `events` with seats replaced by player names, and each family's
/// state as it shows it (`engine::show::Presenter::state_json`: the dragon, the fairy, the
/// Count's City, … — `null` when the family does not play).
pub fn game_json(game: &Game, events: &[Event]) -> Value {
    let names = &game.setup().players;
    let mut scores = Map::new();
    let mut supply = Map::new();
    for (seat, name) in names.iter().enumerate() {
        scores.insert(name.clone(), json!(game.scores()[seat]));
        supply.insert(
            name.clone(),
            json!(game.supply(seat, crate::model::figure::FigureKind::Follower)),
        );
    }
    let figures: Vec<Value> = game
        .figures()
        .iter()
        .map(|f| {
            let (pos, spot) = game.figure_spot(f);
            json!({
                "player": names[f.owner],
                "kind": f.kind.name(),
                "x": pos.x,
                "y": pos.y,
                "spot": spot.name(),
                "feature": game.features().segment(f.seg).kind.name(),
            })
        })
        .collect();
    let events: Vec<Value> = events.iter().map(|e| event_json(e, names)).collect();
    let mut out = json!({
        "ruleset": game.rules().name,
        "players": names,
        "finished": game.is_over(),
        "turn": game.turn(),
        "tiles_left": game.tiles_left(),
        "scores": scores,
        "supply": supply,
        "figures": figures,
        "events": events,
    });
    if let Value::Object(map) = &mut out {
        for presenter in registry::presenters() {
            for (key, value) in presenter.state_json(game, names) {
                map.insert(key.to_string(), value);
            }
        }
    }
    out
}

/// One event as JSON, with seat numbers replaced by names and final scores keyed by name.
pub fn event_json(event: &Event, names: &[String]) -> Value {
    let mut v = serde_json::to_value(event).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut v {
        if let Some(Value::Number(n)) = map.get("player")
            && let Some(name) = n.as_u64().and_then(|i| names.get(i as usize))
        {
            map.insert("player".into(), json!(name));
        }
        if let Event::GameEnded { scores } = event {
            let by_name: Map<String, Value> = names
                .iter()
                .zip(scores)
                .map(|(n, s)| (n.clone(), json!(s)))
                .collect();
            map.insert("scores".into(), Value::Object(by_name));
        }
    }
    v
}
