"""Players' e-mail: an address (or none) and the player's link sealed under the GM token.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``mail_players``: (game, player) -> address, sealed link (``kit.console.mail.book``)."""
    op.create_table(
        "mail_players",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("player", sa.String(100), primary_key=True),
        sa.Column("address", sa.String(254), nullable=True),
        sa.Column("sealed", sa.String(200), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("mail_players")
