"""python -m rules.build_engine : compile the rules engine with mypyc (see rules/compiled.py).

Needs a C compiler and Python's headers; `make install` runs it and, should it fail, goes on
with the engine interpreted (the same games, about three times slower). The C files and
objects go to build/mypyc; the extensions land beside their sources, and the stamp last, so an
interrupted build is never taken for a current one.

The C is written one file per module (``multi_file``) and compiled on every core: the same
machine code a game runs (callgrind counted the same instructions a game, to a tenth of a
percent), in about half the wall time of one 12 MB file on one core. mypy's cache for the build
is its own, so `make test` can type-check the project beside it.

The C is compiled as one program (``-flto``: inlined across the modules' files again) with
its symbols hidden (calls between the files go direct, not through the PLT): the same games,
about 6% fewer instructions a game and half the mispredicted indirect jumps (callgrind,
docs/goldfish.md). ``ALLEGIANCE_PGO=1`` also guides it by a profile: a first build with
counters plays a few seconds of games (``bench.engine_training``) and the second lays the code
out by the counts, as CPython is built; about 2% fewer instructions again, but twice the
compilation, so it is not the default (`make test` must stay quick). Should the profile or the
link-time optimisation fail, the plain build is made instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from rules import compiled

TARGET = "build/mypyc"
# -flto=N, not auto: under `make install` (no -j) auto would take make's one job slot and
# optimise the whole program on one core.
_JOBS = f"-flto={os.cpu_count() or 1}"
OPTIMISE = ["-g0", "-fvisibility=hidden", _JOBS]
LINK = [_JOBS, "-O3"]
PROFILE_GENERATE = ["-fprofile-generate", "-fprofile-update=single"]
# -fprofile-correction: the counts of a single-threaded run are exact, but gcc asks for it
# whenever a count looks inconsistent after inlining; missing profiles are the shims'.
PROFILE_USE = ["-fprofile-use", "-fprofile-correction", "-Wno-missing-profile"]
TRAINING = ["-m", "bench.engine_training"]


def _build_ext_on_every_core() -> type:
    """setuptools' build_ext, compiling an extension's C files side by side (its own
    ``--parallel`` only builds whole extensions side by side, and the engine is one)."""
    from concurrent.futures import ThreadPoolExecutor

    from setuptools.command.build_ext import build_ext

    class BuildExt(build_ext):
        def build_extensions(self) -> None:
            one_by_one = self.compiler.compile

            def compile_side_by_side(sources: list[str], **options: object) -> list[str]:
                # The largest first, so the last file to finish is a small one.
                order = sorted(sources, key=lambda s: -os.path.getsize(s))
                with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                    built = dict(zip(order, pool.map(
                        lambda source: one_by_one([source], **options), order), strict=True))
                return [obj for source in sources for obj in built[source]]

            self.compiler.compile = compile_side_by_side
            super().build_extensions()

    return BuildExt


def main() -> int:
    from mypyc.build import mypycify

    compiled.STAMP.unlink(missing_ok=True)
    digest = compiled.sources_digest()
    paths = [str(compiled.source_path(m).relative_to(compiled.PACKAGE_DIR.parent))
             for m in compiled.MODULES]
    extensions = mypycify([f"--cache-dir={TARGET}/mypy-cache", *paths],
                          group_name=compiled.GROUP, target_dir=TARGET, multi_file=True)
    # mypyc writes the modules' C files at the top of the target and the group's headers in
    # its package folder, which the modules' files include by bare name.
    headers = os.path.join(TARGET, *compiled.GROUP.split(".")[:-1])
    for extension in extensions:
        extension.include_dirs.append(headers)
    build = _Build(extensions)
    profiled = os.environ.get("ALLEGIANCE_PGO") == "1" and _profile(build, digest)
    if not build.compile([*OPTIMISE, *(PROFILE_USE if profiled else [])], LINK):
        print("The optimised build failed; compiling the plain way.", file=sys.stderr)
        if not build.compile([], []):
            return 1
    if compiled.sources_digest() != digest:  # edited while compiling: leave no stamp
        print("The sources changed during the build; run it again.", file=sys.stderr)
        return 1
    compiled.STAMP.write_text(digest + "\n", "ascii")
    return 0


class _Build:
    """The extensions, compiled (every file again) with some flags beyond mypyc's own."""

    def __init__(self, extensions: list[Any]) -> None:
        self.extensions = extensions
        self.own = [(list(e.extra_compile_args), list(e.extra_link_args)) for e in extensions]

    def compile(self, flags: list[str], link: list[str]) -> bool:
        from setuptools import setup

        for extension, (compile_args, link_args) in zip(self.extensions, self.own,
                                                         strict=True):
            extension.extra_compile_args = [*compile_args, *flags]
            extension.extra_link_args = [*link_args, *flags, *link]
        try:
            setup(name="allegiance-rules-engine", ext_modules=self.extensions,
                  cmdclass={"build_ext": _build_ext_on_every_core()},
                  script_args=["--quiet", "build_ext", "--inplace", "--force",
                               "--build-temp", f"{TARGET}/temp"])
        except (SystemExit, Exception) as error:  # setup() exits on a compiler's error
            print(f"build failed: {error}", file=sys.stderr)
            return False
        return True


def _profile(build: _Build, digest: str) -> bool:
    """Build with counters and play the training games; whether the counts were written."""
    counts = Path(TARGET, "temp")
    for old in counts.rglob("*.gcda"):  # a profile of an older build would not match
        old.unlink()
    if not build.compile([*OPTIMISE, *PROFILE_GENERATE], LINK):
        return False
    compiled.STAMP.write_text(digest + "\n", "ascii")  # so that the training runs this build
    environment = {k: v for k, v in os.environ.items() if k != "ALLEGIANCE_ENGINE"}
    try:
        played = subprocess.run([sys.executable, *TRAINING], env=environment, check=False)
    finally:
        compiled.STAMP.unlink(missing_ok=True)
    if played.returncode != 0:
        print("The training games failed; compiling without a profile.", file=sys.stderr)
        return False
    return any(counts.rglob("*.gcda"))


if __name__ == "__main__":
    sys.exit(main())
