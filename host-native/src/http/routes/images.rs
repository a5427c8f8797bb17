//! Images people upload: custom emoji and avatars, kept under `DIR/uploads/avatars/` and
//! served without credentials at `/user_avatars/...`, as Zulip serves them. Core decides
//! (`api::realm_emoji`, `api::avatars`); an image is kept before its record is written and
//! removed again if the record is refused.

use axum::http::{HeaderValue, header};
use axum::response::IntoResponse;
use confab_core::ids::RealmId;
use confab_core::images::{ImageFormat, ReceivedImage};

use super::uploads::authenticated;
use super::*;
use crate::http::request::UploadedFile;

/// The file store's name for a path under `/user_avatars/`.
fn avatars_path_id(path: &str) -> String {
    format!("avatars/{path}")
}

/// A request's image, kept before the command that records it.
struct KeptImage {
    /// What core checks: every file part of the request.
    images: Vec<ReceivedImage>,
    /// The kept file's name (empty when nothing was kept).
    file_name: String,
    /// Its name in the file store, to remove it if the command refuses it.
    path_id: Option<String>,
}

/// Keeps the request's one image under `/user_avatars/{place(realm, name)}`, with a fresh
/// name whose extension is the format its bytes show. With no file or several, nothing is
/// kept (the command refuses those).
async fn keep_image(
    state: &AppState,
    realm: RealmId,
    mut files: Vec<UploadedFile>,
    place: fn(RealmId, &str) -> String,
) -> Result<KeptImage, Response> {
    let mut images: Vec<ReceivedImage> = files.iter().map(UploadedFile::image).collect();
    let (1, Some(file)) = (files.len(), files.pop()) else {
        return Ok(KeptImage { images, file_name: String::new(), path_id: None });
    };
    let random = secrets::random_alphanumeric(24).map_err(|e| respond::error(&ApiError::internal(e)))?;
    let extension = ImageFormat::sniff(&file.head).map_or("img", ImageFormat::extension);
    let file_name = format!("{random}.{extension}");
    let path_id = avatars_path_id(&place(realm, &file_name));
    let store = state.files.clone();
    let target = path_id.clone();
    let kept = tokio::task::spawn_blocking(move || store.keep(&file.temporary, &target)).await;
    kept.map_err(ApiError::internal)
        .and_then(|r| r.map_err(ApiError::internal))
        .map_err(|e| respond::error(&e))?;
    // Only the header is read: whether it claims more pixels than Zulip would decode.
    if let Some(path) = state.files.path(&path_id) {
        let over =
            tokio::task::spawn_blocking(move || crate::thumbnails::exceeds_whole_image_limit(&path)).await;
        images[0].exceeds_pixel_limit = over.unwrap_or(false);
    }
    Ok(KeptImage { images, file_name, path_id: Some(path_id) })
}

/// Removes a kept image whose command failed.
fn forget_if_refused(state: &AppState, response: &Response, path_id: Option<&str>) {
    if !response.status().is_success()
        && let Some(path_id) = path_id
    {
        state.files.remove(path_id);
    }
}

pub(super) async fn get_custom_emoji(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::realm_emoji::get_custom_emoji(t, actor)).await
}

/// `POST /api/v1/realm/emoji/{emoji_name}`.
pub(super) async fn upload_custom_emoji(
    State(state): State<AppState>,
    Path(emoji_name): Path<String>,
    mut request: ApiRequest,
) -> Response {
    let files = std::mem::take(&mut request.files);
    let (actor, request) = authenticated(&state, request).await;
    let actor = match actor {
        Ok(actor) => actor,
        Err(e) => return respond::error(&e),
    };
    let kept = match keep_image(&state, actor.realm.id, files, api::realm_emoji::emoji_path).await {
        Ok(kept) => kept,
        Err(response) => return response,
    };
    let KeptImage { images, file_name, path_id } = kept;
    let response = command(state.clone(), request, move |t, actor, _, _| {
        api::realm_emoji::upload_custom_emoji(t, actor, &emoji_name, &images, &file_name)
    })
    .await;
    forget_if_refused(&state, &response, path_id.as_deref());
    response
}

/// `DELETE /api/v1/realm/emoji/{emoji_name}`: the image stays, for old messages and reactions.
pub(super) async fn deactivate_custom_emoji(
    State(state): State<AppState>,
    Path(emoji_name): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::realm_emoji::deactivate_custom_emoji(t, actor, &emoji_name)
    })
    .await
}

/// `POST /api/v1/users/me/avatar`: once the new avatar is recorded, the old image goes.
pub(super) async fn set_avatar(State(state): State<AppState>, mut request: ApiRequest) -> Response {
    let files = std::mem::take(&mut request.files);
    let (actor, request) = authenticated(&state, request).await;
    let actor = match actor {
        Ok(actor) => actor,
        Err(e) => return respond::error(&e),
    };
    let kept = match keep_image(&state, actor.realm.id, files, api::avatars::avatar_path).await {
        Ok(kept) => kept,
        Err(response) => return response,
    };
    let KeptImage { images, file_name, path_id } = kept;
    let response = command(state.clone(), request, move |t, actor, _, _| {
        api::avatars::set_avatar(t, actor, &images, &file_name)
    })
    .await;
    forget_if_refused(&state, &response, path_id.as_deref());
    forget_replaced(&state, &response, actor.user.avatar.as_deref());
    response
}

/// `DELETE /api/v1/users/me/avatar`: back to the default; the uploaded image goes.
pub(super) async fn delete_avatar(State(state): State<AppState>, request: ApiRequest) -> Response {
    let (actor, request) = authenticated(&state, request).await;
    let actor = match actor {
        Ok(actor) => actor,
        Err(e) => return respond::error(&e),
    };
    let response =
        command(state.clone(), request, |t, actor, _, _| api::avatars::delete_avatar(t, actor)).await;
    forget_replaced(&state, &response, actor.user.avatar.as_deref());
    response
}

/// Removes the avatar image a successful change replaced.
fn forget_replaced(state: &AppState, response: &Response, old: Option<&str>) {
    if response.status().is_success()
        && let Some(old) = old
    {
        state.files.remove(&avatars_path_id(old));
    }
}

/// `GET /user_avatars/{path}`: avatars and custom emoji, to anyone (their paths carry random
/// names), typed by their extension and cached for good (a new image gets a new path).
pub(crate) async fn serve_user_avatar(State(state): State<AppState>, Path(path): Path<String>) -> Response {
    let files = state.files.clone();
    let path_id = avatars_path_id(&path);
    let bytes = match tokio::task::spawn_blocking(move || files.read(&path_id)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return (
                StatusCode::NOT_FOUND,
                [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                "<p>File not found</p>",
            )
                .into_response();
        }
        Ok(Err(e)) => return respond::error(&ApiError::internal(e)),
        Err(e) => return respond::error(&ApiError::internal(e)),
    };
    let content_type =
        ImageFormat::from_extension(&path).map_or("application/octet-stream", ImageFormat::content_type);
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// The default avatar, served when a user has not uploaded one. Zulip would point at Gravatar;
/// Confab keeps users' addresses to itself and serves one neutral image.
const DEFAULT_AVATAR: &[u8] = include_bytes!("../../../assets/default-avatar.png");

/// `GET /avatar/{user_id}` (and `/avatar/{user_id}/medium`): the user's uploaded avatar, by
/// redirect, or the default image. Ids of nobody get the default too, as a picture reveals
/// nothing.
pub(crate) async fn serve_avatar(State(state): State<AppState>, Path(rest): Path<String>) -> Response {
    let id = rest.split('/').next().and_then(|id| id.parse::<u64>().ok());
    let store = state.store.clone();
    let uploaded = tokio::task::spawn_blocking(move || {
        let id = id?;
        store
            .read(|t| {
                Ok(confab_core::store::Store::user(t, confab_core::ids::UserId(id))?.and_then(|u| u.avatar))
            })
            .ok()
            .flatten()
    })
    .await
    .ok()
    .flatten();
    if let Some(path) = uploaded
        && let Ok(location) = HeaderValue::from_str(&format!("/user_avatars/{path}"))
    {
        return (StatusCode::FOUND, [(header::LOCATION, location)]).into_response();
    }
    default_avatar()
}

/// The avatar of a user one cannot see: the neutral default, which tells nothing of them.
pub(crate) async fn serve_unknown_user_avatar() -> Response {
    default_avatar()
}

fn default_avatar() -> Response {
    let mut response = (StatusCode::OK, DEFAULT_AVATAR).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400"));
    response
}
