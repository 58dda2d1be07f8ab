"""Coarse areas of work the brief matches on: a task and a record that both touch one share it.

Each area is a name and the words that mean it; the brief stems the words the way it stems a task.
These areas are the default of `App.areas` that every built-in app keeps: one vocabulary across
apps, because a support customer's task can be about payments and a project's about audio. An app
with its own vocabulary declares its own tuple (order matters: the first shared area is the one
the brief names in its reason).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["WORK_AREAS", "Area"]


class Area(BaseModel):
    """One area of work: its name (shown in a brief's reasons) and the words that mean it."""

    model_config = ConfigDict(frozen=True)

    name: str
    words: tuple[str, ...]


def _area(name: str, words: str) -> Area:
    return Area(name=name, words=tuple(words.split()))


WORK_AREAS: tuple[Area, ...] = (
    _area("auth", "auth authentication authorization login logout signin signup password token session cookie csrf "
                  "jwt oauth sso mfa"),
    _area("ui", "ui component button toggle header footer navbar sidebar modal css style styling theme dark layout "
                "tailwind icon font"),
    _area("database", "database db sql query migration schema table prisma postgres mysql sqlite pool connection orm "
                      "pgbouncer"),
    _area("payments", "payment stripe checkout billing invoice refund subscription charge"),
    _area("deployment", "deploy deployment release ci pipeline docker kubernetes staging production rollout"),
    _area("testing", "test testing pytest jest e2e coverage fixture mock"),
    _area("logging", "log logging logger telemetry pii privacy"),
    _area("api", "api endpoint route handler request response rest graphql envelope webhook"),
    _area("caching", "cache caching redis ttl cdn"),
    _area("connectivity", "bluetooth wifi wireless network router modem pairing pair unpair disconnect connect "
                          "reconnect signal"),
    _area("audio", "headphone headset earbuds speaker audio sound microphone"),
    _area("career", "internship intern job role resume cv interview offer application apply recruiter hiring career"),
)  # fmt: skip
