// The cel-spec conformance tests (from @bufbuild/cel-spec) of the sections that apply to
// Kubernetes' CEL (no protobuf messages): one JSON array of {section, name, expr, bindings,
// expect} where expect is a tagged value or "error"; tests that need messages, type-checking
// only or containers are left out and counted as skipped.
const { tests } = require("@bufbuild/cel-spec/testdata/conformance.js");

const sections = new Set(["basic", "comparisons", "conversions", "fp_math", "integer_math", "lists",
  "logic", "macros", "macros2", "optionals", "parse", "plumbing", "string", "string_ext", "timestamps",
  "bindings_ext"]);

function tag(v) {
  if (v === undefined) return undefined;
  if ("int64Value" in v) return { int: String(v.int64Value) };
  if ("uint64Value" in v) return { uint: String(v.uint64Value) };
  if ("doubleValue" in v) {
    const d = v.doubleValue;
    if (typeof d === "string") return { double: d === "NaN" ? "NaN" : d };
    return { double: d };
  }
  if ("stringValue" in v) return { string: v.stringValue };
  if ("bytesValue" in v) return { bytes: v.bytesValue };
  if ("boolValue" in v) return { bool: v.boolValue };
  if ("nullValue" in v) return { null: true };
  if ("typeValue" in v) return { type: v.typeValue };
  if ("listValue" in v) {
    const items = (v.listValue.values || []).map(tag);
    return items.includes(undefined) ? undefined : { list: items };
  }
  if ("mapValue" in v) {
    const entries = (v.mapValue.entries || []).map((e) => [tag(e.key), tag(e.value)]);
    return entries.some((e) => e[0] === undefined || e[1] === undefined) ? undefined : { map: entries };
  }
  return undefined;  // objectValue, enumValue: messages
}

const out = [];
let skipped = 0;
function walk(suite, section) {
  for (const t of suite.tests || []) {
    const o = t.original;
    if (o.checkOnly || o.container || o.typedResult || /google\.protobuf|TestAllTypes|cel\.expr\./.test(o.expr)) {
      skipped++;
      continue;
    }
    let expect;
    if (o.evalError) expect = "error";
    else expect = tag(o.value || { boolValue: true });
    const bindings = {};
    let ok = expect !== undefined;
    for (const [k, b] of Object.entries(o.bindings || {})) {
      const v = tag(b.value || {});
      if (v === undefined) ok = false;
      bindings[k] = v;
    }
    if (!ok) { skipped++; continue; }
    out.push({ section, name: o.name, expr: o.expr, bindings, expect });
  }
  for (const s of suite.suites || []) walk(s, section);
}
for (const s of tests.suites) {
  if (sections.has(s.name)) walk(s, s.name);
}
process.stdout.write(JSON.stringify({ skipped, tests: out }));
