-- queries/booking_reserve.sql  (sqlc)

-- name: LockSlotAdvisory :exec
SELECT pg_advisory_xact_lock(sqlc.arg(slot_id)::bigint);

-- name: SlotUsage :one
SELECT s.capacity,
       count(b.id) FILTER (WHERE b.cancelled_at IS NULL) AS reserved
FROM slots s
LEFT JOIN bookings b ON b.slot_id = s.id
WHERE s.id = sqlc.arg(slot_id)
GROUP BY s.capacity;

-- name: InsertBooking :one
INSERT INTO bookings (terminal_code, slot_id, container_no, truck_plate, driver_licence, slot_start)
VALUES (sqlc.arg(terminal_code), sqlc.arg(slot_id), sqlc.arg(container_no),
        sqlc.arg(truck_plate), sqlc.arg(driver_licence), sqlc.arg(slot_start))
RETURNING *;

-- name: ListBookingsFiltered :many
SELECT *
FROM bookings
WHERE terminal_code = sqlc.arg(terminal_code)
  AND slot_start >= sqlc.arg(day_start)
  AND slot_start <  sqlc.arg(day_end)
  AND (sqlc.narg(status)::text IS NULL OR status = sqlc.narg(status))
  AND (sqlc.narg(carrier)::text IS NULL OR carrier = sqlc.narg(carrier))
ORDER BY slot_start, id;
