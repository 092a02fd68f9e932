"""Card list answers kept in the cache every server process shares (settings.CACHES
"card_lists": files on the server's disk), so a repeated request costs a file read.

An answer is kept under the catalogue's revision, the asker, the full URL (host, query string:
query, page, filters) and the media type, and only as JSON (the browsable API shows who is
signed in). The revision comes from the same cache (``shared_revision``), so a hit never
touches the database. A search with personal keys (``own:``, ``want:``, ``trade:``) is kept
per user anyway, and its answer also records the user's personal tag (their collection's
version): a hit whose tag has changed since is recomputed.
"""

from __future__ import annotations

import hashlib
import math
import pickle
import time
import zlib
from dataclasses import dataclass
from typing import IO, Any

from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache
from rest_framework.request import Request

from cards.api.caching import Validators
from cards.revision_cache import CatalogueVersion

CACHE = "card_lists"


@dataclass(frozen=True)
class CachedList:
    packed: bytes  # the body, compressed quickly (zlib's level 6, Django's file cache's,
    # took longer than computing a page of cards); PackedFileCache does not compress it again
    content_type: str
    etag: str
    last_modified: int | None
    personal: str | None  # the asker's personal tag the answer read, if it read any

    @classmethod
    def of(cls, body: bytes, content_type: str, validators: Validators,
           personal: str | None) -> CachedList:
        return cls(zlib.compress(body, 1), content_type, validators.etag,
                   validators.last_modified, personal)

    @property
    def body(self) -> bytes:
        return zlib.decompress(self.packed)

    @property
    def validators(self) -> Validators:
        return Validators(etag=self.etag, last_modified=self.last_modified)


def cacheable(request: Request) -> bool:
    renderer = getattr(request, "accepted_renderer", None)
    return request.method == "GET" and renderer is not None and renderer.format == "json"


def list_key(request: Request, version: CatalogueVersion) -> str:
    """Everything the answer depends on but the personal tag, which the entry records. The
    version's time too: a number that comes again after a rolled-back change is a new one."""
    user = request.user.pk if request.user.is_authenticated else "-"
    stamp = version.updated_at.timestamp() if version.updated_at else 0
    raw = f"{request.build_absolute_uri()}|{request.accepted_media_type}"
    digest = hashlib.sha256(raw.encode()).hexdigest()[:40]
    return f"card-list:{version.tag}.{stamp:.6f}:{user}:{digest}"


def cached_list(key: str) -> CachedList | None:
    entry = caches[CACHE].get(key)
    return entry if isinstance(entry, CachedList) else None


def keep_list(key: str, entry: CachedList) -> None:
    caches[CACHE].set(key, entry)


class PackedFileCache(FileBasedCache):
    """Django's file cache (settings.CACHES "card_lists"), writing each value as zlib's stored
    blocks instead of compressing it again at level 6: the answers it holds are compressed
    already (CachedList.packed), and a second pass over them was about 40% of keeping a
    page of 60 cards (docs/search-speed.md). The files stay readable by FileBasedCache, which
    decompresses whatever level wrote them."""

    # Django's file cache lists its folder on every write to see whether it is full, which
    # cost more than the write: 0.2 ms with ten entries, 2 ms with a thousand, 4.6 ms with
    # two thousand (docs/search-speed.md). A process lists it once per eighth of MAX_ENTRIES
    # writes (or a minute), and culls as Django does when the folder is seven eighths full,
    # so that there is room for the writes until the next listing: with several processes
    # writing, the folder may hold more than MAX_ENTRIES for a while, never near twice as many.
    ROOM_FRACTION = 8
    LIST_AGAIN_SECONDS = 60.0

    def __init__(self, dir: str, params: dict[str, Any]) -> None:
        super().__init__(dir, params)
        self._writes_left = 0  # before the folder is listed again
        self._listed_at = -math.inf

    def _cull(self) -> None:
        now = time.monotonic()
        if self._writes_left > 0 and now - self._listed_at < self.LIST_AGAIN_SECONDS:
            self._writes_left -= 1
            return
        self._listed_at = now
        room = max(1, self._max_entries // self.ROOM_FRACTION)
        self._writes_left = room - 1
        files = self._list_cache_files()  # type: ignore[attr-defined]  # not in the stubs
        if len(files) < self._max_entries - room:
            return
        if self._cull_frequency == 0:  # as FileBasedCache._cull
            self.clear()
            return
        # Every cull_frequency-th file, where Django picks as many at random: the names are
        # hashes of the keys, so either way the dropped answers are any.
        for name in sorted(files)[::self._cull_frequency]:
            self._delete(name)  # type: ignore[attr-defined]

    def _write_content(self, file: IO[bytes], timeout: Any, value: Any) -> None:
        expiry = self.get_backend_timeout(timeout)
        file.write(pickle.dumps(expiry, self.pickle_protocol))
        file.write(zlib.compress(pickle.dumps(value, self.pickle_protocol), 0))
