//! A large organization written straight into a data directory, for benchmarks.
//!
//! Over HTTP, 10,000 users cost 10,000 argon2 hashes (twenty minutes here) and 100,000 sends
//! about a minute of requests. This runs the same core commands the routes run
//! (`api::channels::create_channel`, `api::messages::send_message`; users as `confab
//! create-user` makes them, through `api::users::new_user_changes`) on the calling thread, a
//! thousand to a transaction (`writer::run_batch`), on a stopped server's data directory. The
//! result is an ordinary data directory that `confab serve` opens. What differs from a history
//! made by clients:
//!
//! - only the benchmark user and the owner have passwords (the others log in with their API
//!   keys, which are not kept);
//! - the commands' events are dropped as they are made (no server is running);
//! - every receiver but the benchmark user has read each message as it arrived (its row is
//!   written with `read`, as a client marking it read at once would leave it), and the
//!   benchmark user has read everything older than the newest [`UNREAD_SHARE`] of the history,
//!   so its unread messages are those of an absent month, not a year's.
//!
//! The organization is deterministic for a [`Shape`] and [`SEED_VERSION`] (its own random
//! generator, fixed seed); only timestamps follow the clock (the history ends when seeding
//! starts). [`cached`] keeps one seeded directory per shape and version under the target
//! directory.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use confab_core::api::realm::{NewRealm, create_realm};
use confab_core::api::users::{NewUser, new_user_changes};
use confab_core::api::{channels, messages, user_topics};
use confab_core::ids::UserId;
use confab_core::model::{MessageFlags, Presence, Role};
use confab_core::params::Params;
use confab_core::store::{Change, Store as _};
use confab_core::{Actor, ApiError, ApiResult, Outcome};
use confab_server::store::Store;
use confab_server::writer::{Job, run_batch};
use serde_json::{Value, json};

mod plan;
mod read_cache;
mod traffic;

pub use traffic::{SeededUser, Traffic};

use plan::{Addressed, Names, Plan, Rng};
use read_cache::{Cached, ReadCache};

/// Bumped whenever what [`seed`] writes changes, so that [`cached`] seeds again.
pub const SEED_VERSION: u32 = 3;

/// The share of the history, newest first, that the benchmark user has not read.
pub const UNREAD_SHARE: f64 = 0.08;

/// The benchmark user's password (a local benchmark's only secret).
pub const BENCH_PASSWORD: &str = "bench-password";

/// Where [`seed`] lists every user's credentials.
pub const CREDENTIALS_FILE: &str = "credentials.tsv";

/// The share of messages that are direct messages.
const DIRECT_SHARE: f64 = 0.1;

/// Commands per transaction.
const BATCH: usize = 1_000;

/// How large an organization to make.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Channels, `general` included.
    pub channels: usize,
    /// Users besides the owner and the Notification Bot, the benchmark user included.
    pub users: usize,
    /// Messages sent by users (channel creation notices come on top).
    pub messages: usize,
    /// Channels the benchmark user is subscribed to, `general` included.
    pub bench_channels: usize,
    /// How many channels besides `general` each other user joins: uniform in this range.
    pub channels_per_user: (usize, usize),
    /// `general`'s share of channel messages (everyone receives them).
    pub general_share: f64,
}

impl Shape {
    /// Issue 15's organization: 1,000 channels, 10,000 users, 100,000 messages; the benchmark
    /// user is in 100 channels.
    pub const LARGE: Shape = Shape {
        channels: 1_000,
        users: 10_000,
        messages: 100_000,
        bench_channels: 100,
        channels_per_user: (20, 50),
        general_share: 0.005,
    };

    /// Issue 16's organization: 1,000,000 messages among 10,000 users in 1,000 channels. Users
    /// join fewer channels than in [`Shape::LARGE`] (2 to 5, so most channels have tens of
    /// members and a few have hundreds) and `general` is quiet, so that a message has about
    /// 20 receivers: at `LARGE`'s density (254) the database would pass 20 GB, and at 46 (3 to
    /// 12 channels) it was 10.8 KB per message. The benchmark user is in 200 channels, so that
    /// the reader (in the same ones) has over 100,000 unread messages.
    pub const SCALE: Shape = Shape {
        channels: 1_000,
        users: 10_000,
        messages: 1_000_000,
        bench_channels: 200,
        channels_per_user: (2, 5),
        general_share: 0.0001,
    };

    /// The cache directory's name for this shape.
    fn key(self) -> String {
        let Shape {
            channels,
            users,
            messages,
            bench_channels,
            channels_per_user: (low, high),
            general_share,
        } = self;
        format!(
            "v{SEED_VERSION}-c{channels}-u{users}-m{messages}-b{bench_channels}-j{low}to{high}-g{}",
            (general_share * 1e6).round()
        )
    }
}

/// A seeded data directory and what it holds.
#[derive(Clone, Debug)]
pub struct Seeded {
    pub data_dir: PathBuf,
    /// The benchmark user: a member with the password [`BENCH_PASSWORD`].
    pub email: String,
    pub api_key: String,
    pub owner_email: String,
    pub owner_password: String,
    pub owner_api_key: String,
    /// Counts and timings, as `seeded.json` records them.
    pub summary: Value,
}

/// A seeded directory for `shape` under the target directory (`target/seeded/<version and
/// shape>`), seeded first if missing. The directory is the cache: run servers on a copy
/// ([`copy_data_dir`]) so that it stays as seeded.
pub fn cached(shape: Shape) -> Seeded {
    cached_in(&crate::target_dir().join("seeded"), shape)
}

/// Whether [`cached_in`] would find `shape` seeded under `root`.
pub fn is_cached(root: &Path, shape: Shape) -> bool {
    read_summary(&root.join(shape.key())).is_some()
}

/// As [`cached`], with the cache under `root`.
pub fn cached_in(root: &Path, shape: Shape) -> Seeded {
    let dir = root.join(shape.key());
    if let Some(seeded) = read_summary(&dir) {
        return seeded;
    }
    let partial = root.join(format!("{}.partial", shape.key()));
    let _ = std::fs::remove_dir_all(&partial);
    let seeded = seed(&partial, shape).unwrap_or_else(|e| panic!("seeding failed: {e:?}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&partial, &dir).expect("the seeded directory moves into place");
    Seeded { data_dir: dir, ..seeded }
}

/// Copies a data directory (its database file; nothing else is seeded) to `to`.
pub fn copy_data_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("the copy's directory");
    let file = confab_server::store::DB_FILE;
    std::fs::copy(from.join(file), to.join(file)).expect("the database copies");
}

fn read_summary(dir: &Path) -> Option<Seeded> {
    let text = std::fs::read_to_string(dir.join("seeded.json")).ok()?;
    let summary: Value = serde_json::from_str(&text).ok()?;
    let field = |name: &str| summary[name].as_str().map(str::to_owned);
    Some(Seeded {
        data_dir: dir.to_owned(),
        email: field("email")?,
        api_key: field("api_key")?,
        owner_email: field("owner_email")?,
        owner_password: field("owner_password")?,
        owner_api_key: field("owner_api_key")?,
        summary,
    })
}

/// Seeds a new organization on the root of an empty data directory and records it in
/// `DIR/seeded.json`. Prints each phase's time.
pub fn seed(data_dir: &Path, shape: Shape) -> ApiResult<Seeded> {
    let started = Instant::now();
    let store = Store::open(data_dir).map_err(|e| ApiError::internal(e.to_string()))?;
    let now = confab_server::http::now();
    let plan = Plan::new(shape, now);
    let cache = ReadCache::shared();
    let mut timings = serde_json::Map::new();
    let mut phase = |name: &str, since: Instant| {
        let seconds = since.elapsed().as_secs_f64();
        println!("seeding: {name} in {seconds:.1} s");
        timings.insert(name.to_owned(), json!((seconds * 10.0).round() / 10.0));
    };

    // The organization and its owner, as `confab create-realm` makes them.
    let phase_start = Instant::now();
    let owner_password = confab_server::secrets::random_alphanumeric(20).map_err(ApiError::internal)?;
    let owner_api_key = confab_server::secrets::new_api_key().map_err(ApiError::internal)?;
    let owner_email = "owner@example.com".to_owned();
    let realm = NewRealm {
        subdomain: String::new(),
        name: "Confab benchmark".to_owned(),
        owner: NewUser {
            email: owner_email.clone(),
            full_name: "Olivia Owner".to_owned(),
            role: Role::Owner,
            bot_type: None,
            bot_owner_id: None,
            api_key: owner_api_key.clone(),
            password_hash: Some(
                confab_server::secrets::hash_password(&owner_password).map_err(ApiError::internal)?,
            ),
        },
    };
    one(&store, Box::new(move |t| create_realm(t, realm, plan.start)))?;

    // Users: members without passwords, but the benchmark user.
    let bench_password_hash =
        confab_server::secrets::hash_password(BENCH_PASSWORD).map_err(ApiError::internal)?;
    let mut user_ids: Vec<UserId> = Vec::with_capacity(shape.users);
    let mut api_keys: Vec<String> = Vec::with_capacity(shape.users);
    for chunk in (0..shape.users).collect::<Vec<_>>().chunks(BATCH) {
        let mut jobs: Vec<Job> = Vec::new();
        for &i in chunk {
            let api_key = confab_server::secrets::new_api_key().map_err(ApiError::internal)?;
            let bench = i == plan.bench;
            api_keys.push(api_key.clone());
            let new = NewUser {
                email: plan.email(i),
                full_name: plan.full_name(i),
                role: if i % 500 == 1 { Role::Administrator } else { Role::Member },
                bot_type: None,
                bot_owner_id: None,
                api_key,
                password_hash: bench.then(|| bench_password_hash.clone()),
            };
            let joined = plan.joined(i);
            jobs.push(Box::new(move |t| {
                let realm = t.realm_by_subdomain("")?.ok_or_else(|| ApiError::internal("no realm"))?;
                let realm = t.realm(realm)?.ok_or_else(|| ApiError::internal("no realm"))?;
                let (id, changes) = new_user_changes(t, &realm, new, joined)?;
                Ok(Outcome { changes, ..Outcome::default() }.reply("user_id", id.0))
            }));
        }
        for outcome in batch(&store, jobs)? {
            user_ids.push(UserId(reply_u64(&outcome, "user_id")?));
        }
    }
    phase("users", phase_start);
    write_credentials(data_dir, &plan, &user_ids, &api_keys)?;

    let bench_id = user_ids[plan.bench];
    let reader_id = user_ids.get(plan::READER).copied();

    // Channels, each made by one of its members with all of them subscribed (`general`, the
    // organization's default channel, already has everyone).
    let phase_start = Instant::now();
    let mut channel_names: Vec<String> = vec!["general".to_owned()];
    for chunk in (1..shape.channels).collect::<Vec<_>>().chunks(50) {
        let mut jobs: Vec<Job> = Vec::new();
        for &c in chunk {
            let members = &plan.members[c];
            let creator = user_ids[members[c % members.len()]];
            let subscribers: Vec<u64> = members.iter().map(|&u| user_ids[u].0).collect();
            let mut pairs = vec![
                ("name", plan.channel_names[c].clone()),
                ("description", plan.channel_description(c)),
                ("subscribers", json!(subscribers).to_string()),
            ];
            if plan.private[c] {
                pairs.push(("invite_only", "true".to_owned()));
            }
            let params = params(&pairs);
            let when = plan.channel_created(c);
            jobs.push(command(&cache, creator, move |t, actor| {
                // Its creation notice is long read by everyone.
                let mut outcome = channels::create_channel(t, actor, &params, when)?;
                read_on_arrival(&mut outcome, &[]);
                Ok(outcome)
            }));
        }
        batch(&store, jobs)?;
        channel_names.extend(chunk.iter().map(|&c| plan.channel_names[c].clone()));
    }
    phase("channels", phase_start);

    // Messages, oldest first; the newest `UNREAD_SHARE` unread for the benchmark user.
    let phase_start = Instant::now();
    let raw_ids: Vec<u64> = user_ids.iter().map(|u| u.0).collect();
    let mut rng = Rng(0x5eed_0002);
    let unread_from = shape.messages - (shape.messages as f64 * UNREAD_SHARE) as usize;
    let mut receiver_rows = 0usize;
    let mut bench_unread = 0usize;
    let mut reader_unread = 0usize;
    for chunk in (0..shape.messages).collect::<Vec<_>>().chunks(BATCH) {
        let mut jobs: Vec<Job> = Vec::new();
        for &m in chunk {
            let addressed = plan.message(&mut rng, m);
            let names = Names { plan: &plan, user_ids: &raw_ids };
            let content = plan::content(&mut rng, &names, plan.audience(&addressed));
            let (sender, mut pairs) = match addressed {
                Addressed::Channel { channel, sender, topic } => (
                    sender,
                    vec![
                        ("type", "stream".to_owned()),
                        ("to", channel_names[channel].clone()),
                        ("topic", topic),
                    ],
                ),
                Addressed::Direct { people, sender } => {
                    let to: Vec<u64> = people.iter().filter(|&&u| u != sender).map(|&u| raw_ids[u]).collect();
                    (sender, vec![("type", "direct".to_owned()), ("to", json!(to).to_string())])
                }
            };
            pairs.push(("content", content));
            let params = params(&pairs);
            let when = plan.message_time(m);
            let unread = m >= unread_from;
            jobs.push(command(&cache, user_ids[sender], move |t, actor| {
                let mut outcome = messages::send_message(t, actor, &params, when)?;
                let unread_for = [unread.then_some(bench_id), reader_id];
                read_on_arrival(&mut outcome, &unread_for.into_iter().flatten().collect::<Vec<_>>());
                Ok(outcome)
            }));
        }
        for outcome in batch(&store, jobs)? {
            for change in &outcome.changes {
                if let Change::InsertMessage { receivers, .. } = change {
                    receiver_rows += receivers.len();
                    let unread = |who: UserId| {
                        receivers.iter().filter(|(u, f)| *u == who && !f.contains(MessageFlags::READ)).count()
                    };
                    bench_unread += unread(bench_id);
                    reader_unread += reader_id.map_or(0, unread);
                }
            }
        }
        if (chunk[0] / BATCH) % 10 == 9 {
            let done = chunk[chunk.len() - 1] + 1;
            println!("seeding: {done} messages in {:.0} s", phase_start.elapsed().as_secs_f64());
        }
    }
    phase("messages", phase_start);

    let phase_start = Instant::now();
    let follow = follow_topics(&store, &cache, &plan, &user_ids, shape.messages.min(FOLLOWED_TOPICS))?;
    seed_presence(&store, &user_ids, now)?;
    phase("topic preferences and presence", phase_start);
    drop(store);

    let bench_channels = plan.members.iter().filter(|m| m.contains(&plan.bench)).count();
    let subscriptions: usize = plan.members.iter().map(Vec::len).sum();
    let summary = json!({
        "version": SEED_VERSION,
        "shape": {"channels": shape.channels, "users": shape.users, "messages": shape.messages},
        "email": plan.email(plan.bench),
        "api_key": api_keys[plan.bench],
        "owner_email": owner_email,
        "owner_password": owner_password,
        "owner_api_key": owner_api_key,
        "bench_channels": bench_channels,
        "bench_unread": bench_unread,
        "reader_email": plan.email(plan::READER),
        "reader_unread": reader_unread,
        "send_cost_channel": follow.channel,
        "follower_email": plan.email(plan::FOLLOWER),
        "followed_topics": follow.topics,
        "plain_sender_email": plan.email(plan::PLAIN_SENDER),
        "subscriptions": subscriptions,
        "private_channels": plan.private.iter().filter(|p| **p).count(),
        "largest_channel": plan.members.iter().map(Vec::len).max(),
        "receiver_rows": receiver_rows,
        "seconds": timings,
        "total_seconds": (started.elapsed().as_secs_f64() * 10.0).round() / 10.0,
    });
    std::fs::write(data_dir.join("seeded.json"), format!("{summary:#}"))
        .map_err(|e| ApiError::internal(e.to_string()))?;
    println!("seeded {:?} in {:.0} s", shape, started.elapsed().as_secs_f64());
    read_summary(data_dir).ok_or_else(|| ApiError::internal("seeded.json unreadable"))
}

/// How many topics the follower follows (fewer in organizations with fewer messages).
pub const FOLLOWED_TOPICS: usize = 3_000;

struct Followed {
    channel: String,
    topics: usize,
}

/// A channel of two (the follower and a plain sender) where sending costs the same but for
/// the sender's topic preferences: the follower follows `count` of its topics, as Zulip's
/// `POST /user_topics` records them.
fn follow_topics(
    store: &Store,
    cache: &Arc<ReadCache>,
    plan: &Plan,
    user_ids: &[UserId],
    count: usize,
) -> ApiResult<Followed> {
    let name = "send cost".to_owned();
    let (Some(&follower), Some(&plain)) = (user_ids.get(plan::FOLLOWER), user_ids.get(plan::PLAIN_SENDER))
    else {
        return Ok(Followed { channel: name, topics: 0 });
    };
    let subscribers = json!([follower.0, plain.0]).to_string();
    let creation = params(&[("name", name.clone()), ("subscribers", subscribers)]);
    let when = plan.start + 6 * 86_400;
    let created = one(
        store,
        command(cache, follower, move |t, actor| channels::create_channel(t, actor, &creation, when)),
    )?;
    let channel_id = reply_u64(&created, "id")?.to_string();
    for chunk in (0..count).collect::<Vec<_>>().chunks(BATCH) {
        let jobs: Vec<Job> = chunk
            .iter()
            .map(|&n| {
                let params = params(&[
                    ("stream_id", channel_id.clone()),
                    ("topic", format!("followed topic {n}")),
                    ("visibility_policy", user_topics::FOLLOWED.to_string()),
                ]);
                command(cache, follower, move |t, actor| {
                    user_topics::update_user_topic(t, actor, &params, when)
                })
            })
            .collect();
        batch(store, jobs)?;
    }
    Ok(Followed { channel: name, topics: count })
}

/// Everyone has checked in during the last day, a tenth of them in the last two minutes (so
/// that presence answers are as large as an active organization's). Stored as a client's
/// ping leaves it, without the ping's event to everyone (no one is listening).
fn seed_presence(store: &Store, user_ids: &[UserId], now: i64) -> ApiResult<()> {
    let Some(&first) = user_ids.first() else { return Ok(()) };
    let realm = store
        .read(|t| t.user(first))?
        .map(|u| u.realm_id)
        .ok_or_else(|| ApiError::internal("seeded user missing"))?;
    // Each presence takes the organization's next place in its presence sequence.
    let mut sequence = store.read(|t| t.presence_sequence(realm))?;
    let mut rng = Rng(0x5eed_0003);
    for chunk in user_ids.chunks(BATCH) {
        let mut changes = Vec::with_capacity(chunk.len());
        for &user_id in chunk {
            let ago = if rng.chance(0.1) { rng.below(120) } else { rng.below(86_400) } as i64;
            sequence += 1;
            changes.push(Change::PutPresence(Presence {
                user_id,
                realm_id: realm,
                last_active_time: now - ago,
                last_connected_time: now - ago,
                last_update_id: sequence,
            }));
        }
        one(store, Box::new(move |_| Ok(Outcome { changes, ..Outcome::default() })))?;
    }
    Ok(())
}

/// Marks each receiver's copy read, but those of the users for whom it is to stay unread.
fn read_on_arrival(outcome: &mut Outcome, unread_for: &[UserId]) {
    for change in &mut outcome.changes {
        if let Change::InsertMessage { receivers, .. } = change {
            for (user, flags) in receivers.iter_mut() {
                if !unread_for.contains(user) {
                    *flags = flags.with(MessageFlags::READ);
                }
            }
        }
    }
}

/// A command run as `user`, as the routes run one for an authenticated request (its events,
/// which no server is running to deliver, are dropped at once), reading through `cache`.
fn command(
    cache: &Arc<ReadCache>,
    user: UserId,
    f: impl FnOnce(&Cached<'_, '_>, &Actor) -> ApiResult<Outcome> + Send + 'static,
) -> Job {
    let cache = cache.clone();
    Box::new(move |tables| {
        let t = Cached { tables, cache: &cache };
        let user = t.user(user)?.ok_or_else(|| ApiError::internal("seeded user missing"))?;
        let realm = t.realm(user.realm_id)?.ok_or_else(|| ApiError::internal("realm missing"))?;
        let actor = Actor { user, realm, client: "website".to_owned(), realm_url: String::new() };
        let mut outcome = f(&t, &actor)?;
        outcome.events.clear();
        cache.forget_if_changed(&outcome.changes);
        Ok(outcome)
    })
}

fn params(pairs: &[(&str, String)]) -> Params {
    Params::from_pairs(pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())))
}

fn one(store: &Store, job: Job) -> ApiResult<Outcome> {
    batch(store, vec![job])?.pop().ok_or_else(|| ApiError::internal("no outcome"))
}

/// Runs jobs in one transaction; any failure is the seed's.
fn batch(store: &Store, jobs: Vec<Job>) -> ApiResult<Vec<Outcome>> {
    run_batch(store, jobs).into_iter().collect()
}

/// Every seeded user's email, id and API key, one per line separated by tabs
/// (`DIR/credentials.tsv`): load generators log in as many users without argon2.
fn write_credentials(data_dir: &Path, plan: &Plan, ids: &[UserId], keys: &[String]) -> ApiResult<()> {
    let lines: String = ids
        .iter()
        .zip(keys)
        .enumerate()
        .map(|(i, (id, key))| format!("{}\t{}\t{key}\n", plan.email(i), id.0))
        .collect();
    std::fs::write(data_dir.join(CREDENTIALS_FILE), lines).map_err(|e| ApiError::internal(e.to_string()))
}

fn reply_u64(outcome: &Outcome, key: &str) -> ApiResult<u64> {
    outcome.reply.get(key).and_then(Value::as_u64).ok_or_else(|| ApiError::internal(format!("no {key}")))
}
