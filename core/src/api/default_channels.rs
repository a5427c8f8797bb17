//! POST   /default_streams   add_default_stream
//! DELETE /default_streams   remove_default_stream
//!
//! Default channels: every new user of the organization is subscribed to them. Only public
//! channels may be default; administrators choose them. Clients learn the set from register's
//! `realm_default_streams` (channel ids, as Zulip sends since it stopped sending objects) and
//! `default_streams` events.

use serde_json::json;

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{RealmId, StreamId, UserId};
use crate::model::Stream;
use crate::params::Params;
use crate::store::{Change, Store};

use super::streams::{has_content_access, stream_in_realm};

/// The ids of the organization's default channels, ascending.
pub fn default_stream_ids(store: &impl Store, realm: RealmId) -> ApiResult<Vec<StreamId>> {
    let mut ids: Vec<StreamId> = store
        .realm_streams(realm)?
        .into_iter()
        .filter(|s| s.is_default && !s.is_archived)
        .map(|s| s.id)
        .collect();
    ids.sort_unstable();
    Ok(ids)
}

/// Who hears about the set changing: Zulip keeps it from guests.
pub(super) fn audience(store: &impl Store, realm: RealmId) -> ApiResult<Vec<UserId>> {
    Ok(store.realm_users(realm)?.into_iter().filter(|u| u.is_active && !u.is_guest()).map(|u| u.id).collect())
}

/// The `default_streams` event with the set as it is after the `changed` channels are stored.
pub fn default_streams_event(store: &impl Store, realm: RealmId, changed: &[&Stream]) -> ApiResult<Event> {
    let mut ids: Vec<StreamId> = default_stream_ids(store, realm)?
        .into_iter()
        .filter(|id| changed.iter().all(|c| c.id != *id))
        .collect();
    ids.extend(changed.iter().filter(|c| c.is_default && !c.is_archived).map(|c| c.id));
    ids.sort_unstable();
    Ok(Event::Other {
        users: audience(store, realm)?,
        body: json!({"type": "default_streams", "default_streams": ids}),
    })
}

/// Marks or unmarks a channel as default: the stored change and its event. Nothing when the
/// channel is already so.
pub fn set_default(store: &impl Store, stream: &Stream, default: bool) -> ApiResult<Outcome> {
    if stream.is_default == default {
        return Ok(Outcome::default());
    }
    let changed = Stream { is_default: default, ..stream.clone() };
    let event = default_streams_event(store, stream.realm_id, &[&changed])?;
    Ok(Outcome { changes: vec![Change::PutStream(changed)], events: vec![event], ..Outcome::default() })
}

fn requested_stream(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Stream> {
    if !actor.user.is_admin() {
        return Err(ApiError::administrator_required());
    }
    let id = StreamId(params.required::<u64>("stream_id")?);
    stream_in_realm(store, actor, id)?.ok_or_else(|| ApiError::bad_request("Invalid channel ID"))
}

/// `POST /default_streams`.
pub fn add_default_stream(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let stream = requested_stream(store, actor, params)?;
    // Zulip's access check: administrators reach a private channel's content only as subscribers.
    if stream.invite_only && !has_content_access(store, &actor.user, &stream)? {
        return Err(ApiError::bad_request("Invalid channel ID"));
    }
    if stream.invite_only {
        return Err(ApiError::bad_request("Private channels cannot be made default."));
    }
    if stream.is_archived {
        return Err(ApiError::bad_request("Invalid channel ID"));
    }
    set_default(store, &stream, true)
}

/// `DELETE /default_streams`.
pub fn remove_default_stream(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let stream = requested_stream(store, actor, params)?;
    set_default(store, &stream, false)
}
