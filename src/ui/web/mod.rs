//! `castellan serve`: a local web page to play games with the mouse, replay them and look at
//! tile sets.
//!
//! The server ([axum] on [tokio]) holds the games ([`store`]), answers the page's JSON API
//! ([`api`], views in [`view`]) and serves the page itself: plain HTML, CSS and JavaScript
//! compiled into the binary (no build step, nothing fetched from elsewhere). It listens on
//! 127.0.0.1 unless told otherwise.
//!
//! Only the server's own pages can drive it ([`guard`]), and no client can hold it: a
//! connection that does not finish its request's headers within [`Limits::header_time`] (also
//! a kept-alive connection between requests) is closed, a request must be answered within
//! [`Limits::request_time`], and at most [`Limits::connections`] connections are served at
//! once (more wait to be accepted until one closes).

pub mod api;
pub mod guard;
pub mod seats;
pub mod store;
pub mod view;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use store::Store;

/// The largest request body (an upload of several files, JSON-encoded): 2 MiB.
pub const MAX_BODY: usize = 2 << 20;

/// Where to listen and where to keep games.
#[derive(Clone, Debug)]
pub struct Options {
    /// Address to listen on.
    pub host: String,
    /// Port (0: any free port).
    pub port: u16,
    /// Folder for the games' records.
    pub data: PathBuf,
    /// The most games the server keeps (it refuses to make more until some are removed).
    pub max_games: usize,
    /// Names the server answers to besides IP addresses, `localhost` and `*.localhost`.
    pub allow_hosts: Vec<String>,
}

/// What one client may hold of the server.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections served at once; more wait in the system's queue until one closes.
    pub connections: usize,
    /// Time to send a request's headers, and the most a kept-alive connection stays idle.
    pub header_time: Duration,
    /// Time to read a request's body and answer it.
    pub request_time: Duration,
}

impl Default for Limits {
    /// 512 connections, 10 s for the headers (or idle), 60 s for a request.
    fn default() -> Limits {
        Limits {
            connections: 512,
            header_time: Duration::from_secs(10),
            request_time: Duration::from_secs(60),
        }
    }
}

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const NET: &str = include_str!("page/net.js");
const STYLE: &str = include_str!("page/style.css");

/// The whole web application over the games in `store`.
pub fn app(store: Store) -> Router {
    let page = |body: &'static str, kind: &'static str| {
        get(move || async move { ([(header::CONTENT_TYPE, kind)], body).into_response() })
    };
    Router::new()
        .route("/", page(INDEX, "text/html; charset=utf-8"))
        .route("/app.js", page(SCRIPT, "text/javascript; charset=utf-8"))
        .route("/net.js", page(NET, "text/javascript; charset=utf-8"))
        .route("/style.css", page(STYLE, "text/css; charset=utf-8"))
        .route("/api/rulesets", get(api::rulesets))
        .route("/api/bots", get(api::bots))
        .route("/api/games", get(api::list).post(api::create))
        .route("/api/games/{id}", get(api::show).delete(api::remove))
        .route("/api/games/{id}/act", post(api::act))
        .route("/api/games/{id}/bot", post(api::bot))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/seat", post(api::hand))
        .route("/api/games/{id}/events", get(api::events))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/replay", get(api::replay))
        .route("/api/open", post(api::open))
        .route(
            "/api/tilesets",
            get(api::tilesets).post(api::upload_tileset),
        )
        .route("/api/tilesets/{name}", get(api::tileset))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(Arc::new(store))
}

/// Opens the games under `data` (reporting on stderr the ones that cannot be resumed) and
/// builds the application, which makes new games while it holds fewer than `max_games`.
pub fn open(data: &std::path::Path, max_games: usize) -> Result<Router, String> {
    no_huge_pages();
    let (store, problems) = Store::open(data, max_games)?;
    for p in problems {
        eprintln!("warning: {p}");
    }
    Ok(app(store))
}

/// Turns transparent huge pages off for the server's process (Linux). The allocator
/// (mimalloc) asks the system for huge pages (2 MiB) for its memory, so a page touched for the
/// first time is a whole huge page zeroed, and on a busy machine found by compacting memory
/// first: every answer builds and frees some hundred kilobytes (the board's drawing, the JSON),
/// so requests kept faulting in huge pages. In the load test (`tests/load.rs`, 50 games at
/// once) the system's time went from 1.7–2.3 s to 0.2–0.3 s and the wall time from 4.4 s to
/// 1.6–2 s. Elsewhere (another system, or the call refused) nothing changes.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: PR_SET_THP_DISABLE takes plain integers and only sets a flag of this
            // process; an error (an old kernel) leaves things as they were.
            let _ = unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
        });
    }
}

/// Runs the server until it is stopped; prints the address to open.
pub fn main(options: Options) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the server: {e}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(serve(&options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

async fn serve(options: &Options) -> Result<(), String> {
    let (data, max_games) = (options.data.clone(), options.max_games);
    let app = tokio::task::spawn_blocking(move || open(&data, max_games))
        .await
        .map_err(|e| e.to_string())??;
    let listener = tokio::net::TcpListener::bind((options.host.as_str(), options.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", options.host, options.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!(
        "castellan serve: open http://{addr}/ in a browser (games are kept in {}; Ctrl-C stops)",
        options.data.display()
    );
    let site = guard::guarded(app, guard::Hosts::new(&options.allow_hosts));
    run(listener, site, Limits::default()).await;
    Ok(())
}

/// Serves `app` on `listener` under `limits`, until the process stops.
pub async fn run(listener: tokio::net::TcpListener, app: Router, limits: Limits) {
    let app = app.layer(axum::middleware::from_fn_with_state(
        limits.request_time,
        in_time,
    ));
    let places = Arc::new(tokio::sync::Semaphore::new(limits.connections));
    loop {
        // A place first, then the connection: past the limit, clients wait in the queue.
        let Ok(place) = Arc::clone(&places).acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file handles or a connection reset while queued: try again soon.
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(limits.header_time);
            let connection = http
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .with_upgrades();
            // A failed connection (a client gone, headers too slow) concerns only that client.
            let _ = connection.await;
            drop(place);
        });
    }
}

/// Answers 408 when a request (its body read and its answer) takes longer than allowed.
async fn in_time(
    axum::extract::State(limit): axum::extract::State<Duration>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(answer) => answer,
        Err(_) => (
            axum::http::StatusCode::REQUEST_TIMEOUT,
            axum::Json(serde_json::json!({
                "error": "the request took too long", "diagnostics": []
            })),
        )
            .into_response(),
    }
}
