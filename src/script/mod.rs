//! Rhai scripts: variants and house rules that need behaviour, not just a value.
//!
//! A ruleset lists its scripts (`scripts = ["../scripts/my-rule.rhai"]`, or bare names of
//! scripts in `scripts/`); every script of an `extends` chain is loaded. A script defines any
//! of the hook functions below; the game calls each one at its stage of the turn pipeline, the
//! same stages the built-in mechanics use; `scripts/README.md` lists them beside the trait's
//! hooks (one table, checked by `tests/mechanics.rs`) with their narrow forms.
//!
//! Hooks read the game through query functions (`figures()`, `tile_at(x, y)`, …) and change it
//! only through commands (`score(…)`, `put_follower(…)`, `ask(…)`, …) that the host checks like
//! any move, so a script cannot corrupt a game. This layer names no family: each family
//! registers its own queries, commands and decision hooks (`family`). Scripts run sandboxed:
//! operation, call-depth and size limits, no `eval`, no file or network access, imports only
//! from `scripts/`. The API is documented in `scripts/README.md`.

pub(crate) mod api;
pub(crate) mod chance;
pub(crate) mod family;
pub use crate::engine::budget;
pub(crate) mod host;
pub(crate) mod load;
pub mod mechanic;
pub(crate) mod place;
pub mod tokens;
pub(crate) mod watch;

use crate::data::diagnostic::Diagnostic;
pub use crate::data::scripting::Limits;
pub use crate::engine::fault::ScriptError;
use crate::engine::game::Game;
pub use crate::engine::named::{Arg, ScriptAction, action, intern};
pub(crate) use crate::engine::named::{ArgRef, intern_offer};
use crate::model::geometry::{Pos, Spot};
use rhai::{AST, Array, CallFnOptions, Dynamic, Engine, EvalAltResult, Map, Position, Scope};
use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Variables a script may hold at once, over all its nested calls.
pub const MAX_VARIABLES: usize = 1_000;

thread_local! {
    static CALLS: Cell<u64> = const { Cell::new(0) };
}

/// How many hook calls this thread has made (tests use it to prove that a ruleset without
/// scripts never enters rhai).
pub fn calls_on_this_thread() -> u64 {
    CALLS.with(|c| c.get())
}

/// A command a hook gives; the host applies and checks it after the hook returns.
pub(crate) enum Command {
    Score {
        player: i64,
        points: i64,
        why: String,
    },
    ScoreFeature {
        player: i64,
        points: i64,
        feature: Map,
        rule: String,
    },
    /// `return_figure(id)`, or `return_figure(id, family, reason)` with a family's reason.
    ReturnFigure {
        id: i64,
        reason: Option<(String, String)>,
    },
    /// `event(family, name, fields)`, or `credit(p, n, family, name, fields)` with the points
    /// (`pay`: seat and points) the event says were paid.
    FamilyEvent {
        family: String,
        name: String,
        fields: Map,
        pay: Option<(i64, i64)>,
    },
    /// `give_extra_turn()`: the active player plays again right after this turn.
    ExtraTurn,
    /// `take_tile_unseen()`: the next tile of the supply leaves the game, seen by nobody.
    TakeTileUnseen,
    /// `hold_tokens(p, group, token, n)`: player `p` holds `n` tokens `token` of `group`.
    Tokens {
        player: i64,
        group: String,
        token: String,
        count: i64,
    },
    /// `take_follower(p)` (kind `follower`) or `take_figure(p, kind)`.
    TakeFigure {
        player: i64,
        kind: String,
    },
    /// `release_follower(p)` or `release_figure(p, kind)`.
    ReleaseFigure {
        player: i64,
        kind: String,
    },
    /// `put_follower(p, …)` or `put_figure(p, kind, …)`.
    PutFigure {
        player: i64,
        kind: String,
        x: i64,
        y: i64,
        spot: String,
        ignore_occupancy: bool,
    },
    /// `points(p, n, rule, why)`: signed points under a rule.
    Points {
        player: i64,
        points: i64,
        rule: String,
        why: String,
    },
    /// `transfer(from, to, n, rule, why)`.
    Transfer {
        from: i64,
        to: i64,
        points: i64,
        rule: String,
        why: String,
    },
    /// `hold_figure(p, kind, holder)` (`from: None`) or `capture(id, holder)`.
    Custody {
        player: i64,
        kind: String,
        holder: i64,
        from: Option<i64>,
    },
    /// `release_custody(p, kind, holder)`.
    Free {
        player: i64,
        kind: String,
        holder: i64,
    },
    /// A family's own command (the dragon's, the fairy's, …).
    Family(family::FamilyCommand),
    SetState(Dynamic),
    Ask {
        player: i64,
        offers: Array,
    },
    Log(String),
}

/// One loaded script.
struct Unit {
    path: PathBuf,
    name: Arc<str>,
    ast: AST,
    text: String,
    /// The script's functions with their numbers of parameters (hooks are looked up here, so
    /// asking whether a hook exists costs no walk over the script).
    functions: HashMap<String, Vec<usize>>,
}

/// The scripts of a ruleset, compiled once, with the sandboxed engine that runs them.
pub struct Scripts {
    engine: Engine,
    units: Vec<Unit>,
    /// The game while a hook runs (moved in and out, so queries see the real game).
    slot: Arc<Mutex<Option<Game>>>,
    commands: Arc<Mutex<Vec<(Command, Position)>>>,
    /// One hook call at a time per ruleset: games on several threads share the slot.
    running: Mutex<()>,
    /// The functions the scripts define, in name order, so that finding the narrow forms of a
    /// hook that apply builds no names.
    narrow: Vec<String>,
    /// The same names by length, then name: most comparisons of [`Scripts::defines`]' search
    /// are settled by the length alone, without reading the names.
    by_length: Vec<String>,
    /// The bits [`name_bit`] gives the same names: a hook whose bit is clear is defined by no
    /// script, settled without a search (most hooks asked about are not defined).
    name_bits: [u64; 4],
    /// What the families told the host (their decision hooks, filters, answers).
    pub(crate) bridge: family::Bridge,
    /// Whether some script adds to or filters the built-in decisions (an `actions…` or a
    /// filter hook): otherwise only the scripts' own questions need a list made in advance.
    pub(crate) shapes_offers: bool,
    /// The narrow forms of the hooks, worked out once: `place_<mark>`, `deploy_<mark>`,
    /// `completed_<mark>` (each with its mark), `answered_<kind>`, `figure_left_<kind>` and
    /// `feature_points_<kind>`.
    pub(crate) narrow_forms: NarrowForms,
}

/// The narrow forms of the hooks (see [`Scripts::narrow_forms`]).
#[derive(Debug, Default)]
pub(crate) struct NarrowForms {
    /// `(hook, mark)` for each `place_<mark>` a script defines, in name order.
    pub(crate) place: Vec<(String, String)>,
    /// `(hook, mark)` for each `deploy_<mark>`, in name order.
    pub(crate) deploy: Vec<(String, String)>,
    /// `(hook, kind)` for each `answered_<kind>`, in name order.
    pub(crate) answered: Vec<(String, String)>,
    /// `(hook, mark)` for each `completed_<mark>`, in name order.
    pub(crate) completed: Vec<(String, String)>,
    /// `(hook, figure kind)` for each `figure_left_<kind>`, in name order.
    pub(crate) figure_left: Vec<(String, String)>,
    /// `(hook, feature kind)` for each `feature_points_<kind>`, in name order.
    pub(crate) feature_points: Vec<(String, String)>,
}

impl fmt::Debug for Scripts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.units.iter().map(|u| u.path.display().to_string()))
            .finish()
    }
}

/// A compiled hook answer: what the script returned plus its commands.
pub(crate) struct Answer {
    pub value: Dynamic,
    pub commands: Vec<(Command, Position)>,
    pub script: Arc<str>,
}

/// Orders names by length, then by name.
fn length_first(a: &str, b: &str) -> std::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// One of 256 bits for a function name, from its length and its first, second and last
/// letters (read without a walk over the name): names with different bits differ.
fn name_bit(name: &str) -> usize {
    let b = name.as_bytes();
    let at = |i: usize| b.get(i).map_or(0, |&c| u32::from(c));
    let h = (b.len() as u32).wrapping_mul(0x9E37_79B9)
        ^ (at(0) << 8 | at(1)).wrapping_mul(0x85EB_CA6B)
        ^ at(b.len().wrapping_sub(1)).wrapping_mul(0xC2B2_AE35);
    (h >> 24) as usize
}

impl Scripts {
    /// Compiles the scripts (`(path, text)` pairs) under `limits`, with the script commands of
    /// `families`; `rules` is what `vars(name)` and `rule(path)` read.
    pub fn load(
        sources: &[(PathBuf, String)],
        limits: Limits,
        rules: toml::Table,
        families: &[fn(&mut family::ScriptApi)],
    ) -> Result<Scripts, Diagnostic> {
        let slot: Arc<Mutex<Option<Game>>> = Arc::new(Mutex::new(None));
        let commands: Arc<Mutex<Vec<(Command, Position)>>> = Arc::new(Mutex::new(Vec::new()));
        let mut engine = sandbox(limits, sources);
        crate::script::api::register(&mut engine, &slot, &commands, Arc::new(rules));
        let mut api = family::ScriptApi::new(&mut engine, &slot, &commands);
        for family in families {
            family(&mut api);
        }
        let bridge = api.into_bridge();
        let mut units = Vec::new();
        for (path, text) in sources {
            // Imports are resolved here, once, so a script that reaches outside the scripts
            // folder is refused at load.
            let ast = engine
                .compile_into_self_contained(&Scope::new(), text)
                .map_err(|e| {
                    let src: Arc<str> = Arc::from(text.as_str());
                    let span = offset(text, position(&e)).or_else(|| import_span(text, &e));
                    Diagnostic::new(path, &src, span, format!("script does not load: {e}"))
                })?;
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut functions: HashMap<String, Vec<usize>> = HashMap::new();
            for f in ast.iter_functions() {
                functions
                    .entry(f.name.to_string())
                    .or_default()
                    .push(f.params.len());
            }
            units.push(Unit {
                path: path.clone(),
                name: Arc::from(name.as_str()),
                ast,
                text: text.clone(),
                functions,
            });
        }
        let mut narrow: Vec<String> = units
            .iter()
            .flat_map(|u| u.functions.keys())
            .cloned()
            .collect();
        narrow.sort();
        narrow.dedup();
        let mut by_length = narrow.clone();
        by_length.sort_by(|a, b| length_first(a, b));
        let mut name_bits = [0u64; 4];
        for name in &narrow {
            let bit = name_bit(name);
            name_bits[bit / 64] |= 1 << (bit % 64);
        }
        let defined = |hook: &str| by_length.iter().any(|n| n == hook);
        let shapes_offers = narrow.iter().any(|n| n.starts_with("actions"))
            || ["filter_placements", "filter_deploy"]
                .into_iter()
                .chain(bridge.filters.iter().map(|f| f.hook))
                .any(defined);
        let forms = |prefix: &str| -> Vec<(String, String)> {
            (narrow.iter())
                .filter_map(|n| Some((n.clone(), n.strip_prefix(prefix)?.to_string())))
                .collect()
        };
        let narrow_forms = NarrowForms {
            place: forms("place_"),
            deploy: forms("deploy_"),
            answered: forms("answered_"),
            completed: forms("completed_"),
            figure_left: forms("figure_left_"),
            feature_points: forms("feature_points_"),
        };
        Ok(Scripts {
            engine,
            units,
            slot,
            commands,
            running: Mutex::new(()),
            narrow,
            by_length,
            name_bits,
            bridge,
            shapes_offers,
            narrow_forms,
        })
    }

    /// The functions some script defines whose names start with `prefix` (`actions`, `place`,
    /// `answered`: the broad hook and its narrow forms), in name order.
    pub(crate) fn hooks_starting(&self, prefix: &str) -> impl Iterator<Item = &str> {
        // In name order the names with the prefix stand together, from the first not below it.
        let from = self.narrow.partition_point(|name| name.as_str() < prefix);
        self.narrow[from..]
            .iter()
            .map(String::as_str)
            .take_while(move |name| name.starts_with(prefix))
    }

    /// Whether any script defines `hook` (checked without running anything).
    pub fn defines(&self, hook: &str) -> bool {
        // Asked before every hook call: most hooks are settled by their bit, the others by a
        // search by length first, which hashes nothing and reads few names.
        let bit = name_bit(hook);
        self.name_bits[bit / 64] & (1 << (bit % 64)) != 0
            && (self.by_length)
                .binary_search_by(|name| length_first(name, hook))
                .is_ok()
    }

    /// The name of the first script that defines `hook`.
    pub(crate) fn definer(&self, hook: &str) -> Option<Arc<str>> {
        self.units
            .iter()
            .find(|u| u.functions.contains_key(hook))
            .map(|u| Arc::clone(&u.name))
    }

    /// Calls `hook` in every script that defines it (but `except`), with the game moved into
    /// the slot so the query functions can read it. Returns each script's answer.
    pub(crate) fn call(
        &self,
        game: &mut Game,
        hook: &str,
        args: Vec<Dynamic>,
        except: Option<&str>,
    ) -> Result<Vec<Answer>, ScriptError> {
        let _one_at_a_time = lock(&self.running);
        let _budget = budget::Budget::hook();
        let arity = args.len();
        let mut due = (self.units.iter())
            .filter(|unit| {
                except != Some(&*unit.name)
                    && (unit.functions.get(hook)).is_some_and(|arities| arities.contains(&arity))
            })
            .peekable();
        let mut args = args;
        let mut answers = Vec::new();
        while let Some(unit) = due.next() {
            // The last script called is given the arguments themselves, the others copies.
            let args = if due.peek().is_none() {
                std::mem::take(&mut args)
            } else {
                args.clone()
            };
            CALLS.with(|c| c.set(c.get() + 1));
            let placeholder = game.placeholder();
            let real = std::mem::replace(game, placeholder);
            *lock(&self.slot) = Some(real);
            lock(&self.commands).clear();
            let mut scope = Scope::new();
            let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
            let result: Result<Dynamic, Box<EvalAltResult>> = self
                .engine
                .call_fn_with_options(options, &mut scope, &unit.ast, hook, args);
            let back = lock(&self.slot).take();
            if let Some(real) = back {
                *game = real;
            }
            let commands = std::mem::take(&mut *lock(&self.commands));
            match result {
                Ok(value) => answers.push(Answer {
                    value,
                    commands,
                    script: Arc::clone(&unit.name),
                }),
                Err(e) => return Err(error(unit, hook, &e)),
            }
        }
        Ok(answers)
    }

    /// A script error raised by the host about a command of `script`.
    pub(crate) fn command_error(
        &self,
        script: &str,
        hook: &str,
        at: Position,
        message: String,
    ) -> ScriptError {
        let unit = self.units.iter().find(|u| &*u.name == script);
        let file = unit.map_or_else(|| script.to_string(), |u| u.path.display().to_string());
        // Where the command was given; for an answer that is wrong, the hook's own line.
        let (line, column) = match (at.line(), unit) {
            (Some(line), _) => (line, at.position().unwrap_or(1)),
            (None, Some(u)) => hook_line(&u.text, hook),
            (None, None) => (1, 1),
        };
        ScriptError {
            file,
            line,
            column,
            hook: hook.to_string(),
            message,
        }
    }
}

/// Locks a mutex, also after a panic elsewhere (the data is plain and stays usable).
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The engine with every limit set and nothing that reaches outside the sandbox.
fn sandbox(limits: Limits, sources: &[(PathBuf, String)]) -> Engine {
    let mut engine = Engine::new();
    engine.set_max_operations(limits.max_operations);
    engine.set_max_call_levels(limits.max_call_depth);
    engine.set_max_expr_depths(64, 32);
    engine.set_max_string_size(limits.max_string_size);
    engine.set_max_array_size(limits.max_array_size);
    engine.set_max_map_size(limits.max_map_size);
    engine.set_max_modules(16);
    // Variables alive at once, over every nested call (each holds at most one value of the
    // sizes above).
    engine.set_max_variables(MAX_VARIABLES);
    // The action's time and memory (see `budget`).
    engine.on_progress(budget::progress);
    engine.disable_symbol("eval");
    // rhai's `sleep` blocks the thread where no budget can stop it: functions registered here
    // are found before the packages', so these take its place (also through `call`).
    engine.register_fn("sleep", refuse_sleep::<i64>);
    engine.register_fn("sleep", refuse_sleep::<f64>);
    // A failed hook is undone by replaying the game, so scripts must be deterministic: rhai is
    // built without its clock (the `no_time` feature), so `timestamp()` does not exist.
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    // Imports resolve only inside the folder of the first script (the project's scripts/),
    // never through `..` or an absolute path.
    let dir = sources
        .first()
        .and_then(|(p, _)| p.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from("scripts"));
    engine.set_module_resolver(ScriptsOnly {
        inner: rhai::module_resolvers::FileModuleResolver::new_with_path(dir.clone()),
        dir,
    });
    engine
}

/// What a script's `sleep(…)` gets: an error, never a pause.
fn refuse_sleep<T>(_seconds: T) -> Result<(), Box<EvalAltResult>> {
    Err("`sleep` is not available to scripts (a game may not wait)".into())
}

/// A module resolver that refuses any path leaving the scripts folder.
struct ScriptsOnly {
    inner: rhai::module_resolvers::FileModuleResolver,
    /// The folder modules come from.
    dir: PathBuf,
}

impl rhai::ModuleResolver for ScriptsOnly {
    fn resolve(
        &self,
        engine: &Engine,
        source: Option<&str>,
        path: &str,
        pos: Position,
    ) -> Result<rhai::Shared<rhai::Module>, Box<EvalAltResult>> {
        let escapes = path.contains("..")
            || path.starts_with('/')
            || path.starts_with('\\')
            || path.contains(':');
        if escapes {
            return Err(Box::new(EvalAltResult::ErrorModuleNotFound(
                format!("{path} (imports come only from the scripts folder)"),
                pos,
            )));
        }
        // The trust boundary: the module file (a link resolved) must be a regular file inside
        // the scripts folder, of a bounded size.
        let file = self.dir.join(format!("{path}.rhai"));
        if file.exists()
            && let Err(why) =
                crate::data::files::read(&file, crate::data::files::Named::ByFile(&self.dir))
        {
            return Err(Box::new(EvalAltResult::ErrorModuleNotFound(
                format!("{path} ({why})"),
                pos,
            )));
        }
        self.inner.resolve(engine, source, path, pos)
    }
}

fn offset(text: &str, pos: Position) -> Option<std::ops::Range<usize>> {
    let line = pos.line()?;
    // rhai counts columns in characters: find the byte where that character starts.
    let col = pos.position().unwrap_or(1).saturating_sub(1);
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    let rest = text.get(line_start..)?;
    let in_line = rest
        .char_indices()
        .take_while(|(_, c)| *c != '\n')
        .nth(col)
        .map_or_else(|| rest.find('\n').unwrap_or(rest.len()), |(i, _)| i);
    let start = line_start + in_line;
    let end = text[start..]
        .chars()
        .next()
        .map_or(start, |c| start + c.len_utf8());
    Some(start..end)
}

/// The most precise position of an error: inside the innermost function call that has one.
/// Where a module that could not be imported is named (`import "…"`), when rhai gives no
/// position for it.
fn import_span(text: &str, e: &EvalAltResult) -> Option<std::ops::Range<usize>> {
    let EvalAltResult::ErrorModuleNotFound(name, _) = e else {
        return None;
    };
    let module = name.split(" (").next().unwrap_or(name);
    let quoted = format!("\"{module}\"");
    let at = text.find(&quoted)?;
    Some(at..at + quoted.len())
}

fn position(e: &EvalAltResult) -> Position {
    match e {
        EvalAltResult::ErrorInFunctionCall(_, _, inner, pos) => {
            let inside = position(inner);
            if inside.is_none() { *pos } else { inside }
        }
        other => other.position(),
    }
}

/// The error inside every function call that wraps it.
fn innermost(e: &EvalAltResult) -> &EvalAltResult {
    match e {
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => innermost(inner),
        other => other,
    }
}

/// A script error; when rhai knows no position (a limit reached), the hook's own line.
fn error(unit: &Unit, hook: &str, e: &EvalAltResult) -> ScriptError {
    let pos = position(e);
    let (line, column) = match (pos.line(), pos.position()) {
        (Some(l), c) => (l, c.unwrap_or(1)),
        (None, _) => hook_line(&unit.text, hook),
    };
    let message = match innermost(e) {
        // Stopped by the action's budget: the reason is the token.
        EvalAltResult::ErrorTerminated(why, _) => why.to_string(),
        _ => e.to_string(),
    };
    ScriptError {
        file: unit.path.display().to_string(),
        line,
        column,
        hook: hook.to_string(),
        message,
    }
}

/// Line and column (1-based, in characters) of `fn hook(` in a script, or (0, 0). Every `fn`
/// of a line is looked at: a one-line script may define several functions.
fn hook_line(text: &str, hook: &str) -> (usize, usize) {
    text.lines()
        .enumerate()
        .find_map(|(i, l)| {
            l.match_indices("fn ").find_map(|(at, _)| {
                l[at + 3..]
                    .trim_start()
                    .strip_prefix(hook)
                    .filter(|rest| rest.trim_start().starts_with('('))
                    .map(|_| (i + 1, l[..at].chars().count() + 1))
            })
        })
        .unwrap_or((0, 0))
}

/// A board position from a script's map `#{x, y}`.
pub(crate) fn pos_of(x: i64, y: i64) -> Option<Pos> {
    Some(Pos::new(i32::try_from(x).ok()?, i32::try_from(y).ok()?))
}

/// A spot from a script's string.
pub(crate) fn spot_of(name: &str) -> Option<Spot> {
    Spot::parse(name)
}
