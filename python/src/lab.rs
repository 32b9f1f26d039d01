//! The lab from Python: games played on every core with the interpreter released, results as
//! the JSON lines of `castellan compare --out` (the Python layer makes a DataFrame of them),
//! and reports merged exactly as `castellan report` merges shard files.

use crate::errors::{data_error, other};
use crate::values::to_py;
use castellan::bot::simulate;
use castellan::data::ruleset::Ruleset;
use castellan::lab::{self, Plan, Shard};
use pyo3::prelude::*;

/// Plays `games` seeded games (seed, seed + 1, …) of `bots` under every ruleset of
/// `rulesets` (the first is the baseline) on `threads` threads (0: every core), or only shard
/// `(k, n)` of them, and returns one JSON line per game, as `castellan compare --out` writes
/// them (`castellan simulate --out` is the same with one ruleset).
#[pyfunction]
#[pyo3(signature = (rulesets, bots, games, seed = 0, threads = 0, shard = None))]
pub fn lab_lines(
    py: Python<'_>,
    rulesets: Vec<String>,
    bots: Vec<String>,
    games: u64,
    seed: u64,
    threads: usize,
    shard: Option<(u64, u64)>,
) -> PyResult<String> {
    let mut loaded = Vec::new();
    for name in rulesets {
        let rules = Ruleset::load(&name).map_err(|d| data_error(py, &d))?;
        loaded.push((name, rules));
    }
    let shard = match shard {
        None => Shard::ALL,
        Some((k, n)) => format!("{k}/{n}").parse::<Shard>().map_err(other)?,
    };
    let plan = Plan {
        rulesets: loaded,
        bots,
        games,
        seed,
        shard,
        threads,
    };
    let results = py.detach(|| lab::run(&plan, |_| {})).map_err(other)?;
    Ok(lab::report::write_results(&results))
}

/// Merges JSON lines of games (one run, or shards of it in any order) into the report of
/// `castellan report`: `format` is `table` (the text table), `json` (the summary as a dict)
/// or `html` (the page with plots).
#[pyfunction]
#[pyo3(signature = (lines, format = "table"))]
pub fn report<'py>(py: Python<'py>, lines: &str, format: &str) -> PyResult<Bound<'py, PyAny>> {
    let results = lab::report::parse_results(lines, "<rows>").map_err(other)?;
    let mut summary = lab::metrics::summarize(&results).map_err(other)?;
    // What each ruleset is, as `castellan report` says it.
    let about = lab::changes::about(&summary.rulesets);
    summary.explain(about);
    match format {
        "table" => Ok(lab::report::table(&summary).into_pyobject(py)?.into_any()),
        "html" => Ok(lab::report::html(&summary)
            .map_err(other)?
            .into_pyobject(py)?
            .into_any()),
        "json" => to_py(py, &serde_json::to_value(&summary).map_err(other)?),
        _ => Err(other(format!(
            "unknown report format `{format}`: use table, json or html"
        ))),
    }
}

/// `castellan simulate --json`: the summary of `games` games of random bots (or `bots`) on
/// `threads` threads, with the speed in games per second.
#[pyfunction]
#[pyo3(signature = (ruleset, players = 2, bots = None, games = 1000, seed = 0, threads = 0))]
pub fn simulate_stats<'py>(
    py: Python<'py>,
    ruleset: &str,
    players: usize,
    bots: Option<Vec<String>>,
    games: u64,
    seed: u64,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = Ruleset::load(ruleset).map_err(|d| data_error(py, &d))?;
    let stats = py
        .detach(|| match &bots {
            None => simulate::run_on(&rules, players, games, seed, threads, |_| {}),
            Some(names) => {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                simulate::run_bots_on(&rules, &names, games, seed, threads, |_| {})
            }
        })
        .map_err(other)?;
    to_py(py, &serde_json::to_value(&stats).map_err(other)?)
}
