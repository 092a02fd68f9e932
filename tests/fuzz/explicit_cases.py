"""Schemathesis's explicit cases of an operation built when its test runs, not when it is made.

Schemathesis makes one test per operation at collection, and with it the operation's explicit
cases: the schema's examples and the coverage phase's boundary values (thousands of cases, most
of a worker's collection of ``tests/fuzz/``). Every pytest worker of both legs collects every
test, so each built the cases of every operation though it runs about half of them. Here
``add_examples`` and ``add_coverage`` only note what to build; the test's list of explicit
examples (which Hypothesis reads when the test runs, and only then) builds them, the same cases
in the same order, the first time it is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, SupportsIndex

from schemathesis.generation.hypothesis import builder

EXAMPLES = "hypothesis_explicit_examples"  # where hypothesis.example() appends, read at run time


class BuiltWhenRead(list[Any]):
    """A test's explicit examples, with the builders still to run before any is read."""

    def __init__(self, given: Any = ()) -> None:
        super().__init__(given)
        self.pending: list[Callable[[], Any]] = []

    def built(self) -> None:
        # A builder appends to this very list (hypothesis.example): one at a time, in the
        # order they were noted, as when they ran at collection.
        pending, self.pending = self.pending, []
        for build in pending:
            build()

    def __len__(self) -> int:
        self.built()
        return super().__len__()

    def __iter__(self) -> Iterator[Any]:
        self.built()
        return super().__iter__()

    def __reversed__(self) -> Iterator[Any]:
        self.built()
        return super().__reversed__()

    def __getitem__(self, index: SupportsIndex | slice) -> Any:
        self.built()
        return super().__getitem__(index)


def _later(build: Callable[..., Any]) -> Callable[..., Callable[..., Any]]:
    def note(test: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[..., Any]:
        examples = getattr(test, EXAMPLES, None)
        if not isinstance(examples, BuiltWhenRead):
            examples = BuiltWhenRead(examples or ())
            setattr(test, EXAMPLES, examples)
        examples.pending.append(partial(build, test, *args, **kwargs))
        return test  # the builders add to this test and return it

    return note


# create_test (builder.py) calls them by their module's names.
BUILDERS: dict[str, Callable[..., Any]] = {"add_examples": builder.add_examples,
                                           "add_coverage": builder.add_coverage}


def build_when_run() -> None:
    """From now on, the tests schemathesis makes build their explicit cases when they run."""
    for name, build in BUILDERS.items():
        setattr(builder, name, _later(build))
