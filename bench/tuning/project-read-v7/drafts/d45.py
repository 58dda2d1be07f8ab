from django.conf import settings
from meilisearch import Client
from rest_framework import serializers, viewsets
from rest_framework.pagination import PageNumberPagination

from catalogue.models import CatalogueObject, Donor, Image

_meili = Client(settings.MEILI_URL, settings.MEILI_SEARCH_KEY)


class PublicPagination(PageNumberPagination):
    page_size = 24
    page_size_query_param = "page_size"
    max_page_size = 100


class DonorSerializer(serializers.ModelSerializer):
    class Meta:
        model = Donor
        fields = ["credit_line", "name", "email", "is_anonymous"]


class ImageSerializer(serializers.ModelSerializer):
    iiif_base = serializers.SerializerMethodField()

    class Meta:
        model = Image
        fields = ["iiif_base", "caption", "rights_statement"]

    def get_iiif_base(self, obj):
        return f"{settings.IIIF_BASE_URL}/iiif/3/{obj.identifier}"


class PublicObjectSerializer(serializers.ModelSerializer):
    images = ImageSerializer(many=True, read_only=True)
    donor = DonorSerializer(read_only=True)

    class Meta:
        model = CatalogueObject
        fields = [
            "accession_number", "title", "maker", "date_display", "date_earliest",
            "date_latest", "medium", "dimensions", "images", "donor",
        ]


class PublicObjectViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = PublicObjectSerializer
    pagination_class = PublicPagination
    lookup_field = "accession_number"
    lookup_value_regex = r"[^/]+"

    def get_queryset(self):
        return (
            CatalogueObject.objects.filter(is_public=True)
            .select_related("donor")
            .prefetch_related("images")
            .order_by("accession_number")
        )

    def list(self, request, *args, **kwargs):
        q = request.query_params.get("q")
        if not q:
            return super().list(request, *args, **kwargs)

        index = _meili.index(f"vitrine_{settings.VITRINE_ENV}_objects")
        hits = index.search(q, {"limit": 200, "attributesToRetrieve": ["id"]})["hits"]
        page = self.paginate_queryset(self.get_queryset().filter(id__in=[h["id"] for h in hits]))
        return self.get_paginated_response(self.get_serializer(page, many=True).data)
