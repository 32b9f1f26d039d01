//! The princess (RULES.md §2.6, PR1–PR8): a princess tile that continues an occupied city lets
//! its placer send one knight of that city home, after which his deployment is restricted.

use super::rules::{BigFollower, Removal, RemovalBlocks};
use super::vocabulary::{PdAction, PdDecision};
use crate::data::printed::PRINCESS;
use crate::engine::action::{Action, Decision};
use crate::engine::event::Event;
use crate::engine::game::{Game, RuleError};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Then};
use crate::engine::refusal::{Refusal, RuleId};
use crate::mechanic::pd::rules::PdRules;
use crate::mechanic::pd::vocabulary::{self, sent_home};
use crate::model::feature::SegId;
use crate::model::figure::{Figure, FigureKind, FigureTable, Kinds};
use crate::model::tile::{FeatureKind, MAX_TILE_FEATURES};

/// The princess.
#[derive(Debug)]
pub struct Princess {
    id: u8,
    /// The figure kinds she removes as knights (their rows' `princess`, PR2).
    knights: Kinds,
}

impl Princess {
    /// The princess as mechanic number `id` of a game whose figure table is `table` (its rows
    /// say which kinds are knights).
    pub fn new(id: u8, table: &FigureTable) -> Princess {
        Princess {
            id,
            knights: table.kinds(|r| r.can("princess")),
        }
    }

    /// The knights (by `pd.princess.knight_kinds`) in the city of the princess on the tile
    /// laid this turn that she may send home (PR3; a big follower only when it is the city's
    /// one knight under `pd.princess.big_follower = "only_if_alone"`, A16).
    fn knights(&self, g: &Game) -> Vec<Figure> {
        let mut knights = self.city_knights(g);
        let table = &g.rules.figures;
        if PdRules::of(&g.rules).princess.big_follower == BigFollower::OnlyIfAlone
            && knights.len() > 1
        {
            knights.retain(|f| !table.is(f.kind, "big"));
        }
        knights
    }

    /// Every knight in the city of the princess on the tile laid this turn.
    fn city_knights(&self, g: &Game) -> Vec<Figure> {
        let Some((base, mut princess)) = princess_cities(g) else {
            return Vec::new();
        };
        // The features of her cities, each found once rather than for every figure.
        let mut roots = [0; MAX_TILE_FEATURES];
        let mut n = 0;
        while princess != 0 {
            roots[n] = g.features.root(base + princess.trailing_zeros());
            princess &= princess - 1;
            n += 1;
        }
        let roots = &roots[..n];
        // Only a figure on a city can be in hers: the others need no walk to their feature.
        let in_her_city = |f: &Figure| {
            g.features.segment(f.seg).kind == FeatureKind::City
                && roots.contains(&g.features.root(f.seg))
        };
        g.figures
            .iter()
            .filter(|f| self.knights.contains(f.kind) && in_her_city(f))
            .copied()
            .collect()
    }

    /// PR3: her decision, when a knight of her city may be sent home. Out of line, as few
    /// tiles show her: the look at every tile laid stays short.
    #[cold]
    fn offer(&self, g: &Game) -> Option<Asked> {
        (!self.knights(g).is_empty()).then_some(Asked {
            by: self.id,
            kind: 0,
        })
    }

    /// PR3: sends the knight at the checked spot home; PR5 restricts the rest of the turn.
    fn remove(&self, g: &mut Game, action: &Action, events: &mut Vec<Event>) {
        let Some(PdAction::Remove { pos, spot }) = PdAction::of(action) else {
            return;
        };
        let Some(seg) = g.seg_at(pos, spot) else {
            return;
        };
        let Some(id) = g.figures.iter().find(|f| f.seg == seg).map(|f| f.id) else {
            return;
        };
        g.return_figures(|_, f| f.id == id, sent_home(vocabulary::PRINCESS), events);
        let turn = g.turn;
        g.slots.entry::<Removed>().on = Some(turn);
    }
}

/// The princess's own state: the turn on which she removed a knight (PR5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Removed {
    on: Option<u32>,
}

crate::own_state!(Removed);

/// Whether the princess removed a knight this turn (PR5).
pub fn removed_this_turn(g: &Game) -> bool {
    g.slots
        .get::<Removed>()
        .is_some_and(|r| r.on == Some(g.turn))
}

/// The princess cities of the tile laid this turn: its first segment, and one bit per feature
/// (a tile has at most 16) for those that show the princess; `None` when none does (on most
/// tiles, where no figure needs looking at).
fn princess_cities(g: &Game) -> Option<(SegId, u16)> {
    let placed = g.now.placed?;
    let o = g.board.oriented(&g.rules.tiles, placed);
    let mut princess = 0u16;
    let mut counted = o.counted;
    while counted != 0 {
        let i = counted.trailing_zeros() as usize;
        counted &= counted - 1;
        let f = &o.features[i];
        if f.kind == FeatureKind::City && f.counters.get(PRINCESS) > 0 {
            princess |= 1 << i;
        }
    }
    (princess != 0).then(|| (g.board.placed(placed).seg_base, princess))
}

impl Mechanic for Princess {
    fn name(&self) -> &'static str {
        "princess"
    }

    fn hooks(&self) -> Hooks {
        Hooks::STAGE | Hooks::ACTIONS | Hooks::DEPLOY | Hooks::CLOSES
    }

    fn phases(&self) -> &[Phase] {
        &[Phase::AfterPlace]
    }

    fn stage(&self, g: &mut Game, _phase: Phase, _events: &mut Vec<Event>) -> Option<Asked> {
        // Most tiles show no princess: no knight to look for.
        princess_cities(g)?;
        self.offer(g)
    }

    fn decision(&self, g: &Game, _asked: Asked) -> Option<Decision> {
        Some(Decision {
            player: g.active,
            kind: PdDecision::Princess.into(),
        })
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        if asked.by != self.id {
            return;
        }
        for f in self.knights(g) {
            let (pos, spot) = g.figure_spot(&f);
            out.push(PdAction::Remove { pos, spot }.into());
        }
    }

    fn may_pass(&self, g: &Game, _asked: Asked) -> bool {
        PdRules::of(&g.rules).princess.removal == Removal::May
    }

    fn hint(&self, _asked: Asked) -> &'static str {
        "the princess: remove a knight (`remove = [x, y, \"N\"]`) or `pass = true` if allowed"
    }

    /// A knight's spot as the legal list writes it: the canonical spot of its feature.
    fn canonical(&self, g: &Game, action: &Action) -> Option<Action> {
        match PdAction::of(action) {
            Some(PdAction::Remove { pos, spot }) => Some(
                PdAction::Remove {
                    pos,
                    spot: g.canonical_spot(pos, spot),
                }
                .into(),
            ),
            _ => None,
        }
    }

    /// Its decision's answers reach it alone (the engine routes them).
    fn check(&self, g: &Game, _asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        let removal = *action == Action::Pass
            || matches!(PdAction::of(action), Some(PdAction::Remove { .. }));
        removal.then(|| g.check_listed(action, RuleId("PR3")))
    }

    fn apply(
        &self,
        g: &mut Game,
        _asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        self.remove(g, action, events);
        Some(Then::Next)
    }

    /// PR5 under `removal_blocks = "all_figures_and_fairy"`: after a removal nothing is done
    /// at deployment (no figure, no fairy move, no abbot recalled).
    fn deploy_closed(&self, g: &Game) -> bool {
        // Asked whenever the fairy may move: a removal is rare, so it is looked for first.
        removed_this_turn(g)
            && PdRules::of(&g.rules).princess.removal_blocks == RemovalBlocks::AllFiguresAndFairy
    }

    /// PR5: after a removal, nothing (or nothing on the princess's tile) may be deployed.
    fn deploy_problem(
        &self,
        g: &Game,
        _seg: SegId,
        figure: FigureKind,
        own_tile: bool,
    ) -> Option<Refusal> {
        if !removed_this_turn(g) {
            return None;
        }
        let follower = || {
            g.rules
                .figures
                .row(figure)
                .is_some_and(|r| r.has_tag("follower"))
        };
        match PdRules::of(&g.rules).princess.removal_blocks {
            RemovalBlocks::AllFiguresAndFairy => Some(Refusal::new(
                "PR5",
                "the princess removed a knight this turn, so nothing may be deployed",
            )),
            RemovalBlocks::FollowerOnTile if own_tile && follower() => Some(Refusal::new(
                "PR5",
                "the princess removed a knight this turn, so no follower may go on her tile",
            )),
            RemovalBlocks::FollowerOnTile => None,
        }
    }
}

impl Shortcuts for Princess {
    fn vetoes_deploy(&self, g: &Game) -> bool {
        removed_this_turn(g)
    }
}
