"""python -m rules.build_engine : compile the rules engine with mypyc (see rules/compiled.py).

Needs a C compiler and Python's headers; `make install` runs it and, should it fail, goes on
with the engine interpreted (the same games, about three times slower). The C files and
objects go to build/mypyc; the extensions land beside their sources, and the stamp last, so an
interrupted build is never taken for a current one.
"""

from __future__ import annotations

import sys

from rules import compiled


def main() -> int:
    from mypyc.build import mypycify
    from setuptools import setup

    compiled.STAMP.unlink(missing_ok=True)
    digest = compiled.sources_digest()
    paths = [str(compiled.source_path(m).relative_to(compiled.PACKAGE_DIR.parent))
             for m in compiled.MODULES]
    extensions = mypycify(paths, group_name=compiled.GROUP, target_dir="build/mypyc")
    setup(name="allegiance-rules-engine", ext_modules=extensions,
          script_args=["--quiet", "build_ext", "--inplace", "--build-temp", "build/mypyc/temp"])
    if compiled.sources_digest() != digest:  # edited while compiling: leave no stamp
        print("The sources changed during the build; run it again.", file=sys.stderr)
        return 1
    compiled.STAMP.write_text(digest + "\n", "ascii")
    return 0


if __name__ == "__main__":
    sys.exit(main())
