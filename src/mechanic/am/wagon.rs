//! The wagon (RULES-MORE.md AM-10..AM-14): a follower of strength 1 for roads, cities and
//! cloisters (its figure-table row; never a field, AM-10). When its feature is completed and
//! scored it goes home like any follower (B-M3) and is then offered a move: its owner may put
//! it straight back on an adjacent feature that is unoccupied and incomplete (AM-11; completed
//! features are excluded, Q-AM3), or pass and keep it in supply (AM-12). "Adjacent" is
//! `am.wagon.move`'s: the 8 tiles around (`"C2"`) or the connected features (`"C1"`). Several wagons
//! scored in one turn are decided one by one in turn order from the active player, after all
//! of that turn's scoring (AM-12, Q-AM2). The move is no deployment: it comes after scoring,
//! whatever the player deployed earlier in the turn (AM-13). A wagon the dragon eats was not
//! scored, so it does not move.

use super::rules::{WagonMove, WagonRules};
use super::vocabulary::{AmAction, AmDecision, AmEvent};
use crate::data::ruleset::Ruleset;
use crate::engine::action::{Action, Decision};
use crate::engine::event::{Event, ReturnReason};
use crate::engine::game::{Game, RuleError};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Then};
use crate::engine::refusal::RuleId;
use crate::model::feature::SegId;
use crate::model::figure::{Departure, FigureKind, Kinds};
use crate::model::geometry::Pos;
use crate::model::tile::{FeatureDef, FeatureKind};

/// The wagons' moves (`[mechanics] abbey_mayor`).
#[derive(Debug)]
pub struct Wagons {
    /// Its index in the game's list.
    id: u8,
    /// The figure kinds whose row calls them wagons (`follower = "wagon"`).
    wagons: Kinds,
    /// `[am.wagon]`.
    rules: WagonRules,
}

/// A scored wagon waiting for its owner's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Waiting {
    /// Seat.
    owner: usize,
    /// Its figure kind.
    kind: FigureKind,
    /// The segment it stood on.
    from: SegId,
}

/// The wagons scored this turn, in the order they went home.
#[derive(Clone, Debug, Default)]
struct Scored {
    /// The turn they belong to.
    turn: u32,
    /// The wagons still to decide.
    waiting: Vec<Waiting>,
}

crate::own_state!(Scored);

impl Wagons {
    /// The wagons' moves under `rules`' figure table and `[am.wagon]`; `id` is its index.
    pub fn new(rules: &Ruleset, id: u8, wagon: WagonRules) -> Wagons {
        Wagons {
            id,
            wagons: rules.figures.kinds(|r| r.is("wagon")),
            rules: wagon,
        }
    }

    /// The wagon deciding now, if any.
    fn next(g: &Game) -> Option<Waiting> {
        (g.slots.get::<Scored>())
            .filter(|s| s.turn == g.turn())
            .and_then(|s| s.waiting.first().copied())
    }

    /// Every legal move of the wagon `w` (AM-11, `am.wagon.move`).
    fn moves(&self, g: &Game, w: Waiting, out: &mut Vec<Action>) {
        match self.rules.moves {
            WagonMove::C1 => connected(g, w, out),
            WagonMove::C2 => around(g, w, out),
        }
    }

    /// Puts this turn's waiting wagons in turn order from the active player (AM-12) and drops
    /// those with nowhere to go (they stay home); whether one is left to decide.
    fn settle(&self, g: &mut Game) -> bool {
        let (turn, active, seats) = (g.turn(), g.active, g.scores.len().max(1));
        let Some(mut scored) = g.slots.get_mut::<Scored>().map(std::mem::take) else {
            return false;
        };
        if scored.turn != turn {
            scored.waiting.clear();
        }
        scored
            .waiting
            .sort_by_key(|w| (w.owner + seats - active) % seats);
        let mut list = Vec::new();
        scored.waiting.retain(|w| {
            list.clear();
            self.moves(g, *w, &mut list);
            !list.is_empty()
        });
        let left = !scored.waiting.is_empty();
        g.slots.set(scored);
        left
    }
}

/// The moves of the wagon `w` under `"C2"`: any road, city or cloister it may stand on, on
/// the tile it stood on or on the eight around, that holds no figure and is not complete.
fn around(g: &Game, w: Waiting, out: &mut Vec<Action>) {
    let Some(row) = g.rules.figures.row(w.kind) else {
        return;
    };
    let centre = g.seg_pos(w.from);
    for dy in -1..=1 {
        for dx in -1..=1 {
            let pos = Pos::new(centre.x + dx, centre.y + dy);
            let Some(placed) = g.board.at(pos) else {
                continue;
            };
            for seg in g.tile_segs(placed) {
                let kind = g.features.segment(seg).kind;
                let open = kind != FeatureKind::Field
                    && row.stands_on.on(kind)
                    && g.features.totals(seg).followers == 0
                    && !g.is_complete(seg);
                if open {
                    let spot = g.seg_spot(seg).1;
                    out.push(AmAction::Wagon { pos, spot }.into());
                }
            }
        }
    }
}

/// The moves of the wagon `w` under `"C1"`: on each tile of the feature it left, the features
/// connected to it there ([`links`]) that it may stand on, that hold no figure and are not
/// complete.
fn connected(g: &Game, w: Waiting, out: &mut Vec<Action>) {
    let Some(row) = g.rules.figures.row(w.kind) else {
        return;
    };
    // A wagon decision is rare: its feature's segments are looked for over the whole board.
    let members = (0..g.features.len() as SegId).filter(|s| g.features.same(*s, w.from));
    for m in members {
        let s = *g.features.segment(m);
        let tile = g.board.placed(s.placed);
        let (pos, base) = (tile.pos, tile.seg_base);
        let features = &g.board.oriented(&g.rules.tiles, s.placed).features;
        let linked = links(features, usize::from(s.feature));
        for (i, f) in features
            .iter()
            .enumerate()
            .filter(|(i, _)| linked >> i & 1 != 0)
        {
            let seg = base + i as u32;
            let open = row.stands_on.on(f.kind)
                && g.features.totals(seg).followers == 0
                && !g.is_complete(seg);
            let action = AmAction::Wagon {
                pos,
                spot: g.seg_spot(seg).1,
            }
            .into();
            if open && !out.contains(&action) {
                out.push(action);
            }
        }
    }
}

/// The features of one tile (`features`) connected to its feature `i` for a wagon (AM-11
/// `"C1"`), as a set (bit `j` for feature `j`): the cities a road runs into and the roads that
/// run into a city (`leads_to`); a road stub and the tile's cloister, which it ends at; the
/// other stubs of a crossing (a tile with three or more stubs, no cloister and no `leads_to`).
/// Two cities never connect.
fn links(features: &[FeatureDef], i: usize) -> u32 {
    let Some(me) = features.get(i) else {
        return 0;
    };
    let is_stub = |f: &FeatureDef| f.kind == FeatureKind::Road && f.edges.count_ones() == 1;
    let set = |keep: &dyn Fn(&FeatureDef) -> bool| {
        (features.iter().enumerate())
            .filter(|(_, f)| keep(f))
            .fold(0u32, |set, (j, _)| set | 1 << j)
    };
    let stubs = set(&is_stub);
    let cloister = set(&|f| f.kind == FeatureKind::Cloister);
    let runs_in = set(&|f| f.leads_to >> i & 1 != 0);
    let mut linked = u32::from(me.leads_to) | runs_in;
    if me.kind == FeatureKind::Cloister {
        linked |= stubs;
    } else if is_stub(me) && cloister != 0 {
        linked |= cloister;
    } else if is_stub(me) && stubs.count_ones() >= 3 && set(&|f| f.leads_to != 0) == 0 {
        linked |= stubs & !(1 << i);
    }
    linked
}

impl Mechanic for Wagons {
    fn name(&self) -> &'static str {
        "wagon"
    }

    fn hooks(&self) -> Hooks {
        Hooks::STAGE | Hooks::ACTIONS | Hooks::FIGURE_LEFT
    }

    fn phases(&self) -> &[Phase] {
        &[Phase::AfterScore]
    }

    /// After all of the turn's scoring: the next scored wagon's owner decides (AM-11, AM-12).
    fn stage(&self, g: &mut Game, _phase: Phase, _events: &mut Vec<Event>) -> Option<Asked> {
        self.settle(g).then_some(Asked {
            by: self.id,
            kind: 0,
        })
    }

    fn decision(&self, g: &Game, _asked: Asked) -> Option<Decision> {
        let w = Wagons::next(g)?;
        let at = g.seg_pos(w.from);
        Some(Decision {
            player: w.owner,
            kind: AmDecision::Wagon { x: at.x, y: at.y }.into(),
        })
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        if asked.by == self.id {
            if let Some(w) = Wagons::next(g) {
                self.moves(g, w, out);
            }
        }
    }

    /// AM-12: the owner may leave the wagon in supply.
    fn may_pass(&self, _g: &Game, _asked: Asked) -> bool {
        true
    }

    fn hint(&self, _asked: Asked) -> &'static str {
        "the wagon: move it on (`wagon = [x, y, \"N\"]`) or `pass = true` (AM-11)"
    }

    fn canonical(&self, g: &Game, action: &Action) -> Option<Action> {
        let Some(AmAction::Wagon { pos, spot }) = AmAction::of(action) else {
            return None;
        };
        Some(
            AmAction::Wagon {
                pos,
                spot: g.canonical_spot(pos, spot),
            }
            .into(),
        )
    }

    fn check(&self, g: &Game, _asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        let Some(AmAction::Wagon { .. }) = AmAction::of(action) else {
            return None;
        };
        Some(g.check_listed(action, RuleId("AM-11")))
    }

    /// The wagon deciding now moves (or, on a pass, stays home); the stage asks for the next.
    fn apply(
        &self,
        g: &mut Game,
        _asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        let w = Wagons::next(g)?;
        if let Some(scored) = g.slots.get_mut::<Scored>() {
            scored.waiting.remove(0);
        }
        if let Some(AmAction::Wagon { pos, spot }) = AmAction::of(action) {
            move_to(g, w, pos, spot, events);
        }
        Some(Then::Again)
    }

    /// A wagon scored with its feature waits for its owner's decision (AM-11); one that went
    /// home for any other reason (eaten, removed) does not move.
    fn figure_left(&self, g: &mut Game, left: &Departure, reason: ReturnReason) {
        let Some(figure) = left.on_feature() else {
            return;
        };
        if reason != ReturnReason::Scored || !self.wagons.contains(figure.kind) {
            return;
        }
        let turn = g.turn();
        let scored = g.slots.entry::<Scored>();
        if scored.turn != turn {
            *scored = Scored {
                turn,
                waiting: Vec::new(),
            };
        }
        scored.waiting.push(Waiting {
            owner: figure.owner,
            kind: figure.kind,
            from: figure.seg,
        });
    }
}

/// Puts the wagon `w` from its owner's supply onto the feature at `spot` of the tile at `pos`.
fn move_to(
    g: &mut Game,
    w: Waiting,
    pos: Pos,
    spot: crate::model::geometry::Spot,
    events: &mut Vec<Event>,
) {
    let Some(seg) = g.seg_at(pos, spot) else {
        return;
    };
    if let Some(n) = g.supply_mut(w.owner, w.kind) {
        *n = n.saturating_sub(1);
    }
    g.put_figure(w.owner, w.kind, seg);
    events.push(
        AmEvent::WagonMoved {
            player: w.owner,
            feature: g.features.segment(seg).kind,
            x: pos.x,
            y: pos.y,
            spot: g.seg_spot(seg).1,
        }
        .into(),
    );
}

impl Shortcuts for Wagons {}
