//! Why a rule refuses something, as data: the rule's id and the reason in words. Tests and
//! user interfaces match on the id; people read the words.

use std::fmt;

/// A rule's id: as RULES.md numbers it (`B-P1`, `PR3`, `CO-1`), or for a switch of a ruleset
/// its key (`mechanics.farmers`), or `script` for what a script decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleId(pub &'static str);

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A rule's refusal: which rule, and why in words. Reads "why (rule)".
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{why} ({rule})")]
pub struct Refusal {
    /// The rule that refuses.
    pub rule: RuleId,
    /// The reason, in words (without the rule's id).
    pub why: &'static str,
}

impl Refusal {
    /// `rule` refuses, for the reason `why`.
    pub const fn new(rule: &'static str, why: &'static str) -> Refusal {
        Refusal {
            rule: RuleId(rule),
            why,
        }
    }
}
