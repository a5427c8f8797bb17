"""Math through the unmodified Python `zulip` client: the server renders `$$…$$` and math blocks
with KaTeX (HTML and MathML), and shows what KaTeX rejects as its source.

Usage: tex_messages.py ZULIPRC (not math.py: that would shadow the standard library's math)
"""

import sys

import zulip

from checks import check, finish, ok

owner = zulip.Client(config_file=sys.argv[1])


def rendered(content):
    """Sends `content` to general and reads back its rendered HTML."""
    sent = ok(owner.send_message({"type": "stream", "to": "general", "topic": "math", "content": content}), f"sends {content!r}")
    message = ok(owner.get_raw_message(sent["id"]), "reads it back")["message"]
    return message["content"]


inline = rendered("Euler: $$e^{i\\pi} + 1 = 0$$")
check("inline math is KaTeX's span", inline.startswith('<p>Euler: <span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML">'), inline)
check("with the TeX as its annotation", '<annotation encoding="application/x-tex">e^{i\\pi} + 1 = 0</annotation>' in inline, inline)
check("and KaTeX's HTML", '<span class="katex-html" aria-hidden="true">' in inline, inline)

block = rendered("```math\n\\int_0^1 x\\,dx\n```")
check("a math block is display math in a paragraph", block.startswith('<p><span class="katex-display"><span class="katex">') and block.endswith("</span></p>"), block)

rejected = rendered("broken $$\\frac{1}{$$ here")
check("rejected TeX shows its source", rejected == '<p>broken <span class="tex-error">$$\\frac{1}{$$</span> here</p>', rejected)

finish()
