//! A user's own records: drafts, saved snippets, navigation views, push devices, bot storage.

use super::*;

/// A numeric id from a path segment; anything else names nothing.
fn record_id(segment: &str, missing: &'static str) -> ApiResult<u64> {
    segment
        .parse::<u64>()
        .map_err(|_| ApiError::bad_request(missing).with_status(StatusCode::NOT_FOUND.as_u16()))
}

pub(super) async fn get_drafts(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::drafts::get_drafts(t, actor)).await
}

pub(super) async fn create_drafts(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| api::drafts::create_drafts(t, actor, params, now)).await
}

pub(super) async fn edit_draft(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, now| {
        api::drafts::edit_draft(t, actor, record_id(&id, "Draft does not exist")?, params, now)
    })
    .await
}

pub(super) async fn delete_draft(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::drafts::delete_draft(t, actor, record_id(&id, "Draft does not exist")?)
    })
    .await
}

pub(super) async fn get_saved_snippets(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::saved_snippets::get_saved_snippets(t, actor)).await
}

pub(super) async fn create_saved_snippet(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| {
        api::saved_snippets::create_saved_snippet(t, actor, params, now)
    })
    .await
}

pub(super) async fn edit_saved_snippet(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::saved_snippets::edit_saved_snippet(
            t,
            actor,
            record_id(&id, "Saved snippet does not exist.")?,
            params,
        )
    })
    .await
}

pub(super) async fn delete_saved_snippet(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::saved_snippets::delete_saved_snippet(t, actor, record_id(&id, "Saved snippet does not exist.")?)
    })
    .await
}

pub(super) async fn get_navigation_views(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::navigation_views::get_navigation_views(t, actor)).await
}

pub(super) async fn add_navigation_view(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| {
        api::navigation_views::add_navigation_view(t, actor, params)
    })
    .await
}

pub(super) async fn update_navigation_view(
    State(state): State<AppState>,
    Path(fragment): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::navigation_views::update_navigation_view(t, actor, &fragment, params)
    })
    .await
}

pub(super) async fn remove_navigation_view(
    State(state): State<AppState>,
    Path(fragment): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::navigation_views::remove_navigation_view(t, actor, &fragment)
    })
    .await
}

pub(super) async fn register_push_device(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |_, actor, params| api::push_tokens::register_push_device(actor, params)).await
}

pub(super) async fn add_android_push_token(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| {
        api::push_tokens::add_android_push_token(t, actor, params, now)
    })
    .await
}

pub(super) async fn remove_android_push_token(
    State(state): State<AppState>,
    request: ApiRequest,
) -> Response {
    command(state, request, |t, actor, params, _| {
        api::push_tokens::remove_android_push_token(t, actor, params)
    })
    .await
}

pub(super) async fn add_apns_device_token(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| {
        api::push_tokens::add_apns_device_token(t, actor, params, now)
    })
    .await
}

pub(super) async fn remove_apns_device_token(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| {
        api::push_tokens::remove_apns_device_token(t, actor, params)
    })
    .await
}

pub(super) async fn get_bot_storage(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::bot_storage::get_storage).await
}

pub(super) async fn update_bot_storage(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::bot_storage::update_storage(t, actor, params)).await
}

pub(super) async fn remove_bot_storage(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::bot_storage::remove_storage(t, actor, params)).await
}
