//! Ruby, as Pygments' `RubyLexer` (`ruby`, `rb`) tokenizes it: symbols, interpolated strings,
//! `%` literals, heredocs and regular expressions where an operand may start.
//!
//! Pygments decides some of these by looking behind the match, or by remembering the heredocs
//! a line opens; here functions given the whole text look back the same way: a heredoc's body
//! is found from the line before it.

use std::ops::Range;

use super::super::engine::{Grammar, Rule, State, default, g, r, using};
use super::super::token::Token::*;

pub(in super::super) static RUBY: Grammar = Grammar::new(&[
    State { name: "root", rules: &[ROOT, STRINGS, REST] },
    State {
        name: "funcname",
        rules: &[&[
            r(r"\(", Punctuation).push(&["defexpr"]),
            g(
                r"(?:([a-zA-Z_]\w*)(\.))?([a-zA-Z\x{80}-\x{ffff}][a-zA-Z0-9_\x{80}-\x{ffff}]*[!?=]?|!=|!~|=~|\*\*?|[-+!~]@?|[/%&|^]|<=>|<[<=]?|>[>=]?|===?|\[\]=?|`)",
                &[NameClass, Operator, NameFunction],
            )
            .pop(),
            default().pop(),
        ]],
    },
    State {
        name: "classname",
        rules: &[&[
            r(r"\(", Punctuation).push(&["defexpr"]),
            r("<<", Operator).pop(),
            r(r"[A-Z_]\w*", NameClass).pop(),
            default().pop(),
        ]],
    },
    State {
        name: "defexpr",
        rules: &[&[g(r"(\))(\.|::)?", &[Punctuation, Operator]).pop(), r(r"\(", Operator).push(&["defexpr"])], ROOT, STRINGS, REST],
    },
    State {
        name: "in-intp",
        rules: &[&[r(r"\{", StringInterpol).push(&["in-intp"]), r(r"\}", StringInterpol).pop()], ROOT, STRINGS, REST],
    },
    State { name: "simple-string-double", rules: &[INTERPOLATION, ESCAPE, &[r(r##"[^\\"#]+"##, StringDouble), r(r"[\\#]", StringDouble), r("\"", StringDouble).pop()]] },
    State { name: "simple-string-single", rules: &[INTERPOLATION, ESCAPE, &[r(r"[^\\'#]+", StringSingle), r(r"[\\#]", StringSingle), r("'", StringSingle).pop()]] },
    State { name: "simple-sym", rules: &[INTERPOLATION, ESCAPE, &[r(r##"[^\\"#]+"##, StringSymbol), r(r"[\\#]", StringSymbol), r("\"", StringSymbol).pop()]] },
    State { name: "simple-backtick", rules: &[INTERPOLATION, ESCAPE, &[r(r"[^\\`#]+", StringBacktick), r(r"[\\#]", StringBacktick), r("`", StringBacktick).pop()]] },
    State {
        name: "multiline-regex",
        rules: &[
            INTERPOLATION,
            &[
                r(r"\\\\", StringRegex),
                r(r"\\/", StringRegex),
                r(r"[\\#]", StringRegex),
                r(r"[^\\/#]+", StringRegex),
                r("/[mixounse]*", StringRegex).pop(),
            ],
        ],
    },
    State { name: "end-part", rules: &[&[r(r"(?s).+", CommentPreproc).pop()]] },
]);

/// The inside of an interpolating `%` literal (`%Q{...}`, `%W[...]`), found by
/// [`percent_literal`].
static PERCENT_STRING: Grammar = Grammar::new(&[
    State { name: "root", rules: &[INTERPOLATION, &[r(r"[\\#]", StringOther), r(r"[^\\#]+", StringOther)]] },
    State {
        name: "in-intp",
        rules: &[
            &[r(r"\{", StringInterpol).push(&["in-intp"]), r(r"\}", StringInterpol).pop()],
            ROOT,
            STRINGS,
            REST,
        ],
    },
    State { name: "funcname", rules: &[&[default().pop()]] },
    State { name: "classname", rules: &[&[default().pop()]] },
    State {
        name: "simple-string-double",
        rules: &[ESCAPE, &[r(r#"[^\\"]+"#, StringDouble), r("\"", StringDouble).pop()]],
    },
    State {
        name: "simple-string-single",
        rules: &[&[r(r"[^\\']+", StringSingle), r("'", StringSingle).pop()]],
    },
    State { name: "simple-sym", rules: &[&[r(r#"[^"]+"#, StringSymbol), r("\"", StringSymbol).pop()]] },
    State { name: "simple-backtick", rules: &[&[r(r"[^`]+", StringBacktick), r("`", StringBacktick).pop()]] },
    State {
        name: "multiline-regex",
        rules: &[&[r(r"[^/]+", StringRegex), r("/[mixounse]*", StringRegex).pop()]],
    },
    State { name: "defexpr", rules: &[&[r(r"\)", Punctuation).pop()], ROOT, STRINGS, REST] },
    State { name: "end-part", rules: &[&[r(r"(?s).+", CommentPreproc).pop()]] },
]);

static INTERPOLATION: &[Rule] = &[
    r(r"#\{", StringInterpol).push(&["in-intp"]),
    r(r"#@@?[a-zA-Z_]\w*", StringInterpol),
    r(r"#\$[a-zA-Z_]\w*", StringInterpol),
];

static ESCAPE: &[Rule] = &[r(r#"\\(?:[\\abefnrstv#"']|x[a-fA-F0-9]{1,2}|[0-7]{1,3})"#, StringEscape)];

static ROOT: &[Rule] = &[
    // A heredoc's body, after the line that opened it (tried only at a line's start or end:
    // the pattern runs to the text's end before the function finds the body's).
    g(r"(?ms)(?:^|$)(.*\n)?(.*)", &[StringHeredoc, StringDelimiter]).extended(heredoc_body),
    r(r"\A#!.+?$", CommentHashbang),
    r(r"#.*?$", CommentSingle),
    r(r"(?s)=begin\s.*?\n=end.*?$", CommentMultiline),
    r(
        r"(?:BEGIN|END|alias|begin|break|case|defined\?|do|else|elsif|end|ensure|for|if|in|next|redo|rescue|raise|retry|return|super|then|undef|unless|until|when|while|yield)\b",
        Keyword,
    ),
    g(r"(module)(\s+)([a-zA-Z_]\w*(?:::[a-zA-Z_]\w*)*)", &[Keyword, Whitespace, NameNamespace]),
    g(r"(def)(\s+)", &[Keyword, Whitespace]).push(&["funcname"]),
    r("def", Keyword).before(r"[*%&^`~+-/\[<>=]").push(&["funcname"]),
    g(r"(class)(\s+)", &[Keyword, Whitespace]).push(&["classname"]),
    r(
        r"(?:initialize|new|loop|include|extend|raise|attr_reader|attr_writer|attr_accessor|attr|catch|throw|private|module_function|public|protected|true|false|nil)\b",
        KeywordPseudo,
    ),
    r(r"(?:not|and|or)\b", OperatorWord),
    r(
        r"(?:autoload|block_given|const_defined|eql|equal|frozen|include|instance_of|is_a|iterator|kind_of|method_defined|nil|private_method_defined|protected_method_defined|public_method_defined|respond_to|tainted)\?",
        NameBuiltin,
    ),
    r(r"(?:chomp|chop|exit|gsub|sub)!", NameBuiltin),
    r(
        r"(?:Array|Float|Integer|String|__id__|__send__|abort|ancestors|at_exit|autoload|binding|callcc|caller|catch|chomp|chop|class_eval|class_variables|clone|const_defined\?|const_get|const_missing|const_set|constants|display|dup|eval|exec|exit|extend|fail|fork|format|freeze|getc|gets|global_variables|gsub|hash|id|included_modules|inspect|instance_eval|instance_method|instance_methods|instance_variable_get|instance_variable_set|instance_variables|lambda|load|local_variables|loop|method|method_missing|methods|module_eval|name|object_id|open|p|print|printf|private_class_method|private_instance_methods|private_methods|proc|protected_instance_methods|protected_methods|public_class_method|public_instance_methods|public_methods|putc|puts|raise|rand|readline|readlines|require|scan|select|self|send|set_trace_func|singleton_methods|sleep|split|sprintf|srand|sub|syscall|system|taint|test|throw|to_a|to_s|trace_var|trap|untaint|untrace_var|warn)\b",
        NameBuiltin,
    )
    .not_after("."),
    r(r"__(?:FILE|LINE)__\b", NameBuiltinPseudo),
    g(r#"(<<[-~]?)(["`']?)([a-zA-Z_]\w*)(["`']?)"#, &[Operator, StringHeredoc, StringDelimiter, StringHeredoc])
        .extended(heredoc_opener),
    r("__END__", CommentPreproc).push(&["end-part"]),
    g(r"(\s*)(/)", &[Text, StringRegex]).extended(regex_after_operator).push(&["multiline-regex"]),
    r("/", StringRegex).extended(regex_after_bracket).push(&["multiline-regex"]),
    g(r"(\s+)(/)", &[Whitespace, StringRegex]).not_before(r"[\s=]").push(&["multiline-regex"]),
    g(r"(0_?[0-7]+(?:_[0-7]+)*)(\s*)([/?])?", &[NumberOct, Whitespace, Operator]),
    g(r"(0x[0-9A-Fa-f]+(?:_[0-9A-Fa-f]+)*)(\s*)([/?])?", &[NumberHex, Whitespace, Operator]),
    g(r"(0b[01]+(?:_[01]+)*)(\s*)([/?])?", &[NumberBin, Whitespace, Operator]),
    g(r"([\d]+(?:_\d+)*)(\s*)([/?])?", &[NumberInteger, Whitespace, Operator]),
    r(r"@@[a-zA-Z_]\w*", NameVariableClass),
    r(r"@[a-zA-Z_]\w*", NameVariableInstance),
    r(r"\$\w+", NameVariableGlobal),
    r(r#"\$[!@&`'+~=/\\,;.<>_*$?:"^-]"#, NameVariableGlobal),
    r(r"\$-[0adFiIlpvw]", NameVariableGlobal),
    r("::", Operator),
];

static STRINGS: &[Rule] = &[
    r(r":@{0,2}[a-zA-Z_]\w*[!?]?", StringSymbol),
    r(r":@{0,2}(?:\[\]=|<=>|===|\[\]|\*\*|-@|\+@|<<|>>|<>|>=|==|[*\-+/%&|^`~<>])", StringSymbol),
    r(r":'(?:\\\\|\\[^\\]|[^'\\])*'", StringSymbol),
    r(r#":""#, StringSymbol).push(&["simple-sym"]),
    g(r"([a-zA-Z_]\w*)(:)", &[StringSymbol, Punctuation]).not_before(":"),
    r("\"", StringDouble).push(&["simple-string-double"]),
    r("'", StringSingle).push(&["simple-string-single"]),
    r("`", StringBacktick).not_after(".").push(&["simple-backtick"]),
    // `%` literals run to their closing bracket (nested brackets included).
    r(r"%[qsw][\[({<]", StringOther).extended(percent_literal),
    r(r"%r[\[({<]", StringRegex).extended(percent_literal),
    using(r"%[QWx]?[\[({<]", &PERCENT_STRING).extended(percent_literal),
];

static REST: &[Rule] = &[
    r(r#"\?(?:\\[MC]-)*(?:\\(?:[\\abefnrstv#"']|x[a-fA-F0-9]{1,2}|[0-7]{1,3})|\S)"#, StringChar)
        .not_before(r"\w"),
    r(r"[A-Z]\w+", NameConstant),
    g(r"(\.|::)(\[\]=|<=>|===|\[\]|\*\*|-@|\+@|<<|>>|<>|>=|==|[*\-+/%&|^`~<>])", &[Operator, Operator]),
    g(r"(\.|::)([a-zA-Z_]\w*[!?]?|[*%&^`~+\-/\[<>=])", &[Operator, Name]),
    r(r"[a-zA-Z_]\w*[!?]?", Name),
    r(r"\[|\]|\*\*|<<?|>>?|>=|<=|<=>|=~|={3}|!~|&&?|\|\||\.{1,3}", Operator),
    r(r"[-+/*%=<>&!^|~]=?", Operator),
    r(r"[(){};,/?:\\]", Punctuation),
    r(r"\s+", Whitespace),
];

/// A `%` literal's end: its closing bracket, counting nested pairs and skipping escapes.
fn percent_literal(text: &str, opener: Range<usize>) -> Option<usize> {
    let open = text[..opener.end].chars().next_back()?;
    let close = match open {
        '[' => ']',
        '(' => ')',
        '{' => '}',
        _ => '>',
    };
    let mut depth = 1;
    let mut chars = text[opener.end..].char_indices();
    while let Some((i, c)) = chars.next() {
        if c == '\\' {
            chars.next();
        } else if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                let end = opener.end + i + 1;
                // A regular expression's flags follow it.
                let flags =
                    text[end..].len() - text[end..].trim_start_matches(|c| "mixounse".contains(c)).len();
                return Some(if text[opener.clone()].starts_with("%r") { end + flags } else { end });
            }
        }
    }
    None
}

/// A heredoc's opener, unless `<<` follows a name or a closing bracket (a shift).
fn heredoc_opener(text: &str, found: Range<usize>) -> Option<usize> {
    let before = text[..found.start].chars().next_back();
    (!before.is_some_and(|c| c.is_alphanumeric() || c == '_' || ")]}".contains(c))).then_some(found.end)
}

/// At the end of a line that opens a heredoc (`<<~EOS`), or at the start of the next: the
/// body and the line that closes it.
fn heredoc_body(text: &str, found: Range<usize>) -> Option<usize> {
    let start = found.start;
    let (previous_end, body_start) = if text[start..].starts_with('\n') {
        (start, start + 1)
    } else if start > 0 && text.as_bytes()[start - 1] == b'\n' {
        (start - 1, start)
    } else {
        return None;
    };
    let previous = &text[text[..previous_end].rfind('\n').map_or(0, |i| i + 1)..previous_end];
    let at = previous.find("<<")?;
    let rest = &previous[at + 2..];
    let tolerant = rest.starts_with(['-', '~']);
    let rest = rest.trim_start_matches(['-', '~']).trim_start_matches(['"', '\'', '`']);
    let name_len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let name = &rest[..name_len];
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let mut line_start = body_start;
    while line_start < text.len() {
        let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i);
        let line = &text[line_start..line_end];
        let check = if tolerant { line.trim() } else { line.trim_end() };
        if check == name {
            return Some(line_end);
        }
        line_start = line_end + 1;
    }
    None
}

/// Whether a `/` may begin a regular expression after what precedes the match: a line's start,
/// an operator, or a keyword or method that takes one (`when`, `if`, `.gsub`...).
fn regex_after_operator(text: &str, found: Range<usize>) -> Option<usize> {
    let before = &text[..found.start];
    let line_start = before.is_empty() || before.ends_with('\n');
    let after_operator = before.ends_with(['=', '<', '>', '~', '!', ':']);
    let after_word = ["when", "or", "and", "if", "elsif"].iter().any(|word| {
        before.strip_suffix(|c: char| c.is_whitespace()).and_then(|b| b.strip_suffix(word)).is_some_and(|b| {
            b.is_empty() || b.ends_with('\n') || b.ends_with(|c: char| c.is_whitespace() || c == ';')
        })
    });
    let after_method = ["index", "scan", "sub", "sub!", "gsub", "gsub!", "match"].iter().any(|word| {
        before
            .strip_suffix(|c: char| c.is_whitespace())
            .and_then(|b| b.strip_suffix(word))
            .is_some_and(|b| b.is_empty() || b.ends_with(['.', '\n']))
    });
    (line_start || after_operator || after_word || after_method).then_some(found.end)
}

fn regex_after_bracket(text: &str, found: Range<usize>) -> Option<usize> {
    text[..found.start].ends_with(['(', ',', '[']).then_some(found.end)
}
