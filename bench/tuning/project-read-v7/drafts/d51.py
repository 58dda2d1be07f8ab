from django.db import models
from django.db.models import F, Q


class Lender(models.Model):
    display_name = models.CharField(max_length=200)
    contact_name = models.CharField(max_length=200, blank=True)
    contact_email = models.EmailField(blank=True)
    address = models.TextField(blank=True)
    credit_line = models.CharField(max_length=300)

    def __str__(self):
        return self.display_name


class Loan(models.Model):
    class Direction(models.TextChoices):
        INCOMING = "in", "Incoming"
        OUTGOING = "out", "Outgoing"

    reference = models.CharField(max_length=40, unique=True)
    direction = models.CharField(max_length=3, choices=Direction.choices)
    lender = models.ForeignKey(Lender, on_delete=models.PROTECT, related_name="loans")
    venue = models.CharField(max_length=200, blank=True)
    start_date = models.DateField()
    end_date = models.DateField()
    agreement_signed_on = models.DateField(null=True, blank=True)
    insurance_value_pence = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-start_date"]
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=F("start_date")), name="loan_dates_ordered"),
        ]

    def __str__(self):
        return self.reference


class LoanItem(models.Model):
    loan = models.ForeignKey(Loan, on_delete=models.CASCADE, related_name="items")
    catalogue_object = models.ForeignKey(
        "catalogue.CatalogueObject", null=True, blank=True, on_delete=models.PROTECT
    )
    # incoming loans: the lender's own accession number for objects we don't hold
    external_accession = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    description = models.TextField()
    condition_on_arrival = models.TextField(blank=True)
    condition_on_return = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(catalogue_object__isnull=False) | Q(external_accession__isnull=False),
                name="loan_item_identifies_object",
            ),
        ]
