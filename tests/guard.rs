//! `castellan serve` against hostile clients (issue 33): a foreign Host (DNS rebinding), a
//! foreign or missing Origin on writes, the security headers, a slowloris, a quadratic
//! payload, and server paths in messages. Each test runs the real server on loopback.

use castellan::ui::web::{self, Limits, guard};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn data(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("castellan-guard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Starts a guarded server under `limits` on a runtime of its own; returns its address.
fn server(name: &str, limits: Limits) -> SocketAddr {
    let app = web::open(&data(name), 100).expect("the data folder opens");
    let site = guard::guarded(app, guard::Hosts::new(&["castle.lan".to_string()]));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    listener.set_nonblocking(true).expect("non-blocking");
    let addr = listener.local_addr().expect("an address");
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
            web::run(listener, site, limits).await;
        });
    });
    addr
}

/// Sends one HTTP/1.1 request (closing the connection after it); returns the status, the
/// headers (lowercase names) and the body.
fn send(addr: SocketAddr, head: &str, body: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let request = format!(
        "{head}\r\nConnection: close\r\nContent-Length: {}\r\nContent-Type: application/json\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).expect("sends");
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("an answer");
    let (headers, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = headers
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, headers.to_ascii_lowercase(), body.to_string())
}

fn new_game() -> String {
    json!({"ruleset": "base", "players": ["Ann", "greedy"], "seed": 1}).to_string()
}

#[test]
fn a_foreign_host_can_neither_list_nor_create_nor_delete_games() {
    let addr = server("host", Limits::default());
    let port = addr.port();
    for host in [
        format!("rebind.example:{port}"),
        "localhost.evil.example".to_string(),
        String::new(),
    ] {
        let (status, _, body) = send(
            addr,
            &format!("GET /api/games HTTP/1.1\r\nHost: {host}"),
            "",
        );
        assert_eq!(status, 421, "{host}: {body}");
        assert!(body.contains("--allow-host"), "{body}");
        let origin = format!("http://{host}");
        let (status, _, _) = send(
            addr,
            &format!("POST /api/games HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}"),
            &new_game(),
        );
        assert_eq!(status, 421);
        let (status, _, _) = send(
            addr,
            &format!("DELETE /api/games/g1 HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}"),
            "",
        );
        assert_eq!(status, 421);
    }
    // Its own names are served: an address, localhost, *.localhost, a name allowed.
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("game.localhost:{port}"),
        format!("castle.lan:{port}"),
    ] {
        let (status, _, body) = send(
            addr,
            &format!("GET /api/games HTTP/1.1\r\nHost: {host}"),
            "",
        );
        assert_eq!(status, 200, "{host}: {body}");
    }
}

#[test]
fn writes_need_the_servers_own_origin() {
    let addr = server("origin", Limits::default());
    let host = format!("127.0.0.1:{}", addr.port());
    let post = |extra: &str| {
        send(
            addr,
            &format!("POST /api/games HTTP/1.1\r\nHost: {host}{extra}"),
            &new_game(),
        )
    };
    // Another site's page (a foreign Origin, also one that differs by port only).
    for origin in [
        "http://evil.example".to_string(),
        format!("http://127.0.0.1:{}", addr.port() + 1),
        "null".to_string(),
    ] {
        let (status, _, body) = post(&format!("\r\nOrigin: {origin}"));
        assert_eq!(status, 403, "{origin}: {body}");
    }
    // A foreign Origin is refused on reads too.
    let (status, _, _) = send(
        addr,
        &format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\nOrigin: http://evil.example"),
        "",
    );
    assert_eq!(status, 403);
    // No Origin and no X-Castellan: refused, and the message says what to send.
    let (status, _, body) = post("");
    assert_eq!(status, 403);
    assert!(body.contains("X-Castellan: 1"), "{body}");
    let (status, _, _) = post("\r\nX-Castellan: 0");
    assert_eq!(status, 403);
    // Nothing was made.
    let (_, _, list) = send(
        addr,
        &format!("GET /api/games HTTP/1.1\r\nHost: {host}"),
        "",
    );
    assert_eq!(list, "[]");
    // The page's own Origin, or a scripted client's header, may write.
    let (status, _, body) = post(&format!("\r\nOrigin: http://{host}"));
    assert_eq!(status, 200, "{body}");
    let (status, _, body) = post("\r\nX-Castellan: 1");
    assert_eq!(status, 200, "{body}");
}

#[test]
fn every_answer_carries_the_security_headers_and_the_page_has_no_inline_script() {
    let addr = server("headers", Limits::default());
    let host = format!("127.0.0.1:{}", addr.port());
    for path in ["/", "/app.js", "/api/games", "/api/games/nothing"] {
        let (_, headers, _) = send(addr, &format!("GET {path} HTTP/1.1\r\nHost: {host}"), "");
        assert!(
            headers.contains(&format!(
                "content-security-policy: {}",
                guard::CSP.to_ascii_lowercase()
            )),
            "{path}: {headers}"
        );
        assert!(
            headers.contains("x-content-type-options: nosniff"),
            "{headers}"
        );
        assert!(headers.contains("x-frame-options: deny"), "{headers}");
        assert!(
            headers.contains("referrer-policy: same-origin"),
            "{headers}"
        );
    }
    assert!(guard::CSP.contains("frame-ancestors 'none'") && !guard::CSP.contains("unsafe"));
    // Refusals carry them too.
    let (_, headers, _) = send(addr, "GET / HTTP/1.1\r\nHost: evil.example", "");
    assert!(headers.contains("x-frame-options: deny"), "{headers}");
    // Under `script-src 'self'` the page may only load scripts from files: no inline script,
    // no handler attributes.
    let (_, _, page) = send(addr, &format!("GET / HTTP/1.1\r\nHost: {host}"), "");
    let scripts = page.matches("<script").count();
    assert_eq!(scripts, page.matches("<script src=\"/").count(), "{page}");
    assert!(!page.contains(" onclick=") && !page.contains(" onload=") && !page.contains("style="));
}

/// Opens `n` connections that send part of a request's headers and then nothing.
fn slowloris(addr: SocketAddr, n: usize) -> Vec<TcpStream> {
    (0..n)
        .map(|_| {
            let mut s = TcpStream::connect(addr).expect("connects");
            s.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                .expect("sends");
            s
        })
        .collect()
}

#[test]
fn a_new_client_is_served_while_many_slow_connections_are_open() {
    let addr = server("slowloris", Limits::default());
    let held = slowloris(addr, 300);
    let start = Instant::now();
    let (status, _, _) = send(
        addr,
        &format!("GET /api/bots HTTP/1.1\r\nHost: 127.0.0.1:{}", addr.port()),
        "",
    );
    assert_eq!(status, 200);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    drop(held);
}

#[test]
fn slow_headers_are_cut_off_and_a_full_server_serves_again_when_they_are() {
    let limits = Limits {
        connections: 8,
        header_time: Duration::from_millis(500),
        ..Limits::default()
    };
    let addr = server("full", limits);
    let mut held = slowloris(addr, 8);
    // Every place is taken by a slow client; the server closes them after the header time,
    // and the new client is served.
    let start = Instant::now();
    let (status, _, _) = send(
        addr,
        &format!("GET /api/bots HTTP/1.1\r\nHost: 127.0.0.1:{}", addr.port()),
        "",
    );
    assert_eq!(status, 200);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    // The slow clients were closed by the server (end of stream, or a 408 then the end).
    let s = &mut held[0];
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let mut rest = Vec::new();
    assert!(
        s.read_to_end(&mut rest).is_ok(),
        "the server closed the slow connection"
    );
}

#[test]
fn a_quadratic_player_list_is_refused_fast() {
    let addr = server("names", Limits::default());
    let host = format!("127.0.0.1:{}", addr.port());
    // 150,000 different names in about 1.5 MB: once 55 s of CPU.
    let names: Vec<String> = (0..150_000).map(|i| format!("p{i}")).collect();
    let body = json!({"ruleset": "base", "players": names}).to_string();
    let start = Instant::now();
    let (status, _, answer) = send(
        addr,
        &format!("POST /api/games HTTP/1.1\r\nHost: {host}\r\nX-Castellan: 1"),
        &body,
    );
    assert_eq!(status, 400, "{answer}");
    assert!(answer.contains("at most 8 seats"), "{answer}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn no_answer_names_a_server_path() {
    let dir = data("paths");
    let addr = server("paths", Limits::default());
    let host = format!("127.0.0.1:{}", addr.port());
    let write = format!("HTTP/1.1\r\nHost: {host}\r\nX-Castellan: 1");
    let library = std::env::current_dir().expect("the crate's folder");
    let bad_rules = r#"name = "x"
extends = "base"
scripts = ["broken.rhai"]
"#;
    let requests = [
        (
            "POST /api/games",
            json!({"ruleset": "../../etc/passwd", "players": ["a", "b"]}),
        ),
        (
            "POST /api/games",
            json!({"ruleset": "/etc/passwd", "players": ["a", "b"]}),
        ),
        (
            "POST /api/games",
            json!({"files": [{"name": "r.toml", "text": bad_rules},
                             {"name": "broken.rhai", "text": "fn place( {"}],
                   "players": ["a", "b"]}),
        ),
        (
            "POST /api/games",
            json!({"files": [{"name": "r.toml", "text": "extends = \"/etc/passwd\""}],
                   "players": ["a", "b"]}),
        ),
        (
            "POST /api/games",
            json!({"files": [{"name": "r.toml", "text": "extends = \"nope\"\nname = \"x\""}],
                   "players": ["a", "b"]}),
        ),
        (
            "POST /api/open",
            json!({"files": [{"name": "g.toml",
                              "text": "ruleset = \"../x.toml\"\nplayers = [\"a\", \"b\"]\nseed = 1\n"}]}),
        ),
        (
            "POST /api/open",
            json!({"files": [{"name": "g.toml", "text": "ruleset = \"base\"\nplayers = [\"a\", \"b\"]\nseed = 1\nactions = [\"nonsense\"]\n"}]}),
        ),
        (
            "POST /api/tilesets",
            json!({"files": [{"name": "t.toml", "text": "[[tile]]\nid = 3"}]}),
        ),
    ];
    for (line, body) in requests {
        let (status, _, answer) = send(addr, &format!("{line} {write}"), &body.to_string());
        assert!(status >= 400, "{line}: {answer}");
        let parsed: Value = serde_json::from_str(&answer).unwrap_or(Value::Null);
        assert!(parsed["error"].is_string(), "{line}: {answer}");
        for path in [&dir, &library] {
            let shown = path.display().to_string();
            assert!(!answer.contains(&shown), "{line} shows {shown}: {answer}");
        }
        assert!(
            !answer.contains("/tmp/") && !answer.contains("/work/"),
            "{line}: {answer}"
        );
    }
}

/// Creates a game under `base` with `script` as its one script; returns its id and the host's
/// token (from the host's join link).
fn scripted_game(addr: SocketAddr, script: &str) -> (String, String) {
    let host = format!("127.0.0.1:{}", addr.port());
    let rules = "extends = \"base\"\nname = \"t\"\nscripts = [\"./late.rhai\"]\n";
    let body = json!({"files": [{"name": "r.toml", "text": rules},
                                {"name": "late.rhai", "text": script}],
                      "players": ["greedy", "random"], "seed": 3});
    let (status, _, answer) = send(
        addr,
        &format!("POST /api/games HTTP/1.1\r\nHost: {host}\r\nX-Castellan: 1"),
        &body.to_string(),
    );
    assert_eq!(status, 200, "{answer}");
    let game: Value = serde_json::from_str(&answer).expect("a game");
    let link = game["links"]["host"].as_str().expect("a host link");
    let token = link.split("token=").nth(1).expect("a token").to_string();
    (game["id"].as_str().expect("an id").to_string(), token)
}

/// Asks the bot to play at `expect` actions, as the holder of `token`; the status and the
/// answer.
fn bot_step(addr: SocketAddr, (id, token): &(String, String), expect: u64) -> (u16, String) {
    let host = format!("127.0.0.1:{}", addr.port());
    let (status, _, answer) = send(
        addr,
        &format!(
            "POST /api/games/{id}/bot HTTP/1.1\r\nHost: {host}\r\nX-Castellan: 1\r\n\
             Authorization: Bearer {token}"
        ),
        &json!({ "expect": expect }).to_string(),
    );
    (status, answer)
}

#[test]
fn a_script_failing_only_in_a_later_hook_stops_its_game_which_stays_loadable() {
    let addr = server("late", Limits::default());
    let host = format!("127.0.0.1:{}", addr.port());
    // Fine for every hook until a turn ends; then it never returns.
    let game = scripted_game(addr, "fn turn_end() {\n  loop { }\n}\n");
    let id = &game.0;
    let mut played = 0;
    let stopped = loop {
        let (status, answer) = bot_step(addr, &game, played);
        if status != 200 {
            break answer;
        }
        played += 1;
        assert!(played < 10, "the hook never ran: {answer}");
    };
    assert!(played >= 1, "earlier hooks ran fine");
    assert!(stopped.contains("the game stopped"), "{stopped}");
    assert!(
        stopped.contains("late.rhai:1:1: script error in hook `turn_end`"),
        "located: {stopped}"
    );
    assert!(stopped.contains("turn_end"), "{stopped}");
    assert!(!stopped.contains("/tmp/"), "no server path: {stopped}");
    // Later steps are refused at once with the same message, and nothing changed.
    let start = Instant::now();
    let (status, again) = bot_step(addr, &game, played);
    assert_eq!(status, 400);
    assert!(
        again.contains("the game stopped") && again.contains("late.rhai:1:1"),
        "{again}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    // The record holds every action taken, and opens as a new game.
    let (status, _, record) = send(
        addr,
        &format!("GET /api/games/{id}/record HTTP/1.1\r\nHost: {host}"),
        "",
    );
    assert_eq!(status, 200);
    let files = json!({"files": [
        {"name": "r.toml", "text": "extends = \"base\"\nname = \"t\"\nscripts = [\"./late.rhai\"]\n"},
        {"name": "late.rhai", "text": "fn turn_end() {\n  loop { }\n}\n"},
        {"name": "game.toml", "text": record}]});
    let (status, _, reopened) = send(
        addr,
        &format!("POST /api/open HTTP/1.1\r\nHost: {host}\r\nX-Castellan: 1"),
        &files.to_string(),
    );
    assert_eq!(status, 200, "{reopened}");
}
