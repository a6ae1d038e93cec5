"""AI usage preferences: the examples of the documents that define them, as cases.

Sources: draft-ietf-aipref-attach (``Content-Usage`` in robots.txt, its §"Example" table),
draft-ietf-aipref-vocab (the Dictionary format, "Multiple Preferences", parameters, the
nesting of categories in its earlier revisions, asked for by revision), the Content
Signals Policy text
(contentsignals.org, as Cloudflare's managed robots.txt carries it) and this library's own
decisions (docs/guides/usage-preferences.md, tagged ``"robotsrules"``).

Each case states the crawl verdict (checked against Google's library too: these lines must
never change it) and the answer for some purposes (``None``: nothing stated).
"""

from __future__ import annotations

from typing import NamedTuple, Optional


class UsageCase(NamedTuple):
    """``robots.usage(url, agent=agent)`` must give ``crawl`` and ``answers``."""

    id: str
    source: str
    body: bytes
    agent: str
    url: str
    crawl: bool
    answers: dict[str, Optional[bool]]
    lines: Optional[tuple[int, ...]] = None
    """The line numbers of ``Usage.lines`` (None: unchecked)."""
    revision: Optional[str] = None
    """The draft-ietf-aipref-vocab revision whose reading the answers follow (None: the
    current one, -07)."""


ATTACH = "draft-ietf-aipref-attach"
VOCAB = "draft-ietf-aipref-vocab"
VOCAB_OLD = "draft-ietf-aipref-vocab (earlier revisions)"
VOCAB_CURRENT = "draft-ietf-aipref-vocab-07 (no nesting)"
POLICY = "Content Signals Policy"
OURS = "robotsrules"

ATTACH_EXAMPLE = (
    b"User-Agent: *\n"  # 1
    b"Allow: /\n"  # 2
    b"Disallow: /never/\n"  # 3
    b"Content-Usage: / train-ai=n\n"  # 4
    b"Content-Usage: /ai-ok/ train-ai=y\n"  # 5
    b"\n"  # 6
    b"User-Agent: ExampleBot\n"  # 7
    b"Allow: /\n"  # 8
    b"Content-Usage: / train-ai=y\n"  # 9
)

ATTACH_INTRO = b"User-Agent: *\nAllow: /\nContent-Usage: / train-ai=n\n"

# The shape of Cloudflare's managed robots.txt (policy comment block shortened).
POLICY_FILE = (
    b"# As a condition of accessing this website, you agree to abide by the following\n"  # 1
    b"# content signals: ...\n"  # 2
    b"User-Agent: *\n"  # 3
    b"Content-Signal: search=yes,ai-train=no\n"  # 4
    b"Allow: /\n"  # 5
    b"\n"  # 6
    b"User-agent: Amazonbot\n"  # 7
    b"Disallow: /\n"  # 8
)

T = True
F = False
N = None

CASES: list[UsageCase] = [
    # draft-ietf-aipref-attach §3.4 table: path, crawl, usage preference.
    UsageCase("attach-example-test", ATTACH, ATTACH_EXAMPLE, "OtherBot", "/test", T,
              {"train-ai": F, "ai-train": F, "search": N, "ai-use": N}, (4,)),
    UsageCase("attach-example-never", ATTACH, ATTACH_EXAMPLE, "OtherBot", "/never/test", F,
              {"train-ai": N, "ai-train": N}, ()),
    UsageCase("attach-example-ai-ok", ATTACH, ATTACH_EXAMPLE, "OtherBot", "/ai-ok/test", T,
              {"train-ai": T, "ai-train": T}, (5,)),
    UsageCase("attach-example-examplebot", ATTACH, ATTACH_EXAMPLE, "ExampleBot", "/never/x", T,
              {"train-ai": T}, (9,)),
    UsageCase("attach-intro", ATTACH, ATTACH_INTRO, "AnyBot", "/page", T,
              {"train-ai": F, "search": N}, (3,)),
    # Same matching as allow/disallow: wildcards, "$", percent-escapes, longest wins.
    UsageCase("attach-wildcard", ATTACH,
              b"User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: / train-ai=y\n",
              "a", "/doc/x.pdf", T, {"train-ai": F}, (2,)),
    UsageCase("attach-wildcard-anchor", ATTACH,
              b"User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: / train-ai=y\n",
              "a", "/doc/x.pdf?x", T, {"train-ai": T}, (3,)),
    UsageCase("attach-escapes", ATTACH,
              "User-agent: *\nContent-Usage: /café train-ai=n\n".encode(),
              "a", "/caf%C3%A9/x", T, {"train-ai": F}),
    UsageCase("attach-order-irrelevant", ATTACH,
              b"User-agent: *\nContent-Usage: /a/ train-ai=y\nContent-Usage: / train-ai=n\n",
              "a", "/a/b", T, {"train-ai": T}, (2,)),
    UsageCase("attach-identical-paths-combine", ATTACH,
              b"User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n\n",
              "a", "/a", T, {"train-ai": F}, (2, 3)),
    UsageCase("attach-specific-group", ATTACH,
              b"User-agent: *\nAllow: /\nContent-Usage: / train-ai=n\n\n"
              b"User-agent: mybot\nDisallow: /x\n",
              "MyBot", "/page", T, {"train-ai": N}, ()),
    UsageCase("attach-usage-line-does-not-end-group", ATTACH,
              b"User-agent: *\nContent-Usage: / train-ai=n\n\n"
              b"User-agent: mybot\nDisallow: /x\n",
              "MyBot", "/page", T, {"train-ai": F}, (2,)),
    UsageCase("attach-merged-groups", ATTACH,
              b"User-agent: mybot\nContent-Usage: / search=y\nDisallow: /x\n\n"
              b"User-agent: mybot\nContent-Usage: / train-ai=n\n",
              "mybot", "/page", T, {"search": T, "train-ai": F}, (2, 6)),
    UsageCase("attach-comment-ends-value", ATTACH,
              b"User-agent: *\nContent-Usage: / train-ai=n # no training\n",
              "a", "/", T, {"train-ai": F}),
    UsageCase("attach-tab-separator", ATTACH,
              b"User-agent: *\nContent-Usage: /\ttrain-ai=n\n",
              "a", "/", T, {"train-ai": F}),
    UsageCase("attach-robots-txt-itself", ATTACH,
              b"User-agent: *\nDisallow: /\nContent-Usage: / train-ai=n\n",
              "a", "/robots.txt", T, {"train-ai": F}),
    UsageCase("attach-disallowed-nothing-applies", ATTACH,
              b"User-agent: *\nDisallow: /\nContent-Usage: / train-ai=n\n",
              "a", "/page", F, {"train-ai": N}, ()),
    # draft-ietf-aipref-vocab: the format.
    UsageCase("vocab-example", VOCAB,
              b"User-agent: *\nContent-Usage: / train-ai=y, search=n\n",
              "a", "/", T, {"train-ai": T, "search": F, "ai-use": N}),
    UsageCase("vocab-multiple-last-wins", VOCAB,
              b'User-agent: *\nContent-Usage: / train-ai=y, train-ai, search=n, search="n"\n',
              "a", "/", T, {"train-ai": N, "search": N}),
    UsageCase("vocab-parameters-ignored", VOCAB,
              b"User-agent: *\nContent-Usage: / train-ai;allow=n, train-ai=y\n",
              "a", "/", T, {"train-ai": T}),
    UsageCase("vocab-uppercase-fails", VOCAB,
              b"User-agent: *\nContent-Usage: / Train-AI=n, search=y\n",
              "a", "/", T, {"train-ai": N, "search": N}),
    # Conflict with the vocab, which has a value that fails to parse state nothing: we keep
    # its refusals, read member by member, as for the header (issue 33 review; the upper-case
    # label still states nothing, no permission is read).
    UsageCase("ours-unparsed-value-keeps-refusals", OURS,
              b"User-agent: *\nContent-Usage: / Train-AI=n, search=n\n",
              "a", "/", T, {"train-ai": N, "search": F}),
    UsageCase("vocab-unknown-label-ignored", VOCAB,
              b"User-agent: *\nContent-Usage: / foo=n, ai-use=n\n",
              "a", "/", T, {"ai-use": F, "ai-input": N, "foo": N}),
    UsageCase("vocab-02-ai-use-is-ai-input", VOCAB_OLD,
              b"User-agent: *\nContent-Usage: / foo=n, ai-use=n\n",
              "a", "/", T, {"ai-use": F, "ai-input": F}, revision="02"),
    UsageCase("vocab-not-token-unknown", VOCAB,
              b"User-agent: *\nContent-Usage: / train-ai=?0, search=yes\n",
              "a", "/", T, {"train-ai": N, "search": N}),
    UsageCase("vocab-old-nesting", VOCAB_OLD,
              b"User-agent: *\nContent-Usage: / train-ai=y, train-genai=n\n",
              "a", "/", T, {"train-ai": T, "train-genai": F, "bots": N}, revision="03"),
    UsageCase("vocab-old-bots", VOCAB_OLD,
              b"User-agent: *\nContent-Usage: / bots=n, search=y\n",
              "a", "/", T, {"train-ai": F, "ai-train": F, "search": T, "ai-input": N},
              revision="03"),
    UsageCase("vocab-02-all", VOCAB_OLD,
              b"User-agent: *\nContent-Usage: / all=n, search=y\n",
              "a", "/", T, {"train-ai": F, "train-genai": F, "ai-use": F, "ai-input": F,
                            "search": T}, revision="02"),
    UsageCase("vocab-04-ai-output", VOCAB_OLD,
              b"User-agent: *\nContent-Usage: / ai-output=n, train-ai=y\n",
              "a", "/", T, {"search": F, "ai-input": F, "train-ai": T, "bots": N},
              revision="04"),
    UsageCase("vocab-current-bots-only-itself", VOCAB_CURRENT,
              b"User-agent: *\nContent-Usage: / bots=n, search=y\n",
              "a", "/", T, {"bots": F, "train-ai": N, "ai-train": N, "search": T,
                            "ai-input": N}),
    UsageCase("vocab-current-train-genai-only-itself", VOCAB_CURRENT,
              b"User-agent: *\nContent-Usage: / train-genai=n\nContent-Signal: ai-train=yes\n",
              "a", "/", T, {"train-genai": F, "train-ai": T, "ai-train": T}),
    # The Content Signals Policy.
    UsageCase("policy-file", POLICY, POLICY_FILE, "Googlebot", "/a", T,
              {"search": T, "ai-train": F, "train-ai": F, "ai-input": N}, (4,)),
    UsageCase("policy-file-amazonbot", POLICY, POLICY_FILE, "Amazonbot", "/a", F,
              {"search": N, "ai-train": N}, ()),
    UsageCase("policy-example", POLICY,
              b"User-Agent: *\nContent-Signal: ai-train=no, search=yes, ai-input=yes\n"
              b"Allow: /\n",
              "x", "/", T, {"search": T, "ai-input": T, "ai-use": N, "ai-train": F,
                            "train-ai": F}),
    UsageCase("policy-absent-no-preference", POLICY,
              b"User-Agent: *\nContent-Signal: search=yes\nAllow: /\n",
              "x", "/", T, {"search": T, "ai-train": N, "ai-input": N}),
    # This library's decisions (docs/guides/usage-preferences.md).
    UsageCase("ours-signal-case-insensitive", OURS,
              b"user-agent: *\ncontent-signal: Search=Yes, AI-Train=NO\n",
              "x", "/", T, {"search": T, "ai-train": F}),
    UsageCase("ours-signal-unknown-name", OURS,
              b"User-agent: *\nContent-Signal: ai_train=no, search=yes\n",
              "x", "/", T, {"ai-train": N, "search": T}),
    UsageCase("ours-signal-conflict-most-restrictive", OURS,
              b"User-agent: *\nContent-Signal: ai-train=yes\nContent-Signal: ai-train=no\n",
              "x", "/", T, {"ai-train": F}, (2, 3)),
    UsageCase("ours-signal-bad-value", OURS,
              b"User-agent: *\nContent-Signal: ai-train=maybe, search=y\n",
              "x", "/", T, {"ai-train": N, "search": N}),
    UsageCase("ours-key-prefix", OURS,
              b"User-agent: *\nContent-Signals: ai-train=no\n",
              "x", "/", T, {"ai-train": F}),
    UsageCase("ours-outside-group", OURS,
              b"Content-Signal: ai-train=no\nUser-agent: *\nDisallow: /x\n",
              "x", "/", T, {"ai-train": N}, ()),
    UsageCase("ours-both-vocabularies-most-restrictive", OURS,
              b"User-agent: *\nContent-Signal: ai-train=yes\nContent-Usage: / train-ai=n\n",
              "x", "/", T, {"ai-train": F, "train-ai": F}),
    UsageCase("ours-usage-without-path", OURS,
              b"User-agent: *\nContent-Usage: train-ai=n\n",
              "x", "/any", T, {"train-ai": F}),
    UsageCase("ours-longer-rule-replaces", OURS,
              b"User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /blog/ search=y\n",
              "x", "/blog/post", T, {"train-ai": N, "search": T}, (3,)),
    UsageCase("ours-signal-between-agents", OURS,
              b"User-agent: a\nContent-Signal: ai-train=no\nUser-agent: b\nDisallow: /x\n",
              "b", "/", T, {"ai-train": F}),
    UsageCase("ours-missing-colon", OURS,
              b"User-agent: *\nContent-Signal ai-train=no\n",
              "x", "/", T, {"ai-train": F}),
]
