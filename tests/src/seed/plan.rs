//! Who is where and what they say: the seeded organization decided before anything is written,
//! from a fixed-seed generator.
//!
//! Channel sizes follow a long tail (a few channels with thousands of members, most with a
//! hundred or two): each user joins 20 to 50 channels drawn by popularity. Busy channels are
//! not the big ones: a channel's share of messages is a log-normal draw divided by the square
//! root of its size. Topics run in time order within a channel (most messages go to its newest
//! few topics). A tenth of messages are direct, in 1:1 and small group conversations.

use super::Shape;

/// Where a message goes and who sends it (indexes into the plan's users and channels).
pub(super) enum Addressed {
    Channel { channel: usize, sender: usize, topic: String },
    Direct { people: Vec<usize>, sender: usize },
}

pub(super) struct Plan {
    shape: Shape,
    /// When the organization was made; users, channels and then messages follow.
    pub start: i64,
    messages_from: i64,
    messages_until: i64,
    /// The benchmark user's index.
    pub bench: usize,
    /// `general` first.
    pub channel_names: Vec<String>,
    pub private: Vec<bool>,
    /// Each channel's members (user indexes, ascending); `general` has everyone.
    pub members: Vec<Vec<usize>>,
    /// Cumulative message weights of channels.
    activity: Vec<f64>,
    topics: Vec<Vec<String>>,
    conversations: Vec<Vec<usize>>,
    /// Cumulative message weights of conversations.
    chattiness: Vec<f64>,
}

const DAY: i64 = 86_400;

/// The reader's index: a user in the benchmark user's channels who reads nothing, so that
/// marking a large unread history read can be measured.
pub(super) const READER: usize = 1;

/// A sender with thousands of followed topics, and one with none, in a channel of their own.
pub(super) const FOLLOWER: usize = 2;
pub(super) const PLAIN_SENDER: usize = 3;

impl Plan {
    pub fn new(shape: Shape, now: i64) -> Plan {
        let mut rng = Rng(0x5eed_0001);
        let start = now - 400 * DAY;
        let channels = shape.channels.max(1);
        let users = shape.users.max(1);
        let bench = 0;

        let mut channel_names = vec!["general".to_owned()];
        let mut taken = std::collections::BTreeSet::new();
        while channel_names.len() < channels {
            let mut name = channel_name(&mut rng);
            if taken.contains(&name) {
                // Numbered once the plain names run out, so that any shape ends.
                name = format!("{name} {}", channel_names.len());
            }
            taken.insert(name.clone());
            channel_names.push(name);
        }
        // Popularity falls with the index (general aside): Zipf-like, exponent 1.
        let popularity: Vec<f64> =
            (0..channels).map(|c| if c == 0 { 0.0 } else { 1.0 / (c as f64 + 20.0) }).collect();
        let popular = cumulative(&popularity);
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); channels];
        members[0] = (0..users).collect();
        let mut bench_joined: std::collections::BTreeSet<usize> = std::collections::BTreeSet::new();
        for user in 0..users {
            if user == READER {
                // The reader's channels are the benchmark user's.
                for &channel in &bench_joined {
                    members[channel].push(user);
                }
                continue;
            }
            let (low, high) = shape.channels_per_user;
            let wanted = if user == bench {
                shape.bench_channels.saturating_sub(1)
            } else {
                low + rng.below(high.saturating_sub(low) + 1)
            };
            let mut joined = std::collections::BTreeSet::new();
            while joined.len() < wanted.min(channels - 1) {
                joined.insert(pick(&popular, rng.unit()));
            }
            for &channel in &joined {
                members[channel].push(user);
            }
            if user == bench {
                bench_joined = joined;
            }
        }
        for (c, list) in members.iter_mut().enumerate() {
            if list.is_empty() {
                list.push(c % users);
            }
        }
        // A few private channels, none of the twenty largest.
        let private: Vec<bool> = (0..channels).map(|c| c > 20 && rng.chance(0.08)).collect();

        // General gets a steady trickle; the others a log-normal share over sqrt(size).
        let mut weights: Vec<f64> =
            members.iter().map(|m| rng.log_normal() / (m.len() as f64).sqrt()).collect();
        let others: f64 = weights[1..].iter().sum();
        weights[0] = others * shape.general_share / (1.0 - shape.general_share);
        let total: f64 = weights.iter().sum();
        let channel_messages = shape.messages as f64 * (1.0 - super::DIRECT_SHARE);
        let topics = weights
            .iter()
            .map(|w| {
                let expected = channel_messages * w / total;
                let count = ((expected / 12.0) as usize).clamp(1, 150);
                let mut names: Vec<String> = Vec::new();
                while names.len() < count {
                    let name = topic_name(&mut rng);
                    if !names.iter().any(|n| n.eq_ignore_ascii_case(&name)) {
                        names.push(name);
                    }
                }
                names
            })
            .collect();
        let activity = cumulative(&weights);

        // Conversations: the benchmark user's thirty first (three times as chatty), then 1:1s
        // and groups of three to five.
        let count = (shape.messages / 80).max(40);
        let mut conversations = Vec::with_capacity(count);
        let mut chat_weights = Vec::with_capacity(count);
        for n in 0..count {
            let size = if rng.chance(0.8) { 2 } else { 3 + rng.below(3) };
            let mut people = std::collections::BTreeSet::new();
            if n < 30 {
                people.insert(bench);
            }
            while people.len() < size.min(users) {
                people.insert(rng.below(users));
            }
            conversations.push(people.into_iter().collect::<Vec<_>>());
            chat_weights.push(rng.log_normal() * if n < 30 { 3.0 } else { 1.0 });
        }

        Plan {
            shape,
            start,
            messages_from: start + 10 * DAY,
            messages_until: now - 600,
            bench,
            channel_names,
            private,
            members,
            activity,
            topics,
            conversations,
            chattiness: cumulative(&chat_weights),
        }
    }

    pub fn email(&self, user: usize) -> String {
        if user == self.bench {
            return "bench@example.com".to_owned();
        }
        let (first, last) = name_parts(user);
        let n = user / (FIRST_NAMES.len() * LAST_NAMES.len());
        let suffix = if n == 0 { String::new() } else { n.to_string() };
        format!("{}.{}{suffix}@example.com", first.to_lowercase(), last.to_lowercase())
    }

    pub fn full_name(&self, user: usize) -> String {
        if user == self.bench {
            return "Bench Marker".to_owned();
        }
        let (first, last) = name_parts(user);
        let n = user / (FIRST_NAMES.len() * LAST_NAMES.len());
        if n == 0 { format!("{first} {last}") } else { format!("{first} {last} {n}") }
    }

    /// When a user joined: the organization's first days.
    pub fn joined(&self, user: usize) -> i64 {
        self.start + (user as i64 * 4 * DAY) / self.shape.users.max(1) as i64
    }

    /// When a channel was made: after its members joined.
    pub fn channel_created(&self, channel: usize) -> i64 {
        self.start + 5 * DAY + (channel as i64 * 4 * DAY) / self.shape.channels.max(1) as i64
    }

    pub fn channel_description(&self, channel: usize) -> String {
        let name = &self.channel_names[channel];
        match channel % 4 {
            0 => format!("Everything about **{name}**."),
            1 => format!("Discussion of {name}; see the [handbook](https://example.com/handbook/{channel})."),
            2 => format!("Questions, updates and plans for {name}."),
            _ => String::new(),
        }
    }

    /// When message `m` (0 = oldest) is sent: evenly over the year, in order.
    pub fn message_time(&self, m: usize) -> i64 {
        let span = self.messages_until - self.messages_from;
        self.messages_from + (m as i64 * span) / self.shape.messages.max(1) as i64
    }

    pub fn message(&self, rng: &mut Rng, m: usize) -> Addressed {
        if rng.chance(super::DIRECT_SHARE) {
            let people = self.conversations[pick(&self.chattiness, rng.unit())].clone();
            let sender = people[rng.below(people.len())];
            return Addressed::Direct { people, sender };
        }
        let channel = pick(&self.activity, rng.unit());
        let members = &self.members[channel];
        let sender = members[rng.below(members.len())];
        // The channel's topics open one after another over the year; most messages go to the
        // newest few.
        let topics = &self.topics[channel];
        let progress = m as f64 / self.shape.messages.max(1) as f64;
        let newest = ((progress * topics.len() as f64) as usize).min(topics.len() - 1);
        let back = (rng.unit().powi(3) * 8.0) as usize;
        let topic = topics[newest.saturating_sub(back)].clone();
        Addressed::Channel { channel, sender, topic }
    }

    /// A topic of `channel` as a message sent now would choose it: one of its newest few.
    pub fn next_topic(&self, rng: &mut Rng, channel: usize) -> String {
        let topics = &self.topics[channel];
        let back = (rng.unit().powi(3) * 8.0) as usize;
        topics[(topics.len() - 1).saturating_sub(back)].clone()
    }

    /// The audience of a message, for mentions.
    pub fn audience<'a>(&'a self, addressed: &'a Addressed) -> &'a [usize] {
        match addressed {
            Addressed::Channel { channel, .. } => &self.members[*channel],
            Addressed::Direct { people, .. } => people,
        }
    }
}

/// Names of users, channels and topics for the Markdown of messages.
pub(super) struct Names<'a> {
    pub plan: &'a Plan,
    pub user_ids: &'a [u64],
}

impl Names<'_> {
    fn mention(&self, rng: &mut Rng, audience: &[usize]) -> String {
        // The benchmark user is mentioned now and then where it can read it.
        let bench = self.plan.bench;
        let user = if audience.contains(&bench) && rng.chance(0.1) {
            bench
        } else {
            audience[rng.below(audience.len())]
        };
        let name = self.plan.full_name(user);
        let silent = if rng.chance(0.2) { "_" } else { "" };
        format!("@{silent}**{name}|{}**", self.user_ids[user])
    }

    fn channel_link(&self, rng: &mut Rng) -> String {
        // Public channels only: a private one's link shows as text to most.
        let plan = self.plan;
        let mut channel = rng.below(plan.channel_names.len());
        while plan.private[channel] {
            channel = rng.below(plan.channel_names.len());
        }
        let name = &plan.channel_names[channel];
        if rng.chance(0.5) {
            let topic = &plan.topics[channel][rng.below(plan.topics[channel].len())];
            format!("#**{name}>{topic}**")
        } else {
            format!("#**{name}**")
        }
    }
}

/// A message's Markdown: mostly short chat, sometimes paragraphs, lists, code, quotes, links,
/// tables, spoilers and long write-ups, with mentions, channel links and emoji sprinkled in.
pub(super) fn content(rng: &mut Rng, names: &Names<'_>, audience: &[usize]) -> String {
    let roll = rng.unit();
    let mut text = if roll < 0.45 {
        sentence(rng, 3, 14)
    } else if roll < 0.63 {
        let count = 1 + rng.below(2);
        paragraphs(rng, count, 2, 5)
    } else if roll < 0.70 {
        list(rng)
    } else if roll < 0.77 {
        code(rng)
    } else if roll < 0.82 {
        format!("> {}\n\n{}", sentence(rng, 6, 16), sentence(rng, 3, 10))
    } else if roll < 0.88 {
        link(rng)
    } else if roll < 0.89 {
        table(rng)
    } else if roll < 0.90 {
        format!("{}\n```spoiler {}\n{}\n```", sentence(rng, 3, 8), sentence(rng, 2, 4), sentence(rng, 5, 12))
    } else if roll < 0.91 {
        format!("/me {}", sentence(rng, 3, 8).to_lowercase())
    } else if roll < 0.93 {
        long(rng)
    } else if roll < 0.94 {
        format!(
            "Meeting at <time:2025-0{}-1{}T1{}:00:00+00:00>, {}",
            1 + rng.below(9),
            rng.below(10),
            rng.below(8),
            sentence(rng, 3, 8)
        )
    } else {
        let word = pick_word(rng);
        format!(
            "{} **{word}** and *{}* with `{}`.",
            capitalized(&sentence_words(rng, 3, 8)),
            pick_word(rng),
            pick_word(rng)
        )
    };
    if rng.chance(0.08) {
        text = format!("{} {text}", names.mention(rng, audience));
    }
    if rng.chance(0.02) {
        text.push_str(&format!("\n\nSee also {}.", names.channel_link(rng)));
    }
    if rng.chance(0.12) {
        text.push_str(&format!(" {}", EMOJI[rng.below(EMOJI.len())]));
    }
    text
}

fn sentence_words(rng: &mut Rng, min: usize, max: usize) -> String {
    let n = min + rng.below(max - min + 1);
    (0..n).map(|_| pick_word(rng)).collect::<Vec<_>>().join(" ")
}

fn sentence(rng: &mut Rng, min: usize, max: usize) -> String {
    let end = [".", ".", ".", "?", "!", "..."][rng.below(6)];
    format!("{}{end}", capitalized(&sentence_words(rng, min, max)))
}

fn paragraphs(rng: &mut Rng, count: usize, min: usize, max: usize) -> String {
    (0..count)
        .map(|_| {
            let n = min + rng.below(max - min + 1);
            (0..n).map(|_| sentence(rng, 5, 18)).collect::<Vec<_>>().join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn list(rng: &mut Rng) -> String {
    let numbered = rng.chance(0.4);
    let items: Vec<String> = (0..3 + rng.below(4))
        .map(|i| {
            let marker = if numbered { format!("{}.", i + 1) } else { "*".to_owned() };
            let item = sentence_words(rng, 2, 9);
            if rng.chance(0.2) {
                format!("{marker} `{}` {item}", pick_word(rng))
            } else {
                format!("{marker} {item}")
            }
        })
        .collect();
    format!("{}:\n{}", capitalized(&sentence_words(rng, 3, 8)), items.join("\n"))
}

fn code(rng: &mut Rng) -> String {
    let language = ["rust", "python", "js", "bash", "sql", "", "json", "yaml"][rng.below(8)];
    let lines: Vec<String> = (0..2 + rng.below(12))
        .map(|i| {
            let indent = "    ".repeat(if i == 0 { 0 } else { 1 + rng.below(2) });
            match rng.below(4) {
                0 => format!("{indent}let {} = {}({});", pick_word(rng), pick_word(rng), rng.below(1000)),
                1 => format!("{indent}if {} > {} {{", pick_word(rng), rng.below(100)),
                2 => format!("{indent}// {}", sentence_words(rng, 2, 7)),
                _ => format!("{indent}{}.{}(\"{}\")", pick_word(rng), pick_word(rng), pick_word(rng)),
            }
        })
        .collect();
    format!("{}\n```{language}\n{}\n```", sentence(rng, 3, 10), lines.join("\n"))
}

fn link(rng: &mut Rng) -> String {
    let n = rng.below(100_000);
    match rng.below(5) {
        0 => format!("{} https://github.com/example/project/pull/{n}", sentence(rng, 2, 6)),
        1 => format!(
            "See [the {} doc](https://docs.example.com/{}/{n}) for details.",
            pick_word(rng),
            pick_word(rng)
        ),
        2 => format!("Screenshot: https://files.example.com/screens/{n}.png"),
        3 => format!("{} https://www.youtube.com/watch?v=dQw4w9WgXc{}", sentence(rng, 2, 6), n % 10),
        _ => format!("{} <https://example.com/issues/{n}>", sentence(rng, 3, 9)),
    }
}

fn table(rng: &mut Rng) -> String {
    let rows: Vec<String> = (0..2 + rng.below(4))
        .map(|_| format!("| {} | {} | {} ms |", pick_word(rng), rng.below(1000), rng.below(500)))
        .collect();
    format!("Numbers from today:\n\n| name | count | p50 |\n|---|---:|---:|\n{}", rows.join("\n"))
}

fn long(rng: &mut Rng) -> String {
    format!(
        "# {}\n\n{}\n\n## {}\n\n{}\n\n{}",
        capitalized(&sentence_words(rng, 2, 5)),
        paragraphs(rng, 2, 3, 6),
        capitalized(&sentence_words(rng, 1, 3)),
        list(rng),
        paragraphs(rng, 2, 2, 5)
    )
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn pick_word(rng: &mut Rng) -> &'static str {
    // Common words far more often than the rest.
    let i = (rng.unit().powi(2) * WORDS.len() as f64) as usize;
    WORDS[i.min(WORDS.len() - 1)]
}

fn name_parts(user: usize) -> (&'static str, &'static str) {
    let first = FIRST_NAMES[user % FIRST_NAMES.len()];
    let last = LAST_NAMES[(user / FIRST_NAMES.len()) % LAST_NAMES.len()];
    (first, last)
}

fn channel_name(rng: &mut Rng) -> String {
    let area = AREAS[rng.below(AREAS.len())];
    match rng.below(5) {
        0 | 1 => format!("{area} {}", FACETS[rng.below(FACETS.len())]),
        2 => format!("team-{area}"),
        3 => format!("{area}/{}", pick_word(rng)),
        _ => format!("{} {area}", CITIES[rng.below(CITIES.len())]),
    }
}

fn topic_name(rng: &mut Rng) -> String {
    let n = rng.below(10_000);
    match rng.below(10) {
        0 => format!("release 2.{}", n % 60),
        1 => format!("bug #{n}"),
        2 => format!("weekly sync {}", 1 + n % 52),
        3 => format!("design review: {}", pick_word(rng)),
        4 => format!("question about {}", pick_word(rng)),
        5 => format!("incident {n}"),
        6 => format!("{} migration", pick_word(rng)),
        7 => format!("flaky test in {}", pick_word(rng)),
        8 => format!("{} {}", pick_word(rng), pick_word(rng)),
        _ => format!("planning Q{} {}", 1 + n % 4, pick_word(rng)),
    }
}

/// The index whose cumulative weight first exceeds `unit` (in 0..1) of the total.
fn pick(cumulative: &[f64], unit: f64) -> usize {
    let total = cumulative.last().copied().unwrap_or(0.0);
    cumulative.partition_point(|&c| c <= unit * total).min(cumulative.len() - 1)
}

fn cumulative(weights: &[f64]) -> Vec<f64> {
    weights
        .iter()
        .scan(0.0, |sum, w| {
            *sum += w;
            Some(*sum)
        })
        .collect()
}

/// SplitMix64: a fixed-seed generator, so that a shape seeds the same organization every time.
pub(super) struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.unit() * n as f64) as usize
    }

    pub(super) fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// exp(N(0, 1)), by Box-Muller.
    fn log_normal(&mut self) -> f64 {
        let (u, v) = (1.0 - self.unit(), self.unit());
        ((-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()).exp()
    }
}

const EMOJI: [&str; 12] = [
    ":smile:",
    ":+1:",
    ":tada:",
    ":thinking:",
    ":rocket:",
    ":eyes:",
    ":heart:",
    ":fire:",
    ":100:",
    ":octopus:",
    ":coffee:",
    ":check:",
];

const FIRST_NAMES: [&str; 100] = [
    "Aaliyah",
    "Aaron",
    "Abdul",
    "Ada",
    "Adrian",
    "Aisha",
    "Alan",
    "Alejandro",
    "Alice",
    "Amara",
    "Amir",
    "Ana",
    "Andrei",
    "Anika",
    "Arjun",
    "Astrid",
    "Ben",
    "Bianca",
    "Boris",
    "Bruno",
    "Carla",
    "Carlos",
    "Chen",
    "Chloe",
    "Dario",
    "David",
    "Deepa",
    "Diego",
    "Dmitri",
    "Elena",
    "Elif",
    "Emeka",
    "Emma",
    "Farah",
    "Felix",
    "Fatima",
    "Gabriel",
    "Grace",
    "Hana",
    "Hassan",
    "Ines",
    "Ivan",
    "Jakob",
    "Jamal",
    "Javier",
    "Jin",
    "Joao",
    "Julia",
    "Kai",
    "Kamala",
    "Karim",
    "Kenji",
    "Lara",
    "Leila",
    "Leon",
    "Li",
    "Lucas",
    "Lucia",
    "Mai",
    "Marco",
    "Maria",
    "Mateo",
    "Mei",
    "Mohammed",
    "Nadia",
    "Naveen",
    "Nia",
    "Noah",
    "Olga",
    "Omar",
    "Pablo",
    "Priya",
    "Rafael",
    "Rania",
    "Ravi",
    "Rosa",
    "Sam",
    "Sana",
    "Sara",
    "Sebastian",
    "Sofia",
    "Sven",
    "Tariq",
    "Tess",
    "Tomas",
    "Uma",
    "Valentina",
    "Victor",
    "Wei",
    "Xavier",
    "Yara",
    "Yuki",
    "Yusuf",
    "Zainab",
    "Zoe",
    "Ahmed",
    "Bo",
    "Cyrus",
    "Dana",
    "Eitan",
];

const LAST_NAMES: [&str; 100] = [
    "Abbott",
    "Adeyemi",
    "Alvarez",
    "Andersen",
    "Bakker",
    "Banerjee",
    "Becker",
    "Bianchi",
    "Brown",
    "Castro",
    "Chen",
    "Cohen",
    "Costa",
    "Dubois",
    "Dumont",
    "Eriksson",
    "Fischer",
    "Garcia",
    "Gomez",
    "Gonzalez",
    "Gupta",
    "Haddad",
    "Hansen",
    "Hernandez",
    "Hoffmann",
    "Horvat",
    "Ibrahim",
    "Ivanova",
    "Jansen",
    "Jensen",
    "Johnson",
    "Kaur",
    "Kim",
    "Kowalski",
    "Kumar",
    "Larsen",
    "Lee",
    "Lopez",
    "Martin",
    "Meyer",
    "Molina",
    "Moreau",
    "Morris",
    "Muller",
    "Nakamura",
    "Nguyen",
    "Novak",
    "Okafor",
    "Olsen",
    "Ortiz",
    "Park",
    "Patel",
    "Perez",
    "Petrov",
    "Popescu",
    "Quinn",
    "Rahman",
    "Ramos",
    "Reyes",
    "Ricci",
    "Rossi",
    "Ruiz",
    "Santos",
    "Sato",
    "Schmidt",
    "Schulz",
    "Silva",
    "Singh",
    "Smith",
    "Sousa",
    "Suzuki",
    "Tan",
    "Tanaka",
    "Taylor",
    "Torres",
    "Tran",
    "Vargas",
    "Vasquez",
    "Virtanen",
    "Wagner",
    "Walker",
    "Wang",
    "Weber",
    "Williams",
    "Wilson",
    "Wong",
    "Wu",
    "Yamamoto",
    "Yilmaz",
    "Young",
    "Zhang",
    "Zhao",
    "Ziegler",
    "Zimmermann",
    "Ansah",
    "Boateng",
    "Mensah",
    "Osei",
    "Owusu",
    "Achterberg",
];

const AREAS: [&str; 48] = [
    "backend",
    "frontend",
    "mobile",
    "android",
    "ios",
    "design",
    "infra",
    "security",
    "data",
    "analytics",
    "ml",
    "search",
    "billing",
    "payments",
    "growth",
    "marketing",
    "sales",
    "support",
    "docs",
    "devrel",
    "qa",
    "release",
    "platform",
    "api",
    "auth",
    "storage",
    "networking",
    "kernel",
    "compiler",
    "desktop",
    "web",
    "accessibility",
    "i18n",
    "legal",
    "finance",
    "hr",
    "recruiting",
    "ops",
    "sre",
    "database",
    "performance",
    "research",
    "product",
    "community",
    "events",
    "partners",
    "onboarding",
    "integrations",
];

const FACETS: [&str; 16] = [
    "team",
    "announcements",
    "help",
    "random",
    "alerts",
    "standup",
    "hiring",
    "offsite",
    "reading group",
    "reviews",
    "ideas",
    "incidents",
    "planning",
    "social",
    "builds",
    "feedback",
];

const CITIES: [&str; 16] = [
    "berlin",
    "lagos",
    "lisbon",
    "london",
    "montreal",
    "mumbai",
    "nairobi",
    "new york",
    "paris",
    "sao paulo",
    "seoul",
    "singapore",
    "sydney",
    "tokyo",
    "toronto",
    "warsaw",
];

const WORDS: [&str; 155] = [
    "the",
    "we",
    "it",
    "this",
    "that",
    "to",
    "and",
    "is",
    "for",
    "on",
    "in",
    "with",
    "just",
    "can",
    "should",
    "think",
    "maybe",
    "yes",
    "no",
    "build",
    "deploy",
    "test",
    "tests",
    "release",
    "server",
    "client",
    "cache",
    "queue",
    "index",
    "query",
    "latency",
    "error",
    "fix",
    "bug",
    "patch",
    "review",
    "merge",
    "branch",
    "commit",
    "config",
    "flag",
    "rollout",
    "staging",
    "production",
    "metrics",
    "dashboard",
    "alert",
    "incident",
    "meeting",
    "tomorrow",
    "today",
    "later",
    "soon",
    "now",
    "again",
    "still",
    "already",
    "looks",
    "good",
    "great",
    "weird",
    "broken",
    "slow",
    "fast",
    "memory",
    "disk",
    "network",
    "timeout",
    "retry",
    "schema",
    "migration",
    "database",
    "table",
    "column",
    "endpoint",
    "request",
    "response",
    "payload",
    "token",
    "session",
    "login",
    "user",
    "users",
    "channel",
    "topic",
    "message",
    "messages",
    "thread",
    "draft",
    "upload",
    "image",
    "file",
    "docs",
    "readme",
    "design",
    "mockup",
    "sidebar",
    "button",
    "layout",
    "theme",
    "dark",
    "mode",
    "mobile",
    "desktop",
    "browser",
    "wasm",
    "rust",
    "python",
    "typescript",
    "compile",
    "linker",
    "crate",
    "package",
    "version",
    "upgrade",
    "downgrade",
    "benchmark",
    "profile",
    "trace",
    "log",
    "logs",
    "debug",
    "panic",
    "crash",
    "restart",
    "backup",
    "restore",
    "snapshot",
    "plan",
    "roadmap",
    "quarter",
    "customer",
    "feedback",
    "ticket",
    "support",
    "question",
    "answer",
    "idea",
    "proposal",
    "draft",
    "agree",
    "disagree",
    "ship",
    "it",
    "lunch",
    "coffee",
    "weekend",
    "vacation",
    "thanks",
    "sorry",
    "please",
    "ok",
    "cool",
    "nice",
    "hmm",
];
