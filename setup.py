from setuptools import setup; setup(cffi_modules=["core_c/build_core.py:ffibuilder"])
