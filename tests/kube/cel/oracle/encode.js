// The tagged JSON form of a @bufbuild/cel result, as tests/kube/cel/table_codec.h reads it.
const cel = require("@bufbuild/cel");

function encode(v) {
  if (cel.isCelError(v) || v instanceof Error) return "error";
  if (v === null) return { null: true };
  if (typeof v === "boolean") return { bool: v };
  if (typeof v === "bigint") return { int: v.toString() };
  if (cel.isCelUint(v)) return { uint: v.value.toString() };
  if (typeof v === "number") {
    if (Number.isNaN(v)) return { double: "NaN" };
    if (!Number.isFinite(v)) return { double: v > 0 ? "Infinity" : "-Infinity" };
    return { double: v };
  }
  if (typeof v === "string") return { string: v };
  if (v instanceof Uint8Array) return { bytes: Buffer.from(v).toString("base64") };
  if (cel.isCelList(v)) {
    const out = [];
    for (const e of v) out.push(encode(e));
    return { list: out };
  }
  if (cel.isCelMap(v)) {
    const out = [];
    for (const [k, e] of v) out.push([encode(k), encode(e)]);
    return { map: out };
  }
  if (cel.isCelType(v)) return { type: v.name };
  return { other: String(v && v.constructor && v.constructor.name) };
}

// JSON bindings as CEL sees Kubernetes objects: integral numbers as int.
function bind(j) {
  if (Array.isArray(j)) return j.map(bind);
  if (j !== null && typeof j === "object") {
    const m = new Map();
    for (const [k, v] of Object.entries(j)) m.set(k, bind(v));
    return m;
  }
  if (typeof j === "number" && Number.isInteger(j)) return BigInt(j);
  return j;
}

module.exports = { encode, bind };
