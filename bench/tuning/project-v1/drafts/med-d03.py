from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("appointments", "0014_remove_status")]

    operations = [
        migrations.RenameField("appointment", "notes", "reception_notes"),
    ]
