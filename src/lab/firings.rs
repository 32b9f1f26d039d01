//! What the report calls a rule firing: the rule that fired, by its RULES.md id and in words,
//! never the event's name in the engine's JSON.
//!
//! An event that names the rule that paid (`scored`) is that rule; every other kind of event
//! that the lab counts is listed here with the rule behind it, the reason it carries telling
//! apart rules that share a kind (a figure returned by scoring, eaten by the dragon, removed by
//! the princess). A family's event not listed here is named by its family ([`family_rule`]:
//! its vocabulary's rule for the event, or for the reason a figure went home). An event that a
//! script caused says which script.

use crate::engine::event::Event;
use crate::engine::vocabulary;

/// The rule behind each kind of event that names none: (event kind, its reason if the rule
/// depends on it, the rule's RULES.md id and words). Reason-specific rows come first.
const RULES: [(&str, Option<&str>, &str); 35] = [
    (
        "figure_returned",
        Some("scored"),
        "B-M3 figure returned after scoring",
    ),
    (
        "figure_returned",
        Some("eaten"),
        "D7 figure eaten by the dragon",
    ),
    (
        "figure_returned",
        Some("princess"),
        "PR3 knight removed by the princess",
    ),
    (
        "figure_returned",
        Some("last_follower"),
        "§1.10 builder or pig returned with its last follower",
    ),
    ("figure_returned", Some("script"), "script: figure returned"),
    (
        "journey_ended",
        Some("dead_end"),
        "D6 dragon's journey ended at a dead end",
    ),
    (
        "journey_ended",
        Some("steps_done"),
        "D3 dragon's journey of six steps done",
    ),
    (
        "journey_ended",
        Some("script"),
        "script: dragon's journey ended",
    ),
    ("figure_deployed", None, "B-F2 figure deployed"),
    ("feature_completed", None, "§1.5 feature completed"),
    ("tile_discarded", None, "B-P5 unplaceable tile discarded"),
    (
        "tile_set_aside",
        None,
        "D0 dragon tile set aside before the dragon is in play",
    ),
    (
        "tile_returned",
        None,
        "D0 dragon tile put back in the bag (house rule)",
    ),
    (
        "tiles_reshuffled",
        None,
        "V6 set-aside tiles shuffled back into the bag",
    ),
    ("dragon_moved", None, "D5 dragon's step"),
    ("dragon_hidden", None, "dragon taken off the board"),
    ("dragon_placed", None, "dragon put back on the board"),
    ("fairy_moved", None, "FA2 fairy moved"),
    (
        "fairy_point",
        None,
        "FA7 fairy's point at the start of a turn",
    ),
    (
        "fairy_point_forfeited",
        None,
        "A23 fairy's point not claimed in time (house rule)",
    ),
    ("fairy_hidden", None, "fairy taken off the board"),
    ("follower_held", None, "follower held off the board"),
    ("follower_released", None, "held follower released"),
    ("abbot_recalled", None, "§1.10 abbot recalled and scored"),
    ("double_turn", None, "§1.10 builder's double turn"),
    ("goods_taken", None, "§1.10 goods tokens taken"),
    (
        "goods_majority",
        None,
        "B-E2 goods majority at the end of the game",
    ),
    (
        "follower_into_quarter",
        None,
        "CO-1 follower into a quarter of the city",
    ),
    ("count_moved", None, "CO-2 Count moved"),
    (
        "followers_left_quarter",
        None,
        "CO-5 followers from a quarter into a scored feature",
    ),
    // Only scripts cause these (the script commands of `scripts/README.md`; the script is
    // named before them, and its own rule ids are in its log lines).
    ("script_scored", None, "points"),
    ("script_log", None, "message"),
    ("figure_placed", None, "figure placed"),
    ("figure_lifted", None, "figure lifted"),
    (
        "tile_taken_unseen",
        None,
        "tile taken out of the game unseen",
    ),
];

/// The words of the rule behind an event of `kind` (with its `reason`, if any), if listed.
pub fn rule_words(kind: &str, reason: Option<&str>) -> Option<&'static str> {
    RULES
        .iter()
        .find(|(k, r, _)| *k == kind && (r.is_none() || *r == reason))
        .map(|(_, _, words)| *words)
}

/// The rule its family names for `event`: a family's event (`mechanic_events!`'s `=> "…"`),
/// or a figure sent home for a family's reason (the reason's rule and words).
pub fn family_rule(event: &Event) -> Option<String> {
    match event {
        Event::Mechanic(m) => vocabulary::of(m.mechanic)?
            .event_rule(m)
            .map(str::to_string),
        Event::FigureReturned { reason, .. } => {
            let r = reason.family_reason()?;
            Some(format!("{} {}", r.rule, r.words.replace("{}", "figure")))
        }
        _ => None,
    }
}

/// What the report calls one firing of an event of `kind` that names no rule: the rule
/// behind it (listed here, or else the one its `family` names), and the script that caused it
/// if one did (an event of a kind named by neither is said in words made from its kind,
/// marked as unlisted).
pub fn name(
    kind: &str,
    reason: Option<&str>,
    script: Option<&str>,
    family: Option<&str>,
) -> String {
    let words = (rule_words(kind, reason).or(family)).map_or_else(
        || format!("unlisted: {}", kind.replace('_', " ")),
        str::to_string,
    );
    match script {
        Some(s) => format!("script {s}: {words}"),
        None => words,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_picks_its_rule_and_a_script_is_named() {
        assert_eq!(
            name("figure_returned", Some("eaten"), None, None),
            "D7 figure eaten by the dragon"
        );
        assert_eq!(
            name("figure_returned", Some("scored"), None, None),
            "B-M3 figure returned after scoring"
        );
        assert_eq!(
            name("dragon_hidden", None, Some("house"), None),
            "script house: dragon taken off the board"
        );
        assert_eq!(
            name("no_such_event", None, None, None),
            "unlisted: no such event"
        );
        assert_eq!(
            name("tower_floor", None, None, Some("TW-2 floor put on a tower")),
            "TW-2 floor put on a tower"
        );
    }
}
