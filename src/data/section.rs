//! A family's own part of a ruleset: its switches in `[mechanics]` and its own section
//! (`[pd]`, `[count]`, `[base]`), declared by the family and read by the ruleset loader without
//! the loader knowing the family.
//!
//! A family describes its part with a [`FamilyRules`]: the switches it answers to and, if it
//! has toggles of its own, a [`SectionReader`] made from its typed section ([`Reader`] over a
//! type implementing [`Section`]). The loader checks each file of an `extends` chain against
//! every family's section (so an error points into the file that has it), reads the merged
//! sections into a family-keyed store ([`Sections`]), and the family reads its own back by
//! type ([`Sections::get`]).

use crate::data::figures::FollowerKind;
use crate::model::figure::FigureTable;
use serde::de::DeserializeOwned;
use std::any::{Any, TypeId};
use std::fmt::Debug;
use std::marker::PhantomData;

/// A switch of `[mechanics]` that a family answers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switch {
    /// Its key in `[mechanics]`.
    pub name: &'static str,
    /// Whether it is on when no file writes it.
    pub default: bool,
}

/// A family's part of a ruleset: its switches and its own section.
#[derive(Clone, Copy)]
pub struct FamilyRules {
    /// Its switches in `[mechanics]`.
    pub switches: &'static [Switch],
    /// Its own section, if it has toggles.
    pub section: Option<&'static dyn SectionReader>,
}

impl Debug for FamilyRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FamilyRules")
            .field("switches", &self.switches)
            .field("section", &self.section.map(|s| s.key()))
            .finish()
    }
}

/// The switches of `[mechanics]` of a ruleset, each on or off, in the families' order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Switches(Vec<(&'static str, bool)>);

impl Switches {
    /// Every switch the families declare, at its default.
    pub fn defaults(families: &[FamilyRules]) -> Switches {
        Switches(
            (families.iter())
                .flat_map(|f| f.switches.iter().map(|s| (s.name, s.default)))
                .collect(),
        )
    }

    /// Whether the switch `name` is on (`false` for a switch no family declares). Rules ask
    /// it on every move: the lengths and first letters sort out most names without a compare.
    #[inline]
    pub fn on(&self, name: &str) -> bool {
        let first = name.as_bytes().first();
        self.0.iter().any(|(n, on)| {
            *on && n.len() == name.len() && n.as_bytes().first() == first && *n == name
        })
    }

    /// Sets a declared switch; `false` if no family declares it.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => {
                *v = on;
                true
            }
            None => false,
        }
    }

    /// The names of every switch, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.iter().map(|(n, _)| *n)
    }
}

/// What is wrong with a section's values: the path of the key at fault (from the top of the
/// file, e.g. `["pd", "dragon", "steps"]`) and what is wrong, in the user's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The key at fault.
    pub path: Vec<&'static str>,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// A problem at `path`.
    pub fn at(path: &[&'static str], message: impl Into<String>) -> Problem {
        Problem {
            path: path.to_vec(),
            message: message.into(),
        }
    }
}

/// What a ruleset's sections say about its figure rows' defaults (the figure table is built
/// from them and the `[figures.NAME]` sections).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FigureDefaults {
    /// The follower row's count unless the ruleset writes `figures.follower.per_player`.
    pub followers_per_player: u8,
    /// The follower kinds the princess removes as knights.
    pub knights: Vec<FollowerKind>,
    /// The follower kinds that may use the magic portal.
    pub portal: Vec<FollowerKind>,
}

/// The files of an `extends` chain as written, child first: for settings that two sections
/// share ([`Section::settle`]), which file writes a key.
pub struct Written<'a>(pub(crate) Vec<&'a toml::Table>);

impl Written<'_> {
    /// The file nearest the child (0 is the child) that writes the key at `path`.
    pub fn nearest(&self, path: &[&str]) -> Option<usize> {
        self.0.iter().position(|t| lookup(t, path).is_some())
    }

    /// What file `file` writes at `path`.
    pub fn value(&self, file: usize, path: &[&str]) -> Option<&toml::Value> {
        lookup(self.0.get(file)?, path)
    }
}

/// The value at a path of keys in a table.
fn lookup<'t>(table: &'t toml::Table, path: &[&str]) -> Option<&'t toml::Value> {
    let (first, rest) = path.split_first()?;
    let mut v = table.get(*first)?;
    for k in rest {
        v = v.as_table()?.get(*k)?;
    }
    Some(v)
}

/// A family's own section of a ruleset, as a typed value read from TOML with serde (its
/// unknown keys refused with `#[serde(deny_unknown_fields)]`).
pub trait Section: DeserializeOwned + Default + Clone + Debug + Send + Sync + 'static {
    /// Its key at the top of a ruleset file (`pd` for `[pd]`, `[pd.dragon]`, …).
    const KEY: &'static str;

    /// Checks what serde cannot judge alone (ranges, combinations, other switches).
    fn check(&self, _switches: &Switches) -> Result<(), Problem> {
        Ok(())
    }

    /// Adds what it says about figure rows' defaults.
    fn figure_defaults(&self, _defaults: &mut FigureDefaults) {}

    /// Takes note of the figure table the ruleset ends up with.
    fn figures_made(&mut self, _table: &FigureTable) {}

    /// Settles what it shares with other sections, once every section is read: `written`
    /// tells which file of the chain writes a key.
    fn settle(_sections: &mut Sections, _written: &Written<'_>) -> Result<(), Problem> {
        Ok(())
    }
}

/// A section read and checked for the loader, whatever its type ([`Reader`] makes one from a
/// [`Section`]).
pub trait SectionReader: Send + Sync {
    /// Its key at the top of a ruleset file.
    fn key(&self) -> &'static str;
    /// Checks the section as one file writes it (errors located in that file).
    fn check_file(
        &self,
        value: toml::Spanned<toml::de::DeValue<'_>>,
    ) -> Result<(), toml::de::Error>;
    /// Reads the merged section (its defaults where no file writes it).
    fn read(&self, value: Option<toml::Value>) -> Result<Box<dyn SectionValue>, toml::de::Error>;
    /// Settles what it shares with other sections ([`Section::settle`]).
    fn settle(&self, sections: &mut Sections, written: &Written<'_>) -> Result<(), Problem>;
}

/// The [`SectionReader`] of the section type `T`: `&Reader::<PdRules>::NEW`.
pub struct Reader<T>(PhantomData<fn() -> T>);

impl<T> Reader<T> {
    /// The reader.
    pub const NEW: Reader<T> = Reader(PhantomData);
}

impl<T: Section> SectionReader for Reader<T> {
    fn key(&self) -> &'static str {
        T::KEY
    }

    fn check_file(
        &self,
        value: toml::Spanned<toml::de::DeValue<'_>>,
    ) -> Result<(), toml::de::Error> {
        T::deserialize(toml::de::ValueDeserializer::from(value)).map(|_| ())
    }

    fn read(&self, value: Option<toml::Value>) -> Result<Box<dyn SectionValue>, toml::de::Error> {
        Ok(Box::new(match value {
            Some(v) => v.try_into::<T>()?,
            None => T::default(),
        }))
    }

    fn settle(&self, sections: &mut Sections, written: &Written<'_>) -> Result<(), Problem> {
        T::settle(sections, written)
    }
}

/// A section's value kept in a ruleset, whatever its type ([`Section`] gives it).
pub trait SectionValue: Any + Debug + Send + Sync {
    /// A boxed copy.
    fn boxed(&self) -> Box<dyn SectionValue>;
    /// [`Section::check`].
    fn check(&self, switches: &Switches) -> Result<(), Problem>;
    /// [`Section::figure_defaults`].
    fn figure_defaults(&self, defaults: &mut FigureDefaults);
    /// [`Section::figures_made`].
    fn figures_made(&mut self, table: &FigureTable);
    /// For reading it as its own type.
    fn as_any(&self) -> &dyn Any;
    /// For changing it as its own type.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Section> SectionValue for T {
    fn boxed(&self) -> Box<dyn SectionValue> {
        Box::new(self.clone())
    }
    fn check(&self, switches: &Switches) -> Result<(), Problem> {
        Section::check(self, switches)
    }
    fn figure_defaults(&self, defaults: &mut FigureDefaults) {
        Section::figure_defaults(self, defaults);
    }
    fn figures_made(&mut self, table: &FigureTable) {
        Section::figures_made(self, table);
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A ruleset's sections, each kept under its type: a family reads its own with
/// [`Sections::get`].
#[derive(Debug, Default)]
pub struct Sections(Vec<(TypeId, Box<dyn SectionValue>)>);

impl Clone for Sections {
    fn clone(&self) -> Self {
        Sections(self.0.iter().map(|(t, v)| (*t, v.boxed())).collect())
    }
}

impl Sections {
    /// The section of type `T`, if the ruleset has one (every family of the registry has).
    /// Rules read their toggles on every move: this is a scan of a few type ids, no call.
    #[inline]
    pub fn get<T: Section>(&self) -> Option<&T> {
        let id = TypeId::of::<T>();
        let (_, v) = self.0.iter().find(|(t, _)| *t == id)?;
        // SAFETY: `push` keeps each value with its own type's id (taken from the value), so
        // the value found under `T`'s id is a `T`; the pointer's data part is its address.
        Some(unsafe { &*(v.as_ref() as *const dyn SectionValue).cast::<T>() })
    }

    /// The section of type `T`, looked for first at the place `at` remembers (the sections of
    /// every ruleset stand in the families' order, so one look finds it), and `at` set to
    /// where it was found.
    #[inline]
    pub fn get_cached<T: Section>(&self, at: &std::sync::atomic::AtomicUsize) -> Option<&T> {
        use std::sync::atomic::Ordering::Relaxed;
        let id = TypeId::of::<T>();
        let i = at.load(Relaxed);
        let found = match self.0.get(i) {
            Some((t, v)) if *t == id => v,
            _ => {
                let i = self.0.iter().position(|(t, _)| *t == id)?;
                at.store(i, Relaxed);
                &self.0[i].1
            }
        };
        // SAFETY: as in `get`: the value kept under `T`'s id is a `T`.
        Some(unsafe { &*(found.as_ref() as *const dyn SectionValue).cast::<T>() })
    }

    /// The section of type `T` to change, if the ruleset has one.
    pub fn get_mut<T: Section>(&mut self) -> Option<&mut T> {
        let id = TypeId::of::<T>();
        let (_, v) = self.0.iter_mut().find(|(t, _)| *t == id)?;
        v.as_any_mut().downcast_mut::<T>()
    }

    /// Adds a section read by the loader.
    pub(crate) fn push(&mut self, value: Box<dyn SectionValue>) {
        let id = value.as_any().type_id();
        self.0.push((id, value));
    }

    /// Every section, in the families' order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &dyn SectionValue> + '_ {
        self.0.iter().map(|(_, v)| v.as_ref())
    }

    /// Every section to change, in the families' order.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Box<dyn SectionValue>> + '_ {
        self.0.iter_mut().map(|(_, v)| v)
    }
}
