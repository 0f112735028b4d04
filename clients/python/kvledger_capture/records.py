"""What the capture copies out of vLLM's objects on the scheduler's thread: small plain dicts.

Only what is new since a request's last record is copied (its new output tokens and block hashes, never
its whole sequence), and job ids and block ids of the metadata, one list per KV cache group. The writer
thread translates the records (:mod:`kvledger_capture.translate`).
"""


def _ints(values):
    if hasattr(values, "tolist"):
        values = values.tolist()
    return [int(b) for b in values]


def ids(spec):
    """Block ids of a transfer spec, one list per KV cache group.

    vLLM's ``GPULoadStoreSpec`` lists the blocks of all groups in one ``block_ids``, group after group, and
    says how many each group has in ``group_sizes``; a spec without ``group_sizes`` is one group's.
    """
    block_ids = _ints(getattr(spec, "block_ids", spec))
    sizes = getattr(spec, "group_sizes", None)
    if sizes is None:
        return [block_ids]
    sizes = _ints(sizes)
    if sum(sizes) != len(block_ids):
        raise ValueError("a transfer spec's group_sizes %s do not add up to its %d block ids" % (sizes, len(block_ids)))
    out, start = [], 0
    for size in sizes:
        out.append(block_ids[start:start + size])
        start += size
    return out


def groups(block_ids):
    """Block ids per KV cache group, from vLLM's ``KVCacheBlocks``, its tuple of per-group lists (a
    ``new_block_ids`` entry is None when a group got nothing) or a flat list (one group's)."""
    if block_ids is None:
        return []
    if hasattr(block_ids, "get_block_ids"):
        block_ids = block_ids.get_block_ids()
    if len(block_ids) and (isinstance(block_ids[0], (list, tuple)) or block_ids[0] is None):
        return [_ints(group or ()) for group in block_ids]
    return [_ints(block_ids)]


def hex_hash(block_hash):
    if isinstance(block_hash, (bytes, bytearray)):
        return block_hash.hex()
    return str(block_hash)


def status(request):
    value = getattr(request, "status", None)
    if value is None:
        return ""
    name = getattr(value, "name", None)  # an enum's name: never str(), which formats the whole request
    return name if name is not None else str(value)


def _control(value):
    """A per-request token count as vLLM takes it (``type(raw) is int and raw >= 0``; anything else it ignores)."""
    return value if type(value) is int and value >= 0 else None


def controls(scheduler, request):
    """The per-request controls vLLM's offloading scheduler applies to ``request`` (contract 9.1), read from its
    own request state where it has one (so a control a vLLM version ignores is not recorded), else from the
    request's ``kv_transfer_params`` as vLLM reads them."""
    out = {}
    state = getattr(scheduler, "_req_status", {}).get(request.request_id) if scheduler is not None else None
    if state is not None:
        offload, load = getattr(state, "max_offload_tokens", None), getattr(state, "max_load_tokens", None)
    else:
        params = getattr(request, "kv_transfer_params", None) or {}
        offload, load = params.get("max_offload_tokens"), params.get("max_load_tokens")
    if _control(offload) is not None:
        out["maxOffloadTokens"] = offload
    if _control(load) is not None:
        out["maxLoadTokens"] = load
    if getattr(request, "skip_reading_prefix_cache", False) is True:
        out["skipReadingPrefixCache"] = True
    return out


def deferral_reason(scheduler, request):
    """Why vLLM's offloading scheduler answered None, from its own state right after it answered: a job of the
    request in flight; else a chunk of the looked-up range still being written (the CPU manager's
    ``HIT_PENDING``, which vLLM checks first); else a chunk another request is loading. None when the scheduler's
    state is not there to read (not vLLM's connector)."""
    states = getattr(scheduler, "_req_status", None)
    state = states.get(request.request_id) if states is not None else None
    if state is None:
        return None
    if state.transfer_jobs:
        return "TRANSFER_IN_FLIGHT"
    manager = scheduler.manager
    computed = int(getattr(state, "num_locally_computed_tokens", 0) or 0)
    for group, group_state in zip(scheduler.config.kv_group_configs, state.group_states):
        sliding = getattr(group, "sliding_window_size_in_chunks", None) is not None
        for key in group_state.offload_keys[computed // group.tokens_per_chunk:]:
            answer = getattr(manager.lookup(key, state.req_context), "name", "")
            if answer in ("HIT_PENDING", "RETRY"):
                return "CHUNK_WRITE_IN_FLIGHT"
            if answer == "MISS" and not sliding:
                break  # a prefix lookup stops at its first miss
    return "CHUNK_BEING_LOADED" if getattr(scheduler, "_chunks_being_loaded", None) else "CHUNK_WRITE_IN_FLIGHT"


SNAPSHOT = "snapshot"  # the first item of a lazy snapshot (a tuple)


COPIED = "copied"  # the first item of a snapshot whose appended tokens and hashes are copied (a tuple)


class Expander:
    """A record's lazy snapshots made into the translator's dicts, in two stages: :meth:`copy` (in vLLM's
    process, off the scheduler's thread) copies what vLLM appended to the request's tokens and block hashes
    since its last record into plain tuples, cheap to pickle; :meth:`expand` (where the translator runs) makes
    the dicts. ``expand`` copies first when a record was not copied yet."""

    def __init__(self):
        self._sent_tokens = {}   # request id -> tokens already recorded (prompt included)
        self._sent_hashes = {}

    def copy(self, record):
        if not isinstance(record, dict):
            return record
        request = record.get("request")
        if type(request) is tuple and request[0] == SNAPSHOT:
            record["request"] = self._copy(request)
        scheduled = record.get("scheduled")
        if scheduled:
            record["scheduled"] = [(self._copy(e[0]),) + e[1:]
                                   if type(e) is tuple and type(e[0]) is tuple and e[0][0] == SNAPSHOT else e
                                   for e in scheduled]
        for rid in record.get("finished_req_ids", ()):  # the request's last record
            self._sent_tokens.pop(rid, None)
            self._sent_hashes.pop(rid, None)
        return record

    def expand(self, record):
        record = self.copy(record)
        if not isinstance(record, dict):
            return record
        request = record.get("request")
        if type(request) is tuple:
            record["request"] = _snapshot_dict(request)
        if "scheduled" in record:
            record["scheduled"] = [{"request": _snapshot_dict(e[0]) if type(e[0]) is tuple else e[0], "new": e[1],
                                    "resumed": e[2], "block_ids": e[3]} if type(e) is tuple else e
                                   for e in record["scheduled"]]
        return record

    def _copy(self, lazy):
        _, request, rid, status_name, computed, total, hashed, first = lazy
        sent = self._sent_tokens.get(rid)
        if first is not None:
            sent = len(first[0])
        elif sent is None:
            sent = total
        tokens = None
        if total > sent:
            all_tokens = getattr(request, "_all_token_ids", None)
            if all_tokens is None:
                all_tokens = request.all_token_ids
            tokens = list(all_tokens[sent:total])
            sent = total
        self._sent_tokens[rid] = sent
        hashes = None
        done = self._sent_hashes.get(rid, 0)
        if hashed > done:
            hashes = list(request.block_hashes[done:hashed])
            self._sent_hashes[rid] = hashed
        return (COPIED, rid, status_name, computed, first, tokens, hashes)


def _snapshot_dict(copied):
    _, rid, status_name, computed, first, tokens, hashes = copied
    snap = {"request_id": rid, "status": status_name, "num_computed_tokens": computed}
    if first is not None:
        snap["prompt_token_ids"] = first[0]
        if first[1]:
            snap["controls"] = first[1]
    if tokens:
        snap["new_tokens"] = [int(t) for t in tokens]
    if hashes:
        snap["new_hashes"] = [hex_hash(h) for h in hashes]
    return snap


class Recorder:
    """Makes the records of the scheduler-side calls; remembers what it has copied of each request until the
    request's last record (the step after its finish), so its memory is that of the requests in the engine."""

    def __init__(self, scheduler=None):
        self._scheduler = scheduler  # vLLM's OffloadingConnectorScheduler (None: an inner connector without one)
        self._seen = set()       # request ids whose prompt was copied
        self._live = {}          # request id -> vLLM's Request, for the tokens it appends

    def added(self, request):
        self._live[request.request_id] = request

    def matched(self, request, num_computed_tokens, result):
        self._live[request.request_id] = request
        record = {"call": "get_num_new_matched_tokens", "request": self.snapshot(request),
                  "num_computed_tokens": int(num_computed_tokens),
                  "result": [None if result[0] is None else int(result[0]), bool(result[1])]}
        if result[0] is None:
            reason = deferral_reason(self._scheduler, request)
            if reason is not None:
                record["deferral"] = reason
        return record

    def reset(self):
        """``reset_cache``: vLLM's ``reset_prefix_cache(reset_running_requests=True)`` preempted the running
        requests just before it (outside ``schedule()``); they are named here, in vLLM's order."""
        preempted = [rid for rid, request in self._live.items() if status(request) == "PREEMPTED"]
        return {"call": "reset_cache", "preempted": preempted}

    def allocated(self, request, blocks, num_external_tokens):
        self._live[request.request_id] = request
        return {"call": "update_state_after_alloc", "request": self.snapshot(request),
                "block_ids": groups(blocks) if num_external_tokens else [],
                "num_external_tokens": int(num_external_tokens)}

    def output(self, connector_output):
        worker_meta = getattr(connector_output, "kv_connector_worker_meta", None)
        completed = dict(getattr(worker_meta, "completed_jobs", None) or {})
        return {"call": "update_connector_output",
                "completed_jobs": {int(k): int(v) for k, v in completed.items()},
                "invalid_block_ids": sorted(int(b) for b in (getattr(connector_output, "invalid_block_ids", None) or ())),
                "finished_sending": sorted(getattr(connector_output, "finished_sending", None) or ()),
                "finished_recving": sorted(getattr(connector_output, "finished_recving", None) or ())}

    def finished(self, request, result):
        return {"call": "request_finished", "request": self.snapshot(request),
                "result": [bool(result[0]) if result else False, None]}

    @staticmethod
    def window_freed(request_id, group, block_ids):
        return {"call": "remove_skipped_blocks", "request_id": request_id, "group": int(group),
                "block_ids": [int(b) for b in block_ids]}

    @staticmethod
    def evicted(events):
        removed = [hex_hash(h) for e in events if type(e).__name__ == "BlockRemoved"
                   and str(getattr(e, "medium", "")).upper() == "CPU" for h in getattr(e, "block_hashes", ())]
        return {"call": "take_events", "removed": removed} if removed else None

    def snapshot(self, request):
        """The request as the translator needs it, copied lazily: on the scheduler's thread only its counts (and,
        at first sight, its prompt and controls); the writer thread copies the tokens and block hashes vLLM
        appended since the last record (:class:`Expander`), from lists vLLM only appends to."""
        rid = request.request_id
        first = None
        if rid not in self._seen:
            self._seen.add(rid)
            first = ([int(t) for t in request.prompt_token_ids], controls(self._scheduler, request))
        hashes = getattr(request, "block_hashes", None)
        return (SNAPSHOT, request, rid, status(request), int(getattr(request, "num_computed_tokens", 0) or 0),
                int(request.num_tokens), len(hashes) if hashes is not None else 0, first)

    def meta(self, output, meta, evicted=()):
        scheduled = []
        for new in getattr(output, "scheduled_new_reqs", None) or ():
            request = self._live.get(new.req_id)
            snap = self.snapshot(request) if request is not None else {
                "request_id": new.req_id, "prompt_token_ids": list(new.prompt_token_ids or [])}
            scheduled.append((snap, True, False, groups(new.block_ids)))
        cached = getattr(output, "scheduled_cached_reqs", None)
        if cached is not None:
            resumed_ids = set(getattr(cached, "resumed_req_ids", None) or ())
            resumed_flags = list(getattr(cached, "resumed_from_preemption", None) or ())
            new_blocks = list(getattr(cached, "new_block_ids", None) or ())
            for i, rid in enumerate(cached.req_ids):
                request = self._live.get(rid)
                snap = self.snapshot(request) if request is not None else {"request_id": rid}
                resumed = rid in resumed_ids or (i < len(resumed_flags) and bool(resumed_flags[i]))
                blocks = groups(new_blocks[i]) if i < len(new_blocks) else []
                scheduled.append((snap, False, resumed, blocks))
        record = {"call": "build_connector_meta", "scheduled": scheduled,
                  "num_scheduled_tokens": {k: int(v) for k, v in (output.num_scheduled_tokens or {}).items()},
                  "preempted_req_ids": sorted(getattr(output, "preempted_req_ids", None) or ()),
                  "finished_req_ids": sorted(getattr(output, "finished_req_ids", None) or ()),
                  "load_jobs": [{"job_id": int(j), "req_id": t.req_id, "block_ids": ids(t.dst_spec)}
                                for j, t in sorted((getattr(meta, "load_jobs", None) or {}).items())],
                  "store_jobs": [{"job_id": int(j), "req_id": t.req_id, "block_ids": ids(t.src_spec)}
                                 for j, t in sorted((getattr(meta, "store_jobs", None) or {}).items())],
                  "jobs_to_flush": sorted(int(j) for j in (getattr(meta, "jobs_to_flush", None) or ()))}
        for kind, rid, keys in evicted:
            record.setdefault(kind, []).append([rid, list(keys)])
        for rid in record["finished_req_ids"]:  # their last record: the step after the finish
            self._live.pop(rid, None)
            self._seen.discard(rid)
        return record
