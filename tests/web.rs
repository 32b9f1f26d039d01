//! `castellan serve`'s HTTP API, in process (issue 12): creating games, acting, refusals that
//! change nothing, resuming from `--data` after a restart, uploads with located errors, size
//! limits, ids that try to name paths, and the bounded store (`--max-games`, removing games).

use axum::Router;
use axum::http::StatusCode;
use castellan::record::Record;
use castellan::ui::web;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

#[path = "common/api.rs"]
mod api;

use api::{app, call, call_as, history, id};

/// A fresh data folder for one test.
fn data(name: &str) -> PathBuf {
    api::data("web", name)
}

/// A server that keeps at most `max` games.
fn capped(dir: &Path, max: usize) -> Router {
    web::open(dir, max).expect("the data folder opens")
}

/// How many game folders the data folder holds.
fn folders(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("games"))
        .expect("the games folder")
        .count()
}

/// Asks for a new game.
async fn post_game(app: &Router, body: Value) -> (StatusCode, Value) {
    call(app, "POST", "/api/games", Some(body)).await
}

async fn create(app: &Router, body: Value) -> Value {
    let (status, game) = post_game(app, body).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    game
}

/// Downloads a game's record.
async fn download(app: &Router, game: &Value) -> (StatusCode, Value) {
    call(app, "GET", &format!("/api/games/{}/record", id(game)), None).await
}

/// The host's token of a game just made (from its host link).
fn host(game: &Value) -> String {
    api::token(&game["links"]["host"])
}

/// Takes the first action offered at the start of a new game.
async fn take_first_action(app: &Router, game: &Value) -> (StatusCode, Value) {
    call_as(
        app,
        &host(game),
        "POST",
        &format!("/api/games/{}/act", id(game)),
        Some(json!({"index": 0, "expect": 0})),
    )
    .await
}

/// Two people at one screen, base game, seed 3.
fn people() -> Value {
    json!({"ruleset": "base", "players": ["Ann", "Bob"], "seed": 3})
}

#[tokio::test]
async fn a_new_game_offers_placements_on_the_board_and_an_action_is_saved() {
    let dir = data("create");
    let app = app(&dir);
    let game = create(&app, people()).await;
    assert_eq!(game["decision"]["kind"], "place");
    assert_eq!(game["standing"]["names"], json!(["Ann", "Bob"]));
    assert_eq!(game["standing"]["figures"][0]["follower"], 7);
    let actions = game["actions"].as_array().expect("actions");
    assert!(!actions.is_empty());
    // Every placement names its position and rotation, for the board's targets.
    assert!(
        actions
            .iter()
            .all(|a| a["x"].is_i64() && a["rotation"].is_u64() && a["record"]["place"].is_array())
    );
    assert!(game["drawn"]["rotations"].as_array().expect("tile").len() == 4);
    assert!(game["board"].as_str().expect("svg").contains("<svg"));

    let (status, after) = take_first_action(&app, &game).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(history(&after), 1);
    assert_eq!(after["decision"]["kind"], "deploy");
    // Deploying is clicking a spot on the tile just placed: the actions carry the spot's
    // place on the tile.
    let spots: Vec<&Value> = after["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .filter(|a| a["spot"].is_string())
        .collect();
    assert!(!spots.is_empty());
    assert!(
        spots
            .iter()
            .all(|a| a["px"].as_f64().is_some_and(|p| p > 0.0 && p < 1.0))
    );
    // The record on disk has the action.
    let saved = Record::load(&dir.join("games").join(id(&game)).join("game.toml"))
        .expect("the saved record reads");
    assert_eq!(saved.actions.len(), 1);
    assert_eq!(saved.setup.players, ["Ann", "Bob"]);
}

#[tokio::test]
async fn an_illegal_or_stale_action_is_refused_and_changes_nothing() {
    let dir = data("illegal");
    let app = app(&dir);
    let game = create(&app, people()).await;
    let act = format!("/api/games/{}/act", id(&game));
    let token = host(&game);
    let (status, e) = call_as(
        &app,
        &token,
        "POST",
        &act,
        Some(json!({"index": 9999, "expect": 0})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        e["error"]
            .as_str()
            .expect("message")
            .contains("no action number 9999")
    );
    // A page that saw an older game (another tab, a double click).
    let (status, e) = call_as(
        &app,
        &token,
        "POST",
        &act,
        Some(json!({"index": 0, "expect": 5})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        e["error"]
            .as_str()
            .expect("message")
            .contains("after 5 actions")
    );
    // A person cannot ask a bot to play for them.
    let (status, _) = call_as(
        &app,
        &token,
        "POST",
        &format!("/api/games/{}/bot", id(&game)),
        Some(json!({"expect": 0})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, now) = call_as(
        &app,
        &token,
        "GET",
        &format!("/api/games/{}", id(&game)),
        None,
    )
    .await;
    assert_eq!(now, game);
    let saved = Record::load(&dir.join("games").join(id(&game)).join("game.toml")).expect("saved");
    assert!(saved.actions.is_empty());
}

#[tokio::test]
async fn a_restarted_server_lists_and_resumes_its_games() {
    let dir = data("restart");
    let first = app(&dir);
    let game = create(
        &first,
        json!({"ruleset": "hig", "players": ["Ann", "greedy"], "seed": 9}),
    )
    .await;
    let token = host(&game);
    let mut now = game;
    for _ in 0..3 {
        let url = if now["decision"]["bot"] == true {
            format!("/api/games/{}/bot", id(&now))
        } else {
            format!("/api/games/{}/act", id(&now))
        };
        let (status, next) = call_as(
            &first,
            &token,
            "POST",
            &url,
            Some(json!({"index": 0, "expect": history(&now)})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        now = next;
    }
    drop(first);
    let second = app(&dir);
    let (status, list) = call(&second, "GET", "/api/games", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list[0]["id"], now["id"]);
    assert_eq!(list[0]["actions"], 3);
    let (_, resumed) = call(&second, "GET", &format!("/api/games/{}", id(&now)), None).await;
    assert_eq!(resumed["board"], now["board"]);
    assert_eq!(resumed["actions"], now["actions"]);
    assert_eq!(resumed["log"], now["log"]);
}

#[tokio::test]
async fn bots_play_a_short_game_to_the_end_and_its_record_replays_and_reopens() {
    let dir = data("bots");
    let app = app(&dir);
    let mut game = create(
        &app,
        json!({"ruleset": "hig", "players": ["greedy", "random"], "seed": 4, "end_after": 6}),
    )
    .await;
    let mut steps = 0;
    let token = host(&game);
    while game["decision"].is_object() {
        let (status, next) = call_as(
            &app,
            &token,
            "POST",
            &format!("/api/games/{}/bot", id(&game)),
            Some(json!({"expect": history(&game)})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        game = next;
        steps += 1;
        assert!(steps < 100, "the short game ends");
    }
    assert_eq!(game["standing"]["over"], true);
    let log = game["log"].as_array().expect("log");
    assert!(
        log.iter()
            .any(|l| l.as_str().is_some_and(|l| l.starts_with("game over")))
    );
    // The downloaded record replays to the same scores.
    let (status, text) = download(&app, &game).await;
    assert_eq!(status, StatusCode::OK);
    let text = text.as_str().expect("TOML text").to_string();
    let record = Record::parse(castellan::data::library::Source {
        path: "r.toml".into(),
        text: text.clone(),
    })
    .expect("the record parses");
    let replay = record.replay().expect("it replays");
    assert_eq!(json!(replay.game.scores()), game["standing"]["scores"]);
    let tokens: Vec<Option<String>> = (0..2)
        .map(|seat| castellan::ui::render::text::tokens_words(&replay.game, seat))
        .collect();
    assert_eq!(json!(tokens), game["standing"]["tokens"]);
    // Opening it makes a new game with the same history.
    let (status, opened) = call(
        &app,
        "POST",
        "/api/open",
        Some(json!({"files": [{"name": "mine.toml", "text": text}]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{opened}");
    assert_ne!(opened["id"], game["id"]);
    assert_eq!(opened["log"], game["log"]);
    // The replay viewer steps through it.
    let (_, start) = call(
        &app,
        "GET",
        &format!("/api/games/{}/replay?upto=0", id(&game)),
        None,
    )
    .await;
    let (_, two) = call(
        &app,
        "GET",
        &format!("/api/games/{}/replay?upto=2", id(&game)),
        None,
    )
    .await;
    assert_eq!(start["upto"], 0);
    assert_eq!(two["total"], json!(history(&game)));
    assert!(
        two["log"].as_array().expect("log").len() > start["log"].as_array().expect("log").len()
    );
}

#[tokio::test]
async fn uploaded_files_with_errors_are_shown_as_validate_prints_them() {
    let dir = data("upload");
    let app = app(&dir);
    let broken = "name = \"mine\"\ndescription = \"x\"\nextends = \"base\"\n[base]\nfarm_scoring = \"lots\"\n";
    let (status, e) = call(
        &app,
        "POST",
        "/api/games",
        Some(
            json!({"players": ["Ann", "greedy"], "files": [{"name": "mine.toml", "text": broken}]}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let shown = e["diagnostics"][0].as_str().expect("a diagnostic");
    assert!(shown.contains("mine.toml:5:"), "{shown}");
    assert!(shown.contains('^'), "{shown}");
    assert!(!shown.contains(&dir.display().to_string()), "{shown}");
    // Nothing is kept of a refused upload.
    let (_, list) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(list, json!([]));
    // A good upload: a ruleset extending a shipped one, with its own tile set.
    let tiles = std::fs::read_to_string("tiles/base.toml").expect("tiles");
    let ruleset = "name = \"mine\"\ndescription = \"mine\"\nextends = \"base\"\ntiles = [{ set = \"my-tiles.toml\" }]\n";
    let game = create(
        &app,
        json!({"players": ["Ann", "greedy"], "seed": 1, "files": [
            {"name": "my-tiles.toml", "text": tiles},
            {"name": "mine.toml", "text": ruleset}]}),
    )
    .await;
    assert_eq!(game["ruleset"]["name"], "mine");
    // A broken tile set in the tile-set viewer.
    let (status, e) = call(
        &app,
        "POST",
        "/api/tilesets",
        Some(json!({"files": [{"name": "t.toml", "text": "name = \"t\"\n[[tile]]\nid = 3\n"}]})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(
        e["diagnostics"][0]
            .as_str()
            .expect("shown")
            .contains("t.toml:")
    );
}

#[tokio::test]
async fn uploads_and_requests_are_size_limited() {
    let dir = data("size");
    let app = app(&dir);
    let huge = "#".repeat(web::MAX_BODY + 10);
    let (status, _) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({"players": ["Ann", "Bob"], "files": [{"name": "a.toml", "text": huge}]})),
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let big = "#".repeat(web::store::MAX_FILE_BYTES + 1);
    let (status, e) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({"players": ["Ann", "Bob"], "files": [{"name": "a.toml", "text": big}]})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(e["error"].as_str().expect("message").contains("at most"));
    let many: Vec<Value> = (0..web::store::MAX_FILES + 1)
        .map(|i| json!({"name": format!("f{i}.toml"), "text": ""}))
        .collect();
    let (status, _) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({"players": ["A", "B"], "files": many})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn ids_and_file_names_cannot_name_paths() {
    let dir = data("paths");
    let app = app(&dir);
    std::fs::write(dir.join("secret.toml"), "name = \"secret\"\n").expect("a file beside");
    for id in [
        "..",
        "..%2F..%2Fsecret",
        "%2E%2E",
        "G1",
        "a.b",
        "a%00b",
        "games",
    ] {
        for tail in ["", "/record", "/replay"] {
            let (status, _) = call(&app, "GET", &format!("/api/games/{id}{tail}"), None).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{id}{tail}");
        }
        // Removing removes nothing but a game.
        let (status, _) = call(&app, "DELETE", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "DELETE {id}");
    }
    assert!(dir.join("secret.toml").is_file());
    assert!(dir.join("games").is_dir());
    for name in [
        "../x.toml",
        "/etc/x.toml",
        "a/b.toml",
        ".hidden.toml",
        "x.sh",
        "game.toml",
        // The seats' tokens are kept under this name beside the record.
        "seats.toml",
    ] {
        let (status, e) = call(
            &app,
            "POST",
            "/api/games",
            Some(json!({"players": ["A", "B"], "files": [{"name": name, "text": ""}]})),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {e}");
    }
    // An uploaded ruleset cannot reach outside its own folder.
    let (status, e) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({"players": ["A", "B"], "files": [{"name": "r.toml",
            "text": "name = \"r\"\ndescription = \"r\"\nextends = \"../../secret.toml\"\n"}]})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(!e.to_string().contains("name = \\\"secret\\\""), "{e}");
    // Names that collide or are empty are refused before anything is made.
    let (status, _) = post_game(&app, json!({"ruleset": "base", "players": ["A", "A"]})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({"ruleset": "../x", "players": ["A", "B"]})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_page_and_the_tile_sets_are_served() {
    let app = app(&data("page"));
    let (status, page) = call(&app, "GET", "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.as_str()
            .expect("html")
            .contains("<script src=\"/app.js\">")
    );
    let (_, sets) = call(&app, "GET", "/api/tilesets", None).await;
    assert!(sets.as_array().expect("names").contains(&json!("base")));
    let (status, base) = call(&app, "GET", "/api/tilesets/base", None).await;
    assert_eq!(status, StatusCode::OK);
    let tiles = base["tiles"].as_array().expect("tiles");
    assert_eq!(
        tiles
            .iter()
            .map(|t| t["count"].as_u64().unwrap_or(0))
            .sum::<u64>(),
        72
    );
    let (_, rulesets) = call(&app, "GET", "/api/rulesets", None).await;
    assert!(
        rulesets
            .as_array()
            .expect("list")
            .iter()
            .any(|r| r["name"] == "hig")
    );
}

#[tokio::test]
async fn the_log_speaks_to_you_in_the_second_person() {
    let dir = data("second-person");
    let app = app(&dir);
    let game = create(
        &app,
        json!({"ruleset": "base", "players": ["You", "Bob"], "seed": 3}),
    )
    .await;
    let (status, after) = take_first_action(&app, &game).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let log: Vec<&str> = after["log"]
        .as_array()
        .expect("log")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(log.iter().any(|l| l.starts_with("You place")), "{log:?}");
    assert!(
        !log.iter()
            .any(|l| l.contains("You places") || l.contains("You draws")),
        "{log:?}"
    );
}

/// Asserts that a request was refused because the server is full (`--max-games`).
fn assert_full(status: StatusCode, e: &Value, max: usize, held: usize) {
    assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{e}");
    let message = e["error"].as_str().expect("a message");
    assert!(
        message.contains(&format!("at most {max} games and holds {held}")),
        "{message}"
    );
    assert!(message.contains("--max-games"), "{message}");
    assert!(message.contains("remove finished games"), "{message}");
}

#[tokio::test]
async fn a_full_server_refuses_new_games_writes_nothing_and_a_removal_frees_a_place() {
    let dir = data("full");
    let app = capped(&dir, 2);
    let first = create(&app, people()).await;
    // A refused creation gives its place back.
    let (status, _) = post_game(&app, json!({"ruleset": "base", "players": ["A", "A"]})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, record) = download(&app, &first).await;
    let upload = json!({"files": [{"name": "mine.toml", "text": record}]});
    let (status, second) = call(&app, "POST", "/api/open", Some(upload.clone())).await;
    assert_eq!(status, StatusCode::OK, "{second}");
    assert_eq!(folders(&dir), 2);
    // Full: neither a new game nor an opened record is made, and no folder is left behind.
    let (status, e) = post_game(&app, people()).await;
    assert_full(status, &e, 2, 2);
    let (status, e) = call(&app, "POST", "/api/open", Some(upload.clone())).await;
    assert_full(status, &e, 2, 2);
    assert_eq!(folders(&dir), 2);
    let (_, list) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(list.as_array().expect("games").len(), 2);
    // Removing a game removes its folder, and makes room for one more.
    let url = format!("/api/games/{}", id(&first));
    let (status, removed) = call_as(&app, &host(&first), "DELETE", &url, None).await;
    assert_eq!(status, StatusCode::OK, "{removed}");
    assert_eq!(removed["removed"], first["id"]);
    assert!(!dir.join("games").join(id(&first)).exists());
    for tail in ["", "/record", "/replay"] {
        let (status, _) = call(&app, "GET", &format!("{url}{tail}"), None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{tail}");
    }
    let (status, _) = call(&app, "DELETE", &url, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, third) = call(&app, "POST", "/api/open", Some(upload)).await;
    assert_eq!(status, StatusCode::OK, "{third}");
    assert_eq!(third["log"], first["log"]);
    assert_eq!(folders(&dir), 2);
}

#[tokio::test]
async fn a_restarted_server_resumes_more_games_than_its_limit_and_refuses_new_ones() {
    let dir = data("over");
    let first = capped(&dir, 3);
    let mut ids = Vec::new();
    for _ in 0..3 {
        let game = create(&first, people()).await;
        ids.push((id(&game), host(&game)));
    }
    drop(first);
    let second = capped(&dir, 2);
    let (_, list) = call(&second, "GET", "/api/games", None).await;
    assert_eq!(list.as_array().expect("games").len(), 3, "no game is lost");
    for (id, _) in &ids {
        let (status, _) = call(&second, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, e) = post_game(&second, people()).await;
    assert_full(status, &e, 2, 3);
    let (id0, token0) = &ids[0];
    call_as(
        &second,
        token0,
        "DELETE",
        &format!("/api/games/{id0}"),
        None,
    )
    .await;
    let (status, e) = post_game(&second, people()).await;
    assert_full(status, &e, 2, 2);
    let (id1, token1) = &ids[1];
    call_as(
        &second,
        token1,
        "DELETE",
        &format!("/api/games/{id1}"),
        None,
    )
    .await;
    create(&second, people()).await;
    assert_eq!(folders(&dir), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn creations_at_the_same_time_cannot_pass_the_limit_together() {
    let dir = data("race");
    let app = capped(&dir, 3);
    create(&app, people()).await;
    create(&app, people()).await;
    let tries: Vec<_> = (0..8)
        .map(|_| {
            let app = app.clone();
            tokio::spawn(async move { post_game(&app, people()).await })
        })
        .collect();
    let mut made = 0;
    for t in tries {
        let (status, e) = t.await.expect("the request ends");
        if status == StatusCode::OK {
            made += 1;
        } else {
            assert_full(status, &e, 3, 3);
        }
    }
    assert_eq!(made, 1, "one place was left");
    assert_eq!(folders(&dir), 3);
}

#[test]
fn a_request_waiting_for_a_removed_game_finds_it_gone() {
    use web::store::{NewGame, Store, StoreError, lock};
    let dir = data("gone");
    let (store, problems) = Store::open(&dir, 5).expect("the data folder opens");
    assert!(problems.is_empty());
    let new = NewGame {
        ruleset: "base".into(),
        players: vec!["Ann".into(), "Bob".into()],
        ..NewGame::default()
    };
    let id = store.create(&new).expect("a game");
    let waiting = store.get(&id).expect("the game");
    let links = lock(&waiting).links();
    let token = links["host"]
        .as_str()
        .and_then(|l| l.split("token=").nth(1));
    store.remove(&id, token).expect("removed");
    assert!(lock(&waiting).is_removed());
    assert!(matches!(store.get(&id), Err(StoreError::NotFound(_))));
    assert!(matches!(
        store.remove(&id, token),
        Err(StoreError::NotFound(_))
    ));
    assert_eq!(folders(&dir), 0);
}

/// Plays `hig` between two bots to the end (after `tiles` tiles), through the API.
async fn bots_to_the_end(app: &Router, seed: u64, tiles: u32) -> Value {
    let mut game = create(
        app,
        json!({"ruleset": "hig", "players": ["greedy", "random"], "seed": seed, "end_after": tiles}),
    )
    .await;
    let token = host(&game);
    while game["decision"].is_object() {
        let (status, next) = call_as(
            app,
            &token,
            "POST",
            &format!("/api/games/{}/bot", id(&game)),
            Some(json!({"expect": history(&game)})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        game = next;
    }
    game
}

fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("an array")
        .iter()
        .filter_map(Value::as_u64)
        .collect()
}

#[tokio::test]
async fn a_finished_game_explains_itself_in_players_words() {
    // Issue 33: the end names the winner and breaks each score down by source; the log
    // speaks of tiles, figures and places, with the rule (RULES.md ids) only as a note.
    let dir = data("explains");
    let app = app(&dir);
    for seed in [3, 4, 9] {
        let game = bots_to_the_end(&app, seed, 10).await;
        let scores = numbers(&game["standing"]["scores"]);
        let end = &game["end"];
        let best = scores.iter().copied().max().expect("scores");
        let winners: Vec<u64> = (0..scores.len() as u64)
            .filter(|s| scores[*s as usize] == best)
            .collect();
        assert_eq!(numbers(&end["winners"]), winners, "seed {seed}");
        let rows = end["breakdown"].as_array().expect("breakdown");
        let sources = end["sources"].as_array().expect("sources").len();
        for (seat, row) in rows.iter().enumerate() {
            let row = numbers(row);
            assert_eq!(row.len(), sources);
            assert_eq!(row.iter().sum::<u64>(), scores[seat], "seed {seed}: {end}");
        }
        // Scores turn by turn never fall and end at the final scores.
        let timeline = end["timeline"].as_array().expect("timeline");
        assert_eq!(numbers(timeline.last().expect("a row")), scores);
        for pair in timeline.windows(2) {
            let (a, b) = (numbers(&pair[0]), numbers(&pair[1]));
            assert!(a.iter().zip(&b).all(|(x, y)| x <= y), "{a:?} {b:?}");
        }
        // No tile ids (`BA/RCr`), spot codes (`NL`) or rule ids in the words; the rules
        // that paid are notes beside their lines.
        let log = game["log"].as_array().expect("log");
        let notes = game["notes"].as_array().expect("notes");
        assert_eq!(log.len(), notes.len());
        let spots = [
            " NL", " NR", " EL", " ER", " SL", " SR", " WL", " WR", " C ",
        ];
        for line in log.iter().filter_map(Value::as_str) {
            assert!(
                !line.contains('/')
                    && !line.contains('§')
                    && !spots.iter().any(|s| line.contains(s)),
                "seed {seed}: {line}"
            );
        }
        for (line, note) in log.iter().zip(notes) {
            if line
                .as_str()
                .is_some_and(|l| l.contains(" scores ") && l.contains("incomplete"))
            {
                assert_eq!(note, "§1.8", "{line}");
            }
        }
        // The last move is the last tile placed, at the position its log line names.
        let last = &game["last"];
        let placed = log
            .iter()
            .filter_map(Value::as_str)
            .rfind(|l| l.contains(" places "))
            .expect("a placement");
        assert!(
            placed.ends_with(&format!("at ({},{})", last["x"], last["y"])),
            "{placed} / {last}"
        );
    }
}

#[tokio::test]
async fn features_say_who_holds_them_and_what_they_are_worth_now() {
    // RULES.md §1.8: an incomplete road or city is worth its tiles (and pennants) if scored
    // now; the figures on a feature are its holders.
    let dir = data("features");
    let app = app(&dir);
    let game = bots_to_the_end(&app, 4, 6).await;
    let features = game["features"].as_array().expect("features");
    assert!(!features.is_empty());
    for f in features {
        let text = f["text"].as_str().expect("text");
        let parts = f["parts"].as_array().expect("parts");
        assert!(!parts.is_empty(), "{f}");
        let kind = f["kind"].as_str().expect("kind");
        assert!(text.starts_with(kind), "{text}");
        if (kind == "road" || kind == "cloister") && !text.contains("completed") {
            // A road or cloister nobody holds is worth one point a tile.
            let tiles: std::collections::HashSet<(i64, i64)> = parts
                .iter()
                .map(|p| (p[0].as_i64().expect("x"), p[1].as_i64().expect("y")))
                .collect();
            if kind == "road" && text.contains("nobody holds it") {
                assert!(
                    text.ends_with(&format!("worth {} now", tiles.len())),
                    "{text}"
                );
            }
        }
    }
    // The game is over: every figure left on the board is a holder of some feature.
    let held: usize = features
        .iter()
        .filter_map(|f| f["text"].as_str())
        .filter(|t| !t.contains("nobody"))
        .count();
    assert!(held > 0, "figures stay on incomplete features at the end");
}
