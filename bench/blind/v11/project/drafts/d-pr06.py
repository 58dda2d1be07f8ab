import pytest

from pressroom.layout.engine import place
from pressroom.layout.types import BookingIn
from tests.factories import BookingFactory, PageSpecFactory

pytestmark = pytest.mark.django_db


def test_strip_ad_lands_on_front_page_foot_strip():
    front = PageSpecFactory(number=1, with_slots=["EAR_L", "EAR_R", "FOOT_STRIP", "MAIN"]).as_dataclass()
    strip = BookingFactory(size__code="STRIP_1", size__width_mm=289, size__height_mm=40)

    placed = place([front], [BookingIn.from_model(strip)])

    assert [(p.page_no, p.slot_code) for p in placed] == [(1, "FOOT_STRIP")]


def test_half_page_never_on_front_page():
    front = PageSpecFactory(number=1, with_slots=["EAR_L", "EAR_R", "FOOT_STRIP", "MAIN"]).as_dataclass()
    half = BookingFactory(size__code="HALF_H", size__width_mm=289, size__height_mm=180)

    assert place([front], [BookingIn.from_model(half)]) == []
