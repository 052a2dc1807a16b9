// libFuzzer target: the CRD loader on arbitrary text (YAML with anchors and merge keys, JSON,
// several documents, v1 and v1beta1 CRDs), as read from a file or stdin.
#include <cstddef>
#include <cstdint>
#include <string>

#include "kube/crd/crd_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  convcheck::LoadResult result = convcheck::loadCrdText(text, "fuzz.yaml");
  for (const auto& e : result.errors) (void)e.text();
  return 0;
}
