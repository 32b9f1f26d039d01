//! What a ruleset changes from another: the settings (leaf keys of the resolved files, with
//! their `extends` chains followed) that differ, and rulesets made in memory from a base and
//! some of those changes — the one-key rulesets of an ablation ([`ablation`]).

use crate::data::diagnostic::Diagnostic;
use crate::data::files::Named;
use crate::data::library::{self, Kind, Source};
use crate::data::ruleset::{Ruleset, merged_settings};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Keys that name or describe a ruleset rather than set a rule.
const NOT_SETTINGS: [&str; 3] = ["name", "description", "extends"];

/// One setting that differs between a ruleset and the base.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    /// The key, dotted: `pd.fairy.turn_bonus`.
    pub key: String,
    /// The key's parts (a part may itself hold a dot).
    #[serde(skip)]
    pub path: Vec<String>,
    /// Its value in the base (TOML), or none where the base does not set it (its default).
    pub base: Option<String>,
    /// Its value in this ruleset (TOML), or none where it does not set it (its default).
    pub value: Option<String>,
    /// The value itself, to build rulesets with it.
    #[serde(skip)]
    pub raw: Option<toml::Value>,
}

/// What a ruleset is, for the top of a report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct About {
    /// The ruleset as named in the report.
    pub ruleset: String,
    /// Its description.
    pub description: String,
    /// The settings that differ from the first ruleset of the report.
    pub changes: Vec<Change>,
}

/// Every setting of the ruleset `reference` names (as [`Ruleset::load`] finds it), by key.
pub fn settings(reference: &str) -> Result<BTreeMap<Vec<String>, toml::Value>, Diagnostic> {
    let source = library::find(Kind::Ruleset, reference, Named::ByUser)
        .map_err(|msg| Diagnostic::new(Path::new(reference), &Arc::from(""), None, msg))?;
    let mut leaves = BTreeMap::new();
    flatten(&merged_settings(source)?, &mut Vec::new(), &mut leaves);
    for key in NOT_SETTINGS {
        leaves.remove(&vec![key.to_string()]);
    }
    Ok(leaves)
}

/// The leaves of a table (arrays are leaves), by their path.
fn flatten(
    table: &toml::Table,
    at: &mut Vec<String>,
    into: &mut BTreeMap<Vec<String>, toml::Value>,
) {
    for (k, v) in table {
        at.push(k.clone());
        match v {
            toml::Value::Table(t) => flatten(t, at, into),
            _ => {
                into.insert(at.clone(), v.clone());
            }
        }
        at.pop();
    }
}

/// The settings that differ between `base` and `other`, in key order.
pub fn differences(
    base: &BTreeMap<Vec<String>, toml::Value>,
    other: &BTreeMap<Vec<String>, toml::Value>,
) -> Vec<Change> {
    let mut keys: Vec<&Vec<String>> = base.keys().chain(other.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| base.get(*k) != other.get(*k))
        .map(|k| Change {
            key: dotted(k),
            path: k.clone(),
            base: base.get(k).map(show),
            value: other.get(k).map(show),
            raw: other.get(k).cloned(),
        })
        .collect()
}

/// A key as written in TOML: `pd.fairy.turn_bonus` (parts that need it quoted).
fn dotted(path: &[String]) -> String {
    path.iter()
        .map(|p| {
            let bare = !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if bare { p.clone() } else { format!("{p:?}") }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// A value as TOML writes it.
fn show(v: &toml::Value) -> String {
    v.to_string()
}

/// What each ruleset is and how it differs from the first, for rulesets named as
/// [`Ruleset::load`] names them (one that cannot be read shows no description and no changes).
pub fn about(names: &[String]) -> Vec<About> {
    let read: Vec<Option<BTreeMap<Vec<String>, toml::Value>>> =
        names.iter().map(|name| settings(name).ok()).collect();
    names
        .iter()
        .zip(&read)
        .map(|(name, mine)| About {
            ruleset: name.clone(),
            description: Ruleset::load(name)
                .map(|r| r.description.clone())
                .unwrap_or_default(),
            changes: match (&read[0], mine) {
                (Some(base), Some(mine)) => differences(base, mine),
                _ => Vec::new(),
            },
        })
        .collect()
}

/// The rulesets of an ablation, what each is, and the changes it could not take apart.
#[derive(Clone, Debug)]
pub struct Ablation {
    /// The rulesets to play, the base first.
    pub rulesets: Vec<(String, Arc<Ruleset>)>,
    /// What each is and how it differs from the base.
    pub about: Vec<About>,
    /// Changes to keys the variant leaves at their default while the base sets them: no one-key
    /// ruleset can be written for them (the lab does not know the default).
    pub unset: Vec<Change>,
}

/// Why an ablation cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AblationError {
    /// The two rulesets set the same rules.
    #[error("`{0}` and `{1}` set every rule alike: there is nothing to take apart")]
    Same(String, String),
    /// A ruleset could not be read or built.
    #[error("{0}")]
    Ruleset(String),
}

/// Which rulesets an ablation plays besides the base and the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ablate {
    /// The base with one changed key at a time.
    Each,
    /// Also the variant with one change undone at a time (the base with all changes but one).
    AllButOne,
}

impl std::str::FromStr for Ablate {
    type Err = String;

    fn from_str(text: &str) -> Result<Ablate, String> {
        match text {
            "each" => Ok(Ablate::Each),
            "all-but-one" => Ok(Ablate::AllButOne),
            _ => Err(format!(
                "`{text}`: write `each` (one key at a time) or `all-but-one`"
            )),
        }
    }
}

/// The rulesets of an ablation of `variant` against `base` (both as the user names them): the
/// base, the variant, the base with each changed key alone (named `+KEY=VALUE`) and, for
/// [`Ablate::AllButOne`], the base with every change but one (named `-KEY`). Built in memory:
/// no file is written.
pub fn ablation(base: &str, variant: &str, how: Ablate) -> Result<Ablation, AblationError> {
    let err = |d: Diagnostic| AblationError::Ruleset(d.render());
    let base_rules = Ruleset::load(base).map_err(err)?;
    let variant_rules = Ruleset::load(variant).map_err(err)?;
    let changes = differences(
        &settings(base).map_err(err)?,
        &settings(variant).map_err(err)?,
    );
    if changes.is_empty() {
        return Err(AblationError::Same(base.into(), variant.into()));
    }
    let (settable, unset): (Vec<Change>, Vec<Change>) =
        changes.iter().cloned().partition(|c| c.raw.is_some());
    let about = |name: &str, description: &str, changes: Vec<Change>| About {
        ruleset: name.to_string(),
        description: description.to_string(),
        changes,
    };
    let mut ablation = Ablation {
        rulesets: vec![
            (base.to_string(), base_rules.clone()),
            (variant.to_string(), variant_rules.clone()),
        ],
        about: vec![
            about(base, &base_rules.description, Vec::new()),
            about(variant, &variant_rules.description, changes),
        ],
        unset,
    };
    let near = variant_rules.path.parent().unwrap_or(Path::new("."));
    let mut add = |name: String, keys: Vec<&Change>| -> Result<(), AblationError> {
        let words = if keys.len() == 1 {
            format!("`{base}` with this setting of `{variant}` alone")
        } else {
            format!("`{base}` with every setting of `{variant}` but one")
        };
        let rules = with_changes(&base_rules, base, near, &name, &words, &keys).map_err(err)?;
        let owned: Vec<Change> = keys.into_iter().cloned().collect();
        ablation.about.push(about(&name, &rules.description, owned));
        ablation.rulesets.push((name, Arc::new(rules)));
        Ok(())
    };
    for c in &settable {
        add(
            format!("+{}={}", c.key, c.value.as_deref().unwrap_or("")),
            vec![c],
        )?;
    }
    if how == Ablate::AllButOne && settable.len() > 1 {
        for left in &settable {
            let keys = settable.iter().filter(|c| c.key != left.key).collect();
            add(format!("-{}", left.key), keys)?;
        }
    }
    Ok(ablation)
}

/// The ruleset `base` (named `reference`) with `changes` set, read from text made in memory as
/// if it lay in `near` (so that paths it writes resolve there).
fn with_changes(
    base: &Ruleset,
    reference: &str,
    near: &Path,
    name: &str,
    description: &str,
    changes: &[&Change],
) -> Result<Ruleset, Diagnostic> {
    // The base by a path that resolves from anywhere: its file if it has one, else its name
    // (a built-in ruleset).
    let parent = match std::fs::canonicalize(&base.path) {
        Ok(p) => p.display().to_string(),
        Err(_) => reference.to_string(),
    };
    let mut table = toml::Table::new();
    table.insert("extends".into(), toml::Value::String(parent));
    table.insert("name".into(), toml::Value::String(name.into()));
    table.insert(
        "description".into(),
        toml::Value::String(description.into()),
    );
    for c in changes {
        if let Some(value) = &c.raw {
            set(&mut table, &c.path, value.clone());
        }
    }
    let text = toml::to_string(&table).unwrap_or_default();
    let file: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    Ruleset::from_source(Source {
        path: PathBuf::from(near).join(format!("<ablation {file}>.toml")),
        text,
    })
}

/// Sets `value` at `path` in `table`, making the tables on the way.
fn set(table: &mut toml::Table, path: &[String], value: toml::Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = table;
    for p in parents {
        let next = at
            .entry(p.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if !next.is_table() {
            *next = toml::Value::Table(toml::Table::new());
        }
        let toml::Value::Table(t) = next else {
            return;
        };
        at = t;
    }
    at.insert(last.clone(), value);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> BTreeMap<Vec<String>, toml::Value> {
        let mut leaves = BTreeMap::new();
        flatten(
            &toml::from_str(text).expect("test TOML"),
            &mut Vec::new(),
            &mut leaves,
        );
        leaves
    }

    #[test]
    fn differences_name_each_leaf_with_both_values() {
        let base = table("a = 1\n[pd.fairy]\nturn_bonus = 1\nattach = \"follower\"\n");
        let other = table("a = 1\nb = [1, 2]\n[pd.fairy]\nturn_bonus = 0\nattach = \"follower\"\n");
        let d = differences(&base, &other);
        let shown: Vec<(&str, Option<&str>, Option<&str>)> = d
            .iter()
            .map(|c| (c.key.as_str(), c.base.as_deref(), c.value.as_deref()))
            .collect();
        assert_eq!(
            shown,
            vec![
                ("b", None, Some("[1, 2]")),
                ("pd.fairy.turn_bonus", Some("1"), Some("0")),
            ]
        );
    }

    #[test]
    fn set_makes_the_tables_on_the_way() {
        let mut t = toml::Table::new();
        set(
            &mut t,
            &["pd".into(), "fairy".into(), "turn_bonus".into()],
            toml::Value::Integer(0),
        );
        assert_eq!(t.to_string().trim(), "[pd.fairy]\nturn_bonus = 0");
        assert_eq!(dotted(&["tiles".into(), "A.1".into()]), "tiles.\"A.1\"");
    }
}
