import io

import pandas as pd
from celery import shared_task

from pressroom.proofs.models import Supplement
from pressroom.proofs.render import render_page


@shared_task(name="proofs.render_supplement")
def render_supplement(supplement_id: int) -> int:
    sup = Supplement.objects.get(pk=supplement_id)
    pages = pd.DataFrame.from_records(sup.pages.values("number", "section", "artwork_count"))
    rendered = 0
    for row in pages.sort_values("number").itertuples():
        pdf = render_page(sup.edition_id, row.number)
        sup.store_proof(row.number, io.BytesIO(pdf))
        rendered += 1
    return rendered
