//! OPTIONS /api/v1/tus, POST /api/v1/tus, HEAD and PATCH /api/v1/tus/{id}
//!
//! Resumable uploads (tus 1.0): the bytes of each PATCH are appended to the growing file as
//! they arrive, so an interrupted PATCH keeps what reached the server and the client resumes
//! from the offset HEAD reports. A complete upload becomes an ordinary one (`api::uploads`);
//! the final PATCH answers its `url` and `filename`, as Zulip's tus hook does. Rules are in
//! `confab_core::api::tus`.

use std::path::Path;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use confab_core::api::tus::{self, TusError};
use confab_core::api::uploads;
use confab_core::{Actor, ApiError};
use http_body_util::BodyExt;
use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt;

use super::auth::authenticate;
use super::path::Path as UrlPath;
use super::request::ApiRequest;
use super::routes::with_realm_url;
use super::{AppState, now, respond};
use crate::secrets;

/// What the server keeps about an upload in progress (`<id>.json`).
#[derive(Serialize, Deserialize)]
struct Pending {
    owner: u64,
    length: u64,
    file_name: String,
}

fn tus_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert("Tus-Resumable", HeaderValue::from_static(tus::TUS_VERSION));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn refused(error: TusError) -> Response {
    let status = StatusCode::from_u16(error.status).unwrap_or(StatusCode::BAD_REQUEST);
    tus_headers((status, error.message).into_response())
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The API credentials of the Authorization header.
async fn actor(state: &AppState, parts: &axum::http::request::Parts) -> Result<Actor, Response> {
    let request = ApiRequest::from_head(&parts.headers, &parts.uri, &parts.extensions, state);
    let store = state.store.clone();
    let site = state.site.clone();
    let found = tokio::task::spawn_blocking(move || store.read(|t| authenticate(t, &request)))
        .await
        .map_err(|e| respond::error(&ApiError::internal(e)))?;
    found.map(|a| with_realm_url(&site, a)).map_err(|e| respond::error(&e))
}

/// The upload `id` of this actor, with its description and growing file.
fn pending(
    state: &AppState,
    actor: &Actor,
    id: &str,
) -> Option<(Pending, std::path::PathBuf, std::path::PathBuf)> {
    let (data, description) = state.files.tus_paths(id)?;
    let pending: Pending = serde_json::from_slice(&std::fs::read(&description).ok()?).ok()?;
    (pending.owner == actor.user.id.0).then_some((pending, data, description))
}

/// Reads and drops at most `limit` bytes of a body.
async fn drain(body: &mut axum::body::Body, limit: u64) {
    let mut read = 0u64;
    while read <= limit {
        match body.frame().await {
            Some(Ok(frame)) => read += frame.into_data().map_or(0, |d| d.len() as u64),
            _ => break,
        }
    }
}

fn size_of(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// `OPTIONS /api/v1/tus`.
pub async fn options() -> Response {
    let mut response = tus_headers(StatusCode::NO_CONTENT.into_response());
    let headers = response.headers_mut();
    headers.insert("Tus-Version", HeaderValue::from_static(tus::TUS_VERSION));
    headers.insert("Tus-Extension", HeaderValue::from_static(tus::TUS_EXTENSIONS));
    if let Ok(max) = HeaderValue::from_str(&tus::max_size().to_string()) {
        headers.insert("Tus-Max-Size", max);
    }
    response
}

/// `POST /api/v1/tus`: a new, empty upload; answers its `Location`.
pub async fn create(State(state): State<AppState>, request: Request) -> Response {
    let (parts, _) = request.into_parts();
    let actor = match actor(&state, &parts).await {
        Ok(actor) => actor,
        Err(response) => return response,
    };
    let checked = tus::check_version(header(&parts.headers, "Tus-Resumable"))
        .and_then(|()| tus::check_creation(header(&parts.headers, "Upload-Length")))
        .and_then(|length| Ok((length, tus::parse_metadata(header(&parts.headers, "Upload-Metadata"))?)));
    let (length, metadata) = match checked {
        Ok(checked) => checked,
        Err(error) => return refused(error),
    };
    let Ok(id) = secrets::random_alphanumeric(32) else {
        return respond::error(&ApiError::internal("no randomness"));
    };
    let Some((data, description)) = state.files.tus_paths(&id) else {
        return respond::error(&ApiError::internal("bad upload id"));
    };
    let pending = Pending { owner: actor.user.id.0, length, file_name: tus::file_name(&metadata) };
    let written = serde_json::to_vec(&pending).map_err(std::io::Error::other).and_then(|json| {
        std::fs::create_dir_all(data.parent().unwrap_or(Path::new(".")))?;
        std::fs::write(&data, b"")?;
        std::fs::write(&description, json)
    });
    if let Err(e) = written {
        return respond::error(&ApiError::internal(e));
    }
    let mut response = tus_headers(StatusCode::CREATED.into_response());
    if let Ok(location) = HeaderValue::from_str(&format!("/api/v1/tus/{id}")) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response
}

fn offset_headers(mut response: Response, offset: u64, length: u64) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [("Upload-Offset", offset), ("Upload-Length", length)] {
        if let Ok(value) = HeaderValue::from_str(&value.to_string()) {
            headers.insert(name, value);
        }
    }
    tus_headers(response)
}

/// `HEAD /api/v1/tus/{id}`: how much the server has.
pub async fn head(State(state): State<AppState>, UrlPath(id): UrlPath<String>, request: Request) -> Response {
    let (parts, _) = request.into_parts();
    let actor = match actor(&state, &parts).await {
        Ok(actor) => actor,
        Err(response) => return response,
    };
    match pending(&state, &actor, &id) {
        Some((pending, data, _)) => {
            offset_headers(StatusCode::OK.into_response(), size_of(&data), pending.length)
        }
        None => tus_headers(StatusCode::NOT_FOUND.into_response()),
    }
}

/// `PATCH /api/v1/tus/{id}`: appends the body at `Upload-Offset`.
pub async fn patch(
    State(state): State<AppState>,
    UrlPath(id): UrlPath<String>,
    request: Request,
) -> Response {
    let (parts, mut body) = request.into_parts();
    let actor = match actor(&state, &parts).await {
        Ok(actor) => actor,
        Err(response) => return response,
    };
    let Some((pending, data, description)) = pending(&state, &actor, &id) else {
        return tus_headers(StatusCode::NOT_FOUND.into_response());
    };
    let current = size_of(&data);
    let checked = tus::check_version(header(&parts.headers, "Tus-Resumable")).and_then(|()| {
        tus::check_patch(
            header(&parts.headers, header::CONTENT_TYPE.as_str()),
            header(&parts.headers, "Upload-Offset"),
            current,
        )
    });
    if let Err(error) = checked {
        // Read the body out first, so that a client still sending hears the refusal.
        drain(&mut body, pending.length).await;
        return refused(error);
    }
    let mut file = match tokio::fs::OpenOptions::new().append(true).open(&data).await {
        Ok(file) => file,
        Err(e) => return respond::error(&ApiError::internal(e)),
    };
    let mut offset = current;
    // A body that breaks off keeps what arrived: the client resumes from there.
    while let Some(Ok(frame)) = body.frame().await {
        let Ok(chunk) = frame.into_data() else { continue };
        if offset + chunk.len() as u64 > pending.length {
            let _ = file.flush().await;
            return refused(TusError { status: 413, message: "the body goes past Upload-Length".into() });
        }
        if let Err(e) = file.write_all(&chunk).await {
            return respond::error(&ApiError::internal(e));
        }
        offset += chunk.len() as u64;
    }
    if let Err(e) = file.flush().await {
        return respond::error(&ApiError::internal(e));
    }
    drop(file);
    if offset < pending.length {
        return offset_headers(StatusCode::NO_CONTENT.into_response(), offset, pending.length);
    }
    finish(&state, &actor, pending, &data, &description).await
}

/// A complete upload becomes an ordinary one; the answer carries its `url` and `filename`.
async fn finish(
    state: &AppState,
    actor: &Actor,
    pending: Pending,
    data: &Path,
    description: &Path,
) -> Response {
    let Ok(random) = secrets::random_alphanumeric(26) else {
        return respond::error(&ApiError::internal("no randomness"));
    };
    let path_id = uploads::new_path_id(actor, &random, &pending.file_name);
    if let Err(e) = state.files.keep_path(data, &path_id) {
        return respond::error(&ApiError::internal(e));
    }
    let _ = std::fs::remove_file(description);
    let (content_type, _) = uploads::content_type_of(&path_id);
    let image = super::routes::thumbnail_upload(state, &path_id, content_type).await;
    let recorded = path_id.clone();
    let length = pending.length;
    let uploaded_name = pending.file_name;
    let actor = actor.clone();
    let result = state
        .writer
        .submit(Box::new(move |tables| {
            let actor = super::auth::refresh(tables, &actor)?;
            uploads::record_upload(
                tables,
                &actor,
                recorded,
                &uploaded_name,
                content_type,
                length,
                image,
                now(),
            )
        }))
        .await;
    match result {
        Ok(outcome) => {
            let mut reply = serde_json::Map::new();
            reply.insert("url".into(), outcome.reply.get("url").cloned().unwrap_or_default());
            reply.insert("filename".into(), outcome.reply.get("filename").cloned().unwrap_or_default());
            offset_headers(respond::success(reply), length, length)
        }
        Err(e) => {
            state.files.remove_upload(&path_id);
            respond::error(&e)
        }
    }
}
