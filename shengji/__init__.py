"""shengji: the rules of the 升级 family of card games, as data, on a C core."""

__version__ = "0.1.0"
