//! Perft files: a safety net for refactoring the engine (issue 9, "a safety net first").
//!
//! For every shipped ruleset (`rulesets/*.toml`), a few seeded games of random legal play are
//! recorded in `tests/perft/<ruleset>.txt`: at every decision the kind of decision, its seat and
//! the number of legal actions, then the final scores and a digest of the event log (64-bit FNV-1a
//! over each event's JSON, as `replay --json` writes it). A change to any legal-action list, any
//! event or any score changes the file.
//!
//! Regenerate after a deliberate rule change (and commit the new files separately, naming the
//! rule in the message):
//!
//! ```text
//! CASTELLAN_BLESS_PERFT=1 cargo test --release --test perft
//! ```

use castellan::bot::{Bot, RandomBot};
use castellan::data::ruleset::Ruleset;
use castellan::engine::event::Event;
use castellan::engine::game::{Game, Setup};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The seeded games of each ruleset: (seed, players).
const GAMES: [(u64, usize); 3] = [(1, 2), (2, 3), (3, 4)];

/// 64-bit FNV-1a: stable across Rust versions and platforms (unlike std's `DefaultHasher`).
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    const fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Folds events into the digest, one JSON line each.
fn digest(hash: &mut Fnv, events: &[Event]) {
    for e in events {
        hash.write(
            serde_json::to_string(e)
                .expect("events serialise")
                .as_bytes(),
        );
        hash.write(b"\n");
    }
}

/// Plays one seeded game with random bots and writes its perft lines.
fn perft_game(rules: &Arc<Ruleset>, seed: u64, players: usize, out: &mut String) {
    let names = (1..=players).map(|i| format!("P{i}")).collect();
    let (mut game, events) = Game::new(Arc::clone(rules), Setup::new(names, seed)).expect("starts");
    let mut hash = Fnv::new();
    digest(&mut hash, &events);
    let mut bot = RandomBot::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut decisions = String::new();
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let mut count = 0;
    while !game.is_over() {
        let decision = game.decision();
        legal.clear();
        game.legal_actions(&mut legal);
        if count % 12 == 0 {
            decisions.push_str("\n ");
        }
        count += 1;
        write!(
            decisions,
            " {}@{}:{}",
            decision.kind.name(),
            decision.player,
            legal.len()
        )
        .expect("string");
        let action = bot.choose(&game);
        events.clear();
        game.apply_into(&action, &mut events).expect("legal");
        digest(&mut hash, &events);
    }
    writeln!(
        out,
        "game seed={seed} players={players} turns={} decisions={count} scores={:?} events={:016x}{decisions}\n",
        game.turn(),
        game.scores(),
        hash.0,
    )
    .expect("string");
}

/// The perft text of one ruleset file.
fn perft(path: &Path) -> String {
    let rules = Ruleset::load(&path.display().to_string()).expect("the ruleset loads");
    let mut out = format!(
        "# perft of rulesets/{}: seeded random games; regenerate with\n\
         # CASTELLAN_BLESS_PERFT=1 cargo test --release --test perft\n\n",
        path.file_name().expect("a file").to_string_lossy()
    );
    for (seed, players) in GAMES {
        perft_game(&rules, seed, players, &mut out);
    }
    out
}

/// Every shipped ruleset plays exactly the games its perft file records.
#[test]
fn every_ruleset_plays_its_perft_games() {
    let mut rulesets: Vec<PathBuf> = std::fs::read_dir(root().join("rulesets"))
        .expect("the rulesets folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    rulesets.sort();
    assert!(rulesets.len() > 10, "{rulesets:?}");
    let bless = std::env::var_os("CASTELLAN_BLESS_PERFT").is_some();
    let mut differ = Vec::new();
    for path in rulesets {
        let stem = path.file_stem().expect("a name").to_string_lossy();
        let file = root().join("tests/perft").join(format!("{stem}.txt"));
        let got = perft(&path);
        if bless {
            std::fs::create_dir_all(root().join("tests/perft")).expect("a folder");
            std::fs::write(&file, &got).expect("writable");
        } else {
            let want = std::fs::read_to_string(&file).unwrap_or_default();
            if want != got {
                differ.push(stem.to_string());
            }
        }
    }
    assert!(
        differ.is_empty(),
        "perft differs for {differ:?} (see tests/perft.rs for how to regenerate)"
    );
}

/// The digest is FNV-1a: the published test vectors.
#[test]
fn fnv_matches_its_test_vectors() {
    let mut h = Fnv::new();
    h.write(b"");
    assert_eq!(h.0, 0xcbf2_9ce4_8422_2325);
    h.write(b"a");
    assert_eq!(h.0, 0xaf63_dc4c_8601_ec8c);
    let mut h = Fnv::new();
    h.write(b"foobar");
    assert_eq!(h.0, 0x8594_4171_f739_67e8);
}
