# R/mod_trends.R -- weekly trend lines per disease, last 3 seasons

mod_trends_ui <- function(id) {
  ns <- NS(id)
  tagList(
    checkboxGroupInput(ns("diseases"), "Diseases", choices = NULL, inline = TRUE),
    radioButtons(ns("scale"), "Scale", c("Cases" = "abs", "Per 100 000" = "rate"), inline = TRUE),
    plotOutput(ns("trend"), height = "360px"),
    helpText("Weeks are ISO 8601 weeks (Monday to Sunday), not the MMWR/epiweek calendar.")
  )
}

mod_trends_server <- function(id, data_version) {
  moduleServer(id, function(input, output, session) {
    observe({
      choices <- fetch_diseases(app_pool())
      updateCheckboxGroupInput(session, "diseases",
        choices = setNames(choices$code, choices$label), selected = head(choices$code, 3))
    })

    weekly <- reactive({
      req(input$diseases)
      fetch_weekly_totals(app_pool(), input$diseases, seasons = 3) |>
        suppress_small_counts("cases")
    }) |> bindCache(input$diseases, data_version())

    output$trend <- renderPlot({
      df <- weekly()
      yvar <- if (input$scale == "rate") "per_100k" else "cases"
      df |>
        ggplot2::ggplot(ggplot2::aes(x = iso_week, y = .data[[yvar]], colour = season)) +
        ggplot2::geom_line(linewidth = 0.8, na.rm = TRUE) +
        ggplot2::facet_wrap(~disease, scales = "free_y") +
        ggplot2::scale_x_continuous(breaks = seq(1, 53, by = 4)) +
        ggplot2::labs(x = "ISO week", y = NULL, colour = "Season") +
        ggplot2::theme_minimal(base_size = 13)
    }) |> bindCache(input$diseases, input$scale, data_version())
  })
}
