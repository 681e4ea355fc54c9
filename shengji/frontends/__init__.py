"""Frontends on the one protocol (shengji.protocol): ``terminal`` (``shengji play``) and
``web`` (``shengji serve``; needs the ``web`` extra)."""
