//! The lexer: a grammar is a set of named states, each an ordered list of rules; at each
//! position the first rule of the current state whose pattern matches there wins, as in a
//! Pygments `RegexLexer`, so grammars written to Pygments' tokenization come out the same.
//!
//! Patterns use the `regex` crate's syntax (Unicode `\w`, `\b`; `^` and `$` match at line
//! ends). It has no look-around, so a rule may carry one look-ahead of its own, checked where
//! its match ends. The rules of a state between two such rules are compiled into one
//! multi-pattern regex and matched anchored at the position: the earliest pattern that matches
//! wins, which is the rule order.

use std::ops::Range;
use std::sync::OnceLock;

use regex_automata::meta::Regex;
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input};

use super::token::Token;

/// A language: its states, the first of which is `root`.
pub(crate) struct Grammar {
    pub(crate) states: &'static [State],
    compiled: OnceLock<Option<Compiled>>,
}

impl Grammar {
    pub(crate) const fn new(states: &'static [State]) -> Grammar {
        Grammar { states, compiled: OnceLock::new() }
    }

    fn compiled(&self) -> Option<&Compiled> {
        self.compiled.get_or_init(|| Compiled::new(self)).as_ref()
    }
}

/// A named state and its rules, tried in order: lists of rules, so that states can share
/// some (Pygments' `include`).
pub(crate) struct State {
    pub(crate) name: &'static str,
    pub(crate) rules: &'static [&'static [Rule]],
}

/// What a matched rule produces.
#[derive(Clone, Copy)]
pub(crate) enum Action {
    /// The whole match is one token.
    Token(Token),
    /// Each capture group is a token of its own (Pygments' `bygroups`); groups that took part
    /// in no match produce nothing.
    Groups(&'static [Token]),
    /// The match is lexed by another grammar from its root (Pygments' `using`).
    Using(&'static Grammar),
    /// Each capture group is a token, or lexed by another grammar.
    GroupsUsing(&'static [Part]),
    /// Nothing: the rule only changes the state (Pygments' `default`).
    Nothing,
}

/// One capture group of a [`Action::GroupsUsing`] rule.
#[derive(Clone, Copy)]
pub(crate) enum Part {
    Token(Token),
    Using(&'static Grammar),
    /// Lexed by the grammar of the language that capture group `n` names (a fence's), or one
    /// `String` token when there is none (Pygments' Markdown lexer).
    Language(u8),
}

/// Where a matched rule leaves the state stack.
#[derive(Clone, Copy)]
pub(crate) enum Next {
    Stay,
    /// Pushes these states, the last on top.
    Push(&'static [&'static str]),
    /// Pops this many states (never the root).
    Pop(u8),
    /// Pops this many states, then pushes one.
    PopPush(u8, &'static str),
}

/// A pattern, what it produces and where it goes.
#[derive(Clone, Copy)]
pub(crate) struct Rule {
    pub(crate) pattern: &'static str,
    pub(crate) action: Action,
    pub(crate) next: Next,
    /// A pattern that must (or, negated, must not) match where the match ends.
    pub(crate) ahead: Option<(&'static str, bool)>,
    /// Characters the text must not have right before the match (a look-behind).
    pub(crate) not_after: &'static str,
    /// Moves the match's end (or refuses the match): for what a regex cannot say, such as a
    /// heredoc running to its own delimiter.
    pub(crate) extend: Option<Extend>,
}

/// Given the text and the pattern's match, the end of the whole match, or `None` for no match.
pub(crate) type Extend = fn(&str, Range<usize>) -> Option<usize>;

impl Rule {
    pub(crate) const fn push(mut self, states: &'static [&'static str]) -> Rule {
        self.next = Next::Push(states);
        self
    }

    pub(crate) const fn pop(mut self) -> Rule {
        self.next = Next::Pop(1);
        self
    }

    /// Pops `n` states.
    pub(crate) const fn pop_n(mut self, n: u8) -> Rule {
        self.next = Next::Pop(n);
        self
    }

    pub(crate) const fn pop_to(mut self, n: u8, state: &'static str) -> Rule {
        self.next = Next::PopPush(n, state);
        self
    }

    /// Matches only when the character before is none of `chars`.
    pub(crate) const fn not_after(mut self, chars: &'static str) -> Rule {
        self.not_after = chars;
        self
    }

    /// Lets `extend` move the end of the match, or refuse it.
    pub(crate) const fn extended(mut self, extend: Extend) -> Rule {
        self.extend = Some(extend);
        self
    }

    /// Matches only when `pattern` matches right after.
    pub(crate) const fn before(mut self, pattern: &'static str) -> Rule {
        self.ahead = Some((pattern, false));
        self
    }

    /// Matches only when `pattern` does not match right after.
    pub(crate) const fn not_before(mut self, pattern: &'static str) -> Rule {
        self.ahead = Some((pattern, true));
        self
    }
}

/// A rule making one token.
pub(crate) const fn r(pattern: &'static str, token: Token) -> Rule {
    Rule { pattern, action: Action::Token(token), next: Next::Stay, ahead: None, not_after: "", extend: None }
}

/// A rule making one token per capture group.
pub(crate) const fn g(pattern: &'static str, tokens: &'static [Token]) -> Rule {
    Rule {
        pattern,
        action: Action::Groups(tokens),
        next: Next::Stay,
        ahead: None,
        not_after: "",
        extend: None,
    }
}

/// A rule whose match another grammar lexes.
pub(crate) const fn using(pattern: &'static str, grammar: &'static Grammar) -> Rule {
    Rule {
        pattern,
        action: Action::Using(grammar),
        next: Next::Stay,
        ahead: None,
        not_after: "",
        extend: None,
    }
}

/// A rule whose groups are tokens or lexed by other grammars.
pub(crate) const fn parts(pattern: &'static str, parts: &'static [Part]) -> Rule {
    Rule {
        pattern,
        action: Action::GroupsUsing(parts),
        next: Next::Stay,
        ahead: None,
        not_after: "",
        extend: None,
    }
}

/// A rule that matches the empty string: only its state change applies.
pub(crate) const fn default() -> Rule {
    Rule { pattern: "", action: Action::Nothing, next: Next::Stay, ahead: None, not_after: "", extend: None }
}

/// A state's rules grouped for matching.
struct CompiledState {
    rules: Vec<Rule>,
    transitions: Vec<Transition>,
    segments: Vec<Segment>,
}

/// Consecutive rules matched by one regex; a rule with a look-ahead is a segment alone.
struct Segment {
    regex: Regex,
    first_rule: usize,
    ahead: Option<(Regex, bool)>,
    not_after: &'static str,
    extend: Option<Extend>,
}

/// A rule's next state, with state names resolved to indices.
#[derive(Clone)]
enum Transition {
    Stay,
    Push(Vec<usize>),
    Pop(usize),
    PopPush(usize, usize),
}

struct Compiled {
    states: Vec<CompiledState>,
}

fn anchored_regex(patterns: &[&str]) -> Option<Regex> {
    Regex::builder().syntax(syntax::Config::new().multi_line(true)).build_many(patterns).ok()
}

impl Compiled {
    fn new(grammar: &Grammar) -> Option<Compiled> {
        let index = |name: &str| grammar.states.iter().position(|s| s.name == name);
        let mut states = Vec::with_capacity(grammar.states.len());
        for state in grammar.states {
            let mut segments = Vec::new();
            let mut start = 0;
            let rules: Vec<Rule> = state.rules.iter().flat_map(|list| list.iter().copied()).collect();
            let mut i = 0;
            while i <= rules.len() {
                let boundary = i == rules.len()
                    || rules[i].ahead.is_some()
                    || !rules[i].not_after.is_empty()
                    || rules[i].extend.is_some();
                if boundary {
                    if start < i {
                        segments.push(Segment::new(&rules[start..i], start)?);
                    }
                    if i < rules.len() {
                        segments.push(Segment::new(&rules[i..=i], i)?);
                    }
                    start = i + 1;
                }
                i += 1;
            }
            let mut transitions = Vec::with_capacity(rules.len());
            for rule in &rules {
                transitions.push(match rule.next {
                    Next::Stay => Transition::Stay,
                    Next::Push(names) => {
                        Transition::Push(names.iter().map(|n| index(n)).collect::<Option<Vec<_>>>()?)
                    }
                    Next::Pop(n) => Transition::Pop(n as usize),
                    Next::PopPush(n, name) => Transition::PopPush(n as usize, index(name)?),
                });
            }
            states.push(CompiledState { rules, transitions, segments });
        }
        Some(Compiled { states })
    }
}

impl Segment {
    fn new(rules: &[Rule], first_rule: usize) -> Option<Segment> {
        let patterns: Vec<&str> = rules.iter().map(|r| r.pattern).collect();
        let regex = anchored_regex(&patterns)?;
        let ahead = match rules.first().and_then(|r| r.ahead) {
            Some((pattern, negated)) if rules.len() == 1 => Some((anchored_regex(&[pattern])?, negated)),
            _ => None,
        };
        let (not_after, extend) =
            if rules.len() == 1 { (rules[0].not_after, rules[0].extend) } else { ("", None) };
        Some(Segment { regex, first_rule, ahead, not_after, extend })
    }
}

/// One token: its type and its byte range in the text.
pub(crate) type Span = (Token, Range<usize>);

/// Deeper than this, pushes are ignored: a grammar's stack grows with nesting in the text.
const MAX_DEPTH: usize = 64;

/// Lexes `text` from the grammar's root state, appending tokens (with ranges offset by
/// `offset`) to `out`. `None` if the grammar does not compile, which a test rules out.
pub(crate) fn lex(grammar: &Grammar, text: &str, offset: usize, out: &mut Vec<Span>) -> Option<()> {
    let compiled = grammar.compiled()?;
    let mut stack = vec![0usize];
    let mut pos = 0;
    'text: while pos < text.len() {
        let state = *stack.last().unwrap_or(&0);
        let before = text[..pos].chars().next_back();
        let current = &compiled.states[state];
        for segment in &current.segments {
            if before.is_some_and(|c| segment.not_after.contains(c)) {
                continue;
            }
            let input = Input::new(text).range(pos..).anchored(Anchored::Yes);
            let Some(found) = segment.regex.search(&input) else { continue };
            let mut end = found.end();
            if let Some(extend) = segment.extend {
                match extend(text, pos..end) {
                    Some(extended) => end = extended,
                    None => continue,
                }
            }
            if let Some((ahead, negated)) = &segment.ahead {
                let after = Input::new(text).range(end..).anchored(Anchored::Yes);
                if ahead.is_match(after) == *negated {
                    continue;
                }
            }
            let rule_index = segment.first_rule + found.pattern().as_usize();
            let rule = &current.rules[rule_index];
            let transition = &current.transitions[rule_index];
            if end == pos && matches!(transition, Transition::Stay) {
                // An empty match that changes nothing would never advance.
                continue;
            }
            match rule.action {
                Action::Token(token) => push(out, token, offset + pos..offset + end),
                Action::Nothing => {}
                Action::Using(other) => lex(other, &text[pos..end], offset + pos, out)?,
                Action::Groups(_) | Action::GroupsUsing(_) => {
                    let mut caps = segment.regex.create_captures();
                    let input = Input::new(text).range(pos..end).anchored(Anchored::Yes);
                    segment.regex.search_captures(&input, &mut caps);
                    let groups = caps.group_len();
                    for group in 1..groups {
                        let Some(span) = caps.get_group(group) else { continue };
                        let part = match rule.action {
                            Action::Groups(tokens) => tokens.get(group - 1).map(|t| Part::Token(*t)),
                            Action::GroupsUsing(parts) => parts.get(group - 1).copied(),
                            _ => None,
                        };
                        match part {
                            Some(Part::Token(token)) => {
                                push(out, token, offset + span.start..offset + span.end)
                            }
                            Some(Part::Using(other)) => {
                                lex(other, &text[span.start..span.end], offset + span.start, out)?
                            }
                            Some(Part::Language(name_group)) => {
                                let name =
                                    caps.get_group(usize::from(name_group)).map_or("", |n| &text[n.range()]);
                                match super::languages::by_alias(name) {
                                    Some(other) => {
                                        lex(other, &text[span.start..span.end], offset + span.start, out)?
                                    }
                                    None => push(out, Token::String, offset + span.start..offset + span.end),
                                }
                            }
                            None => {}
                        }
                    }
                }
            }
            match transition {
                Transition::Stay => {}
                Transition::Push(states) => {
                    if stack.len() < MAX_DEPTH {
                        stack.extend(states);
                    }
                }
                Transition::Pop(n) => stack.truncate(stack.len().saturating_sub(*n).max(1)),
                Transition::PopPush(n, state) => {
                    stack.truncate(stack.len().saturating_sub(*n).max(1));
                    stack.push(*state);
                }
            }
            pos = end;
            continue 'text;
        }
        // No rule matched: a newline goes back to the root, anything else is an error.
        let len = text[pos..].chars().next().map_or(1, char::len_utf8);
        if text.as_bytes()[pos] == b'\n' {
            stack.truncate(1);
            push(out, Token::Whitespace, offset + pos..offset + pos + 1);
        } else {
            push(out, Token::Error, offset + pos..offset + pos + len);
        }
        pos += len;
    }
    Some(())
}

fn push(out: &mut Vec<Span>, token: Token, range: Range<usize>) {
    if !range.is_empty() {
        out.push((token, range));
    }
}
