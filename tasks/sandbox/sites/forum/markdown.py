"""A small, safe Markdown subset for posts, comments, biographies and sidebars.

All text is HTML-escaped first; only these constructs become tags: paragraphs,
headings, block quotes, flat bullet and numbered lists, fenced code, rules,
`**strong**`, `*em*`, `~~strike~~`, `` `code` ``, `[text](url)`, bare http(s)
links and `/f/forum` / `/u/user` references. Link targets are limited to http(s),
mailto and site-relative paths, so no markup or script can be injected.
"""

from __future__ import annotations

import html
import re

from markupsafe import Markup

_SAFE_URL = re.compile(r"^(https?://|mailto:|/(?!/))", re.IGNORECASE)
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_BARE_URL = re.compile(r"https?://[^\s<>\"']+[^\s<>\"'.,;:!?)\]]")
_REFERENCE = re.compile(r"(?<![\w/])/([fu])/(\w{3,25})\b")
_INLINE_STYLES = [
    (re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*"), "strong"),
    (re.compile(r"(?<!\w)__(?=\S)(.+?)(?<=\S)__(?!\w)"), "strong"),
    (re.compile(r"\*(?=\S)(.+?)(?<=\S)\*"), "em"),
    (re.compile(r"(?<!\w)_(?=\S)(.+?)(?<=\S)_(?!\w)"), "em"),
    (re.compile(r"~~(?=\S)(.+?)(?<=\S)~~"), "del"),
]
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s{0,3}[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^\s{0,3}\d{1,9}[.)]\s+(.*)$")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_QUOTE = re.compile(r"^\s{0,3}>\s?(.*)$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_LINK_REL = "nofollow noopener noreferrer"


class _Stash:
    """Holds finished HTML fragments behind placeholders so later passes leave them alone."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def put(self, fragment: str) -> str:
        self.parts.append(fragment)
        return f"\x00{len(self.parts) - 1}\x00"

    def restore(self, text: str) -> str:
        while "\x00" in text:
            text = re.sub(r"\x00(\d+)\x00", lambda m: self.parts[int(m.group(1))], text)
        return text


def _anchor(href: str, label_html: str) -> str:
    escaped_href = html.escape(href, quote=True)
    if href.startswith("/"):
        return f'<a href="{escaped_href}">{label_html}</a>'
    return f'<a href="{escaped_href}" rel="{_LINK_REL}">{label_html}</a>'


def _styles(text: str) -> str:
    for pattern, tag in _INLINE_STYLES:
        text = pattern.sub(lambda m, tag=tag: f"<{tag}>{m.group(1)}</{tag}>", text)
    return text


def render_inline(raw: str) -> str:
    """Inline Markdown of one block of raw text to HTML."""
    stash = _Stash()
    text = _CODE_SPAN.sub(lambda m: stash.put(f"<code>{html.escape(m.group(1))}</code>"), raw)

    def link(match: re.Match) -> str:
        label, href = match.group(1), html.unescape(match.group(2))
        if not _SAFE_URL.match(href):
            return match.group(0)
        return stash.put(_anchor(href, _styles(html.escape(label, quote=False))))

    text = _LINK.sub(link, text)
    text = _BARE_URL.sub(lambda m: stash.put(_anchor(m.group(0), html.escape(m.group(0), quote=False))), text)
    text = html.escape(text, quote=False)
    text = _REFERENCE.sub(
        lambda m: stash.put(_anchor(f"/{'f' if m.group(1) == 'f' else 'user'}/{m.group(2)}", m.group(0))), text
    )
    text = _styles(text)
    text = re.sub(r"( {2,}|\\)\n", "<br>\n", text)
    return stash.restore(text)


def _paragraph(lines: list[str]) -> str:
    return f"<p>{render_inline(chr(10).join(line.strip() for line in lines))}</p>"


def _list(items: list[str], ordered: bool) -> str:
    tag = "ol" if ordered else "ul"
    inner = "".join(f"<li>{render_inline(item)}</li>" for item in items)
    return f"<{tag}>{inner}</{tag}>"


def _render_blocks(lines: list[str]) -> list[str]:
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            index += 1
        elif _FENCE.match(line):
            fence = _FENCE.match(line).group(1)
            body: list[str] = []
            index += 1
            while index < len(lines) and not lines[index].lstrip().startswith(fence):
                body.append(lines[index])
                index += 1
            index += 1
            out.append(f"<pre><code>{html.escape(chr(10).join(body))}</code></pre>")
        elif _HEADING.match(line):
            match = _HEADING.match(line)
            level = len(match.group(1))
            out.append(f"<h{level}>{render_inline(match.group(2))}</h{level}>")
            index += 1
        elif _RULE.match(line):
            out.append("<hr>")
            index += 1
        elif _QUOTE.match(line):
            quoted: list[str] = []
            while index < len(lines) and _QUOTE.match(lines[index]):
                quoted.append(_QUOTE.match(lines[index]).group(1))
                index += 1
            out.append(f"<blockquote>{''.join(_render_blocks(quoted))}</blockquote>")
        elif _BULLET.match(line) or _NUMBERED.match(line):
            ordered = bool(_NUMBERED.match(line))
            marker = _NUMBERED if ordered else _BULLET
            items: list[str] = []
            while index < len(lines) and lines[index].strip():
                match = marker.match(lines[index])
                if match:
                    items.append(match.group(1))
                elif lines[index].startswith((" ", "\t")) and items:
                    items[-1] += "\n" + lines[index].strip()  # continuation of the item above
                else:
                    break
                index += 1
            out.append(_list(items, ordered))
        else:
            paragraph: list[str] = []
            while index < len(lines) and lines[index].strip() and not _starts_block(lines[index]):
                paragraph.append(lines[index])
                index += 1
            out.append(_paragraph(paragraph))
    return out


def _starts_block(line: str) -> bool:
    return any(p.match(line) for p in (_FENCE, _HEADING, _RULE, _QUOTE, _BULLET, _NUMBERED))


def render_markdown(text: str | None) -> Markup:
    """Markdown source to safe HTML (an empty string for no text)."""
    if not text:
        return Markup("")
    lines = text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return Markup("\n".join(_render_blocks(lines)))
