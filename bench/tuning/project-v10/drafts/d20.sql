ALTER TABLE gustlog.signals_raw
    MODIFY TTL toDateTime(ts) + INTERVAL 400 DAY TO VOLUME 'cold',
               toDateTime(ts) + INTERVAL 400 DAY DELETE;
