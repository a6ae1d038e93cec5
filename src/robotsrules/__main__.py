"""``python -m robotsrules``: the command line."""

from .cli import entry

entry()
