"""The club (issue 53, items 3-5): ratings and leaderboards, friends, tournaments.

``rating`` and ``pairing`` are the maths, free of the database; the rest stores and serves
them through the accounts of ``nightsky.server.accounts``.
"""
