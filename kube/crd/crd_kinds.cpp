#include "kube/crd/crd_kinds.h"

namespace convcheck {

std::string describeKinds(const std::vector<Crd>& crds) {
  std::string text;
  for (const Crd& crd : crds) text += (text.empty() ? "" : ", ") + crd.kind + " (" + crd.name + ")";
  return text.empty() ? "no CRD" : text;
}

}  // namespace convcheck
