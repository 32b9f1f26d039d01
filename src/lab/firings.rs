//! What the report calls a rule firing: the rule that fired, by its RULES.md id and in words,
//! never the event's name in the engine's JSON.
//!
//! An event that names the rule that paid (`scored`) is that rule; every other kind of event
//! that the lab counts is listed here with the rule behind it, the reason it carries telling
//! apart rules that share a kind (a figure returned by scoring, eaten by the dragon, removed by
//! the princess). An event that a script caused says which script.

/// The rule behind each kind of event that names none: (event kind, its reason if the rule
/// depends on it, the rule's RULES.md id and words). Reason-specific rows come first.
const RULES: [(&str, Option<&str>, &str); 32] = [
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
];

/// The words of the rule behind an event of `kind` (with its `reason`, if any), if listed.
pub fn rule_words(kind: &str, reason: Option<&str>) -> Option<&'static str> {
    RULES
        .iter()
        .find(|(k, r, _)| *k == kind && (r.is_none() || *r == reason))
        .map(|(_, _, words)| *words)
}

/// What the report calls one firing of an event of `kind` that names no rule: the rule
/// behind it, and the script that caused it if one did (an event of a kind not listed is
/// said in words made from its kind, marked as unlisted).
pub fn name(kind: &str, reason: Option<&str>, script: Option<&str>) -> String {
    let words = rule_words(kind, reason).map_or_else(
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
            name("figure_returned", Some("eaten"), None),
            "D7 figure eaten by the dragon"
        );
        assert_eq!(
            name("figure_returned", Some("scored"), None),
            "B-M3 figure returned after scoring"
        );
        assert_eq!(
            name("dragon_hidden", None, Some("house")),
            "script house: dragon taken off the board"
        );
        assert_eq!(name("no_such_event", None, None), "unlisted: no such event");
    }
}
