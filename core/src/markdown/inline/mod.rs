//! Inline patterns, Python-Markdown style: the patterns run in Zulip's priority order over a
//! block's text; each match is replaced by a placeholder character standing for the node it
//! produced, so later patterns cannot match inside it. A node whose text is not atomic has its
//! text run through the patterns after the one that made it (so `**bold :smile:**` gets the
//! emoji, but `[**x**](url)` keeps its asterisks: link text is atomic). When every pattern has
//! run, the placeholders are expanded into tree nodes.
//!
//! Pattern order (Zulip's priorities): code spans, `***strong em***`, user mentions, `$$math$$`,
//! message links, topic links, channel links, `<time:…>`, group mentions, `[links](…)`, bare
//! URLs, linkifiers (in the organization's order), entities, `**strong**`, `*emphasis*`,
//! `~~strike~~`, lone `*`, `:emoji:`, line breaks, Unicode emoji.

mod audio;
mod autolink;
mod basic;
mod channel;
pub(crate) mod emoji;
mod link;
pub(crate) mod mention;
#[cfg(test)]
mod reference;
mod time;

use std::collections::BTreeSet;

pub(crate) use autolink::find_url;

use super::context::MarkdownContext;
use super::fence::HtmlStash;
use super::linkifier::CompiledLinkifier;
use super::tree::{Escape, Node, NodeId, Tree};
use super::url::{rewrite_local_links, sanitize_url};

/// First character of the private-use plane used for inline placeholders.
const PLACEHOLDER_BASE: u32 = 0xF_0000;
const PLACEHOLDER_LIMIT: usize = 0xFFFE;

pub(crate) fn is_placeholder(c: char) -> bool {
    (PLACEHOLDER_BASE..PLACEHOLDER_BASE + PLACEHOLDER_LIMIT as u32).contains(&(c as u32))
}

/// An inline element made by a pattern. Its text may hold placeholders of other nodes.
#[derive(Clone, Debug)]
pub(crate) struct Elem {
    pub(crate) tag: &'static str,
    pub(crate) attrs: Vec<(&'static str, String)>,
    pub(crate) text: String,
    /// Later patterns do not run on the text.
    pub(crate) atomic: bool,
    pub(crate) escape: Escape,
}

impl Elem {
    pub(crate) fn new(tag: &'static str, text: impl Into<String>) -> Elem {
        Elem { tag, attrs: Vec::new(), text: text.into(), atomic: false, escape: Escape::Text }
    }

    pub(crate) fn atomic(tag: &'static str, text: impl Into<String>) -> Elem {
        Elem { atomic: true, ..Elem::new(tag, text) }
    }

    pub(crate) fn attr(mut self, name: &'static str, value: impl Into<String>) -> Elem {
        self.attrs.push((name, value.into()));
        self
    }
}

/// What a placeholder stands for.
#[derive(Clone, Debug)]
pub(crate) enum Stashed {
    Element(Elem),
    /// Text kept as typed, out of reach of later patterns.
    Text(String),
    /// HTML written verbatim.
    Raw(String),
}

/// A match: the byte range it replaces and what replaces it.
pub(crate) struct Found {
    start: usize,
    end: usize,
    node: Stashed,
}

impl Found {
    pub(crate) fn new(start: usize, end: usize, node: Stashed) -> Found {
        Found { start, end, node }
    }
}

/// The facts inline patterns collect for the rendering result.
#[derive(Debug, Default)]
pub(crate) struct Facts {
    pub(crate) mentioned_user_ids: BTreeSet<u64>,
    pub(crate) mentioned_group_ids: BTreeSet<u64>,
    pub(crate) mentioned_group_member_ids: BTreeSet<u64>,
    pub(crate) stream_wildcard: bool,
    pub(crate) topic_wildcard: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pattern {
    Backtick,
    StrongEm,
    UserMention,
    Tex,
    MessageLink,
    TopicLink,
    ChannelLink,
    Timestamp,
    GroupMention,
    Link,
    AutoLink,
    Linkifier(usize),
    Entity,
    Strong,
    Emphasis,
    Del,
    NotStrong,
    Emoji,
    LineBreak,
    UnicodeEmoji,
}

impl Pattern {
    /// How a placeholder can let this pattern match before it, for patterns whose content
    /// may hold one (see `Engine::run_pattern`); `None` for the others.
    fn nesting(self) -> Option<Nesting> {
        let stars =
            |opening_len| Nesting { barriers: b"*^\n", openers: b"*", opening_len, closing_len: opening_len };
        match self {
            Pattern::Emphasis => Some(stars(1)),
            Pattern::StrongEm => Some(stars(3)),
            Pattern::Del => Some(Nesting { barriers: b"~\n", openers: b"~", opening_len: 2, closing_len: 2 }),
            Pattern::Tex => Some(Nesting { barriers: b"$\n", openers: b"$", opening_len: 2, closing_len: 2 }),
            // `@_**name**`, `@_*group*`, `#**channel>topic**`: names hold no `*`.
            Pattern::UserMention
            | Pattern::GroupMention
            | Pattern::ChannelLink
            | Pattern::TopicLink
            | Pattern::MessageLink => {
                Some(Nesting { barriers: b"*", openers: b"*", opening_len: 4, closing_len: 2 })
            }
            _ => None,
        }
    }
}

/// What bounds the matches of a nesting pattern: their content holds none of `barriers`, so a
/// match that contains a placeholder opens at most `opening_len` bytes before the last barrier
/// preceding it (which must be one of `openers`), and closes with up to `closing_len` bytes at
/// the first barrier after it.
struct Nesting {
    barriers: &'static [u8],
    openers: &'static [u8],
    opening_len: usize,
    closing_len: usize,
}

impl Nesting {
    fn barrier(&self, b: u8) -> bool {
        self.barriers.contains(&b)
    }

    fn opens(&self, b: u8) -> bool {
        self.openers.contains(&b)
    }

    /// The end of the text a match holding the placeholder before `from` can read: its closing
    /// and one character after it. Math reads `\$` as an escape, so it looks past those.
    fn reach(&self, data: &str, from: usize) -> usize {
        let bytes = data.as_bytes();
        let mut i = from;
        while i < bytes.len() {
            if bytes[i] == b'\\' && self.openers == b"$" && bytes.get(i + 1) == Some(&b'$') {
                i += 2;
            } else if self.barrier(bytes[i]) {
                return (i + self.closing_len + 4).min(bytes.len());
            } else {
                i += 1;
            }
        }
        bytes.len()
    }
}

/// What a pass over a text for one pattern left.
enum Pass {
    /// The text with every match replaced.
    Done(String),
    /// The text so far, to be searched again from its start.
    Again(String),
}

/// Overwrites a match's source in a pass's copy of the text (see `Engine::run_pattern`).
fn fill_consumed(data: &mut String, start: usize, end: usize) {
    data.replace_range(start..end, &"\x01".repeat(end - start));
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

pub(crate) struct Engine<'a> {
    pub(crate) ctx: &'a dyn MarkdownContext,
    pub(crate) realm_url: &'a str,
    linkifiers: &'a [CompiledLinkifier],
    html: &'a HtmlStash,
    patterns: Vec<Pattern>,
    stash: Vec<Stashed>,
    pub(crate) facts: Facts,
}

impl<'a> Engine<'a> {
    pub(crate) fn new(
        ctx: &'a dyn MarkdownContext,
        linkifiers: &'a [CompiledLinkifier],
        html: &'a HtmlStash,
    ) -> Engine<'a> {
        use Pattern::*;
        let mut patterns = vec![
            Backtick,
            StrongEm,
            UserMention,
            Tex,
            MessageLink,
            TopicLink,
            ChannelLink,
            Timestamp,
            GroupMention,
            Link,
            AutoLink,
        ];
        patterns.extend((0..linkifiers.len()).map(Linkifier));
        patterns.extend([Entity, Strong, Emphasis, Del, NotStrong, Emoji, LineBreak, UnicodeEmoji]);
        Engine {
            ctx,
            realm_url: ctx.realm_url().trim_end_matches('/'),
            linkifiers,
            html,
            patterns,
            stash: Vec::new(),
            facts: Facts::default(),
        }
    }

    /// Runs every inline pattern over the texts and tails of the block tree and expands the
    /// results into nodes.
    pub(crate) fn run(&mut self, tree: &mut Tree) {
        let mut jobs = Vec::new();
        for id in 0..tree.nodes.len() {
            let node = &tree.nodes[id];
            if node.parent.is_none() && id != super::tree::ROOT {
                continue;
            }
            if !node.atomic && !node.text.is_empty() && matches!(node.kind, super::tree::Kind::Element(_)) {
                jobs.push((id, true));
            }
            if !node.tail.is_empty() && id != super::tree::ROOT {
                jobs.push((id, false));
            }
        }
        for (id, is_text) in jobs {
            if is_text {
                let text = std::mem::take(&mut tree.nodes[id].text);
                let processed = self.handle(text, 0);
                let (lead, nodes) = self.materialize(tree, &processed);
                tree.nodes[id].text = lead;
                for (i, child) in nodes.into_iter().enumerate() {
                    tree.insert(id, i, child);
                }
            } else {
                let tail = std::mem::take(&mut tree.nodes[id].tail);
                let processed = self.handle(tail, 0);
                let (lead, nodes) = self.materialize(tree, &processed);
                tree.nodes[id].tail = lead;
                if let (Some(parent), Some(at)) = (tree.nodes[id].parent, tree.index_in_parent(id)) {
                    for (i, child) in nodes.into_iter().enumerate() {
                        tree.insert(parent, at + 1 + i, child);
                    }
                }
            }
        }
    }

    /// Applies the patterns from `first` on, each as often as it matches.
    fn handle(&mut self, text: String, first: usize) -> String {
        #[cfg(test)]
        if reference::enabled() {
            return self.handle_reference(text, first);
        }
        let mut data = text;
        for index in first..self.patterns.len() {
            if self.stash.len() >= PLACEHOLDER_LIMIT {
                break;
            }
            data = self.run_pattern(index, data);
        }
        data
    }

    /// Applies one pattern as often as it matches, in one pass over the text.
    ///
    /// Python-Markdown replaces a match by its placeholder and searches again from the start of
    /// the text, which is quadratic in the number of matches. The result is the same if the
    /// search goes on after the placeholder, except where a placeholder lets a match start
    /// before it (`*a *b* c*`): only nesting patterns can, and only from their last opening
    /// before it (their content cannot hold the characters `Nesting::barrier` names), so after
    /// each match those look back that far, over a text that ends where such a match must end.
    /// Each placeholder's source is overwritten with `\x01` in the pass's copy, so a search
    /// that resumes after it sees, in the character before, what it would see in the
    /// placeholder: neither a space nor a word character nor punctuation.
    fn run_pattern(&mut self, index: usize, mut data: String) -> String {
        loop {
            match self.pass(index, data) {
                Pass::Done(text) => return text,
                Pass::Again(text) => data = text,
            }
        }
    }

    /// One pass of `run_pattern`. A code span that starts inside a run of backticks (after a
    /// `\\` escape) leaves the rest of the run before it as a shorter run that an earlier
    /// opening may close on: the text is then searched again from its start.
    fn pass(&mut self, index: usize, mut data: String) -> Pass {
        let pattern = self.patterns[index];
        let code_spans = (pattern == Pattern::Backtick).then(|| basic::CodeSpans::new(&data));
        let nesting = pattern.nesting();
        let mut out = String::with_capacity(data.len());
        // Where the barrier characters are in `out`.
        let mut barriers: Vec<usize> = Vec::new();
        let mut pos = 0;
        'matches: while self.stash.len() < PLACEHOLDER_LIMIT {
            let Some(found) = self.find(index, &data, pos, code_spans.as_ref()) else { break };
            let Found { start, end, node } = found;
            let Some(placeholder) = self.placeholder(index, &data[start..end], node) else { break };
            if let Some(nesting) = &nesting {
                barriers.extend(
                    data[pos..start]
                        .bytes()
                        .enumerate()
                        .filter(|(_, b)| nesting.barrier(*b))
                        .map(|(i, _)| out.len() + i),
                );
            }
            out.push_str(&data[pos..start]);
            out.push(placeholder);
            if pattern == Pattern::Backtick && out[..out.len() - placeholder.len_utf8()].ends_with('`') {
                out.push_str(&data[end..]);
                return Pass::Again(out);
            }
            fill_consumed(&mut data, start, end);
            pos = end;
            let Some(nesting) = &nesting else { continue };
            // Matches that the placeholder lets start before it, innermost first.
            while let Some(&barrier) = barriers.last() {
                if !nesting.opens(out.as_bytes()[barrier]) {
                    break;
                }
                let open_min = floor_char_boundary(&out, barrier.saturating_sub(nesting.opening_len - 1));
                let window_start = if open_min == 0 { 0 } else { floor_char_boundary(&out, open_min - 1) };
                let reach = ceil_char_boundary(&data, nesting.reach(&data, pos));
                let mut window = String::with_capacity(out.len() - window_start + reach - pos);
                window.push_str(&out[window_start..]);
                let resumed_at = window.len();
                window.push_str(&data[pos..reach]);
                let Some(found) = self.find(index, &window, open_min - window_start, None) else { break };
                if found.start >= resumed_at || found.end < resumed_at {
                    break;
                }
                let Found { start, end, node } = found;
                let Some(placeholder) = self.placeholder(index, &window[start..end], node) else {
                    break 'matches;
                };
                out.truncate(window_start + start);
                while barriers.last().is_some_and(|b| *b >= out.len()) {
                    barriers.pop();
                }
                out.push(placeholder);
                let consumed = end - resumed_at;
                fill_consumed(&mut data, pos, pos + consumed);
                pos += consumed;
            }
        }
        out.push_str(&data[pos..]);
        Pass::Done(out)
    }

    /// The first match of a pattern starting at or after byte `from`.
    fn find(
        &mut self,
        index: usize,
        data: &str,
        from: usize,
        code_spans: Option<&basic::CodeSpans>,
    ) -> Option<Found> {
        match self.patterns[index] {
            Pattern::Backtick => match code_spans {
                Some(spans) => spans.find(data, from),
                None => basic::CodeSpans::new(data).find(data, from),
            },
            Pattern::StrongEm => self.strong_em(data, from, index),
            Pattern::UserMention => self.user_mention(data, from),
            Pattern::Tex => basic::tex(data, from, self.ctx.math_renderer()),
            Pattern::MessageLink => self.message_link(data, from),
            Pattern::TopicLink => self.topic_link(data, from),
            Pattern::ChannelLink => self.channel_link(data, from),
            Pattern::Timestamp => time::timestamp(data, from),
            Pattern::GroupMention => self.group_mention(data, from),
            Pattern::Link => self.link(data, from),
            Pattern::AutoLink => self.autolink(data, from),
            Pattern::Linkifier(i) => self.linkifier(data, from, i),
            Pattern::Entity => basic::entity(data, from),
            Pattern::Strong => basic::strong(data, from),
            Pattern::Emphasis => basic::emphasis(data, from),
            Pattern::Del => basic::del(data, from),
            Pattern::NotStrong => basic::not_strong(data, from),
            Pattern::Emoji => self.emoji(data, from),
            Pattern::LineBreak => basic::line_break(data, from),
            Pattern::UnicodeEmoji => emoji::unicode_emoji(data, from),
        }
    }

    /// The placeholder for a match of `source`: its node stashed, its text run through the
    /// later patterns first. `None` ends the pattern: a match made only of placeholders would
    /// be replaced by a placeholder forever, and a full stash takes no more.
    fn placeholder(&mut self, index: usize, source: &str, mut node: Stashed) -> Option<char> {
        if source.chars().all(|c| is_placeholder(c) || HtmlStash::is_marker(c)) {
            return None;
        }
        if let Stashed::Element(elem) = &mut node
            && !elem.atomic
        {
            elem.text = self.handle(std::mem::take(&mut elem.text), index + 1);
        }
        self.stash_node(node)
    }

    /// Stores a node and returns its placeholder (none when the stash is full).
    pub(crate) fn stash_node(&mut self, node: Stashed) -> Option<char> {
        if self.stash.len() >= PLACEHOLDER_LIMIT {
            return None;
        }
        let c = char::from_u32(PLACEHOLDER_BASE + self.stash.len() as u32)?;
        self.stash.push(node);
        Some(c)
    }

    /// The text content of a string with placeholders (Python-Markdown's `unescape`).
    pub(crate) fn plain_text(&self, text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            if is_placeholder(c) {
                match self.stash.get((c as u32 - PLACEHOLDER_BASE) as usize) {
                    Some(Stashed::Text(s)) => out.push_str(s),
                    Some(Stashed::Element(e)) => out.push_str(&self.plain_text(&e.text)),
                    Some(Stashed::Raw(_)) | None => {}
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    /// Turns a string with placeholders into its leading text and the nodes after it (each node's
    /// tail holds the text that follows it).
    fn materialize(&mut self, tree: &mut Tree, text: &str) -> (String, Vec<NodeId>) {
        let mut lead = String::new();
        let mut nodes: Vec<NodeId> = Vec::new();
        let mut push_text = |tree: &mut Tree, nodes: &[NodeId], s: &str| match nodes.last() {
            Some(last) => tree.nodes[*last].tail.push_str(s),
            None => lead.push_str(s),
        };
        for c in text.chars() {
            if is_placeholder(c) {
                let index = (c as u32 - PLACEHOLDER_BASE) as usize;
                let Some(entry) = self.stash.get_mut(index) else { continue };
                match std::mem::replace(entry, Stashed::Text(String::new())) {
                    Stashed::Text(s) => push_text(tree, &nodes, &s),
                    Stashed::Raw(html) => nodes.push(tree.add(Node::raw(html))),
                    Stashed::Element(elem) => {
                        let id = tree.add(Node {
                            attrs: elem.attrs,
                            atomic: true,
                            escape: elem.escape,
                            ..Node::element(elem.tag)
                        });
                        let (inner_lead, inner) = self.materialize(tree, &elem.text);
                        tree.nodes[id].text = inner_lead;
                        for (i, child) in inner.into_iter().enumerate() {
                            tree.insert(id, i, child);
                        }
                        nodes.push(id);
                    }
                }
            } else if HtmlStash::is_marker(c) {
                let html = self.html.get(c).unwrap_or_default().to_owned();
                nodes.push(tree.add(Node::raw(html)));
            } else {
                let mut buf = [0u8; 4];
                push_text(tree, &nodes, c.encode_utf8(&mut buf));
            }
        }
        (lead, nodes)
    }

    /// A linkifier: the first match at or after byte `from` whose URL is safe links the
    /// matched text.
    fn linkifier(&mut self, data: &str, from: usize, index: usize) -> Option<Found> {
        let linkifier = self.linkifiers.get(index)?;
        let mut at = from;
        while let Some(captures) = linkifier.regex.captures_at(data, at) {
            let whole = captures.get(0)?;
            at = if whole.end() > whole.start() { whole.end() } else { whole.end() + 1 };
            if at > data.len() {
                break;
            }
            at = ceil_char_boundary(data, at);
            let Some((start, end)) = CompiledLinkifier::actual(&captures) else { continue };
            if start == end {
                continue;
            }
            let Some(url) = linkifier.url(&captures) else { continue };
            let Some(a) = self.url_to_a(&url, data[start..end].to_owned()) else { continue };
            return Some(Found::new(start, end, Stashed::Element(a)));
        }
        None
    }

    /// Zulip's `url_to_a`: a link to a sanitized URL, or `None` for an unsafe one.
    pub(crate) fn url_to_a(&self, url: &str, text: String) -> Option<Elem> {
        let href = rewrite_local_links(self.realm_url, sanitize_url(url)?);
        Some(Elem::atomic("a", text).attr("href", href))
    }
}

/// The character before byte `pos`.
pub(crate) fn char_before(data: &str, pos: usize) -> Option<char> {
    data[..pos].chars().next_back()
}

/// Python's `\s` (`str.isspace`).
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `\w`.
pub(crate) fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Zulip's `BEFORE_MENTION_ALLOWED_REGEX`: mentions and channel links start a string, follow
/// whitespace, or follow one of `'"({[/<`.
pub(crate) fn mention_may_start(data: &str, pos: usize) -> bool {
    char_before(data, pos).is_none_or(|c| is_space(c) || "'\"({[/<".contains(c))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::reference::with_reference;
    use crate::markdown::{
        Linkifier, MentionGroup, MentionStream, MentionUser, OrganizationSnapshot, render,
    };

    fn organization() -> OrganizationSnapshot {
        OrganizationSnapshot {
            users: vec![MentionUser {
                id: 10,
                full_name: "a".into(),
                email: "a@example.com".into(),
                is_active: true,
            }],
            groups: vec![MentionGroup { id: 5, name: "b".into(), members: vec![10], is_deactivated: false }],
            streams: vec![MentionStream { id: 1, name: "a".into() }],
            linkifiers: vec![Linkifier {
                id: 1,
                pattern: "#(?P<id>[0-9a]+)".into(),
                url_template: "https://t.example/{id}".into(),
            }],
            realm_url: "https://chat.example.com".into(),
            ..OrganizationSnapshot::default()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// The one-pass engine renders exactly what searching again from the start after each
        /// match renders, on texts dense in the characters patterns start and end with.
        #[test]
        fn one_pass_renders_as_python_markdown_searches(
            text in proptest::collection::vec(
                prop_oneof![
                    Just("*"), Just("**"), Just("***"), Just("~~"), Just("~"), Just("$$"), Just("$"),
                    Just("`"), Just("``"), Just("\\"), Just("["), Just("]"), Just("("), Just(")"),
                    Just("@"), Just("@_"), Just("#"), Just(">"), Just("<time:"), Just("2024-01-01"),
                    Just(":"), Just("smile"), Just("a"), Just("b"), Just(" "), Just("\n"), Just("&amp;"),
                    Just("http://x.com"), Just("^"), Just("_"), Just("#1"), Just("é"),
                ],
                0..40,
            ).prop_map(|parts| parts.concat())
        ) {
            let organization = organization();
            let fast = render(&text, &organization);
            let reference = with_reference(|| render(&text, &organization));
            prop_assert_eq!(fast, reference);
        }
    }
}
