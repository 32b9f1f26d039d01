//! Scripts as a full family (issue 30 §4, scripts/README.md): the hooks that follow any
//! decision, offers at any decision (another family's, another script's), and the primitives
//! the next boxes need: seeded random numbers, hidden bags, signed points and transfers under a
//! rule id, figures in another player's custody, and the halves of a double turn.

mod common;

use castellan::bot::{Bot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::{Action, DecisionKind};
use castellan::engine::event::Event;
use castellan::engine::game::{Game, RuleError, Setup};
use castellan::model::figure::FigureKind;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Writes the scripts (`name`, text) and a ruleset extending `base` that loads them into a
/// fresh folder named after `tag`; returns the loaded ruleset.
fn rules(tag: &str, base: &str, scripts: &[(&str, &str)], extra: &str) -> Arc<Ruleset> {
    let dir = std::env::temp_dir().join(format!("castellan-family-{tag}"));
    std::fs::create_dir_all(dir.join("scripts")).expect("dir");
    let mut names = Vec::new();
    for (name, text) in scripts {
        std::fs::write(dir.join(format!("scripts/{name}.rhai")), text).expect("script");
        names.push(format!("\"scripts/{name}.rhai\""));
    }
    let path = dir.join("test.toml");
    let text = format!(
        "extends = \"{base}\"\nname = \"t\"\nscripts = [{}]\n{extra}",
        names.join(", ")
    );
    std::fs::write(&path, text).expect("ruleset");
    Ruleset::load(&path.display().to_string()).expect("the ruleset loads")
}

fn start(rules: &Arc<Ruleset>, seed: u64) -> (Game, Vec<Event>) {
    Game::new(
        Arc::clone(rules),
        Setup::new(vec!["A".into(), "B".into()], seed),
    )
    .expect("the game starts")
}

/// Plays on with a random bot; returns every event.
fn finish(game: &mut Game, mut events: Vec<Event>, seed: u64) -> Vec<Event> {
    let mut bot = RandomBot::new(seed + 7);
    while !game.is_over() {
        let action = bot.choose(game);
        events.extend(game.apply(&action).expect("a legal action is accepted"));
    }
    events
}

/// The first script action offered at the pending decision whose words are `words`.
fn offered(game: &Game, words: &str) -> Option<Action> {
    game.legal()
        .into_iter()
        .find(|a| matches!(a, Action::Script(_)) && castellan::engine::words::action(a) == words)
}

const COUNTING: &str = r#"
fn answered(decision) {
    let s = state();
    if type_of(s) == "()" { s = #{}; }
    let k = decision.kind;
    if k in s { s[k] += 1; } else { s[k] = 1; }
    set_state(s);
}
fn answered_count_quarter() { log("a quarter decision was answered"); }
"#;

/// `answered(decision)` follows every answered decision of every family (here the base game's
/// and the Count's, RULES.md CO-1), and `answered_<kind>()` the decisions of one kind: the
/// counts the script keeps equal the decisions the game asked, kind by kind.
#[test]
fn a_script_hears_every_answered_decision() {
    let rules = rules("answered", "count", &[("counting", COUNTING)], "");
    let mut quarters = 0;
    for seed in 0..6 {
        let (mut game, _) = start(&rules, seed);
        let mut bot = RandomBot::new(seed);
        let mut asked: BTreeMap<String, u64> = BTreeMap::new();
        let mut events = Vec::new();
        while !game.is_over() {
            *asked
                .entry(game.decision().kind.name().to_string())
                .or_default() += 1;
            let action = bot.choose(&game);
            events.extend(game.apply(&action).expect("legal"));
        }
        let heard: BTreeMap<String, u64> = game
            .script_state()
            .as_object()
            .expect("the script kept counts")
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().expect("a count")))
            .collect();
        assert_eq!(heard, asked, "seed {seed}");
        let narrow = common::logs(&events).len() as u64;
        assert_eq!(narrow, asked.get("count_quarter").copied().unwrap_or(0));
        quarters += narrow;
    }
    assert!(quarters > 0, "the games must include the Count's decisions");
}

const BRIBE: &str = r#"
fn actions_count_quarter(player) {
    [#{ name: "bribe", args: [player], label: "bribe the Count" }]
}
fn action(name, args) {
    if name == "bribe" { points(args[0], 1, "house-bribe", "the Count is bribed"); }
}
"#;

/// A script offers its own answer to another family's decision (the Count's quarter, CO-1):
/// it is in the legal list beside the Count's answers, choosing it answers the decision (the
/// Count's stage goes on) and runs the script's action.
#[test]
fn a_script_answers_another_familys_decision() {
    let rules = rules("bribe", "count", &[("bribe", BRIBE)], "");
    let mut bribed = 0;
    for seed in 0..10 {
        let (mut game, mut events) = start(&rules, seed);
        let mut bot = RandomBot::new(seed);
        while !game.is_over() {
            let d = game.decision();
            let action = if d.kind.name() == "count_quarter" {
                let bribe = offered(&game, "bribe the Count").expect("offered");
                assert!(game.legal().len() > 1, "the Count's own answers stay");
                bribe
            } else {
                assert!(offered(&game, "bribe the Count").is_none(), "{d:?}");
                bot.choose(&game)
            };
            let score = game.scores()[d.player];
            let new = game.apply(&action).expect("legal");
            if d.kind.name() == "count_quarter" {
                bribed += 1;
                assert_eq!(game.scores()[d.player], score + 1, "seed {seed}");
                assert_ne!(game.decision(), d, "the decision was answered");
            }
            events.extend(new);
        }
        assert!(matches!(events.last(), Some(Event::GameEnded { .. })));
    }
    assert!(bribed > 0, "the games must reach the Count's quarters");
}

const ASKER: &str = r#"
fn turn_start() {
    if turn() == 2 { ask(active(), [#{ name: "yes", label: "say yes" }]); }
}
fn answered_script() { log("asker heard the answer"); }
"#;

const ADDER: &str = r#"
fn actions_script(player) { [#{ name: "maybe", label: "say maybe" }] }
fn action(name, args) { if name == "maybe" { score(active(), 3, "maybe"); } }
"#;

/// One script adds an answer to another script's question; choosing it ends the question and
/// runs its own action, and `answered_script()` follows the answer.
#[test]
fn a_script_adds_to_another_scripts_question() {
    let rules = rules("ask", "hig", &[("asker", ASKER), ("adder", ADDER)], "");
    let (mut game, _) = start(&rules, 3);
    while game.decision().kind != DecisionKind::Script {
        let action = game.legal()[0];
        game.apply(&action).expect("legal");
    }
    let words: Vec<String> = game
        .legal()
        .iter()
        .map(castellan::engine::words::action)
        .collect();
    assert_eq!(words, ["say yes", "say maybe"]);
    let player = game.decision().player;
    let before = game.scores()[player];
    let maybe = offered(&game, "say maybe").expect("offered");
    let events = game.apply(&maybe).expect("legal");
    assert_eq!(game.scores()[player], before + 3);
    assert_ne!(
        game.decision().kind,
        DecisionKind::Script,
        "the question is over"
    );
    assert_eq!(common::logs(&events), ["asker heard the answer"]);
}

const DICE: &str = r#"
fn turn_start() { log(`${random(6)} ${random(1000000)}`); }
"#;

/// `random(n)` comes from the game's seeded generator: the same seed gives the same numbers
/// (and a replay of the record too), another seed others; every number is in 0..n.
#[test]
fn random_numbers_replay_and_differ_by_seed() {
    let rules = rules("dice", "hig", &[("dice", DICE)], "");
    let play = |seed| {
        let (mut game, events) = start(&rules, seed);
        let events = finish(&mut game, events, seed);
        let rolls: Vec<(i64, i64)> = common::logs(&events)
            .iter()
            .map(|l| {
                let (a, b) = l.split_once(' ').expect("two numbers");
                (a.parse().expect("a number"), b.parse().expect("a number"))
            })
            .collect();
        (game, rolls)
    };
    let (game, first) = play(11);
    let (_, again) = play(11);
    let (_, other) = play(12);
    assert_eq!(first, again, "the same seed rolls the same");
    assert_ne!(first, other, "another seed rolls otherwise");
    assert!(
        first
            .iter()
            .all(|(d, m)| (0..6).contains(d) && (0..1_000_000).contains(m))
    );
    let faces: std::collections::BTreeSet<i64> = first.iter().map(|r| r.0).collect();
    assert_eq!(faces.len(), 6, "a game's rolls show every face: {faces:?}");
    // A written record replays to the same rolls.
    let text = castellan::record::write(&game, "t");
    let path = std::env::temp_dir().join("castellan-family-dice/test.toml");
    let replay = castellan::record::Record::parse(castellan::data::library::Source {
        path: std::env::temp_dir().join("castellan-family-dice/mem.toml"),
        text: text.replace(
            "ruleset = \"t\"",
            &format!("ruleset = {:?}", path.display().to_string()),
        ),
    })
    .expect("parses")
    .replay()
    .expect("replays");
    assert_eq!(replay.game.scores(), game.scores());
}

const FLOCK: &str = r#"
fn game_start() {
    bag_put("flock", "sheep", 3);
    bag_put("flock", "wolf", 1);
}
fn turn_start() {
    if bag_count("flock") > 0 {
        let before = bag_count("flock", "wolf");
        let token = bag_draw("flock");
        log(`${token} ${bag_count("flock")} ${before - bag_count("flock", "wolf")}`);
    }
}
"#;

/// A hidden bag (RULES-MORE.md HS, the sheep bag): four tokens put in come out one a turn,
/// each once, in an order that depends on the seed; `bag_count` counts what is left; a search
/// bot's copy (`resample_hidden`) draws in its own order.
#[test]
fn a_bag_gives_its_tokens_in_a_seeded_order() {
    let rules = rules("flock", "hig", &[("flock", FLOCK)], "");
    let mut orders = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let (mut game, events) = start(&rules, seed);
        let events = finish(&mut game, events, seed);
        let drawn: Vec<&str> = common::logs(&events);
        assert_eq!(drawn.len(), 4, "seed {seed}: {drawn:?}");
        let mut tokens: Vec<&str> = drawn
            .iter()
            .map(|l| l.split(' ').next().unwrap_or(""))
            .collect();
        let left: Vec<&str> = drawn
            .iter()
            .map(|l| l.split(' ').nth(1).unwrap_or(""))
            .collect();
        assert_eq!(left, ["3", "2", "1", "0"], "seed {seed}");
        for l in &drawn {
            let wolf_out = l.split(' ').nth(2) == Some("1");
            assert_eq!(wolf_out, l.starts_with("wolf"), "seed {seed}: {l}");
        }
        orders.insert(tokens.join(","));
        tokens.sort_unstable();
        assert_eq!(tokens, ["sheep", "sheep", "sheep", "wolf"], "seed {seed}");
    }
    assert!(
        orders.len() > 1,
        "the order depends on the seed: {orders:?}"
    );
    // A copy re-sampled for a search draws the rest in an order of its own seed.
    let (game, _) = start(&rules, 1);
    let mut resampled = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let mut copy = game.clone();
        copy.resample_hidden(seed);
        let events = finish(&mut copy, Vec::new(), 1);
        resampled.insert(common::logs(&events).join("|"));
    }
    assert!(resampled.len() > 1, "{resampled:?}");
}

const RANSOM: &str = r#"
fn turn_start() {
    if turn() == 1 {
        score(0, 2, "a gift");
        score(1, 10, "a gift");
        points(0, -5, "TW-8", "ransom paid");
        transfer(1, 0, 4, "TW-8", "ransom");
        transfer(0, 1, 100, "TW-8", "more than there is");
    }
}
"#;

/// Signed points and transfers under a rule id (RULES-MORE.md TW-8, ransom): a score never goes
/// below 0, a transfer moves at most what the payer has, and each is logged in words with its
/// rule id.
#[test]
fn points_are_signed_and_move_between_players() {
    let rules = rules("ransom", "hig", &[("ransom", RANSOM)], "");
    let (game, events) = start(&rules, 1);
    assert_eq!(game.scores(), [0, 10]);
    let moved: Vec<(String, i64)> = events
        .iter()
        .filter_map(|e| match e {
            Event::ScriptPoints { points, rule, .. } => Some((rule.clone(), *points)),
            Event::ScriptTransfer { points, rule, .. } => Some((rule.clone(), i64::from(*points))),
            _ => None,
        })
        .collect();
    let tw8 = |n| ("TW-8".to_string(), n);
    assert_eq!(moved, [tw8(-2), tw8(4), tw8(4)]);
    let names = vec!["A".to_string(), "B".to_string()];
    let words: Vec<String> = events
        .iter()
        .filter(|e| matches!(e, Event::ScriptPoints { .. } | Event::ScriptTransfer { .. }))
        .map(|e| castellan::engine::words::event(e, &names).to_string())
        .collect();
    assert_eq!(
        words,
        [
            "ransom: A loses 2 (ransom paid; TW-8)",
            "ransom: B pays A 4 (ransom; TW-8)",
            "ransom: A pays B 4 (more than there is; TW-8)",
        ]
    );
}

const CAPTOR: &str = r#"
fn deploy() {
    let mine = figures().filter(|f| f.player == active());
    if turn() <= 2 && mine.len() > 0 {
        capture(mine[0].id, 1 - active());
    }
}
fn turn_start() {
    if turn() == 5 {
        for c in custody(1) { release_custody(c.player, c.kind, 1); }
    }
}
fn turn_end() {
    if turn() == 5 { log(`${custody_of(0, "follower", 1)} ${custody(0).len()}`); }
}
"#;

/// A figure in another player's custody (RULES-MORE.md TW-5/TW-7, prisoners): captured from
/// the board it stands nowhere and is in no supply, it is counted as its owner's held figure
/// (every figure stays counted), and released it goes back to its owner's supply.
#[test]
fn figures_go_into_custody_and_back() {
    let rules = rules("captor", "hig", &[("captor", CAPTOR)], "");
    let follower = FigureKind::Follower;
    let total = |g: &Game, p: usize| {
        let board = g.figures().iter().filter(|f| f.owner == p).count() as u32;
        board + u32::from(g.supply(p, follower)) + g.held(p)
    };
    let (mut game, mut events) = start(&rules, 4);
    let per_player = total(&game, 0);
    let mut captured = 0;
    while game.turn() < 6 && !game.is_over() {
        // Deploy a follower whenever possible, so there is one to capture.
        let legal = game.legal();
        let action = legal
            .iter()
            .find(|a| matches!(a, Action::Deploy { .. }))
            .copied()
            .unwrap_or(legal[0]);
        let new = game.apply(&action).expect("legal");
        for e in &new {
            if let Event::FigureInCustody { player, holder, .. } = e {
                captured += 1;
                assert_eq!(*holder, 1 - player);
                assert_eq!(game.custody(*holder).len(), 1);
            }
        }
        events.extend(new);
        assert_eq!((total(&game, 0), total(&game, 1)), (per_player, per_player));
    }
    assert_eq!(captured, 2, "turns 1 and 2 each capture one");
    assert!(
        game.custody(1).is_empty(),
        "B gave A's follower back on turn 5"
    );
    assert_eq!(
        game.custody(0),
        [(1, follower, 1)],
        "A still holds B's follower"
    );
    assert_eq!((game.held(0), game.held(1)), (0, 1));
    let freed: Vec<(usize, usize)> = events
        .iter()
        .filter_map(|e| match e {
            Event::FigureFreed { player, holder, .. } => Some((*player, *holder)),
            _ => None,
        })
        .collect();
    assert_eq!(freed, [(0, 1)]);
    assert_eq!(common::logs(&events).last(), Some(&"0 1"));
}

/// Counts the departures with reason `script` a script is told of, under its own key.
const HEARD: &str = r#"
fn heard(key) {
    let s = state();
    if type_of(s) == "()" { s = #{}; }
    if key in s { s[key] += 1; } else { s[key] = 1; }
    set_state(s);
}
"#;

/// `figure_left` tells every script of a figure another script lifted, and never the script
/// whose own command lifted it (scripts/README.md, `figure_left`): the lifter's count stays
/// empty while the listener hears each of its lifts.
#[test]
fn a_script_is_not_told_of_its_own_lifts() {
    let lifter = format!(
        "{HEARD}
fn turn_end() {{
    let mine = figures().filter(|f| f.player == active());
    if mine.len() > 0 {{ return_figure(mine[0].id); }}
}}
fn figure_left(figure, reason) {{ if reason == \"script\" {{ heard(\"lifter\"); }} }}"
    );
    let listener = format!(
        "{HEARD}
fn figure_left(figure, reason) {{ if reason == \"script\" {{ heard(\"listener\"); }} }}"
    );
    let rules = rules(
        "own-lifts",
        "hig",
        &[("lifter", &lifter), ("listener", &listener)],
        "",
    );
    let (mut game, events) = start(&rules, 3);
    let events = finish(&mut game, events, 3);
    let lifts = events
        .iter()
        .filter(|e| matches!(e, Event::FigureReturned { reason, .. } if reason.name() == "script"))
        .count();
    assert!(lifts > 0, "the lifter sent followers home");
    let state = game.script_state();
    assert_eq!(state.get("lifter"), None, "the lifter is not told");
    assert_eq!(state["listener"], lifts, "the listener hears every lift");
}

const HALVES: &str = r#"
fn turn_start() { log(`start ${turn_half()} ${active()}`); }
fn turn_end() { log(`end ${turn_half()} ${active()}`); }
"#;

/// The two halves of a builder's double turn told apart (RULES.md §1.10): `turn_half()` is 1
/// at the end of a turn that earned a second one, 2 in that second turn (played by the same
/// player), and 0 in every other turn (a turn that earned nothing is followed by a plain one).
#[test]
fn the_halves_of_a_double_turn_are_told_apart() {
    let rules = rules("halves", "hig-tb", &[("halves", HALVES)], "");
    let mut doubles = 0;
    for seed in 0..8 {
        let (mut game, events) = start(&rules, seed);
        let events = finish(&mut game, events, seed);
        let lines: Vec<Vec<&str>> = common::logs(&events)
            .iter()
            .map(|l| l.split(' ').collect())
            .collect();
        for (i, l) in lines.iter().enumerate() {
            if l[0] == "start" && l[1] == "2" {
                doubles += 1;
                let before = &lines[i - 1];
                assert_eq!(before[..], ["end", "1", l[2]], "seed {seed}: line {i}");
            }
            if l[0] == "start" && l[1] == "0" && i > 0 {
                assert_ne!(lines[i - 1][1], "1", "seed {seed}: line {i}");
            }
        }
    }
    assert!(doubles > 0, "the games must include double turns");
}

/// Hostile arguments are script errors at the call's line and column; the action is refused
/// and the game stays as it was.
#[test]
fn bad_arguments_are_located_errors() {
    for (call, what) in [
        ("random(0)", "random(n) needs n from 1"),
        ("bag_put(\"b\", \"t\", 0)", "bag_put puts 1 to 10000"),
        ("bag_put(\"b\", \"t\", 20000)", "bag_put puts 1 to 10000"),
        (
            "points(0, 2000000, \"X-1\", \"too many\")",
            "points are between",
        ),
        ("points(0, 1, \"no rule!\", \"bad rule\")", "a rule id is"),
        (
            "transfer(0, 0, 1, \"X-1\", \"to oneself\")",
            "a transfer needs two players",
        ),
        (
            "transfer(0, 1, -3, \"X-1\", \"backwards\")",
            "a transfer moves 0 or more",
        ),
        ("capture(999, 1)", "there is no figure 999"),
        ("release_custody(0, \"follower\", 1)", "holds no follower"),
        ("hold_figure(0, \"wizard\", 1)", "no figure `wizard`"),
        (
            "place_figure(0, \"follower\", #{x: 50, y: 50, corner: \"NE\"})",
            "no corner where four tiles meet",
        ),
        (
            "place_figure(0, \"follower\", #{x: 50, y: 50})",
            "there is no tile at (50,50)",
        ),
        (
            "place_figure(0, \"follower\", #{x: 0, y: 0, corner: \"UP\"})",
            "a corner is one of",
        ),
        (
            "lift_figure(#{x: 0, y: 0})",
            "no figure a script put stands there",
        ),
    ] {
        let script = format!("fn place() {{\n    {call};\n}}\n");
        let rules = rules("hostile", "hig", &[("hostile", &script)], "");
        let (mut game, _) = start(&rules, 2);
        let before = castellan::record::write(&game, "t");
        let action = game.legal()[0];
        let Err(RuleError::Script(e)) = game.apply(&action) else {
            panic!("{call} must fail")
        };
        assert!(e.message.contains(what), "{call}: {e}");
        assert_eq!((e.line, e.column > 0), (2, true), "{call}: {e}");
        assert_eq!(castellan::record::write(&game, "t"), before, "{call}");
    }
}

const BARN: &str = r#"
fn turn_start() {
    if turn() == 1 { place_figure(active(), "follower", #{ x: 0, y: 0 }); }
    if turn() == 3 { lift_figure(#{ x: 0, y: 0 }); }
}
fn turn_end() {
    let barns = placed_figures().filter(|f| f.corner == "NE");
    if barns.len() > 0 || supply(active()) == 0 { return; }
    for t in tiles() {
        for c in ["NE", "SE", "SW", "NW"] {
            let at = #{ x: t.x, y: t.y, corner: c };
            let field = corner_field(at);
            if field != () && field.kind == "field" {
                place_figure(active(), "follower", at);
                return;
            }
        }
    }
}
"#;

/// Figures on a tile (a tower's top, RULES-MORE.md TW-2c) and at a corner where four tiles meet
/// in one field (a barn, AM-15): put from the supply, listed by `placed_figures()`, counted
/// among the figures scripts keep, and lifted back to the supply. The corner the script finds
/// is checked here on the board: four tiles, every quarter at that point a field; the SVG
/// draws the barn there.
#[test]
fn figures_stand_on_tiles_and_at_field_corners() {
    let rules = rules("barn", "hig", &[("barn", BARN)], "");
    let follower = FigureKind::Follower;
    let mut corners = 0;
    for seed in 0..6 {
        let (mut game, events) = start(&rules, seed);
        let per_player = u32::from(game.supply(0, follower)) + game.held(0);
        let events = finish(&mut game, events, seed);
        let placed: Vec<(i32, i32, bool)> = events
            .iter()
            .filter_map(|e| match e {
                Event::FigurePlaced { x, y, corner, .. } => Some((*x, *y, *corner)),
                _ => None,
            })
            .collect();
        assert_eq!(placed.first(), Some(&(0, 0, false)), "seed {seed}");
        let lifted = events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::FigureLifted {
                        x: 0,
                        y: 0,
                        corner: false,
                        ..
                    }
                )
            })
            .count();
        assert_eq!(lifted, 1, "seed {seed}");
        for &(x, y, _) in placed.iter().filter(|p| p.2) {
            corners += 1;
            let at = |dx: i32, dy: i32| castellan::model::geometry::Pos::new(x + dx, y + dy);
            for (pos, halves) in [
                (at(0, 0), ["NR", "EL"]),
                (at(0, -1), ["ER", "SL"]),
                (at(1, -1), ["SR", "WL"]),
                (at(1, 0), ["WR", "NL"]),
            ] {
                for h in halves {
                    let spot = castellan::model::geometry::Spot::parse(h).expect("a spot");
                    let seg = game.seg_at(pos, spot).expect("a tile with a field there");
                    let kind = game.features().segment(seg).kind;
                    assert_eq!(
                        kind,
                        castellan::model::tile::FeatureKind::Field,
                        "seed {seed}"
                    );
                }
            }
        }
        assert!(
            placed.iter().filter(|p| p.2).count() <= 1,
            "one barn at most"
        );
        // Every figure stays counted: a barn still standing is kept by the script.
        let barns = game.placed_figures().len() as u32;
        assert_eq!(barns, placed.iter().filter(|p| p.2).count() as u32);
        // The board draws a barn at its corner (the north-east corner of the tile named).
        let picture = castellan::ui::render::svg::board(&game);
        for (owner, _, place) in game.placed_figures() {
            let castellan::model::figure::Place::Corner(pos) = place else {
                panic!("only barns stand at the end, seed {seed}");
            };
            let drawn = format!(
                r#"data-player="{owner}" data-place="corner" data-x="{}" data-y="{}""#,
                pos.x, pos.y
            );
            assert!(picture.contains(&drawn), "seed {seed}: {drawn}");
        }
        let on_board = |p: usize| game.figures().iter().filter(|f| f.owner == p).count() as u32;
        for p in 0..2 {
            assert_eq!(
                on_board(p) + u32::from(game.supply(p, follower)) + game.held(p),
                per_player,
                "seed {seed}"
            );
        }
    }
    assert!(corners > 0, "the games must reach a field corner");
}

/// scripts/README.md's barn example (RULES-MORE.md AM-15) works as written: it offers a barn
/// at each field corner of the tile just laid, and choosing one puts the figure there.
#[test]
fn the_barn_example_works_as_written() {
    let readme = std::fs::read_to_string("scripts/README.md").expect("readme");
    let start_at = readme.find("// Abbey & Mayor's barn").expect("the example");
    let example = &readme[start_at..];
    let example = &example[..example.find("```").expect("its end")];
    let rules = rules("barn-example", "hig", &[("barn", example)], "");
    let mut barns = 0;
    for seed in 0..6 {
        let (mut game, _) = start(&rules, seed);
        let mut bot = RandomBot::new(seed);
        while !game.is_over() && barns <= seed {
            let barn = game.legal().into_iter().find(|a| {
                matches!(a, Action::Script(_))
                    && castellan::engine::words::action(a).starts_with("a barn at")
            });
            let action = barn.unwrap_or_else(|| bot.choose(&game));
            let events = game.apply(&action).expect("legal");
            if barn.is_some() {
                barns += 1;
                let at = events.iter().find_map(|e| match e {
                    Event::FigurePlaced { corner: true, .. } => Some(()),
                    _ => None,
                });
                assert!(at.is_some(), "seed {seed}: {events:?}");
            }
        }
    }
    assert!(barns > 0, "the games must offer a barn");
}

/// A script logs a family's own event and pays with one (`event`, `credit`): the event is the
/// family's, in its words and JSON, whether or not the ruleset plays the family; a wrong field is
/// an error naming it, and the game stays as it was (scripts/README.md, Commands; the T&B
/// goods majority of RULES.md B-E2 as the example).
const FAMILY_EVENTS: &str = r#"
fn turn_start() {
    if turn() == 1 {
        event("tb", "goods_taken", #{ player: 0, good: "wine", count: 2 });
        credit(1, 10, "tb", "goods_majority", #{ player: 1, good: "cloth", held: 3, points: 10 });
    }
}
fn action(name, args) { event("tb", "goods_taken", #{ player: args[0], good: args[1], count: 1 }); }
fn actions_place(player) {
    [#{ name: "bad", args: [0, "gold"], label: "a bad good" }, #{ name: "bad", args: [9, "wine"], label: "nobody" }]
}
"#;

#[test]
fn a_script_logs_a_familys_own_events() {
    use castellan::data::printed::Good;
    use castellan::mechanic::tb::vocabulary::TbEvent;
    let rules = rules("family-events", "hig", &[("events", FAMILY_EVENTS)], "");
    assert!(!rules.switched_on("traders_builders"));
    let (mut game, events) = start(&rules, 3);
    let tb: Vec<TbEvent> = events.iter().filter_map(TbEvent::of).collect();
    assert_eq!(
        tb,
        [
            TbEvent::GoodsTaken {
                player: 0,
                good: Good::Wine,
                count: 2
            },
            TbEvent::GoodsMajority {
                player: 1,
                good: Good::Cloth,
                held: 3,
                points: 10
            }
        ]
    );
    assert_eq!(game.scores(), &[0, 10]);
    let names = &game.setup().players;
    let said: Vec<String> = (events.iter())
        .filter(|e| TbEvent::of(e).is_some())
        .map(|e| castellan::engine::words::event(e, names).to_string())
        .collect();
    assert_eq!(
        said,
        [
            "A takes 2 wine tokens",
            "B scores 10 for the most cloth tokens (3; T&B goods majority, B-E2)"
        ]
    );
    let paid = (events.iter())
        .find(|e| matches!(TbEvent::of(e), Some(TbEvent::GoodsMajority { .. })))
        .expect("the majority event");
    let json = castellan::ui::report::event_json(paid, names);
    assert_eq!(json["event"], "goods_majority");
    assert_eq!(
        (json["player"].as_str(), json["good"].as_str()),
        (Some("B"), Some("cloth"))
    );
    // A good the family does not have: a located error, and nothing changed.
    let before = (game.scores().to_vec(), game.history().len());
    for (label, wrong) in [("a bad good", "`good`"), ("nobody", "no player 9")] {
        let bad = offered(&game, label).expect("offered");
        let Err(RuleError::Script(e)) = game.apply(&bad) else {
            panic!("a bad field is refused");
        };
        assert!(e.message.contains(wrong), "{}", e.message);
        assert_eq!(e.line, 8);
        assert_eq!((game.scores().to_vec(), game.history().len()), before);
    }
}

/// `figure_left(figure, reason)` hears every figure that leaves the board, with where it stood
/// and why (B-M3: `scored`), and may not change the board from there (scripts/README.md,
/// "Figures that follow a follower"); `counters(x, y, spot)` reads a feature's summed tile
/// counters: the goods a completed city holds, the same as the T&B family takes (RULES.md
/// §1.10), in the same game.
const LEFT: &str = r#"
fn figure_left(figure, reason) {
    let s = state();
    if s == () { s = #{ left: [] }; }
    s.left.push(`${figure.player} ${figure.kind} ${figure.feature} ${reason}`);
    set_state(s);
}
fn feature_scored(feature) {
    if feature.completed && feature.kind == "city" {
        let c = counters(feature.x, feature.y, feature.spot);
        log(`goods ${c.wine} ${c.grain} ${c.cloth}`);
    }
}
"#;

#[test]
fn figure_left_hears_figures_go_home_and_counters_read_goods() {
    use castellan::mechanic::tb::vocabulary::TbEvent;
    let rules = rules("figure-left", "hig-tb", &[("left", LEFT)], "");
    let (mut game, start_events) = start(&rules, 5);
    let events = finish(&mut game, start_events, 5);
    let returned: Vec<String> = (events.iter())
        .filter_map(|e| match e {
            Event::FigureReturned {
                player,
                figure,
                reason,
                ..
            } => Some((*player, figure.name(), reason.name())),
            _ => None,
        })
        .map(|(p, kind, why)| format!("{p} {kind} {why}"))
        .collect();
    let heard: Vec<String> = game.script_state()["left"]
        .as_array()
        .expect("figures left")
        .iter()
        .map(|v| {
            let text = v.as_str().expect("text");
            // "player kind feature reason" → "player kind reason", as the events say it.
            let parts: Vec<&str> = text.split(' ').collect();
            format!("{} {} {}", parts[0], parts[1], parts[3])
        })
        .collect();
    assert!(returned.len() > 5, "{returned:?}");
    assert_eq!(heard, returned);
    // Every city completed: the script's counters are the goods the family took there.
    let mut taken = [0u32; 3];
    let mut counted = [0u32; 3];
    for e in &events {
        if let Some(TbEvent::GoodsTaken { good, count, .. }) = TbEvent::of(e) {
            taken[good as usize] += count;
        }
    }
    for line in common::logs(&events) {
        let n: Vec<u32> = line
            .strip_prefix("goods ")
            .expect("a goods line")
            .split(' ')
            .map(|n| n.parse().expect("a number"))
            .collect();
        for (c, n) in counted.iter_mut().zip(n) {
            *c += n;
        }
    }
    assert!(taken.iter().sum::<u32>() > 0, "{taken:?}");
    assert_eq!(counted, taken);
}

/// `figure_left(figure, reason)` also hears a figure that stood on no feature: one on top of a
/// tower captured (RULES-MORE.md TW-6) or eaten by the dragon (X-1), and one a script lifts; it
/// gets the figure as `placed_figures()` gives it (`#{x, y, corner, player, kind}`).
const LEFT_ANYWHERE: &str = r#"
fn figure_left(figure, reason) {
    let s = state();
    if s == () { s = #{ left: [] }; }
    let at = if "spot" in figure { "feature" } else { `tile ${figure.x} ${figure.y}` };
    s.left.push(`${figure.player} ${figure.kind} ${reason} ${at}`);
    set_state(s);
}
"#;

#[test]
fn figure_left_hears_figures_lifted_from_a_tile() {
    let tower = rules("left-tile", "hig-tower", &[("left", LEFT_ANYWHERE)], "");
    let mut from_tiles = Vec::new();
    for seed in 0..40 {
        let (mut game, events) = start(&tower, seed);
        let events = finish(&mut game, events, seed);
        let heard: Vec<String> = (game.script_state()["left"].as_array())
            .map(|l| {
                l.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        // Every figure sent home is heard, in order; a captured tower top is told by the
        // tower's own event, not as a figure returned.
        let returned: Vec<String> = (events.iter())
            .filter_map(|e| match e {
                Event::FigureReturned {
                    player,
                    figure,
                    reason,
                    ..
                } => Some(format!("{player} {} {}", figure.name(), reason.name())),
                _ => None,
            })
            .collect();
        let heard_as_returned: Vec<String> = (heard.iter())
            .filter(|h| !h.contains(" captured tile "))
            .map(|h| h.splitn(4, ' ').take(3).collect::<Vec<_>>().join(" "))
            .collect();
        assert_eq!(heard_as_returned, returned, "seed {seed}");
        from_tiles.extend(heard.into_iter().filter(|h| h.contains(" tile ")));
    }
    assert!(
        from_tiles.iter().any(|h| h.contains(" eaten tile ")),
        "{from_tiles:?}"
    );
    assert!(
        from_tiles.iter().any(|h| h.contains(" captured tile ")),
        "{from_tiles:?}"
    );
    // A script's own lift is heard too.
    let lift = r#"
fn turn_start() {
    if turn() == 1 { place_figure(active(), "follower", #{ x: 0, y: 0 }); }
    if turn() == 3 { lift_figure(#{ x: 0, y: 0 }); }
}
"#;
    let lifting = rules(
        "left-lift",
        "hig",
        &[("lift", lift), ("left", LEFT_ANYWHERE)],
        "",
    );
    let (mut game, events) = start(&lifting, 1);
    finish(&mut game, events, 1);
    let heard = game.script_state()["left"].to_string();
    assert!(heard.contains("0 follower script tile 0 0"), "{heard}");
}

/// `spot_on(x, y, fx, fy, fspot)` says where a feature lies on another tile (its spot there,
/// or `()`, which a log writes as nothing), and `complete(x, y, spot)` whether a feature is
/// complete: after every tile laid, for each feature of the start tile, the same answers as the
/// engine's own features.
const SPOT_ON: &str = r#"
fn after_place() {
    let t = placed_tile();
    for f in features_on(0, 0) {
        log(`${t.x} ${t.y} ${f.spot} ${spot_on(t.x, t.y, 0, 0, f.spot)} ${complete(0, 0, f.spot)}`);
    }
}
"#;

#[test]
fn spot_on_and_complete_read_the_board_as_the_engine_does() {
    use castellan::model::geometry::{Pos, Spot};
    const SPOTS: [&str; 14] = [
        "N", "E", "S", "W", "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR", "C", "I",
    ];
    let rules = rules("spot-on", "hig", &[("spot", SPOT_ON)], "");
    let (mut found, mut completed) = (0, 0);
    for seed in 0..4 {
        let (mut game, _) = start(&rules, seed);
        let mut bot = RandomBot::new(seed);
        while !game.is_over() {
            let events = game.apply(&bot.choose(&game)).expect("legal");
            for line in common::logs(&events) {
                let w: Vec<&str> = line.split(' ').collect();
                let pos = Pos::new(w[0].parse().expect("x"), w[1].parse().expect("y"));
                let start_seg = (game.seg_at(Pos::new(0, 0), Spot::parse(w[2]).expect("spot")))
                    .expect("a feature of the start tile");
                let on_tile = (SPOTS.iter())
                    .filter_map(|s| game.seg_at(pos, Spot::parse(s).expect("spot")))
                    .filter(|seg| game.features().same(*seg, start_seg))
                    .min();
                let expected =
                    on_tile.map_or(String::new(), |seg| game.seg_spot(seg).1.name().to_string());
                assert_eq!(w[3], expected, "{line}");
                assert_eq!(w[4], game.is_complete(start_seg).to_string(), "{line}");
                found += usize::from(on_tile.is_some());
                completed += usize::from(w[4] == "true");
            }
        }
    }
    assert!(found > 0 && completed > 0, "{found} {completed}");
}

/// A `figure_left` that changes the board is a located error (the engine is moving figures).
#[test]
fn figure_left_may_not_change_the_board() {
    let text = "fn figure_left(figure, reason) { score(0, 1, \"no\"); }\n";
    let rules = rules("figure-left-bad", "hig", &[("bad", text)], "");
    let (mut game, _) = start(&rules, 1);
    let mut bot = RandomBot::new(2);
    let err = loop {
        let action = bot.choose(&game);
        match game.apply(&action) {
            Ok(_) => assert!(!game.is_over(), "a figure went home in a whole game"),
            Err(RuleError::Script(e)) => break e,
            Err(e) => panic!("{e}"),
        }
    };
    assert_eq!((err.hook.as_str(), err.line), ("figure_left", 1));
    assert!(err.message.contains("may keep state"), "{}", err.message);
}

/// The stage hooks run at their points of the turn (RULES.md §2.1): after the tile, after
/// deployment, scoring, after scoring, the end of the turn; `give_extra_turn()` gives the
/// player who just played the next turn, whose `turn_half()` is 2 (RULES.md §1.10).
const STAGES: &str = r#"
fn after_place() { log(`after_place ${turn()}`); }
fn after_deploy() { log(`after_deploy ${turn()}`); }
fn score() { log(`score ${turn()}`); }
fn after_score() { log(`after_score ${turn()}`); }
fn turn_end() { log(`turn_end ${turn()} ${turn_half()}`); }
fn place() { if turn() == 1 { give_extra_turn(); } }
fn turn_start() { log(`start ${turn()} ${active()} ${turn_half()}`); }
"#;

#[test]
fn stage_hooks_run_in_turn_order_and_a_script_gives_an_extra_turn() {
    let rules = rules("stages", "hig", &[("stages", STAGES)], "");
    let (mut game, events) = start(&rules, 4);
    let mut events = events;
    while game.turn() < 3 {
        let action = game.legal()[0];
        events.extend(game.apply(&action).expect("legal"));
    }
    assert_eq!(
        common::logs(&events),
        [
            "start 1 0 0",
            "after_place 1",
            "after_deploy 1",
            "score 1",
            "after_score 1",
            "turn_end 1 1",
            "start 2 0 2",
            "after_place 2",
            "after_deploy 2",
            "score 2",
            "after_score 2",
            "turn_end 2 2",
            "start 3 1 0",
        ]
    );
}

/// Plays seeds 0 to 5 under both rulesets with the same random bots and asserts that each
/// seed's games are the same, event for event; returns the events of all of them.
fn same_games(a: &Arc<Ruleset>, b: &Arc<Ruleset>) -> Vec<Event> {
    let mut all = Vec::new();
    for seed in 0..6 {
        let (mut game, events) = start(a, seed);
        let first = finish(&mut game, events, seed);
        let (mut game, events) = start(b, seed);
        let second = finish(&mut game, events, seed);
        assert_eq!(first, second, "seed {seed}");
        all.extend(second);
    }
    all
}

/// `take_unseen_after(mark)` does what a `place_<mark>()` hook calling `take_tile_unseen()`
/// does, without the hook: the same games, event for event (the bazaar tiles of `hig-bcb`
/// carry the symbol `bazaar`), with tiles taken out.
#[test]
fn a_standing_mark_takes_tiles_out_as_a_place_hook_would() {
    let hook = "fn place_bazaar() { if tiles_left() > 0 { take_tile_unseen(); } }\n";
    let standing = "fn game_start() { take_unseen_after(\"bazaar\"); }\n";
    let by_hook = rules("unseen-hook", "hig-bcb", &[("s", hook)], "");
    let by_mark = rules("unseen-mark", "hig-bcb", &[("s", standing)], "");
    let out = (same_games(&by_hook, &by_mark).iter())
        .filter(|e| matches!(e, Event::TileTakenUnseen { .. }))
        .count();
    assert!(out > 0, "some bazaar tile took the next one out");
}

/// `ask_on_deploy(mark, offers)` asks what a `deploy_<mark>()` hook calling `ask(active(), …)`
/// asks, without the hook: the same games, event for event (the bazaar tiles of `hig-bcb`),
/// with the question answered.
#[test]
fn a_standing_question_is_asked_as_a_deploy_hook_would() {
    let offers =
        r#"[#{ name: "yes", args: [], label: "yes" }, #{ name: "no", args: [], label: "no" }]"#;
    let action =
        "fn action(name, args) { if name == \"yes\" { points(active(), 2, \"Y\", \"yes\"); } }\n";
    let hook = format!("fn deploy_bazaar() {{ ask(active(), {offers}); }}\n{action}");
    let standing = format!("fn game_start() {{ ask_on_deploy(\"bazaar\", {offers}); }}\n{action}");
    let by_hook = rules("ask-hook", "hig-bcb", &[("s", &hook)], "");
    let by_mark = rules("ask-mark", "hig-bcb", &[("s", &standing)], "");
    let yes = (same_games(&by_hook, &by_mark).iter())
        .filter(|e| format!("{e:?}").contains("\"Y\""))
        .count();
    assert!(yes > 0, "some bazaar tile asked and was answered yes");
}

/// Hostile input (scripts/README.md, "Watching"): no script keeps more than 256 standing
/// questions or marks that take tiles out; asking more fails the game's start with the
/// script's error, naming the limit and the command's line.
#[test]
fn standing_commands_are_bounded() {
    let cases = [
        (
            "bound-unseen",
            "fn game_start() {\n  for i in 0..300 { take_unseen_after(`m${i}`); }\n}\n",
            "at most 256 marks that take tiles out",
        ),
        (
            "bound-ask",
            "fn game_start() {\n  for i in 0..300 { ask_on_deploy(`m${i}`, []); }\n}\n",
            "at most 256 standing questions",
        ),
    ];
    for (tag, script, message) in cases {
        let rules = rules(tag, "hig", &[("s", script)], "");
        let error = Game::new(rules, Setup::new(vec!["A".into(), "B".into()], 1))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains(message), "{tag}: {error}");
        assert!(
            error.contains(":2:"),
            "{tag}: located at the command's line: {error}"
        );
    }
}
