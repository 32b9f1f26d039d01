//! Farm scoring at the end of the game (RULES.md §1.9), in its three historical variants.

use super::rules::FarmScoring;
use crate::mechanic::base::rules::BaseRules;

use crate::engine::event::{Event, ReturnReason};
use crate::engine::game::{Game, Strength};
use crate::engine::mechanic::Hooks;
use crate::model::feature::SegId;
use crate::model::geometry::Pos;
use crate::model::tile::FeatureKind;

/// A farm with farmers: its root, the farmers' strength by seat, and the completed cities it
/// borders (as feature roots, in discovery order, or a mechanic's key with the position of a
/// tile of it, for a city that is not a feature of the board: the City of Carcassonne).
struct Farm {
    root: SegId,
    strength: Strength,
    cities: Vec<SegId>,
    keyed: Vec<(SegId, Pos)>,
}

impl Farm {
    /// Where the city `key` lies.
    fn city_pos(&self, game: &Game, key: SegId) -> Pos {
        self.keyed
            .iter()
            .find(|(k, _)| *k == key)
            .map_or_else(|| game.seg_pos(key), |(_, pos)| *pos)
    }
}

/// Scores every farm that holds a farmer, under the ruleset's variant (RULES.md §1.9).
pub(crate) fn score(game: &mut Game, events: &mut Vec<Event>) {
    let farms = farms(game);
    pay_farmers(game, &farms, events);
    for farm in &farms {
        super::scored(game, farm.root, false, events);
    }
}

fn pay_farmers(game: &mut Game, farms: &[Farm], events: &mut Vec<Event>) {
    let rule = BaseRules::of(&game.rules).farm_scoring;
    match rule {
        FarmScoring::FarmCentric3 => {
            for farm in farms {
                let cities = farm.cities.len() as u32;
                for player in winners(&farm.strength) {
                    let rule = "§1.9 farm_centric_3";
                    pay_farm(game, farm.root, player, (cities, 3, true), rule, events);
                }
            }
        }
        FarmScoring::FarmCentric3Once => {
            let mut collected: Vec<Vec<SegId>> = vec![Vec::new(); game.scores.len()];
            for farm in farms {
                for player in winners(&farm.strength) {
                    let new: Vec<SegId> = farm
                        .cities
                        .iter()
                        .copied()
                        .filter(|c| !collected[player].contains(c))
                        .collect();
                    collected[player].extend(&new);
                    let rule = "§1.9 farm_centric_3_once";
                    let paid = (new.len() as u32, 3, true);
                    pay_farm(game, farm.root, player, paid, rule, events);
                }
            }
        }
        FarmScoring::CityCentric4 => {
            let mut cities: Vec<SegId> = Vec::new();
            for farm in farms {
                for c in &farm.cities {
                    if !cities.contains(c) {
                        cities.push(*c);
                    }
                }
            }
            for city in cities {
                let mut strength = Strength::new(game.scores.len());
                for farm in farms.iter().filter(|f| f.cities.contains(&city)) {
                    for (total, s) in strength.iter_mut().zip(farm.strength.iter()) {
                        *total += s;
                    }
                }
                game.add_strength(city, FeatureKind::Field, &mut strength);
                let at = farms
                    .iter()
                    .find(|f| f.cities.contains(&city))
                    .map_or_else(|| game.seg_pos(city), |f| f.city_pos(game, city));
                game.pay(
                    &strength,
                    4,
                    FeatureKind::Field,
                    "§1.9 city_centric_4",
                    at,
                    events,
                );
            }
        }
    }
}

/// The seats with the most farmers in a farm (none when it holds none), in seat order (B-M2).
fn winners(strength: &[u32]) -> impl Iterator<Item = usize> + '_ {
    let best = strength.iter().copied().max().unwrap_or(0);
    strength
        .iter()
        .enumerate()
        .filter(move |(_, s)| best > 0 && **s == best)
        .map(|(player, _)| player)
}

/// Pays `player` `per_city` (3 at the end, farm-centric) for each of the `cities` completed
/// cities the farm supplies, as the mechanics change it when `bonus` holds
/// ([`crate::engine::mechanic::Mechanic::farm_points`]).
fn pay_farm(
    game: &mut Game,
    farm: SegId,
    player: usize,
    (cities, per_city, bonus): (u32, u32, bool),
    rule: &'static str,
    events: &mut Vec<Event>,
) {
    let mut points = per_city * cities;
    let mechanics = std::sync::Arc::clone(&game.mechanics);
    for m in mechanics.on(Hooks::FARM).filter(|_| bonus) {
        m.farm_points(game, farm, player, cities, &mut points);
    }
    if points > 0 {
        let at = game.seg_pos(farm);
        game.award(player, points, FeatureKind::Field, rule, at, events);
    }
}

/// Scores the farmers of the farm of `seg` during play, for a rule that scores a farm before the
/// end (A&M's barn, AM-16, AM-18): the players with the most farmers in it score `per_city` for
/// each completed city it borders (as at the end, farm-centric: the mechanics' cities count,
/// and with `bonus` the mechanics change the points, [`pay_farm`]); then every figure in the
/// farm goes home.
pub(crate) fn score_farmers_now(
    game: &mut Game,
    seg: SegId,
    (per_city, bonus): (u32, bool),
    rule: &'static str,
    events: &mut Vec<Event>,
) {
    let root = game.features.root(seg);
    if game.features.totals(root).followers == 0 {
        return;
    }
    let strength = game.strength(root);
    let cities = cities_bordered(game, root);
    for player in winners(&strength) {
        pay_farm(game, root, player, (cities, per_city, bonus), rule, events);
    }
    game.return_figures(|f, g| f.same(g.seg, root), ReturnReason::Scored, events);
}

/// How many completed cities the farm of `seg` borders, as its scoring counts them (with the
/// cities the mechanics add, [`bordering_cities`]).
pub(crate) fn cities_bordered(game: &mut Game, seg: SegId) -> u32 {
    let (cities, _) = bordering_cities(game, seg);
    u32::try_from(cities.len()).unwrap_or(u32::MAX)
}

/// The farms holding farmers, in the order their first farmer was deployed.
fn farms(game: &mut Game) -> Vec<Farm> {
    let mut farms: Vec<Farm> = Vec::new();
    for i in 0..game.figures.len() {
        let seg = game.figures[i].seg;
        if game.features.segment(seg).kind != FeatureKind::Field {
            continue;
        }
        let root = game.features.root(seg);
        if farms.iter().any(|f| f.root == root) {
            continue;
        }
        let strength = game.strength(root);
        let (cities, keyed) = bordering_cities(game, seg);
        farms.push(Farm {
            root,
            strength,
            cities,
            keyed,
        });
    }
    farms
}

/// The farms scored at the end, as the Count's market rounds name them (RULES.md §5.2): the
/// farms holding farmers, in scoring order; under city-centric scoring the completed cities
/// those farms border (a mechanic's key standing for the City of Carcassonne).
pub(crate) fn market_keys(game: &mut Game) -> Vec<SegId> {
    let farms = farms(game);
    if BaseRules::of(&game.rules).farm_scoring != FarmScoring::CityCentric4 {
        return farms.iter().map(|f| f.root).collect();
    }
    let mut cities: Vec<SegId> = Vec::new();
    for c in farms.iter().flat_map(|f| &f.cities) {
        if !cities.contains(c) {
            cities.push(*c);
        }
    }
    cities
}

/// Roots of the completed cities that the farm of `seg` borders, with the keys (and a tile's
/// position) of the cities a mechanic adds ([`crate::engine::mechanic::Mechanic::farm_cities`]:
/// the City of Carcassonne under `count.city_tiles_border_farms`).
fn bordering_cities(game: &mut Game, seg: SegId) -> (Vec<SegId>, Vec<(SegId, Pos)>) {
    // The game's working memory, given back below.
    let mut members = std::mem::take(&mut game.scratch);
    members.clear();
    game.features.members(seg, &mut members);
    let mut cities = Vec::new();
    let mut keyed = Vec::new();
    let mechanics = std::sync::Arc::clone(&game.mechanics);
    for &m in &members {
        let s = *game.features.segment(m);
        for (key, pos) in mechanics
            .on(Hooks::FARM)
            .filter_map(|mech| mech.farm_cities(game, s.placed))
        {
            if !cities.contains(&key) {
                cities.push(key);
                keyed.push((key, pos));
            }
        }
        let base = game.board.placed(s.placed).seg_base;
        let mut borders =
            game.board.oriented(&game.rules.tiles, s.placed).features[s.feature as usize].borders;
        while borders != 0 {
            let city = base + borders.trailing_zeros();
            borders &= borders - 1;
            let root = game.features.root(city);
            if game.features.closed(city) && !cities.contains(&root) {
                cities.push(root);
            }
        }
    }
    game.scratch = members;
    (cities, keyed)
}
