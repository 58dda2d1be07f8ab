# syntax=docker/dockerfile:1
FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
ARG BUILD_CONFIGURATION=Release
WORKDIR /src

COPY Directory.Build.props Directory.Packages.props global.json ./
COPY src/Claimdesk.Api/Claimdesk.Api.csproj src/Claimdesk.Api/
COPY src/Claimdesk.Application/Claimdesk.Application.csproj src/Claimdesk.Application/
COPY src/Claimdesk.Domain/Claimdesk.Domain.csproj src/Claimdesk.Domain/
COPY src/Claimdesk.Infrastructure/Claimdesk.Infrastructure.csproj src/Claimdesk.Infrastructure/
RUN dotnet restore src/Claimdesk.Api/Claimdesk.Api.csproj

COPY src/ src/
RUN dotnet publish src/Claimdesk.Api/Claimdesk.Api.csproj \
      -c $BUILD_CONFIGURATION -o /app/publish --no-restore /p:UseAppHost=false

FROM mcr.microsoft.com/dotnet/aspnet:10.0 AS final
LABEL org.opencontainers.image.source="https://github.com/claimdesk/claimdesk" \
      org.opencontainers.image.title="claimdesk-api"
WORKDIR /app

ENV ASPNETCORE_HTTP_PORTS=8080 \
    DOTNET_gcServer=1

# Kestrel-wide ceiling (50 MB) so multipart overhead never trips it;
# the real per-file limit is enforced on the upload endpoint.
ENV Kestrel__Limits__MaxRequestBodySize=52428800

COPY --from=build /app/publish .
USER $APP_UID
EXPOSE 8080
ENTRYPOINT ["dotnet", "Claimdesk.Api.dll"]
