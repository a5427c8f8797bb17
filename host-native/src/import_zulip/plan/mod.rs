//! The checked export as Confab's own writes: every row gets a new id from the store's
//! counters (Zulip's ids are remapped, as its own import does) and becomes the `Change`s the
//! server's commands write, in phases so that progress can be shown. One file per part of the
//! organization; [`Planner`] holds what the parts planned before need (the new ids).

mod channels;
mod messages;
mod organization;
mod people;

use std::collections::{HashMap, HashSet};

use confab_core::ids::{IdKind, MessageId, RealmId, RecipientId, StreamId, UserGroupId, UserId};
use confab_core::model::{GroupSetting, ImageAttachment, Realm};
use confab_core::store::{Change, IdAllocator, Store};
use confab_core::{ApiError, ApiResult};

pub use messages::content_type;

use super::export::Export;
use super::format::RealmRow;
use super::settings;

/// The `Change`s of one phase, named for the progress lines.
pub struct Phase {
    pub name: &'static str,
    pub changes: Vec<Change>,
}

/// What the files phase kept, which the records name.
#[derive(Debug, Default)]
pub struct KeptFiles {
    /// Old user id → the avatar's path under `/user_avatars/`.
    pub avatars: HashMap<u64, String>,
    /// Attachment path id → its new path id.
    pub uploads: HashMap<String, String>,
    /// Attachment path id → the image thumbnailed, as an upload's is.
    pub images: HashMap<String, ImageAttachment>,
}

/// What was imported, counted for the summary.
#[derive(Debug, Default)]
pub struct Counts {
    pub users: usize,
    pub channels: usize,
    pub subscriptions: usize,
    pub messages: usize,
    pub reactions: usize,
    pub user_groups: usize,
    pub custom_emoji: usize,
    pub uploads: usize,
    pub avatars: usize,
    /// Users with a password hash that could not be kept (not argon2).
    pub passwords_dropped: usize,
}

pub struct Plan {
    /// The organization as the last change stores it: active, with its settings.
    pub realm: Realm,
    /// Messages the export did not render (Zulip leaves `rendered_content` null when its own
    /// rendering failed, and imports from other products have none): the writing phase renders
    /// them once their senders, channels and emoji are stored.
    pub unrendered: HashSet<MessageId>,
    pub phases: Vec<Phase>,
    pub counts: Counts,
}

/// Secrets drawn by the host (core draws no randomness), by old user id: every user's new API
/// key, and bots' new service tokens (Zulip's import makes new ones too).
#[derive(Debug, Default)]
pub struct Secrets {
    pub api_keys: HashMap<u64, String>,
    pub service_tokens: HashMap<u64, String>,
}

/// Remaps the export into changes against the store's counters. The organization is written
/// deactivated; the caller's last change, `Plan::realm`, activates it.
pub fn plan(
    store: &impl Store,
    export: &Export,
    subdomain: &str,
    kept: &KeptFiles,
    secrets: &Secrets,
) -> ApiResult<Plan> {
    confab_core::subdomains::check_subdomain_available(store, subdomain)?;
    let row = export.realm.zerver_realm.first().ok_or_else(|| ApiError::internal("no organization"))?;
    let mut planner = Planner::new(store, export, kept, subdomain, row)?;
    let phases = vec![
        Phase { name: "organization", changes: planner.organization() },
        Phase { name: "users", changes: planner.users(secrets)? },
        Phase { name: "custom profile fields", changes: planner.profile_fields() },
        Phase { name: "user groups", changes: planner.user_groups() },
        Phase { name: "channels and subscriptions", changes: planner.channels() },
        Phase { name: "custom emoji", changes: planner.custom_emoji() },
        Phase { name: "messages", changes: planner.messages() },
        Phase { name: "reactions", changes: planner.reactions() },
        Phase { name: "alert words, muted users and topics", changes: planner.personal_records() },
        Phase { name: "uploads", changes: planner.uploads() },
    ];
    let settings = settings::realm_settings(
        &row.rest,
        |old| planner.streams.get(&old).map(|(new, _)| new.0),
        |old| planner.group_setting(old),
    );
    let realm = Realm { deactivated: false, settings, ..planner.realm.clone() };
    Ok(Plan { realm, unrendered: planner.unrendered, phases, counts: planner.counts })
}

/// The store's id counters, one per kind of record the import writes.
struct Counters {
    user: IdAllocator,
    recipient: IdAllocator,
    group: IdAllocator,
    stream: IdAllocator,
    emoji: IdAllocator,
    attachment: IdAllocator,
    linkifier: IdAllocator,
    record: IdAllocator,
    profile_field: IdAllocator,
    folder: IdAllocator,
}

/// What an export's recipient addresses.
enum Target {
    /// A user and their personal recipient.
    Person(UserId, RecipientId),
    Channel(StreamId, RecipientId),
    /// A direct-message group's recipient and its members.
    Group(RecipientId, Vec<UserId>),
}

/// Planning so far: the export, the counters, and the new id of everything planned, by old id.
struct Planner<'a> {
    export: &'a Export,
    kept: &'a KeptFiles,
    ids: Counters,
    /// The organization, deactivated until the import's last change.
    realm: Realm,
    /// The organization's notification bot, which also stands for Zulip's system bots (they
    /// live in another organization there).
    bot: UserId,
    bot_recipient: RecipientId,
    users: HashMap<u64, UserId>,
    /// Users' personal recipients, by old user id.
    personal: HashMap<u64, RecipientId>,
    /// Confab's system groups, by name.
    system_groups: HashMap<String, UserGroupId>,
    /// Named groups (system ones as Confab's own).
    groups: HashMap<u64, UserGroupId>,
    /// Every group's direct members and named subgroups, anonymous groups' too.
    group_members: HashMap<u64, Vec<UserId>>,
    subgroups: HashMap<u64, Vec<UserGroupId>>,
    /// Channels and their recipients.
    streams: HashMap<u64, (StreamId, RecipientId)>,
    /// Recipients, by old recipient id.
    recipients: HashMap<u64, Target>,
    /// Messages, allocated in id order before anything else needs them.
    messages: HashMap<u64, MessageId>,
    /// Custom emoji's reaction codes (their ids as text).
    emoji_codes: HashMap<String, String>,
    unrendered: HashSet<MessageId>,
    counts: Counts,
}

impl<'a> Planner<'a> {
    fn new(
        store: &impl Store,
        export: &'a Export,
        kept: &'a KeptFiles,
        subdomain: &str,
        row: &RealmRow,
    ) -> ApiResult<Planner<'a>> {
        let mut ids = Counters {
            user: IdAllocator::new(store, IdKind::User)?,
            recipient: IdAllocator::new(store, IdKind::Recipient)?,
            group: IdAllocator::new(store, IdKind::UserGroup)?,
            stream: IdAllocator::new(store, IdKind::Stream)?,
            emoji: IdAllocator::new(store, IdKind::RealmEmoji)?,
            attachment: IdAllocator::new(store, IdKind::Attachment)?,
            linkifier: IdAllocator::new(store, IdKind::Linkifier)?,
            record: IdAllocator::new(store, IdKind::Record)?,
            profile_field: IdAllocator::new(store, IdKind::ProfileField)?,
            folder: IdAllocator::new(store, IdKind::ChannelFolder)?,
        };
        let bot = UserId(ids.user.take());
        let bot_recipient = RecipientId(ids.recipient.take());
        let realm = Realm {
            id: RealmId(IdAllocator::new(store, IdKind::Realm)?.take()),
            subdomain: subdomain.to_owned(),
            name: row.name.clone(),
            description: row.description.clone(),
            date_created: row.date_created as i64,
            deactivated: true,
            notification_bot: Some(bot),
            settings: Default::default(),
        };
        let mut order: Vec<u64> = export.message_rows().map(|m| m.id).collect();
        order.sort_unstable();
        let mut message_ids = IdAllocator::new(store, IdKind::Message)?;
        let messages = order.into_iter().map(|old| (old, MessageId(message_ids.take()))).collect();
        Ok(Planner {
            export,
            kept,
            ids,
            realm,
            bot,
            bot_recipient,
            users: HashMap::new(),
            personal: HashMap::new(),
            system_groups: HashMap::new(),
            groups: HashMap::new(),
            group_members: HashMap::new(),
            subgroups: HashMap::new(),
            streams: HashMap::new(),
            recipients: HashMap::new(),
            messages,
            emoji_codes: HashMap::new(),
            unrendered: HashSet::new(),
            counts: Counts::default(),
        })
    }

    /// A group setting: a named group, or an anonymous group by its members.
    fn group_setting(&self, old: u64) -> GroupSetting {
        match self.groups.get(&old) {
            Some(&named) => GroupSetting::Named(named),
            None => GroupSetting::Anonymous {
                direct_members: self.group_members.get(&old).cloned().unwrap_or_default(),
                direct_subgroups: self.subgroups.get(&old).cloned().unwrap_or_default(),
            },
        }
    }

    fn user(&self, old: Option<u64>) -> Option<UserId> {
        old.and_then(|old| self.users.get(&old).copied())
    }
}
