# syntax=docker/dockerfile:1.7
ARG NODE_IMAGE=node:20-alpine

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN npm run build && npm prune --omit=dev

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    ORIGIN=https://tickets.stubline.example
WORKDIR /app
RUN addgroup -S app && adduser -S app -G app

COPY --from=build /app/build ./build
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY migrations ./migrations

USER app
EXPOSE 3000
HEALTHCHECK --interval=20s --timeout=3s CMD wget -qO- http://127.0.0.1:3000/healthz || exit 1

# bring the schema up to date, then start the adapter-node server
CMD ["sh", "-c", "npx node-pg-migrate up --migrations-dir migrations && node build"]
