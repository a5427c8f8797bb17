//! User routes: accounts, own settings, alert words, presence and typing.

use super::*;

pub(super) async fn get_own_user(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::users::get_own_user(t, actor)).await
}

/// `GET /users`; without credentials, the directory a spectator may read.
pub(super) async fn get_users(State(state): State<AppState>, request: ApiRequest) -> Response {
    if request.is_anonymous() {
        return spectator_query(state, request, api::spectators::get_users_as_spectator).await;
    }
    large_query(state, request, api::users::get_users).await
}

pub(super) async fn get_user(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, params| {
        api::users::get_user(t, actor, api::users::UserRef::parse(&user), params)
    })
    .await
}

pub(super) async fn create_user(State(state): State<AppState>, request: ApiRequest) -> Response {
    // Hashing is slow by design, so it happens before the command reaches the writer.
    let prepared = tokio::task::spawn_blocking(move || {
        let prepare = || -> ApiResult<NewUser> {
            let email: String = request.params.required("email")?;
            let password: String = request.params.required("password")?;
            let full_name: String = request.params.required("full_name")?;
            Ok(NewUser {
                email: email.trim().to_owned(),
                full_name,
                role: Role::Member,
                bot_type: None,
                bot_owner_id: None,
                api_key: secrets::new_api_key().map_err(ApiError::internal)?,
                password_hash: Some(secrets::hash_password(&password).map_err(ApiError::internal)?),
            })
        };
        (prepare(), request)
    })
    .await;
    let (new_user, request) = match prepared {
        Ok((Ok(new_user), request)) => (new_user, request),
        Ok((Err(err), _)) => return respond::error(&err),
        Err(join) => return respond::error(&ApiError::internal(join)),
    };
    command(state, request, move |t, actor, _, now| api::users::create_user(t, actor, new_user, now)).await
}

/// A numeric user id from a path segment.
pub(super) fn user_id_segment(segment: &str) -> ApiResult<confab_core::ids::UserId> {
    segment.parse::<u64>().map(confab_core::ids::UserId).map_err(|_| ApiError::no_such_user())
}

pub(super) async fn deactivate_user(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::users::deactivate_user(t, actor, user_id_segment(&user)?)
    })
    .await
}

pub(super) async fn deactivate_own_user(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, _, _| api::users::deactivate_own_user(t, actor)).await
}

pub(super) async fn reactivate_user(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::users::reactivate_user(t, actor, user_id_segment(&user)?)
    })
    .await
}

pub(super) async fn update_user(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::user_updates::update_user(t, actor, api::users::UserRef::parse(&user), params)
    })
    .await
}

pub(super) async fn get_alert_words(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::alert_words::get_alert_words(t, actor)).await
}

pub(super) async fn add_alert_words(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::alert_words::add_alert_words(t, actor, params)).await
}

pub(super) async fn remove_alert_words(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::alert_words::remove_alert_words(t, actor, params))
        .await
}

/// `PATCH /settings`; with `new_password`, the password changes too, once the old one is checked
/// and the new one hashed, both before the command reaches the writer.
pub(super) async fn update_settings(State(state): State<AppState>, request: ApiRequest) -> Response {
    let (new_hash, request) = match new_password_hash(&state, request).await {
        (Ok(hash), request) => (hash, request),
        (Err(err), _) => return respond::error(&err),
    };
    command(state, request, move |t, actor, params, _| {
        let mut outcome = api::settings::update_settings(t, actor, params)?;
        if let Some(hash) = new_hash {
            outcome.changes.extend(api::password_change::change_password(t, actor, hash)?.changes);
        }
        Ok(outcome)
    })
    .await
}

/// The hash of the request's `new_password`, checked as Zulip checks a password change (see
/// `api::password_change`); `None` when the request changes no password. The request comes back
/// for the command.
async fn new_password_hash(state: &AppState, request: ApiRequest) -> (ApiResult<Option<String>>, ApiRequest) {
    request.params.mark_used("old_password");
    let new_password = request.params.raw("new_password").unwrap_or_default().to_owned();
    if new_password.is_empty() {
        return (Ok(None), request);
    }
    let store = state.store.clone();
    let mut turn = state.passwords.turn().await;
    let joined = tokio::task::spawn_blocking(move || {
        let checked = store.read(|tables| {
            let actor = authenticate(tables, &request)?;
            let old_password: String = request.params.or("old_password", String::new())?;
            let now_ms = super::super::rate_limits::now_ms();
            let key = api::fetch_api_key::login_limit_key(&actor.realm, &actor.user.delivery_email);
            request.limits.login(&key, now_ms, |logins| {
                api::password_change::check_password_change(
                    tables,
                    &actor,
                    |hash| turn.verify_or_stand_in(&old_password, hash),
                    &new_password,
                    logins,
                    now_ms,
                )
            })?
        });
        let hashed = checked.and_then(|()| secrets::hash_password(&new_password).map_err(ApiError::internal));
        (hashed.map(Some), request)
    })
    .await;
    match joined {
        Ok(answer) => answer,
        Err(join) => (Err(ApiError::internal(join)), ApiRequest::empty()),
    }
}

/// A check-in is recorded through the writer (usually writing nothing: see
/// `api::presence`), and answered from a snapshot taken after: the answer may hold the whole
/// organization and must not be built on the writer's thread.
pub(super) async fn update_presence(State(state): State<AppState>, request: ApiRequest) -> Response {
    command_then_query(
        state,
        request,
        api::presence::PresencePing::parse,
        |t, actor, ping, now| api::presence::update_presence(t, actor, ping, now),
        api::presence::update_presence_answer,
    )
    .await
}

pub(super) async fn get_presence(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::presence::get_presence(t, actor, now())).await
}

pub(super) async fn get_user_presence(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, _| {
        api::presence::get_user_presence(t, actor, api::users::UserRef::parse(&user), now())
    })
    .await
}

pub(super) async fn set_typing_status(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::typing::set_typing_status(t, actor, params)).await
}

/// A new secret for a bot, drawn before the command runs (core draws no randomness).
fn bot_secret() -> ApiResult<String> {
    secrets::new_api_key().map_err(ApiError::internal)
}

pub(super) async fn add_bot(State(state): State<AppState>, request: ApiRequest) -> Response {
    let secrets = match (bot_secret(), bot_secret()) {
        (Ok(api_key), Ok(service_token)) => api::bots::BotSecrets { api_key, service_token },
        (Err(e), _) | (_, Err(e)) => return respond::error(&e),
    };
    command(state, request, move |t, actor, params, now| api::bots::add_bot(t, actor, params, secrets, now))
        .await
}

pub(super) async fn get_bots(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::bots::get_bots(t, actor)).await
}

pub(super) async fn regenerate_bot_api_key(
    State(state): State<AppState>,
    Path(bot): Path<String>,
    request: ApiRequest,
) -> Response {
    let key = match bot_secret() {
        Ok(key) => key,
        Err(e) => return respond::error(&e),
    };
    command(state, request, move |t, actor, _, _| {
        api::bots::regenerate_bot_api_key(t, actor, user_id_segment(&bot)?, key)
    })
    .await
}

pub(super) async fn deactivate_bot(
    State(state): State<AppState>,
    Path(bot): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| api::bots::deactivate_bot(t, actor, user_id_segment(&bot)?))
        .await
}

pub(super) async fn update_bot(
    State(state): State<AppState>,
    Path(bot): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::bot_updates::update_bot(t, actor, user_id_segment(&bot)?, params)
    })
    .await
}

pub(super) async fn update_status_for_user(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::user_status::update_status_for_user(t, actor, user_id_segment(&user)?, params)
    })
    .await
}

pub(super) async fn update_status(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::user_status::update_status(t, actor, params)).await
}

pub(super) async fn get_user_status(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, _| {
        api::user_status::get_user_status(t, actor, user_id_segment(&user)?)
    })
    .await
}

pub(super) async fn mute_user(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, now| {
        api::muted_users::mute_user(t, actor, user_id_segment(&user)?, now)
    })
    .await
}

pub(super) async fn unmute_user(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::muted_users::unmute_user(t, actor, user_id_segment(&user)?)
    })
    .await
}

pub(super) async fn update_user_topic(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| {
        api::user_topics::update_user_topic(t, actor, params, now)
    })
    .await
}

pub(super) async fn mute_topic(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| api::user_topics::mute_topic(t, actor, params, now)).await
}

pub(super) async fn get_subscription_status(
    State(state): State<AppState>,
    Path((user, stream)): Path<(String, String)>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, _| {
        api::subscription_status::get_subscription_status(
            t,
            actor,
            user_id_segment(&user)?,
            stream_id_segment(&stream)?,
        )
    })
    .await
}
