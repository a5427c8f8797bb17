//! Backups: a backup taken while eight clients send restores to a server that holds every
//! message acknowledged before the backup started, with its uploads; `confab verify` passes on
//! the backup and on the restored data directory, and catches a missing upload file; a restore
//! refuses a data directory whose server runs.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use confab_tests::{Creds, TestServer, UploadFile};
use serde_json::Value;

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");
const SENDERS: usize = 8;
const TOPIC: &str = "backups";

fn confab(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(BINARY).args(args).output().expect("the confab binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Sends until told to stop, recording each acknowledged id; signals its first.
fn send_until_stopped(
    base_url: &str,
    who: &Creds,
    client: usize,
    acked: &Mutex<Vec<u64>>,
    stop: &AtomicBool,
    first: &mpsc::Sender<()>,
) {
    let http = reqwest::blocking::Client::new();
    let url = format!("{base_url}/api/v1/messages");
    for i in 0.. {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let content = format!("client {client} send {i}");
        let params = [("type", "stream"), ("to", "general"), ("topic", TOPIC), ("content", content.as_str())];
        let body: Value = http
            .post(&url)
            .basic_auth(&who.email, Some(&who.api_key))
            .form(&params)
            .send()
            .and_then(reqwest::blocking::Response::error_for_status)
            .and_then(|response| response.json())
            .expect("the server keeps answering sends during the backup");
        let id = body["id"].as_u64().unwrap_or_else(|| panic!("a send's answer has its id: {body}"));
        acked.lock().expect("the list of acknowledged sends").push(id);
        if i == 0 {
            first.send(()).expect("the test waits for the first sends");
        }
    }
}

/// Every message id in the topic.
fn stored_ids(server: &TestServer, who: &Creds) -> BTreeSet<u64> {
    let narrow = format!(r#"[["channel", "general"], ["topic", "{TOPIC}"]]"#);
    let mut ids = BTreeSet::new();
    let mut anchor = "0".to_owned();
    loop {
        let params = [
            ("anchor", anchor.as_str()),
            ("include_anchor", "false"),
            ("num_before", "0"),
            ("num_after", "1000"),
            ("narrow", narrow.as_str()),
        ];
        let page = server.api().get("/messages", Some(who), &params).ok();
        let messages = page["messages"].as_array().expect("messages");
        ids.extend(messages.iter().map(|m| m["id"].as_u64().expect("an id")));
        match messages.last() {
            Some(last) if page["found_newest"] != true => anchor = last["id"].to_string(),
            _ => return ids,
        }
    }
}

fn verify(dir: &Path) -> Output {
    confab(&["verify".as_ref(), dir.as_os_str()])
}

#[test]
fn a_backup_under_concurrent_sends_restores_every_acknowledged_message() {
    let server = TestServer::start(BINARY);
    let owner = server.owner();
    let file =
        UploadFile { name: "notes.txt", content_type: Some("text/plain"), bytes: b"kept in the backup" };
    let upload = server.api().send_files(reqwest::Method::POST, "/user_uploads", Some(&owner), &[file]).ok();
    let upload_url = upload["url"].as_str().expect("the upload's url").to_owned();
    let content = format!("[notes]({upload_url})");
    let linking = [("type", "stream"), ("to", "general"), ("topic", TOPIC), ("content", content.as_str())];
    server.api().post("/messages", Some(&owner), &linking).ok();

    let acked = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let (first, firsts) = mpsc::channel();
    let senders: Vec<_> = (0..SENDERS)
        .map(|client| {
            let (base_url, who, acked, stop, first) =
                (server.base_url.clone(), owner.clone(), acked.clone(), stop.clone(), first.clone());
            std::thread::spawn(move || send_until_stopped(&base_url, &who, client, &acked, &stop, &first))
        })
        .collect();
    for _ in 0..SENDERS {
        firsts.recv().expect("every sender's first send is acknowledged");
    }
    // Everything acknowledged by now must be in the backup, which starts after this.
    let before_backup: Vec<u64> = acked.lock().expect("acknowledged sends").clone();

    let backups = tempfile::tempdir().expect("a directory for backups");
    let backup = backups.path().join("backup");
    let made = confab(&[
        "backup".as_ref(),
        "--data-dir".as_ref(),
        server.data_dir.as_os_str(),
        "--to".as_ref(),
        backup.as_os_str(),
    ]);
    stop.store(true, Ordering::Relaxed);
    for sender in senders {
        sender.join().expect("a sender");
    }
    let (stdout, stderr) = (text(&made.stdout), text(&made.stderr));
    assert!(made.status.success(), "backup failed: {stdout}\n{stderr}");
    assert!(stderr.contains("backup: took a snapshot"), "the backup shows its progress: {stderr}");
    assert!(stderr.contains("backup: copied msgid_message"), "{stderr}");
    assert!(!stderr.contains("copying it directly"), "the running server made the backup: {stderr}");
    assert!(stdout.contains("backup written to"), "{stdout}");

    let verified = verify(&backup);
    assert!(verified.status.success(), "{}\n{}", text(&verified.stdout), text(&verified.stderr));
    assert!(text(&verified.stdout).contains("passed every check"), "{}", text(&verified.stdout));
    assert!(text(&verified.stderr).contains("verify: checking messages"), "verify shows its progress");

    let refused =
        confab(&["restore".as_ref(), backup.as_os_str(), "--data-dir".as_ref(), server.data_dir.as_os_str()]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("a Confab server is running on"), "{}", text(&refused.stderr));

    let restored = backups.path().join("restored");
    let put_back =
        confab(&["restore".as_ref(), backup.as_os_str(), "--data-dir".as_ref(), restored.as_os_str()]);
    assert!(put_back.status.success(), "{}\n{}", text(&put_back.stdout), text(&put_back.stderr));
    assert!(text(&put_back.stderr).contains("restore: copying the database"), "restore shows its progress");
    let verified = verify(&restored);
    assert!(verified.status.success(), "{}\n{}", text(&verified.stdout), text(&verified.stderr));
    drop(server);

    let again = TestServer::spawn(Path::new(BINARY), &restored, "127.0.0.1:0", &[]);
    let stored = stored_ids(&again, &owner);
    let lost: Vec<&u64> = before_backup.iter().filter(|id| !stored.contains(id)).collect();
    assert!(lost.is_empty(), "acknowledged before the backup, missing after the restore: {lost:?}");
    let download = reqwest::blocking::Client::new()
        .get(format!("{}{upload_url}", again.base_url))
        .basic_auth(&owner.email, Some(&owner.api_key))
        .send()
        .expect("the restored server answers");
    assert_eq!(download.status(), 200);
    assert_eq!(download.text().expect("the file"), "kept in the backup");
    drop(again);

    // A backup missing an uploaded file fails verification, naming it, and is not restored.
    let path_id = upload_url.trim_start_matches("/user_uploads/");
    std::fs::remove_file(backup.join("uploads").join(path_id)).expect("the copied upload");
    let damaged = verify(&backup);
    assert!(!damaged.status.success());
    let report = text(&damaged.stdout);
    assert!(report.contains(&format!("PROBLEM: uploads/{path_id} is missing")), "{report}");
    let elsewhere = backups.path().join("elsewhere");
    let refused =
        confab(&["restore".as_ref(), backup.as_os_str(), "--data-dir".as_ref(), elsewhere.as_os_str()]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("failed verification"), "{}", text(&refused.stderr));
    assert!(!elsewhere.exists(), "nothing was restored");
}
