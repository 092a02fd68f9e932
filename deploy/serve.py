"""python -m deploy.serve HOST:PORT SERVERS: the app servers of `make serve-prod`.

SERVERS gunicorn servers of one ASGI worker each (HTTP and the tables' WebSockets) on free
ports of 127.0.0.1, behind nginx on HOST:PORT, which sends every request and socket of a table
to one server (`hash $table consistent`, deploy/nginx.conf): that server keeps the table's
game in play (tables.games) instead of each process replaying it. The same stack as `make
load-tables`. The access logs are printed here; Ctrl-C or SIGTERM stops everything, and a
server or nginx that dies stops the rest with its exit status.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from deploy.stack import Stack, in_work_folder


def usage() -> int:
    print("usage: python -m deploy.serve HOST:PORT SERVERS (a number, at least 1)",
          file=sys.stderr)
    return 2


def main(argv: list[str]) -> int:
    if len(argv) != 2 or ":" not in argv[0] or not argv[1].isdigit() or int(argv[1]) < 1:
        return usage()
    listen, servers = argv[0], int(argv[1])

    def serve(work: Path, env: dict[str, str]) -> int:
        with Stack(work, env, echo=True) as stack:
            stack.start_table_servers(servers, listen)
            print(f"Serving http://{listen}/ with {servers} gunicorn servers of one ASGI worker "
                  "behind nginx (a table's requests on one server)", flush=True)
            while True:
                for name, process in stack.processes:
                    if process.poll() is not None:
                        print(f"{name} stopped (exit {process.returncode}): stopping the site",
                              file=sys.stderr)
                        return process.returncode or 1
                time.sleep(1)

    return in_work_folder("allegiance-serve-", lambda work: dict(os.environ), serve,
                          what="site")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
