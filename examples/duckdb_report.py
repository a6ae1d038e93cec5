# %% [markdown]
# # Which pages opted out of which AI crawlers? (a notebook-style DuckDB script)
#
# Run it whole (`python examples/duckdb_report.py [robots.parquet urls.parquet]`) or cell by
# cell in an editor that understands `# %%` cells (VS Code, PyCharm, Jupytext). Without
# arguments it builds two small tables in memory; with two Parquet files it reads them:
# a robots table (`url`, `body`, optional `status`, `date`) and a URL table (`url`).

# %%
import sys
from pathlib import Path

import duckdb
import pyarrow as pa

import robotsrules.duckdb

AGENTS = ["GPTBot", "CCBot", "Google-Extended", "Googlebot"]

con = robotsrules.duckdb.register(duckdb.connect())

# %% [markdown]
# ## The inputs

# %%
if len(sys.argv) == 3:
    robots_rel = con.read_parquet(sys.argv[1])
    if "status" not in robots_rel.columns:          # optional: no status means a 2xx body
        robots_rel = robots_rel.select("*, NULL::INTEGER AS status")
    robots_rel.create_view("robots")
    con.read_parquet(sys.argv[2]).create_view("urls")
else:
    example = Path("examples/robots.txt").read_bytes()
    robots_table = pa.table({
        "url": ["https://example.com/robots.txt", "https://shop.example/robots.txt",
                "https://down.example/robots.txt"],
        "body": [example, b"User-agent: *\nDisallow: /cart\n", b"<h1>Service unavailable</h1>"],
        "status": [200, 200, 503],
    })
    urls_table = pa.table({"url": [
        "https://example.com/", "https://example.com/private/plan.html",
        "https://example.com/docs/report.pdf", "https://shop.example/item/1",
        "https://shop.example/cart", "https://down.example/page", "https://unknown.example/",
    ]})
    con.register("robots", robots_table)
    con.register("urls", urls_table)

# %% [markdown]
# ## One verdict per URL and agent
#
# `robots_verdict(body, status, url, agent)` applies RFC 9309's status rules (a 503 means
# "disallow all for now") and returns the verdict, the deciding line and the reason. A URL
# whose site has no robots row gets NULL: nothing is known, which is not a permission.

# %%
agents = pa.table({"agent": AGENTS})
con.register("agents", agents)
verdicts = con.sql("""
    SELECT u.url, a.agent,
           robots_verdict(r.body, r.status, u.url, a.agent) AS v
    FROM urls u CROSS JOIN agents a
    LEFT JOIN robots r ON robots_origin(r.url) = robots_origin(u.url)
""")
con.sql("CREATE TABLE verdicts AS SELECT url, agent, v.allowed AS allowed, v.line AS line, "
        "v.reason AS reason FROM verdicts")

# %% [markdown]
# ## Shares per agent

# %%
shares = con.sql("""
    SELECT agent,
           count(*) FILTER (WHERE allowed)          AS allowed,
           count(*) FILTER (WHERE NOT allowed)      AS disallowed,
           count(*) FILTER (WHERE allowed IS NULL)  AS unknown
    FROM verdicts GROUP BY agent ORDER BY agent
""")
print(shares)

# %% [markdown]
# ## The pages opted out of AI training but open to search

# %%
print(con.sql("""
    SELECT g.url
    FROM verdicts g JOIN verdicts s ON g.url = s.url
    WHERE g.agent = 'GPTBot' AND NOT g.allowed AND s.agent = 'Googlebot' AND s.allowed
    ORDER BY g.url
"""))
