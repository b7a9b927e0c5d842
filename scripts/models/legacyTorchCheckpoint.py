"""
Reads a PyTorch checkpoint in the legacy (pre-1.6, non-zip) serialisation without torch: the
file is a run of pickles (magic number, protocol version, system info, the object whose tensors
refer to storages by persistent id, the storages' keys), then each storage's raw bytes behind
its element count (int64, little-endian). Tensors come back as numpy arrays.

Only what a state dict holds is unpickled (OrderedDict, torch._utils._rebuild_tensor_v2 and the
storage types); any other class is refused, so that a checkpoint cannot run code.
"""
import collections
import pickle
import struct

import numpy as np

LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
STORAGE_DTYPES = {
    'FloatStorage': np.float32, 'DoubleStorage': np.float64, 'HalfStorage': np.float16,
    'LongStorage': np.int64, 'IntStorage': np.int32, 'ShortStorage': np.int16,
    'CharStorage': np.int8, 'ByteStorage': np.uint8, 'BoolStorage': np.bool_,
}


class _StorageType:
    def __init__(self, name):
        self.dtype = STORAGE_DTYPES[name]


class _Storage:
    def __init__(self, dtype, elements):
        self.dtype, self.elements, self.data = dtype, elements, None


class _TensorRef:
    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)

    def array(self):
        data = self.storage.data
        strides = [step * data.itemsize for step in self.stride]
        return np.lib.stride_tricks.as_strided(data[self.offset:], shape=self.size, strides=strides).copy()


def _rebuild_tensor_v2(storage, offset, size, stride, *_):
    return _TensorRef(storage, offset, size, stride)


class _StateDictUnpickler(pickle.Unpickler):
    def __init__(self, file, storages):
        super().__init__(file)
        self.storages = storages

    def find_class(self, module, name):
        if module == 'collections' and name == 'OrderedDict':
            return collections.OrderedDict
        if module == 'torch._utils' and name == '_rebuild_tensor_v2':
            return _rebuild_tensor_v2
        if module == 'torch' and name in STORAGE_DTYPES:
            return _StorageType(name)
        raise pickle.UnpicklingError(f'a state dict does not hold {module}.{name}: refused')

    def persistent_load(self, pid):
        # ('storage', storage type, key, location, element count[, view metadata])
        _, storage_type, key, _, elements = pid[:5]
        if key not in self.storages:
            self.storages[key] = _Storage(storage_type.dtype, elements)
        return self.storages[key]


def _arrays(value):
    if isinstance(value, _TensorRef):
        return value.array()
    if isinstance(value, dict):
        return {key: _arrays(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_arrays(item) for item in value)
    return value


def load_legacy_checkpoint(path):
    """The checkpoint's object with every tensor as a numpy array."""
    with open(path, 'rb') as file:
        magic = pickle.load(file)
        if magic != LEGACY_MAGIC:
            raise ValueError(f'{path}: not a legacy PyTorch checkpoint (magic number {magic!r})')
        pickle.load(file)  # protocol version
        pickle.load(file)  # system info (endianness, type sizes)
        storages = {}
        root = _StateDictUnpickler(file, storages).load()
        for key in pickle.load(file):
            storage = storages[key]
            (elements,) = struct.unpack('<q', file.read(8))
            if elements != storage.elements:
                raise ValueError(f'{path}: storage {key} holds {elements} elements, its tensors say {storage.elements}')
            size = elements * np.dtype(storage.dtype).itemsize
            raw = file.read(size)
            if len(raw) != size:
                raise ValueError(f'{path}: storage {key} is cut short ({len(raw)} of {size} bytes)')
            storage.data = np.frombuffer(raw, dtype=storage.dtype)
        if file.read(1):
            raise ValueError(f'{path}: bytes after the last storage')
    return _arrays(root)
