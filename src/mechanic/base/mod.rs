//! The base game's rules: feature scoring (§1.6–§1.8) and farms (§1.9).

pub mod farm;
pub mod rules;
pub mod scoring;
