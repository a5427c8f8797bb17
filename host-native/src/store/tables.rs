//! Every redb table, in one place. Names follow `<key>_<value>`. Composite keys are redb tuples,
//! compared element by element. Record values are [`super::codec`]-encoded bytes; index tables
//! have `()` values. Tables are read and written through the engine seam ([`super::engine`]);
//! this file opens them from redb's transactions.

use std::marker::PhantomData;
use std::sync::Arc;

use redb::TableDefinition;

use super::engine::{self, Table, TableMut, WriteTxn};
use super::pg::{self, table::PgTable};

/// `schema_version` and the id counters (`next:<kind>`).
pub const META: TableDefinition<&str, u64> = TableDefinition::new("meta");

/// `meta` alone in the writer's transaction (what a commit writes its batch's sequence into).
pub fn open_meta(txn: &WriteTxn) -> Result<TableMut<'_, &'static str, u64>, engine::Error> {
    open(txn, META, "meta")
}

/// A table in the writer's transaction, whatever the engine. `name` is the definition's (as a
/// `'static` string, which the definition does not give back).
pub(super) fn open<'txn, K: pg::keys::OrderedKey, V: redb::Value + 'static>(
    txn: &'txn WriteTxn,
    definition: TableDefinition<'static, K, V>,
    name: &'static str,
) -> Result<TableMut<'txn, K, V>, engine::Error> {
    Ok(match txn {
        WriteTxn::Redb(txn) => TableMut::Redb(txn.open_table(definition)?),
        WriteTxn::Postgres(txn) => TableMut::Postgres(PgTable::new(txn.clone(), name), PhantomData),
    })
}

macro_rules! define_tables {
    ($($field:ident: $konst:ident = $name:literal, $key:ty => $value:ty;)*) => {
        $(pub const $konst: TableDefinition<$key, $value> = TableDefinition::new($name);)*

        /// Every table's name.
        pub const TABLE_NAMES: &[&str] = &["meta", $($name),*];

        /// Every table opened in a read transaction.
        pub struct ReadTables {
            pub meta: Table<&'static str, u64>,
            $(pub $field: Table<$key, $value>,)*
        }

        impl ReadTables {
            pub fn open(txn: &redb::ReadTransaction) -> Result<Self, redb::TableError> {
                Ok(ReadTables {
                    meta: Table::Redb(txn.open_table(META)?),
                    $($field: Table::Redb(txn.open_table($konst)?),)*
                })
            }

            /// Every table in a PostgreSQL read transaction.
            pub fn open_postgres(txn: &Arc<pg::Transaction>) -> Self {
                ReadTables {
                    meta: Table::Postgres(PgTable::new(txn.clone(), "meta")),
                    $($field: Table::Postgres(PgTable::new(txn.clone(), $name)),)*
                }
            }

            /// Copies every table into `to` (a backup); returns each table's name and rows.
            pub fn copy_into(
                &self,
                to: &redb::Database,
                progress: &mut crate::backups::Progress,
            ) -> Result<Vec<(&'static str, u64)>, String> {
                let mut counts = vec![("meta", super::copy::table(&self.meta, to, META, progress)?)];
                $(
                    let rows = super::copy::table(&self.$field, to, $konst, progress)?;
                    if rows > 0 {
                        progress.stage(&format!("copied {}: {rows} rows", $name))?;
                    }
                    counts.push(($name, rows));
                )*
                super::copy::finish(to)?;
                Ok(counts)
            }

            /// Copies every table into `to`, a store of either engine whose tables are empty
            /// (`confab migrate`); returns each table's name and rows.
            pub fn copy_to(
                &self,
                to: &super::Store,
                progress: &mut crate::backups::Progress,
            ) -> Result<Vec<(&'static str, u64)>, String> {
                let rows = super::transfer::table(&self.meta, to, META, "meta", progress)?;
                progress.stage(&format!("copied meta: {rows} rows"))?;
                let mut counts = vec![("meta", rows)];
                $(
                    let rows = super::transfer::table(&self.$field, to, $konst, $name, progress)?;
                    progress.stage(&format!("copied {}: {rows} rows", $name))?;
                    counts.push(($name, rows));
                )*
                Ok(counts)
            }

            /// Every table's name and row count.
            pub fn lengths(&self) -> Result<Vec<(&'static str, u64)>, engine::Error> {
                Ok(vec![("meta", self.meta.row_count()?), $(($name, self.$field.row_count()?),)*])
            }
        }

        /// Every table opened in the writer's transaction.
        pub struct WriteTables<'txn> {
            pub meta: TableMut<'txn, &'static str, u64>,
            $(pub $field: TableMut<'txn, $key, $value>,)*
        }

        impl<'txn> WriteTables<'txn> {
            pub fn open(txn: &'txn WriteTxn) -> Result<Self, engine::Error> {
                Ok(WriteTables {
                    meta: open_meta(txn)?,
                    $($field: open(txn, $konst, $name)?,)*
                })
            }
        }
    };
}

define_tables! {
    realms: REALMID_REALM = "realmid_realm", u64 => &'static [u8];
    subdomains: SUBDOMAIN_REALMID = "subdomain_realmid", &'static str => u64;
    users: USERID_USER = "userid_user", u64 => &'static [u8];
    realm_users: REALMID_USERID = "realmid_userid", (u64, u64) => ();
    // Keyed by the lower-cased delivery (real) email.
    emails: REALMID_EMAIL_USERID = "realmid_email_userid", (u64, &'static str) => u64;
    // Deactivated users (their records say `is_active: false`), read on every channel send.
    deactivated: REALMID_DEACTIVATEDUSERID = "realmid_deactivateduserid", (u64, u64) => ();
    credentials: USERID_CREDENTIALS = "userid_credentials", u64 => &'static [u8];
    recipients: RECIPIENTID_RECIPIENT = "recipientid_recipient", u64 => &'static [u8];
    direct_groups: GROUPKEY_RECIPIENTID = "groupkey_recipientid", &'static str => u64;
    streams: STREAMID_STREAM = "streamid_stream", u64 => &'static [u8];
    realm_streams: REALMID_STREAMID = "realmid_streamid", (u64, u64) => ();
    stream_names: REALMID_STREAMNAME_STREAMID = "realmid_streamname_streamid", (u64, &'static str) => u64;
    subscriptions: USERID_STREAMID_SUBSCRIPTION = "userid_streamid_subscription", (u64, u64) => &'static [u8];
    subscribers: STREAMID_USERID = "streamid_userid", (u64, u64) => ();
    messages: MSGID_MESSAGE = "msgid_message", u64 => &'static [u8];
    flags: USERID_MSGID_FLAGS = "userid_msgid_flags", (u64, u64) => u32;
    flag_index: USERID_FLAG_MSGID = "userid_flag_msgid", (u64, u8, u64) => ();
    conversations: USERID_RECIPIENTID_MSGID = "userid_recipientid_msgid", (u64, u64, u64) => ();
    by_recipient: RECIPIENTID_MSGID = "recipientid_msgid", (u64, u64) => ();
    by_topic: RECIPIENTID_TOPIC_MSGID = "recipientid_topic_msgid", (u64, &'static str, u64) => ();
    by_sender: SENDERID_MSGID = "senderid_msgid", (u64, u64) => ();
    by_realm: REALMID_MSGID = "realmid_msgid", (u64, u64) => ();
    message_users: MSGID_USERID = "msgid_userid", (u64, u64) => ();
    // Remembered sends (sender, event queue id, client's local id), kept when the message is
    // deleted: a retry is answered with the message it posted.
    sent: SENDERID_QUEUEID_LOCALID_MSGID = "senderid_queueid_localid_msgid", (u64, &'static str, &'static str) => u64;
    words: REALMID_WORD_MSGID = "realmid_word_msgid", (u64, &'static str, u64) => ();
    reactions: MSGID_SEQ_REACTION = "msgid_seq_reaction", (u64, u64) => &'static [u8];
    // Widgets and their changes, by message and submessage id (the order they were added).
    submessages: MSGID_SUBMESSAGEID_SUBMESSAGE = "msgid_submessageid_submessage", (u64, u64) => &'static [u8];
    presences: USERID_PRESENCE = "userid_presence", u64 => &'static [u8];
    // Each presence under its latest change in the organization's presence sequence: what a
    // presence check-in with `last_update_id` reads.
    presence_changes: REALMID_UPDATEID_USERID = "realmid_updateid_userid", (u64, u64) => u64;
    linkifiers: REALMID_LINKIFIERID_LINKIFIER = "realmid_linkifierid_linkifier", (u64, u64) => &'static [u8];
    bot_services: USERID_BOTSERVICE = "userid_botservice", u64 => &'static [u8];
    alert_words: USERID_ALERTWORDS = "userid_alertwords", u64 => &'static [u8];
    user_settings: USERID_SETTINGS = "userid_settings", u64 => &'static [u8];
    user_groups: REALMID_USERGROUPID_USERGROUP = "realmid_usergroupid_usergroup", (u64, u64) => &'static [u8];
    channel_folders: REALMID_FOLDERID_FOLDER = "realmid_folderid_folder", (u64, u64) => &'static [u8];
    attachments: ATTACHMENTID_ATTACHMENT = "attachmentid_attachment", u64 => &'static [u8];
    attachment_paths: PATH_ATTACHMENTID = "path_attachmentid", &'static str => u64;
    user_attachments: USERID_ATTACHMENTID = "userid_attachmentid", (u64, u64) => ();
    muters: MUTEDID_USERID = "mutedid_userid", (u64, u64) => ();
    records: USERID_KIND_RECORDID_RECORD = "userid_kind_recordid_record", (u64, &'static str, u64) => &'static [u8];
    // `UserTopic` records by channel and lower-cased topic, read on every channel send.
    topic_preferences: USERID_STREAMID_TOPIC_RECORDID = "userid_streamid_topic_recordid", (u64, u64, &'static str) => u64;
    realm_emoji: REALMID_EMOJIID_EMOJI = "realmid_emojiid_emoji", (u64, u64) => &'static [u8];
    profile_fields: REALMID_FIELDID_PROFILEFIELD = "realmid_fieldid_profilefield", (u64, u64) => &'static [u8];
    profile_values: USERID_FIELDID_PROFILEVALUE = "userid_fieldid_profilevalue", (u64, u64) => &'static [u8];
    scheduled: SCHEDULEDID_SCHEDULED = "scheduledid_scheduled", u64 => &'static [u8];
    user_scheduled: USERID_SCHEDULEDID = "userid_scheduledid", (u64, u64) => ();
    deliveries: DELIVERAT_SCHEDULEDID = "deliverat_scheduledid", (i64, u64) => ();
    // Email invitations and reusable links, used and revoked ones kept; and each by the
    // confirmation key of its link (what the sign-up page looks up).
    invitations: REALMID_INVITATIONID_INVITATION = "realmid_invitationid_invitation", (u64, u64) => &'static [u8];
    invitation_keys: INVITATIONKEY_REALMID_INVITATIONID = "invitationkey_realmid_invitationid", &'static str => (u64, u64);
}
