"""What base.html says about every page: its title and description, written once by the page
(its ``title`` and ``description`` blocks) and used in the ``<title>``, the meta description and
the link-preview (Open Graph) tags."""

from __future__ import annotations

from django import template
from django.template.base import Parser, Token
from django.template.context import Context
from django.utils.html import strip_spaces_between_tags
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


class CaptureNode(template.Node):
    child_nodelists = ("nodelist",)

    def __init__(self, nodelist: template.NodeList, name: str) -> None:
        self.nodelist = nodelist
        self.name = name

    def render(self, context: Context) -> str:
        # Rendered (and escaped) once, where it stands; kept whole-line for a meta attribute.
        text = " ".join(strip_spaces_between_tags(self.nodelist.render(context)).split())
        context[self.name] = mark_safe(text)  # the template's own, escaped
        return ""


@register.tag
def capture(parser: Parser, token: Token) -> CaptureNode:
    """``{% capture name %}...{% endcapture %}``: the content, rendered, as ``{{ name }}``
    (blocks inside may be overridden by the page, as anywhere in base.html)."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("usage: {% capture name %}...{% endcapture %}")
    nodelist = parser.parse(("endcapture",))
    parser.delete_first_token()
    return CaptureNode(nodelist, bits[1])


@register.filter(is_safe=True)
def one_line(text: SafeString | str, length: int = 200) -> str:
    """A description for a meta tag: whitespace folded, cut at a word near ``length``."""
    words = " ".join(str(text).split())
    if len(words) <= length:
        return words
    return words[: length - 1].rsplit(" ", 1)[0].rstrip(",;:.") + "…"
