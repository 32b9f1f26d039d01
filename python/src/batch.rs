//! The batched environment (`castellan.vector.VectorEnv`): many games stepped by one call,
//! their masks, rewards and observations written in place into arrays that Python allocated
//! once, each game started anew when it ends. docs/python.md argues the design.
//!
//! The arrays are Python `bytearray`s that the Python side views as numpy arrays; the batch
//! writes into them while it holds the interpreter, and numpy's views keep them from being
//! resized. Every write is bounds-checked against the array's current length all the same.
//!
//! Game `j` of slot `i` (both from 0) has seed `seed + i + j × num_envs`, so a batch of `N`
//! slots plays the games of seeds `seed, seed + 1, …` that `castellan simulate --seed SEED`
//! plays, and `sample` draws as the CLI's random bot of that game draws: random actions in a
//! batch give the CLI's random games.

use crate::data::PyRuleset;
use crate::errors::{IllegalActionError, other, rule_error};
use crate::game::PyGame;
use crate::observe::Observer;
use crate::space::{ACTION_COLUMNS, Layout};
use castellan::bot::RandomBot;
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::event::Event;
use castellan::engine::game::{Game, Setup, Tally};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict};
use std::sync::Arc;

/// One game of the batch, with what stepping it by index needs.
struct Slot {
    game: Game,
    /// The pending decision's legal list, counted ([`Game::tally_legal`]).
    tally: Tally,
    scratch: Vec<Action>,
    /// The CLI's random bot of this game (`sample`).
    bot: RandomBot,
    /// The scores before the last step (the rewards are their changes).
    before: Vec<u32>,
    /// How many games this slot started before this one.
    number: u64,
}

impl Slot {
    fn start(rules: &Arc<Ruleset>, players: usize, seed: u64, number: u64) -> PyResult<Slot> {
        let names = (1..=players).map(|i| format!("P{i}")).collect();
        let (game, _) = Game::new(Arc::clone(rules), Setup::new(names, seed)).map_err(other)?;
        let mut slot = Slot {
            before: game.scores().to_vec(),
            game,
            tally: Tally::default(),
            scratch: Vec::new(),
            bot: RandomBot::for_game(seed),
            number,
        };
        slot.count();
        Ok(slot)
    }

    fn count(&mut self) -> usize {
        self.game.tally_legal(&mut self.tally, &mut self.scratch);
        self.tally.len()
    }
}

/// A typed view of one `bytearray`: element `i` of a little-endian array of `T`.
trait Element: Copy {
    const SIZE: usize;
    fn write(self, to: &mut [u8]);
}

macro_rules! element {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn write(self, to: &mut [u8]) {
                to.copy_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
element!(i8, i32, u64, f32);

/// Writes `values` from element `at` on (what does not fit is left out).
fn put<T: Element>(buf: &mut [u8], at: usize, values: impl IntoIterator<Item = T>) {
    let from = (at * T::SIZE).min(buf.len());
    for (chunk, v) in buf[from..].chunks_exact_mut(T::SIZE).zip(values) {
        v.write(chunk);
    }
}

/// Sets the bytes in `range` to `value` (what does not fit is left out).
fn fill(buf: &mut [u8], range: std::ops::Range<usize>, value: u8) {
    let end = range.end.min(buf.len());
    if let Some(bytes) = buf.get_mut(range.start.min(end)..end) {
        bytes.fill(value);
    }
}

/// Element `i` of a little-endian `int64` array, if there is one.
fn get_i64(buf: &[u8], i: usize) -> Option<i64> {
    let bytes = buf.get(8 * i..8 * i + 8)?;
    Some(i64::from_le_bytes(bytes.try_into().ok()?))
}

/// The arrays of a batch, Python `bytearray`s viewed by numpy (`arrays()` gives them with
/// their dtype and shape).
struct Arrays {
    /// The index of each game's action, written by Python or `sample` (int64, N).
    actions: Py<PyByteArray>,
    /// Each game's number of legal actions (int32, N).
    num_legal: Py<PyByteArray>,
    /// The first `num_legal` entries of each row set (int8, N × max_actions).
    action_mask: Py<PyByteArray>,
    /// The acting seat (int32, N).
    player: Py<PyByteArray>,
    /// Every seat's reward of the last step (float32, N × players).
    rewards: Py<PyByteArray>,
    /// Whether the last step ended the game (int8, N); the slot then holds a new game.
    terminated: Py<PyByteArray>,
    /// The scores (int32, N × players).
    scores: Py<PyByteArray>,
    /// The scores at the end of each slot's last finished game (int32, N × players).
    final_scores: Py<PyByteArray>,
    /// The seed of each slot's game (uint64, N).
    seeds: Py<PyByteArray>,
    /// The observation of the acting seat, when kept (float32, N × tiles × columns,
    /// N × vector, N × max_actions × action columns).
    tiles: Py<PyByteArray>,
    vector: Py<PyByteArray>,
    action_table: Py<PyByteArray>,
}

/// The bytes of one array, to write while the interpreter is held.
fn bytes<'a>(py: Python<'a>, array: &'a Py<PyByteArray>) -> &'a mut [u8] {
    // SAFETY: a batch touches its bytearrays only with the interpreter held, one at a time
    // (each slice is dropped before the next is taken), and calls no Python code (which could
    // resize one) while a slice lives; numpy's views keep them from being resized anyway.
    unsafe { array.bind(py).as_bytes_mut() }
}

impl Arrays {
    /// The arrays of `n` games: `(name, dtype, shape)` in order, and the arrays, zeroed.
    fn layout(
        n: usize,
        observer: &Observer,
        observations: bool,
    ) -> Vec<(&'static str, &'static str, Vec<usize>)> {
        let (p, a) = (observer.layout.players, observer.layout.max_actions);
        let (rows, columns) = observer.tiles_shape();
        let seen = |shape: Vec<usize>| if observations { shape } else { vec![n, 0] };
        vec![
            ("actions", "<i8", vec![n]),
            ("num_legal", "<i4", vec![n]),
            ("action_mask", "i1", vec![n, a]),
            ("player", "<i4", vec![n]),
            ("rewards", "<f4", vec![n, p]),
            ("terminated", "i1", vec![n]),
            ("scores", "<i4", vec![n, p]),
            ("final_scores", "<i4", vec![n, p]),
            ("seeds", "<u8", vec![n]),
            ("tiles", "<f4", seen(vec![n, rows, columns])),
            ("vector", "<f4", seen(vec![n, observer.vector_size()])),
            ("action_table", "<f4", seen(vec![n, a, ACTION_COLUMNS])),
        ]
    }

    fn new(py: Python<'_>, layout: &[(&str, &str, Vec<usize>)]) -> Arrays {
        let mut made = layout.iter().map(|(_, dtype, shape)| {
            let width = match dtype.as_bytes().last() {
                Some(b'1') => 1,
                Some(b'8') => 8,
                _ => 4,
            };
            PyByteArray::new(py, &vec![0u8; width * shape.iter().product::<usize>()]).unbind()
        });
        let mut next = || {
            made.next()
                .unwrap_or_else(|| PyByteArray::new(py, &[]).unbind())
        };
        Arrays {
            actions: next(),
            num_legal: next(),
            action_mask: next(),
            player: next(),
            rewards: next(),
            terminated: next(),
            scores: next(),
            final_scores: next(),
            seeds: next(),
            tiles: next(),
            vector: next(),
            action_table: next(),
        }
    }

    fn all(&self) -> [&Py<PyByteArray>; 12] {
        [
            &self.actions,
            &self.num_legal,
            &self.action_mask,
            &self.player,
            &self.rewards,
            &self.terminated,
            &self.scores,
            &self.final_scores,
            &self.seeds,
            &self.tiles,
            &self.vector,
            &self.action_table,
        ]
    }
}

/// Many games of one ruleset, stepped together by legal index.
#[pyclass(name = "Batch", module = "castellan._castellan", unsendable)]
pub struct PyBatch {
    observer: Observer,
    reference: String,
    num_envs: usize,
    slots: Vec<Slot>,
    seed: u64,
    zero_sum: bool,
    /// Whether every step writes the `tiles`, `vector` and `action_table` arrays.
    observations: bool,
    arrays: Arrays,
    layout: Vec<(&'static str, &'static str, Vec<usize>)>,
    events: Vec<Event>,
    legal: Vec<Action>,
    /// The `action_table` rows of one game, before they are written.
    table: Vec<f32>,
    /// One game's rewards of a step, before they are written.
    gains: Vec<f32>,
}

/// The seed of game `number` of slot `slot` in a batch of `n` from `seed`.
fn game_seed(seed: u64, n: usize, slot: usize, number: u64) -> u64 {
    seed.wrapping_add(slot as u64)
        .wrapping_add(number.wrapping_mul(n as u64))
}

/// The rewards of one step from the scores' changes (zero-sum if asked: each seat's change
/// minus the mean change of the others), into `gains`.
fn rewards(zero_sum: bool, before: &[u32], now: &[u32], gains: &mut Vec<f32>) {
    gains.clear();
    gains.extend(now.iter().zip(before).map(|(n, b)| *n as f32 - *b as f32));
    if zero_sum && gains.len() > 1 {
        let total: f32 = gains.iter().sum();
        let others = (gains.len() - 1) as f32;
        for g in gains.iter_mut() {
            *g -= (total - *g) / others;
        }
    }
}

impl PyBatch {
    /// The numbers of slot `i` after a step or a start: legal count and mask (`before` is the
    /// count the row had set), acting seat, scores, seed, and the observation if it is kept.
    fn write_state(&mut self, py: Python<'_>, i: usize, before: usize) -> PyResult<()> {
        let layout = &self.observer.layout;
        let (max, p) = (layout.max_actions, layout.players);
        let slot = &self.slots[i];
        let n = slot.tally.len();
        if n > max {
            return Err(other(format!(
                "game {i} of the batch has a decision with {n} legal actions, more than the \
                 bound of {max} (make the batch with a larger max_actions)"
            )));
        }
        let a = &self.arrays;
        let player = if slot.game.is_over() {
            -1
        } else {
            slot.game.decision().player as i32
        };
        put(bytes(py, &a.num_legal), i, [n as i32]);
        let mask = bytes(py, &a.action_mask);
        fill(mask, i * max + n..i * max + before.max(n), 0);
        fill(mask, i * max..i * max + n, 1);
        put(bytes(py, &a.player), i, [player]);
        let scores = slot.game.scores().iter().map(|s| *s as i32);
        put(bytes(py, &a.scores), i * p, scores);
        let seed = game_seed(self.seed, self.num_envs, i, slot.number);
        put(bytes(py, &a.seeds), i, [seed]);
        if self.observations {
            self.write_observation(py, i, before)?;
        }
        Ok(())
    }

    /// The observation of slot `i` for its acting seat: `tiles` (the rows of the tiles laid;
    /// the rows after them stay zero, as a new game's [`PyBatch::start`] leaves them),
    /// `vector`, and `action_table` (the rows of the legal actions; `before` is the number of
    /// rows the last one had, zeroed past the new ones).
    fn write_observation(&mut self, py: Python<'_>, i: usize, before: usize) -> PyResult<()> {
        let game = &self.slots[i].game;
        let (tiles, vector) = self.observer.observe(game, game.decision().player);
        let (rows, columns) = self.observer.tiles_shape();
        let a = &self.arrays;
        put(bytes(py, &a.tiles), i * rows * columns, tiles);
        put(bytes(py, &a.vector), i * vector.len(), vector);
        let layout = &self.observer.layout;
        self.legal.clear();
        if !game.is_over() {
            layout.legal(game, &mut self.legal).map_err(other)?;
        }
        let n = self.legal.len();
        self.table.clear();
        self.table.resize(n.max(before) * ACTION_COLUMNS, 0.0);
        layout.table(&self.legal, &mut self.table);
        let at = i * layout.max_actions * ACTION_COLUMNS;
        put(bytes(py, &a.action_table), at, self.table.iter().copied());
        Ok(())
    }

    /// Starts game `number` of slot `i` (replacing the slot's game, if any).
    fn start(&mut self, py: Python<'_>, i: usize, number: u64) -> PyResult<()> {
        let seed = game_seed(self.seed, self.num_envs, i, number);
        let layout = &self.observer.layout;
        let slot = Slot::start(&layout.rules, layout.players, seed, number)?;
        let before = match self.slots.get_mut(i) {
            Some(old) => std::mem::replace(old, slot).tally.len(),
            None => {
                self.slots.push(slot);
                layout.max_actions
            }
        };
        if self.observations {
            // The new game has laid fewer tiles than the last one: zero its rows.
            let width = self.observer.tiles_shape().0 * self.observer.tiles_shape().1;
            let zeros = std::iter::repeat_n(0f32, width);
            put(bytes(py, &self.arrays.tiles), i * width, zeros);
        }
        self.write_state(py, i, before)
    }

    /// Every game's chosen index, checked before any is played: an index past a game's
    /// legal actions raises and changes nothing.
    fn chosen(&self, py: Python<'_>) -> PyResult<Vec<usize>> {
        let actions = bytes(py, &self.arrays.actions);
        let mut out = Vec::with_capacity(self.slots.len());
        for (i, slot) in self.slots.iter().enumerate() {
            let n = slot.tally.len();
            let a = get_i64(actions, i).unwrap_or(-1);
            match usize::try_from(a) {
                Ok(k) if k < n => out.push(k),
                _ => {
                    return Err(IllegalActionError::new_err(format!(
                        "game {i} of the batch has {n} legal actions, no action {a} \
                         (nothing was played)"
                    )));
                }
            }
        }
        Ok(out)
    }

    /// Plays index `k` in slot `i`; returns whether its game ended.
    fn play(&mut self, py: Python<'_>, i: usize, k: usize) -> PyResult<bool> {
        let slot = &mut self.slots[i];
        let action = slot
            .game
            .nth_legal(&slot.tally, &slot.scratch, k)
            .ok_or_else(|| other(format!("game {i}: no legal action {k}")))?;
        self.events.clear();
        // Taken from this very state's legal list: the rules need not check it again.
        slot.game
            .apply_legal(&action, &mut self.events)
            .map_err(|e| rule_error(py, &e))?;
        let now = slot.game.scores();
        rewards(self.zero_sum, &slot.before, now, &mut self.gains);
        slot.before.copy_from_slice(now);
        let over = slot.game.is_over();
        let p = now.len();
        let a = &self.arrays;
        put(bytes(py, &a.rewards), i * p, self.gains.iter().copied());
        put(bytes(py, &a.terminated), i, [i8::from(over)]);
        if over {
            let scores = now.iter().map(|s| *s as i32);
            put(bytes(py, &a.final_scores), i * p, scores);
        }
        Ok(over)
    }
}

#[pymethods]
impl PyBatch {
    /// `num_envs` games of `ruleset` (a name, a path or a loaded `Ruleset`) for `players`
    /// seats; `reward` is `score` or `zero_sum`; `observations` says whether every step
    /// writes the `tiles`, `vector` and `action_table` arrays. The games start at `reset`.
    #[new]
    #[pyo3(signature = (ruleset, num_envs, players = 2, reward = "score", max_actions = None, observations = true))]
    fn py_new(
        py: Python<'_>,
        ruleset: &Bound<'_, PyAny>,
        num_envs: usize,
        players: usize,
        reward: &str,
        max_actions: Option<usize>,
        observations: bool,
    ) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(other("a batch needs at least one game (num_envs >= 1)"));
        }
        let zero_sum = match reward {
            "score" => false,
            "zero_sum" => true,
            _ => {
                return Err(other(format!(
                    "reward {reward:?} is not 'score' or 'zero_sum'"
                )));
            }
        };
        let loaded = crate::data::ruleset_of(py, ruleset)?;
        let loaded: &PyRuleset = loaded.get();
        let rules = Arc::clone(&loaded.rules);
        let observer = Observer::new(Layout::new(rules, players, max_actions));
        let layout = Arrays::layout(num_envs, &observer, observations);
        Ok(PyBatch {
            reference: loaded.reference.clone(),
            arrays: Arrays::new(py, &layout),
            layout,
            observer,
            num_envs,
            slots: Vec::with_capacity(num_envs),
            seed: 0,
            zero_sum,
            observations,
            events: Vec::new(),
            legal: Vec::new(),
            table: Vec::new(),
            gains: Vec::new(),
        })
    }

    /// The arrays: `{name: (bytearray, dtype, shape)}`, written in place by every call.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for ((name, dtype, shape), a) in self.layout.iter().zip(self.arrays.all()) {
            d.set_item(*name, (a.bind(py), *dtype, shape.clone()))?;
        }
        Ok(d)
    }

    /// Starts every game anew: slot `i`'s first game has seed `seed + i`.
    fn reset(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
        self.seed = seed;
        self.slots.clear();
        for i in 0..self.num_envs {
            self.start(py, i, 0)?;
        }
        let (n, p) = (self.num_envs, self.observer.layout.players);
        put(
            bytes(py, &self.arrays.rewards),
            0,
            std::iter::repeat_n(0f32, n * p),
        );
        put(
            bytes(py, &self.arrays.terminated),
            0,
            std::iter::repeat_n(0i8, n),
        );
        Ok(())
    }

    /// Writes into `actions` the index of a random legal action of every game, as the CLI's
    /// random bot of that game draws it.
    fn sample(&mut self, py: Python<'_>) {
        let actions = bytes(py, &self.arrays.actions);
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let n = slot.tally.len();
            let k = if n == 0 { 0 } else { slot.bot.index(n) };
            put(actions, i, [k as u64]);
        }
    }

    /// Plays the action at index `actions[i]` in every game `i`: writes the rewards, marks
    /// the games that ended (their final scores in `final_scores`) and starts each of them
    /// anew, then writes every game's legal count, mask, acting seat, scores, seed and (if
    /// kept) observation. An index that is not legal raises and plays nothing.
    fn step(&mut self, py: Python<'_>) -> PyResult<()> {
        for (i, k) in self.chosen(py)?.into_iter().enumerate() {
            let before = self.slots[i].tally.len();
            if self.play(py, i, k)? {
                let number = self.slots[i].number;
                self.start(py, i, number + 1)?;
            } else {
                self.slots[i].count();
                self.write_state(py, i, before)?;
            }
        }
        Ok(())
    }

    /// A copy of game `i` as a `Game` (for a look-ahead, a bot's move or a test).
    fn game(&self, i: usize) -> PyResult<PyGame> {
        let slot = self
            .slots
            .get(i)
            .ok_or_else(|| other(format!("the batch has no game {i} (reset it first?)")))?;
        Ok(PyGame::from_parts(
            slot.game.clone(),
            Vec::new(),
            self.reference.clone(),
        ))
    }

    /// The number of games stepped together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// The number of actions of one game (the mask's row length).
    #[getter]
    fn size(&self) -> usize {
        self.observer.layout.max_actions
    }
}
