//! A throwaway PostgreSQL server for tests and benchmarks, started from the machine's own
//! PostgreSQL binaries (Debian's `postgresql` package) in a temporary directory, reachable on a
//! private Unix socket only, so nothing outside the test process needs setting up or cleaning.
//!
//! Three things keep it cheap and tidy:
//! - `initdb` (about a second) runs once per machine and PostgreSQL version: its result is kept
//!   under the temporary directory as a template that each cluster copies (`cp -a`).
//! - Every cluster has its own socket directory, so all use port 5432 without clashing, with one
//!   another or with a system server (which listens on /var/run/postgresql).
//! - A watchdog shell, started alongside, stops the server and removes the directory when the
//!   test process goes, however it goes: `cargo test` exits through `process::exit`, which
//!   never drops statics such as [`shared`]'s cluster, and a killed process runs nothing.

use std::ffi::OsString;
use std::fs;
use std::io::ErrorKind;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

const NOT_INSTALLED: &str = "PostgreSQL is not installed (apt-get install postgresql)";

/// Any port works: the socket file, `.s.PGSQL.5432`, lives in the cluster's own directory.
const PORT: u16 = 5432;

/// Durability off (a test's database dies with the test), and room for connection pools.
const SERVER_SETTINGS: &str = "-c listen_addresses='' -c fsync=off -c synchronous_commit=off \
    -c full_page_writes=off -c max_connections=200 -c shared_buffers=128MB";

/// PostgreSQL's durable defaults (fsync, full page writes, synchronous commit), for benchmarks
/// that compare it with redb, which syncs every commit to the disk.
const DURABLE_SERVER_SETTINGS: &str = "-c listen_addresses='' -c max_connections=200 -c shared_buffers=128MB";

/// Waits on its standard input, whose other end only this process holds: end of file means the
/// process is gone. It then stops the server and removes the directory. Arguments: the
/// directory, then the command that runs `pg_ctl`. Hangups and Ctrl-C are ignored so that the
/// terminal's signals, which stop the tests, don't stop the cleanup.
const WATCHDOG: &str = r#"trap '' HUP INT
dir=$1; shift
read -r line
"$@" stop -D "$dir/data" -m immediate -s >/dev/null 2>&1
rm -rf "$dir""#;

/// Numbers the directories and databases of this process.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// One PostgreSQL server in a temporary directory, on a Unix socket only.
pub struct ScratchCluster {
    /// Holds `data/` (the cluster), `s/` (the socket) and `log`.
    dir: PathBuf,
    /// `dir/s`, kept short: a socket's path has room for 107 bytes.
    socket_dir: PathBuf,
    bin: PathBuf,
    /// Running as root: initdb, pg_ctl and postgres refuse root, so they run as `postgres`.
    as_postgres: bool,
    watchdog: Child,
}

impl ScratchCluster {
    /// Copies the template data directory (running `initdb` first if there is none yet) and
    /// starts a server on it; returns once it accepts connections, or an error that includes
    /// the end of the server's log.
    pub fn start() -> Result<ScratchCluster, String> {
        Self::start_with(SERVER_SETTINGS)
    }

    /// As [`ScratchCluster::start`], with fsync and full page writes on: a commit is on the disk
    /// before it is acknowledged, as redb's is.
    pub fn start_durable() -> Result<ScratchCluster, String> {
        Self::start_with(DURABLE_SERVER_SETTINGS)
    }

    fn start_with(settings: &str) -> Result<ScratchCluster, String> {
        let bin = bin_dir()?;
        let uid = effective_uid()?;
        let as_postgres = uid == 0;
        let template = template(&bin, uid)?;
        let dir = unique_dir("confab-pg")?;
        let watchdog = Command::new("sh")
            .args(["-c", WATCHDOG, "sh"])
            .arg(&dir)
            .args(server_argv(&bin, "pg_ctl", as_postgres))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group: Ctrl-C in a terminal signals the foreground group only.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("starting the watchdog shell: {e}"))?;
        // From here on, dropping `cluster` (on an error too) stops and removes everything.
        let socket_dir = dir.join("s");
        let cluster = ScratchCluster { dir, socket_dir, bin, as_postgres, watchdog };
        fs::create_dir(&cluster.socket_dir).map_err(|e| format!("creating the socket directory: {e}"))?;
        run(Command::new("cp").arg("-a").arg(template.join("data")).arg(cluster.dir.join("data")))?;
        if as_postgres {
            run(Command::new("chown").args(["-R", "postgres:"]).arg(&cluster.dir))?;
        }
        let options = format!("-k {} -p {PORT} {settings}", shell_quote(&cluster.socket_dir));
        let started = run(cluster
            .server("pg_ctl")
            .args(["start", "-w", "-t", "60", "-s", "-o", &options, "-D"])
            .arg(cluster.dir.join("data"))
            .arg("-l")
            .arg(cluster.dir.join("log")));
        started.and_then(|_| cluster.wait_until_ready()).map_err(|e| {
            format!("PostgreSQL did not start in {}: {e}\n{}", cluster.dir.display(), cluster.log_tail())
        })?;
        Ok(cluster)
    }

    /// Creates a new, empty database with a name unique to this cluster, and returns its
    /// connection string (libpq's `key=value` form, which `psql` and the `postgres` crate read).
    pub fn new_database(&self) -> Result<String, String> {
        let name = format!("confab_{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let mut createdb = Command::new(self.bin.join("createdb"));
        run(createdb
            .args(["-U", "postgres", "-p", &PORT.to_string(), "-h"])
            .arg(self.socket_dir())
            .arg(&name))?;
        Ok(format!("host={} port={PORT} user=postgres dbname={name}", conninfo_quote(&self.socket_dir)))
    }

    /// The directory of the server's socket (`host` for libpq and `psql -h`).
    pub fn socket_dir(&self) -> &Path {
        &self.socket_dir
    }

    /// The server's port (`port` for libpq, `psql -p`): always 5432, part of the socket's name.
    pub fn port(&self) -> u16 {
        PORT
    }

    /// `pg_ctl -w` already waited; `pg_isready` confirms that clients get through the socket.
    fn wait_until_ready(&self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let mut ready = Command::new(self.bin.join("pg_isready"));
            ready.args(["-q", "-U", "postgres", "-p", &PORT.to_string(), "-h"]).arg(self.socket_dir());
            match ready.status() {
                Ok(status) if status.success() => return Ok(()),
                Ok(_) if Instant::now() < deadline => thread::sleep(Duration::from_millis(50)),
                Ok(status) => return Err(format!("pg_isready still fails after 30 s ({status})")),
                Err(e) => return Err(format!("running pg_isready: {e}")),
            }
        }
    }

    fn server(&self, tool: &str) -> Command {
        server_command(&self.bin, tool, self.as_postgres)
    }

    fn log_tail(&self) -> String {
        let log = fs::read_to_string(self.dir.join("log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        format!("server log (last lines):\n{}", lines[lines.len().saturating_sub(20)..].join("\n"))
    }
}

impl Drop for ScratchCluster {
    /// Does here what the watchdog would do when the process ends, and ends the watchdog.
    fn drop(&mut self) {
        let _ = self.watchdog.kill();
        let _ = self.watchdog.wait();
        let data = self.dir.join("data");
        let _ = self.server("pg_ctl").args(["stop", "-m", "immediate", "-s", "-D"]).arg(data).output();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// One cluster shared by every test of this process, started on first use. A failed start is
/// reported to every caller.
pub fn shared() -> Result<&'static ScratchCluster, String> {
    static SHARED: OnceLock<Result<ScratchCluster, String>> = OnceLock::new();
    SHARED.get_or_init(ScratchCluster::start).as_ref().map_err(Clone::clone)
}

/// `pg_config --bindir` if it has the server's programs (libpq-dev's `pg_config` may belong to
/// a version whose server isn't installed), else the newest /usr/lib/postgresql/*/bin.
fn bin_dir() -> Result<PathBuf, String> {
    let has_server = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if out.status.success() && has_server(&dir) {
            return Ok(dir);
        }
    }
    let version = |name: &str| -> Vec<u32> { name.split('.').map_while(|part| part.parse().ok()).collect() };
    let entries = fs::read_dir("/usr/lib/postgresql").map_err(|_| NOT_INSTALLED.to_string())?;
    entries
        .filter_map(|entry| entry.ok())
        .filter(|entry| has_server(&entry.path().join("bin")))
        .max_by_key(|entry| version(&entry.file_name().to_string_lossy()))
        .map(|entry| entry.path().join("bin"))
        .ok_or_else(|| NOT_INSTALLED.to_string())
}

/// From /proc/self/status's `Uid:` line (real, effective, saved, filesystem): no libc needed.
fn effective_uid() -> Result<u32, String> {
    let status = fs::read_to_string("/proc/self/status").map_err(|e| format!("/proc/self/status: {e}"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1))
        .and_then(|id| id.parse().ok())
        .ok_or_else(|| "no effective uid in /proc/self/status".to_string())
}

/// The cached result of `initdb`, `$TMPDIR/confab-pg-template-<version>-<uid>/data`: built under
/// another name, then renamed into place, so other processes see it whole or not at all; when
/// two build it at once, the loser uses the winner's.
fn template(bin: &Path, uid: u32) -> Result<PathBuf, String> {
    let version = run(Command::new(bin.join("postgres")).arg("--version"))?;
    let version = version.split_whitespace().nth(2).unwrap_or("unknown").to_string();
    let name = format!("confab-pg-template-{version}-{uid}");
    let template = std::env::temp_dir().join(&name);
    let complete = |dir: &Path| dir.join("data/PG_VERSION").is_file();
    if complete(&template) {
        return Ok(template);
    }
    let building = unique_dir(&format!("{name}.building"))?;
    if uid == 0 {
        run(Command::new("chown").arg("postgres:").arg(&building))?;
    }
    let mut initdb = server_command(bin, "initdb", uid == 0);
    initdb.args(["-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C", "-D"]);
    let built = run(initdb.arg(building.join("data")).current_dir(&building))
        .and_then(|_| fs::rename(&building, &template).map_err(|e| format!("renaming the template: {e}")));
    if built.is_err() {
        let _ = fs::remove_dir_all(&building);
    }
    match built {
        Err(_) if complete(&template) => Ok(template),
        Err(e) => Err(format!("creating {}: {e}", template.display())),
        Ok(()) => Ok(template),
    }
}

/// `bin/tool`, through `runuser -u postgres --` when running as root.
fn server_argv(bin: &Path, tool: &str, as_postgres: bool) -> Vec<OsString> {
    let runuser = ["runuser", "-u", "postgres", "--"].map(OsString::from);
    let prefix = if as_postgres { &runuser[..] } else { &[] };
    prefix.iter().cloned().chain([bin.join(tool).into_os_string()]).collect()
}

fn server_command(bin: &Path, tool: &str, as_postgres: bool) -> Command {
    let argv = server_argv(bin, tool, as_postgres);
    let mut command = Command::new(&argv[0]);
    command.args(&argv[1..]);
    command
}

/// A new directory `<temp dir>/<prefix>-<pid>-<n>`, skipping names left by an earlier process
/// with the same pid.
fn unique_dir(prefix: &str) -> Result<PathBuf, String> {
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("{prefix}-{}-{n}", std::process::id()));
        match fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("creating {}: {e}", dir.display())),
        }
    }
}

/// Runs to completion; its standard output, or an error with its standard error.
fn run(command: &mut Command) -> Result<String, String> {
    let program = command.get_program().to_string_lossy().into_owned();
    let Output { status, stdout, stderr } =
        command.output().map_err(|e| format!("running {program}: {e}"))?;
    if !status.success() {
        let args: Vec<_> = command.get_args().map(|arg| arg.to_string_lossy()).collect();
        let stderr = String::from_utf8_lossy(&stderr);
        return Err(format!("{program} {} failed ({status}): {}", args.join(" "), stderr.trim()));
    }
    Ok(String::from_utf8_lossy(&stdout).into_owned())
}

/// A value for libpq's `key=value` strings, where `\` escapes.
fn conninfo_quote(path: &Path) -> String {
    format!("'{}'", path.to_string_lossy().replace('\\', "\\\\").replace('\'', "\\'"))
}

/// A word for pg_ctl's `-o`, which goes through `sh -c`.
fn shell_quote(path: &Path) -> String {
    format!("'{}'", path.to_string_lossy().replace('\'', "'\\''"))
}
