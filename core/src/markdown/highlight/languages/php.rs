//! PHP, as Pygments' `PhpLexer` (`php`) tokenizes it for Zulip, which starts it inside PHP
//! code (`startinline`): names are `Name.Other`, variables `Name.Variable`, and names of
//! PHP's functions are builtins.
//!
//! Pygments knows 3,255 builtin functions (15 KB gzipped as a list); here only those of the
//! modules code pasted in chat mostly calls (arrays, strings, JSON, maths, variables, regular
//! expressions, classes, functions, passwords, URLs), 1.3 KB. Other builtins are names.

use super::super::engine::{Grammar, Part, Rule, State, default, g, parts, r};
use super::super::token::Token::*;

pub(in super::super) static PHP: Grammar = Grammar::new(&[
    State { name: "root", rules: &[&[default().push(&["php"])]] },
    State {
        name: "html",
        rules: &[&[r(r"<\?(?:php)?", CommentPreproc).push(&["php"]), r("[^<]+", Other), r("<", Other)]],
    },
    State { name: "php", rules: &[&[r(r"\?>", CommentPreproc).push(&["html"])], PHP_RULES] },
    State { name: "variablevariable", rules: &[&[r(r"\}", NameVariable).pop()], PHP_RULES] },
    State { name: "classname", rules: &[&[r(IDENT, NameClass).pop()]] },
    State {
        name: "functionname",
        rules: &[&[r(MAGIC_FUNCTIONS, NameFunctionMagic), r(IDENT, NameFunction).pop(), default().pop()]],
    },
    State {
        name: "string",
        rules: &[&[
            r("\"", StringDouble).pop(),
            r(r#"[^{$"\\]+"#, StringDouble),
            r(r#"(?i)\\(?:[nrt"$\\]|[0-7]{1,3}|x[0-9a-f]{1,2})"#, StringEscape),
            r(
                r"(?i)\$(?:[_a-z]|[^\x00-\x7f])(?:\w|[^\x00-\x7f])*(?:\[\S+?\]|->(?:[_a-z]|[^\x00-\x7f])(?:\w|[^\x00-\x7f])*)?",
                StringInterpol,
            ),
            parts(r"(?s)(\{\$\{)(.*?)(\}\})", INTERPOLATION),
            parts(r"(?s)(\{)(\$.*?)(\})", INTERPOLATION),
            g(r"(\$\{)(\S+)(\})", &[StringInterpol, NameVariable, StringInterpol]),
            r(r"[${\\]", StringDouble),
        ]],
    },
    State {
        name: "attribute",
        rules: &[
            &[
                r(r"\]", Punctuation).pop(),
                r(r"\(", Punctuation).push(&["attributeparams"]),
                r(IDENT, NameDecorator),
            ],
            PHP_RULES,
        ],
    },
    State { name: "attributeparams", rules: &[&[r(r"\)", Punctuation).pop()], PHP_RULES] },
]);

static INTERPOLATION: &[Part] =
    &[Part::Token(StringInterpol), Part::Using(&PHP), Part::Token(StringInterpol)];

/// A name, which may be qualified by a namespace (`\App\Order`).
const IDENT: &str = r"(?i)(?:[\\_a-z]|[^\x00-\x7f])(?:[\\\w]|[^\x00-\x7f])*";

const MAGIC_FUNCTIONS: &str = r"(?i)(?:__construct|__destruct|__call|__callStatic|__get|__set|__isset|__unset|__sleep|__wakeup|__toString|__invoke|__set_state|__clone|__debugInfo)\b";

static PHP_RULES: &[Rule] = &[
    g(
        r#"(?is)(<<<)(['"]?)((?:[_a-z]|[^\x00-\x7f])(?:\w|[^\x00-\x7f])*)(['"]?\n.*?\n\s*)(\w+)(;?)(\n)"#,
        &[String, String, StringDelimiter, String, StringDelimiter, Punctuation, Text],
    ),
    r(r"\s+", Text),
    r(r"#\[", Punctuation).push(&["attribute"]),
    r(r"#.*?\n", CommentSingle),
    r(r"//.*?\n", CommentSingle),
    r(r"/\*\*/", CommentMultiline),
    r(r"(?s)/\*\*.*?\*/", StringDoc),
    r(r"(?s)/\*.*?\*/", CommentMultiline),
    g(r"(?i)(->|::)(\s*)((?:[_a-z]|[^\x00-\x7f])(?:\w|[^\x00-\x7f])*)", &[Operator, Text, NameAttribute]),
    r(r"[~!%^&*+=|:.<>/@-]+", Operator),
    r(r"\?", Operator),
    r(r"[\[\]{}();,]+", Punctuation),
    g(r"(?i)(new)(\s+)(class)\b", &[Keyword, Text, Keyword]),
    g(r"(?i)(class)(\s+)", &[Keyword, Text]).push(&["classname"]),
    g(r"(?i)(function)(\s*)", &[Keyword, Text]).before(r"\("),
    g(r"(?i)(function)(\s+)(&?)(\s*)", &[Keyword, Text, Operator, Text]).push(&["functionname"]),
    g(r"(?i)(const)(\s+)((?:[\\_a-z]|[^\x00-\x7f])(?:[\\\w]|[^\x00-\x7f])*)", &[Keyword, Text, NameConstant]),
    r(
        r"(?i)(?:and|E_PARSE|old_function|E_ERROR|or|as|E_WARNING|parent|eval|PHP_OS|break|exit|case|extends|PHP_VERSION|cfunction|FALSE|print|for|require|continue|foreach|require_once|declare|return|default|static|do|switch|die|stdClass|echo|else|TRUE|elseif|var|empty|if|xor|enddeclare|include|virtual|endfor|include_once|while|endforeach|global|endif|list|endswitch|new|endwhile|not|array|E_ALL|NULL|final|php_user_filter|interface|implements|public|private|protected|abstract|clone|try|catch|throw|this|use|namespace|trait|yield(?: from)?|finally|match|readonly)\b",
        Keyword,
    ),
    r(r"(?i)(?:true|false|null)\b", KeywordConstant),
    r(r"(?i)(?:__LINE__|__FILE__|__DIR__|__FUNCTION__|__CLASS__|__TRAIT__|__METHOD__|__NAMESPACE__|__PROPERTY__)\b", NameConstant),
    r(r"\$\{", NameVariable).push(&["variablevariable"]),
    r(r"(?i)\$+(?:[\\_a-z]|[^\x00-\x7f])(?:[\\\w]|[^\x00-\x7f])*", NameVariable),
    // Pygments retypes a name that is a builtin function after lexing.
    r(r"(?:preg_replace_callback_array|get_html_translation_table|register_shutdown_function|forward_static_call_array|unregister_tick_function|array_replace_recursive|array_uintersect_uassoc|get_declared_interfaces|get_mangled_object_vars|htmlspecialchars_decode|quoted_printable_decode|quoted_printable_encode|array_intersect_uassoc|array_uintersect_assoc|register_tick_function|array_change_key_case|array_intersect_assoc|array_merge_recursive|get_defined_functions|password_needs_rehash|preg_replace_callback|array_intersect_ukey|array_walk_recursive|call_user_func_array|get_declared_classes|array_intersect_key|forward_static_call|get_declared_traits|json_last_error_msg|preg_last_error_msg|array_count_values|array_udiff_uassoc|convert_cyr_string|html_entity_decode|array_diff_uassoc|array_udiff_assoc|get_class_methods|get_resource_type|password_get_info|array_diff_assoc|array_key_exists|array_uintersect|convert_uudecode|convert_uuencode|get_called_class|get_defined_vars|get_parent_class|htmlspecialchars|http_build_query|interface_exists|array_diff_ukey|array_fill_keys|array_intersect|array_key_first|array_multisort|create_function|debug_zval_dump|function_exists|get_object_vars|get_resource_id|json_last_error|password_verify|preg_last_error|property_exists|str_starts_with|array_diff_key|array_key_last|call_user_func|get_class_vars|get_debug_type|is_subclass_of|password_algos|preg_match_all|str_word_count|substr_compare|substr_replace|array_combine|array_is_list|array_product|array_replace|array_reverse|array_unshift|base64_decode|base64_encode|func_get_args|func_num_args|get_meta_tags|method_exists|mt_getrandmax|number_format|password_hash|str_ends_with|stripcslashes|strnatcasecmp|array_column|array_filter|array_reduce|array_search|array_splice|array_unique|array_values|base_convert|class_exists|func_get_arg|htmlentities|is_countable|money_format|preg_replace|rawurldecode|rawurlencode|similar_text|str_contains|str_ireplace|stripslashes|substr_count|trait_exists|addcslashes|array_chunk|array_merge|array_shift|array_slice|array_udiff|chunk_split|class_alias|count_chars|enum_exists|get_headers|is_callable|is_infinite|is_iterable|is_resource|json_decode|json_encode|levenshtein|natcasesort|nl_langinfo|preg_filter|str_replace|str_shuffle|strncasecmp|unserialize|__autoload|addslashes|array_diff|array_fill|array_flip|array_keys|array_push|array_rand|array_walk|getrandmax|is_integer|is_numeric|key_exists|localeconv|preg_match|preg_quote|preg_split|str_getcsv|str_repeat|strcasecmp|strip_tags|strtolower|strtoupper|var_export|array_map|array_pad|array_pop|array_sum|doubleval|get_class|is_double|is_finite|is_object|is_scalar|is_string|lcg_value|metaphone|parse_str|parse_url|preg_grep|quotemeta|serialize|setlocale|sha1_file|str_rot13|str_split|strnatcmp|urldecode|urlencode|floatval|in_array|is_array|is_float|md5_file|mt_srand|strripos|var_dump|vfprintf|vsprintf|wordwrap|bin2hex|boolval|compact|current|deg2rad|explode|extract|fprintf|gettype|hebrevc|hex2bin|implode|is_bool|is_long|is_null|is_real|lcfirst|mt_rand|natsort|print_r|rad2deg|settype|shuffle|soundex|sprintf|str_pad|strcoll|strcspn|stripos|stristr|strncmp|strpbrk|strrchr|strrpos|ucfirst|ucwords|vprintf|arsort|bindec|decbin|dechex|decoct|hebrev|hexdec|intdiv|intval|is_int|is_nan|krsort|octdec|printf|sizeof|sscanf|strchr|strcmp|strlen|strpos|strrev|strspn|strstr|strtok|strval|substr|uasort|uksort|acosh|array|asinh|asort|atan2|atanh|count|crc32|crypt|empty|expm1|floor|hypot|isset|ksort|log10|log1p|ltrim|nl2br|print|range|reset|round|rsort|rtrim|srand|strtr|unset|usort|acos|asin|atan|ceil|chop|cosh|each|echo|fdiv|fmod|is_a|join|list|next|prev|rand|sha1|sinh|sort|sqrt|tanh|trim|abs|chr|cos|end|exp|key|log|max|md5|min|ord|pos|pow|sin|tan|pi)", NameBuiltin).not_before(r"[\\\w]|[^\x00-\x7f]"),
    r(IDENT, NameOther),
    r(r"(?i)(?:\d+\.\d*|\d*\.\d+)(?:e[+-]?[0-9]+)?", NumberFloat),
    r(r"(?i)\d+e[+-]?[0-9]+", NumberFloat),
    r("0[0-7]+", NumberOct),
    r("(?i)0x[a-f0-9]+", NumberHex),
    r(r"\d+", NumberInteger),
    r("0[bB][01]+", NumberBin),
    r(r"(?s)'[^'\\]*(?:\\.[^'\\]*)*'", StringSingle),
    r(r"(?s)`[^`\\]*(?:\\.[^`\\]*)*`", StringBacktick),
    r("\"", StringDouble).push(&["string"]),
];
