//! Bots: the greedy bot beats the random one clearly, every bot plays legally under every
//! shipped ruleset, and `simulate` takes one bot per seat.

use castellan::bot::simulate::{self, Stats};
use castellan::bot::{self, Bot, GreedyBot};
use castellan::data::library::{self, Kind};
use castellan::data::ruleset::Ruleset;
use castellan::engine::game::{Game, Setup, Tally};
use std::process::Command;
use std::sync::Arc;

#[test]
fn greedy_beats_random_clearly() {
    // 200 games of `hig`: 100 with greedy in the first seat, 100 with greedy in the second,
    // on two threads. Measured: greedy wins all 200, mean scores about 155 against 25.
    let rules = Ruleset::load("hig").expect("hig loads");
    let run = |bots: [&'static str; 2], seed: u64| {
        let rules = Arc::clone(&rules);
        move || simulate::run_bots(&rules, &bots, 100, seed, |_| {}).expect("the games run")
    };
    let (first, second): (Stats, Stats) = std::thread::scope(|s| {
        let a = s.spawn(run(["greedy", "random"], 0));
        let b = s.spawn(run(["random", "greedy"], 100));
        (a.join().expect("no panic"), b.join().expect("no panic"))
    });
    assert_eq!(first.bots, ["greedy", "random"]);
    let greedy_wins = first.wins[0] + second.wins[1];
    let greedy_mean = (first.mean_scores[0] + second.mean_scores[1]) / 2.0;
    let random_mean = (first.mean_scores[1] + second.mean_scores[0]) / 2.0;
    eprintln!(
        "greedy wins {greedy_wins} of 200; mean scores greedy {greedy_mean:.1}, random {random_mean:.1}"
    );
    assert!(greedy_wins >= 180, "greedy won only {greedy_wins} of 200");
    assert!(
        greedy_mean > 2.0 * random_mean,
        "greedy {greedy_mean:.1} against random {random_mean:.1}"
    );
}

#[test]
fn bots_are_found_by_name() {
    for name in bot::NAMES {
        let b = bot::by_name(name, 1).expect("a known bot");
        assert_eq!(b.name(), name);
        assert!(bot::is_bot_name(name));
    }
    assert!(bot::by_name("Ann", 1).is_none());
    assert!(!bot::is_bot_name("Ann"));
}

#[test]
fn the_greedy_bot_is_deterministic_given_its_seed() {
    let rules = Ruleset::load("hig").expect("hig loads");
    let play = |seed: u64| {
        let names = vec!["A".to_string(), "B".to_string()];
        let (mut game, _) = Game::new(Arc::clone(&rules), Setup::new(names, 5)).expect("a game");
        let mut bots = [GreedyBot::new(seed), GreedyBot::new(seed + 1)];
        while !game.is_over() {
            let seat = game.decision().player;
            let action = bots[seat].choose(&game);
            game.apply(&action).expect("greedy plays legally");
        }
        game.history().to_vec()
    };
    assert_eq!(play(1), play(1));
}

#[test]
fn every_bot_finishes_games_under_every_shipped_ruleset() {
    for name in library::builtin_names(Kind::Ruleset) {
        let rules = Ruleset::load(name).expect("shipped rulesets load");
        let players = 3.clamp(rules.players.0, rules.players.1);
        let bots: Vec<&str> = ["greedy", "random", "greedy"][..players].to_vec();
        for seed in 0..2 {
            let game = simulate::play_bots(&rules, &bots, seed).expect("the game runs");
            // `play_bots` stops at the first refused action; a finished game means none was.
            assert!(
                game.is_over(),
                "{name}, seed {seed}: a bot's action was refused"
            );
        }
    }
}

#[test]
fn unknown_bots_are_refused() {
    let rules = Ruleset::load("base").expect("base loads");
    let err = simulate::run_bots(&rules, &["greedy", "clever"], 1, 0, |_| {}).unwrap_err();
    assert!(err.to_string().contains("unknown bot `clever`"), "{err}");
}

fn castellan(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn simulate_takes_a_bot_per_seat() {
    let out = castellan(&[
        "simulate",
        "--ruleset",
        "base",
        "--games",
        "4",
        "--bots",
        "greedy,random",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("seat 1 (greedy): mean score"), "{text}");
    assert!(text.contains("seat 2 (random): mean score"), "{text}");
    assert!(text.contains("wins"), "{text}");

    let json = castellan(&[
        "simulate",
        "--ruleset",
        "base",
        "--games",
        "2",
        "--bots",
        "random,greedy",
        "--json",
    ]);
    let value: serde_json::Value =
        serde_json::from_slice(&json.stdout).expect("simulate --json prints JSON");
    assert_eq!(value["bots"], serde_json::json!(["random", "greedy"]));
    assert_eq!(value["wins"].as_array().map(Vec::len), Some(2));

    // --players alone still means random bots.
    let plain = castellan(&[
        "simulate",
        "--ruleset",
        "base",
        "--games",
        "3",
        "--players",
        "3",
    ]);
    let text = String::from_utf8_lossy(&plain.stdout);
    assert!(plain.status.success(), "{text}");
    assert!(text.contains("seat 3 (random)"), "{text}");
}

#[test]
fn simulate_refuses_disagreeing_or_unknown_bots() {
    let disagree = castellan(&[
        "simulate",
        "--games",
        "1",
        "--players",
        "3",
        "--bots",
        "greedy,random",
    ]);
    assert_eq!(disagree.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&disagree.stderr).contains("disagrees"));
    let unknown = castellan(&["simulate", "--games", "1", "--bots", "greedy,clever"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown bot `clever`"));
}

/// `Game::pick_legal`, which the random bot uses to build only the action it picks, chooses
/// exactly what indexing the full legal list would, for every index of every decision (every
/// part of it: the asking mechanic's answers, each mechanic's additions, `pass`) in seeded
/// games of every shipped ruleset (with and without placement filters, portals, the fairy in
/// both modes, abbots, the Count and scripts), and nothing where nothing is legal; and so does
/// one tally (`Game::tally_legal`, as the Python binding keeps it) read again for every index
/// (`Game::nth_legal`), which gives nothing past the end.
#[test]
fn picking_a_legal_action_matches_the_legal_list() {
    let (mut list, mut scratch, mut tally) = (Vec::new(), Vec::new(), Tally::default());
    each_decision(
        &library::builtin_names(Kind::Ruleset),
        |name, seed, game| {
            list.clear();
            game.legal_actions(&mut list);
            let n = list.len();
            for k in 0..n.max(1) {
                let picked = game.pick_legal(&mut scratch, |m| {
                    assert_eq!(m, n, "{name} seed {seed}: the count");
                    k
                });
                assert_eq!(picked, list.get(k).copied(), "{name} seed {seed}: pick {k}");
            }
            game.tally_legal(&mut tally, &mut scratch);
            assert_eq!(tally.len(), n, "{name} seed {seed}: the tally's count");
            assert_eq!(
                tally.is_empty(),
                n == 0,
                "{name} seed {seed}: nothing legal"
            );
            for k in 0..=n {
                let nth = game.nth_legal(&tally, &scratch, k);
                assert_eq!(nth, list.get(k).copied(), "{name} seed {seed}: answer {k}");
            }
        },
    );
    let rules = Ruleset::load("hig").expect("a shipped ruleset");
    let over = simulate::play_random(&rules, 2, 1).expect("plays to the end");
    assert!(over.is_over() && over.legal().is_empty());
    over.tally_legal(&mut tally, &mut scratch);
    assert!(tally.is_empty());
    assert_eq!(over.pick_legal(&mut scratch, |_| 0), None);
}

/// Calls `visit` with the ruleset's name, the seed and the game at every decision of random
/// games (seeds 1 to 3, two players) of each ruleset of `names`.
fn each_decision(names: &[&str], mut visit: impl FnMut(&str, u64, &Game)) {
    for name in names {
        let rules = Ruleset::load(name).expect("a shipped ruleset");
        for seed in 1..=3 {
            let names = vec!["A".to_string(), "B".to_string()];
            let (mut game, _) =
                Game::new(Arc::clone(&rules), Setup::new(names, seed)).expect("starts");
            let mut bot = bot::RandomBot::new(seed);
            while !game.is_over() {
                visit(name, seed, &game);
                let action = bot.choose(&game);
                game.apply(&action).expect("a legal action");
            }
        }
    }
}

/// `Game::legal_actions_near`, the narrower list the greedy bot looks ahead with, keeps, in the
/// full list's order, every answer but deployments on other tiles than the one asked about and
/// the fairy's moves, and leaves out only such answers (many, in `hig`, with its portals and
/// fairy): in seeded games of rulesets with portals, the fairy, abbots, the Count and scripts
/// that add answers, asked about the tile just laid and about the start tile.
#[test]
fn the_list_near_a_tile_keeps_every_other_answer() {
    use castellan::engine::action::Action;
    use castellan::mechanic::pd::vocabulary::PdAction;
    let elsewhere = |a: &Action, pos| match a {
        Action::Deploy { pos: at, .. } => *at != pos,
        a => matches!(PdAction::of(a), Some(PdAction::Fairy { .. })),
    };
    let mut left_out = 0;
    let (mut full, mut near) = (Vec::new(), Vec::new());
    let names = [
        "hig",
        "hig-full",
        "hig-big-box",
        "hig-abbot",
        "count",
        "house-fairy-five-script",
    ];
    each_decision(&names, |name, seed, game| {
        full.clear();
        game.legal_actions(&mut full);
        let laid = game.history().iter().rev().find_map(|a| match a {
            Action::Place { pos, .. } => Some(*pos),
            _ => None,
        });
        let start = game.board().tiles()[0].pos;
        for pos in laid.into_iter().chain([start]) {
            near.clear();
            game.legal_actions_near(pos, &mut near);
            // `near` is `full` less some of the answers elsewhere, in the same order.
            let mut rest = near.iter().peekable();
            for a in &full {
                if rest.peek() == Some(&a) {
                    rest.next();
                } else {
                    assert!(elsewhere(a, pos), "{name} seed {seed}: {a:?} left out");
                    left_out += 1;
                }
            }
            assert_eq!(
                rest.next(),
                None,
                "{name} seed {seed}: not in the full list"
            );
        }
    });
    assert!(left_out > 1000, "only {left_out} answers left out");
}
