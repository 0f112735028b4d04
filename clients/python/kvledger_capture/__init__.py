"""Capture what a vLLM scheduler does with its offloading connector, for kvledger to replay and audit.

``kvledger_capture.connector.KvLedgerCaptureConnector`` is the connector vLLM loads by module path;
``kvledger_capture.translate.Translator`` turns its recorded calls into a kvledger scenario and an event
log of vLLM's decisions.
"""

__version__ = "0.1.0"  # the distribution's (pyproject.toml), as kvledger.__version__
