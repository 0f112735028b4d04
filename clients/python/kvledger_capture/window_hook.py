"""The KV cache manager's frees of sliding-window blocks, which vLLM never tells its connector.

vLLM's ``SingleTypeKVCacheManager.remove_skipped_blocks(request_id, total_computed_tokens)`` (called by
``allocate_slots`` for every request it schedules, before it allocates) replaces the blocks outside the
attention window by the null block and gives them back to the block pool, which may hand them out again in
the same step. The contract records that as ``FreeWindowBlocks`` (section 7.9); without it every recycled
window block audits as ``BLOCK_STILL_HELD``. So in the scheduler role the capture wraps that method on the
manager classes of ``vllm.v1.core.single_type_kv_cache_manager`` that skip tokens (those whose
``get_num_skipped_tokens`` is not the base's, e.g. ``SlidingWindowManager``; full attention is left alone)
while a capture is open: the wrapper calls vLLM's method unchanged and reports which entries it turned into
the null block, per group (``kv_cache_group_id``), to the open captures.

Cost on the scheduler's thread: a full-attention manager's call (it skips nothing) is passed through after
one look at its class; a sliding-window one's after one look at the last entry below the window
(``get_num_skipped_tokens``), unless that entry is to be freed: then the entries the method itself walks
are copied before and compared after.
"""

import functools
import importlib
import threading

MODULE = "vllm.v1.core.single_type_kv_cache_manager"

_listeners = []      # open scheduler-role captures: callables (manager, request_id, freed), where freed() gives
#                      (group, block ids) or raises what went wrong (the capture stops, never the scheduler)
_originals = {}      # class -> its own remove_skipped_blocks before the capture wrapped it
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
    noop = vars(base).get("get_num_skipped_tokens")
    with _lock:
        for cls in [base] + _subclasses(base):  # parents before their subclasses
            if cls in _originals:
                continue
            skipping = getattr(cls, "get_num_skipped_tokens", None)
            if skipping is not None and skipping is noop:
                continue  # a manager that skips no token (full attention) frees nothing: its calls stay vLLM's own
            resolved = getattr(cls, "remove_skipped_blocks", None)
            if resolved is None or (hasattr(resolved, "__kvledger_original__") and "remove_skipped_blocks" not in vars(cls)):
                continue  # inherits a wrapped method already
            _originals[cls] = vars(cls).get("remove_skipped_blocks")  # None: the class inherited it
            setattr(cls, "remove_skipped_blocks", _wrap(resolved, noop))
        _listeners.append(listener)
    return True


def uninstall(listener):
    """Stops reporting to ``listener``; the last one out gives vLLM its methods back."""
    with _lock:
        if listener in _listeners:
            _listeners.remove(listener)
        if not _listeners:
            for cls, own in _originals.items():
                if own is None:
                    delattr(cls, "remove_skipped_blocks")
                else:
                    setattr(cls, "remove_skipped_blocks", own)
            _originals.clear()


def _subclasses(cls):
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_subclasses(sub))
    return out


def _is_null(block):
    return block.is_null if hasattr(block, "is_null") else block.block_id == 0


def _tokens(args, kwargs):
    if args:
        return args[0]
    for name in ("total_computed_tokens", "num_computed_tokens", "processed_computed_tokens"):
        if name in kwargs:
            return kwargs[name]
    return None


def _candidates(manager, request_id, blocks, end):
    """The entries the call may free, with their positions: ``end - 1`` back to the first null one."""
    out = []
    for i in range(end - 1, -1, -1):
        if _is_null(blocks[i]):
            break
        out.append((i, blocks[i]))
    out.reverse()
    return out


class _Inside(threading.local):
    active = False   # inside a wrapped call (a subclass's method calling its base's)


_INSIDE = _Inside()


def _wrap(original, skips_nothing):
    """vLLM's method, unchanged, and a report of what it freed. Most calls free nothing: a full-attention
    manager skips no token (its ``get_num_skipped_tokens`` is the base's), and a sliding-window one only
    frees when the last entry below the window is not yet null; both are found with a look or two."""
    inside = _INSIDE

    @functools.wraps(original)
    def remove_skipped_blocks(self, request_id, *args, **kwargs):
        if not _listeners or inside.active:
            return original(self, request_id, *args, **kwargs)
        try:
            skipped = getattr(type(self), "get_num_skipped_tokens", None)
            if skipped is skips_nothing and skipped is not None:
                return original(self, request_id, *args, **kwargs)
            blocks = self.req_to_blocks.get(request_id)
            if not blocks:
                return original(self, request_id, *args, **kwargs)
            end = len(blocks)
            if skipped is not None:
                tokens = args[0] if args else _tokens(args, kwargs)
                end = min(end, skipped(self, tokens) // self.block_size)
            if end <= 0:
                return original(self, request_id, *args, **kwargs)
            last = blocks[end - 1]
            if last is getattr(self, "_null_block", None) or _is_null(last):
                return original(self, request_id, *args, **kwargs)
            before = _candidates(self, request_id, blocks, end)
        except Exception as e:  # reported to the captures, never raised to vLLM
            before = e
        inside.active = True
        try:
            return original(self, request_id, *args, **kwargs)
        finally:
            inside.active = False
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
