#include "engine/run/connections.h"

namespace convcheck {

Connections::Connections(const Crd& crd, ResolvedTarget target, TargetFactory makeTarget, int slots)
    : crd_(crd), target_(std::move(target)), makeTarget_(std::move(makeTarget)), gate_(slots) {}

std::unique_ptr<Converter> Connections::open() {
  auto converter = std::make_unique<Converter>(crd_, makeTarget_(target_), target_.reviewVersion);
  converter->setGate(&gate_);
  return converter;
}

}  // namespace convcheck
