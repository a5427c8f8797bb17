//! Creating an organization with its first owner (`confab serve` on an empty data directory,
//! and `confab create-realm`), and changing its settings.
//!
//! A new organization starts as Zulip's `do_create_realm` leaves one: a public channel
//! `general`, default for new users and where new channels and Zulip updates are announced,
//! with the first owner subscribed. Zulip (10.0 on) also creates `Zulip` and `sandbox` to
//! hold its Welcome Bot's onboarding messages; Confab sends none, so it leaves them out.
//!
//! PATCH /realm   update_realm

use serde_json::{Map, Value, json};

use crate::command::{Actor, Event, Outcome, require_admin};
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, REALM_GROUP_SETTINGS, realm_setting, setting_change};
use crate::ids::{IdKind, RealmId, RecipientId, StreamId, UserId};
use crate::model::{BotType, Realm, Recipient, RecipientKind, Role, Stream, Subscription, User};
use crate::params::{Json, Params, refuse_nul};
use crate::store::{Change, IdAllocator, Store};
use crate::subdomains::check_subdomain_available;

use super::channels::new_stream;
use super::subscriptions::stream_color;
use super::users::{NewUser, new_user_changes};

/// The longest organization name Zulip accepts.
pub const MAX_REALM_NAME_LENGTH: usize = 40;
/// Zulip's `Realm.MAX_REALM_DESCRIPTION_LENGTH`.
pub const MAX_REALM_DESCRIPTION_LENGTH: usize = 1000;

/// The domain of the notification bot's address. Bots have no mailbox; the address only has to
/// be unique and recognizable.
pub const NOTIFICATION_BOT_DOMAIN: &str = "confab.invalid";

/// The channel every new organization starts with (Zulip's `DEFAULT_NOTIFICATION_STREAM_NAME`).
pub const INITIAL_CHANNEL_NAME: &str = "general";

/// Its description, Zulip's since 10.0.
pub const INITIAL_CHANNEL_DESCRIPTION: &str = "For team-wide conversations";

/// The organization settings that name the initial channel, as Zulip sets them.
const INITIAL_CHANNEL_SETTINGS: [&str; 2] =
    ["new_stream_announcements_stream_id", "zulip_update_announcements_stream_id"];

/// What a new organization needs.
#[derive(Clone, Debug)]
pub struct NewRealm {
    pub subdomain: String,
    pub name: String,
    pub owner: NewUser,
}

/// Creates an organization, its owner and its initial channel (see the module documentation).
/// The owner's role is forced to owner. The subdomain must be free and follow Zulip's rules
/// (`subdomains::check_subdomain_available`); the empty one puts the organization on the
/// server's root.
pub fn create_realm(store: &impl Store, new: NewRealm, now: i64) -> ApiResult<Outcome> {
    check_subdomain_available(store, &new.subdomain)?;
    let name = new.name.trim();
    if name.is_empty() || name.chars().count() > MAX_REALM_NAME_LENGTH {
        return Err(ApiError::bad_request("Invalid organization name"));
    }
    let realm = Realm {
        id: RealmId(IdAllocator::new(store, IdKind::Realm)?.take()),
        subdomain: new.subdomain,
        name: name.to_owned(),
        description: String::new(),
        date_created: now,
        deactivated: false,
        notification_bot: None,
        settings: Default::default(),
    };
    let owner = NewUser { role: Role::Owner, ..new.owner };
    let mut changes = Vec::new();
    let (user_id, user_changes) = new_user_changes(store, &realm, owner, now)?;
    changes.extend(user_changes);
    // The notification bot's id follows the owner's: both come from the same counter, and
    // the owner's change moves it only when applied, so allocate past it here.
    let bot_id = UserId(user_id.0 + 1);
    let bot_recipient = RecipientId(store.next_id(IdKind::Recipient)? + 1);
    let bot = User {
        id: bot_id,
        realm_id: realm.id,
        email: format!("notification-bot@{}", NOTIFICATION_BOT_DOMAIN),
        delivery_email: format!("notification-bot@{}", NOTIFICATION_BOT_DOMAIN),
        email_address_visibility: crate::model::EmailVisibility::Everyone,
        full_name: "Notification Bot".to_owned(),
        role: Role::Member,
        bot_type: Some(BotType::Generic),
        bot_owner_id: None,
        is_active: true,
        date_joined: now,
        timezone: String::new(),
        avatar_version: 1,
        avatar: None,
        personal_recipient: bot_recipient,
    };
    changes
        .push(Change::PutRecipient(Recipient { id: bot_recipient, kind: RecipientKind::Personal(bot_id) }));
    changes.push(Change::PutUser(bot));
    let mut group_ids = IdAllocator::new(store, IdKind::UserGroup)?;
    changes.extend(crate::groups::system_group_changes(realm.id, &mut group_ids));
    // Zulip's `ensure_stream`: no creator, and no creation notice (that comes from the
    // endpoints that create channels).
    let general = Stream {
        is_default: true,
        ..new_stream(
            realm.id,
            None,
            StreamId(IdAllocator::new(store, IdKind::Stream)?.take()),
            RecipientId(bot_recipient.0 + 1),
            INITIAL_CHANNEL_NAME.to_owned(),
            INITIAL_CHANNEL_DESCRIPTION.to_owned(),
            false,
            None,
            now,
        )
    };
    changes.push(Change::PutRecipient(Recipient {
        id: general.recipient_id,
        kind: RecipientKind::Stream(general.id),
    }));
    let general_id = general.id;
    changes.push(Change::PutStream(general));
    changes.push(Change::PutSubscription(Subscription::new(user_id, general_id, stream_color(0))));
    let mut realm = Realm { notification_bot: Some(bot_id), ..realm };
    for setting in INITIAL_CHANNEL_SETTINGS {
        realm.settings.properties.insert(setting.to_owned(), general_id.0.into());
    }
    changes.insert(0, Change::PutRealm(realm.clone()));
    Ok(Outcome { changes, ..Outcome::default() }.reply("realm_id", realm.id.0).reply("user_id", user_id.0))
}

/// A time limit parameter: seconds, or `"unlimited"` (Zulip's form since feature level 138).
fn time_limit(params: &Params, name: &str) -> ApiResult<Option<Option<i64>>> {
    match params.raw(name) {
        None => Ok(None),
        Some("unlimited") | Some("\"unlimited\"") => Ok(Some(None)),
        Some(raw) => match raw.trim().parse::<i64>() {
            Ok(seconds) if seconds > 0 => Ok(Some(Some(seconds))),
            _ => Err(ApiError::bad_request(format!("Bad value for '{name}': {raw}"))),
        },
    }
}

/// `PATCH /realm`: administrators change organization settings. Every changed setting is
/// reported in one `realm`/`update_dict` event.
pub fn update_realm(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let mut realm = actor.realm.clone();
    let mut data = Map::new();
    if let Some(name) = params.optional::<String>("name")? {
        refuse_nul("name", &name)?;
        let name = name.trim().to_owned();
        if name.is_empty() || name.chars().count() > MAX_REALM_NAME_LENGTH {
            return Err(ApiError::bad_request("Invalid organization name"));
        }
        data.insert("name".into(), name.clone().into());
        realm.name = name;
    }
    if let Some(description) = params.optional::<String>("description")? {
        refuse_nul("description", &description)?;
        if description.chars().count() > MAX_REALM_DESCRIPTION_LENGTH {
            return Err(ApiError::bad_request("Organization description is too long."));
        }
        data.insert("description".into(), description.clone().into());
        realm.description = description;
    }
    if let Some(allow) = params.optional::<bool>("allow_message_editing")? {
        data.insert("allow_message_editing".into(), allow.into());
        realm.settings.allow_message_editing = allow;
    }
    for (name, slot) in [
        ("message_content_edit_limit_seconds", &mut realm.settings.message_content_edit_limit_seconds),
        ("message_content_delete_limit_seconds", &mut realm.settings.message_content_delete_limit_seconds),
        (
            "move_messages_within_stream_limit_seconds",
            &mut realm.settings.move_messages_within_stream_limit_seconds,
        ),
        (
            "move_messages_between_streams_limit_seconds",
            &mut realm.settings.move_messages_between_streams_limit_seconds,
        ),
    ] {
        if let Some(limit) = time_limit(params, name)? {
            data.insert(name.into(), limit.map_or(Value::Null, Value::from));
            *slot = limit;
        }
    }
    if let Some(channel) = params.optional::<i64>("moderation_request_channel_id")? {
        // -1 turns reporting off, as in Zulip.
        let channel = if channel == -1 {
            None
        } else {
            let id =
                StreamId(u64::try_from(channel).map_err(|_| ApiError::bad_request("Invalid channel ID"))?);
            let stream = store.stream(id)?.filter(|s| s.realm_id == realm.id && !s.is_archived);
            Some(stream.ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?.id)
        };
        data.insert(
            "moderation_request_channel_id".into(),
            channel.map_or(Value::from(-1), |c| Value::from(c.0)),
        );
        realm.settings.moderation_request_channel_id = channel;
    }
    if let Some(policy) = params.optional::<String>("message_edit_history_visibility_policy")? {
        if !["all", "moves", "none"].contains(&policy.as_str()) {
            return Err(ApiError::bad_request("Invalid message_edit_history_visibility_policy"));
        }
        data.insert("message_edit_history_visibility_policy".into(), policy.clone().into());
        realm.settings.message_edit_history_visibility_policy = policy;
    }
    if let Some(policy) = params.optional::<String>("topics_policy")? {
        if !["allow_empty_topic", "disable_empty_topic"].contains(&policy.as_str()) {
            return Err(ApiError::bad_request("Invalid topics_policy"));
        }
        data.insert("topics_policy".into(), policy.clone().into());
        realm.settings.topics_policy = policy;
    }
    let groups = Groups::load(store, realm.id)?;
    for (name, _, _) in REALM_GROUP_SETTINGS {
        let Some(Json(change)) = params.optional::<Json<Value>>(name)? else { continue };
        let current = realm_setting(&groups, &realm, name)?;
        let new = groups.parse_setting(name, setting_change(&groups, name, &current, &change)?)?;
        if let Some(rules) = crate::permission_settings::find(crate::permission_settings::REALM, name) {
            crate::permission_settings::check(&groups, &rules, &new)?;
        }
        if name == "can_manage_all_groups" && actor.user.role != Role::Owner {
            return Err(ApiError::owner_required());
        }
        data.insert(name.into(), groups.shown_setting(&new));
        realm.settings.groups.insert(name.to_owned(), new);
    }
    let property_events = super::realm_properties::apply_property_changes(store, &mut realm, params)?;
    if data.is_empty() && property_events.is_empty() {
        return Ok(Outcome::default());
    }
    let users: Vec<UserId> =
        store.realm_users(realm.id)?.iter().filter(|u| u.is_active).map(|u| u.id).collect();
    let mut events = Vec::new();
    if !data.is_empty() {
        let body = json!({"type": "realm", "op": "update_dict", "property": "default", "data": data});
        events.push(Event::Other { users: users.clone(), body });
    }
    events.extend(property_events.into_iter().map(|body| Event::Other { users: users.clone(), body }));
    Ok(Outcome { changes: vec![Change::PutRealm(realm)], events, ..Outcome::default() })
}
