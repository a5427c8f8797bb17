//! GET /streams         get_streams
//! GET /get_stream_id   get_stream_id
//!
//! Also the channel rules other endpoints share: name checks, lookups and access.

use serde_json::Value;

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, channel_setting};
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

/// The channel settings whose members may read a private channel and join it without being
/// subscribed (Zulip's groups granting content access). Guests never hold them.
pub(crate) const CONTENT_ACCESS_SETTINGS: [&str; 2] = ["can_add_subscribers_group", "can_subscribe_group"];

/// The channel settings whose members see a private channel exist (Zulip's
/// `stream_permission_group_settings_granting_metadata_access`). Guests never hold them.
const METADATA_ACCESS_SETTINGS: [&str; 3] =
    ["can_add_subscribers_group", "can_administer_channel_group", "can_subscribe_group"];

/// Who sees a channel and its changes (Zulip's `bulk_can_access_stream_metadata_user_ids`):
/// every active user for a web-public channel; for a public one every active member but guests,
/// and subscribed guests; for a private one its subscribers, the administrators and the
/// members of the settings granting metadata access.
pub fn metadata_watchers(store: &impl Store, groups: &Groups, stream: &Stream) -> ApiResult<Vec<UserId>> {
    let subscribers: std::collections::BTreeSet<UserId> =
        store.stream_subscribers(stream.id)?.into_iter().collect();
    // The members of the settings granting metadata access, each setting's closure read once.
    let mut granted = std::collections::BTreeSet::new();
    if !stream.is_public() {
        for setting in METADATA_ACCESS_SETTINGS {
            granted.extend(groups.setting_members(&channel_setting(groups, stream, setting)?));
        }
    }
    Ok(groups
        .all_users()
        .filter(|u| u.is_active)
        .filter(|u| {
            stream.is_web_public
                || subscribers.contains(&u.id)
                || !u.is_guest() && (stream.is_public() || u.is_admin() || granted.contains(&u.id))
        })
        .map(|u| u.id)
        .collect())
}

/// What access a user has to a channel without asking its group settings, if that decides:
/// other organizations' channels none, spectators the web-public ones, everyone a web-public
/// or subscribed channel, guests nothing else, members every public channel.
fn access_without_groups(store: &impl Store, user: &User, stream: &Stream) -> ApiResult<Option<bool>> {
    if stream.realm_id != user.realm_id {
        return Ok(Some(false));
    }
    if user.is_spectator() {
        return Ok(Some(stream.is_web_public));
    }
    let subscribed = !stream.is_web_public && is_subscribed(store, user.id, stream.id)?;
    Ok(access_if_subscribed(user, stream, subscribed))
}

/// [`access_without_groups`] for a user of the channel's organization, subscribed or not.
fn access_if_subscribed(user: &User, stream: &Stream, subscribed: bool) -> Option<bool> {
    if stream.is_web_public || subscribed {
        return Some(true);
    }
    if user.is_guest() {
        return Some(false);
    }
    stream.is_public().then_some(true)
}

/// Whether a user of the channel's organization who is not subscribed to it has metadata
/// access (see [`has_metadata_access`]): what a user about to join could see before, and what
/// one who left still sees.
pub fn has_metadata_access_unsubscribed(groups: &Groups, user: &User, stream: &Stream) -> ApiResult<bool> {
    match access_if_subscribed(user, stream, false) {
        Some(answer) => Ok(answer),
        None => Ok(user.is_admin() || in_channel_groups(groups, user, stream, &METADATA_ACCESS_SETTINGS)?),
    }
}

/// Whether a non-guest holds one of a channel's group settings (none of which allows guests).
fn in_channel_groups(groups: &Groups, user: &User, stream: &Stream, settings: &[&str]) -> ApiResult<bool> {
    for setting in settings {
        if groups.has_permission(user, &channel_setting(groups, stream, setting)?, false) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether `user` may read the channel's messages (Zulip's `user_has_content_access`):
/// web-public and subscribed channels, public ones for non-guests, and private ones for the
/// members of its `can_add_subscribers_group` and `can_subscribe_group`. Administrators see
/// private channels' metadata but not their content.
pub fn has_content_access(store: &impl Store, user: &User, stream: &Stream) -> ApiResult<bool> {
    if let Some(answer) = access_without_groups(store, user, stream)? {
        return Ok(answer);
    }
    // Both settings are `role:nobody` unless set: most channels need no groups read.
    let set = stream
        .permissions
        .fields()
        .into_iter()
        .any(|(n, s)| CONTENT_ACCESS_SETTINGS.contains(&n) && s.is_some());
    if !set {
        return Ok(false);
    }
    in_channel_groups(&Groups::load(store, stream.realm_id)?, user, stream, &CONTENT_ACCESS_SETTINGS)
}

/// [`has_content_access`] with the organization's groups already read.
pub fn has_content_access_in(
    store: &impl Store,
    groups: &Groups,
    user: &User,
    stream: &Stream,
) -> ApiResult<bool> {
    match access_without_groups(store, user, stream)? {
        Some(answer) => Ok(answer),
        None => in_channel_groups(groups, user, stream, &CONTENT_ACCESS_SETTINGS),
    }
}

/// Whether `user` may see that the channel exists and read its settings and subscribers
/// (Zulip's `user_has_metadata_access`): what content access allows, and for non-guests also
/// private channels they administer, as organization administrators or through the channel's
/// `can_administer_channel_group`.
pub fn has_metadata_access(store: &impl Store, user: &User, stream: &Stream) -> ApiResult<bool> {
    match access_without_groups(store, user, stream)? {
        Some(answer) => Ok(answer),
        None if user.is_admin() => Ok(true),
        None => {
            in_channel_groups(&Groups::load(store, stream.realm_id)?, user, stream, &METADATA_ACCESS_SETTINGS)
        }
    }
}

/// [`has_metadata_access`] with the organization's groups already read.
pub fn has_metadata_access_in(
    store: &impl Store,
    groups: &Groups,
    user: &User,
    stream: &Stream,
) -> ApiResult<bool> {
    match access_without_groups(store, user, stream)? {
        Some(answer) => Ok(answer),
        None => Ok(user.is_admin() || in_channel_groups(groups, user, stream, &METADATA_ACCESS_SETTINGS)?),
    }
}

/// A channel's subscribers who are active users, ascending: those Zulip lists and counts in
/// `subscriber_count` (deactivated users keep their subscriptions, hidden until reactivated).
pub fn active_subscribers(store: &impl Store, stream: &Stream) -> ApiResult<Vec<UserId>> {
    let mut inactive = store.deactivated_users(stream.realm_id)?;
    inactive.sort_unstable();
    active_subscribers_among(store, stream.id, &inactive)
}

/// [`active_subscribers`] with the organization's deactivated users already read, sorted.
pub fn active_subscribers_among(
    store: &impl Store,
    stream: StreamId,
    inactive: &[UserId],
) -> ApiResult<Vec<UserId>> {
    let mut ids = store.stream_subscribers(stream)?;
    ids.retain(|id| inactive.binary_search(id).is_err());
    ids.sort_unstable();
    Ok(ids)
}

/// A channel as clients see it, with its `subscriber_count`.
pub fn channel_json(store: &impl Store, groups: &Groups, stream: &Stream) -> ApiResult<Value> {
    Ok(wire::stream(groups, stream, active_subscribers(store, stream)?.len()))
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
    let mut inactive = store.deactivated_users(actor.realm.id)?;
    inactive.sort_unstable();
    let mut streams = Vec::new();
    for stream in store.realm_streams(actor.realm.id)? {
        if exclude_archived && stream.is_archived {
            continue;
        }
        let subscribed = is_subscribed(store, user.id, stream.id)?;
        let listed = (include_public && stream.is_public() && !user.is_guest())
            || (include_web_public && stream.is_web_public)
            || (include_subscribed && subscribed)
            || (include_all && has_metadata_access_in(store, &groups, user, &stream)?)
            || (include_can_access_content && has_content_access_in(store, &groups, user, &stream)?)
            || (include_default && stream.is_default)
            || owner.map_or(Ok(false), |owner| is_subscribed(store, owner, stream.id))?;
        if listed {
            let count = active_subscribers_among(store, stream.id, &inactive)?.len();
            streams.push(wire::stream(&groups, &stream, count));
        }
    }
    Ok(Outcome::default().reply("streams", Value::Array(streams)))
}

/// `GET /get_stream_id?stream=NAME`.
pub fn get_stream_id(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let name: String = params.required("stream")?;
    let invalid = || ApiError::bad_request(format!("Invalid channel name '{name}'"));
    let stream = stream_by_name(store, actor, &name)?.ok_or_else(invalid)?;
    if !has_metadata_access(store, &actor.user, &stream)? {
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
