#!/usr/bin/env bash
# Run the integration tests on CI agents.
# The new ARM runners don't have Docker yet, so use an in-memory database there.
set -euo pipefail

if ! command -v docker >/dev/null 2>&1; then
  export SPRING_DATASOURCE_URL="jdbc:h2:mem:claims;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE"
  export SPRING_FLYWAY_LOCATIONS="classpath:db/migration-h2"
fi

./gradlew --no-daemon integrationTest
