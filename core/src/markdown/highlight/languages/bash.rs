//! Bash, as Pygments' `BashLexer` (`bash`, `sh`, `shell`, `zsh`) tokenizes it: words are plain
//! text, and only keywords, builtins, variables, strings and operators are marked.

use std::ops::Range;

use super::super::engine::{Grammar, Rule, State, g, r};
use super::super::token::Token::*;

pub(in super::super) static BASH: Grammar = Grammar::new(&[
    State { name: "root", rules: &[BASIC, BACKTICK, DATA, INTERP] },
    State {
        name: "string",
        rules: &[
            &[r("\"", StringDouble).pop(), r(r#"(?s)(?:\\\\|\\[0-7]+|\\.|[^"\\$])+"#, StringDouble)],
            INTERP,
        ],
    },
    State { name: "curly", rules: &[CURLY, BASIC, BACKTICK, DATA, INTERP] },
    State { name: "paren", rules: &[&[r(r"\)", Keyword).pop()], BASIC, BACKTICK, DATA, INTERP] },
    State { name: "math", rules: &[MATH, BASIC, BACKTICK, DATA, INTERP] },
    State { name: "backticks", rules: &[&[r("`", StringBacktick).pop()], BASIC, BACKTICK, DATA, INTERP] },
]);

static BACKTICK: &[Rule] = &[r("`", StringBacktick).push(&["backticks"])];

static INTERP: &[Rule] = &[
    r(r"\$\(\(", Keyword).push(&["math"]),
    r(r"\$\(", Keyword).push(&["paren"]),
    r(r"\$\{#?", StringInterpol).push(&["curly"]),
    r(r"\$[a-zA-Z_]\w*", NameVariable),
    r(r"\$(?:\d+|[#$?!_*@-])", NameVariable),
    r(r"\$", Text),
];

static BASIC: &[Rule] = &[
    r(r"\b(?:if|fi|else|while|in|done|do|for|then|return|function|case|select|break|continue|until|esac|elif)", Keyword)
        .not_before(r"[\w#$?!*@-]"),
    r(r"\b(?:alias|bg|bind|builtin|caller|cd|command|compgen|complete|declare|dirs|disown|echo|enable|eval|exec|exit|export|false|fc|fg|getopts|hash|help|history|jobs|kill|let|local|logout|popd|printf|pushd|pwd|readonly|read|set|shift|shopt|source|suspend|test|times|time|trap|true|typeset|type|ulimit|umask|unalias|unset|wait)", NameBuiltin)
        .before(r"[\s)`]"),
    r(r"\A#!.+\n", CommentHashbang),
    r(r"#.*\n", CommentSingle),
    r(r"\\[\w\W]", StringEscape),
    g(r"(\b\w+)(\s*)(\+?=)", &[NameVariable, Whitespace, Operator]),
    r(r"[\[\]{}()=]", Operator),
    r("<<<", Operator),
    r(r"<<-?\s*'?\\?\w+", String).extended(heredoc),
    r(r"&&|\|\|", Operator),
];

/// A heredoc runs to the first later occurrence of its word.
fn heredoc(text: &str, opener: Range<usize>) -> Option<usize> {
    let word_start = text[opener.clone()]
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(opener.start, |i| opener.start + i + 1);
    let word = &text[word_start..opener.end];
    let body = opener.end + text[opener.end..].chars().next()?.len_utf8();
    text[body..].find(word).map(|at| body + at + word.len())
}

static DATA: &[Rule] = &[
    r(r#"(?s)\$?"(?:\\.|[^"\\$])*""#, StringDouble),
    r("\"", StringDouble).push(&["string"]),
    r(r"(?s)\$'(?:\\\\|\\[0-7]+|\\.|[^'\\])*'", StringSingle),
    r(r"(?s)'.*?'", StringSingle),
    r(";", Punctuation),
    r("&", Punctuation),
    r(r"\|", Punctuation),
    r(r"\s+", Whitespace),
    r(r"\d+\b", Number),
    r(r#"[^=\s\[\]{}()$"'`\\<&|;]+"#, Text),
    r("<", Text),
];

static CURLY: &[Rule] = &[
    r(r"\}", StringInterpol).pop(),
    r(":-", Keyword),
    r(r"\w+", NameVariable),
    r(r#"[^}:"'`$\\]+"#, Punctuation),
    r(":", Punctuation),
];

static MATH: &[Rule] = &[
    r(r"\)\)", Keyword).pop(),
    r(r"\*\*|\|\||<<|>>|[-+*/%^|&<>]", Operator),
    r(r"\d+#[\da-zA-Z]+", Number),
    r(r"\d+#", Number).not_before(" "),
    r(r"0[xX][\da-fA-F]+", Number),
    r(r"\d+", Number),
    r(r"[a-zA-Z_]\w*", NameVariable),
];
