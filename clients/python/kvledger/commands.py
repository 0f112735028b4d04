"""Commands in the scenario format (contract section 2), as the dicts :meth:`Ledger.step` sends."""


def register(request_id, prompt_tokens):
    return {"cmd": "RegisterRequest", "requestId": request_id, "promptTokens": list(prompt_tokens)}


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
