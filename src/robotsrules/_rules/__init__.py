"""The robots.txt reader's private parts: parsing, outlines, matching, the legacy reading,
patterns, precedence, URLs, agents, stances and usage lines (nearly the whole compiled
group; this ``__init__`` stays pure and empty)."""
