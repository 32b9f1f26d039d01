//! The functions scripts call: queries that read the game and commands that ask the host to
//! change it (see `scripts/README.md` for the reference).

use crate::engine::game::Game;
use crate::script::family::{Out, Slot};
use crate::script::{Command, lock, pos_of, spot_of};
use rhai::{Array, Dynamic, Engine, ImmutableString, Map, NativeCallContext};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A rhai map of `entries`.
pub(crate) fn map(entries: Vec<(&str, Dynamic)>) -> Dynamic {
    let mut m = Map::new();
    for (k, v) in entries {
        m.insert(k.into(), v);
    }
    Dynamic::from_map(m)
}

/// A rhai string of `s` (made once, not through a `String` first).
pub(crate) fn text(s: &str) -> Dynamic {
    Dynamic::from(ImmutableString::from(s))
}

/// The tile at `pos` as a map: x, y, id, rotation, symbol, tags.
fn tile_map(game: &Game, id: crate::model::board::PlacedId) -> Dynamic {
    let p = game.board().placed(id);
    let t = game.rules().tile(p.tile);
    let symbol = match t.symbol {
        Some(s) => ImmutableString::from(game.rules().prints.symbol_name(s)).into(),
        None => Dynamic::UNIT,
    };
    let tags: Array = t.tags.iter().map(|s| Dynamic::from(s.clone())).collect();
    map(vec![
        ("x", (p.pos.x as i64).into()),
        ("y", (p.pos.y as i64).into()),
        ("id", Dynamic::from(t.id.to_string())),
        ("rotation", (p.rotation.degrees() as i64).into()),
        ("symbol", symbol),
        ("tags", tags.into()),
    ])
}

/// The filter of `find_spots(#{ tag, open, fields, unoccupied, empty_of, ignore, new_tile })`.
struct SpotFilter {
    /// Tiles carrying this tag or symbol.
    tag: String,
    /// Only features not completed (a field never is).
    open: bool,
    /// Field segments too.
    fields: bool,
    /// Only features without followers.
    unoccupied: bool,
    /// Leave out tiles where a figure of one of these kinds (or with one of these tags) stands …
    empty_of: Vec<String>,
    /// … not counting this figure.
    ignore: Option<i64>,
    /// The tile laid this turn too.
    new_tile: bool,
    /// Only features a figure of this kind may stand on.
    figure: Option<String>,
}

impl SpotFilter {
    fn read(m: &Map) -> Result<SpotFilter, String> {
        let flag = |key: &str, default: bool| -> Result<bool, String> {
            m.get(key).map_or(Ok(default), |v| {
                v.as_bool()
                    .map_err(|_| format!("find_spots: `{key}` is true or false"))
            })
        };
        for key in m.keys() {
            let known = [
                "tag",
                "open",
                "fields",
                "unoccupied",
                "empty_of",
                "ignore",
                "new_tile",
                "figure",
            ];
            if !known.contains(&key.as_str()) {
                return Err(format!("find_spots: unknown filter key `{key}`"));
            }
        }
        let tag = m
            .get("tag")
            .and_then(|t| t.clone().into_string().ok())
            .ok_or("find_spots needs a string `tag`")?;
        let empty_of = match m.get("empty_of") {
            None => Vec::new(),
            Some(list) => list
                .read_lock::<Array>()
                .ok_or("find_spots: `empty_of` is an array of figure kinds")?
                .iter()
                .map(|k| k.clone().into_string())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|_| "find_spots: `empty_of` is an array of figure kinds")?,
        };
        let ignore = match m.get("ignore") {
            None => None,
            Some(v) if v.is_unit() => None,
            Some(v) => Some(
                v.as_int()
                    .map_err(|_| "find_spots: `ignore` is a figure id")?,
            ),
        };
        let figure = match m.get("figure") {
            None => None,
            Some(v) => Some(
                v.clone()
                    .into_string()
                    .map_err(|_| "find_spots: `figure` is a figure kind")?,
            ),
        };
        Ok(SpotFilter {
            figure,
            tag,
            open: flag("open", false)?,
            fields: flag("fields", true)?,
            unoccupied: flag("unoccupied", false)?,
            empty_of,
            ignore,
            new_tile: flag("new_tile", true)?,
        })
    }

    /// `[x, y, spot]` of every segment that passes, tile by tile in placement order (an error
    /// for a figure kind the ruleset lacks).
    fn spots(&self, g: &Game) -> Result<Array, String> {
        let stands = match &self.figure {
            None => None,
            Some(name) => {
                let (kind, _) = crate::script::host::figure_kind(g, name)?;
                g.rules().figures.row(kind).map(|r| r.stands_on)
            }
        };
        let mut out = Array::new();
        for (id, p) in g.board().tiles().iter().enumerate() {
            let id = id as crate::model::board::PlacedId;
            if !carries(g, id, &self.tag) || (!self.new_tile && g.placed_this_turn() == Some(id)) {
                continue;
            }
            let blocked = !self.empty_of.is_empty()
                && g.figures().iter().any(|f| {
                    Some(f.id as i64) != self.ignore
                        && g.seg_pos(f.seg) == p.pos
                        && self.empty_of.iter().any(|k| named(g, f, k))
                });
            if blocked {
                continue;
            }
            for seg in g.tile_segs(id) {
                let kind = g.features().segment(seg).kind;
                let field = kind == crate::model::tile::FeatureKind::Field;
                if (field && !self.fields)
                    || stands.is_some_and(|s| !s.on(kind))
                    || (self.open && !field && g.is_complete(seg))
                    || (self.unoccupied && g.features().totals(seg).followers > 0)
                {
                    continue;
                }
                let spot = g.seg_spot(seg).1;
                out.push(Dynamic::from_array(vec![
                    (p.pos.x as i64).into(),
                    (p.pos.y as i64).into(),
                    ImmutableString::from(spot.name()).into(),
                ]));
            }
        }
        Ok(out)
    }
}

/// Whether `name` is the kind of figure `f` or a tag of its row (`follower` names every
/// follower: the normal one, the big one, the abbot).
fn named(g: &Game, f: &crate::model::figure::Figure, name: &str) -> bool {
    f.kind.name() == name
        || g.rules()
            .figures
            .row(f.kind)
            .is_some_and(|r| r.has_tag(name))
}

/// Whether the placed tile `id` carries the tag `name` or the symbol `name`.
fn carries(game: &Game, id: crate::model::board::PlacedId, name: &str) -> bool {
    let t = game.rules().tile(game.board().placed(id).tile);
    let symbol = |s| game.rules().prints.symbol_name(s) == name;
    t.tags.iter().any(|tag| tag == name) || t.symbol.is_some_and(symbol)
}

/// A figure as scripts see it: `#{id, player, kind, x, y, spot, feature}`.
pub(crate) fn figure_map(game: &Game, f: &crate::model::figure::Figure) -> Dynamic {
    let (pos, spot) = game.figure_spot(f);
    map(vec![
        ("id", (f.id as i64).into()),
        ("player", (f.owner as i64).into()),
        ("kind", text(f.kind.name())),
        ("x", (pos.x as i64).into()),
        ("y", (pos.y as i64).into()),
        ("spot", text(spot.name())),
        ("feature", text(game.features().segment(f.seg).kind.name())),
    ])
}

/// Registers every query and command on `engine`.
pub(crate) fn register(engine: &mut Engine, slot: &Slot, out: &Out, rules: Arc<toml::Table>) {
    register_queries(engine, slot);
    register_board_queries(engine, slot);
    register_commands(engine, out);
    crate::script::place::register(engine, slot, out);
    crate::script::watch::register(engine, slot);
    crate::script::watch::register_commands(engine, out);
    // Ruleset values never change: each one is converted once and then handed out as a copy.
    let r = Arc::clone(&rules);
    let seen = Mutex::new(HashMap::new());
    engine.register_fn("rule", move |path: ImmutableString| -> Dynamic {
        cached(&seen, &path, || lookup(&r, &path))
    });
    // `var` is a reserved word in rhai (a script cannot call a function of that name), so the
    // `[vars]` table is read with `vars(name)`.
    let seen = Mutex::new(HashMap::new());
    engine.register_fn("vars", move |name: ImmutableString| -> Dynamic {
        cached(&seen, &name, || lookup(&rules, &format!("vars.{name}")))
    });
}

/// The value for `key` from `cache`, computed by `make` the first time.
fn cached(
    cache: &Mutex<HashMap<ImmutableString, Dynamic>>,
    key: &ImmutableString,
    make: impl FnOnce() -> Dynamic,
) -> Dynamic {
    let mut cache = lock(cache);
    if let Some(v) = cache.get(key) {
        return v.clone();
    }
    let v = make();
    cache.insert(key.clone(), v.clone());
    v
}

fn lookup(table: &toml::Table, path: &str) -> Dynamic {
    let mut value: Option<&toml::Value> = None;
    for part in path.split('.') {
        value = match value {
            None => table.get(part),
            Some(v) => v.as_table().and_then(|t| t.get(part)),
        };
        if value.is_none() {
            return Dynamic::UNIT;
        }
    }
    value.map_or(Dynamic::UNIT, toml_to_dynamic)
}

fn toml_to_dynamic(v: &toml::Value) -> Dynamic {
    match v {
        toml::Value::String(s) => Dynamic::from(s.clone()),
        toml::Value::Integer(i) => (*i).into(),
        toml::Value::Boolean(b) => (*b).into(),
        toml::Value::Array(a) => Dynamic::from_array(a.iter().map(toml_to_dynamic).collect()),
        toml::Value::Table(t) => {
            let mut m = Map::new();
            for (k, v) in t {
                m.insert(k.as_str().into(), toml_to_dynamic(v));
            }
            Dynamic::from_map(m)
        }
        other => Dynamic::from(other.to_string()),
    }
}

/// Reads the game in the slot; outside a hook call there is none and queries return `()`.
fn read<T>(slot: &Slot, f: impl FnOnce(&Game) -> T) -> Option<T> {
    lock(slot).as_ref().map(f)
}

fn register_queries(engine: &mut Engine, slot: &Slot) {
    let s = Arc::clone(slot);
    engine.register_fn("turn", move || read(&s, |g| g.turn() as i64).unwrap_or(0));
    let s = Arc::clone(slot);
    engine.register_fn("active", move || {
        read(&s, |g| g.active() as i64).unwrap_or(0)
    });
    let s = Arc::clone(slot);
    engine.register_fn("players", move || {
        read(&s, |g| g.scores().len() as i64).unwrap_or(0)
    });
    let s = Arc::clone(slot);
    engine.register_fn("player_name", move |p: i64| -> Dynamic {
        read(&s, |g| {
            g.setup()
                .players
                .get(p as usize)
                .map_or(Dynamic::UNIT, |n| Dynamic::from(n.clone()))
        })
        .unwrap_or(Dynamic::UNIT)
    });
    let s = Arc::clone(slot);
    engine.register_fn("score_of", move |p: i64| -> i64 {
        read(&s, |g| g.scores().get(p as usize).map_or(0, |v| *v as i64)).unwrap_or(0)
    });
    let s = Arc::clone(slot);
    engine.register_fn("supply", move |p: i64| -> i64 {
        read(&s, |g| {
            if p >= 0 && (p as usize) < g.scores().len() {
                g.supply(p as usize, crate::model::figure::FigureKind::Follower) as i64
            } else {
                0
            }
        })
        .unwrap_or(0)
    });
    let s = Arc::clone(slot);
    engine.register_fn("held", move |p: i64| -> i64 {
        read(&s, |g| g.held(p as usize) as i64).unwrap_or(0)
    });
    register_kind_queries(engine, slot);
    register_custody_queries(engine, slot);
    crate::script::chance::register(engine, slot);
    let s = Arc::clone(slot);
    engine.register_fn("decision", move || -> Dynamic {
        read(&s, |g| {
            let d = g.decision();
            map(vec![
                ("player", (d.player as i64).into()),
                ("kind", Dynamic::from(d.kind.name().to_string())),
            ])
        })
        .unwrap_or(Dynamic::UNIT)
    });
    let s = Arc::clone(slot);
    engine.register_fn("state", move || -> Dynamic {
        read(&s, |g| g.script_state_dynamic()).unwrap_or(Dynamic::UNIT)
    });
    let s = Arc::clone(slot);
    engine.register_fn("figures", move || -> Array {
        read(&s, |g| {
            g.figures().iter().map(|f| figure_map(g, f)).collect()
        })
        .unwrap_or_default()
    });
}

/// The queries that name a figure kind: `figure_kinds()`, `figure_noun(kind)`, `supply(p, kind)`, `supplies(p)`,
/// `held(p, kind)`, `held_kinds(p)`. A kind the ruleset's figure table lacks is an error of the script.
fn register_kind_queries(engine: &mut Engine, slot: &Slot) {
    let s = Arc::clone(slot);
    engine.register_fn("figure_kinds", move || -> Array {
        read(&s, |g| {
            g.rules()
                .figures
                .rows()
                .iter()
                .map(|r| ImmutableString::from(r.kind.name()).into())
                .collect()
        })
        .unwrap_or_default()
    });
    let s = Arc::clone(slot);
    engine.register_fn("supply", move |p: i64, kind: ImmutableString| {
        count_of(&s, p, &kind, |g, p, i| g.supply[p][i])
    });
    let s = Arc::clone(slot);
    engine.register_fn("held", move |p: i64, kind: ImmutableString| {
        count_of(&s, p, &kind, |g, p, i| g.held_at(p, i))
    });
    let s = Arc::clone(slot);
    engine.register_fn(
        "figure_noun",
        move |kind: ImmutableString| -> Result<ImmutableString, Box<rhai::EvalAltResult>> {
            read(&s, |g| crate::script::host::figure_kind(g, &kind))
                .unwrap_or_else(|| Err(format!("no figure `{kind}` outside a game")))
                .map(|(k, _)| k.noun().into())
                .map_err(|e| e.into())
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn(
        "figure_row",
        move |kind: ImmutableString| -> Result<Dynamic, Box<rhai::EvalAltResult>> {
            read(&s, |g| {
                let (kind, _) = crate::script::host::figure_kind(g, &kind)?;
                Ok(g.rules().figures.row(kind).map_or(Dynamic::UNIT, row_map))
            })
            .unwrap_or(Ok(Dynamic::UNIT))
            .map_err(|e: String| e.into())
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn("supplies", move |p: i64| -> Map {
        read(&s, |g| {
            let Some(supply) = usize::try_from(p).ok().and_then(|p| g.supply.get(p)) else {
                return Map::new();
            };
            g.rules()
                .figures
                .rows()
                .iter()
                .zip(supply)
                .filter(|(_, n)| **n > 0)
                .map(|(r, n)| (r.kind.name().into(), i64::from(*n).into()))
                .collect()
        })
        .unwrap_or_default()
    });
    let s = Arc::clone(slot);
    engine.register_fn("held_kinds", move |p: i64| -> Array {
        read(&s, |g| {
            let held = g
                .scripts()
                .and_then(|s| s.held.get(usize::try_from(p).ok()?));
            let Some(held) = held else {
                return Array::new();
            };
            g.rules()
                .figures
                .rows()
                .iter()
                .zip(held)
                .filter(|(_, n)| **n > 0)
                .map(|(r, _)| ImmutableString::from(r.kind.name()).into())
                .collect()
        })
        .unwrap_or_default()
    });
}

/// A row of the figure table as scripts see it: `#{strength, tags, joins_own}`.
fn row_map(row: &crate::model::figure::FigureRow) -> Dynamic {
    let tags: Array = row.tags.iter().map(|t| Dynamic::from(t.clone())).collect();
    map(vec![
        ("strength", i64::from(row.strength).into()),
        ("tags", tags.into()),
        ("joins_own", row.joins_own.into()),
    ])
}

/// A count of player `p`'s figures of the kind called `kind` (`count` reads it at the seat and
/// the kind's place in the table); 0 for a seat that does not exist, an error for a kind the
/// ruleset lacks.
fn count_of(
    slot: &Slot,
    p: i64,
    kind: &str,
    count: impl Fn(&Game, usize, usize) -> u8,
) -> Result<i64, Box<rhai::EvalAltResult>> {
    read(slot, |g| {
        let (_, i) = crate::script::host::figure_kind(g, kind)?;
        Ok(usize::try_from(p)
            .ok()
            .filter(|p| *p < g.scores().len())
            .map_or(0, |p| i64::from(count(g, p, i))))
    })
    .unwrap_or(Ok(0))
    .map_err(|e: String| e.into())
}

fn register_board_queries(engine: &mut Engine, slot: &Slot) {
    let s = Arc::clone(slot);
    engine.register_fn("tiles", move || -> Array {
        read(&s, |g| {
            (0..g.board().tiles().len() as u16)
                .map(|id| tile_map(g, id))
                .collect()
        })
        .unwrap_or_default()
    });
    let s = Arc::clone(slot);
    engine.register_fn("tile_at", move |x: i64, y: i64| -> Dynamic {
        read(&s, |g| {
            pos_of(x, y)
                .and_then(|p| g.board().at(p))
                .map_or(Dynamic::UNIT, |id| tile_map(g, id))
        })
        .unwrap_or(Dynamic::UNIT)
    });
    let s = Arc::clone(slot);
    engine.register_fn("tiles_with", move |name: ImmutableString| -> Array {
        read(&s, |g| {
            g.board()
                .tiles()
                .iter()
                .enumerate()
                .filter(|(id, _)| carries(g, *id as crate::model::board::PlacedId, &name))
                .map(|(_, p)| {
                    Dynamic::from_array(vec![(p.pos.x as i64).into(), (p.pos.y as i64).into()])
                })
                .collect()
        })
        .unwrap_or_default()
    });
    let s = Arc::clone(slot);
    engine.register_fn(
        "tile_has",
        move |x: i64, y: i64, name: ImmutableString| -> bool {
            read(&s, |g| {
                pos_of(x, y)
                    .and_then(|p| g.board().at(p))
                    .is_some_and(|id| carries(g, id, &name))
            })
            .unwrap_or(false)
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn(
        "tiles_around",
        move |x: i64, y: i64, name: ImmutableString| -> i64 {
            read(&s, |g| {
                // Any number a script gives: a neighbour past the coordinates is no tile.
                let around = [
                    (0, -1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                    (0, 1),
                    (-1, 1),
                    (-1, 0),
                    (-1, -1),
                ];
                let n = (around.into_iter())
                    .filter_map(|(dx, dy)| pos_of(x.checked_add(dx)?, y.checked_add(dy)?))
                    .filter_map(|p| g.board().at(p))
                    .filter(|id| carries(g, *id, &name))
                    .count();
                n as i64
            })
            .unwrap_or(0)
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn(
        "find_spots",
        move |filter: Map| -> Result<Array, Box<rhai::EvalAltResult>> {
            let filter = SpotFilter::read(&filter).map_err(|e| e.to_string())?;
            Ok(read(&s, |g| filter.spots(g)).unwrap_or(Ok(Array::new()))?)
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn("placed_tile", move || -> Dynamic {
        read(&s, |g| {
            g.placed_this_turn()
                .map_or(Dynamic::UNIT, |id| tile_map(g, id))
        })
        .unwrap_or(Dynamic::UNIT)
    });
    let s = Arc::clone(slot);
    engine.register_fn("features_on", move |x: i64, y: i64| -> Array {
        read(&s, |g| {
            let Some(id) = pos_of(x, y).and_then(|p| g.board().at(p)) else {
                return Array::new();
            };
            g.tile_segs(id)
                .map(|seg| {
                    let (_, spot) = g.seg_spot(seg);
                    map(vec![
                        ("spot", text(spot.name())),
                        ("kind", text(g.features().segment(seg).kind.name())),
                        ("complete", g.is_complete(seg).into()),
                        (
                            "followers",
                            (g.features().totals(seg).followers as i64).into(),
                        ),
                    ])
                })
                .collect()
        })
        .unwrap_or_default()
    });
    let s = Arc::clone(slot);
    engine.register_fn(
        "counters",
        move |x: i64, y: i64, spot: ImmutableString| -> Map {
            read(&s, |g| {
                let seg = pos_of(x, y)
                    .zip(spot_of(&spot))
                    .and_then(|(p, sp)| g.seg_at(p, sp));
                seg.map(|seg| counters_map(g, seg)).unwrap_or_default()
            })
            .unwrap_or_default()
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn("figures_on", move |x: i64, y: i64| -> Array {
        read(&s, |g| {
            let Some(at) = pos_of(x, y) else {
                return Array::new();
            };
            g.figures()
                .iter()
                .filter(|f| g.seg_pos(f.seg) == at)
                .map(|f| figure_map(g, f))
                .collect()
        })
        .unwrap_or_default()
    });
    let s = Arc::clone(slot);
    engine.register_fn(
        "spot_on",
        move |x: i64, y: i64, fx: i64, fy: i64, fspot: ImmutableString| -> Dynamic {
            read(&s, |g| {
                let feature = pos_of(fx, fy)
                    .zip(spot_of(&fspot))
                    .and_then(|(p, sp)| g.seg_at(p, sp))?;
                let placed = pos_of(x, y).and_then(|p| g.board().at(p))?;
                let seg = g
                    .tile_segs(placed)
                    .find(|s| g.features().same(*s, feature))?;
                Some(Dynamic::from(g.seg_spot(seg).1.name().to_string()))
            })
            .flatten()
            .unwrap_or(Dynamic::UNIT)
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn(
        "complete",
        move |x: i64, y: i64, spot: ImmutableString| -> bool {
            read(&s, |g| {
                let seg = pos_of(x, y)
                    .zip(spot_of(&spot))
                    .and_then(|(p, sp)| g.seg_at(p, sp));
                seg.is_some_and(|seg| g.is_complete(seg))
            })
            .unwrap_or(false)
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn(
        "same_feature",
        move |x1: i64,
              y1: i64,
              s1: ImmutableString,
              x2: i64,
              y2: i64,
              s2: ImmutableString|
              -> bool {
            read(&s, |g| {
                let a = pos_of(x1, y1)
                    .zip(spot_of(&s1))
                    .and_then(|(p, sp)| g.seg_at(p, sp));
                let b = pos_of(x2, y2)
                    .zip(spot_of(&s2))
                    .and_then(|(p, sp)| g.seg_at(p, sp));
                matches!((a, b), (Some(a), Some(b)) if g.features().same(a, b))
            })
            .unwrap_or(false)
        },
    );
}

/// The counters printed on the parts of the feature of `seg`, summed over the feature, by
/// name (`#{inn: 0, cathedral: 0, princess: 0, wine: 2, grain: 0, cloth: 1}`, then the
/// counters the ruleset's tile sets declare).
fn counters_map(g: &Game, seg: u32) -> Map {
    let totals = g.features().totals(seg).counters;
    g.rules()
        .prints
        .counters()
        .map(|(id, print)| (print.name.as_ref().into(), i64::from(totals.get(id)).into()))
        .collect()
}

/// Keeps a command with the place in the script that gave it (for its error, if it fails).
pub(crate) fn emit(out: &Out, ctx: &NativeCallContext, command: Command) {
    lock(out).push((command, ctx.call_position()));
}

/// `take_figure`, `release_figure`, `put_figure` and their forms for the plain follower
/// (`take_follower`, …); the host checks the kind when it applies them.
fn register_figure_commands(engine: &mut Engine, out: &Out) {
    const FOLLOWER: &str = "follower";
    register_supply_command(engine, out, "take", |player, kind| Command::TakeFigure {
        player,
        kind,
    });
    register_supply_command(engine, out, "release", |player, kind| {
        Command::ReleaseFigure { player, kind }
    });
    let o = Arc::clone(out);
    engine.register_fn(
        "put_follower",
        move |ctx: NativeCallContext,
              p: i64,
              x: i64,
              y: i64,
              spot: ImmutableString,
              ignore: bool| {
            let kind = FOLLOWER.to_string();
            emit(&o, &ctx, put(p, kind, x, y, &spot, ignore));
        },
    );
    let o = Arc::clone(out);
    engine.register_fn(
        "put_figure",
        move |ctx: NativeCallContext,
              p: i64,
              kind: ImmutableString,
              x: i64,
              y: i64,
              spot: ImmutableString,
              ignore: bool| {
            emit(&o, &ctx, put(p, kind.to_string(), x, y, &spot, ignore));
        },
    );
}

/// `<verb>_follower(p)` and `<verb>_figure(p, kind)`: the command `make(p, kind)`.
fn register_supply_command(
    engine: &mut Engine,
    out: &Out,
    verb: &str,
    make: fn(i64, String) -> Command,
) {
    let o = Arc::clone(out);
    engine.register_fn(
        format!("{verb}_follower"),
        move |ctx: NativeCallContext, p: i64| {
            emit(&o, &ctx, make(p, "follower".to_string()));
        },
    );
    let o = Arc::clone(out);
    engine.register_fn(
        format!("{verb}_figure"),
        move |ctx: NativeCallContext, p: i64, kind: ImmutableString| {
            emit(&o, &ctx, make(p, kind.to_string()));
        },
    );
}

/// The command of `put_figure(p, kind, x, y, spot, ignore_occupancy)`.
fn put(p: i64, kind: String, x: i64, y: i64, spot: &str, ignore_occupancy: bool) -> Command {
    Command::PutFigure {
        player: p,
        kind,
        x,
        y,
        spot: spot.to_string(),
        ignore_occupancy,
    }
}

fn register_commands(engine: &mut Engine, out: &Out) {
    let o = Arc::clone(out);
    engine.register_fn(
        "score",
        move |ctx: NativeCallContext, player: i64, points: i64, why: ImmutableString| {
            emit(
                &o,
                &ctx,
                Command::Score {
                    player,
                    points,
                    why: why.to_string(),
                },
            );
        },
    );
    let o = Arc::clone(out);
    engine.register_fn(
        "score_feature",
        move |ctx: NativeCallContext,
              player: i64,
              points: i64,
              feature: Map,
              rule: ImmutableString| {
            emit(
                &o,
                &ctx,
                Command::ScoreFeature {
                    player,
                    points,
                    feature,
                    rule: rule.to_string(),
                },
            );
        },
    );
    let o = Arc::clone(out);
    engine.register_fn("return_figure", move |ctx: NativeCallContext, id: i64| {
        emit(&o, &ctx, Command::ReturnFigure { id, reason: None });
    });
    let o = Arc::clone(out);
    engine.register_fn(
        "return_figure",
        move |ctx: NativeCallContext, id: i64, family: ImmutableString, reason: ImmutableString| {
            let reason = Some((family.to_string(), reason.to_string()));
            emit(&o, &ctx, Command::ReturnFigure { id, reason });
        },
    );
    register_family_events(engine, out);
    register_figure_commands(engine, out);
    register_points(engine, out);
    register_custody(engine, out);
    let o = Arc::clone(out);
    engine.register_fn(
        "set_state",
        move |ctx: NativeCallContext, state: Dynamic| {
            emit(&o, &ctx, Command::SetState(state));
        },
    );
    let o = Arc::clone(out);
    engine.register_fn(
        "ask",
        move |ctx: NativeCallContext, player: i64, offers: Array| {
            emit(&o, &ctx, Command::Ask { player, offers });
        },
    );
    let o = Arc::clone(out);
    engine.register_fn(
        "log",
        move |ctx: NativeCallContext, text: ImmutableString| {
            emit(&o, &ctx, Command::Log(text.to_string()));
        },
    );
}

/// `event(family, name, fields)`, `credit(p, n, family, name, fields)`, `give_extra_turn()`
/// and `hold_tokens(p, group, token, n)`.
fn register_family_events(engine: &mut Engine, out: &Out) {
    let o = Arc::clone(out);
    engine.register_fn(
        "event",
        move |ctx: NativeCallContext,
              family: ImmutableString,
              name: ImmutableString,
              fields: Map| {
            let (family, name) = (family.to_string(), name.to_string());
            let command = Command::FamilyEvent {
                family,
                name,
                fields,
                pay: None,
            };
            emit(&o, &ctx, command);
        },
    );
    let o = Arc::clone(out);
    engine.register_fn(
        "credit",
        move |ctx: NativeCallContext,
              player: i64,
              points: i64,
              family: ImmutableString,
              name: ImmutableString,
              fields: Map| {
            let (family, name) = (family.to_string(), name.to_string());
            let command = Command::FamilyEvent {
                family,
                name,
                fields,
                pay: Some((player, points)),
            };
            emit(&o, &ctx, command);
        },
    );
    let o = Arc::clone(out);
    engine.register_fn("give_extra_turn", move |ctx: NativeCallContext| {
        emit(&o, &ctx, Command::ExtraTurn);
    });
    let o = Arc::clone(out);
    engine.register_fn("take_tile_unseen", move |ctx: NativeCallContext| {
        emit(&o, &ctx, Command::TakeTileUnseen);
    });
    let o = Arc::clone(out);
    engine.register_fn(
        "hold_tokens",
        move |ctx: NativeCallContext,
              player: i64,
              group: ImmutableString,
              token: ImmutableString,
              count: i64| {
            let (group, token) = (group.to_string(), token.to_string());
            let command = Command::Tokens {
                player,
                group,
                token,
                count,
            };
            emit(&o, &ctx, command);
        },
    );
}

/// `points(p, n, rule, why)` and `transfer(from, to, n, rule, why)`.
fn register_points(engine: &mut Engine, out: &Out) {
    let o = Arc::clone(out);
    engine.register_fn(
        "points",
        move |ctx: NativeCallContext,
              player: i64,
              points: i64,
              rule: ImmutableString,
              why: ImmutableString| {
            let (rule, why) = (rule.to_string(), why.to_string());
            let command = Command::Points {
                player,
                points,
                rule,
                why,
            };
            emit(&o, &ctx, command);
        },
    );
    let o = Arc::clone(out);
    engine.register_fn(
        "transfer",
        move |ctx: NativeCallContext,
              from: i64,
              to: i64,
              points: i64,
              rule: ImmutableString,
              why: ImmutableString| {
            let (rule, why) = (rule.to_string(), why.to_string());
            let command = Command::Transfer {
                from,
                to,
                points,
                rule,
                why,
            };
            emit(&o, &ctx, command);
        },
    );
}

/// `hold_figure(p, kind, holder)`, `capture(id, holder)`, `release_custody(p, kind, holder)`.
fn register_custody(engine: &mut Engine, out: &Out) {
    let o = Arc::clone(out);
    engine.register_fn(
        "hold_figure",
        move |ctx: NativeCallContext, player: i64, kind: ImmutableString, holder: i64| {
            let kind = kind.to_string();
            let command = Command::Custody {
                player,
                kind,
                holder,
                from: None,
            };
            emit(&o, &ctx, command);
        },
    );
    let o = Arc::clone(out);
    engine.register_fn(
        "capture",
        move |ctx: NativeCallContext, id: i64, holder: i64| {
            let command = Command::Custody {
                player: 0,
                kind: String::new(),
                holder,
                from: Some(id),
            };
            emit(&o, &ctx, command);
        },
    );
    let o = Arc::clone(out);
    engine.register_fn(
        "release_custody",
        move |ctx: NativeCallContext, player: i64, kind: ImmutableString, holder: i64| {
            let kind = kind.to_string();
            emit(
                &o,
                &ctx,
                Command::Free {
                    player,
                    kind,
                    holder,
                },
            );
        },
    );
}

/// `custody(holder)`, `custody_of(p, kind, holder)` and `turn_half()`.
fn register_custody_queries(engine: &mut Engine, slot: &Slot) {
    let s = Arc::clone(slot);
    engine.register_fn("custody", move |holder: i64| -> Array {
        read(&s, |g| {
            let Some(holder) = usize::try_from(holder).ok() else {
                return Array::new();
            };
            g.custody(holder)
                .into_iter()
                .map(|(owner, kind, n)| {
                    map(vec![
                        ("player", (owner as i64).into()),
                        ("kind", ImmutableString::from(kind.name()).into()),
                        ("count", i64::from(n).into()),
                    ])
                })
                .collect()
        })
        .unwrap_or_default()
    });
    let s = Arc::clone(slot);
    engine.register_fn(
        "custody_of",
        move |p: i64, kind: ImmutableString, holder: i64| {
            count_of(&s, p, &kind, |g, p, i| {
                let holder = usize::try_from(holder).unwrap_or(usize::MAX);
                g.custody(holder)
                    .into_iter()
                    .filter(|(owner, k, _)| {
                        *owner == p && g.rules().figures.find(*k).map(|(j, _)| j) == Some(i)
                    })
                    .map(|(_, _, n)| n)
                    .sum()
            })
        },
    );
    let s = Arc::clone(slot);
    engine.register_fn("turn_half", move || -> i64 {
        read(&s, Game::turn_half).unwrap_or(0)
    });
    let s = Arc::clone(slot);
    engine.register_fn("tiles_left", move || -> i64 {
        read(&s, |g| g.tiles_to_draw() as i64).unwrap_or(0)
    });
}
