//! PATCH /settings `old_password`, `new_password`: a signed-in user changes their password, as
//! Zulip's `json_change_settings` does it.
//!
//! The old password is checked as a login checks it: through the host's (slow, deliberately)
//! hash check, counted against the username in Zulip's `authenticate_by_username` limit, so the
//! settings page is no side door for guessing. The host hashes the new password off the writer
//! and [`change_password`] stores the hash with the other settings.

use crate::api::fetch_api_key::login_limit_key;
use crate::api::invites::signup;
use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::rate_limit::Limiter;
use crate::store::{Change, Store};

/// Checks a password change before the host hashes the new password: the old password must
/// match (`old_password_matches` is given the stored hash, `None` for an account without a
/// password, and is called once), and the new one must be strong enough. Errors are Zulip's.
pub fn check_password_change(
    store: &impl Store,
    actor: &Actor,
    old_password_matches: impl FnOnce(Option<&str>) -> bool,
    new_password: &str,
    limiter: &mut Limiter<String>,
    now_ms: i64,
) -> ApiResult<()> {
    let key = login_limit_key(&actor.realm, &actor.user.delivery_email);
    if let Err(limited) = limiter.attempt(&key, now_ms) {
        return Err(ApiError::bad_request(format!(
            "You're making too many attempts! Try again in {} seconds.",
            limited.retry_after_secs.ceil() as u64
        )));
    }
    let credentials = store.credentials(actor.user.id)?;
    let hash = credentials.as_ref().and_then(|c| c.password_hash.as_deref());
    let matches = old_password_matches(hash);
    if hash.is_none() || !matches {
        return Err(ApiError::bad_request("Wrong password!"));
    }
    limiter.clear(&key);
    signup::check_password(new_password).map_err(|_| ApiError::bad_request("New password is too weak!"))
}

/// Stores the new password's hash (made by the host after [`check_password_change`]). The API
/// key stays: Zulip keeps it too, and clients signed in with it go on.
pub fn change_password(store: &impl Store, actor: &Actor, password_hash: String) -> ApiResult<Outcome> {
    let credentials =
        store.credentials(actor.user.id)?.ok_or_else(|| ApiError::internal("a user without credentials"))?;
    let changed = crate::model::Credentials { password_hash: Some(password_hash), ..credentials };
    Ok(Outcome { changes: vec![Change::PutCredentials(actor.user.id, changed)], ..Outcome::default() })
}
