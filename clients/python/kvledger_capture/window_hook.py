"""The KV cache manager's frees of sliding-window blocks, which vLLM never tells its connector.

vLLM's ``SingleTypeKVCacheManager.remove_skipped_blocks(request_id, total_computed_tokens)`` (called by
``allocate_slots`` for every request it schedules, before it allocates) replaces the blocks outside the
attention window by the null block and gives them back to the block pool, which may hand them out again in
the same step. The contract records that as ``FreeWindowBlocks`` (section 7.9); without it every recycled
window block audits as ``BLOCK_STILL_HELD``. So in the scheduler role the capture wraps that method on the
manager classes of ``vllm.v1.core.single_type_kv_cache_manager`` (the base and every subclass that defines
its own) while a capture is open: the wrapper calls vLLM's method unchanged and reports which entries it
turned into the null block, per group (``kv_cache_group_id``), to the open captures.

Cost on the scheduler's thread: only the entries below the window (``get_num_skipped_tokens``) back to the
first null one are looked at, the ones the method itself walks; a full-attention manager skips nothing.
"""

import functools
import importlib
import threading

MODULE = "vllm.v1.core.single_type_kv_cache_manager"

_listeners = []      # open scheduler-role captures: callables (manager, request_id, freed), where freed() gives
#                      (group, block ids) or raises what went wrong (the capture stops, never the scheduler)
_originals = {}      # class -> its own remove_skipped_blocks before the capture wrapped it
_inside = threading.local()
_lock = threading.Lock()


def install(listener):
    """Starts reporting frees to ``listener``; False when vLLM's KV cache manager is not importable."""
    try:
        module = importlib.import_module(MODULE)
    except ImportError:
        return False
    base = getattr(module, "SingleTypeKVCacheManager", None)
    if base is None:
        return False
    with _lock:
        for cls in [base] + _subclasses(base):
            own = vars(cls).get("remove_skipped_blocks")
            if own is not None and cls not in _originals:
                _originals[cls] = own
                setattr(cls, "remove_skipped_blocks", _wrap(own))
        _listeners.append(listener)
    return True


def uninstall(listener):
    """Stops reporting to ``listener``; the last one out gives vLLM its methods back."""
    with _lock:
        if listener in _listeners:
            _listeners.remove(listener)
        if not _listeners:
            for cls, own in _originals.items():
                setattr(cls, "remove_skipped_blocks", own)
            _originals.clear()


def _subclasses(cls):
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_subclasses(sub))
    return out


def _is_null(block):
    return bool(getattr(block, "is_null", False)) or getattr(block, "block_id", None) == 0


def _tokens(args, kwargs):
    if args:
        return args[0]
    for name in ("total_computed_tokens", "num_computed_tokens", "processed_computed_tokens"):
        if name in kwargs:
            return kwargs[name]
    return None


def _candidates(manager, request_id, tokens):
    """The entries the call may free, with their positions: below the window, back to the first null one."""
    blocks = getattr(manager, "req_to_blocks", {}).get(request_id)
    if not blocks:
        return ()
    end = len(blocks)
    skipped = getattr(manager, "get_num_skipped_tokens", None)
    if skipped is not None and tokens is not None:
        end = min(end, skipped(tokens) // manager.block_size)
    out = []
    for i in range(end - 1, -1, -1):
        if _is_null(blocks[i]):
            break
        out.append((i, blocks[i]))
    out.reverse()
    return out


def _wrap(original):
    @functools.wraps(original)
    def remove_skipped_blocks(self, request_id, *args, **kwargs):
        if getattr(_inside, "active", False) or not _listeners:  # a subclass's call of its base's method
            return original(self, request_id, *args, **kwargs)
        try:
            before = _candidates(self, request_id, _tokens(args, kwargs))
        except Exception as e:  # reported to the captures, never raised to vLLM
            before = e
        _inside.active = True
        try:
            return original(self, request_id, *args, **kwargs)
        finally:
            _inside.active = False
            if before:
                _report(self, request_id, before)
    remove_skipped_blocks.__kvledger_original__ = original
    return remove_skipped_blocks


def _report(manager, request_id, before):
    def freed():
        if isinstance(before, Exception):
            raise before
        after = manager.req_to_blocks.get(request_id) or ()
        ids = [int(block.block_id) for i, block in before if i < len(after) and _is_null(after[i])]
        return int(manager.kv_cache_group_id), ids
    for listener in list(_listeners):
        listener(manager, request_id, freed)
