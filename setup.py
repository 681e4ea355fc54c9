from setuptools import setup

setup(
    cffi_modules=["core_c/build_core.py:ffibuilder"],
    # cffi compiles against the stable ABI (the module is _core.abi3.so), so one wheel per
    # platform serves every CPython from 3.10 on: tag it cp310-abi3, not cp3XY-cp3XY
    options={"bdist_wheel": {"py_limited_api": "cp310"}},
)
