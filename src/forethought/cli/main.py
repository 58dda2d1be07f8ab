"""Entry point: parse arguments, open the memory, run one command, map errors to exit codes.

Exit codes: 0 success; 1 a check found problems (later commands); 2 invalid input or usage;
3 not found; 4 conflict; 5 backend failure; 70 an unexpected internal error.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from forethought.cli import commands
from forethought.errors import BackendError, Conflict, ForethoughtError, InvalidInput, NotFound

__all__ = ["build_parser", "main"]

DEFAULT_DB = os.path.join(".forethought", "forethought.db")
EXIT_CODES: list[tuple[type[ForethoughtError], int]] = [
    (InvalidInput, 2),
    (NotFound, 3),
    (Conflict, 4),
    (BackendError, 5),
]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other error; the usage is one --help away.
        self.exit(2, f"error: {message} (see: {self.prog} --help)\n")


def _common(parser: argparse.ArgumentParser, *, top: bool) -> None:
    # Accepted both before and after the command; SUPPRESS keeps a sub-command's absent flag from
    # overwriting one given before it.
    default = None if top else argparse.SUPPRESS
    parser.add_argument(
        "--db",
        metavar="PATH",
        default=default,
        help=f"database file (default: $FORETHOUGHT_DB, else {DEFAULT_DB})",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        default=False if top else argparse.SUPPRESS,
        help="machine-readable output",
    )
    parser.add_argument(
        "--embedder",
        choices=["minilm", "hashing"],
        default=default,
        help="embedding model (default: $FORETHOUGHT_EMBEDDER, else minilm)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="forethought", description="Governed memory for LLM agents.")
    _common(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        _common(p, top=False)
        return p

    p = add("retain", "store a memory and print its id")
    p.add_argument("--space", required=True)
    p.add_argument("--kind", required=True)
    p.add_argument("--tag", action="append", default=[], dest="tags")
    p.add_argument("--occurred-at", metavar="ISO")
    p.add_argument("--id", dest="external_id", metavar="EXT", help="external id: retrying creates nothing new")
    p.add_argument("text", metavar="TEXT", help="the memory ('-' reads standard input)")

    p = add("recall", "find the memories relevant to a query")
    p.add_argument("--space", required=True)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--kind", action="append", default=[], dest="kinds")
    p.add_argument("--tag", action="append", default=[], dest="tags")
    p.add_argument("--as-of", metavar="ISO", help="what was true at this time (valid time)")
    p.add_argument("--after", metavar="ISO", help="only memories that occurred at or after this time")
    p.add_argument("--before", metavar="ISO", help="only memories that occurred before this time")
    p.add_argument("--strategy", default="balanced")
    p.add_argument("--budget", type=int, metavar="TOKENS", help="token budget for the results")
    p.add_argument("query", metavar="QUERY")

    p = add("supersede", "replace a memory with a new one; print the new id")
    p.add_argument("--space", required=True)
    p.add_argument("--occurred-at", metavar="ISO")
    p.add_argument("--why", help="why the old one no longer holds")
    p.add_argument("old_id", metavar="OLD_ID")
    p.add_argument("text", metavar="TEXT")

    p = add("retract", "withdraw a memory that was wrong")
    p.add_argument("--space", required=True)
    p.add_argument("--why", required=True)
    p.add_argument("record_id", metavar="ID")

    p = add("forget", "erase a memory and all its versions everywhere")
    p.add_argument("--space", required=True)
    p.add_argument("record_id", metavar="ID")

    p = add("show", "show one memory")
    p.add_argument("--space", required=True)
    p.add_argument("record_id", metavar="ID")

    p = add("history", "show a memory's versions, supersessions and audit trail")
    p.add_argument("--space", required=True)
    p.add_argument("record_id", metavar="ID")

    p = add("export", "write a space to a JSON Lines file")
    p.add_argument("--space", required=True)
    p.add_argument("file", metavar="FILE")

    p = add("import", "read a JSON Lines export into a space")
    p.add_argument("--space", required=True)
    p.add_argument("file", metavar="FILE")

    p = add("demo", "a short guided tour on a temporary database")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    args.db = args.db or os.environ.get("FORETHOUGHT_DB") or DEFAULT_DB
    args.embedder = args.embedder or os.environ.get("FORETHOUGHT_EMBEDDER") or "minilm"
    try:
        return commands.run(args)
    except ForethoughtError as exc:
        return _fail(args, exc)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the user gets one line; the log gets the rest
        logging.getLogger("forethought").debug("internal error", exc_info=True)
        print(f"internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 70


def _fail(args: argparse.Namespace, exc: ForethoughtError) -> int:
    code = next((c for kind, c in EXIT_CODES if isinstance(exc, kind)), 5)
    message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if args.json:
        print(json.dumps({"error": {"code": exc.code, "message": message}}))
    print(f"error: {message}", file=sys.stderr)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
