"""A real DNS server on loopback for the verification tests: small, authoritative, scriptable.

It listens on ``127.0.0.1`` on one free port, UDP and TCP alike (as a name server does), in
threads of the test process; messages are read and written with dnslib. Nothing else is
contacted: the checker under test is pointed at it by ``server="127.0.0.1:PORT"``.

Its zone is a list of zone-file lines (``"4.3.2.1.in-addr.arpa. 300 PTR crawl.example."``).
A question for a name it holds gets the records of that type, with the name's CNAME chain
followed inside the zone (as an authoritative server does for its own names) unless
``follow_cnames=False`` (then only the first link comes back, as from a server that does
not hold the target's zone); a name it does not hold gets NXDOMAIN with an SOA (TTL 300,
minimum 60); a name without that type gets an empty NOERROR answer with the SOA.

A UDP answer larger than the client's EDNS buffer (512 bytes without EDNS) is sent
truncated (TC, the question only), so the client must ask again over TCP.

``behaviour`` maps a question (``(name, type)``, name without the final dot, lower case;
``"*"`` for every question) to one of: ``"servfail"``; ``"drop"`` (never answered, on
either transport); ``"drop-first-udp"`` (the first UDP copy of the question is dropped,
later ones answered: a slow answer that only a retry after the per-query time-out gets);
``"drip"`` (UDP: truncated; TCP: the answer's bytes one at a time, one per ``drip_every``
seconds, until the server stops: slower than any deadline).

Every question is recorded in :attr:`DnsServer.queries` as ``(transport, name, type)``.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from collections.abc import Mapping, Sequence
from typing import Optional

from dnslib import CNAME, QTYPE, RCODE, RR, SOA, DNSRecord

HOST = "127.0.0.1"
_SOA = SOA("ns.test.", "hostmaster.test.", (1, 3600, 600, 86400, 60))


class DnsServer:
    """See the module docstring. Use as a context manager; :attr:`address` is ``ip:port``."""

    def __init__(self, zone: Sequence[str] = (), *, follow_cnames: bool = True,
                 behaviour: Optional[Mapping[tuple[str, str], str]] = None,
                 drip_every: float = 0.05) -> None:
        self.records: dict[tuple[str, str], list[RR]] = {}
        self.names: set[str] = set()
        for line in zone:
            for record in RR.fromZone(line):
                name = str(record.rname).rstrip(".").lower()
                self.names.add(name)
                self.records.setdefault((name, QTYPE[record.rtype]), []).append(record)
        self.follow_cnames = follow_cnames
        self.behaviour = dict(behaviour or {})
        self.drip_every = drip_every
        self.queries: list[tuple[str, str, str]] = []
        self._seen_udp: set[tuple[str, str]] = set()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._udp, self._tcp = _bind_both()
        self.port = self._udp.getsockname()[1]
        self._tcp.listen(16)
        self._threads = [threading.Thread(target=self._serve_udp, daemon=True),
                         threading.Thread(target=self._serve_tcp, daemon=True)]

    @property
    def address(self) -> str:
        return f"{HOST}:{self.port}"

    def __enter__(self) -> DnsServer:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for sock in (self._udp, self._tcp):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        for thread in self._threads:
            thread.join(5)

    def count(self, name: str, qtype: str, transport: Optional[str] = None) -> int:
        """How many times the question reached the server (over ``transport``, or any)."""
        with self._lock:
            return sum(1 for t, n, q in self.queries
                       if n == name and q == qtype and transport in (None, t))

    # -- answering ---------------------------------------------------------------------

    def _what(self, name: str, qtype: str) -> Optional[str]:
        return self.behaviour.get((name, qtype)) or self.behaviour.get(("*", "*"))

    def _answer(self, query: DNSRecord) -> DNSRecord:
        reply = query.reply()
        reply.header.aa = 1
        qname = str(query.q.qname).rstrip(".").lower()
        qtype = QTYPE[query.q.qtype]
        if self._what(qname, qtype) == "servfail":
            reply.header.rcode = RCODE.SERVFAIL
            return reply
        name, seen = qname, set()
        while True:
            seen.add(name)
            found = self.records.get((name, qtype), [])
            for record in found:
                reply.add_answer(record)
            if found:
                return reply
            links = self.records.get((name, "CNAME"), [])
            if not links:
                break
            for record in links:
                reply.add_answer(record)
            target = str(links[0].rdata.label).rstrip(".").lower()
            if not self.follow_cnames or target in seen or target not in self.names:
                return reply
            name = target
        if name not in self.names:
            reply.header.rcode = RCODE.NXDOMAIN
        apex = qname.partition(".")[2] or qname  # the zone this name would be in
        reply.add_auth(RR(apex + ".", QTYPE.SOA, ttl=300, rdata=_SOA))
        return reply

    def _read(self, data: bytes, transport: str) -> tuple[Optional[DNSRecord], str, str]:
        try:
            query = DNSRecord.parse(data)
        except Exception:
            return None, "", ""
        name = str(query.q.qname).rstrip(".").lower()
        qtype = QTYPE[query.q.qtype]
        with self._lock:
            self.queries.append((transport, name, qtype))
        return query, name, qtype

    def _serve_udp(self) -> None:
        while not self._stop.is_set():
            try:
                data, peer = self._udp.recvfrom(65535)
            except OSError:
                return
            query, name, qtype = self._read(data, "udp")
            if query is None:
                continue
            what = self._what(name, qtype)
            if what == "drop":
                continue
            if what == "drop-first-udp":
                with self._lock:
                    first = (name, qtype) not in self._seen_udp
                    self._seen_udp.add((name, qtype))
                if first:
                    continue
            reply = self._answer(query)
            packed = reply.pack()
            limit = 512
            for extra in query.ar:
                if extra.rtype == QTYPE.OPT:
                    limit = max(512, extra.rclass)
            if what == "drip" or len(packed) > limit:
                cut = query.reply()  # the question kept, as name servers do
                cut.header.tc = 1
                packed = cut.pack()
            try:
                self._udp.sendto(packed, peer)
            except OSError:
                return

    def _serve_tcp(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._tcp.accept()
            except OSError:
                return
            threading.Thread(target=self._connection, args=(conn,), daemon=True).start()

    def _connection(self, conn: socket.socket) -> None:
        with conn:
            while not self._stop.is_set():
                head = _exactly(conn, 2)
                if head is None:
                    return
                data = _exactly(conn, struct.unpack("!H", head)[0])
                if data is None:
                    return
                query, name, qtype = self._read(data, "tcp")
                if query is None:
                    return
                what = self._what(name, qtype)
                if what == "drop":
                    self._stop.wait()
                    return
                packed = self._answer(query).pack()
                framed = struct.pack("!H", len(packed)) + packed
                try:
                    if what == "drip":
                        for i in range(len(framed)):
                            if self._stop.wait(self.drip_every):
                                return
                            conn.sendall(framed[i:i + 1])
                    else:
                        conn.sendall(framed)
                except OSError:
                    return


def _bind_both() -> tuple[socket.socket, socket.socket]:
    """A UDP and a TCP socket on one free port (a port free for UDP may be taken for TCP by
    another process: try another)."""
    for _ in range(50):
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.bind((HOST, 0))
        tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            tcp.bind((HOST, udp.getsockname()[1]))
        except OSError:
            udp.close()
            tcp.close()
            continue
        return udp, tcp
    raise OSError("no port free for both UDP and TCP on loopback")


def _exactly(conn: socket.socket, size: int) -> Optional[bytes]:
    data = b""
    while len(data) < size:
        try:
            chunk = conn.recv(size - len(data))
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    return data


def cname(name: str, target: str, ttl: int = 300) -> str:
    """A zone line: ``name`` is an alias of ``target``."""
    return str(RR(name, QTYPE.CNAME, ttl=ttl, rdata=CNAME(target)))
