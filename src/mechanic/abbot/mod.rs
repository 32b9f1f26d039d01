//! The Abbot of the new base game (RULES.md §1.10; \[ext:B8\]): a follower for cloisters and
//! gardens only (its figure table row, `src/data/figures.toml`), which its owner may take back
//! instead of deploying: the cloister or garden is scored at once as at the end of the game, and
//! the abbot goes home. The recall answers the base game's deployment, as the fairy's move does,
//! so it is the turn's one deploy action (RULES.md §2.1): a fairy move rules it out, and so does
//! the princess's removal under `pd.princess.removal_blocks = "all_figures_and_fairy"` (PR5).
//! The fairy's +3 for an early recall follows `pd.fairy.abbot_recall_bonus` (FA10), read by the
//! fairy while [`recalling`] says a recall is being scored.

pub mod vocabulary;

use crate::data::ruleset::Ruleset;
use crate::data::section::{FamilyRules, Switch};
use crate::engine::action::Action;
use crate::engine::event::{Event, ReturnReason};
use crate::engine::family::{Descriptor, Lineup};
use crate::engine::game::{Game, RuleError};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Shortcuts, Then};
use crate::engine::refusal::RuleId;
use crate::mechanic::Family;
use crate::mechanic::base::score_feature;
use crate::model::figure::{Figure, Kinds};
use vocabulary::{AbbotAction, AbbotEvent};

/// The Abbot as the registry lists it: `[mechanics] abbot`, the recall and the abbot's figure.
pub const FAMILY: Family = Family {
    core: Descriptor {
        name: "abbot",
        rules: FamilyRules {
            switches: &[Switch {
                name: "abbot",
                default: false,
            }],
            section: None,
        },
        vocabulary: Some(vocabulary::words),
        figures: &["abbot"],
        build,
    },
    show: None,
    script: None,
};

/// Puts the recall into the game's list when `[mechanics] abbot` is on: it answers the base
/// game's deployment.
fn build(rules: &Ruleset, list: &mut Lineup) {
    if rules.switched_on("abbot") {
        if let Some(base) = list.index_of("base") {
            let deploy = Asked {
                by: base,
                kind: crate::mechanic::base::DEPLOY,
            };
            list.push(Abbot::new(rules, deploy));
        }
    }
}

/// The abbot's own state: whether an early recall is being scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Recall {
    scoring: bool,
}

crate::own_state!(Recall);

/// Whether an abbot recalled early is being scored right now (the fairy's FA10 asks).
pub fn recalling(g: &Game) -> bool {
    g.slots.get::<Recall>().is_some_and(|r| r.scoring)
}

/// The Abbot's recall (`[mechanics] abbot`).
#[derive(Debug)]
pub struct Abbot {
    /// The deployment decision, which the recall answers instead of a deployment.
    deploy: Asked,
    /// The abbots' kinds in `rules`' figure table.
    abbots: Kinds,
    /// Their places in the figure table (a player's count on the board is kept by them).
    slots: Vec<usize>,
}

impl Abbot {
    /// The recall of the abbots of `rules`' figure table, offered in `deploy` (the base
    /// game's deployment).
    pub fn new(rules: &Ruleset, deploy: Asked) -> Abbot {
        let table = &rules.figures;
        Abbot {
            deploy,
            abbots: table.kinds(|r| r.is("abbot")),
            slots: table.slots(|r| r.is("abbot")),
        }
    }

    /// The active player's abbots on the board (none looked for when the count the engine
    /// keeps says he has none there).
    fn own_abbots<'g>(&self, g: &'g Game) -> impl Iterator<Item = &'g Figure> + 'g {
        let (abbots, player) = (self.abbots, g.active);
        let none = g.on_board(player, &self.slots) == 0;
        let figures = if none { &[][..] } else { g.figures() };
        (figures.iter()).filter(move |f| f.owner == player && abbots.contains(f.kind))
    }
}

/// Whether the active player may recall an abbot this turn: a tile was laid and no princess
/// removal forbids every deploy action (PR5, `pd.princess.removal_blocks`).
fn may_recall(g: &Game) -> bool {
    g.now.placed.is_some() && !g.deploy_closed()
}

/// Every legal recall: one per abbot of the active player.
fn recalls(m: &Abbot, g: &Game, out: &mut Vec<Action>) {
    let mut abbots = m.own_abbots(g).peekable();
    if abbots.peek().is_none() || !may_recall(g) {
        return;
    }
    for f in abbots {
        let pos = g.figure_spot(f).0;
        out.push(AbbotAction::Recall { pos }.into());
    }
}

/// Why the recall at `pos` is refused, if it is.
fn check_recall(m: &Abbot, g: &Game, action: &Action) -> Result<(), RuleError> {
    let mut legal = Vec::new();
    recalls(m, g, &mut legal);
    if legal.contains(action) {
        return Ok(());
    }
    let at = AbbotAction::of(action).map(|AbbotAction::Recall { pos }| pos);
    let (rule, why) = if !may_recall(g) {
        (
            RuleId("PR5"),
            "the princess removed a knight this turn, so no figure may be deployed or recalled",
        )
    } else {
        (
            RuleId("mechanics.abbot"),
            "no abbot of yours stands on a cloister or garden there",
        )
    };
    Err(RuleError::IllegalAction {
        rule,
        reason: format!(
            "cannot recall the abbot from {}: {why}",
            at.map_or("?".to_string(), |p| p.to_string())
        ),
    })
}

/// Takes the active player's abbot at `pos` back, scoring its cloister or garden first as at
/// the end of the game (checked by the caller).
fn recall(m: &Abbot, g: &mut Game, action: &Action, events: &mut Vec<Event>) {
    let Some(AbbotAction::Recall { pos }) = AbbotAction::of(action) else {
        return;
    };
    let Some((id, seg)) = (m.own_abbots(g))
        .find(|f| g.figure_spot(f).0 == pos)
        .map(|f| (f.id, f.seg))
    else {
        return;
    };
    events.push(
        AbbotEvent::Recalled {
            player: g.active,
            x: pos.x,
            y: pos.y,
        }
        .into(),
    );
    g.slots.entry::<Recall>().scoring = true;
    score_feature(g, seg, false, events);
    g.slots.entry::<Recall>().scoring = false;
    g.return_figures(|_, f| f.id == id, ReturnReason::Scored, events);
}

impl Mechanic for Abbot {
    fn name(&self) -> &'static str {
        "abbot"
    }

    fn hooks(&self) -> Hooks {
        Hooks::ACTIONS | Hooks::ADDS
    }

    fn actions(&self, g: &Game, asked: Asked, out: &mut Vec<Action>) {
        if asked == self.deploy {
            recalls(self, g, out);
        }
    }

    /// Its recalls reach it only at the base game's decisions (the engine routes them); of
    /// those it answers the deployment.
    fn check(&self, g: &Game, asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        (asked == self.deploy).then(|| check_recall(self, g, action))
    }

    fn apply(
        &self,
        g: &mut Game,
        asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        if asked != self.deploy {
            return None;
        }
        recall(self, g, action, events);
        Some(Then::Next)
    }
}

impl Shortcuts for Abbot {
    /// Its recalls answer the base game's decisions only.
    fn adds_to(&self, owner: u8) -> bool {
        owner == self.deploy.by
    }

    fn count_actions(&self, _g: &Game, asked: Asked) -> Option<usize> {
        // Its recalls answer only the deployment.
        (asked != self.deploy).then_some(0)
    }
}
