//! Scratch: how often roads and cities holding figures get completed, by open edges and tiles left.
use castellan::bot::{self};
use castellan::data::ruleset::Ruleset;
use castellan::engine::game::{Game, Setup};
use castellan::model::tile::FeatureKind;
use std::collections::HashMap;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let rules = Ruleset::load("hig").unwrap();
    // (kind, open, left bucket) -> (seen, completed)
    let mut table: HashMap<(u8, u32, usize), (u64, u64)> = HashMap::new();
    for seed in 1..=games {
        let (mut game, _) = Game::new(
            rules.clone(),
            Setup::new(vec!["A".into(), "B".into()], seed),
        )
        .unwrap();
        let mut bots = [
            bot::by_name("greedy", seed).unwrap(),
            bot::by_name("greedy", seed + 99).unwrap(),
        ];
        let mut samples: Vec<(u8, u32, usize, u32)> = Vec::new();
        let mut last_turn = u32::MAX;
        let mut events = Vec::new();
        while !game.is_over() {
            if game.turn() != last_turn {
                last_turn = game.turn();
                let f = game.features();
                let mut seen = Vec::new();
                for fig in game.figures() {
                    let root = f.root(fig.seg);
                    if seen.contains(&root) {
                        continue;
                    }
                    seen.push(root);
                    let k = match f.segment(fig.seg).kind {
                        FeatureKind::Road => 0,
                        FeatureKind::City => 1,
                        FeatureKind::Cloister => 2,
                        _ => continue,
                    };
                    if k == 2 {
                        let b = game.board();
                        let around = b.neighbours(b.placed(f.segment(fig.seg).placed).pos);
                        if around < 8 {
                            samples.push((2, around, game.tiles_left() / 10, fig.seg));
                        }
                        continue;
                    }
                    let open = f.totals(root).open;
                    if open == 0 {
                        continue;
                    }
                    samples.push((k, open.min(6), game.tiles_left() / 10, fig.seg));
                }
            }
            let p = game.decision().player;
            let a = bots[p].choose(&game);
            events.clear();
            game.apply_legal(&a, &mut events).unwrap();
        }
        let f = game.features();
        for (k, open, b, seg) in samples {
            let e = table.entry((k, open, b)).or_default();
            e.0 += 1;
            if k == 2 {
                let b = game.board();
                e.1 += b.neighbours(b.placed(f.segment(seg).placed).pos) as u64 - open as u64;
            } else if f.closed(f.root(seg)) {
                e.1 += 1;
            }
        }
    }
    let get = |k: (u8, u32, usize)| table.get(&k).copied().unwrap_or((0, 0));
    for (kind, name, opens) in [(0u8, "ROAD", 2u32), (1, "CITY", 6)] {
        println!("{name}:");
        for open in 1..=opens {
            let row: Vec<String> = (0..10)
                .map(|b| {
                    let (n, c) = get((kind, open, b));
                    format!("{:.3}", if n == 0 { 0.0 } else { c as f64 / n as f64 })
                })
                .collect();
            let ns: Vec<String> = (0..10)
                .map(|b| get((kind, open, b)).0.to_string())
                .collect();
            println!("  [{}], // open {open}, n {}", row.join(", "), ns.join("/"));
        }
    }
    let row: Vec<String> = (0..10)
        .map(|b| {
            let (mut g, mut m) = (0.0, 0.0);
            for a in 0..8u32 {
                let (n, c) = get((2, a, b));
                g += c as f64;
                m += (n * (8 - a) as u64) as f64;
            }
            format!("{:.3}", if m == 0.0 { 0.0 } else { g / m })
        })
        .collect();
    println!(
        "CLOISTER share of missing neighbours gained: [{}]",
        row.join(", ")
    );
}
