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
    _keep_the_capture_under_kv_offloading_size()


def _keep_the_capture_under_kv_offloading_size():
    """``--kv-offloading-size`` makes vLLM's config name its own ``OffloadingConnector`` (with ``cpu_bytes_to_use``
    from the size) in place of whatever ``--kv-transfer-config`` named (``VllmConfig._post_init_kv_transfer_config``):
    the capture would silently not run. Where it named the capture, the capture is named again; it wraps that same
    ``OffloadingConnector`` with vLLM's ``cpu_bytes_to_use``, and records the tier's size from its manager."""
    try:
        from vllm.config import VllmConfig
    except ImportError:  # a vLLM without it: nothing to keep
        return
    original = getattr(VllmConfig, "_post_init_kv_transfer_config", None)
    if original is None or getattr(original, "kvledger_capture", False):
        return

    def post_init_kv_transfer_config(self):
        transfer = self.kv_transfer_config
        named = getattr(transfer, "kv_connector", None)
        original(self)
        if named in (NAME, "KvLedgerCaptureConnector") and self.kv_transfer_config.kv_connector == "OffloadingConnector":
            self.kv_transfer_config.kv_connector = named

    post_init_kv_transfer_config.kvledger_capture = True
    VllmConfig._post_init_kv_transfer_config = post_init_kv_transfer_config
