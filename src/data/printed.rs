//! What tiles print besides their features, named: the counters a feature part carries
//! (`inn = true` on a road, `cathedral = true`, `goods = "wine"` and `princess = true` on a
//! city, tiles/README.md) and the symbols a whole tile shows (`symbol = "volcano"`). The model
//! keeps them as numbers ([`CounterId`], [`Symbol`]); this table is where the names live, and
//! the families that give them their rules read their ids from here.

use crate::model::tile::{CounterId, MAX_COUNTERS, Symbol};
use serde::{Deserialize, Serialize};

/// An inn on a road (Inns & Cathedrals).
pub const INN: CounterId = CounterId::new(0);
/// A cathedral in a city (Inns & Cathedrals).
pub const CATHEDRAL: CounterId = CounterId::new(1);
/// The princess drawn in a city (The Princess & the Dragon).
pub const PRINCESS: CounterId = CounterId::new(2);

/// The counters' names, by id (the three goods follow the first three: [`Good::counter`]).
pub const COUNTERS: [&str; 6] = ["inn", "cathedral", "princess", "wine", "grain", "cloth"];

const _: () = assert!(COUNTERS.len() <= MAX_COUNTERS);

/// A volcano: the dragon flies here (The Princess & the Dragon).
pub const VOLCANO: Symbol = Symbol::new(0);
/// A dragon: the dragon makes a journey.
pub const DRAGON: Symbol = Symbol::new(1);
/// A magic portal: deploy on any tile.
pub const PORTAL: Symbol = Symbol::new(2);

/// The symbols' names, by number (`symbol = "volcano"` in a tile file).
pub const SYMBOLS: [&str; 3] = ["volcano", "dragon", "portal"];

/// The name of `symbol` ("?" for a number no name has).
pub fn symbol_name(symbol: Symbol) -> &'static str {
    SYMBOLS.get(symbol.index()).copied().unwrap_or("?")
}

/// The symbol called `name`, if there is one.
pub fn symbol(name: &str) -> Option<Symbol> {
    let i = SYMBOLS.iter().position(|s| *s == name)?;
    u8::try_from(i).ok().map(Symbol::new)
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
        COUNTERS[self.counter().index()]
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
        assert_eq!(COUNTERS[INN.index()], "inn");
        assert_eq!(COUNTERS[CATHEDRAL.index()], "cathedral");
        assert_eq!(COUNTERS[PRINCESS.index()], "princess");
        let goods: Vec<&str> = Good::ALL.iter().map(|g| g.name()).collect();
        assert_eq!(goods, ["wine", "grain", "cloth"]);
        for (s, name) in [(VOLCANO, "volcano"), (DRAGON, "dragon"), (PORTAL, "portal")] {
            assert_eq!((symbol_name(s), symbol(name)), (name, Some(s)));
        }
        assert_eq!(symbol("tower"), None);
    }
}
