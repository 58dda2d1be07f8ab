# R/db_pool.R -- one pool per R process, created lazily.

.epicurve_env <- new.env(parent = emptyenv())

#' The shared connection pool for this app instance.
#' The warehouse allows 10 connections per instance; idle ones are closed
#' after 10 minutes so a quiet night doesn't hold them open.
app_pool <- function() {
  if (is.null(.epicurve_env$pool) || !pool::dbIsValid(.epicurve_env$pool)) {
    .epicurve_env$pool <- pool::dbPool(
      drv = RPostgres::Postgres(),
      host = Sys.getenv("EPICURVE_DB_HOST"),
      port = as.integer(Sys.getenv("EPICURVE_DB_PORT", "5432")),
      dbname = Sys.getenv("EPICURVE_DB_NAME", "surveillance"),
      user = Sys.getenv("EPICURVE_DB_USER"),
      password = Sys.getenv("EPICURVE_DB_PASSWORD"),
      minSize = 1,
      maxSize = 10,
      idleTimeout = 600,
      validationInterval = 60,
      application_name = "epicurve-dashboard"
    )
    reg.finalizer(.epicurve_env, function(e) {
      if (!is.null(e$pool)) pool::poolClose(e$pool)
    }, onexit = TRUE)
  }
  .epicurve_env$pool
}

#' Quick connectivity check used by the /health endpoint in ShinyProxy.
db_healthy <- function() {
  tryCatch(
    {
      DBI::dbGetQuery(app_pool(), "SELECT 1 AS ok")$ok == 1
    },
    error = function(e) FALSE
  )
}
