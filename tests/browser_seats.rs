//! Seats over the network in real headless Chromium (issue 33): the host makes a game, two
//! players each open their seat's join link in their own browser (a WebDriver session with its
//! own profile) and play it to the end by mouse, a third browser watches through the spectator
//! link, and a player who reloads mid-turn goes on where they were. Each browser's last screen
//! is saved in `target/browser-shots/seats-*.png`.
//!
//! Needs Debian's `chromium` and `chromium-driver`, so ignored by a plain `cargo test`; `.ci/run`
//! runs `cargo test --release --test browser_seats -- --ignored`.

use axum::body::Body;
use axum::http::Request;
use castellan::ui::web;
use serde_json::{Value, json};
use std::time::Duration;
use tower::ServiceExt;

#[path = "common/browser.rs"]
mod harness;

use harness::{Driver, Tab, temp};

/// One browser (its own profile: its own storage, as another person's computer), a [`Tab`]
/// it derefs to.
struct Page(Tab);

impl std::ops::Deref for Page {
    type Target = Tab;
    fn deref(&self) -> &Tab {
        &self.0
    }
}

impl Page {
    async fn open(driver: &Driver, base: &str, name: &'static str) -> Page {
        let client = driver
            .session((1500, 1000), &temp("seats-browser", name))
            .await;
        Page(Tab {
            client,
            base: base.to_string(),
            shot_name: format!("seats-{name}"),
            patience: Duration::from_secs(30),
        })
    }

    /// Whether this page offers a choice now.
    async fn can_act(&self) -> bool {
        self.value("!!document.querySelector('.target, #choices button')")
            .await
            == json!(true)
    }

    /// Takes one step by mouse: a highlighted placement, a spot, or a button.
    async fn step(&self) {
        if self
            .value("!!document.querySelector('rect.target.place.ok')")
            .await
            == json!(true)
        {
            self.click("rect.target.place.ok").await;
        } else if self
            .value("!!document.querySelector('rect.target.place')")
            .await
            == json!(true)
        {
            self.click("#rotate").await;
        } else if self
            .value("!!document.querySelector('circle.target.spot')")
            .await
            == json!(true)
        {
            self.click("circle.target.spot").await;
        } else {
            self.click("#choices button").await;
        }
    }

    async fn history(&self) -> u64 {
        self.value("game ? game.standing.history : -1")
            .await
            .as_u64()
            .unwrap_or(0)
    }

    async fn end(self) {
        self.0.end().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn two_browsers_play_a_game_through_join_links_while_a_third_watches() {
    let app = web::open(
        &temp("seats-browser", "data"),
        web::store::DEFAULT_MAX_GAMES,
    )
    .expect("the data folder");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    tokio::spawn(axum::serve(listener, app.clone()).into_future());
    let request = Request::post("/api/games")
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"ruleset": "hig", "players": ["Ann", "Bob"], "seed": 5, "end_after": 6})
                .to_string(),
        ))
        .expect("a request");
    let answer = app.clone().oneshot(request).await.expect("an answer");
    let bytes = axum::body::to_bytes(answer.into_body(), usize::MAX)
        .await
        .expect("a body");
    let game: Value = serde_json::from_slice(&bytes).expect("JSON");
    let link = |v: &Value| v.as_str().expect("a link").to_string();
    let links = &game["links"];

    let driver = Driver::start().await;
    let ann = Page::open(&driver, &base, "ann").await;
    let bob = Page::open(&driver, &base, "bob").await;
    let watcher = Page::open(&driver, &base, "spectator").await;
    ann.goto(&link(&links["seats"][0])).await;
    bob.goto(&link(&links["seats"][1])).await;
    watcher.goto(&link(&links["spectator"])).await;
    for (page, you) in [
        (&ann, "You play Ann"),
        (&bob, "You play Bob"),
        (&watcher, "watching"),
    ] {
        page.until(&format!("document.getElementById('you') && document.getElementById('you').textContent.includes('{you}')")).await;
    }
    // The join link's token is not left in the address bar.
    assert!(
        !ann.value("location.hash")
            .await
            .to_string()
            .contains("token")
    );

    let mut reloaded = false;
    let mut steps = 0;
    while ann.value("game.standing.over").await != json!(true) {
        let seen = ann.history().await;
        // Whoever's turn it is acts; the other and the spectator are offered nothing.
        let (mover, other) = if ann.can_act().await {
            (&ann, &bob)
        } else {
            (&bob, &ann)
        };
        mover
            .until("document.querySelector('.target, #choices button')")
            .await;
        assert!(
            !other.can_act().await,
            "only the seat whose turn it is acts"
        );
        assert!(!watcher.can_act().await, "the spectator never acts");
        if !reloaded && mover.value("game.decision.kind").await != json!("place_tile") {
            // Mid-turn (tile placed, deploy next): a reload resumes at the same decision.
            let before = mover.value("game.actions.length").await;
            mover.client.refresh().await.expect("reloaded");
            mover
                .until(&format!("game && game.standing.history === {}", seen))
                .await;
            mover
                .until("document.querySelector('.target, #choices button')")
                .await;
            assert_eq!(mover.value("game.actions.length").await, before);
            reloaded = true;
        }
        mover.step().await;
        let now = mover.history().await;
        if now == seen {
            // Rotated the drawn tile: no step yet.
            continue;
        }
        // The others see the move at once (server push), not on their own next request.
        other
            .until(&format!("game.standing.history >= {now}"))
            .await;
        watcher
            .until(&format!("game.standing.history >= {now}"))
            .await;
        steps += 1;
        assert!(steps < 200, "the game ends");
    }
    assert!(reloaded, "a reload mid-turn was tried");
    for page in [&bob, &watcher] {
        page.until(
            "game.standing.over && /game over/.test(document.getElementById('log').textContent)",
        )
        .await;
    }
    let log = "game.log.join('\\n')";
    let watched = watcher.value(log).await;
    assert_eq!(
        ann.value(log).await,
        watched,
        "the spectator saw the same game"
    );
    assert_eq!(bob.value(log).await, watched);
    ann.end().await;
    bob.end().await;
    watcher.end().await;
}
