//! POST   /users/me/avatar   set_avatar
//! DELETE /users/me/avatar   delete_avatar
//!
//! A user's own avatar (Zulip's `set_avatar_backend` and `delete_avatar_backend`): one image,
//! kept by the host under the organization's avatar folder and served without credentials at
//! `/user_avatars/{realm_id}/{file_name}`; deleting it brings back the default avatar. Either
//! bumps `avatar_version` and tells everyone in the organization (`realm_user` update).

use serde_json::json;

use crate::command::{Actor, Event, Outcome, active_user_ids};
use crate::error::{ApiError, ApiResult};
use crate::ids::RealmId;
use crate::images::ReceivedImage;
use crate::model::User;
use crate::store::{Change, Store};
use crate::wire;

/// Zulip's `MAX_AVATAR_FILE_SIZE_MIB` (register's `max_avatar_file_size_mib`).
pub const MAX_AVATAR_FILE_SIZE_MIB: u64 = 5;

/// Where an uploaded avatar is, under `/user_avatars/`.
pub fn avatar_path(realm: RealmId, file_name: &str) -> String {
    format!("{realm}/{file_name}")
}

/// Stores the user with their new avatar, and Zulip's avatar form of the `realm_user` update.
fn changed(store: &impl Store, actor: &Actor, avatar: Option<String>) -> ApiResult<Outcome> {
    let user = User { avatar, avatar_version: actor.user.avatar_version + 1, ..actor.user.clone() };
    let url = wire::avatar_url(&user);
    let person = json!({
        "avatar_source": wire::avatar_source(&user),
        "avatar_url": url,
        "avatar_url_medium": url,
        "avatar_version": user.avatar_version,
        "user_id": user.id,
    });
    let event = Event::Other {
        users: active_user_ids(store, actor.realm.id)?,
        body: json!({"type": "realm_user", "op": "update", "person": person}),
    };
    Ok(Outcome { changes: vec![Change::PutUser(user)], events: vec![event], ..Outcome::default() }
        .reply("avatar_url", url))
}

/// `POST /users/me/avatar` with one image file, which the host has kept under the
/// organization's avatar folder as `file_name`. Zulip's medium-size copy is the same image
/// (nothing is resized).
pub fn set_avatar(
    store: &impl Store,
    actor: &Actor,
    files: &[ReceivedImage],
    file_name: &str,
) -> ApiResult<Outcome> {
    let [file] = files else { return Err(ApiError::bad_request("You must upload exactly one avatar.")) };
    if file.size > MAX_AVATAR_FILE_SIZE_MIB * 1024 * 1024 {
        return Err(ApiError::bad_request(format!(
            "Uploaded file is larger than the allowed limit of {MAX_AVATAR_FILE_SIZE_MIB} MiB"
        )));
    }
    file.check()?;
    changed(store, actor, Some(avatar_path(actor.realm.id, file_name)))
}

/// `DELETE /users/me/avatar`: back to the default avatar.
pub fn delete_avatar(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    changed(store, actor, None)
}
