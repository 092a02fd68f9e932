"""The fuzz tests' explicit cases, built when a test runs (explicit_cases.py), are the cases
schemathesis builds when it makes the test: the same, in the same order, none before."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import schemathesis
from schemathesis.config import SchemathesisConfig
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.generation.hypothesis import builder
from schemathesis.pytest._test_builder import build_operation_test

from tests.fuzz.explicit_cases import BUILDERS, EXAMPLES, BuiltWhenRead
from tests.fuzz.test_anonymous_api_fuzz import VISITOR_CONFIG
from tests.fuzz.test_api_schema_fuzz import schema as signed_in_schema


def _test(case: Any) -> None:
    """Stands for a fuzz test."""


def built(config: SchemathesisConfig | None, method: str, path: str) -> Any:
    """The test schemathesis makes for one operation, from a schema of its own: an operation
    keeps what it drew, and its second build leaves out the cases its first repeated."""
    schema = schemathesis.openapi.from_dict(copy.deepcopy(signed_in_schema.raw_schema),
                                            config=config)
    return build_operation_test(config=schema.config, operation=schema[path][method],
                                test_func=_test, given_kwargs={}, feedback=FeedbackSources())


def sent(example: Any) -> tuple[Any, ...]:
    case = example.kwargs["case"]
    return (case.method, case.path, case.path_parameters, dict(case.headers or {}), case.cookies,
            case.query, case.body, case.media_type)


# The signed-in fuzz has the schema's examples and the coverage phase, the visitor's the
# examples only: an operation with an example, a path parameter and a body.
@pytest.mark.parametrize(("config", "method", "path"), [
    (None, "POST", "/api/tables/{id}/actions/"),
    (VISITOR_CONFIG, "POST", "/api/tables/{id}/actions/"),
], ids=["signed in", "visitor"])
def test_the_cases_built_when_the_test_runs_are_those_built_when_it_is_made(
        config: SchemathesisConfig | None, method: str, path: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    later = getattr(built(config, method, path), EXAMPLES)
    assert isinstance(later, BuiltWhenRead) and later.pending
    assert list.__len__(later) == 0  # nothing built when the test is made
    for name, build in BUILDERS.items():
        monkeypatch.setattr(builder, name, build)  # schemathesis as it comes
    at_once = getattr(built(config, method, path), EXAMPLES)
    assert not isinstance(at_once, BuiltWhenRead) and at_once
    assert [sent(e) for e in later] == [sent(e) for e in at_once]
    assert not later.pending
