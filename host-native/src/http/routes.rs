//! The route table and the two ways a handler runs: a query on a read snapshot, or a command
//! through the writer. Handlers only translate; the rules are in `confab_core::api`.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use confab_core::api::{self, users::NewUser};
use confab_core::ids::MessageId;
use confab_core::model::Role;
use confab_core::params::Params;
use confab_core::{Actor, ApiError, ApiResult, Outcome};

use super::auth::{authenticate, host_organization, refresh};
use super::request::ApiRequest;
use super::{AppState, now, respond};
use crate::secrets;
use crate::store::{ReadTables, WriteTables};

pub fn router() -> Router<AppState> {
    let v1 = Router::new()
        .route("/server_settings", get(server_settings).post(server_settings))
        .route("/fetch_api_key", axum::routing::post(fetch_api_key))
        .route("/register", axum::routing::post(super::events::register_queue))
        .route("/events", get(super::events::get_events).delete(super::events::delete_queue))
        .route("/users/me", get(get_own_user).delete(deactivate_own_user))
        .route("/users", get(get_users).post(create_user))
        .route("/users/{user}", get(get_user).patch(update_user).delete(deactivate_user))
        .route("/users/{user}/reactivate", axum::routing::post(reactivate_user))
        .route("/users/me/subscriptions", get(get_subscriptions).post(subscribe).delete(unsubscribe))
        .route("/users/me/subscriptions/properties", axum::routing::post(update_subscription_settings))
        .route("/streams", get(get_streams))
        .route("/channels/create", axum::routing::post(create_channel))
        .route("/streams/{stream_id}", get(get_stream_by_id).patch(update_stream).delete(archive_stream))
        .route("/streams/{stream_id}/members", get(get_subscribers))
        .route("/get_stream_id", get(get_stream_id))
        .route("/messages", get(get_messages).post(send_message))
        .route("/messages/{message_id}", get(get_message).patch(update_message).delete(delete_message))
        .route("/messages/{message_id}/history", get(get_message_history))
        .route("/messages/{message_id}/report", axum::routing::post(report_message))
        .route("/messages/{message_id}/reactions", axum::routing::post(add_reaction).delete(remove_reaction))
        .route("/messages/render", axum::routing::post(render_message))
        .route("/messages/matches_narrow", get(check_messages_match_narrow))
        .route("/realm", axum::routing::patch(update_realm))
        .route("/user_groups", get(get_user_groups))
        .route("/user_groups/create", axum::routing::post(create_user_group))
        .route("/user_groups/{group}", axum::routing::patch(update_user_group))
        .route("/user_groups/{group}/deactivate", axum::routing::post(deactivate_user_group))
        .route("/user_groups/{group}/members", get(get_user_group_members).post(update_user_group_members))
        .route("/user_groups/{group}/members/{user}", get(get_is_user_group_member))
        .route(
            "/user_groups/{group}/subgroups",
            get(get_user_group_subgroups).post(update_user_group_subgroups),
        )
        .route("/realm/linkifiers", get(get_linkifiers).patch(reorder_linkifiers))
        .route("/realm/filters", axum::routing::post(add_linkifier))
        .route("/realm/filters/{filter_id}", axum::routing::patch(update_linkifier).delete(remove_linkifier))
        .route("/users/me/presence", axum::routing::post(update_presence))
        .route("/settings", axum::routing::patch(update_settings))
        .route("/users/me/alert_words", get(get_alert_words).post(add_alert_words).delete(remove_alert_words))
        .route("/realm/presence", get(get_presence))
        .route("/users/{user}/presence", get(get_user_presence))
        .route("/typing", axum::routing::post(set_typing_status))
        .route("/users/me/{stream_id}/topics", get(get_stream_topics))
        .route("/streams/{stream_id}/delete_topic", axum::routing::post(delete_topic))
        .route("/messages/flags", axum::routing::post(update_message_flags))
        .route("/messages/flags/narrow", axum::routing::post(update_message_flags_for_narrow))
        .route("/mark_all_as_read", axum::routing::post(mark_all_as_read))
        .route("/mark_stream_as_read", axum::routing::post(mark_stream_as_read))
        .route("/mark_topic_as_read", axum::routing::post(mark_topic_as_read))
        .fallback(unknown_endpoint)
        .method_not_allowed_fallback(method_not_allowed);
    Router::new().nest("/api/v1", v1).fallback(unknown_endpoint)
}

async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    let msg = format!("Method Not Allowed ({method}): {}", uri.path());
    respond::error(&ApiError::bad_request(msg).with_status(StatusCode::METHOD_NOT_ALLOWED.as_u16()))
}

async fn unknown_endpoint() -> Response {
    respond::error(&ApiError::bad_request("Invalid API endpoint").with_status(StatusCode::NOT_FOUND.as_u16()))
}

/// Runs an authenticated read on a snapshot, off the async threads.
async fn query<F>(state: AppState, request: ApiRequest, f: F) -> Response
where
    F: FnOnce(&ReadTables, &Actor, &Params) -> ApiResult<Outcome> + Send + 'static,
{
    let store = state.store.clone();
    let site = state.site.clone();
    let joined = tokio::task::spawn_blocking(move || {
        store.read(|tables| {
            let actor = authenticate(tables, &request).map(|a| with_realm_url(&site, a))?;
            let mut outcome = f(tables, &actor, &request.params)?;
            respond::note_ignored(&mut outcome, request.params.ignored());
            Ok(outcome)
        })
    })
    .await;
    respond::outcome(joined.unwrap_or_else(|e| Err(ApiError::internal(e))))
}

/// The actor with its organization's URL, as this server is reached.
pub(super) fn with_realm_url(site: &confab_core::subdomains::Site, actor: Actor) -> Actor {
    let realm_url = site.realm_url(&actor.realm.subdomain);
    Actor { realm_url, ..actor }
}

/// Runs an authenticated command through the writer; answers once it is durable.
async fn command<F>(state: AppState, request: ApiRequest, f: F) -> Response
where
    F: FnOnce(&WriteTables<'_>, &Actor, &Params, i64) -> ApiResult<Outcome> + Send + 'static,
{
    let store = state.store.clone();
    let site = state.site.clone();
    let authenticated = tokio::task::spawn_blocking(move || {
        let actor = store.read(|tables| authenticate(tables, &request)).map(|a| with_realm_url(&site, a));
        (actor, request)
    })
    .await;
    let (actor, request) = match authenticated {
        Ok((Ok(actor), request)) => (actor, request),
        Ok((Err(err), _)) => return respond::error(&err),
        Err(join) => return respond::error(&ApiError::internal(join)),
    };
    let params = request.params;
    let now = now();
    let result = state
        .writer
        .submit(Box::new(move |tables| {
            let actor = refresh(tables, &actor)?;
            let mut outcome = f(tables, &actor, &params, now)?;
            respond::note_ignored(&mut outcome, params.ignored());
            Ok(outcome)
        }))
        .await;
    // Events are delivered by the event system (the real-time issue); until then they are
    // computed and dropped here, after the commit.
    respond::outcome(result)
}

async fn server_settings(State(state): State<AppState>, request: ApiRequest) -> Response {
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

async fn fetch_api_key(State(state): State<AppState>, request: ApiRequest) -> Response {
    let store = state.store.clone();
    let limiter = state.login_failures.clone();
    let joined = tokio::task::spawn_blocking(move || {
        store.read(|tables| {
            let username: String = request.params.required("username")?;
            let password: String = request.params.required("password")?;
            let realm = host_organization(tables, &request)?.valid()?;
            let mut limiter = limiter.lock().map_err(|_| ApiError::internal("login limiter poisoned"))?;
            let mut outcome = api::fetch_api_key::fetch_api_key(
                tables,
                &realm,
                &username,
                |hash| secrets::verify_password(&password, hash),
                &mut limiter,
                now(),
            )?;
            respond::note_ignored(&mut outcome, request.params.ignored());
            Ok(outcome)
        })
    })
    .await;
    respond::outcome(joined.unwrap_or_else(|e| Err(ApiError::internal(e))))
}

async fn get_own_user(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::users::get_own_user(t, actor)).await
}

async fn get_users(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::users::get_users(t, actor)).await
}

async fn get_user(State(state): State<AppState>, Path(user): Path<String>, request: ApiRequest) -> Response {
    query(state, request, move |t, actor, _| {
        api::users::get_user(t, actor, api::users::UserRef::parse(&user))
    })
    .await
}

async fn create_user(State(state): State<AppState>, request: ApiRequest) -> Response {
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
fn user_id_segment(segment: &str) -> ApiResult<confab_core::ids::UserId> {
    segment.parse::<u64>().map(confab_core::ids::UserId).map_err(|_| ApiError::no_such_user())
}

async fn deactivate_user(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::users::deactivate_user(t, actor, user_id_segment(&user)?)
    })
    .await
}

async fn deactivate_own_user(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, _, _| api::users::deactivate_own_user(t, actor)).await
}

async fn reactivate_user(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::users::reactivate_user(t, actor, user_id_segment(&user)?)
    })
    .await
}

async fn get_subscriptions(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::subscriptions::get_subscriptions).await
}

async fn subscribe(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| api::subscriptions::subscribe(t, actor, params, now))
        .await
}

async fn unsubscribe(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::subscriptions::unsubscribe(t, actor, params)).await
}

async fn get_streams(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::streams::get_streams).await
}

async fn get_stream_id(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::streams::get_stream_id).await
}

async fn send_message(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| api::messages::send_message(t, actor, params, now)).await
}

async fn get_messages(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::messages::get_messages).await
}

async fn get_message(State(state): State<AppState>, Path(id): Path<String>, request: ApiRequest) -> Response {
    query(state, request, move |t, actor, params| {
        api::messages::get_message(t, actor, message_id_segment(&id)?, params)
    })
    .await
}

async fn update_message_flags(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::messages::update_message_flags(t, actor, params)).await
}

async fn update_message_flags_for_narrow(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| {
        api::messages::update_message_flags_for_narrow(t, actor, params)
    })
    .await
}

async fn mark_all_as_read(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, _, _| api::messages::mark_all_as_read(t, actor)).await
}

async fn mark_stream_as_read(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::messages::mark_stream_as_read(t, actor, params)).await
}

async fn mark_topic_as_read(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::messages::mark_topic_as_read(t, actor, params)).await
}

/// A numeric id from a path segment; anything else answers as a missing message.
fn message_id_segment(segment: &str) -> ApiResult<MessageId> {
    segment.parse::<u64>().map(MessageId).map_err(|_| ApiError::invalid_message())
}

/// A numeric channel id from a path segment.
fn stream_id_segment(segment: &str) -> ApiResult<confab_core::ids::StreamId> {
    segment
        .parse::<u64>()
        .map(confab_core::ids::StreamId)
        .map_err(|_| ApiError::bad_request("Invalid channel ID"))
}

async fn update_message(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, now| {
        api::messages::update_message(t, actor, message_id_segment(&id)?, params, now)
    })
    .await
}

async fn delete_message(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, now| {
        api::messages::delete_message(t, actor, message_id_segment(&id)?, now)
    })
    .await
}

async fn get_message_history(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, params| {
        api::messages::get_message_history(t, actor, message_id_segment(&id)?, params)
    })
    .await
}

async fn get_stream_topics(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, params| {
        api::messages::get_stream_topics(t, actor, stream_id_segment(&id)?, params)
    })
    .await
}

async fn delete_topic(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::messages::delete_topic(t, actor, stream_id_segment(&id)?, params)
    })
    .await
}

async fn report_message(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, now| {
        api::messages::report_message(t, actor, message_id_segment(&id)?, params, now)
    })
    .await
}

async fn update_subscription_settings(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| {
        api::subscription_properties::update_subscription_settings(t, actor, params)
    })
    .await
}

/// A user group id from a path segment; anything else answers as a missing group.
fn group_id_segment(segment: &str) -> ApiResult<confab_core::ids::UserGroupId> {
    segment
        .parse::<u64>()
        .map(confab_core::ids::UserGroupId)
        .map_err(|_| ApiError::bad_request("Invalid user group"))
}

async fn get_user_groups(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::user_groups::get_user_groups).await
}

async fn create_user_group(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| {
        api::user_groups::create_user_group(t, actor, params, now)
    })
    .await
}

async fn update_user_group(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::user_groups::update_user_group(t, actor, group_id_segment(&id)?, params)
    })
    .await
}

async fn deactivate_user_group(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::user_groups::deactivate_user_group(t, actor, group_id_segment(&id)?)
    })
    .await
}

async fn update_user_group_members(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::user_groups::update_user_group_members(t, actor, group_id_segment(&id)?, params)
    })
    .await
}

async fn update_user_group_subgroups(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::user_groups::update_user_group_subgroups(t, actor, group_id_segment(&id)?, params)
    })
    .await
}

async fn get_user_group_members(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, params| {
        api::user_groups::get_user_group_members(t, actor, group_id_segment(&id)?, params)
    })
    .await
}

async fn get_is_user_group_member(
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

async fn get_user_group_subgroups(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, params| {
        api::user_groups::get_user_group_subgroups(t, actor, group_id_segment(&id)?, params)
    })
    .await
}

async fn get_stream_by_id(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, _| {
        api::channel_admin::get_stream_by_id(t, actor, stream_id_segment(&id)?)
    })
    .await
}

async fn get_subscribers(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, _| {
        api::channel_admin::get_subscribers(t, actor, stream_id_segment(&id)?)
    })
    .await
}

async fn update_stream(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::channel_admin::update_stream(t, actor, stream_id_segment(&id)?, params)
    })
    .await
}

async fn archive_stream(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::channel_admin::archive_stream(t, actor, stream_id_segment(&id)?)
    })
    .await
}

async fn update_user(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        let target =
            user.parse::<u64>().map(confab_core::ids::UserId).map_err(|_| ApiError::no_such_user())?;
        api::user_updates::update_user(t, actor, target, params)
    })
    .await
}

async fn get_alert_words(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::alert_words::get_alert_words(t, actor)).await
}

async fn add_alert_words(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::alert_words::add_alert_words(t, actor, params)).await
}

async fn remove_alert_words(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::alert_words::remove_alert_words(t, actor, params))
        .await
}

async fn update_settings(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::settings::update_settings(t, actor, params)).await
}

async fn create_channel(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| api::channels::create_channel(t, actor, params, now))
        .await
}

async fn add_reaction(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::messages::add_reaction(t, actor, message_id_segment(&id)?, params)
    })
    .await
}

async fn remove_reaction(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::messages::remove_reaction(t, actor, message_id_segment(&id)?, params)
    })
    .await
}

async fn get_linkifiers(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::linkifiers::get_linkifiers(t, actor)).await
}

async fn add_linkifier(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::linkifiers::add_linkifier(t, actor, params)).await
}

async fn reorder_linkifiers(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::linkifiers::reorder_linkifiers(t, actor, params)).await
}

/// A linkifier id from a path segment; anything else answers as a missing linkifier.
fn linkifier_id_segment(segment: &str) -> ApiResult<u64> {
    segment.parse::<u64>().map_err(|_| ApiError::bad_request("Linkifier not found."))
}

async fn update_linkifier(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, params, _| {
        api::linkifiers::update_linkifier(t, actor, linkifier_id_segment(&id)?, params)
    })
    .await
}

async fn remove_linkifier(
    State(state): State<AppState>,
    Path(id): Path<String>,
    request: ApiRequest,
) -> Response {
    command(state, request, move |t, actor, _, _| {
        api::linkifiers::remove_linkifier(t, actor, linkifier_id_segment(&id)?)
    })
    .await
}

async fn render_message(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::messages::render).await
}

async fn check_messages_match_narrow(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, api::messages::check_messages_match_narrow).await
}

async fn update_realm(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::realm::update_realm(t, actor, params)).await
}

async fn update_presence(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, now| api::presence::update_presence(t, actor, params, now))
        .await
}

async fn get_presence(State(state): State<AppState>, request: ApiRequest) -> Response {
    query(state, request, |t, actor, _| api::presence::get_presence(t, actor, now())).await
}

async fn get_user_presence(
    State(state): State<AppState>,
    Path(user): Path<String>,
    request: ApiRequest,
) -> Response {
    query(state, request, move |t, actor, _| {
        api::presence::get_user_presence(t, actor, api::users::UserRef::parse(&user))
    })
    .await
}

async fn set_typing_status(State(state): State<AppState>, request: ApiRequest) -> Response {
    command(state, request, |t, actor, params, _| api::typing::set_typing_status(t, actor, params)).await
}
