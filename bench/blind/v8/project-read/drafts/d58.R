# R/data_cases.R -- queries behind the case modules. Modules call these,
# never the database directly.

#' Weekly notifications per municipality, ISO weeks.
#' @param pool a pool::dbPool from db_pool()
fetch_weekly_cases <- function(pool, disease, from, to) {
  sql <- "
    SELECT onset_date, municipality
      FROM notifications
     WHERE disease = $1
       AND onset_date BETWEEN $2 AND $3"
  DBI::dbGetQuery(pool, sql, params = list(disease, from, to)) |>
    dplyr::mutate(
      iso_year = lubridate::isoyear(onset_date),
      iso_week = lubridate::isoweek(onset_date)
    ) |>
    dplyr::count(municipality, iso_year, iso_week, name = "cases")
}

fetch_diseases <- function(pool) {
  DBI::dbGetQuery(pool, "SELECT code, label FROM diseases WHERE notifiable ORDER BY label")
}

#' Replace small counts before anything leaves the server (tables, maps, csv).
#' Threshold per regional guidance of March 2026.
suppress_small_counts <- function(df, col = "cases", threshold = 10L) {
  stopifnot(is.numeric(df[[col]]))
  df[[paste0(col, "_display")]] <- ifelse(
    df[[col]] > 0 & df[[col]] < threshold,
    paste0("<", threshold),
    format(df[[col]], big.mark = " ", trim = TRUE)
  )
  # keep the raw number out of anything downstream
  df[[col]] <- ifelse(df[[col]] > 0 & df[[col]] < threshold, NA_integer_, df[[col]])
  df
}

fetch_weekly_cases_safe <- function(pool, disease, from, to) {
  fetch_weekly_cases(pool, disease, from, to) |>
    suppress_small_counts("cases")
}

#' Version string of the last successful ETL load; used as the cache key.
fetch_data_version <- function(pool) {
  DBI::dbGetQuery(pool, "SELECT max(loaded_at)::text AS v FROM etl_runs WHERE status = 'ok'")$v
}
