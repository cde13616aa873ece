"""Fake torch for running generated host_orch.py: tensors are shape records, slicing makes views."""

float16 = "float16"
float32 = "float32"
float64 = "float64"
bfloat16 = "bfloat16"
int8 = "int8"
int16 = "int16"
int32 = "int32"
int64 = "int64"
uint8 = "uint8"
uint16 = "uint16"
uint32 = "uint32"
uint64 = "uint64"
bool = "bool"


class Tensor:
    _next = 0

    def __init__(self, shape, dtype, base=None, index=None):
        Tensor._next += 1
        self.id = Tensor._next
        self.shape = tuple(shape)
        self.dtype = dtype
        self.base = base
        self.index = index
        self.shared = False
        self.writes = []

    def share_memory_(self):
        self.shared = True
        return self

    def __getitem__(self, index):
        if not isinstance(index, tuple):
            index = (index,)
        shape = []
        for axis, ix in enumerate(index):
            if isinstance(ix, slice):
                start = ix.start or 0
                stop = self.shape[axis] if ix.stop is None else ix.stop
                shape.append(stop - start)
            elif not isinstance(ix, int):
                raise TypeError("fake torch: index must be int or slice, got %r" % (ix,))
        shape.extend(self.shape[len(index):])
        return Tensor(shape, self.dtype, base=self, index=index)

    def __setitem__(self, index, value):
        self.writes.append((index, value))

    def __repr__(self):
        return "Tensor(%s, %s)" % (list(self.shape), self.dtype)


def zeros(shape, dtype=None):
    if not isinstance(shape, tuple):
        raise TypeError("fake torch.zeros expects a shape tuple")
    return Tensor(shape, dtype)
