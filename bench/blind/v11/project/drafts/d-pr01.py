"""Greedy placement engine."""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from .rules import competitor_ok
from .types import BookingIn, PageSpec, Placement, Slot

FRONT_PAGE_SLOTS = frozenset({"EAR_L", "EAR_R", "FOOT_STRIP"})


@dataclass
class _Candidate:
    page: PageSpec
    slot: Slot


def _fits(slot: Slot, b: BookingIn) -> bool:
    return slot.width_mm >= b.width_mm and slot.height_mm >= b.height_mm


def place(pages: list[PageSpec], bookings: list[BookingIn]) -> list[Placement]:
    placed: list[Placement] = []
    max_per_page = getattr(settings, "LAYOUT_MAX_ADS_PER_PAGE", 6)
    for b in sorted(bookings, key=lambda b: b.width_mm * b.height_mm, reverse=True):
        for page in pages:
            on_page = [p for p in placed if p.page_no == page.number]
            if len(on_page) >= max_per_page:
                continue
            for slot in page.slots:
                if page.number == 1 and slot.code not in FRONT_PAGE_SLOTS:
                    continue
                if not _fits(slot, b) or not competitor_ok(placed, b, page.number):
                    continue
                placed.append(Placement(booking_ref=b.ref, page_no=page.number, slot_code=slot.code,
                                        competitor_group=b.competitor_group))
                break
            else:
                continue
            break
    return placed
