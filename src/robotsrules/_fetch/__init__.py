"""The fetch layer's private parts: the fetcher, the robots.txt cache, its refresh, the
sync/async driver and pacing. It never imports the identity package; signing, when it
comes, is a callable it is given."""
