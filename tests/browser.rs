//! The page of `castellan serve` in a real headless Chromium (issue 12), driven over WebDriver
//! by chromedriver: a game against a bot played with the mouse, a short game to its end, the
//! replay viewer, an uploaded broken ruleset, the tile-set viewer and removing a game. Each test saves a
//! screenshot in `target/browser-shots/`.
//!
//! These tests need Debian's `chromium` and `chromium-driver` packages, so they are ignored by
//! a plain `cargo test`; `.ci/run` installs the packages and runs them with
//! `cargo test --release --test browser -- --ignored`. `CHROMIUM` and `CHROMEDRIVER` name other
//! binaries.

use axum::Router;
use axum::body::Body;
use axum::http::Request;
use castellan::ui::web;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// A server on a free port, a chromedriver and a browser session.
struct Browser {
    client: Client,
    driver: Child,
    port: u16,
    app: Router,
    base: String,
    name: &'static str,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn temp(name: &str, what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "castellan-browser-{}-{name}-{what}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

impl Browser {
    async fn start(name: &'static str) -> Browser {
        let app = web::open(&temp(name, "data"), web::store::DEFAULT_MAX_GAMES)
            .expect("the server's data folder");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        // Behind the guards (Host, Origin, CSP): the page must work under them.
        let site = web::guard::guarded(app.clone(), web::guard::Hosts::default());
        tokio::spawn(web::run(listener, site, web::Limits::default()));

        let port = free_port();
        let driver = Command::new(std::env::var("CHROMEDRIVER").unwrap_or("chromedriver".into()))
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts (apt-get install chromium chromium-driver)");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver listens");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let profile = temp(name, "profile");
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": std::env::var("CHROMIUM").unwrap_or("/usr/bin/chromium".into()),
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                         "--no-first-run", "--disable-background-networking",
                         "--disable-component-update", "--disable-sync",
                         "--disable-dev-shm-usage", "--window-size=1500,1000",
                         format!("--user-data-dir={}", profile.display())],
            }),
        );
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a browser session");
        Browser {
            client,
            driver,
            port,
            app,
            base,
            name,
        }
    }

    async fn goto(&self, path: &str) {
        self.client
            .goto(&format!("{}{path}", self.base))
            .await
            .expect("the page loads");
    }

    /// Waits (up to 20 s) until the JavaScript expression is true.
    async fn until(&self, expression: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let v = self
                .client
                .execute(&format!("return !!({expression});"), vec![])
                .await
                .expect("the script runs");
            if v == Value::Bool(true) {
                return;
            }
            if Instant::now() > deadline {
                self.shot().await;
                panic!("waited in vain for {expression}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn value(&self, expression: &str) -> Value {
        self.client
            .execute(&format!("return {expression};"), vec![])
            .await
            .expect("the script runs")
    }

    async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    async fn type_into(&self, css: &str, text: &str) {
        let field = self.client.find(Locator::Css(css)).await.expect("a field");
        field.clear().await.expect("cleared");
        field.send_keys(text).await.expect("typed");
    }

    /// Saves a screenshot as `target/browser-shots/NAME.png`.
    async fn shot(&self) {
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-shots");
        std::fs::create_dir_all(&dir).expect("the shots folder");
        std::fs::write(dir.join(format!("{}.png", self.name)), png).expect("the shot is saved");
    }

    /// Makes a game through the API (same server).
    async fn api(&self, method: &str, uri: &str, body: Value) -> Value {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .expect("a request");
        let response = self.app.clone().oneshot(request).await.expect("an answer");
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body");
        serde_json::from_slice(&bytes).expect("JSON")
    }

    /// Saves the screenshot and closes the browser (chromedriver stops when dropped).
    async fn end(self) {
        self.shot().await;
        let _ = self.client.clone().close().await;
    }
}

impl Drop for Browser {
    /// Stops chromedriver and its browser, also when a test failed half-way.
    fn drop(&mut self) {
        use std::io::{Read, Write};
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", self.port)) {
            let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
            let _ = write!(
                s,
                "GET /shutdown HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            );
            let _ = s.read(&mut [0u8; 512]);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Starts a game from the page's form: `players`, seed 5, ending after `tiles` tiles.
async fn new_game(b: &Browser, players: &str, tiles: u32) {
    b.goto("/?pause=150#/new").await;
    b.until("document.querySelectorAll('#ruleset option').length > 0")
        .await;
    b.type_into("#players", players).await;
    b.type_into("#seed", "5").await;
    b.type_into("#end-after", &tiles.to_string()).await;
    b.click("#start").await;
    b.until("location.hash.startsWith('#/play/')").await;
}

/// Waits for the person's turn (or the end).
async fn my_turn(b: &Browser) {
    b.until("document.querySelector('.target, #choices button') || /over/.test(document.getElementById('turn').textContent)")
        .await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_person_places_and_deploys_by_clicking_the_board() {
    let b = Browser::start("place-and-deploy").await;
    new_game(&b, "You,greedy", 30).await;
    my_turn(&b).await;
    let log_before = b.value("document.querySelectorAll('#log li').length").await;
    // Placing: a highlighted position for the drawn tile as it is turned.
    b.until("document.querySelector('rect.target.place.ok')")
        .await;
    b.click("rect.target.place.ok").await;
    // Deploying: the spots on the tile just placed.
    b.until("document.querySelector('circle.target.spot')")
        .await;
    let log_after = b.value("document.querySelectorAll('#log li').length").await;
    assert!(log_after.as_u64() > log_before.as_u64(), "the log grew");
    assert!(
        b.value("document.getElementById('log').textContent")
            .await
            .to_string()
            .contains("You place "),
        "the log says who placed what"
    );
    b.click("circle.target.spot").await;
    // The follower left the supply; then the bot plays after its pause.
    b.until("document.querySelector('#standing tbody tr td:nth-child(4)').textContent === '6'")
        .await;
    b.until("/greedy places/.test(document.getElementById('log').textContent)")
        .await;
    my_turn(&b).await;
    b.end().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_short_game_is_played_to_its_end_with_the_mouse() {
    let b = Browser::start("short-game").await;
    new_game(&b, "You,greedy", 6).await;
    for _ in 0..40 {
        my_turn(&b).await;
        if b.value("/over/.test(document.getElementById('turn').textContent)")
            .await
            == json!(true)
        {
            break;
        }
        let seen = b.value("game.standing.history").await;
        // Rotating with the keyboard keeps a legal placement highlighted.
        if b.value("!!document.querySelector('rect.target.place')")
            .await
            == json!(true)
        {
            let body = b.client.find(Locator::Css("body")).await.expect("body");
            body.send_keys("r").await.expect("r");
            b.until("document.querySelector('rect.target.place.ok')")
                .await;
            b.click("rect.target.place.ok").await;
        } else if b
            .value("!!document.querySelector('circle.target.spot')")
            .await
            == json!(true)
        {
            b.click("circle.target.spot").await;
        } else {
            b.click("#choices button").await;
        }
        b.until(&format!("game.standing.history > {seen}")).await;
    }
    b.until("/game over/.test(document.getElementById('log').textContent)")
        .await;
    let scores = b
        .value(
            "[...document.querySelectorAll('#standing td.score')].map(c => Number(c.textContent))",
        )
        .await;
    let total: u64 = scores
        .as_array()
        .expect("scores")
        .iter()
        .filter_map(Value::as_u64)
        .sum();
    assert!(total > 0, "followers on the board scored: {scores}");
    b.end().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn the_replay_viewer_steps_with_the_arrow_keys() {
    let b = Browser::start("replay").await;
    let mut game = b
        .api(
            "POST",
            "/api/games",
            json!({"ruleset": "hig", "players": ["greedy", "random"], "seed": 2, "end_after": 5}),
        )
        .await;
    while game["decision"].is_object() {
        let id = game["id"].as_str().expect("id").to_string();
        let expect = game["standing"]["history"].clone();
        game = b
            .api(
                "POST",
                &format!("/api/games/{id}/bot"),
                json!({"expect": expect}),
            )
            .await;
    }
    let total = game["standing"]["history"].as_u64().expect("actions");
    b.goto(&format!("/#/replay/{}", game["id"].as_str().expect("id")))
        .await;
    b.until(&format!(
        "document.getElementById('step').textContent === '{total} / {total} actions'"
    ))
    .await;
    let lines = b
        .value("document.querySelectorAll('#replay-log li').length")
        .await;
    let body = b.client.find(Locator::Css("body")).await.expect("body");
    body.send_keys("\u{E012}").await.expect("left arrow");
    b.until(&format!(
        "document.getElementById('step').textContent === '{} / {total} actions'",
        total - 1
    ))
    .await;
    let fewer = b
        .value("document.querySelectorAll('#replay-log li').length")
        .await;
    assert!(
        fewer.as_u64() < lines.as_u64(),
        "the log follows the slider"
    );
    assert_eq!(
        b.value("Number(document.getElementById('slider').value)")
            .await,
        json!(total - 1)
    );
    b.end().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_broken_uploaded_ruleset_shows_its_located_error() {
    let b = Browser::start("broken-upload").await;
    let dir = temp("broken-upload", "files");
    let file = dir.join("broken.toml");
    std::fs::write(
        &file,
        "name = \"broken\"\ndescription = \"x\"\nextends = \"base\"\n[base]\nfarm_scoring = \"lots\"\n",
    )
    .expect("a file");
    b.goto("/#/new").await;
    b.until("document.querySelectorAll('#ruleset option').length > 0")
        .await;
    let input = b
        .client
        .find(Locator::Css("#rules-files"))
        .await
        .expect("input");
    input
        .send_keys(&file.display().to_string())
        .await
        .expect("the file is chosen");
    b.click("#start").await;
    b.until("/broken\\.toml:5:/.test(document.getElementById('new-errors').textContent)")
        .await;
    let shown = b
        .value("document.getElementById('new-errors').textContent")
        .await;
    assert!(shown.to_string().contains('^'), "{shown}");
    b.end().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn the_tile_set_viewer_shows_every_tile() {
    let b = Browser::start("tile-sets").await;
    b.goto("/#/tiles").await;
    b.until("document.querySelectorAll('.tile-card').length > 0")
        .await;
    let text = b
        .value("document.getElementById('tiles').textContent")
        .await;
    assert!(text.to_string().contains("× "), "{text}");
    b.end().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_game_is_removed_from_the_list_after_a_question() {
    let b = Browser::start("remove").await;
    for seed in [1, 2] {
        b.api(
            "POST",
            "/api/games",
            json!({"ruleset": "base", "players": ["Ann", "Bob"], "seed": seed}),
        )
        .await;
    }
    b.goto("/#/games").await;
    let rows = "document.querySelectorAll('#games tbody tr').length";
    b.until(&format!("{rows} === 2")).await;
    // Answering "no" keeps the game.
    b.value("(window.confirm = () => false, 0)").await;
    b.click("#games tbody tr button.remove").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(b.value(rows).await, json!(2));
    b.value("(window.confirm = () => true, 0)").await;
    b.click("#games tbody tr button.remove").await;
    b.until(&format!("{rows} === 1")).await;
    let left = b.api("GET", "/api/games", json!(null)).await;
    assert_eq!(left.as_array().expect("games").len(), 1, "{left}");
    b.end().await;
}
