/**
 * Reads a PyTorch checkpoint in the legacy (pre-1.6, non-zip) serialisation without Python or
 * torch: the file is a run of pickles (magic number, protocol version, system info, the saved
 * object, whose tensors refer to storages by persistent id, then the storages' keys in the order
 * their bytes follow), then each storage's raw little-endian elements behind its element count
 * (int64). Resemblyzer's GE2E encoder (`pretrained.pt`) is such a file.
 *
 * Only what a state dict holds is unpickled (dicts, lists, tuples, numbers, strings,
 * `collections.OrderedDict`, `torch._utils._rebuild_tensor_v2` and the storage types); any other
 * class is refused, so a checkpoint cannot make this run code, and the opcodes are protocol 2's
 * that such files use.
 */

export class CheckpointFormatError extends Error {
  override readonly name = 'CheckpointFormatError';
}

/** A value of the saved object. Dicts (OrderedDict too) are Maps; integers beyond 2^53 are bigints. */
export type PickleValue = null | boolean | number | bigint | string | PickleValue[] | PickleTuple | Map<PickleKey, PickleValue> | TorchTensor;
export type PickleKey = string | number | bigint | boolean | null;

/** A tuple, told apart from a list (a tensor's size and stride are tuples). */
export class PickleTuple {
  constructor(readonly items: readonly PickleValue[]) {}
}

/** A tensor of the checkpoint: float32 values, copied out of its storage in row-major order. */
export class TorchTensor {
  constructor(
    readonly shape: readonly number[],
    /** shape: (product of `shape`), row-major */
    readonly values: Float32Array,
  ) {}
}

/** The legacy format's first pickle: 0x1950a86a20f9469cfc6c. */
const LEGACY_MAGIC = 0x1950a86a20f9469cfc6cn;
const LEGACY_PROTOCOL_VERSION = 1001;

/** Bytes per element of the storage types a checkpoint may hold; only FloatStorage's tensors are read. */
const STORAGE_ITEM_BYTES: Record<string, number> = {
  FloatStorage: 4, DoubleStorage: 8, HalfStorage: 2, LongStorage: 8, IntStorage: 4,
  ShortStorage: 2, CharStorage: 1, ByteStorage: 1, BoolStorage: 1,
};

/** A storage as the object refers to it; its bytes come after the pickles. */
class StorageRef {
  bytes: Uint8Array | undefined;
  constructor(readonly type: string, readonly key: string, readonly elements: number) {}
}

/** A tensor before the storages were read: its view of a storage. */
class TensorRef {
  constructor(readonly storage: StorageRef, readonly offset: number, readonly size: readonly number[], readonly stride: readonly number[]) {}
}

/** Marks the globals the unpickler allows. */
class Global {
  constructor(readonly name: 'OrderedDict' | 'rebuildTensor' | 'storageType', readonly storageType?: string) {}
}

type StackItem = PickleValue | StorageRef | TensorRef | Global | typeof MARK;
const MARK = Symbol('mark');

/** The saved object of a legacy checkpoint, its tensors as float32 arrays. */
export function readLegacyTorchCheckpoint(file: Uint8Array): PickleValue {
  const reader = new PickleReader(file);
  const magic = reader.next();
  if (magic !== LEGACY_MAGIC) throw new CheckpointFormatError('not a legacy PyTorch checkpoint (its magic number is missing)');
  const protocol = reader.next();
  if (protocol !== LEGACY_PROTOCOL_VERSION) throw new CheckpointFormatError(`legacy checkpoint protocol ${String(protocol)} is not ${LEGACY_PROTOCOL_VERSION}`);
  const systemInfo = reader.next();
  if (systemInfo instanceof Map && systemInfo.get('little_endian') === false) throw new CheckpointFormatError('a big-endian checkpoint is not supported');
  const saved = reader.next();
  const keys = reader.next();
  if (!Array.isArray(keys) || !keys.every((key): key is string => typeof key === 'string')) throw new CheckpointFormatError('the checkpoint does not list its storages');

  let position = reader.position;
  for (const key of keys) {
    const storage = reader.storages.get(key);
    if (!storage) throw new CheckpointFormatError(`storage ${key} is listed but never used`);
    if (position + 8 > file.length) throw new CheckpointFormatError('the checkpoint ends inside its storages');
    const elements = Number(new DataView(file.buffer, file.byteOffset + position, 8).getBigInt64(0, true));
    const length = elements * STORAGE_ITEM_BYTES[storage.type]!;
    position += 8;
    if (elements !== storage.elements || position + length > file.length) throw new CheckpointFormatError(`storage ${key} is cut short or of another size than stated`);
    storage.bytes = file.subarray(position, position + length);
    position += length;
  }
  return materialise(saved);
}

/** The saved object with each tensor view copied out of its storage. */
function materialise(value: StackItem): PickleValue {
  if (value instanceof TensorRef) return tensorOf(value);
  if (Array.isArray(value)) return value.map(materialise);
  if (value instanceof PickleTuple) return new PickleTuple(value.items.map(materialise));
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, materialise(item)]));
  if (value instanceof StorageRef || value instanceof Global || value === MARK) throw new CheckpointFormatError('a storage or class where a value belongs');
  return value;
}

function tensorOf(ref: TensorRef): TorchTensor {
  const { storage } = ref;
  if (storage.type !== 'FloatStorage') throw new CheckpointFormatError(`tensors of ${storage.type} are not read (only float32)`);
  if (!storage.bytes) throw new CheckpointFormatError(`storage ${storage.key} has no bytes`);
  const source = new DataView(storage.bytes.buffer, storage.bytes.byteOffset, storage.bytes.byteLength);
  const count = ref.size.reduce((product, dimension) => product * dimension, 1);
  const values = new Float32Array(count);
  // Row-major walk over the view: index → element offset through the strides.
  const index = new Array<number>(ref.size.length).fill(0);
  for (let flat = 0; flat < count; flat++) {
    let element = ref.offset;
    for (let axis = 0; axis < index.length; axis++) element += index[axis]! * ref.stride[axis]!;
    if (element >= storage.elements) throw new CheckpointFormatError(`a tensor reaches past storage ${storage.key}`);
    values[flat] = source.getFloat32(element * 4, true);
    for (let axis = index.length - 1; axis >= 0; axis--) {
      if (++index[axis]! < ref.size[axis]!) break;
      index[axis] = 0;
    }
  }
  return new TorchTensor(ref.size, values);
}

/** Protocol-2 unpickling of the opcodes a legacy checkpoint uses, one pickle per `next()`. */
class PickleReader {
  position = 0;
  readonly storages = new Map<string, StorageRef>();
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  next(): StackItem {
    const stack: StackItem[] = [];
    const memo = new Map<number, StackItem>();
    const pop = (): StackItem => {
      if (stack.length === 0) throw new CheckpointFormatError('pickle stack underflow');
      return stack.pop()!;
    };
    const popToMark = (): StackItem[] => {
      const mark = stack.lastIndexOf(MARK);
      if (mark < 0) throw new CheckpointFormatError('pickle MARK missing');
      const items = stack.splice(mark);
      return items.slice(1);
    };
    const top = (): StackItem => {
      if (stack.length === 0) throw new CheckpointFormatError('pickle stack underflow');
      return stack[stack.length - 1]!;
    };
    const setItems = (target: StackItem, items: StackItem[]) => {
      if (!(target instanceof Map)) throw new CheckpointFormatError('SETITEM on something not a dict');
      for (let index = 0; index + 1 < items.length; index += 2) target.set(asKey(items[index]!), items[index + 1] as PickleValue);
    };
    const append = (target: StackItem, items: StackItem[]) => {
      if (!Array.isArray(target)) throw new CheckpointFormatError('APPEND to something not a list');
      target.push(...(items as PickleValue[]));
    };

    for (;;) {
      const opcode = this.byte();
      switch (opcode) {
        case 0x80: this.byte(); break; // PROTO
        case 0x2e: return pop(); // STOP
        case 0x4e: stack.push(null); break; // NONE
        case 0x88: stack.push(true); break; // NEWTRUE
        case 0x89: stack.push(false); break; // NEWFALSE
        case 0x4a: stack.push(this.view.getInt32(this.take(4), true)); break; // BININT
        case 0x4b: stack.push(this.byte()); break; // BININT1
        case 0x4d: stack.push(this.view.getUint16(this.take(2), true)); break; // BININT2
        case 0x8a: stack.push(this.long(this.byte())); break; // LONG1
        case 0x47: stack.push(this.view.getFloat64(this.take(8), false)); break; // BINFLOAT (big-endian)
        case 0x58: { // BINUNICODE
          const length = this.view.getUint32(this.take(4), true);
          stack.push(new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(this.take(length), this.position)));
          break;
        }
        case 0x7d: stack.push(new Map()); break; // EMPTY_DICT
        case 0x5d: stack.push([]); break; // EMPTY_LIST
        case 0x29: stack.push(new PickleTuple([])); break; // EMPTY_TUPLE
        case 0x28: stack.push(MARK); break; // MARK
        case 0x74: stack.push(new PickleTuple(popToMark() as PickleValue[])); break; // TUPLE
        case 0x85: stack.push(new PickleTuple([pop() as PickleValue])); break; // TUPLE1
        case 0x86: { const second = pop(); stack.push(new PickleTuple([pop() as PickleValue, second as PickleValue])); break; } // TUPLE2
        case 0x87: { const third = pop(); const second = pop(); stack.push(new PickleTuple([pop() as PickleValue, second as PickleValue, third as PickleValue])); break; } // TUPLE3
        case 0x61: { const item = pop(); append(top(), [item]); break; } // APPEND
        case 0x65: { const items = popToMark(); append(top(), items); break; } // APPENDS
        case 0x73: { const value = pop(); const key = pop(); setItems(top(), [key, value]); break; } // SETITEM
        case 0x75: { const items = popToMark(); setItems(top(), items); break; } // SETITEMS
        case 0x71: memo.set(this.byte(), top()); break; // BINPUT
        case 0x72: memo.set(this.view.getUint32(this.take(4), true), top()); break; // LONG_BINPUT
        case 0x68: stack.push(this.memo(memo, this.byte())); break; // BINGET
        case 0x6a: stack.push(this.memo(memo, this.view.getUint32(this.take(4), true))); break; // LONG_BINGET
        case 0x63: stack.push(allowedGlobal(this.line(), this.line())); break; // GLOBAL
        case 0x52: { const args = pop(); stack.push(this.reduce(pop(), args)); break; } // REDUCE
        case 0x51: stack.push(this.persistent(pop())); break; // BINPERSID
        case 0x62: { // BUILD: an OrderedDict's attributes (`_metadata`) carry nothing a tensor needs.
          pop();
          if (!(top() instanceof Map)) throw new CheckpointFormatError('BUILD on something not a dict');
          break;
        }
        default: throw new CheckpointFormatError(`pickle opcode 0x${opcode.toString(16)} at byte ${this.position - 1} is not read`);
      }
    }
  }

  private reduce(callable: StackItem, args: StackItem): StackItem {
    if (!(callable instanceof Global) || !(args instanceof PickleTuple)) throw new CheckpointFormatError('REDUCE of something not an allowed class');
    if (callable.name === 'OrderedDict') return new Map();
    if (callable.name === 'rebuildTensor') {
      const [storage, offset, size, stride] = args.items as unknown[];
      if (!(storage instanceof StorageRef) || typeof offset !== 'number' || !(size instanceof PickleTuple) || !(stride instanceof PickleTuple)) {
        throw new CheckpointFormatError('a tensor is not (storage, offset, size, stride)');
      }
      return new TensorRef(storage, offset, size.items.map(Number), stride.items.map(Number));
    }
    throw new CheckpointFormatError('a storage type called as a function');
  }

  /** `('storage', type, key, location, elements, view)`, as torch's legacy save writes it. */
  private persistent(id: StackItem): StorageRef {
    const [kind, type, key, , elements] = id instanceof PickleTuple ? id.items as unknown[] : [];
    if (kind !== 'storage' || !(type instanceof Global) || type.storageType === undefined || typeof key !== 'string' || typeof elements !== 'number') {
      throw new CheckpointFormatError('a persistent id is not a storage');
    }
    let storage = this.storages.get(key);
    if (!storage) {
      storage = new StorageRef(type.storageType, key, elements);
      this.storages.set(key, storage);
    }
    return storage;
  }

  private memo(memo: Map<number, StackItem>, index: number): StackItem {
    if (!memo.has(index)) throw new CheckpointFormatError(`pickle memo ${index} is empty`);
    return memo.get(index)!;
  }

  private byte(): number {
    return this.bytes[this.take(1)]!;
  }

  /** Advances over `length` bytes; returns where they start. */
  private take(length: number): number {
    const start = this.position;
    if (start + length > this.bytes.length) throw new CheckpointFormatError('the checkpoint ends inside a pickle');
    this.position += length;
    return start;
  }

  /** A little-endian two's-complement integer of `length` bytes: a number when exact, else a bigint. */
  private long(length: number): number | bigint {
    const start = this.take(length);
    let value = 0n;
    for (let index = length - 1; index >= 0; index--) value = (value << 8n) | BigInt(this.bytes[start + index]!);
    if (length > 0 && this.bytes[start + length - 1]! & 0x80) value -= 1n << BigInt(8 * length);
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }

  private line(): string {
    const end = this.bytes.indexOf(0x0a, this.position);
    if (end < 0) throw new CheckpointFormatError('the checkpoint ends inside a GLOBAL');
    const text = new TextDecoder().decode(this.bytes.subarray(this.position, end));
    this.position = end + 1;
    return text;
  }
}

function allowedGlobal(module: string, name: string): Global {
  if (module === 'collections' && name === 'OrderedDict') return new Global('OrderedDict');
  if (module === 'torch._utils' && name === '_rebuild_tensor_v2') return new Global('rebuildTensor');
  if (module === 'torch' && name in STORAGE_ITEM_BYTES) return new Global('storageType', name);
  throw new CheckpointFormatError(`a state dict does not hold ${module}.${name}: refused`);
}

function asKey(item: StackItem): PickleKey {
  if (item === null || ['string', 'number', 'bigint', 'boolean'].includes(typeof item)) return item as PickleKey;
  throw new CheckpointFormatError('a dict key that is not a string or a number');
}
