"""Presence of the seats' pages, shared by every server on one database.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``seat_tokens.last_seen``: when the seat's page or stream was last seen (seconds since
    the epoch, null: never); ``seat_tokens.live_at``: when a stream of it last said it was
    open, null once it closed (``kit.console.presence``)."""
    with op.batch_alter_table("seat_tokens") as table:
        table.add_column(sa.Column("last_seen", sa.Float, nullable=True))
        table.add_column(sa.Column("live_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seat_tokens") as table:
        table.drop_column("live_at")
        table.drop_column("last_seen")
