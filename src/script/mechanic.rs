//! Scripts as one more mechanic: the rhai hooks of a ruleset's scripts behind the same
//! [`Mechanic`] trait as the built-in rules, last in the game's list.
//!
//! The hooks map onto the trait's points: `game_start`/`turn_start` when a turn begins,
//! `draw`, `score` and `turn_end` as stages (and `after_place`, `after_deploy`, `after_score`
//! where a script defines them), the decision hooks (`place`, `princess`, `deploy`,
//! `dragon_step` and their narrow forms) when a decision was answered, `feature_scored`
//! whenever a feature (farms too) is scored, `figure_left` whenever a figure leaves the board,
//! `filter_eaten` on the dragon's menu, the offer hooks and filters when a decision becomes
//! pending, `ask` as an interjected decision, `extra_turn` (and `give_extra_turn()`) as a turn
//! begins, and `game_end` after final scoring. Last in the list, the scripts run each hook
//! after every built-in family, where Traders & Builders, the last of the registry, runs it.

use crate::engine::action::{Action, Decision};
use crate::engine::event::{Event, ReturnReason};
use crate::engine::game::{Game, RuleError, Size};
use crate::engine::mechanic::{Asked, Hooks, Mechanic, Phase, Shortcuts, Then};
use crate::model::feature::SegId;
use crate::model::figure::Departure;
use crate::model::geometry::Pos;
use crate::model::tile::FeatureKind;
use crate::script::Scripts;

/// The scripts' decision: a question `ask` put to a player.
const QUESTION: u8 = 0;

/// A ruleset's scripts as a mechanic.
#[derive(Debug)]
pub struct ScriptMechanic {
    id: u8,
    hooks: Hooks,
    /// The points of the turn whose stage hook (`draw`, `after_place`, `after_deploy`,
    /// `score`, `after_score`, `turn_end`) some script defines.
    phases: Vec<Phase>,
    /// The deployment the standing offers (`offer_deploy`) answer, where the ruleset has one.
    deploy: Option<Asked>,
    /// Whether a script's `actions…` or filter hook may add to any decision
    /// ([`Scripts::shapes_offers`]).
    shapes_offers: bool,
}

/// The stage hooks, by the point of the turn where each runs (in turn order).
const STAGES: [(Phase, &str); 6] = [
    (Phase::Draw, "draw"),
    (Phase::AfterPlace, "after_place"),
    (Phase::AfterDeploy, "after_deploy"),
    (Phase::Score, "score"),
    (Phase::AfterScore, "after_score"),
    (Phase::TurnEnd, "turn_end"),
];

impl ScriptMechanic {
    /// The scripts as mechanic number `id` of a game, whose standing offers answer `deploy`.
    pub fn new(id: u8, scripts: &Scripts, deploy: Option<Asked>) -> ScriptMechanic {
        // Only the hooks some script defines are in the game's call lists, so a script pays
        // for what it uses. Always: the standing offers and the scripts' questions (any hook
        // may `ask` or `offer_deploy`), the decision hooks (the families' own, such as
        // `dragon_step`, are found by the families) and `extra_turn` (any hook may
        // `give_extra_turn()`).
        let mut hooks =
            Hooks::ACTIONS | Hooks::ADDS | Hooks::ANSWERED | Hooks::OFFER | Hooks::EXTRA_TURN;
        // A hook's narrow forms (`strength_tied`, `feature_points_cloister`, …) count as the
        // hook.
        for (hook, flag) in [
            ("strength", Hooks::STRENGTH),
            ("farm_points", Hooks::FARM),
            ("feature_points", Hooks::POINTS),
            ("figure_left", Hooks::FIGURE_LEFT),
        ] {
            if scripts.hooks_starting(hook).next().is_some() {
                hooks = hooks | flag;
            }
        }
        for (names, flag) in [
            (&["game_start", "turn_start"][..], Hooks::TURN_BEGUN),
            (&["feature_scored"][..], Hooks::SCORED),
            (&["filter_eaten"][..], Hooks::ROAMER),
            (&["final_scoring", "game_end"][..], Hooks::FINAL),
        ] {
            if names.iter().any(|n| scripts.defines(n)) {
                hooks = hooks | flag;
            }
        }
        let phases: Vec<Phase> = STAGES
            .iter()
            .filter(|(_, hook)| scripts.defines(hook))
            .map(|(phase, _)| *phase)
            .collect();
        if !phases.is_empty() {
            hooks = hooks | Hooks::STAGE;
        }
        ScriptMechanic {
            id,
            hooks,
            phases,
            deploy,
            shapes_offers: scripts.shapes_offers,
        }
    }
}

impl Mechanic for ScriptMechanic {
    fn name(&self) -> &'static str {
        "script"
    }

    fn hooks(&self) -> Hooks {
        self.hooks
    }

    fn phases(&self) -> &[Phase] {
        &self.phases
    }

    fn turn_begun(&self, g: &mut Game, events: &mut Vec<Event>) {
        g.turn_hook(events);
    }

    fn stage(&self, g: &mut Game, phase: Phase, events: &mut Vec<Event>) -> Option<Asked> {
        if let Some((_, hook)) = STAGES.iter().find(|(p, _)| *p == phase) {
            g.run_hook(hook, Vec::new(), events);
        }
        None
    }

    fn interject(&self, g: &Game) -> Option<Asked> {
        (g.scripts().is_some_and(|s| !s.asked.is_empty())).then_some(Asked {
            by: self.id,
            kind: QUESTION,
        })
    }

    fn decision_ready(&self, g: &mut Game) {
        g.prepare_offer();
    }

    fn decision(&self, g: &Game, _asked: Asked) -> Option<Decision> {
        let (player, kind) = g.script_decision();
        Some(Decision { player, kind })
    }

    fn hint(&self, _asked: Asked) -> &'static str {
        "a script's question: `script = [\"name\", …]`"
    }

    fn actions(&self, g: &Game, _asked: Asked, out: &mut Vec<Action>) {
        // The standing offers (`offer_deploy`), listed natively like a family's additions.
        out.extend(g.standing_offers());
    }

    fn check(&self, g: &Game, _asked: Asked, action: &Action) -> Option<Result<(), RuleError>> {
        // Script actions are checked against the offered list, computed when the decision
        // became pending, or against the standing offers; otherwise none is legal.
        if let Action::Script(id) = *action
            && g.standing_offer_holds(id)
        {
            return Some(Ok(()));
        }
        matches!(action, Action::Script(_)).then(|| {
            Err(RuleError::IllegalAction {
                rule: crate::engine::refusal::RuleId("script"),
                reason: format!(
                    "{} is not among the legal choices",
                    crate::engine::words::action(action)
                ),
            })
        })
    }

    fn apply(
        &self,
        g: &mut Game,
        asked: Asked,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Option<Then> {
        let Action::Script(id) = *action else {
            return None;
        };
        let decision = g.decision();
        let kind = decision.kind;
        g.apply_script_action(id, events);
        if asked.by == self.id {
            // A script's own question interrupts the turn: the game calls no `answered` for
            // it, so its hooks run here.
            g.decision_hook(decision, events);
            return Some(Then::Resume);
        }
        // The decision's family says how its stage goes on (a script's answer to a dragon
        // step lets the journey stage look again); by default the stage is done.
        let then = (g.rules().compiled_scripts())
            .and_then(|s| s.bridge.then.iter().find_map(|then| then(&kind)));
        Some(then.unwrap_or(Then::Next))
    }

    fn answered(&self, g: &mut Game, decision: Decision, events: &mut Vec<Event>) {
        g.decision_hook(decision, events);
    }

    fn feature_scored(&self, g: &mut Game, seg: SegId, completed: bool, events: &mut Vec<Event>) {
        g.feature_hook(seg, completed, events);
    }

    fn filter_eaten(&self, g: &mut Game, pos: Pos, figures: &mut Vec<u32>) {
        let ids = std::mem::take(figures);
        *figures = g.eaten_filter(pos, ids);
    }

    fn strength(&self, g: &mut Game, key: SegId, _kind: FeatureKind, strength: &mut [u32]) {
        g.strength_hook(key, strength);
    }

    fn farm_points(&self, g: &mut Game, farm: SegId, player: usize, cities: u32, points: &mut u32) {
        g.farm_points_hook(farm, player, cities, points);
    }

    fn feature_points(
        &self,
        g: &mut Game,
        seg: SegId,
        _kind: FeatureKind,
        completed: bool,
        _size: Size,
        points: &mut u32,
    ) {
        g.feature_points_hook(seg, completed, points);
    }

    fn extra_turn(&self, g: &mut Game) -> bool {
        let given = self.gives_extra_turn(g);
        g.extra_turn_hook() || given
    }

    fn gives_extra_turn(&self, g: &Game) -> bool {
        g.scripts().is_some_and(|s| s.extra_turn == Some(g.turn()))
    }

    fn figure_left(&self, g: &mut Game, left: &Departure, reason: ReturnReason) {
        g.figure_left_hook(left, reason);
    }

    fn final_scoring(&self, g: &mut Game, events: &mut Vec<Event>) -> Option<Asked> {
        g.run_hook("final_scoring", Vec::new(), events);
        None
    }

    fn game_end(&self, g: &mut Game, events: &mut Vec<Event>) {
        g.run_hook("game_end", Vec::new(), events);
    }
}

impl Shortcuts for ScriptMechanic {
    /// A script adds to every decision where one of its `actions…` hooks may offer; otherwise
    /// only its standing offers add, to the deployment (so the other decisions' lists and
    /// checks pass the scripts by).
    fn adds_to(&self, owner: u8) -> bool {
        self.shapes_offers || self.deploy.is_some_and(|d| d.by == owner)
    }

    /// Its own listing (`actions`) is the standing offers, at the deployment only (what the
    /// `actions…` hooks add is listed when a decision becomes pending).
    fn adds_at(&self, asked: Asked) -> bool {
        self.deploy == Some(asked)
    }
}
