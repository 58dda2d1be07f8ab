"""Entry point: parse arguments, build the settings, run one command, map errors to exit codes.

Exit codes: 0 success; 1 `check` found something against memory; 2 invalid input or usage;
3 not found; 4 conflict; 5 backend failure; 70 an unexpected internal error.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from forethought.cli import core, index, keys, mcp, pipeline, project, serve
from forethought.cli.context import Context, Output
from forethought.cli.demo import run_demo
from forethought.cli.doctor import doctor
from forethought.errors import BackendError, Conflict, ForethoughtError, InvalidInput, NotFound
from forethought.plugins import registry
from forethought.settings import DEFAULT_DB, Settings

__all__ = ["build_parser", "main"]

EXIT_CODES: list[tuple[type[ForethoughtError], int]] = [
    (InvalidInput, 2),
    (NotFound, 3),
    (Conflict, 4),
    (BackendError, 5),
]
COMMANDS: dict[str, Callable[[Context], Output]] = {
    **core.COMMANDS,
    **pipeline.COMMANDS,
    "doctor": doctor,
    "index": index.index,
    "keys": keys.keys,
    "project": project.project,
    "serve": serve.serve,
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other error; the usage is one --help away.
        self.exit(2, f"error: {message} (see: {self.prog} --help)\n")


def _common(parser: argparse.ArgumentParser, *, top: bool) -> None:
    # Accepted before and after the command; SUPPRESS keeps an absent sub-command flag from
    # overwriting one given before it.
    default = None if top else argparse.SUPPRESS
    parser.add_argument(
        "--db",
        metavar="PATH",
        default=default,
        help=f"database file (default: $FORETHOUGHT_DB, the config file, else {DEFAULT_DB})",
    )
    parser.add_argument(
        "--json", action="store_true", default=False if top else argparse.SUPPRESS, help="machine-readable output"
    )
    parser.add_argument(
        "--embedder",
        choices=["minilm", "hashing"],
        default=default,
        help="embedding model (default: $FORETHOUGHT_EMBEDDER, the config file, else minilm)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="forethought", description="Governed memory for LLM agents.")
    _common(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def add(
        name: str, help_text: str, *, space: bool = True, parent: Any = None, group: bool = False
    ) -> argparse.ArgumentParser:
        """A command's parser; `group` makes one whose sub-commands carry the options instead."""
        p = (parent or sub).add_parser(name, help=help_text, description=help_text)
        if group:
            return p
        _common(p, top=False)
        p.add_argument("--app", default="generic", help="the app whose memory model applies (default: generic)")
        if space:
            p.add_argument("--space", required=True, help="the subject within the app: a student, customer, project")
        return p

    core.register(add)
    pipeline.register(add)
    keys.register(add)
    index.register(add)
    project.register(add)
    serve.register(add)
    mcp.register(add)
    for name, help_text in (
        ("doctor", "show the active store, embedder and model, and whether each works"),
        ("demo", "a short guided tour on a temporary database"),
    ):
        _common(sub.add_parser(name, help=help_text, description=help_text), top=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    ctx: Context | None = None
    try:
        settings = Settings.load(os.environ)
        overrides = {k: v for k, v in (("db", args.db), ("embedder", args.embedder)) if v}
        settings = settings.model_copy(update=overrides)
        if args.command == "demo":
            return run_demo(embedder=settings.embedder)
        if args.command == "mcp":
            return mcp.serve_mcp(args, settings)
        ctx = Context(args=args, settings=settings, app=registry().app(getattr(args, "app", "generic")))
        output = COMMANDS[args.command](ctx)
        print(json.dumps(output.data, ensure_ascii=False) if args.json else output.text or "")
        return output.code
    except ForethoughtError as exc:
        return _fail(args, exc)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the user gets one line; the log gets the rest
        logging.getLogger("forethought").debug("internal error", exc_info=True)
        print(f"internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 70
    finally:
        if ctx is not None:
            ctx.close()


def _fail(args: argparse.Namespace, exc: ForethoughtError) -> int:
    code = next((c for kind, c in EXIT_CODES if isinstance(exc, kind)), 5)
    message = exc.summary
    if args.json:
        print(json.dumps({"error": {"code": exc.code, "message": message}}))
    print(f"error: {message}", file=sys.stderr)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
