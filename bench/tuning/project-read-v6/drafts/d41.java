package com.findwell.search;

import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.Time;
import org.opensearch.client.opensearch._types.query_dsl.MatchQuery;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch._types.query_dsl.TermQuery;
import org.opensearch.client.opensearch.core.SearchResponse;

import java.io.IOException;

/** Replaces the old Elasticsearch RestHighLevelClient code path. */
public class BrandSearch {
    static final String INDEX_ALIAS = "products";
    static final int MAX_PAGE_SIZE = 48;
    static final Time QUERY_TIMEOUT = Time.of(t -> t.time("0.4s"));

    public record Hit(String id, String title, double score) {}

    private final OpenSearchClient client;

    public BrandSearch(OpenSearchClient client) { this.client = client; }

    public SearchResponse<Hit> search(String text, String brand, int size) throws IOException {
        Query title = MatchQuery.of(m -> m.field("title").query(v -> v.stringValue(text)).fuzziness("AUTO"))._toQuery();
        Query brandFilter = TermQuery.of(t -> t.field("brand.keyword").value(v -> v.stringValue(brand)))._toQuery();
        return client.search(s -> s
                .index(INDEX_ALIAS)
                .query(q -> q.bool(b -> b.must(title).filter(brandFilter)))
                .size(Math.min(size, MAX_PAGE_SIZE))
                .timeout(QUERY_TIMEOUT.time()),
            Hit.class);
    }
}
