"""What the capture's window hook costs vLLM's scheduler thread (a benchmark, not a test: no timing is asserted).

Run from clients/python: ``python3 -m tests.bench_window_hook``. 256 running requests of a model with a full and
a sliding-window group (block 16, window 1024) on the stand-in KV cache managers of :mod:`tests.vllm_kv_cache`;
each step calls every request's ``remove_skipped_blocks`` in both groups at one more computed token, so each
sliding table frees blocks now and then. Interleaved pairs: vLLM's own method, then with the hook installed
(a listener that takes the freed ids, as the capture does); prints the medians and the median ratio.
"""

import statistics
import time

from kvledger_capture import window_hook

from . import vllm_kv_cache
from .vllm_standins import kv_cache_config

REQUESTS, BLOCK, WINDOW, STEPS, TABLE, PAIRS = 256, 16, 1024, 16, 128, 40
CONFIG = kv_cache_config(("FullAttentionSpec", ["a"]), ("SlidingWindowSpec", ["b"], {"sliding_window": WINDOW}),
                         block_size=BLOCK)


def _managers():
    pool = vllm_kv_cache.BlockPool()
    managers = vllm_kv_cache.managers(CONFIG, pool)
    for r in range(REQUESTS):
        for g, manager in enumerate(managers):
            manager.req_to_blocks[str(r)] = [pool.block(1 + (r * 2 + g) * TABLE + i) for i in range(TABLE)]
    return managers


def _step_ms(managers):
    start = time.perf_counter()
    for computed in range(WINDOW + 64, WINDOW + 64 + STEPS):
        for r in range(REQUESTS):
            for manager in managers:
                manager.remove_skipped_blocks(str(r), computed)
    return (time.perf_counter() - start) / STEPS * 1e3


def main():
    heard = []

    def listener(manager, request_id, freed):
        heard.append(freed())

    plain, hooked, ratios = [], [], []
    for _ in range(PAIRS):
        p = _step_ms(_managers())
        window_hook.install(listener)
        try:
            h = _step_ms(_managers())
        finally:
            window_hook.uninstall(listener)
        plain.append(p)
        hooked.append(h)
        ratios.append(h / p)
    print("ms per %d-request step, FULL + SLIDING_WINDOW managers: vLLM's own %.3f, with the hook %.3f "
          "(medians of %d interleaved pairs); median ratio %.2f; %d frees heard"
          % (REQUESTS, statistics.median(plain), statistics.median(hooked), PAIRS, statistics.median(ratios), len(heard)))


if __name__ == "__main__":
    main()
