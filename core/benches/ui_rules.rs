//! The engine's answers to the user interface on a large organization: 10,000 users, 1,000
//! channels (all subscribed), 1,000 topics in one of them, 500 recent conversations, 2,000
//! users online, 100 custom emoji. Prints the median and slowest time of each question over
//! many calls (suggestions are asked on every key stroke; the goal is well under 10 ms).
//!
//! Run: `cargo bench -p confab-core --bench ui_rules`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use confab_core::client::{Anchor, Engine, EngineOptions, NamedAnchor, Reply, SessionCredentials};
use serde_json::{Map, Value, json};

const USERS: u64 = 10_000;
const CHANNELS: u64 = 1_000;
const TOPICS: u64 = 1_000;
const ROUNDS: usize = 200;

const FIRST: [&str; 20] = [
    "James",
    "Mary",
    "John",
    "Patricia",
    "Robert",
    "Jennifer",
    "Michael",
    "Linda",
    "William",
    "Elizabeth",
    "David",
    "Barbara",
    "Richard",
    "Susan",
    "Joseph",
    "Jessica",
    "Thomas",
    "Sarah",
    "Charles",
    "Karen",
];
const LAST: [&str; 25] = [
    "Smith",
    "Johnson",
    "Williams",
    "Brown",
    "Jones",
    "Garcia",
    "Miller",
    "Davis",
    "Rodriguez",
    "Martinez",
    "Hernández",
    "Lopez",
    "Gonzalez",
    "Wilson",
    "Anderson",
    "Thomas",
    "Taylor",
    "Moore",
    "Jackson",
    "Martin",
    "Lee",
    "Perez",
    "Thompson",
    "White",
    "Harris",
];
const WORDS: [&str; 12] = [
    "engineering",
    "design",
    "sales",
    "support",
    "marketing",
    "ops",
    "data",
    "mobile",
    "web",
    "infra",
    "qa",
    "random",
];

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("an object"),
    }
}

fn state() -> Value {
    let users: Vec<Value> = (1..=USERS)
        .map(|id| {
            let name = format!("{} {}", FIRST[id as usize % FIRST.len()], LAST[(id as usize / 20) % LAST.len()]);
            json!({"user_id": id, "full_name": format!("{name} {id}"), "email": format!("user{id}@example.com"),
                   "role": 400, "is_active": true, "is_bot": id % 50 == 0, "avatar_url": null})
        })
        .collect();
    let channels: Vec<Value> = (1..=CHANNELS)
        .map(|id| {
            let name = format!("{}-{} {id}", WORDS[id as usize % WORDS.len()], WORDS[(id as usize / 12) % WORDS.len()]);
            json!({"stream_id": id, "name": name, "description": format!("All about {name}"), "color": "#c2c2c2",
                   "invite_only": false, "is_web_public": false, "is_muted": id % 7 == 0, "pin_to_top": id % 97 == 0,
                   "stream_weekly_traffic": id % 13})
        })
        .collect();
    let conversations: Vec<Value> = (1..=500u64)
        .map(|i| json!({"user_ids": [i * 17 % USERS + 1], "max_message_id": 100_000 - i}))
        .collect();
    let presences: Map<String, Value> = (1..=2_000u64)
        .map(|id| {
            (id.to_string(), json!({"active_timestamp": 1_700_000_000, "idle_timestamp": 1_700_000_000}))
        })
        .collect();
    let emoji: Map<String, Value> = (1..=100u64)
        .map(|id| (id.to_string(), json!({"id": id.to_string(), "name": format!("custom_{id}"), "source_url": format!("/e/{id}.png"), "deactivated": false})))
        .collect();
    json!({
        "result": "success", "msg": "", "queue_id": "q", "last_event_id": -1, "user_id": 1,
        "realm_users": users, "realm_non_active_users": [], "cross_realm_bots": [],
        "subscriptions": channels, "unsubscribed": [], "never_subscribed": [],
        "unread_msgs": {"count": 0, "streams": [], "pms": [], "huddles": [], "mentions": [], "old_unreads_missing": false},
        "recent_private_conversations": conversations, "presences": presences, "server_timestamp": 1_700_000_000.0,
        "realm_emoji": emoji, "realm_user_groups": [], "user_topics": [],
    })
}

fn measure(label: &str, mut run: impl FnMut() -> usize) {
    let mut times: Vec<Duration> = Vec::with_capacity(ROUNDS);
    let mut results = 0;
    for _ in 0..ROUNDS {
        let started = Instant::now();
        results = black_box(run());
        times.push(started.elapsed());
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{label:<48} median {:>7.3} ms   max {:>7.3} ms   ({results} results)",
        ms(times[ROUNDS / 2]),
        ms(times[ROUNDS - 1])
    );
}

fn main() {
    let credentials = SessionCredentials {
        site: "https://chat.example.com".into(),
        email: "user1@example.com".into(),
        api_key: "k".into(),
    };
    let mut engine = Engine::new(credentials, EngineOptions::default());
    let started = Instant::now();
    engine.handle_register(Reply::Success(object(state())), 0.5);
    println!(
        "register state of {USERS} users and {CHANNELS} channels loaded in {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let started = Instant::now();
    black_box(engine.complete_users("a", 8));
    println!(
        "first typeahead after the users changed (indexes them) {:.1} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let topics: Vec<Value> = (1..=TOPICS)
        .map(|t| json!({"name": format!("topic {t} about {}", WORDS[t as usize % 12]), "max_id": t}))
        .collect();
    engine
        .handle_topics(5, Reply::Success(object(json!({"result": "success", "msg": "", "topics": topics}))))
        .expect("topics");
    let channel_5 =
        engine.complete_channels("5", 1_000).into_iter().find(|c| c.stream_id == 5).expect("channel 5").name;

    for query in [
        "a",
        "ja",
        "john sm",
        "channel:",
        "channel:eng",
        "sender:ma",
        "is:",
        "dm:user7@example.com,ma",
        "lunch plans",
    ] {
        measure(&format!("searchSuggestions({query:?})"), || engine.search_suggestions(query).len());
    }
    let in_channel = format!("channel:{} topic:ab", channel_5.replace(' ', "+"));
    measure(&format!("searchSuggestions({in_channel:?})"), || engine.search_suggestions(&in_channel).len());
    measure("parseSearch(channel, sender, is, text)", || {
        engine.parse_search("channel:design-data+17 sender:user9@example.com -is:resolved lunch").len()
    });
    for query in ["", "j", "mary", "user12"] {
        measure(&format!("completeUsers({query:?}, 8)"), || engine.complete_users(query, 8).len());
    }
    measure("completeChannels(\"e\", 8)", || engine.complete_channels("e", 8).len());
    measure("completeTopics(5, \"ab\", 8)", || engine.complete_topics(5, "ab", 8).len());
    measure("completeEmoji(\"s\", 8)", || engine.complete_emoji("s", 8).len());
    measure("completeEmoji(\"\", 5000) (the picker)", || engine.complete_emoji("", 5_000).len());
    let query = engine.messages_query(&[], Anchor::Named(NamedAnchor::Newest), 1, 0).expect("a narrow");
    let message = json!({"id": 42, "sender_id": 1, "timestamp": 1_700_000_000, "content": "<p>hi</p>", "type": "stream",
                         "stream_id": 5, "subject": "lunch", "display_recipient": channel_5, "reactions": [], "flags": []});
    let page = json!({"result": "success", "msg": "", "messages": [message], "found_anchor": false,
                      "found_oldest": true, "found_newest": true});
    engine.handle_messages(&query, Reply::Success(object(page))).expect("a page");
    measure("messageActions(42)", || usize::from(engine.message_actions(42, 1_700_000_000_000).delete));
    let narrow = engine.parse_search("dm:user7@example.com,user8@example.com");
    measure("narrowToHash + hashToNarrow (a group)", || {
        engine.hash_to_narrow(&engine.narrow_to_hash(&narrow)).map_or(0, |n| n.len())
    });
}
