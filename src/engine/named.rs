//! Actions named by the mechanic that offers them: a name and arguments (scripts' actions,
//! `script = ["enter", 2]` in records), interned so that [`crate::engine::action::Action`]
//! stays a small `Copy` value. The engine reads names and labels here; the script layer fills
//! the table.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Mutex, OnceLock};

/// A value passed to or from a script action.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Arg {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A string.
    Text(String),
}

/// An action a script offers: a name and its arguments (`script = ["enter", 2]` in records).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScriptAction {
    /// The name the script gave it.
    pub name: String,
    /// Its arguments.
    pub args: Vec<Arg>,
    /// Plain words for people (not part of the action's identity).
    pub label: String,
}

/// An argument seen without copying it: from a record's [`Arg`] or straight from a script's
/// value.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum ArgRef<'a> {
    Int(i64),
    Bool(bool),
    Text(&'a str),
}

impl ArgRef<'_> {
    /// The argument `a` seen without copying it.
    pub(crate) fn of(a: &Arg) -> ArgRef<'_> {
        match a {
            Arg::Int(i) => ArgRef::Int(*i),
            Arg::Bool(b) => ArgRef::Bool(*b),
            Arg::Text(t) => ArgRef::Text(t),
        }
    }

    fn owned(self) -> Arg {
        match self {
            ArgRef::Int(i) => Arg::Int(i),
            ArgRef::Bool(b) => Arg::Bool(b),
            ArgRef::Text(t) => Arg::Text(t.to_string()),
        }
    }
}

fn mix(h: u64, v: u64) -> u64 {
    (h.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

fn text(mut h: u64, t: &[u8]) -> u64 {
    for chunk in t.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = mix(h, u64::from_le_bytes(word));
    }
    mix(h, t.len() as u64)
}

/// A quick hash of an action's name and arguments (the interning table's keys are short and
/// not chosen by an adversary).
fn key_hash<'a>(name: &str, args: impl Iterator<Item = ArgRef<'a>>) -> u64 {
    let mut h = text(0, name.as_bytes());
    for a in args {
        h = match a {
            ArgRef::Int(i) => mix(mix(h, 1), i as u64),
            ArgRef::Bool(b) => mix(mix(h, 2), u64::from(b)),
            ArgRef::Text(t) => text(mix(h, 3), t.as_bytes()),
        };
    }
    h
}

/// The interned script actions: by id, and the ids of each key hash.
#[derive(Default)]
struct Interned {
    actions: Vec<ScriptAction>,
    /// The label template of each action whose label is not filled in yet (filled when the
    /// action is first read: most offered actions are never chosen nor shown).
    templates: Vec<Option<Box<str>>>,
    ids: HashMap<u64, Vec<u32>, BuildHasherDefault<KeyIsHash>>,
}

/// The interning table's keys are [`key_hash`]es already: its map takes them as they are
/// rather than hashing them again.
#[derive(Default)]
struct KeyIsHash(u64);

impl Hasher for KeyIsHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = text(self.0, bytes);
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Script actions are interned so that [`crate::engine::action::Action`] stays a small `Copy` value;
/// the id is process-local and never written anywhere.
fn interner() -> &'static Mutex<Interned> {
    static TABLE: OnceLock<Mutex<Interned>> = OnceLock::new();
    TABLE.get_or_init(|| Mutex::new(Interned::default()))
}

/// The id of a script action (same name and arguments → same id). The label is a template:
/// `{0}`, `{1}` … stand for the arguments (filled in once, when the action is first read with
/// [`action`]); an empty label is the action's name.
pub fn intern(action: ScriptAction) -> u32 {
    let label = (!action.label.is_empty()).then_some(action.label.as_str());
    let args: Vec<ArgRef<'_>> = action.args.iter().map(ArgRef::of).collect();
    intern_offer(&action.name, &args, label)
}

/// [`intern`] from borrowed parts: nothing is copied for an action seen before, and the label
/// template is kept to be filled in when the action is first read.
pub(crate) fn intern_offer(name: &str, args: &[ArgRef<'_>], label: Option<&str>) -> u32 {
    let hash = key_hash(name, args.iter().copied());
    let mut table = interner().lock().unwrap_or_else(|e| e.into_inner());
    let table = &mut *table;
    let known = table.ids.get(&hash).and_then(|ids| {
        ids.iter().copied().find(|&i| {
            let a = &table.actions[i as usize];
            a.name == name
                && a.args.len() == args.len()
                && a.args.iter().zip(args).all(|(x, y)| ArgRef::of(x) == *y)
        })
    });
    if let Some(i) = known {
        // An action whose label is its name takes the next label it is offered with.
        let known = &table.actions[i as usize];
        let unlabelled = match &table.templates[i as usize] {
            None => known.label == known.name,
            Some(t) => label.is_some_and(|l| l != &**t) && fill(t, &known.args) == known.name,
        };
        if let Some(l) = label.filter(|_| unlabelled) {
            table.templates[i as usize] = Some(l.into());
        }
        return i;
    }
    let id = table.actions.len() as u32;
    let args: Vec<Arg> = args.iter().map(|a| a.owned()).collect();
    table.actions.push(ScriptAction {
        name: name.to_string(),
        args,
        // The name stands until the template is filled in (`action`).
        label: name.to_string(),
    });
    table.templates.push(label.map(Box::from));
    table.ids.entry(hash).or_default().push(id);
    id
}

/// A label template with `{i}` replaced by argument `i` (a `{i}` past the arguments stays as
/// written).
fn fill(template: &str, args: &[Arg]) -> String {
    if !template.contains('{') {
        return template.to_string();
    }
    // An argument that itself holds a brace could make a later `{i}` of the replacements:
    // those are replaced one argument after the other, as written.
    if args
        .iter()
        .any(|a| matches!(a, Arg::Text(t) if t.contains('{')))
    {
        return fill_in_turn(template, args);
    }
    // One pass over the template: each `{i}` of an argument is written in its place.
    let mut out = String::with_capacity(template.len() + 8 * args.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        // `{i}` exactly as `i` is written: no sign, no leading zero.
        let written = digits == 1 || (digits > 1 && !after.starts_with('0'));
        let arg = (written && after.as_bytes().get(digits) == Some(&b'}'))
            .then(|| after[..digits].parse::<usize>().ok())
            .flatten()
            .and_then(|i| args.get(i));
        match arg {
            Some(a) => {
                write_arg(&mut out, a);
                rest = &after[digits + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// [`fill`] one argument after the other: `{0}` everywhere, then `{1}` in the result, ….
fn fill_in_turn(template: &str, args: &[Arg]) -> String {
    let mut out = template.to_string();
    for (i, a) in args.iter().enumerate() {
        let mut text = String::new();
        write_arg(&mut text, a);
        out = out.replace(&format!("{{{i}}}"), &text);
    }
    out
}

/// Appends an argument as a label writes it.
fn write_arg(out: &mut String, a: &Arg) {
    use std::fmt::Write;
    // Writing to a `String` cannot fail.
    let _ = match a {
        Arg::Int(n) => write!(out, "{n}"),
        Arg::Bool(b) => write!(out, "{b}"),
        Arg::Text(t) => out.write_str(t),
    };
}

/// What `read` makes of the script action with this id, read in place (its label may still be
/// its name); `None` for an id never given out.
pub(crate) fn with_action<T>(id: u32, read: impl FnOnce(&ScriptAction) -> T) -> Option<T> {
    let table = interner().lock().unwrap_or_else(|e| e.into_inner());
    table.actions.get(id as usize).map(read)
}

/// The script action with this id (its label filled in from its template the first time).
pub fn action(id: u32) -> ScriptAction {
    let mut table = interner().lock().unwrap_or_else(|e| e.into_inner());
    let table = &mut *table;
    let template = table.templates.get_mut(id as usize).and_then(Option::take);
    if let (Some(t), Some(a)) = (template, table.actions.get_mut(id as usize)) {
        a.label = fill(&t, &a.args);
    }
    table
        .actions
        .get(id as usize)
        .cloned()
        .unwrap_or(ScriptAction {
            name: "?".into(),
            args: Vec::new(),
            label: String::new(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass label fill writes what replacing one argument after the other writes.
    #[test]
    fn one_pass_fill_matches_replacing_in_turn() {
        let args = [
            Arg::Int(-3),
            Arg::Bool(true),
            Arg::Text("N".into()),
            Arg::Int(12),
        ];
        let templates = [
            "at ({0},{1}) {2}",
            "{3}{3}{0}",
            "{4} {5} {10} {00} {01} {+1} {} {x} { {0",
            "{{0}} }{2}{",
            "no braces",
            "{0}{1}{2}{3}",
        ];
        for t in templates {
            assert_eq!(fill(t, &args), fill_in_turn(t, &args), "{t}");
        }
        assert_eq!(fill("at ({0},{1}) {2}", &args), "at (-3,true) N");
        // An argument holding a brace is replaced in turn, as before.
        let braced = [Arg::Text("{1}".into()), Arg::Int(7)];
        assert_eq!(fill("{0}!", &braced), "7!");
    }
}
