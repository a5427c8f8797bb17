//! The `confab` command line.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use confab_core::outgoing_policy::OutgoingPolicy;
use confab_core::rate_limit::Rules;

use crate::config;
use crate::offline::{self, Location, RealmRequest, UserRequest};
use crate::server::{Config, Server, shutdown_signal};

#[derive(Parser, Debug)]
#[command(name = "confab", version, about = "A team chat server that speaks the Zulip API")]
struct Cli {
    /// How log lines are written to standard error: `text` (coloured only on a terminal) or
    /// `json` (one JSON object a line, for log collectors).
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the server.
    Serve {
        /// Where the database and files live.
        #[arg(long, default_value = "./confab-data")]
        data_dir: PathBuf,
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1:9991")]
        bind: SocketAddr,
        /// The first owner's email, used when the data directory is new.
        #[arg(long, default_value = "owner@confab.localhost")]
        owner_email: String,
        /// Seconds a client may take to send its request headers.
        #[arg(long, default_value_t = 30)]
        header_timeout_secs: u64,
        /// Seconds a client may pause in the middle of a request body (nginx's
        /// `client_body_timeout`); the request is then answered 408.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
        body_timeout_secs: u64,
        /// Commands from requests that may wait for the writer at once, one user holding at most
        /// a sixteenth; past that, requests are refused with 429 and Retry-After.
        #[arg(long, default_value_t = crate::http::DEFAULT_WRITE_QUEUE,
              value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
        write_queue: usize,
        /// Seconds an event queue may go unpolled before it is discarded (Zulip's 600).
        #[arg(long, default_value_t = confab_core::events::DEFAULT_EVENT_QUEUE_TIMEOUT_SECS as u64,
              value_parser = clap::value_parser!(u64).range(1..))]
        event_queue_timeout_secs: u64,
        /// The host clients reach the server at; SUB.HOST is the organization with subdomain
        /// SUB. Defaults to the address the server listens on.
        #[arg(long, value_name = "HOST")]
        external_host: Option<String>,
        /// The scheme of organization URLs: https when a proxy in front terminates TLS.
        #[arg(long, default_value = "http", value_parser = ["http", "https"])]
        external_scheme: String,
        /// A private address range (CIDR, or one address) that outgoing webhooks may reach;
        /// loopback and private ranges are refused otherwise. Repeatable.
        #[arg(long, value_name = "CIDR", value_parser = OutgoingPolicy::parse_range)]
        allow_outgoing_to: Vec<ipnet::IpNet>,
        /// Memory for caching the database file's pages: bytes, or a number with KiB, MiB or
        /// GiB. More keeps more of a large history in memory; the operating system's page
        /// cache serves the rest.
        #[arg(long, value_name = "SIZE", default_value_t = Size(crate::store::DEFAULT_CACHE_SIZE))]
        cache_size: Size,
        /// Keep everything in this PostgreSQL database (`postgres://USER:PASSWORD@HOST/NAME`, or
        /// `host=... dbname=...`) instead of the data directory's file. Several servers may
        /// share one database; each keeps its own data directory for its event queues.
        #[arg(long, value_name = "URL", env = "CONFAB_DATABASE", hide_env_values = true)]
        database: Option<String>,
        /// This server's name among several on one database: letters, digits, '-' or '_'. Each
        /// event queue id starts with it and a dot, so that a proxy routes a queue's polls to
        /// the server holding it (deploy/haproxy/confab.cfg).
        #[arg(long, value_name = "NAME", env = "CONFAB_NODE_ID")]
        node_id: Option<crate::node::NodeId>,
        #[command(flatten)]
        smtp: crate::mail::SmtpArgs,
        /// An address range (CIDR, or one address) whose clients may read /metrics; repeatable.
        /// Without it, loopback alone. Requests that came through a proxy never may.
        #[arg(long, value_name = "CIDR", value_parser = OutgoingPolicy::parse_range)]
        metrics_allow: Vec<ipnet::IpNet>,
        // Boxed: the limits are most of the `serve` variant's size.
        #[command(flatten)]
        rate_limits: Box<RateLimitArgs>,
    },
    /// Write a zuliprc (the Zulip clients' configuration: the user's email, API key and
    /// organization URL) for an existing user, to standard output or --output. The server must
    /// not be running on the same data directory.
    Zuliprc {
        #[arg(long, default_value = "./confab-data")]
        data_dir: PathBuf,
        /// The PostgreSQL database, as given to `confab serve`, instead of the data directory's
        /// file; it may be in use by servers.
        #[arg(long, value_name = "URL", env = "CONFAB_DATABASE", hide_env_values = true)]
        database: Option<String>,
        /// The user's email address.
        #[arg(long)]
        email: String,
        /// The organization's subdomain; the root's by default.
        #[arg(long, default_value = "")]
        subdomain: String,
        /// The host clients reach the server at, as given to `confab serve`.
        #[arg(long, value_name = "HOST")]
        external_host: Option<String>,
        /// The address the server listens on, as given to `confab serve`: the host when there is
        /// no --external-host.
        #[arg(long, default_value = "127.0.0.1:9991")]
        bind: SocketAddr,
        /// As given to `confab serve`.
        #[arg(long, default_value = "http", value_parser = ["http", "https"])]
        external_scheme: String,
        /// Where to write it (mode 600); standard output without it.
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// Create a user and print its API key. The server must not be running on the same data
    /// directory (create users through the API then).
    CreateUser {
        #[arg(long)]
        data_dir: PathBuf,
        /// The PostgreSQL database, as given to `confab serve`, instead of the data directory's
        /// file; it may be in use by servers.
        #[arg(long, value_name = "URL", env = "CONFAB_DATABASE", hide_env_values = true)]
        database: Option<String>,
        /// The organization's subdomain; the root's by default.
        #[arg(long, default_value = "")]
        subdomain: String,
        #[arg(long)]
        email: String,
        #[arg(long)]
        full_name: String,
        /// Without one, the user can log in only with the printed API key.
        #[arg(long)]
        password: Option<String>,
        /// owner, admin, moderator, member or guest.
        #[arg(long, default_value = "member")]
        role: String,
        /// Create a generic bot owned by the organization's first owner.
        #[arg(long)]
        bot: bool,
    },
    /// Grant a user (or with --revoke, take away) a special permission, which no one can
    /// grant through the API: can_change_user_emails lets an administrator change other users'
    /// email addresses. The server must not be running on the same data directory.
    GrantPermission {
        #[arg(long)]
        data_dir: PathBuf,
        /// The PostgreSQL database, as given to `confab serve`, instead of the data directory's
        /// file; it may be in use by servers.
        #[arg(long, value_name = "URL", env = "CONFAB_DATABASE", hide_env_values = true)]
        database: Option<String>,
        /// The organization's subdomain; the root's by default.
        #[arg(long, default_value = "")]
        subdomain: String,
        /// The user's real email address.
        #[arg(long)]
        email: String,
        /// The permission: can_change_user_emails.
        permission: String,
        /// Take the permission away instead.
        #[arg(long)]
        revoke: bool,
    },
    /// Create an organization with its owner and print the owner's API key. The server must not
    /// be running on the same data directory.
    CreateRealm {
        #[arg(long)]
        data_dir: PathBuf,
        /// The PostgreSQL database, as given to `confab serve`, instead of the data directory's
        /// file; it may be in use by servers.
        #[arg(long, value_name = "URL", env = "CONFAB_DATABASE", hide_env_values = true)]
        database: Option<String>,
        /// Lowercase letters, digits and hyphens, 3 to 40 characters; the empty subdomain is the
        /// root, free until an organization lives there.
        #[arg(long)]
        subdomain: String,
        /// The organization's name.
        #[arg(long)]
        name: String,
        #[arg(long)]
        owner_email: String,
        #[arg(long)]
        owner_password: String,
        #[arg(long, default_value = "Owner")]
        owner_name: String,
    },
    /// Copy the database and the uploaded files into a new directory: a consistent copy made by
    /// the running server while it serves, or of a stopped server's data directory.
    Backup(crate::backups::command::BackupArgs),
    /// Import an organization from the .tar.gz Zulip's `manage.py export` wrote into a data
    /// directory whose server is stopped: users, channels, messages with their reactions and
    /// flags, user groups, custom emoji, uploads and avatars. Refused, with nothing written,
    /// when the export is broken or from an unsupported Zulip version.
    ImportZulip(crate::import_zulip::ImportArgs),
    /// Put a backup back into a data directory whose server is stopped.
    Restore(crate::backups::command::RestoreArgs),
    /// Copy a whole store between a data directory and a PostgreSQL database, either way, into
    /// an empty target, then check the copy (row counts, records and indexes). Servers on the
    /// source must be stopped.
    Migrate(crate::migrate::MigrateArgs),
    /// Check a backup, a stopped server's data directory, or a PostgreSQL database
    /// (--database): every record, index, reference and uploaded file. Exits non-zero on any
    /// problem.
    Verify(crate::backups::command::VerifyArgs),
    /// Check the configuration (`--config FILE`, the CONFAB_* environment, the flags given here)
    /// without starting the server: every value is checked as `serve` checks it, and the
    /// settings in effect are printed with where each came from.
    CheckConfig,
}

pub fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let file = match config::config_path(&args) {
        Some(path) => match config::read_file(&path, &serve_command()) {
            Ok(file) => file,
            Err(message) => {
                eprintln!("confab: {message}");
                return ExitCode::FAILURE;
            }
        },
        None => config::FileSettings::default(),
    };
    let matches = config::with_sources(Cli::command(), &file).get_matches_from(&args);
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    init_logs(cli.log_format);
    let result = match cli.command {
        Command::Serve {
            data_dir,
            bind,
            owner_email,
            header_timeout_secs,
            body_timeout_secs,
            write_queue,
            event_queue_timeout_secs,
            external_host,
            external_scheme,
            allow_outgoing_to,
            cache_size,
            database,
            node_id,
            smtp,
            metrics_allow,
            rate_limits,
        } => serve(Config {
            rate_limits: (*rate_limits).config(),
            smtp: smtp.config(external_host.as_deref().unwrap_or("localhost")),
            data_dir,
            bind,
            owner_email,
            header_timeout: std::time::Duration::from_secs(header_timeout_secs),
            body_timeout: std::time::Duration::from_secs(body_timeout_secs),
            write_queue,
            event_queue_timeout_secs: event_queue_timeout_secs as i64,
            external_host,
            external_scheme,
            outgoing_policy: OutgoingPolicy::new(allow_outgoing_to),
            store: crate::store::Options { cache_size: cache_size.0 },
            database,
            node_id,
            metrics_access: crate::http::MetricsAccess::new(metrics_allow),
        }),
        Command::Zuliprc {
            data_dir,
            database,
            email,
            subdomain,
            external_host,
            bind,
            external_scheme,
            output,
        } => {
            let host = external_host.unwrap_or_else(|| bind.to_string());
            let location = Location { data_dir: &data_dir, database: database.as_deref() };
            confab_core::subdomains::Site::new(&external_scheme, &host)
                .map_err(|e| format!("--external-host: {e}"))
                .and_then(|site| offline::zuliprc(&location, &subdomain, &email, &site, output.as_deref()))
        }
        Command::CreateUser { data_dir, database, subdomain, email, full_name, password, role, bot } => {
            let location = Location { data_dir: &data_dir, database: database.as_deref() };
            offline::create_user(&location, UserRequest { subdomain, email, full_name, password, role, bot })
        }
        Command::GrantPermission { data_dir, database, subdomain, email, permission, revoke } => {
            let location = Location { data_dir: &data_dir, database: database.as_deref() };
            offline::grant_permission(&location, &subdomain, &email, &permission, !revoke)
        }
        Command::CreateRealm {
            data_dir,
            database,
            subdomain,
            name,
            owner_email,
            owner_password,
            owner_name,
        } => offline::create_realm(
            &Location { data_dir: &data_dir, database: database.as_deref() },
            RealmRequest { subdomain, name, owner_email, owner_password, owner_name },
        ),
        Command::Backup(args) => crate::backups::command::backup(args),
        Command::Restore(args) => crate::backups::command::restore(args),
        Command::ImportZulip(args) => crate::import_zulip::import_zulip(args),
        Command::Verify(args) => crate::backups::command::verify(args),
        Command::Migrate(args) => crate::migrate::migrate(args),
        Command::CheckConfig => check_config(&file),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("confab: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `confab serve`'s flags, against which a configuration file is read.
fn serve_command() -> clap::Command {
    Cli::command().find_subcommand("serve").cloned().unwrap_or_else(|| clap::Command::new("serve"))
}

/// Settings whose values `check-config` does not print.
const SECRET_SETTINGS: &[&str] = &["smtp_password"];

/// `confab check-config`: parses `serve` as it would start from the same file and environment,
/// checks what clap cannot (the mail sender's address), and prints the settings in effect.
fn check_config(file: &config::FileSettings) -> Result<(), String> {
    let command = config::with_sources(Cli::command(), file);
    let matches = command.try_get_matches_from(["confab", "serve"]).map_err(|e| e.to_string())?;
    let Ok(Cli { command: Command::Serve { smtp, external_host, .. }, .. }) = Cli::from_arg_matches(&matches)
    else {
        return Err("the settings do not make a `confab serve` command".into());
    };
    if let Some(smtp) = smtp.config(external_host.as_deref().unwrap_or("localhost")) {
        crate::mail::check(&smtp)?;
    }
    let Some((_, serve)) = matches.subcommand() else { return Err("no serve settings".into()) };
    match &file.path {
        Some(path) => println!("{}: ok", path.display()),
        None => println!(
            "no configuration file (--config or CONFAB_CONFIG): the flags' defaults and the environment"
        ),
    }
    for arg in serve_command().get_arguments().filter(|a| a.get_long().is_some()) {
        let id = arg.get_id().as_str();
        let source = match serve.value_source(id) {
            Some(clap::parser::ValueSource::EnvVariable) => "environment",
            Some(clap::parser::ValueSource::DefaultValue) if file.values.iter().any(|(k, _)| k == id) => {
                "file"
            }
            Some(clap::parser::ValueSource::DefaultValue) => "default",
            Some(clap::parser::ValueSource::CommandLine) => "command line",
            _ => continue,
        };
        let values: Vec<String> = serve
            .get_raw(id)
            .into_iter()
            .flatten()
            .map(|v| {
                if SECRET_SETTINGS.contains(&id) { "(set)".into() } else { v.to_string_lossy().into_owned() }
            })
            .collect();
        println!("  {id} = {} ({source})", values.join(", "));
    }
    Ok(())
}

/// Logs go to standard error, coloured only when it is a terminal: a file or a pipe gets plain
/// text (or JSON lines with `--log-format json`). `RUST_LOG` sets the level (`info` by default).
fn init_logs(format: LogFormat) {
    use std::io::IsTerminal as _;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match format {
        LogFormat::Text => logs.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => logs.json().init(),
    }
}

/// `confab serve`'s rate limits: each takes Zulip's `SECONDS:REQUESTS` pairs, comma-separated
/// (`60:200,3600:2000`), or `off`.
#[derive(clap::Args, Debug)]
struct RateLimitArgs {
    /// Requests per user (Zulip's `api_by_user`).
    #[arg(long, value_name = "RULES", default_value_t = Rules::api_by_user())]
    rate_limit_per_user: Rules,
    /// Requests without credentials per client address (Zulip's `api_by_ip`).
    #[arg(long, value_name = "RULES", default_value_t = Rules::api_by_ip())]
    rate_limit_per_ip: Rules,
    /// Password attempts per username; a successful login clears its count (Zulip's
    /// `authenticate_by_username`).
    #[arg(long, value_name = "RULES", default_value_t = Rules::authenticate_by_username())]
    rate_limit_logins_per_username: Rules,
    /// Failed authentications (wrong passwords and wrong API keys) per client address; past it,
    /// the address's credentials are refused unchecked.
    #[arg(long, value_name = "RULES", default_value_t = Rules::failed_authentications_by_ip())]
    rate_limit_failed_auth_per_ip: Rules,
    /// Emails asked for without credentials (password resets) per client address (Zulip's
    /// `sends_email_by_ip`).
    #[arg(long, value_name = "RULES", default_value_t = Rules::sends_email_by_ip())]
    rate_limit_emails_per_ip: Rules,
    /// Password-reset emails per email address; past it, resets are not mailed, silently
    /// (Zulip's `password_reset_form_by_email`).
    #[arg(long, value_name = "RULES", default_value_t = Rules::password_reset_form_by_email())]
    rate_limit_password_resets_per_email: Rules,
    /// A client address range (CIDR, or one address) no rate limit applies to. Repeatable.
    #[arg(long, value_name = "CIDR", value_parser = OutgoingPolicy::parse_range)]
    rate_limit_exempt: Vec<ipnet::IpNet>,
    /// A reverse proxy (CIDR, or one address) whose `X-Real-IP` header names the client, for
    /// the limits per address. Repeatable.
    #[arg(long, value_name = "CIDR", value_parser = OutgoingPolicy::parse_range)]
    trusted_proxy: Vec<ipnet::IpNet>,
}

impl RateLimitArgs {
    fn config(self) -> crate::http::RateLimitConfig {
        crate::http::RateLimitConfig {
            per_user: self.rate_limit_per_user,
            per_ip: self.rate_limit_per_ip,
            logins_per_username: self.rate_limit_logins_per_username,
            failed_auth_per_ip: self.rate_limit_failed_auth_per_ip,
            emails_per_ip: self.rate_limit_emails_per_ip,
            password_resets_per_email: self.rate_limit_password_resets_per_email,
            exempt: self.rate_limit_exempt,
            trusted_proxies: self.trusted_proxy,
        }
    }
}

/// The blocking pool's size: reads and authentication run there.
const BLOCKING_THREADS: usize = 16;

fn serve(config: Config) -> Result<(), String> {
    // Reads run on the blocking pool; they are short (a snapshot, a few lookups), so a small
    // pool serves bursts without a thread per waiting request (each thread costs memory).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(BLOCKING_THREADS)
        .build()
        .map_err(|e| e.to_string())?;
    let stopped = runtime.block_on(async {
        let shutdown = shutdown_signal();
        let server = Server::bind(&config).await.map_err(|e| e.to_string())?;
        if let Some(owner) = &server.new_owner {
            say("Created the organization. Its owner (shown only this once):");
            say(&format!("  email:    {}", owner.email));
            say(&format!("  password: {}", owner.password));
            say(&format!("  API key:  {}", owner.api_key));
            say(&format!("Wrote {}", config.data_dir.join("zuliprc").display()));
        }
        say(&format!("Confab is listening on http://{}", server.local_addr));
        for organization in server.organizations.iter().take(BANNER_ORGANIZATIONS) {
            say(&format!("  {}: {}/", organization.name, organization.url));
        }
        if let Some(more) = server.organizations.len().checked_sub(BANNER_ORGANIZATIONS).filter(|&n| n > 0) {
            say(&format!("  and {more} more"));
        }
        let root = server.site.root_url();
        if is_address(server.site.host()) && server.organizations.iter().any(|o| o.url != root) {
            // No name resolves under an IP address, so SUB.ADDRESS reaches nothing.
            say("  (organizations on subdomains need a host name: set --external-host)");
        }
        Ok::<_, String>(server.run(shutdown).await)
    })?;
    // Ends what the drain gave up on, so that nothing holds the store any more.
    runtime.shutdown_timeout(RUNTIME_STOP_TIMEOUT);
    match stopped.close() {
        Ok(()) => tracing::info!("the database is closed"),
        Err(e) => tracing::warn!("the database was not closed cleanly, so the next start repairs it: {e}"),
    }
    Ok(())
}

/// How many organizations the start-up banner lists.
const BANNER_ORGANIZATIONS: usize = 10;

/// Whether a host is an IP address (with its port), under which no subdomain resolves.
fn is_address(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    host.parse::<SocketAddr>().is_ok() || bare.parse::<std::net::IpAddr>().is_ok()
}

/// How long a stop waits for reads still running on the blocking pool.
const RUNTIME_STOP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// An amount of memory: bytes, or a whole number of KiB, MiB or GiB (`64MiB`, `1GiB`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Size(usize);

const UNITS: [(&str, usize); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];

impl std::str::FromStr for Size {
    type Err = String;

    fn from_str(text: &str) -> Result<Size, String> {
        let text = text.trim();
        let (digits, unit) = UNITS
            .iter()
            .find_map(|&(name, bytes)| text.strip_suffix(name).map(|digits| (digits, bytes)))
            .unwrap_or((text, 1));
        let count: usize = digits
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a size such as 64MiB, 1GiB or 1048576"))?;
        count.checked_mul(unit).map(Size).ok_or_else(|| format!("{text:?} is too large"))
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match UNITS.iter().find(|&&(_, bytes)| self.0 != 0 && self.0.is_multiple_of(bytes)) {
            Some((name, bytes)) => write!(f, "{}{name}", self.0 / bytes),
            None => write!(f, "{}", self.0),
        }
    }
}

/// Prints a line for whoever started the server. A closed or full standard output (a
/// supervisor that stopped reading) must not stop a running server, so failures are ignored.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

#[cfg(test)]
mod tests {
    use super::Size;

    #[test]
    fn sizes_are_bytes_or_binary_units() {
        let parse = |text: &str| text.parse::<Size>().map(|s| s.0);
        assert_eq!(parse("1048576"), Ok(1 << 20));
        assert_eq!(parse("64MiB"), Ok(64 << 20));
        assert_eq!(parse("1GiB"), Ok(1 << 30));
        assert_eq!(parse("512KiB"), Ok(512 << 10));
        assert_eq!(parse("0"), Ok(0));
        assert!(parse("64MB").is_err(), "only binary units, named as such");
        assert!(parse("-1").is_err());
        assert!(parse("MiB").is_err());
        assert!(parse("99999999999999999999GiB").is_err());
    }

    #[test]
    fn sizes_print_in_the_largest_exact_unit() {
        assert_eq!(Size(64 << 20).to_string(), "64MiB");
        assert_eq!(Size(3 << 30).to_string(), "3GiB");
        assert_eq!(Size(1536).to_string(), "1536");
        assert_eq!(Size(0).to_string(), "0");
    }
}
