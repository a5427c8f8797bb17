//! Two servers on one PostgreSQL database behind the shipped HAProxy configuration
//! (`deploy/haproxy/confab.cfg`), with unmodified clients that know only the proxy's address:
//! the Python client (`tests/python/follow_events.py`, `call_on_each_event`) and
//! zulip-terminal in tmux. Messages sent to either server reach both clients. SIGKILL of the
//! server holding their event queues loses no acknowledged message; both clients get
//! BAD_EVENT_QUEUE_ID from the other server, register again there and carry on.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use confab_server::zuliprc::Zuliprc;
use confab_tests::terminal::Tmux;
use confab_tests::{Api, Creds, TestServer, eventually, python};

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");
/// Bounds only a failing wait; passing runs go on as soon as the condition holds.
const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn two_servers_behind_the_proxy_serve_real_clients_and_survive_sigkill() {
    if confab_tests::not_on_postgres("it starts its own servers on a database of its own, in the first pass")
    {
        return;
    }
    let cluster = confab_server::scratch_postgres::shared().expect("a scratch PostgreSQL server");
    let database = cluster.new_database().expect("a new database");
    let proxy_address = format!("127.0.0.1:{}", free_port());
    let node_args = |name: &'static str| {
        ["--database", &database, "--node-id", name, "--external-host", &proxy_address].map(str::to_owned)
    };
    let a = start_node(&node_args("a"));
    let owner = a.owner();
    let b = start_node(&node_args("b"));
    let proxy = Proxy::start(&proxy_address, &a, &b);
    let api = Api::new(&proxy.url);
    let ada = api.create_user(&owner, "ada@example.com", "Ada Lovelace");
    api.subscribe(&owner, &["general"], &[owner.email.as_str(), "ada@example.com"]);
    // The many sends around the crash go where Ada reads them and the owner's zulip-terminal
    // does not, so that its screen keeps the messages it must show.
    api.subscribe(&owner, &["load"], &["ada@example.com"]);
    send(&api, &owner, "hello", "Before the clients start");

    // zulip-terminal, as the owner, through the proxy; which server holds its queue shows in
    // the servers' queue counts.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let owner_rc = write_zuliprc(dir.path(), "owner", &owner, &proxy.url);
    let before = [queue_count(&a), queue_count(&b)];
    let terminal = Tmux::start("zt-proxy", &zulip_terminal(&owner_rc, dir.path()), 180, 45);
    terminal.wait_for("Before the clients start", LIMIT).unwrap_or_else(|e| panic!("{e}"));
    let terminal_node = eventually("zulip-terminal's queue", || {
        match [queue_count(&a) > before[0], queue_count(&b) > before[1]] {
            [true, false] => Some("a"),
            [false, true] => Some("b"),
            _ => None,
        }
    });

    // The Python client, as Ada, through the proxy, on the same server as zulip-terminal (the
    // proxy takes servers in turn, so one request more moves a start that missed it there).
    let ada_rc = write_zuliprc(dir.path(), "ada", &ada, &proxy.url);
    let mut follower = (0..8)
        .map(|_| {
            let follower = Follower::start(&ada_rc);
            api.get("/server_settings", None, &[]).ok();
            follower
        })
        .find(|follower| node_of(&follower.first_queue) == terminal_node)
        .expect("a Python client's queue on zulip-terminal's server");

    // A message sent to either server reaches both clients.
    for (server, name) in [(&a, "a"), (&b, "b")] {
        let content = format!("Sent to server {name}");
        let id = send(&direct(server, &proxy_address), &owner, "hello", &content);
        follower.wait_for_message(id);
        terminal.wait_for(&content, LIMIT).unwrap_or_else(|e| panic!("{e}"));
    }

    // Sends keep arriving at the doomed server while it is killed.
    let (mut doomed, survivor) = if terminal_node == "a" { (a, b) } else { (b, a) };
    let survivor_node = if terminal_node == "a" { "b" } else { "a" };
    let doomed_url = doomed.base_url.clone();
    let survivor_queues = queue_count(&survivor);
    let sent = AtomicUsize::new(0);
    let acknowledged = std::thread::scope(|scope| {
        let sender = scope.spawn(|| sends_until_refused(&doomed_url, &proxy_address, &owner, &sent));
        eventually("sends acknowledged", || (sent.load(Ordering::SeqCst) >= 20).then_some(()));
        doomed.kill();
        sender.join().expect("the sender")
    });
    assert!(acknowledged.len() >= 20);

    // Both clients meet BAD_EVENT_QUEUE_ID on the survivor and register there again.
    let again = follower.wait_for_registration();
    assert_eq!(node_of(&again), survivor_node, "registered again on the other server");
    // A client registering again misses what was sent before (Zulip's clients accept that),
    // so the next message waits for zulip-terminal's new queue too.
    eventually("zulip-terminal's queue on the survivor", || {
        (queue_count(&survivor) >= survivor_queues + 2).then_some(())
    });
    let after = send(&api, &owner, "hello", "After the crash");
    follower.wait_for_message(after);
    terminal.wait_for("After the crash", LIMIT).unwrap_or_else(|e| {
        panic!("{e}\nzulip-terminal's errors:\n{}", errors_of_zulip_terminal(dir.path()))
    });

    // Every acknowledged message is in the history the survivor reads.
    let kept = history_ids(&direct(&survivor, &proxy_address), &ada);
    let lost: Vec<_> = acknowledged.iter().filter(|id| !kept.contains(id)).collect();
    assert!(lost.is_empty(), "acknowledged before the SIGKILL but lost: {lost:?}");
    drop(proxy);
}

/// A server on the shared database, with its own data directory.
fn start_node(args: &[String; 6]) -> TestServer {
    TestServer::start_with(BINARY, &args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// A client of one server, past the proxy, naming the organization's host as the proxy does.
fn direct(server: &TestServer, host: &str) -> Api {
    Api::new(&server.base_url).with_host(host)
}

/// The server a queue id names: what precedes its first dot.
fn node_of(queue_id: &str) -> &str {
    queue_id.split('.').next().unwrap_or_default()
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

/// Sends one message to #general; its id.
fn send(api: &Api, who: &Creds, topic: &str, content: &str) -> u64 {
    let params = [("type", "stream"), ("to", "general"), ("topic", topic), ("content", content)];
    api.post("/messages", Some(who), &params).ok()["id"].as_u64().expect("a message id")
}

/// Sends to #load > crash to the server at `base_url` (for organization `host`) until it stops answering,
/// counting in `sent`; the ids it acknowledged. A send cut off by the crash is not one.
fn sends_until_refused(base_url: &str, host: &str, who: &Creds, sent: &AtomicUsize) -> Vec<u64> {
    let http = reqwest::blocking::Client::new();
    let url = format!("{base_url}/api/v1/messages");
    let mut acknowledged = Vec::new();
    loop {
        let content = format!("load {}", acknowledged.len());
        let params = [("type", "stream"), ("to", "load"), ("topic", "crash"), ("content", content.as_str())];
        let request = http.post(&url).header("Host", host).basic_auth(&who.email, Some(&who.api_key));
        let reply = request.form(&params).send();
        let id =
            reply.ok().filter(|r| r.status().is_success()).and_then(|r| r.json::<serde_json::Value>().ok());
        match id.and_then(|body| body["id"].as_u64()) {
            Some(id) => acknowledged.push(id),
            None => return acknowledged,
        }
        sent.fetch_add(1, Ordering::SeqCst);
    }
}

/// The ids of #load, as the server reads them.
fn history_ids(api: &Api, who: &Creds) -> Vec<u64> {
    let params = [
        ("anchor", "newest"),
        ("num_before", "5000"),
        ("num_after", "0"),
        ("narrow", r#"[["channel", "load"]]"#),
    ];
    let body = api.get("/messages", Some(who), &params).ok();
    body["messages"].as_array().expect("messages").iter().map(|m| m["id"].as_u64().expect("an id")).collect()
}

/// The event queues a server holds, from its `/metrics`.
fn queue_count(server: &TestServer) -> u64 {
    let text = reqwest::blocking::get(format!("{}/metrics", server.base_url))
        .and_then(|r| r.text())
        .expect("the server's metrics");
    text.lines()
        .find_map(|line| line.strip_prefix("confab_event_queues "))
        .and_then(|n| n.trim().parse().ok())
        .expect("confab_event_queues in the metrics")
}

fn write_zuliprc(dir: &Path, name: &str, who: &Creds, site: &str) -> PathBuf {
    let path = dir.join(format!("{name}.zuliprc"));
    let rc = Zuliprc { email: who.email.clone(), key: who.api_key.clone(), site: site.to_owned() };
    rc.write(&path).expect("a zuliprc");
    path
}

/// zulip-terminal's command line, in `dir`, where it writes its log of tracebacks; its threads'
/// tracebacks go to a file, not over its screen.
fn zulip_terminal(zuliprc: &Path, dir: &Path) -> String {
    format!(
        "cd {} && TERM=xterm-256color {} -c {} 2>{}",
        dir.display(),
        python::command("zulip-term").display(),
        zuliprc.display(),
        dir.join("zulip-term.stderr").display()
    )
}

fn errors_of_zulip_terminal(dir: &Path) -> String {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    read("zulip-term.stderr") + &read("zulip-terminal-tracebacks.log")
}

/// HAProxy running the shipped configuration in the foreground.
struct Proxy {
    child: Child,
    url: String,
}

impl Proxy {
    fn start(address: &str, a: &TestServer, b: &TestServer) -> Proxy {
        let config = confab_tests::workspace_root().join("deploy/haproxy/confab.cfg");
        let child = Command::new(haproxy())
            .arg("-db")
            .arg("-f")
            .arg(config)
            .env("CONFAB_PROXY_BIND", address)
            .env("CONFAB_NODE_A", host_of(a))
            .env("CONFAB_NODE_B", host_of(b))
            .stdout(Stdio::null())
            .spawn()
            .expect("haproxy runs (apt-get install haproxy)");
        let proxy = Proxy { child, url: format!("http://{address}") };
        let settings = format!("{}/api/v1/server_settings", proxy.url);
        eventually("the proxy", || {
            reqwest::blocking::get(&settings).ok().filter(|r| r.status().is_success()).map(|_| ())
        });
        proxy
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `haproxy` on the PATH, or where Debian installs it (`/usr/sbin`, outside a user's PATH).
fn haproxy() -> PathBuf {
    let debian = PathBuf::from("/usr/sbin/haproxy");
    if debian.exists() { debian } else { PathBuf::from("haproxy") }
}

fn host_of(server: &TestServer) -> String {
    server.base_url.trim_start_matches("http://").to_owned()
}

/// The Python client following Ada's message events: what it prints, line by line.
struct Follower {
    child: Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
    first_queue: String,
}

impl Follower {
    fn start(zuliprc: &Path) -> Follower {
        let script = confab_tests::workspace_root().join("tests/python/follow_events.py");
        let mut child = Command::new(python::python())
            .arg(script)
            .arg(zuliprc)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python runs");
        let stdout = child.stdout.take().expect("its output");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                eprintln!("follow_events.py: {line}");
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut follower = Follower { child, lines, seen: Vec::new(), first_queue: String::new() };
        follower.first_queue = follower.wait_for_registration();
        follower
    }

    /// The next queue the client registers.
    fn wait_for_registration(&mut self) -> String {
        let line = self.next_line_where(|line| line.starts_with("registered "));
        line.trim_start_matches("registered ").to_owned()
    }

    fn wait_for_message(&mut self, id: u64) {
        let prefix = format!("message {id} ");
        if !self.seen.iter().any(|line| line.starts_with(&prefix)) {
            self.next_line_where(|line| line.starts_with(&prefix));
        }
    }

    /// Reads lines until one satisfies `wanted`; every line is kept in `seen`.
    fn next_line_where(&mut self, wanted: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + LIMIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|e| panic!("the Python client: {e}"));
            self.seen.push(line.clone());
            if wanted(&line) {
                return line;
            }
        }
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
