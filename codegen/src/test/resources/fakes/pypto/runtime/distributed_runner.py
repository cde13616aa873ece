"""Fake pypto.runtime.distributed_runner: _submit_chip as pypto defines it, and _submit_chip_group only
when FAKE_RUNTIME_HAS_GROUP=1 (pypto's runtime does not have it yet; simpler's Orchestrator has
submit_next_level_group)."""

import os

EVENTS = []


def _resolve_chip_worker(orch, worker):
    if worker is not None:
        return worker
    count = getattr(orch, "_pypto_chip_count", 1)
    seq = getattr(orch, "_pypto_commless_seq", 0)
    orch._pypto_commless_seq = seq + 1
    return seq % count


def _submit_chip(orch, callable_id, task_args, config, worker):
    worker = _resolve_chip_worker(orch, worker)
    EVENTS.append(("_submit_chip", callable_id, worker))
    return orch.submit_next_level(callable_id, task_args, config, worker=worker)


if os.environ.get("FAKE_RUNTIME_HAS_GROUP") == "1":

    def _submit_chip_group(orch, callable_id, args_list, config, workers):
        EVENTS.append(("_submit_chip_group", callable_id, list(workers)))
        return orch.submit_next_level_group(callable_id, args_list, config, workers=workers)
