//! CSS, as Pygments' `CssLexer` (`css`) tokenizes it: selectors are tags, classes and ids;
//! inside a block, a property before `:` is a keyword and its values are constants, functions,
//! numbers with units, or names.
//!
//! Pygments lists CSS's 546 properties; a list that long would cost the wasm build 2.4 KB
//! (gzipped), so any lowercase name before `:` is a property here (Pygments' list has every
//! property in use), and as a value (`transition: opacity`) only the properties most often
//! written there are. Its lists of value keywords, colours, functions and units are kept.

use super::super::engine::{Grammar, Rule, State, default, g, r};
use super::super::token::Token::*;

/// Functions whose names are builtins (a macro, to build patterns with `concat!`).
macro_rules! functions {
    () => {
        r"repeating-linear-gradient|repeating-radial-gradient|linear-gradient|radial-gradient|cubic-bezier|device-cmyk|drop-shadow|perspective|translate3d|brightness|hue-rotate|saturation|translateX|translateY|translateZ|blackness|color-mod|grayscale|lightness|translate|whiteness|contrast|matrix3d|rotate3d|saturate|counter|ellipse|opacity|polygon|rotateX|rotateY|rotateZ|scale3d|blenda|circle|invert|matrix|rotate|scaleX|scaleY|scaleZ|toggle|blend|image|inset|scale|sepia|shade|skewX|skewY|steps|attr|blur|calc|gray|hsla|rect|rgba|tint|hsl|hue|hwb|rgb"
    };
}

pub(in super::super) static CSS: Grammar = Grammar::new(&[
    State { name: "root", rules: &[BASICS] },
    State {
        name: "atrule",
        rules: &[&[r(r"\{", Punctuation).push(&["atcontent"]), r(";", Punctuation).pop()], BASICS],
    },
    State { name: "atcontent", rules: &[BASICS, &[r(r"\}", Punctuation).pop_n(2)]] },
    State {
        name: "content",
        rules: &[&[
            r(r"\s+", Whitespace),
            r(r"\}", Punctuation).pop(),
            r(";", Punctuation),
            r(r"^@.*?$", CommentPreproc),
            r(VENDOR, KeywordPseudo),
            g(r"([a-z][a-z-]*)(\s*)(:)", &[Keyword, Whitespace, Punctuation]).push(&["value-start"]),
            g(r"(-+[a-zA-Z_][\w-]*)(\s*)(:)", &[NameVariable, Whitespace, Punctuation])
                .push(&["value-start"]),
            g(r"([a-zA-Z_][\w-]*)(\s*)(:)", &[Name, Whitespace, Punctuation]).push(&["value-start"]),
            r(r"/\*[\s\S]*?\*/", Comment),
        ]],
    },
    State {
        name: "value-start",
        rules: &[
            &[r(r"\s+", Whitespace), r(VENDOR, NameBuiltinPseudo)],
            URLS,
            &[
                g(concat!("(", functions!(), r")(\()"), &[NameBuiltin, Punctuation])
                    .push(&["function-start"]),
                g(r"([a-zA-Z_][\w-]+)(\()", &[NameFunction, Punctuation]).push(&["function-start"]),
                r(VALUES, KeywordConstant),
                r(
                    r"(?:background-color|border-color|box-shadow|max-height|max-width|background|transform|font-size|opacity|border|height|margin|padding|color|width|grid)\b",
                    Keyword,
                ),
                r(r"!important", CommentPreproc),
                r(r"/\*[\s\S]*?\*/", Comment),
            ],
            NUMBERS,
            &[
                r(r"[~^*!%&<>|+=@:./?-]+", Operator),
                r(r"[\[\](),]+", Punctuation),
                r(r#""(?:\\\\|\\[^\\]|[^"\\])*""#, StringDouble),
                r(r"'(?:\\\\|\\[^\\]|[^'\\])*'", StringSingle),
                r(r"[a-zA-Z_][\w-]*", Name),
                r(";", Punctuation).pop(),
                r(r"\}", Punctuation).pop_n(2),
            ],
        ],
    },
    State {
        name: "function-start",
        rules: &[
            &[r(r"\s+", Whitespace), r(r"-+(?:[A-Za-z][\w+]*-*)+", NameVariable)],
            URLS,
            &[
                r(VENDOR, KeywordPseudo),
                r(VALUES, KeywordConstant),
                g(concat!("(", functions!(), r")(\()"), &[NameBuiltin, Punctuation])
                    .push(&["function-start"]),
                g(r"([a-zA-Z_][\w-]+)(\()", &[NameFunction, Punctuation]).push(&["function-start"]),
                r(r"/\*[\s\S]*?\*/", Comment),
            ],
            NUMBERS,
            &[
                r(r"[*+/-]", Operator),
                r(",", Punctuation),
                r(r#""(?:\\\\|\\[^\\]|[^"\\])*""#, StringDouble),
                r(r"'(?:\\\\|\\[^\\]|[^'\\])*'", StringSingle),
                r(r"[a-zA-Z_-]\w*", Name),
                r(r"\)", Punctuation).pop(),
            ],
        ],
    },
    State {
        name: "numeric-end",
        rules: &[&[
            r(
                r"(?:dpcm|dppx|grad|turn|vmax|vmin|deg|dpi|kHz|rad|rem|Hz|ch|cm|em|ex|in|mm|ms|pc|pt|px|vh|vw|q|s)\b",
                KeywordType,
            ),
            r("%", KeywordType),
            default().pop(),
        ]],
    },
]);

static BASICS: &[Rule] = &[
    r(r"\s+", Whitespace),
    r(r"/\*[\s\S]*?\*/", Comment),
    r(r"\{", Punctuation).push(&["content"]),
    g(r"(:{1,2})([\w-]+)", &[Punctuation, NameDecorator]),
    g(r"(\.)([\w-]+)", &[Punctuation, NameClass]),
    g(r"(#)([\w-]+)", &[Punctuation, NameNamespace]),
    g(r"(@)([\w-]+)", &[Punctuation, Keyword]).push(&["atrule"]),
    r(r"[\w-]+", NameTag),
    r(r"[~^*!%&$\[\]()<>|+=@:;,./?-]", Operator),
    r(r#""(?:\\\\|\\[^\\]|[^"\\])*""#, StringDouble),
    r(r"'(?:\\\\|\\[^\\]|[^'\\])*'", StringSingle),
];

static URLS: &[Rule] = &[
    g(r#"(url)(\()(".*?")(\))"#, &[NameBuiltin, Punctuation, StringDouble, Punctuation]),
    g(r"(url)(\()('.*?')(\))", &[NameBuiltin, Punctuation, StringSingle, Punctuation]),
    g(r"(url)(\()(.*?)(\))", &[NameBuiltin, Punctuation, StringOther, Punctuation]),
];

static NUMBERS: &[Rule] = &[
    r(r"#[a-zA-Z0-9]{1,6}", NumberHex),
    r(r"[+\-]?[0-9]*[.][0-9]+", NumberFloat).push(&["numeric-end"]),
    r(r"[+\-]?[0-9]+", NumberInteger).push(&["numeric-end"]),
];

/// Browser prefixes.
const VENDOR: &str =
    "(?:-webkit-|-khtml-|prince-|-atsc-|-moz-|-rim-|-wap-|-ah-|-hp-|-ms-|-ro-|-tc-|-xv-|mso-|-o-)";

/// Keyword values and colour names, longest first (Pygments' `words` prefers the longest).
const VALUES: &str = r"(?:use-glyph-orientation|decimal-leading-zero|lightgoldenrodyellow|ruby-base-container|ruby-text-container|geometricPrecision|optimizeLegibility|table-column-group|table-footer-group|table-header-group|alternate-reverse|mediumspringgreen|mediumaquamarine|repeat\ no-repeat|all-petite-caps|cjk-ideographic|extra-condensed|mediumslateblue|mediumturquoise|mediumvioletred|table-row-group|ultra-condensed|all-small-caps|blanchedalmond|box-decoration|column-reverse|cornflowerblue|darkolivegreen|extra-expanded|hiragana-iroha|katakana-iroha|lightslategray|lightslategrey|lightsteelblue|mediumseagreen|no-close-quote|semi-condensed|sideways-right|ultra-expanded|bidi-override|darkgoldenrod|darkslateblue|darkslategray|darkslategrey|darkturquoise|double-circle|lavenderblush|lightseagreen|no-open-quote|optimizeSpeed|palegoldenrod|paleturquoise|palevioletred|rebeccapurple|semi-expanded|sideways-left|small-caption|space-between|table-caption|vertical-text|antiquewhite|avoid-column|center-right|context-menu|currentColor|darkseagreen|inline-block|inline-table|lemonchiffon|lightskyblue|line-through|manipulation|match-parent|mediumorchid|mediumpurple|midnightblue|space-around|table-column|titling-caps|weight\ style|wrap-reverse|center-left|close-quote|color-dodge|content-box|crisp-edges|darkmagenta|deepskyblue|descendants|ease-in-out|floralwhite|forestgreen|greenyellow|inline-flex|lightsalmon|lightyellow|lower-alpha|lower-greek|lower-latin|lower-roman|message-box|navajowhite|nesw-resize|not-allowed|nwse-resize|padding-box|petite-caps|preserve-3d|row-reverse|saddlebrown|springgreen|text-bottom|transparent|upper-alpha|upper-latin|upper-roman|yellowgreen|all-scroll|aquamarine|avoid-page|blueviolet|border-box|break-word|capitalize|chartreuse|col-resize|color-burn|continuous|darkorange|darkorchid|darksalmon|darkviolet|difference|distribute|dodgerblue|flex-start|from-image|full-width|ghostwhite|hard-light|horizontal|inter-word|lightcoral|lightgreen|luminosity|margin-box|mediumblue|open-quote|papayawhip|powderblue|right-side|rightwards|row-resize|sandybrown|sans-serif|saturation|scale-down|small-caps|soft-light|status-bar|step-start|stroke-box|table-cell|whitesmoke|aliceblue|allow-end|alternate|backwards|burlywood|cadetblue|chocolate|condensed|container|crosshair|darkgreen|darkkhaki|each-line|ew-resize|exclusion|far-right|firebrick|force-end|gainsboro|goldenrod|indianred|landscape|lawngreen|left-side|leftwards|lightblue|lightcyan|lightgray|lightgrey|lightpink|limegreen|list-item|lowercase|luminance|mandatory|mintcream|mistyrose|monospace|ne-resize|no-repeat|ns-resize|nw-resize|olivedrab|orangered|palegreen|pan-right|peachpuff|pixelated|proximity|rosybrown|royalblue|ruby-base|ruby-text|se-resize|slateblue|slategray|slategrey|spell-out|steelblue|sw-resize|table-row|turquoise|underline|uppercase|absolute|armenian|baseline|collapse|cornsilk|darkblue|darkcyan|darkgray|darkgrey|deeppink|e-resize|ease-out|ellipsis|expanded|far-left|fill-box|flex-end|forwards|georgian|hiragana|honeydew|infinite|katakana|lavender|moccasin|multiply|n-resize|narrower|overline|pan-down|pan-left|portrait|pre-line|pre-wrap|progress|relative|repeat-x|repeat-y|s-resize|seagreen|seashell|separate|sideways|step-end|text-top|triangle|vertical|view-box|w-resize|xx-large|xx-small|zoom-out|balance|compact|contain|crimson|cursive|darkred|decimal|default|dimgray|dimgrey|ease-in|fantasy|fuchsia|hanging|hotpink|inherit|initial|isolate|justify|lighten|lighter|magenta|no-drop|objects|oblique|oldlace|outside|overlay|pointer|reverse|running|skyblue|smaller|stretch|thistle|unicase|upright|visible|x-large|x-small|zoom-in|always|behind|bisque|bolder|bottom|center|circle|column|darken|dashed|digits|dotted|double|faster|filled|groove|hebrew|hidden|higher|indigo|inline|inside|invert|italic|larger|linear|manual|maroon|medium|middle|normal|nowrap|orange|orchid|outset|pan-up|paused|purple|repeat|revert|run-in|salmon|screen|scroll|sesame|sienna|silent|silver|slower|smooth|spaces|square|static|sticky|strict|tomato|violet|weight|x-fast|x-high|x-loud|x-soft|yellow|above|alias|alpha|aural|avoid|azure|beige|below|black|blink|block|brown|clone|color|coral|cover|cross|edges|embed|first|fixed|green|inset|ivory|khaki|large|level|linen|local|loose|lower|mixed|olive|pan-x|pan-y|ridge|right|round|serif|slice|small|solid|space|start|style|super|table|thick|under|unset|wheat|white|wider|x-low|aqua|auto|blue|bold|both|cell|clip|copy|crop|cyan|disc|ease|fast|fill|flat|flex|flip|gold|gray|grey|help|hide|high|icon|last|left|lime|loud|move|navy|none|once|open|over|page|peru|pink|plum|ruby|show|slow|snap|snow|soft|teal|text|thin|wait|wavy|wrap|all|dot|end|hue|ink|low|ltr|mix|off|pre|red|row|rtl|tan|top|yes|on|to)\b";
