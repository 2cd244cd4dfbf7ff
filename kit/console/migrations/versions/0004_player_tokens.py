"""Players' own links: one token hash per player of a game (never the token itself).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``player_tokens``: (game, player) -> the SHA-256 of that player's token."""
    op.create_table(
        "player_tokens",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("player", sa.String(100), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_tokens")
