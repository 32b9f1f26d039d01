//! Figures scripts put where no feature is: on a tile (a tower's top) or at a corner where
//! four tiles meet in one field (a barn). They come from their owner's supply and go back to
//! it; while they stand there they are counted among the figures scripts keep
//! ([`Game::held`]), so every figure stays counted.
//!
//! A script names a place as a map: `#{x, y}` is the tile at (x, y), `#{x, y, corner: "NE"}`
//! its north-east corner (`NE`, `SE`, `SW`, `NW`); a corner is given back in one form, as the
//! `NE` corner of the tile south-west of it.

use crate::engine::event::{Event, ReturnReason};
use crate::engine::game::Game;
use crate::model::figure::{FigureKind, Place};
use crate::model::geometry::{Edge, Pos};
use crate::script::api::{emit, map};
use crate::script::family::{Out, Slot};
use crate::script::{Command, lock};
use rhai::{Array, Dynamic, Engine, ImmutableString, Map, NativeCallContext};
use std::sync::Arc;

/// How many figures scripts may put on tiles and corners in one game.
pub const MAX_PLACED: usize = 1_000;

/// The corners of a tile, in the order scripts name them.
const CORNERS: [&str; 4] = ["NE", "SE", "SW", "NW"];

/// The place a script's map names (an error for anything else).
fn place_of(m: &Map) -> Result<Place, String> {
    let int = |k: &str| m.get(k).and_then(|v| v.as_int().ok());
    let pos = int("x")
        .zip(int("y"))
        .and_then(|(x, y)| crate::script::pos_of(x, y))
        .ok_or("a place is #{x, y} or #{x, y, corner}, with whole numbers x and y")?;
    let Some(corner) = m.get("corner") else {
        return Ok(Place::Tile(pos));
    };
    let corner = corner.clone().into_string().unwrap_or_default();
    let canonical = match corner.as_str() {
        "NE" => pos,
        "SE" => pos.step(Edge::S),
        "SW" => pos.step(Edge::S).step(Edge::W),
        "NW" => pos.step(Edge::W),
        other => {
            return Err(format!(
                "a corner is one of {}, not {other:?}",
                CORNERS.join(", ")
            ));
        }
    };
    Ok(Place::Corner(canonical))
}

/// A place as scripts see it.
fn place_map(place: Place) -> Dynamic {
    let (pos, corner, side) = match place {
        Place::Tile(p) => (p, Dynamic::UNIT, Dynamic::UNIT),
        Place::Corner(p) => (p, ImmutableString::from("NE").into(), Dynamic::UNIT),
        Place::Side(p, e) => (p, Dynamic::UNIT, ImmutableString::from(e.name()).into()),
    };
    map(vec![
        ("x", i64::from(pos.x).into()),
        ("y", i64::from(pos.y).into()),
        ("corner", corner),
        ("side", side),
    ])
}

/// A figure at a place as `placed_figures()` gives it: `#{x, y, corner, player, kind}`.
pub(crate) fn placed_figure_map(owner: usize, kind: FigureKind, place: Place) -> Dynamic {
    let mut m = place_map(place).cast::<Map>();
    m.insert("player".into(), (owner as i64).into());
    m.insert("kind".into(), ImmutableString::from(kind.name()).into());
    Dynamic::from_map(m)
}

impl Game {
    /// Whether a figure may be put at `place`: the tile is there, or the corner is one where
    /// four tiles meet in one field; nobody stands there yet.
    fn check_place(&self, place: Place) -> Result<(), String> {
        match place {
            Place::Tile(p) if self.board.at(p).is_none() => {
                return Err(format!("there is no tile at ({},{})", p.x, p.y));
            }
            Place::Corner(p) if self.corner_field(p).is_none() => {
                return Err(format!(
                    "the north-east corner of ({},{}) is no corner where four tiles meet in one field",
                    p.x, p.y
                ));
            }
            _ => {}
        }
        if self.figure_at_place(place).is_some() {
            return Err("a figure already stands there".into());
        }
        Ok(())
    }

    /// `place_figure(p, kind, place)`: one of `p`'s figures of `kind` from the supply to
    /// `place`.
    fn place_figure(
        &mut self,
        script: &Arc<str>,
        (player, kind, place): (i64, &str, Place),
        events: &mut Vec<Event>,
    ) -> Result<(), String> {
        let (p, kind, _) = self.seat_kind(player, kind)?;
        self.check_place(place)?;
        if self.placed_count() >= MAX_PLACED {
            return Err(format!(
                "at most {MAX_PLACED} figures stand on tiles and corners"
            ));
        }
        self.put_at(p, kind, place)?;
        let (pos, corner) = unplace(place);
        events.push(Event::FigurePlaced {
            script: Arc::clone(script),
            player: p,
            figure: kind,
            x: pos.x,
            y: pos.y,
            corner,
        });
        Ok(())
    }

    /// `lift_figure(place)`: the figure at `place` back to its owner's supply.
    fn lift_figure(
        &mut self,
        script: &Arc<str>,
        place: Place,
        events: &mut Vec<Event>,
    ) -> Result<(), String> {
        let (p, kind) = self
            .lift_from(place, ReturnReason::Script)
            .ok_or("no figure a script put stands there")?;
        let (pos, corner) = unplace(place);
        events.push(Event::FigureLifted {
            script: Arc::clone(script),
            player: p,
            figure: kind,
            x: pos.x,
            y: pos.y,
            corner,
        });
        Ok(())
    }
}

/// A place's tile and whether it is the tile's corner (scripts name no sides: a side is the
/// named tile's).
fn unplace(place: Place) -> (Pos, bool) {
    match place {
        Place::Tile(p) | Place::Side(p, _) => (p, false),
        Place::Corner(p) => (p, true),
    }
}

/// Registers `place_figure`, `lift_figure`, `placed_figures()` and `corner_field(place)`.
pub(crate) fn register(engine: &mut Engine, slot: &Slot, out: &Out) {
    let o = Arc::clone(out);
    engine.register_fn(
        "place_figure",
        move |ctx: NativeCallContext, p: i64, kind: ImmutableString, at: Map| {
            let apply: crate::script::family::FamilyCommand = Box::new(move |g, script, events| {
                let place = place_of(&at)?;
                g.place_figure(script, (p, &kind, place), events)
            });
            emit(&o, &ctx, Command::Family(apply));
        },
    );
    let o = Arc::clone(out);
    engine.register_fn("lift_figure", move |ctx: NativeCallContext, at: Map| {
        let apply: crate::script::family::FamilyCommand = Box::new(move |g, script, events| {
            let place = place_of(&at)?;
            g.lift_figure(script, place, events)
        });
        emit(&o, &ctx, Command::Family(apply));
    });
    let s = Arc::clone(slot);
    engine.register_fn("placed_figures", move || -> Array {
        lock(&s).as_ref().map_or_else(Array::new, |g| {
            g.figures_at_places()
                .map(|(owner, kind, place)| placed_figure_map(owner, kind, place))
                .collect()
        })
    });
    let s = Arc::clone(slot);
    engine.register_fn(
        "corner_field",
        move |at: Map| -> Result<Dynamic, Box<rhai::EvalAltResult>> {
            let Place::Corner(pos) = place_of(&at)? else {
                return Err("corner_field needs a corner: #{x, y, corner}".into());
            };
            Ok(lock(&s).as_ref().map_or(Dynamic::UNIT, |g| {
                g.corner_field(pos)
                    .map_or(Dynamic::UNIT, |seg| g.feature_map(seg, None))
            }))
        },
    );
}
