//! What a random history is made of: abstract operations, each a thing a command could do.
//!
//! Operations name what they touch by small numbers (`pick`s), which [`super::script`] resolves
//! against the objects that exist when the operation runs (removals among all such objects, so
//! that they find something to remove). So every generated history refers
//! only to real ids, and proptest can still shrink a failing history by dropping operations.

use proptest::prelude::*;

/// One step of a history. A `pick` chooses among the candidates that exist (modulo their
/// count); where one more than the count is possible, it means "a new one".
#[derive(Clone, Debug)]
pub enum Op {
    /// Ends the current write transaction; every read is compared after the commit.
    Commit,
    AddUser {
        realm: u8,
        name: u8,
        role: u8,
    },
    EditUser {
        user: u8,
        email: Option<u8>,
        active: bool,
        name: u8,
    },
    PutCredentials {
        user: u8,
        key: u8,
    },
    EditRealm {
        realm: u8,
        subdomain: u8,
    },
    AddStream {
        realm: u8,
        name: u8,
        private: bool,
    },
    EditStream {
        stream: u8,
        name: u8,
        archived: bool,
        folder: u8,
    },
    Subscribe {
        user: u8,
        stream: u8,
        active: bool,
        muted: bool,
    },
    SendToChannel {
        sender: u8,
        stream: u8,
        topic: u8,
        content: u8,
        flags: u16,
        origin: Option<u8>,
    },
    SendDirect {
        sender: u8,
        others: u8,
        content: u8,
        flags: u16,
        origin: Option<u8>,
    },
    SetFlags {
        message: u8,
        user: u8,
        flags: u16,
    },
    /// A user loses a channel message (it moved where they cannot see it).
    DropFlags {
        message: u8,
        user: u8,
    },
    Edit {
        message: u8,
        content: u8,
        topic: u8,
    },
    Move {
        message: u8,
        stream: u8,
        topic: u8,
    },
    Delete {
        message: u8,
    },
    React {
        message: u8,
        user: u8,
        emoji: u8,
    },
    Unreact {
        reaction: u8,
    },
    /// A widget, or a change to one, on a message: from its sender first, then from anyone.
    AddSubmessage {
        message: u8,
        user: u8,
        content: u8,
    },
    PutLinkifier {
        realm: u8,
        pick: u8,
        order: u8,
    },
    DeleteLinkifier {
        pick: u8,
    },
    PutPresence {
        user: u8,
        at: u8,
    },
    PutUserGroup {
        realm: u8,
        pick: u8,
        members: u8,
        deactivated: bool,
    },
    PutChannelFolder {
        realm: u8,
        pick: u8,
        order: u8,
        archived: bool,
    },
    PutAttachment {
        user: u8,
        pick: u8,
        message: u8,
    },
    DeleteAttachment {
        pick: u8,
    },
    PutRealmEmoji {
        realm: u8,
        pick: u8,
        deactivated: bool,
    },
    PutRecord {
        user: u8,
        kind: u8,
        pick: u8,
        value: u8,
    },
    DeleteRecord {
        pick: u8,
    },
    PutBotService {
        bot: u8,
        url: u8,
    },
    PutAlertWords {
        user: u8,
        words: u8,
    },
    PutUserSettings {
        user: u8,
        settings: u8,
    },
    PutProfileField {
        realm: u8,
        pick: u8,
        order: u8,
    },
    DeleteProfileField {
        pick: u8,
    },
    /// Sets or clears the value of one (user, field of their organization) pair.
    PutProfileValue {
        pair: u8,
        value: Option<u8>,
    },
    Schedule {
        user: u8,
        pick: u8,
        state: u8,
        at: u8,
        direct: bool,
    },
    Unschedule {
        pick: u8,
    },
}

/// Any operation, messages and their flags weighted up: that is where the indexes are.
pub fn op() -> impl Strategy<Value = Op> {
    let n = any::<u8>;
    prop_oneof![
        2 => Just(Op::Commit),
        3 => (n(), n(), n()).prop_map(|(realm, name, role)| Op::AddUser { realm, name, role }),
        2 => (n(), proptest::option::of(n()), any::<bool>(), n())
            .prop_map(|(user, email, active, name)| Op::EditUser { user, email, active, name }),
        1 => (n(), n()).prop_map(|(user, key)| Op::PutCredentials { user, key }),
        1 => (n(), n()).prop_map(|(realm, subdomain)| Op::EditRealm { realm, subdomain }),
        2 => (n(), n(), any::<bool>()).prop_map(|(realm, name, private)| Op::AddStream { realm, name, private }),
        1 => (n(), n(), any::<bool>(), n())
            .prop_map(|(stream, name, archived, folder)| Op::EditStream { stream, name, archived, folder }),
        3 => (n(), n(), any::<bool>(), any::<bool>())
            .prop_map(|(user, stream, active, muted)| Op::Subscribe { user, stream, active, muted }),
        8 => (n(), n(), n(), n(), any::<u16>(), proptest::option::of(n())).prop_map(
            |(sender, stream, topic, content, flags, origin)| Op::SendToChannel {
                sender,
                stream,
                topic,
                content,
                flags,
                origin
            }
        ),
        5 => (n(), n(), n(), any::<u16>(), proptest::option::of(n())).prop_map(
            |(sender, others, content, flags, origin)| Op::SendDirect { sender, others, content, flags, origin }
        ),
        5 => (n(), n(), any::<u16>()).prop_map(|(message, user, flags)| Op::SetFlags { message, user, flags }),
        1 => (n(), n()).prop_map(|(message, user)| Op::DropFlags { message, user }),
        3 => (n(), n(), n()).prop_map(|(message, content, topic)| Op::Edit { message, content, topic }),
        2 => (n(), n(), n()).prop_map(|(message, stream, topic)| Op::Move { message, stream, topic }),
        2 => n().prop_map(|message| Op::Delete { message }),
        3 => (n(), n(), n()).prop_map(|(message, user, emoji)| Op::React { message, user, emoji }),
        2 => n().prop_map(|reaction| Op::Unreact { reaction }),
        3 => (n(), n(), n()).prop_map(|(message, user, content)| Op::AddSubmessage { message, user, content }),
        1 => (n(), n(), n()).prop_map(|(realm, pick, order)| Op::PutLinkifier { realm, pick, order }),
        1 => n().prop_map(|pick| Op::DeleteLinkifier { pick }),
        1 => (n(), n()).prop_map(|(user, at)| Op::PutPresence { user, at }),
        1 => (n(), n(), n(), any::<bool>())
            .prop_map(|(realm, pick, members, deactivated)| Op::PutUserGroup { realm, pick, members, deactivated }),
        1 => (n(), n(), n(), any::<bool>())
            .prop_map(|(realm, pick, order, archived)| Op::PutChannelFolder { realm, pick, order, archived }),
        2 => (n(), n(), n()).prop_map(|(user, pick, message)| Op::PutAttachment { user, pick, message }),
        1 => n().prop_map(|pick| Op::DeleteAttachment { pick }),
        1 => (n(), n(), any::<bool>())
            .prop_map(|(realm, pick, deactivated)| Op::PutRealmEmoji { realm, pick, deactivated }),
        3 => (n(), n(), n(), n()).prop_map(|(user, kind, pick, value)| Op::PutRecord { user, kind, pick, value }),
        2 => n().prop_map(|pick| Op::DeleteRecord { pick }),
        1 => (n(), n()).prop_map(|(bot, url)| Op::PutBotService { bot, url }),
        1 => (n(), n()).prop_map(|(user, words)| Op::PutAlertWords { user, words }),
        1 => (n(), n()).prop_map(|(user, settings)| Op::PutUserSettings { user, settings }),
        1 => (n(), n(), n()).prop_map(|(realm, pick, order)| Op::PutProfileField { realm, pick, order }),
        1 => n().prop_map(|pick| Op::DeleteProfileField { pick }),
        2 => (n(), proptest::option::of(n())).prop_map(|(pair, value)| Op::PutProfileValue { pair, value }),
        2 => (n(), n(), n(), n(), any::<bool>())
            .prop_map(|(user, pick, state, at, direct)| Op::Schedule { user, pick, state, at, direct }),
        1 => n().prop_map(|pick| Op::Unschedule { pick }),
    ]
}
