import pytest
from rest_framework.test import APIClient

from catalogue.tests.factories import CatalogueObjectFactory, DonorFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_public_object_shows_only_the_credit_line(api):
    donor = DonorFactory(
        name="Mrs H. Abernethy",
        email="h.abernethy@example.org",
        is_anonymous=True,
        credit_line="Gift of an anonymous donor, 1998",
    )
    obj = CatalogueObjectFactory(donor=donor, is_public=True, accession_number="1998.27.4")

    body = api.get(f"/api/v1/objects/{obj.accession_number}/").json()

    assert body["credit_line"] == "Gift of an anonymous donor, 1998"
    assert "donor" not in body
    assert "Abernethy" not in str(body)
    assert "example.org" not in str(body)


def test_accession_number_round_trips_exactly(api):
    obj = CatalogueObjectFactory(accession_number="2001.10", is_public=True)

    body = api.get(f"/api/v1/objects/{obj.accession_number}/").json()

    assert body["accession_number"] == "2001.10"


def test_page_size_is_capped_at_50(api):
    CatalogueObjectFactory.create_batch(60, is_public=True)

    body = api.get("/api/v1/objects/", {"page_size": 100}).json()

    assert len(body["results"]) == 50


def test_default_page_size_is_24(api):
    CatalogueObjectFactory.create_batch(30, is_public=True)

    assert len(api.get("/api/v1/objects/").json()["results"]) == 24


def test_circa_dates_keep_the_display_string(api):
    obj = CatalogueObjectFactory(
        is_public=True, date_display="c. 1650-1670", date_earliest=1645, date_latest=1675
    )

    body = api.get(f"/api/v1/objects/{obj.accession_number}/").json()

    assert body["date_display"] == "c. 1650-1670"
    assert (body["date_earliest"], body["date_latest"]) == (1645, 1675)
