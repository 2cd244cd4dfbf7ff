"""The mail outbox: one row per message, unique per (game, player, turn, kind).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``outbox``: the letter, its state, tries, next try and the sender's lease."""
    op.create_table(
        "outbox",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("player", sa.String(100), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("recipient", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("due", sa.Float, nullable=False),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("lease", sa.Float, nullable=False),
        sa.Column("sent", sa.Float, nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
        sa.UniqueConstraint("game_id", "player", "turn", "kind", name="outbox_once"),
    )
    op.create_index("outbox_due", "outbox", ["state", "due"])


def downgrade() -> None:
    op.drop_index("outbox_due", "outbox")
    op.drop_table("outbox")
