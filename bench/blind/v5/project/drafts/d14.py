"""add room to appointments

Reception wants to see which consultation room an appointment is in.
Nullable: existing rows have no room and the clinics fill it in gradually.

Revision ID: 0039
Revises: 0038
Create Date: 2026-03-21 09:12:44
"""
import sqlalchemy as sa
from alembic import op

revision = "0039"
down_revision = "0038"


def upgrade() -> None:
    op.add_column("appointments", sa.Column("room", sa.String(length=32), nullable=True))
    op.create_index("ix_appointments_clinic_room", "appointments", ["clinic_id", "room"])


def downgrade() -> None:
    pass
