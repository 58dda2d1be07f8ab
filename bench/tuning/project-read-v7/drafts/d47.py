import datetime
import re

from django.db import migrations, models

YEAR = re.compile(r"(\d{3,4})")


def fill_made_on(apps, schema_editor):
    CatalogueObject = apps.get_model("catalogue", "CatalogueObject")
    batch = []
    qs = CatalogueObject.objects.exclude(date_display="").only("id", "date_display")
    for obj in qs.iterator(chunk_size=2000):
        match = YEAR.search(obj.date_display)
        if not match:
            continue
        obj.made_on = datetime.date(int(match.group(1)), 1, 1)
        batch.append(obj)
        if len(batch) >= 2000:
            CatalogueObject.objects.bulk_update(batch, ["made_on"])
            batch.clear()
    if batch:
        CatalogueObject.objects.bulk_update(batch, ["made_on"])


class Migration(migrations.Migration):

    dependencies = [
        ("catalogue", "0047_image_rights_statement"),
    ]

    operations = [
        migrations.AddField(
            model_name="catalogueobject",
            name="made_on",
            field=models.DateField(blank=True, null=True, help_text="Approximate production date, for sorting"),
        ),
        migrations.AddIndex(
            model_name="catalogueobject",
            index=models.Index(fields=["made_on"], name="catalogue_made_on_idx"),
        ),
        migrations.RunPython(fill_made_on, migrations.RunPython.noop),
    ]
