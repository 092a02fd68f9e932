"""The one settings file. Everything that differs between machines comes from the environment.

DJANGO_DEBUG        "1" for development (default "1" unless DJANGO_ENV=production)
DJANGO_SECRET_KEY   required when DEBUG is off (`make serve-prod` makes one if it is unset)
DJANGO_ALLOWED_HOSTS comma-separated (default: localhost names)
DATABASE_URL        e.g. postgres://user@127.0.0.1:5432/allegiance (default: SQLite in var/)
MEDIA_ROOT          where image renditions are written (default: var/media)
REDIS_URL           e.g. redis://127.0.0.1:6379/0: the tables' channel layer across server
                    processes (channels-redis); unset, one process's in-memory layer

With DEBUG off (docs/deploy.md explains each; all default to the safe value):
DJANGO_SSL_REDIRECT          "0" when nothing but loopback reaches the server over plain HTTP
DJANGO_HSTS_SECONDS          Strict-Transport-Security max-age (default one year; 0 turns it off)
DJANGO_HSTS_INCLUDE_SUBDOMAINS, DJANGO_HSTS_PRELOAD   HSTS flags (default on)
DJANGO_SECURE_COOKIES        session and CSRF cookies only over HTTPS (default on)
DJANGO_CSRF_TRUSTED_ORIGINS  comma-separated origins, for a proxy that rewrites the Host
DJANGO_CACHE_DIR             the cache shared by every worker (default var/cache)
DJANGO_NUM_PROXIES           proxies in front that append to X-Forwarded-For (default 0)
DJANGO_THROTTLE_RATES        scope=rate pairs over the default rates, e.g. "draws=600/minute"

PostgreSQL connection pooling (psycopg's pool, one per process; docs/deploy.md "Scale-out"):
DATABASE_POOL                "1" turns it on (then connections are not kept per request)
DATABASE_POOL_MIN_SIZE, DATABASE_POOL_MAX_SIZE   connections per process (default 1 and 2)
DATABASE_POOL_TIMEOUT        seconds a request waits for a free connection (default 10)
GOLDFISH_CHUNK_GAMES games per chunk of a goldfish run (default 250: a few seconds of work)
TABLE_GRACE_SECONDS  how long a person whose page closed keeps his seat at a table before
                     another may hand it to the AI (default 120; docs/tables.md)
TABLE_PRESENCE_TTL   seconds a sign of a person's presence at a table counts without being
                     confirmed: a socket of a server that died, an API client's last request
                     (default 90; docs/tables.md "Presence")
TABLE_CACHE_SIZE     the tables' games each server process keeps in play, the least recently
                     used dropped first (default 64; docs/tables.md "Storage")

Accounts and e-mail (docs/deploy.md "Accounts and e-mail"):
ACCOUNTS_REQUIRE_VERIFIED_EMAIL  "0": accounts without a verified e-mail edit and vote (default 1)
ACCOUNTS_VERIFICATION_TIMEOUT    seconds a verification link works (default 259200: 3 days)
ACCOUNTS_LOGIN_FAILURES_PER_ACCOUNT  failed logins that lock an account (default 5; 0: no limit)
ACCOUNTS_LOGIN_FAILURES_PER_ADDRESS  failed logins that lock a client address (default 30; 0: none)
ACCOUNTS_LOGIN_LOCKOUT_SECONDS   the window those are counted in, and the lock's length (900)
API_TOKEN_CACHE_SECONDS          what an API token resolved to is kept per process this long,
                                 so a revoked token may work this long on another (10; 0: off)
EMAIL_HOST                       an SMTP server; unset, e-mails are printed on the console
EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS  port (587), login, STARTTLS (1)
DEFAULT_FROM_EMAIL               the sender (default "Allegiance DB <noreply@localhost>")
DJANGO_EMAIL_CONSOLE             "1": with DEBUG off and no EMAIL_HOST, the console is meant

Card edits by card owners (docs/design.md §13, docs/contributing-card-data.md):
CARD_EDIT_APPROVALS            approvals from counting voters that apply an edit (default 2)
CARD_EDIT_VOTER_MIN_AGE_DAYS   account age a vote needs to count, unless the voter has applied
                               edits or is staff; younger accounts are "new" (default 7)
CARD_EDIT_EXPIRE_DAYS          an open edit expires after this many days without a vote (30)
CARD_EDIT_TRUSTED_AFTER        applied edits that make an editor trusted: their edits apply at
                               once (default 10)
CARD_EDIT_TRUSTED_AFTER_CLEAN  fewer applied edits that make a careful editor trusted: none of
                               their edits rejected, reverted or voted against (default 5; the
                               same number as CARD_EDIT_TRUSTED_AFTER turns it off)
CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS  open edits a new account may have at once (default 5)
CARD_EDIT_VOTER_ADDRESS_CHECK  "address" (default): votes from the editor's client address do
                               not count, and votes from one address count once; "network":
                               the same by /24 or /64; "off" (the default on a small private
                               site: minimum age 0 and no e-mail verification)
"""

import logging
import os
from collections.abc import Callable
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from config.env_settings import one_of, pool_options, throttle_rates, whole_number

# Lets classes such as admin.ModelAdmin[Card] be subscripted at run time, as mypy wants them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("ALLEGIANCE_VAR_DIR", BASE_DIR / "var"))


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DJANGO_DEBUG", os.environ.get("DJANGO_ENV") != "production")
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

_hosts = os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
ALLOWED_HOSTS = [h.strip() for h in _hosts.split(",") if h.strip()]

INSTALLED_APPS = [
    # Daphne first: its runserver serves the site over ASGI, the tables' WebSockets included.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "channels",
    # The project's apps, lowest first (docs/architecture.md: the arrows point up this list).
    "sitewide",
    "backup",
    "cards",
    "accounts",
    "decks",
    "collection",
    "simulations",
    "playtest",
    "edits",
    "tables",
    # After the project's apps, so that the simulations app's db_worker (which waits out a database
    # restart) is the one `manage.py db_worker` runs, not the library's own.
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: an unexpected error under /api/ is a 500 problem document, not an HTML page.
    "api.server_errors.ApiServerErrorMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
            ],
        },
    },
]

_default_db = f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
DATABASES = {
    "default": dj_database_url.parse(os.environ.get("DATABASE_URL", _default_db), conn_max_age=60)
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web server read while an import or a worker writes; IMMEDIATE avoids
    # "database is locked" upgrades from read to write transactions. A page cache of up to
    # 32 MiB (2 MiB by default) holds a 10,000-card catalogue: a search that reads every card
    # (a count) then costs half as much.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                        "PRAGMA cache_size=-32768;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # Kept between requests too (conn_max_age above): opening a connection and running the
    # PRAGMAs cost a card list more than twice the whole health view (docs/search-speed.md).
_pool = pool_options(env_flag("DATABASE_POOL", False), os.environ.get("DATABASE_POOL_MIN_SIZE"),
                     os.environ.get("DATABASE_POOL_MAX_SIZE"),
                     os.environ.get("DATABASE_POOL_TIMEOUT"))
if _pool is not None:
    if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_POOL needs PostgreSQL (DATABASE_URL=postgres://...).")
    # The pool keeps the connections; Django must hand each back after the request.
    DATABASES["default"]["OPTIONS"] = {**DATABASES["default"].get("OPTIONS", {}), "pool": _pool}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
# A connection kept from an earlier request (CONN_MAX_AGE) or handed out by the pool is checked
# before it is used, so a restarted PostgreSQL costs the requests in flight, not every later one
# that would meet a dead connection (with the pool, this is psycopg's check on every getconn).
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The tables' WebSockets (tables/consumers.py): one process's in-memory channel layer, or
# Redis across several server processes (docs/tables.md, docs/deploy.md).
ASGI_APPLICATION = "config.asgi.application"
# A socket waits for its messages with Redis's blocking pop, 5 s at a time (channels-redis's
# brpop_timeout); redis-py 8 gives up reading after 5 s by default, which closed every socket
# left idle that long (error 1011). Its read timeout is set above the pop's.
REDIS_READ_TIMEOUT = 15
CHANNEL_LAYERS = {"default": (
    {"BACKEND": "channels_redis.core.RedisChannelLayer",
     "CONFIG": {"hosts": [{"address": os.environ["REDIS_URL"],
                           "socket_timeout": REDIS_READ_TIMEOUT}]}}
    if os.environ.get("REDIS_URL") else {"BACKEND": "channels.layers.InMemoryChannelLayer"})}
# Fixture JSON with times to the microsecond, for backups (Django's "json" keeps milliseconds).
SERIALIZATION_MODULES = {"exactjson": "backup.exact_json"}
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/decks/"
LOGOUT_REDIRECT_URL = "/"
# Only accounts with a verified e-mail edit cards and vote (docs/design.md §13;
# accounts.verification).
ACCOUNTS_REQUIRE_VERIFIED_EMAIL = env_flag("ACCOUNTS_REQUIRE_VERIFIED_EMAIL", True)
ACCOUNTS_VERIFICATION_TIMEOUT = int(os.environ.get("ACCOUNTS_VERIFICATION_TIMEOUT", 3 * 24 * 3600))
# Failed logins lock an account, or an address (many people may share one), for a while; the
# lockout backend comes first so that a locked login is refused before any password is checked.
ACCOUNTS_LOGIN_FAILURES_PER_ACCOUNT = int(os.environ.get("ACCOUNTS_LOGIN_FAILURES_PER_ACCOUNT", 5))
ACCOUNTS_LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("ACCOUNTS_LOGIN_FAILURES_PER_ADDRESS", 30))
ACCOUNTS_LOGIN_LOCKOUT_SECONDS = int(os.environ.get("ACCOUNTS_LOGIN_LOCKOUT_SECONDS", 15 * 60))
# What an API token resolved to, kept per process this many seconds (0: read every time): how
# long another process may still let a revoked token in (accounts.token_authentication).
API_TOKEN_CACHE_SECONDS = whole_number(
    "API_TOKEN_CACHE_SECONDS", os.environ.get("API_TOKEN_CACHE_SECONDS"), 10)
AUTHENTICATION_BACKENDS = [
    "accounts.backends.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Verification links and password resets, through Django's MAILERS: SMTP when EMAIL_HOST is
# set, else printed on the console (the tests get Django's in-memory outbox either way). With
# DEBUG off the console is an error for `check --deploy` (mail.E001) unless DJANGO_EMAIL_CONSOLE=1
# says it is meant, as for a server only loopback reaches (`make serve-prod`).
if os.environ.get("EMAIL_HOST"):
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": {
        "host": os.environ["EMAIL_HOST"],
        "port": int(os.environ.get("EMAIL_PORT") or 0) or None,  # None: 587 with TLS, else 25
        "username": os.environ.get("EMAIL_HOST_USER", ""),
        "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "use_tls": env_flag("EMAIL_USE_TLS", True),
        "timeout": 20,  # a mail server that hangs must not hold a worker for ever
    }}}
else:
    # Django's console backend, printing links whole (not quoted-printable)
    MAILERS = {"default": {"BACKEND": "sitewide.console_mail.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Allegiance DB <noreply@localhost>")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns on every request without it
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Uploaded scans are checked by cards.images.scan (10 MB); let Django hold that much in memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = 11 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 11 * 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "api.openapi.ApiSchema",  # lists every problem answer
    "DEFAULT_PAGINATION_CLASS": "cards.api.pagination.CardPagination",
    "PAGE_SIZE": 60,
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # Pages use the session; scripts send "Authorization: Token <key>" (POST /api/auth/token/).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "accounts.token_authentication.CachedTokenAuthentication",
    ],
    "EXCEPTION_HANDLER": "api.problems.problem_exception_handler",
    # DRF's, with a body nested too deeply a 400 (api.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Visitors are told apart by their address: X-Forwarded-For counts only from the number of
    # proxies set here (0: never), or anyone could dodge a throttle by inventing the header.
    "NUM_PROXIES": int(os.environ.get("DJANGO_NUM_PROXIES", "0")),
    # Per user (or per address for visitors) on the endpoints that cost real CPU; the counts
    # live in the default cache, which every worker shares. A 429 says when to retry.
    # DJANGO_THROTTLE_RATES changes any of them ("draws=600/minute,goldfish=60/minute").
    "DEFAULT_THROTTLE_RATES": throttle_rates({
        "exports": "30/minute",  # PDFs and proxy sheets render every page
        "draws": "120/minute",  # a deal with its exact odds table; the draw page deals per pick
        "odds": "60/minute",  # exact odds, and the split advisor's eight of them
        "goldfish": "10/minute",  # for the goldfish endpoint: thousands of games a request
        # A cost, not a count: lines of decklists (and entries of JSON decks) read, on every
        # API route that reads a decklist (sitewide.throttling.CostThrottle). A real deck is
        # under 200 lines: hundreds a minute pass; the largest lists, a few dozen.
        "decklists": "30000/minute",
        "emails": "5/hour",  # verification links and password resets one visitor may have sent
        # Card edits (edits.api): writes by people, so per hour; a busy transcriber stays under.
        "edits": "60/hour",  # proposals and reverts
        "votes": "240/hour",
        "scans": "60/hour",  # each one is checked and re-encoded
        "faces": "60/minute",  # the edit form's live preview: a face drawn per pause in typing
    }, os.environ.get("DJANGO_THROTTLE_RATES")),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Allegiance card database API",
    "DESCRIPTION": (
        "Cards, sets and common abilities of Allegiance: War of Factions, plus the fictional "
        "Demo set. Unknown card facts are null, never zero."
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A generated client needs what it sends apart from what it reads: "XRequest" components
    # for request bodies (no read-only fields), "X" for answers (no write-only ones).
    "COMPONENT_SPLIT_REQUEST": True,
    # Request bodies are documented as JSON only, so a generated client sends JSON; the routes
    # that take a file say multipart/form-data in their own extend_schema.
    "PARSER_WHITELIST": ["rest_framework.parsers.JSONParser"],
    # Several resources have a "status"; each its own enum, named for it.
    "ENUM_NAME_OVERRIDES": {
        "EditStatusEnum": ["open", "applied", "rejected", "cancelled", "expired"],
        # The status of a background run, goldfish or matchup (the same five states).
        "RunStatusEnum": ["queued", "running", "done", "failed", "cancelled"],
        # A collection import's mode, in its JSON and its multipart body alike.
        "CollectionImportModeEnum": ["set", "replace"],
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.problems.problem_media_type_hook",
        "api.openapi.nullable_reference_hook",
    ],
}

# Background jobs (simulation runs, mails) through Django's tasks API, stored in the database,
# so one backend serves SQLite and PostgreSQL; `manage.py db_worker` runs them (`make run` starts
# one).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
# A goldfish run is split into chunks of this many games, each leased to one worker at a time
# (a matchup's chunks are rules.game.matchup.CHUNK games of one pairing).
GOLDFISH_CHUNK_GAMES = int(os.environ.get("GOLDFISH_CHUNK_GAMES", "250"))

# Online tables (docs/tables.md): how long a person whose page closed keeps his seat before
# another person at the table may hand it to the AI.
TABLE_GRACE_SECONDS = whole_number(
    "TABLE_GRACE_SECONDS", os.environ.get("TABLE_GRACE_SECONDS"), 120)
# How long a sign of presence counts unconfirmed (tables.presence): each server confirms its
# sockets' rows every third of it, so a row of a server that died stops counting after it.
TABLE_PRESENCE_TTL = whole_number(
    "TABLE_PRESENCE_TTL", os.environ.get("TABLE_PRESENCE_TTL"), 90, minimum=3)
# The tables' games each process keeps (tables.games): more than the tables in play that a
# process serves, or their moves and views replay the games from their first move.
TABLE_CACHE_SIZE = whole_number("TABLE_CACHE_SIZE", os.environ.get("TABLE_CACHE_SIZE"), 64)

# Card edits by card owners (docs/design.md §13): the review rules, read by edits.review.
CARD_EDIT_APPROVALS = whole_number(
    "CARD_EDIT_APPROVALS", os.environ.get("CARD_EDIT_APPROVALS"), 2, minimum=1)
CARD_EDIT_VOTER_MIN_AGE_DAYS = whole_number(
    "CARD_EDIT_VOTER_MIN_AGE_DAYS", os.environ.get("CARD_EDIT_VOTER_MIN_AGE_DAYS"), 7)
CARD_EDIT_EXPIRE_DAYS = whole_number(
    "CARD_EDIT_EXPIRE_DAYS", os.environ.get("CARD_EDIT_EXPIRE_DAYS"), 30, minimum=1)
CARD_EDIT_TRUSTED_AFTER = whole_number(
    "CARD_EDIT_TRUSTED_AFTER", os.environ.get("CARD_EDIT_TRUSTED_AFTER"), 10)
CARD_EDIT_TRUSTED_AFTER_CLEAN = whole_number(
    "CARD_EDIT_TRUSTED_AFTER_CLEAN", os.environ.get("CARD_EDIT_TRUSTED_AFTER_CLEAN"), 5,
    minimum=1)
CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS = whole_number(
    "CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS", os.environ.get("CARD_EDIT_NEW_ACCOUNT_OPEN_EDITS"), 5)
# Votes from the editor's client address (or network) do not count, and votes from one address
# count once: "address", "network" or "off"; "" (unset) is "address", or "off" on a small
# private site (edits.review.address_check).
CARD_EDIT_VOTER_ADDRESS_CHECK = one_of(
    "CARD_EDIT_VOTER_ADDRESS_CHECK", os.environ.get("CARD_EDIT_VOTER_ADDRESS_CHECK"),
    ("address", "network", "off"), "")

def _not_printed_by_django() -> Callable[[logging.LogRecord], bool]:
    """With DEBUG, Django's own console handler prints its loggers' records (the requests,
    "Not Found: ..."): the root's would print each a second time."""
    return lambda record: not (DEBUG and record.name.partition(".")[0] == "django")


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"not_printed_by_django": {"()": _not_printed_by_django}},
    "handlers": {"console": {"class": "logging.StreamHandler",
                             "filters": ["not_printed_by_django"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}

# The throttle counts must be one count for every gunicorn worker: a file cache on the
# server's disk. One process (runserver, the tests) keeps Django's in-memory default.
# "card_lists" holds card list answers under the catalogue's revision (cards.api.list_cache),
# apart so that culling its entries never drops a throttle count. Its files are a few kB;
# every write lists the folder to cull, so the count is kept modest.
_CARD_LISTS = {"TIMEOUT": 3600, "OPTIONS": {"MAX_ENTRIES": 2000}}
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "card_lists": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                   "LOCATION": "card-lists", **_CARD_LISTS},
}
if not DEBUG or "DJANGO_CACHE_DIR" in os.environ:
    _cache_dir = Path(os.environ.get("DJANGO_CACHE_DIR", str(VAR_DIR / "cache")))
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(_cache_dir),
        },
        "card_lists": {
            "BACKEND": "cards.api.list_cache.PackedFileCache",  # answers compressed once
            "LOCATION": str(_cache_dir / "card-lists"),
            **_CARD_LISTS,
        },
    }

# Content-Security-Policy on every response, in development too, so that a page that breaks
# it breaks at once: scripts and styles only from this site or with the response's nonce
# ({{ csp_nonce }}), no inline event handlers, no eval, no style attributes.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],  # Swagger UI draws its icons as data: URLs
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

if not DEBUG:
    SILENCED_SYSTEM_CHECKS: list[str] = []
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SESSION_COOKIE_SECURE = env_flag("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_flag("DJANGO_SECURE_COOKIES", True)
    # No script reads the CSRF cookie (pages and the API docs take the token from the page).
    CSRF_COOKIE_HTTPONLY = True
    # Browsers ignore HSTS over plain HTTP, so it costs a loopback server nothing; behind a
    # TLS proxy (gunicorn trusts X-Forwarded-Proto from loopback) it pins HTTPS for a year.
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", 365 * 24 * 3600))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_flag("DJANGO_HSTS_PRELOAD", True)
    SECURE_SSL_REDIRECT = env_flag("DJANGO_SSL_REDIRECT", True)
    if not SECURE_SSL_REDIRECT:
        # Turned off on purpose in the environment (a server only loopback reaches, as
        # `make serve-prod` runs, or a proxy that redirects to HTTPS itself): not an oversight
        # for `check --deploy` to report.
        SILENCED_SYSTEM_CHECKS = [*SILENCED_SYSTEM_CHECKS, "security.W008"]
    if env_flag("DJANGO_EMAIL_CONSOLE", False):  # the same, for mail printed on the console
        SILENCED_SYSTEM_CHECKS = [*SILENCED_SYSTEM_CHECKS, "mail.E001"]
    CSRF_TRUSTED_ORIGINS = [
        o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",")
        if o.strip()
    ]
