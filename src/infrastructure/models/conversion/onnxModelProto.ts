/**
 * Writes ONNX models: a hand-written protobuf encoder for the few ModelProto fields a float
 * graph needs (onnxruntime-node can run models but not build them; the npm package `onnx-proto`
 * would add protobufjs 6 for ~60 lines of encoding). Used to convert a downloaded checkpoint
 * into the model the embedding slot loads (ge2eCheckpointToOnnx), and by tests for small graphs.
 * The bytes depend on the spec alone (no timestamps), so a conversion's digest can be pinned.
 * Field numbers from onnx/onnx.proto3.
 */

export type Dimension = number | string;

export interface OnnxTensorSpec {
  name: string;
  /** Numbers are fixed sizes, strings symbolic ones (`'batch'`). */
  shape: Dimension[];
}

export interface OnnxNodeSpec {
  opType: string;
  inputs: string[];
  outputs: string[];
  /** Integer and integer-list attributes (e.g. `{ axes: [1], keepdims: 0 }`). */
  attributes?: Record<string, number | number[]>;
}

export interface OnnxInitializerSpec {
  name: string;
  dims: number[];
  /** shape: (product of dims), row-major; float32 or int64 (e.g. Squeeze's axes). */
  values: Float32Array | BigInt64Array;
}

export interface OnnxModelSpec {
  inputs: OnnxTensorSpec[];
  outputs: OnnxTensorSpec[];
  nodes: OnnxNodeSpec[];
  initializers?: OnnxInitializerSpec[];
  /** Defaults to 17 (ReduceMean still takes `axes` as an attribute). */
  opset?: number;
  /** The model's `metadata_props` (key → value). */
  metadata?: Record<string, string>;
  /** `producer_name` and the graph's name; default `callscope-tests` and `test-graph`. */
  producer?: string;
  graphName?: string;
}

const FLOAT = 1;
const INT64 = 7;
/** ONNX IR version 8 (ONNX 1.12, opset 17's): the onnxruntime of onnxruntime-node reads up to 13 here, not onnx 1.2x's default. */
const IR_VERSION = 8;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;

/** The bytes of an ONNX model of float32 tensors, ready for `InferenceSession.create(bytes)` or a file. */
export function onnxModel(spec: OnnxModelSpec): Uint8Array {
  const graph = [
    ...spec.nodes.map((node, index) => message(1, nodeProto(node, index))),
    string(2, spec.graphName ?? 'test-graph'),
    ...(spec.initializers ?? []).map((initializer) => message(5, tensorProto(initializer))),
    ...spec.inputs.map((input) => message(11, valueInfo(input))),
    ...spec.outputs.map((output) => message(12, valueInfo(output))),
  ];
  return concat([
    varintField(1, IR_VERSION),
    string(2, spec.producer ?? 'callscope-tests'),
    message(7, concat(graph)),
    message(8, concat([string(1, ''), varintField(2, spec.opset ?? 17)])),
    ...Object.entries(spec.metadata ?? {}).map(([key, value]) => message(14, concat([string(1, key), string(2, value)]))),
  ]);
}

function nodeProto(node: OnnxNodeSpec, index: number): Uint8Array {
  return concat([
    ...node.inputs.map((input) => string(1, input)),
    ...node.outputs.map((output) => string(2, output)),
    string(3, `${node.opType.toLowerCase()}_${index}`),
    string(4, node.opType),
    ...Object.entries(node.attributes ?? {}).map(([name, value]) => message(5, Array.isArray(value)
      ? concat([string(1, name), ...value.map((item) => varintField(8, item)), varintField(20, ATTRIBUTE_INTS)])
      : concat([string(1, name), varintField(3, value), varintField(20, ATTRIBUTE_INT)]))),
  ]);
}

function tensorProto(initializer: OnnxInitializerSpec): Uint8Array {
  const raw = new Uint8Array(initializer.values.buffer, initializer.values.byteOffset, initializer.values.byteLength);
  return concat([
    ...initializer.dims.map((dim) => varintField(1, dim)),
    varintField(2, initializer.values instanceof BigInt64Array ? INT64 : FLOAT),
    string(8, initializer.name),
    bytes(9, raw),
  ]);
}

function valueInfo(tensor: OnnxTensorSpec): Uint8Array {
  const dims = tensor.shape.map((dim) => message(1, typeof dim === 'number' ? varintField(1, dim) : string(2, dim)));
  const tensorType = concat([varintField(1, FLOAT), message(2, concat(dims))]);
  return concat([string(1, tensor.name), message(2, message(1, tensorType))]);
}

function varint(value: number): number[] {
  const out: number[] = [];
  let rest = BigInt.asUintN(64, BigInt(value));
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    out.push(rest > 0n ? low | 0x80 : low);
  } while (rest > 0n);
  return out;
}

function varintField(field: number, value: number): Uint8Array {
  return Uint8Array.from([...varint(field << 3), ...varint(value)]);
}

function bytes(field: number, payload: Uint8Array): Uint8Array {
  return concat([Uint8Array.from([...varint((field << 3) | 2), ...varint(payload.length)]), payload]);
}

function string(field: number, text: string): Uint8Array {
  return bytes(field, new TextEncoder().encode(text));
}

function message(field: number, payload: Uint8Array): Uint8Array {
  return bytes(field, payload);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
