"""The Python client's and the capture connector's tests (``python3 -m unittest discover -s tests -t .``).

vLLM's connector API is the stand-in of :mod:`tests.vllm_api` (vLLM itself is not installed): installed
before any test imports ``kvledger_capture``.
"""

from .vllm_api import install

install()
