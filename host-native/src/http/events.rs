//! POST   /register   register_queue
//! GET    /events     get_events
//! DELETE /events     delete_queue
//!
//! The HTTP side of event queues: authentication, parameters, and waiting. What a queue gets
//! and what register's state holds are decided in core (`events`, `api::register`).

use axum::extract::State;
use axum::response::Response;
use confab_core::api::register::{RegisterOptions, initial_state, parse_register_params, spectator_state};
use confab_core::api::spectators;
use confab_core::events::QueueOwner;
use confab_core::params::Params;
use confab_core::{Actor, ApiError, ApiResult, Outcome};

use super::auth::{authenticate, host_organization};
use super::request::ApiRequest;
use super::{AppState, now, respond};
use crate::events::{Answer, Fetch};

/// Authenticates on a snapshot, off the async threads. The actor is `None` when no
/// credentials were sent at all.
async fn actor_of(state: &AppState, request: ApiRequest) -> ApiResult<(Option<Actor>, ApiRequest)> {
    let (store, site) = (state.store.clone(), state.site.clone());
    tokio::task::spawn_blocking(move || {
        if request.is_anonymous() {
            return Ok((None, request));
        }
        let actor = store.read(|t| authenticate(t, &request))?;
        Ok((Some(super::routes::with_realm_url(&site, actor)), request))
    })
    .await
    .map_err(ApiError::internal)?
}

fn owner(actor: &Actor) -> QueueOwner {
    QueueOwner {
        user: actor.user.id,
        realm: actor.realm.id,
        email: actor.user.email.clone(),
        is_guest: actor.user.is_guest(),
    }
}

/// Makes a queue for `actor`, then reads register's state on a snapshot taken after it exists,
/// so that nothing committed in between is missed (it may arrive twice, as in Zulip). Returns
/// the whole answer's bytes, built and serialized on the large answers' threads, so that its
/// JSON tree is gone before the bytes are sent.
async fn register_and_answer(
    state: &AppState,
    actor: Actor,
    options: RegisterOptions,
    ignored: Vec<String>,
) -> ApiResult<Vec<u8>> {
    let user = actor.user.id;
    let registration = state.events.register(owner(&actor), options.queue_options())?;
    let store = state.store.clone();
    let site = state.site.clone();
    let queue_id = registration.queue_id.clone();
    let joined = state
        .large_answers
        .build(move || {
            let reply = store.read(|tables| initial_state(tables, &actor, &site, &options, now()))?;
            let mut outcome = Outcome { reply, ..Outcome::default() };
            outcome.reply.insert("queue_id".into(), registration.queue_id.into());
            outcome.reply.insert("last_event_id".into(), registration.last_event_id.into());
            respond::note_ignored(&mut outcome, ignored);
            respond::success_bytes(outcome.reply)
        })
        .await;
    if joined.is_err() {
        // No state, no queue: the client will register again.
        let _ = state.events.delete(&queue_id, user);
    }
    joined
}

/// `POST /register` without credentials (spec §5.5): the host must name an organization
/// (Zulip's `Invalid subdomain` otherwise) that admits spectators (401 otherwise, whatever the
/// parameters); then its parameters are checked as a spectator's.
async fn spectator_register(state: &AppState, request: ApiRequest) -> ApiResult<Outcome> {
    let store = state.store.clone();
    let site = state.site.clone();
    tokio::task::spawn_blocking(move || {
        store.read(|t| {
            let realm = host_organization(t, &request)?.valid()?;
            let spectator = spectators::spectator(&realm, site.realm_url(&realm.subdomain))?;
            let options = parse_register_params(&request.params, false)?;
            let state = spectator_state(t, &spectator, &site, &options, now())?;
            let mut outcome = Outcome { reply: state, ..Outcome::default() };
            respond::note_ignored(&mut outcome, request.params.ignored());
            Ok(outcome)
        })
    })
    .await
    .map_err(ApiError::internal)?
}

/// `POST /register` (spec 4.2).
pub async fn register_queue(State(state): State<AppState>, request: ApiRequest) -> Response {
    let (actor, request) = match actor_of(&state, request).await {
        Ok((Some(actor), request)) => (actor, request),
        Ok((None, request)) => return respond::outcome(spectator_register(&state, request).await),
        Err(e) => return respond::error(&e),
    };
    let options = match parse_register_params(&request.params, true) {
        Ok(options) => options,
        Err(e) => return respond::error(&e),
    };
    match register_and_answer(&state, actor, options, request.params.ignored()).await {
        Ok(bytes) => respond::ok_json(bytes),
        Err(e) => respond::error(&e),
    }
}

/// `GET /events` (spec 4.1). Without `queue_id`, `dont_block` requests make a new queue first
/// from register's parameters, as Zulip does; others are refused.
pub async fn get_events(State(state): State<AppState>, request: ApiRequest) -> Response {
    // Boxed, so that the request and the actor are gone from the future that then waits: an
    // async fn keeps room for everything it ever awaited with, and a parked poll should cost
    // little.
    let (fetch, ignored) = match Box::pin(prepare_fetch(&state, request)).await {
        Ok(prepared) => prepared,
        Err(e) => return respond::error(&e),
    };
    let queue_id = fetch.queue_id.clone();
    match state.events.fetch(fetch).await {
        Ok(events) => {
            let ignored = (!ignored.is_empty()).then_some(ignored);
            let body = EventsReply {
                result: "success",
                msg: "",
                events,
                queue_id,
                ignored_parameters_unsupported: ignored,
            };
            respond::serialized(&body)
        }
        Err(e) => respond::error(&e),
    }
}

/// Authenticates and reads get-events' parameters, and the names of those it ignored.
async fn prepare_fetch(state: &AppState, request: ApiRequest) -> ApiResult<(Fetch, Vec<String>)> {
    let (actor, request) = match actor_of(state, request).await? {
        (Some(actor), request) => (actor, request),
        (None, _) => return Err(ApiError::not_logged_in()),
    };
    let fetch = fetch_of(state, &actor, &request.params)?;
    Ok((fetch, request.params.ignored()))
}

/// GET /events' answer, written straight from the events (see `events::Answer`).
#[derive(serde::Serialize)]
struct EventsReply {
    result: &'static str,
    msg: &'static str,
    events: Answer,
    queue_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    ignored_parameters_unsupported: Option<Vec<String>>,
}

fn fetch_of(state: &AppState, actor: &Actor, params: &Params) -> ApiResult<Fetch> {
    let last_event_id: Option<i64> = params.optional("last_event_id")?;
    let dont_block: bool = params.or("dont_block", false)?;
    let queue_id = match params.optional::<String>("queue_id")? {
        Some(id) => id,
        // Zulip makes a queue here only for a request that will not wait on it (its internal
        // registration); a waiting request without a queue would hold a queue nobody knows of.
        None if dont_block => {
            let options = parse_register_params(params, true)?;
            state.events.register(owner(actor), options.queue_options())?.queue_id
        }
        None => return Err(ApiError::bad_request("Missing 'queue_id' argument")),
    };
    Ok(Fetch { queue_id, user: actor.user.id, last_event_id, dont_block })
}

/// `DELETE /events`.
pub async fn delete_queue(State(state): State<AppState>, request: ApiRequest) -> Response {
    let result = actor_of(&state, request).await.and_then(|(actor, request)| {
        let actor = actor.ok_or_else(ApiError::not_logged_in)?;
        let queue_id: String = request.params.required("queue_id")?;
        state.events.delete(&queue_id, actor.user.id)?;
        let mut outcome = Outcome::default();
        respond::note_ignored(&mut outcome, request.params.ignored());
        Ok(outcome)
    });
    respond::outcome(result)
}
