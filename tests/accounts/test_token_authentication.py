"""API tokens kept per process (accounts.token_authentication): a kept key costs no query and
gives what DRF gives; a revoked token or an inactive user is refused at once in the process
that revoked it, as DRF refuses it; another process's revocation counts once the TTL is over;
``API_TOKEN_CACHE_SECONDS = 0`` reads every time. The clock is the test's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from accounts import token_authentication
from accounts.api import TokenView
from accounts.api_tokens import api_token_revoke
from accounts.token_authentication import CachedTokenAuthentication, TokenCache
from decks.api.views import DeckViewSet

pytestmark = pytest.mark.django_db

TTL = 10


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    """The process's kept tokens on the test's clock, with the TTL of the settings."""
    settings.API_TOKEN_CACHE_SECONDS = TTL
    clock = Clock()
    monkeypatch.setattr(token_authentication, "tokens", TokenCache(clock=clock))
    return clock


@pytest.fixture
def ada(db: None) -> User:
    return User.objects.create_user("ada", "ada@example.org", first_name="Ada")


@pytest.fixture
def key(ada: User) -> str:
    return Token.objects.create(user=ada).key


def authenticate(key: str, cls: type[TokenAuthentication] = CachedTokenAuthentication) -> Any:
    request = RequestFactory().get("/api/decks/", HTTP_AUTHORIZATION=f"Token {key}")
    return cls().authenticate(Request(request))


def token_reads(call: Callable[[], Any]) -> tuple[Any, int, int]:
    """What ``call`` answers, its queries, and how many of them read the token table."""
    with CaptureQueriesContext(connection) as captured:
        answer = call()
    sql = [query["sql"] for query in captured.captured_queries]
    return answer, len(sql), sum('"authtoken_token"' in line for line in sql)


def test_a_kept_key_is_served_without_a_query(clock: Clock, key: str,
                                              django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(1):
        authenticate(key)
    with django_assert_num_queries(0):
        user, token = authenticate(key)
    assert (user.username, token.key) == ("ada", key)


def test_a_kept_key_gives_what_drf_gives(clock: Clock, key: str) -> None:
    authenticate(key)
    kept_user, kept_token = authenticate(key)
    user, token = authenticate(key, TokenAuthentication)

    def seen(user: Any, token: Any) -> tuple[Any, ...]:
        return (type(user), user.pk, user.username, user.first_name, user.is_active,
                user.is_authenticated, type(token), token.pk, token.user_id, token.user is user,
                user.auth_token is token)
    assert seen(kept_user, kept_token) == seen(user, token)
    assert (kept_user, kept_token) == (user, token)  # model equality: same class, same pk


def test_a_request_s_changes_to_its_user_stay_its_own(clock: Clock, key: str) -> None:
    user, token = authenticate(key)
    user.first_name = "changed, never saved"
    token.user.email = "changed@example.org"
    again, _ = authenticate(key)
    assert (again.first_name, again.email) == ("Ada", "ada@example.org")
    assert again is not user


def test_an_api_request_with_a_kept_key_reads_no_token(clock: Clock, key: str) -> None:
    client = Client(HTTP_AUTHORIZATION=f"Token {key}")
    first, first_count, first_reads = token_reads(lambda: client.get("/api/decks/"))
    second, second_count, second_reads = token_reads(lambda: client.get("/api/decks/"))
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert (first_reads, second_reads) == (1, 0)
    assert second_count == first_count - 1


def deleted(ada: User, key: str) -> None:
    Token.objects.get(key=key).delete()


def revoked(ada: User, key: str) -> None:
    api_token_revoke(user=ada)


def revoked_by_delete(ada: User, key: str) -> None:
    assert Client(HTTP_AUTHORIZATION=f"Token {key}").delete("/api/auth/token/").status_code \
        == 204


def new_password(ada: User, key: str) -> None:
    ada.set_password("a-New-Secret-77")
    ada.save()


def regenerated(ada: User, key: str) -> None:
    Token.objects.filter(user=ada).delete()
    Token.objects.create(user=ada)


def made_inactive(ada: User, key: str) -> None:
    ada.is_active = False
    ada.save()


def user_deleted(ada: User, key: str) -> None:
    ada.delete()


@pytest.mark.parametrize(("revoke", "detail"), [
    (deleted, "Invalid token."),
    (revoked, "Invalid token."),
    (revoked_by_delete, "Invalid token."),
    (new_password, "Invalid token."),
    (regenerated, "Invalid token."),
    (made_inactive, "User inactive or deleted."),
    (user_deleted, "Invalid token."),
])
def test_a_kept_key_is_refused_at_once_once_revoked_in_the_process(
        clock: Clock, ada: User, key: str, revoke: Callable[[User, str], None],
        detail: str) -> None:
    authenticate(key)
    assert authenticate(key)[0] == ada  # kept
    revoke(ada, key)
    with pytest.raises(AuthenticationFailed) as refused:
        authenticate(key)
    assert str(refused.value.detail) == detail
    assert len(token_authentication.tokens) == 0


def test_a_new_token_works_at_once_and_the_old_one_does_not(clock: Clock, ada: User,
                                                           key: str) -> None:
    authenticate(key)
    regenerated(ada, key)
    fresh = Token.objects.get(user=ada).key
    assert authenticate(fresh)[1].key == fresh
    with pytest.raises(AuthenticationFailed):
        authenticate(key)


def test_a_user_saved_in_the_process_is_read_afresh(clock: Clock, ada: User, key: str) -> None:
    authenticate(key)
    ada.first_name = "Augusta"
    ada.save()
    user, _ = authenticate(key)
    assert user.first_name == "Augusta"


def test_another_process_s_revocation_counts_once_the_ttl_is_over(clock: Clock,
                                                                  key: str) -> None:
    """The bound of the design: another server process deleted the row (no signal here)."""
    authenticate(key)
    with connection.cursor() as cursor:
        cursor.execute('DELETE FROM "authtoken_token" WHERE "key" = %s', [key])
    clock.now += TTL - 0.5
    assert authenticate(key)[1].key == key  # kept, still let in
    clock.now += 0.5
    with pytest.raises(AuthenticationFailed):
        authenticate(key)


@pytest.mark.parametrize(("after", "reads"), [(0, 0), (TTL - 0.001, 0), (TTL, 1), (TTL * 5, 1)])
def test_a_key_is_read_again_once_its_ttl_is_over(clock: Clock, key: str, after: float,
                                                  reads: int) -> None:
    authenticate(key)
    clock.now += after
    (user, token), _, token_read = token_reads(lambda: authenticate(key))
    assert (token_read, token.key, user.username) == (reads, key, "ada")
    if reads:  # kept again from the new read, for another TTL
        clock.now += TTL - 0.001
        assert token_reads(lambda: authenticate(key))[2] == 0


def test_a_ttl_of_0_reads_every_time_and_keeps_nothing(clock: Clock, settings: Any,
                                                      key: str) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 0
    reads = [token_reads(lambda: authenticate(key))[2] for _ in range(3)]
    assert reads == [1, 1, 1] and len(token_authentication.tokens) == 0


def test_an_unknown_key_or_an_inactive_user_is_never_kept(clock: Clock, ada: User,
                                                         key: str) -> None:
    User.objects.filter(pk=ada.pk).update(is_active=False)  # no signal: nothing to drop
    for _ in range(2):
        for refused in ("not-a-key", key):
            with pytest.raises(AuthenticationFailed):
                authenticate(refused)
    assert len(token_authentication.tokens) == 0


@pytest.mark.parametrize(("view", "method", "path"), [
    (TokenView, "delete", "/api/auth/token/"),  # the token first: a 401 that says how
    (DeckViewSet, "post", "/api/decks/"),  # the default order, the session first: a 403
])
@pytest.mark.parametrize("sent", ["unknown", "inactive", "revoked", "no key", "two words"])
def test_a_refusal_is_answered_as_drf_answered_it(
        clock: Clock, monkeypatch: pytest.MonkeyPatch, ada: User, key: str, view: Any,
        method: str, path: str, sent: str) -> None:
    header = {"unknown": f"Token {'0' * 40}", "inactive": f"Token {key}",
              "revoked": f"Token {key}", "no key": "Token", "two words": "Token a b"}[sent]
    client = Client(HTTP_AUTHORIZATION=header)
    authenticate(key)  # kept before what refuses it
    if sent == "inactive":
        made_inactive(ada, key)
    if sent == "revoked":
        revoked(ada, key)

    def answer(cls: type[TokenAuthentication]) -> tuple[Any, ...]:
        classes = [cls, SessionAuthentication] if view is TokenView \
            else [SessionAuthentication, cls]
        monkeypatch.setattr(view, "authentication_classes", classes)
        got = getattr(client, method)(path, {}, content_type="application/json")
        return (got.status_code, got["Content-Type"], got.get("WWW-Authenticate"), got.json())

    ours, drf = answer(CachedTokenAuthentication), answer(TokenAuthentication)
    assert ours == drf
    assert ours[0] == (401 if view is TokenView else 403)
    assert ours[3]["code"] == "authentication_failed"


def test_the_least_recently_used_key_is_dropped_past_the_size() -> None:
    kept = TokenCache(size=2, clock=Clock())
    users = [User(pk=n, username=f"u{n}") for n in range(3)]
    for n in (0, 1):
        kept.keep(f"k{n}", users[n], Token(key=f"k{n}", user=users[n]), ttl=TTL,
                  since=kept.generation)
    assert kept.get("k0") is not None  # used: k1 is now the least recent
    kept.keep("k2", users[2], Token(key="k2", user=users[2]), ttl=TTL, since=kept.generation)
    assert [name for name in ("k0", "k1", "k2") if kept.get(name)] == ["k0", "k2"]


def test_a_read_that_a_revocation_overtook_is_not_kept() -> None:
    kept = TokenCache(clock=Clock())
    ada = User(pk=1, username="ada")
    since = kept.generation  # the look-up starts reading
    kept.forget(user_id=2)  # meanwhile a revocation (any user's: it cannot tell)
    kept.keep("k", ada, Token(key="k", user=ada), ttl=TTL, since=since)
    assert kept.get("k") is None and len(kept) == 0


def test_the_schema_still_describes_token_authentication(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    assert schema["components"]["securitySchemes"]["tokenAuth"] == {
        "type": "apiKey", "in": "header", "name": "Authorization",
        "description": 'Token-based authentication with required prefix "Token"'}
    decks = schema["paths"]["/api/decks/"]["post"]["security"]
    assert {"tokenAuth": []} in decks
