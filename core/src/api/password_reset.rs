//! Resetting a forgotten password by email (Zulip's `/accounts/password/reset/` flow): asking
//! mails a link to the account's address; the link's page sets a new password. The host serves
//! the pages (`host-native/src/http/routes/password_reset.rs`) and makes the random key.
//!
//! One link per account at a time, kept as the account's `PasswordReset` record (so it needs no
//! table of its own) with the SHA-256 of its key, not the key: a copy of the database holds no
//! working link. A link works for [`LINK_LIFETIME_SECS`] and once, and a newer request replaces
//! it (Zulip's tokens, from Django, end when the password changes: here a link is the only way
//! to change it).
//!
//! Asking never says whether an account has the address: the page answers the same, and only
//! an account's owner gets mail.

use serde_json::json;

use crate::command::{Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::model::{Credentials, Realm, RecordKind, User};
use crate::store::{Change, Store};

/// How long a link works: Zulip's default (`PASSWORD_RESET_TIMEOUT`, a day).
pub const LINK_LIFETIME_SECS: i64 = 24 * 60 * 60;

fn key_digest(key: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(key.as_bytes()).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The link's path under the organization's URL.
pub fn link_path(user: UserId, key: &str) -> String {
    format!("/accounts/password/reset/{user}/{key}/")
}

/// `POST /accounts/password/reset/`: mails a link to the active human account with this
/// address in `realm`, if there is one; otherwise does nothing, visibly the same.
pub fn request_reset(
    store: &impl Store,
    realm: &Realm,
    realm_url: &str,
    email: &str,
    key: &str,
    now: i64,
) -> ApiResult<Outcome> {
    let found = match store.user_by_delivery_email(realm.id, email.trim())? {
        Some(id) => store.user(id)?,
        None => None,
    };
    let Some(user) = found.filter(|u| u.is_active && !u.is_bot() && u.realm_id == realm.id) else {
        return Ok(Outcome::default());
    };
    let value = json!({"key_sha256": key_digest(key), "expires_at": now + LINK_LIFETIME_SECS});
    let link = format!("{}{}", realm_url.trim_end_matches('/'), link_path(user.id, key));
    let email = crate::emails::password_reset(&user, realm, realm_url, &link);
    Ok(Outcome {
        changes: vec![Change::PutRecord { user: user.id, kind: RecordKind::PasswordReset, id: 0, value }],
        events: vec![Event::Email(email)],
        ..Outcome::default()
    })
}

/// The account a link resets, or `None` when the link does not work (unknown, used, replaced
/// by a newer one, or expired).
pub fn account_for_link(
    store: &impl Store,
    realm: &Realm,
    user: UserId,
    key: &str,
    now: i64,
) -> ApiResult<Option<User>> {
    let Some(account) = store.user(user)?.filter(|u| u.realm_id == realm.id && u.is_active) else {
        return Ok(None);
    };
    let works = store.records(user, RecordKind::PasswordReset)?.iter().any(|(_, record)| {
        record["key_sha256"].as_str() == Some(key_digest(key).as_str())
            && record["expires_at"].as_i64().is_some_and(|expires| now < expires)
    });
    Ok(works.then_some(account))
}

/// The link's form sent: sets the password (hashed by the host) and uses the link up.
pub fn reset_password(
    store: &impl Store,
    realm: &Realm,
    user: UserId,
    key: &str,
    password_hash: String,
    now: i64,
) -> ApiResult<Outcome> {
    let account = account_for_link(store, realm, user, key, now)?
        .ok_or_else(|| ApiError::bad_request("The password reset link has expired or been used."))?;
    let credentials = store.credentials(account.id)?.ok_or_else(|| ApiError::internal("no credentials"))?;
    let changed = Credentials { password_hash: Some(password_hash), ..credentials };
    Ok(Outcome {
        changes: vec![
            Change::PutCredentials(account.id, changed),
            Change::DeleteRecord { user: account.id, kind: RecordKind::PasswordReset, id: 0 },
        ],
        ..Outcome::default()
    })
}
