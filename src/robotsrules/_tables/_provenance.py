"""The versions and dates of the data robotsrules ships: one home for ``--version`` and the
metadata written into bulk output.

The library's answers depend on three tables besides its code: the crawler registry
(``data/crawlers.json``), the usage vocabularies (``data/vocabularies.json``: which
draft-ietf-aipref-vocab revision the current reading follows) and the known robots.txt
extensions (``data/extensions.json``). A dataset built with robotsrules records which ones
it used (:func:`metadata`); ``robotsrules --version`` prints them (:func:`version_text`).
"""

from __future__ import annotations

__all__ = ["metadata", "version_text"]


def metadata() -> dict[str, str]:
    """Flat ``robotsrules.*`` keys, for Parquet key-value metadata and JSON headers.

    >>> metadata()["robotsrules.aipref_revision"]
    'draft-ietf-aipref-vocab-07'
    """
    from .._compiled import COMPILED
    from .._version import __version__
    from ._crawlers import registry_info
    from ._extensions import extensions_info
    from ._purposes import vocabulary_info

    crawlers = registry_info()
    vocabulary = vocabulary_info()
    extensions = extensions_info()
    return {
        "robotsrules.version": __version__,
        "robotsrules.build": "compiled" if COMPILED else "pure",
        "robotsrules.crawler_registry_version": crawlers["version"],
        "robotsrules.crawler_registry_compiled": crawlers["compiled"],
        "robotsrules.vocabularies_version": vocabulary["version"],
        "robotsrules.vocabularies_compiled": vocabulary["compiled"],
        "robotsrules.aipref_revision": vocabulary["aipref"],
        "robotsrules.aipref_revision_date": vocabulary["aipref_date"],
        "robotsrules.purpose_groups_draft": vocabulary["purpose_groups"],
        "robotsrules.purpose_groups_draft_date": vocabulary["purpose_groups_date"],
        "robotsrules.purpose_groups_read": vocabulary["purpose_groups_read"],
        "robotsrules.purpose_groups_tokens": vocabulary["purpose_groups_tokens"],
        "robotsrules.extensions_version": extensions["version"],
        "robotsrules.extensions_compiled": extensions["compiled"],
    }


def version_text() -> str:
    """What ``robotsrules --version`` prints."""
    from ._crawlers import registry_info

    data = metadata()
    build = "compiled with mypyc" if data["robotsrules.build"] == "compiled" else "pure Python"
    return (f"robotsrules {data['robotsrules.version']} ({build})\n"
            f"crawler registry {data['robotsrules.crawler_registry_version']} (compiled "
            f"{data['robotsrules.crawler_registry_compiled']}, "
            f"{registry_info()['entries']} entries)\n"
            f"usage vocabularies {data['robotsrules.vocabularies_version']} (compiled "
            f"{data['robotsrules.vocabularies_compiled']}; IETF categories read as "
            f"{data['robotsrules.aipref_revision']}, {data['robotsrules.aipref_revision_date']}; "
            f"purpose groups: {data['robotsrules.purpose_groups_draft']}, "
            f"{data['robotsrules.purpose_groups_draft_date']}, read: "
            f"{data['robotsrules.purpose_groups_read']}, tokens: "
            f"{data['robotsrules.purpose_groups_tokens']})\n"
            f"robots.txt extensions {data['robotsrules.extensions_version']} (compiled "
            f"{data['robotsrules.extensions_compiled']})\n")
