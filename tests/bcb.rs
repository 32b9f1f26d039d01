//! Bridges, Castles & Bazaars (`[mechanics] bridges_castles_bazaars`, RULES-MORE.md §4): castles
//! (BCB-7..BCB-15), their P&D answers (RULES-MORE.md §5 X-2, X-3, Q-X1), the `[bcb]` toggles and
//! the `bridges-castles` tile set (TILES-MORE.md §4). Each record under `tests/records/bcb/` says
//! its scenario and expected outcome in its header.

use castellan::engine::action::Action;
use castellan::engine::event::Event;
use castellan::engine::game::Game;
use castellan::mechanic::bcb::castle::{castles, tokens_left};
use castellan::mechanic::bcb::vocabulary::{BcbAction, BcbDecision, BcbEvent};
use castellan::model::figure::{FigureKind, Place};
use castellan::model::geometry::{Edge, Pos, Spot};
use castellan::model::tile::FeatureKind;
use castellan::record::Record;

mod common;
use common::{before, run, scored, under};

const A: usize = 0;
const B: usize = 1;

fn load(name: &str) -> Record {
    common::record("bcb", name)
}

/// The figures standing at places that are no feature: owner, kind, place.
fn at_places(game: &Game) -> Vec<(usize, FigureKind, Place)> {
    game.placed_figures()
}

/// The family's events.
fn bcb_events(events: &[Event]) -> Vec<BcbEvent> {
    events.iter().filter_map(BcbEvent::of).collect()
}

/// BCB-7, BCB-8: completing the small city with his follower, A builds a castle instead of
/// scoring it: no points, the follower stands on the side between (0,0) and (0,-1), one token
/// used.
#[test]
fn e1_castle_built_scores_nothing() {
    let game = before(load("e1-castle-road"), 3);
    assert_eq!(game.scores(), &[0, 0]);
    assert!(game.figures().is_empty());
    assert_eq!(
        at_places(&game),
        vec![(
            A,
            FigureKind::Follower,
            Place::Side(Pos::new(0, 0), Edge::N)
        )]
    );
    assert_eq!(tokens_left(&game, A), 2);
    assert_eq!(tokens_left(&game, B), 3);
    assert_eq!(castles(&game).len(), 1);
    assert!(castles(&game)[0].occupied);
}

/// BCB-E1 (BCB-9, BCB-10): B's road of 4 tiles, one of them in the castle's vicinity, pays B 4
/// and A's castle 4; A's follower goes home, the castle stays, empty.
#[test]
fn e1_castle_scores_the_road() {
    let replay = run(&load("e1-castle-road"));
    assert_eq!(
        scored(&replay.events),
        vec![(B, 4, FeatureKind::Road), (A, 4, FeatureKind::City)]
    );
    assert_eq!(replay.game.scores(), &[4, 4]);
    assert!(replay.game.figures().is_empty());
    assert!(at_places(&replay.game).is_empty());
    assert_eq!(replay.game.supply(A, FigureKind::Follower), 7);
    assert_eq!(castles(&replay.game).len(), 1);
    assert!(!castles(&replay.game)[0].occupied);
    assert!(bcb_events(&replay.events).iter().any(|e| matches!(
        e,
        BcbEvent::Scored {
            player: A,
            points: 4,
            x: 0,
            y: 0,
            ..
        }
    )));
}

/// BCB-7: building is the owner's choice; passing scores the small city as usual (4 points),
/// the follower goes home and no token is used.
#[test]
fn passing_scores_the_small_city() {
    let game = before(load("pass-scores-city"), 2);
    let legal = game.legal();
    assert_eq!(
        legal,
        vec![
            BcbAction::Castle {
                pos: Pos::new(0, -1),
                spot: Spot::Edge(Edge::S)
            }
            .into(),
            Action::Pass
        ]
    );
    let replay = run(&load("pass-scores-city"));
    assert_eq!(scored(&replay.events), vec![(A, 4, FeatureKind::City)]);
    assert!(castles(&replay.game).is_empty());
    assert_eq!(tokens_left(&replay.game, A), 3);
    assert_eq!(replay.game.supply(A, FigureKind::Follower), 7);
}

/// BCB-13: the game ends with A's follower in the castle: it goes home with no points.
#[test]
fn end_of_game_castle_scores_nothing() {
    let replay = run(&load("end-occupied"));
    assert!(replay.game.is_over());
    assert_eq!(replay.game.scores(), &[0, 0]);
    assert!(scored(&replay.events).is_empty());
    assert!(at_places(&replay.game).is_empty());
    assert_eq!(replay.game.supply(A, FigureKind::Follower), 7);
    assert!(bcb_events(&replay.events).iter().any(|e| matches!(
        e,
        BcbEvent::Left {
            player: A,
            x: 0,
            y: 0,
            ..
        }
    )));
}

/// BCB-11 under `bcb.castle.multi = "owner_chooses"` (the default, [WC-BCB1]): the city (4)
/// and the road (3) completed at once in the castle's vicinity; A, the castle's owner, is asked
/// while B is the active player, and may take the road's 3.
#[test]
fn multi_owner_chooses() {
    let game = before(load("multi"), 5);
    assert_eq!(game.decision().player, A);
    let legal = game.legal();
    assert_eq!(legal.len(), 2, "{legal:?}");
    let mut chose_road = None;
    for a in &legal {
        let mut g = game.clone();
        g.apply(a).expect("a listed choice");
        if g.scores()[A] == 3 {
            chose_road = Some(g);
        } else {
            assert_eq!(g.scores()[A], 4);
        }
    }
    let g = chose_road.expect("one choice pays the road's 3");
    assert_eq!(g.scores(), &[3, 0]);
    assert!(at_places(&g).is_empty());
    assert_eq!(g.supply(A, FigureKind::Follower), 7);
}

/// BCB-11 under `bcb.castle.multi = "highest"` ([JCZ `scoreCastles`]): nobody is asked, the
/// castle scores the city's 4.
#[test]
fn multi_highest() {
    let replay = run(&under(load("multi"), "bcb-highest.toml"));
    assert_eq!(replay.game.scores(), &[4, 0]);
    assert_eq!(scored(&replay.events), vec![(A, 4, FeatureKind::City)]);
    assert!(at_places(&replay.game).is_empty());
}

/// BCB-12: A's castle scores the road of 2 beside it; B's castle, whose vicinity holds A's
/// castle, scores the same 2 in a chain.
#[test]
fn castle_chain() {
    let replay = run(&load("chain"));
    assert_eq!(
        scored(&replay.events),
        vec![(A, 2, FeatureKind::City), (B, 2, FeatureKind::City)]
    );
    assert_eq!(replay.game.scores(), &[2, 2]);
    assert!(at_places(&replay.game).is_empty());
    assert!(castles(&replay.game).iter().all(|c| !c.occupied));
}

/// BCB-E2 (BCB-14): A's farmer's field borders a castle and a completed city: 4 + 3 = 7 at the
/// end; the castle's follower leaves with nothing (BCB-13).
#[test]
fn e2_farm_scores_castle_four() {
    let replay = run(&load("e2-farm"));
    assert_eq!(scored(&replay.events), vec![(A, 7, FeatureKind::Field)]);
    assert_eq!(replay.game.scores(), &[7, 0]);
}

/// `bcb.castle.farm_points = 3`: the same farm pays 3 + 3 = 6.
#[test]
fn e2_farm_points_toggle() {
    let replay = run(&under(load("e2-farm"), "bcb-farm3.toml"));
    assert_eq!(scored(&replay.events), vec![(A, 6, FeatureKind::Field)]);
}

/// TILES-MORE.md "Castle bases" (BCB-7): a cap tagged `no_castle_base` (BB/CFR!) makes no
/// castle: nothing is offered, the city scores 4 and B lays the next tile.
#[test]
fn no_castle_base_offers_nothing() {
    let game = before(load("no-castle-base"), 2);
    assert_eq!(game.decision().player, B);
    assert!(
        (game.legal().iter()).all(|a| matches!(a, Action::Place { .. })
            || matches!(BcbAction::of(a), Some(BcbAction::Bridge { .. }))),
        "B places next (with or without a bridge)"
    );
    assert_eq!(game.scores(), &[4, 0]);
    assert!(castles(&game).is_empty());
}

/// Q-BCB1: a road the castle's own tile completes in its vicinity does not count for it.
#[test]
fn same_turn_feature_does_not_count() {
    let replay = run(&load("same-turn"));
    assert_eq!(replay.game.scores(), &[0, 0]);
    assert_eq!(
        at_places(&replay.game),
        vec![(
            A,
            FigureKind::Follower,
            Place::Side(Pos::new(0, 0), Edge::N)
        )]
    );
    assert!(castles(&replay.game)[0].occupied);
}

/// X-2, X-3 (seeds 002, 004): the dragon walks over both castle tiles and eats nothing there.
#[test]
fn dragon_does_not_eat_a_castle_follower() {
    let replay = run(&load("dragon"));
    let steps = common::journey_steps(&replay.events);
    assert_eq!(steps.len(), 3, "{steps:?}");
    assert_eq!(steps[2].2, Pos::new(0, -1));
    assert!(!replay.game.is_over());
    assert_eq!(
        at_places(&replay.game),
        vec![(
            A,
            FigureKind::Follower,
            Place::Side(Pos::new(0, 0), Edge::N)
        )]
    );
    assert!(castles(&replay.game)[0].occupied);
    assert_eq!(replay.game.supply(A, FigureKind::Follower), 6);
}

/// TILES-MORE.md §4, §5: the set's 12 tiles of 11 types, 8 bazaars, 2 inns, 2 monasteries; one
/// city part tagged `no_castle_base` (BB/CFR!'s).
#[test]
fn tile_set_totals() {
    let rules = castellan::data::ruleset::Ruleset::load("hig-bcb").expect("hig-bcb");
    let set: Vec<_> = (rules.tiles.iter())
        .filter(|t| t.set == "bridges-castles")
        .collect();
    assert_eq!(set.len(), 11);
    assert_eq!(set.iter().map(|t| t.count).sum::<u32>(), 12);
    let bazaar = rules
        .prints
        .symbol_named("bazaar")
        .expect("the bazaar mark");
    let bazaars: u32 = (set.iter())
        .filter(|t| t.symbol == Some(bazaar))
        .map(|t| t.count)
        .sum();
    assert_eq!(bazaars, 8);
    let cloisters: u32 = (set.iter())
        .filter(|t| t.has_cloister())
        .map(|t| t.count)
        .sum();
    assert_eq!(cloisters, 2);
    let tagged: Vec<_> = (set.iter())
        .filter(|t| !t.part_tags.is_empty())
        .map(|t| (t.id.to_string(), t.part_tags.clone()))
        .collect();
    assert_eq!(
        tagged,
        vec![(
            "BB/CFR!".to_string(),
            vec![(0, "no_castle_base".to_string())]
        )]
    );
}

/// BCB-7..BCB-13 in play: seeded random games of `hig-bcb` (2 and 5 players) build castles and
/// score them, each castle decision is asked of the right seat (the build of the active player,
/// the choice of the castle's owner), and every answer listed is accepted.
#[test]
fn random_games_build_and_score_castles() {
    let rules = castellan::data::ruleset::Ruleset::load("hig-bcb").expect("hig-bcb");
    let (mut built, mut scored_castles) = (0, 0);
    for (seed, players) in (0..96u64).zip([2usize, 5].into_iter().cycle()) {
        let names = (0..players).map(|i| format!("P{i}")).collect();
        let setup = castellan::engine::game::Setup::new(names, seed);
        let (mut game, _) = Game::new(rules.clone(), setup).expect("game");
        let mut rng = seed;
        while !game.is_over() {
            let decision = game.decision();
            if decision.kind == BcbDecision::Castle.into() {
                assert_eq!(decision.player, game.active());
            }
            let legal = game.legal();
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pick = legal[(rng >> 33) as usize % legal.len()];
            for e in game.apply(&pick).expect("legal") {
                match BcbEvent::of(&e) {
                    Some(BcbEvent::Built { .. }) => built += 1,
                    Some(BcbEvent::Scored { .. }) => scored_castles += 1,
                    _ => {}
                }
            }
        }
        assert!(castles(&game).iter().all(|c| !c.occupied));
        assert!(at_places(&game).is_empty());
    }
    assert!(built > 5, "{built} castles built, {scored_castles} scored");
    assert!(scored_castles > 2, "{scored_castles} castles scored");
}

#[path = "common/api.rs"]
mod api;

/// The web page plays `hig-bcb` (RULES-MORE.md §4.3): two bots play a whole game through the
/// server's API; a follower in a castle is drawn on its side in the page's SVG while it stands
/// there, every castle token is drawn at the end, and the record replays to the same scores.
#[tokio::test]
async fn the_server_plays_a_game_of_hig_bcb() {
    // Bots seldom build castles; the first seed whose game builds one is played.
    for seed in 0..20 {
        if serve_game(seed).await {
            return;
        }
    }
    panic!("no game of seeds 0..20 built a castle");
}

/// Plays one game of `hig-bcb` between two bots through the API, checks it, and tells whether
/// it built a castle.
async fn serve_game(seed: u64) -> bool {
    let app = api::app(&api::data("bcb", &format!("serve-{seed}")));
    let mut side_drawn = false;
    let (game, replay) = api::bot_game(&app, "hig-bcb", &["random", "greedy"], seed, |g| {
        let svg = g["board"].as_str().unwrap_or_default();
        side_drawn |= svg.contains(r#"data-place="side""#);
    })
    .await;
    let built = castles(&replay.game).len();
    let svg = game["board"].as_str().expect("the board's SVG");
    assert_eq!(
        svg.matches(r#"<g class="castle""#).count(),
        built,
        "castle tokens drawn"
    );
    if built > 0 {
        assert!(
            side_drawn,
            "a castle's follower was never drawn on its side"
        );
    }
    built > 0
}

/// tiles/README.md "Part tags": a part's tag is read with the tile and refused, located, when it
/// is not lowercase letters, digits and `_`.
#[test]
fn part_tags_are_read_and_checked() {
    use castellan::model::tile::TileSet;
    let good = "name = \"t\"\n[[tile]]\nid = \"T\"\ncount = 1\nedges = [\"city\", \"field\", \"field\", \"field\"]\ncity = [{ edges = [\"N\"], tags = [\"no_castle_base\"] }]\nfield = [{ halves = [\"EL\", \"ER\", \"SL\", \"SR\", \"WL\", \"WR\"], cities = [\"N\"] }]\n";
    let set = TileSet::parse(std::path::Path::new("t.toml"), good).expect("parses");
    assert!(set.tiles[0].part_has_tag(0, "no_castle_base"));
    assert!(!set.tiles[0].part_has_tag(1, "no_castle_base"));
    let bad = good.replace("no_castle_base", "No Castle");
    let err = TileSet::parse(std::path::Path::new("t.toml"), &bad).expect_err("a bad tag");
    let text = err.to_string();
    assert!(text.contains("t.toml:6:"), "{text}");
    assert!(text.contains("a tag is lowercase letters"), "{text}");
}

/// BCB-15 ([JCZ `CastlePhase`]): A may move the fairy beside his follower in a castle (to the
/// castle's named tile, no feature named); it then pays A its turn point (FA7).
#[test]
fn the_fairy_goes_beside_a_castle_follower() {
    use castellan::mechanic::pd::vocabulary::PdAction;
    let onto = |x, y| {
        Action::from(PdAction::Fairy {
            pos: Pos::new(x, y),
            spot: None,
        })
    };
    let game = before(load("fairy"), 6);
    assert_eq!(game.decision().player, A);
    let moves: Vec<Action> = (game.legal().into_iter())
        .filter(|a| matches!(PdAction::of(a), Some(PdAction::Fairy { .. })))
        .collect();
    assert_eq!(moves, vec![onto(0, 0)]);
    let replay = run(&load("fairy"));
    assert_eq!(replay.game.fairy().map(|f| f.pos), Some(Pos::new(0, 0)));
    assert_eq!(replay.game.scores(), &[1, 0]);
    assert_eq!(
        at_places(&replay.game),
        vec![(
            A,
            FigureKind::Follower,
            Place::Side(Pos::new(0, 0), Edge::N)
        )]
    );
}
