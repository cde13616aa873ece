"""Loads a generated host_orch.py like pypto's _load_orch_entry and runs it against a fake
Orchestrator that records every submission; prints the record as JSON.

usage: run_host_orch.py HOST_ORCH_PY WORLD_SIZE ARGS_JSON
ARGS_JSON lists the host orchestrator's arguments in parameter order: a shape list for a tensor, an int
for a scalar. Like pypto's runner (distributed_runner.py, tensors[info.name] = arg), each argument is
bound under its parameter's name in the program's distributed_meta.json (ConvertToSSA's name). A JSON
object instead names the parameters itself, for a host_orch.py that has no distributed_meta.json beside it.
"""

import importlib.util
import json
import os
import sys
import types

import torch
from pypto.runtime import distributed_runner


class Buffer:
    def __init__(self, name, rank):
        self.name = name
        self.rank = rank

    def tensor(self, shapes, dtype):
        if not isinstance(shapes, tuple):
            raise TypeError("shapes must be a tuple")
        return ("window", self.name, self.rank, shapes, str(dtype))


class ChipContext:
    def __init__(self, rank, size, names):
        self.domain_rank = rank
        self.domain_size = size
        self.device_ctx = 1000 + rank
        self.buffers = {n: Buffer(n, rank) for n in names}


class Domain:
    def __init__(self, orch, name, workers, window_size, buffers):
        total = sum(b.nbytes for b in buffers)
        if total > window_size:
            raise ValueError("buffers exceed window_size")
        self.contexts = {w: ChipContext(i, len(workers), [b.name for b in buffers]) for i, w in enumerate(workers)}
        orch.events.append({"kind": "allocate_domain", "name": name, "workers": list(workers)})

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __getitem__(self, worker):
        return self.contexts[worker]


class Handles(dict):
    """callables / sub_ids: a registered handle per name, created on first use."""

    def __missing__(self, key):
        return "handle:" + key


class Orchestrator:
    def __init__(self, world_size):
        self._worker = object()
        self.world_size = world_size
        self.events = []

    def _check_worker(self, w):
        if not isinstance(w, int) or isinstance(w, bool) or w < 0 or w >= self.world_size:
            raise ValueError("bad worker %r" % (w,))

    def submit_next_level(self, callable_handle, args, config=None, *, worker):
        self._check_worker(worker)
        self.events.append({"kind": "submit_next_level", "callable": callable_handle, "worker": worker,
                            "tensors": args.tensor_count(), "scalars": args.scalar_count()})

    def submit_next_level_group(self, callable_handle, args_list, config=None, *, workers):
        if len(workers) != len(args_list):
            raise ValueError("len(workers) != len(args_list)")
        if len(set(workers)) != len(workers):
            raise ValueError("duplicate worker ids")
        for w in workers:
            self._check_worker(w)
        self.events.append({"kind": "submit_next_level_group", "callable": callable_handle,
                            "workers": list(workers), "members": len(args_list)})

    def submit_sub(self, callable_handle, args=None):
        self.events.append({"kind": "submit_sub", "callable": callable_handle})

    def allocate_domain(self, *, name, workers, window_size, buffers=()):
        return Domain(self, name, workers, window_size, list(buffers))


def main():
    path, world_size, args = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
    if isinstance(args, dict):
        names, args = list(args), list(args.values())
    else:
        with open(os.path.join(os.path.dirname(os.path.dirname(path)), "distributed_meta.json")) as f:
            names = [p["name"] for p in json.load(f)["params"]]
        if len(names) != len(args):
            raise TypeError("expected %d arguments (%s), got %d" % (len(names), names, len(args)))
    spec = importlib.util.spec_from_file_location("_pypto_generated.host_orch", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    entries = [v for v in vars(module).values()
               if isinstance(v, types.FunctionType) and v.__module__ == module.__name__
               and getattr(v, "_pypto_distributed_entry", False)]
    if len(entries) != 1:
        raise RuntimeError("expected exactly one entry function, found %d" % len(entries))
    tensors = {}
    for name, shape in zip(names, args):
        tensors[name] = shape if isinstance(shape, int) else torch.zeros(tuple(shape), dtype=torch.float32).share_memory_()
    alloc = getattr(module, "_alloc_intermediates", None)
    if alloc is not None:
        alloc(tensors, world_size=world_size)
    orch = Orchestrator(world_size)
    orch._pypto_chip_count = world_size
    orch._pypto_commless_seq = 0
    from simpler.task_interface import CallConfig
    keep = []
    entries[0](orch, None, CallConfig(), tensors=tensors, callables=Handles(), sub_ids=Handles(), _keep=keep, world_size=world_size)
    print(json.dumps({"events": orch.events, "runner": [list(e) for e in distributed_runner.EVENTS],
                      "has_group": hasattr(distributed_runner, "_submit_chip_group"), "kept": len(keep)}))


main()
