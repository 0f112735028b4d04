"""Opt-in, with vLLM: the documented ``--kv-transfer-config`` (read from docs/vllm-capture.md) through vLLM's own
plugin loader and connector factory builds the capture around vLLM's real ``OffloadingConnector`` in the scheduler
role, and its log's ``EngineConfigured`` is what vLLM's offloading scheduler runs with.

Run it where vLLM and this package (``pip install ./clients/python``, so vLLM finds the plugin's entry point) are
installed; vLLM needs the Hugging Face config of ``facebook/opt-125m`` (offline is fine)::

    python3 -m tests.vllm_live_check        # from clients/python; exit 0 when every check holds

It is not part of the default suite, which runs without vLLM.
"""

import json
import re
import sys
import tempfile
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "vllm-capture.md"


def documented_transfer_config():
    """The JSON of the first ``--kv-transfer-config '...'`` of the doc."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"--kv-transfer-config '(\{.*?\})'", text, re.S)
    if found is None:
        raise AssertionError("no --kv-transfer-config in %s" % DOC)
    return json.loads(found.group(1))


def main():
    import torch
    from vllm.config import CacheConfig, DeviceConfig, KVTransferConfig, ModelConfig, SchedulerConfig, VllmConfig
    from vllm.distributed.kv_transfer.kv_connector.factory import KVConnectorFactory
    from vllm.distributed.kv_transfer.kv_connector.v1 import KVConnectorRole
    from vllm.plugins import load_general_plugins
    from vllm.v1.kv_cache_interface import FullAttentionSpec, KVCacheConfig, KVCacheGroupSpec, KVCacheTensor

    load_general_plugins()
    documented = documented_transfer_config()
    checks = []
    with tempfile.TemporaryDirectory() as folder:
        documented["kv_connector_extra_config"]["kvledger_capture_dir"] = folder
        transfer = KVTransferConfig(**documented)
        connector_class = KVConnectorFactory.get_connector_class(transfer)
        checks.append(("the plugin registered %s" % documented["kv_connector"],
                       connector_class.__name__ == "KvLedgerCaptureConnector"))
        blocks = 1024
        spec = FullAttentionSpec(block_size=16, num_kv_heads=1, head_size=64, dtype=torch.float16)
        kv_cache_config = KVCacheConfig(num_blocks=blocks, kv_cache_groups=[KVCacheGroupSpec(["layer0"], spec)],
                                        kv_cache_tensors=[KVCacheTensor(size=spec.page_size_bytes * blocks,
                                                                        shared_by=["layer0"])])
        config = VllmConfig(model_config=ModelConfig(model="facebook/opt-125m", dtype="float16", seed=42),
                            scheduler_config=SchedulerConfig(max_num_seqs=16, max_num_batched_tokens=2048,
                                                             max_model_len=2048, is_encoder_decoder=False),
                            cache_config=CacheConfig(block_size=16, enable_prefix_caching=True),
                            device_config=DeviceConfig("cpu"), kv_transfer_config=transfer)
        connector = KVConnectorFactory.create_connector(config, KVConnectorRole.SCHEDULER, kv_cache_config)
        inner = connector._inner.connector_scheduler
        connector.shutdown()
        first = json.loads((Path(folder) / "vllm-events.jsonl").read_text().splitlines()[0])
        from importlib.metadata import version
        vllm_version = version("vllm")
        checks += [
            ("the factory built the capture", type(connector).__name__ == "KvLedgerCaptureConnector"),
            ("it wraps vLLM's OffloadingConnector", type(connector._inner).__name__ == "OffloadingConnector"),
            ("cpuCapacityChunks is the CPU manager's %d blocks" % inner.manager._num_blocks,
             first["cpuCapacityChunks"] == inner.manager._num_blocks),
            ("offloadPromptOnly is vLLM's %s" % inner.config.offload_prompt_only,
             first["offloadPromptOnly"] == inner.config.offload_prompt_only),
            ("blocksPerChunk is vLLM's %d" % inner.config.blocks_per_chunk,
             first["blocksPerChunk"] == inner.config.blocks_per_chunk),
            ("producer names vLLM %s" % vllm_version, first.get("producer") ==
             "kvledger_capture %s / vLLM %s" % (__import__("kvledger_capture").__version__, vllm_version)),
        ]
    checks += kv_offloading_size_checks(documented)
    for what, ok in checks:
        print("%s  %s" % ("ok  " if ok else "FAIL", what))
    return 0 if all(ok for _, ok in checks) else 1


def kv_offloading_size_checks(documented):
    """vLLM's --kv-offloading-size with the documented config: vLLM's config would name its own OffloadingConnector
    in place of the capture (silently no capture); the plugin keeps the capture, which records the size vLLM
    gave the CPU tier."""
    from vllm.config import CacheConfig, DeviceConfig, KVTransferConfig, ModelConfig, SchedulerConfig, VllmConfig
    with tempfile.TemporaryDirectory() as folder:
        documented = json.loads(json.dumps(documented))
        documented["kv_connector_extra_config"]["kvledger_capture_dir"] = folder
        documented["kv_connector_extra_config"].pop("cpu_bytes_to_use", None)
        config = VllmConfig(model_config=ModelConfig(model="facebook/opt-125m", dtype="float16", seed=42),
                            scheduler_config=SchedulerConfig(max_num_seqs=16, max_num_batched_tokens=2048,
                                                             max_model_len=2048, is_encoder_decoder=False),
                            cache_config=CacheConfig(block_size=16, enable_prefix_caching=True, kv_offloading_size=0.5),
                            device_config=DeviceConfig("cpu"), kv_transfer_config=KVTransferConfig(**documented))
        transfer = config.kv_transfer_config
        return [("--kv-offloading-size 0.5 keeps the capture named (%s)" % transfer.kv_connector,
                 transfer.kv_connector == documented["kv_connector"]),
                ("and sets vLLM's cpu_bytes_to_use to 0.5 GiB",
                 transfer.kv_connector_extra_config.get("cpu_bytes_to_use") == 0.5 * (1 << 30))]


if __name__ == "__main__":
    sys.exit(main())
