#!/usr/bin/env bash
# Installs PostgreSQL 15 and the pgvector extension on Debian bookworm, for the tests' own throwaway
# servers (tests/pg_server.py). Idempotent: when everything is in place it prints nothing and returns at once.
#
# Debian bookworm has no pgvector package, so its source package is fetched from Debian trixie through a
# private apt configuration (its own sources.list, lists and cache in a temporary folder; the system's
# sources are never changed) and built against bookworm's PostgreSQL 15.
#
# The Debian cluster service is left as it is: the tests start their own server.
# DESTDIR, as for `make install`, installs pgvector under another root (a staging folder).
set -euo pipefail

PG_MAJOR=15
PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
PG_CONFIG=$PG_BIN/pg_config
PG_SERVER_HEADERS=/usr/include/postgresql/$PG_MAJOR/server
DESTDIR=${DESTDIR:-}

die() {
  echo "postgres.sh: $*" >&2
  exit 1
}

is_root() { [ "$(id -u)" -eq 0 ]; }

apt_updated=0
apt_install() {
  is_root || die "missing $*: run 'make postgres' as root"
  echo "postgres.sh: installing $*" >&2
  if [ "$apt_updated" -eq 0 ]; then
    apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# The Debian mirror this machine already uses (deb822 .sources or one-line .list), deb.debian.org otherwise.
debian_mirror() {
  local files=() mirror
  [ -f /etc/apt/sources.list ] && files+=(/etc/apt/sources.list)
  for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && files+=("$f")
  done
  mirror=""
  if [ "${#files[@]}" -gt 0 ]; then
    mirror=$(grep -hv '^[[:space:]]*#' "${files[@]}" | grep -Eo '(https?|mirror\+https?)://[^[:space:]]+/debian/?([[:space:]]|$)' \
      | tr -d '[:space:]' | grep -v -- '-security' | head -n 1 || true)
  fi
  echo "${mirror:-http://deb.debian.org/debian}"
}

# 1. PostgreSQL 15, its server headers and pg_config.
if [ ! -x "$PG_BIN/postgres" ] || [ ! -x "$PG_CONFIG" ] || [ ! -d "$PG_SERVER_HEADERS" ]; then
  apt_install "postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR"
fi

# 2. pgvector, built from Debian trixie's source package.
control="$DESTDIR$("$PG_CONFIG" --sharedir)/extension/vector.control"
if [ -f "$control" ]; then
  exit 0
fi
if [ -z "$DESTDIR" ] && ! is_root; then
  die "pgvector is missing: run 'make postgres' as root"
fi
if ! command -v make >/dev/null || ! command -v gcc >/dev/null || ! command -v dpkg-source >/dev/null; then
  apt_install build-essential dpkg-dev
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pgvector-src.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
echo "deb-src $(debian_mirror) trixie main" >"$work/sources.list"
apt_private=(
  -o "Dir::Etc::SourceList=$work/sources.list"
  -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$work/lists"
  -o "Dir::Cache=$work/cache"
)
is_root && apt_private+=(-o "APT::Sandbox::User=root")

echo "postgres.sh: building pgvector from Debian trixie's source package" >&2
apt-get "${apt_private[@]}" -qq update
(cd "$work/src" && apt-get "${apt_private[@]}" -qq source pgvector >/dev/null 2>&1) \
  || die "could not fetch the pgvector source package from Debian trixie ($(cat "$work/sources.list"))"
src=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n 1)
[ -n "$src" ] || die "the pgvector source package did not unpack"

make -s -C "$src" -j "$(nproc)" PG_CONFIG="$PG_CONFIG" >"$work/build.log" 2>&1 \
  || { tail -n 20 "$work/build.log" >&2; die "building pgvector failed"; }
make -s -C "$src" PG_CONFIG="$PG_CONFIG" DESTDIR="$DESTDIR" install >>"$work/build.log" 2>&1 \
  || { tail -n 20 "$work/build.log" >&2; die "installing pgvector failed"; }
[ -f "$control" ] || die "pgvector was built but $control is missing"
echo "postgres.sh: pgvector $(sed -n "s/^default_version = '\(.*\)'/\1/p" "$control") installed" >&2
