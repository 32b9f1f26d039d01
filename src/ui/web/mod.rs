//! `castellan serve`: a local web page to play games with the mouse, replay them and look at
//! tile sets.
//!
//! The server ([axum] on [tokio]) holds the games ([`store`]), answers the page's JSON API
//! ([`api`], views in [`view`]) and serves the page itself: plain HTML, CSS and JavaScript
//! compiled into the binary (no build step, nothing fetched from elsewhere). It listens on
//! 127.0.0.1 unless told otherwise.

pub mod api;
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
    let (store, problems) = Store::open(data, max_games)?;
    for p in problems {
        eprintln!("warning: {p}");
    }
    Ok(app(store))
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
    axum::serve(listener, app).await.map_err(|e| e.to_string())
}
