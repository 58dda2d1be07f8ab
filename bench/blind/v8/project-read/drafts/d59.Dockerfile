FROM rocker/r-ver:4.3.3

LABEL org.opencontainers.image.source="https://git.ggd-regio.example/epi/epicurve"

RUN apt-get update && apt-get install -y --no-install-recommends \
      libpq-dev libssl-dev libcurl4-openssl-dev libxml2-dev \
      libgdal-dev libgeos-dev libproj-dev libudunits2-dev \
    && rm -rf /var/lib/apt/lists/*

ENV RENV_VERSION=1.0.7 \
    RENV_PATHS_CACHE=/renv/cache

RUN R -q -e "install.packages('remotes', repos = 'https://cloud.r-project.org')" \
 && R -q -e "remotes::install_version('renv', version = Sys.getenv('RENV_VERSION'), repos = 'https://cloud.r-project.org')"

WORKDIR /srv/epicurve
COPY renv.lock renv.lock
COPY renv/activate.R renv/activate.R
COPY .Rprofile .Rprofile
RUN R -q -e "renv::restore(prompt = FALSE)"

# static basemap thumbnails for the PDF situation report
RUN R -q -e "install.packages('ggmap', repos = 'https://cloud.r-project.org')"

COPY DESCRIPTION NAMESPACE ./
COPY R ./R
COPY inst ./inst

RUN useradd --system --uid 1001 shiny && chown -R shiny /srv/epicurve
USER shiny

EXPOSE 3838
CMD ["R", "-q", "-e", "options(shiny.port = 3838, shiny.host = '0.0.0.0'); epicurve::run_app()"]
