from elasticsearch import Elasticsearch

SYNONYMS = {"hoodie": "hooded sweatshirt", "anorak": "rain jacket"}


def lookup(client: Elasticsearch, fragment: str):
    q = SYNONYMS.get(fragment, fragment)
    res = client.search(index="products", query={"wildcard": {"sku": f"*{q}*"}})
    hits = [h["_source"] for h in res["hits"]["hits"]]
    return [h for h in hits if h["stock_status"] != "delisted"]
