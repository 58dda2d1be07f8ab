"""Square thumbnails for the mobile collection app."""
import io
import logging

from celery import shared_task
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image as PILImage
from PIL import ImageOps, UnidentifiedImageError

from catalogue.models import Image

log = logging.getLogger(__name__)

THUMB_SIZES = (160, 320, 640)


@shared_task(bind=True, max_retries=3, acks_late=True)
def build_square_thumbnails(self, image_id: int) -> list[str]:
    image = Image.objects.select_related("catalogue_object").get(pk=image_id)

    try:
        with default_storage.open(image.master_path, "rb") as fh:
            master = PILImage.open(fh)
            master.load()
    except (OSError, UnidentifiedImageError) as exc:
        log.warning("cannot open master", extra={"image_id": image_id})
        raise self.retry(exc=exc, countdown=60)

    paths = []
    for size in THUMB_SIZES:
        thumb = ImageOps.fit(master.convert("RGB"), (size, size), method=PILImage.Resampling.LANCZOS)
        buf = io.BytesIO()
        thumb.save(buf, format="JPEG", quality=82, optimize=True, progressive=True)
        path = f"thumbs/{image.catalogue_object.accession_number}/{image.pk}-{size}.jpg"
        default_storage.save(path, ContentFile(buf.getvalue()))
        paths.append(path)

    image.thumbnail_paths = paths
    image.save(update_fields=["thumbnail_paths"])
    log.info("thumbnails built", extra={"image_id": image_id, "sizes": THUMB_SIZES})
    return paths
