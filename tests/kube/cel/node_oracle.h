// Runs one of the oracle scripts in tests/kube/cel/oracle with Node.js and returns its JSON
// output; nullopt when Node.js or the npm packages are missing (ci/install-deps.sh installs
// them). Used by the conformance and oracle tests.
#pragma once

#include <cstdio>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace convcheck::cel::testing {

inline std::optional<nlohmann::json> runOracle(const std::string& script, const std::string& arg) {
  const std::string dir = CEL_ORACLE_DIR;
  const std::string cmd = "cd '" + dir + "' && test -d node_modules/@bufbuild/cel && node '" +
                          script + "' '" + arg + "' 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return std::nullopt;
  std::string out;
  char buf[65536];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (pclose(p) != 0 || out.empty()) return std::nullopt;
  return nlohmann::json::parse(out, nullptr, false);
}

}  // namespace convcheck::cel::testing
