//! User group routes.

use super::*;

/// A user group id from a path segment; anything else answers as a missing group.
pub(super) fn group_id_segment(segment: &str) -> ApiResult<confab_core::ids::UserGroupId> {
    segment
        .parse::<u64>()
        .map(confab_core::ids::UserGroupId)
        .map_err(|_| ApiError::bad_request("Invalid user group"))
}

pub(super) async fn get_user_groups(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::user_groups::get_user_groups).await
}

pub(super) async fn create_user_group(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| {
        api::user_groups::create_user_group(t, actor, params, now)
    })
    .await
}

pub(super) async fn update_user_group(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::user_groups::update_user_group(t, actor, group_id_segment(&id)?, params)
    })
    .await
}

pub(super) async fn deactivate_user_group(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::user_groups::deactivate_user_group(t, actor, group_id_segment(&id)?)
    })
    .await
}

pub(super) async fn update_user_group_members(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::user_groups::update_user_group_members(t, actor, group_id_segment(&id)?, params)
    })
    .await
}

pub(super) async fn update_user_group_subgroups(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::user_groups::update_user_group_subgroups(t, actor, group_id_segment(&id)?, params)
    })
    .await
}

pub(super) async fn get_user_group_members(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, params| {
        api::user_groups::get_user_group_members(t, actor, group_id_segment(&id)?, params)
    })
    .await
}

pub(super) async fn get_is_user_group_member(
    State(state): State<AppState>,
    Path((id, user)): Path<(String, String)>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, params| {
        let user = user
            .parse::<u64>()
            .map(confab_core::ids::UserId)
            .map_err(|_| ApiError::bad_request("No such user"))?;
        api::user_groups::get_is_user_group_member(t, actor, group_id_segment(&id)?, user, params)
    })
    .await
}

pub(super) async fn get_user_group_subgroups(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, params| {
        api::user_groups::get_user_group_subgroups(t, actor, group_id_segment(&id)?, params)
    })
    .await
}
