//! What tiles print besides their features, named: the counters a feature part carries
//! (`inn = true` on a road, `cathedral = true`, `goods = "wine"` and `princess = true` on a
//! city, tiles/README.md) and the symbols a whole tile shows (`symbol = "volcano"`). The model
//! keeps them as numbers ([`CounterId`], [`Symbol`]); this table is where their names and
//! looks live ([`Print`]: the boards draw them and key them from here), and the families that
//! give them their rules read their ids from here.

use crate::model::tile::{CounterId, MAX_COUNTERS, Symbol};
use serde::{Deserialize, Serialize};

/// An inn on a road (Inns & Cathedrals).
pub const INN: CounterId = CounterId::new(0);
/// A cathedral in a city (Inns & Cathedrals).
pub const CATHEDRAL: CounterId = CounterId::new(1);
/// The princess drawn in a city (The Princess & the Dragon).
pub const PRINCESS: CounterId = CounterId::new(2);

/// How a printed counter or symbol is named and drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Print {
    /// Its name in tile files and messages.
    pub name: &'static str,
    /// Its character on the text board.
    pub letter: char,
    /// What the board's key calls it.
    pub key: &'static str,
    /// Where a counter is drawn: in its feature part, or on the field beside it.
    pub place: Drawn,
    /// Its SVG picture, about 20 units wide and centred on `({x},{y})`, which the board fills in.
    pub svg: &'static str,
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
        Print {
            name: $name,
            letter: $letter,
            key: $name,
            place: Drawn::In,
            svg: concat!(
                r##"<g class="good "##,
                $name,
                r##"" transform="translate({x},{y})"><circle r="7" fill=""##,
                $fill,
                r##"" stroke=""##,
                $edge,
                r##"" stroke-width="1.5"/></g>"##
            ),
        }
    };
}

/// The counters, by id (the three goods follow the first three: [`Good::counter`]).
pub const COUNTERS: [Print; 6] = [
    Print {
        name: "inn",
        letter: 'i',
        key: "inn",
        place: Drawn::Beside,
        svg: concat!(
            r##"<g class="inn" transform="translate({x},{y})">"##,
            r##"<rect x="-7" y="-2" width="14" height="10" fill="#f3e3c3" stroke="#5a3a1a" stroke-width="1.2"/>"##,
            r##"<polygon points="-9,-2 0,-10 9,-2" fill="#b5452c" stroke="#5a1a10" stroke-width="1.2"/>"##,
            r##"<rect x="-2" y="3" width="4" height="5" fill="#5a3a1a"/></g>"##
        ),
    },
    Print {
        name: "cathedral",
        letter: 'A',
        key: "cathedral",
        place: Drawn::In,
        svg: concat!(
            r##"<g class="cathedral" transform="translate({x},{y})">"##,
            r##"<rect x="-9" y="-2" width="18" height="11" fill="#c8c8d0" stroke="#3a3a48" stroke-width="1.2"/>"##,
            r##"<polygon points="-4,-2 0,-14 4,-2" fill="#8a8a9a" stroke="#3a3a48" stroke-width="1.2"/>"##,
            r##"<path d="M0,1 V7 M-2.5,3.5 H2.5" stroke="#3a3a48" stroke-width="1.5"/></g>"##
        ),
    },
    Print {
        name: "princess",
        letter: 'P',
        key: "princess",
        place: Drawn::WithPennants,
        svg: concat!(
            r##"<path class="princess" transform="translate({x},{y})" d="M-8,5 V-4 L-4,0 L0,-7 L4,0 L8,-4 V5 Z" "##,
            r##"fill="#f4c430" stroke="#8a6400" stroke-width="1.2"/>"##
        ),
    },
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

const _: () = assert!(COUNTERS.len() <= MAX_COUNTERS);

/// The symbols, by number (`symbol = "volcano"` in a tile file).
pub const SYMBOLS: [Print; 3] = [
    Print {
        name: "volcano",
        letter: 'V',
        key: "volcano",
        place: Drawn::In,
        svg: concat!(
            r##"<g class="symbol volcano" transform="translate({x},{y})">"##,
            r##"<polygon points="-13,9 13,9 5,-6 -5,-6" fill="#6b4a3a" stroke="#3b2820" stroke-width="1.2"/>"##,
            r##"<polygon points="-5,-6 5,-6 3,-11 0,-7 -3,-12" fill="#f05a1a"/></g>"##
        ),
    },
    Print {
        name: "dragon",
        letter: 'D',
        key: "dragon symbol",
        place: Drawn::In,
        svg: concat!(
            r##"<g class="symbol dragon-symbol" transform="translate({x},{y})">"##,
            r##"<path d="M-12,6 L-5,-9 L-1,-1 L0,-5 L1,-1 L5,-9 L12,6 L0,2 Z" fill="#c0392b" "##,
            r##"stroke="#5a1010" stroke-width="1.2"/></g>"##
        ),
    },
    Print {
        name: "portal",
        letter: '@',
        key: "portal",
        place: Drawn::In,
        svg: concat!(
            r##"<g class="symbol portal" transform="translate({x},{y})">"##,
            r##"<path d="M-9,10 V-1 A9,9 0 0 1 9,-1 V10 Z" fill="#5b2d8e" stroke="#2e1450" stroke-width="1.2"/>"##,
            r##"<path d="M-5,10 V0 A5,5 0 0 1 5,0 V10 Z" fill="#c9a6f0"/></g>"##
        ),
    },
];

/// How `symbol` is named and drawn (`None` for a number no symbol has).
pub fn symbol_print(symbol: Symbol) -> Option<&'static Print> {
    SYMBOLS.get(symbol.index())
}

/// The name of `symbol` ("?" for a number no name has).
pub fn symbol_name(symbol: Symbol) -> &'static str {
    symbol_print(symbol).map_or("?", |p| p.name)
}

/// The symbol called `name`, if there is one.
pub fn symbol(name: &str) -> Option<Symbol> {
    let i = SYMBOLS.iter().position(|s| s.name == name)?;
    u8::try_from(i).ok().map(Symbol::new)
}

/// The names of every symbol, for messages ("volcano, dragon, portal").
pub fn symbol_names() -> String {
    let names: Vec<&str> = SYMBOLS.iter().map(|s| s.name).collect();
    names.join(", ")
}

/// How counter `id` is named and drawn (`None` for an id no counter has).
pub fn counter_print(id: CounterId) -> Option<&'static Print> {
    COUNTERS.get(id.index())
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
        COUNTERS[self.counter().index()].name
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
        assert_eq!(COUNTERS[INN.index()].name, "inn");
        assert_eq!(COUNTERS[CATHEDRAL.index()].name, "cathedral");
        assert_eq!(COUNTERS[PRINCESS.index()].name, "princess");
        let goods: Vec<&str> = Good::ALL.iter().map(|g| g.name()).collect();
        assert_eq!(goods, ["wine", "grain", "cloth"]);
        for (s, name) in [(VOLCANO, "volcano"), (DRAGON, "dragon"), (PORTAL, "portal")] {
            assert_eq!((symbol_name(s), symbol(name)), (name, Some(s)));
        }
        assert_eq!(symbol("tower"), None);
        let mut letters: Vec<char> = COUNTERS.iter().chain(&SYMBOLS).map(|p| p.letter).collect();
        letters.sort_unstable();
        letters.dedup();
        assert_eq!(
            letters.len(),
            COUNTERS.len() + SYMBOLS.len(),
            "one letter per print"
        );
        assert!(
            COUNTERS
                .iter()
                .chain(&SYMBOLS)
                .all(|p| p.svg.contains("translate({x},{y})"))
        );
    }
}
