//! POST /channels/create   create_channel
//!
//! Creating a channel with its subscribers and settings (spec 4.4), under the organization's
//! channel-creation groups: members create public and private channels, never guests; only
//! administrators make default channels, and only owners choose a retention period.

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, realm_permission};
use crate::ids::{IdKind, RealmId, RecipientId, StreamId, UserId};
use crate::markdown::render_description;
use crate::model::{
    ChannelPermissions, GroupSetting, Recipient, RecipientKind, Role, Stream, Subscription, SystemGroup,
};
use crate::params::{Json, Params, refuse_nul};
use crate::store::{Change, IdAllocator, Store};
use crate::wire;

use super::channel_notices;
use super::messages::{CHANNEL_EVENTS_TOPIC, ChannelNotice, NoticeIds, post_channel_notice};
use super::streams::{MAX_STREAM_DESCRIPTION_LENGTH, check_stream_name, metadata_watchers, stream_by_name};

/// The values of `topics_policy` (spec 2.5).
pub const TOPICS_POLICIES: [&str; 4] =
    ["inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"];

/// `message_retention_days`: `realm_default` (inherit), `unlimited` (-1), or a positive number
/// of days.
pub(crate) fn retention_days(value: &str) -> ApiResult<Option<i64>> {
    match value.trim_matches('"') {
        "realm_default" => Ok(None),
        "unlimited" => Ok(Some(-1)),
        days => match days.parse::<i64>() {
            Ok(n) if n >= 1 => Ok(Some(n)),
            _ => Err(ApiError::bad_request(format!("Bad value for 'message_retention_days': {value}"))),
        },
    }
}

pub(crate) fn check_description(description: &str) -> ApiResult<String> {
    refuse_nul("Channel description", description)?;
    let description = description.trim();
    if description.chars().count() > MAX_STREAM_DESCRIPTION_LENGTH {
        return Err(ApiError::bad_request(format!(
            "Channel description too long (limit: {MAX_STREAM_DESCRIPTION_LENGTH} characters)."
        )));
    }
    // Zulip keeps descriptions on one line.
    Ok(description.replace(['\r', '\n'], " "))
}

/// A new channel of the organization, made by `creator` (none when the server makes it), with
/// Zulip's defaults for everything not given.
#[allow(clippy::too_many_arguments)]
pub(crate) fn new_stream(
    realm_id: RealmId,
    creator: Option<UserId>,
    id: StreamId,
    recipient_id: RecipientId,
    name: String,
    description: String,
    invite_only: bool,
    history_public: Option<bool>,
    now: i64,
) -> Stream {
    Stream {
        id,
        realm_id,
        rendered_description: render_description(&description),
        name,
        description,
        date_created: now,
        creator_id: creator,
        invite_only,
        is_web_public: false,
        // Public channels always share their history; private ones by choice.
        history_public_to_subscribers: !invite_only || history_public.unwrap_or(false),
        message_retention_days: None,
        is_archived: false,
        recipient_id,
        first_message_id: None,
        is_recently_active: true,
        topics_policy: "inherit".to_owned(),
        is_default: false,
        folder_id: None,
        permissions: Box::default(),
    }
}

/// `POST /channels/create` (spec 4.4). Answers with the new channel's `id`.
pub fn create_channel(store: &impl Store, actor: &Actor, params: &Params, now: i64) -> ApiResult<Outcome> {
    let groups = Groups::load(store, actor.realm.id)?;
    let name = check_stream_name(&params.required::<String>("name")?)?;
    let description = check_description(&params.optional::<String>("description")?.unwrap_or_default())?;
    let Json(subscriber_ids) = params.required::<Json<Vec<u64>>>("subscribers")?;
    let invite_only = params.or("invite_only", false)?;
    let is_web_public = params.or("is_web_public", false)?;
    let is_default = params.or("is_default_stream", false)?;
    let announce = params.or("announce", false)?;
    let history_public = params.optional::<bool>("history_public_to_subscribers")?;
    // Zulip takes it here too; no channel created by a request sends "subscribed you" notices.
    params.optional::<bool>("send_new_subscription_messages")?;

    let creators =
        if invite_only { "can_create_private_channel_group" } else { "can_create_public_channel_group" };
    if !realm_permission(&groups, &actor.realm, &actor.user, creators)? {
        return Err(ApiError::insufficient_permission());
    }
    if is_web_public {
        check_may_make_web_public(&groups, actor)?;
        if invite_only {
            return Err(ApiError::bad_request("Invalid parameters"));
        }
    }
    if is_default {
        if !actor.user.is_admin() {
            return Err(ApiError::administrator_required());
        }
        if invite_only {
            return Err(ApiError::bad_request("A default channel cannot be private."));
        }
    }
    let folder_id = match params.optional::<u64>("folder_id")? {
        Some(id) => Some(super::channel_folders::folder_in_realm(store, actor.realm.id, id)?.id),
        None => None,
    };
    let settings = NewChannelSettings::read(&groups, params)?;
    settings.check_permission(&groups, actor)?;
    if stream_by_name(store, actor, &name)?.is_some() {
        return Err(ApiError::bad_request(format!("Channel '{name}' already exists")));
    }
    let mut subscribers: Vec<UserId> = Vec::new();
    for id in subscriber_ids {
        match groups.user(UserId(id)) {
            Some(user) if user.is_active => subscribers.push(user.id),
            _ => return Err(ApiError::bad_request(format!("Invalid user ID: {id}"))),
        }
    }
    subscribers.sort_unstable();
    subscribers.dedup();
    if subscribers.iter().any(|id| *id != actor.user.id)
        && !realm_permission(&groups, &actor.realm, &actor.user, "can_add_subscribers_group")?
    {
        return Err(ApiError::insufficient_permission());
    }

    let id = StreamId(IdAllocator::new(store, IdKind::Stream)?.take());
    let recipient = RecipientId(IdAllocator::new(store, IdKind::Recipient)?.take());
    let stream = Stream {
        is_web_public,
        is_default,
        folder_id,
        ..settings.apply(new_stream(
            actor.realm.id,
            Some(actor.user.id),
            id,
            recipient,
            name,
            description,
            invite_only,
            history_public,
            now,
        ))
    };
    let mut outcome = Outcome::default();
    outcome.changes.push(Change::PutRecipient(Recipient {
        id: stream.recipient_id,
        kind: RecipientKind::Stream(stream.id),
    }));
    outcome.changes.push(Change::PutStream(stream.clone()));
    outcome.events.push(creation_event(store, &groups, &stream, &subscribers)?);
    for user in &subscribers {
        let count = store.user_subscriptions(*user)?.iter().filter(|s| s.active).count();
        let color = super::subscriptions::stream_color(count);
        let sub = Subscription::new(*user, stream.id, color);
        outcome.changes.push(Change::PutSubscription(sub.clone()));
        outcome.events.push(super::subscriptions::add_event(
            store,
            &groups,
            *user,
            &stream,
            &sub,
            &subscribers,
        )?);
    }
    if let Some(event) = super::subscriptions::peer_event(store, &groups, &stream, &subscribers, "peer_add")?
    {
        outcome.events.push(event);
    }
    if stream.is_default {
        outcome.events.push(super::default_channels::default_streams_event(
            store,
            actor.realm.id,
            &[&stream],
        )?);
    }
    let mut ids = NoticeIds::new(store)?;
    post_creation_notices(store, actor, &[(&stream, &subscribers)], announce, now, &mut ids, &mut outcome)?;
    Ok(outcome.reply("id", stream.id.0))
}

/// The `stream` `create` event of a new channel, before anyone is subscribed (so with no
/// subscribers), to those who may see it once `subscribers` are (Zulip's
/// `create_stream_if_needed` tells the administrators and the channel's groups granting
/// metadata access of a private channel; its subscribers are told by their `add`).
pub(crate) fn creation_event(
    store: &impl Store,
    groups: &Groups,
    stream: &Stream,
    subscribers: &[UserId],
) -> ApiResult<Event> {
    let mut users = metadata_watchers(store, groups, stream)?;
    users.extend(subscribers.iter().copied().filter(|id| groups.user(*id).is_some_and(|u| u.is_active)));
    users.sort_unstable();
    users.dedup();
    Ok(Event::Other {
        users,
        body: json!({"type": "stream", "op": "create", "streams": [wire::stream(groups, stream, 0)]}),
    })
}

/// The channel settings that `POST /channels/create` and `POST /users/me/subscriptions` (for
/// the channels it creates) both take, read and checked once for either.
pub(crate) struct NewChannelSettings {
    topics_policy: String,
    message_retention_days: Option<i64>,
    permissions: ChannelPermissions,
}

/// The channel settings only members of the organization's `can_set_delete_message_policy_group`
/// may set (Zulip's `can_set_delete_message_policy`).
const DELETE_POLICY_SETTINGS: [&str; 2] = ["can_delete_any_message_group", "can_delete_own_message_group"];

impl NewChannelSettings {
    /// Reads `topics_policy`, `message_retention_days` and every channel group setting (each an
    /// id or `{direct_members, direct_subgroups}`), checking their values.
    pub(crate) fn read(groups: &Groups, params: &Params) -> ApiResult<NewChannelSettings> {
        let topics_policy =
            params.optional::<String>("topics_policy")?.unwrap_or_else(|| "inherit".to_owned());
        if !TOPICS_POLICIES.contains(&topics_policy.as_str()) {
            return Err(ApiError::bad_request("Invalid topics_policy"));
        }
        let retention = params.optional::<String>("message_retention_days")?;
        let message_retention_days = retention.as_deref().map(retention_days).transpose()?.flatten();
        let mut permissions = ChannelPermissions::default();
        for (setting, _) in ChannelPermissions::default().fields() {
            if let Some(Json(value)) = params.optional::<Json<Value>>(setting)? {
                let parsed = groups.parse_setting(setting, &value)?;
                check_channel_setting(groups, setting, &parsed)?;
                if let Some(slot) = permissions.slot(setting) {
                    *slot = Some(parsed);
                }
            }
        }
        Ok(NewChannelSettings { topics_policy, message_retention_days, permissions })
    }

    /// Whether the actor may create a channel with these settings: a `topics_policy` other
    /// than `inherit` takes `can_set_topics_policy_group`, a delete policy other than nobody
    /// `can_set_delete_message_policy_group`, a retention period an owner.
    pub(crate) fn check_permission(&self, groups: &Groups, actor: &Actor) -> ApiResult<()> {
        if self.topics_policy != "inherit"
            && !realm_permission(groups, &actor.realm, &actor.user, "can_set_topics_policy_group")?
        {
            return Err(ApiError::insufficient_permission());
        }
        let nobody = GroupSetting::Named(groups.system_id(SystemGroup::Nobody)?);
        for (setting, value) in self.permissions.fields() {
            if let Some(value) = value
                && *value != nobody
            {
                check_may_set_channel_setting(groups, actor, setting)?;
            }
        }
        if self.message_retention_days.is_some() && actor.user.role != Role::Owner {
            return Err(ApiError::owner_required());
        }
        Ok(())
    }

    /// A new channel with these settings.
    pub(crate) fn apply(&self, stream: Stream) -> Stream {
        Stream {
            topics_policy: self.topics_policy.clone(),
            message_retention_days: self.message_retention_days,
            permissions: Box::new(self.permissions.clone()),
            ..stream
        }
    }
}

/// Whether the actor may set a channel's group setting, beyond administering the channel:
/// the delete policies need the organization's `can_set_delete_message_policy_group`.
pub(crate) fn check_may_set_channel_setting(groups: &Groups, actor: &Actor, setting: &str) -> ApiResult<()> {
    if DELETE_POLICY_SETTINGS.contains(&setting)
        && !realm_permission(groups, &actor.realm, &actor.user, "can_set_delete_message_policy_group")?
    {
        return Err(ApiError::insufficient_permission());
    }
    Ok(())
}

/// Zulip's rules for making a channel web-public (readable by anyone on the internet): the
/// organization lets spectators in, and the actor is in `can_create_web_public_channel_group`.
pub(crate) fn check_may_make_web_public(groups: &Groups, actor: &Actor) -> ApiResult<()> {
    let properties = crate::model::realm_properties::realm_properties(&actor.realm.settings.properties);
    if properties["enable_spectator_access"] != Value::Bool(true) {
        return Err(ApiError::bad_request("Web-public channels are not enabled."));
    }
    if !realm_permission(groups, &actor.realm, &actor.user, "can_create_web_public_channel_group")? {
        return Err(ApiError::insufficient_permission());
    }
    Ok(())
}

/// The organization's channel for announcing new channels, if it has a usable one.
fn announcement_channel(store: &impl Store, actor: &Actor) -> ApiResult<Option<Stream>> {
    let properties = crate::model::realm_properties::realm_properties(&actor.realm.settings.properties);
    let Some(id) = properties["new_stream_announcements_stream_id"].as_u64() else { return Ok(None) };
    Ok(store.stream(StreamId(id))?.filter(|s| s.realm_id == actor.realm.id && !s.is_archived))
}

/// Zulip's notices for new channels: each one's creation in its "channel events" topic, and
/// with `announce`, one message listing them in the announcement channel. `created` pairs each
/// new channel with the users the same command subscribes to it.
pub(crate) fn post_creation_notices(
    store: &impl Store,
    actor: &Actor,
    created: &[(&Stream, &[UserId])],
    announce: bool,
    now: i64,
    ids: &mut NoticeIds,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    if created.is_empty() {
        return Ok(());
    }
    if announce && let Some(channel) = announcement_channel(store, actor)? {
        let streams: Vec<&Stream> = created.iter().map(|(s, _)| *s).collect();
        let content = channel_notices::announced(&actor.user, &streams);
        let notice = ChannelNotice {
            stream: &channel,
            topic: channel_notices::NEW_CHANNELS_TOPIC,
            content,
            joining: &[],
            read_by_actor: true,
        };
        post_channel_notice(store, actor, notice, now, ids, outcome)?;
    }
    for (stream, joining) in created {
        let content = channel_notices::created(&actor.user, stream);
        let notice =
            ChannelNotice { stream, topic: CHANNEL_EVENTS_TOPIC, content, joining, read_by_actor: true };
        post_channel_notice(store, actor, notice, now, ids, outcome)?;
    }
    Ok(())
}

/// A channel setting's new value, against Zulip's rules for it (`role:internet` never, and
/// `role:everyone` only where guests may hold it).
pub(crate) fn check_channel_setting(groups: &Groups, name: &str, value: &GroupSetting) -> ApiResult<()> {
    match crate::permission_settings::find(crate::permission_settings::STREAM, name) {
        Some(rules) => crate::permission_settings::check(groups, &rules, value),
        None => Ok(()),
    }
}
