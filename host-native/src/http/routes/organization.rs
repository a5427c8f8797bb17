//! Organization routes: server settings, API keys, linkifiers and settings.

use confab_core::ErrorCode;

use super::*;

pub(super) async fn server_settings(State(state): State<AppState>, request: ApiRequest) -> Response {
    let store = state.store.clone();
    let site = state.site.clone();
    let joined = tokio::task::spawn_blocking(move || {
        // Clients send their own parameters here; Zulip ignores them silently.
        store.read(|tables| {
            api::server_settings::get_server_settings(tables, &site, request.subdomain.as_deref())
        })
    })
    .await;
    respond::outcome(joined.unwrap_or_else(|e| Err(ApiError::internal(e))))
}

pub(super) async fn fetch_api_key(State(state): State<AppState>, request: ApiRequest) -> Response {
    let store = state.store.clone();
    // Waiting for a turn here, not on a blocking thread, keeps a burst of logins from taking
    // the threads reads need.
    let mut turn = state.passwords.turn().await;
    let joined = tokio::task::spawn_blocking(move || {
        store.read(|tables| {
            let username: String = request.params.required("username")?;
            let password: String = request.params.required("password")?;
            let realm = host_organization(tables, &request)?.valid()?;
            request.limits.before_credentials()?;
            let now_ms = super::super::rate_limits::now_ms();
            let key = api::fetch_api_key::login_limit_key(&realm, &username);
            let result = request.limits.login(&key, now_ms, |logins| {
                api::fetch_api_key::fetch_api_key(
                    tables,
                    &realm,
                    &username,
                    |hash| turn.verify_or_stand_in(&password, hash),
                    logins,
                    now_ms,
                )
            })?;
            if result.as_ref().is_err_and(|e| e.code == ErrorCode::AuthenticationFailed) {
                request.limits.credentials_failed();
            }
            let mut outcome = result?;
            respond::note_ignored(&mut outcome, request.params.ignored());
            Ok(outcome)
        })
    })
    .await;
    respond::outcome(joined.unwrap_or_else(|e| Err(ApiError::internal(e))))
}

pub(super) async fn get_linkifiers(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::linkifiers::get_linkifiers(t, actor)).await
}

pub(super) async fn add_linkifier(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::linkifiers::add_linkifier(t, actor, params)).await
}

pub(super) async fn reorder_linkifiers(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::linkifiers::reorder_linkifiers(t, actor, params)).await
}

/// A linkifier id from a path segment; anything else answers as a missing linkifier.
pub(super) fn linkifier_id_segment(segment: &str) -> ApiResult<u64> {
    segment.parse::<u64>().map_err(|_| ApiError::bad_request("Linkifier not found."))
}

pub(super) async fn update_linkifier(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::linkifiers::update_linkifier(t, actor, linkifier_id_segment(&id)?, params)
    })
    .await
}

pub(super) async fn remove_linkifier(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::linkifiers::remove_linkifier(t, actor, linkifier_id_segment(&id)?)
    })
    .await
}

pub(super) async fn update_realm(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::realm::update_realm(t, actor, params)).await
}

pub(super) async fn test_welcome_bot_custom_message(
    State(state): State<AppState>,
    request: ApiRequest,
) -> Response {
    command(state, request, |t, actor, params, now| {
        api::welcome_bot::test_welcome_bot_custom_message(t, actor, params, now)
    })
    .await
}

pub(super) async fn update_realm_user_settings_defaults(
    State(state): State<AppState>,
    request: ApiRequest,
) -> Response {
    command(state, request, |t, actor, params, _| {
        api::realm_user_defaults::update_realm_user_settings_defaults(t, actor, params)
    })
    .await
}

pub(super) async fn export_realm(State(state): State<AppState>, request: ApiRequest) -> Response {
    let exports = state.exports.clone();
    let outcome = durable_outcome(state, request, |t, actor, params, now| {
        api::realm_export::export_realm(t, actor, params, now)
    })
    .await;
    if outcome.is_ok() {
        exports.wake();
    }
    respond::outcome(outcome)
}

pub(super) async fn get_realm_exports(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::realm_export::get_realm_exports(t, actor)).await
}

pub(super) async fn delete_realm_export(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    let files = state.files.clone();
    let outcome = durable_outcome(state, request, move |t, actor, _, now| {
        let id = id.parse().map_err(|_| ApiError::bad_request("Invalid data export ID"))?;
        api::realm_export::delete_realm_export(t, actor, id, now)
    })
    .await;
    // The file goes once its deletion is durable; the path is the server's, not the answer's.
    let outcome = outcome.map(|mut outcome| {
        if let Some(path_id) =
            outcome.reply.remove("removed_path_id").and_then(|p| p.as_str().map(str::to_owned))
        {
            files.remove(&path_id);
        }
        outcome
    });
    respond::outcome(outcome)
}

pub(super) async fn get_realm_export_consents(
    State(state): State<AppState>,
    request: ApiRequest,
) -> Response {
    query(state, request, |t, actor, _| api::realm_export::get_realm_export_consents(t, actor)).await
}

pub(super) async fn add_playground(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::playgrounds::add_playground(t, actor, params)).await
}

pub(super) async fn remove_playground(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    let id = id.parse::<u64>().ok();
    command(state, request, move |t, actor, _, _| api::playgrounds::remove_playground(t, actor, id)).await
}

pub(super) async fn deactivate_realm(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| {
        api::realm_deactivation::deactivate_realm(t, actor, params, now)
    })
    .await
}

pub(super) async fn make_zoom_video_call(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |_, actor, params| api::video_calls::make_zoom_video_call(actor, params)).await
}

pub(super) async fn get_bigbluebutton_url(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |_, actor, params| {
        let number = secrets::meeting_number().map_err(ApiError::internal)?;
        api::video_calls::get_bigbluebutton_url(actor, params, number)
    })
    .await
}

/// The link `get_bigbluebutton_url` answers: refused, as BigBlueButton is not configured.
pub(super) async fn join_bigbluebutton() -> Response {
    respond::error(&api::video_calls::join_bigbluebutton())
}
