"""Follow the links of one site, yielding each page's URL and title."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any, Optional
from urllib.parse import urlsplit

import scrapy


class SiteSpider(scrapy.Spider):
    """`scrapy crawl site -a start=http://127.0.0.1:8000/ -O pages.jsonl`"""

    name = "site"

    def __init__(self, start: Optional[str] = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not start:
            raise ValueError("pass the start URL: scrapy crawl site -a start=URL")
        self.start_url = start
        self.origin = urlsplit(start)[:2]

    async def start(self) -> AsyncIterator[scrapy.Request]:
        # A plain request (not dont_filter, as start_urls makes it): a link back to the
        # start page is then filtered as a duplicate.
        yield scrapy.Request(self.start_url)

    def parse(self, response: scrapy.http.Response) -> Iterator[Any]:
        yield {"url": response.url, "title": response.css("title::text").get()}
        for href in response.css("a::attr(href)").getall():
            link = response.urljoin(href)
            if urlsplit(link)[:2] == self.origin:
                yield response.follow(link, callback=self.parse)
