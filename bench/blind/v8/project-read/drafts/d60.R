# R/mod_map.R -- incidence per 100k by municipality, choropleth

mod_map_ui <- function(id) {
  ns <- NS(id)
  tagList(
    selectInput(ns("disease"), "Disease", choices = NULL),
    leaflet::leafletOutput(ns("map"), height = 520),
    downloadButton(ns("csv"), "Download table")
  )
}

# Shapes + denominators are large and the same for every session; cache the
# joined table on the shared volume so new workers don't recompute it.
incidence_cached <- memoise::memoise(
  function(disease, data_version) fetch_incidence_by_municipality(app_pool(), disease),
  cache = cachem::cache_disk("/srv/shared/epicurve-cache", max_age = 6 * 3600)
)

mapModuleServer <- function(id, data_version) {
  moduleServer(id, function(input, output, session) {
    updateSelectInput(session, "disease", choices = disease_choices())

    incidence <- reactive({
      req(input$disease)
      incidence_cached(input$disease, data_version()) |>
        suppress_small_counts("cases", threshold = 10L)
    })

    output$map <- leaflet::renderLeaflet({
      df <- incidence()
      pal <- leaflet::colorBin("YlOrRd", domain = df$per_100k, bins = 6, na.color = "#d9d9d9")
      leaflet::leaflet(df) |>
        leaflet::addTiles(
          urlTemplate = "https://tiles.ggd-regio.internal/osm/{z}/{x}/{y}.png",
          attribution = "© OpenStreetMap contributors"
        ) |>
        leaflet::addPolygons(
          fillColor = ~pal(per_100k), weight = 1, color = "#ffffff", fillOpacity = 0.8,
          label = ~sprintf("%s: %s cases", municipality, cases_display)
        ) |>
        leaflet::addLegend(pal = pal, values = ~per_100k, title = "per 100 000")
    })

    output$csv <- downloadHandler(
      filename = function() sprintf("incidence_%s_%s.csv", input$disease, Sys.Date()),
      content = function(file) {
        incidence() |>
          dplyr::select(municipality, cases = cases_display, per_100k) |>
          utils::write.csv(file, row.names = FALSE)
      }
    )
  })
}
