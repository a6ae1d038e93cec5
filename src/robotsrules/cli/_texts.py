"""The command line's words, in one table: for each command, its line in ``robotsrules
--help``, the description that opens its own ``--help``, its exit codes and its examples
(the end of its ``--help``). The command modules keep the options and what the command
does; :func:`robotsrules.cli._options.add_command` reads a command's words here by its name
(``"crawlers refresh"`` for a subcommand). ``docs/reference/cli.md`` shows them as
``--help`` prints them (``scripts/docs_cli.py``), so the page and this table cannot drift."""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["TEXTS", "Texts"]


class Texts(NamedTuple):
    """One command's words."""

    help: str
    """Its line in the list of commands."""
    description: str
    """The paragraph that opens its ``--help``."""
    exits: str
    """Its exit codes, in words (after "Exit codes:")."""
    examples: tuple[str, ...]
    """Command lines that show it, one a line."""


TEXTS: Final[dict[str, Texts]] = {
    "check": Texts(
        help="may AGENT fetch each URL? prints the verdict and the deciding line",
        description="Print, for each URL and each AGENT, whether AGENT may fetch it and "
                    "which line decides. Each URL's robots.txt is fetched (and cached) "
                    "unless --robots names one for all of them.",
        exits="0 every URL allowed for every agent, 1 some URL disallowed (for any agent), "
              "2 usage or I/O error (or a bad URL line). A robots.txt that could not be "
              "fetched means 'disallowed' (RFC 9309 §2.3.1.4); a note on stderr says so.",
        examples=("robotsrules check --agent ExampleBot https://www.python.org/downloads/",
                  "robotsrules check --robots examples/robots.txt --agent GPTBot "
                  "--agent ExampleBot /private/x /a.pdf",
                  "robotsrules check --robots robots.txt --agent-category ai-training "
                  "--urls-file urls.txt --json"),
    ),
    "explain": Texts(
        help="show the file with the groups that apply and the line that decides",
        description="Show FILE_OR_URL (a file, '-' or a URL) with line numbers: '|' marks "
                    "the groups that apply to AGENT, '>' the deciding line; then the "
                    "reason, one block per agent.",
        exits="0 allowed, 1 disallowed (for any agent), 2 usage or I/O error.",
        examples=("robotsrules explain examples/robots.txt --agent ExampleBot "
                  "https://example.com/a.pdf",
                  "robotsrules explain https://example.com/robots.txt --agent GPTBot "
                  "--agent CCBot /",
                  "robotsrules explain examples/robots.txt --agent-category ai-training / "
                  "--json"),
    ),
    "fetch": Texts(
        help="fetch the robots.txt that governs URL and show what it means",
        description="Fetch the robots.txt of URL's origin (no cache): status, outcome, "
                    "redirects, expiry, size and a summary of the groups; once per --agent "
                    "(a server may answer each User-Agent differently).",
        exits="0 fetched (whatever the outcome), 2 usage error.",
        examples=("robotsrules fetch https://www.python.org/",
                  "robotsrules fetch --agent GPTBot --agent Googlebot https://example.com/ "
                  "--json"),
    ),
    "agents": Texts(
        help="groups and their agents; may well-known crawlers fetch a URL?",
        description="List the groups of FILE_OR_URL with their agents and rule counts, then, "
                    "for a shipped table of well-known crawler tokens (search engines and AI "
                    "crawlers), what the file says to each (may it fetch URL, which group "
                    "decides) and, beside it, what the crawler's operator says it does with "
                    "robots.txt.",
        exits="0 done, 2 usage or I/O error.",
        examples=("robotsrules agents examples/robots.txt",
                  "robotsrules agents https://example.com/ --url /private/x",
                  "robotsrules agents examples/robots.txt --agent-category ai-training "
                  "--by-category"),
    ),
    "diff": Texts(
        help="the (agent, URL) verdicts that change between two files",
        description="Compare two versions of a robots.txt: a summary, then every (agent, "
                    "URL) whose verdict changes, with the lines responsible. Without --urls, "
                    "URLs are derived from the rules of both files; without --agent, every "
                    "agent either file names is compared, and '*'.",
        exits="0 no change, 1 some verdict changes, 2 usage or I/O error.",
        examples=("robotsrules diff old/robots.txt robots.txt",
                  "robotsrules diff https://example.com/robots.txt robots.txt --agent GPTBot",
                  "robotsrules diff old.txt new.txt --urls urls.txt --json"),
    ),
    "lint": Texts(
        help="find what is wrong with a robots.txt: codes, lines, fixes",
        description="Check each FILE_OR_URL (a path, '-' for stdin, or a URL to fetch) and "
                    "print diagnostics with a stable code, severity, line, column, message "
                    "and fix hint. '--list-codes' prints the table of codes.",
        exits="0 no finding at or above --fail-on, 1 some finding at or above it, 2 usage "
              "or I/O error (or the URL could not be fetched), 3 a URL has no robots.txt "
              "(HTTP 4xx: nothing to lint; said on stdout too).",
        examples=("robotsrules lint robots.txt",
                  "robotsrules lint https://example.com/robots.txt --fail-on warning",
                  "robotsrules lint --format sarif robots.txt > lint.sarif"),
    ),
    "usage": Texts(
        help="AI usage preferences (Content-Signal, Content-Usage) for URLs",
        description="For each URL (default /) and each AGENT: may AGENT crawl it, and what "
                    "does FILE_OR_URL (a file, '-' or a URL) say about using it for search, "
                    "as AI input, for AI training (Content-Signal names and the IETF aipref "
                    "categories), with the lines that say so. '-' means nothing is stated.",
        exits="0 every URL may be crawled by every agent, 1 at least one may not, 2 usage "
              "or I/O error.",
        examples=("robotsrules usage examples/robots.txt --agent ExampleBot /",
                  "robotsrules usage https://example.com/robots.txt --agent GPTBot "
                  "--agent CCBot / /blog/",
                  "robotsrules usage robots.txt --agent-category ai-training --json"),
    ),
    "stance": Texts(
        help="does the file disallow all, none or some paths for each agent?",
        description="For each AGENT, whether FILE_OR_URL (a file, '-' or a URL) disallows "
                    "every path ('all'), none ('none') or some ('some'), decided from the rules "
                    "alone and exactly as 'check' would answer for every URL; with the lines "
                    "that decide and example paths.",
        exits="0 nothing disallowed for any agent, 1 some path disallowed for some agent, 2 "
              "usage or I/O error. The table form (--robots TABLE or --robots-warc with "
              "--out): 0 done, 2 usage or I/O error, 130/143 interrupted.",
        examples=("robotsrules stance examples/robots.txt --agent GPTBot --agent ExampleBot",
                  "robotsrules stance https://example.com/robots.txt --agent-category "
                  "ai-training --json",
                  "robotsrules stance --robots robots.parquet --agent GPTBot --out "
                  "stances.parquet"),
    ),
    "page": Texts(
        help="page-level signals of a response: X-Robots-Tag, meta robots, TDMRep...",
        description="Read a page's X-Robots-Tag and Robots-Tag, robots meta tags, "
                    "noai/noimageai, TDMRep and Content-Usage signals and say what they mean "
                    "for each AGENT and which one decides; list the RSL licences it names and "
                    "what a pay-per-crawl 402 asks. URL_OR_FILE: an http(s) URL "
                    "(fetched, with its site's /.well-known/tdmrep.json), a saved HTTP "
                    "response (curl -i), an HTML file, or '-' (the TDMRep header and meta "
                    "only); at most the headers and --max-head-bytes of the body are read.",
        exits="0 done, 2 usage or I/O error.",
        examples=("robotsrules page https://example.com/article --agent GPTBot",
                  "curl -si https://example.com/ | robotsrules page - --agent GPTBot "
                  "--agent Googlebot",
                  "robotsrules page saved.http --url https://example.com/a --robots "
                  "robots.txt --agent CCBot --purpose ai-train --json"),
    ),
    "license": Texts(
        help="what RSL 1.0 licence documents say about URLs (permits, prohibits, payment)",
        description="Read SOURCE, an RSL 1.0 licence document (a file, '-' or a URL) or a "
                    "robots.txt (a file, a URL ending in /robots.txt, or a site's URL such "
                    "as https://example.com/) whose License lines are followed, and say "
                    "for each URL whether each use (--purpose; default the RSL usage "
                    "tokens) is permitted, licensed on terms, prohibited, unstated, or "
                    "unknown (the document could not be fetched or read, or robots.txt "
                    "was unreachable with no earlier copy), with the deciding element. "
                    "Without URL: the documents' contents and licences.",
        exits="0 every answer permitted or unstated, 1 some use prohibited or offered only "
              "on terms, 2 usage or I/O error, or a licence document that could not be "
              "fetched or read, or a robots.txt unreachable with no earlier copy.",
        examples=("robotsrules license https://example.com/robots.txt --agent GPTBot "
                  "https://example.com/a",
                  "robotsrules license license.xml --origin https://example.com/ "
                  "https://example.com/docs/x --purpose ai-train",
                  "robotsrules license robots.txt --origin https://example.com/ --json"),
    ),
    "bulk": Texts(
        help="verdicts for many URLs and agents from a table of robots.txt bodies",
        description="Judge every URL of --urls for every --agent against the robots.txt of "
                    "its origin, from a robots table (--robots: columns url, body, optional "
                    "status and date) or WARC captures (--robots-warc). Reads Parquet, CSV, "
                    "JSON Lines or text (one URL a line); writes Parquet or CSV with columns "
                    "url, agent, allowed, line, reason, origin. allowed is empty (null) when "
                    "nothing is known: the origin has no robots row (see --missing) or the "
                    "URL has no robots.txt scope.",
        exits="0 done, 2 usage or I/O error, 130 interrupted, 143 terminated (nothing is "
              "written under the --out name then).",
        examples=("robotsrules bulk --robots robots.parquet --urls urls.parquet --agent GPTBot "
                  "--agent CCBot --out verdicts.parquet",
                  "robotsrules bulk --robots-warc crawl/*.warc.gz --urls urls.txt "
                  "--agent-category ai-training --purpose ai-train --out v.parquet",
                  "robotsrules bulk --robots robots.parquet --urls urls.parquet --agent GPTBot "
                  "--as-of fetch_date --out then.parquet"),
    ),
    "report": Texts(
        help="who is blocked where: shares of URLs and sites, top sites, pairs",
        description="Summarise a verdict table written by 'robotsrules bulk': for each agent "
                    "the share of URLs and of sites disallowed (with --stances or --robots: "
                    "sites whose robots.txt stance is all or some, and the count of each "
                    "stance), the sites that block the most URLs, and which agents are "
                    "blocked where others are not.",
        exits="0 done, 2 usage or I/O error.",
        examples=("robotsrules report verdicts.parquet",
                  "robotsrules report verdicts.parquet --robots robots.parquet --chart "
                  "report.png",
                  "robotsrules report verdicts.parquet --top 20 --json"),
    ),
    "verify": Texts(
        help="is a visitor the crawler it claims to be? (address lists, "
             "reverse DNS, signed requests)",
        description="Verify a visitor by its address: is it in the published address list "
                    "of the crawler its User-Agent header claims, or does its reverse DNS "
                    "name lie under the operator's documented names and resolve back to "
                    "it? Answers verified, not-verified, unverifiable (the operator "
                    "publishes no evidence, or the header names no known crawler) or "
                    "unknown (the evidence could not be had: a DNS failure, a list not "
                    "captured), with every kind of evidence and its outcome. Google's "
                    "user-triggered-fetchers list and gae.googleusercontent.com names are "
                    "Google Cloud customers', never Google. Without --user-agent or "
                    "--agent: whose published list holds the address. Here --user-agent is "
                    "the header the VISITOR sent (in the commands that fetch, it is the "
                    "header robotsrules sends).",
        exits="0 verified (every address, with --file), 1 any other verdict, 2 usage or "
              "I/O error.",
        examples=("robotsrules verify 66.249.66.1 --user-agent 'Mozilla/5.0 (compatible; "
                  "Googlebot/2.1; +http://www.google.com/bot.html)'",
                  "robotsrules verify 20.171.207.2 --agent GPTBot --no-dns",
                  "robotsrules verify 66.249.66.1",
                  "robotsrules verify --file visitors.txt --json",
                  "robotsrules verify --request request.txt"),
    ),
    "logs": Texts(
        help="audit access logs: which crawlers came, were they who they claimed, did they "
             "obey the robots.txt in force?",
        description="Read access logs (Apache and nginx common/combined and their vhost "
                    "variants, nginx JSON, Caddy, Cloudflare Logpush, CloudFront, ALB; plain, "
                    "gzip, bzip2, zstd; files, folders, '-' for standard input) and judge "
                    "every crawler request against the robots.txt in force at its time: a "
                    "violation only if every version in force during the window before it "
                    "(RFC 9309 §2.4: 24 hours) disallows it; one disallowed only by a younger "
                    "file is 'within the caching allowance'. Addresses are verified against "
                    "the operators' published lists (--dns adds reverse DNS). Crawl-delay is "
                    "judged only for crawlers whose operator says they read it.",
        exits="0 no violation found, 1 some, 2 usage or I/O error.",
        examples=("robotsrules logs access.log --site https://example.com --robots robots.txt",
                  "robotsrules logs /var/log/nginx/ --site https://example.com "
                  "--robots-history robots-history/ --out requests.parquet",
                  "robotsrules logs access.log.gz --site https://example.com "
                  "--robots https://example.com/robots.txt --json"),
    ),
    "generate": Texts(
        help="write a robots.txt that does exactly what you choose, proven",
        description="Write a robots.txt from your choices: block or allow crawlers by token or "
                    "by registry category, close paths to every crawler, state AI usage "
                    "preferences, crawl delays, sitemaps and an RSL licence. Each group repeats "
                    "what it needs of the * group; the file is read back in Google's reading, "
                    "RFC 9309's and the legacy reading and every verdict compared with the "
                    "choices. A choice no file can express so is refused with one line saying "
                    "why.",
        exits="0 written, 2 usage or I/O error, or a choice that cannot be expressed",
        examples=("robotsrules generate --block-category ai-training --usage ai-train=n",
                  "robotsrules generate --block GPTBot --disallow-path /private/ "
                  "--sitemap https://example.com/sitemap.xml --out robots.txt",
                  "robotsrules generate --from robots.txt --block-category ai-training "
                  "--out robots.txt",
                  "robotsrules generate --policy policy.toml --json"),
    ),
    "crawlers": Texts(
        help="the crawlers' published address lists: refresh them",
        description="The operators' published address lists of their crawlers, as the "
                    "address snapshot holds them.",
        exits="as its subcommand's.",
        examples=("robotsrules crawlers refresh",),
    ),
    "crawlers refresh": Texts(
        help="fetch every address list again and write the user's copy",
        description="Fetch every operator-published address list of the snapshot in force "
                    "from its current URL (with If-None-Match when an ETag was kept; at "
                    "most 4 MiB and --timeout per list; no list asked for twice within an "
                    "hour or within its Cache-Control max-age), check each (JAFAR "
                    "format; hostile and cloud providers' lists refused; a list "
                    "redirected to another host, or from https to http, fails), show the "
                    "prefixes added and removed per list, and write the "
                    "copy atomically to the user's data directory ($ROBOTSRULES_ADDRESSES, "
                    "else $XDG_DATA_HOME/robotsrules/crawler-addresses.json) or to "
                    "--snapshot FILE. A list that fails keeps its old content. The bundled "
                    "snapshot in the package is never written; answers take, list by list, "
                    "the newer read of it and of the refreshed copy.",
        exits="0 every list read or kept current, 1 some list failed (its old content "
              "kept), 2 usage or I/O error.",
        examples=("robotsrules crawlers refresh",
                  "robotsrules crawlers refresh --snapshot lists.json --json"),
    ),
    "keys": Texts(
        help="Web Bot Auth: make a signing key and the key directory to publish",
        description="The Ed25519 key that signs robotsrules' requests (Web Bot Auth, HTTP "
                    "message signatures) and the key directory that lets sites check them.",
        exits="as its subcommand's.",
        examples=("robotsrules keys generate --out bot-key.pem",
                  "robotsrules keys directory --signing-key bot-key.pem"),
    ),
    "keys generate": Texts(
        help="write a new Ed25519 signing key (never printed)",
        description="Write a new Ed25519 private key, PKCS#8 PEM, with file mode 0600, to --out "
                    "FILE or, without it, to $ROBOTSRULES_SIGNING_KEY or signing-key.pem in "
                    "the user's robotsrules data directory ($XDG_DATA_HOME/robotsrules/). The "
                    "key is never printed, and an existing file is never overwritten. Prints "
                    "the path and the key's keyid (its RFC 7638 thumbprint).",
        exits="0 written, 2 usage or I/O error (the file exists, or cannot be written).",
        examples=("robotsrules keys generate --out bot-key.pem",),
    ),
    "keys directory": Texts(
        help="print the key directory (JWK Set) to publish, optionally its signed headers",
        description="Print the key directory of the public keys of --signing-key (repeat it to "
                    "publish two keys while rotating): a JWK Set to serve at "
                    "/.well-known/http-message-signatures-directory with media type "
                    "application/http-message-signatures-directory+json, each key's kid its "
                    "thumbprint. A key file readable by group or others is refused. With "
                    "--signed-headers --authority HOST, first the response headers "
                    "(Content-Type, Content-Digest and one signature per key, valid for 30 "
                    "days: make them again before then), a blank line, then the document.",
        exits="0 printed or written, 2 usage or I/O error (a key unreadable, not Ed25519 or "
              "readable by others).",
        examples=("robotsrules keys directory --signing-key bot-key.pem --out directory.json",
                  "robotsrules keys directory --signing-key new.pem --signing-key old.pem",
                  "robotsrules keys directory --signing-key bot-key.pem --signed-headers "
                  "--authority bot.example"),
    ),
    "serve": Texts(
        help="the workbench page: test a robots.txt in the browser",
        description="Serve the site owner's workbench on this computer: paste, upload or fetch "
                    "a robots.txt, test many URLs for many agents and see the deciding lines "
                    "and lint findings. Needs pip install 'robotsrules[web]'.",
        exits="0 stopped, 2 usage error or the address cannot be bound, 130 interrupted "
              "(Ctrl-C), 143 terminated",
        examples=("robotsrules serve --open", "robotsrules serve --port 8080"),
    ),
}
