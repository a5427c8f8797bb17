//! User mentions (`@**Full Name**`, `@**Name|id**`, `@**|id**`, silent `@_**Name**`), the
//! wildcards (`@**all**`, `@**everyone**`, `@**channel**`, `@**stream**`, `@**topic**`) and
//! group mentions (`@*group*`, silent `@_*group*`).

use super::{Elem, Engine, Found, Stashed, mention_may_start};

const STREAM_WILDCARDS: &[&str] = &["all", "everyone", "stream", "channel"];

/// `@` `_`? `**` name `**` at byte `p`: (end, silent, name range).
fn user_mention_at(data: &str, p: usize) -> Option<(usize, bool, usize, usize)> {
    let silent = data[p + 1..].starts_with('_');
    let open = p + 1 + usize::from(silent);
    if !data[open..].starts_with("**") {
        return None;
    }
    let name = open + 2;
    let close = name + data[name..].find('*')?;
    (close > name && data[close..].starts_with("**")).then_some((close + 2, silent, name, close))
}

/// `@` `_`? `*` name `*` at byte `p`.
fn group_mention_at(data: &str, p: usize) -> Option<(usize, bool, usize, usize)> {
    let silent = data[p + 1..].starts_with('_');
    let open = p + 1 + usize::from(silent);
    if !data[open..].starts_with('*') {
        return None;
    }
    let name = open + 1;
    let close = name + data[name..].find('*')?;
    (close > name).then_some((close + 1, silent, name, close))
}

type Matcher = fn(&str, usize) -> Option<(usize, bool, usize, usize)>;

/// Successive non-overlapping matches, as Python's `finditer` yields them.
fn mentions(
    data: &str,
    from: usize,
    matcher: Matcher,
) -> impl Iterator<Item = (usize, usize, bool, usize, usize)> + '_ {
    let mut from = from;
    std::iter::from_fn(move || {
        while let Some(offset) = data.get(from..)?.find('@') {
            let p = from + offset;
            if mention_may_start(data, p)
                && let Some((end, silent, name, close)) = matcher(data, p)
            {
                from = end;
                return Some((p, end, silent, name, close));
            }
            from = p + 1;
        }
        None
    })
}

/// Zulip's quote cleaning: mentions inside a quote are made silent.
pub(crate) fn silence_mentions(line: &str) -> String {
    let rewrite = |text: &str, matcher: Matcher, stars: &str| {
        let mut out = String::with_capacity(text.len() + 4);
        let mut last = 0;
        for (start, end, _, name, close) in mentions(text, 0, matcher) {
            out.push_str(&text[last..start]);
            out.push_str("@_");
            out.push_str(stars);
            out.push_str(&text[name..close]);
            out.push_str(stars);
            last = end;
        }
        out.push_str(&text[last..]);
        out
    };
    let users = rewrite(line, user_mention_at, "**");
    rewrite(&users, group_mention_at, "*")
}

/// `(?P<full_name>.+)?\|(?P<user_id>\d+)$`: an optional name, then `|` and digits.
fn id_syntax(name: &str) -> Option<(Option<&str>, u64)> {
    let name = name.strip_suffix('\n').unwrap_or(name);
    let bar = name.rfind('|')?;
    let digits = &name[bar + 1..];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let full_name = &name[..bar];
    if full_name.contains('\n') {
        return None;
    }
    Some(((!full_name.is_empty()).then_some(full_name), digits.parse().ok()?))
}

impl Engine<'_> {
    pub(super) fn user_mention(&mut self, data: &str, from: usize) -> Option<Found> {
        for (start, end, mut silent, name_start, name_end) in mentions(data, from, user_mention_at) {
            let name = &data[name_start..name_end];
            let stream_wildcard = STREAM_WILDCARDS.contains(&name);
            let topic_wildcard = name == "topic";
            let user = match id_syntax(name) {
                Some((full_name, id)) => {
                    let user = self.ctx.user_by_id(id);
                    if let (Some(full_name), Some(user)) = (full_name, &user)
                        && user.full_name != full_name
                    {
                        continue;
                    }
                    user
                }
                None => {
                    let mut users = self.ctx.users_by_full_name(name);
                    if users.len() == 1 { users.pop() } else { None }
                }
            };
            let mut shown = name.to_owned();
            let mut user_id = None;
            if stream_wildcard {
                self.facts.stream_wildcard |= !silent;
                user_id = Some("*".to_owned());
            } else if topic_wildcard {
                self.facts.topic_wildcard |= !silent;
            } else if let Some(user) = user {
                silent |= !user.is_active;
                if !silent {
                    self.facts.mentioned_user_ids.insert(user.id);
                }
                shown = user.full_name;
                user_id = Some(user.id.to_string());
            } else {
                continue;
            }
            let mut class = if topic_wildcard {
                "topic-mention".to_owned()
            } else if stream_wildcard {
                "user-mention channel-wildcard-mention".to_owned()
            } else {
                "user-mention".to_owned()
            };
            let text = if silent {
                class.push_str(" silent");
                shown
            } else {
                format!("@{shown}")
            };
            let mut span = Elem::atomic("span", text).attr("class", class);
            if let Some(user_id) = user_id {
                span = span.attr("data-user-id", user_id);
            }
            return Some(Found::new(start, end, Stashed::Element(span)));
        }
        None
    }

    pub(super) fn group_mention(&mut self, data: &str, from: usize) -> Option<Found> {
        for (start, end, mut silent, name_start, name_end) in mentions(data, from, group_mention_at) {
            let Some(group) = self.ctx.group_by_name(&data[name_start..name_end]) else { continue };
            silent |= group.is_deactivated;
            if !silent {
                self.facts.mentioned_group_ids.insert(group.id);
                self.facts.mentioned_group_member_ids.extend(group.members.iter().copied());
            }
            let (class, text) = if silent {
                ("user-group-mention silent", group.name.clone())
            } else {
                ("user-group-mention", format!("@{}", group.name))
            };
            let span = Elem::atomic("span", text)
                .attr("class", class)
                .attr("data-user-group-id", group.id.to_string());
            return Some(Found::new(start, end, Stashed::Element(span)));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_mentions_are_silenced() {
        assert_eq!(silence_mentions("@**Ada** and @*team*"), "@_**Ada** and @_*team*");
        assert_eq!(silence_mentions("@_**Ada**"), "@_**Ada**");
        assert_eq!(silence_mentions("x@**Ada**"), "x@**Ada**");
        assert_eq!(silence_mentions("(@**Ada**)"), "(@_**Ada**)");
    }

    #[test]
    fn id_syntax_takes_the_last_bar() {
        assert_eq!(id_syntax("a|b|12"), Some((Some("a|b"), 12)));
        assert_eq!(id_syntax("|7"), Some((None, 7)));
        assert_eq!(id_syntax("Ada"), None);
        assert_eq!(id_syntax("Ada|x1"), None);
    }
}
