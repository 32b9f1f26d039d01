//! The game's side of scripting: calling hooks at the pipeline's stages, checking and applying
//! the commands they give, script decisions and script actions.
//!
//! A ruleset without scripts never reaches this code's rhai calls: every entry point returns at
//! once when `rules.scripts` is `None`.

use crate::engine::action::Decision;
use crate::engine::action::{Action, DecisionKind};
use crate::engine::event::{Event, MechanicReason, ReturnReason};
use crate::engine::game::{Game, Setup};
use crate::engine::vocabulary::{Vocabulary, enlist};
use crate::model::figure::{Departure, FigureKind, MAX_FIGURES};
use crate::model::geometry::Pos;
use crate::model::tile::FeatureKind;
use crate::script::family::{Filter, FilterKey};
use crate::script::{self, Arg, Command, ScriptError};
use rhai::{Array, Dynamic, Map};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// The scripts' own state, kept with the game (copied with it) and read through the host's
/// readers ([`Game::script_state`], [`Game::held`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct ScriptState {
    /// Figures scripts hold off the board, by seat, in the figure table's order (as the
    /// supply).
    pub(crate) held: Vec<[u8; MAX_FIGURES]>,
    /// The state scripts saved (`set_state`), as the scripts see it: reading and saving it
    /// converts nothing ([`Game::script_state`] gives it as JSON).
    value: Dynamic,
    /// Decisions scripts asked for: the player and the offered script actions.
    pub(crate) asked: VecDeque<(usize, Vec<u32>)>,
    /// The turn of the last `ask` and how many decisions scripts asked in it (bounded, so no
    /// script makes a turn endless).
    asks: (u32, u32),
    /// The scripts' hidden bags: by name, each token with how many are in it.
    pub(crate) bags: BTreeMap<String, BTreeMap<String, u32>>,
    /// The turn in which a script gave its player another turn right after it
    /// (`give_extra_turn()`).
    pub(crate) extra_turn: Option<u32>,
    /// The tokens scripts say players hold (`hold_tokens`), shown with their scores.
    pub(crate) tokens: crate::script::tokens::Tokens,
    /// What the scripts asked the engine to watch for them (feature marks, hooks switched
    /// off, standing offers).
    pub(crate) watch: crate::script::watch::Watch,
    /// The script whose commands are being applied (none between actions).
    applying: Option<Arc<str>>,
}

crate::own_state!(ScriptState);

/// Interned rule names given by scripts, so scoring events keep a `&'static str` rule.
fn rule_name(text: &str) -> &'static str {
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<Vec<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.iter().find(|n| **n == text) {
        return n;
    }
    let leaked: &'static str = Box::leak(text.to_string().into_boxed_str());
    names.push(leaked);
    leaked
}

fn dynamic_of(a: &Arg) -> Dynamic {
    match a {
        Arg::Int(i) => (*i).into(),
        Arg::Bool(b) => (*b).into(),
        Arg::Text(s) => Dynamic::from(s.clone()),
    }
}

/// Reads the arguments of an offered action (integers, booleans, strings) without copying
/// them, and interns the action.
fn intern_args(name: &str, a: &Dynamic, label: Option<&str>) -> Result<u32, &'static str> {
    let list = a
        .read_lock::<Array>()
        .ok_or("the arguments of an offered action are an array")?;
    let texts: Vec<_> = list
        .iter()
        .map(|v| v.read_lock::<rhai::ImmutableString>())
        .collect();
    let mut args = Vec::with_capacity(list.len());
    for (v, t) in list.iter().zip(&texts) {
        args.push(if let Ok(i) = v.as_int() {
            script::ArgRef::Int(i)
        } else if let Ok(b) = v.as_bool() {
            script::ArgRef::Bool(b)
        } else if let Some(t) = t {
            script::ArgRef::Text(t.as_str())
        } else {
            return Err("action arguments are integers, booleans or strings");
        });
    }
    Ok(script::intern_offer(name, &args, label))
}

/// Reads an offer `#{ name: "enter", args: [..], label: ".." }` into an action id and appends
/// it to `out`; an offer with `each: [[..], [..], ..]` instead of `args` stands for one action
/// per argument list.
fn offer_of(d: &Dynamic, out: &mut Vec<u32>) -> Result<(), &'static str> {
    let m = d
        .read_lock::<Map>()
        .ok_or("an offered action is a map #{ name, args, label }")?;
    let name = m
        .get("name")
        .and_then(|n| n.read_lock::<rhai::ImmutableString>())
        .ok_or("an offered action needs a string `name`")?;
    let label = m
        .get("label")
        .and_then(|l| l.read_lock::<rhai::ImmutableString>());
    let label = label
        .as_deref()
        .map(|l| l.as_str())
        .filter(|l| !l.is_empty());
    if let Some(each) = m.get("each") {
        let lists = each
            .read_lock::<Array>()
            .ok_or("`each` of an offered action is an array of argument lists")?;
        for a in lists.iter() {
            out.push(intern_args(&name, a, label)?);
        }
        return Ok(());
    }
    let id = match m.get("args") {
        None => script::intern_offer(&name, &[], label),
        Some(a) => intern_args(&name, a, label)?,
    };
    out.push(id);
    Ok(())
}

impl Game {
    /// Whether the ruleset has scripts.
    pub(crate) fn scripted(&self) -> bool {
        self.rules.scripts.is_some()
    }

    /// Whether a script defines `hook` and has not switched it off (so that its arguments are
    /// worth building).
    pub(crate) fn hooked(&self, hook: &str) -> bool {
        self.rules
            .compiled_scripts()
            .is_some_and(|s| s.defines(hook))
            && !self.muted(hook)
    }

    /// Whether the tile `placed` carries the symbol or tag `name`.
    pub(crate) fn tile_carries(&self, placed: crate::model::board::PlacedId, name: &str) -> bool {
        let tile = self.rules.tile(self.board.placed(placed).tile);
        marks(&self.rules.prints, tile).any(|m| m == name)
    }

    /// Whether the tile `placed` carries `name` for the narrow hooks: its symbol or a tag, or
    /// a script's mark on a feature that has a part on it (`mark_feature`).
    pub(crate) fn carries(&self, placed: crate::model::board::PlacedId, name: &str) -> bool {
        self.tile_carries(placed, name) || self.mark_reaches(placed, name)
    }

    /// Takes the next tile of the supply out of the game for `script`, seen by nobody; false
    /// when no tile is left. The tile on top of the bag is the next one drawn (a record's
    /// forced order names it); it counts as drawn for a draw limit.
    pub(crate) fn take_tile_unseen(&mut self, script: &Arc<str>, events: &mut Vec<Event>) -> bool {
        if self.tiles_to_draw() == 0 || self.bag.pop().is_none() {
            return false;
        }
        self.draws += 1;
        events.push(Event::TileTakenUnseen {
            script: Arc::clone(script),
            player: self.active,
        });
        true
    }

    /// Asks the active player `offers` for `script` (a standing `ask_on_deploy`), as
    /// `ask(active(), offers)` would; a wrong offer is the script's error.
    pub(crate) fn ask_standing(
        &mut self,
        script: &Arc<str>,
        offers: &Array,
        events: &mut Vec<Event>,
    ) {
        if self.fault.is_some() {
            return;
        }
        let command = Command::Ask {
            player: self.active() as i64,
            offers: offers.clone(),
        };
        if let Err(message) = self.apply_command(script, command, events) {
            self.fail(script, "ask_on_deploy", message);
        }
    }

    /// Calls `hook` in every script that defines it and applies the commands. A failure is
    /// kept in `fault` (the caller rolls the action back) and later hooks are skipped.
    pub(crate) fn run_hook(&mut self, hook: &str, args: Vec<Dynamic>, events: &mut Vec<Event>) {
        self.run_hook_except(hook, args, None, events);
    }

    /// [`Game::run_hook`] in every script but `except`.
    fn run_hook_except(
        &mut self,
        hook: &str,
        args: Vec<Dynamic>,
        except: Option<&str>,
        events: &mut Vec<Event>,
    ) {
        let Some(answers) = self.call_hook_except(hook, args, except) else {
            return;
        };
        for answer in answers {
            // While a script's commands are applied, the figures they lift are its own doing
            // (`figure_left` does not tell it of them).
            let before = self
                .scripts_mut()
                .applying
                .replace(Arc::clone(&answer.script));
            for (command, at) in answer.commands {
                if let Err(message) = self.apply_command(&answer.script, command, events) {
                    self.scripts_mut().applying = before;
                    self.fail_at(&answer.script, hook, at, message);
                    return;
                }
            }
            self.scripts_mut().applying = before;
        }
    }

    /// Calls a hook and returns the scripts' answers (None when nothing ran or it failed).
    fn call_hook(&mut self, hook: &str, args: Vec<Dynamic>) -> Option<Vec<script::Answer>> {
        self.call_hook_except(hook, args, None)
    }

    /// [`Game::call_hook`] in every script but `except`.
    fn call_hook_except(
        &mut self,
        hook: &str,
        args: Vec<Dynamic>,
        except: Option<&str>,
    ) -> Option<Vec<script::Answer>> {
        // Most hooks are not defined: that is asked before anything is shared.
        if self.fault.is_some() || !self.hooked(hook) {
            return None;
        }
        let scripts = self.rules.compiled.shared::<script::Scripts>()?;
        match scripts.call(self, hook, args, except) {
            Ok(answers) => Some(answers),
            Err(e) => {
                self.fault = Some(e);
                None
            }
        }
    }

    fn fail(&mut self, script: &str, hook: &str, message: String) {
        self.fail_at(script, hook, rhai::Position::NONE, message);
    }

    /// Records a script failure at a place in the script (the command that failed).
    fn fail_at(&mut self, script: &str, hook: &str, at: rhai::Position, message: String) {
        if let Some(scripts) = self.rules.compiled_scripts() {
            self.fault = Some(scripts.command_error(script, hook, at, message));
        }
    }

    /// Undoes an action that a script failed in: the game becomes what its set-up and its
    /// first `kept` actions make of it. A game is nothing but its set-up and its history, and
    /// scripts are deterministic, so replaying them rebuilds it exactly; this costs a replay
    /// only when a script fails, where keeping a copy before every action would cost a copy of
    /// the whole game on every action.
    pub(crate) fn roll_back(&mut self, kept: usize) {
        let mut history = std::mem::take(&mut self.history).into_actions();
        history.truncate(kept);
        let rebuilt = Game::new(Arc::clone(&self.rules), Setup::clone(&self.setup))
            .ok()
            .and_then(|(mut game, _)| {
                let mut events = Vec::new();
                for action in &history {
                    events.clear();
                    game.apply_into(action, &mut events).ok()?;
                }
                Some(game)
            });
        match rebuilt {
            Some(game) => *self = game,
            // Only a script that answers differently the second time (none of castellan's
            // functions lets it) can get here: keep what there is, with the history cut back.
            None => self.history = history.into(),
        }
    }

    /// Takes the first script failure, if any.
    pub(crate) fn take_fault(&mut self) -> Option<ScriptError> {
        self.fault.take()
    }

    /// A turn began: `game_start` once before the first turn's own hook, then `turn_start`.
    pub(crate) fn turn_hook(&mut self, events: &mut Vec<Event>) {
        if self.turn == 1 {
            self.run_hook("game_start", Vec::new(), events);
        }
        self.run_hook("turn_start", Vec::new(), events);
    }

    /// The hooks that follow an answered decision of any kind: first its own (`place()`,
    /// `deploy()`, and those a family registers: `princess()`, `dragon_step(step)`), then
    /// `answered(decision)` and `answered_<kind>()`.
    pub(crate) fn decision_hook(&mut self, answered: Decision, events: &mut Vec<Event>) {
        let Some(scripts) = self.rules.compiled.shared::<script::Scripts>() else {
            return;
        };
        self.own_decision_hook(&scripts, answered.kind, events);
        if self.hooked("answered") {
            let map = decision_map(answered);
            self.run_hook("answered", vec![map], events);
        }
        let kind = answered.kind.name();
        let narrow = (scripts.narrow_forms.answered.iter()).find(|(_, k)| k == kind);
        if let Some((hook, _)) = narrow {
            self.run_hook(hook, Vec::new(), events);
        }
    }

    /// The hooks named after one kind of decision: `place()` and its narrow forms, `deploy()`
    /// and its narrow forms, and the families' (`princess()`, `dragon_step(step)`, …).
    fn own_decision_hook(
        &mut self,
        scripts: &script::Scripts,
        kind: DecisionKind,
        events: &mut Vec<Event>,
    ) {
        let (hook, forms) = match kind {
            DecisionKind::PlaceTile { .. } => ("place", &scripts.narrow_forms.place),
            DecisionKind::Deploy => ("deploy", &scripts.narrow_forms.deploy),
            kind => {
                let rules = Arc::clone(&self.rules);
                let families = rules.compiled_scripts().map(|s| &s.bridge.answered);
                for hook in families.into_iter().flatten() {
                    hook(self, kind, events);
                }
                return;
            }
        };
        self.run_hook(hook, Vec::new(), events);
        let Some(placed) = self.now.placed else {
            return;
        };
        // After the deployment, `completed_<name>()` for a feature marked `<name>` that the
        // tile laid completed.
        if hook == "deploy" {
            for (narrow, mark) in &scripts.narrow_forms.completed {
                if self.mark_completed(placed, mark) {
                    self.run_hook(narrow, Vec::new(), events);
                }
            }
        }
        // The narrow forms (`place_dragon()`, `deploy_<name>()`) run only for a tile laid this
        // turn that carries `<name>` or extends a feature marked so.
        for (narrow, mark) in forms {
            if self.carries(placed, mark) {
                self.run_hook(narrow, Vec::new(), events);
            }
        }
        // Then what the scripts asked the engine to do there without a hook.
        if hook == "place" {
            self.take_unseen_after(placed, events);
        } else {
            self.ask_on_deploy(placed, events);
        }
    }

    /// Runs `<hook>_<name>(args…)` for the symbol and each tag of the placed tile `placed`
    /// (`dragon_step_tower_foundation`, …), where a script defines it.
    pub(crate) fn marked_hooks(
        &mut self,
        hook: &str,
        placed: crate::model::board::PlacedId,
        args: &[Dynamic],
        events: &mut Vec<Event>,
    ) {
        // Most hooks have no narrow form: that is settled before anything is shared.
        let narrow = |name: &str| name.strip_prefix(hook).is_some_and(|r| r.starts_with('_'));
        let any =
            (self.rules.compiled_scripts()).is_some_and(|s| s.hooks_starting(hook).any(narrow));
        let Some(scripts) = any
            .then(|| self.rules.compiled.shared::<script::Scripts>())
            .flatten()
        else {
            return;
        };
        let due: Vec<&str> = scripts
            .hooks_starting(hook)
            .filter(|name| {
                name.strip_prefix(hook)
                    .and_then(|rest| rest.strip_prefix('_'))
                    .is_some_and(|mark| self.carries(placed, mark))
            })
            .collect();
        for narrow in due {
            self.run_hook(narrow, args.to_vec(), events);
        }
    }

    /// `feature_scored(feature)`: a feature is being scored.
    pub(crate) fn feature_hook(&mut self, seg: u32, completed: bool, events: &mut Vec<Event>) {
        if !self.hooked("feature_scored") {
            return;
        }
        let feature = self.feature_map(seg, Some(completed));
        self.run_hook("feature_scored", vec![feature], events);
    }

    /// A feature as scripts see it: `#{kind, x, y, spot, followers}` (`followers`: the ids of
    /// every figure standing in it, builders and pigs included) and, when it is being scored,
    /// `completed`.
    pub(crate) fn feature_map(&self, seg: u32, completed: Option<bool>) -> Dynamic {
        let (pos, spot) = self.seg_spot(seg);
        let kind = self.features.segment(seg).kind;
        let followers: Array = self
            .figures
            .iter()
            .filter(|f| self.features.same(f.seg, seg))
            .map(|f| (f.id as i64).into())
            .collect();
        use crate::script::api::{map, text};
        let mut entries = vec![
            ("kind", text(kind.name())),
            ("x", (pos.x as i64).into()),
            ("y", (pos.y as i64).into()),
            ("spot", text(spot.name())),
        ];
        if let Some(completed) = completed {
            entries.push(("completed", completed.into()));
        }
        entries.push(("followers", followers.into()));
        map(entries)
    }

    /// Calls a hook whose answer is a value (`strength`, `farm_points`, `extra_turn`): the
    /// values of the scripts that define it. Such a hook may not give commands.
    fn value_hook(&mut self, hook: &str, args: Vec<Dynamic>) -> Vec<Dynamic> {
        let Some(answers) = self.call_hook(hook, args) else {
            return Vec::new();
        };
        let mut values = Vec::new();
        for answer in answers {
            if !answer.commands.is_empty() {
                let message = format!("{hook}() answers with a value and may not give commands");
                self.fail(&answer.script, hook, message);
                return Vec::new();
            }
            values.push(answer.value);
        }
        values
    }

    /// How many tiles may still be drawn: those in the supply, within the set-up's draw limit
    /// (`end_after`). `tiles_left()` for scripts.
    pub(crate) fn tiles_to_draw(&self) -> usize {
        let limit = self.setup.end_after.map_or(usize::MAX, |n| {
            (n as usize).saturating_sub(self.draws as usize)
        });
        self.bag.len().min(limit)
    }

    /// `strength(feature)`: each script may add to the players' strength in a feature being
    /// scored (an array with one whole number per seat; `()` adds nothing). `feature.strength`
    /// is each seat's strength so far (its figures and the mechanics before the scripts), so a
    /// script can break a tied majority.
    ///
    /// The narrow forms are called only where they can matter: `strength_tied(feature)` when
    /// two or more seats share the highest strength, `strength_tied_<name>(feature)` when they
    /// do and a figure of the feature stands on a tile carrying `<name>`.
    pub(crate) fn strength_hook(&mut self, key: u32, strength: &mut [u32]) {
        if key as usize >= self.features.len() {
            return;
        }
        for hook in self.strength_hooks(key, strength) {
            self.strength_hook_named(&hook, key, strength);
        }
    }

    /// The forms of `strength` that apply to the feature `key` with the seats' `strength`.
    fn strength_hooks(&self, key: u32, strength: &[u32]) -> Vec<String> {
        let Some(scripts) = self.rules.compiled_scripts() else {
            return Vec::new();
        };
        let best = strength.iter().copied().max().unwrap_or(0);
        let tied = best > 0 && strength.iter().filter(|s| **s == best).count() > 1;
        let on_tile_with = |name: &str| {
            (self.figures.iter())
                .filter(|f| self.features.same(f.seg, key))
                .any(|f| self.carries(self.features.segment(f.seg).placed, name))
        };
        scripts
            .hooks_starting("strength")
            .filter(|hook| match hook.strip_prefix("strength") {
                Some("") => true,
                Some(rest) => match rest.strip_prefix("_tied") {
                    Some("") => tied,
                    Some(rest) => rest
                        .strip_prefix('_')
                        .is_some_and(|name| tied && on_tile_with(name)),
                    None => false,
                },
                None => false,
            })
            .filter(|hook| self.hooked(hook))
            .map(str::to_string)
            .collect()
    }

    /// Calls one form of `strength` (see [`Game::strength_hook`]).
    fn strength_hook_named(&mut self, hook: &str, key: u32, strength: &mut [u32]) {
        let mut feature = self
            .feature_map(key, None)
            .try_cast::<Map>()
            .unwrap_or_default();
        let so_far: Array = strength.iter().map(|s| i64::from(*s).into()).collect();
        feature.insert("strength".into(), so_far.into());
        let feature = Dynamic::from_map(feature);
        for value in self.value_hook(hook, vec![feature]) {
            if value.is_unit() {
                continue;
            }
            let adds: Option<Vec<u32>> = value.into_array().ok().and_then(|list| {
                list.iter()
                    .map(|v| v.as_int().ok().and_then(|i| u32::try_from(i).ok()))
                    .collect()
            });
            match adds {
                Some(adds) if adds.len() == strength.len() => {
                    for (s, a) in strength.iter_mut().zip(adds) {
                        *s = s.saturating_add(a);
                    }
                }
                _ => {
                    let message = format!(
                        "{hook}() must answer an array of {} whole numbers of 0 or more (one per seat), or ()",
                        strength.len()
                    );
                    self.fail_hook(hook, message);
                    return;
                }
            }
        }
    }

    /// `farm_points(farm)`: the points a farm pays its majority player, as the script changes
    /// them (`farm` is the feature map with `player`, `cities` and `points`).
    pub(crate) fn farm_points_hook(
        &mut self,
        farm: u32,
        player: usize,
        cities: u32,
        points: &mut u32,
    ) {
        if !self.hooked("farm_points") {
            return;
        }
        let mut m = self
            .feature_map(farm, Some(false))
            .try_cast::<Map>()
            .unwrap_or_default();
        m.insert("player".into(), (player as i64).into());
        m.insert("cities".into(), (cities as i64).into());
        self.points_hook("farm_points", m, points);
    }

    /// `feature_points(feature)`: the points a road, city, cloister or garden is worth before
    /// its majority is paid, as the script changes them (`feature` has `points`); then
    /// `feature_points_<kind>(feature)`, called only for features of that kind
    /// (`feature_points_cloister`).
    pub(crate) fn feature_points_hook(&mut self, seg: u32, completed: bool, points: &mut u32) {
        if seg as usize >= self.features.len() {
            return;
        }
        let kind = self.features.segment(seg).kind.name();
        let narrow = (self.rules.compiled_scripts())
            .and_then(|s| (s.narrow_forms.feature_points.iter()).find(|(_, k)| k == kind))
            .map(|(hook, _)| hook.clone());
        for hook in std::iter::once("feature_points").chain(narrow.as_deref()) {
            if !self.hooked(hook) {
                continue;
            }
            let m = self
                .feature_map(seg, Some(completed))
                .try_cast::<Map>()
                .unwrap_or_default();
            self.points_hook(hook, m, points);
        }
    }

    /// Calls `hook` with the feature map `m` plus its current `points`; each script may answer
    /// new points (a whole number of 0 or more) or `()` to leave them.
    fn points_hook(&mut self, hook: &str, mut m: Map, points: &mut u32) {
        m.insert("points".into(), (*points as i64).into());
        for value in self.value_hook(hook, vec![Dynamic::from_map(m)]) {
            if value.is_unit() {
                continue;
            }
            match value.as_int().ok().and_then(|i| u32::try_from(i).ok()) {
                Some(p) => *points = p,
                None => {
                    let message =
                        format!("{hook}() must answer a whole number of 0 or more, or ()");
                    self.fail_hook(hook, message);
                    return;
                }
            }
        }
    }

    /// `figure_left(figure, reason)`: a figure left the board (`figure` as `figures()` gives
    /// it, or as `placed_figures()` does for one that stood on a tile or at a corner; `reason`
    /// the name of why: `scored`, `script`, `eaten`, `princess`, …). The hook learns and keeps
    /// state; what it gives may log nothing (a figure that must follow goes at a later hook, as
    /// the built-in rules send theirs at their next stage).
    ///
    /// Then `figure_left_<kind>(figure, reason)`, called only for a figure of that kind.
    pub(crate) fn figure_left_hook(&mut self, left: &Departure, reason: ReturnReason) {
        let Some(scripts) = self.rules.compiled.shared::<script::Scripts>() else {
            return;
        };
        let kind = match *left {
            Departure::Feature(f) => f.kind,
            Departure::Place { kind, .. } => kind,
        };
        let kind = kind.name();
        let narrow = (scripts.narrow_forms.figure_left.iter()).find(|(_, k)| k == kind);
        let forms = std::iter::once("figure_left").chain(narrow.map(|(hook, _)| hook.as_str()));
        for hook in forms {
            if self.hooked(hook) {
                self.figure_left_named(hook, left, reason);
            }
        }
    }

    /// Calls one form of `figure_left` (see [`Game::figure_left_hook`]).
    fn figure_left_named(&mut self, hook: &str, left: &Departure, reason: ReturnReason) {
        let map = match *left {
            Departure::Feature(f) => crate::script::api::figure_map(self, &f),
            Departure::Place { owner, kind, place } => {
                crate::script::place::placed_figure_map(owner, kind, place)
            }
        };
        // A script is not told of the figures its own commands lift: it knows.
        let except = (reason == ReturnReason::Script)
            .then(|| self.scripts().and_then(|s| s.applying.clone()))
            .flatten();
        let reason = Dynamic::from(reason.name().to_string());
        let mut logged = Vec::new();
        self.run_hook_except(hook, vec![map, reason], except.as_deref(), &mut logged);
        if !logged.is_empty() {
            self.fail_hook(
                hook,
                "figure_left() may keep state (set_state) but not change the board or log: \
                 do that from a later hook (after_place, after_deploy, after_score, turn_end)"
                    .into(),
            );
        }
    }

    /// `extra_turn()`: whether the player who just played plays again.
    pub(crate) fn extra_turn_hook(&mut self) -> bool {
        if !self.hooked("extra_turn") {
            return false;
        }
        let values = self.value_hook("extra_turn", Vec::new());
        let mut again = false;
        for value in values {
            match value.as_bool() {
                Ok(b) => again |= b,
                Err(_) if value.is_unit() => {}
                Err(_) => {
                    self.fail_hook(
                        "extra_turn",
                        "extra_turn() must answer true, false or ()".into(),
                    );
                    return false;
                }
            }
        }
        again
    }

    /// Records a failure of the value a hook answered, in the first script that defines it.
    fn fail_hook(&mut self, hook: &str, message: String) {
        let script = self
            .rules
            .compiled_scripts()
            .and_then(|s| s.definer(hook))
            .unwrap_or_default();
        self.fail(&script, hook, message);
    }

    /// Computes the legal list of the pending decision once, with the scripts' filters and
    /// offers, so that listing and checking actions never call a script.
    pub(crate) fn prepare_offer(&mut self) {
        if !self.scripted() {
            return;
        }
        let shapes = self
            .rules
            .compiled_scripts()
            .is_some_and(|s| s.shapes_offers);
        // Only the scripts' mechanic makes a script's question, and only while one is asked:
        // without offer hooks or filters, nothing else needs the pending decision worked out.
        if !shapes && self.scripts().is_none_or(|s| s.asked.is_empty()) {
            return;
        }
        let kind = self.decision().kind;
        if kind == DecisionKind::GameOver || (!shapes && kind != DecisionKind::Script) {
            // No script adds to or filters this decision: the built-in list stands.
            return;
        }
        let Some(extra) = self.extra_offers() else {
            return;
        };
        if kind == DecisionKind::Script {
            // A script's question: what it asked, and what any script adds to it.
            let asked = self.scripts().and_then(|s| s.asked.front());
            let ids = asked.map(|a| a.1.clone()).unwrap_or_default();
            let mut offer: Vec<Action> = ids.into_iter().map(Action::Script).collect();
            offer.extend(extra);
            self.offer = Some(offer);
            return;
        }
        let filter = match kind {
            DecisionKind::PlaceTile { .. } => Some("filter_placements"),
            DecisionKind::Deploy => Some("filter_deploy"),
            k => self.rules.compiled_scripts().and_then(|s| {
                let mut filters = s.bridge.filters.iter();
                filters.find(|f| (f.applies)(&k)).map(|f| f.hook)
            }),
        }
        .filter(|hook| self.hooked(hook));
        // Nothing offered and nothing filtered: the built-in list and checks stand as they are,
        // computed when asked (as without scripts).
        if extra.is_empty() && filter.is_none() {
            return;
        }
        let mut base = Vec::new();
        self.legal_actions(&mut base);
        if let Some(hook) = filter {
            base = self.filtered(base, hook);
        }
        base.extend(extra);
        self.offer = Some(base);
    }

    /// The actions the offer hooks add to the pending decision, of any kind (`None`: a hook
    /// failed, kept in `fault`).
    fn extra_offers(&mut self) -> Option<Vec<Action>> {
        // The standing offers are the script mechanic's own part of the list (its `actions`).
        let mut extra = Vec::new();
        for hook in self.offer_hooks() {
            let arg = if hook == "actions" {
                self.decision_map()
            } else {
                (self.decision().player as i64).into()
            };
            let Some(answers) = self.call_hook(&hook, vec![arg]) else {
                continue;
            };
            for answer in answers {
                let offers = if answer.value.is_unit() {
                    Vec::new()
                } else if let Ok(offers) = answer.value.into_array() {
                    offers
                } else {
                    let message = format!("{hook}() must answer an array of offers, or ()");
                    self.fail(&answer.script, &hook, message);
                    return None;
                };
                let mut ids = Vec::new();
                for o in &offers {
                    if let Err(m) = offer_of(o, &mut ids) {
                        self.fail(&answer.script, &hook, m.to_string());
                        return None;
                    }
                }
                extra.extend(ids.into_iter().map(Action::Script));
            }
        }
        Some(extra)
    }

    /// The offer hooks that apply to the pending decision, in calling order: `actions(decision)`
    /// always; `actions_<kind>(player)` for its kind; `actions_<kind>_<name>(player)` when the
    /// tile laid this turn carries the symbol or tag `<name>`; `actions_<kind>_holding(player)`
    /// when scripts hold followers of the deciding player. Only hooks some script defines.
    fn offer_hooks(&self) -> Vec<String> {
        let Some(scripts) = self.rules.compiled_scripts() else {
            return Vec::new();
        };
        let d = self.decision();
        let kind = d.kind.name();
        let placed = self.now.placed;
        let mut hooks = Vec::new();
        for name in scripts.hooks_starting("actions") {
            let applies = match name.strip_prefix("actions") {
                Some("") => true,
                Some(rest) => match rest.strip_prefix('_').and_then(|r| r.strip_prefix(kind)) {
                    Some("") => true,
                    Some("_holding") => self.held(d.player) > 0,
                    Some(rest) => rest
                        .strip_prefix('_')
                        .is_some_and(|mark| placed.is_some_and(|p| self.carries(p, mark))),
                    None => false,
                },
                None => false,
            };
            if applies {
                hooks.push(name.to_string());
            }
        }
        hooks
    }

    fn decision_map(&self) -> Dynamic {
        decision_map(self.decision())
    }

    /// Passes the dragon steps or deploy targets of `base` through a filter hook.
    fn filtered(&mut self, base: Vec<Action>, hook: &str) -> Vec<Action> {
        if !self.hooked(hook) {
            return base;
        }
        let rules = Arc::clone(&self.rules);
        let filters = rules
            .compiled_scripts()
            .map_or(&[][..], |s| &s.bridge.filters);
        let items: Array = base
            .iter()
            .filter_map(|a| filter_item(filters, a))
            .collect();
        let Some(answers) = self.call_hook(hook, vec![items.into()]) else {
            return base;
        };
        let mut keep = base.clone();
        for answer in answers {
            let Ok(list) = answer.value.into_array() else {
                let message = format!(
                    "{hook}() must answer an array (the allowed subset of what it was given)"
                );
                self.fail(&answer.script, hook, message);
                return base;
            };
            let allowed: Vec<FilterKey> = list
                .iter()
                .filter_map(|d| {
                    let m = d.read_lock::<Map>()?;
                    let int = |k: &str| m.get(k).and_then(|v| v.as_int().ok());
                    let spot = m.get("spot").and_then(|s| s.clone().into_string().ok());
                    Some((int("x")?, int("y")?, spot, int("rotation")))
                })
                .collect();
            keep.retain(|a| filter_key(filters, a).is_none_or(|k| allowed.contains(&k)));
        }
        if keep.iter().all(|a| filter_key(filters, a).is_none())
            && base.iter().any(|a| matches!(a, Action::Place { .. }))
        {
            // The drawn tile must go somewhere: a filter that leaves no placement is ignored.
            return base;
        }
        keep
    }

    /// The ids of the figures on `pos` that the dragon really eats (`filter_eaten`).
    pub(crate) fn eaten_filter(&mut self, pos: Pos, ids: Vec<u32>) -> Vec<u32> {
        if !self.hooked("filter_eaten") {
            return ids;
        }
        let list: Array = ids.iter().map(|i| (*i as i64).into()).collect();
        let args = vec![(pos.x as i64).into(), (pos.y as i64).into(), list.into()];
        let Some(answers) = self.call_hook("filter_eaten", args) else {
            return ids;
        };
        let mut keep = ids;
        for answer in answers {
            let Ok(list) = answer.value.into_array() else {
                let message = "filter_eaten() must answer an array of figure ids".to_string();
                self.fail(&answer.script, "filter_eaten", message);
                return keep;
            };
            let allowed: Vec<i64> = list.iter().filter_map(|d| d.as_int().ok()).collect();
            keep.retain(|id| allowed.contains(&(*id as i64)));
        }
        keep
    }

    /// Applies a chosen script action: the `action(name, args)` hook, and the end of a script
    /// decision.
    pub(crate) fn apply_script_action(&mut self, id: u32, events: &mut Vec<Event>) {
        let a = script::action(id);
        let args: Array = a.args.iter().map(dynamic_of).collect();
        if self.decision().kind == DecisionKind::Script {
            self.scripts_mut().asked.pop_front();
        }
        self.run_hook("action", vec![Dynamic::from(a.name), args.into()], events);
    }

    /// The script state as a rhai value.
    pub(crate) fn script_state_dynamic(&self) -> Dynamic {
        self.scripts().map_or(Dynamic::UNIT, |s| s.value.clone())
    }

    /// The scripts' own state, if they have any yet.
    pub(crate) fn scripts(&self) -> Option<&ScriptState> {
        self.slots.get::<ScriptState>()
    }

    /// The scripts' own state to change (made on first use).
    pub(crate) fn scripts_mut(&mut self) -> &mut ScriptState {
        self.slots.entry::<ScriptState>()
    }

    /// Figures of the kind at `i` of the figure table that scripts hold for `player`.
    pub(crate) fn held_at(&self, player: usize, i: usize) -> u8 {
        let row = self.scripts().and_then(|s| s.held.get(player));
        row.and_then(|h| h.get(i)).copied().unwrap_or(0)
    }

    /// The figures scripts hold for `player`, by the figure table's index, to change.
    fn held_mut(&mut self, player: usize) -> &mut [u8; MAX_FIGURES] {
        let held = &mut self.scripts_mut().held;
        if held.len() <= player {
            held.resize(player + 1, [0; MAX_FIGURES]);
        }
        &mut held[player]
    }

    /// Figures of every kind of `player` that scripts keep off the features (a variant's
    /// hiding place), with those in any player's custody, on a tile or at a corner.
    pub fn held(&self, player: usize) -> u32 {
        let own = (self.scripts().and_then(|s| s.held.get(player)))
            .map_or(0, |h| h.iter().map(|n| u32::from(*n)).sum());
        own + self.kept_off_features(player, None)
    }

    /// Figures of `player` of `kind` that scripts keep off the features, with those in any
    /// player's custody, on a tile or at a corner.
    pub fn held_of(&self, player: usize, kind: FigureKind) -> u8 {
        let Some((i, _)) = self.rules.figures.find(kind) else {
            return 0;
        };
        let kept = u8::try_from(self.kept_off_features(player, Some(i))).unwrap_or(u8::MAX);
        self.held_at(player, i).saturating_add(kept)
    }

    /// The tokens scripts say players hold, if a script ever said so.
    pub(crate) fn script_tokens(&self) -> Option<&crate::script::tokens::Tokens> {
        self.scripts().map(|s| &s.tokens)
    }

    /// The script state (JSON), saved with the game (`null` before any `set_state`).
    pub fn script_state(&self) -> serde_json::Value {
        // `set_state` keeps only data that JSON holds (`state_size`), so this cannot fail.
        self.scripts()
            .and_then(|s| rhai::serde::from_dynamic(&s.value).ok())
            .unwrap_or_default()
    }

    /// The seat `p`, or the script's error.
    pub(crate) fn seat(&self, p: i64) -> Result<usize, String> {
        usize::try_from(p)
            .ok()
            .filter(|s| *s < self.scores.len())
            .ok_or_else(|| format!("there is no player {p}"))
    }

    /// A seat and a figure kind of the ruleset's table given by name, with the kind's place in
    /// the table (and so in the supply).
    pub(crate) fn seat_kind(
        &self,
        p: i64,
        name: &str,
    ) -> Result<(usize, FigureKind, usize), String> {
        let seat = self.seat(p)?;
        let (kind, i) = figure_kind(self, name)?;
        Ok((seat, kind, i))
    }

    /// Whether a figure of `kind` of player `p` may be put on `seg`, as a deployment would be
    /// checked: the figure stands on that kind of feature; a figure that joins its owner's
    /// follower (builder, pig) finds one there; any other finds the feature free unless
    /// `ignore_occupancy` (B-F3).
    fn check_put(
        &self,
        p: usize,
        kind: FigureKind,
        seg: u32,
        ignore_occupancy: bool,
    ) -> Result<(), String> {
        let feature = self.features.segment(seg).kind;
        let row = self
            .rules
            .figures
            .row(kind)
            .ok_or_else(|| format!("the ruleset has no figure `{}`", kind.name()))?;
        if !row.stands_on.on(feature) {
            return Err(format!(
                "{} cannot stand on a {}",
                kind.words(),
                feature.name()
            ));
        }
        if row.joins_own {
            if !self.has_own_follower(p, seg) {
                return Err(format!(
                    "{} joins one of its owner's followers, and there is none in that {}",
                    kind.words(),
                    feature.name()
                ));
            }
        } else if !ignore_occupancy && self.features.totals(seg).followers > 0 {
            return Err("that feature already has a follower (B-F3)".into());
        }
        Ok(())
    }

    /// Whether `player` has a follower (a figure whose row is tagged `follower`) in the
    /// feature of `seg`.
    fn has_own_follower(&self, player: usize, seg: u32) -> bool {
        let followers = self.rules.figures.kinds(|r| r.has_tag("follower"));
        self.figures.iter().any(|f| {
            f.owner == player && followers.contains(f.kind) && self.features.same(f.seg, seg)
        })
    }

    /// The index in `figures` of the figure with id `id` (an error naming it otherwise).
    pub(crate) fn figure_index(&self, id: i64) -> Result<usize, String> {
        self.figures
            .iter()
            .position(|f| f.id as i64 == id)
            .ok_or_else(|| format!("there is no figure {id} on the board"))
    }

    /// The position of the tile at (x, y) (an error where there is none).
    pub(crate) fn tile_pos(&self, x: i64, y: i64) -> Result<Pos, String> {
        script::pos_of(x, y)
            .filter(|p| self.board.at(*p).is_some())
            .ok_or_else(|| format!("there is no tile at ({x},{y})"))
    }

    /// Checks and applies one command.
    fn apply_command(
        &mut self,
        script: &Arc<str>,
        command: Command,
        events: &mut Vec<Event>,
    ) -> Result<(), String> {
        match command {
            Command::Score {
                player,
                points,
                why,
            } => {
                let player = self.seat(player)?;
                let points = points_of(points)?;
                self.scores[player] = self.scores[player]
                    .checked_add(points)
                    .ok_or("that would take the score past 4294967295 points")?;
                events.push(Event::ScriptScored {
                    script: Arc::clone(script),
                    player,
                    points,
                    why,
                });
            }
            Command::ScoreFeature {
                player,
                points,
                feature,
                rule,
            } => {
                let player = self.seat(player)?;
                let points = points_of(points)?;
                if self.scores[player].checked_add(points).is_none() {
                    return Err("that would take the score past 4294967295 points".into());
                }
                let kind = feature
                    .get("kind")
                    .and_then(|k| k.clone().into_string().ok())
                    .and_then(|k| {
                        [
                            FeatureKind::Road,
                            FeatureKind::City,
                            FeatureKind::Cloister,
                            FeatureKind::Field,
                            FeatureKind::Garden,
                        ]
                        .into_iter()
                        .find(|f| f.name() == k)
                    })
                    .ok_or("score_feature needs the feature map given to feature_scored")?;
                let int = |k: &str| feature.get(k).and_then(|v| v.as_int().ok()).unwrap_or(0);
                let at = script::pos_of(int("x"), int("y")).ok_or("bad feature position")?;
                self.award(player, points, kind, rule_name(&rule), at, events);
            }
            Command::ReturnFigure { id, reason } => {
                let i = self.figure_index(id)?;
                let fid = self.figures[i].id;
                let reason = match reason {
                    None => ReturnReason::Script,
                    Some((family, name)) => self.family_reason(&family, &name)?,
                };
                self.return_figures(|_, f| f.id == fid, reason, events);
            }
            Command::FamilyEvent {
                family,
                name,
                fields,
                pay,
            } => self.family_event(&family, &name, fields, pay, events)?,
            Command::ExtraTurn => {
                let turn = self.turn;
                self.scripts_mut().extra_turn = Some(turn);
            }
            Command::TakeTileUnseen => {
                if !self.take_tile_unseen(script, events) {
                    return Err("no tile is left to take out of the game".into());
                }
            }
            Command::Tokens {
                player,
                group,
                token,
                count,
            } => {
                let seat = self.seat(player)?;
                let count = u32::try_from(count)
                    .ok()
                    .filter(|n| *n <= u32::from(u16::MAX))
                    .ok_or_else(|| format!("a player holds 0 to 65535 tokens, not {count}"))?;
                let seats = self.scores.len();
                (self.scripts_mut().tokens).set(seats, seat, &group, &token, count)?;
            }
            Command::TakeFigure { player, kind } => {
                let (p, kind, i) = self.seat_kind(player, &kind)?;
                if self.supply[p][i] == 0 {
                    return Err(format!(
                        "player {p} has no {} in supply to take",
                        kind.noun()
                    ));
                }
                self.supply[p][i] -= 1;
                self.held_mut(p)[i] += 1;
                events.push(Event::FollowerHeld {
                    script: Arc::clone(script),
                    player: p,
                    figure: kind,
                });
            }
            Command::ReleaseFigure { player, kind } => {
                let (p, kind, i) = self.seat_kind(player, &kind)?;
                if self.held_at(p, i) == 0 {
                    return Err(format!("the script holds no {} of player {p}", kind.noun()));
                }
                self.held_mut(p)[i] -= 1;
                self.supply[p][i] += 1;
                events.push(Event::FollowerReleased {
                    script: Arc::clone(script),
                    player: p,
                    figure: kind,
                });
            }
            Command::PutFigure {
                player,
                kind,
                x,
                y,
                spot,
                ignore_occupancy,
            } => {
                let (p, kind, i) = self.seat_kind(player, &kind)?;
                let pos = self.tile_pos(x, y)?;
                let seg = script::spot_of(&spot)
                    .and_then(|s| self.seg_at(pos, s))
                    .ok_or_else(|| format!("the tile at ({x},{y}) has no feature at `{spot}`"))?;
                if self.held_at(p, i) == 0 {
                    return Err(format!(
                        "the script holds no {} of player {p} to put",
                        kind.noun()
                    ));
                }
                self.check_put(p, kind, seg, ignore_occupancy)?;
                self.held_mut(p)[i] -= 1;
                self.put_figure(p, kind, seg);
                events.push(Event::FigureDeployed {
                    player: p,
                    figure: kind,
                    x: pos.x,
                    y: pos.y,
                    feature: self.features.segment(seg).kind,
                    spot: self.seg_spot(seg).1,
                });
            }
            Command::Family(apply) => apply(self, script, events)?,
            Command::Points {
                player,
                points,
                rule,
                why,
            } => {
                let player = self.seat(player)?;
                let points = signed_points(points)?;
                let before = i64::from(self.scores[player]);
                let after = (before + points).clamp(0, i64::from(u32::MAX));
                self.scores[player] = u32::try_from(after).unwrap_or(u32::MAX);
                events.push(Event::ScriptPoints {
                    script: Arc::clone(script),
                    player,
                    points: after - before,
                    rule: rule_id(&rule)?,
                    why,
                });
            }
            Command::Transfer {
                from,
                to,
                points,
                rule,
                why,
            } => {
                let (from, to) = (self.seat(from)?, self.seat(to)?);
                if from == to {
                    return Err(format!("a transfer needs two players, not {from} twice"));
                }
                let points = u32::try_from(signed_points(points)?)
                    .map_err(|_| format!("a transfer moves 0 or more points, not {points}"))?;
                let room = u32::MAX - self.scores[to];
                let moved = points.min(self.scores[from]).min(room);
                self.scores[from] -= moved;
                self.scores[to] += moved;
                events.push(Event::ScriptTransfer {
                    script: Arc::clone(script),
                    from,
                    to,
                    points: moved,
                    rule: rule_id(&rule)?,
                    why,
                });
            }
            Command::Custody {
                player,
                kind,
                holder,
                from,
            } => {
                self.take_into_custody(script, player, &kind, holder, from, events)?;
            }
            Command::Free {
                player,
                kind,
                holder,
            } => {
                let (p, kind, _) = self.seat_kind(player, &kind)?;
                let holder = self.seat(holder)?;
                self.free_from_custody(holder, p, kind)?;
                events.push(Event::FigureFreed {
                    script: Arc::clone(script),
                    player: p,
                    holder,
                    figure: kind,
                });
            }
            Command::SetState(state) => {
                state_size(&state, 0, &mut 0)?;
                self.scripts_mut().value = state.flatten();
            }
            Command::Ask { player, offers } => {
                let p = self.seat(player)?;
                let turn = self.turn;
                let scripts = self.scripts_mut();
                let asks = match scripts.asks {
                    (on, n) if on == turn => n + 1,
                    _ => 1,
                };
                scripts.asks = (turn, asks);
                if asks > MAX_ASKS_PER_TURN {
                    return Err(format!(
                        "more than {MAX_ASKS_PER_TURN} decisions asked in one turn: a turn must end"
                    ));
                }
                let mut ids = Vec::new();
                for o in &offers {
                    offer_of(o, &mut ids)?;
                }
                if ids.is_empty() {
                    return Err("ask needs at least one option".into());
                }
                self.scripts_mut().asked.push_back((p, ids));
            }
            Command::Log(text) => events.push(Event::ScriptLog {
                script: Arc::clone(script),
                text,
            }),
        }
        Ok(())
    }

    /// The vocabulary of the family called `family`, for a script's command.
    fn vocabulary_of(&self, family: &str) -> Result<&'static dyn Vocabulary, String> {
        let scripts = self.rules.compiled_scripts();
        let list = scripts.map_or(&[][..], |s| &s.bridge.vocabularies[..]);
        list.iter()
            .find(|(name, _)| *name == family)
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                let names: Vec<&str> = list.iter().map(|(name, _)| *name).collect();
                format!(
                    "there is no family `{family}` with events (the families: {})",
                    names.join(", ")
                )
            })
    }

    /// The reason called `name` of the family `family` for sending a figure home.
    fn family_reason(&self, family: &str, name: &str) -> Result<ReturnReason, String> {
        let vocabulary = self.vocabulary_of(family)?;
        let code = (0..=u8::MAX)
            .map_while(|code| vocabulary.reason(code).map(|r| (code, r)))
            .find(|(_, r)| r.name == name)
            .map(|(code, _)| code)
            .ok_or_else(|| format!("the family `{family}` has no reason `{name}`"))?;
        let mechanic = enlist(vocabulary);
        Ok(ReturnReason::Mechanic(MechanicReason { mechanic, code }))
    }

    /// Logs the family's event `name` made from `fields` (its JSON form), paying `pay` (a
    /// seat and points) first if given.
    fn family_event(
        &mut self,
        family: &str,
        name: &str,
        fields: Map,
        pay: Option<(i64, i64)>,
        events: &mut Vec<Event>,
    ) -> Result<(), String> {
        let vocabulary = self.vocabulary_of(family)?;
        let json = rhai::serde::from_dynamic::<serde_json::Value>(&Dynamic::from_map(fields))
            .map_err(|e| format!("the event's fields cannot be read: {e}"))?;
        let fields = json.as_object().cloned().unwrap_or_default();
        // A seat the game does not have would read as "?": refuse it here.
        if let Some(seat) = fields.get("player").and_then(serde_json::Value::as_i64) {
            self.seat(seat)?;
        }
        let event = Event::Mechanic(
            vocabulary
                .event_from_json(name, &fields)
                .map_err(|e| format!("{family}: {e}"))?,
        );
        let Some((player, points)) = pay else {
            events.push(event);
            return Ok(());
        };
        let player = self.seat(player)?;
        let points = points_of(points)?;
        if self.scores[player].checked_add(points).is_none() {
            return Err("that would take the score past 4294967295 points".into());
        }
        self.credit(player, points, event, events);
        Ok(())
    }

    /// Puts a figure of `player` into `holder`'s custody: from the board (`from`: its id; it
    /// goes home first, as `return_figure` sends it) or from its owner's supply (`None`: a
    /// figure of the kind called `kind`).
    fn take_into_custody(
        &mut self,
        script: &Arc<str>,
        player: i64,
        kind: &str,
        holder: i64,
        from: Option<i64>,
        events: &mut Vec<Event>,
    ) -> Result<(), String> {
        let holder = self.seat(holder)?;
        let (p, kind) = match from {
            Some(id) => {
                let f = &self.figures[self.figure_index(id)?];
                let (fid, owner, kind) = (f.id, f.owner, f.kind);
                self.return_figures(|_, f| f.id == fid, ReturnReason::Script, events);
                (owner, kind)
            }
            None => {
                let (p, kind, _) = self.seat_kind(player, kind)?;
                (p, kind)
            }
        };
        self.hold_in_custody(holder, p, kind)?;
        events.push(Event::FigureInCustody {
            script: Arc::clone(script),
            player: p,
            holder,
            figure: kind,
        });
        Ok(())
    }

    /// Whether this turn is half of a double turn: 2 in the turn a mechanic gave, 1 in a turn
    /// that has earned one, 0 otherwise (`turn_half()`).
    pub(crate) fn turn_half(&self) -> i64 {
        if self.is_extra_turn() {
            2
        } else if self.is_half_turn() {
            1
        } else {
            0
        }
    }

    /// The decision a script asked for: its player.
    pub(crate) fn script_decision(&self) -> (usize, DecisionKind) {
        let asking = self.scripts().and_then(|s| s.asked.front());
        let player = asking.map_or(self.active, |a| a.0);
        (player, DecisionKind::Script)
    }
}

/// The kind of the ruleset's figure table called `name`, and its place in the table: an error
/// that lists the table's names for any other name.
pub(crate) fn figure_kind(game: &Game, name: &str) -> Result<(FigureKind, usize), String> {
    FigureKind::parse(name)
        .and_then(|kind| game.rules.figures.find(kind).map(|(i, _)| (kind, i)))
        .ok_or_else(|| {
            let names: Vec<&str> = game
                .rules
                .figures
                .rows()
                .iter()
                .map(|r| r.kind.name())
                .collect();
            format!(
                "the ruleset has no figure `{name}` (its figures: {})",
                names.join(", ")
            )
        })
}

/// A decision as scripts see it: `#{player, kind}`.
fn decision_map(d: Decision) -> Dynamic {
    let mut m = Map::new();
    m.insert("player".into(), (d.player as i64).into());
    m.insert("kind".into(), Dynamic::from(d.kind.name().to_string()));
    Dynamic::from_map(m)
}

/// The names a tile answers to in narrow hooks: its symbol, then its tags.
fn marks<'a>(
    prints: &'a crate::data::printed::Prints,
    tile: &'a crate::model::tile::TileType,
) -> impl Iterator<Item = &'a str> {
    let symbol = tile.symbol.map(|s| prints.symbol_name(s));
    symbol
        .into_iter()
        .chain(tile.tags.iter().map(String::as_str))
}

/// How many decisions the scripts may ask for in one turn.
const MAX_ASKS_PER_TURN: u32 = 100;

/// The most a script's saved state may hold (bytes of its text, keys and entries).
const STATE_BYTES: usize = 1 << 20;

/// How deeply a script's saved state may nest.
const STATE_DEPTH: usize = 64;

/// Checks that a state to be saved is data that JSON holds, within [`STATE_BYTES`] and
/// [`STATE_DEPTH`] (it lives as long as the game, so it must stay small); `bytes` adds up what
/// is seen so far.
fn state_size(value: &Dynamic, depth: usize, bytes: &mut usize) -> Result<(), String> {
    if depth > STATE_DEPTH {
        return Err(format!(
            "the state nests deeper than {STATE_DEPTH} arrays and maps"
        ));
    }
    *bytes += std::mem::size_of::<Dynamic>();
    if value.is_shared() && depth > 0 {
        // A variable a closure captured: JSON cannot hold it.
        return Err("the state holds a captured variable, which cannot be saved".into());
    }
    let plain =
        value.is_unit() || value.is_bool() || value.is_int() || value.is_float() || value.is_char();
    if let Some(text) = value.read_lock::<rhai::ImmutableString>() {
        *bytes += text.len();
    } else if let Some(list) = value.read_lock::<Array>() {
        for item in list.iter() {
            state_size(item, depth + 1, bytes)?;
        }
    } else if let Some(map) = value.read_lock::<Map>() {
        for (key, item) in map.iter() {
            *bytes += key.len();
            state_size(item, depth + 1, bytes)?;
        }
    } else if !plain {
        return Err(format!(
            "the state holds a {}, which cannot be saved (only (), booleans, numbers, \
             characters, strings, arrays and maps)",
            value.type_name()
        ));
    }
    if *bytes > STATE_BYTES {
        return Err(format!(
            "the state is larger than {} MiB",
            STATE_BYTES >> 20
        ));
    }
    Ok(())
}

/// The most points one command may give, take or move.
pub(crate) const MAX_POINTS: i64 = 1_000_000;

/// Signed points of `points(…)` and `transfer(…)`: at most [`MAX_POINTS`] either way.
fn signed_points(points: i64) -> Result<i64, String> {
    if points.abs() > MAX_POINTS {
        return Err(format!(
            "points are between -{MAX_POINTS} and {MAX_POINTS}, not {points}"
        ));
    }
    Ok(points)
}

/// A rule id a script names (`TW-8`): 1 to 32 letters, digits, `-`, `.` or `_`.
fn rule_id(rule: &str) -> Result<String, String> {
    let ok = (1..=32).contains(&rule.len())
        && rule
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'));
    if ok {
        Ok(rule.to_string())
    } else {
        Err(format!(
            "a rule id is 1 to 32 letters, digits, `-`, `.` or `_` (as `TW-8`), not {rule:?}"
        ))
    }
}

/// Points a script gives: a whole number from 0 to 4294967295.
fn points_of(points: i64) -> Result<u32, String> {
    u32::try_from(points).map_err(|_| {
        if points < 0 {
            format!("points must be 0 or more, not {points}")
        } else {
            format!("points must be at most 4294967295, not {points}")
        }
    })
}

/// The filter key of a placement, a deployment or an action some family's filter compares
/// (`filters`: the dragon's step); other actions are not filtered.
fn filter_key(filters: &[Filter], a: &Action) -> Option<FilterKey> {
    match *a {
        Action::Place { pos, rotation } => Some((
            pos.x as i64,
            pos.y as i64,
            None,
            Some(rotation.degrees() as i64),
        )),
        Action::Deploy { pos, spot, .. } => Some((
            pos.x as i64,
            pos.y as i64,
            Some(spot.name().to_string()),
            None,
        )),
        ref a => filters.iter().find_map(|f| (f.key)(a)),
    }
}

/// A filtered action as scripts see it: `#{x, y}`, with `spot` or `rotation` where it has one.
fn filter_item(filters: &[Filter], a: &Action) -> Option<Dynamic> {
    let (x, y, spot, rotation) = filter_key(filters, a)?;
    let mut m = Map::new();
    m.insert("x".into(), x.into());
    m.insert("y".into(), y.into());
    if let Some(spot) = spot {
        m.insert("spot".into(), Dynamic::from(spot));
    }
    if let Some(r) = rotation {
        m.insert("rotation".into(), r.into());
    }
    Some(Dynamic::from_map(m))
}
