"""Turns the scheduler-side calls of vLLM's OffloadingConnector into two logs: the commands, as a kvledger
scenario, and vLLM's own decisions, as an event log in the contract's format.

Pure and single-threaded: the connector hands it plain records (already copied out of vLLM's objects
on the scheduler thread) and a writer thread feeds them here. Every call record is a dict with a
``call`` name; see :mod:`kvledger_capture.connector` for how they are made.

Job ids are vLLM's own (its scheduler numbers jobs from 0 in scheduling order, like kvledger); keys
in vLLM's log are vLLM's block hashes (hex), which kvledger's tools compare for equality only.

With KV cache groups (:mod:`kvledger_capture.geometry`) a request has one table per group, block ids come
one list per group, vLLM's null block is ``null``, and the KV cache manager's frees of sliding-window blocks
(``remove_skipped_blocks``) are ``FreeWindowBlocks``.
"""

from .geometry import Geometry

STATUS_REASONS = {"FINISHED_STOPPED": "STOPPED", "FINISHED_LENGTH_CAPPED": "LENGTH"}


class _Request:
    __slots__ = ("prompt_len", "known", "computed", "tables", "held", "hashes", "finished", "jobs")

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


class Translator:
    """Feed call records with :meth:`feed`; read ``commands`` and ``events`` (lists of dicts) as they grow.

    ``events[:ready]`` is final; later events may still get a load job inserted before them (vLLM makes a
    load at the allocation, as kvledger does, but names it in the step's metadata, built after).
    """

    def __init__(self, config):
        self.config = dict(config)
        self.geometry = Geometry(self.config)
        self.block_size = self.config.get("gpuBlockSize", 16)
        self.per_chunk = self.config.get("blocksPerChunk", 1)
        self.workers = self.config.get("workers", 1)
        self.commands = []
        self.events = []
        self.step = 0
        self._requests = {}
        self._jobs = {}          # vLLM job id -> (kind, request id, keys, completions so far)
        self._next_job = 0
        self._keys_of = {}
        self._seq = 0
        self._stale_below = 0
        self._awaiting_load = {}  # request id -> index in events just after its loading allocation
        self._awaiting_finish = {}  # request id -> index in events just after its RequestFinished/Aborted
        self._event("EngineConfigured", **self.geometry.engine_configured(self.config))

    # --- the calls -------------------------------------------------------------------------------

    def feed(self, record):
        getattr(self, "_on_" + record["call"])(record)

    def _on_get_num_new_matched_tokens(self, r):
        req = self._ensure(r["request"])
        self._sync_tokens(r["request"])
        gpu_hit = r["num_computed_tokens"]
        self._command("MatchPrefix", requestId=r["request"]["request_id"], gpuHitTokens=gpu_hit)
        hits, _async = r["result"]
        rid = r["request"]["request_id"]
        if hits is None:
            reason = "TRANSFER_IN_FLIGHT" if req.jobs else "CHUNK_BEING_LOADED"
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
        external = r["num_external_tokens"]
        if external > 0:
            # The request now waits for its load and is not in this step's scheduler output: its blocks are
            # reported here, with the load's tokens.
            self._allocate(rid, req, _tail(self.geometry.lists(r["block_ids"]), req.tables), external)
            self._awaiting_load[rid] = len(self.events)

    @property
    def ready(self):
        return min(list(self._awaiting_load.values()) + list(self._awaiting_finish.values()), default=len(self.events))

    def release(self):
        """At the end: no load job will come for an allocation still waiting for one."""
        self._awaiting_load.clear()
        self._awaiting_finish.clear()

    def _on_build_connector_meta(self, r):
        loads = []
        for job in r.get("load_jobs", ()):
            at = self._awaiting_load.pop(job["req_id"], None)
            if at is None:
                loads.append(job)
            else:
                self._insert(job, at, "LoadJobScheduled")
        # vLLM builds a finished request's last store here, one step after the finish, from the blocks it freed
        # (its fence guards them): the store kvledger makes at the finish, so it is written there.
        finished, self._awaiting_finish = self._awaiting_finish, {}
        store_jobs = []
        for job in r.get("store_jobs", ()):
            if job["req_id"] in finished:
                self._insert(job, finished[job["req_id"]], "StoreJobScheduled")
                for rid, index in finished.items():
                    if index >= finished[job["req_id"]] and rid != job["req_id"]:
                        finished[rid] = index + 1
            else:
                store_jobs.append(job)
        self.step += 1
        for rid in r.get("preempted_req_ids", ()):
            req = self._requests.get(rid)
            if req is None or req.finished:
                continue
            self._command("PreemptRequest", requestId=rid)
            flushed = sorted(j for j in r.get("jobs_to_flush", ()) if self._jobs.get(j, (None, None))[1] == rid)
            self._event("RequestPreempted", requestId=rid)
            if flushed:
                self._event("FlushRequired", jobIds=flushed, blockIds=self._job_blocks(flushed))
            if any(_held(req)):
                self._event("BlocksReleased", requestId=rid, blockIds=self.geometry.shape(_held(req)))
            req.tables = self.geometry.empty()
            req.held = False
            req.computed = 0
        # vLLM decides a step's stores together, after all of the step's scheduling; each is written right
        # after the last fact of its request in the step, where the contract's rules would make it.
        stores = {}
        for job in store_jobs:
            stores.setdefault(job["req_id"], []).append(job)
        for sched in r.get("scheduled", ()):
            rid = sched["request"]["request_id"]
            req = self._ensure(sched["request"])
            self._sync_tokens(sched["request"])
            blocks = self.geometry.lists(sched.get("block_ids"))
            if sched.get("new") or sched.get("resumed"):
                # A new or resumed request's data lists its whole table; report only what kvledger has not
                # seen (a load's allocation was reported when vLLM made it).
                blocks = _tail(blocks, req.tables)
            if any(blocks):
                self._allocate(rid, req, blocks, 0)
            tokens = r["num_scheduled_tokens"].get(rid, 0)
            if tokens > 0:
                req.computed += tokens
                self._command("ComputeTokens", requestId=rid, tokens=tokens)
                self._event("TokensComputed", requestId=rid, numComputedTokens=req.computed)
                for job in stores.pop(rid, ()):
                    self._schedule(job, "StoreJobScheduled")
        flush_others = sorted(j for j in r.get("jobs_to_flush", ())
                              if j in self._jobs and self._jobs[j][1] not in r.get("preempted_req_ids", ()))
        if flush_others:
            self._event("FlushRequired", jobIds=flush_others, blockIds=self._job_blocks(flush_others))
        for job in loads:
            self._schedule(job, "LoadJobScheduled")
        for jobs in stores.values():  # stores of requests not scheduled this step (finished ones)
            for job in jobs:
                self._schedule(job, "StoreJobScheduled")

    def _on_update_connector_output(self, r):
        invalid = set(r.get("invalid_block_ids", ()))
        for job_id, count in sorted(r.get("completed_jobs", {}).items()):
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

    def _on_request_finished(self, r):
        rid = r["request"]["request_id"]
        req = self._ensure(r["request"])
        if req.finished:
            return
        self._sync_tokens(r["request"])
        status = r["request"].get("status", "")
        if status == "FINISHED_ABORTED":
            self._command("AbortRequest", requestId=rid)
            self._event("RequestAborted", requestId=rid)
        else:
            reason = STATUS_REASONS.get(status, "STOPPED")
            self._command("FinishRequest", requestId=rid, reason=reason)
            self._event("RequestFinished", requestId=rid, reason=reason)
        req.finished = True
        self._awaiting_finish[rid] = len(self.events)
        delay_free = bool(r.get("result", (False, None))[0])
        if req.held and not delay_free:
            if any(_held(req)):
                self._event("BlocksReleased", requestId=rid, blockIds=self.geometry.shape(_held(req)))
            req.held = False

    def _on_remove_skipped_blocks(self, r):
        """vLLM's KV cache manager freed sliding-window blocks outside a running request's window: they become
        null in its table, as vLLM replaces them with its null block (contract 7.3, 7.9)."""
        rid = r["request_id"]
        req = self._requests.get(rid)
        if req is None:
            raise ValueError("remove_skipped_blocks freed blocks of request %s, which the capture never saw" % rid)
        group = int(r["group"])
        freed = [int(b) for b in r["block_ids"]]
        lists = self.geometry.empty()
        lists[group] = freed
        self._command("FreeWindowBlocks", requestId=rid, blockIds=self.geometry.shape(lists))
        self._event("WindowBlocksFreed", requestId=rid, blockIds=self.geometry.shape(lists))
        table = req.tables[group]
        for block in freed:
            if block in table:
                table[table.index(block)] = None

    def _on_take_events(self, r):
        """Chunks the CPU tier evicted (vLLM's BlockRemoved events of medium CPU)."""
        if r.get("removed"):
            self._event("ChunksEvicted", keys=list(r["removed"]))

    def _on_reset_cache(self, r):
        self._command("ResetCache")
        in_flight = sorted(self._jobs)
        self._event("CacheReset", staleBelowJobId=self._next_job)
        self._stale_below = self._next_job
        if in_flight:
            self._event("FlushRequired", jobIds=in_flight, blockIds=self._job_blocks(in_flight))
        self._jobs.clear()
        for req in self._requests.values():
            req.jobs.clear()

    # --- helpers -----------------------------------------------------------------------------------

    def _ensure(self, request):
        rid = request["request_id"]
        req = self._requests.get(rid)
        if req is None:
            prompt = list(request["prompt_token_ids"])
            req = self._requests[rid] = _Request(len(prompt), self.geometry.count)
            self._command("RegisterRequest", requestId=rid, promptTokens=prompt)
            self._event("RequestRegistered", requestId=rid, promptLength=len(prompt), promptTokens=prompt)
        req.hashes.extend(request.get("new_hashes", ()))
        return req

    def _sync_tokens(self, request):
        """Output tokens vLLM appended, and speculative tokens it rejected, since kvledger last heard."""
        req = self._requests[request["request_id"]]
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
        chunks = [sorted({table.index(b) // self.per_chunk for b in group if b in table})
                  for table, group in zip(tables, blocks)]
        hashes = req.hashes if req is not None else []
        keys = [[geometry.key(hashes, g, i) for i in group] for g, group in enumerate(chunks)]
        job_id = int(job["job_id"])
        self._jobs[job_id] = (event_type, rid, blocks, 0)
        self._next_job = max(self._next_job, job_id + 1)
        if req is not None:
            req.jobs.add(job_id)
        self._event(event_type, jobId=job_id, requestId=rid, chunkIndices=geometry.shape(chunks),
                    keys=geometry.shape(keys), blockIds=geometry.shape(blocks))
        self._keys_of[job_id] = _flat(keys)

    def _complete(self, job_id, success=True):
        self._command("CompleteTransfer", jobId=job_id, success=success)
        job = self._jobs.get(job_id)
        if job is None:
            if job_id < self._stale_below:  # vLLM ignores it, as kvledger refuses it
                self._event("CommandRejected", line=len(self.commands) + 1, cmd="CompleteTransfer", code="STALE_JOB",
                            message="job %d was dropped by a reset (stale below %d)" % (job_id, self._stale_below),
                            jobId=job_id)
            return  # a completion vLLM ignores (below its stale threshold, or unknown)
        kind, rid, blocks, done = job
        done += 1
        if done < self.workers:
            self._jobs[job_id] = (kind, rid, blocks, done)
            self._event("TransferAcknowledged", jobId=job_id, requestId=rid, success=success)
            return
        del self._jobs[job_id]
        req = self._requests.get(rid)
        if req is not None:
            req.jobs.discard(job_id)
        if kind == "StoreJobScheduled":
            self._event("StoreJobCompleted", jobId=job_id, requestId=rid, success=True)
            keys = self._keys_of.get(job_id, [])
            if keys:
                self._event("ChunksStored", keys=keys)
        else:
            self._event("LoadJobCompleted", jobId=job_id, requestId=rid, success=success)

    def _insert(self, job, at, event_type):
        """A job at ``at`` (after the fact that made it); the events after it move one seq on."""
        tail = self.events[at:]
        del self.events[at:]
        self._seq = self.events[-1]["seq"] if self.events else 0
        step, self.step = self.step, (self.events[-1]["step"] if self.events else self.step)
        self._schedule(job, event_type)
        self.step = step
        for event in tail:
            self._seq += 1
            event["seq"] = self._seq
            self.events.append(event)
        for awaiting in (self._awaiting_load, self._awaiting_finish):
            for rid, index in awaiting.items():
                if index > at:
                    awaiting[rid] = index + 1

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

    def _event(self, type_, **fields):
        self._seq += 1
        line = {"seq": self._seq, "type": type_}
        line.update(fields)
        line["step"] = self.step  # not in the contract: which scheduler step (build_connector_meta) it belongs to
        self.events.append(line)


def _tail(blocks, tables):
    """Per group, the blocks of a whole table that a known table does not hold yet."""
    return [b[len(t):] if b[:len(t)] == t else b for b, t in zip(blocks, tables)]


def _held(req):
    """Per group, the blocks a request's tables hold: its non-null entries (frees made them null)."""
    return [[b for b in table if b is not None] for table in req.tables]


def _flat(lists):
    return [b for group in lists for b in group]
