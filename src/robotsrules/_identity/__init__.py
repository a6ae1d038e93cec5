"""Who is really asking: visitor verification by the operators' published address lists and
forward-confirmed reverse DNS (issue 36). Fetches, when it must, through the fetch layer;
the fetch layer never imports this package."""
