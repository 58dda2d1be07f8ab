package com.findwell.search;

import org.apache.http.HttpHost;
import org.elasticsearch.action.search.SearchRequest;
import org.elasticsearch.action.search.SearchResponse;
import org.elasticsearch.client.RequestOptions;
import org.elasticsearch.client.RestClient;
import org.elasticsearch.client.RestHighLevelClient;
import org.elasticsearch.core.TimeValue;
import org.elasticsearch.index.query.QueryBuilders;
import org.elasticsearch.search.builder.SearchSourceBuilder;

import java.io.IOException;

public class SearchService {
    private final RestHighLevelClient client =
        new RestHighLevelClient(RestClient.builder(new HttpHost("search.internal", 9200, "https")));

    public SearchResponse search(String q, String brand, int size) throws IOException {
        var source = new SearchSourceBuilder()
            .query(QueryBuilders.boolQuery()
                .must(QueryBuilders.matchQuery("title", q))
                .filter(QueryBuilders.termQuery("brand.keyword", brand)))
            .size(Math.min(size, 48))
            .timeout(TimeValue.timeValueMillis(300));
        var request = new SearchRequest("products-v7").source(source);
        return client.search(request, RequestOptions.DEFAULT);
    }
}
