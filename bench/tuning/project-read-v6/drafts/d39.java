package com.findwell.search;

import org.opensearch.client.opensearch._types.query_dsl.MultiMatchQuery;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch._types.query_dsl.TextQueryType;

import java.util.List;

public final class QueryFactory {
    private static final List<String> FIELDS = List.of("title^3", "brand^2", "sku", "description");
    private static final int MAX_SIZE = 100;

    private QueryFactory() {}

    public static int clampSize(int requested) {
        return Math.max(1, Math.min(requested, MAX_SIZE));
    }

    public static Query productQuery(String text) {
        return MultiMatchQuery.of(m -> m
                .query(text)
                .fields(FIELDS)
                .type(TextQueryType.BestFields)
                .fuzziness("AUTO"))
            ._toQuery();
    }
}
