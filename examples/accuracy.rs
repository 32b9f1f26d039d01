//! Scratch: how well each estimate predicts final scores and margins in greedy games.
use castellan::bot::{self, Estimator};
use castellan::data::ruleset::Ruleset;
use castellan::engine::game::{Game, Setup};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let first: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20001);
    let rules = Ruleset::load("hig").unwrap();
    // per model: [sum sq err margin, sum sq err score, n] by phase (third of game)
    let mut err = [[[0.0f64; 3]; 3]; 2];
    for seed in first..first + games {
        let (mut game, _) = Game::new(
            rules.clone(),
            Setup::new(vec!["A".into(), "B".into()], seed),
        )
        .unwrap();
        let mut bots = [
            bot::by_name("greedy", seed).unwrap(),
            bot::by_name("greedy", seed + 99).unwrap(),
        ];
        let mut snaps: Vec<([Vec<f64>; 2], usize)> = Vec::new();
        let mut last = u32::MAX;
        let mut events = Vec::new();
        while !game.is_over() {
            if game.turn() != last {
                last = game.turn();
                let mut v: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
                for (m, slot) in v.iter_mut().enumerate() {
                    let mut e = Estimator::default();
                    e.measured = m == 1;
                    e.prepare(&game);
                    *slot = e.values(&game, None).to_vec();
                }
                let phase = ((72 - game.tiles_left().min(71)) * 3 / 72).min(2);
                snaps.push((v, phase));
            }
            let p = game.decision().player;
            let a = bots[p].choose(&game);
            events.clear();
            game.apply_legal(&a, &mut events).unwrap();
        }
        let s: Vec<f64> = game.scores().iter().map(|x| *x as f64).collect();
        for (v, phase) in snaps {
            for m in 0..2 {
                let dm = (v[m][0] - v[m][1]) - (s[0] - s[1]);
                err[m][phase][0] += dm * dm;
                err[m][phase][1] += (v[m][0] - s[0]).powi(2) + (v[m][1] - s[1]).powi(2);
                err[m][phase][2] += 1.0;
            }
        }
    }
    for (m, name) in ["hand", "measured"].iter().enumerate() {
        for ph in 0..3 {
            let e = err[m][ph];
            println!(
                "{name:9} phase {ph}: margin rmse {:.2}  score rmse {:.2}  n {}",
                (e[0] / e[2]).sqrt(),
                (e[1] / (2.0 * e[2])).sqrt(),
                e[2]
            );
        }
    }
}
