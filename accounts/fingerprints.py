"""Where a request came from, kept without keeping the address: a keyed fingerprint.

Card edits and votes record the client's address as two keyed hashes (HMAC-SHA256 with the
site's ``SECRET_KEY``, truncated to 128 bits): one of the full address, one of its network (the
/24 of an IPv4 address, the /64 of an IPv6 one: what one household, office or phone usually
holds). Two rows can then be compared (same address? same network?) while the address itself is
never stored, logged or shown. What the fingerprints cannot do:

* Be read back without the key. With the key, an IPv4 address can be found by trying all 2^32
  of them, so they are personal data all the same: kept with the edit, shown to staff only, and
  never exported (``export_edits`` and the public edit documents leave them out).
* Match across a change of ``SECRET_KEY``: a fingerprint made under the old key never equals
  one made under the new (the old key in ``SECRET_KEY_FALLBACKS`` is not tried), so for edits
  open across a rotation the comparison says "different".

The address is the one the throttles and the login lockout see (accounts.lockout
.client_address: ``X-Forwarded-For`` only as far as ``DJANGO_NUM_PROXIES`` trusted proxies vouch
for it). An address that is missing or not an IP address gives the empty fingerprint, which
matches nothing.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any

from django.utils.crypto import salted_hmac

from accounts.lockout import client_address

IPV4_NETWORK = 24
IPV6_NETWORK = 64
HEX_DIGITS = 32  # 128 bits: no two addresses of one site will ever share a fingerprint
_SALT = "accounts.fingerprints."


@dataclass(frozen=True)
class ClientFingerprint:
    """Keyed hashes of a client's address and network; empty strings when unknown."""

    address: str = ""
    network: str = ""

    @property
    def known(self) -> bool:
        return bool(self.address)

    def same_address(self, other: ClientFingerprint) -> bool:
        return bool(self.address) and self.address == other.address

    def same_network(self, other: ClientFingerprint) -> bool:
        return bool(self.network) and self.network == other.network

    def key(self, level: str) -> str:
        """The fingerprint compared at ``level`` (``address`` or ``network``; "" for ``off``
        or unknown)."""
        if level == "address":
            return self.address
        if level == "network":
            return self.network
        return ""


UNKNOWN = ClientFingerprint()


def _keyed(kind: str, text: str, secret: str | None) -> str:
    return salted_hmac(_SALT + kind, text, secret=secret, algorithm="sha256").hexdigest()[
        :HEX_DIGITS]


def fingerprint_of(address: str | None, *, secret: str | None = None) -> ClientFingerprint:
    """The fingerprint of an IP address in text (``secret``: the key, default SECRET_KEY).

    An IPv4 address mapped into IPv6 (``::ffff:192.0.2.1``) counts as the IPv4 address, so a
    dual-stack server sees one client as one.
    """
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return UNKNOWN
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = IPV4_NETWORK if ip.version == 4 else IPV6_NETWORK
    network = ipaddress.ip_network(f"{ip}/{prefix}", strict=False)
    return ClientFingerprint(address=_keyed("address", ip.compressed, secret),
                             network=_keyed("network", network.with_prefixlen, secret))


def client_fingerprint(request: Any) -> ClientFingerprint:
    """The fingerprint of the request's client (UNKNOWN without a request)."""
    return fingerprint_of(client_address(request))
