"""Turns the scheduler-side calls of vLLM's OffloadingConnector into two logs: the commands, as a kvledger
scenario, and vLLM's own decisions, as an event log in the contract's format.

Pure and single-threaded: the connector hands it plain records (already copied out of vLLM's objects
on the scheduler thread) and a writer thread feeds them here. Every call record is a dict with a
``call`` name; see :mod:`kvledger_capture.connector` for how they are made.

Job ids are the log's own: from 0, in the order the log schedules the jobs (contract section 3), which is
the order ``kvledger run`` of the commands numbers them in. vLLM numbers a step's jobs in the order it builds
them (finished requests' stores, then request by request), while the log writes each job after the fact
that makes it; so vLLM's ids are mapped, in the commands (``CompleteTransfer``) as in the log. Keys in
vLLM's log are vLLM's block hashes (hex), which kvledger's tools compare for equality only.

With KV cache groups (:mod:`kvledger_capture.geometry`) a request has one table per group, block ids come
one list per group, vLLM's null block is ``null``, and the KV cache manager's frees of sliding-window blocks
(``remove_skipped_blocks``) are ``FreeWindowBlocks``.
"""

from .geometry import Geometry

STATUS_REASONS = {"FINISHED_STOPPED": "STOPPED", "FINISHED_LENGTH_CAPPED": "LENGTH"}


class _Request:
    __slots__ = ("prompt_len", "known", "computed", "tables", "held", "hashes", "finished", "jobs", "matched",
                 "old_tables", "release_at_load", "done", "freed")

    def __init__(self, prompt_len, groups):
        self.prompt_len = prompt_len
        self.known = prompt_len      # n as kvledger knows it
        self.computed = 0            # c as kvledger knows it
        self.tables = [[] for _ in range(groups)]  # per group, block ids in table order (None: null); kept after
        #                                            a release, to place late stores
        self.held = False            # whether vLLM has not yet freed the table
        self.hashes = []             # vLLM's block hashes (hex), for keys
        self.finished = False
        self.jobs = set()
        self.matched = False         # whether a MatchPrefix was written (a request first seen mid-stream has none)
        self.old_tables = None       # the tables a preemption emptied, to place a store vLLM still makes from them
        self.release_at_load = None  # an abort during a load: the load's job, whose end releases its blocks
        self.done = False            # past its last record (the step after its finish): forgotten once idle
        self.freed = None            # per group, window block -> the table entry it had before the free (7.11 1)


class Translator:
    """Feed call records with :meth:`feed`; read ``commands`` and ``events`` (lists of dicts) as they grow.

    ``events[:ready]`` is final; later events may still get a load job inserted before them (vLLM makes a
    load at the allocation, as kvledger does, but names it in the step's metadata, built after).
    """

    #: Request ids forgotten most recently, so a late record of one is recognised (never registered again).
    FORGOTTEN_KEPT = 4096

    def __init__(self, config, producer=None):
        self.config = dict(config)
        self.geometry = Geometry(self.config)
        self.block_size = self.config.get("gpuBlockSize", 16)
        self.per_chunk = self.config.get("blocksPerChunk", 1)
        self.workers = self.config.get("workers", 1)
        self._capacity = int(self.config.get("cpuCapacityChunks", 1024))
        self.commands = []
        self.events = []
        self.step = 0
        self._requests = {}
        self._jobs = {}          # vLLM job id -> (kind, request id, keys, completions so far)
        self._next_job = 0       # vLLM's next job id
        self._log_ids = {}       # vLLM job id -> the log's, while the job is in flight
        self._dropped_ids = {}   # the same for the jobs the last reset dropped (a late completion names them)
        self._next_log_id = 0
        self._unnumbered = []    # job events of the record being translated, numbered when it is done
        self._unmapped = []      # its FlushRequired events, which may name those jobs
        self._keys_of = {}
        self._seq = 0
        self._stale_below = 0
        self._awaiting_load = {}  # request id -> index in events just after its loading allocation
        self._awaiting_finish = {}  # request id -> index in events just after its RequestFinished/Aborted
        self._finish_commands = {}  # request id -> index in commands of its FinishRequest/AbortRequest (same wait)
        self._command_count = 0   # commands made so far (``commands`` keeps only those not yet written)
        self._victims = []        # keys the CPU tier evicted while this step's stores were built, in vLLM's order
        self._tier_keys = {}      # keys the log's CPU tier holds (ready or being written), oldest first, to count
        #                           room; never more than its capacity (a log over it is wrong already)
        self._preempted_early = set()  # preempted by a reset outside schedule(), before the step reports it
        self._forgotten = {}      # request id -> None, oldest first (FORGOTTEN_KEPT at most)
        configured = self.geometry.engine_configured(self.config)
        if producer:
            configured["producer"] = producer  # contract 9.3: last, after groups
        self._event("EngineConfigured", **configured)

    # --- the calls -------------------------------------------------------------------------------

    def feed(self, record):
        getattr(self, "_on_" + record["call"])(record)
        self._number_jobs()

    def _on_get_num_new_matched_tokens(self, r):
        req = self._ensure(r["request"])
        if req is None:
            return
        rid = r["request"]["request_id"]
        if req.held and not req.finished:
            # vLLM freed a live request's blocks where the connector does not hear it, and looks it up again:
            # recomputation after a failed load (kv_load_failure_policy=recompute) or a preemption outside
            # schedule(), reported in this step's preempted_req_ids. The log says so as a preemption, so the
            # request holds no block before its new match.
            self._preempt(rid, req, sorted(req.jobs))
            self._preempted_early.add(rid)
        self._sync_tokens(r["request"])
        gpu_hit = r["num_computed_tokens"]
        self._command("MatchPrefix", requestId=r["request"]["request_id"], gpuHitTokens=gpu_hit)
        req.matched = True
        hits, _async = r["result"]
        rid = r["request"]["request_id"]
        if hits is None:
            # vLLM's own reason, read from its scheduler when it answered; a guess only without that state
            reason = r.get("deferral") or ("TRANSFER_IN_FLIGHT" if req.jobs else "CHUNK_WRITE_IN_FLIGHT")
            self._event("PrefixMatchDeferred", requestId=rid, gpuHitTokens=gpu_hit, reason=reason)
            return
        geometry = self.geometry
        if not geometry.grouped:
            chunk = self.block_size * self.per_chunk
            first = gpu_hit // chunk
            last = (gpu_hit + hits) // chunk if hits else first
            hit_chunks = list(range(first, last)) if hits else []
        else:  # vLLM names the hit in tokens only; its chunks per group are the contract's (7.5)
            hit_chunks = geometry.shape(geometry.hit_chunks(gpu_hit, gpu_hit + hits) if hits else geometry.empty())
        self._event("PrefixMatched", requestId=rid, gpuHitTokens=gpu_hit, externalTokens=hits, hitChunks=hit_chunks)
        req.computed = gpu_hit

    def _on_update_state_after_alloc(self, r):
        rid = r["request"]["request_id"]
        req = self._ensure(r["request"])
        if req is None:
            return
        external = r["num_external_tokens"]
        if external > 0:
            # The request now waits for its load and is not in this step's scheduler output: its blocks are
            # reported here, with the load's tokens.
            self._allocate(rid, req, _tail(self.geometry.lists(r["block_ids"]), req.tables), external)
            self._awaiting_load[rid] = len(self.events)

    @property
    def ready(self):
        # a loading allocation stays unwritten too: a flush may have to go before it; and a finish, as the step's
        # store completions may have to go before it
        return min([i - 1 for i in self._awaiting_load.values()] + [i - 1 for i in self._awaiting_finish.values()],
                   default=len(self.events))

    @property
    def commands_ready(self):
        """``commands[:commands_ready]`` is final: a finish's command waits, as its events do."""
        return min(self._finish_commands.values(), default=len(self.commands))

    def release(self):
        """At the end: no load job will come for an allocation still waiting for one."""
        self._awaiting_load.clear()
        self._awaiting_finish.clear()
        self._finish_commands.clear()

    def _on_build_connector_meta(self, r):
        preempted = set(r.get("preempted_req_ids", ()))
        # What the CPU manager evicted to make room for this step's stores, in its order. The log writes the
        # stores in another order than vLLM builds them (a finished request's last store at its finish, the
        # step's new requests before its running ones), so each eviction goes before the store that needs
        # the room in the log's order: the victims vLLM took first, as many as the log's tier lacks.
        self._victims = [self.geometry.evicted_key(k) for _rid, keys in r.get("evicted", ()) for k in keys]
        deferred = {}  # request id -> the chunks vLLM offered and the CPU manager had no room for
        for rid, keys in r.get("deferred", ()):
            deferred.setdefault(rid, []).extend(keys)
        # vLLM builds a finished request's last store here, one step after the finish, from the blocks it freed
        # (its fence guards them): the store kvledger makes at the finish, so it is written there.
        finished, self._awaiting_finish = self._awaiting_finish, {}
        self._finish_commands.clear()
        store_jobs = []
        # the last stores in the log's order (at their finishes), so the room each takes is counted in that order
        for job in sorted(r.get("store_jobs", ()), key=lambda job: finished.get(job["req_id"], -1)):
            if job["req_id"] in finished:
                at = finished[job["req_id"]]
                added = self._insert(at, lambda job=job: self._schedule(job, "StoreJobScheduled"))
                for rid, index in finished.items():  # its own next store, if any, goes after this one
                    if index >= at:
                        finished[rid] = index + added
            else:
                store_jobs.append(job)
        for rid in sorted(set(deferred) & set(finished), key=finished.get):
            # a final store the CPU manager had no room for: deferred at the finish, where the log makes that store
            req = self._requests.get(rid)
            keys = deferred.pop(rid)
            if req is None:
                continue
            at = finished[rid]
            added = self._insert(at, lambda rid=rid, req=req, keys=keys: self._defer(rid, req, keys))
            for other, index in finished.items():
                if index >= at:
                    finished[other] = index + added
        # Stores vLLM flushes because this step hands out a block they read (a finished request's, or a freed
        # window block): each FlushRequired goes just before the allocation that hands the block out, naming it.
        # A preempted request's stores are flushed by its preemption, which lifts no fence a window free started
        # (contract 7.10): such a block handed out again before the store ends gets its own FlushRequired.
        fenced = {}
        for j in r.get("jobs_to_flush", ()):
            if j not in self._jobs:
                continue
            blocks = _flat(self._jobs[j][2])
            if self._jobs[j][1] in preempted:
                owner = self._requests.get(self._jobs[j][1])
                freed = {b for group in (owner.freed or ()) for b in group} if owner is not None else set()
                blocks = [b for b in blocks if b in freed]
            for b in blocks:
                fenced.setdefault(b, set()).add(j)
        flushed = set()
        loads = []
        for job in r.get("load_jobs", ()):
            at = self._awaiting_load.pop(job["req_id"], None)
            if at is None:
                loads.append(job)
                continue
            allocation = self.events[at - 1] if at >= 1 else None
            if allocation is not None and allocation.get("type") == "BlocksAllocated":
                handed = [b for b in _flat(_per_group(allocation["blockIds"])) if b]
                at += self._insert(at - 1, lambda handed=handed: self._flush_for(handed, fenced, flushed))
            self._insert(at, lambda job=job: self._schedule(job, "LoadJobScheduled"))
        self.step += 1
        for rid in r.get("preempted_req_ids", ()):
            req = self._requests.get(rid)
            if req is None or req.finished:
                continue
            if rid in self._preempted_early:  # a reset preempted it already, where vLLM did
                self._preempted_early.discard(rid)
                continue
            self._preempt(rid, req, r.get("jobs_to_flush", ()))
        # vLLM decides a step's stores together, after all of the step's scheduling; each is written right
        # after the last fact of its request in the step, where the contract's rules would make it.
        stores = {}
        for job in store_jobs:
            stores.setdefault(job["req_id"], []).append(job)
        for sched in _in_scheduling_order(r.get("scheduled", ()), r.get("num_scheduled_tokens", {})):
            rid = sched["request"]["request_id"]
            req = self._ensure(sched["request"])
            if req is None:
                continue
            if not req.matched:  # first seen mid-stream (a streaming-input session): its KV so far is vLLM's own
                self._match_locally(rid, req, sched["request"])
            self._sync_tokens(sched["request"])
            blocks = self.geometry.lists(sched.get("block_ids"))
            if sched.get("new") or sched.get("resumed"):
                # A new or resumed request's data lists its whole table; report only what kvledger has not
                # seen (a load's allocation was reported when vLLM made it).
                blocks = _tail(blocks, req.tables)
            if any(blocks):
                self._flush_for([b for b in _flat(blocks) if b], fenced, flushed)
                self._allocate(rid, req, blocks, 0)
            tokens = r["num_scheduled_tokens"].get(rid, 0)
            if tokens > 0:
                req.computed += tokens
                self._command("ComputeTokens", requestId=rid, tokens=tokens)
                self._event("TokensComputed", requestId=rid, numComputedTokens=req.computed)
                for job in stores.pop(rid, ()):
                    self._schedule(job, "StoreJobScheduled")
                if rid in deferred:
                    self._defer(rid, req, deferred.pop(rid))
        flush_others = sorted({j for js in fenced.values() for j in js if self._jobs[j][1] not in preempted} - flushed)
        if flush_others:  # a flush no allocation of this step explains: as vLLM asked, with the jobs' blocks
            self._event("FlushRequired", jobIds=flush_others, blockIds=self._job_blocks(flush_others))
        for job in loads:
            self._schedule(job, "LoadJobScheduled")
        for jobs in stores.values():  # stores of requests not scheduled this step (finished ones)
            for job in jobs:
                self._schedule(job, "StoreJobScheduled")
        for rid, keys in sorted(deferred.items()):  # a request not scheduled this step (a finished one)
            req = self._requests.get(rid)
            if req is not None:
                self._defer(rid, req, keys)
        if self._victims:  # evictions no store of the log needed room for (none expected)
            self._event("ChunksEvicted", keys=self._victims)
        self._victims = []
        for rid in r.get("finished_req_ids", ()):  # their last record: forgotten once nothing is in flight
            req = self._requests.get(rid)
            if req is not None and req.finished:
                req.done = True
                self._forget_if_idle(rid, req)

    def _number_jobs(self):
        """The log's ids of the jobs the record scheduled, in the order the log writes them (and of the flushes it
        wrote, which may name them): every job of one metadata comes after those of the metadata before it (a
        load or a finish-time store is inserted after the fact of its step), so the ids of earlier jobs never
        change."""
        for event in sorted(self._unnumbered, key=lambda e: e["seq"]):
            self._log_ids[event["jobId"]] = self._next_log_id
            event["jobId"] = self._next_log_id
            self._next_log_id += 1
        for event in self._unmapped:
            event["jobIds"] = sorted(self._log_id(j) for j in event["jobIds"])
        self._unnumbered = []
        self._unmapped = []

    def _log_id(self, job_id):
        """A vLLM job id as the log names it (an id the log never scheduled keeps vLLM's number)."""
        return self._log_ids.get(job_id, self._dropped_ids.get(job_id, job_id))

    def _defer(self, rid, req, offload_keys):
        """StoreDeferred (TIER_FULL): the chunks of vLLM's offer its CPU manager could not make room for."""
        geometry = self.geometry
        chunks = geometry.empty()
        for key in offload_keys:
            g = int(key[-8:], 16) if geometry.grouped else 0
            block_hash = key[:-8]
            if block_hash in req.hashes:
                unit = req.hashes.index(block_hash) + 1
                chunks[g].append(unit * geometry.hash_unit // geometry.chunk_sizes[g] - 1)
        self._event("StoreDeferred", requestId=rid, chunkIndices=geometry.shape([sorted(set(c)) for c in chunks]),
                    reason="TIER_FULL")

    def _flush_for(self, handed, fenced, flushed):
        """A FlushRequired before an allocation that hands out blocks a store in flight reads (vLLM flushes it in
        this step's metadata), naming those blocks only."""
        blocks = [b for b in handed if b in fenced]
        if blocks:
            jobs = sorted({j for b in blocks for j in fenced[b]})
            flushed.update(jobs)
            self._event("FlushRequired", jobIds=jobs, blockIds=blocks)

    def _preempt(self, rid, req, jobs_to_flush):
        self._command("PreemptRequest", requestId=rid)
        flushed = sorted(j for j in jobs_to_flush if self._jobs.get(j, (None, None))[1] == rid)
        self._event("RequestPreempted", requestId=rid)
        if flushed:
            self._event("FlushRequired", jobIds=flushed, blockIds=self._job_blocks(flushed))
        if any(_held(req)):
            self._event("BlocksReleased", requestId=rid, blockIds=self.geometry.shape(_held(req)))
        req.old_tables = req.tables
        req.tables = self.geometry.empty()
        req.held = False
        req.computed = 0

    def _match_locally(self, rid, req, request):
        """A request vLLM schedules without having asked the connector (it was first seen with computed tokens):
        a match of its locally computed tokens, nothing from the CPU tier."""
        computed = int(request.get("num_computed_tokens", 0) or 0)
        self._command("MatchPrefix", requestId=rid, gpuHitTokens=computed)
        self._event("PrefixMatched", requestId=rid, gpuHitTokens=computed, externalTokens=0,
                    hitChunks=self.geometry.shape(self.geometry.empty()) if self.geometry.grouped else [])
        req.matched = True
        req.computed = computed

    def _on_update_connector_output(self, r):
        invalid = set(r.get("invalid_block_ids", ()))
        completed = sorted(r.get("completed_jobs", {}).items())
        if self._awaiting_finish:
            # vLLM hears this step's finishes (request_finished) just before its worker's completions, and builds the
            # finished requests' last stores one step later, after both; the log writes those stores at the
            # finishes (contract section 4). So the step's store completions go before its finishes: the CPU
            # manager's eviction for such a store may take a chunk these completions made ready, and the log must
            # not show it evicted while still being written. Loads stay where they are (a finish's own load ends
            # its blocks' hold).
            stores = [(j, n) for j, n in completed if self._jobs.get(int(j), ("",))[0] == "StoreJobScheduled"]
            if stores:
                completed = [(j, n) for j, n in completed if (j, n) not in stores]
                self._before_finishes(lambda: [self._complete(int(j)) for j, n in stores for _ in range(n)])
        for job_id, count in completed:
            job = self._jobs.get(int(job_id))
            # A load into blocks the worker reported in get_block_ids_with_load_errors failed.
            failed = job is not None and job[0] == "LoadJobScheduled" and bool(invalid.intersection(_flat(job[2])))
            for _ in range(count):
                self._complete(int(job_id), not failed)
        for rid in r.get("finished_sending", ()):
            req = self._requests.get(rid)
            if req is not None and req.finished and req.held:  # a delayed free ends
                self._event("BlocksReleased", requestId=rid, blockIds=self.geometry.shape(_held(req)))
                req.held = False
                self._forget_if_idle(rid, req)

    def _on_request_finished(self, r):
        rid = r["request"]["request_id"]
        req = self._ensure(r["request"])
        if req is None or req.finished:
            return
        self._sync_tokens(r["request"])
        status = r["request"].get("status", "")
        if status in ("FINISHED_ABORTED", "FINISHED_ERROR"):  # an error (a failed load, policy fail) ends it too
            self._command("AbortRequest", requestId=rid)
            self._event("RequestAborted", requestId=rid)
        else:
            reason = STATUS_REASONS.get(status, "STOPPED")
            self._command("FinishRequest", requestId=rid, reason=reason)
            self._event("RequestFinished", requestId=rid, reason=reason)
        req.finished = True
        self._awaiting_finish[rid] = len(self.events)
        self._finish_commands[rid] = len(self.commands) - 1
        delay_free = bool(r.get("result", (False, None))[0])
        loading = [j for j in sorted(req.jobs) if self._jobs[j][0] == "LoadJobScheduled"]
        if req.held and loading and status in ("FINISHED_ABORTED", "FINISHED_ERROR"):
            # vLLM frees an aborted request's blocks when its load ends (delay_free_blocks of a request waiting
            # for remote KVs): the rest now, the load's destinations at its LoadJobCompleted.
            destinations = set(_flat(self._jobs[loading[0]][2]))
            rest = [[b for b in table if b is not None and b not in destinations] for table in req.tables]
            if any(rest):
                self._event("BlocksReleased", requestId=rid, blockIds=self.geometry.shape(rest))
            req.tables = [[b if b in destinations else None for b in table] for table in req.tables]
            req.release_at_load = loading[0]
        elif req.held and not delay_free:
            if any(_held(req)):
                self._event("BlocksReleased", requestId=rid, blockIds=self.geometry.shape(_held(req)))
            req.held = False

    def _on_remove_skipped_blocks(self, r):
        """vLLM's KV cache manager freed sliding-window blocks outside a running request's window: they become
        null in its table, as vLLM replaces them with its null block (contract 7.3, 7.9)."""
        rid = r["request_id"]
        req = self._requests.get(rid)
        if req is None or not req.held:
            # A request the log holds no table of (first seen mid-stream, before its first allocation, or one
            # forgotten): vLLM frees blocks the log never gave it, so there is nothing to record.
            return
        group = int(r["group"])
        freed = [int(b) for b in r["block_ids"]]
        lists = self.geometry.empty()
        lists[group] = freed
        self._command("FreeWindowBlocks", requestId=rid, blockIds=self.geometry.shape(lists))
        self._event("WindowBlocksFreed", requestId=rid, blockIds=self.geometry.shape(lists))
        table = req.tables[group]
        if req.freed is None:
            req.freed = [{} for _ in req.tables]
        for block in freed:
            if block in table:
                req.freed[group][block] = table.index(block)  # vLLM may still store from it (7.11, departure 1)
                table[table.index(block)] = None

    def _on_take_events(self, r):
        """Chunks the CPU tier evicted (vLLM's BlockRemoved events of medium CPU)."""
        if r.get("removed"):
            self._event("ChunksEvicted", keys=list(r["removed"]))

    def _on_reset_cache(self, r):
        for rid in r.get("preempted", ()):  # reset_prefix_cache(reset_running_requests=True) preempted them first
            req = self._requests.get(rid)
            if req is not None and req.held and not req.finished:
                self._preempt(rid, req, sorted(req.jobs))
                self._preempted_early.add(rid)
        self._command("ResetCache")
        in_flight = sorted(self._jobs)
        self._event("CacheReset", staleBelowJobId=self._next_log_id)
        self._stale_below = self._next_job
        if in_flight:
            self._event("FlushRequired", jobIds=in_flight, blockIds=self._job_blocks(in_flight))
        self._jobs.clear()
        self._keys_of.clear()
        self._dropped_ids, self._log_ids = self._log_ids, {}
        for rid, req in list(self._requests.items()):
            req.jobs.clear()
            if req.release_at_load is not None:  # its load is dropped: vLLM frees the blocks with it
                self._release_after_load(rid, req)
            self._forget_if_idle(rid, req)

    # --- helpers -----------------------------------------------------------------------------------

    def _ensure(self, request):
        """The request, registered when first seen; None for a request already forgotten (a late record)."""
        rid = request["request_id"]
        req = self._requests.get(rid)
        if req is None:
            if rid in self._forgotten:
                return None
            if "prompt_token_ids" not in request:
                raise ValueError("request %s is first seen without its prompt (vLLM never added it)" % rid)
            prompt = list(request["prompt_token_ids"])
            req = self._requests[rid] = _Request(len(prompt), self.geometry.count)
            controls = request.get("controls") or {}
            given = {k: controls[k] for k in ("maxOffloadTokens", "maxLoadTokens", "skipReadingPrefixCache")
                     if k in controls}  # contract 9.1: only those vLLM applies, in this order
            self._command("RegisterRequest", requestId=rid, promptTokens=prompt, **given)
            self._event("RequestRegistered", requestId=rid, promptLength=len(prompt), promptTokens=prompt, **given)
        req.hashes.extend(request.get("new_hashes", ()))
        return req

    def _forget_if_idle(self, rid, req):
        """Drops a request past its last record once nothing of it is in flight or held: the translator's memory
        is that of the requests in the engine, not of the run."""
        if req.done and not req.jobs and not req.held:
            del self._requests[rid]
            self._preempted_early.discard(rid)
            self._forgotten[rid] = None
            if len(self._forgotten) > self.FORGOTTEN_KEPT:
                del self._forgotten[next(iter(self._forgotten))]

    def _release_after_load(self, rid, req):
        req.release_at_load = None
        if req.held and any(_held(req)):
            self._event("BlocksReleased", requestId=rid, blockIds=self.geometry.shape(_held(req)))
        req.held = False

    def forget_written(self, commands, events):
        """Drops the first ``commands`` commands and ``events`` events, which the writer wrote (only final
        events are written, so no insertion point is among them)."""
        del self.commands[:commands]
        del self.events[:events]
        for awaiting in (self._awaiting_load, self._awaiting_finish):
            for rid in awaiting:
                awaiting[rid] -= events
        for rid in self._finish_commands:
            self._finish_commands[rid] -= commands

    def _sync_tokens(self, request):
        """Output tokens vLLM appended, and speculative tokens it rejected, since kvledger last heard."""
        req = self._requests.get(request["request_id"])
        if req is None:
            return
        rid = request["request_id"]
        new = request.get("new_tokens")
        if new:
            new = list(new)
            req.known += len(new)
            self._command("AppendTokens", requestId=rid, tokens=new)
            self._event("TokensAppended", requestId=rid, numTokens=req.known, tokens=new)
        computed = request.get("num_computed_tokens")
        if computed is None or not req.held or req.finished:
            return
        if computed < req.computed:
            # vLLM took back speculative tokens its verification rejected.
            rejected = req.computed - computed
            self._command("RejectTokens", requestId=rid, tokens=rejected)
            self._event("TokensRejected", requestId=rid, numComputedTokens=computed)
        req.computed = computed  # vLLM's own count (a finished load raised it)

    def _allocate(self, rid, req, blocks, external):
        for table, added in zip(req.tables, blocks):
            table.extend(added)
        req.held = True
        shaped = self.geometry.shape(blocks)
        self._command("AllocateBlocks", requestId=rid, blockIds=shaped, externalTokens=external)
        self._event("BlocksAllocated", requestId=rid, blockIds=self.geometry.shape(blocks), externalTokens=external)

    def _schedule(self, job, event_type):
        """A job of vLLM's transfer spec, its block ids split per group (``group_sizes``); each block's place in
        its group's table names the chunk, the request's hashes its key."""
        geometry = self.geometry
        rid = job["req_id"]
        req = self._requests.get(rid)
        blocks = geometry.lists(job["block_ids"], nulls=False)
        tables = req.tables if req is not None else geometry.empty()
        # a store vLLM still makes from a table a preemption emptied (a finish-time store under asynchronous
        # scheduling) reads the blocks at their old places: recorded as vLLM makes it, never as an empty store
        old = req.old_tables if req is not None and req.old_tables is not None else geometry.empty()
        freed = req.freed if req is not None and req.freed is not None else [{} for _ in tables]
        chunks = [sorted({_place(b, table, before, gone) // self.per_chunk for b in group
                          if _place(b, table, before, gone) is not None})
                  for table, before, gone, group in zip(tables, old, freed, blocks)]
        hashes = req.hashes if req is not None else []
        keys = [[geometry.key(hashes, g, i) for i in group] for g, group in enumerate(chunks)]
        job_id = int(job["job_id"])
        if event_type == "StoreJobScheduled":
            self._make_room(_flat(keys))
        self._jobs[job_id] = (event_type, rid, blocks, 0)
        self._next_job = max(self._next_job, job_id + 1)
        if req is not None:
            req.jobs.add(job_id)
        self._event(event_type, jobId=job_id, requestId=rid, chunkIndices=geometry.shape(chunks),
                    keys=geometry.shape(keys), blockIds=geometry.shape(blocks))
        self._unnumbered.append(self.events[-1])  # vLLM's id until _number_jobs
        self._keys_of[job_id] = _flat(keys)

    def _make_room(self, keys):
        """Before a store of ``keys``: a ``ChunksEvicted`` of this step's victims, in vLLM's order, until they make
        the room the log's tier lacks (its capacity, counting what the log's events hold), never one of the store's
        own chunks. A victim the log's tier does not hold makes no room there: a chunk of a final store that vLLM
        evicted before it built that store a step after the finish, and stored again (contract 7.11.5); it is
        written where vLLM evicted it, and the room is made by the victims after it."""
        if not self._victims:
            return
        need = len(self._tier_keys) + sum(1 for k in set(keys) if k not in self._tier_keys) - self._capacity
        taken, made = [], 0
        for key in self._victims:
            if made >= need:
                break
            if key not in keys:
                taken.append(key)
                made += key in self._tier_keys
        if taken:
            for key in taken:
                self._victims.remove(key)
            self._event("ChunksEvicted", keys=taken)

    def _complete(self, job_id, success=True):
        log_id = self._log_id(job_id)
        self._command("CompleteTransfer", jobId=log_id, success=success)
        job = self._jobs.get(job_id)
        if job is None:
            if job_id < self._stale_below:  # vLLM ignores it, as kvledger refuses it
                self._event("CommandRejected", line=self._command_count + 1, cmd="CompleteTransfer", code="STALE_JOB",
                            message="job %d was dropped by a reset" % log_id, jobId=log_id)
            return  # a completion vLLM ignores (below its stale threshold, or unknown)
        kind, rid, blocks, done = job
        done += 1
        if done < self.workers:
            self._jobs[job_id] = (kind, rid, blocks, done)
            self._event("TransferAcknowledged", jobId=log_id, requestId=rid, success=success)
            return
        del self._jobs[job_id]
        self._log_ids.pop(job_id, None)  # memory flat in the run's length
        keys = self._keys_of.pop(job_id, [])
        req = self._requests.get(rid)
        if req is not None:
            req.jobs.discard(job_id)
        if kind == "StoreJobScheduled":
            self._event("StoreJobCompleted", jobId=log_id, requestId=rid, success=True)
            if keys:
                self._event("ChunksStored", keys=keys)
        else:
            self._event("LoadJobCompleted", jobId=log_id, requestId=rid, success=success)
            if req is not None and req.release_at_load == job_id:
                self._release_after_load(rid, req)
        if req is not None:
            self._forget_if_idle(rid, req)

    def _insert(self, at, emit):
        """Events ``emit`` writes, at ``at`` (after the fact that made them); the events after them move on.
        Returns how many were inserted."""
        tail = self.events[at:]
        del self.events[at:]
        if tail:
            self._seq = tail[0]["seq"] - 1
        step, self.step = self.step, (self.events[-1]["step"] if self.events else tail[0]["step"] if tail else self.step)
        emit()
        self.step = step
        added = len(self.events) - at
        for event in tail:
            self._seq += 1
            event["seq"] = self._seq
            self.events.append(event)
        if added:
            for awaiting in (self._awaiting_load, self._awaiting_finish):
                for rid, index in awaiting.items():
                    if index > at:
                        awaiting[rid] = index + added
        return added

    def _before_finishes(self, emit):
        """What ``emit`` writes, placed just before the earliest finish still waiting for its step's metadata: its
        events before that RequestFinished/RequestAborted, its commands before that FinishRequest/AbortRequest."""
        at_command = min(self._finish_commands.values())
        count = len(self.commands)
        self._insert(min(self._awaiting_finish.values()) - 1, emit)
        moved = self.commands[count:]
        del self.commands[count:]
        self.commands[at_command:at_command] = moved
        for rid, index in self._finish_commands.items():
            if index >= at_command:
                self._finish_commands[rid] = index + len(moved)

    def _job_blocks(self, job_ids):
        """A flush's blocks: each job's group by group (contract 7.7), each block once."""
        out = []
        for j in job_ids:
            for b in _flat(self._jobs[j][2]):
                if b not in out:
                    out.append(b)
        return out

    def _command(self, cmd, **fields):
        line = {"cmd": cmd}
        line.update(fields)
        self.commands.append(line)
        self._command_count += 1

    def _event(self, type_, **fields):
        if type_ == "StoreJobScheduled":
            self._tier_keys.update(dict.fromkeys(_flat(_per_group(fields["keys"]))))
            while len(self._tier_keys) > self._capacity:
                del self._tier_keys[next(iter(self._tier_keys))]
        elif type_ == "ChunksEvicted":
            for key in fields["keys"]:
                self._tier_keys.pop(key, None)
        elif type_ == "CacheReset":
            self._tier_keys.clear()
        self._seq += 1
        line = {"seq": self._seq, "type": type_}
        line.update(fields)
        line["step"] = self.step  # not in the contract: which scheduler step (build_connector_meta) it belongs to
        self.events.append(line)
        if type_ == "FlushRequired":
            self._unmapped.append(line)  # vLLM's job ids until _number_jobs


def _in_scheduling_order(scheduled, num_scheduled_tokens):
    """The step's scheduled requests in the order vLLM's scheduler scheduled (and allocated) them, which is the
    order of its ``num_scheduled_tokens`` (running requests, then waiting ones, a resumed request among these),
    not the scheduler output's new-then-cached lists: a request that shares the GPU-hit blocks another allocated
    in the same step comes after it, as in vLLM (contract 7.3, blocks still held)."""
    order = {rid: i for i, rid in enumerate(num_scheduled_tokens)}
    return sorted(scheduled, key=lambda sched: order.get(sched["request"]["request_id"], len(order)))


def _tail(blocks, tables):
    """Per group, the blocks of a whole table that a known table does not hold yet."""
    return [b[len(t):] if b[:len(t)] == t else b for b, t in zip(blocks, tables)]


def _per_group(shaped):
    """A per-group field as the log writes it, as lists per group (nulls kept)."""
    return [shaped] if not shaped or not isinstance(shaped[0], list) else shaped


def _place(block, table, old, freed):
    """Where a job's block is in a request's table, else where it was before a window free or in the table a
    preemption emptied; None if in none."""
    if block in table:
        return table.index(block)
    if block in freed:
        return freed[block]
    return old.index(block) if block in old else None


def _held(req):
    """Per group, the blocks a request's tables hold: its non-null entries (frees made them null)."""
    return [[b for b in table if b is not None] for table in req.tables]


def _flat(lists):
    return [b for group in lists for b in group]
