"""Purposes of use: the two vocabularies robots.txt files use to state AI usage preferences.

Two vocabularies name what a crawler's operator may do with what it fetched:

* **Content signals** (``Content-Signal: search=yes, ai-input=yes, ai-train=no``), the
  Content Signals Policy published at contentsignals.org (CC0) and deployed in Cloudflare's
  managed robots.txt: ``search``, ``ai-input``, ``ai-train``; values ``yes`` / ``no``.
* **Usage categories** of the IETF AI Preferences working group (draft-ietf-aipref-vocab,
  carried by the ``Content-Usage`` rule of draft-ietf-aipref-attach): ``train-ai``,
  ``ai-use``, ``search`` in the current text; ``bots`` (Automated Processing) and
  ``train-genai`` (Generative AI Training) in its earlier revisions, where categories nest:
  ``bots`` holds every other category and ``train-ai`` holds ``train-genai``.

A purpose is a name from either vocabulary (:data:`PURPOSES`). Every answer is three-valued:
``True`` (stated yes), ``False`` (stated no), ``None`` (nothing stated). Where several
statements speak of one purpose, the most restrictive wins (:func:`combine`; the rule of
draft-ietf-aipref-vocab "Combining Preferences"). Where both vocabularies speak of the same
use, :func:`resolve` combines them the same way; the mapping (:data:`SIGNAL_CATEGORY`) and
the reasons for it are in docs/usage-preferences.md.

This module is pure and imports nothing outside the standard library.
"""

from __future__ import annotations

from typing import Dict, Iterable, Literal, Mapping, Optional, Tuple, cast

from .errors import InvalidPurpose

__all__ = [
    "BROADER",
    "CATEGORIES",
    "CATEGORY_SIGNAL",
    "CONTENT_SIGNALS",
    "PURPOSES",
    "SIGNAL_CATEGORY",
    "Category",
    "Purpose",
    "Signal",
    "check_purpose",
    "column_name",
    "combine",
    "resolve",
    "statements",
]

Signal = Literal["search", "ai-input", "ai-train"]
"""A name of the Content Signals Policy."""

Category = Literal["train-ai", "ai-use", "search", "bots", "train-genai"]
"""A usage-category label of draft-ietf-aipref-vocab (current and earlier revisions)."""

Purpose = Literal["search", "ai-input", "ai-train", "train-ai", "ai-use", "bots", "train-genai"]
"""A name from either vocabulary: what :meth:`Usage.allows` and ``--purpose`` accept."""

CONTENT_SIGNALS: Tuple[Signal, ...] = ("search", "ai-input", "ai-train")
"""The Content Signals Policy's names, in the policy's order."""

CATEGORIES: Tuple[Category, ...] = ("train-ai", "ai-use", "search", "bots", "train-genai")
"""The IETF usage-category labels this library reads: the current three, then the two of
earlier revisions (``bots``, ``train-genai``) that files written against them still carry."""

PURPOSES: Tuple[Purpose, ...] = (
    "search", "ai-input", "ai-train", "train-ai", "ai-use", "bots", "train-genai",
)
"""Every purpose name, Content Signals first."""

BROADER: Mapping[str, str] = {
    "train-ai": "bots",
    "ai-use": "bots",
    "search": "bots",
    "train-genai": "train-ai",
}
"""The category each IETF category is nested in (earlier revisions' figure "Relationship
Between Categories of Use"): a preference stated for the broader category applies to the
narrower one unless the narrower one is stated itself."""

SIGNAL_CATEGORY: Mapping[Signal, Category] = {
    "search": "search",
    "ai-input": "ai-use",
    "ai-train": "train-ai",
}
"""The IETF category each content signal speaks of (draft-romm-aipref-contentsignals-00
places the three signals inside the IETF vocabulary; definitions compared in the docs)."""

CATEGORY_SIGNAL: Mapping[Category, Signal] = {c: s for s, c in SIGNAL_CATEGORY.items()}
"""The inverse of :data:`SIGNAL_CATEGORY`."""

_BY_NAME: Dict[str, Purpose] = {name: name for name in PURPOSES}


def check_purpose(purpose: str) -> Purpose:
    """Return ``purpose`` if it is one of :data:`PURPOSES`, else raise :class:`InvalidPurpose`.

    Names are exact (lower case, ``-``): both vocabularies are case-sensitive on the wire
    only in the IETF one, but a caller's typo must not silently read as "nothing stated".

    >>> check_purpose("ai-train")
    'ai-train'
    >>> check_purpose("ai_train")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    robotsrules.errors.InvalidPurpose: unknown purpose 'ai_train'; expected one of: search, ...
    """
    found = _BY_NAME.get(purpose)
    if found is not None:
        return found
    raise InvalidPurpose(f"unknown purpose {purpose!r}; expected one of: {', '.join(PURPOSES)}")


def column_name(purpose: str) -> str:
    """The column name a purpose gets in bulk output: ``ai-train`` -> ``ai_train``.

    >>> column_name("train-genai")
    'train_genai'
    """
    return check_purpose(purpose).replace("-", "_")


def combine(answers: Iterable[Optional[bool]]) -> Optional[bool]:
    """Combine several stated answers: ``False`` beats ``True`` beats ``None``.

    >>> combine([None, True]), combine([True, False, None]), combine([])
    (True, False, None)
    """
    result: Optional[bool] = None
    for answer in answers:
        if answer is False:
            return False
        if answer is True:
            result = True
    return result


def _category_answer(categories: Mapping[str, bool], category: str) -> Optional[bool]:
    # The narrowest stated category on the way up decides (vocab, earlier revisions §5).
    name: Optional[str] = category
    while name is not None:
        if name in categories:
            return categories[name]
        name = BROADER.get(name)
    return None


def resolve(purpose: str, signals: Mapping[str, bool],
            categories: Mapping[str, bool]) -> Optional[bool]:
    """The answer for ``purpose`` given what content signals and usage categories stated.

    ``signals`` maps content-signal names, ``categories`` IETF labels, to the stated value
    (already combined per name). A category inherits from its broader categories unless
    stated itself; a purpose and its counterpart in the other vocabulary are combined, most
    restrictive first. ``train-genai`` also hears ``ai-train`` (training of any AI model
    includes generative models).

    >>> resolve("ai-train", {}, {"bots": False})
    False
    >>> resolve("train-ai", {"ai-train": True}, {})
    True
    >>> resolve("search", {"search": True}, {"search": False})
    False
    """
    name = check_purpose(purpose)
    if name in SIGNAL_CATEGORY:
        signal = cast(Signal, name)
        category: str = SIGNAL_CATEGORY[signal]
    else:
        category = name
        signal_name = CATEGORY_SIGNAL.get(cast(Category, name))
        if signal_name is None and name == "train-genai":
            signal_name = "ai-train"
        if signal_name is None:  # bots: no content signal speaks of all automated processing
            return _category_answer(categories, category)
        signal = signal_name
    return combine((signals.get(signal), _category_answer(categories, category)))


def statements(values: Iterable[Tuple[str, bool]]) -> Dict[str, bool]:
    """Fold ``(name, value)`` statements into one value per name, most restrictive winning.

    >>> statements([("search", True), ("ai-train", True), ("ai-train", False)])
    {'search': True, 'ai-train': False}
    """
    folded: Dict[str, bool] = {}
    for name, value in values:
        folded[name] = folded.get(name, True) and value
    return folded
