//! Users (accounts, mirror accounts, bots) with their credentials and settings, custom profile
//! fields and their values, and what users keep for themselves: alert words, muted users,
//! topic preferences.

use std::collections::{BTreeMap, HashMap, HashSet};

use confab_core::ids::{RecipientId, UserId};
use confab_core::model::{
    BotService, BotType, Credentials, EmailVisibility, ProfileField, ProfileFieldType, ProfileValue,
    Recipient, RecipientKind, RecordKind, Role, User,
};
use confab_core::store::Change;
use confab_core::{ApiError, ApiResult};
use serde_json::json;

use super::{Planner, Secrets};
use crate::import_zulip::export::USER_FIELD;
use crate::import_zulip::format::UserRow;
use crate::import_zulip::rewrite::password_phc;
use crate::import_zulip::settings;

impl Planner<'_> {
    /// Every user, in id order. Zulip's system bots are the notification bot.
    pub(super) fn users(&mut self, secrets: &Secrets) -> ApiResult<Vec<Change>> {
        let mut rows: Vec<&UserRow> = self.export.user_rows().collect();
        rows.sort_by_key(|u| u.id);
        for user in &rows {
            self.users.insert(user.id, UserId(self.ids.user.take()));
        }
        for crossrealm in &self.export.realm.zerver_userprofile_crossrealm {
            self.users.insert(crossrealm.id, self.bot);
        }
        let mirrors: HashSet<u64> =
            self.export.realm.zerver_userprofile_mirrordummy.iter().map(|u| u.id).collect();
        let mut changes = Vec::new();
        for user in rows {
            let id = self.users[&user.id];
            let recipient = RecipientId(self.ids.recipient.take());
            self.personal.insert(user.id, recipient);
            let visibility =
                user.email_address_visibility.and_then(EmailVisibility::from_value).unwrap_or_default();
            // As `api::users::api_email` makes it, on the exporting server's domain: the
            // importing server's is not known here.
            let email = match visibility {
                EmailVisibility::Everyone => user.delivery_email.clone(),
                _ => format!("user{}@{}", id.0, user.email.rsplit('@').next().unwrap_or("localhost")),
            };
            let password_hash = user.password.as_deref().and_then(password_phc);
            // Django marks an unusable password with a leading `!`: nothing is lost there.
            if user.password.as_deref().is_some_and(|p| !p.starts_with('!') && password_hash.is_none()) {
                self.counts.passwords_dropped += 1;
            }
            changes
                .push(Change::PutRecipient(Recipient { id: recipient, kind: RecipientKind::Personal(id) }));
            changes.push(Change::PutUser(User {
                id,
                realm_id: self.realm.id,
                email,
                delivery_email: user.delivery_email.clone(),
                email_address_visibility: visibility,
                full_name: user.full_name.clone(),
                role: Role::from_value(user.role).unwrap_or(Role::Member),
                bot_type: user
                    .is_bot
                    .then(|| user.bot_type.and_then(BotType::from_value).unwrap_or(BotType::Generic)),
                bot_owner_id: self.user(user.bot_owner),
                is_active: user.is_active && !mirrors.contains(&user.id),
                date_joined: user.date_joined as i64,
                timezone: user.timezone.clone(),
                avatar_version: 1,
                avatar: self.kept.avatars.get(&user.id).cloned(),
                personal_recipient: recipient,
            }));
            let api_key =
                secrets.api_keys.get(&user.id).cloned().ok_or_else(|| ApiError::internal("no API key"))?;
            changes.push(Change::PutCredentials(id, Credentials { api_key, password_hash }));
            let changed = settings::user_settings(&user.rest);
            if !changed.is_empty() {
                changes.push(Change::PutUserSettings(id, changed));
            }
            self.counts.users += 1;
        }
        // Bots' services, with new tokens: the token shows the service a request comes from
        // this server.
        for service in &self.export.realm.zerver_service {
            let token = secrets.service_tokens.get(&service.user_profile).cloned();
            changes.push(Change::PutBotService(BotService {
                bot_id: self.users[&service.user_profile],
                base_url: service.base_url.clone(),
                interface: service.interface,
                token: token.ok_or_else(|| ApiError::internal("no service token"))?,
            }));
        }
        self.counts.avatars = self.kept.avatars.len();
        Ok(changes)
    }

    /// Custom profile fields and users' values for them; user fields' values name the new ids.
    pub(super) fn profile_fields(&mut self) -> Vec<Change> {
        let realm = &self.export.realm;
        let mut fields = HashMap::new();
        let mut changes = Vec::new();
        for field in &realm.zerver_customprofilefield {
            let Some(field_type) = ProfileFieldType::from_value(field.field_type) else { continue };
            let id = self.ids.profile_field.take();
            fields.insert(field.id, (id, field.field_type));
            changes.push(Change::PutProfileField(ProfileField {
                id,
                realm_id: self.realm.id,
                name: field.name.clone(),
                hint: field.hint.clone(),
                field_type,
                field_data: field.field_data.clone().unwrap_or_default(),
                order: field.order,
                display_in_profile_summary: field.display_in_profile_summary,
                required: field.required,
                editable_by_user: field.editable_by_user,
            }));
        }
        for value in &realm.zerver_customprofilefieldvalue {
            let (field_id, field_type) = fields[&value.field];
            let text = if field_type == USER_FIELD {
                let old: Vec<u64> = serde_json::from_str(&value.value).unwrap_or_default();
                let new: Vec<u64> = old.iter().filter_map(|u| self.users.get(u)).map(|u| u.0).collect();
                serde_json::to_string(&new).unwrap_or_default()
            } else {
                value.value.clone()
            };
            changes.push(Change::PutProfileValue {
                user: self.users[&value.user_profile],
                field: field_id,
                value: Some(ProfileValue {
                    field_id,
                    value: text,
                    rendered_value: value.rendered_value.clone(),
                }),
            });
        }
        changes
    }

    /// Statuses, alert words, muted users and topic preferences (muted, unmuted, followed
    /// topics), as Confab's own endpoints store them.
    pub(super) fn personal_records(&mut self) -> Vec<Change> {
        let realm = &self.export.realm;
        let mut changes = Vec::new();
        let mut words: BTreeMap<UserId, Vec<String>> = BTreeMap::new();
        for word in &realm.zerver_alertword {
            words.entry(self.users[&word.user_profile]).or_default().push(word.word.clone());
        }
        changes.extend(words.into_iter().map(|(user, words)| Change::PutAlertWords(user, words)));
        for muted in &realm.zerver_muteduser {
            changes.push(Change::PutRecord {
                user: self.users[&muted.user_profile],
                kind: RecordKind::MutedUser,
                id: self.users[&muted.muted_user].0,
                value: json!({"timestamp": muted.date_muted as i64}),
            });
        }
        for status in &realm.zerver_userstatus {
            let mut value = serde_json::Map::new();
            if !status.status_text.is_empty() {
                value.insert("status_text".into(), status.status_text.clone().into());
            }
            if !status.emoji_name.is_empty() {
                let code = match status.reaction_type.as_str() {
                    "realm_emoji" => self.emoji_codes[&status.emoji_code].clone(),
                    _ => status.emoji_code.clone(),
                };
                value.insert("emoji_name".into(), status.emoji_name.clone().into());
                value.insert("emoji_code".into(), code.into());
                value.insert("reaction_type".into(), status.reaction_type.clone().into());
            }
            if !value.is_empty() {
                changes.push(Change::PutRecord {
                    user: self.users[&status.user_profile],
                    kind: RecordKind::UserStatus,
                    // A user's one status (`api::user_status`).
                    id: 0,
                    value: value.into(),
                });
            }
        }
        // A policy of 0 (inherit) is no preference.
        for topic in realm.zerver_usertopic.iter().filter(|t| t.visibility_policy != 0) {
            changes.push(Change::PutRecord {
                user: self.users[&topic.user_profile],
                kind: RecordKind::UserTopic,
                id: self.ids.record.take(),
                value: json!({
                    "stream_id": self.streams[&topic.stream].0,
                    "topic_name": topic.topic_name,
                    "last_updated": topic.last_updated as i64,
                    "visibility_policy": topic.visibility_policy,
                }),
            });
        }
        changes
    }
}
