//! POST   /bots                              add_bot
//! GET    /bots                              get_bots
//! POST   /bots/{bot_id}/api_key/regenerate  regenerate_bot_api_key
//! DELETE /bots/{bot_id}                     deactivate_bot
//!
//! Bots owned by users (Zulip's generic, incoming-webhook and outgoing-webhook bots), under
//! the organization's `can_create_bots_group` (and `can_create_write_only_bots_group` for
//! incoming webhooks). Secrets (API keys, service tokens) come from the host.

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome, active_user_ids};
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, realm_permission};
use crate::ids::UserId;
use crate::model::{BotService, BotType, Credentials, Role, User};
use crate::params::{JsonString, Params};
use crate::store::{Change, Store};
use crate::wire;

use super::user_groups::role_group_events;
use super::users::{NewUser, new_user_changes, validate_full_name};

/// Secrets a new bot needs, drawn by the host.
pub struct BotSecrets {
    pub api_key: String,
    /// The outgoing-webhook token (used only for such bots).
    pub service_token: String,
}

/// Zulip's `check_short_name`: letters, digits, `-` and `_`; a trailing `-bot` is implied.
fn short_name(params: &Params) -> ApiResult<String> {
    let name: String = params.required("short_name")?;
    let name = name.trim().trim_end_matches("-bot").to_owned();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(ApiError::bad_request("Bad name or username"));
    }
    Ok(name)
}

/// Who sees a bot's `realm_bot` events: its owner and the administrators.
pub(crate) fn bot_watchers(store: &impl Store, actor: &Actor, owner: UserId) -> ApiResult<Vec<UserId>> {
    let mut users: Vec<UserId> = store
        .realm_users(actor.realm.id)?
        .iter()
        .filter(|u| u.is_active && u.is_admin())
        .map(|u| u.id)
        .collect();
    if !users.contains(&owner) {
        users.push(owner);
    }
    Ok(users)
}

fn bot_json(bot: &User, api_key: &str, service: Option<&BotService>) -> Value {
    let services: Vec<Value> = service
        .map(|s| json!({"base_url": s.base_url, "interface": s.interface, "token": s.token}))
        .into_iter()
        .collect();
    json!({
        "user_id": bot.id,
        "full_name": bot.full_name,
        "email": bot.email,
        "bot_type": bot.bot_type.map(|t| t.value()),
        "is_active": bot.is_active,
        "api_key": api_key,
        "default_sending_stream": Value::Null,
        "default_events_register_stream": Value::Null,
        "default_all_public_streams": false,
        "avatar_url": wire::avatar_url(bot),
        "owner_id": bot.bot_owner_id,
        "services": services,
    })
}

/// Zulip's `check_can_create_bot`, for creating a bot and for reactivating one:
/// `can_create_bots_group` allows every type, and `can_create_write_only_bots_group` incoming
/// webhooks too. Administrators pass only through these groups (both include them by default).
pub(crate) fn check_can_create_bot(groups: &Groups, actor: &Actor, bot_type: BotType) -> ApiResult<()> {
    let may_create = realm_permission(groups, &actor.realm, &actor.user, "can_create_bots_group")?
        || (bot_type == BotType::IncomingWebhook
            && realm_permission(groups, &actor.realm, &actor.user, "can_create_write_only_bots_group")?);
    if may_create { Ok(()) } else { Err(ApiError::insufficient_permission()) }
}

/// `POST /bots`.
pub fn add_bot(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    secrets: BotSecrets,
    now: i64,
) -> ApiResult<Outcome> {
    let full_name = validate_full_name(&params.required::<String>("full_name")?)?;
    let short = short_name(params)?;
    let bot_type = match params.optional::<i64>("bot_type")? {
        Some(value) => BotType::from_value(value).ok_or_else(|| ApiError::bad_request("Invalid bot_type"))?,
        None => BotType::Generic,
    };
    if bot_type == BotType::Embedded {
        return Err(ApiError::bad_request("Invalid bot_type"));
    }
    let groups = Groups::load(store, actor.realm.id)?;
    check_can_create_bot(&groups, actor, bot_type)?;
    let service = if bot_type == BotType::OutgoingWebhook {
        let JsonString(base_url) = params.required("payload_url")?;
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(ApiError::bad_request("payload_url is not a URL"));
        }
        let interface = params.optional::<i64>("interface_type")?.unwrap_or(1);
        if !(1..=2).contains(&interface) {
            return Err(ApiError::bad_request("Invalid interface type"));
        }
        Some((base_url, interface as u8))
    } else {
        None
    };
    let email = format!("{short}-bot@{}", super::users::email_domain(&actor.realm_url));
    if store.user_by_delivery_email(actor.realm.id, &email)?.is_some() {
        return Err(ApiError::bad_request("Username already in use"));
    }
    let new = NewUser {
        email,
        full_name,
        role: Role::Member,
        bot_type: Some(bot_type),
        bot_owner_id: Some(actor.user.id),
        api_key: secrets.api_key.clone(),
        password_hash: None,
    };
    let (id, mut changes) = new_user_changes(store, &actor.realm, new, now)?;
    let bot = changes
        .iter()
        .find_map(|c| match c {
            Change::PutUser(u) => Some(u.clone()),
            _ => None,
        })
        .ok_or_else(|| ApiError::internal("bot not created"))?;
    let service = service.map(|(base_url, interface)| BotService {
        bot_id: id,
        base_url,
        interface,
        token: secrets.service_token,
    });
    if let Some(service) = &service {
        changes.push(Change::PutBotService(service.clone()));
    }
    let mut everyone = active_user_ids(store, actor.realm.id)?;
    everyone.push(id);
    let mut events = vec![
        Event::Other {
            users: everyone,
            body: json!({"type": "realm_user", "op": "add", "person": wire::user(&bot, &bot, None)}),
        },
        Event::Other {
            users: bot_watchers(store, actor, actor.user.id)?,
            body: json!({"type": "realm_bot", "op": "add", "bot": bot_json(&bot, &secrets.api_key, service.as_ref())}),
        },
    ];
    events.extend(role_group_events(&groups, id, None, Some(bot.role)));
    Ok(Outcome { changes, events, ..Outcome::default() }
        .reply("user_id", id.0)
        .reply("api_key", secrets.api_key)
        .reply("avatar_url", wire::avatar_url(&bot))
        .reply("default_sending_stream", Value::Null)
        .reply("default_events_register_stream", Value::Null)
        .reply("default_all_public_streams", false))
}

/// The bots the actor may manage: their own, or every bot for administrators.
pub(crate) fn managed_bot(store: &impl Store, actor: &Actor, id: UserId) -> ApiResult<User> {
    let bot = store
        .user(id)?
        .filter(|u| u.realm_id == actor.realm.id && u.is_bot())
        .ok_or_else(|| ApiError::bad_request("No such bot"))?;
    if bot.bot_owner_id != Some(actor.user.id) && !actor.user.is_admin() {
        return Err(ApiError::bad_request("Insufficient permission"));
    }
    Ok(bot)
}

/// `GET /bots`: the actor's active bots (every active bot for administrators), with keys.
pub fn get_bots(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    let mut bots = Vec::new();
    for bot in store.realm_users(actor.realm.id)? {
        if bot.is_active && administers(actor, &bot) {
            bots.push(bot_json_of(store, &bot)?);
        }
    }
    Ok(Outcome::default().reply("bots", bots))
}

/// A bot as `realm_bots` shows it, with its key and service.
pub fn bot_json_of(store: &impl Store, bot: &User) -> ApiResult<Value> {
    let key = store.credentials(bot.id)?.map(|c| c.api_key).unwrap_or_default();
    Ok(bot_json(bot, &key, store.bot_service(bot.id)?.as_ref()))
}

/// Register's `realm_bots`: the bots the user administers (every bot for administrators,
/// else their own), deactivated ones included with `is_active`, as Zulip's
/// `get_owned_bot_dicts` lists them.
pub fn realm_bots_json(store: &impl Store, actor: &Actor) -> ApiResult<Value> {
    let mut bots = Vec::new();
    for bot in store.realm_users(actor.realm.id)? {
        if administers(actor, &bot) {
            bots.push(bot_json_of(store, &bot)?);
        }
    }
    Ok(Value::Array(bots))
}

/// Whether the actor administers `bot`. The notification bot is the server's, not a user's
/// (Zulip's is cross-realm).
fn administers(actor: &Actor, bot: &User) -> bool {
    bot.is_bot()
        && actor.realm.notification_bot != Some(bot.id)
        && (actor.user.is_admin() || bot.bot_owner_id == Some(actor.user.id))
}

/// The `realm_bot` event of a bot's deactivation or reactivation (since feature level 222 an
/// `update` of `is_active`; the bot stays listed), to its owner and the administrators.
pub fn bot_activity_event(store: &impl Store, actor: &Actor, bot: &User) -> ApiResult<Event> {
    Ok(Event::Other {
        users: bot_watchers(store, actor, bot.bot_owner_id.unwrap_or(actor.user.id))?,
        body: json!({"type": "realm_bot", "op": "update", "bot": {"user_id": bot.id, "is_active": bot.is_active}}),
    })
}

/// The deactivated owner a bot leaves when it is reactivated. Zulip's `do_reactivate_user`
/// makes the reactivating administrator its owner instead, so that the bot does not come back
/// acting for someone who no longer can.
pub fn deactivated_owner(store: &impl Store, bot: &User) -> ApiResult<Option<User>> {
    let Some(owner) = bot.bot_owner_id.filter(|_| bot.is_bot()) else { return Ok(None) };
    Ok(store.user(owner)?.filter(|o| !o.is_active))
}

/// The events of a bot's change of owner, `bot` carrying its new one (Zulip's
/// `send_bot_owner_update_events`): the previous owner's `realm_bots` loses it and a new owner
/// who is not an administrator gains it (administrators list every bot already); the other
/// owner and administrators see its `owner_id` change, and everyone its user record's
/// `bot_owner_id`.
pub fn owner_change_events(
    store: &impl Store,
    actor: &Actor,
    bot: &User,
    previous: &User,
    new: &User,
) -> ApiResult<Vec<Event>> {
    let mut events = Vec::new();
    let mut watchers = bot_watchers(store, actor, new.id)?;
    if !previous.is_admin() {
        events.push(Event::Other {
            users: vec![previous.id],
            body: json!({"type": "realm_bot", "op": "delete", "bot": {"user_id": bot.id}}),
        });
        watchers.retain(|id| *id != previous.id);
    }
    if !new.is_admin() {
        events.push(Event::Other {
            users: vec![new.id],
            body: json!({"type": "realm_bot", "op": "add", "bot": bot_json_of(store, bot)?}),
        });
        watchers.retain(|id| *id != new.id);
    }
    events.push(Event::Other {
        users: watchers,
        body: json!({"type": "realm_bot", "op": "update", "bot": {"user_id": bot.id, "owner_id": new.id}}),
    });
    let mut everyone = active_user_ids(store, actor.realm.id)?;
    if bot.is_active && !everyone.contains(&bot.id) {
        everyone.push(bot.id);
    }
    events.push(Event::Other {
        users: everyone,
        body: json!({"type": "realm_user", "op": "update", "person": {"user_id": bot.id, "bot_owner_id": new.id}}),
    });
    Ok(events)
}

/// `POST /bots/{bot_id}/api_key/regenerate`: the old key stops working at once.
pub fn regenerate_bot_api_key(
    store: &impl Store,
    actor: &Actor,
    id: UserId,
    new_key: String,
) -> ApiResult<Outcome> {
    let bot = managed_bot(store, actor, id)?;
    let credentials =
        store.credentials(id)?.unwrap_or(Credentials { api_key: String::new(), password_hash: None });
    let event = Event::Other {
        users: bot_watchers(store, actor, bot.bot_owner_id.unwrap_or(actor.user.id))?,
        body: json!({"type": "realm_bot", "op": "update", "bot": {"user_id": id, "api_key": new_key}}),
    };
    Ok(Outcome {
        changes: vec![Change::PutCredentials(id, Credentials { api_key: new_key.clone(), ..credentials })],
        events: vec![event],
        ..Outcome::default()
    }
    .reply("api_key", new_key))
}

/// `DELETE /bots/{bot_id}`: deactivates the bot, as deactivating any account does (Zulip's
/// `deactivate_bot_backend` and `deactivate_user_backend` share `do_deactivate_user`).
pub fn deactivate_bot(store: &impl Store, actor: &Actor, id: UserId) -> ApiResult<Outcome> {
    let bot = managed_bot(store, actor, id)?;
    if !bot.is_active {
        return Err(ApiError::bad_request("No such bot"));
    }
    super::users::deactivate(store, actor, bot)
}
