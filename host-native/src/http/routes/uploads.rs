//! Uploaded files: receiving them, serving them to those who may see them, temporary URLs,
//! and the uploader's list. Core decides (`api::uploads`); the bytes are in `FileStore`.

use axum::http::{HeaderValue, header};
use axum::response::IntoResponse;
use confab_core::model::ImageAttachment;
use confab_core::thumbnails::thumbnail_path_id;

use super::*;

/// Authenticates on a snapshot, handing the request back.
pub(super) async fn authenticated(state: &AppState, request: ApiRequest) -> (ApiResult<Actor>, ApiRequest) {
    let store = state.store.clone();
    let site = state.site.clone();
    let joined = tokio::task::spawn_blocking(move || {
        let actor = store.read(|t| authenticate(t, &request)).map(|a| with_realm_url(&site, a));
        (actor, request)
    })
    .await;
    match joined {
        Ok(pair) => pair,
        Err(e) => (Err(ApiError::internal(e)), ApiRequest::empty()),
    }
}

/// `POST /api/v1/user_uploads`: stores the bytes durably, then records the upload.
pub(super) async fn upload_file(State(state): State<AppState>, mut request: ApiRequest) -> Response {
    let files = std::mem::take(&mut request.files);
    let (actor, request) = authenticated(&state, request).await;
    let actor = match actor {
        Ok(actor) => actor,
        Err(e) => return respond::error(&e),
    };
    let size = files.first().map_or(0, |f| f.size);
    if let Err(e) = api::uploads::check_upload(files.len(), size) {
        return respond::error(&e);
    }
    let Some(file) = files.into_iter().next() else { return respond::error(&ApiError::internal("no file")) };
    let random = match secrets::random_alphanumeric(26) {
        Ok(random) => random,
        Err(e) => return respond::error(&ApiError::internal(e)),
    };
    let path_id = api::uploads::new_path_id(&actor, &random, &file.file_name);
    let uploaded_name = file.file_name.clone();
    let files_store = state.files.clone();
    let target = path_id.clone();
    let saved = tokio::task::spawn_blocking(move || files_store.keep(&file.temporary, &target)).await;
    if let Err(e) = saved.map_err(ApiError::internal).and_then(|r| r.map_err(ApiError::internal)) {
        return respond::error(&e);
    }
    let (content_type, _) = api::uploads::content_type_of(&path_id);
    let image = thumbnail_upload(&state, &path_id, content_type).await;
    let recorded = path_id.clone();
    let response = command(state.clone(), request, move |t, actor, _, now| {
        api::uploads::record_upload(t, actor, recorded, &uploaded_name, content_type, size, image, now)
    })
    .await;
    if !response.status().is_success() {
        // Nothing recorded it: its bytes go too.
        state.files.remove_upload(&path_id);
    }
    response
}

/// Thumbnails an upload whose bytes are in place, keeping the thumbnails durably before the
/// upload is recorded: the image's record, or `None` when the upload stays a plain file (not
/// an image, unreadable, or over Zulip's limits), as Zulip's `maybe_thumbnail` leaves it.
pub(crate) async fn thumbnail_upload(
    state: &AppState,
    path_id: &str,
    content_type: &str,
) -> Option<ImageAttachment> {
    if !api::uploads::may_thumbnail(content_type) {
        return None;
    }
    let made = match state.thumbnailer.make(state.files.path(path_id)?, content_type.to_owned()).await {
        Ok(made) => made,
        Err(reason) => {
            tracing::info!("upload {path_id} is not thumbnailed: {}", reason.0);
            return None;
        }
    };
    let files = state.files.clone();
    let owner = path_id.to_owned();
    let written = tokio::task::spawn_blocking(move || {
        for (name, bytes) in &made.files {
            files.keep_bytes(&thumbnail_path_id(&owner, name), bytes)?;
        }
        Ok::<_, std::io::Error>(made.image)
    })
    .await;
    match written {
        Ok(Ok(image)) => Some(image),
        Ok(Err(e)) => {
            tracing::warn!("could not keep the thumbnails of {path_id}: {e}");
            state.files.remove_thumbnails(path_id);
            None
        }
        Err(e) => {
            tracing::warn!("could not keep the thumbnails of {path_id}: {e}");
            state.files.remove_thumbnails(path_id);
            None
        }
    }
}

fn html(status: StatusCode, body: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

/// Zulip's `serve_file` answers for a path the user may not have.
fn refusal(allowed: Option<bool>) -> Option<Response> {
    match allowed {
        None => Some(html(StatusCode::NOT_FOUND, "<p>This file does not exist or has been deleted.</p>")),
        Some(false) => Some(html(StatusCode::FORBIDDEN, "<p>You are not authorized to view this file.</p>")),
        Some(true) => None,
    }
}

/// The same refusals as JSON errors, for the API's temporary-URL endpoint (Zulip answers it
/// with the HTML pages; API clients read the error shape better).
fn api_refusal(allowed: Option<bool>) -> Option<Response> {
    match allowed {
        None => Some(respond::error(
            &ApiError::bad_request("This file does not exist or has been deleted.").with_status(404),
        )),
        Some(false) => Some(respond::error(
            &ApiError::bad_request("You are not authorized to view this file.").with_status(403),
        )),
        Some(true) => None,
    }
}

/// Who asks for a file, and whether they may have it; `refuse` words the refusals.
async fn access(
    state: &AppState,
    request: ApiRequest,
    path_id: String,
    refuse: fn(Option<bool>) -> Option<Response>,
) -> Result<String, Response> {
    let (actor, _) = authenticated(state, request).await;
    let actor = actor.map_err(|e| respond::error(&e))?;
    let store = state.store.clone();
    let checked = path_id.clone();
    let allowed = tokio::task::spawn_blocking(move || {
        store.read(|t| api::uploads::may_download(t, &actor.user, &checked))
    })
    .await
    .map_err(|e| respond::error(&ApiError::internal(e)))?
    .map_err(|e| respond::error(&e))?;
    match refuse(allowed) {
        Some(response) => Err(response),
        None => Ok(path_id),
    }
}

/// The file's bytes, typed by its name; shown inline only where Zulip shows it inline.
async fn file_response(state: &AppState, path_id: String) -> Response {
    let files = state.files.clone();
    let target = path_id.clone();
    let bytes = match tokio::task::spawn_blocking(move || files.read(&target)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return html(StatusCode::NOT_FOUND, "<p>This file does not exist or has been deleted.</p>");
        }
        Ok(Err(e)) => return respond::error(&ApiError::internal(e)),
        Err(e) => return respond::error(&ApiError::internal(e)),
    };
    let name = path_id.rsplit('/').next().unwrap_or_default();
    let (content_type, inline) = api::uploads::content_type_of(name);
    let disposition =
        format!("{}; filename=\"{}\"", if inline { "inline" } else { "attachment" }, name.replace('"', ""));
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, immutable"));
    response
}

/// `GET /user_uploads/{realm_id}/{path}`: the file, for those who may see it.
pub(crate) async fn serve_upload(
    State(state): State<AppState>,
    Path((realm, rest)): Path<(String, String)>,
    request: ApiRequest,
) -> Response {
    match access(&state, request, format!("{realm}/{rest}"), refusal).await {
        Ok(path_id) => file_response(&state, path_id).await,
        Err(response) => response,
    }
}

/// `GET /user_uploads/thumbnail/{realm_id}/{path}/{format}`: a thumbnail of an image, for
/// those who may see the image (Zulip's `serve_file` with a `thumbnail_format`). A file with no
/// thumbnails, or a format name that is none, is not found; another format's name is answered
/// with the closest thumbnail made. Zulip answers those 404s with an image (its
/// `image-not-exist.png`); here the answer is the usual page.
pub(crate) async fn serve_thumbnail(
    State(state): State<AppState>,
    Path((realm, rest)): Path<(String, String)>,
    request: ApiRequest,
) -> Response {
    let not_found = || html(StatusCode::NOT_FOUND, "<p>This file does not exist or has been deleted.</p>");
    let Some((path, format)) = rest.rsplit_once('/') else { return not_found() };
    let path_id = match access(&state, request, format!("{realm}/{path}"), refusal).await {
        Ok(path_id) => path_id,
        Err(response) => return response,
    };
    let store = state.store.clone();
    let (asked, format) = (path_id.clone(), format.to_owned());
    let stored =
        tokio::task::spawn_blocking(move || store.read(|t| api::uploads::thumbnail_of(t, &asked, &format)))
            .await;
    match stored {
        Ok(Ok(Some(thumbnail))) => {
            file_response(&state, thumbnail_path_id(&path_id, &thumbnail.name())).await
        }
        Ok(Ok(None)) => not_found(),
        Ok(Err(e)) => respond::error(&e),
        Err(e) => respond::error(&ApiError::internal(e)),
    }
}

/// `GET /api/v1/user_uploads/{realm_id}/{path}`: a URL that serves the file without
/// credentials for a minute, for clients that hand downloads to another program.
pub(super) async fn get_file_temporary_url(
    State(state): State<AppState>,
    Path((realm, rest)): Path<(String, String)>,
    request: ApiRequest,
) -> Response {
    let path_id = match access(&state, request, format!("{realm}/{rest}"), api_refusal).await {
        Ok(path_id) => path_id,
        Err(response) => return response,
    };
    let files = state.files.clone();
    let signed = tokio::task::spawn_blocking({
        let path_id = path_id.clone();
        move || files.temporary_token(&path_id, now())
    })
    .await;
    let token = match signed {
        Ok(Ok(token)) => token,
        Ok(Err(e)) => return respond::error(&ApiError::internal(e)),
        Err(e) => return respond::error(&ApiError::internal(e)),
    };
    let name = path_id.rsplit('/').next().unwrap_or_default();
    let mut reply = serde_json::Map::new();
    reply.insert("url".into(), format!("/user_uploads/temporary/{token}/{name}").into());
    respond::success(reply)
}

/// `GET /user_uploads/temporary/{token}/{filename}`: no credentials, only the token.
pub(crate) async fn serve_temporary(
    State(state): State<AppState>,
    Path((token, filename)): Path<(String, String)>,
) -> Response {
    let Some(path_id) = state.files.path_of_token(&token, now()) else {
        return respond::error(&ApiError::bad_request("Invalid token"));
    };
    if path_id.rsplit('/').next() != Some(filename.as_str()) {
        return respond::error(&ApiError::bad_request("Invalid filename"));
    }
    file_response(&state, path_id).await
}

pub(super) async fn get_attachments(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::uploads::get_attachments(t, actor)).await
}

/// `DELETE /api/v1/attachments/{id}`: once the record is gone, so are the bytes.
pub(super) async fn remove_attachment(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    let Ok(id) = id.parse::<u64>() else {
        return respond::error(&ApiError::bad_request("Invalid attachment"));
    };
    let store = state.store.clone();
    let path = tokio::task::spawn_blocking(move || {
        store.read(|t| Ok(confab_core::store::Store::attachment(t, id)?.map(|a| a.path_id)))
    })
    .await
    .ok()
    .and_then(Result::ok)
    .flatten();
    let files = state.files.clone();
    let response =
        command(state, request, move |t, actor, _, _| api::uploads::remove_attachment(t, actor, id)).await;
    if response.status().is_success()
        && let Some(path) = path
    {
        files.remove_upload(&path);
    }
    response
}
