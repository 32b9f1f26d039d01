//! Seats over the network (issue 33): join links with secret tokens, a page acting only for
//! its seat, the host's powers, undo of one's own steps, answers with only what changed, and
//! server push (server-sent events), through the HTTP API in-process.

use axum::Router;
use axum::http::StatusCode;
use castellan::record::Record;
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::path::PathBuf;
use tower::ServiceExt;

#[path = "common/api.rs"]
mod api;

use api::{app, call_as as call, history, id, request, token};

fn data(name: &str) -> PathBuf {
    api::data("seats", name)
}

/// A game's tokens: host, seat 0, seat 1, spectator.
fn tokens(game: &Value) -> [String; 4] {
    let l = &game["links"];
    [
        token(&l["host"]),
        token(&l["seats"][0]),
        token(&l["seats"][1]),
        token(&l["spectator"]),
    ]
}

/// Two people, base game, seed 3 (the first decision is Ann's placement).
async fn new_game(app: &Router, extra: Value) -> Value {
    let mut body = json!({"ruleset": "base", "players": ["Ann", "Bob"], "seed": 3});
    for (k, v) in extra.as_object().expect("an object") {
        body[k] = v.clone();
    }
    let (status, game) = call(app, "", "POST", "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    game
}

/// The game as seen with `token`.
async fn look(app: &Router, token: &str, game: &Value) -> Value {
    let (status, now) = call(app, token, "GET", &format!("/api/games/{}", id(game)), None).await;
    assert_eq!(status, StatusCode::OK, "{now}");
    now
}

/// Takes legal action `index` as `token`.
async fn act(app: &Router, token: &str, game: &Value, index: usize) -> (StatusCode, Value) {
    let url = format!("/api/games/{}/act", id(game));
    let body = json!({"index": index, "expect": history(game)});
    call(app, token, "POST", &url, Some(body)).await
}

/// The parts of a view that make the game's state (not who looks or the version).
fn state(view: &Value) -> Value {
    json!([
        view["board"],
        view["actions"],
        view["standing"],
        view["decision"],
        view["drawn"],
        view["log"]
    ])
}

#[tokio::test]
async fn each_seat_has_a_secret_link_kept_beside_the_record_and_kept_on_restart() {
    let dir = data("links");
    let first = app(&dir);
    let game = new_game(&first, json!({})).await;
    let all = tokens(&game);
    for t in &all {
        assert_eq!(t.len(), 32, "128 bits in hexadecimal");
        assert!(t.bytes().all(|b| b.is_ascii_hexdigit()));
    }
    let distinct: std::collections::BTreeSet<_> = all.iter().collect();
    assert_eq!(distinct.len(), 4);
    assert_eq!(game["you"], "host");
    let folder = dir.join("games").join(id(&game));
    let record = std::fs::read_to_string(folder.join("game.toml")).expect("the record");
    let kept = std::fs::read_to_string(folder.join("seats.toml")).expect("the seats");
    for t in &all {
        assert!(!record.contains(t.as_str()), "no token in the record");
        assert!(kept.contains(t.as_str()));
    }
    // Another game's links are others.
    let other = new_game(&first, json!({})).await;
    assert!(tokens(&other).iter().all(|t| !all.contains(t)));
    drop(first);
    // A restarted server knows the seats again.
    let second = app(&dir);
    assert_eq!(look(&second, &all[1], &game).await["you"], 0);
    assert_eq!(look(&second, &all[2], &game).await["you"], 1);
    assert_eq!(look(&second, &all[3], &game).await["you"], "spectator");
    let seen = look(&second, &all[1], &game).await;
    assert!(seen["links"].is_null(), "only the host sees the links");
    let (status, _) = act(&second, &all[1], &game, 0).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_page_acts_only_for_its_seat_and_only_the_host_removes() {
    let dir = data("acts");
    let app = app(&dir);
    let game = new_game(&app, json!({})).await;
    let [host, ann, bob, watcher] = tokens(&game);
    assert_eq!(game["decision"]["player"], 0, "Ann places first");
    for (who, t) in [
        ("Bob", &bob),
        ("a spectator", &watcher),
        ("no token", &String::new()),
    ] {
        let (status, e) = act(&app, t, &game, 0).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{who}: {e}");
        assert!(e["error"].as_str().is_some_and(|m| !m.is_empty()), "{e}");
    }
    assert_eq!(
        state(&look(&app, &host, &game).await),
        state(&game),
        "nothing changed"
    );
    let (status, after) = act(&app, &ann, &game, 0).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["you"], 0);
    let url = format!("/api/games/{}", id(&game));
    for t in [&ann, &bob, &watcher] {
        let (status, _) = call(&app, t, "DELETE", &url, None).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
    let (status, _) = call(&app, &host, "DELETE", &url, None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn undo_takes_back_ones_own_steps_of_the_turn_exactly_and_the_record_forgets_them() {
    let dir = data("undo");
    let app = app(&dir);
    let game = new_game(&app, json!({})).await;
    let [_, ann, bob, watcher] = tokens(&game);
    assert_eq!(game["can_undo"], false, "nothing done yet");
    let undo = format!("/api/games/{}/undo", id(&game));
    // Ann places her tile: the decision is still hers (deploy or not).
    let (_, placed) = act(&app, &ann, &game, 0).await;
    assert_eq!(placed["decision"]["player"], 0);
    assert_eq!(placed["can_undo"], true);
    // Not Bob's step, not a spectator's.
    for t in [&bob, &watcher] {
        let (status, _) = call(
            &app,
            t,
            "POST",
            &undo,
            Some(json!({"expect": history(&placed)})),
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }
    let (status, back) = call(
        &app,
        &ann,
        "POST",
        &undo,
        Some(json!({"expect": history(&placed)})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{back}");
    // Exactly as before: legal actions, board, scores, drawn tile, log.
    assert_eq!(state(&back), state(&game));
    let record =
        Record::load(&dir.join("games").join(id(&game)).join("game.toml")).expect("a record");
    assert!(
        record.actions.is_empty(),
        "the undone step is not in the record"
    );
    assert_eq!(back["can_undo"], false);
    let (status, e) = call(&app, &ann, "POST", &undo, Some(json!({"expect": 0}))).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "nothing left to take back: {e}"
    );
    // Place and end the turn (the last action of the deploy decision passes): a new tile is
    // drawn for Bob, and Ann's turn is final.
    let (_, placed) = act(&app, &ann, &back, 0).await;
    let last = placed["actions"].as_array().expect("actions").len() - 1;
    let (_, ended) = act(&app, &ann, &placed, last).await;
    assert_eq!(ended["decision"]["player"], 1, "{}", ended["decision"]);
    assert_eq!(ended["can_undo"], false);
    // The record, written anew by the undo and appended to by each action since, holds every
    // action taken and no other: a restarted server shows the same game.
    let record =
        Record::load(&dir.join("games").join(id(&game)).join("game.toml")).expect("a record");
    assert_eq!(record.actions.len() as u64, history(&ended));
    let again = look(&self::app(&dir), &ann, &game).await;
    assert_eq!(state(&again), state(&ended));
    for t in [&ann, &bob] {
        let (status, _) = call(
            &app,
            t,
            "POST",
            &undo,
            Some(json!({"expect": history(&ended)})),
        )
        .await;
        assert_ne!(status, StatusCode::OK);
    }
}

#[tokio::test]
async fn a_table_without_undo_refuses_it_and_keeps_the_step() {
    let dir = data("noundo");
    let app = app(&dir);
    let game = new_game(&app, json!({"no_undo": true})).await;
    let [_, ann, ..] = tokens(&game);
    let (_, placed) = act(&app, &ann, &game, 0).await;
    assert_eq!(placed["can_undo"], false);
    let url = format!("/api/games/{}/undo", id(&game));
    let (status, e) = call(&app, &ann, "POST", &url, Some(json!({"expect": 1}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        e["error"]
            .as_str()
            .is_some_and(|m| m.contains("without undo")),
        "{e}"
    );
    assert_eq!(state(&look(&app, &ann, &game).await), state(&placed));
}

/// A ruleset's `[table] undo = false` (rulesets/README.md §3.12) forbids undo in a web game
/// made without `no_undo`: the step stays, in the game and in its record.
#[tokio::test]
async fn a_ruleset_without_undo_refuses_it_and_keeps_the_step() {
    let dir = data("rulesnoundo");
    let app = app(&dir);
    let text = "extends = \"base\"\n[table]\nundo = false\n";
    let game = new_game(
        &app,
        json!({"ruleset": "", "files": [{"name": "strict.toml", "text": text}]}),
    )
    .await;
    let [_, ann, ..] = tokens(&game);
    let (status, placed) = act(&app, &ann, &game, 0).await;
    assert_eq!(status, StatusCode::OK, "{placed}");
    assert_eq!(placed["can_undo"], false);
    let url = format!("/api/games/{}/undo", id(&game));
    let (status, e) = call(&app, &ann, "POST", &url, Some(json!({"expect": 1}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        e["error"]
            .as_str()
            .is_some_and(|m| m.contains("[table] undo = false")),
        "{e}"
    );
    assert_eq!(state(&look(&app, &ann, &game).await), state(&placed));
    let record = std::fs::read_to_string(dir.join("games").join(id(&game)).join("game.toml"))
        .expect("the record");
    assert_eq!(record.matches("[[action]]").count(), 1, "{record}");
}

/// What a restart keeps and loses, as README's "What a restart keeps" says: the record (every
/// action taken) and the `no_undo` choice are kept; the steps of the turn a player could take
/// back are not (they are in memory only): after a restart the placement is final, the game
/// otherwise exactly as before.
#[tokio::test]
async fn a_restart_keeps_the_game_and_the_no_undo_choice_but_makes_the_turns_steps_final() {
    let dir = data("restartundo");
    let (free, strict, placed) = {
        let before = app(&dir);
        let free = new_game(&before, json!({})).await;
        let strict = new_game(&before, json!({"no_undo": true})).await;
        let [_, ann, ..] = tokens(&free);
        let (_, placed) = act(&before, &ann, &free, 0).await;
        assert_eq!(
            placed["can_undo"], true,
            "before the restart, the step can go back"
        );
        (free, strict, placed)
    };
    let after = app(&dir);
    let [_, ann, ..] = tokens(&free);
    let now = look(&after, &ann, &free).await;
    assert_eq!(state(&now), state(&placed), "the same game");
    assert_eq!(now["can_undo"], false, "the step is final now");
    let url = format!("/api/games/{}/undo", id(&free));
    let (status, e) = call(&after, &ann, "POST", &url, Some(json!({"expect": 1}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        e["error"]
            .as_str()
            .is_some_and(|m| m.contains("nothing to take back")),
        "{e}"
    );
    // The game made without undo still is.
    let [_, ann, ..] = tokens(&strict);
    act(&after, &ann, &strict, 0).await;
    let url = format!("/api/games/{}/undo", id(&strict));
    let (_, e) = call(&after, &ann, "POST", &url, Some(json!({"expect": 1}))).await;
    assert!(
        e["error"]
            .as_str()
            .is_some_and(|m| m.contains("without undo")),
        "{e}"
    );
}

#[tokio::test]
async fn answers_carry_only_the_new_log_and_an_undo_cuts_the_pages_log() {
    let dir = data("changes");
    let app = app(&dir);
    let game = new_game(&app, json!({})).await;
    let [_, ann, ..] = tokens(&game);
    let shown = game["log"].as_array().expect("log").len();
    let url = format!("/api/games/{}/act", id(&game));
    let body = json!({"index": 0, "expect": 0, "since": game["version"], "log": shown});
    let (status, change) = call(&app, &ann, "POST", &url, Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{change}");
    assert_eq!(change["log_from"], shown);
    let whole = look(&app, &ann, &game).await;
    let mut log = game["log"].as_array().expect("log").clone();
    log.extend(change["log"].as_array().expect("new lines").iter().cloned());
    assert_eq!(Value::from(log.clone()), whole["log"]);
    assert!(change["log"].as_array().expect("new lines").len() < log.len());
    // Nothing new: the version alone.
    let since = format!(
        "/api/games/{}?since={}&log={}",
        id(&game),
        change["version"],
        log.len()
    );
    let (_, same) = call(&app, &ann, "GET", &since, None).await;
    assert_eq!(same["same"], true);
    assert!(same["board"].is_null());
    // After an undo, a page showing the placement keeps only the lines before it.
    let undo = format!("/api/games/{}/undo", id(&game));
    call(&app, &ann, "POST", &undo, Some(json!({"expect": 1}))).await;
    let (_, cut) = call(&app, &ann, "GET", &since, None).await;
    assert_eq!(cut["log_from"], shown);
    assert_eq!(cut["log"], json!([]));
}

#[tokio::test]
async fn the_host_hands_a_seat_to_a_bot_and_back() {
    let dir = data("hand");
    let app = app(&dir);
    let game = new_game(&app, json!({})).await;
    let [host, ann, bob, _] = tokens(&game);
    let url = format!("/api/games/{}/seat", id(&game));
    let (status, _) = call(
        &app,
        &bob,
        "POST",
        &url,
        Some(json!({"seat": 0, "bot": "greedy"})),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, e) = call(
        &app,
        &host,
        "POST",
        &url,
        Some(json!({"seat": 0, "bot": "nobody"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    let (status, handed) = call(
        &app,
        &host,
        "POST",
        &url,
        Some(json!({"seat": 0, "bot": "greedy"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{handed}");
    assert_eq!(handed["bots"], json!([true, false]));
    // Ann's page cannot act for the bot now; any player's page moves it.
    let (status, _) = act(&app, &ann, &game, 0).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let bot = format!("/api/games/{}/bot", id(&game));
    let (status, moved) = call(&app, &bob, "POST", &bot, Some(json!({"expect": 0}))).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    assert_eq!(history(&moved), 1);
    let (status, back) = call(&app, &host, "POST", &url, Some(json!({"seat": 0}))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(back["bots"], json!([false, false]));
}

/// The next server-sent event's data, as JSON.
async fn next_event(
    body: &mut (impl futures_util::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin),
) -> Value {
    let mut text = String::new();
    while !text.contains("\n\n") {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(20), body.next())
            .await
            .expect("an event in time")
            .expect("the stream goes on")
            .expect("a chunk");
        text.push_str(&String::from_utf8_lossy(&chunk));
        if text.starts_with(':') && text.ends_with("\n\n") {
            text.clear();
        }
    }
    let data: String = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .collect();
    serde_json::from_str(&data).expect("JSON data")
}

#[tokio::test]
async fn other_seats_moves_are_pushed_at_once_with_only_the_changes() {
    let dir = data("push");
    let app = app(&dir);
    let game = new_game(&app, json!({})).await;
    let [_, ann, bob, _] = tokens(&game);
    let shown = game["log"].as_array().expect("log").len();
    let url = format!(
        "/api/games/{}/events?token={bob}&since={}&log={shown}",
        id(&game),
        game["version"]
    );
    let response = app
        .clone()
        .oneshot(request("GET", &url, "", None))
        .await
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body().into_data_stream();
    // The first event: nothing changed yet.
    assert_eq!(next_event(&mut body).await["same"], true);
    let (_, placed) = act(&app, &ann, &game, 0).await;
    let pushed = next_event(&mut body).await;
    assert_eq!(pushed["you"], 1, "Bob's page");
    assert_eq!(pushed["version"], placed["version"]);
    assert_eq!(pushed["log_from"], shown);
    assert_eq!(pushed["board"], placed["board"]);
    assert_eq!(pushed["standing"], placed["standing"]);
}
