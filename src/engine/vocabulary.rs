//! What a mechanic adds to the game's vocabulary: its own kinds of action, decision and event.
//!
//! The core types keep the base game's words ([`crate::engine::action::Action::Place`],
//! `Deploy`, `Pass`, …); everything one mechanic owns (the dragon's steps, the fairy's moves,
//! the Count's quarters) travels in one generic arm of each: [`MechanicAction`],
//! [`MechanicDecision`] and [`MechanicEvent`]. Each names its mechanic family by a fixed
//! [`MechanicId`], its own code for the kind, and a payload (two positions and six small
//! values: [`INTS`], [`BYTES`]) that only the family reads.
//!
//! A family never touches the payload by hand: it declares typed enums with
//! [`mechanic_actions!`](crate::mechanic_actions), [`mechanic_decisions!`](crate::mechanic_decisions)
//! and [`mechanic_events!`](crate::mechanic_events), which generate the conversions to and from
//! the arms (fields packed in order into the payload's slots, [`Slot`]), the record keys and
//! notation of actions ([`RecordValue`]), the names of decisions and events and the JSON of
//! events ([`JsonValue`]). The family writes only its enums and their words
//! ([`ActionWords`], [`EventWords`]). Its [`Family`] joins them into the [`Vocabulary`] the
//! rest of the program asks: the names scripts and reports see, the words people read, the keys
//! of records and the JSON form of events. It is reachable from the id alone (records, words and
//! event logs have no game at hand): every constructor enlists its vocabulary in a process-wide
//! table, and the registry lists every built-in one (`vocabularies` in `registry.rs`).

use crate::engine::event::Reason;
use crate::model::figure::FigureKind;
use crate::model::geometry::{Edge, Pos, Rotation, Spot};
use crate::model::tile::FeatureKind;
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::fmt;
use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};

/// The TOML value a record holds for an action (for the generated code of families outside
/// the crate).
pub use toml::Value;

/// A mechanic family's fixed id, chosen by its vocabulary (the registry checks that no two
/// built-in families share one). Not the mechanic's index in a game's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MechanicId(pub u8);

/// How many mechanic families one process can know.
pub const MAX_FAMILIES: usize = 32;

/// How many whole numbers a payload holds: two board positions, or a position and two
/// numbers (a step, points, a count), or four numbers.
pub const INTS: usize = 4;

/// How many small values a payload holds: a spot, a figure kind, a seat, a small count, a
/// quarter, a kind of feature, … (each one byte).
pub const BYTES: usize = 6;

/// An action a mechanic owns: which of its verbs, and a payload its typed value was packed
/// into ([`Slot`]). 24 bytes and `Copy` (a test checks the size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MechanicAction {
    /// The owning family.
    pub mechanic: MechanicId,
    /// The family's own code for the kind of action.
    pub verb: u8,
    /// The small values, in the order the typed value's fields have them.
    pub bytes: [u8; BYTES],
    /// The whole numbers (positions first as `x, y`), in the order of the fields.
    pub ints: [i32; INTS],
}

impl MechanicAction {
    /// An empty action `verb` of `vocabulary`'s family (and the family's vocabulary enlisted).
    #[inline]
    pub fn new(vocabulary: &'static dyn Vocabulary, verb: u8) -> Self {
        MechanicAction {
            mechanic: enlist(vocabulary),
            verb,
            bytes: [0; BYTES],
            ints: [0; INTS],
        }
    }
}

/// A decision a mechanic asks for: which of its kinds, and a payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MechanicDecision {
    /// The owning family.
    pub mechanic: MechanicId,
    /// The family's own code for the kind of decision.
    pub kind: u8,
    /// The small values.
    pub bytes: [u8; BYTES],
    /// The whole numbers.
    pub ints: [i32; INTS],
}

impl MechanicDecision {
    /// An empty decision `kind` of `vocabulary`'s family (and the family's vocabulary enlisted).
    #[inline]
    pub fn new(vocabulary: &'static dyn Vocabulary, kind: u8) -> Self {
        MechanicDecision {
            mechanic: enlist(vocabulary),
            kind,
            bytes: [0; BYTES],
            ints: [0; INTS],
        }
    }

    /// The decision's name, as scripts and reports see it (`"dragon_step"`).
    pub fn name(&self) -> &'static str {
        of(self.mechanic).map_or("?", |v| v.decision_name(self))
    }
}

/// Something a mechanic made happen: which of its kinds of event, and a payload (with a text:
/// a tile id, a script's name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MechanicEvent {
    /// The owning family.
    pub mechanic: MechanicId,
    /// The family's own code for the kind of event.
    pub kind: u8,
    /// The small values.
    pub bytes: [u8; BYTES],
    /// The whole numbers.
    pub ints: [i32; INTS],
    /// A text.
    pub text: Option<Arc<str>>,
}

impl MechanicEvent {
    /// An empty event `kind` of `vocabulary`'s family (and the family's vocabulary enlisted).
    #[inline]
    pub fn new(vocabulary: &'static dyn Vocabulary, kind: u8) -> Self {
        MechanicEvent {
            mechanic: enlist(vocabulary),
            kind,
            bytes: [0; BYTES],
            ints: [0; INTS],
            text: None,
        }
    }
}

/// Where a typed value's fields go: the payload's slots, filled in field order (whole numbers
/// and small values each from the first free slot on). Made by the generated conversions.
pub struct Packer<'a> {
    ints: &'a mut [i32; INTS],
    bytes: &'a mut [u8; BYTES],
    text: Option<&'a mut Option<Arc<str>>>,
    next_int: usize,
    next_byte: usize,
}

impl<'a> Packer<'a> {
    /// A packer into these slots (`text`: the event's text, none for actions and decisions).
    pub fn new(
        ints: &'a mut [i32; INTS],
        bytes: &'a mut [u8; BYTES],
        text: Option<&'a mut Option<Arc<str>>>,
    ) -> Self {
        Packer {
            ints,
            bytes,
            text,
            next_int: 0,
            next_byte: 0,
        }
    }

    /// Puts a whole number in the next free slot.
    pub fn int(&mut self, n: i32) {
        if let Some(slot) = self.ints.get_mut(self.next_int) {
            *slot = n;
        }
        self.next_int += 1;
    }

    /// Puts a small value in the next free slot.
    pub fn byte(&mut self, b: u8) {
        if let Some(slot) = self.bytes.get_mut(self.next_byte) {
            *slot = b;
        }
        self.next_byte += 1;
    }

    /// Puts the text.
    pub fn text(&mut self, t: Arc<str>) {
        if let Some(slot) = self.text.as_deref_mut() {
            *slot = Some(t);
        }
    }
}

/// Reads a payload back in the order a [`Packer`] filled it.
pub struct Unpacker<'a> {
    ints: &'a [i32; INTS],
    bytes: &'a [u8; BYTES],
    text: Option<&'a Option<Arc<str>>>,
    next_int: usize,
    next_byte: usize,
}

impl<'a> Unpacker<'a> {
    /// An unpacker of these slots.
    pub fn new(
        ints: &'a [i32; INTS],
        bytes: &'a [u8; BYTES],
        text: Option<&'a Option<Arc<str>>>,
    ) -> Self {
        Unpacker {
            ints,
            bytes,
            text,
            next_int: 0,
            next_byte: 0,
        }
    }

    /// The next whole number.
    pub fn int(&mut self) -> Option<i32> {
        let n = self.ints.get(self.next_int).copied();
        self.next_int += 1;
        n
    }

    /// The next small value.
    pub fn byte(&mut self) -> Option<u8> {
        let b = self.bytes.get(self.next_byte).copied();
        self.next_byte += 1;
        b
    }

    /// The text (empty when none was put).
    pub fn text(&mut self) -> Option<Arc<str>> {
        let text = self.text?;
        Some(text.clone().unwrap_or_else(|| Arc::from("")))
    }
}

/// A type a family's typed values may hold in a field: how it goes into a payload and comes
/// back. `INTS` and `BYTES` say how many slots it takes (the generated code checks at compile
/// time that a variant's fields fit).
pub trait Slot: Sized {
    /// Whole-number slots taken.
    const INTS: usize;
    /// Small-value slots taken.
    const BYTES: usize;
    /// Packs the value.
    fn put(self, p: &mut Packer<'_>);
    /// Unpacks it (none when the slots hold no such value).
    fn take(u: &mut Unpacker<'_>) -> Option<Self>;
}

impl Slot for i32 {
    const INTS: usize = 1;
    const BYTES: usize = 0;
    fn put(self, p: &mut Packer<'_>) {
        p.int(self);
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        u.int()
    }
}

impl Slot for u32 {
    const INTS: usize = 1;
    const BYTES: usize = 0;
    fn put(self, p: &mut Packer<'_>) {
        p.int(self as i32);
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        u.int().map(|n| n as u32)
    }
}

impl Slot for u8 {
    const INTS: usize = 0;
    const BYTES: usize = 1;
    fn put(self, p: &mut Packer<'_>) {
        p.byte(self);
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        u.byte()
    }
}

/// A seat (a game has at most a few: one byte, saturated).
impl Slot for usize {
    const INTS: usize = 0;
    const BYTES: usize = 1;
    fn put(self, p: &mut Packer<'_>) {
        p.byte(u8::try_from(self).unwrap_or(u8::MAX));
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        u.byte().map(usize::from)
    }
}

impl Slot for Pos {
    const INTS: usize = 2;
    const BYTES: usize = 0;
    fn put(self, p: &mut Packer<'_>) {
        p.int(self.x);
        p.int(self.y);
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        Some(Pos::new(u.int()?, u.int()?))
    }
}

/// A tile's rotation, by its quarter turns.
impl Slot for Rotation {
    const INTS: usize = 0;
    const BYTES: usize = 1;
    fn put(self, p: &mut Packer<'_>) {
        p.byte(self.quarters() as u8);
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        Rotation::ALL.get(usize::from(u.byte()?)).copied()
    }
}

impl Slot for Option<Spot> {
    const INTS: usize = 0;
    const BYTES: usize = 1;
    fn put(self, p: &mut Packer<'_>) {
        p.byte(spot_code(self));
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        Some(spot_of_code(u.byte()?))
    }
}

impl Slot for Spot {
    const INTS: usize = 0;
    const BYTES: usize = 1;
    fn put(self, p: &mut Packer<'_>) {
        p.byte(spot_code(Some(self)));
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        spot_of_code(u.byte()?)
    }
}

impl Slot for FigureKind {
    const INTS: usize = 0;
    const BYTES: usize = 1;
    fn put(self, p: &mut Packer<'_>) {
        p.byte(self.code());
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        FigureKind::of_code(u.byte()?)
    }
}

impl Slot for FeatureKind {
    const INTS: usize = 0;
    const BYTES: usize = 1;
    fn put(self, p: &mut Packer<'_>) {
        p.byte(code_in(&FeatureKind::ALL, self));
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        FeatureKind::ALL.get(usize::from(u.byte()?)).copied()
    }
}

impl Slot for Arc<str> {
    const INTS: usize = 0;
    const BYTES: usize = 0;
    fn put(self, p: &mut Packer<'_>) {
        p.text(self);
    }
    fn take(u: &mut Unpacker<'_>) -> Option<Self> {
        u.text()
    }
}

/// Whether fields taking `ints` whole-number and `bytes` small-value slots fit a payload.
pub const fn fits(ints: usize, bytes: usize) -> bool {
    ints <= INTS && bytes <= BYTES
}

/// The index of `value` in a family's table of values (0 when it is not there), as one byte.
pub fn code_in<T: PartialEq>(table: &[T], value: T) -> u8 {
    table.iter().position(|t| *t == value).unwrap_or(0) as u8
}

/// A spot as one byte: 0 for none.
fn spot_code(spot: Option<Spot>) -> u8 {
    match spot {
        None => 0,
        Some(Spot::Edge(e)) => 1 + e as u8,
        Some(Spot::Half(h)) => 5 + h,
        Some(Spot::Cloister) => 13,
        Some(Spot::Inner) => 14,
    }
}

fn spot_of_code(code: u8) -> Option<Spot> {
    match code {
        1..=4 => Some(Spot::Edge(Edge::from_index(usize::from(code - 1)))),
        5..=12 => Some(Spot::Half(code - 5)),
        13 => Some(Spot::Cloister),
        14 => Some(Spot::Inner),
        _ => None,
    }
}

/// One value of an event's JSON form.
#[derive(Clone, Debug, PartialEq)]
pub enum Field {
    /// A number.
    Int(i64),
    /// A fixed name.
    Name(&'static str),
    /// A shared text (a tile id, a script's name).
    Text(Arc<str>),
    /// Nothing (`null`).
    Null,
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Int(i) => s.serialize_i64(*i),
            Field::Name(n) => s.serialize_str(n),
            Field::Text(t) => s.serialize_str(t),
            Field::Null => s.serialize_unit(),
        }
    }
}

/// An event's fields in its JSON form, by name.
pub type JsonFields = serde_json::Map<String, serde_json::Value>;

/// Field `field` of an event made from JSON (`Vocabulary::event_from_json`): read by `read`,
/// or what is wrong with it.
pub fn json_field<T>(
    fields: &JsonFields,
    field: &str,
    read: impl FnOnce(&serde_json::Value) -> Option<T>,
) -> Result<T, String> {
    let value = fields
        .get(field)
        .ok_or_else(|| format!("the event needs the field `{field}`"))?;
    read(value).ok_or_else(|| format!("the event's field `{field}` cannot be {value}"))
}

/// A type an event's field may have: its value in the event's JSON form, both ways (a script
/// makes a family's event from its JSON fields: [`Vocabulary::event_from_json`]).
pub trait JsonValue: Sized {
    /// The value as JSON has it.
    fn json(&self) -> Field;
    /// The value a JSON value stands for (`None`: none of this type).
    fn from_json(value: &serde_json::Value) -> Option<Self>;
}

macro_rules! json_int {
    ($($t:ty),*) => {$(
        impl JsonValue for $t {
            fn json(&self) -> Field {
                Field::Int(*self as i64)
            }
            fn from_json(value: &serde_json::Value) -> Option<Self> {
                <$t>::try_from(value.as_i64()?).ok()
            }
        }
    )*};
}
json_int!(i32, u32, u8, usize);

/// A name from a fixed list (the JSON of a name field; a name not in it is none).
pub fn name_in<T: Copy>(
    all: &[T],
    name: impl Fn(T) -> &'static str,
    value: &serde_json::Value,
) -> Option<T> {
    let text = value.as_str()?;
    all.iter().copied().find(|t| name(*t) == text)
}

impl JsonValue for &'static str {
    fn json(&self) -> Field {
        Field::Name(self)
    }
    /// A free name cannot be made from JSON (a name field names its table of values, which
    /// the event's generator reads instead).
    fn from_json(_value: &serde_json::Value) -> Option<Self> {
        None
    }
}

impl JsonValue for Arc<str> {
    fn json(&self) -> Field {
        Field::Text(Arc::clone(self))
    }
    fn from_json(value: &serde_json::Value) -> Option<Self> {
        value.as_str().map(Arc::from)
    }
}

impl JsonValue for Option<Spot> {
    fn json(&self) -> Field {
        self.map_or(Field::Null, |s| Field::Name(s.name()))
    }
    fn from_json(value: &serde_json::Value) -> Option<Self> {
        if value.is_null() {
            return Some(None);
        }
        Spot::from_json(value).map(Some)
    }
}

impl JsonValue for Spot {
    fn json(&self) -> Field {
        Field::Name(self.name())
    }
    fn from_json(value: &serde_json::Value) -> Option<Self> {
        Spot::parse(value.as_str()?)
    }
}

impl JsonValue for FigureKind {
    fn json(&self) -> Field {
        Field::Name(self.name())
    }
    fn from_json(value: &serde_json::Value) -> Option<Self> {
        FigureKind::parse(value.as_str()?)
    }
}

impl JsonValue for FeatureKind {
    fn json(&self) -> Field {
        Field::Name(self.name())
    }
    fn from_json(value: &serde_json::Value) -> Option<Self> {
        name_in(&FeatureKind::ALL, FeatureKind::name, value)
    }
}

/// One kind of action as records write it: the key and how many values its array takes
/// (none: the value is not an array).
#[derive(Clone, Copy, Debug)]
pub struct RecordKey {
    /// The key in an `[[action]]` table (`dragon`).
    pub key: &'static str,
    /// The lengths its array may have.
    pub arity: &'static [usize],
}

/// The array lengths of a key whose fields write `min` to `max` values: none when the value is
/// no array (`claim = true`, `quarter = "castle"`).
pub const fn arity(min: usize, max: usize) -> &'static [usize] {
    const LENGTHS: [usize; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    if max <= 1 || max >= LENGTHS.len() || min > max {
        return &[];
    }
    LENGTHS.split_at(max + 1).0.split_at(min).1
}

/// A record's value for one action, read field by field.
pub struct RecordReader<'a> {
    key: &'a str,
    values: &'a [toml::Value],
    at: usize,
    figure: Option<FigureKind>,
    figure_read: bool,
}

impl<'a> RecordReader<'a> {
    /// A reader of `key = value` for fields that write at most `max` values (0: the value is
    /// `true`; 1: the value itself; more: an array), with the `figure` written beside it.
    pub fn new(
        key: &'a str,
        value: &'a toml::Value,
        max: usize,
        figure: Option<FigureKind>,
    ) -> Result<Self, String> {
        let values = match max {
            0 if value.as_bool() == Some(true) => &[],
            0 => {
                return Err(format!(
                    "`{key} = false` says nothing: leave the action out or write `{key} = true`"
                ));
            }
            1 => std::slice::from_ref(value),
            _ => value
                .as_array()
                .map(Vec::as_slice)
                .ok_or_else(|| format!("expected an array, found {}", value.type_str()))?,
        };
        Ok(RecordReader {
            key,
            values,
            at: 0,
            figure,
            figure_read: false,
        })
    }

    /// The action's key.
    pub fn key(&self) -> &str {
        self.key
    }

    /// The next value, if there is one (and moves past it).
    pub fn next_value(&mut self) -> Option<&'a toml::Value> {
        let value = self.values.get(self.at);
        self.at += 1;
        value
    }

    /// Whether a value is left.
    pub fn has_more(&self) -> bool {
        self.at < self.values.len()
    }

    /// The figure written beside the key (the follower when none is).
    pub fn figure(&mut self) -> FigureKind {
        self.figure_read = true;
        self.figure.unwrap_or(FigureKind::Follower)
    }

    /// Refuses a `figure` the action does not take; `takers` are the family's keys that take
    /// one, in words (empty: none does).
    pub fn finish(self, takers: &str) -> Result<(), String> {
        let key = self.key;
        match self.figure {
            Some(_) if !self.figure_read && takers.is_empty() => {
                Err(format!("`figure` goes with `deploy`, not with `{key}`"))
            }
            Some(k) if !self.figure_read && k != FigureKind::Follower => {
                Err(format!("`figure` goes with {takers}, not with `{key}`"))
            }
            _ => Ok(()),
        }
    }
}

/// A type an action's field may have: the values it writes in the action's record value, and
/// how it reads them back.
pub trait RecordValue: Sized {
    /// The fewest values it writes.
    const MIN: usize;
    /// The most values it writes.
    const MAX: usize;
    /// Whether it is the figure written beside the key (`figure = "big"`) rather than values.
    const FIGURE: bool = false;
    /// Writes its values.
    fn write(&self, out: &mut Vec<toml::Value>);
    /// Reads it back, or says what is wrong.
    fn read(r: &mut RecordReader<'_>) -> Result<Self, String>;
    /// The figure kind it names beside the key, if it is one.
    fn figure(&self) -> Option<FigureKind> {
        None
    }
}

impl RecordValue for Pos {
    const MIN: usize = 2;
    const MAX: usize = 2;
    fn write(&self, out: &mut Vec<toml::Value>) {
        out.push(toml::Value::Integer(self.x.into()));
        out.push(toml::Value::Integer(self.y.into()));
    }
    fn read(r: &mut RecordReader<'_>) -> Result<Self, String> {
        let mut int = |name: &str| {
            let n = r
                .next_value()
                .and_then(toml::Value::as_integer)
                .ok_or_else(|| "expected whole numbers x and y first".to_string())?;
            i32::try_from(n).map_err(|_| {
                format!(
                    "{name} = {n} is off the board: coordinates lie between {} and {}",
                    i32::MIN,
                    i32::MAX
                )
            })
        };
        Ok(Pos::new(int("x")?, int("y")?))
    }
}

impl RecordValue for Spot {
    const MIN: usize = 1;
    const MAX: usize = 1;
    fn write(&self, out: &mut Vec<toml::Value>) {
        out.push(toml::Value::String(self.name().to_string()));
    }
    fn read(r: &mut RecordReader<'_>) -> Result<Self, String> {
        let name = r
            .next_value()
            .and_then(toml::Value::as_str)
            .ok_or_else(|| "expected a spot's name".to_string())?;
        Spot::parse(name).ok_or_else(|| {
            format!("`{name}` names no feature: use N E S W, NL NR EL ER SL SR WL WR, C or I")
        })
    }
}

/// A rotation in degrees clockwise, as a placement writes it (`0`, `90`, `180`, `270`).
impl RecordValue for Rotation {
    const MIN: usize = 1;
    const MAX: usize = 1;
    fn write(&self, out: &mut Vec<toml::Value>) {
        out.push(toml::Value::Integer(self.degrees().into()));
    }
    fn read(r: &mut RecordReader<'_>) -> Result<Self, String> {
        r.next_value()
            .and_then(toml::Value::as_integer)
            .and_then(Rotation::from_degrees)
            .ok_or_else(|| "expected a rotation: 0, 90, 180 or 270 degrees".to_string())
    }
}

impl RecordValue for Option<Spot> {
    const MIN: usize = 0;
    const MAX: usize = 1;
    fn write(&self, out: &mut Vec<toml::Value>) {
        if let Some(s) = self {
            s.write(out);
        }
    }
    fn read(r: &mut RecordReader<'_>) -> Result<Self, String> {
        if r.has_more() {
            Spot::read(r).map(Some)
        } else {
            Ok(None)
        }
    }
}

impl RecordValue for u8 {
    const MIN: usize = 1;
    const MAX: usize = 1;
    fn write(&self, out: &mut Vec<toml::Value>) {
        out.push(toml::Value::Integer((*self).into()));
    }
    fn read(r: &mut RecordReader<'_>) -> Result<Self, String> {
        r.next_value()
            .and_then(toml::Value::as_integer)
            .and_then(|n| u8::try_from(n).ok())
            .ok_or_else(|| "expected a whole number from 0 to 255".to_string())
    }
}

/// The figure beside the key: `figure = "big"` (no value of its own).
impl RecordValue for FigureKind {
    const MIN: usize = 0;
    const MAX: usize = 0;
    const FIGURE: bool = true;
    fn write(&self, _out: &mut Vec<toml::Value>) {}
    fn read(r: &mut RecordReader<'_>) -> Result<Self, String> {
        Ok(r.figure())
    }
    fn figure(&self) -> Option<FigureKind> {
        Some(*self)
    }
}

/// The record value of an action whose fields wrote `values`: `true` for none, the value
/// itself for one, an array for more.
pub fn record_value(mut values: Vec<toml::Value>) -> toml::Value {
    match values.len() {
        0 => toml::Value::Boolean(true),
        1 => values.pop().unwrap_or(toml::Value::Boolean(true)),
        _ => toml::Value::Array(values),
    }
}

/// A family's actions as a typed enum (generated by [`mechanic_actions!`](crate::mechanic_actions)).
pub trait ActionSet: Sized {
    /// The record keys, one per kind of action.
    const KEYS: &'static [RecordKey];
    /// The typed action an arm holds.
    fn decode(a: &MechanicAction) -> Option<Self>;
    /// The action as a record writes it: its key and value.
    fn record(&self) -> (&'static str, toml::Value);
    /// The figure kind it names beside its key, if any.
    fn figure(&self) -> Option<FigureKind>;
    /// The action a record's `key = value` names (with `figure` beside it, if written).
    fn parse(key: &str, value: &toml::Value, figure: Option<FigureKind>) -> Result<Self, String>;
    /// The action as the engine's arm.
    fn arm(self) -> MechanicAction;
}

/// A family's decisions as a typed enum (generated by
/// [`mechanic_decisions!`](crate::mechanic_decisions)).
pub trait DecisionSet: Sized {
    /// The typed decision an arm holds.
    fn decode(d: &MechanicDecision) -> Option<Self>;
    /// Its name, as scripts and reports see it.
    fn name(&self) -> &'static str;
}

/// A family's events as a typed enum (generated by [`mechanic_events!`](crate::mechanic_events)).
pub trait EventSet: Sized {
    /// The typed event an arm holds.
    fn decode(e: &MechanicEvent) -> Option<Self>;
    /// Its name in its JSON form (`"dragon_moved"`).
    fn name(&self) -> &'static str;
    /// Its JSON fields, in order.
    fn json(&self) -> Vec<(&'static str, Field)>;
    /// The rule behind it, as reports name it: its RULES.md id and words
    /// (`"TW-8 prisoner ransomed"`), if the family gave one.
    fn rule(&self) -> Option<&'static str>;
    /// The event called `name` (its JSON name) with the fields of its JSON form, `fields`
    /// (seats as numbers), or what is wrong: an unknown name, a field missing or of the wrong
    /// kind, a field it does not have.
    fn from_json(name: &str, fields: &JsonFields) -> Result<MechanicEvent, String>;
}

/// What a family's action says in words (written by the family: its prose).
pub trait ActionWords {
    /// The action on its own in words ("dragon to (1,0)").
    fn words(&self) -> String;

    /// What is wrong with the action as a record wrote it, if its values say nothing a game
    /// could take (the Count's `leave` of no follower); read after the values themselves.
    fn problem(&self) -> Option<String> {
        None
    }
}

/// What a family's event says in words (written by the family: its prose).
pub trait EventWords {
    /// The event in words, with the players' names by seat ([`seat`] reads them).
    fn words(&self, names: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// No action, decision or event: the set of a family that has none of that kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nothing {}

impl ActionSet for Nothing {
    const KEYS: &'static [RecordKey] = &[];
    fn decode(_a: &MechanicAction) -> Option<Self> {
        None
    }
    fn record(&self) -> (&'static str, toml::Value) {
        match *self {}
    }
    fn figure(&self) -> Option<FigureKind> {
        match *self {}
    }
    fn parse(key: &str, _value: &toml::Value, _figure: Option<FigureKind>) -> Result<Self, String> {
        Err(format!("no action `{key}`"))
    }
    fn arm(self) -> MechanicAction {
        match self {}
    }
}

impl DecisionSet for Nothing {
    fn decode(_d: &MechanicDecision) -> Option<Self> {
        None
    }
    fn name(&self) -> &'static str {
        match *self {}
    }
}

impl EventSet for Nothing {
    fn decode(_e: &MechanicEvent) -> Option<Self> {
        None
    }
    fn name(&self) -> &'static str {
        match *self {}
    }
    fn json(&self) -> Vec<(&'static str, Field)> {
        match *self {}
    }
    fn rule(&self) -> Option<&'static str> {
        match *self {}
    }
    fn from_json(name: &str, _fields: &JsonFields) -> Result<MechanicEvent, String> {
        Err(format!("the family has no event `{name}`"))
    }
}

impl ActionWords for Nothing {
    fn words(&self) -> String {
        match *self {}
    }
}

impl EventWords for Nothing {
    fn words(&self, _names: &[String], _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

/// A mechanic family's vocabulary made of its typed actions `A`, decisions `D` and events `E`
/// ([`Nothing`] for a kind it has none of): `static WORDS: Family<A, D, E> = Family::new(ID);`.
pub struct Family<A, D, E> {
    id: MechanicId,
    reasons: &'static [Reason],
    sets: PhantomData<Sets<A, D, E>>,
}

/// What a [`Family`] is made of, as a type that holds none of them (and so is `Sync`).
type Sets<A, D, E> = fn() -> (A, D, E);

impl<A, D, E> Family<A, D, E> {
    /// The family with the fixed id `id`.
    pub const fn new(id: MechanicId) -> Self {
        Family {
            id,
            reasons: &[],
            sets: PhantomData,
        }
    }

    /// The family with its own reasons for sending figures home, by code
    /// ([`crate::engine::event::ReturnReason::Mechanic`]).
    pub const fn with_reasons(self, reasons: &'static [Reason]) -> Self {
        Family { reasons, ..self }
    }

    /// Its id.
    pub const fn id(&self) -> MechanicId {
        self.id
    }
}

impl<A, D, E> Vocabulary for Family<A, D, E>
where
    A: ActionSet + ActionWords,
    D: DecisionSet,
    E: EventSet + EventWords,
{
    fn id(&self) -> MechanicId {
        self.id
    }

    fn decision_name(&self, decision: &MechanicDecision) -> &'static str {
        D::decode(decision).map_or("?", |d| d.name())
    }

    fn action_words(&self, action: &MechanicAction) -> String {
        A::decode(action).map_or_else(|| "?".to_string(), |a| a.words())
    }

    fn record_keys(&self) -> &'static [RecordKey] {
        A::KEYS
    }

    fn record(&self, action: &MechanicAction) -> (&'static str, toml::Value) {
        A::decode(action).map_or(("?", toml::Value::Boolean(false)), |a| a.record())
    }

    fn parse(
        &self,
        key: &str,
        value: &toml::Value,
        figure: Option<FigureKind>,
    ) -> Result<MechanicAction, String> {
        let action = A::parse(key, value, figure)?;
        match action.problem() {
            Some(problem) => Err(problem),
            None => Ok(action.arm()),
        }
    }

    fn record_figure(&self, action: &MechanicAction) -> Option<FigureKind> {
        A::decode(action)?.figure()
    }

    fn event_json(&self, event: &MechanicEvent) -> (&'static str, Vec<(&'static str, Field)>) {
        E::decode(event).map_or(("?", Vec::new()), |e| (e.name(), e.json()))
    }

    fn event_rule(&self, event: &MechanicEvent) -> Option<&'static str> {
        E::decode(event)?.rule()
    }

    fn reason(&self, code: u8) -> Option<&'static Reason> {
        self.reasons.get(usize::from(code))
    }

    fn event_from_json(&self, name: &str, fields: &JsonFields) -> Result<MechanicEvent, String> {
        E::from_json(name, fields)
    }

    fn event_words(
        &self,
        event: &MechanicEvent,
        names: &[String],
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result {
        match E::decode(event) {
            Some(e) => e.words(names, f),
            None => write!(f, "?"),
        }
    }
}

/// A mechanic family's vocabulary: what its actions, decisions and events are called, how
/// they read, how records write them and what JSON their events have. [`Family`] makes one of
/// a family's typed enums.
pub trait Vocabulary: Sync {
    /// The family's fixed id.
    fn id(&self) -> MechanicId;

    /// The decision's name, as scripts and reports see it (`"dragon_step"`).
    fn decision_name(&self, decision: &MechanicDecision) -> &'static str;

    /// The action on its own in words ("dragon to (1,0)").
    fn action_words(&self, action: &MechanicAction) -> String;

    /// The keys its actions have in records.
    fn record_keys(&self) -> &'static [RecordKey];

    /// The action as a record writes it: its key and value.
    fn record(&self, action: &MechanicAction) -> (&'static str, toml::Value);

    /// The action a record's `key = value` names (`key` is one of [`Vocabulary::record_keys`]),
    /// with the `figure = "NAME"` written beside it if any (only the actions that take a figure
    /// kind accept one other than the follower), or what is wrong with it.
    fn parse(
        &self,
        key: &str,
        value: &toml::Value,
        figure: Option<FigureKind>,
    ) -> Result<MechanicAction, String>;

    /// The figure kind a record writes beside the action (`figure = "big"`), if it takes one.
    fn record_figure(&self, action: &MechanicAction) -> Option<FigureKind>;

    /// The event's name in its JSON form (`"dragon_moved"`) and its fields, in order.
    fn event_json(&self, event: &MechanicEvent) -> (&'static str, Vec<(&'static str, Field)>);

    /// The rule behind the event as reports name it (its RULES.md id and words), if the
    /// family gave one (`mechanic_events!`'s `=> "…"`).
    fn event_rule(&self, event: &MechanicEvent) -> Option<&'static str>;

    /// The event in words, with the players' names by seat ([`seat`] reads them).
    fn event_words(
        &self,
        event: &MechanicEvent,
        names: &[String],
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result;

    /// The family's reason `code` for sending a figure home, if it has one.
    fn reason(&self, code: u8) -> Option<&'static Reason>;

    /// The family's event called `name` made from the fields of its JSON form (how a script
    /// logs a family's event exactly as the family would), or what is wrong with them.
    fn event_from_json(&self, name: &str, fields: &JsonFields) -> Result<MechanicEvent, String>;
}

/// The vocabularies enlisted so far, by id.
static TABLE: [OnceLock<&'static dyn Vocabulary>; MAX_FAMILIES] =
    [const { OnceLock::new() }; MAX_FAMILIES];

/// Enlists `vocabulary` under its id (once; cheap afterwards) and returns the id.
#[inline]
pub fn enlist(vocabulary: &'static dyn Vocabulary) -> MechanicId {
    let id = vocabulary.id();
    if let Some(slot) = TABLE.get(usize::from(id.0)) {
        slot.get_or_init(|| vocabulary);
    }
    id
}

/// The vocabulary enlisted under `id`.
pub fn of(id: MechanicId) -> Option<&'static dyn Vocabulary> {
    TABLE.get(usize::from(id.0))?.get().copied()
}

impl Serialize for MechanicEvent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (name, fields) = of(self.mechanic).map_or(("?", Vec::new()), |v| v.event_json(self));
        let mut map = s.serialize_map(Some(fields.len() + 1))?;
        map.serialize_entry("event", name)?;
        for (key, value) in &fields {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// The name of the player at `seat` ("?" for none).
pub fn seat(names: &[String], seat: usize) -> &str {
    names.get(seat).map_or("?", String::as_str)
}

/// Declares a mechanic family's actions as a typed enum and generates what the engine needs
/// of them ([`ActionSet`], `From<Enum> for Action`, `Enum::of`): per variant, its fields (each
/// a [`Slot`] and a [`RecordValue`]) and its record key. A variant's code is its place in the
/// list; its record value is `true` without fields, the field's value for one value, an array
/// for more; a `FigureKind` field is written beside the key (`figure = "big"`).
///
/// ```ignore
/// castellan::mechanic_actions! {
///     /// An action of the beacons.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
///     pub enum BeaconAction for WORDS {
///         /// Light a beacon on the tile at `pos`.
///         Light { /// The tile.
///                 pos: Pos } = "beacon",
///     }
/// }
/// ```
#[macro_export]
macro_rules! mechanic_actions {
    (
        $(#[$meta:meta])*
        $vis:vis enum $Enum:ident for $words:path {
            $(
                $(#[$vmeta:meta])*
                $Variant:ident $({ $( $(#[$fmeta:meta])* $field:ident : $ty:ty ),* $(,)? })? = $key:literal
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $Enum {
            $( $(#[$vmeta])* $Variant $({ $( $(#[$fmeta])* $field : $ty ),* })? ),*
        }

        const _: () = {
            use $crate::engine::vocabulary as v;
            #[allow(non_camel_case_types, dead_code)]
            #[repr(u8)]
            enum Code { $($Variant),* }
            $( $crate::__vocabulary_fits!($($($ty),*)?); )*

            impl v::ActionSet for $Enum {
                const KEYS: &'static [v::RecordKey] = &[$(
                    v::RecordKey {
                        key: $key,
                        arity: v::arity(
                            0 $($(+ <$ty as v::RecordValue>::MIN)*)?,
                            0 $($(+ <$ty as v::RecordValue>::MAX)*)?,
                        ),
                    }
                ),*];

                #[allow(unused_mut, unused_variables)]
                #[inline]
                fn decode(a: &v::MechanicAction) -> Option<Self> {
                    let mut u = v::Unpacker::new(&a.ints, &a.bytes, None);
                    $(
                        if a.verb == Code::$Variant as u8 {
                            return Some($Enum::$Variant $({ $(
                                $field: <$ty as v::Slot>::take(&mut u)?
                            ),* })?);
                        }
                    )*
                    None
                }

                fn record(&self) -> (&'static str, v::Value) {
                    #[allow(unused_mut)]
                    let mut out = Vec::new();
                    let key = match self {
                        $( $Enum::$Variant $({ $($field),* })? => {
                            $($( v::RecordValue::write($field, &mut out); )*)?
                            $key
                        } )*
                    };
                    (key, v::record_value(out))
                }

                fn figure(&self) -> Option<$crate::model::figure::FigureKind> {
                    match self {
                        $( $Enum::$Variant $({ $($field),* })? => {
                            None $($( .or(v::RecordValue::figure($field)) )*)?
                        } )*
                    }
                }

                fn parse(
                    key: &str,
                    value: &v::Value,
                    figure: Option<$crate::model::figure::FigureKind>,
                ) -> Result<Self, String> {
                    let takers: Vec<String> = [$(
                        ($key, false $($(|| <$ty as v::RecordValue>::FIGURE)*)?)
                    ),*]
                    .iter()
                    .filter(|(_, takes)| *takes)
                    .map(|(k, _)| format!("`{k}`"))
                    .collect();
                    $(
                        if key == $key {
                            #[allow(unused_mut)]
                            let mut r = v::RecordReader::new(
                                key,
                                value,
                                0 $($(+ <$ty as v::RecordValue>::MAX)*)?,
                                figure,
                            )?;
                            let action = $Enum::$Variant $({ $(
                                $field: <$ty as v::RecordValue>::read(&mut r)?
                            ),* })?;
                            r.finish(&takers.join(" and "))?;
                            return Ok(action);
                        }
                    )*
                    Err(format!("no action `{key}`"))
                }

                #[allow(unused_mut, unused_variables)]
                #[inline(always)]
                fn arm(self) -> v::MechanicAction {
                    let mut a = v::MechanicAction::new(&$words, 0);
                    let mut p = v::Packer::new(&mut a.ints, &mut a.bytes, None);
                    let verb = match self {
                        $( $Enum::$Variant $({ $($field),* })? => {
                            $($( v::Slot::put($field, &mut p); )*)?
                            Code::$Variant as u8
                        } )*
                    };
                    a.verb = verb;
                    a
                }
            }

            impl From<$Enum> for $crate::engine::action::Action {
                #[inline(always)]
                fn from(a: $Enum) -> Self {
                    $crate::engine::action::Action::Mechanic(v::ActionSet::arm(a))
                }
            }

            #[allow(dead_code)]
            impl $Enum {
                /// The family's action `action` is, if it is one.
                #[inline]
                pub fn of(action: &$crate::engine::action::Action) -> Option<Self> {
                    match action {
                        $crate::engine::action::Action::Mechanic(a) if a.mechanic == $words.id() => {
                            <$Enum as v::ActionSet>::decode(a)
                        }
                        _ => None,
                    }
                }
            }
        };
    };
}

/// Declares a mechanic family's decisions as a typed enum and generates what the engine needs
/// of them ([`DecisionSet`], `From<Enum> for DecisionKind`, `Enum::of`): per variant, its
/// fields (each a [`Slot`]) and its name as scripts and reports see it.
#[macro_export]
macro_rules! mechanic_decisions {
    (
        $(#[$meta:meta])*
        $vis:vis enum $Enum:ident for $words:path {
            $(
                $(#[$vmeta:meta])*
                $Variant:ident $({ $( $(#[$fmeta:meta])* $field:ident : $ty:ty ),* $(,)? })? = $name:literal
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $Enum {
            $( $(#[$vmeta])* $Variant $({ $( $(#[$fmeta])* $field : $ty ),* })? ),*
        }

        const _: () = {
            use $crate::engine::vocabulary as v;
            #[allow(non_camel_case_types, dead_code)]
            #[repr(u8)]
            enum Code { $($Variant),* }
            $( $crate::__vocabulary_fits!($($($ty),*)?); )*

            impl v::DecisionSet for $Enum {
                #[allow(unused_mut, unused_variables)]
                fn decode(d: &v::MechanicDecision) -> Option<Self> {
                    let mut u = v::Unpacker::new(&d.ints, &d.bytes, None);
                    $(
                        if d.kind == Code::$Variant as u8 {
                            return Some($Enum::$Variant $({ $(
                                $field: <$ty as v::Slot>::take(&mut u)?
                            ),* })?);
                        }
                    )*
                    None
                }

                fn name(&self) -> &'static str {
                    match self {
                        $( $Enum::$Variant { .. } => $name, )*
                    }
                }
            }

            impl From<$Enum> for $crate::engine::action::DecisionKind {
                #[allow(unused_mut, unused_variables)]
                fn from(d: $Enum) -> Self {
                    let mut m = v::MechanicDecision::new(&$words, 0);
                    let mut p = v::Packer::new(&mut m.ints, &mut m.bytes, None);
                    let kind = match d {
                        $( $Enum::$Variant $({ $($field),* })? => {
                            $($( v::Slot::put($field, &mut p); )*)?
                            Code::$Variant as u8
                        } )*
                    };
                    m.kind = kind;
                    $crate::engine::action::DecisionKind::Mechanic(m)
                }
            }

            #[allow(dead_code)]
            impl $Enum {
                /// The family's decision `kind` is, if it is one.
                pub fn of(kind: &$crate::engine::action::DecisionKind) -> Option<Self> {
                    match kind {
                        $crate::engine::action::DecisionKind::Mechanic(d) if d.mechanic == $words.id() => {
                            <$Enum as v::DecisionSet>::decode(d)
                        }
                        _ => None,
                    }
                }
            }
        };
    };
}

/// Declares a mechanic family's events as a typed enum and generates what the engine needs of
/// them ([`EventSet`], `From<Enum> for Event`, `Enum::of`): per variant, its fields (each a
/// [`Slot`] and a [`JsonValue`], named in the JSON as in the enum) and its JSON name. A
/// `&'static str` field names its table of values (`reason: &'static str [REASONS]`) and is
/// packed as its place in it. `= "name" => "B-X1 words"` gives the rule behind the event, as
/// reports (`compare`) name it.
#[macro_export]
macro_rules! mechanic_events {
    (
        $(#[$meta:meta])*
        $vis:vis enum $Enum:ident for $words:path {
            $(
                $(#[$vmeta:meta])*
                $Variant:ident $({ $( $(#[$fmeta:meta])* $field:ident : $ty:ty $([$table:path])? ),* $(,)? })? = $name:literal $(=> $rule:literal)?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $Enum {
            $( $(#[$vmeta])* $Variant $({ $( $(#[$fmeta])* $field : $ty ),* })? ),*
        }

        const _: () = {
            use $crate::engine::vocabulary as v;
            #[allow(non_camel_case_types, dead_code)]
            #[repr(u8)]
            enum Code { $($Variant),* }
            $( $crate::__vocabulary_fits!($($( $crate::__vocabulary_slot_type!($ty $(, $table)?) ),*)?); )*

            impl v::EventSet for $Enum {
                #[allow(unused_mut, unused_variables)]
                fn decode(m: &v::MechanicEvent) -> Option<Self> {
                    let mut u = v::Unpacker::new(&m.ints, &m.bytes, Some(&m.text));
                    $(
                        if m.kind == Code::$Variant as u8 {
                            return Some($Enum::$Variant $({ $(
                                $field: $crate::__vocabulary_take!(u, $ty $(, $table)?)
                            ),* })?);
                        }
                    )*
                    None
                }

                fn name(&self) -> &'static str {
                    match self {
                        $( $Enum::$Variant { .. } => $name, )*
                    }
                }

                fn rule(&self) -> Option<&'static str> {
                    match self {
                        $( $Enum::$Variant { .. } => $crate::__vocabulary_rule!($($rule)?), )*
                    }
                }

                fn json(&self) -> Vec<(&'static str, v::Field)> {
                    match self {
                        $( $Enum::$Variant $({ $($field),* })? => vec![
                            $($( (stringify!($field), v::JsonValue::json($field)) ),*)?
                        ], )*
                    }
                }

                #[allow(unused_variables)]
                fn from_json(name: &str, fields: &v::JsonFields) -> Result<v::MechanicEvent, String> {
                    $(
                        if name == $name {
                            let known: &[&str] = &[$($( stringify!($field) ),*)?];
                            if let Some(other) = fields.keys().find(|k| !known.contains(&k.as_str())) {
                                return Err(format!("the event `{name}` has no field `{other}`"));
                            }
                            let event = $Enum::$Variant $({ $(
                                $field: $crate::__vocabulary_from_json!(fields, $field, $ty $(, $table)?)?
                            ),* })?;
                            return match $crate::engine::event::Event::from(event) {
                                $crate::engine::event::Event::Mechanic(m) => Ok(m),
                                _ => Err(format!("`{name}` is no family's event")),
                            };
                        }
                    )*
                    Err(format!("the family has no event `{name}`"))
                }
            }

            impl From<$Enum> for $crate::engine::event::Event {
                // Inlined where an event is made: only its own arm is left.
                #[allow(unused_mut, unused_variables)]
                #[inline(always)]
                fn from(e: $Enum) -> Self {
                    let mut m = v::MechanicEvent::new(&$words, 0);
                    let mut p = v::Packer::new(&mut m.ints, &mut m.bytes, Some(&mut m.text));
                    let kind = match e {
                        $( $Enum::$Variant $({ $($field),* })? => {
                            $($( $crate::__vocabulary_put!(p, $field, $ty $(, $table)?); )*)?
                            Code::$Variant as u8
                        } )*
                    };
                    m.kind = kind;
                    $crate::engine::event::Event::Mechanic(m)
                }
            }

            #[allow(dead_code)]
            impl $Enum {
                /// The family's event `event` is, if it is one.
                pub fn of(event: &$crate::engine::event::Event) -> Option<Self> {
                    match event {
                        $crate::engine::event::Event::Mechanic(m) if m.mechanic == $words.id() => {
                            <$Enum as v::EventSet>::decode(m)
                        }
                        _ => None,
                    }
                }
            }
        };
    };
}

/// An event's rule, if its variant names one.
#[doc(hidden)]
#[macro_export]
macro_rules! __vocabulary_rule {
    () => {
        None
    };
    ($rule:literal) => {
        Some($rule)
    };
}

/// Checks at compile time that one variant's fields fit a payload.
#[doc(hidden)]
#[macro_export]
macro_rules! __vocabulary_fits {
    ($($ty:ty),*) => {
        const _: () = assert!(
            $crate::engine::vocabulary::fits(
                0 $(+ <$ty as $crate::engine::vocabulary::Slot>::INTS)*,
                0 $(+ <$ty as $crate::engine::vocabulary::Slot>::BYTES)*,
            ),
            "a variant's fields do not fit a mechanic payload"
        );
    };
}

/// The slot type of a field: its own, or a byte for a name from a table.
#[doc(hidden)]
#[macro_export]
macro_rules! __vocabulary_slot_type {
    ($ty:ty) => {
        $ty
    };
    ($ty:ty, $table:path) => {
        u8
    };
}

/// Packs one field of an event.
#[doc(hidden)]
#[macro_export]
macro_rules! __vocabulary_put {
    ($p:ident, $field:ident, $ty:ty) => {
        $crate::engine::vocabulary::Slot::put($field, &mut $p)
    };
    ($p:ident, $field:ident, $ty:ty, $table:path) => {
        $p.byte($crate::engine::vocabulary::code_in(&$table, $field))
    };
}

/// Reads one field of an event from its JSON form (a name from a table by its place in it).
#[doc(hidden)]
#[macro_export]
macro_rules! __vocabulary_from_json {
    ($fields:ident, $field:ident, $ty:ty) => {
        $crate::engine::vocabulary::json_field($fields, stringify!($field), |value| {
            <$ty as $crate::engine::vocabulary::JsonValue>::from_json(value)
        })
    };
    ($fields:ident, $field:ident, $ty:ty, $table:path) => {
        $crate::engine::vocabulary::json_field($fields, stringify!($field), |value| {
            let text = value.as_str()?;
            $table.iter().copied().find(|t| *t == text)
        })
    };
}

/// Unpacks one field of an event.
#[doc(hidden)]
#[macro_export]
macro_rules! __vocabulary_take {
    ($u:ident, $ty:ty) => {
        <$ty as $crate::engine::vocabulary::Slot>::take(&mut $u)?
    };
    ($u:ident, $ty:ty, $table:path) => {
        *$table.get(usize::from($u.byte()?))?
    };
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spot_has_its_own_code() {
        let mut spots: Vec<Option<Spot>> = vec![None, Some(Spot::Cloister), Some(Spot::Inner)];
        spots.extend((0..4).map(|i| Some(Spot::Edge(Edge::from_index(i)))));
        spots.extend((0..8).map(|h| Some(Spot::Half(h))));
        for s in &spots {
            assert_eq!(spot_of_code(spot_code(*s)), *s);
        }
        let mut codes: Vec<u8> = spots.iter().map(|s| spot_code(*s)).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), spots.len());
    }
}
