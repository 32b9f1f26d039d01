//! # castellan
//!
//! A rules engine for Carcassonne and The Princess & the Dragon in which editions and house
//! rules are data (TOML rulesets), tile sets are data (TOML tile sets), and every game is a
//! sequence of decisions answered by actions.
//!
//! ## Map of the crate
//! The crate is layered; each layer uses only the layers above it in this list (checked by
//! `tests/layers.rs`; `src/README.md` maps every file):
//! - [`model`]: the vocabulary and the board model — positions and rotations, tiles, the board
//!   and its frontier, features (segment graph and union-find totals), figures. No rules.
//! - [`data`]: the data formats — rulesets and their `extends` chains, the library of shipped
//!   files, located compiler-style diagnostics. No game logic.
//! - [`engine`]: the game's state machine — the pending decision, legal actions, `apply`,
//!   events — and the [`engine::mechanic::Mechanic`] trait every rule implements.
//! - [`mechanic`]: the rules, one folder per family (`base`, `pd`, `count`), each with its
//!   toggles; [`script`]: rhai scripts hooked into the turn (sandboxed).
//! - [`registry`]: which mechanics a ruleset switches on, in order; `Game::new`.
//! - [`record`]: game records (TOML): read, write, replay.
//! - [`bot`]: players that choose actions (random, greedy) and batches of games between them.
//! - [`ui`]: the terminal game, actions and events in words, JSON views, pictures of the board.
//! - [`lab`]: the variant lab — the same seeded games under several rulesets, spread over
//!   threads and shards, compared with confidence intervals in a table, JSON or an HTML page.
//!
//! ## Example
//! ```
//! use castellan::{engine::game::{Game, Setup}, data::ruleset::Ruleset, bot::{Bot, RandomBot}};
//! let rules = Ruleset::load("base").unwrap();
//! let (mut game, _events) = Game::new(rules, Setup::new(vec!["Ann".into(), "Bob".into()], 7)).unwrap();
//! let mut bot = RandomBot::new(1);
//! while !game.is_over() {
//!     let action = bot.choose(&game);
//!     game.apply(&action).unwrap();
//! }
//! assert_eq!(game.tiles_left(), 0);
//! ```

pub mod bot;
pub mod data;
pub mod engine;
pub mod lab;
pub mod mechanic;
pub mod model;
pub mod record;
pub mod registry;
pub mod script;
pub mod ui;
