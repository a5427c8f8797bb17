//! A small organization built with core's own commands on the in-memory store, for tests that
//! read like the specification.

#![allow(dead_code)]

pub mod consistency;

use confab_core::api;
use confab_core::api::realm::NewRealm;
use confab_core::api::users::NewUser;
use confab_core::ids::{RealmId, UserId};
use confab_core::memory::MemoryStore;
use confab_core::model::Role;
use confab_core::params::Params;
use confab_core::store::Store;
use confab_core::{Actor, ApiResult, Outcome};
use serde_json::Value;

pub struct World {
    pub store: MemoryStore,
    pub realm: RealmId,
    pub now: i64,
}

pub fn params(pairs: &[(&str, &str)]) -> Params {
    Params::from_pairs(pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())))
}

impl World {
    /// An organization whose owner is `owner@example.com`.
    pub fn new() -> World {
        let mut store = MemoryStore::new();
        let owner = NewUser {
            email: "owner@example.com".into(),
            full_name: "Olive Owner".into(),
            role: Role::Owner,
            bot_type: None,
            bot_owner_id: None,
            api_key: "k".repeat(32),
            password_hash: None,
        };
        let outcome = api::realm::create_realm(
            &store,
            NewRealm { subdomain: String::new(), name: "Test".into(), owner },
            1_000,
        )
        .expect("realm");
        store.apply_all(&outcome.changes);
        let realm = store.realm_by_subdomain("").ok().flatten().expect("realm id");
        World { store, realm, now: 1_000 }
    }

    pub fn actor(&self, email: &str) -> Actor {
        let id = self.store.user_by_delivery_email(self.realm, email).ok().flatten().expect("user exists");
        Actor {
            user: self.store.user(id).ok().flatten().expect("user"),
            realm: self.store.realm(self.realm).ok().flatten().expect("realm"),
            client: "website".into(),
            realm_url: "http://chat.example.com".into(),
        }
    }

    pub fn user_id(&self, email: &str) -> UserId {
        self.actor(email).user.id
    }

    /// Runs a command and applies its changes, as the writer does.
    pub fn run(&mut self, f: impl FnOnce(&MemoryStore, i64) -> ApiResult<Outcome>) -> ApiResult<Value> {
        self.now += 1;
        let outcome = f(&self.store, self.now)?;
        self.store.apply_all(&outcome.changes);
        Ok(Value::Object(outcome.reply_values()))
    }

    /// Runs a command, applies its changes and returns the events it caused.
    pub fn run_events(
        &mut self,
        f: impl FnOnce(&MemoryStore, i64) -> ApiResult<Outcome>,
    ) -> ApiResult<Vec<confab_core::Event>> {
        self.now += 1;
        let outcome = f(&self.store, self.now)?;
        self.store.apply_all(&outcome.changes);
        Ok(outcome.events)
    }

    pub fn add_user(&mut self, email: &str, name: &str, role: Role) {
        let owner = self.actor("owner@example.com");
        let new = NewUser {
            email: email.into(),
            full_name: name.into(),
            role,
            bot_type: None,
            bot_owner_id: None,
            api_key: "k".repeat(32),
            password_hash: None,
        };
        self.run(|s, now| api::users::create_user(s, &owner, new, now)).expect("user created");
    }

    pub fn subscribe(&mut self, email: &str, streams: &str, extra: &[(&str, &str)]) {
        let actor = self.actor(email);
        let mut pairs = vec![("subscriptions", streams)];
        pairs.extend_from_slice(extra);
        let p = params(&pairs);
        self.run(|s, now| api::subscriptions::subscribe(s, &actor, &p, now)).expect("subscribed");
    }

    pub fn send(&mut self, email: &str, pairs: &[(&str, &str)]) -> u64 {
        let actor = self.actor(email);
        let p = params(pairs);
        let reply = self.run(|s, now| api::messages::send_message(s, &actor, &p, now)).expect("sent");
        reply["id"].as_u64().expect("id")
    }

    pub fn stream(&mut self, email: &str, stream: &str, topic: &str, content: &str) -> u64 {
        self.send(email, &[("type", "stream"), ("to", stream), ("topic", topic), ("content", content)])
    }

    pub fn dm(&mut self, email: &str, to: &str, content: &str) -> u64 {
        self.send(email, &[("type", "private"), ("to", to), ("content", content)])
    }

    /// The ids `email` gets for a narrow (JSON text), oldest first.
    pub fn narrow(&self, email: &str, narrow: &str) -> ApiResult<Vec<u64>> {
        let actor = self.actor(email);
        let p =
            params(&[("anchor", "newest"), ("num_before", "1000"), ("num_after", "0"), ("narrow", narrow)]);
        let outcome = api::messages::get_messages(&self.store, &actor, &p)?;
        Ok(outcome.reply_values()["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| m["id"].as_u64().expect("id"))
            .collect())
    }
}
