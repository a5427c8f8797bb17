//! Channel routes: subscriptions, channels and their topics.

use super::*;

pub(super) async fn get_subscriptions(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, params| api::subscriptions::get_subscriptions(t, actor, params, now()))
        .await
}

pub(super) async fn subscribe(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| api::subscriptions::subscribe(t, actor, params, now))
        .await
}

pub(super) async fn unsubscribe(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::subscriptions::unsubscribe(t, actor, params)).await
}

pub(super) async fn get_streams(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::streams::get_streams).await
}

pub(super) async fn get_stream_id(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::streams::get_stream_id).await
}

/// A numeric channel id from a path segment.
pub(super) fn stream_id_segment(segment: &str) -> ApiResult<confab_core::ids::StreamId> {
    segment
        .parse::<u64>()
        .map(confab_core::ids::StreamId)
        .map_err(|_| ApiError::bad_request("Invalid channel ID"))
}

/// `GET /users/me/{stream_id}/topics`; without credentials, a spectator's read of a
/// web-public channel's topics.
pub(super) async fn get_stream_topics(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    if request.is_anonymous() {
        let id = stream_id_segment(&id).ok();
        return spectator_query(state, request, move |t, realm, realm_url, params| {
            api::spectators::get_stream_topics_as_spectator(t, realm, realm_url, id, params)
        })
        .await;
    }
    query(state, request, move |t, actor, params| {
        api::messages::get_stream_topics(t, actor, stream_id_segment(&id)?, params)
    })
    .await
}

pub(super) async fn delete_topic(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::messages::delete_topic(t, actor, stream_id_segment(&id)?, params)
    })
    .await
}

pub(super) async fn update_subscription_settings(
    State(state): State<AppState>,
    request: ApiRequest,
) -> Response {
    command(state, request, |t, actor, params, _| {
        api::subscription_properties::update_subscription_settings(t, actor, params)
    })
    .await
}

pub(super) async fn get_stream_by_id(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, _| {
        api::channel_admin::get_stream_by_id(t, actor, stream_id_segment(&id)?)
    })
    .await
}

pub(super) async fn get_subscribers(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, _| {
        api::channel_admin::get_subscribers(t, actor, stream_id_segment(&id)?)
    })
    .await
}

pub(super) async fn update_stream(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, now| {
        api::channel_admin::update_stream(t, actor, stream_id_segment(&id)?, params, now)
    })
    .await
}

pub(super) async fn archive_stream(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::channel_admin::archive_stream(t, actor, stream_id_segment(&id)?)
    })
    .await
}

pub(super) async fn create_channel(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| api::channels::create_channel(t, actor, params, now))
        .await
}

pub(super) async fn add_default_stream(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::default_channels::add_default_stream(t, actor, params))
        .await
}

pub(super) async fn remove_default_stream(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| {
        api::default_channels::remove_default_stream(t, actor, params)
    })
    .await
}

pub(super) async fn get_channel_folders(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::channel_folders::get_channel_folders).await
}

pub(super) async fn create_channel_folder(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| {
        api::channel_folders::create_channel_folder(t, actor, params, now)
    })
    .await
}

pub(super) async fn reorder_channel_folders(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| {
        api::channel_folders::reorder_channel_folders(t, actor, params)
    })
    .await
}

pub(super) async fn update_channel_folder(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        // A segment that is not a number names no folder.
        let id = id.parse::<u64>().map_err(|_| ApiError::bad_request("Invalid channel folder ID"))?;
        api::channel_folders::update_channel_folder(t, actor, id, params)
    })
    .await
}

pub(super) async fn get_stream_email_address(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, params| {
        api::channel_email::get_stream_email_address(t, actor, stream_id_segment(&id)?, params)
    })
    .await
}

pub(super) async fn create_default_stream_group(
    State(state): State<AppState>,
    request: ApiRequest,
) -> Response {
    command(state, request, |t, actor, params, _| {
        api::default_channel_groups::create_default_stream_group(t, actor, params)
    })
    .await
}

/// `{group_id}` is a number in Zulip's route (`<int:group_id>`); anything else matches no
/// endpoint.
fn group_id_segment(segment: &str) -> Option<u64> {
    segment.parse::<u64>().ok()
}

pub(super) async fn update_default_stream_group_info(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    let Some(id) = group_id_segment(&id) else { return unknown_endpoint().await };
    command(state, request, move |t, actor, params, _| {
        api::default_channel_groups::update_default_stream_group_info(t, actor, id, params)
    })
    .await
}

pub(super) async fn update_default_stream_group_streams(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    let Some(id) = group_id_segment(&id) else { return unknown_endpoint().await };
    command(state, request, move |t, actor, params, _| {
        api::default_channel_groups::update_default_stream_group_streams(t, actor, id, params)
    })
    .await
}

pub(super) async fn remove_default_stream_group(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    let Some(id) = group_id_segment(&id) else { return unknown_endpoint().await };
    command(state, request, move |t, actor, _, _| {
        api::default_channel_groups::remove_default_stream_group(t, actor, id)
    })
    .await
}
