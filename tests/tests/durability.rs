//! Acknowledged means durable: a message answered with 200 survives SIGKILL, and the server
//! shuts down cleanly on SIGTERM, closing its database so that the next start has nothing to
//! repair.

use confab_tests::TestServer;

/// What the server logs when redb repairs a file that was not closed (`Store::open_with`).
const REPAIR_LOG: &str = "repairing the database";
/// What it logs when it replays batches that reached the write-ahead log but not redb's file
/// (`store::checkpoint`).
const REPLAY_LOG: &str = "from the write-ahead log";

/// Sends `n` messages to #general > load as the owner; their ids.
fn send_load(server: &TestServer, n: usize) -> Vec<u64> {
    (0..n)
        .map(|i| {
            let content = format!("message {i}");
            let params =
                [("type", "stream"), ("to", "general"), ("topic", "load"), ("content", content.as_str())];
            server.api().post("/messages", Some(&server.owner()), &params).ok()["id"].as_u64().expect("id")
        })
        .collect()
}

fn newest_ids(server: &TestServer) -> Vec<u64> {
    let body = server
        .api()
        .get(
            "/messages",
            Some(&server.owner()),
            &[
                ("anchor", "newest"),
                ("num_before", "1000"),
                ("num_after", "0"),
                // Not the Notification Bot's notice that #general was created.
                ("narrow", r#"[["topic", "load"]]"#),
            ],
        )
        .ok();
    body["messages"].as_array().expect("messages").iter().map(|m| m["id"].as_u64().expect("id")).collect()
}

#[test]
fn acknowledged_messages_survive_sigkill() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.post("/users/me/subscriptions", Some(&owner), &[("subscriptions", r#"[{"name": "general"}]"#)]).ok();
    // Concurrent senders exercise group commit: several replies share one transaction.
    let acknowledged: Vec<u64> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|worker| {
                let api = server.api();
                let owner = owner.clone();
                scope.spawn(move || {
                    (0..25)
                        .map(|i| {
                            let content = format!("worker {worker} message {i}");
                            let params = [
                                ("type", "stream"),
                                ("to", "general"),
                                ("topic", "load"),
                                ("content", content.as_str()),
                            ];
                            api.post("/messages", Some(&owner), &params).ok()["id"].as_u64().expect("id")
                        })
                        .collect::<Vec<u64>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("sender thread")).collect()
    });
    assert_eq!(acknowledged.len(), 100);

    let server = server.restart(); // SIGKILL, then start again on the same directory
    let mut expected = acknowledged.clone();
    expected.sort_unstable();
    assert_eq!(newest_ids(&server), expected, "every acknowledged message is still there, in id order");

    // The organization was not created twice, and the server keeps working.
    assert!(server.owner_password.is_none(), "a restart does not make a new owner");
    let next = server
        .api()
        .post(
            "/messages",
            Some(&server.owner()),
            &[("type", "stream"), ("to", "general"), ("topic", "after"), ("content", "still here")],
        )
        .ok();
    assert!(
        next["id"].as_u64().expect("id") > *expected.last().expect("ids"),
        "ids keep increasing after a crash"
    );
}

#[test]
fn sigterm_shuts_down_gracefully() {
    let mut server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    server.api().get("/users/me", Some(&server.owner()), &[]).ok();
    let (status, log) = server.terminate_with_log();
    assert!(status.success(), "exit status {status}");
    assert!(!log.contains("not closed cleanly"), "the database closes: {log}");
}

#[test]
fn after_a_clean_stop_the_next_start_repairs_nothing() {
    let mut server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let sent = send_load(&server, 20);
    let (status, _) = server.terminate_with_log();
    assert!(status.success(), "exit status {status}");

    let mut server = server.start_again();
    assert_eq!(newest_ids(&server), sent, "a clean stop keeps every message");
    let (_, log) = server.terminate_with_log();
    assert!(!log.contains(REPAIR_LOG), "the file was closed, so the start repaired nothing: {log}");
    assert!(!log.contains(REPLAY_LOG), "the stop checkpointed, so the start replayed nothing: {log}");
}

#[test]
fn after_sigkill_the_next_start_has_nothing_to_repair_either() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let sent = send_load(&server, 20);

    let mut server = server.restart(); // SIGKILL: the file is left open
    assert_eq!(newest_ids(&server), sent);
    let (_, log) = server.terminate_with_log();
    assert!(!log.contains(REPAIR_LOG), "every commit saved the allocator state (quick repair): {log}");
}

#[test]
fn a_file_left_open_by_a_commit_without_quick_repair_is_repaired_and_the_log_says_so() {
    if confab_tests::not_on_postgres("redb repairs a file left open; PostgreSQL has no such file") {
        return;
    }
    let mut server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let sent = send_load(&server, 5);
    server.terminate_with_log();

    // What a kill leaves of a server that commits without quick repair (Confab before it): the
    // file of an open database whose last commit saved no allocator state.
    let crashed = tempfile::tempdir().expect("a directory");
    let file = server.data_dir.join(confab_server::store::DB_FILE);
    {
        const WRITTEN_PLAINLY: redb::TableDefinition<u64, u64> =
            redb::TableDefinition::new("written_plainly");
        let db = redb::Database::create(&file).expect("the stopped server's file opens");
        let mut txn = db.begin_write().expect("a write transaction");
        txn.set_quick_repair(false);
        txn.open_table(WRITTEN_PLAINLY).expect("a table").insert(1, 1).expect("a row");
        txn.commit().expect("a commit");
        std::fs::copy(&file, crashed.path().join(confab_server::store::DB_FILE)).expect("the file copies");
    }

    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_confab-under-test"));
    let mut restarted = TestServer::spawn(binary, crashed.path(), "127.0.0.1:0", &[]);
    restarted.owner = server.owner.clone();
    assert_eq!(newest_ids(&restarted), sent, "the repaired file has every message");
    let (_, log) = restarted.terminate_with_log();
    assert!(log.contains(REPAIR_LOG), "the repair is logged: {log}");
}
