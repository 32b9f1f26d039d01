//! What tiles print besides their features, named: the counters a feature part carries
//! (`inn = true` on a road, `cathedral = true`, `goods = "wine"` and `princess = true` on a
//! city, tiles/README.md) and the symbols a whole tile shows (`symbol = "volcano"`). The model
//! keeps them as numbers ([`CounterId`], [`Symbol`]); this table is where their names and
//! looks live ([`Print`]: the boards draw them and key them from here), and the families that
//! give them their rules read their ids from here.

use crate::model::tile::{CounterId, FeatureKind, MAX_COUNTERS, MAX_SYMBOLS, Symbol};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// An inn on a road (Inns & Cathedrals).
pub const INN: CounterId = CounterId::new(0);
/// A cathedral in a city (Inns & Cathedrals).
pub const CATHEDRAL: CounterId = CounterId::new(1);
/// The princess drawn in a city (The Princess & the Dragon).
pub const PRINCESS: CounterId = CounterId::new(2);

/// Text of a print: fixed for the built-in ones, read from a tile set for declared ones.
pub type Text = Cow<'static, str>;

/// A city part's kinds, for the counters written on one.
const CITY: &[FeatureKind] = &[FeatureKind::City];
/// A road's kinds, for the inn.
const ROAD: &[FeatureKind] = &[FeatureKind::Road];

/// How a printed counter or symbol is named and drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Print {
    /// Its name in tile files, scripts and messages.
    pub name: Text,
    /// Its character on the text board.
    pub letter: char,
    /// What the board's key calls it.
    pub key: Text,
    /// Where a counter is drawn: in its feature part, or on the field beside it.
    pub place: Drawn,
    /// The kinds of feature part a counter may be written on (none for a symbol).
    pub on: Cow<'static, [FeatureKind]>,
    /// Its SVG picture, about 20 units wide and centred on `({x},{y})`, which the board fills in.
    pub svg: Text,
}

impl Print {
    /// A built-in mark.
    const fn builtin(
        name: &'static str,
        letter: char,
        key: &'static str,
        place: Drawn,
        on: &'static [FeatureKind],
        svg: &'static str,
    ) -> Print {
        Print {
            name: Cow::Borrowed(name),
            letter,
            key: Cow::Borrowed(key),
            place,
            on: Cow::Borrowed(on),
            svg: Cow::Borrowed(svg),
        }
    }
}

/// The picture of a mark a tile set declares (`[[symbol]]`, `[[counter]]`; tiles/README.md):
/// its `path` filled with its `fill`, both validated by the tile set's reader, so that nothing
/// else of an uploaded file reaches a page.
pub fn declared_svg(name: &str, path: &str, fill: &str) -> String {
    format!(
        r##"<path class="mark {name}" transform="translate({{x}},{{y}})" d="{path}" fill="{fill}" stroke="#1a1a1a" stroke-width="1.2"/>"##
    )
}

/// Where a printed counter is drawn on its tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// Inside its feature part.
    In,
    /// On the field beside its feature part (an inn by its road).
    Beside,
    /// With the pennants of its city (the princess).
    WithPennants,
}

/// A good's print: a disc of its colour in its city.
macro_rules! good {
    ($name:literal, $letter:literal, $fill:literal, $edge:literal) => {
        Print::builtin(
            $name,
            $letter,
            $name,
            Drawn::In,
            CITY,
            concat!(
                r##"<g class="good "##,
                $name,
                r##"" transform="translate({x},{y})"><circle r="7" fill=""##,
                $fill,
                r##"" stroke=""##,
                $edge,
                r##"" stroke-width="1.5"/></g>"##
            ),
        )
    };
}

/// The counters, by id (the three goods follow the first three: [`Good::counter`]).
pub static COUNTERS: [Print; 6] = [
    Print::builtin(
        "inn",
        'i',
        "inn",
        Drawn::Beside,
        ROAD,
        concat!(
            r##"<g class="inn" transform="translate({x},{y})">"##,
            r##"<rect x="-7" y="-2" width="14" height="10" fill="#f3e3c3" stroke="#5a3a1a" stroke-width="1.2"/>"##,
            r##"<polygon points="-9,-2 0,-10 9,-2" fill="#b5452c" stroke="#5a1a10" stroke-width="1.2"/>"##,
            r##"<rect x="-2" y="3" width="4" height="5" fill="#5a3a1a"/></g>"##
        ),
    ),
    Print::builtin(
        "cathedral",
        'A',
        "cathedral",
        Drawn::In,
        CITY,
        concat!(
            r##"<g class="cathedral" transform="translate({x},{y})">"##,
            r##"<rect x="-9" y="-2" width="18" height="11" fill="#c8c8d0" stroke="#3a3a48" stroke-width="1.2"/>"##,
            r##"<polygon points="-4,-2 0,-14 4,-2" fill="#8a8a9a" stroke="#3a3a48" stroke-width="1.2"/>"##,
            r##"<path d="M0,1 V7 M-2.5,3.5 H2.5" stroke="#3a3a48" stroke-width="1.5"/></g>"##
        ),
    ),
    Print::builtin(
        "princess",
        'P',
        "princess",
        Drawn::WithPennants,
        CITY,
        concat!(
            r##"<path class="princess" transform="translate({x},{y})" d="M-8,5 V-4 L-4,0 L0,-7 L4,0 L8,-4 V5 Z" "##,
            r##"fill="#f4c430" stroke="#8a6400" stroke-width="1.2"/>"##
        ),
    ),
    good!("wine", 'w', "#7b1e3a", "#ffffff"),
    good!("grain", 'g', "#e8c547", "#6b5310"),
    good!("cloth", 'c', "#3f7fd0", "#ffffff"),
];

/// A volcano: the dragon flies here (The Princess & the Dragon).
pub const VOLCANO: Symbol = Symbol::new(0);
/// A dragon: the dragon makes a journey.
pub const DRAGON: Symbol = Symbol::new(1);
/// A magic portal: deploy on any tile.
pub const PORTAL: Symbol = Symbol::new(2);

const _: () = assert!(COUNTERS.len() <= MAX_COUNTERS && SYMBOLS.len() <= MAX_SYMBOLS);

/// The symbols, by number (`symbol = "volcano"` in a tile file).
pub static SYMBOLS: [Print; 3] = [
    Print::builtin(
        "volcano",
        'V',
        "volcano",
        Drawn::In,
        &[],
        concat!(
            r##"<g class="symbol volcano" transform="translate({x},{y})">"##,
            r##"<polygon points="-13,9 13,9 5,-6 -5,-6" fill="#6b4a3a" stroke="#3b2820" stroke-width="1.2"/>"##,
            r##"<polygon points="-5,-6 5,-6 3,-11 0,-7 -3,-12" fill="#f05a1a"/></g>"##
        ),
    ),
    Print::builtin(
        "dragon",
        'D',
        "dragon symbol",
        Drawn::In,
        &[],
        concat!(
            r##"<g class="symbol dragon-symbol" transform="translate({x},{y})">"##,
            r##"<path d="M-12,6 L-5,-9 L-1,-1 L0,-5 L1,-1 L5,-9 L12,6 L0,2 Z" fill="#c0392b" "##,
            r##"stroke="#5a1010" stroke-width="1.2"/></g>"##
        ),
    ),
    Print::builtin(
        "portal",
        '@',
        "portal",
        Drawn::In,
        &[],
        concat!(
            r##"<g class="symbol portal" transform="translate({x},{y})">"##,
            r##"<path d="M-9,10 V-1 A9,9 0 0 1 9,-1 V10 Z" fill="#5b2d8e" stroke="#2e1450" stroke-width="1.2"/>"##,
            r##"<path d="M-5,10 V0 A5,5 0 0 1 5,0 V10 Z" fill="#c9a6f0"/></g>"##
        ),
    ),
];

/// Characters the text board draws itself (features, pennants, the garden, seats and the P&D
/// pieces), which no declared mark may take.
pub const BOARD_CHARACTERS: &str = "#=|/\\+.*CG&F";

/// The marks of a ruleset's tiles: the built-in counters and symbols under their fixed ids,
/// then those its tile sets declare, under the next ids (the union of its tile sets). A game
/// reads every name, letter, key and picture of a mark here ([`Ruleset::prints`]).
///
/// [`Ruleset::prints`]: crate::data::ruleset::Ruleset::prints
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prints {
    counters: Vec<Print>,
    symbols: Vec<Print>,
    /// Letters of the text board that something else draws (a figure row), with its name.
    taken: Vec<(char, String)>,
}

impl Default for Prints {
    /// The built-in marks alone.
    fn default() -> Prints {
        Prints {
            counters: COUNTERS.to_vec(),
            symbols: SYMBOLS.to_vec(),
            taken: Vec::new(),
        }
    }
}

/// A mark's kind: what it is printed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A count on feature parts, summed over the feature.
    Counter,
    /// A mark on a whole tile.
    Symbol,
}

impl Mark {
    /// Its word in messages.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Counter => "counter",
            Mark::Symbol => "symbol",
        }
    }
}

/// Which key of a declaration a refusal is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blame {
    /// Its `name`.
    Name,
    /// Its `letter`.
    Letter,
    /// The declaration as a whole (one too many).
    Whole,
}

impl Prints {
    /// The built-in marks, with `letters` taken by figures (`(letter, figure name)`).
    pub fn taking(letters: impl IntoIterator<Item = (char, String)>) -> Prints {
        Prints {
            taken: letters.into_iter().collect(),
            ..Prints::default()
        }
    }

    /// How counter `id` is named and drawn (`None` for an id no counter has).
    pub fn counter(&self, id: CounterId) -> Option<&Print> {
        self.counters.get(id.index())
    }

    /// How `symbol` is named and drawn (`None` for a number no symbol has).
    pub fn symbol(&self, symbol: Symbol) -> Option<&Print> {
        self.symbols.get(symbol.index())
    }

    /// The name of `symbol` ("?" for a number no name has).
    pub fn symbol_name(&self, symbol: Symbol) -> &str {
        self.symbol(symbol).map_or("?", |p| &p.name)
    }

    /// Every counter with its id, in id order.
    pub fn counters(&self) -> impl Iterator<Item = (CounterId, &Print)> {
        // At most MAX_COUNTERS are ever kept (`declare`), so every place is an id.
        let id = |i: usize| CounterId::new(i as u8);
        self.counters
            .iter()
            .enumerate()
            .map(move |(i, p)| (id(i), p))
    }

    /// Every symbol with its number, in number order.
    pub fn symbols(&self) -> impl Iterator<Item = (Symbol, &Print)> {
        let symbol = |i: usize| Symbol::new(i as u8);
        self.symbols
            .iter()
            .enumerate()
            .map(move |(i, p)| (symbol(i), p))
    }

    /// The symbol called `name`, if there is one.
    pub fn symbol_named(&self, name: &str) -> Option<Symbol> {
        self.symbols().find(|(_, p)| p.name == name).map(|(s, _)| s)
    }

    /// The counter called `name`, if there is one.
    pub fn counter_named(&self, name: &str) -> Option<CounterId> {
        self.counters()
            .find(|(_, p)| p.name == name)
            .map(|(c, _)| c)
    }

    /// Whether `name` is one of the built-in marks.
    pub fn is_builtin(name: &str) -> bool {
        COUNTERS.iter().chain(&SYMBOLS).any(|p| p.name == name)
    }

    /// Takes in a mark a tile set declares and gives its id: a new one, or the id of the same
    /// declaration made by another tile set of the ruleset. Refused (with the key to blame and
    /// why): a built-in's name, a name another mark has, a letter the board or another mark or
    /// a figure already draws, and one mark more than the model has room for.
    pub fn declare(&mut self, mark: Mark, print: Print) -> Result<u8, (Blame, String)> {
        let name = print.name.clone();
        if Prints::is_builtin(&name) {
            return Err((
                Blame::Name,
                format!("`{name}` is a built-in mark: tiles use it without declaring it"),
            ));
        }
        let list = match mark {
            Mark::Counter => &self.counters,
            Mark::Symbol => &self.symbols,
        };
        if let Some(i) = list.iter().position(|p| p.name == name) {
            return if list[i] == print {
                Ok(i as u8)
            } else {
                Err((
                    Blame::Name,
                    format!(
                        "{} `{name}` is declared differently by another tile set of this ruleset",
                        mark.word()
                    ),
                ))
            };
        }
        let all = || self.counters.iter().chain(&self.symbols);
        if all().any(|p| p.name == name) {
            return Err((Blame::Name, format!("`{name}` already names another mark")));
        }
        let letter = print.letter;
        if let Some(p) = all().find(|p| p.letter == letter) {
            return Err((
                Blame::Letter,
                format!("letter `{letter}` is already the letter of `{}`", p.name),
            ));
        }
        if BOARD_CHARACTERS.contains(letter) {
            return Err((
                Blame::Letter,
                format!(
                    "letter `{letter}` is one the text board draws itself ({BOARD_CHARACTERS})"
                ),
            ));
        }
        if let Some((_, figure)) = self.taken.iter().find(|(c, _)| *c == letter) {
            return Err((
                Blame::Letter,
                format!("letter `{letter}` is the figure `{figure}`'s"),
            ));
        }
        let (room, builtin) = match mark {
            Mark::Counter => (MAX_COUNTERS, COUNTERS.len()),
            Mark::Symbol => (MAX_SYMBOLS, SYMBOLS.len()),
        };
        let list = match mark {
            Mark::Counter => &mut self.counters,
            Mark::Symbol => &mut self.symbols,
        };
        if list.len() >= room {
            return Err((
                Blame::Whole,
                format!(
                    "a ruleset's tile sets may declare at most {} {}s ({room} with the {builtin} built in)",
                    room - builtin,
                    mark.word()
                ),
            ));
        }
        list.push(print);
        Ok((list.len() - 1) as u8)
    }
}

/// A trade good printed in a city (Traders & Builders): one counter each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Good {
    /// A wine barrel.
    Wine = 0,
    /// A grain sack.
    Grain = 1,
    /// A bolt of cloth.
    Cloth = 2,
}

impl Good {
    /// The three goods, in token order.
    pub const ALL: [Good; 3] = [Good::Wine, Good::Grain, Good::Cloth];

    /// The lowercase name used in tile files and messages.
    pub fn name(self) -> &'static str {
        &COUNTERS[self.counter().index()].name
    }

    /// The counter that counts its tokens.
    pub const fn counter(self) -> CounterId {
        CounterId::new(3 + self as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ids_agree() {
        let prints = Prints::default();
        let name = |id: CounterId| prints.counter(id).map(|p| &*p.name);
        assert_eq!(name(INN), Some("inn"));
        assert_eq!(name(CATHEDRAL), Some("cathedral"));
        assert_eq!(name(PRINCESS), Some("princess"));
        let goods: Vec<&str> = Good::ALL.iter().map(|g| g.name()).collect();
        assert_eq!(goods, ["wine", "grain", "cloth"]);
        assert_eq!(
            Good::ALL.map(|g| prints.counter_named(g.name())),
            Good::ALL.map(|g| Some(g.counter()))
        );
        for (s, name) in [(VOLCANO, "volcano"), (DRAGON, "dragon"), (PORTAL, "portal")] {
            assert_eq!(
                (prints.symbol_name(s), prints.symbol_named(name)),
                (name, Some(s))
            );
        }
        assert_eq!(prints.symbol_named("tower"), None);
        let mut letters: Vec<char> = COUNTERS.iter().chain(&SYMBOLS).map(|p| p.letter).collect();
        letters.sort_unstable();
        letters.dedup();
        assert_eq!(
            letters.len(),
            COUNTERS.len() + SYMBOLS.len(),
            "one letter per print"
        );
        assert!(letters.iter().all(|c| !BOARD_CHARACTERS.contains(*c)));
        assert!(
            COUNTERS
                .iter()
                .chain(&SYMBOLS)
                .all(|p| p.svg.contains("translate({x},{y})"))
        );
    }
}
