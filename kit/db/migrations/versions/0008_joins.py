"""Joining a game by its room code: each game's join desk and the phones' requests.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``join_desks``: game -> its room code's hash and the code sealed under the GM token,
    open, admit everyone; ``join_requests``: a request's secret's hash -> game, seat, status,
    the phone's public key and the link sealed to it (``kit.console.joins``)."""
    op.create_table(
        "join_desks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("code_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("code_sealed", sa.String(200), nullable=False),
        sa.Column("open", sa.Boolean, nullable=False),
        sa.Column("admit_all", sa.Boolean, nullable=False),
    )
    op.create_table(
        "join_requests",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("seat", sa.String(100), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("public_key", sa.String(64), nullable=False),
        sa.Column("sealed", sa.String(300), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("join_requests")
    op.drop_table("join_desks")
