//! Rulesets, tile sets and records: loaded by name (the shipped files) or by path, with the
//! library's located errors.

use crate::errors::{data_error, record_error};
use crate::game::{PyAction, PyGame};
use castellan::data::files::Named;
use castellan::data::library::{self, Kind, Source};
use castellan::data::printed::Prints;
use castellan::data::ruleset::Ruleset;
use castellan::model::tile::TileSet;
use castellan::record::Record;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The names of the shipped rulesets.
#[pyfunction]
pub fn rulesets() -> Vec<&'static str> {
    library::builtin_names(Kind::Ruleset)
}

/// The names of the shipped tile sets.
#[pyfunction]
pub fn tile_sets() -> Vec<&'static str> {
    library::builtin_names(Kind::TileSet)
}

/// A loaded ruleset.
#[pyclass(name = "Ruleset", module = "castellan._castellan", frozen)]
pub struct PyRuleset {
    pub rules: Arc<Ruleset>,
    /// How it was named (a record names its ruleset so).
    pub reference: String,
}

/// Rulesets loaded so far, by how they were named and the text of the file that name found:
/// loading the same file again under the same name gives the same object at once.
static LOADED: Mutex<Vec<(String, Source, Py<PyRuleset>)>> = Mutex::new(Vec::new());

impl PyRuleset {
    /// Loads the ruleset `reference` names (a file read before, unchanged, from the cache).
    pub fn open(py: Python<'_>, reference: &str) -> PyResult<Py<PyRuleset>> {
        // Finding and reading the top file is cheap; compiling it is what the cache saves.
        let found = library::find(Kind::Ruleset, reference, Named::ByUser).ok();
        let same = |(name, source, _): &&(String, Source, Py<PyRuleset>)| {
            name == reference
                && found
                    .as_ref()
                    .is_some_and(|f| f.path == source.path && f.text == source.text)
        };
        let cached = LOADED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(same)
            .map(|(_, _, hit)| hit.clone_ref(py));
        if let Some(hit) = cached {
            return Ok(hit);
        }
        let rules = Ruleset::load(reference).map_err(|d| data_error(py, &d))?;
        let made = Py::new(
            py,
            PyRuleset {
                rules,
                reference: reference.to_string(),
            },
        )?;
        if let Some(source) = found {
            let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
            loaded.retain(|(name, _, _)| name != reference);
            loaded.push((reference.to_string(), source, made.clone_ref(py)));
        }
        Ok(made)
    }
}

/// The rules of `ruleset`: a loaded `Ruleset`, or a name or path to load (through the cache).
pub fn rules_of(py: Python<'_>, ruleset: &Bound<'_, PyAny>) -> PyResult<Arc<Ruleset>> {
    Ok(Arc::clone(&ruleset_of(py, ruleset)?.get().rules))
}

/// `ruleset` as a loaded `Ruleset`: itself, or the one its name or path loads.
pub fn ruleset_of<'py>(
    py: Python<'py>,
    ruleset: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyRuleset>> {
    match ruleset.cast::<PyRuleset>() {
        Ok(r) => Ok(r.clone()),
        Err(_) => {
            let name: PathBuf = ruleset.extract()?;
            Ok(PyRuleset::open(py, &name.to_string_lossy())?.into_bound(py))
        }
    }
}

#[pymethods]
impl PyRuleset {
    /// Loads a ruleset by name (`rulesets/NAME.toml` of the current directory, else the
    /// shipped copy) or by path.
    #[staticmethod]
    /// A file loaded before under the same name, unchanged since, is not compiled again:
    /// the same `Ruleset` object comes back (a change in a file it extends is not noticed).
    fn load(py: Python<'_>, reference: PathBuf) -> PyResult<Py<PyRuleset>> {
        PyRuleset::open(py, &reference.to_string_lossy())
    }

    /// The ruleset's name.
    #[getter]
    fn name(&self) -> &str {
        &self.rules.name
    }

    /// How the ruleset was named when loaded.
    #[getter]
    fn reference(&self) -> &str {
        &self.reference
    }

    /// Its one-line description.
    #[getter]
    fn description(&self) -> &str {
        &self.rules.description
    }

    /// The file it was read from.
    #[getter]
    fn path(&self) -> String {
        self.rules.path.display().to_string()
    }

    /// The smallest and largest number of players.
    #[getter]
    fn players(&self) -> (usize, usize) {
        self.rules.players
    }

    /// The figure kinds in play (the figure table's rows).
    #[getter]
    fn figures(&self) -> Vec<&'static str> {
        self.rules
            .figures
            .rows()
            .iter()
            .map(|r| r.kind.name())
            .collect()
    }

    /// How many tiles the game has (start tiles and bag).
    #[getter]
    fn tile_count(&self) -> u32 {
        self.rules.tiles.iter().map(|t| t.count).sum::<u32>() + self.rules.start.len() as u32
    }

    /// Whether the ruleset runs rhai scripts.
    #[getter]
    fn scripted(&self) -> bool {
        self.rules.scripts.is_some()
    }

    fn __repr__(&self) -> String {
        format!("Ruleset({:?})", self.rules.name)
    }
}

/// A loaded tile set.
#[pyclass(name = "TileSet", module = "castellan._castellan", frozen)]
pub struct PyTileSet {
    set: TileSet,
    /// The built-in marks and those the set declares.
    prints: Prints,
}

#[pymethods]
impl PyTileSet {
    /// Loads a tile set by name (`tiles/NAME.toml` of the current directory, else the shipped
    /// copy) or by path.
    #[staticmethod]
    fn load(py: Python<'_>, reference: PathBuf) -> PyResult<PyTileSet> {
        let reference = reference.to_string_lossy();
        let source = library::find(Kind::TileSet, &reference, Named::ByUser).map_err(|msg| {
            let d = castellan::data::diagnostic::Diagnostic::new(
                Path::new(reference.as_ref()),
                &Arc::from(""),
                None,
                msg,
            );
            data_error(py, &d)
        })?;
        let mut prints = Prints::default();
        let set = TileSet::parse_over(&source.path, &source.text, &mut prints)
            .map_err(|d| data_error(py, &d))?;
        Ok(PyTileSet { set, prints })
    }

    /// The set's name.
    #[getter]
    fn name(&self) -> &str {
        &self.set.name
    }

    /// Its one-line description.
    #[getter]
    fn description(&self) -> &str {
        &self.set.description
    }

    /// The tile types in file order, each a dict: `id`, `alias`, `count`, `edges` (N, E, S, W
    /// at rotation 0), `symbol`, `tags`.
    #[getter]
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.set
            .tiles
            .iter()
            .map(|t| {
                let d = PyDict::new(py);
                d.set_item("id", &*t.id)?;
                d.set_item("alias", t.alias.clone())?;
                d.set_item("count", t.count)?;
                d.set_item("edges", t.edges.map(|e| e.name()).to_vec())?;
                d.set_item("symbol", t.symbol.map(|s| self.prints.symbol_name(s)))?;
                d.set_item("tags", t.tags.clone())?;
                Ok(d)
            })
            .collect()
    }

    fn __len__(&self) -> usize {
        self.set.tiles.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "TileSet({:?}, {} types)",
            self.set.name,
            self.set.tiles.len()
        )
    }
}

/// A parsed game record (TOML), ready to replay.
#[pyclass(name = "Record", module = "castellan._castellan", frozen)]
pub struct PyRecord {
    record: Record,
}

#[pymethods]
impl PyRecord {
    /// Reads a record file.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<PyRecord> {
        let record = Record::load(&path).map_err(|d| data_error(py, &d))?;
        Ok(PyRecord { record })
    }

    /// Parses a record from its text; `path` names it in errors and is the folder its
    /// ruleset path is relative to.
    #[staticmethod]
    #[pyo3(signature = (text, path = "<string>.toml".into()))]
    fn parse(py: Python<'_>, text: String, path: PathBuf) -> PyResult<PyRecord> {
        let record = Record::parse(Source { path, text }).map_err(|d| data_error(py, &d))?;
        Ok(PyRecord { record })
    }

    /// The ruleset as the record names it.
    #[getter]
    fn ruleset(&self) -> &str {
        &self.record.ruleset_ref
    }

    /// The players' names in seat order.
    #[getter]
    fn players(&self) -> Vec<String> {
        self.record.setup.players.clone()
    }

    /// The seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.record.setup.seed
    }

    /// The actions in order.
    #[getter]
    fn actions(&self) -> Vec<PyAction> {
        self.record
            .actions
            .iter()
            .map(|(a, _)| PyAction::new(*a))
            .collect()
    }

    /// Replays the record: the game after its last action, with the whole event log. An
    /// illegal action raises `IllegalActionError` located at the action.
    fn replay(&self, py: Python<'_>) -> PyResult<PyGame> {
        let replay = self.record.replay().map_err(|e| record_error(py, &e))?;
        Ok(PyGame::from_parts(
            replay.game,
            replay.events,
            self.record.ruleset_ref.clone(),
        ))
    }

    fn __len__(&self) -> usize {
        self.record.actions.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Record(ruleset={:?}, players={:?}, {} actions)",
            self.record.ruleset_ref,
            self.record.setup.players,
            self.record.actions.len()
        )
    }
}
