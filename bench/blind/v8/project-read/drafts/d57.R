# R/mod_cases.R -- weekly case counts by municipality

mod_cases_ui <- function(id) {
  ns <- NS(id)
  tagList(
    selectInput(ns("disease"), "Disease", choices = NULL),
    dateRangeInput(ns("period"), "Onset between", start = Sys.Date() - 180, end = Sys.Date()),
    plotOutput(ns("curve"), height = "320px"),
    DT::DTOutput(ns("table"))
  )
}

mod_cases_server <- function(id, con, data_version) {
  moduleServer(id, function(input, output, session) {
    observe({
      diseases <- fetch_diseases(con)
      updateSelectInput(session, "disease", choices = setNames(diseases$code, diseases$label))
    })

    weekly <- reactive({
      req(input$disease)
      raw <- DBI::dbGetQuery(
        con,
        "SELECT onset_date, municipality FROM notifications WHERE disease = $1 AND onset_date BETWEEN $2 AND $3",
        params = list(input$disease, input$period[1], input$period[2])
      )
      raw %>%
        dplyr::mutate(
          year = lubridate::epiyear(onset_date),
          week = lubridate::epiweek(onset_date)
        ) %>%
        dplyr::count(municipality, year, week, name = "cases")
    }) |> bindCache(input$disease, input$period, data_version())

    output$curve <- renderPlot({
      weekly() |>
        dplyr::group_by(year, week) |>
        dplyr::summarise(cases = sum(cases), .groups = "drop") |>
        ggplot2::ggplot(ggplot2::aes(x = week, y = cases)) +
        ggplot2::geom_col(fill = "#3b6ea5") +
        ggplot2::facet_wrap(~year, ncol = 1) +
        ggplot2::labs(x = "Week", y = "Cases")
    })

    output$table <- DT::renderDT({
      weekly() |>
        dplyr::mutate(cases = ifelse(cases < 5, "<5", as.character(cases))) |>
        tidyr::pivot_wider(names_from = week, values_from = cases, values_fill = "0")
    })
  })
}
