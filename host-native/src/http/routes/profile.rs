//! Custom profile field routes: the organization's fields and users' values for them.

use super::*;

use api::custom_profile_fields::{self as fields, values};

/// A field id from a path segment; one that is not a number names no field.
fn field_id_segment(segment: &str) -> ApiResult<u64> {
    segment.parse::<u64>().map_err(|_| ApiError::bad_request(format!("Field id {segment} not found.")))
}

pub(super) async fn get_custom_profile_fields(
    State(state): State<AppState>,
    request: ApiRequest,
) -> Response {
    query(state, request, |t, actor, _| fields::get_custom_profile_fields(t, actor)).await
}

pub(super) async fn create_custom_profile_field(
    State(state): State<AppState>,
    request: ApiRequest,
) -> Response {
    command(state, request, |t, actor, params, _| fields::create_custom_profile_field(t, actor, params)).await
}

pub(super) async fn reorder_custom_profile_fields(
    State(state): State<AppState>,
    request: ApiRequest,
) -> Response {
    command(state, request, |t, actor, params, _| fields::reorder_custom_profile_fields(t, actor, params))
        .await
}

pub(super) async fn update_custom_profile_field(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        fields::update_custom_profile_field(t, actor, field_id_segment(&id)?, params)
    })
    .await
}

pub(super) async fn remove_custom_profile_field(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        fields::remove_custom_profile_field(t, actor, field_id_segment(&id)?)
    })
    .await
}

pub(super) async fn update_profile_data(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| values::update_profile_data(t, actor, params)).await
}

pub(super) async fn remove_profile_data(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| values::remove_profile_data(t, actor, params)).await
}
