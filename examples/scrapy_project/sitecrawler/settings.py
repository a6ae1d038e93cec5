"""Settings of the example Scrapy project: robots.txt obeyed through robotsrules.

Scrapy's own robots.txt middleware parses whatever body the robots.txt request returned,
so a 503 error page becomes an allow-all file; robotsrules' middleware applies RFC 9309's
status rules (4xx: allow all; 429, 5xx and network errors: disallow all for now) and reads
the file exactly as Google does.
"""

BOT_NAME = "sitecrawler"
SPIDER_MODULES = ["sitecrawler.spiders"]
USER_AGENT = "ExampleBot/1.0 (+https://example.com/bot)"

ROBOTSTXT_OBEY = True
DOWNLOADER_MIDDLEWARES = {
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "robotsrules.scrapy.RobotsTxtMiddleware": 100,
}
# Optional: share the robots.txt cache between runs and processes.
# ROBOTSRULES_STORE = "sqlite:///var/cache/sitecrawler/robots.sqlite3"
ROBOTSRULES_MAX_CRAWL_DELAY = 10   # the longest Crawl-delay a site may impose on us

TELNETCONSOLE_ENABLED = False
LOG_LEVEL = "INFO"
