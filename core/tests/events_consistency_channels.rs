//! Every mutation's events keep a client's state right (see `support::consistency`).
//! Channels: subscriptions, channel settings, folders and default channels.

mod support;

use confab_core::api;
use confab_core::store::Store as _;
use support::consistency::{check, run, world};

#[test]
fn subscriptions_and_channels() {
    let mut w = world();
    let register = &[("event_types", r#"["subscription", "stream"]"#), ("include_subscribers", "true")];
    let ada = w.actor("ada@example.com");
    let join = [("subscriptions", r#"[{"name": "design"}]"#)];
    check(&mut w, "ada@example.com", register, run(api::subscriptions::subscribe, ada.clone(), &join));
    let mute = r#"[{"stream_id": 1, "property": "is_muted", "value": true}]"#.to_owned();
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general");
    let mute = mute.replace("\"stream_id\": 1", &format!("\"stream_id\": {general}"));
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::subscription_properties::update_subscription_settings(s, a, p),
            ada.clone(),
            &[("subscription_data", mute.as_str())],
        ),
    );
    let owner = w.actor("owner@example.com");
    let subscribers = format!("[{}]", w.user_id("owner@example.com"));
    let create = [("name", "announcements"), ("subscribers", subscribers.as_str())];
    check(&mut w, "ada@example.com", register, run(api::channels::create_channel, owner.clone(), &create));
    let describe = [("description", "All the news")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(move |s, a, p, now| api::channel_admin::update_stream(s, a, general, p, now), owner, &describe),
    );
}

#[test]
fn channel_folders_and_default_channels() {
    let mut w = world();
    let owner = w.actor("owner@example.com");
    let register = &[("event_types", r#"["channel_folder", "default_streams", "stream", "subscription"]"#)];
    for name in ["Teams", "Projects"] {
        let folder = [("name", name), ("description", "*Grouped*")];
        check(
            &mut w,
            "ada@example.com",
            register,
            run(api::channel_folders::create_channel_folder, owner.clone(), &folder),
        );
    }
    let folders = w.store.channel_folders(w.realm).expect("folders");
    let (teams, projects) = (folders[0].id, folders[1].id);
    let order = format!("[{projects}, {teams}]");
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::channel_folders::reorder_channel_folders(s, a, p),
            owner.clone(),
            &[("order", order.as_str())],
        ),
    );
    let rename = [("name", "People"), ("is_archived", "true")];
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, _| api::channel_folders::update_channel_folder(s, a, teams, p),
            owner.clone(),
            &rename,
        ),
    );
    let general = w.store.stream_by_name(w.realm, "general").ok().flatten().expect("general");
    let into_folder = projects.to_string();
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            move |s, a, p, now| api::channel_admin::update_stream(s, a, general, p, now),
            owner.clone(),
            &[("folder_id", into_folder.as_str())],
        ),
    );
    let id = general.to_string();
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::default_channels::add_default_stream(s, a, p),
            owner.clone(),
            &[("stream_id", id.as_str())],
        ),
    );
    check(
        &mut w,
        "ada@example.com",
        register,
        run(
            |s, a, p, _| api::default_channels::remove_default_stream(s, a, p),
            owner,
            &[("stream_id", id.as_str())],
        ),
    );
}
