//! Statistics over lab games: each metric per ruleset as a mean with a 95% confidence
//! interval, and its difference from the first ruleset, paired by game (the same seed).
//!
//! A mean over games gets the normal approximation (1.96 standard errors of the sample); a
//! share of games (a seat's win rate, ties) gets the Wilson score interval, which stays inside
//! 0..=1 and does not shrink to nothing when every game or none counts (a seat that won all 20
//! games has won a share of at least 84%, not exactly 100%). Differences are means of paired
//! values, with the normal approximation.

use crate::lab::changes::About;
use crate::lab::{GameResult, LabError, Shard};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// z for a two-sided 95% interval.
const Z95: f64 = 1.96;

/// A mean over games with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The mean.
    pub mean: f64,
    /// The 95% interval `[low, high]`; none with fewer than two games.
    pub interval: Option<(f64, f64)>,
    /// Games that have a value.
    pub n: u64,
}

impl Estimate {
    /// The mean and interval of `values` (normal approximation, sample standard deviation).
    pub fn of(values: &[f64]) -> Estimate {
        let (n, mean) = Self::mean(values);
        let interval = (n > 1).then(|| {
            let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let half = Z95 * (var / n as f64).sqrt();
            (mean - half, mean + half)
        });
        Estimate {
            mean,
            interval,
            n: n as u64,
        }
    }

    /// The share of `values` that are 1 (each is 0 or 1), with the Wilson score interval.
    pub fn share(values: &[f64]) -> Estimate {
        let (n, p) = Self::mean(values);
        let interval = (n > 1).then(|| {
            let n = n as f64;
            let z2 = Z95 * Z95;
            let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
            let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
            ((centre - half).max(0.0), (centre + half).min(1.0))
        });
        Estimate {
            mean: p,
            interval,
            n: n as u64,
        }
    }

    /// How many values, and their mean (0 for none).
    fn mean(values: &[f64]) -> (usize, f64) {
        let n = values.len();
        let mean = if n == 0 {
            0.0
        } else {
            values.iter().sum::<f64>() / n as f64
        };
        (n, mean)
    }

    /// Whether the interval leaves out zero.
    pub fn excludes_zero(&self) -> bool {
        self.interval
            .is_some_and(|(low, high)| low > 0.0 || high < 0.0)
    }

    /// The interval's upper end, or the mean without one.
    pub fn high(&self) -> f64 {
        self.interval.map_or(self.mean, |(_, high)| high)
    }
}

/// One measure of the games, under every ruleset.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metric {
    /// The family it belongs to: `score`, `win_rate`, `margin`, `length`, `ties`,
    /// `lead_changes`, `decided_turn`, `points` (by source and seat), `points_gap` (by source:
    /// seat 1's points minus the others' mean) or `firings`.
    pub group: &'static str,
    /// What it measures, for people.
    pub label: String,
    /// The seat it is about, from 0 (for scores, win rates and points by seat).
    pub seat: Option<usize>,
    /// Per ruleset.
    pub values: Vec<Estimate>,
    /// Per ruleset, the difference from the first (paired by game); none for the first.
    pub differences: Vec<Option<Estimate>>,
}

/// Everything a comparison says.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The rulesets, in the order given.
    pub rulesets: Vec<String>,
    /// The bot in each seat.
    pub bots: Vec<String>,
    /// Games played per ruleset.
    pub games: Vec<u64>,
    /// The metrics.
    pub metrics: Vec<Metric>,
    /// Every final score of every seat, per ruleset (for distributions).
    pub scores: Vec<Vec<u32>>,
    /// What each ruleset is and which settings differ from the first (filled by the caller,
    /// who knows the rulesets; empty when they are not known).
    pub about: Vec<About>,
    /// What is missing from the run (shards not merged), for people; empty when complete.
    pub missing: Vec<String>,
    /// Whether the rulesets after the second take the second apart (`compare --ablate`).
    pub ablation: bool,
}

impl Summary {
    /// Says what each ruleset is (`about`, in the order of [`Summary::rulesets`]), and whether
    /// the run is an ablation: its rulesets after the second are named by the settings they
    /// take apart (`+key` or `-key`).
    pub fn explain(&mut self, about: Vec<About>) {
        self.ablation = (self.rulesets.get(2)).is_some_and(|r| r.starts_with(['+', '-']));
        self.about = about;
    }
}

/// The groups whose metric is a share of games (each game counts 0 or 1), with Wilson intervals.
const SHARES: [&str; 2] = ["win_rate", "ties"];

/// A metric's value in one game, if the game has one.
type Measure<'a> = Box<dyn Fn(&GameResult) -> Option<f64> + 'a>;

/// Sums up results of one run or of merged shards; checks that they fit together (one set of
/// bots, no game twice, one ruleset per position).
pub fn summarize(results: &[GameResult]) -> Result<Summary, LabError> {
    let Some(first) = results.first() else {
        return Err(LabError::Mixed("there are no games".into()));
    };
    let bots = first.bots.clone();
    let mut by_position: BTreeMap<usize, BTreeMap<u64, &GameResult>> = BTreeMap::new();
    let mut names: BTreeMap<usize, &str> = BTreeMap::new();
    for r in results {
        if r.bots != bots {
            return Err(LabError::Mixed(format!(
                "games with bots {} and with bots {}",
                bots.join(","),
                r.bots.join(",")
            )));
        }
        let name = *names.entry(r.position).or_insert(&r.ruleset);
        if name != r.ruleset {
            return Err(LabError::Mixed(format!(
                "ruleset {} is both `{name}` and `{}`",
                r.position + 1,
                r.ruleset
            )));
        }
        if by_position
            .entry(r.position)
            .or_default()
            .insert(r.index, r)
            .is_some()
        {
            return Err(LabError::Mixed(format!(
                "game {} of `{name}` appears twice (a shard merged twice?)",
                r.index
            )));
        }
    }
    let runs: Vec<&BTreeMap<u64, &GameResult>> = by_position.values().collect();
    let mut metrics = Vec::new();
    for (group, label, seat, measure) in measures(&runs, bots.len()) {
        metrics.push(metric(&runs, group, label, seat, &measure));
    }
    Ok(Summary {
        missing: missing(&names, &by_position),
        about: Vec::new(),
        ablation: false,
        rulesets: names.values().map(|n| n.to_string()).collect(),
        bots,
        games: runs.iter().map(|r| r.len() as u64).collect(),
        metrics,
        scores: runs
            .iter()
            .map(|r| r.values().flat_map(|g| g.scores.iter().copied()).collect())
            .collect(),
    })
}

/// The shards of each ruleset's run of which no game is here (from the run's size that the
/// games carry), in words.
fn missing(
    names: &BTreeMap<usize, &str>,
    by_position: &BTreeMap<usize, BTreeMap<u64, &GameResult>>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (position, games) in by_position {
        let Some(size) = games.values().find_map(|g| g.run) else {
            continue;
        };
        let absent: Vec<String> = (1..=size.shards)
            .filter_map(|index| {
                let range = Shard {
                    index,
                    count: size.shards,
                }
                .range(size.games);
                let none = games.range(range.clone()).next().is_none();
                (none && !range.is_empty()).then(|| {
                    format!(
                        "shard {index}/{} (games {}–{})",
                        size.shards,
                        range.start,
                        range.end - 1
                    )
                })
            })
            .collect();
        if !absent.is_empty() || games.len() as u64 != size.games {
            let list = if absent.is_empty() {
                String::new()
            } else {
                format!(": missing {}", absent.join(", "))
            };
            out.push(format!(
                "`{}` has {} of its run's {} games{list}",
                names.get(position).copied().unwrap_or(""),
                games.len(),
                size.games
            ));
        }
    }
    out
}

/// The metrics to compute: (group, label, seat, value in a game).
fn measures<'a>(
    runs: &[&'a BTreeMap<u64, &'a GameResult>],
    seats: usize,
) -> Vec<(&'static str, String, Option<usize>, Measure<'a>)> {
    let mut list: Vec<(&'static str, String, Option<usize>, Measure<'a>)> = Vec::new();
    for seat in 0..seats {
        list.push((
            "score",
            format!("mean score, seat {}", seat + 1),
            Some(seat),
            Box::new(move |g| g.scores.get(seat).map(|s| *s as f64)),
        ));
    }
    for seat in 0..seats {
        list.push((
            "win_rate",
            format!("win rate, seat {}", seat + 1),
            Some(seat),
            Box::new(move |g| Some(f64::from(u8::from(g.winner() == Some(seat))))),
        ));
    }
    list.push((
        "margin",
        "winning margin".into(),
        None,
        Box::new(|g| Some(margin(&g.scores))),
    ));
    list.push((
        "length",
        "game length (turns)".into(),
        None,
        Box::new(|g| Some(g.turns as f64)),
    ));
    list.push((
        "ties",
        "tied games".into(),
        None,
        Box::new(|g| Some(f64::from(u8::from(g.winner().is_none())))),
    ));
    list.push((
        "lead_changes",
        "lead changes".into(),
        None,
        Box::new(|g| Some(g.lead_changes as f64)),
    ));
    list.push((
        "decided_turn",
        "winner leads for good from turn".into(),
        None,
        Box::new(|g| g.decided_turn.map(f64::from)),
    ));
    let keys = |of: fn(&GameResult) -> Vec<&String>| -> BTreeSet<String> {
        runs.iter()
            .flat_map(|r| r.values().flat_map(|g| of(g)))
            .cloned()
            .collect()
    };
    for source in keys(|g| g.points.keys().collect()) {
        for seat in 0..seats {
            let source = source.clone();
            list.push((
                "points",
                format!("points: {source}, seat {}", seat + 1),
                Some(seat),
                Box::new(move |g| Some(seat_points(g, &source, seat))),
            ));
        }
        if seats > 1 {
            list.push((
                "points_gap",
                format!("seat gap: {source}, {}", gap_words(seats)),
                None,
                Box::new(move |g| Some(gap(g, &source, seats))),
            ));
        }
    }
    for rule in keys(|g| g.firings.keys().collect()) {
        list.push((
            "firings",
            format!("fired: {rule}"),
            None,
            Box::new(move |g| Some(g.firings.get(&rule).map_or(0.0, |n| *n as f64))),
        ));
    }
    list
}

/// The points a seat got from a source in a game.
fn seat_points(g: &GameResult, source: &str, seat: usize) -> f64 {
    g.points
        .get(source)
        .and_then(|p| p.get(seat))
        .map_or(0.0, |x| *x as f64)
}

/// Seat 1's points from a source minus the mean of the other seats' (with two seats: seat 1's
/// minus seat 2's): what the source adds to the first player's lead.
fn gap(g: &GameResult, source: &str, seats: usize) -> f64 {
    let others: f64 = (1..seats).map(|s| seat_points(g, source, s)).sum();
    seat_points(g, source, 0) - others / (seats - 1) as f64
}

/// How the seat gap is taken, for its label.
fn gap_words(seats: usize) -> &'static str {
    if seats == 2 {
        "seat 1 − seat 2"
    } else {
        "seat 1 − the others' mean"
    }
}

/// The best score minus the second best (0 for a tie or a single seat).
fn margin(scores: &[u32]) -> f64 {
    let mut sorted = scores.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    match sorted.as_slice() {
        [a, b, ..] => (*a - *b) as f64,
        _ => 0.0,
    }
}

/// One metric over every ruleset, with paired differences from the first.
fn metric(
    runs: &[&BTreeMap<u64, &GameResult>],
    group: &'static str,
    label: String,
    seat: Option<usize>,
    measure: &Measure<'_>,
) -> Metric {
    let values: Vec<BTreeMap<u64, f64>> = runs
        .iter()
        .map(|r| {
            r.iter()
                .filter_map(|(i, g)| measure(g).map(|v| (*i, v)))
                .collect()
        })
        .collect();
    let estimate = if SHARES.contains(&group) {
        Estimate::share
    } else {
        Estimate::of
    };
    let estimates = values
        .iter()
        .map(|v| estimate(&v.values().copied().collect::<Vec<_>>()))
        .collect();
    let differences = values
        .iter()
        .enumerate()
        .map(|(k, v)| {
            (k > 0).then(|| {
                let paired: Vec<f64> = v
                    .iter()
                    .filter_map(|(i, x)| values[0].get(i).map(|base| x - base))
                    .collect();
                Estimate::of(&paired)
            })
        })
        .collect();
    Metric {
        group,
        label,
        seat,
        values: estimates,
        differences,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(position: usize, index: u64, scores: Vec<u32>) -> GameResult {
        GameResult {
            ruleset: format!("r{position}"),
            position,
            index,
            seed: index,
            bots: vec!["random".into(), "random".into()],
            turns: 10 + index as u32,
            points: BTreeMap::from([("B-S2 city".to_string(), scores.clone())]),
            firings: BTreeMap::from([("D7 figure eaten by the dragon".to_string(), index as u32)]),
            scores,
            lead_changes: 1,
            decided_turn: None,
            run: None,
        }
    }

    fn find<'a>(s: &'a Summary, label: &str) -> &'a Metric {
        s.metrics
            .iter()
            .find(|m| m.label == label)
            .unwrap_or_else(|| panic!("no metric {label}"))
    }

    /// Hand-computed: scores (10,4), (6,6), (2,8) under r0 and (12,4), (9,6), (2,11) under r1.
    #[test]
    fn metrics_match_hand_computed_values() {
        let results = vec![
            game(0, 0, vec![10, 4]),
            game(0, 1, vec![6, 6]),
            game(0, 2, vec![2, 8]),
            game(1, 0, vec![12, 4]),
            game(1, 1, vec![9, 6]),
            game(1, 2, vec![2, 11]),
        ];
        let s = summarize(&results).expect("consistent results");
        assert_eq!(s.rulesets, vec!["r0", "r1"]);
        let score = find(&s, "mean score, seat 1");
        assert_eq!(score.values[0].mean, 6.0);
        // Sample sd of 10, 6, 2 is 4: 1.96 · 4 / √3.
        let (low, high) = score.values[0].interval.expect("three games");
        let hw = 1.96 * 4.0 / 3f64.sqrt();
        assert!((low - (6.0 - hw)).abs() < 1e-9 && (high - (6.0 + hw)).abs() < 1e-9);
        // Paired differences 2, 3, 0: mean 5/3.
        let d = score.differences[1].expect("a difference");
        assert!((d.mean - 5.0 / 3.0).abs() < 1e-12);
        let wins = find(&s, "win rate, seat 1");
        assert!((wins.values[0].mean - 1.0 / 3.0).abs() < 1e-12);
        assert!((wins.values[1].mean - 2.0 / 3.0).abs() < 1e-12);
        // Wilson, 1 of 3: centre (1/3 + z²/6) / (1 + z²/3), half-width
        // z / (1 + z²/3) · √(2/27 + z²/36).
        let z2 = 1.96f64 * 1.96;
        let centre = (1.0 / 3.0 + z2 / 6.0) / (1.0 + z2 / 3.0);
        let half = 1.96 / (1.0 + z2 / 3.0) * (2.0 / 27.0 + z2 / 36.0).sqrt();
        let (low, high) = wins.values[0].interval.expect("three games");
        assert!((low - (centre - half)).abs() < 1e-12 && (high - (centre + half)).abs() < 1e-12);
        assert!((0.061..0.062).contains(&low) && (0.792..0.793).contains(&high));
        assert!((find(&s, "tied games").values[0].mean - 1.0 / 3.0).abs() < 1e-12);
        // Margins 6, 0, 6 and 8, 3, 9.
        assert_eq!(find(&s, "winning margin").values[0].mean, 4.0);
        assert_eq!(find(&s, "winning margin").values[1].mean, 20.0 / 3.0);
        assert_eq!(find(&s, "game length (turns)").values[0].mean, 11.0);
        assert_eq!(
            find(&s, "fired: D7 figure eaten by the dragon").values[1].mean,
            1.0
        );
        // Same length in both rulesets: the difference is exactly 0, interval 0, not marked.
        let d = find(&s, "game length (turns)").differences[1].expect("a difference");
        assert_eq!(d.mean, 0.0);
        assert!(!d.excludes_zero());
        assert_eq!(s.scores[0], vec![10, 4, 6, 6, 2, 8]);
        // Points by seat: seat 1 10, 6, 2 → 6 and seat 2 4, 6, 8 → 6 under r0; seat 2 4, 6, 11 → 7
        // under r1.
        assert_eq!(find(&s, "points: B-S2 city, seat 1").values[0].mean, 6.0);
        assert_eq!(find(&s, "points: B-S2 city, seat 2").values[0].mean, 6.0);
        assert_eq!(find(&s, "points: B-S2 city, seat 2").values[1].mean, 7.0);
        // Seat gaps 6, 0, -6 → 0 under r0; 8, 3, -9 → 2/3 under r1; paired 2, 3, -3 → 2/3.
        let gap = find(&s, "seat gap: B-S2 city, seat 1 − seat 2");
        assert_eq!(gap.values[0].mean, 0.0);
        assert!((gap.values[1].mean - 2.0 / 3.0).abs() < 1e-12);
        let d = gap.differences[1].expect("a difference");
        assert!((d.mean - 2.0 / 3.0).abs() < 1e-12);
        // Sample sd of 2, 3, -3 (mean 2/3): √(( (4/3)² + (7/3)² + (11/3)² ) / 2) = √(31/3).
        let hw = 1.96 * (31.0f64 / 3.0).sqrt() / 3f64.sqrt();
        let (low, high) = d.interval.expect("three games");
        assert!((low - (2.0 / 3.0 - hw)).abs() < 1e-9 && (high - (2.0 / 3.0 + hw)).abs() < 1e-9);
        assert!(
            s.missing.is_empty(),
            "results without a run size: nothing to miss"
        );
    }

    /// With three seats the gap is seat 1's points minus the others' mean: 9 − (3 + 6)/2 = 4.5.
    #[test]
    fn the_seat_gap_of_three_seats_is_against_the_others_mean() {
        let mut g = game(0, 0, vec![9, 3, 6]);
        g.points = BTreeMap::from([("X".to_string(), vec![9, 3, 6])]);
        assert_eq!(gap(&g, "X", 3), 4.5);
        assert_eq!(gap(&g, "no such source", 3), 0.0);
        assert_eq!(gap_words(3), "seat 1 − the others' mean");
    }

    /// Shards 2 and 4 of a run of 10 games in 4 shards are missing: games 2–4 and 7–9.
    #[test]
    fn missing_shards_are_named() {
        let size = Some(crate::lab::RunSize {
            games: 10,
            shards: 4,
        });
        let results: Vec<GameResult> = [0, 1, 5, 6]
            .into_iter()
            .map(|i| GameResult {
                run: size,
                ..game(0, i, vec![1, 2])
            })
            .collect();
        let s = summarize(&results).expect("one ruleset");
        assert_eq!(
            s.missing,
            vec![
                "`r0` has 4 of its run's 10 games: missing shard 2/4 (games 2–4), shard 4/4 (games 7–9)"
            ]
        );
        let whole: Vec<GameResult> = (0..10)
            .map(|i| GameResult {
                run: size,
                ..game(0, i, vec![1, 2])
            })
            .collect();
        assert!(summarize(&whole).expect("one run").missing.is_empty());
    }

    /// A seat that won every game: the Wilson interval of its share keeps room below 100%
    /// (20 of 20: from about 83.9%), where the normal approximation would claim exactly 100%.
    #[test]
    fn a_share_of_all_or_none_keeps_an_interval() {
        let all = Estimate::share(&[1.0; 20]);
        let (low, high) = all.interval.expect("twenty games");
        assert_eq!((all.mean, high), (1.0, 1.0));
        assert!(
            (low - 20.0 / (20.0 + 1.96f64 * 1.96)).abs() < 1e-12,
            "{low}"
        );
        let none = Estimate::share(&[0.0; 20]);
        assert_eq!(none.interval.map(|i| i.0), Some(0.0));
        assert!(none.high() > 0.16 && none.high() < 0.17);
        assert!(
            !none.excludes_zero(),
            "no game won is not a share above zero"
        );
    }

    #[test]
    fn mixed_or_repeated_games_are_refused() {
        let twice = vec![game(0, 0, vec![1, 2]), game(0, 0, vec![1, 2])];
        assert!(summarize(&twice).is_err());
        let mut other = game(0, 1, vec![1, 2]);
        other.bots = vec!["greedy".into(), "random".into()];
        assert!(summarize(&[game(0, 0, vec![1, 2]), other]).is_err());
        assert!(summarize(&[]).is_err());
    }
}
