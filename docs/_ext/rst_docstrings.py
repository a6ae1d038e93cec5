"""A griffe extension: render the reST habits of our docstrings as Markdown for the site.

The docstrings are written for `help()` and reST readers: ``code`` in double back-quotes,
:class:`Name` roles, and doctest examples after `>>>`. mkdocstrings renders Markdown, where
`>>>` would start a block quote and `[...]` in an example's output would be read as a link.
This extension rewrites each docstring on load: doctest runs become fenced `pycon` blocks,
roles become inline code, double back-quotes single ones. The source is not touched.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|meth|func|attr|data|mod|exc|obj|ref|rfc|pep):`~?([^`]+)`")


def _fence_doctests(text: str) -> str:
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            block = []
            while i < len(lines) and lines[i].strip() and lines[i].startswith(indent):
                block.append(lines[i][len(indent):])
                i += 1
            out += [indent + "```pycon", *(indent + b for b in block), indent + "```"]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def to_markdown(text: str) -> str:
    """One docstring's text, with doctests fenced and reST roles and literals as code."""
    text = _ROLE.sub(lambda m: "`" + m.group(1) + "`", text)
    text = re.sub(r"``([^`]+)``", r"`\1`", text)
    return _fence_doctests(text)


class RstDocstrings(griffe.Extension):
    """Rewrite every loaded object's docstring with :func:`to_markdown`."""

    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
