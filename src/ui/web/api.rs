//! The HTTP API the page talks to (JSON in and out). Every request that touches a game runs
//! on a blocking thread ([`tokio::task::spawn_blocking`]) holding that game's lock, so bots,
//! scripts and disk writes never stall the server, and games do not wait for each other.

use super::seats::Role;
use super::store::{self, Entry, NewGame, Store, StoreError, Upload};
use super::view;
use crate::data::library::{self, Kind};
use crate::data::printed::Prints;
use crate::data::ruleset::Ruleset;
use crate::model::geometry::Rotation;
use crate::model::tile::TileSet;
use crate::ui::render::svg;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::{Arc, OnceLock};

/// What every handler shares.
pub type Shared = Arc<Store>;

/// A refusal as the page sees it: a status, a message and, for files, their diagnostics.
pub struct ApiError(StoreError);

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        ApiError(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match &self.0 {
            StoreError::NotFound(_) => StatusCode::NOT_FOUND,
            StoreError::Refused(_) => StatusCode::BAD_REQUEST,
            StoreError::Forbidden(_) => StatusCode::FORBIDDEN,
            StoreError::Script(_) => StatusCode::UNPROCESSABLE_ENTITY,
            StoreError::Stale(_) => StatusCode::CONFLICT,
            StoreError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            StoreError::Disk(_) => StatusCode::INTERNAL_SERVER_ERROR,
            // The server cannot store one more game (not an overload that passes by itself,
            // as 503 would say, inviting retries: it lasts until games are removed).
            StoreError::Full(..) => StatusCode::INSUFFICIENT_STORAGE,
        };
        let diagnostics = match &self.0 {
            StoreError::Invalid(list) => list.clone(),
            _ => vec![],
        };
        (
            status,
            Json(json!({"error": self.0.to_string(), "diagnostics": diagnostics})),
        )
            .into_response()
    }
}

/// A handler's answer.
type Answer = Result<Json<Value>, ApiError>;

/// Runs `work` on a blocking thread.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError(StoreError::Disk(format!("the server failed: {e}"))))?
        .map_err(ApiError)
}

/// Runs `work` on the game `id`, locked, on a blocking thread.
async fn with_game<T: Send + 'static>(
    shared: Shared,
    id: String,
    work: impl FnOnce(&mut Entry) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    blocking(move || {
        let game = shared.get(&id)?;
        let mut entry = store::lock(&game);
        if entry.is_removed() {
            return Err(StoreError::NotFound(id));
        }
        work(&mut entry)
    })
    .await
}

/// Takes a step in the game as the holder of the request's token (`step` checks what that
/// role may do), then answers with the game as that page sees it, or what changed since
/// `since`.
async fn as_holder(
    shared: Shared,
    id: String,
    headers: &HeaderMap,
    since: Option<Since>,
    step: impl FnOnce(&mut Entry, Role) -> Result<(), StoreError> + Send + 'static,
) -> Answer {
    let token = token(headers);
    with_game(shared, id, move |e| {
        let role = e.role(token.as_deref());
        step(e, role)?;
        Ok(Json(for_page(e, role, since)))
    })
    .await
}

/// `GET /api/rulesets`: the shipped rulesets with their descriptions.
pub async fn rulesets() -> Answer {
    static LIST: OnceLock<Value> = OnceLock::new();
    let list = blocking(|| {
        Ok(LIST
            .get_or_init(|| {
                library::builtin_names(Kind::Ruleset)
                    .into_iter()
                    .filter_map(|name| {
                        let r = Ruleset::load(name).ok()?;
                        Some(
                            json!({"name": name, "title": r.name, "description": r.description,
                                    "players": [r.players.0, r.players.1]}),
                        )
                    })
                    .collect::<Vec<_>>()
                    .into()
            })
            .clone())
    })
    .await?;
    Ok(Json(list))
}

/// `GET /api/bots`: the bots' names.
pub async fn bots() -> Json<Value> {
    Json(json!(crate::bot::NAMES))
}

/// `GET /api/games`: every game.
pub async fn list(State(shared): State<Shared>) -> Answer {
    let all = blocking(move || {
        Ok(shared
            .all()
            .iter()
            .map(|g| view::summary(&store::lock(g)))
            .collect::<Vec<_>>())
    })
    .await?;
    Ok(Json(json!(all)))
}

/// `POST /api/games`: a new game ([`NewGame`]); answers with the game as its host sees it,
/// with the join links (`links`: the host's, one per seat, the spectators').
pub async fn create(State(shared): State<Shared>, Json(new): Json<NewGame>) -> Answer {
    let id = {
        let shared = Arc::clone(&shared);
        blocking(move || shared.create(&new)).await?
    };
    as_host(shared, id).await
}

/// A game just made, as its host sees it (with the join links).
async fn as_host(shared: Shared, id: String) -> Answer {
    with_game(shared, id, |e| {
        let mut view = view::game(e);
        view["you"] = json!("host");
        view["links"] = e.links();
        Ok(Json(view))
    })
    .await
}

/// The files of an upload.
#[derive(serde::Deserialize)]
pub struct Files {
    files: Vec<Upload>,
}

/// `POST /api/open`: a record (with the files it names) becomes a new game to go on with.
pub async fn open(State(shared): State<Shared>, Json(up): Json<Files>) -> Answer {
    let id = {
        let shared = Arc::clone(&shared);
        blocking(move || shared.open_record(&up.files)).await?
    };
    as_host(shared, id).await
}

/// The token a request shows (`Authorization: Bearer TOKEN`), if any.
fn token(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(|t| t.trim().to_string())
}

/// Who the page is, in words (`host`, a seat number, or `spectator`).
fn who(role: Role) -> Value {
    match role {
        Role::Host => json!("host"),
        Role::Seat(s) => json!(s),
        Role::Spectator => json!("spectator"),
    }
}

/// A game's view for the page that asks: the whole game, or only what changed since the
/// version it shows; who the page is; the join links if it is the host's.
fn for_page(e: &Entry, role: Role, since: Option<Since>) -> Value {
    let mut view = match since {
        Some(s) => view::changes(e, s.since, s.log),
        None => view::game(e),
    };
    view["you"] = who(role);
    if role == Role::Host {
        view["links"] = e.links();
    }
    view
}

/// What a page shows already: the game's version and how many lines of log.
#[derive(Clone, Copy, serde::Deserialize)]
pub struct Since {
    since: u64,
    log: usize,
}

/// `GET /api/games/{id}`: the game as the page shows it (`?since=V&log=N`: only what changed
/// since version V, for a page showing N lines of log).
pub async fn show(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<Watch>,
) -> Answer {
    let token = token(&headers);
    let since = q.since.map(|since| Since {
        since,
        log: q.log.unwrap_or(0),
    });
    with_game(shared, id, move |e| {
        let role = e.role(token.as_deref());
        Ok(Json(for_page(e, role, since)))
    })
    .await
}

/// `DELETE /api/games/{id}`: removes the game, its record and its files (its host only).
pub async fn remove(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer {
    let removed = id.clone();
    let token = token(&headers);
    blocking(move || shared.remove(&id, token.as_deref())).await?;
    Ok(Json(json!({ "removed": removed })))
}

/// An action chosen on the page: its number in the legal list, how many actions the game
/// had when the page showed it and, for an answer with only the changes, the version and the
/// lines of log the page shows.
#[derive(serde::Deserialize)]
pub struct Act {
    index: usize,
    expect: usize,
    #[serde(flatten)]
    since: Option<Since>,
}

/// `POST /api/games/{id}/act`: a person's action, by the host or the seat whose decision it
/// is (403 for another seat or a spectator); answers with the game, or what changed.
pub async fn act(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(act): Json<Act>,
) -> Answer {
    let since = act.since;
    as_holder(shared, id, &headers, since, move |e, role| {
        e.act(act.index, act.expect, role)
    })
    .await
}

/// The page's view of the game when it asks a bot to play or takes a step back.
#[derive(serde::Deserialize)]
pub struct Expect {
    expect: usize,
    #[serde(flatten)]
    since: Option<Since>,
}

/// `POST /api/games/{id}/bot`: the bot whose turn it is takes one action (asked by any
/// player's page); answers with the game, or what changed.
pub async fn bot(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(ex): Json<Expect>,
) -> Answer {
    let since = ex.since;
    as_holder(shared, id, &headers, since, move |e, role| {
        e.bot_step(ex.expect, role)
    })
    .await
}

/// `POST /api/games/{id}/undo`: takes back the last step of the turn (by the host or the
/// seat whose turn it is); answers with the game, or what changed.
pub async fn undo(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(ex): Json<Expect>,
) -> Answer {
    let since = ex.since;
    as_holder(shared, id, &headers, since, move |e, role| {
        e.undo(ex.expect, role)
    })
    .await
}

/// A seat handed to a bot (`bot`: its name) or back to its player (`bot` absent).
#[derive(serde::Deserialize)]
pub struct Hand {
    seat: usize,
    #[serde(default)]
    bot: Option<String>,
}

/// `POST /api/games/{id}/seat`: the host hands a seat to a bot or back; answers with the game.
pub async fn hand(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(h): Json<Hand>,
) -> Answer {
    as_holder(shared, id, &headers, None, move |e, role| {
        e.hand(h.seat, h.bot, role)
    })
    .await
}

/// `GET /api/games/{id}/events?token=T`: server push, as server-sent events. Each event
/// carries what changed since the version the page showed (its `id` is the new version):
/// from `since`/`log` in the query, or from the `Last-Event-ID` a reconnecting browser sends
/// (then the whole log is sent again). EventSource cannot
/// send headers, so the token comes in the query.
pub async fn events(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<Watch>,
) -> Result<Response, ApiError> {
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let (news, role) = {
        let id = id.clone();
        let token = q.token.clone();
        with_game(Arc::clone(&shared), id, move |e| {
            Ok((e.subscribe(), e.role(token.as_deref())))
        })
        .await?
    };
    let start = Since {
        since: last.or(q.since).unwrap_or(u64::MAX),
        // A browser reconnecting by itself sends the query it first sent: its log count is
        // old, so the log is sent whole.
        log: if last.is_some() {
            0
        } else {
            q.log.unwrap_or(0)
        },
    };
    let stream =
        futures_util::stream::unfold((news, start, true), move |(mut news, shown, first)| {
            let (shared, id) = (Arc::clone(&shared), id.clone());
            async move {
                if !first {
                    news.changed().await.ok()?;
                }
                let view = with_game(shared, id, move |e| Ok(for_page(e, role, Some(shown))))
                    .await
                    .ok()?;
                let version = view["version"].as_u64().unwrap_or(shown.since);
                let log = view["log_from"].as_u64().map_or(shown.log, |from| {
                    from as usize + view["log"].as_array().map_or(0, Vec::len)
                });
                let event = axum::response::sse::Event::default()
                    .id(version.to_string())
                    .json_data(&view)
                    .ok()?;
                Some((
                    Ok::<_, std::convert::Infallible>(event),
                    (
                        news,
                        Since {
                            since: version,
                            log,
                        },
                        false,
                    ),
                ))
            }
        });
    Ok(axum::response::sse::Sse::new(stream)
        .keep_alive(axum::response::sse::KeepAlive::default())
        .into_response())
}

/// The query of a push subscription: the page's token, version and lines of log.
#[derive(serde::Deserialize)]
pub struct Watch {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    since: Option<u64>,
    #[serde(default)]
    log: Option<usize>,
}

/// `GET /api/games/{id}/record`: the game as a record file, to download.
pub async fn record(
    State(shared): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (id, text) = with_game(shared, id, |e| Ok((e.id.clone(), e.record()))).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/toml; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"castellan-{id}.toml\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// How far into a game the replay viewer looks.
#[derive(serde::Deserialize)]
pub struct Upto {
    upto: Option<usize>,
}

/// `GET /api/games/{id}/replay?upto=N`: the game after its first N actions.
pub async fn replay(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Query(q): Query<Upto>,
) -> Answer {
    with_game(shared, id, move |e| {
        Ok(Json(view::replay(e, q.upto.unwrap_or(usize::MAX))))
    })
    .await
}

/// `GET /api/tilesets`: the shipped tile sets' names.
pub async fn tilesets() -> Json<Value> {
    Json(json!(library::builtin_names(Kind::TileSet)))
}

/// `GET /api/tilesets/{name}`: every tile of a shipped tile set.
pub async fn tileset(Path(name): Path<String>) -> Answer {
    blocking(move || {
        if !library::builtin_names(Kind::TileSet).contains(&name.as_str()) {
            return Err(StoreError::NotFound(name.chars().take(64).collect()));
        }
        let source = library::find(Kind::TileSet, &name, crate::data::files::Named::ByUser)
            .map_err(StoreError::Refused)?;
        tiles_json(&source.path, &source.text)
    })
    .await
}

/// `POST /api/tilesets`: every tile of an uploaded tile set, or its problems.
pub async fn upload_tileset(Json(up): Json<Files>) -> Answer {
    blocking(move || {
        let [file] = up.files.as_slice() else {
            return Err(StoreError::Refused("send one tile set file".into()));
        };
        if !store::valid_file_name(&file.name) || file.text.len() > store::MAX_FILE_BYTES {
            return Err(StoreError::Refused(format!(
                "a tile set is one .toml file of at most {} bytes with a plain name",
                store::MAX_FILE_BYTES
            )));
        }
        tiles_json(std::path::Path::new(&file.name), &file.text)
    })
    .await
}

/// A tile set for the tile-set viewer, read on its own (its marks drawn as it declares them),
/// or its problem.
fn tiles_json(file: &std::path::Path, text: &str) -> Result<Json<Value>, StoreError> {
    let mut prints = Prints::default();
    let set = TileSet::parse_over(file, text, &mut prints)
        .map_err(|d| StoreError::Invalid(vec![d.render()]))?;
    let tiles: Vec<Value> = set
        .tiles
        .iter()
        .map(|t| {
            json!({
                "id": &*t.id,
                "alias": t.alias,
                "count": t.count,
                "tags": t.tags,
                "svg": svg::tile_body(t, Rotation::ALL[0], &prints),
            })
        })
        .collect();
    Ok(Json(
        json!({"name": set.name, "description": set.description, "tiles": tiles}),
    ))
}
