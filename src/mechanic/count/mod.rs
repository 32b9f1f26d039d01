//! The Count of Carcassonne (RULES.md §5, CO-S1–CO-7; seed 001 §"EL Conde de Carcassonne").
//!
//! The City of Carcassonne is the start block of 12 tiles (`tiles/count.toml`). Its four
//! quarters and the Count are game state, not tile features: a player whose tile made only
//! opponents score may, at the end of his turn, put one follower from supply into a quarter and
//! then move the Count (CO-1, CO-2). Before a feature is scored, the players, from the left of
//! the tile's placer round to the placer, may move followers out of the matching quarter into
//! it — castle → completed city, blacksmiths → completed road, cathedral → cloister, market →
//! farm at the end only — unless the Count stands in that quarter (CO-3 to CO-5). Moved
//! followers count like followers on the feature, stand on no tile (no fairy bonus, nothing to
//! eat) and go back to supply after the scoring. Nothing else moves a follower into or out of
//! the City (CO-6).
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

use self::rules::{FeatureOrder, FinalIncomplete, Quarter};
use crate::mechanic::pd::rules::CountCity;

use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::{Event, ReturnReason};
use crate::engine::game::{Game, Pending, RuleError, describe};
use crate::mechanic::pd::fairy;
use crate::model::board::PlacedId;
use crate::model::feature::SegId;
use crate::model::figure::FigureKind;
use crate::model::geometry::Pos;
use crate::model::tile::FeatureKind;

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
    count: u8,
}

/// One CO-5 round: the seats that may still move followers into the feature `key`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Round {
    key: SegId,
    /// The segment to score once the round is over (during the game).
    feature: SegId,
    quarter: Quarter,
    at: Pos,
    /// Seats with followers in the quarter, from the placer's left round to the placer.
    seats: Vec<usize>,
    next: usize,
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

/// The City of Carcassonne during a game: where the Count stands, each player's followers in
/// each quarter, and the scoring under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    at: Quarter,
    /// Followers by seat, then by quarter (in [`Quarter::ALL`] order).
    quarters: Vec<[u8; 4]>,
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

impl Count {
    /// The City at the start: the Count in the castle, every quarter empty (CO-S1).
    pub(crate) fn new(players: usize) -> Count {
        Count {
            at: Quarter::Castle,
            quarters: vec![[0; 4]; players],
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

    /// `player`'s followers in `quarter`.
    pub fn in_quarter(&self, player: usize, quarter: Quarter) -> u8 {
        self.quarters.get(player).map_or(0, |q| q[quarter as usize])
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
}

impl Game {
    /// The City of Carcassonne, when the Count is in play.
    pub fn count(&self) -> Option<&Count> {
        self.count.as_ref()
    }

    fn tile_tagged(&self, pos: Pos, tag: &str) -> bool {
        self.board
            .at(pos)
            .is_some_and(|p| self.rules.tile(self.board.placed(p).tile).has_tag(tag))
    }

    /// The dragon may not enter the tile at `pos` (D5c, `count.dragon_access`).
    pub(crate) fn count_bars_dragon(&self, pos: Pos) -> bool {
        if self.count.is_none() {
            return false;
        }
        let tag = match self.rules.count.dragon_access {
            CountCity::Forbidden => TAG_BLOCK,
            CountCity::OuterLandscapeOnly => TAG_CITY,
        };
        self.tile_tagged(pos, tag)
    }

    /// Why no figure may be deployed on the tile at `pos`, if it is the walled city (CO-6, MP7).
    pub(crate) fn count_deploy_problem(&self, pos: Pos) -> Option<&'static str> {
        (self.count.is_some() && self.tile_tagged(pos, TAG_CITY)).then_some(
            "no figure is deployed in the City of Carcassonne: followers enter its quarters only by the Count's rule (CO-1, CO-6, MP7)",
        )
    }

    /// Whether a farm with a field on the tile `placed` borders the City (#53).
    pub(crate) fn count_city_borders(&self, placed: PlacedId) -> bool {
        self.count.is_some()
            && self.rules.count.city_tiles_border_farms
            && self
                .rules
                .tile(self.board.placed(placed).tile)
                .has_tag(TAG_BLOCK)
    }

    /// Where the City is drawn for events: its first walled-city tile, else the origin.
    pub(crate) fn count_city_pos(&self) -> Pos {
        self.board
            .tiles()
            .iter()
            .find(|p| self.rules.tile(p.tile).has_tag(TAG_CITY))
            .map_or(Pos::new(0, 0), |p| p.pos)
    }

    /// The position of a feature named by a key (a root segment, or [`CITY`]).
    fn key_pos(&self, key: SegId) -> Pos {
        if key == CITY {
            self.count_city_pos()
        } else {
            self.root_pos(key)
        }
    }

    /// Adds the followers moved out of the City into the feature of `seg` to `strength`.
    pub(crate) fn count_strength(&self, seg: SegId, strength: &mut [u32]) {
        let Some(count) = &self.count else { return };
        if count.moving.is_empty() {
            return;
        }
        let kind = self.features.segment(seg).kind;
        let root = self.features.root(seg);
        for m in &count.moving {
            if m.key == root && m.quarter.feature() == kind {
                strength[m.player] += m.count as u32 * FigureKind::Follower.weight();
            }
        }
    }

    /// Adds the market followers moved out for the farmers of the city `key` (city-centric farm
    /// scoring: one market round per city, RULES.md §5.2).
    pub(crate) fn count_market_strength(&self, key: SegId, strength: &mut [u32]) {
        let Some(count) = &self.count else { return };
        for m in &count.moving {
            if m.key == key && m.quarter == Quarter::Market {
                strength[m.player] += m.count as u32 * FigureKind::Follower.weight();
            }
        }
    }

    /// Sends the moved followers home after their feature was scored (CO-5), or after the
    /// final scoring.
    pub(crate) fn count_return_moving(&mut self, events: &mut Vec<Event>) {
        let Some(count) = self.count.as_mut() else {
            return;
        };
        let moving = std::mem::take(&mut count.moving);
        for m in moving {
            self.supply[m.player][FigureKind::Follower as usize] += m.count;
            for _ in 0..m.count {
                events.push(Event::FigureReturned {
                    player: m.player,
                    figure: FigureKind::Follower,
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
    fn open_round(&mut self, key: SegId, feature: SegId, quarter: Quarter, at: Pos) {
        let Some(count) = self.count.as_mut() else {
            return;
        };
        if count.at == quarter {
            return;
        }
        let n = count.quarters.len();
        let seats: Vec<usize> = (1..=n)
            .map(|k| (count.placer + k) % n)
            .filter(|p| count.quarters[*p][quarter as usize] > 0)
            .collect();
        if !seats.is_empty() {
            count.round = Some(Round {
                key,
                feature,
                quarter,
                at,
                seats,
                next: 0,
            });
        }
    }

    /// The quarter whose followers may join the completed feature of `seg` now, if any
    /// (CO-3, CO-4, #50).
    fn quarter_for_completed(&self, seg: SegId) -> Option<Quarter> {
        let count = self.count.as_ref()?;
        let quarter = Quarter::serving(self.features.segment(seg).kind);
        let open = quarter != Quarter::Market
            && quarter != count.at
            && count.quarters.iter().any(|q| q[quarter as usize] > 0)
            && (!self.rules.count.require_follower_in_feature
                || self.features.totals(seg).followers > 0);
        open.then_some(quarter)
    }

    /// Whether a round is waiting for a seat's answer.
    fn round_waiting(&self) -> bool {
        self.count
            .as_ref()
            .and_then(|c| c.round.as_ref())
            .is_some_and(|r| r.next < r.seats.len())
    }

    /// Whether the scoring order of the features left matters: two of them draw on the same
    /// quarter (#51).
    fn order_matters(&self, todo: &[SegId]) -> bool {
        let quarters: Vec<Quarter> = todo
            .iter()
            .filter_map(|s| self.quarter_for_completed(*s))
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
        &mut self,
        placed: PlacedId,
        events: &mut Vec<Event>,
    ) -> Option<Pending> {
        if self.count.as_ref().is_some_and(|c| c.todo.is_none()) {
            let todo = self.completed_by(placed);
            let n = self.scores.len();
            let active = self.active;
            if let Some(count) = self.count.as_mut() {
                count.todo = Some(todo);
                count.earned = vec![0; n];
                count.placer = active;
            }
        }
        loop {
            if self.round_waiting() {
                return Some(Pending::CountLeave);
            }
            if let Some(round) = self.count.as_mut().and_then(|c| c.round.take()) {
                self.count_score_one(round.feature, events);
                continue;
            }
            let todo = self
                .count
                .as_ref()
                .and_then(|c| c.todo.clone())
                .unwrap_or_default();
            if todo.is_empty() {
                break;
            }
            let chosen = self.count.as_mut().and_then(|c| c.next.take());
            let seg = match chosen {
                Some(seg) => seg,
                None if self.rules.count.feature_order == FeatureOrder::ActivePlayerChooses
                    && self.order_matters(&todo) =>
                {
                    return Some(Pending::CountOrder);
                }
                None => todo[0],
            };
            if let Some(list) = self.count.as_mut().and_then(|c| c.todo.as_mut()) {
                list.retain(|s| *s != seg);
            }
            match self.quarter_for_completed(seg) {
                Some(quarter) => {
                    let root = self.features.root(seg);
                    let at = self.root_pos(seg);
                    self.open_round(root, seg, quarter, at);
                    if !self.round_waiting() {
                        self.count_score_one(seg, events);
                    }
                }
                None => self.count_score_one(seg, events),
            }
        }
        self.count_trigger();
        None
    }

    /// Scores one completed feature, notes who the tile made score, and sends the moved
    /// followers home.
    fn count_score_one(&mut self, seg: SegId, events: &mut Vec<Event>) {
        let mark = events.len();
        self.score_feature(seg, true, events);
        let fairy_counts = self.rules.count.trigger_counts_fairy_points;
        if let Some(count) = self.count.as_mut() {
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
        self.count_return_moving(events);
    }

    /// CO-1: the tile made no points for its placer and at least one for an opponent.
    fn count_trigger(&mut self) {
        let active = self.active;
        let Some(count) = self.count.as_mut() else {
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
    pub(crate) fn count_turn_end(&mut self) -> Option<Pending> {
        let has_supply = self.supply[self.active][FigureKind::Follower as usize] > 0;
        let count = self.count.as_mut()?;
        match count.end {
            EndStep::Offer if has_supply => Some(Pending::CountQuarter),
            EndStep::MoveCount => Some(Pending::CountMove),
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
    pub(crate) fn count_final_rounds(&mut self) -> Option<Pending> {
        self.count.as_ref()?;
        if self.count.as_ref().is_some_and(|c| c.finale.is_none()) {
            let plan = self.final_plan();
            if let Some(count) = self.count.as_mut() {
                count.finale = Some(plan);
            }
        }
        loop {
            if self.round_waiting() {
                return Some(Pending::CountLeave);
            }
            let count = self.count.as_mut()?;
            count.round = None;
            let list = count.finale.as_mut()?;
            if list.is_empty() {
                return None;
            }
            let (key, quarter) = list.remove(0);
            let at = self.key_pos(key);
            self.open_round(key, key, quarter, at);
        }
    }

    /// The final-scoring rounds, in the order the final scoring scores their features.
    fn final_plan(&mut self) -> Vec<(SegId, Quarter)> {
        let mut plan = Vec::new();
        if self.rules.count.final_scoring_incomplete == FinalIncomplete::CloistersToo {
            for f in &self.figures {
                let root = self.features.root(f.seg);
                if self.features.segment(f.seg).kind == FeatureKind::Cloister
                    && !plan.contains(&(root, Quarter::Cathedral))
                {
                    plan.push((root, Quarter::Cathedral));
                }
            }
        }
        if self.rules.mechanics.farmers {
            for key in crate::mechanic::base::farm::market_keys(self) {
                plan.push((key, Quarter::Market));
            }
        }
        plan
    }

    // -----------------------------------------------------------------------------------------
    // Decisions.

    /// Who decides and what, for a pending Count decision.
    pub(crate) fn count_decision(&self) -> (usize, DecisionKind) {
        let round = self.count.as_ref().and_then(|c| c.round.as_ref());
        match (self.pending, round) {
            (Pending::CountLeave, Some(r)) => {
                let player = r.seats.get(r.next).copied().unwrap_or(self.active);
                let available = self
                    .count
                    .as_ref()
                    .map_or(0, |c| c.in_quarter(player, r.quarter));
                (
                    player,
                    DecisionKind::CountLeave {
                        quarter: r.quarter,
                        available,
                        x: r.at.x,
                        y: r.at.y,
                    },
                )
            }
            (Pending::CountMove, _) => (self.active, DecisionKind::CountMove),
            (Pending::CountOrder, _) => (self.active, DecisionKind::CountOrder),
            _ => (self.active, DecisionKind::CountQuarter),
        }
    }

    /// The legal answers to a pending Count decision.
    pub(crate) fn count_actions(&self, out: &mut Vec<Action>) {
        let Some(count) = &self.count else { return };
        match self.pending {
            Pending::CountQuarter => {
                out.extend(Quarter::ALL.map(|quarter| Action::Quarter { quarter }));
                out.push(Action::Pass);
            }
            Pending::CountMove => {
                out.extend(
                    Quarter::ALL
                        .into_iter()
                        .filter(|q| *q != count.at)
                        .map(|quarter| Action::Count { quarter }),
                );
                out.push(Action::Pass);
            }
            Pending::CountLeave => {
                if let (player, DecisionKind::CountLeave { quarter, .. }) = self.count_decision() {
                    let n = count.in_quarter(player, quarter);
                    out.extend((1..=n).map(|count| Action::Leave { quarter, count }));
                }
                out.push(Action::Pass);
            }
            Pending::CountOrder => {
                for seg in count.todo.iter().flatten() {
                    let (pos, spot) = self.seg_spot(*seg);
                    out.push(Action::Score { pos, spot });
                }
            }
            _ => {}
        }
    }

    /// `Score` as the legal list writes it: any tile and spot of a feature left to score
    /// names that feature.
    fn count_canonical(&self, action: &Action) -> Action {
        let Action::Score { pos, spot } = *action else {
            return *action;
        };
        let todo = self.count.as_ref().and_then(|c| c.todo.as_ref());
        self.seg_at(pos, spot)
            .and_then(|seg| todo?.iter().find(|t| self.features.same(**t, seg)).copied())
            .map_or(*action, |t| {
                let (pos, spot) = self.seg_spot(t);
                Action::Score { pos, spot }
            })
    }

    /// Checks an answer to a pending Count decision without changing anything.
    pub(crate) fn check_count(&self, action: &Action) -> Result<(), RuleError> {
        let fits = matches!(
            (self.pending, action),
            (Pending::CountQuarter, Action::Quarter { .. } | Action::Pass)
                | (Pending::CountMove, Action::Count { .. } | Action::Pass)
                | (Pending::CountLeave, Action::Leave { .. } | Action::Pass)
                | (Pending::CountOrder, Action::Score { .. })
        );
        if !fits {
            return Err(RuleError::WrongDecision(
                match self.pending {
                    Pending::CountQuarter => {
                        "the Count: put a follower into a quarter (`quarter = \"castle\"`) or `pass = true` (CO-1)"
                    }
                    Pending::CountMove => {
                        "the Count: move the Count (`count = \"market\"`) or `pass = true` (CO-2)"
                    }
                    Pending::CountLeave => {
                        "the Count: move followers out of the quarter (`leave = [\"castle\", 1]`) or `pass = true` (CO-5)"
                    }
                    _ => "the Count: choose the feature scored next (`score = [x, y, \"N\"]`)",
                }
                .to_string(),
            ));
        }
        let mut legal = Vec::new();
        self.count_actions(&mut legal);
        if legal.contains(&self.count_canonical(action)) {
            return Ok(());
        }
        Err(RuleError::Illegal(format!(
            "{} is not among the legal choices: {}",
            describe(action),
            legal.iter().map(describe).collect::<Vec<_>>().join(", ")
        )))
    }

    /// Applies a checked answer to a pending Count decision.
    pub(crate) fn count_apply(&mut self, action: &Action, events: &mut Vec<Event>) {
        let action = self.count_canonical(action);
        let (player, _) = self.count_decision();
        let pending = self.pending;
        let chosen = match action {
            Action::Score { pos, spot } => self.seg_at(pos, spot).and_then(|seg| {
                let todo = self.count.as_ref()?.todo.as_ref()?;
                todo.iter().find(|t| self.features.same(**t, seg)).copied()
            }),
            _ => None,
        };
        // The feature the round under way feeds: its key, where it is, what it is.
        let round = self.count.as_ref().and_then(|c| c.round.as_ref()).map(|r| {
            let kind = if r.key == CITY {
                FeatureKind::Field
            } else {
                self.features.segment(r.key).kind
            };
            (r.key, r.at, kind)
        });
        let Some(count) = self.count.as_mut() else {
            return;
        };
        match (pending, action) {
            (Pending::CountQuarter, Action::Quarter { quarter }) => {
                self.supply[player][FigureKind::Follower as usize] -= 1;
                count.quarters[player][quarter as usize] += 1;
                count.end = EndStep::MoveCount;
                events.push(Event::FollowerIntoQuarter { player, quarter });
            }
            (Pending::CountMove, Action::Count { quarter }) => {
                count.at = quarter;
                count.end = EndStep::Nothing;
                events.push(Event::CountMoved { player, quarter });
            }
            (Pending::CountQuarter | Pending::CountMove, _) => count.end = EndStep::Nothing,
            (Pending::CountLeave, Action::Leave { quarter, count: n }) => {
                count.quarters[player][quarter as usize] -= n;
                if let Some(r) = count.round.as_mut() {
                    r.next += 1;
                }
                if let Some((key, at, feature)) = round {
                    count.moving.push(Moving {
                        player,
                        key,
                        at,
                        quarter,
                        count: n,
                    });
                    events.push(Event::FollowersLeftQuarter {
                        player,
                        quarter,
                        count: n,
                        feature,
                        x: at.x,
                        y: at.y,
                    });
                }
            }
            (Pending::CountLeave, _) => {
                if let Some(r) = count.round.as_mut() {
                    r.next += 1;
                }
            }
            (Pending::CountOrder, _) => count.next = chosen,
            _ => {}
        }
    }
}
