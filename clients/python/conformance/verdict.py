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

    The log (the model's order, 7.11.5) shows a finished request's final store at its finish; vLLM builds that
    store a step later, after that step's other stores, so it chose that step's evictions against a tier holding
    those stores and not yet the final one. The log shows it: a store job of a request the log finished, whose job
    id is higher than that of a store the log schedules in a later step L. A tier finding
    (``LATE_FINAL_STORE_CODES``) in step L or L + 1 is named; so is one within two steps of a finding already
    named, as the audit's tier and vLLM's differ from there until they meet again (the 210 harness logs: such runs
    go on for up to nine steps, with at most one step without a finding between two).
    """
    steps = {e["seq"]: e.get("step") for e in events}
    stores = [e for e in events if e.get("type") == "StoreJobScheduled" and e.get("step") is not None]
    finished, windows = set(), set()
    for e in events:
        if e.get("type") == "RequestFinished":
            finished.add(e["requestId"])
        elif e.get("type") == "StoreJobScheduled" and e["requestId"] in finished and e.get("step") is not None:
            later = [x["step"] for x in stores if x["step"] > e["step"] and x["jobId"] < e["jobId"]]
            if later:
                windows.update((min(later), min(later) + 1))
    named, last = set(), None
    for f in sorted(findings, key=lambda f: f["seq"]):
        step = steps.get(f["seq"])
        if f["class"] != "safety" or f["code"] not in LATE_FINAL_STORE_CODES or step is None:
            continue
        if step in windows or (last is not None and step - last <= 2):
            named.add(f["seq"])
            last = step
    return named


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

    The eviction vLLM makes for vllm#54193's store (``EVICTION_INVALID``, "no store of this command needs the
    room", just before that store) is vLLM's fault too: kvledger makes no such store, so it needs no room.
    """
    for f in findings:
        f["vllm"] = vllm_own(f) if f["class"] == "safety" else None
    bad_stores = {f["seq"] for f in findings if f["vllm"] == "vllm#54193"}
    first_lru = min([f["seq"] for f in findings if f["code"] == "EVICTION_NOT_LRU"], default=None)
    late_final = late_final_store_findings(findings, events)
    unexplained = []
    for f in findings:
        f["departure"] = f["cascade"] = None
        if f["class"] != "safety" or f["vllm"]:
            continue
        if f["code"] == "EVICTION_INVALID" and "no store of this command needs the room" in f["reason"] and \
                f["seq"] + 1 in bad_stores:
            f["vllm"] = "vllm#54193"
            continue
        f["departure"] = departure(f, events) or (LATE_FINAL_STORE if f["seq"] in late_final else None)
        if not f["departure"] and first_lru is not None and f["seq"] >= first_lru and f["code"] in TIER_CASCADE:
            f["cascade"] = "after EVICTION_NOT_LRU at seq %d" % first_lru
        if not f["departure"] and not f["cascade"]:
            unexplained.append(f)
    return unexplained
