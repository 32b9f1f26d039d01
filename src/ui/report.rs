//! Machine-readable reports of a game (the JSON of `castellan replay --json`).

use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::mechanic::count::Count;
use crate::mechanic::count::rules::Quarter;
use serde_json::{Map, Value, json};

/// The game as one JSON object: `finished`, `turn`, `scores` (name → points), `supply`,
/// `figures` on the board, the `dragon` and the `fairy` (null when off the board), the `count`
/// (null without the Count: the Count's quarter as `at`, each quarter's followers by name as
/// `quarters`, and the followers out of a quarter waiting for their feature's scoring as
/// `moving`), and the `events` with seats replaced by player names.
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
    json!({
        "ruleset": game.rules().name,
        "players": names,
        "finished": game.is_over(),
        "turn": game.turn(),
        "tiles_left": game.tiles_left(),
        "scores": scores,
        "supply": supply,
        "figures": figures,
        "dragon": dragon,
        "fairy": fairy,
        "count": crate::mechanic::count::state(game).map(|c| count_json(c, names)),
        "set_aside": game.set_aside(),
        "events": events,
    })
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
