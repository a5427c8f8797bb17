//! R, as Pygments' `SLexer` (`r`, `s`, `splus`) tokenizes it: a name before `(` is a
//! function; `TRUE`, `NULL`, `NA`... are constants.

use super::super::engine::{Grammar, State, r};
use super::super::token::Token::*;

pub(in super::super) static R: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[&[
            r(r"#.*$", CommentSingle),
            r(r"\s+", Whitespace),
            r("'", String).push(&["string_squote"]),
            r("\"", String).push(&["string_dquote"]),
            r(r"(?:NULL|NA(?:_(?:integer|real|complex|character)_)?|letters|LETTERS|Inf|TRUE|FALSE|NaN|pi|\.\.(?:\.|[0-9]+))", KeywordConstant)
                .not_before(r"[\w.]"),
            r(r"[TF]\b", NameBuiltinPseudo),
            r(r"(?:if|else|for|while|repeat|in|next|break|return|switch|function)", KeywordReserved).not_before(r"[\w.]"),
            r(r"(?:`[^`\\]*(?:\\.[^`\\]*)*`|(?:[a-zA-Z]|\.[A-Za-z_.])[\w.]*|\.)\s*", NameFunction).before(r"\("),
            r(r"`[^`\\]*(?:\\.[^`\\]*)*`|(?:[a-zA-Z]|\.[A-Za-z_.])[\w.]*|\.", Name),
            r(r"0[xX][a-fA-F0-9]+(?:[pP][0-9]+)?[Li]?", NumberHex),
            r(r"[+-]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+|\.)(?:[eE][+-]?[0-9]+)?[Li]?", Number),
            r(r"\[{1,2}|\]{1,2}|\(|\)|;|,", Punctuation),
            r(r"<<?-|->>?|-|==|<=|>=|\|>|<|>|&&?|!=|\|\|?|\?", Operator),
            r(r"\*|\+|\^|/|!|%[^%]*%|=|~|\$|@|:{1,3}", Operator),
            r(r"\{|\}", Punctuation),
            r(".", Text),
        ]],
    },
    State { name: "string_squote", rules: &[&[r(r"(?:[^'\\]|\\.)*'", String).pop()]] },
    State { name: "string_dquote", rules: &[&[r(r#"(?:[^"\\]|\\.)*""#, String).pop()]] },
]);
