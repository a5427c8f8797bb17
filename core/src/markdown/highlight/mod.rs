//! Syntax highlighting as Zulip's server does it with Pygments: code is split into tokens of
//! Pygments' types, and each token becomes a `<span>` with Pygments' short CSS class (`k`,
//! `nf`, `s2`...), which Zulip's stylesheet colours.
//!
//! Each language is a grammar of our own (`languages/`), written to tokenize as the Pygments
//! lexer of the same name does (2.21, the version whose lexer names `data/lexers.rs` holds);
//! `cargo bench -p confab-tests --bench highlighting` measures how often they agree. Languages
//! without a grammar get no spans, as Zulip gives a language Pygments does not know.
//!
//! The HTML is that of Pygments' `HtmlFormatter`: per line, adjacent tokens of one class share
//! a span, plain text (`Text`) has none, and newlines are never inside a span.

mod engine;
mod languages;
mod token;

pub(crate) use token::Token;

/// The tokens of `code` in the language Pygments names `lexer_name`, as `(class, text)` pairs
/// covering the code plus a final newline (Pygments' `ensurenl`); `None` for a language
/// without a grammar.
pub(crate) fn tokens<'a>(lexer_name: &str, code: &'a str) -> Option<Vec<(Token, &'a str)>> {
    let grammar = languages::grammar(lexer_name)?;
    let mut spans = Vec::new();
    engine::lex(grammar, code, 0, &mut spans)?;
    Some(spans.into_iter().map(|(token, range)| (token, &code[range])).collect())
}

/// Appends the highlighted HTML of `code` (which ends with a newline) to `html`; `false`, with
/// nothing appended, for a language without a grammar.
pub(crate) fn highlight_into(html: &mut String, lexer_name: &str, code: &str, escape_quotes: bool) -> bool {
    let Some(tokens) = tokens(lexer_name, code) else { return false };
    let mut open: &str = "";
    for (token, text) in tokens {
        let class = token.class();
        for (i, part) in text.split('\n').enumerate() {
            if i > 0 {
                if !open.is_empty() {
                    html.push_str("</span>");
                    open = "";
                }
                html.push('\n');
            }
            if part.is_empty() {
                continue;
            }
            if class != open {
                if !open.is_empty() {
                    html.push_str("</span>");
                }
                if !class.is_empty() {
                    html.push_str("<span class=\"");
                    html.push_str(class);
                    html.push_str("\">");
                }
                open = class;
            }
            escape(html, part, escape_quotes);
        }
    }
    if !open.is_empty() {
        html.push_str("</span>");
    }
    true
}

/// Pygments' escaping; with a language, Zulip re-serializes the HTML through lxml, which
/// writes quotes as they are.
pub(crate) fn escape(html: &mut String, text: &str, escape_quotes: bool) {
    for c in text.chars() {
        match c {
            '&' => html.push_str("&amp;"),
            '<' => html.push_str("&lt;"),
            '>' => html.push_str("&gt;"),
            '"' if escape_quotes => html.push_str("&quot;"),
            '\'' if escape_quotes => html.push_str("&#39;"),
            _ => html.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn html(lexer: &str, code: &str, escape_quotes: bool) -> String {
        let mut html = String::new();
        assert!(highlight_into(&mut html, lexer, code, escape_quotes));
        html
    }

    /// Pygments' `HtmlFormatter`: a run of one class is one span, plain text has none, and a
    /// span never holds a newline.
    #[test]
    fn spans_are_pygments_html() {
        assert_eq!(
            html("Python", "def f() -> int:\n", false),
            "<span class=\"k\">def</span><span class=\"w\"> </span><span class=\"nf\">f</span>\
             <span class=\"p\">()</span> <span class=\"o\">-&gt;</span> <span class=\"nb\">int</span>\
             <span class=\"p\">:</span>\n"
        );
        assert_eq!(
            html("Python", "'''a\nb'''\n", true),
            "<span class=\"sd\">&#39;&#39;&#39;a</span>\n<span class=\"sd\">b&#39;&#39;&#39;</span>\n"
        );
        assert!(!highlight_into(&mut String::new(), "Text only", "x\n", false));
    }

    /// Markdown's fenced code is lexed in the fence's language, found by alias as Zulip finds
    /// a lexer; a language without a grammar is one string.
    #[test]
    fn fenced_code_in_markdown_takes_its_language() {
        let tokens = tokens("Markdown", "```py\nimport os\n```\n```nosuch\nx\n```\n").unwrap_or_default();
        assert!(tokens.contains(&(Token::KeywordNamespace, "import")));
        assert!(tokens.contains(&(Token::String, "x\n")));
    }

    #[test]
    fn every_grammar_compiles() {
        for (name, grammar) in languages::GRAMMARS {
            assert!(engine::lex(grammar, "x\n", 0, &mut Vec::new()).is_some(), "{name}");
        }
    }
}
