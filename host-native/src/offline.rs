//! Commands on a stopped server's data directory: `confab create-user`,
//! `confab grant-permission`, `confab create-realm` and `confab zuliprc`. The database admits one process at a time, so these refuse to run
//! beside a server and say what to do instead.

use std::path::Path;

use confab_core::api::realm::{NewRealm, create_realm as create_realm_in};
use confab_core::api::special_permissions::change_special_permission;
use confab_core::api::users::{NewUser, new_user_changes};
use confab_core::model::{BotType, Role};
use confab_core::store::Store as _;
use confab_core::{ApiError, Outcome};

use crate::secrets;
use crate::store::{OpenError, Store};
use crate::writer::run_now;

/// What `confab create-user` asks for.
#[derive(Debug)]
pub struct UserRequest {
    /// The organization's subdomain; empty for the root.
    pub subdomain: String,
    pub email: String,
    pub full_name: String,
    /// Without one, the user can log in only with the printed API key.
    pub password: Option<String>,
    pub role: String,
    /// A generic bot owned by the organization's first owner.
    pub bot: bool,
}

/// What `confab create-realm` asks for.
#[derive(Debug)]
pub struct RealmRequest {
    /// Empty for the root (free only while no organization lives there).
    pub subdomain: String,
    pub name: String,
    pub owner_email: String,
    pub owner_password: String,
    pub owner_name: String,
}

/// Creates a user and prints its id and API key.
pub fn create_user(location: &Location<'_>, request: UserRequest) -> Result<(), String> {
    let data_dir = location.data_dir;
    let UserRequest { subdomain, email, full_name, password, role, bot } = request;
    let role = Role::from_name(&role)
        .ok_or_else(|| format!("unknown role '{role}' (owner, admin, moderator, member, guest)"))?;
    let store = open(location, || {
        format!(
            "Either stop the server and run this again, or create the user through the API as an \
             administrator:\n  curl -u ADMIN_EMAIL:ADMIN_API_KEY -d email={email} -d full_name='{full_name}' \
             -d password=PASSWORD http://HOST:PORT/api/v1/users\n(the owner's credentials are in {}/zuliprc)",
            data_dir.display()
        )
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
            let realm_id =
                tables.realm_by_subdomain(&subdomain)?.ok_or_else(|| no_organization(&subdomain))?;
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
    println!("Created user {}.", reply_id(&result, "user_id"));
    println!("API key: {api_key}");
    Ok(())
}

/// Grants (or revokes) a user's special permission (`api::special_permissions`).
pub fn grant_permission(
    location: &Location<'_>,
    subdomain: &str,
    email: &str,
    permission: &str,
    grant: bool,
) -> Result<(), String> {
    let store = open(location, || {
        "Stop the server and run this again; special permissions are granted offline.".to_owned()
    })?;
    let (subdomain, email, permission) = (subdomain.to_owned(), email.to_owned(), permission.to_owned());
    let shown = (email.clone(), permission.clone());
    run_now(
        &store,
        Box::new(move |tables| {
            let realm_id =
                tables.realm_by_subdomain(&subdomain)?.ok_or_else(|| no_organization(&subdomain))?;
            let user = tables
                .user_by_delivery_email(realm_id, &email)?
                .and_then(|id| tables.user(id).transpose())
                .transpose()?
                .ok_or_else(|| ApiError::bad_request(format!("no user with email '{email}'")))?;
            change_special_permission(tables, &user, &permission, grant)
        }),
    )
    .map_err(|e| e.msg)?;
    let verb = if grant { "have" } else { "not have" };
    println!("{} changed to {verb} {} permission.", shown.0, shown.1);
    Ok(())
}

/// Creates an organization with its owner and prints the owner's API key.
pub fn create_realm(location: &Location<'_>, request: RealmRequest) -> Result<(), String> {
    let RealmRequest { subdomain, name, owner_email, owner_password, owner_name } = request;
    if owner_password.is_empty() {
        return Err("the owner's password must not be empty".to_owned());
    }
    let store = open(location, || {
        "Stop the server and run this again; organizations are created offline.".to_owned()
    })?;
    let api_key = secrets::new_api_key().map_err(|e| e.to_string())?;
    let password_hash = secrets::hash_password(&owner_password)?;
    let new = NewRealm {
        subdomain: subdomain.clone(),
        name: name.clone(),
        owner: NewUser {
            email: owner_email.trim().to_owned(),
            full_name: owner_name,
            role: Role::Owner,
            bot_type: None,
            bot_owner_id: None,
            api_key: api_key.clone(),
            password_hash: Some(password_hash),
        },
    };
    let now = crate::http::now();
    let result =
        run_now(&store, Box::new(move |tables| create_realm_in(tables, new, now))).map_err(|e| e.msg)?;
    let url = if subdomain.is_empty() { "HOST".to_owned() } else { format!("{subdomain}.HOST") };
    println!(
        "Created organization '{}' (id {}) at http(s)://{url}, where HOST is the server's --external-host.",
        name.trim(),
        reply_id(&result, "realm_id")
    );
    println!("Owner: {owner_email} (user {})", reply_id(&result, "user_id"));
    println!("API key: {api_key}");
    Ok(())
}

/// Writes a zuliprc for the user with `email` in the organization at `subdomain`, whose URL
/// `site` gives, to `output` (mode 600) or standard output.
pub fn zuliprc(
    location: &Location<'_>,
    subdomain: &str,
    email: &str,
    site: &confab_core::subdomains::Site,
    output: Option<&Path>,
) -> Result<(), String> {
    let store = open(location, || {
        "Stop the server and run this again, or exchange the user's password for an API key \
         (POST /api/v1/fetch_api_key) and write the zuliprc by hand."
            .to_owned()
    })?;
    let key = store
        .read(|tables| {
            let realm = tables.realm_by_subdomain(subdomain)?.ok_or_else(|| no_organization(subdomain))?;
            let user = tables
                .user_by_delivery_email(realm, email)?
                .ok_or_else(|| ApiError::bad_request(format!("no user with email '{email}'")))?;
            let credentials = tables
                .credentials(user)?
                .ok_or_else(|| ApiError::bad_request(format!("'{email}' has no API key")))?;
            Ok(credentials.api_key)
        })
        .map_err(|e| e.msg)?;
    let rc = crate::zuliprc::Zuliprc { email: email.to_owned(), key, site: site.realm_url(subdomain) };
    match output {
        Some(path) => {
            rc.write(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!("Wrote {} for {email} at {}", path.display(), rc.site);
        }
        None => print!("{}", rc.text()),
    }
    Ok(())
}

/// Where a command finds the store: the data directory's file, or a PostgreSQL database
/// (`--database`), which running servers share (so commands need not wait for them to stop).
pub struct Location<'a> {
    pub data_dir: &'a Path,
    pub database: Option<&'a str>,
}

/// Opens the store, or explains that a server holds its file (`advice`: what to do instead).
pub(crate) fn open(location: &Location<'_>, advice: impl FnOnce() -> String) -> Result<Store, String> {
    let data_dir = location.data_dir;
    if let Some(url) = location.database {
        return Store::open_postgres(url).map_err(|e| format!("cannot open the database: {e}"));
    }
    if data_dir.join(crate::store::POSTGRES_NOTE).exists() {
        return Err(format!(
            "the server of {} keeps its data in PostgreSQL: give this command its --database too",
            data_dir.display()
        ));
    }
    Store::open(data_dir).map_err(|e| match e {
        OpenError::InUse => format!(
            "a Confab server is running on {}, and only one process may open its database.\n{}",
            data_dir.display(),
            advice()
        ),
        other => format!("cannot open {}: {other}", data_dir.display()),
    })
}

fn no_organization(subdomain: &str) -> ApiError {
    if subdomain.is_empty() {
        ApiError::bad_request(
            "no organization on the root: run `confab serve` once on this data directory, or name \
             an organization with --subdomain",
        )
    } else {
        ApiError::bad_request(format!("no organization with subdomain '{subdomain}'"))
    }
}

fn reply_id(outcome: &Outcome, key: &str) -> String {
    outcome.reply.get(key).map(ToString::to_string).unwrap_or_default()
}
