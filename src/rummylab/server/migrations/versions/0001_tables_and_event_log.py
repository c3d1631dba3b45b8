"""Tables and their append-only event log.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("seed_hash", sa.String(64), nullable=False),
        sa.Column("tokens", sa.Text, nullable=False),
        sa.Column("spectator", sa.String(64), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("opening_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("record", sa.Text, nullable=True),
    )
    op.create_index("tables_unfinished", "tables", ["finished"])
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("msg_id", sa.String(100), nullable=True),
        sa.Column("state_hash", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_index("tables_unfinished", "tables")
    op.drop_table("tables")
