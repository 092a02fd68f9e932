"""The fuzz tests' explicit cases are built in the worker that runs each test, not in every
worker that collects it (explicit_cases.py)."""

from tests.fuzz.explicit_cases import build_when_run

build_when_run()
