-- chair utilisation per clinic and week, for the practice managers' report
SELECT c.clinic_id,
       date_trunc('week', a.starts_at AT TIME ZONE cl.timezone) AS week,
       c.id AS chair_id,
       sum(a.duration_min) AS booked_min,
       count(*) FILTER (WHERE a.status = 'no_show') AS no_shows
FROM appointments a
JOIN chairs c   ON c.id = a.chair_id
JOIN clinics cl ON cl.id = c.clinic_id
WHERE a.status <> 'cancelled'
  AND a.starts_at >= now() - interval '12 weeks'
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;
