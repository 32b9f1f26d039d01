//! The game: its pending decision, legal actions, `apply`, events, scores, copies, the record
//! and pictures.

use crate::data::PyRuleset;
use crate::errors::{other, rule_error};
use crate::values::to_py;
use castellan::bot::{Bot, RandomBot};
use castellan::engine::action::{Action, DecisionKind};
use castellan::engine::event::Event;
use castellan::engine::game::{Game, Setup, Tally};
use castellan::engine::words;
use castellan::ui::render::{svg, text};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// An action: an answer to a decision.
#[pyclass(name = "Action", module = "castellan._castellan", frozen)]
#[derive(Clone)]
pub struct PyAction {
    pub action: Action,
}

impl PyAction {
    pub fn new(action: Action) -> PyAction {
        PyAction { action }
    }

    /// The action as a record's `[[action]]` table writes it, as JSON.
    fn table_json(&self) -> serde_json::Value {
        serde_json::to_value(castellan::record::action_table(&self.action))
            .unwrap_or(serde_json::Value::Null)
    }
}

#[pymethods]
impl PyAction {
    /// The action a record's `[[action]]` table says, e.g. `{"place": [0, -1, 90]}`,
    /// `{"deploy": [0, -1, "N"]}`, `{"dragon": [1, 0]}` or `{"pass": True}` (what `table`
    /// gives); `CastellanError` says what is wrong with a table that says no action.
    #[staticmethod]
    fn from_table(table: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        let json: String = table
            .py()
            .import("json")?
            .call_method1("dumps", (table,))?
            .extract()?;
        let value: serde_json::Value = serde_json::from_str(&json).map_err(other)?;
        let toml::Value::Table(t) = toml::Value::try_from(value).map_err(other)? else {
            return Err(other("an action table is a dict, e.g. {\"pass\": True}"));
        };
        castellan::record::parse_action(&t)
            .map(PyAction::new)
            .map_err(other)
    }

    /// The action's kind: its key in records (`place`, `deploy`, `pass`, `script`, or a
    /// mechanic's: `dragon`, `fairy`, `quarter`, …).
    #[getter]
    fn kind(&self) -> String {
        let table = castellan::record::action_table(&self.action);
        table
            .keys()
            .find(|k| k.as_str() != "figure")
            .cloned()
            .unwrap_or_default()
    }

    /// The action as a record writes it, e.g. `{"place": [0, -1, 90]}` or
    /// `{"deploy": [0, -1, "N"]}`.
    #[getter]
    fn table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.table_json())
    }

    /// The action in words.
    #[getter]
    fn words(&self) -> String {
        words::action(&self.action)
    }

    fn __repr__(&self) -> String {
        format!("Action({})", self.table_json())
    }

    fn __str__(&self) -> String {
        words::action(&self.action)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyAction>()
            .is_ok_and(|o| o.get().action == self.action)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.action.hash(&mut h);
        h.finish()
    }
}

/// Something that happened in a game.
#[pyclass(name = "Event", module = "castellan._castellan", frozen)]
pub struct PyEvent {
    event: Event,
    names: Arc<Vec<String>>,
}

impl PyEvent {
    fn json(&self) -> serde_json::Value {
        castellan::ui::report::event_json(&self.event, &self.names)
    }
}

#[pymethods]
impl PyEvent {
    /// The event in words, as the CLI's replay prints it.
    #[getter]
    fn text(&self) -> String {
        words::event(&self.event, &self.names).to_string()
    }

    /// The kind of event (`tile_placed`, `feature_scored`, …).
    #[getter]
    fn kind(&self) -> String {
        self.json()
            .get("event")
            .and_then(|v| v.as_str())
            .unwrap_or("?")
            .to_string()
    }

    /// The event as a dict (the JSON of `castellan replay --json`, players by name).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.json())
    }

    fn __repr__(&self) -> String {
        format!("Event({})", self.json())
    }

    fn __str__(&self) -> String {
        self.text()
    }
}

/// A game: always one pending decision, answered by legal actions.
#[pyclass(name = "Game", module = "castellan._castellan")]
#[derive(Clone)]
pub struct PyGame {
    pub game: Game,
    /// The events of the set-up and of the first `logged` actions. Actions played while the
    /// log is not kept leave it behind; reading `events` then replays the history.
    log: Vec<Event>,
    logged: usize,
    /// Whether each action's events go to the log as it is played (once `events` was read).
    keep: bool,
    /// The events of the last action.
    last: Vec<Event>,
    ruleset: String,
    names: Arc<Vec<String>>,
    /// The tally of the pending decision's legal list ([`Game::tally_legal`]), valid for the
    /// state after `tallied` actions.
    tally: Tally,
    /// The parts of that legal list that the rules cannot count.
    scratch: Vec<Action>,
    /// How many actions had been played when `tally` was counted.
    tallied: Option<usize>,
    /// Whether the hidden tiles were reshuffled ([`PyGame::determinize`]): the set-up's seed
    /// no longer gives this game's draws, so no record can replay it.
    resampled: bool,
}

impl PyGame {
    /// A game with its event log so far (`events`: the set-up's and every action's).
    pub fn from_parts(game: Game, events: Vec<Event>, ruleset: String) -> PyGame {
        let names = Arc::new(game.setup().players.clone());
        PyGame {
            logged: game.history().len(),
            game,
            log: events,
            keep: false,
            last: Vec::new(),
            ruleset,
            names,
            tally: Tally::default(),
            scratch: Vec::new(),
            tallied: None,
            resampled: false,
        }
    }

    /// How many legal answers the pending decision has, counted without listing them where
    /// the rules can; the tally is kept for [`PyGame::apply_nth`] until the state changes.
    fn tally_legal(&mut self) -> usize {
        let now = self.game.history().len();
        if self.tallied != Some(now) {
            self.game.tally_legal(&mut self.tally, &mut self.scratch);
            self.tallied = Some(now);
        }
        self.tally.len()
    }

    fn wrap(&self, events: &[Event]) -> Vec<PyEvent> {
        events
            .iter()
            .map(|e| PyEvent {
                event: e.clone(),
                names: Arc::clone(&self.names),
            })
            .collect()
    }

    /// Plays `action`, after the rules check it if `checked` (otherwise it must come from this
    /// very state's legal list); its events are in `last`. On refusal nothing changes.
    pub fn play(&mut self, py: Python<'_>, action: &Action, checked: bool) -> PyResult<()> {
        self.last.clear();
        let played = if checked {
            self.game.apply_into(action, &mut self.last)
        } else {
            self.game.apply_legal(action, &mut self.last)
        };
        played.map_err(|e| rule_error(py, &e))?;
        // A kept log is up to date: reading `events` brought it up to date.
        if self.keep {
            self.log.extend_from_slice(&self.last);
            self.logged += 1;
        }
        Ok(())
    }

    /// Brings the log up to date: the events of the set-up and of every action so far, the
    /// history replayed where the log is behind (the same ruleset, seed and actions give the
    /// same events).
    fn catch_up(&mut self) -> PyResult<()> {
        if self.logged != self.game.history().len() {
            let setup = self.game.setup().clone();
            let (mut again, mut log) =
                Game::new(Arc::clone(self.game.rules()), setup).map_err(other)?;
            for action in self.game.history() {
                again.apply_legal(action, &mut log).map_err(other)?;
            }
            (self.log, self.logged) = (log, self.game.history().len());
        }
        Ok(())
    }
}

/// Player names from `players`: a number of seats (`P1`, `P2`, …) or a list of names.
fn player_names(players: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    match players {
        None => Ok(vec!["P1".into(), "P2".into()]),
        Some(p) => match p.extract::<usize>() {
            Ok(n) => Ok((1..=n).map(|i| format!("P{i}")).collect()),
            Err(_) => p.extract::<Vec<String>>(),
        },
    }
}

#[pymethods]
impl PyGame {
    /// A new game under `ruleset` (a name, a path or a loaded `Ruleset`) between `players`
    /// (a number of seats or a list of names; default 2), the bag shuffled by `seed`.
    #[new]
    #[pyo3(signature = (ruleset = None, players = None, seed = 0))]
    fn py_new(
        py: Python<'_>,
        ruleset: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        seed: u64,
    ) -> PyResult<PyGame> {
        let loaded = match ruleset {
            None => PyRuleset::open(py, "hig")?.into_bound(py),
            Some(r) => crate::data::ruleset_of(py, r)?,
        };
        let (rules, reference) = (
            Arc::clone(&loaded.get().rules),
            loaded.get().reference.clone(),
        );
        let setup = Setup::new(player_names(players)?, seed);
        let (game, events) = Game::new(rules, setup).map_err(other)?;
        Ok(PyGame::from_parts(game, events, reference))
    }

    /// The pending decision: `player` (the seat that chooses), `kind` (`place`, `deploy`,
    /// `script`, `game_over` or a mechanic's decision such as `dragon_step`) and, when a tile
    /// is to be placed, its `tile` id.
    #[getter]
    fn decision<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = self.game.decision();
        let dict = PyDict::new(py);
        dict.set_item("player", d.player)?;
        dict.set_item("kind", d.kind.name())?;
        if let DecisionKind::PlaceTile { tile } = d.kind {
            dict.set_item("tile", &*self.game.rules().tile(tile).id)?;
        }
        Ok(dict)
    }

    /// The seat that must choose now.
    #[getter]
    fn active(&self) -> usize {
        self.game.decision().player
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The turn number.
    #[getter]
    fn turn(&self) -> u32 {
        self.game.turn()
    }

    /// The scores by seat.
    #[getter]
    fn scores(&self) -> Vec<u32> {
        self.game.scores().to_vec()
    }

    /// Tiles still in the bag.
    #[getter]
    fn tiles_left(&self) -> usize {
        self.game.tiles_left()
    }

    /// The players' names in seat order.
    #[getter]
    fn players(&self) -> Vec<String> {
        self.names.to_vec()
    }

    /// The seed of the bag.
    #[getter]
    fn seed(&self) -> u64 {
        self.game.setup().seed
    }

    /// The ruleset's name.
    #[getter]
    fn ruleset(&self) -> String {
        self.game.rules().name.clone()
    }

    /// The actions played so far.
    #[getter]
    fn history(&self) -> Vec<PyAction> {
        self.game
            .history()
            .iter()
            .map(|a| PyAction::new(*a))
            .collect()
    }

    /// Every legal answer to the pending decision, in the engine's order.
    fn legal_actions(&self) -> Vec<PyAction> {
        self.game.legal().into_iter().map(PyAction::new).collect()
    }

    /// How many legal answers the pending decision has.
    fn num_legal(&mut self) -> usize {
        self.tally_legal()
    }

    /// Answers the pending decision; returns the events it caused (up to the next decision).
    /// An illegal action raises `IllegalActionError` and changes nothing.
    fn apply(&mut self, py: Python<'_>, action: &PyAction) -> PyResult<Vec<PyEvent>> {
        self.play(py, &action.action, true)?;
        Ok(self.wrap(&self.last))
    }

    /// Plays the `n`-th of the legal actions (the order of `legal_actions()`) and returns how
    /// many legal actions the next decision has (0 once the game is over). The fast path for
    /// loops that choose by index: `n = g.num_legal()`, then `while n: n = g.apply_nth(pick(n))`.
    pub fn apply_nth(&mut self, py: Python<'_>, n: usize) -> PyResult<usize> {
        // As the CLI's random bot picks: only the chosen action is built where the rules can
        // count their answers.
        let count = self.tally_legal();
        let Some(action) = self.game.nth_legal(&self.tally, &self.scratch, n) else {
            return Err(crate::errors::IllegalActionError::new_err(format!(
                "there are {count} legal actions, no action {n}"
            )));
        };
        // Taken from this very state's legal list: the rules need not check it again.
        self.play(py, &action, false)?;
        Ok(self.tally_legal())
    }

    /// Plays on with random bots (`castellan simulate`'s random bot, seeded) until the game is
    /// over or `max_actions` actions were played; returns how many were.
    #[pyo3(signature = (seed = 0, max_actions = None))]
    fn play_random(
        &mut self,
        py: Python<'_>,
        seed: u64,
        max_actions: Option<usize>,
    ) -> PyResult<usize> {
        let mut bot = RandomBot::new(seed);
        let mut played = 0;
        while !self.game.is_over() && max_actions.is_none_or(|m| played < m) {
            let action = bot.choose(&self.game);
            self.play(py, &action, false)?;
            played += 1;
        }
        Ok(played)
    }

    /// Every event since the set-up.
    #[getter]
    fn events(&mut self) -> PyResult<Vec<PyEvent>> {
        // Whoever reads the log once may read it again: keep it from now on.
        self.keep = true;
        self.catch_up()?;
        Ok(self.wrap(&self.log))
    }

    /// The game as a dict (the JSON of `castellan replay --json` without the events):
    /// scores, supply, figures on the board, the dragon, the fairy, the Count, tiles left.
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut v = castellan::ui::report::game_json(&self.game, &[]);
        if let Some(map) = v.as_object_mut() {
            map.remove("events");
        }
        to_py(py, &v)
    }

    /// The game so far as a record (TOML text); `ruleset` is how the record names its
    /// ruleset (default: as the game was given it). A determinized copy has none: its seed
    /// does not give its draws.
    #[pyo3(signature = (ruleset = None))]
    fn record(&self, ruleset: Option<&str>) -> PyResult<String> {
        if self.resampled {
            return Err(other(
                "a determinized copy has no record: its hidden tiles were reshuffled, so its \
                 seed does not give its draws",
            ));
        }
        Ok(castellan::record::write(
            &self.game,
            ruleset.unwrap_or(&self.ruleset),
        ))
    }

    /// The board as an SVG picture, with an optional caption.
    #[pyo3(signature = (caption = None))]
    fn render_svg(&self, caption: Option<&str>) -> String {
        match caption {
            Some(c) => svg::board_titled(&self.game, c),
            None => svg::board(&self.game),
        }
    }

    /// Jupyter shows the board inline.
    fn _repr_svg_(&self) -> String {
        svg::board(&self.game)
    }

    /// The board as text (as `castellan render` prints it, without colour).
    fn render_text(&self) -> String {
        text::board(&self.game, false)
    }

    /// An independent copy. With `hide=True` it is [`determinize`](Self::determinize)`(seed)`:
    /// the copy does not know the bag's order.
    #[pyo3(signature = (hide = false, seed = 0))]
    fn copy(&mut self, hide: bool, seed: u64) -> PyGame {
        if hide {
            self.determinize(seed)
        } else {
            self.clone()
        }
    }

    /// A copy whose hidden tiles are reshuffled from `seed`: the tiles still to come are the
    /// same, their order is drawn anew (and so are later reshuffles), so a search on the copy
    /// cannot see the original's future draws. Everything public is the same, the legal
    /// actions now too. The copy's `events` go on from the original's log when it is kept
    /// (once `events` was read), else they start at the copy; it has no `record()`.
    fn determinize(&mut self, seed: u64) -> PyGame {
        let mut copy = self.clone();
        copy.game.resample_hidden(seed);
        copy.resampled = true;
        copy.tallied = None;
        if !copy.keep || copy.logged != copy.game.history().len() {
            // A replay from the set-up would draw the original's tiles, not the copy's.
            copy.log.clear();
            copy.logged = copy.game.history().len();
        }
        copy.keep = true;
        copy
    }

    /// The board as an RGB picture: `(height, width, pixels)`, the pixels as bytes, three per
    /// pixel, row by row (`castellan render --png`'s picture).
    fn render_rgb(&self) -> PyResult<(u32, u32, Vec<u8>)> {
        let (width, height, rgb) =
            castellan::ui::render::png::rgb_from_svg(&svg::board(&self.game)).map_err(other)?;
        Ok((height, width, rgb))
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(ruleset={:?}, players={:?}, seed={}, turn={}, scores={:?}{})",
            self.game.rules().name,
            self.names,
            self.game.setup().seed,
            self.game.turn(),
            self.game.scores(),
            if self.game.is_over() { ", over" } else { "" }
        )
    }
}
