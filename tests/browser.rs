//! The page of `castellan serve` in a real headless Chromium (issue 12), driven over WebDriver
//! by chromedriver: a game against a bot played with the mouse, a short game to its end, the
//! replay viewer, an uploaded broken ruleset, the tile-set viewer and removing a game; and
//! (issue 33) a game played to its end by touch and mouse on a phone, a tablet and a desktop,
//! with the board's size, panning and zooming, the last move, the features' notes, the log's
//! words, a double click and the end's winner, breakdown and chart checked. Each test saves a
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
use fantoccini::Locator;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, PointerAction, TouchActions};
use serde_json::{Value, json};
use std::time::Duration;
use tower::ServiceExt;

#[path = "common/browser.rs"]
mod harness;

use harness::{DESKTOP, Driver, Tab, temp};

/// A server on a free port, a chromedriver and a browser session (a [`Tab`], which it derefs
/// to).
struct Browser {
    tab: Tab,
    /// Stopped, with its browser, when the test ends.
    _driver: Driver,
    app: Router,
}

impl std::ops::Deref for Browser {
    type Target = Tab;
    fn deref(&self) -> &Tab {
        &self.tab
    }
}

impl Browser {
    async fn start(name: &'static str) -> Browser {
        Browser::start_at(name, DESKTOP).await
    }

    /// A browser whose page is `size` (width, height) CSS pixels.
    async fn start_at(name: &'static str, size: (u32, u32)) -> Browser {
        let app = web::open(
            &temp("browser", &format!("{name}-data")),
            web::store::DEFAULT_MAX_GAMES,
        )
        .expect("the server's data folder");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        // Behind the guards (Host, Origin, CSP): the page must work under them.
        let site = web::guard::guarded(app.clone(), web::guard::Hosts::default());
        tokio::spawn(web::run(listener, site, web::Limits::default()));
        let driver = Driver::start().await;
        let client = driver
            .session(size, &temp("browser", &format!("{name}-profile")))
            .await;
        Browser {
            tab: Tab {
                client,
                base,
                shot_name: name.to_string(),
                patience: Duration::from_secs(20),
            },
            _driver: driver,
            app,
        }
    }

    /// Makes a game through the API (same server).
    async fn api(&self, method: &str, uri: &str, body: Value) -> Value {
        self.api_as("", method, uri, body).await
    }

    /// Calls the API showing `token` (a game's host or seat token; none if empty).
    async fn api_as(&self, token: &str, method: &str, uri: &str, body: Value) -> Value {
        let mut request = Request::builder().method(method).uri(uri);
        if !token.is_empty() {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let request = request
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
        self.tab.end().await;
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

/// Undo on the page (issue 33): after placing, "Undo my last step" takes the placement back
/// (the positions to place on are offered again); a game made with the form's "No undo" box
/// ticked offers no such button, and the placement stays.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn undo_takes_a_placement_back_unless_the_form_forbade_it() {
    let b = Browser::start("undo").await;
    new_game(&b, "You,greedy", 30).await;
    my_turn(&b).await;
    b.click("rect.target.place.ok").await;
    b.until("document.querySelector('circle.target.spot') && document.getElementById('undo')")
        .await;
    b.click("#undo").await;
    b.until("document.querySelector('rect.target.place.ok') && !document.getElementById('undo')")
        .await;
    // The same game with the box ticked: no button, the step is final.
    b.goto("/?pause=150#/new").await;
    b.until("document.querySelectorAll('#ruleset option').length > 0")
        .await;
    b.type_into("#players", "You,greedy").await;
    b.type_into("#seed", "5").await;
    b.click("#no-undo").await;
    b.click("#start").await;
    b.until("location.hash.startsWith('#/play/')").await;
    my_turn(&b).await;
    b.click("rect.target.place.ok").await;
    b.until("document.querySelector('circle.target.spot')")
        .await;
    assert_eq!(
        b.value("!!document.getElementById('undo')").await,
        json!(false)
    );
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
    let link = game["links"]["host"].as_str().expect("a host link");
    let host = link.split("token=").nth(1).expect("a token").to_string();
    while game["decision"].is_object() {
        let id = game["id"].as_str().expect("id").to_string();
        let expect = game["standing"]["history"].clone();
        game = b
            .api_as(
                &host,
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
        let game = b
            .api(
                "POST",
                "/api/games",
                json!({"ruleset": "base", "players": ["Ann", "Bob"], "seed": seed}),
            )
            .await;
        // The page removes a game only as its host: it opens the host's link once.
        b.goto(game["links"]["host"].as_str().expect("a host link"))
            .await;
        b.until("location.hash.startsWith('#/play/')").await;
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

/// The three screens the page is tested on: a phone, a tablet and a desktop.
const PHONE: (u32, u32) = (390, 844);
const TABLET: (u32, u32) = (820, 1180);

/// Taps `css` with a finger (a touch pointer), as on a phone.
async fn tap(b: &Browser, css: &str) {
    let element = b
        .client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"));
    let finger = TouchActions::new("finger".into())
        .then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.client
        .perform_actions(finger)
        .await
        .unwrap_or_else(|e| panic!("tap {css}: {e}"));
}

/// Drags the board by (`dx`, `dy`) pixels with a finger.
async fn drag_board(b: &Browser, dx: f64, dy: f64) {
    let element = b.client.find(Locator::Css("#board")).await.expect("board");
    let finger = TouchActions::new("finger".into())
        .then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveBy {
            duration: Some(Duration::from_millis(200)),
            x: dx,
            y: dy,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.client.perform_actions(finger).await.expect("a drag");
}

/// Tile ids (`BA/RCr`), spot codes (`NL`) and rule ids (`§1.8`, `FA7`) the log must not show.
const ENGINE_WORDS: &str =
    r"/[A-Z]{2}\/|\b(NL|NR|EL|ER|SL|SR|WL|WR|N|E|S|W|C)\b|§|\bFA\d|\bfollower\b/";

/// Plays a short game of `hig` against the greedy bot on a screen of `size`, by touch on
/// the phone and with the mouse elsewhere, and checks what the page explains on the way.
async fn play_on(name: &'static str, size: (u32, u32), touch: bool) {
    let b = Browser::start_at(name, size).await;
    new_game(&b, "You,greedy", 5).await;
    my_turn(&b).await;
    // The board takes most of the screen's width on a narrow screen (not 2 px), and is at
    // least a tile high.
    let board_w = b
        .value("document.getElementById('board').clientWidth")
        .await;
    let board_h = b
        .value("document.getElementById('board').clientHeight")
        .await;
    let (bw, bh) = (
        board_w.as_f64().expect("width"),
        board_h.as_f64().expect("height"),
    );
    let share = if size.0 < 900 { 0.9 } else { 0.5 };
    assert!(
        bw >= share * f64::from(size.0) && bh >= 0.4 * f64::from(size.1),
        "{name}: the board is {bw}x{bh} on a {size:?} screen"
    );
    // The drawn tile and the rotate button are on screen without scrolling.
    let reach = "(() => { const r = document.getElementById('rotate').getBoundingClientRect(); \
                 return r.bottom <= innerHeight && r.right <= innerWidth && r.width > 0; })()";
    assert_eq!(
        b.value(reach).await,
        json!(true),
        "{name}: rotate is in reach"
    );
    // Dragging pans the board; the zoom buttons zoom it.
    let before = b.value("[look.cx, look.cy]").await;
    drag_board(&b, 60.0, 40.0).await;
    assert_ne!(
        b.value("[look.cx, look.cy]").await,
        before,
        "{name}: a drag pans"
    );
    let scale = b.value("look.scale").await.as_f64().expect("scale");
    b.click("#zoom-in").await;
    let zoomed = b.value("look.scale").await.as_f64().expect("scale");
    assert!(zoomed > scale, "{name}: zoom in {scale} -> {zoomed}");
    b.click("#zoom-out").await;
    drag_board(&b, -60.0, -40.0).await;
    let mut moves = 0;
    for _ in 0..40 {
        my_turn(&b).await;
        if b.value("/over/.test(document.getElementById('turn').textContent)")
            .await
            == json!(true)
        {
            break;
        }
        let seen = b.value("game.standing.history").await;
        let target = if b
            .value("!!document.querySelector('rect.target.place.ok')")
            .await
            == json!(true)
        {
            "rect.target.place.ok"
        } else if b
            .value("!!document.querySelector('circle.target.spot')")
            .await
            == json!(true)
        {
            // Deploy spots are labelled by figure and feature.
            let labels = b
                .value("[...document.querySelectorAll('.spot-label text')].map(t => t.textContent)")
                .await;
            assert!(
                labels.as_array().is_some_and(|l| !l.is_empty()
                    && l.iter().all(|t| t.as_str().is_some_and(|t| [
                        "knight", "thief", "farmer", "monk", "abbot"
                    ]
                    .iter()
                    .any(|r| t.starts_with(r))))),
                "{name}: {labels}"
            );
            "circle.target.spot"
        } else {
            "#choices button"
        };
        if touch {
            tap(&b, target).await;
        } else if moves == 0 {
            // A double click: the second click is quietly ignored.
            let el = b.client.find(Locator::Css(target)).await.expect("target");
            b.client
                .perform_actions(
                    fantoccini::actions::MouseActions::new("mouse".into())
                        .then(PointerAction::MoveToElement {
                            element: el,
                            duration: None,
                            x: 0.0,
                            y: 0.0,
                        })
                        .then(PointerAction::Down {
                            button: MOUSE_BUTTON_LEFT,
                        })
                        .then(PointerAction::Up {
                            button: MOUSE_BUTTON_LEFT,
                        })
                        .then(PointerAction::Down {
                            button: MOUSE_BUTTON_LEFT,
                        })
                        .then(PointerAction::Up {
                            button: MOUSE_BUTTON_LEFT,
                        }),
                )
                .await
                .expect("a double click");
        } else {
            b.click(target).await;
        }
        b.until(&format!("game.standing.history > {seen}")).await;
        moves += 1;
        // No message: neither a double click nor a bot's move is an error.
        assert_eq!(
            b.value("document.getElementById('message').textContent")
                .await,
            json!(""),
            "{name}: no message after a move"
        );
        // The last tile laid is outlined.
        b.until("document.getElementById('last-tile')").await;
    }
    assert!(moves > 0, "{name}: the person played");
    // A feature's note says who holds it and what it is worth.
    b.value("(document.querySelector('.feature-spot.road, .feature-spot.city').dispatchEvent(new PointerEvent('pointerenter')), 0)")
        .await;
    let note = b
        .value("document.getElementById('feature-note').textContent")
        .await;
    assert!(
        note.as_str()
            .is_some_and(|n| n.contains(" of ") && (n.contains("worth") || n.contains("completed"))),
        "{name}: {note}"
    );
    // The end: the winner, a breakdown row per player adding up to the score, a chart line
    // per player.
    b.until("!document.getElementById('end').hidden").await;
    let winner = b
        .value("document.getElementById('winner').textContent")
        .await;
    assert!(
        winner.as_str().is_some_and(|w| w.contains("win")),
        "{name}: {winner}"
    );
    let sums = b
        .value(
            "[...document.querySelectorAll('#breakdown tbody tr')].map(r => { \
               const c = [...r.cells].slice(1).map(x => Number(x.textContent)); \
               return c.slice(0, -1).reduce((a, b) => a + b, 0) === c[c.length - 1]; })",
        )
        .await;
    assert_eq!(sums, json!([true, true]), "{name}: the breakdown adds up");
    assert_eq!(
        b.value("document.querySelectorAll('#chart polyline').length")
            .await,
        json!(2)
    );
    // The log speaks players' words: no tile ids, spot codes or rule ids (those are notes).
    let bad = b
        .value(&format!(
            "[...document.querySelectorAll('#log li')].map(l => l.textContent).filter(t => {ENGINE_WORDS}.test(t))"
        ))
        .await;
    assert_eq!(bad, json!([]), "{name}: the log shows engine words");
    let noted = b
        .value("[...document.querySelectorAll('#log li[title]')].length")
        .await;
    assert!(
        noted.as_u64() > Some(0),
        "{name}: scores carry their rule as a note"
    );
    b.end().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_game_is_played_by_touch_on_a_phone() {
    play_on("phone", PHONE, true).await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_game_is_played_by_touch_on_a_tablet() {
    play_on("tablet", TABLET, true).await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_game_is_played_with_the_mouse_on_a_desktop() {
    play_on("desktop", DESKTOP, false).await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; .ci/run runs it"]
async fn a_banner_says_when_the_server_is_gone_and_retry_comes_back() {
    let b = Browser::start("offline").await;
    new_game(&b, "You,greedy", 5).await;
    my_turn(&b).await;
    // The page's requests fail as they do when the server is gone.
    b.value("(window.realFetch = window.fetch, window.fetch = () => Promise.reject(new TypeError('gone')), 0)")
        .await;
    b.click("rect.target.place.ok").await;
    b.until("!document.getElementById('offline').hidden").await;
    assert_eq!(
        b.value("document.getElementById('message').textContent")
            .await,
        json!("")
    );
    b.value("(window.fetch = window.realFetch, 0)").await;
    b.click("#retry").await;
    b.until("document.getElementById('offline').hidden").await;
    b.until("document.querySelector('rect.target.place.ok')")
        .await;
    b.end().await;
}
