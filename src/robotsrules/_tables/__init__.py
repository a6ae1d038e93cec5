"""The shipped tables and their readers: the crawler registry, the robots.txt extensions,
the purposes vocabularies, the data-file reader and the tables' provenance."""
