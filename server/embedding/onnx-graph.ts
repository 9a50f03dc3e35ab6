/**
 * A minimal writer of ONNX model files (protobuf), enough for single-purpose graphs Verity builds itself: the
 * int8 similarity scan of vector-scan.ts, and the tiny stand-in models tests load in milliseconds. Field numbers
 * are those of onnx.proto (ModelProto, GraphProto, NodeProto, ValueInfoProto, TensorProto).
 */

export const ONNX_TYPE = { float: 1, uint8: 2, int8: 3, int32: 6, int64: 7 } as const;
export type OnnxType = keyof typeof ONNX_TYPE;

export type OnnxNode = {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, number>;
};
export type OnnxValue = { name: string; type: OnnxType; dims: Array<number | string> };
export type OnnxInitializer = { name: string; type: 'float' | 'int64'; dims: number[]; values: ArrayLike<number> };
export type OnnxGraph = {
  name: string;
  nodes: OnnxNode[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  initializers?: OnnxInitializer[];
  opset?: number;
};

class Writer {
  private readonly parts: Uint8Array[] = [];
  private length = 0;
  private push(bytes: Uint8Array) {
    this.parts.push(bytes);
    this.length += bytes.length;
  }
  varint(value: number | bigint) {
    let v = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      out.push(byte);
    } while (v > 0n);
    this.push(Uint8Array.from(out));
  }
  tag(field: number, wire: number) {
    this.varint((field << 3) | wire);
  }
  int(field: number, value: number | bigint) {
    this.tag(field, 0);
    this.varint(value);
  }
  bytes(field: number, data: Uint8Array) {
    this.tag(field, 2);
    this.varint(data.length);
    this.push(data);
  }
  string(field: number, value: string) {
    this.bytes(field, new TextEncoder().encode(value));
  }
  message(field: number, build: (w: Writer) => void) {
    const inner = new Writer();
    build(inner);
    this.bytes(field, inner.finish());
  }
  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

function valueInfo(w: Writer, v: OnnxValue) {
  w.string(1, v.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, ONNX_TYPE[v.type]);
      tensor.message(2, (shape) => {
        for (const d of v.dims) shape.message(1, (dim) => (typeof d === 'number' ? dim.int(1, d) : dim.string(2, d)));
      });
    }),
  );
}

function initializer(w: Writer, t: OnnxInitializer) {
  for (const d of t.dims) w.int(1, d);
  w.int(2, ONNX_TYPE[t.type]);
  w.string(8, t.name);
  if (t.type === 'float') {
    const raw = new Float32Array(t.values.length);
    for (let i = 0; i < raw.length; i += 1) raw[i] = t.values[i] ?? 0;
    w.bytes(9, new Uint8Array(raw.buffer));
  } else {
    const raw = new BigInt64Array(t.values.length);
    for (let i = 0; i < raw.length; i += 1) raw[i] = BigInt(Math.trunc(t.values[i] ?? 0));
    w.bytes(9, new Uint8Array(raw.buffer));
  }
}

/** The bytes of an .onnx file holding `graph` (IR version 8). */
export function onnxModel(graph: OnnxGraph): Uint8Array {
  const w = new Writer();
  w.int(1, 8);
  w.string(2, 'verity');
  w.message(7, (g) => {
    for (const n of graph.nodes)
      g.message(1, (node) => {
        for (const i of n.inputs) node.string(1, i);
        for (const o of n.outputs) node.string(2, o);
        node.string(4, n.op);
        for (const [name, value] of Object.entries(n.attributes ?? {}))
          node.message(5, (a) => {
            a.string(1, name);
            a.int(3, value);
            a.int(20, 2); // AttributeProto.INT
          });
      });
    g.string(2, graph.name);
    for (const t of graph.initializers ?? []) g.message(5, (x) => initializer(x, t));
    for (const v of graph.inputs) g.message(11, (x) => valueInfo(x, v));
    for (const v of graph.outputs) g.message(12, (x) => valueInfo(x, v));
  });
  w.message(8, (o) => {
    o.string(1, '');
    o.int(2, graph.opset ?? 13);
  });
  return w.finish();
}
