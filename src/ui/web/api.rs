//! The HTTP API the page talks to (JSON in and out). Every request that touches a game runs
//! on a blocking thread ([`tokio::task::spawn_blocking`]) holding that game's lock, so bots,
//! scripts and disk writes never stall the server, and games do not wait for each other.

use super::store::{self, Entry, NewGame, Store, StoreError, Upload};
use super::view;
use crate::data::library::{self, Kind};
use crate::data::ruleset::Ruleset;
use crate::model::geometry::Rotation;
use crate::model::tile::TileSet;
use crate::ui::render::svg;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
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

/// `POST /api/games`: a new game ([`NewGame`]); answers with the game.
pub async fn create(State(shared): State<Shared>, Json(new): Json<NewGame>) -> Answer {
    let id = {
        let shared = Arc::clone(&shared);
        blocking(move || shared.create(&new)).await?
    };
    show(State(shared), Path(id)).await
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
    show(State(shared), Path(id)).await
}

/// `GET /api/games/{id}`: the game as the page shows it.
pub async fn show(State(shared): State<Shared>, Path(id): Path<String>) -> Answer {
    with_game(shared, id, |e| Ok(Json(view::game(e)))).await
}

/// `DELETE /api/games/{id}`: removes the game, its record and its files.
pub async fn remove(State(shared): State<Shared>, Path(id): Path<String>) -> Answer {
    let removed = id.clone();
    blocking(move || shared.remove(&id)).await?;
    Ok(Json(json!({ "removed": removed })))
}

/// An action chosen on the page: its number in the legal list, and how many actions the
/// game had when the page showed it.
#[derive(serde::Deserialize)]
pub struct Act {
    index: usize,
    expect: usize,
}

/// `POST /api/games/{id}/act`: a person's action; answers with the game.
pub async fn act(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Json(act): Json<Act>,
) -> Answer {
    with_game(shared, id, move |e| {
        e.act(act.index, act.expect)?;
        Ok(Json(view::game(e)))
    })
    .await
}

/// The page's view of the game when it asks a bot to play.
#[derive(serde::Deserialize)]
pub struct Expect {
    expect: usize,
}

/// `POST /api/games/{id}/bot`: the bot whose turn it is takes one action; answers with the
/// game.
pub async fn bot(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    Json(ex): Json<Expect>,
) -> Answer {
    with_game(shared, id, move |e| {
        e.bot_step(ex.expect)?;
        Ok(Json(view::game(e)))
    })
    .await
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
        let set = TileSet::parse(&source.path, &source.text)
            .map_err(|d| StoreError::Invalid(vec![d.render()]))?;
        Ok(Json(tiles_json(&set)))
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
        let set = TileSet::parse(std::path::Path::new(&file.name), &file.text)
            .map_err(|d| StoreError::Invalid(vec![d.render()]))?;
        Ok(Json(tiles_json(&set)))
    })
    .await
}

/// A tile set for the tile-set viewer.
fn tiles_json(set: &TileSet) -> Value {
    let tiles: Vec<Value> = set
        .tiles
        .iter()
        .map(|t| {
            json!({
                "id": &*t.id,
                "alias": t.alias,
                "count": t.count,
                "tags": t.tags,
                "svg": svg::tile_body(t, Rotation::ALL[0]),
            })
        })
        .collect();
    json!({"name": set.name, "description": set.description, "tiles": tiles})
}
