//! What the page is sent: a game as JSON, with the board as SVG, every legal action in words
//! and in record notation, and where on the board each one is clicked; and what explains the
//! game: the last move, the features with who holds them and their worth now, the tiles still
//! to come by type, the log in players' words and, at the end, the winner, each player's points
//! by source and the scores turn by turn.

use super::store::Entry;
use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::model::geometry::{Pos, Rotation, Spot};
use crate::model::tile::FeatureKind;
use crate::record;
use crate::ui::render::svg;
use crate::ui::{describe, holdings, narrate, tally};
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

/// The short label of a deployment drawn on its spot: the figure by its role and the feature
/// ("knight – city", "thief – road", "farmer", "monk"); none for other actions.
fn spot_label(game: &Game, action: &Action) -> Option<String> {
    let Action::Deploy { pos, spot, figure } = *action else {
        return None;
    };
    let seg = game.seg_at(pos, spot)?;
    let kind = game.features().segment(seg).kind;
    let role = describe::figure_role(figure, Some(kind));
    Some(match kind {
        FeatureKind::City | FeatureKind::Road => format!("{role} \u{2013} {}", kind.name()),
        _ => role,
    })
}

/// One legal action for the page.
fn action_json(game: &Game, index: usize, action: &Action, words: &str) -> Value {
    let t = target(game, action);
    json!({
        "label": spot_label(game, action),
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

/// The events in players' words ([`narrate`]), spoken to a player named "You" in the second
/// person as the terminal game does: the lines, and beside them the rule each names (or null),
/// for a hover note.
pub fn log(game: &Game, events: &[Event], names: &[String]) -> (Vec<String>, Vec<Option<String>>) {
    narrate::lines(game, events, names)
        .into_iter()
        .map(|l| (l.text, l.note))
        .unzip()
}

/// The last move: where the last tile was laid (by whom) and the figure deployed on it, if any
/// (its spot drawn at `px`, `py`, a fraction of the tile).
fn last_move(game: &Game, events: &[Event]) -> Value {
    let Some(placed) = events
        .iter()
        .rposition(|e| matches!(e, Event::TilePlaced { .. }))
    else {
        return Value::Null;
    };
    let Event::TilePlaced { player, x, y, .. } = &events[placed] else {
        return Value::Null;
    };
    let figure = events[placed..].iter().find_map(|e| match e {
        Event::FigureDeployed { x, y, spot, .. } => {
            let pos = Pos::new(*x, *y);
            svg::spot_point(game, pos, *spot)
                .map(|(px, py)| json!({"x": x, "y": y, "px": px, "py": py}))
        }
        _ => None,
    });
    json!({"player": player, "x": x, "y": y, "figure": figure})
}

/// Every feature on the board for the hover outline: its words, and each part's tile and the
/// point of its spot on the tile.
fn features(game: &Game) -> Value {
    let names = &game.setup().players;
    holdings::on_board(game)
        .iter()
        .map(|h| {
            let parts: Vec<Value> = h
                .parts
                .iter()
                .filter_map(|(pos, spot)| {
                    let (px, py) = svg::spot_point(game, *pos, *spot)?;
                    Some(json!([pos.x, pos.y, px, py]))
                })
                .collect();
            json!({"kind": h.kind.name(), "text": h.words(names), "parts": parts})
        })
        .collect::<Vec<_>>()
        .into()
}

/// The tiles still to come, by type (in words, types that read the same counted together),
/// most first.
fn tiles_by_type(game: &Game) -> Value {
    let mut counts = Vec::new();
    game.count_to_come(&mut counts);
    let mut by_words: Vec<(String, u32)> = Vec::new();
    for (tile, n) in game.rules().tiles.iter().zip(&counts) {
        if *n == 0 {
            continue;
        }
        let words = narrate::tile_words(tile);
        match by_words.iter_mut().find(|(w, _)| *w == words) {
            Some((_, c)) => *c += u32::from(*n),
            None => by_words.push((words, u32::from(*n))),
        }
    }
    by_words.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    by_words
        .iter()
        .map(|(w, n)| json!({"words": w, "count": n}))
        .collect::<Vec<_>>()
        .into()
}

/// The end of a game: the winners (every seat with the top score), each seat's points by
/// source and the scores turn by turn; null while it goes on.
fn end(game: &Game, events: &[Event]) -> Value {
    if !game.is_over() {
        return Value::Null;
    }
    let scores = game.scores();
    let best = scores.iter().copied().max().unwrap_or(0);
    let winners: Vec<usize> = (0..scores.len()).filter(|s| scores[*s] == best).collect();
    let (sources, breakdown) = tally::breakdown(events, scores);
    json!({
        "winners": winners,
        "sources": sources,
        "breakdown": breakdown,
        "timeline": tally::timeline(events, scores),
    })
}

/// The board widened to the positions the actions name, and its frame.
fn board(game: &Game, caption: &str, actions: &[Action]) -> (String, svg::Frame) {
    let around: Vec<Pos> = actions.iter().filter_map(|a| target(game, a).pos).collect();
    svg::board_around(game, caption, &around)
}

/// The scores, figures left, the tokens each player holds (as the families and scripts say
/// them: "goods: 2 wine, 1 cloth", or null) and tiles left.
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
        "tokens": (0..players.len())
            .map(|seat| crate::ui::render::text::tokens_words(game, seat))
            .collect::<Vec<_>>(),
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
                "rotations": Rotation::ALL.iter().map(|r| svg::ruleset_tile_body(game.rules(), tile, *r)).collect::<Vec<_>>(),
            })
        }
        _ => Value::Null,
    }
}

/// A game being played, as the page shows it, with its whole log.
pub fn game(entry: &Entry) -> Value {
    with_log(state(entry), entry, 0)
}

/// `view` with the game's log after its first `from` lines (`log_from`), each line with its
/// rule note. The whole log is narrated (a line's words depend on what came before it) and cut.
fn with_log(mut view: Value, entry: &Entry, from: usize) -> Value {
    let (mut lines, mut notes) = log(&entry.game, &entry.events, &entry.game.setup().players);
    let from = from.min(lines.len());
    view["log_from"] = json!(from);
    view["log"] = json!(lines.split_off(from));
    view["notes"] = json!(notes.split_off(from));
    view
}

/// What changed since a page showed version `since` with `shown` lines of log: the state as
/// [`game`] has it, but of the log only the lines after those the page may keep (`log_from`
/// of them); only the version when nothing changed.
pub fn changes(entry: &Entry, since: u64, shown: usize) -> Value {
    if since == entry.version() {
        return json!({"id": entry.id, "version": since, "same": true});
    }
    with_log(state(entry), entry, entry.events_kept(since, shown))
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
        "last": last_move(game, &entry.events),
        "features": features(game),
        "to_come": tiles_by_type(game),
        "end": end(game, &entry.events),
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
            let (lines, notes) = log(&game, &events, names);
            json!({
                "id": entry.id,
                "upto": upto,
                "total": history.len(),
                "board": svg,
                "frame": frame,
                "standing": standing(&game),
                "log": lines,
                "notes": notes,
                "last": last_move(&game, &events),
            })
        }
        Err(e) => json!({"error": e.to_string()}),
    }
}
