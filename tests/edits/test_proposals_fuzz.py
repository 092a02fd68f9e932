"""Whatever a proposal holds, the service answers an edit or an EditError: never a crash
(hypothesis, as for the importers)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.card_data import CARD_KEYS
from edits.errors import EditError
from edits.services import edit_propose
from tests.edits.makers import make_user

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-200, 200) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=6,
)
KEYS = st.sampled_from([*CARD_KEYS, "provenance", "colour", ""])
PROPOSALS = st.fixed_dictionaries({}, optional={
    "card": st.sampled_from(["tst-lamplighter", "tst-unknown-tower", "tst-none", ""]),
    "changes": st.dictionaries(KEYS, JSON, max_size=4) | JSON,
    "new_card": st.dictionaries(KEYS, JSON, max_size=6) | JSON,
    "source": st.text(max_size=10) | JSON,
    "note": st.text(max_size=10) | JSON,
    "before": st.dictionaries(KEYS, JSON, max_size=3) | JSON,
})


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(proposal=PROPOSALS)
def test_any_proposal_is_an_edit_or_a_clear_refusal(proposal: dict[str, Any]) -> None:
    # One account for every example (they share the test's transaction), old enough to have
    # no limit of open edits.
    editor = User.objects.filter(username="fuzzer").first() or make_user("fuzzer")
    try:
        edit = edit_propose(editor=editor, source=proposal.pop("source", "copy"), **proposal)
    except EditError as error:
        assert error.status in (400, 403, 409) and error.detail
    else:
        assert edit.pk and edit.source.strip()

