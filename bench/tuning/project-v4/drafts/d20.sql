-- daily manual-review feed for the ops dashboard
SELECT c.claim_id,
       c.product_line,
       c.amount_cents,
       s.confidence,
       c.received_at
FROM claims c
JOIN classifier_scores s ON s.claim_id = c.claim_id
WHERE s.confidence < 0.82
  AND c.received_at >= current_date
ORDER BY c.amount_cents DESC, c.received_at ASC;
