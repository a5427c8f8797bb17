//! The browser client (`www/`, served by the server at `/`) in Debian's Chromium, driven by
//! Playwright: the `www_*.test.mjs` files of `tests/js/`. This file starts a server for each,
//! makes its people and messages over the API, and runs it.

use confab_tests::web::browser_test;
use confab_tests::{Api, Creds, TestServer};
use serde_json::json;

struct Organization {
    server: TestServer,
    alice: Creds,
    bob: Creds,
}

impl Organization {
    fn start() -> Organization {
        let server = TestServer::start_with(
            env!("CARGO_BIN_EXE_confab-under-test"),
            &["--external-host", "127.0.0.1"],
        );
        let api = server.api();
        let owner = server.owner();
        let alice = api.create_user(&owner, "alice@example.com", "Alice");
        let bob = api.create_user(&owner, "bob@example.com", "Bob");
        Organization { server, alice, bob }
    }

    fn api(&self) -> Api {
        self.server.api()
    }

    fn run(&self, file: &str) {
        let user = |c: &Creds| json!({"email": c.email, "apiKey": c.api_key, "password": "s3cret-pass"});
        let users = json!({"a": user(&self.alice), "b": user(&self.bob)});
        browser_test(
            file,
            &[("CONFAB_SITE", self.server.base_url.clone()), ("CONFAB_USERS", users.to_string())],
        );
    }
}

fn post_to_general(api: &Api, who: &Creds, topic: &str, content: &str) {
    let reply = api.post(
        "/messages",
        Some(who),
        &[("type", "stream"), ("to", "general"), ("topic", topic), ("content", content)],
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
}

/// Math renders in the browser (the engine with www's KaTeX) to the server's bytes, and the
/// client shows it with KaTeX's stylesheet and fonts.
#[test]
fn math_renders_in_the_browser_to_the_servers_bytes() {
    let organization = Organization::start();
    let user = |c: &Creds| json!({"email": c.email, "apiKey": c.api_key, "password": "s3cret-pass"});
    let users = json!({"a": user(&organization.alice), "b": user(&organization.bob)});
    let package = confab_tests::web::package().to_string_lossy().into_owned();
    browser_test(
        "www_math.test.mjs",
        &[
            ("CONFAB_SITE", organization.server.base_url.clone()),
            ("CONFAB_USERS", users.to_string()),
            ("CONFAB_WEB_PACKAGE", package),
        ],
    );
}

#[test]
fn two_people_chat_react_and_edit_live() {
    Organization::start().run("www_live.test.mjs");
}

#[test]
fn compose_and_message_actions_between_two_people() {
    Organization::start().run("www_actions.test.mjs");
}

#[test]
fn mentions_preview_drafts_deletion_channels_and_profile() {
    Organization::start().run("www_people_and_settings.test.mjs");
}

#[test]
fn offline_reload_keeps_history_and_pending_messages_go_out_once() {
    Organization::start().run("www_offline.test.mjs");
}

#[test]
fn search_unread_counts_and_the_back_button() {
    let organization = Organization::start();
    let api = organization.api();
    for n in 1..=3 {
        post_to_general(&api, &organization.bob, "alpha", &format!("alpha {n}"));
    }
    for n in 1..=2 {
        post_to_general(&api, &organization.bob, "beta", &format!("beta {n}"));
    }
    organization.run("www_navigation.test.mjs");
}

#[test]
fn a_list_of_ten_thousand_messages_keeps_only_visible_rows_in_the_dom() {
    let organization = Organization::start();
    let api = organization.api();
    for n in 1..=10_000 {
        // The full stop tells "n1." from "n10.".
        post_to_general(&api, &organization.bob, "long", &format!("long message n{n}."));
    }
    organization.run("www_long_list.test.mjs");
}

#[test]
fn main_views_are_accessible_and_screenshots_are_saved() {
    let organization = Organization::start();
    let api = organization.api();
    let (alice, bob) = (&organization.alice, &organization.bob);
    post_to_general(
        &api,
        bob,
        "release planning",
        "Welcome to the **release planning** thread! Agenda:\n\n1. Freeze on *Friday*\n2. Notes in the wiki\n3. Demo <time:2026-12-01T15:00:00+00:00>",
    );
    post_to_general(
        &api,
        alice,
        "release planning",
        "@**Bob** sounds good. Here's the check I run:\n```python\ndef ready(build):\n    return build.tests_pass and not build.blockers\n```",
    );
    post_to_general(
        &api,
        bob,
        "release planning",
        "> Freeze on Friday\n\nAgreed :+1: — and a table of owners:\n\n| Area | Owner |\n|---|---|\n| Server | Bob |\n| Web | Alice |",
    );
    post_to_general(&api, alice, "release planning", "```spoiler Launch codename\nOctopus :octopus:\n```");
    post_to_general(&api, bob, "design", "New icons are in #**general** — feedback welcome :tada:");
    organization.run("www_accessibility.test.mjs");
}
