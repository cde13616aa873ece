"""Fake simpler.task_interface: the names generated host_orch.py imports, with simpler's checks."""

import enum
from dataclasses import dataclass


class DataType(enum.Enum):
    FLOAT32 = 0
    FLOAT16 = 1
    INT32 = 2
    INT16 = 3
    INT8 = 4
    UINT8 = 5
    BFLOAT16 = 6
    INT64 = 7
    UINT64 = 8
    UINT16 = 9
    UINT32 = 10


class TensorArgType(enum.Enum):
    INPUT = 0
    OUTPUT = 1
    INOUT = 2
    OUTPUT_EXISTING = 3
    NO_DEP = 4


class CallConfig:
    def __init__(self):
        self.aicpu_thread_num = 0
        self.output_prefix = ""


@dataclass
class CommBufferSpec:
    name: str
    dtype: str
    count: int
    nbytes: int
    load_from_host: bool = False
    store_to_host: bool = False


class TaskArgs:
    def __init__(self):
        self.tensors = []
        self.scalars = []

    def add_tensor(self, t, tag=TensorArgType.INPUT):
        if self.scalars:
            raise RuntimeError("cannot add tensor after scalar")
        if not isinstance(tag, TensorArgType):
            raise TypeError("tag must be a TensorArgType")
        self.tensors.append((t, tag))

    def add_scalar(self, s):
        if not isinstance(s, int) or s < 0:
            raise TypeError("add_scalar takes a non-negative int (uint64)")
        self.scalars.append(s)

    def tensor_count(self):
        return len(self.tensors)

    def scalar_count(self):
        return len(self.scalars)
