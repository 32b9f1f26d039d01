//! The fairy (RULES.md §2.7, FA1–FA12): moved instead of deploying, it bars the dragon from its
//! tile, gives a point at the start of a turn and 3 points when its follower's feature is scored.

use serde::Deserialize;

/// `pd.fairy.attach` (§3.1 #18).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attach {
    /// The fairy stands on a tile where the player has a follower (RGG 2005, Devir, old ZMG).
    Tile,
    /// The fairy stands next to one of the player's followers (ZMG new edition, HiG).
    #[default]
    Follower,
}

/// `pd.fairy.bonus_claim` (§3.1 #22).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusClaim {
    /// The turn point is paid automatically.
    #[default]
    Automatic,
    /// House rule: the player must claim it at the start of his turn (`claim = true`).
    ClaimBeforePass,
}

/// `pd.fairy.scoring_bonus_when` (§3.1 #24).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusWhen {
    /// Whenever the feature is scored, during the game or at the end.
    #[default]
    AnyScoring,
    /// Only when it is completed during the game.
    CompletedOnly,
}

/// `pd.fairy.move_condition` (§3.1 #28).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveCondition {
    /// Whenever the player places no follower (RGG 2005, Devir).
    NoFollowerPlaced,
    /// The fairy move is the turn's whole deploy action (ZMG, HiG).
    #[default]
    NoFigureAction,
}

/// `[pd.fairy]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FairyRules {
    /// Where the fairy stands.
    pub attach: Attach,
    /// Points at the start of a turn (FA7).
    pub turn_bonus: u32,
    /// The turn point at most once per turn (§3.1 #21; matters with builder double turns).
    pub turn_bonus_once_per_turn: bool,
    /// Automatic or claimed turn point.
    pub bonus_claim: BonusClaim,
    /// Points when the fairy's feature is scored (FA8).
    pub scoring_bonus: u32,
    /// Which scorings pay the bonus.
    pub scoring_bonus_when: BonusWhen,
    /// Tile mode: the bonus needs a follower of the player in the scored feature (A5).
    pub tile_mode_requires_follower_in_feature: bool,
    /// The dragon cannot enter the fairy's tile (FA6).
    pub blocks_dragon: bool,
    /// Figures on the fairy's tile are never eaten (FA6, house rule A22).
    pub protects_tile: bool,
    /// When the fairy may move (FA2).
    pub move_condition: MoveCondition,
    /// The fairy needs a follower of the player on the board (FA4).
    pub needs_follower_on_board: bool,
    /// An abbot recalled early gets the bonus (§3.1 #30; no abbot yet).
    pub abbot_recall_bonus: bool,
    /// The fairy protects against tower capture (§3.1 #31; no tower yet).
    pub protects_from_tower: bool,
    /// The fairy may stand by a follower on a tower (§3.1 #32; no tower yet).
    pub allow_tower_follower: bool,
    /// Follower mode: it may move to another follower on the same tile (A17).
    pub reassign_same_tile: bool,
    /// Fairy moves per half turn (§3.1 #40b; matters with builder double turns).
    pub moves_per_half_turn: u32,
}

impl Default for FairyRules {
    fn default() -> Self {
        FairyRules {
            attach: Attach::Follower,
            turn_bonus: 1,
            turn_bonus_once_per_turn: true,
            bonus_claim: BonusClaim::Automatic,
            scoring_bonus: 3,
            scoring_bonus_when: BonusWhen::AnyScoring,
            tile_mode_requires_follower_in_feature: true,
            blocks_dragon: true,
            protects_tile: true,
            move_condition: MoveCondition::NoFigureAction,
            needs_follower_on_board: true,
            abbot_recall_bonus: false,
            protects_from_tower: false,
            allow_tower_follower: true,
            reassign_same_tile: true,
            moves_per_half_turn: 1,
        }
    }
}

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
        let n = self.board.oriented(&self.rules, placed).features.len() as u32;
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
