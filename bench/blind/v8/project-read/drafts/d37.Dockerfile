# Quire app image -- built in CI, run on the library VM behind nginx
FROM perl:5.38-slim AS build

RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential libpq-dev ca-certificates \
 && rm -rf /var/lib/apt/lists/*

RUN cpanm --notest Carton

WORKDIR /opt/quire
COPY cpanfile cpanfile.snapshot ./
RUN carton install --deployment

# reporting module (monthly stats export) wants the ORM layer
RUN cpanm --notest DBIx::Class DBIx::Class::Schema::Loader

FROM perl:5.38-slim

RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq5 ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home /opt/quire quire

ENV TZ=Europe/Oslo \
    PERL5LIB=/opt/quire/local/lib/perl5:/opt/quire/lib \
    MOJO_MODE=production

ARG QUIRE_PORT=3000
ENV QUIRE_LISTEN=http://*:${QUIRE_PORT}

WORKDIR /opt/quire
COPY --from=build /opt/quire/local ./local
COPY --from=build /usr/local/lib/perl5 /usr/local/lib/perl5
COPY lib ./lib
COPY script ./script
COPY templates ./templates
COPY public ./public
COPY quire.conf ./

USER quire
EXPOSE ${QUIRE_PORT}

HEALTHCHECK --interval=30s --timeout=5s CMD perl -MHTTP::Tiny -e 'exit(HTTP::Tiny->new->get("http://127.0.0.1:$ENV{QUIRE_PORT}/health")->{success} ? 0 : 1)'

CMD ["perl", "local/bin/hypnotoad", "--foreground", "script/quire"]
