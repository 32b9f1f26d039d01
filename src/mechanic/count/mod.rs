//! The Count of Carcassonne (RULES.md §5, CO-S1–CO-7; seed 001 §"EL Conde de Carcassonne").
//!
//! The City of Carcassonne is the start block of 12 tiles (`tiles/count.toml`). Its four
//! quarters and the Count are game state, not tile features: a player whose tile made only
//! opponents score may, at the end of his turn, put one follower from supply into a quarter and
//! then move the Count (CO-1, CO-2). Before a feature is scored, the players, from the left of
//! the tile's placer round to the placer, may move followers out of the matching quarter into
//! it — castle → completed city, blacksmiths → completed road, cathedral → cloister or garden
//! (abbots only for a garden: a round offers the kinds that may stand on its feature), market →
//! farm at the end only — unless the Count stands in that quarter (CO-3 to CO-5). Moved
//! followers count like followers on the feature, stand on no tile (no fairy bonus, nothing to
//! eat) and go back to supply after the scoring. Nothing else moves a follower into or out of
//! the City (CO-6).
//!
//! Followers keep their kind in the City (seed 001 "Casos especiales", I&C): a big follower
//! goes into a quarter as itself and weighs 2 when it comes out (CT-6). A figure may enter a
//! quarter if its row is a follower that may stand on the features the quarter serves (so the
//! abbot enters the cathedral only; builders and pigs, no followers, never enter). In a round a
//! player moves one kind per action and is asked again while he holds a kind he has not moved.
//!
//! Tiles: a tile tagged `count` belongs to the block; one tagged `count_city` is the walled
//! city itself (CO/6, CO/7): no figure is deployed there and no portal leads there (MP7); the
//! dragon keeps off the walled city, or off the whole block (`count.dragon_access`).
//!
//! Engine decisions where the rules are silent (RULES.md §5.2, §7 A19), each documented in
//! `rulesets/README.md`: at the end of the game the rounds come first, in scoring order, and
//! the scoring follows (the outcome is the same as rounds between scorings, because moved
//! followers go back to supply, never into a quarter); the placer for that order is the player
//! who laid the last tile; the features "being scored" at the end are the ones that hold a
//! follower (as final scoring only scores those); when one tile completes several features the
//! active player chooses the order only where it matters (two of them draw on the same quarter
//! that holds followers and is not the Count's).

pub mod rules;
pub mod show;
pub mod vocabulary;

use self::rules::{FeatureOrder, FinalIncomplete, Quarter};
use self::vocabulary::{CountAction, CountDecision, CountEvent};
use crate::data::ruleset::Ruleset;
use crate::data::section::{FamilyRules, Reader, Switch};
use crate::engine::family::{Descriptor, Lineup};
use crate::mechanic::Family;
use crate::mechanic::count::rules::CountRules;
use crate::mechanic::pd::rules::CountCity;

use crate::engine::action::{Action, Decision, DecisionKind};
use crate::engine::event::{Event, ReturnReason};
use crate::engine::game::{Game, RuleError};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Then};
use crate::engine::refusal::{Refusal, RuleId};
use crate::mechanic::base;
use crate::mechanic::pd::fairy;
use crate::model::board::PlacedId;
use crate::model::feature::SegId;
use crate::model::figure::{FigureKind, FigureTable, MAX_FIGURES};
use crate::model::geometry::Pos;
use crate::model::tile::FeatureKind;

/// The Count of Carcassonne as the registry lists it: `[mechanics] count`, the `[count]`
/// section, its quarters' actions and events, the Count's figure.
pub const FAMILY: Family = Family {
    core: Descriptor {
        name: "count",
        rules: FamilyRules {
            switches: &[Switch {
                name: "count",
                default: false,
            }],
            section: Some(&Reader::<rules::CountRules>::NEW),
        },
        vocabulary: Some(vocabulary::words),
        figures: &["count"],
        build,
    },
    show: Some(&show::Show),
    script: None,
};

/// Puts the Count into the game's list when `[mechanics] count` is on.
fn build(rules: &Ruleset, list: &mut Lineup) {
    if rules.switched_on("count") {
        list.push(CountOfCarcassonne::new(list.next()));
    }
}

/// The tag of every tile of the City-of-Carcassonne block.
pub const TAG_BLOCK: &str = "count";
/// The tag of the walled city's tiles (CO/6, CO/7).
pub const TAG_CITY: &str = "count_city";

/// Stands for the City of Carcassonne among the completed cities a farm borders (#53).
pub(crate) const CITY: SegId = SegId::MAX;

/// Followers out of a quarter, standing in a feature until it is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Moving {
    player: usize,
    /// The feature (its root segment; for the market under city-centric farm scoring, the
    /// city whose farmers it joins).
    key: SegId,
    /// Where the feature is drawn in events.
    at: Pos,
    quarter: Quarter,
    /// Their kind (a big follower weighs 2, seed 001 "Casos especiales").
    figure: FigureKind,
    count: u8,
}

/// One CO-5 round: the seats that may still move followers into the feature `key`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Round {
    key: SegId,
    /// The segment to score once the round is over (during the game).
    feature: SegId,
    quarter: Quarter,
    /// What the moved followers join (a farm for the City's market at the end).
    kind: FeatureKind,
    at: Pos,
    /// Seats with followers in the quarter that may join it, from the placer's left round to the placer.
    seats: Vec<usize>,
    next: usize,
    /// The figure kinds (bits by table slot) the seat whose turn it is has moved so far: it
    /// may go on moving the kinds it has not moved, or pass.
    moved: u8,
}

/// Where the end-of-turn placement stands (CO-1, CO-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum EndStep {
    /// Nothing to offer.
    #[default]
    Nothing,
    /// The tile made only opponents score: a follower may go into a quarter.
    Offer,
    /// A follower went in: the Count may move.
    MoveCount,
}

/// Each quarter's followers of one player, by quarter (in [`Quarter::ALL`] order) and then by
/// the figure table's slot.
type Quarters = [[u8; MAX_FIGURES]; 4];

/// The City of Carcassonne during a game: where the Count stands, each player's followers in
/// each quarter (by kind: a big follower goes in as itself), and the scoring under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    at: Quarter,
    /// Followers by seat, quarter and figure-table slot.
    quarters: Vec<Quarters>,
    /// The figure kinds by table slot (to name a slot without the ruleset at hand).
    kinds: Vec<FigureKind>,
    moving: Vec<Moving>,
    round: Option<Round>,
    /// The seat that laid the last tile (CO-5 order, also at the end).
    placer: usize,
    /// This turn: features completed by the tile and not yet scored (`None` before scoring).
    todo: Option<Vec<SegId>>,
    /// This turn: the feature the placer chose to score next.
    next: Option<SegId>,
    /// This turn: points the tile made each seat score.
    earned: Vec<u32>,
    end: EndStep,
    /// Final scoring: the rounds still to hold (`None` before final scoring).
    finale: Option<Vec<(SegId, Quarter)>>,
}

crate::own_state!(Count);

impl Count {
    /// The City at the start: the Count in the castle, every quarter empty (CO-S1).
    pub(crate) fn new(players: usize, table: &FigureTable) -> Count {
        Count {
            at: Quarter::Castle,
            quarters: vec![[[0; MAX_FIGURES]; 4]; players],
            kinds: table.rows().iter().map(|r| r.kind).collect(),
            moving: Vec::new(),
            round: None,
            placer: 0,
            todo: None,
            next: None,
            earned: vec![0; players],
            end: EndStep::Nothing,
            finale: None,
        }
    }

    /// The quarter the Count stands in.
    pub fn at(&self) -> Quarter {
        self.at
    }

    /// `player`'s followers in `quarter`, of every kind.
    pub fn in_quarter(&self, player: usize, quarter: Quarter) -> u8 {
        self.quarters
            .get(player)
            .map_or(0, |q| q[quarter as usize].iter().sum())
    }

    /// `player`'s followers of kind `figure` in `quarter`.
    pub fn in_quarter_of(&self, player: usize, quarter: Quarter, figure: FigureKind) -> u8 {
        self.slot(figure)
            .and_then(|slot| Some(self.quarters.get(player)?[quarter as usize][slot]))
            .unwrap_or(0)
    }

    /// `player`'s followers in `quarter` by kind (kinds with none left out), in table order.
    pub fn kinds_in_quarter(&self, player: usize, quarter: Quarter) -> Vec<(FigureKind, u8)> {
        let Some(q) = self.quarters.get(player) else {
            return Vec::new();
        };
        self.kinds
            .iter()
            .zip(q[quarter as usize])
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| (*k, n))
            .collect()
    }

    /// The figure-table slot of `figure`.
    fn slot(&self, figure: FigureKind) -> Option<usize> {
        self.kinds.iter().position(|k| *k == figure)
    }

    /// `player`'s followers that left a quarter for a feature not yet scored.
    pub fn moving(&self, player: usize) -> u8 {
        self.moving
            .iter()
            .filter(|m| m.player == player)
            .map(|m| m.count)
            .sum()
    }

    /// `player`'s followers in the City or on their way out of it: in a quarter, or moved into
    /// a feature that is about to be scored.
    pub fn followers(&self, player: usize) -> u32 {
        let inside: u32 = Quarter::ALL
            .iter()
            .map(|q| self.in_quarter(player, *q) as u32)
            .sum();
        inside + self.moving(player) as u32
    }

    /// `player`'s followers of kind `figure` in the City or on their way out of it.
    pub fn followers_of(&self, player: usize, figure: FigureKind) -> u32 {
        let inside: u32 = Quarter::ALL
            .iter()
            .map(|q| self.in_quarter_of(player, *q, figure) as u32)
            .sum();
        let moving: u32 = self
            .moving
            .iter()
            .filter(|m| m.player == player && m.figure == figure)
            .map(|m| m.count as u32)
            .sum();
        inside + moving
    }
}

/// The Count's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    /// CO-1: a follower into a quarter, or pass.
    Quarter,
    /// CO-2: move the Count, or pass.
    Move,
    /// CO-4, CO-5: followers out of a quarter into the feature being scored, or pass.
    Leave,
    /// `count.feature_order`: the feature scored next.
    Order,
}

impl Ask {
    fn of(kind: u8) -> Ask {
        match kind {
            0 => Ask::Quarter,
            1 => Ask::Move,
            2 => Ask::Leave,
            _ => Ask::Order,
        }
    }
}

/// The City of Carcassonne, when the Count is in play: its state in `game` (quarters, the
/// Count's place, followers moving out).
pub fn state(game: &Game) -> Option<&Count> {
    game.slots.get::<Count>()
}

/// The Count of Carcassonne (RULES.md §5) as a mechanic.
#[derive(Debug)]
pub struct CountOfCarcassonne {
    id: u8,
}

impl CountOfCarcassonne {
    /// The Count as mechanic number `id` of a game.
    pub fn new(id: u8) -> CountOfCarcassonne {
        CountOfCarcassonne { id }
    }

    /// The kind of decision of the Count's that is pending, if one is.
    fn kind(&self, g: &Game) -> Option<Ask> {
        g.asked()
            .filter(|a| a.by == self.id)
            .map(|a| Ask::of(a.kind))
    }

    fn ask(&self, kind: Ask) -> Asked {
        Asked {
            by: self.id,
            kind: kind as u8,
        }
    }

    fn tile_tagged(&self, g: &Game, pos: Pos, tag: &str) -> bool {
        g.board
            .at(pos)
            .is_some_and(|p| g.rules.tile(g.board.placed(p).tile).has_tag(tag))
    }

    /// The dragon may not enter the tile at `pos` (D5c, `count.dragon_access`).
    pub(crate) fn count_bars_dragon(&self, g: &Game, pos: Pos) -> bool {
        if g.slots.get::<Count>().is_none() {
            return false;
        }
        let tag = match CountRules::of(&g.rules).dragon_access {
            CountCity::Forbidden => TAG_BLOCK,
            CountCity::OuterLandscapeOnly => TAG_CITY,
        };
        self.tile_tagged(g, pos, tag)
    }

    /// Why no figure may be deployed on the tile at `pos`, if it is the walled city (CO-6, MP7).
    pub(crate) fn count_deploy_problem(&self, g: &Game, pos: Pos) -> Option<Refusal> {
        (g.slots.get::<Count>().is_some() && self.tile_tagged(g, pos, TAG_CITY)).then_some(
            Refusal::new(
                "CO-6",
                "no figure is deployed in the City of Carcassonne: followers enter its quarters only by the Count's rule (CO-1, MP7)",
            ),
        )
    }

    /// Whether a farm with a field on the tile `placed` borders the City (#53).
    pub(crate) fn count_city_borders(&self, g: &Game, placed: PlacedId) -> bool {
        g.slots.get::<Count>().is_some()
            && CountRules::of(&g.rules).city_tiles_border_farms
            && g.rules.tile(g.board.placed(placed).tile).has_tag(TAG_BLOCK)
    }

    /// Where the City is drawn for events: its first walled-city tile, else the origin.
    pub(crate) fn count_city_pos(&self, g: &Game) -> Pos {
        g.board
            .tiles()
            .iter()
            .find(|p| g.rules.tile(p.tile).has_tag(TAG_CITY))
            .map_or(Pos::new(0, 0), |p| p.pos)
    }

    /// The position of a feature named by a key (a root segment, or [`CITY`]).
    fn key_pos(&self, g: &Game, key: SegId) -> Pos {
        if key == CITY {
            self.count_city_pos(g)
        } else {
            g.seg_pos(key)
        }
    }

    /// Sends the moved followers home after their feature was scored (CO-5), or after the
    /// final scoring.
    pub(crate) fn count_return_moving(&self, g: &mut Game, events: &mut Vec<Event>) {
        let Some(count) = g.slots.get_mut::<Count>() else {
            return;
        };
        let moving = std::mem::take(&mut count.moving);
        for m in moving {
            let slot = g.rules.figures.find(m.figure).map_or(0, |(slot, _)| slot);
            g.supply[m.player][slot] += m.count;
            for _ in 0..m.count {
                events.push(Event::FigureReturned {
                    player: m.player,
                    figure: m.figure,
                    x: m.at.x,
                    y: m.at.y,
                    reason: ReturnReason::Scored,
                });
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Rounds (CO-4, CO-5).

    /// Opens the round for the feature `key` (segment `feature`, at `at`) and `quarter`, if
    /// anyone may move.
    fn open_round(&self, g: &mut Game, key: SegId, feature: SegId, quarter: Quarter, at: Pos) {
        let kind = if key == CITY {
            FeatureKind::Field
        } else {
            g.features.segment(key).kind
        };
        let table = &g.rules.figures;
        let Some(count) = g.slots.get_mut::<Count>() else {
            return;
        };
        if count.at == quarter {
            return;
        }
        let n = count.quarters.len();
        let seats: Vec<usize> = (1..=n)
            .map(|k| (count.placer + k) % n)
            .filter(|p| {
                count
                    .kinds_in_quarter(*p, quarter)
                    .iter()
                    .any(|(figure, _)| joins(table, *figure, kind))
            })
            .collect();
        if !seats.is_empty() {
            count.round = Some(Round {
                key,
                feature,
                quarter,
                kind,
                at,
                seats,
                next: 0,
                moved: 0,
            });
        }
    }

    /// The quarter whose followers may join the completed feature of `seg` now, if any
    /// (CO-3, CO-4, #50).
    fn quarter_for_completed(&self, g: &Game, seg: SegId) -> Option<Quarter> {
        let count = g.slots.get::<Count>()?;
        let quarter = Quarter::serving(g.features.segment(seg).kind);
        let open = quarter != Quarter::Market
            && quarter != count.at
            && (0..count.quarters.len()).any(|p| count.in_quarter(p, quarter) > 0)
            && (!CountRules::of(&g.rules).require_follower_in_feature
                || g.features.totals(seg).followers > 0);
        open.then_some(quarter)
    }

    /// Whether a round is waiting for a seat's answer.
    fn round_waiting(&self, g: &Game) -> bool {
        g.slots
            .get::<Count>()
            .and_then(|c| c.round.as_ref())
            .is_some_and(|r| r.next < r.seats.len())
    }

    /// Whether the scoring order of the features left matters: two of them draw on the same
    /// quarter (#51).
    fn order_matters(&self, g: &Game, todo: &[SegId]) -> bool {
        let quarters: Vec<Quarter> = todo
            .iter()
            .filter_map(|s| self.quarter_for_completed(g, *s))
            .collect();
        quarters
            .iter()
            .enumerate()
            .any(|(i, q)| quarters[i + 1..].contains(q))
    }

    // -----------------------------------------------------------------------------------------
    // The turn: scoring with rounds, then the end-of-turn placement.

    /// The `Score` stage with the Count: each feature the tile completed gets its round, then
    /// is scored; the points the tile caused are noted for the trigger (CO-1). Re-entered after
    /// every decision of a round or of the order.
    pub(crate) fn count_score_stage(
        &self,
        g: &mut Game,
        placed: PlacedId,
        events: &mut Vec<Event>,
    ) -> Option<Asked> {
        if g.slots.get::<Count>().is_some_and(|c| c.todo.is_none()) {
            let todo = g.completed_by(placed).to_vec();
            let n = g.scores.len();
            let active = g.active;
            if let Some(count) = g.slots.get_mut::<Count>() {
                count.todo = Some(todo);
                count.earned = vec![0; n];
                count.placer = active;
            }
        }
        loop {
            if self.round_waiting(g) {
                return Some(self.ask(Ask::Leave));
            }
            if let Some(round) = g.slots.get_mut::<Count>().and_then(|c| c.round.take()) {
                self.count_score_one(g, round.feature, events);
                continue;
            }
            let todo = g
                .slots
                .get::<Count>()
                .and_then(|c| c.todo.clone())
                .unwrap_or_default();
            if todo.is_empty() {
                break;
            }
            let chosen = g.slots.get_mut::<Count>().and_then(|c| c.next.take());
            let seg = match chosen {
                Some(seg) => seg,
                None if CountRules::of(&g.rules).feature_order
                    == FeatureOrder::ActivePlayerChooses
                    && self.order_matters(g, &todo) =>
                {
                    return Some(self.ask(Ask::Order));
                }
                None => todo[0],
            };
            if let Some(list) = g.slots.get_mut::<Count>().and_then(|c| c.todo.as_mut()) {
                list.retain(|s| *s != seg);
            }
            match self.quarter_for_completed(g, seg) {
                Some(quarter) => {
                    let root = g.features.root(seg);
                    let at = g.seg_pos(seg);
                    self.open_round(g, root, seg, quarter, at);
                    if !self.round_waiting(g) {
                        self.count_score_one(g, seg, events);
                    }
                }
                None => self.count_score_one(g, seg, events),
            }
        }
        self.count_trigger(g);
        g.now.scored = true;
        None
    }

    /// Scores one completed feature, notes who the tile made score, and sends the moved
    /// followers home.
    fn count_score_one(&self, g: &mut Game, seg: SegId, events: &mut Vec<Event>) {
        let mark = events.len();
        base::score_feature(g, seg, true, events);
        let fairy_counts = CountRules::of(&g.rules).trigger_counts_fairy_points;
        if let Some(count) = g.slots.get_mut::<Count>() {
            for e in &events[mark..] {
                if let Event::Scored {
                    player,
                    points,
                    rule,
                    ..
                } = e
                    && (fairy_counts || *rule != fairy::BONUS_RULE)
                {
                    count.earned[*player] += points;
                }
            }
        }
        self.count_return_moving(g, events);
    }

    /// CO-1: the tile made no points for its placer and at least one for an opponent.
    fn count_trigger(&self, g: &mut Game) {
        let active = g.active;
        let Some(count) = g.slots.get_mut::<Count>() else {
            return;
        };
        let mine = count.earned.get(active).copied().unwrap_or(0);
        let theirs = count
            .earned
            .iter()
            .enumerate()
            .any(|(p, e)| p != active && *e > 0);
        count.end = if mine == 0 && theirs {
            EndStep::Offer
        } else {
            EndStep::Nothing
        };
    }

    /// The `TurnEnd` stage with the Count: offer the quarter, then the Count's move (CO-1,
    /// CO-2); then clear the turn's notes. Re-entered after each decision.
    pub(crate) fn count_turn_end(&self, g: &mut Game) -> Option<Asked> {
        let has_supply = Quarter::ALL
            .iter()
            .any(|q| !self.entering(g, g.active, *q).is_empty());
        let count = g.slots.get_mut::<Count>()?;
        match count.end {
            EndStep::Offer if has_supply => Some(self.ask(Ask::Quarter)),
            EndStep::MoveCount => Some(self.ask(Ask::Move)),
            _ => {
                count.end = EndStep::Nothing;
                count.todo = None;
                count.next = None;
                None
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Final scoring.

    /// The rounds of the final scoring, before it scores (RULES.md §5.2): cathedral followers
    /// for the incomplete cloisters that will be scored (`count.final_scoring_incomplete`), and
    /// market followers for the farms (or, under city-centric farm scoring, the cities) that
    /// will be scored. Re-entered after each decision; `None` once every round is held.
    pub(crate) fn count_final_rounds(&self, g: &mut Game) -> Option<Asked> {
        g.slots.get::<Count>()?;
        if g.slots.get::<Count>().is_some_and(|c| c.finale.is_none()) {
            let plan = self.final_plan(g);
            if let Some(count) = g.slots.get_mut::<Count>() {
                count.finale = Some(plan);
            }
        }
        loop {
            if self.round_waiting(g) {
                return Some(self.ask(Ask::Leave));
            }
            let count = g.slots.get_mut::<Count>()?;
            count.round = None;
            let list = count.finale.as_mut()?;
            if list.is_empty() {
                return None;
            }
            let (key, quarter) = list.remove(0);
            let at = self.key_pos(g, key);
            self.open_round(g, key, key, quarter, at);
        }
    }

    /// The final-scoring rounds, in the order the final scoring scores their features.
    fn final_plan(&self, g: &mut Game) -> Vec<(SegId, Quarter)> {
        let mut plan = Vec::new();
        if CountRules::of(&g.rules).final_scoring_incomplete == FinalIncomplete::CloistersToo {
            for f in &g.figures {
                let root = g.features.root(f.seg);
                if g.features.segment(f.seg).kind == FeatureKind::Cloister
                    && !plan.contains(&(root, Quarter::Cathedral))
                {
                    plan.push((root, Quarter::Cathedral));
                }
            }
        }
        if g.rules.switched_on("farmers") {
            for key in crate::mechanic::base::farm::market_keys(g) {
                plan.push((key, Quarter::Market));
            }
        }
        plan
    }

    // -----------------------------------------------------------------------------------------
    // Decisions.

    /// The kinds of figure `player` may put from supply into `quarter` (CO-1), in table order:
    /// followers (the plain one, I&C's big follower "según las reglas normales", the abbot)
    /// that may stand on the features the quarter's followers join. Builders and pigs are no
    /// followers, and the abbot, a follower of cloisters and gardens only, goes to the
    /// cathedral only.
    fn entering(&self, g: &Game, player: usize, quarter: Quarter) -> Vec<FigureKind> {
        let supply = &g.supply[player];
        g.rules
            .figures
            .rows()
            .iter()
            .enumerate()
            .filter(|(slot, row)| {
                row.follower.is_some()
                    && row.stands_on.on(quarter.feature())
                    && supply.get(*slot).is_some_and(|n| *n > 0)
            })
            .map(|(_, row)| row.kind)
            .collect()
    }

    /// The kinds `player` may still move out of the round's quarter: those he holds there,
    /// may stand on the feature the round feeds (a garden takes the abbot only) and has not
    /// moved in this turn of the round.
    fn leaving(
        &self,
        table: &FigureTable,
        count: &Count,
        player: usize,
        round: &Round,
    ) -> Vec<(FigureKind, u8)> {
        count
            .kinds_in_quarter(player, round.quarter)
            .into_iter()
            .filter(|(k, _)| {
                joins(table, *k, round.kind)
                    && count
                        .slot(*k)
                        .is_some_and(|slot| round.moved & (1 << slot) == 0)
            })
            .collect()
    }

    /// Who decides and what, for a pending Count decision.
    pub(crate) fn count_decision(&self, g: &Game) -> (usize, DecisionKind) {
        let round = g.slots.get::<Count>().and_then(|c| c.round.as_ref());
        match (self.kind(g), round) {
            (Some(Ask::Leave), Some(r)) => {
                let player = r.seats.get(r.next).copied().unwrap_or(g.active);
                let available = g
                    .slots
                    .get::<Count>()
                    .map_or(0, |c| c.in_quarter(player, r.quarter));
                (
                    player,
                    CountDecision::Leave {
                        quarter: r.quarter,
                        available,
                        x: r.at.x,
                        y: r.at.y,
                    }
                    .into(),
                )
            }
            (Some(Ask::Move), _) => (g.active, CountDecision::Move.into()),
            (Some(Ask::Order), _) => (g.active, CountDecision::Order.into()),
            _ => (g.active, CountDecision::Quarter.into()),
        }
    }

    /// The legal answers to a pending Count decision.
    pub(crate) fn count_actions(&self, g: &Game, out: &mut Vec<Action>) {
        let Some(count) = g.slots.get::<Count>() else {
            return;
        };
        match self.kind(g) {
            Some(Ask::Quarter) => {
                for quarter in Quarter::ALL {
                    out.extend(
                        self.entering(g, g.active, quarter)
                            .into_iter()
                            .map(|figure| Action::from(CountAction::Quarter { quarter, figure })),
                    );
                }
            }
            Some(Ask::Move) => {
                out.extend(
                    Quarter::ALL
                        .into_iter()
                        .filter(|q| *q != count.at)
                        .map(|quarter| Action::from(CountAction::Count { quarter })),
                );
            }
            Some(Ask::Leave) => {
                let (player, _) = self.count_decision(g);
                let Some(round) = count.round.as_ref() else {
                    return;
                };
                let quarter = round.quarter;
                for (figure, n) in self.leaving(&g.rules.figures, count, player, round) {
                    out.extend((1..=n).map(|count| {
                        Action::from(CountAction::Leave {
                            quarter,
                            count,
                            figure,
                        })
                    }));
                }
            }
            Some(Ask::Order) => {
                for seg in count.todo.iter().flatten() {
                    let (pos, spot) = g.seg_spot(*seg);
                    out.push(CountAction::Score { pos, spot }.into());
                }
            }
            _ => {}
        }
    }

    /// `Score` as the legal list writes it: any tile and spot of a feature left to score
    /// names that feature.
    fn count_canonical(&self, g: &Game, action: &Action) -> Action {
        let Some(CountAction::Score { pos, spot }) = CountAction::of(action) else {
            return *action;
        };
        let todo = g.slots.get::<Count>().and_then(|c| c.todo.as_ref());
        g.seg_at(pos, spot)
            .and_then(|seg| todo?.iter().find(|t| g.features.same(**t, seg)).copied())
            .map_or(*action, |t| {
                let (pos, spot) = g.seg_spot(t);
                CountAction::Score { pos, spot }.into()
            })
    }

    /// Checks an answer to a pending Count decision without changing anything.
    pub(crate) fn check_count(&self, g: &Game, action: &Action) -> Result<(), RuleError> {
        let pass = *action == Action::Pass;
        let fits = match (self.kind(g), CountAction::of(action)) {
            (Some(Ask::Quarter), Some(CountAction::Quarter { .. }))
            | (Some(Ask::Move), Some(CountAction::Count { .. }))
            | (Some(Ask::Leave), Some(CountAction::Leave { .. }))
            | (Some(Ask::Order), Some(CountAction::Score { .. })) => true,
            (Some(Ask::Quarter | Ask::Move | Ask::Leave), None) => pass,
            _ => false,
        };
        if !fits {
            return Err(RuleError::WrongDecision(
                match self.kind(g) {
                    Some(Ask::Quarter) => {
                        "the Count: put a follower into a quarter (`quarter = \"castle\"`, a big follower with `figure = \"big\"` beside it) or `pass = true` (CO-1)"
                    }
                    Some(Ask::Move) => {
                        "the Count: move the Count (`count = \"market\"`) or `pass = true` (CO-2)"
                    }
                    Some(Ask::Leave) => {
                        "the Count: move followers out of the quarter (`leave = [\"castle\", 1]`, big followers with `figure = \"big\"` beside it) or `pass = true` (CO-5)"
                    }
                    _ => "the Count: choose the feature scored next (`score = [x, y, \"N\"]`)",
                }
                .to_string(),
            ));
        }
        let mut legal = Vec::new();
        self.count_actions(g, &mut legal);
        if legal.contains(&self.count_canonical(g, action)) {
            return Ok(());
        }
        let rule = match self.kind(g) {
            Some(Ask::Quarter) => "CO-1",
            Some(Ask::Move) => "CO-2",
            Some(Ask::Leave) => "CO-5",
            _ => "count.feature_order",
        };
        Err(RuleError::not_listed(action, &legal, RuleId(rule)))
    }

    /// Applies a checked answer to a pending Count decision.
    pub(crate) fn count_apply(&self, g: &mut Game, action: &Action, events: &mut Vec<Event>) {
        let action = self.count_canonical(g, action);
        let (player, _) = self.count_decision(g);
        let pending = self.kind(g);
        let own = CountAction::of(&action);
        let chosen = match own {
            Some(CountAction::Score { pos, spot }) => g.seg_at(pos, spot).and_then(|seg| {
                let todo = g.slots.get::<Count>()?.todo.as_ref()?;
                todo.iter().find(|t| g.features.same(**t, seg)).copied()
            }),
            _ => None,
        };
        // The feature the round under way feeds: its key, where it is, what it is.
        let round = g
            .slots
            .get::<Count>()
            .and_then(|c| c.round.as_ref())
            .map(|r| (r.key, r.at, r.kind));
        let slot_of = |figure| g.rules.figures.find(figure).map_or(0, |(slot, _)| slot);
        let slot = match own {
            Some(CountAction::Quarter { figure, .. } | CountAction::Leave { figure, .. }) => {
                slot_of(figure)
            }
            _ => 0,
        };
        let Some(count) = g.slots.get_mut::<Count>() else {
            return;
        };
        match (pending, own) {
            (Some(Ask::Quarter), Some(CountAction::Quarter { quarter, figure })) => {
                g.supply[player][slot] -= 1;
                count.quarters[player][quarter as usize][slot] += 1;
                count.end = EndStep::MoveCount;
                events.push(
                    CountEvent::FollowerIntoQuarter {
                        player,
                        quarter,
                        figure,
                    }
                    .into(),
                );
            }
            (Some(Ask::Move), Some(CountAction::Count { quarter })) => {
                count.at = quarter;
                count.end = EndStep::Nothing;
                events.push(CountEvent::CountMoved { player, quarter }.into());
            }
            (Some(Ask::Quarter) | Some(Ask::Move), _) => count.end = EndStep::Nothing,
            (
                Some(Ask::Leave),
                Some(CountAction::Leave {
                    quarter,
                    count: n,
                    figure,
                }),
            ) => {
                count.quarters[player][quarter as usize][slot] -= n;
                if let Some(mut r) = count.round.take() {
                    r.moved |= 1 << slot;
                    // The seat goes on while it holds a kind it has not moved yet.
                    if self.leaving(&g.rules.figures, count, player, &r).is_empty() {
                        r.next += 1;
                        r.moved = 0;
                    }
                    count.round = Some(r);
                }
                if let Some((key, at, feature)) = round {
                    count.moving.push(Moving {
                        player,
                        key,
                        at,
                        quarter,
                        figure,
                        count: n,
                    });
                    events.push(
                        CountEvent::FollowersLeftQuarter {
                            player,
                            quarter,
                            count: n,
                            figure,
                            feature,
                            x: at.x,
                            y: at.y,
                        }
                        .into(),
                    );
                }
            }
            (Some(Ask::Leave), _) => {
                if let Some(r) = count.round.as_mut() {
                    r.next += 1;
                    r.moved = 0;
                }
            }
            (Some(Ask::Order), _) => count.next = chosen,
            _ => {}
        }
    }
}

impl Mechanic for CountOfCarcassonne {
    fn name(&self) -> &'static str {
        "count"
    }

    fn hooks(&self) -> Hooks {
        Hooks::SETUP
            | Hooks::STAGE
            | Hooks::ACTIONS
            | Hooks::DEPLOY
            | Hooks::STRENGTH
            | Hooks::ROAMER
            | Hooks::FARM
            | Hooks::FINAL
    }

    fn phases(&self) -> &[Phase] {
        &[Phase::Score, Phase::TurnEnd]
    }

    fn setup(&self, g: &mut Game, _events: &mut Vec<Event>) {
        let players = g.scores.len();
        g.slots.set(Count::new(players, &g.rules.figures));
    }

    /// The score stage with the quarters' rounds (CO-4, CO-5; it scores what the tile
    /// completed in place of the base game's stage), and the end of the turn (CO-1, CO-2).
    fn stage(&self, g: &mut Game, phase: Phase, events: &mut Vec<Event>) -> Option<Asked> {
        match phase {
            Phase::Score => {
                let placed = g.now.placed?;
                self.count_score_stage(g, placed, events)
            }
            _ => self.count_turn_end(g),
        }
    }

    fn decision(&self, g: &Game, _asked: Asked) -> Option<Decision> {
        let (player, kind) = self.count_decision(g);
        Some(Decision { player, kind })
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        if asked.by == self.id {
            self.count_actions(g, out);
        }
    }

    fn may_pass(&self, _g: &Game, asked: Asked) -> bool {
        Ask::of(asked.kind) != Ask::Order
    }

    fn hint(&self, asked: Asked) -> &'static str {
        match Ask::of(asked.kind) {
            Ask::Quarter => {
                "the Count: put a follower into a quarter (`quarter = \"castle\"`, a big follower with `figure = \"big\"` beside it) or `pass = true` (CO-1)"
            }
            Ask::Move => "the Count: move the Count (`count = \"market\"`) or `pass = true` (CO-2)",
            Ask::Leave => {
                "the Count: move followers out of the quarter (`leave = [\"castle\", 1]`, big followers with `figure = \"big\"` beside it) or `pass = true` (CO-5)"
            }
            Ask::Order => "the Count: choose the feature scored next (`score = [x, y, \"N\"]`)",
        }
    }

    fn canonical(&self, g: &Game, action: &Action) -> Option<Action> {
        matches!(CountAction::of(action), Some(CountAction::Score { .. }))
            .then(|| self.count_canonical(g, action))
    }

    /// Its actions reach it only at its own decisions (the engine routes them).
    fn check(&self, g: &Game, _asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        Some(self.check_count(g, action))
    }

    fn apply(
        &self,
        g: &mut Game,
        _asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        self.count_apply(g, action, events);
        // The Count's decisions continue the stage that asked for them.
        Some(Then::Again)
    }

    fn deploy_problem(
        &self,
        g: &Game,
        seg: SegId,
        _figure: FigureKind,
        _own_tile: bool,
    ) -> Option<Refusal> {
        self.count_deploy_problem(g, g.seg_pos(seg))
    }

    /// Followers moved out of a quarter count in the feature they were moved into (CO-5).
    fn strength(&self, g: &mut Game, key: SegId, kind: FeatureKind, strength: &mut [u32]) {
        let Some(count) = g.slots.get::<Count>() else {
            return;
        };
        for m in &count.moving {
            if m.key == key && Quarter::serving(kind) == m.quarter {
                strength[m.player] += m.count as u32 * g.rules.figures.strength(m.figure);
            }
        }
    }

    fn bars_roamer(&self, g: &Game, pos: Pos) -> bool {
        self.count_bars_dragon(g, pos)
    }

    /// #53: a farm with a field on a tile of the City borders the City.
    fn farm_cities(&self, g: &Game, placed: PlacedId) -> Option<(SegId, Pos)> {
        self.count_city_borders(g, placed)
            .then(|| (CITY, self.count_city_pos(g)))
    }

    /// The market rounds come before the base game's final scoring (RULES.md §5.2).
    fn final_scoring(&self, g: &mut Game, _events: &mut Vec<Event>) -> Option<Asked> {
        self.count_final_rounds(g)
    }

    fn game_end(&self, g: &mut Game, events: &mut Vec<Event>) {
        self.count_return_moving(g, events);
    }
}

impl Shortcuts for CountOfCarcassonne {}

/// Whether a follower of kind `figure` may stand on a feature of `kind` (so join it from a
/// quarter).
fn joins(table: &FigureTable, figure: FigureKind, kind: FeatureKind) -> bool {
    table.row(figure).is_some_and(|row| row.stands_on.on(kind))
}
