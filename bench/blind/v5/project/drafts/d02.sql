-- +goose NO TRANSACTION
-- 0049: index for lane screen lookups and the no-show sweep.
-- Forward-only. Built concurrently because bookings takes writes all day.

-- +goose Up
CREATE INDEX CONCURRENTLY IF NOT EXISTS bookings_terminal_slot_idx
    ON bookings (terminal_code, slot_start)
    WHERE cancelled_at IS NULL;

CREATE INDEX CONCURRENTLY IF NOT EXISTS bookings_no_show_idx
    ON bookings (terminal_code, no_show_at)
    WHERE no_show_at IS NOT NULL;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS bookings_no_show_idx;
DROP INDEX CONCURRENTLY IF EXISTS bookings_terminal_slot_idx;

-- Notes for reviewers:
--   * slot_start and no_show_at are timestamptz (UTC) since 0044/0047.
--   * No table rewrite, no lock beyond SHARE UPDATE EXCLUSIVE.
--   * Check pg_stat_progress_create_index on prod while it runs.
--   * If the build fails it leaves an INVALID index: drop it and rerun.
