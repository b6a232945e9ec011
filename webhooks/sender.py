"""SSRF-safe outbound HTTP for webhook delivery.

A receiver URL is checked twice: when it is registered (`check_url`) and again before every
attempt (`post` calls `check_url` itself). The check:

- accepts only `https` URLs without credentials, with a plain host name or a canonical
  IP literal (odd spellings such as `2130706433`, `0x7f.1` or `0177.0.0.1` are refused
  before any resolver sees them, because C resolvers read them as loopback);
- resolves the host and refuses it when *any* address is not global unicast (loopback,
  private, link-local and the 169.254.169.254 metadata address, CGNAT 100.64/10,
  unique-local, IPv4-mapped/6to4/Teredo/NAT64 IPv6, 0.0.0.0, `::`, multicast, reserved);
- connects to the address it checked, never to a second lookup (no DNS rebinding), while
  the URL's host name is kept for TLS (SNI and certificate verification) and `Host`.

Redirects are never followed: a 3xx is just a status code for the delivery policy.
`settings.WEBHOOK_ALLOW_LOOPBACK` (tests and local development only; production refuses to
start with it) additionally allows 127.0.0.0/8 and ::1, and plain `http` to those only.
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.exceptions import HTTPError as Urllib3HTTPError
from urllib3.exceptions import NewConnectionError
from urllib3.exceptions import TimeoutError as Urllib3Timeout

MAX_RESPONSE_BYTES = 4096
USER_AGENT = "Tidemark-Webhooks/1.0"

_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$", re.IGNORECASE)
_HOST_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$", re.IGNORECASE)


class UnsafeURL(ValueError):
    """The URL may not be used as a webhook receiver; the message says why."""


class DNSFailure(OSError):
    """The receiver's host name could not be resolved (a retryable failure)."""


@dataclass(frozen=True)
class Target:
    """A checked receiver: where to connect, and the names to present there."""

    scheme: str
    host: str  # as in the URL (lower case, IDNA), for SNI, certificate check and Host
    port: int
    path: str  # path and query, as sent on the request line
    addresses: tuple[str, ...]  # every resolved address, all of them checked

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"


@dataclass(frozen=True)
class Response:
    status: int
    excerpt: bytes  # at most MAX_RESPONSE_BYTES of the body


class SendError(Exception):
    """An attempt that got no HTTP status. `kind` is the error class recorded on the attempt."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


def resolve(host: str, port: int) -> list[str]:
    """Every address the system resolver gives for `host`, in its order (tests patch this)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise DNSFailure(f"cannot resolve {host}: {exc}") from exc
    addresses: list[str] = []
    for info in infos:
        address = str(info[4][0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise DNSFailure(f"{host} has no addresses")
    return addresses


def address_refusal(address: str, *, allow_loopback: bool) -> str | None:
    """Why this address may not be contacted, or None when it is a public unicast address."""
    if "%" in address:
        return f"{address} is a scoped (link-local) address"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return f"{address} is not an IP address"
    if isinstance(ip, ipaddress.IPv6Address):
        # Addresses that embed an IPv4 address reach it through translation or tunnels.
        if ip.ipv4_mapped is not None:
            return f"{address} is an IPv4-mapped IPv6 address"
        if ip.sixtofour is not None or ip.teredo is not None:
            return f"{address} is a tunnelled (6to4/Teredo) address"
        if any(ip in net for net in _NAT64):
            return f"{address} is a NAT64 address"
        if ip.is_site_local:
            return f"{address} is a site-local address"
    if ip.is_loopback:
        return None if allow_loopback else f"{address} is a loopback address"
    if ip.is_unspecified:
        return f"{address} is the unspecified address"
    if ip.is_link_local:
        return f"{address} is a link-local address (cloud metadata lives there)"
    if ip.is_multicast:
        return f"{address} is a multicast address"
    if isinstance(ip, ipaddress.IPv4Address) and ip in ipaddress.ip_network("100.64.0.0/10"):
        return f"{address} is a carrier-grade NAT address"
    if ip.is_private or ip.is_reserved or not ip.is_global:
        return f"{address} is not a public address"
    return None


def _host_refusal(host: str) -> str | None:
    """Refuse host spellings that resolvers read in surprising ways."""
    if not host:
        return "the URL has no host"
    if ":" in host:  # an IPv6 literal (urlsplit removed the brackets)
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return f"{host} is not a valid IPv6 address"
        return None
    labels = host.split(".")
    # A name whose last label is numeric is an IP literal (no top-level domain is numeric):
    # only the canonical dotted quad is accepted, not 2130706433, 0x7f.1 or 0177.0.0.1.
    if _NUMERIC_LABEL.match(labels[-1]):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return f"{host} is an unusual IP address spelling"
        return None
    if not all(_HOST_LABEL.match(label) for label in labels):
        return f"{host} is not a valid host name"
    return None


def check_url(url: str, *, resolver_port: int | None = None) -> Target:
    """Parse, resolve and check a receiver URL. Raises UnsafeURL or DNSFailure."""
    allow_loopback = bool(settings.WEBHOOK_ALLOW_LOOPBACK)
    if any(ch in url for ch in "\r\n\t\x00 "):
        raise UnsafeURL("the URL contains whitespace or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UnsafeURL(f"the URL is malformed: {exc}") from exc
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        raise UnsafeURL("only https URLs are accepted")
    if scheme == "http" and not allow_loopback:
        raise UnsafeURL("only https URLs are accepted")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise UnsafeURL("credentials in the URL are not accepted")
    raw_host = (parts.hostname or "").rstrip(".")
    try:
        host = raw_host.encode("idna").decode("ascii").lower() if raw_host else ""
    except UnicodeError as exc:
        raise UnsafeURL(f"{raw_host} is not a valid host name") from exc
    refusal = _host_refusal(host)
    if refusal:
        raise UnsafeURL(refusal)
    port = port or (443 if scheme == "https" else 80)
    try:
        literal: ipaddress.IPv4Address | ipaddress.IPv6Address | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    addresses = [str(literal)] if literal is not None else resolve(host, resolver_port or port)
    for address in addresses:
        refusal = address_refusal(address, allow_loopback=allow_loopback)
        if refusal:
            raise UnsafeURL(f"{host} resolves to a forbidden address: {refusal}")
    if scheme == "http" and not all(ipaddress.ip_address(a).is_loopback for a in addresses):
        raise UnsafeURL("plain http is only allowed to loopback receivers")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(scheme, host, port, path, tuple(addresses))


def _connection(target: Target, address: str, connect_timeout: float) -> HTTPConnection:
    if target.scheme == "https":
        return HTTPSConnection(
            address,
            target.port,
            timeout=connect_timeout,
            server_hostname=target.host,
            assert_hostname=target.host,
            cert_reqs="CERT_REQUIRED",
        )
    return HTTPConnection(address, target.port, timeout=connect_timeout)


def post(
    url: str,
    body: bytes,
    headers: dict[str, str],
    *,
    connect_timeout: float | None = None,
    total_timeout: float | None = None,
) -> Response:
    """POST `body` to a checked receiver; raise UnsafeURL (final) or SendError (retryable).

    The total deadline is hard: a watchdog shuts the socket down when it passes, so a
    receiver that drips bytes cannot hold a worker longer than `total_timeout`.
    """
    connect_timeout = connect_timeout or settings.WEBHOOK_CONNECT_TIMEOUT
    total_timeout = total_timeout or settings.WEBHOOK_TOTAL_TIMEOUT
    try:
        target = check_url(url)
    except DNSFailure as exc:
        raise SendError("dns_error", str(exc)) from exc
    started = time.monotonic()
    conn = _connection(target, target.addresses[0], min(connect_timeout, total_timeout))
    expired = threading.Event()

    def _expire() -> None:
        expired.set()
        sock = conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    watchdog = threading.Timer(total_timeout, _expire)
    watchdog.daemon = True
    watchdog.start()
    try:
        conn.connect()
        conn.timeout = max(0.1, total_timeout - (time.monotonic() - started))
        request_headers = {
            "Host": target.host_header,
            "User-Agent": USER_AGENT,
            "Accept": "*/*",
            "Connection": "close",
            **headers,
        }
        # preload_content=False: the body is read below, and only its first few KiB.
        conn.request("POST", target.path, body=body, headers=request_headers, preload_content=False)
        response = conn.getresponse()
        try:
            excerpt = response.read(MAX_RESPONSE_BYTES)
        except (Urllib3HTTPError, OSError):
            excerpt = b""  # the status decides; an unreadable body does not matter
        return Response(status=response.status, excerpt=excerpt)
    except Exception as exc:
        raise _classify(exc, expired.is_set(), total_timeout) from exc
    finally:
        watchdog.cancel()
        conn.close()


def _classify(exc: Exception, expired: bool, total_timeout: float) -> SendError:
    """Map what urllib3, http.client, ssl and the socket raise to an attempt's error class."""
    if expired:
        return SendError("timeout", f"no complete answer within {total_timeout}s")
    # NewConnectionError subclasses urllib3's ConnectTimeoutError, so it is tested first.
    if isinstance(exc, NewConnectionError):
        cause = exc.__cause__ or exc.__context__
        if isinstance(cause, ConnectionRefusedError):
            return SendError("connection_refused", str(exc))
        return SendError("connection_error", str(exc))
    if isinstance(exc, Urllib3Timeout | TimeoutError | socket.timeout):
        return SendError("timeout", str(exc) or "timed out")
    if isinstance(exc, ConnectionRefusedError):
        return SendError("connection_refused", str(exc))
    if isinstance(exc, ssl.SSLError | ssl.CertificateError):
        return SendError("tls_error", str(exc))
    # OSError, urllib3's ProtocolError, http.client's RemoteDisconnected/BadStatusLine, ...
    return SendError("connection_error", f"{type(exc).__name__}: {exc}")
