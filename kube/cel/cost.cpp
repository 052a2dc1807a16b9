#include "kube/cel/cost.h"

#include <cstdio>
#include <map>
#include <set>

namespace convcheck::cel {

namespace {

// What the estimator knows of a value: its schema when it comes from self, its largest size
// (bytes of a string, items of a list or map).
struct Shape {
  const CelSchema* schema = nullptr;
  std::uint64_t maxSize = 0;
  bool known = false;  // maxSize is meaningful
};

std::uint64_t maxStringLength(const CelSchema* s) {
  if (!s) return kMaxRequestSizeBytes - 2;
  if (s->maxLength) return static_cast<std::uint64_t>(std::max<std::int64_t>(*s->maxLength, 0)) * 4;
  if (!s->enumValues.empty()) {
    std::uint64_t m = 0;
    for (const auto& e : s->enumValues)
      if (e.is_string()) m = std::max<std::uint64_t>(m, e.get_ref<const std::string&>().size());
    return m;
  }
  if (s->format == "duration" || s->format == "date-time") return 32;
  if (s->format == "date") return 12;
  return kMaxRequestSizeBytes - 2;
}

Shape shapeOf(const CelSchema* s) {
  Shape sh;
  sh.schema = s;
  if (!s) return sh;
  if (s->type == "string" || s->intOrString) {
    sh.maxSize = maxStringLength(s);
    sh.known = true;
  } else if (s->type == "array" || (s->type == "object" && s->additionalProperties)) {
    sh.maxSize = maxElements(s);
    sh.known = true;
  }
  return sh;
}

const CelSchema* elementSchema(const CelSchema* s) {
  if (!s) return nullptr;
  if (s->items) return s->items.get();
  return s->additionalProperties.get();
}

struct Estimator {
  std::map<std::string, Shape> vars;

  std::uint64_t traversal(std::uint64_t size) { return (size + 9) / 10; }

  std::uint64_t cost(const Expr& e, Shape& out) {
    switch (e.op) {
      case Expr::Op::Literal:
        if (e.literal.kind() == Kind::String || e.literal.kind() == Kind::Bytes) {
          out.maxSize = e.literal.str().size();
          out.known = true;
        }
        return 0;
      case Expr::Op::Ident: {
        auto it = vars.find(e.name);
        if (it != vars.end()) out = it->second;
        return 1;
      }
      case Expr::Op::Select:
      case Expr::Op::OptionalSelect: {
        Shape operand;
        const std::uint64_t c = cost(*e.args[0], operand);
        if (operand.schema) {
          const CelSchema* child = operand.schema->property(unescapePropertyName(e.name));
          if (!child) child = operand.schema->additionalProperties.get();
          out = shapeOf(child);
        }
        return saturatingAdd(c, 1);
      }
      case Expr::Op::List: {
        std::uint64_t c = 10;
        for (const auto& a : e.args) {
          Shape s;
          c = saturatingAdd(c, cost(*a, s));
        }
        out.maxSize = e.args.size();
        out.known = true;
        return c;
      }
      case Expr::Op::MapLit: {
        std::uint64_t c = 30;
        for (const auto& a : e.args) {
          Shape s;
          c = saturatingAdd(c, cost(*a, s));
        }
        out.maxSize = e.args.size() / 2;
        out.known = true;
        return c;
      }
      case Expr::Op::Comprehension:
        return comprehension(e, out);
      case Expr::Op::Bind: {
        Shape init;
        std::uint64_t c = cost(*e.args[0], init);
        auto saved = vars;
        vars[e.name] = init;
        c = saturatingAdd(c, cost(*e.args[1], out));
        vars = saved;
        return c;
      }
      case Expr::Op::OptMap: {
        Shape init;
        std::uint64_t c = cost(*e.args[0], init);
        auto saved = vars;
        vars[e.name] = init;
        c = saturatingAdd(c, cost(*e.args[1], out));
        vars = saved;
        return c;
      }
      case Expr::Op::Call:
        return call(e, out);
    }
    return 1;
  }

  std::uint64_t sizeOr(const Shape& s, std::uint64_t dflt) { return s.known ? s.maxSize : dflt; }

  std::uint64_t call(const Expr& e, Shape& out) {
    if (e.name == "_?_:_") {  // the condition and the costlier branch
      Shape cond, a, b;
      const std::uint64_t c = cost(*e.args[0], cond);
      const std::uint64_t ca = cost(*e.args[1], a), cb = cost(*e.args[2], b);
      out = a.schema ? a : b;
      out.known = a.known && b.known;
      out.maxSize = std::max(a.maxSize, b.maxSize);
      return saturatingAdd(c, std::max(ca, cb));
    }
    std::vector<Shape> shapes(e.args.size());
    std::uint64_t c = 0;
    for (std::size_t i = 0; i < e.args.size(); ++i)
      c = saturatingAdd(c, cost(*e.args[i], shapes[i]));
    const std::string& f = e.name;
    const std::uint64_t unbounded = kMaxRequestSizeBytes;
    std::uint64_t fn = 1;
    if (f == "contains" || f == "matches" || f == "find" || f == "findAll") {
      const std::uint64_t a = traversal(sizeOr(shapes[0], unbounded));
      const std::uint64_t b = shapes.size() > 1 ? traversal(sizeOr(shapes[1], unbounded)) : 1;
      fn = saturatingMul(std::max<std::uint64_t>(a, 1), std::max<std::uint64_t>(b, 1));
      if (f == "findAll") {
        out.maxSize = sizeOr(shapes[0], unbounded);
        out.known = true;
      }
    } else if (f == "startsWith" || f == "endsWith") {
      fn = traversal(sizeOr(shapes.size() > 1 ? shapes[1] : shapes[0], unbounded));
    } else if (f == "_==_" || f == "_!=_" || f == "_<_" || f == "_<=_" || f == "_>_" ||
               f == "_>=_") {
      const std::uint64_t a = sizeOr(shapes[0], 0), b = sizeOr(shapes[1], 0);
      fn = std::max<std::uint64_t>(1, traversal(std::min(a, b)));
      const CelSchema* s0 = shapes[0].schema;
      if (s0 && (s0->type == "array" || s0->type == "object"))
        fn = std::max<std::uint64_t>(fn, saturatingMul(sizeOr(shapes[0], 1), 1));
    } else if (f == "_+_") {
      if (shapes[0].known && shapes[1].known) {
        out.maxSize = saturatingAdd(shapes[0].maxSize, shapes[1].maxSize);
        out.known = true;
        fn = traversal(out.maxSize);
      }
    } else if (f == "@in") {
      fn = std::max<std::uint64_t>(1, sizeOr(shapes[1], 1));
    } else if (f == "lowerAscii" || f == "upperAscii" || f == "trim" || f == "substring" ||
               f == "replace" || f == "split" || f == "charAt" || f == "indexOf" ||
               f == "lastIndexOf" || f == "reverse" || f == "join" || f == "url" || f == "isURL" ||
               f == "ip" || f == "isIP" || f == "cidr" || f == "isCIDR" || f == "quantity" ||
               f == "isQuantity" || f == "strings.quote" || f == "validate" || f == "string" ||
               f == "bytes") {
      fn = std::max<std::uint64_t>(1, traversal(sizeOr(shapes.empty() ? Shape{} : shapes[0], 0)));
      if (f == "lowerAscii" || f == "upperAscii" || f == "trim" || f == "substring" ||
          f == "replace" || f == "reverse") {
        out.maxSize = sizeOr(shapes[0], unbounded);
        out.known = true;
      }
      if (f == "split") {
        out.maxSize = sizeOr(shapes[0], unbounded);
        out.known = true;
      }
      if ((f == "indexOf" || f == "lastIndexOf" || f == "join") && shapes[0].schema &&
          shapes[0].schema->type == "array")
        fn = std::max<std::uint64_t>(1, sizeOr(shapes[0], 1));
    } else if (f == "isSorted" || f == "sum" || f == "min" || f == "max" || f == "sets.contains" ||
               f == "sets.equivalent" || f == "sets.intersects") {
      fn = std::max<std::uint64_t>(1, sizeOr(shapes[0], 1));
      if (f.rfind("sets.", 0) == 0 && shapes.size() > 1)
        fn = saturatingMul(fn, std::max<std::uint64_t>(1, sizeOr(shapes[1], 1)));
    } else if (f == "_[_]" || f == "_[?_]") {
      out = shapeOf(elementSchema(shapes[0].schema));
    }
    return saturatingAdd(c, fn);
  }

  std::uint64_t comprehension(const Expr& e, Shape& out) {
    Shape range;
    std::uint64_t c = cost(*e.args[0], range);
    std::uint64_t n = sizeOr(range, maxCardinality(1));
    Shape elem = shapeOf(elementSchema(range.schema));
    // Map keys have no declared size: Kubernetes' size estimator gives them none (0).
    Shape key;
    key.known = true;
    auto saved = vars;
    const bool isMap = range.schema && range.schema->type == "object";
    if (e.name2.empty()) {
      vars[e.name] = isMap ? key : elem;
    } else {
      vars[e.name] = isMap ? key : Shape{};
      vars[e.name2] = elem;
    }
    std::uint64_t body = 0;
    for (std::size_t i = 1; i < e.args.size(); ++i) {
      Shape s;
      body = saturatingAdd(body, cost(*e.args[i], s));
    }
    vars = saved;
    // Each iteration: the loop condition and step (about 2) and the body.
    c = saturatingAdd(c, saturatingMul(n, saturatingAdd(body, 2)));
    if (e.macro == Macro::Map || e.macro == Macro::Filter || e.macro == Macro::TransformList ||
        e.macro == Macro::TransformMap) {
      out.maxSize = n;
      out.known = true;
      c = saturatingAdd(c, saturatingMul(n, 1));
    }
    return c;
  }
};

}  // namespace

std::uint64_t minSerializedSize(const CelSchema* s) {
  if (!s) return 1;
  if (s->intOrString) return 1;
  if (s->type == "string") {
    if (s->format == "duration") return 3;
    if (s->format == "date") return 12;
    if (s->format == "date-time") return 21;
    return 2;
  }
  if (s->type == "boolean") return 4;
  if (s->type == "integer" || s->type == "number") return 1;
  if (s->type == "array") return 2;
  if (s->type == "object") {
    if (s->additionalProperties) return 2;
    std::uint64_t n = 2;
    for (const auto& r : s->required) {
      const CelSchema* p = s->property(r);
      if (!p || p->hasDefault) continue;
      n += r.size() + minSerializedSize(p) + 4;
    }
    return n;
  }
  return 1;
}

std::uint64_t maxElements(const CelSchema* s) {
  if (!s) return maxCardinality(1);
  if (s->type == "array") {
    if (s->maxItems) return static_cast<std::uint64_t>(std::max<std::int64_t>(*s->maxItems, 0));
    return (kMaxRequestSizeBytes - 2) / (minSerializedSize(s->items.get()) + 1);
  }
  if (s->maxProperties)
    return static_cast<std::uint64_t>(std::max<std::int64_t>(*s->maxProperties, 0));
  return (kMaxRequestSizeBytes - 2) / (minSerializedSize(s->additionalProperties.get()) + 6);
}

std::uint64_t estimateMaxCost(const Expr& expr, const CelSchema* selfSchema) {
  Estimator est;
  est.vars["self"] = shapeOf(selfSchema);
  est.vars["oldSelf"] = shapeOf(selfSchema);
  Shape out;
  return est.cost(expr, out);
}

std::string costErrorMessage(const std::string& what, std::uint64_t cost, std::uint64_t limit) {
  const double factor = static_cast<double>(cost) / static_cast<double>(limit);
  char buf[64];
  if (factor > 100.0) {
    std::snprintf(buf, sizeof buf, "more than 100x");
  } else if (factor < 1.5) {
    std::snprintf(buf, sizeof buf, "%fx", factor);
  } else {
    std::snprintf(buf, sizeof buf, "%.1fx", factor);
  }
  return what + " exceeds budget by factor of " + buf +
         " (try simplifying the rule(s), or adding maxItems, maxProperties, and maxLength where "
         "arrays, maps, and strings are declared)";
}

}  // namespace convcheck::cel
