"""Conformance of the capture against vLLM's real scheduler (opt-in: needs a vLLM source snapshot).

``setup_env.sh`` builds the environment, :mod:`conformance.harness` drives vLLM's ``Scheduler`` /
``AsyncScheduler`` with its ``KVCacheManager`` and ``OffloadingConnector`` wrapped by the capture, and
:mod:`conformance.base_check` compares the tests' stand-in connector base with vLLM's. Nothing here is
imported by the default suite.
"""
