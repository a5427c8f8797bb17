//! Scheduled messages and reminders. Creating or changing one wakes the delivery task, whose
//! next wake-up may now be sooner.

use confab_core::ids::ScheduledMessageId;

use super::*;

/// A path segment that is not a number names no scheduled message or reminder.
fn scheduled_id_segment(segment: &str, missing: &str) -> ApiResult<ScheduledMessageId> {
    segment
        .parse::<u64>()
        .map(ScheduledMessageId)
        .map_err(|_| ApiError::bad_request(missing).with_status(404))
}

pub(super) async fn get_scheduled_messages(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::scheduled_messages::get_scheduled_messages(t, actor)).await
}

pub(super) async fn create_scheduled_message(State(state): State<AppState>, request: ApiRequest) -> Response {
    let deliveries = state.deliveries.clone();
    let response = command(state, request, |t, actor, params, now| {
        api::scheduled_messages::create_scheduled_message(t, actor, params, now)
    })
    .await;
    deliveries.wake();
    response
}

pub(super) async fn update_scheduled_message(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    let deliveries = state.deliveries.clone();
    let response = command(state, request, move |t, actor, params, now| {
        let id = scheduled_id_segment(&id, "Scheduled message does not exist")?;
        api::scheduled_messages::update_scheduled_message(t, actor, id, params, now)
    })
    .await;
    deliveries.wake();
    response
}

pub(super) async fn delete_scheduled_message(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        let id = scheduled_id_segment(&id, "Scheduled message does not exist")?;
        api::scheduled_messages::delete_scheduled_message(t, actor, id)
    })
    .await
}

pub(super) async fn get_reminders(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::reminders::get_reminders(t, actor)).await
}

pub(super) async fn create_message_reminder(State(state): State<AppState>, request: ApiRequest) -> Response {
    let deliveries = state.deliveries.clone();
    let response = command(state, request, |t, actor, params, now| {
        api::reminders::create_message_reminder(t, actor, params, now)
    })
    .await;
    deliveries.wake();
    response
}

pub(super) async fn delete_reminder(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        let id = scheduled_id_segment(&id, "Reminder does not exist")?;
        api::reminders::delete_reminder(t, actor, id)
    })
    .await
}
