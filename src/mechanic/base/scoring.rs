//! Base scoring values (RULES.md §1.6) and the toggles that change them.

use super::rules::SmallCity;
use crate::engine::game::Size;
use crate::model::tile::FeatureKind;

/// Points for a road, city or cloister, completed or not.
pub fn value(kind: FeatureKind, size: Size, completed: bool, small_city: SmallCity) -> u32 {
    match kind {
        FeatureKind::Road | FeatureKind::Cloister | FeatureKind::Garden => size.tiles,
        FeatureKind::City if !completed => size.tiles + size.pennants,
        FeatureKind::City if size.tiles == 2 && small_city == SmallCity::Half => {
            size.tiles + size.pennants
        }
        FeatureKind::City => 2 * (size.tiles + size.pennants),
        FeatureKind::Field => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(tiles: u32, pennants: u32) -> Size {
        Size { tiles, pennants }
    }

    #[test]
    fn values_follow_rules_1_6() {
        // RULES.md §1.6 table; T-B2 (small city) and T-B3 (incomplete at the end).
        use FeatureKind::*;
        assert_eq!(value(Road, s(4, 0), true, SmallCity::Normal), 4);
        assert_eq!(value(City, s(3, 1), true, SmallCity::Normal), 8);
        assert_eq!(value(City, s(3, 1), false, SmallCity::Normal), 4);
        assert_eq!(value(City, s(2, 0), true, SmallCity::Normal), 4);
        assert_eq!(value(City, s(2, 0), true, SmallCity::Half), 2);
        assert_eq!(value(City, s(2, 1), true, SmallCity::Half), 3);
        assert_eq!(value(City, s(3, 0), true, SmallCity::Half), 6);
        assert_eq!(value(Cloister, s(6, 0), false, SmallCity::Normal), 6);
    }
}
