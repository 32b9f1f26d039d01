//! Abbey & Mayor (`[mechanics] abbey_mayor`, RULES-MORE.md §2): the mayor's strength (AM-7..AM-9),
//! the wagon's move after scoring (AM-10..AM-14), their P&D answers (RULES-MORE.md §5), the
//! `[am]` toggles and the `abbey-mayor` tile set (TILES-MORE.md §2). Each record under
//! `tests/records/am/` says its scenario and expected outcome in its header.

use castellan::data::ruleset::Ruleset;
use castellan::engine::action::Action;
use castellan::engine::event::{Event, ReturnReason};
use castellan::engine::game::Game;
use castellan::engine::refusal::RuleId;
use castellan::mechanic::am::vocabulary::{AmAction, AmDecision, AmEvent};
use castellan::model::figure::{FigureKind, Place};
use castellan::model::geometry::{Pos, Spot};
use castellan::model::tile::{EdgeKind, FeatureKind, Lies, TileSet, TileType};
use castellan::record::{self, Record};

mod common;
use common::{before, kind, run, scored};

#[path = "common/api.rs"]
mod api;

const A: usize = 0;
const B: usize = 1;

fn load(name: &str) -> Record {
    common::record("am", name)
}

fn mayor() -> FigureKind {
    kind("mayor")
}

fn wagon() -> FigureKind {
    kind("wagon")
}

/// Where each figure of `kind` stands: (owner, tile, canonical spot), sorted.
fn standing(game: &Game, kind: FigureKind) -> Vec<(usize, Pos, Spot)> {
    let mut at: Vec<_> = (game.figures().iter())
        .filter(|f| f.kind == kind)
        .map(|f| {
            let (pos, spot) = game.figure_spot(f);
            (f.owner, pos, spot)
        })
        .collect();
    at.sort();
    at
}

fn wagon_to(x: i32, y: i32, spot: &str) -> Action {
    AmAction::Wagon {
        pos: Pos::new(x, y),
        spot: Spot::parse(spot).expect("spot"),
    }
    .into()
}

/// AM-E1 (AM-8, AM-9): the mayor's strength is the city's 3 pennants, more than B's two
/// followers; the city pays its base value 16 to A alone.
#[test]
fn e1_mayor_strength_is_the_pennants() {
    let replay = run(&load("e1-mayor-pennants"));
    let last = &replay.events;
    assert_eq!(common::completed(last), vec![(FeatureKind::City, 5)]);
    assert_eq!(scored(last), vec![(A, 16, FeatureKind::City)]);
    assert_eq!(replay.game.scores(), &[16, 0]);
    // Everyone went home (B-M3): no figure on the board, full supplies.
    assert!(replay.game.figures().is_empty());
    assert_eq!(replay.game.supply(A, mayor()), 1);
    assert_eq!(replay.game.supply(B, FigureKind::Follower), 7);
}

/// AM-E2 (AM-8): a mayor in a city without pennants has strength 0: alone it scores nothing,
/// and goes home with the completed city.
#[test]
fn e2_mayor_without_pennants_scores_nothing() {
    let replay = run(&load("e2-mayor-no-pennants"));
    assert_eq!(
        common::completed(&replay.events),
        vec![(FeatureKind::City, 2)]
    );
    assert_eq!(scored(&replay.events), vec![]);
    assert_eq!(replay.game.scores(), &[0, 0]);
    assert_eq!(standing(&replay.game, mayor()), vec![]);
    assert_eq!(replay.game.supply(A, mayor()), 1);
}

/// `am.mayor.zero_strength_scores = true` (house rule, AM-8): the same city pays A, whose mayor
/// is the only figure there.
#[test]
fn e2_zero_strength_mayor_scores_under_the_house_rule() {
    let replay = run(&common::under(
        load("e2-mayor-no-pennants"),
        "am-zero-mayor-scores.toml",
    ));
    assert_eq!(scored(&replay.events), vec![(A, 4, FeatureKind::City)]);
    assert_eq!(replay.game.scores(), &[4, 0]);
}

/// AM-7: the mayor stands on cities only; on a road or field it is refused by its figure row,
/// and the game is unchanged.
#[test]
fn mayor_goes_on_cities_only() {
    let mut game = before(load("e5-wagon-moves"), 1);
    let saved = record::write(&game, "x");
    let on_road = Action::Deploy {
        pos: Pos::new(-1, 0),
        spot: Spot::parse("E").expect("spot"),
        figure: mayor(),
    };
    let err = game.apply(&on_road).expect_err("a mayor on a road");
    assert_eq!(err.rule(), Some(RuleId("figures.stands_on")));
    assert_eq!(record::write(&game, "x"), saved);
    assert!(!game.legal().iter().any(|a| matches!(a,
        Action::Deploy { figure, .. } if *figure == mayor())));
}

/// AM-10: the wagon never goes on a field.
#[test]
fn wagon_never_on_a_field() {
    let mut game = before(load("e5-wagon-moves"), 1);
    let on_field = Action::Deploy {
        pos: Pos::new(-1, 0),
        spot: Spot::parse("NL").expect("spot"),
        figure: wagon(),
    };
    let err = game.apply(&on_field).expect_err("a wagon on a field");
    assert_eq!(err.rule(), Some(RuleId("figures.stands_on")));
}

/// AM-E5 (AM-11, AM-13): the wagon's road is completed and scored (4 to A); A is then asked,
/// the one destination is the empty incomplete city on a diagonal tile (C2), and the wagon
/// moves there straight from supply.
#[test]
fn e5_wagon_moves_on_after_scoring() {
    let record = load("e5-wagon-moves");
    let asked = before(record.clone(), 6);
    let decision = asked.decision();
    assert_eq!(decision.player, A);
    assert_eq!(
        AmDecision::of(&decision.kind),
        Some(AmDecision::Wagon { x: -1, y: 0 })
    );
    assert_eq!(asked.legal(), vec![wagon_to(0, -1, "N"), Action::Pass]);
    // The wagon went home with its road first (B-M3), then waits in supply.
    assert_eq!(asked.scores(), &[4, 0]);
    assert_eq!(asked.supply(A, wagon()), 1);

    let replay = run(&record);
    assert_eq!(
        standing(&replay.game, wagon()),
        vec![(A, Pos::new(0, -1), Spot::parse("N").expect("spot"))]
    );
    assert_eq!(replay.game.supply(A, wagon()), 0);
    assert_eq!(replay.game.scores(), &[4, 0]);
    assert!(replay.events.iter().any(|e| AmEvent::of(e)
        == Some(AmEvent::WagonMoved {
            player: A,
            feature: FeatureKind::City,
            x: 0,
            y: -1,
            spot: Spot::parse("N").expect("spot"),
        })));
    // The turn passed to B after the move.
    assert_eq!(replay.game.active(), B);
}

/// AM-12: passing keeps the wagon in supply; a move elsewhere than the listed features is
/// refused (AM-11) and changes nothing.
#[test]
fn wagon_pass_keeps_it_home_and_bad_moves_are_refused() {
    let mut game = before(load("e5-wagon-moves"), 6);
    let saved = record::write(&game, "x");
    // The road it left is complete (Q-AM3), the tile's fields are no destination (AM-10).
    for bad in [
        wagon_to(1, 0, "W"),
        wagon_to(-1, 0, "NL"),
        wagon_to(5, 5, "N"),
    ] {
        let err = game.apply(&bad).expect_err("refused");
        assert_eq!(err.rule(), Some(RuleId("AM-11")), "{bad:?}");
        assert_eq!(record::write(&game, "x"), saved);
    }
    game.apply(&Action::Pass).expect("pass");
    assert_eq!(standing(&game, wagon()), vec![]);
    assert_eq!(game.supply(A, wagon()), 1);
    assert_eq!(game.active(), B);
}

/// AM-12, Q-AM2: two wagons scored by one tile decide in turn order from the active player
/// (B, then A), each after all the scoring; both roads' owners scored 5 first.
#[test]
fn wagons_decide_in_turn_order_from_the_active_player() {
    let record = load("wagons-turn-order");
    let first = before(record.clone(), 8);
    assert_eq!(first.scores(), &[5, 5]);
    assert_eq!(first.decision().player, B);
    assert_eq!(
        AmDecision::of(&first.decision().kind),
        Some(AmDecision::Wagon { x: 3, y: 0 })
    );
    let second = before(record.clone(), 9);
    assert_eq!(second.decision().player, A);
    let replay = run(&record);
    let n = Spot::parse("N").expect("spot");
    assert_eq!(
        standing(&replay.game, wagon()),
        vec![(A, Pos::new(0, -1), n), (B, Pos::new(3, -1), n)]
    );
}

/// RULES-MORE.md §5 X-1, X-7, X-10, X-11: the mayor and the wagon are knights for the princess,
/// may use the portal, are followers for the fairy and are of flesh and blood for the dragon's
/// menu, by their rows in `hig-am` and `zman-am`.
#[test]
fn pd_reads_the_mayor_and_wagon_rows() {
    for name in ["hig-am", "zman-am"] {
        let rules = Ruleset::load(name).expect(name);
        for figure in [mayor(), wagon()] {
            let row = rules.figures.row(figure).expect("row");
            assert_eq!(row.per_player, 1, "{name}");
            for ability in ["princess", "portal", "fairy"] {
                assert!(row.can(ability), "{name}: {figure:?} {ability}");
            }
            assert!(row.has_tag("flesh_and_blood") && row.has_tag("follower"));
        }
    }
}

/// X-1, X-14: the dragon eats a wagon (it goes home `eaten`), which is no scoring, so no move
/// is offered. Checked on random `hig-am` games: every `wagon_move` decision follows a wagon
/// that went home `scored` that turn.
#[test]
fn only_scored_wagons_are_offered_a_move() {
    let rules = Ruleset::load("hig-am").expect("hig-am");
    for seed in 0..20 {
        let setup = castellan::engine::game::Setup::new(vec!["A".into(), "B".into()], seed);
        let (mut game, _) = Game::new(rules.clone(), setup).expect("game");
        let mut rng = seed;
        let mut scored_wagons = 0u32;
        while !game.is_over() {
            let legal = game.legal();
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pick = legal[(rng >> 33) as usize % legal.len()];
            let events = game.apply(&pick).expect("legal");
            for e in &events {
                if let Event::FigureReturned { figure, reason, .. } = e {
                    if *figure == wagon() && *reason == ReturnReason::Scored {
                        scored_wagons += 1;
                    }
                }
            }
            if AmDecision::of(&game.decision().kind).is_some() {
                assert!(
                    scored_wagons > 0,
                    "seed {seed}: a move without a scored wagon"
                );
                scored_wagons = scored_wagons.saturating_sub(1);
            }
        }
    }
}

/// AM-E5 under `am.wagon.move = "C1"` (AM-11, [MJH p11]): the wagon's completed road ran into
/// the city of AM/RC (its `leads_to`): that city is the one destination, and the city beside
/// the wagon's tile, which "C2" offers, is refused; A moves the wagon into the connected city.
#[test]
fn e5_c1_wagon_moves_only_to_a_connected_feature() {
    let record = load("e5-wagon-c1");
    let mut asked = before(record.clone(), 4);
    assert_eq!(asked.scores(), &[3, 0]);
    assert_eq!(asked.legal(), vec![wagon_to(1, 0, "N"), Action::Pass]);
    let saved = record::write(&asked, "x");
    let err = asked
        .apply(&wagon_to(0, -1, "N"))
        .expect_err("not connected");
    assert_eq!(err.rule(), Some(RuleId("AM-11")));
    assert_eq!(record::write(&asked, "x"), saved);

    let replay = run(&record);
    assert_eq!(
        standing(&replay.game, wagon()),
        vec![(A, Pos::new(1, 0), Spot::parse("N").expect("spot"))]
    );
    assert_eq!(replay.game.scores(), &[3, 0]);
}

/// The same game under `am.wagon.move = "C2"` (the default, [PG-WG]): the city at (0,-1), on a
/// tile beside the wagon's, is a destination too.
#[test]
fn e5_c2_wagon_may_move_to_any_feature_around() {
    let record = common::under(load("e5-wagon-c1"), "am-synthetic.toml");
    let asked = before(record.clone(), 4);
    assert_eq!(
        asked.legal(),
        vec![wagon_to(0, -1, "N"), wagon_to(1, 0, "N"), Action::Pass]
    );
    let mut moved = asked.clone();
    moved.apply(&wagon_to(0, -1, "N")).expect("legal under C2");
    assert_eq!(
        standing(&moved, wagon()),
        vec![(A, Pos::new(0, -1), Spot::parse("N").expect("spot"))]
    );
}

/// AM-11 `"C1"`: a road stub ends at the monastery of its tile (AM/LRRRR), which is its one
/// destination; the tile's other stubs are no crossing of it.
#[test]
fn c1_wagon_moves_from_a_road_stub_to_its_monastery() {
    let record = load("wagon-c1-cloister");
    let asked = before(record.clone(), 4);
    assert_eq!(asked.legal(), vec![wagon_to(1, 0, "C"), Action::Pass]);
    let replay = run(&record);
    assert_eq!(
        standing(&replay.game, wagon()),
        vec![(A, Pos::new(1, 0), Spot::parse("C").expect("spot"))]
    );
}

/// The tile format's `leads_to` (tiles/README.md): an edge no city part of the tile reaches is
/// refused with its file, line and column.
#[test]
fn a_road_leading_to_no_city_is_refused_with_its_place() {
    let src = "name = \"x\"\ndescription = \"x\"\n[[tile]]\nid = \"X\"\ncount = 1\nedges = [\"city\", \"field\", \"field\", \"road\"]\ncity = [{ edges = [\"N\"] }]\nroad = [{ edges = [\"W\"], leads_to = [\"E\"] }]\nfield = [{ halves = [\"EL\", \"ER\", \"SL\", \"SR\", \"WL\", \"WR\"], cities = [\"N\"] }]\n";
    let err = TileSet::parse(std::path::Path::new("bad.toml"), src).expect_err("refused");
    let text = err.to_string();
    assert!(text.starts_with("bad.toml:8:"), "{text}");
    assert!(text.contains("leads to a city at E"), "{text}");
}

/// TILES-MORE.md §2 and §5: 12 land tiles of 12 types, 6 pennants on 5 tiles, 1 monastery; the
/// three-edge road of `AM/Rrr` is one road reaching N, E and W.
#[test]
fn the_abbey_mayor_tiles() {
    let path = common::root().join("tiles/abbey-mayor.toml");
    let src = std::fs::read_to_string(&path).expect("the tile file reads");
    let set = TileSet::parse(&path, &src).unwrap_or_else(|e| panic!("{e}"));
    // The 12 land tiles go into the bag; the abbey (6, one per player) does not (AM-C1).
    let (abbeys, tiles): (Vec<TileType>, Vec<TileType>) =
        set.tiles.iter().cloned().partition(|t| t.has_tag("abbey"));
    let tiles = &tiles;
    assert_eq!(tiles.len(), 12);
    assert!(tiles.iter().all(|t| t.in_bag));
    assert_eq!(tiles.iter().map(|t| t.count).sum::<u32>(), 12);
    let [abbey] = abbeys.as_slice() else {
        panic!("one abbey tile type")
    };
    assert_eq!((&*abbey.id, abbey.count, abbey.in_bag), ("AM.A", 6, false));
    assert_eq!(abbey.edges, [EdgeKind::Wild; 4]);
    assert_eq!(abbey.lies, Lies::InHoles);
    assert!(abbey.has_cloister());
    let pennants =
        |t: &TileType| -> u32 { t.features().iter().map(|f| u32::from(f.pennants)).sum() };
    let with: Vec<u32> = tiles.iter().map(pennants).filter(|&p| p > 0).collect();
    assert_eq!((with.len(), with.iter().sum::<u32>()), (5, 6));
    assert_eq!(tiles.iter().filter(|t| t.has_cloister()).count(), 1);
    let rrr = tiles.iter().find(|t| &*t.id == "AM/Rrr").expect("AM/Rrr");
    let roads: Vec<u8> = (rrr.features().iter())
        .filter(|f| f.kind == FeatureKind::Road)
        .map(|f| f.edges)
        .collect();
    // One road on edges N (bit 0), E (bit 1) and W (bit 3).
    assert_eq!(roads, vec![0b1011]);
}

const C: usize = 2;

fn barn() -> FigureKind {
    kind("barn")
}

fn barn_at(x: i32, y: i32) -> Action {
    AmAction::Barn {
        pos: Pos::new(x, y),
    }
    .into()
}

/// The barns on the board: (owner, the tile whose north-east corner holds it), in order put.
fn barns(game: &Game) -> Vec<(usize, Pos)> {
    (game.placed_figures().into_iter())
        .filter(|(_, kind, _)| *kind == barn())
        .map(|(owner, _, place)| match place {
            Place::Corner(pos) => (owner, pos),
            Place::Tile(pos) | Place::Side(pos, _) => panic!("a barn on the tile at {pos}"),
        })
        .collect()
}

/// The barns the pending decision offers.
fn barns_offered(game: &Game) -> Vec<Action> {
    (game.legal().into_iter())
        .filter(|a| matches!(AmAction::of(a), Some(AmAction::Barn { .. })))
        .collect()
}

/// AM-E3 (AM-15, AM-16, AM-19): C's barn on the one corner of his tile where four tiles meet in
/// one field scores that field's farmers at once, 3 per completed city (2 cities) to A's
/// majority, and sends all three farmers home; at the end the barn field borders 3 completed
/// cities: C scores 4 × 3 = 12.
#[test]
fn e3_barn_scores_the_farmers_then_its_cities_at_the_end() {
    let record = load("e3-barn-placed");
    let asked = before(record.clone(), 11);
    assert_eq!(asked.active(), C);
    assert_eq!(barns_offered(&asked), vec![barn_at(0, 1)]);

    let replay = run(&record);
    assert_eq!(
        common::scored_with_rule(&replay.events),
        vec![
            (A, 6, FeatureKind::Field, "AM-16 barn placed"),
            (C, 12, FeatureKind::Field, "AM-19 barns at the end"),
        ]
    );
    assert_eq!(replay.game.scores(), &[6, 0, 12]);
    assert!(replay.game.figures().is_empty(), "every farmer went home");
    assert_eq!(barns(&replay.game), vec![(C, Pos::new(0, 1))]);
    for p in [A, B, C] {
        assert_eq!(replay.game.supply(p, FigureKind::Follower), 7);
    }
    assert_eq!(replay.game.supply(C, barn()), 0);
    assert_eq!(replay.game.supply(A, barn()), 1);
    assert!(replay.events.iter().any(|e| AmEvent::of(e)
        == Some(AmEvent::BarnPlaced {
            player: C,
            x: 0,
            y: 1
        })));
}

/// AM-E4 (AM-18, AM-20 default `am.barn.pig_bonus = "farmer_scorings_only"`, Q-AM4): the tile
/// that joins B's farmer and pig to A's barn field scores B 1 per completed city (2) plus the
/// pig's 1 per city: 4; both go home. A's barn scores 4 per city at the end (no pig bonus): 8.
#[test]
fn e4_farmers_joined_to_a_barn_score_one_per_city_with_the_pig() {
    let replay = run(&load("e4-barn-joined"));
    assert_eq!(
        common::scored_with_rule(&replay.events),
        vec![
            (B, 4, FeatureKind::Field, "AM-18 farmers joined to a barn"),
            (A, 8, FeatureKind::Field, "AM-19 barns at the end"),
        ]
    );
    assert_eq!(replay.game.scores(), &[8, 4]);
    assert!(replay.game.figures().is_empty());
    assert_eq!(barns(&replay.game), vec![(A, Pos::new(0, 1))]);
    assert_eq!(replay.game.supply(B, FigureKind::Follower), 7);
    assert_eq!(replay.game.supply(B, kind("pig")), 1);
}

/// `am.barn.pig_bonus = "none"` (Q-AM4): the same join pays B 1 per city only: 2.
#[test]
fn e4_without_the_pig_bonus() {
    let replay = run(&common::under(
        load("e4-barn-joined"),
        "am-barn-no-pig-bonus.toml",
    ));
    assert_eq!(replay.game.scores(), &[8, 2]);
    assert!(replay.game.figures().is_empty());
}

/// AM-16: no farmer may go into a field with a barn: A's tile at (2,0), joined to his barn's
/// field (which holds no farmer), offers no deployment on its field, and one is refused with
/// the game unchanged.
#[test]
fn no_farmer_in_a_barn_field() {
    let mut game = before(load("e4-barn-joined"), 9);
    assert_eq!(game.active(), A);
    assert!(!game.legal().iter().any(|a| matches!(a,
        Action::Deploy { pos, .. } if *pos == Pos::new(2, 0))));
    let saved = record::write(&game, "x");
    let farmer = Action::Deploy {
        pos: Pos::new(2, 0),
        spot: Spot::parse("NL").expect("spot"),
        figure: FigureKind::Follower,
    };
    let err = game.apply(&farmer).expect_err("a farmer in a barn field");
    assert_eq!(err.rule(), Some(RuleId("AM-16")));
    assert_eq!(record::write(&game, "x"), saved);
}

/// AM-17 `am.barn.allow_second = true`: B's second barn in A's barn field; at the end they tie
/// with one barn each and both score 4 (1 completed city). X-12, Q-AM5: A's barn went on a
/// corner of the volcano tile holding the dragon, where no farmer may go (V3).
#[test]
fn second_barn_allowed_by_the_toggle_and_barn_on_a_volcano_corner() {
    let record = load("barn-second-volcano");
    let mut volcano = before(record.clone(), 1);
    assert_eq!(barns_offered(&volcano), vec![barn_at(0, 1)]);
    let farmer = Action::Deploy {
        pos: Pos::new(1, 1),
        spot: Spot::parse("NL").expect("spot"),
        figure: FigureKind::Follower,
    };
    let err = volcano
        .apply(&farmer)
        .expect_err("no farmer on the volcano");
    assert_eq!(err.rule(), Some(RuleId("V3")));

    let replay = run(&record);
    assert_eq!(replay.game.scores(), &[4, 4]);
    assert_eq!(
        barns(&replay.game),
        vec![(A, Pos::new(0, 1)), (B, Pos::new(1, 1))]
    );
}

/// AM-17 default (`allow_second = false`, [FW-AM]): the same second barn is not offered and is
/// refused, the game unchanged; B passes and A's barn alone scores 4.
#[test]
fn second_barn_refused_by_default() {
    let record = common::under(load("barn-second-volcano"), "am-synthetic.toml");
    let mut game = before(record, 3);
    assert_eq!(game.active(), B);
    assert_eq!(barns_offered(&game), vec![]);
    let saved = record::write(&game, "x");
    let err = game.apply(&barn_at(1, 1)).expect_err("a second barn");
    assert_eq!(err.rule(), Some(RuleId("AM-17")));
    assert_eq!(record::write(&game, "x"), saved);
    game.apply(&Action::Pass).expect("pass");
    assert_eq!(game.scores(), &[4, 0]);
    assert_eq!(barns(&game), vec![(A, Pos::new(0, 1))]);
}

/// AM-15: a barn goes only on a corner where four placed tiles meet in one field: one of a
/// corner with a missing tile, or far from the new tile, is refused.
#[test]
fn barn_only_on_a_full_field_corner_of_the_new_tile() {
    let mut game = before(load("e3-barn-placed"), 11);
    for bad in [barn_at(1, 1), barn_at(-1, 0), barn_at(0, 0)] {
        let err = game.apply(&bad).expect_err("refused");
        assert_eq!(err.rule(), Some(RuleId("AM-15")), "{bad:?}");
    }
}

/// X-9 (seed 002 §PRINCESS Exp. 5; PR5): after the princess removed A's knight, B may put no
/// barn (none offered, one refused); had B not removed it, the barn would be offered.
#[test]
fn no_barn_after_the_princess_removes_a_knight() {
    let record = load("barn-after-princess");
    let mut removed = before(record.clone(), 4);
    assert_eq!(removed.active(), B);
    assert_eq!(barns_offered(&removed), vec![]);
    let err = removed.apply(&barn_at(0, 1)).expect_err("no barn");
    assert_eq!(err.rule(), Some(RuleId("PR5")));

    let mut kept = before(record.clone(), 3);
    kept.apply(&Action::Pass)
        .expect("the princess may stay idle");
    assert_eq!(barns_offered(&kept), vec![barn_at(0, 1)]);

    let replay = run(&record);
    assert_eq!(barns(&replay.game), vec![]);
    assert_eq!(replay.game.scores(), &[0, 0]);
    assert_eq!(replay.game.supply(A, FigureKind::Follower), 7);
}

/// RULES-MORE.md §5 X-2, X-7, X-11: the barn is no follower and not of flesh and blood (the
/// dragon's menu, the fairy and the portal read these), stands on no feature, and each player
/// of `hig-am` and `zman-am` has one (AM-C1).
#[test]
fn pd_reads_the_barn_row() {
    for name in ["hig-am", "zman-am", "hig-big-box"] {
        let rules = Ruleset::load(name).expect(name);
        let row = rules.figures.row(barn()).expect("row");
        assert_eq!(row.per_player, 1, "{name}");
        assert!(row.follower.is_none() && row.strength == 0);
        for ability in ["princess", "portal", "fairy"] {
            assert!(!row.can(ability), "{name}: barn {ability}");
        }
        assert!(!row.has_tag("flesh_and_blood") && !row.has_tag("follower"));
        for kind in FeatureKind::ALL {
            assert!(!row.stands_on.on(kind));
        }
    }
}

/// The web page plays `hig-am` (RULES-MORE.md §2): two bots play a whole game through the
/// server's API, abbeys laid included; its record replays to the same scores, and every barn
/// put on the board is drawn at its corner in the page's SVG.
#[tokio::test]
async fn the_server_plays_a_game_of_hig_am() {
    let app = api::app(&api::data("abbey_mayor", "serve"));
    let (game, replay) = api::bot_game(&app, "hig-am", &["greedy", "random"], 7, |_| {}).await;
    // The bots laid abbeys into holes (AM-1, AM-2), which the record keeps and replays.
    let abbeys = (laid(&replay.events).into_iter())
        .filter(|(_, tile, _)| tile == "AM.A")
        .count();
    assert!(abbeys > 0, "an abbey was laid through the server");
    let svg = game["board"].as_str().expect("the board's SVG");
    for (owner, _) in barns(&replay.game) {
        assert!(
            svg.contains(&format!(r#"data-player="{owner}" data-place="corner""#)),
            "barn of seat {owner} not drawn"
        );
    }
}

/// X-2 (seed 002 "The dragon's diet plan"): the dragon walks over three of the four tiles around
/// A's barn's corner and eats nothing there; the barn stays and scores 4 at the end (AM-19).
#[test]
fn the_dragon_does_not_eat_a_barn() {
    let replay = run(&load("barn-dragon"));
    let steps: Vec<Pos> = (replay.events.iter())
        .filter_map(
            |e| match castellan::mechanic::pd::vocabulary::PdEvent::of(e) {
                Some(castellan::mechanic::pd::vocabulary::PdEvent::DragonMoved {
                    x,
                    y,
                    step,
                    ..
                }) if step > 0 => Some(Pos::new(x, y)),
                _ => None,
            },
        )
        .collect();
    assert_eq!(steps, vec![Pos::new(1, 0), Pos::new(0, 0), Pos::new(0, 1)]);
    assert!(!replay.events.iter().any(|e| matches!(e,
        Event::FigureReturned { figure, .. } if *figure == barn())));
    assert_eq!(barns(&replay.game), vec![(A, Pos::new(0, 1))]);
    assert_eq!(replay.game.scores(), &[4, 0]);
}

/// AM-11 `"C1"` ("a road leading on from a crossing", [MJH p11]): the wagon left the west stub
/// of a crossroads; its destinations are the crossing's other three stubs, and under "C2" the
/// city at (0,-1) beside it would be one too.
#[test]
fn c1_wagon_leads_on_from_a_crossing() {
    let record = load("wagon-c1-crossing");
    let asked = before(record.clone(), 4);
    assert_eq!(
        asked.legal(),
        vec![
            wagon_to(1, 0, "N"),
            wagon_to(1, 0, "E"),
            wagon_to(1, 0, "S"),
            Action::Pass
        ]
    );
    let c2 = before(common::under(record.clone(), "am-synthetic.toml"), 4);
    assert!(c2.legal().contains(&wagon_to(0, -1, "N")));
    let replay = run(&record);
    assert_eq!(
        standing(&replay.game, wagon()),
        vec![(A, Pos::new(1, 0), Spot::parse("E").expect("spot"))]
    );
    assert_eq!(replay.game.scores(), &[3, 0]);
}

/// X-8 (seed 002 §FAIRY Exp. 5; seed 004): moving the fairy and placing a barn answer the same
/// deployment, so no turn has both: in seeded random games of every preset with the barn, a
/// turn that moved the fairy placed no barn and one that placed a barn moved no fairy.
#[test]
fn no_turn_both_moves_the_fairy_and_places_a_barn() {
    use castellan::bot::simulate::play_bots_watched;
    use castellan::mechanic::pd::vocabulary::PdEvent;
    use std::sync::Arc;
    let (mut barns_seen, mut fairy_moves_seen) = (0, 0);
    for name in ["hig-am", "zman-am", "hig-big-box"] {
        let rules = Arc::new(Ruleset::load(name).expect(name));
        for seed in 0..30 {
            let (mut fairy, mut barn) = (false, false);
            let watch = |_: &Game, events: &[Event]| {
                for e in events {
                    if matches!(e, Event::TurnStarted { .. }) {
                        (fairy, barn) = (false, false);
                    }
                    if matches!(PdEvent::of(e), Some(PdEvent::FairyMoved { .. })) {
                        fairy = true;
                        fairy_moves_seen += 1;
                    }
                    if matches!(AmEvent::of(e), Some(AmEvent::BarnPlaced { .. })) {
                        barn = true;
                        barns_seen += 1;
                    }
                    assert!(
                        !(fairy && barn),
                        "{name} seed {seed}: fairy and barn in one turn"
                    );
                }
            };
            play_bots_watched(&rules, &["random", "random"], seed, watch).expect("plays");
        }
    }
    assert!(
        barns_seen > 20 && fairy_moves_seen > 100,
        "{barns_seen} barns, {fairy_moves_seen} fairy moves"
    );
}

// ---------------------------------------------------------------------------------------------
// The abbey (RULES-MORE.md §2.2: AM-C1, AM-1..AM-6, Q-AM1).

/// Every `TurnStarted` event as (turn, player).
fn turns(events: &[Event]) -> Vec<(u32, usize)> {
    (events.iter())
        .filter_map(|e| match *e {
            Event::TurnStarted { turn, player } => Some((turn, player)),
            _ => None,
        })
        .collect()
}

/// The tiles laid in turns (not the start tiles), as (player, tile id, position).
fn laid(events: &[Event]) -> Vec<(usize, String, Pos)> {
    (events.iter())
        .filter_map(|e| match e {
            Event::TilePlaced {
                player, tile, x, y, ..
            } => Some((*player, tile.to_string(), Pos::new(*x, *y))),
            _ => None,
        })
        .collect()
}

/// Every figure on the board as (owner, kind, tile, canonical spot), sorted.
fn figures_at(game: &Game) -> Vec<(usize, FigureKind, Pos, Spot)> {
    let mut at: Vec<_> = (game.figures().iter())
        .map(|f| {
            let (pos, spot) = game.figure_spot(f);
            (f.owner, f.kind, pos, spot)
        })
        .collect();
    at.sort();
    at
}

fn place(x: i32, y: i32) -> Action {
    Action::Place {
        pos: Pos::new(x, y),
        rotation: castellan::model::geometry::Rotation::default(),
    }
}

/// AM-1, AM-2, AM-4, Q-AM1 (`abbey-closes-city`): B lays his abbey into the hole instead of
/// drawing; it closes A's city, which scores 4 for its 2 tiles (the abbey is not one of them);
/// B's monk on it scores 6 at the end as an incomplete cloister (AM-3).
#[test]
fn abbey_closes_a_city_scored_without_the_abbey() {
    let replay = run(&load("abbey-closes-city"));
    assert_eq!(replay.game.scores(), &[4, 6]);
    assert_eq!(
        common::completed(&replay.events),
        vec![(FeatureKind::City, 2)],
        "Q-AM1: the abbey counts no tile of the city it closes"
    );
    assert_eq!(
        scored(&replay.events),
        vec![(A, 4, FeatureKind::City), (B, 6, FeatureKind::Cloister)]
    );
    // Two tiles were drawn; the abbey was laid, not drawn.
    let drawn = (replay.events.iter())
        .filter(|e| matches!(e, Event::TileDrawn { .. }))
        .count();
    assert_eq!(drawn, 2);
    assert!(laid(&replay.events).contains(&(B, "AM.A".to_string(), Pos::new(0, 0))));
    // B's monk stayed on the abbey until final scoring, which leaves figures standing.
    assert_eq!(
        figures_at(&replay.game),
        vec![(B, kind("follower"), Pos::new(0, 0), Spot::Cloister)]
    );
}

/// AM-1, AM-2: at the start of his turn the player holding an abbey is offered it, only into a
/// hole and in one rotation (all are the same), or `pass` to draw; an abbey elsewhere is refused
/// and leaves the game as it was.
#[test]
fn abbey_only_into_a_hole_and_refused_elsewhere() {
    let record = load("abbey-closes-city");
    let game = before(record.clone(), 0);
    assert_eq!(game.legal(), vec![place(0, 0), Action::Pass]);
    let mut tried = game.clone();
    let err = tried.apply(&place(0, -2)).expect_err("no hole at (0,-2)");
    assert_eq!(err.rule(), Some(RuleId("tiles.holes_only")));
    let err = tried.apply(&place(5, 5)).expect_err("nothing beside (5,5)");
    assert_eq!(err.rule(), Some(RuleId("B-P1")));
    assert_eq!(tried.history(), game.history());
    assert_eq!(tried.legal(), game.legal());
    assert_eq!(tried.tiles_left(), game.tiles_left());
    // After A's turn the hole is still there and B holds his abbey: B is offered it.
    let game = before(record, 3);
    assert_eq!(game.active(), B);
    assert_eq!(game.legal(), vec![place(0, 0), Action::Pass]);
}

/// AM-3 (`abbey-cloister-complete`): an abbey laid with all 8 tiles around it is a completed
/// cloister: A's monk on it scores 9 in the same turn and goes home.
#[test]
fn monk_on_a_surrounded_abbey_scores_nine() {
    let replay = run(&load("abbey-cloister-complete"));
    assert_eq!(replay.game.scores(), &[9, 0]);
    assert_eq!(scored(&replay.events), vec![(A, 9, FeatureKind::Cloister)]);
    assert!(figures_at(&replay.game).is_empty());
}

/// AM-5 (`abbey-last-round`, `am.abbey.endgame = "after_last_tile_clockwise"`): after A laid
/// the last tile, B then C lay their abbeys (clockwise from the player after A); A is skipped
/// with no hole left, and the game ends.
#[test]
fn last_round_of_abbeys_goes_clockwise_after_the_last_tile() {
    let replay = run(&load("abbey-last-round"));
    assert_eq!(turns(&replay.events), vec![(1, A), (2, B), (3, C)]);
    let abbeys: Vec<_> = (laid(&replay.events).into_iter())
        .filter(|(_, tile, _)| tile == "AM.A")
        .map(|(player, _, pos)| (player, pos))
        .collect();
    assert_eq!(abbeys, vec![(B, Pos::new(2, 0)), (C, Pos::new(0, 0))]);
    assert!(replay.game.is_over());
    assert_eq!(replay.game.scores(), &[0, 5, 0]);
    assert_eq!(
        figures_at(&replay.game),
        vec![(B, kind("follower"), Pos::new(2, 0), Spot::Cloister)]
    );
}

/// AM-5's toggle `am.abbey.endgame = "none"`: the same game ends as the last tile is laid; B's
/// and C's abbeys stay unplayed, nobody scores.
#[test]
fn no_last_round_under_the_house_rule() {
    let mut record = common::under(load("abbey-last-round"), "am-abbey-no-endgame.toml");
    record.actions.truncate(3);
    let replay = run(&record);
    assert!(replay.game.is_over());
    assert_eq!(turns(&replay.events), vec![(1, A)]);
    assert_eq!(replay.game.scores(), &[0, 0, 0]);
    assert!(figures_at(&replay.game).is_empty());
}

/// AM-6 (`abbey-builder`, [WC-AM2] "Traders and Builders"): the abbey closes the city of A's
/// knight and builder (6 points) but earns no double turn: turn 6 is B's.
#[test]
fn abbey_earns_no_builders_double_turn() {
    let replay = run(&load("abbey-builder"));
    assert_eq!(replay.game.scores(), &[6, 0]);
    assert_eq!(scored(&replay.events), vec![(A, 6, FeatureKind::City)]);
    assert_eq!(
        turns(&replay.events),
        vec![(1, A), (2, B), (3, A), (4, B), (5, A), (6, B)]
    );
    let doubled = (replay.events.iter()).any(|e| {
        matches!(
            castellan::mechanic::tb::vocabulary::TbEvent::of(e),
            Some(castellan::mechanic::tb::vocabulary::TbEvent::DoubleTurn { .. })
        )
    });
    assert!(!doubled, "no double turn");
    assert!(figures_at(&replay.game).is_empty());
}

/// TILES-MORE.md §2, row AM/RG: the new edition's garden tile is AM/R with an Abbot garden;
/// `hig-big-box` (2nd editions with gardens) plays it in AM/R's place, 12 A&M land tiles either
/// way.
#[test]
fn the_new_editions_garden_tile() {
    let path = common::root().join("tiles/abbey-mayor-garden.toml");
    let src = std::fs::read_to_string(&path).expect("the tile file reads");
    let set = TileSet::parse(&path, &src).unwrap_or_else(|e| panic!("{e}"));
    let [rg] = set.tiles.as_slice() else {
        panic!("one tile type")
    };
    assert_eq!((&*rg.id, rg.count), ("AM/RG", 1));
    assert_eq!(
        rg.edges,
        [
            EdgeKind::Field,
            EdgeKind::Field,
            EdgeKind::Road,
            EdgeKind::Field
        ]
    );
    assert!(rg.has_feature(FeatureKind::Garden));
    let rules = Ruleset::load("hig-big-box").expect("hig-big-box loads");
    let count = |id: &str| -> u32 {
        (rules.tiles.iter())
            .filter(|t| &*t.id == id)
            .map(|t| t.count)
            .sum()
    };
    let land: u32 = (rules.tiles.iter())
        .filter(|t| t.id.starts_with("AM/") && t.in_bag)
        .map(|t| t.count)
        .sum();
    assert_eq!((count("AM/RG"), count("AM/R"), land), (1, 0, 12));
}

/// AM-3 with the magic portal (RULES.md MP5; RULES-MORE.md §5 has no abbey row: the abbey is an
/// ordinary cloister tile for P&D), `abbey-portal`: B's monk goes onto A's abbey through a
/// portal laid elsewhere, and scores it as a cloister at the end.
#[test]
fn portal_puts_a_monk_on_an_abbey() {
    let replay = run(&load("abbey-portal"));
    assert_eq!(replay.game.scores(), &[0, 5]);
    assert_eq!(
        figures_at(&replay.game),
        vec![(B, kind("follower"), Pos::new(0, 0), Spot::Cloister)]
    );
}

/// A record whose start leaves a hole at (0,0) in `hig-am`: four start tiles around it, so the
/// first player is offered his abbey at once (AM-1, AM-2).
const HOLE: &str = r#"ruleset = "hig-am"
players = ["Ann", "Bob"]
seed = 5

[[start]]
tile = "BA/RCr"
x = 0
y = -1
[[start]]
tile = "BA/RCr"
x = -1
y = 0
[[start]]
tile = "BA/RCr"
x = 1
y = 0
[[start]]
tile = "BA/RCr"
x = 0
y = 1
"#;

/// A person on the web page is offered the abbey (AM-1, AM-2): the page shows the abbey as the
/// tile to lay, a placement into the hole on the board and a `pass` button (draw instead). Ann
/// passes and draws a land tile; on his turn Bob lays his abbey into the hole and is asked for
/// his deployment, a monk on the abbey among the choices (AM-3).
#[tokio::test]
async fn a_person_on_the_web_page_lays_or_passes_the_abbey() {
    use serde_json::{Value, json};
    let app = api::app(&api::data("abbey_mayor", "person"));
    let (status, game) = api::call(
        &app,
        "POST",
        "/api/open",
        Some(json!({"files": [{"name": "hole.toml", "text": HOLE}]})),
    )
    .await;
    assert_eq!(status, axum::http::StatusCode::OK, "{game}");
    let token = api::token(&game["links"]["host"]);
    let offer = |g: &Value| -> (Option<u64>, Option<u64>) {
        let actions = g["actions"].as_array().expect("actions");
        let pass = (actions.iter()).find(|a| a["x"].is_null() && a["record"].get("pass").is_some());
        let hole = (actions.iter()).find(|a| a["x"] == json!(0) && a["y"] == json!(0));
        (
            pass.map(|a| a["index"].as_u64().unwrap_or(0)),
            hole.map(|a| a["index"].as_u64().unwrap_or(0)),
        )
    };
    assert_eq!(game["decision"]["kind"], "place");
    assert_eq!(game["drawn"]["id"], "AM.A");
    let (pass, hole) = offer(&game);
    let (pass, _) = (
        pass.expect("a pass button"),
        hole.expect("the hole on the board"),
    );
    let act = format!("/api/games/{}/act", api::id(&game));
    let (status, drew) = api::call_as(
        &app,
        &token,
        "POST",
        &act,
        Some(json!({"index": pass, "expect": api::history(&game)})),
    )
    .await;
    assert_eq!(status, axum::http::StatusCode::OK, "{drew}");
    // Ann draws a land tile instead.
    assert_eq!(drew["decision"]["player"], 0);
    assert_ne!(drew["drawn"]["id"], "AM.A");
    // Ann lays her tile away from the hole and passes the rest of her turn; then Bob is offered
    // his abbey and lays it.
    let mut g = drew;
    while g["decision"]["player"] == 0 {
        let actions = g["actions"].as_array().expect("actions");
        let pick = (actions.iter())
            .find(|a| a["record"].get("pass").is_some())
            .or_else(|| (actions.iter()).find(|a| !(a["x"] == json!(0) && a["y"] == json!(0))))
            .expect("an action");
        let (status, next) = api::call_as(
            &app,
            &token,
            "POST",
            &act,
            Some(json!({"index": pick["index"], "expect": api::history(&g)})),
        )
        .await;
        assert_eq!(status, axum::http::StatusCode::OK, "{next}");
        g = next;
    }
    assert_eq!(g["drawn"]["id"], "AM.A", "Bob is offered his abbey");
    let hole = offer(&g).1.expect("Bob may lay his abbey into the hole");
    let (status, laid) = api::call_as(
        &app,
        &token,
        "POST",
        &act,
        Some(json!({"index": hole, "expect": api::history(&g)})),
    )
    .await;
    assert_eq!(status, axum::http::StatusCode::OK, "{laid}");
    assert_eq!(laid["decision"]["player"], 1);
    assert_eq!(laid["decision"]["kind"], "deploy");
    assert!(
        laid["board"].as_str().expect("svg").contains("AM.A")
            || laid["log"].to_string().contains("abbey")
    );
}
