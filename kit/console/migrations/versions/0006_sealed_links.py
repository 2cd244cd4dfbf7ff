"""Every seat's link sealed under the GM token (a table's too), not only a player's.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``sealed_links``: (game, seat kind, seat) -> sealed link (``kit.console.sealed_links``); the
    players' sealed links move there from ``mail_players``."""
    op.create_table(
        "sealed_links",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("kind", sa.String(20), primary_key=True),
        sa.Column("seat", sa.String(100), primary_key=True),
        sa.Column("sealed", sa.String(200), nullable=False),
    )
    op.execute("INSERT INTO sealed_links (game_id, kind, seat, sealed) "
               "SELECT game_id, 'player', player, sealed FROM mail_players "
               "WHERE sealed IS NOT NULL")
    op.execute("UPDATE mail_players SET sealed = NULL")


def downgrade() -> None:
    op.execute("UPDATE mail_players SET sealed = (SELECT s.sealed FROM sealed_links s "
               "WHERE s.game_id = mail_players.game_id AND s.kind = 'player' "
               "AND s.seat = mail_players.player)")
    op.drop_table("sealed_links")
