//! The script family's services that let the engine call a script only when it matters
//! (scripts/README.md, "Watching: called only when it matters", and the narrow hooks
//! `deploy_<name>`, `strength_tied`, `feature_points_<kind>`, `figure_left_<kind>`): a script
//! written with them and its twin written with the broad hooks, that decides everything itself
//! at every call, play the same games — the same legal actions at every decision and the same
//! events — while the watched twin is called at most two thirds as often.

use castellan::bot::{Bot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::game::{Game, Setup};
use std::sync::Arc;

/// A house rule in the watched form: instead of deploying, a player with a follower in supply
/// may scout a road of the tile just laid (the engine lists the offer); each later tile of his
/// that extends a road he scouted pays him 1 (the mark is his: `mark_feature(…, seat)`); a tile
/// that finishes a scouted road pays its player 2 (`completed_scouted`); a tied majority goes to
/// seat 0; a cloister is worth 1 more and 1 per volcano around it (`tiles_around`); the
/// followers that leave the board are counted; `turn_end` is not heard from turn 3 to 5.
const WATCHED: &str = r#"
fn game_start() {
    offer_deploy(#{ name: "scout", figure: "follower", feature: "road", apart_from: "scouted",
                    label: "scout the road at ({0},{1}) {2}" });
    set_state(#{ left: 0 });
}
fn action(name, args) {
    if name == "scout" { mark_feature(args[0], args[1], args[2], "scouted", active()); }
}
fn deploy_scouted() { score(active(), 1, "a scouted road grows"); }
fn completed_scouted() { score(active(), 2, "a scouted road is finished"); }
fn strength_tied(feature) { [1, 0] }
fn feature_points_cloister(feature) {
    feature.points + 1 + tiles_around(feature.x, feature.y, "volcano")
}
fn figure_left_follower(figure, reason) {
    let s = state();
    s.left += 1;
    set_state(s);
}
fn turn_start() { if turn() == 6 { listen("turn_end", true); } }
fn turn_end() {
    log(`end of turn ${turn()}: ${marked_features("scouted").len()} scouted`);
    if turn() == 2 { listen("turn_end", false); }
}
fn game_end() { log(`${state().left} followers left the board`); }
"#;

/// The same house rule with the broad hooks: each decides at every call whether it applies.
const PLAIN: &str = r#"
fn game_start() { set_state(#{ left: 0, scouted: [] }); }
fn actions_deploy(player) {
    let t = placed_tile();
    if t == () || supply(player) == 0 || princess_removed() { return []; }
    let scouted = state().scouted;
    let spots = [];
    for f in features_on(t.x, t.y) {
        if f.kind != "road" { continue; }
        let free = true;
        for h in scouted { if same_feature(t.x, t.y, f.spot, h[0], h[1], h[2]) { free = false; } }
        if free { spots.push([t.x, t.y, f.spot]); }
    }
    [#{ name: "scout", each: spots, label: "scout the road at ({0},{1}) {2}" }]
}
fn action(name, args) {
    if name == "scout" {
        let s = state();
        s.scouted.push([args[0], args[1], args[2], active(), turn()]);
        set_state(s);
    }
}
fn deploy() {
    let t = placed_tile();
    if t == () { return; }
    let scouted = state().scouted;
    for h in scouted {
        if complete(h[0], h[1], h[2]) && spot_on(t.x, t.y, h[0], h[1], h[2]) != () {
            score(active(), 2, "a scouted road is finished");
            break;
        }
    }
    for h in scouted {
        let reached = spot_on(t.x, t.y, h[0], h[1], h[2]) != ();
        if h[3] == active() && h[4] != turn() && reached {
            score(active(), 1, "a scouted road grows");
            return;
        }
    }
}
fn strength(feature) {
    let s = feature.strength;
    if s[0] > 0 && s[0] == s[1] { [1, 0] } else { () }
}
fn feature_points(feature) {
    if feature.kind != "cloister" { return (); }
    let n = 0;
    for dx in -1..2 {
        for dy in -1..2 {
            if (dx != 0 || dy != 0) && tile_has(feature.x + dx, feature.y + dy, "volcano") { n += 1; }
        }
    }
    feature.points + 1 + n
}
fn figure_left(figure, reason) {
    if figure.kind != "follower" { return; }
    let s = state();
    s.left += 1;
    set_state(s);
}
fn turn_end() {
    if turn() < 3 || turn() > 5 {
        log(`end of turn ${turn()}: ${state().scouted.len()} scouted`);
    }
}
fn game_end() { log(`${state().left} followers left the board`); }
"#;

/// Writes `script` as `scripts/twin.rhai` and a ruleset extending `hig` that loads it into a
/// fresh folder named after `tag`; returns the loaded ruleset.
fn twin(tag: &str, script: &str) -> Arc<Ruleset> {
    let dir = std::env::temp_dir().join(format!("castellan-watch-{tag}"));
    std::fs::create_dir_all(dir.join("scripts")).expect("dir");
    std::fs::write(dir.join("scripts/twin.rhai"), script).expect("script");
    let path = dir.join("test.toml");
    let text = "extends = \"hig\"\nname = \"t\"\nscripts = [\"scripts/twin.rhai\"]\n";
    std::fs::write(&path, text).expect("ruleset");
    Ruleset::load(&path.display().to_string()).expect("the ruleset loads")
}

/// The legal actions in words, sorted (a script action's id depends on the order it was first
/// offered; a standing offer is listed before `pass`, an offer hook's after it).
fn legal_words(game: &Game) -> Vec<String> {
    let mut words: Vec<String> = (game.legal().iter())
        .map(castellan::engine::words::action)
        .collect();
    words.sort();
    words
}

/// Plays one game of each twin in lockstep with the same random bot; answers the number of
/// scouts and of the narrow hooks' effects seen (roads grown, roads finished, counts of
/// followers), and the hook calls of each.
fn lockstep(seed: u64, watched: &Arc<Ruleset>, plain: &Arc<Ruleset>) -> ([usize; 4], [u64; 2]) {
    let setup = || Setup::new(vec!["A".into(), "B".into()], seed);
    let (mut w, mut we) = Game::new(Arc::clone(watched), setup()).expect("starts");
    let (mut p, pe) = Game::new(Arc::clone(plain), setup()).expect("starts");
    assert_eq!(format!("{we:?}"), format!("{pe:?}"));
    let mut bot = RandomBot::new(seed + 11);
    let mut seen = [0; 4];
    let mut calls = [0; 2];
    while !p.is_over() {
        assert!(!w.is_over(), "seed {seed}: the watched game ended first");
        assert_eq!(
            legal_words(&w),
            legal_words(&p),
            "seed {seed}, turn {}",
            p.turn()
        );
        let action = bot.choose(&p);
        let words = castellan::engine::words::action(&action);
        let same = (w.legal().into_iter())
            .find(|a| castellan::engine::words::action(a) == words)
            .expect("the same action is legal in the watched game");
        if matches!(action, Action::Script(_)) {
            seen[0] += 1;
        }
        let before = castellan::script::calls_on_this_thread();
        let pn = p.apply(&action).expect("legal");
        let between = castellan::script::calls_on_this_thread();
        we = w.apply(&same).expect("legal in the watched game too");
        calls[0] += castellan::script::calls_on_this_thread() - between;
        calls[1] += between - before;
        assert_eq!(format!("{we:?}"), format!("{pn:?}"), "seed {seed}, {words}");
        let said =
            |e: &castellan::engine::event::Event, what: &str| format!("{e:?}").contains(what);
        seen[1] += pn
            .iter()
            .filter(|e| said(e, "a scouted road grows"))
            .count();
        seen[2] += pn
            .iter()
            .filter(|e| said(e, "a scouted road is finished"))
            .count();
        seen[3] += pn
            .iter()
            .filter(|e| said(e, "followers left the board"))
            .count();
    }
    assert!(w.is_over(), "seed {seed}: the plain game ended first");
    assert_eq!(w.scores(), p.scores());
    (seen, calls)
}

/// RULES.md none (a house rule of the test): 40 random games of the twins are the same at every
/// decision, scouts are offered, chosen and paid (growing and finished), and the watched twin
/// makes a third fewer hook calls (most of both are `turn_start`, `turn_end` and `figure_left`).
#[test]
fn watched_hooks_play_the_same_games_as_broad_ones() {
    let watched = twin("watched", WATCHED);
    let plain = twin("plain", PLAIN);
    let mut seen = [0; 4];
    let mut calls = [0; 2];
    for seed in 0..40 {
        let (s, c) = lockstep(seed, &watched, &plain);
        for (total, n) in seen.iter_mut().zip(s) {
            *total += n;
        }
        calls[0] += c[0];
        calls[1] += c[1];
    }
    assert!(seen[0] > 20, "scouts chosen: {seen:?}");
    assert!(seen[1] > 20, "scouted roads grown: {seen:?}");
    assert!(seen[2] > 5, "scouted roads finished: {seen:?}");
    assert_eq!(seen[3], 40, "one count per game: {seen:?}");
    assert!(
        calls[0] * 3 < calls[1] * 2,
        "the watched twin is called at most two thirds as often: {calls:?}"
    );
}

/// A standing offer or a mark given a bad argument is a script error naming the script and
/// what is wrong, and the game is refused at its start.
#[test]
fn bad_watch_arguments_are_script_errors() {
    for (script, wrong) in [
        (
            r#"fn game_start() { offer_deploy(#{ name: "x", figure: "wizard", feature: "road" }); }"#,
            "no figure `wizard`",
        ),
        (
            r#"fn game_start() { offer_deploy(#{ name: "x", figure: "follower", feature: "moat" }); }"#,
            "not moat",
        ),
        (
            r#"fn game_start() { offer_deploy(#{ name: "x", figure: "follower", feature: "road", colour: 1 }); }"#,
            "unknown key `colour`",
        ),
        (
            r#"fn game_start() { mark_feature(40, 40, "N", "far"); }"#,
            "no feature at (40,40) N",
        ),
        (
            r#"fn game_start() { mark_feature(0, 0, "N", "far", 2); }"#,
            "mark_feature: there is no player 2",
        ),
    ] {
        let rules = twin("bad", script);
        let started = Game::new(rules, Setup::new(vec!["A".into(), "B".into()], 1));
        let message = match started {
            Ok(_) => panic!("{script} starts"),
            Err(e) => e.to_string(),
        };
        assert!(message.contains(wrong), "{message}");
        assert!(message.contains("twin.rhai"), "{message}");
    }
}
