"""Commands in the compact form ``[cmd, values...]`` (docs/serve-protocol.md, "Compact commands").

The same builders as :mod:`kvledger.commands`, returning arrays instead of dicts: the values in the order of
the contract's table, trailing defaults left out. :meth:`Ledger.step` sends either form (mixed, too); a
compact step is about half the bytes and costs Python about half as much to build and encode, which is what
a host on the scheduler's critical path wants.
"""


def register(request_id, prompt_tokens, *, max_offload_tokens=None, max_load_tokens=None,
             skip_reading_prefix_cache=None):
    """As :func:`kvledger.commands.register`. The controls take the positions after the prompt; when one is
    given after one that is not, the command is sent in the object form (an absent value has no position)."""
    if max_offload_tokens is None and max_load_tokens is None and skip_reading_prefix_cache is None:
        return ["RegisterRequest", request_id, list(prompt_tokens)]
    from . import commands
    command = commands.register(request_id, prompt_tokens, max_offload_tokens=max_offload_tokens,
                                max_load_tokens=max_load_tokens, skip_reading_prefix_cache=skip_reading_prefix_cache)
    values = [command.get(name) for name in ("maxOffloadTokens", "maxLoadTokens", "skipReadingPrefixCache")]
    while values[-1] is None:
        values.pop()
    if None in values:
        return command
    return ["RegisterRequest", request_id, command["promptTokens"]] + values


def match_prefix(request_id, gpu_hit_tokens=0):
    return ["MatchPrefix", request_id, gpu_hit_tokens]


def allocate(request_id, block_ids, external_tokens=0):
    return ["AllocateBlocks", request_id, list(block_ids), external_tokens]


def compute(request_id, tokens):
    return ["ComputeTokens", request_id, tokens]


def reject(request_id, tokens):
    return ["RejectTokens", request_id, tokens]


def append(request_id, tokens):
    return ["AppendTokens", request_id, list(tokens)]


def complete(job_id, success=True):
    return ["CompleteTransfer", job_id, success]


def preempt(request_id):
    return ["PreemptRequest", request_id]


def abort(request_id):
    return ["AbortRequest", request_id]


def finish(request_id, reason="STOPPED"):
    return ["FinishRequest", request_id, reason]


def reset_cache():
    return ["ResetCache"]


def free_window_blocks(request_id, block_ids):
    return ["FreeWindowBlocks", request_id, list(block_ids)]
