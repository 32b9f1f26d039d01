//! What the page is sent: a game as JSON, with the board as SVG, every legal action in words
//! and in record notation, and where on the board each one is clicked.

use super::store::Entry;
use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::words;
use crate::model::geometry::{Pos, Rotation, Spot};
use crate::record;
use crate::ui::describe;
use crate::ui::render::svg;
use serde_json::{Value, json};

/// Where on the board an action is clicked: a position, and on it a rotation (for placing)
/// or a figure's spot (drawn at `point`, a fraction of the tile from its top left corner).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Target {
    /// The board position, if the action has one.
    pub pos: Option<Pos>,
    /// The rotation in degrees, for placing a tile.
    pub rotation: Option<u32>,
    /// The spot's name and where it is drawn on the tile.
    pub spot: Option<(Spot, (f64, f64))>,
}

/// Where to click for `action`, read from its record notation: an array that starts with two
/// whole numbers names a position; a third value is a rotation (a number) or a spot (a name).
/// Actions without a position (a quarter of the City, passing, a script's choice) have none and
/// are shown as buttons.
pub fn target(game: &Game, action: &Action) -> Target {
    let table = record::action_table(action);
    let Some(values) = table
        .iter()
        .filter(|(k, _)| k.as_str() != "figure")
        .find_map(|(_, v)| v.as_array())
    else {
        return Target::default();
    };
    let int = |i: usize| values.get(i).and_then(toml::Value::as_integer);
    let (Some(x), Some(y)) = (int(0), int(1)) else {
        return Target::default();
    };
    let (Ok(x), Ok(y)) = (i32::try_from(x), i32::try_from(y)) else {
        return Target::default();
    };
    let pos = Pos::new(x, y);
    let rotation = int(2).and_then(Rotation::from_degrees).map(|r| r.degrees());
    let spot = values
        .get(2)
        .and_then(toml::Value::as_str)
        .and_then(Spot::parse)
        .and_then(|s| svg::spot_point(game, pos, s).map(|p| (s, p)));
    Target {
        pos: Some(pos),
        rotation,
        spot,
    }
}

/// One legal action for the page.
fn action_json(game: &Game, index: usize, action: &Action, words: &str) -> Value {
    let t = target(game, action);
    json!({
        "index": index,
        "text": words,
        "record": record::action_table(action),
        "x": t.pos.map(|p| p.x),
        "y": t.pos.map(|p| p.y),
        "rotation": t.rotation,
        "spot": t.spot.map(|(s, _)| s.name()),
        "px": t.spot.map(|(_, p)| p.0),
        "py": t.spot.map(|(_, p)| p.1),
    })
}

/// The events in words, as `castellan replay` prints them, spoken to a player named "You" in
/// the second person as the terminal game does.
pub fn log(events: &[Event], names: &[String]) -> Vec<String> {
    events
        .iter()
        .map(|event| describe::second_person(&words::event(event, names).to_string()))
        .collect()
}

/// The board widened to the positions the actions name, and its frame.
fn board(game: &Game, caption: &str, actions: &[Action]) -> (String, svg::Frame) {
    let around: Vec<Pos> = actions.iter().filter_map(|a| target(game, a).pos).collect();
    svg::board_around(game, caption, &around)
}

/// The scores, figures left and tiles left.
fn standing(game: &Game) -> Value {
    let players = &game.setup().players;
    let figures: Vec<Value> = (0..players.len())
        .map(|seat| {
            game.rules()
                .figures
                .rows()
                .iter()
                .filter(|row| row.per_player > 0)
                .map(|row| {
                    (
                        row.kind.name().to_string(),
                        json!(game.supply(seat, row.kind)),
                    )
                })
                .collect::<serde_json::Map<String, Value>>()
                .into()
        })
        .collect();
    json!({
        "names": players,
        "colours": (0..players.len()).map(svg::player_colour).collect::<Vec<_>>(),
        "scores": game.scores(),
        "figures": figures,
        "tiles_left": game.tiles_left(),
        "turn": game.turn(),
        "over": game.is_over(),
        "history": game.history().len(),
    })
}

/// The drawn tile in its four rotations (SVG bodies), when a tile waits to be placed.
fn drawn(game: &Game) -> Value {
    match game.decision().kind {
        DecisionKind::PlaceTile { tile } => {
            let t = game.rules().tile(tile);
            json!({
                "id": &*t.id,
                "rotations": Rotation::ALL.iter().map(|r| svg::tile_body(t, *r)).collect::<Vec<_>>(),
            })
        }
        _ => Value::Null,
    }
}

/// A game being played, as the page shows it, with its whole log.
pub fn game(entry: &Entry) -> Value {
    let mut view = state(entry);
    view["log_from"] = json!(0);
    view["log"] = json!(log(&entry.events, &entry.game.setup().players));
    view
}

/// What changed since a page showed version `since` with `shown` lines of log: the state as
/// [`game`] has it, but of the log only the lines after those the page may keep (`log_from`
/// of them); only the version when nothing changed.
pub fn changes(entry: &Entry, since: u64, shown: usize) -> Value {
    if since == entry.version() {
        return json!({"id": entry.id, "version": since, "same": true});
    }
    let from = entry.events_kept(since, shown);
    let mut view = state(entry);
    view["log_from"] = json!(from);
    view["log"] = json!(log(&entry.events[from..], &entry.game.setup().players));
    view
}

/// A game being played, without its log.
fn state(entry: &Entry) -> Value {
    let game = &entry.game;
    let names = &game.setup().players;
    let legal = if game.is_over() { vec![] } else { game.legal() };
    let words = describe::actions(game, &legal, names);
    let actions: Vec<Value> = legal
        .iter()
        .zip(&words)
        .enumerate()
        .map(|(i, (a, w))| action_json(game, i, a, w))
        .collect();
    let (svg, frame) = board(game, "", &legal);
    let decision = (!game.is_over()).then(|| {
        let d = game.decision();
        json!({"player": d.player, "kind": d.kind.name(), "bot": entry.bots[d.player]})
    });
    json!({
        "id": entry.id,
        "ruleset": {"name": game.rules().name, "description": game.rules().description},
        "bots": entry.bots,
        "standing": standing(game),
        "decision": decision,
        "drawn": drawn(game),
        "board": svg,
        "frame": frame,
        "actions": actions,
        "version": entry.version(),
        "can_undo": entry.can_undo(),
    })
}

/// A line of the game list.
pub fn summary(entry: &Entry) -> Value {
    let game = &entry.game;
    json!({
        "id": entry.id,
        "ruleset": game.rules().name,
        "players": game.setup().players,
        "scores": game.scores(),
        "turn": game.turn(),
        "actions": game.history().len(),
        "over": game.is_over(),
    })
}

/// The game after its first `upto` actions (at most all of them): the board and the events
/// up to then, for the replay viewer.
pub fn replay(entry: &Entry, upto: usize) -> Value {
    let history = entry.game.history();
    let upto = upto.min(history.len());
    let rules = std::sync::Arc::clone(entry.game.rules());
    let names = &entry.game.setup().players;
    let step = || -> Result<(Game, Vec<Event>), String> {
        let (mut game, mut events) =
            Game::new(rules, entry.game.setup().clone()).map_err(|e| e.to_string())?;
        for a in &history[..upto] {
            game.apply_into(a, &mut events).map_err(|e| e.to_string())?;
        }
        Ok((game, events))
    };
    match step() {
        Ok((game, events)) => {
            let caption = format!("after {upto} of {} actions", history.len());
            let (svg, frame) = board(&game, &caption, &[]);
            json!({
                "id": entry.id,
                "upto": upto,
                "total": history.len(),
                "board": svg,
                "frame": frame,
                "standing": standing(&game),
                "log": log(&events, names),
            })
        }
        Err(e) => json!({"error": e.to_string()}),
    }
}
