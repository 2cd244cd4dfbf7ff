"""A queued letter's links kept sealed beside its body, never in clear.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``outbox.sealed``: the links cut out of a queued letter's body, sealed under the
    server's mail key (``kit.mail.seal``), or NULL (no link, or the row is sent or failed)."""
    with op.batch_alter_table("outbox") as table:
        table.add_column(sa.Column("sealed", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as table:
        table.drop_column("sealed")
