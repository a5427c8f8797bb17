//! `confab serve --database`: the same server on PostgreSQL (a scratch server this test process
//! starts from the machine's binaries). Acknowledged writes survive SIGKILL, a restart finds
//! everything, a second server on the same database reads what the first wrote, and a database
//! from a newer Confab is refused.

use std::process::Command;

use confab_server::scratch_postgres;
use confab_tests::TestServer;

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");

fn new_database() -> String {
    let cluster = scratch_postgres::shared().expect("a scratch PostgreSQL server");
    cluster.new_database().expect("a new database")
}

/// Sends `n` messages to #general > load as `owner`; their ids.
fn send(server: &TestServer, owner: &confab_tests::Creds, n: usize) -> Vec<u64> {
    (0..n)
        .map(|i| {
            let content = format!("message {i}");
            let params =
                [("type", "stream"), ("to", "general"), ("topic", "load"), ("content", content.as_str())];
            server.api().post("/messages", Some(owner), &params).ok()["id"].as_u64().expect("id")
        })
        .collect()
}

/// The ids and contents of #general > load, oldest first, as `owner` reads them from `server`.
fn history(server: &TestServer, owner: &confab_tests::Creds) -> Vec<(u64, String)> {
    let params = [
        ("anchor", "newest"),
        ("num_before", "1000"),
        ("num_after", "0"),
        ("narrow", r#"[["channel", "general"], ["topic", "load"]]"#),
        ("apply_markdown", "false"),
    ];
    let body = server.api().get("/messages", Some(owner), &params).ok();
    let messages = body["messages"].as_array().expect("messages");
    messages
        .iter()
        .map(|m| (m["id"].as_u64().expect("id"), m["content"].as_str().expect("content").to_owned()))
        .collect()
}

#[test]
fn acknowledged_messages_survive_sigkill_and_a_restart() {
    let url = new_database();
    let server = TestServer::start_with(BINARY, &["--database", &url]);
    let owner = server.owner();
    let sent = send(&server, &owner, 30);
    let server = server.restart();
    let kept = history(&server, &owner);
    assert_eq!(kept.iter().map(|(id, _)| *id).collect::<Vec<_>>(), sent, "every acknowledged message");
    assert_eq!(kept[29].1, "message 29");
    let next = send(&server, &owner, 1)[0];
    assert!(next > sent[29], "ids keep increasing after a crash: {next}");
}

#[test]
fn a_second_server_on_the_same_database_reads_what_the_first_wrote() {
    let url = new_database();
    let first = TestServer::start_with(BINARY, &["--database", &url]);
    let owner = first.owner();
    let sent = send(&first, &owner, 5);
    // Its own data directory, the same database: the organization exists, so no new owner.
    let second = TestServer::start_with(BINARY, &["--database", &url]);
    assert!(second.owner.is_none(), "the second server created no organization");
    let read = history(&second, &owner);
    assert_eq!(read.iter().map(|(id, _)| *id).collect::<Vec<_>>(), sent);
    // And it writes to the same history, in one sequence of ids.
    let reply = second
        .api()
        .post(
            "/messages",
            Some(&owner),
            &[("type", "stream"), ("to", "general"), ("topic", "load"), ("content", "from the second")],
        )
        .ok();
    assert!(reply["id"].as_u64().expect("id") > sent[4]);
    assert_eq!(history(&first, &owner).last().map(|(_, c)| c.as_str()), Some("from the second"));
}

#[test]
fn a_database_written_by_a_newer_confab_is_refused() {
    let url = new_database();
    let server = TestServer::start_with(BINARY, &["--database", &url]);
    drop(server);
    // `meta` keys are ordered bytes (the string, then 0x00 0x00); values are little-endian.
    let newer =
        "UPDATE meta SET v = '\\x6300000000000000' WHERE k = 'schema_version'::bytea || '\\x0000'::bytea";
    let updated = Command::new("psql").arg(&url).args(["-qtc", newer]).output().expect("psql runs");
    assert!(updated.status.success(), "{}", String::from_utf8_lossy(&updated.stderr));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let refused = Command::new(BINARY)
        .args(["serve", "--bind", "127.0.0.1:0", "--database", &url, "--data-dir"])
        .arg(dir.path())
        .output()
        .expect("the binary runs");
    assert!(!refused.status.success(), "the server refused to start");
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("schema version 99, newer than this Confab"), "{said}");
}

/// The ids of the message events a queue holds after `last_event_id`, waiting for them (a long
/// poll) until there are `count`.
fn message_events(server: &TestServer, owner: &confab_tests::Creds, queue: &str, count: usize) -> Vec<u64> {
    let (mut ids, mut last) = (Vec::new(), -1i64);
    while ids.len() < count {
        let last_id = last.to_string();
        let params = [("queue_id", queue), ("last_event_id", last_id.as_str())];
        let body = server.api().get("/events", Some(owner), &params).ok();
        for event in body["events"].as_array().expect("events") {
            last = last.max(event["id"].as_i64().expect("an event id"));
            if event["type"] == "message" {
                ids.push(event["message"]["id"].as_u64().expect("a message id"));
            }
        }
    }
    ids
}

#[test]
fn a_message_sent_through_one_server_reaches_a_queue_on_the_other_in_commit_order() {
    let url = new_database();
    let first = TestServer::start_with(BINARY, &["--database", &url]);
    let owner = first.owner();
    let second = TestServer::start_with(BINARY, &["--database", &url]);
    let registered = second.api().post("/register", Some(&owner), &[("event_types", r#"["message"]"#)]).ok();
    let queue = registered["queue_id"].as_str().expect("a queue id").to_owned();
    // Alternating servers, and several senders at once on each: one sequence of ids.
    let sent: Vec<u64> = std::thread::scope(|scope| {
        let senders: Vec<_> = [&first, &second, &first, &second]
            .into_iter()
            .map(|server| scope.spawn(|| send(server, &owner, 10)))
            .collect();
        senders.into_iter().flat_map(|sender| sender.join().expect("a sender")).collect()
    });
    let mut expected = sent.clone();
    expected.sort_unstable();
    let received = message_events(&second, &owner, &queue, sent.len());
    assert_eq!(received, expected, "every message once, in id (commit) order");
}

/// Points a server's `DATA_DIR/uploads` at `shared`, as a mount of one directory on every
/// server would (the server makes the directory at its first upload, so none exists yet).
fn share_uploads(server: &TestServer, shared: &std::path::Path) {
    let uploads = server.data_dir.join("uploads");
    if uploads.exists() {
        std::fs::remove_dir(&uploads).expect("the uploads directory is still empty");
    }
    std::os::unix::fs::symlink(shared, &uploads).expect("a link to the shared directory");
}

#[test]
fn a_file_uploaded_through_one_server_downloads_through_the_other_by_key_and_by_temporary_url() {
    let url = new_database();
    let first = TestServer::start_with(BINARY, &["--database", &url]);
    let owner = first.owner();
    let second = TestServer::start_with(BINARY, &["--database", &url]);
    let shared = tempfile::tempdir().expect("a directory both servers share");
    share_uploads(&first, shared.path());
    share_uploads(&second, shared.path());

    let part = reqwest::blocking::multipart::Part::bytes(b"the shared plan".to_vec()).file_name("plan.txt");
    let form = reqwest::blocking::multipart::Form::new().part("file", part);
    let http = reqwest::blocking::Client::new();
    let uploaded: serde_json::Value = http
        .post(format!("{}/api/v1/user_uploads", first.base_url))
        .basic_auth(&owner.email, Some(&owner.api_key))
        .multipart(form)
        .send()
        .and_then(|r| r.json())
        .expect("the upload's answer");
    let path = uploaded["url"].as_str().expect("the file's URL").to_owned();

    let by_key = http
        .get(format!("{}{path}", second.base_url))
        .basic_auth(&owner.email, Some(&owner.api_key))
        .send()
        .expect("the download");
    assert_eq!(by_key.status(), 200);
    assert_eq!(by_key.bytes().expect("its bytes").as_ref(), b"the shared plan");

    // A temporary URL made by the first server opens the file on the second, without
    // credentials: any server sharing the directory checks its signature.
    let api_path = path.trim_start_matches("/user_uploads/");
    let temporary = first.api().get(&format!("/user_uploads/{api_path}"), Some(&owner), &[]).ok();
    let temporary = temporary["url"].as_str().expect("a temporary URL").to_owned();
    let opened = http.get(format!("{}{temporary}", second.base_url)).send().expect("the download");
    assert_eq!(opened.status(), 200);
    assert_eq!(opened.bytes().expect("its bytes").as_ref(), b"the shared plan");
    let forged = temporary.replacen('.', ".1", 1);
    let refused = http.get(format!("{}{forged}", second.base_url)).send().expect("an answer");
    assert_eq!(refused.status(), 400, "a changed token opens nothing");
}

/// Runs SQL on the test's database.
fn psql(url: &str, sql: &str) {
    let ran = Command::new("psql").arg(url).args(["-qtc", sql]).output().expect("psql runs");
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
}

/// A server on `url` that registered a message queue for its owner, then stopped gracefully
/// (which saves the queue and its place in the shared events): the server, the owner, the
/// queue's id.
fn stopped_with_a_queue(url: &str) -> (TestServer, confab_tests::Creds, String) {
    let mut server = TestServer::start_with(BINARY, &["--database", url]);
    let owner = server.owner();
    let registered = server.api().post("/register", Some(&owner), &[("event_types", r#"["message"]"#)]).ok();
    let queue = registered["queue_id"].as_str().expect("a queue id").to_owned();
    assert!(server.terminate().success(), "a graceful stop saves the queue and its place");
    (server, owner, queue)
}

#[test]
fn queues_restored_after_the_shared_events_they_missed_were_pruned_are_discarded() {
    let url = new_database();
    let (first, owner, queue) = stopped_with_a_queue(&url);

    // Meanwhile another server sends, and its batches grow old enough to be pruned (all but
    // the newest), which a server does when it starts.
    let second = TestServer::start_with(BINARY, &["--database", &url]);
    send(&second, &owner, 2);
    drop(second);
    psql(&url, "UPDATE confab_events SET at = now() - interval '1 day'");
    drop(TestServer::start_with(BINARY, &["--database", &url]));

    // The first server restores its queue, finds the batches it missed gone, and discards it:
    // its client registers again rather than silently missing a message.
    let first = first.start_again();
    let params = [("queue_id", queue.as_str()), ("last_event_id", "-1"), ("dont_block", "true")];
    first.api().get("/events", Some(&owner), &params).error(400, "BAD_EVENT_QUEUE_ID");
    assert!(first.log_so_far().contains("discarded 1 event queues"), "{}", first.log_so_far());
}

#[test]
fn queues_restored_with_the_shared_events_they_missed_receive_them() {
    let url = new_database();
    let (first, owner, queue) = stopped_with_a_queue(&url);
    let second = TestServer::start_with(BINARY, &["--database", &url]);
    let sent = send(&second, &owner, 2);
    let first = first.start_again();
    assert_eq!(message_events(&first, &owner, &queue, 2), sent, "what the other server sent meanwhile");
}

#[test]
fn servers_starting_together_on_a_new_database_create_one_organization() {
    let url = new_database();
    let servers: Vec<TestServer> = std::thread::scope(|scope| {
        let starting: Vec<_> =
            (0..3).map(|_| scope.spawn(|| TestServer::start_with(BINARY, &["--database", &url]))).collect();
        starting.into_iter().map(|server| server.join().expect("a server starts")).collect()
    });
    let owners: Vec<_> = servers.iter().filter_map(|server| server.owner.clone()).collect();
    assert_eq!(owners.len(), 1, "one server made the organization and its owner");
    for server in &servers {
        let me = server.api().get("/users/me", Some(&owners[0]), &[]).ok();
        assert_eq!(me["email"], owners[0].email.as_str());
    }
}

#[test]
fn confab_verify_checks_a_database_its_servers_are_using_and_the_files_it_names() {
    let url = new_database();
    let server = TestServer::start_with(BINARY, &["--database", &url]);
    let owner = server.owner();
    send(&server, &owner, 3);
    let part = reqwest::blocking::multipart::Part::bytes(b"checked".to_vec()).file_name("plan.txt");
    let uploaded: serde_json::Value = reqwest::blocking::Client::new()
        .post(format!("{}/api/v1/user_uploads", server.base_url))
        .basic_auth(&owner.email, Some(&owner.api_key))
        .multipart(reqwest::blocking::multipart::Form::new().part("file", part))
        .send()
        .and_then(|r| r.json())
        .expect("the upload's answer");
    let verify = || {
        Command::new(BINARY)
            .args(["verify", "--database", &url])
            .arg(&server.data_dir)
            .output()
            .expect("the binary runs")
    };
    let checked = verify();
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(checked.status.success(), "{said}{}", String::from_utf8_lossy(&checked.stderr));
    assert!(said.contains("OK: the database passed every check"), "{said}");
    assert!(said.contains("checked files named by records: 1"), "{said}");

    let path = uploaded["url"].as_str().expect("the file's URL").trim_start_matches("/user_uploads/");
    std::fs::remove_file(server.data_dir.join("uploads").join(path)).expect("the uploaded file");
    let damaged = verify();
    let said = String::from_utf8_lossy(&damaged.stdout);
    assert!(!damaged.status.success(), "a missing file fails the check: {said}");
    assert!(said.contains("is missing"), "{said}");
}
