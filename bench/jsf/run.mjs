// json-schema-faker's side of bench/generation_vs_jsf.sh, and the independent validator both
// generators' output is checked with. Runs from a directory whose node_modules holds the packages
// pinned in package.json (the benchmark copies this file there).
//
//   node run.mjs generate SCHEMA.json N LIMIT_SECONDS OUT.ndjson
//     One json-schema-faker generator (createGeneratorSync, seed 1, then 2, 3, … per object: one
//     generate call per object), default options plus those of the JSON object in JSF_OPTIONS.
//     Writes one object per line to OUT and stops after N objects or once LIMIT_SECONDS have
//     passed since the process started, whichever comes first.
//     A generate call that throws writes no line and is counted in `errors`. Prints a JSON summary.
//
//   node run.mjs validate SCHEMA.json IN.ndjson
//     Validates every line of IN against SCHEMA with ajv 8 + ajv-formats and prints a JSON summary:
//     objects, valid, the most frequent failures (schema path, keyword, message) with one example
//     instance path each, and notes on what the validator left out.
//
// What the validator checks: standard JSON Schema (draft-07 vocabulary, as ajv 8 implements it) of
// the openAPIV3Schema, including `nullable` (ajv's OpenAPI keyword); patterns with their Go RE2
// meaning, unanchored, as kube-apiserver matches them, translated to JavaScript where the two
// differ: `.` matches everything but \n (JavaScript also excludes \r, U+2028, U+2029), `\s` is
// ASCII whitespace [\t\n\f\r ] (JavaScript: Unicode whitespace and \v), `(?i)` and `(?i:…)` hold
// to the end of their group, folding as Go does (k also matches U+212A, s also U+017F), and
// `(?P<name>`, `\pL`, `\x{…}`, escaped punctuation; a pattern it cannot translate (other inline
// flags, POSIX classes, `\Q…\E`, `\w` or `\p` under (?i)) is not checked and is named in the
// notes; and ajv-formats' formats in full mode (date-time, date, time, duration, uri, email,
// hostname, ipv4, ipv6, uuid, byte, int32, int64, float, double, …).
// What it does not check (ajv strict: false ignores unknown keywords): every x-kubernetes-*
// extension — int-or-string (its anyOf, when present, is checked), preserve-unknown-fields,
// embedded-resource (apiVersion/kind/metadata of the embedded object), list-type set/map
// uniqueness and list-map-keys, map-type, and CEL rules (x-kubernetes-validations); ObjectMeta rules
// (names, labels, annotations) beyond what the schema itself says; and the structural-schema
// pruning of unknown fields: a property the schema does not declare is accepted, as JSON Schema
// accepts it (the API server would drop it, not reject the object). Formats ajv-formats does not
// know (Kubernetes formats such as cidr, mac, uuid3) are registered as no-op formats and named in
// the notes.
import fs from "node:fs";
import readline from "node:readline";

async function generate(schema, count, limitSeconds, outFile) {
  const { createGeneratorSync } = await import("json-schema-faker");
  // JSF_OPTIONS (JSON) adds json-schema-faker options, e.g. {"alwaysFakeOptionals": true}.
  const extra = process.env.JSF_OPTIONS ? JSON.parse(process.env.JSF_OPTIONS) : {};
  const generator = createGeneratorSync({ ...extra, seed: 1 });
  const out = fs.openSync(outFile, "w");
  const summary = { requested: count, generated: 0, errors: 0, firstError: null, stoppedByLimit: false };
  for (let i = 0; i < count; i++) {
    // performance.now() counts from process start, so the limit includes startup and imports.
    if (performance.now() > limitSeconds * 1000) {
      summary.stoppedByLimit = true;
      break;
    }
    try {
      fs.writeSync(out, (JSON.stringify(generator.generate(schema)) ?? "null") + "\n");
      summary.generated++;
    } catch (e) {
      summary.errors++;
      summary.firstError ??= String(e && e.message ? e.message : e).slice(0, 300);
    }
  }
  fs.closeSync(out);
  console.log(JSON.stringify(summary));
}

async function validate(schema, inFile) {
  const { default: Ajv } = await import("ajv");
  const { default: addFormats } = await import("ajv-formats");
  const notes = [];
  const ajv = new Ajv({ strict: false, allErrors: false, logger: false, code: { regExp: goRegExp } });
  addFormats(ajv);
  const unknownFormats = new Set();
  walk(schema, (node, path) => {
    if (typeof node.format === "string" && !ajv.formats[node.format]) unknownFormats.add(node.format);
    if (typeof node.pattern === "string") {
      try {
        goRegExp(node.pattern, "u");
      } catch {
        notes.push(`pattern not checked at ${path}: ${node.pattern.slice(0, 80)}`);
        delete node.pattern;
      }
    }
    if (node.nullable === true && node.type === undefined) {
      // ajv refuses `nullable` without `type`; without a type the node accepts null anyway.
      delete node.nullable;
    }
  });
  for (const f of unknownFormats) {
    ajv.addFormat(f, true);
    notes.push(`format not checked: ${f}`);
  }
  let check;
  try {
    check = ajv.compile(schema);
  } catch (e) {
    console.log(JSON.stringify({ objects: 0, valid: 0, compileError: String(e.message).slice(0, 500), notes }));
    return;
  }
  const summary = { objects: 0, valid: 0, unparsable: 0, failures: [], notes };
  const failures = new Map();
  const lines = readline.createInterface({ input: fs.createReadStream(inFile), crlfDelay: Infinity });
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === "") continue;
    let object;
    try {
      object = JSON.parse(line);
    } catch {
      summary.unparsable++;  // a line cut short when a generator was stopped; not an object
      continue;
    }
    summary.objects++;
    if (check(object)) {
      summary.valid++;
      continue;
    }
    const e = check.errors[check.errors.length - 1];  // for anyOf/oneOf: the junctor, not a branch
    const key = `${e.schemaPath} ${e.message}`;
    const seen = failures.get(key);
    if (seen) seen.count++;
    else failures.set(key, { count: 1, schemaPath: e.schemaPath, message: e.message, example: { line: lineNo, instancePath: e.instancePath, params: e.params } });
  }
  summary.failures = [...failures.values()].sort((a, b) => b.count - a.count).slice(0, 5);
  console.log(JSON.stringify(summary));
}

function walk(node, visit, path = "#") {
  if (Array.isArray(node)) return node.forEach((n, i) => walk(n, visit, `${path}/${i}`));
  if (node === null || typeof node !== "object") return;
  visit(node, path);
  for (const key of ["properties", "patternProperties", "definitions"]) {
    for (const [name, child] of Object.entries(node[key] ?? {})) walk(child, visit, `${path}/${key}/${name}`);
  }
  for (const key of ["additionalProperties", "items", "not", "allOf", "anyOf", "oneOf"]) {
    if (node[key] !== undefined) walk(node[key], visit, `${path}/${key}`);
  }
}

// A Go RE2 pattern as a JavaScript RegExp with the same matches (see the header for what differs).
function goRegExp(pattern, flags) {
  return new RegExp(goToJs(pattern), flags);
}
goRegExp.code = "goRegExp";

function goToJs(p) {
  const unsupported = (what) => {
    throw new Error(`${what} in ${p}`);
  };
  const folds = [false];  // per open group: under (?i)
  const fold = () => folds[folds.length - 1];
  let out = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      const [escape, end] = goEscape(p, i, unsupported);
      i = end;
      if (typeof escape === "number") {
        const ch = String.fromCodePoint(escape);
        const v = fold() ? caseVariants(ch) : [ch];
        out += v.length > 1 ? "[" + v.map(hex).join("") + "]" : hex(ch);
      } else if (escape === "s") out += "[\\t\\n\\f\\r ]";
      else if (escape === "S") out += "[^\\t\\n\\f\\r ]";
      else if (escape === "z") out += "$";
      else if (escape === "A") out += "^";
      else if (fold() && /^[wWpP]/.test(escape)) unsupported(`\\${escape} under (?i)`);
      else out += "\\" + escape;
    } else if (c === "[") {
      const [js, end] = goClass(p, i, fold(), unsupported);
      out += js;
      i = end;
    } else if (c === ".") {
      out += "[^\\n]";
    } else if (c === "(") {
      if (p.startsWith("(?i)", i)) {
        folds[folds.length - 1] = true;
        i += 3;
        continue;
      }
      folds.push(fold());
      if (p.startsWith("(?i:", i)) {
        folds[folds.length - 1] = true;
        out += "(?:";
        i += 3;
      } else if (p.startsWith("(?P<", i)) {
        out += "(?<";
        i += 3;
      } else if (p.startsWith("(?:", i)) {
        out += "(?:";
        i += 2;
      } else if (p[i + 1] === "?") {
        unsupported("inline flags other than i");
      } else out += c;
    } else if (c === ")") {
      if (folds.length > 1) folds.pop();
      out += c;
    } else {
      const cp = String.fromCodePoint(p.codePointAt(i));
      i += cp.length - 1;
      const v = fold() ? caseVariants(cp) : [cp];
      out += v.length > 1 ? "[" + v.map(hex).join("") + "]" : cp;
    }
  }
  return out;
}

// The class starting at p[start] as a JavaScript class; returns it and the index of its `]`.
function goClass(p, start, fold, unsupported) {
  let i = start + 1;
  let out = "[";
  if (p[i] === "^") out += p[i++];
  const atoms = [];  // [from, to] code points, when folding
  let first = true;
  for (; i < p.length && (p[i] !== "]" || first); i++, first = false) {
    const c = p[i];
    if (c === "[" && p[i + 1] === ":") unsupported("POSIX class");
    if (c === "\\") {
      const [escape, end] = goEscape(p, i, unsupported);
      i = end;
      if (typeof escape === "number") {
        atoms.push([escape, escape]);
        out += hex(String.fromCodePoint(escape));
      } else if (escape === "s") out += "\\t\\n\\f\\r ";
      else if (/^[dDwWpP]/.test(escape)) {
        if (fold && !/^[dD]/.test(escape)) unsupported(`\\${escape} in a class under (?i)`);
        out += "\\" + escape;
      } else unsupported(`\\${escape} in a class`);
      continue;
    }
    const cp = p.codePointAt(i);
    i += String.fromCodePoint(cp).length - 1;
    if (p[i + 1] === "-" && p[i + 2] !== "]" && p[i + 2] !== "\\" && i + 2 < p.length) {
      const to = p.codePointAt(i + 2);
      atoms.push([cp, to]);
      out += hex(String.fromCodePoint(cp)) + "-" + hex(String.fromCodePoint(to));
      i += 1 + String.fromCodePoint(to).length;
    } else {
      atoms.push([cp, cp]);
      out += hex(String.fromCodePoint(cp));
    }
  }
  if (i >= p.length) unsupported("unterminated class");
  if (fold) {
    for (const [from, to] of atoms) {
      if (to - from > 2000) unsupported("large range in a case-insensitive class");
      for (let cp = from; cp <= to; cp++) {
        for (const v of caseVariants(String.fromCodePoint(cp)).slice(1)) out += hex(v);
      }
    }
  }
  return [out + "]", i];
}

// The escape at p[start] (a backslash): a code point for a literal, else the escape's text without
// the backslash (`d`, `s`, `p{Greek}`, `pL` as `p{L}`, …); and the index of its last character.
function goEscape(p, start, unsupported) {
  const d = p[start + 1];
  if (d === undefined) unsupported("trailing backslash");
  if (d === "x") {
    if (p[start + 2] === "{") {
      const close = p.indexOf("}", start);
      return [parseInt(p.slice(start + 3, close), 16), close];
    }
    return [parseInt(p.slice(start + 2, start + 4), 16), start + 3];
  }
  if (d === "p" || d === "P") {
    if (p[start + 2] !== "{") return [`${d}{${p[start + 2]}}`, start + 2];
    const close = p.indexOf("}", start);
    return [p.slice(start + 1, close + 1), close];
  }
  const controls = { t: 9, n: 10, f: 12, r: 13, v: 11, a: 7 };
  if (d in controls) return [controls[d], start + 1];
  if (/[!-\/:-@\[-`{-~]/.test(d)) return [d.codePointAt(0), start + 1];
  if ("dDwWsSbBzA".includes(d)) return [d, start + 1];
  unsupported(`\\${d}`);
}

function hex(ch) {
  return `\\u{${ch.codePointAt(0).toString(16)}}`;
}

// ch and every other character with the same Unicode simple case folding, as Go's (?i) matches.
const variantCache = new Map();
let casedCharacters;
function caseVariants(ch) {
  if (ch.toLowerCase() === ch && ch.toUpperCase() === ch && !/\p{L}/u.test(ch)) return [ch];
  if (!variantCache.has(ch)) {
    casedCharacters ??= Array.from({ length: 0x20000 }, (_, cp) => String.fromCodePoint(cp)).filter(
      (s) => s.toLowerCase() !== s || s.toUpperCase() !== s);
    const same = new RegExp(`^${hex(ch)}$`, "iu");
    variantCache.set(ch, [ch, ...casedCharacters.filter((s) => s !== ch && same.test(s))]);
  }
  return variantCache.get(ch);
}

const [mode, schemaFile, ...rest] = process.argv.slice(2);
const schema = JSON.parse(fs.readFileSync(schemaFile, "utf8"));

if (mode === "generate") {
  await generate(schema, Number(rest[0]), Number(rest[1]), rest[2]);
} else if (mode === "validate") {
  await validate(schema, rest[0]);
} else {
  console.error("usage: run.mjs generate SCHEMA N LIMIT_SECONDS OUT | validate SCHEMA IN");
  process.exit(2);
}
