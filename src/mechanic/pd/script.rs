//! What scripts can do with The Princess & the Dragon: read where the dragon and the fairy
//! are, move them, start and end the dragon's journey, and the hooks that follow the P&D's
//! decisions (`princess()`, `dragon_step(step)` and its narrow forms, `filter_dragon_steps`).
//! Registered through [`commands`], named by the family's `FAMILY` (`mechanic::Family`).

use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::engine::mechanic::Then;
use crate::mechanic::pd::dragon::{self, Journey};
use crate::mechanic::pd::fairy::{self, Fairy};
use crate::mechanic::pd::vocabulary::{PdAction, PdDecision, PdEvent};
use crate::script::api::map;
use crate::script::family::{Filter, FilterKey, Giver, Reader, ScriptApi};
use crate::script::spot_of;
use rhai::{Dynamic, NativeCallContext};
use std::sync::Arc;

/// Registers the P&D's queries, commands and decision hooks for scripts.
pub(crate) fn commands(api: &mut ScriptApi) {
    let reader = api.reader();
    queries(api.engine(), &reader);
    let giver = api.giver();
    dragon_commands(api.engine(), &giver);
    fairy_commands(api.engine(), &giver);
    api.on_answered(answered);
    api.filter(Filter {
        hook: "filter_dragon_steps",
        applies: |kind| matches!(PdDecision::of(kind), Some(PdDecision::DragonStep { .. })),
        key: step_key,
    });
    api.then(|kind| {
        // A script's answer to a dragon step lets the journey stage look again.
        matches!(PdDecision::of(kind), Some(PdDecision::DragonStep { .. })).then_some(Then::Again)
    });
}

/// `dragon()`, `dragon_in_play()`, `fairy()`, `may_move_fairy()`, `princess_removed()`.
fn queries(engine: &mut rhai::Engine, reader: &Reader) {
    let r = reader.clone();
    engine.register_fn("dragon", move || -> Dynamic {
        r.read(|g| {
            g.dragon().map_or(Dynamic::UNIT, |p| {
                map(vec![
                    ("x", i64::from(p.x).into()),
                    ("y", i64::from(p.y).into()),
                ])
            })
        })
        .unwrap_or(Dynamic::UNIT)
    });
    let r = reader.clone();
    engine.register_fn("dragon_in_play", move || -> bool {
        r.read(|g| g.dragon_in_play()).unwrap_or(false)
    });
    let r = reader.clone();
    engine.register_fn("fairy", move || -> Dynamic {
        r.read(|g| g.fairy().map_or(Dynamic::UNIT, fairy_map))
            .unwrap_or(Dynamic::UNIT)
    });
    let r = reader.clone();
    engine.register_fn("may_move_fairy", move || -> bool {
        r.read(fairy::fairy_may_move).unwrap_or(false)
    });
    let r = reader.clone();
    engine.register_fn("princess_removed", move || -> bool {
        r.read(crate::mechanic::pd::princess::removed_this_turn)
            .unwrap_or(false)
    });
}

/// The fairy as scripts see it: `#{x, y, follower}`.
fn fairy_map(f: Fairy) -> Dynamic {
    let follower = f.follower.map_or(Dynamic::UNIT, |id| i64::from(id).into());
    map(vec![
        ("x", i64::from(f.pos.x).into()),
        ("y", i64::from(f.pos.y).into()),
        ("follower", follower),
    ])
}

/// `move_dragon(x, y)`, `hide_dragon()`, `eat(x, y)`, `end_journey()`, `start_journey(steps)`.
fn dragon_commands(engine: &mut rhai::Engine, giver: &Giver) {
    let o = giver.clone();
    engine.register_fn(
        "move_dragon",
        move |ctx: NativeCallContext, x: i64, y: i64| {
            o.family(&ctx, move |g, script, events| {
                let pos = g.tile_pos(x, y)?;
                dragon::put(g, pos);
                let script = Arc::clone(script);
                events.push(
                    PdEvent::DragonPlaced {
                        script,
                        x: pos.x,
                        y: pos.y,
                    }
                    .into(),
                );
                Ok(())
            });
        },
    );
    let o = giver.clone();
    engine.register_fn("hide_dragon", move |ctx: NativeCallContext| {
        o.family(&ctx, |g, script, events| {
            dragon::hide(g);
            let script = Arc::clone(script);
            events.push(PdEvent::DragonHidden { script }.into());
            Ok(())
        });
    });
    let o = giver.clone();
    engine.register_fn("eat", move |ctx: NativeCallContext, x: i64, y: i64| {
        o.family(&ctx, move |g, _, events| {
            let pos = g.tile_pos(x, y)?;
            dragon::eat(g, pos, events);
            Ok(())
        });
    });
    let o = giver.clone();
    engine.register_fn("end_journey", move |ctx: NativeCallContext| {
        o.family(&ctx, |g, _, events| {
            if let Some(j) = dragon::state_mut(g).journey.take() {
                let steps = j.steps;
                events.push(
                    PdEvent::JourneyEnded {
                        steps,
                        reason: "script",
                    }
                    .into(),
                );
            }
            dragon::set_due(g, false);
            Ok(())
        });
    });
    let o = giver.clone();
    engine.register_fn(
        "start_journey",
        move |ctx: NativeCallContext, steps_done: i64| {
            o.family(&ctx, move |g, _, _| {
                let at = dragon::at(g).ok_or("the dragon is not on the board")?;
                let steps = u32::try_from(steps_done).map_err(|_| "steps must be 0 or more")?;
                dragon::set_due(g, true);
                dragon::state_mut(g).journey = Some(Journey {
                    open: None,
                    steps,
                    visited: vec![at],
                });
                Ok(())
            });
        },
    );
}

/// Where `move_fairy(x, y, …)` puts the fairy on its tile.
#[derive(Clone, Debug)]
enum FairyTarget {
    /// Next to the figure with this id.
    Figure(i64),
    /// Next to the newest figure on this spot of the tile.
    Spot(String),
    /// On the tile, next to nobody (tile mode).
    Tile,
}

/// `move_fairy(x, y, follower)`, `hide_fairy()`.
fn fairy_commands(engine: &mut rhai::Engine, giver: &Giver) {
    let o = giver.clone();
    engine.register_fn(
        "move_fairy",
        move |ctx: NativeCallContext, x: i64, y: i64, follower: Dynamic| {
            let target = if let Ok(id) = follower.as_int() {
                FairyTarget::Figure(id)
            } else if let Ok(spot) = follower.into_string() {
                FairyTarget::Spot(spot)
            } else {
                FairyTarget::Tile
            };
            o.family(&ctx, move |g, _, events| {
                move_fairy(g, x, y, target, events)
            });
        },
    );
    let o = giver.clone();
    engine.register_fn("hide_fairy", move |ctx: NativeCallContext| {
        o.family(&ctx, |g, script, events| {
            fairy::set(g, None);
            let script = Arc::clone(script);
            events.push(PdEvent::FairyHidden { script }.into());
            Ok(())
        });
    });
}

/// The command of `move_fairy`: the fairy onto the tile at (x, y), next to `target`.
fn move_fairy(
    g: &mut Game,
    x: i64,
    y: i64,
    target: FairyTarget,
    events: &mut Vec<Event>,
) -> Result<(), String> {
    let pos = g.tile_pos(x, y)?;
    let follower = match target {
        FairyTarget::Tile => None,
        FairyTarget::Figure(id) => Some(g.figures[g.figure_index(id)?].id),
        FairyTarget::Spot(name) => {
            let seg = spot_of(&name)
                .and_then(|s| g.seg_at(pos, s))
                .ok_or_else(|| format!("the tile at ({x},{y}) has no feature at `{name}`"))?;
            let newest = g.figures.iter().rev().find(|f| f.seg == seg);
            Some(
                newest
                    .ok_or_else(|| format!("no figure stands at ({x},{y}) {name}"))?
                    .id,
            )
        }
    };
    let figure = follower.and_then(|id| g.figures.iter().find(|f| f.id == id));
    let spot = figure.map(|f| g.figure_spot(f).1);
    let moved = Fairy::next_to(pos, figure);
    fairy::put(g, moved, spot, events);
    Ok(())
}

/// The hooks that follow a P&D decision: `princess()`, and `dragon_step(step)` with its
/// narrow forms `dragon_step_<name>(step)` for the tile the dragon stepped onto.
fn answered(g: &mut Game, kind: DecisionKind, events: &mut Vec<Event>) {
    match PdDecision::of(&kind) {
        Some(PdDecision::Princess) => g.run_hook("princess", Vec::new(), events),
        Some(PdDecision::DragonStep { .. }) => {
            let step = dragon::journey(g).map_or(0, |j| i64::from(j.steps));
            // Its argument is built only for a hook that is on.
            if g.hooked("dragon_step") {
                g.run_hook("dragon_step", vec![step.into()], events);
            }
            if let Some(at) = dragon::at(g).and_then(|p| g.board.at(p)) {
                g.marked_hooks("dragon_step", at, &[step.into()], events);
            }
        }
        _ => {}
    }
}

/// What `filter_dragon_steps` is given of a dragon step: `#{x, y}`.
fn step_key(a: &Action) -> Option<FilterKey> {
    match PdAction::of(a) {
        Some(PdAction::Dragon { pos }) => Some((i64::from(pos.x), i64::from(pos.y), None, None)),
        _ => None,
    }
}
