"""Alembic's entry: migrate the connection the server hands over (Store.migrate)."""

from alembic import context

from rummylab.server.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # run by hand: alembic -x url=... upgrade head
    from sqlalchemy import create_engine

    url = context.get_x_argument(as_dictionary=True)["url"]
    with create_engine(url).begin() as connection:
        context.configure(connection=connection, target_metadata=metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
