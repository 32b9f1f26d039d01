//! `castellan._castellan`: the Python bindings of the castellan crate (built by maturin from
//! the repository's `pyproject.toml`). The Python package `castellan` (python/castellan/)
//! re-exports these classes and adds the pandas, PettingZoo and Ray layers.
//!
//! Everything here calls the library: loading (`Ruleset::load`, tile sets, records), the game
//! (`Game::legal_actions`, `apply`), words and JSON views (`engine::words`, `ui::report`),
//! pictures (`ui::render::svg`) and the lab (`lab::run`, `lab::metrics`, `lab::report`). The
//! only logic of its own is the environment's action space (`space.rs`), observation
//! (`observe.rs`) and the batch of games that the vectorised environment steps (`batch.rs`).

mod batch;
mod bots;
mod data;
mod errors;
mod game;
mod lab;
mod observe;
mod space;
mod values;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _castellan(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CastellanError", py.get_type::<errors::CastellanError>())?;
    m.add("DataError", py.get_type::<errors::DataError>())?;
    m.add(
        "IllegalActionError",
        py.get_type::<errors::IllegalActionError>(),
    )?;
    m.add_class::<data::PyRuleset>()?;
    m.add_class::<data::PyTileSet>()?;
    m.add_class::<data::PyRecord>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PyAction>()?;
    m.add_class::<game::PyEvent>()?;
    m.add_class::<space::PyActionSpace>()?;
    m.add_class::<batch::PyBatch>()?;
    m.add_function(wrap_pyfunction!(bots::bot_move, m)?)?;
    m.add_function(wrap_pyfunction!(data::rulesets, m)?)?;
    m.add_function(wrap_pyfunction!(data::tile_sets, m)?)?;
    m.add_function(wrap_pyfunction!(lab::lab_lines, m)?)?;
    m.add_function(wrap_pyfunction!(lab::report, m)?)?;
    m.add_function(wrap_pyfunction!(lab::simulate_stats, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
