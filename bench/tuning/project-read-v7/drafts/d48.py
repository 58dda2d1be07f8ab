"""The one module that talks to Meilisearch.

Views call ``query()``; nothing else in the project imports ``meilisearch``.
There is deliberately no SearchVector fallback: Postgres full-text search could
not keep up at catalogue scale.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import meilisearch
from django.conf import settings

DEFAULT_LIMIT = 24
MAX_LIMIT = 50


@dataclass(frozen=True)
class SearchPage:
    ids: list[int]
    total: int
    offset: int
    limit: int


@lru_cache(maxsize=1)
def _client() -> meilisearch.Client:
    return meilisearch.Client(settings.MEILI_URL, settings.MEILI_SEARCH_KEY, timeout=5)


def index_name(entity: str) -> str:
    return f"vitrine_{settings.VITRINE_ENV}_{entity}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def query(
    text: str,
    *,
    filters: dict[str, str] | None = None,
    offset: int = 0,
    limit: int = DEFAULT_LIMIT,
    sort_by_accession: bool = False,
) -> SearchPage:
    limit = max(1, min(limit, MAX_LIMIT))
    params: dict = {"offset": max(0, offset), "limit": limit, "attributesToRetrieve": ["id"]}
    if filters:
        params["filter"] = [f'{key} = "{_escape(val)}"' for key, val in filters.items()]
    if sort_by_accession:
        params["sort"] = ["accession_number:asc"]

    res = _client().index(index_name("objects")).search(text, params)
    return SearchPage(
        ids=[hit["id"] for hit in res["hits"]],
        total=res.get("estimatedTotalHits", 0),
        offset=params["offset"],
        limit=limit,
    )
