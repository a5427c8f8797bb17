"""Pygments' tokens for code blocks, as Zulip's server lexes them (`startinline`, for PHP).

Reads a JSON list of {"language": alias, "code": text} on standard input and writes a JSON
object: "version" (Pygments'), and "tokens", per block a list of [class, text] pairs, class
being the short CSS class of the token type's nearest standard type (what HtmlFormatter writes).
"""

import json
import sys

import pygments
from pygments.lexers import get_lexer_by_name
from pygments.token import STANDARD_TYPES


def css_class(ttype):
    while ttype not in STANDARD_TYPES:
        ttype = ttype.parent
    return STANDARD_TYPES[ttype]


def main():
    blocks = json.load(sys.stdin)
    out = []
    for block in blocks:
        lexer = get_lexer_by_name(block["language"], startinline=True)
        out.append([[css_class(t), v] for t, v in lexer.get_tokens(block["code"])])
    json.dump({"version": pygments.__version__, "tokens": out}, sys.stdout)


main()
