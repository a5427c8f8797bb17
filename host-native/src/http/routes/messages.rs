//! Message routes: sending, reading, flags, edits, reactions, submessages and previews.

use super::*;

pub(super) async fn send_message(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| api::messages::send_message(t, actor, params, now)).await
}

/// `GET /messages`; without credentials, a spectator's read of web-public channels.
pub(super) async fn get_messages(State(state): State<AppState>, request: ApiRequest) -> Response {
    if request.is_anonymous() {
        return spectator_query(state, request, api::spectators::get_messages_as_spectator).await;
    }
    query(state, request, api::messages::get_messages).await
}

/// `GET /messages/{message_id}`; without credentials, a spectator's read of one message.
pub(super) async fn get_message(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    if request.is_anonymous() {
        let id = message_id_segment(&id).ok();
        return spectator_query(state, request, move |t, realm, realm_url, params| {
            api::spectators::get_message_as_spectator(t, realm, realm_url, id, params)
        })
        .await;
    }
    query(state, request, move |t, actor, params| {
        api::messages::get_message(t, actor, message_id_segment(&id)?, params)
    })
    .await
}

pub(super) async fn update_message_flags(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::messages::update_message_flags(t, actor, params)).await
}

pub(super) async fn update_message_flags_for_narrow(
    State(state): State<AppState>,
    request: ApiRequest,
) -> Response {
    command(state, request, |t, actor, params, _| {
        api::messages::update_message_flags_for_narrow(t, actor, params)
    })
    .await
}

pub(super) async fn mark_all_as_read(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, _, _| api::messages::mark_all_as_read(t, actor)).await
}

pub(super) async fn mark_stream_as_read(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::messages::mark_stream_as_read(t, actor, params)).await
}

pub(super) async fn mark_topic_as_read(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::messages::mark_topic_as_read(t, actor, params)).await
}

/// A numeric id from a path segment; anything else answers as a missing message.
pub(super) fn message_id_segment(segment: &str) -> ApiResult<MessageId> {
    segment.parse::<u64>().map(MessageId).map_err(|_| ApiError::invalid_message())
}

pub(super) async fn update_message(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, now| {
        api::messages::update_message(t, actor, message_id_segment(&id)?, params, now)
    })
    .await
}

pub(super) async fn delete_message(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, now| {
        api::messages::delete_message(t, actor, message_id_segment(&id)?, now)
    })
    .await
}

pub(super) async fn get_message_history(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, params| {
        api::messages::get_message_history(t, actor, message_id_segment(&id)?, params)
    })
    .await
}

pub(super) async fn report_message(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, now| {
        api::messages::report_message(t, actor, message_id_segment(&id)?, params, now)
    })
    .await
}

pub(super) async fn get_read_receipts(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, _| {
        api::read_receipts::read_receipts(t, actor, message_id_segment(&id)?)
    })
    .await
}

pub(super) async fn set_edit_typing_status(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, now| {
        api::typing::set_edit_typing_status(t, actor, message_id_segment(&id)?, params, now)
    })
    .await
}

pub(super) async fn add_reaction(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, now| {
        api::messages::add_reaction(t, actor, message_id_segment(&id)?, params, now)
    })
    .await
}

pub(super) async fn remove_reaction(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::messages::remove_reaction(t, actor, message_id_segment(&id)?, params)
    })
    .await
}

/// `POST /submessage`: a widget's change (a vote, a new option, a struck task).
pub(super) async fn process_submessage(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| api::messages::process_submessage(t, actor, params, now))
        .await
}

pub(super) async fn render_message(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::messages::render).await
}

pub(super) async fn check_messages_match_narrow(
    State(state): State<AppState>,
    request: ApiRequest,
) -> Response {
    query(state, request, api::messages::check_messages_match_narrow).await
}
