"""vLLM's general plugin of the capture: registers :class:`KvLedgerCaptureConnector` with vLLM's connector factory
under the name ``KvLedgerCapture``, so ``"kv_connector": "KvLedgerCapture"`` works without a module path.

vLLM calls :func:`register` in each of its processes (``vllm.plugins.load_general_plugins``, entry-point group
``vllm.general_plugins``; ``VLLM_PLUGINS`` may narrow which plugins load) once ``pip install`` has put this
package's entry point in place. The connector's module is imported only when vLLM builds a connector.
"""

NAME = "KvLedgerCapture"


def register():
    """Registers the connector by name; a second call (or a name taken already) leaves the registry as it is."""
    from vllm.distributed.kv_transfer.kv_connector.factory import KVConnectorFactory
    if NAME not in getattr(KVConnectorFactory, "_registry", {}):
        KVConnectorFactory.register_connector(NAME, "kvledger_capture.connector", "KvLedgerCaptureConnector")
