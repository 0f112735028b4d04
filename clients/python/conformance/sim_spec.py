"""vLLM's CPU offloading spec with a worker that simulates the copies (vLLM's refuses a machine without a GPU).

The scheduler role is vLLM's own ``CPUOffloadingSpec``: its ``CPUOffloadingManager`` (LRU), its capacity from
``cpu_bytes_to_use``. The worker role gets :class:`SimulatedCopyWorker`, which copies nothing and completes
each submitted job when the harness says so (a seeded share of them every step); a flush (``wait``) completes
its jobs at once, as vLLM's worker blocks until they are done.
"""

from vllm.v1.kv_offload.base import OffloadingWorker, TransferResult
from vllm.v1.kv_offload.cpu.spec import CPUOffloadingSpec


class SimulatedCopyWorker(OffloadingWorker):
    def __init__(self):
        self.pending = []        # job ids submitted and not yet completed, in submission order
        self.done = []           # completed, not yet reported
        self.submitted_loads = set()

    def submit_store(self, job_id, src_spec, dst_spec):
        self.pending.append(job_id)
        return True

    def submit_load(self, job_id, src_spec, dst_spec):
        self.pending.append(job_id)
        self.submitted_loads.add(job_id)
        return True

    def complete(self, rng, share):
        """Completes each pending job with probability ``share`` (the harness's clock tick)."""
        still = []
        for job_id in self.pending:
            (self.done if rng.random() < share else still).append(job_id)
        self.pending = still

    def get_finished(self):
        finished = [TransferResult(job_id=j, success=True) for j in self.done]
        self.done = []
        return finished

    def wait(self, job_ids):
        for job_id in [j for j in self.pending if j in job_ids]:
            self.pending.remove(job_id)
            self.done.append(job_id)

    def shutdown(self):
        self.pending, self.done = [], []


class SimulatedCPUOffloadingSpec(CPUOffloadingSpec):
    """``CPUOffloadingSpec`` whose worker simulates the copies."""

    def get_worker(self, kv_caches):
        if self._worker is None:
            self._worker = SimulatedCopyWorker()
        return self._worker
