#include "shrink/tree_descent.h"

namespace convcheck {

rc::Shrinkable<nlohmann::json> descendShrinkTree(
    rc::Shrinkable<nlohmann::json> start,
    const std::function<bool(const rc::Shrinkable<nlohmann::json>&)>& accept,
    const std::function<bool()>& stop, DescentStats* stats, int maxWidth) {
  rc::Shrinkable<nlohmann::json> current = std::move(start);
  bool moved = true;
  while (moved && !stop()) {
    moved = false;
    auto shrinks = current.shrinks();
    for (int width = 0; width < maxWidth && !stop(); ++width) {
      auto next = shrinks.next();
      if (!next) break;
      if (stats) ++stats->examined;
      if (accept(*next)) {
        current = std::move(*next);
        if (stats) ++stats->accepted;
        moved = true;
        break;
      }
    }
  }
  return current;
}

}  // namespace convcheck
