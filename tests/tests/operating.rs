//! Running Confab as an operator does (README, "Operating"): health and readiness checks,
//! `/metrics` read by the Prometheus project's own parser, logs in a file or as JSON lines,
//! SIGHUP, the start-up banner, and the zuliprc the Zulip clients read.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use confab_tests::{Api, Creds, TestServer, python};
use serde_json::Value;

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");

#[test]
fn health_and_ready_answer_anyone_in_zulips_shape() {
    let server = TestServer::start(BINARY);
    // The two paths are outside /api/v1, as load balancers and orchestrators ask for them.
    let health = get_json(&format!("{}/health", server.base_url));
    assert_eq!(health, (200, serde_json::json!({"result": "success", "msg": ""})));
    let ready = get_json(&format!("{}/ready", server.base_url));
    assert_eq!(ready, (200, serde_json::json!({"result": "success", "msg": ""})));

    // Its data directory gone (an unmounted disk): still alive, no longer ready.
    std::fs::remove_dir_all(&server.data_dir).expect("remove the data directory");
    let (status, body) = get_json(&format!("{}/ready", server.base_url));
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["result"], "error");
    assert_eq!(body["code"], "SERVER_NOT_READY");
    assert!(
        body["msg"].as_str().is_some_and(|m| m.starts_with("The data directory does not take writes")),
        "{body}"
    );
    assert_eq!(get_json(&format!("{}/health", server.base_url)).0, 200);
}

#[test]
fn metrics_are_read_by_prometheus_own_parser() {
    // Limited as any client is, so that the refused login below is a rate-limit hit.
    let server = TestServer::start_rate_limited(BINARY, &[]);
    let owner = server.owner();
    let api = server.api();
    for n in 0..3 {
        let text = format!("message {n}");
        let params =
            [("type", "stream"), ("to", "general"), ("topic", "metrics"), ("content", text.as_str())];
        api.post("/messages", Some(&owner), &params).ok();
    }
    api.get("/messages/999999", Some(&owner), &[]).error(400, "BAD_REQUEST");
    api.get("/no_such_endpoint", Some(&owner), &[]).error(404, "BAD_REQUEST");
    // Zulip's limit on failed logins: the sixth wrong password in the window is refused.
    let wrong = [("username", owner.email.as_str()), ("password", "not the password")];
    for _ in 0..5 {
        api.post("/fetch_api_key", None, &wrong).error(401, "AUTHENTICATION_FAILED");
    }
    api.post("/fetch_api_key", None, &wrong).error(429, "RATE_LIMIT_HIT");
    // An outgoing webhook to a loopback service, which the server refuses to reach: the bot's
    // owner hears of it from Notification Bot, after the delivery was counted.
    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["message"]"#)]).ok();
    let bot = [
        ("full_name", "Hook"),
        ("short_name", "hook"),
        ("bot_type", "3"),
        ("payload_url", "http://127.0.0.1:9/"),
    ];
    let bot_id = api.post("/bots", Some(&owner), &bot).ok()["user_id"].as_u64().expect("bot id");
    let to = format!("[{bot_id}]");
    api.post("/messages", Some(&owner), &[("type", "private"), ("to", to.as_str()), ("content", "hello")])
        .ok();
    wait_for_message_from(&api, &owner, &queue, "Notification Bot");

    let (status, content_type, text) = get_text(&format!("{}/metrics", server.base_url), &[]);
    assert_eq!(status, 200, "{text}");
    assert!(content_type.starts_with("application/openmetrics-text"), "{content_type}");
    let families = parse_metrics(&text);

    let requests = &families["confab_http_requests"];
    assert_eq!(requests["type"], "counter");
    let count = |endpoint: &str, status: &str| {
        samples(requests)
            .filter(|(name, labels, _)| {
                name == "confab_http_requests_total"
                    && labels["endpoint"] == endpoint
                    && labels["status"] == status
            })
            .map(|(_, _, value)| value)
            .sum::<f64>()
    };
    // Route templates, never raw paths; an unknown path is `unmatched`.
    assert!(count("/api/v1/messages", "200") >= 3.0, "{requests}");
    assert_eq!(count("/api/v1/messages/{message_id}", "400"), 1.0, "{requests}");
    assert_eq!(count("unmatched", "404"), 1.0, "{requests}");
    assert_eq!(count("/api/v1/fetch_api_key", "429"), 1.0, "{requests}");
    assert!(
        samples(requests).all(|(_, labels, _)| !labels["endpoint"].as_str().unwrap_or("").contains("999999"))
    );

    let latency = &families["confab_http_request_duration_seconds"];
    assert_eq!(latency["type"], "histogram");
    let sends = samples(latency)
        .find(|(name, labels, _)| {
            name == "confab_http_request_duration_seconds_count" && labels["endpoint"] == "/api/v1/messages"
        })
        .map(|(_, _, value)| value);
    assert!(sends.is_some_and(|n| n >= 3.0), "{latency}");

    assert!(value(&families, "confab_rate_limit_hits", "confab_rate_limit_hits_total") >= 1.0);
    assert_eq!(families["confab_writer_batch_commands"]["type"], "histogram");
    assert!(value(&families, "confab_writer_batch_commands", "confab_writer_batch_commands_count") >= 4.0);
    assert!(
        value(
            &families,
            "confab_writer_commit_duration_seconds",
            "confab_writer_commit_duration_seconds_count"
        ) >= 4.0
    );
    assert_eq!(value(&families, "confab_writer_commit_failures", "confab_writer_commit_failures_total"), 0.0);
    assert!(value(&families, "confab_event_queues", "confab_event_queues") >= 1.0);
    assert_eq!(families["confab_event_waiting_polls"]["type"], "gauge");
    let deliveries = &families["confab_outgoing_webhook_deliveries"];
    let failed = samples(deliveries).find(|(_, labels, _)| labels["outcome"] == "failed").map(|(_, _, v)| v);
    assert_eq!(failed, Some(1.0), "{deliveries}");
}

#[test]
fn metrics_are_for_loopback_and_the_allowed_ranges_and_never_through_a_proxy() {
    let server = TestServer::start(BINARY);
    let url = format!("{}/metrics", server.base_url);
    assert_eq!(get_text(&url, &[]).0, 200);
    let (status, _, body) = get_text(&url, &[("X-Forwarded-For", "198.51.100.7")]);
    assert_eq!(status, 403);
    let body: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(body["result"], "error");
    assert_eq!(body["code"], "BAD_REQUEST");

    // Naming ranges replaces the loopback default.
    let elsewhere = TestServer::start_with(BINARY, &["--metrics-allow", "192.0.2.0/24"]);
    assert_eq!(get_text(&format!("{}/metrics", elsewhere.base_url), &[]).0, 403);
    let both =
        TestServer::start_with(BINARY, &["--metrics-allow", "192.0.2.0/24", "--metrics-allow", "127.0.0.1"]);
    assert_eq!(get_text(&format!("{}/metrics", both.base_url), &[]).0, 200);
}

#[test]
fn logs_in_a_file_are_plain_text() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let log = dir.path().join("confab.log");
    let (mut child, base_url, printed) = serve_logging_to(&dir.path().join("data"), &log, &[]);
    assert_eq!(get_json(&format!("{base_url}/health")).0, 200);
    stop(&mut child, "TERM");
    let printed = printed.join().expect("standard output");
    assert!(printed.contains(&format!("  Confab: {base_url}/")), "{printed:?}");
    let bytes = std::fs::read(&log).expect("the log");
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("SIGTERM: shutting down"), "{text}");
    assert!(!bytes.contains(&0x1b), "no terminal escape codes in a file:\n{text}");
}

#[test]
fn json_logs_are_one_object_a_line() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let log = dir.path().join("confab.jsonl");
    let (mut child, _, _) = serve_logging_to(&dir.path().join("data"), &log, &["--log-format", "json"]);
    stop(&mut child, "TERM");
    let text = std::fs::read_to_string(&log).expect("the log");
    let lines: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect();
    assert!(lines.len() >= 3, "{text}");
    assert!(lines.iter().all(|line| line["level"].is_string() && line["timestamp"].is_string()), "{text}");
    assert!(lines.iter().any(|line| line["fields"]["message"] == "SIGTERM: shutting down"), "{text}");
}

#[test]
fn the_banner_shows_each_organizations_url() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = dir.path().join("data");
    let made = Command::new(BINARY)
        .args(["create-realm", "--subdomain", "lear", "--name", "King Lear"])
        .args(["--owner-email", "king@lear.example", "--owner-password", "crown-and-sceptre", "--data-dir"])
        .arg(&data)
        .output()
        .expect("confab runs");
    assert!(made.status.success(), "{made:?}");
    let log = dir.path().join("confab.log");

    let named = ["--external-host", "chat.example.com", "--external-scheme", "https"];
    let (mut child, _, printed) = serve_logging_to(&data, &log, &named);
    stop(&mut child, "TERM");
    let printed = printed.join().expect("standard output");
    assert_eq!(
        printed.iter().filter(|line| line.starts_with("  ")).collect::<Vec<_>>(),
        ["  King Lear: https://lear.chat.example.com/"]
    );

    // Under an IP address no subdomain resolves, and the banner says what to do.
    let (mut child, base_url, printed) = serve_logging_to(&data, &log, &[]);
    stop(&mut child, "TERM");
    let printed = printed.join().expect("standard output");
    let address = base_url.trim_start_matches("http://");
    assert!(printed.contains(&format!("  King Lear: http://lear.{address}/")), "{printed:?}");
    assert!(printed.iter().any(|line| line.contains("set --external-host")), "{printed:?}");
}

#[test]
fn sighup_stops_the_server_gracefully_and_keeps_event_queues() {
    let mut server = TestServer::start(BINARY);
    let owner = server.owner();
    let api = server.api();
    let queue = api.post("/register", Some(&owner), &[("event_types", r#"["message", "restart"]"#)]).ok();
    let queue_id = queue["queue_id"].as_str().expect("queue_id").to_owned();
    let params = [("type", "stream"), ("to", "general"), ("topic", "t"), ("content", "before the hangup")];
    api.post("/messages", Some(&owner), &params).ok();

    assert!(server.stop_with("HUP").success(), "a hangup is a clean stop");
    let server = server.start_again();
    let got = server
        .api()
        .get("/events", Some(&owner), &[("queue_id", queue_id.as_str()), ("dont_block", "true")])
        .ok();
    let types: Vec<&str> =
        got["events"].as_array().expect("events").iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(types, ["message", "restart"], "{got}");
}

#[test]
fn the_data_directorys_zuliprc_follows_the_external_host() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let data = dir.path().join("data");
    let mut first = TestServer::spawn(Path::new(BINARY), &data, "127.0.0.1:0", &[]);
    let owner = first.owner();
    let address = first.base_url.trim_start_matches("http://").to_owned();
    let port = address.rsplit(':').next().expect("a port").to_owned();
    let rc_path = data.join("zuliprc");
    let written = std::fs::read_to_string(&rc_path).expect("DIR/zuliprc");
    assert!(written.contains(&format!("site=http://{address}\n")), "{written}");
    first.terminate();

    // Served under a name now: the zuliprc follows, and the start says so.
    let host = format!("localhost:{port}");
    let mut second = TestServer::spawn(Path::new(BINARY), &data, &address, &["--external-host", &host]);
    let rewritten = std::fs::read_to_string(&rc_path).expect("DIR/zuliprc");
    assert_eq!(
        rewritten,
        format!("[api]\nemail={}\nkey={}\nsite=http://{host}\n", owner.email, owner.api_key)
    );
    assert_eq!(mode(&rc_path), 0o600);
    // The real Python client, which failed with a bare AssertionError on the old site.
    let profile = python_profile(&rc_path);
    assert_eq!(profile["result"], "success", "{profile}");
    assert_eq!(profile["email"], owner.email.as_str());
    let (_, log) = second.terminate_with_log();
    assert!(log.contains("rewrote its site"), "{log}");
}

#[test]
fn confab_zuliprc_writes_a_users_credentials_and_organization_url() {
    let mut server = TestServer::start(BINARY);
    let owner = server.owner();
    let ada = server.api().create_user(&owner, "ada@example.com", "Ada");
    let data = server.data_dir.clone();
    let store = server.store_args();
    let zuliprc = |args: &[&str]| {
        Command::new(BINARY)
            .arg("zuliprc")
            .arg("--data-dir")
            .arg(&data)
            .args(&store)
            .args(args)
            .output()
            .expect("confab runs")
    };
    let busy = zuliprc(&["--email", "ada@example.com"]);
    if confab_tests::on_postgres() {
        // Servers share a database with other processes.
        assert!(busy.status.success(), "{busy:?}");
    } else {
        // A redb file admits one process: the command says what to do instead.
        assert!(!busy.status.success());
        assert!(String::from_utf8_lossy(&busy.stderr).contains("Stop the server"), "{busy:?}");
    }
    server.terminate();

    let printed = zuliprc(&[
        "--email",
        "ada@example.com",
        "--external-host",
        "chat.example.com",
        "--external-scheme",
        "https",
    ]);
    assert!(printed.status.success(), "{printed:?}");
    assert_eq!(
        String::from_utf8_lossy(&printed.stdout),
        format!("[api]\nemail=ada@example.com\nkey={}\nsite=https://chat.example.com\n", ada.api_key)
    );
    let file = data.join("ada.zuliprc");
    let out = file.to_str().expect("a UTF-8 path");
    let written = zuliprc(&["--email", "ada@example.com", "--output", out]);
    assert!(written.status.success(), "{written:?}");
    assert!(std::fs::read_to_string(&file).expect("written").contains("site=http://127.0.0.1:9991\n"));
    assert_eq!(mode(&file), 0o600);

    let nobody = zuliprc(&["--email", "nobody@example.com"]);
    assert!(!nobody.status.success());
    assert!(String::from_utf8_lossy(&nobody.stderr).contains("no user with email"), "{nobody:?}");
    let elsewhere = zuliprc(&["--email", "ada@example.com", "--subdomain", "lear"]);
    assert!(!elsewhere.status.success());
    assert!(String::from_utf8_lossy(&elsewhere.stderr).contains("no organization with subdomain"));
}

/// What `confab serve` printed: the lines up to its address, then the rest once it has exited.
type Printed = std::thread::JoinHandle<Vec<String>>;

/// Starts `confab serve` with its standard error going to `log`, as a service manager or a
/// shell's `2>file` would. Returns the process, its URL and what it prints.
fn serve_logging_to(data: &Path, log: &Path, extra: &[&str]) -> (Child, String, Printed) {
    let mut child = Command::new(BINARY)
        .arg("serve")
        .arg("--data-dir")
        .arg(data)
        .args(["--bind", "127.0.0.1:0"])
        .args(extra)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).expect("the log file"))
        .spawn()
        .expect("confab starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines().map_while(Result::ok);
    let mut printed = Vec::new();
    let mut base_url = None;
    for line in lines.by_ref() {
        base_url = line.strip_prefix("Confab is listening on ").map(str::to_owned);
        printed.push(line);
        if base_url.is_some() {
            break;
        }
    }
    let rest = std::thread::spawn(move || printed.into_iter().chain(lines).collect());
    (child, base_url.expect("the server reports its address"), rest)
}

fn stop(child: &mut Child, signal: &str) {
    let status = Command::new("kill").arg(format!("-{signal}")).arg(child.id().to_string()).status();
    assert!(status.expect("kill runs").success());
    assert!(child.wait().expect("the server exits").success());
}

fn get_json(url: &str) -> (u16, Value) {
    let (status, _, body) = get_text(url, &[]);
    (status, serde_json::from_str(&body).unwrap_or_else(|_| panic!("not JSON: {body}")))
}

/// Status, `Content-Type` and body of a GET.
fn get_text(url: &str, headers: &[(&str, &str)]) -> (u16, String, String) {
    let client = reqwest::blocking::Client::new();
    let mut request = client.get(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().expect("the server answers");
    let status = response.status().as_u16();
    let content_type =
        response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    (status, content_type, response.text().expect("a body"))
}

/// The exposition's families as prometheus-client's OpenMetrics parser reads them.
fn parse_metrics(text: &str) -> serde_json::Map<String, Value> {
    let file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(file.path(), text).expect("write the exposition");
    let output = python::run_script("parse_metrics.py", &[file.path().to_str().expect("a UTF-8 path")]);
    assert!(output.status.success(), "the parser refused the exposition:\n{text}");
    match serde_json::from_slice(&output.stdout).expect("the parser's JSON") {
        Value::Object(families) => families,
        other => panic!("not an object: {other}"),
    }
}

/// A family's samples as (name, labels, value).
fn samples(family: &Value) -> impl Iterator<Item = (String, Value, f64)> + '_ {
    family["samples"].as_array().expect("samples").iter().map(|sample| {
        let name = sample[0].as_str().expect("a name").to_owned();
        (name, sample[1].clone(), sample[2].as_f64().expect("a value"))
    })
}

/// The value of a family's one unlabelled sample called `name`.
fn value(families: &serde_json::Map<String, Value>, family: &str, name: &str) -> f64 {
    let family = families.get(family).unwrap_or_else(|| panic!("no family {family}"));
    samples(family).find(|(n, _, _)| n == name).map(|(_, _, v)| v).unwrap_or_else(|| panic!("no {name}"))
}

/// Long-polls `queue` until a message from `sender` arrives.
fn wait_for_message_from(api: &Api, who: &Creds, queue: &Value, sender: &str) {
    let queue_id = queue["queue_id"].as_str().expect("queue_id");
    let mut last = queue["last_event_id"].as_i64().expect("last_event_id");
    loop {
        let last_text = last.to_string();
        let got = api
            .get("/events", Some(who), &[("queue_id", queue_id), ("last_event_id", last_text.as_str())])
            .ok();
        for event in got["events"].as_array().expect("events") {
            last = last.max(event["id"].as_i64().expect("id"));
            if event["type"] == "message" && event["message"]["sender_full_name"] == sender {
                return;
            }
        }
    }
}

/// `GET /users/me` through the Python client configured by `zuliprc`.
fn python_profile(zuliprc: &Path) -> Value {
    let script =
        "import json, sys, zulip\nprint(json.dumps(zulip.Client(config_file=sys.argv[1]).get_profile()))";
    let output =
        Command::new(python::python()).args(["-c", script]).arg(zuliprc).output().expect("python runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("JSON")
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).expect("the file").permissions().mode() & 0o777
}
