//! The fixed-size action space and the observation of the multi-agent environment
//! (`castellan.env`), for any ruleset. docs/python.md describes the layout.
//!
//! Positions are taken in a square window of `side` cells whose corner is one cell up and
//! left of the board's top-left tile, so it holds every tile and every cell a tile can be laid
//! on: a board of n tiles that touch spans at most n cells each way, plus one cell of frontier
//! on each side (`side` = the ruleset's tiles + 2). Indices, in blocks:
//! - 0: pass;
//! - 1 …: script offers, by their rank among the script actions of the decision (at most
//!   [`SCRIPT_SLOTS`]);
//! - the global mechanic block: mechanic actions that records write without a position (the
//!   Count's quarters, the princess's claim, …), by (record key, first and second small value
//!   of the payload, figure row);
//! - the cell block, `per_cell` indices per window cell: the 4 rotations of a placement, a
//!   deployment's 14 spots × figure rows, and the positional mechanic actions (dragon, fairy,
//!   removals, recalls, scorings) by (record key, spot code).
//!
//! Mechanic actions are placed generically, from their record form and the bytes of their
//! payload: no mechanic is named here. An action that falls outside its block's bounds, or two
//! legal actions that share an index, are reported as errors (the tests play every shipped
//! ruleset to check that none does).

use crate::errors::other;
use crate::game::{PyAction, PyGame};
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::{Action, DecisionKind};
use castellan::engine::game::Game;
use castellan::engine::vocabulary;
use castellan::model::figure::FigureKind;
use castellan::model::geometry::{Edge, Pos, Spot};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Arc;

/// Rotations of a placement.
const ROTATIONS: usize = 4;
/// Spots of a tile: 4 edges, 8 half-edges, the cloister, the inner spot.
const SPOTS: usize = 14;
/// Values of a mechanic action's second small value (a count, a figure kind).
const CODES: usize = 16;
/// Codes of a spot (0: none) in a positional mechanic action's first small value.
const SPOT_CODES: usize = 15;
/// Values of a mechanic action's first small value (a quarter); each record key is one kind of
/// action, so the key stands for the verb.
const VERBS: usize = 16;
/// Script offers of one decision.
pub const SCRIPT_SLOTS: usize = 64;
/// Board planes before the players' (tile present, edge kinds N E S W).
const TILE_PLANES: usize = 5;
/// Decision kinds in the observation: place, deploy, mechanic, script, game over.
const DECISION_KINDS: usize = 5;

/// The layout of one ruleset's action space and observation.
struct Layout {
    rules: Arc<Ruleset>,
    side: i32,
    players: usize,
    figures: Vec<FigureKind>,
    /// The mechanics' record keys (`dragon`, `quarter`, …), in registry order.
    keys: Vec<&'static str>,
}

/// The window's top-left cell for this board.
fn window_corner(game: &Game) -> Pos {
    let tiles = game.board().tiles();
    let x = tiles.iter().map(|p| p.pos.x).min().unwrap_or(0);
    let y = tiles.iter().map(|p| p.pos.y).min().unwrap_or(0);
    Pos::new(x - 1, y - 1)
}

/// A spot's index among the 14.
fn spot_index(spot: Spot) -> usize {
    match spot {
        Spot::Edge(e) => e as usize,
        Spot::Half(h) => 4 + usize::from(h),
        Spot::Cloister => 12,
        Spot::Inner => 13,
    }
}

/// Whether a record value starts with the action's position (`dragon = [x, y]`).
fn written_at(value: &toml::Value, pos: Pos) -> bool {
    let Some(items) = value.as_array() else {
        return false;
    };
    matches!(
        (items.first().and_then(toml::Value::as_integer), items.get(1).and_then(toml::Value::as_integer)),
        (Some(x), Some(y)) if x == i64::from(pos.x) && y == i64::from(pos.y)
    )
}

impl Layout {
    fn new(rules: Arc<Ruleset>, players: usize) -> Layout {
        let tiles: u32 =
            rules.tiles.iter().map(|t| t.count).sum::<u32>() + rules.start.len() as u32;
        // The figures players have (a row with none in supply is never deployed).
        let figures = rules
            .figures
            .rows()
            .iter()
            .filter(|r| r.per_player > 0)
            .map(|r| r.kind)
            .collect();
        let keys = castellan::registry::vocabularies_in(&rules)
            .iter()
            .flat_map(|v| v.record_keys().iter().map(|k| k.key))
            .collect();
        Layout {
            rules,
            side: tiles as i32 + 2,
            players,
            figures,
            keys,
        }
    }

    fn cells(&self) -> usize {
        (self.side * self.side) as usize
    }

    fn per_cell(&self) -> usize {
        ROTATIONS + SPOTS * self.figures.len() + self.keys.len() * SPOT_CODES
    }

    fn global_start(&self) -> usize {
        1 + SCRIPT_SLOTS
    }

    fn global_size(&self) -> usize {
        self.keys.len() * VERBS * CODES * self.figures.len()
    }

    fn cell_start(&self) -> usize {
        self.global_start() + self.global_size()
    }

    fn size(&self) -> usize {
        self.cell_start() + self.cells() * self.per_cell()
    }

    fn figure_row(&self, kind: FigureKind) -> Result<usize, String> {
        self.figures
            .iter()
            .position(|k| *k == kind)
            .ok_or_else(|| format!("the figure `{}` is not in the ruleset's table", kind.name()))
    }

    /// The window cell of `pos`, from 0.
    fn cell(&self, corner: Pos, pos: Pos) -> Result<usize, String> {
        let (dx, dy) = (pos.x - corner.x, pos.y - corner.y);
        if !(0..self.side).contains(&dx) || !(0..self.side).contains(&dy) {
            return Err(format!("{pos} lies outside the {0}×{0} window", self.side));
        }
        Ok((dy * self.side + dx) as usize)
    }

    /// The index of `action`; `rank` is its rank among the decision's script actions.
    fn index(&self, corner: Pos, action: &Action, rank: usize) -> Result<usize, String> {
        let at_cell = |pos: Pos, slot: usize| -> Result<usize, String> {
            Ok(self.cell_start() + self.cell(corner, pos)? * self.per_cell() + slot)
        };
        match *action {
            Action::Pass => Ok(0),
            Action::Script(_) if rank < SCRIPT_SLOTS => Ok(1 + rank),
            Action::Script(_) => Err(format!("more than {SCRIPT_SLOTS} script offers")),
            Action::Place { pos, rotation } => at_cell(pos, rotation.quarters()),
            Action::Deploy { pos, spot, figure } => at_cell(
                pos,
                ROTATIONS + spot_index(spot) * self.figures.len() + self.figure_row(figure)?,
            ),
            Action::Mechanic(m) => {
                let v = vocabulary::of(m.mechanic).ok_or("a mechanic action of no family")?;
                let (key, value) = v.record(&m);
                let lane = self
                    .keys
                    .iter()
                    .position(|k| *k == key)
                    .ok_or_else(|| format!("unknown record key `{key}`"))?;
                let (first, second) = (usize::from(m.bytes[0]), usize::from(m.bytes[1]));
                let pos = Pos::new(m.ints[0], m.ints[1]);
                if written_at(&value, pos) {
                    let code = first;
                    if code >= SPOT_CODES {
                        return Err(format!("the `{key}` action {m:?} is out of range"));
                    }
                    let slot = ROTATIONS + SPOTS * self.figures.len() + lane * SPOT_CODES + code;
                    return at_cell(pos, slot);
                }
                if first >= VERBS || second >= CODES {
                    return Err(format!("the `{key}` action {m:?} is out of range"));
                }
                let row = self.figure_row(v.record_figure(&m).unwrap_or(FigureKind::Follower))?;
                let at = ((lane * VERBS + first) * CODES + second) * self.figures.len();
                Ok(self.global_start() + at + row)
            }
        }
    }

    /// The legal actions with their indices; an error if one has none or two share one.
    fn legal(&self, game: &Game) -> Result<Vec<(usize, Action)>, String> {
        let corner = window_corner(game);
        let mut rank = 0;
        let mut out = Vec::new();
        for a in game.legal() {
            out.push((self.index(corner, &a, rank)?, a));
            if matches!(a, Action::Script(_)) {
                rank += 1;
            }
        }
        let mut seen: Vec<usize> = out.iter().map(|(i, _)| *i).collect();
        seen.sort_unstable();
        seen.dedup();
        if seen.len() != out.len() {
            return Err("two legal actions share an index".into());
        }
        Ok(out)
    }

    fn planes(&self) -> usize {
        TILE_PLANES + self.players + 2
    }

    fn vector_size(&self) -> usize {
        DECISION_KINDS + self.players + 5 + 2 + self.players + self.players * self.figures.len()
    }

    /// The board planes (planes × side × side) and the vector, from `me`'s seat: seats are
    /// counted from `me` (0 is `me`, 1 the next seat, …).
    fn observe(&self, game: &Game, me: usize) -> (Vec<f32>, Vec<f32>) {
        let n = self.side as usize;
        let corner = window_corner(game);
        let mut board = vec![0f32; self.planes() * n * n];
        let rel = |seat: usize| (seat + self.players - me % self.players) % self.players;
        let mut put = |plane: usize, pos: Pos, value: f32| {
            if let Ok(cell) = self.cell(corner, pos) {
                board[plane * n * n + cell] += value;
            }
        };
        for p in game.board().tiles() {
            put(0, p.pos, 1.0);
            let oriented = self.rules.tile(p.tile).at(p.rotation);
            for (i, edge) in [Edge::N, Edge::E, Edge::S, Edge::W].into_iter().enumerate() {
                put(1 + i, p.pos, oriented.edge_kind(edge) as u8 as f32 + 1.0);
            }
        }
        for f in game.figures() {
            let (pos, _) = game.figure_spot(f);
            put(TILE_PLANES + rel(f.owner), pos, 1.0);
        }
        if let Some(pos) = game.dragon() {
            put(TILE_PLANES + self.players, pos, 1.0);
        }
        if let Some(fairy) = game.fairy() {
            put(TILE_PLANES + self.players + 1, fairy.pos, 1.0);
        }
        (board, self.vector(game, rel))
    }

    fn vector(&self, game: &Game, rel: impl Fn(usize) -> usize) -> Vec<f32> {
        let mut v = vec![0f32; self.vector_size()];
        let decision = game.decision();
        let kind = match decision.kind {
            DecisionKind::PlaceTile { .. } => 0,
            DecisionKind::Deploy => 1,
            DecisionKind::Mechanic(_) => 2,
            DecisionKind::Script => 3,
            DecisionKind::GameOver => 4,
        };
        v[kind] = 1.0;
        v[DECISION_KINDS + rel(decision.player)] = 1.0;
        let at = DECISION_KINDS + self.players;
        if let DecisionKind::PlaceTile { tile } = decision.kind {
            let t = self.rules.tile(tile);
            for (i, e) in t.edges.iter().enumerate() {
                v[at + i] = *e as u8 as f32 + 1.0;
            }
            v[at + 4] = f32::from(tile) + 1.0;
        }
        v[at + 5] = game.tiles_left() as f32;
        v[at + 6] = game.turn() as f32;
        let scores = at + 7;
        let supply = scores + self.players;
        for seat in 0..self.players {
            let r = rel(seat);
            v[scores + r] = game.scores()[seat] as f32;
            for (row, kind) in self.figures.iter().enumerate() {
                v[supply + r * self.figures.len() + row] = f32::from(game.supply(seat, *kind));
            }
        }
        v
    }
}

/// The fixed-size action space and the observation of one ruleset for a number of players.
#[pyclass(name = "ActionSpace", module = "castellan._castellan", frozen)]
pub struct PyActionSpace {
    layout: Layout,
}

fn bytes_of(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[pymethods]
impl PyActionSpace {
    /// The space of `ruleset` (a name, a path or a loaded `Ruleset`) for `players` seats.
    #[new]
    fn py_new(py: Python<'_>, ruleset: &Bound<'_, PyAny>, players: usize) -> PyResult<Self> {
        let rules = match ruleset.cast::<crate::data::PyRuleset>() {
            Ok(r) => Arc::clone(&r.get().rules),
            Err(_) => {
                let name: std::path::PathBuf = ruleset.extract()?;
                crate::data::PyRuleset::open(py, &name.to_string_lossy())?.rules
            }
        };
        Ok(PyActionSpace {
            layout: Layout::new(rules, players),
        })
    }

    /// The number of actions.
    #[getter]
    fn size(&self) -> usize {
        self.layout.size()
    }

    /// The window's side in cells.
    #[getter]
    fn side(&self) -> usize {
        self.layout.side as usize
    }

    /// The board observation's shape: (planes, side, side).
    #[getter]
    fn board_shape(&self) -> (usize, usize, usize) {
        let n = self.layout.side as usize;
        (self.layout.planes(), n, n)
    }

    /// The length of the observation's vector.
    #[getter]
    fn vector_size(&self) -> usize {
        self.layout.vector_size()
    }

    /// Where each block starts and how it is laid out.
    fn layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let l = &self.layout;
        let d = PyDict::new(py);
        d.set_item("pass", 0)?;
        d.set_item("script_start", 1)?;
        d.set_item("script_slots", SCRIPT_SLOTS)?;
        d.set_item("global_start", l.global_start())?;
        d.set_item("global_size", l.global_size())?;
        d.set_item("cell_start", l.cell_start())?;
        d.set_item("per_cell", l.per_cell())?;
        d.set_item("side", l.side)?;
        d.set_item(
            "figures",
            l.figures.iter().map(|f| f.name()).collect::<Vec<_>>(),
        )?;
        d.set_item("mechanic_keys", l.keys.clone())?;
        d.set_item("codes", CODES)?;
        d.set_item("spot_codes", SPOT_CODES)?;
        d.set_item("verbs", VERBS)?;
        d.set_item("size", l.size())?;
        Ok(d)
    }

    /// The indices of the legal actions of the game's pending decision, in the engine's order.
    fn legal_indices(&self, game: &PyGame) -> PyResult<Vec<usize>> {
        let legal = self.layout.legal(&game.game).map_err(other)?;
        Ok(legal.into_iter().map(|(i, _)| i).collect())
    }

    /// The index of `action` in the game's current state.
    fn index_of(&self, game: &PyGame, action: &PyAction) -> PyResult<usize> {
        let legal = self.layout.legal(&game.game).map_err(other)?;
        legal
            .into_iter()
            .find(|(_, a)| *a == action.action)
            .map(|(i, _)| i)
            .ok_or_else(|| other("the action is not legal now"))
    }

    /// The legal action at `index`; `IllegalActionError` if none is.
    fn action_at(&self, game: &PyGame, index: usize) -> PyResult<PyAction> {
        let legal = self.layout.legal(&game.game).map_err(other)?;
        legal
            .into_iter()
            .find(|(i, _)| *i == index)
            .map(|(_, a)| PyAction::new(a))
            .ok_or_else(|| {
                crate::errors::IllegalActionError::new_err(format!(
                    "action index {index} is not legal now"
                ))
            })
    }

    /// Plays the legal action at `index`; `IllegalActionError` (and no change) if none is.
    fn apply(&self, py: Python<'_>, game: &mut PyGame, index: usize) -> PyResult<()> {
        let action = self.action_at(game, index)?;
        game.play(py, &action.action, true)
    }

    /// The observation for the player in `seat`: the board planes and the vector as
    /// little-endian float32 bytes (see docs/python.md).
    fn observe<'py>(
        &self,
        py: Python<'py>,
        game: &PyGame,
        seat: usize,
    ) -> (Bound<'py, PyBytes>, Bound<'py, PyBytes>) {
        let (board, vector) = self.layout.observe(&game.game, seat);
        (
            PyBytes::new(py, &bytes_of(&board)),
            PyBytes::new(py, &bytes_of(&vector)),
        )
    }
}
