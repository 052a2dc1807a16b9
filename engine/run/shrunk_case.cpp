#include "engine/run/shrunk_case.h"

namespace convcheck {

std::string shrunkCaseIdentity(const Finding& example) {
  constexpr std::size_t kShrunkObjects = 2;  // as shrunk_witness.cpp: a batch holds several
  if (!example.shrink || example.shrink->calls == 0 || example.caseObjects.empty() ||
      example.caseObjects.size() > kShrunkObjects)
    return "";
  // The seed draws an edit's content and transitivity's via version: the same objects with
  // another seed are another case.
  std::string id = example.property + "\n" + example.from + "\n" + example.to + "\n" +
                   example.caseTo + "\n" + example.part + "\n" + std::to_string(example.seed);
  for (const auto& object : example.caseObjects) id += "\n" + object.dump();
  return id;
}

}  // namespace convcheck
