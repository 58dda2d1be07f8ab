# syntax=docker/dockerfile:1.7
# build stage
FROM golang:1.22 AS build
ARG VERSION=dev
ARG COMMIT=unknown
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath     -ldflags="-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}"     -o /out/tracker ./cmd/tracker

# runtime stage: distroless, not alpine (prod rule)
FROM gcr.io/distroless/static-debian12:nonroot
LABEL org.opencontainers.image.source="https://git.cargohold.internal/platform/tracker"
LABEL org.opencontainers.image.description="cargohold tracker service"
COPY --from=build /out/tracker /tracker
USER nonroot:nonroot
EXPOSE 8080
# metrics
EXPOSE 9090
ENTRYPOINT ["/tracker"]
CMD ["--config", "/etc/tracker/config.yaml"]
