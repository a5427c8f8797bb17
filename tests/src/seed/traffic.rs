//! What the seeded organization's users would send next, for load generators: each message
//! from one user, to one of that user's channels (a topic near the channel's newest) or, a
//! tenth of the time, to another user directly, with the seeder's Markdown (its vocabulary,
//! lengths, mentions, links, code and emoji).

use std::path::Path;

use super::plan::{Names, Plan, Rng};
use super::{CREDENTIALS_FILE, Shape};

/// A seeded user's login: the API email, id and key.
#[derive(Clone, Debug)]
pub struct SeededUser {
    pub email: String,
    pub id: u64,
    pub api_key: String,
}

/// Messages in the seeded organization's style, by sender.
pub struct Traffic {
    plan: Plan,
    users: Vec<SeededUser>,
    ids: Vec<u64>,
    rng: Rng,
}

impl Traffic {
    /// The traffic of the organization seeded with `shape` in `data_dir`.
    pub fn new(data_dir: &Path, shape: Shape) -> std::io::Result<Traffic> {
        let users = read_credentials(data_dir)?;
        let ids = users.iter().map(|u| u.id).collect();
        let plan = Plan::new(shape, confab_server::http::now());
        Ok(Traffic { plan, users, ids, rng: Rng(0x5eed_0004) })
    }

    /// Every seeded user, in the seeder's order.
    pub fn users(&self) -> &[SeededUser] {
        &self.users
    }

    /// The next message from user `sender` (an index into [`Traffic::users`]): its form
    /// parameters for `POST /messages`.
    pub fn message_from(&mut self, sender: usize) -> Vec<(&'static str, String)> {
        let plan = &self.plan;
        let rng = &mut self.rng;
        let names = Names { plan, user_ids: &self.ids };
        // The sender's channels but `general`, where everyone would receive it.
        let channels: Vec<usize> =
            (1..plan.members.len()).filter(|&c| plan.members[c].binary_search(&sender).is_ok()).collect();
        if channels.is_empty() || rng.chance(0.1) {
            let mut other = rng.below(self.users.len());
            if other == sender {
                other = (other + 1) % self.users.len();
            }
            let people = [sender, other];
            let content = super::plan::content(rng, &names, &people);
            return vec![
                ("type", "direct".to_owned()),
                ("to", format!("[{}]", self.ids[other])),
                ("content", content),
            ];
        }
        let channel = channels[rng.below(channels.len())];
        let topic = plan.next_topic(rng, channel);
        let content = super::plan::content(rng, &names, &plan.members[channel]);
        vec![
            ("type", "stream".to_owned()),
            ("to", plan.channel_names[channel].clone()),
            ("topic", topic),
            ("content", content),
        ]
    }
}

fn read_credentials(data_dir: &Path) -> std::io::Result<Vec<SeededUser>> {
    let text = std::fs::read_to_string(data_dir.join(CREDENTIALS_FILE))?;
    text.lines()
        .map(|line| {
            let mut fields = line.split('\t');
            let (Some(email), Some(id), Some(api_key)) = (fields.next(), fields.next(), fields.next()) else {
                return Err(std::io::Error::other(format!("a malformed credentials line: {line}")));
            };
            let id = id.parse().map_err(|_| std::io::Error::other(format!("a malformed user id: {id}")))?;
            Ok(SeededUser { email: email.to_owned(), id, api_key: api_key.to_owned() })
        })
        .collect()
}
