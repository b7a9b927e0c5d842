import { Buffer } from 'node:buffer';

/**
 * Writes legacy (pre-1.6) PyTorch checkpoints for tests, as `torch.save` wrote them: pickles of
 * the magic number, the protocol version, the system info, the object (tensors as
 * `_rebuild_tensor_v2` of a persistent storage id), the storage keys, then each storage's
 * element count (int64) and float32 elements. Protocol 2 opcodes only.
 */

/** A tensor as a view of a storage (several tensors may share one). */
export interface FixtureTensor {
  kind: 'tensor';
  storage: FixtureStorage;
  offset: number;
  size: number[];
  stride: number[];
}

export interface FixtureStorage {
  key: string;
  values: Float32Array;
}

export type FixtureValue = null | boolean | number | bigint | string | FixtureValue[] | { tuple: FixtureValue[] } | { orderedDict: [string, FixtureValue][] } | Map<string, FixtureValue> | FixtureTensor;

/** A contiguous tensor with a storage of its own. */
export function tensor(key: string, size: number[], values: Float32Array): FixtureTensor {
  const stride = size.map((_, axis) => size.slice(axis + 1).reduce((product, dimension) => product * dimension, 1));
  return { kind: 'tensor', storage: { key, values }, offset: 0, size, stride };
}

export function legacyCheckpoint(saved: FixtureValue, options: { magic?: bigint; globals?: [string, string][] } = {}): Buffer {
  const storages = new Map<string, FixtureStorage>();
  const parts = [
    pickle((out) => long(out, options.magic ?? 0x1950a86a20f9469cfc6cn)),
    pickle((out) => value(out, 1001, storages)),
    pickle((out) => value(out, new Map<string, FixtureValue>([['protocol_version', 1001], ['little_endian', true]]), storages)),
    pickle((out) => {
      for (const [module, name] of options.globals ?? []) out.push(0x63, ...text(`${module}\n${name}\n`));
      value(out, saved, storages);
    }),
  ];
  parts.push(pickle((out) => value(out, [...storages.keys()], storages)));
  for (const storage of storages.values()) {
    const count = Buffer.alloc(8);
    count.writeBigInt64LE(BigInt(storage.values.length));
    parts.push(count, Buffer.from(storage.values.buffer, storage.values.byteOffset, storage.values.byteLength));
  }
  return Buffer.concat(parts);
}

function pickle(write: (out: number[]) => void): Buffer {
  const out: number[] = [0x80, 2];
  write(out);
  out.push(0x2e);
  return Buffer.from(out);
}

function value(out: number[], item: FixtureValue, storages: Map<string, FixtureStorage>): void {
  if (item === null) out.push(0x4e);
  else if (item === true) out.push(0x88);
  else if (item === false) out.push(0x89);
  else if (typeof item === 'bigint') long(out, item);
  else if (typeof item === 'number' && Number.isInteger(item)) {
    const bytes = Buffer.alloc(4);
    bytes.writeInt32LE(item);
    out.push(0x4a, ...bytes);
  } else if (typeof item === 'number') {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(item);
    out.push(0x47, ...bytes);
  } else if (typeof item === 'string') {
    const bytes = text(item);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(bytes.length);
    out.push(0x58, ...length, ...bytes);
  } else if (Array.isArray(item)) {
    out.push(0x5d, 0x28);
    for (const element of item) value(out, element, storages);
    out.push(0x65);
  } else if (item instanceof Map) {
    out.push(0x7d, 0x28);
    for (const [key, element] of item) { value(out, key, storages); value(out, element, storages); }
    out.push(0x75);
  } else if ('tuple' in item) {
    out.push(0x28);
    for (const element of item.tuple) value(out, element, storages);
    out.push(0x74);
  } else if ('orderedDict' in item) {
    out.push(0x63, ...text('collections\nOrderedDict\n'), 0x29, 0x52, 0x28);
    for (const [key, element] of item.orderedDict) { value(out, key, storages); value(out, element, storages); }
    out.push(0x75);
  } else {
    storages.set(item.storage.key, item.storage);
    out.push(0x63, ...text('torch._utils\n_rebuild_tensor_v2\n'), 0x28);
    // The persistent id: ('storage', torch.FloatStorage, key, 'cpu', elements, None).
    out.push(0x28);
    value(out, 'storage', storages);
    out.push(0x63, ...text('torch\nFloatStorage\n'));
    value(out, item.storage.key, storages);
    value(out, 'cpu', storages);
    value(out, item.storage.values.length, storages);
    out.push(0x4e, 0x74, 0x51);
    value(out, item.offset, storages);
    value(out, { tuple: item.size }, storages);
    value(out, { tuple: item.stride }, storages);
    out.push(0x89);
    value(out, { orderedDict: [] }, storages);
    out.push(0x74, 0x52);
  }
}

function long(out: number[], item: bigint): void {
  const bytes: number[] = [];
  let rest = item;
  do {
    bytes.push(Number(BigInt.asUintN(8, rest)));
    rest >>= 8n;
  } while (!(rest === 0n && (bytes.at(-1)! & 0x80) === 0) && !(rest === -1n && (bytes.at(-1)! & 0x80) !== 0));
  out.push(0x8a, bytes.length, ...bytes);
}

function text(item: string): number[] {
  return [...Buffer.from(item, 'utf8')];
}
