// CEL's grammar (cel-spec langdef): text to an Expr tree, macros expanded (has, all, exists,
// exists_one, map, filter, the two-variable forms, cel.bind, optMap/optFlatMap), literal escapes
// decoded, recursion limited as cel-go limits it. Used by Program (program.h).
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "kube/cel/ast.h"

namespace convcheck::cel {

struct ParseOptions {
  int maxRecursionDepth = 250;         // cel-go's default parser recursion limit
  std::size_t maxCodePoints = 100000;  // cel-go's default expression size limit
};

// The tree, or a message in cel-go's form: "<input>:1:7: Syntax error: …".
std::variant<ExprPtr, std::string> parse(std::string_view source, const ParseOptions& options = {});

}  // namespace convcheck::cel
