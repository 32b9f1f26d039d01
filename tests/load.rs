//! A bounded load test of `castellan serve` on loopback (issues 12 and 33): 50 games of `hig`
//! (ending after 24 tiles) played at once to their end by bots through the HTTP API as a page
//! would (with the host's token, asking only for what changed since the version it shows, and
//! applying the new log lines), every answer checked; prints the 50th, 95th and 99th
//! percentile of an action's round trip and the mean answer size. Ignored by a plain `cargo test` (it takes a
//! while on a small machine); `.ci/run` runs it with
//! `cargo test --release --test load -- --ignored --nocapture`.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use castellan::ui::web;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const GAMES: u64 = 50;
/// Tiles drawn before each game ends: long enough for every kind of turn, short enough for a
/// busy two-core machine.
const TILES: u32 = 24;

type Http = Client<HttpConnector, Body>;

async fn post(http: &Http, url: &str, token: &str, body: Value) -> (StatusCode, Value, usize) {
    let request = Request::post(url)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .expect("a request");
    let response = http.request(request).await.expect("an answer");
    let status = response.status();
    let bytes = axum::body::to_bytes(Body::new(response.into_body()), usize::MAX)
        .await
        .expect("a body");
    (
        status,
        serde_json::from_slice(&bytes).expect("JSON"),
        bytes.len(),
    )
}

/// Plays one game by bots to its end; returns each action's round trip and answer size.
async fn play(http: Http, base: String, seed: u64) -> Vec<(Duration, usize)> {
    let (status, mut game, _) = post(
        &http,
        &format!("{base}/api/games"),
        "",
        json!({"ruleset": "hig", "players": ["random", "greedy"], "seed": seed, "end_after": TILES}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let id = game["id"].as_str().expect("id").to_string();
    let link = game["links"]["host"].as_str().expect("a host link");
    let token = link.split("token=").nth(1).expect("a token").to_string();
    let mut log = game["log"].as_array().expect("the log").clone();
    let mut times = Vec::new();
    while game["decision"].is_object() {
        let started = Instant::now();
        let (status, next, size) = post(
            &http,
            &format!("{base}/api/games/{id}/bot"),
            &token,
            json!({"expect": game["standing"]["history"], "since": game["version"], "log": log.len()}),
        )
        .await;
        times.push((started.elapsed(), size));
        assert_eq!(status, StatusCode::OK, "{next}");
        assert_eq!(
            next["standing"]["history"].as_u64(),
            game["standing"]["history"].as_u64().map(|h| h + 1)
        );
        // Only the new lines of the log come, after those the page keeps.
        assert_eq!(next["log_from"].as_u64(), Some(log.len() as u64));
        log.extend(next["log"].as_array().expect("new lines").iter().cloned());
        game = next;
    }
    assert_eq!(game["standing"]["over"], true);
    assert!(
        log.last()
            .and_then(Value::as_str)
            .is_some_and(|l| l.starts_with("game over"))
    );
    times
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a load test: .ci/run runs it"]
async fn fifty_games_at_once_are_played_to_the_end() {
    let dir = std::env::temp_dir().join(format!("castellan-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let app = web::open(&dir, web::store::DEFAULT_MAX_GAMES).expect("data folder");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    tokio::spawn(axum::serve(listener, app).into_future());
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    let started = Instant::now();
    let games: Vec<_> = (0..GAMES)
        .map(|seed| tokio::spawn(play(http.clone(), base.clone(), seed)))
        .collect();
    let mut times = Vec::new();
    for g in games {
        times.extend(g.await.expect("the game task ends"));
    }
    let wall = started.elapsed();
    let bytes: usize = times.iter().map(|(_, size)| size).sum();
    let mut times: Vec<Duration> = times.into_iter().map(|(t, _)| t).collect();
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "{GAMES} games of {TILES} tiles, {} actions in {:.1} s: action latency p50 {:?}, p95 {:?}, p99 {:?}, max {:?}; answers {} bytes on average",
        times.len(),
        wall.as_secs_f64(),
        at(0.50),
        at(0.95),
        at(0.99),
        times[times.len() - 1],
        bytes / times.len()
    );
    let listed = std::fs::read_dir(dir.join("games")).expect("games").count();
    assert_eq!(listed as u64, GAMES);
}
