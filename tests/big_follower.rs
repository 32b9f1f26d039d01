//! Inns & Cathedrals' figures (RULES.md §1.10, B-M1, B-C3; [ext:X1]): the big follower as the
//! shipped `big` row (strength 2 in every majority, farms too) handed out by the I&C presets,
//! and the sixth player. With The Princess & the Dragon: the princess and the big follower
//! (`pd.princess.big_follower`, A16), the dragon's menus (D7, A9), the fairy (FA3) and the
//! portal (MP5). Each record under `tests/records/ic/` says its scenario in its header.

use castellan::bot::{Bot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::event::Event;
use castellan::engine::game::{Game, Setup};
use castellan::engine::refusal::RuleId;
use castellan::mechanic::pd::vocabulary::PdAction;
use castellan::mechanic::pd::vocabulary::{EATEN, PRINCESS};
use castellan::model::figure::FigureKind;
use castellan::model::geometry::{Pos, Spot};
use castellan::model::tile::FeatureKind;
use castellan::record::{Record, Replay};
use std::collections::HashSet;
use std::sync::Arc;

mod common;
use common::{before, root, run, under};

const RED: usize = 0;
const BLUE: usize = 1;

fn load(name: &str) -> Record {
    common::record("ic", name)
}

fn big() -> FigureKind {
    FigureKind::parse("big").expect("the shipped big row is named")
}

fn remove(x: i32, y: i32, spot: &str) -> Action {
    PdAction::Remove {
        pos: Pos::new(x, y),
        spot: Spot::parse(spot).expect("spot"),
    }
    .into()
}

/// Every positive score as (player, points, feature).
fn scored(events: &[Event]) -> Vec<common::Scored> {
    common::scored(events)
        .into_iter()
        .filter(|(_, points, _)| *points > 0)
        .collect()
}

/// The I&C presets: one big follower each (strength 2, a knight to the princess, through the
/// portal, counted by the fairy, on every dragon menu), inns and cathedrals scored, 2–6
/// players (B-C3); the presets without I&C give no big follower and stop at 5.
#[test]
fn the_ic_presets_hand_out_one_big_follower_and_allow_six_players() {
    for name in ["hig-ic", "zman-ic"] {
        let rules = Ruleset::load(name).unwrap_or_else(|d| panic!("{d}"));
        assert!(rules.switched_on("inns_cathedrals"), "{name}");
        assert_eq!(rules.players, (2, 6), "{name}");
        let row = rules.figures.row(big()).expect("the big row");
        assert_eq!((row.per_player, row.strength), (1, 2), "{name}");
        assert!(
            row.can("princess") && row.can("portal") && row.can("fairy"),
            "{name}"
        );
        assert!(row.has_tag("follower") && row.has_tag("flesh_and_blood"));
        for kind in [
            FeatureKind::Road,
            FeatureKind::City,
            FeatureKind::Cloister,
            FeatureKind::Field,
        ] {
            assert!(row.stands_on.on(kind), "{name} {kind:?}");
        }
    }
    let hig = Ruleset::load("hig").expect("hig");
    assert_eq!(hig.players, (2, 5));
    assert_eq!(hig.figures.row(big()).map(|r| r.per_player), Some(0));
}

/// B-C3: six players play a whole `hig-ic` game (random bots); every seat has its big
/// follower; `hig` refuses a sixth player.
#[test]
fn six_players_play_hig_ic() {
    let names: Vec<String> = (1..=6).map(|i| format!("P{i}")).collect();
    let rules = Ruleset::load("hig-ic").expect("hig-ic");
    let (mut game, _) = Game::new(Arc::clone(&rules), Setup::new(names.clone(), 11)).expect("6");
    for seat in 0..6 {
        assert_eq!(game.supply(seat, big()), 1);
    }
    let mut bot = RandomBot::new(5);
    let mut seats = HashSet::new();
    while !game.is_over() {
        seats.insert(game.active());
        let action = bot.choose(&game);
        game.apply(&action).expect("a legal action");
    }
    assert_eq!(seats.len(), 6, "every seat played");
    let hig = Ruleset::load("hig").expect("hig");
    assert!(Game::new(hig, Setup::new(names, 11)).is_err(), "hig: 2–5");
}

/// RULES.md T-B1 (big-follower half) under the shipped `hig-ic`: Blue's big follower (2)
/// wins the road a normal thief (1) would have tied: Blue 4, Red 0. FA3 (RULES.md §2.7:
/// "the player's own followers (normal, big, …)"): at Blue's next deployment the fairy may go
/// next to his big follower.
#[test]
fn t_b1_the_shipped_big_follower_wins_the_road() {
    let path = root().join("tests/fixtures/figures/t-b1-big-follower.toml");
    let record = Record::load(&path).unwrap_or_else(|d| panic!("{d}"));
    let record = under(record, "hig-ic");
    let blue_turn = before(record.clone(), 7);
    assert_eq!(blue_turn.active(), BLUE);
    let fairy_to_big = |a: &Action| matches!(PdAction::of(a), Some(PdAction::Fairy { pos, .. }) if pos == Pos::new(1, 1));
    assert!(blue_turn.legal().iter().any(fairy_to_big), "FA3");
    let Replay { game, events } = run(&record);
    assert_eq!(scored(&events), vec![(BLUE, 4, FeatureKind::Road)]);
    assert_eq!(game.scores(), &[0, 4]);
    assert_eq!(game.supply(BLUE, big()), 1);
}

/// RULES.md §1.10 "weight 2 for majority everywhere (farms too)": Blue's big farmer beats
/// Red's farmer in the farm of one completed city: Blue 3, Red 0.
#[test]
fn the_big_follower_counts_two_in_a_farm() {
    let Replay { game, events } = run(&load("big-farmer"));
    assert!(game.is_over());
    assert_eq!(scored(&events), vec![(BLUE, 3, FeatureKind::Field)]);
    assert_eq!(game.scores(), &[0, 3]);
}

/// `pd.princess.big_follower = "any"` (default; seed 004 fn 27, Big Box 1–3): the princess
/// may send the big follower home like any knight; the city then scores for Red alone.
#[test]
fn a16_any_the_princess_takes_the_big_follower() {
    let game = before(load("princess-big-any"), 5);
    let legal: HashSet<Action> = game.legal().into_iter().collect();
    let expected: HashSet<Action> = [remove(0, 0, "E"), remove(2, 0, "W"), Action::Pass]
        .into_iter()
        .collect();
    assert_eq!(legal, expected);
    let Replay { game, events } = run(&load("princess-big-any"));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::FigureReturned { player: BLUE, figure, reason: PRINCESS, .. }
            if *figure == big()
    )));
    assert_eq!(scored(&events), vec![(RED, 6, FeatureKind::City)]);
    assert_eq!(game.scores(), &[6, 0]);
    assert_eq!(game.supply(BLUE, big()), 1);
}

/// `pd.princess.big_follower = "only_if_alone"` (the early FAQ, seed 004 fn 27; A16): with
/// Red's knight in the city the big follower may not be taken (refused, PR3); Red passes and
/// the big follower (2 against 1) wins the city: Blue 6, Red 0.
#[test]
fn a16_only_if_alone_keeps_the_big_follower_beside_another_knight() {
    let mut game = before(load("princess-big-only-if-alone"), 5);
    let legal: HashSet<Action> = game.legal().into_iter().collect();
    let expected: HashSet<Action> = [remove(0, 0, "E"), Action::Pass].into_iter().collect();
    assert_eq!(legal, expected);
    let err = game.apply(&remove(2, 0, "W")).expect_err("refused");
    assert_eq!(err.rule(), Some(RuleId("PR3")));
    assert_eq!(game.legal().len(), 2, "unchanged");
    let Replay { game, events } = run(&load("princess-big-only-if-alone"));
    assert_eq!(scored(&events), vec![(BLUE, 6, FeatureKind::City)]);
    assert_eq!(game.scores(), &[0, 6]);
}

/// `"only_if_alone"` with the big follower as the city's one knight: it may be taken. The
/// board of princess-big-any without Red's knight (Red lays his cap and deploys nothing).
#[test]
fn a16_only_if_alone_takes_a_lone_big_follower() {
    let mut record = under(load("princess-big-any"), "ic-big-only-if-alone.toml");
    record.actions.remove(1);
    record.actions.insert(1, (Action::Pass, 0..0));
    let game = before(record, 5);
    let legal: HashSet<Action> = game.legal().into_iter().collect();
    let expected: HashSet<Action> = [remove(2, 0, "W"), Action::Pass].into_iter().collect();
    assert_eq!(legal, expected);
}

/// D7 and A9 (RULES.md §2.4, §3.1 `pd.dragon.menu`; seed 002 "1b. The dragon's menu"): the
/// dragon eats a big follower under all three menus (it is a follower and flesh and blood).
#[test]
fn d7_every_menu_eats_the_big_follower() {
    for fixture in [
        "ic-synthetic.toml",
        "ic-menu-followers.toml",
        "ic-menu-followers-builder-pig.toml",
    ] {
        let Replay { game, events } = run(&under(load("dragon-eats-big"), fixture));
        assert!(
            events.iter().any(|e| matches!(
                e,
                Event::FigureReturned { player: RED, figure, x: 0, y: 1, reason: EATEN }
                    if *figure == big()
            )),
            "{fixture}"
        );
        assert!(game.figures().is_empty(), "{fixture}");
        assert_eq!(game.supply(RED, big()), 1, "{fixture}");
        assert_eq!(game.supply(RED, FigureKind::Follower), 7, "{fixture}");
    }
}

/// Pictures: the SVG draws the big follower larger than a follower (`data-kind="big"`,
/// scaled); the terminal writes `b` beside its seat number and the legend lists it in supply.
#[test]
fn the_big_follower_is_drawn_bigger() {
    use castellan::ui::render::{svg, text};
    let game = before(load("princess-big-any"), 5);
    let picture = svg::board(&game);
    let big_figure = picture
        .lines()
        .find(|l| l.contains(r#"data-kind="big""#))
        .expect("the big follower is drawn");
    assert!(big_figure.contains("scale(1.4)"), "{big_figure}");
    let follower = picture
        .lines()
        .find(|l| l.contains(r#"data-kind="follower""#))
        .expect("the follower is drawn");
    assert!(!follower.contains("scale("), "{follower}");
    let board = text::board(&game, false);
    assert!(board.contains("2b") || board.contains("b2"), "{board}");
    let legend = text::legend(&game, false);
    assert!(
        legend.contains("7 followers, 0 big followers in supply"),
        "{legend}"
    );
    // The key comes from the figure table: the big follower's row has the letter `b`.
    assert!(legend.contains("1b a big follower of seat 1"), "{legend}");
}
