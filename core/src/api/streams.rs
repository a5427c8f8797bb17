//! GET /streams         get_streams
//! GET /get_stream_id   get_stream_id
//!
//! Also the channel rules other endpoints share: name checks, lookups and access.

use serde_json::Value;

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::groups::Groups;
use crate::ids::{StreamId, UserId};
use crate::model::{Stream, User};
use crate::params::Params;
use crate::store::Store;
use crate::wire;

/// Zulip's `MAX_NAME_LENGTH` for channels, in code points.
pub const MAX_STREAM_NAME_LENGTH: usize = 60;
/// Zulip's `MAX_DESCRIPTION_LENGTH` for channels.
pub const MAX_STREAM_DESCRIPTION_LENGTH: usize = 1024;

/// Checks and normalizes a channel name as Zulip's `check_stream_name` does.
pub fn check_stream_name(name: &str) -> ApiResult<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::bad_request("Channel name can't be empty."));
    }
    if name.chars().count() > MAX_STREAM_NAME_LENGTH {
        return Err(ApiError::bad_request(format!(
            "Channel name too long (limit: {MAX_STREAM_NAME_LENGTH} characters)."
        )));
    }
    if let Some(position) = name.chars().position(is_forbidden_char) {
        return Err(ApiError::bad_request(format!(
            "Invalid character in channel name, at position {}.",
            position + 1
        )));
    }
    Ok(name.to_owned())
}

/// Control characters, surrogates (never in a Rust `str`) and Unicode non-characters.
pub fn is_forbidden_char(c: char) -> bool {
    let code = c as u32;
    c.is_control() || (0xFDD0..=0xFDEF).contains(&code) || (code & 0xFFFE) == 0xFFFE
}

/// Who sees a channel's metadata change: for a public channel every active member but guests
/// (and subscribed guests); for a private one its subscribers and the administrators.
pub fn metadata_watchers(store: &impl Store, stream: &Stream) -> ApiResult<Vec<UserId>> {
    let subscribers = store.stream_subscribers(stream.id)?;
    let mut users: Vec<UserId> = store
        .realm_users(stream.realm_id)?
        .into_iter()
        .filter(|u| u.is_active && (u.is_admin() || (stream.is_public() && !u.is_guest())))
        .map(|u| u.id)
        .collect();
    users.extend(subscribers);
    users.sort_unstable();
    users.dedup();
    Ok(users)
}

/// Whether `user` may see the channel and its messages: public channels for non-guests,
/// otherwise only subscribers. Administrators see private channels' metadata but not content.
pub fn has_content_access(store: &impl Store, user: &User, stream: &Stream) -> ApiResult<bool> {
    if stream.realm_id != user.realm_id {
        return Ok(false);
    }
    if user.is_spectator() {
        return Ok(stream.is_web_public);
    }
    if stream.is_public() && !user.is_guest() {
        return Ok(true);
    }
    is_subscribed(store, user.id, stream.id)
}

/// Whether the user has an active subscription.
pub fn is_subscribed(store: &impl Store, user: UserId, stream: StreamId) -> ApiResult<bool> {
    Ok(store.subscription(user, stream)?.is_some_and(|s| s.active))
}

/// Finds a channel of the actor's organization by id; other organizations' ids act as missing.
pub fn stream_in_realm(store: &impl Store, actor: &Actor, id: StreamId) -> ApiResult<Option<Stream>> {
    Ok(store.stream(id)?.filter(|s| s.realm_id == actor.realm.id))
}

/// Finds a channel of the actor's organization by name (case-insensitive).
pub fn stream_by_name(store: &impl Store, actor: &Actor, name: &str) -> ApiResult<Option<Stream>> {
    match store.stream_by_name(actor.realm.id, name.trim())? {
        Some(id) => stream_in_realm(store, actor, id),
        None => Ok(None),
    }
}

/// `GET /streams` (spec 4.16).
pub fn get_streams(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let include_public = params.or("include_public", true)?;
    let include_web_public = params.or("include_web_public", false)?;
    let include_subscribed = params.or("include_subscribed", true)?;
    let exclude_archived = params.or("exclude_archived", true)?;
    let include_all = params.or("include_all", false)? || params.or("include_all_active", false)?;
    let include_can_access_content = params.or("include_can_access_content", false)?;
    let include_default = params.or("include_default", false)?;
    // A bot may list the channels its owner is subscribed to.
    let owner = match (params.or("include_owner_subscribed", false)?, actor.user.bot_owner_id) {
        (true, Some(owner)) if actor.user.is_bot() => Some(owner),
        _ => None,
    };
    if params.or("include_all_active", false)? && !actor.user.is_admin() {
        return Err(ApiError::insufficient_permission());
    }
    let user = &actor.user;
    let groups = Groups::load(store, actor.realm.id)?;
    let mut streams = Vec::new();
    for stream in store.realm_streams(actor.realm.id)? {
        if exclude_archived && stream.is_archived {
            continue;
        }
        let subscribed = is_subscribed(store, user.id, stream.id)?;
        let listed = (include_public && stream.is_public() && !user.is_guest())
            || (include_web_public && stream.is_web_public)
            || (include_subscribed && subscribed)
            || (include_all && (user.is_admin() || stream.is_public() && !user.is_guest() || subscribed))
            || (include_can_access_content && has_content_access(store, user, &stream)?)
            || (include_default && stream.is_default)
            || owner.map_or(Ok(false), |owner| is_subscribed(store, owner, stream.id))?;
        if listed {
            streams.push(wire::stream(&groups, &stream));
        }
    }
    Ok(Outcome::default().reply("streams", Value::Array(streams)))
}

/// `GET /get_stream_id?stream=NAME`.
pub fn get_stream_id(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let name: String = params.required("stream")?;
    let invalid = || ApiError::bad_request(format!("Invalid channel name '{name}'"));
    let stream = stream_by_name(store, actor, &name)?.ok_or_else(invalid)?;
    if !stream.is_public() && !is_subscribed(store, actor.user.id, stream.id)? && !actor.user.is_admin() {
        return Err(invalid());
    }
    Ok(Outcome::default().reply("stream_id", stream.id.0))
}

#[cfg(test)]
mod tests {
    use super::check_stream_name;

    #[test]
    fn channel_names_are_trimmed_and_checked_as_zulip_does() {
        let cases: &[(&str, Result<&str, &str>)] = &[
            ("  general ", Ok("general")),
            ("", Err("Channel name can't be empty.")),
            ("   ", Err("Channel name can't be empty.")),
            ("a\u{0}b", Err("Invalid character in channel name, at position 2.")),
            ("x\u{FFFF}", Err("Invalid character in channel name, at position 2.")),
        ];
        for (input, expected) in cases {
            let got = check_stream_name(input).map_err(|e| e.msg);
            assert_eq!(got.as_deref().map_err(String::as_str), *expected, "input {input:?}");
        }
        let long = "x".repeat(61);
        assert_eq!(
            check_stream_name(&long).map_err(|e| e.msg),
            Err("Channel name too long (limit: 60 characters).".to_owned())
        );
        assert!(check_stream_name(&"é".repeat(60)).is_ok(), "lengths count code points");
    }
}
