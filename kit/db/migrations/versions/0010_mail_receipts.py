"""Receipts of a player's orders: the game master's choice per game.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``mail_games.receipts``: whether a player's own post of orders queues them a letter
    saying what was received (``kit.console.mail.receipts``); off for every game so far."""
    with op.batch_alter_table("mail_games") as table:
        table.add_column(sa.Column("receipts", sa.Boolean, nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("mail_games") as table:
        table.drop_column("receipts")
