//! The data formats and their diagnostics: rulesets, the library of shipped files, located
//! errors. Reading and validating data; no game logic.

pub mod diagnostic;
pub mod figures;
pub mod files;
pub mod library;
pub mod printed;
pub mod ruleset;
pub mod scripting;
pub mod section;
pub mod tileset;
