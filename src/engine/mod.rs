//! The engine: the game's state machine, the decisions it asks, the actions that answer them
//! and the events they cause.

pub mod action;
pub mod budget;
pub mod custody;
pub mod event;
pub mod family;
pub mod fault;
pub mod game;
pub(crate) mod history;
pub mod mechanic;
pub mod named;
pub mod opening;
pub mod refusal;
pub mod show;
pub mod vocabulary;
pub mod words;
