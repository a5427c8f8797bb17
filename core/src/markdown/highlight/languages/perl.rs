//! Perl, as Pygments' `PerlLexer` (`perl`, `pl`) tokenizes it: sigils make variables,
//! `s///`, `m//` and `q` strings with any delimiter, heredocs, and Perl's builtin functions.

use std::ops::Range;

use super::super::engine::{Grammar, State, default, g, r};
use super::super::token::Token::*;

pub(in super::super) static PERL: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[&[
            r(r"\A#!.+?$", CommentHashbang),
            r(r"#.*?$", CommentSingle),
            r(r"(?s)^=[a-zA-Z0-9]+\s+.*?\n=cut", CommentMultiline),
            r(
                r"(?:case|continue|do|else|elsif|for|foreach|if|last|my|next|our|redo|reset|then|unless|until|while|print|new|BEGIN|CHECK|INIT|END|return)\b",
                Keyword,
            ),
            g(
                r"(format)(\s+)(\w+)(\s*)(=)(\s*\n)",
                &[Keyword, Whitespace, Name, Whitespace, Punctuation, Whitespace],
            )
            .push(&["format"]),
            r(r"(?:eq|lt|gt|le|ge|ne|not|and|or|cmp)\b", OperatorWord),
            r(r"(?s)s/(?:\\\\|\\[^\\]|[^\\/])*/(?:\\\\|\\[^\\]|[^\\/])*/[egimosx]*", StringRegex),
            r(r"(?s)s!(?:\\\\|\\!|[^!])*!(?:\\\\|\\!|[^!])*![egimosx]*", StringRegex),
            r(r"(?s)s\\(?:\\\\|[^\\])*\\(?:\\\\|[^\\])*\\[egimosx]*", StringRegex),
            r(r"(?s)s@(?:\\\\|\\[^\\]|[^\\@])*@(?:\\\\|\\[^\\]|[^\\@])*@[egimosx]*", StringRegex),
            r(r"(?s)s%(?:\\\\|\\[^\\]|[^\\%])*%(?:\\\\|\\[^\\]|[^\\%])*%[egimosx]*", StringRegex),
            r(r"(?s)s\{(?:\\\\|\\[^\\]|[^\\}])*\}\s*", StringRegex).push(&["balanced-regex"]),
            r(r"(?s)s<(?:\\\\|\\[^\\]|[^\\>])*>\s*", StringRegex).push(&["balanced-regex"]),
            r(r"(?s)s\[(?:\\\\|\\[^\\]|[^\\\]])*\]\s*", StringRegex).push(&["balanced-regex"]),
            r(r"(?s)s\((?:\\\\|\\[^\\]|[^\\)])*\)\s*", StringRegex).push(&["balanced-regex"]),
            r(r"m?/(?:\\\\|\\[^\\]|[^\\/\n])*/[gcimosx]*", StringRegex),
            r("m", StringRegex).before(r"[/!\\{<\[(@%$]").push(&["balanced-regex"]),
            r(r"(?s)\s*/(?:\\\\|\\[^\\]|[^\\/])*/[gcimosx]*", StringRegex).extended(after_match_operator),
            r(r"\s+", Whitespace),
            r(
                r"(?:abs|accept|alarm|atan2|bind|binmode|bless|caller|chdir|chmod|chomp|chop|chown|chr|chroot|close|closedir|connect|continue|cos|crypt|dbmclose|dbmopen|defined|delete|die|dump|each|endgrent|endhostent|endnetent|endprotoent|endpwent|endservent|eof|eval|exec|exists|exit|exp|fcntl|fileno|flock|fork|format|formline|getc|getgrent|getgrgid|getgrnam|gethostbyaddr|gethostbyname|gethostent|getlogin|getnetbyaddr|getnetbyname|getnetent|getpeername|getpgrp|getppid|getpriority|getprotobyname|getprotobynumber|getprotoent|getpwent|getpwnam|getpwuid|getservbyname|getservbyport|getservent|getsockname|getsockopt|glob|gmtime|goto|grep|hex|import|index|int|ioctl|join|keys|kill|last|lc|lcfirst|length|link|listen|local|localtime|log|lstat|map|mkdir|msgctl|msgget|msgrcv|msgsnd|my|next|oct|open|opendir|ord|our|pack|pipe|pop|pos|printf|prototype|push|quotemeta|rand|read|readdir|readline|readlink|readpipe|recv|redo|ref|rename|reverse|rewinddir|rindex|rmdir|scalar|seek|seekdir|select|semctl|semget|semop|send|setgrent|sethostent|setnetent|setpgrp|setpriority|setprotoent|setpwent|setservent|setsockopt|shift|shmctl|shmget|shmread|shmwrite|shutdown|sin|sleep|socket|socketpair|sort|splice|split|sprintf|sqrt|srand|stat|study|substr|symlink|syscall|sysopen|sysread|sysseek|system|syswrite|tell|telldir|tie|tied|time|times|tr|truncate|uc|ucfirst|umask|undef|unlink|unpack|unshift|untie|utime|values|vec|wait|waitpid|wantarray|warn|write)\b",
                NameBuiltin,
            ),
            r(r"(?:__(?:DATA|DIE|WARN)__|STD(?:IN|OUT|ERR))\b", NameBuiltinPseudo),
            g(
                r#"(?s)(<<)(['"]?)([a-zA-Z_]\w*)(['"]?;?\n.*\n)([a-zA-Z_]\w*)(\n)"#,
                &[String, String, StringDelimiter, String, StringDelimiter, Whitespace],
            )
            .extended(heredoc),
            r("__END__", CommentPreproc).push(&["end-part"]),
            r(r"\$\^[ADEFHILMOPSTWX]", NameVariableGlobal),
            r(r#"\$[\\"\[\]'&`+*.,;=%~?@$!<>(^|/-]"#, NameVariableGlobal).not_before(r"\w"),
            r("[$@%#]+", NameVariable).push(&["varname"]),
            r("0_?[0-7]+(?:_[0-7]+)*", NumberOct),
            r("0x[0-9A-Fa-f]+(?:_[0-9A-Fa-f]+)*", NumberHex),
            r("0b[01]+(?:_[01]+)*", NumberBin),
            r(r"(?i)(?:\d*(?:_\d*)*\.\d+(?:_\d*)*|\d+(?:_\d*)*\.\d+(?:_\d*)*)(?:e[+-]?\d+)?", NumberFloat),
            r(r"(?i)\d+(?:_\d*)*e[+-]?\d+(?:_\d*)*", NumberFloat),
            r(r"\d+(?:_\d+)*", NumberInteger),
            r(r"(?s)'(?:\\\\|\\[^\\]|[^'\\])*'", String),
            r(r#"(?s)"(?:\\\\|\\[^\\]|[^"\\])*""#, String),
            r(r"(?s)`(?:\\\\|\\[^\\]|[^`\\])*`", StringBacktick),
            r(r"<[^\s>]+>", StringRegex),
            r(r"(?:q|qq|qw|qr|qx)\{", StringOther).push(&["cb-string"]),
            r(r"(?:q|qq|qw|qr|qx)\(", StringOther).push(&["rb-string"]),
            r(r"(?:q|qq|qw|qr|qx)\[", StringOther).push(&["sb-string"]),
            r(r"(?:q|qq|qw|qr|qx)<", StringOther).push(&["lt-string"]),
            r(r"(?:q|qq|qw|qr|qx)[\W_]", StringOther).extended(quoted),
            g(r"(package)(\s+)([a-zA-Z_]\w*(?:::[a-zA-Z_]\w*)*)", &[Keyword, Whitespace, NameNamespace]),
            g(
                r"(use|require|no)(\s+)([a-zA-Z_]\w*(?:::[a-zA-Z_]\w*)*)",
                &[Keyword, Whitespace, NameNamespace],
            ),
            g(r"(sub)(\s+)", &[Keyword, Whitespace]).push(&["funcname"]),
            r(r"(?:no|package|require|use)\b", Keyword),
            r(r"\[\]|\*\*|::|<<|>>|>=|<=>|<=|={3}|!=|=~|!~|&&?|\|\||\.{1,3}", Operator),
            r(r"[-+/*%=<>&^|!\\~]=?", Operator),
            r(r"[()\[\]:;,<>/?{}]", Punctuation),
            default().before(r"\w").push(&["name"]),
        ]],
    },
    State {
        name: "balanced-regex",
        rules: &[&[
            r(r"(?s)/(?:\\\\|\\[^\\]|[^\\/])*/[egimosx]*", StringRegex).pop(),
            r(r"(?s)!(?:\\\\|\\[^\\]|[^\\!])*![egimosx]*", StringRegex).pop(),
            r(r"(?s)\\(?:\\\\|[^\\])*\\[egimosx]*", StringRegex).pop(),
            r(r"(?s)\{(?:\\\\|\\[^\\]|[^\\}])*\}[egimosx]*", StringRegex).pop(),
            r(r"(?s)<(?:\\\\|\\[^\\]|[^\\>])*>[egimosx]*", StringRegex).pop(),
            r(r"(?s)\[(?:\\\\|\\[^\\]|[^\\\]])*\][egimosx]*", StringRegex).pop(),
            r(r"(?s)\((?:\\\\|\\[^\\]|[^\\)])*\)[egimosx]*", StringRegex).pop(),
            r(r"(?s)@(?:\\\\|\\[^\\]|[^\\@])*@[egimosx]*", StringRegex).pop(),
            r(r"(?s)%(?:\\\\|\\[^\\]|[^\\%])*%[egimosx]*", StringRegex).pop(),
            r(r"(?s)\$(?:\\\\|\\[^\\]|[^\\$])*\$[egimosx]*", StringRegex).pop(),
        ]],
    },
    State { name: "format", rules: &[&[r(r"\.\n", StringInterpol).pop(), r(r"[^\n]*\n", StringInterpol)]] },
    State {
        name: "varname",
        rules: &[&[
            r(r"\s+", Whitespace),
            r(r"\{", Punctuation).pop(),
            r(r"\)|,", Punctuation).pop(),
            r(r"\w+::", NameNamespace),
            r(r"[\w:]+", NameVariable).pop(),
        ]],
    },
    State {
        name: "name",
        rules: &[&[
            r(r"[a-zA-Z_]\w*(?:::[a-zA-Z_]\w*)*(?:::)?", NameNamespace).before(r"\s*->").pop(),
            r(r"[a-zA-Z_]\w*(?:::[a-zA-Z_]\w*)*::", NameNamespace).pop(),
            r(r"[\w:]+", Name).pop(),
            default().pop(),
        ]],
    },
    State {
        name: "funcname",
        rules: &[&[
            r(r"[a-zA-Z_]\w*[!?]?", NameFunction),
            r(r"\s+", Whitespace),
            g(r"(\([$@%]*\))(\s*)", &[Punctuation, Whitespace]),
            r(";", Punctuation).pop(),
            r(r"(?s).*?\{", Punctuation).pop(),
        ]],
    },
    State {
        name: "cb-string",
        rules: &[&[
            r(r"\\[{}\\]", StringOther),
            r(r"\\", StringOther),
            r(r"\{", StringOther).push(&["cb-string"]),
            r(r"\}", StringOther).pop(),
            r(r"[^{}\\]+", StringOther),
        ]],
    },
    State {
        name: "rb-string",
        rules: &[&[
            r(r"\\[()\\]", StringOther),
            r(r"\\", StringOther),
            r(r"\(", StringOther).push(&["rb-string"]),
            r(r"\)", StringOther).pop(),
            r(r"[^()]+", StringOther),
        ]],
    },
    State {
        name: "sb-string",
        rules: &[&[
            r(r"\\[\[\]\\]", StringOther),
            r(r"\\", StringOther),
            r(r"\[", StringOther).push(&["sb-string"]),
            r(r"\]", StringOther).pop(),
            r(r"[^\[\]]+", StringOther),
        ]],
    },
    State {
        name: "lt-string",
        rules: &[&[
            r(r"\\[<>\\]", StringOther),
            r(r"\\", StringOther),
            r("<", StringOther).push(&["lt-string"]),
            r(">", StringOther).pop(),
            r("[^<>]+", StringOther),
        ]],
    },
    State { name: "end-part", rules: &[&[r(r"(?s).+", CommentPreproc).pop()]] },
]);

/// A `/` after `=~` or `(` begins a regular expression.
fn after_match_operator(text: &str, found: Range<usize>) -> Option<usize> {
    let before = &text[..found.start];
    (before.ends_with('(') || before.ends_with("=~")).then_some(found.end)
}

/// A `q` string runs to the next occurrence of its delimiter.
fn quoted(text: &str, opener: Range<usize>) -> Option<usize> {
    let delimiter = text[..opener.end].chars().next_back()?;
    text[opener.end..].find(delimiter).map(|i| opener.end + i + delimiter.len_utf8())
}

/// A heredoc: the line after `<<NAME;` up to the first line that is `NAME`.
fn heredoc(text: &str, found: Range<usize>) -> Option<usize> {
    let after = text[found.start + 2..].trim_start_matches(['"', '\'']);
    let name_len = after.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    let name = &after[..name_len];
    let body = found.start + text[found.start..].find('\n')? + 1;
    let mut line_start = body;
    while let Some(i) = text[line_start..].find('\n') {
        if &text[line_start..line_start + i] == name && line_start > body {
            return Some(line_start + i + 1);
        }
        line_start += i + 1;
    }
    None
}
