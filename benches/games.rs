//! Full random games per second, the engine's headline speed figure; greedy games per second
//! and MCTS iterations per second for the lab.
//!
//! `cargo bench --profile release --bench games` (the shipped build, with LTO; a plain
//! `cargo bench` measures the engine without it) — each iteration plays one whole game with
//! random legal moves (two players), so the reported time is the time per game; games per
//! second = 1 / time.
//! `cargo bench --bench games -- simulate_threads` compares one thread with two.

use castellan::bot::mcts::{Budget, MctsBot, Playout};
use castellan::bot::simulate::{play_bots, play_random, run_on};
use castellan::bot::{Bot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::game::{Game, Setup};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn bench_ruleset(c: &mut Criterion, name: &str) {
    let rules = Ruleset::load(name).expect("shipped ruleset loads");
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function(format!("{name}_2p"), |b| {
        b.iter(|| {
            seed += 1;
            let game = play_random(&rules, 2, seed).expect("two players are allowed");
            black_box(game.scores()[0])
        })
    });
    group.finish();
}

/// A two-player game of `name` after 36 turns of random play.
fn midgame(name: &str) -> Game {
    let rules = Ruleset::load(name).expect("shipped ruleset loads");
    let setup = Setup::new(vec!["A".into(), "B".into()], 7);
    let (mut game, _) = Game::new(rules, setup).expect("the game starts");
    let mut bot = RandomBot::new(7);
    while game.turn() < 36 && !game.is_over() {
        let action = bot.choose(&game);
        game.apply(&action).expect("a legal action");
    }
    game
}

/// Copying a game half-way through (bots copy the state for every candidate they try).
fn bench_clone(c: &mut Criterion, name: &str) {
    let game = midgame(name);
    c.bench_function(&format!("clone_midgame/{name}"), |b| {
        b.iter(|| black_box(game.clone()))
    });
    // What bots do: copy onto a game kept from the previous candidate, reusing its memory.
    let mut kept = game.clone();
    c.bench_function(&format!("clone_from_midgame/{name}"), |b| {
        b.iter(|| {
            kept.clone_from(&game);
            black_box(&kept);
        })
    });
}

/// Greedy against greedy in `hig`: whole games (issue 11's target: 150 games per second).
fn bench_greedy(c: &mut Criterion) {
    let rules = Ruleset::load("hig").expect("shipped ruleset loads");
    let mut group = c.benchmark_group("greedy_game");
    group.throughput(Throughput::Elements(1));
    group.sample_size(10);
    let mut seed = 0u64;
    group.bench_function("hig_2p", |b| {
        b.iter(|| {
            seed += 1;
            let game = play_bots(&rules, &["greedy", "greedy"], seed).expect("the game runs");
            black_box(game.scores()[0])
        })
    });
    group.finish();
}

/// MCTS iterations per second: one decision of `mcts:1000` in a mid-game `hig` position
/// (throughput in iterations).
fn bench_mcts(c: &mut Criterion) {
    let game = midgame("hig");
    let mut group = c.benchmark_group("mcts_decision");
    group.throughput(Throughput::Elements(1000));
    group.sample_size(10);
    group.bench_function("hig_1000_iterations", |b| {
        b.iter(|| {
            let mut mcts = MctsBot::new(Budget::Iterations(1000), Playout::Estimate, 1);
            black_box(mcts.choose(&game))
        })
    });
    group.finish();
}

/// `castellan simulate` on one and on two threads: 400 random `hig` games per iteration
/// (throughput in games), the engine's scaling over cores (issue 34: at least ×1.8 on two).
fn bench_threads(c: &mut Criterion) {
    let rules = Ruleset::load("hig").expect("shipped ruleset loads");
    let mut group = c.benchmark_group("simulate_threads");
    let games = 400;
    group.throughput(Throughput::Elements(games));
    group.sample_size(20);
    for threads in [1, 2] {
        group.bench_function(format!("hig_{threads}"), |b| {
            b.iter(|| {
                let stats = run_on(&rules, 2, games, 1, threads, |_| {}).expect("the games run");
                black_box(stats)
            })
        });
    }
    group.finish();
}

fn games(c: &mut Criterion) {
    bench_ruleset(c, "base");
    bench_ruleset(c, "hig");
    // The dungeon variant: hig, the tower tiles and scripts/dungeon.rhai (issue 4's speed goal:
    // at least 1,000 games per second on one core).
    bench_ruleset(c, "dungeon");
    // Every box the P&D interaction pages talk about (issue 10's goal: at least 4,000 games per
    // second on one core): 2nd-edition base with the Abbot, P&D, Inns & Cathedrals, Traders &
    // Builders.
    bench_ruleset(c, "hig-full");
    // Every box castellan has (issues 31 and 32: at least 40% of `hig-full`'s speed): hig-full,
    // The Tower, Abbey & Mayor, Bridges, Castles & Bazaars and Hills & Sheep (a script); and
    // the same without Hills & Sheep (the boxes written in Rust).
    bench_ruleset(c, "hig-big-box");
    bench_ruleset(c, "hig-big-box-native");
    // The dungeon with the figures it names: big follower, builder and pig (issue 10).
    bench_ruleset(c, "dungeon-full");
    bench_clone(c, "hig");
    bench_greedy(c);
    bench_mcts(c);
    bench_threads(c);
}

criterion_group!(benches, games);
criterion_main!(benches);
