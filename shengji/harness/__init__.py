"""Harnesses that seat bots at games: many deals played and counted (``simulation``, the
``simulate`` command) and bots against bots on duplicate boards (``arena``). They stand
above both the engine and the bots (docs/architecture.md), so neither imports them.

They lived in ``shengji.engine`` before: ``shengji.engine.arena`` and
``shengji.engine.simulation`` remain as small modules that look names up here.
"""
