"""A generated `git diff` for the project-speed bench: TypeScript, Python and YAML files.

`diff(lines)` writes files of the areas in `bench.project_corpus` (8 to 15 of them, one or two
new), each with hunks of context, removed and added lines, until the diff is about `lines` lines
long. The code is the kind of thing a coding agent writes — imports, handlers, queries, logging,
config — and now and then it does what a rule forbids (a banned package, a token logged), as a
real diff might.
"""

from __future__ import annotations

import random

from bench.project_corpus import AREAS, Area

__all__ = ["diff"]

_TS = (
    'import {{ {ident} }} from "./{stem}";',
    'import {good} from "{good}";',
    "export async function {ident}Handler(req: Request, res: Response): Promise<void> {{",
    "  const {var} = await {ident}(req.body);",
    '  if (!{var}) throw new ApiError(404, "{noun} not found");',
    '  logger.info({{ requestId: req.id, {var} }}, "{noun} handled");',
    "  res.status(200).json({{ data: {var} }});",
    "}}",
    "const {var} = items.filter((x) => x.{var}Id === id).map((x) => x.amount);",
    "  return {ident}({var}, {{ timeoutMs: {n}000 }});",
    "// TODO: move {noun} to {ident}",
    'export const {VAR} = process.env.{VAR} ?? "{n}";',
)
_TS_BAD = ('import {bad} from "{bad}";', '  console.log("{noun}", {var});')
_PY = (
    "from services.{area}.{stem} import {ident}",
    "import {good_py}",
    "def {snake}(session, {var}: int) -> dict:",
    '    """Handle {noun} for one customer."""',
    "    result = {ident}(session, {var})",
    '    log.info("{noun} done", extra={{"request_id": request_id}})',
    "    if result is None:",
    '        raise NotFound("{noun}")',
    '    return {{"{var}": result, "count": len(result)}}',
    "    with session.begin():",
    "        session.execute(select(Order).where(Order.id == {var}))",
    '{VAR} = int(os.environ.get("{VAR}", "{n}"))',
)
_PY_BAD = ("import {bad_py}", '    print("{noun}", {var})')
_YAML = (
    "  {var}:",
    "    image: registry.example.com/{area}:{n}.{n}.0",
    "    replicas: {n}",
    "    env:",
    "      - name: {VAR}",
    '        value: "{n}"',
    "    resources:",
    '      limits: {{ cpu: "{n}00m", memory: "{n}00Mi" }}',
    "  - run: {command}",
    "    timeout-minutes: {n}",
)
_YAML_BAD = ("    image: registry.example.com/{area}:latest",)
_LANG = {"ts": (_TS, _TS_BAD), "tsx": (_TS, _TS_BAD), "py": (_PY, _PY_BAD), "yaml": (_YAML, _YAML_BAD),
         "yml": (_YAML, _YAML_BAD)}  # fmt: skip
_VARS = ("order", "customer", "amount", "token", "invoice", "session", "retries", "payload", "user", "batch")


def _line(templates: tuple[str, ...], area: Area, rng: random.Random) -> str:
    ident = rng.choice(area.idents)
    pair = rng.randrange(0, len(area.packages), 2)
    good, bad = area.packages[pair], area.packages[pair + 1]
    var = rng.choice(_VARS)
    return rng.choice(templates).format(
        ident=ident, stem=ident.lower()[:12], good=good, bad=bad, good_py=good.replace("-", "_").strip("@/"),
        bad_py=bad.replace("-", "_").replace(".", "_").strip("@/"), var=var, VAR=var.upper() + "_LIMIT",
        noun=rng.choice(area.nouns), n=rng.randint(2, 9), area=area.name, command=rng.choice(area.commands),
        snake="handle_" + var,
    )  # fmt: skip


def _files(rng: random.Random, count: int) -> list[tuple[str, Area]]:
    found: dict[str, Area] = {}
    while len(found) < count:
        area = rng.choice(AREAS)
        path = rng.choice(area.paths)
        if path.rsplit(".", 1)[-1] in _LANG:
            found.setdefault(path, area)
    return list(found.items())


def _hunk(ext: str, area: Area, rng: random.Random, start: int, size: int) -> tuple[list[str], int]:
    good, bad = _LANG[ext]
    body: list[str] = []
    old = new = 0
    for _ in range(size):
        roll = rng.random()
        if roll < 0.45:
            body.append(" " + _line(good, area, rng))
            old, new = old + 1, new + 1
        elif roll < 0.65:
            body.append("-" + _line(good, area, rng))
            old += 1
        else:
            body.append("+" + _line(bad if rng.random() < 0.03 else good, area, rng))
            new += 1
    return [f"@@ -{start},{old} +{start},{new} @@", *body], start + new + rng.randint(10, 60)


def diff(lines: int = 1000, seed: int = 19) -> tuple[str, int]:
    """A unified diff of about `lines` lines, and how many files it touches (8 to 15)."""
    rng = random.Random(seed)
    files = _files(rng, rng.randint(8, 15))
    per_file = lines // len(files)
    out: list[str] = []
    for n, (path, area) in enumerate(files):
        ext = path.rsplit(".", 1)[-1]
        created = n < 2 and ext != "yaml"
        out += [f"diff --git a/{path} b/{path}", f"index {rng.getrandbits(28):07x}..{rng.getrandbits(28):07x} 100644"]
        out += ["--- /dev/null" if created else f"--- a/{path}", f"+++ b/{path}"]
        budget = per_file - 4 if n < len(files) - 1 else lines - len(out)
        if created:
            out += [f"@@ -0,0 +1,{budget - 1} @@"]
            out += ["+" + _line(_LANG[ext][0], area, rng) for _ in range(budget - 1)]
            continue
        start = rng.randint(1, 40)
        while budget > 3:
            size = min(budget - 1, rng.randint(12, 40))
            hunk, start = _hunk(ext, area, rng, start, size)
            out += hunk
            budget -= len(hunk)
    return "\n".join(out) + "\n", len(files)
