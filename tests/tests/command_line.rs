//! The `confab` command as the README tells people to run it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use confab_tests::{Creds, TestServer, on_postgres};

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

/// What a command run while the server runs does: on PostgreSQL it works (servers share the
/// database with other processes); a redb file admits one process, so the command is refused
/// with advice that mentions `advice`.
fn beside_a_running_server(output: &std::process::Output, advice: &str) {
    let said = String::from_utf8_lossy(&output.stderr);
    if on_postgres() {
        assert!(output.status.success(), "{said}");
    } else {
        assert!(!output.status.success());
        assert!(said.contains("a Confab server is running"), "{said}");
        assert!(said.contains(advice), "{said}");
    }
}

/// `confab create-user` on a server's store (its data directory, or its database).
fn create_user(server: &TestServer, args: &[&str]) -> std::process::Output {
    Command::new(BINARY)
        .arg("create-user")
        .arg("--data-dir")
        .arg(&server.data_dir)
        .args(server.store_args())
        .args(args)
        .output()
        .expect("confab runs")
}

#[test]
fn create_user_works_offline_and_explains_itself_while_a_server_runs() {
    let mut server = TestServer::start(BINARY);
    let busy = create_user(&server, &["--email", "early@example.com", "--full-name", "Early"]);
    beside_a_running_server(&busy, "/api/v1/users");

    assert!(server.terminate().success());
    let made = create_user(
        &server,
        &["--email", "kim@example.com", "--full-name", "Kim", "--password", "open-sesame", "--role", "admin"],
    );
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let printed = String::from_utf8_lossy(&made.stdout);
    let key =
        printed.lines().find_map(|l| l.strip_prefix("API key: ")).expect("the key is printed").to_owned();
    let bot = create_user(&server, &["--email", "helper-bot@example.com", "--full-name", "Helper", "--bot"]);
    assert!(bot.status.success(), "{}", String::from_utf8_lossy(&bot.stderr));
    let bad_role =
        create_user(&server, &["--email", "x@example.com", "--full-name", "X", "--role", "emperor"]);
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

/// `confab create-realm` on a server's store (its data directory, or its database).
fn create_realm(server: &TestServer, subdomain: &str, args: &[&str]) -> std::process::Output {
    Command::new(BINARY)
        .arg("create-realm")
        .arg("--data-dir")
        .arg(&server.data_dir)
        .args(server.store_args())
        // `--subdomain=-x` keeps a leading hyphen from reading as a flag.
        .arg(format!("--subdomain={subdomain}"))
        .args(args)
        .output()
        .expect("confab runs")
}

const LEAR_OWNER: &[&str] =
    &["--name", "Lear", "--owner-email", "king@lear.example", "--owner-password", "crown-and-sceptre"];

#[test]
fn create_realm_makes_an_organization_whose_owner_logs_in_on_its_subdomain() {
    let mut server = TestServer::start_with(BINARY, &["--external-host", "confab.test"]);
    let early = ["--name", "Early", "--owner-email", "early@early.example", "--owner-password", "dawn"];
    let busy = create_realm(&server, "early", &early);
    beside_a_running_server(&busy, "Stop the server");

    assert!(server.terminate().success());
    let made = create_realm(&server, "lear", LEAR_OWNER);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let printed = String::from_utf8_lossy(&made.stdout);
    assert!(printed.contains("Created organization 'Lear'"), "{printed}");
    assert!(printed.contains("http(s)://lear.HOST"), "{printed}");
    let key =
        printed.lines().find_map(|l| l.strip_prefix("API key: ")).expect("the key is printed").to_owned();
    // Users are created offline in an organization named by its subdomain.
    let fool = create_user(
        &server,
        &[
            "--subdomain",
            "lear",
            "--email",
            "fool@lear.example",
            "--full-name",
            "Fool",
            "--password",
            "motley",
        ],
    );
    assert!(fool.status.success(), "{}", String::from_utf8_lossy(&fool.stderr));
    let nowhere =
        create_user(&server, &["--subdomain", "hamlet", "--email", "x@example.com", "--full-name", "X"]);
    assert!(!nowhere.status.success());
    assert!(String::from_utf8_lossy(&nowhere.stderr).contains("no organization with subdomain 'hamlet'"));

    let server = server.start_again();
    let lear = server.api().with_host("lear.confab.test");
    let king = Creds { email: "king@lear.example".into(), api_key: key.clone() };
    let me = lear.get("/users/me", Some(&king), &[]).ok();
    assert_eq!(me["role"], 100);
    assert_eq!(me["full_name"], "Owner");
    let fetched = lear
        .post("/fetch_api_key", None, &[("username", "king@lear.example"), ("password", "crown-and-sceptre")])
        .ok();
    assert_eq!(fetched["api_key"], key.as_str());
    lear.post("/fetch_api_key", None, &[("username", "fool@lear.example"), ("password", "motley")]).ok();
    let settings = lear.get("/server_settings", None, &[]).ok();
    assert_eq!(settings["realm_name"], "Lear");
}

#[test]
fn create_realm_refuses_what_zulip_refuses_and_writes_nothing() {
    let mut server = TestServer::start_with(BINARY, &["--external-host", "confab.test"]);
    assert!(server.terminate().success());
    assert!(create_realm(&server, "lear", LEAR_OWNER).status.success());
    let long = "a".repeat(41);
    let owner = |email: &'static str, password: &'static str| -> Vec<&'static str> {
        vec!["--name", "Elsinore", "--owner-email", email, "--owner-password", password]
    };
    let ok = owner("prince@hamlet.example", "to-be-or-not");
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        ("Hamlet", ok.clone(), "Subdomain can only have lowercase letters, numbers, and '-'s."),
        ("ham_let", ok.clone(), "Subdomain can only have lowercase letters, numbers, and '-'s."),
        ("-hamlet", ok.clone(), "Subdomain cannot start or end with a '-'."),
        ("ha", ok.clone(), "Subdomain needs to have length 3 or greater."),
        (&long, ok.clone(), "Ensure this value has at most 40 characters (it has 41)."),
        ("www", ok.clone(), "Subdomain reserved. Please choose a different one."),
        ("zulips", ok.clone(), "Subdomain reserved. Please choose a different one."),
        ("lear", ok.clone(), "Subdomain already in use. Please choose a different one."),
        ("", ok.clone(), "Subdomain already in use. Please choose a different one."),
        ("hamlet", owner("not-an-email", "to-be-or-not"), "Invalid email"),
        ("hamlet", owner("prince@hamlet.example", ""), "password must not be empty"),
        (
            "hamlet",
            vec!["--name", "", "--owner-email", "prince@hamlet.example", "--owner-password", "x"],
            "Invalid organization name",
        ),
    ];
    for (subdomain, args, expected) in &cases {
        let refused = create_realm(&server, subdomain, args);
        assert!(!refused.status.success(), "{subdomain:?} was accepted");
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(said.contains(expected), "{subdomain:?}: {said}");
    }

    // Nothing was written: the server still knows only the root and lear.
    let server = server.start_again();
    for (host, status) in [("confab.test", 200), ("lear.confab.test", 200), ("hamlet.confab.test", 400)] {
        let reply = server.api().with_host(host).get("/server_settings", None, &[]);
        assert_eq!(reply.status, status, "{host}: {}", reply.body);
    }
}

#[test]
fn serve_refuses_an_external_host_that_is_not_a_bare_host() {
    let dir = tempfile::tempdir().expect("temporary directory");
    for host in ["https://chat.example.com", "chat.example.com/zulip", "chat.example.com:http"] {
        let refused = Command::new(BINARY)
            .arg("serve")
            .arg("--data-dir")
            .arg(dir.path())
            .args(["--bind", "127.0.0.1:0", "--external-host", host])
            .output()
            .expect("confab runs");
        assert!(!refused.status.success(), "{host} was accepted");
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(said.contains("--external-host"), "{host}: {said}");
    }
}

#[test]
fn settings_come_from_the_command_line_then_the_environment_then_the_config_file() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let config = dir.path().join("confab.toml");
    std::fs::write(
        &config,
        "owner_email = \"boss@example.com\"\nexternal-host = \"file.example.com\"\nallow_outgoing_to = [\"10.0.0.0/8\"]\n",
    )
    .expect("write the file");
    let config = config.to_str().expect("a UTF-8 path");

    // The file decides what nothing else names; the environment beats it.
    let server = Command::new(BINARY)
        .env("CONFAB_EXTERNAL_HOST", "env.example.com")
        .args(["serve", "--config", config, "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(dir.path().join("data"))
        .stdout(Stdio::piped())
        .spawn()
        .expect("confab starts");
    let mut server = server;
    let stdout = server.stdout.take().expect("stdout");
    let said: Vec<String> = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .take_while(|line| !line.starts_with("Confab is listening on"))
        .collect();
    server.kill().ok();
    server.wait().ok();
    assert!(said.iter().any(|l| l.trim() == "email:    boss@example.com"), "{said:?}");
    let zuliprc = std::fs::read_to_string(dir.path().join("data/zuliprc")).expect("zuliprc");
    assert!(zuliprc.contains("env.example.com"), "{zuliprc}");

    // check-config says what is in effect and where it came from; the command line wins.
    let checked = Command::new(BINARY)
        .env("CONFAB_EXTERNAL_HOST", "env.example.com")
        .args(["check-config", "--config", config])
        .output()
        .expect("confab runs");
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stderr));
    let report = String::from_utf8_lossy(&checked.stdout);
    assert!(report.contains("owner_email = boss@example.com (file)"), "{report}");
    assert!(report.contains("external_host = env.example.com (environment)"), "{report}");
    assert!(report.contains("allow_outgoing_to = 10.0.0.0/8 (file)"), "{report}");
    assert!(report.contains("bind = 127.0.0.1:9991 (default)"), "{report}");

    // A mistake is refused before anything starts, naming the key or the value.
    std::fs::write(dir.path().join("bad.toml"), "bnid = \"0.0.0.0:80\"\n").expect("write");
    std::fs::write(dir.path().join("worse.toml"), "bind = \"nowhere\"\n").expect("write");
    for (file, says) in [("bad.toml", "`bnid` is not a setting"), ("worse.toml", "nowhere")] {
        let path = dir.path().join(file);
        for command in ["check-config", "serve"] {
            let refused =
                Command::new(BINARY).arg(command).arg("--config").arg(&path).output().expect("runs");
            assert!(!refused.status.success(), "{file} accepted by {command}");
            let stderr = String::from_utf8_lossy(&refused.stderr);
            assert!(stderr.contains(says), "{command} {file}: {stderr}");
        }
    }
}
