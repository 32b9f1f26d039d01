//! The tile sets of Inns & Cathedrals, Traders & Builders and the 2nd-edition Abbot gardens
//! against their published totals, and the markers they carry on the board.
//!
//! Sources: `shared/rules/TILES-IC-TB.md` (tile facts and the cross-checked totals: I&C 18 tiles,
//! 6 inns, 2 cathedrals; T&B 24 tiles, goods 9 wine, 6 grain, 5 cloth; each 2nd edition swaps two
//! tiles for garden copies) and `shared/rules/TILES.md` §1 (base `basic:2`: 72 tiles, 8 gardens).

use castellan::data::printed::{CATHEDRAL, Good, INN};
use castellan::data::ruleset::Ruleset;
use castellan::model::geometry::Rotation;
use castellan::model::tile::{Counters, FeatureKind, TileSet, TileType};
use std::path::Path;

fn set(name: &str) -> TileSet {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tiles/{name}.toml"));
    let src = std::fs::read_to_string(&path).expect("the tile file reads");
    TileSet::parse(&path, &src).unwrap_or_else(|e| panic!("{e}"))
}

/// Copies in the set.
fn tiles(tiles: &[TileType]) -> u32 {
    tiles.iter().map(|t| t.count).sum()
}

/// The goods tokens among `counters`, in [`Good::ALL`] order.
fn goods(counters: Counters) -> [u16; 3] {
    Good::ALL.map(|g| counters.get(g.counter()))
}

/// The markers of every copy of every tile, added up.
fn marks(tiles: &[TileType]) -> Counters {
    let mut sum = Counters::default();
    for t in tiles {
        for f in t.features() {
            for _ in 0..t.count {
                sum = sum.plus(f.counters);
            }
        }
    }
    sum
}

/// Copies that have a feature of `kind`.
fn with(tiles: &[TileType], kind: FeatureKind) -> u32 {
    tiles
        .iter()
        .filter(|t| t.has_feature(kind))
        .map(|t| t.count)
        .sum()
}

fn pennants(tiles: &[TileType]) -> u32 {
    tiles
        .iter()
        .map(|t| t.count * t.features().iter().map(|f| f.pennants as u32).sum::<u32>())
        .sum()
}

#[test]
fn inns_and_cathedrals_has_18_tiles_6_inns_2_cathedrals() {
    let ic = set("inns-cathedrals");
    assert_eq!(ic.name, "inns-cathedrals");
    assert_eq!(tiles(&ic.tiles), 18);
    assert_eq!(ic.tiles.len(), 17);
    let m = marks(&ic.tiles);
    assert_eq!((m.get(INN), m.get(CATHEDRAL), goods(m)), (6, 2, [0, 0, 0]));
    // TILES-IC-TB.md §1 summary: 3 pennants, 1 monastery, no garden in the 1st edition.
    assert_eq!(pennants(&ic.tiles), 3);
    assert_eq!(with(&ic.tiles, FeatureKind::Cloister), 1);
    assert_eq!(with(&ic.tiles, FeatureKind::Garden), 0);
    // Inns lie on roads and cathedrals in cities, only there.
    for t in &ic.tiles {
        for f in t.features() {
            assert!(
                f.counters.get(INN) == 0 || f.kind == FeatureKind::Road,
                "{}",
                t.id
            );
            assert!(
                f.counters.get(CATHEDRAL) == 0 || f.kind == FeatureKind::City,
                "{}",
                t.id
            );
        }
    }
}

#[test]
fn the_inn_of_the_junction_is_on_its_eastern_stub_only() {
    // TILES-IC-TB.md §1: "IC/RRR.i (only on the E stub of the T-junction)".
    let ic = set("inns-cathedrals");
    let t = ic.tiles.iter().find(|t| &*t.id == "IC/RRR.i").unwrap();
    for r in Rotation::ALL {
        let o = t.at(r);
        let with_inn: Vec<u8> = o
            .features
            .iter()
            .filter(|f| f.counters.get(INN) > 0)
            .map(|f| f.edges)
            .collect();
        // The eastern edge (bit 1) turned with the tile.
        assert_eq!(with_inn, vec![r.turn_edges(0b0010)], "{r:?}");
    }
}

#[test]
fn traders_and_builders_has_24_tiles_and_9_6_5_goods() {
    let tb = set("traders-builders");
    assert_eq!(tiles(&tb.tiles), 24);
    assert_eq!(tb.tiles.len(), 24);
    let m = marks(&tb.tiles);
    assert_eq!(m.get(Good::Wine.counter()), 9);
    assert_eq!(m.get(Good::Grain.counter()), 6);
    assert_eq!(m.get(Good::Cloth.counter()), 5);
    assert_eq!((m.get(INN), m.get(CATHEDRAL)), (0, 0));
    // 20 tiles show one good each, always in a city; no pennant; one monastery.
    let goods_tiles = tb
        .tiles
        .iter()
        .filter(|t| t.features().iter().any(|f| goods(f.counters) != [0; 3]))
        .count();
    assert_eq!(goods_tiles, 20);
    for t in &tb.tiles {
        for f in t.features() {
            assert!(
                goods(f.counters) == [0; 3] || f.kind == FeatureKind::City,
                "{}",
                t.id
            );
        }
    }
    assert_eq!(pennants(&tb.tiles), 0);
    assert_eq!(with(&tb.tiles, FeatureKind::Cloister), 1);
}

#[test]
fn the_odd_field_splits_differ_from_their_twins() {
    // TILES-IC-TB.md §2: the "!" tiles have one field more than their twin.
    let tb = set("traders-builders");
    let fields = |id: &str| {
        let t = tb.tiles.iter().find(|t| &*t.id == id).unwrap();
        t.features()
            .iter()
            .filter(|f| f.kind == FeatureKind::Field)
            .count()
    };
    assert_eq!((fields("TB/CcRR!.c"), fields("TB/CcRR.w")), (4, 3));
    assert_eq!((fields("TB/CcR!.w"), fields("TB/CcR.c")), (3, 2));
    assert_eq!((fields("TB/RCc!.g"), fields("TB/RCc.g")), (3, 2));
}

#[test]
fn base_gardens_replace_one_copy_each_of_eight_types() {
    let g = set("base-garden");
    assert_eq!(tiles(&g.tiles), 8);
    assert_eq!(with(&g.tiles, FeatureKind::Garden), 8);
    // Each garden tile is its plain twin (TILES.md §1: E H I M N R U V) plus the garden.
    let base = set("base");
    let twins = [
        ("BA/CG", "E"),
        ("BA/CFCG", "H"),
        ("BA/CCG", "I"),
        ("BA/Cc+G", "M"),
        ("BA/CcG", "N"),
        ("BA/CccG", "R"),
        ("BA/RFrG", "U"),
        ("BA/RrG", "V"),
    ];
    for (garden, letter) in twins {
        let t = g.tiles.iter().find(|t| &*t.id == garden).unwrap();
        let plain = base
            .tiles
            .iter()
            .find(|t| t.alias.as_deref() == Some(letter))
            .unwrap();
        assert_eq!(t.edges, plain.edges, "{garden}");
        let without: Vec<_> = t
            .features()
            .iter()
            .filter(|f| f.kind != FeatureKind::Garden)
            .cloned()
            .collect();
        assert_eq!(without, plain.features(), "{garden}");
    }
}

#[test]
fn the_second_editions_keep_their_totals() {
    // The fixture composes the 2nd editions as tiles/README.md says; each set keeps its size.
    let rules = Ruleset::load("tests/fixtures/ic-tb-2nd-edition.toml").expect("loads");
    let of = |prefix: &str| -> Vec<TileType> {
        rules
            .tiles
            .iter()
            .filter(|t| t.id.starts_with(prefix))
            .cloned()
            .collect()
    };
    let (base, ic, tb) = (of("BA/"), of("IC/"), of("TB/"));
    assert_eq!((tiles(&base), tiles(&ic), tiles(&tb)), (72, 18, 24));
    assert_eq!(
        (
            with(&base, FeatureKind::Garden),
            with(&ic, FeatureKind::Garden),
            with(&tb, FeatureKind::Garden)
        ),
        (8, 2, 2)
    );
    let (m_ic, m_tb) = (marks(&ic), marks(&tb));
    assert_eq!((m_ic.get(INN), m_ic.get(CATHEDRAL)), (6, 2));
    assert_eq!(goods(m_tb), [9, 6, 5]);
    // TILES.md §1 `basic:2` counts of the plain copies.
    for (letter, n) in [
        ("E", 4),
        ("H", 2),
        ("I", 1),
        ("M", 1),
        ("N", 2),
        ("R", 2),
        ("U", 7),
        ("V", 8),
    ] {
        let id = rules.tile_id(letter).unwrap();
        assert_eq!(rules.tile(id).count, n, "{letter}");
    }
}

/// TILES-MORE.md §2 row AM/RG, §3 row HS/RR.hG, §4 row BB/CFR!G: each later box's new edition
/// swaps one tile for a copy with an Abbot garden; the copy is its twin (edges, mark, tagged
/// parts, features) plus the garden, one copy either way, so a ruleset swaps them with `counts`
/// (tiles/README.md, "2nd editions").
#[test]
fn the_later_boxes_garden_tiles_are_their_twins_plus_a_garden() {
    let twins = [
        ("abbey-mayor", "AM/R", "AM/RG"),
        ("hills-sheep", "HS/RR.h", "HS/RR.hG"),
        ("bridges-castles", "BB/CFR!", "BB/CFR!G"),
    ];
    for (plain_set, plain_id, garden_id) in twins {
        let garden_set = set(&format!("{plain_set}-garden"));
        let [garden] = garden_set.tiles.as_slice() else {
            panic!("{plain_set}-garden: one tile type");
        };
        let plains = set(plain_set);
        let plain = plains.tiles.iter().find(|t| &*t.id == plain_id).unwrap();
        assert_eq!((&*garden.id, garden.count, plain.count), (garden_id, 1, 1));
        assert_eq!(garden.edges, plain.edges, "{garden_id}");
        assert_eq!(garden.symbol, plain.symbol, "{garden_id}");
        assert_eq!(garden.part_tags, plain.part_tags, "{garden_id}");
        assert_eq!(with(&garden_set.tiles, FeatureKind::Garden), 1);
        assert!(!plain.has_feature(FeatureKind::Garden), "{plain_id}");
        let without: Vec<_> = (garden.features().iter())
            .filter(|f| f.kind != FeatureKind::Garden)
            .cloned()
            .collect();
        assert_eq!(without, plain.features(), "{garden_id}");
    }
}

/// TILES-MORE.md §2–§4: `hig-big-box`, every box in its new edition, plays each garden tile in
/// its twin's place (one copy, the twin none), with the 18 Hills & Sheep land tiles and 12 of
/// each other later box: 204 tiles in all.
#[test]
fn the_big_box_plays_every_new_editions_garden_tile() {
    let rules = Ruleset::load("hig-big-box").expect("hig-big-box loads");
    let count = |id: &str| -> u32 {
        (rules.tiles.iter())
            .filter(|t| &*t.id == id)
            .map(|t| t.count)
            .sum()
    };
    let land = |prefix: &str| -> u32 {
        (rules.tiles.iter())
            .filter(|t| t.id.starts_with(prefix) && t.in_bag)
            .map(|t| t.count)
            .sum()
    };
    for (plain, garden) in [
        ("AM/R", "AM/RG"),
        ("HS/RR.h", "HS/RR.hG"),
        ("BB/CFR!", "BB/CFR!G"),
    ] {
        assert_eq!((count(plain), count(garden)), (0, 1), "{garden}");
    }
    assert_eq!((land("HS/"), land("AM/"), land("BB/")), (18, 12, 12));
    let bag: u32 = (rules.tiles.iter())
        .filter(|t| t.in_bag)
        .map(|t| t.count)
        .sum();
    assert_eq!(bag, 204, "the land tiles, the start tile among them");
}
