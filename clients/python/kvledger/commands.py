"""Commands in the scenario format (contract section 2), as the dicts :meth:`Ledger.step` sends."""


def _count(name, value):
    # As the server reads it (contract 9.1): an int >= 0; not None, a bool, a float such as 4.0 or a string.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("%s must be an integer >= 0, was %r" % (name, value))
    return value


def register(request_id, prompt_tokens, *, max_offload_tokens=None, max_load_tokens=None,
             skip_reading_prefix_cache=None):
    """A new request. The per-request controls of contract 9.1 are sent only when given (``None``: not given):
    ``max_offload_tokens`` (never store past this many tokens), ``max_load_tokens`` (load at most this many
    tokens beyond the GPU hit; 0: never load), ``skip_reading_prefix_cache`` (never look the request up in the
    CPU tier). A value the server would refuse raises :class:`ValueError` here."""
    command = {"cmd": "RegisterRequest", "requestId": request_id, "promptTokens": list(prompt_tokens)}
    _add_controls(command, max_offload_tokens, max_load_tokens, skip_reading_prefix_cache)
    return command


def _add_controls(command, max_offload_tokens, max_load_tokens, skip_reading_prefix_cache):
    if max_offload_tokens is not None:
        command["maxOffloadTokens"] = _count("max_offload_tokens", max_offload_tokens)
    if max_load_tokens is not None:
        command["maxLoadTokens"] = _count("max_load_tokens", max_load_tokens)
    if skip_reading_prefix_cache is not None:
        if not isinstance(skip_reading_prefix_cache, bool):
            raise ValueError("skip_reading_prefix_cache must be True or False, was %r" % (skip_reading_prefix_cache,))
        command["skipReadingPrefixCache"] = skip_reading_prefix_cache


def match_prefix(request_id, gpu_hit_tokens=0):
    return {"cmd": "MatchPrefix", "requestId": request_id, "gpuHitTokens": gpu_hit_tokens}


def allocate(request_id, block_ids, external_tokens=0):
    return {"cmd": "AllocateBlocks", "requestId": request_id, "blockIds": list(block_ids),
            "externalTokens": external_tokens}


def compute(request_id, tokens):
    return {"cmd": "ComputeTokens", "requestId": request_id, "tokens": tokens}


def reject(request_id, tokens):
    return {"cmd": "RejectTokens", "requestId": request_id, "tokens": tokens}


def append(request_id, tokens):
    return {"cmd": "AppendTokens", "requestId": request_id, "tokens": list(tokens)}


def complete(job_id, success=True):
    return {"cmd": "CompleteTransfer", "jobId": job_id, "success": success}


def preempt(request_id):
    return {"cmd": "PreemptRequest", "requestId": request_id}


def abort(request_id):
    return {"cmd": "AbortRequest", "requestId": request_id}


def finish(request_id, reason="STOPPED"):
    return {"cmd": "FinishRequest", "requestId": request_id, "reason": reason}


def reset_cache():
    return {"cmd": "ResetCache"}


def free_window_blocks(request_id, block_ids):
    """Sliding-window blocks the host freed (vLLM's ``remove_skipped_blocks``): one list per KV cache group."""
    return {"cmd": "FreeWindowBlocks", "requestId": request_id, "blockIds": list(block_ids)}
