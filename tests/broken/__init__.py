"""Deliberately broken variants: the all-variants suite must catch each of them, with a
message that says what broke (tests/test_conformance_suite.py). Their plugins are
imported as ``broken.<module>`` (``tests/`` is on sys.path in the test run; from the
command line: ``PYTHONPATH=tests shengji conformance --variant tests/broken/...``)."""
