// Evaluates every row of the agreement table with @bufbuild/cel (its standard definitions and
// strings extension); prints one JSON array of tagged results, in row order.
const fs = require("fs");
const cel = require("@bufbuild/cel");
const { strings } = require("@bufbuild/cel/ext");
const { encode, bind } = require("./encode.js");

const table = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const x = bind(table.bindings.x);
const out = table.rows.map((row) => {
  try {
    return encode(cel.run(row.expr, { x }, { funcs: strings }));
  } catch (e) {
    return "error";
  }
});
process.stdout.write(JSON.stringify(out));
