# Names vulture reports as unused that are used where it cannot see (make lint; the
# framework conventions it may ignore by pattern are in pyproject.toml [tool.vulture]).
# Reviewed one by one: each group says who uses them. Vulture only reads the names, so
# this file is never imported (ruff and mypy leave it out). A name added here needs a reason.

# Named in config/settings.py by dotted path (settings are left out of the scan: Django reads
# every name there): the login backend, the API cache, pagination, schema class, exception
# handler, spectacular hooks and middleware; and the env helpers the settings call.
LockoutBackend
PackedFileCache
CardPagination
ApiSchema
problem_exception_handler
problem_media_type_hook
nullable_reference_hook
ApiServerErrorMiddleware
throttle_rates
pool_options
whole_number
one_of
application  # config/wsgi.py and config/asgi.py, found by gunicorn and Django by name

# Overrides of Django, DRF, django-tasks and the standard library, called by them.
_.authenticate  # an authentication backend
key_salt  # PasswordResetTokenGenerator
_._make_hash_value
password_field_name  # SetPasswordMixin.validate_password_for_user's signature
extra_detail_singular  # DRF's Throttled message
extra_detail_plural
_._cull  # FileBasedCache
_._write_content
_.filter_official  # django-filter's method="filter_official"
_.process_exception  # middleware hook
child_nodelists  # a template Node's
_.write_message  # Django's console e-mail backend
_.running_task  # django-tasks-db's Worker reads it
_.find_spec  # an importlib meta-path finder
_.mtime  # a tarfile.TarInfo's
trace  # __exit__(kind, error, trace)
signum  # a signal handler's (signum, frame)
script_prefix  # the lru_cache key of card_urls._templates
mtime  # the lru_cache key of edits.views.review._guide_html

# DRF SerializerMethodField's get_<field>.
_.get_url
_.get_counts
_.get_holdings
_.get_structures
_.get_personalities
_.get_wanderers

# Model fields and serializer fields: read by Django's ORM and DRF by name (`fields = [...]`),
# by the migrations and the API documents.
race
profession
image_status
shared_url
in_sleeved_decks
proposed_against
account_age_days
applied_edits
staff
address_recorded
established
same_address_as_editor
same_network_as_editor
same_address_as
same_network_as
reverts
approvals_needed
uploaded_by
_.uploaded_by
rules_version
finished_at
lease_owner
deliberately_stale  # bench/load's record of a write, saved as JSON lines

# Read by the templates (templates/**.html) or written into reports by name (asdict).
_.page_warnings
_.percent
_.unnumbered_counts
move_count
costed
_.described_by
_.move_title
_.move_short
_.short_title
_.players_range
charts
in_deck
_.tile_urls  # templates/cards/_card_tile.html
_.suggested
_.qr
_.current_shown
_.layout_key
_.unchecked
_.before_json
opponent_text
_.token_text
discards
_.time_left
stuck_in_hand
opening_hand
victory_round_difference
_.beyond_noise
victory_rate
opening_a
opening_b

# locust (make load) reads its user classes and their settings by name.
wait_time
network_timeout
connection_timeout
Contributor

# Deck fixes: rules/deck_rules.py finds a problem's fix as _fix_<problem code> (getattr).
_._fix_structure_pile_too_small
_._fix_personality_pile_too_small
_._fix_wanderer_pile_too_small
_._fix_too_many_copies
_._fix_no_stronghold
_._fix_too_many_strongholds
_._fix_too_many_zero_cost_structures
_._fix_unique_structure_in_holdings
_._fix_holdings_over_budget
_._fix_too_many_walls
_._fix_wrong_pile
_._fix_unknown_card
_._fix_stronghold_in_pile
_._fix_invocation_unusable
_._fix_battle_event_unusable
_._fix_citizens_without_residences
_._fix_items_without_bearers

# Used only by the tests, which pin them down: documented entry points (read_scan,
# filter_cards, verification_link), exact arithmetic the tests compare the shortcuts with
# (count_pmf, sample_group), and views of a value the tests assert on. Kept; to review.
verification_link
read_scan
filter_cards
_.as_dict
_.unnumbered_complete
TRIGGERS
detail_readings
_.is_custom
_.hand_ids
_.count_pmf
sample_group
_.renewals
# The tables' tests forget the requests a process stamped (tables.presence.table_seen) between
# tests, whose rolled-back tables reuse their numbers.
forget_stamps

# engine rewrite: unused in rules/game/, left to the rewrite (issue 38, item 6).
assignment_attacks
MOVE_COST
_play_options
DIE_BONUS
attack_worth
home_risk
row_worth
answerable
STAGES
_blocked

# The engine vocabulary's sets of values that only the tests read (tests/rules/game/
# test_vocabulary.py checks every outcome and event a game reaches is in them).
OUTCOMES
EVENT_TYPES

# Serializer fields of the tables' API (tables/api.py), read by DRF and the schema by name.
bank
increment
offers

# Channels calls a consumer's disconnect() and the handler of each message type by name
# (tables/consumers.py: "table.changed" -> table_changed); templates call a form's
# ai_fields (templates/tables/new.html); the rematch field is read by the table's templates.
_.disconnect
_.table_changed
_.ai_fields
rematch

# The trade form's fields (tables/forms.py OfferForm), read by tokens() as f"{side}_{kind}" and
# posted by templates/tables/_body.html.
give_economic
give_religious
give_political
take_economic
take_religious
take_political

# The card lists of a trade offer (tables/api.py TableOfferSerializer), read by DRF by name and
# looked up with attrs.get(); the clock's fields of the new-table form (tables/forms.py), read
# by clock() from cleaned_data and drawn by templates/tables/new.html.
give_cards
take_cards
clock_minutes
clock_increment

# Fields of rules/game/events.py's event records: TypedDict keys, read by their name as a
# string in an event's dict (narrate, the logs) and by events.problems through the record.
blocks
out_of_reach

# The games a process replayed from their first move (tables/games.py TableGames), counted for
# tests/tables/test_games.py: a catch-up or a shared view must not replay.
replays
