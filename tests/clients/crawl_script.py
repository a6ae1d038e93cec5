"""A real Scrapy crawl, run in a subprocess by ``test_scrapy.py``.

Usage: ``python crawl_script.py SETTINGS_JSON URLS_JSON``; prints the crawl's stats as one
JSON line on stdout (the last line), the URLs that reached the spider under ``"seen"``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

import scrapy
from scrapy.crawler import CrawlerProcess


class ListSpider(scrapy.Spider):
    """Requests the URLs it is given, nothing else."""

    name = "list"

    def __init__(self, urls: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = urls
        self.seen: list[str] = []

    def parse(self, response: scrapy.http.Response) -> Iterator[dict[str, str]]:
        self.seen.append(response.url)
        yield {"url": response.url}


def main() -> None:
    settings = json.loads(sys.argv[1])
    urls = json.loads(sys.argv[2])
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(ListSpider)
    process.crawl(crawler, urls=urls)
    process.start()
    stats = {key: value for key, value in crawler.stats.get_stats().items()
             if isinstance(value, (int, float, str))}
    stats["seen"] = sorted(crawler.spider.seen)
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
