"""PDFs attached to the turn letters: the game master's choice per game, and each queued
letter's attachments.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``mail_games``: game -> whether its turn letters carry PDFs (``kit.console.mail.book``);
    ``outbox.attach``: the report files a letter carries, one name a line (or NULL)."""
    op.create_table(
        "mail_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("attach_pdf", sa.Boolean, nullable=False),
    )
    with op.batch_alter_table("outbox") as table:
        table.add_column(sa.Column("attach", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as table:
        table.drop_column("attach")
    op.drop_table("mail_games")
