//! `GET /messages/{message_id}/read_receipts`: who has read a message, as Zulip's
//! `zerver/views/read_receipts.py` answers it.

use serde_json::Value;

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{MessageId, UserId};
use crate::model::{MessageFlags, RecordKind};
use crate::store::Store;

use super::messages::readable_message;
use super::records::records;

/// The users who read a message the actor can see, when the organization turned read receipts
/// on. Left out, as in Zulip: the sender (who read it by writing it), users who turned off
/// `send_read_receipts`, deactivated users, users who muted the actor (the actor could tell
/// from their instant reads) and users the actor muted.
pub fn read_receipts(store: &impl Store, actor: &Actor, id: MessageId) -> ApiResult<Outcome> {
    let message = readable_message(store, actor, id)?;
    let properties = crate::model::realm_properties::realm_properties(&actor.realm.settings.properties);
    if properties.get("enable_read_receipts") != Some(&Value::Bool(true)) {
        return Err(ApiError::bad_request("Read receipts are disabled in this organization."));
    }
    let muters = store.muters(actor.user.id)?;
    let muted: Vec<UserId> =
        records(store, actor.user.id, RecordKind::MutedUser)?.into_iter().map(|(id, _)| UserId(id)).collect();
    let mut readers = Vec::new();
    for user in store.message_users(id)? {
        if user == message.sender_id || muters.contains(&user) || muted.contains(&user) {
            continue;
        }
        let read = store.message_flags(user, id)?.is_some_and(|f| f.contains(MessageFlags::READ));
        if !read || !store.user(user)?.is_some_and(|u| u.is_active) {
            continue;
        }
        let settings = store.user_settings(user)?;
        if crate::model::settings::user_setting(&settings, "send_read_receipts") == Some(Value::Bool(false)) {
            continue;
        }
        readers.push(user);
    }
    Ok(Outcome::default().reply("user_ids", serde_json::json!(readers)))
}
