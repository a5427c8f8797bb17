//! POST /register   register_queue (the initial state; the queue itself is in `crate::events`)
//!
//! What a client gets at startup: every block named by `fetch_event_types` (falling back to
//! `event_types`, then everything), in the shapes of spec 4.2 and Zulip's register response.

use std::collections::BTreeSet;
use std::ops::Bound;

use serde_json::{Map, Value, json};

use crate::command::Actor;
use crate::error::{ApiError, ApiResult};
use crate::events::{
    ClientCapabilities, DISPLAY_SETTINGS_LEGACY, EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS,
    NOTIFICATION_SETTINGS_LEGACY, QueueOptions, parse_client_capabilities, parse_event_narrow,
};
use crate::groups::{Groups, REALM_GROUP_SETTINGS, realm_setting};
use crate::model::{IndexedFlag, MessageKind, User};
use crate::params::{Json, Params};
use crate::store::{Direction, MessageIndex, Store};
use crate::subdomains::Site;
use crate::version::{FEATURE_LEVEL, MERGE_BASE, ZULIP_VERSION};
use crate::wire;

use super::messages::{MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH};
use super::streams::{
    MAX_STREAM_DESCRIPTION_LENGTH, MAX_STREAM_NAME_LENGTH, active_subscribers_among, has_metadata_access_in,
};

/// `include_subscribers`: `true`, `false` or `partial`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IncludeSubscribers {
    No,
    Yes,
    Partial,
}

impl IncludeSubscribers {
    /// Reads `include_subscribers` as register and `GET /users/me/subscriptions` take it.
    pub fn read(params: &Params) -> ApiResult<IncludeSubscribers> {
        match params.raw("include_subscribers").map(str::trim) {
            None | Some("false") => Ok(IncludeSubscribers::No),
            Some("true") => Ok(IncludeSubscribers::Yes),
            Some("partial") | Some("\"partial\"") => Ok(IncludeSubscribers::Partial),
            Some(_) => Err(ApiError::bad_request("Invalid include_subscribers")),
        }
    }
}

/// Register's parameters, checked.
#[derive(Clone, Debug)]
pub struct RegisterOptions {
    pub apply_markdown: bool,
    pub client_gravatar: bool,
    pub include_subscribers: IncludeSubscribers,
    pub slim_presence: bool,
    pub presence_history_limit_days: i64,
    pub event_types: Option<Vec<String>>,
    pub fetch_event_types: Option<Vec<String>>,
    pub all_public_streams: bool,
    /// The narrow, as `(operator, operand)` pairs.
    pub narrow: Vec<(String, String)>,
    pub capabilities: ClientCapabilities,
}

/// Reads register's parameters. `client_autoavatar` is the spec's name of `client_gravatar`.
pub fn parse_register_params(params: &Params, authenticated: bool) -> ApiResult<RegisterOptions> {
    let gravatar = match params.optional::<bool>("client_gravatar")? {
        Some(value) => Some(value),
        None => params.optional::<bool>("client_autoavatar")?,
    };
    let client_gravatar = gravatar.unwrap_or(authenticated);
    let include_subscribers = IncludeSubscribers::read(params)?;
    // Spectators get avatars from the server and no subscriber lists (spec 5.5).
    if !authenticated && client_gravatar {
        return Err(ApiError::bad_request("Invalid 'client_gravatar' parameter for anonymous request"));
    }
    if !authenticated && include_subscribers != IncludeSubscribers::No {
        return Err(ApiError::bad_request("Invalid 'include_subscribers' parameter for anonymous request"));
    }
    // zulip-js sends the string `null` for "all types".
    let list = |name: &str| -> ApiResult<Option<Vec<String>>> {
        match params.raw(name).map(str::trim) {
            None | Some("null") => Ok(None),
            Some(_) => Ok(params.optional::<Json<Vec<String>>>(name)?.map(|Json(v)| v)),
        }
    };
    let capabilities = match params.optional::<Json<Value>>("client_capabilities")? {
        Some(Json(value)) => parse_client_capabilities(&value)?,
        None => ClientCapabilities::default(),
    };
    Ok(RegisterOptions {
        apply_markdown: params.or("apply_markdown", false)?,
        client_gravatar,
        include_subscribers,
        slim_presence: params.or("slim_presence", false)?,
        presence_history_limit_days: params
            .or("presence_history_limit_days", super::presence::DEFAULT_HISTORY_LIMIT_DAYS)?,
        event_types: list("event_types")?,
        fetch_event_types: list("fetch_event_types")?,
        all_public_streams: params.or("all_public_streams", false)?,
        narrow: match super::narrow::narrow_param(params)? {
            Some(value) => parse_event_narrow(&value)?,
            None => Vec::new(),
        },
        capabilities,
    })
}

impl RegisterOptions {
    /// What the event queue needs of these options.
    pub fn queue_options(&self) -> QueueOptions {
        QueueOptions {
            event_types: self.event_types.clone().map(|types| types.into_iter().collect()),
            narrow: self.narrow.clone(),
            all_public_streams: self.all_public_streams,
            apply_markdown: self.apply_markdown,
            client_gravatar: self.client_gravatar,
            slim_presence: self.slim_presence,
            capabilities: self.capabilities,
        }
    }
}

/// Which blocks to fetch: a block is included if any of the event types it answers to is wanted.
struct Wanted(Option<BTreeSet<String>>);

impl Wanted {
    fn any(&self, types: &[&str]) -> bool {
        match &self.0 {
            None => true,
            Some(set) => types.iter().any(|t| set.contains(*t)),
        }
    }
}

/// The initial state (without `queue_id` and `last_event_id`, which the event system adds).
/// `site` gives the organization its URL (`realm_url`).
pub fn initial_state(
    store: &impl Store,
    actor: &Actor,
    site: &Site,
    options: &RegisterOptions,
    now: i64,
) -> ApiResult<Map<String, Value>> {
    // The users, the groups and the channels are read by several parts of the state.
    let store = &crate::memo::Memo::new(store);
    let wanted = Wanted(
        options
            .fetch_event_types
            .clone()
            .or_else(|| options.event_types.clone())
            .map(|v| v.into_iter().collect()),
    );
    let mut state = Map::new();
    let mut put = |key: &str, value: Value| {
        state.insert(key.to_owned(), value);
    };
    put("zulip_version", ZULIP_VERSION.into());
    put("zulip_feature_level", FEATURE_LEVEL.into());
    put("zulip_merge_base", MERGE_BASE.into());
    put("service_version", ZULIP_VERSION.into());
    put("service_feature_level", FEATURE_LEVEL.into());
    put("service_merge_base", MERGE_BASE.into());
    put("event_queue_longpoll_timeout_seconds", EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS.into());
    let user = &actor.user;
    let caps = options.capabilities;

    if wanted.any(&["message"]) {
        let newest = store
            .message_ids(
                &MessageIndex::UserHistory(user.id),
                Bound::Unbounded,
                Bound::Unbounded,
                Direction::Descending,
            )?
            .next()
            .transpose()?;
        put("max_message_id", json!(newest.map_or(-1, |id| id.0 as i64)));
    }
    if wanted.any(&["realm"]) {
        for (key, value) in realm_block(actor, site) {
            put(&key, value);
        }
        let groups = Groups::load(store, actor.realm.id)?;
        for (name, _, _) in REALM_GROUP_SETTINGS {
            put(&format!("realm_{name}"), groups.shown_setting(&realm_setting(&groups, &actor.realm, name)?));
        }
        for (key, setting) in crate::legacy_policies::LEGACY_POLICY_KEYS {
            let system = match realm_setting(&groups, &actor.realm, setting)? {
                crate::model::GroupSetting::Named(id) => groups.get(id).and_then(|g| g.system),
                crate::model::GroupSetting::Anonymous { .. } => None,
            };
            put(key, json!(crate::legacy_policies::legacy_policy(setting, system)));
        }
        put("server_supported_permission_settings", crate::permission_settings::supported_json());
    }
    if wanted.any(&["realm_user"]) {
        for (key, value) in realm_user_block(store, actor, options)? {
            put(&key, value);
        }
    }
    if wanted.any(&["realm_user_groups"]) {
        let groups = crate::groups::Groups::load(store, actor.realm.id)?;
        put(
            "realm_user_groups",
            super::user_groups::user_groups_json(&groups, caps.include_deactivated_groups),
        );
    }
    if wanted.any(&["subscription"]) {
        let (subscribed, unsubscribed, never) = subscription_blocks(store, user, options, now)?;
        put("subscriptions", subscribed);
        put("unsubscribed", unsubscribed);
        put("never_subscribed", never);
    }
    if wanted.any(&["stream"]) {
        let groups = Groups::load(store, actor.realm.id)?;
        let mut inactive = store.deactivated_users(actor.realm.id)?;
        inactive.sort_unstable();
        let mut streams = Vec::new();
        for stream in store.realm_streams(actor.realm.id)? {
            if (stream.is_archived && !caps.archived_channels)
                || !has_metadata_access_in(store, &groups, user, &stream)?
            {
                continue;
            }
            let count = active_subscribers_among(store, stream.id, &inactive)?.len();
            streams.push(wire::stream(&groups, &stream, count));
        }
        put("streams", Value::Array(streams));
    }
    if wanted.any(&["message", "update_message_flags"]) {
        put("unread_msgs", super::unread::unread_msgs(store, user, caps.empty_topic_name)?);
    }
    if wanted.any(&["starred_messages", "update_message_flags"]) {
        let starred: Vec<u64> = store
            .message_ids(
                &MessageIndex::UserFlag(user.id, IndexedFlag::Starred),
                Bound::Unbounded,
                Bound::Unbounded,
                Direction::Ascending,
            )?
            .map(|id| id.map(|id| id.0))
            .collect::<ApiResult<_>>()?;
        put("starred_messages", json!(starred));
    }
    if wanted.any(&["recent_private_conversations"]) {
        put("recent_private_conversations", recent_private_conversations(store, user)?);
    }
    if wanted.any(&["presence"]) {
        let query = super::presence::PresenceQuery {
            slim: options.slim_presence,
            last_update_id: None,
            history_limit_days: options.presence_history_limit_days,
        };
        let (presences, last_update_id) = super::presence::realm_presences(store, actor, &query, now)?;
        put("presences", presences);
        put("server_timestamp", json!(now as f64));
        put("presence_last_update_id", json!(last_update_id));
    }
    let settings = super::settings::settings_of(store, user)?;
    if wanted.any(&["user_settings"]) {
        put("user_settings", Value::Object(settings.clone()));
    }
    if !caps.user_settings_object {
        // Clients before feature level 89 read these at top level.
        if wanted.any(&["update_display_settings", "user_settings"]) {
            for key in DISPLAY_SETTINGS_LEGACY.iter().chain(&["timezone"]) {
                if let Some(value) = settings.get(*key) {
                    put(key, value.clone());
                }
            }
        }
        if wanted.any(&["update_global_notifications", "user_settings"]) {
            for key in NOTIFICATION_SETTINGS_LEGACY {
                if let Some(value) = settings.get(*key) {
                    put(key, value.clone());
                }
            }
        }
    }
    for (types, key, value) in [
        (
            &["user_topic"][..],
            "user_topics",
            super::user_topics::user_topics_json(store, user.id, caps.empty_topic_name)?,
        ),
        (&["muted_users"][..], "muted_users", super::muted_users::muted_users_json(store, user.id)?),
        (&["alert_words"][..], "alert_words", json!(store.alert_words(user.id)?)),
        (&["user_status"][..], "user_status", super::user_status::user_statuses(store, actor)?),
        (&["drafts"][..], "drafts", super::drafts::drafts_json(store, user.id)?),
        (
            &["saved_snippets"][..],
            "saved_snippets",
            super::saved_snippets::saved_snippets_json(store, user.id)?,
        ),
        (
            &["navigation_view"][..],
            "navigation_views",
            super::navigation_views::navigation_views_json(store, user.id)?,
        ),
        (&["realm_emoji"][..], "realm_emoji", super::realm_emoji::realm_emoji_json(store, actor.realm.id)?),
        (&["realm_filters"][..], "realm_filters", json!([])),
        (
            &["scheduled_messages"][..],
            "scheduled_messages",
            super::scheduled_messages::scheduled_messages_json(store, user.id)?,
        ),
        (&["reminders"][..], "reminders", super::reminders::reminders_json(store, user.id)?),
        (&["default_streams"][..], "realm_default_streams", {
            // Zulip keeps the organization's default channels from guests.
            if user.is_guest() {
                json!([])
            } else {
                json!(super::default_channels::default_stream_ids(store, actor.realm.id)?)
            }
        }),
        (
            &["default_stream_groups"][..],
            "realm_default_stream_groups",
            super::default_channel_groups::shown_to(store, &actor.realm, user.is_guest())?,
        ),
        (&["realm_bot"][..], "realm_bots", super::bots::realm_bots_json(store, actor)?),
        (&["realm_domains"][..], "realm_domains", json!([])),
        (&["realm_playgrounds"][..], "realm_playgrounds", json!([])),
        // Archived folders too: their channels still name them.
        (
            &["channel_folder"][..],
            "channel_folders",
            super::channel_folders::folders_json(store, actor.realm.id, true)?,
        ),
        (&["onboarding_steps"][..], "onboarding_steps", json!([])),
        // Zulip sends it with the onboarding steps; null: the tour video is disabled.
        (&["onboarding_steps"][..], "navigation_tour_video_url", Value::Null),
        // No device registered for end-to-end encrypted notifications: no push service.
        (&["push_device"][..], "push_devices", json!({})),
    ] {
        if wanted.any(types) {
            put(key, value);
        }
    }
    // Zulip's rule: a client that follows `user_topic` gets no legacy `muted_topics` (nor its
    // events), unless it asked for every type.
    if wanted.any(&["muted_topics"]) && (wanted.0.is_none() || !wanted.any(&["user_topic"])) {
        put("muted_topics", super::user_topics::muted_topics_json(store, user.id)?);
    }
    if wanted.any(&["realm_user_settings_defaults"]) {
        put(
            "realm_user_settings_defaults",
            Value::Object(super::realm_user_defaults::realm_user_defaults(&actor.realm)),
        );
    }
    if wanted.any(&["custom_profile_fields"]) {
        let fields = super::custom_profile_fields::realm_fields(store, actor)?;
        put("custom_profile_fields", fields.iter().map(super::custom_profile_fields::field_json).collect());
        put("custom_profile_field_types", super::custom_profile_fields::field_types_json());
    }
    if wanted.any(&["realm_playgrounds"]) {
        put("realm_playgrounds", super::playgrounds::playgrounds_json(&actor.realm));
    }
    if wanted.any(&["realm_linkifiers"]) {
        let linkifiers = if caps.linkifier_url_template {
            wire::linkifiers(&store.linkifiers(actor.realm.id)?)
        } else {
            json!([])
        };
        put("realm_linkifiers", linkifiers);
    }
    Ok(state)
}

/// The state a spectator (`api::spectators::spectator`, admitted by an organization with
/// `enable_spectator_access`) registers for (spec 5.5): the organization's settings and what
/// anyone on the internet may read, and nothing of any person. Spectators get no event queue
/// (`queue_id` is null).
pub fn spectator_state(
    store: &impl Store,
    spectator: &Actor,
    site: &Site,
    options: &RegisterOptions,
    now: i64,
) -> ApiResult<Map<String, Value>> {
    // Seen as a guest who belongs to nothing: every block then holds only what is public.
    let realm = &spectator.realm;
    let mut state = initial_state(store, spectator, site, options, now)?;
    let personal: Vec<String> = realm_user_block(store, spectator, options)?
        .into_iter()
        .map(|(key, _)| key)
        .filter(|k| !["realm_users", "realm_non_active_users", "cross_realm_bots"].contains(&k.as_str()))
        .collect();
    for key in personal {
        state.remove(&key);
    }
    for (key, nothing) in [
        ("realm_users", json!([])),
        ("realm_non_active_users", json!([])),
        ("realm_user_groups", json!([])),
        ("presences", json!({})),
    ] {
        if let Some(value) = state.get_mut(key) {
            *value = nothing;
        }
    }
    if let Some(settings) = state.get_mut("user_settings") {
        *settings = Value::Object(super::realm_user_defaults::realm_user_defaults(realm));
    }
    if let Some(streams) = state.get_mut("streams") {
        // What spectators may read: the web-public channels.
        let groups = Groups::load(store, realm.id)?;
        let mut shown = Vec::new();
        for stream in store.realm_streams(realm.id)?.into_iter().filter(|s| s.is_web_public && !s.is_archived)
        {
            shown.push(super::streams::channel_json(store, &groups, &stream)?);
        }
        *streams = Value::Array(shown);
    }
    state.insert("queue_id".into(), Value::Null);
    state.insert("last_event_id".into(), json!(-1));
    Ok(state)
}

/// Organization settings and server limits (the `realm` block).
fn realm_block(actor: &Actor, site: &Site) -> Map<String, Value> {
    let realm = &actor.realm;
    let settings = &realm.settings;
    let realm_url = site.realm_url(&realm.subdomain);
    let value = json!({
        "realm_url": realm_url,
        // Zulip's name for it before feature level 257, still sent.
        "realm_uri": realm_url,
        "realm_name": realm.name,
        "realm_description": crate::markdown::render_description(&realm.description),
        "realm_icon_url": "/static/images/logo/zulip-icon-128x128.png",
        "realm_icon_source": "G",
        "realm_logo_url": "",
        "realm_night_logo_url": "",
        "realm_date_created": realm.date_created,
        "realm_message_retention_days": -1,
        "realm_allow_message_editing": settings.allow_message_editing,
        // zulip-terminal 0.7.0 compares this with 0, so "no limit" is 0, not null.
        "realm_message_content_edit_limit_seconds": settings.message_content_edit_limit_seconds.unwrap_or(0),
        "realm_message_content_delete_limit_seconds": settings.message_content_delete_limit_seconds,
        "realm_move_messages_within_stream_limit_seconds": settings.move_messages_within_stream_limit_seconds,
        "realm_move_messages_between_streams_limit_seconds": settings.move_messages_between_streams_limit_seconds,
        "realm_allow_edit_history": settings.message_edit_history_visibility_policy != "none",
        "realm_message_edit_history_visibility_policy": settings.message_edit_history_visibility_policy,
        "realm_moderation_request_channel_id": settings.moderation_request_channel_id.map_or(-1, |c| c.0 as i64),
        "realm_empty_topic_display_name": wire::EMPTY_TOPIC_DISPLAY_NAME,
        "realm_topics_policy": settings.topics_policy,
        "realm_mandatory_topics": settings.topics_policy == "disable_empty_topic",
        "realm_default_external_accounts": super::custom_profile_fields::default_external_accounts_json(),
        "realm_is_zephyr_mirror_realm": false,
        "realm_plan_type": 1,
        "realm_push_notifications_enabled": false,
        "realm_bot_domain": "confab.invalid",
        "realm_authentication_methods": {"Email": {"enabled": true, "available": true}},
        "zulip_plan_is_not_limited": true,
        "upgrade_text_for_wide_organization_logo": "",
        "max_stream_name_length": MAX_STREAM_NAME_LENGTH,
        "max_stream_description_length": MAX_STREAM_DESCRIPTION_LENGTH,
        "max_bulk_new_subscription_messages": super::subscriptions::MAX_BULK_NEW_SUBSCRIPTION_MESSAGES,
        "max_topic_length": MAX_TOPIC_LENGTH,
        "max_message_length": MAX_MESSAGE_LENGTH,
        "max_reminder_note_length": super::reminders::MAX_REMINDER_NOTE_LENGTH,
        "max_file_upload_size_mib": super::uploads::MAX_FILE_UPLOAD_SIZE_MIB,
        "max_avatar_file_size_mib": 5,
        "max_icon_file_size_mib": 5,
        "max_logo_file_size_mib": 5,
        "realm_upload_quota_mib": Value::Null,
        "server_presence_ping_interval_seconds": super::presence::PRESENCE_PING_INTERVAL_SECS,
        "server_presence_offline_threshold_seconds": super::presence::OFFLINE_THRESHOLD_SECS,
        "server_typing_started_expiry_period_milliseconds": 45000,
        "server_typing_stopped_wait_period_milliseconds": 5000,
        "server_typing_started_wait_period_milliseconds": 10000,
        "server_emoji_data_url": "/static/generated/emoji/emoji_api.json",
        "server_avatar_changes_disabled": false,
        "server_name_changes_disabled": false,
        "server_needs_upgrade": false,
        "server_web_public_streams_enabled": false,
        "server_inline_image_preview": true,
        "server_inline_url_embed_preview": false,
        "server_jitsi_server_url": Value::Null,
        "server_report_message_types": [
            {"key": "spam", "name": "Spam"},
            {"key": "harassment", "name": "Harassment"},
            {"key": "inappropriate", "name": "Inappropriate content"},
            {"key": "norms", "name": "Violates community norms"},
            {"key": "other", "name": "Other reason"}
        ],
        "giphy_rating_options": {},
        "stop_words": [],
        "development_environment": false,
        "password_min_length": 6,
        "password_min_guesses": 10000,
        // Zulip's `PASSWORD_MAX_LENGTH` (feature level 338).
        "password_max_length": 100,
        "server_min_deactivated_realm_deletion_days": super::realm_deactivation::MIN_DELETION_DAYS,
        "server_max_deactivated_realm_deletion_days": super::realm_deactivation::MAX_DELETION_DAYS,
        "server_can_summarize_topics": false,
        "max_channel_folder_name_length": super::channel_folders::MAX_FOLDER_NAME_LENGTH,
        "max_channel_folder_description_length": super::channel_folders::MAX_FOLDER_DESCRIPTION_LENGTH,
        // The formats uploaded images are thumbnailed in (feature level 273).
        "server_thumbnail_formats": crate::thumbnails::server_thumbnail_formats(),
        // No incoming webhook integrations are offered (feature levels 318 and 403).
        "realm_incoming_webhook_bots": [],
    });
    let mut block = match value {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let properties = crate::model::realm_properties::realm_properties(&settings.properties);
    block.extend(properties.into_iter().map(|(name, value)| (format!("realm_{name}"), value)));
    block
}

/// The users the client knows: the organization's active users (the current user included,
/// which zulip-terminal requires), the deactivated ones, the system bots, and the current
/// user's own fields at top level. A guest whose access to users is limited gets the users
/// they cannot see as "Unknown user" placeholders, or not at all with `user_list_incomplete`.
fn realm_user_block(
    store: &impl Store,
    actor: &Actor,
    options: &RegisterOptions,
) -> ApiResult<Map<String, Value>> {
    // Custom profile field values go to every signed-in client, as in Zulip.
    let show = |user: &User| -> ApiResult<Value> {
        let mut shown = wire::user(user, &actor.user, Some(super::users::profile_data(store, user)?));
        shown["avatar_url"] = wire::avatar_url_for(user, options.client_gravatar);
        Ok(shown)
    };
    let mut active = Vec::new();
    let mut inactive = Vec::new();
    let mut bots = Vec::new();
    let access = crate::user_access::UserAccess::of(store, &actor.realm, &actor.user)?;
    for user in store.realm_users(actor.realm.id)? {
        if !access.can_see(&user) {
            if !options.capabilities.user_list_incomplete {
                active.push(crate::user_access::placeholder_json(user.id, &actor.realm_url));
            }
        } else if Some(user.id) == actor.realm.notification_bot {
            let mut bot = show(&user)?;
            bot["is_system_bot"] = true.into();
            bots.push(bot);
        } else if user.is_active {
            active.push(show(&user)?);
        } else {
            inactive.push(show(&user)?);
        }
    }
    let user = &actor.user;
    let mut block = Map::new();
    block.insert("realm_users".into(), Value::Array(active));
    block.insert("realm_non_active_users".into(), Value::Array(inactive));
    block.insert("cross_realm_bots".into(), Value::Array(bots));
    let groups = Groups::load(store, actor.realm.id)?;
    let may_create_web_public = super::channels::check_may_make_web_public(&groups, actor).is_ok();
    // What the account's role and groups allow, as events keep it: a user's own deactivation
    // (after which they register no more) does not change these fields.
    let may = |setting: &str| -> ApiResult<bool> {
        Ok(groups.permits_role(user, &crate::groups::realm_setting(&groups, &actor.realm, setting)?, false))
    };
    let (public, private) =
        (may("can_create_public_channel_group")?, may("can_create_private_channel_group")?);
    let own = json!({
        "user_id": user.id,
        "email": user.email,
        "delivery_email": user.delivery_email,
        "full_name": user.full_name,
        "avatar_url": wire::avatar_url(user),
        "avatar_url_medium": wire::avatar_url(user),
        "avatar_source": wire::avatar_source(user),
        "avatar_version": user.avatar_version,
        "is_admin": user.is_admin(),
        "is_owner": user.role == crate::model::Role::Owner,
        // Since feature level 380 administrators and owners are moderators too.
        "is_moderator": crate::permissions::is_moderator(user),
        "is_guest": user.is_guest(),
        "is_billing_admin": false,
        "role": user.role.value(),
        "can_create_streams": public || private,
        "can_create_public_streams": public,
        "can_create_private_streams": private,
        "can_create_web_public_streams": may_create_web_public,
        // Zulip's `can_invite_users_by_email`: sending email invitations.
        "can_invite_others_to_realm": may("can_invite_users_group")?,
        "user_is_deactivated": !user.is_active,
    });
    if let Value::Object(fields) = own {
        block.extend(fields);
    }
    Ok(block)
}

/// Subscriptions, channels left, and channels never joined that the user can see.
/// With `include_subscribers=partial`, channels this big get `partial_subscribers` instead of
/// `subscribers` (spec 2.5).
pub const PARTIAL_SUBSCRIBERS_THRESHOLD: usize = 250;

/// Zulip's window for "recently active" in `partial_subscribers`.
const PARTIAL_SUBSCRIBERS_ACTIVE_DAYS: i64 = 14;

/// For a big channel under `include_subscribers=partial`: replaces `subscribers` with
/// `partial_subscribers`, the bots and the users active in the last 14 days.
pub(crate) fn make_partial(store: &impl Store, shown: &mut Value, now: i64) -> ApiResult<()> {
    let Some(Value::Array(ids)) = shown.get("subscribers").cloned() else { return Ok(()) };
    if ids.len() < PARTIAL_SUBSCRIBERS_THRESHOLD {
        return Ok(());
    }
    let since = now - PARTIAL_SUBSCRIBERS_ACTIVE_DAYS * 24 * 60 * 60;
    let mut partial = Vec::new();
    for id in ids.iter().filter_map(Value::as_u64).map(crate::ids::UserId) {
        let bot = store.user(id)?.is_some_and(|u| u.is_bot());
        let recent = store.presence(id)?.is_some_and(|p| p.last_active_time >= since);
        if bot || recent {
            partial.push(id);
        }
    }
    if let Value::Object(fields) = shown {
        fields.remove("subscribers");
        fields.insert("partial_subscribers".into(), json!(partial));
    }
    Ok(())
}

fn subscription_blocks(
    store: &impl Store,
    user: &User,
    options: &RegisterOptions,
    now: i64,
) -> ApiResult<(Value, Value, Value)> {
    let partial = options.include_subscribers == IncludeSubscribers::Partial;
    let with_subscribers = options.include_subscribers != IncludeSubscribers::No;
    let mut subscribed = Vec::new();
    let mut unsubscribed = Vec::new();
    let mut never = Vec::new();
    let subs = store.user_subscriptions(user.id)?;
    let groups = Groups::load(store, user.realm_id)?;
    // What unset notification settings stand for, for clients that cannot read null: the
    // user's own settings, as Zulip's `post_process_state` fills them.
    let inherited = match options.capabilities.notification_settings_null {
        true => None,
        false => Some(wire::inherited_notification_values(&super::settings::settings_of(store, user)?)),
    };
    let mut inactive = store.deactivated_users(user.realm_id)?;
    inactive.sort_unstable();
    for stream in store.realm_streams(user.realm_id)? {
        if stream.is_archived && !options.capabilities.archived_channels {
            continue;
        }
        let active = active_subscribers_among(store, stream.id, &inactive)?;
        let count = active.len();
        let subscribers = with_subscribers.then_some(active);
        match subs.iter().find(|s| s.stream_id == stream.id) {
            Some(sub) if sub.active => {
                let mut shown = wire::subscription(&groups, &stream, sub, count, subscribers.as_deref());
                if let Some(values) = &inherited {
                    wire::fill_inherited_notification_settings(&mut shown, values);
                }
                if partial {
                    make_partial(store, &mut shown, now)?;
                }
                subscribed.push(shown);
            }
            Some(sub) => {
                if has_metadata_access_in(store, &groups, user, &stream)? {
                    let mut shown = wire::subscription(&groups, &stream, sub, count, subscribers.as_deref());
                    // As Zulip's `post_process_state` does: a subscription left keeps the
                    // settings the client was shown while it was active.
                    if let Some(values) = &inherited {
                        wire::fill_inherited_notification_settings(&mut shown, values);
                    }
                    if partial {
                        make_partial(store, &mut shown, now)?;
                    }
                    unsubscribed.push(shown);
                }
            }
            None => {
                if has_metadata_access_in(store, &groups, user, &stream)? {
                    let mut shown = wire::stream(&groups, &stream, count);
                    if let Some(ids) = &subscribers {
                        shown["subscribers"] = json!(ids);
                    }
                    if partial {
                        make_partial(store, &mut shown, now)?;
                    }
                    never.push(shown);
                }
            }
        }
    }
    Ok((Value::Array(subscribed), Value::Array(unsubscribed), Value::Array(never)))
}

/// The user's direct-message conversations, most recent first, with their newest message.
fn recent_private_conversations(store: &impl Store, user: &User) -> ApiResult<Value> {
    let index = MessageIndex::UserFlag(user.id, IndexedFlag::Private);
    let mut seen: Vec<(Vec<u64>, u64)> = Vec::new();
    for id in store.message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Descending)?.take(1000)
    {
        let id = id?;
        let Some(message) = store.message(id)? else { continue };
        if let MessageKind::Direct { participants } = &message.kind {
            let others: Vec<u64> = participants.iter().filter(|u| **u != user.id).map(|u| u.0).collect();
            if !seen.iter().any(|(ids, _)| *ids == others) {
                seen.push((others, id.0));
            }
        }
    }
    Ok(Value::Array(
        seen.into_iter().map(|(ids, max)| json!({"user_ids": ids, "max_message_id": max})).collect(),
    ))
}
