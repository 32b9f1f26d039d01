//! # castellan
//!
//! A rules engine for Carcassonne and The Princess & the Dragon in which editions and house
//! rules are data (TOML rulesets), tile sets are data (TOML tile sets), and every game is a
//! sequence of decisions answered by actions.
//!
//! ## Map of the crate
//! - [`geometry`]: positions, edges, half-edges, rotations, spots on a tile.
//! - [`tile`]: the tile-set format, its validation, pre-rotated tile data.
//! - [`ruleset`]: the ruleset format, `extends` chains, validated rules.
//! - [`library`]: finding rulesets and tile sets by name or path (shipped copies built in).
//! - [`board`]: the grid of placed tiles and the frontier of open positions.
//! - [`feature`]: segments, the segment graph and union-find totals.
//! - [`figure`]: player figures.
//! - [`mechanic`]: the rules, one module per mechanic (scoring, farms, …).
//! - [`game`]: the state machine: pending decision, legal actions, `apply`, events.
//! - [`action`], [`event`]: what players do and what happens.
//! - [`record`]: game records (TOML): read, write, replay; [`report`]: JSON views of a game.
//! - [`render`]: pictures of a game: the board as text, SVG and PNG.
//! - [`bot`]: players that choose actions (random, greedy); [`simulate`]: batches of games
//!   between bots.
//! - [`play`]: the terminal game (hotseat humans and bots); [`describe`]: actions in plain
//!   words.
//! - [`script`]: rhai scripts hooked into the turn pipeline (sandboxed).
//! - [`diagnostic`]: located, compiler-style errors for everything a user writes.
//!
//! ## Example
//! ```
//! use castellan::{game::{Game, Setup}, ruleset::Ruleset, bot::{Bot, RandomBot}};
//! let rules = Ruleset::load("base").unwrap();
//! let (mut game, _events) = Game::new(rules, Setup::new(vec!["Ann".into(), "Bob".into()], 7)).unwrap();
//! let mut bot = RandomBot::new(1);
//! while !game.is_over() {
//!     let action = bot.choose(&game);
//!     game.apply(&action).unwrap();
//! }
//! assert_eq!(game.tiles_left(), 0);
//! ```

pub mod action;
pub mod board;
pub mod bot;
pub mod describe;
pub mod diagnostic;
pub mod event;
pub mod feature;
pub mod figure;
pub mod game;
pub mod geometry;
pub mod library;
pub mod mechanic;
pub mod play;
pub mod record;
pub mod render;
pub mod report;
pub mod ruleset;
pub mod script;
mod script_api;
mod script_host;
pub mod simulate;
pub mod tile;
