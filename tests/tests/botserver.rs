//! Acceptance 1 of the integrations issue: the real `zulip-botserver` (PyPI 0.9.1) runs Zulip's
//! `helloworld` bot behind Confab's outgoing webhook and answers a mention.

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use confab_tests::{Creds, TestServer, python};
use serde_json::Value;

/// The botserver process, stopped when the test ends however it ends.
struct Botserver(Child);

impl Drop for Botserver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(90);
    while !done() {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_real_botserver_answers_a_mention_through_the_outgoing_webhook() {
    let server = TestServer::start_with(
        env!("CARGO_BIN_EXE_confab-under-test"),
        &["--allow-outgoing-to", "127.0.0.0/8"],
    );
    let owner = server.owner();
    let api = server.api();
    let port = free_port();
    let payload_url = format!("http://127.0.0.1:{port}/");
    let params = [
        ("full_name", "Hello World"),
        ("short_name", "helloworld"),
        ("bot_type", "3"),
        ("payload_url", payload_url.as_str()),
        ("interface_type", "1"),
    ];
    let made = api.post("/bots", Some(&owner), &params).ok();
    let bots = api.get("/bots", Some(&owner), &[]).ok();
    let bot =
        bots["bots"].as_array().expect("bots").iter().find(|b| b["user_id"] == made["user_id"]).cloned();
    let bot = bot.expect("the bot is listed");

    let rc = server.data_dir.join("botserverrc");
    let config = format!(
        "[helloworld]\nemail={}\nkey={}\nsite={}\ntoken={}\n",
        bot["email"].as_str().expect("email"),
        made["api_key"].as_str().expect("key"),
        server.base_url,
        bot["services"][0]["token"].as_str().expect("token"),
    );
    std::fs::write(&rc, config).expect("write botserverrc");
    let port_text = port.to_string();
    let _botserver = Botserver(
        Command::new(python::command("zulip-botserver"))
            .arg("--config-file")
            .arg(&rc)
            .args(["--hostname", "127.0.0.1", "--port", port_text.as_str()])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("zulip-botserver starts"),
    );
    wait_until("the botserver to listen", || TcpStream::connect(("127.0.0.1", port)).is_ok());

    api.subscribe(&owner, &["general"], &["owner@confab.localhost"]);
    let sent = api.post(
        "/messages",
        Some(&owner),
        &[("type", "stream"), ("to", "general"), ("topic", "greetings"), ("content", "@**Hello World** hi")],
    );
    let asked = sent.ok()["id"].clone();

    let narrow =
        r#"[{"operator": "channel", "operand": "general"}, {"operator": "topic", "operand": "greetings"}]"#;
    let conversation = |who: &Creds| -> Vec<Value> {
        let params = [("anchor", "newest"), ("num_before", "10"), ("num_after", "0"), ("narrow", narrow)];
        api.get("/messages", Some(who), &params).ok()["messages"].as_array().expect("list").clone()
    };
    wait_until("the bot's reply", || conversation(&owner).iter().any(|m| m["sender_id"] == made["user_id"]));
    let messages = conversation(&owner);
    let reply = messages.iter().find(|m| m["sender_id"] == made["user_id"]).expect("reply");
    assert_eq!(reply["content"], "<p>beep boop</p>");
    // The helloworld bot also waves at the message it answered.
    wait_until("the bot's reaction", || {
        conversation(&owner).iter().find(|m| m["id"] == asked).is_some_and(|m| {
            m["reactions"].as_array().is_some_and(|r| r.iter().any(|r| r["emoji_name"] == "wave"))
        })
    });
}
