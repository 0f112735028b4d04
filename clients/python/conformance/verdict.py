"""What a finding of ``kvledger audit`` on a capture of vLLM's real scheduler means: its class (contract 9.2),
and whether it is vLLM's own fault or a departure contract 7.11 names. Plain Python, no vLLM: the harness and
the default suite's replay of the recordings both use it.
"""

import collections
import json
import re

# Contract 9.2's table: the codes of the policy class (every other code is safety). Three codes have a case of
# the other class, which the finding's reason names; see classify().
POLICY_CODES = {"DUPLICATE_STORE", "STORE_MISSING", "STORE_SPLIT", "STORE_WITHOUT_TRIGGER", "STORE_DEFERRED_MISMATCH",
                "EVICTION_NOT_LRU", "MATCH_MISMATCH", "FLUSH_MISMATCH", "RELEASE_MISMATCH", "STORE_NOT_OFFERED"}

FINDING = re.compile(r"seq (\d+) (\w+)(?: request (\S+?))?:? (.*)")


def parse(audit_stdout):
    """The findings of an audit's output: dicts with seq, code, request (or None), reason and class."""
    findings = []
    for line in audit_stdout.splitlines():
        m = FINDING.match(line)
        if m:
            findings.append({"seq": int(m.group(1)), "code": m.group(2),
                             "request": None if m.group(3) in (None, "-") else m.group(3),
                             "reason": m.group(4), "class": classify(m.group(2), m.group(4))})
    return findings


def classify(code, reason):
    """The class of one finding by contract 9.2 (what ``audit --rules safety`` decides, where the jar has it)."""
    if code == "STORE_BEYOND_BOUND":
        # the policy case: within min(c, n) but past a cap (maxOffloadTokens, offloadPromptOnly)
        return "policy" if re.search(r"maxOffloadTokens|offloadPromptOnly", reason) else "safety"
    if code == "MATCH_MISMATCH":
        return "safety" if "skipReadingPrefixCache" in reason else "policy"
    if code == "RELEASE_MISMATCH":
        return "safety" if re.search(r"does not hold|WAITING|LOADING|RUNNING|PREEMPTED", reason) else "policy"
    return "policy" if code in POLICY_CODES else "safety"


def vllm_own(finding):
    """The name of vLLM's own fault a safety finding shows, or None.

    vllm#54193 (fixed by #54288, a week after the snapshot): the store vLLM makes at a finish covers
    ``num_tokens`` tokens (offloading/scheduler.py, ``num_tokens_after_batch = req.num_tokens`` for a finished
    request), the last sampled one included, whose KV slot no forward pass wrote. kvledger's bound there is
    ``O = min(c, n)`` with ``c = n - 1``: ``STORE_BEYOND_BOUND`` of a FINISHED request, ``c = n - 1``.
    """
    if finding["code"] == "STORE_BEYOND_BOUND":
        m = re.search(r"\(FINISHED\), where c=(\d+), n=(\d+)", finding["reason"])
        if m and int(m.group(1)) == int(m.group(2)) - 1:
            return "vllm#54193"
    return None


#: vLLM's final store of a request that finished while preempted (see finished_while_preempted).
PREEMPTED_FINISH = "vLLM: a finish while preempted stores freed blocks"


def finished_while_preempted(finding, events):
    """Whether a safety finding is vLLM's final store of a request that finished while preempted, from the blocks
    its preemption freed (``STORE_BEYOND_ALLOCATED``, and ``STORE_BEYOND_BOUND`` with ``c = 0``).

    Under asynchronous scheduling the output of a step scheduled before a preemption arrives after it, and its
    sampled token may finish the preempted request (``core/sched/scheduler.py``, ``update_from_output``:
    ``stopped_preempted_reqs``). vLLM's offloading scheduler then builds the final store from the request's block
    ids, which it clears only when the request resumes (``offloading/scheduler.py`` 1117-1119), over
    ``num_tokens`` tokens for a finish other than an abort (1264-1266): blocks the preemption freed, possibly
    handed out already. Its finish fence flushes only blocks allocated in the store's own batch (1434-1439), so a
    block handed out in between is stored under this request's key. #49285 closed this hole for aborts
    (``num_computed_tokens``, 0 after a preemption), not for finishes. The log shows it as vLLM made it:
    ``RequestPreempted``, ``BlocksReleased``, then ``RequestFinished`` and the store, with no allocation between.
    """
    if finding["code"] not in ("STORE_BEYOND_ALLOCATED", "STORE_BEYOND_BOUND") or finding["request"] is None:
        return False
    if finding["code"] == "STORE_BEYOND_BOUND" and "where c=0" not in finding["reason"]:
        return False
    rid, preempted, finished = finding["request"], False, False
    for e in events:
        if e["seq"] == finding["seq"]:
            return e.get("type") == "StoreJobScheduled" and preempted and finished
        if e.get("requestId") != rid:
            continue
        if e.get("type") == "RequestPreempted":
            preempted, finished = True, False
        elif e.get("type") == "BlocksAllocated":
            preempted = False
        elif e.get("type") == "RequestFinished" and preempted:
            finished = True
    return False


#: The eviction for a store of contract 7.11.7's departure (see judge).
RESTORE = "7.11.7 (the room of a chunk stored again after a shorter reload)"


def departure(finding, events):
    """The contract 7.11 departure a finding shows, or None. ``events``: the audited log, a list of dicts.

    7.11.1: vLLM may still store a chunk from a sliding-window block its KV cache manager freed (not yet
    reused); kvledger does not store it. A store job of that request naming a block the log freed for it
    (``WindowBlocksFreed``) before the job shows it.
    """
    if finding["code"] not in ("STORE_SLICE_MISMATCH", "STORE_BEYOND_ALLOCATED") or finding["request"] is None:
        return None
    rid, freed = finding["request"], set()
    for e in events:
        if e["seq"] == finding["seq"]:
            if e.get("type") != "StoreJobScheduled":
                return None
            groups = e["blockIds"] if e["blockIds"] and isinstance(e["blockIds"][0], list) else [e["blockIds"]]
            named = {(g, b) for g, blocks in enumerate(groups) for b in blocks if b is not None}
            return "7.11.1 (a store from a freed sliding-window block)" if named & freed else None
        if e.get("requestId") == rid and e.get("type") == "WindowBlocksFreed":
            freed.update((g, b) for g, blocks in enumerate(e["blockIds"]) for b in blocks)
    return None


#: Contract 7.11.5's departure (see late_final_store_findings).
LATE_FINAL_STORE = "departure 7.11.5 (vLLM builds the final store a step later)"

# the tier codes a store the log shows out of vLLM's order turns into (contract 9.2: all safety)
LATE_FINAL_STORE_CODES = {"EVICTION_INVALID", "TIER_OVER_CAPACITY", "EVICTION_MISSING", "CHUNKS_STORED_MISMATCH"}


def late_final_store_findings(findings, events):
    """The seqs of the safety findings contract 7.11.5's departure explains. ``events``: the audited log.

    The log (the model's order, 7.11.5) shows a finished request's final store at its finish, in step S; vLLM
    builds that store in its next build, step S + 1, after that step's other stores, so it chose step S + 1's
    evictions against a tier holding those stores and not yet the final one. So where the log schedules another
    store in step L = S + 1, a tier finding (``LATE_FINAL_STORE_CODES``) in step L or L + 1 is named; so is one
    within two steps of a finding already named, as the audit's tier and vLLM's differ from there until they meet
    again (the 210 harness logs: such runs go on for up to nine steps, with at most one step without a finding
    between two). (The log numbers jobs in its own order, so vLLM's later numbering of the final store is not in
    it; that S + 1 is the step vLLM builds it in is its code: ``offloading/scheduler.py`` builds a finished
    request's store from ``_finished_reqs_to_store`` at the next ``build_connector_meta``.)
    """
    steps = {e["seq"]: e.get("step") for e in events}
    store_steps = {e["step"] for e in events if e.get("type") == "StoreJobScheduled" and e.get("step") is not None}
    finished, windows = set(), set()
    for e in events:
        if e.get("type") == "RequestFinished":
            finished.add(e["requestId"])
        elif e.get("type") == "StoreJobScheduled" and e["requestId"] in finished and e.get("step") is not None:
            if e["step"] + 1 in store_steps:
                windows.update((e["step"] + 1, e["step"] + 2))
    named, last = set(), None
    for f in sorted(findings, key=lambda f: f["seq"]):
        step = steps.get(f["seq"])
        if f["class"] != "safety" or f["code"] not in LATE_FINAL_STORE_CODES or step is None:
            continue
        if step in windows or (last is not None and step - last <= 2):
            named.add(f["seq"])
            last = step
    return named


#: Contract 7.11.5's departure where vLLM evicts a chunk of the final store before building it (see
#: restored_final_store_findings).
RESTORED_FINAL_STORE = "departure 7.11.5 (vLLM stores again a chunk of the final store evicted before it built it)"


def _flat_keys(keys):
    return [k for g in keys for k in g] if keys and isinstance(keys[0], list) else list(keys or ())


def restored_final_store_findings(findings, events):
    """The seqs of the findings made while vLLM's CPU tier holds chunks the log's does not, because of contract
    7.11.5's placement. ``events``: the audited log.

    A finished request's final store F is written at its finish, in step S, where the log's tier may already hold
    some of its chunks (a prefix another request stored): the log makes no room for them. vLLM builds F in step
    S + 1, after that step's other stores (``offloading/scheduler.py`` ``_build_store_jobs``: the scheduled
    requests, then ``finished_req_ids``); where one of those stores evicts such a chunk k, F's ``prepare_store``
    finds k gone and stores it again. The log shows that eviction in step S + 1, after F: vLLM's tier holds k, the
    log's does not, until vLLM evicts k again (a ``ChunksEvicted`` naming it), the log stores it again, or a reset.
    While such chunks are held only by vLLM, it evicts for room the log's tier does not lack, as many chunks more
    as it holds so: an ``EVICTION_INVALID`` made then (or at the eviction of such a chunk) whose log evicts more
    chunks than the rules give, by at most that many, is named.
    """
    held, ended, finals, restored, named = set(), set(), {}, set(), set()
    at = {f["seq"]: f for f in findings if f["class"] == "safety" and f["code"] == "EVICTION_INVALID"}
    for e in events:
        t = e.get("type")
        if e["seq"] in at and restored and 0 < _eviction_excess(at[e["seq"]]) <= len(restored):
            named.add(e["seq"])
        if t == "ChunksEvicted":
            keys = set(_flat_keys(e.get("keys")))
            restored -= keys
            for step, kept in finals.values():
                if e.get("step") is not None and e["step"] == step + 1:
                    restored |= kept & keys
            held -= keys
        elif t in ("RequestFinished", "RequestAborted"):
            ended.add(e["requestId"])
        elif t == "StoreJobScheduled":
            keys = set(_flat_keys(e.get("keys")))
            if e.get("requestId") in ended and e.get("step") is not None:
                finals[e.get("jobId")] = (e["step"], held & keys)
            restored -= keys
            held |= keys
        elif t == "StoreJobCompleted":
            finals.pop(e.get("jobId"), None)
        elif t == "CacheReset":
            held, restored, finals = set(), set(), {}
    return named


#: The eviction for chunks of contract 7.11.1's departure (see freed_window_room).
FREED_WINDOW_ROOM = "7.11.1 (the room of a store from a freed sliding-window block)"

_EVICTED_KEYS = re.compile(r"(the rules give|the log shows) ChunksEvicted \{keys=\[([^\]]*)\]\}")


def _evicted_keys(finding):
    """The (abridged) keys of an ``EVICTION_INVALID``'s evictions: (the rules', ``[]`` if they give none; the log's,
    or None)."""
    given = {side: [k for k in keys.split(", ") if k] for side, keys in _EVICTED_KEYS.findall(finding["reason"])}
    return given.get("the rules give", []), given.get("the log shows")


def _eviction_excess(finding):
    """How many chunks more the log's eviction takes than the rules' (0 if the reason names no eviction of the log)."""
    rules, log = _evicted_keys(finding)
    return 0 if log is None else len(log) - len(rules)


def freed_window_room(finding, findings, events):
    """Whether an ``EVICTION_INVALID`` is the room vLLM makes for chunks of contract 7.11.1's departure: the next
    event is a store with a 7.11.1 finding (:func:`departure`), whose chunks from window blocks the log freed for
    its request vLLM stores and the rules do not; the log's eviction names the rules' victims and at most that many
    more."""
    if finding["code"] != "EVICTION_INVALID":
        return False
    store = [g for g in findings if g["seq"] == finding["seq"] + 1 and departure(g, events)]
    if not store:
        return False
    rules, log = _evicted_keys(finding)
    if log is None or not set(rules) <= set(log) or len(log) <= len(rules):
        return False
    rid, freed = store[0]["request"], set()
    for e in events:
        if e["seq"] == store[0]["seq"]:
            groups = e["blockIds"] if e["blockIds"] and isinstance(e["blockIds"][0], list) else [e["blockIds"]]
            from_freed = sum(1 for g, blocks in enumerate(groups) for b in blocks if (g, b) in freed)
            return len(log) - len(rules) <= from_freed
        if e.get("requestId") == rid and e.get("type") == "WindowBlocksFreed":
            freed.update((g, b) for g, blocks in enumerate(e["blockIds"]) for b in blocks)
    return False


def read_events(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# Safety codes a policy difference of the tier (EVICTION_NOT_LRU) turns into later on, for as long as the audit
# keeps its own tier instead of following the log's (issue 30 asks it to follow the log's).
TIER_CASCADE = {"EVICTION_INVALID", "EVICTION_MISSING", "TIER_OVER_CAPACITY", "LOAD_NOT_READY",
                "CHUNKS_STORED_MISMATCH"}


def judge(findings, events):
    """Marks each finding with ``vllm`` (vLLM's own fault), ``departure`` (7.11) or ``cascade`` (a safety code
    that follows an earlier ``EVICTION_NOT_LRU`` of the same log); returns the unexplained safety findings (a
    capture fault or an unknown fault of vLLM: what the harness fails on).

    The eviction vLLM makes for vllm#54193's store, or for the store of a finish while preempted
    (``EVICTION_INVALID``, "no store of this command needs the room", just before that store) is vLLM's fault too:
    kvledger makes no such store, so it needs no room.
    """
    for f in findings:
        f["vllm"] = vllm_own(f) if f["class"] == "safety" else None
        if f["vllm"] is None and f["class"] == "safety" and finished_while_preempted(f, events):
            f["vllm"] = PREEMPTED_FINISH
    bad_stores = {f["seq"]: f["vllm"] for f in findings if f["vllm"]}
    # stores of chunks the request already stored since the last reset (DUPLICATE_STORE, policy)
    restores = {f["seq"] for f in findings if f["code"] == "DUPLICATE_STORE" and "already stored" in f["reason"]}
    first_lru = min([f["seq"] for f in findings if f["code"] == "EVICTION_NOT_LRU"], default=None)
    late_final = late_final_store_findings(findings, events)
    restored_final = restored_final_store_findings(findings, events)
    unexplained = []
    for f in findings:
        f["departure"] = f["cascade"] = None
        if f["class"] != "safety" or f["vllm"]:
            continue
        if f["code"] == "EVICTION_INVALID" and "no store of this command needs the room" in f["reason"] and \
                f["seq"] + 1 in bad_stores:
            f["vllm"] = bad_stores[f["seq"] + 1]  # the room vLLM makes for its own faulty store
            continue
        if f["code"] == "EVICTION_INVALID" and "no store of this command needs the room" in f["reason"] and \
                f["seq"] + 1 in restores:
            # contract 7.11.7: after a preemption and a shorter reload vLLM sets the cursor to the load's end and
            # stores again the chunks its tier lost since (prepare_store filters only the held ones); the rules'
            # cursor is past them, so they make no such store and need no room for it
            f["departure"] = RESTORE
            continue
        f["departure"] = departure(f, events) or (FREED_WINDOW_ROOM if freed_window_room(f, findings, events) else
                                                  RESTORED_FINAL_STORE if f["seq"] in restored_final else
                                                  LATE_FINAL_STORE if f["seq"] in late_final else None)
        if not f["departure"] and first_lru is not None and f["seq"] >= first_lru and f["code"] in TIER_CASCADE:
            f["cascade"] = "after EVICTION_NOT_LRU at seq %d" % first_lru
        if not f["departure"] and not f["cascade"]:
            unexplained.append(f)
    return unexplained


# ------------------------------------------------------------------------------------------------------------
# the diff's first difference, named
#
# ``kvledger diff`` prints only the first unit (a captured scheduler step) where kvledger's run of the captured
# commands and vLLM's log disagree; every unit before it agrees, so the CPU tiers agree before it too. Each event
# that differs in that step is named by one of these kinds (the audit's judged findings at its seq help); a kind
# not named makes the harness fail.
DIFF_KINDS = {
    "eviction order": "policy: the step's evictions differ and nothing else does, or the rules store again chunks "
                      "their own eviction of the step took and vLLM's did not (vLLM's CPU LRU makes a store's chunks "
                      "evictable in Python set order and touches every key of a request, contract 7.11.4)",
    "vllm#54193": "vLLM's own fault: its finish-time store past c (and the eviction and flush it makes for it)",
    "7.11.2": "contract 7.11.2: vLLM's lookup defers (a chunk being written) where the rules answer",
    "7.11.1": "contract 7.11.1: vLLM offers or stores a sliding-window chunk whose block its KV cache manager freed, "
              "or flushes a store whose sliding-window source block a GPU-prefix hit of the step shares while the "
              "store's owner still holds it (vLLM fences such blocks from the store's creation, the rules from the free); "
              "or leaves out of an offer window chunks whose held blocks a GPU-prefix hit of the step shares (vLLM zeroes "
              "their ids), or the rules defer for the room their side of such an offer took",
    "flush blocks": "policy (contract 9.2): a flush of the same jobs naming more of their blocks than the ones handed "
                    "out (vLLM flushes whole jobs, jobs_to_flush)",
}

_POSITION = {"seq", "step", "envelope", "message", "line", "producer"}
_DIFF_SEQ = re.compile(r"^\s+(?:then )?seq (\d+) ")


def _names(events):
    """Key and job names as ``kvledger diff`` compares them: a key by the first request chunk it names (per group
    with groups), a job by what it moves and which such job of the log it is."""
    keys, jobs, alike = {}, {}, collections.Counter()
    for e in events:
        k, c, r = e.get("keys"), e.get("chunkIndices"), e.get("requestId")
        if k is not None and c is not None and r is not None and len(k) == len(c):
            grouped = bool(k) and isinstance(k[0], list)
            for g in range(len(k) if grouped else 1):
                for key, chunk in zip(*((k[g], c[g]) if grouped else (k, c))):
                    keys.setdefault(key, "%s%s#%s" % (r, "#g%d" % g if grouped else "", chunk))
        if e.get("type") in ("StoreJobScheduled", "LoadJobScheduled"):
            what = "%s %s %s" % (e["type"][:-12].lower(), r, json.dumps(c, separators=(",", ":")))
            alike[what] += 1
            jobs.setdefault(e["jobId"], what if alike[what] == 1 else "%s #%d" % (what, alike[what]))
    return keys, jobs


def _normalized(e, keys, jobs):
    out = {}
    for field, value in e.items():
        if field in _POSITION:
            continue
        if field == "keys":
            value = [[keys.get(x, x) for x in g] if isinstance(g, list) else keys.get(g, g) for g in value]
        elif field == "jobId":
            value = jobs.get(value, value)
        elif field == "jobIds":
            value = sorted(str(jobs.get(x, x)) for x in value)
        out[field] = value
    return json.dumps(out, sort_keys=True)


def _diff_seqs(diff_text):
    """The seqs the diff prints for each log: (kvledger's run, the capture)."""
    sides, seqs = -1, ([], [])
    for line in diff_text.splitlines():
        if line.startswith("  ") and not line.startswith("   ") and line.rstrip().endswith(":"):
            sides += 1
        else:
            m = _DIFF_SEQ.match(line)
            if m and 0 <= sides <= 1:
                seqs[sides].append(int(m.group(1)))
    return seqs


def first_difference(diff_exit, diff_text, run_events, captured_events, findings):
    """The kinds of the diff's first difference: ``{"kinds": [...], "unnamed": [events], "step": N}``; kinds is
    ``["agree"]`` when the logs agree. ``findings``: the capture's audit findings, judged (:func:`judge`)."""
    if diff_exit == 0:
        return {"kinds": ["agree"], "unnamed": []}
    if diff_exit != 1 or not diff_text.startswith("first disagreement"):
        return {"kinds": [], "unnamed": ["diff failed: " + diff_text[:300]]}
    run_seqs, captured_seqs = _diff_seqs(diff_text)
    sides = []
    for events, seqs in ((run_events, run_seqs), (captured_events, captured_seqs)):
        keys, jobs = _names(events)
        by_seq = {e["seq"]: e for e in events}
        sides.append([(s, by_seq[s], _normalized(by_seq[s], keys, jobs)) for s in seqs if s in by_seq])
    run_count = collections.Counter(n for _, _, n in sides[0])
    captured_count = collections.Counter(n for _, _, n in sides[1])
    only_run = [(s, e) for s, e, n in sides[0] if _take(run_count, captured_count, n)]
    captured_count = collections.Counter(n for _, _, n in sides[1])
    run_count = collections.Counter(n for _, _, n in sides[0])
    only_vllm = [(s, e) for s, e, n in sides[1] if _take(captured_count, run_count, n)]
    judged = {}
    for f in findings:
        judged.setdefault(f["seq"], []).append(f)
    vllm_stores = {e["jobId"] for s, e in only_vllm if e["type"] == "StoreJobScheduled" and
                   any(f.get("vllm") for f in judged.get(s, ()))}
    freed = _freed_window_chunks(captured_events, max(captured_seqs, default=0))
    kinds, unnamed = set(), []
    deferred_run = {e["requestId"]: e for _, e in only_run if e["type"] == "StoreDeferred"}
    finished = {e["requestId"] for e in captured_events
                if e.get("type") == "RequestFinished" and e["seq"] <= max(captured_seqs, default=0)}
    evictions, store_kinds = [], {}
    for side, events in (("vllm", only_vllm), ("kvledger", only_run)):
        for s, e in events:
            if e["type"] == "ChunksEvicted" and not any(f.get("vllm") for f in judged.get(s, ()) if side == "vllm"):
                evictions.append((side, s, e))
                continue
            kind = _kind(side, s, e, judged, vllm_stores, freed, deferred_run, only_run, only_vllm, finished,
                         captured_events)
            if not kind and side == "kvledger" and e["type"] in ("StoreJobScheduled", "StoreDeferred"):
                kind = _counterpart_kind(e, store_kinds)
            if not kind:
                kind = _store_kind_in_step(side, e, only_run, only_vllm, run_events, captured_events, store_kinds)
            if kind and side == "vllm" and e["type"] in ("StoreJobScheduled", "StoreDeferred"):
                store_kinds.setdefault(e["requestId"], []).append((e, kind))
            if not kind and side == "vllm" and e["type"] == "FlushRequired" and \
                    not any(x["type"] == "FlushRequired" for _, x in only_run) and _held_window_hit(e, captured_events):
                kind = "7.11.1"
            if kind:
                kinds.add(kind)
            else:
                unnamed.append("%s seq %d %s" % (side, s, e["type"]))
    for side, s, e in evictions:
        # the tiers agree before this step (every unit before it agrees); where every other difference of the
        # step is named, the evictions differ only in their victims or their order
        if unnamed:
            unnamed.append("%s seq %d %s" % (side, s, e["type"]))
        else:
            kinds.add("eviction order")
    step = next((e.get("step") for _, e, _ in sides[1] if "step" in e), None)
    return {"kinds": sorted(kinds), "unnamed": unnamed, "step": step,
            "only_kvledger": [s for s, _ in only_run], "only_vllm": [s for s, _ in only_vllm]}


def _take(mine, theirs, name):
    """Whether this occurrence of ``name`` is one the other side lacks (counting occurrences down)."""
    if theirs[name] > 0:
        theirs[name] -= 1
        return False
    return True


def _freed_window_chunks(events, up_to):
    """(request, group) pairs whose window blocks the log freed before ``up_to``."""
    return {(e["requestId"], g) for e in events if e["seq"] <= up_to and e.get("type") == "WindowBlocksFreed"
            for g, blocks in enumerate(e["blockIds"]) if blocks}


def _nearest(events, rid, types, seq):
    """The chunks of the other log's event of these types and request nearest ``seq`` (a step may offer twice)."""
    near = [(abs(s - seq), x["chunkIndices"]) for s, x in events if x["type"] in types and x.get("requestId") == rid]
    return min(near, key=lambda dx: dx[0])[1] if near else None


def _counterpart_kind(rule_store, store_kinds):
    """The kind of the rules' side of a store vLLM makes otherwise: kvledger's store or deferral of a request whose
    vLLM-only store or deferral in the step is named, of the same chunks or fewer in each group (vLLM's side names
    the departure; the rules' side is the same offer without it)."""
    named = store_kinds.get(rule_store["requestId"])
    if not named:
        return None
    named = min(named, key=lambda ek: abs(ek[0]["seq"] - rule_store["seq"]))
    vllm_chunks, rule_chunks = named[0]["chunkIndices"], rule_store["chunkIndices"]
    grouped = bool(vllm_chunks) and isinstance(vllm_chunks[0], list)
    if grouped != (bool(rule_chunks) and isinstance(rule_chunks[0], list)):
        return None
    pairs = zip(vllm_chunks, rule_chunks) if grouped else [(vllm_chunks, rule_chunks)]
    return named[1] if all(set(r) <= set(v) for v, r in pairs) else None


def _kind(side, seq, e, judged, vllm_stores, freed, deferred_run, only_run, only_vllm, finished, events=()):
    t = e["type"]
    own = judged.get(seq, ()) if side == "vllm" else ()
    if any(f.get("vllm") == "vllm#54193" for f in own):
        return "vllm#54193"
    if any((f.get("departure") or "").startswith("7.11.1") for f in own):
        return "7.11.1"
    if t == "FlushRequired" and side == "vllm" and set(e["jobIds"]) <= vllm_stores:
        return "vllm#54193"  # the flush of vLLM's own finish-time store
    if t == "StoreDeferred":
        mine = e["chunkIndices"]
        # the rules defer too, or store what vLLM defers (the room vLLM's larger offer lacked), or offer nothing
        theirs = _nearest(only_run, e["requestId"], ("StoreDeferred", "StoreJobScheduled"), seq) \
            if side == "vllm" else None
        if side == "vllm" and theirs is None and not any(x.get("requestId") == e["requestId"] for _, x in only_run):
            theirs = [[] for _ in mine] if mine and isinstance(mine[0], list) else []
        if side == "kvledger":
            theirs, mine = mine, _nearest(only_vllm, e["requestId"], ("StoreDeferred",), seq)
        if theirs is not None and mine is not None and _more_of_freed_groups(mine, theirs, e["requestId"], freed):
            return "7.11.1"
        if theirs is not None and mine is not None and e["requestId"] in finished and \
                _last_chunk_past_computed(mine, theirs, e["requestId"], events, seq):
            # a finished request's offer of one chunk more, its last: vllm#54193's chunk, which had no room
            return "vllm#54193"
    if t == "FlushRequired":
        others = [x for _, x in (only_vllm if side == "kvledger" else only_run) if x["type"] == "FlushRequired"]
        for x in others:
            vllm_flush, rule_flush = (e, x) if side == "vllm" else (x, e)
            if len(vllm_flush["jobIds"]) == len(rule_flush["jobIds"]) and \
                    set(_flat_blocks(rule_flush["blockIds"])) <= set(_flat_blocks(vllm_flush["blockIds"])):
                return "flush blocks"
    if t in ("PrefixMatchDeferred", "PrefixMatched"):
        pair = [x for _, x in (only_vllm if side == "kvledger" else only_run) if x.get("requestId") == e["requestId"]]
        deferral = e if t == "PrefixMatchDeferred" else (pair[0] if pair else None)
        answer = e if t == "PrefixMatched" else (pair[0] if pair else None)
        if (deferral and answer and deferral["type"] == "PrefixMatchDeferred" and answer["type"] == "PrefixMatched"
                and (side == "vllm") == (t == "PrefixMatchDeferred") and deferral["reason"] == "CHUNK_WRITE_IN_FLIGHT"):
            return "7.11.2"
    return None


def _held_window_hit(flush, events):
    """A flush only vLLM makes where each flushed job is a store, not yet completed, of which a sliding-window source
    block, still held by the store's request (neither freed by a ``WindowBlocksFreed`` nor released), is one a
    GPU-prefix hit of another request allocates in the flush's step (within its hit blocks); the flush names only
    the jobs' blocks. vLLM fences a sliding-window source block from the store's creation and flushes every pending
    job of a block the step allocates (``offloading/scheduler.py`` ``_build_store_jobs`` fences ``fenced_block_ids``,
    ``build_connector_meta`` flushes ``_block_id_to_pending_jobs``); the rules fence it from its free, so a hit on a
    block its owner still holds flushes nothing here (contract 7.11.1)."""
    config = next((e for e in events if e.get("type") == "EngineConfigured"), None)
    groups = (config or {}).get("groups") or []
    window = [g for g, group in enumerate(groups) if group.get("kind") == "SLIDING_WINDOW"]
    if not window or not flush.get("jobIds"):
        return False
    before = [e for e in events if e["seq"] < flush["seq"]]
    stores = {e["jobId"]: e for e in before if e.get("type") == "StoreJobScheduled"}
    completed = {e["jobId"] for e in before if e.get("type") == "StoreJobCompleted"}
    step_allocations = [e for e in events if e.get("type") == "BlocksAllocated" and e.get("step") == flush.get("step")]
    job_blocks = set()
    for job in flush["jobIds"]:
        store = stores.get(job)
        if store is None or job in completed or not store["blockIds"] or not isinstance(store["blockIds"][0], list):
            return False
        owner = store["requestId"]
        job_blocks.update(_flat_blocks(store["blockIds"]))
        gone = {(g, b) for e in before if e.get("requestId") == owner and e.get("type") in ("WindowBlocksFreed",
                "BlocksReleased") for g, blocks in enumerate(e["blockIds"]) for b in blocks if b is not None}
        held = {(g, b) for g in window if g < len(store["blockIds"]) for b in store["blockIds"][g]
                if b is not None and (g, b) not in gone}
        if not any(_hit_blocks(a, groups, before) & held for a in step_allocations if a["requestId"] != owner):
            return False
    return set(_flat_blocks(flush["blockIds"])) <= job_blocks


def _hit_blocks(allocation, groups, before):
    """(group, block) pairs of an allocation within its request's last GPU-prefix hit (``gpuHitTokens``)."""
    match = next((e for e in reversed(before) if e.get("requestId") == allocation["requestId"]
                  and e.get("type") == "PrefixMatched"), None)
    hit = (match or {}).get("gpuHitTokens") or 0
    blocks = allocation["blockIds"]
    if not hit or not blocks or not isinstance(blocks[0], list):
        return set()
    return {(g, b) for g, ids in enumerate(blocks) for b in ids[:hit // groups[g]["blockSize"]] if b is not None}


def _last_chunk_past_computed(vllm_chunks, rule_chunks, rid, events, seq):
    """vLLM's offer names the rules' chunks and, in some groups, one more, that group's last, which reaches past the
    request's computed tokens (its last ``TokensComputed`` before ``seq``): vllm#54193's finish-time chunk."""
    config = next((e for e in events if e.get("type") == "EngineConfigured"), {})
    computed = next((e["numComputedTokens"] for e in reversed(events) if e["seq"] < seq
                     and e.get("requestId") == rid and e.get("type") == "TokensComputed"), None)
    grouped = bool(vllm_chunks) and isinstance(vllm_chunks[0], list)
    pairs = list(zip(vllm_chunks, rule_chunks)) if grouped else [(vllm_chunks, rule_chunks)]
    if computed is None or not pairs or (grouped and len(vllm_chunks) != len(rule_chunks)):
        return False
    groups = config.get("groups") or []
    more = False
    for g, (v, r) in enumerate(pairs):
        block = groups[g].get("blockSize") if grouped and g < len(groups) else config.get("gpuBlockSize")
        extra = set(v) - set(r)
        if not set(r) <= set(v) or len(extra) > 1 or (extra and extra != {max(v)}):
            return False
        if extra:
            # an eagle group holds its last chunk back, so its offer ends a chunk before the others'
            held_back = 1 if grouped and g < len(groups) and groups[g].get("eagle") else 0
            if not block or (max(v) + 1 + held_back) * block * (config.get("blocksPerChunk") or 1) <= computed:
                return False
            more = True
    return more


def _flat_blocks(blocks):
    return [b for g in blocks for b in g] if blocks and isinstance(blocks[0], list) else list(blocks)


def _more_of_freed_groups(vllm_chunks, rule_chunks, rid, freed):
    """vLLM's deferred offer names the rules' chunks and more, the more only in groups whose window blocks the
    log freed for that request (7.11.1: vLLM does not know of the free and still offers them)."""
    if not (vllm_chunks and isinstance(vllm_chunks[0], list)):
        return False
    for g, (v, r) in enumerate(zip(vllm_chunks, rule_chunks)):
        if not set(r) <= set(v):
            return False
        if set(v) != set(r) and (rid, g) not in freed:
            return False
    return True


# ------------------------------------------------------------------------------------------------------------
# a store or deferral of the first difference's step that another difference of the same step explains, or vLLM's
# zeroing of block ids a GPU-prefix hit of the step shares

def _store_kind_in_step(side, e, only_run, only_vllm, run_events, captured_events, store_kinds):
    """The kind of a store or deferral of the diff's first step, with the other log's store or deferral of the same
    request in the step (if any), that one of these shows, else None:

    - ``eviction order``: the rules store chunks vLLM's store leaves out (or make a store vLLM does not), each a
      chunk the rules evicted earlier in the same step and vLLM did not (:func:`_evicted_by_the_rules_in_step`);
    - ``7.11.1``: vLLM's offer leaves out window chunks whose blocks a GPU-prefix hit of the step shares
      (:func:`_zeroed_for_a_hit`), or the rules defer an offer vLLM stores for want of only the room the rules'
      side of a ``7.11.1`` store took earlier in the step (:func:`_room_of_a_departure_store`).
    """
    if e["type"] not in ("StoreJobScheduled", "StoreDeferred"):
        return None
    other = _pair(e, only_run if side == "vllm" else only_vllm)
    vllm_e, rule_e = (e, other) if side == "vllm" else (other, e)
    if _evicted_by_the_rules_in_step(vllm_e, rule_e, only_run, only_vllm, run_events, captured_events):
        return "eviction order"
    if _zeroed_for_a_hit(vllm_e, rule_e, captured_events):
        return "7.11.1"
    if _room_of_a_departure_store(vllm_e, rule_e, only_run, run_events, store_kinds):
        return "7.11.1"
    return None


def _pair(e, others):
    """The other log's store or deferral of ``e``'s request in the step, nearest ``e``; None if it has none."""
    near = [x for _, x in others if x["type"] in ("StoreJobScheduled", "StoreDeferred")
            and x.get("requestId") == e.get("requestId")]
    return min(near, key=lambda x: abs(x["seq"] - e["seq"])) if near else None


def _per_group_chunks(chunks):
    return chunks if chunks and isinstance(chunks[0], list) else [chunks]


def _evicted_by_the_rules_in_step(vllm_store, rule_store, only_run, only_vllm, run_events, captured_events):
    """The rules' store names the chunks of vLLM's store of the request in the step (or vLLM makes none) and more,
    each a chunk whose key the rules' own eviction evicted earlier in the same step, and vLLM's evictions of the step
    did not. The CPU tiers agree before the step (every unit before it agrees), so vLLM's tier still holds these
    chunks, and vLLM's CPU manager stores only the keys it lacks (``prepare_store``): the two LRU orders chose other
    victims in this step (contract 9.2's policy: which chunks are evicted first; vLLM's ``_touch`` makes every key a
    request looks up recent, contract 7.11.4). The harness's ``async_hybrid-0077``, ``hybrid_swa-0157`` and
    ``eagle-0081``."""
    if rule_store is None or rule_store["type"] != "StoreJobScheduled":
        return False
    if vllm_store is not None and vllm_store["type"] != "StoreJobScheduled":
        return False
    rule_groups = _per_group_chunks(rule_store["chunkIndices"])
    rule_keys = _per_group_chunks(rule_store["keys"])
    vllm_groups = _per_group_chunks(vllm_store["chunkIndices"]) if vllm_store else [[] for _ in rule_groups]
    if len(vllm_groups) != len(rule_groups) or len(rule_keys) != len(rule_groups):
        return False
    evicted = {k for s, x in only_run if x["type"] == "ChunksEvicted" and s < rule_store["seq"] for k in x["keys"]}
    run_names, _ = _names(run_events)
    vllm_names, _ = _names(captured_events)
    vllm_evicted = {vllm_names.get(k, k) for _, x in only_vllm if x["type"] == "ChunksEvicted" for k in x["keys"]}
    extra = []
    for v, r, keys in zip(vllm_groups, rule_groups, rule_keys):
        if not set(v) <= set(r) or len(keys) != len(r):
            return False
        extra += [key for chunk, key in zip(r, keys) if chunk not in v]
    return bool(extra) and all(k in evicted and run_names.get(k, k) not in vllm_evicted for k in extra)


def _zeroed_for_a_hit(vllm_deferral, rule_deferral, events):
    """Both defer the request's offer (or both store it), and vLLM's names in its sliding-window groups fewer chunks
    than the rules', each one whose block the request still holds (the log freed it not) and another request's
    allocation of the step shares within its GPU-prefix hit; any chunk vLLM's names more is one whose blocks the log
    freed for the request.

    Contract 7.11.1: vLLM is not told of window frees, so at each build it zeroes the request's pending-store block ids
    (from its store cursor) that any allocation of the step names (``offloading/scheduler.py``, ``_update_req_states``:
    ``_current_batch_allocated_block_ids``), a GPU-prefix hit's shared blocks included, and still offers the freed
    ones; the rules offer the held blocks and leave the freed ones out. The harness's ``async_hybrid-0091`` and
    ``hybrid_swa-0192`` (deferrals), ``async_hybrid-0320`` (stores)."""
    if vllm_deferral is None or rule_deferral is None or vllm_deferral["type"] != rule_deferral["type"] or \
            vllm_deferral["type"] not in ("StoreDeferred", "StoreJobScheduled"):
        return False
    v_groups, r_groups = vllm_deferral["chunkIndices"], rule_deferral["chunkIndices"]
    if not (v_groups and isinstance(v_groups[0], list)) or len(v_groups) != len(r_groups):
        return False
    config = next((x for x in events if x.get("type") == "EngineConfigured"), {})
    groups = config.get("groups") or []
    per_chunk = config.get("blocksPerChunk") or 1
    rid, seq, step = vllm_deferral["requestId"], vllm_deferral["seq"], vllm_deferral.get("step")
    if len(groups) != len(v_groups) or step is None:
        return False
    tables, freed = [[] for _ in groups], set()
    for x in events:
        if x["seq"] >= seq or x.get("requestId") != rid:
            continue
        if x.get("type") == "BlocksAllocated":
            for g, ids in enumerate(x["blockIds"][:len(groups)]):
                tables[g].extend(ids)
        elif x.get("type") == "RequestPreempted":
            tables = [[] for _ in groups]
        elif x.get("type") == "WindowBlocksFreed":
            freed.update((g, b) for g, ids in enumerate(x["blockIds"]) for b in ids)
    shared = set()
    for a in events:
        if a.get("type") == "BlocksAllocated" and a.get("step") == step and a.get("requestId") != rid:
            shared |= _hit_blocks(a, groups, [x for x in events if x["seq"] < a["seq"]])
    zeroed = False
    for g, (v, r) in enumerate(zip(v_groups, r_groups)):
        window = groups[g].get("kind") == "SLIDING_WINDOW"
        for chunk in set(r) - set(v):
            blocks = [(g, b) for b in tables[g][chunk * per_chunk:(chunk + 1) * per_chunk] if b is not None]
            if not window or not blocks or any(b in freed for b in blocks) or not any(b in shared for b in blocks):
                return False
            zeroed = True
        for chunk in set(v) - set(r):
            blocks = [(g, b) for b in tables[g][chunk * per_chunk:(chunk + 1) * per_chunk] if b is not None]
            if not window or not blocks or not all(b in freed for b in blocks):
                return False
    return zeroed


def _room_of_a_departure_store(vllm_store, rule_deferral, only_run, run_events, store_kinds):
    """vLLM stores an offer the rules defer (``TIER_FULL``, the same chunks), after the rules made, earlier in the
    step, a store that is the rules' side of a ``7.11.1`` offer (:func:`_counterpart_kind`: vLLM deferred that offer,
    larger by freed window chunks); and the rules' tier (capacity ``cpuCapacityChunks``, every chunk stored or being
    written counted) lacks the room for vLLM's store with those stores and has it without them. The tiers agree before
    the step, so the rules defer only for the room their side of the departure took. The harness's
    ``async_hybrid-0049``."""
    if vllm_store is None or rule_deferral is None or vllm_store["type"] != "StoreJobScheduled" or \
            rule_deferral["type"] != "StoreDeferred" or rule_deferral.get("reason") != "TIER_FULL" or \
            vllm_store["chunkIndices"] != rule_deferral["chunkIndices"]:
        return False
    departures = [x for s, x in only_run if x["type"] == "StoreJobScheduled" and s < rule_deferral["seq"]
                  and _counterpart_kind(x, store_kinds) == "7.11.1"]
    config = next((x for x in run_events if x.get("type") == "EngineConfigured"), {})
    capacity = config.get("cpuCapacityChunks")
    if not departures or not capacity:
        return False
    tier, jobs = set(), {}
    for x in run_events:
        if x["seq"] >= rule_deferral["seq"]:
            break
        if x.get("type") == "StoreJobScheduled":
            jobs[x["jobId"]] = set(_flat_blocks(x["keys"]))
            tier |= jobs[x["jobId"]]
        elif x.get("type") == "ChunksEvicted":
            tier -= set(x["keys"])
        elif x.get("type") == "StoreJobCompleted" and x.get("success") is False:
            tier -= jobs.get(x["jobId"], set())
        elif x.get("type") == "CacheReset":
            tier.clear()
    taken = len({k for x in departures for k in _flat_blocks(x["keys"])})
    needed = len(_flat_blocks(vllm_store["keys"]))
    return len(tier) + needed > capacity >= len(tier) - taken + needed
