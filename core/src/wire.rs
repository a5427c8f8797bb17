//! What clients see: the JSON shapes of users, channels, subscriptions and messages, with the
//! field names of Zulip's API (feature level noted in `version`).

use serde_json::{Map, Value, json};

use crate::error::ApiResult;
use crate::groups::Groups;
use crate::ids::UserId;
use crate::model::{
    Message, MessageFlags, MessageKind, Realm, StoredHtml, Stream, Subscription, SystemGroup, User,
};
use crate::store::Store;
use crate::time::iso8601;

/// The avatar URL of a user, relative to the organization's URL. Clients resolve it. An
/// uploaded avatar is served at `/user_avatars/{path}` (a new upload gets a new path); the
/// default one at `/avatar/{user_id}?v={avatar_version}`.
pub fn avatar_url(user: &User) -> String {
    match &user.avatar {
        Some(path) => format!("/user_avatars/{path}"),
        None => format!("/avatar/{}?v={}", user.id, user.avatar_version),
    }
}

/// Whether an avatar URL is a default avatar's (what clients with `client_gravatar` compute).
pub fn is_default_avatar_url(url: &str) -> bool {
    url.starts_with("/avatar/")
}

/// Zulip's `avatar_source`: `U` for an uploaded avatar, `G` for the default.
pub fn avatar_source(user: &User) -> &'static str {
    if user.avatar.is_some() { "U" } else { "G" }
}

/// `avatar_url` as a client that computes default avatars itself (`client_gravatar`) gets it:
/// null for a default avatar, the URL of an uploaded one.
pub fn avatar_url_for(user: &User, client_gravatar: bool) -> Value {
    if client_gravatar && user.avatar.is_none() { Value::Null } else { avatar_url(user).into() }
}

/// [`avatar_url_for`] in a user object shown to `viewer`: a client computes a default avatar
/// from the real email, so it gets the URL when the viewer may not see that email (feature
/// level 163). `GET /users` uses it; messages (shaped once for all their receivers) and
/// register (which events keep current without knowing who sees which email) keep the plain rule.
pub fn avatar_url_seen_by(user: &User, viewer: &User, client_gravatar: bool) -> Value {
    avatar_url_for(user, client_gravatar && viewer.can_see_delivery_email(user))
}

/// A user as `GET /users` and `realm_users` show them to `viewer`: `delivery_email` is null
/// unless the user's `email_address_visibility` lets the viewer see it. `profile_data` (custom
/// profile field values, see `api::custom_profile_fields::values::profile_data_json`) is
/// shown for humans when given; bots have none.
pub fn user(user: &User, viewer: &User, profile_data: Option<Value>) -> Value {
    let delivery_email = viewer.can_see_delivery_email(user).then_some(&user.delivery_email);
    let mut fields = json!({
        "user_id": user.id,
        "email": user.email,
        "delivery_email": delivery_email,
        "full_name": user.full_name,
        "avatar_url": avatar_url(user),
        "avatar_version": user.avatar_version,
        "is_active": user.is_active,
        "is_admin": user.is_admin(),
        "is_owner": user.role == crate::model::Role::Owner,
        "is_guest": user.is_guest(),
        "is_billing_admin": false,
        "is_bot": user.is_bot(),
        "role": user.role.value(),
        "timezone": user.timezone,
        "date_joined": iso8601(user.date_joined),
    });
    // Zulip's `format_user_row`: bots carry their type and owner, humans their profile.
    if user.is_bot() {
        fields["bot_type"] = json!(user.bot_type.map(|t| t.value()));
        fields["bot_owner_id"] = json!(user.bot_owner_id);
    } else if let Some(data) = profile_data {
        fields["profile_data"] = data;
    }
    fields
}

/// The deprecated `stream_post_policy` that best approximates `can_send_message_group` (Zulip's
/// `get_stream_post_policy_value_based_on_group_setting`): the system groups the old policy
/// had a value for get it (everyone 1, administrators 2, full members 3, moderators 4);
/// anything else reads "everyone", the superset.
pub fn stream_post_policy(groups: &Groups, stream: &Stream) -> u8 {
    let setting = crate::groups::channel_setting(groups, stream, "can_send_message_group");
    let system = match setting {
        Ok(crate::model::GroupSetting::Named(id)) => groups.get(id).and_then(|g| g.system),
        _ => None,
    };
    match system {
        Some(SystemGroup::Administrators) => STREAM_POST_POLICY_ADMINS,
        Some(SystemGroup::FullMembers) => 3,
        Some(SystemGroup::Moderators) => 4,
        _ => 1,
    }
}

/// `stream_post_policy` for "administrators only": the one `is_announcement_only` stands for.
pub const STREAM_POST_POLICY_ADMINS: u8 = 2;

/// The fields a channel and a subscription share (spec 2.5). `subscriber_count` is the
/// number of its subscribers who are active users (`api::streams::active_subscribers`).
fn stream_fields(groups: &Groups, stream: &Stream, subscriber_count: usize) -> Map<String, Value> {
    let post_policy = stream_post_policy(groups, stream);
    let mut value = json!({
        "stream_id": stream.id,
        "name": stream.name,
        "description": stream.description,
        "rendered_description": stream.rendered_description,
        "date_created": stream.date_created,
        "creator_id": stream.creator_id,
        "invite_only": stream.invite_only,
        "is_web_public": stream.is_web_public,
        "is_archived": stream.is_archived,
        "stream_post_policy": post_policy,
        "is_announcement_only": post_policy == STREAM_POST_POLICY_ADMINS,
        "subscriber_count": subscriber_count,
        "message_retention_days": stream.message_retention_days,
        "history_public_to_subscribers": stream.history_public_to_subscribers,
        "first_message_id": stream.first_message_id,
        "folder_id": stream.folder_id,
        "topics_policy": stream.topics_policy,
        "is_recently_active": stream.is_recently_active,
        "stream_weekly_traffic": Value::Null,
    });
    if let Value::Object(fields) = &mut value {
        for (name, _) in stream.permissions.fields() {
            // Every organization has its system groups; a store without them is broken, and
            // the field then reads as the empty group rather than failing the whole answer.
            let setting = crate::groups::channel_setting(groups, stream, name)
                .map(|s| Groups::setting_json(&s))
                .unwrap_or_else(|_| json!({"direct_members": [], "direct_subgroups": []}));
            fields.insert(name.into(), setting);
        }
    }
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A channel as `GET /streams` shows it.
pub fn stream(groups: &Groups, stream: &Stream, subscriber_count: usize) -> Value {
    Value::Object(stream_fields(groups, stream, subscriber_count))
}

/// A subscription as `GET /users/me/subscriptions` and `subscriptions` in register show it.
pub fn subscription(
    groups: &Groups,
    stream: &Stream,
    sub: &Subscription,
    subscriber_count: usize,
    subscribers: Option<&[UserId]>,
) -> Value {
    let mut fields = stream_fields(groups, stream, subscriber_count);
    let extra = json!({
        "color": sub.color,
        "is_muted": sub.is_muted,
        "in_home_view": !sub.is_muted,
        "pin_to_top": sub.pin_to_top,
        "desktop_notifications": sub.desktop_notifications,
        "audible_notifications": sub.audible_notifications,
        "push_notifications": sub.push_notifications,
        "email_notifications": sub.email_notifications,
        "wildcard_mentions_notify": sub.wildcard_mentions_notify,
    });
    if let Value::Object(extra) = extra {
        fields.extend(extra);
    }
    if let Some(ids) = subscribers {
        fields.insert("subscribers".into(), json!(ids));
    }
    Value::Object(fields)
}

/// The subscription settings whose null means "as the user's setting for channel messages",
/// with the setting each follows: what clients without the `notification_settings_null`
/// capability get filled in (Zulip's `handle_stream_notifications_compatibility`).
/// `wildcard_mentions_notify`, which came with the null values themselves, is left as it is.
pub const INHERITED_NOTIFICATION_SETTINGS: [(&str, &str); 4] = [
    ("desktop_notifications", "enable_stream_desktop_notifications"),
    ("audible_notifications", "enable_stream_audible_notifications"),
    ("push_notifications", "enable_stream_push_notifications"),
    ("email_notifications", "enable_stream_email_notifications"),
];

/// What a user's unset channel notification settings stand for, from their personal settings
/// (`wire::INHERITED_NOTIFICATION_SETTINGS`).
pub fn inherited_notification_values(settings: &Map<String, Value>) -> Map<String, Value> {
    INHERITED_NOTIFICATION_SETTINGS
        .iter()
        .map(|(field, setting)| {
            ((*field).to_owned(), settings.get(*setting).cloned().unwrap_or(false.into()))
        })
        .collect()
}

/// Fills a subscription's unset notification settings with what they stand for, for a client
/// that cannot read null.
pub fn fill_inherited_notification_settings(subscription: &mut Value, values: &Map<String, Value>) {
    let Value::Object(fields) = subscription else { return };
    for (field, value) in values {
        if fields.get(field).is_some_and(Value::is_null) {
            fields.insert(field.clone(), value.clone());
        }
    }
}

/// How a client asked for messages to be shown.
#[derive(Clone, Copy, Debug)]
pub struct MessageOptions {
    /// HTML `content` (true) or Markdown source (false).
    pub apply_markdown: bool,
    /// Leave `avatar_url` null so the client computes it (`client_gravatar`).
    pub client_gravatar: bool,
    /// Show the empty topic as is; otherwise as `realm_empty_topic_display_name`.
    pub allow_empty_topic_name: bool,
}

/// Zulip's name for the empty topic, shown to clients that do not handle empty topics.
pub const EMPTY_TOPIC_DISPLAY_NAME: &str = "general chat";

/// A message as `GET /messages/{id}` and message events show it to `viewer`.
pub fn message(
    store: &impl Store,
    realm: &Realm,
    msg: &Message,
    viewer: UserId,
    flags: MessageFlags,
    options: MessageOptions,
) -> ApiResult<Value> {
    let mut fields = message_without_content(store, realm, msg, viewer, flags, options)?;
    fields["content"] =
        if options.apply_markdown { msg.rendered_content.html() } else { msg.content.clone() }.into();
    Ok(fields)
}

/// A message as a page of `GET /messages` lists it: as [`message`] shows it, with its HTML
/// written into the answer from the stored JSON literal.
pub fn page_message(
    store: &impl Store,
    realm: &Realm,
    msg: Message,
    viewer: UserId,
    flags: MessageFlags,
    options: MessageOptions,
) -> ApiResult<PageMessage> {
    let mut fields = message_without_content(store, realm, &msg, viewer, flags, options)?;
    let html = if options.apply_markdown {
        Some(msg.rendered_content)
    } else {
        fields["content"] = msg.content.into();
        None
    };
    Ok(PageMessage { fields, html })
}

/// One message of a page: its fields, and its HTML `content` kept as the stored literal.
pub struct PageMessage {
    fields: Value,
    html: Option<StoredHtml>,
}

impl PageMessage {
    /// Every field but the HTML `content`.
    pub fn fields_mut(&mut self) -> &mut Value {
        &mut self.fields
    }
}

/// A reactor's legacy `user` object as a viewer who cannot see them gets it.
pub fn hide_reactor(reaction: &mut Value, realm_url: &str) {
    let Some(id) = reaction["user_id"].as_u64() else { return };
    reaction["user"]["full_name"] = crate::user_access::INACCESSIBLE_USER_NAME.into();
    reaction["user"]["email"] = crate::user_access::placeholder_email(UserId(id), realm_url).into();
}

/// A message's sender as a viewer who cannot see them gets it (Zulip's `finalize_payload`
/// with `can_access_sender` false): "Unknown user", a made-up address, the unknown avatar.
pub fn hide_sender(fields: &mut Value, sender: UserId, realm_url: &str) {
    fields["sender_full_name"] = crate::user_access::INACCESSIBLE_USER_NAME.into();
    fields["sender_email"] = crate::user_access::placeholder_email(sender, realm_url).into();
    fields["avatar_url"] = crate::user_access::INACCESSIBLE_USER_AVATAR.into();
}

/// A page of messages as a JSON array, each message's stored HTML spliced in as it is (see
/// [`crate::raw_json`]).
pub fn page_json(page: &[PageMessage]) -> serde_json::Result<Vec<u8>> {
    let html_len: usize = page.iter().filter_map(|m| m.html.as_ref()).map(|h| h.json_literal().len()).sum();
    // Sized once: a page of code-heavy messages is megabytes.
    let mut out = Vec::with_capacity(html_len + page.len() * 1024 + 2);
    out.push(b'[');
    for (i, message) in page.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let html = message.html.as_ref().map(|html| ("content", html.json_literal()));
        crate::raw_json::write_object(&mut out, &message.fields, html)?;
    }
    out.push(b']');
    Ok(out)
}

/// Every field of a message but `content`.
fn message_without_content(
    store: &impl Store,
    realm: &Realm,
    msg: &Message,
    viewer: UserId,
    flags: MessageFlags,
    options: MessageOptions,
) -> ApiResult<Value> {
    let sender = store.user(msg.sender_id)?;
    let (sender_email, sender_name, avatar) = match &sender {
        Some(s) => (s.email.clone(), s.full_name.clone(), avatar_url_for(s, options.client_gravatar)),
        None => (String::new(), String::new(), Value::Null),
    };
    let mut fields = json!({
        "id": msg.id,
        "sender_id": msg.sender_id,
        "sender_email": sender_email,
        "sender_full_name": sender_name,
        "sender_realm_str": realm.string_id(),
        "avatar_url": avatar,
        "client": msg.client,
        "content_type": if options.apply_markdown { "text/html" } else { "text/x-markdown" },
        "timestamp": msg.timestamp,
        "is_me_message": msg.is_me_message,
        "reactions": [],
        "submessages": [],
        "topic_links": [],
        "flags": flags.names(),
    });
    match &msg.kind {
        MessageKind::Stream { stream_id, topic } => {
            let name = store.stream(*stream_id)?.map(|s| s.name).unwrap_or_default();
            let shown_topic = if topic.is_empty() && !options.allow_empty_topic_name {
                EMPTY_TOPIC_DISPLAY_NAME
            } else {
                topic.as_str()
            };
            fields["type"] = "stream".into();
            fields["stream_id"] = json!(stream_id);
            fields["display_recipient"] = name.into();
            fields["subject"] = shown_topic.into();
            fields["topic_links"] = topic_links(store, realm, topic)?;
            fields["recipient_id"] = json!(msg.recipient_id);
        }
        MessageKind::Direct { participants } => {
            fields["type"] = "private".into();
            fields["subject"] = "".into();
            fields["display_recipient"] = display_recipient(store, participants)?;
            fields["recipient_id"] = json!(conversation_recipient(store, msg, viewer)?);
        }
    }
    let policy = &realm.settings.message_edit_history_visibility_policy;
    if let Some(history) =
        crate::api::messages::edit_history_json(msg, policy, options.allow_empty_topic_name)
    {
        fields["edit_history"] = history;
    }
    fields["reactions"] = reactions(store, msg)?;
    fields["submessages"] = submessages(store, msg)?;
    if let Some(ts) = msg.last_edit_timestamp {
        fields["last_edit_timestamp"] = ts.into();
    }
    if let Some(ts) = msg.last_moved_timestamp {
        fields["last_moved_timestamp"] = ts.into();
    }
    Ok(fields)
}

/// `topic_links` of a topic: where the organization's linkifiers (and bare URLs) link it.
pub fn topic_links(store: &impl Store, realm: &Realm, topic: &str) -> ApiResult<Value> {
    let linkifiers = crate::api::messages::markdown_linkifiers(store, realm.id)?;
    Ok(json!(crate::markdown::topic_links(topic, &linkifiers)))
}

/// A message's reactions, each with `user_id` and the legacy `user` object zulip-terminal reads.
pub fn reactions(store: &impl Store, msg: &Message) -> ApiResult<Value> {
    let mut shown = Vec::new();
    for reaction in store.reactions(msg.id)? {
        let user = store.user(reaction.user_id)?;
        shown.push(json!({
            "emoji_name": reaction.emoji_name,
            "emoji_code": reaction.emoji_code,
            "reaction_type": reaction.reaction_type,
            "user_id": reaction.user_id,
            "user": {
                "id": reaction.user_id,
                "user_id": reaction.user_id,
                "email": user.as_ref().map(|u| u.email.clone()).unwrap_or_default(),
                "full_name": user.as_ref().map(|u| u.full_name.clone()).unwrap_or_default(),
                "is_mirror_dummy": false,
            },
        }));
    }
    Ok(Value::Array(shown))
}

/// A message's submessages (its widget and the changes to it), in the order they were added,
/// as Zulip's `SubMessage.get_raw_db_rows` lists them.
pub fn submessages(store: &impl Store, msg: &Message) -> ApiResult<Value> {
    Ok(Value::Array(store.submessages(msg.id)?.iter().map(submessage).collect()))
}

/// One submessage as messages carry it.
pub fn submessage(s: &crate::model::Submessage) -> Value {
    json!({
        "msg_type": s.msg_type,
        "content": s.content,
        "message_id": s.message_id,
        "sender_id": s.sender_id,
        "id": s.id,
    })
}

/// `display_recipient` of a direct message: every participant, sender included. Zulip orders a
/// 1:1 conversation by email and a group by id.
fn display_recipient(store: &impl Store, participants: &[UserId]) -> ApiResult<Value> {
    let mut users = Vec::with_capacity(participants.len());
    for id in participants {
        if let Some(u) = store.user(*id)? {
            users.push(u);
        }
    }
    if users.len() <= 2 {
        users.sort_by(|a, b| a.email.cmp(&b.email));
    }
    Ok(Value::Array(
        users
            .iter()
            .map(
                |u| json!({"id": u.id, "email": u.email, "full_name": u.full_name, "is_mirror_dummy": false}),
            )
            .collect(),
    ))
}

/// The `recipient_id` of a direct message as `viewer` sees it: for an incoming 1:1 message, the
/// sender's personal recipient, so that one id names the conversation from the viewer's side.
pub fn conversation_recipient(
    store: &impl Store,
    msg: &Message,
    viewer: UserId,
) -> ApiResult<crate::ids::RecipientId> {
    if let MessageKind::Direct { participants } = &msg.kind
        && participants.len() == 2
        && msg.sender_id != viewer
        && let Some(sender) = store.user(msg.sender_id)?
    {
        return Ok(sender.personal_recipient);
    }
    Ok(msg.recipient_id)
}

/// Linkifiers as `GET /realm/linkifiers` and register show them.
pub fn linkifiers(linkifiers: &[crate::model::Linkifier]) -> Value {
    Value::Array(
        linkifiers
            .iter()
            .map(|l| json!({"id": l.id, "pattern": l.pattern, "url_template": l.url_template}))
            .collect(),
    )
}
