//! Twenty kill -9s under load lose nothing: while several clients send, the server is killed,
//! started again on the same data directory, and must hold every send it acknowledged, each
//! once and with its content, and nothing that no client sent.

use std::collections::{BTreeMap, HashSet};
use std::sync::mpsc;

use confab_tests::{Creds, TestServer};
use serde_json::Value;

const ROUNDS: usize = 20;
/// Concurrent senders: enough that group commit puts several sends in one transaction.
const CLIENTS: usize = 4;
/// Sends acknowledged in a round before the kill, which then lands while others are in flight.
const ACKNOWLEDGED_BEFORE_KILL: usize = 30;
const TOPIC: &str = "crash loop";

/// One send the server answered with success.
struct Acknowledged {
    id: u64,
    content: String,
}

/// Sends until the server stops answering, reporting each acknowledged send; returns every
/// content it tried, answered or not.
fn send_until_killed(
    base_url: &str,
    who: &Creds,
    round: usize,
    client: usize,
    acks: &mpsc::Sender<Acknowledged>,
) -> Vec<String> {
    let http = reqwest::blocking::Client::new();
    let url = format!("{base_url}/api/v1/messages");
    let mut tried = Vec::new();
    for i in 0.. {
        let content = format!("round {round} client {client} send {i}");
        tried.push(content.clone());
        let params = [("type", "stream"), ("to", "general"), ("topic", TOPIC), ("content", content.as_str())];
        let answer = http
            .post(&url)
            .basic_auth(&who.email, Some(&who.api_key))
            .form(&params)
            .send()
            .and_then(reqwest::blocking::Response::error_for_status)
            .and_then(|response| response.json::<Value>());
        // Any failure is the kill: connection refused or reset, or a half-written answer.
        let Ok(body) = answer else { break };
        let id = body["id"].as_u64().unwrap_or_else(|| panic!("a send's answer has its id: {body}"));
        if acks.send(Acknowledged { id, content }).is_err() {
            break;
        }
    }
    tried
}

/// Every message in the topic, by id, with its Markdown source.
fn stored_messages(server: &TestServer) -> BTreeMap<u64, String> {
    let narrow = format!(r#"[["channel", "general"], ["topic", "{TOPIC}"]]"#);
    let mut stored = BTreeMap::new();
    let mut anchor = "0".to_owned();
    loop {
        let page = server
            .api()
            .get(
                "/messages",
                Some(&server.owner()),
                &[
                    ("anchor", anchor.as_str()),
                    ("include_anchor", "false"),
                    ("num_before", "0"),
                    ("num_after", "1000"),
                    ("apply_markdown", "false"),
                    ("narrow", narrow.as_str()),
                ],
            )
            .ok();
        let messages = page["messages"].as_array().expect("messages");
        for message in messages {
            let id = message["id"].as_u64().expect("id");
            let content = message["content"].as_str().expect("content").to_owned();
            assert!(stored.insert(id, content).is_none(), "message {id} listed twice");
        }
        match messages.last() {
            Some(last) if !page["found_newest"].as_bool().expect("found_newest") => {
                anchor = last["id"].to_string()
            }
            _ => return stored,
        }
    }
}

#[test]
fn twenty_kills_under_concurrent_sends_lose_nothing_and_post_nothing_twice() {
    let mut server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let mut acknowledged: BTreeMap<u64, String> = BTreeMap::new();
    let mut tried: HashSet<String> = HashSet::new();
    for round in 0..ROUNDS {
        let (acks, answered) = mpsc::channel();
        let base_url = server.base_url.clone();
        let round_tried: Vec<String> = std::thread::scope(|scope| {
            let senders: Vec<_> = (0..CLIENTS)
                .map(|client| {
                    let (acks, base_url, owner) = (acks.clone(), &base_url, &owner);
                    scope.spawn(move || send_until_killed(base_url, owner, round, client, &acks))
                })
                .collect();
            drop(acks);
            for _ in 0..ACKNOWLEDGED_BEFORE_KILL {
                let ack: Acknowledged = answered.recv().expect("the senders keep sending");
                acknowledged.insert(ack.id, ack.content);
            }
            server.kill();
            let tried = senders.into_iter().flat_map(|s| s.join().expect("a sender")).collect();
            // Answers that arrived between the count and the kill count too.
            for ack in answered.try_iter() {
                acknowledged.insert(ack.id, ack.content);
            }
            tried
        });
        tried.extend(round_tried);

        server = server.start_again();
        let stored = stored_messages(&server);
        for (id, content) in &acknowledged {
            assert_eq!(
                stored.get(id),
                Some(content),
                "round {round}: acknowledged send {id} is kept as sent"
            );
        }
        let mut seen = HashSet::new();
        for (id, content) in &stored {
            assert!(tried.contains(content), "round {round}: message {id} ({content:?}) was never sent");
            assert!(seen.insert(content), "round {round}: {content:?} was posted twice");
        }
    }
    assert!(acknowledged.len() >= ROUNDS * ACKNOWLEDGED_BEFORE_KILL);
    let stored = stored_messages(&server).len();
    println!("{} sends tried, {} acknowledged, {stored} stored", tried.len(), acknowledged.len());
}
