//! Checking a database's integrity: what `confab verify` reports.
//!
//! Every record is decoded; every index table is compared with the rows its records imply
//! (`apply.rs` writes both in one transaction, so they must agree exactly); references between
//! records (a message's sender, a subscription's channel...) must name records that exist. An
//! index row that names a missing record is reported by name. A difference between an index
//! and its records in general is found by an order-independent digest of each side (a row
//! count and a sum of the rows' hashes), so memory stays flat however large the tables are:
//! only the ids of realms, users, recipients, channels and messages are held (8 bytes each).
//!
//! What the records say of files (uploads with their sizes, thumbnails, emoji, avatars,
//! exports) is returned for the caller to look for on disk.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use confab_core::api::realm_export::RealmExport;
use confab_core::model::{
    Attachment, BotService, ChannelFolder, Credentials, IndexedFlag, Invitation, Linkifier, MessageFlags,
    MessageKind, Presence, ProfileField, ProfileValue, Reaction, Realm, RealmEmoji, Recipient, RecipientKind,
    RecordKind, ScheduledMessage, Stream, Submessage, Subscription, User, UserGroup,
};
use serde::de::DeserializeOwned;

use super::SCHEMA_VERSION;
use super::codec::{decode, decode_message};
use super::tables::ReadTables;
use crate::backups::Progress;

/// Problems listed one by one; past this many, only counted.
const MAX_LISTED: usize = 1000;

/// What a verification found.
#[derive(Debug, Default)]
pub struct Report {
    /// What was checked, and how many rows or records of it.
    pub checked: Vec<(String, u64)>,
    /// Every problem found (the first [`MAX_LISTED`]).
    pub problems: Vec<String>,
    /// Problems found beyond those listed.
    pub unlisted: u64,
    /// The files the records name, to be looked for under `DIR/uploads/`.
    pub files: Vec<ExpectedFile>,
}

impl Report {
    pub fn problem(&mut self, text: String) {
        if self.problems.len() < MAX_LISTED {
            self.problems.push(text);
        } else {
            self.unlisted += 1;
        }
    }

    /// How many problems there are, listed or not.
    pub fn problem_count(&self) -> u64 {
        self.problems.len() as u64 + self.unlisted
    }
}

/// A file a record names.
#[derive(Debug)]
pub struct ExpectedFile {
    /// Its path under `DIR/uploads/`.
    pub path: String,
    /// Its size, when the record keeps it.
    pub size: Option<u64>,
    /// Which record names it, for the report.
    pub named_by: String,
}

/// One side of an index comparison: how many rows, and the sum of their hashes.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Digest {
    rows: u64,
    sum: u64,
}

impl Digest {
    fn add(&mut self, row: &impl Hash) {
        let mut hasher = DefaultHasher::new();
        row.hash(&mut hasher);
        self.rows += 1;
        self.sum = self.sum.wrapping_add(hasher.finish());
    }
}

/// Ids known to exist, in ascending order (tables are read in key order).
#[derive(Default)]
struct Ids(Vec<u64>);

impl Ids {
    fn push(&mut self, id: u64) {
        self.0.push(id);
    }

    fn has(&self, id: u64) -> bool {
        self.0.binary_search(&id).is_ok()
    }
}

struct Checker<'a> {
    tables: &'a ReadTables,
    progress: &'a mut Progress,
    report: Report,
    realms: Ids,
    users: Ids,
    recipients: Ids,
    streams: Ids,
    messages: Ids,
    /// Each index: what the records imply, what the index holds.
    indexes: BTreeMap<&'static str, (Digest, Digest)>,
}

/// Reads a table's rows in key order: `$key` and `$value` are each row's values. Counts them,
/// reports the count now and then, and adds the total to what was checked.
macro_rules! each_row {
    ($checker:expr, $table:ident, |$key:pat_param, $value:pat_param| $body:block) => {{
        // A copy of the reference, so that rows borrow the tables rather than the checker.
        let tables: &ReadTables = $checker.tables;
        let name = tables.$table.name();
        let mut rows = 0u64;
        let read = |e: &dyn std::fmt::Display| format!("reading {name}: {e}");
        for row in tables.$table.iter().map_err(|e| read(&e))? {
            let (key, value) = row.map_err(|e| read(&e))?;
            rows += 1;
            if rows.is_multiple_of(4096) {
                $checker.progress.count(|| format!("  {name}: {rows} rows so far"))?;
            }
            let ($key, $value) = (key.value(), value.value());
            $body
        }
        $checker.report.checked.push((name.to_owned(), rows));
    }};
}

/// Checks every table of a snapshot.
pub fn verify(tables: &ReadTables, progress: &mut Progress) -> Result<Report, String> {
    let mut checker = Checker {
        tables,
        progress,
        report: Report::default(),
        realms: Ids::default(),
        users: Ids::default(),
        recipients: Ids::default(),
        streams: Ids::default(),
        messages: Ids::default(),
        indexes: BTreeMap::new(),
    };
    checker.meta()?;
    checker.organizations_and_users()?;
    checker.channels()?;
    checker.messages()?;
    checker.flags()?;
    checker.message_extras()?;
    checker.uploads()?;
    checker.personal()?;
    checker.settings()?;
    checker.indexes();
    Ok(checker.report)
}

impl Checker<'_> {
    fn stage(&mut self, line: &str) -> Result<(), String> {
        self.progress.stage(line)
    }

    fn problem(&mut self, text: String) {
        self.report.problem(text);
    }

    /// Decodes a record; a record that does not decode is a problem.
    fn decoded<T: DeserializeOwned>(
        &mut self,
        table: &str,
        key: impl std::fmt::Debug,
        bytes: &[u8],
    ) -> Option<T> {
        match decode(bytes) {
            Ok(value) => Some(value),
            Err(e) => {
                self.problem(format!("{table}: the record at {key:?} does not decode: {}", e.msg));
                None
            }
        }
    }

    /// A row the records imply in `index`.
    fn expect(&mut self, index: &'static str, row: &impl Hash) {
        self.indexes.entry(index).or_default().0.add(row);
    }

    /// A row `index` holds.
    fn found(&mut self, index: &'static str, row: &impl Hash) {
        self.indexes.entry(index).or_default().1.add(row);
    }

    /// Reports a reference to a missing record.
    fn refers(&mut self, exists: bool, from: impl FnOnce() -> String, to: &str, id: u64) {
        if !exists {
            let from = from();
            self.problem(format!("{from} names {to} {id}, which does not exist"));
        }
    }

    fn meta(&mut self) -> Result<(), String> {
        let version = self.tables.meta.get("schema_version").map_err(|e| format!("reading meta: {e}"))?;
        match version.map(|v| v.value()) {
            None => self.problem("meta: no schema_version".to_owned()),
            Some(v) if v > SCHEMA_VERSION => self
                .problem(format!("meta: schema version {v} is newer than this Confab's ({SCHEMA_VERSION})")),
            Some(_) => {}
        }
        let rows = self.tables.meta.row_count().map_err(|e| format!("reading meta: {e}"))?;
        self.report.checked.push(("meta".to_owned(), rows));
        Ok(())
    }

    fn organizations_and_users(&mut self) -> Result<(), String> {
        self.stage("checking organizations and users")?;
        each_row!(self, realms, |id, bytes| {
            self.realms.push(id);
            if let Some(realm) = self.decoded::<Realm>("realmid_realm", id, bytes) {
                self.expect("subdomain_realmid", &(realm.subdomain.as_str(), realm.id.0));
            }
        });
        each_row!(self, subdomains, |subdomain, id| {
            self.found("subdomain_realmid", &(subdomain, id));
        });
        let mut personal = Vec::new();
        each_row!(self, users, |id, bytes| {
            self.users.push(id);
            if let Some(user) = self.decoded::<User>("userid_user", id, bytes) {
                let (realm, email) = (user.realm_id.0, user.delivery_email.to_lowercase());
                self.refers(self.realms.has(realm), || format!("user {id}"), "organization", realm);
                self.expect("realmid_userid", &(realm, id));
                self.expect("realmid_email_userid", &(realm, email.as_str(), id));
                if !user.is_active {
                    self.expect("realmid_deactivateduserid", &(realm, id));
                }
                personal.push((id, user.personal_recipient.0));
                if let Some(avatar) = &user.avatar {
                    self.report.files.push(ExpectedFile {
                        path: format!("avatars/{avatar}"),
                        size: None,
                        named_by: format!("the avatar of user {id}"),
                    });
                }
            }
        });
        each_row!(self, realm_users, |(realm, user), _unit| {
            self.refers(
                self.users.has(user),
                || format!("realmid_userid row ({realm}, {user})"),
                "user",
                user,
            );
            self.found("realmid_userid", &(realm, user));
        });
        each_row!(self, emails, |(realm, email), user| {
            self.found("realmid_email_userid", &(realm, email, user));
        });
        each_row!(self, deactivated, |(realm, user), _unit| {
            self.found("realmid_deactivateduserid", &(realm, user));
        });
        each_row!(self, credentials, |user, bytes| {
            self.decoded::<Credentials>("userid_credentials", user, bytes);
            self.refers(self.users.has(user), || "userid_credentials".to_owned(), "user", user);
        });
        each_row!(self, recipients, |id, bytes| {
            self.recipients.push(id);
            if let Some(recipient) = self.decoded::<Recipient>("recipientid_recipient", id, bytes)
                && let RecipientKind::DirectGroup(members) = &recipient.kind
            {
                let key = confab_core::model::direct_group_key(members);
                self.expect("groupkey_recipientid", &(key.as_str(), id));
            }
        });
        each_row!(self, direct_groups, |key, id| {
            self.found("groupkey_recipientid", &(key, id));
        });
        for (user, recipient) in personal {
            let has = self.recipients.has(recipient);
            self.refers(has, || format!("user {user}"), "personal recipient", recipient);
        }
        Ok(())
    }

    fn channels(&mut self) -> Result<(), String> {
        self.stage("checking channels and subscriptions")?;
        each_row!(self, streams, |id, bytes| {
            self.streams.push(id);
            if let Some(stream) = self.decoded::<Stream>("streamid_stream", id, bytes) {
                let realm = stream.realm_id.0;
                self.refers(self.realms.has(realm), || format!("channel {id}"), "organization", realm);
                self.expect("realmid_streamid", &(realm, id));
                self.expect("realmid_streamname_streamid", &(realm, stream.name.to_lowercase().as_str(), id));
            }
        });
        each_row!(self, realm_streams, |(realm, stream), _unit| {
            self.found("realmid_streamid", &(realm, stream));
        });
        each_row!(self, stream_names, |(realm, name), stream| {
            self.found("realmid_streamname_streamid", &(realm, name, stream));
        });
        each_row!(self, subscriptions, |(user, stream), bytes| {
            if let Some(sub) =
                self.decoded::<Subscription>("userid_streamid_subscription", (user, stream), bytes)
                && sub.active
            {
                self.expect("streamid_userid", &(stream, user));
            }
            let from = || format!("the subscription ({user}, {stream})");
            self.refers(self.users.has(user), from, "user", user);
            self.refers(self.streams.has(stream), from, "channel", stream);
        });
        each_row!(self, subscribers, |(stream, user), _unit| {
            self.found("streamid_userid", &(stream, user));
        });
        Ok(())
    }

    fn messages(&mut self) -> Result<(), String> {
        self.stage("checking messages")?;
        each_row!(self, messages, |id, bytes| {
            self.messages.push(id);
            let message = match decode_message(bytes) {
                Ok(message) => message,
                Err(e) => {
                    self.problem(format!("msgid_message: message {id} does not decode: {}", e.msg));
                    continue;
                }
            };
            let (realm, sender, recipient) =
                (message.realm_id.0, message.sender_id.0, message.recipient_id.0);
            let from = || format!("message {id}");
            self.refers(self.realms.has(realm), from, "organization", realm);
            self.refers(self.users.has(sender), from, "sender", sender);
            self.refers(self.recipients.has(recipient), from, "recipient", recipient);
            self.expect("recipientid_msgid", &(recipient, id));
            self.expect("senderid_msgid", &(sender, id));
            self.expect("realmid_msgid", &(realm, id));
            if let MessageKind::Stream { .. } = message.kind {
                self.expect(
                    "recipientid_topic_msgid",
                    &(recipient, message.topic().to_lowercase().as_str(), id),
                );
            }
        });
        // Each message index: its rows must name messages, and match the messages exactly.
        each_row!(self, by_recipient, |(recipient, id), _unit| {
            self.message_row("recipientid_msgid", (recipient, id), id);
            self.found("recipientid_msgid", &(recipient, id));
        });
        each_row!(self, by_sender, |(sender, id), _unit| {
            self.message_row("senderid_msgid", (sender, id), id);
            self.found("senderid_msgid", &(sender, id));
        });
        each_row!(self, by_realm, |(realm, id), _unit| {
            self.message_row("realmid_msgid", (realm, id), id);
            self.found("realmid_msgid", &(realm, id));
        });
        each_row!(self, by_topic, |(recipient, topic, id), _unit| {
            self.message_row("recipientid_topic_msgid", (recipient, topic, id), id);
            self.found("recipientid_topic_msgid", &(recipient, topic, id));
        });
        // Search words are many (one row per distinct word of each message): checked for the
        // messages they name, not recomputed.
        each_row!(self, words, |(realm, word, id), _unit| {
            self.message_row("realmid_word_msgid", (realm, word, id), id);
        });
        Ok(())
    }

    /// An index row naming message `id` must name one that exists.
    fn message_row(&mut self, index: &str, row: impl std::fmt::Debug, id: u64) {
        if !self.messages.has(id) {
            self.problem(format!("{index}: the row {row:?} names message {id}, which does not exist"));
        }
    }

    fn flags(&mut self) -> Result<(), String> {
        self.stage("checking message flags")?;
        each_row!(self, flags, |(user, id), bits| {
            self.refers(
                self.users.has(user),
                || format!("userid_msgid_flags row ({user}, {id})"),
                "user",
                user,
            );
            self.message_row("userid_msgid_flags", (user, id), id);
            self.expect("msgid_userid", &(id, user));
            for flag in IndexedFlag::ALL {
                if flag.holds(MessageFlags(bits)) {
                    self.expect("userid_flag_msgid", &(user, flag.code(), id));
                }
            }
        });
        each_row!(self, message_users, |(id, user), _unit| {
            self.found("msgid_userid", &(id, user));
        });
        each_row!(self, flag_index, |(user, code, id), _unit| {
            self.message_row("userid_flag_msgid", (user, code, id), id);
            self.found("userid_flag_msgid", &(user, code, id));
        });
        let tables: &ReadTables = self.tables;
        let flags = &tables.flags;
        let mut orphans = Vec::new();
        each_row!(self, conversations, |(user, recipient, id), _unit| {
            let received = flags.get((user, id)).map_err(|e| format!("reading userid_msgid_flags: {e}"))?;
            if received.is_none() {
                orphans.push((user, recipient, id));
            }
        });
        for (user, recipient, id) in orphans {
            self.problem(format!(
                "userid_recipientid_msgid: the row ({user}, {recipient}, {id}) has no flags row for user {user} and message {id}"
            ));
        }
        Ok(())
    }

    fn message_extras(&mut self) -> Result<(), String> {
        self.stage("checking reactions, submessages and remembered sends")?;
        each_row!(self, reactions, |(id, seq), bytes| {
            self.decoded::<Reaction>("msgid_seq_reaction", (id, seq), bytes);
            self.message_row("msgid_seq_reaction", (id, seq), id);
        });
        each_row!(self, submessages, |(id, sub), bytes| {
            self.decoded::<Submessage>("msgid_submessageid_submessage", (id, sub), bytes);
            self.message_row("msgid_submessageid_submessage", (id, sub), id);
        });
        // Kept when their message is deleted: nothing to check but that they read.
        each_row!(self, sent, |_key, _id| {});
        Ok(())
    }

    fn uploads(&mut self) -> Result<(), String> {
        self.stage("checking uploads and custom emoji")?;
        each_row!(self, attachments, |id, bytes| {
            let Some(attachment) = self.decoded::<Attachment>("attachmentid_attachment", id, bytes) else {
                continue;
            };
            let owner = attachment.owner_id.0;
            self.refers(self.users.has(owner), || format!("upload {id}"), "owner", owner);
            self.expect("path_attachmentid", &(attachment.path_id.as_str(), id));
            self.expect("userid_attachmentid", &(owner, id));
            let named_by = format!("upload {id}");
            for thumbnail in attachment.image.iter().flat_map(|image| &image.thumbnails) {
                self.report.files.push(ExpectedFile {
                    path: confab_core::thumbnails::thumbnail_path_id(&attachment.path_id, &thumbnail.name()),
                    size: Some(thumbnail.byte_size),
                    named_by: format!("a thumbnail of {named_by}"),
                });
            }
            self.report.files.push(ExpectedFile {
                path: attachment.path_id,
                size: Some(attachment.size),
                named_by,
            });
        });
        each_row!(self, attachment_paths, |path, id| {
            self.found("path_attachmentid", &(path, id));
        });
        each_row!(self, user_attachments, |(user, id), _unit| {
            self.found("userid_attachmentid", &(user, id));
        });
        each_row!(self, realm_emoji, |(realm, id), bytes| {
            if let Some(emoji) = self.decoded::<RealmEmoji>("realmid_emojiid_emoji", (realm, id), bytes) {
                self.report.files.push(ExpectedFile {
                    path: format!(
                        "avatars/{}",
                        confab_core::api::realm_emoji::emoji_path(emoji.realm_id, &emoji.file_name)
                    ),
                    size: None,
                    named_by: format!("custom emoji {id} ({})", emoji.name),
                });
            }
        });
        Ok(())
    }

    fn personal(&mut self) -> Result<(), String> {
        self.stage("checking personal records, presence and scheduled messages")?;
        let (muted, topic, export) =
            (RecordKind::MutedUser.key(), RecordKind::UserTopic.key(), RecordKind::RealmExport.key());
        each_row!(self, records, |(user, kind, id), bytes| {
            let Some(value) =
                self.decoded::<serde_json::Value>("userid_kind_recordid_record", (user, kind, id), bytes)
            else {
                continue;
            };
            if kind == muted {
                self.expect("mutedid_userid", &(id, user));
            } else if kind == topic
                && let Some((stream, topic)) = confab_core::model::topic_preference_place(&value)
            {
                self.expect("userid_streamid_topic_recordid", &(user, stream.0, topic.as_str(), id));
            } else if kind == export
                && let Ok(export) = serde_json::from_value::<RealmExport>(value)
                && let (Some(path), None) = (export.path_id, export.deleted_timestamp)
            {
                let named_by = format!("export {id}");
                self.report.files.push(ExpectedFile { path, size: None, named_by });
            }
        });
        each_row!(self, muters, |(muted, user), _unit| {
            self.found("mutedid_userid", &(muted, user));
        });
        each_row!(self, topic_preferences, |(user, stream, topic), id| {
            self.found("userid_streamid_topic_recordid", &(user, stream, topic, id));
        });
        each_row!(self, presences, |user, bytes| {
            if let Some(presence) = self.decoded::<Presence>("userid_presence", user, bytes) {
                self.expect("realmid_updateid_userid", &(presence.realm_id.0, presence.last_update_id, user));
            }
        });
        each_row!(self, presence_changes, |(realm, update), user| {
            self.found("realmid_updateid_userid", &(realm, update, user));
        });
        each_row!(self, scheduled, |id, bytes| {
            if let Some(scheduled) = self.decoded::<ScheduledMessage>("scheduledid_scheduled", id, bytes) {
                let sender = scheduled.sender_id.0;
                self.refers(self.users.has(sender), || format!("scheduled message {id}"), "sender", sender);
                if scheduled.is_undelivered() {
                    self.expect("userid_scheduledid", &(sender, id));
                }
                if scheduled.is_pending() {
                    self.expect("deliverat_scheduledid", &(scheduled.deliver_at, id));
                }
            }
        });
        each_row!(self, user_scheduled, |(user, id), _unit| {
            self.found("userid_scheduledid", &(user, id));
        });
        each_row!(self, deliveries, |(at, id), _unit| {
            self.found("deliverat_scheduledid", &(at, id));
        });
        each_row!(self, invitations, |(realm, id), bytes| {
            if let Some(invitation) =
                self.decoded::<Invitation>("realmid_invitationid_invitation", (realm, id), bytes)
            {
                self.expect("invitationkey_realmid_invitationid", &(invitation.key.as_str(), (realm, id)));
            }
        });
        each_row!(self, invitation_keys, |key, at| {
            self.found("invitationkey_realmid_invitationid", &(key, at));
        });
        Ok(())
    }

    /// Records with no index: each must decode.
    fn settings(&mut self) -> Result<(), String> {
        self.stage("checking settings, groups, linkifiers and profile fields")?;
        each_row!(self, linkifiers, |key, bytes| {
            self.decoded::<Linkifier>("realmid_linkifierid_linkifier", key, bytes);
        });
        each_row!(self, bot_services, |key, bytes| {
            self.decoded::<BotService>("userid_botservice", key, bytes);
        });
        each_row!(self, alert_words, |key, bytes| {
            self.decoded::<Vec<String>>("userid_alertwords", key, bytes);
        });
        each_row!(self, user_settings, |key, bytes| {
            self.decoded::<serde_json::Map<String, serde_json::Value>>("userid_settings", key, bytes);
        });
        each_row!(self, user_groups, |key, bytes| {
            self.decoded::<UserGroup>("realmid_usergroupid_usergroup", key, bytes);
        });
        each_row!(self, channel_folders, |key, bytes| {
            self.decoded::<ChannelFolder>("realmid_folderid_folder", key, bytes);
        });
        each_row!(self, profile_fields, |key, bytes| {
            self.decoded::<ProfileField>("realmid_fieldid_profilefield", key, bytes);
        });
        each_row!(self, profile_values, |key, bytes| {
            self.decoded::<ProfileValue>("userid_fieldid_profilevalue", key, bytes);
        });
        Ok(())
    }

    /// Compares each index with what its records imply.
    fn indexes(&mut self) {
        let indexes = std::mem::take(&mut self.indexes);
        for (index, (expected, found)) in indexes {
            if expected != found {
                self.problem(format!(
                    "{index} does not match its records: {} rows expected, {} found{}",
                    expected.rows,
                    found.rows,
                    if expected.rows == found.rows { " (but different ones)" } else { "" }
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use confab_core::api::realm::{NewRealm, create_realm};
    use confab_core::api::users::NewUser;
    use confab_core::model::Role;

    use super::super::{Store, WriteTables, commit};
    use super::*;

    fn quiet() -> Progress {
        Progress::new(Box::new(|_| Ok(())))
    }

    /// A store with one organization, its owner and `general`.
    fn organization() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = Store::open(dir.path()).expect("a new store");
        let owner = NewUser {
            email: "owner@example.com".into(),
            full_name: "Owner".into(),
            role: Role::Owner,
            bot_type: None,
            bot_owner_id: None,
            api_key: "k".repeat(32),
            password_hash: None,
        };
        let txn = store.begin_write().expect("a transaction");
        {
            let mut tables = WriteTables::open(&txn).expect("tables");
            let new = NewRealm { subdomain: String::new(), name: "Checked".into(), owner };
            for change in create_realm(&tables, new, 1_000).expect("a realm").changes {
                tables.apply(&change).expect("applied");
            }
        }
        commit(txn).expect("committed");
        (dir, store)
    }

    fn problems(store: &Store) -> Vec<String> {
        let tables = store.snapshot().expect("a snapshot");
        verify(&tables, &mut quiet()).expect("verified").problems
    }

    #[test]
    fn a_consistent_store_has_no_problems() {
        let (_dir, store) = organization();
        assert_eq!(problems(&store), Vec::<String>::new());
    }

    #[test]
    fn an_index_row_naming_a_missing_message_is_reported() {
        let (_dir, store) = organization();
        let txn = store.begin_write().expect("a transaction");
        WriteTables::open(&txn).expect("the tables").by_sender.insert((1, 999), ()).expect("a row");
        commit(txn).expect("committed");
        let found = problems(&store);
        assert!(
            found.contains(
                &"senderid_msgid: the row (1, 999) names message 999, which does not exist".to_owned()
            ),
            "{found:?}"
        );
        assert!(
            found.contains(&"senderid_msgid does not match its records: 0 rows expected, 1 found".to_owned())
        );
    }

    #[test]
    fn a_missing_index_row_and_a_damaged_record_are_reported() {
        let (_dir, store) = organization();
        let txn = store.begin_write().expect("a transaction");
        {
            let mut tables = WriteTables::open(&txn).expect("tables");
            let owner =
                tables.realm_users.iter().expect("rows").next().expect("the owner").expect("read").0.value();
            tables.realm_users.remove(owner).expect("removed");
            tables.alert_words.insert(owner.1, [1u8, b'{'].as_slice()).expect("a damaged record");
        }
        commit(txn).expect("committed");
        let found = problems(&store);
        assert!(
            found.iter().any(|p| p.starts_with("realmid_userid does not match its records")),
            "{found:?}"
        );
        assert!(found.iter().any(|p| p.starts_with("userid_alertwords: the record at")), "{found:?}");
    }
}
