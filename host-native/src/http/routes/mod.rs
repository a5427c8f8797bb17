//! The route table and the two ways a handler runs: a query on a read snapshot, or a command
//! through the writer. Handlers only translate; the rules are in `confab_core::api`.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use confab_core::api::{self, users::NewUser};
use confab_core::ids::MessageId;
use confab_core::model::{Realm, Role};
use confab_core::params::Params;
use confab_core::subdomains::Site;
use confab_core::{Actor, ApiError, ApiResult, Outcome};

use super::auth::{authenticate, host_organization, refresh};
use super::path::Path;
use super::request::ApiRequest;
use super::{AppState, now, respond};
use crate::secrets;
use crate::store::{ReadTables, Store, WriteTables};

mod channels;
mod groups;
mod images;
mod invites;
mod messages;
mod organization;
mod pages;
mod password_reset;
mod personal;
mod profile;
mod scheduled;
mod uploads;
mod users;
mod web_client;

use channels::*;
use groups::*;
use images::*;
use invites::*;
use messages::*;
use organization::*;
use personal::*;
use profile::*;
use scheduled::*;
pub(crate) use uploads::thumbnail_upload;
use uploads::*;
use users::*;
use web_client::*;

pub fn router() -> Router<AppState> {
    let v1 = Router::new()
        .route("/server_settings", get(server_settings).post(server_settings))
        .route("/fetch_api_key", axum::routing::post(fetch_api_key))
        .route("/register", axum::routing::post(super::events::register_queue))
        .route("/events", get(super::events::get_events).delete(super::events::delete_queue))
        .route("/users/me", get(get_own_user).delete(deactivate_own_user))
        .route("/users", get(get_users).post(create_user))
        .route("/bots", get(get_bots).post(add_bot))
        .route("/bots/{bot}", axum::routing::patch(update_bot).delete(deactivate_bot))
        .route("/bots/{bot}/api_key/regenerate", axum::routing::post(regenerate_bot_api_key))
        .route("/users/{user}", get(get_user).patch(update_user).delete(deactivate_user))
        .route("/users/{user}/reactivate", axum::routing::post(reactivate_user))
        .route("/users/me/subscriptions", get(get_subscriptions).post(subscribe).delete(unsubscribe))
        .route("/users/me/subscriptions/properties", axum::routing::post(update_subscription_settings))
        .route("/streams", get(get_streams))
        .route("/channels/create", axum::routing::post(create_channel))
        .route("/streams/{stream_id}", get(get_stream_by_id).patch(update_stream).delete(archive_stream))
        .route("/streams/{stream_id}/members", get(get_subscribers))
        .route("/streams/{stream_id}/email_address", get(get_stream_email_address))
        .route("/users/{user}/subscriptions/{stream_id}", get(get_subscription_status))
        .route("/get_stream_id", get(get_stream_id))
        .route("/default_streams", axum::routing::post(add_default_stream).delete(remove_default_stream))
        .route("/default_stream_groups/create", axum::routing::post(create_default_stream_group))
        .route(
            "/default_stream_groups/{group_id}",
            axum::routing::patch(update_default_stream_group_info).delete(remove_default_stream_group),
        )
        .route(
            "/default_stream_groups/{group_id}/streams",
            axum::routing::patch(update_default_stream_group_streams),
        )
        .route("/channel_folders", get(get_channel_folders).patch(reorder_channel_folders))
        .route("/channel_folders/create", axum::routing::post(create_channel_folder))
        .route("/channel_folders/{folder_id}", axum::routing::patch(update_channel_folder))
        .route("/messages", get(get_messages).post(send_message))
        .route("/messages/{message_id}", get(get_message).patch(update_message).delete(delete_message))
        .route("/messages/{message_id}/history", get(get_message_history))
        .route("/messages/{message_id}/report", axum::routing::post(report_message))
        .route("/messages/{message_id}/typing", axum::routing::post(set_edit_typing_status))
        .route("/messages/{message_id}/read_receipts", get(get_read_receipts))
        .route("/messages/{message_id}/reactions", axum::routing::post(add_reaction).delete(remove_reaction))
        .route("/messages/render", axum::routing::post(render_message))
        .route("/submessage", axum::routing::post(process_submessage))
        .route("/messages/matches_narrow", get(check_messages_match_narrow))
        .route("/realm", axum::routing::patch(update_realm))
        .route("/realm/deactivate", axum::routing::post(deactivate_realm))
        .route("/realm/test_welcome_bot_custom_message", axum::routing::post(test_welcome_bot_custom_message))
        .route("/calls/zoom/create", axum::routing::post(make_zoom_video_call))
        .route("/calls/bigbluebutton/create", axum::routing::post(get_bigbluebutton_url))
        .route("/realm/user_settings_defaults", axum::routing::patch(update_realm_user_settings_defaults))
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
        .route("/realm/playgrounds", axum::routing::post(add_playground))
        .route("/realm/playgrounds/{playground_id}", axum::routing::delete(remove_playground))
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
        .route("/drafts", get(get_drafts).post(create_drafts))
        .route("/drafts/{draft_id}", axum::routing::patch(edit_draft).delete(delete_draft))
        .route("/saved_snippets", get(get_saved_snippets).post(create_saved_snippet))
        .route(
            "/saved_snippets/{snippet_id}",
            axum::routing::patch(edit_saved_snippet).delete(delete_saved_snippet),
        )
        .route("/navigation_views", get(get_navigation_views).post(add_navigation_view))
        .route(
            "/navigation_views/{*fragment}",
            axum::routing::patch(update_navigation_view).delete(remove_navigation_view),
        )
        .route("/mobile_push/register", axum::routing::post(register_push_device))
        .route(
            "/users/me/android_push_reg_id",
            axum::routing::post(add_android_push_token).delete(remove_android_push_token),
        )
        .route(
            "/users/me/apns_device_token",
            axum::routing::post(add_apns_device_token).delete(remove_apns_device_token),
        )
        .route(
            "/users/me/ios_push_device_token",
            axum::routing::post(add_apns_device_token).delete(remove_apns_device_token),
        )
        .route("/bot_storage", get(get_bot_storage).put(update_bot_storage).delete(remove_bot_storage))
        .route("/user_uploads", axum::routing::post(upload_file))
        .route("/tus", axum::routing::options(super::tus::options).post(super::tus::create))
        .route("/tus/{id}", axum::routing::head(super::tus::head).patch(super::tus::patch))
        .route("/user_uploads/{realm}/{*path}", get(get_file_temporary_url))
        .route("/attachments", get(get_attachments))
        .route("/attachments/{attachment_id}", axum::routing::delete(remove_attachment))
        .route("/users/me/status", axum::routing::post(update_status))
        .route("/users/me/muted_users/{user}", axum::routing::post(mute_user).delete(unmute_user))
        .route("/user_topics", axum::routing::post(update_user_topic))
        .route("/users/me/subscriptions/muted_topics", axum::routing::patch(mute_topic))
        .route("/users/{user}/status", get(get_user_status).post(update_status_for_user))
        // Custom emoji and avatars (images under /user_avatars/).
        .route("/realm/emoji", get(get_custom_emoji))
        .route(
            "/realm/emoji/{*emoji_name}",
            axum::routing::post(upload_custom_emoji).delete(deactivate_custom_emoji),
        )
        .route("/users/me/avatar", axum::routing::post(set_avatar).delete(delete_avatar))
        // Custom profile fields and users' values for them.
        .route(
            "/realm/profile_fields",
            get(get_custom_profile_fields)
                .post(create_custom_profile_field)
                .patch(reorder_custom_profile_fields),
        )
        .route(
            "/realm/profile_fields/{field_id}",
            axum::routing::patch(update_custom_profile_field).delete(remove_custom_profile_field),
        )
        .route(
            "/users/me/profile_data",
            axum::routing::patch(update_profile_data).delete(remove_profile_data),
        )
        .route("/scheduled_messages", get(get_scheduled_messages).post(create_scheduled_message))
        .route(
            "/scheduled_messages/{scheduled_message_id}",
            axum::routing::patch(update_scheduled_message).delete(delete_scheduled_message),
        )
        .route("/export/realm", get(get_realm_exports).post(export_realm))
        .route("/export/realm/consents", get(get_realm_export_consents))
        .route("/export/realm/{export_id}", axum::routing::delete(delete_realm_export))
        .route("/invites", get(get_invites).post(send_invites))
        .route("/invites/multiuse", axum::routing::post(create_invite_link))
        .route("/invites/multiuse/{invite_id}", axum::routing::delete(revoke_invite_link))
        .route("/invites/{invite_id}", axum::routing::delete(revoke_email_invite))
        .route("/invites/{invite_id}/resend", axum::routing::post(resend_email_invite))
        .route("/reminders", get(get_reminders).post(create_message_reminder))
        .route("/reminders/{reminder_id}", axum::routing::delete(delete_reminder))
        .fallback(unknown_endpoint)
        .method_not_allowed_fallback(method_not_allowed);
    Router::new()
        .nest("/api/v1", v1)
        .route("/user_uploads/temporary/{token}/{filename}", get(serve_temporary))
        .route("/user_uploads/thumbnail/{realm}/{*path}", get(serve_thumbnail))
        .route("/user_uploads/{realm}/{*path}", get(serve_upload))
        .route("/user_avatars/{*path}", get(serve_user_avatar))
        .route("/avatar/{*rest}", get(serve_avatar))
        // What guests see of users hidden from them (`user_access::INACCESSIBLE_USER_AVATAR`).
        .route("/static/images/unknown-user-avatar.png", get(serve_unknown_user_avatar))
        // The browser client, embedded at build time.
        .route("/", get(serve_web_client_page))
        .route("/login/", get(serve_web_client_page))
        .route("/sw.js", get(serve_web_client_worker))
        .route("/calls/bigbluebutton/join", get(join_bigbluebutton))
        // Signing up with an invitation: a reusable link, an email invitation's link.
        .route("/join/{key}/", get(show_join_page).post(join))
        .route("/accounts/do_confirm/{key}", get(show_join_page).post(join))
        // Resetting a forgotten password: the form, then the mailed link's page.
        .route(
            "/accounts/password/reset/",
            get(password_reset::show_reset_request).post(password_reset::request_reset),
        )
        .route(
            "/accounts/password/reset/{user_id}/{key}/",
            get(password_reset::show_reset_form).post(password_reset::reset_password),
        )
        .route("/static/{*path}", get(serve_web_client_static))
        .fallback(unknown_endpoint)
        .method_not_allowed_fallback(method_not_allowed)
        // Multipart bodies carry uploads: their files go to disk as they arrive.
        .layer(axum::extract::DefaultBodyLimit::max(super::MAX_UPLOAD_BODY_BYTES))
}

/// Zulip's text for a method a route does not take (`json_method_not_allowed`); axum adds the
/// `Allow` header.
async fn method_not_allowed() -> Response {
    let refusal = ApiError::bad_request("Method Not Allowed");
    respond::error(&refusal.with_status(StatusCode::METHOD_NOT_ALLOWED.as_u16()))
}

async fn unknown_endpoint() -> Response {
    respond::error(&ApiError::bad_request("Invalid API endpoint").with_status(StatusCode::NOT_FOUND.as_u16()))
}

/// Runs an authenticated read on a snapshot, off the async threads.
async fn query<F>(state: AppState, request: ApiRequest, f: F) -> Response
where
    F: FnOnce(&ReadTables, &Actor, &Params) -> ApiResult<Outcome> + Send + 'static,
{
    let (store, site) = (state.store.clone(), state.site.clone());
    let joined = tokio::task::spawn_blocking(move || read_as_actor(&store, &site, &request, f)).await;
    respond::outcome(joined.unwrap_or_else(|e| Err(ApiError::internal(e))))
}

/// As [`query`], for a read whose answer is megabytes in a large organization (the whole user
/// directory): it is built and serialized on the large answers' threads (see
/// `http/large_answers.rs`), so its JSON tree cannot grow the allocator's per-thread arenas.
async fn large_query<F>(state: AppState, request: ApiRequest, f: F) -> Response
where
    F: FnOnce(&ReadTables, &Actor, &Params) -> ApiResult<Outcome> + Send + 'static,
{
    let (store, site) = (state.store.clone(), state.site.clone());
    let answer = state
        .large_answers
        .build(move || respond::outcome_bytes(read_as_actor(&store, &site, &request, f)?))
        .await;
    match answer {
        Ok(body) => respond::ok_json_parts(body),
        Err(e) => respond::error(&e),
    }
}

/// Authenticates the request on a snapshot and runs `f` on the same snapshot as its actor,
/// noting the parameters it never read.
fn read_as_actor<F>(store: &Store, site: &Site, request: &ApiRequest, f: F) -> ApiResult<Outcome>
where
    F: FnOnce(&ReadTables, &Actor, &Params) -> ApiResult<Outcome>,
{
    store.read(|tables| {
        let actor = authenticate(tables, request).map(|a| with_realm_url(site, a))?;
        let mut outcome = f(tables, &actor, &request.params)?;
        respond::note_ignored(&mut outcome, request.params.ignored());
        Ok(outcome)
    })
}

/// Runs a spectator's read (a request without credentials, on an endpoint open to spectators)
/// on a snapshot: `f` gets the organization the host names and its URL, and core decides what
/// a spectator of it may read.
async fn spectator_query<F>(state: AppState, request: ApiRequest, f: F) -> Response
where
    F: FnOnce(&ReadTables, &Realm, String, &Params) -> ApiResult<Outcome> + Send + 'static,
{
    let store = state.store.clone();
    let site = state.site.clone();
    let joined = tokio::task::spawn_blocking(move || {
        store.read(|tables| {
            let realm = host_organization(tables, &request)?.valid()?;
            let realm_url = site.realm_url(&realm.subdomain);
            let mut outcome = f(tables, &realm, realm_url, &request.params)?;
            respond::note_ignored(&mut outcome, request.params.ignored());
            Ok(outcome)
        })
    })
    .await;
    respond::outcome(joined.unwrap_or_else(|e| Err(ApiError::internal(e))))
}

/// The actor with its organization's URL, as this server is reached.
pub(crate) fn with_realm_url(site: &confab_core::subdomains::Site, actor: Actor) -> Actor {
    let realm_url = site.realm_url(&actor.realm.subdomain);
    Actor { realm_url, ..actor }
}

/// Runs an authenticated command through the writer; answers once it is durable.
async fn command<F>(state: AppState, request: ApiRequest, f: F) -> Response
where
    F: FnOnce(&WriteTables<'_>, &Actor, &Params, i64) -> ApiResult<Outcome> + Send + 'static,
{
    // Events are delivered by the event system (the real-time issue); until then they are
    // computed and dropped here, after the commit.
    respond::outcome(durable_outcome(state, request, f).await)
}

/// As [`command`], for a route that shapes the answer from the durable outcome itself.
async fn durable_outcome<F>(state: AppState, request: ApiRequest, f: F) -> ApiResult<Outcome>
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
        Ok((Err(err), _)) => return Err(err),
        Err(join) => return Err(ApiError::internal(join)),
    };
    // Held until the command is durable: a place in the writer's queue.
    let _ticket = state.writes.admit(actor.user.id)?;
    let params = request.params;
    let now = now();
    state
        .writer
        .submit(Box::new(move |tables| {
            let actor = refresh(tables, &actor)?;
            let mut outcome = f(tables, &actor, &params, now)?;
            respond::note_ignored(&mut outcome, params.ignored());
            Ok(outcome)
        }))
        .await
}

/// Runs a command through the writer and then, once it is durable, a read on a snapshot that
/// sees it; answers with both replies. For a write whose answer is a large read: the read runs
/// in parallel on a blocking thread, not on the writer's. Parameters are parsed once, before
/// either, into what both take.
async fn command_then_query<P, Parse, W, R>(
    state: AppState,
    request: ApiRequest,
    parse: Parse,
    write: W,
    read: R,
) -> Response
where
    P: Send + Sync + 'static,
    Parse: FnOnce(&Params) -> ApiResult<P> + Send + 'static,
    W: FnOnce(&WriteTables<'_>, &Actor, &P, i64) -> ApiResult<Outcome> + Send + 'static,
    R: FnOnce(&ReadTables, &Actor, &P, i64) -> ApiResult<Outcome> + Send + 'static,
{
    let store = state.store.clone();
    let site = state.site.clone();
    let prepared = tokio::task::spawn_blocking(move || {
        let actor = store.read(|tables| authenticate(tables, &request)).map(|a| with_realm_url(&site, a))?;
        let parsed = parse(&request.params)?;
        Ok::<_, ApiError>((actor, parsed, request.params.ignored()))
    })
    .await;
    let (actor, parsed, ignored) = match prepared {
        Ok(Ok(prepared)) => prepared,
        Ok(Err(err)) => return respond::error(&err),
        Err(join) => return respond::error(&ApiError::internal(join)),
    };
    let parsed = std::sync::Arc::new(parsed);
    let now = now();
    let (for_write, written_actor) = (parsed.clone(), actor.clone());
    let written = state
        .writer
        .submit(Box::new(move |tables| {
            let actor = refresh(tables, &written_actor)?;
            write(tables, &actor, &for_write, now)
        }))
        .await;
    let mut outcome = match written {
        Ok(outcome) => outcome,
        Err(err) => return respond::error(&err),
    };
    let store = state.store.clone();
    let answer =
        tokio::task::spawn_blocking(move || store.read(|tables| read(tables, &actor, &parsed, now))).await;
    match answer {
        Ok(Ok(answer)) => outcome.reply.extend(answer.reply),
        Ok(Err(err)) => return respond::error(&err),
        Err(join) => return respond::error(&ApiError::internal(join)),
    }
    respond::note_ignored(&mut outcome, ignored);
    respond::outcome(Ok(outcome))
}
