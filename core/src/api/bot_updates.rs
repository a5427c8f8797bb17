//! `PATCH /bots/{bot_id}` (Zulip's `patch_bot_backend`): a bot's name, owner, role and
//! outgoing-webhook service, changed by its owner or an administrator.
//!
//! A bot's default channels (`default_sending_stream`, `default_events_register_stream`,
//! `default_all_public_streams`) and embedded-bot `config_data` are not kept by Confab: sent
//! here, they come back in `ignored_parameters_unsupported`, Zulip's way of saying so.

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::model::{BotType, User};
use crate::params::{JsonString, Params};
use crate::store::{Change, Store};
use crate::wire;

use super::bots::{bot_watchers, managed_bot, owner_change_events};
use super::users::validate_full_name;

pub fn update_bot(store: &impl Store, actor: &Actor, id: UserId, params: &Params) -> ApiResult<Outcome> {
    let bot = managed_bot(store, actor, id)?;
    let mut updated = bot.clone();
    let mut outcome = Outcome::default();
    let watchers = bot_watchers(store, actor, bot.bot_owner_id.unwrap_or(actor.user.id))?;
    let everyone = crate::command::active_user_ids(store, actor.realm.id)?;

    if let Some(name) = params.optional::<String>("full_name")? {
        let name = validate_full_name(&name)?;
        if name != bot.full_name {
            let taken = store
                .realm_users(actor.realm.id)?
                .iter()
                .any(|u| u.id != bot.id && u.is_bot() && u.full_name.eq_ignore_ascii_case(&name));
            if taken {
                return Err(ApiError::bad_request("Name is already in use!"));
            }
            updated.full_name = name.clone();
            outcome.events.push(Event::Other {
                users: watchers.clone(),
                body: json!({"type": "realm_bot", "op": "update", "bot": {"user_id": bot.id, "full_name": name}}),
            });
            outcome.events.push(Event::Other {
                users: everyone.clone(),
                body: json!({"type": "realm_user", "op": "update", "person": {"user_id": bot.id, "full_name": name}}),
            });
        }
    }
    if let Some(owner_id) = params.optional::<u64>("bot_owner_id")?.map(UserId) {
        let owner: User = store
            .user(owner_id)?
            .filter(|u| u.realm_id == actor.realm.id)
            .ok_or_else(|| ApiError::bad_request("Failed to change owner, no such user"))?;
        if !owner.is_active {
            return Err(ApiError::bad_request("Failed to change owner, user is deactivated"));
        }
        if owner.is_bot() {
            return Err(ApiError::bad_request("Failed to change owner, bots can't own other bots"));
        }
        if bot.bot_owner_id != Some(owner.id) {
            let previous = match bot.bot_owner_id {
                Some(previous) => store.user(previous)?,
                None => None,
            };
            updated.bot_owner_id = Some(owner.id);
            if let Some(previous) = previous {
                outcome.events.extend(owner_change_events(store, actor, &updated, &previous, &owner)?);
            }
        }
    }
    if let Some(JsonString(url)) = params.optional::<JsonString>("service_payload_url")? {
        if bot.bot_type != Some(BotType::OutgoingWebhook) {
            return Err(ApiError::bad_request("No such bot"));
        }
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(ApiError::bad_request("service_payload_url is not a URL"));
        }
        let interface = params.or::<i64>("service_interface", 1)?;
        if !(1..=2).contains(&interface) {
            return Err(ApiError::bad_request("Invalid interface type"));
        }
        let service = store.bot_service(bot.id)?.ok_or_else(|| ApiError::bad_request("No such bot"))?;
        let service =
            crate::model::BotService { base_url: url.clone(), interface: interface as u8, ..service };
        outcome.changes.push(Change::PutBotService(service.clone()));
        outcome.events.push(Event::Other {
            users: watchers.clone(),
            body: json!({"type": "realm_bot", "op": "update", "bot": {"user_id": bot.id, "services": [
                {"base_url": service.base_url, "interface": service.interface, "token": service.token}
            ]}}),
        });
    }
    let role_change = params.raw("role").is_some();
    if updated != bot {
        outcome.changes.push(Change::PutUser(updated.clone()));
    }
    if role_change {
        // A bot's role changes as any account's does: administrators only, owners for owners.
        let mut role_outcome = super::user_updates::update_user_role(store, actor, &updated, params)?;
        outcome.changes.append(&mut role_outcome.changes);
        outcome.events.append(&mut role_outcome.events);
    }
    let owner_email = match updated.bot_owner_id {
        Some(owner) => store.user(owner)?.map(|o| o.email),
        None => None,
    };
    let service = store.bot_service(bot.id)?;
    let mut reply = outcome
        .reply("full_name", updated.full_name.clone())
        .reply("avatar_url", wire::avatar_url(&updated))
        .reply("default_sending_stream", Value::Null)
        .reply("default_events_register_stream", Value::Null)
        .reply("default_all_public_streams", false);
    if let Some(service) = service {
        let url = params.optional::<JsonString>("service_payload_url")?.map_or(service.base_url, |u| u.0);
        reply = reply
            .reply("service_payload_url", url)
            .reply("service_interface", params.or::<i64>("service_interface", i64::from(service.interface))?);
    }
    if let Some(email) = owner_email {
        reply = reply.reply("bot_owner", email);
    }
    Ok(reply)
}
