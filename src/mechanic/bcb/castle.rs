//! Castles (RULES-MORE.md BCB-7..BCB-15). When the tile laid completes a small city of exactly
//! two one-edge city caps (two tiles) holding the player's follower and nothing else, the player
//! may build a castle from it instead of scoring it (BCB-7, BCB-8): the city is taken out of the
//! turn's scoring (`Game::withhold_from_scoring`), one of the player's castle tokens goes on it,
//! and the follower leaves the city to stand on the side the two tiles share
//! (`engine::custody`'s [`Place::Side`]). It scores nothing there and stands on no tile: no
//! dragon eats it (X-3, BCB-15) and no princess removes it (Q-X1).
//!
//! The castle scores the full value of the first feature completed in a later turn with a part on
//! one of the six tiles of its vicinity (BCB-9, BCB-10): the two castle tiles and the tiles on
//! either side along its long axis. The values are those the base game paid (after every
//! mechanic's `feature_points`, so inns and cathedrals count). Several at once: `bcb.castle.multi`
//! (BCB-11). A castle's score counts as a completed feature for the occupied castles around it
//! (BCB-12). Its follower then goes home; the token stays. At the end an occupied castle scores
//! nothing (BCB-13). Its city stays a completed city of the board, so the farms it bounds still
//! border it: farmers score `bcb.castle.farm_points` for it instead of 3 (BCB-14).

use super::rules::{CastleMulti, CastleRules};
use super::vocabulary::{self, BcbAction, BcbDecision, BcbEvent, into_castle};
use crate::data::ruleset::Ruleset;
use crate::engine::action::{Action, Decision};
use crate::engine::event::{Event, ReturnReason};
use crate::engine::game::{Game, RuleError, Size};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Then};
use crate::engine::refusal::RuleId;
use crate::model::feature::SegId;
use crate::model::figure::{FigureKind, Kinds, Place};
use crate::model::geometry::{Edge, Pos, Spot};
use crate::model::tile::FeatureKind;

/// The tag of a city part that can never be half of a castle (TILES-MORE.md "Castle bases").
pub const NO_CASTLE_BASE: &str = "no_castle_base";

/// Castle tokens per player (BCB-C2): 3 with 2 to 4 players, 2 with 5 or 6.
pub fn tokens_per_player(players: usize) -> u8 {
    if players <= 4 { 3 } else { 2 }
}

/// Its decision: build a castle from a completed small city, or score it.
const BUILD: u8 = 0;
/// Its decision: which feature a castle scores.
const CHOOSE: u8 = 1;

/// A castle on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastleAt {
    /// The side it stands on: between its named tile and the neighbour north or east of it.
    pub side: (Pos, Edge),
    /// Who built it.
    pub owner: usize,
    /// The follower in it (while occupied).
    pub figure: FigureKind,
    /// Whether its follower is still in it (it has not scored yet).
    pub occupied: bool,
    /// The turn it was built in (features completed then do not count, Q-BCB1).
    pub built: u32,
    /// A segment of the city it was built from.
    pub city: SegId,
}

impl CastleAt {
    /// Its named tile (the west or south one).
    pub fn pos(&self) -> Pos {
        self.side.0
    }

    /// Its two tiles.
    pub fn tiles(&self) -> [Pos; 2] {
        [self.side.0, self.side.0.step(self.side.1)]
    }

    /// The place its follower stands at.
    pub fn place(&self) -> Place {
        Place::Side(self.side.0, self.side.1)
    }

    /// Its vicinity (BCB-9): its two tiles and the tiles on either side of them along its long
    /// axis, which runs along the side the two tiles share.
    pub fn vicinity(&self) -> [Pos; 6] {
        let [a, b] = self.tiles();
        let (l, r) = match self.side.1 {
            Edge::N | Edge::S => (Edge::W, Edge::E),
            Edge::E | Edge::W => (Edge::N, Edge::S),
        };
        [a, b, a.step(l), a.step(r), b.step(l), b.step(r)]
    }
}

/// What a castle may score this turn: a feature completed in its vicinity (a segment of it and
/// its value) or another castle's score (its index and the points).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Candidate {
    Feature(SegId, u32),
    Castle(usize, u32),
}

impl Candidate {
    fn points(self) -> u32 {
        match self {
            Candidate::Feature(_, p) | Candidate::Castle(_, p) => p,
        }
    }
}

/// The castles' state.
#[derive(Clone, Debug, Default)]
pub struct Castles {
    /// Every castle, in the order built.
    pub castles: Vec<CastleAt>,
    /// Each player's castle tokens left (BCB-C2).
    pub tokens: Vec<u8>,
    /// The features scored as completed this turn while a castle stood occupied: the turn, a
    /// segment and the points they paid.
    completed: Vec<(u32, SegId, u32)>,
    /// The castles that scored this turn: the turn, the castle's index and its points.
    scored: Vec<(u32, usize, u32)>,
    /// The small cities offered this turn and not built: the turn and a segment.
    declined: Vec<(u32, SegId)>,
    /// The castle deciding which feature it scores: the turn and its index.
    choosing: Option<(u32, usize)>,
}

crate::own_state!(Castles);

/// The castles of `g`.
pub fn castles(g: &Game) -> &[CastleAt] {
    g.slots.get::<Castles>().map_or(&[], |c| &c.castles[..])
}

/// The castle tokens `seat` has left.
pub fn tokens_left(g: &Game, seat: usize) -> u8 {
    (g.slots.get::<Castles>())
        .and_then(|c| c.tokens.get(seat).copied())
        .unwrap_or(0)
}

/// The castles mechanic.
#[derive(Debug)]
pub struct CastleMechanic {
    /// Its index in the game's list.
    id: u8,
    /// `[bcb.castle]`.
    rules: CastleRules,
    /// The figure kinds that are followers (their rows have a follower class).
    followers: Kinds,
}

impl CastleMechanic {
    /// The castles under `rules`' figure table and `[bcb.castle]`; `id` is its index.
    pub fn new(rules: &Ruleset, id: u8, castle: CastleRules) -> CastleMechanic {
        CastleMechanic {
            id,
            rules: castle,
            followers: rules.figures.kinds(|r| r.follower.is_some()),
        }
    }

    fn asked(&self, kind: u8) -> Asked {
        Asked { by: self.id, kind }
    }

    /// The next small city the tile laid this turn completed that the active player may build
    /// a castle from (BCB-7): its segment on the tile and the side between its two caps.
    fn next_city(&self, g: &Game) -> Option<(SegId, (Pos, Edge))> {
        let placed = g.now.placed?;
        if tokens_left(g, g.active) == 0 || g.completes_nothing(placed) {
            return None;
        }
        let declined = g
            .slots
            .get::<Castles>()
            .map_or(&[][..], |c| &c.declined[..]);
        (g.completed_by(placed).iter().copied())
            .filter(|&seg| g.features.segment(seg).kind == FeatureKind::City)
            .filter(|&seg| {
                !(declined.iter()).any(|&(t, d)| t == g.turn() && g.features.same(d, seg))
            })
            .filter(|&seg| self.held_by_active(g, seg))
            .find_map(|seg| castle_side(g, seg).map(|side| (seg, side)))
    }

    /// Whether the only figure in the feature of `seg` is a follower of the active player.
    fn held_by_active(&self, g: &Game, seg: SegId) -> bool {
        g.features.totals(seg).followers == 1
            && (g.figures.iter()).any(|f| {
                f.owner == g.active
                    && self.followers.contains(f.kind)
                    && g.features.same(f.seg, seg)
            })
    }

    /// Builds a castle from the city of `seg` (checked): its follower moves in, a token goes on
    /// it, the city is taken out of this turn's scoring (BCB-7, BCB-8).
    fn build(g: &mut Game, seg: SegId, side: (Pos, Edge), events: &mut Vec<Event>) {
        let Some(&figure) = g.figures.iter().find(|f| g.features.same(f.seg, seg)) else {
            return;
        };
        g.withhold_from_scoring(seg);
        g.return_figures(|fs, f| fs.same(f.seg, seg), into_castle(), events);
        let Place::Side(pos, edge) = Place::side(side.0, side.1) else {
            return;
        };
        if g.put_at(figure.owner, figure.kind, Place::Side(pos, edge))
            .is_err()
        {
            return;
        }
        let turn = g.turn();
        let state = g.slots.entry::<Castles>();
        if let Some(t) = state.tokens.get_mut(figure.owner) {
            *t = t.saturating_sub(1);
        }
        state.castles.push(CastleAt {
            side: (pos, edge),
            owner: figure.owner,
            figure: figure.kind,
            occupied: true,
            built: turn,
            city: seg,
        });
        let other = pos.step(edge);
        events.push(
            BcbEvent::Built {
                player: figure.owner,
                figure: figure.kind,
                x: pos.x,
                y: pos.y,
                x2: other.x,
                y2: other.y,
            }
            .into(),
        );
    }

    /// What the castle `i` may score now (BCB-10, BCB-12): the features completed this turn with
    /// a part in its vicinity and the castles that scored this turn beside it; none for a castle
    /// built this turn, empty or already scored.
    fn candidates(g: &Game, i: usize, out: &mut Vec<Candidate>) {
        let Some(state) = g.slots.get::<Castles>() else {
            return;
        };
        let Some(c) = state.castles.get(i) else {
            return;
        };
        let turn = g.turn();
        if !c.occupied || c.built == turn {
            return;
        }
        let near = c.vicinity();
        for &(t, seg, points) in &state.completed {
            if t == turn && near.iter().any(|&p| has_part_on(g, seg, p)) {
                out.push(Candidate::Feature(seg, points));
            }
        }
        for &(t, j, points) in &state.scored {
            let touches = (state.castles.get(j))
                .is_some_and(|o| j != i && o.tiles().iter().any(|p| near.contains(p)));
            if t == turn && touches {
                out.push(Candidate::Castle(j, points));
            }
        }
    }

    /// Scores every castle that may score now, one by one, the chains included (BCB-10..BCB-12);
    /// asks the owner when `bcb.castle.multi` lets him choose among values that differ.
    fn resolve(&self, g: &mut Game, events: &mut Vec<Event>) -> Option<Asked> {
        let mut found = Vec::new();
        loop {
            let n = g.slots.get::<Castles>().map_or(0, |c| c.castles.len());
            let mut any = false;
            for i in 0..n {
                found.clear();
                Self::candidates(g, i, &mut found);
                let Some(best) = found.iter().copied().max_by_key(|c| c.points()) else {
                    continue;
                };
                let choice = self.rules.multi == CastleMulti::OwnerChooses
                    && found.iter().any(|c| c.points() != best.points());
                if choice {
                    g.slots.entry::<Castles>().choosing = Some((g.turn(), i));
                    return Some(self.asked(CHOOSE));
                }
                score_castle(g, i, best.points(), events);
                any = true;
            }
            if !any {
                return None;
            }
        }
    }

    /// The castle deciding now which feature it scores, if any.
    fn choosing(g: &Game) -> Option<usize> {
        let (turn, i) = g.slots.get::<Castles>()?.choosing?;
        (turn == g.turn()).then_some(i)
    }

    /// The choices of the castle `i`.
    fn choices(g: &Game, i: usize, out: &mut Vec<Action>) {
        let mut found = Vec::new();
        Self::candidates(g, i, &mut found);
        let castle = castles(g)[i].pos();
        for c in found {
            let (from, spot) = match c {
                Candidate::Feature(seg, _) => {
                    let (pos, spot) = g.seg_spot(seg);
                    (pos, Some(spot))
                }
                Candidate::Castle(j, _) => (castles(g)[j].pos(), None),
            };
            let action = BcbAction::Scores { castle, from, spot }.into();
            if !out.contains(&action) {
                out.push(action);
            }
        }
    }

    /// The points of the choice `action` for the castle `i`.
    fn chosen_points(g: &Game, i: usize, action: &Action) -> Option<u32> {
        let Some(BcbAction::Scores { from, spot, .. }) = BcbAction::of(action) else {
            return None;
        };
        let mut found = Vec::new();
        Self::candidates(g, i, &mut found);
        found.into_iter().find_map(|c| {
            let hit = match (c, spot) {
                (Candidate::Feature(seg, _), Some(spot)) => g.seg_spot(seg) == (from, spot),
                (Candidate::Castle(j, _), None) => castles(g)[j].pos() == from,
                _ => false,
            };
            hit.then_some(c.points())
        })
    }
}

/// The side between the two caps of the small city of `seg` (a part on the tile just laid), if
/// it may become a castle (BCB-7; TILES-MORE.md "Castle bases"): both its parts touch one edge
/// each, facing each other, and neither is tagged [`NO_CASTLE_BASE`]. Two such parts are the
/// whole city.
fn castle_side(g: &Game, seg: SegId) -> Option<(Pos, Edge)> {
    let (pos, spot) = g.seg_spot(seg);
    let Spot::Edge(edge) = spot else {
        return None;
    };
    let other = g.seg_at(pos.step(edge), Spot::Edge(edge.opposite()))?;
    (castle_base(g, seg) && castle_base(g, other)).then_some((pos, edge))
}

/// Whether the city part of `seg` may be half of a castle: it touches exactly one edge and is
/// not tagged [`NO_CASTLE_BASE`].
fn castle_base(g: &Game, seg: SegId) -> bool {
    let s = *g.features.segment(seg);
    let tile = g.board.placed(s.placed).tile;
    let part = usize::from(s.feature);
    let one_edge = (g.board.oriented(&g.rules.tiles, s.placed).features)
        .get(part)
        .is_some_and(|f| f.kind == FeatureKind::City && f.edges.count_ones() == 1);
    one_edge && !g.rules.tile(tile).part_has_tag(part, NO_CASTLE_BASE)
}

/// Whether the feature of `seg` has a part on the tile at `pos`.
fn has_part_on(g: &Game, seg: SegId, pos: Pos) -> bool {
    (g.board.at(pos)).is_some_and(|placed| g.tile_segs(placed).any(|s| g.features.same(s, seg)))
}

/// The castle `i` scores `points` (BCB-10): its owner is paid, its follower goes home, and its
/// score counts for the castles around it (BCB-12).
fn score_castle(g: &mut Game, i: usize, points: u32, events: &mut Vec<Event>) {
    let Some(&c) = castles(g).get(i) else {
        return;
    };
    let turn = g.turn();
    let state = g.slots.entry::<Castles>();
    state.castles[i].occupied = false;
    state.scored.retain(|s| s.0 == turn);
    state.scored.push((turn, i, points));
    state.choosing = None;
    if points > 0 {
        g.award(
            c.owner,
            points,
            FeatureKind::City,
            "BCB-10 castle",
            c.pos(),
            events,
        );
    }
    g.lift_from(c.place(), ReturnReason::Scored);
    events.push(
        BcbEvent::Scored {
            player: c.owner,
            figure: c.figure,
            points,
            x: c.pos().x,
            y: c.pos().y,
        }
        .into(),
    );
}

/// How many castles border the farm of `farm` (a castle's city is bordered by a field part on
/// one of its two tiles).
fn castles_bordering(g: &Game, farm: SegId) -> u32 {
    let count = castles(g)
        .iter()
        .filter(|c| {
            c.tiles().iter().any(|&pos| {
                let Some(placed) = g.board.at(pos) else {
                    return false;
                };
                let base = g.board.placed(placed).seg_base;
                let features = &g.board.oriented(&g.rules.tiles, placed).features;
                (features.iter().enumerate()).any(|(k, f)| {
                    let field = base + k as SegId;
                    f.kind == FeatureKind::Field
                        && g.features.same(field, farm)
                        && (0..16)
                            .any(|b| f.borders >> b & 1 != 0 && g.features.same(base + b, c.city))
                })
            })
        })
        .count();
    u32::try_from(count).unwrap_or(u32::MAX)
}

impl Mechanic for CastleMechanic {
    fn name(&self) -> &'static str {
        "castle"
    }

    fn hooks(&self) -> Hooks {
        Hooks::SETUP | Hooks::STAGE | Hooks::ACTIONS | Hooks::POINTS | Hooks::FARM | Hooks::FINAL
    }

    fn phases(&self) -> &[Phase] {
        &[Phase::AfterDeploy, Phase::AfterScore]
    }

    fn setup(&self, g: &mut Game, _events: &mut Vec<Event>) {
        let n = g.scores.len();
        g.slots.entry::<Castles>().tokens = vec![tokens_per_player(n); n];
    }

    fn stage(&self, g: &mut Game, phase: Phase, events: &mut Vec<Event>) -> Option<Asked> {
        match phase {
            Phase::AfterDeploy => self.next_city(g).map(|_| self.asked(BUILD)),
            Phase::AfterScore => self.resolve(g, events),
            _ => None,
        }
    }

    fn decision(&self, g: &Game, asked: Asked) -> Option<Decision> {
        if asked.kind == BUILD {
            return Some(Decision {
                player: g.active,
                kind: BcbDecision::Castle.into(),
            });
        }
        let owner = castles(g).get(Self::choosing(g)?)?.owner;
        Some(Decision {
            player: owner,
            kind: BcbDecision::Scores.into(),
        })
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        match asked.kind {
            BUILD => {
                if let Some((seg, _)) = self.next_city(g) {
                    let (pos, spot) = g.seg_spot(seg);
                    out.push(BcbAction::Castle { pos, spot }.into());
                }
            }
            _ => {
                if let Some(i) = Self::choosing(g) {
                    Self::choices(g, i, out);
                }
            }
        }
    }

    fn may_pass(&self, _g: &Game, asked: Asked) -> bool {
        asked.kind == BUILD
    }

    fn hint(&self, asked: Asked) -> &'static str {
        match asked.kind {
            BUILD => "a castle (`castle`) or pass to score the city",
            _ => "the feature the castle scores (`castle_scores`)",
        }
    }

    fn check(&self, g: &Game, asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        let rule = if asked.kind == BUILD {
            "BCB-7"
        } else {
            "BCB-11"
        };
        Some(g.check_listed(action, RuleId(rule)))
    }

    fn apply(
        &self,
        g: &mut Game,
        asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        match asked.kind {
            BUILD => {
                let (seg, side) = self.next_city(g)?;
                if *action == Action::Pass {
                    let turn = g.turn();
                    g.slots.entry::<Castles>().declined.push((turn, seg));
                } else {
                    Self::build(g, seg, side, events);
                }
            }
            _ => {
                let i = Self::choosing(g)?;
                let points = Self::chosen_points(g, i, action)?;
                score_castle(g, i, points, events);
            }
        }
        Some(Then::Again)
    }

    /// Notes what a completed feature pays while a castle stands occupied (BCB-10): the castles
    /// score it after the turn's scoring. The points are left as they are.
    fn feature_points(
        &self,
        g: &mut Game,
        seg: SegId,
        _kind: FeatureKind,
        completed: bool,
        _size: Size,
        points: &mut u32,
    ) {
        if !completed || !castles(g).iter().any(|c| c.occupied) {
            return;
        }
        let turn = g.turn();
        let state = g.slots.entry::<Castles>();
        state.completed.retain(|c| c.0 == turn);
        state.completed.push((turn, seg, *points));
    }

    /// BCB-14: each castle the farm borders pays `bcb.castle.farm_points` instead of a city's 3.
    fn farm_points(
        &self,
        g: &mut Game,
        farm: SegId,
        _player: usize,
        _cities: u32,
        points: &mut u32,
    ) {
        if castles(g).is_empty() {
            return;
        }
        let n = castles_bordering(g, farm);
        *points = (*points + n * self.rules.farm_points).saturating_sub(n * 3);
    }

    /// BCB-13: a follower still in a castle goes home with no points.
    fn game_end(&self, g: &mut Game, events: &mut Vec<Event>) {
        let occupied: Vec<CastleAt> = castles(g).iter().copied().filter(|c| c.occupied).collect();
        for c in occupied {
            if g.lift_from(c.place(), vocabulary::castle_left()).is_some() {
                events.push(
                    BcbEvent::Left {
                        player: c.owner,
                        figure: c.figure,
                        x: c.pos().x,
                        y: c.pos().y,
                    }
                    .into(),
                );
            }
        }
        for c in &mut g.slots.entry::<Castles>().castles {
            c.occupied = false;
        }
    }
}

impl Shortcuts for CastleMechanic {}
