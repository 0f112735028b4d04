"""What a finding of ``kvledger audit`` on a capture of vLLM's real scheduler means: its class (contract 9.2),
and whether it is vLLM's own fault or a departure contract 7.11 names. Plain Python, no vLLM: the harness and
the default suite's replay of the recordings both use it.
"""

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
        f["departure"] = departure(f, events)
        if not f["departure"] and first_lru is not None and f["seq"] >= first_lru and f["code"] in TIER_CASCADE:
            f["cascade"] = "after EVICTION_NOT_LRU at seq %d" % first_lru
        if not f["departure"] and not f["cascade"]:
            unexplained.append(f)
    return unexplained
