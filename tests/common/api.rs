//! What the in-process tests of `castellan serve`'s HTTP API share (tests/web.rs,
//! tests/seats.rs): a fresh data folder, a server over it, requests with or without a token and
//! their JSON answers, and the parts of a game's view they read.
#![allow(dead_code)] // each test file uses its own part of it

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use castellan::ui::web;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tower::ServiceExt;

/// A fresh data folder for one test of the suite `suite` (none of it left from an earlier run).
pub fn data(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("castellan-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The server's application over the games in `dir` (a restarted server when `dir` holds
/// games already).
pub fn app(dir: &Path) -> Router {
    web::open(dir, web::store::DEFAULT_MAX_GAMES).expect("the data folder opens")
}

/// A request showing `token` (none if empty), with a JSON body if any.
pub fn request(method: &str, uri: &str, token: &str, body: Option<Value>) -> Request<Body> {
    let mut request = Request::builder().method(method).uri(uri);
    if !token.is_empty() {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    match body {
        Some(b) => request
            .header("content-type", "application/json")
            .body(Body::from(b.to_string())),
        None => request.body(Body::empty()),
    }
    .expect("a request")
}

/// Sends one request without a token; the status and the body (JSON, or a string for other
/// bodies).
pub async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    call_as(app, "", method, uri, body).await
}

/// Sends one request showing `token` (none if empty); the status and the body (JSON, or a
/// string for other bodies).
pub async fn call_as(
    app: &Router,
    token: &str,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let response = app
        .clone()
        .oneshot(request(method, uri, token, body))
        .await
        .expect("an answer");
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// The token in a join link.
pub fn token(link: &Value) -> String {
    let link = link.as_str().expect("a link");
    link.split("token=").nth(1).expect("a token").to_string()
}

/// A game's id.
pub fn id(game: &Value) -> String {
    game["id"].as_str().expect("an id").to_string()
}

/// How many actions the game shown has.
pub fn history(game: &Value) -> u64 {
    game["standing"]["history"].as_u64().expect("history")
}

/// Bots play a whole game of `ruleset` through the server's API (`players` are bots' names,
/// `seed` the bag's): each view on the way is shown to `each`; returns the last view, over, and
/// the game its downloaded record replays to, whose scores are the view's.
pub async fn bot_game(
    app: &Router,
    ruleset: &str,
    players: &[&str],
    seed: u64,
    mut each: impl FnMut(&Value),
) -> (Value, castellan::record::Replay) {
    use serde_json::json;
    let body = json!({"ruleset": ruleset, "players": players, "seed": seed});
    let (status, mut game) = call(app, "POST", "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let host = token(&game["links"]["host"]);
    let mut steps = 0;
    while game["decision"].is_object() {
        let url = format!("/api/games/{}/bot", id(&game));
        let expect = Some(json!({"expect": history(&game)}));
        let (status, next) = call_as(app, &host, "POST", &url, expect).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        game = next;
        each(&game);
        steps += 1;
        assert!(steps < 1000, "the game ends");
    }
    assert_eq!(game["standing"]["over"], true);
    let url = format!("/api/games/{}/record", id(&game));
    let (status, text) = call(app, "GET", &url, None).await;
    assert_eq!(status, StatusCode::OK);
    let record = castellan::record::Record::parse(castellan::data::library::Source {
        path: "r.toml".into(),
        text: text.as_str().expect("TOML text").to_string(),
    })
    .expect("the record parses");
    let replay = record.replay().expect("it replays");
    assert_eq!(json!(replay.game.scores()), game["standing"]["scores"]);
    (game, replay)
}
