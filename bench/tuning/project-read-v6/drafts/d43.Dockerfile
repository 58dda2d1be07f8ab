FROM eclipse-temurin:17-jdk AS build
WORKDIR /app
COPY gradlew settings.gradle.kts build.gradle.kts ./
COPY gradle ./gradle
RUN ./gradlew --no-daemon dependencies > /dev/null
COPY src ./src
RUN ./gradlew --no-daemon bootJar -x test

FROM eclipse-temurin:17-jre
RUN useradd --system --uid 10001 search
WORKDIR /srv
COPY --from=build /app/build/libs/search-api.jar ./search-api.jar
USER search
EXPOSE 8080
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
ENTRYPOINT ["java", "--enable-preview", "-jar", "/srv/search-api.jar"]
HEALTHCHECK --interval=15s --timeout=3s CMD curl -fsS http://localhost:8080/actuator/health || exit 1
# bulk indexing runs in the separate indexer image
LABEL org.opencontainers.image.title="findwell search-api"
LABEL org.opencontainers.image.vendor="findwell"
