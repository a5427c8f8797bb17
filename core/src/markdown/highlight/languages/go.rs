//! Go, as Pygments' `GoLexer` (`go`, `golang`) tokenizes it: names are `Name.Other`, and
//! builtin functions are marked only when called.

use super::super::engine::{Grammar, State, g, r};
use super::super::token::Token::*;

pub(in super::super) static GO: Grammar = Grammar::new(&[State {
    name: "root",
    rules: &[&[
        r(r"\s+", Whitespace),
        g(r"(\\)(\n)", &[Text, Whitespace]),
        r(r"//.*?$", CommentSingle),
        r(r"/(?:\\\n)?[*][\s\S]*?[*](?:\\\n)?/", CommentMultiline),
        r(r"(?:import|package)\b", KeywordNamespace),
        r(r"(?:var|func|struct|type|interface|const)\b", KeywordDeclaration),
        r(
            r"(?:break|default|select|case|defer|go|else|goto|switch|fallthrough|if|range|continue|for|return)\b",
            Keyword,
        ),
        r(r"(?:true|false|iota|nil)\b", KeywordConstant),
        g(
            r"(print|println|panic|recover|close|complex|real|imag|len|cap|append|copy|delete|new|make|min|max|clear)\b(\()",
            &[NameBuiltin, Punctuation],
        ),
        r(
            r"(?:uint|uint8|uint16|uint32|uint64|int|int8|int16|int32|int64|float32|float64|map|chan|complex64|complex128|byte|rune|string|bool|error|uintptr|any|comparable)\b",
            KeywordType,
        ),
        r(r"\d+i", Number),
        r(r"\d+\.\d*(?:[Ee][-+]\d+)?i", Number),
        r(r"\.\d+(?:[Ee][-+]\d+)?i", Number),
        r(r"\d+[Ee][-+]\d+i", Number),
        r(r"\d+(?:\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)", NumberFloat),
        r(r"\.\d+(?:[eE][+\-]?\d+)?", NumberFloat),
        r(r"0[bB](?:_?[01])+", NumberBin),
        r(r"0[oO]?(?:_?[0-7])+", NumberOct),
        r(r"0[xX](?:_?[0-9a-fA-F])+", NumberHex),
        r(r"0|[1-9](?:_?[0-9])*", NumberInteger),
        r(
            r#"'(?:\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'"#,
            StringChar,
        ),
        r("`[^`]*`", String),
        r(r#""(?:\\\\|\\[^\\]|[^"\\])*""#, String),
        r(
            r"<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|\^=|&&|\|\||<-|\+\+|--|==|!=|:=|[+\-*/%&!=<>|^]",
            Operator,
        ),
        r(r"\.\.\.|[()\[\]{}.,;:~]", Punctuation),
        r(r"[^\W\d]\w*", NameOther),
    ]],
}]);
