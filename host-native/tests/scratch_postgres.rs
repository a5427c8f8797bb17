//! The throwaway PostgreSQL server of the PostgreSQL backend's tests: it starts, hands out
//! separate databases that `psql` and the `postgres` crate reach through their connection
//! strings, and goes away with the process that started it, even one that is killed. Fails,
//! rather than skips, where PostgreSQL is missing: scripts/test installs it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use confab_server::scratch_postgres::{self, ScratchCluster};

/// Set in the child processes of `the_cluster_goes_with_its_process`: how the child ends.
const CHILD_ENDS_BY: &str = "CONFAB_SCRATCH_POSTGRES_CHILD_ENDS_BY";

fn cluster() -> &'static ScratchCluster {
    scratch_postgres::shared().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn databases_are_separate_and_reachable_through_their_connection_strings() {
    let cluster = cluster();
    let first = cluster.new_database().unwrap_or_else(|e| panic!("{e}"));
    let second = cluster.new_database().unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(first, second);

    let psql = |url: &str, sql: &str| {
        let out = Command::new("psql").args([url, "-XtAq", "-v", "ON_ERROR_STOP=1", "-c", sql]).output();
        let out = out.expect("psql runs");
        assert!(out.status.success(), "psql {url}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    assert_eq!(psql(&first, "select 1"), "1");
    psql(&first, "create table only_in_first (id int)");

    let mut client =
        postgres::Client::connect(&second, postgres::NoTls).expect("the postgres crate connects");
    let row = client
        .query_one("select current_database(), to_regclass('only_in_first') is null", &[])
        .expect("a query on the second database");
    let (name, table_absent): (String, bool) = (row.get(0), row.get(1));
    assert!(second.ends_with(&format!("dbname={name}")), "{second} is {name}");
    assert!(table_absent, "the first database's table shows in the second");
    assert_eq!(psql(&first, "select count(*) from only_in_first"), "0");
}

#[test]
fn the_cluster_goes_with_its_process() {
    // `exit`: as `cargo test` ends, with statics never dropped; `kill`: SIGKILL, nothing runs.
    for ends_by in ["exit", "kill"] {
        let mut child = Command::new(std::env::current_exe().expect("the test binary's path"))
            .args(["--exact", "child_starts_the_shared_cluster", "--ignored", "--nocapture"])
            .env(CHILD_ENDS_BY, ends_by)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the test binary starts again");
        let mut stdout = BufReader::new(child.stdout.take().expect("the child's stdout")).lines();
        let socket_dir = stdout
            .by_ref()
            .map_while(Result::ok)
            .find_map(|line| line.strip_prefix("socket_dir=").map(PathBuf::from))
            .expect("the child prints its cluster's socket directory");
        // The socket's lock file starts with the postmaster's pid, as postmaster.pid does.
        let lock = std::fs::read_to_string(socket_dir.join(".s.PGSQL.5432.lock")).expect("the socket's lock");
        let pid: u32 = lock.lines().next().and_then(|pid| pid.parse().ok()).expect("a pid in the lock");
        assert!(alive(pid), "the child's postmaster {pid} runs");

        if ends_by == "kill" {
            child.kill().expect("killing the child");
        }
        let status = child.wait().expect("the child ends");
        assert!(ends_by == "kill" || status.success(), "the child failed: {status}");
        let deadline = Instant::now() + Duration::from_secs(10);
        while alive(pid) || socket_dir.exists() {
            assert!(
                Instant::now() < deadline,
                "after {ends_by}, postmaster {pid} or {socket_dir:?} is still there"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Runs only as the child process of `the_cluster_goes_with_its_process`.
#[test]
#[ignore = "a child process of the_cluster_goes_with_its_process"]
fn child_starts_the_shared_cluster() {
    let Ok(ends_by) = std::env::var(CHILD_ENDS_BY) else { return };
    println!("socket_dir={}", cluster().socket_dir().display());
    std::io::stdout().flush().expect("flushing stdout");
    if ends_by == "exit" {
        std::process::exit(0);
    }
    std::thread::sleep(Duration::from_secs(60));
}

/// Whether the process exists and isn't a zombie (a container's pid 1 may never reap it).
fn alive(pid: u32) -> bool {
    let stat = std::fs::read_to_string(Path::new("/proc").join(pid.to_string()).join("stat"));
    stat.is_ok_and(|stat| stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z')))
}
