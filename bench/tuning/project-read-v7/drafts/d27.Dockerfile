ARG ELIXIR_VERSION=1.17.3
ARG OTP_VERSION=27.1.2
ARG ALPINE_VERSION=3.20.3

FROM hexpm/elixir:${ELIXIR_VERSION}-erlang-${OTP_VERSION}-alpine-${ALPINE_VERSION} AS build
RUN apk add --no-cache build-base git
WORKDIR /app
ENV MIX_ENV=prod

RUN mix local.hex --force && mix local.rebar --force
COPY mix.exs mix.lock ./
RUN mix deps.get --only $MIX_ENV
COPY config/config.exs config/prod.exs config/
RUN mix deps.compile

COPY priv priv
COPY lib lib
COPY assets assets
RUN mix assets.deploy && mix compile

COPY config/runtime.exs config/
COPY rel rel
RUN mix release

# ~40 MB smaller than the debian runtime
FROM alpine:${ALPINE_VERSION} AS runtime
RUN apk add --no-cache libstdc++ openssl ncurses-libs ca-certificates
WORKDIR /app
RUN chown nobody /app
ENV MIX_ENV=prod PHX_SERVER=true LANG=C.UTF-8

COPY --from=build --chown=nobody:root /app/_build/prod/rel/parley ./
USER nobody

# apply pending migrations, then boot the node
CMD ["/bin/sh", "-c", "/app/bin/parley eval 'Parley.Release.migrate()' && exec /app/bin/parley start"]
