"""The client fingerprint (accounts.fingerprints): keyed hashes of an address and its network,
compared, never read back. Table-driven; no database."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import RequestFactory

from accounts.fingerprints import (
    HEX_DIGITS,
    UNKNOWN,
    ClientFingerprint,
    client_fingerprint,
    fingerprint_of,
)


@pytest.mark.parametrize("one, other, same_address, same_network", [
    ("192.0.2.1", "192.0.2.1", True, True),
    ("192.0.2.1", "192.0.2.254", False, True),  # one /24
    ("192.0.2.1", "192.0.3.1", False, False),
    ("10.0.0.1", "10.0.1.1", False, False),
    ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9", False, True),  # one /64
    ("2001:db8:1:2::1", "2001:db8:1:3::1", False, False),
    ("2001:db8::1", "2001:0DB8:0:0::0001", True, True),  # one address, written two ways
    ("::ffff:192.0.2.1", "192.0.2.1", True, True),  # IPv4 mapped into IPv6 is the IPv4 one
    ("::ffff:192.0.2.1", "192.0.2.9", False, True),
    (" 192.0.2.1 ", "192.0.2.1", True, True),
])
def test_addresses_and_networks_are_compared(one: str, other: str, same_address: bool,
                                             same_network: bool) -> None:
    a, b = fingerprint_of(one), fingerprint_of(other)
    assert a.same_address(b) is same_address and b.same_address(a) is same_address
    assert a.same_network(b) is same_network and b.same_network(a) is same_network
    assert a.key("address") == a.address and a.key("network") == a.network
    assert a.key("off") == ""


@pytest.mark.parametrize("address", [None, "", "  ", "not an address", "192.0.2.1, 10.0.0.1",
                                     "256.1.1.1", "192.0.2.0/24"])
def test_what_is_not_one_address_is_unknown_and_matches_nothing(address: Any) -> None:
    found = fingerprint_of(address)
    assert found == UNKNOWN and not found.known
    assert not found.same_address(UNKNOWN) and not found.same_network(UNKNOWN)
    assert found.key("address") == found.key("network") == ""


def test_the_hashes_are_keyed_and_keep_nothing_of_the_address() -> None:
    mine = fingerprint_of("198.51.100.23", secret="one key")
    assert mine == fingerprint_of("198.51.100.23", secret="one key")
    other_key = fingerprint_of("198.51.100.23", secret="another key")
    assert not mine.same_address(other_key) and not mine.same_network(other_key)
    for digest in (mine.address, mine.network):
        assert len(digest) == HEX_DIGITS and int(digest, 16) >= 0
        assert "198" not in digest and "100.23" not in digest
    # The address and its network are hashed apart: neither hash is the other's.
    assert mine.address != mine.network
    assert mine.network != fingerprint_of("198.51.100.0", secret="one key").address


@pytest.mark.parametrize("proxies, remote, forwarded, seen", [
    (0, "203.0.113.5", "198.51.100.7", "203.0.113.5"),  # no proxy: the header is ignored
    (1, "127.0.0.1", "198.51.100.7", "198.51.100.7"),  # one proxy vouches for its client
    (1, "127.0.0.1", "6.6.6.6, 198.51.100.7", "198.51.100.7"),  # a forged hop is skipped
])
def test_the_client_is_who_the_throttles_say(settings: Any, proxies: int, remote: str,
                                             forwarded: str, seen: str) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies}
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_fingerprint(request) == fingerprint_of(seen)
    assert client_fingerprint(None) == UNKNOWN
    assert isinstance(client_fingerprint(request), ClientFingerprint)
