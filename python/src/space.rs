//! The action space of the multi-agent environment (`castellan.env`), for any ruleset:
//! legal-index actions with a bounded mask. docs/python.md argues the choice.
//!
//! Action `i` is the `i`-th legal action of the pending decision, in the engine's order, for
//! `i` below the number of legal actions; the mask has `max_actions` entries, the first that
//! many set. What each index means is told by the observation's `actions` table: one row of
//! [`ACTION_COLUMNS`] numbers per legal action (its kind, where, turned how, which spot,
//! figure and mechanic), so a policy scores rows (a pointer head) rather than learning a fixed
//! map from millions of indices of which a few hundred are ever legal at once.
//!
//! A decision with more legal actions than `max_actions` is reported as an error, never cut
//! short; the tests play every shipped ruleset to check that the default bound holds.

use crate::errors::other;
use crate::game::{PyAction, PyGame};
use crate::observe::Observer;
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::game::Game;
use castellan::engine::vocabulary;
use castellan::model::figure::FigureKind;
use castellan::model::geometry::Spot;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Arc;

/// Numbers that describe one legal action (a row of the observation's `actions` table).
pub const ACTION_COLUMNS: usize = 15;

/// The columns of a row of the `actions` table, in order (docs/python.md explains them).
pub const ACTION_COLUMN_NAMES: [&str; ACTION_COLUMNS] = [
    "pass",
    "place",
    "deploy",
    "mechanic",
    "script",
    "x",
    "y",
    "rotation",
    "spot",
    "figure",
    "key",
    "verb",
    "argument",
    "positional",
    "extra",
];

/// A spot's number among the 14 (N E S W, the half-edges NL NR EL ER SL SR WL WR, the
/// cloister C, the inner spot I).
pub fn spot_index(spot: Spot) -> usize {
    match spot {
        Spot::Edge(e) => e as usize,
        Spot::Half(h) => 4 + usize::from(h),
        Spot::Cloister => 12,
        Spot::Inner => 13,
    }
}

/// Whether a record value starts with the action's position (`dragon = [x, y]`).
fn written_at(value: &toml::Value, x: i32, y: i32) -> bool {
    let Some(items) = value.as_array() else {
        return false;
    };
    matches!(
        (items.first().and_then(toml::Value::as_integer), items.get(1).and_then(toml::Value::as_integer)),
        (Some(ax), Some(ay)) if ax == i64::from(x) && ay == i64::from(y)
    )
}

/// The bound on legal actions of one ruleset when none is given: four rotations on every
/// cell of the largest frontier its tiles can make (2 per tile laid, plus 2), with room for
/// deployments through a portal and the mechanics' offers.
fn default_bound(tiles: usize) -> usize {
    (8 * tiles + 8).max(256).next_power_of_two()
}

/// The layout of one ruleset's actions: the figure rows and mechanic keys that rows name.
pub struct Layout {
    pub rules: Arc<Ruleset>,
    pub players: usize,
    /// The figure kinds of the ruleset's table, in its order.
    pub figures: Vec<FigureKind>,
    /// The mechanics' record keys (`dragon`, `quarter`, …), in registry order.
    keys: Vec<&'static str>,
    /// The most legal actions of one decision (the mask's length).
    pub max_actions: usize,
}

impl Layout {
    pub fn new(rules: Arc<Ruleset>, players: usize, max_actions: Option<usize>) -> Layout {
        let figures = rules.figures.rows().iter().map(|r| r.kind).collect();
        let keys = castellan::registry::vocabularies_in(&rules)
            .iter()
            .flat_map(|v| v.record_keys().iter().map(|k| k.key))
            .collect();
        let tiles = tile_count(&rules);
        Layout {
            rules,
            players,
            figures,
            keys,
            max_actions: max_actions.unwrap_or_else(|| default_bound(tiles)),
        }
    }

    fn figure_row(&self, kind: FigureKind) -> usize {
        self.figures
            .iter()
            .position(|k| *k == kind)
            .map_or(0, |r| r + 1)
    }

    /// The row of the `actions` table that describes `action`; `rank` is its rank among the
    /// decision's script actions.
    pub fn describe(&self, action: &Action, rank: usize, row: &mut [f32]) {
        row.fill(0.0);
        let mut at = |column: usize, value: f32| row[column] = value;
        match *action {
            Action::Pass => at(0, 1.0),
            Action::Place { pos, rotation } => {
                at(1, 1.0);
                at(5, pos.x as f32);
                at(6, pos.y as f32);
                at(7, rotation.quarters() as f32);
            }
            Action::Deploy { pos, spot, figure } => {
                at(2, 1.0);
                at(5, pos.x as f32);
                at(6, pos.y as f32);
                at(8, spot_index(spot) as f32 + 1.0);
                at(9, self.figure_row(figure) as f32);
            }
            Action::Mechanic(m) => {
                at(3, 1.0);
                at(5, m.ints[0] as f32);
                at(6, m.ints[1] as f32);
                if let Some(v) = vocabulary::of(m.mechanic) {
                    let (key, value) = v.record(&m);
                    let lane = self
                        .keys
                        .iter()
                        .position(|k| *k == key)
                        .map_or(0, |l| l + 1);
                    at(10, lane as f32);
                    at(14, f32::from(m.bytes[1]));
                    at(
                        13,
                        f32::from(u8::from(written_at(&value, m.ints[0], m.ints[1]))),
                    );
                    if let Some(kind) = v.record_figure(&m) {
                        at(9, self.figure_row(kind) as f32);
                    }
                }
                at(11, f32::from(m.verb));
                at(12, f32::from(m.bytes[0]));
            }
            Action::Script(_) => {
                at(4, 1.0);
                at(14, rank as f32);
            }
        }
    }

    /// The legal actions of the pending decision; an error if there are more than the bound.
    pub fn legal(&self, game: &Game, out: &mut Vec<Action>) -> Result<(), String> {
        game.legal_actions(out);
        if out.len() > self.max_actions {
            return Err(format!(
                "this decision has {} legal actions, more than the space's bound of {} \
                 (make the space with a larger max_actions)",
                out.len(),
                self.max_actions
            ));
        }
        Ok(())
    }

    /// The `actions` table of `legal`, one row each, into `out` (rows past the legal ones, if
    /// any, are left as they are).
    pub fn table(&self, legal: &[Action], out: &mut [f32]) {
        let mut rank = 0;
        for (a, row) in legal.iter().zip(out.chunks_exact_mut(ACTION_COLUMNS)) {
            self.describe(a, rank, row);
            if matches!(a, Action::Script(_)) {
                rank += 1;
            }
        }
    }
}

/// How many tiles a game of `rules` has (start tiles and bag).
pub fn tile_count(rules: &Ruleset) -> usize {
    rules.tiles.iter().map(|t| t.count as usize).sum::<usize>() + rules.start.len()
}

/// The action space and the observation of one ruleset for a number of players.
#[pyclass(name = "ActionSpace", module = "castellan._castellan", frozen)]
pub struct PyActionSpace {
    observer: Observer,
}

/// An observation as Python gets it: the `tiles`, `vector` and `actions` tables as float32
/// bytes, and the number of legal actions.
type Observation<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    usize,
);

/// `values` as little-endian float32 bytes, zero-padded to `floats` floats, written straight
/// into a new Python `bytes` (no copy in between).
fn float_bytes<'py>(
    py: Python<'py>,
    values: &[f32],
    floats: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, 4 * floats.max(values.len()), |buf| {
        for (chunk, v) in buf.chunks_exact_mut(4).zip(values) {
            chunk.copy_from_slice(&v.to_le_bytes());
        }
        Ok(())
    })
}

impl PyActionSpace {
    fn spec(&self) -> &Layout {
        &self.observer.layout
    }

    fn legal(&self, game: &PyGame) -> PyResult<Vec<Action>> {
        let mut out = Vec::new();
        self.spec().legal(&game.game, &mut out).map_err(other)?;
        Ok(out)
    }
}

#[pymethods]
impl PyActionSpace {
    /// The space of `ruleset` (a name, a path or a loaded `Ruleset`) for `players` seats;
    /// `max_actions` bounds the legal actions of one decision (the mask's length).
    #[new]
    #[pyo3(signature = (ruleset, players, max_actions = None))]
    fn py_new(
        py: Python<'_>,
        ruleset: &Bound<'_, PyAny>,
        players: usize,
        max_actions: Option<usize>,
    ) -> PyResult<Self> {
        let rules = crate::data::rules_of(py, ruleset)?;
        Ok(PyActionSpace {
            observer: Observer::new(Layout::new(rules, players, max_actions)),
        })
    }

    /// The number of actions (the mask's length): the most legal actions of one decision.
    #[getter]
    fn size(&self) -> usize {
        self.spec().max_actions
    }

    /// The shape of the observation's `actions` table: (size, columns).
    #[getter]
    fn actions_shape(&self) -> (usize, usize) {
        (self.spec().max_actions, ACTION_COLUMNS)
    }

    /// The shape of the observation's `tiles` table: (tiles, columns).
    #[getter]
    fn tiles_shape(&self) -> (usize, usize) {
        self.observer.tiles_shape()
    }

    /// The length of the observation's vector.
    #[getter]
    fn vector_size(&self) -> usize {
        self.observer.vector_size()
    }

    /// The names of the columns of the `actions` and `tiles` tables and of the vector's
    /// entries, and the figure rows and mechanic keys that their numbers refer to.
    fn layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let l = self.spec();
        let d = PyDict::new(py);
        d.set_item("size", l.max_actions)?;
        d.set_item("action_columns", ACTION_COLUMN_NAMES.to_vec())?;
        d.set_item("tile_columns", self.observer.tile_column_names())?;
        d.set_item("vector", self.observer.vector_names())?;
        d.set_item(
            "figures",
            l.figures.iter().map(|f| f.name()).collect::<Vec<_>>(),
        )?;
        d.set_item("mechanic_keys", l.keys.clone())?;
        d.set_item(
            "tile_types",
            l.rules
                .tiles
                .iter()
                .map(|t| t.id.to_string())
                .collect::<Vec<_>>(),
        )?;
        Ok(d)
    }

    /// The indices of the legal actions of the game's pending decision: `0 … n-1`.
    fn legal_indices(&self, game: &PyGame) -> PyResult<Vec<usize>> {
        Ok((0..self.legal(game)?.len()).collect())
    }

    /// The index of `action` in the game's current state.
    fn index_of(&self, game: &PyGame, action: &PyAction) -> PyResult<usize> {
        self.legal(game)?
            .iter()
            .position(|a| *a == action.action)
            .ok_or_else(|| other("the action is not legal now"))
    }

    /// The legal action at `index`; `IllegalActionError` if none is.
    fn action_at(&self, game: &PyGame, index: usize) -> PyResult<PyAction> {
        self.legal(game)?
            .get(index)
            .map(|a| PyAction::new(*a))
            .ok_or_else(|| {
                crate::errors::IllegalActionError::new_err(format!(
                    "action index {index} is not legal now"
                ))
            })
    }

    /// Plays the legal action at `index`; `IllegalActionError` (and no change) if none is.
    /// Returns how many legal actions the next decision has (0 once the game is over).
    fn apply(&self, py: Python<'_>, game: &mut PyGame, index: usize) -> PyResult<usize> {
        game.apply_nth(py, index)
    }

    /// The `actions` table of the pending decision: one row per legal action (see
    /// `layout()["action_columns"]`), zero rows after, as little-endian float32 bytes.
    fn describe<'py>(&self, py: Python<'py>, game: &PyGame) -> PyResult<Bound<'py, PyBytes>> {
        let legal = self.legal(game)?;
        let mut table = vec![0f32; legal.len() * ACTION_COLUMNS];
        self.spec().table(&legal, &mut table);
        float_bytes(py, &table, self.spec().max_actions * ACTION_COLUMNS)
    }

    /// The observation for the player in `seat`: `(tiles, vector, actions, n)`, the three
    /// tables as little-endian float32 bytes (see docs/python.md) and the number of legal
    /// actions (`n`; the `actions` rows past it are zero, and so are all of them when `seat`
    /// does not act now).
    fn observe<'py>(
        &self,
        py: Python<'py>,
        game: &PyGame,
        seat: usize,
    ) -> PyResult<Observation<'py>> {
        let (tiles, vector) = self.observer.observe(&game.game, seat);
        let (rows, columns) = self.observer.tiles_shape();
        let acting = !game.game.is_over() && game.game.decision().player == seat;
        let legal = if acting {
            self.legal(game)?
        } else {
            Vec::new()
        };
        let mut table = vec![0f32; legal.len() * ACTION_COLUMNS];
        self.spec().table(&legal, &mut table);
        Ok((
            float_bytes(py, &tiles, rows * columns)?,
            float_bytes(py, &vector, 0)?,
            float_bytes(py, &table, self.spec().max_actions * ACTION_COLUMNS)?,
            legal.len(),
        ))
    }
}
