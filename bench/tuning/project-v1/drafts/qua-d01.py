from typing import Any

from opensearchpy import AsyncOpenSearch


def not_delisted() -> dict[str, Any]:
    return {"bool": {"must_not": {"term": {"stock_status": "delisted"}}}}


async def autocomplete(client: AsyncOpenSearch, prefix: str, size: int = 8) -> list[str]:
    res = await client.search(
        index="products",
        body={
            "size": size,
            "query": {
                "bool": {
                    "must": [{"match": {"title.ngram": {"query": prefix}}}],
                    "filter": [not_delisted()],
                }
            },
            "_source": ["title"],
        },
    )
    return [h["_source"]["title"] for h in res["hits"]["hits"]]
