//! The barn (RULES-MORE.md AM-15..AM-21): a figure that is no follower, put instead of a
//! follower at a corner of the tile just laid where four tiles meet in one field (AM-15). It
//! stands at that corner (`engine::custody`'s places), never on a feature, so the dragon never
//! eats it and the fairy never guards it; as an answer to the base game's
//! deployment it is the turn's one deploy action, so moving the fairy forbids it, and the
//! princess's removal forbids it where it closes the whole deployment. The volcano bars
//! figures on its tile, not at its corners: a barn may stand there (X-12, Q-AM5).
//!
//! Its scorings reuse the base game's farm scoring (`base::farm`): placing it scores the
//! field's farmers at 3 per completed city and sends them home (AM-16); a later tile that joins
//! farmers to a barn's field scores them at 1 per city (AM-18); at the end each barn field pays
//! its barns' majority 4 per city (AM-19). The pig's bonus follows `am.barn.pig_bonus` (AM-20,
//! Q-AM4). No farmer may be deployed in a barn's field (AM-16), and under
//! `am.barn.allow_second = false` no second barn either (AM-17). AM-21 (castles) needs
//! Bridges, Castles & Bazaars, which castellan does not have.

use super::rules::{BarnRules, PigBonus};
use super::vocabulary::{AmAction, AmEvent};
use crate::data::ruleset::Ruleset;
use crate::engine::action::Action;
use crate::engine::event::Event;
use crate::engine::game::{Game, RuleError, Strength};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Then};
use crate::engine::refusal::{Refusal, RuleId};
use crate::mechanic::base::{DEPLOY, farm};
use crate::model::feature::SegId;
use crate::model::figure::{FigureKind, Place};
use crate::model::geometry::{Edge, Pos};
use crate::model::tile::{FeatureKind, NO_FEATURE};

/// The tag of the barn's figure-table row.
pub const TAG: &str = "barn";

/// The barns (`[mechanics] abbey_mayor` with a row tagged `barn`).
#[derive(Debug)]
pub struct Barns {
    /// The deployment decision, which a barn answers instead of a follower.
    deploy: Asked,
    /// The barn's figure kind.
    barn: FigureKind,
    /// `[am.barn]`.
    rules: BarnRules,
}

/// The barns on the board: the corner each stands at (as [`Place::Corner`] names it) and a
/// segment of its field (the field's root changes as tiles join it). Their owners are kept by
/// the engine's places.
#[derive(Clone, Debug, Default)]
struct Standing {
    barns: Vec<(Pos, SegId)>,
    /// Whether the end-game scoring of the barns was paid (final scoring may run again after
    /// a decision of another rule).
    paid: bool,
}

crate::own_state!(Standing);

impl Barns {
    /// The barns under `rules`' figure table and `[am.barn]`, answering the deployment of the
    /// base game (mechanic number `base`); none when the table has no barn row.
    pub fn new(rules: &Ruleset, base: u8, barn: BarnRules) -> Option<Barns> {
        let row = rules.figures.rows().iter().find(|r| r.has_tag(TAG))?;
        Some(Barns {
            deploy: Asked {
                by: base,
                kind: DEPLOY,
            },
            barn: row.kind,
            rules: barn,
        })
    }

    /// Whether a barn stands in the field of `seg`.
    fn in_field(g: &Game, seg: SegId) -> bool {
        (g.slots.get::<Standing>())
            .is_some_and(|s| s.barns.iter().any(|(_, b)| g.features.same(*b, seg)))
    }

    /// Every corner of the tile just laid where the active player may put a barn (AM-15, AM-17).
    fn corners(&self, g: &Game, out: &mut Vec<Action>) {
        let Some(placed) = g.now.placed else {
            return;
        };
        if g.supply(g.active, self.barn) == 0 || g.deploy_closed() {
            return;
        }
        let p = g.board.placed(placed).pos;
        // A corner where four tiles meet has three of them around the tile just laid.
        if g.board.neighbours(p) < 3 {
            return;
        }
        let halves = &g.board.oriented(&g.rules.tiles, placed).half_feature;
        // Its NE, NW, SE and SW corners, each named as the north-east corner of a tile, with
        // its two half-edges beside each (HALF_NAMES order NL NR EL ER SL SR WL WR): a corner
        // where they touch no field is none of a field.
        let west = p.step(Edge::W);
        let corners = [
            (p, [1, 2]),
            (west, [7, 0]),
            (p.step(Edge::S), [3, 4]),
            (west.step(Edge::S), [5, 6]),
        ];
        for (corner, beside) in corners {
            if beside.iter().any(|h| halves[*h] == NO_FEATURE) {
                continue;
            }
            let Some(field) = g.corner_field(corner) else {
                continue;
            };
            let taken = g.figure_at_place(Place::Corner(corner)).is_some();
            if !taken && (self.rules.allow_second || !Barns::in_field(g, field)) {
                out.push(AmAction::Barn { pos: corner }.into());
            }
        }
    }

    /// Puts the active player's barn at the north-east corner of `pos` (checked) and scores the
    /// field's farmers at once (AM-16).
    fn place(&self, g: &mut Game, pos: Pos, events: &mut Vec<Event>) {
        let Some(field) = g.corner_field(pos) else {
            return;
        };
        let player = g.active;
        if g.put_at(player, self.barn, Place::Corner(pos)).is_err() {
            return;
        }
        g.slots.entry::<Standing>().barns.push((pos, field));
        events.push(
            AmEvent::BarnPlaced {
                player,
                x: pos.x,
                y: pos.y,
            }
            .into(),
        );
        let paid = (3, self.rules.pig_bonus == PigBonus::FarmerScoringsOnly);
        farm::score_farmers_now(g, field, paid, "AM-16 barn placed", events);
    }

    /// AM-18: the fields of the tile laid this turn that now hold farmers and a barn: the
    /// farmers' majority scores 1 per city, and they go home.
    fn joined(&self, g: &mut Game, events: &mut Vec<Event>) {
        let Some(placed) = g.now.placed else {
            return;
        };
        if g.slots.get::<Standing>().is_none_or(|s| s.barns.is_empty()) {
            return;
        }
        let paid = (1, self.rules.pig_bonus == PigBonus::FarmerScoringsOnly);
        for seg in g.tile_segs(placed) {
            let field = g.features.segment(seg).kind == FeatureKind::Field;
            if field && g.features.totals(seg).followers > 0 && Barns::in_field(g, seg) {
                farm::score_farmers_now(g, seg, paid, "AM-18 farmers joined to a barn", events);
            }
        }
    }

    /// AM-19: in each field with barns, the players with the most barns score 4 per completed
    /// city it borders (no pig bonus, AM-20).
    fn final_barns(&self, g: &mut Game, events: &mut Vec<Event>) {
        let barns = match g.slots.get_mut::<Standing>() {
            Some(s) if !s.paid => {
                s.paid = true;
                s.barns.clone()
            }
            _ => return,
        };
        let mut done: Vec<SegId> = Vec::new();
        for &(_, seg) in &barns {
            let root = g.features.root(seg);
            if done.contains(&root) {
                continue;
            }
            done.push(root);
            let mut strength = Strength::new(g.scores.len());
            for &(corner, _) in barns.iter().filter(|(_, s)| g.features.same(*s, root)) {
                let owner = g.figure_at_place(Place::Corner(corner)).map(|(o, _)| o);
                if let Some(s) = owner.and_then(|o| strength.get_mut(o)) {
                    *s += 1;
                }
            }
            let cities = farm::cities_bordered(g, root);
            let at = g.seg_pos(root);
            let rule = "AM-19 barns at the end";
            g.pay(&strength, 4 * cities, FeatureKind::Field, rule, at, events);
        }
    }
}

impl Mechanic for Barns {
    fn name(&self) -> &'static str {
        "barn"
    }

    fn hooks(&self) -> Hooks {
        Hooks::STAGE | Hooks::ACTIONS | Hooks::ADDS | Hooks::DEPLOY | Hooks::FINAL
    }

    fn phases(&self) -> &[Phase] {
        &[Phase::Score]
    }

    /// AM-18, in the turn's scoring step.
    fn stage(&self, g: &mut Game, _phase: Phase, events: &mut Vec<Event>) -> Option<Asked> {
        self.joined(g, events);
        None
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        if asked == self.deploy {
            self.corners(g, out);
        }
    }

    fn check(&self, g: &Game, asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        let Some(AmAction::Barn { pos }) = AmAction::of(action) else {
            return None;
        };
        if asked != self.deploy {
            return None;
        }
        let mut legal = Vec::new();
        self.corners(g, &mut legal);
        if legal.contains(action) {
            return Some(Ok(()));
        }
        let why = if g.deploy_closed() {
            (
                "PR5",
                "the princess removed a knight this turn, so nothing may be deployed",
            )
        } else if g.supply(g.active, self.barn) == 0 {
            ("B-F4", "no barn left in your supply")
        } else if (g.corner_field(pos)).is_some_and(|f| Barns::in_field(g, f)) {
            ("AM-17", "that field already has a barn")
        } else {
            (
                "AM-15",
                "a barn goes on a corner of the tile just laid where four tiles meet in one field",
            )
        };
        Some(Err(RuleError::IllegalAction {
            rule: RuleId(why.0),
            reason: format!(
                "cannot put a barn at the north-east corner of {pos}: {}",
                why.1
            ),
        }))
    }

    fn apply(
        &self,
        g: &mut Game,
        asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        let Some(AmAction::Barn { pos }) = AmAction::of(action) else {
            return None;
        };
        if asked != self.deploy {
            return None;
        }
        self.place(g, pos, events);
        Some(Then::Next)
    }

    /// AM-16: no farmer goes into a field with a barn.
    fn deploy_problem(
        &self,
        g: &Game,
        seg: SegId,
        _figure: FigureKind,
        _own_tile: bool,
    ) -> Option<Refusal> {
        let field = g.features.segment(seg).kind == FeatureKind::Field;
        (field && Barns::in_field(g, seg)).then_some(Refusal::new(
            "AM-16",
            "no farmer may be deployed in a field with a barn",
        ))
    }

    fn final_scoring(&self, g: &mut Game, events: &mut Vec<Event>) -> Option<Asked> {
        self.final_barns(g, events);
        None
    }
}

impl Shortcuts for Barns {
    /// Its barns answer the base game's deployment only.
    fn adds_to(&self, owner: u8) -> bool {
        owner == self.deploy.by
    }

    /// Only a field with a barn refuses anything.
    fn vetoes_deploy(&self, g: &Game) -> bool {
        g.slots
            .get::<Standing>()
            .is_some_and(|s| !s.barns.is_empty())
    }
}
