"""``robotsrules generate``'s library: a robots.txt written from an owner's choices, proven.

:mod:`._policy` holds the choices (:class:`GeneratePolicy`, :class:`AgentChoice`, the path
encoding);
:mod:`._write` writes the file, merges it into an existing one and proves that Google's
reading, RFC 9309's and the legacy reading give exactly what was chosen. Pure: no I/O.
"""

from ._policy import AgentChoice, GeneratePolicy
from ._write import Generated, Row, generate

__all__ = ["AgentChoice", "GeneratePolicy", "Generated", "Row", "generate"]
