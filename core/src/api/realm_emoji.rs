//! GET    /realm/emoji                 get_custom_emoji
//! POST   /realm/emoji/{emoji_name}    upload_custom_emoji
//! DELETE /realm/emoji/{emoji_name}    deactivate_custom_emoji
//!
//! An organization's custom emoji (Zulip's `zerver/views/realm_emoji.py`, checks in its order).
//! The host keeps the image under the organization's emoji folder, served without credentials
//! at `/user_avatars/{realm_id}/emoji/images/{file_name}` as Zulip serves it; every change
//! sends the whole list in a `realm_emoji` event, as register's `realm_emoji` shows it.

use serde_json::{Map, Value, json};

use crate::command::{Actor, Event, Outcome, active_user_ids};
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, realm_permission};
use crate::ids::{IdKind, RealmId};
use crate::images::ReceivedImage;
use crate::markdown::{CustomEmoji, unicode_emoji_code};
use crate::model::RealmEmoji;
use crate::store::{Change, IdAllocator, Store};

/// Zulip's `MAX_EMOJI_FILE_SIZE_MIB`.
pub const MAX_EMOJI_FILE_SIZE_MIB: u64 = 5;

/// Where an emoji's image is, under `/user_avatars/` (Zulip's `RealmEmoji.PATH_ID_TEMPLATE`).
pub fn emoji_path(realm: RealmId, file_name: &str) -> String {
    format!("{realm}/emoji/images/{file_name}")
}

/// The URL an emoji's image is served at.
pub fn emoji_url(emoji: &RealmEmoji) -> String {
    format!("/user_avatars/{}", emoji_path(emoji.realm_id, &emoji.file_name))
}

/// The organization's custom emoji as `GET /realm/emoji`, register and the event show them:
/// keyed by id (as a string), deactivated ones included. No still image of animated emoji is
/// made, so `still_url` is always null.
pub fn realm_emoji_json(store: &impl Store, realm: RealmId) -> ApiResult<Value> {
    Ok(Value::Object(emoji_map(store.realm_emoji(realm)?)))
}

fn emoji_map(list: Vec<RealmEmoji>) -> Map<String, Value> {
    list.iter().map(|emoji| (emoji.id.to_string(), emoji_json(emoji))).collect()
}

fn emoji_json(emoji: &RealmEmoji) -> Value {
    json!({
        "id": emoji.id.to_string(),
        "name": emoji.name,
        "source_url": emoji_url(emoji),
        "deactivated": emoji.deactivated,
        "author_id": emoji.author_id,
        "still_url": Value::Null,
    })
}

/// The active custom emoji of an organization, as Markdown renders them.
pub fn active_custom_emoji(store: &impl Store, realm: RealmId) -> ApiResult<Vec<CustomEmoji>> {
    Ok(store
        .realm_emoji(realm)?
        .into_iter()
        .filter(|e| !e.deactivated)
        .map(|e| CustomEmoji { id: e.id, source_url: emoji_url(&e), name: e.name })
        .collect())
}

/// `GET /realm/emoji`: public to everyone in the organization.
pub fn get_custom_emoji(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    Ok(Outcome::default().reply("emoji", realm_emoji_json(store, actor.realm.id)?))
}

/// Zulip's `check_valid_emoji_name`: lowercase letters, digits, dashes and underscores, ending
/// in a letter or digit.
fn check_emoji_name(name: &str) -> ApiResult<()> {
    if name.is_empty() {
        return Err(ApiError::bad_request("Emoji name is missing"));
    }
    if !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_') {
        return Err(ApiError::bad_request(
            "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.",
        ));
    }
    if name.ends_with(['-', '_']) {
        return Err(ApiError::bad_request("Emoji names must end with either a letter or digit."));
    }
    Ok(())
}

/// Zulip's `require_member_or_admin`: guests and bots may not.
fn require_member(actor: &Actor) -> ApiResult<()> {
    if actor.user.is_guest() {
        return Err(ApiError::bad_request("Not allowed for guest users"));
    }
    if actor.user.is_bot() {
        return Err(ApiError::bad_request("This endpoint does not accept bot requests."));
    }
    Ok(())
}

/// Stores `changed` and tells everyone in the organization, with the whole list as it will be
/// (the change is not in the store until the command commits).
fn changed(store: &impl Store, actor: &Actor, changed: RealmEmoji) -> ApiResult<Outcome> {
    let mut list = emoji_map(store.realm_emoji(actor.realm.id)?);
    list.insert(changed.id.to_string(), emoji_json(&changed));
    let event = Event::Other {
        users: active_user_ids(store, actor.realm.id)?,
        body: json!({"type": "realm_emoji", "op": "update", "realm_emoji": Value::Object(list)}),
    };
    Ok(Outcome { changes: vec![Change::PutRealmEmoji(changed)], events: vec![event], ..Outcome::default() })
}

/// `POST /realm/emoji/{emoji_name}` with one image file, which the host has kept under the
/// organization's emoji folder as `file_name`. Spaces in the name count as underscores.
pub fn upload_custom_emoji(
    store: &impl Store,
    actor: &Actor,
    emoji_name: &str,
    files: &[ReceivedImage],
    file_name: &str,
) -> ApiResult<Outcome> {
    require_member(actor)?;
    let name = emoji_name.trim().replace(' ', "_");
    check_emoji_name(&name)?;
    let groups = Groups::load(store, actor.realm.id)?;
    if !realm_permission(&groups, &actor.realm, &actor.user, "can_add_custom_emoji_group")? {
        return Err(ApiError::insufficient_permission());
    }
    if store.realm_emoji(actor.realm.id)?.iter().any(|e| !e.deactivated && e.name == name) {
        return Err(ApiError::bad_request("A custom emoji with this name already exists."));
    }
    let [file] = files else { return Err(ApiError::bad_request("You must upload exactly one file.")) };
    if unicode_emoji_code(&name).is_some() && !actor.user.is_admin() {
        return Err(ApiError::bad_request("Only administrators can override default emoji."));
    }
    if file.size > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024 {
        return Err(ApiError::bad_request(format!(
            "Uploaded file is larger than the allowed limit of {MAX_EMOJI_FILE_SIZE_MIB} MiB"
        )));
    }
    file.check()?;
    let emoji = RealmEmoji {
        id: IdAllocator::new(store, IdKind::RealmEmoji)?.take(),
        realm_id: actor.realm.id,
        name,
        file_name: file_name.to_owned(),
        author_id: Some(actor.user.id),
        deactivated: false,
    };
    changed(store, actor, emoji)
}

/// `DELETE /realm/emoji/{emoji_name}`: deactivates an active emoji; its author or an
/// administrator may. A name with no active emoji answers 404.
pub fn deactivate_custom_emoji(store: &impl Store, actor: &Actor, emoji_name: &str) -> ApiResult<Outcome> {
    let Some(emoji) =
        store.realm_emoji(actor.realm.id)?.into_iter().find(|e| !e.deactivated && e.name == emoji_name)
    else {
        return Err(ApiError::bad_request(format!("Emoji '{emoji_name}' does not exist")).with_status(404));
    };
    if !actor.user.is_admin() && emoji.author_id != Some(actor.user.id) {
        return Err(ApiError::bad_request("Must be an organization administrator or emoji author"));
    }
    changed(store, actor, RealmEmoji { deactivated: true, ..emoji })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emoji_names_follow_zulips_rules() {
        let msg = |name| check_emoji_name(name).map_err(|e| e.msg);
        assert_eq!(msg("party_parrot-2"), Ok(()));
        assert_eq!(msg(""), Err("Emoji name is missing".into()));
        assert_eq!(msg("my_emoji_"), Err("Emoji names must end with either a letter or digit.".into()));
        for bad in ["my_EMoji", "my/emoji", "my_em*oji", "café"] {
            assert_eq!(
                msg(bad),
                Err("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."
                    .into()),
                "{bad}"
            );
        }
    }
}
