//! The library's errors as Python exceptions: located diagnostics carry `file`, `line`,
//! `column`, `message` and `help`; refused actions carry the `rule` that refused them.

use castellan::data::diagnostic::Diagnostic;
use castellan::engine::game::RuleError;
use castellan::record::RecordError;
use pyo3::prelude::*;

pyo3::create_exception!(
    _castellan,
    CastellanError,
    pyo3::exceptions::PyException,
    "Any error castellan raises."
);
pyo3::create_exception!(
    _castellan,
    DataError,
    CastellanError,
    "A problem in a data file (ruleset, tile set, record, script), located by `file`, `line` and \
     `column` (1-based; None when the whole file is meant); `message` says what is wrong, `help` \
     what to do, and str() is the compiler-style rendering."
);
pyo3::create_exception!(
    _castellan,
    IllegalActionError,
    CastellanError,
    "An action the rules refuse; the game is unchanged. `rule` names the rule that refused it \
     (None when no single rule did). From a record, `file`, `line` and `column` locate the action \
     and `index` is its 1-based number."
);

/// Sets the location attributes of `err` from `d`.
fn locate(py: Python<'_>, err: &PyErr, d: &Diagnostic) -> PyResult<()> {
    let value = err.value(py);
    let (line, column) = d.line_col().unzip();
    value.setattr("file", d.file.display().to_string())?;
    value.setattr("line", line)?;
    value.setattr("column", column)?;
    value.setattr("message", d.message.clone())?;
    value.setattr("help", d.help.clone())?;
    Ok(())
}

/// A located diagnostic as a `DataError`.
pub fn data_error(py: Python<'_>, d: &Diagnostic) -> PyErr {
    let err = DataError::new_err(d.render());
    match locate(py, &err, d) {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A refused action as an `IllegalActionError` (not located).
pub fn rule_error(py: Python<'_>, e: &RuleError) -> PyErr {
    let err = IllegalActionError::new_err(e.to_string());
    let value = err.value(py);
    let set = value
        .setattr("rule", e.rule().map(|r| r.0))
        .and_then(|()| value.setattr("file", py.None()))
        .and_then(|()| value.setattr("line", py.None()))
        .and_then(|()| value.setattr("column", py.None()))
        .and_then(|()| value.setattr("index", py.None()));
    match set {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A record that cannot be replayed: a `DataError` when it is malformed, an
/// `IllegalActionError` located at the action when an action is refused.
pub fn record_error(py: Python<'_>, e: &RecordError) -> PyErr {
    match e {
        RecordError::Invalid(d) => data_error(py, d),
        RecordError::Illegal {
            index, error, at, ..
        } => {
            let err = IllegalActionError::new_err(at.render());
            let value = err.value(py);
            let set = locate(py, &err, at)
                .and_then(|()| value.setattr("rule", error.rule().map(|r| r.0)))
                .and_then(|()| value.setattr("index", *index));
            match set {
                Ok(()) => err,
                Err(e) => e,
            }
        }
    }
}

/// Any other error of the library (a set-up, a lab run) as a `CastellanError`.
pub fn other(e: impl std::fmt::Display) -> PyErr {
    CastellanError::new_err(e.to_string())
}
