-- stops served per route for the spring re-route review
SELECT r.district_id,
       r.id          AS route_id,
       s.id          AS stop_id,
       s.name        AS stop_name,
       rs.seq,
       rs.scheduled_time,
       count(st.id)  AS students_at_stop
FROM routes r
JOIN route_stops rs ON rs.route_id = r.id
JOIN stops s        ON s.id = rs.stop_id
LEFT JOIN students st ON st.stop_id = s.id AND st.active
WHERE r.term = '2026-spring'
GROUP BY r.district_id, r.id, s.id, s.name, rs.seq, rs.scheduled_time
ORDER BY r.district_id, r.id, rs.seq;
