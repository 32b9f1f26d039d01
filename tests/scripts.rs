//! Rhai scripting: the differential tests (a house rule as toggles and as a script give the
//! same games), the tutorial of scripts/README.md, the sandbox, and the promise that a ruleset
//! without scripts never enters rhai.

mod common;

use castellan::bot::{Bot, RandomBot};
use castellan::data::library::Source;
use castellan::data::ruleset::Ruleset;
use castellan::engine::event::Event;
use castellan::engine::game::{Game, RuleError, Setup, SetupError};
use castellan::mechanic::pd::vocabulary::PdEvent;
use castellan::script;
use std::sync::Arc;

/// Plays a whole game with a random bot and returns every event.
fn play(rules: &Arc<Ruleset>, players: usize, seed: u64) -> (Game, Vec<Event>) {
    let names = (0..players).map(|i| format!("P{i}")).collect();
    let (mut game, mut events) =
        Game::new(Arc::clone(rules), Setup::new(names, seed)).expect("the game starts");
    let mut bot = RandomBot::new(seed + 17);
    while !game.is_over() {
        let action = bot.choose(&game);
        events.extend(game.apply(&action).expect("a legal action is accepted"));
    }
    (game, events)
}

/// Seed 004 §House Rules (3rd bullet), RULES.md T-F7/A21: the 5-point fairy as toggles
/// (`house-fairy-five`) and as a script (`house-fairy-five-script`) give identical event logs.
#[test]
fn fairy_five_script_equals_the_toggles() {
    let toggles = Ruleset::load("house-fairy-five").expect("loads");
    let script = Ruleset::load("house-fairy-five-script").expect("loads");
    let mut bonuses = 0;
    for seed in 0..40 {
        let (_, a) = play(&toggles, 2 + (seed % 3) as usize, seed);
        let (_, b) = play(&script, 2 + (seed % 3) as usize, seed);
        assert_eq!(a, b, "seed {seed}");
        bonuses += a
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Scored {
                        rule: "FA8 fairy bonus",
                        points: 5,
                        ..
                    }
                )
            })
            .count();
    }
    assert!(
        bonuses > 0,
        "the comparison must include fairy bonuses: {bonuses}"
    );
}

/// Seed 004 §House Rules (4th bullet), RULES.md A22: the shielding fairy as toggles and as a
/// script give identical event logs.
#[test]
fn fairy_shield_script_equals_the_toggles() {
    let toggles = Ruleset::load("house-fairy-shield").expect("loads");
    let script = Ruleset::load("house-fairy-shield-script").expect("loads");
    for seed in 0..40 {
        let (_, a) = play(&toggles, 2 + (seed % 3) as usize, seed);
        let (_, b) = play(&script, 2 + (seed % 3) as usize, seed);
        assert_eq!(a, b, "seed {seed}");
    }
}

/// The tutorial of scripts/README.md is exactly the shipped files, and it pays what it says.
#[test]
fn the_tutorial_works_as_written() {
    let readme = std::fs::read_to_string("scripts/README.md").expect("readme");
    let script = std::fs::read_to_string("scripts/pilgrims.rhai").expect("script");
    let rules = std::fs::read_to_string("rulesets/house-pilgrims.toml").expect("ruleset");
    assert!(
        readme.contains(&format!("```rhai\n{script}```")),
        "README and script differ"
    );
    assert!(
        readme.contains(&format!("```toml\n{rules}```")),
        "README and ruleset differ"
    );

    let pilgrims = Ruleset::load("house-pilgrims").expect("loads");
    let mut blessed = 0;
    for seed in 0..300 {
        if blessed > 2 {
            break;
        }
        let (game, events) = play(&pilgrims, 2, seed);
        // Every completed cloister with its monk gives +2 to the monk's owner, +1 to the placer.
        let cloisters = events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Scored {
                        feature: castellan::model::tile::FeatureKind::Cloister,
                        points: 9,
                        ..
                    }
                )
            })
            .count();
        let blessings = events
            .iter()
            .filter(|e| matches!(e, Event::ScriptScored { points: 2, .. }))
            .count();
        assert_eq!(cloisters, blessings, "seed {seed}");
        blessed += blessings;
        let total: u32 = events
            .iter()
            .map(|e| match (e, PdEvent::of(e)) {
                (Event::Scored { points, .. } | Event::ScriptScored { points, .. }, _) => *points,
                (_, Some(PdEvent::FairyPoint { points, .. })) => points,
                _ => 0,
            })
            .sum();
        assert_eq!(total, game.scores().iter().sum::<u32>(), "seed {seed}");
    }
    assert!(blessed > 0, "some cloister must be completed with its monk");
}

const LOOP: &str = "fn turn_start() {\n    let n = 0;\n    loop {\n        n += 1;\n    }\n}\n";

/// Writes `script` and a ruleset that loads it into `dir`; returns the ruleset's path.
fn scripted(dir: &std::path::Path, script: &str, extra: &str) -> String {
    std::fs::create_dir_all(dir.join("scripts")).expect("dir");
    std::fs::write(dir.join("scripts/test.rhai"), script).expect("script");
    let path = dir.join("test.toml");
    let text =
        format!("extends = \"hig\"\nname = \"t\"\nscripts = [\"scripts/test.rhai\"]\n{extra}");
    std::fs::write(&path, text).expect("ruleset");
    path.display().to_string()
}

fn ruleset(path: &str) -> Result<Arc<Ruleset>, castellan::data::diagnostic::Diagnostic> {
    Ruleset::load(path)
}

/// The sandbox: an endless loop stops with a clear error naming the file, line and hook.
#[test]
fn an_endless_loop_stops_with_a_clear_error() {
    let dir = std::env::temp_dir().join("castellan-loop");
    let rules = ruleset(&scripted(
        &dir,
        LOOP,
        "[scripting]\nmax_operations = 5000\n",
    ))
    .expect("the ruleset loads");
    let err = Game::new(rules, Setup::new(vec!["A".into(), "B".into()], 1))
        .expect_err("the hook cannot finish");
    let SetupError::Script(e) = err else {
        panic!("not a script error: {err}")
    };
    assert_eq!(e.hook, "turn_start");
    // rhai does not say where the operation limit struck: the hook's own line is given.
    assert!((1..=4).contains(&e.line), "{e}");
    assert!(e.column > 0, "{e}");
    assert!(e.file.ends_with("test.rhai"), "{e}");
    assert!(e.message.to_lowercase().contains("operations"), "{e}");
}

/// A runtime error names its position; the action is rejected and the game is unchanged.
#[test]
fn a_failing_hook_leaves_the_game_unchanged() {
    let dir = std::env::temp_dir().join("castellan-fail");
    let script = "fn place() {\n    let x = 1;\n    x.no_such_method();\n}\n";
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let (mut game, _) = Game::new(
        Arc::clone(&rules),
        Setup::new(vec!["A".into(), "B".into()], 3),
    )
    .expect("starts");
    let before = castellan::record::write(&game, "t");
    let scores = game.scores().to_vec();
    let action = game.legal()[0];
    let err = game.apply(&action).expect_err("the place hook fails");
    let RuleError::Script(e) = err else {
        panic!("not a script error: {err}")
    };
    assert_eq!((e.line, e.hook.as_str()), (3, "place"), "{e}");
    assert_eq!(castellan::record::write(&game, "t"), before);
    assert_eq!(game.scores(), scores.as_slice());
    assert_eq!(game.legal()[0], action, "the same decision is pending");
}

/// No file access: rhai offers no file functions, `eval` is disabled and imports cannot leave
/// the scripts folder.
#[test]
fn scripts_cannot_reach_files() {
    let dir = std::env::temp_dir().join("castellan-files");
    for (script, what) in [
        (
            "fn turn_start() { open_file(\"/etc/passwd\"); }",
            "open_file",
        ),
        ("fn turn_start() { eval(\"1\"); }", "eval"),
        (
            "import \"../../etc/passwd\" as p;\nfn turn_start() { }",
            "scripts folder",
        ),
        (
            "import \"/etc/passwd\" as p;\nfn turn_start() { }",
            "scripts folder",
        ),
    ] {
        let text = scripted(&dir, script, "");
        let outcome = ruleset(&text).map_err(|d| d.to_string()).and_then(|r| {
            Game::new(r, Setup::new(vec!["A".into(), "B".into()], 1))
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
        let message = outcome.expect_err(what);
        assert!(
            message.contains(what) || message.contains("eval"),
            "{what}: {message}"
        );
    }
}

/// A syntax error is reported at load with file, line and column.
#[test]
fn a_syntax_error_is_located() {
    let dir = std::env::temp_dir().join("castellan-syntax");
    let e = ruleset(&scripted(&dir, "fn place() {\n  let = 3;\n}\n", "")).expect_err("bad");
    assert!(e.file.ends_with("test.rhai"), "{e}");
    assert_eq!(e.line_col().map(|l| l.0), Some(2), "{e}");
}

/// A ruleset without scripts makes no rhai call at all (DESIGN.md, issue 4).
#[test]
fn no_scripts_means_no_rhai_calls() {
    let before = script::calls_on_this_thread();
    let hig = Ruleset::load("hig").expect("loads");
    for seed in 0..5 {
        play(&hig, 3, seed);
    }
    assert_eq!(script::calls_on_this_thread(), before);
    let scripted = Ruleset::load("house-fairy-shield-script").expect("loads");
    play(&scripted, 2, 0);
    assert!(
        script::calls_on_this_thread() > before,
        "the counter counts"
    );
}

/// Offered actions, script decisions for other players, state and records: a script offers
/// "tithe" at the deploy decision (pay 1 point … to gain 2 later), asks the next player a
/// question, keeps state, and its actions replay from a written record.
#[test]
fn offered_actions_questions_and_state_replay() {
    let dir = std::env::temp_dir().join("castellan-offer");
    let script = r#"
fn actions(decision) {
    if decision.kind == "deploy" { return [#{ name: "tithe", args: [1], label: "pay a tithe" }]; }
    []
}
fn action(name, args) {
    if name == "tithe" {
        let s = state();
        if type_of(s) == "()" { s = #{ tithes: 0 }; }
        s.tithes += args[0];
        set_state(s);
        let next = (active() + 1) % players();
        ask(next, [#{ name: "bless", args: [active()], label: "bless" },
                   #{ name: "curse", args: [active()], label: "curse" }]);
    }
    if name == "bless" { score(args[0], 2, "blessed"); }
}
"#;
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let (mut game, _) = Game::new(
        Arc::clone(&rules),
        Setup::new(vec!["A".into(), "B".into()], 5),
    )
    .expect("starts");
    let place = game.legal()[0];
    game.apply(&place).expect("place");
    let tithe = game
        .legal()
        .into_iter()
        .find(|a| matches!(a, castellan::engine::action::Action::Script(_)))
        .expect("the script's action is offered at the deploy decision");
    game.apply(&tithe).expect("tithe");
    let d = game.decision();
    assert_eq!(d.player, 1, "the next player answers the script's question");
    assert_eq!(d.kind, castellan::engine::action::DecisionKind::Script);
    let bless = game
        .legal()
        .into_iter()
        .find(|a| castellan::engine::words::action(a) == "bless")
        .expect("bless offered");
    game.apply(&bless).expect("bless");
    assert_eq!(game.scores()[0], 2);
    assert_eq!(game.script_state()["tithes"], 1);
    // The record holds the script actions and replays to the same game.
    let text = castellan::record::write(&game, &dir.join("test.toml").display().to_string());
    assert!(text.contains("script = [\"tithe\", 1]"), "{text}");
    let replay = castellan::record::Record::parse(Source {
        path: dir.join("mem.toml"),
        text,
    })
    .expect("parses")
    .replay()
    .expect("replays");
    assert_eq!(replay.game.scores(), game.scores());
    assert_eq!(replay.game.script_state(), game.script_state());
}

/// Narrow hooks run only where they apply; `each` offers one action per argument list and a
/// label is a template filled in with the arguments; `vars` reads the ruleset's free values.
#[test]
fn narrow_hooks_bulk_offers_and_label_templates() {
    let dir = std::env::temp_dir().join("castellan-narrow");
    let script = r#"
fn actions_deploy(player) {
    [#{ name: "tithe", each: [[1, player], [vars("tithe.high"), player]], label: "seat {1} pays {0}" }]
}
fn action(name, args) { score(active(), args[0], "tithe"); }
"#;
    let rules = ruleset(&scripted(&dir, script, "[vars.tithe]\nhigh = 3\n")).expect("loads");
    let (mut game, _) = Game::new(
        Arc::clone(&rules),
        Setup::new(vec!["A".into(), "B".into()], 5),
    )
    .expect("starts");
    let scripted = |g: &Game| -> Vec<String> {
        g.legal()
            .into_iter()
            .filter(|a| matches!(a, castellan::engine::action::Action::Script(_)))
            .map(|a| castellan::engine::words::action(&a))
            .collect()
    };
    assert!(scripted(&game).is_empty(), "nothing at the place decision");
    let place = game.legal()[0];
    game.apply(&place).expect("place");
    assert_eq!(scripted(&game), ["seat 0 pays 1", "seat 0 pays 3"]);
    let pay = game
        .legal()
        .into_iter()
        .find(|a| castellan::engine::words::action(a) == "seat 0 pays 3")
        .expect("offered");
    game.apply(&pay).expect("pays");
    assert_eq!(game.scores()[0], 3);
}

/// A script that fails late in a game: the action is refused and the game is exactly what it
/// was (rebuilt from its set-up and history), and the game goes on from there.
#[test]
fn a_hook_failing_late_rolls_the_game_back_exactly() {
    let dir = std::env::temp_dir().join("castellan-late");
    let script = "fn deploy() {\n    if turn() == 9 { throw \"late\"; }\n}\n";
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let (mut game, _) = Game::new(
        Arc::clone(&rules),
        Setup::new(vec!["A".into(), "B".into()], 11),
    )
    .expect("starts");
    let mut bot = RandomBot::new(3);
    while game.turn() < 9 || game.decision().kind != castellan::engine::action::DecisionKind::Deploy
    {
        let a = bot.choose(&game);
        game.apply(&a).expect("early turns are fine");
    }
    let before = castellan::record::write(&game, "t");
    let (scores, figures, legal) = (
        game.scores().to_vec(),
        game.figures().to_vec(),
        game.legal(),
    );
    let err = game.apply(&legal[0]).expect_err("the deploy hook fails");
    assert!(
        matches!(err, RuleError::Script(ref e) if e.hook == "deploy"),
        "{err}"
    );
    assert_eq!(castellan::record::write(&game, "t"), before);
    assert_eq!(game.scores(), scores.as_slice());
    assert_eq!(game.figures(), figures.as_slice());
    assert_eq!(game.legal(), legal);
}

/// `find_spots` refuses a filter key it does not know.
#[test]
fn find_spots_checks_its_filter() {
    let dir = std::env::temp_dir().join("castellan-spots");
    let script = "fn turn_start() { find_spots(#{ tag: \"x\", opne: true }); }\n";
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let err = Game::new(rules, Setup::new(vec!["A".into(), "B".into()], 1))
        .expect_err("the filter is refused");
    assert!(
        err.to_string().contains("unknown filter key `opne`"),
        "{err}"
    );
}

/// Plays `rules` and the same game without scripts (`plain`) with the same seeds: until a
/// script changes a decision, both see the same legal actions, so their events can be compared.
fn play_both(rules: &Arc<Ruleset>, plain: &Arc<Ruleset>, seed: u64) -> (Vec<Event>, Vec<Event>) {
    (play(rules, 2, seed).1, play(plain, 2, seed).1)
}

/// `filter_placements(placements)` (the placement filter): only placements turned 0° stay legal,
/// unless none is left, when the tile may go anywhere it fits.
#[test]
fn a_script_filters_placements() {
    let dir = std::env::temp_dir().join("castellan-filter-placements");
    let script = "fn filter_placements(list) { list.filter(|p| p.rotation == 0) }\n";
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let (mut game, _) = Game::new(
        Arc::clone(&rules),
        Setup::new(vec!["A".into(), "B".into()], 3),
    )
    .expect("starts");
    let mut bot = RandomBot::new(4);
    let mut checked = 0;
    while !game.is_over() {
        let legal = game.legal();
        let places: Vec<_> = legal
            .iter()
            .filter_map(|a| match a {
                castellan::engine::action::Action::Place { rotation, .. } => Some(*rotation),
                _ => None,
            })
            .collect();
        if !places.is_empty() {
            let castellan::engine::action::DecisionKind::PlaceTile { tile } = game.decision().kind
            else {
                panic!("placements outside a placement decision")
            };
            let mut fits_turned_0 = false;
            game.board().each_placement(&game.rules().tiles, tile, |p| {
                fits_turned_0 |= p.rotation.degrees() == 0;
                true
            });
            if fits_turned_0 {
                assert!(places.iter().all(|r| r.degrees() == 0), "{places:?}");
                checked += 1;
            } else {
                assert!(!places.is_empty(), "the tile can still be placed");
            }
        }
        let action = bot.choose(&game);
        game.apply(&action).expect("legal");
    }
    assert!(checked > 20, "{checked}");
}

/// `strength(feature)`: a script adds 5 to seat 1's strength in every city, so seat 1 wins
/// every completed city that has a knight (B-M1 with a scripted strength).
#[test]
fn a_script_adds_strength() {
    let dir = std::env::temp_dir().join("castellan-strength");
    let script = r#"fn strength(feature) {
    if feature.kind == "city" && feature.followers.len() > 0 { [0, 5] } else { () }
}
"#;
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let mut cities = 0;
    for seed in 0..60 {
        for e in play(&rules, 2, seed).1 {
            if let Event::Scored { player, rule, .. } = e
                && rule == "§1.6 completed city"
            {
                assert_eq!(player, 1, "seat 1 has the majority in every city");
                cities += 1;
            }
        }
    }
    assert!(cities > 10, "{cities}");
}

/// `farm_points(farm)`: a script doubles what farms pay at the end; every other event is the
/// same as without the script (RULES.md §1.9 scoring with a scripted value).
#[test]
fn a_script_changes_farm_points() {
    let dir = std::env::temp_dir().join("castellan-farm-points");
    let script = "fn farm_points(farm) { farm.points * 2 }\n";
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let plain = Ruleset::load("hig").expect("loads");
    let mut farms = 0;
    for seed in 0..6 {
        let (scripted_events, plain_events) = play_both(&rules, &plain, seed);
        assert_eq!(scripted_events.len(), plain_events.len());
        for (a, b) in scripted_events.iter().zip(&plain_events) {
            match (a, b) {
                (
                    Event::Scored {
                        points: pa,
                        rule: ra,
                        ..
                    },
                    Event::Scored {
                        points: pb,
                        rule: rb,
                        ..
                    },
                ) if rb.starts_with("§1.9") => {
                    assert_eq!(ra, rb);
                    assert_eq!(*pa, 2 * pb);
                    farms += 1;
                }
                (Event::GameEnded { .. }, Event::GameEnded { .. }) => {}
                _ => assert_eq!(a, b),
            }
        }
    }
    assert!(farms > 3, "{farms}");
}

/// `feature_points(feature)`: a script makes completed roads worth nothing, so no completed
/// road pays anyone (the hook inns and cathedrals use, RULES.md §1.6); without the script some
/// do.
#[test]
fn a_script_changes_feature_points() {
    let dir = std::env::temp_dir().join("castellan-feature-points");
    let script = r#"fn feature_points(feature) {
    if feature.kind == "road" && feature.completed { 0 } else { () }
}
"#;
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let plain = Ruleset::load("hig").expect("loads");
    let roads = |rules: &Arc<Ruleset>| {
        (0..40)
            .flat_map(|seed| play(rules, 2, seed).1)
            .filter(|e| matches!(e, Event::Scored { rule, .. } if *rule == "§1.6 completed road"))
            .count()
    };
    assert_eq!(roads(&rules), 0);
    assert!(roads(&plain) > 0);
}

/// `extra_turn()`: the player who played turn 1 plays turn 2 too (a builder-like double turn).
#[test]
fn a_script_grants_an_extra_turn() {
    let dir = std::env::temp_dir().join("castellan-extra-turn");
    let script = "fn extra_turn() { turn() == 1 }\n";
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let (_, events) = play(&rules, 2, 9);
    let turns: Vec<(u32, usize)> = events
        .iter()
        .filter_map(|e| match e {
            Event::TurnStarted { turn, player } => Some((*turn, *player)),
            _ => None,
        })
        .take(4)
        .collect();
    assert_eq!(turns, [(1, 0), (2, 0), (3, 1), (4, 0)]);
}

/// `final_scoring()`: runs after the built-in final scoring; its points count in the result.
#[test]
fn a_script_scores_at_the_end() {
    let dir = std::env::temp_dir().join("castellan-final-scoring");
    let script = "fn final_scoring() { score(1, 10, \"the last word\"); }\n";
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let plain = Ruleset::load("hig").expect("loads");
    let (scripted_events, plain_events) = play_both(&rules, &plain, 2);
    let end = |events: &[Event]| match events.last() {
        Some(Event::GameEnded { scores }) => scores.clone(),
        other => panic!("{other:?}"),
    };
    let (with, without) = (end(&scripted_events), end(&plain_events));
    assert_eq!(with[0], without[0]);
    assert_eq!(with[1], without[1] + 10);
}

/// A hook that answers with a value may not give commands: the action is refused, naming the
/// script and the hook.
#[test]
fn a_value_hook_with_commands_is_an_error() {
    let dir = std::env::temp_dir().join("castellan-value-commands");
    let script = "fn extra_turn() { score(0, 1, \"x\"); true }\n";
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let (mut game, _) =
        Game::new(rules, Setup::new(vec!["A".into(), "B".into()], 1)).expect("starts");
    let mut bot = RandomBot::new(1);
    let err = loop {
        let action = bot.choose(&game);
        if let Err(e) = game.apply(&action) {
            break e;
        }
    };
    let RuleError::Script(e) = err else {
        panic!("{err}")
    };
    assert_eq!(e.hook, "extra_turn");
    assert!(e.message.contains("may not give commands"), "{e}");
}

/// The script of the figure-kind tests: `[vars] mode` picks what it does at the start.
const KINDS: &str = r#"fn spot_of(kind) {
    for f in features_on(0, 0) { if f.kind == kind { return f.spot; } }
}
fn game_start() {
    switch vars("mode") {
        "ok" => {
            log(`${figure_kinds()} ${supplies(0)} ${supply(0, "big")} ${supply(0)} ${figure_noun("big")}`);
            take_figure(0, "big");
            take_follower(1);
        }
        "unknown_query" => { supply(0, "wizard"); }
        "unknown_take" => { take_figure(0, "wizard"); }
        "none_in_supply" => { take_figure(0, "pig"); }
        "none_held" => { release_figure(0, "big"); }
        "abbot_on_road" => { take_figure(0, "abbot"); put_figure(0, "abbot", 0, 0, spot_of("road"), false); }
        "builder_alone" => { take_figure(0, "builder"); put_figure(0, "builder", 0, 0, spot_of("city"), false); }
        "occupied" => {
            take_follower(0);
            take_figure(0, "big");
            put_follower(0, 0, 0, spot_of("city"), false);
            put_figure(0, "big", 0, 0, spot_of("city"), false);
        }
    }
}
fn place() {
    if turn() != 1 { return; }
    log(`${held(0)} ${held(0, "big")} ${held_kinds(0)} ${held_kinds(1)}`);
    put_figure(0, "big", 0, 0, spot_of("city"), false);
    release_figure(1, "follower");
}
fn deploy() {
    if turn() == 1 { take_figure(0, "wizard"); }
}
"#;

/// A game under the figure-kind script in `mode`, with one big follower, abbot and builder
/// each (and no pig) on top of HiG's followers.
fn kinds_game(mode: &str) -> Result<(Game, Vec<Event>), SetupError> {
    let dir = std::env::temp_dir().join(format!("castellan-kinds-{mode}"));
    let extra = format!(
        "[vars]\nmode = \"{mode}\"\n[figures.big]\nper_player = 1\n[figures.abbot]\nper_player = 1\n[figures.builder]\nper_player = 1\n"
    );
    let rules = ruleset(&scripted(&dir, KINDS, &extra)).expect("loads");
    Game::new(rules, Setup::new(vec!["A".into(), "B".into()], 5))
}

/// scripts/README.md "Figure kinds": scripts read the supply and what they hold per kind, take
/// a big follower and put it on the board (where it is a big follower), and give a follower
/// back; every figure stays counted.
#[test]
fn scripts_move_figures_of_each_kind() {
    let (mut game, events) = kinds_game("ok").expect("starts");
    let big = castellan::model::figure::FigureKind::parse("big").expect("known");
    let follower = castellan::model::figure::FigureKind::Follower;
    assert_eq!(
        common::logs(&events),
        [
            "[\"follower\", \"abbot\", \"barn\", \"big\", \"builder\", \"count\", \"mayor\", \"pig\", \"wagon\"] #{\"abbot\": 1, \"big\": 1, \"builder\": 1, \"follower\": 7} 1 7 big follower"
        ]
    );
    assert_eq!((game.supply(0, big), game.held_of(0, big)), (0, 1));
    assert_eq!(
        (game.supply(1, follower), game.held_of(1, follower)),
        (6, 1)
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::FollowerHeld { player: 0, figure, .. } if *figure == big
    )));
    let place = game.legal()[0];
    let events = game.apply(&place).expect("placed");
    assert_eq!(common::logs(&events), ["1 1 [\"big\"] [\"follower\"]"]);
    let on_board: Vec<_> = game.figures().iter().map(|f| (f.owner, f.kind)).collect();
    assert_eq!(on_board, [(0, big)]);
    assert_eq!((game.held(0), game.held(1)), (0, 0));
    assert_eq!(game.supply(1, follower), 7);
    // A bad kind in a later hook: the action is refused, the game stays as it was.
    let before = castellan::record::write(&game, "t");
    let pass = *game
        .legal()
        .iter()
        .find(|a| matches!(a, castellan::engine::action::Action::Pass))
        .expect("passing is legal");
    let err = game.apply(&pass).expect_err("the deploy hook fails");
    assert!(err.to_string().contains("no figure `wizard`"), "{err}");
    assert_eq!(castellan::record::write(&game, "t"), before);
}

/// A kind the ruleset lacks, a figure the supply does not have or the script does not hold,
/// and a put that breaks the deployment rules are located script errors, never a panic.
#[test]
fn bad_figure_commands_are_located_errors() {
    for (mode, line, message) in [
        (
            "unknown_query",
            11,
            "the ruleset has no figure `wizard` (its figures: follower, abbot, barn, big, builder, count, mayor, pig, wagon)",
        ),
        ("unknown_take", 12, "the ruleset has no figure `wizard`"),
        (
            "none_in_supply",
            13,
            "player 0 has no pig in supply to take",
        ),
        (
            "none_held",
            14,
            "the script holds no big follower of player 0",
        ),
        ("abbot_on_road", 15, "an abbot cannot stand on a road"),
        (
            "builder_alone",
            16,
            "a builder joins one of its owner's followers, and there is none in that city",
        ),
        ("occupied", 21, "that feature already has a follower (B-F3)"),
    ] {
        let Err(SetupError::Script(e)) = kinds_game(mode) else {
            panic!("{mode}: the game must not start")
        };
        assert_eq!(
            (e.hook.as_str(), e.line),
            ("game_start", line),
            "{mode}: {e}"
        );
        assert!(e.message.contains(message), "{mode}: {e}");
    }
}

/// `strength(feature)` sees `feature.strength`, each seat's strength so far: a script that gives
/// every tied majority to seat 0 leaves no feature shared, where the same games without it
/// share some (B-M2's tie, broken by a script as Hills & Sheep's hills do, RULES-MORE.md HS-11).
#[test]
fn a_script_breaks_tied_majorities() {
    let dir = std::env::temp_dir().join("castellan-tie-break");
    let script = r#"fn strength(feature) {
    let s = feature.strength;
    if s[0] > 0 && s[0] == s[1] { [1, 0] } else { () }
}
"#;
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let plain = Ruleset::load("hig").expect("loads");
    // Two `Scored` events in a row for one feature: both seats were paid (a shared majority).
    let shared = |events: &[Event]| {
        let key = |e: &Event| match e {
            Event::Scored {
                player,
                feature,
                rule,
                x,
                y,
                ..
            } => Some((*player, *feature, *rule, *x, *y)),
            _ => None,
        };
        events
            .windows(2)
            .filter(|w| match (key(&w[0]), key(&w[1])) {
                (Some(a), Some(b)) => a.0 != b.0 && (a.1, a.2, a.3, a.4) == (b.1, b.2, b.3, b.4),
                _ => false,
            })
            .count()
    };
    let (mut with, mut without) = (0, 0);
    for seed in 0..40 {
        let (scripted, plain) = play_both(&rules, &plain, seed);
        with += shared(&scripted);
        without += shared(&plain);
    }
    assert!(without > 0, "the plain games share some majorities");
    assert_eq!(with, 0, "every tie went to seat 0");
}

/// `take_tile_unseen()` and `tiles_left()`: a script that takes the next tile out after every
/// placement halves the draws; every tile of the bag is drawn, discarded or taken out, and no
/// event names a tile taken out. With no tile left the command is a located script error, and
/// the action is refused.
#[test]
fn a_script_takes_tiles_out_unseen() {
    let dir = std::env::temp_dir().join("castellan-take-tile");
    let script = "fn place() {\n    if tiles_left() > 0 { take_tile_unseen(); }\n}\n";
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let names = vec!["A".to_string(), "B".to_string()];
    let (game, _) = Game::new(Arc::clone(&rules), Setup::new(names, 5)).expect("starts");
    let bag = game.tiles_left() + 1; // the first tile is drawn already
    let (_, events) = play(&rules, 2, 5);
    let drawn = (events.iter())
        .filter(|e| matches!(e, Event::TileDrawn { .. } | Event::TileDiscarded { .. }))
        .count();
    let out = (events.iter())
        .filter(|e| matches!(e, Event::TileTakenUnseen { .. }))
        .count();
    assert_eq!(drawn + out, bag);
    assert!(
        out * 2 >= bag - 2,
        "about every other tile went out: {out} of {bag}"
    );

    let dir = std::env::temp_dir().join("castellan-take-tile-empty");
    let script = "fn place() { take_tile_unseen(); }\n";
    let rules = ruleset(&scripted(&dir, script, "")).expect("loads");
    let names = vec!["A".to_string(), "B".to_string()];
    let (mut game, _) = Game::new(Arc::clone(&rules), Setup::new(names, 5)).expect("starts");
    let mut bot = RandomBot::new(1);
    let err = loop {
        let action = bot.choose(&game);
        let saved = castellan::record::write(&game, "t");
        match game.apply(&action) {
            Ok(_) => assert!(!game.is_over(), "the empty bag must stop a placement"),
            Err(e) => {
                assert_eq!(castellan::record::write(&game, "t"), saved, "unchanged");
                break e;
            }
        }
    };
    let text = err.to_string();
    assert!(
        text.contains("no tile is left") && text.contains("test.rhai"),
        "{text}"
    );
}
