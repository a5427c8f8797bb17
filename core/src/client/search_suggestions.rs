//! The suggestions under the search bar, as Zulip's `search_suggestion.ts` makes them: the
//! query as typed, then completions of its last term (`is:`, `has:` and `channels:` values,
//! "sent by me", channels, people for `dm:`, `sender:` and `dm-including:`, the topics of the
//! channel in the query, operators), each after the terms before it; then the query's leading
//! terms alone. At most [`MAX_SUGGESTIONS`], without repeats.
//!
//! Differences from Zulip: no pills (everything is text, people by email); free text offers at
//! most [`PEOPLE_PER_OPERATOR`] people per operator, where Zulip lets `dm:` fill the list; the
//! current view's channel is not assumed for `topic:` (the engine does not know the view).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use super::Engine;
use super::candidates::{Person, smallest};
use super::matching::{Query, fold, person_matches, phrase_match, tier};
use super::search_description::capitalized;
use super::search_syntax::{TextTerm, tokenize, unparse};
use super::types::{NarrowTerm, SearchSuggestion};

/// Zulip's typeahead shows this many.
pub const MAX_SUGGESTIONS: usize = 10;
/// People offered per operator for free text.
pub const PEOPLE_PER_OPERATOR: usize = 3;

/// Part of a suggestion: some terms.
#[derive(Clone, Debug)]
struct Piece {
    terms: Vec<TextTerm>,
    /// False for an operator still waiting for its operand.
    complete: bool,
}

impl Piece {
    fn search(&self) -> String {
        unparse(&self.terms)
    }
}

/// The terms a suggestion must not be added to (Zulip's `incompatible_patterns`).
#[derive(Clone, Copy)]
enum Pattern {
    Operator(&'static str),
    Term(&'static str, &'static str),
}

use Pattern::{Operator, Term};

fn any_matches(terms: &[TextTerm], patterns: &[Pattern]) -> bool {
    patterns.iter().any(|pattern| {
        terms.iter().any(|t| match pattern {
            Operator(op) => t.operator == *op && (!t.negated || ["search", "has"].contains(op)),
            Term(op, operand) => !t.negated && t.operator == *op && t.operand == *operand,
        })
    })
}

/// A fixed suggestion (`is:starred`...) and what it cannot follow.
struct Special {
    search: &'static str,
    description: &'static str,
    incompatible: &'static [Pattern],
}

const IS_SUGGESTIONS: &[Special] = &[
    Special {
        search: "is:dm",
        description: "direct messages",
        incompatible: &[
            Term("is", "dm"),
            Term("is", "resolved"),
            Operator("channel"),
            Operator("dm"),
            Operator("in"),
            Operator("topic"),
        ],
    },
    Special { search: "is:starred", description: "starred messages", incompatible: &[Term("is", "starred")] },
    Special { search: "is:mentioned", description: "@-mentions", incompatible: &[Term("is", "mentioned")] },
    Special {
        search: "is:followed",
        description: "followed topics",
        incompatible: &[Term("is", "followed"), Term("is", "dm"), Operator("dm"), Operator("dm-including")],
    },
    Special { search: "is:alerted", description: "alerted messages", incompatible: &[Term("is", "alerted")] },
    Special { search: "is:unread", description: "unread messages", incompatible: &[Term("is", "unread")] },
    Special {
        search: "is:muted",
        description: "muted messages",
        incompatible: &[Term("is", "muted"), Term("in", "home")],
    },
    Special {
        search: "is:resolved",
        description: "resolved topics",
        incompatible: &[Term("is", "resolved"), Term("is", "dm"), Operator("dm"), Operator("dm-including")],
    },
    Special {
        search: "-is:resolved",
        description: "unresolved topics",
        incompatible: &[Term("is", "resolved"), Term("is", "dm"), Operator("dm"), Operator("dm-including")],
    },
];

const HAS_SUGGESTIONS: &[Special] = &[
    Special { search: "has:link", description: "messages with links", incompatible: &[Term("has", "link")] },
    Special {
        search: "has:image",
        description: "messages with images",
        incompatible: &[Term("has", "image")],
    },
    Special {
        search: "has:attachment",
        description: "messages with attachments",
        incompatible: &[Term("has", "attachment")],
    },
    Special {
        search: "has:reaction",
        description: "messages with reactions",
        incompatible: &[Term("has", "reaction")],
    },
];

const CHANNELS_SUGGESTIONS: &[Special] = &[Special {
    search: "channels:public",
    description: "all public channels",
    incompatible: &[
        Term("is", "dm"),
        Operator("channel"),
        Operator("dm-including"),
        Operator("dm"),
        Operator("in"),
        Operator("channels"),
    ],
}];

/// The suggestion lines found so far, without repeats (Zulip's `Attacher`).
struct Lines {
    base: Vec<Piece>,
    lines: Vec<Vec<Piece>>,
    seen: HashSet<String>,
}

impl Lines {
    fn push(&mut self, line: Vec<Piece>) {
        if self.seen.insert(line_search(&line).to_lowercase()) {
            self.lines.push(line);
        }
    }

    /// Each piece after the base; a `dm:` that extends the base's last one replaces it.
    fn attach(&mut self, pieces: Vec<Piece>) {
        for piece in pieces {
            let mut line = self.base.clone();
            let search = piece.search();
            if line.last().is_some_and(|last| search.starts_with("dm:") && search.contains(&last.search())) {
                line.pop();
            }
            line.push(piece);
            self.push(line);
        }
    }

    fn full(&self) -> bool {
        self.lines.len() >= MAX_SUGGESTIONS
    }
}

fn line_search(line: &[Piece]) -> String {
    let searches: Vec<String> = line.iter().map(Piece::search).filter(|s| !s.is_empty()).collect();
    searches.join(" ")
}

/// What one call works from: the people, ranked once per query.
struct Context<'e> {
    people: Vec<Person<'e>>,
    order: super::candidates::PeopleOrder,
    /// Matching people per query, best first.
    matches: RefCell<HashMap<String, Vec<usize>>>,
}

impl Engine {
    /// Suggestions for a search query as typed (see the module documentation).
    pub fn search_suggestions(&self, query: &str) -> Vec<SearchSuggestion> {
        let mut terms = tokenize(query);
        // "sender:King Ha": a person's name typed with a space goes on with the operand.
        if let [.., person, last] = terms.as_slice()
            && last.operator == "search"
            && ["sender", "dm", "dm-including"].contains(&person.operator.as_str())
            && self.user_ids_of_operand(&person.operand.as_str().into()).is_none()
        {
            let merged = TextTerm::new(
                &person.operator,
                &format!("{} {}", person.operand, last.operand),
                person.negated,
            );
            terms.truncate(terms.len() - 2);
            terms.push(merged);
        }
        let last = terms.last().cloned().unwrap_or_else(|| TextTerm::new("", "", false));
        let base_terms: Vec<TextTerm> = terms[..terms.len().saturating_sub(1)].to_vec();
        let base: Vec<Piece> = base_terms.iter().map(|t| self.piece(vec![t.clone()])).collect();
        let mut lines = Lines { base, lines: Vec::new(), seen: HashSet::new() };

        // The query as typed, first (unless it names what does not exist).
        if last.operator == "search" {
            let mut line = lines.base.clone();
            line.push(self.piece(vec![last.clone()]));
            lines.push(line);
        } else if !terms.is_empty() && terms.iter().all(|t| self.valid_text_term(t)) {
            lines.push(terms.iter().map(|t| self.piece(vec![t.clone()])).collect());
        }

        let context =
            Context { people: self.people(), order: self.people_order(), matches: RefCell::default() };
        type Suggester = fn(&Engine, &TextTerm, &[TextTerm], &Context) -> Vec<Piece>;
        let suggesters: [Suggester; 10] = [
            |e, last, base, _| e.special(last, base, CHANNELS_SUGGESTIONS),
            |e, last, base, _| e.special(last, base, IS_SUGGESTIONS),
            |e, last, base, _| e.sent_by_me(last, base),
            |e, last, base, _| e.channel_pieces(last, base),
            |e, last, base, c| e.person_pieces(last, base, "dm", c),
            |e, last, base, c| e.person_pieces(last, base, "sender", c),
            |e, last, base, c| e.person_pieces(last, base, "dm-including", c),
            |e, last, base, _| e.topic_pieces(last, base),
            |e, last, _, _| e.operator_pieces(last),
            |e, last, base, _| e.special(last, base, HAS_SUGGESTIONS),
        ];
        for suggest in suggesters {
            if !lines.full() {
                let pieces = suggest(self, &last, &base_terms, &context);
                lines.attach(pieces);
            }
        }

        // The query's leading terms alone: `channel:a topic:b foo` suggests `channel:a topic:b`
        // and `channel:a`.
        for end in (1..terms.len()).rev() {
            if lines.full() {
                break;
            }
            lines.push(vec![self.piece(terms[..end].to_vec())]);
        }
        lines.lines.truncate(MAX_SUGGESTIONS);
        lines.lines.iter().map(|line| self.suggestion(line)).collect()
    }

    /// A line as a suggestion: described as a whole (so that a leading channel and topic read
    /// `#channel > topic`), operators awaiting operands last.
    fn suggestion(&self, line: &[Piece]) -> SearchSuggestion {
        let complete_terms: Vec<TextTerm> =
            line.iter().filter(|p| p.complete).flat_map(|p| p.terms.iter().cloned()).collect();
        let mut descriptions = vec![self.describe(&complete_terms, false)];
        descriptions.extend(line.iter().filter(|p| !p.complete).map(|p| self.describe(&p.terms, true)));
        descriptions.retain(|d| !d.is_empty());
        SearchSuggestion {
            search: line_search(line),
            description: capitalized(&descriptions.join(", ")),
            narrow: self.narrow_of_text_terms(&complete_terms),
            complete: line.iter().all(|p| p.complete),
        }
    }

    fn piece(&self, terms: Vec<TextTerm>) -> Piece {
        Piece { terms, complete: true }
    }

    /// Whether a term names what exists: a known channel, known people, a valid value.
    fn valid_text_term(&self, term: &TextTerm) -> bool {
        match self.resolve_text_term(term) {
            None => term.operator == "search",
            Some(NarrowTerm { operator, operand, .. }) => match operator.as_str() {
                "channel" => operand.is_number(),
                "sender" | "dm" | "dm-including" | "group-pm-with" => {
                    operand.is_number() || operand.is_array()
                }
                _ => true,
            },
        }
    }

    /// Fixed suggestions whose text or words continue what is typed (Zulip's
    /// `get_special_filter_suggestions`), negated after a `-`.
    fn special(&self, last: &TextTerm, base: &[TextTerm], list: &[Special]) -> Vec<Piece> {
        let negating = last.negated || (last.operator == "search" && last.operand.starts_with('-'));
        let typed = unparse(std::slice::from_ref(last)).to_lowercase();
        let mut pieces = Vec::new();
        for special in list {
            // The words are matched against what is typed; the suggestion is described by its
            // terms, as every line is.
            let (search, description) = match (negating, special.search) {
                (false, search) => (search.to_owned(), special.description.to_owned()),
                (true, "is:resolved") => ("-is:resolved".to_owned(), "unresolved topics".to_owned()),
                (true, "-is:resolved") => continue,
                (true, search) => (format!("-{search}"), format!("exclude {}", special.description)),
            };
            if any_matches(base, special.incompatible) {
                continue;
            }
            let operand = search.split_once(':').map_or("", |(_, operand)| operand);
            let continues = typed.is_empty()
                || search.to_lowercase().starts_with(&typed)
                || (last.operator == "search" && operand.to_lowercase().starts_with(&typed))
                || description.to_lowercase().starts_with(&typed);
            if continues {
                pieces.push(self.piece(tokenize(&search)));
            }
        }
        pieces
    }

    /// "Sent by me", for `sender:`, `from`, `sent`... (Zulip's `get_sent_by_me_suggestions`).
    fn sent_by_me(&self, last: &TextTerm, base: &[TextTerm]) -> Vec<Piece> {
        if any_matches(base, &[Operator("sender")]) {
            return Vec::new();
        }
        let typed = unparse(std::slice::from_ref(last)).to_lowercase();
        let negated = last.negated || (last.operator == "search" && last.operand.starts_with('-'));
        let sign = if negated { "-" } else { "" };
        let search = format!("{sign}sender:{}", self.user_email(self.user_id).unwrap_or("me"));
        let continues = last.operator.is_empty()
            || search.to_lowercase().starts_with(&typed)
            || format!("{sign}sender:me").starts_with(&typed)
            || format!("{sign}from").starts_with(&typed)
            || typed == format!("{sign}sent");
        if !continues {
            return Vec::new();
        }
        vec![self.piece(tokenize(&search))]
    }

    /// Subscribed channels whose name (or a word of it) starts with the text.
    fn channel_pieces(&self, last: &TextTerm, base: &[TextTerm]) -> Vec<Piece> {
        if !["channel", "search", ""].contains(&last.operator.as_str())
            || any_matches(
                base,
                &[
                    Operator("channel"),
                    Operator("channels"),
                    Term("is", "dm"),
                    Operator("dm"),
                    Operator("dm-including"),
                ],
            )
        {
            return Vec::new();
        }
        let query = Query::new(&last.operand);
        let subscriptions = self.state.get("subscriptions").and_then(serde_json::Value::as_array);
        let matching: Vec<_> = subscriptions
            .into_iter()
            .flatten()
            .filter_map(|c| {
                let name = super::directory::field(c, "name");
                let folded = fold(name);
                phrase_match(&query, &folded).then(|| ((tier(&query, name, &folded), folded), name))
            })
            .collect();
        smallest(matching, MAX_SUGGESTIONS)
            .into_iter()
            .map(|name| self.piece(vec![TextTerm::new("channel", name, last.negated)]))
            .collect()
    }

    /// People for a people operator (Zulip's `get_person_suggestions`): `is:dm` asks for `dm:`
    /// people, and `dm:a@x,b` for another person with `a@x`.
    fn person_pieces(
        &self,
        last: &TextTerm,
        base: &[TextTerm],
        operator: &str,
        context: &Context,
    ) -> Vec<Piece> {
        let last = if last.operator == "is" && last.operand == "dm" {
            TextTerm::new("dm", "", false)
        } else {
            last.clone()
        };
        let incompatible: &[Pattern] = match operator {
            "dm" => &[Operator("dm"), Operator("channel"), Term("is", "resolved")],
            "dm-including" => &[Operator("channel"), Term("is", "resolved")],
            _ => &[Operator("sender")],
        };
        if ![operator, "search"].contains(&last.operator.as_str()) || any_matches(base, incompatible) {
            return Vec::new();
        }
        // `dm:a@x,b`: the people already listed, and the query for one more.
        let (listed, query) = match last.operand.rsplit_once(',') {
            Some((listed, query)) if operator == "dm" && last.operator == "dm" => (Some(listed), query),
            _ => (None, last.operand.as_str()),
        };
        let listed_ids = match listed {
            Some(listed) => match self.user_ids_of_operand(&listed.into()) {
                Some(ids) => ids,
                None => return Vec::new(),
            },
            None => Vec::new(),
        };
        let limit = if last.operator == "search" { PEOPLE_PER_OPERATOR } else { MAX_SUGGESTIONS };
        let matches = self.matching_people(context, query);
        let chosen = matches
            .iter()
            .map(|i| &context.people[*i])
            .filter(|p| listed.is_none() || (p.id != self.user_id && !listed_ids.contains(&p.id)))
            .take(limit);
        chosen
            .map(|person| {
                let operand = match listed {
                    Some(listed) => format!("{listed},{}", person.email),
                    None => person.email.to_owned(),
                };
                let mut terms = vec![TextTerm::new(operator, &operand, last.negated)];
                // "-dm:" still means direct messages, only not with them.
                if last.negated && operator == "dm" {
                    terms.insert(0, TextTerm::new("is", "dm", false));
                }
                self.piece(terms)
            })
            .collect()
    }

    /// The people matching a query, best first, computed once per query per call.
    fn matching_people(&self, context: &Context, query: &str) -> Vec<usize> {
        if let Some(found) = context.matches.borrow().get(query) {
            return found.clone();
        }
        let query = Query::new(query);
        let candidates: Vec<_> = context
            .people
            .iter()
            .enumerate()
            .filter(|(_, p)| query.is_empty() || person_matches(&query, p.folded_name, p.folded_email))
            .map(|(i, p)| (self.person_key(&context.order, p), i))
            .collect();
        // Enough for a group's extra person after those already listed.
        let found = smallest(candidates, MAX_SUGGESTIONS * 2);
        context.matches.borrow_mut().insert(query.typed, found.clone());
        found
    }

    /// Topics of the channel in the query (Zulip's `get_topic_suggestions`): all its recent
    /// ones after `channel:x`, those with a word starting with the text after that.
    fn topic_pieces(&self, last: &TextTerm, base: &[TextTerm]) -> Vec<Piece> {
        if !["channel", "topic", "search"].contains(&last.operator.as_str())
            || any_matches(
                base,
                &[Operator("dm"), Term("is", "dm"), Operator("dm-including"), Operator("topic")],
            )
        {
            return Vec::new();
        }
        let (guess, channel, leading) = match last.operator.as_str() {
            "channel" => ("", last.operand.as_str(), vec![last.clone()]),
            _ => match base.iter().find(|t| t.operator == "channel" && !t.negated) {
                Some(channel) => (last.operand.as_str(), channel.operand.as_str(), Vec::new()),
                None => return Vec::new(),
            },
        };
        let Some(stream_id) = self.channel_id_by_name(channel) else { return Vec::new() };
        let negated = last.operator == "topic" && last.negated;
        let mut topics: Vec<String> = self
            .topic_names(stream_id)
            .into_iter()
            .filter(|topic| guess.is_empty() || phrase_match(&Query::new(guess), &fold(topic)))
            .take(MAX_SUGGESTIONS)
            .collect();
        // Alphabetical, for scanning (as Zulip).
        topics.sort();
        topics
            .iter()
            .map(|topic| {
                let mut terms = leading.clone();
                terms.push(TextTerm::new("topic", topic, negated));
                self.piece(terms)
            })
            .collect()
    }

    /// Operators whose name starts with the free text: `se` suggests `sender:`.
    fn operator_pieces(&self, last: &TextTerm) -> Vec<Piece> {
        if last.operator != "search" {
            return Vec::new();
        }
        let (negated, typed) = match last.operand.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, last.operand.as_str()),
        };
        const CHOICES: [&str; 9] =
            ["channel", "topic", "dm", "dm-including", "sender", "near", "from", "pm-with", "stream"];
        CHOICES
            .iter()
            .filter(|choice| phrase_match(&Query::new(typed), choice))
            .map(|choice| match *choice {
                "pm-with" => "dm",
                "stream" => "channel",
                "from" => "sender",
                other => other,
            })
            .map(|operator| Piece { terms: vec![TextTerm::new(operator, "", negated)], complete: false })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::fixture::*;
    use super::super::{Engine, Reply};
    use super::*;

    fn with_topics(mut engine: Engine) -> Engine {
        let topics = json!({"result": "success", "msg": "", "topics": [
            {"name": "ancient history", "max_id": 30}, {"name": "bridges", "max_id": 50},
            {"name": "Baths of Caracalla", "max_id": 40}, {"name": "food", "max_id": 20},
        ]});
        let serde_json::Value::Object(topics) = topics else { unreachable!() };
        engine.handle_topics(ROME, Reply::Success(topics)).expect("topics");
        engine
    }

    fn show(engine: &Engine, query: &str) -> Vec<(String, String)> {
        engine.search_suggestions(query).into_iter().map(|s| (s.search, s.description)).collect()
    }

    fn lines(expected: &[(&str, &str)]) -> Vec<(String, String)> {
        expected.iter().map(|(s, d)| (s.to_string(), d.to_string())).collect()
    }

    #[test]
    fn an_operator_value_is_completed() {
        let engine = engine();
        assert_eq!(show(&engine, "is:st"), lines(&[("is:starred", "Starred messages")]));
        assert_eq!(show(&engine, "-is:res"), lines(&[("-is:resolved", "Unresolved topics")]));
        assert_eq!(
            show(&engine, "has:"),
            lines(&[
                ("has:link", "Messages with links"),
                ("has:image", "Messages with images"),
                ("has:attachment", "Messages with attachments"),
                ("has:reaction", "Messages with reactions"),
            ])
        );
        // Zulip's "att" → has:attachment: the operand continues the free text.
        assert_eq!(
            show(&engine, "att"),
            lines(&[("att", "Search for att"), ("has:attachment", "Messages with attachments")])
        );
    }

    #[test]
    fn channels_people_and_topics_complete_their_operators() {
        let engine = with_topics(engine());
        assert_eq!(
            show(&engine, "channel:"),
            lines(&[
                ("channel:design+team", "Messages in #design team"),
                ("channel:general", "Messages in #general"),
                ("channel:Rome", "Messages in #Rome"),
                ("channel:Verona", "Messages in #Verona"),
            ])
        );
        assert_eq!(show(&engine, "sender:ia"), lines(&[("sender:iago@zulip.com", "Sent by Iago")]));
        // A name typed with its space.
        assert_eq!(
            show(&engine, "sender:King Ha"),
            lines(&[("sender:hamlet@zulip.com", "Sent by King Hamlet")])
        );
        // A channel typed: its recent topics, alphabetically.
        assert_eq!(
            show(&engine, "channel:Rome"),
            lines(&[
                ("channel:Rome", "Messages in #Rome"),
                ("channel:Rome topic:Baths+of+Caracalla", "#Rome > Baths of Caracalla"),
                ("channel:Rome topic:ancient+history", "#Rome > ancient history"),
                ("channel:Rome topic:bridges", "#Rome > bridges"),
                ("channel:Rome topic:food", "#Rome > food"),
            ])
        );
        assert_eq!(
            show(&engine, "channel:Rome topic:b"),
            lines(&[
                ("channel:Rome topic:b", "#Rome > b"),
                ("channel:Rome topic:Baths+of+Caracalla", "#Rome > Baths of Caracalla"),
                ("channel:Rome topic:bridges", "#Rome > bridges"),
                ("channel:Rome", "Messages in #Rome"),
            ])
        );
        // One more person for a group conversation.
        assert_eq!(
            show(&engine, "dm:iago@zulip.com,ha"),
            lines(&[("dm:iago@zulip.com,hamlet@zulip.com", "Direct messages with Iago, King Hamlet")])
        );
    }

    #[test]
    fn free_text_offers_channels_people_and_operators() {
        let engine = engine();
        assert_eq!(
            show(&engine, "ro"),
            lines(&[("ro", "Search for ro"), ("channel:Rome", "Messages in #Rome")])
        );
        assert_eq!(
            show(&engine, "se"),
            lines(&[
                ("se", "Search for se"),
                ("sender:desdemona@zulip.com", "Sent by me"),
                ("sender:", "Sent by")
            ])
        );
        assert_eq!(
            show(&engine, "zo"),
            lines(&[
                ("zo", "Search for zo"),
                ("dm:zoe@zulip.com", "Direct messages with Zoë Ashworth"),
                ("sender:zoe@zulip.com", "Sent by Zoë Ashworth"),
                ("dm-including:zoe@zulip.com", "Direct messages including Zoë Ashworth"),
            ])
        );
    }

    #[test]
    fn what_the_query_already_says_is_not_suggested_again() {
        let engine = engine();
        let searches: Vec<String> = show(&engine, "is:starred is:").into_iter().map(|(s, _)| s).collect();
        assert!(searches.iter().all(|s| !s.ends_with("is:starred is:starred")), "{searches:?}");
        assert!(searches.contains(&"is:starred is:unread".to_owned()), "{searches:?}");
        // No direct messages in a channel.
        let searches: Vec<String> = show(&engine, "channel:general i").into_iter().map(|(s, _)| s).collect();
        assert!(searches.iter().all(|s| !s.contains("dm")), "{searches:?}");
    }

    #[test]
    fn leading_terms_are_offered_alone() {
        let engine = engine();
        assert_eq!(
            show(&engine, "channel:Rome topic:b foo"),
            lines(&[
                ("channel:Rome topic:b foo", "#Rome > b, search for foo"),
                ("channel:Rome topic:b", "#Rome > b"),
                ("channel:Rome", "Messages in #Rome"),
            ])
        );
    }

    #[test]
    fn each_suggestion_carries_its_narrow() {
        let engine = with_topics(engine());
        for query in ["channel:Rome b", "is:dm", "-", "se", "sender:King Ha", "dm:iago@zulip.com,ha", "i"] {
            let suggestions = engine.search_suggestions(query);
            assert!(!suggestions.is_empty() && suggestions.len() <= MAX_SUGGESTIONS, "{query}");
            for suggestion in suggestions {
                if suggestion.complete {
                    assert_eq!(suggestion.narrow, engine.parse_search(&suggestion.search), "{query}");
                } else {
                    // An operator waiting for its operand: the terms before it.
                    let (before, _) = suggestion.search.rsplit_once(' ').unwrap_or(("", ""));
                    assert_eq!(suggestion.narrow, engine.parse_search(before), "{query}");
                }
            }
        }
        let sender = &engine.search_suggestions("sender:ia")[0];
        assert_eq!(
            sender.narrow,
            vec![NarrowTerm { operator: "sender".into(), operand: json!(IAGO), negated: false }]
        );
    }
}
