//! The fairy (RULES.md §2.7, FA1–FA12): moved instead of deploying, it bars the dragon from its
//! tile, gives a point at the start of a turn and 3 points when its follower's feature is scored.

use super::rules::{Attach, BonusClaim, BonusWhen};

use crate::engine::action::Action;
use crate::engine::event::Event;
use crate::engine::game::{Fairy, Game, Pending, RuleError};
use crate::model::feature::SegId;
use crate::model::geometry::{Pos, Spot};
use crate::model::tile::Symbol;

/// The rule named by the fairy's scoring bonus in [`Event::Scored`] (FA8).
pub(crate) const BONUS_RULE: &str = "FA8 fairy bonus";

impl Game {
    fn fairy_on(&self) -> bool {
        self.rules.mechanics.fairy
    }

    /// Whether `player` earns the turn point now (FA7): follower mode, the fairy stands next to
    /// one of his followers; tile mode, he has a follower on the fairy's tile.
    fn fairy_favours(&self, player: usize) -> bool {
        let Some(fairy) = self.fairy else {
            return false;
        };
        match self.rules.pd.fairy.attach {
            Attach::Follower => fairy
                .follower
                .and_then(|id| self.figures.iter().find(|f| f.id == id))
                .is_some_and(|f| f.owner == player),
            Attach::Tile => self.has_follower_on(player, fairy.pos),
        }
    }

    fn has_follower_on(&self, player: usize, pos: Pos) -> bool {
        self.figures
            .iter()
            .any(|f| f.owner == player && self.root_pos(f.seg) == pos)
    }

    /// FA7 at the start of a turn: pay the point, or ask for the claim (house rule A23).
    pub(crate) fn fairy_turn_start(&mut self, events: &mut Vec<Event>) -> Option<Pending> {
        let rules = self.rules.pd.fairy;
        if !self.fairy_on() || rules.turn_bonus == 0 || !self.fairy_favours(self.active) {
            return None;
        }
        match rules.bonus_claim {
            BonusClaim::Automatic => {
                self.pay_fairy_turn_point(events);
                None
            }
            BonusClaim::ClaimBeforePass => Some(Pending::Claim),
        }
    }

    /// Pays the active player the fairy's turn point.
    pub(crate) fn pay_fairy_turn_point(&mut self, events: &mut Vec<Event>) {
        let points = self.rules.pd.fairy.turn_bonus;
        self.scores[self.active] += points;
        events.push(Event::FairyPoint {
            player: self.active,
            points,
        });
    }

    /// Whether the fairy may be moved this turn (FA2, V4, PR5).
    pub(crate) fn fairy_may_move(&self) -> bool {
        self.fairy_on()
            && self.now.placed.is_some()
            && !self.princess_blocks_fairy()
            && (self.rules.pd.volcano.fairy_move || !self.placed_symbol(Symbol::Volcano))
    }

    /// Every legal fairy move (FA3–FA5, A17, A25).
    pub(crate) fn fairy_actions(&self, out: &mut Vec<Action>) {
        if !self.fairy_may_move() {
            return;
        }
        let rules = self.rules.pd.fairy;
        let at = self.fairy.map(|f| f.pos);
        match rules.attach {
            Attach::Follower => {
                let current = self.fairy.and_then(|f| f.follower);
                for f in self.figures.iter().filter(|f| f.owner == self.active) {
                    let (pos, spot) = self.figure_spot(f);
                    let same_tile = at == Some(pos);
                    if current == Some(f.id) || (same_tile && !rules.reassign_same_tile) {
                        continue;
                    }
                    out.push(Action::Fairy {
                        pos,
                        spot: Some(spot),
                    });
                }
            }
            Attach::Tile => {
                let mut tiles: Vec<Pos> = if rules.needs_follower_on_board {
                    self.figures
                        .iter()
                        .filter(|f| f.owner == self.active)
                        .map(|f| self.root_pos(f.seg))
                        .collect()
                } else {
                    self.board.tiles().iter().map(|p| p.pos).collect()
                };
                tiles.sort_unstable();
                tiles.dedup();
                out.extend(
                    tiles
                        .into_iter()
                        .filter(|p| Some(*p) != at)
                        .map(|pos| Action::Fairy { pos, spot: None }),
                );
            }
        }
    }

    /// The fairy move as the legal list writes it: the follower's canonical spot, or no spot in
    /// tile mode.
    pub(crate) fn fairy_canonical(&self, pos: Pos, spot: Option<Spot>) -> Action {
        let spot = match self.rules.pd.fairy.attach {
            Attach::Tile => None,
            Attach::Follower => spot.map(|s| self.seg_at(pos, s).map_or(s, |g| self.seg_spot(g).1)),
        };
        Action::Fairy { pos, spot }
    }

    pub(crate) fn check_fairy(&self, pos: Pos, spot: Option<Spot>) -> Result<(), RuleError> {
        let mut legal = Vec::new();
        self.fairy_actions(&mut legal);
        if legal.contains(&self.fairy_canonical(pos, spot)) {
            return Ok(());
        }
        let why = if !self.fairy_on() {
            "the fairy is switched off in this ruleset"
        } else if !self.fairy_may_move() {
            "the fairy may not move this turn (FA2, V4, PR5)"
        } else if self.rules.pd.fairy.attach == Attach::Follower && spot.is_none() {
            "name the follower: fairy = [x, y, \"N\"] (FA3)"
        } else {
            "the fairy must go to one of your followers (FA3–FA5)"
        };
        Err(RuleError::Illegal(format!(
            "cannot move the fairy to {pos}: {why}"
        )))
    }

    /// Moves the fairy (already checked).
    pub(crate) fn move_fairy(&mut self, pos: Pos, spot: Option<Spot>, events: &mut Vec<Event>) {
        let Action::Fairy { spot, .. } = self.fairy_canonical(pos, spot) else {
            return;
        };
        let follower = spot
            .and_then(|s| self.seg_at(pos, s))
            .and_then(|seg| {
                self.figures
                    .iter()
                    .find(|f| f.seg == seg && f.owner == self.active)
            })
            .map(|f| f.id);
        self.fairy = Some(Fairy { pos, follower });
        events.push(Event::FairyMoved {
            player: self.active,
            x: pos.x,
            y: pos.y,
            spot,
        });
    }

    /// FA8: the fairy's bonus when the feature of `seg` is scored.
    pub(crate) fn fairy_scoring_bonus(
        &mut self,
        seg: SegId,
        completed: bool,
        events: &mut Vec<Event>,
    ) {
        let rules = self.rules.pd.fairy;
        let Some(fairy) = self.fairy else {
            return;
        };
        if !self.fairy_on()
            || rules.scoring_bonus == 0
            || (rules.scoring_bonus_when == BonusWhen::CompletedOnly && !completed)
        {
            return;
        }
        let kind = self.features.segment(seg).kind;
        let at = self.root_pos(seg);
        let mut winners: Vec<usize> = Vec::new();
        match rules.attach {
            Attach::Follower => {
                if let Some(f) = fairy
                    .follower
                    .and_then(|id| self.figures.iter().find(|f| f.id == id))
                    .filter(|f| self.features.same(f.seg, seg))
                {
                    winners.push(f.owner);
                }
            }
            Attach::Tile => {
                let crosses = self.feature_crosses(seg, fairy.pos);
                for f in &self.figures {
                    let on_tile = self.root_pos(f.seg) == fairy.pos;
                    let counts = if rules.tile_mode_requires_follower_in_feature {
                        self.features.same(f.seg, seg)
                    } else {
                        crosses
                    };
                    if on_tile && counts && !winners.contains(&f.owner) {
                        winners.push(f.owner);
                    }
                }
            }
        }
        for player in winners {
            self.award(player, rules.scoring_bonus, kind, BONUS_RULE, at, events);
        }
    }

    /// Whether the feature of `seg` has a part on the tile at `pos`.
    fn feature_crosses(&self, seg: SegId, pos: Pos) -> bool {
        let Some(placed) = self.board.at(pos) else {
            return false;
        };
        let base = self.board.placed(placed).seg_base;
        let n = self
            .board
            .oriented(&self.rules.tiles, placed)
            .features
            .len() as u32;
        (base..base + n).any(|s| self.features.same(s, seg))
    }

    /// FA11: when the fairy's follower leaves, the fairy stays on its tile, unassigned.
    pub(crate) fn fairy_follower_left(&mut self, id: u32) {
        if let Some(fairy) = self.fairy.as_mut()
            && fairy.follower == Some(id)
        {
            fairy.follower = None;
        }
    }
}
