//! `content_html_diff`: the new rendering with Zulip's highlight spans around inserted and
//! deleted text (`highlight_text_inserted`, `highlight_text_deleted`). Tags are kept as they
//! are in the new rendering; only text is compared, word by word.

/// A piece of HTML: a tag (kept whole) or a run of text (a word or the spaces between words).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token<'a> {
    Tag(&'a str),
    Text(&'a str),
}

fn tokenize(html: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut rest = html;
    while !rest.is_empty() {
        if rest.starts_with('<') {
            let end = rest.find('>').map_or(rest.len(), |i| i + 1);
            tokens.push(Token::Tag(&rest[..end]));
            rest = &rest[end..];
            continue;
        }
        let text_end = rest.find('<').unwrap_or(rest.len());
        let mut text = &rest[..text_end];
        while !text.is_empty() {
            let space = text.starts_with(char::is_whitespace);
            let end = text.find(|c: char| c.is_whitespace() != space).unwrap_or(text.len());
            tokens.push(Token::Text(&text[..end]));
            text = &text[end..];
        }
        rest = &rest[text_end..];
    }
    tokens
}

/// Above this many token pairs the diff is not computed; the result marks everything as changed.
const MAX_DIFF_CELLS: usize = 4_000_000;

/// The new HTML with insertions and deletions relative to the old HTML highlighted.
pub fn highlight_html_differences(old: &str, new: &str) -> String {
    let (a, b) = (tokenize(old), tokenize(new));
    let mut out = String::with_capacity(new.len() + 64);
    if a.len().saturating_mul(b.len()) > MAX_DIFF_CELLS {
        push_span(&mut out, "highlight_text_deleted", a.iter());
        push_span(&mut out, "highlight_text_inserted", b.iter());
        return out;
    }
    // Longest common subsequence table, filled from the end.
    let width = b.len() + 1;
    let mut lcs = vec![0u32; (a.len() + 1) * width];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i * width + j] = if a[i] == b[j] {
                lcs[(i + 1) * width + j + 1] + 1
            } else {
                lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut deleted: Vec<&Token<'_>> = Vec::new();
    let mut inserted: Vec<&Token<'_>> = Vec::new();
    let flush = |out: &mut String, deleted: &mut Vec<&Token<'_>>, inserted: &mut Vec<&Token<'_>>| {
        push_span(out, "highlight_text_deleted", deleted.drain(..));
        push_span(out, "highlight_text_inserted", inserted.drain(..));
    };
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            flush(&mut out, &mut deleted, &mut inserted);
            push_token(&mut out, &b[j]);
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i * width + j + 1] >= lcs[(i + 1) * width + j]) {
            if let Token::Tag(tag) = b[j] {
                // Tags of the new rendering are structure: emit them in place.
                flush(&mut out, &mut deleted, &mut inserted);
                out.push_str(tag);
            } else {
                inserted.push(&b[j]);
            }
            j += 1;
        } else {
            if matches!(a[i], Token::Text(_)) {
                deleted.push(&a[i]);
            }
            i += 1;
        }
    }
    flush(&mut out, &mut deleted, &mut inserted);
    out
}

fn push_token(out: &mut String, token: &Token<'_>) {
    match token {
        Token::Tag(t) | Token::Text(t) => out.push_str(t),
    }
}

/// Wraps the text of `tokens` in a highlight span; whitespace-only runs stay unwrapped.
fn push_span<'t, 'a: 't>(out: &mut String, class: &str, tokens: impl Iterator<Item = &'t Token<'a>>) {
    let text: String = tokens
        .filter_map(|t| match t {
            Token::Text(text) => Some(*text),
            Token::Tag(_) => None,
        })
        .collect();
    if text.trim().is_empty() {
        out.push_str(&text);
    } else {
        out.push_str(&format!("<span class=\"{class}\">{text}</span>"));
    }
}

#[cfg(test)]
mod tests {
    use super::highlight_html_differences;

    #[test]
    fn marks_inserted_and_deleted_words() {
        assert_eq!(
            highlight_html_differences("<p>hello world</p>", "<p>hello brave world</p>"),
            "<p>hello <span class=\"highlight_text_inserted\">brave </span>world</p>"
        );
        assert_eq!(
            highlight_html_differences("<p>lunch at noon</p>", "<p>lunch at one</p>"),
            "<p>lunch at <span class=\"highlight_text_deleted\">noon</span><span class=\"highlight_text_inserted\">one</span></p>"
        );
        assert_eq!(highlight_html_differences("<p>same</p>", "<p>same</p>"), "<p>same</p>");
    }
}
