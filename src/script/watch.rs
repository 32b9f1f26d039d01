//! What a script asks the engine to watch for it, so that rhai runs only when it matters: a
//! rhai call costs thousands of instructions, the engine's own check a few.
//!
//! - **Feature marks** (`mark_feature(x, y, spot, name[, seat])`, `unmark_feature(…)`): a mark
//!   stays with its feature as the feature grows and merges. A tile laid that extends a
//!   feature marked before it was laid carries the mark for the narrow hooks
//!   (`deploy_<name>()`, `place_<name>()`, `actions_<kind>_<name>(player)`,
//!   `dragon_step_<name>(step)`), as a tile carries its symbol; a mark put for a seat, only on
//!   that seat's turns. A tile that completes a marked feature calls `completed_<name>()`.
//! - **Hooks switched off and on** (`listen(hook, on)`): a hook switched off is not called
//!   until the script switches it on again.
//! - **Standing deploy offers** (`offer_deploy(#{…})`): one action per feature of a kind on
//!   the tile just laid, listed by the engine at every deploy decision without calling a
//!   script.
//! - **Tiles taken out after a mark** (`take_unseen_after(mark)`): when the tile laid carries
//!   the mark, the engine takes the next tile of the supply out unseen, as a `place_<mark>()`
//!   that calls `take_tile_unseen()` would, without calling a script.
//! - **Questions after a mark** (`ask_on_deploy(mark, offers)`): when the tile laid carries the
//!   mark, the engine asks the active player the offers after the deploy decision, as a
//!   `deploy_<mark>()` that calls `ask(active(), offers)` would, without calling a script.
//!
//! All five are kept with the scripts' state ([`crate::script::host`]), copied with the game
//! and rebuilt by a replay like the rest of it.

use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::model::board::PlacedId;
use crate::model::feature::SegId;
use crate::model::tile::FeatureKind;
use crate::script::api::emit;
use crate::script::family::{FamilyCommand, Out, Slot, with_game};
use crate::script::{ArgRef, Command, intern_offer, lock, pos_of, spot_of};
use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, Map, NativeCallContext};
use std::sync::Arc;

type Failure = Box<EvalAltResult>;

/// The most marks, hooks switched off, standing offers, marks that take tiles out and standing
/// questions a game's scripts keep (each).
pub const MAX_WATCHED: usize = 256;

/// What the scripts asked the engine to watch (see the module's header).
#[derive(Clone, Debug, Default)]
pub(crate) struct Watch {
    /// Feature marks, in the order they were put.
    marks: Vec<Mark>,
    /// The hooks switched off.
    muted: Vec<Arc<str>>,
    /// The standing deploy offers, in the order they were made.
    offers: Vec<Arc<DeployOffer>>,
    /// Each `take_unseen_after(mark)`, in the order they were asked.
    unseen_after: Vec<Standing<()>>,
    /// Each `ask_on_deploy(mark, offers)` with its offers, in the order they were asked.
    asks_on_deploy: Vec<Standing<Arc<Array>>>,
}

/// Something a script asked the engine to do whenever the tile laid carries `mark`, with what
/// it needs for it (`what`), done under the name of the `script` that asked.
#[derive(Clone, Debug)]
struct Standing<T> {
    mark: Arc<str>,
    what: T,
    script: Arc<str>,
}

/// Keeps `item` in one of the watch's lists, unless it holds [`MAX_WATCHED`] (of `what`)
/// already.
fn keep<T>(list: &mut Vec<T>, item: T, what: &str) -> Result<(), String> {
    if list.len() >= MAX_WATCHED {
        return Err(format!("at most {MAX_WATCHED} {what}"));
    }
    list.push(item);
    Ok(())
}

/// A feature mark (`mark_feature`).
#[derive(Clone, Debug)]
struct Mark {
    /// The segment it was put on (it follows the feature).
    seg: SegId,
    name: Arc<str>,
    /// The seat on whose turns alone it is carried (`None`: every turn).
    seat: Option<usize>,
    /// The tile laid this turn when it was put: that tile did not extend a marked feature.
    after: Option<PlacedId>,
}

/// A standing deploy offer (`offer_deploy`): `[name, x, y, spot]` for each feature of kind
/// `feature` on the tile just laid, while the deciding player has a `figure` in supply.
#[derive(Debug)]
struct DeployOffer {
    name: String,
    /// The figure table's index of the kind that must be in supply.
    figure: usize,
    feature: FeatureKind,
    /// Features carrying this mark are left out.
    apart_from: Option<String>,
    /// No offer when the tile laid carries one of these symbols or tags.
    not_on: Vec<String>,
    label: Option<String>,
}

/// Registers `mark_feature`, `unmark_feature`, `marked_features`, `listen`, `listening` and
/// `offer_deploy`.
/// `take_unseen_after(mark)` and `ask_on_deploy(mark, offers)`: commands, so that what they do
/// later is done under the script's name.
pub(crate) fn register_commands(engine: &mut Engine, out: &Out) {
    let o = Arc::clone(out);
    engine.register_fn(
        "ask_on_deploy",
        move |ctx: NativeCallContext, mark: ImmutableString, offers: Array| {
            let offers = Arc::new(offers);
            let apply: FamilyCommand = Box::new(move |g, script, _| {
                let asked = standing(&mark, offers, script);
                keep(
                    &mut g.watch_mut().asks_on_deploy,
                    asked,
                    "standing questions",
                )
            });
            emit(&o, &ctx, Command::Family(apply));
        },
    );
    let o = Arc::clone(out);
    engine.register_fn(
        "take_unseen_after",
        move |ctx: NativeCallContext, mark: ImmutableString| {
            let apply: FamilyCommand = Box::new(move |g, script, _| {
                let asked = standing(&mark, (), script);
                keep(
                    &mut g.watch_mut().unseen_after,
                    asked,
                    "marks that take tiles out",
                )
            });
            emit(&o, &ctx, Command::Family(apply));
        },
    );
}

/// What `script` asked to be done (`what`) whenever the tile laid carries `mark`.
fn standing<T>(mark: &str, what: T, script: &Arc<str>) -> Standing<T> {
    Standing {
        mark: Arc::from(mark),
        what,
        script: Arc::clone(script),
    }
}

pub(crate) fn register(engine: &mut Engine, slot: &Slot) {
    let s = Arc::clone(slot);
    engine.register_fn(
        "mark_feature",
        move |x: i64, y: i64, spot: ImmutableString, name: ImmutableString| {
            with_game(&s, OUTSIDE, |g| mark(g, x, y, &spot, &name, None))
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn(
        "mark_feature",
        move |x: i64, y: i64, spot: ImmutableString, name: ImmutableString, seat: i64| {
            with_game(&s, OUTSIDE, |g| {
                let seat = g.seat(seat).map_err(|e| format!("mark_feature: {e}"))?;
                mark(g, x, y, &spot, &name, Some(seat))
            })
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn(
        "unmark_feature",
        move |x: i64, y: i64, spot: ImmutableString, name: ImmutableString| {
            with_game(&s, OUTSIDE, |g| {
                let seg = seg_of(g, x, y, &spot)?;
                (g.watch_mut().marks).retain(|m| !(m.seg == seg && *m.name == *name));
                Ok(())
            })
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn("marked_features", move |name: ImmutableString| -> Array {
        lock(&s)
            .as_ref()
            .map(|g| marked_spots(g, &name))
            .unwrap_or_default()
    });
    let s = Arc::clone(slot);
    engine.register_fn("listen", move |hook: ImmutableString, on: bool| {
        with_game(&s, OUTSIDE, |g| {
            let muted = &mut g.watch_mut().muted;
            muted.retain(|h| **h != *hook);
            if !on {
                keep(muted, Arc::from(hook.as_str()), "hooks switched off")?;
            }
            Ok(())
        })
    });
    let s = Arc::clone(slot);
    engine.register_fn("listening", move |hook: ImmutableString| -> bool {
        lock(&s).as_ref().is_some_and(|g| !g.muted(&hook))
    });
    let s = Arc::clone(slot);
    engine.register_fn("offer_deploy", move |offer: Map| {
        with_game(&s, OUTSIDE, |g| {
            let offer = DeployOffer::read(g, &offer)?;
            keep(
                &mut g.watch_mut().offers,
                Arc::new(offer),
                "standing offers",
            )?;
            Ok(())
        })
    });
}

/// Puts the mark `name` (for `seat`'s turns only, if given) on the feature at `(x, y)` `spot`.
fn mark(
    g: &mut Game,
    x: i64,
    y: i64,
    spot: &str,
    name: &str,
    seat: Option<usize>,
) -> Result<(), Failure> {
    let seg = seg_of(g, x, y, spot)?;
    let after = g.placed_this_turn();
    let name = Arc::from(name);
    let mark = Mark {
        seg,
        name,
        seat,
        after,
    };
    keep(&mut g.watch_mut().marks, mark, "feature marks")?;
    Ok(())
}

/// What a script is told when it calls one of these outside a hook.
const OUTSIDE: &str = "the engine watches only what a hook asks while it runs";

/// The segment at `(x, y)` `spot`, or the script's error.
fn seg_of(g: &Game, x: i64, y: i64, spot: &str) -> Result<SegId, Failure> {
    pos_of(x, y)
        .zip(spot_of(spot))
        .and_then(|(p, sp)| g.seg_at(p, sp))
        .ok_or_else(|| format!("there is no feature at ({x},{y}) {spot}").into())
}

/// `[[x, y, spot], …]` where the marks `name` were put, in the order they were put.
fn marked_spots(g: &Game, name: &str) -> Array {
    g.watch()
        .map(|w| w.marks.as_slice())
        .unwrap_or_default()
        .iter()
        .filter(|m| *m.name == *name)
        .map(|m| {
            let (pos, spot) = g.seg_spot(m.seg);
            let place: Array = vec![
                i64::from(pos.x).into(),
                i64::from(pos.y).into(),
                Dynamic::from(spot.name().to_string()),
            ];
            place.into()
        })
        .collect()
}

impl DeployOffer {
    /// Reads `#{name, figure, feature, apart_from, not_on, label}` (`apart_from`, `not_on`
    /// and `label` may be left out).
    fn read(g: &Game, m: &Map) -> Result<DeployOffer, Failure> {
        const KEYS: [&str; 6] = ["name", "figure", "feature", "apart_from", "not_on", "label"];
        if let Some(key) = m.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(format!(
                "offer_deploy: unknown key `{key}` (keys: {})",
                KEYS.join(", ")
            )
            .into());
        }
        let text = |key: &str| -> Result<Option<String>, Failure> {
            match m.get(key) {
                None => Ok(None),
                Some(v) => (v.clone().into_string().map(Some))
                    .map_err(|_| format!("offer_deploy: `{key}` is a string").into()),
            }
        };
        let need = |key: &str| -> Result<String, Failure> {
            text(key)?.ok_or_else(|| format!("offer_deploy needs `{key}`").into())
        };
        let name = need("name")?;
        if name.is_empty() {
            return Err("offer_deploy: `name` is empty".into());
        }
        let (_, figure) = crate::script::host::figure_kind(g, &need("figure")?)?;
        let feature_name = need("feature")?;
        let feature = (FeatureKind::ALL.into_iter())
            .find(|k| k.name() == feature_name)
            .ok_or_else(|| {
                format!("offer_deploy: `feature` is road, city, cloister, field or garden, not {feature_name}")
            })?;
        let not_on = match m.get("not_on") {
            None => Vec::new(),
            Some(v) => (v.clone().into_array().ok())
                .and_then(|list| list.into_iter().map(|n| n.into_string().ok()).collect())
                .ok_or("offer_deploy: `not_on` is an array of names")?,
        };
        Ok(DeployOffer {
            name,
            figure,
            feature,
            apart_from: text("apart_from")?,
            not_on,
            label: text("label")?.filter(|l| !l.is_empty()),
        })
    }
}

impl Game {
    /// What the scripts watch, if they asked for anything.
    fn watch(&self) -> Option<&Watch> {
        self.scripts().map(|s| &s.watch)
    }

    fn watch_mut(&mut self) -> &mut Watch {
        &mut self.scripts_mut().watch
    }

    /// The standing `take_unseen_after(mark)`s after the tile `placed` was laid: for each
    /// whose mark the tile carries (as for `place_<mark>()`), the next tile of the supply
    /// leaves the game unseen, while one is left.
    pub(crate) fn take_unseen_after(&mut self, placed: PlacedId, events: &mut Vec<Event>) {
        self.each_standing(
            placed,
            |w| &w.unseen_after,
            |g, due| {
                g.take_tile_unseen(&due.script, events);
            },
        );
    }

    /// The standing `ask_on_deploy(mark, offers)`s after the deploy decision on the tile
    /// `placed`: for each whose mark the tile carries (as for `deploy_<mark>()`), the active
    /// player is asked the offers.
    pub(crate) fn ask_on_deploy(&mut self, placed: PlacedId, events: &mut Vec<Event>) {
        self.each_standing(
            placed,
            |w| &w.asks_on_deploy,
            |g, due| {
                g.ask_standing(&due.script, &due.what, events);
            },
        );
    }

    /// Hands `act` each entry of the standing list `list` whose mark the tile `placed`
    /// carries (as for the narrow hooks), in order. Read one at a time: nothing is copied for
    /// a tile that carries no mark, and `act` may change the game.
    fn each_standing<T: Clone>(
        &mut self,
        placed: PlacedId,
        list: impl Fn(&Watch) -> &Vec<Standing<T>>,
        mut act: impl FnMut(&mut Game, Standing<T>),
    ) {
        for i in 0..self.watch().map_or(0, |w| list(w).len()) {
            let due = (self.watch().and_then(|w| list(w).get(i)))
                .filter(|s| self.carries(placed, &s.mark))
                .cloned();
            if let Some(due) = due {
                act(self, due);
            }
        }
    }

    /// Whether a script switched `hook` off (`listen(hook, false)`).
    pub(crate) fn muted(&self, hook: &str) -> bool {
        self.watch()
            .is_some_and(|w| w.muted.iter().any(|h| **h == *hook))
    }

    /// Whether the tile `placed` extends a feature marked `name` before it was laid, with a
    /// mark for every seat or for the active player.
    pub(crate) fn mark_reaches(&self, placed: PlacedId, name: &str) -> bool {
        let Some(w) = self.watch() else {
            return false;
        };
        let active = self.active();
        let mut due = (w.marks.iter()).filter(|m| {
            *m.name == *name && m.after != Some(placed) && m.seat.is_none_or(|p| p == active)
        });
        due.any(|m| {
            self.tile_segs(placed)
                .any(|s| self.features().same(s, m.seg))
        })
    }

    /// Whether the tile `placed` has a part of a complete feature marked `name` (by any mark).
    pub(crate) fn mark_completed(&self, placed: PlacedId, name: &str) -> bool {
        let Some(w) = self.watch() else {
            return false;
        };
        let mut due = (w.marks.iter()).filter(|m| *m.name == *name);
        due.any(|m| {
            self.is_complete(m.seg)
                && self
                    .tile_segs(placed)
                    .any(|s| self.features().same(s, m.seg))
        })
    }

    /// Whether the feature of `seg` carries the mark `name`.
    fn marked(&self, seg: SegId, name: &str) -> bool {
        self.watch().is_some_and(|w| {
            (w.marks.iter()).any(|m| *m.name == *name && self.features().same(m.seg, seg))
        })
    }

    /// The standing offers' actions for the pending decision (none but at a deploy decision
    /// on a tile laid this turn whose deployment is open).
    pub(crate) fn standing_offers(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.each_standing_offer(|offer, args| {
            let id = intern_offer(&offer.name, &args, offer.label.as_deref());
            actions.push(Action::Script(id));
            false
        });
        actions
    }

    /// Whether the script action `id` is among [`Game::standing_offers`], found without
    /// listing (and so interning) them all.
    pub(crate) fn standing_offer_holds(&self, id: u32) -> bool {
        crate::engine::named::with_action(id, |a| {
            self.each_standing_offer(|offer, args| {
                offer.name == a.name
                    && a.args.len() == args.len()
                    && (a.args.iter()).zip(&args).all(|(x, y)| ArgRef::of(x) == *y)
            })
        })
        .unwrap_or(false)
    }

    /// Calls `found` with each standing offer and the arguments of each of its actions for
    /// the pending decision, in listing order, until it answers true; whether it did.
    fn each_standing_offer(
        &self,
        mut found: impl FnMut(&DeployOffer, [ArgRef<'_>; 3]) -> bool,
    ) -> bool {
        let Some(offers) = self.watch().map(|w| &w.offers).filter(|o| !o.is_empty()) else {
            return false;
        };
        let decision = self.decision();
        let placed = self.placed_this_turn();
        let (DecisionKind::Deploy, Some(placed)) = (decision.kind, placed) else {
            return false;
        };
        if self.deploy_closed() {
            return false;
        }
        for offer in offers {
            let in_supply = self.supply[decision.player].get(offer.figure) > Some(&0);
            let barred = || (offer.not_on.iter()).any(|n| self.tile_carries(placed, n));
            if !in_supply || barred() {
                continue;
            }
            for seg in self.tile_segs(placed) {
                if self.features().segment(seg).kind != offer.feature
                    || (offer.apart_from.as_deref()).is_some_and(|m| self.marked(seg, m))
                {
                    continue;
                }
                let (pos, spot) = self.seg_spot(seg);
                let args = [
                    ArgRef::Int(i64::from(pos.x)),
                    ArgRef::Int(i64::from(pos.y)),
                    ArgRef::Text(spot.name()),
                ];
                if found(offer, args) {
                    return true;
                }
            }
        }
        false
    }
}
