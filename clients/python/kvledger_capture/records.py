"""What the capture copies out of vLLM's objects on the scheduler's thread: small plain records.

Only what is new since a request's last record is copied (its new output tokens and block hashes, never
its whole sequence), and job ids and block ids of the metadata, one list per KV cache group. Everything is
copied at the call, so a record never refers to an object vLLM changes later. The step's running requests
are copied as columns (one list per field, made by C-level passes over the scheduler output, no Python code
per request); the writer process makes the translator's dicts of them (:class:`Expander`) and translates
(:mod:`kvledger_capture.translate`).
"""

import enum
from itertools import chain, compress, repeat
from operator import attrgetter, getitem, is_not, sub


def _ints(values):
    if hasattr(values, "tolist"):
        if getattr(getattr(values, "dtype", None), "kind", None) in ("i", "u"):  # a transfer spec's numpy ids:
            return values.tolist()                                               # Python ints already
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
    return _status_name(getattr(request, "status", None))


def _status_name(value):
    if value is None:
        return ""
    name = getattr(value, "name", None)  # an enum's name: never str(), which formats the whole request
    return name if name is not None else str(value)


class _StatusNames(dict):
    """vLLM's ``RequestStatus`` members -> their names, learnt at first sight (a dict lookup per request); a
    status that is no enum member is named each time (its name could change)."""

    def __missing__(self, value):
        name = _status_name(value)
        if isinstance(value, enum.Enum):
            self[value] = name
        return name


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


COPIED = "copied"  # the first item of a request's snapshot (a tuple; its dict is made by :class:`Expander`)


class Expander:
    """Makes a record's snapshots (tuples, cheap to pickle) and the step's running requests (columns) into the
    translator's dicts, where the translator runs (the writer process)."""

    def expand(self, record):
        if not isinstance(record, dict):
            return record
        request = record.get("request")
        if type(request) is tuple:
            record["request"] = _snapshot_dict(request)
        if "scheduled" in record:
            record["scheduled"] = [{"request": _snapshot_dict(e[0]) if type(e[0]) is tuple else e[0], "new": e[1],
                                    "resumed": e[2], "block_ids": e[3]} if type(e) is tuple else e
                                   for e in record["scheduled"]]
        counts = record.get("num_scheduled_tokens")
        if type(counts) is tuple:
            counts = dict(zip(_unpacked(counts[0]), counts[1]))
        if counts is not None:
            record["num_scheduled_tokens"] = {k: int(v) for k, v in counts.items()}
        running = record.pop("running", None)
        if running is not None:
            record.setdefault("scheduled", []).extend(_running_dicts(*running))
        return record


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


def _running_dicts(req_ids, statuses, computed, tokens, hashes, resumed, blocks):
    """The scheduled entries of the step's running requests, as :meth:`Recorder.meta` would make them one by one,
    from its columns: ``statuses`` one name for all or one each; ``tokens`` (flat, counts) with counts None
    for one each; ``hashes``, ``blocks``: (positions, their lists); ``resumed``: positions."""
    req_ids = _unpacked(req_ids)
    count = len(req_ids)
    if isinstance(statuses, str):
        statuses = [statuses] * count
    flat, counts = tokens
    if counts is None:
        token_lists = [[t] for t in flat]
    else:
        token_lists, start = [], 0
        for n in counts:
            token_lists.append(flat[start:start + n])
            start += n
    hash_lists = [None] * count
    for i, new in zip(*hashes):
        hash_lists[i] = new
    block_ids = [None] * count
    for i, entry in zip(*blocks):
        block_ids[i] = entry
    resumed = set(resumed)
    out = []
    for i, rid in enumerate(req_ids):
        snap = {"request_id": rid, "status": statuses[i], "num_computed_tokens": int(computed[i] or 0)}
        if token_lists[i]:
            snap["new_tokens"] = [int(t) for t in token_lists[i]]
        if hash_lists[i]:
            snap["new_hashes"] = [hex_hash(h) for h in hash_lists[i]]
        out.append({"request": snap, "new": False, "resumed": i in resumed, "block_ids": groups(block_ids[i])})
    return out


_SEPARATOR = "\x00"


def _packed(names):
    """Request ids as one string, one object to pickle rather than one each; the list itself when one of them
    holds the separator (or is no string)."""
    try:
        joined = _SEPARATOR.join(names)
    except TypeError:
        return list(names)
    if not names or joined.count(_SEPARATOR) != len(names) - 1:
        return list(names)
    return joined


def _unpacked(packed):
    return packed.split(_SEPARATOR) if isinstance(packed, str) else list(packed)


def _packed_counts(counts):
    """``num_scheduled_tokens`` as (its request ids :func:`_packed`, its counts), in its order."""
    return _packed(list(counts)), list(counts.values())


def _copied_entry(entry):
    """A ``new_block_ids`` entry (a tuple of per-group lists, a group None when it got nothing) as new lists."""
    if type(entry) is tuple:
        return tuple([None if group is None else list(group) for group in entry])
    return groups(entry)


_ALL_TOKEN_IDS = attrgetter("_all_token_ids")   # vLLM's Request: the list behind ``all_token_ids``
_TOKEN_IDS = attrgetter("all_token_ids")
_BLOCK_HASHES = attrgetter("block_hashes")
_STATUS = attrgetter("status")
_COMPUTED = attrgetter("num_computed_tokens")
_ENTRY_TYPES = frozenset((tuple, list, type(None)))   # a new_block_ids entry that pickles as plain data


class Recorder:
    """Makes the records of the scheduler-side calls; remembers what it has copied of each request until the
    request's last record (the step after its finish), so its memory is that of the requests in the engine."""

    def __init__(self, scheduler=None):
        self._scheduler = scheduler  # vLLM's OffloadingConnectorScheduler (None: an inner connector without one)
        self._live = {}          # request id -> vLLM's Request, for the tokens it appends
        self._sent_tokens = {}   # request id -> its tokens copied so far, prompt included (its prompt was copied)
        self._sent_hashes = {}   # request id -> its block hashes copied so far
        self._status_names = _StatusNames()
        # the last step's running requests as :meth:`_running` copied them: (their ids, requests, token lists,
        # hash lists, tokens copied, hashes copied), reused while the next step runs the same requests and no
        # other call read or changed what the recorder copied of a request; its tokens copied are not in
        # _sent_tokens yet (:meth:`_leave_steady` puts them there)
        self._steady = None

    def _leave_steady(self):
        """Before anything else reads or changes what was copied of a request: the columns into the dicts."""
        steady = self._steady
        if steady is not None:
            self._steady = None
            self._sent_tokens.update(zip(steady[0], steady[4]))

    def added(self, request):
        self._leave_steady()
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
        """The request as the translator needs it, as a tuple (:class:`Expander` makes its dict): its counts and
        what vLLM appended to its tokens and block hashes since its last record (at first sight its prompt and
        controls), from lists vLLM only appends to."""
        self._leave_steady()
        rid = request.request_id
        first = None
        sent = self._sent_tokens.get(rid)
        if sent is None:
            first = ([int(t) for t in request.prompt_token_ids], controls(self._scheduler, request))
            sent = len(first[0])
        total = int(request.num_tokens)
        tokens = None
        if total > sent:
            all_tokens = getattr(request, "_all_token_ids", None)
            if all_tokens is None:
                all_tokens = request.all_token_ids
            tokens = list(all_tokens[sent:total])
            sent = total
        block_hashes = getattr(request, "block_hashes", None)
        hashed = len(block_hashes) if block_hashes is not None else 0
        done = self._sent_hashes.get(rid, 0)
        hashes = list(block_hashes[done:hashed]) if hashed > done else None
        snap = (COPIED, rid, status(request), int(getattr(request, "num_computed_tokens", 0) or 0), first, tokens,
                hashes)
        self._sent_tokens[rid] = sent
        self._sent_hashes[rid] = hashed if hashes is not None else done
        return snap

    def meta(self, output, meta, evicted=()):
        scheduled = []
        for new in getattr(output, "scheduled_new_reqs", None) or ():
            request = self._live.get(new.req_id)
            snap = self.snapshot(request) if request is not None else {
                "request_id": new.req_id, "prompt_token_ids": list(new.prompt_token_ids or [])}
            scheduled.append((snap, True, False, groups(new.block_ids)))
        running = None
        cached = getattr(output, "scheduled_cached_reqs", None)
        if cached is not None:
            running = self._running(cached)
            if running is None:  # a request the columns cannot copy: each one copied as a new request is
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
                  "num_scheduled_tokens": _packed_counts(output.num_scheduled_tokens or {}),
                  "preempted_req_ids": sorted(getattr(output, "preempted_req_ids", None) or ()),
                  "finished_req_ids": sorted(getattr(output, "finished_req_ids", None) or ()),
                  "load_jobs": [{"job_id": int(j), "req_id": t.req_id, "block_ids": ids(t.dst_spec)}
                                for j, t in sorted((getattr(meta, "load_jobs", None) or {}).items())],
                  "store_jobs": [{"job_id": int(j), "req_id": t.req_id, "block_ids": ids(t.src_spec)}
                                 for j, t in sorted((getattr(meta, "store_jobs", None) or {}).items())],
                  "jobs_to_flush": sorted(int(j) for j in (getattr(meta, "jobs_to_flush", None) or ()))}
        if running is not None:
            record["running"] = running
        for kind, rid, keys in evicted:
            record.setdefault(kind, []).append([rid, list(keys)])
        if record["finished_req_ids"]:
            self._leave_steady()
        for rid in record["finished_req_ids"]:  # their last record: the step after the finish
            self._live.pop(rid, None)
            self._sent_tokens.pop(rid, None)
            self._sent_hashes.pop(rid, None)
        return record

    def _running(self, cached):
        """The step's running requests (``scheduled_cached_reqs``) as :meth:`snapshot` copies them, as columns
        (:func:`_running_dicts` says how they read) made by C-level passes over vLLM's lists (``map``, ``compress``),
        with Python code only per request that has new block hashes: at 256 running requests this is most of the
        capture's work on the scheduler's thread. None when one of them cannot be copied so (a request not seen
        before, an attribute vLLM's ``Request`` has not, a list that shrank, a ``new_block_ids`` entry that is not
        plain data): then each is copied as :meth:`snapshot` does, with the same result. Nothing is changed
        before it is known that all can be copied. When the step runs the same requests in the same order as the
        last one (a decoding batch between arrivals and finishes), their requests, lists and what was copied of
        them are the last step's columns, not looked up again: vLLM's ``Request`` keeps its token and hash lists
        (it appends to them, or cuts them in place) and every other call of the recorder ends that reuse first."""
        if getattr(cached, "resumed_from_preemption", None):  # an older vLLM's flags
            return None
        req_ids = list(cached.req_ids)
        count = len(req_ids)
        if not count:
            return req_ids, "", [], ([], None), ([], []), [], ([], [])
        new_blocks = list(getattr(cached, "new_block_ids", None) or ())
        sent_hashes = self._sent_hashes
        steady = self._steady
        try:
            if steady is not None and steady[0] == req_ids:  # the same requests as the last step, in its order
                _, requests, token_lists, hash_lists, sent, done = steady
            else:
                self._leave_steady()
                requests = list(map(self._live.__getitem__, req_ids))
                sent = list(map(self._sent_tokens.__getitem__, req_ids))   # each seen before: no prompt to copy
                done = list(map(sent_hashes.__getitem__, req_ids))
                try:
                    token_lists = list(map(_ALL_TOKEN_IDS, requests))
                except AttributeError:
                    token_lists = list(map(_TOKEN_IDS, requests))
                hash_lists = list(map(_BLOCK_HASHES, requests))
            totals = list(map(len, token_lists))
            hashed = list(map(len, hash_lists))
            computed = list(map(_COMPUTED, requests))
            values = list(map(_STATUS, requests))
            try:
                if values.count(values[0]) == count:  # all running, as vLLM schedules them: one name
                    statuses = self._status_names[values[0]]
                else:
                    statuses = list(map(self._status_names.__getitem__, values))
            except TypeError:  # a status that is no enum (unhashable): named one by one
                statuses = list(map(_status_name, values))
            resumed_ids = set(getattr(cached, "resumed_req_ids", None) or ())
        except (AttributeError, KeyError, TypeError):  # TypeError: no len()
            return None
        present = list(compress(range(len(new_blocks)), map(is_not, new_blocks, repeat(None))))
        # a few a step (a new block every block_size tokens), copied: vLLM's model runner extends the lists of a
        # resumed request's entry later, and the records are pickled on the sender's thread, after the call
        entries = [new_blocks[i] for i in present]
        if not _ENTRY_TYPES.issuperset(map(type, entries)):
            return None
        appended = list(map(sub, totals, sent))
        positions = list(compress(range(count), map(sub, hashed, done)))
        if min(appended) < 0 or any(hashed[i] < done[i] for i in positions):  # a list that shrank
            return None
        if appended.count(1) == count:  # decoding: one token each
            tokens = (list(map(getitem, token_lists, sent)), None)
        else:
            tokens = (list(chain.from_iterable(map(getitem, token_lists, map(slice, sent, totals)))), appended)
        hashes = (positions, [hash_lists[i][done[i]:hashed[i]] for i in positions])
        resumed = list(compress(range(count), map(resumed_ids.__contains__, req_ids))) if resumed_ids else []
        blocks = (present, list(map(_copied_entry, entries)))
        if positions:
            done = list(done)
            for i in positions:
                sent_hashes[req_ids[i]] = done[i] = hashed[i]
        self._steady = (req_ids, requests, token_lists, hash_lists, totals, done)
        return _packed(req_ids), statuses, computed, tokens, hashes, resumed, blocks
