//! Chance for scripts: `random(n)` and hidden bags of tokens, both drawn from the game's own
//! seeded generator. A replay draws the same numbers (the generator is part of the game); a
//! game of another seed draws others; and a search bot's copy of a game
//! (`Game::resample_hidden`) draws anew, so no bot sees what a bag gives next.
//!
//! A bag holds how many of each token it has, in no order: what is in it is known to all (as
//! the tiles still to come are), what comes out next is not.

use crate::engine::game::Game;
use crate::script::family::{Slot, with_game};
use crate::script::lock;
use rand::RngExt;
use rhai::{Dynamic, Engine, EvalAltResult, ImmutableString};
use std::collections::BTreeMap;

/// The largest `n` of `random(n)`.
pub const MAX_RANDOM: i64 = 1 << 31;

/// The most tokens all of a game's bags hold together.
pub const MAX_TOKENS: u32 = 10_000;

/// The most bags, and the most kinds of token in one bag.
pub const MAX_BAGS: usize = 16;

type Failure = Box<EvalAltResult>;

/// Registers `random`, `bag_put`, `bag_draw` and `bag_count`.
pub(crate) fn register(engine: &mut Engine, slot: &Slot) {
    let s = slot.clone();
    engine.register_fn("random", move |n: i64| -> Result<i64, Failure> {
        if !(1..=MAX_RANDOM).contains(&n) {
            return Err(format!("random(n) needs n from 1 to {MAX_RANDOM}, not {n}").into());
        }
        with_game(&s, OUTSIDE, |g| Ok(g.rng.random_range(0..n)))
    });
    let s = slot.clone();
    engine.register_fn(
        "bag_put",
        move |bag: ImmutableString, token: ImmutableString, n: i64| -> Result<(), Failure> {
            with_game(&s, OUTSIDE, |g| put(g, &bag, &token, n))
        },
    );
    let s = slot.clone();
    engine.register_fn(
        "bag_draw",
        move |bag: ImmutableString| -> Result<Dynamic, Failure> {
            with_game(&s, OUTSIDE, |g| Ok(draw(g, &bag)))
        },
    );
    let s = slot.clone();
    engine.register_fn("bag_count", move |bag: ImmutableString| -> i64 {
        lock(&s).as_ref().map_or(0, |g| {
            tokens(g, &bag).map_or(0, |b| b.values().map(|n| i64::from(*n)).sum())
        })
    });
    let s = slot.clone();
    engine.register_fn(
        "bag_count",
        move |bag: ImmutableString, token: ImmutableString| -> i64 {
            lock(&s).as_ref().map_or(0, |g| {
                tokens(g, &bag)
                    .and_then(|b| b.get(token.as_str()))
                    .map_or(0, |n| i64::from(*n))
            })
        },
    );
}

/// What a script is told when it calls one of these outside a hook.
const OUTSIDE: &str = "chance is only drawn while a hook runs";

impl Game {
    /// What the scripts' bag called `bag` holds: each token with how many, in name order
    /// (empty for a bag never filled). Like the tiles still to come, this is known to all.
    pub fn bag_contents(&self, bag: &str) -> Vec<(String, u32)> {
        tokens(self, bag).map_or_else(Vec::new, |b| {
            b.iter().map(|(token, n)| (token.clone(), *n)).collect()
        })
    }
}

/// The tokens of the bag called `bag`, if it was ever filled.
fn tokens<'g>(g: &'g Game, bag: &str) -> Option<&'g BTreeMap<String, u32>> {
    g.scripts().and_then(|s| s.bags.get(bag))
}

/// `bag_put(bag, token, n)`: `n` more of `token` in the bag, within the limits.
fn put(g: &mut Game, bag: &str, token: &str, n: i64) -> Result<(), Failure> {
    let n = u32::try_from(n)
        .ok()
        .filter(|n| (1..=MAX_TOKENS).contains(n))
        .ok_or_else(|| format!("bag_put puts 1 to {MAX_TOKENS} tokens, not {n}"))?;
    let bags = &mut g.scripts_mut().bags;
    let total: u32 = bags.values().flat_map(|b| b.values()).sum();
    if total + n > MAX_TOKENS {
        return Err(format!("the bags would hold more than {MAX_TOKENS} tokens").into());
    }
    if !bags.contains_key(bag) && bags.len() >= MAX_BAGS {
        return Err(format!("a game has at most {MAX_BAGS} bags").into());
    }
    let tokens = bags.entry(bag.to_string()).or_default();
    if !tokens.contains_key(token) && tokens.len() >= MAX_BAGS * 4 {
        return Err(format!("a bag holds at most {} kinds of token", MAX_BAGS * 4).into());
    }
    *tokens.entry(token.to_string()).or_default() += n;
    Ok(())
}

/// `bag_draw(bag)`: one token at random out of the bag, or `()` when it is empty.
fn draw(g: &mut Game, bag: &str) -> Dynamic {
    let total: u32 = tokens(g, bag).map_or(0, |b| b.values().sum());
    if total == 0 {
        return Dynamic::UNIT;
    }
    let mut at = g.rng.random_range(0..total);
    let Some(tokens) = g.scripts_mut().bags.get_mut(bag) else {
        return Dynamic::UNIT;
    };
    let mut drawn = None;
    for (token, n) in tokens.iter_mut() {
        if at < *n {
            *n -= 1;
            drawn = Some(token.clone());
            break;
        }
        at -= *n;
    }
    tokens.retain(|_, n| *n > 0);
    drawn.map_or(Dynamic::UNIT, Dynamic::from)
}
