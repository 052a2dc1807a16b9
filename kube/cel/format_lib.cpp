// Kubernetes' format library: format.named(name) and the named formats (format.dns1123Label(),
// …), each with validate(s): optional.none() when valid, else the list of apimachinery's messages.
#include <cstring>

#include "kube/cel/builtins.h"
#include "kube/cel/time_text.h"
#include "kube/names/name_rules.h"

namespace convcheck::cel {

namespace {

using Check = std::vector<std::string> (*)(std::string_view);

std::vector<std::string> uuidErrors(std::string_view s) {
  const bool ok = s.size() == 36 && [&] {
    for (std::size_t i = 0; i < s.size(); ++i) {
      const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
    }
    return true;
  }();
  if (ok) return {};
  return {"does not match the UUID format"};
}

std::vector<std::string> byteErrors(std::string_view s) {
  if (s.size() % 4 != 0) return {"invalid base64"};
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool pad = c == '=' && i + 2 >= s.size();
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '/' && !pad)
      return {"invalid base64"};
  }
  return {};
}

std::vector<std::string> dateErrors(std::string_view s) {
  if (parseDate(s)) return {};
  return {"invalid date"};
}

std::vector<std::string> datetimeErrors(std::string_view s) {
  if (parseRfc3339(s)) return {};
  return {"invalid datetime"};
}

std::vector<std::string> uriErrors(std::string_view s) {
  if (s.empty() || s.find(' ') != std::string_view::npos) return {"invalid URI"};
  return {};
}

template <std::vector<std::string> (*F)(std::string_view), std::size_t Max>
std::vector<std::string> prefixOf(std::string_view s) {
  // The *Prefix formats accept a prefix of a valid name: a trailing '-' or '.' is allowed.
  std::string t(s);
  while (!t.empty() && (t.back() == '-' || t.back() == '.')) t.pop_back();
  if (t.empty()) return {};
  (void)Max;
  return F(t);
}

struct Named {
  const char* name;
  Check check;
};

const Named kFormats[] = {
    {"dns1123Label", dns1123LabelErrors},
    {"dns1123Subdomain", dns1123SubdomainErrors},
    {"dns1035Label", dns1035LabelErrors},
    {"qualifiedName", labelKeyErrors},
    {"labelValue", labelValueErrors},
    {"dns1123LabelPrefix", prefixOf<dns1123LabelErrors, 63>},
    {"dns1123SubdomainPrefix", prefixOf<dns1123SubdomainErrors, 253>},
    {"dns1035LabelPrefix", prefixOf<dns1035LabelErrors, 63>},
    {"uri", uriErrors},
    {"uuid", uuidErrors},
    {"byte", byteErrors},
    {"date", dateErrors},
    {"datetime", datetimeErrors},
};

class FormatValue final : public OpaqueImpl {
 public:
  explicit FormatValue(const Named* f) : format(f) {}
  const char* typeName() const override { return "kubernetes.NamedFormat"; }
  bool equals(const OpaqueImpl& o) const override {
    return static_cast<const FormatValue&>(o).format == format;
  }
  const Named* format;
};

Value named(const Value* a, std::size_t n, EvalState&) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 1 || a[0].kind() != Kind::String) return noSuchOverload("format.named");
  for (const auto& f : kFormats)
    if (a[0].str() == f.name)
      return Value::optionalOf(Value::opaque(std::make_shared<const FormatValue>(&f)));
  return Value::optionalNone();
}

template <int I>
Value byIndex(const Value*, std::size_t, EvalState&) {
  return Value::opaque(std::make_shared<const FormatValue>(&kFormats[I]));
}

Value validate(const Value* a, std::size_t n, EvalState& st) {
  if (const Value* e = firstError(a, n)) return *e;
  if (n != 2 || a[0].kind() != Kind::Opaque || a[1].kind() != Kind::String ||
      std::strcmp(a[0].asOpaque().typeName(), "kubernetes.NamedFormat") != 0)
    return noSuchOverload("validate");
  st.cost += traversalCost(a[1].str().size());
  const auto* f = static_cast<const FormatValue*>(&a[0].asOpaque());
  auto errors = f->format->check(a[1].str());
  if (errors.empty()) return Value::optionalNone();
  std::vector<Value> list;
  for (auto& e : errors) list.push_back(Value::string(std::move(e)));
  return Value::optionalOf(Value::list(std::move(list)));
}

}  // namespace

void addFormatLibrary(FunctionTable& t) {
  t.global("format.named", named);
  t.global("format.dns1123Label", byIndex<0>);
  t.global("format.dns1123Subdomain", byIndex<1>);
  t.global("format.dns1035Label", byIndex<2>);
  t.global("format.qualifiedName", byIndex<3>);
  t.global("format.labelValue", byIndex<4>);
  t.global("format.dns1123LabelPrefix", byIndex<5>);
  t.global("format.dns1123SubdomainPrefix", byIndex<6>);
  t.global("format.dns1035LabelPrefix", byIndex<7>);
  t.global("format.uri", byIndex<8>);
  t.global("format.uuid", byIndex<9>);
  t.global("format.byte", byIndex<10>);
  t.global("format.date", byIndex<11>);
  t.global("format.datetime", byIndex<12>);
  t.member("validate", validate);
}

}  // namespace convcheck::cel
