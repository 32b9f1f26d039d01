//! Traders & Builders (RULES.md §1.10, B-M3, B-E2; \[ext:X2\] Wikicarpedia "Traders and
//! Builders", \[ext:X3\] builder details): the builder, the pig and the goods tokens
//! (`[mechanics] traders_builders`).
//!
//! - **Builder** (figure row `builder`): deployed instead of a follower into a road or city of
//!   the new tile that holds one of its owner's followers (the figure table's `joins_own`, checked
//!   by the base game). When its owner later lays a tile that extends that feature he plays a
//!   second tile right after this one (a double turn; the second tile gives none).
//! - **Pig** (figure row `pig`): deployed the same way into a farm holding its owner's farmer. At
//!   the end, under farm-centric scoring, the owner is paid 4 instead of 3 per city of a farm he
//!   wins that holds his pig (`farm_centric_3`, and `farm_centric_3_once` for the cities he may
//!   still collect); under `city_centric_4` the pig changes nothing: T&B states it for the
//!   3-point rules only.
//! - Both are not followers (strength 0; B-M1) and go home with their feature (B-M3) or as soon
//!   as their owner has no follower left in it: the princess removing his last knight (PR7), the
//!   dragon eating it (D8, under `pd.dragon.return_builder_pig`), a script taking it.
//! - **Goods**: whoever completes a city takes its goods tokens, follower or not; at the end the
//!   player(s) with the most tokens of each good score 10 (ties: all of them; B-E2).

pub mod show;
pub mod vocabulary;

use crate::data::printed::Good;
use crate::data::ruleset::Ruleset;
use crate::data::section::{FamilyRules, Switch};
use crate::engine::event::{Event, ReturnReason};
use crate::engine::family::{Descriptor, Lineup};
use crate::engine::game::Game;
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts};
use crate::mechanic::Family;
use crate::mechanic::base::has_own_follower;
use crate::mechanic::base::rules::BaseRules;
use crate::mechanic::base::rules::FarmScoring;
use crate::mechanic::pd::rules::PdRules;
use crate::mechanic::pd::vocabulary as pd;
use crate::model::feature::SegId;
use crate::model::figure::{Departure, Kinds};
use crate::model::geometry::Pos;
use crate::model::tile::FeatureKind;
use vocabulary::TbEvent;

/// Traders & Builders as the registry lists it: `[mechanics] traders_builders`, its events,
/// the builder and the pig.
pub const FAMILY: Family = Family {
    core: Descriptor {
        name: "tb",
        rules: FamilyRules {
            switches: &[Switch {
                name: "traders_builders",
                default: false,
            }],
            section: None,
        },
        vocabulary: Some(vocabulary::words),
        figures: &["builder", "pig"],
        build,
    },
    show: Some(&show::Show),
    script: None,
};

/// Puts Traders & Builders into the game's list when switched on (after the P&D figures in
/// the registry: its stages send builders and pigs home after the princess's and the dragon's
/// at the same point of the turn, PR7, D8).
fn build(rules: &Ruleset, list: &mut Lineup) {
    if rules.switched_on("traders_builders") {
        list.push(TradersBuilders::new(rules));
    }
}

/// Points for the majority of one good at the end (\[ext:X2\]).
pub const GOODS_MAJORITY: u32 = 10;

/// Traders & Builders as a mechanic.
#[derive(Debug)]
pub struct TradersBuilders {
    /// The kinds of the figure table tagged `builder`.
    builders: Kinds,
    /// Their places in the figure table (a player's count on the board is kept by them).
    builder_slots: Vec<usize>,
    /// The kinds tagged `pig`.
    pigs: Kinds,
    /// The kinds tagged `follower`.
    followers: Kinds,
}

/// Its state in the game's slot.
#[derive(Clone, Debug, Default)]
struct Trade {
    /// Goods tokens by seat, indexed by [`Good`].
    goods: Vec<[u32; 3]>,
    /// Builders and pigs (by figure id) whose owner lost his last follower in their feature,
    /// with the reason: they go home at the next stage.
    orphans: Vec<(u32, ReturnReason)>,
    /// The goods majorities are paid (final scoring may be asked again after a question).
    paid: bool,
    /// The turn whose tile extended its player's builder (§1.10): that player plays again.
    doubled: Option<u32>,
}

crate::own_state!(Trade);

impl TradersBuilders {
    /// Traders & Builders with the figure kinds of `rules`' table read once.
    pub fn new(rules: &Ruleset) -> TradersBuilders {
        let table = &rules.figures;
        TradersBuilders {
            builders: table.kinds(|r| r.has_tag("builder")),
            builder_slots: table.slots(|r| r.has_tag("builder")),
            pigs: table.kinds(|r| r.has_tag("pig")),
            followers: table.kinds(|r| r.has_tag("follower")),
        }
    }

    fn state<'g>(&self, g: &'g mut Game) -> Option<&'g mut Trade> {
        g.slots.get_mut::<Trade>()
    }

    /// Whether the active player's builder stands in a road or city of the tile just laid.
    fn extends_builder(&self, g: &Game) -> bool {
        let Some(placed) = g.now.placed else {
            return false;
        };
        // The engine counts each player's figures on the board by kind.
        if g.on_board(g.active, &self.builder_slots) == 0 {
            return false;
        }
        g.figures
            .iter()
            .filter(|f| f.owner == g.active && self.builders.contains(f.kind))
            .any(|f| g.tile_segs(placed).any(|seg| g.features.same(seg, f.seg)))
    }

    /// Sends home the builders and pigs that lost their owner's last follower.
    fn return_orphans(&self, g: &mut Game, events: &mut Vec<Event>) {
        let Some(orphans) = self.state(g).map(|s| std::mem::take(&mut s.orphans)) else {
            return;
        };
        for (id, reason) in orphans {
            g.return_figures(|_, f| f.id == id, reason, events);
        }
    }
}

/// The goods tokens each player holds, by seat and [`Good`] (none without Traders & Builders).
pub fn goods(g: &Game) -> Vec<[u32; 3]> {
    g.slots
        .get::<Trade>()
        .map(|s| s.goods.clone())
        .unwrap_or_default()
}

impl Mechanic for TradersBuilders {
    fn name(&self) -> &'static str {
        "traders_builders"
    }

    fn hooks(&self) -> Hooks {
        Hooks::SETUP
            | Hooks::STAGE
            | Hooks::PLACED
            | Hooks::EXTRA_TURN
            | Hooks::FIGURE_LEFT
            | Hooks::SCORED
            | Hooks::FARM
            | Hooks::FINAL
    }

    /// After each point where figures can leave the board (the princess and the dragon after
    /// the tile, the dragon before or after scoring, scripts at the end of the turn).
    fn phases(&self) -> &[Phase] {
        &[
            Phase::AfterPlace,
            Phase::AfterDeploy,
            Phase::AfterScore,
            Phase::TurnEnd,
        ]
    }

    fn setup(&self, g: &mut Game, _events: &mut Vec<Event>) {
        let trade = Trade {
            goods: vec![[0; 3]; g.scores.len()],
            ..Trade::default()
        };
        g.slots.set(trade);
    }

    fn stage(&self, g: &mut Game, _phase: Phase, events: &mut Vec<Event>) -> Option<Asked> {
        self.return_orphans(g, events);
        None
    }

    /// The double turn (§1.10): a first tile that extends the player's builder's road or city.
    fn placed(&self, g: &mut Game, events: &mut Vec<Event>) {
        if g.is_extra_turn() || !self.extends_builder(g) {
            return;
        }
        let turn = g.turn;
        if let Some(trade) = self.state(g) {
            trade.doubled = Some(turn);
        }
        let pos = g
            .now
            .placed
            .map_or(Pos::new(0, 0), |p| g.board.placed(p).pos);
        events.push(
            TbEvent::DoubleTurn {
                player: g.active,
                x: pos.x,
                y: pos.y,
            }
            .into(),
        );
    }

    fn extra_turn(&self, g: &mut Game) -> bool {
        self.gives_extra_turn(g)
    }

    fn gives_extra_turn(&self, g: &Game) -> bool {
        g.slots
            .get::<Trade>()
            .is_some_and(|t| t.doubled == Some(g.turn))
    }

    /// A follower left: its owner's builders and pigs in that feature go home with his last
    /// follower there (PR7; D8 under `pd.dragon.return_builder_pig`). Scoring sends the whole
    /// feature home by itself (B-M3).
    fn figure_left(&self, g: &mut Game, left: &Departure, reason: ReturnReason) {
        let Some(figure) = left.on_feature() else {
            return;
        };
        let knock_on = match reason {
            pd::EATEN => PdRules::of(&g.rules).dragon.return_builder_pig,
            pd::PRINCESS | ReturnReason::Script => true,
            _ => false,
        };
        // The princess sends the follower home (PR3); what goes with it goes by PR7.
        let reason = match reason {
            pd::PRINCESS => pd::sent_home(pd::LAST_FOLLOWER),
            other => other,
        };
        if !knock_on
            || !self.followers.contains(figure.kind)
            || has_own_follower(g, figure.owner, figure.seg)
        {
            return;
        }
        let left: Vec<u32> = g
            .figures
            .iter()
            .filter(|f| f.owner == figure.owner && g.features.same(f.seg, figure.seg))
            .filter(|f| g.rules.figures.row(f.kind).is_some_and(|r| r.joins_own))
            .map(|f| f.id)
            .collect();
        if let Some(s) = self.state(g) {
            s.orphans.extend(left.into_iter().map(|id| (id, reason)));
        }
    }

    /// Goods: the player who completed a city takes its tokens.
    fn feature_scored(&self, g: &mut Game, seg: SegId, completed: bool, events: &mut Vec<Event>) {
        if !completed || g.features.segment(seg).kind != FeatureKind::City {
            return;
        }
        let tokens = g.features.totals(seg).counters;
        let player = g.active;
        for good in Good::ALL {
            let count = u32::from(tokens.get(good.counter()));
            if count == 0 {
                continue;
            }
            if let Some(held) = self.state(g).and_then(|s| s.goods.get_mut(player)) {
                held[good as usize] += count;
            }
            events.push(
                TbEvent::GoodsTaken {
                    player,
                    good,
                    count,
                }
                .into(),
            );
        }
    }

    /// The pig: 4 instead of 3 per city for its owner in a farm he wins (farm-centric scoring).
    fn farm_points(&self, g: &mut Game, farm: SegId, player: usize, cities: u32, points: &mut u32) {
        if BaseRules::of(&g.rules).farm_scoring == FarmScoring::CityCentric4 {
            return;
        }
        let pig = g.figures.iter().any(|f| {
            f.owner == player && self.pigs.contains(f.kind) && g.features.same(f.seg, farm)
        });
        if pig {
            *points += cities;
        }
    }

    /// B-E2: after features and farms, 10 points for the majority of each good.
    fn final_scoring(&self, g: &mut Game, events: &mut Vec<Event>) -> Option<Asked> {
        match self.state(g) {
            Some(s) if !s.paid => s.paid = true,
            _ => return None,
        }
        let held = goods(g);
        for good in Good::ALL {
            let best = held.iter().map(|h| h[good as usize]).max().unwrap_or(0);
            if best == 0 {
                continue;
            }
            for (player, h) in held.iter().enumerate() {
                if h[good as usize] == best {
                    let event = TbEvent::GoodsMajority {
                        player,
                        good,
                        held: best,
                        points: GOODS_MAJORITY,
                    };
                    g.credit(player, GOODS_MAJORITY, event.into(), events);
                }
            }
        }
        None
    }
}

impl Shortcuts for TradersBuilders {}
