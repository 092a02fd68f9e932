"""python -m rules.build_engine : compile the rules engine with mypyc (see rules/compiled.py).

Needs a C compiler and Python's headers; `make install` runs it and, should it fail, goes on
with the engine interpreted (the same games, about three times slower). The C files and
objects go to build/mypyc; the extensions land beside their sources, and the stamp last, so an
interrupted build is never taken for a current one.

The C is written one file per module (``multi_file``) and compiled on every core: the same
machine code a game runs (callgrind counted the same instructions a game, to a tenth of a
percent), in about half the wall time of one 12 MB file on one core. mypy's cache for the build
is its own, so `make test` can type-check the project beside it.
"""

from __future__ import annotations

import os
import sys

from rules import compiled

TARGET = "build/mypyc"


def _build_ext_on_every_core() -> type:
    """setuptools' build_ext, compiling an extension's C files side by side (its own
    ``--parallel`` only builds whole extensions side by side, and the engine is one)."""
    from concurrent.futures import ThreadPoolExecutor

    from setuptools.command.build_ext import build_ext

    class BuildExt(build_ext):  # type: ignore[misc]
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
    from setuptools import setup

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
    setup(name="allegiance-rules-engine", ext_modules=extensions,
          cmdclass={"build_ext": _build_ext_on_every_core()},
          script_args=["--quiet", "build_ext", "--inplace", "--build-temp", f"{TARGET}/temp"])
    if compiled.sources_digest() != digest:  # edited while compiling: leave no stamp
        print("The sources changed during the build; run it again.", file=sys.stderr)
        return 1
    compiled.STAMP.write_text(digest + "\n", "ascii")
    return 0


if __name__ == "__main__":
    sys.exit(main())
