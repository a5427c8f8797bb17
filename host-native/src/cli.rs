//! The `confab` command line.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use confab_core::api::users::{NewUser, new_user_changes};
use confab_core::model::{BotType, Role};
use confab_core::store::Store as _;
use confab_core::{ApiError, Outcome};

use crate::secrets;
use crate::server::{Config, Server, shutdown_signal};
use crate::store::{OpenError, Store};
use crate::writer::run_now;

#[derive(Parser, Debug)]
#[command(name = "confab", version, about = "A team chat server that speaks the Zulip API")]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
    },
    /// Create a user in the root organization and print its API key. The server must not be
    /// running on the same data directory (create users through the API then).
    CreateUser {
        #[arg(long)]
        data_dir: PathBuf,
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
}

pub fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve { data_dir, bind, owner_email, header_timeout_secs } => serve(Config {
            data_dir,
            bind,
            owner_email,
            header_timeout: std::time::Duration::from_secs(header_timeout_secs),
        }),
        Command::CreateUser { data_dir, email, full_name, password, role, bot } => {
            create_user(&data_dir, email, full_name, password, &role, bot)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("confab: {message}");
            ExitCode::FAILURE
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
    runtime.block_on(async {
        let server = Server::bind(&config).await.map_err(|e| e.to_string())?;
        if let Some(owner) = &server.new_owner {
            println!("Created the organization. Its owner (shown only this once):");
            println!("  email:    {}", owner.email);
            println!("  password: {}", owner.password);
            println!("  API key:  {}", owner.api_key);
            println!("Wrote {}", config.data_dir.join("zuliprc").display());
        }
        println!("Confab is listening on http://{}", server.local_addr);
        server.run(shutdown_signal()).await;
        Ok(())
    })
}

fn create_user(
    data_dir: &Path,
    email: String,
    full_name: String,
    password: Option<String>,
    role: &str,
    bot: bool,
) -> Result<(), String> {
    let role = Role::from_name(role)
        .ok_or_else(|| format!("unknown role '{role}' (owner, admin, moderator, member, guest)"))?;
    let store = Store::open(data_dir).map_err(|e| match e {
        OpenError::InUse => format!(
            "a Confab server is running on {dir}, and only one process may open its database.\n\
             Either stop the server and run this again, or create the user through the API as an \
             administrator:\n  curl -u ADMIN_EMAIL:ADMIN_API_KEY -d email={email} -d full_name='{full_name}' \
             -d password=PASSWORD http://HOST:PORT/api/v1/users\n(the owner's credentials are in {dir}/zuliprc)",
            dir = data_dir.display()
        ),
        other => format!("cannot open {}: {other}", data_dir.display()),
    })?;
    let api_key = secrets::new_api_key().map_err(|e| e.to_string())?;
    let password_hash = match &password {
        Some(p) if !bot => Some(secrets::hash_password(p)?),
        _ => None,
    };
    let key = api_key.clone();
    let now = crate::http::now();
    let result = run_now(
        &store,
        Box::new(move |tables| {
            let realm_id = tables.realm_by_subdomain("")?.ok_or_else(|| {
                ApiError::bad_request("no organization yet: run `confab serve` once on this data directory")
            })?;
            let realm = tables.realm(realm_id)?.ok_or_else(|| ApiError::internal("organization missing"))?;
            let owner = if bot {
                tables.realm_users(realm_id)?.into_iter().find(|u| u.role == Role::Owner).map(|u| u.id)
            } else {
                None
            };
            let new = NewUser {
                email,
                full_name,
                role,
                bot_type: bot.then_some(BotType::Generic),
                bot_owner_id: owner,
                api_key: key,
                password_hash,
            };
            let (id, changes) = new_user_changes(tables, &realm, new, now)?;
            Ok(Outcome { changes, ..Outcome::default() }.reply("user_id", id.0))
        }),
    )
    .map_err(|e| e.msg)?;
    println!("Created user {}.", result.reply.get("user_id").map(ToString::to_string).unwrap_or_default());
    println!("API key: {api_key}");
    Ok(())
}
