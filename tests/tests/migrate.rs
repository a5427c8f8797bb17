//! `confab migrate`: a whole store copied from a redb data directory into PostgreSQL and back
//! answers every API read as the original did, and a migration that cannot be made (a target
//! that is not empty, a source that is missing or holds no database) is refused with a clear
//! message, a non-zero exit and nothing written.

use std::path::Path;
use std::process::{Command, Output};
use std::time::Instant;

use confab_server::scratch_postgres;
use confab_tests::seed::{self, Shape};
use confab_tests::{Api, Creds, TestServer};
use serde_json::Value;

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");

/// The host every server of the round trip is reached at, so that URLs in answers agree.
const HOST: &str = "chat.example.com";

/// 100,000 messages in a small organization: receivers per message stay few, so seeding and
/// copying take seconds rather than minutes in a debug build.
const ROUND_TRIP: Shape = Shape {
    channels: 40,
    users: 200,
    messages: 100_000,
    bench_channels: 10,
    channels_per_user: (2, 4),
    general_share: 0.001,
};

fn new_database() -> String {
    let cluster = scratch_postgres::shared().expect("a scratch PostgreSQL server");
    cluster.new_database().expect("a new database")
}

fn migrate(from: &str, to: &str) -> Output {
    Command::new(BINARY).args(["migrate", "--from", from, "--to", to]).output().expect("confab runs")
}

/// Migrates, asserting success; returns how long it took.
fn migrate_ok(from: &str, to: &str) -> f64 {
    let started = Instant::now();
    let output = migrate(from, to);
    let seconds = started.elapsed().as_secs_f64();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "migrate {from} -> {to} failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("uploaded files are not in the database"), "{stdout}");
    // The stages with their times; the tables' counts as the command printed them.
    println!(
        "{}",
        stderr.lines().filter(|line| !line.ends_with("rows so far")).collect::<Vec<_>>().join("\n")
    );
    println!("{stdout}");
    seconds
}

fn refused(output: &Output) -> String {
    assert!(!output.status.success(), "refused: {}", String::from_utf8_lossy(&output.stdout));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn serve(data_dir: &Path, extra: &[&str]) -> TestServer {
    TestServer::spawn(
        Path::new(BINARY),
        data_dir,
        "127.0.0.1:0",
        &[&["--external-host", HOST], extra].concat(),
    )
}

fn api(server: &TestServer) -> Api {
    server.api().with_host(HOST)
}

/// Fields that differ between two servers (or two requests) holding the same data.
const VOLATILE: &[&str] = &["queue_id", "last_event_id", "server_timestamp", "server_generation"];

fn without_volatile(mut value: Value) -> Value {
    if let Some(object) = value.as_object_mut() {
        for field in VOLATILE {
            object.remove(*field);
        }
    }
    value
}

/// Reads that cover every kind of row: messages by several narrows and anchors (with their
/// flags and reactions), single messages, users, channels, subscriptions and the whole initial
/// state; each with its name, for the assertion's message.
fn answers(api: &Api, bench: &Creds, owner: &Creds, ids: &[u64]) -> Vec<(String, Value)> {
    let mut answers = Vec::new();
    let middle = ids[ids.len() / 2].to_string();
    let pages: [(&str, &str, &str, &str); 8] = [
        ("newest", "100", "0", "[]"),
        ("oldest", "0", "100", "[]"),
        (&middle, "20", "20", "[]"),
        ("newest", "50", "0", r#"[{"operator":"channel","operand":"general"}]"#),
        ("newest", "50", "0", r#"[{"operator":"is","operand":"dm"}]"#),
        ("oldest", "0", "50", r#"[{"operator":"is","operand":"unread"}]"#),
        ("newest", "50", "0", r#"[{"operator":"is","operand":"starred"}]"#),
        ("newest", "20", "0", r#"[{"operator":"search","operand":"the"}]"#),
    ];
    for (who, creds) in [("bench", bench), ("owner", owner)] {
        for (anchor, before, after, narrow) in pages {
            let params =
                [("anchor", anchor), ("num_before", before), ("num_after", after), ("narrow", narrow)];
            let page = api.get("/messages", Some(creds), &params).ok();
            answers.push((format!("{who}: /messages {params:?}"), without_volatile(page)));
        }
        for path in ["/users", "/streams", "/users/me/subscriptions"] {
            answers.push((format!("{who}: {path}"), without_volatile(api.get(path, Some(creds), &[]).ok())));
        }
        let state = api.post("/register", Some(creds), &[("apply_markdown", "true")]).ok();
        answers.push((format!("{who}: /register"), without_volatile(state)));
    }
    for id in ids.iter().step_by(ids.len() / 5) {
        let path = format!("/messages/{id}");
        answers.push((format!("bench: {path}"), without_volatile(api.get(&path, Some(bench), &[]).ok())));
    }
    answers
}

fn assert_same_answers(engine: &str, expected: &[(String, Value)], got: &[(String, Value)]) {
    assert_eq!(expected.len(), got.len());
    for ((what, before), (_, after)) in expected.iter().zip(got) {
        assert!(
            before == after,
            "{engine} answers {what} differently:\nbefore: {before:.2000}\nafter: {after:.2000}"
        );
    }
}

#[test]
fn a_store_migrated_to_postgresql_and_back_answers_every_read_as_before() {
    if confab_tests::not_on_postgres("the test chooses its own engines, and ran in the redb pass") {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let seeded = seed::cached(ROUND_TRIP);
    let source = dir.path().join("source");
    seed::copy_data_dir(&seeded.data_dir, &source);
    let bench = Creds { email: seeded.email.clone(), api_key: seeded.api_key.clone() };
    let owner = Creds { email: seeded.owner_email.clone(), api_key: seeded.owner_api_key.clone() };

    // Reactions and stars (the seed makes none), then every answer, from the original.
    let mut original = serve(&source, &[]);
    let page = api(&original)
        .get("/messages", Some(&bench), &[("anchor", "newest"), ("num_before", "200"), ("num_after", "0")])
        .ok();
    let ids: Vec<u64> =
        page["messages"].as_array().expect("messages").iter().filter_map(|m| m["id"].as_u64()).collect();
    assert!(ids.len() >= 100, "{} messages", ids.len());
    for id in ids.iter().step_by(10) {
        let path = format!("/messages/{id}/reactions");
        api(&original).post(&path, Some(&bench), &[("emoji_name", "octopus")]).ok();
    }
    let starred = serde_json::json!(ids.iter().step_by(7).collect::<Vec<_>>()).to_string();
    let star = [("messages", starred.as_str()), ("op", "add"), ("flag", "starred")];
    api(&original).post("/messages/flags", Some(&bench), &star).ok();
    let expected = answers(&api(&original), &bench, &owner, &ids);
    original.terminate();

    let database = new_database();
    let to_postgres = migrate_ok(&source.display().to_string(), &database);
    let back = dir.path().join("back");
    let to_redb = migrate_ok(&database, &back.display().to_string());
    println!(
        "migrated {} messages: redb -> PostgreSQL {to_postgres:.1} s, PostgreSQL -> redb {to_redb:.1} s",
        ROUND_TRIP.messages
    );

    let on_postgres = serve(&dir.path().join("pg-server"), &["--database", &database]);
    assert!(on_postgres.owner.is_none(), "the migrated organization is found; no new one is made");
    assert_same_answers("PostgreSQL", &expected, &answers(&api(&on_postgres), &bench, &owner, &ids));
    drop(on_postgres);

    let on_redb = serve(&back, &[]);
    assert!(on_redb.owner.is_none(), "the migrated organization is found; no new one is made");
    assert_same_answers("redb, back", &expected, &answers(&api(&on_redb), &bench, &owner, &ids));
}

/// A small stopped data directory with an organization in it.
fn stopped_data_dir(root: &Path) -> std::path::PathBuf {
    let data_dir = root.join("small");
    let mut server = TestServer::spawn(Path::new(BINARY), &data_dir, "127.0.0.1:0", &[]);
    server.terminate();
    data_dir
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a directory")
        .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_target_that_is_not_empty_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let source = stopped_data_dir(dir.path());
    let source = source.display().to_string();

    let occupied = dir.path().join("occupied");
    std::fs::create_dir_all(&occupied).expect("a directory");
    std::fs::write(occupied.join("notes.txt"), "mine").expect("a file");
    let said = refused(&migrate(&source, &occupied.display().to_string()));
    assert!(said.contains("is not empty"), "{said}");
    assert_eq!(entries(&occupied), ["notes.txt"], "nothing written");

    let database = new_database();
    migrate_ok(&source, &database);
    let again = refused(&migrate(&source, &database));
    assert!(again.contains("is not empty") && again.contains("userid_user"), "{again}");
    // The database still holds exactly the first copy: migrating it out checks every count.
    migrate_ok(&database, &dir.path().join("copy").display().to_string());
}

#[test]
fn a_missing_source_or_one_without_a_database_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let target = dir.path().join("target");
    let target_text = target.display().to_string();

    let missing = dir.path().join("missing").display().to_string();
    let said = refused(&migrate(&missing, &target_text));
    assert!(said.contains("does not exist"), "{said}");

    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).expect("a directory");
    let said = refused(&migrate(&empty.display().to_string(), &target_text));
    assert!(said.contains("holds no Confab database"), "{said}");
    assert_eq!(entries(&empty), Vec::<String>::new(), "the source is left empty");

    let said = refused(&migrate(&new_database(), &target_text));
    assert!(said.contains("holds no Confab tables"), "{said}");
    assert!(!target.exists(), "no target was made");
}

#[test]
fn a_data_directory_a_server_has_open_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let server = TestServer::spawn(Path::new(BINARY), &dir.path().join("live"), "127.0.0.1:0", &[]);
    let target = dir.path().join("target");
    let said = refused(&migrate(&server.data_dir.display().to_string(), &target.display().to_string()));
    assert!(said.contains("a Confab server is running"), "{said}");
    assert!(!target.exists(), "no target was made");
}
