//! Traders & Builders as a script plays the same games as the built-in family (issue 30, "Done
//! when"): `hig-tb-script` and `hig-full-script` (the family switched off, the builder, the pig
//! and the goods played by `scripts/traders-builders.rhai`) against `hig-tb` and `hig-full`.
//!
//! Both rulesets play one seeded game in lockstep, with the same bot choices, and at every
//! decision the test compares what a user can see: the pending decision and its legal actions
//! (each in words), every event of the step in the log's words (`engine::words`, rule ids
//! included), its JSON form (`castellan replay --json`) and what it pays in the tally, the
//! scores, the figures on the board and the tokens each player holds (the score line's words); at the end, the whole game's narration (the web page's
//! log, with its rule notes). The first difference fails the test with the preset, the bot,
//! the game's seed and the step.
//!
//! Sources: RULES.md §1.10 (the builder's double turn, the pig, the goods), B-M1, B-M3, B-E2,
//! §2.6 PR7, §2.4 D8 (`pd.dragon.return_builder_pig`); \[ext:X2\] Wikicarpedia "Traders and
//! Builders". The rules themselves are asserted in `tests/traders_builders.rs`; this file asserts
//! that the script plays them exactly as the family does, and that the games played reach every
//! part of them (double turns, goods taken and paid, builders and pigs sent home with their
//! last follower, pigs paying their farms).
//!
//! `TB_SCRIPT_GAMES=N` plays N random games per preset instead of 2,000 (greedy: N / 40, at
//! least 1), for a quick look while changing the script.

use castellan::bot::{Bot, GreedyBot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::event::Event;
use castellan::engine::game::{Game, Setup};
use castellan::engine::words;
use castellan::mechanic::tb::vocabulary::TbEvent;
use castellan::ui::{narrate, report, tally};
use std::sync::Arc;

/// Random games per preset (issue 30: at least 2,000).
const RANDOM_GAMES: u64 = 2_000;
/// Greedy games per preset (issue 30: at least 50).
const GREEDY_GAMES: u64 = 50;

fn games(full: u64) -> u64 {
    std::env::var("TB_SCRIPT_GAMES")
        .ok()
        .and_then(|n| n.parse::<u64>().ok())
        .map_or(full, |n| {
            if full == GREEDY_GAMES {
                (n / 40).max(1)
            } else {
                n
            }
        })
}

/// What was seen of the games, to show that they reach every part of the family.
#[derive(Default, Debug)]
struct Seen {
    double_turns: u32,
    goods_taken: u32,
    goods_paid: u32,
    /// Builders and pigs sent home with their owner's last follower (PR7, D8).
    knock_ons: u32,
    builders_deployed: u32,
    pigs_deployed: u32,
}

/// One step of both games: everything a user sees of it, in words.
fn seen_step(game: &Game, events: &[Event]) -> Vec<String> {
    let names = &game.setup().players;
    let mut out = Vec::new();
    let decision = game.decision();
    out.push(format!("decision {:?}", decision));
    for e in events {
        out.push(format!(
            "{} | {} | {:?}",
            words::event(e, names),
            report::event_json(e, names),
            tally::payment(e)
        ));
    }
    out.push(format!("scores {:?}", game.scores()));
    let figures: Vec<String> = game
        .figures()
        .iter()
        .map(|f| {
            let (pos, spot) = game.figure_spot(f);
            format!("{} {} {pos} {}", f.owner, f.kind.name(), spot.name())
        })
        .collect();
    out.push(format!("figures {figures:?}"));
    // The tokens each player holds, as the score line says them ("goods: 2 wine, 1 cloth"):
    // the family's from its state, the script's from `hold_tokens`.
    let tokens: Vec<Option<String>> = (0..names.len())
        .map(|seat| castellan::ui::render::text::tokens_words(game, seat))
        .collect();
    out.push(format!("tokens {tokens:?}"));
    out
}

fn legal_words(game: &Game) -> Vec<String> {
    game.legal().iter().map(words::action).collect()
}

fn count(seen: &mut Seen, events: &[Event]) {
    for e in events {
        match TbEvent::of(e) {
            Some(TbEvent::DoubleTurn { .. }) => seen.double_turns += 1,
            Some(TbEvent::GoodsTaken { .. }) => seen.goods_taken += 1,
            Some(TbEvent::GoodsMajority { .. }) => seen.goods_paid += 1,
            None => {}
        }
        match e {
            Event::FigureReturned { figure, reason, .. }
                if matches!(figure.name(), "builder" | "pig")
                    && reason.name() != "scored"
                    && reason.name() != "princess" =>
            {
                seen.knock_ons += 1
            }
            Event::FigureDeployed { figure, .. } if figure.name() == "builder" => {
                seen.builders_deployed += 1
            }
            Event::FigureDeployed { figure, .. } if figure.name() == "pig" => {
                seen.pigs_deployed += 1
            }
            _ => {}
        }
    }
}

/// Plays game `seed` under `native` and `script` in lockstep; panics at the first difference.
fn lockstep(
    native: &Arc<Ruleset>,
    script: &Arc<Ruleset>,
    seed: u64,
    greedy: bool,
    seen: &mut Seen,
) {
    let players = 2 + (seed % 3) as usize;
    let names: Vec<String> = (1..=players).map(|i| format!("P{i}")).collect();
    let start = |rules: &Arc<Ruleset>| {
        Game::new(Arc::clone(rules), Setup::new(names.clone(), seed)).expect("the game starts")
    };
    let ((mut a, a_start), (mut b, b_start)) = (start(native), start(script));
    let what = |step: usize| {
        format!(
            "{} vs {}, {} bot, seed {seed}, {players} players, step {step}",
            native.name,
            script.name,
            if greedy { "greedy" } else { "random" }
        )
    };
    assert_eq!(
        seen_step(&a, &a_start),
        seen_step(&b, &b_start),
        "{}",
        what(0)
    );
    // The random bot's index into the legal list, or a greedy bot for each game.
    let mut random = RandomBot::for_game(seed);
    let mut greedy_bots = greedy.then(|| Box::new((GreedyBot::new(seed), GreedyBot::new(seed))));
    let (mut log_a, mut log_b) = (a_start, b_start);
    let mut step = 0;
    while !a.is_over() {
        step += 1;
        let legal = a.legal();
        assert_eq!(
            legal_words(&a),
            legal_words(&b),
            "legal actions: {}",
            what(step)
        );
        assert_eq!(legal, b.legal(), "legal actions: {}", what(step));
        let (action_a, action_b): (Action, Action) = match &mut greedy_bots {
            None => {
                let pick = legal[random.index(legal.len())];
                (pick, pick)
            }
            Some(bots) => (bots.0.choose(&a), bots.1.choose(&b)),
        };
        assert_eq!(action_a, action_b, "the bots' choice: {}", what(step));
        let events_a = a.apply(&action_a).expect("a legal action applies");
        let events_b = b
            .apply(&action_b)
            .unwrap_or_else(|e| panic!("{}: {e}", what(step)));
        assert_eq!(
            seen_step(&a, &events_a),
            seen_step(&b, &events_b),
            "after {}: {}",
            words::action(&action_a),
            what(step)
        );
        count(seen, &events_a);
        log_a.extend(events_a);
        log_b.extend(events_b);
    }
    assert!(b.is_over(), "{}", what(step));
    let narration = |g: &Game, log: &[Event]| -> Vec<String> {
        narrate::lines(g, log, &g.setup().players)
            .into_iter()
            .map(|l| format!("{} [{:?}]", l.text, l.note))
            .collect()
    };
    assert_eq!(
        narration(&a, &log_a),
        narration(&b, &log_b),
        "narration: {}",
        what(step)
    );
}

/// Plays `n` games of each kind under `preset` and its script twin, and checks that they
/// reached every part of Traders & Builders.
fn same_games(preset: &str, greedy: bool, n: u64) -> Seen {
    let native = Ruleset::load(preset).expect("the preset loads");
    let script = Ruleset::load(&format!("{preset}-script")).expect("the script preset loads");
    assert!(native.switched_on("traders_builders"));
    assert!(!script.switched_on("traders_builders"));
    let mut seen = Seen::default();
    for seed in 0..n {
        lockstep(&native, &script, seed, greedy, &mut seen);
    }
    seen
}

/// Every part of the family was played, so the games compared test it (`all`: the full
/// count of games, where every part shows up; a few games reach the goods and the builder).
fn reached_everything(seen: &Seen, all: bool) {
    assert!(seen.goods_taken > 0, "{seen:?}");
    assert!(seen.goods_paid > 0, "{seen:?}");
    assert!(seen.builders_deployed > 0, "{seen:?}");
    if all {
        assert!(seen.double_turns > 0, "{seen:?}");
        assert!(seen.pigs_deployed > 0, "{seen:?}");
        assert!(seen.knock_ons > 0, "{seen:?}");
    }
}

#[test]
fn hig_tb_random_games_are_the_same_with_the_script() {
    let n = games(RANDOM_GAMES);
    reached_everything(&same_games("hig-tb", false, n), n >= 200);
}

#[test]
fn hig_full_random_games_are_the_same_with_the_script() {
    let n = games(RANDOM_GAMES);
    reached_everything(&same_games("hig-full", false, n), n >= 200);
}

#[test]
fn hig_tb_greedy_games_are_the_same_with_the_script() {
    let n = games(GREEDY_GAMES);
    reached_everything(&same_games("hig-tb", true, n), n >= GREEDY_GAMES);
}

#[test]
fn hig_full_greedy_games_are_the_same_with_the_script() {
    let n = games(GREEDY_GAMES);
    reached_everything(&same_games("hig-full", true, n), n >= GREEDY_GAMES);
}
