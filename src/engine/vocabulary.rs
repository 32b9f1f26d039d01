//! What a mechanic adds to the game's vocabulary: its own kinds of action, decision and event.
//!
//! The core types keep the base game's words ([`crate::engine::action::Action::Place`],
//! `Deploy`, `Pass`, …); everything one mechanic owns (the dragon's steps, the fairy's moves,
//! the Count's quarters) travels in one generic arm of each: [`MechanicAction`],
//! [`MechanicDecision`] and [`MechanicEvent`]. Each names its mechanic family by a fixed
//! [`MechanicId`] and carries a small payload that only the owning mechanic reads (through the
//! constructor and accessor functions it exports).
//!
//! The family's [`Vocabulary`] says what the payload means to the rest of the program: the
//! names scripts and reports see, the words people read, the keys of records and the JSON form
//! of events. It is reachable from the id alone (records, words and event logs have no game at
//! hand): every constructor enlists its vocabulary in a process-wide table, and the registry
//! lists every built-in one (`vocabularies` in `registry.rs`).

use crate::engine::action::Action;
use crate::model::figure::FigureKind;
use crate::model::geometry::{Edge, Pos, Spot};
use crate::model::tile::FeatureKind;
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A mechanic family's fixed id, chosen by its vocabulary (the registry checks that no two
/// share one). Not the mechanic's index in a game's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MechanicId(pub u8);

/// How many mechanic families one process can know.
pub const MAX_FAMILIES: usize = 32;

/// An action a mechanic owns: which of its verbs, and a payload the mechanic reads (a board
/// position and two small numbers: a spot's code, a quarter, a count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MechanicAction {
    /// The owning family.
    pub mechanic: MechanicId,
    /// The family's own code for the kind of action.
    pub verb: u8,
    /// Two small arguments, as the verb reads them.
    pub args: [u8; 2],
    /// A board position (the origin when the verb has none).
    pub pos: Pos,
}

impl MechanicAction {
    /// An action of `vocabulary`'s family (and the family's vocabulary enlisted).
    pub fn new(vocabulary: &'static dyn Vocabulary, verb: u8, pos: Pos, args: [u8; 2]) -> Self {
        MechanicAction {
            mechanic: enlist(vocabulary),
            verb,
            args,
            pos,
        }
    }

    /// An action on the feature at `spot` of the tile at `pos` (`args[0]` holds the spot).
    pub fn at_spot(
        vocabulary: &'static dyn Vocabulary,
        verb: u8,
        pos: Pos,
        spot: Option<Spot>,
    ) -> Self {
        MechanicAction::new(vocabulary, verb, pos, [spot_code(spot), 0])
    }

    /// The spot of an action made by [`MechanicAction::at_spot`].
    pub fn spot(&self) -> Option<Spot> {
        spot_of_code(self.args[0])
    }
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

/// A decision a mechanic asks for: which of its kinds, and a payload the mechanic reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MechanicDecision {
    /// The owning family.
    pub mechanic: MechanicId,
    /// The family's own code for the kind of decision.
    pub kind: u8,
    /// Two small arguments, as the kind reads them.
    pub args: [u8; 2],
    /// A number (a step of a journey).
    pub n: u32,
    /// A board position (the origin when the kind has none).
    pub pos: Pos,
}

impl MechanicDecision {
    /// A decision of `vocabulary`'s family (and the family's vocabulary enlisted).
    pub fn new(
        vocabulary: &'static dyn Vocabulary,
        kind: u8,
        n: u32,
        pos: Pos,
        args: [u8; 2],
    ) -> Self {
        MechanicDecision {
            mechanic: enlist(vocabulary),
            kind,
            args,
            n,
            pos,
        }
    }

    /// The decision's name, as scripts and reports see it (`"dragon_step"`).
    pub fn name(&self) -> &'static str {
        of(self.mechanic).map_or("?", |v| v.decision_name(self))
    }
}

/// Something a mechanic made happen: which of its kinds of event, and a payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MechanicEvent {
    /// The owning family.
    pub mechanic: MechanicId,
    /// The family's own code for the kind of event.
    pub kind: u8,
    /// Two small arguments (a quarter, a reason).
    pub args: [u8; 2],
    /// A number (points, a step, a count).
    pub n: u32,
    /// A seat.
    pub player: usize,
    /// A board position.
    pub pos: Pos,
    /// A spot.
    pub spot: Option<Spot>,
    /// A kind of feature.
    pub feature: Option<FeatureKind>,
    /// A text (a tile id, a script's name).
    pub text: Option<Arc<str>>,
}

impl MechanicEvent {
    /// An event of `vocabulary`'s family with an empty payload (fill in what the kind uses).
    pub fn new(vocabulary: &'static dyn Vocabulary, kind: u8) -> Self {
        MechanicEvent {
            mechanic: enlist(vocabulary),
            kind,
            args: [0; 2],
            n: 0,
            player: 0,
            pos: Pos::new(0, 0),
            spot: None,
            feature: None,
            text: None,
        }
    }

    /// Whether this is the event `kind` of `vocabulary`'s family.
    pub fn is(&self, vocabulary: &'static dyn Vocabulary, kind: u8) -> bool {
        self.mechanic == vocabulary.id() && self.kind == kind
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

/// One kind of action as records write it: the key and how many values its array takes
/// (none: the value is not an array).
#[derive(Clone, Copy, Debug)]
pub struct RecordKey {
    /// The key in an `[[action]]` table (`dragon`).
    pub key: &'static str,
    /// The lengths its array may have.
    pub arity: &'static [usize],
}

/// A mechanic family's vocabulary: what its actions, decisions and events are called, how
/// they read, how records write them and what JSON their events have.
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
    /// or what is wrong with the value.
    fn parse(&self, key: &str, value: &toml::Value) -> Result<MechanicAction, String>;

    /// The action a record's `key = value` names with `figure = "NAME"` beside it, for the
    /// actions that take a figure kind (the Count's quarters); the others refuse the key.
    fn parse_figure(
        &self,
        key: &str,
        _value: &toml::Value,
        _figure: FigureKind,
    ) -> Result<MechanicAction, String> {
        Err(format!("`figure` goes with `deploy`, not with `{key}`"))
    }

    /// The figure kind a record writes beside the action (`figure = "big"`), if it names one
    /// other than the plain follower.
    fn record_figure(&self, _action: &MechanicAction) -> Option<FigureKind> {
        None
    }

    /// The event's name in its JSON form (`"dragon_moved"`) and its fields, in order.
    fn event_json(&self, event: &MechanicEvent) -> (&'static str, Vec<(&'static str, Field)>);

    /// The event in words, with the players' names by seat ([`seat`] reads them).
    fn event_words(
        &self,
        event: &MechanicEvent,
        names: &[String],
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result;
}

/// The vocabularies enlisted so far, by id.
static TABLE: [OnceLock<&'static dyn Vocabulary>; MAX_FAMILIES] =
    [const { OnceLock::new() }; MAX_FAMILIES];

/// Enlists `vocabulary` under its id (once; cheap afterwards) and returns the id.
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

/// The name at `code` in a family's table of names (`"?"` past its end).
pub fn name_at(names: &[&'static str], code: u8) -> &'static str {
    names.get(usize::from(code)).copied().unwrap_or("?")
}

/// The mechanic arm of an action (what [`Vocabulary::parse`] returns for a typed value).
pub fn arm(action: Action) -> Result<MechanicAction, String> {
    match action {
        Action::Mechanic(m) => Ok(m),
        other => Err(format!("{other:?} is no mechanic's action")),
    }
}

/// The name of the player at `seat` ("?" for none).
pub fn seat(names: &[String], seat: usize) -> &str {
    names.get(seat).map_or("?", String::as_str)
}

/// A spot as an event's JSON has it: its name, or `null`.
pub fn spot_field(spot: Option<Spot>) -> Field {
    spot.map_or(Field::Null, |s| Field::Name(s.name()))
}

/// A shared text as an event's JSON has it, or `null`.
pub fn text_field(text: &Option<Arc<str>>) -> Field {
    text.as_ref()
        .map_or(Field::Null, |t| Field::Text(Arc::clone(t)))
}

/// A record value's array of integers and names (`[1, 0, "N"]`), for [`Vocabulary::parse`].
pub fn record_array(value: &toml::Value) -> Result<&[toml::Value], String> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("expected an array, found {}", value.type_str()))
}

/// The position of a record array starting with two whole numbers.
pub fn record_pos(values: &[toml::Value]) -> Result<Pos, String> {
    let int = |i: usize| {
        let n = values
            .get(i)
            .and_then(toml::Value::as_integer)
            .ok_or_else(|| "expected whole numbers x and y first".to_string())?;
        i32::try_from(n).map_err(|_| {
            format!(
                "{} = {n} is off the board: coordinates lie between {} and {}",
                ["x", "y"][i],
                i32::MIN,
                i32::MAX
            )
        })
    };
    Ok(Pos::new(int(0)?, int(1)?))
}

/// The spot named by a record (`"N"`, `"C"`, …).
pub fn record_spot(value: Option<&toml::Value>) -> Result<Spot, String> {
    let name = value
        .and_then(toml::Value::as_str)
        .ok_or_else(|| "expected a spot's name".to_string())?;
    Spot::parse(name).ok_or_else(|| {
        format!("`{name}` names no feature: use N E S W, NL NR EL ER SL SR WL WR, C or I")
    })
}

/// A position (and a spot) as a record array: `[x, y]` or `[x, y, "N"]`.
pub fn record_at(pos: Pos, spot: Option<Spot>) -> toml::Value {
    let mut values = vec![
        toml::Value::Integer(pos.x.into()),
        toml::Value::Integer(pos.y.into()),
    ];
    values.extend(spot.map(|s| toml::Value::String(s.name().to_string())));
    toml::Value::Array(values)
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
