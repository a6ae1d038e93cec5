"""The streaming reader: compressions by magic number, sources (files, directories,
standard input), the line bound, memory that does not grow with the log, and hostile
input (NUL bytes, CR-only lines, a cut gzip, a gzip bomb of one endless line, mixed
formats) -- every line a request or counted, never a traceback."""

from __future__ import annotations

import bz2
import gzip
import io
import shutil
import subprocess
import sys
import tracemalloc
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from robotsrules._audit._formats import Request
from robotsrules._audit._logs import CHUNK, MAX_LINE, SNIFF_LINES, LineSplitter, LogReader

DATA = Path(__file__).parent / "data"
LINE = ('192.0.2.{n} - - [02/Nov/2026:06:{m:02d}:{s:02d} +0000] "GET /p/{n} HTTP/1.1" 200 {n} "-" '
        '"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"\n')


def line(n: int) -> bytes:
    return LINE.format(n=n % 250, m=(n // 60) % 60, s=n % 60).encode()


def body(count: int) -> bytes:
    return b"".join(line(n) for n in range(count))


# ------------------------------------------------------------------ compressions

def _zstd():  # type: ignore[no-untyped-def]
    if sys.version_info >= (3, 14):
        from compression import zstd
    else:
        zstd = pytest.importorskip("backports.zstd")
    return zstd


@pytest.mark.parametrize("kind", ["plain", "gzip", "bzip2", "zstd"])
def test_each_compression_is_told_by_its_magic_number(kind: str, tmp_path: Path) -> None:
    data = body(40)
    packed = {"plain": lambda b: b, "gzip": gzip.compress, "bzip2": bz2.compress,
              "zstd": lambda b: _zstd().compress(b)}[kind](data)
    path = tmp_path / "access.log"  # no telling extension: the bytes decide
    path.write_bytes(packed)
    reader = LogReader()
    requests = list(reader.read([path]))
    assert len(requests) == 40 and requests[7].target == "/p/7"
    assert reader.tally.lines == 40 and reader.tally.problems == {}


def test_a_zstd_file_of_several_frames(tmp_path: Path) -> None:
    zstd = _zstd()
    path = tmp_path / "log.zst"
    path.write_bytes(zstd.compress(body(10)) + zstd.compress(body(15)[len(body(10)):]))
    assert [r.target for r in LogReader().read([path])] == [f"/p/{n}" for n in range(15)]


def test_a_cut_gzip_keeps_what_came_before_and_counts_the_damage(tmp_path: Path) -> None:
    packed = gzip.compress(body(2000))
    path = tmp_path / "cut.log.gz"
    path.write_bytes(packed[: len(packed) // 2])
    reader = LogReader()
    requests = list(reader.read([path]))
    assert 0 < len(requests) < 2000
    assert reader.tally.problems == {"damaged": 1}
    assert "damaged" in reader.tally.examples["damaged"][0]
    # every request before the cut is whole: the unfinished last line is not read
    assert requests == list(LogReader().read([io.BytesIO(body(len(requests)))]))


def test_a_corrupt_gzip_is_counted_damaged(tmp_path: Path) -> None:
    packed = bytearray(gzip.compress(body(50)))
    packed[20:40] = b"\xff" * 20
    path = tmp_path / "bad.gz"
    path.write_bytes(bytes(packed))
    reader = LogReader()
    list(reader.read([path]))
    assert reader.tally.problems.get("damaged") == 1


def test_a_gzip_bomb_of_one_endless_line_stays_within_the_line_bound() -> None:
    # 64 MiB of one line, compressed to about 64 KiB: read one chunk at a time, skipped
    squeeze = zlib.compressobj(1, zlib.DEFLATED, 31)
    block = b"A" * (1 << 20)
    packed = b"".join([squeeze.compress(block) for _ in range(64)] + [squeeze.flush()])
    packed_tail = gzip.compress(b"\n" + line(1))
    reader = LogReader()
    tracemalloc.start()
    try:
        requests = list(reader.read([io.BytesIO(packed + packed_tail)]))
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [r.target for r in requests] == ["/p/1"]
    assert reader.tally.problems == {"too_long": 1}
    assert peak < 8 * MAX_LINE + 4 * CHUNK + len(packed), peak  # not the 64 MiB line


# ----------------------------------------------------------------------- sources

def test_a_directory_of_mixed_formats_each_file_detected(tmp_path: Path) -> None:
    for name in ("apache_combined.log", "caddy.json", "cloudfront.log", "alb.log"):
        shutil.copy(DATA / name, tmp_path / name)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "cf.ndjson.gz").write_bytes(
        gzip.compress((DATA / "cloudflare.ndjson").read_bytes()))
    reader = LogReader()
    requests = list(reader.read([tmp_path]))
    assert sorted(reader.tally.formats.values()) == [
        "alb", "caddy", "cloudflare", "cloudfront", "combined"]
    assert len(requests) == 5 + 3 + 2 + 2 + 4 == reader.tally.requests
    assert reader.tally.sources == 5


def test_mixed_formats_in_one_file_count_the_strangers_malformed() -> None:
    data = body(20) + (DATA / "caddy.json").read_bytes() + body(3)
    reader = LogReader()
    requests = list(reader.read([io.BytesIO(data)]))
    assert len(requests) == 23 and reader.tally.problems == {"malformed": 3}


def test_a_named_format_is_not_sniffed() -> None:
    reader = LogReader("caddy")
    assert list(reader.read([io.BytesIO(body(5))])) == []
    assert reader.tally.problems == {"malformed": 5}


def test_standard_input_through_a_child_process() -> None:
    script = ("import sys\nfrom robotsrules._audit._logs import LogReader\n"
              "r = LogReader()\nn = sum(1 for _ in r.read(['-']))\n"
              "print(n, r.tally.lines, sorted(r.tally.problems.items()))\n")
    done = subprocess.run([sys.executable, "-c", script], input=gzip.compress(body(30) + b"\x00\x01junk\n"),
                          capture_output=True, check=True)
    assert done.stdout.decode().split(None, 2) == ["30", "31", "[('binary', 1)]\n"]


def test_an_unreadable_path_is_the_callers_error(tmp_path: Path) -> None:
    from robotsrules.errors import InvalidArgument
    with pytest.raises(InvalidArgument, match="cannot read log"):
        list(LogReader().read([tmp_path / "missing.log"]))


# ---------------------------------------------------------------- lines and bounds

def test_cr_only_crlf_and_lf_lines_all_end_lines() -> None:
    data = line(1).replace(b"\n", b"\r") + line(2).replace(b"\n", b"\r\n") + line(3) + b"\r\n\n"
    reader = LogReader()
    assert [r.target for r in reader.read([io.BytesIO(data)])] == ["/p/1", "/p/2", "/p/3"]
    assert reader.tally.lines == 3 and reader.tally.problems == {}



def test_an_empty_chunk_between_cr_and_lf_is_no_blank_line() -> None:
    # chunks given to the library's reader may be empty: a CR LF cut around one is still
    # one line end (a blank line between them shifted every later line's number)
    first, second = line(1).rstrip(b"\n"), line(2)
    whole, cut = LogReader(), LogReader()
    list(whole.read_chunks([first + b"\r\n" + second], "log"))
    requests = list(cut.read_chunks([first + b"\r", b"", b"\n" + second], "log"))
    assert [r.target for r in requests] == ["/p/1", "/p/2"]
    assert (cut.tally.blank, cut.tally.lines) == (whole.tally.blank, whole.tally.lines) == (0, 2)

def test_a_last_line_without_its_end_is_read() -> None:
    assert [r.target for r in LogReader().read([io.BytesIO(body(3).rstrip(b"\n"))])] == [
        "/p/0", "/p/1", "/p/2"]


def test_nul_bytes_and_binary_junk_are_counted_with_visible_examples() -> None:
    junk = b"\x00\x00\x00\x1b[2J\x07" + bytes(set(range(256)) - {10, 13}) + b"\n"
    nul_line = line(5).replace(b"GET", b"G\x00T")
    reader = LogReader(examples=2)
    requests = list(reader.read([io.BytesIO(body(3) + junk + nul_line + junk + junk)]))
    assert len(requests) == 3
    assert reader.tally.problems == {"binary": 4}
    assert len(reader.tally.examples["binary"]) == 2
    example = reader.tally.examples["binary"][0]
    assert "\\x00" in example and "\\x1b[2J" in example and "\x1b" not in example


def test_a_line_over_the_bound_is_counted_and_skipped() -> None:
    long = b'192.0.2.1 - - [02/Nov/2026:06:00:00 +0000] "GET /' + b"a" * 5000 + b' HTTP/1.1" 200 1 "-" "x"\n'
    reader = LogReader(max_line=1024)
    requests = list(reader.read([io.BytesIO(body(2) + long + body(3))]))
    assert len(requests) == 5 and reader.tally.problems == {"too_long": 1}
    assert reader.tally.examples["too_long"][0].startswith("<stream>:3: 192.0.2.1")


def test_the_splitter_never_holds_more_than_the_bound() -> None:
    splitter = LineSplitter(max_line=100)
    out: list[object] = []
    for _ in range(1000):
        out += splitter.feed(b"x" * 37)
        assert len(splitter._buffer) <= 100
    out += splitter.feed(b"\nshort\n")
    assert len(out) == 2 and out[1] == b"short"
    assert type(out[0]).__name__ == "TooLong"


def test_a_line_ending_exactly_at_the_bound_is_read() -> None:
    text = line(9)
    reader = LogReader(max_line=len(text) - 1)
    assert [r.target for r in reader.read([io.BytesIO(text)])] == ["/p/9"]
    reader = LogReader(max_line=len(text) - 2)
    assert list(reader.read([io.BytesIO(text)])) == [] and reader.tally.problems == {"too_long": 1}


def test_invalid_utf8_is_kept_visible() -> None:
    raw = line(4).replace(b"Googlebot", b"Google\xffbot")
    json_raw = (DATA / "nginx.json").read_bytes().splitlines()[0].replace(b"Googlebot", b"Google\xe9bot")
    (request,) = LogReader().read([io.BytesIO(raw)])
    assert "Google\\xffbot" in (request.user_agent or "")
    (request,) = LogReader().read([io.BytesIO(json_raw + b"\n")])
    assert "Google%E9bot" in (request.user_agent or "")  # JSON logs: percent-encoded


def test_clock_going_backwards_beyond_the_skew_is_noted_and_kept() -> None:
    lines = [line(600), line(590), line(100), line(700)]  # 06:10, 06:09:50, 06:01:40, 06:11:40
    reader = LogReader()
    requests = list(reader.read([io.BytesIO(b"".join(lines))]))
    assert len(requests) == 4
    assert reader.tally.problems == {"clock_backwards": 1}
    assert reader.tally.examples["clock_backwards"][0].startswith("<stream>:3:")


# ------------------------------------------------------------------------ streaming

class CountingLines:
    """A log of ``total`` lines made on demand; ``made`` counts the lines produced."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.made = 0

    def __iter__(self) -> Iterator[bytes]:
        for n in range(self.total):
            self.made += 1
            yield line(n)


def test_the_reader_pulls_lines_only_as_far_as_the_requests_taken() -> None:
    source = CountingLines(10_000_000)
    reader = LogReader()
    requests = reader.read_chunks(source, "lazy")
    taken = [next(requests) for _ in range(3)]
    assert [r.target for r in taken] == ["/p/0", "/p/1", "/p/2"]
    assert source.made == SNIFF_LINES  # the sniffing window, nothing more
    for _ in range(100):
        next(requests)
    assert source.made == 103


def test_memory_does_not_grow_with_the_number_of_lines() -> None:
    def peak(count: int) -> int:
        reader = LogReader()
        tracemalloc.start()
        try:
            for _request in reader.read_chunks(CountingLines(count), "lazy"):
                pass
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            assert reader.tally.requests == count

    small, large = peak(1_000), peak(10_000)
    assert large < small + 64 * 1024, (small, large)


def test_every_line_is_a_request_a_comment_or_counted() -> None:
    data = (DATA / "cloudfront.log").read_bytes() + b"garbage\n\x00\n" + b"x" * 2000 + b"\n"
    reader = LogReader("cloudfront", max_line=1000)
    requests = list(reader.read([io.BytesIO(data)]))
    tally = reader.tally
    assert tally.lines == len(requests) + tally.comments + tally.dropped
    assert tally.problems == {"malformed": 1, "binary": 1, "too_long": 1}
    assert all(isinstance(r, Request) for r in requests)


def test_examples_name_the_line_as_an_editor_numbers_it() -> None:
    # a CR LF split between two chunks is one line end; blank lines keep their numbers
    chunks = [line(1).replace(b"\n", b"\r"), b"\n" + line(2).replace(b"\n", b"\r\n"),
              b"\r\n\n", b"not a request\r", b"\n"]
    reader = LogReader("combined")
    assert [r.target for r in reader.read_chunks(chunks, "log")] == ["/p/1", "/p/2"]
    assert reader.tally.examples["malformed"] == ["log:5: not a request"]
    assert reader.tally.blank == 2 and reader.tally.lines == 3


def test_a_zstd_file_without_a_zstd_module_is_counted_not_guessed(tmp_path: Path) -> None:
    path = tmp_path / "log.zst"
    path.write_bytes(_zstd().compress(body(3)))
    # a child where neither zstd module can be imported (as on a machine without them)
    script = ("import sys\nsys.modules['backports.zstd'] = None\n"
              "sys.modules['compression.zstd'] = None\n"
              "from robotsrules._audit._logs import LogReader\n"
              "r = LogReader()\nprint(len(list(r.read([sys.argv[1]]))), r.tally.problems)\n"
              "print(r.tally.examples['unknown_format'][0])\n")
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                          check=True, text=True)
    counts, example = done.stdout.splitlines()
    assert counts == "0 {'unknown_format': 1}"
    assert "zstd-compressed, and no zstd module" in example


def test_a_clock_going_back_in_year_one_is_counted_not_a_traceback() -> None:
    # the minute before 0001-01-01T00:00:30 is no time: the difference is compared instead
    line = ('192.0.2.1 - - [01/Jan/0001:00:{t} +0000] "GET / HTTP/1.1" 200 1 "-" '
            '"Firefox/1.0"\n')
    data = "".join(line.format(t=t) for t in ("00:30", "00:10", "05:00", "00:00")).encode()
    for chunk in (data, data + b"\x00\n"):  # searched as a batch; read line by line
        for keep in (None, lambda agent: False):  # requests; lines let go
            reader = LogReader("combined", keep=keep)
            assert len(list(reader.read_chunks([chunk], "log"))) == (4 if keep is None else 0)
            assert reader.tally.problems["clock_backwards"] == 1
            assert reader.tally.examples["clock_backwards"][0].startswith("log:4: ")
