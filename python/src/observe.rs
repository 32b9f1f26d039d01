//! The observation of the multi-agent environment: what every player sees at the table, as
//! two tables of numbers. docs/python.md describes them column by column.
//!
//! - `tiles`: one row per tile laid, in the order they were laid (rows past the board's tiles
//!   are zero): where, which type turned how, its edges, the feature part at each edge and
//!   half-edge (equal numbers are one part: the connections inside the tile), its centre,
//!   pennants, princess, symbols and markers, the dragon and the fairy on it, and each seat's
//!   figures on it by kind (a bit per spot).
//! - `vector`: the decision (its kind, who acts, the drawn tile), tiles left, the turn, scores,
//!   supplies, the tiles still to come by type, the Count's quarters and the goods tokens.
//!
//! Seats are counted from the observer (0 is the observer, 1 the next seat, …). The bag's
//! order is not in it, only how many tiles of each type are still to come.

use crate::space::{Layout, spot_index, tile_count};
use castellan::data::printed::{CATHEDRAL, DRAGON, Good, INN, PORTAL, PRINCESS, VOLCANO};
use castellan::engine::action::DecisionKind;
use castellan::engine::game::Game;
use castellan::mechanic::count::rules::Quarter;
use castellan::model::geometry::{Edge, HALF_NAMES, Spot};
use castellan::model::tile::{FeatureKind, TileType};

/// Edges in observation order.
const EDGES: [Edge; 4] = [Edge::N, Edge::E, Edge::S, Edge::W];
/// Decision kinds in the vector: place, deploy, mechanic, script, game over.
const DECISION_KINDS: usize = 5;

/// The columns of a `tiles` row before the figures' (`TILE_FIXED` of them).
const TILE_FIXED_NAMES: [&str; 32] = [
    "present",
    "x",
    "y",
    "type",
    "rotation",
    "edge_N",
    "edge_E",
    "edge_S",
    "edge_W",
    "part_N",
    "part_E",
    "part_S",
    "part_W",
    "part_NL",
    "part_NR",
    "part_EL",
    "part_ER",
    "part_SL",
    "part_SR",
    "part_WL",
    "part_WR",
    "centre",
    "pennants",
    "princess",
    "volcano",
    "dragon_symbol",
    "portal",
    "inns",
    "cathedrals",
    "goods",
    "dragon",
    "fairy",
];
const TILE_FIXED: usize = TILE_FIXED_NAMES.len();

/// Builds observations for one layout.
pub struct Observer {
    pub layout: Layout,
    tiles: usize,
}

/// The numbers that describe a tile type turned `quarters` times: edge kinds, parts, centre,
/// pennants, princess, symbols, markers (columns 5 … 29 of a `tiles` row).
fn describe_tile(tile: &TileType, quarters: usize, row: &mut [f32]) {
    let o = &tile.oriented[quarters % 4];
    let part = |f: Option<u8>| f.map_or(0.0, |i| f32::from(i) + 1.0);
    for (i, e) in EDGES.into_iter().enumerate() {
        row[i] = o.edge_kind(e) as u8 as f32 + 1.0;
        row[4 + i] = part(o.feature_at(Spot::Edge(e)));
    }
    for h in 0..HALF_NAMES.len() {
        row[8 + h] = part(o.feature_at(Spot::Half(h as u8)));
    }
    row[16] = match o.features.iter().find(|f| f.is_centre()).map(|f| f.kind) {
        Some(FeatureKind::Cloister) => 1.0,
        Some(_) => 2.0,
        None => 0.0,
    };
    row[17] = o.features.iter().map(|f| f32::from(f.pennants)).sum();
    row[18] = f32::from(u8::from(
        o.features.iter().any(|f| f.counters.get(PRINCESS) > 0),
    ));
    row[19] = f32::from(u8::from(tile.symbol == Some(VOLCANO)));
    row[20] = f32::from(u8::from(tile.symbol == Some(DRAGON)));
    row[21] = f32::from(u8::from(tile.symbol == Some(PORTAL)));
    row[22] = o
        .features
        .iter()
        .map(|f| f32::from(f.counters.get(INN)))
        .sum();
    row[23] = o
        .features
        .iter()
        .map(|f| f32::from(f.counters.get(CATHEDRAL)))
        .sum();
    row[24] = o
        .features
        .iter()
        .map(|f| {
            Good::ALL
                .iter()
                .map(|g| f32::from(f.counters.get(g.counter())))
                .sum::<f32>()
        })
        .sum();
}

/// The length of [`describe_tile`]'s part of a row.
const TILE_DESCRIPTION: usize = 25;

impl Observer {
    pub fn new(layout: Layout) -> Observer {
        let tiles = tile_count(&layout.rules);
        Observer { layout, tiles }
    }

    fn tile_columns(&self) -> usize {
        TILE_FIXED + self.layout.players * self.layout.figures.len()
    }

    /// The `tiles` table's shape: a row for every tile of the game.
    pub fn tiles_shape(&self) -> (usize, usize) {
        (self.tiles, self.tile_columns())
    }

    pub fn tile_column_names(&self) -> Vec<String> {
        let mut names: Vec<String> = TILE_FIXED_NAMES.iter().map(|s| s.to_string()).collect();
        for seat in 0..self.layout.players {
            for f in &self.layout.figures {
                names.push(format!("seat{seat}_{}", f.name()));
            }
        }
        names
    }

    /// The vector's entries, by name.
    pub fn vector_names(&self) -> Vec<String> {
        let l = &self.layout;
        let mut names: Vec<String> = ["place", "deploy", "mechanic", "script", "game_over"]
            .iter()
            .map(|s| format!("decision_{s}"))
            .collect();
        names.extend((0..l.players).map(|s| format!("acting_seat{s}")));
        names.push("drawn_type".into());
        names.extend(
            TILE_FIXED_NAMES[5..5 + TILE_DESCRIPTION]
                .iter()
                .map(|c| format!("drawn_{c}")),
        );
        names.extend(["tiles_left", "turn"].map(String::from));
        names.extend((0..l.players).map(|s| format!("score_seat{s}")));
        for s in 0..l.players {
            names.extend(
                l.figures
                    .iter()
                    .map(|f| format!("supply_seat{s}_{}", f.name())),
            );
        }
        names.extend(l.rules.tiles.iter().map(|t| format!("to_come_{}", t.id)));
        names.extend(
            Quarter::ALL
                .iter()
                .map(|q| format!("count_at_{}", q.name())),
        );
        for s in 0..l.players {
            for q in Quarter::ALL {
                names.extend(
                    l.figures
                        .iter()
                        .map(|f| format!("quarter_seat{s}_{}_{}", q.name(), f.name())),
                );
            }
            names.push(format!("moving_seat{s}"));
        }
        for s in 0..l.players {
            names.extend(["wine", "grain", "cloth"].map(|g| format!("goods_seat{s}_{g}")));
        }
        names
    }

    pub fn vector_size(&self) -> usize {
        let l = &self.layout;
        let (p, k) = (l.players, l.figures.len());
        DECISION_KINDS
            + p
            + 1
            + TILE_DESCRIPTION
            + 2
            + p
            + p * k
            + l.rules.tiles.len()
            + 4
            + p * (4 * k + 1)
            + 3 * p
    }

    /// The `tiles` table (the rows of the tiles laid: the rest of its rows are zero) and the
    /// vector for the player in `me`.
    pub fn observe(&self, game: &Game, me: usize) -> (Vec<f32>, Vec<f32>) {
        let p = self.layout.players;
        let rel = |seat: usize| (seat + p - me % p) % p;
        (self.tiles(game, &rel), self.vector(game, &rel))
    }

    fn tiles(&self, game: &Game, rel: &impl Fn(usize) -> usize) -> Vec<f32> {
        let columns = self.tile_columns();
        let placed = game.board().tiles();
        // The rows of the tiles laid; the caller pads the table with zero rows.
        let mut out = vec![0f32; placed.len() * columns];
        for (p, row) in placed.iter().zip(out.chunks_exact_mut(columns)) {
            row[0] = 1.0;
            row[1] = p.pos.x as f32;
            row[2] = p.pos.y as f32;
            row[3] = f32::from(p.tile) + 1.0;
            row[4] = p.rotation.quarters() as f32;
            describe_tile(
                self.layout.rules.tile(p.tile),
                p.rotation.quarters(),
                &mut row[5..5 + TILE_DESCRIPTION],
            );
        }
        let row_of = |pos| placed.iter().position(|t| t.pos == pos);
        if let Some(i) = game.dragon().and_then(row_of) {
            out[i * columns + 30] = 1.0;
        }
        if let Some(fairy) = game.fairy()
            && let Some(i) = row_of(fairy.pos)
        {
            // 1 on its own; 2 + the spot of the follower it stands next to.
            let next_to = fairy
                .follower
                .and_then(|id| game.figures().iter().find(|f| f.id == id))
                .map(|f| spot_index(game.figure_spot(f).1) as f32 + 2.0);
            out[i * columns + 31] = next_to.unwrap_or(1.0);
        }
        let kinds = self.layout.figures.len();
        for f in game.figures() {
            let (pos, spot) = game.figure_spot(f);
            let (Some(i), Some(k)) = (
                row_of(pos),
                self.layout.figures.iter().position(|x| *x == f.kind),
            ) else {
                continue;
            };
            let column = TILE_FIXED + rel(f.owner) * kinds + k;
            out[i * columns + column] += (1u32 << spot_index(spot)) as f32;
        }
        out
    }

    fn vector(&self, game: &Game, rel: &impl Fn(usize) -> usize) -> Vec<f32> {
        let l = &self.layout;
        let (p, kinds) = (l.players, l.figures.len());
        let mut v = vec![0f32; self.vector_size()];
        let decision = game.decision();
        v[match decision.kind {
            DecisionKind::PlaceTile { .. } => 0,
            DecisionKind::Deploy => 1,
            DecisionKind::Mechanic(_) => 2,
            DecisionKind::Script => 3,
            DecisionKind::GameOver => 4,
        }] = 1.0;
        if !game.is_over() {
            v[DECISION_KINDS + rel(decision.player)] = 1.0;
        }
        let mut at = DECISION_KINDS + p;
        if let DecisionKind::PlaceTile { tile } = decision.kind {
            v[at] = f32::from(tile) + 1.0;
            describe_tile(
                l.rules.tile(tile),
                0,
                &mut v[at + 1..at + 1 + TILE_DESCRIPTION],
            );
        }
        at += 1 + TILE_DESCRIPTION;
        v[at] = game.tiles_left() as f32;
        v[at + 1] = game.turn() as f32;
        at += 2;
        for seat in 0..p {
            v[at + rel(seat)] = game.scores()[seat] as f32;
            for (k, kind) in l.figures.iter().enumerate() {
                v[at + p + rel(seat) * kinds + k] = f32::from(game.supply(seat, *kind));
            }
        }
        at += p + p * kinds;
        let mut to_come = Vec::new();
        game.count_to_come(&mut to_come);
        for (i, c) in to_come.iter().enumerate() {
            v[at + i] = f32::from(*c);
        }
        at += l.rules.tiles.len();
        if let Some(count) = castellan::mechanic::count::state(game) {
            v[at + count.at() as usize] = 1.0;
            for seat in 0..p {
                let base = at + 4 + rel(seat) * (4 * kinds + 1);
                for (qi, q) in Quarter::ALL.into_iter().enumerate() {
                    for (k, kind) in l.figures.iter().enumerate() {
                        v[base + qi * kinds + k] = f32::from(count.in_quarter_of(seat, q, *kind));
                    }
                }
                v[base + 4 * kinds] = f32::from(count.moving(seat));
            }
        }
        at += 4 + p * (4 * kinds + 1);
        for (seat, goods) in castellan::mechanic::tb::goods(game)
            .iter()
            .enumerate()
            .take(p)
        {
            for (g, n) in goods.iter().enumerate() {
                v[at + 3 * rel(seat) + g] = *n as f32;
            }
        }
        v
    }
}
