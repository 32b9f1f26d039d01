//! The Mechanic trait as a contributor meets it: the worked example of
//! docs/adding-a-mechanic.md (a house rule as a Rust mechanic and as a script, giving the same
//! games), and the promise that scripts/README.md lists a script form for every hook.

use castellan::bot::{Bot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::event::Event;
use castellan::engine::game::{Game, Setup};
use castellan::engine::mechanic::Mechanics;
use castellan::mechanic::base::Base;
use castellan::model::tile::FeatureKind;
use std::collections::BTreeSet;
use std::sync::Arc;

// guide: begin
use castellan::engine::mechanic::{Hooks, Mechanic, Shortcuts};
use castellan::engine::refusal::Refusal;
use castellan::model::feature::SegId;
use castellan::model::figure::FigureKind;

/// House rule "no thieves": followers may not be deployed on roads.
#[derive(Debug)]
struct NoThieves;

impl Mechanic for NoThieves {
    fn name(&self) -> &'static str {
        "no_thieves"
    }

    fn hooks(&self) -> Hooks {
        Hooks::DEPLOY
    }

    fn deploy_problem(
        &self,
        g: &Game,
        seg: SegId,
        _figure: FigureKind,
        _own_tile: bool,
    ) -> Option<Refusal> {
        let road = g.features().segment(seg).kind == FeatureKind::Road;
        road.then_some(Refusal::new("house.no_thieves", "no thieves in this house"))
    }
}

impl Shortcuts for NoThieves {}
// guide: end

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Plays a game with random bots; returns the events and whether any deployment on a road was
/// ever legal.
fn play(game: &mut Game, events: &mut Vec<Event>, seed: u64) -> bool {
    let mut bot = RandomBot::new(seed);
    let mut road_offered = false;
    while !game.is_over() {
        for a in game.legal() {
            if let Action::Deploy { pos, spot, .. } = a {
                let seg = game.seg_at(pos, spot).expect("a feature");
                road_offered |= game.features().segment(seg).kind == FeatureKind::Road;
            }
        }
        let action = bot.choose(game);
        events.extend(game.apply(&action).expect("legal"));
    }
    road_offered
}

/// The guide's example: the Rust mechanic and the script give the same games, and no thief is
/// ever deployed (nor offered); without the rule, thieves are offered.
#[test]
fn the_guide_example_works_as_a_mechanic_and_as_a_script() {
    let base = Ruleset::load("base").expect("loads");
    let scripted = Ruleset::load(
        &root()
            .join("tests/fixtures/guide/no-thieves-script.toml")
            .display()
            .to_string(),
    )
    .expect("loads");
    for seed in 0..5 {
        let players = Setup::new(vec!["A".into(), "B".into()], seed);
        let mechanics: Vec<Box<dyn Mechanic>> = vec![Box::new(Base::new(0)), Box::new(NoThieves)];
        let (mut native, mut native_events) = Game::with_mechanics(
            Arc::clone(&base),
            players.clone(),
            Arc::new(Mechanics::new(mechanics)),
        )
        .expect("starts");
        assert!(!play(&mut native, &mut native_events, seed));
        let (mut script, mut script_events) =
            Game::new(Arc::clone(&scripted), players.clone()).expect("starts");
        assert!(!play(&mut script, &mut script_events, seed));
        assert_eq!(native_events, script_events, "seed {seed}");
        let (mut plain, mut plain_events) = Game::new(Arc::clone(&base), players).expect("starts");
        assert!(
            play(&mut plain, &mut plain_events, seed),
            "thieves are offered without the rule"
        );
    }
}

/// The guide quotes the example exactly as it is compiled here.
#[test]
fn the_guide_quotes_the_example() {
    let test = std::fs::read_to_string(root().join("tests/mechanics.rs")).expect("readable");
    let start = test.find("// guide: begin\n").expect("marker") + "// guide: begin\n".len();
    let end = test.find("// guide: end").expect("marker");
    let guide = std::fs::read_to_string(root().join("docs/adding-a-mechanic.md")).expect("guide");
    assert!(
        guide.contains(&test[start..end]),
        "the guide's Rust example differs"
    );
    let script = std::fs::read_to_string(root().join("tests/fixtures/guide/no-thieves.rhai"))
        .expect("script");
    assert!(guide.contains(&script), "the guide's script differs");
}

/// The rule trait's hooks, read from its source (every `fn` of `pub trait Mechanic` but its
/// identity: `name`, `hooks`, `phases`).
fn trait_hooks() -> BTreeSet<String> {
    hooks_of("pub trait Mechanic")
}

/// The `fn`s of the trait that `head` opens in `src/engine/mechanic.rs`, but a mechanic's
/// identity (`name`, `hooks`, `phases`).
fn hooks_of(head: &str) -> BTreeSet<String> {
    let source = std::fs::read_to_string(root().join("src/engine/mechanic.rs")).expect("readable");
    let start = source.find(head).expect("the trait");
    let end = start + source[start..].find("\n}\n").expect("its end");
    source[start..end]
        .lines()
        .filter_map(|l| l.trim().strip_prefix("fn "))
        .filter_map(|l| l.split(['(', '<']).next())
        .filter(|name| !matches!(*name, "name" | "hooks" | "phases"))
        .map(str::to_string)
        .collect()
}

/// The rows of the markdown table under `heading` (up to the next heading), as cells.
fn table_rows(readme: &str, heading: &str) -> Vec<Vec<String>> {
    let from = readme.find(heading).expect("the heading") + heading.len();
    let section = &readme[from..];
    let section = &section[..section.find("\n#").unwrap_or(section.len())];
    section
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .skip(1) // the header
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The names written in backticks in a table cell (`` `name(…)` `` gives `name`).
fn names(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(|n| n.split('(').next().unwrap_or(n).to_string())
        .collect()
}

/// scripts/README.md's "one list of hooks" and the `Mechanic` trait are the same list (the
/// table may list the `Shortcuts` too), and
/// every hook a script can define ("Hooks") is the script form of some trait hook and is really
/// called by the script host ("one list of hooks").
#[test]
fn the_script_hooks_and_the_trait_are_one_list() {
    let readme = std::fs::read_to_string(root().join("scripts/README.md")).expect("readable");
    let rows = table_rows(
        &readme,
        "### One list of hooks for built-in rules and scripts",
    );
    let listed: BTreeSet<String> = rows.iter().flat_map(|r| names(&r[0])).collect();
    let trait_hooks = trait_hooks();
    assert!(trait_hooks.len() > 20, "{trait_hooks:?}");
    let missing: Vec<_> = trait_hooks.difference(&listed).collect();
    // The table may also list the shortcuts (`Shortcuts`, the hooks that only make bots
    // faster), which a script never needs.
    let shortcuts = hooks_of("pub trait Shortcuts");
    assert!(shortcuts.len() >= 5, "{shortcuts:?}");
    let extra: Vec<_> = (listed.difference(&trait_hooks))
        .filter(|h| !shortcuts.contains(*h))
        .collect();
    assert!(
        missing.is_empty(),
        "trait hooks the table does not list: {missing:?}"
    );
    assert!(
        extra.is_empty(),
        "table rows that are no trait hook: {extra:?}"
    );
    // Every trait hook has a script form.
    for row in &rows {
        assert!(!names(&row[2]).is_empty(), "no script form for {}", row[0]);
    }
    let forms: BTreeSet<String> = rows.iter().flat_map(|r| names(&r[2])).collect();
    let script_hooks: Vec<String> = table_rows(&readme, "## Hooks")
        .iter()
        .flat_map(|r| names(&r[0]))
        .collect();
    assert!(script_hooks.len() > 15, "{script_hooks:?}");
    // The host, and the families' own script hooks (`src/mechanic/*/script.rs`).
    let families = std::fs::read_dir(root().join("src/mechanic"))
        .expect("src/mechanic is readable")
        .map(|e| e.expect("a directory entry").path().join("script.rs"))
        .filter(|p| p.exists());
    let host: String = ["mod.rs", "host.rs", "mechanic.rs"]
        .iter()
        .map(|f| root().join("src/script").join(f))
        .chain(families)
        .map(|f| std::fs::read_to_string(f).expect("readable"))
        .collect();
    for hook in &script_hooks {
        assert!(
            forms.contains(hook),
            "script hook `{hook}` is no trait hook's script form"
        );
        assert!(
            host.contains(&format!("\"{hook}\"")),
            "the script host never calls `{hook}`"
        );
    }
}

/// The engine routes a family's action only to that family's mechanics: in a game without The
/// Princess & the Dragon a dragon step is refused with words that say so, and the game is
/// exactly as it was (issue 30 §2).
#[test]
fn an_action_of_a_family_not_in_play_is_refused_and_changes_nothing() {
    use castellan::engine::game::RuleError;
    use castellan::mechanic::pd::vocabulary::PdAction;
    use castellan::model::geometry::Pos;
    let rules = Ruleset::load("base").expect("base loads");
    let setup = Setup::new(vec!["A".into(), "B".into()], 7);
    let (mut game, _) = Game::new(rules, setup.clone()).expect("starts");
    let before = castellan::ui::report::game_json(&game, &[]).to_string();
    let step = Action::from(PdAction::Dragon {
        pos: Pos::new(0, 1),
    });
    match game.apply(&step) {
        Err(RuleError::WrongDecision(why)) => {
            assert!(why.contains("rules this game does not play"), "{why}");
        }
        other => panic!("a dragon step in a base game: {other:?}"),
    }
    assert_eq!(
        castellan::ui::report::game_json(&game, &[]).to_string(),
        before
    );
    // In a game with the dragon the same step at the placement is the wrong kind of answer.
    let hig = Ruleset::load("hig").expect("hig loads");
    let (mut game, _) = Game::new(hig, setup).expect("starts");
    let before = castellan::ui::report::game_json(&game, &[]).to_string();
    match game.apply(&step) {
        Err(RuleError::WrongDecision(why)) => assert!(why.contains("place"), "{why}"),
        other => panic!("a dragon step at the placement: {other:?}"),
    }
    assert_eq!(
        castellan::ui::report::game_json(&game, &[]).to_string(),
        before
    );
}
