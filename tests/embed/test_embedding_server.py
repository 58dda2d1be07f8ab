"""EmbeddingServer speaks the OpenAI embeddings protocol on loopback for any Embedder."""

from __future__ import annotations

import base64

import httpx
import numpy as np

from forethought.embed.hashing import HashingEmbedder
from forethought.embed.server import EmbeddingServer


def test_it_answers_floats_and_base64_with_the_embedders_own_vectors() -> None:
    embedder = HashingEmbedder()
    with EmbeddingServer(embedder) as server, httpx.Client(base_url=server.base_url) as client:
        floats = client.post("/embeddings", json={"model": "any", "input": ["deploy on Postgres", "x"]}).json()
        packed = client.post("/embeddings", json={"input": "deploy on Postgres", "encoding_format": "base64"}).json()
        models = client.get("/models").json()
    want = embedder.embed(["deploy on Postgres", "x"])
    assert [d["index"] for d in floats["data"]] == [0, 1]
    assert np.allclose(np.array(floats["data"][0]["embedding"], dtype=np.float32), want[0])
    decoded = np.frombuffer(base64.b64decode(packed["data"][0]["embedding"]), dtype="<f4")
    assert np.array_equal(decoded, want[0])
    assert floats["model"] == embedder.name and models["data"][0]["id"] == embedder.name


def test_it_refuses_malformed_requests_and_unknown_routes() -> None:
    with EmbeddingServer(HashingEmbedder()) as server, httpx.Client(base_url=server.base_url) as client:
        assert client.post("/embeddings", json={"input": [1, 2]}).status_code == 400
        assert client.post("/embeddings", json={"input": []}).status_code == 400
        assert client.post("/embeddings", json={"input": "x", "encoding_format": "int8"}).status_code == 400
        assert client.post("/chat/completions", json={}).status_code == 404
        assert client.get("/").status_code == 404
