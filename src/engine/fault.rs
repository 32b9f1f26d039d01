//! What the engine keeps of a failing script: where it failed, in which hook, and why. A
//! failure undoes the action it happened in ([`crate::engine::game::RuleError::Script`]).

/// A script failed: where, in which hook, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: script error in hook `{hook}`: {message}")]
pub struct ScriptError {
    /// The script file.
    pub file: String,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub column: usize,
    /// The hook that was running.
    pub hook: String,
    /// What went wrong.
    pub message: String,
}
