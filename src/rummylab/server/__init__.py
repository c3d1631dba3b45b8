"""The table server (``rummylab serve``, extra ``web``): play any of the games
with friends over HTTP and WebSockets; see docs/server.md.

An adapter on the engine: ``app`` routes, ``hub`` the set of tables,
``tables`` one table's actor, ``journal`` the group commit, ``store`` the
database and event log, ``views`` what each seat and spectator is shown.
The engine never imports this package.
"""
