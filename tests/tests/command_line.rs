//! The `confab` command as the README tells people to run it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use confab_tests::{Creds, TestServer};

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");

#[test]
fn serve_without_flags_uses_the_documented_defaults() {
    let cwd = tempfile::tempdir().expect("temporary directory");
    let mut child = Command::new(BINARY)
        .arg("serve")
        .current_dir(cwd.path())
        .stdout(Stdio::piped())
        .spawn()
        .expect("confab starts");
    let stdout = child.stdout.take().expect("stdout");
    let listening = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find(|line| line.starts_with("Confab is listening on"))
        .expect("the server reports its address");
    assert_eq!(listening, "Confab is listening on http://127.0.0.1:9991");
    let zuliprc =
        std::fs::read_to_string(cwd.path().join("confab-data/zuliprc")).expect("./confab-data/zuliprc");
    assert!(zuliprc.contains("site=http://127.0.0.1:9991"), "{zuliprc}");
    let settings: serde_json::Value = reqwest::blocking::get("http://127.0.0.1:9991/api/v1/server_settings")
        .expect("the server answers")
        .json()
        .expect("JSON");
    assert_eq!(settings["result"], "success");
    child.kill().ok();
    child.wait().ok();
}

fn create_user(data_dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(BINARY)
        .arg("create-user")
        .arg("--data-dir")
        .arg(data_dir)
        .args(args)
        .output()
        .expect("confab runs")
}

#[test]
fn create_user_works_offline_and_explains_itself_while_a_server_runs() {
    let mut server = TestServer::start(BINARY);
    let busy = create_user(&server.data_dir, &["--email", "kim@example.com", "--full-name", "Kim"]);
    assert!(!busy.status.success());
    let advice = String::from_utf8_lossy(&busy.stderr);
    assert!(advice.contains("a Confab server is running"), "{advice}");
    assert!(advice.contains("/api/v1/users"), "{advice}");

    assert!(server.terminate().success());
    let made = create_user(
        &server.data_dir,
        &["--email", "kim@example.com", "--full-name", "Kim", "--password", "open-sesame", "--role", "admin"],
    );
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let printed = String::from_utf8_lossy(&made.stdout);
    let key =
        printed.lines().find_map(|l| l.strip_prefix("API key: ")).expect("the key is printed").to_owned();
    let bot = create_user(
        &server.data_dir,
        &["--email", "helper-bot@example.com", "--full-name", "Helper", "--bot"],
    );
    assert!(bot.status.success(), "{}", String::from_utf8_lossy(&bot.stderr));
    let bad_role =
        create_user(&server.data_dir, &["--email", "x@example.com", "--full-name", "X", "--role", "emperor"]);
    assert!(!bad_role.status.success());

    let server = server.start_again();
    let api = server.api();
    let kim = Creds { email: "kim@example.com".into(), api_key: key.clone() };
    let me = api.get("/users/me", Some(&kim), &[]).ok();
    assert_eq!(me["role"], 200);
    let fetched = api
        .post("/fetch_api_key", None, &[("username", "kim@example.com"), ("password", "open-sesame")])
        .ok();
    assert_eq!(fetched["api_key"], key.as_str());
    let bot = api.get("/users/helper-bot@example.com", Some(&kim), &[]).ok();
    assert_eq!(bot["user"]["is_bot"], true);
    assert_eq!(bot["user"]["bot_owner_id"], 1);
}

#[test]
fn a_client_that_never_finishes_its_headers_is_disconnected() {
    let server = TestServer::start_with(BINARY, &["--header-timeout-secs", "1"]);
    let address = server.base_url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.write_all(b"GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\n").expect("write");
    // Generous bound: the outcome (the server hangs up) does not depend on how fast it happens.
    stream.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
    let mut buffer = Vec::new();
    let read = stream.read_to_end(&mut buffer);
    assert!(read.is_ok(), "the server closed the connection instead of waiting forever: {read:?}");
    // The server is still serving others.
    server.api().get("/server_settings", None, &[]).ok();
}
