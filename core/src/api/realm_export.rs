//! The organization data export (Zulip's `realm_export.py` and `export.py`, feature levels
//! 295, 304 and 312).
//!
//! - `POST /export/realm` — `export_realm`
//! - `GET /export/realm` — `get_realm_exports`
//! - `DELETE /export/realm/{export_id}` — `delete_realm_export`
//! - `GET /export/realm/consents` — `get_realm_export_consents`
//!
//! An export is asked for here and made by the host, off the request path: it reads
//! [`pending_exports`], writes [`export_files`] into a `.tar.gz` and records the outcome with
//! [`finish_realm_export`]. Each export is a personal record of the administrator who asked
//! (`RecordKind::RealmExport`), so it needs no table of its own. The file is Confab's own
//! simple format (one JSON file per kind of data, see [`export_files`]), not Zulip's import
//! format.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome, require_admin};
use crate::error::{ApiError, ApiResult};
use crate::ids::{IdKind, MessageId, RealmId, UserId};
use crate::model::{EmailVisibility, MessageKind, RecordKind, Role, User};
use crate::params::Params;
use crate::store::{Change, Direction, MessageIndex, Store};

/// Zulip's `RealmExport.EXPORT_PUBLIC`: public channels and their messages.
pub const EXPORT_PUBLIC: u8 = 1;
/// Zulip's `RealmExport.EXPORT_FULL_WITH_CONSENT`: also what consenting users could read.
pub const EXPORT_FULL_WITH_CONSENT: u8 = 2;
/// Zulip's `EXPORT_LIMIT`: exports an organization may ask for in seven days.
const EXPORTS_PER_WEEK: usize = 5;
const WEEK: i64 = 7 * 24 * 3600;

/// One export as stored: `path_id` names its file under the uploads once made.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RealmExport {
    pub id: u64,
    pub realm_id: RealmId,
    pub acting_user_id: UserId,
    pub export_type: u8,
    pub export_time: i64,
    pub path_id: Option<String>,
    pub failed_timestamp: Option<i64>,
    pub deleted_timestamp: Option<i64>,
    /// Which server is making it, and since when ([`claim_realm_export`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<Claim>,
}

/// A server's claim on making an export: its token (random, per attempt) and when it claimed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub token: String,
    pub at: i64,
}

/// How long a claim holds. A server that died while making an export leaves its claim; after
/// this, another server makes the export instead (an export of a large organization takes
/// minutes, not an hour).
pub const CLAIM_EXPIRES_SECONDS: i64 = 3600;

impl RealmExport {
    /// Whether the server holding `token` may make it now: it is pending, and either claimed
    /// by that token or by no live claim.
    pub fn claimed_by(&self, token: &str) -> bool {
        self.pending() && self.claim.as_ref().is_some_and(|claim| claim.token == token)
    }

    fn pending(&self) -> bool {
        self.path_id.is_none() && self.failed_timestamp.is_none()
    }

    /// As `GET /export/realm` and the `realm_export` event show it.
    fn json(&self, realm_url: &str) -> Value {
        let export_url = match (&self.path_id, self.deleted_timestamp) {
            (Some(path_id), None) => Some(format!("{realm_url}/user_uploads/{path_id}")),
            _ => None,
        };
        json!({
            "id": self.id,
            "export_time": self.export_time,
            "acting_user_id": self.acting_user_id,
            "export_url": export_url,
            "deleted_timestamp": self.deleted_timestamp,
            "failed_timestamp": self.failed_timestamp,
            "pending": self.pending(),
            "export_type": self.export_type,
        })
    }
}

/// The organization's exports, by id.
fn realm_exports(store: &impl Store, realm: RealmId) -> ApiResult<Vec<RealmExport>> {
    let mut exports = Vec::new();
    for user in store.realm_user_ids(realm)? {
        for (_, value) in store.records(user, RecordKind::RealmExport)? {
            if let Ok(export) = serde_json::from_value::<RealmExport>(value) {
                exports.push(export);
            }
        }
    }
    exports.sort_by_key(|e| e.id);
    Ok(exports)
}

fn put(export: &RealmExport) -> Change {
    let value = serde_json::to_value(export).unwrap_or(Value::Null);
    Change::PutRecord { user: export.acting_user_id, kind: RecordKind::RealmExport, id: export.id, value }
}

fn human_admins(store: &impl Store, realm: RealmId) -> ApiResult<Vec<UserId>> {
    Ok(store
        .realm_users(realm)?
        .iter()
        .filter(|u: &&User| u.is_active && !u.is_bot() && u.is_admin())
        .map(|u| u.id)
        .collect())
}

/// The `realm_export` event: the whole list, to the administrators (Zulip's `notify_realm_export`).
fn exports_event(store: &impl Store, realm: RealmId, realm_url: &str) -> ApiResult<Event> {
    let exports: Vec<Value> = realm_exports(store, realm)?.iter().map(|e| e.json(realm_url)).collect();
    Ok(Event::Other {
        users: human_admins(store, realm)?,
        body: json!({"type": "realm_export", "exports": exports}),
    })
}

fn consents(store: &impl Store, user: &User) -> ApiResult<bool> {
    let settings = super::settings::settings_of(store, user)?;
    Ok(settings.get("allow_private_data_export").and_then(Value::as_bool).unwrap_or(false))
}

/// `POST /export/realm`: administrators only; answers the new export's `id`. Zulip's limits:
/// five exports a week; a public export needs an owner whose email administrators may see, a
/// full one an owner who consents.
pub fn export_realm(store: &impl Store, actor: &Actor, params: &Params, now: i64) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let export_type = params.optional::<i64>("export_type")?.unwrap_or(i64::from(EXPORT_PUBLIC));
    let export_type = match u8::try_from(export_type) {
        Ok(t @ (EXPORT_PUBLIC | EXPORT_FULL_WITH_CONSENT)) => t,
        _ => return Err(ApiError::bad_request("Invalid export_type")),
    };
    let exports = realm_exports(store, actor.realm.id)?;
    if exports.iter().filter(|e| e.export_time >= now - WEEK).count() >= EXPORTS_PER_WEEK {
        return Err(ApiError::bad_request("Exceeded rate limit."));
    }
    let users = store.realm_users(actor.realm.id)?;
    let owners: Vec<&User> = users.iter().filter(|u| u.is_active && u.role == Role::Owner).collect();
    if export_type == EXPORT_FULL_WITH_CONSENT {
        let mut any = false;
        for owner in &owners {
            any |= consents(store, owner)?;
        }
        if !any {
            return Err(ApiError::bad_request(
                "Make sure at least one Organization Owner is consenting to the export or contact \
                 the server's administrator for help.",
            ));
        }
    } else if !owners.iter().any(|o| o.email_address_visibility != EmailVisibility::Nobody) {
        return Err(ApiError::bad_request(
            "Make sure at least one Organization Owner allows other Administrators to see their \
             email address or contact the server's administrator for help",
        ));
    }
    let export = RealmExport {
        id: store.next_id(IdKind::Record)?,
        realm_id: actor.realm.id,
        acting_user_id: actor.user.id,
        export_type,
        export_time: now,
        path_id: None,
        failed_timestamp: None,
        deleted_timestamp: None,
        claim: None,
    };
    let mut outcome = Outcome::default().reply("id", export.id);
    outcome.changes.push(put(&export));
    let mut listed = exports;
    listed.push(export);
    let shown: Vec<Value> = listed.iter().map(|e| e.json(&actor.realm_url)).collect();
    outcome.events.push(Event::Other {
        users: human_admins(store, actor.realm.id)?,
        body: json!({"type": "realm_export", "exports": shown}),
    });
    Ok(outcome)
}

/// `GET /export/realm`: administrators only.
pub fn get_realm_exports(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let exports: Vec<Value> =
        realm_exports(store, actor.realm.id)?.iter().map(|e| e.json(&actor.realm_url)).collect();
    Ok(Outcome::default().reply("exports", exports))
}

/// `DELETE /export/realm/{export_id}`: administrators only; a finished export loses its file
/// (the host removes it after the commit, by the path the reply names) and gets its
/// `deleted_timestamp`.
pub fn delete_realm_export(store: &impl Store, actor: &Actor, id: u64, now: i64) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let Some(mut export) = realm_exports(store, actor.realm.id)?.into_iter().find(|e| e.id == id) else {
        return Err(ApiError::bad_request("Invalid data export ID"));
    };
    if export.deleted_timestamp.is_some() {
        return Err(ApiError::bad_request("Export already deleted"));
    }
    if export.failed_timestamp.is_some() {
        return Err(ApiError::bad_request("Export failed, nothing to delete"));
    }
    let Some(path_id) = export.path_id.clone() else {
        return Err(ApiError::bad_request("Export still in progress"));
    };
    export.deleted_timestamp = Some(now);
    let mut outcome = Outcome::default();
    outcome.changes.push(put(&export));
    outcome.reply.insert("removed_path_id".into(), path_id.into());
    let mut event = exports_event(store, actor.realm.id, &actor.realm_url)?;
    if let Event::Other { body, .. } = &mut event
        && let Some(list) = body["exports"].as_array_mut()
    {
        for shown in list.iter_mut().filter(|e| e["id"] == id) {
            *shown = export.json(&actor.realm_url);
        }
    }
    outcome.events.push(event);
    Ok(outcome)
}

/// Exports asked for and not yet made or failed, on every organization, oldest first.
pub fn pending_exports(store: &impl Store) -> ApiResult<Vec<RealmExport>> {
    let mut pending = Vec::new();
    for realm in store.realms()? {
        pending.extend(realm_exports(store, realm.id)?.into_iter().filter(RealmExport::pending));
    }
    pending.sort_by_key(|e| e.id);
    Ok(pending)
}

/// Claims a pending export for the server holding `token`, unless another server's claim on
/// it is younger than [`CLAIM_EXPIRES_SECONDS`]: servers sharing a database each find the
/// pending exports, and the writer's lock lets one claim each. The host makes the export only
/// if the stored record then names its token ([`RealmExport::claimed_by`]).
pub fn claim_realm_export(
    store: &impl Store,
    export: &RealmExport,
    token: &str,
    now: i64,
) -> ApiResult<Outcome> {
    let stored = realm_exports(store, export.realm_id)?.into_iter().find(|e| e.id == export.id);
    let Some(mut stored) = stored.filter(RealmExport::pending) else { return Ok(Outcome::default()) };
    if stored.claim.as_ref().is_some_and(|claim| now < claim.at.saturating_add(CLAIM_EXPIRES_SECONDS)) {
        return Ok(Outcome::default());
    }
    stored.claim = Some(Claim { token: token.to_owned(), at: now });
    let mut outcome = Outcome::default();
    outcome.changes.push(put(&stored));
    Ok(outcome)
}

/// The stored record of an export, as it is now.
pub fn stored_export(store: &impl Store, export: &RealmExport) -> ApiResult<Option<RealmExport>> {
    Ok(realm_exports(store, export.realm_id)?.into_iter().find(|e| e.id == export.id))
}

/// What an export holds, as named JSON files: `realm.json` (the organization), `users.json`
/// (every account, with real emails), `channels.json` (public channels for a public export,
/// every channel for a full one, each with its subscribers), and `messages.json`: the messages
/// of public channels, and for a full export also every message a consenting user received
/// (their private channels and direct messages); nothing only non-consenting users can read.
pub fn export_files(store: &impl Store, export: &RealmExport) -> ApiResult<Vec<(String, Value)>> {
    let realm = store.realm(export.realm_id)?.ok_or_else(|| ApiError::internal("no such organization"))?;
    let full = export.export_type == EXPORT_FULL_WITH_CONSENT;
    let users = store.realm_users(realm.id)?;
    let mut shown_users = Vec::new();
    let mut consenting = Vec::new();
    for user in &users {
        let consented = consents(store, user)?;
        if full && consented && !user.is_bot() {
            consenting.push(user.id);
        }
        shown_users.push(json!({
            "user_id": user.id, "full_name": user.full_name, "email": user.delivery_email,
            "role": user.role.value(), "is_bot": user.is_bot(), "is_active": user.is_active,
            "date_joined": user.date_joined, "allow_private_data_export": consented,
        }));
    }
    let mut channels = Vec::new();
    let mut message_ids: Vec<MessageId> = Vec::new();
    for stream in store.realm_streams(realm.id)? {
        let public = !stream.invite_only;
        if !public && !full {
            continue;
        }
        channels.push(json!({
            "stream_id": stream.id, "name": stream.name, "description": stream.description,
            "invite_only": stream.invite_only, "is_web_public": stream.is_web_public,
            "history_public_to_subscribers": stream.history_public_to_subscribers,
            "date_created": stream.date_created, "is_archived": stream.is_archived,
            "subscribers": store.stream_subscribers(stream.id)?,
        }));
        if public {
            push_every_id(store, &MessageIndex::Recipient(stream.recipient_id), &mut message_ids)?;
        }
    }
    for user in consenting {
        push_every_id(store, &MessageIndex::UserHistory(user), &mut message_ids)?;
    }
    message_ids.sort();
    message_ids.dedup();
    let mut messages = Vec::new();
    for id in message_ids {
        let Some(message) = store.message(id)? else { continue };
        let mut shown = json!({
            "id": message.id, "sender_id": message.sender_id, "timestamp": message.timestamp,
            "content": message.content, "last_edit_timestamp": message.last_edit_timestamp,
        });
        match &message.kind {
            MessageKind::Stream { stream_id, topic } => {
                shown["stream_id"] = json!(stream_id);
                shown["topic"] = json!(topic);
            }
            MessageKind::Direct { participants } => {
                shown["direct_message_participants"] = json!(participants)
            }
        }
        messages.push(shown);
    }
    let about = json!({
        "realm_id": realm.id, "name": realm.name, "subdomain": realm.subdomain,
        "export_id": export.id, "export_type": export.export_type, "export_time": export.export_time,
        "format": "confab-export-1",
    });
    Ok(vec![
        ("realm.json".into(), about),
        ("users.json".into(), Value::Array(shown_users)),
        ("channels.json".into(), Value::Array(channels)),
        ("messages.json".into(), Value::Array(messages)),
    ])
}

/// Records how a made export ended: its file's path id, or the failure (Zulip sets
/// `failed_timestamp`), and tells the administrators. An export deleted or finished meanwhile
/// is left alone.
pub fn finish_realm_export(
    store: &impl Store,
    realm_url: &str,
    export: &RealmExport,
    made: Option<String>,
    now: i64,
) -> ApiResult<Outcome> {
    let stored = realm_exports(store, export.realm_id)?.into_iter().find(|e| e.id == export.id);
    let Some(mut stored) = stored.filter(RealmExport::pending) else { return Ok(Outcome::default()) };
    match made {
        Some(path_id) => stored.path_id = Some(path_id),
        None => stored.failed_timestamp = Some(now),
    }
    let mut outcome = Outcome::default();
    outcome.changes.push(put(&stored));
    let mut event = exports_event(store, export.realm_id, realm_url)?;
    if let Event::Other { body, .. } = &mut event
        && let Some(list) = body["exports"].as_array_mut()
    {
        for shown in list.iter_mut().filter(|e| e["id"] == stored.id) {
            *shown = stored.json(realm_url);
        }
    }
    outcome.events.push(event);
    Ok(outcome)
}

/// Whether `user` may download the export file `path_id`: `None` when it names no export of
/// their organization, else whether they are an administrator.
pub fn may_download_export(store: &impl Store, user: &User, path_id: &str) -> ApiResult<Option<bool>> {
    let found = realm_exports(store, user.realm_id)?
        .into_iter()
        .any(|e| e.deleted_timestamp.is_none() && e.path_id.as_deref() == Some(path_id));
    Ok(found.then_some(user.is_admin()))
}

/// `GET /export/realm/consents`: administrators only; each active human user's
/// `allow_private_data_export`, as `consented` (Zulip's `get_users_export_consents`).
pub fn get_realm_export_consents(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let mut consents = Vec::new();
    for user in store.realm_users(actor.realm.id)?.iter().filter(|u| u.is_active && !u.is_bot()) {
        consents.push(json!({"user_id": user.id, "consented": self::consents(store, user)?}));
    }
    Ok(Outcome::default().reply("export_consents", consents))
}

/// The `realm_export_consent` event a change of `allow_private_data_export` sends: only the
/// organization's active human administrators hear it (Zulip's `get_human_admin_users`).
pub fn consent_event(store: &impl Store, realm: RealmId, user: UserId, consented: bool) -> ApiResult<Event> {
    Ok(Event::Other {
        users: human_admins(store, realm)?,
        body: json!({"type": "realm_export_consent", "user_id": user, "consented": consented}),
    })
}

/// Appends every message id an index holds, oldest first.
fn push_every_id(store: &impl Store, index: &MessageIndex, ids: &mut Vec<MessageId>) -> ApiResult<()> {
    let all = store.message_ids(
        index,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        Direction::Ascending,
    )?;
    for id in all {
        ids.push(id?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::MemoryStore;

    /// An organization with one pending export, asked for by its owner.
    fn pending_export() -> (MemoryStore, RealmExport) {
        let (mut store, realm) = MemoryStore::with_one_organization(None);
        let realm = realm.id;
        let owner = store.realm_user_ids(realm).expect("its users")[0];
        let export = RealmExport {
            id: 1_000,
            realm_id: realm,
            acting_user_id: owner,
            export_type: EXPORT_PUBLIC,
            export_time: 10,
            path_id: None,
            failed_timestamp: None,
            deleted_timestamp: None,
            claim: None,
        };
        store.apply(&put(&export));
        (store, export)
    }

    fn claim(store: &mut MemoryStore, export: &RealmExport, token: &str, now: i64) -> bool {
        let outcome = claim_realm_export(store, export, token, now).expect("a claim");
        store.apply_all(&outcome.changes);
        stored_export(store, export).expect("a read").expect("the export").claimed_by(token)
    }

    #[test]
    fn the_first_server_to_claim_an_export_makes_it_and_the_second_does_not() {
        let (mut store, export) = pending_export();
        assert!(claim(&mut store, &export, "a", 100));
        assert!(!claim(&mut store, &export, "b", 101), "a live claim stands");
        assert!(claim(&mut store, &export, "a", 102), "its holder still holds it");
    }

    #[test]
    fn a_claim_left_by_a_server_that_died_expires() {
        let (mut store, export) = pending_export();
        assert!(claim(&mut store, &export, "a", 100));
        assert!(!claim(&mut store, &export, "b", 100 + CLAIM_EXPIRES_SECONDS - 1));
        assert!(claim(&mut store, &export, "b", 100 + CLAIM_EXPIRES_SECONDS));
    }

    #[test]
    fn a_finished_export_is_claimed_by_nobody() {
        let (mut store, export) = pending_export();
        let finished =
            finish_realm_export(&store, "http://t", &export, Some("exports/1/x.tar.gz".into()), 50)
                .expect("finished");
        store.apply_all(&finished.changes);
        assert!(!claim(&mut store, &export, "a", 100));
    }
}
