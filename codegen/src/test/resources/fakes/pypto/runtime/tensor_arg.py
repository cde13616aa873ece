"""Fake pypto.runtime.tensor_arg."""


class WireTensor:
    def __init__(self, worker, tensor):
        self.worker = worker
        self.tensor = tensor


def make_tensor_arg(worker, arg):
    if isinstance(arg, WireTensor):
        return arg
    return WireTensor(worker, arg)
