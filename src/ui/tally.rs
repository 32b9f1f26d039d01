//! Where each player's points came from, read off a game's events: a breakdown by source
//! (roads, cities, cloisters, fields, a script, and what the families name) and the scores turn by turn,
//! for the end of a game on the web page.

use crate::engine::event::Event;
use crate::engine::show;
use crate::model::tile::FeatureKind;
use crate::registry;

/// The points one event pays, to whom and from what source ("roads", "a script", or as its
/// family names it), if it pays.
pub fn payment(event: &Event) -> Option<(usize, u32, String)> {
    if let Some((player, points, from)) = show::first(registry::presenters(), |p| p.payment(event))
    {
        return Some((player, points, from.to_string()));
    }
    match event {
        Event::Scored {
            player,
            points,
            feature,
            ..
        } => Some((*player, *points, source(*feature).to_string())),
        Event::ScriptScored {
            script,
            player,
            points,
            ..
        } => Some((*player, *points, script.to_string())),
        _ => None,
    }
}

/// The source of points a feature kind pays: "roads", "cities", "cloisters", "gardens",
/// "fields".
fn source(kind: FeatureKind) -> &'static str {
    match kind {
        FeatureKind::Road => "roads",
        FeatureKind::City => "cities",
        FeatureKind::Cloister => "cloisters",
        FeatureKind::Garden => "gardens",
        FeatureKind::Field => "fields",
    }
}

/// Each seat's points by source, the sources in the order they first paid anyone; points the
/// events do not account for (a mechanic that pays in its own words) are "other", so that
/// each seat's sum is its score in `scores`.
pub fn breakdown(events: &[Event], scores: &[u32]) -> (Vec<String>, Vec<Vec<u32>>) {
    let mut sources: Vec<String> = Vec::new();
    let mut table: Vec<Vec<u32>> = vec![Vec::new(); scores.len()];
    for (player, points, from) in events.iter().filter_map(payment) {
        let column = sources.iter().position(|s| *s == from).unwrap_or_else(|| {
            sources.push(from);
            sources.len() - 1
        });
        if let Some(row) = table.get_mut(player) {
            row.resize(sources.len().max(row.len()), 0);
            row[column] += points;
        }
    }
    let other: Vec<u32> = scores
        .iter()
        .zip(&table)
        .map(|(s, row)| s.saturating_sub(row.iter().sum()))
        .collect();
    if other.iter().any(|o| *o > 0) {
        sources.push("other".to_string());
    }
    for (row, o) in table.iter_mut().zip(&other) {
        row.resize(sources.len(), 0);
        if *o > 0 {
            if let Some(last) = row.last_mut() {
                *last = *o;
            }
        }
    }
    (sources, table)
}

/// Each seat's score at the start of every turn and at the end: the points of `events` added
/// up in order, the last row set to `scores` (which also counts what no event names).
pub fn timeline(events: &[Event], scores: &[u32]) -> Vec<Vec<u32>> {
    let mut now = vec![0u32; scores.len()];
    let mut rows = vec![now.clone()];
    for e in events {
        if matches!(e, Event::TurnStarted { .. }) {
            rows.push(now.clone());
        }
        if let Some((player, points, _)) = payment(e)
            && let Some(s) = now.get_mut(player)
        {
            *s += points;
        }
    }
    rows.push(scores.to_vec());
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(player: usize, points: u32, feature: FeatureKind) -> Event {
        Event::Scored {
            player,
            points,
            feature,
            rule: "§1.6 completed road",
            x: 0,
            y: 0,
        }
    }

    #[test]
    fn the_breakdown_adds_up_to_the_scores() {
        // RULES.md §1.6: each payment is the feature's points to the seat that holds it.
        let events = vec![
            scored(0, 4, FeatureKind::Road),
            Event::TurnStarted { turn: 2, player: 1 },
            scored(1, 8, FeatureKind::City),
            scored(0, 3, FeatureKind::Road),
        ];
        let (sources, table) = breakdown(&events, &[7, 10]);
        assert_eq!(sources, ["roads", "cities", "other"]);
        assert_eq!(table, [vec![7, 0, 0], vec![0, 8, 2]]);
        let t = timeline(&events, &[7, 10]);
        assert_eq!(t, [vec![0, 0], vec![4, 0], vec![7, 10]]);
    }
}
