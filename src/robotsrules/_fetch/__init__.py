"""The fetch layer's private parts: the fetcher, the robots.txt cache, its refresh, the
sync/async driver and pacing. It never imports the identity package: signing is a callable
it is given (``_sign.Sign``), applied to every request by one step (``_sign.sign_headers``)."""
