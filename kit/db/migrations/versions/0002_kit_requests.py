"""Custom-kit requests: a result id's config, so any server behind one database can answer it.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``kit_requests``: result id -> config (JSON), its key, client, time, render lease."""
    op.create_table(
        "kit_requests",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(32), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("borrowed", sa.Boolean, nullable=False),
        sa.Column("seconds", sa.Float, nullable=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("lease", sa.Float, nullable=False),
    )
    op.create_index("kit_requests_key", "kit_requests", ["key"])
    op.create_index("kit_requests_created", "kit_requests", ["created"])


def downgrade() -> None:
    op.drop_index("kit_requests_created", "kit_requests")
    op.drop_index("kit_requests_key", "kit_requests")
    op.drop_table("kit_requests")
