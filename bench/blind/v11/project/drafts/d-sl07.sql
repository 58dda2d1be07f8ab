-- sql/reports/district_totals.sql
SELECT d.district_name, SUM(c.consumption_m3) AS total_m3
FROM (
    SELECT meter_id, CAST(consumption_litres AS DOUBLE) / 1000 AS consumption_m3, read_ts
    FROM hourly_consumption
    WHERE read_ts >= DATE_TRUNC('month', NOW()) - INTERVAL 1 MONTH
) c
JOIN meters m ON m.meter_id = c.meter_id
JOIN districts d ON d.district_id = m.district_id
GROUP BY d.district_name
ORDER BY total_m3 DESC;
