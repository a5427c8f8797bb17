//! Zulip's special permissions: powers beyond a user's role that only the server's operator
//! grants (Zulip's `manage.py change_user_role EMAIL can_change_user_emails`; Confab's
//! `confab grant-permission`), never the API. Confab has one, `can_change_user_emails`, which
//! lets an administrator give another user a new email address (`PATCH /users/{id}`
//! `new_email`, feature level 313). Kept as a personal record of the user, so no event is
//! sent: Zulip sends none either.

use serde_json::{Map, Value, json};

use crate::command::Outcome;
use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::model::{RecordKind, User};
use crate::store::{Change, Store};

use super::records::record;

/// Lets an administrator change other users' email addresses.
pub const CAN_CHANGE_USER_EMAILS: &str = "can_change_user_emails";

/// The special permissions there are, with what the operator is told when a grant or a
/// revocation changes nothing (the texts of Zulip's `change_user_role` command).
const PERMISSIONS: [(&str, &str, &str); 1] = [(
    CAN_CHANGE_USER_EMAILS,
    "User can already change user emails for this realm.",
    "User can't change user emails for this realm.",
)];

fn granted(store: &impl Store, user: UserId) -> ApiResult<Map<String, Value>> {
    Ok(match record(store, user, RecordKind::SpecialPermissions, 0)? {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    })
}

/// Whether the user holds a special permission.
pub fn holds(store: &impl Store, user: UserId, permission: &str) -> ApiResult<bool> {
    Ok(granted(store, user)?.get(permission) == Some(&Value::Bool(true)))
}

/// Grants (or revokes) a special permission: the operator's command.
pub fn change_special_permission(
    store: &impl Store,
    user: &User,
    permission: &str,
    grant: bool,
) -> ApiResult<Outcome> {
    let (_, already, never) =
        PERMISSIONS.iter().find(|(name, _, _)| *name == permission).ok_or_else(|| {
            ApiError::bad_request(format!(
                "Unknown special permission '{permission}' (can_change_user_emails)"
            ))
        })?;
    let mut permissions = granted(store, user.id)?;
    match (holds(store, user.id, permission)?, grant) {
        (true, true) => return Err(ApiError::bad_request(*already)),
        (false, false) => return Err(ApiError::bad_request(*never)),
        _ => {}
    }
    if grant {
        permissions.insert(permission.to_owned(), json!(true));
    } else {
        permissions.remove(permission);
    }
    let value = Value::Object(permissions);
    let change = Change::PutRecord { user: user.id, kind: RecordKind::SpecialPermissions, id: 0, value };
    Ok(Outcome { changes: vec![change], ..Outcome::default() })
}
